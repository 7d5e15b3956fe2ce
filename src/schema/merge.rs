//! Folding schemas that must all hold into one schema, for the consumers that cannot say "all of":
//! the GBNF generator (a grammar has no intersection), the dialects without `allOf`, and the
//! example calls of the chat templates (one value must fit every part).
//!
//! [`Merger::flatten`] folds a node's `allOf` parts (each part's `$ref` resolved) and a `$ref`'s
//! sibling keywords into the node; [`Merger::meet`] combines two schemas the same way, which is
//! also how an `anyOf` branch takes in the keywords beside the `anyOf`. The combination:
//! `properties` unioned (a property in both merged recursively), `required` unioned, `type`
//! intersected (`integer` ⊂ `number`), numeric, length and count bounds the tightest, `enum`
//! intersected, `const`s equal, `additionalProperties: false` winning, `uniqueItems: true`
//! winning. Annotations keep the first value. Any other keyword whose values differ keeps the
//! first value and is recorded as a [`Conflict`]. Parts that contradict each other (no common
//! type, different `const`s, disjoint `enum`s) meet in nothing: `None`.

use serde_json::{Map, Value};

use crate::decode::SchemaError;

/// A keyword two merged schemas gave different values the merge cannot combine: the first value
/// was kept, the other is not enforced by the merged schema.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Conflict {
    /// JSON Pointer of the node (in the original schema) where the parts met.
    pub path: String,
    /// The keyword.
    pub keyword: String,
    /// The value that was left out.
    pub other: Value,
}

pub(crate) use crate::decode::is_annotation;

/// The names in a schema object's `required` list (none when it has no list).
pub(crate) fn required_names(m: &Map<String, Value>) -> Vec<&str> {
    m.get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The schema a local `$ref` (`#`, `#/$defs/Name`, percent-encoded or `~`-escaped) points to.
pub(crate) fn resolve<'s>(root: &'s Value, r: &str) -> Option<&'s Value> {
    let p = r.strip_prefix('#')?;
    if p.is_empty() {
        return Some(root);
    }
    root.pointer(p)
        .or_else(|| root.pointer(&percent_decode(p)?))
}

/// `s` with `%XX` escapes decoded (a URI fragment), `None` when that is not UTF-8 or unchanged.
fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return None;
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(h) = s.get(i + 1..i + 3)
            && let Ok(v) = u8::from_str_radix(h, 16)
        {
            out.push(v);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Folds schemas together against the root the `$ref`s resolve in.
pub(crate) struct Merger<'s> {
    root: &'s Value,
    max_depth: usize,
    /// The keywords that could not be combined, in the order met.
    pub conflicts: Vec<Conflict>,
}

impl<'s> Merger<'s> {
    /// A merger for schemas inside `root`, following at most `max_depth` nested merges and
    /// `$ref`s (so `A: allOf[B]`, `B: allOf[A]` is an error, not a loop).
    pub(crate) fn new(root: &'s Value, max_depth: usize) -> Self {
        Self {
            root,
            max_depth,
            conflicts: Vec::new(),
        }
    }

    /// `schema` as one schema without `allOf` and without a top-level `$ref`: the referenced
    /// schema and each `allOf` part met with the node's own keywords. `None` when the parts
    /// contradict each other (the node accepts nothing).
    ///
    /// # Errors
    /// A `$ref` that does not resolve, or nesting deeper than the limit.
    pub(crate) fn flatten(
        &mut self,
        schema: &Value,
        path: &str,
        depth: usize,
    ) -> Result<Option<Map<String, Value>>, SchemaError> {
        self.within_depth(depth)?;
        let o = match schema {
            Value::Bool(false) => return Ok(None),
            Value::Object(o) => o,
            _ => return Ok(Some(Map::new())),
        };
        let mut own = o.clone();
        let reference = own.remove("$ref");
        let parts = own.remove("allOf");
        normalise_nullable(&mut own);
        let mut acc = Some(own);
        match reference {
            Some(Value::String(r)) => {
                let target = resolve(self.root, &r).ok_or_else(|| SchemaError::UnresolvedRef {
                    reference: r.clone(),
                })?;
                let t = self.flatten(target, path, depth + 1)?;
                acc = self.meet_maps(acc, t, path, depth)?;
            }
            Some(other) => {
                if let Some(m) = &mut acc {
                    m.insert("$ref".into(), other);
                }
            }
            None => {}
        }
        match parts {
            Some(Value::Array(parts)) => {
                for (i, p) in parts.iter().enumerate() {
                    let f = self.flatten(p, &format!("{path}/allOf/{i}"), depth + 1)?;
                    acc = self.meet_maps(acc, f, path, depth)?;
                }
            }
            Some(other) => {
                if let Some(m) = &mut acc {
                    m.insert("allOf".into(), other);
                }
            }
            None => {}
        }
        Ok(acc)
    }

    /// The schema both `a` and `b` describe (each flattened first); `None` when they contradict.
    ///
    /// # Errors
    /// As [`Merger::flatten`].
    pub(crate) fn meet(
        &mut self,
        a: &Value,
        b: &Value,
        path: &str,
        depth: usize,
    ) -> Result<Option<Map<String, Value>>, SchemaError> {
        let fa = self.flatten(a, path, depth + 1)?;
        let fb = self.flatten(b, path, depth + 1)?;
        self.meet_maps(fa, fb, path, depth)
    }

    /// [`Merger::meet`] as a schema value: `false` for nothing, `a` itself when both are equal.
    fn meet_value(
        &mut self,
        a: &Value,
        b: &Value,
        path: &str,
        depth: usize,
    ) -> Result<Value, SchemaError> {
        if a == b {
            return Ok(a.clone());
        }
        match (a, b) {
            (Value::Bool(true), x) | (x, Value::Bool(true)) => return Ok(x.clone()),
            (Value::Bool(false), _) | (_, Value::Bool(false)) => return Ok(Value::Bool(false)),
            _ => {}
        }
        Ok(self
            .meet(a, b, path, depth + 1)?
            .map_or(Value::Bool(false), Value::Object))
    }

    fn meet_maps(
        &mut self,
        a: Option<Map<String, Value>>,
        b: Option<Map<String, Value>>,
        path: &str,
        depth: usize,
    ) -> Result<Option<Map<String, Value>>, SchemaError> {
        self.within_depth(depth)?;
        let (Some(mut a), Some(mut b)) = (a, b) else {
            return Ok(None);
        };
        normalise_nullable(&mut a);
        normalise_nullable(&mut b);
        for (k, bv) in b {
            let Some(av) = a.get(&k) else {
                a.insert(k, bv);
                continue;
            };
            if *av == bv || is_annotation(&k) {
                continue;
            }
            let merged = match k.as_str() {
                "type" => match intersect_types(av, &bv) {
                    Some(t) => t,
                    None => return Ok(None),
                },
                "properties" => {
                    let (Value::Object(ap), Value::Object(bp)) = (av, &bv) else {
                        self.conflict(path, &k, bv);
                        continue;
                    };
                    let mut out = ap.clone();
                    for (name, s) in bp {
                        let m = match ap.get(name) {
                            Some(prev) => {
                                let mut p = format!("{path}/properties/");
                                crate::decode::push_pointer(&mut p, name);
                                self.meet_value(prev, s, &p, depth + 1)?
                            }
                            None => s.clone(),
                        };
                        out.insert(name.clone(), m);
                    }
                    Value::Object(out)
                }
                "required" => {
                    let mut out = av.as_array().cloned().unwrap_or_default();
                    for r in bv.as_array().into_iter().flatten() {
                        if !out.contains(r) {
                            out.push(r.clone());
                        }
                    }
                    Value::Array(out)
                }
                "additionalProperties"
                | "additionalItems"
                | "propertyNames"
                | "unevaluatedProperties"
                | "unevaluatedItems" => {
                    let p = format!("{path}/{k}");
                    self.meet_value(av, &bv, &p, depth + 1)?
                }
                "items" if !av.is_array() && !bv.is_array() => {
                    let p = format!("{path}/items");
                    self.meet_value(av, &bv, &p, depth + 1)?
                }
                "minimum" | "exclusiveMinimum" | "minLength" | "minItems" | "minProperties"
                | "minContains" | "maximum" | "exclusiveMaximum" | "maxLength" | "maxItems"
                | "maxProperties" | "maxContains" => {
                    // The tighter bound: the larger lower bound, the smaller upper one.
                    let lower = k.starts_with("min") || k == "exclusiveMinimum";
                    match (av.as_f64(), bv.as_f64()) {
                        (Some(x), Some(y)) if (y > x) == lower && y != x => bv,
                        (Some(_), Some(_)) => av.clone(),
                        _ => {
                            self.conflict(path, &k, bv);
                            continue;
                        }
                    }
                }
                "enum" => {
                    let (Value::Array(ae), Value::Array(be)) = (av, &bv) else {
                        self.conflict(path, &k, bv);
                        continue;
                    };
                    let common: Vec<Value> =
                        ae.iter().filter(|v| be.contains(v)).cloned().collect();
                    if common.is_empty() {
                        return Ok(None);
                    }
                    Value::Array(common)
                }
                "const" => return Ok(None),
                "uniqueItems" => Value::Bool(av == &Value::Bool(true) || bv == Value::Bool(true)),
                "nullable" => Value::Bool(av == &Value::Bool(true) && bv == Value::Bool(true)),
                _ => {
                    self.conflict(path, &k, bv);
                    continue;
                }
            };
            a.insert(k, merged);
        }
        Ok(reconcile(a))
    }

    /// The error for nesting deeper than the limit (`A: allOf[B]`, `B: allOf[A]`).
    fn within_depth(&self, depth: usize) -> Result<(), SchemaError> {
        if depth > self.max_depth {
            return Err(SchemaError::TooDeep {
                limit: self.max_depth,
            });
        }
        Ok(())
    }

    fn conflict(&mut self, path: &str, keyword: &str, other: Value) {
        self.conflicts.push(Conflict {
            path: path.to_owned(),
            keyword: keyword.to_owned(),
            other,
        });
    }
}

/// OpenAPI's `nullable: true` said as a `null` type, so type intersection sees it.
fn normalise_nullable(m: &mut Map<String, Value>) {
    if m.get("nullable") != Some(&Value::Bool(true)) || !m.contains_key("type") {
        return;
    }
    m.remove("nullable");
    match m.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let t = std::mem::take(t);
            m.insert("type".into(), Value::Array(vec![t.into(), "null".into()]));
        }
        Some(Value::Array(ts)) if !ts.iter().any(|t| t == "null") => ts.push("null".into()),
        _ => {}
    }
}

/// The type names of a `type` value.
fn type_names(t: &Value) -> Vec<&str> {
    match t {
        Value::String(s) => vec![s.as_str()],
        Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The types both `a` and `b` allow (an integer is a number); `None` when there are none.
fn intersect_types(a: &Value, b: &Value) -> Option<Value> {
    let (ta, tb) = (type_names(a), type_names(b));
    let mut out: Vec<&str> = Vec::new();
    for t in &ta {
        let keep = tb.contains(t) || (*t == "integer" && tb.contains(&"number"));
        if keep && !out.contains(t) {
            out.push(t);
        }
    }
    if ta.contains(&"number") && tb.contains(&"integer") && !out.contains(&"integer") {
        out.push("integer");
    }
    match out.len() {
        0 => None,
        1 => Some(Value::String(out[0].to_owned())),
        _ => Some(Value::Array(out.into_iter().map(Value::from).collect())),
    }
}

/// Whether a value of JSON type `t` may be `v`.
pub(crate) fn type_admits(t: &str, v: &Value) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "string" => v.is_string(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        "number" => v.is_number(),
        "integer" => {
            v.is_i64()
                || v.is_u64()
                || v.as_f64()
                    .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
        }
        _ => true,
    }
}

/// A merged node made consistent: a `const` inside its `enum` and of its `type`, `enum` values
/// of its `type`; `None` when nothing is left.
fn reconcile(mut m: Map<String, Value>) -> Option<Map<String, Value>> {
    let types: Option<Vec<String>> = m
        .get("type")
        .map(|t| type_names(t).into_iter().map(str::to_owned).collect());
    let fits = |v: &Value| {
        types
            .as_ref()
            .is_none_or(|ts| ts.iter().any(|t| type_admits(t, v)))
    };
    if let Some(c) = m.get("const") {
        if !fits(c) {
            return None;
        }
        if let Some(Value::Array(e)) = m.get("enum") {
            if !e.contains(c) {
                return None;
            }
            m.remove("enum");
        }
    } else if let Some(Value::Array(e)) = m.get("enum")
        && types.is_some()
    {
        let kept: Vec<Value> = e.iter().filter(|v| fits(v)).cloned().collect();
        if kept.is_empty() {
            return None;
        }
        m.insert("enum".into(), Value::Array(kept));
    }
    Some(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn flat(s: &Value) -> Option<Value> {
        Merger::new(s, 48)
            .flatten(s, "", 0)
            .unwrap()
            .map(Value::Object)
    }

    #[test]
    fn all_of_parts_and_siblings_fold_into_one_schema() {
        let s = json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
            "allOf": [{"properties": {"b": {"type": "integer"}, "a": {"maxLength": 3}}, "required": ["b"]}]});
        assert_eq!(
            flat(&s).unwrap(),
            json!({"type": "object", "properties": {"a": {"type": "string", "maxLength": 3}, "b": {"type": "integer"}},
                   "required": ["a", "b"]})
        );
    }

    #[test]
    fn contradictions_meet_in_nothing() {
        assert_eq!(
            flat(&json!({"allOf": [{"type": "string"}, {"type": "integer"}]})),
            None
        );
        assert_eq!(flat(&json!({"allOf": [{"const": 1}, {"const": 2}]})), None);
        assert_eq!(
            flat(&json!({"allOf": [{"enum": [1, 2]}, {"enum": [3]}]})),
            None
        );
        assert_eq!(
            flat(
                &json!({"allOf": [{"type": "number", "minimum": 1}, {"type": "integer", "minimum": 3}, {"maximum": 9}]})
            ),
            Some(json!({"type": "integer", "minimum": 3, "maximum": 9}))
        );
        assert_eq!(
            flat(
                &json!({"allOf": [{"type": "string", "nullable": true}, {"enum": ["a", 1, null]}]})
            ),
            Some(json!({"type": ["string", "null"], "enum": ["a", null]}))
        );
    }

    #[test]
    fn uncombinable_keywords_keep_the_first_and_are_reported() {
        let s = json!({"allOf": [{"pattern": "^a"}, {"pattern": "b$"}]});
        let mut m = Merger::new(&s, 48);
        let f = m.flatten(&s, "/x", 0).unwrap().unwrap();
        assert_eq!(Value::Object(f), json!({"pattern": "^a"}));
        assert_eq!(m.conflicts.len(), 1);
        assert_eq!(m.conflicts[0].keyword, "pattern");
        assert_eq!(m.conflicts[0].path, "/x");
    }

    #[test]
    fn refs_resolve_and_cycles_are_errors() {
        let s = json!({"$defs": {"A": {"allOf": [{"$ref": "#/$defs/B"}]}, "B": {"allOf": [{"$ref": "#/$defs/A"}]},
                                 "a b": {"type": "integer"}}});
        let a = json!({"$ref": "#/$defs/A"});
        assert!(matches!(
            Merger::new(&s, 48).flatten(&a, "", 0),
            Err(SchemaError::TooDeep { .. })
        ));
        assert_eq!(
            resolve(&s, "#/$defs/a%20b"),
            Some(&json!({"type": "integer"}))
        );
    }
}
