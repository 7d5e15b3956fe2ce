//! The messages the loop writes to the model: corrective messages that show one concrete valid
//! call unless the failure already says exactly what to send (small models copy the example they
//! are given), the firmer message for a failing
//! call repeated unchanged, the note on a repeated call answered from its earlier result, and the
//! "N turns left" nudge. Also the canonical form used to recognise identical calls.

use serde_json::Value;

use crate::decode::error::{CORRECTED_LINE as CORRECTED, KEEP_LINE};
use crate::tools::canon::write_canonical;

use super::toolbox::{Args, CallFailure};

/// The identity of a call for recognising repeats: the name and the arguments with object keys
/// sorted (so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same call). Text arguments that parse
/// as JSON count as that JSON.
#[must_use]
pub fn call_key(name: &str, args: &Args) -> String {
    let value = match args {
        Args::Value(v) => v.clone(),
        Args::Text(t) => serde_json::from_str(t).unwrap_or_else(|_| Value::String(t.clone())),
    };
    let mut out = String::with_capacity(name.len() + 32);
    out.push_str(name);
    out.push('\u{0}');
    write_canonical(&value, &mut out);
    out
}

/// The failure kind the dispatch path gives a change already made: an identical call of a tool
/// that is not idempotent succeeded and nothing it touched changed since
/// ([`crate::tools::FailureKind::AlreadyDone`]).
pub const ALREADY_DONE: &str = "already_done";

/// The failure kind of a call refused because it copies the example call's values (see
/// [`example_copied`]).
pub const EXAMPLE_COPIED: &str = "example_copied";

/// The failure kind of a call of a tool that changes things which sent a field's name as a
/// value (`{"content": "new_text"}`): not run (see [`placeholder_value`]).
pub const PLACEHOLDER_VALUE: &str = "placeholder_value";

/// The message for a call of `name` not run because the value of its `field` is `value`, the
/// name of a field of a tool's arguments, not a value of the task's.
///
/// ```
/// use toolmend::agent::correct::placeholder_value;
/// assert!(placeholder_value("write", "content", "new_text")
///     .starts_with("This `write` call was not run: `new_text`, the value of `content`, is the name of a field"));
/// ```
#[must_use]
pub fn placeholder_value(name: &str, field: &str, value: &str) -> String {
    format!(
        "This `{name}` call was not run: `{value}`, the value of `{field}`, is the name of a field, \
         not text from the user's task. Send `{field}` with the exact text the task needs (read \
         the file first to copy its lines), or answer the user in plain text."
    )
}

/// The message refusing a call that copies the example call of tool `name` (`example`: that
/// call's arguments): it names the copied fields, not their values (repeating the values would
/// only show them again to a model that copies), and asks for the task's own.
#[must_use]
pub fn example_copied(name: &str, example: &serde_json::Map<String, Value>) -> String {
    let fields: Vec<String> = example.keys().map(|k| format!("`{k}`")).collect();
    format!(
        "This `{name}` call was not run: its {} are the example call's, copied from an earlier \
         message, not values from the user's task. Call `{name}` with the file and text the task \
         needs, or answer the user in plain text.",
        fields.join(", ")
    )
}

/// The corrective message for a model-fault failure: the failure's own message, plus one
/// concrete valid call when the message does not already show one and is not a decode error
/// (which says what to send: see `settles_arguments`). The caller leaves the example out where
/// copying it would do harm (see [`names_a_value`]).
#[must_use]
pub fn corrective(failure: &CallFailure, example: Option<&str>) -> String {
    let mut m = failure.message.clone();
    // One example call per message: none beside a message that shows a call already (of this
    // tool, or the one an unknown tool's arguments fit), compact or spaced (`{"name": …` starts
    // with `{"name":` too).
    let shows_one = m.contains("{\"name\":");
    if let Some(ex) = example.filter(|_| !shows_one && !settles_arguments(failure)) {
        m.push_str("\nA valid call looks like this:\n");
        m.push_str(ex);
    }
    m
}

/// Where `message` shows a call of tool `name` as JSON (`{"name": "read", "arguments": …}`,
/// spaced or compact): its byte offset and length. `None` when it shows none.
#[must_use]
pub fn call_in(message: &str, name: &str) -> Option<(usize, usize)> {
    let quoted = serde_json::to_string(name).ok()?;
    [
        format!("{{\"name\": {quoted}"),
        format!("{{\"name\":{quoted}"),
    ]
    .iter()
    .filter_map(|start| {
        let at = message.find(start.as_str())?;
        let mut values = serde_json::Deserializer::from_str(&message[at..]).into_iter::<Value>();
        matches!(values.next(), Some(Ok(Value::Object(_)))).then(|| (at, values.byte_offset()))
    })
    .min_by_key(|(at, _)| *at)
}

/// Whether `message` shows the call `call` (JSON text `{"name", "arguments"}`), spaced or
/// compact: the first call of that tool it shows (see [`call_in`]) is the same value.
#[must_use]
pub fn shows_call(message: &str, call: &str) -> bool {
    let Ok(want) = serde_json::from_str::<Value>(call) else {
        return false;
    };
    let Some(name) = want["name"].as_str() else {
        return false;
    };
    call_in(message, name)
        .and_then(|(at, len)| serde_json::from_str::<Value>(&message[at..at + len]).ok())
        .is_some_and(|shown| shown == want)
}

/// Whether the failure's message is a decode error, which already settles what to send: the
/// corrected arguments derived from what was sent, or — when nothing can be derived — what to
/// fix and "keep every other field as you sent it" (the tool layer adds the tool's own example
/// there). A schema-generated call with placeholder values beside it would only invite copying
/// the placeholders.
fn settles_arguments(failure: &CallFailure) -> bool {
    failure.message.contains(CORRECTED) || failure.message.contains(KEEP_LINE)
}

/// Whether the failure is the tool refusing one value of well-formed arguments
/// ([`CallFailure::field`]: `invalid arguments for `edit`, field `new_text`: …`): its message
/// says what is wrong with that value, and an example call with other values would only be
/// copied — for a tool that changes things, into a call that changes the wrong file (for a
/// read-only tool, `ls` of `.` after a path outside the root, the example is a harmless next
/// step).
#[must_use]
pub fn names_a_value(failure: &CallFailure) -> bool {
    failure.kind == "invalid_args" && failure.field.is_some()
}

/// The firmer message for a failing call sent again unchanged after a corrective message.
#[must_use]
pub fn escalation(name: &str, failure: &CallFailure, example: Option<&str>) -> String {
    // A change already made did not fail: its repeat is what is refused.
    let how = if failure.kind == ALREADY_DONE {
        "again"
    } else {
        "again and it fails again, for the same reason"
    };
    let mut m = format!(
        "You sent exactly the same `{name}` call {how}: {} Do not send this call again.",
        failure.message.trim_end()
    );
    match example {
        _ if failure.message.contains(CORRECTED) => m.push_str(
            " Send the call again with exactly the corrected arguments shown, or, if you cannot, \
             answer the user in plain text without calling a tool.",
        ),
        Some(ex) => {
            m.push_str(" Write the call in exactly this shape, changing only the values:\n");
            m.push_str(ex);
            m.push_str(
                "\nOr, if you cannot, answer the user in plain text without calling a tool.",
            );
        }
        None => m.push_str(" Answer the user in plain text instead."),
    }
    m
}

/// The message added before the turn after an answer written without any call although the
/// user's request names something a tool can read (`call`, see `Agent::look_first`): a small
/// model answers "how one would find out" instead of looking. Once a run.
#[must_use]
pub fn unread_answer(call: &str) -> String {
    format!(
        "You answered without looking at what the user's request names, so you cannot know \
         what it holds. Call this first, then answer from its result: {call}"
    )
}

/// The line added to a corrective message that shows no example, offering `call`, a call that
/// only reads what the user's request names (see `Agent::look_first`).
#[must_use]
pub fn look_first(call: &str) -> String {
    format!("\nTo look first at what the user's request names, call: {call}")
}

/// The line added to a corrective message or a repeated result that shows no other call,
/// offering `call`, the read of the body of `name`, which the results show the defining line of
/// only (see `Agent::body_look`).
///
/// ```
/// use toolmend::agent::correct::body_next;
/// let call = r#"{"name":"read","arguments":{"path":"src/shop.py","start_line":10,"end_line":49}}"#;
/// assert_eq!(
///     body_next("cart_total", call),
///     format!("\nThe results show only the line that defines `cart_total`. To see its body, call: {call}")
/// );
/// ```
#[must_use]
pub fn body_next(name: &str, call: &str) -> String {
    format!("\nThe results show only the line that defines `{name}`. To see its body, call: {call}")
}

/// The name whose value `line` (the text of a tool result's line) gives what the `request`
/// names, when the line sets it from that name and not from a value: the key before `:` or `=`
/// is one to three of the request's words joined (`'User-Agent'` for "User-Agent",
/// `requestTimeout` for "request timeout"; single words of four letters or more, not words
/// any line could hold), and what follows is a name in code, dotted (`config.userAgent`) or
/// written as code (`defaultUserAgent`) — the last part of it is returned. Found with a Dart
/// package (session 45): asked "Which User-Agent does the client send by default?",
/// Qwen2.5-Coder-0.5B read `client.dart`, whose `'User-Agent': config.userAgent,` holds no
/// value, read it again and again, and answered `Pebble/1.0`; the value is in `config.dart`.
///
/// ```
/// use toolmend::agent::correct::referenced_name;
/// let asked = "Which User-Agent does the client send by default?";
/// assert_eq!(referenced_name("'User-Agent': config.userAgent,", asked).as_deref(), Some("userAgent"));
/// assert_eq!(referenced_name("this.userAgent = defaultUserAgent,", asked).as_deref(), Some("defaultUserAgent"));
/// assert_eq!(referenced_name("const String defaultUserAgent = 'pebble-dart/1.4.0';", asked), None);
/// assert_eq!(referenced_name("'User-Agent': 'pebble-dart',", asked), None);
/// assert_eq!(referenced_name("if (a == config.userAgent)", asked), None);
/// ```
#[must_use]
pub fn referenced_name(line: &str, request: &str) -> Option<String> {
    const GENERIC: &[&str] = &[
        "default", "value", "name", "what", "which", "does", "when", "with", "from", "this",
        "that", "there", "have", "used", "uses", "set", "true", "false",
    ];
    let at = line.char_indices().find_map(|(i, c)| {
        let before = line[..i].chars().next_back();
        let after = line[i + c.len_utf8()..].chars().next();
        let sign = match c {
            ':' => before != Some(':') && after != Some(':'),
            '=' => {
                !matches!(before, Some('=' | '!' | '<' | '>' | '+' | '-' | '*' | '/'))
                    && !matches!(after, Some('=' | '>'))
            }
            _ => false,
        };
        sign.then_some(i)
    })?;
    let key: String = line[..at]
        .trim_end()
        .rsplit(char::is_whitespace)
        .next()?
        .rsplit('.')
        .next()?
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    let value = line[at + 1..]
        .trim()
        .trim_end_matches([',', ';'])
        .trim_end();
    let ident = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$')
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
    };
    let parts: Vec<&str> = value.split('.').collect();
    if key.chars().count() < 4 || !parts.iter().all(|p| ident(p)) {
        return None;
    }
    let last = *parts.last()?;
    if last.chars().count() < 3 || (parts.len() == 1 && !written_as_code(last)) {
        return None;
    }
    let words: Vec<String> = crate::tools::request_words(request)
        .take(200)
        .flat_map(|w| w.split(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let named = (1..=3).any(|n| {
        words.windows(n).any(|run| {
            let joined = run.concat();
            joined == key
                && (n > 1 || (joined.chars().count() >= 4 && !GENERIC.contains(&joined.as_str())))
        })
    });
    named.then(|| last.to_owned())
}

/// The line added to a repeated result that shows no other call, offering `call`, the search
/// for `name`, which a line of the results sets what the request names from (see
/// [`referenced_name`]).
///
/// ```
/// use toolmend::agent::correct::reference_next;
/// let call = r#"{"name":"grep","arguments":{"pattern":"userAgent","ignore_case":true}}"#;
/// assert_eq!(
///     reference_next("userAgent", call),
///     format!("\nThe results set it from `userAgent`, not from a value. To see the value of `userAgent`, call: {call}")
/// );
/// ```
#[must_use]
pub fn reference_next(name: &str, call: &str) -> String {
    format!(
        "\nThe results set it from `{name}`, not from a value. To see the value of `{name}`, call: {call}"
    )
}

/// The note prepended to an earlier result when the model repeats an identical call; the
/// user's `request` is restated (a small model that repeats a call has lost track of what the
/// result was for). `exact`: the same arguments; else other arguments that gave exactly the
/// same result (a whole file's `read` with and without `start_line`/`end_line`).
///
/// ```
/// use toolmend::agent::correct::repeat_note;
/// let same = repeat_note("read", "1\tx", "What is x?", true);
/// assert!(same.starts_with("(You already called `read` with exactly these arguments;"));
/// let other = repeat_note("read", "1\tx", "What is x?", false);
/// assert!(other.starts_with("(You already called `read` for exactly this result;"));
/// assert!(other.ends_with("do not repeat the call.)\n1\tx"));
/// ```
#[must_use]
pub fn repeat_note(name: &str, earlier_output: &str, request: &str, exact: bool) -> String {
    let how = if exact {
        "with exactly these arguments"
    } else {
        "for exactly this result"
    };
    format!(
        "(You already called `{name}` {how}; this is its earlier result, not a new run. Use it \
         to answer the user's request \"{}\", and do not repeat the call.)\n{earlier_output}",
        restated(request)
    )
}

/// The firmer message when the model keeps repeating a call it already has the result of,
/// restating the user's `request`; `exact` as for [`repeat_note`].
#[must_use]
pub fn repeat_firm(name: &str, earlier_output: &str, request: &str, exact: bool) -> String {
    let what = if exact {
        "with these arguments"
    } else {
        "for this result"
    };
    format!(
        "Stop calling `{name}` {what}: you already have its result, shown again below. Answer \
         the user's request \"{}\" from it now, in plain text, or do the next step of the task \
         with a different call.\n{earlier_output}",
        restated(request)
    )
}

/// The message added before the turn after an empty reply, once a run. An empty turn after tool
/// results is a small model stopping where it should answer from them (greedy decoding would give
/// the same nothing again), so the request is repeated with `prompt` restated: answer from the
/// results, or call a tool. `after_results`: whether the turn before had tool calls.
#[must_use]
pub fn empty_reply(prompt: &str, after_results: bool) -> String {
    let request = restated(prompt);
    if after_results {
        format!(
            "Your last reply was empty. Answer the user's request from the tool results above, \
             in plain text: \"{request}\". If they are not enough, call a tool."
        )
    } else {
        format!(
            "Your last reply was empty. Answer the user's request: \"{request}\". If you need \
             something first, call a tool."
        )
    }
}

/// True when `answer` is a copy of one of `sent`, messages toolmend wrote to the model
/// (corrective messages, notes, nudges): the message's beginning, or the whole message inside
/// the answer (quotes aside), both long enough (12 characters) that this is no coincidence.
/// Small models echo the last message they were sent from its start ("2 turns left.", "You
/// sent exactly the same `edit` call again …") where the answer belongs; a piece from a
/// message's middle (the file list of a not-found message) can be an answer. So is an answer
/// starting with a message's first 30 characters or more, whatever follows.
///
/// ```
/// use toolmend::agent::correct::echoes;
/// let sent = "invalid arguments for `read`, field `path`: `config.toml` does not exist.";
/// assert!(echoes("invalid arguments for `read`, field `path`: `README.md` does not exist.", [sent]));
/// assert!(!echoes("`long_break_minutes = 15`: the long break lasts 15 minutes.", [sent]));
/// ```
#[must_use]
pub fn echoes<'m>(answer: &str, sent: impl IntoIterator<Item = &'m str>) -> bool {
    const MIN_CHARS: usize = 12;
    // Quotes aside: an echo may write a message's backticks as double quotes, its apostrophes
    // curly (the not-a-tool message, textkit set, session 33).
    let plain = |s: &str| -> String {
        s.chars()
            .map(|c| match c {
                '`' | '\u{201c}' | '\u{201d}' => '"',
                '\u{2018}' | '\u{2019}' => '\'',
                c => c,
            })
            .collect()
    };
    let answer = plain(answer.trim());
    let answer = answer.as_str();
    if answer.chars().count() < MIN_CHARS {
        return false;
    }
    // Its first sentence kept whole inside a longer reply is an echo too ("The function `grep`
    // is the name of a tool you can call, not an answer.": a Go module, session 30).
    let first_sentence = |m: &str| {
        let end = m.find(". ").map_or(m.len(), |at| at + 1);
        let s = &m[..end];
        s.chars().count() >= 2 * MIN_CHARS && answer.contains(s)
    };
    // Or the start of a message, 30 characters or more, with other words after it: "invalid
    // arguments for `read`, field `path`: `README.md` does not exist. …", a corrective
    // message's head with another file in it (a Neovim plugin, session 49: the run ended with
    // that as the answer).
    let same_start = |m: &str| {
        answer
            .chars()
            .zip(m.chars())
            .take_while(|(a, b)| a == b)
            .count()
            >= 30
    };
    let echo = |m: &str| {
        m.chars().count() >= MIN_CHARS
            && (m.starts_with(answer) || answer.contains(m) || first_sentence(m) || same_start(m))
    };
    // A note toolmend put in a result is wrapped in parentheses, which an echo may leave out.
    sent.into_iter().map(|m| plain(m.trim())).any(|m| {
        let m = m.as_str();
        echo(m)
            || m.strip_prefix('(')
                .and_then(|m| m.strip_suffix(')'))
                .is_some_and(echo)
    })
}

/// The tool of `tools` that a reply, `content`, tells the user to use: it says how ("you can
/// use", "use the", "here's how") and names the tool in backticks or as "the NAME function",
/// "… tool", "… command" — unless the user's `prompt` names that tool too. The tools are the
/// model's to call; steps for the user are no answer.
#[must_use]
pub fn how_to_tool(content: &str, prompt: &str, tools: &[String]) -> Option<String> {
    let lower = content.to_lowercase();
    let how = [
        "you can use",
        "you could use",
        "use the",
        "here's how",
        "here is how",
        "you can run",
    ]
    .iter()
    .any(|h| lower.contains(h));
    if !how {
        return None;
    }
    tools
        .iter()
        .filter(|t| t.chars().count() >= 2)
        .find(|t| {
            let t = t.to_lowercase();
            let named = lower.contains(&format!("`{t}`"))
                || ["function", "tool", "command"]
                    .iter()
                    .any(|k| lower.contains(&format!("the {t} {k}")));
            named && !crate::tools::request_words(prompt).any(|w| w.eq_ignore_ascii_case(&t))
        })
        .cloned()
}

/// The message added before the turn after a reply that told the user to use the tool `name`
/// (see [`how_to_tool`]), once a run, restating `prompt`.
#[must_use]
pub fn how_to_reply(prompt: &str, name: &str) -> String {
    format!(
        "`{name}` is a tool for you to call, not a step for the user. Call the tool you need \
         yourself, then answer the user's request from its result, in plain text: \"{}\"",
        restated(prompt)
    )
}

/// The message added before the turn after a reply that repeats word for word an earlier
/// reply of the run that was no answer, with tool results since (see `Agent::non_answer`):
/// once a run, restating `prompt`, with the lines of the results that bear on it (`lines`,
/// from [`bearing`]) when there are any.
#[must_use]
pub fn same_reply(prompt: &str, lines: Option<&str>) -> String {
    let note = format!(
        "Your reply repeats word for word one you gave before the tool results above, and it \
         was no answer then either. Answer the user's request \"{}\" from the results, in \
         plain text.",
        restated(prompt)
    );
    with_lines(note, lines)
}

/// The message added before the turn after a reply that was only the name of a tool, `name`
/// (see `Agent::non_answer`), once a run, restating `prompt` like [`echo_reply`];
/// `after_results`: whether the turn before had tool calls.
#[must_use]
pub fn tool_name_reply(prompt: &str, name: &str, after_results: bool) -> String {
    let request = restated(prompt);
    if after_results {
        format!(
            "`{name}` is the name of a tool you can call, not an answer. Answer the user's \
             request from the tool results above, in your own words: \"{request}\""
        )
    } else {
        format!(
            "`{name}` is the name of a tool you can call, not an answer. Answer the user's \
             request in your own words, or call a tool if you need something first: \
             \"{request}\""
        )
    }
}

/// True when `answer` is the user's `request`, or a piece of it, repeated (12 characters at
/// least, or two words, or one word of a question that offers no choice): small models echo
/// the question where the answer belongs. An answer that holds the whole request and more
/// ("… move? To Friday.") is an answer.
#[must_use]
pub fn repeats_request(answer: &str, request: &str) -> bool {
    // Contractions written out on both sides: the loop's request has them so (see
    // [`expanded`]), a model echoing it may not.
    let (answer, request) = (expanded(answer), expanded(request));
    let request = request.as_str();
    // In quotes or not ("\"Add bin/ to the gitignore.\"": a Go module, session 30).
    let answer = answer
        .trim()
        .trim_end_matches(['.', '!'])
        .trim_matches(['"', '\'', '`', '\u{201c}', '\u{201d}'])
        .trim();
    // Two words of the request side by side are a piece of it too, however short: asked "Which
    // flag prints the word count?", Qwen2.5-Coder-0.5B was shown the flag's line and answered
    // `word count` (the tally set, session 31).
    if (answer.chars().count() >= 12 || answer.split_whitespace().count() >= 2)
        && request.contains(answer)
    {
        return true;
    }
    // So is one word of four letters or more of a question that offers no choice, a word of
    // its own there (`flag`, then `slugify` for "Which package does slugify use …?": sessions
    // 31 and 33). One word may be the answer to "grep or glob?".
    let question = request.trim_end().ends_with('?');
    let choice = request
        .split_whitespace()
        .any(|w| w.eq_ignore_ascii_case("or"));
    question
        && !choice
        && answer.chars().count() >= 4
        && answer
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        && crate::tools::request_words(request).take(200).any(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .eq_ignore_ascii_case(answer)
        })
}

/// The message added before the turn after a reply that only echoed a message of toolmend's
/// (see [`echoes`]) or the request ([`repeats_request`]), once a run, restating `prompt` like
/// [`empty_reply`]; `after_results`: whether the turn before had tool calls.
#[must_use]
pub fn echo_reply(prompt: &str, after_results: bool) -> String {
    let request = restated(prompt);
    if after_results {
        format!(
            "Your last reply only repeated a message sent to you; it is not an answer. Answer \
             the user's request from the tool results above, in your own words: \"{request}\""
        )
    } else {
        format!(
            "Your last reply only repeated a message sent to you; it is not an answer. Answer \
             the user's request in your own words, or call a tool if you need something first: \
             \"{request}\""
        )
    }
}

/// Whether `answer` is a refusal that says nothing about the request — "I'm sorry, but I can't
/// assist with that.", "As an AI, I don't have access to your files." — short (400 characters at
/// most) and refusing within its first 160 characters. Small models write it where the tools
/// they were given can do what was asked, or after results that hold the answer (the `notes`
/// run of session 22: "How many notes are there?"). An apology that says what is wrong ("I'm
/// sorry, there is no file named x.md") is an answer.
///
/// ```
/// use toolmend::agent::correct::is_refusal;
/// assert!(is_refusal("I'm sorry, but I can't assist with that."));
/// assert!(is_refusal("As an AI language model, I do not have access to your files."));
/// assert!(!is_refusal("I'm sorry, there is no file named notes.md in the folder."));
/// assert!(!is_refusal("There are 2 notes."));
/// ```
#[must_use]
pub fn is_refusal(answer: &str) -> bool {
    const REFUSALS: &[&str] = &[
        "can't assist",
        "cannot assist",
        "can not assist",
        "unable to assist",
        "not able to assist",
        "can't help with",
        "cannot help with",
        "unable to help with",
        "not able to help with",
        "don't have access",
        "do not have access",
        "don't have the ability",
        "do not have the ability",
        "can't access",
        "cannot access",
        "unable to access",
        "not able to access",
        "as an ai",
    ];
    let answer = answer.trim();
    if answer.chars().count() > 400 {
        return false;
    }
    let head: String = answer
        .chars()
        .take(160)
        .map(|c| if c == '\u{2019}' { '\'' } else { c })
        .collect::<String>()
        .to_lowercase();
    REFUSALS.iter().any(|r| head.contains(r))
}

/// The message added before the turn after a refusal ([`is_refusal`]), once a run, restating
/// `prompt`: after tool results, answer from them (`lines`: those that bear on a question, see
/// [`bearing`]); before any, the tools can find it out — `look`, when given, is the call that
/// reads what the request names (see `Agent::look_first`).
#[must_use]
pub fn refusal_reply(
    prompt: &str,
    after_results: bool,
    look: Option<&str>,
    lines: Option<&str>,
) -> String {
    let request = restated(prompt);
    let mut m = if after_results {
        format!(
            "You can answer this: the tool results above come from the user's own files, and \
             reading them is allowed. Answer the user's request from them, in plain text: \
             \"{request}\". If they are not enough, call a tool."
        )
    } else {
        format!(
            "You can do this: the tools you were given read the user's files, and using them is \
             allowed. Call a tool to find out, then answer the user's request: \"{request}\""
        )
    };
    if let Some(look) = look {
        m.push_str(&look_first(look));
    }
    if let Some(lines) = lines {
        m.push('\n');
        m.push_str(lines);
    }
    m
}

/// The message added before the turn that answers after the model's calls all failed and
/// toolmend made the look at what the request names itself (`call`, whose output was
/// `output`), restating `prompt`.
///
/// ```
/// use toolmend::agent::correct::look_made;
/// let m = look_made(r#"{"name":"read","arguments":{"path":"a.txt"}}"#, "1\tport = 8080", "Which port?");
/// assert!(m.starts_with("None of your calls ran"));
/// assert!(m.contains("1\tport = 8080") && m.ends_with("\"Which port?\""));
/// ```
#[must_use]
pub fn look_made(call: &str, output: &str, prompt: &str) -> String {
    format!(
        "None of your calls ran, so the look at what the user's request names was made for \
         you: {call} gave:\n{output}\nAnswer the user's request from it, in plain text: \"{}\"",
        restated(prompt)
    )
}

/// The message added before a turn that offers no tools because the model kept asking for a
/// result it already had: answer from it, restating `prompt`.
#[must_use]
pub fn answer_now(prompt: &str) -> String {
    format!(
        "You have the tool results you asked for, above. Answer the user's request \"{}\" now, \
         in plain text, from them.",
        restated(prompt)
    )
}

/// The lines of the tool results that bear on the user's request (`lines`, see
/// `Agent::evidence`), added to the message before a turn that must answer from them; `None`
/// when there are none.
///
/// A read's line is shown without its number: a small model copies the number as the answer
/// (`39` for `39\t        python-version: ["3.11", "3.12", "3.13"]`: a Python webhook relay,
/// session 55, twice, the second time after being told line numbers are no part of the file).
#[must_use]
pub fn bearing(lines: &[String]) -> Option<String> {
    // A read's numbered line: its text, after the number and the tab.
    fn read_text(l: &str) -> Option<&str> {
        let (n, text) = l.trim_start().split_once('\t')?;
        (!n.is_empty() && n.chars().all(|c| c.is_ascii_digit())).then_some(text.trim_end())
    }
    // Their indentation kept relative to the least of them (a section's first lines under
    // its key: `"dependencies": {` then `  "node-fetch": "^3.3.2"`).
    let indent = |t: &str| t.len() - t.trim_start().len();
    let least = lines
        .iter()
        .filter_map(|l| read_text(l))
        .filter(|t| !t.trim().is_empty())
        .map(indent)
        .min()
        .unwrap_or(0);
    (!lines.is_empty()).then(|| {
        let shown: Vec<&str> = lines
            .iter()
            .map(|l| match read_text(l) {
                Some(text) => text.get(least.min(indent(text))..).unwrap_or(text),
                None => l.as_str(),
            })
            .collect();
        format!(
            "These lines of the tool results bear on the request:\n{}",
            shown.join("\n")
        )
    })
}

/// The words of `text` (runs of letters and digits), lower case, in order.
fn lower_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether `prompt` is a question ([`is_question`]) that asks which file: "Which file sets the
/// database password?", "In what files is `retries` read?".
///
/// ```
/// use toolmend::agent::correct::asks_which_file;
/// assert!(asks_which_file("Which file sets the database password?"));
/// assert!(asks_which_file("In what files is retries read?"));
/// assert!(asks_which_file("Which source file implements the request throttling?"));
/// assert!(!asks_which_file("What does the file say about retries?"));
/// assert!(!asks_which_file("Tell me which file sets it."));
/// ```
#[must_use]
pub fn asks_which_file(prompt: &str) -> bool {
    let words = lower_words(prompt);
    // One word of the file's kind between them too: "Which source file implements …?" (a
    // Crystal web service, session 53: answered `Spire`, the module's name, and not asked for
    // the file).
    let file = |i: usize| words.get(i).is_some_and(|w| w == "file" || w == "files");
    let kind = |i: usize| {
        words.get(i).is_some_and(|k| {
            [
                "source",
                "config",
                "configuration",
                "test",
                "code",
                "script",
            ]
            .contains(&k.as_str())
        })
    };
    is_question(prompt)
        && (0..words.len()).any(|i| {
            ["which", "what"].contains(&words[i].as_str())
                && (file(i + 1) || (kind(i + 1) && file(i + 2)))
        })
}

/// The message added before the turn after an answer to a question that asks which file
/// ([`asks_which_file`]) that names none, or names only `named`, a path that is no file of the
/// results or of the folder, while the run's results name `files`. Once a run.
///
/// ```
/// use toolmend::agent::correct::file_unnamed;
/// let files = [".bashrc".to_owned()];
/// let m = file_unnamed("Which file sets the PATH?", &files, Some("/home/user/bin"));
/// assert!(m.contains("`/home/user/bin`, the path your reply names, is no file the tool results name"));
/// assert!(m.contains("name `.bashrc`"));
/// ```
#[must_use]
pub fn file_unnamed(prompt: &str, files: &[String], named: Option<&str>) -> String {
    let shown: Vec<String> = files.iter().take(6).map(|f| format!("`{f}`")).collect();
    let reply = match named {
        Some(path) => format!(
            "`{path}`, the path your reply names, is no file the tool results name or the folder holds"
        ),
        None => "your reply names none".to_owned(),
    };
    format!(
        "The user asked \"{}\": the answer is a file, and {reply}. The tool results above name \
         {}. Answer with the path of the file that answers the question.",
        restated(prompt),
        shown.join(", ")
    )
}

/// What kind of named thing in code a question asks for — "Which function finds the longest
/// line?" asks for a `function` — or `None`: "which" or "what" before a word that names a kind
/// of code ([`crate::tools::CODE_KINDS`]).
///
/// ```
/// use toolmend::agent::correct::asks_which_code;
/// assert_eq!(asks_which_code("Which function finds the longest line?"), Some("function"));
/// assert_eq!(asks_which_code("What class parses the config?"), Some("class"));
/// assert_eq!(asks_which_code("Which package does slugify use?"), Some("package"));
/// assert_eq!(asks_which_code("What does the MaxLineLength function do?"), None);
/// assert_eq!(asks_which_code("Which file sets the port?"), None);
/// assert_eq!(asks_which_code("What type of database does the app use?"), None);
/// ```
#[must_use]
pub fn asks_which_code(prompt: &str) -> Option<&'static str> {
    if !is_question(prompt) {
        return None;
    }
    let words = lower_words(prompt);
    words.iter().enumerate().skip(1).find_map(|(i, word)| {
        let w = [words[i - 1].as_str(), word.as_str()];
        let kind = w[1].strip_suffix(['s']).unwrap_or(w[1]);
        // "What type of database …" asks for a kind of thing, not a name in code.
        let of = words.get(i + 1).is_some_and(|n| n == "of");
        (["which", "what"].contains(&w[0]) && !of)
            .then(|| {
                crate::tools::CODE_KINDS
                    .iter()
                    .copied()
                    .find(|k| *k == kind || *k == w[1])
            })
            .flatten()
    })
}

/// The names written as code in `text`: a word of letters, digits and `_` (three characters or
/// more, not starting with a digit) with a capital after its first letter (`MaxLineLength`,
/// `parseArgs`), an `_` inside (`longest_line`), or a `(` right after it (`count(`), each once,
/// in order.
///
/// ```
/// use toolmend::agent::correct::code_names;
/// assert_eq!(
///     code_names("// MaxLineLength returns the length of the longest line in s."),
///     ["MaxLineLength"]
/// );
/// assert_eq!(code_names("def longest_line(text): count(x)"), ["longest_line", "count"]);
/// assert!(code_names("the longest line of a file").is_empty());
/// assert_eq!(code_names("super(\"taken\"); if (full) throw new RoomTakenException(room)"), ["RoomTakenException"]);
/// ```
#[must_use]
pub fn code_names(text: &str) -> Vec<String> {
    let is_name_char = |c: char| c.is_alphanumeric() || c == '_';
    let mut names: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(is_name_char) {
        let word_len = rest[start..]
            .find(|c: char| !is_name_char(c))
            .unwrap_or(rest.len() - start);
        let word = &rest[start..start + word_len];
        let after = &rest[start + word_len..];
        rest = after;
        let trimmed = word.trim_matches('_');
        if trimmed.chars().count() < 3 || word.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        // A keyword before `(` is no name (`super("…")`, `if (x)`: a Maven project, session
        // 37, where `super` was offered as an exception's name).
        let keyword = KEYWORDS.contains(&word);
        let coded = written_as_code(trimmed) || (after.starts_with('(') && !keyword);
        if coded && !names.iter().any(|n| n == word) {
            names.push(word.to_owned());
        }
    }
    names
}

pub use crate::tools::written_as_code;

/// Keywords that a `(` follows in code without naming anything the code defines.
const KEYWORDS: &[&str] = &[
    "super", "this", "self", "if", "elif", "for", "while", "switch", "match", "return", "catch",
    "new", "sizeof", "typeof", "await", "yield", "not", "and", "with", "assert",
];

/// The message added before the turn after an answer to a question that asks which `kind`
/// ([`asks_which_code`]: `function`, `class`, …) that names none of `names`, the names written
/// as code in the lines that bear on the request ([`code_names`]). Once a run.
#[must_use]
pub fn code_unnamed(prompt: &str, kind: &str, names: &[String]) -> String {
    let shown: Vec<String> = names.iter().take(6).map(|n| format!("`{n}`")).collect();
    format!(
        "The user asked \"{}\": the answer is the name of {} {kind}, and your reply names none. \
         The tool results above name {}. Answer with the name of the {kind} that answers the \
         question.",
        restated(prompt),
        article(kind),
        shown.join(", ")
    )
}

/// The indefinite article before `word`: "an" before a vowel's letter, else "a".
fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// The message added before the turn after an answer to a question that asks which `kind`
/// ([`asks_which_code`]), asked again already ([`code_unnamed`], [`code_unfounded`]), whose
/// name in code, `name`, no tool result and no file holds: made up. It shows `names`, the
/// names the results give. Once a run.
///
/// ```
/// use toolmend::agent::correct::code_made_up;
/// let names = ["RoomTakenException".to_owned()];
/// let m = code_made_up("What exception does book throw?", "exception", "RoomBookedException", &names);
/// assert!(m.contains("`RoomBookedException` is in no tool result and no file of the folder"));
/// assert!(m.contains("The tool results above name `RoomTakenException`."));
/// ```
#[must_use]
pub fn code_made_up(prompt: &str, kind: &str, name: &str, names: &[String]) -> String {
    let shown: Vec<String> = names.iter().take(6).map(|n| format!("`{n}`")).collect();
    format!(
        "The user asked \"{}\": `{name}` is in no tool result and no file of the folder, so it \
         cannot be that {kind}. The tool results above name {}. Answer with the name of the \
         {kind} that answers the question, as the results write it.",
        restated(prompt),
        shown.join(", ")
    )
}

/// The message added before the turn after an answer to a question that asks which `kind`
/// ([`asks_which_code`]) whose name in code, `name`, no tool result and no file holds: made up.
/// It offers `look`, the look at what the question names. Once a run (with
/// [`code_unnamed`]).
///
/// ```
/// use toolmend::agent::correct::code_unfounded;
/// let look = r#"{"name":"grep","arguments":{"pattern":"oldest item","ignore_case":true}}"#;
/// let m = code_unfounded("Which function removes the oldest item?", "function", "removeOldestItem", look);
/// assert!(m.contains("`removeOldestItem` is in no tool result and no file of the folder"));
/// assert!(m.ends_with(look));
/// ```
#[must_use]
pub fn code_unfounded(prompt: &str, kind: &str, name: &str, look: &str) -> String {
    format!(
        "The user asked \"{}\": the answer is the name of {} {kind} in the files, and \
         `{name}` is in no tool result and no file of the folder, so it cannot be that {kind}. \
         Look first, then answer with the name the files give: {look}",
        restated(prompt),
        article(kind)
    )
}

/// Whether `prompt` is a question ([`is_question`]) that wants one thing told — a name, a
/// file, a value, what something does — rather than contents shown or several things listed:
/// it does not ask to list, show or print, for contents ("What is in README.md?"), nor for
/// several files, lines, items or entries. A copy of a tool's output answers only the latter.
///
/// ```
/// use toolmend::agent::correct::asks_one_thing;
/// assert!(asks_one_thing("What does the MaxLineLength function do?"));
/// assert!(asks_one_thing("Which file has the tests for the count package?"));
/// assert!(!asks_one_thing("What is in README.md?"));
/// assert!(!asks_one_thing("Which TODO items are still open?"));
/// assert!(!asks_one_thing("What does config.json contain?"));
/// assert!(!asks_one_thing("Show README.md."));
/// ```
#[must_use]
pub fn asks_one_thing(prompt: &str) -> bool {
    const MANY: &[&str] = &[
        "list",
        "lists",
        "show",
        "shows",
        "print",
        "prints",
        "display",
        "content",
        "contents",
        "contain",
        "contains",
        "say",
        "says",
        "files",
        "lines",
        "items",
        "entries",
        "all",
        "every",
        "each",
        "folders",
        "directories",
    ];
    let lower = prompt.to_lowercase().replace('\u{2019}', "'");
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .collect();
    let contents = words
        .windows(3)
        .any(|w| w[0] == "what" && ["is", "are", "was"].contains(&w[1]) && w[2] == "in")
        || words.windows(2).any(|w| w == ["what's", "in"]);
    is_question(prompt) && !contents && !words.iter().any(|w| MANY.contains(w))
}

/// The message added before the turn after a reply that copied the output of tool `tool`
/// whole, for a question that asks for one thing ([`asks_one_thing`]), once a run; `bearing`:
/// the lines of the results that bear on the request (see [`bearing`]), when any.
#[must_use]
pub fn copied_reply(prompt: &str, tool: &str, bearing: Option<&str>) -> String {
    let mut m = format!(
        "Your last reply copied the output of `{tool}`; that is not an answer. The user asked \
         \"{}\": answer that question itself, in a sentence or two of your own, from the tool \
         results.",
        restated(prompt)
    );
    if let Some(lines) = bearing {
        m.push('\n');
        m.push_str(lines);
    }
    m
}

/// Whether the words of a request (`words`, lower case) ask for a number worked out, not read
/// ([`WORKED_OUT`]) — "times" after "many" counts how often, as a setting says (a Go job
/// worker, session 54: "how many times is a failing job retried …?", answered `19`, the line
/// number of `max_retries: 11`, was taken for arithmetic and not asked again).
fn asks_worked_out(words: &[String]) -> bool {
    words.iter().enumerate().any(|(i, w)| {
        WORKED_OUT.contains(&w.as_str()) && !(w == "times" && i > 0 && words[i - 1] == "many")
    })
}

/// Words of a request that asks for a number worked out, not read: a sum, a conversion.
const WORKED_OUT: &[&str] = &[
    "total",
    "sum",
    "average",
    "mean",
    "combined",
    "altogether",
    "together",
    "difference",
    "plus",
    "minus",
    "times",
    "multiplied",
    "divided",
    "convert",
    "converted",
    "percent",
    "percentage",
    "ratio",
    "round",
    "rounded",
    "calculate",
    "compute",
];

/// The first number with a decimal point in `answer` — a version (`1.17.1`), a price (`2.25`)
/// — that neither `prompt` nor any of `results` holds (as a whole number: `1.2` is not in
/// `1.21`), when `prompt` is a question ([`is_question`]) that does not ask for a number worked
/// out (a total, an average, a conversion). A small model answers a version or a price it was
/// never shown: asked "Which Go version does the module require?", Qwen2.5-Coder-0.5B was shown
/// the go.mod's `require` line and answered `Go 1.17.1` (session 30; the file says 1.21).
///
/// ```
/// use toolmend::agent::correct::unfounded_number;
/// let results = ["go.mod (line 5): require github.com/spf13/pflag v1.0.5"];
/// let q = "Which Go version does the module require?";
/// assert_eq!(unfounded_number("Go 1.17.1", q, results), Some("1.17.1".to_owned()));
/// assert_eq!(unfounded_number("pflag v1.0.5.", q, results), None);
/// assert_eq!(unfounded_number("Go 1.0", q, results), Some("1.0".to_owned()));
/// assert_eq!(unfounded_number("The average is 2.5.", "What is the average price?", results), None);
/// ```
#[must_use]
pub fn unfounded_number<'r>(
    answer: &str,
    prompt: &str,
    results: impl IntoIterator<Item = &'r str> + Clone,
) -> Option<String> {
    if !is_question(prompt) {
        return None;
    }
    if asks_worked_out(&lower_words(prompt)) {
        return None;
    }
    numbers(answer).into_iter().find(|n| {
        !holds_number(prompt, n) && !results.clone().into_iter().any(|r| holds_number(r, n))
    })
}

/// The first whole number of `answer` (not part of a number with a decimal point) that neither
/// `prompt` nor any of `lines` — the texts of the tool results' lines, their places (a read's
/// line numbers, a search's `path (line N)`) aside — holds, for a question ([`is_question`])
/// about a default (it says "default"; a setting's value, not a count worked out of the
/// files) that asks for no number worked out. Found with a Dart package (session 45): asked
/// "How many responses does the cache hold by default?", shown `cache.dart` with `this.maxEntries
/// = 256,`, Qwen2.5-Coder-0.5B answered `25`, in no line's text (the start of `256`, which
/// [`cut_number`] asks for first when the bearing lines write it).
///
/// ```
/// use toolmend::agent::correct::unfounded_default;
/// let lines = ["    this.maxEntries = 256,", "  }) : assert(maxEntries > 0);"];
/// let q = "How many responses does the cache hold by default?";
/// assert_eq!(unfounded_default("25", q, &lines), Some("25".to_owned()));
/// assert_eq!(unfounded_default("256 responses.", q, &lines), None);
/// assert_eq!(unfounded_default("25", "How many tests are there?", &lines), None);
/// assert_eq!(unfounded_default("Version 2.5", q, &lines), None);
/// ```
#[must_use]
pub fn unfounded_default(answer: &str, prompt: &str, lines: &[&str]) -> Option<String> {
    let words = lower_words(prompt);
    if !is_question(prompt) || !words.iter().any(|w| w == "default") || asks_worked_out(&words) {
        return None;
    }
    answer
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map(|t| t.trim_matches('.'))
        .filter(|t| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()))
        .find(|n| !holds_number(prompt, n) && !lines.iter().any(|l| holds_number(l, n)))
        .map(str::to_owned)
}

/// The whole number `answer` gives for a question about a version (`prompt`) and the version
/// of the bearing `lines` it begins (`8` and `8.1`): the answer's one number, written without a
/// decimal point, that those lines write only as the start of one version. Found with a PHP
/// library (session 39): asked "Which PHP version does the package require?", shown `"php":
/// ">=8.1",`, Qwen2.5-Coder-0.5B answered `8`.
///
/// ```
/// use toolmend::agent::correct::cut_version;
/// let lines = [r#" 7    "php": ">=8.1","#];
/// let asked = "Which PHP version does the package require?";
/// assert_eq!(cut_version("8", asked, &lines), Some(("8".into(), "8.1".into())));
/// assert_eq!(cut_version("8.1", asked, &lines), None);
/// assert_eq!(cut_version("8", "How many lines are there?", &lines), None);
/// assert_eq!(cut_version("8", asked, &["php 8 or 8.1"]), None);
/// ```
#[must_use]
pub fn cut_version(answer: &str, prompt: &str, lines: &[&str]) -> Option<(String, String)> {
    if !is_question(prompt) || !crate::tools::asks_version(prompt) || !numbers(answer).is_empty() {
        return None;
    }
    let mut whole = answer
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty());
    let (Some(n), None) = (whole.next(), whole.next()) else {
        return None;
    };
    if lines.iter().any(|l| holds_number(l, n)) {
        return None;
    }
    let mut begun: Vec<String> = lines
        .iter()
        .flat_map(|l| numbers(l))
        .filter(|v| v.strip_prefix(n).is_some_and(|r| r.starts_with('.')))
        .collect();
    begun.dedup();
    match &begun[..] {
        [version] => Some((n.to_owned(), version.clone())),
        _ => None,
    }
}

/// The superlative a question (`prompt`) asks a version for, and whether it is the greatest:
/// `newest`, `latest`, `most recent`, `highest`, `maximum` (`true`); `oldest`, `earliest`,
/// `lowest`, `minimum` (`false`).
fn superlative(prompt: &str) -> Option<(&'static str, bool)> {
    let lower = prompt.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    if words.windows(2).any(|w| w == ["most", "recent"]) {
        return Some(("most recent", true));
    }
    [
        ("newest", true),
        ("latest", true),
        ("highest", true),
        ("maximum", true),
        ("oldest", false),
        ("earliest", false),
        ("lowest", false),
        ("minimum", false),
    ]
    .into_iter()
    .find(|(w, _)| words.contains(w))
}

/// Orders two versions of as many parts (`9.4.8`, `9.8.2`) part by part, as numbers.
fn version_order(a: &str, b: &str) -> std::cmp::Ordering {
    let parts = |v: &str| -> Vec<u64> { v.split('.').map(|p| p.parse().unwrap_or(0)).collect() };
    parts(a).cmp(&parts(b))
}

/// For an answer (`answer`) to a question (`prompt`) asking for the newest, latest, oldest,
/// lowest, … version of several: the answer's one version, the one the question asks for and
/// the line of `lines` (the tool results' lines) that lists them — a line writing the answer's
/// version beside others of as many parts, not the greatest (or least) of them. `None` when the
/// answer gives that one, or no such line lists it (or two lines disagree). Found with a
/// Haskell project (session 47): asked "What is the newest GHC version CI builds with?", shown
/// `ghc: ["9.4.8", "9.6.4", "9.8.2"]`, Qwen2.5-Coder-0.5B answered `9.4.8`, the first.
///
/// ```
/// use toolmend::agent::correct::not_extreme;
/// let lines = ["15\t        ghc: [\"9.4.8\", \"9.6.4\", \"9.8.2\"]"];
/// let asked = "What is the newest GHC version CI builds with?";
/// let (given, wanted, line, word) = not_extreme("GHC 9.4.8.", asked, &lines).unwrap();
/// assert_eq!((given.as_str(), wanted.as_str(), word), ("9.4.8", "9.8.2", "newest"));
/// assert!(line.contains("ghc: ["));
/// assert_eq!(not_extreme("9.8.2", asked, &lines), None);
/// assert_eq!(not_extreme("9.4.8", "Which GHC versions does CI build with?", &lines), None);
/// let oldest = "What is the oldest GHC version CI builds with?";
/// assert_eq!(not_extreme("9.6.4", oldest, &lines).map(|e| e.1), Some("9.4.8".into()));
/// // Versions of other shapes on the line are no rivals; nor is a line without the answer's.
/// assert_eq!(not_extreme("9.4.8", asked, &["ghc 9.4.8 with cabal 3.10.2.1"]), None);
/// assert_eq!(not_extreme("9.4.8", asked, &["ghc: 9.4.8", "other: [9.6.4, 9.8.2]"]), None);
/// // Nor versions of different things in a sentence.
/// let changelog = ["- Minimum Ansible version is now 2.14; ansible-core 2.13 is end of life."];
/// let minimum = "What is the minimum Ansible version the role needs?";
/// assert_eq!(not_extreme("2.14", minimum, &changelog), None);
/// assert_eq!(not_extreme("9.6.4", minimum, &["ghc: 9.4.8, 9.6.4 and 9.8.2"]).map(|e| e.1), Some("9.4.8".into()));
/// ```
#[must_use]
pub fn not_extreme(
    answer: &str,
    prompt: &str,
    lines: &[&str],
) -> Option<(String, String, String, &'static str)> {
    if !is_question(prompt) {
        return None;
    }
    let (word, greatest) = superlative(prompt)?;
    let given = match &numbers(answer)[..] {
        [one] => one.clone(),
        _ => return None,
    };
    let parts = given.split('.').count();
    let mut found: Option<(String, String)> = None;
    for line in lines {
        let listed: Vec<String> = numbers(line)
            .into_iter()
            .filter(|v| v.split('.').count() == parts)
            .collect();
        if !listed.contains(&given)
            || listed.iter().all(|v| *v == given)
            || !lists_only(line, &listed)
        {
            continue;
        }
        let best = listed
            .iter()
            .max_by(|a, b| {
                let o = version_order(a, b);
                if greatest { o } else { o.reverse() }
            })?
            .clone();
        match &found {
            Some((other, _)) if *other != best => return None,
            Some(_) => {}
            None => found = Some((best, line.trim().to_owned())),
        }
    }
    let (best, line) = found?;
    (best != given).then_some((given, best, line, word))
}

/// Whether `line` writes `versions` (in order) as one list: nothing between two of them but
/// quotes, brackets, commas, spaces and "and" / "or" (`ghc: ["9.4.8", "9.6.4", "9.8.2"]`,
/// `3.11, 3.12 and 3.13`) — not versions of different things in a sentence ("Minimum Ansible
/// version is now 2.14; ansible-core 2.13 is end of life.": a role's changelog, session 47,
/// where `2.14`, the answer, was corrected to `2.13`).
fn lists_only(line: &str, versions: &[String]) -> bool {
    let mut from = 0;
    let mut ends = Vec::new();
    for v in versions {
        let Some(at) = line[from..].find(v.as_str()) else {
            return false;
        };
        ends.push((from + at, from + at + v.len()));
        from += at + v.len();
    }
    ends.windows(2).all(|w| {
        let between = &line[w[0].1..w[1].0];
        between
            .split(|c: char| " \t,\"'[]()".contains(c))
            .all(|t| t.is_empty() || t == "and" || t == "or")
    })
}

/// The message added before the turn after an answer giving `given`, one of the versions
/// `line` lists, when the question (`prompt`) asks for the `word` (newest, oldest, …) of them:
/// `wanted` ([`not_extreme`]). Once a run.
#[must_use]
pub fn not_the_extreme(prompt: &str, given: &str, wanted: &str, line: &str, word: &str) -> String {
    let line = line_body(line).unwrap_or(line).trim();
    format!(
        "`{given}` is not the {word} of the versions this line lists: `{line}`. The user asked \
         \"{}\": the {word} there is `{wanted}`; answer with it, as written.",
        restated(prompt)
    )
}

/// The dotted name the bearing `lines` write that `answer`, one word, is only the first part
/// of (`django` of `django.db.backends.postgresql`), for a question (`prompt`): the one such
/// name of three parts or more on those lines, where the word stands nowhere else on them.
/// Found with a Django project (session 41): asked "Which database engine does the project
/// use?", shown `"ENGINE": "django.db.backends.postgresql"`, Qwen2.5-Coder-0.5B answered
/// `django`.
///
/// ```
/// use toolmend::agent::correct::cut_name;
/// let lines = [r#"36         "ENGINE": "django.db.backends.postgresql","#];
/// let asked = "Which database engine does the project use?";
/// assert_eq!(
///     cut_name("django", asked, &lines),
///     Some("django.db.backends.postgresql".into())
/// );
/// assert_eq!(cut_name("postgresql", asked, &lines), None);
/// assert_eq!(cut_name("django", asked, &["INSTALLED = [\"django.contrib.admin\", \"django\"]"]), None);
/// assert_eq!(cut_name("django", "Set the engine.", &lines), None);
/// // A quoted value joined by `_` is cut so too.
/// let dev = [r#"config/dev.exs (line 7):   database: "chirp_dev","#];
/// let asked = "What is the name of the development database?";
/// assert_eq!(cut_name("chirp", asked, &dev), Some("chirp_dev".into()));
/// assert_eq!(cut_name("chirp", asked, &["name = chirp_dev"]), None);
/// ```
#[must_use]
pub fn cut_name(answer: &str, prompt: &str, lines: &[&str]) -> Option<String> {
    let word = answer.trim().trim_end_matches('.').trim_matches('`');
    if !is_question(prompt)
        || word.chars().count() < 2
        || !word
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return None;
    }
    let mut names: Vec<&str> = Vec::new();
    let mut alone = false;
    for line in lines {
        for token in line.split(|c: char| !(c.is_alphanumeric() || "._-".contains(c))) {
            let token = token.trim_matches('.');
            if token.eq_ignore_ascii_case(word) {
                alone = true;
            } else if token.len() > word.len()
                && token.is_char_boundary(word.len())
                && token[..word.len()].eq_ignore_ascii_case(word)
                && !names.contains(&token)
            {
                let rest = &token[word.len()..];
                let dotted = rest.starts_with('.')
                    && token.split('.').filter(|p| !p.is_empty()).count() >= 3;
                // Or a quoted value joined by `_` or `-` (`chirp` of `database:
                // "chirp_dev",`: a Phoenix project's dev_database, session 48).
                let quoted = rest.starts_with(['_', '-'])
                    && ['"', '\'']
                        .iter()
                        .any(|q| line.contains(&format!("{q}{token}{q}")));
                if dotted || quoted {
                    names.push(token);
                }
            }
        }
    }
    match names[..] {
        [name] if !alone => Some(name.to_owned()),
        _ => None,
    }
}

/// The one URL of `lines` that the answer (a URL alone, a trailing `.` and backticks aside)
/// is the start of, cut before a `/` — when no line writes the answer's URL whole: `None`
/// otherwise, or for an answer to no question (`prompt`). Found with a Swift package (session
/// 42): asked "Which base URL does the API client use?", shown `Config(baseURL: URL(string:
/// "https://api.skylog.dev/v2")!)`, Qwen2.5-Coder-0.5B answered `https://api.skylog.dev`.
///
/// ```
/// use toolmend::agent::correct::cut_url;
/// let lines = [r#"26     public static let standard = Config(baseURL: URL(string: "https://api.skylog.dev/v2")!)"#];
/// let asked = "Which base URL does the API client use?";
/// assert_eq!(cut_url("https://api.skylog.dev", asked, &lines), Some("https://api.skylog.dev/v2".into()));
/// assert_eq!(cut_url("https://api.skylog.dev/v2", asked, &lines), None);
/// assert_eq!(cut_url("The API at https://api.skylog.dev", asked, &lines), None);
/// ```
#[must_use]
pub fn cut_url(answer: &str, prompt: &str, lines: &[&str]) -> Option<String> {
    let given = bare(answer);
    if !is_question(prompt) || !given.contains("://") || given.contains(char::is_whitespace) {
        return None;
    }
    let given = given.trim_end_matches('/');
    let mut urls: Vec<&str> = Vec::new();
    let mut whole = false;
    for line in lines {
        for token in line.split(|c: char| c.is_whitespace() || "\"'`()<>,;".contains(c)) {
            let token = token.trim_end_matches(['.', '!']);
            if !token.contains("://") {
                continue;
            }
            if token.trim_end_matches('/') == given {
                whole = true;
            } else if token.starts_with(given)
                && token[given.len()..].starts_with('/')
                && token.len() > given.len() + 1
                && !urls.contains(&token)
            {
                urls.push(token);
            }
        }
    }
    match urls[..] {
        [url] if !whole => Some(url.to_owned()),
        _ => None,
    }
}

/// The one absolute path of `lines` that the answer (a path alone, a trailing `.`, quotes and
/// backticks aside) is without its leading `/` — when no line writes the answer as it is,
/// outside that path: `None` otherwise, or for an answer to no question (`prompt`). Found with
/// an Ansible role (session 44): asked "Where does reg-01 keep Harbor's data?", shown
/// `harbor_data_volume: /srv/harbor-data`, Qwen2.5-Coder-0.5B answered `srv/harbor-data`.
///
/// ```
/// use toolmend::agent::correct::cut_path;
/// let lines = ["3\tharbor_data_volume: /srv/harbor-data"];
/// let asked = "Where does reg-01 keep Harbor's data?";
/// assert_eq!(cut_path("srv/harbor-data", asked, &lines), Some("/srv/harbor-data".into()));
/// assert_eq!(cut_path("`srv/harbor-data`.", asked, &lines), Some("/srv/harbor-data".into()));
/// assert_eq!(cut_path("/srv/harbor-data", asked, &lines), None);
/// assert_eq!(cut_path("srv/harbor-data", asked, &["root: srv/harbor-data or /srv/harbor-data"]), None);
/// assert_eq!(cut_path("harbor-data", asked, &lines), None);
/// ```
#[must_use]
pub fn cut_path(answer: &str, prompt: &str, lines: &[&str]) -> Option<String> {
    let given = answer
        .trim()
        .trim_end_matches('.')
        .trim_matches(['`', '"', '\''])
        .trim_end_matches('/');
    if !is_question(prompt)
        || !given.contains('/')
        || given.starts_with(['/', '.', '~'])
        || given.contains("://")
        || given.contains(char::is_whitespace)
    {
        return None;
    }
    let mut rooted = false;
    for line in lines {
        for token in line.split(|c: char| c.is_whitespace() || "\"'`()<>,;=".contains(c)) {
            let token = token
                .trim_end_matches(['.', '!', ':'])
                .trim_end_matches('/');
            let token = token.rsplit_once(':').map_or(token, |(_, t)| t);
            if token == given {
                return None;
            }
            rooted |= token.strip_prefix('/') == Some(given);
        }
    }
    rooted.then(|| format!("/{given}"))
}

/// The one value of `lines` that the answer (a whole number alone, a trailing `.` and
/// backticks aside) is without its unit: the number, then one to three letters written on to
/// it (`256Mi`, `500m`, `30s`, `2g`) — when no line writes the number alone: `None`
/// otherwise, or for an answer to no question (`prompt`). Found with a Helm chart (session
/// 45): asked "What is the default memory limit of the container?", shown `memory: 256Mi`,
/// Qwen2.5-Coder-0.5B answered `256` (and, in session 46, `256 Mi`: a number and its unit
/// written apart give the value written together, when a line writes it so).
///
/// ```
/// use toolmend::agent::correct::cut_unit;
/// let lines = ["values.yaml (line 43, under the key on line 41):     memory: 256Mi"];
/// let asked = "What is the default memory limit of the container?";
/// assert_eq!(cut_unit("256", asked, &lines), Some("256Mi".into()));
/// assert_eq!(cut_unit("256Mi", asked, &lines), None);
/// assert_eq!(cut_unit("256", asked, &["memory: 256Mi", "replicas: 256"]), None);
/// assert_eq!(cut_unit("256", asked, &["memory: 256Mi", "cache: 256Ki"]), None);
/// assert_eq!(cut_unit("256 Mi", asked, &lines), Some("256Mi".into()));
/// assert_eq!(cut_unit("256 Ki", asked, &lines), None);
/// ```
#[must_use]
pub fn cut_unit(answer: &str, prompt: &str, lines: &[&str]) -> Option<String> {
    let given = bare(answer);
    // Or the number and its unit written apart (`256 Mi`): the value written together.
    if let Some((number, unit)) = given.split_once(' ')
        && is_question(prompt)
        && !number.is_empty()
        && number.chars().all(|c| c.is_ascii_digit())
        && (1..=3).contains(&unit.len())
        && unit.chars().all(|c| c.is_ascii_alphabetic())
    {
        let whole = format!("{number}{unit}");
        let written = lines.iter().any(|line| {
            line.split(|c: char| c.is_whitespace() || "\"'`()<>,;:=[]{}".contains(c))
                .any(|t| t == whole)
        });
        return written.then_some(whole);
    }
    if !is_question(prompt) || given.is_empty() || !given.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut values: Vec<&str> = Vec::new();
    for line in lines {
        let text = line_body(line).unwrap_or(line);
        for token in text.split(|c: char| c.is_whitespace() || "\"'`()<>,;:=[]{}".contains(c)) {
            let Some(unit) = token.strip_prefix(given) else {
                continue;
            };
            if unit.is_empty() {
                return None;
            }
            if (1..=3).contains(&unit.len())
                && unit.chars().all(|c| c.is_ascii_alphabetic())
                && !values.contains(&token)
            {
                values.push(token);
            }
        }
    }
    match values[..] {
        [value] => Some(value.to_owned()),
        _ => None,
    }
}

/// The one number of `lines` (the lines bearing on the request, [`bearing`]; a read's line
/// numbers and a search's places aside) that the answer (a whole number alone, a trailing `.`
/// and backticks aside) is the start of — when no line writes the answer itself: `None`
/// otherwise, or for an answer to no question (`prompt`). Found with a Dart client (session
/// 46): shown `this.ttl = const Duration(seconds: 300),`, Qwen2.5-Coder-0.5B answered `30`,
/// two tokens and the end of its turn (and `25` for `this.maxEntries = 256,`).
///
/// ```
/// use toolmend::agent::correct::cut_number;
/// let lines = ["23\t    this.ttl = const Duration(seconds: 300),"];
/// let asked = "How many seconds are cached responses kept by default?";
/// assert_eq!(cut_number("30", asked, &lines), Some("300".into()));
/// assert_eq!(cut_number("300", asked, &lines), None);
/// assert_eq!(cut_number("2", asked, &lines), None);
/// assert_eq!(cut_number("30", asked, &["seconds: 300", "retries: 30"]), None);
/// assert_eq!(cut_number("30", asked, &["seconds: 300", "minutes: 301"]), None);
/// assert_eq!(cut_number("2", "How many notes are there?", &["groceries.md (23 bytes)"]), None);
/// ```
#[must_use]
pub fn cut_number(answer: &str, prompt: &str, lines: &[&str]) -> Option<String> {
    let given = bare(answer);
    if !is_question(prompt) || given.is_empty() || !given.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut longer: Vec<&str> = Vec::new();
    for line in lines {
        let text = line_body(line).unwrap_or(line);
        // A listing's size (`notes.md (23 bytes)`) is no value a question asks for.
        if text.trim_end().ends_with(" bytes)") {
            continue;
        }
        for number in text.split(|c: char| !c.is_ascii_digit()) {
            if number == given {
                return None;
            }
            if number.len() > given.len() && number.starts_with(given) && !longer.contains(&number)
            {
                longer.push(number);
            }
        }
    }
    match longer[..] {
        [number] => Some(number.to_owned()),
        _ => None,
    }
}

/// The message added before the turn after an answer giving `short`, the first part of the
/// dotted `name` the tool results write ([`cut_name`]), the start of a URL ([`cut_url`]), a
/// path without its leading `/` ([`cut_path`]), a number without its unit ([`cut_unit`]) or
/// the start of a number ([`cut_number`]),
/// once a run; `lines`: the lines bearing
/// on the request ([`bearing`]).
#[must_use]
pub fn name_cut(prompt: &str, short: &str, name: &str, lines: Option<&str>) -> String {
    // An absolute path is written whole ([`cut_path`]). A URL's path is part of the address:
    // the answer is the whole. Not "the whole value", words the model answered with (a Swift
    // package, session 43).
    let m = if short.contains(' ') && short.replace(' ', "") == name {
        format!(
            "`{short}` splits `{name}`, the value the tool results write. The user asked \
             \"{}\": answer with `{name}`, as written.",
            restated(prompt)
        )
    } else if name.chars().all(|c| c.is_ascii_digit()) {
        format!(
            "`{short}` is only the start of `{name}`, the number the tool results write. The \
             user asked \"{}\": answer with `{name}`, as written.",
            restated(prompt)
        )
    } else if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!(
            "`{short}` leaves out the unit of `{name}`, the value the tool results write. The \
             user asked \"{}\": answer with `{name}`, as written.",
            restated(prompt)
        )
    } else if name.starts_with('/') {
        format!(
            "`{short}` drops the leading `/` of `{name}`, the path the tool results write. The \
             user asked \"{}\": answer with `{name}`, as written.",
            restated(prompt)
        )
    } else if name.contains("://") {
        format!(
            "`{short}` is only the start of `{name}`, the URL the tool results write. The user \
             asked \"{}\": answer with `{name}`, path included.",
            restated(prompt)
        )
    } else if !name.contains('.') {
        // A value joined by `_` or `-` is one value: the whole is the answer (`chirp_dev`;
        // told "the whole name, or its part that answers", the model answered `chirp` again:
        // a Phoenix project's dev_database, session 48).
        format!(
            "`{short}` is only the start of `{name}`, the value the tool results write. The \
             user asked \"{}\": answer with `{name}`, as written.",
            restated(prompt)
        )
    } else {
        format!(
            "`{short}` is only the first part of `{name}`, what the tool results write. The \
             user asked \"{}\": answer with what that tells — the whole name, or its part \
             that answers the question.",
            restated(prompt)
        )
    };
    with_lines(m, lines)
}

/// What a version question (`prompt`) asks the version of, lower case: the word before
/// `version` ("the minimum macOS version" → `macos`), or after "version of" ("Which version of
/// swift-argument-parser …" → `swift-argument-parser`), a possessive's `'s` aside; `None` when
/// it is a qualifier, a filler or a word for the workspace itself (`project`, `package`).
#[must_use]
pub fn version_subject(prompt: &str) -> Option<String> {
    const NOT_SUBJECTS: &[&str] = &[
        "the",
        "a",
        "an",
        "which",
        "what",
        "minimum",
        "maximum",
        "required",
        "current",
        "latest",
        "default",
        "this",
        "its",
        "project",
        "package",
        "app",
        "application",
        "crate",
        "library",
        "module",
        "repository",
        "repo",
        "workspace",
        "code",
        "new",
        "exact",
        "same",
    ];
    let words: Vec<String> = crate::tools::request_words(prompt)
        .take(200)
        .map(|w| {
            let w = w.to_lowercase();
            w.strip_suffix("'s").map_or(w.clone(), str::to_owned)
        })
        .collect();
    let at = words.iter().position(|w| w == "version")?;
    let subject = if words.get(at + 1).is_some_and(|w| w == "of") {
        words[at + 2..]
            .iter()
            .find(|w| !["the", "a", "an"].contains(&w.as_str()))?
    } else {
        words.get(at.checked_sub(1)?)?
    };
    let fit = subject.chars().count() >= 2
        && subject
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !NOT_SUBJECTS.contains(&subject.as_str());
    fit.then(|| subject.clone())
}

/// The message added before the turn after an answer to a version question (`prompt`) giving
/// a version (`version`) the tool results write only on lines about something else (`other`,
/// one of them), when lines about what the question asks the version of (`subject`) say
/// another (`about`, the first few): once a run. Found with a Swift package (session 42): asked
/// "What is the minimum macOS version the package supports?", shown Package.swift,
/// Qwen2.5-Coder-0.5B answered `1.5.4` — swift-log's, not `.macOS(.v13)`.
#[must_use]
pub fn version_elsewhere(
    prompt: &str,
    version: &str,
    other: &str,
    subject: &str,
    about: &[&str],
) -> String {
    format!(
        "`{version}` is the version on a line about something else, not {subject}: `{}`. The \
         user asked \"{}\": answer from the line about {subject}, as it writes the version: {}",
        other.trim(),
        restated(prompt),
        as_code(about)
    )
}

/// The message after an answer to a version question (`prompt`) that gave `version`, which the
/// line `line` about `subject` writes for another name: the version the line gives for
/// `subject` is `wanted`, the first after its name.
#[must_use]
pub fn version_of_other_name(
    prompt: &str,
    version: &str,
    line: &str,
    subject: &str,
    wanted: &str,
) -> String {
    format!(
        "`{version}` is not the version the line gives for {subject}: on `{}`, {subject}'s is          `{wanted}`. The user asked \"{}\": answer with the version the line gives for {subject}.",
        line.trim(),
        restated(prompt)
    )
}

/// `message`, then `lines` (the lines bearing on the request, see [`bearing`]) after a space
/// when there are any.
fn with_lines(mut message: String, lines: Option<&str>) -> String {
    if let Some(lines) = lines {
        message.push(' ');
        message.push_str(lines);
    }
    message
}

/// `lines`, each trimmed and in backticks, joined by `, `: the lines a message quotes.
fn as_code(lines: &[&str]) -> String {
    lines
        .iter()
        .map(|l| format!("`{}`", l.trim()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The message added before the turn after an answer to a version question (`prompt`) giving
/// a whole number (`given`) no line of the tool results writes as one — a read's line number,
/// a part of another version — when lines about what the question asks the version of
/// (`subject`) write one (`about`, the first few): once a run. Found with a Clojure service
/// (session 47): asked "Which Java version does CI run the tests on?", shown `JAVA_VERSION:
/// "17"`, Qwen2.5-Coder-0.5B answered `11`.
#[must_use]
pub fn version_unfounded(prompt: &str, given: &str, subject: &str, about: &[&str]) -> String {
    format!(
        "No line of the tool results writes `{given}` as a {subject} version (a read's line \
         numbers are no part of the file). The user asked \"{}\": answer from the line about \
         {subject}, as it writes the version: {}",
        restated(prompt),
        as_code(about)
    )
}

/// A setting a tool result's line writes, `key: value` or `key = value`: its key's words, with
/// those of the key it is under (grep's "under the key on line N", or a read's YAML
/// indentation), its value, and the line's text.
struct Keyed<'t> {
    words: Vec<String>,
    value: &'t str,
    text: &'t str,
}

/// The key `text` (a line of a file) sets a value under, and the value as written: `image` of
/// `    image: x`, of `- image: x`, of `image = "x"` — letters, digits, `_`, `-` and `.` (quotes
/// aside), then `:` or `=` (not `::`, `==`, `=>`), then something.
pub(crate) fn setting_key(text: &str) -> Option<(&str, &str)> {
    let t = text.trim_start();
    let t = t.strip_prefix("- ").unwrap_or(t);
    let at = t.find([':', '='])?;
    let key = t[..at].trim_end().trim_matches(['"', '\'']);
    // Nim's export mark (`DefaultKeepAliveSecs* = 35`).
    let key = key.strip_suffix('*').unwrap_or(key);
    let value = t[at + 1..].trim();
    (!key.is_empty()
        && key.starts_with(char::is_alphabetic)
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !t[at + 1..].starts_with([':', '=', '>'])
        && !value.is_empty())
    .then_some((key, value))
}

/// The key and value `text` (a line of a file) writes ([`setting_key`]; `this.`/`self.`
/// aside) when the value is one literal holding a digit — not a block, a template, a
/// reference or a call.
pub(crate) fn keyed_of(text: &str) -> Option<(&str, &str)> {
    let (key, value) = setting_key(text).or_else(|| typed_setting(text))?;
    let key = key
        .strip_prefix("this.")
        .or_else(|| key.strip_prefix("self."))
        .unwrap_or(key);
    let value = value
        .trim_end_matches([',', ';'])
        .trim_matches(['"', '\''])
        .trim();
    // A version's requirement operator aside (`"node": ">=20.11.1"`: the value is `20.11.1`; a
    // NestJS service, session 56, where that line was no setting and the model, answering
    // from a dependency's, was pointed at `"ts-node": "10.9.2"`).
    let value = match value.trim_start_matches(['>', '<', '=', '^', '~', ' ']) {
        core if core.len() < value.len() && crate::tools::dotted_number(core) => core,
        _ => value,
    };
    let literal = !value.is_empty()
        && !value.contains(char::is_whitespace)
        && !value.contains(['{', '(', '[', '|', '>', '$'])
        && value.chars().any(|c| c.is_ascii_digit());
    literal.then_some((key, value))
}

/// The name a declaration with a type sets and the value it sets it to (`defaultStatusPort` and
/// `9614;` of `enum ushort defaultStatusPort = 9614;`, `maxRetries` of `private static final
/// int maxRetries = 5;`): the keywords a declaration opens with aside
/// (`crate::builtin::declared`), one type (letters, digits, `_`, `<>[]?*&:.,`), the name, `=`.
/// Found with a D service (session 56): the default `defaultStatusPort = 9614` was no setting
/// of "the status server's port" to the lines shown as bearing, which showed a unit test's
/// `assert(cfg.status.port == defaultStatusPort);`.
///
fn typed_setting(text: &str) -> Option<(&str, &str)> {
    const NOT_TYPES: &[&str] = &[
        "return", "if", "else", "elif", "while", "for", "case", "yield", "await", "not", "and",
        "or", "assert", "when", "unless", "until", "echo", "print", "export", "set",
    ];
    let t = crate::builtin::declared(text).0;
    let (ty, rest) = t.split_once(char::is_whitespace)?;
    let rest = rest.trim_start();
    let typed = !ty.is_empty()
        && ty.starts_with(char::is_alphabetic)
        && ty
            .chars()
            .all(|c| c.is_alphanumeric() || "_<>[]?*&:.,".contains(c))
        && !NOT_TYPES.contains(&ty);
    let eq = rest.find('=')?;
    let (key, value) = setting_key(rest)?;
    (typed && !rest[..eq].contains(':') && rest[..eq].trim_end() == key).then_some((key, value))
}

/// An answer as the bare value it gives: spaces around it, backticks and a closing `.` aside.
fn bare(answer: &str) -> &str {
    answer.trim().trim_matches('`').trim_end_matches('.')
}

/// The text a line of a tool's output shows from a file: a search's match line without its
/// place (`values.yaml (line 43, under the key on line 41): `), a read's numbered line without
/// its number (`43\t`); `None` for any other line (a listing's, a message's).
fn line_body(line: &str) -> Option<&str> {
    match line.split_once("): ") {
        Some((place, body)) if place.contains(" (line ") => Some(body),
        _ => line
            .trim_start()
            .split_once('\t')
            .filter(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
            .map(|(_, body)| body),
    }
}

/// The words of the key that the line `lines[i]` of a tool's output is under (`limits` of
/// `memory: 256Mi`): a search's match line names it (`path (line 43, under the key on line
/// 41): …`), a read's numbered line is under the nearest line above it indented less. Empty
/// when there is none, or it opens no block (`limits:`).
pub(crate) fn parent_key_words(lines: &[&str], i: usize) -> Vec<String> {
    let Some(line) = lines.get(i) else {
        return Vec::new();
    };
    let parent = match line.split_once("): ") {
        Some((place, _)) if place.contains(" (line ") => {
            let (path, at) = place.split_once(" (line ").unwrap_or_default();
            let own: String = at.chars().take_while(char::is_ascii_digit).collect();
            match place.split_once("under the key on line ") {
                Some((_, n)) => {
                    let head = format!("{path} (line {n}");
                    lines
                        .iter()
                        .find(|l| l.starts_with(&head) && l[head.len()..].starts_with([')', ',']))
                        .and_then(|l| l.split_once("): ").map(|(_, b)| b))
                }
                // Or the line a search shows it inside: `path (line 41, which line 43 is
                // inside): limits:`.
                None => {
                    let inside = format!(", which line {own} is inside): ");
                    lines[..i].iter().rev().find_map(|l| {
                        l.starts_with(&format!("{path} (line "))
                            .then(|| l.split_once(&inside).map(|(_, b)| b))
                            .flatten()
                    })
                }
            }
        }
        _ => line.trim_start().split_once('\t').and_then(|(n, body)| {
            if n.is_empty() || !n.chars().all(|c| c.is_ascii_digit()) {
                return None;
            }
            let indent = body.len() - body.trim_start().len();
            lines[..i].iter().rev().find_map(|l| {
                let (n, b) = l.trim_start().split_once('\t')?;
                if !n.chars().all(|c| c.is_ascii_digit()) {
                    return None;
                }
                let lead = b.len() - b.trim_start().len();
                (lead < indent && !b.trim().is_empty()).then_some(b)
            })
        }),
    };
    // A key opening a mapping or a list on its line (`"dplyr": {` in a lockfile, `deps: [`)
    // as well as one alone (`limits:`), quotes aside.
    parent
        .map(|p| p.trim().trim_start_matches("- "))
        .map(|p| {
            p.strip_suffix('{')
                .or_else(|| p.strip_suffix('['))
                .map_or(p, str::trim_end)
        })
        .and_then(|p| p.strip_suffix(':'))
        .map(|k| k.trim().trim_matches(['"', '\'']))
        .filter(|k| !k.is_empty() && !k.contains(char::is_whitespace))
        .map(|k| crate::tools::name_words(&k.replace('.', "_")))
        .unwrap_or_default()
}

/// The settings the tool results `texts` write (see [`Keyed`]).
fn keyed_lines<'t>(texts: &[&'t str]) -> Vec<Keyed<'t>> {
    let mut out = Vec::new();
    for text in texts {
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            // A search's match line (`path (line 43, under the key on line 41): memory: 256Mi`)
            // or a read's numbered line (`43\t    memory: 256Mi`).
            let Some(body) = line_body(line) else {
                continue;
            };
            let Some((key, value)) = keyed_of(body) else {
                continue;
            };
            let mut words = crate::tools::name_words(&key.replace('.', "_"));
            words.extend(parent_key_words(&lines, i));
            out.push(Keyed {
                words,
                value,
                text: body.trim(),
            });
        }
    }
    out
}

/// For an answer (`answer`) to a question (`prompt`) that gives the value of a setting the tool
/// results (`texts`) write under a key naming fewer of the question's words than another
/// setting's key does (with the keys they are under; units of measure and words any question
/// holds aside): the value, its line, and up to three lines of the settings whose keys name the
/// most of them — which name every word the answer's key names. Found with a Helm chart
/// (session 43): asked "What is the default memory limit of the container?", shown `limits:`
/// with `cpu: 500m` and `memory: 256Mi` under it, Qwen2.5-Coder-0.5B answered `500m`; asked
/// "On which port does the container listen?", it answered the Service's `port: 8080`, not
/// `containerPort: 3000`.
///
/// ```
/// use toolmend::agent::correct::value_elsewhere;
/// let grep = "values.yaml (line 41): limits:\nvalues.yaml (line 42, under the key on line 41):     cpu: 500m\nvalues.yaml (line 43, under the key on line 41):     memory: 256Mi";
/// let q = "What is the default memory limit of the container?";
/// assert_eq!(
///     value_elsewhere("500m", q, &[grep]),
///     Some(("500m".into(), "cpu: 500m".into(), vec!["memory: 256Mi".into()]))
/// );
/// assert_eq!(value_elsewhere("256Mi", q, &[grep]), None);
/// let read = "30\t  port: 8080\n33\t              containerPort: 3000";
/// let q = "On which port does the container listen?";
/// assert_eq!(value_elsewhere("Port 8080.", q, &[read]).map(|v| v.2), Some(vec!["containerPort: 3000".into()]));
/// assert_eq!(value_elsewhere("3000", q, &[read]), None);
/// let units = "1\ttimeout = 45\n2\ttimeoutSeconds = 15";
/// assert_eq!(value_elsewhere("45", "What is the timeout in seconds?", &[units]), None);
/// // Asked for a version, a setting holding none is no better (a Julia package's CI, session
/// // 51: `timeout-minutes: 40` under `test:` was offered for "… CI runs the test suite on?").
/// let ci = "18\t  test:\n21\t    timeout-minutes: 40\n39\t          - version: '1.10'";
/// let q = "Which is the newest stable Julia release that CI runs the test suite on?";
/// assert_eq!(value_elsewhere("Julia 1.10.", q, &[ci]), None);
/// ```
#[must_use]
pub fn value_elsewhere(
    answer: &str,
    prompt: &str,
    texts: &[&str],
) -> Option<(String, String, Vec<String>)> {
    const ANY: &[&str] = &[
        "what", "which", "does", "the", "default", "value", "values", "set", "used", "use",
        "version", "versions", "this", "that", "with", "from", "for", "and", "how", "many", "much",
        "are", "is",
    ];
    if !is_question(prompt) {
        return None;
    }
    let asked: Vec<String> = crate::tools::request_words(prompt)
        .take(200)
        .flat_map(|w| w.split(|c: char| !c.is_alphanumeric()))
        .map(str::to_lowercase)
        .filter(|w| {
            w.chars().count() >= 3
                && !ANY.contains(&w.as_str())
                && crate::tools::unit_named(w).is_none()
        })
        .collect();
    let named = |k: &Keyed| -> Vec<&String> {
        asked
            .iter()
            .filter(|a| k.words.iter().any(|w| crate::tools::same_word(w, a)))
            .collect()
    };
    let settings = keyed_lines(texts);
    let given: Vec<&str> = answer
        .split(|c: char| c.is_whitespace() || "`\"',;()".contains(c))
        .map(|t| t.trim_end_matches(['.', ':', '!', '?']))
        .filter(|t| !t.is_empty())
        .collect();
    // Asked for a version, only a setting writing one can be the one asked about.
    let version_asked = crate::tools::asks_version_or_release(prompt);
    let of_kind = |k: &Keyed| !version_asked || crate::tools::dotted_number(k.value);
    let gives = |k: &Keyed| given.iter().any(|g| g.eq_ignore_ascii_case(k.value));
    let answered: Vec<&Keyed> = settings.iter().filter(|k| gives(k)).collect();
    let (first, rest) = answered.split_first()?;
    let mut best_of_answer = first;
    for k in rest {
        if named(k).len() > named(best_of_answer).len() {
            best_of_answer = k;
        }
    }
    let said = named(best_of_answer);
    let top = settings
        .iter()
        .filter(|k| !gives(k) && of_kind(k))
        .map(|k| named(k).len())
        .max()?;
    if top <= said.len() {
        return None;
    }
    // Of those naming as many, the ones whose keys hold the fewest other words: `"node":
    // ">=20.11.1"` over `"ts-node": "10.9.2"` and `"source-map-support": "0.5.21"` for "What's
    // the oldest Node.js version osprey says it supports?" (a NestJS service, session 56).
    let unnamed = |k: &Keyed| {
        k.words
            .iter()
            .filter(|w| !asked.iter().any(|a| crate::tools::same_word(w, a)))
            .count()
    };
    let fewest = settings
        .iter()
        .filter(|k| !gives(k) && of_kind(k) && named(k).len() == top)
        .map(unnamed)
        .min()?;
    let mut better: Vec<String> = Vec::new();
    for k in settings.iter().filter(|k| !gives(k) && of_kind(k)) {
        let n = named(k);
        if n.len() == top
            && unnamed(k) == fewest
            && said.iter().all(|w| n.contains(w))
            && !better.iter().any(|b| b == k.text)
            && better.len() < 3
        {
            better.push(k.text.to_owned());
        }
    }
    (!better.is_empty()).then(|| {
        (
            best_of_answer.value.to_owned(),
            best_of_answer.text.to_owned(),
            better,
        )
    })
}

/// The message added before the turn after an answer giving `value`, the value of `line`, a
/// setting whose key names less of what the question (`prompt`) asks than the settings of
/// `better` do ([`value_elsewhere`]): once a run, the turn being for the answer.
#[must_use]
pub fn value_of_other_key(prompt: &str, value: &str, line: &str, better: &[String]) -> String {
    format!(
        "`{value}` is the value of `{line}`, a setting the user's question does not ask about. \
         The user asked \"{}\": the setting it asks about is {} — answer with its value.",
        restated(prompt),
        better
            .iter()
            .map(|l| format!("`{l}`"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The number of `answer` that the model already gave before it looked at anything
/// (`guesses`: the replies of its turns before its first call) when none of the `lines`
/// bearing on the question `prompt` holds it while one of them holds a number: the answer is
/// still the guess. Not for a number the question itself holds. Found with a Helm chart
/// (session 43): asked "On which port does the container listen?", Qwen2.5-Coder-0.5B answered
/// `8080` without looking, then searched for `8080`, and answered `8080` again after being
/// shown `The container listens on port 3000` as the line bearing on the request.
///
/// ```
/// use toolmend::agent::correct::guess_kept;
/// let q = "On which port does the container listen?";
/// let lines = ["README.md (line 19): The container listens on port 3000."];
/// let guesses = ["The container listens on port 8080."];
/// assert_eq!(guess_kept("8080", q, &guesses, &lines), Some("8080".to_owned()));
/// assert_eq!(guess_kept("3000", q, &guesses, &lines), None);
/// assert_eq!(guess_kept("8080", q, &["I do not know."], &lines), None);
/// assert_eq!(guess_kept("8080", q, &guesses, &["values.yaml (line 3): port: 8080"]), None);
/// assert_eq!(guess_kept("8080", q, &guesses, &["README.md (line 2): The port is set in values."]), None);
/// ```
#[must_use]
pub fn guess_kept(answer: &str, prompt: &str, guesses: &[&str], lines: &[&str]) -> Option<String> {
    if !is_question(prompt) {
        return None;
    }
    let texts: Vec<&str> = lines
        .iter()
        .map(|l| l.split_once("): ").map_or(*l, |(_, t)| t))
        .collect();
    if !texts.iter().any(|t| t.chars().any(|c| c.is_ascii_digit())) {
        return None;
    }
    answer
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map(|w| w.trim_matches('.'))
        .filter(|w| !w.is_empty() && w.starts_with(|c: char| c.is_ascii_digit()))
        .find(|n| {
            guesses.iter().any(|g| holds_number(g, n))
                && !holds_number(prompt, n)
                && !texts.iter().any(|t| holds_number(t, n))
        })
        .map(str::to_owned)
}

/// The message added before the turn after an answer that is still the number `guess` given
/// before looking ([`guess_kept`]): once a run, the turn being for the answer (its nudge shows
/// the lines bearing on the request: see [`bearing`]).
#[must_use]
pub fn guess_repeated(prompt: &str, guess: &str) -> String {
    format!(
        "`{guess}` is what you answered before looking at anything, and none of the lines \
         bearing on the request holds it. The user asked \"{}\": answer from what those lines \
         say, not from your first guess.",
        restated(prompt)
    )
}

/// The message added before the turn after an answer to a version question (`prompt`) that
/// writes no number (`answer`, its first line named) when the tool results' bearing `lines`
/// ([`bearing`]) write a version: once a run.
#[must_use]
pub fn version_unanswered(prompt: &str, answer: &str, lines: Option<&str>) -> String {
    let said: String = answer
        .lines()
        .next()
        .unwrap_or_default()
        .trim()
        .chars()
        .take(80)
        .collect();
    let m = format!(
        "`{said}` gives no version. The user asked \"{}\": answer with the version the tool \
         results write, as they write it.",
        restated(prompt)
    );
    with_lines(m, lines)
}

/// The message added before the turn after an answer giving `short`, the start of `version`
/// the tool results write ([`cut_version`]), once a run; `lines`: the lines bearing on the
/// request ([`bearing`]).
#[must_use]
pub fn version_cut(prompt: &str, short: &str, version: &str, lines: Option<&str>) -> String {
    let m = format!(
        "`{short}` is only the start of `{version}`, the version the tool results write. The \
         user asked \"{}\": answer with the whole version, as the results write it.",
        restated(prompt)
    );
    with_lines(m, lines)
}

/// The numbers with a decimal point in `text`: digits, then one or more `.digits` groups
/// (`1.21`, `0.3.1`, `2.25`; a sentence's closing `.` is not part of one).
fn numbers(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts =
            b[i].is_ascii_digit() && (i == 0 || !(b[i - 1].is_ascii_digit() || b[i - 1] == b'.'));
        if !starts {
            i += 1;
            continue;
        }
        let mut end = i;
        let mut dots = 0;
        loop {
            while end < b.len() && b[end].is_ascii_digit() {
                end += 1;
            }
            if end + 1 < b.len() && b[end] == b'.' && b[end + 1].is_ascii_digit() {
                dots += 1;
                end += 1;
            } else {
                break;
            }
        }
        if dots > 0 && out.len() < 20 {
            out.push(text[i..end].to_owned());
        }
        i = end.max(i + 1);
    }
    out
}

/// Whether `text` holds the number `n` whole: not inside a longer number (`1.2` is not in
/// `1.21` nor in `11.2`).
pub(crate) fn holds_number(text: &str, n: &str) -> bool {
    let b = text.as_bytes();
    text.match_indices(n).any(|(at, _)| {
        let end = at + n.len();
        let before = at > 0
            && (b[at - 1].is_ascii_digit()
                || (b[at - 1] == b'.' && at > 1 && b[at - 2].is_ascii_digit()));
        let after = end < b.len()
            && (b[end].is_ascii_digit()
                || (b[end] == b'.' && b.get(end + 1).is_some_and(u8::is_ascii_digit)));
        !before && !after
    })
}

/// The message added before the turn after an answer holding `number`, which no tool result
/// holds ([`unfounded_number`]), once a run; `look`: a call that reads the file the results came
/// from, when not made yet; else `lines`, the lines bearing on the request ([`bearing`]), when
/// there are any, to answer from.
#[must_use]
pub fn number_unfounded(
    number: &str,
    prompt: &str,
    look: Option<&str>,
    lines: Option<&str>,
) -> String {
    let mut m = format!(
        "`{number}` is in none of the tool results: nothing you were shown says it. The user \
         asked \"{}\": answer from what the tool results show",
        restated(prompt)
    );
    match (look, lines) {
        (Some(call), _) => {
            m.push_str(". To see the whole file the results came from, call: ");
            m.push_str(call);
        }
        (None, Some(_)) => {
            m.push('.');
            m = with_lines(m, lines);
        }
        (None, None) => m.push_str(", or call a tool to look further."),
    }
    m
}

/// The answer's number (`answer` a whole number alone, backticks and a closing `.` aside) when
/// the tool results (`results`) hold it only as the number of a read's line (`14\t(defn
/// start-pool`), and some line's text writes a whole number — for a question ([`is_question`])
/// that asks for no number worked out or counted ("are there", "does the file have", lines,
/// files). Found with a Clojure service
/// (session 47): asked "How many connections does the database pool hold in production?", shown
/// lines 14 to 17 of `db.clj`, Qwen2.5-Coder-0.5B answered `14`.
///
/// ```
/// use toolmend::agent::correct::line_number_as_answer;
/// let results = ["14\t(defn start-pool\n15\t  [{:keys [pool-size]}]", "CHANGELOG.md (line 7): - Raise the pool from 16 to 24 connections."];
/// let q = "How many connections does the database pool hold in production?";
/// assert_eq!(line_number_as_answer("14", q, results), Some("14".into()));
/// assert_eq!(line_number_as_answer("24", q, results), None);
/// assert_eq!(line_number_as_answer("14", "How many functions are there?", results), None);
/// let retried = "In production, how many times is a failing job retried?";
/// assert_eq!(line_number_as_answer("14", retried, results), Some("14".into()));
/// assert_eq!(line_number_as_answer("14", q, ["14\t(defn start-pool :size 14)"]), None);
/// ```
#[must_use]
pub fn line_number_as_answer<'r>(
    answer: &str,
    prompt: &str,
    results: impl IntoIterator<Item = &'r str> + Clone,
) -> Option<String> {
    let n = bare(answer);
    let words = lower_words(prompt);
    if !is_question(prompt)
        || n.is_empty()
        || !n.chars().all(|c| c.is_ascii_digit())
        || holds_number(prompt, n)
        || asks_worked_out(&words)
        || words.iter().any(|w| {
            [
                "there", "have", "has", "contain", "contains", "lines", "files",
            ]
            .contains(&w.as_str())
        })
    {
        return None;
    }
    let lines = || results.clone().into_iter().flat_map(str::lines);
    let numbered = lines().any(|l| l.trim_start().split_once('\t').is_some_and(|(k, _)| k == n));
    let texts: Vec<&str> = lines().map(|l| line_body(l).unwrap_or(l)).collect();
    let other = texts.iter().any(|t| {
        t.split(|c: char| !c.is_ascii_digit())
            .any(|d| !d.is_empty() && d != n)
    });
    (numbered && other && !texts.iter().any(|t| holds_number(t, n))).then(|| n.to_owned())
}

/// The message added before the turn after an answer giving `number`, only a read's line
/// number ([`line_number_as_answer`]), once a run; `lines`: the lines bearing on the request
/// ([`bearing`]).
#[must_use]
pub fn line_number_answered(
    number: &str,
    prompt: &str,
    lines: Option<&str>,
    values: &[String],
) -> String {
    let m = format!(
        "`{number}` is only the number of a line of a read, not a value the file writes. The \
         user asked \"{}\": answer from the text of the lines.",
        restated(prompt)
    );
    let mut m = with_lines(m, lines);
    // The numbers those lines write, when there are few: what the answer is among (a Clojure
    // service, session 49: told the above, Qwen2.5-Coder-0.5B answered the line number again).
    if lines.is_some() && (1..=3).contains(&values.len()) {
        let values: Vec<&str> = values.iter().map(String::as_str).collect();
        m.push_str(&format!("\nThe lines write {}.", as_code(&values)));
    }
    m
}

/// The path `answer` gives, when it is only the place of a line bearing on a question
/// (`prompt`, which asks for no file): a search's `config/dev.exs (line 7): database:
/// "chirp_dev",` answered `config/dev.exs`. `None` when the question asks which file, the
/// answer is more than one path, or a line's own text writes it (a path the code keeps
/// something in is a value). Found re-running a Phoenix project's dev_database (session 48):
/// asked "What is the name of the development database?", shown that line as bearing,
/// Qwen2.5-Coder-0.5B answered `config/dev.exs`.
///
/// ```
/// use toolmend::agent::correct::path_as_answer;
/// let lines = [r#"config/dev.exs (line 7):   database: "chirp_dev","#];
/// let q = "What is the name of the development database?";
/// assert_eq!(path_as_answer("config/dev.exs", q, &lines), Some("config/dev.exs".into()));
/// assert_eq!(path_as_answer("chirp_dev", q, &lines), None);
/// assert_eq!(path_as_answer("config/dev.exs", "Which file sets the database name?", &lines), None);
/// let kept = [r#"weather.py (line 3): PATH = "data/readings.csv""#];
/// assert_eq!(path_as_answer("data/readings.csv", "Where are readings kept?", &kept), None);
/// ```
#[must_use]
pub fn path_as_answer(answer: &str, prompt: &str, lines: &[&str]) -> Option<String> {
    let path = bare(answer).trim_matches(['`', '"', '\'']);
    if !is_question(prompt)
        || asks_which_file(prompt)
        || path.is_empty()
        || path.contains(char::is_whitespace)
        || !path.contains(['/', '.'])
    {
        return None;
    }
    let placed = lines.iter().any(|l| {
        l.trim_start()
            .strip_prefix(path)
            .is_some_and(|r| r.starts_with(" (line "))
    });
    let written = lines
        .iter()
        .any(|l| line_body(l).unwrap_or(l).contains(path));
    (placed && !written).then(|| path.to_owned())
}

/// The message added before the turn after an answer giving `path`, only the place of a line
/// bearing on the question ([`path_as_answer`]), once a run; `lines`: those lines
/// ([`bearing`]).
#[must_use]
pub fn path_answered(path: &str, prompt: &str, lines: Option<&str>) -> String {
    let m = format!(
        "`{path}` is only the file the lines are in, not what they say. The user asked \"{}\": \
         answer with the value the line writes.",
        restated(prompt)
    );
    with_lines(m, lines)
}

/// The whole number of `answer` that the tool results (`results`) hold only as a file's size
/// in a listing (`README.md (269 bytes)`), for a question (`prompt`) that asks about no size:
/// an answer taken from the listing, not from what the files hold. Found with the deploy set
/// (session 33): asked "How many days of backups are kept?", Qwen2.5-Coder-0.5B listed the
/// root, never read the backup script it was offered, and answered `269`.
///
/// ```
/// use toolmend::agent::correct::size_as_answer;
/// let results = [".env.example (103 bytes)\nREADME.md (269 bytes)\nscripts/"];
/// let q = "How many days of backups are kept?";
/// assert_eq!(size_as_answer("269", q, results), Some("269".to_owned()));
/// assert_eq!(size_as_answer("7 days.", q, results), None);
/// assert_eq!(size_as_answer("269", "How big is README.md, in bytes?", results), None);
/// // A listing's line names the file: the size is not the answer.
/// let q = "Which file holds the docs?";
/// assert_eq!(size_as_answer("README.md (269 bytes)", q, results), None);
/// ```
#[must_use]
pub fn size_as_answer<'r>(
    answer: &str,
    prompt: &str,
    results: impl IntoIterator<Item = &'r str> + Clone,
) -> Option<String> {
    const SIZE_WORDS: &[&str] = &[
        "size", "sizes", "big", "bigger", "large", "larger", "bytes", "byte", "kb", "mb",
    ];
    if !is_question(prompt)
        || lower_words(prompt)
            .iter()
            .any(|w| SIZE_WORDS.contains(&w.as_str()))
    {
        return None;
    }
    let whole: Vec<&str> = answer
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .filter(|t| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()))
        .collect();
    whole.into_iter().find_map(|n| {
        let size = format!("({n} bytes)");
        // A listing's line copied whole (`count_test.go (358 bytes)`) answers with the name.
        if answer.contains(&size) {
            return None;
        }
        let sized = results.clone().into_iter().any(|r| r.contains(&size));
        let elsewhere = results
            .clone()
            .into_iter()
            .any(|r| holds_number(&r.replace(&size, ""), n));
        (sized && !elsewhere && !holds_number(prompt, n)).then(|| n.to_owned())
    })
}

/// The message added before the turn after an answer whose number is only a file's size in a
/// listing ([`size_as_answer`]), once a run; `look`: the call that looks at what the request
/// names, when not made yet.
#[must_use]
pub fn size_answered(number: &str, prompt: &str, look: Option<&str>) -> String {
    let mut m = format!(
        "`{number}` is the size in bytes of a file in a listing, not what the user asked: \
         \"{}\". Answer from what the files hold",
        restated(prompt)
    );
    match look {
        Some(call) => {
            m.push_str(". To see it, call: ");
            m.push_str(call);
        }
        None => m.push_str(", or call a tool to read them."),
    }
    m
}

/// The failure kind of a call of a tool that was not offered because the request is a question
/// (see [`is_question`]).
pub const QUESTION_ONLY: &str = "question_only";

/// `prompt` with its contractions written out as the words they stand for, so that the
/// request's analysis reads them as it reads those: "What's" → "What is", "isn't" → "is
/// not", "don't" → "do not", "won't" → "will not", "can't" → "cannot", "they're" → "they
/// are", "I've" → "I have", "I'm" → "I am", "we'll" → "we will" (a straight or a curly
/// apostrophe). A possessive stays ("Prettier's print width"): `'s` is written out only after
/// a question word, `that`, `it`, `there` and `here`. Found with an OCaml/dune project
/// (session 49): "What's the package called on opam?" was taken for no question — "what's" is
/// no question word — and a copied `write` replaced the opam file.
///
/// ```
/// use toolmend::agent::correct::expanded;
/// assert_eq!(expanded("What's the package called on opam?"), "What is the package called on opam?");
/// assert_eq!(expanded("How wide is it when I don’t give --width?"), "How wide is it when I do not give --width?");
/// assert_eq!(expanded("Set Prettier's print width to 120."), "Set Prettier's print width to 120.");
/// assert_eq!(expanded("Won't it fail? I'm sure it can't."), "Will not it fail? I am sure it cannot.");
/// ```
#[must_use]
pub fn expanded(prompt: &str) -> String {
    const IS_AFTER: &[&str] = &[
        "what", "where", "who", "how", "when", "why", "which", "that", "it", "there", "here",
    ];
    let mut out = String::with_capacity(prompt.len() + 16);
    for piece in prompt.split_inclusive(char::is_whitespace) {
        let word = piece.trim_end();
        let space = &piece[word.len()..];
        // The word's letters and apostrophes; what follows them (`?`, `,`) is kept after.
        let end = word
            .char_indices()
            .rev()
            .find(|&(_, c)| c.is_alphanumeric())
            .map_or(0, |(i, c)| i + c.len_utf8());
        let (core, after) = word.split_at(end);
        let plain = core.replace('\u{2019}', "'");
        let lower = plain.to_lowercase();
        let written: Option<String> = if let Some(stem) = plain.strip_suffix("n't") {
            match lower.as_str() {
                "won't" => Some(format!("{}ill not", &plain[..1])),
                "can't" => Some(format!("{}annot", &plain[..1])),
                "shan't" => Some(format!("{}hall not", &plain[..1])),
                "ain't" => None,
                _ if !stem.is_empty() => Some(format!("{stem} not")),
                _ => None,
            }
        } else if let Some(stem) = plain.strip_suffix("'s") {
            IS_AFTER
                .contains(&stem.to_lowercase().as_str())
                .then(|| format!("{stem} is"))
        } else if let Some(stem) = plain.strip_suffix("'re") {
            Some(format!("{stem} are"))
        } else if let Some(stem) = plain.strip_suffix("'ve") {
            Some(format!("{stem} have"))
        } else if let Some(stem) = plain.strip_suffix("'ll") {
            Some(format!("{stem} will"))
        } else if lower == "i'm" {
            Some(format!("{} am", &plain[..1]))
        } else {
            None
        };
        match written {
            Some(w) if !w.starts_with(' ') => {
                out.push_str(&w);
                out.push_str(after);
            }
            _ => out.push_str(word),
        }
        out.push_str(space);
    }
    out
}

/// Whether `prompt` asks a question rather than for a change: its last sentence ends with `?`
/// and it opens with a question word or an auxiliary (`Which TODO items are open?`, `Does
/// config.json set debug?`), also after a preposition (`In which file is to_kelvin defined?`,
/// `From what line…`), but not with a request for action phrased as a question (`Can you
/// add…?`, `Could you…`, `How about…`, `Why not…`, `Why don't you…`, `Is it possible to…`,
/// `Do you mind…`).
///
/// ```
/// use toolmend::agent::correct::is_question;
/// assert!(is_question("Which TODO items in todo.txt are still open?"));
/// assert!(is_question("how many eggs are on the list? "));
/// assert!(is_question("In which file is the function to_kelvin defined?"));
/// assert!(is_question("What's the package called on opam?"));
/// assert!(is_question("By default, how many milliseconds does tern wait for the forecast?"));
/// assert!(is_question("If I don't pass --speed, what speed does tern assume?"));
/// assert!(is_question("By default, below what cover are records dropped?"));
/// assert!(is_question(
///     "If I start osprey with no PORT set anywhere \u{2014} no env file, no environment variable \u{2014} which port does it listen on?"
/// ));
/// assert!(is_question("If nothing is set \u{2014} which port is used?"));
/// assert!(is_question(
///     "If no env file, environment variable or --port flag sets a port, which port does the server listen on?"
/// ));
/// assert!(!is_question("In todo.txt, mark the first item done, which is the passport?"));
/// assert!(!is_question("In todo.txt, which items are open? Mark them done."));
/// assert!(!is_question("Add the line \"- buy coffee\" to todo.txt."));
/// assert!(!is_question("Can you set debug to true in config.json?"));
/// assert!(!is_question("What is in todo.txt? Then add a line to it."));
/// assert!(!is_question("Is it possible to add a line to todo.txt?"));
/// ```
#[must_use]
pub fn is_question(prompt: &str) -> bool {
    // Question words; all but "why" may also follow a preposition ("In which file…").
    const WH: &[&str] = &[
        "what", "which", "who", "whom", "whose", "where", "when", "how",
    ];
    const OTHER_OPENERS: &[&str] = &[
        "why", "is", "are", "was", "were", "does", "do", "did", "has", "have", "had",
    ];
    // What may come before a question word.
    const PREPOSITIONS: &[&str] = &[
        "in", "on", "at", "for", "from", "to", "by", "with", "of", "into", "inside", "under",
        "since", "until", "after", "before", "within", "through", "about", "below", "above",
        "over", "beyond",
    ];
    const ACTIONS: &[&str] = &[
        "how about",
        "what about",
        "why not",
        "why don't",
        "why dont",
        "why won't",
        "why wouldn't",
        "why can't",
        "do you mind",
        "do you think you could",
        "do you think you can",
        "is it possible to",
        "are you able to",
    ];
    let p = question_part(prompt);
    if !p.ends_with('?') {
        return false;
    }
    // "What's", "Isn't" open a question as "What is", "Is not" do.
    let lower = expanded(p).to_lowercase().replace('\u{2019}', "'");
    let mut words = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty());
    let first = words.next().unwrap_or_default();
    let opens = WH.contains(&first)
        || OTHER_OPENERS.contains(&first)
        || (PREPOSITIONS.contains(&first) && words.next().is_some_and(|w| WH.contains(&w)));
    // Or a clause setting the scene first — "By default, how many milliseconds …?", "In
    // production, how many seconds …?", "If I don't pass --speed …, what speed …?" — then,
    // after its comma, a question word (held-out sets of session 49: taken for no question,
    // the run offered `edit` and `write`, and Qwen2.5-Coder-0.5B sent edits).
    const SCENE: &[&str] = &[
        // "Out of the box, how long …?"
        "out",
        "if",
        "unless",
        "assuming",
        "suppose",
        "supposing",
        "given",
        "once",
        "without",
        "say",
    ];
    // An aside between dashes is a clause of its own, as one after a comma is ("If I start
    // osprey with no PORT set anywhere — no env file, no environment variable — which port
    // does it listen on?": a NestJS service, session 56, taken for no question, was offered
    // `edit`, and Qwen2.5-Coder-0.5B changed a test).
    let clauses: String = {
        let mut out = String::new();
        let mut aside = false;
        for c in lower.chars() {
            match c {
                '\u{2014}' | '\u{2013}' => {
                    if !aside {
                        out.push(',');
                    }
                    aside = !aside;
                }
                _ if aside => {}
                _ => out.push(c),
            }
        }
        // A dash that opens no closed aside separates a clause.
        if aside {
            lower.replace(['\u{2014}', '\u{2013}'], ",")
        } else {
            out
        }
    };
    // A clause's words (an apostrophe's word whole).
    fn words_of(clause: &str) -> impl Iterator<Item = &str> {
        clause
            .split(|c: char| !(c.is_alphanumeric() || c == '\''))
            .filter(|w| !w.is_empty())
    }
    let asks = |clause: &str| {
        let mut words = words_of(clause);
        let first = words.next().unwrap_or_default();
        WH.contains(&first)
            || OTHER_OPENERS.contains(&first)
            || (PREPOSITIONS.contains(&first) && words.next().is_some_and(|w| WH.contains(&w)))
    };
    // Or the last clause asks, and none between opens with a verb that changes things: the
    // scene's own list ("If no env file, environment variable or --port flag sets a port,
    // which port does the server listen on?": a Swift/Vapor API, session 56, taken for no
    // question, and Qwen2.5-Coder-0.5B sent `edit`s), not "In todo.txt, mark the first item
    // done, which is the passport?".
    let scene = || {
        let parts: Vec<&str> = clauses.split(',').collect();
        let changing = |clause: &&str| {
            words_of(clause)
                .next()
                .is_some_and(|w| CHANGE_VERBS.contains(&w) || crate::tools::SET_VERBS.contains(&w))
        };
        (PREPOSITIONS.contains(&first) || SCENE.contains(&first))
            && (parts.get(1).is_some_and(|c| asks(c))
                || (parts.len() > 2
                    && parts.last().is_some_and(|c| asks(c))
                    && !parts[1..parts.len() - 1].iter().any(changing)))
    };
    (opens || scene()) && !ACTIONS.iter().any(|a| lower.starts_with(a))
}

/// `prompt` without a last sentence saying how to give the answer ("… isn't full yet? Give
/// the value in milliseconds.": a Nim daemon, session 52, where the run took the request for no
/// question and accepted `2000` without a look), trimmed: the question, which the looks and
/// [`is_question`] read. The whole prompt, trimmed, otherwise.
#[must_use]
pub fn question_part(prompt: &str) -> &str {
    let p = prompt.trim();
    let Some((question, how)) = p.rsplit_once('?') else {
        return p;
    };
    let how = how.trim().to_lowercase();
    let first = how.split_whitespace().next().unwrap_or_default();
    let answer_form = !how.is_empty()
        && how.split_whitespace().count() <= 12
        && [
            "give", "answer", "reply", "respond", "state", "express", "quote",
        ]
        .contains(&first);
    if answer_form {
        &p[..=question.len()]
    } else {
        p
    }
}

/// True when `prompt` tells the model to change something: it is no question ([`is_question`])
/// and a sentence or clause of it opens with a verb that changes things (`Add …`, `Set …`, `In
/// todo.txt, mark …`, `Please rename …`) or asks for a number of things per unit (`Show 50
/// invoices per page`: `tools::rate_clause`), something done at an interval (`Poll for
/// updates every 30 minutes`), an amount of memory given (`Give the daemon 4 GB of heap`) or a
/// number of things to run (`Start 5 gunicorn workers`), or says what number of things
/// something should show (`Cover plots should show the 20 most abundant taxa`). A verb inside
/// a clause (`Find what to fix`) does not count.
///
/// ```
/// use toolmend::agent::correct::asks_change;
/// assert!(asks_change("Set \"debug\" to true in config.json."));
/// assert!(asks_change("In todo.txt, mark the plumber item as done."));
/// assert!(asks_change("Please add the line \"- buy coffee\" at the end of todo.txt."));
/// assert!(asks_change("Read todo.txt, then add a line to it."));
/// assert!(asks_change("Make Bergen the default city of `weatherlog add` in cli.py."));
/// assert!(asks_change("Turn off strict mode in tsconfig.json."));
/// assert!(asks_change("Sort the report by revenue instead of month."));
/// assert!(!asks_change("Which TODO items in todo.txt are still open?"));
/// assert!(asks_change("Show 50 invoices per page."));
/// assert!(!asks_change("List the files in notes."));
/// assert!(!asks_change("Show 3 lines of README.md per file."));
/// assert!(!asks_change("Show the invoices per page."));
/// assert!(asks_change("Poll for updates every 30 minutes."));
/// assert!(asks_change("Give the Gradle daemon 4 GB of heap."));
/// assert!(!asks_change("Give me 3 examples of a call."));
/// assert!(asks_change("Start 5 gunicorn workers in the container."));
/// assert!(!asks_change("Run 3 tests and tell me which fail."));
/// assert!(!asks_change("It polls every 15 minutes."));
/// assert!(!asks_change("How often does it poll every 15 minutes?"));
/// assert!(!asks_change("Find the TODO items and tell me which to fix."));
/// assert!(asks_change("Let scalafmt format lines up to 120 columns wide."));
/// assert!(asks_change("Make the retry policy try up to 5 times by default."));
/// assert!(!asks_change("Show up to 10 matching lines."));
/// assert!(asks_change(
///     "In production, give probes up to 6 seconds to respond before they count as timed out."
/// ));
/// assert!(asks_change("In production, let the wait between retries grow to at most 45 minutes."));
/// assert!(!asks_change("Give me up to 3 examples."));
/// assert!(asks_change("Build the Docker image with OCaml 5.2."));
/// assert!(asks_change("Build the Docker image on Deno 2.3.5."));
/// assert!(!asks_change("Run the server on port 7391."));
/// assert!(!asks_change("Build the project."));
/// assert!(asks_change(
///     "Cover plots should show the 20 most abundant taxa unless the caller asks for a different number."
/// ));
/// assert!(!asks_change("The report should show the totals."));
/// assert!(asks_change(
///     "When nothing is configured, generated short codes should be 8 characters long."
/// ));
/// assert!(!asks_change("Short codes should be unique."));
/// assert!(asks_change(
///     "In production, a batch that isn't full should be shipped after 6000 ms instead."
/// ));
/// assert!(asks_change("Production should cache links for 12 hours instead."));
/// assert!(asks_change("In production, give up on a job after 3 minutes instead."));
/// assert!(!asks_change("It gives up after 3 minutes."));
/// assert!(asks_change("In production, keep resolved links in the cache for 20 minutes."));
/// assert!(asks_change(
///     "In production, keep retrying a failed batch for 35 minutes before it goes to the spool."
/// ));
/// assert!(asks_change("Have CI run the specs against Postgres 17.2 instead."));
/// assert!(asks_change(
///     "When nothing is configured, survey listings should default to 40 surveys per page."
/// ));
/// assert!(asks_change("Run the CI e2e tests against Postgres 16.6 instead."));
/// assert!(asks_change(
///     "In production, give field teams 5 hours to upload a survey's photo before the survey expires."
/// ));
/// ```
#[must_use]
pub fn asks_change(prompt: &str) -> bool {
    change_clauses(prompt) > 0
}

/// The message added before the turn after an answer to a request that asks for a change
/// ([`asks_change`]) when no call of the run changed anything: a small model answers with the
/// file it read, says the change is made, or explains how one would make it. Once a run,
/// restating `prompt`.
/// `call`, when given, is the call that makes the change the request spells out
/// ([`crate::agent::Toolbox::change_asked`]), offered as the one to send; `already`, when
/// given, says the change is already so ([`crate::agent::Toolbox::already_so`]): the user is
/// to be told that instead.
#[must_use]
pub fn unchanged_reply(prompt: &str, call: Option<&str>, already: Option<&str>) -> String {
    if let Some(so) = already {
        return format!(
            "Nothing has been changed, and nothing needs to be: the user asked for a change, \
             \"{}\", that is already so. {so} Tell the user that in plain text.",
            restated(prompt)
        );
    }
    let make = match call {
        Some(call) => format!("this tool call: {call}"),
        None => "a tool call.".to_owned(),
    };
    format!(
        "Nothing has been changed yet, but the user asked for a change: \"{}\". If it still \
         needs to be made, make it now with {make} If it is already so, or cannot be made, say \
         that in plain text.",
        restated(prompt)
    )
}

/// The message added before the turn after a reply to a request that asks for a change
/// (`prompt`) which showed the change in a code block and called no tool: `call` is the call
/// that puts the block's code in the file (see [`crate::agent::Toolbox::change_shown`]).
/// Once a run.
#[must_use]
pub fn shown_reply(prompt: &str, call: &str) -> String {
    format!(
        "Writing the change in a code block does not make it: the file is unchanged, and the \
         user asked for a change: \"{}\". Make it now with this tool call, which puts your code \
         in the file: {call}",
        restated(prompt)
    )
}

/// The line added to the result of the call that made the change the request spells out
/// ([`change_next`]): the task is done and the answer is next, or, when the request asks for
/// more changes (`more`), the next one is.
#[must_use]
pub fn change_made(more: bool) -> &'static str {
    if more {
        "\nThat is the first change the user asked for, and it is made. Make the next one, or \
         answer the user in plain text."
    } else {
        "\nThat is the change the user asked for, and it is made. Answer the user now in plain \
         text: say what you changed."
    }
}

/// Verbs that open a clause asking for a change, besides those that set a value
/// ([`crate::tools::SET_VERBS`]).
const CHANGE_VERBS: &[&str] = &[
    "add", "append", "insert", "prepend", "replace", "mark", "rename", "remove", "delete", "write",
    "create", "edit", "fix", "put", "move", "enable", "disable", "save", "correct", "turn",
    "switch", "sort", "require", "deploy",
];

/// How many clauses of `prompt` open with a verb that changes things (see [`asks_change`]):
/// 0 for a question.
///
/// ```
/// use toolmend::agent::correct::change_clauses;
/// assert_eq!(change_clauses("Set \"debug\" to true in config.json."), 1);
/// assert_eq!(change_clauses("Add the line \"x\" to a.txt, then set the version to 2."), 2);
/// assert_eq!(change_clauses("Give a long break after every 3 sessions instead of 4."), 1);
/// assert_eq!(change_clauses("Set the limit to 3 instead of 4."), 1);
/// assert_eq!(change_clauses("Explain why it uses tabs instead of spaces."), 0);
/// assert_eq!(change_clauses("Which version does config.json give?"), 0);
/// assert_eq!(change_clauses("Require Ruby 3.2 or newer."), 1);
/// assert_eq!(change_clauses("Deploy version 2.4.0 of the web image."), 1);
/// ```
#[must_use]
pub fn change_clauses(prompt: &str) -> usize {
    if is_question(prompt) {
        return 0;
    }
    verb_clauses(&prompt.to_lowercase())
}

/// Whether `word` (lower case) is a verb that asks for a change.
fn is_change_verb(word: &str) -> bool {
    CHANGE_VERBS.contains(&word) || crate::tools::SET_VERBS.contains(&word)
}

/// How many clauses of `lower` (lower case) open with a change verb, leading words aside.
fn verb_clauses(lower: &str) -> usize {
    clauses_opened_by(lower, CHANGE_VERBS)
        + clauses_opened_by(lower, crate::tools::SET_VERBS)
        + rate_clauses(lower)
        + instead_clauses(lower)
        + built_with_clauses(lower)
        + should_clauses(lower)
        + use_of_clauses(lower)
        + time_clauses(lower)
}

/// How many clauses of `lower` (lower case) say after (for, within, every) what length of time
/// something should be done: "a batch that isn't full should be shipped after 6000 ms
/// instead", "production should cache links for 12 hours instead" (`should` or `must` before
/// the length), or a clause opened by a verb of ending or dropping — "give up on a job after
/// 3 minutes instead", "expire sessions after 2 hours" — or of keeping: "keep resolved links in
/// the cache for 20 minutes" (a Ktor link shortener, session 55). Found with a Rust workspace, a Crystal
/// web service and a Go job worker (session 53): each was taken for a question, so the change
/// `builtin::asked` reads in it (`time_should`, `after_time`) was never offered.
fn time_clauses(lower: &str) -> usize {
    const VERBS: &[&str] = &[
        "give", "stop", "abort", "cancel", "kill", "drop", "expire", "ship", "flush", "close",
        "restart", "delete", "remove", "evict", "purge", "rotate", "refresh", "time", "keep",
        "retain", "cache", "hold", "store",
    ];
    let whole = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit());
    let of_time = |w: &str| crate::tools::unit_named(w).is_some_and(crate::tools::is_time_unit);
    clause_words(lower)
        .filter(|words| {
            // "Give (allow) K N unit to V …" ("In production, give field teams 5 hours to
            // upload a survey's photo before the survey expires.": a Rails API, session 56).
            let allowed = words.first().is_some_and(|w| ["give", "allow"].contains(w))
                && words
                    .windows(3)
                    .any(|w| whole(w[0]) && of_time(w[1]) && w[2] == "to");
            let Some(at) = words.windows(3).position(|w| {
                ["after", "for", "within", "every"].contains(&w[0]) && whole(w[1]) && of_time(w[2])
            }) else {
                return allowed;
            };
            allowed
                || words[..at].iter().any(|w| ["should", "must"].contains(w))
                || words.first().is_some_and(|w| VERBS.contains(w))
        })
        .count()
}

/// How many clauses of `lower` (lower case) open "use a|an K of N": "In production, use an
/// MQTT keepalive of 90 seconds." asks for a setting to change (a Nim daemon, session 52; see
/// `builtin::asked`'s reading of it).
fn use_of_clauses(lower: &str) -> usize {
    clause_words(lower)
        .filter(|words| {
            words.first() == Some(&"use")
                && words.get(1).is_some_and(|a| ["a", "an"].contains(a))
                && words
                    .windows(2)
                    .skip(2)
                    .any(|p| p[0] == "of" && p[1].parse::<f64>().is_ok())
        })
        .count()
}

/// How many clauses of `lower` (lower case) say what a number of things should be shown or
/// kept: "K should|must V (the) N …", V one of `show`, `display`, `list`, `return`, `fetch`,
/// `keep`, `run`, `start`, `use`, N a whole number. "Cover plots should show the 20 most
/// abundant taxa unless the caller asks for a different number." asks for the default to
/// change (an R package, session 51: the edit of `top_n = 15,` was found, but the request
/// was not read as asking for a change, and the run never offered it).
fn should_clauses(lower: &str) -> usize {
    clause_words(lower)
        .filter(|words| {
            // "K should be N things long" (wide, high, …): a Ktor link shortener, session 55.
            let long = words.windows(5).any(|w| {
                ["should", "must"].contains(&w[0])
                    && w[1] == "be"
                    && !w[2].is_empty()
                    && w[2].chars().all(|c| c.is_ascii_digit())
                    && ["long", "wide", "high", "tall", "deep"].contains(&w[4])
            });
            // "K should default to N …" ("… survey listings should default to 40 surveys per
            // page.": a Rails API, session 56).
            let defaults = words.windows(4).any(|w| {
                ["should", "must"].contains(&w[0])
                    && w[1] == "default"
                    && w[2] == "to"
                    && w[3].chars().next().is_some_and(|c| c.is_ascii_digit())
            });
            long || defaults || {
                words.iter().enumerate().skip(1).any(|(i, w)| {
                    let number_at = match words.get(i + 2) {
                        Some(&"the") => i + 3,
                        _ => i + 2,
                    };
                    ["should", "must"].contains(w)
                        && words
                            .get(i + 1)
                            .is_some_and(|v| crate::tools::MADE_TO_VERBS.contains(v))
                        && words
                            .get(number_at)
                            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
                })
            }
        })
        .count()
}

/// How many clauses of `lower` (lower case) build (run, compile, test) something "with" or
/// "on" a named thing's version, the clause's last two words: "build the docker image with
/// ocaml 5.2" asks for the version the build uses to change (an OCaml/dune project, session
/// 49), as does "build the docker image on deno 2.3.5" (a Deno uptime checker, session 54:
/// `edit` read it, but the run took it for no change and never offered the edit).
fn built_with_clauses(lower: &str) -> usize {
    clause_words(lower)
        .filter(|words| {
            let version = |w: &str| {
                let n = w.trim_start_matches('v');
                n.contains('.') && n.chars().all(|c| c.is_ascii_digit() || c == '.')
            };
            // The verb first, or after "have (let, make) X" ("Have CI run the specs against
            // Postgres 17.2 instead.": a Rails API, session 56).
            let verb = |w: &str| matches!(w, "build" | "run" | "compile" | "test");
            let opens = words.first().is_some_and(|w| verb(w))
                || (words
                    .first()
                    .is_some_and(|w| ["have", "let", "make"].contains(w))
                    && words.iter().skip(2).take(2).any(|w| verb(w)));
            // "… instead" after the version too ("Run the CI e2e tests against Postgres 16.6
            // instead.": a NestJS service, session 56).
            let words = match words.as_slice() {
                [head @ .., "instead"] => head,
                all => all,
            };
            opens
                && matches!(words, [.., with, name, v]
                if ["with", "on", "against"].contains(with) && name.chars().any(char::is_alphabetic) && version(v))
        })
        .count()
}

/// The clauses of `lower` (split at `,`, `;`, `:`, `!`, `?`, line breaks and sentence ends),
/// each as its words, a word's trailing `.` aside.
fn clause_words(lower: &str) -> impl Iterator<Item = Vec<&str>> {
    lower
        .split([',', ';', ':', '!', '?', '\n'])
        .flat_map(|c| c.split(". "))
        .map(|clause| {
            clause
                .split_whitespace()
                .map(|w| w.trim_end_matches('.'))
                .collect()
        })
}

/// How many clauses of `lower` (lower case) that open with no change verb give one number
/// "instead of" another ("give a long break after every 3 sessions instead of 4": a Neovim
/// plugin, session 43, whose `sessions_before_long_break = 4` was never offered as the change
/// to make): a replacement of the one by the other.
fn instead_clauses(lower: &str) -> usize {
    lower
        .split([',', ';', ':', '!', '?', '\n'])
        .flat_map(|c| c.split(". "))
        .filter(|clause| {
            let Some((before, after)) = clause.split_once(" instead of ") else {
                return false;
            };
            let number = |t: &str| t.chars().any(|c| c.is_ascii_digit());
            let opened = lead_word(clause)
                .is_some_and(|w| CHANGE_VERBS.contains(&w) || crate::tools::SET_VERBS.contains(&w));
            !opened && number(before) && number(after.split_whitespace().next().unwrap_or(""))
        })
        .count()
}

/// How many clauses of `lower` (lower case) ask for a number of things per unit ("show 50
/// invoices per page": [`crate::tools::rate_clause`]) or for something done at an interval
/// ("poll for updates every 30 minutes": `crate::tools::interval_clause`) or give an amount
/// of memory (`crate::tools::size_clause`) or an upper bound (`crate::tools::bound_clause`)
/// or a number of things to run ("start 5 gunicorn workers": `crate::tools::count_clause`),
/// leading words aside.
fn rate_clauses(lower: &str) -> usize {
    lower
        .split(['.', ',', ';', ':', '!', '?', '\n'])
        .filter(|clause| {
            let words: Vec<&str> = clause
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .skip_while(|w| crate::tools::CLAUSE_LEADS.contains(w))
                .collect();
            crate::tools::rate_clause(&words)
                || crate::tools::interval_clause(&words)
                || crate::tools::bound_clause(&words)
                || crate::tools::size_clause(&words)
                || crate::tools::count_clause(&words)
        })
        .count()
}

/// How many clauses of `lower` (lower case) open with one of `verbs`, leading words aside.
fn clauses_opened_by(lower: &str, verbs: &[&str]) -> usize {
    lower
        .split(['.', ',', ';', ':', '!', '?', '\n'])
        .filter(|clause| lead_word(clause).is_some_and(|w| verbs.contains(&w)))
        .count()
}

/// The first word of `clause` (lower case) after its leading words
/// ([`crate::tools::CLAUSE_LEADS`]): where a request's verb is.
fn lead_word(clause: &str) -> Option<&str> {
    clause
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .find(|w| !crate::tools::CLAUSE_LEADS.contains(w))
}

/// Whether `prompt` asks to add or write something new: a clause of it opens with `add`,
/// `append`, `insert`, `put`, `write`, `implement`, `create` or `include` ("Add a function
/// km_to_miles to src/lib.rs") — the verbs `edit` reads a request for before it shows a
/// reply's code block as the edit that adds it. `false` for a question.
#[must_use]
pub fn asks_to_add(prompt: &str) -> bool {
    !is_question(prompt) && clauses_opened_by(&prompt.to_lowercase(), crate::tools::ADD_VERBS) > 0
}

/// How many changes `prompt` asks for, one after the other: its sentences, and their parts
/// joined by `then`, `and` or `also` before a change verb, that ask for a change. A colon or a
/// comma inside one sentence goes on with the same change ("In todo.txt, mark the plumber item
/// as done: change its "TODO:" to "DONE:"" is one). 0 for a question.
///
/// ```
/// use toolmend::agent::correct::change_steps;
/// assert_eq!(change_steps("In todo.txt, mark the plumber item as done: change its \"TODO:\" to \"DONE:\"."), 1);
/// assert_eq!(change_steps("Set the version in package.json to 1.5.0."), 1);
/// assert_eq!(change_steps("Add the line \"x\" to a.txt, then set the version to 2."), 2);
/// assert_eq!(change_steps("Set debug to true and add the line x to a.txt"), 2);
/// assert_eq!(change_steps("Fix the typo. Then bump the version."), 2);
/// assert_eq!(
///     change_steps("Upgrade vibe-d to 0.10.2. The range in dub.json already allows it, so just update the locked version."),
///     1
/// );
/// assert_eq!(change_steps("Set the port to 8080. Then set the host to \"0.0.0.0\"."), 2);
/// assert_eq!(change_steps("Read todo.txt, then add a line to it."), 1);
/// assert_eq!(change_steps("Which version does config.json give?"), 0);
/// ```
#[must_use]
pub fn change_steps(prompt: &str) -> usize {
    if is_question(prompt) {
        return 0;
    }
    let lower = prompt.to_lowercase();
    // Sentences: a `.` ends one only before a space or the end (`todo.txt`, `1.5.0` do not).
    let mut sentences = Vec::new();
    let mut from = 0;
    let b = lower.as_bytes();
    for (k, &c) in b.iter().enumerate() {
        let ends = matches!(c, b';' | b'!' | b'?' | b'\n')
            || (c == b'.' && b.get(k + 1).is_none_or(u8::is_ascii_whitespace));
        if ends {
            sentences.push(&lower[from..k]);
            from = k + 1;
        }
    }
    sentences.push(&lower[from..]);
    sentences
        .iter()
        .map(|sentence| {
            // Where a part joined by `then` / `and` / `also` right before a change verb starts.
            let mut words = Vec::new();
            let mut at = None;
            for (k, c) in sentence.char_indices() {
                match (c.is_alphanumeric(), at) {
                    (true, None) => at = Some(k),
                    (false, Some(a)) => {
                        words.push((a, &sentence[a..k]));
                        at = None;
                    }
                    _ => {}
                }
            }
            if let Some(a) = at {
                words.push((a, &sentence[a..]));
            }
            let joins: Vec<usize> = words
                .windows(2)
                .filter(|w| matches!(w[0].1, "then" | "and" | "also") && is_change_verb(w[1].1))
                .map(|w| w[0].0)
                .collect();
            let head = &sentence[..joins.first().copied().unwrap_or(sentence.len())];
            (
                usize::from(verb_clauses(head) > 0) + joins.len(),
                gives_value(sentence),
            )
        })
        // A sentence that gives no value after one that gave the change's: the same change
        // said again ("Upgrade vibe-d to 0.10.2. The range in dub.json already allows it, so
        // just update the locked version.": a D log shipper, session 55, told after its edit
        // that it was the first of two changes, sent it again and again until the run ended).
        .fold((0, false), |(total, valued), (n, gives)| {
            if n > 0 && valued && !gives {
                (total, valued)
            } else {
                (total + n, valued || (n > 0 && gives))
            }
        })
        .0
}

/// Whether `sentence` (lower case) gives a value: a digit, or text in double quotes or
/// backticks (not an apostrophe's "don't").
fn gives_value(sentence: &str) -> bool {
    sentence
        .chars()
        .any(|c| c.is_ascii_digit() || matches!(c, '"' | '`' | '\u{201c}'))
}

/// The line added to a failed call's message or the note on a repeated call in a run whose
/// request spells out a change that is already so: `so` says where (see
/// [`crate::agent::Toolbox::already_so`]).
#[must_use]
pub fn already_so(so: &str) -> String {
    format!(
        "\nThe change the user asked for is already so: {so} Nothing needs to change; tell the user that in plain text."
    )
}

/// The line added to the note on a repeated call in a run whose request spells out a change
/// not made yet: `call` makes it (see [`crate::agent::Toolbox::change_asked`]).
#[must_use]
pub fn change_next(call: &str) -> String {
    format!("\nTo make the change the user asked for, call: {call}")
}

/// The result of a call of `name`, a tool that changes files, in a run whose request is a
/// question: not run, and why; `look`, a call that reads what the request names, when there is
/// one.
#[must_use]
pub fn question_only(name: &str, prompt: &str, look: Option<&str>) -> String {
    let mut m = format!(
        "`{name}` was not run: it changes files, and the user asked a question, \"{}\", which \
         changing a file does not answer. Answer it in plain text from what you read.",
        restated(prompt)
    );
    if let Some(call) = look {
        m.push_str(&format!(" To look first, call: {call}"));
    }
    m
}

/// The failure kind of a call of a name that is no tool's but the name of the code a request
/// that asks for a change wants written (see [`code_as_call`]): not run.
pub const CODE_AS_CALL: &str = "code_as_call";

/// The result of a call of `name`, no tool's name but the name of the code the user's
/// `prompt` asks to be written into `path` (a function to add, the function a test is for):
/// not run. The code is asked for in a code block of the reply, in the language of `path`'s
/// extension: small models write code in a block far better than inside a JSON string, and
/// the block is then shown back as the `edit` that puts it in the file.
#[must_use]
pub fn code_as_call(name: &str, path: &str, prompt: &str) -> String {
    let lang = path.rsplit_once('.').map_or("", |(_, e)| e);
    let lang = match lang {
        "rs" => "rust",
        "py" => "python",
        "js" | "mjs" | "cjs" => "javascript",
        "ts" => "typescript",
        "rb" => "ruby",
        "sh" => "bash",
        "md" => "markdown",
        other => other,
    };
    format!(
        "`{name}` is not a tool: it is part of the code the user asks you to write into \
         `{path}`: \"{}\". Write the complete code to add in your reply, in one ```{lang} code \
         block, and call no tool.",
        restated(prompt)
    )
}

/// The failure kind of a call of a name that is no tool's but a name in the tool results, in a
/// question (see [`name_in_results`]): not run; its repeat gives the next turn to the answer.
pub const NAME_IN_RESULTS: &str = "name_in_results";

/// The result of a call of `name`, no tool's name but a name in the tool results the model
/// already has, in a run whose request is a question `prompt`: not run. Small models answer a
/// question about names by calling them: asked which function creates a missing file,
/// Qwen2.5-Coder-0.5B read the file, then called `add_reading` and `load_readings`, its
/// functions; asked for the names of the tests, it called `test_freezing_point`.
#[must_use]
pub fn name_in_results(name: &str, prompt: &str) -> String {
    format!(
        "`{name}` is not a tool: it is a name in the tool results you already have. If it \
         answers the user's question, \"{}\", answer in plain text; to look further, call one \
         of the tools you were given.",
        restated(prompt)
    )
}

/// The failure kind of a call of a name that is no tool's whose arguments repeat the tool
/// results, in a question (see [`result_as_call`]): not run; its repeat gives the next turn to
/// the answer.
pub const RESULT_AS_CALL: &str = "result_as_call";

/// The result of a call of `name`, no tool's name, whose arguments repeat text of the result of
/// `tool` the model already has, in a run whose request is a question `prompt`: not run. Small
/// models present a result by "calling" it: asked how many notes there are,
/// Qwen2.5-Coder-0.5B listed `notes`, then called `groceries.md` with the listing's line
/// `groceries.md (77 bytes)` as its `content`, and after reading the note, `groceries` with the
/// note's text. No example call: shown one, the model made it and went on the same way.
#[must_use]
pub fn result_as_call(name: &str, tool: &str, prompt: &str) -> String {
    format!(
        "`{name}` is not a tool, and its arguments repeat the result of `{tool}` you already \
         have. Answer the user's question, \"{}\", in plain text from the tool results; to look \
         further, call one of the tools you were given.",
        restated(prompt)
    )
}

/// The result of a call of `name`, no tool's, sent again unchanged in a run whose request is a
/// question `prompt` and which has tool results: the next turn, offering no tools, is for the
/// answer from them. Asked how many notes there are, Qwen2.5-Coder-0.5B listed `notes` when
/// shown that call, then sent `notes` with `{"count": 10}` again until the run ended
/// `repeated_failure`.
#[must_use]
pub fn no_tool_again(name: &str, prompt: &str) -> String {
    format!(
        "`{name}` is still not a tool, and you already have tool results. Answer the user's \
         question, \"{}\", in plain text from them.",
        restated(prompt)
    )
}

/// `message` with the tools `withheld` taken out of the list of known tools an unknown-tool
/// message gives (`The known tools are: edit, glob, read.`); other text is left as it is.
///
/// ```
/// use toolmend::agent::correct::without_tools;
/// let m = "unknown tool `call`: there is no tool with that name. The known tools are: edit, \
///          glob, read, write. Call one of them, for example: {\"name\":\"read\"}";
/// assert_eq!(
///     without_tools(m, &["edit".into(), "write".into()]),
///     "unknown tool `call`: there is no tool with that name. The known tools are: glob, \
///      read. Call one of them, for example: {\"name\":\"read\"}"
/// );
/// ```
#[must_use]
pub fn without_tools(message: &str, withheld: &[String]) -> String {
    const LIST: &str = "The known tools are: ";
    let Some(at) = message.find(LIST).map(|at| at + LIST.len()) else {
        return message.to_owned();
    };
    let Some(len) = message[at..].find('.') else {
        return message.to_owned();
    };
    if withheld.is_empty() {
        return message.to_owned();
    }
    let kept: Vec<&str> = message[at..at + len]
        .split(", ")
        .filter(|n| !withheld.iter().any(|w| w == n))
        .collect();
    if kept.is_empty() {
        return message.to_owned();
    }
    format!(
        "{}{}{}",
        &message[..at],
        kept.join(", "),
        &message[at + len..]
    )
}

/// `prompt` trimmed and cut to 300 characters, for restating it.
fn restated(prompt: &str) -> String {
    const MAX_CHARS: usize = 300;
    let mut request: String = prompt.trim().chars().take(MAX_CHARS).collect();
    if prompt.trim().chars().count() > MAX_CHARS {
        request.push('…');
    }
    request
}

/// The nudge added before a turn when `left` turns remain.
#[must_use]
pub fn nudge(left: u32) -> String {
    if left <= 1 {
        "This is your last turn. Answer the user now in plain text, using the tool results you \
         already have; do not call any more tools."
            .to_owned()
    } else {
        format!(
            "{left} turns left. If you already have what you need, answer the user now in plain \
             text instead of calling more tools."
        )
    }
}

/// The message for a call stopped in a loop (see [`super::looping`]): its arguments wrote the
/// same text `repeats` times back to back, so the call was cut there and not run. The repeated
/// text is not quoted: a small model copies the wording of a message into its next call.
#[must_use]
pub fn looped_call(name: &str, repeats: usize) -> String {
    format!(
        "the call to `{name}` was stopped and not run: its arguments wrote the same text {repeats} times in a row. Write the whole call again, with that text once."
    )
}

#[cfg(test)]
mod tests {
    /// A declaration with a type sets its name (`typed_setting`); a statement does not.
    #[test]
    fn a_typed_declaration_sets_its_name() {
        assert_eq!(
            super::keyed_of("enum ushort defaultStatusPort = 9614;"),
            Some(("defaultStatusPort", "9614"))
        );
        assert_eq!(
            super::keyed_of("    private static final int maxRetries = 5;"),
            Some(("maxRetries", "5"))
        );
        assert_eq!(
            super::keyed_of("std::size_t limit = 64;"),
            Some(("limit", "64"))
        );
        assert_eq!(super::keyed_of("return count = 5;"), None);
        assert_eq!(super::keyed_of("if x == 5"), None);
        assert_eq!(super::keyed_of("int a: b = 5"), None);
    }

    /// Found with the textkit set (session 33): asked "What does truncate append when it cuts
    /// text?", Qwen2.5-Coder-0.5B called `truncate` as a tool, then ended the run with the
    /// not-a-tool message, its backticks written as double quotes — taken for an answer.
    #[test]
    fn an_echo_with_its_quotes_changed_is_an_echo() {
        let sent = "`truncate` is not a tool: it is a name in the tool results you already have. \
                    If it answers the user's question, answer in plain text.";
        let reply = "\"truncate\" is not a tool: it is a name in the tool results you already \
                     have. If it answers the user\u{2019}s question, answer in plain text.";
        assert!(super::echoes(reply, [sent]));
        assert!(super::echoes(
            "\u{201c}truncate\u{201d} is not a tool",
            [sent]
        ));
        // Another word in the quotes is no echo.
        assert!(!super::echoes(
            "\"slugify\" is not a tool, it is a function.",
            [sent]
        ));
    }

    #[test]
    fn the_request_repeated_in_quotes_is_repeated() {
        let request = "Add bin/ to the gitignore.";
        assert!(super::repeats_request(
            "\"Add bin/ to the gitignore.\"",
            request
        ));
        assert!(super::repeats_request(
            "`Add bin/ to the gitignore`",
            request
        ));
        assert!(!super::repeats_request(
            "\"bin/\" is there already.",
            request
        ));
        let question = "Which flag prints the word count?";
        assert!(super::repeats_request("word count", question));
        assert!(super::repeats_request("`word count`.", question));
        assert!(!super::repeats_request("-w", question));
        assert!(!super::repeats_request(
            "grep",
            "Which tool searches, grep or glob?"
        ));
        // One word of a question with no choice in it (tally and textkit sets, session 33:
        // `flag`, then `"slugify"` for "Which package does slugify use to make text ASCII?").
        assert!(super::repeats_request("flag", question));
        assert!(super::repeats_request(
            "\"slugify\"",
            "Which package does slugify use to make text ASCII?"
        ));
        // Not inside another word, nor a short one, nor a request that is no question.
        assert!(!super::repeats_request(
            "count",
            "Which flag prints the counts?"
        ));
        assert!(!super::repeats_request("the", question));
        assert!(!super::repeats_request("Done", "Done with the flag."));
    }

    use super::*;
    use serde_json::json;

    fn failure(kind: &str, message: &str) -> CallFailure {
        CallFailure {
            kind: kind.into(),
            fault: crate::agent::Fault::Model,
            message: message.into(),
            field: None,
        }
    }

    /// Invalid arguments already carry what to send (the corrected arguments derived from what
    /// was sent, or the tool's own example): no second, schema-generated call with placeholder
    /// values beside it for the model to copy.
    #[test]
    fn invalid_arguments_get_no_second_example() {
        let ex = r#"{"name":"edit","arguments":{"path":"toolmend-example.txt","old_text":"hello","new_text":"goodbye"}}"#;
        let corrected = failure(
            "invalid_args",
            "invalid arguments for `edit`, field `old_text`: …\nCorrected arguments: {\"path\":\"a.txt\",\"old_text\":\"x\",\"new_text\":\"y\"}",
        );
        assert_eq!(corrective(&corrected, Some(ex)), corrected.message);
        let no_fix = failure(
            "invalid_args",
            "invalid arguments for `f`, field `when`: …\nKeep every other field as you sent it.",
        );
        assert_eq!(
            corrective(
                &no_fix,
                Some(r#"{"name":"f","arguments":{"when":"string"}}"#)
            ),
            no_fix.message
        );
        let esc = escalation("edit", &corrected, Some(ex));
        assert!(!esc.contains("toolmend-example.txt"), "{esc}");
        assert!(esc.contains("Corrected arguments"), "{esc}");
        // Other model faults still get one valid call.
        let unknown = failure("unknown_tool", "there is no tool `lst`");
        assert!(corrective(&unknown, Some(ex)).contains(ex));
    }

    #[test]
    fn a_call_shown_in_a_message_is_found_spaced_or_compact() {
        let m =
            r#"`x` does not exist. For example: {"name": "read", "arguments": {"path": "a.md"}}."#;
        let (at, len) = call_in(m, "read").unwrap();
        assert_eq!(
            &m[at..at + len],
            r#"{"name": "read", "arguments": {"path": "a.md"}}"#
        );
        let m = r#"Send exactly: {"name":"edit","arguments":{"path":"b"}} or not"#;
        let (at, len) = call_in(m, "edit").unwrap();
        assert_eq!(
            &m[at..at + len],
            r#"{"name":"edit","arguments":{"path":"b"}}"#
        );
        assert_eq!(call_in(m, "read"), None);
        assert_eq!(call_in(r#"cut: {"name": "read", "argu"#, "read"), None);
    }

    #[test]
    fn a_refused_value_is_told_apart_from_other_failures() {
        let mut value = failure(
            "invalid_args",
            "invalid arguments for `edit`, field `new_text`: new_text is the same as old_text",
        );
        value.field = Some("/new_text".into());
        assert!(names_a_value(&value));
        let whole = failure(
            "invalid_args",
            "invalid arguments for `edit`: the arguments must be an object",
        );
        assert!(!names_a_value(&whole));
        let mut unknown = failure("unknown_tool", "there is no tool `lst`");
        unknown.field = Some("/name".into());
        assert!(!names_a_value(&unknown));
        // The message is not read: one that only looks like a refused value is not one.
        let lookalike = failure(
            "invalid_args",
            "invalid arguments for `edit`, field `new_text`: said by a toolbox without a field",
        );
        assert!(!names_a_value(&lookalike));
    }

    #[test]
    fn the_copied_example_message_names_the_values() {
        let ex = json!({"path": "toolmend-example.txt", "content": "hello\n"});
        let m = example_copied("write", ex.as_object().unwrap());
        assert!(m.starts_with("This `write` call was not run"), "{m}");
        assert!(
            m.contains("its `path`, `content` are the example call's"),
            "{m}"
        );
        assert!(
            !m.contains("toolmend-example.txt") && !m.contains("hello"),
            "{m}"
        );
    }

    #[test]
    fn call_keys_ignore_key_order_and_parse_text() {
        let a = call_key(
            "ls",
            &Args::Value(json!({"a": 1, "b": [1, {"y": 2, "x": 1}]})),
        );
        let b = call_key(
            "ls",
            &Args::Text(r#"{"b": [1, {"x": 1, "y": 2}], "a": 1}"#.into()),
        );
        assert_eq!(a, b);
        assert_ne!(a, call_key("read", &Args::Value(json!({"a": 1}))));
        let deep = "[".repeat(100_000);
        let _ = call_key("x", &Args::Text(deep)); // not JSON: kept as a string, no recursion
    }
}
