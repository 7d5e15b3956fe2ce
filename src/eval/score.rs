//! BFCL's AST checker, written here from BFCL's rules (`bfcl_eval/eval_checker/ast_eval/ast_checker.py`).
//!
//! A decoded model output is a list of [`Call`]s. It is checked against the question's function docs
//! and the ground truth with BFCL's rules: the function name must match; every required parameter
//! must be present; no parameter outside the doc and the ground truth; each value must be among the
//! allowed ones — numbers compared numerically (an `int` is accepted for a `float`), strings after
//! BFCL's normalisation (case, spaces and `,./-_*^` ignored), lists and dicts element-wise; a
//! ground-truth parameter may be omitted only when its allowed values include `""`. Parallel
//! categories match calls regardless of order; irrelevance passes when no call is made. The quirks
//! of BFCL's checker are kept on purpose (e.g. a value whose type matches the ground truth's rather
//! than the doc's is compared as is), so that scores are comparable with the leaderboard's.

use serde::Serialize;
use serde_json::{Map, Value};

use super::data::{ExpectedCall, FunctionDoc, is_irrelevance};
use super::types::PyType;

/// One decoded call as the checker sees it: a name and its arguments.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Call {
    /// The function name as decoded.
    pub name: String,
    /// The arguments (an object).
    pub args: Map<String, Value>,
}

/// Why an output was scored wrong, by kind (the report counts these).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// The output holds no call-shaped text at all.
    NoCall,
    /// The output holds call-shaped text that the parser could not turn into a call.
    ParseFailure,
    /// A call was made where none should be (irrelevance).
    CallInIrrelevance,
    /// Too many or too few calls.
    WrongCount,
    /// A function other than the expected one was called.
    WrongFunction,
    /// A required parameter (or one the ground truth does not mark optional) is missing.
    MissingParameter,
    /// A parameter the doc or the ground truth does not have.
    UnexpectedParameter,
    /// A value of the wrong type.
    WrongType,
    /// A value outside the allowed ones.
    WrongValue,
}

impl FailureKind {
    /// All kinds, in report order.
    pub const ALL: [FailureKind; 9] = [
        Self::NoCall,
        Self::ParseFailure,
        Self::CallInIrrelevance,
        Self::WrongCount,
        Self::WrongFunction,
        Self::MissingParameter,
        Self::UnexpectedParameter,
        Self::WrongType,
        Self::WrongValue,
    ];

    /// The snake_case name used in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NoCall => "no_call",
            Self::ParseFailure => "parse_failure",
            Self::CallInIrrelevance => "call_in_irrelevance",
            Self::WrongCount => "wrong_count",
            Self::WrongFunction => "wrong_function",
            Self::MissingParameter => "missing_parameter",
            Self::UnexpectedParameter => "unexpected_parameter",
            Self::WrongType => "wrong_type",
            Self::WrongValue => "wrong_value",
        }
    }
}

/// A failed check: its kind and a message naming the parameter and the allowed values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// The kind, for counting.
    pub kind: FailureKind,
    /// What exactly did not match.
    pub message: String,
}

impl Failure {
    fn new(kind: FailureKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }
}

/// Checks `calls` for a question of `category` offering `functions`, against `truth`.
///
/// Irrelevance categories pass exactly when `calls` is empty and ignore `truth`; `live_relevance`
/// passes when there is at least one call.
///
/// # Errors
/// The first rule the output breaks, as a [`Failure`].
pub fn check(
    category: &str,
    functions: &[FunctionDoc],
    calls: &[Call],
    truth: &[ExpectedCall],
) -> Result<(), Failure> {
    if is_irrelevance(category) {
        return match calls.first() {
            None => Ok(()),
            Some(c) => Err(Failure::new(
                FailureKind::CallInIrrelevance,
                format!("called '{}' where no function fits the question", c.name),
            )),
        };
    }
    if category == "live_relevance" {
        return if calls.is_empty() {
            Err(Failure::new(FailureKind::NoCall, "no call made"))
        } else {
            Ok(())
        };
    }
    if calls.len() != truth.len() {
        let kind = if calls.is_empty() {
            FailureKind::NoCall
        } else {
            FailureKind::WrongCount
        };
        return Err(Failure::new(
            kind,
            format!("{} calls made, {} expected", calls.len(), truth.len()),
        ));
    }
    if category.contains("parallel") {
        check_parallel(functions, calls, truth)
    } else {
        // simple and multiple: exactly one call, checked against the expected function's doc.
        let expected = &truth[0];
        let doc = find_doc(functions, &expected.name)?;
        check_call(doc, &calls[0], expected)
    }
}

fn find_doc<'a>(functions: &'a [FunctionDoc], name: &str) -> Result<&'a FunctionDoc, Failure> {
    functions.iter().find(|f| f.name == name).ok_or_else(|| {
        Failure::new(
            FailureKind::WrongFunction,
            format!("the ground truth names '{name}', which the question does not offer"),
        )
    })
}

/// BFCL's `parallel_function_checker_no_order`: each expected call, in order, takes the first
/// not yet matched output call that passes the simple check.
fn check_parallel(
    functions: &[FunctionDoc],
    calls: &[Call],
    truth: &[ExpectedCall],
) -> Result<(), Failure> {
    let mut matched = vec![false; calls.len()];
    for expected in truth {
        let doc = find_doc(functions, &expected.name)?;
        let mut first_error: Option<Failure> = None;
        let mut found = false;
        for (i, call) in calls.iter().enumerate() {
            if matched[i] {
                continue;
            }
            match check_call(doc, call, expected) {
                Ok(()) => {
                    matched[i] = true;
                    found = true;
                    break;
                }
                Err(e) => {
                    // Report the error of the output call that names the expected function, if any.
                    let better = call.name == expected.name
                        && first_error
                            .as_ref()
                            .is_none_or(|f| f.kind == FailureKind::WrongFunction);
                    if first_error.is_none() || better {
                        first_error = Some(e);
                    }
                }
            }
        }
        if !found {
            let e = first_error.unwrap_or_else(|| {
                Failure::new(FailureKind::WrongCount, "no output call left to match")
            });
            return Err(Failure::new(
                e.kind,
                format!("no output call matches '{}': {}", expected.name, e.message),
            ));
        }
    }
    Ok(())
}

/// BFCL's `simple_function_checker` for one call against one expected call.
fn check_call(doc: &FunctionDoc, call: &Call, expected: &ExpectedCall) -> Result<(), Failure> {
    if call.name != doc.name {
        return Err(Failure::new(
            FailureKind::WrongFunction,
            format!("called '{}', expected '{}'", call.name, doc.name),
        ));
    }
    for req in doc.required() {
        if !call.args.contains_key(req) {
            return Err(Failure::new(
                FailureKind::MissingParameter,
                format!("missing required parameter '{req}'"),
            ));
        }
    }
    let empty = Map::new();
    let props = doc.properties().unwrap_or(&empty);
    for (param, value) in &call.args {
        let (Some(detail), Some(allowed)) = (props.get(param), expected.params.get(param)) else {
            return Err(Failure::new(
                FailureKind::UnexpectedParameter,
                format!("unexpected parameter '{param}'"),
            ));
        };
        let allowed: &[Value] = allowed.as_array().map(Vec::as_slice).unwrap_or(&[]);
        let type_name = detail
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("string");
        let expected_ty = PyType::from_bfcl(type_name);
        let nested_ty = if matches!(type_name, "array" | "tuple") {
            detail
                .get("items")
                .and_then(|i| i.get("type"))
                .and_then(Value::as_str)
                .map(PyType::from_bfcl)
        } else {
            None
        };
        // Python converts an int to a float where a float is documented.
        let converted;
        let value = match value {
            Value::Number(n) if type_name == "float" && !n.is_f64() => {
                converted = n
                    .as_f64()
                    .and_then(serde_json::Number::from_f64)
                    .map_or(Value::Null, Value::Number);
                &converted
            }
            v => v,
        };
        let is_variable = type_check(param, value, allowed, expected_ty, nested_ty)?;
        if !is_variable {
            let special = match (expected_ty, nested_ty) {
                (PyType::Dict, _) => Some(dict_check(param, value, allowed)),
                (PyType::List, Some(PyType::Dict)) => Some(list_dict_check(param, value, allowed)),
                (PyType::Str, _) => Some(string_check(param, value, allowed)),
                (PyType::List, _) => Some(list_check(param, value, allowed)),
                _ => None,
            };
            if let Some(r) = special {
                r?;
                continue;
            }
        }
        if !allowed.iter().any(|a| py_eq(value, a)) {
            return Err(value_error(param, value, allowed));
        }
    }
    for (param, allowed) in &expected.params {
        let optional = allowed
            .as_array()
            .is_some_and(|a| a.iter().any(|v| v.as_str() == Some("")));
        if !call.args.contains_key(param) && !optional {
            return Err(Failure::new(
                FailureKind::MissingParameter,
                format!("missing parameter '{param}', which the question asks for"),
            ));
        }
    }
    Ok(())
}

fn value_error(param: &str, value: &Value, allowed: &[Value]) -> Failure {
    Failure::new(
        FailureKind::WrongValue,
        format!(
            "invalid value for '{param}': {value}; expected one of {}",
            Value::Array(allowed.to_vec())
        ),
    )
}

/// The type of the first allowed value that is not the optional marker `""`.
fn answer_type(allowed: &[Value]) -> Option<PyType> {
    allowed
        .iter()
        .find(|a| a.as_str() != Some(""))
        .map(PyType::of)
}

/// BFCL's `type_checker`: `Ok(is_variable)` when the type is acceptable. A value whose type is the
/// ground truth's rather than the doc's is a "variable" and is later compared as is.
fn type_check(
    param: &str,
    value: &Value,
    allowed: &[Value],
    expected: PyType,
    nested: Option<PyType>,
) -> Result<bool, Failure> {
    let answer_ty = answer_type(allowed);
    let is_variable = answer_ty.is_some_and(|t| t != expected);
    if PyType::of(value) == expected {
        let Some(nested) = nested else {
            return Ok(is_variable);
        };
        let items: &[Value] = value.as_array().map(Vec::as_slice).unwrap_or(&[]);
        for option in allowed {
            let ok = match option {
                Value::Array(option_items) => items
                    .iter()
                    .all(|item| type_check(param, item, option_items, nested, None).is_ok()),
                _ => true,
            };
            if ok {
                return Ok(is_variable);
            }
        }
    }
    if answer_ty == Some(PyType::of(value)) {
        return Ok(true);
    }
    Err(Failure::new(
        FailureKind::WrongType,
        format!(
            "wrong type for '{param}': expected {}, got {} ({value})",
            expected.name(),
            PyType::of(value).name()
        ),
    ))
}

/// BFCL's `standardize_string`: drops spaces and `,./-_*^`, lowercases, turns `'` into `"`.
pub fn standardize(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, ' ' | ',' | '.' | '/' | '-' | '_' | '*' | '^'))
        .flat_map(char::to_lowercase)
        .map(|c| if c == '\'' { '"' } else { c })
        .collect()
}

fn standardize_value(v: &Value) -> Value {
    match v {
        Value::String(s) => Value::String(standardize(s)),
        other => other.clone(),
    }
}

/// Python's `==` on decoded JSON values: numbers numerically (and `True == 1`), lists and dicts
/// element-wise.
pub fn py_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| py_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| py_eq(v, w)))
        }
        _ => match (as_number(a), as_number(b)) {
            (Some(x), Some(y)) => x.eq(&y),
            _ => false,
        },
    }
}

#[derive(PartialEq)]
enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    fn eq(&self, other: &Num) -> bool {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => a == b,
            (Num::Float(a), Num::Float(b)) => a == b,
            (Num::Int(i), Num::Float(f)) | (Num::Float(f), Num::Int(i)) => {
                f.fract() == 0.0 && f.is_finite() && *f == *i as f64 && (*f as i128) == *i
            }
        }
    }
}

fn as_number(v: &Value) -> Option<Num> {
    match v {
        Value::Bool(b) => Some(Num::Int(i128::from(*b))),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Some(Num::Int(i128::from(i)))
            } else if let Some(u) = n.as_u64() {
                Some(Num::Int(i128::from(u)))
            } else {
                n.as_f64().map(Num::Float)
            }
        }
        _ => None,
    }
}

/// BFCL's `string_checker`: the normalised string must equal a normalised allowed string.
fn string_check(param: &str, value: &Value, allowed: &[Value]) -> Result<(), Failure> {
    let s = standardize(value.as_str().unwrap_or_default());
    if allowed
        .iter()
        .filter_map(Value::as_str)
        .any(|a| standardize(a) == s)
    {
        Ok(())
    } else {
        Err(value_error(param, value, allowed))
    }
}

/// The elements of an allowed list value, as Python would iterate it (a string yields its chars).
fn iter_items(v: &Value) -> Vec<Value> {
    match v {
        Value::Array(a) => a.clone(),
        Value::String(s) => s.chars().map(|c| Value::String(c.to_string())).collect(),
        _ => Vec::new(),
    }
}

/// BFCL's `list_checker`: string elements normalised, then compared element-wise in order.
fn list_check(param: &str, value: &Value, allowed: &[Value]) -> Result<(), Failure> {
    let got: Vec<Value> = iter_items(value).iter().map(standardize_value).collect();
    let got = Value::Array(got);
    for option in allowed {
        let want = Value::Array(iter_items(option).iter().map(standardize_value).collect());
        if py_eq(&got, &want) {
            return Ok(());
        }
    }
    Err(value_error(param, value, allowed))
}

/// BFCL's `dict_checker`: every key must be known and its (normalised) value allowed; every key
/// not marked optional must be present.
fn dict_check(param: &str, value: &Value, allowed: &[Value]) -> Result<(), Failure> {
    let empty = Map::new();
    let got = value.as_object().unwrap_or(&empty);
    let mut last = Failure::new(
        FailureKind::WrongValue,
        format!("invalid value for '{param}': {value}"),
    );
    for option in allowed {
        if option.as_str() == Some("") {
            continue;
        }
        let Some(option) = option.as_object() else {
            continue;
        };
        match dict_matches(param, got, option) {
            Ok(()) => return Ok(()),
            Err(e) => last = e,
        }
    }
    Err(last)
}

fn dict_matches(
    param: &str,
    got: &Map<String, Value>,
    option: &Map<String, Value>,
) -> Result<(), Failure> {
    for (key, v) in got {
        let Some(allowed) = option.get(key) else {
            return Err(Failure::new(
                FailureKind::UnexpectedParameter,
                format!("unexpected key '{key}' in '{param}'"),
            ));
        };
        let sv = standardize_value(v);
        let ok = iter_items(allowed)
            .iter()
            .any(|a| py_eq(&sv, &standardize_value(a)));
        if !ok {
            return Err(Failure::new(
                FailureKind::WrongValue,
                format!("invalid value for '{param}.{key}': {v}; expected one of {allowed}"),
            ));
        }
    }
    for (key, allowed) in option {
        let optional = iter_items(allowed).iter().any(|a| a.as_str() == Some(""));
        if !got.contains_key(key) && !optional {
            return Err(Failure::new(
                FailureKind::MissingParameter,
                format!("missing key '{key}' in '{param}'"),
            ));
        }
    }
    Ok(())
}

/// BFCL's `list_dict_checker`: a list of dicts, each checked against the allowed list's dict at
/// the same position.
fn list_dict_check(param: &str, value: &Value, allowed: &[Value]) -> Result<(), Failure> {
    let got = iter_items(value);
    let mut last = Failure::new(
        FailureKind::WrongValue,
        format!("invalid value for '{param}': {value}"),
    );
    for option in allowed {
        let want = iter_items(option);
        if want.len() != got.len() {
            last = Failure::new(
                FailureKind::WrongValue,
                format!("wrong number of dicts in '{param}'"),
            );
            continue;
        }
        let all = got
            .iter()
            .zip(&want)
            .try_for_each(|(g, w)| dict_check(param, g, std::slice::from_ref(w)));
        match all {
            Ok(()) => return Ok(()),
            Err(e) => last = e,
        }
    }
    Err(last)
}
