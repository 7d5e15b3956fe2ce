//! Provider dialects: rewrites a JSON Schema into what each provider accepts, recording every
//! keyword dropped, rewritten, inlined or moved into the description.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::merge::Merger;

/// A provider's flavour of JSON Schema for tool parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Dialect {
    /// OpenAI `function.parameters` (non-strict): full JSON Schema, `$ref`/`$defs` kept.
    OpenAi,
    /// OpenAI `strict: true`: every property required (optionals made nullable),
    /// `additionalProperties: false` everywhere, and a reduced keyword set.
    OpenAiStrict,
    /// Anthropic `input_schema`: JSON Schema with an object root.
    Anthropic,
    /// Gemini `parameters`: an OpenAPI 3.0 subset: no `$ref`, `nullable` instead of a null type,
    /// string-only `enum`, no `additionalProperties`.
    Gemini,
    /// Ollama `function.parameters`: its `ToolProperty` keeps only `type`, `description`, `enum`,
    /// `items`, `properties` and `required`; `$ref`s are inlined and the rest is moved into the
    /// description so the model still reads it.
    Ollama,
}

impl Dialect {
    /// Every dialect, for iteration.
    pub const ALL: [Dialect; 5] = [
        Dialect::OpenAi,
        Dialect::OpenAiStrict,
        Dialect::Anthropic,
        Dialect::Gemini,
        Dialect::Ollama,
    ];
}

/// What a conversion did to one keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Action {
    /// Removed; the constraint is lost.
    Removed,
    /// Removed from the schema but written into the `description`, so the model still sees it
    /// (decode still enforces it against the original schema).
    MovedToDescription,
    /// Replaced by an equivalent or looser form (e.g. `oneOf` → `anyOf`, `const` → `enum`).
    Rewritten,
    /// A `$ref` replaced by the schema it points to.
    Inlined,
    /// Added by the dialect's rules (e.g. strict mode's `required`, `additionalProperties`).
    Added,
}

/// One keyword a conversion dropped or changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dropped {
    /// JSON Pointer of the schema node in the *original* schema (after `$ref` resolution: the
    /// path where the inlined copy now lives).
    pub path: String,
    /// The keyword.
    pub keyword: String,
    /// What happened to it.
    pub action: Action,
    /// Details, e.g. the value that was lost.
    pub detail: String,
}

/// A converted schema and the report of what the conversion lost or changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Converted {
    /// The schema in the dialect.
    pub schema: Value,
    /// Every keyword dropped or changed (empty when nothing was lost).
    pub dropped: Vec<Dropped>,
}

/// Deepest schema nesting (and `$ref` inlining) a conversion follows.
const MAX_DEPTH: usize = 48;

/// Converts `schema` into `dialect`.
#[must_use]
pub fn convert(schema: &Value, dialect: Dialect) -> Converted {
    let mut cv = Converter {
        root: schema,
        dialect,
        dropped: Vec::new(),
        ref_stack: Vec::new(),
    };
    let mut path = String::new();
    let mut out = cv.node(schema, &mut path, 0);
    if let Value::Object(o) = &mut out {
        if !cv.inlines() {
            // Keep `$defs` (converted) when references stay references.
            for key in ["$defs", "definitions"] {
                if let Some(Value::Object(defs)) = schema.get(key) {
                    let mut conv = Map::new();
                    for (name, d) in defs {
                        let mut p = format!("/{key}/{name}");
                        conv.insert(name.clone(), cv.node(d, &mut p, 1));
                    }
                    o.insert(key.to_owned(), Value::Object(conv));
                }
            }
        }
        if o.get("type").is_none() && matches!(dialect, Dialect::Anthropic | Dialect::Gemini) {
            o.insert("type".into(), json!("object"));
            cv.note(
                "",
                "type",
                Action::Added,
                "the root must be an object".into(),
            );
        }
    }
    Converted {
        schema: out,
        dropped: cv.dropped,
    }
}

struct Converter<'s> {
    root: &'s Value,
    dialect: Dialect,
    dropped: Vec<Dropped>,
    ref_stack: Vec<String>,
}

/// A node being converted: its keywords in the dialect, what moves to its description, and
/// whether it may be null.
#[derive(Default)]
struct Node {
    out: Map<String, Value>,
    described: Vec<String>,
    nullable: bool,
}

/// What a dialect does with a keyword it meets.
enum Keep {
    Yes,
    Drop,
    Describe,
}

impl<'s> Converter<'s> {
    fn note(&mut self, path: &str, keyword: &str, action: Action, detail: String) {
        self.dropped.push(Dropped {
            path: path.to_owned(),
            keyword: keyword.to_owned(),
            action,
            detail,
        });
    }

    fn inlines(&self) -> bool {
        matches!(self.dialect, Dialect::Gemini | Dialect::Ollama)
    }

    fn keep(&self, k: &str, v: &Value) -> Keep {
        use Dialect as D;
        let always = matches!(
            k,
            "type" | "properties" | "required" | "items" | "enum" | "description" | "anyOf"
        );
        if always {
            return Keep::Yes;
        }
        if matches!(k, "$schema" | "$id" | "$comment") {
            return Keep::Drop;
        }
        if matches!(k, "$defs" | "definitions") {
            // Handled at the root.
            return Keep::Drop;
        }
        match self.dialect {
            D::OpenAi | D::Anthropic => Keep::Yes,
            D::OpenAiStrict => match k {
                "additionalProperties"
                | "$ref"
                | "const"
                | "title"
                | "pattern"
                | "minimum"
                | "maximum"
                | "exclusiveMinimum"
                | "exclusiveMaximum"
                | "multipleOf"
                | "minItems"
                | "maxItems" => Keep::Yes,
                "format" => {
                    let ok = v.as_str().is_some_and(|f| {
                        matches!(
                            f,
                            "date-time"
                                | "time"
                                | "date"
                                | "duration"
                                | "email"
                                | "hostname"
                                | "ipv4"
                                | "ipv6"
                                | "uuid"
                        )
                    });
                    if ok { Keep::Yes } else { Keep::Describe }
                }
                "default" | "examples" | "minLength" | "maxLength" | "uniqueItems"
                | "minProperties" | "maxProperties" => Keep::Describe,
                _ => Keep::Drop,
            },
            D::Gemini => match k {
                "title" | "nullable" | "maxItems" | "minItems" | "minProperties"
                | "maxProperties" | "minLength" | "maxLength" | "pattern" | "minimum"
                | "maximum" | "default" => Keep::Yes,
                "format" => {
                    let ok = v.as_str().is_some_and(|f| {
                        matches!(
                            f,
                            "date-time" | "enum" | "int32" | "int64" | "float" | "double"
                        )
                    });
                    if ok { Keep::Yes } else { Keep::Describe }
                }
                "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" | "uniqueItems"
                | "examples" => Keep::Describe,
                _ => Keep::Drop,
            },
            D::Ollama => match k {
                "title" => Keep::Drop,
                "default" | "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum"
                | "multipleOf" | "minLength" | "maxLength" | "pattern" | "format" | "minItems"
                | "maxItems" | "uniqueItems" | "examples" | "const" => Keep::Describe,
                _ => Keep::Drop,
            },
        }
    }

    /// `schema` (at JSON Pointer `path`, `depth` levels down) in the dialect.
    fn node(&mut self, schema: &Value, path: &mut String, depth: usize) -> Value {
        let obj = match schema {
            Value::Object(o) => o,
            Value::Bool(true) => return json!({}),
            Value::Bool(false) => {
                // `false` (nothing allowed) has no equivalent in the OpenAPI subsets.
                if self.inlines() {
                    self.note(path, "false", Action::Removed, "schema `false`".into());
                    return json!({});
                }
                return Value::Bool(false);
            }
            other => return other.clone(),
        };
        if depth > MAX_DEPTH {
            self.note(path, "*", Action::Removed, "nested too deep; cut".into());
            return json!({});
        }
        if obj.get("allOf").is_some_and(Value::is_array)
            && !matches!(self.dialect, Dialect::OpenAi | Dialect::Anthropic)
        {
            return self.merged_all_of(schema, path, depth);
        }
        if let Some(r) = obj.get("$ref").and_then(Value::as_str)
            && !matches!(self.dialect, Dialect::OpenAi | Dialect::Anthropic)
            && obj
                .keys()
                .any(|k| k != "$ref" && !super::merge::is_annotation(k))
        {
            // Keywords beside a `$ref` constrain too (2019-09 on): in a dialect that inlines
            // references or allows no siblings, the target and they are merged like the parts of
            // an `allOf`, not written over one another.
            let mut rest = obj.clone();
            rest.remove("$ref");
            let all = json!({"allOf": [{"$ref": r}, Value::Object(rest)]});
            return self.merged_all_of(&all, path, depth);
        }
        if let Some(r) = obj.get("$ref").and_then(Value::as_str)
            && self.inlines()
        {
            return self.inline_ref(obj, r, path, depth);
        }
        let mut node = Node::default();
        self.node_type(obj, path, &mut node);
        for (k, v) in obj {
            if k != "type" {
                self.keyword(k, v, path, depth, &mut node);
            }
        }
        self.finish_node(node, path)
    }

    /// A node with `allOf` in a dialect without it: the parts (their `$ref`s inlined) and the
    /// node's own keywords merged into one schema (see `merge.rs`), which is then converted.
    /// Keywords the parts disagree on keep the first value and are reported; parts that
    /// contradict each other become `false`; a merge that cannot finish (an unresolved `$ref`,
    /// a cycle) drops the `allOf` and says so.
    fn merged_all_of(&mut self, schema: &Value, path: &mut String, depth: usize) -> Value {
        let mut m = Merger::new(self.root, MAX_DEPTH);
        let flat = m.flatten(schema, path, depth);
        for c in std::mem::take(&mut m.conflicts) {
            self.note(
                &c.path,
                &c.keyword,
                Action::Removed,
                format!(
                    "allOf parts disagree; the merged schema keeps the first value and drops {}",
                    compact(&c.other)
                ),
            );
        }
        match flat {
            Ok(Some(flat)) => {
                self.note(
                    path,
                    "allOf",
                    Action::Rewritten,
                    "parts merged into one schema".into(),
                );
                self.node(&Value::Object(flat), path, depth + 1)
            }
            Ok(None) => {
                self.note(
                    path,
                    "allOf",
                    Action::Removed,
                    "the parts contradict each other: no value fits".into(),
                );
                self.node(&Value::Bool(false), path, depth + 1)
            }
            Err(e) => {
                self.note(
                    path,
                    "allOf",
                    Action::Removed,
                    format!("cannot merge the parts: {e}"),
                );
                let mut rest = schema.as_object().cloned().unwrap_or_default();
                rest.remove("allOf");
                self.node(&Value::Object(rest), path, depth + 1)
            }
        }
    }

    /// A `$ref` in a dialect without references: the target inlined (with a guard against
    /// recursive types), the sibling annotations (a description, a default) over it; siblings
    /// that constrain are merged with the target (see [`Converter::merged_all_of`]).
    fn inline_ref(
        &mut self,
        obj: &Map<String, Value>,
        r: &str,
        path: &mut String,
        depth: usize,
    ) -> Value {
        let target = r.strip_prefix('#').and_then(|p| {
            if p.is_empty() {
                Some(self.root)
            } else {
                self.root.pointer(p)
            }
        });
        let mut merged = match target {
            Some(_) if self.ref_stack.iter().any(|x| x == r) => {
                self.note(
                    path,
                    "$ref",
                    Action::Removed,
                    format!("{r} is recursive; replaced by an unconstrained object"),
                );
                json!({"type": "object"})
            }
            Some(t) => {
                self.note(path, "$ref", Action::Inlined, r.to_owned());
                self.ref_stack.push(r.to_owned());
                let v = self.node(t, path, depth + 1);
                self.ref_stack.pop();
                v
            }
            None => {
                self.note(
                    path,
                    "$ref",
                    Action::Removed,
                    format!("{r} does not resolve"),
                );
                json!({})
            }
        };
        let mut rest = obj.clone();
        rest.remove("$ref");
        if !rest.is_empty() {
            let sib = self.node(&Value::Object(rest), path, depth + 1);
            if let (Value::Object(m), Value::Object(s)) = (&mut merged, sib) {
                for (k, v) in s {
                    m.insert(k, v);
                }
            }
        }
        merged
    }

    /// The node's `type`: null in a type array, and several types, each said the dialect's way.
    fn node_type(&mut self, obj: &Map<String, Value>, path: &str, node: &mut Node) {
        let mut types: Option<Value> = obj.get("type").cloned();
        let gemini = matches!(self.dialect, Dialect::Gemini);
        if let Some(Value::Array(ts)) = &types
            && ts.iter().any(|t| t == "null")
            && gemini
        {
            let rest: Vec<Value> = ts.iter().filter(|t| *t != "null").cloned().collect();
            node.nullable = true;
            self.note(
                path,
                "type",
                Action::Rewritten,
                "null type → nullable: true".into(),
            );
            types = Some(if rest.len() == 1 {
                rest[0].clone()
            } else {
                Value::Array(rest)
            });
        }
        if let Some(Value::Array(ts)) = &types
            && gemini
            && ts.len() > 1
        {
            self.note(
                path,
                "type",
                Action::Rewritten,
                "several types → anyOf".into(),
            );
            let branches: Vec<Value> = ts.iter().map(|t| json!({"type": t})).collect();
            node.out.insert("anyOf".into(), Value::Array(branches));
            types = None;
        }
        if let Some(t) = types {
            node.out.insert("type".into(), t);
        }
    }

    /// One keyword `k` (other than `type`) of the node at `path`, with its value `v`.
    fn keyword(&mut self, k: &String, v: &Value, path: &mut String, depth: usize, node: &mut Node) {
        let len = path.len();
        path.push('/');
        path.push_str(k);
        let gemini = matches!(self.dialect, Dialect::Gemini);
        match k.as_str() {
            "properties" => {
                if let Value::Object(props) = v {
                    let mut m = Map::new();
                    for (name, sub) in props {
                        let l2 = path.len();
                        path.push('/');
                        crate::decode::push_pointer(path, name);
                        m.insert(name.clone(), self.node(sub, path, depth + 1));
                        path.truncate(l2);
                    }
                    node.out.insert(k.clone(), Value::Object(m));
                }
            }
            "items" | "additionalProperties" if v.is_object() => {
                if k == "additionalProperties"
                    && matches!(self.dialect, Dialect::Gemini | Dialect::Ollama)
                {
                    self.note(&path[..len], k, Action::Removed, compact(v));
                } else if k == "additionalProperties"
                    && matches!(self.dialect, Dialect::OpenAiStrict)
                {
                    self.note(
                        &path[..len],
                        k,
                        Action::Rewritten,
                        "a schema for extra keys → false (strict mode)".into(),
                    );
                    node.out.insert(k.clone(), Value::Bool(false));
                } else {
                    let conv = self.node(v, path, depth + 1);
                    node.out.insert(k.clone(), conv);
                }
            }
            "anyOf" | "oneOf" | "allOf" => {
                if let Value::Array(bs) = v {
                    let mut conv: Vec<Value> = Vec::new();
                    for (i, b) in bs.iter().enumerate() {
                        let l2 = path.len();
                        let _ = write!(path, "/{i}");
                        conv.push(self.node(b, path, depth + 1));
                        path.truncate(l2);
                    }
                    self.combinator(k, conv, &mut node.out, &mut node.nullable, &path[..len]);
                } else {
                    // Not a list of schemas: no dialect can say what it meant.
                    self.note(&path[..len], k, Action::Removed, compact(v));
                }
            }
            "enum" if gemini => {
                let all_strings = v
                    .as_array()
                    .is_some_and(|a| a.iter().all(|x| x.is_string() || x.is_null()));
                if all_strings {
                    let vals: Vec<Value> = v
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter(|x| !x.is_null())
                        .cloned()
                        .collect();
                    if vals.len() != v.as_array().map_or(0, Vec::len) {
                        node.nullable = true;
                    }
                    node.out.insert(k.clone(), Value::Array(vals));
                } else {
                    self.note(&path[..len], k, Action::MovedToDescription, compact(v));
                    node.described.push(format!("one of {}", compact(v)));
                }
            }
            "const" if gemini => {
                if v.is_string() {
                    self.note(&path[..len], k, Action::Rewritten, "const → enum".into());
                    node.out.insert("enum".into(), json!([v]));
                } else {
                    self.note(&path[..len], k, Action::MovedToDescription, compact(v));
                    node.described.push(format!("exactly {}", compact(v)));
                }
            }
            _ => match self.keep(k, v) {
                Keep::Yes => {
                    node.out.insert(k.clone(), v.clone());
                }
                Keep::Drop => {
                    if !matches!(k.as_str(), "$defs" | "definitions") {
                        self.note(&path[..len], k, Action::Removed, compact(v));
                    }
                }
                Keep::Describe => {
                    self.note(&path[..len], k, Action::MovedToDescription, compact(v));
                    node.described.push(format!("{k}: {}", compact(v)));
                }
            },
        }
        path.truncate(len);
    }

    /// The converted node: its nullability in the dialect's words, what could not be kept said
    /// in its description, and strict mode's closing of objects.
    fn finish_node(&mut self, node: Node, path: &str) -> Value {
        let Node {
            mut out,
            mut described,
            nullable,
        } = node;
        if nullable {
            match self.dialect {
                Dialect::Gemini => {
                    out.insert("nullable".into(), Value::Bool(true));
                }
                Dialect::Ollama => {
                    if let Some(t) = out.get("type").and_then(Value::as_str).map(str::to_owned) {
                        out.insert("type".into(), json!([t, "null"]));
                    } else {
                        described.push("may be null".into());
                    }
                }
                _ => {}
            }
        }
        if !described.is_empty() {
            let mut d = out
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            if !d.is_empty() {
                d.push(' ');
            }
            let _ = write!(d, "({})", described.join("; "));
            out.insert("description".into(), Value::String(d));
        }
        if matches!(self.dialect, Dialect::OpenAiStrict) {
            self.strict_object(&mut out, path);
        }
        Value::Object(out)
    }

    /// `anyOf`/`oneOf`/`allOf` in the dialect. A two-branch union with `null` becomes the other
    /// branch plus the dialect's nullability where the dialect has no `anyOf` for it.
    fn combinator(
        &mut self,
        k: &str,
        mut conv: Vec<Value>,
        out: &mut Map<String, Value>,
        nullable: &mut bool,
        path: &str,
    ) {
        let is_null = |b: &Value| b.get("type").is_some_and(|t| t == "null");
        let simplify = matches!(self.dialect, Dialect::Gemini | Dialect::Ollama);
        if simplify && conv.iter().any(is_null) {
            conv.retain(|b| !is_null(b));
            *nullable = true;
            self.note(path, k, Action::Rewritten, "null branch → nullable".into());
        }
        if k == "allOf" {
            // Only OpenAI and Anthropic keep `allOf`; the other dialects merged it before the
            // node was converted (`merged_all_of`).
            out.insert(k.into(), Value::Array(conv));
            return;
        }
        if conv.len() == 1 && simplify {
            if let Some(Value::Object(m)) = conv.pop() {
                for (kk, vv) in m {
                    out.entry(kk).or_insert(vv);
                }
            }
            return;
        }
        if k == "oneOf" && !matches!(self.dialect, Dialect::OpenAi | Dialect::Anthropic) {
            self.note(path, k, Action::Rewritten, "oneOf → anyOf".into());
        }
        let key = if matches!(self.dialect, Dialect::OpenAi | Dialect::Anthropic) {
            k
        } else {
            "anyOf"
        };
        if matches!(self.dialect, Dialect::Ollama) {
            self.note(
                path,
                k,
                Action::MovedToDescription,
                "Ollama's ToolProperty has no anyOf".into(),
            );
            let alts: Vec<String> = conv.iter().map(compact).collect();
            let d = out
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            out.insert(
                "description".into(),
                Value::String(
                    format!("{d} (one of: {})", alts.join(" | "))
                        .trim()
                        .to_owned(),
                ),
            );
            return;
        }
        out.insert(key.into(), Value::Array(conv));
    }

    /// Strict mode: every property required (optionals made nullable) and no extra keys.
    fn strict_object(&mut self, out: &mut Map<String, Value>, path: &str) {
        let is_object =
            out.get("type").is_some_and(|t| t == "object") || out.contains_key("properties");
        if !is_object {
            return;
        }
        let names: Vec<String> = out
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        let required: Vec<String> = super::merge::required_names(out)
            .into_iter()
            .map(str::to_owned)
            .collect();
        for name in &names {
            if required.contains(name) {
                continue;
            }
            if let Some(Value::Object(p)) = out
                .get_mut("properties")
                .and_then(Value::as_object_mut)
                .and_then(|m| m.get_mut(name))
            {
                make_nullable(p);
            }
            self.note(
                &format!("{path}/properties/{name}"),
                "required",
                Action::Added,
                "optional property made required and nullable (strict mode)".into(),
            );
        }
        if !names.is_empty() {
            out.insert(
                "required".into(),
                Value::Array(names.iter().map(|n| Value::String(n.clone())).collect()),
            );
        }
        if out.get("additionalProperties") != Some(&Value::Bool(false)) {
            if out
                .get("additionalProperties")
                .is_some_and(|a| a != &Value::Bool(false))
            {
                self.note(
                    path,
                    "additionalProperties",
                    Action::Rewritten,
                    "→ false (strict mode)".into(),
                );
            } else {
                self.note(
                    path,
                    "additionalProperties",
                    Action::Added,
                    "false (strict mode)".into(),
                );
            }
            out.insert("additionalProperties".into(), Value::Bool(false));
        }
    }
}

/// Makes a property schema accept `null` (a `null` type entry, or a `null` branch).
fn make_nullable(p: &mut Map<String, Value>) {
    match p.get_mut("type") {
        Some(Value::String(t)) => {
            let t = t.clone();
            if t != "null" {
                p.insert("type".into(), json!([t, "null"]));
            }
        }
        Some(Value::Array(ts)) => {
            if !ts.iter().any(|t| t == "null") {
                ts.push(json!("null"));
            }
        }
        _ => {
            if let Some(Value::Array(bs)) = p.get_mut("anyOf") {
                if !bs
                    .iter()
                    .any(|b| b.get("type").is_some_and(|t| t == "null"))
                {
                    bs.push(json!({"type": "null"}));
                }
            } else {
                let inner = Value::Object(std::mem::take(p));
                p.insert("anyOf".into(), json!([inner, {"type": "null"}]));
            }
        }
    }
    if let Some(Value::Array(e)) = p.get_mut("enum")
        && !e.contains(&Value::Null)
    {
        e.push(Value::Null);
    }
}

fn compact(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 120 {
        let mut end = 120;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}…", &s[..end])
    } else {
        s
    }
}
