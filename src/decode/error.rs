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
    #[error("{}", render(problems, example.as_deref(), ignored))]
    Invalid {
        /// Every problem found (not just the first).
        problems: Vec<Problem>,
        /// The received arguments with every fix applied, when every fix could be derived from
        /// what was sent and the result is valid (never with an invented value).
        example: Option<Box<Value>>,
        /// JSON Pointers of keys the model sent that are not parameters and were dropped (the
        /// message names them, so the model knows their values were not used).
        ignored: Vec<String>,
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
            ignored: Vec::new(),
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

/// Problems shown in a message; the rest are counted (a small model's context is small).
const SHOWN_PROBLEMS: usize = 8;
/// How the line with the arguments to send starts (the agent recognises a decode message by it
/// and adds no other example).
pub(crate) const CORRECTED_LINE: &str = "\nCorrected arguments: ";
/// The last line of a decode message when no corrected arguments can be derived.
pub(crate) const KEEP_LINE: &str = "\nKeep every other field as you sent it.";

/// The longest "Corrected arguments" line shown; a longer one is left out, never cut (a cut
/// example copied back would be a truncated call).
const MAX_EXAMPLE: usize = 400;

/// Renders the corrective message: a header, one line per problem (at most
/// [`SHOWN_PROBLEMS`]), the keys that were ignored, and the whole corrected call to copy when
/// there is one and it is short; else a line saying to keep the other fields as sent.
fn render(problems: &[Problem], example: Option<&Value>, ignored: &[String]) -> String {
    let mut s = String::new();
    let n = problems.len();
    let _ = write!(
        s,
        "the arguments do not fit the tool's parameters ({n} problem{}). Fix {} and call the tool again:",
        if n == 1 { "" } else { "s" },
        if n == 1 { "it" } else { "all of them" }
    );
    for p in problems.iter().take(SHOWN_PROBLEMS) {
        let _ = write!(s, "\n- {p}");
    }
    if n > SHOWN_PROBLEMS {
        let _ = write!(
            s,
            "\n- and {} more problem{} like these",
            n - SHOWN_PROBLEMS,
            if n - SHOWN_PROBLEMS == 1 { "" } else { "s" }
        );
    }
    if !ignored.is_empty() {
        let names: Vec<String> = ignored
            .iter()
            .map(|p| format!("\"{}\"", split_last(p).1))
            .collect();
        let _ = write!(
            s,
            "\nNot parameters of this tool, so not used: {}",
            list(&names)
        );
    }
    let whole = example
        .map(|ex| serde_json::to_string(ex).unwrap_or_default())
        .filter(|ex| ex.len() <= MAX_EXAMPLE);
    match whole {
        Some(ex) => {
            let _ = write!(s, "{CORRECTED_LINE}{ex}");
        }
        None => s.push_str(KEEP_LINE),
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

/// Turns every validation error into a [`Problem`], appended to `problems`. `sent` gives the
/// value the model sent at a path a coercion changed (what the message calls received).
fn collect_validation(
    c: &Compiled,
    validator: &jsonschema::Validator,
    value: &Value,
    sent: &dyn Fn(&str) -> Option<Value>,
    problems: &mut Vec<(Problem, Tag)>,
) {
    for err in validator.iter_errors(value) {
        let mut tag = Tag::Other;
        let path = err.instance_path().as_str().to_owned();
        let received_v = sent(&path).unwrap_or_else(|| err.instance().clone().into_owned());
        let p = match err.kind() {
            ValidationErrorKind::Required { property } => {
                let name = property.as_str().unwrap_or_default();
                tag = Tag::Required;
                let field_node =
                    node_at(c, value, &path).and_then(|n| step(c, c.resolve(n), name, 0));
                let what = field_node.map_or(String::new(), |n| format!(" ({})", describe(c, n)));
                let mut fp = path.clone();
                fp.push('/');
                super::parse::push_escaped(&mut fp, name);
                Problem {
                    path: fp,
                    expected: format!("the required field \"{name}\"{what}"),
                    received: "nothing".into(),
                    valid_values: None,
                    fix: format!("add \"{name}\" with the value you mean"),
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
                let close =
                    example::close_enum(&received_v, options.as_array().map_or(&[][..], |a| a));
                Problem {
                    fix: close.and_then(|v| set_fix(&path, &v)).unwrap_or_else(|| {
                        if valid.is_empty() {
                            format!("leave {} out", target(&path))
                        } else {
                            format!("choose {} from the values listed", target(&path))
                        }
                    }),
                    path,
                    expected: one_of(&valid),
                    received: compact(&received_v, 60),
                    valid_values: Some(valid),
                }
            }
            ValidationErrorKind::Not { schema } => {
                let expected = format!("a value that does not match {}", compact(schema, 80));
                Problem {
                    fix: format!("send {} as {expected}", target(&path)),
                    path,
                    expected,
                    received: compact(&received_v, 60),
                    valid_values: None,
                }
            }
            _ => {
                let node = node_at(c, value, &path);
                let expected = node.map_or_else(|| err.to_string(), |n| describe(c, n));
                // The validator rejected the value: one "fixed" into itself (a check the
                // derivation does not make, such as a format) is no fix.
                let derived = node
                    .and_then(|n| example::derive(c, n, &received_v))
                    .filter(|d| !super::check::same_value(d, &received_v));
                Problem {
                    fix: derived
                        .and_then(|v| set_fix(&path, &v))
                        .unwrap_or_else(|| format!("send {} as {expected}", target(&path))),
                    path,
                    expected,
                    received: compact(&received_v, 60),
                    valid_values: None,
                }
            }
        };
        problems.push((p, tag));
    }
}

/// How a fix names the value at `path`: `"days"`, `item 0`, or `the arguments`.
fn target(path: &str) -> String {
    match path.rsplit_once('/') {
        Some((_, last)) if !last.is_empty() && !last.bytes().all(|b| b.is_ascii_digit()) => {
            format!("\"{}\"", last.replace("~1", "/").replace("~0", "~"))
        }
        Some((_, last)) => format!("item {last}"),
        None => "the arguments".into(),
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
/// paired with the unknown keys sent instead of them (the fix is a rename), fixes derived from
/// what was sent, and a corrected copy of the arguments when every fix could be derived.
#[cold]
pub(crate) fn invalid(
    c: &Compiled,
    validator: &jsonschema::Validator,
    value: &Value,
    pre: Vec<Problem>,
    coercions: &[super::Coercion],
) -> DecodeError {
    use super::CoercionKind as K;
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
    // What the model sent where a coercion changed the value (the first change at a path holds
    // the original; key renames and dropped keys are not values at that path).
    let sent = |path: &str| -> Option<Value> {
        coercions
            .iter()
            .find(|co| {
                co.path == path
                    && !matches!(
                        co.kind,
                        K::KeyCase
                            | K::KeyFolded
                            | K::KeyMisspelled
                            | K::UnknownKeyDropped
                            | K::DuplicateKey
                            | K::MissingToDefault
                    )
            })
            .map(|co| co.original.clone())
    };
    collect_validation(c, validator, value, &sent, &mut tagged);
    let mut seen = std::collections::HashSet::new();
    tagged.retain(|(p, _)| seen.insert((p.path.clone(), p.expected.clone())));

    // Keys the model sent that are not fields: dropped by coercion, or rejected above.
    let mut strays: Vec<(String, Value, Option<usize>)> = coercions
        .iter()
        .filter(|co| co.kind == K::UnknownKeyDropped)
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
    // The missing fields (problem index, parent pointer, name, schema node), for pairing.
    let missing: Vec<(usize, String, String, Option<NodeId>)> = tagged
        .iter()
        .enumerate()
        .filter(|(_, (_, t))| *t == Tag::Required)
        .map(|(i, (p, _))| {
            let (parent, name) = split_last(&p.path);
            let node = node_at(c, value, &p.path);
            (i, parent, name, node)
        })
        .collect();
    let fits = |j: usize, node: Option<NodeId>| {
        node.is_some_and(|n| super::check::conforms(c, &strays[j].1, n, 0))
    };
    for (i, parent, name, node) in &missing {
        let cands: Vec<usize> = (0..strays.len())
            .filter(|&j| !used[j] && split_last(&strays[j].0).0 == *parent)
            .collect();
        // A stray key with a similar name, else the one stray whose value fits this field and
        // no other missing one: a rename is suggested only where it makes sense.
        let similar = cands
            .iter()
            .copied()
            .map(|j| {
                let key = split_last(&strays[j].0).1;
                let sim = strsim::normalized_damerau_levenshtein(
                    &super::coerce::fold(&key),
                    &super::coerce::fold(name),
                );
                (j, sim)
            })
            .filter(|&(_, sim)| sim >= 0.5)
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(j, _)| j);
        let by_type = || {
            let fitting: Vec<usize> = cands.iter().copied().filter(|&j| fits(j, *node)).collect();
            match fitting[..] {
                [j] if missing
                    .iter()
                    .filter(|m| m.1 == *parent && m.0 != *i)
                    .all(|m| !fits(j, m.3)) =>
                {
                    Some(j)
                }
                _ => None,
            }
        };
        let Some(j) = similar.or_else(by_type) else {
            continue;
        };
        used[j] = true;
        let from = split_last(&strays[j].0).1;
        let p = &mut tagged[*i].0;
        p.received = format!("nothing (you sent \"{from}\" instead)");
        p.fix = format!("rename \"{from}\" to \"{name}\"");
        tagged[*i].1 = Tag::Renamed;
        if let Some(k) = strays[j].2 {
            remove.push(k);
        }
        let target = if parent.is_empty() {
            Some(&mut seed)
        } else {
            seed.pointer_mut(parent)
        };
        if let Some(Value::Object(o)) = target {
            o.shift_remove(&from);
            o.insert(name.clone(), strays[j].1.clone());
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
            if *t == Tag::Other
                && let Some(f) = set_fix(&p.path, v)
            {
                p.fix = f;
            }
        }
    }
    // Dropped keys no rename used: named, so the model knows their values were not used.
    let ignored = strays
        .iter()
        .zip(&used)
        .filter(|((_, _, rejected), used)| rejected.is_none() && !**used)
        .map(|((path, ..), _)| path.clone())
        .collect();
    DecodeError::Invalid {
        problems: tagged.into_iter().map(|(p, _)| p).collect(),
        example: example.map(Box::new),
        ignored,
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

/// `one of "a", "b"`, or, for an empty `enum`, that nothing is allowed.
fn one_of(values: &[String]) -> String {
    if values.is_empty() {
        "no value at all (the tool's schema allows none)".to_owned()
    } else {
        format!("one of {}", list(values))
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

/// The fix that sets the value at `path` to `v`, written out whole (`"days": 14`); `None` when
/// it is too long to write out (it is never cut: a cut value copied back would be wrong).
fn set_fix(path: &str, v: &Value) -> Option<String> {
    let json = serde_json::to_string(v).ok().filter(|j| j.len() <= 120)?;
    Some(match path.rsplit_once('/') {
        Some((_, last)) if !last.is_empty() && !last.bytes().all(|b| b.is_ascii_digit()) => {
            format!("\"{}\": {json}", last.replace("~1", "/").replace("~0", "~"))
        }
        Some(_) => format!("use {json}"),
        None => format!("send {json}"),
    })
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
        return one_of(&vals);
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
    if types == super::node::T_ANY {
        return "any value".to_owned();
    }
    let nullable = types & T_NULL != 0 && types != T_NULL;
    types &= !T_NULL;
    let mut s = match types {
        T_NULL | 0 => "null".to_owned(),
        T_BOOL => "true or false".to_owned(),
        T_INT => format!("an integer{}{}", bounds(n), multiple(n)),
        x if x == T_NUM | T_INT => format!("a number{}{}", bounds(n), multiple(n)),
        T_STR => {
            let mut s = "a string".to_owned();
            if let Some(f) = &n.format {
                let _ = write!(s, " in {f} format");
                if let Some(shape) = format_shape(f) {
                    let _ = write!(s, " ({shape})");
                }
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
            match (n.min_items, n.max_items) {
                (Some(a), Some(b)) if a == b => {
                    let _ = write!(s, " with exactly {a} item{}", if a == 1 { "" } else { "s" });
                }
                (Some(a), Some(b)) => {
                    let _ = write!(s, " with {a} to {b} items");
                }
                (Some(a), None) if a > 0 => {
                    let _ = write!(
                        s,
                        " with at least {a} item{}",
                        if a == 1 { "" } else { "s" }
                    );
                }
                (None, Some(b)) => {
                    let _ = write!(s, " with at most {b} item{}", if b == 1 { "" } else { "s" });
                }
                _ => {}
            }
            if n.unique_items {
                s.push_str(", no item repeated");
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

/// How a string of a common `format` is written, in words a model can follow but not copy as
/// a value (a sample date would be sent as the real one).
fn format_shape(f: &str) -> Option<&'static str> {
    Some(match f {
        "date" => "YYYY-MM-DD",
        "date-time" => "YYYY-MM-DDThh:mm:ss with a time zone such as Z",
        "time" => "hh:mm:ss with a time zone such as Z",
        "email" => "name@domain",
        "uri" | "url" => "a full address with its scheme, such as https://",
        "uuid" => "32 hex digits in groups of 8-4-4-4-12",
        "ipv4" => "four numbers from 0 to 255 joined by dots",
        _ => return None,
    })
}

fn plural(s: &str) -> String {
    s.strip_prefix("an ")
        .or_else(|| s.strip_prefix("a "))
        .map_or_else(|| s.to_owned(), |rest| format!("{rest}s"))
}

fn bounds(n: &super::node::Node) -> String {
    use super::node::Num;
    // The whole 64-bit range (schemars' `int64`/`uint64` hints) bounds nothing a model sends.
    let real = |b: &Num| !matches!(b, Num::I(i64::MIN | i64::MAX) | Num::U(u64::MAX));
    let lo = n
        .minimum
        .filter(real)
        .map(|a| ("from", a))
        .or(n.exclusive_minimum.map(|a| ("above", a)));
    let hi = n
        .maximum
        .filter(real)
        .map(|b| ("to", b))
        .or(n.exclusive_maximum.map(|b| ("below", b)));
    match (lo, hi) {
        (Some(("from", a)), Some(("to", b))) => format!(" from {} to {}", show(a), show(b)),
        (Some((w1, a)), Some((w2, b))) => format!(" {w1} {} and {w2} {}", show(a), show(b)),
        (Some(("from", a)), None) => format!(" ≥ {}", show(a)),
        (Some((_, a)), None) => format!(" > {}", show(a)),
        (None, Some(("to", b))) => format!(" ≤ {}", show(b)),
        (None, Some((_, b))) => format!(" < {}", show(b)),
        (None, None) => String::new(),
    }
}

/// A bound as written: integers exactly, floats in their shortest form.
fn show(x: super::node::Num) -> String {
    use super::node::Num;
    match x {
        Num::I(i) => i.to_string(),
        Num::U(u) => u.to_string(),
        Num::F(f) => num(f),
    }
}

/// ` that is a multiple of 3` for `multipleOf`, else nothing.
fn multiple(n: &super::node::Node) -> String {
    n.multiple_of.map_or(String::new(), |m| {
        format!(" that is a multiple of {}", show(m))
    })
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
                "(arguments)".to_owned()
            } else {
                format!("field `{}`", crate::tools::field_label(&self.path))
            },
            self.expected,
            self.received,
            self.fix
        )
    }
}
