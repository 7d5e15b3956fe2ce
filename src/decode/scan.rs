//! The typed fast path's check: one streaming pass over argument text beside the compiled schema
//! that answers "would decoding change nothing here?" without building a `Value`.
//!
//! It rejects (so the full path runs) on any type mismatch, enum miss, bound or length violation,
//! unknown or duplicate key, missing required field or missing defaulted field. Keys are matched
//! as borrowed `&str`; only a general `anyOf` subtree is materialised to be checked branch by
//! branch.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::check::{MAX_DEPTH, conforms, within_bounds};
use super::node::{
    Additional, Compiled, Node, NodeId, Num, T_ANY, T_ARR, T_BOOL, T_INT, T_NULL, T_NUM, T_OBJ,
    T_STR,
};

/// True when `text` is one JSON value that fits the schema exactly as written.
pub(crate) fn fits(c: &Compiled, text: &str) -> bool {
    let mut de = serde_json::Deserializer::from_str(text);
    let ok = Check {
        c,
        id: super::node::ROOT,
        depth: 0,
    }
    .deserialize(&mut de)
    .is_ok();
    ok && de.end().is_ok()
}

#[derive(Clone, Copy)]
struct Check<'c> {
    c: &'c Compiled,
    id: NodeId,
    depth: usize,
}

/// The "does not fit" signal: aborts the scan at once.
fn no<E: de::Error>() -> E {
    E::custom("")
}

impl Check<'_> {
    fn node(&self) -> &Node {
        self.c.get(self.id)
    }

    fn want(&self, bit: u8) -> bool {
        let t = self.node().types;
        t == T_ANY || t & bit != 0
    }

    fn number<E: de::Error>(self, x: Num, v: impl FnOnce() -> Value, bit: u8) -> Result<(), E> {
        let n = self.node();
        if !self.want(bit) {
            return Err(no());
        }
        if (n.enum_values.is_some() || n.const_value.is_some())
            && !conforms(self.c, &v(), self.id, self.depth)
        {
            return Err(no());
        }
        if !within_bounds(n, x) {
            return Err(no());
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Check<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        if self.depth > MAX_DEPTH {
            return Err(no());
        }
        let n = self.node();
        if n.never {
            return Err(no());
        }
        if !n.all_of.is_empty() {
            return materialised(self, d);
        }
        if !n.any_of.is_empty() {
            // `X | null` (an `Option`) streams: null is fine, anything else is checked against X.
            if let Some(x) = nullable_branch(self.c, n) {
                return d.deserialize_any(OrNull(Check {
                    id: x,
                    depth: self.depth + 1,
                    ..self
                }));
            }
            return materialised(self, d);
        }
        d.deserialize_any(self)
    }
}

/// Checks a subtree the streaming check cannot (a general `anyOf`, an `allOf`) by building it.
fn materialised<'de, D: Deserializer<'de>>(chk: Check<'_>, d: D) -> Result<(), D::Error> {
    let v = Value::deserialize(d)?;
    if conforms(chk.c, &v, chk.id, chk.depth) {
        Ok(())
    } else {
        Err(no())
    }
}

use serde::Deserialize as _;

/// For `anyOf: [X, {"type": "null"}]` (either order), the id of X.
fn nullable_branch(c: &Compiled, n: &Node) -> Option<NodeId> {
    if n.any_of.len() != 2 || n.one_of || n.has_own_checks() {
        return None;
    }
    let is_null = |id: NodeId| {
        let b = c.get(id);
        b.types == T_NULL && b.any_of.is_empty() && b.all_of.is_empty()
    };
    match (is_null(n.any_of[0]), is_null(n.any_of[1])) {
        (false, true) => Some(n.any_of[0]),
        (true, false) => Some(n.any_of[1]),
        _ => None,
    }
}

struct OrNull<'c>(Check<'c>);

impl<'de> Visitor<'de> for OrNull<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value or null")
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.0.visit_bool(v)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        self.0.visit_i64(v)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        self.0.visit_u64(v)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        self.0.visit_f64(v)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.0.visit_str(v)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        self.0.visit_seq(seq)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        self.0.visit_map(map)
    }
}

impl<'de> Visitor<'de> for Check<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value that fits the schema")
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        if !self.want(T_NULL) || !conforms(self.c, &Value::Null, self.id, self.depth) {
            return Err(no());
        }
        Ok(())
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        if !self.want(T_BOOL) || !conforms(self.c, &Value::Bool(v), self.id, self.depth) {
            return Err(no());
        }
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        self.number(Num::I(v), || Value::from(v), T_INT)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        let x = i64::try_from(v).map_or(Num::U(v), Num::I);
        self.number(x, || Value::from(v), T_INT)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        // A float where only integers are allowed would be coerced (5.0 → 5), so it does not fit.
        self.number(Num::F(v), || Value::from(v), T_NUM)
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<(), E> {
        let n = self.node();
        if !self.want(T_STR) {
            return Err(no());
        }
        if let Some(e) = &n.enum_values
            && !e.iter().any(|x| x.as_str() == Some(s))
        {
            return Err(no());
        }
        if let Some(k) = &n.const_value
            && k.as_str() != Some(s)
        {
            return Err(no());
        }
        if n.min_length.is_some() || n.max_length.is_some() {
            let len = s.chars().count() as u64;
            if n.min_length.is_some_and(|m| len < m) || n.max_length.is_some_and(|m| len > m) {
                return Err(no());
            }
        }
        if n.pattern.as_ref().is_some_and(|p| !p.is_match(s)) {
            return Err(no());
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let n = self.node();
        if !self.want(T_ARR) || n.unique_items || n.enum_values.is_some() || n.const_value.is_some()
        {
            return Err(no());
        }
        let mut len: u64 = 0;
        match n.items {
            Some(items) => {
                let item = Check {
                    id: items,
                    depth: self.depth + 1,
                    ..self
                };
                while seq.next_element_seed(item)?.is_some() {
                    len += 1;
                }
            }
            None => {
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    len += 1;
                }
            }
        }
        if n.min_items.is_some_and(|m| len < m) || n.max_items.is_some_and(|m| len > m) {
            return Err(no());
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let n = self.node();
        if !self.want(T_OBJ)
            || n.props.len() > 64
            || n.enum_values.is_some()
            || n.const_value.is_some()
        {
            return Err(no());
        }
        let closed = n.closed_keys();
        let mut seen: u64 = 0;
        let mut extra: Vec<Box<str>> = Vec::new();
        while let Some(k) = map.next_key_seed(Key(n))? {
            match k {
                KeyHit::Prop(i) => {
                    let bit = 1u64 << i;
                    if seen & bit != 0 {
                        return Err(no());
                    }
                    seen |= bit;
                    map.next_value_seed(Check {
                        id: n.props[i].1,
                        depth: self.depth + 1,
                        ..self
                    })?;
                }
                KeyHit::Other(name) => {
                    if closed {
                        return Err(no());
                    }
                    // Duplicates among free-form keys change the value too.
                    if extra.contains(&name) {
                        return Err(no());
                    }
                    extra.push(name);
                    match n.additional {
                        Additional::Schema(s) => map.next_value_seed(Check {
                            id: s,
                            depth: self.depth + 1,
                            ..self
                        })?,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
            }
        }
        for r in &n.required {
            match n.props.iter().position(|(k, _)| k == r) {
                Some(i) if seen & (1u64 << i) != 0 => {}
                Some(_) => return Err(no()),
                None => {
                    if !extra.iter().any(|e| &**e == r.as_str()) {
                        return Err(no());
                    }
                }
            }
        }
        if n.has_defaults {
            for (i, (_, p)) in n.props.iter().enumerate() {
                if seen & (1u64 << i) == 0 && self.c.get(*p).default.is_some() {
                    return Err(no());
                }
            }
        }
        Ok(())
    }
}

/// Which property a key names (matched without allocating for ordinary keys).
enum KeyHit {
    Prop(usize),
    Other(Box<str>),
}

struct Key<'n>(&'n Node);

impl<'de> DeserializeSeed<'de> for Key<'_> {
    type Value = KeyHit;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<KeyHit, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key<'_> {
    type Value = KeyHit;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<KeyHit, E> {
        Ok(match self.0.props.iter().position(|(k, _)| k == s) {
            Some(i) => KeyHit::Prop(i),
            None => KeyHit::Other(s.into()),
        })
    }
}
