//! Schema-guided coercion: walks the value beside the compiled schema and changes a value only
//! where the schema asks for something else, recording each change as a [`Coercion`].

use serde_json::{Map, Number, Value};

use super::check::{MAX_DEPTH, conforms, conforms_part, same_value};
use super::error::unknown_key_problem;
use super::node::{
    Additional, Compiled, Node, NodeId, ROOT, T_ANY, T_ARR, T_BOOL, T_INT, T_NULL, T_NUM, T_OBJ,
    T_STR, type_of,
};
use super::parse::push_escaped;
use super::{Coercion, CoercionKind, Policy, Problem, UnknownKeys};

/// Work budget for trying `anyOf` branches (each trial walks a copy of the value).
const FUEL: u32 = 100_000;

/// Coerces `value` in place against `c`; changes go to `coercions`, policy rejections to `problems`.
pub(crate) fn coerce(
    c: &Compiled,
    policy: &Policy,
    value: &mut Value,
    coercions: &mut Vec<Coercion>,
    problems: &mut Vec<Problem>,
) {
    let mut w = Walker {
        c,
        policy,
        out: std::mem::take(coercions),
        problems: std::mem::take(problems),
        fuel: FUEL,
    };
    let mut path = String::new();
    w.walk(value, ROOT, &mut path, 0, false);
    *coercions = w.out;
    *problems = w.problems;
}

/// One `anyOf` branch tried on a copy: (problems, cost, value, coercions, problems).
type Trial = (usize, u32, Value, Vec<Coercion>, Vec<Problem>);

struct Walker<'c> {
    c: &'c Compiled,
    policy: &'c Policy,
    out: Vec<Coercion>,
    problems: Vec<Problem>,
    fuel: u32,
}

impl Walker<'_> {
    fn record(&mut self, path: &str, kind: CoercionKind, cost: u32, original: Value) {
        self.out.push(Coercion {
            path: path.to_owned(),
            kind,
            cost,
            original,
        });
    }

    /// Coerces `v` against node `id`; `part` when the node is one part of the value's schema
    /// (an `allOf` part, a union branch), which leaves unknown keys to the whole.
    fn walk(&mut self, v: &mut Value, id: NodeId, path: &mut String, depth: usize, part: bool) {
        self.fuel = self.fuel.saturating_sub(1);
        if depth > MAX_DEPTH {
            self.problems.push(Problem {
                path: path.clone(),
                expected: format!("at most {MAX_DEPTH} levels of nesting"),
                received: "deeper nesting".into(),
                valid_values: None,
                fix: "flatten the arguments".into(),
            });
            return;
        }
        let c = self.c;
        let n = c.get(id);
        if n.never {
            return;
        }
        if !n.any_of.is_empty() {
            self.union(v, n, path, depth);
        }
        for &p in &n.all_of {
            self.walk(v, p, path, depth + 1, true);
        }
        self.fix_type(v, n, path);
        if n.enum_values.is_some() || n.const_value.is_some() {
            self.fix_enum(v, n, path);
        }
        match v {
            Value::Object(obj) => self.object(obj, n, path, depth, part),
            Value::Array(a) => {
                for (i, x) in a.iter_mut().enumerate() {
                    if let Some(items) = n.item_at(i) {
                        let len = path.len();
                        path.push('/');
                        path.push_str(&i.to_string());
                        self.walk(x, items, path, depth + 1, false);
                        path.truncate(len);
                    }
                }
            }
            _ => {}
        }
    }

    /// `anyOf`/`oneOf`: keep a branch the value already fits, else coerce a copy against each
    /// branch and keep the one with the fewest problems, then the lowest cost.
    fn union(&mut self, v: &mut Value, n: &Node, path: &mut String, depth: usize) {
        let c = self.c;
        if let Some(&b) = n
            .any_of
            .iter()
            .find(|&&b| conforms_part(c, v, b, depth + 1))
        {
            // Fits as is; walking it records nothing but keeps nested defaults consistent.
            self.walk(v, b, path, depth + 1, true);
            return;
        }
        if v.is_null() && n.any_of.iter().any(|&b| allows_null(c, b)) {
            return;
        }
        let mut best: Option<Trial> = None;
        for &b in &n.any_of {
            if self.fuel == 0 {
                break;
            }
            let mut trial = v.clone();
            let mut sub = Walker {
                c,
                policy: self.policy,
                out: Vec::new(),
                problems: Vec::new(),
                fuel: self.fuel,
            };
            sub.walk(&mut trial, b, path, depth + 1, true);
            self.fuel = sub.fuel;
            let bad =
                sub.problems.len() + usize::from(!conforms_part(c, &trial, b, depth + 1)) * 1000;
            let cost: u32 = sub.out.iter().map(|x| x.cost).sum();
            if best
                .as_ref()
                .is_none_or(|(bb, bc, ..)| (bad, cost) < (*bb, *bc))
            {
                best = Some((bad, cost, trial, sub.out, sub.problems));
            }
        }
        if let Some((bad, _, trial, out, problems)) = best
            && bad < 1000
        {
            *v = trial;
            self.out.extend(out);
            self.problems.extend(problems);
        }
    }

    /// Changes the value's type when the schema wants another one and a rule applies.
    fn fix_type(&mut self, v: &mut Value, n: &Node, path: &str) {
        if let Value::String(s) = v
            && n.types & T_ARR != 0
            && n.types & T_STR == 0
            && let Some(item) = numeric_items(self.c, n)
        {
            // A string for an array of numbers is a list of them, or not a value of the array
            // (wrapping "1, 2, three" would blame /0, a path the model never sent).
            let t = s.trim();
            let inner = t
                .strip_prefix('(')
                .and_then(|x| x.strip_suffix(')'))
                .map(str::trim);
            let list = inner.unwrap_or(t);
            let parse = |p: &str| {
                if item & T_NUM == 0 {
                    parse_integer(p).map(|x| x.0)
                } else {
                    parse_number(p).map(|x| x.0)
                }
            };
            if inner.is_some() || list.contains(',') {
                let parts: Option<Vec<Value>> = list
                    .split(',')
                    .map(|p| parse(p.trim()).map(Value::Number))
                    .collect();
                if let Some(parts) = parts {
                    let orig = std::mem::replace(v, Value::Array(parts));
                    let k = CoercionKind::SplitList;
                    self.record(path, k, k.cost(), orig);
                }
                return;
            }
            if parse(list).is_none() {
                return;
            }
        }
        // An unwrapped one-element array may need a second rule ("[\"5\"]" → "5" → 5).
        for _ in 0..3 {
            let want = n.types;
            if want == T_ANY || want & type_of(v) != 0 {
                return;
            }
            if !self.fix_type_once(v, want, path) {
                return;
            }
        }
    }

    fn fix_type_once(&mut self, v: &mut Value, want: u8, path: &str) -> bool {
        use CoercionKind as K;
        match v {
            Value::String(s) => {
                let t = s.trim();
                if want & (T_OBJ | T_ARR) != 0
                    && (t.starts_with('{') || t.starts_with('['))
                    && let Some(parsed) = parse_embedded(t, self.policy)
                    && want & type_of(&parsed) != 0
                {
                    let orig = std::mem::replace(v, parsed);
                    self.record(path, K::ParsedJsonString, K::ParsedJsonString.cost(), orig);
                    return true;
                }
                if want & T_INT != 0
                    && let Some((num, cost)) = parse_integer(t)
                {
                    // A whole number for a number field is still a number coercion.
                    let k = if want & T_NUM != 0 {
                        K::StringToNumber
                    } else {
                        K::StringToInteger
                    };
                    let orig = std::mem::replace(v, Value::Number(num));
                    self.record(path, k, cost, orig);
                    return true;
                }
                if want & T_NUM != 0
                    && let Some((num, cost)) = parse_number(t)
                {
                    let orig = std::mem::replace(v, Value::Number(num));
                    self.record(path, K::StringToNumber, cost, orig);
                    return true;
                }
                if want & T_INT != 0
                    && self.policy.round_floats
                    && let Some((num, _)) = parse_number(t)
                    && let Some(r) = round(&num)
                {
                    let orig = std::mem::replace(v, Value::Number(r));
                    self.record(path, K::FloatRounded, K::FloatRounded.cost(), orig);
                    return true;
                }
                if want & T_BOOL != 0
                    && let Some(b) = parse_bool(t)
                {
                    let orig = std::mem::replace(v, Value::Bool(b));
                    self.record(path, K::StringToBool, K::StringToBool.cost(), orig);
                    return true;
                }
                if want & T_NULL != 0 && matches!(t.to_ascii_lowercase().as_str(), "none" | "null")
                {
                    let orig = std::mem::replace(v, Value::Null);
                    self.record(path, K::StringToNull, K::StringToNull.cost(), orig);
                    return true;
                }
                if want & T_ARR != 0 {
                    return self.wrap(v, path);
                }
                false
            }
            Value::Number(num) => {
                if want & T_BOOL != 0
                    && want & (T_INT | T_NUM) == 0
                    && let Some(b) = num.as_f64().and_then(|x| match x {
                        1.0 => Some(true),
                        0.0 => Some(false),
                        _ => None,
                    })
                {
                    let orig = std::mem::replace(v, Value::Bool(b));
                    self.record(path, K::NumberToBool, K::NumberToBool.cost(), orig);
                    return true;
                }
                if want & T_INT != 0
                    && let Some(f) = num.as_f64()
                    && f.fract() == 0.0
                    && let Some(i) = integral(f)
                {
                    let orig = std::mem::replace(v, Value::Number(i));
                    self.record(path, K::IntegralFloat, K::IntegralFloat.cost(), orig);
                    return true;
                }
                if want & T_INT != 0
                    && self.policy.round_floats
                    && let Some(r) = round(num)
                {
                    let orig = std::mem::replace(v, Value::Number(r));
                    self.record(path, K::FloatRounded, K::FloatRounded.cost(), orig);
                    return true;
                }
                if want & T_STR != 0 {
                    let s = num.to_string();
                    let orig = std::mem::replace(v, Value::String(s));
                    self.record(path, K::NumberToString, K::NumberToString.cost(), orig);
                    return true;
                }
                if want & T_ARR != 0 {
                    return self.wrap(v, path);
                }
                false
            }
            Value::Bool(b) => {
                if want & T_STR != 0 {
                    let s = b.to_string();
                    let orig = std::mem::replace(v, Value::String(s));
                    self.record(path, K::BoolToString, K::BoolToString.cost(), orig);
                    return true;
                }
                if want & T_ARR != 0 {
                    return self.wrap(v, path);
                }
                false
            }
            Value::Array(a) => {
                if a.len() == 1 && want & T_ARR == 0 {
                    // Nested one-element arrays (`[[[5]]]`) unwrap in this one round, each level
                    // recorded, so the rounds left serve the rule the value then needs.
                    loop {
                        let inner = match v {
                            Value::Array(a) if a.len() == 1 => a[0].clone(),
                            _ => return true,
                        };
                        let orig = std::mem::replace(v, inner);
                        self.record(path, K::UnwrappedArray, K::UnwrappedArray.cost(), orig);
                    }
                }
                false
            }
            Value::Object(_) => want & T_ARR != 0 && self.wrap(v, path),
            Value::Null => false,
        }
    }

    fn wrap(&mut self, v: &mut Value, path: &str) -> bool {
        let inner = std::mem::take(v);
        *v = Value::Array(vec![inner.clone()]);
        let k = CoercionKind::WrappedInArray;
        self.record(path, k, k.cost(), inner);
        true
    }

    /// Matches a string against `enum`/`const` by case, whitespace, folding and unique prefix
    /// (and by substring when the policy allows it).
    fn fix_enum(&mut self, v: &mut Value, n: &Node, path: &str) {
        let single;
        let values: &[Value] = match (&n.enum_values, &n.const_value) {
            (Some(e), _) => e,
            (None, Some(k)) => {
                single = [k.clone()];
                &single
            }
            (None, None) => return,
        };
        if values.iter().any(|x| same_value(x, v)) {
            return;
        }
        let Value::String(s) = v else { return };
        let Some((m, kind)) = match_enum(s, values, self.policy.enum_substring) else {
            return;
        };
        let orig = std::mem::replace(v, m);
        self.record(path, kind, kind.cost(), orig);
    }

    /// The default of property `pid`, made to fit the property's own schema by the rules a value
    /// the model sent goes through (BFCL writes `"default": "false"` for a boolean); `None` when
    /// there is none or it cannot be made to fit (`"The current year"` for an integer): then the
    /// field is left out rather than filled with a value the validator would blame on the model.
    fn usable_default(&mut self, pid: NodeId, path: &mut String, depth: usize) -> Option<Value> {
        let c = self.c;
        let mut d = c.get(pid).default.clone()?;
        if conforms(c, &d, pid, depth + 1) {
            return Some(d);
        }
        let mut sub = Walker {
            c,
            policy: self.policy,
            out: Vec::new(),
            problems: Vec::new(),
            fuel: self.fuel,
        };
        sub.walk(&mut d, pid, path, depth + 1, false);
        self.fuel = sub.fuel;
        (sub.problems.is_empty() && conforms(c, &d, pid, depth + 1)).then_some(d)
    }

    /// An optional field that is missing (or was dropped) gets its declared default, made to fit
    /// ([`Self::usable_default`]), recorded as `missing_to_default`.
    fn default_missing(
        &mut self,
        obj: &mut Map<String, Value>,
        name: &str,
        pid: NodeId,
        path: &mut String,
        depth: usize,
    ) {
        if self.c.get(pid).default.is_some()
            && let Some(d) = self.usable_default(pid, path, depth)
        {
            obj.insert(name.to_owned(), d);
            let k = CoercionKind::MissingToDefault;
            self.record(path, k, k.cost(), Value::Null);
        }
    }

    fn object(
        &mut self,
        obj: &mut Map<String, Value>,
        n: &Node,
        path: &mut String,
        depth: usize,
        part: bool,
    ) {
        let c = self.c;
        // Keys no schema of the object declares: fold or correct their names, else drop or
        // reject (once, by the whole schema, not by each part). One pass that rebuilds the map,
        // so dropping many keys stays linear (removing them one by one shifts the rest each time).
        if !part
            && (n.keys_closed || matches!(n.additional, Additional::Schema(_)))
            && obj.keys().any(|k| !n.known_keys.contains(k))
        {
            // Which declared keys are already present (a rename may only go to a free one).
            let mut taken: Vec<bool> = n.known_keys.iter().map(|k| obj.contains_key(k)).collect();
            let old = std::mem::take(obj);
            for (key, mut x) in old {
                if n.known_keys.contains(&key) {
                    obj.insert(key, x);
                    continue;
                }
                if let Additional::Schema(s) = n.additional {
                    let len = path.len();
                    path.push('/');
                    push_escaped(path, &key);
                    self.walk(&mut x, s, path, depth + 1, false);
                    path.truncate(len);
                    obj.insert(key, x);
                    continue;
                }
                if let Some((i, kind)) = match_key(&key, n, &taken) {
                    taken[i] = true;
                    let target = n.known_keys[i].clone();
                    let mut p = path.clone();
                    p.push('/');
                    push_escaped(&mut p, &target);
                    obj.insert(target, x);
                    self.record(&p, kind, kind.cost(), Value::String(key));
                    continue;
                }
                match self.policy.unknown_keys {
                    UnknownKeys::Drop => {
                        let mut p = path.clone();
                        p.push('/');
                        push_escaped(&mut p, &key);
                        let k = CoercionKind::UnknownKeyDropped;
                        self.record(&p, k, k.cost(), x);
                    }
                    UnknownKeys::Reject => {
                        self.problems.push(unknown_key_problem(Some(n), path, &key));
                        obj.insert(key, x);
                    }
                }
            }
        }
        for (name, pid) in &n.props {
            let len = path.len();
            path.push('/');
            push_escaped(path, name);
            let required = n.required.iter().any(|r| r == name);
            match obj.get_mut(name) {
                Some(x) if x.is_null() && !allows_null(c, *pid) => {
                    if let Some(d) = self.usable_default(*pid, path, depth) {
                        if let Some(x) = obj.get_mut(name) {
                            *x = d;
                        }
                        let k = CoercionKind::NullToDefault;
                        self.record(path, k, k.cost(), Value::Null);
                    } else if !required {
                        obj.shift_remove(name);
                        let k = CoercionKind::NullDropped;
                        self.record(path, k, k.cost(), Value::Null);
                    }
                }
                Some(x) if !required && c.get(*pid).types & T_OBJ == 0 && is_schema_echo(x) => {
                    let original = obj.shift_remove(name).unwrap_or(Value::Null);
                    let k = CoercionKind::SchemaEchoDropped;
                    self.record(path, k, k.cost(), original);
                    self.default_missing(obj, name, *pid, path, depth);
                }
                Some(x) => self.walk(x, *pid, path, depth + 1, false),
                None if !required => self.default_missing(obj, name, *pid, path, depth),
                None => {}
            }
            path.truncate(len);
        }
    }
}

/// JSON Schema keywords a model echoing a parameter's schema writes (see
/// [`CoercionKind::SchemaEchoDropped`]).
const SCHEMA_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "format",
    "default",
    "enum",
    "const",
    "title",
    "examples",
    "example",
    "items",
    "properties",
    "required",
    "additionalProperties",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "pattern",
    "nullable",
];

/// A value that restates a schema instead of being a value: a non-empty object whose keys are
/// all JSON Schema keywords, with a string (or list) `type` or a string `description`.
fn is_schema_echo(v: &Value) -> bool {
    let Value::Object(o) = v else {
        return false;
    };
    !o.is_empty()
        && o.keys().all(|k| SCHEMA_KEYWORDS.contains(&k.as_str()))
        && (matches!(o.get("type"), Some(Value::String(_) | Value::Array(_)))
            || matches!(o.get("description"), Some(Value::String(_))))
}

/// The item types of an array node whose every element must be a number or an integer (and
/// nothing else); `None` for any other array.
fn numeric_items(c: &Compiled, n: &Node) -> Option<u8> {
    if !n.prefix_items.is_empty() {
        return None;
    }
    let t = c.get(n.items?).types & !T_NULL;
    (t != 0 && t & !(T_INT | T_NUM) == 0).then_some(t)
}

/// True when node `id` accepts `null`.
pub(crate) fn allows_null(c: &Compiled, id: NodeId) -> bool {
    let n = c.get(id);
    if n.never {
        return false;
    }
    let by_type = n.types & T_NULL != 0;
    let by_enum = n
        .enum_values
        .as_ref()
        .is_none_or(|e| e.contains(&Value::Null));
    let by_branch = n.any_of.is_empty() || n.any_of.iter().any(|&b| allows_null(c, b));
    by_type && by_enum && by_branch && n.all_of.iter().all(|&p| allows_null(c, p))
}

/// Parses a string that holds a JSON object or array (repairing it if needed). A repair that
/// would drop text (prose after the value, a stray word: `"[WIP] fix bug"`) means the string is
/// text that only starts with a bracket, not JSON: `None`.
fn parse_embedded(t: &str, policy: &Policy) -> Option<Value> {
    use crate::repair::FixKind;
    if let Ok((v, _)) = super::parse::parse(t, policy.duplicate_keys) {
        return Some(v);
    }
    let r = crate::repair::repair(t).ok()?;
    if r.fixes
        .iter()
        .any(|f| matches!(f.kind, FixKind::StrippedWrapper | FixKind::DroppedGarbage))
    {
        return None;
    }
    super::parse::parse(&r.text, policy.duplicate_keys)
        .ok()
        .map(|(v, _)| v)
}

/// `"5"` (cost 1), `"1,234"`, `"5.0"`, `"1e3"` (cost 2) → an integer.
pub(crate) fn parse_integer(t: &str) -> Option<(Number, u32)> {
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() {
        return None;
    }
    if digits.bytes().all(|b| b.is_ascii_digit()) {
        let clean = t.strip_prefix('+').unwrap_or(t);
        if let Ok(i) = clean.parse::<i64>() {
            return Some((i.into(), 1));
        }
        if let Ok(u) = clean.parse::<u64>() {
            return Some((u.into(), 1));
        }
        return None;
    }
    if is_grouped(digits) {
        let clean: String = t.chars().filter(|&ch| ch != ',' && ch != '+').collect();
        return clean.parse::<i64>().ok().map(|i| (i.into(), 2));
    }
    if let Some((whole, fraction)) = digits.split_once('.')
        && !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && !fraction.is_empty()
        && fraction.bytes().all(|b| b == b'0')
    {
        // "5.0", "5.00": the whole part, exactly (not through f64). "1.000" is one thousand in
        // German notation: ambiguous, so not an integer.
        if fraction.len() == 3 {
            return None;
        }
        let sign = if t.starts_with('-') { "-" } else { "" };
        let (n, _) = parse_integer(&format!("{sign}{whole}"))?;
        return Some((n, 2));
    }
    let (num, _) = parse_number(t)?;
    let f = num.as_f64()?;
    // Read through f64 (an exponent): exact only below 2^53.
    if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 {
        return integral(f).map(|n| (n, 2));
    }
    None
}

/// `"2.5"`, `"-3"`, `"1e-3"` (cost 1), `"1,234.5"` (cost 2) → a number. No `inf`, `nan` or hex.
pub(crate) fn parse_number(t: &str) -> Option<(Number, u32)> {
    let body = t.strip_prefix(['-', '+']).unwrap_or(t);
    if body.is_empty()
        || !body.starts_with(|ch: char| ch.is_ascii_digit() || ch == '.')
        || !body
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+' | b','))
    {
        return None;
    }
    let (clean, cost) = if body.contains(',') {
        let int_part = body.split('.').next().unwrap_or("");
        if !is_grouped(int_part) {
            return None;
        }
        (t.replace([',', '+'], ""), 2)
    } else {
        (t.strip_prefix('+').unwrap_or(t).to_owned(), 1)
    };
    if !clean.contains(['.', 'e', 'E'])
        && let Ok(i) = clean.parse::<i64>()
    {
        return Some((i.into(), cost));
    }
    let f = clean.parse::<f64>().ok()?;
    // "1e-400" underflows to 0 without being zero.
    let mantissa = clean.split(['e', 'E']).next().unwrap_or("");
    if f == 0.0 && mantissa.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
        return None;
    }
    Number::from_f64(f).map(|n| (n, cost))
}

/// `1,234,567`: groups of three digits after a 1–3 digit head.
fn is_grouped(d: &str) -> bool {
    let mut parts = d.split(',');
    let Some(head) = parts.next() else {
        return false;
    };
    let mut n = 0;
    if head.is_empty() || head.len() > 3 || !head.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    for p in parts {
        n += 1;
        if p.len() != 3 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
    }
    n > 0
}

/// An integral `f64` as an integer `Number`, if it is exactly representable.
fn integral(f: f64) -> Option<Number> {
    const LIMIT: f64 = 9_007_199_254_740_992.0; // 2^53: beyond it f64 is not exact
    if f.fract() != 0.0 || f.abs() > LIMIT {
        return None;
    }
    #[allow(clippy::cast_possible_truncation)]
    let i = f as i64;
    Some(i.into())
}

fn round(num: &Number) -> Option<Number> {
    integral(num.as_f64()?.round())
}

/// `true`/`yes`/`y`/`on`/`1` and `false`/`no`/`n`/`off`/`0`, any case.
pub(crate) fn parse_bool(t: &str) -> Option<bool> {
    match t.to_ascii_lowercase().as_str() {
        "true" | "yes" | "y" | "on" | "1" => Some(true),
        "false" | "no" | "n" | "off" | "0" => Some(false),
        _ => None,
    }
}

/// Lowercase with `_`, `-`, `.` and whitespace removed: `In-Progress` and `in_progress` agree.
pub(crate) fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '_' | '-' | '.') && !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The enum value `s` most safely stands for, and how it was matched.
pub(crate) fn match_enum(
    s: &str,
    values: &[Value],
    substring: bool,
) -> Option<(Value, CoercionKind)> {
    let strs = || values.iter().filter_map(|v| v.as_str().map(|x| (x, v)));
    let unique = |mut it: Box<dyn Iterator<Item = &Value> + '_>| -> Option<Value> {
        let first = it.next()?;
        if it.next().is_some() {
            return None;
        }
        Some(first.clone())
    };
    let collapsed: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed != s
        && let Some(v) = unique(Box::new(
            strs().filter(|(x, _)| *x == collapsed).map(|p| p.1),
        ))
    {
        return Some((v, CoercionKind::EnumWhitespace));
    }
    let lower = collapsed.to_lowercase();
    if let Some(v) = unique(Box::new(
        strs()
            .filter(|(x, _)| x.to_lowercase() == lower)
            .map(|p| p.1),
    )) {
        return Some((v, CoercionKind::EnumCase));
    }
    let f = fold(s);
    if f.is_empty() {
        return None;
    }
    if let Some(v) = unique(Box::new(strs().filter(|(x, _)| fold(x) == f).map(|p| p.1))) {
        return Some((v, CoercionKind::EnumFolded));
    }
    if let Some(v) = unique(Box::new(
        strs().filter(|(x, _)| fold(x).starts_with(&f)).map(|p| p.1),
    )) {
        return Some((v, CoercionKind::EnumPrefix));
    }
    if substring
        && let Some(v) = unique(Box::new(
            strs()
                .filter(|(x, _)| {
                    let fx = fold(x);
                    !fx.is_empty() && (fx.contains(&f) || f.contains(&fx))
                })
                .map(|p| p.1),
        ))
    {
        return Some((v, CoercionKind::EnumSubstring));
    }
    None
}

/// The declared property a key most likely meant, by case, folding, or a close misspelling: its
/// index in [`Node::known_keys`] (ignoring the properties `taken` marks as already present).
fn match_key<'n>(key: &str, n: &'n Node, taken: &[bool]) -> Option<(usize, CoercionKind)> {
    let free = || {
        n.known_keys
            .iter()
            .zip(taken)
            .filter(|(_, t)| !**t)
            .map(|(k, _)| k.as_str())
    };
    let one = |mut it: Box<dyn Iterator<Item = &'n str> + '_>| -> Option<&'n str> {
        let first = it.next()?;
        it.next().is_none().then_some(first)
    };
    let lower = key.to_lowercase();
    let (k, kind) = if let Some(k) = one(Box::new(free().filter(|k| k.to_lowercase() == lower))) {
        (k, CoercionKind::KeyCase)
    } else {
        let f = fold(key);
        match one(Box::new(free().filter(|k| fold(k) == f))) {
            Some(k) => (k, CoercionKind::KeyFolded),
            None => (misspelling(key, free())?, CoercionKind::KeyMisspelled),
        }
    };
    let i = n.known_keys.iter().position(|x| x == k)?;
    Some((i, kind))
}

/// The unique candidate within a small edit distance of `key` (1 for short names, 2 for long),
/// by [`near`], whose edits also stay inside words: a key is renamed only for a typo, never for a
/// whole word replaced (`min_price` is not `max_price`, `point_x` is not `point_y`).
fn misspelling<'n>(key: &str, candidates: impl Iterator<Item = &'n str>) -> Option<&'n str> {
    near(key, candidates).filter(|cand| typo_inside_words(&fold(key), cand))
}

/// The unique candidate within a small edit distance of `key` (1 for short names, 2 for long),
/// whatever words the edits touch: good enough for a did-you-mean, not for a silent rename.
fn near<'n>(key: &str, candidates: impl Iterator<Item = &'n str>) -> Option<&'n str> {
    let f = fold(key);
    let f_len = f.chars().count();
    let mut best: Option<(usize, &'n str)> = None;
    let mut tie = false;
    for cand in candidates {
        let fc = fold(cand);
        let fc_len = fc.chars().count();
        let limit = match fc_len {
            0..=3 => 0,
            4..=7 => 1,
            _ => 2,
        };
        // The distance is at least the difference in length (and a long key costs nothing).
        if f_len.abs_diff(fc_len) > limit {
            continue;
        }
        let d = strsim::damerau_levenshtein(&f, &fc);
        if d == 0 || d > limit {
            continue;
        }
        match best {
            Some((bd, _)) if d > bd => {}
            Some((bd, _)) if d == bd => tie = true,
            _ => {
                best = Some((d, cand));
                tie = false;
            }
        }
    }
    if tie { None } else { best.map(|(_, k)| k) }
}

/// The words of a field name: split at `_`, `-`, `.`, spaces, a lower- to upper-case change and
/// a letter–digit change. Returns each character of the folded name ([`fold`]) with the index of
/// its word, and each word's length and whether it is a number.
fn words(name: &str) -> (Vec<char>, Vec<usize>, Vec<(usize, bool)>) {
    let (mut chars, mut word_of, mut words) = (Vec::new(), Vec::new(), Vec::<(usize, bool)>::new());
    let mut prev: Option<char> = None;
    for ch in name.chars() {
        if matches!(ch, '_' | '-' | '.') || ch.is_whitespace() {
            prev = None;
            continue;
        }
        let new_word = match prev {
            None => true,
            Some(p) => {
                (p.is_lowercase() && ch.is_uppercase())
                    || (p.is_ascii_digit() != ch.is_ascii_digit()
                        && p.is_alphanumeric()
                        && ch.is_alphanumeric())
            }
        };
        if new_word {
            words.push((0, true));
        }
        let w = words.len() - 1;
        for low in ch.to_lowercase() {
            chars.push(low);
            word_of.push(w);
            words[w].0 += 1;
        }
        words[w].1 &= ch.is_ascii_digit();
        prev = Some(ch);
    }
    (chars, word_of, words)
}

/// True when turning the folded key `f` into `cand` takes at most one edit in any one word of
/// `cand`, and none in a word of one or two letters or in a number (one optimal alignment,
/// Damerau's transposition counted as one edit).
fn typo_inside_words(f: &str, cand: &str) -> bool {
    let a: Vec<char> = f.chars().collect();
    let (b, word_of, words) = words(cand);
    let (n, m) = (a.len(), b.len());
    if m == 0 || n > 256 || m > 256 {
        return false;
    }
    let w = m + 1;
    let mut d = vec![0usize; (n + 1) * w];
    for i in 0..=n {
        for j in 0..=m {
            d[i * w + j] = if i == 0 || j == 0 {
                i + j
            } else {
                let sub = d[(i - 1) * w + j - 1] + usize::from(a[i - 1] != b[j - 1]);
                let mut best = sub.min(d[(i - 1) * w + j] + 1).min(d[i * w + j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    best = best.min(d[(i - 2) * w + j - 2] + 1);
                }
                best
            };
        }
    }
    // Walk one optimal alignment back, charging each edit to the word of `cand` it falls in.
    let mut edits = vec![0usize; words.len()];
    let (mut i, mut j) = (n, m);
    while i > 0 || j > 0 {
        let here = d[i * w + j];
        if i > 0 && j > 0 && a[i - 1] == b[j - 1] && here == d[(i - 1) * w + j - 1] {
            i -= 1;
            j -= 1;
            continue;
        }
        let word = word_of[j.saturating_sub(1)];
        edits[word] += 1;
        if i > 1
            && j > 1
            && a[i - 1] == b[j - 2]
            && a[i - 2] == b[j - 1]
            && here == d[(i - 2) * w + j - 2] + 1
        {
            i -= 2;
            j -= 2;
        } else if i > 0 && j > 0 && here == d[(i - 1) * w + j - 1] + 1 {
            i -= 1;
            j -= 1;
        } else if j > 0 && here == d[i * w + j - 1] + 1 {
            j -= 1;
        } else {
            i -= 1;
        }
    }
    edits
        .iter()
        .zip(&words)
        .all(|(&e, &(len, number))| e == 0 || (e == 1 && len >= 3 && !number))
}

/// The field name `key` probably meant (for did-you-mean in messages).
pub(crate) fn did_you_mean<'n>(key: &str, n: &'n Node) -> Option<&'n str> {
    let names = || n.known_keys.iter().map(String::as_str);
    let f = fold(key);
    names()
        .find(|k| fold(k) == f)
        .or_else(|| near(key, names()))
}

/// Takes back the defaults the full validator still rejects (a check coercion does not make,
/// such as a `format`): the model did not send them, so they must not become its problems. A
/// default filled into a missing field is taken out again; one that replaced a `null` leaves an
/// optional field out and puts the `null` back into a required one.
pub(crate) fn drop_unfit_defaults(
    c: &Compiled,
    validator: &jsonschema::Validator,
    value: &mut Value,
    coercions: &mut Vec<Coercion>,
) {
    use CoercionKind as K;
    let is_default = |x: &Coercion| {
        matches!(x.kind, K::MissingToDefault | K::NullToDefault) && !x.path.is_empty()
    };
    if !coercions.iter().any(is_default) {
        return;
    }
    let bad: Vec<String> = validator
        .iter_errors(value)
        .map(|e| e.instance_path().as_str().to_owned())
        .collect();
    let under = |p: &str, inside: &str| {
        p == inside || (p.starts_with(inside) && p.as_bytes().get(inside.len()) == Some(&b'/'))
    };
    let unfit: Vec<(String, CoercionKind)> = coercions
        .iter()
        .filter(|x| is_default(x) && bad.iter().any(|e| under(e, &x.path)))
        .map(|x| (x.path.clone(), x.kind))
        .collect();
    for (path, kind) in unfit {
        let Some((parent, last)) = path.rsplit_once('/') else {
            continue;
        };
        let name = last.replace("~1", "/").replace("~0", "~");
        let required = super::error::node_at(c, value, parent)
            .is_some_and(|n| c.get(n).required.contains(&name));
        let obj = if parent.is_empty() {
            Some(&mut *value)
        } else {
            value.pointer_mut(parent)
        };
        let Some(Value::Object(obj)) = obj else {
            continue;
        };
        coercions.retain(|x| !under(&x.path, &path));
        if kind == K::NullToDefault && required {
            obj.insert(name, Value::Null);
            continue;
        }
        obj.shift_remove(&name);
        if kind == K::NullToDefault {
            coercions.push(Coercion {
                path,
                kind: K::NullDropped,
                cost: K::NullDropped.cost(),
                original: Value::Null,
            });
        }
    }
}
