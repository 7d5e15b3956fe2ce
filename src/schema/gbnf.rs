//! GBNF grammars for llama.cpp: the tool-call envelope plus each tool's arguments, so constrained
//! sampling can only produce a well-formed call to a known tool.
//!
//! Grammar syntax follows llama.cpp's `grammars/README.md` (rules `name ::= …`, literals, character
//! classes, `?`, `*`, `{m,n}`). The shared JSON primitives mirror the ones llama.cpp's own
//! `json-schema-to-grammar` emits.
//!
//! The rule: the grammar never rejects a value the tool's schema accepts and a model would
//! reasonably write (under constrained sampling it could not make the call at all), and every
//! keyword it does not enforce is listed in [`Grammar::dropped`] (decode still enforces them).
//! Deliberately stricter than the schema: an object with `properties` takes no undeclared keys
//! (besides `required` names without a property schema) and its required properties come
//! first; a node without `type` but with only object keywords is an object, with only array
//! keywords an array. `allOf` parts and a `$ref`'s sibling keywords are merged into one schema,
//! and each `anyOf`/`oneOf` branch is merged with the keywords beside it (see `merge.rs`); tuples
//! (`prefixItems`, array-form `items`), lengths, item counts, `enum`, `const` and OpenAPI's
//! `nullable` are enforced. Not enforced (so reported): `pattern`, `format`, numeric bounds
//! (except an integer's `minimum` of 0), `oneOf`'s exclusivity unless the branches are evidently
//! disjoint, property counts, dependencies, `contains`, `not`, `if`/`then`/`else`, and
//! `unevaluated*`.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::merge::{self, Merger};
use super::{Action, Dropped};
use crate::decode::SchemaError;

/// How a tool call is wrapped in the model's output.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Envelope {
    /// Text before the call object (e.g. `<tool_call>\n`).
    pub prefix: String,
    /// Text after the call object (e.g. `\n</tool_call>`).
    pub suffix: String,
    /// The key holding the tool name.
    pub name_key: String,
    /// The key holding the arguments object.
    pub args_key: String,
}

impl Envelope {
    /// A custom envelope.
    #[must_use]
    pub fn new(prefix: &str, suffix: &str, name_key: &str, args_key: &str) -> Self {
        Self {
            prefix: prefix.to_owned(),
            suffix: suffix.to_owned(),
            name_key: name_key.to_owned(),
            args_key: args_key.to_owned(),
        }
    }
    /// A bare JSON object `{"name": …, "arguments": {…}}`.
    #[must_use]
    pub fn json() -> Self {
        Self::new("", "", "name", "arguments")
    }
    /// Hermes / Qwen: `<tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>`.
    #[must_use]
    pub fn hermes() -> Self {
        Self::new("<tool_call>\n", "\n</tool_call>", "name", "arguments")
    }
    /// Llama 3.x JSON tool calls: `{"name": …, "parameters": {…}}`.
    #[must_use]
    pub fn llama3() -> Self {
        Self::new("", "", "name", "parameters")
    }
    /// Mistral: `[TOOL_CALLS][{"name": …, "arguments": {…}}]`.
    #[must_use]
    pub fn mistral() -> Self {
        Self::new("[TOOL_CALLS][", "]", "name", "arguments")
    }
}

/// A GBNF grammar and the schema keywords it does not enforce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grammar {
    /// The grammar text; its start rule is `root`.
    pub text: String,
    /// Keywords the grammar does not enforce (paths are `/<tool name><pointer in its schema>`).
    pub dropped: Vec<Dropped>,
}

/// Deepest schema nesting the generator follows.
const MAX_DEPTH: usize = 48;

/// Builds a grammar that accepts exactly one call, in `envelope`, to one of `tools`
/// (`(name, parameters schema)` pairs), with arguments shaped by that tool's schema.
///
/// # Errors
/// [`SchemaError`] when `tools` is empty, a schema nests too deep, or a `$ref` does not resolve.
///
/// # Example: a grammar for one tool
/// ```
/// use serde_json::json;
/// use toolmend::schema::{gbnf, Envelope};
/// let schema = json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]});
/// let g = gbnf(&[("read", &schema)], &Envelope::hermes())?;
/// assert!(g.text.starts_with("root ::= \"<tool_call>\\n\" call"));
/// assert!(g.text.contains("\"\\\"read\\\"\""));
/// # Ok::<(), toolmend::decode::SchemaError>(())
/// ```
pub fn gbnf(tools: &[(&str, &Value)], envelope: &Envelope) -> Result<Grammar, SchemaError> {
    if tools.is_empty() {
        return Err(SchemaError::Invalid {
            message: "a grammar needs at least one tool".into(),
        });
    }
    let mut g = Gen {
        rules: Vec::new(),
        names: HashMap::new(),
        taken: HashSet::new(),
        refs: HashMap::new(),
        dropped: Vec::new(),
        root: &Value::Null,
        tool: String::new(),
        never: false,
    };
    let mut alts = Vec::new();
    for (i, (name, schema)) in tools.iter().enumerate() {
        g.root = schema;
        g.tool = (*name).to_owned();
        g.refs.clear();
        let args = g
            .expr(schema, &format!("tool-{i}-args"), &mut String::new(), 0)?
            .ok_or_else(|| SchemaError::Invalid {
                message: format!("the schema of tool `{name}` accepts no arguments at all"),
            })?;
        let args_rule = g.rule(&format!("tool-{i}-args"), args);
        let body = format!(
            "{} space \",\" space {} space \":\" space {args_rule}",
            lit(&json_str(name)),
            lit(&json_str(&envelope.args_key)),
        );
        alts.push(g.rule(&format!("tool-{i}-call"), body));
    }
    let call = format!(
        "\"{{\" space {} space \":\" space ( {} ) \"}}\"",
        lit(&json_str(&envelope.name_key)),
        alts.join(" | ")
    );
    let mut text = String::new();
    let _ = writeln!(
        text,
        "root ::= {}call{}",
        if envelope.prefix.is_empty() {
            String::new()
        } else {
            format!("{} ", lit(&envelope.prefix))
        },
        if envelope.suffix.is_empty() {
            String::new()
        } else {
            format!(" {}", lit(&envelope.suffix))
        },
    );
    let _ = writeln!(text, "call ::= {call}");
    for (name, body) in &g.rules {
        let _ = writeln!(text, "{name} ::= {body}");
    }
    text.push_str(PRIMITIVES);
    if g.never {
        text.push_str(NEVER);
    }
    Ok(Grammar {
        text,
        dropped: g.dropped,
    })
}

/// The JSON primitives every grammar shares (as in llama.cpp's `json-schema-to-grammar`). Like
/// llama.cpp's, `integral-part` and `decimal-part` take at most 16 digits: a longer number in a
/// tool call is almost always a runaway, and the grammar stops it.
const PRIMITIVES: &str = r#"space ::= | " " | "\n" [ \t]{0,20}
boolean ::= ("true" | "false") space
null ::= "null" space
char ::= [^"\\\x7F\x00-\x1F] | [\\] (["\\bfnrt] | "u" [0-9a-fA-F]{4})
string ::= "\"" char* "\"" space
integral-part ::= [0] | [1-9] [0-9]{0,15}
decimal-part ::= [0-9]{1,16}
integer ::= ("-"? integral-part) space
natural ::= integral-part space
number ::= ("-"? integral-part) ("." decimal-part)? ([eE] [-+]? integral-part)? space
value ::= object | array | string | number | boolean | null
object ::= "{" space ( string ":" space value ("," space string ":" space value)* )? "}" space
array ::= "[" space ( value ("," space value)* )? "]" space
"#;

/// A rule no text matches (every code point excluded), for a `$ref` whose target accepts
/// nothing but is already referred to.
const NEVER: &str = "never ::= [^\\x00-\\U0010FFFF]\n";

struct Gen<'s> {
    rules: Vec<(String, String)>,
    /// Per sanitised hint, the last number tried.
    names: HashMap<String, usize>,
    /// Every rule name given out (and the fixed ones: `root`, `call`, the primitives).
    taken: HashSet<String>,
    refs: HashMap<String, String>,
    dropped: Vec<Dropped>,
    root: &'s Value,
    tool: String,
    /// Whether some rule refers to `never` (a `$ref` whose target accepts nothing).
    never: bool,
}

/// Keywords that take an untyped node for an object, as `properties` does.
const OBJECT_KEYWORDS: [&str; 11] = [
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "unevaluatedProperties",
];

/// Keywords that take an untyped node for an array.
const ARRAY_KEYWORDS: [&str; 10] = [
    "items",
    "prefixItems",
    "additionalItems",
    "minItems",
    "maxItems",
    "contains",
    "minContains",
    "maxContains",
    "uniqueItems",
    "unevaluatedItems",
];

impl Gen<'_> {
    /// Adds a rule and returns its name: `hint` made a valid name, with a number appended when
    /// that name is taken (a candidate is checked against every name given out, since
    /// `foo` + `-2` may already be the name another hint produced).
    fn rule(&mut self, hint: &str, body: String) -> String {
        debug_assert!(!body.trim().is_empty(), "empty body for rule {hint}");
        let name = self.fresh_name(hint);
        self.rules.push((name.clone(), body));
        name
    }

    /// A rule name made from `hint` that no rule has yet; reserved.
    fn fresh_name(&mut self, hint: &str) -> String {
        let base = sanitize(hint);
        let mut n = self.names.get(&base).copied().unwrap_or(0);
        let name = loop {
            n += 1;
            let candidate = if n == 1 {
                base.clone()
            } else {
                format!("{base}-{n}")
            };
            if !self.taken.contains(&candidate) {
                break candidate;
            }
        };
        self.names.insert(base, n);
        self.taken.insert(name.clone());
        name
    }

    fn drop_kw(&mut self, path: &str, k: &str, v: &Value) {
        self.note(path, k, format!("not enforced by the grammar: {v}"));
    }

    /// Reports keyword `k` at `path` as not enforced (once per place and reason).
    fn note(&mut self, path: &str, k: &str, detail: String) {
        let path = format!("/{}{path}", self.tool);
        if self
            .dropped
            .iter()
            .any(|d| d.path == path && d.keyword == k && d.detail == detail)
        {
            return;
        }
        self.dropped.push(Dropped {
            path,
            keyword: k.to_owned(),
            action: Action::Removed,
            detail,
        });
    }

    fn report_conflicts(&mut self, conflicts: Vec<merge::Conflict>) {
        for c in conflicts {
            self.note(
                &c.path,
                &c.keyword,
                format!(
                    "the schemas merged here (allOf parts, a $ref and its siblings, or a branch \
                     and its siblings) disagree; the merged schema keeps the first value and \
                     drops this one: {}",
                    c.other
                ),
            );
        }
    }

    /// A grammar expression for `schema`; `None` when the schema accepts nothing.
    fn expr(
        &mut self,
        schema: &Value,
        hint: &str,
        path: &mut String,
        depth: usize,
    ) -> Result<Option<String>, SchemaError> {
        if depth > MAX_DEPTH {
            return Err(SchemaError::TooDeep { limit: MAX_DEPTH });
        }
        let o = match schema {
            Value::Bool(false) => return Ok(None),
            Value::Object(o) => o,
            _ => return Ok(Some("value".into())),
        };
        if let Some(Value::String(r)) = o.get("$ref")
            && o.keys().all(|k| k == "$ref" || merge::is_annotation(k))
        {
            return self.ref_expr(r, path, depth).map(Some);
        }
        if o.contains_key("allOf") || o.contains_key("$ref") {
            // `allOf` parts, or a `$ref` with sibling keywords (2019-09+): all of them at once.
            let mut m = Merger::new(self.root, MAX_DEPTH);
            let flat = m.flatten(schema, path, depth);
            self.report_conflicts(std::mem::take(&mut m.conflicts));
            return match flat? {
                Some(flat) => self.node_expr(&flat, hint, path, depth + 1),
                None => Ok(None),
            };
        }
        self.node_expr(o, hint, path, depth)
    }

    /// A node without `$ref` and `allOf`: a union, a constant, an enum, or its types.
    fn node_expr(
        &mut self,
        o: &Map<String, Value>,
        hint: &str,
        path: &mut String,
        depth: usize,
    ) -> Result<Option<String>, SchemaError> {
        for k in ["anyOf", "oneOf"] {
            if let Some(Value::Array(bs)) = o.get(k) {
                return self.union_expr(o, k, bs, hint, path, depth);
            }
        }
        self.report_unenforced(o, path);
        let types = types_of(o);
        let fits = |v: &Value| {
            types
                .as_ref()
                .is_none_or(|ts| ts.iter().any(|t| merge::type_admits(t, v)))
        };
        if let Some(c) = o.get("const") {
            return Ok(fits(c).then(|| format!("{} space", lit(&c.to_string()))));
        }
        if let Some(Value::Array(e)) = o.get("enum") {
            let alts: Vec<String> = e
                .iter()
                .filter(|v| fits(v))
                .map(|v| lit(&v.to_string()))
                .collect();
            if alts.is_empty() {
                return Ok(None);
            }
            return Ok(Some(format!("( {} ) space", alts.join(" | "))));
        }
        self.typed_expr(o, hint, path, depth)
    }

    /// `anyOf`/`oneOf` (key `k`, branches `bs`) of node `o`: each branch met with the node's other
    /// keywords (annotations aside), branches that accept nothing left out. A grammar cannot
    /// enforce `oneOf`'s "exactly one"; it is reported unless the branches are evidently disjoint.
    fn union_expr(
        &mut self,
        o: &Map<String, Value>,
        k: &str,
        bs: &[Value],
        hint: &str,
        path: &mut String,
        depth: usize,
    ) -> Result<Option<String>, SchemaError> {
        let siblings: Map<String, Value> = o
            .iter()
            .filter(|(kk, _)| kk.as_str() != k && !merge::is_annotation(kk))
            .map(|(kk, v)| (kk.clone(), v.clone()))
            .collect();
        let mut alts = Vec::new();
        let mut kept: Vec<Option<Map<String, Value>>> = Vec::new();
        for (i, b) in bs.iter().enumerate() {
            let len = path.len();
            let _ = write!(path, "/{k}/{i}");
            let h = format!("{hint}-{i}");
            let (e, flat) = if siblings.is_empty() {
                let e = self.expr(b, &h, path, depth + 1)?;
                // The branch as one schema, only to judge `oneOf` exclusivity.
                let flat = Merger::new(self.root, MAX_DEPTH)
                    .flatten(b, path, depth + 1)
                    .ok()
                    .flatten();
                (e, flat)
            } else {
                let mut m = Merger::new(self.root, MAX_DEPTH);
                let met = m.meet(b, &Value::Object(siblings.clone()), path, depth + 1);
                self.report_conflicts(std::mem::take(&mut m.conflicts));
                match met? {
                    Some(met) => {
                        let e = self.node_expr(&met, &h, path, depth + 1)?;
                        (e, Some(met))
                    }
                    None => (None, None),
                }
            };
            path.truncate(len);
            if let Some(e) = e {
                alts.push(e);
                kept.push(flat);
            }
        }
        if k == "oneOf" && kept.len() > 1 && !pairwise_disjoint(&kept) {
            self.note(
                path,
                k,
                "not enforced by the grammar: a value may match more than one branch".into(),
            );
        }
        Ok(alternatives(alts))
    }

    /// A `$ref` without sibling keywords: the rule of its target, made once (its name reserved
    /// first, so a recursive type refers to itself; the rule added once its body exists).
    fn ref_expr(
        &mut self,
        r: &str,
        path: &mut String,
        depth: usize,
    ) -> Result<String, SchemaError> {
        if let Some(name) = self.refs.get(r) {
            return Ok(name.clone());
        }
        let target = merge::resolve(self.root, r).ok_or_else(|| SchemaError::UnresolvedRef {
            reference: r.to_owned(),
        })?;
        // `A: {$ref: B}`, `B: {$ref: A}` would be rules that only name each other (left
        // recursion, which llama.cpp refuses); such a schema describes no value.
        let mut chain = vec![r];
        let mut at = target;
        while let Some(Value::String(next)) = at.get("$ref") {
            if chain.contains(&next.as_str()) {
                return Err(SchemaError::Invalid {
                    message: format!(
                        "`$ref` {r} only refers to itself through {}",
                        chain.join(" → ")
                    ),
                });
            }
            chain.push(next);
            match merge::resolve(self.root, next) {
                Some(t) => at = t,
                None => break,
            }
        }
        let base = format!("{}-{}", self.tool, r.rsplit('/').next().unwrap_or("ref"));
        let name = self.fresh_name(&base);
        self.refs.insert(r.to_owned(), name.clone());
        let body = match self.expr(target, &base, path, depth + 1)? {
            Some(body) => body,
            None => {
                // Others may already refer to the name: a rule that matches nothing.
                self.never = true;
                "never".into()
            }
        };
        self.rules.push((name.clone(), body));
        Ok(name)
    }

    /// Reports the keywords of `o` the grammar does not enforce. A `minimum` of 0 is enforced
    /// when every type of the node is an integer (`natural`).
    fn report_unenforced(&mut self, o: &Map<String, Value>, path: &str) {
        for k in [
            "pattern",
            "format",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "uniqueItems",
            "not",
            "if",
            "then",
            "else",
            "patternProperties",
            "propertyNames",
            "minProperties",
            "maxProperties",
            "dependentRequired",
            "dependentSchemas",
            "dependencies",
            "unevaluatedProperties",
            "contains",
            "minContains",
            "maxContains",
            "unevaluatedItems",
        ] {
            if let Some(v) = o.get(k) {
                let closed_object = o
                    .get("properties")
                    .and_then(Value::as_object)
                    .is_some_and(|p| !p.is_empty());
                let enforced = match k {
                    "minimum" => {
                        v.as_f64() == Some(0.0)
                            && types_of(o).is_some_and(|ts| {
                                ts.contains(&"integer")
                                    && ts.iter().all(|t| matches!(*t, "integer" | "null"))
                            })
                    }
                    // The grammar's objects with properties take no other keys anyway.
                    "unevaluatedProperties" => *v == Value::Bool(false) && closed_object,
                    _ => false,
                };
                if !enforced {
                    self.drop_kw(path, k, v);
                }
            }
        }
    }

    /// The expression for the node's `type` (several types are alternatives, OpenAPI's
    /// `nullable: true` adds `null`); no type and nothing that implies one is any value.
    fn typed_expr(
        &mut self,
        o: &Map<String, Value>,
        hint: &str,
        path: &mut String,
        depth: usize,
    ) -> Result<Option<String>, SchemaError> {
        let Some(mut types) = types_of(o) else {
            // `value` says nothing of lengths, items or keys: whatever is here is not enforced.
            for k in [
                "minLength",
                "maxLength",
                "items",
                "prefixItems",
                "additionalItems",
                "minItems",
                "maxItems",
                "properties",
                "required",
                "additionalProperties",
            ] {
                if let Some(v) = o.get(k) {
                    self.drop_kw(path, k, v);
                }
            }
            return Ok(Some("value".into()));
        };
        if o.get("nullable") == Some(&Value::Bool(true)) && !types.contains(&"null") {
            types.push("null");
        }
        let mut alts = Vec::new();
        for t in types {
            let e = match t {
                "string" => Some(string_expr(o)),
                "integer" => Some(
                    if o.get("minimum")
                        .and_then(Value::as_f64)
                        .is_some_and(|m| m >= 0.0)
                    {
                        "natural".into()
                    } else {
                        "integer".into()
                    },
                ),
                "number" => Some("number".into()),
                "boolean" => Some("boolean".into()),
                "null" => Some("null".into()),
                "array" => self.array_expr(o, hint, path, depth)?,
                "object" => self.object_expr(o, hint, path, depth)?,
                other => {
                    return Err(SchemaError::Invalid {
                        message: format!("unknown type `{other}` at {path}"),
                    });
                }
            };
            alts.extend(e);
        }
        Ok(alternatives(alts))
    }

    /// An item schema at `path/<key>` as a rule; `None` when it accepts nothing.
    fn sub_rule(
        &mut self,
        schema: &Value,
        key: &str,
        hint: &str,
        path: &mut String,
        depth: usize,
    ) -> Result<Option<String>, SchemaError> {
        if matches!(schema, Value::Bool(true)) {
            return Ok(Some("value".into()));
        }
        let len = path.len();
        path.push('/');
        path.push_str(key);
        let e = self.expr(schema, hint, path, depth + 1)?;
        path.truncate(len);
        Ok(e.map(|e| self.rule(hint, e)))
    }

    /// An array: the tuple positions of `prefixItems` (or draft-7's array-form `items`), each
    /// optional unless within `minItems`, then the rest per `items` (`additionalItems`).
    fn array_expr(
        &mut self,
        o: &Map<String, Value>,
        hint: &str,
        path: &mut String,
        depth: usize,
    ) -> Result<Option<String>, SchemaError> {
        let (prefix_key, prefix, rest_key) = match (o.get("prefixItems"), o.get("items")) {
            (Some(Value::Array(p)), _) => ("prefixItems", p.as_slice(), "items"),
            (_, Some(Value::Array(p))) => ("items", p.as_slice(), "additionalItems"),
            _ => ("prefixItems", &[][..], "items"),
        };
        let mut pre = Vec::new();
        let mut cut = false;
        for (i, s) in prefix.iter().enumerate() {
            match self.sub_rule(
                s,
                &format!("{prefix_key}/{i}"),
                &format!("{hint}-{i}"),
                path,
                depth,
            )? {
                Some(r) => pre.push(r),
                None => {
                    // No value fits position `i`: the array ends before it.
                    cut = true;
                    break;
                }
            }
        }
        let rest = if cut {
            None
        } else {
            match o.get(rest_key) {
                None => Some("value".into()),
                Some(s) => self.sub_rule(s, rest_key, &format!("{hint}-item"), path, depth)?,
            }
        };
        let min = o.get("minItems").and_then(Value::as_u64).unwrap_or(0);
        let n_pre = pre.len() as u64;
        let max = match (o.get("maxItems").and_then(Value::as_u64), rest.is_none()) {
            (Some(m), true) => Some(m.min(n_pre)),
            (m, false) => m,
            (None, true) => Some(n_pre),
        };
        if max.is_some_and(|m| min > m) {
            return Ok(None);
        }
        // The items after the prefix.
        let mut body = String::new();
        if let Some(r) = &rest
            && max.is_none_or(|m| m > n_pre)
        {
            let lo = min.saturating_sub(n_pre);
            let hi = max.map(|m| m - n_pre);
            body = if n_pre == 0 {
                match (lo, hi) {
                    (0, None) => format!("( {r} (\",\" space {r})* )?"),
                    (0, Some(h)) => format!("( {r} (\",\" space {r}){{0,{}}} )?", h - 1),
                    (l, None) => format!("{r} (\",\" space {r}){{{},}}", l - 1),
                    (l, Some(h)) => format!("{r} (\",\" space {r}){{{},{}}}", l - 1, h - 1),
                }
            } else {
                match (lo, hi) {
                    (0, None) => format!("(\",\" space {r})*"),
                    (l, None) => format!("(\",\" space {r}){{{l},}}"),
                    (l, Some(h)) => format!("(\",\" space {r}){{{l},{h}}}"),
                }
            };
        }
        // The prefix, innermost last: position `i` then everything after it.
        let upto = usize::try_from(max.map_or(n_pre, |m| m.min(n_pre))).unwrap_or(pre.len());
        for i in (0..upto).rev() {
            let sep = if i == 0 { "" } else { "\",\" space " };
            let inner = format!("{sep}{} {body}", pre[i]);
            body = if (i as u64) < min {
                inner.trim_end().to_owned()
            } else {
                format!("( {} )?", inner.trim_end())
            };
        }
        if body.is_empty() {
            return Ok(Some("\"[\" space \"]\" space".into()));
        }
        Ok(Some(format!("\"[\" space {body} \"]\" space")))
    }

    /// An object. With `properties` it is closed to undeclared keys (required ones first, then
    /// the optional ones in declaration order); without, `additionalProperties` says what other
    /// keys may hold. A `required` name without a property schema takes the
    /// `additionalProperties` schema, or any value.
    fn object_expr(
        &mut self,
        o: &Map<String, Value>,
        hint: &str,
        path: &mut String,
        depth: usize,
    ) -> Result<Option<String>, SchemaError> {
        let props = o.get("properties").and_then(Value::as_object);
        let ap = o.get("additionalProperties");
        if props.is_some()
            && let Some(a) = ap
            && a != &Value::Bool(false)
        {
            self.drop_kw(path, "additionalProperties", a);
        }
        let required = merge::required_names(o);
        let mut req = Vec::new();
        let mut opt = Vec::new();
        for (name, sub) in props.into_iter().flatten() {
            let len = path.len();
            path.push_str("/properties/");
            crate::decode::push_pointer(path, name);
            let e = self.expr(sub, &format!("{hint}-{name}"), path, depth + 1)?;
            path.truncate(len);
            let Some(e) = e else {
                if required.contains(&name.as_str()) {
                    return Ok(None);
                }
                // Nothing fits this property: the model may not write it.
                continue;
            };
            let kv_body = format!("{} space \":\" space {e}", lit(&json_str(name)));
            let kv = self.rule(&format!("{hint}-{name}-kv"), kv_body);
            if required.contains(&name.as_str()) {
                req.push(kv);
            } else {
                opt.push(kv);
            }
        }
        // The schema of keys not under `properties`: `None` when there may be none.
        let extra = match ap {
            None => Some("value".to_owned()),
            Some(a) => self.sub_rule(
                a,
                "additionalProperties",
                &format!("{hint}-value"),
                path,
                depth,
            )?,
        };
        for name in &required {
            if props.is_some_and(|p| p.contains_key(*name)) {
                continue;
            }
            let Some(v) = &extra else {
                return Ok(None);
            };
            let kv_body = format!("{} space \":\" space {v}", lit(&json_str(name)));
            req.push(self.rule(&format!("{hint}-{name}-kv"), kv_body));
        }
        let mut body = String::from("\"{\" space ");
        if props.is_none() {
            match &extra {
                Some(v) if req.is_empty() && v == "value" => return Ok(Some("object".into())),
                Some(v) => {
                    let pair = format!("string \":\" space {v}");
                    if req.is_empty() {
                        let _ = write!(body, "( {pair} (\",\" space {pair})* )? ");
                    } else {
                        body.push_str(&req.join(" \",\" space "));
                        let _ = write!(body, " (\",\" space {pair})* ");
                    }
                }
                None => {
                    if !req.is_empty() {
                        body.push_str(&req.join(" \",\" space "));
                        body.push(' ');
                    }
                }
            }
        } else if req.is_empty() {
            // Optional properties in declaration order, any subset, commas only between them.
            if !opt.is_empty() {
                let alts: Vec<String> = (0..opt.len())
                    .map(|i| {
                        let mut s = opt[i].clone();
                        for kv in &opt[i + 1..] {
                            let _ = write!(s, " (\",\" space {kv})?");
                        }
                        s
                    })
                    .collect();
                let _ = write!(body, "( {} )? ", alts.join(" | "));
            }
        } else {
            body.push_str(&req.join(" \",\" space "));
            body.push(' ');
            for kv in &opt {
                let _ = write!(body, "(\",\" space {kv})? ");
            }
        }
        body.push_str("\"}\" space");
        Ok(Some(body))
    }
}

/// Whether no value can match two of `branches` (each flattened; `None` when unknown): pairwise
/// different types, disjoint `const`/`enum` values, or objects with a common required property
/// whose `const`/`enum` values differ (a tagged enum).
fn pairwise_disjoint(branches: &[Option<Map<String, Value>>]) -> bool {
    let values = |m: &Map<String, Value>| -> Option<Vec<Value>> {
        if let Some(c) = m.get("const") {
            return Some(vec![c.clone()]);
        }
        m.get("enum").and_then(Value::as_array).cloned()
    };
    let apart = |a: &Map<String, Value>, b: &Map<String, Value>| {
        if let (Some(ta), Some(tb)) = (types_of(a), types_of(b)) {
            let overlap = ta.iter().any(|x| {
                tb.iter().any(|y| {
                    x == y || matches!((*x, *y), ("integer", "number") | ("number", "integer"))
                })
            });
            if !overlap {
                return true;
            }
        }
        if let (Some(va), Some(vb)) = (values(a), values(b))
            && !va.iter().any(|v| vb.contains(v))
        {
            return true;
        }
        let (pa, pb) = (a.get("properties"), b.get("properties"));
        let rb = merge::required_names(b);
        merge::required_names(a)
            .iter()
            .filter(|n| rb.contains(n))
            .any(|n| {
                let va = pa
                    .and_then(|p| p.get(n))
                    .and_then(Value::as_object)
                    .and_then(values);
                let vb = pb
                    .and_then(|p| p.get(n))
                    .and_then(Value::as_object)
                    .and_then(values);
                matches!((va, vb), (Some(va), Some(vb)) if !va.iter().any(|v| vb.contains(v)))
            })
    };
    branches.iter().enumerate().all(|(i, a)| {
        branches[i + 1..].iter().all(|b| match (a, b) {
            (Some(a), Some(b)) => apart(a, b),
            _ => false,
        })
    })
}

/// The node's types: its `type` (a name or a list of names); `object` when it has only object
/// keywords (`properties`, `required`, `additionalProperties`, …) and `array` when it has only
/// array keywords (`items`, `prefixItems`, `minItems`, …); `None` when it says nothing of its
/// type.
fn types_of(o: &Map<String, Value>) -> Option<Vec<&str>> {
    match o.get("type") {
        Some(Value::String(t)) => Some(vec![t.as_str()]),
        Some(Value::Array(ts)) => Some(ts.iter().filter_map(Value::as_str).collect()),
        _ => {
            let object = OBJECT_KEYWORDS.iter().any(|k| o.contains_key(*k));
            let array = ARRAY_KEYWORDS.iter().any(|k| o.contains_key(*k));
            match (object, array) {
                (true, false) => Some(vec!["object"]),
                (false, true) => Some(vec!["array"]),
                _ => None,
            }
        }
    }
}

fn string_expr(o: &Map<String, Value>) -> String {
    let min = o.get("minLength").and_then(Value::as_u64);
    let max = o.get("maxLength").and_then(Value::as_u64);
    match (min, max) {
        (None, None) => "string".into(),
        (a, Some(b)) => format!("\"\\\"\" char{{{},{b}}} \"\\\"\" space", a.unwrap_or(0)),
        (Some(a), None) => format!("\"\\\"\" char{{{a},}} \"\\\"\" space"),
    }
}

/// `s` as a JSON string literal.
fn json_str(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}

/// The grammar expressions `alts` as one: `None` for none (nothing is accepted), the one itself,
/// or their alternation.
fn alternatives(mut alts: Vec<String>) -> Option<String> {
    match alts.len() {
        0 => None,
        1 => alts.pop(),
        _ => Some(format!("( {} )", alts.join(" | "))),
    }
}

/// `s` as a GBNF literal.
fn lit(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A valid GBNF rule name: lowercase letters, digits and dashes.
fn sanitize(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "r-");
    }
    // Never collide with the shared primitives.
    if matches!(
        out.as_str(),
        "root"
            | "call"
            | "space"
            | "boolean"
            | "null"
            | "char"
            | "string"
            | "integer"
            | "number"
            | "natural"
            | "value"
            | "object"
            | "array"
            | "integral-part"
            | "decimal-part"
            | "never"
    ) {
        out.push_str("-t");
    }
    out
}
