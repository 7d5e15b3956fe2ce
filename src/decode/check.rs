//! A structural check of a value against the compiled schema, without allocating: the fast path's
//! "nothing to coerce" test and the way coercion ranks `anyOf` branches.

use serde_json::Value;

use super::node::{Additional, Compiled, NodeId, T_ANY, type_of};

/// Deepest value the check and the coercion walk descend into (serde_json's own parse limit).
pub(crate) const MAX_DEPTH: usize = 128;

/// True when `v` fits node `id` exactly as it is: right types, enum, bounds, lengths, required
/// keys present, and no key the schema does not list (those would be dropped or rejected).
/// Keywords marked opaque are not checked here.
pub(crate) fn conforms(c: &Compiled, v: &Value, id: NodeId, depth: usize) -> bool {
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
        && !e.contains(v)
    {
        return false;
    }
    if let Some(k) = &n.const_value
        && k != v
    {
        return false;
    }
    if !n.any_of.is_empty() {
        let mut fitting = n.any_of.iter().filter(|&&b| conforms(c, v, b, depth + 1));
        let first = fitting.next().is_some();
        if !first || (n.one_of && fitting.next().is_some()) {
            return false;
        }
    }
    if !n.all_of.iter().all(|&p| conforms(c, v, p, depth + 1)) {
        return false;
    }
    match v {
        Value::Number(num) => {
            let Some(x) = num.as_f64() else { return true };
            if n.minimum.is_some_and(|m| x < m)
                || n.maximum.is_some_and(|m| x > m)
                || n.exclusive_minimum.is_some_and(|m| x <= m)
                || n.exclusive_maximum.is_some_and(|m| x >= m)
            {
                return false;
            }
            if let Some(m) = n.multiple_of
                && m > 0.0
                && (x / m).fract() != 0.0
            {
                return false;
            }
            true
        }
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
            if n.unique_items {
                for (i, x) in a.iter().enumerate() {
                    if a[..i].contains(x) {
                        return false;
                    }
                }
            }
            match n.items {
                Some(it) => a.iter().all(|x| conforms(c, x, it, depth + 1)),
                None => true,
            }
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
            let closed = n.closed_keys();
            for (k, x) in o {
                match n.prop(k) {
                    Some(p) => {
                        if !conforms(c, x, p, depth + 1) {
                            return false;
                        }
                    }
                    None => match n.additional {
                        Additional::Schema(s) if !conforms(c, x, s, depth + 1) => return false,
                        Additional::Schema(_) => {}
                        _ if closed => return false,
                        _ => {}
                    },
                }
            }
            true
        }
        Value::Null | Value::Bool(_) => true,
    }
}
