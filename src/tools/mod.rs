//! The tool contract: [`Tool`], [`ToolSpec`], [`ToolCall`], [`ToolResult`], the [`Failure`]
//! taxonomy, the [`Registry`] of tools offered to a model, the [`Memo`] for pure tools and the
//! [`Effect`]s a call has.
//!
//! A tool is a name, a description, a JSON Schema and an async `call` — nothing tied to an LLM
//! framework. Tools with typed arguments implement [`TypedTool`] instead and are wrapped with
//! [`typed`]: their schema is derived from the argument type and their arguments arrive decoded and
//! validated, so a typed tool never sees broken JSON. Calls are run by [`crate::dispatch`].
//!
//! # Example
//!
//! ```
//! use toolmend::tools::{typed, Output, Failure, Registry, ToolContext, TypedTool};
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct AddArgs { a: i64, b: i64 }
//!
//! struct Add;
//! impl TypedTool for Add {
//!     type Args = AddArgs;
//!     fn name(&self) -> &str { "add" }
//!     fn description(&self) -> &str { "Adds two integers." }
//!     async fn run(&self, _ctx: &ToolContext, args: AddArgs) -> Result<Output, Failure> {
//!         Ok(Output::text((args.a + args.b).to_string()))
//!     }
//! }
//!
//! let registry = Registry::new();
//! registry.register(typed(Add)).unwrap();
//! assert_eq!(registry.snapshot().names(), ["add"]);
//! ```

mod args;
mod call;
pub mod canon;
mod effect;
mod failure;
pub mod memo;
mod registry;
mod result;
mod spec;
mod typed;

pub use args::{ArgDecoder, SchemaError};
pub use call::{Arguments, CallSource, ToolCall};
pub use effect::Effect;
pub use failure::{Failure, FailureKind, Fault, field_label};
pub use memo::Memo;
pub(crate) use registry::present_members;
pub use registry::{Entry, Exported, MeantArgs, Registry, Snapshot};
pub use result::{Output, OutputFormat, ToolResult};
pub use spec::{Annotations, ToolSpec, example_arguments};
pub use typed::{Typed, TypedTool, typed};

use serde_json::Value;

pub use crate::backend::BoxFuture;

/// Every string in `v`, at any depth (an explicit stack, no recursion): the values a tool's
/// arguments hold, for the checks that read them as text (`edit`'s spelling, the loop's
/// result repeated as a call).
pub(crate) fn string_values(v: &Value) -> Vec<&str> {
    let mut out = Vec::new();
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) => out.push(s.as_str()),
            Value::Array(a) => stack.extend(a),
            Value::Object(o) => stack.extend(o.values()),
            _ => {}
        }
    }
    out
}

/// Words that name a kind of code: a capitalised word next to one is a name in code ("the
/// Text function", "the struct Counts").
pub const CODE_KINDS: &[&str] = &[
    "function",
    "func",
    "method",
    "class",
    "struct",
    "type",
    "interface",
    "trait",
    "enum",
    "test",
    "constant",
    "const",
    "variable",
    "field",
    "macro",
    "property",
    "module",
    "package",
    "library",
    "crate",
    "exception",
];

/// The kinds of code a definition line defines by its keyword or its head (`def`, `fn`,
/// `class`, a C function's or a Java method's head): the first ten of [`CODE_KINDS`], from
/// `function` to `test` (a test is a function or a method its framework runs).
pub const DEFINED_KINDS: &[&str] = CODE_KINDS.split_at(10).0;

/// The words of a name in code, lower case: split at `_`, `-` and before a capital that follows
/// a small letter (`removeOldestItem` → remove, oldest, item).
///
/// ```
/// assert_eq!(toolmend::tools::name_words("removeOldestItem"), ["remove", "oldest", "item"]);
/// assert_eq!(toolmend::tools::name_words("DEFAULT_STATION"), ["default", "station"]);
/// ```
#[must_use]
pub fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if (c == '_' || c == '-' || (c.is_uppercase() && prev_lower)) && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        if c != '_' && c != '-' {
            word.extend(c.to_lowercase());
        }
        prev_lower = c.is_lowercase();
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Whether `word` is written as a name in code: an `_` inside (`km_to_miles`), or a capital
/// after its first letter in a word with small letters (`toKelvin`, `MaxLineLength`, `JUnit`)
/// — not an abbreviation's plural (`URLs`, `APIs`).
///
/// ```
/// use toolmend::agent::correct::written_as_code;
/// assert!(written_as_code("km_to_miles") && written_as_code("MaxLineLength"));
/// assert!(written_as_code("JUnit") && !written_as_code("URLs"));
/// assert!(!written_as_code("version") && !written_as_code("README") && !written_as_code("Go"));
/// ```
#[must_use]
pub fn written_as_code(word: &str) -> bool {
    let plural_abbreviation = word
        .strip_suffix('s')
        .is_some_and(|w| w.chars().count() >= 2 && !w.chars().any(char::is_lowercase));
    word.contains('_')
        || (word.chars().skip(1).any(char::is_uppercase)
            && word.chars().any(char::is_lowercase)
            && !plural_abbreviation)
}

/// The words of a user's request that may name a path: split at whitespace, with quotes and
/// brackets around each, punctuation after it and a leading `./` taken off (`todo.txt` from "in
/// `./todo.txt`?"; a leading dot stays: `.env`). Empty words are skipped. Tools ground their
/// examples in them ([`Tool::example_for`]).
///
/// ```
/// let words: Vec<&str> =
///     toolmend::tools::request_words("Is \"notes/a.md\" in ./todo.txt? Or (.env).").collect();
/// assert_eq!(words, ["Is", "notes/a.md", "in", "todo.txt", "Or", ".env"]);
/// ```
pub fn request_words(request: &str) -> impl Iterator<Item = &str> {
    const QUOTES: &[char] = &[
        '"', '\'', '`', '\u{201c}', '\u{201d}', '\u{2018}', '\u{2019}', '(', ')', '[', ']', '{',
        '}', '<', '>', '*',
    ];
    const AFTER: &[char] = &[
        '"', '\'', '`', '\u{201c}', '\u{201d}', '\u{2018}', '\u{2019}', '(', ')', '[', ']', '{',
        '}', '<', '>', '*', ',', '.', ';', ':', '!', '?',
    ];
    request
        .split_whitespace()
        .map(|w| {
            let w = w.trim_start_matches(QUOTES);
            let w = w.strip_prefix("./").unwrap_or(w);
            w.trim_end_matches(AFTER)
        })
        .filter(|w| !w.is_empty())
}

/// Words that may come before the verb that opens a clause of a request ("Please add …", "then
/// set …"): the change requests of the agent loop and the built-in tools' reading of them.
pub(crate) const CLAUSE_LEADS: &[&str] = &["please", "now", "then", "and", "also", "just", "so"];

/// Verbs that open a clause asking to add or write something new ("Add a function …", "Write
/// a test …"): the agent's reading of a request (a name in code called as a tool is code to
/// write) and `edit`'s (a code block in the reply is code to add) share them.
pub(crate) const ADD_VERBS: &[&str] = &[
    "add",
    "append",
    "insert",
    "put",
    "write",
    "implement",
    "create",
    "include",
];

/// Verbs that open a clause asking to give something a new value ("Set the version to 1.5.0",
/// "Raise client_max_body_size to 50m"): the agent's reading of a request (it asks for a
/// change) and `edit`'s (the value after the last "to") share them.
pub(crate) const SET_VERBS: &[&str] = &[
    "set",
    "change",
    "update",
    "make",
    "bump",
    "raise",
    "lower",
    "increase",
    "decrease",
    "reduce",
    "upgrade",
    "downgrade",
    "move",
    "allow",
    "limit",
    "scale",
    "pin",
    "cut",
    // "Switch the runtime stage … to Alpine 3.20." (an Erlang/OTP service, session 51; "switch
    // on/off K" is a switch, read first).
    "switch",
];

/// Verbs that open a request for a number of things per unit ("Show 50 invoices per page",
/// "List 20 posts per page"): a change of a setting, not a look, when a number and `per`
/// follow (see [`rate_clause`]).
pub(crate) const RATE_VERBS: &[&str] = &["show", "list", "display"];

/// The stems of a word ending in `-ing` (`mocking` → `mock`; `caching` → `cach`, `cache`;
/// `logging` → `logg`, `log`): a question's gerund names a thing the files spell without it
/// (a Kotlin/Gradle application, session 40: "Which mocking library do the tests use?"
/// searched `test`, and the build file says `io.mockk:mockk`). Stems of three letters at
/// least; none for a shorter word (`ring`, `thing`).
pub(crate) fn ing_stems(word: &str) -> Vec<String> {
    suffix_stems(word, "ing", 3)
}

/// The stems of `word` without `suffix`, each `min` letters or more: the stem, the stem with an
/// `e`, and the stem without a doubled last consonant (`logg` → `log`).
fn suffix_stems(word: &str, suffix: &str, min: usize) -> Vec<String> {
    let Some(stem) = word
        .strip_suffix(suffix)
        .filter(|s| s.chars().count() >= min)
    else {
        return Vec::new();
    };
    let mut out = vec![stem.to_owned(), format!("{stem}e")];
    let b = stem.as_bytes();
    if b.len() > min && b[b.len() - 1] == b[b.len() - 2] && !b"aeiou".contains(&b[b.len() - 1]) {
        out.push(stem[..stem.len() - 1].to_owned());
    }
    out
}

/// The stems of a word ending in `-ed` (`debounced` → `debounc`, `debounce`; `stopped` →
/// `stopp`, `stop`): a question's participle names a thing the files spell without it (a
/// Vue/Vite application, session 47: "How long is the search input debounced, in
/// milliseconds?" searched `milliseconds`, and the setting is `searchDebounceMs: 350`). Stems
/// of four letters at least; none for a shorter word (`used`, `need`).
pub(crate) fn ed_stems(word: &str) -> Vec<String> {
    suffix_stems(word, "ed", 4)
}

/// The unit a question asks its answer in, when it ends so ("…, in milliseconds?", "in MB"):
/// that word, lower case; `None` otherwise. How the answer is to be written is no word of
/// what it asks about (a Vue/Vite application, session 47: the search was for
/// `milliseconds`, on the comment of another setting).
pub(crate) fn answer_unit(request: &str) -> Option<String> {
    let words: Vec<&str> = request_words(request).collect();
    let [.., into, unit] = words[..] else {
        return None;
    };
    let unit = unit.to_lowercase();
    (into.eq_ignore_ascii_case("in")
        && (unit_named(&unit).is_some() || ["bytes", "percent", "pixels"].contains(&unit.as_str())))
    .then_some(unit)
}

/// Units of time and size a request may give a number in, each with the letters a config
/// writes it with after the number (`15m`, `30s`, `2g`), lower case.
pub(crate) const UNITS: &[(&[&str], &[&str])] = &[
    (&["millisecond", "milliseconds", "ms"], &["ms"]),
    (&["second", "seconds", "sec", "secs"], &["s", "sec", "secs"]),
    (&["minute", "minutes", "min", "mins"], &["m", "min", "mins"]),
    (&["hour", "hours", "hr", "hrs"], &["h", "hr", "hrs"]),
    (&["day", "days"], &["d"]),
    (&["week", "weeks"], &["w"]),
    (&["kb", "kib", "kilobyte", "kilobytes"], &["k", "kb", "kib"]),
    (&["mb", "mib", "megabyte", "megabytes"], &["m", "mb", "mib"]),
    (&["gb", "gib", "gigabyte", "gigabytes"], &["g", "gb", "gib"]),
];

/// Whether the unit at index `u` of [`UNITS`] is one of time (the first six), not of size.
pub(crate) fn is_time_unit(u: usize) -> bool {
    u < 6
}

/// The unit (its index in [`UNITS`]) a word of a request names, case aside.
pub(crate) fn unit_named(word: &str) -> Option<usize> {
    let w = word.to_lowercase();
    UNITS
        .iter()
        .position(|(words, _)| words.contains(&w.as_str()))
}

/// Whether the words of a clause (lower case, leading words aside) give something an amount of
/// memory: `give` or `allocate` first, then a whole number and a unit of size, as one word
/// (`4gb`) or two (`4 gb`) — "give the Gradle daemon 4 GB of heap". "Give me 3 examples" is
/// no change.
pub(crate) fn size_clause(words: &[&str]) -> bool {
    let Some(first) = words.first() else {
        return false;
    };
    ["give", "allocate"].contains(first)
        && words[1..].iter().enumerate().any(|(i, w)| {
            let digits = w.find(|c: char| !c.is_ascii_digit()).unwrap_or(w.len());
            let unit = if digits == w.len() {
                words.get(i + 2).copied()
            } else {
                Some(&w[digits..])
            };
            digits > 0 && unit.and_then(unit_named).is_some_and(|u| !is_time_unit(u))
        })
}

/// Verbs that ask for a number of things to run ("Start 5 gunicorn workers", see
/// [`count_clause`]).
pub(crate) const COUNT_VERBS: &[&str] = &["start", "run", "spawn", "launch", "use", "keep"];

/// Verbs that a number of things is made to be by ("Make the forecast command show 7 days",
/// "Cover plots should show the 20 most abundant taxa"): shown, listed, kept, run.
pub(crate) const MADE_TO_VERBS: &[&str] = &[
    "show", "display", "list", "return", "fetch", "keep", "run", "start", "use",
];

/// Words that place what a clause names ("… workers in the container"): the end of the words
/// naming it.
pub(crate) const PLACING: &[&str] = &["in", "on", "for", "at", "of", "per", "with", "to", "from"];

/// Whether the words of a clause (lower case, leading words aside; a quoted word empty) ask
/// for a number of things to run: one of [`COUNT_VERBS`], a whole number, then one to three
/// words up to the clause's end or a word of [`PLACING`], the last a plural ("start 5 gunicorn
/// workers in the container": a Django project, session 41). "Use 4 as the default" (no
/// plural) and "Run 3 tests and report" (more words) are no such request; "Run 3 tests." is
/// read as one (a known limit: no folder's setting has been asked so).
pub(crate) fn count_clause(words: &[&str]) -> bool {
    let [verb, count, rest @ ..] = words else {
        return false;
    };
    let named: Vec<&str> = rest
        .iter()
        .copied()
        .take_while(|w| !PLACING.contains(w))
        .collect();
    COUNT_VERBS.contains(verb)
        && !count.is_empty()
        && count.chars().all(|c| c.is_ascii_digit())
        && (1..=3).contains(&named.len())
        && named.iter().all(|w| !w.is_empty())
        && named
            .last()
            .is_some_and(|w| w.len() >= 4 && w.ends_with('s') && !w.ends_with("ss"))
}

/// Whether the words of a clause (lower case, leading words aside) ask for something to be done
/// at an interval: a verb first, then `every`, a whole number and a unit of time ("poll for
/// updates every 30 minutes"), which a folder's config says. "Every 5 minutes" alone, or after
/// a pronoun ("it runs every 5 minutes"), is no request.
pub(crate) fn interval_clause(words: &[&str]) -> bool {
    const NOT_VERBS: &[&str] = &[
        "i", "we", "it", "he", "she", "they", "you", "this", "that", "the", "a", "an", "every",
    ];
    let Some(first) = words.first() else {
        return false;
    };
    !NOT_VERBS.contains(first)
        && words.windows(3).any(|w| {
            w[0] == "every"
                && !w[1].is_empty()
                && w[1].chars().all(|c| c.is_ascii_digit())
                && unit_named(w[2]).is_some_and(is_time_unit)
        })
}

/// Whether the words of a clause (lower case, leading words aside) ask for an upper bound:
/// `let`, `make`, `have`, `allow`, `limit`, `cap` or `give` (not "give me") first, then "up
/// to" or "at most", a whole number and a plural ("let scalafmt format lines up to 120
/// columns wide": a Scala/sbt service, session 44, whose request was taken for a question and
/// its `maxColumn = 110` never offered as the change; "give probes up to 6 seconds to
/// respond", "let the wait between delivery retries grow to at most 45 minutes": a Deno
/// uptime checker and a Gleam feed relay, session 54). "Show up to 10 lines" is a look.
pub(crate) fn bound_clause(words: &[&str]) -> bool {
    const BOUND_VERBS: &[&str] = &["let", "make", "have", "allow", "limit", "cap", "give"];
    words.first().is_some_and(|w| BOUND_VERBS.contains(w))
        && !(words.first() == Some(&"give")
            && words.get(1).is_some_and(|w| ["me", "us"].contains(w)))
        && words.windows(4).any(|w| {
            ((w[0] == "up" && w[1] == "to") || (w[0] == "at" && w[1] == "most"))
                && !w[2].is_empty()
                && w[2].chars().all(|c| c.is_ascii_digit())
                && w[3].len() >= 4
                && w[3].ends_with('s')
                && !w[3].ends_with("ss")
        })
}

/// Whether the words of a clause (lower case, leading words aside) ask for a number of things
/// per unit: one of [`RATE_VERBS`], a whole number, then up to three words, `per` and the unit
/// ("show 50 invoices per page"). "Show the README" and "list 3 files" are looks.
pub(crate) fn rate_clause(words: &[&str]) -> bool {
    let [verb, number, rest @ ..] = words else {
        return false;
    };
    RATE_VERBS.contains(verb)
        && !number.is_empty()
        && number.chars().all(|c| c.is_ascii_digit())
        && rest
            .iter()
            .position(|w| *w == "per")
            .is_some_and(|at| (1..=3).contains(&at) && at + 1 < rest.len())
}

/// Whether an argument's `key` says where to look: a path, a file, a folder (`path`,
/// `file_path`, `dir`, `filename`, `folder`, `root`, `location`; case aside).
#[must_use]
pub fn is_path_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    k.contains("path")
        || k.contains("dir")
        || k.contains("file")
        || k.contains("folder")
        || k == "root"
        || k == "location"
}

/// Whether `value`, a string a model sent where a path goes, names nothing but the root: `.`,
/// `./` or nothing (white space aside).
#[must_use]
pub fn is_root_placeholder(value: &str) -> bool {
    matches!(value.trim(), "" | "." | "./")
}

/// Whether the arguments of a call name nothing but the workspace's root: a string among them,
/// every string `.`, `./` or empty, every other value a number or a boolean
/// (`{"path": ".", "start_line": 1}`) — a placeholder small models keep where their call's
/// name says what they mean.
///
/// ```
/// use serde_json::json;
/// use toolmend::tools::names_only_root;
/// let args = |v: serde_json::Value| v.as_object().unwrap().clone();
/// assert!(names_only_root(&args(json!({"path": ".", "start_line": 1}))));
/// assert!(!names_only_root(&args(json!({"path": "include"}))));
/// assert!(!names_only_root(&args(json!({"start_line": 1}))));
/// ```
#[must_use]
pub fn names_only_root(args: &serde_json::Map<String, serde_json::Value>) -> bool {
    use serde_json::Value;
    args.values().any(Value::is_string)
        && args.values().all(|v| match v {
            Value::String(s) => is_root_placeholder(s),
            Value::Number(_) | Value::Bool(_) => true,
            _ => false,
        })
}

/// Whether `word`, a word of a user's request, names a file called `stem` (its name without the
/// extension) the way people refer to files in prose — "the meeting notes" for `meeting.md`,
/// "the grocery list" for `groceries.md`: the same letters, case aside, or one the plural of the
/// other (`-s`, `-es`, `-y`/`-ies`), or the stem the word and `file` — the tool's own file,
/// "the make target" for the `Makefile`, "the docker image" for the `Dockerfile` (a C library,
/// session 36: asked "Which make target runs the tests?", the look was the `ls` of `tests/`),
/// and "compose" Docker Compose's `docker-compose.yml` ("the compose setup": a Zig service,
/// session 49). Words of fewer than three letters name nothing.
///
/// ```
/// use toolmend::tools::word_names_stem;
/// assert!(word_names_stem("Meeting", "meeting"));
/// assert!(word_names_stem("make", "Makefile") && word_names_stem("docker", "Dockerfile"));
/// assert!(word_names_stem("compose", "docker-compose"));
/// assert!(word_names_stem("grocery", "groceries"));
/// assert!(word_names_stem("notes", "note"));
/// assert!(!word_names_stem("to", "to") && !word_names_stem("meet", "meeting"));
/// ```
#[must_use]
pub fn word_names_stem(word: &str, stem: &str) -> bool {
    if word.chars().count() < 3 || stem.is_empty() {
        return false;
    }
    let (stem, word) = (stem.to_lowercase(), word.to_lowercase());
    same_word(&word, &stem)
        || stem.strip_suffix("file") == Some(&word)
        || stem.strip_prefix("docker-") == Some(&word)
}

/// Whether `a` and `b` are the same word, case aside, or one is the plural of the other (`-s`,
/// `-es`, `-y`/`-ies`) of a singular of three letters or more: `nights` and `night` in a
/// request and a constant's part (`MAX_NIGHTS`), `groceries` and `grocery`.
///
/// ```
/// use toolmend::tools::same_word;
/// assert!(same_word("Nights", "night") && same_word("grocery", "groceries"));
/// assert!(same_word("box", "boxes") && !same_word("is", "i") && !same_word("night", "knight"));
/// ```
#[must_use]
pub fn same_word(a: &str, b: &str) -> bool {
    let (a, b) = (a.to_lowercase(), b.to_lowercase());
    let plural_of = |one: &str, many: &str| {
        one.chars().count() >= 3
            && (many.strip_suffix('s') == Some(one)
                || many.strip_suffix("es") == Some(one)
                || (many.strip_suffix("ies").zip(one.strip_suffix('y')))
                    .is_some_and(|(m, o)| m == o))
    };
    a == b || plural_of(&a, &b) || plural_of(&b, &a)
}

/// Whether `request` asks about a default: it says "default" ("by default", "the default …")
/// or "override" ("when nothing overrides it"), or that nothing is configured ("If nothing is
/// configured, …", "With no config file at all, …", "Out of the box, …", "when no port is
/// configured", "when nothing sets a port", "when no port is set"). Found with a Crystal web service (session 53): "With no config file at all,
/// how many requests per minute does spire allow from a single client?" was read as about no
/// default, and the line shown as bearing was a check's `requests_per_minute cannot be
/// negative`, not `DEFAULT_RATE_LIMIT_PER_MINUTE = 135`.
///
/// ```
/// use toolmend::tools::asks_default;
/// assert!(asks_default("By default, how many lines are kept?"));
/// assert!(asks_default("With no config file at all, how many requests per minute are allowed?"));
/// assert!(asks_default("If nothing is configured, how long is the wait?"));
/// assert!(asks_default("Out of the box, which port is used?"));
/// assert!(asks_default("Which port does the API listen on when nothing sets a port at all?"));
/// assert!(asks_default("Which port is used when no port is set?"));
/// assert!(asks_default("With no appsettings files at all, how big is a page?"));
/// assert!(!asks_default("Which port is set in production?"));
/// assert!(!asks_default("How many requests per minute are allowed in production?"));
/// ```
#[must_use]
pub fn asks_default(request: &str) -> bool {
    let words: Vec<String> = request_words(request)
        .take(200)
        .map(|w| w.to_lowercase().replace('\u{2019}', "'"))
        .collect();
    let has = |w: &str| words.iter().any(|x| x == w);
    let pair = |a: &str, b: &[&str]| {
        words
            .windows(2)
            .any(|p| p[0] == a && b.contains(&p[1].as_str()))
    };
    ["default", "defaults", "override", "overrides", "overridden"]
        .iter()
        .any(|w| has(w))
        || (has("configured")
            && ["nothing", "no", "not", "isn't", "aren't", "unconfigured"]
                .iter()
                .any(|w| has(w)))
        || says_unconfigured(request)
        // "when nothing sets a port at all" (a Gleam feed relay, session 54: the look read
        // the entry point the project's name named, and the answer was `2`), "when no port
        // is set".
        || pair(
            "nothing",
            &["sets", "set", "specifies", "configures", "changes", "passes"],
        )
        || (has("set") && ["no", "isn't", "unset"].iter().any(|w| has(w)))
        || words.windows(4).any(|p| p == ["out", "of", "the", "box"])
}

/// Whether `path` is a file of defaults, or in a folder of them: a part of it named
/// `defaults` before any `.` (Ansible's `defaults/main.yml`, a `defaults.json`).
pub(crate) fn is_defaults_file(path: &str) -> bool {
    path.split('/')
        .any(|part| part.split('.').next() == Some("defaults"))
}

/// Whether `path` is a settings file: its values are configuration, read at start (JSON,
/// YAML, TOML, INI, `.properties`, `.env` files).
///
/// ```
/// use toolmend::tools::is_settings_file;
/// assert!(is_settings_file("src/Thimble.Api/appsettings.json") && is_settings_file(".env.example"));
/// assert!(!is_settings_file("src/Thimble.Core/Settings.fs"));
/// ```
#[must_use]
pub fn is_settings_file(path: &str) -> bool {
    settings_named(path, &["jsonc"])
}

/// Whether `path` names a settings file by its name (`.env…`) or its extension — JSON, YAML,
/// TOML, INI, `.conf`, `.cfg`, `.properties`, `.env`, or one of `more` (case aside): the one
/// list [`is_settings_file`] and `edit`'s configuration files share.
pub(crate) fn settings_named(path: &str, more: &[&str]) -> bool {
    const EXTENSIONS: &[&str] = &[
        "json",
        "yaml",
        "yml",
        "toml",
        "ini",
        "cfg",
        "conf",
        "properties",
        "env",
    ];
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = name
        .rsplit_once('.')
        .map_or(String::new(), |(_, e)| e.to_ascii_lowercase());
    name.starts_with(".env") || EXTENSIONS.contains(&ext.as_str()) || more.contains(&ext.as_str())
}

/// Whether `request` says no configuration applies: "no config file", "with no configuration
/// whatsoever", "no appsettings files and no … environment variables", "without any config",
/// "when neither a config file nor an environment variable sets one".
///
/// ```
/// use toolmend::tools::says_unconfigured;
/// assert!(says_unconfigured("With no appsettings files at all, how big is a page?"));
/// assert!(says_unconfigured("Without a config file, which port is used?"));
/// assert!(says_unconfigured(
///     "Which port does it listen on when neither a config file nor an environment variable sets one?"
/// ));
/// assert!(!says_unconfigured("Which port do neither the app nor the config file set?"));
/// assert!(!says_unconfigured("Which port does the config file set?"));
/// ```
#[must_use]
pub fn says_unconfigured(request: &str) -> bool {
    let words: Vec<String> = request_words(request)
        .take(200)
        .map(str::to_lowercase)
        .collect();
    let pair = |a: &str, b: &[&str]| {
        words
            .windows(2)
            .any(|p| p[0] == a && b.contains(&p[1].as_str()))
    };
    const CONFIG: &[&str] = &["config", "configuration", "settings", "appsettings"];
    // "neither a config file nor …": the word after "neither" (an article aside) is one.
    let neither = words.windows(3).any(|p| {
        p[0] == "neither"
            && (CONFIG.contains(&p[1].as_str())
                || (["a", "an", "the", "any"].contains(&p[1].as_str())
                    && CONFIG.contains(&p[2].as_str())))
    });
    neither
        || pair("no", CONFIG)
        || pair("no", &["environment", "env"])
        || pair(
            "without",
            &["config", "configuration", "settings", "a", "any"],
        ) && CONFIG.iter().any(|w| words.iter().any(|x| x == w))
}

/// Short forms code writes for words a request spells out (`DB_PORT` for "the database port").
const ABBREVIATIONS: &[(&str, &str)] = &[
    ("db", "database"),
    ("pwd", "password"),
    ("passwd", "password"),
    ("dir", "directory"),
    ("env", "environment"),
    ("msg", "message"),
    ("cfg", "config"),
    ("conf", "config"),
    ("repo", "repository"),
    ("img", "image"),
    ("tz", "timezone"),
    ("addr", "address"),
    ("auth", "authentication"),
    ("conn", "connection"),
    ("min", "minimum"),
    ("max", "maximum"),
    ("dev", "development"),
    ("prod", "production"),
    ("app", "application"),
];

/// The short form code writes for `word` (lower case; see `ABBREVIATIONS`): `tz` for
/// "timezone", `db` for "database"; `None` for a word without one.
pub(crate) fn short_form(word: &str) -> Option<&'static str> {
    ABBREVIATIONS
        .iter()
        .find(|&&(_, w)| w == word || same_word(w, word))
        .map(|&(s, _)| s)
}

/// Whether `short`, a part of a name in code, is the short form code writes for `word` (case
/// aside; see `ABBREVIATIONS`): `db` for "database", `pwd` for "password".
///
/// ```
/// use toolmend::tools::abbreviates;
/// assert!(abbreviates("DB", "database") && !abbreviates("db", "debug"));
/// ```
#[must_use]
pub fn abbreviates(short: &str, word: &str) -> bool {
    let (short, word) = (short.to_lowercase(), word.to_lowercase());
    ABBREVIATIONS
        .iter()
        .any(|&(s, w)| s == short && (w == word || same_word(w, &word)))
}

/// The files in a project's root that hold the version of a language or runtime it uses, by
/// the names a request gives it: asked "Which Node version does this project use?", the
/// answer is in `.nvmrc`, not in package.json's own `version` (a TypeScript package, session
/// 33); "Which Go version does the module require?" is go.mod's `go 1.21`.
const VERSION_FILES: &[(&[&str], &[&str])] = &[
    (&["node", "nodejs", "node.js"], &[".nvmrc", ".node-version"]),
    (&["python"], &[".python-version"]),
    (&["ruby"], &[".ruby-version"]),
    (&["go", "golang"], &["go.mod"]),
    (&["rust"], &["rust-toolchain.toml", "rust-toolchain"]),
    (&["java"], &[".java-version"]),
    (&["terraform"], &[".terraform-version"]),
    // Dart's and Flutter's SDK constraint is the pubspec's `environment:` (a Dart package,
    // session 44: "What is the minimum Dart SDK version the package supports?" was offered
    // `lib/src/version.dart`, named by its stem); sbt's version is in `project/`.
    (&["dart", "flutter"], &["pubspec.yaml"]),
    (&["sbt"], &["project/build.properties"]),
    // A build tool's wrapper pins the version it downloads (a Kotlin/Gradle application,
    // session 40: "Which Gradle version does the wrapper download?" was offered the read of
    // `gradle.properties`, named by its stem, which holds none).
    (&["gradle"], &["gradle/wrapper/gradle-wrapper.properties"]),
    (
        &["maven", "mvn"],
        &[".mvn/wrapper/maven-wrapper.properties"],
    ),
];

/// The files of the root that hold the version of a language or runtime `request` names next to
/// the word "version" (anywhere in it), in the order to look for them; empty for a request
/// that asks about no such version.
///
/// ```
/// use toolmend::tools::version_files;
/// assert_eq!(version_files("Which Node version is used?"), [".nvmrc", ".node-version"]);
/// assert!(version_files("Which version is this?").is_empty());
/// ```
#[must_use]
pub fn version_files(request: &str) -> Vec<&'static str> {
    let Some(words) = version_words(request) else {
        return Vec::new();
    };
    VERSION_FILES
        .iter()
        .filter(|(names, _)| words.iter().any(|w| names.contains(&w.as_str())))
        .flat_map(|(_, files)| files.iter().copied())
        .collect()
}

/// Whether `text` writes a digit, a `.`, a digit: a version or a decimal number (`^10.5`,
/// `>=8.1`, `php:8.3-cli`, `nginx:1.25.4-alpine`).
pub(crate) fn dotted_number(text: &str) -> bool {
    text.as_bytes()
        .windows(3)
        .any(|w| w[0].is_ascii_digit() && w[1] == b'.' && w[2].is_ascii_digit())
}

/// The first 200 words of `request` ([`request_words`]), lower case.
pub(crate) fn lower_words(request: &str) -> Vec<String> {
    request_words(request)
        .take(200)
        .map(str::to_lowercase)
        .collect()
}

/// The first 200 words of `request`, lower case, when one of them is "version", "release" or
/// their plural; `None` for a request about no version.
fn version_words(request: &str) -> Option<Vec<String>> {
    let words = lower_words(request);
    // A release is a version ("the oldest Zig release").
    words
        .iter()
        .any(|w| VERSION_NOUNS.contains(&w.as_str()))
        .then_some(words)
}

/// The words naming a version in a request: "version" and "release" (singular or plural).
const VERSION_NOUNS: &[&str] = &["version", "versions", "release", "releases"];

/// Whether `word` (lower case) names what a version question asks for: a version, a release
/// ([`VERSION_NOUNS`]) or a toolchain ("the newest Rust toolchain").
pub(crate) fn names_version(word: &str) -> bool {
    VERSION_NOUNS.contains(&word) || word == "toolchain" || word == "toolchains"
}

/// Where a project states the oldest version of a language or runtime it supports: the
/// manifest, and the text marking the statement in it. Asked "What is the minimum Node.js
/// version the app supports?", Qwen2.5-Coder-0.5B was offered `.nvmrc` (`20.11.1`, the
/// version to develop with) and answered from it; package.json's `"engines": {"node":
/// ">=20.11.0"}` says it (a Vue/Vite application, session 47).
const REQUIREMENTS: &[(&[&str], &str, &str)] = &[
    (
        &["node", "nodejs", "node.js"],
        "package.json",
        "\"engines\"",
    ),
    (&["python"], "pyproject.toml", "requires-python"),
    (&["rust"], "Cargo.toml", "rust-version"),
    (&["php"], "composer.json", "\"php\""),
    // An R package's `Depends: R (>= 4.1.0)` (an R package, session 49: "What's the oldest
    // version of R that meadow can be installed on?" searched `meadow` in the `R/` folder).
    (&["r"], "DESCRIPTION", "R (>="),
    // Zig's `.minimum_zig_version` (a Zig service, session 49: "What's the oldest Zig release
    // I can still build zest with?" searched `still`).
    (&["zig"], "build.zig.zon", "minimum_zig_version"),
    // rebar3's `{minimum_otp_vsn, "25"}.` (an Erlang/OTP service, session 51: "What's the
    // oldest Erlang/OTP release kiln can still be built with?" was offered no look).
    (
        &["erlang", "otp", "erlang/otp"],
        "rebar.config",
        "minimum_otp_vsn",
    ),
    // The .NET SDK a repository builds with is pinned in global.json's `"sdk"`, and
    // `rollForward` lets newer ones stand in: the least one (an F# inventory API, session 54:
    // "What's the minimum .NET SDK version I need installed to build thimble?" searched `build
    // thimble` and answered `th`). The SDK, not the framework a project targets (its project
    // file's `<TargetFramework>`).
    (&["sdk"], "global.json", "\"sdk\""),
];

/// The manifests, each with the text marking its statement, that state the oldest version of
/// a language or runtime `request` names next to the word "version" and asks the least of
/// ("minimum", "at least", "oldest", "lowest", "earliest", "require(d/s)", "support(ed/s)");
/// empty for any other request. A manifest counts only where it holds its marker (see
/// [`version_files`] for the version a project uses).
///
/// ```
/// use toolmend::tools::requirement_files;
/// assert_eq!(
///     requirement_files("What is the minimum Node.js version the app supports?"),
///     [("package.json", "\"engines\"")]
/// );
/// assert!(requirement_files("Which Node version does the app use?").is_empty());
/// assert_eq!(
///     requirement_files("What's the oldest Erlang/OTP release kiln can still be built with?"),
///     [("rebar.config", "minimum_otp_vsn")]
/// );
/// assert_eq!(
///     requirement_files("What's the minimum .NET SDK version I need installed to build thimble?"),
///     [("global.json", "\"sdk\"")]
/// );
/// assert!(requirement_files("What's the minimum .NET version the API targets?").is_empty());
/// ```
#[must_use]
pub fn requirement_files(request: &str) -> Vec<(&'static str, &'static str)> {
    const LEAST: &[&str] = &[
        "minimum",
        "least",
        "oldest",
        "lowest",
        "earliest",
        "require",
        "requires",
        "required",
        "support",
        "supports",
        "supported",
    ];
    let Some(words) =
        version_words(request).filter(|words| words.iter().any(|w| LEAST.contains(&w.as_str())))
    else {
        return Vec::new();
    };
    REQUIREMENTS
        .iter()
        .filter(|(names, _, _)| words.iter().any(|w| names.contains(&w.as_str())))
        .map(|&(_, file, marker)| (file, marker))
        .collect()
}

/// The files of a project's root that list its dependencies with their versions, in the order
/// a look prefers them (see [`manifest_dependency`]).
pub(crate) const MANIFESTS: &[&str] = &[
    "composer.json",
    "package.json",
    "Cargo.toml",
    "pyproject.toml",
    "requirements.txt",
    "Gemfile",
    "go.mod",
];

/// Whether `request` asks how many, how much, how long (…) of something: "how" before a word
/// asking for an amount.
pub(crate) fn asks_quantity(request: &str) -> bool {
    const AMOUNTS: &[&str] = &[
        "many",
        "much",
        "long",
        "often",
        "large",
        "big",
        "high",
        "low",
        "far",
        "old",
        "soon",
        "frequently",
        "fast",
        "wide",
        "tall",
        "deep",
        "small",
        "short",
        "heavy",
        "slow",
        "quick",
        "late",
        "early",
    ];
    // Or "what (which) M", M a measure, "the" and a qualifier between them or not ("What
    // speed does tern assume?": an OCaml/dune project, session 50, where the line shown as
    // bearing was the README's option row "Boat speed through the water, in knots", with no
    // number, over `let boat_speed_kn = 5.5`).
    const MEASURES: &[&str] = &[
        "speed",
        "size",
        "length",
        "width",
        "height",
        "depth",
        "limit",
        "timeout",
        "interval",
        "delay",
        "duration",
        "rate",
        "threshold",
        "capacity",
        "margin",
        "percentage",
        "ratio",
        "count",
        "number",
    ];
    let words = lower_words(request);
    words
        .windows(2)
        .any(|w| w[0] == "how" && AMOUNTS.contains(&w[1].as_str()))
        || words.iter().enumerate().any(|(i, w)| {
            ["what", "which"].contains(&w.as_str()) && {
                let mut k = i + 1;
                if words.get(k).is_some_and(|n| n == "is") {
                    k += 1;
                }
                if words.get(k).is_some_and(|n| n == "the") {
                    k += 1;
                }
                if words.get(k).is_some_and(|n| {
                    ["default", "maximum", "minimum", "max", "min"].contains(&n.as_str())
                }) {
                    k += 1;
                }
                words.get(k).is_some_and(|n| MEASURES.contains(&n.as_str()))
            }
        })
}

/// The positions, among the first 200 words of `request`, of a one-letter name written as one
/// (a capital) right before "version" or right after "version of": "Which R version …", "the
/// oldest version of R" — the language R, which the rules for words of a request otherwise
/// leave out.
pub(crate) fn version_letters(request: &str) -> Vec<usize> {
    let words: Vec<&str> = request_words(request).take(200).collect();
    let is = |k: usize, word: &str| words.get(k).is_some_and(|n| n.eq_ignore_ascii_case(word));
    (0..words.len())
        .filter(|&i| {
            words[i].len() == 1
                && words[i].chars().all(|c| c.is_ascii_uppercase())
                && (is(i + 1, "version")
                    || is(i + 1, "release")
                    || (i >= 2 && is(i - 1, "of") && is(i - 2, "version")))
        })
        .collect()
}

/// Whether `request` asks about a version or a release (see [`version_words`]): "the oldest
/// Zig release" asks for a version as "the oldest Zig version" does, and so does "the newest
/// Rust toolchain" (a Rust workspace, session 54: the line shown as bearing was
/// `RUSTUP_TOOLCHAIN: ${{ matrix.rust }}`, not the matrix's `rust: ["1.76.0", "1.82.0",
/// "1.84.1"]`).
pub(crate) fn asks_version_or_release(request: &str) -> bool {
    lower_words(request).iter().any(|w| names_version(w))
}

/// Whether `request` asks about a version: one of its words is "version" or "versions".
pub(crate) fn asks_version(request: &str) -> bool {
    request_words(request)
        .take(200)
        .any(|w| w.eq_ignore_ascii_case("version") || w.eq_ignore_ascii_case("versions"))
}

/// Whether the manifest `text` (one of [`MANIFESTS`]) lists `word` as a dependency with a
/// version: a line whose first name — past Bundler's `gem`, go.mod's `require`, a YAML dash
/// and quotes — is `word` or ends with `/word` (`"phpunit/phpunit": "^10.5"`, `serde = "1"`,
/// `requests>=2.31`, `gem "rake", "~> 13.0"`), case aside, and holds a digit after it.
/// Comments aside; the first 5,000 lines are looked at. A JSON manifest is read as JSON: a key
/// anywhere in it, of a text value holding a digit.
pub(crate) fn manifest_dependency(text: &str, word: &str) -> bool {
    let word = word.to_lowercase();
    let names = |name: &str| {
        let name = name.to_lowercase();
        name == word || name.rsplit('/').next() == Some(word.as_str())
    };
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
        // Objects to look in, at most 10,000 (no recursion: a deep document stays cheap).
        let mut objects = vec![&value];
        let mut looked = 0;
        while let Some(v) = objects.pop() {
            looked += 1;
            if looked > 10_000 {
                break;
            }
            if let Some(o) = v.as_object() {
                for (k, v) in o {
                    if names(k)
                        && v.as_str()
                            .is_some_and(|s| s.chars().any(|c| c.is_ascii_digit()))
                    {
                        return true;
                    }
                    if v.is_object() {
                        objects.push(v);
                    }
                }
            }
        }
        return false;
    }
    text.lines().take(5000).any(|line| {
        let t = line.trim_start();
        if t.starts_with(['#', '/', ';']) {
            return false;
        }
        let t = ["gem ", "require ", "- "]
            .iter()
            .find_map(|lead| t.strip_prefix(lead))
            .unwrap_or(t)
            .trim_start()
            .trim_start_matches(['"', '\'']);
        let end = t
            .find(|c: char| !(c.is_alphanumeric() || "-_./@".contains(c)))
            .unwrap_or(t.len());
        let (name, rest) = t.split_at(end);
        names(name) && rest.chars().any(|c| c.is_ascii_digit())
    })
}

/// The lock files a package manager writes in a project's root, pinning the exact version of
/// each dependency it resolved (Gleam's is `manifest.toml`).
pub(crate) const LOCK_FILES: &[&str] = &[
    "Cargo.lock",
    "package-lock.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "composer.lock",
    "Gemfile.lock",
    "poetry.lock",
    "uv.lock",
    "Pipfile.lock",
    "mix.lock",
    "shard.lock",
    "pubspec.lock",
    "renv.lock",
    "deno.lock",
    "packages.lock.json",
    "paket.lock",
    "Package.resolved",
    "manifest.toml",
    // dub's (D): the versions `dub.json`'s ranges resolved to.
    "dub.selections.json",
];

/// Whether `request` speaks of what a lock file pins: a word starting with "lock" ("locked
/// to", "the lockfile") or naming a `.lock` file.
pub(crate) fn speaks_of_lock(request: &str) -> bool {
    request_words(request).take(200).any(|w| {
        let w = w.to_lowercase();
        w.starts_with("lock") || w.ends_with(".lock")
    })
}

/// Whether `request` speaks of a script ("the test script", "which scripts"): package.json's
/// `scripts` are what a Node package calls them (see `Sandbox::first_named`, which checks that
/// the package lists the one named).
#[must_use]
pub fn names_scripts(request: &str) -> bool {
    request_words(request)
        .take(200)
        .any(|w| w.eq_ignore_ascii_case("script") || w.eq_ignore_ascii_case("scripts"))
}

/// Whether `request` (a user's prompt) names `path`: one of its words (see [`request_words`]) is
/// `path` or its file name, or names `path`'s file by its stem (see [`word_names_stem`]), or
/// `path` is the root's file holding the version of a language it asks about ([`version_files`])
/// or the root's package.json of a request about a script ([`names_scripts`]), or two of its
/// words side by side are the stem joined by `-` or `_` (`first-frost.md`).
///
/// ```
/// use toolmend::tools::request_names;
/// assert!(request_names("When did the first frost come?", "content/posts/first-frost.md"));
/// assert!(request_names("What does config.json say?", "config.json"));
/// assert!(request_names("What does load.py write to?", "scripts/load.py"));
/// assert!(request_names("When is the meeting, per my notes?", "notes/meeting.md"));
/// assert!(!request_names("What does config.json say?", "README.md"));
/// assert!(request_names("Which namespace is autoloaded from src/?", "src"));
/// assert!(request_names("What is the chart's version?", "Chart.yaml"));
/// assert!(!request_names("What is the application's main class?", "application.conf"));
/// assert!(request_names("How many replicas does the production values file set?", "values-prod.yaml"));
/// assert!(!request_names("How many replicas does the values file set?", "values-prod.yaml"));
/// ```
#[must_use]
pub fn request_names(request: &str, path: &str) -> bool {
    // A folder is named with its slash too (`src/`): the word names the path without it.
    let path = path.trim_end_matches('/');
    let stem = file_stem(path);
    let name = path.rsplit('/').next().unwrap_or(path);
    request_words(request).any(|w| {
        let w = if w.len() > 1 {
            w.trim_end_matches('/')
        } else {
            w
        };
        // A possessive names what it is of ("the chart's version": `Chart.yaml`).
        let w = possessor(w);
        w == path || w == name || word_names_stem(w, stem)
    }) || version_files(request).contains(&path)
        || names_variant(request, stem)
        || (path == "package.json" && names_scripts(request))
        || (MANIFESTS.contains(&path) && asks_version(request))
        || (LOCK_FILES.contains(&path) && speaks_of_lock(request))
        || requirement_files(request)
            .iter()
            .any(|(file, _)| *file == path)
        || pair_names_stem(request, stem)
        || participle_names_stem(request, stem)
        || (is_ci_config(path) && names_ci(request))
        || (is_lint_config(path) && names_linter(request))
        || names_env_config(request, path)
}

/// Whether `request` speaks of the project's linter: one of its words is `linter(s)`, `lint`
/// or `linting`.
pub(crate) fn names_linter(request: &str) -> bool {
    lower_words(request)
        .iter()
        .any(|w| ["linter", "linters", "lint", "linting"].contains(&w.as_str()))
}

/// Whether `path` (relative to the workspace root) is a linter's configuration in the root:
/// Erlang's `elvis.config`, RuboCop's, SwiftLint's, golangci-lint's, ESLint's, flake8's,
/// pylint's, Ruff's, yamllint's, hadolint's, Clippy's, detekt's, Credo's, stylelint's,
/// markdownlint's, PHP_CodeSniffer's and PHPStan's, HLint's, Luacheck's, Selene's, lintr's,
/// ShellCheck's, Dart's analyzer's. Found with an Erlang/OTP service (session 51): asked
/// "What's the maximum line length our linter allows for code in src?", the look searched
/// `length` in `src/`; `elvis.config` sets `line_length` … `limit => 100`.
pub(crate) fn is_lint_config(path: &str) -> bool {
    const FILES: &[&str] = &[
        "elvis.config",
        ".lintr",
        ".rubocop.yml",
        ".swiftlint.yml",
        ".golangci.yml",
        ".golangci.yaml",
        ".flake8",
        ".pylintrc",
        "pylintrc",
        "ruff.toml",
        ".ruff.toml",
        ".yamllint",
        ".yamllint.yml",
        ".yamllint.yaml",
        ".hadolint.yaml",
        "clippy.toml",
        ".clippy.toml",
        "detekt.yml",
        ".credo.exs",
        ".eslintrc",
        ".eslintrc.json",
        ".eslintrc.js",
        ".eslintrc.cjs",
        ".eslintrc.yml",
        "eslint.config.js",
        "eslint.config.mjs",
        ".stylelintrc",
        ".stylelintrc.json",
        ".markdownlint.json",
        ".markdownlint.yaml",
        "phpcs.xml",
        "phpcs.xml.dist",
        "phpstan.neon",
        ".hlint.yaml",
        ".luacheckrc",
        "selene.toml",
        ".shellcheckrc",
        "analysis_options.yaml",
    ];
    FILES.contains(&path)
}

/// Whether `request` names `path` as an environment's configuration: "the dev config" (or
/// configuration, settings) names `etc/tern.dev.json`, `config/dev.exs`, `settings-development.toml`
/// — a settings file (YAML, JSON, TOML, INI, `.conf`, `.exs`, `.env`) whose name holds the
/// environment's word, or its long or short form, as a part. Found with an OCaml/dune project
/// (session 49): "Which local port does the dev config expect the mock forecast server on?"
/// searched `mock[._-]?forecast`, a Makefile target, and `etc/tern.dev.json`'s
/// `"forecast_url": "http://localhost:8089/v1/wind"` was never shown.
///
/// ```
/// use toolmend::tools::names_env_config;
/// assert!(names_env_config("Which port does the dev config use?", "etc/tern.dev.json"));
/// assert!(names_env_config("What does the production settings file set?", "config/production.json"));
/// assert!(!names_env_config("Which port does the dev config use?", "etc/tern.json"));
/// assert!(!names_env_config("Which port does the config use?", "etc/tern.dev.json"));
/// assert!(names_env_config("In production, how many jobs can wait?", "config/sys.prod.config"));
/// assert!(!names_env_config("In production, how many jobs can wait?", "config/sys.config"));
/// ```
#[must_use]
pub fn names_env_config(request: &str, path: &str) -> bool {
    const ENVS: &[&[&str]] = &[
        &["dev", "development"],
        &["prod", "production"],
        &["test", "testing"],
        &["staging", "stage"],
        &["local"],
        &["ci"],
    ];
    let name = path.rsplit('/').next().unwrap_or(path).to_lowercase();
    let settings = name.starts_with(".env")
        || name.rsplit_once('.').is_some_and(|(_, ext)| {
            [
                "yml",
                "yaml",
                "json",
                "toml",
                "ini",
                "conf",
                "cfg",
                "exs",
                "env",
                "properties",
                "config",
            ]
            .contains(&ext)
        });
    if !settings {
        return false;
    }
    let parts: Vec<&str> = name.split(['.', '-', '_']).collect();
    let words = lower_words(request);
    let of_file = |env: &str| {
        ENVS.iter()
            .find(|forms| forms.contains(&env))
            .is_some_and(|forms| parts.iter().any(|p| forms.contains(p)))
    };
    // "In production, …" (or development, staging) names the environment's settings too (an
    // Erlang/OTP service, session 51: "In production, how many jobs can be waiting in the
    // queue before kiln starts answering 503?" searched `jobs`; `config/sys.prod.config`
    // sets `{max_queue_len, 200000},`).
    words.windows(2).any(|w| {
        (["config", "configuration", "settings"].contains(&w[1].as_str()) && of_file(&w[0]))
            || (w[0] == "in"
                && ["production", "prod", "development", "dev", "staging"].contains(&w[1].as_str())
                && of_file(&w[1]))
    })
}

/// Whether `request` speaks of the CI: one of its words is `CI`, `workflow(s)` or `pipeline`,
/// or it says "GitHub Actions" (case aside), which names the CI's configuration
/// ([`is_ci_config`]) — not as what something else is compared with ("like CI does", "as in
/// CI", "than the CI": a Zig service, session 49, where "The Docker build still downloads an
/// older Zig; make it use 0.13.0 like CI does." was offered the read of the workflow and no
/// change of the Dockerfile's `ARG ZIG_VERSION=0.12.1`).
pub(crate) fn names_ci(request: &str) -> bool {
    let words = lower_words(request);
    let compared = |i: usize| {
        let mut k = i;
        if k > 0 && words[k - 1] == "the" {
            k -= 1;
        }
        if k > 0 && words[k - 1] == "in" && k > 1 && words[k - 2] == "as" {
            return true;
        }
        k > 0 && ["like", "as", "than"].contains(&words[k - 1].as_str())
    };
    // "GitHub Actions" too (an R package, session 49: "What's the newest R release the GitHub
    // Actions check runs against?" searched `github`).
    words.iter().enumerate().any(|(i, w)| {
        ["ci", "workflow", "workflows", "pipeline"].contains(&w.as_str()) && !compared(i)
    }) || words
        .windows(2)
        .enumerate()
        .any(|(i, p)| p[0] == "github" && p[1] == "actions" && !compared(i))
}

/// Whether a participle of `request` right before a noun names the verb whose file is
/// called `stem`: "cached responses" for `cache.dart`, "parsed lines" for `parse.py` — a word
/// of six letters or more ending in `-ed`, its verb with or without the `e`, then a word that
/// is no preposition, article or verb. Found with a Dart package (session 45): asked "How many
/// seconds are cached responses kept by default?", the look searched `kept`, a doc comment's
/// word, and the cache's `ttl = const Duration(seconds: 300)` was never shown.
///
/// ```
/// use toolmend::tools::participle_names_stem;
/// assert!(participle_names_stem("How long are cached responses kept?", "cache"));
/// assert!(!participle_names_stem("How long is it cached by default?", "cache"));
/// assert!(!participle_names_stem("Which parsed lines are kept?", "cache"));
/// ```
#[must_use]
pub fn participle_names_stem(request: &str, stem: &str) -> bool {
    participle_verbs(request)
        .iter()
        .any(|verb| stem.eq_ignore_ascii_case(verb))
}

/// The verbs of `request`'s participles right before a noun, each with and without a final
/// `e` (`cache` and `cach` of "cached responses"): the stems they name ([`participle_names_stem`]),
/// read once for a walk over many files.
pub(crate) fn participle_verbs(request: &str) -> Vec<String> {
    const NOT_NOUNS: &[&str] = &[
        "by", "to", "in", "on", "at", "of", "with", "from", "for", "into", "the", "a", "an", "and",
        "or", "is", "are", "was", "were", "be", "it", "them", "as",
    ];
    let words = lower_words(request);
    let mut verbs = Vec::new();
    for pair in words.windows(2) {
        if let Some(verb) = pair[0].strip_suffix("ed")
            && pair[0].chars().count() >= 6
            && pair[0].chars().all(|c| c.is_ascii_alphabetic())
            && pair[1].chars().all(char::is_alphabetic)
            && !NOT_NOUNS.contains(&pair[1].as_str())
        {
            verbs.push(format!("{verb}e"));
            verbs.push(verb.to_owned());
        }
    }
    verbs
}

/// Whether `path` (relative to the workspace root) configures a CI service: GitHub's workflows,
/// GitLab's, CircleCI's, Azure's, Travis's, Bitbucket's, Woodpecker's, a Jenkinsfile.
pub(crate) fn is_ci_config(path: &str) -> bool {
    path.starts_with(".github/workflows/")
        || path.starts_with(".circleci/")
        || path.starts_with(".woodpecker")
        || [
            ".gitlab-ci.yml",
            "azure-pipelines.yml",
            ".travis.yml",
            "bitbucket-pipelines.yml",
            "Jenkinsfile",
        ]
        .contains(&path)
}

/// Words that name the workspace as a whole, after "this", "the", "my", "our" or "your": a
/// crate, a package, a library are what a project is called in Rust, npm, Python.
pub(crate) const WORKSPACE_WORDS: &[&str] = &[
    "project",
    "repo",
    "repository",
    "codebase",
    "workspace",
    "folder",
    "directory",
    "crate",
    "package",
    "library",
    "app",
    "application",
    "program",
];

/// `word` without a possessive's `'s` (`chart's` → `chart`), when what it is of is no word for
/// the workspace itself ("the application's main class" is about the project, not
/// `application.conf`); `word` otherwise.
pub(crate) fn possessor(word: &str) -> &str {
    match word
        .strip_suffix("'s")
        .or_else(|| word.strip_suffix("\u{2019}s"))
    {
        Some(of) if !WORKSPACE_WORDS.contains(&of.to_lowercase().as_str()) => of,
        _ => word,
    }
}

/// Whether `request` names a variant of a file (`stem`, `values-prod`): a word names its base
/// (`values`) and another says the variant's word ("the production values file": see
/// [`variant_said`]).
fn names_variant(request: &str, stem: &str) -> bool {
    let Some((base, variant)) = stem.rsplit_once(['-', '_', '.']) else {
        return false;
    };
    let words = lower_words(request);
    !base.is_empty()
        && variant.chars().all(|c| c.is_ascii_alphabetic())
        && words.iter().any(|w| word_names_stem(w, base))
        && variant_said(&words, &variant.to_lowercase())
}

/// Whether two words of `request` side by side are `stem` joined by `-` or `_`, case aside
/// ("the first frost" → `first-frost.md`: a Hugo site, session 37).
pub(crate) fn pair_names_stem(request: &str, stem: &str) -> bool {
    let words = lower_words(request);
    let stem = stem.to_lowercase();
    words.windows(2).any(|pair| {
        pair.iter().all(|w| w.chars().all(char::is_alphanumeric))
            && ['-', '_']
                .iter()
                .any(|j| stem == format!("{}{j}{}", pair[0], pair[1]))
    })
}

/// The stem of the file `path` names, the way a person names it in prose: its last component,
/// leading dots and everything from the next dot on set aside.
///
/// ```
/// use toolmend::tools::file_stem;
/// assert_eq!(file_stem("notes/meeting.md"), "meeting");
/// assert_eq!(file_stem(".env"), "env");
/// assert_eq!(file_stem("archive.tar.gz"), "archive");
/// ```
#[must_use]
pub fn file_stem(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    let name = name.trim_start_matches('.');
    name.split_once('.').map_or(name, |(stem, _)| stem)
}

/// The word that makes `other` a variant of `base`, two settings' files of one folder (by
/// extension: YAML, JSON, TOML, INI, `.env`, properties, XML, tfvars): `other`'s name
/// is `base`'s stem, a `-`, `_` or `.`, a word of letters, then `base`'s extension
/// (`values-prod.yaml` of `values.yaml` → `prod`; `application_dev.yml`), or `base`'s whole
/// name, a `.` and the word (`.env.production` of `.env` → `production`). Lower case.
///
/// ```
/// use toolmend::tools::variant_word;
/// assert_eq!(variant_word("chart/values.yaml", "chart/values-prod.yaml").as_deref(), Some("prod"));
/// assert_eq!(variant_word(".env", ".env.production").as_deref(), Some("production"));
/// assert_eq!(variant_word("values.yaml", "other/values-prod.yaml"), None);
/// assert_eq!(variant_word("values.yaml", "values-2.yaml"), None);
/// assert_eq!(variant_word("count.go", "count_test.go"), None);
/// ```
#[must_use]
pub fn variant_word(base: &str, other: &str) -> Option<String> {
    let (dir, name) = base.rsplit_once('/').map_or(("", base), |(d, n)| (d, n));
    let (other_dir, other_name) = other.rsplit_once('/').map_or(("", other), |(d, n)| (d, n));
    if dir != other_dir || name == other_name || name.is_empty() {
        return None;
    }
    // Settings' files only: `count_test.go` is no variant of `count.go`.
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    let settings = [
        "yaml",
        "yml",
        "json",
        "toml",
        "ini",
        "cfg",
        "conf",
        "env",
        "properties",
        "xml",
        "tfvars",
    ];
    if !(settings.contains(&ext) || (name.starts_with('.') && !name[1..].contains('.'))) {
        return None;
    }
    let word = |w: &str| {
        (!w.is_empty() && w.chars().all(|c| c.is_ascii_alphabetic())).then(|| w.to_lowercase())
    };
    if let Some(rest) = other_name
        .strip_prefix(name)
        .and_then(|r| r.strip_prefix('.'))
    {
        return word(rest);
    }
    let dot = name.get(1..).and_then(|n| n.find('.')).map(|i| i + 1)?;
    let (stem, ext) = name.split_at(dot);
    let middle = other_name.strip_prefix(stem)?.strip_suffix(ext)?;
    word(middle.strip_prefix(['-', '_', '.'])?)
}

/// Whether one of `words` (a request's, lower case) says `variant`, a [`variant_word`]: as
/// itself, as a word it begins (`prod` of "production", three letters or more), or as a word
/// it is a short form of.
#[must_use]
pub fn variant_said(words: &[String], variant: &str) -> bool {
    words.iter().any(|w| {
        w == variant || (variant.len() >= 3 && w.starts_with(variant)) || abbreviates(variant, w)
    })
}

/// What a running call knows about its context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolContext {
    /// The id of the call being run.
    pub call_id: String,
    /// How list results will be rendered (tools may ignore it: dispatch renders lists).
    pub format: OutputFormat,
    /// Which attempt this is (1 for the first run; world failures are retried).
    pub attempt: u32,
}

impl ToolContext {
    /// A context for a first attempt with labeled output.
    pub fn new(call_id: impl Into<String>) -> Self {
        Self {
            call_id: call_id.into(),
            format: OutputFormat::Labeled,
            attempt: 1,
        }
    }
}

/// A tool the model can call.
///
/// `call` receives arguments that dispatch already decoded and validated against
/// [`ToolSpec::parameters`]. Return [`Failure::InvalidArgs`] for arguments that are well-formed
/// but wrong (a missing file), [`Failure::Transient`] for failures that may pass, and
/// [`Failure::Denied`] for refusals.
pub trait Tool: Send + Sync + 'static {
    /// The tool's spec. Read once, when the tool is registered.
    fn spec(&self) -> ToolSpec;

    /// Runs one call.
    fn call<'a>(
        &'a self,
        ctx: &'a ToolContext,
        args: Value,
    ) -> BoxFuture<'a, Result<Output, Failure>>;

    /// An example argument object grounded in the user's `request` (a file it names, one that
    /// exists), shown in corrective messages instead of the spec's fixed example: small models
    /// copy the example they are given, so it should be the call the task needs. `None` (the
    /// default): the spec's example. Only read-only tools should ground theirs.
    fn example_for(&self, request: &str) -> Option<Value> {
        let _ = request;
        None
    }

    /// The arguments of this tool's call that a call of a name that is no tool's, with
    /// arguments `args`, meant for the user's `request` — only when the request and the
    /// workspace ground every value (the file the request names, the one line of it that `args`
    /// names). Shown to the model as the call to send, never run unasked. `None` (the default):
    /// no such call.
    fn change_meant(&self, request: &str, args: &Value) -> Option<Value> {
        let _ = (request, args);
        None
    }

    /// The arguments of this tool's call that the user's `request` spells out in words alone
    /// ("change the default of --last from 7 to 14", "Create a file named .nvmrc containing the
    /// line 20") — only when the request and the workspace ground every value (the file it
    /// names, the one line of it the words pick out). Shown to a model that has not made the
    /// change as the call to send, never run unasked. `None` (the default): no such call.
    fn change_asked(&self, request: &str) -> Option<Value> {
        let _ = request;
        None
    }

    /// Where the change the user's `request` spells out in words (as for
    /// [`Tool::change_asked`]) is already so in the workspace: what says so, one sentence
    /// naming the file and the text (`` `.gitignore` already has the line `bin/`. ``). Told to
    /// a model that has not made the change, which cannot make it. `None` (the default): not
    /// known to be so.
    fn already_so(&self, request: &str) -> Option<String> {
        let _ = request;
        None
    }

    /// The arguments of this tool's call that makes the change a model's `reply` to the user's
    /// `request` shows in a code block instead of making it (the TOML to add to Cargo.toml, a
    /// new function for the file the request names) — only when the block lines up with the
    /// file the request names (see `snippet` in the built-in tools). Shown to the model as the
    /// call to send, never run unasked. `None` (the default): no such call.
    fn change_shown(&self, request: &str, reply: &str) -> Option<Value> {
        let _ = (request, reply);
        None
    }

    /// The arguments of this tool's call that a call of `name` — no tool's name — means by its
    /// name alone: small models call a file or a folder as if it were a tool
    /// (`{"name": "config.json", "arguments": {"path": "."}}`), meaning to look at it. Only
    /// read-only tools should answer, and only for an entry that exists (`read` of the file,
    /// `ls` of the folder). `None` (the default): no such call.
    fn call_named(&self, name: &str) -> Option<Value> {
        let _ = name;
        None
    }

    /// The existing file a call with `args` would replace whole (its old content lost), with the
    /// message to send instead when the task has neither read nor written that file (see
    /// [`crate::dispatch::Policy::read_before_replace`]). `None` (the default): the call
    /// replaces no file.
    fn replaces(&self, args: &Value) -> Option<Replace> {
        let _ = args;
        None
    }
}

/// A file a call would replace whole (see [`Tool::replaces`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replace {
    /// The file (absolute, as the tool's [`Output::reading`] and effects name it).
    pub path: std::path::PathBuf,
    /// The tool whose call the message shows to read the file: the check applies only where
    /// the registry has it (with no way to read the file, refusing would only block the call).
    pub read_with: String,
    /// What to tell the model when the task has not seen the file: what would be lost, and the
    /// call that reads it.
    pub message: String,
}
