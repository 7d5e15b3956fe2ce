//! Corrections for corrective messages, derived only from what the model sent: the nearest
//! valid number, the close enum value, `1` → `true`, the case a pattern wants. A value that cannot
//! be derived (a missing required field, a pattern no simple change satisfies, a word where a
//! number belongs) is never invented: a placeholder that validates would be copied by a small
//! model and run as a real call. The message then says what is needed instead.

use serde_json::{Number, Value};

use super::check::{MAX_DEPTH, conforms, conforms_in, same_value};
use super::coerce::{allows_null, parse_bool};
use super::node::{
    Additional, Compiled, Node, NodeId, Num, ROOT, T_ANY, T_BOOL, T_INT, T_NUM, T_STR, type_of,
};

/// An integer within the bounds: 1 when they allow it, else the bound nearest to it. Shared
/// with the chat templates' example calls.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn integer_within(
    minimum: Option<f64>,
    exclusive_minimum: Option<f64>,
    maximum: Option<f64>,
    exclusive_maximum: Option<f64>,
) -> i64 {
    let lo = minimum
        .map(|x| x.ceil() as i64)
        .or(exclusive_minimum.map(|x| x.floor() as i64 + 1));
    let hi = maximum
        .map(|x| x.floor() as i64)
        .or(exclusive_maximum.map(|x| x.ceil() as i64 - 1));
    match (lo, hi) {
        (Some(a), _) if a > 1 => a,
        (_, Some(b)) if b < 1 => b,
        _ => 1,
    }
}

/// A valid sample of a string `format` (`date`, `email`, `uuid`, …), `None` for other formats.
/// Shared with the chat templates' example calls.
pub(crate) fn format_sample(format: &str) -> Option<&'static str> {
    Some(match format {
        "date" => "2024-01-31",
        "date-time" => "2024-01-31T12:00:00Z",
        "time" => "12:00:00Z",
        "email" => "user@example.com",
        "uri" | "url" => "https://example.com",
        "uuid" => "123e4567-e89b-12d3-a456-426614174000",
        "ipv4" => "192.0.2.1",
        "ipv6" => "2001:db8::1",
        "hostname" => "example.com",
        _ => return None,
    })
}

/// `base` padded with `x` to `min` characters and cut to `max`.
pub(crate) fn fit_length(base: &str, min: Option<usize>, max: Option<usize>) -> String {
    let mut s = base.to_owned();
    if let Some(min) = min {
        while s.chars().count() < min {
            s.push('x');
        }
    }
    if let Some(max) = max
        && s.chars().count() > max
    {
        s = s.chars().take(max).collect();
    }
    s
}

/// `value` with every problem replaced by a value derived from what was sent, if every one can
/// be derived and the result validates; `None` otherwise.
pub(crate) fn corrected(
    c: &Compiled,
    validator: &jsonschema::Validator,
    value: &Value,
) -> Option<Value> {
    let mut v = value.clone();
    if !fix(c, &mut v, ROOT, 0, false) {
        return None;
    }
    order(c, &mut v, ROOT, 0);
    validator.is_valid(&v).then_some(v)
}

/// Changes `v` as little as possible until it fits node `id` (`part`: one part of the value's
/// schema, which leaves keys it does not declare to the whole). False when some value would
/// have to be invented.
fn fix(c: &Compiled, v: &mut Value, id: NodeId, depth: usize, part: bool) -> bool {
    if conforms_in(c, v, id, depth, part) {
        return true;
    }
    if depth > MAX_DEPTH {
        return false;
    }
    let n = c.get(id);
    if !n.any_of.is_empty() {
        let t = type_of(v);
        let branch = n
            .any_of
            .iter()
            .copied()
            .find(|&b| c.get(b).types & t != 0 && c.get(b).types != T_ANY)
            .or_else(|| n.any_of.iter().copied().find(|&b| !allows_null(c, b)))
            .or(n.any_of.first().copied());
        if let Some(b) = branch
            && !fix(c, v, b, depth + 1, true)
        {
            return false;
        }
        if !n.has_own_checks() {
            return true;
        }
    }
    for &p in &n.all_of {
        if !fix(c, v, p, depth + 1, true) {
            return false;
        }
    }
    let type_ok = n.types == T_ANY || n.types & type_of(v) != 0;
    let enum_ok = n
        .enum_values
        .as_ref()
        .is_none_or(|e| e.iter().any(|x| same_value(x, v)))
        && n.const_value.as_ref().is_none_or(|k| same_value(k, v));
    if !type_ok || !enum_ok {
        return replace(c, v, id);
    }
    match v {
        Value::Object(o) => {
            if !part && n.keys_closed {
                o.retain(|k, _| n.known_keys.contains(k));
            }
            for (k, p) in &n.props {
                match o.get_mut(k) {
                    // A null coercion did not replace has no value to derive from.
                    Some(x) if x.is_null() && !allows_null(c, *p) => return false,
                    Some(x) => {
                        let ok = fix(c, x, *p, depth + 1, false);
                        if !ok {
                            return false;
                        }
                    }
                    None if n.required.contains(k) => return false,
                    None => {}
                }
            }
            if let Additional::Schema(s) = n.additional {
                for (k, x) in o.iter_mut() {
                    if n.prop(k).is_none() && !fix(c, x, s, depth + 1, false) {
                        return false;
                    }
                }
            }
            true
        }
        Value::Array(a) => {
            for (i, x) in a.iter_mut().enumerate() {
                if let Some(items) = n.item_at(i)
                    && !fix(c, x, items, depth + 1, false)
                {
                    return false;
                }
            }
            if n.unique_items {
                // Repeats removed, first occurrence kept: nothing the model sent is lost.
                let mut kept: Vec<Value> = Vec::with_capacity(a.len());
                for x in a.drain(..) {
                    if !kept.iter().any(|y| same_value(y, &x)) {
                        kept.push(x);
                    }
                }
                *a = kept;
            }
            // Which items to leave out, or which to add, is the model's choice.
            let len = a.len() as u64;
            !(n.max_items.is_some_and(|m| len > m) || n.min_items.is_some_and(|m| len < m))
        }
        Value::Number(_) | Value::String(_) | Value::Bool(_) => replace(c, v, id),
        Value::Null => false,
    }
}

/// Replaces `v` by [`derive`]'s value; false when there is none.
fn replace(c: &Compiled, v: &mut Value, id: NodeId) -> bool {
    match derive(c, id, v) {
        Some(x) => {
            *v = x;
            true
        }
        None => false,
    }
}

/// The valid value for node `id` nearest to the value `v` the model sent: `v` itself when it
/// fits; a number clamped into the bounds, honouring exclusive bounds and `multipleOf` (`5.5` →
/// `6`, the leading number of `"100 m"` → `100`); `1`/`0` → `true`/`false`; the one enum value
/// close to the text (by edit distance, at least half the same); the case or trimming a
/// pattern wants (`"usd"` → `"USD"`). `None` when the value would have to be invented.
pub(crate) fn derive(c: &Compiled, id: NodeId, v: &Value) -> Option<Value> {
    let n = c.get(id);
    if conforms(c, v, id, 0) {
        return Some(v.clone());
    }
    if (v.is_array() || v.is_object()) && n.types & type_of(v) != 0 {
        // Repeats removed, items and fields fixed one by one.
        let mut x = v.clone();
        return (fix(c, &mut x, id, 0, false) && conforms(c, &x, id, 0)).then_some(x);
    }
    let out = if let Some(k) = &n.const_value {
        // The only valid value: the schema's, not an invention.
        k.clone()
    } else if let Some(e) = &n.enum_values {
        close_enum(v, e)?
    } else {
        let t = n.types;
        let x = match v {
            Value::Number(num) => num.as_f64(),
            Value::String(s) => leading_number(s),
            _ => None,
        };
        match v {
            _ if t & T_BOOL != 0 && !matches!(v, Value::String(_)) && x == Some(1.0) => {
                Value::Bool(true)
            }
            _ if t & T_BOOL != 0 && !matches!(v, Value::String(_)) && x == Some(0.0) => {
                Value::Bool(false)
            }
            Value::String(s) if t & T_BOOL != 0 && parse_bool(s.trim()).is_some() => {
                Value::Bool(parse_bool(s.trim())?)
            }
            Value::String(s) if t & T_STR != 0 => {
                let t = s.trim();
                [t.to_owned(), t.to_uppercase(), t.to_lowercase()]
                    .into_iter()
                    .map(Value::String)
                    .find(|x| conforms(c, x, id, 0))?
            }
            _ if t & (T_INT | T_NUM) != 0 => nearest_number(n, x?, t & T_NUM == 0)?,
            _ => return None,
        }
    };
    conforms(c, &out, id, 0).then_some(out)
}

/// The enum value close to `v` (a string at least half the same by edit distance, case
/// ignored; the earlier one on a tie), `None` when nothing is close.
pub(crate) fn close_enum(v: &Value, options: &[Value]) -> Option<Value> {
    let Value::String(s) = v else {
        return None;
    };
    let r = s.trim().to_lowercase();
    let mut best: Option<(f64, &Value)> = None;
    for o in options {
        let Some(x) = o.as_str() else { continue };
        let sim = strsim::normalized_damerau_levenshtein(&r, &x.to_lowercase());
        if sim >= 0.5 && best.is_none_or(|(b, _)| sim > b) {
            best = Some((sim, o));
        }
    }
    best.map(|(_, o)| o.clone())
}

/// The number a string starts with, when the rest is a unit or words (`"100 m"`, `"5.5"`,
/// `"3kg"`), not more digits in another notation (`"1,5"`, `"1.2.3"`).
fn leading_number(s: &str) -> Option<f64> {
    let t = s.trim();
    let b = t.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let digits = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i == digits {
        return None;
    }
    if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    let rest = &t[i..];
    if !(rest.is_empty() || rest.starts_with(|ch: char| ch.is_whitespace() || ch.is_alphabetic())) {
        return None;
    }
    t[..i].strip_prefix('+').unwrap_or(&t[..i]).parse().ok()
}

/// The valid number nearest to `x` under the node's bounds and `multipleOf` (an integer when
/// `int`); `None` when there is none, or when an exclusive bound of a non-integer number has no
/// nearest value.
#[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
fn nearest_number(n: &Node, x: f64, int: bool) -> Option<Value> {
    const SAFE: f64 = 9_007_199_254_740_992.0;
    let lo = n
        .minimum
        .map(|m| (m.f64(), false))
        .or(n.exclusive_minimum.map(|m| (m.f64(), true)));
    let hi = n
        .maximum
        .map(|m| (m.f64(), false))
        .or(n.exclusive_maximum.map(|m| (m.f64(), true)));
    let step = n.multiple_of.map(Num::f64).filter(|m| *m > 0.0);
    let y = if int || step.is_some() {
        let unit = step.unwrap_or(1.0);
        let kmin = lo.map(|(l, ex)| {
            if ex {
                (l / unit).floor() + 1.0
            } else {
                (l / unit).ceil()
            }
        });
        let kmax = hi.map(|(h, ex)| {
            if ex {
                (h / unit).ceil() - 1.0
            } else {
                (h / unit).floor()
            }
        });
        let mut k = (x / unit).round();
        if let Some(a) = kmin {
            k = k.max(a);
        }
        if let Some(b) = kmax {
            k = k.min(b);
        }
        if kmin.zip(kmax).is_some_and(|(a, b)| a > b) {
            return None;
        }
        k * unit
    } else {
        let mut y = x;
        if let Some((l, ex)) = lo
            && y <= l
        {
            if ex {
                return None;
            }
            y = l;
        }
        if let Some((h, ex)) = hi
            && y >= h
        {
            if ex {
                return None;
            }
            y = h;
        }
        y
    };
    if !y.is_finite() {
        return None;
    }
    if y.fract() == 0.0 && y.abs() <= SAFE {
        return Some(Value::Number((y as i64).into()));
    }
    if int {
        return None;
    }
    Number::from_f64(y).map(Value::Number)
}

/// Puts object keys in declaration order (renamed fields would otherwise come last).
fn order(c: &Compiled, v: &mut Value, id: NodeId, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let n = c.get(id);
    if let Value::Object(o) = v
        && !n.props.is_empty()
    {
        let mut ordered = serde_json::Map::new();
        for (k, p) in &n.props {
            if let Some(mut x) = o.shift_remove(k) {
                order(c, &mut x, *p, depth + 1);
                ordered.insert(k.clone(), x);
            }
        }
        ordered.append(o);
        *o = ordered;
    }
}
