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
    let mut stack = vec![Step::Value(v)];
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
                    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                    entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
                    for (i, (k, item)) in entries.into_iter().enumerate().rev() {
                        stack.push(Step::Value(item));
                        stack.push(Step::Key(k));
                        if i > 0 {
                            stack.push(Step::Text(","));
                        }
                    }
                }
            },
        }
    }
}

fn write_str(s: &str, out: &mut String) {
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
    fn strings_are_escaped() {
        assert_eq!(canonical(&json!({"a\"b": "x\ny"})), r#"{"a\"b":"x\ny"}"#);
    }
}
