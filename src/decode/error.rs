//! Decode errors and the corrective message a small model sees: every problem, one JSON Pointer,
//! what was expected, what was received and the one fix each, then a corrected example to copy.

use std::fmt::{self, Write as _};

use jsonschema::error::ValidationErrorKind;
use serde::Serialize;
use serde_json::Value;

use super::example;
use super::node::{
    Additional, Compiled, Node, NodeId, ROOT, T_ARR, T_BOOL, T_INT, T_NULL, T_NUM, T_OBJ, T_STR,
};
use crate::repair::RepairError;

/// One way the arguments do not fit the schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// JSON Pointer of the offending value (or of the missing field); `""` is the whole arguments.
    pub path: String,
    /// What the schema expects there, in words.
    pub expected: String,
    /// What was received (a short JSON rendering, or `nothing` for a missing field).
    pub received: String,
    /// The valid field names or enum values, when there is a closed list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub valid_values: Option<Vec<String>>,
    /// The one change that fixes it, e.g. `"unit": "celsius"`.
    pub fix: String,
}

/// Why arguments could not be decoded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The text is not JSON and repair could not make it JSON.
    #[error(
        "the arguments are not valid JSON ({0}). Send the arguments as one JSON object, with double-quoted keys and strings"
    )]
    Malformed(#[source] RepairError),
    /// The value does not fit the schema; the Display is the corrective message.
    #[error("{}", render(problems, example.as_deref()))]
    Invalid {
        /// Every problem found (not just the first).
        problems: Vec<Problem>,
        /// The received arguments with every fix applied, when that yields valid arguments.
        example: Option<Box<Value>>,
    },
    /// The schema itself is broken (a bug in the tool definition, not the model's fault).
    #[error("the tool's parameter schema is broken: {0}")]
    Schema(#[from] SchemaError),
}

impl DecodeError {
    /// The message to send back to the model (same as `Display`).
    #[must_use]
    pub fn corrective_message(&self) -> String {
        self.to_string()
    }

    /// The problems (empty unless [`DecodeError::Invalid`]).
    #[must_use]
    pub fn problems(&self) -> &[Problem] {
        match self {
            DecodeError::Invalid { problems, .. } => problems,
            _ => &[],
        }
    }

    #[cold]
    pub(crate) fn from_serde(e: &serde_path_to_error::Error<serde_json::Error>) -> Self {
        let path = serde_path_to_pointer(e.path());
        DecodeError::Invalid {
            problems: vec![Problem {
                path,
                expected: "a value the tool's type accepts".into(),
                received: e.inner().to_string(),
                valid_values: None,
                fix: "send a value of the type the schema describes".into(),
            }],
            example: None,
        }
    }
}

/// Why a schema could not be compiled for decoding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SchemaError {
    /// The schema is not valid JSON Schema.
    #[error("invalid schema: {message}")]
    Invalid {
        /// What is wrong.
        message: String,
    },
    /// A `$ref` points nowhere (only local `#…` references are supported).
    #[error(
        "`$ref` {reference} does not resolve inside the schema; inline it or put it under `$defs`"
    )]
    UnresolvedRef {
        /// The reference as written.
        reference: String,
    },
    /// The schema nests deeper than the compiler allows.
    #[error("the schema nests deeper than {limit} levels; flatten it")]
    TooDeep {
        /// The limit.
        limit: usize,
    },
}

fn serde_path_to_pointer(p: &serde_path_to_error::Path) -> String {
    let mut out = String::new();
    for seg in p.iter() {
        out.push('/');
        match seg {
            serde_path_to_error::Segment::Seq { index } => {
                let _ = write!(out, "{index}");
            }
            serde_path_to_error::Segment::Map { key } => super::parse::push_escaped(&mut out, key),
            serde_path_to_error::Segment::Enum { variant } => {
                super::parse::push_escaped(&mut out, variant);
            }
            serde_path_to_error::Segment::Unknown => out.push('?'),
        }
    }
    out
}

/// Renders the corrective message: a header, one line per problem, the corrected example.
fn render(problems: &[Problem], example: Option<&Value>) -> String {
    let mut s = String::new();
    let n = problems.len();
    let _ = write!(
        s,
        "the arguments do not fit the tool's parameters ({n} problem{}). Fix {} and call the tool again:",
        if n == 1 { "" } else { "s" },
        if n == 1 { "it" } else { "all of them" }
    );
    for p in problems {
        let at = if p.path.is_empty() {
            "(arguments)"
        } else {
            &p.path
        };
        let _ = write!(
            s,
            "\n- {at}: expected {}, received {}. Fix: {}",
            p.expected, p.received, p.fix
        );
    }
    if let Some(ex) = example {
        let _ = write!(s, "\nCorrected arguments: {}", compact(ex, 400));
    }
    s
}

/// A short JSON rendering of `v` (at most `max` bytes, cut on a char boundary with `…`).
pub(crate) fn compact(v: &Value, max: usize) -> String {
    let s = serde_json::to_string(v).unwrap_or_default();
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

/// Turns every validation error into a [`Problem`], appended to `problems`.
fn collect_validation(
    c: &Compiled,
    validator: &jsonschema::Validator,
    value: &Value,
    problems: &mut Vec<(Problem, Tag)>,
) {
    for err in validator.iter_errors(value) {
        let mut tag = Tag::Other;
        let path = err.instance_path().as_str().to_owned();
        let received_v = err.instance();
        let p = match err.kind() {
            ValidationErrorKind::Required { property } => {
                let name = property.as_str().unwrap_or_default();
                tag = Tag::Required;
                let obj_node = node_at(c, value, &path);
                let field_node = obj_node.and_then(|n| c.get(n).prop(name));
                let ex = field_node.map_or(Value::Null, |n| example::example_for(c, n));
                let mut fp = path.clone();
                fp.push('/');
                super::parse::push_escaped(&mut fp, name);
                Problem {
                    path: fp,
                    expected: format!(
                        "the required field \"{name}\"{}",
                        field_node.map_or(String::new(), |n| format!(" ({})", describe(c, n)))
                    ),
                    received: "nothing".into(),
                    valid_values: None,
                    fix: format!("add \"{name}\": {}", compact(&ex, 80)),
                }
            }
            ValidationErrorKind::AdditionalProperties { unexpected } => {
                let node = node_at(c, value, &path).map(|n| c.get(n));
                for key in unexpected {
                    problems.push((unknown_key_problem(node, &path, key), Tag::Unknown));
                }
                continue;
            }
            ValidationErrorKind::Enum { options } => {
                let valid: Vec<String> = options
                    .as_array()
                    .map(|a| a.iter().map(|v| compact(v, 60)).collect())
                    .unwrap_or_default();
                let best = closest_enum(received_v, options.as_array().map_or(&[][..], |a| a));
                Problem {
                    path: path.clone(),
                    expected: format!("one of {}", list(&valid)),
                    received: compact(received_v, 60),
                    valid_values: Some(valid),
                    fix: set_fix(&path, &best),
                }
            }
            _ => {
                let node = node_at(c, value, &path);
                let expected = node.map_or_else(|| err.to_string(), |n| describe(c, n));
                let ex = node.map_or(Value::Null, |n| example::example_for(c, n));
                Problem {
                    fix: set_fix(&path, &ex),
                    path,
                    expected,
                    received: compact(received_v, 60),
                    valid_values: None,
                }
            }
        };
        problems.push((p, tag));
    }
}

/// What kind of problem a [`Problem`] is, for pairing and for fixes from the corrected example.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tag {
    /// A required field is missing.
    Required,
    /// A key the schema does not list.
    Unknown,
    /// A missing field that was paired with an unknown key the model sent instead.
    Renamed,
    /// Anything else (wrong type, enum, bounds, …).
    Other,
}

/// Builds the [`DecodeError::Invalid`] for a value that failed: every problem, missing fields
/// paired with the unknown keys sent instead of them (the fix is a rename), and fixes taken from
/// a corrected copy of the arguments.
#[cold]
pub(crate) fn invalid(
    c: &Compiled,
    validator: &jsonschema::Validator,
    value: &Value,
    pre: Vec<Problem>,
    coercions: &[super::Coercion],
) -> DecodeError {
    let mut tagged: Vec<(Problem, Tag)> = pre
        .into_iter()
        .map(|p| {
            let t = if p.received.starts_with("the unknown field") {
                Tag::Unknown
            } else {
                Tag::Other
            };
            (p, t)
        })
        .collect();
    collect_validation(c, validator, value, &mut tagged);
    let mut seen = std::collections::HashSet::new();
    tagged.retain(|(p, _)| seen.insert((p.path.clone(), p.expected.clone())));

    // Keys the model sent that are not fields: dropped by coercion, or rejected above.
    let mut strays: Vec<(String, Value, Option<usize>)> = coercions
        .iter()
        .filter(|co| co.kind == super::CoercionKind::UnknownKeyDropped)
        .map(|co| (co.path.clone(), co.original.clone(), None))
        .collect();
    for (i, (p, t)) in tagged.iter().enumerate() {
        if *t == Tag::Unknown {
            let v = value.pointer(&p.path).cloned().unwrap_or(Value::Null);
            strays.push((p.path.clone(), v, Some(i)));
        }
    }
    let mut seed = value.clone();
    let mut remove = Vec::new();
    let mut used = vec![false; strays.len()];
    for i in 0..tagged.len() {
        if tagged[i].1 != Tag::Required {
            continue;
        }
        let (parent, name) = split_last(&tagged[i].0.path);
        let missing_here = tagged
            .iter()
            .filter(|(p, t)| *t == Tag::Required && split_last(&p.path).0 == parent)
            .count();
        let cands: Vec<usize> = (0..strays.len())
            .filter(|&j| !used[j] && split_last(&strays[j].0).0 == parent)
            .collect();
        let pick = if cands.len() == 1 && missing_here == 1 {
            Some(cands[0])
        } else {
            cands
                .iter()
                .copied()
                .map(|j| {
                    let key = split_last(&strays[j].0).1;
                    let sim = strsim::normalized_damerau_levenshtein(
                        &super::coerce::fold(&key),
                        &super::coerce::fold(&name),
                    );
                    (j, sim)
                })
                .filter(|&(_, sim)| sim >= 0.5)
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(j, _)| j)
        };
        let Some(j) = pick else { continue };
        used[j] = true;
        let from = split_last(&strays[j].0).1;
        let p = &mut tagged[i].0;
        p.received = format!("nothing (you sent \"{from}\" instead)");
        p.fix = format!("rename \"{from}\" to \"{name}\"");
        tagged[i].1 = Tag::Renamed;
        if let Some(k) = strays[j].2 {
            remove.push(k);
        }
        let target = if parent.is_empty() {
            Some(&mut seed)
        } else {
            seed.pointer_mut(&parent)
        };
        if let Some(Value::Object(o)) = target {
            o.shift_remove(&from);
            o.insert(name, strays[j].1.clone());
        }
    }
    let mut idx = 0;
    tagged.retain(|_| {
        idx += 1;
        !remove.contains(&(idx - 1))
    });
    let example = example::corrected(c, validator, &seed);
    if let Some(ex) = &example {
        for (p, t) in &mut tagged {
            let Some(v) = ex.pointer(&p.path) else {
                continue;
            };
            match t {
                Tag::Required => {
                    let (_, name) = split_last(&p.path);
                    p.fix = format!("add \"{name}\": {}", compact(v, 80));
                }
                Tag::Other => p.fix = set_fix(&p.path, v),
                Tag::Renamed | Tag::Unknown => {}
            }
        }
    }
    DecodeError::Invalid {
        problems: tagged.into_iter().map(|(p, _)| p).collect(),
        example: example.map(Box::new),
    }
}

/// Splits a JSON Pointer into its parent pointer and its last segment (unescaped).
fn split_last(p: &str) -> (String, String) {
    match p.rsplit_once('/') {
        Some((parent, last)) => (
            parent.to_owned(),
            last.replace("~1", "/").replace("~0", "~"),
        ),
        None => (String::new(), p.to_owned()),
    }
}

/// The problem for a key the schema does not list (with a did-you-mean when one is close).
pub(crate) fn unknown_key_problem(node: Option<&Node>, obj_path: &str, key: &str) -> Problem {
    let fields: Vec<String> = node.map_or_else(Vec::new, |n| {
        n.known_keys.iter().map(|k| format!("\"{k}\"")).collect()
    });
    let mut path = obj_path.to_owned();
    path.push('/');
    super::parse::push_escaped(&mut path, key);
    let suggestion = node.and_then(|n| super::coerce::did_you_mean(key, n));
    let fix = match suggestion {
        Some(s) => format!("rename \"{key}\" to \"{s}\""),
        None => format!("remove \"{key}\""),
    };
    Problem {
        path,
        expected: if fields.is_empty() {
            "no such field".into()
        } else {
            format!("only the fields {}", list(&fields))
        },
        received: format!("the unknown field \"{key}\""),
        valid_values: Some(fields),
        fix,
    }
}

/// Joins at most 12 items (a long enum must not flood a small model's context).
fn list(items: &[String]) -> String {
    const SHOWN: usize = 12;
    if items.len() <= SHOWN {
        items.join(", ")
    } else {
        format!(
            "{}, … ({} more)",
            items[..SHOWN].join(", "),
            items.len() - SHOWN
        )
    }
}

fn set_fix(path: &str, v: &Value) -> String {
    match path.rsplit_once('/') {
        Some((_, last)) if !last.is_empty() && !last.bytes().all(|b| b.is_ascii_digit()) => {
            format!(
                "\"{}\": {}",
                last.replace("~1", "/").replace("~0", "~"),
                compact(v, 80)
            )
        }
        Some(_) => format!("use {}", compact(v, 80)),
        None => format!("send {}", compact(v, 120)),
    }
}

/// The enum option closest to what was received (by normalised edit distance).
pub(crate) fn closest_enum(received: &Value, options: &[Value]) -> Value {
    let r = match received {
        Value::String(s) => s.to_lowercase(),
        other => other.to_string(),
    };
    options
        .iter()
        .max_by(|a, b| {
            let sa = a.as_str().map_or_else(|| a.to_string(), str::to_lowercase);
            let sb = b.as_str().map_or_else(|| b.to_string(), str::to_lowercase);
            strsim::normalized_damerau_levenshtein(&r, &sa)
                .total_cmp(&strsim::normalized_damerau_levenshtein(&r, &sb))
                // Ties go to the earlier option.
                .then(std::cmp::Ordering::Greater)
        })
        .cloned()
        .unwrap_or(Value::Null)
}

/// The schema node for the value at `pointer` in `value`, following properties, items and the
/// branch of an `anyOf` that fits.
pub(crate) fn node_at(c: &Compiled, value: &Value, pointer: &str) -> Option<NodeId> {
    let mut id = c.resolve(ROOT);
    let mut v = Some(value);
    if pointer.is_empty() {
        return Some(id);
    }
    for raw_seg in pointer.split('/').skip(1) {
        let seg = raw_seg.replace("~1", "/").replace("~0", "~");
        id = step(c, id, &seg, 0)?;
        v = v.and_then(|v| match v {
            Value::Object(o) => o.get(&seg),
            Value::Array(a) => seg.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => None,
        });
    }
    Some(id)
}

fn step(c: &Compiled, id: NodeId, seg: &str, depth: usize) -> Option<NodeId> {
    let n = c.get(id);
    if depth > 16 {
        return None;
    }
    if let Some(p) = n.prop(seg) {
        return Some(c.resolve(p));
    }
    if let Some(items) = seg.parse::<usize>().ok().and_then(|i| n.item_at(i)) {
        return Some(c.resolve(items));
    }
    if let Additional::Schema(s) = n.additional {
        return Some(c.resolve(s));
    }
    n.any_of
        .iter()
        .chain(n.all_of.iter())
        .find_map(|&b| step(c, c.resolve(b), seg, depth + 1))
}

/// Says in words what a node expects, e.g. `an integer from 1 to 14` or `one of "a", "b"`.
pub(crate) fn describe(c: &Compiled, id: NodeId) -> String {
    describe_at(c, id, 0)
}

fn describe_at(c: &Compiled, id: NodeId, depth: usize) -> String {
    let n = c.get(id);
    if depth > 4 {
        return "a value".to_owned();
    }
    if let Some(e) = &n.enum_values {
        let vals: Vec<String> = e.iter().map(|v| compact(v, 40)).collect();
        return format!("one of {}", list(&vals));
    }
    if let Some(k) = &n.const_value {
        return format!("exactly {}", compact(k, 60));
    }
    let mut types = n.types;
    if types == super::node::T_ANY && !n.any_of.is_empty() {
        let parts: Vec<String> = n
            .any_of
            .iter()
            .map(|&b| describe_at(c, b, depth + 1))
            .filter(|s| s != "null")
            .collect();
        let nullable = n.any_of.iter().any(|&b| c.get(b).types & T_NULL != 0);
        let mut s = parts.join(" or ");
        if nullable {
            s.push_str(" (or null)");
        }
        return s;
    }
    if types == super::node::T_ANY && !n.all_of.is_empty() {
        // Every part holds: objects are described by the fields of all of them.
        if !n.known_keys.is_empty()
            && n.all_of
                .iter()
                .all(|&p| c.get(p).types & T_OBJ != 0 || !c.get(p).props.is_empty())
        {
            return format!("an object with fields {}", n.known_keys.join(", "));
        }
        return describe_at(c, n.all_of[0], depth + 1);
    }
    let nullable = types & T_NULL != 0 && types != T_NULL;
    types &= !T_NULL;
    let mut s = match types {
        T_NULL | 0 => "null".to_owned(),
        T_BOOL => "true or false".to_owned(),
        T_INT => format!("an integer{}", bounds(n)),
        x if x == T_NUM | T_INT => format!("a number{}", bounds(n)),
        T_STR => {
            let mut s = "a string".to_owned();
            if let Some(f) = &n.format {
                let _ = write!(s, " in {f} format");
            }
            if let Some(p) = &n.pattern {
                let _ = write!(s, " matching {}", p.as_str());
            }
            match (n.min_length, n.max_length) {
                (Some(a), Some(b)) => {
                    let _ = write!(s, " of {a} to {b} characters");
                }
                (Some(a), None) => {
                    let _ = write!(s, " of at least {a} characters");
                }
                (None, Some(b)) => {
                    let _ = write!(s, " of at most {b} characters");
                }
                (None, None) => {}
            }
            s
        }
        T_ARR => {
            let mut s = "an array".to_owned();
            if let Some(i) = n.items {
                let _ = write!(s, " of {}", plural(&describe_at(c, i, depth + 1)));
            }
            s
        }
        T_OBJ => {
            if n.known_keys.is_empty() {
                "an object".to_owned()
            } else {
                // The fields of the object's own schema and of every part of it (`allOf`, …).
                format!("an object with fields {}", n.known_keys.join(", "))
            }
        }
        super::node::T_ANY => "any value".to_owned(),
        _ => {
            let mut names = Vec::new();
            for (bit, name) in [
                (T_BOOL, "boolean"),
                (T_INT, "integer"),
                (T_NUM, "number"),
                (T_STR, "string"),
                (T_ARR, "array"),
                (T_OBJ, "object"),
            ] {
                if types & bit != 0 && !(bit == T_INT && types & T_NUM != 0) {
                    names.push(name);
                }
            }
            format!("a {}", names.join(" or "))
        }
    };
    if nullable {
        s.push_str(" (or null)");
    }
    s
}

fn plural(s: &str) -> String {
    s.strip_prefix("an ")
        .or_else(|| s.strip_prefix("a "))
        .map_or_else(|| s.to_owned(), |rest| format!("{rest}s"))
}

fn bounds(n: &super::node::Node) -> String {
    let lo = n
        .minimum
        .map(|a| ("from", a.f64()))
        .or(n.exclusive_minimum.map(|a| ("above", a.f64())));
    let hi = n
        .maximum
        .map(|b| ("to", b.f64()))
        .or(n.exclusive_maximum.map(|b| ("below", b.f64())));
    match (lo, hi) {
        (Some(("from", a)), Some(("to", b))) => format!(" from {} to {}", num(a), num(b)),
        (Some((w1, a)), Some((w2, b))) => format!(" {w1} {} and {w2} {}", num(a), num(b)),
        (Some(("from", a)), None) => format!(" ≥ {}", num(a)),
        (Some((_, a)), None) => format!(" > {}", num(a)),
        (None, Some(("to", b))) => format!(" ≤ {}", num(b)),
        (None, Some((_, b))) => format!(" < {}", num(b)),
        (None, None) => String::new(),
    }
}

fn num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        #[allow(clippy::cast_possible_truncation)]
        let i = x as i64;
        i.to_string()
    } else {
        x.to_string()
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: expected {}, received {}. Fix: {}",
            if self.path.is_empty() {
                "(arguments)"
            } else {
                &self.path
            },
            self.expected,
            self.received,
            self.fix
        )
    }
}
