//! Canonical JSON text of argument values: object keys sorted, no whitespace. Two calls with the
//! same canonical arguments are the same call (for memo, duplicate detection and retry budgets).
//! Written with an explicit stack, so any depth of nesting is handled without recursion.

use std::fmt::Write;

use serde_json::Value;

enum Step<'a> {
    Value(&'a Value),
    Text(&'static str),
    Key(&'a str),
}

/// Appends the canonical text of `v` to `out`.
pub fn write_canonical(v: &Value, out: &mut String) {
    let mut stack = Vec::with_capacity(32);
    stack.push(Step::Value(v));
    while let Some(step) = stack.pop() {
        match step {
            Step::Text(t) => out.push_str(t),
            Step::Key(k) => {
                write_str(k, out);
                out.push(':');
            }
            Step::Value(v) => match v {
                Value::Null => out.push_str("null"),
                Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                Value::Number(n) => {
                    let _ = write!(out, "{n}");
                }
                Value::String(s) => write_str(s, out),
                Value::Array(items) => {
                    out.push('[');
                    stack.push(Step::Text("]"));
                    for (i, item) in items.iter().enumerate().rev() {
                        stack.push(Step::Value(item));
                        if i > 0 {
                            stack.push(Step::Text(","));
                        }
                    }
                }
                Value::Object(map) => {
                    out.push('{');
                    stack.push(Step::Text("}"));
                    if map.len() > SMALL {
                        let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                        entries.sort_unstable_by(|a, b| b.0.cmp(a.0));
                        for (k, item) in entries {
                            stack.push(Step::Value(item));
                            stack.push(Step::Key(k));
                            stack.push(Step::Text(","));
                        }
                    } else {
                        let start = stack.len();
                        for (k, item) in map {
                            stack.push(Step::Value(item));
                            stack.push(Step::Key(k));
                            stack.push(Step::Text(","));
                        }
                        sort_entries(&mut stack[start..]);
                    }
                    // Entries pop in ascending key order; the first has no comma before it.
                    if !map.is_empty() {
                        stack.pop();
                    }
                }
            },
        }
    }
}

/// Objects up to this many keys are sorted in place on the stack, without allocating.
const SMALL: usize = 16;

/// Sorts `[Value, Key, ","]` triples by descending key, so that popping yields ascending keys.
fn sort_entries<'a>(steps: &mut [Step<'a>]) {
    fn key<'a>(chunk: &[Step<'a>]) -> &'a str {
        match chunk.get(1) {
            Some(Step::Key(k)) => k,
            _ => "",
        }
    }
    let n = steps.len() / 3;
    // Insertion sort on triples: argument objects are small, and this needs no allocation.
    for i in 1..n {
        let mut j = i;
        while j > 0 && key(&steps[(j - 1) * 3..j * 3]) < key(&steps[j * 3..(j + 1) * 3]) {
            for t in 0..3 {
                steps.swap((j - 1) * 3 + t, j * 3 + t);
            }
            j -= 1;
        }
    }
}

fn write_str(s: &str, out: &mut String) {
    if !s.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) {
        // Nothing to escape (the usual case): copy it as is.
        out.reserve(s.len() + 2);
        out.push('"');
        out.push_str(s);
        out.push('"');
        return;
    }
    // serde_json's string escaping, without building a Value.
    match serde_json::to_string(s) {
        Ok(q) => out.push_str(&q),
        Err(_) => out.push_str("\"\""),
    }
}

/// The canonical text of `v`.
pub fn canonical(v: &Value) -> String {
    let mut s = String::new();
    write_canonical(v, &mut s);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_order_does_not_matter() {
        let a = json!({"b": 1, "a": [true, null, {"y": "z", "x": 1.5}]});
        let b: Value =
            serde_json::from_str(r#"{"a":[true,null,{"x":1.5,"y":"z"}],"b":1}"#).unwrap();
        assert_eq!(canonical(&a), canonical(&b));
        assert_eq!(
            canonical(&a),
            r#"{"a":[true,null,{"x":1.5,"y":"z"}],"b":1}"#
        );
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let mut v = json!(1);
        for _ in 0..100_000 {
            v = Value::Array(vec![v]);
        }
        let s = canonical(&v);
        assert_eq!(s.len(), 200_001);
        // Dropping a deep Value recurses inside serde_json; unwind it by hand.
        let mut cur = v;
        while let Value::Array(mut items) = cur {
            cur = items.pop().unwrap_or(Value::Null);
        }
    }

    #[test]
    fn small_large_and_empty_objects_sort_the_same_way() {
        assert_eq!(canonical(&json!({})), "{}");
        assert_eq!(canonical(&json!({"a": {}, "b": []})), r#"{"a":{},"b":[]}"#);
        for n in [2usize, 3, 16, 17, 40] {
            let mut m = serde_json::Map::new();
            for i in (0..n).rev() {
                m.insert(format!("k{i:03}"), json!(i));
            }
            let want: Vec<String> = (0..n).map(|i| format!(r#""k{i:03}":{i}"#)).collect();
            assert_eq!(
                canonical(&Value::Object(m)),
                format!("{{{}}}", want.join(",")),
                "{n}"
            );
        }
    }

    #[test]
    fn strings_are_escaped() {
        assert_eq!(canonical(&json!({"a\"b": "x\ny"})), r#"{"a\"b":"x\ny"}"#);
        assert_eq!(
            canonical(&json!(["\\", "\u{1}", "é"])),
            r#"["\\","\u0001","é"]"#
        );
    }
}
