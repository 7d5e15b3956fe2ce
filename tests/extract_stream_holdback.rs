//! Regression: with a tool list in auto mode, the stream released no prose until the first newline.
//!
//! The Functionary v3.2 check (an output whose first line is a known tool's name) ran on the still
//! empty text, where `""` is a prefix of every name, and then waited for a newline: a whole first
//! line of prose was held back (seen by `toolmend serve`'s hold-back test). Prose must come out as
//! soon as the first line can no longer be a tool name.

use serde_json::json;
use toolmend::extract::{Event, Options, StreamExtractor, ToolInfo};

fn released(tools: &[&str], deltas: &[&str]) -> Vec<String> {
    let tools = tools
        .iter()
        .map(|n| ToolInfo::new(*n, json!({"type": "object", "properties": {}})))
        .collect();
    let mut s = StreamExtractor::new(&Options::new().with_tools(tools));
    let mut out = String::new();
    deltas
        .iter()
        .map(|d| {
            for e in s.push(d) {
                if let Event::Content(c) = e {
                    out.push_str(&c);
                }
            }
            out.clone()
        })
        .collect()
}

#[test]
fn prose_on_the_first_line_is_released_before_any_newline() {
    let after = released(
        &["get_weather"],
        &["", "The", " weather", " in", " Paris", " is mild"],
    );
    let last = after.last().unwrap();
    assert!(
        last.starts_with("The weather in Paris"),
        "released only {last:?}"
    );
}

#[test]
fn a_first_line_that_can_still_be_a_tool_name_is_held() {
    let after = released(&["get_weather"], &["get_", "wea"]);
    assert_eq!(
        after.last().unwrap(),
        "",
        "a possible tool name was released"
    );
    let after = released(&["get_weather"], &["get_", "wea", "lth is fine"]);
    assert!(after.last().unwrap().starts_with("get_wea"), "{after:?}");
}
