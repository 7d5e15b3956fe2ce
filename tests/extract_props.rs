//! Properties of extraction: a valid call in any family's envelope, surrounded by arbitrary
//! prose, round-trips; prose without markers yields no call; any input (markers and fragments
//! mixed at random) never panics, keeps spans in bounds, and streams to the one-shot result; a
//! call wrapped in tags no family defines leaves no tag in the content, streamed or not.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolmend::extract::{Event, Options, StreamExtractor, ToolInfo, extract};

fn name() -> impl Strategy<Value = String> {
    "[a-z][a-z_]{0,11}"
}

/// Argument objects whose values read back the same from every envelope (strings of letters,
/// small integers, booleans).
fn args() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::btree_map(
        "[a-z][a-z_]{0,7}",
        prop_oneof![
            "[A-Za-z][A-Za-z ]{0,12}[A-Za-z]".prop_map(Value::String),
            (0i64..10_000).prop_map(|n| json!(n)),
            any::<bool>().prop_map(Value::Bool),
        ],
        0..4,
    )
    .prop_map(|m| m.into_iter().collect())
}

/// Prose with no marker characters.
fn prose() -> impl Strategy<Value = String> {
    "[A-Za-z0-9 ,.!?'\\n-]{0,60}"
}

fn py(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        other => other.to_string(),
    }
}

fn gemma(v: &Value) -> String {
    match v {
        Value::String(s) => format!("<|\"|>{s}<|\"|>"),
        other => other.to_string(),
    }
}

/// The call written in envelope `i`.
fn envelope(i: usize, n: &str, a: &Map<String, Value>) -> String {
    let j = Value::Object(a.clone()).to_string();
    let call = json!({"name": n, "arguments": a}).to_string();
    let kw = |f: &dyn Fn(&Value) -> String, sep: &str, eq: &str| {
        a.iter()
            .map(|(k, v)| format!("{k}{eq}{}", f(v)))
            .collect::<Vec<_>>()
            .join(sep)
    };
    let xml = |open: &dyn Fn(&str) -> String, close: &str| {
        a.iter()
            .map(|(k, v)| format!("{}{}{close}", open(k), raw(v)))
            .collect::<String>()
    };
    match i {
        0 => format!("<tool_call>\n{call}\n</tool_call>"),
        1 => format!(
            "<tool_call>\n<function={n}>\n{}</function>\n</tool_call>",
            xml(&|k| format!("<parameter={k}>\n"), "\n</parameter>\n")
        ),
        2 => format!(
            "<tool_call>{n}{}</tool_call>",
            xml(
                &|k| format!("<arg_key>{k}</arg_key><arg_value>"),
                "</arg_value>"
            )
        ),
        3 => format!(
            "<minimax:tool_call><invoke name=\"{n}\">{}</invoke></minimax:tool_call>",
            xml(&|k| format!("<parameter name=\"{k}\">"), "</parameter>")
        ),
        4 => format!(
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.{n}:0<|tool_call_argument_begin|>{j}<|tool_call_end|><|tool_calls_section_end|>"
        ),
        5 => format!(
            "<\u{ff5c}tool\u{2581}calls\u{2581}begin\u{ff5c}><\u{ff5c}tool\u{2581}call\u{2581}begin\u{ff5c}>{n}<\u{ff5c}tool\u{2581}sep\u{ff5c}>{j}<\u{ff5c}tool\u{2581}call\u{2581}end\u{ff5c}><\u{ff5c}tool\u{2581}calls\u{2581}end\u{ff5c}>"
        ),
        6 => format!(
            "<|tool_call>call:{n}{{{}}}<tool_call|>",
            kw(&gemma, ",", ":")
        ),
        7 => format!(
            "<|tool_call_start|>[{n}({})]<|tool_call_end|>",
            kw(&py, ", ", "=")
        ),
        8 => format!("[TOOL_CALLS]{n}[ARGS]{j}"),
        9 => format!("[TOOL_CALLS][{call}]"),
        10 => format!("<TOOLCALL>[{call}]</TOOLCALL>"),
        11 => format!("<|tools_prefix|>[{{\"{n}\": {j}}}]<|tools_suffix|>"),
        12 => format!(
            "<|START_ACTION|>[{}]<|END_ACTION|>",
            json!({"tool_call_id": "0", "tool_name": n, "parameters": a})
        ),
        13 => format!("<longcat_tool_call>{call}</longcat_tool_call>"),
        14 => format!(
            "<seed:tool_call><function={n}>{}</function></seed:tool_call>",
            xml(&|k| format!("<parameter={k}>"), "</parameter>")
        ),
        15 => format!(" {call} "),
        16 => format!("\n```json\n{call}\n```\n"),
        17 => format!("\n```tool_code\n{n}({})\n```\n", kw(&py, ", ", "=")),
        18 => format!("\nAction: {n}\nAction Input: {j}\n\n"),
        19 => format!(
            "<function_calls>{n}({})</function_calls>",
            kw(&py, ", ", "=")
        ),
        _ => format!("<function={n}>{j}</function>"),
    }
}

fn raw(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The text without any whitespace (envelopes may bring or take line breaks).
fn squash(s: &str) -> String {
    s.split_whitespace().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn call_in_any_envelope_round_trips(i in 0usize..21, n in name(), a in args(), pre in prose(), post in prose()) {
        let text = format!("{pre}{}{post}", envelope(i, &n, &a));
        let x = extract(&text, &Options::default());
        prop_assert_eq!(x.calls.len(), 1, "envelope {} in {:?}: {:?}", i, text, x);
        prop_assert_eq!(&x.calls[0].name, &n);
        prop_assert_eq!(x.calls[0].arguments.as_ref().unwrap(), &Value::Object(a.clone()), "envelope {} in {:?}", i, text);
        prop_assert_eq!(squash(&x.content), squash(&format!("{pre}{post}")), "envelope {} in {:?}", i, text);
        let s = &x.calls[0].span;
        prop_assert!(s.start >= pre.len() && s.end <= text.len() - post.len(), "span {:?} in {:?}", s, text);
    }

    #[test]
    fn call_in_a_wrapper_tag_leaves_no_tag_in_content(
        i in 0usize..6, n in name(), a in args(), pre in prose(), post in prose(),
        gap in "[ \n]{0,3}", chunk in 1usize..9,
    ) {
        let (open, close) = [
            ("<tool_call >", "</tool_call >"), ("<TOOL_CALL>", "</TOOL_CALL>"), ("<toolcall>", "</toolcall>"),
            ("[TOOL_CALL]", "[/TOOL_CALL]"), ("<function>", "</function>"), ("<tool_call/>", ""),
        ][i];
        let call = json!({"name": n, "arguments": a}).to_string();
        let text = format!("{pre} {open}{gap}{call}{gap}{close}\n{post}");
        let x = extract(&text, &Options::default());
        prop_assert_eq!(x.calls.len(), 1, "{:?}: {:?}", text, x);
        prop_assert_eq!(squash(&x.content), squash(&format!("{pre}{post}")), "{:?}", text);
        let mut st = StreamExtractor::new(&Options::default());
        let mut shown = String::new();
        let mut at = 0;
        while at < text.len() {
            let mut j = (at + chunk).min(text.len());
            while !text.is_char_boundary(j) { j += 1; }
            for e in st.push(&text[at..j]) {
                if let Event::Content(c) = e { shown.push_str(&c); }
            }
            at = j;
        }
        let (events, end) = st.finish_with_events();
        for e in events {
            if let Event::Content(c) = e { shown.push_str(&c); }
        }
        prop_assert_eq!(shown.trim(), end.content.as_str(), "{:?}", text);
        prop_assert_eq!(end, x);
    }

    #[test]
    fn prose_without_markers_yields_no_call(p in "[^<>{}\\[\\]|`:=\u{ff5c}]{0,200}") {
        let x = extract(&p, &Options::default());
        prop_assert!(x.calls.is_empty() && x.rejected.is_empty());
        prop_assert_eq!(x.content, p.trim());
    }

    #[test]
    fn any_input_streams_to_the_one_shot_result(
        parts in prop::collection::vec(prop_oneof![
            Just("<tool_call>".to_owned()), Just("</tool_call>".to_owned()), Just("<think>".to_owned()),
            Just("</think>".to_owned()), Just("{\"name\": \"f\", \"arguments\": {".to_owned()), Just("}".to_owned()),
            Just("[TOOL_CALLS]".to_owned()), Just("<|tool_call>call:f{".to_owned()), Just("<|\"|>".to_owned()),
            Just("```".to_owned()), Just("<function=f>".to_owned()), Just("<parameter=a>".to_owned()),
            Just("[f(a=".to_owned()), Just("<|channel|>".to_owned()), Just("<|message|>".to_owned()),
            Just("\u{ff5c}".to_owned()), Just("<tool_response>".to_owned()),
            Just("</tool_response>".to_owned()), Just(", \"x\": 1}".to_owned()), Just("`".to_owned()), Just("```json ".to_owned()), ".{0,6}",
            Just("<tool_call >".to_owned()), Just("</TOOL_CALL >".to_owned()), Just("[/tool_call]".to_owned()),
            Just("<b>".to_owned()), Just("\n".to_owned()), Just("<tool".to_owned()),
            Just("read".to_owned()), Just("(path='a')".to_owned()), Just("({\"path\": \"a\"})".to_owned()),
            Just("- ".to_owned()), Just("1. ".to_owned()), Just("rea".to_owned()),
            Just("{\"name\": \"read\", \"path\": \"a\"}".to_owned()), Just("{\"read\": ".to_owned()),
            Just("{\"path\": \"a\"}".to_owned()), Just("{\"tool\": \"read\"".to_owned()),
            Just("<function>".to_owned()), Just("[TOOL_CALL] ".to_owned()), Just("</function>".to_owned()),
            Just("(\"a\")".to_owned()), Just("(3".to_owned()), Just("\"arguments\": \"a\"}".to_owned()),
            Just("{\"name\": \"read\", \"arguments\": {\"path\": 5m}}".to_owned()), Just(", {\"type\": 1}".to_owned()),
        ], 0..12),
        chunk in 1usize..9,
        prefilled in any::<bool>(),
        tools in any::<bool>(),
    ) {
        let text: String = parts.concat();
        let mut opts = Options::default().with_think_prefilled(prefilled);
        if tools {
            let read = ToolInfo::new("read", json!({"type": "object", "properties": {"path": {"type": "string"}}}));
            opts = opts.with_tools(vec![read]);
        }
        let one = extract(&text, &opts);
        for s in one.calls.iter().map(|c| &c.span).chain(one.rejected.iter().map(|r| &r.span)) {
            prop_assert!(s.end <= text.len() && text.is_char_boundary(s.start) && text.is_char_boundary(s.end));
        }
        let mut st = StreamExtractor::new(&opts);
        let mut i = 0;
        while i < text.len() {
            let mut j = (i + chunk).min(text.len());
            while !text.is_char_boundary(j) { j += 1; }
            let _ = st.push(&text[i..j]);
            i = j;
        }
        prop_assert_eq!(st.finish(), one, "{:?}", text);
    }
}
