//! Concrete valid values for corrective messages: an example per schema node, and the received
//! arguments with every problem fixed (small models copy a concrete example best).

use serde_json::{Map, Number, Value};

use super::check::{MAX_DEPTH, conforms, conforms_in, same_value};
use super::coerce::allows_null;
use super::node::{
    Additional, Compiled, NodeId, Num, ROOT, T_ANY, T_ARR, T_BOOL, T_INT, T_NULL, T_NUM, T_OBJ,
    T_STR, type_of,
};

/// Deepest an invented example goes (a recursive type must not recurse forever).
const EXAMPLE_DEPTH: usize = 8;

/// A value that satisfies node `id`: its default, const, first enum value, or one built from the
/// type and bounds.
pub(crate) fn example_for(c: &Compiled, id: NodeId) -> Value {
    example_at(c, id, 0)
}

fn example_at(c: &Compiled, id: NodeId, depth: usize) -> Value {
    let n = c.get(id);
    if let Some(d) = &n.default {
        return d.clone();
    }
    if let Some(k) = &n.const_value {
        return k.clone();
    }
    if let Some(e) = &n.enum_values
        && let Some(first) = e.iter().find(|v| !v.is_null()).or(e.first())
    {
        return first.clone();
    }
    if depth > EXAMPLE_DEPTH {
        return Value::Null;
    }
    if n.types == T_ANY {
        if let Some(&b) = n
            .any_of
            .iter()
            .find(|&&b| c.get(b).types != T_NULL)
            .or(n.any_of.first())
        {
            return example_at(c, b, depth + 1);
        }
        if let Some((&first, rest)) = n.all_of.split_first() {
            // Every part must hold: the parts' object examples merged (the first part's value
            // otherwise).
            let mut acc = example_at(c, first, depth + 1);
            if let Value::Object(m) = &mut acc {
                add_part_examples(c, rest, depth, m);
            }
            return acc;
        }
        if !n.props.is_empty() {
            return object_example(c, id, depth);
        }
        return Value::Null;
    }
    let t = n.types & !T_NULL;
    if t & T_INT != 0 {
        return Value::Number(int_example(n));
    }
    if t & T_NUM != 0 {
        let lo = n
            .minimum
            .map(Num::f64)
            .or(n.exclusive_minimum.map(|x| x.f64() + 1.0));
        let hi = n
            .maximum
            .map(Num::f64)
            .or(n.exclusive_maximum.map(|x| x.f64() - 1.0));
        let x = lo.unwrap_or(0.0_f64).max(0.0).min(hi.unwrap_or(f64::MAX));
        let x = if x < lo.unwrap_or(f64::MIN) {
            lo.unwrap_or(0.0)
        } else {
            x
        };
        return Number::from_f64(x).map_or(Value::Null, Value::Number);
    }
    if t & T_STR != 0 {
        return Value::String(string_example(n));
    }
    if t & T_BOOL != 0 {
        return Value::Bool(true);
    }
    if t & T_ARR != 0 {
        let count = n.min_items.unwrap_or(1).clamp(1, 3);
        let item = n.items.map_or(Value::String("item".into()), |i| {
            example_at(c, i, depth + 1)
        });
        let count = if n.max_items == Some(0) { 0 } else { count };
        #[allow(clippy::cast_possible_truncation)]
        return Value::Array(vec![item; count as usize]);
    }
    if t & T_OBJ != 0 {
        return object_example(c, id, depth);
    }
    Value::Null
}

fn object_example(c: &Compiled, id: NodeId, depth: usize) -> Value {
    let n = c.get(id);
    let mut m = Map::new();
    for (k, p) in &n.props {
        if n.required.contains(k) {
            m.insert(k.clone(), example_at(c, *p, depth + 1));
        }
    }
    // The required fields of the object's `allOf` parts hold too.
    add_part_examples(c, &n.all_of, depth, &mut m);
    Value::Object(m)
}

/// Adds to `m` the fields of the object examples of `parts` (all of which must hold) that it
/// does not have yet.
fn add_part_examples(c: &Compiled, parts: &[NodeId], depth: usize, m: &mut Map<String, Value>) {
    for &p in parts {
        if let Value::Object(part) = example_at(c, p, depth + 1) {
            for (k, v) in part {
                m.entry(k).or_insert(v);
            }
        }
    }
}

fn int_example(n: &super::node::Node) -> Number {
    integer_within(
        n.minimum.map(Num::f64),
        n.exclusive_minimum.map(Num::f64),
        n.maximum.map(Num::f64),
        n.exclusive_maximum.map(Num::f64),
    )
    .into()
}

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

fn string_example(n: &super::node::Node) -> String {
    let base = n
        .format
        .as_deref()
        .and_then(format_sample)
        .unwrap_or("text");
    #[allow(clippy::cast_possible_truncation)]
    fit_length(
        base,
        n.min_length.map(|m| m as usize),
        n.max_length.map(|m| m as usize),
    )
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

/// `value` with every problem replaced by a valid value, if that makes it valid.
pub(crate) fn corrected(
    c: &Compiled,
    validator: &jsonschema::Validator,
    value: &Value,
) -> Option<Value> {
    let mut v = value.clone();
    fix(c, &mut v, ROOT, 0, false);
    order(c, &mut v, ROOT, 0);
    validator.is_valid(&v).then_some(v)
}

/// Changes `v` as little as possible until it fits node `id` (`part`: one part of the value's
/// schema, which leaves keys it does not declare to the whole).
fn fix(c: &Compiled, v: &mut Value, id: NodeId, depth: usize, part: bool) {
    if depth > MAX_DEPTH || conforms_in(c, v, id, depth, part) {
        return;
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
        if let Some(b) = branch {
            fix(c, v, b, depth + 1, true);
        }
        if !n.has_own_checks() {
            return;
        }
    }
    for &p in &n.all_of {
        fix(c, v, p, depth + 1, true);
    }
    let type_ok = n.types == T_ANY || n.types & type_of(v) != 0;
    let enum_ok = n
        .enum_values
        .as_ref()
        .is_none_or(|e| e.iter().any(|x| same_value(x, v)))
        && n.const_value.as_ref().is_none_or(|k| same_value(k, v));
    if !type_ok || !enum_ok {
        *v = match (&n.enum_values, &*v) {
            (Some(e), Value::String(_)) => super::error::closest_enum(v, e),
            _ => example_at(c, id, 0),
        };
        return;
    }
    match v {
        Value::Object(o) => {
            if !part && n.keys_closed {
                o.retain(|k, _| n.known_keys.contains(k));
            }
            for (k, p) in &n.props {
                match o.get_mut(k) {
                    Some(x) => {
                        if x.is_null() && !allows_null(c, *p) {
                            *x = example_at(c, *p, 0);
                        } else {
                            fix(c, x, *p, depth + 1, false);
                        }
                    }
                    None if n.required.contains(k) => {
                        o.insert(k.clone(), example_at(c, *p, 0));
                    }
                    None => {}
                }
            }
            if let Additional::Schema(s) = n.additional {
                for (k, x) in o.iter_mut() {
                    if n.prop(k).is_none() {
                        fix(c, x, s, depth + 1, false);
                    }
                }
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter_mut().enumerate() {
                if let Some(items) = n.item_at(i) {
                    fix(c, x, items, depth + 1, false);
                }
            }
            #[allow(clippy::cast_possible_truncation)]
            if let Some(max) = n.max_items.map(|m| m as usize) {
                a.truncate(max);
            }
            #[allow(clippy::cast_possible_truncation)]
            if let Some(min) = n.min_items.map(|m| m as usize)
                && a.len() < min
            {
                let item = n.items.map_or(Value::Null, |i| example_at(c, i, 0));
                a.resize(min.min(64), item);
            }
        }
        Value::Number(_) | Value::String(_) if !conforms(c, v, id, depth) => {
            *v = clamp_or_example(c, id, v);
        }
        _ => {}
    }
}

/// Puts object keys in declaration order (inserted or renamed fields would otherwise come last).
fn order(c: &Compiled, v: &mut Value, id: NodeId, depth: usize) {
    if depth > EXAMPLE_DEPTH {
        return;
    }
    let n = c.get(id);
    if let Value::Object(o) = v
        && !n.props.is_empty()
    {
        let mut ordered = Map::new();
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

/// A number clamped into its bounds, or the node's example.
fn clamp_or_example(c: &Compiled, id: NodeId, v: &Value) -> Value {
    let n = c.get(id);
    if let Value::Number(num) = v
        && let Some(x) = num.as_f64()
    {
        let mut y = x;
        if let Some(m) = n.minimum {
            y = y.max(m.f64());
        }
        if let Some(m) = n.maximum {
            y = y.min(m.f64());
        }
        let out = if n.types & T_INT != 0 && n.types & T_NUM == 0 {
            #[allow(clippy::cast_possible_truncation)]
            Value::Number((y.round() as i64).into())
        } else {
            Number::from_f64(y).map_or(Value::Null, Value::Number)
        };
        if conforms(c, &out, id, 0) {
            return out;
        }
    }
    example_at(c, id, 0)
}
