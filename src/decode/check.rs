//! A structural check of a value against the compiled schema, without allocating: the fast path's
//! "nothing to coerce" test and the way coercion ranks `anyOf` branches.

use serde_json::Value;

use super::node::{Additional, Compiled, Node, NodeId, Num, T_ANY, type_of};

/// Deepest value the check and the coercion walk descend into (serde_json's own parse limit).
pub(crate) const MAX_DEPTH: usize = 128;

/// True when `v` fits node `id` exactly as it is: right types, enum, bounds, lengths, required
/// keys present, and no key the schema does not list (those would be dropped or rejected).
/// Keywords marked opaque are not checked here.
pub(crate) fn conforms(c: &Compiled, v: &Value, id: NodeId, depth: usize) -> bool {
    conforms_in(c, v, id, depth, false)
}

/// [`conforms`] for node `id` as one part of the schema of `v` (an `allOf` part, an
/// `anyOf`/`oneOf` branch): keys it does not declare are judged by the whole, not by the part.
pub(crate) fn conforms_part(c: &Compiled, v: &Value, id: NodeId, depth: usize) -> bool {
    conforms_in(c, v, id, depth, true)
}

/// [`conforms`] (`part` false) or [`conforms_part`] (`part` true).
pub(crate) fn conforms_in(c: &Compiled, v: &Value, id: NodeId, depth: usize, part: bool) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    let n = c.get(id);
    if n.never {
        return false;
    }
    if n.types != T_ANY && n.types & type_of(v) == 0 {
        return false;
    }
    if let Some(e) = &n.enum_values
        && !e.iter().any(|x| same_value(x, v))
    {
        return false;
    }
    if let Some(k) = &n.const_value
        && !same_value(k, v)
    {
        return false;
    }
    if !n.any_of.is_empty() {
        let mut fitting = n
            .any_of
            .iter()
            .filter(|&&b| conforms_part(c, v, b, depth + 1));
        let first = fitting.next().is_some();
        if !first || (n.one_of && fitting.next().is_some()) {
            return false;
        }
    }
    if !n.all_of.iter().all(|&p| conforms_part(c, v, p, depth + 1)) {
        return false;
    }
    match v {
        Value::Number(num) => Num::of(num).is_none_or(|x| within_bounds(n, x)),
        Value::String(s) => {
            if n.min_length.is_some() || n.max_length.is_some() {
                let len = s.chars().count() as u64;
                if n.min_length.is_some_and(|m| len < m) || n.max_length.is_some_and(|m| len > m) {
                    return false;
                }
            }
            n.pattern.as_ref().is_none_or(|p| p.is_match(s))
        }
        Value::Array(a) => {
            let len = a.len() as u64;
            if n.min_items.is_some_and(|m| len < m) || n.max_items.is_some_and(|m| len > m) {
                return false;
            }
            if n.unique_items && !all_unique(a) {
                return false;
            }
            a.iter()
                .enumerate()
                .all(|(i, x)| n.item_at(i).is_none_or(|it| conforms(c, x, it, depth + 1)))
        }
        Value::Object(o) => {
            if !n.required.iter().all(|r| o.contains_key(r)) {
                return false;
            }
            // A missing field with a default is filled in by coercion, so it is not "as is".
            if n.has_defaults
                && n.props
                    .iter()
                    .any(|(k, p)| !o.contains_key(k) && c.get(*p).default.is_some())
            {
                return false;
            }
            for (k, x) in o {
                match n.prop(k) {
                    Some(p) => {
                        if !conforms(c, x, p, depth + 1) {
                            return false;
                        }
                    }
                    // `additionalProperties` applies to every key outside this node's own
                    // `properties`; a key no schema of the object declares is unknown to the tool
                    // (a part leaves that to the whole).
                    None => match n.additional {
                        Additional::Schema(s) if !conforms(c, x, s, depth + 1) => return false,
                        Additional::Denied => return false,
                        _ if !part && n.keys_closed && !n.known_keys.contains(k) => return false,
                        _ => {}
                    },
                }
            }
            true
        }
        Value::Null | Value::Bool(_) => true,
    }
}

/// True when `x` is within the node's bounds and a multiple of its `multipleOf`, compared
/// exactly as the validator compares them.
pub(crate) fn within_bounds(n: &Node, x: Num) -> bool {
    !(n.minimum.is_some_and(|m| x.lt(m))
        || n.maximum.is_some_and(|m| x.gt(m))
        || n.exclusive_minimum.is_some_and(|m| !x.gt(m))
        || n.exclusive_maximum.is_some_and(|m| !x.lt(m))
        || n.multiple_of.is_some_and(|m| !x.is_multiple_of(m)))
}

/// JSON Schema's equality: numbers by value (`1` equals `1.0`), objects whatever their key order.
pub(crate) fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x == y
                || match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                    (Some(p), Some(q), ..) => p == q,
                    (_, _, Some(p), Some(q)) => p == q,
                    _ => x.as_f64().is_some_and(|p| y.as_f64() == Some(p)),
                }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, p)| y.get(k).is_some_and(|q| same_value(p, q)))
        }
        _ => a == b,
    }
}

/// `uniqueItems`: no two elements equal ([`same_value`]). Linear on average: elements are
/// hashed by a canonical text (numbers by value, object keys sorted).
fn all_unique(a: &[Value]) -> bool {
    if a.len() <= 16 {
        return a
            .iter()
            .enumerate()
            .all(|(i, x)| !a[..i].iter().any(|y| same_value(x, y)));
    }
    let mut seen = std::collections::HashSet::with_capacity(a.len());
    a.iter().all(|x| {
        let mut key = String::new();
        canonical(x, &mut key);
        seen.insert(key)
    })
}

/// A text that is equal for two values exactly when [`same_value`] says they are.
fn canonical(v: &Value, out: &mut String) {
    use std::fmt::Write as _;
    match v {
        Value::Number(n) => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            if let Some(i) = n.as_i64() {
                let _ = write!(out, "{i}");
            } else if let Some(u) = n.as_u64() {
                let _ = write!(out, "{u}");
            } else if f.fract() == 0.0 && f.abs() < 9.2e18 {
                #[allow(clippy::cast_possible_truncation)]
                let _ = write!(out, "{}", f as i64);
            } else {
                let _ = write!(out, "{f:?}");
            }
        }
        Value::Array(a) => {
            out.push('[');
            for x in a {
                canonical(x, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(o) => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort();
            out.push('{');
            for k in keys {
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                canonical(&o[k], out);
                out.push(',');
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}
