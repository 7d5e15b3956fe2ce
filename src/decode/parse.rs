//! Text → `serde_json::Value` in one pass that also notices duplicate keys (serde_json's own `Value`
//! silently keeps the last one) and resolves them per [`DuplicateKeys`].

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value, map::Entry};

use super::DuplicateKeys;

/// A duplicate key found while parsing: where, and the value that was discarded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Duplicate {
    /// JSON Pointer of the duplicated key.
    pub path: String,
    /// The value the policy did not keep (nothing is lost: it goes into the receipt).
    pub discarded: Value,
}

/// A path segment, collected while the parser unwinds.
enum Seg {
    Key(String),
    Index(usize),
}

struct Pending {
    /// Segments from the duplicate up to the root (innermost first).
    rev: Vec<Seg>,
    /// The value that was not kept.
    discarded: Value,
}

struct State {
    policy: DuplicateKeys,
    dups: Vec<Pending>,
}

/// Parses `text` (already valid JSON) into a `Value`, resolving duplicate keys per `policy`.
pub(crate) fn parse(
    text: &str,
    policy: DuplicateKeys,
) -> Result<(Value, Vec<Duplicate>), serde_json::Error> {
    let mut st = State {
        policy,
        dups: Vec::new(),
    };
    let mut de = serde_json::Deserializer::from_str(text);
    let v = ValueSeed { st: &mut st }.deserialize(&mut de)?;
    de.end()?;
    let dups = st
        .dups
        .into_iter()
        .map(|p| {
            let mut path = String::new();
            for s in p.rev.iter().rev() {
                path.push('/');
                match s {
                    Seg::Key(k) => push_escaped(&mut path, k),
                    Seg::Index(i) => path.push_str(&i.to_string()),
                }
            }
            Duplicate {
                path,
                discarded: p.discarded,
            }
        })
        .collect();
    Ok((v, dups))
}

/// Appends `seg` to a JSON Pointer with `~` and `/` escaped.
pub(crate) fn push_escaped(path: &mut String, seg: &str) {
    if seg.contains(['~', '/']) {
        path.push_str(&seg.replace('~', "~0").replace('/', "~1"));
    } else {
        path.push_str(seg);
    }
}

struct ValueSeed<'s> {
    st: &'s mut State,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        loop {
            let mark = self.st.dups.len();
            match seq.next_element_seed(ValueSeed { st: &mut *self.st })? {
                Some(v) => {
                    for p in &mut self.st.dups[mark..] {
                        p.rev.push(Seg::Index(out.len()));
                    }
                    out.push(v);
                }
                None => break,
            }
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let mark = self.st.dups.len();
            let v = map.next_value_seed(ValueSeed { st: &mut *self.st })?;
            if self.st.dups.len() > mark {
                for p in &mut self.st.dups[mark..] {
                    p.rev.push(Seg::Key(key.clone()));
                }
            }
            match out.entry(key) {
                Entry::Vacant(e) => {
                    e.insert(v);
                }
                Entry::Occupied(mut e) => {
                    let rev = vec![Seg::Key(e.key().clone())];
                    let discarded = if self.st.policy == DuplicateKeys::LastWins {
                        e.insert(v)
                    } else {
                        v
                    };
                    self.st.dups.push(Pending { rev, discarded });
                }
            }
        }
        Ok(Value::Object(out))
    }
}
