//! What a change request spells out in its own words, read for the built-in tools that change
//! files: the piece of a line to replace ("change the default of --last from 7 to 14"), the value
//! to set ("Set the version in package.json to 1.5.0"), the line to add and where it goes ("Add
//! the line "- x" under "## 0.3.1"", "… at the end of todo.txt"), the name to rename ("Rename
//! the function price_of to unit_price"), and the file to create with its content ("Create a
//! file named .nvmrc containing the line 20").
//!
//! This module only reads the request. `edit` and `write` ground what it finds in the workspace
//! (the file the request names, the one line of it that the words pick out) before it is shown
//! to a model as the call to send ([`crate::tools::Tool::change_asked`]); anything the words
//! leave open — two lines that fit, a value that is no single word — gives no call.

/// A value the request writes: a quoted span as written between its quotes, or one word without
/// the sentence's punctuation around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Part {
    /// The text (without quotes or trailing punctuation).
    pub text: String,
    /// Whether the request wrote it in quotes (`"…"`, `` `…` ``, `'…'`, `“…”`).
    pub quoted: bool,
    /// Whether it opens the request or a clause of it (the word before ends with `,`, `.`,
    /// `;`, `:`, `!` or `?`).
    pub opens: bool,
    /// Whether an unquoted word ends with `:` in the request (`restart:` of "add restart:
    /// unless-stopped"), a key as YAML writes it.
    pub colon: bool,
}

impl Part {
    /// Whether this is the unquoted word `w` (case aside).
    pub(crate) fn is(&self, w: &str) -> bool {
        !self.quoted && self.text.eq_ignore_ascii_case(w)
    }

    /// Whether this is one of the unquoted words `ws` (case aside).
    pub(crate) fn is_any(&self, ws: &[&str]) -> bool {
        ws.iter().any(|w| self.is(w))
    }

    /// Whether this is the unquoted word `true` or `false` (case aside).
    pub(crate) fn is_truth(&self) -> bool {
        self.is_any(&["true", "false"])
    }
}

/// Words that are never a value: "change it to the …" names no value.
const FILLERS: &[&str] = &[
    "a", "an", "the", "it", "its", "this", "that", "these", "those", "them", "one", "new", "line",
    "file", "value", "text", "to", "of", "in", "at", "on",
];

/// Whether `c` can be part of a name in code — a letter, a digit, `_` or `$` (JavaScript) —
/// the one test the rename and entry rules here and their edits share.
pub(crate) fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// The request's words (lower case, as [`crate::tools::request_words`] gives them) but those
/// of a clause saying what to leave as it is: "Leave production as it is.", "Don't change the
/// development setup or the built-in default.", "… without touching the library default."
/// name what the change is not of. Found with a Perl distribution (session 52): "raise the
/// production p95 threshold to 1500 ms without touching the library default." was offered the
/// library's `DEFAULT_P95_THRESHOLD_MS`, its "default" read as the request's.
pub(crate) fn said_words(request: &str) -> Vec<String> {
    crate::tools::request_words(&said_text(request))
        .map(str::to_lowercase)
        .collect()
}

/// The request without its clauses saying what to leave as it is (see [`said_words`]), its
/// words as written: a file named only there ("Leave the production config as it is.") is no
/// file the change is asked of.
pub(crate) fn said_text(request: &str) -> String {
    const VERBS: &[&str] = &[
        "change", "touch", "modify", "edit", "alter", "update", "affect",
    ];
    let mut out: Vec<&str> = Vec::new();
    // Clauses end at a `.`, `;`, `,`, `!` or `?` before a space or the end.
    let mut clauses: Vec<Vec<(&str, String)>> = vec![Vec::new()];
    for token in request.split_whitespace() {
        if let Some(w) = crate::tools::request_words(token).next() {
            clauses.last_mut().unwrap().push((token, w.to_lowercase()));
        }
        if token.ends_with(['.', ';', ',', '!', '?']) {
            clauses.push(Vec::new());
        }
    }
    for clause in clauses {
        let start = clause
            .iter()
            .position(|(_, w)| !crate::tools::CLAUSE_LEADS.contains(&w.as_str()) && w != "but")
            .unwrap_or(clause.len());
        let words = &clause[start..];
        let verb_at = |i: usize| {
            words
                .get(i)
                .is_some_and(|(_, w)| VERBS.iter().any(|v| w.starts_with(&v[..v.len() - 1])))
        };
        let leaves = match words.first().map(|(_, w)| w.as_str()) {
            Some("leave") => true,
            Some("don't" | "dont" | "never") => verb_at(1),
            Some("do") => words.get(1).is_some_and(|(_, w)| w == "not") && verb_at(2),
            _ => false,
        };
        if leaves {
            continue;
        }
        // "… without touching X": the words before.
        let end = (0..words.len())
            .find(|&i| words[i].1 == "without" && verb_at(i + 1))
            .unwrap_or(words.len());
        out.extend(clause[..start].iter().chain(&words[..end]).map(|(t, _)| *t));
    }
    out.join(" ")
}

/// The byte offset where the run of characters that `keep` holds at the end of `text` starts
/// (`text.len()` when the last character is not one): the name before a line's `=`, stepping
/// over a multi-byte character before it whole (a README's tree drawing `└── :8477/healthz`
/// put the offset inside `─`: a Nim daemon, session 52).
pub(crate) fn run_start(text: &str, keep: impl Fn(char) -> bool) -> usize {
    text.char_indices()
        .rev()
        .find(|&(_, c)| !keep(c))
        .map_or(0, |(i, c)| i + c.len_utf8())
}

/// Whether `parts[i]` opens a clause, the leading words of [`crate::tools::CLAUSE_LEADS`]
/// aside.
fn opens_clause(parts: &[Part], i: usize) -> bool {
    parts[i].opens
        || (i > 0 && parts[i - 1].is_any(crate::tools::CLAUSE_LEADS) && opens_clause(parts, i - 1))
        // The verb of "Have (let, make) CI run …": what is had done is the request (a Rails
        // API, session 56: "Have CI run the specs against Postgres 17.2 instead." was offered
        // no change).
        || (2..=3).any(|n| {
            i >= n
                && parts[i - n].is_any(&["have", "let", "make"])
                && opens_clause(parts, i - n)
                && parts[i - n + 1..i].iter().all(|p| {
                    !p.opens && p.text.chars().all(|c| c.is_alphanumeric() || c == '-')
                })
        })
}

/// The first part that is one of the verbs `verbs` and opens a clause.
fn verb_at(parts: &[Part], verbs: &[&str]) -> Option<usize> {
    (0..parts.len()).find(|&i| parts[i].is_any(verbs) && opens_clause(parts, i))
}

/// `rest` up to the next part that opens a clause (its first part aside): the words after a
/// verb that belong to it.
fn clause(rest: &[Part]) -> &[Part] {
    let end = rest
        .iter()
        .skip(1)
        .position(|p| p.opens)
        .map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

/// The words of `parts` in lower case, a quoted part as an empty word: what the clause tests
/// of `crate::tools` read.
fn lower_words(parts: &[Part]) -> Vec<String> {
    parts
        .iter()
        .map(|p| {
            if p.quoted {
                String::new()
            } else {
                p.text.to_lowercase()
            }
        })
        .collect()
}

/// Where an added line goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Place {
    /// Right after the line that reads this (trimmed).
    After(String),
    /// Right before the line that reads this (trimmed).
    Before(String),
    /// After the file's last line.
    End,
    /// Before the file's first line.
    Start,
}

/// The request's values in order: quoted spans whole, other words one by one without the
/// punctuation of the sentence (`3.` is `3`, `(.env)` is `.env`, `__pycache__/` stays).
///
/// ```text
/// Add the line "- buy coffee" at the end of todo.txt.
/// → Add · the · line · "- buy coffee" · at · the · end · of · todo.txt
/// ```
pub(crate) fn parts(request: &str) -> Vec<Part> {
    const LEAD: &[char] = &['(', '[', '<', '*'];
    const TRAIL: &[char] = &[',', '.', ';', ':', '!', '?', ')', ']', '>', '*'];
    let mut out: Vec<Part> = Vec::new();
    let mut rest = request;
    let mut opens = true;
    loop {
        rest = rest.trim_start();
        let Some(first) = rest.chars().next() else {
            break;
        };
        let close = match first {
            '"' => Some('"'),
            '`' => Some('`'),
            '\u{201c}' => Some('\u{201d}'),
            '\u{2018}' => Some('\u{2019}'),
            '\'' => Some('\''),
            _ => None,
        };
        if let Some(close) = close {
            let body = &rest[first.len_utf8()..];
            // The closing quote ends a word: an apostrophe inside one (`don't`) is no end.
            let end = body.match_indices(close).map(|(at, _)| at).find(|&at| {
                body[at + close.len_utf8()..]
                    .chars()
                    .next()
                    .is_none_or(|c| c.is_whitespace() || TRAIL.contains(&c))
            });
            if let Some(end) = end
                && end > 0
            {
                out.push(Part {
                    text: body[..end].to_owned(),
                    quoted: true,
                    opens,
                    colon: false,
                });
                rest = &body[end + close.len_utf8()..];
                opens = rest.starts_with(TRAIL) && !rest.starts_with([')', ']', '>', '*']);
                continue;
            }
        }
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let raw = &rest[..len];
        // A glob's star stays (`*.log`); a star elsewhere is emphasis (`**web**`).
        let lead = raw.trim_start_matches(LEAD);
        let lead =
            if lead.starts_with('.') && raw.trim_start_matches(['(', '[', '<']).starts_with('*') {
                &raw[raw.find('*').unwrap_or(0)..]
            } else {
                lead
            };
        let word = lead
            .trim_start_matches(['"', '`', '\''])
            .trim_end_matches(['"', '`', '\''])
            .trim_end_matches(TRAIL);
        if !word.is_empty() {
            out.push(Part {
                text: word.to_owned(),
                quoted: false,
                opens,
                colon: raw.ends_with(':'),
            });
        }
        let bare = raw.trim_end_matches([')', ']', '>', '*', '"', '`', '\'']);
        opens = bare.ends_with([',', '.', ';', ':', '!', '?']) || (word.is_empty() && opens);
        rest = &rest[len..];
    }
    out
}

/// The parts of `parts` that can be values ([`is_value`]); `None` when there are none.
fn values_of(parts: &[Part]) -> Option<Vec<Part>> {
    let values: Vec<Part> = parts.iter().filter(|p| is_value(p)).cloned().collect();
    (!values.is_empty()).then_some(values)
}

/// Whether `p` can be a value: quoted, or a word that is not a filler ("the", "it").
pub(crate) fn is_value(p: &Part) -> bool {
    p.quoted || !p.is_any(FILLERS)
}

/// The piece to replace and its replacement: "from A to B"; "B instead of A"; "change "A" to
/// B" or "change its "A" to B" (A quoted); "replace A with B". Neither may be a filler word
/// ("the", "it").
///
/// ```text
/// change the default of --last from 7 to 14                      → (7, 14)
/// mark the plumber item as done: change its "TODO:" to "DONE:"   → (TODO:, DONE:)
/// replace colour with color                                       → (colour, color)
/// Sort the report by revenue instead of month                     → (month, revenue)
/// Delete unprocessed uploads after 14 days instead of 30          → (30, 14)
/// ```
pub(crate) fn replacement(parts: &[Part]) -> Option<(Part, Part)> {
    let found = parts.windows(4).find_map(|w| {
        (w[0].is("from") && w[2].is("to") && is_value(&w[1]) && is_value(&w[3]))
            .then(|| (w[1].clone(), w[3].clone()))
    });
    if found.is_some() {
        return found;
    }
    // "by revenue instead of month": the value after "instead of" gives way to the one before.
    // A number's unit between them goes with it: "after 14 days instead of 30" sets 14 (a
    // Terraform folder, session 38: the change due set `default = days`).
    let number = |p: &Part| p.text.parse::<f64>().is_ok();
    let instead = parts.windows(4).enumerate().find_map(|(i, w)| {
        if !(w[1].is("instead") && w[2].is("of") && is_value(&w[0]) && is_value(&w[3])) {
            return None;
        }
        let unit_after = |n: &Part| number(n) && !number(&w[0]) && !w[0].quoted;
        let new = match i.checked_sub(1).map(|k| &parts[k]) {
            Some(n) if number(&w[3]) && unit_after(n) => n,
            _ => &w[0],
        };
        Some((w[3].clone(), new.clone()))
    });
    if instead.is_some() {
        return instead;
    }
    parts.windows(4).find_map(|w| {
        let verb = w[0].is_any(&["change", "replace", "rename", "turn", "its"]);
        let joined = w[2].is_any(&["to", "with", "into", "by"]);
        (verb
            && joined
            && is_value(&w[1])
            && is_value(&w[3])
            && (w[1].quoted || w[0].is("replace")))
        .then(|| (w[1].clone(), w[3].clone()))
    })
}

/// What a rename may say it renames, between the verb and the name ("rename the function f").
const RENAMED_KINDS: &[&str] = &[
    "the",
    "a",
    "function",
    "method",
    "variable",
    "var",
    "class",
    "constant",
    "const",
    "field",
    "parameter",
    "argument",
    "type",
    "struct",
    "enum",
    "attribute",
    "property",
    "key",
    "macro",
    "identifier",
    "symbol",
];

/// The name a rename replaces and the new name: a clause opened by `rename`, at most the kind of
/// thing renamed between the verb and the old name ("the function", "the variable") or after
/// it ("the price_of function"), then `to`, `as` or `into` and the new name. Unquoted names
/// are identifiers (letters, digits, `_` and `$`, a digit not first; a call's `()` dropped):
/// "rename notes.txt to todo.txt" renames a file, which no edit does.
///
/// ```text
/// Rename the function price_of to unit_price everywhere in src/shop.py → (price_of, unit_price)
/// In config.py, rename `MAX` to `LIMIT`                                → (MAX, LIMIT)
/// ```
pub(crate) fn renamed(parts: &[Part]) -> Option<(Part, Part)> {
    let verb = verb_at(parts, &["rename"])?;
    let to = verb
        + 1
        + parts[verb + 1..]
            .iter()
            .position(|p| p.is_any(&["to", "as", "into"]))?;
    let kinds = |from: usize, to: usize| {
        from <= to && parts[from..to].iter().all(|p| p.is_any(RENAMED_KINDS))
    };
    // The old name right before `to`, else before the kind's word ("the price_of function").
    let old = if kinds(verb + 1, to - 1) {
        to - 1
    } else if to >= verb + 3 && kinds(to - 1, to) && kinds(verb + 1, to - 2) {
        to - 2
    } else {
        return None;
    };
    // "Rename the function to cost" names no function: a kind's word is the old name only
    // after another kind's ("the variable type").
    let article = |p: &Part| p.is_any(&["the", "a"]);
    if parts[old].is_any(RENAMED_KINDS)
        && (old == verb + 1 || article(&parts[old - 1]) || !parts[old - 1].is_any(RENAMED_KINDS))
    {
        return None;
    }
    let name = |p: &Part| {
        let mut p = p.clone();
        if !p.quoted {
            p.text = p
                .text
                .trim_end_matches("()")
                .trim_end_matches('(')
                .to_owned();
            let first = p.text.chars().next()?;
            if first.is_ascii_digit() || !p.text.chars().all(is_name_char) || p.is_any(FILLERS) {
                return None;
            }
        }
        (!p.text.trim().is_empty() && !p.text.contains('\n')).then_some(p)
    };
    let (old, new) = (name(&parts[old])?, name(parts.get(to + 1)?)?);
    (old.text != new.text).then_some((old, new))
}

/// An entry to add to a collection the file assigns to a name: its key (or the item itself),
/// its value when it has one, and the collection's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The key of a mapping's entry, or the item of a list.
    pub key: Part,
    /// The value of a mapping's entry ("with price 3.5", "= 3.5"); `None` for a list's item.
    pub value: Option<Part>,
    /// The name the collection is assigned to (`PRICES`), or the TOML/INI section it goes in
    /// (`dependencies`, `profile.release`).
    pub name: String,
}

/// The entry to add: "add K with (the) (word) (of) V to (the) NAME (list, dict, …)", "add K = V
/// to NAME", "add "K": V to NAME", "add K: V to NAME" (V any one word, as YAML writes it), or
/// "add ITEM to (the) NAME (list)". The verb is `add`,
/// `insert` or `put`; NAME is an identifier of the file (`PRICES`, `allowedHosts`) or a
/// section's name (`dev-dependencies`, `profile.release`); V is a number, a truth value or a
/// quoted span, K and ITEM one value each.
///
/// ```text
/// Add cheese with price 3.5 to the PRICES in src/shop.py       → (cheese, 3.5, PRICES)
/// Add "pear" to the FRUITS list in shop.py                    → (pear, –, FRUITS)
/// Add serde = "1" to the dependencies in Cargo.toml           → (serde, 1, dependencies)
/// Add `regex = "1"` to the [dependencies] section of Cargo.toml → (regex = "1", –, dependencies)
/// Add restart: unless-stopped to the web service               → (restart, unless-stopped, web)
/// ```
pub(crate) fn entry_added(parts: &[Part]) -> Option<Entry> {
    const KINDS: &[&str] = &[
        "list",
        "dict",
        "dictionary",
        "map",
        "mapping",
        "table",
        "array",
        "object",
        "set",
        "tuple",
        "constant",
        "variable",
    ];
    let verb = verb_at(parts, &["add", "insert", "put"])?;
    let mut i = verb + 1;
    while parts
        .get(i)
        .is_some_and(|p| p.is_any(&["a", "an", "the", "new", "entry", "item", "key"]))
    {
        i += 1;
    }
    let key = parts
        .get(i)
        .filter(|p| is_value(p) && !p.is_any(&["line", "with", "to"]))?;
    let scalar = |p: &Part| p.quoted || p.text.parse::<f64>().is_ok() || p.is_truth();
    i += 1;
    let value = match parts.get(i) {
        Some(p) if p.is("with") => {
            // "with price 3.5", "with a price of 3.5", "with the value "x"": the first scalar
            // within three words.
            let at = (i + 1..(i + 5).min(parts.len())).find(|&k| scalar(&parts[k]))?;
            let label = &parts[i + 1..at];
            if label.len() > 3 || label.iter().any(|p| p.quoted || p.is_any(&["to", "in"])) {
                return None;
            }
            i = at + 1;
            Some(parts[at].clone())
        }
        Some(p) if p.is("=") || (key.quoted && scalar(p) && !p.is_any(&["to", "in"])) => {
            let at = if p.is("=") { i + 1 } else { i };
            let v = parts.get(at).filter(|v| scalar(v))?.clone();
            i = at + 1;
            Some(v)
        }
        // YAML's `key: value`, the value one word as written (`restart: unless-stopped`).
        Some(p) if key.colon && is_value(p) && !p.is_any(&["to", "into", "in"]) => {
            i += 1;
            Some(p.clone())
        }
        // A key written `key:` with no value is no item of a list.
        _ if key.colon => return None,
        _ => None,
    };
    parts.get(i).filter(|p| p.is_any(&["to", "into", "in"]))?;
    i += 1;
    while parts.get(i).is_some_and(|p| p.is_any(&["the", "a"])) {
        i += 1;
    }
    let name = parts.get(i)?;
    if name.quoted
        || name.is_any(FILLERS)
        || name.is_any(KINDS)
        || name.text.starts_with(|c: char| c.is_ascii_digit())
        || !name
            .text
            .chars()
            .all(|c| is_name_char(c) || c == '-' || c == '.')
    {
        return None;
    }
    Some(Entry {
        key: key.clone(),
        value,
        name: name.text.clone(),
    })
}

/// Whether the request asks to add or write something new: a clause opened by one of
/// [`crate::tools::ADD_VERBS`].
pub(crate) fn adds(parts: &[Part]) -> bool {
    verb_at(parts, crate::tools::ADD_VERBS).is_some()
}

/// The value to set and the words before it that may name what gets it: "Set "debug" to true",
/// "Change the userAgent in config.json to linkcheck/1.5", "Raise client_max_body_size to 50m"
/// — the value after the last "to" of a request that opens a clause with one of
/// [`crate::tools::SET_VERBS`].
///
/// "… to use NAME V" ("Change the CI to use Go 1.22") sets V, the request's last word, and NAME
/// is among the words that name what gets it.
pub(crate) fn value_set(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    if let Some(required) = version_required(parts)
        .or_else(|| version_of(parts))
        .or_else(|| per_rate(parts))
        .or_else(|| every_interval(parts))
        .or_else(|| size_given(parts))
        .or_else(|| count_given(parts))
        .or_else(|| limit_given(parts))
        .or_else(|| wait_given(parts))
        .or_else(|| duration_made(parts))
        .or_else(|| dimension_made(parts))
        .or_else(|| month_given(parts))
        .or_else(|| built_with(parts))
        .or_else(|| use_of(parts))
        .or_else(|| times_done(parts))
        .or_else(|| time_should(parts))
        .or_else(|| after_time(parts))
        .or_else(|| kept_for(parts))
        .or_else(|| time_allowed(parts))
        .or_else(|| should_be_long(parts))
    {
        return Some(required);
    }
    let verb = verb_at(parts, crate::tools::SET_VERBS)?;
    // "Make V the default K (in F)": K gets V (a folder of dotfiles, session 31: "Make nano
    // the default editor in .bashrc.").
    if parts[verb].is("make")
        && let [value, the, default, keys @ ..] = &parts[verb + 1..]
        && is_value(value)
        && the.is("the")
        && default.is_any(&["default", "new"])
        && !keys.is_empty()
        && !parts.iter().any(|p| p.is("to"))
    {
        // `default` names the key too: an SQL column's `DEFAULT 'NL'`.
        let mut named = vec![default.clone()];
        named.extend(keys.iter().cloned());
        return Some((value.clone(), named));
    }
    // No "to": a number ending the request after "of" — "Make the linter warn at a line
    // length of 100." (a Swift package, session 42) — sets the number, named by the words
    // between the verb and the "of".
    if !parts.iter().any(|p| p.is("to"))
        && let [.., of, value] = parts
        && of.is("of")
        && !value.quoted
        && value.text.parse::<f64>().is_ok()
        && parts.len() >= verb + 3
    {
        return Some((value.clone(), parts[verb + 1..parts.len() - 2].to_vec()));
    }
    // No "to": "Make K use N V" (`have`, `let`) — V for K and N, as "Change K to use N V" (a
    // Clojure service, session 47: "Make CI use Java 21." is the workflow's `JAVA_VERSION:
    // "17"`).
    // What it is compared with after the value is no part of it ("… use 0.13.0 like CI
    // does"), and "it" stands for what the sentence before said ("The Docker build still
    // downloads an older Zig; make it use 0.13.0 like CI does.": a Zig service, session 49,
    // offered no change).
    if !parts.iter().any(|p| p.is("to"))
        && parts[verb].is_any(&["make", "have", "let"])
        && let Some(using) = (verb + 2..parts.len()).find(|&i| parts[i].is("use"))
        && let used = &parts[using + 1..]
        && let used = &used[..used
            .iter()
            .position(|p| p.is_any(&["like", "as", "than"]))
            .unwrap_or(used.len())]
        && let [named @ .., last] = used
        && is_value(last)
        && last.text.starts_with(|c: char| c.is_ascii_digit())
    {
        let mut keys = parts[verb + 1..using].to_vec();
        if let [it] = keys.as_slice()
            && it.is_any(&["it", "this", "that"])
        {
            keys = parts[..verb].to_vec();
        }
        keys.extend(named.iter().cloned());
        if !keys.iter().any(is_value) || (named.is_empty() && keys.len() < 2) {
            return None;
        }
        return Some((last.clone(), keys));
    }
    // No "to": "Make K N (U) (instead of …)" — a number ending the clause, with one word of
    // its unit after it or none — N for K and U (a Julia package, session 51: "Make the spike
    // filter's default rolling window 96 samples instead of the current value." was read as
    // no change; `const DEFAULT_WINDOW = 48`).
    if parts[verb].is("make")
        && let Some(made) = number_made(parts, verb)
    {
        return Some(made);
    }
    let to = parts.iter().rposition(|p| p.is("to"))?;
    let value = parts.get(to + 1)?;
    // "… to version V" (a version, not the word): "Pin the community.docker collection to
    // version 3.10.2." (an Ansible project's requirements, session 44).
    if value.is("version")
        && let Some(version) = parts.get(to + 2)
        && !version.quoted
        && version
            .text
            .trim_start_matches(['v', 'V'])
            .starts_with(|c: char| c.is_ascii_digit())
        && to > verb
    {
        let mut keys = parts[verb + 1..to].to_vec();
        keys.push(value.clone());
        return Some((version.clone(), keys));
    }
    if to > verb
        && value.is("use")
        && let [named @ .., last] = &parts[to + 2..]
        && !named.is_empty()
        && is_value(last)
    {
        let mut keys = parts[verb + 1..to].to_vec();
        keys.extend(named.iter().cloned());
        return Some((last.clone(), keys));
    }
    if to <= verb || !is_value(value) {
        return None;
    }
    // A name of several words, each capitalised or a number: "Plot 14 Notes" of "Change the
    // site title to Plot 14 Notes." (a Hugo site, session 37).
    let title = |p: &Part| {
        !p.quoted
            && !p.opens
            && p.text
                .starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit())
    };
    let mut value = value.clone();
    if !value.quoted && value.text.starts_with(char::is_uppercase) {
        for p in parts[to + 2..].iter().take_while(|p| title(p)) {
            value.text = format!("{} {}", value.text, p.text);
        }
    }
    let mut keys = parts[verb + 1..to].to_vec();
    // A name and a version, "Scala 2.13.14" of "Upgrade the project to Scala 2.13.14." (a
    // Scala/sbt service, session 44): the version is set, the name names it.
    if let Some((name, version)) = value.text.rsplit_once(' ')
        && version.contains('.')
        && version.starts_with(|c: char| c.is_ascii_digit())
        && version.chars().all(|c| c.is_ascii_digit() || c == '.')
    {
        keys.extend(name.split(' ').map(|w| Part {
            text: w.to_owned(),
            quoted: false,
            opens: false,
            colon: false,
        }));
        keys.push(Part {
            text: "version".into(),
            quoted: false,
            opens: false,
            colon: false,
        });
        value.text = version.to_owned();
    }
    // A name and its version written after it, `v` first or with dots: "actions/setup-java
    // v4" of "Switch CI over to actions/setup-java v4." (a Ktor link shortener, session 55:
    // read as setting `actions/setup-java`).
    if !value.quoted
        && value.text.chars().any(char::is_alphabetic)
        && let Some(version) = parts.get(to + 2)
        && !version.quoted
        && parts.len() == to + 3
    {
        let bare = version
            .text
            .strip_prefix(['v', 'V'])
            .unwrap_or(&version.text);
        let versioned = !bare.is_empty()
            && bare.starts_with(|c: char| c.is_ascii_digit())
            && bare.chars().all(|c| c.is_ascii_digit() || c == '.')
            && (bare.contains('.') || bare.len() < version.text.len());
        if versioned {
            keys.push(value.clone());
            value = version.clone();
        }
    }
    let value = &value;
    // A number's unit may name what gets it: `nights` of "Raise the maximum stay to 21
    // nights." (`MAX_NIGHTS`: a Maven project, session 37).
    // (Not a word placing what follows: "… to 0.4.3 for the next release", a Julia
    // package, session 51, offered no change.)
    if value.text.chars().all(|c| c.is_ascii_digit() || c == '.')
        && let Some(unit) = parts.get(to + 2)
        && !unit.quoted
        && !unit.opens
        && unit.text.chars().all(char::is_alphabetic)
        && is_value(unit)
        && !unit.is_any(crate::tools::PLACING)
    {
        keys.push(unit.clone());
    }
    Some((value.clone(), keys))
}

/// "Make K N (U)" after the verb at `verb`: the clause, up to "instead of …" or "by
/// default", ends with a number N (a whole or decimal number), or with N and one word U of
/// its unit; K is two words or more, none of them "to". N for K and U.
///
/// ```text
/// Make the spike filter's default rolling window 96 samples instead of the current value → (96, [the, spike, filter's, default, rolling, window, samples])
/// ```
fn number_made(parts: &[Part], verb: usize) -> Option<(Part, Vec<Part>)> {
    let rest = clause(&parts[verb..]);
    let end = rest
        .windows(2)
        .position(|w| {
            (w[0].is("instead") && w[1].is("of")) || (w[0].is("by") && w[1].is("default"))
        })
        .unwrap_or(rest.len());
    let rest = &rest[..end];
    if rest.iter().any(|p| p.is("to")) {
        return None;
    }
    let number = |p: &Part| {
        !p.quoted
            && p.text.starts_with(|c: char| c.is_ascii_digit())
            && p.text.chars().all(|c| c.is_ascii_digit() || c == '.')
            && p.text.parse::<f64>().is_ok()
    };
    let (value, keys) = match rest {
        [_, keys @ .., value, unit]
            if number(value)
                && !unit.quoted
                && unit.text.chars().all(char::is_alphabetic)
                && is_value(unit)
                && !unit.is_any(crate::tools::PLACING) =>
        {
            let mut keys = keys.to_vec();
            keys.push(unit.clone());
            (value, keys)
        }
        [_, keys @ .., value] if number(value) => (value, keys.to_vec()),
        _ => return None,
    };
    (keys.iter().filter(|p| is_value(p)).count() >= 2).then(|| (value.clone(), keys))
}

/// A version a request requires: "Require K V or newer" (`later`, `higher`, `above`; or
/// "Require K V+") — V a version, K one to three words naming what it is of — sets V, and the
/// words naming it are K and `version` (a Ruby gem, session 38: "Require Ruby 3.2 or newer."
/// is the gemspec's `required_ruby_version`).
///
/// ```text
/// Require Ruby 3.2 or newer   → (3.2, [Ruby, version])
/// Require Node 20+            → (20, [Node, version])
/// Require version 1.2.2 or newer of the http package → (1.2.2, [http, version])
/// Require at least yojson 2.2.0 → (2.2.0, [yojson, version])
/// ```
fn version_required(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    let verb = verb_at(parts, &["require", "need"])?;
    let rest = &parts[verb + 1..];
    let number = |t: &str| {
        t.starts_with(|c: char| c.is_ascii_digit())
            && t.chars().all(|c| c.is_ascii_digit() || c == '.')
    };
    let at = rest
        .iter()
        .position(|p| !p.quoted && number(p.text.trim_end_matches('+')))?;
    let (keys, value) = (&rest[..at], &rest[at]);
    // "Require at least K V" says "or newer" first (an OCaml/dune project, session 49:
    // "Require at least yojson 2.2.0." was offered no change).
    let (keys, at_least) = match keys {
        [at, least, tail @ ..] if at.is("at") && least.is("least") => (tail, true),
        _ => (keys, false),
    };
    let plus = value.text.ends_with('+');
    let newer = at_least
        || matches!(
            rest.get(at + 1..at + 3),
            Some([or, later]) if or.is("or") && later.is_any(&["newer", "later", "higher", "above"])
        );
    // "Require version V or newer of the NAME package": NAME names it (a Dart package,
    // session 44: "… of the http package" named nothing but `version`).
    let of_name: Vec<Part> = match rest.get(at + 3..) {
        Some([of, tail @ ..]) if newer && of.is("of") => tail
            .iter()
            .skip_while(|p| p.is("the"))
            .take_while(|p| !p.opens)
            .filter(|p| !p.is_any(&["package", "library", "gem", "crate", "module", "dependency"]))
            .cloned()
            .collect(),
        _ => Vec::new(),
    };
    let keys: &[Part] = if keys.iter().all(|k| k.is("version")) && !of_name.is_empty() {
        &of_name
    } else {
        keys
    };
    if !(plus || newer) || keys.is_empty() || keys.len() > 3 || !keys.iter().all(is_value) {
        return None;
    }
    let mut value = value.clone();
    value.text = value.text.trim_end_matches('+').to_owned();
    let mut named = keys.to_vec();
    named.push(Part {
        text: "version".into(),
        quoted: false,
        opens: false,
        colon: false,
    });
    Some((value, named))
}

/// A number of things per unit: "Show N things per unit" (`list`, `display`: see
/// [`crate::tools::rate_clause`]) sets N, and the words naming what gets it are the things,
/// `per` and the unit (a PHP library, session 39: "Show 50 invoices per page." is the config's
/// `'per_page' => 25`).
///
/// ```text
/// Show 50 invoices per page   → (50, [invoices, per, page])
/// ```
fn per_rate(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    // Or "… (should) default to N things per unit" ("When nothing is configured, survey
    // listings should default to 40 surveys per page.": a Rails API, session 56).
    let verb = verb_at(parts, crate::tools::RATE_VERBS).or_else(|| {
        let at = parts
            .windows(3)
            .position(|w| w[0].is("default") && w[1].is("to") && whole_number(&w[2]))?;
        Some(at + 1)
    })?;
    let rest = &parts[verb + 1..];
    let words = lower_words(clause(rest));
    // (Read as "show N things per unit".)
    let verb_word = if parts[verb].is("to") {
        "show".to_owned()
    } else {
        parts[verb].text.to_lowercase()
    };
    let mut clause = vec![verb_word];
    clause.extend(words.iter().cloned());
    let clause: Vec<&str> = clause.iter().map(String::as_str).collect();
    if !crate::tools::rate_clause(&clause) {
        return None;
    }
    let per = rest.iter().position(|p| p.is("per"))?;
    let mut keys = rest[1..=per + 1].to_vec();
    if !keys.iter().all(is_value) {
        return None;
    }
    // Things per page are a page's size (`survey_page_size: 35` for "Show 40 surveys per
    // page.": a Rails API, session 56, offered no change; `'per_page' => 25` still holds
    // "per" and "page").
    if rest[per + 1].is("page") {
        keys.push(Part {
            text: "size".into(),
            ..rest[per + 1].clone()
        });
    }
    Some((rest[0].clone(), keys))
}

/// An interval: "V K every N unit" (see `crate::tools::interval_clause`) sets N, and the words
/// naming what gets it are the verb, the words after it up to `every`, the unit and
/// `interval` (a Kotlin/Gradle application, session 40: "Poll for updates every 30 minutes."
/// is the config's `poll-interval = 15m`).
///
/// ```text
/// Poll for updates every 30 minutes  → (30, [Poll, for, updates, minutes, interval])
/// ```
fn every_interval(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    // The clause that is one, after a clause setting the scene ("In production, only re-check
    // watched flights every 4 minutes.": a NestJS service, session 56, read as no change).
    let rest = (0..parts.len())
        .filter(|&i| opens_clause(parts, i) && !parts[i].quoted)
        .map(|i| clause(&parts[i..]))
        .find(|rest| {
            let words = lower_words(rest);
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            crate::tools::interval_clause(&words)
        })?;
    let every = rest.iter().position(|p| p.is("every"))?;
    let (value, unit) = (rest.get(every + 1)?, rest.get(every + 2)?);
    let mut keys: Vec<Part> = rest[..every]
        .iter()
        .filter(|p| is_value(p))
        .cloned()
        .collect();
    keys.push(unit.clone());
    // What "every" sets is an interval (`interval_ms = 2000` under `[sampling]` for "Sample
    // the sensors every 5000 ms.": a C++/CMake daemon, session 41).
    keys.push(Part {
        text: "interval".into(),
        quoted: false,
        opens: false,
        colon: false,
    });
    Some((value.clone(), keys))
}

/// An amount of memory given: "Give K N unit (of K)" (see `crate::tools::size_clause`) sets
/// N, and the words naming what gets it are the clause's other words and the unit (a
/// Kotlin/Gradle application, session 40: "Give the Gradle daemon 4 GB of heap." is
/// gradle.properties' `-Xmx2g`). A number written with its unit (`4GB`) is split.
///
/// ```text
/// Give the Gradle daemon 4 GB of heap  → (4, [Gradle, daemon, GB, heap])
/// ```
fn size_given(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    let verb = verb_at(parts, &["give", "allocate"])?;
    let rest = clause(&parts[verb..]);
    let words = lower_words(rest);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    if !crate::tools::size_clause(&words) {
        return None;
    }
    let at = rest[1..]
        .iter()
        .position(|p| !p.quoted && p.text.starts_with(|c: char| c.is_ascii_digit()))?
        + 1;
    let given = &rest[at];
    let digits = given
        .text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(given.text.len());
    let mut value = given.clone();
    value.text = given.text[..digits].to_owned();
    let mut keys: Vec<Part> = rest[1..at]
        .iter()
        .filter(|p| is_value(p))
        .cloned()
        .collect();
    if digits < given.text.len() {
        let mut unit = given.clone();
        unit.text = given.text[digits..].to_owned();
        keys.push(unit);
    }
    keys.extend(rest[at + 1..].iter().filter(|p| is_value(p)).cloned());
    Some((value, keys))
}

/// A number of things to run: "Start N K" (`run`, `spawn`, `launch`, `use`, `keep`), K one to
/// three words up to the end of the clause or a word placing them (`in`, `on`, `for`, …), the
/// last a plural — N for what K names (a Django project, session 41: "Start 5 gunicorn workers
/// in the container." is the Dockerfile's `"--workers", "3"`).
///
/// ```text
/// Start 5 gunicorn workers in the container  → (5, [gunicorn, workers])
/// Run 3 replicas of the web service          → (3, [replicas])
/// ```
fn count_given(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    let Some(verb) = verb_at(parts, crate::tools::COUNT_VERBS) else {
        return count_made(parts).or_else(|| count_should(parts));
    };
    let rest = clause(&parts[verb..]);
    let words = lower_words(rest);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    if !crate::tools::count_clause(&words) {
        return None;
    }
    let keys: Vec<Part> = rest[2..]
        .iter()
        .take_while(|p| !p.is_any(crate::tools::PLACING))
        .cloned()
        .collect();
    keys.iter().all(is_value).then(|| (rest[1].clone(), keys))
}

/// Plurals that do not end in `s`, for the things a count counts.
const PLURALS: &[&str] = &[
    "taxa",
    "data",
    "criteria",
    "media",
    "phenomena",
    "people",
    "children",
    "men",
    "women",
    "mice",
    "geese",
    "feet",
    "teeth",
];

/// A number of things something should show or keep, said as what should be: "K should V
/// (the) N things (unless …)" (`should` or `must`; V one of
/// [`crate::tools::MADE_TO_VERBS`]; N a whole number; the things one to three words, the
/// last a plural, ending at a word that places them or opens a condition) — N for the
/// things, named by them, by V and by K. Found with an R package
/// (session 50): "Cover plots should show the 20 most abundant taxa unless the caller asks for
/// a different number." was read as no change (`plot_cover(…, top_n = 15, …)`, whose
/// documentation says "Number of taxa to show").
///
/// ```text
/// Cover plots should show the 20 most abundant taxa unless …  → (20, [most, abundant, taxa, show, Cover, plots])
/// ```
fn count_should(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    const ENDS: &[&str] = &[
        "unless", "if", "when", "by", "instead", "except", "and", "but", "so", "as",
    ];
    let modal = (1..parts.len()).find(|&i| parts[i].is_any(&["should", "must"]))?;
    let rest = clause(&parts[modal..]);
    let verb = rest.get(1)?;
    if !verb.is_any(crate::tools::MADE_TO_VERBS) {
        return None;
    }
    let at = if rest.get(2)?.is("the") { 3 } else { 2 };
    let count = rest.get(at)?;
    if count.quoted || count.text.is_empty() || !count.text.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let things: Vec<&Part> = rest[at + 1..]
        .iter()
        .take_while(|p| !p.is_any(crate::tools::PLACING) && !p.is_any(ENDS))
        .collect();
    let plural = |p: &Part| {
        let w = p.text.to_lowercase();
        (w.len() >= 4 && w.ends_with('s') && !w.ends_with("ss")) || PLURALS.contains(&w.as_str())
    };
    if !(1..=3).contains(&things.len())
        || things.iter().any(|p| p.quoted || !is_value(p))
        || !things.last().is_some_and(|p| plural(p))
    {
        return None;
    }
    let mut keys: Vec<Part> = things.into_iter().cloned().collect();
    keys.push(verb.clone());
    keys.extend(parts[..modal].iter().filter(|p| is_value(p)).cloned());
    Some((count.clone(), keys))
}

/// A number of things something is made to show or keep: "Make K V N things (by default)"
/// (`show`, `display`, `list`, `return`, `fetch`, `keep`, `run`, `start`, `use`; N a whole
/// number, the things one to three words, the last a plural) — N for the things, named by
/// them and by K (a Swift package, session 42: "Make the forecast command show 7 days by
/// default." is the command's `var days: Int = 5`). Only after "make", "have" or "let": "Show
/// 5 commits" alone asks to see them.
///
/// ```text
/// Make the forecast command show 7 days by default  → (7, [days, forecast, command])
/// ```
fn count_made(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    let verb = verb_at(parts, &["make", "have", "let"])?;
    let rest = clause(&parts[verb..]);
    let at = (2..rest.len())
        .find(|&i| rest[i].is_any(crate::tools::MADE_TO_VERBS) && !rest[i].quoted)?;
    let words = lower_words(&rest[at..]);
    let mut words: Vec<&str> = words.iter().map(String::as_str).collect();
    // Read as a count verb's clause: the verb's place taken by one count verb.
    words[0] = "keep";
    if let Some(by) = words.iter().position(|w| *w == "by") {
        words.truncate(by);
    }
    if !crate::tools::count_clause(&words) {
        return None;
    }
    let mut keys: Vec<Part> = rest[at + 2..]
        .iter()
        .take_while(|p| !p.is_any(crate::tools::PLACING) && !p.is("by"))
        .cloned()
        .collect();
    keys.extend(rest[1..at].iter().filter(|p| is_value(p)).cloned());
    (!keys.is_empty() && keys.iter().all(is_value)).then(|| (rest[at + 1].clone(), keys))
}

/// A size in one dimension: "Make K N (U) D (by default)", D an adjective of size — `wide`,
/// `long`, `high`, `tall`, `deep` — N a whole number, U one word of its unit: N for the
/// dimension's noun (`width`, `length`, `height`, `depth`), named by it, by K and by U. Found
/// with a Haskell project (session 47): "Make reports 120 columns wide by default." is the
/// report option's `long "width"` … `value 96`.
///
/// ```text
/// Make reports 120 columns wide by default  → (120, [width, reports, columns])
/// ```
fn dimension_made(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    const SIZES: &[(&str, &str)] = &[
        ("wide", "width"),
        ("long", "length"),
        ("high", "height"),
        ("tall", "height"),
        ("deep", "depth"),
    ];
    let verb = verb_at(parts, &["make"])?;
    let rest = clause(&parts[verb..]);
    let at = (2..rest.len()).find(|&i| !rest[i].quoted && whole_number(&rest[i]))?;
    let (adjective, unit) = match rest.get(at + 1) {
        Some(next) if SIZES.iter().any(|(a, _)| next.is(a)) => (next, None),
        Some(unit) => (rest.get(at + 2)?, Some(unit)),
        None => return None,
    };
    let (_, noun) = SIZES.iter().find(|(a, _)| adjective.is(a))?;
    let tail = &rest[at + 2 + usize::from(unit.is_some())..];
    if !(tail.is_empty() || (tail.len() == 2 && tail[0].is("by") && tail[1].is("default"))) {
        return None;
    }
    let mut dimension = adjective.clone();
    dimension.text = (*noun).to_owned();
    let mut keys = vec![dimension];
    keys.extend(rest[1..at].iter().filter(|p| is_value(p)).cloned());
    keys.extend(unit.filter(|u| is_value(u)).cloned());
    Some((rest[at].clone(), keys))
}

/// A month by its name ending a clause after `in`, `to`, `from` or `at`, "by default" aside:
/// its number (1 for January), for the words between the clause's verb and that word — code
/// and settings count months (a Haskell project, session 47: "Make the fiscal year start in
/// January by default." is `cfgFiscalYearStart = 4`, "Month (1-12) in which the fiscal year
/// begins"). A verb that says when (`start`, `begin`) names it too. "May" counts only as a
/// capital's.
///
/// ```text
/// Make the fiscal year start in January by default  → (1, [fiscal, year, start])
/// Start the fiscal year in October                  → (10, [start, fiscal, year])
/// ```
fn month_given(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    const MONTHS: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    let verb = (0..parts.len()).find(|&i| opens_clause(parts, i) && !parts[i].quoted)?;
    let rest = clause(&parts[verb..]);
    let mut end = rest.len();
    if end >= 2 && rest[end - 2].is("by") && rest[end - 1].is("default") {
        end -= 2;
    }
    if end < 3 {
        return None;
    }
    let month = &rest[end - 1];
    let number = MONTHS.iter().position(|m| month.is(m))? + 1;
    if number == 5 && month.text != "May" {
        return None;
    }
    if !rest[end - 2].is_any(&["in", "to", "from", "at"]) {
        return None;
    }
    let first = if rest[0].is_any(&["start", "begin"]) {
        0
    } else {
        1
    };
    let keys = values_of(&rest[first..end - 2])?;
    let mut value = month.clone();
    value.text = number.to_string();
    Some((value, keys))
}

/// An upper bound: "… up to N K" in a clause whose verb sets nothing itself (not one of
/// [`crate::tools::SET_VERBS`], whose "to" is the value's); N a whole number, K a plural — N
/// for the maximum of what K names, named by `max`, K and the clause's words between its verb
/// and "up" (a Scala/sbt service, session 44: "Let scalafmt format lines up to 120 columns
/// wide." is `.scalafmt.conf`'s `maxColumn = 110`). Times tried are attempts: "try up to 5
/// times" (a Dart package, session 44: `this.maxAttempts = 3`).
///
/// ```text
/// Let scalafmt format lines up to 120 columns wide        → (120, [scalafmt, format, lines, max, columns])
/// Make the retry policy try up to 5 times by default      → (5, [retry, policy, try, max, attempts])
/// ```
fn limit_given(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    // Any clause may say it, after one setting the scene ("In production, let kiln send up
    // to 80 requests per second …": an Erlang/OTP service, session 51).
    (0..parts.len())
        .filter(|&i| opens_clause(parts, i) && !parts[i].quoted)
        .find_map(|verb| limit_in(clause(&parts[verb..])))
}

/// [`limit_given`] for the clause `rest` (its verb first). A rate after the things ("80
/// requests per second") names what gets it too: `per` and the unit.
fn limit_in(rest: &[Part]) -> Option<(Part, Vec<Part>)> {
    if rest[0].is_any(crate::tools::SET_VERBS) && !rest[0].is("make") {
        return None;
    }
    // "up to N …", or "at most N …" (a Gleam feed relay, session 54: "In production, let
    // the wait between delivery retries grow to at most 45 minutes.").
    let up = (1..rest.len()).find(|&i| {
        (rest[i].is("up") || rest[i].is("at"))
            && rest
                .get(i + 1)
                .is_some_and(|p| p.is(if rest[i].is("up") { "to" } else { "most" }))
    })?;
    let (value, unit) = (rest.get(up + 2)?, rest.get(up + 3)?);
    let plural = unit.text.len() >= 4 && unit.text.ends_with('s') && !unit.text.ends_with("ss");
    if !whole_number(value) || unit.quoted || !unit.text.chars().all(char::is_alphabetic) || !plural
    {
        return None;
    }
    let mut keys: Vec<Part> = rest[1..up]
        .iter()
        .filter(|p| is_value(p))
        .cloned()
        .collect();
    // The wait between retries is a backoff (`max_backoff_seconds`).
    let backoff = keys.iter().any(|k| k.is_any(&["wait", "delay", "pause"]))
        && keys
            .iter()
            .any(|k| k.is_any(&["retries", "retry", "attempts"]));
    let tried = rest[1..up]
        .iter()
        .any(|p| p.is_any(&["try", "retry", "attempt"]));
    let word = |text: &str| Part {
        text: text.to_owned(),
        ..unit.clone()
    };
    keys.push(word("max"));
    if backoff {
        keys.push(word("backoff"));
    }
    keys.push(if unit.is("times") && tried {
        word("attempts")
    } else {
        unit.clone()
    });
    let mut after = up + 4;
    if let (Some(per), Some(of)) = (rest.get(up + 4), rest.get(up + 5))
        && per.is("per")
        && !of.quoted
        && of.text.chars().all(char::is_alphabetic)
    {
        keys.push(per.clone());
        keys.push(of.clone());
        after += 2;
    }
    // A length of time given "to respond before they count as timed out": what is timed
    // follows it, and "timed out" names a timeout (a Deno uptime checker, session 54: "In
    // production, give probes up to 6 seconds to respond before they count as timed out." is
    // the config's `"timeoutMs": 4500`).
    if crate::tools::unit_named(&unit.text).is_some_and(crate::tools::is_time_unit) {
        const LINKS: &[&str] = &["before", "after", "until", "they", "as", "when", "while"];
        let tail = &rest[after.min(rest.len())..];
        keys.extend(
            tail.iter()
                .filter(|p| is_value(p) && !p.is_any(LINKS))
                .cloned(),
        );
        if tail
            .windows(2)
            .any(|w| w[0].is_any(&["timed", "time", "times"]) && w[1].is("out"))
        {
            keys.push(word("timeout"));
        }
    }
    Some((value.clone(), keys))
}

/// A wait: "… wait N unit before K" (`after`, `between`; N a whole number, the unit one of
/// time) sets N, and the words naming what gets it are the unit, the clause's words before
/// `wait` after its first (the verb) and those after `before`, with a gerund's stems (a
/// C++/CMake daemon, session 41: "Make systemd wait 30 seconds before restarting sensord." is
/// the unit's `RestartSec=10`).
///
/// ```text
/// Make systemd wait 30 seconds before restarting sensord
///   → (30, [systemd, seconds, restarting, restart, restarte, sensord])
/// ```
fn wait_given(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    let verb = (0..parts.len()).find(|&i| opens_clause(parts, i) && !parts[i].quoted)?;
    let rest = clause(&parts[verb..]);
    let at = rest.iter().position(|p| p.is("wait"))?;
    let (value, mut keys) = time_given(rest, at)?;
    for p in rest[at + 3..]
        .iter()
        .filter(|p| is_value(p) && !p.is_any(&["before", "after", "between"]))
    {
        keys.push(p.clone());
        for stem in crate::tools::ing_stems(&p.text.to_lowercase()) {
            keys.push(Part {
                text: stem,
                ..p.clone()
            });
        }
    }
    Some((value, keys))
}

/// "Use a K of N (U)": a clause opened by "use", then "a" or "an", the words naming K, "of",
/// a number, and one word of its unit or none, ending the clause — N for K and U. Found with a
/// Nim daemon (session 52): "In production, use an MQTT keepalive of 90 seconds. Don't change
/// …" was read as no change (`keepalive_secs = 20` in the production config).
fn use_of(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    let verb = (0..parts.len()).find(|&i| opens_clause(parts, i) && parts[i].is("use"))?;
    let rest = clause(&parts[verb..]);
    let [_, article, named @ ..] = rest else {
        return None;
    };
    if !article.is_any(&["a", "an"]) {
        return None;
    }
    let of = named.iter().position(|p| p.is("of"))?;
    let (keys, tail) = (&named[..of], &named[of + 1..]);
    let (value, unit) = match tail {
        [value] => (value, None),
        [value, unit] if !unit.quoted && crate::tools::unit_named(&unit.text).is_some() => {
            (value, Some(unit))
        }
        _ => return None,
    };
    if value.quoted || value.text.parse::<f64>().is_err() || keys.is_empty() {
        return None;
    }
    let mut keys: Vec<Part> = keys.iter().filter(|p| is_value(p)).cloned().collect();
    keys.extend(unit.cloned());
    (!keys.is_empty()).then(|| (value.clone(), keys))
}

/// "… so that K is V-ed N times": a clause after "so that" whose whole number N is followed by
/// `times` and preceded by a past participle V (`retried`, "up to" or "at most" between them
/// aside) — N for what K names and for the noun V makes (`retried` → `retries`, `attempted`
/// → `attempt`). Found with a Nim daemon (session 52): "Change the built-in default so that a
/// failed database write is retried 8 times." was read as no value to set
/// (`DefaultWriteRetries* = 5`).
///
/// ```text
/// Change the built-in default so that a failed database write is retried 8 times
///   → (8, [built-in, default, failed, database, write, retries, retry])
/// ```
fn times_done(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    const BE: &[&str] = &["is", "are", "be", "gets", "get", "will", "was", "were"];
    let so = (0..parts.len().saturating_sub(1))
        .find(|&i| parts[i].is("so") && parts[i + 1].is("that"))?;
    let rest = clause(&parts[so + 1..]);
    let n = (1..rest.len()).find(|&i| {
        whole_number(&rest[i])
            && rest
                .get(i + 1)
                .is_some_and(|p| p.is_any(&["times", "time"]))
    })?;
    let mut v = n - 1;
    while v > 1 && rest[v].is_any(&["up", "to", "at", "most"]) {
        v -= 1;
    }
    let done = rest[v].text.to_lowercase();
    if rest[v].quoted || done.len() < 5 || !done.ends_with("ed") {
        return None;
    }
    // What the words before "so that" name too: "the built-in default".
    let before = (0..so).rfind(|&i| opens_clause(parts, i)).unwrap_or(0);
    let mut keys: Vec<Part> = parts[before + 1..so]
        .iter()
        .chain(&rest[1..v])
        .filter(|p| is_value(p) && !p.is_any(BE))
        .cloned()
        .collect();
    let nouns: Vec<String> = if let Some(stem) = done.strip_suffix("ied") {
        vec![format!("{stem}ies"), format!("{stem}y")]
    } else {
        let stem = &done[..done.len() - 2];
        vec![stem.to_owned(), format!("{stem}s")]
    };
    keys.extend(nouns.into_iter().map(|text| Part {
        text,
        quoted: false,
        opens: false,
        colon: false,
    }));
    (keys.len() >= 2).then(|| (rest[n].clone(), keys))
}

/// A length of time said as what should be: "K should (be) V (…) after|for|within|every N
/// unit (instead)" (`must` too; the unit one of time) — N for the clause's words before the
/// number (the modal, `be`, and words of no value aside) and the unit. Found with a Rust
/// workspace and a Crystal web service (session 53): "In production, a batch that isn't full
/// should be shipped after 6000 ms instead." and "Production should cache links for 12 hours
/// instead." were read as no change (`flush_interval_ms = 4000` under `[batch]`,
/// `ttl_seconds: 28800` under `cache:`).
///
/// ```text
/// Production should cache links for 12 hours instead  → (12, [Production, cache, links, hours])
/// ```
fn time_should(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    const SKIP: &[&str] = &[
        "should", "must", "be", "is", "are", "isn't", "aren't", "not", "that", "which", "get",
        "gets", "in", "at", "a", "an",
    ];
    let modal = (1..parts.len()).find(|&i| parts[i].is_any(&["should", "must"]))?;
    let start = (0..modal).rfind(|&i| opens_clause(parts, i)).unwrap_or(0);
    let rest = clause(&parts[modal..]);
    let n = (2..rest.len()).find(|&i| {
        whole_number(&rest[i])
            && rest[i - 1].is_any(&["after", "for", "within", "every"])
            && rest.get(i + 1).is_some_and(|u| {
                !u.quoted
                    && crate::tools::unit_named(&u.text).is_some_and(crate::tools::is_time_unit)
            })
    })?;
    let mut keys: Vec<Part> = parts[start..modal]
        .iter()
        .chain(&rest[1..n - 1])
        .filter(|p| is_value(p) && !p.is_any(SKIP))
        .cloned()
        .collect();
    if keys.is_empty() {
        return None;
    }
    keys.push(rest[n + 1].clone());
    Some((rest[n].clone(), keys))
}

/// "V (…) K after N unit (instead)": a clause opened by a verb, no "to" in it, ending its
/// words with "after", a whole number and a unit of time — N for the clause's words between
/// the verb and "after" (particles and articles aside) and the unit. Found with a Go job
/// worker (session 53): "In production, give up on a job after 3 minutes instead." was read
/// as no change (`job_timeout_seconds: 110`).
///
/// ```text
/// In production, give up on a job after 3 minutes instead  → (3, [job, minutes])
/// ```
fn after_time(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    const SKIP: &[&str] = &[
        "up", "on", "off", "out", "a", "an", "the", "it", "them", "any", "each", "every",
    ];
    let verb = (0..parts.len()).rfind(|&i| opens_clause(parts, i) && !parts[i].quoted)?;
    let rest = clause(&parts[verb..]);
    if rest.iter().any(|p| p.is("to")) {
        return None;
    }
    let at = (1..rest.len()).find(|&i| rest[i].is("after"))?;
    let (value, unit) = (rest.get(at + 1)?, rest.get(at + 2)?);
    if !whole_number(value)
        || unit.quoted
        || !crate::tools::unit_named(&unit.text).is_some_and(crate::tools::is_time_unit)
        || rest[at + 3..]
            .iter()
            .any(|p| !p.is_any(&["instead", "by", "default"]))
    {
        return None;
    }
    let mut keys: Vec<Part> = rest[1..at]
        .iter()
        .filter(|p| is_value(p) && !p.is_any(SKIP))
        .cloned()
        .collect();
    if keys.is_empty() {
        return None;
    }
    keys.push(unit.clone());
    Some((value.clone(), keys))
}

/// "Give (allow) K N unit to V … (before …)": a clause opened by "give" or "allow", a whole
/// number and a unit of time, then "to" and what is to be done in that time — N for the words
/// after "to" (a possessive's `'s` aside) and after "before" or "until", each also by its stem
/// without `-s` (`expires` is `expir`: `upload_expiry_minutes`), and the unit. The words before
/// the number are whom it is given to (`field teams`), not what. Found with a Rails API
/// (session 56): "In production, give field teams 5 hours to upload a survey's photo before
/// the survey expires." was read as no change (`config.x.rookery.upload_expiry_minutes = 240`).
///
/// ```text
/// give field teams 5 hours to upload a survey's photo before the survey expires
///   → (5, [upload, survey, photo, survey, expires, expire, expir, hours])
/// ```
fn time_allowed(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    const SKIP: &[&str] = &[
        "a", "an", "the", "it", "them", "its", "their", "before", "until", "is", "are", "gets",
    ];
    let verb = (0..parts.len())
        .find(|&i| opens_clause(parts, i) && parts[i].is_any(&["give", "allow"]))?;
    let rest = clause(&parts[verb..]);
    let at = (1..rest.len()).find(|&i| whole_number(&rest[i]))?;
    let (value, unit, to) = (&rest[at], rest.get(at + 1)?, rest.get(at + 2)?);
    if unit.quoted
        || !crate::tools::unit_named(&unit.text).is_some_and(crate::tools::is_time_unit)
        || !to.is("to")
    {
        return None;
    }
    let mut keys: Vec<Part> = Vec::new();
    for p in rest[at + 3..]
        .iter()
        .filter(|p| is_value(p) && !p.is_any(SKIP))
    {
        let lower = p.text.to_lowercase().replace('\u{2019}', "'");
        let word = lower.strip_suffix("'s").unwrap_or(&lower).to_owned();
        let mut forms = vec![word.clone()];
        if let Some(one) = word.strip_suffix('s').filter(|o| o.chars().count() >= 4) {
            forms.push(one.to_owned());
            forms.extend(one.strip_suffix('e').map(str::to_owned));
        }
        for text in forms {
            keys.push(Part { text, ..p.clone() });
        }
    }
    if keys.is_empty() {
        return None;
    }
    keys.push(unit.clone());
    Some((value.clone(), keys))
}

/// "Keep K for N unit (before …)" (`cache`, `retain`, `hold`, `store`): a clause opened by such
/// a verb, no "to" before the "for", a whole number and a unit of time after it — N for the
/// clause's words between the verb and "for" (a gerund's stems too, particles and articles
/// aside), a time to live (`ttl`) when the verb keeps something, the most time in all (`max`,
/// `elapsed`, `total`) when a gerund says what is kept doing, and the unit. Found with a Ktor link shortener and a D log shipper (session 55):
/// "In production, keep resolved links in the cache for 20 minutes." and "In production, keep
/// retrying a failed batch for 35 minutes before it goes to the spool." were read as no change
/// (`ttl-seconds = 900` under `cache {`, `"maxElapsedSeconds": 1260` under `"retry"`).
///
/// ```text
/// keep resolved links in the cache for 20 minutes  → (20, [resolved, links, cache, ttl, minutes])
/// keep retrying a failed batch for 35 minutes
///   → (35, [retrying, retry, …, failed, batch, max, elapsed, total, minutes])
/// ```
fn kept_for(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    const SKIP: &[&str] = &[
        "in", "on", "the", "a", "an", "it", "them", "any", "each", "every",
    ];
    let verb = (0..parts.len()).rfind(|&i| {
        opens_clause(parts, i)
            && !parts[i].quoted
            && parts[i].is_any(&["keep", "cache", "retain", "hold", "store"])
    })?;
    let rest = clause(&parts[verb..]);
    let at = (1..rest.len()).find(|&i| rest[i].is("for"))?;
    if rest[..at].iter().any(|p| p.is("to")) {
        return None;
    }
    let (value, unit) = (rest.get(at + 1)?, rest.get(at + 2)?);
    if !whole_number(value)
        || unit.quoted
        || !crate::tools::unit_named(&unit.text).is_some_and(crate::tools::is_time_unit)
    {
        return None;
    }
    let word = |text: &str| Part {
        text: text.to_owned(),
        ..unit.clone()
    };
    let mut keys = Vec::new();
    let mut doing = false;
    for p in rest[1..at]
        .iter()
        .filter(|p| is_value(p) && !p.is_any(SKIP))
    {
        keys.push(p.clone());
        let stems = crate::tools::ing_stems(&p.text.to_lowercase());
        doing |= !stems.is_empty() && keys.len() == 1;
        keys.extend(stems.iter().map(|s| word(s)));
    }
    if keys.is_empty() {
        return None;
    }
    // Kept doing something for a time: the most time it may take in all (`maxElapsedSeconds`);
    // something kept: its time to live.
    if doing {
        keys.extend(["max", "elapsed", "total"].map(word));
    } else {
        keys.push(word("ttl"));
    }
    keys.push(unit.clone());
    Some((value.clone(), keys))
}

/// "K should (must) be N things long" (`wide`, `high`, `tall`, `deep`): N for the words of K
/// (those of its clause before the modal, fillers aside), the things, and `length` (`width`,
/// `height`, `depth`). Found with a Ktor link shortener (session 55): "When nothing is
/// configured, generated short codes should be 8 characters long." was read as no change
/// (`DEFAULT_SLUG_LENGTH = 7`, the README documenting `links.slug-length` as the "Length of
/// generated short codes").
///
/// ```text
/// generated short codes should be 8 characters long  → (8, [generated, short, codes, characters, length])
/// ```
fn should_be_long(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    let modal = (1..parts.len()).find(|&i| {
        parts[i].is_any(&["should", "must"]) && parts.get(i + 1).is_some_and(|b| b.is("be"))
    })?;
    let (value, things, measure) = (
        parts.get(modal + 2)?,
        parts.get(modal + 3)?,
        parts.get(modal + 4)?,
    );
    let noun = match measure.text.to_lowercase().as_str() {
        "long" => "length",
        "wide" => "width",
        "high" | "tall" => "height",
        "deep" => "depth",
        _ => return None,
    };
    if !whole_number(value) || things.quoted || !things.text.chars().all(char::is_alphabetic) {
        return None;
    }
    let start = (0..modal).rfind(|&i| opens_clause(parts, i)).unwrap_or(0);
    let mut keys = values_of(&parts[start..modal])?;
    keys.push(things.clone());
    keys.push(Part {
        text: noun.to_owned(),
        ..measure.clone()
    });
    Some((value.clone(), keys))
}

/// Whether `p` is a whole number written without quotes: the number of "wait 30 seconds",
/// "up to 120 columns".
fn whole_number(p: &Part) -> bool {
    !p.quoted && !p.text.is_empty() && p.text.chars().all(|c| c.is_ascii_digit())
}

/// For a clause `rest` whose word `at` is a verb followed by a whole number and a unit of
/// time ("wait 30 seconds", "last 50 minutes"): the number, and the words naming what gets it
/// — the clause's words between its first (its own verb) and `at`, then the unit.
fn time_given(rest: &[Part], at: usize) -> Option<(Part, Vec<Part>)> {
    let (value, unit) = (rest.get(at + 1)?, rest.get(at + 2)?);
    if !whole_number(value)
        || unit.quoted
        || !crate::tools::unit_named(&unit.text).is_some_and(crate::tools::is_time_unit)
    {
        return None;
    }
    let mut keys: Vec<Part> = rest[1..at]
        .iter()
        .filter(|p| is_value(p))
        .cloned()
        .collect();
    keys.push(unit.clone());
    Some((value.clone(), keys))
}

/// A length of time something is made to last: "Make K last N unit (by default)" (`take`
/// too; after "make", "have" or "let"; N a whole number, the unit one of time) — N for what K
/// names, with the unit (a Neovim plugin, session 43: "Make focus sessions last 50 minutes by
/// default." is the config's `work_minutes = 25`, its field documented as the "length of a
/// focus session").
///
/// ```text
/// Make focus sessions last 50 minutes by default  → (50, [focus, sessions, minutes])
/// ```
fn duration_made(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    let verb = verb_at(parts, &["make", "have", "let"])?;
    let rest = clause(&parts[verb..]);
    let at = (2..rest.len()).find(|&i| rest[i].is_any(&["last", "take"]) && !rest[i].quoted)?;
    let (value, keys) = time_given(rest, at)?;
    // More than the unit: what lasts.
    (keys.len() > 1).then_some((value, keys))
}

/// "Deploy version V of K" (`use`, `run`, `ship`, `roll out`): V for what K names (a
/// Terraform folder, session 38: "Deploy version 2.4.0 of the web image." is the tag of the
/// Deployment's `image:`).
///
/// ```text
/// Deploy version 2.4.0 of the web image  → (2.4.0, [the, web, image])
/// ```
fn version_of(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    let verb = verb_at(parts, &["deploy", "use", "run", "ship", "roll"])?;
    let rest = &parts[verb + 1..];
    let at = rest.iter().position(|p| p.is("version"))?;
    let (value, of) = (rest.get(at + 1)?, rest.get(at + 2)?);
    let keys: Vec<Part> = rest[at + 3..]
        .iter()
        .take_while(|p| !p.opens)
        .cloned()
        .collect();
    let number = value.text.trim_start_matches(['v', 'V']);
    (of.is("of") && number.starts_with(|c: char| c.is_ascii_digit()) && keys.iter().any(is_value))
        .then(|| (value.clone(), keys))
}

/// "Build K with N V" or "on N V" (`run`, `compile`, `test`): version V of N for what K names (an
/// OCaml/dune project, session 49: "Build the Docker image with OCaml 5.2." is the
/// Dockerfile's `FROM ocaml/opam:debian-12-ocaml-5.1 AS build`).
///
/// ```text
/// Build the Docker image with OCaml 5.2  → (5.2, [the, Docker, image, OCaml])
/// ```
fn built_with(parts: &[Part]) -> Option<(Part, Vec<Part>)> {
    let verb = verb_at(parts, &["build", "run", "compile", "test"])?;
    let rest = &parts[verb + 1..];
    // "… on Deno 2.3.5" too (a Deno uptime checker, session 54); "… against Postgres 16.6
    // instead" (a NestJS service, session 56: "Run the CI e2e tests against Postgres 16.6
    // instead." was offered no change).
    let with = rest
        .iter()
        .position(|p| p.is_any(&["with", "on", "against"]))?;
    let (name, value) = match &rest[with + 1..] {
        [name, value] => (name, value),
        [name, value, instead] if instead.is("instead") => (name, value),
        _ => return None,
    };
    let number = value.text.trim_start_matches(['v', 'V']);
    let mut keys: Vec<Part> = rest[..with].to_vec();
    keys.push(name.clone());
    (is_value(name)
        && !value.quoted
        && number.starts_with(|c: char| c.is_ascii_digit())
        && number.contains('.')
        && number.chars().all(|c| c.is_ascii_digit() || c == '.'))
    .then(|| (value.clone(), keys))
}

/// A setting turned on or off and the words that may name it: "turn off K", "turn K off",
/// "switch on K", "disable K", "enable K" — `true` for on. The words are those after the verb
/// (and its `on`/`off`), up to the end of the clause.
///
/// ```text
/// Turn off strict mode in tsconfig.json  → (false, [strict, mode, in, tsconfig.json])
/// Enable sourceMap                        → (true, [sourceMap])
/// ```
pub(crate) fn switched(parts: &[Part]) -> Option<(bool, Vec<Part>)> {
    if let Some(marked) = marked(parts) {
        return Some(marked);
    }
    let verb = verb_at(parts, &["turn", "switch", "enable", "disable"])?;
    let mut rest = clause(&parts[verb + 1..]);
    // "… on by default": how it is set, not what (an R package, session 49: "Turn meadow's
    // progress messages on by default." was read as no change).
    if let [head @ .., by, default] = rest
        && by.is("by")
        && default.is("default")
    {
        rest = head;
    }
    let (on, keys): (bool, Vec<Part>) = if parts[verb].is_any(&["enable", "disable"]) {
        (parts[verb].is("enable"), rest.to_vec())
    } else if let [first, keys @ ..] = rest
        && first.is_any(&["on", "off"])
    {
        (first.is("on"), keys.to_vec())
    } else if let [keys @ .., last] = rest
        && last.is_any(&["on", "off"])
    {
        (last.is("on"), keys.to_vec())
    } else {
        return None;
    };
    keys.iter().any(is_value).then_some((on, keys))
}

/// A setting a request marks something as, or as no longer: "mark X as K" (`true`), "mark X
/// as no longer K", "… as not K" (`false`) — a Hugo site, session 37: "Mark the seed list
/// post as no longer a draft." is `draft: false`. The words are those after `as` (and its
/// `no longer`, `not`, `a`), up to the end of the clause.
fn marked(parts: &[Part]) -> Option<(bool, Vec<Part>)> {
    let verb = verb_at(parts, &["mark"])?;
    let as_at = verb + 1 + parts[verb + 1..].iter().position(|p| p.is("as"))?;
    let mut rest = &parts[as_at + 1..];
    let end = rest
        .iter()
        .skip(1)
        .position(|p| p.opens)
        .map_or(rest.len(), |i| i + 1);
    rest = &rest[..end];
    let mut on = true;
    if let [no, longer, tail @ ..] = rest
        && no.is("no")
        && longer.is("longer")
    {
        on = false;
        rest = tail;
    } else if let [not, tail @ ..] = rest
        && not.is("not")
    {
        on = false;
        rest = tail;
    }
    if let [a, tail @ ..] = rest
        && a.is_any(&["a", "an"])
    {
        rest = tail;
    }
    (!rest.is_empty() && rest.iter().any(is_value)).then(|| (on, rest.to_vec()))
}

/// The line to add and where: "add the line L under/below/after H", "… above/before H", "… at
/// the end of F", "… to F" (at its end), "… at the top of F". The verb is `add`, `append` or
/// `insert`; L is the value right after the word `line`, or right after the verb when it sets
/// an environment variable (`NAME=value`, the name in capitals).
pub(crate) fn line_added(parts: &[Part]) -> Option<(String, Place)> {
    let verb = verb_at(parts, &["add", "append", "insert", "put"])?;
    // An environment variable's line needs no word `line`: "Add REDIS_URL=redis://cache:6379
    // to .env.example".
    let env_line = parts.get(verb + 1).is_some_and(|p| {
        p.text.split_once('=').is_some_and(|(key, value)| {
            !value.is_empty()
                && key.starts_with(|c: char| c.is_ascii_uppercase() || c == '_')
                && key
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        }) && !p.text.contains(char::is_whitespace)
    });
    let at = if env_line {
        verb
    } else {
        verb + parts[verb..].iter().position(|p| p.is("line"))?
    };
    let line = parts.get(at + 1).filter(|p| is_value(p))?;
    if let Some((place, _)) = place_at(&parts[at + 2..]) {
        return Some((line.text.clone(), place));
    }
    // A line of several words, unquoted: up to the place that ends the request ("Add the line
    // 4,Alan Turing,alan@example.com,UK to data/customers.csv."), after "the line" (not "a
    // line about …"), with no punctuation of the sentence inside it (which the words lost) and
    // not a description of the line ("the line saying …").
    if env_line
        || line.quoted
        || !parts[..at].last().is_some_and(|p| p.is("the"))
        || line.is_any(&[
            "saying",
            "that",
            "which",
            "with",
            "reading",
            "containing",
            "of",
            "for",
            "to",
            "at",
            "about",
            "on",
            "like",
            "where",
            "when",
            "so",
        ])
    {
        return None;
    }
    let end = (at + 2..parts.len()).find(|&k| {
        parts[k].opens || place_at(&parts[k..]).is_some_and(|(_, used)| k + used == parts.len())
    })?;
    if parts[end].opens || parts[at + 1..end].iter().any(|p| p.quoted) {
        return None;
    }
    let (place, _) = place_at(&parts[end..])?;
    let words: Vec<&str> = parts[at + 1..end].iter().map(|p| p.text.as_str()).collect();
    Some((words.join(" "), place))
}

/// Where the words `after` (those after the line to add) place it, and how many of them say
/// so: "under/below/after/beneath H", "above/before H", "to F", "at (or to) the end/bottom (of
/// F)", "at the top/start/beginning (of F)".
fn place_at(after: &[Part]) -> Option<(Place, usize)> {
    let next = after.first()?;
    // "… of F" after "the end": two more words when they are there.
    let of = |used: usize| {
        if after.get(used).is_some_and(|p| p.is("of")) && after.get(used + 1).is_some() {
            used + 2
        } else {
            used
        }
    };
    if next.is_any(&["under", "below", "after", "beneath"]) {
        let h = after.get(1).filter(|h| is_value(h))?;
        Some((Place::After(h.text.trim().to_owned()), 2))
    } else if next.is_any(&["above", "before"]) {
        let h = after.get(1).filter(|h| is_value(h))?;
        Some((Place::Before(h.text.trim().to_owned()), 2))
    } else if next.is("to") && after.get(1).is_some_and(|q| !q.is("the")) {
        Some((Place::End, 2))
    } else if next.is_any(&["at", "to"]) {
        let end = after.get(2)?;
        if end.is_any(&["end", "bottom"]) {
            Some((Place::End, of(3)))
        } else if end.is_any(&["top", "start", "beginning"]) {
            Some((Place::Start, of(3)))
        } else {
            None
        }
    } else {
        None
    }
}

/// The Makefile rule to add: "add a (make) target NAME that runs COMMAND", "… a rule NAME to
/// run COMMAND", "… target NAME running COMMAND". NAME is one word of a target's characters;
/// COMMAND is a quoted span, or the words after the verb up to the end of the clause.
///
/// ```text
/// Add a make target ps that runs docker compose ps.   → (ps, docker compose ps)
/// Add a target `test` that runs "cargo test --all"    → (test, cargo test --all)
/// ```
pub(crate) fn target_added(parts: &[Part]) -> Option<(String, String)> {
    let verb = verb_at(parts, &["add", "create", "write"])?;
    let at = verb
        + 1
        + parts[verb + 1..(verb + 5).min(parts.len())]
            .iter()
            .position(|p| p.is_any(&["target", "rule"]))?;
    if !parts[verb + 1..at]
        .iter()
        .all(|p| p.is_any(&["a", "an", "the", "new", "make", "makefile"]))
    {
        return None;
    }
    let name = parts.get(at + 1)?;
    if !is_value(name)
        || name.is_any(&["that", "which", "named", "called"])
        || !name
            .text
            .chars()
            .all(|c| is_name_char(c) || c == '-' || c == '.' || c == '/')
    {
        return None;
    }
    let mut i = at + 2;
    while parts
        .get(i)
        .is_some_and(|p| p.is_any(&["that", "which", "to"]))
    {
        i += 1;
    }
    parts.get(i).filter(|p| {
        p.is_any(&[
            "runs", "run", "running", "calls", "call", "calling", "executes", "execute",
        ])
    })?;
    i += 1;
    let command = command_at(parts, i, |k| parts[k].opens)?;
    Some((name.text.clone(), command))
}

/// The command a request gives from `parts[i]` on: a quoted span, or the words up to the first
/// `k` after `i` where `stop(k)` holds (else to the end), joined by spaces. `None` when empty
/// or on several lines.
fn command_at(parts: &[Part], i: usize, stop: impl Fn(usize) -> bool) -> Option<String> {
    let first = parts.get(i)?;
    let command = if first.quoted {
        first.text.trim().to_owned()
    } else {
        let end = (i + 1..parts.len())
            .find(|&k| stop(k))
            .unwrap_or(parts.len());
        parts[i..end]
            .iter()
            .map(|p| p.text.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    (!command.trim().is_empty() && !command.contains('\n')).then_some(command)
}

/// An alias to add: its name, the command it stands for, and whether the request calls it a
/// git alias. "add (a, an, the, new) (git, shell, bash, zsh) alias N for (to, that runs, =) C",
/// also with `create`, `define` or `make`; N is one word, C a quoted span or the words up to
/// the end of the clause or a `to`/`in` before the file it goes in.
///
/// ```text
/// Add an alias gl for 'git log --oneline' to .bashrc.   → (gl, git log --oneline, false)
/// Add a git alias br for branch.                        → (br, branch, true)
/// ```
pub(crate) fn alias_added(parts: &[Part]) -> Option<(String, String, bool)> {
    let verb = verb_at(parts, &["add", "create", "define", "make"])?;
    let at = verb
        + 1
        + parts[verb + 1..(verb + 5).min(parts.len())]
            .iter()
            .position(|p| p.is_any(&["alias"]))?;
    let before = &parts[verb + 1..at];
    if !before
        .iter()
        .all(|p| p.is_any(&["a", "an", "the", "new", "git", "shell", "bash", "zsh"]))
    {
        return None;
    }
    let git = before.iter().any(|p| p.is_any(&["git"]));
    let name = parts.get(at + 1).filter(|p| {
        is_value(p)
            && !p.is_any(&["for", "to", "that", "which", "named", "called"])
            && p.text
                .chars()
                .all(|c| is_name_char(c) || c == '-' || c == '.')
    })?;
    let mut i = at + 2;
    while parts
        .get(i)
        .is_some_and(|p| p.is_any(&["that", "which", "to", "for", "="]))
    {
        i += 1;
    }
    if parts
        .get(i)
        .is_some_and(|p| p.is_any(&["runs", "run", "running", "means", "does", "is"]))
    {
        i += 1;
    }
    // Up to the clause's end, or the `to`/`in` that names where it goes.
    let command = command_at(parts, i, |k| {
        parts[k].opens
            || (parts[k].is_any(&["to", "in", "into"])
                && parts[k + 1..]
                    .iter()
                    .find(|p| !p.is_any(&["the", "my", "your"]))
                    .is_some_and(|p| p.text.contains(['.', '/']) || p.text.ends_with("rc")))
    })?;
    Some((name.text.clone(), command, git))
}

/// The file to create and its content: "Create a file named P containing (the line) C", "…
/// called P that contains C", "… P with the content C". The content is one value (a quoted
/// span or a word) and becomes one line.
pub(crate) fn file_created(parts: &[Part]) -> Option<(String, String)> {
    let verb = verb_at(parts, &["create", "make", "add", "write"])?;
    let named = verb
        + parts[verb..]
            .iter()
            .position(|p| p.is_any(&["named", "called"]))?;
    let path = parts.get(named + 1).filter(|p| is_value(p))?;
    let mut rest = parts[named + 2..].iter().peekable();
    while rest.next_if(|p| p.is_any(&["that", "which"])).is_some() {}
    rest.next_if(|p| p.is_any(&["containing", "contains", "with", "holding", "holds"]))?;
    while rest
        .next_if(|p| {
            p.is_any(&[
                "the", "a", "just", "only", "single", "one", "line", "text", "content", "contents",
                "word",
            ])
        })
        .is_some()
    {}
    let content = rest.next()?;
    if rest.next().is_some() || content.text.trim().is_empty() {
        // More words after the value: a sentence, not one value to write.
        return None;
    }
    Some((path.text.clone(), format!("{}\n", content.text)))
}

/// The misspelt word a request asks to fix: it speaks of spelling ("spelling mistake", "typo",
/// "misspelling", "misspelled") and quotes exactly one word (letters only, three or more).
pub(crate) fn misspelled(parts: &[Part]) -> Option<String> {
    let spelling = parts.iter().any(|p| {
        let w = p.text.to_lowercase();
        !p.quoted && (w.starts_with("misspel") || w.starts_with("typo") || w == "spelling")
    });
    let mut quoted = parts.iter().filter(|p| p.quoted);
    let word = quoted.next()?;
    (spelling
        && quoted.next().is_none()
        && word.text.chars().count() >= 3
        && word.text.chars().all(char::is_alphabetic))
    .then(|| word.text.clone())
}

/// The right spelling of `wrong`: a common English misspelling's ([`super::spelling::common`]),
/// else the word of `words` nearest to it (Damerau–Levenshtein, case aside) at 1 edit, or 2 for
/// words of six letters or more, with the same first letter, when one word is nearer than every
/// other. Written with `wrong`'s first capital. `None` when no word is that near, or two are
/// equally near.
pub(crate) fn respelled<'a>(wrong: &str, words: impl Iterator<Item = &'a str>) -> Option<String> {
    let w = wrong.to_lowercase();
    let right = match super::spelling::common(&w) {
        Some(known) => known,
        None => nearest(&w, words)?,
    };
    Some(if wrong.starts_with(char::is_uppercase) {
        capitalized(&right)
    } else {
        right
    })
}

/// The one word of `words` nearest to `w` (lower case), as [`respelled`] describes.
fn nearest<'a>(w: &str, words: impl Iterator<Item = &'a str>) -> Option<String> {
    let most = if w.chars().count() >= 6 { 2 } else { 1 };
    let first = w.chars().next()?;
    let mut best: Option<(usize, String)> = None;
    let mut tie = false;
    for cand in words {
        let c = cand.to_lowercase();
        if c == w || !c.starts_with(first) || c.chars().count() < 3 {
            continue;
        }
        let d = strsim::damerau_levenshtein(w, &c);
        if d > most {
            continue;
        }
        match &best {
            Some((bd, bc)) if d == *bd && *bc != c => tie = true,
            Some((bd, _)) if d >= *bd => {}
            _ => {
                best = Some((d, c));
                tie = false;
            }
        }
    }
    best.filter(|_| !tie).map(|(_, c)| c)
}

/// `word` with its first letter a capital (`True` for `true`).
pub(crate) fn capitalized(word: &str) -> String {
    let mut cs = word.chars();
    cs.next()
        .map(|f| f.to_uppercase().chain(cs).collect())
        .unwrap_or_default()
}

/// Byte offsets in `line` where `token` stands alone: not part of a longer word, number or name
/// (`7` in `default=7`, not in `17` nor in `7.5`).
pub(crate) fn token_at(line: &str, token: &str) -> Vec<usize> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    if token.is_empty() {
        return Vec::new();
    }
    line.match_indices(token)
        .map(|(at, _)| at)
        .filter(|&at| {
            let before = line[..at].chars().next_back();
            let mut after = line[at + token.len()..].chars();
            let next = after.next();
            let joined_before = before.is_some_and(|c| {
                (word(c) && token.starts_with(word))
                    || (c == '.' && line[..at - 1].chars().next_back().is_some_and(word))
            });
            let joined_after = next.is_some_and(|c| {
                (word(c) && token.ends_with(word))
                    || (c == '.' && after.next().is_some_and(char::is_alphanumeric))
            });
            !joined_before && !joined_after
        })
        .collect()
}

/// Lowercase words of `parts` that may pick a line out of several: three letters or more, not
/// a filler, not one of `skip` (the values themselves and the file's name). A word code spells
/// another way brings that spelling too: "sort" is the `ORDER BY` of SQL, the `order_by` of an
/// ORM (session 33: "Sort the report by revenue instead of month.").
pub(crate) fn hint_words(parts: &[Part], skip: &[&str]) -> Vec<String> {
    const CODE_SPELLS: &[(&str, &str)] = &[("sort", "order"), ("sorted", "order")];
    const COMMON: &[&str] = &[
        "and", "for", "from", "with", "into", "set", "change", "make", "replace", "update", "file",
        "value", "line", "mark", "item", "please", "then", "instead",
    ];
    parts
        .iter()
        .filter(|p| !p.quoted && !skip.iter().any(|s| s.eq_ignore_ascii_case(&p.text)))
        .flat_map(|p| {
            p.text
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        })
        .map(|w| w.trim_matches('-').to_lowercase())
        .filter(|w| w.chars().count() >= 3 && !FILLERS.contains(&w.as_str()))
        .filter(|w| !COMMON.contains(&w.as_str()))
        .filter(|w| !skip.iter().any(|s| s.eq_ignore_ascii_case(w)))
        .flat_map(|w| {
            let code = CODE_SPELLS.iter().find(|(said, _)| *said == w);
            std::iter::once(w).chain(code.map(|(_, spelt)| (*spelt).to_owned()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(request: &str) -> Vec<String> {
        parts(request).into_iter().map(|p| p.text).collect()
    }

    #[test]
    fn a_globs_star_stays_and_emphasis_goes() {
        assert_eq!(
            texts("Add *.log and **web** to (*.tmp) the *list*."),
            ["Add", "*.log", "and", "web", "to", "*.tmp", "the", "list"]
        );
    }

    #[test]
    fn parts_keep_quoted_spans_whole_and_drop_sentence_punctuation() {
        assert_eq!(
            texts("Add the line \"- buy coffee\" at the end of todo.txt."),
            [
                "Add",
                "the",
                "line",
                "- buy coffee",
                "at",
                "the",
                "end",
                "of",
                "todo.txt"
            ]
        );
        assert_eq!(
            texts("Create a file named .gitignore that contains the line __pycache__/"),
            [
                "Create",
                "a",
                "file",
                "named",
                ".gitignore",
                "that",
                "contains",
                "the",
                "line",
                "__pycache__/"
            ]
        );
        assert_eq!(
            texts("Change it to linkcheck/1.5."),
            ["Change", "it", "to", "linkcheck/1.5"]
        );
        // An apostrophe inside a word is no quote; a quote that never closes is a word.
        assert_eq!(texts("don't 'stop"), ["don't", "stop"]);
        assert!(parts("change its \"TODO:\" to \"DONE:\".")[2].quoted);
    }

    #[test]
    fn replacement_reads_from_to_and_quoted_change() {
        let r = |s: &str| replacement(&parts(s)).map(|(a, b)| (a.text, b.text));
        assert_eq!(
            r("In weatherlog/cli.py, change the default of --last from 7 to 14."),
            Some(("7".into(), "14".into()))
        );
        assert_eq!(
            r("In todo.txt, mark the plumber item as done: change its \"TODO:\" to \"DONE:\"."),
            Some(("TODO:".into(), "DONE:".into()))
        );
        assert_eq!(
            r("Replace teh with the in notes.md"),
            None,
            "`the` is no value"
        );
        assert_eq!(
            r("Replace colour with color in notes.md"),
            Some(("colour".into(), "color".into()))
        );
        assert_eq!(
            r("Sort the report by revenue instead of month."),
            Some(("month".into(), "revenue".into()))
        );
        assert_eq!(r("Use it instead of the old one."), None);
        assert_eq!(
            r("Delete unprocessed uploads after 14 days instead of 30."),
            Some(("30".into(), "14".into()))
        );
        assert_eq!(r("Change the city to Bergen."), None);
        assert_eq!(r("Move it from here to the attic"), None);
    }

    #[test]
    fn switched_reads_on_or_off_and_the_words_naming_the_setting() {
        let r = |s: &str| {
            switched(&parts(s))
                .map(|(on, keys)| (on, keys.into_iter().map(|p| p.text).collect::<Vec<_>>()))
        };
        let keys = |ws: &[&str]| ws.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            r("Turn off strict mode in tsconfig.json."),
            Some((false, keys(&["strict", "mode", "in", "tsconfig.json"])))
        );
        assert_eq!(r("Please turn debug on."), Some((true, keys(&["debug"]))));
        assert_eq!(r("Enable sourceMap"), Some((true, keys(&["sourceMap"]))));
        assert_eq!(
            r("In config.yml, disable caching. Then stop."),
            Some((false, keys(&["caching"])))
        );
        // No on or off, or nothing named.
        assert_eq!(r("Turn the page."), None);
        assert_eq!(r("Turn it off."), None);
    }

    #[test]
    fn renamed_reads_the_old_and_the_new_name() {
        let r = |s: &str| renamed(&parts(s)).map(|(a, b)| (a.text, b.text));
        let pair = |a: &str, b: &str| Some((a.to_owned(), b.to_owned()));
        assert_eq!(
            r("Rename the function price_of to unit_price everywhere in src/shop.py."),
            pair("price_of", "unit_price")
        );
        assert_eq!(
            r("In config.py, rename `MAX` to `LIMIT`."),
            pair("MAX", "LIMIT")
        );
        assert_eq!(
            r("Please rename price_of() to unit_price()"),
            pair("price_of", "unit_price")
        );
        // The old name may be a common word.
        assert_eq!(
            r("Rename the variable name to title."),
            pair("name", "title")
        );
        assert_eq!(r("rename $el as $node in app.js"), pair("$el", "$node"));
        // The kind's word after the name; a kind's word as the name after another kind's.
        assert_eq!(
            r("Rename the price_of function to unit_price"),
            pair("price_of", "unit_price")
        );
        assert_eq!(
            r("Rename the variable test to check"),
            pair("test", "check")
        );
        assert_eq!(r("Rename the variable type to kind"), pair("type", "kind"));
        // A file, words between that are no kind, no name, no new name, the same name, no verb.
        assert_eq!(r("Rename notes.txt to todo.txt."), None);
        assert_eq!(r("Rename the function in shop.py to cost."), None);
        assert_eq!(r("Rename the function to cost."), None);
        assert_eq!(r("Rename price_of."), None);
        assert_eq!(r("Rename x to x"), None);
        assert_eq!(r("Why did you rename x to y?"), None);
        assert_eq!(r("Rename 2fast to slow"), None);
    }

    #[test]
    fn entry_added_reads_key_value_and_the_collections_name() {
        let e =
            |s: &str| entry_added(&parts(s)).map(|e| (e.key.text, e.value.map(|v| v.text), e.name));
        let entry = |k: &str, v: Option<&str>, n: &str| {
            Some((k.to_owned(), v.map(str::to_owned), n.to_owned()))
        };
        assert_eq!(
            e("Add cheese with price 3.5 to the PRICES in src/shop.py."),
            entry("cheese", Some("3.5"), "PRICES")
        );
        assert_eq!(
            e("Add cheese with a price of 3.5 to PRICES."),
            entry("cheese", Some("3.5"), "PRICES")
        );
        assert_eq!(
            e("In config.js, add timeout = 30 to DEFAULTS."),
            entry("timeout", Some("30"), "DEFAULTS")
        );
        assert_eq!(
            e("Add \"cheese\": 3.5 to PRICES in shop.py"),
            entry("cheese", Some("3.5"), "PRICES")
        );
        assert_eq!(
            e("Add \"pear\" to the FRUITS list in shop.py."),
            entry("pear", None, "FRUITS")
        );
        assert_eq!(
            e("Add the item pear to allowed_fruits."),
            entry("pear", None, "allowed_fruits")
        );
        // YAML's `key: value`: the value any one word.
        assert_eq!(
            e("Add restart: unless-stopped to the web service in docker-compose.yml."),
            entry("restart", Some("unless-stopped"), "web")
        );
        assert_eq!(
            e("add replicas: 3 to deploy"),
            entry("replicas", Some("3"), "deploy")
        );
        // A line, a file, a value that is no scalar, no name.
        assert_eq!(e("Add the line \"x\" to notes.md"), None);
        assert_eq!(e("Add restart: to the web service"), None);
        assert_eq!(e("Add this: restart the web service"), None);
        assert_eq!(e("Add cheese to the list."), None);
        assert_eq!(e("Add cheese with price to PRICES"), None);
        assert_eq!(e("Add tests for the parser."), None);
    }

    #[test]
    fn marked_reads_what_a_request_marks_something_as() {
        let m = |s: &str| {
            switched(&parts(s))
                .map(|(on, k)| (on, k.into_iter().map(|p| p.text).collect::<Vec<_>>()))
        };
        assert_eq!(
            m("Mark the seed list post as no longer a draft."),
            Some((false, vec!["draft".to_owned()]))
        );
        assert_eq!(
            m("Mark the task as done."),
            Some((true, vec!["done".to_owned()]))
        );
        assert_eq!(
            m("Mark it as not private, then save."),
            Some((false, vec!["private".to_owned()]))
        );
        assert_eq!(m("Mark the task."), None);
        assert_eq!(m("Mark it as a."), None);
    }

    /// "Use a K of N (U)" sets N for K and U (a Nim daemon, session 52).
    #[test]
    fn use_a_thing_of_a_number_sets_it() {
        let set = |s: &str| {
            value_set(&parts(s)).map(|(v, k)| {
                (
                    v.text,
                    k.into_iter().map(|p| p.text).collect::<Vec<String>>(),
                )
            })
        };
        assert_eq!(
            set(
                "In production, use an MQTT keepalive of 90 seconds. Don't change the development setup."
            ),
            Some((
                "90".into(),
                vec!["MQTT".into(), "keepalive".into(), "seconds".into()]
            ))
        );
        assert_eq!(
            set("Use a batch size of 500."),
            Some(("500".into(), vec!["batch".into(), "size".into()]))
        );
        assert_eq!(set("Use a list of names."), None);
        // And the loop reads it as a change.
        assert!(crate::agent::correct::asks_change(
            "In production, use an MQTT keepalive of 90 seconds. Don't change the development setup."
        ));
        assert!(!crate::agent::correct::asks_change(
            "Use the list of names?"
        ));
    }

    #[test]
    fn times_done_sets_the_count_of_what_is_done() {
        let got = |s: &str| {
            value_set(&parts(s)).map(|(v, k)| {
                (
                    v.text,
                    k.into_iter().map(|p| p.text).collect::<Vec<_>>().join(" "),
                )
            })
        };
        assert_eq!(
            got("Change the built-in default so that a failed database write is retried 8 times."),
            Some((
                "8".into(),
                "built-in default failed database write retries retry".into()
            ))
        );
        assert_eq!(
            got("Change it so that an upload is attempted at most 4 times."),
            Some(("4".into(), "upload attempt attempts".into()))
        );
        // No participle before the count: no count of a thing done.
        assert_eq!(
            times_done(&parts("Change it so that it runs 3 times.")),
            None
        );
    }

    #[test]
    fn value_set_takes_the_value_after_the_last_to() {
        let v = |s: &str| value_set(&parts(s)).map(|(v, _)| v.text);
        assert_eq!(
            v("Set \"debug\" to true in config.json."),
            Some("true".into())
        );
        assert_eq!(
            v("Change the userAgent in config.json to linkcheck/1.5."),
            Some("linkcheck/1.5".into())
        );
        assert_eq!(
            v("Set the version in package.json to 1.5.0."),
            Some("1.5.0".into())
        );
        assert_eq!(
            v("Raise client_max_body_size to 50m in the nginx config."),
            Some("50m".into())
        );
        assert_eq!(v("Which version is set to 1.0?"), None, "no verb opens it");
        // A number's unit names what gets it too; a value's file does not.
        let keys = |s: &str| {
            value_set(&parts(s)).map(|(_, k)| k.into_iter().map(|p| p.text).collect::<Vec<_>>())
        };
        assert_eq!(
            keys("Raise the maximum stay to 21 nights."),
            Some(vec![
                "the".into(),
                "maximum".into(),
                "stay".into(),
                "nights".into()
            ])
        );
        assert_eq!(
            keys("Set the port to 8080 in config.json."),
            Some(vec!["the".into(), "port".into()])
        );
        // A name of several capitalised words (or numbers) is one value.
        assert_eq!(
            v("Change the site title to Plot 14 Notes."),
            Some("Plot 14 Notes".into())
        );
        assert_eq!(
            v("Set the author to Rosa Lind in hugo.toml."),
            Some("Rosa Lind".into())
        );
        assert_eq!(v("Set the city to Oslo, then run it."), Some("Oslo".into()));
        assert_eq!(v("Set it to the"), None);
        // A version required "or newer" is set, named by its words and `version`.
        assert_eq!(v("Require Ruby 3.2 or newer."), Some("3.2".into()));
        assert_eq!(
            keys("Require Node 20+ in package.json."),
            Some(vec!["Node".into(), "version".into()])
        );
        assert_eq!(v("Require the yaml module."), None);
        // A version of something deployed.
        assert_eq!(
            keys("Deploy version 2.4.0 of the web image."),
            Some(vec!["the".into(), "web".into(), "image".into()])
        );
        assert_eq!(
            v("Deploy version 2.4.0 of the web image."),
            Some("2.4.0".into())
        );
        assert_eq!(
            v("Scale the web deployment to 3 replicas."),
            Some("3".into())
        );
        assert_eq!(v("Require Ruby 3.2."), None, "no floor said");
    }

    #[test]
    fn target_added_reads_the_rules_name_and_command() {
        let t = |s: &str| target_added(&parts(s));
        let rule = |n: &str, c: &str| Some((n.to_owned(), c.to_owned()));
        assert_eq!(
            t("Add a make target ps that runs docker compose ps."),
            rule("ps", "docker compose ps")
        );
        assert_eq!(
            t("Add a target `test` that runs \"cargo test --all\""),
            rule("test", "cargo test --all")
        );
        assert_eq!(
            t("Create a new Makefile rule lint to run ruff check, then run it."),
            rule("lint", "ruff check")
        );
        // No rule's name, no command, other words before `target`, a question.
        assert_eq!(t("Add a target that runs ls"), None);
        assert_eq!(t("Add a make target ps."), None);
        assert_eq!(t("Add tests for the target ps that runs x"), None);
        assert_eq!(t("Which target runs ps?"), None);
    }

    #[test]
    fn line_added_reads_the_line_and_its_place() {
        let l = |s: &str| line_added(&parts(s));
        assert_eq!(
            l("Add the line \"- show: sort readings by date\" under \"## 0.3.1\" in CHANGELOG.md."),
            Some((
                "- show: sort readings by date".into(),
                Place::After("## 0.3.1".into())
            ))
        );
        assert_eq!(
            l("Add the line \"- buy coffee\" at the end of todo.txt."),
            Some(("- buy coffee".into(), Place::End))
        );
        assert_eq!(
            l("Add the line .env to .gitignore."),
            Some((".env".into(), Place::End))
        );
        // An environment variable's line (a Docker Compose folder, session 29), as written.
        assert_eq!(
            l("Add REDIS_URL=redis://cache:6379 to .env.example."),
            Some(("REDIS_URL=redis://cache:6379".into(), Place::End))
        );
        assert_eq!(
            l("Add `DEBUG=1` under \"PORT=8080\" in .env"),
            Some(("DEBUG=1".into(), Place::After("PORT=8080".into())))
        );
        assert_eq!(l("Add debug=1 to .env"), None, "no variable's name");
        assert_eq!(l("Add X= to .env"), None, "no value");
        assert_eq!(
            l("Insert the line \"# Notes\" at the top of notes.md"),
            Some(("# Notes".into(), Place::Start))
        );
        assert_eq!(
            l("add the line \"x\" before \"y\""),
            Some(("x".into(), Place::Before("y".into())))
        );
        assert_eq!(l("Read todo.txt, then add a line to it."), None);
        assert_eq!(l("Add the line \"x\" somewhere nice"), None);
        // Several words unquoted, up to the place that ends the request (a data folder,
        // session 32).
        assert_eq!(
            l("Add the line 4,Alan Turing,alan@example.com,UK to data/customers.csv."),
            Some(("4,Alan Turing,alan@example.com,UK".into(), Place::End))
        );
        assert_eq!(
            l("Add the line buy milk at the end of todo.txt"),
            Some(("buy milk".into(), Place::End))
        );
        // Punctuation of the sentence inside, a description of the line, no place at the end.
        assert_eq!(l("Add the line buy milk, eggs to todo.txt"), None);
        assert_eq!(l("Add the line saying hello to todo.txt"), None);
        assert_eq!(l("Add a line about coffee to the end of todo.txt."), None);
        assert_eq!(l("Add the line buy milk to todo.txt and commit"), None);
    }

    #[test]
    fn file_created_reads_path_and_one_value() {
        let f = |s: &str| file_created(&parts(s));
        assert_eq!(
            f("Create a file named .gitignore that contains the line __pycache__/"),
            Some((".gitignore".into(), "__pycache__/\n".into()))
        );
        assert_eq!(
            f("Create a file named .nvmrc containing the line 20"),
            Some((".nvmrc".into(), "20\n".into()))
        );
        assert_eq!(
            f("Create a file called notes.md with the content \"# Notes\"."),
            Some(("notes.md".into(), "# Notes\n".into()))
        );
        assert_eq!(
            f("Create a file named a.txt containing a short poem about cats"),
            None
        );
        assert_eq!(f("Create a file named a.txt"), None);
    }

    #[test]
    fn misspelled_needs_spelling_words_and_one_quoted_word() {
        let m = |s: &str| misspelled(&parts(s));
        assert_eq!(
            m("Fix the spelling mistake \"temperture\" in README.md."),
            Some("temperture".into())
        );
        assert_eq!(
            m("Correct the misspelling \"recieves\" in README.md."),
            Some("recieves".into())
        );
        assert_eq!(m("Fix the typo in README.md."), None);
        assert_eq!(m("Replace \"colour\" in README.md."), None);
    }

    #[test]
    fn respelled_takes_the_one_nearest_word() {
        let words = "Log temperature readings per city temperatures degrees";
        assert_eq!(
            respelled("temperture", words.split(' ')),
            Some("temperature".into())
        );
        assert_eq!(
            respelled("Temperture", words.split(' ')),
            Some("Temperature".into())
        );
        // A common misspelling needs no word of the project.
        assert_eq!(
            respelled("recieves", "requests retries".split(' ')),
            Some("receives".into())
        );
        assert_eq!(
            respelled("Seperate", [].into_iter()),
            Some("Separate".into())
        );
        assert_eq!(
            respelled("reqests", "requests retries".split(' ')),
            Some("requests".into())
        );
        // Two words equally near: no guess.
        assert_eq!(respelled("cat", "cut cot".split(' ')), None);
        assert_eq!(respelled("cta", "cat".split(' ')), Some("cat".into()));
    }

    #[test]
    fn token_at_finds_standalone_tokens_only() {
        assert_eq!(
            token_at("show.add_argument(\"--last\", type=int, default=7)", "7"),
            [46]
        );
        assert!(token_at("x = 17", "7").is_empty());
        assert!(token_at("x = 7.5", "7").is_empty());
        assert!(token_at("version 0.3.1", "0.3").is_empty());
        assert_eq!(token_at("TODO: call the plumber", "TODO:"), [0]);
        assert_eq!(token_at("const x = argv.slice(2);", "2"), [21]);
    }

    #[test]
    fn hint_words_leave_out_fillers_values_and_common_words() {
        let p = parts("In src/index.js, change the default number of retries from 2 to 3.");
        assert_eq!(
            hint_words(&p, &["src/index.js", "2", "3"]),
            ["default", "number", "retries"]
        );
    }
}
