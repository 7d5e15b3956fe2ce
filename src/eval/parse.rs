//! The parsers an output is scored under: `strict`, `naive`, `extract` and `full`.
//!
//! - `strict` is what a runtime without toolmend returns: the envelope the model's chat template
//!   documents (for Qwen2.5: `<tool_call>` blocks), its JSON parsed strictly; for a template without
//!   tool support the whole output must be exactly a JSON call object or array.
//! - `naive` is the baseline the issue quotes: `<tool_call>` tags, code fences or bare JSON anywhere
//!   in the text, each parsed with strict JSON, no repair or coercion.
//! - `extract` is toolmend's envelope extraction ([`crate::extract::extract`] with the offered
//!   tools), without repair or coercion: a call whose arguments needed repair does not count.
//! - `full` is extraction + repair + known-name resolution + schema defaults + decoding against the
//!   functions' schemas ([`crate::decode::Decoder`], its default policy: safe coercions only).
//!
//! Every parser returns the calls it found plus what it had to do to get them ([`Rescue`]), so the
//! report can say how many calls each stage rescued.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::data::FunctionDoc;
use super::score::Call;
use crate::extract::squash;

/// The envelope a runtime without toolmend expects from a model, decided by its chat template.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum StrictFormat {
    /// Hermes-style `<tool_call>{"name": …, "arguments": …}</tool_call>` blocks (Qwen2.5, Hermes).
    #[default]
    ToolCallTags,
    /// No tool support in the template: the whole output must be a JSON call object or array.
    BareJson,
    /// The runtime parsed the calls itself (Ollama's `tool_calls`): strict is what it returned.
    Native,
}

impl StrictFormat {
    /// The strict format for a chat template's source: tags when it documents `<tool_call>`.
    pub fn for_template(template: &str) -> Self {
        if template.contains("<tool_call>") {
            Self::ToolCallTags
        } else {
            Self::BareJson
        }
    }

    /// A guess from the model's name, for recordings that do not say (Qwen templates use tags).
    pub fn guess_for_model(model: &str) -> Self {
        let m = model.to_ascii_lowercase();
        if m.contains("qwen") || m.contains("hermes") {
            Self::ToolCallTags
        } else {
            Self::BareJson
        }
    }
}

/// Which parser to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ParserKind {
    /// The template's own envelope, strict JSON.
    Strict,
    /// Tags, fences or bare JSON anywhere, strict JSON.
    Naive,
    /// toolmend's extraction, no repair or coercion.
    Extract,
    /// Extraction, repair, name resolution, schema defaults, coercion.
    Full,
}

impl ParserKind {
    /// All parsers, in report order.
    pub const ALL: [ParserKind; 4] = [Self::Strict, Self::Naive, Self::Extract, Self::Full];

    /// The name used in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Strict => "strict",
            Self::Naive => "naive",
            Self::Extract => "extract",
            Self::Full => "full",
        }
    }
}

/// Policies for the riskier repairs of the `full` parser.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct FullPolicy {
    /// Rename a call to an unknown function when its argument names fit exactly one offered
    /// function's parameters (all its required ones present, no unknown one). Off by default.
    pub rename_by_arguments: bool,
}

/// What a parser had to do to get its calls, counted per call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Rescue {
    /// Calls found outside the envelope the template documents (fences, bare JSON, other tags).
    pub foreign_envelope: u32,
    /// Calls whose JSON needed repair.
    pub repaired: u32,
    /// Calls whose arguments were coerced to the schema's types.
    pub coerced: u32,
    /// Calls whose function name was resolved to an offered one (suffix, separator or typo).
    pub renamed: u32,
    /// Calls renamed because their arguments fit exactly one function (policy `rename_by_arguments`).
    pub renamed_by_arguments: u32,
    /// Calls completed with a schema default for a missing required parameter.
    pub defaulted: u32,
    /// Calls from which the decoder dropped a parameter the schema does not have.
    pub dropped_unknown: u32,
    /// Calls whose arguments the decoder rejected (kept as written; the scorer says why).
    pub decode_rejected: u32,
}

impl Rescue {
    /// Adds `other` to `self`.
    pub fn add(&mut self, other: &Rescue) {
        self.foreign_envelope += other.foreign_envelope;
        self.repaired += other.repaired;
        self.coerced += other.coerced;
        self.renamed += other.renamed;
        self.renamed_by_arguments += other.renamed_by_arguments;
        self.defaulted += other.defaulted;
        self.dropped_unknown += other.dropped_unknown;
        self.decode_rejected += other.decode_rejected;
    }
}

/// A parser's result for one output.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Parsed {
    /// The calls found, in output order.
    pub calls: Vec<Call>,
    /// Call-shaped pieces of text the parser saw but could not turn into a call.
    pub unparsed: u32,
    /// What the parser had to do.
    pub rescue: Rescue,
}

/// True when `text` holds anything call-shaped: a tool-call tag, a JSON object with a `name` or
/// `function` key, or an offered function's name followed by `(`. Outputs without any are "no call
/// written"; a parser must return no call for them.
pub fn is_call_shaped(text: &str, functions: &[FunctionDoc]) -> bool {
    if text.contains("<tool_call>") || text.contains("<function") || text.contains("[TOOL_CALLS]") {
        return true;
    }
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices('{') {
        let rest = text[i + 1..].trim_start();
        let rest = rest.strip_prefix('"').or_else(|| rest.strip_prefix('\''));
        if let Some(rest) = rest
            && ["name", "function", "tool_calls", "tool"]
                .iter()
                .any(|k| rest.starts_with(k))
        {
            return true;
        }
    }
    functions.iter().any(|f| {
        text.match_indices(f.name.as_str()).any(|(i, m)| {
            let after = i + m.len();
            let word_start = i == 0 || !is_ident(bytes[i - 1]);
            word_start && text[after..].trim_start().starts_with('(')
        })
    })
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.'
}

/// Parses `output` under `kind`. `strict_format` is the model's documented envelope, `functions`
/// the functions offered, `policy` the riskier repairs allowed to `full`.
pub fn parse(
    kind: ParserKind,
    output: &str,
    strict_format: StrictFormat,
    functions: &[FunctionDoc],
    policy: FullPolicy,
) -> Parsed {
    parse_with_native(kind, output, &[], strict_format, functions, policy)
}

/// [`parse`] for an output that also carries calls the runtime reported natively (Ollama's
/// `tool_calls`, recorded as `native_calls`). Under `strict` with [`StrictFormat::Native`] those are
/// the only calls; the other parsers add them after the calls found in the text (`full` repairs
/// string arguments and applies the schema to them too).
pub fn parse_with_native(
    kind: ParserKind,
    output: &str,
    native: &[Value],
    strict_format: StrictFormat,
    functions: &[FunctionDoc],
    policy: FullPolicy,
) -> Parsed {
    let mut parsed = match kind {
        ParserKind::Strict if strict_format == StrictFormat::Native => Parsed::default(),
        ParserKind::Strict => strict(output, strict_format),
        ParserKind::Naive => naive(output, strict_format),
        ParserKind::Extract => extract(output, strict_format, functions),
        ParserKind::Full => full(output, strict_format, functions, policy),
    };
    for n in native {
        let Some(name) = n.get("name").and_then(Value::as_str) else {
            parsed.unparsed += 1;
            continue;
        };
        let args = match n.get("arguments") {
            Some(Value::Object(m)) => Some(m.clone()),
            Some(Value::String(text)) => match serde_json::from_str::<Value>(text) {
                Ok(Value::Object(m)) => Some(m),
                _ if kind == ParserKind::Full => args_from_raw(text, true).map(|(m, _)| {
                    parsed.rescue.repaired += 1;
                    m
                }),
                _ => None,
            },
            None => Some(Map::new()),
            Some(_) => None,
        };
        let Some(args) = args else {
            parsed.unparsed += 1;
            continue;
        };
        let mut call = Call {
            name: name.to_owned(),
            args,
        };
        if kind == ParserKind::Full {
            mend(&mut call, functions, policy, &mut parsed.rescue);
        }
        parsed.calls.push(call);
    }
    parsed
}

/// The `strict` parser: the template's envelope and strict JSON, nothing else.
pub fn strict(output: &str, format: StrictFormat) -> Parsed {
    let mut parsed = Parsed::default();
    match format {
        StrictFormat::ToolCallTags => {
            let mut rest = output;
            while let Some(start) = rest.find("<tool_call>") {
                let body_start = start + "<tool_call>".len();
                let Some(len) = rest[body_start..].find("</tool_call>") else {
                    parsed.unparsed += 1;
                    break;
                };
                let body = &rest[body_start..body_start + len];
                match serde_json::from_str::<Value>(body.trim()) {
                    Ok(v) => match call_from_envelope(&v, true) {
                        Some(c) => parsed.calls.push(c),
                        None => parsed.unparsed += 1,
                    },
                    Err(_) => parsed.unparsed += 1,
                }
                rest = &rest[body_start + len + "</tool_call>".len()..];
            }
        }
        StrictFormat::BareJson => match serde_json::from_str::<Value>(output.trim()) {
            Ok(v) => match calls_from_value(&v, true) {
                Some(calls) => parsed.calls = calls,
                None => parsed.unparsed += 1,
            },
            Err(_) => {
                if !output.trim().is_empty() && output.contains('{') {
                    parsed.unparsed += 1;
                }
            }
        },
        StrictFormat::Native => {}
    }
    parsed
}

/// Where a candidate piece of JSON was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Envelope {
    ToolCallTag,
    Fence,
    Bare,
}

/// Candidate regions of an output that may hold calls: `<tool_call>` blocks (closed or cut off),
/// else code fences, else the whole text.
fn regions(output: &str) -> Vec<(Envelope, &str)> {
    let mut out = Vec::new();
    let mut rest = output;
    while let Some(start) = rest.find("<tool_call>") {
        let body = &rest[start + "<tool_call>".len()..];
        let end = body.find("</tool_call>").unwrap_or(body.len());
        out.push((Envelope::ToolCallTag, &body[..end]));
        rest = &body[(end + "</tool_call>".len()).min(body.len())..];
    }
    if !out.is_empty() {
        return out;
    }
    let mut rest = output;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        // Skip the info string (`json`, `python`, …) up to the end of the line.
        let body_start = after.find('\n').map_or(after.len(), |i| i + 1);
        let body = &after[body_start..];
        let end = body.find("```").unwrap_or(body.len());
        out.push((Envelope::Fence, &body[..end]));
        rest = &body[(end + 3).min(body.len())..];
    }
    if !out.is_empty() {
        return out;
    }
    vec![(Envelope::Bare, output)]
}

/// JSON values in `region`, in order: each `{` or `[` not inside an earlier value starts a
/// candidate parsed strictly with serde_json.
fn json_values(region: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(off) = region[pos..].find(['{', '[']) {
        let start = pos + off;
        let mut stream = serde_json::Deserializer::from_str(&region[start..]).into_iter::<Value>();
        match stream.next() {
            Some(Ok(v)) => {
                pos = start + stream.byte_offset();
                out.push(v);
            }
            _ => pos = start + 1,
        }
    }
    out
}

/// A call from one envelope object: `{"name", "arguments"|"parameters"}` or `{"function": {…}}`.
/// `strict` requires `arguments` (or `parameters`) to be an object.
fn call_from_envelope(v: &Value, strict: bool) -> Option<Call> {
    let obj = v.as_object()?;
    if !strict && let Some(inner) = obj.get("function").filter(|f| f.is_object()) {
        return call_from_envelope(inner, strict);
    }
    let name = obj.get("name")?.as_str()?.to_owned();
    let args = obj.get("arguments").or_else(|| obj.get("parameters"));
    let args = match args {
        Some(Value::Object(m)) => m.clone(),
        Some(Value::String(s)) if !strict => match serde_json::from_str::<Value>(s) {
            Ok(Value::Object(m)) => m,
            _ => return None,
        },
        None if !strict => Map::new(),
        _ => return None,
    };
    Some(Call { name, args })
}

/// Calls from a JSON value: one envelope object, an array of them, or `{"tool_calls": […]}`.
fn calls_from_value(v: &Value, strict: bool) -> Option<Vec<Call>> {
    match v {
        Value::Array(items) if !items.is_empty() => items
            .iter()
            .map(|i| call_from_envelope(i, strict))
            .collect(),
        Value::Object(o) if !strict && o.contains_key("tool_calls") => {
            calls_from_value(o.get("tool_calls")?, strict)
        }
        Value::Object(_) => call_from_envelope(v, strict).map(|c| vec![c]),
        _ => None,
    }
}

/// The `naive` parser: tags, fences or bare JSON, strict JSON, no repair.
pub fn naive(output: &str, format: StrictFormat) -> Parsed {
    let mut parsed = Parsed::default();
    for (envelope, region) in regions(output) {
        let foreign = !(envelope == Envelope::ToolCallTag && format == StrictFormat::ToolCallTags
            || envelope == Envelope::Bare && format == StrictFormat::BareJson);
        // (With `Native`, any call found in the text is one the runtime did not return.)
        let mut found = false;
        for v in json_values(region) {
            if let Some(calls) = calls_from_value(&v, false) {
                found = true;
                for c in calls {
                    parsed.rescue.foreign_envelope += u32::from(foreign);
                    parsed.calls.push(c);
                }
            }
        }
        if !found && envelope == Envelope::ToolCallTag {
            parsed.unparsed += 1;
        }
    }
    parsed
}

/// One call toolmend's extractor found (accepted or refused for its name), in output order.
struct Found {
    name: String,
    /// The extractor resolved the name the model wrote to an offered function.
    renamed: bool,
    /// The arguments after repair, or `None` when they could not be made into a JSON object.
    args: Option<Map<String, Value>>,
    repaired: bool,
    format: crate::extract::Format,
    start: usize,
}

fn is_native(format: crate::extract::Format, strict: StrictFormat) -> bool {
    use crate::extract::Format;
    match strict {
        StrictFormat::ToolCallTags => format == Format::Hermes,
        StrictFormat::BareJson => matches!(format, Format::BareJson | Format::JsonArray),
        StrictFormat::Native => false,
    }
}

/// The arguments object of a refused call from its raw text: the object itself, or for JSON
/// envelopes that hold name and arguments together, its `arguments` / `parameters`.
fn args_from_raw(raw: &str, repair: bool) -> Option<(Map<String, Value>, bool)> {
    let (v, repaired) = match serde_json::from_str::<Value>(raw.trim()) {
        Ok(v) => (v, false),
        Err(_) if repair => {
            let r = crate::repair::repair(raw.trim()).ok()?;
            (
                serde_json::from_str::<Value>(&r.text).ok()?,
                !r.fixes.is_empty(),
            )
        }
        Err(_) => return None,
    };
    let Value::Object(mut m) = v else { return None };
    if m.contains_key("name") {
        match m.remove("arguments").or_else(|| m.remove("parameters")) {
            Some(Value::Object(inner)) => return Some((inner, repaired)),
            Some(_) => return None,
            None => {}
        }
    }
    Some((m, repaired))
}

/// Runs toolmend's extractor with the offered tools; calls refused for an unknown name are kept
/// (the model did write them) so that they can be scored or resolved.
fn extracted(output: &str, functions: &[FunctionDoc], repair: bool) -> Vec<Found> {
    use crate::extract::{Options, ToolInfo};
    let tools = functions
        .iter()
        .map(|f| ToolInfo::new(f.name.clone(), super::types::to_json_schema(&f.parameters)))
        .collect();
    // Name resolution belongs to `full`: the extractor resolves aliases only there.
    let opts = Options::default()
        .with_tools(tools)
        .with_exact_names(!repair);
    let x = crate::extract::extract(output, &opts);
    let mut found: Vec<Found> = x
        .calls
        .into_iter()
        .map(|c| {
            let args = match c.arguments {
                Ok(Value::Object(m)) => Some(m),
                _ => None,
            };
            Found {
                renamed: c.renamed_from.is_some(),
                name: c.name,
                args,
                repaired: !c.fixes.is_empty(),
                format: c.format,
                start: c.span.start,
            }
        })
        .collect();
    for r in x.rejected {
        let parsed = args_from_raw(&r.raw_arguments, repair);
        found.push(Found {
            renamed: false,
            name: r.name,
            repaired: parsed.as_ref().is_some_and(|p| p.1),
            args: parsed.map(|p| p.0),
            format: r.format,
            start: r.span.start,
        });
    }
    found.sort_by_key(|f| f.start);
    found
}

/// The `extract` parser: toolmend's extraction, no repair (a call whose arguments needed repair
/// is counted as unparsed), no coercion, no name resolution.
pub fn extract(output: &str, format: StrictFormat, functions: &[FunctionDoc]) -> Parsed {
    let mut parsed = Parsed::default();
    for f in extracted(output, functions, false) {
        match f.args {
            Some(args) if !f.repaired => {
                parsed.rescue.foreign_envelope += u32::from(!is_native(f.format, format));
                parsed.calls.push(Call { name: f.name, args });
            }
            _ => parsed.unparsed += 1,
        }
    }
    parsed
}

/// The `full` parser: toolmend's extraction with repair, then per call name resolution, a schema
/// default for each missing required parameter, and decoding against the function's schema with
/// [`crate::decode::Decoder`] (default policy). A call that does not decode keeps its arguments as
/// written, so the scorer reports the model's own mistake.
pub fn full(
    output: &str,
    format: StrictFormat,
    functions: &[FunctionDoc],
    policy: FullPolicy,
) -> Parsed {
    let mut parsed = Parsed::default();
    for f in extracted(output, functions, true) {
        let Some(args) = f.args else {
            parsed.unparsed += 1;
            continue;
        };
        let mut call = Call { name: f.name, args };
        parsed.rescue.foreign_envelope += u32::from(!is_native(f.format, format));
        parsed.rescue.repaired += u32::from(f.repaired);
        parsed.rescue.renamed += u32::from(f.renamed);
        mend(&mut call, functions, policy, &mut parsed.rescue);
        parsed.calls.push(call);
    }
    parsed
}

/// Applies the schema to one call, as `full` does: resolves an unknown name to the offered
/// function it clearly means, fills missing required parameters from schema defaults, and decodes
/// the arguments against the function's schema.
pub fn mend(call: &mut Call, functions: &[FunctionDoc], policy: FullPolicy, rescue: &mut Rescue) {
    if functions.iter().all(|d| d.name != call.name) {
        if let Some(name) = resolve_name(&call.name, functions) {
            call.name = name.to_owned();
            rescue.renamed += 1;
        } else if policy.rename_by_arguments
            && let Some(name) = resolve_by_arguments(&call.args, functions)
        {
            call.name = name.to_owned();
            rescue.renamed_by_arguments += 1;
        }
    }
    if let Some(doc) = functions.iter().find(|d| d.name == call.name) {
        let schema = super::types::to_json_schema(&doc.parameters);
        if apply_defaults(&mut call.args, &schema) {
            rescue.defaulted += 1;
        }
        match decode_args(&call.args, &schema) {
            Some(d) => {
                call.args = d.args;
                rescue.coerced += u32::from(d.coerced);
                rescue.dropped_unknown += u32::from(d.dropped_unknown);
            }
            None => rescue.decode_rejected += 1,
        }
    }
}

/// What decoding did to one call's arguments.
struct DecodedArgs {
    args: Map<String, Value>,
    /// A value was changed to fit the schema.
    coerced: bool,
    /// A key the schema does not have was dropped.
    dropped_unknown: bool,
}

/// Decodes `args` against `schema` with toolmend's decoder (default policy), or `None` when the
/// arguments do not fit. Optional parameters the decoder filled from their schema defaults are
/// taken out again: the call means the same with or without them, and BFCL scores what the model
/// chose, not what the schema supplies.
fn decode_args(args: &Map<String, Value>, schema: &Value) -> Option<DecodedArgs> {
    use crate::decode::CoercionKind;
    let decoder = crate::decode::Decoder::new(schema).ok()?;
    let value = Value::Object(args.clone());
    let d = decoder
        .decode_value(&value, &crate::decode::Policy::default())
        .ok()?;
    let Value::Object(mut out) = d.value else {
        return None;
    };
    let mut coerced = false;
    let mut dropped_unknown = false;
    for c in d.coercions.iter().rev() {
        match c.kind {
            CoercionKind::MissingToDefault => {
                let required = schema
                    .get("required")
                    .and_then(Value::as_array)
                    .zip(c.path.get(1..))
                    .is_some_and(|(r, key)| r.iter().any(|k| k.as_str() == Some(key)));
                if required {
                    coerced = true;
                } else {
                    remove_pointer(&mut out, &c.path);
                }
            }
            CoercionKind::UnknownKeyDropped => dropped_unknown = true,
            _ => coerced = true,
        }
    }
    Some(DecodedArgs {
        args: out,
        coerced,
        dropped_unknown,
    })
}

/// Removes the member a JSON Pointer (`/a/0/b`) names, when it is an object member.
fn remove_pointer(root: &mut Map<String, Value>, pointer: &str) {
    let unescape = |t: &str| t.replace("~1", "/").replace("~0", "~");
    let tokens: Vec<String> = pointer.split('/').skip(1).map(unescape).collect();
    let Some((last, parents)) = tokens.split_last() else {
        return;
    };
    let mut parent: Option<&mut Value> = None;
    for (i, t) in parents.iter().enumerate() {
        parent = if i == 0 {
            root.get_mut(t.as_str())
        } else {
            match parent {
                Some(Value::Object(m)) => m.get_mut(t.as_str()),
                Some(Value::Array(a)) => t.parse::<usize>().ok().and_then(|i| a.get_mut(i)),
                _ => None,
            }
        };
    }
    let node = match parent {
        None if parents.is_empty() => root,
        Some(Value::Object(m)) => m,
        _ => return,
    };
    node.remove(last.as_str());
}

/// Resolves a name the question does not offer to the one offered function it clearly means: by
/// the extractor's rules (the same name up to separators and case, `math.roots.quadratic` →
/// `math_roots.quadratic`; the last dotted segment, `find_group` → `restaurant.find_group`; the
/// name plus a generic noun, `read_file` → `read`), or within a small edit distance of exactly one
/// offered name. `None` when not unique.
pub fn resolve_name<'a>(name: &str, functions: &'a [FunctionDoc]) -> Option<&'a str> {
    let names: Vec<&str> = functions.iter().map(|f| f.name.as_str()).collect();
    if let Some(n) = crate::extract::resolve_alias(name, &names) {
        return Some(n);
    }
    let squashed = squash(name);
    if squashed.is_empty() {
        return None;
    }
    // A typo: at most one edit per 8 characters, at most 2, and strictly closer than any other.
    let limit = (squashed.chars().count() / 8).clamp(1, 2);
    let mut scored: Vec<(usize, &str)> = functions
        .iter()
        .map(|f| {
            (
                strsim::damerau_levenshtein(&squash(&f.name), &squashed),
                f.name.as_str(),
            )
        })
        .collect();
    scored.sort();
    match scored.as_slice() {
        [(d, n)] if *d <= limit => Some(n),
        [(d, n), (d2, _), ..] if *d <= limit && d2 > d => Some(n),
        _ => None,
    }
}

/// The one offered function whose parameters fit `args` exactly: every argument name is one of its
/// parameters and every required parameter is present. `None` when zero or several fit.
pub fn resolve_by_arguments<'a>(
    args: &Map<String, Value>,
    functions: &'a [FunctionDoc],
) -> Option<&'a str> {
    if args.is_empty() {
        return None;
    }
    let fits: Vec<&str> = functions
        .iter()
        .filter(|f| crate::schema::takes_arguments(&f.parameters, args))
        .map(|f| f.name.as_str())
        .collect();
    if fits.len() == 1 { Some(fits[0]) } else { None }
}

/// Fills each missing *required* parameter that has a schema `default` (optional parameters are
/// left out: omitting them is already valid). Returns whether anything was added.
fn apply_defaults(args: &mut Map<String, Value>, schema: &Value) -> bool {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return false;
    };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut added = false;
    for name in required {
        if args.contains_key(name) {
            continue;
        }
        if let Some(default) = props.get(name).and_then(|p| p.get("default")) {
            args.insert(name.to_owned(), default.clone());
            added = true;
        }
    }
    added
}
