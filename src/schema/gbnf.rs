//! GBNF grammars for llama.cpp: the tool-call envelope plus each tool's arguments, so constrained
//! sampling can only produce a well-formed call to a known tool.
//!
//! Grammar syntax follows llama.cpp's `grammars/README.md` (rules `name ::= …`, literals, character
//! classes, `?`, `*`, `{m,n}`). The shared JSON primitives mirror the ones llama.cpp's own
//! `json-schema-to-grammar` emits. Constraints a grammar cannot cheaply express (`pattern`,
//! `format`, numeric bounds) are listed in [`Grammar::dropped`]; decode still enforces them.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use serde_json::{Map, Value};

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
    };
    let mut alts = Vec::new();
    for (i, (name, schema)) in tools.iter().enumerate() {
        g.root = schema;
        g.tool = (*name).to_owned();
        g.refs.clear();
        let args = g.expr(schema, &format!("tool-{i}-args"), &mut String::new(), 0)?;
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
    Ok(Grammar {
        text,
        dropped: g.dropped,
    })
}

/// The JSON primitives every grammar shares (as in llama.cpp's `json-schema-to-grammar`).
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
}

impl<'s> Gen<'s> {
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
        self.dropped.push(Dropped {
            path: format!("/{}{path}", self.tool),
            keyword: k.to_owned(),
            action: Action::Removed,
            detail: format!("not enforced by the grammar: {v}"),
        });
    }

    /// A grammar expression for `schema`.
    fn expr(
        &mut self,
        schema: &'s Value,
        hint: &str,
        path: &mut String,
        depth: usize,
    ) -> Result<String, SchemaError> {
        if depth > MAX_DEPTH {
            return Err(SchemaError::TooDeep { limit: MAX_DEPTH });
        }
        let o = match schema {
            Value::Bool(false) => {
                return Err(SchemaError::Invalid {
                    message: format!("schema `false` at {path} accepts nothing"),
                });
            }
            Value::Object(o) => o,
            _ => return Ok("value".into()),
        };
        if let Some(r) = o.get("$ref").and_then(Value::as_str) {
            return self.ref_expr(r, path, depth);
        }
        self.report_unenforced(o, path);
        if let Some(c) = o.get("const") {
            return Ok(format!("{} space", lit(&c.to_string())));
        }
        if let Some(Value::Array(e)) = o.get("enum") {
            let alts: Vec<String> = e.iter().map(|v| lit(&v.to_string())).collect();
            return Ok(format!("( {} ) space", alts.join(" | ")));
        }
        for k in ["anyOf", "oneOf"] {
            if let Some(Value::Array(bs)) = o.get(k) {
                let mut alts = Vec::new();
                for (i, b) in bs.iter().enumerate() {
                    let len = path.len();
                    let _ = write!(path, "/{k}/{i}");
                    alts.push(self.expr(b, &format!("{hint}-{i}"), path, depth + 1)?);
                    path.truncate(len);
                }
                return Ok(format!("( {} )", alts.join(" | ")));
            }
        }
        if let Some(Value::Array(parts)) = o.get("allOf") {
            if parts.len() > 1 {
                self.drop_kw(path, "allOf", &Value::from(parts.len()));
            }
            if let Some(first) = parts.first() {
                return self.expr(first, hint, path, depth + 1);
            }
        }
        self.typed_expr(o, hint, path, depth)
    }

    /// A `$ref`: the rule of its target, made once (its name reserved first, so a recursive
    /// type refers to itself).
    fn ref_expr(
        &mut self,
        r: &str,
        path: &mut String,
        depth: usize,
    ) -> Result<String, SchemaError> {
        if let Some(name) = self.refs.get(r) {
            return Ok(name.clone());
        }
        let target = r
            .strip_prefix('#')
            .and_then(|p| {
                if p.is_empty() {
                    Some(self.root)
                } else {
                    self.root.pointer(p)
                }
            })
            .ok_or_else(|| SchemaError::UnresolvedRef {
                reference: r.to_owned(),
            })?;
        let base = format!("{}-{}", self.tool, r.rsplit('/').next().unwrap_or("ref"));
        // The name is reserved before the body exists (a recursive type refers to itself);
        // the rule is added once its body is known, so no rule is ever written empty.
        let name = self.fresh_name(&base);
        self.refs.insert(r.to_owned(), name.clone());
        let body = self.expr(target, &base, path, depth + 1)?;
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
            "patternProperties",
            "propertyNames",
        ] {
            if let Some(v) = o.get(k) {
                let enforced = k == "minimum"
                    && v.as_f64() == Some(0.0)
                    && types_of(o).is_some_and(|ts| {
                        ts.contains(&"integer")
                            && ts.iter().all(|t| matches!(*t, "integer" | "null"))
                    });
                if !enforced {
                    self.drop_kw(path, k, v);
                }
            }
        }
    }

    /// The expression for the node's `type` (several types are alternatives); no type and no
    /// properties is any value.
    fn typed_expr(
        &mut self,
        o: &'s Map<String, Value>,
        hint: &str,
        path: &mut String,
        depth: usize,
    ) -> Result<String, SchemaError> {
        let Some(types) = types_of(o) else {
            return Ok("value".into());
        };
        let mut alts = Vec::new();
        for t in types {
            alts.push(match t {
                "string" => string_expr(o),
                "integer" => {
                    if o.get("minimum")
                        .and_then(Value::as_f64)
                        .is_some_and(|m| m >= 0.0)
                    {
                        "natural".into()
                    } else {
                        "integer".into()
                    }
                }
                "number" => "number".into(),
                "boolean" => "boolean".into(),
                "null" => "null".into(),
                "array" => self.array_expr(o, hint, path, depth)?,
                "object" => self.object_expr(o, hint, path, depth)?,
                other => {
                    return Err(SchemaError::Invalid {
                        message: format!("unknown type `{other}` at {path}"),
                    });
                }
            });
        }
        Ok(if alts.len() == 1 {
            alts.pop().unwrap_or_default()
        } else {
            format!("( {} )", alts.join(" | "))
        })
    }

    fn array_expr(
        &mut self,
        o: &'s Map<String, Value>,
        hint: &str,
        path: &mut String,
        depth: usize,
    ) -> Result<String, SchemaError> {
        let item = match o.get("items") {
            Some(it) if it.is_object() => {
                let len = path.len();
                path.push_str("/items");
                let e = self.expr(it, &format!("{hint}-item"), path, depth + 1)?;
                path.truncate(len);
                self.rule(&format!("{hint}-item"), e)
            }
            _ => "value".into(),
        };
        let min = o.get("minItems").and_then(Value::as_u64).unwrap_or(0);
        let max = o.get("maxItems").and_then(Value::as_u64);
        let body = match (min, max) {
            (_, Some(0)) => String::new(),
            (0, None) => format!("( {item} (\",\" space {item})* )?"),
            (0, Some(m)) => format!("( {item} (\",\" space {item}){{0,{}}} )?", m - 1),
            (n, None) => format!("{item} (\",\" space {item}){{{},}}", n - 1),
            (n, Some(m)) => format!("{item} (\",\" space {item}){{{},{}}}", n - 1, m.max(n) - 1),
        };
        Ok(format!("\"[\" space {body} \"]\" space"))
    }

    fn object_expr(
        &mut self,
        o: &'s Map<String, Value>,
        hint: &str,
        path: &mut String,
        depth: usize,
    ) -> Result<String, SchemaError> {
        let Some(Value::Object(props)) = o.get("properties") else {
            return Ok("object".into());
        };
        if let Some(a) = o.get("additionalProperties")
            && a != &Value::Bool(false)
        {
            self.drop_kw(path, "additionalProperties", a);
        }
        let required: Vec<&str> = o
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut req = Vec::new();
        let mut opt = Vec::new();
        for (name, sub) in props {
            let len = path.len();
            path.push_str("/properties/");
            crate::decode::push_pointer(path, name);
            let e = self.expr(sub, &format!("{hint}-{name}"), path, depth + 1)?;
            path.truncate(len);
            let kv_body = format!("{} space \":\" space {e}", lit(&json_str(name)));
            let kv = self.rule(&format!("{hint}-{name}-kv"), kv_body);
            if required.contains(&name.as_str()) {
                req.push(kv);
            } else {
                opt.push(kv);
            }
        }
        let mut body = String::from("\"{\" space ");
        if req.is_empty() {
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
        Ok(body)
    }
}

/// The node's types: its `type` (a name or a list of names), or `object` when it has only
/// `properties`; `None` when it says nothing of its type.
fn types_of(o: &Map<String, Value>) -> Option<Vec<&str>> {
    match o.get("type") {
        Some(Value::String(t)) => Some(vec![t.as_str()]),
        Some(Value::Array(ts)) => Some(ts.iter().filter_map(Value::as_str).collect()),
        _ if o.contains_key("properties") => Some(vec!["object"]),
        _ => None,
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
    ) {
        out.push_str("-t");
    }
    out
}
