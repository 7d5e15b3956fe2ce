//! Regression: a streamed call whose envelope is complete is reported before the stream ends.
//!
//! While a long candidate grows, the stream checks it only now and then (so the work stays
//! linear); a close marker or balancing bracket that arrived during such a pause was passed over
//! and never looked at again, and the call came out only at `finish` (Kimi, DeepSeek and Mistral
//! v11 outputs in token-sized chunks). A `(` inside a Python `'…'` string also kept a call's
//! brackets from ever balancing.

use toolmend::extract::{Event, Options, StreamExtractor};

/// Outputs with one complete call followed by enough prose that the call must be out before the
/// end.
const OUTPUTS: &[&str] = &[
    "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\", \"unit\": \"celsius\"}<|tool_call_end|><|tool_calls_section_end|> I will check the weather in Paris for you and report back with the forecast shortly.",
    "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Paris\", \"unit\": \"celsius\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜> I will check the weather in Paris for you and report back with the forecast shortly.",
    "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\", \"unit\": \"celsius\", \"days\": 3} I will check the weather in Paris for you and report back with the forecast shortly.",
    "[send(msg='sorry :(', to='bob')] Done, the message is on its way and bob will read it soon enough.",
    // Close markers these formats may leave out.
    "<function_call> {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}} Thanks, I will check the weather in Paris for you and report back with the forecast.",
    "<|python_tag|>get_weather.call(city=\"Paris\") Thanks, I will check the weather in Paris for you and report back with the forecast shortly.",
    // Glaive: arguments as a single-quoted string, so the object is not strict JSON (E25).
    "<functioncall> {\"name\": \"get_weather\", \"arguments\": '{\"city\": \"Paris\"}'} \n\nFUNCTION RESPONSE: {\"temperature\": 20, \"unit\": \"C\"}\n\nThe weather in Paris is 20 degrees.",
];

/// Pushes `text` in chunks of `size` bytes (on char boundaries); true when a call event came
/// before the last chunk.
fn call_before_end(text: &str, size: usize) -> bool {
    let mut s = StreamExtractor::new(&Options::new());
    let mut cuts = vec![0];
    let mut at = 0;
    while at < text.len() {
        at = (at + size).min(text.len());
        while !text.is_char_boundary(at) {
            at += 1;
        }
        cuts.push(at);
    }
    let n = cuts.len() - 1;
    for (k, w) in cuts.windows(2).enumerate() {
        let events = s.push(&text[w[0]..w[1]]);
        if k + 1 < n && events.iter().any(|e| matches!(e, Event::Call(_))) {
            return true;
        }
    }
    false
}

#[test]
fn a_complete_call_is_reported_before_the_stream_ends() {
    let mut late = Vec::new();
    for text in OUTPUTS {
        for size in 1..=12 {
            if !call_before_end(text, size) {
                late.push(format!("chunks of {size}: {text}"));
            }
        }
    }
    assert!(
        late.is_empty(),
        "calls held until the end:\n{}",
        late.join("\n")
    );
}
