//! Value readers shared by the families: JSON values inside prose, the shapes of JSON call
//! objects, Python literals and calls, Gemma's object syntax, and schema-typed raw-text values.
//! Every reader has a depth limit of [`MAX_DEPTH`] and reports "ran out of text" apart from
//! "not this syntax", which the streaming scanner needs.

use serde_json::{Map, Number, Value};

/// Deepest nesting any reader accepts (serde_json's own limit).
pub(crate) const MAX_DEPTH: usize = 128;

/// Why a reader stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The text ended inside the value.
    Eof,
    /// The text is not this syntax.
    Invalid,
}

/// Reads one valid JSON value starting at `at`; returns it and the offset just past it.
pub(crate) fn json_at(text: &str, at: usize) -> Result<(Value, usize), Stop> {
    let mut it = serde_json::Deserializer::from_str(&text[at..]).into_iter::<Value>();
    match it.next() {
        Some(Ok(v)) => Ok((v, at + it.byte_offset())),
        Some(Err(e)) if e.is_eof() => Err(Stop::Eof),
        None => Err(Stop::Eof),
        Some(Err(_)) => Err(Stop::Invalid),
    }
}

/// Whether `v`, read by [`json_at`] up to the end of a text that is still growing, may go on: a
/// number may get more digits (`12` → `123`) and a number or literal may turn out to be a word
/// (`0abc`, `nullx` are no JSON), so a stream waits for the next byte.
pub(crate) fn may_go_on(v: &Value) -> bool {
    matches!(v, Value::Number(_) | Value::Bool(_) | Value::Null)
}

/// A call read from a JSON value: name, arguments, id.
pub(crate) type JsonCall = (String, JsonArgs, Option<String>);

/// The arguments of a call object, as it gives them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum JsonArgs {
    /// Under an arguments key, or as the one member keyed by the name (`{"read": {…}}`): the
    /// value (a JSON-encoded string decoded when it holds an object).
    Given(Value),
    /// No arguments key: the members written beside the name (`{"name": "read", "path": "a"}`),
    /// without the call's `id` and `"type": "function"`; empty when there are none. Only the
    /// tool's schema tells flattened arguments from other members (E27, [`beside_fits`]).
    Beside(Map<String, Value>),
}

const NAME_KEYS: &[&str] = &[
    "name",
    "tool_name",
    "function",
    "tool",
    "action",
    "function_name",
    "recipient_name",
];
const ARG_KEYS: &[&str] = &[
    "arguments",
    "parameters",
    "args",
    "action_input",
    "input",
    "params",
    "tool_input",
];

fn good_name(s: &str) -> bool {
    s.len() <= 128 && super::scan::is_name(s)
}

/// A short one-line phrase of words (`Healthy Lunch Recipe`): what a model writes as the name of
/// a function it made up.
fn phrase_name(s: &str) -> bool {
    let s = s.trim();
    !s.is_empty()
        && s.len() <= 64
        && s.split(' ').count() <= 8
        && s.chars().next().is_some_and(char::is_alphanumeric)
        && s.chars()
            .all(|c| super::scan::is_name_char(c) || c == ' ' || c == '\'' || c == '&')
}

/// The call in one JSON object, if it has the shape of one. With `need_args`, an object with a
/// name but no arguments key is not a call (bare JSON in prose); inside an envelope it is, with
/// `null` arguments standing for "no arguments key".
pub(crate) fn call_from_object(v: &Value, need_args: bool) -> Option<JsonCall> {
    let o = v.as_object()?;
    if is_definition(o) {
        return None;
    }
    // OpenAI nesting: {"type": "function", "function": {"name", "arguments"}, "id"}.
    if let Some(inner @ Value::Object(_)) = o.get("function") {
        let (n, a, id) = call_from_object(inner, false)?;
        let id = id.or_else(|| o.get("id").and_then(Value::as_str).map(str::to_owned));
        return Some((n, a, id));
    }
    if o.len() == 1
        && let Some(inner) = o.get("tool_call").or_else(|| o.get("function_call"))
    {
        return call_from_object(inner, false);
    }
    if !need_args && let Some((name, args)) = keyed_call(o) {
        return Some((name.to_owned(), JsonArgs::Given(args.clone()), None));
    }
    let args = ARG_KEYS.iter().find_map(|k| o.get(*k));
    // A name with spaces (`"Healthy Lunch Recipe"`) is a made-up function, not prose: with an
    // arguments object beside it the object is still a call attempt (then refused by name).
    let (name_key, name) = NAME_KEYS
        .iter()
        .find_map(|k| o.get(*k).and_then(Value::as_str).map(|n| (*k, n)))
        .filter(|(_, n)| {
            good_name(n) || (matches!(args, Some(Value::Object(_))) && phrase_name(n))
        })?;
    if need_args && args.is_none() {
        return None;
    }
    let args = match args {
        // No arguments key at all: the members beside the name (the finisher decides whether
        // they are the arguments, see `NoArguments` and E27).
        None => JsonArgs::Beside(
            o.iter()
                .filter(|(k, v)| *k != name_key && !envelope_member(k, v))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        Some(Value::Null) => JsonArgs::Given(Value::Object(Map::new())),
        Some(Value::String(s)) => JsonArgs::Given(decode_string_args(s)),
        Some(a) => JsonArgs::Given(a.clone()),
    };
    let id = o
        .get("id")
        .or_else(|| o.get("tool_call_id"))
        .and_then(|v| match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        });
    Some((name.to_owned(), args, id))
}

/// A member of a call object that belongs to the call, not to its arguments: its id, and
/// OpenAI's `"type": "function"`.
fn envelope_member(k: &str, v: &Value) -> bool {
    matches!(k, "id" | "tool_call_id" | "call_id")
        || (k == "type" && matches!(v.as_str(), Some("function" | "tool_call" | "tool_use")))
}

/// `{"read": {"path": "a"}}`: one member, keyed by a name that is no name or arguments key,
/// whose value is an object (E27; Apertus writes this shape natively).
fn keyed_call(o: &Map<String, Value>) -> Option<(&str, &Value)> {
    if o.len() != 1 {
        return None;
    }
    let (k, a) = o.iter().next()?;
    (a.is_object()
        && good_name(k)
        && !NAME_KEYS.contains(&k.as_str())
        && !ARG_KEYS.contains(&k.as_str())
        && k != "tool_calls")
        .then_some((k.as_str(), a))
}

/// E27: true when `v` holds calls to listed tools written without an arguments key — every
/// member beside the name (`{"name": "read", "path": "a"}`) or the one object keyed by the
/// tool's name (`{"read": {"path": "a"}}`) a parameter of that tool — or such calls in an
/// array with ordinary call objects. Bare JSON in prose is a call in these shapes only with this
/// evidence from the tool list; without it, it is data.
pub(crate) fn listed_calls(v: &Value, opts: &super::Options) -> bool {
    let one = |x: &Value| {
        let Some(o) = x.as_object() else {
            return false;
        };
        if call_from_object(x, true).is_some() {
            return true;
        }
        match keyed_call(o) {
            Some((name, Value::Object(a))) => beside_fits(opts, name, a),
            _ => matches!(call_from_object(x, false),
                Some((name, JsonArgs::Beside(m), _)) if beside_fits(opts, &name, &m)),
        }
    };
    match v {
        Value::Object(_) => one(v),
        Value::Array(a) => !a.is_empty() && a.iter().all(one),
        _ => false,
    }
}

/// True when `m` is not empty and every member is a parameter of the listed tool `name` (or the
/// one tool its alias resolves to, unless names must be exact): flattened arguments (E27).
pub(crate) fn beside_fits(opts: &super::Options, name: &str, m: &Map<String, Value>) -> bool {
    let props = opts
        .resolved_tool(name)
        .and_then(|t| t.parameters.get("properties")?.as_object());
    !m.is_empty() && props.is_some_and(|p| m.keys().all(|k| p.contains_key(k)))
}

/// A tool *definition* as a prompt lists it: a `description` beside a schema-shaped
/// `parameters` (`"type": "object"` with a `properties` object) and no `arguments`. Small models
/// echo the tool list of their system prompt; a definition is never a call. Llama 3's call
/// `{"name": "f", "parameters": {…}}` has no description, so its arguments stay arguments
/// whatever keys they have.
fn is_definition(o: &Map<String, Value>) -> bool {
    !o.contains_key("arguments")
        && o.contains_key("description")
        && o.get("parameters")
            .and_then(Value::as_object)
            .is_some_and(|p| {
                p.get("type").and_then(Value::as_str) == Some("object")
                    && p.get("properties").is_some_and(Value::is_object)
            })
}

/// True when `v` is a call, or a list of calls, that carries its arguments under an
/// `arguments` key (OpenAI / Hermes calls; OpenAI's `{"type": "function", "function": …}`
/// nesting and `{"tool_call": …}` wrappers included). Inside `<tools>…</tools>`, the wrapper of
/// tool definitions, only these are calls (Hermes 2 Pro writes them there).
pub(crate) fn has_arguments_key(v: &Value) -> bool {
    match v {
        Value::Object(o) => {
            o.contains_key("arguments")
                || ["function", "tool_call", "function_call"].iter().any(|k| {
                    o.get(*k)
                        .is_some_and(|i| i.is_object() && has_arguments_key(i))
                })
                || o.get("tool_calls").is_some_and(has_arguments_key)
        }
        Value::Array(a) => !a.is_empty() && a.iter().all(has_arguments_key),
        _ => false,
    }
}

/// Arguments given as a JSON-encoded string: the decoded object when it is one.
pub(crate) fn decode_string_args(s: &str) -> Value {
    if s.trim().is_empty() {
        return Value::Object(Map::new());
    }
    match crate::repair::repair(s) {
        Ok(r) => match serde_json::from_str::<Value>(&r.text) {
            Ok(v @ (Value::Object(_) | Value::Array(_))) => v,
            _ => Value::String(s.to_owned()),
        },
        Err(_) => Value::String(s.to_owned()),
    }
}

/// Calls in a JSON value: one call object, an array of them, or a `{"tool_calls": […]}` wrapper.
/// Every element must be a call, or the value is data and `None` comes back.
pub(crate) fn calls_from_value(v: &Value, need_args: bool) -> Option<Vec<JsonCall>> {
    match v {
        Value::Object(o) => {
            if let Some(Value::Array(a)) = o.get("tool_calls").filter(|_| o.len() <= 2) {
                return calls_from_array(a, false);
            }
            call_from_object(v, need_args).map(|c| vec![c])
        }
        Value::Array(a) => calls_from_array(a, need_args),
        _ => None,
    }
}

fn calls_from_array(a: &[Value], need_args: bool) -> Option<Vec<JsonCall>> {
    if a.is_empty() {
        return None;
    }
    a.iter().map(|x| call_from_object(x, need_args)).collect()
}

/// Types a raw-text value (XML families) from the tool's schema type, or by its look without one.
pub(crate) fn type_raw(raw: &str, ty: Option<&str>, string_hint: Option<bool>) -> Value {
    if string_hint == Some(true) || ty == Some("string") {
        return Value::String(raw.to_owned());
    }
    let t = raw.trim();
    if ty.is_none() && string_hint.is_none() {
        // Python's spelling of the booleans, as models trained on Python write them.
        match t {
            "True" => return Value::Bool(true),
            "False" => return Value::Bool(false),
            _ => {}
        }
    }
    let looks_json = t.bytes().next().is_some_and(|c| {
        matches!(
            c,
            b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n'
        )
    });
    if looks_json || ty.is_some() || string_hint == Some(false) {
        if let Ok(v) = serde_json::from_str::<Value>(t) {
            return v;
        }
        if ty.is_some() || string_hint == Some(false) {
            match t {
                "True" => return Value::Bool(true),
                "False" => return Value::Bool(false),
                "None" => return Value::Null,
                _ => {}
            }
            if matches!(t.bytes().next(), Some(b'{' | b'[')) {
                if let Ok((v, e)) = py_value(t, 0, 0)
                    && skip_ws(t, e) == t.len()
                {
                    return v;
                }
                if let Some(v) = crate::repair::repaired_value(t) {
                    return v;
                }
            }
        }
    }
    Value::String(raw.to_owned())
}

fn skip_ws(t: &str, at: usize) -> usize {
    super::scan::skip_ws(t, at)
}

// ---------------------------------------------------------------------------------------------
// Python literals and calls.

/// Reads a Python identifier (dots allowed: `a.b`) at `at`; returns its end or `None`.
pub(crate) fn py_ident(t: &str, at: usize) -> Option<usize> {
    let b = t.as_bytes();
    let mut i = at;
    if i >= b.len() || !(b[i].is_ascii_alphabetic() || b[i] == b'_') {
        return None;
    }
    while i < b.len()
        && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.' || b[i] == b'-')
    {
        i += 1;
    }
    Some(i)
}

/// What [`py_call`] makes of positional arguments that are no arguments object
/// (`search("rust")`, `write("a.txt", "hi")`); keyword arguments (`k=v`, and `k: v` as
/// TypeScript-minded models write them) and one arguments object (`f({"a": 1})`) are read in
/// every case.
#[derive(Clone, Copy)]
pub(crate) enum Positional<'a> {
    /// Onto the parameters of the listed tool the name means, in its schema's order, as Python
    /// binds them (E30); for a name that is not listed, or more values than parameters, not a
    /// call.
    Mapped(&'a super::Options),
    /// As `Mapped`, but a closed envelope says it is a call: one value that cannot be mapped is
    /// kept as the arguments value (not an object), so the finisher refuses it `NoArguments`;
    /// more values than a listed tool has parameters are counted ([`PyArgs::TooMany`]), so it
    /// refuses them `TooManyValues`.
    Kept(&'a super::Options),
}

/// The arguments [`py_call`] read.
#[derive(Debug)]
pub(crate) enum PyArgs {
    /// The arguments value (an object, or with [`Positional::Kept`] one value that could not be
    /// mapped).
    Value(Value),
    /// With [`Positional::Kept`]: more positional values (the count) than the tool has
    /// parameters (a tool not listed has none), and no keyword arguments (`ls("notes",
    /// "extra")` for `ls(path)`). A closed envelope says it is a call; it is refused with what
    /// the tool takes, so the model can write it again, not left in the answer as text.
    TooMany(usize),
}

/// Reads `name(k=v, …)`, `name({…})` or `name(v, …)` (see [`Positional`]) at `at` (no leading
/// whitespace); returns name, arguments and end.
pub(crate) fn py_call(
    t: &str,
    at: usize,
    positional: Positional<'_>,
) -> Result<(String, PyArgs, usize), Stop> {
    let Some(ne) = py_ident(t, at) else {
        return Err(if at >= t.len() {
            Stop::Eof
        } else {
            Stop::Invalid
        });
    };
    let mut name = &t[at..ne];
    if let Some(n) = name.strip_suffix(".call") {
        name = n;
    }
    let mut i = skip_ws(t, ne);
    if i >= t.len() {
        return Err(Stop::Eof);
    }
    if t.as_bytes()[i] != b'(' {
        return Err(Stop::Invalid);
    }
    i += 1;
    let mut values = Vec::new();
    let mut args = Map::new();
    loop {
        i = skip_ws(t, i);
        let Some(&c) = t.as_bytes().get(i) else {
            return Err(Stop::Eof);
        };
        if c == b')' {
            i += 1;
            break;
        }
        // `k=v` or `k: v` (not `k == v`); anything else is a positional value. A name at the
        // end of the text may be either: wait for more (fuzz: a stream read `f(A` as a
        // positional value, not a call, where the whole text went on `=(…`).
        let keyword = match py_ident(t, i) {
            Some(ke) => {
                let j = skip_ws(t, ke);
                match t.as_bytes().get(j) {
                    None => return Err(Stop::Eof),
                    Some(b':') => Some((ke, j + 1)),
                    Some(b'=') if t.as_bytes().get(j + 1) != Some(&b'=') => Some((ke, j + 1)),
                    Some(_) => None,
                }
            }
            None => None,
        };
        let v_at = match keyword {
            Some((_, v_at)) => v_at,
            None if !args.is_empty() => return Err(Stop::Invalid),
            None => i,
        };
        let (v, e) = py_value(t, skip_ws(t, v_at), 0)?;
        match keyword {
            Some((ke, _)) => {
                args.insert(t[i..ke].to_owned(), v);
            }
            None => values.push(v),
        }
        i = after_item(t, e, b')')?;
    }
    if values.is_empty() {
        return Ok((name.to_owned(), PyArgs::Value(Value::Object(args)), i));
    }
    if values.len() == 1 && args.is_empty() && values[0].is_object() {
        // `f({"a": 1})`: the arguments object (E26).
        return Ok((
            name.to_owned(),
            PyArgs::Value(values.pop().unwrap_or_default()),
            i,
        ));
    }
    let (Positional::Mapped(opts) | Positional::Kept(opts)) = positional;
    // Python's binding: the n values are the first n parameters, none of them also given by
    // keyword.
    let params = opts.parameter_names(name).unwrap_or_default();
    let bound = values.len() <= params.len()
        && params[..values.len()]
            .iter()
            .all(|p| !args.contains_key(*p));
    if bound {
        let mut m = Map::new();
        for (p, v) in params.iter().zip(values) {
            m.insert((*p).to_owned(), v);
        }
        m.extend(args);
        return Ok((name.to_owned(), PyArgs::Value(Value::Object(m)), i));
    }
    match positional {
        Positional::Kept(_) if values.len() == 1 && args.is_empty() => Ok((
            name.to_owned(),
            PyArgs::Value(values.pop().unwrap_or_default()),
            i,
        )),
        // A name not listed is refused as such (`UnknownTool`) before its values are looked at.
        Positional::Kept(_) if args.is_empty() => {
            Ok((name.to_owned(), PyArgs::TooMany(values.len()), i))
        }
        _ => Err(Stop::Invalid),
    }
}

/// Reads one Python (or JSON) literal at `at`.
pub(crate) fn py_value(t: &str, at: usize, depth: usize) -> Result<(Value, usize), Stop> {
    if depth > MAX_DEPTH {
        return Err(Stop::Invalid);
    }
    let b = t.as_bytes();
    let Some(&c) = b.get(at) else {
        return Err(Stop::Eof);
    };
    match c {
        b'\'' | b'"' => py_string(t, at).map(|(s, e)| (Value::String(s), e)),
        b'[' | b'(' => {
            let close = if c == b'[' { b']' } else { b')' };
            list_items(t, at + 1, close, |i| py_value(t, i, depth + 1))
        }
        b'{' => dict_entries(
            t,
            at + 1,
            |i| {
                let (k, e) = py_value(t, i, depth + 1)?;
                let key = match k {
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                Ok((key, e))
            },
            |i| py_value(t, i, depth + 1),
        ),
        b'-' | b'+' | b'0'..=b'9' | b'.' => py_number(t, at),
        _ => {
            let e = py_ident(t, at).ok_or(Stop::Invalid)?;
            let v = match &t[at..e] {
                "True" | "true" => Value::Bool(true),
                "False" | "false" => Value::Bool(false),
                "None" | "null" => Value::Null,
                _ => {
                    return Err(if e == t.len() {
                        Stop::Eof
                    } else {
                        Stop::Invalid
                    });
                }
            };
            if e == t.len() {
                // `Tru` could still grow into `True…`; a final text ends here anyway.
                return Ok((v, e));
            }
            Ok((v, e))
        }
    }
}

fn py_number(t: &str, at: usize) -> Result<(Value, usize), Stop> {
    let b = t.as_bytes();
    let mut i = at;
    while i < b.len() && matches!(b[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'_' | b'0'..=b'9') {
        i += 1;
    }
    if i == b.len() {
        return Err(Stop::Eof);
    }
    let s: String = t[at..i].chars().filter(|c| *c != '_').collect();
    let s = s.strip_prefix('+').unwrap_or(&s);
    if let Ok(n) = s.parse::<i64>() {
        return Ok((Value::Number(n.into()), i));
    }
    match s.parse::<f64>().ok().and_then(Number::from_f64) {
        Some(n) => Ok((Value::Number(n), i)),
        None => Err(Stop::Invalid),
    }
}

/// Reads a Python string literal ('…', "…", '''…''', """…""") with its escapes.
pub(crate) fn py_string(t: &str, at: usize) -> Result<(String, usize), Stop> {
    let q = t.as_bytes()[at];
    let triple = t.as_bytes().get(at..at + 3) == Some(&[q, q, q][..]);
    let qlen = if triple { 3 } else { 1 };
    let mut out = String::new();
    let mut it = t[at + qlen..].char_indices().peekable();
    let base = at + qlen;
    while let Some((i, ch)) = it.next() {
        if ch == '\\' {
            let Some((_, e)) = it.next() else {
                return Err(Stop::Eof);
            };
            match e {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                '0' => out.push('\0'),
                'u' => {
                    let hex: String = (0..4).filter_map(|_| it.next().map(|x| x.1)).collect();
                    if hex.len() < 4 {
                        return Err(Stop::Eof);
                    }
                    match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                        Some(c) => out.push(c),
                        None => return Err(Stop::Invalid),
                    }
                }
                '\n' => {}
                '\\' | '\'' | '"' => out.push(e),
                other => {
                    out.push('\\');
                    out.push(other);
                }
            }
            continue;
        }
        if ch as u32 == u32::from(q) {
            if !triple {
                return Ok((out, base + i + 1));
            }
            let rest = &t.as_bytes()[base + i..];
            if rest.len() >= 3 && rest[..3] == [q, q, q] {
                return Ok((out, base + i + 3));
            }
            if rest.len() < 3 && rest.iter().all(|&x| x == q) {
                return Err(Stop::Eof);
            }
        }
        if ch == '\n' && !triple {
            return Err(Stop::Invalid);
        }
        out.push(ch);
    }
    Err(Stop::Eof)
}

// ---------------------------------------------------------------------------------------------
// Gemma's object syntax: `{key:<|"|>text<|"|>,n:1,o:{…},l:[…]}`.

/// Reads a Gemma value at `at`; `quote` is the string delimiter (`<|"|>` or `<escape>`).
pub(crate) fn gemma_value(
    t: &str,
    at: usize,
    quote: &str,
    depth: usize,
) -> Result<(Value, usize), Stop> {
    if depth > MAX_DEPTH {
        return Err(Stop::Invalid);
    }
    let b = t.as_bytes();
    let Some(&c) = b.get(at) else {
        return Err(Stop::Eof);
    };
    if t[at..].starts_with(quote) {
        let s = at + quote.len();
        return match super::scan::find(t, s, quote) {
            Some(e) => Ok((Value::String(t[s..e].to_owned()), e + quote.len())),
            None => Err(Stop::Eof),
        };
    }
    if quote.starts_with(&t[at..]) {
        return Err(Stop::Eof);
    }
    match c {
        b'"' => {
            // A JSON string, which must be valid JSON (Gemma quotes its own strings with the
            // quote token above; a `"…"` with unescaped inner quotes is refused, not guessed).
            match json_at(t, at) {
                Ok((Value::String(s), e)) => Ok((Value::String(s), e)),
                Err(Stop::Eof) => Err(Stop::Eof),
                _ => Err(Stop::Invalid),
            }
        }
        b'{' => dict_entries(
            t,
            at + 1,
            |i| {
                if t[i..].starts_with(quote) || b[i] == b'"' {
                    match gemma_value(t, i, quote, depth + 1)? {
                        (Value::String(s), e) => Ok((s, e)),
                        _ => Err(Stop::Invalid),
                    }
                } else {
                    // A bare key up to its colon.
                    let e = t[i..].find([':', '}', ',']).map_or(t.len(), |x| i + x);
                    if e == t.len() {
                        return Err(Stop::Eof);
                    }
                    Ok((t[i..e].trim().to_owned(), e))
                }
            },
            |i| gemma_value(t, i, quote, depth + 1),
        ),
        b'[' => list_items(t, at + 1, b']', |i| gemma_value(t, i, quote, depth + 1)),
        _ => {
            // Bare scalar up to a delimiter.
            let e = t[at..].find([',', '}', ']']).map_or(t.len(), |x| at + x);
            if e == t.len() {
                return Err(Stop::Eof);
            }
            let raw = t[at..e].trim();
            let v = match raw {
                "true" | "True" => Value::Bool(true),
                "false" | "False" => Value::Bool(false),
                "null" | "None" => Value::Null,
                _ => serde_json::from_str::<Value>(raw)
                    .unwrap_or_else(|_| Value::String(raw.to_owned())),
            };
            Ok((v, e))
        }
    }
}

/// The items of a list or tuple from `at` (just past its opener) to its `close`, each read by
/// `item` at its first byte.
fn list_items(
    t: &str,
    at: usize,
    close: u8,
    mut item: impl FnMut(usize) -> Result<(Value, usize), Stop>,
) -> Result<(Value, usize), Stop> {
    let mut out = Vec::new();
    let mut i = at;
    loop {
        i = skip_ws(t, i);
        match t.as_bytes().get(i) {
            None => return Err(Stop::Eof),
            Some(&x) if x == close => return Ok((Value::Array(out), i + 1)),
            _ => {}
        }
        let (v, e) = item(i)?;
        out.push(v);
        i = after_item(t, e, close)?;
    }
}

/// The entries of a dict from `at` (just past its `{`) to its `}`: each a key read by `key`, a
/// `:`, and a value read by `value` (both called at the first byte of what they read).
fn dict_entries(
    t: &str,
    at: usize,
    mut key: impl FnMut(usize) -> Result<(String, usize), Stop>,
    mut value: impl FnMut(usize) -> Result<(Value, usize), Stop>,
) -> Result<(Value, usize), Stop> {
    let b = t.as_bytes();
    let mut out = Map::new();
    let mut i = at;
    loop {
        i = skip_ws(t, i);
        match b.get(i) {
            None => return Err(Stop::Eof),
            Some(b'}') => return Ok((Value::Object(out), i + 1)),
            _ => {}
        }
        let (k, ke) = key(i)?;
        i = skip_ws(t, ke);
        match b.get(i) {
            None => return Err(Stop::Eof),
            Some(b':') => i += 1,
            Some(_) => return Err(Stop::Invalid),
        }
        i = skip_ws(t, i);
        let (v, e) = value(i)?;
        out.insert(k, v);
        i = after_item(t, e, b'}')?;
    }
}

/// After an item of a list, tuple or dict ending at `e`: past the `,` that continues it, or at
/// its `close` (the caller consumes that); the end of text and anything else stop the parse.
fn after_item(t: &str, e: usize, close: u8) -> Result<usize, Stop> {
    let i = skip_ws(t, e);
    match t.as_bytes().get(i) {
        None => Err(Stop::Eof),
        Some(b',') => Ok(i + 1),
        Some(&x) if x == close => Ok(i),
        Some(_) => Err(Stop::Invalid),
    }
}
