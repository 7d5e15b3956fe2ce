//! Typed arguments: raw argument text or a `Value`, repaired, coerced where the schema asks for it,
//! validated, and deserialised, with every change recorded and corrective errors for the model.
//!
//! The order is fixed: [`repair`](crate::repair::repair) the text, parse it (noticing duplicate
//! keys), coerce the value guided *only* by the declared schema (each change a [`Coercion`] with a
//! JSON Pointer and a cost), validate with the `jsonschema` crate, and let serde be the strict
//! final gate. A string field that happens to hold `"5"` stays a string: coercion never fires where
//! the schema does not ask for it.
//!
//! # Example: decode arguments a small model got slightly wrong
//! ```
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//! use toolmend::decode::{decode, Policy};
//!
//! #[derive(Debug, Deserialize, JsonSchema, PartialEq)]
//! #[serde(rename_all = "snake_case")]
//! enum Unit { Celsius, Fahrenheit }
//!
//! #[derive(Debug, Deserialize, JsonSchema)]
//! struct Weather { location: String, unit: Unit, days: u32 }
//!
//! let got = decode::<Weather>(r#"{"location": "Paris", "unit": "Celsius", "days": "3"}"#, &Policy::default())?;
//! assert_eq!(got.value.unit, Unit::Celsius);
//! assert_eq!(got.value.days, 3);
//! assert_eq!(got.coercions.len(), 2); // "Celsius" → "celsius", "3" → 3
//! # Ok::<(), toolmend::decode::DecodeError>(())
//! ```

mod check;
mod coerce;
pub(crate) mod error;
mod example;
mod node;
mod parse;
mod scan;

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use error::{DecodeError, Problem, SchemaError};
pub(crate) use example::{fit_length, format_sample, integer_within};
pub(crate) use node::is_annotation;
pub(crate) use parse::push_escaped as push_pointer;

use crate::repair::{self, Fix};
use node::Compiled;

/// Raw tool-call arguments: text as the model wrote it, or a value from a native `tool_calls` entry.
///
/// A [`Value::String`] is treated as text (providers often pass arguments as a JSON string).
#[derive(Debug, Clone)]
pub enum Raw<'a> {
    /// Argument text; it is repaired before parsing.
    Text(&'a str),
    /// An already parsed value.
    Value(Cow<'a, Value>),
}

impl<'a> From<&'a str> for Raw<'a> {
    fn from(s: &'a str) -> Self {
        Raw::Text(s)
    }
}

impl<'a> From<&'a String> for Raw<'a> {
    fn from(s: &'a String) -> Self {
        Raw::Text(s)
    }
}

impl From<Value> for Raw<'_> {
    fn from(v: Value) -> Self {
        Raw::Value(Cow::Owned(v))
    }
}

impl<'a> From<&'a Value> for Raw<'a> {
    fn from(v: &'a Value) -> Self {
        Raw::Value(Cow::Borrowed(v))
    }
}

/// What to do with keys the schema does not list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnknownKeys {
    /// Drop them and report each as a [`CoercionKind::UnknownKeyDropped`] coercion.
    #[default]
    Drop,
    /// Reject the call with a problem per unknown key.
    Reject,
}

/// Which value wins when an object repeats a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DuplicateKeys {
    /// The first occurrence is kept.
    FirstWins,
    /// The last occurrence is kept (what most JSON parsers do).
    #[default]
    LastWins,
}

/// How forgiving decoding is. The default applies every safe rule and none of the risky ones.
///
/// # Example: a stricter policy
/// ```
/// use toolmend::decode::{Policy, UnknownKeys};
/// let p = Policy::default().with_unknown_keys(UnknownKeys::Reject).with_round_floats(true);
/// assert_eq!(p.unknown_keys, UnknownKeys::Reject);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Policy {
    /// Keys the schema does not list.
    pub unknown_keys: UnknownKeys,
    /// Repeated keys.
    pub duplicate_keys: DuplicateKeys,
    /// Risky: round a number with a fraction to the nearest integer where an integer is expected.
    pub round_floats: bool,
    /// Risky: match an enum value that *contains* the received text (when exactly one does).
    pub enum_substring: bool,
}

impl Policy {
    /// Sets what happens to unknown keys.
    #[must_use]
    pub fn with_unknown_keys(mut self, v: UnknownKeys) -> Self {
        self.unknown_keys = v;
        self
    }
    /// Sets which duplicate wins.
    #[must_use]
    pub fn with_duplicate_keys(mut self, v: DuplicateKeys) -> Self {
        self.duplicate_keys = v;
        self
    }
    /// Enables or disables float → integer rounding.
    #[must_use]
    pub fn with_round_floats(mut self, v: bool) -> Self {
        self.round_floats = v;
        self
    }
    /// Enables or disables enum matching by substring.
    #[must_use]
    pub fn with_enum_substring(mut self, v: bool) -> Self {
        self.enum_substring = v;
        self
    }
}

/// The kinds of change decoding makes to a value. Each is applied only where the schema asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum CoercionKind {
    /// `"5"`, `"1,234"`, `"5.0"` → an integer (exactly; `"1.000"` is ambiguous and not read).
    StringToInteger,
    /// `"2.5"` → a number.
    StringToNumber,
    /// `"true"`, `"yes"`, `"off"` → a boolean.
    StringToBool,
    /// `1` → `true`, `0` → `false` where a boolean (and no number) is expected.
    NumberToBool,
    /// `"None"` or `"null"` (any case) → `null` where `null` is allowed and a string is not.
    StringToNull,
    /// `5.0` → `5` where an integer is expected (same value, integer form).
    IntegralFloat,
    /// Risky (policy): `2.6` → `3` where an integer is expected.
    FloatRounded,
    /// `5` → `"5"` where a string is expected.
    NumberToString,
    /// `true` → `"true"` where a string is expected.
    BoolToString,
    /// `"Paris"` → `["Paris"]` where an array is expected.
    WrappedInArray,
    /// `["Paris"]` → `"Paris"` where a single value is expected.
    UnwrappedArray,
    /// `"10, 200"` or a Python tuple `"(1, 3)"` → `[10, 200]` where an array of numbers is
    /// expected (every part a number of the item type; never read as one grouped number).
    SplitList,
    /// `"{\"a\": 1}"` → `{"a": 1}` where an object or array is expected.
    ParsedJsonString,
    /// `"Celsius"` → `"celsius"`.
    EnumCase,
    /// `" celsius "` → `"celsius"`.
    EnumWhitespace,
    /// `"in-progress"`, `"InProgress"` → `"in_progress"` (case, `_`, `-`, space folded).
    EnumFolded,
    /// `"cel"` → `"celsius"` (the only value starting so).
    EnumPrefix,
    /// Risky (policy): `"deg celsius"` ⊇ … the only value contained in, or containing, the text.
    EnumSubstring,
    /// `"Location"` → `"location"`.
    KeyCase,
    /// `"maxResults"` → `"max_results"` (case, `_`, `-` folded).
    KeyFolded,
    /// `"locaton"` → `"location"` (a close misspelling: at most one edit in any one word of the
    /// name, none in a word of one or two letters or a number; `min_price` never becomes
    /// `max_price`).
    KeyMisspelled,
    /// `null` for a non-nullable field with a default → the default. A default that does not
    /// fit the field's own schema goes through the same rules as a sent value (`"false"` for a
    /// boolean → `false`); one that still does not fit is not used.
    NullToDefault,
    /// `null` for an optional, non-nullable field without a default → the field is omitted.
    NullDropped,
    /// A missing optional field with a declared default → the default (made to fit as for
    /// [`CoercionKind::NullToDefault`]; a default that cannot fit leaves the field out).
    MissingToDefault,
    /// An optional field whose value restates the field's own schema (`{"type": "number",
    /// "description": …}` where a number is expected: an object whose keys are all JSON Schema
    /// keywords, with a `type` or `description`) → the field is omitted, as if not sent (then its
    /// default applies as for any missing field). Never for a field that takes an object.
    SchemaEchoDropped,
    /// A key the schema does not list was dropped (policy).
    UnknownKeyDropped,
    /// A repeated key: one value was kept (policy), the other discarded (it is the receipt's
    /// `original`).
    DuplicateKey,
}

impl CoercionKind {
    /// Every kind, for iteration (tests check each has a firing and a non-firing case).
    pub const ALL: [CoercionKind; 27] = [
        CoercionKind::StringToInteger,
        CoercionKind::StringToNumber,
        CoercionKind::StringToBool,
        CoercionKind::NumberToBool,
        CoercionKind::StringToNull,
        CoercionKind::IntegralFloat,
        CoercionKind::FloatRounded,
        CoercionKind::NumberToString,
        CoercionKind::BoolToString,
        CoercionKind::WrappedInArray,
        CoercionKind::UnwrappedArray,
        CoercionKind::SplitList,
        CoercionKind::ParsedJsonString,
        CoercionKind::EnumCase,
        CoercionKind::EnumWhitespace,
        CoercionKind::EnumFolded,
        CoercionKind::EnumPrefix,
        CoercionKind::EnumSubstring,
        CoercionKind::KeyCase,
        CoercionKind::KeyFolded,
        CoercionKind::KeyMisspelled,
        CoercionKind::NullToDefault,
        CoercionKind::NullDropped,
        CoercionKind::MissingToDefault,
        CoercionKind::SchemaEchoDropped,
        CoercionKind::UnknownKeyDropped,
        CoercionKind::DuplicateKey,
    ];

    /// The cost of this kind: 0 = no change in meaning, higher = more of a guess.
    #[must_use]
    pub fn cost(self) -> u32 {
        use CoercionKind as K;
        match self {
            K::MissingToDefault => 0,
            K::IntegralFloat
            | K::StringToInteger
            | K::StringToNumber
            | K::StringToBool
            | K::NumberToBool
            | K::StringToNull
            | K::NumberToString
            | K::BoolToString
            | K::ParsedJsonString
            | K::EnumCase
            | K::EnumWhitespace
            | K::KeyCase
            | K::NullToDefault
            | K::NullDropped => 1,
            K::WrappedInArray
            | K::UnwrappedArray
            | K::SplitList
            | K::EnumFolded
            | K::KeyFolded
            | K::UnknownKeyDropped
            | K::SchemaEchoDropped
            | K::DuplicateKey => 2,
            K::EnumPrefix | K::KeyMisspelled => 3,
            K::FloatRounded | K::EnumSubstring => 5,
        }
    }
}

/// One change decoding made: where (JSON Pointer into the decoded value), what, and how risky.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Coercion {
    /// JSON Pointer of the changed value in the *decoded* value (for a renamed key: the new name;
    /// for a dropped key: where it was).
    pub path: String,
    /// What was done.
    pub kind: CoercionKind,
    /// How much of a guess it was ([`CoercionKind::cost`], sometimes more for a formatted number).
    pub cost: u32,
    /// What was there before (for a renamed key: the old name; for a duplicate key: the value
    /// discarded; for an unwrapped array: the whole array), so nothing is lost.
    pub original: Value,
}

/// A decoded value with the receipts: the repair fixes and the coercions that produced it.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded<T> {
    /// The value.
    pub value: T,
    /// What repair changed in the text (empty for a `Value` input or valid text).
    pub fixes: Vec<Fix>,
    /// What coercion changed in the value, in walk order.
    pub coercions: Vec<Coercion>,
}

impl<T> Decoded<T> {
    /// The summed cost of every coercion (0: the model's arguments were used as sent).
    #[must_use]
    pub fn cost(&self) -> u32 {
        self.coercions.iter().map(|c| c.cost).sum()
    }

    /// Maps the value, keeping the receipts.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Decoded<U> {
        Decoded {
            value: f(self.value),
            fixes: self.fixes,
            coercions: self.coercions,
        }
    }
}

/// A schema compiled for decoding: build once per tool, reuse for every call (cheap, `Send + Sync`).
#[derive(Debug, Clone)]
pub struct Decoder {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    schema: Value,
    compiled: Compiled,
    validator: jsonschema::Validator,
}

impl Decoder {
    /// Compiles `schema` (a JSON Schema object; draft 2020-12 unless it says otherwise).
    ///
    /// # Errors
    /// [`SchemaError`] when the schema is not a valid JSON Schema or a `$ref` does not resolve.
    pub fn new(schema: &Value) -> Result<Self, SchemaError> {
        let compiled = Compiled::new(schema)?;
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(&openapi_nullable(schema))
            .map_err(|e| SchemaError::Invalid {
                message: e.to_string(),
            })?;
        Ok(Self {
            inner: Arc::new(Inner {
                schema: schema.clone(),
                compiled,
                validator,
            }),
        })
    }

    /// The schema this decoder was built from.
    #[must_use]
    pub fn schema(&self) -> &Value {
        &self.inner.schema
    }

    /// Decodes `raw` into a `Value` that validates against the schema.
    ///
    /// # Errors
    /// [`DecodeError::Malformed`] when the text cannot be repaired into JSON,
    /// [`DecodeError::Invalid`] with every problem when the value does not fit the schema.
    pub fn decode_value<'a>(
        &self,
        raw: impl Into<Raw<'a>>,
        policy: &Policy,
    ) -> Result<Decoded<Value>, DecodeError> {
        let raw = raw.into();
        let inner = &*self.inner;
        // No arguments at all (empty text, `null` as text or value) for a tool that takes an
        // object: `{}`.
        let no_text = |t: &str| matches!(t.trim(), "" | "null");
        let empty = match &raw {
            Raw::Text(t) => no_text(t),
            Raw::Value(v) => v.is_null() || v.as_str().is_some_and(no_text),
        };
        let root = inner.compiled.get(node::ROOT);
        let (mut value, fixes, mut coercions) = if empty && root.types & node::T_OBJ != 0 {
            let k = CoercionKind::NullToDefault;
            let original = match &raw {
                Raw::Text(t) => Value::String((*t).to_owned()),
                Raw::Value(v) => v.clone().into_owned(),
            };
            let c = Coercion {
                path: String::new(),
                kind: k,
                cost: k.cost(),
                original,
            };
            (Value::Object(serde_json::Map::new()), Vec::new(), vec![c])
        } else {
            parse_raw(raw, policy)?
        };
        // Fast path: nothing to coerce and nothing the full validator would object to.
        if coercions.is_empty()
            && check::conforms(&inner.compiled, &value, node::ROOT, 0)
            && (!inner.compiled.opaque || inner.validator.is_valid(&value))
        {
            return Ok(Decoded {
                value,
                fixes,
                coercions,
            });
        }
        let mut problems = Vec::new();
        coerce::coerce(
            &inner.compiled,
            policy,
            &mut value,
            &mut coercions,
            &mut problems,
        );
        if problems.is_empty() && !inner.validator.is_valid(&value) {
            coerce::drop_unfit_defaults(
                &inner.compiled,
                &inner.validator,
                &mut value,
                &mut coercions,
            );
        }
        if !problems.is_empty() || !inner.validator.is_valid(&value) {
            return Err(error::invalid(
                &inner.compiled,
                &inner.validator,
                &value,
                problems,
                &coercions,
            ));
        }
        Ok(Decoded {
            value,
            fixes,
            coercions,
        })
    }

    /// Decodes `raw` into `T`: [`decode_value`](Self::decode_value), then serde as the final gate.
    ///
    /// # Errors
    /// As [`decode_value`](Self::decode_value), plus [`DecodeError::Invalid`] when `T` rejects
    /// a value the schema accepted (the schema and the type disagree).
    pub fn decode<'a, T: DeserializeOwned>(
        &self,
        raw: impl Into<Raw<'a>>,
        policy: &Policy,
    ) -> Result<Decoded<T>, DecodeError> {
        let raw = raw.into();
        // Fast path: text that fits the schema as written goes straight to serde, in one scan
        // plus serde's own parse (no `Value`, no repair, no coercion walk).
        let text = match &raw {
            Raw::Text(t) => Some(*t),
            Raw::Value(v) => v.as_str(),
        };
        if let Some(t) = text
            && !self.inner.compiled.opaque
            && scan::fits(&self.inner.compiled, t)
            && let Ok(value) = serde_json::from_str::<T>(t)
        {
            return Ok(Decoded {
                value,
                fixes: Vec::new(),
                coercions: Vec::new(),
            });
        }
        let Decoded {
            value,
            fixes,
            coercions,
        } = self.decode_value(raw, policy)?;
        match serde_path_to_error::deserialize::<_, T>(value) {
            Ok(t) => Ok(Decoded {
                value: t,
                fixes,
                coercions,
            }),
            Err(e) => Err(DecodeError::from_serde(&e)),
        }
    }
}

/// Repairs text when needed and parses it; a `Value` passes through (a string holding JSON is text).
fn parse_raw(
    raw: Raw<'_>,
    policy: &Policy,
) -> Result<(Value, Vec<Fix>, Vec<Coercion>), DecodeError> {
    let text: Cow<'_, str> = match raw {
        Raw::Text(t) => Cow::Borrowed(t),
        Raw::Value(Cow::Borrowed(Value::String(s))) => Cow::Borrowed(s.as_str()),
        Raw::Value(Cow::Owned(Value::String(s))) => Cow::Owned(s),
        Raw::Value(v) => {
            // A native value can nest deeper than any parse allows: refuse it before anything
            // recursive (clone, validation) touches it.
            if depth_exceeds(&v, check::MAX_DEPTH) {
                if let Cow::Owned(v) = v {
                    drop_iteratively(v);
                }
                return Err(DecodeError::Invalid {
                    problems: vec![Problem {
                        path: String::new(),
                        expected: format!(
                            "arguments nested at most {} levels deep",
                            check::MAX_DEPTH
                        ),
                        received: "deeper nesting".into(),
                        valid_values: None,
                        fix: "flatten the arguments".into(),
                    }],
                    example: None,
                    ignored: Vec::new(),
                });
            }
            return Ok((v.into_owned(), Vec::new(), Vec::new()));
        }
    };
    // Fast path: valid JSON needs no repair pass.
    let (value, dups, fixes) = match parse::parse(&text, policy.duplicate_keys) {
        Ok((v, d)) => (v, d, Vec::new()),
        Err(_) => {
            let repaired = repair::repair(&text).map_err(DecodeError::Malformed)?;
            let (v, d) = parse::parse(&repaired.text, policy.duplicate_keys).map_err(|e| {
                DecodeError::Malformed(repair::RepairError::Invalid {
                    at: 0,
                    message: format!("repaired text does not parse: {e}"),
                })
            })?;
            (v, d, repaired.fixes)
        }
    };
    let coercions = dups
        .into_iter()
        .map(|d| Coercion {
            path: d.path,
            kind: CoercionKind::DuplicateKey,
            cost: CoercionKind::DuplicateKey.cost(),
            original: d.discarded,
        })
        .collect();
    Ok((value, fixes, coercions))
}

/// True when `v` nests deeper than `limit` (measured with an explicit stack).
fn depth_exceeds(v: &Value, limit: usize) -> bool {
    let mut stack = vec![(v, 0usize)];
    while let Some((x, d)) = stack.pop() {
        if d > limit {
            return true;
        }
        match x {
            Value::Array(a) => stack.extend(a.iter().map(|y| (y, d + 1))),
            Value::Object(o) => stack.extend(o.values().map(|y| (y, d + 1))),
            _ => {}
        }
    }
    false
}

/// Drops a value without recursion (serde_json's own drop recurses once per level).
fn drop_iteratively(v: Value) {
    let mut stack = vec![v];
    while let Some(x) = stack.pop() {
        match x {
            Value::Array(a) => stack.extend(a),
            Value::Object(o) => stack.extend(o.into_iter().map(|(_, y)| y)),
            _ => {}
        }
    }
}

/// Decodes `raw` into `T` against `T`'s own schema ([`schema_for`](crate::schema::schema_for)).
/// The compiled decoder is cached per type.
///
/// # Errors
/// As [`Decoder::decode`]; a type whose derived schema does not compile is reported as
/// [`DecodeError::Schema`].
pub fn decode<'a, T: DeserializeOwned + JsonSchema>(
    raw: impl Into<Raw<'a>>,
    policy: &Policy,
) -> Result<Decoded<T>, DecodeError> {
    decoder_for::<T>()?.decode(raw, policy)
}

/// The cached [`Decoder`] for `T`'s schema (compiled once per type and thread, then reused).
///
/// # Errors
/// [`SchemaError`] when `T`'s derived schema does not compile.
pub fn decoder_for<T: JsonSchema>() -> Result<Decoder, SchemaError> {
    thread_local! {
        // Per thread: no lock on the hot path; a Decoder is an `Arc`, so the map is small.
        static CACHE: std::cell::RefCell<HashMap<Cow<'static, str>, Decoder>> =
            std::cell::RefCell::new(HashMap::new());
    }
    let id = T::schema_id();
    if let Some(d) = CACHE.with(|c| c.borrow().get(&id).cloned()) {
        return Ok(d);
    }
    let d = Decoder::new(&crate::schema::schema_for::<T>())?;
    CACHE.with(|c| c.borrow_mut().insert(id, d.clone()));
    Ok(d)
}

/// `schema` with OpenAPI's `nullable: true` said in JSON Schema (`null` added to `type`), so the
/// validator admits the `null` the compiled schema does.
fn openapi_nullable(schema: &Value) -> Value {
    fn walk(v: &mut Value) {
        match v {
            Value::Object(o) => {
                if o.get("nullable") == Some(&Value::Bool(true)) {
                    match o.get_mut("type") {
                        Some(Value::String(t)) if t != "null" => {
                            let t = std::mem::take(t);
                            o.insert("type".into(), serde_json::json!([t, "null"]));
                        }
                        Some(Value::Array(ts)) if !ts.iter().any(|t| t == "null") => {
                            ts.push(Value::from("null"));
                        }
                        _ => {}
                    }
                }
                for (k, x) in o.iter_mut() {
                    if !matches!(k.as_str(), "enum" | "const" | "default" | "examples") {
                        walk(x);
                    }
                }
            }
            Value::Array(a) => a.iter_mut().for_each(walk),
            _ => {}
        }
    }
    let mut s = schema.clone();
    walk(&mut s);
    s
}
