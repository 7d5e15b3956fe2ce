//! `edit`: replace an exact piece of text in a file inside the root.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Sandbox, asked, blocking, io_failure, looks_binary};
use crate::tools::{Annotations, Effect, Failure, Output, ToolContext, TypedTool};

/// Largest file `edit` changes.
const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;

/// Arguments of `edit`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct EditArgs {
    /// File to change, relative to the workspace root.
    pub path: String,
    /// The exact text to replace, copied from the file (including indentation).
    pub old_text: String,
    /// The text to put in its place.
    pub new_text: String,
    /// Replace every occurrence instead of requiring exactly one. Default: false.
    #[serde(default)]
    pub replace_all: bool,
}

/// Replaces an exact piece of text in a file; fails clearly when it is absent or not unique.
#[derive(Debug)]
pub struct Edit {
    sandbox: Arc<Sandbox>,
}

impl Edit {
    /// For a number the request sets by what the docs say of a setting: the setting the docs
    /// name in three of those words or more ([`Self::documented_name`]), set where its
    /// words (and `default`, for a request about the default) name it. Found with a Ktor link
    /// shortener (session 55): "When nothing is configured, generated short codes should be 8
    /// characters long." is `DEFAULT_SLUG_LENGTH = 7`, the README's table documenting
    /// `links.slug-length` as the "Length of generated short codes".
    fn documented_setting(
        &self,
        request: &str,
        change: &Change,
        parts: &[asked::Part],
    ) -> Option<Value> {
        let Change::Set(value, keys) = change else {
            return None;
        };
        if value.text.is_empty() || !value.text.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let name = self.documented_name(keys, 3)?;
        let part = |text: &str| asked::Part {
            text: text.to_owned(),
            quoted: false,
            opens: false,
            colon: false,
        };
        let mut words: Vec<asked::Part> = name
            .split(['.', '-', '_'])
            .filter(|w| !w.is_empty())
            .map(part)
            .collect();
        // The line must set the setting itself: a name made of the words of its last dotted
        // part (`slug-length` of `links.slug-length`), `default` aside — not a column's
        // `DEFAULT 0`, nor `MaxLimit` for `limit` (a Scala service: "Make note listings
        // return 50 notes per page by default.", the README naming `limit`).
        let mut own: Vec<String> =
            crate::tools::name_words(&name.rsplit('.').next().unwrap_or(&name).replace('-', "_"))
                .into_iter()
                .filter(|w| w != "default")
                .collect();
        own.sort();
        let default = crate::tools::asks_default(request);
        if default {
            words.insert(0, part("default"));
        }
        let documented = Change::Set(value.clone(), words.clone());
        self.in_file(
            request,
            &documented,
            |path, text| {
                self.change_in(&documented, parts, path, text)
                    .filter(|call| {
                        let line = call["old_text"].as_str().unwrap_or_default();
                        let head = line.split([':', '=']).next().unwrap_or_default().trim_end();
                        let start = asked::run_start(head, |c| asked::is_name_char(c) || c == '-');
                        let mut named: Vec<String> =
                            crate::tools::name_words(&head[start..].replace('-', "_"))
                                .into_iter()
                                .filter(|w| w != "default")
                                .collect();
                        named.sort();
                        named == own
                    })
            },
            |call: &Value| {
                let line = call["old_text"].as_str().unwrap_or_default();
                let says_default = line
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
                    .flat_map(crate::tools::name_words)
                    .any(|w| w.eq_ignore_ascii_case("default"));
                name_holds(line, &words) + usize::from(default && says_default)
            },
        )
    }

    /// `edit` confined to `sandbox`.
    pub fn new(sandbox: Arc<Sandbox>) -> Self {
        Self { sandbox }
    }

    /// The text of `path` (a file the request names), when it is small enough to look through
    /// for the line a change means (256 KiB), with LF line breaks: `edit` writes an edit's
    /// `\n` as the file's CRLF, so the edit shown is the same for both.
    fn named_text(&self, path: &str) -> Option<String> {
        let abs = self.sandbox.resolve("edit", path).ok()?;
        if std::fs::metadata(&abs).ok()?.len() > 256 * 1024 {
            return None;
        }
        std::fs::read_to_string(&abs)
            .ok()
            .map(|t| t.replace("\r\n", "\n"))
    }
}

impl TypedTool for Edit {
    type Args = EditArgs;

    fn name(&self) -> &str {
        "edit"
    }

    fn description(&self) -> &str {
        "Replace an exact piece of text in a file. old_text must appear exactly once (or set replace_all)."
    }

    fn annotations(&self) -> Annotations {
        Annotations {
            read_only: false,
            destructive: true,
            idempotent: false,
            open_world: false,
        }
    }

    /// Names a file no real folder has, for the same reason as `write`'s example.
    fn example(&self) -> Option<Value> {
        Some(json!({"path": "toolmend-example.txt", "old_text": "hello", "new_text": "goodbye"}))
    }

    /// A call that sets one value: `args` is one member, `{"__version__": "0.3.2"}`, and the
    /// file the request names has exactly one line assigning that name (`__version__ =
    /// "0.3.1"`, `"debug": false,`, `retries: 3`): the edit of that line with the value
    /// replaced, written the way the line writes it (its quotes, its trailing comma). Found on
    /// the held-out project tasks (bump_version): asked to set the version in
    /// `weatherlog/__init__.py` to 0.3.2, Qwen2.5-Coder-0.5B read the file and then sent
    /// `{"__version__": "0.3.2"}` to a tool named after the file's docstring until the run
    /// ended.
    fn change_meant(&self, request: &str, args: &Value) -> Option<Value> {
        if let Some(wrong) = asked::misspelled(&asked::parts(request)) {
            // A word the model wrote, spelt right (`temperature` in a made-up tool's
            // description, asked to fix "temperture").
            let path = self.sandbox.first_named(request, false)?;
            let text = self.named_text(&path)?;
            let strings = crate::tools::string_values(args);
            let right = asked::respelled(&wrong, strings.iter().flat_map(|s| words_of(s)))?;
            return respelling(&path, &text, &wrong, &right);
        }
        let members = crate::tools::present_members(args)?;
        let mut members = members.iter();
        let (key, value) = members.next()?;
        if members.next().is_some() || key.trim().chars().count() < 2 {
            return None;
        }
        let value = match value {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => return None,
        };
        let path = self.sandbox.first_named(request, false)?;
        let text = self.named_text(&path)?;
        let assigned: Vec<(&str, &str)> = text
            .lines()
            .filter_map(|l| assignment(l, key.trim()))
            .collect();
        let (line, old_value) = match assigned[..] {
            [one] => one,
            [] => keyword_value(&text, key.trim(), request)?,
            _ => return None,
        };
        let bare = unquoted(old_value);
        // The value the line already holds: the model sent what it read, the request says what
        // it should be (`{"__version__": "0.3.1"}` for "Set the version … to 0.3.2").
        let value = if value.eq_ignore_ascii_case(bare) {
            value_named(request, bare)?
        } else {
            value
        };
        let (old_text, new_line) = (line.trim(), with_value(line, old_value, &value));
        let new_text = new_line.trim();
        (new_text != old_text && text.matches(old_text).count() == 1)
            .then(|| json!({"path": path, "old_text": old_text, "new_text": new_text}))
    }

    /// The edit that applies the one code block of `reply` that lines up with the file the
    /// request names (see `snippet::snippet_edit`): its new lines where the block places them,
    /// or the block at the file's end, or a line of a kind the file lists after its last line
    /// of that kind, also written bare or in backticks (`alias gl='…'` after the last `alias`;
    /// see `snippet::sibling_edit`) — only for a request that asks to add or write something
    /// (a block answering "fix", "change", "rename" would change lines, not add them). Found
    /// running `toolmend run` on a small Rust crate (session 28): asked "Add serde = "1" to the
    /// dependencies in Cargo.toml.", Qwen2.5-Coder-0.5B answered with a ```` ```toml ```` block
    /// of `[dependencies]` and `serde = "1"`, and then only read the file.
    fn change_shown(&self, request: &str, reply: &str) -> Option<Value> {
        if !asked::adds(&asked::parts(request)) {
            return None;
        }
        let path = self.sandbox.first_named(request, false)?;
        let text = self.named_text(&path)?;
        let blocks = super::snippet::fenced_blocks(reply);
        let mut edits: Vec<(String, String)> = if blocks.is_empty() {
            // No block: a line of a kind the file lists, written bare or in backticks.
            let file: Vec<&str> = text.lines().collect();
            super::snippet::unfenced_lines(reply)
                .into_iter()
                .filter_map(|line| super::snippet::sibling_edit(&file, &[line]))
                .collect()
        } else {
            blocks
                .iter()
                .filter_map(|block| super::snippet::snippet_edit(&text, &path, block))
                .collect()
        };
        edits.retain(|(old_text, _)| text.matches(old_text.as_str()).count() == 1);
        edits.dedup();
        let [(old_text, new_text)] = &edits[..] else {
            return None;
        };
        Some(json!({"path": path, "old_text": old_text, "new_text": new_text}))
    }

    /// The edit the request spells out in words (read by `builtin::asked`), grounded in the
    /// file it names. Found on the held-out project tasks: asked to change a flag's default
    /// "from 7 to 14", to add a line under a changelog heading, or to set a value,
    /// Qwen2.5-Coder-0.5B read the file and then called tools it made up (`0.3.1` with
    /// `{"show": "sort readings by date"}`) until the run ended; it sends an `edit` it is shown.
    /// Each case needs one line of the file picked out by the words, and gives nothing
    /// otherwise:
    /// - "from A to B", "change "A" to B", "replace A with B": the one line holding `A` as a
    ///   word of its own (`7` in `default=7`), or of several, the one that holds the most of
    ///   the request's other words (`retries: 2` over `argv.slice(2)` for "the default number
    ///   of retries from 2 to 3");
    /// - "add the line L under/after H", "… before H", "… at the end of F", "… to F": after the
    ///   one line that reads `H` (before it; after the last line); an environment variable's
    ///   `NAME=value` needs no word "line";
    /// - "set K to V", "change the K in F to V" (also `raise`, `lower`, `bump`, …): the one
    ///   line assigning a word of the request (`"userAgent": …`, `__version__ = …`, an nginx
    ///   directive `client_max_body_size 10m;`), its value replaced as the line writes values;
    ///   of several, the one nested under a block the request names too (`image:` under
    ///   `web:` for "the web image"); a version set ("… to use Go 1.22", "Set the Go version
    ///   … to 1.22") also on a key whose first word the request names (`go-version:`) or
    ///   after its name alone on a line (go.mod's `go 1.21`); "make V the default K" sets K to
    ///   V; a vim option's `set tabstop=4` assigns it, and a shell variable in capitals
    ///   (`export EDITOR=vim`) is the key a request writes in lower case when no line assigns
    ///   that (a folder of dotfiles, session 31);
    /// - "add PATTERN to the gitignore", "add PKG to requirements.txt": a line of its own at
    ///   the end of an ignore file or a requirements file (see `lists_lines`);
    /// - "add a make target T that runs C": the rule after a Makefile's last, named in
    ///   `.PHONY` (see `rule_insertion`);
    /// - "add K with (price) V to NAME", "add ITEM to the NAME list": the entry added last to
    ///   the collection literal the one line assigning `NAME` opens (`PRICES = {…}`, `FRUITS
    ///   = [`), written as its entries are (see `entry_insertion`). Found running `toolmend
    ///   run` on a small Python project (session 27): asked "Add cheese with price 3.5 to the
    ///   PRICES in src/shop.py.", Qwen2.5-Coder-0.5B read the file, then called the file's
    ///   function `price_of`, `ls`, and a tool named `git` until the run ended. In a TOML or
    ///   INI file, NAME may be a section (`[dependencies]`): the entry is its last line (see
    ///   `section_insertion`; a Rust crate, session 28: asked to add serde to the dependencies
    ///   in Cargo.toml, the model read the file until the run ended with nothing changed); in
    ///   a YAML file, a mapping (`web:`) takes `K: V` (see `mapping_insertion`);
    /// - "rename (the function) A to B": every occurrence of `A` in the file, when each is a
    ///   name of its own (see `renaming`). Found running `toolmend run` on a small Python
    ///   project (session 27): asked to rename a function everywhere in a file, Qwen2.5-Coder-0.5B
    ///   called `rename_price_of` with `{"price_of": "unit_price"}`, then the function itself,
    ///   and was shown `ls` to copy until the run ended with nothing renamed.
    ///
    /// A request that names no file is grounded in the one small text file (of the folder it
    /// names, else of the whole workspace) where its words pick out the change; a line to
    /// place, a rename or a respelling needs the file named. Found running `toolmend run` on a
    /// Docker Compose folder (session 29): "Bump the web image to notes:1.5.0." names none. A
    /// request that speaks of the CI ("Change the CI to use Go 1.22.") is looked for in the
    /// CI's configuration only (see `crate::tools::is_ci_config`; a Go module, session 30).
    fn change_asked(&self, request: &str) -> Option<Value> {
        let parts = asked::parts(request);
        let change = Change::read(&parts)?;
        // The project's own name as a possessive says whose setting it is, not which: "Bump
        // meadow's version to 0.7.0." is the version of `Version: 0.6.1` (an R package,
        // session 49: offered no change, where "Bump the version to 0.7.0." was).
        let change = match change {
            Change::Set(value, keys) => {
                let own = super::grep::own_name(&self.sandbox, self.sandbox.root());
                let owner = |k: &asked::Part| {
                    let t = k.text.replace('\u{2019}', "'");
                    t.strip_suffix("'s")
                        .is_some_and(|name| own.as_deref() == Some(name.to_lowercase().as_str()))
                };
                let kept: Vec<asked::Part> = keys.iter().filter(|k| !owner(k)).cloned().collect();
                if kept.is_empty() || kept.len() == keys.len() {
                    Change::Set(value, keys)
                } else {
                    Change::Set(value, kept)
                }
            }
            other => other,
        };
        // For a replacement, the request's other words the line holds: `sessions_before_long_break
        // = 4` over `replicaCount: 4` for "Give a long break after every 3 sessions instead of
        // 4." (session 42).
        let hints = match &change {
            Change::Replace(from, to) => asked::hint_words(&parts, &[&from.text, &to.text]),
            _ => Vec::new(),
        };
        let says_default = asked::said_words(request).iter().any(|w| w == "default");
        let named = |call: &Value| {
            let line = call["old_text"].as_str().unwrap_or_default();
            if !hints.is_empty() {
                let line_words: Vec<String> = line
                    .split(|c: char| !c.is_alphanumeric() && c != '_')
                    .flat_map(crate::tools::name_words)
                    .collect();
                return hints
                    .iter()
                    .filter(|h| line_words.iter().any(|w| crate::tools::same_word(w, h)))
                    .count();
            }
            change.keys().map_or(0, |keys| {
                // A name written as code writes a package's (`swift-argument-parser`) on the
                // line counts twice: it tells the line more than a key's word does
                // (`version:` of the command's own version, a Swift package, session 42).
                let lower = line.to_lowercase();
                let packages = keys
                    .iter()
                    .filter(|k| k.text.len() >= 3 && k.text.contains(['-', '_', '.']))
                    .filter(|k| !asked::token_at(&lower, &k.text.to_lowercase()).is_empty())
                    .count();
                // A default the request asks for is set where a name says it is one
                // (`default_max_series = 20000` over a sample config's `"max_series": 5000`
                // for "Let zest keep up to 50000 series by default.": a Zig service, session
                // 49).
                let default = says_default
                    && line
                        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
                        .flat_map(crate::tools::name_words)
                        .any(|w| w.eq_ignore_ascii_case("default"));
                name_holds(line, keys) + 2 * packages + usize::from(default)
            })
        };
        // A switch named by what it does, which the docs say of one name: "Turn meadow's
        // progress messages on by default." is `meadow.verbose = FALSE`, which the README's
        // options table documents as `` | `meadow.verbose` | `FALSE` | progress messages | ``
        // (an R package, session 49: offered no change, then, with "on by default" read,
        // readr's `progress = FALSE`). The change is that name's, where one is set.
        if let Change::Switch(on, keys) = &change
            && let Some(name) = self.documented_name(keys, 2)
        {
            let documented = Change::Switch(
                *on,
                vec![asked::Part {
                    text: name,
                    quoted: true,
                    opens: false,
                    colon: false,
                }],
            );
            if let Some(hit) = self.in_file(
                request,
                &documented,
                |path, text| self.change_in(&documented, &parts, path, text),
                |_| 0,
            ) {
                return Some(hit);
            }
        }
        // A line length for a tool the request names, in its settings (see
        // `line_length_of_tool`): before the words' search, which finds `MAX_LINES = 10_000`
        // for "lines up to 100 characters".
        if let Some(hit) = self.line_length_of_tool(request, &change) {
            return Some(hit);
        }
        // A number for a parameter the code's documentation describes in the request's words:
        // "Cover plots should show the 20 most abundant taxa …" is `top_n = 15,`, which
        // roxygen documents as `@param top_n Number of taxa to show individually.` (an R
        // package, session 50: offered no change).
        if let Change::Set(value, keys) = &change
            && !value.text.is_empty()
            && value.text.chars().all(|c| c.is_ascii_digit())
            && let Some(name) = self.documented_param(keys)
        {
            let documented = Change::Set(
                value.clone(),
                vec![asked::Part {
                    text: name,
                    quoted: true,
                    opens: false,
                    colon: false,
                }],
            );
            if let Some(hit) = self.in_file(
                request,
                &documented,
                |path, text| self.change_in(&documented, &parts, path, text),
                |_| 0,
            ) {
                return Some(hit);
            }
        }
        // A number for a setting the docs describe in the request's words (see
        // `documented_setting`): before the words' search, which finds `maxLineLength: 130`
        // for "… should be 8 characters long".
        if let Some(hit) = self.documented_setting(request, &change, &parts) {
            return Some(hit);
        }
        self.in_file(
            request,
            &change,
            |path, text| self.change_in(&change, &parts, path, text),
            named,
        )
        .or_else(|| self.only_number_of_tool(request, &change))
    }

    /// Found running `toolmend run` on a Go module (session 30): asked "Add bin/ to the
    /// gitignore." where `.gitignore` had the line already, Qwen2.5-Coder-0.5B called a tool
    /// named `bin/`, read the file, echoed the request, sent an edit of `bin/` to `bin/`, and
    /// answered `bin/`. Known cases: a line to add that the file has (an ignore file's pattern,
    /// a line spelt out), a value to set that the line assigning it holds — in the file the
    /// request names, or the one small file its words pick out, as for `change_asked`.
    fn already_so(&self, request: &str) -> Option<String> {
        let parts = asked::parts(request);
        let change = Change::read(&parts)?;
        // A document the request does not name shows a setting, it does not hold it: a
        // README's example `short_break_minutes = 10,` is no sign that "Change the default
        // short break to 10 minutes." is done (a Lua plugin, session 42).
        let named = self.sandbox.first_named(request, false);
        // A change still due somewhere is not done, whatever a variant file holds
        // (`values-prod.yaml`'s `memory: 512Mi` when `values.yaml` has 256Mi: a Helm chart,
        // session 42).
        if self.change_asked(request).is_some() {
            return None;
        }
        self.in_file(
            request,
            &change,
            |path, text| {
                if is_document(path) && named.as_deref() != Some(path) {
                    return None;
                }
                already_in(&change, path, text)
            },
            |_| 0,
        )
    }

    async fn run(&self, _ctx: &ToolContext, args: EditArgs) -> Result<Output, Failure> {
        let sb = Arc::clone(&self.sandbox);
        blocking("edit", move || edit(&sb, &args)).await
    }
}

impl Edit {
    /// For a whole number set in a tool's own settings file — a dotfile the request names by
    /// its stem (`.ocamlformat` for "ocamlformat") — whose words name no key there: the file's
    /// one setting of a whole number, when it has exactly one. Found with an OCaml/dune project
    /// (session 49): "Let ocamlformat use lines up to 100 columns wide." was offered no change;
    /// `.ocamlformat` is `version = 0.26.2`, `profile = default`, `margin = 90` and two
    /// switches.
    fn only_number_of_tool(&self, request: &str, change: &Change) -> Option<Value> {
        let Change::Set(value, _) = change else {
            return None;
        };
        if value.text.is_empty() || !value.text.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let path = self.sandbox.first_named(request, false)?;
        let file = path.rsplit('/').next().unwrap_or(&path);
        let stem = crate::tools::file_stem(file);
        if !file.starts_with('.')
            || !crate::tools::request_words(request).any(|w| crate::tools::word_names_stem(w, stem))
        {
            return None;
        }
        let text = self.named_text(&path)?;
        let mut numbers = text.lines().filter(|l| !is_comment(l)).filter_map(|line| {
            let bare = line.trim_start();
            let name = leading_name(bare);
            let (_, old) = assignment(bare, name)?;
            (!name.is_empty() && !old.is_empty() && old.chars().all(|c| c.is_ascii_digit()))
                .then_some((line, old))
        });
        let (Some((line, old)), None) = (numbers.next(), numbers.next()) else {
            return None;
        };
        let new_line = with_value(line, old, &value.text);
        (new_line != line && text.matches(line).count() == 1)
            .then(|| json!({"path": path, "old_text": line.trim(), "new_text": new_line.trim()}))
    }

    /// For a whole number of characters (columns) a line may take — "Let the formatter allow
    /// lines up to 100 characters." — the one line-length key (`margin`, `line_length`,
    /// `max_line_length`, `printWidth`, `ColumnLimit`, `max_width`, …, `_` and `-` aside)
    /// set to a whole number in the workspace root's settings files whose names hold a word of
    /// the request naming a tool (`formatter` in `.JuliaFormatter.toml`, `prettier` in
    /// `.prettierrc.json`; a `-er` word by its stem too, `linter` in `.swiftlint.yml`). Found
    /// with a Julia package (session 51): that request was offered no change.
    fn line_length_of_tool(&self, request: &str, change: &Change) -> Option<Value> {
        const LINE_LENGTH_KEYS: &[&str] = &[
            "margin",
            "linelength",
            "maxlinelength",
            "linewidth",
            "maxlinewidth",
            "printwidth",
            "columnlimit",
            "maxwidth",
            "maxlen",
            "maxlinelen",
        ];
        let Change::Set(value, keys) = change else {
            return None;
        };
        if value.text.is_empty() || !value.text.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let said = |ws: &[&str]| keys.iter().any(|k| k.is_any(ws));
        if !said(&["line", "lines"]) || !said(&["characters", "chars", "columns", "wide", "long"]) {
            return None;
        }
        let tool_words: Vec<String> = crate::tools::request_words(request)
            .map(str::to_lowercase)
            .filter(|w| w.chars().count() >= 5 && w.chars().all(|c| c.is_ascii_alphabetic()))
            .collect();
        let names_tool = |file: &str| {
            let name = file.to_lowercase();
            tool_words.iter().any(|w| {
                name.contains(w.as_str())
                    || w.strip_suffix("er")
                        .is_some_and(|s| s.len() >= 4 && name.contains(s))
            })
        };
        // Each setting found: its file, its line and where its value is on the line.
        let mut found: Vec<(String, String, std::ops::Range<usize>)> = Vec::new();
        for (path, text) in super::small_files(&self.sandbox, self.sandbox.root()) {
            if path.contains('/') || !(path.starts_with('.') || is_config(&path)) {
                continue;
            }
            if !names_tool(&path) {
                continue;
            }
            for line in text.lines().filter(|l| !is_comment(l)) {
                let bare = line.trim_start();
                let name: String = bare
                    .trim_start_matches(['"', '\''])
                    .chars()
                    .take_while(|&c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                    .collect();
                let key: String = name
                    .chars()
                    .filter(char::is_ascii_alphanumeric)
                    .collect::<String>()
                    .to_lowercase();
                if !LINE_LENGTH_KEYS.contains(&key.as_str()) {
                    continue;
                }
                if let Some((_, old)) = assignment(bare, &name)
                    && !old.is_empty()
                    && old.chars().all(|c| c.is_ascii_digit())
                    && text.matches(line).count() == 1
                {
                    let at = old.as_ptr() as usize - line.as_ptr() as usize;
                    found.push((path.clone(), line.to_owned(), at..at + old.len()));
                }
            }
        }
        let [(path, line, at)] = found.as_slice() else {
            return None;
        };
        let new_line = with_value(line, &line[at.clone()], &value.text);
        (new_line != *line)
            .then(|| json!({"path": path, "old_text": line.trim(), "new_text": new_line.trim()}))
    }

    /// The one name in code (written in backticks: `` `meadow.verbose` ``) that the docs — a
    /// line of a document holding, outside its backticks, `least` or more of the words of
    /// `keys` (four letters or more), the most of any line — say those words of; `None` when
    /// no line or lines naming several do.
    fn documented_name(&self, keys: &[asked::Part], least: usize) -> Option<String> {
        let words: Vec<String> = key_words(keys)
            .into_iter()
            .filter(|w| w.chars().count() >= 4 && w.chars().all(char::is_alphabetic))
            .collect();
        if words.len() < least {
            return None;
        }
        let mut names: Vec<String> = Vec::new();
        let mut most = least;
        for (path, text) in super::small_files(&self.sandbox, self.sandbox.root()) {
            if !is_document(&path) || is_changelog(&path) {
                continue;
            }
            for line in text.lines() {
                // The words the line says of the name, not the name's own (`length` of
                // `links.max-url-length` beside "Longest target URL accepted, in characters":
                // a Ktor link shortener, session 55); of several lines, those saying the most.
                let said: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
                let lower = said.to_lowercase();
                let held = words
                    .iter()
                    .filter(|w| !asked::token_at(&lower, w).is_empty())
                    .count();
                if held < most {
                    continue;
                }
                if held > most {
                    most = held;
                    names.clear();
                }
                let mut coded = line.split('`').skip(1).step_by(2).filter(|t| {
                    t.len() >= 3
                        && t.chars().any(char::is_alphabetic)
                        && t.chars()
                            .all(|c| asked::is_name_char(c) || c == '.' || c == '-')
                        && switch_state(t).is_none()
                });
                if let (Some(name), None) = (coded.next(), coded.next())
                    && !names.iter().any(|n| n == name)
                {
                    names.push(name.to_owned());
                }
            }
        }
        match names.as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
    }

    /// The one parameter that code's documentation comments (`@param NAME …` of roxygen,
    /// JSDoc, Javadoc, PHPDoc and Doxygen, `:param NAME:` of Sphinx) describe with two or more
    /// of the words of `keys` (four letters or more), a description read on to its comment's
    /// next tag; `None` when none or several do.
    fn documented_param(&self, keys: &[asked::Part]) -> Option<String> {
        let words: Vec<String> = key_words(keys)
            .into_iter()
            .filter(|w| w.chars().count() >= 4 && w.chars().all(char::is_alphabetic))
            .collect();
        if words.len() < 2 {
            return None;
        }
        let mut names: Vec<String> = Vec::new();
        for (path, text) in super::small_files(&self.sandbox, self.sandbox.root()) {
            if is_document(&path) || is_config(&path) {
                continue;
            }
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                let Some((name, first)) = param_doc(line) else {
                    continue;
                };
                // The description goes on over the comment's lines up to its next tag.
                let mut description = first.to_lowercase();
                for next in lines[i + 1..].iter().take(4) {
                    let body = next
                        .trim_start()
                        .trim_start_matches(['#', '\'', '/', '*', '-', ';', '%'])
                        .trim();
                    if (!is_comment(next) && !next.trim_start().starts_with('*'))
                        || body.is_empty()
                        || body.starts_with(['@', ':'])
                    {
                        break;
                    }
                    description.push(' ');
                    description.push_str(&body.to_lowercase());
                }
                let held = words
                    .iter()
                    .filter(|w| !asked::token_at(&description, w).is_empty())
                    .count();
                if held >= 2 && !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        match names.as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
    }

    /// `found` of the file the request names (its text with LF line breaks), else, for a change
    /// that does not need the file named ([`Change::needs_file`]), of the one small text file
    /// — in the folder the request names, or anywhere in the workspace — where it gives
    /// something; of several, the one that is no document, else the one `named` scores
    /// highest (above 0); `None` when none or several do.
    fn in_file<T>(
        &self,
        request: &str,
        change: &Change,
        found: impl Fn(&str, &str) -> Option<T>,
        named: impl Fn(&T) -> usize,
    ) -> Option<T> {
        // A file named only where the request says what to leave alone is not the one to
        // change ("Change the built-in default so that … Leave the production config as it
        // is.": a Nim daemon, session 52, offered `config/fjord.prod.toml`).
        let said = asked::said_text(request);
        // A version to set in the lock file the request speaks of, whatever other file it
        // names (a D log shipper, session 55: "Upgrade vibe-d to 0.10.2. The range in dub.json
        // already allows it, so just update the locked version." is `dub.selections.json`'s
        // `"vibe-d": "0.10.1"`, not `dub.json`'s range).
        if crate::tools::speaks_of_lock(&said)
            && matches!(change, Change::Set(value, _) if version_like(&value.text))
        {
            for lock in crate::tools::LOCK_FILES {
                if let Some(text) = self.named_text(lock)
                    && let Some(hit) = found(lock, &text)
                {
                    return Some(hit);
                }
            }
        }
        if let Some(path) = self.sandbox.first_named(&said, false) {
            // A file named only by a word of the request that is its stem (`invoices` →
            // `src/Invoice.php`) is a guess at where the change goes: where it gives nothing,
            // the files are searched as for a request naming none (a PHP library, session 39:
            // "Show 50 invoices per page." is `config/app.php`'s `'per_page' => 25`).
            let file = path.rsplit('/').next().unwrap_or(&path);
            // A dotfile or a settings file named by its stem is the tool's own settings
            // (`.ocamlformat` for "Let ocamlformat use lines up to 100 columns wide.",
            // `codecov.yml` for "Raise the overall coverage target on Codecov to 85%."): the
            // change is there or nowhere (an OCaml/dune project and an R package, session 49:
            // `margin = 90` gave nothing, and the search of every file offered
            // `etc/tern.json`'s `"max_wind_kn": 25` → 100; `target: 80%` under two sections
            // gave nothing, and an R example's `min_cover = 5)` → `85%` was offered).
            // (Not a version: `nginx.conf` holds none of the nginx image's.)
            let versioned = matches!(change, Change::Set(value, _)
                if version_like(&value.text) || tag_like(&value.text));
            let dotfile = (file.starts_with('.') || (is_config(file) && !versioned))
                && crate::tools::request_words(&said)
                    .any(|w| crate::tools::word_names_stem(w, crate::tools::file_stem(file)));
            let by_name =
                dotfile || crate::tools::request_words(&said).any(|w| w == path || w == file);
            // A changelog named by its stem only is the verb "Change", not the file: it records
            // what was set and sets nothing (an OCaml/dune project, session 49: "Change the
            // default forecast timeout to 3000 ms." offered CHANGES.md's "(default 15).").
            // Nor, for a request about the Docker image, a file other than the image's own
            // named by its stem (a Gleam feed relay, session 54: "Build the Docker image with
            // Gleam 1.10.0." was offered gleam.toml's `gleam = ">= 1.6.3"`).
            let elsewhere = speaks_of_docker(&said) && !is_docker_file(&path);
            if by_name || !is_changelog(&path) {
                let text = self.named_text(&path)?;
                let hit = found(&path, &text);
                if by_name || (hit.is_some() && !elsewhere) {
                    return hit;
                }
            }
        }
        // No file named: never a line to place, a rename or a respelling, which need the file.
        if change.needs_file() {
            return None;
        }
        let dir = match self.sandbox.first_named(&said, true) {
            Some(folder) => self.sandbox.resolve("edit", &folder).ok()?,
            None => self.sandbox.root().to_path_buf(),
        };
        // "the CI", "the workflow": the CI's configuration, not the files it builds (a Go
        // module, session 30: "Change the CI to use Go 1.22." is the workflow's `go-version`,
        // not go.mod's `go 1.21`).
        let ci = crate::tools::names_ci(request);
        // A changelog records what was set; it sets nothing (an Ansible role, session 44:
        // "Pin the community.docker collection to version 3.10.2." offered CHANGELOG.md's
        // "- Pinned community.docker to 3.8.1").
        // A lock file pins versions: nothing but a version written with a dot is set there (a
        // NestJS service, session 56: "Change the built-in default for how many flights one
        // account can watch at once to 60." was offered pnpm-lock.yaml's `lodash.defaults:
        // 4.2.0` → `lodash.defaults: 60`, and Qwen2.5-Coder-0.5B made it).
        let dotted = |v: &asked::Part| version_like(&v.text) && v.text.contains('.');
        let pinned_version = match change {
            Change::Set(value, _) => dotted(value),
            Change::Replace(_, to) => dotted(to),
            _ => false,
        };
        let hits: Vec<(String, T)> = super::small_files(&self.sandbox, &dir)
            .filter(|(path, _)| !ci || crate::tools::is_ci_config(path))
            .filter(|(path, _)| !is_changelog(path))
            .filter(|(path, _)| pinned_version || !is_lock_file(path))
            .filter_map(|(path, text)| {
                found(&path, &text.replace("\r\n", "\n")).map(|hit| (path, hit))
            })
            .take(50)
            .collect();
        if hits.len() == 1 {
            return hits.into_iter().next().map(|(_, hit)| hit);
        }
        // Of several, the one that is no document: a setting lives in a configuration file,
        // not in the front matter of each page (a Hugo site, session 37: "Change the site
        // title to Plot 14 Notes." is `hugo.toml`'s `title`, not a post's `title:`).
        let kept: Vec<(String, T)> = hits
            .into_iter()
            .filter(|(path, _)| !is_document(path))
            .collect();
        if kept.len() == 1 {
            return kept.into_iter().next().map(|(_, hit)| hit);
        }
        let kept = of_settings(request, kept);
        if kept.len() == 1 {
            return kept.into_iter().next().map(|(_, hit)| hit);
        }
        // Of several, the one whose line's name holds the most of the words naming what is set:
        // `DEFAULT_STATION = "Brixham"` over a script's `station = ARGV.fetch(…)` for "Make
        // Dartmouth the default station." (a Ruby gem, session 38).
        let best = kept.iter().map(|(_, hit)| named(hit)).max()?;
        let mut top: Vec<(String, T)> = kept
            .into_iter()
            .filter(|(_, hit)| best > 0 && named(hit) == best)
            .collect();
        // Of those, the one in a configuration file: what the program reads there overrides
        // the default its code gives (a C++/CMake daemon, session 41: "Change the MQTT topic
        // prefix to home/climate." is the TOML's `topic_prefix`, not the `Config` struct's
        // default or the line loading it).
        // Or, for a built-in default, the one in the code's module of settings (`settings.py`,
        // `config.ts`, `defaults.go`): `max_attempts: int = 6` over a record's `attempts: int
        // = 0` in `relay.py` for "Change the built-in default number of delivery attempts to
        // 8." (a Python webhook relay, session 55: offered no change).
        const SETTINGS_STEMS: &[&str] = &[
            "settings",
            "setting",
            "config",
            "configuration",
            "defaults",
            "default",
            "constants",
            "options",
            "conf",
        ];
        let of_settings_module = |path: &str| {
            let stem = crate::tools::file_stem(path);
            SETTINGS_STEMS.contains(&stem.to_ascii_lowercase().as_str())
        };
        // (Only where none of them is a configuration file.)
        if top.len() > 1
            && !top.iter().any(|(path, _)| is_config(path))
            && asked::said_words(request)
                .iter()
                .any(|w| w == "default" || w == "built-in")
            && top
                .iter()
                .filter(|(path, _)| of_settings_module(path))
                .count()
                == 1
        {
            top.retain(|(path, _)| of_settings_module(path));
        }
        if top.len() > 1 {
            top.retain(|(path, _)| is_config(path));
        }
        let [(_, _)] = top[..] else {
            return None;
        };
        top.pop().map(|(_, hit)| hit)
    }
}

/// Of `hits` (files and what each gives), those that hold a setting rather than a check of it
/// or a variant of it the request does not ask for: no test file when another is left (a Lua
/// plugin, session 42: "Give a long break after every 3 sessions instead of 4." is the
/// config's `sessions_before_long_break = 4`, not the spec asserting it); of a file and its
/// variants (`values.yaml` and `values-prod.yaml`, `.env` and `.env.production`), the variant
/// whose word the request says ("the production replica count"), else the file itself (a
/// Helm chart, session 42: "Set the default replica count to 3." is `values.yaml`'s).
fn of_settings<T>(request: &str, mut hits: Vec<(String, T)>) -> Vec<(String, T)> {
    // Each filter keeps the hits it favours only when one is left.
    let keep = |hits: &mut Vec<(String, T)>, favoured: &dyn Fn(&str) -> bool| {
        if hits.iter().any(|(path, _)| favoured(path)) {
            hits.retain(|(path, _)| favoured(path));
        }
    };
    keep(&mut hits, &|path| !is_test_file(path));
    // Not a lock file, which the package manager writes from the manifest, unless the request
    // speaks of one (a Crystal web service, session 53: "Upgrade Kemal to 1.6.0." found
    // shard.lock's `version: 1.5.0` beside shard.yml's `version: ~> 1.5.0`, and offered neither).
    let lock_said = crate::tools::speaks_of_lock(request);
    if !lock_said {
        keep(&mut hits, &|path| !is_lock_file(path));
    }
    // Not the words of a clause saying what to leave as it is ("Leave production as it is.").
    let words: Vec<String> = asked::said_words(request).into_iter().take(200).collect();
    let says = |variant: &str| crate::tools::variant_said(&words, variant);
    // No example program's or sample's file: it shows a setting, the library's own code holds
    // it (a Dart package, session 44: "Change the default request timeout to 60 seconds."
    // found `example/main.dart`'s `timeout: const Duration(seconds: 10)` beside
    // `lib/src/config.dart`'s default).
    keep(&mut hits, &|path| {
        !path
            .split('/')
            .any(|d| ["example", "examples", "sample", "samples", "demo", "demos"].contains(&d))
    });
    // The built-in default is the code's, not a configuration file's that overrides it (an
    // F# inventory API, session 54: "Change the built-in default maximum page size to 200."
    // was offered appsettings.json's `"DefaultPageSize": 30`; `let MaxPageSize = 150` is in
    // the code's `module Defaults`).
    if words
        .iter()
        .any(|w| ["built-in", "builtin", "hard-coded", "hardcoded"].contains(&w.as_str()))
    {
        keep(&mut hits, &|path| !is_config(path));
    }
    // An image is built by a Dockerfile and run by a Compose file: "Update the perl base image
    // to 5.40." is the Dockerfile's `FROM perl:5.38-slim`, not the CI's `perl: '5.38'` (a
    // Perl distribution, session 52).
    if speaks_of_docker(request) {
        keep(&mut hits, &is_docker_file);
    }
    // No file of an environment the request does not name, by its folder or its name
    // (`production.conf` beside `application.conf`, `inventory/production/group_vars/…`
    // beside a role's defaults: a Scala service and an Ansible role, session 44, "Raise the
    // server's default idle timeout to 90 seconds.", "Change the default HTTPS port to
    // 9443.").
    // A name's part between dots counts as its stem does (`etc/quarry.prod.conf`, where no
    // `quarry.conf` stands beside it to be its base: a Perl distribution, session 52).
    // Not the folders of a JVM package (`src/main/kotlin/dev/quiver/config/QuiverConfig.kt`
    // is in package `dev.quiver.config`, no dev environment's: a Ktor link shortener, session
    // 55).
    let environments = |path: &str| -> Vec<String> {
        let parts: Vec<&str> = path.split('/').collect();
        let package = parts.windows(2).position(|w| {
            ["main", "test"].contains(&w[0])
                && ["java", "kotlin", "scala", "groovy"].contains(&w[1])
        });
        let last = parts.len().saturating_sub(1);
        parts
            .iter()
            .enumerate()
            .filter(|&(i, _)| package.is_none_or(|at| i <= at + 1 || i == last))
            .map(|(_, part)| *part)
            .flat_map(|part| {
                let parts: Vec<&str> = part.split('.').collect();
                let n = if parts.len() > 2 { parts.len() - 1 } else { 1 };
                parts
                    .into_iter()
                    .take(n)
                    .map(str::to_lowercase)
                    .collect::<Vec<_>>()
            })
            .filter(|w| ENVIRONMENTS.contains(&w.as_str()))
            .collect()
    };
    keep(&mut hits, &|path| {
        environments(path).iter().all(|e| says(e))
    });
    // And of the files of environments, the one the request names, unless it asks for the
    // default too ("raise the production p95 threshold to 1500 ms": `etc/quarry.prod.conf`,
    // not the library's default; "Lower the built-in default cooldown … Production has its own
    // setting; leave that alone.": the default).
    if !words.iter().any(|w| w == "default") {
        keep(&mut hits, &|path| {
            environments(path).iter().any(|e| says(e))
        });
    }
    // For "the default …", the one file kept under a `defaults` folder or named `default`
    // (an Ansible role's `defaults/main.yml`, `config/default.json`).
    if words.iter().any(|w| w == "default") {
        let by_default = |path: &str| {
            path.split('/').any(|part| {
                let stem = before_dot(part);
                stem.eq_ignore_ascii_case("default") || stem.eq_ignore_ascii_case("defaults")
            })
        };
        if hits.iter().filter(|(path, _)| by_default(path)).count() == 1 {
            hits.retain(|(path, _)| by_default(path));
        }
    }
    // Each hit's variant word, when another hit is the file it is a variant of.
    let variants: Vec<Option<String>> = hits
        .iter()
        .map(|(path, _)| {
            hits.iter()
                .find_map(|(base, _)| crate::tools::variant_word(base, path))
        })
        .collect();
    if variants.iter().flatten().any(|v| says(v)) {
        let asked: Vec<bool> = variants
            .iter()
            .map(|v| v.as_deref().is_some_and(says))
            .collect();
        let mut k = 0;
        hits.retain(|_| {
            k += 1;
            asked[k - 1]
        });
    } else if variants.iter().any(Option::is_some) {
        let mut k = 0;
        hits.retain(|_| {
            k += 1;
            variants[k - 1].is_none()
        });
    }
    hits
}

/// The names of deployment environments: a folder or file so named holds what one environment
/// overrides, not the default.
const ENVIRONMENTS: &[&str] = &[
    "production",
    "prod",
    "staging",
    "stage",
    "development",
    "dev",
    "local",
    "qa",
    "uat",
];

/// A file's or folder's name up to its first `.` (all of it without one; an empty stem for a
/// dotfile): `CHANGELOG` of `CHANGELOG.md`, `values` of `values.prod.yaml` — unlike
/// [`crate::tools::file_stem`], which trims a dotfile's leading `.` first (`env` of `.env`).
fn before_dot(name: &str) -> &str {
    name.split_once('.').map_or(name, |(s, _)| s)
}

/// Whether `path` is a test's file: under a `test`, `tests`, `spec` or `__tests__` folder, or
/// named `test_*`, `*_test.*`, `*_spec.*`, `*.test.*`, `*.spec.*`, `*Test(s).*`.
pub(crate) fn is_test_file(path: &str) -> bool {
    let mut parts = path.split('/').rev();
    let name = parts.next().unwrap_or(path);
    let stem = before_dot(name);
    parts.any(|d| ["test", "tests", "spec", "specs", "__tests__"].contains(&d))
        || stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem.ends_with("_spec")
        || name.contains(".test.")
        || name.contains(".spec.")
        || stem.ends_with("Test")
        || stem.ends_with("Tests")
}

/// How many of `keys` (the words naming a value to set, fillers aside) the name a `line`
/// assigns holds — its text before the first `=` or `:`, split into words at `_`, `-`, `.`,
/// spaces and inner capitals — each as itself or its plural ([`crate::tools::same_word`]).
fn name_holds(line: &str, keys: &[asked::Part]) -> usize {
    let name = line.split(['=', ':']).next().unwrap_or_default();
    let mut parts: Vec<String> = name
        .split(|c: char| !c.is_alphanumeric() && c != '_' && c != '-')
        .flat_map(crate::tools::name_words)
        .collect();
    // And the keyword arguments later in the line (`max_attempts: 3` in `use Oban.Worker,
    // queue: :mailers, max_attempts: 3`): each name right before a `:` or `=`.
    for (at, c) in line.char_indices().filter(|&(at, _)| at > name.len()) {
        let next = line[at + c.len_utf8()..].chars().next();
        let before = line[..at].chars().next_back();
        if matches!(c, ':' | '=')
            && !matches!(next, Some(':' | '=' | '>'))
            && !matches!(before, Some(':' | '=' | '!' | '<' | '>'))
        {
            let head = line[..at].trim_end();
            let start = asked::run_start(head, asked::is_name_char);
            parts.extend(crate::tools::name_words(&head[start..]));
        }
    }
    keys.iter()
        .filter(|k| asked::is_value(k))
        .filter(|k| parts.iter().any(|p| crate::tools::same_word(p, &k.text)))
        .count()
}

/// The kind of change a request spells out, read once from its words (`builtin::asked`) and
/// then grounded in a file's text by `Edit::change_in` (for a request naming no file, in each
/// small file of the workspace in turn).
enum Change {
    /// "rename (the function) A to B".
    Rename(asked::Part, asked::Part),
    /// "add a make target NAME that runs COMMAND".
    Rule { name: String, command: String },
    /// "add the line L under/after/before H", "… at the end of F", `NAME=value`.
    Line(String, asked::Place),
    /// "add K with V to NAME", "add ITEM to the NAME list", a section's or a mapping's entry.
    Entry(asked::Entry),
    /// "from A to B", "change "A" to B", "replace A with B".
    Replace(asked::Part, asked::Part),
    /// "set K to V" and the other verbs that set a value: the value and the words naming it.
    Set(asked::Part, Vec<asked::Part>),
    /// "turn off K", "enable K": a true/false value to flip (`true` for on) and the words
    /// naming it.
    Switch(bool, Vec<asked::Part>),
    /// A word the request says is misspelt.
    Respell(String),
    /// "add an alias N for C", "add a git alias N for C".
    Alias {
        name: String,
        command: String,
        git: bool,
    },
}

impl Change {
    /// The change the request read into `parts` spells out, the first kind that fits in the
    /// order of the variants; `None` when it spells out none.
    fn read(parts: &[asked::Part]) -> Option<Self> {
        if let Some((old, new)) = asked::renamed(parts) {
            Some(Self::Rename(old, new))
        } else if let Some((name, command, git)) = asked::alias_added(parts) {
            Some(Self::Alias { name, command, git })
        } else if let Some((name, command)) = asked::target_added(parts) {
            Some(Self::Rule { name, command })
        } else if let Some((line, place)) = asked::line_added(parts) {
            Some(Self::Line(line, place))
        } else if let Some(entry) = asked::entry_added(parts) {
            Some(Self::Entry(entry))
        } else if let Some((from, to)) = asked::replacement(parts) {
            Some(Self::Replace(from, to))
        } else if let Some((on, keys)) = asked::switched(parts) {
            Some(Self::Switch(on, keys))
        } else if let Some((value, keys)) = asked::value_set(parts) {
            Some(Self::Set(value, keys))
        } else {
            asked::misspelled(parts).map(Self::Respell)
        }
    }

    /// The words naming the value a set or a switch changes; `None` for other changes.
    fn keys(&self) -> Option<&[asked::Part]> {
        match self {
            Self::Set(_, keys) | Self::Switch(_, keys) => Some(keys),
            _ => None,
        }
    }

    /// Whether only a file the request names can ground it: a line to place, a rename and a
    /// respelling fit too many files to be looked for.
    fn needs_file(&self) -> bool {
        matches!(self, Self::Rename(..) | Self::Line(..) | Self::Respell(_))
    }
}

impl Edit {
    /// The edit of `path` (its text `text`, LF line breaks) that makes `change`, read from the
    /// request's `parts`: see `change_asked`'s cases.
    fn change_in(
        &self,
        change: &Change,
        parts: &[asked::Part],
        path: &str,
        text: &str,
    ) -> Option<Value> {
        let (old_text, new_text) = match change {
            Change::Rename(old, new) => return renaming(path, text, &old.text, &new.text),
            Change::Alias { name, command, git } => {
                alias_insertion(path, text, name, command, *git)?
            }
            Change::Rule { name, command } => {
                let file = path.rsplit('/').next().unwrap_or(path);
                if !["Makefile", "makefile", "GNUmakefile"].contains(&file)
                    && !file.ends_with(".mk")
                {
                    return None;
                }
                rule_insertion(text, name, command)?
            }
            // A line the file has already is no line to add (see `already_in`).
            Change::Line(line, _) if has_line(text, line) => return None,
            Change::Line(line, place) => insertion(text, line, place)?,
            Change::Entry(entry) if entry.value.is_none() && lists_lines(path, &entry.name) => {
                // A pattern of an ignore file, a requirement: a line of its own, at the end.
                if has_line(text, &entry.key.text) {
                    return None;
                }
                insertion(text, &entry.key.text, &asked::Place::End)?
            }
            Change::Entry(entry) => {
                let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
                let sections =
                    matches!(ext, "toml" | "ini" | "cfg" | "conf") || is_git_config(path);
                let yaml = matches!(ext, "yml" | "yaml");
                sections
                    .then(|| section_insertion(text, entry, ext == "toml"))
                    .flatten()
                    .or_else(|| yaml.then(|| mapping_insertion(text, entry)).flatten())
                    .or_else(|| entry_insertion(text, entry, ext == "py"))?
            }
            Change::Replace(from, to) => {
                if let Some(all) = every_image_tag(path, text, &from.text, &to.text) {
                    return Some(all);
                }
                let hints = asked::hint_words(parts, &[path, &from.text, &to.text]);
                match replaced_in_line(text, &from.text, &to.text, &hints) {
                    Some(change) => change,
                    None => return every_version(path, text, &from.text, &to.text),
                }
            }
            Change::Set(value, keys) => match set_asked(path, text, parts, keys, &value.text) {
                Some(change) => change,
                None => {
                    return every_stage(path, text, keys, &value.text)
                        .or_else(|| every_use(path, text, keys, &value.text))
                        .or_else(|| every_pin(path, text, keys, &value.text));
                }
            },
            Change::Switch(on, keys) => {
                let (line, old) = switch_line(text, keys, *on)?;
                let new = switched_value(old, *on)?;
                (
                    line.trim().to_owned(),
                    with_value(line, old, &new).trim().to_owned(),
                )
            }
            Change::Respell(wrong) => {
                // The right spelling, as the project writes it elsewhere.
                let texts: Vec<String> =
                    super::small_texts(&self.sandbox, self.sandbox.root()).collect();
                let right = asked::respelled(wrong, texts.iter().flat_map(|t| words_of(t)))?;
                return respelling(path, text, wrong, &right);
            }
        };
        (new_text != old_text && text.matches(old_text.as_str()).count() == 1)
            .then(|| json!({"path": path, "old_text": old_text, "new_text": new_text}))
    }
}

/// Whether `request` (its words saying what to change, see `asked::said_words`) speaks of a
/// container image: "image", "docker", "container".
fn speaks_of_docker(request: &str) -> bool {
    asked::said_words(request)
        .iter()
        .take(200)
        .any(|w| ["image", "docker", "container"].contains(&w.as_str()))
}

/// Whether `path` builds or runs a container image: a Dockerfile, a Containerfile, a Compose
/// file.
fn is_docker_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    name.contains("dockerfile")
        || name.contains("containerfile")
        || name.starts_with("docker-compose")
        || name.starts_with("compose.")
}

/// Whether `path` is a lock file a package manager writes (`Cargo.lock`, `shard.lock`,
/// `package-lock.json`, `pnpm-lock.yaml`, `go.sum`, …).
fn is_lock_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    name.ends_with(".lock")
        || name.ends_with("-lock.json")
        || name.ends_with("-lock.yaml")
        || name == "go.sum"
        || name == "npm-shrinkwrap.json"
        || name == "dub.selections.json"
}

/// Whether `path` is a project's history: `CHANGELOG`, `CHANGES`, `HISTORY`, `NEWS`, `RELEASES`
/// (any extension, any case).
pub(crate) fn is_changelog(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = before_dot(name).to_ascii_lowercase();
    [
        "changelog",
        "changes",
        "history",
        "news",
        "releases",
        "release-notes",
        "release_notes",
    ]
    .contains(&stem.as_str())
}

/// Whether `path` is a document by its extension: Markdown (R Markdown's and Quarto's too:
/// `README.Rmd` is the README), reStructuredText, AsciiDoc, plain text, HTML.
pub(crate) fn is_document(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    let ext = file.rsplit_once('.').map_or("", |(_, e)| e);
    matches!(
        ext.to_ascii_lowercase().as_str(),
        "md" | "markdown" | "rst" | "adoc" | "txt" | "html" | "htm" | "rmd" | "qmd"
    )
}

/// A documentation comment's line documenting a parameter — `#' @param top_n Number of …`
/// (roxygen), `* @param {number} [limit=10] How many …` (JSDoc), `@param int $limit …`
/// (PHPDoc), `:param limit: …` (Sphinx) — as the parameter's name and the description on the
/// line.
fn param_doc(line: &str) -> Option<(String, &str)> {
    let t = line.trim_start();
    if !is_comment(line) && !t.starts_with('*') {
        return None;
    }
    let at = t.find("@param").or_else(|| t.find(":param"))?;
    let sphinx = t[at..].starts_with(':');
    let mut rest = t[at + 6..].trim_start();
    // JSDoc's `{type}` and PHPDoc's or Sphinx's type before the name.
    if let Some(after) = rest.strip_prefix('{') {
        rest = after.split_once('}')?.1.trim_start();
    }
    let mut words = rest.splitn(2, char::is_whitespace);
    let mut name = words.next()?;
    let mut description = words.next().unwrap_or("");
    if sphinx {
        let (named, desc) = rest.split_once(':')?;
        name = named.split_whitespace().last()?;
        description = desc;
    } else if !name.starts_with(['$', '[']) && description.trim_start().starts_with('$') {
        // PHPDoc: `@param int $limit …`.
        let mut more = description.trim_start().splitn(2, char::is_whitespace);
        name = more.next()?;
        description = more.next().unwrap_or("");
    }
    // JSDoc's optional `[limit=10]`, PHP's `$limit`.
    let name = name
        .trim_start_matches(['[', '$'])
        .split(['=', ']'])
        .next()?
        .trim();
    (!name.is_empty() && name.chars().all(asked::is_name_char))
        .then(|| (name.to_owned(), description.trim()))
}

/// Whether `path` is a configuration file by its name: TOML, YAML, JSON, INI, `.conf`,
/// `.cfg`, Java properties, a dotenv file, a systemd unit.
fn is_config(path: &str) -> bool {
    crate::tools::settings_named(path, &["service"])
}

/// Whether `path` is a file that lists one entry a line — an ignore file (`.gitignore`,
/// `.dockerignore`, …) or a Python requirements file — and `name`, the collection a request
/// adds an entry to, names it: its file name or its stem, the leading dot aside ("Add *.log to
/// the gitignore", "… to requirements.txt"). Found running `toolmend run` on a Go module
/// (session 30): asked to add a pattern to the gitignore, Qwen2.5-Coder-0.5B called a tool
/// named after the pattern.
fn lists_lines(path: &str, name: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    let ignore = file.starts_with('.') && file.ends_with("ignore");
    let requirements = file.starts_with("requirements") && file.ends_with(".txt");
    let bare = |s: &str| s.trim_start_matches('.').to_ascii_lowercase();
    let stem = bare(file).split('.').next().unwrap_or_default().to_owned();
    (ignore || requirements) && (bare(name) == bare(file) || bare(name) == stem)
}

/// The one word of `request` that is another value of the same kind as `old`, a number (digits,
/// dots, a sign: `0.3.2` for `0.3.1`) or a truth value (`true` for `False`, written as `old`
/// writes its kind: `True`); `None` when there is none or more than one, or `old` is of
/// neither kind.
fn value_named(request: &str, old: &str) -> Option<String> {
    let number = |w: &str| {
        w.chars().any(|c| c.is_ascii_digit())
            && w.chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+'))
    };
    let truth = |w: &str| w.eq_ignore_ascii_case("true") || w.eq_ignore_ascii_case("false");
    let kind: &dyn Fn(&str) -> bool = if number(old) {
        &number
    } else if truth(old) {
        &truth
    } else {
        return None;
    };
    let mut found: Vec<&str> = crate::tools::request_words(request)
        .filter(|w| kind(w) && !w.eq_ignore_ascii_case(old))
        .collect();
    found.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
    let [word] = found[..] else {
        return None;
    };
    Some(if truth(word) && old.starts_with(char::is_uppercase) {
        asked::capitalized(&word.to_lowercase())
    } else if truth(word) {
        word.to_lowercase()
    } else {
        word.to_owned()
    })
}

/// The words of `text`: runs of letters.
fn words_of(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
}

/// The edit of `path` (its text `text`) that writes `right` for the misspelt word `wrong`: the
/// line that holds it, when one line holds it once; every occurrence (`replace_all`) when it
/// stands alone wherever it occurs; `None` when the file does not hold it as a word.
fn respelling(path: &str, text: &str, wrong: &str, right: &str) -> Option<Value> {
    if let Some((old_text, new_text)) = replaced_in_line(text, wrong, right, &[])
        && text.matches(old_text.as_str()).count() == 1
    {
        return Some(json!({"path": path, "old_text": old_text, "new_text": new_text}));
    }
    let alone: usize = text.lines().map(|l| asked::token_at(l, wrong).len()).sum();
    (alone > 0 && alone == text.matches(wrong).count())
        .then(|| json!({"path": path, "old_text": wrong, "new_text": right, "replace_all": true}))
}

/// The characters of a piece of code outside its string literals (`"…"`, `'…'`, `` `…` ``, a
/// backslash escaping the next character), with their byte offsets; the quotes themselves are
/// left out too.
struct Unquoted<'a> {
    chars: std::str::CharIndices<'a>,
    quote: Option<char>,
}

impl<'a> Unquoted<'a> {
    fn new(code: &'a str) -> Self {
        Self {
            chars: code.char_indices(),
            quote: None,
        }
    }

    /// Whether the text read so far ends inside a string.
    fn in_string(&self) -> bool {
        self.quote.is_some()
    }
}

impl Iterator for Unquoted<'_> {
    type Item = (usize, char);

    fn next(&mut self) -> Option<(usize, char)> {
        loop {
            let (at, c) = self.chars.next()?;
            match self.quote {
                Some(_) if c == '\\' => {
                    self.chars.next();
                }
                Some(q) if c == q => self.quote = None,
                Some(_) => {}
                None if matches!(c, '"' | '\'' | '`') => self.quote = Some(c),
                None => return Some((at, c)),
            }
        }
    }
}

/// The top-level pieces of `inner`, the text between a collection literal's brackets, split at
/// its commas outside strings and nested brackets, trimmed, empty ones left out. `None` when a
/// string or a bracket is left open.
fn top_level(inner: &str) -> Option<Vec<&str>> {
    let mut pieces = Vec::new();
    let (mut depth, mut start) = (0u32, 0);
    let mut chars = Unquoted::new(inner);
    for (at, c) in chars.by_ref() {
        match c {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth = depth.checked_sub(1)?,
            ',' if depth == 0 => {
                pieces.push(inner[start..at].trim());
                start = at + 1;
            }
            _ => {}
        }
    }
    if chars.in_string() || depth != 0 {
        return None;
    }
    pieces.push(inner[start..].trim());
    pieces.retain(|p| !p.is_empty());
    Some(pieces)
}

/// The byte offset in `s` of the bracket that closes one opened before it: the first `}`, `]`
/// or `)` outside strings and brackets opened in `s`.
fn closing(s: &str) -> Option<usize> {
    let mut depth = 0u32;
    for (at, c) in Unquoted::new(s) {
        match c {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' if depth == 0 => return Some(at),
            '}' | ']' | ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Where the collection literal assigned to `name` opens on `line`: the byte offset of its `{`
/// or `[` right after `name`, an optional closing quote (a JSON key), `=` or `:` (a type
/// annotation between `:` and `=` allowed: `PRICES: dict[str, float] = {`).
fn literal_open(line: &str, name: &str) -> Option<usize> {
    asked::token_at(line, name).into_iter().find_map(|at| {
        let after = at + name.len();
        let rest = line[after..].trim_start_matches(['"', '\'']).trim_start();
        let value = if let Some(r) = rest.strip_prefix('=') {
            (!r.starts_with('=')).then_some(r)?
        } else if let Some(r) = rest.strip_prefix(':') {
            // A type annotation up to ` = `, else the value itself (a mapping's key).
            match r.find(" = ") {
                Some(eq) if !r[..eq].contains(['{', '(']) => &r[eq + 3..],
                _ => r,
            }
        } else {
            return None;
        };
        let value = value.trim_start();
        value
            .starts_with(['{', '['])
            .then(|| line.len() - value.len())
    })
}

/// The edit that adds `entry` as the last `key = value` line of the one `[name]` section of a
/// TOML (`toml`) or INI file, after the section's last line that is not blank (so before the
/// blank line that parts it from the next header), with the separator its first entry uses
/// (` = ` when it has none). A request may quote the whole line (`` `serde = "1"` ``). In TOML
/// a string value is quoted, a number or truth value stays bare — except in a dependencies
/// table, where a version is a string (`proptest = "1.4"`); INI writes values as they are.
/// `None` when no section or several are so named, the key is already in it, or the request
/// gives no value.
fn section_insertion(text: &str, entry: &asked::Entry, toml: bool) -> Option<(String, String)> {
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let header = format!("[{}]", entry.name);
    let mut heads = (0..lines.len()).filter(|&k| lines[k].trim() == header);
    let k = heads.next()?;
    if heads.next().is_some() {
        return None;
    }
    let end = (k + 1..lines.len())
        .find(|&j| lines[j].trim_start().starts_with('['))
        .unwrap_or(lines.len());
    let last = (k..end).rev().find(|&j| !lines[j].trim().is_empty())?;
    let key_of = |l: &str| {
        l.split_once('=')
            .map(|(key, _)| key.trim().trim_matches(['"', '\'']).to_owned())
    };
    let (key, value) = match &entry.value {
        Some(v) => {
            let t = v.text.trim();
            let bare = !v.quoted
                && (v.is_truth() || t.parse::<f64>().is_ok())
                && !entry.name.ends_with("dependencies");
            let value = if !toml || bare {
                if v.is_truth() {
                    t.to_lowercase()
                } else {
                    t.to_owned()
                }
            } else if t.contains('"') {
                format!("'{t}'")
            } else {
                format!("\"{t}\"")
            };
            (entry.key.text.trim().to_owned(), value)
        }
        // The line quoted whole: as written.
        None if entry.key.quoted => {
            let (key, value) = entry.key.text.split_once('=')?;
            (key.trim().to_owned(), value.trim().to_owned())
        }
        None => return None,
    };
    if key.is_empty() || value.is_empty() || key.contains(['\n', '=', '[']) || value.contains('\n')
    {
        return None;
    }
    let bare_key = key.trim_matches(['"', '\'']);
    if (k + 1..end).any(|j| key_of(lines[j]).as_deref() == Some(bare_key)) {
        return None;
    }
    // The separator the section's first entry writes.
    let sep = (k + 1..end)
        .find_map(|j| {
            let l = lines[j];
            let at = l.find('=')?;
            let before = l[..at].len() - l[..at].trim_end().len();
            let after = l[at + 1..].len() - l[at + 1..].trim_start().len();
            Some(format!(
                "{}={}",
                &l[at - before..at],
                &l[at + 1..at + 1 + after]
            ))
        })
        .unwrap_or_else(|| " = ".to_owned());
    // Indented as the section's first entry is (`\tco = checkout` in a git config).
    let indent = (k + 1..end)
        .map(|j| lines[j])
        .find(|l| l.contains('='))
        .map_or("", |l| &l[..l.len() - l.trim_start().len()]);
    let old_text = lines[k..=last].join("\n");
    let new_text = format!("{old_text}\n{indent}{key}{sep}{value}");
    Some((old_text, new_text))
}

/// Whether `path` is a git configuration file (`.gitconfig`, `gitconfig`, `.git/config`).
fn is_git_config(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.trim_start_matches('.') == "gitconfig"
        || path == ".git/config"
        || path.ends_with("/.git/config")
}

/// Whether `path` is a shell's startup or alias file (`.bashrc`, `.zshrc`, `.profile`,
/// `.bash_aliases`, …), or a shell script.
fn is_shell_file(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    let dotted = file.starts_with('.') && !file[1..].contains('.');
    (dotted && (file.ends_with("rc") || file.contains("profile") || file.contains("aliases")))
        || file.ends_with(".sh")
        || file.ends_with(".bash")
        || file.ends_with(".zsh")
}

/// The edit that adds the alias `name` for `command` to `text`, the file `path`:
///
/// - in a git configuration (see `is_git_config`), or any file with an `[alias]` section when
///   the request says "git alias": the entry `name = command` last in `[alias]` (see
///   `section_insertion`), or a new `[alias]` section at the end when there is none;
/// - else, not for a git alias: the shell's `alias name='command'` after the file's last
///   `alias` line, quoted as that line quotes its command, or at the end of a shell's startup
///   file (see `is_shell_file`) that has no alias yet.
///
/// `None` when the file defines an alias of that name already (a change, not one to add), or
/// the command holds both kinds of quote. Found running `toolmend run` on a folder of dotfiles
/// (session 31): asked "Add an alias gl for 'git log --oneline' to .bashrc.",
/// Qwen2.5-Coder-0.5B answered with the line and called nothing.
fn alias_insertion(
    path: &str,
    text: &str,
    name: &str,
    command: &str,
    git: bool,
) -> Option<(String, String)> {
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let has_section = lines.iter().any(|l| l.trim() == "[alias]");
    if is_git_config(path) || (git && has_section) {
        let part = |t: &str| asked::Part {
            text: t.to_owned(),
            quoted: false,
            opens: false,
            colon: false,
        };
        if has_section {
            let entry = asked::Entry {
                key: part(name),
                value: Some(part(command)),
                name: "alias".to_owned(),
            };
            return section_insertion(text, &entry, false);
        }
        let indent = if lines.iter().any(|l| l.starts_with('\t')) {
            "\t"
        } else {
            "    "
        };
        let last = lines.iter().rposition(|l| !l.trim().is_empty())?;
        let old_text = lines[last].to_owned();
        let new_text = format!("{old_text}\n[alias]\n{indent}{name} = {command}");
        return Some((old_text, new_text));
    }
    if git {
        return None;
    }
    fn alias_of(l: &str) -> Option<(&str, &str)> {
        l.strip_prefix("alias ")
            .and_then(|rest| rest.split_once('='))
            .map(|(n, value)| (n.trim(), value))
    }
    let siblings: Vec<usize> = (0..lines.len())
        .filter(|&k| alias_of(lines[k]).is_some())
        .collect();
    if siblings
        .iter()
        .any(|&k| alias_of(lines[k]).is_some_and(|(n, _)| n == name))
    {
        return None;
    }
    let quote = siblings
        .last()
        .and_then(|&k| alias_of(lines[k]))
        .and_then(|(_, value)| value.chars().next())
        .filter(|c| matches!(c, '\'' | '"'))
        .unwrap_or('\'');
    let quote = [quote, '\'', '"']
        .into_iter()
        .find(|&q| !command.contains(q))?;
    let line = format!("alias {name}={quote}{command}{quote}");
    match siblings.last() {
        Some(&k) => insertion(
            text,
            &line,
            &asked::Place::After(lines[k].trim().to_owned()),
        ),
        None if is_shell_file(path) => insertion(text, &line, &asked::Place::End),
        None => None,
    }
}

/// The edit that adds the Makefile rule `name:` with the recipe line `command` (tab-indented)
/// after the file's last rule, a blank line between, and the name to the `.PHONY:` line when
/// there is one (the rule goes before that line when it is the last). `None` when a rule of
/// that name exists, or the `.PHONY:` line is more than 60 lines above the end.
fn rule_insertion(text: &str, name: &str, command: &str) -> Option<(String, String)> {
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let defines = |l: &str| {
        l.split_once(':').is_some_and(|(targets, rest)| {
            !rest.starts_with('=') && targets.split_whitespace().any(|t| t == name)
        }) && !l.starts_with(['\t', ' ', '#', '.'])
    };
    if lines.iter().any(|l| defines(l)) {
        return None;
    }
    let rule = format!("{name}:\n\t{command}");
    let last = lines.iter().rposition(|l| !l.trim().is_empty())?;
    let phony = lines.iter().rposition(|l| l.starts_with(".PHONY:"));
    Some(match phony {
        Some(p) if p == last => (
            lines[p].to_owned(),
            format!("{rule}\n\n{} {name}", lines[p].trim_end()),
        ),
        Some(p) if last - p <= 60 => {
            let old = lines[p..=last].join("\n");
            let rest = lines[p + 1..=last].join("\n");
            (
                old,
                format!("{} {name}\n{rest}\n\n{rule}", lines[p].trim_end()),
            )
        }
        Some(_) => return None,
        None => (lines[last].to_owned(), format!("{}\n\n{rule}", lines[last])),
    })
}

/// The edit that adds `entry` as the last `key: value` of the one YAML mapping `text` opens
/// with a line `name:` alone (`web:` under `services:` in a Compose file), at the indentation
/// of the mapping's own keys and after everything the mapping holds (a nested block of its last
/// key included). The value is written bare when YAML reads it back as the same text, else in
/// double quotes; a truth value in lower case. A request may quote the whole line
/// (`` `restart: unless-stopped` ``). `None` when no line or several open such a mapping, it is
/// empty or a list, the key is already in it, or the request gives no value.
fn mapping_insertion(text: &str, entry: &asked::Entry) -> Option<(String, String)> {
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let content = |l: &str| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('#')
    };
    // A line's key as YAML writes it: the text before `:` followed by a space or the end.
    let key_of = |l: &str| {
        let t = l.trim();
        let at = t
            .match_indices(':')
            .map(|(at, _)| at)
            .find(|&at| t[at + 1..].is_empty() || t[at + 1..].starts_with([' ', '\t']))?;
        Some(t[..at].trim_matches(['"', '\'']).to_owned())
    };
    let opens = |l: &str| {
        let t = l.split(" #").next().unwrap_or(l).trim_end();
        let t = t.trim_start();
        t.strip_suffix(':')
            .is_some_and(|k| k.trim_matches(['"', '\'']) == entry.name)
    };
    let mut found = (0..lines.len()).filter(|&k| opens(lines[k]));
    let k = found.next()?;
    if found.next().is_some() {
        return None;
    }
    let outer = indent(lines[k]);
    let end = (k + 1..lines.len())
        .find(|&j| content(lines[j]) && indent(lines[j]) <= outer)
        .unwrap_or(lines.len());
    let first = (k + 1..end).find(|&j| content(lines[j]))?;
    let inner = indent(lines[first]);
    if lines[first].trim_start().starts_with('-') {
        return None;
    }
    let last = (first..end).rev().find(|&j| content(lines[j]))?;
    let (key, value) = match &entry.value {
        Some(v) => (entry.key.text.trim().to_owned(), v.text.trim().to_owned()),
        // The line quoted whole: as written.
        None if entry.key.quoted => {
            let (key, value) = entry.key.text.split_once(": ")?;
            (
                key.trim().to_owned(),
                value.trim().trim_matches(['"', '\'']).to_owned(),
            )
        }
        None => return None,
    };
    if key.is_empty() || value.is_empty() || key.contains(['\n', ':', '#']) || value.contains('\n')
    {
        return None;
    }
    if (first..end).any(|j| indent(lines[j]) == inner && key_of(lines[j]).as_deref() == Some(&key))
    {
        return None;
    }
    let truth = ["true", "false"].contains(&value.to_lowercase().as_str());
    let plain = !value.starts_with([
        '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@',
        '`', ' ',
    ]) && !value.contains(": ")
        && !value.contains(" #")
        && !value.ends_with([':', ' ']);
    let value = if truth {
        value.to_lowercase()
    } else if plain {
        value
    } else {
        format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
    };
    let old_text = lines[k..=last].join("\n");
    let new_text = format!("{old_text}\n{}{key}: {value}", " ".repeat(inner));
    Some((old_text, new_text))
}

/// The edit that adds `entry` last to the collection literal the one line of `text` assigning
/// `entry.name` opens, written the way its entries are: the key's quotes (none for a bare
/// key), the separator (`": "`, `" = "`), a string value's quotes, the comma and spacing
/// between entries, a trailing comma; on that line when the literal closes there, else as a
/// line of its own before the closing bracket, at the last entry's indentation. A mapping
/// (`{`) takes an entry with a value, a list (`[`) one without. A truth value is written
/// `True`/`False` in Python (`python`). `None` when no line or several assign the name such a
/// literal, the key is already in it, or the literal's shape is not one of these.
fn entry_insertion(text: &str, entry: &asked::Entry, python: bool) -> Option<(String, String)> {
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let mut found =
        (0..lines.len()).filter_map(|k| Some((k, literal_open(lines[k], &entry.name)?)));
    let (k, open) = found.next()?;
    if found.next().is_some() {
        return None;
    }
    let line = lines[k];
    let mapping = line[open..].starts_with('{');
    if mapping != entry.value.is_some() {
        return None;
    }
    let close = if mapping { '}' } else { ']' };
    // The literal's inner text: up to its closing bracket on this line, else the lines up to
    // the one that opens with it at this line's indentation.
    let same_line = {
        let after = &line[open + 1..];
        closing(after).map(|end| &after[..end])
    };
    let (inner, end_line) = match same_line {
        Some(inner) => (inner.to_owned(), k),
        None if line[open + 1..].trim().is_empty() => {
            let j = (k + 1..lines.len()).find(|&j| {
                lines[j].trim_start().starts_with(close) && indent(lines[j]) == indent(line)
            })?;
            (lines[k + 1..j].join("\n"), j)
        }
        None => return None,
    };
    let pieces = top_level(&inner)?;
    let quote_of = |s: &str| s.chars().next().filter(|c| matches!(c, '"' | '\''));
    let scalar = |v: &asked::Part, q: Option<char>| -> String {
        let t = &v.text;
        if t.parse::<f64>().is_ok() && !v.quoted {
            t.clone()
        } else if v.is_truth() && !v.quoted {
            if python {
                asked::capitalized(&t.to_lowercase())
            } else {
                t.to_lowercase()
            }
        } else {
            let q = q.unwrap_or('"');
            format!("{q}{t}{q}")
        }
    };
    let written = if let Some(value) = &entry.value {
        // The first entry's key quotes, separator and value quotes.
        let (key_quote, sep, value_quote) = match pieces.first() {
            Some(first) => {
                let kq = quote_of(first);
                let key_end = match kq {
                    Some(q) => 1 + first[1..].find(q)? + 1,
                    None => first.find(|c: char| !asked::is_name_char(c))?,
                };
                let rest = &first[key_end..];
                let value_at = rest.find(|c: char| !(c.is_whitespace() || c == ':' || c == '='))?;
                let sep = &rest[..value_at];
                if !sep.contains([':', '=']) {
                    return None;
                }
                (kq, sep.to_owned(), quote_of(&rest[value_at..]))
            }
            None => (Some('"'), ": ".to_owned(), None),
        };
        let key = match key_quote {
            Some(q) => format!("{q}{}{q}", entry.key.text),
            None => entry.key.text.clone(),
        };
        if pieces
            .iter()
            .any(|p| p.starts_with(&key) && p[key.len()..].trim_start().starts_with([':', '=']))
        {
            return None;
        }
        format!("{key}{sep}{}", scalar(value, value_quote))
    } else {
        let item = scalar(&entry.key, pieces.first().and_then(|p| quote_of(p)));
        if pieces.contains(&item.as_str()) {
            return None;
        }
        item
    };
    if end_line == k {
        // On the line: after the last entry, with the literal's own spacing.
        let inner_at = open + 1;
        let trimmed = inner.trim_end();
        let new_inner = if pieces.is_empty() {
            written
        } else {
            // The entries' own spacing after a comma; one entry alone shows none: `, `.
            let tight = pieces.len() > 1 && !inner.contains(", ");
            let space = if tight { "" } else { " " };
            match trimmed.strip_suffix(',') {
                Some(body) => format!("{body},{space}{written},{}", &inner[trimmed.len()..]),
                None => format!("{trimmed},{space}{written}{}", &inner[trimmed.len()..]),
            }
        };
        let new_line = format!(
            "{}{new_inner}{}",
            &line[..inner_at],
            &line[inner_at + inner.len()..]
        );
        return Some((line.trim().to_owned(), new_line.trim().to_owned()));
    }
    // A line of its own after the last entry's line, which gets a comma if it has none.
    let last = (k + 1..end_line)
        .rev()
        .find(|&l| !lines[l].trim().is_empty())?;
    let last_line = lines[last];
    if last_line.trim_start().starts_with(['#', '/']) {
        // A comment: no comma after it.
        return None;
    }
    let trailing = last_line.trim_end().ends_with(',');
    let pad = &last_line[..indent(last_line)];
    let mut new_text = if trailing {
        last_line.to_owned()
    } else {
        format!("{},", last_line.trim_end())
    };
    new_text.push_str(&format!(
        "\n{pad}{written}{}",
        if trailing { "," } else { "" }
    ));
    let mut old_text = last_line.to_owned();
    for l in &lines[last + 1..=end_line] {
        old_text.push('\n');
        old_text.push_str(l);
        new_text.push('\n');
        new_text.push_str(l);
    }
    Some((old_text, new_text))
}

/// The edit of `path` (its text `text`) that renames `old` to `new`: every occurrence of `old`
/// (`replace_all` when there are several), when each is a name of its own — not part of a
/// longer one (`price_of` in `price_of_all`), which the edit's plain text match would rename
/// too; a method's call after a dot (`self.price_of(x)`) is renamed with it. `None` when the
/// file does not hold `old`, holds it inside a longer name, or `old` is the file's own name.
fn renaming(path: &str, text: &str, old: &str, new: &str) -> Option<Value> {
    let ident = asked::is_name_char;
    let joined =
        |c: Option<char>, end: Option<char>| c.is_some_and(ident) && end.is_some_and(ident);
    let total = text.matches(old).count();
    let alone = text
        .match_indices(old)
        .filter(|&(at, _)| {
            !joined(text[..at].chars().next_back(), old.chars().next())
                && !joined(
                    text[at + old.len()..].chars().next(),
                    old.chars().next_back(),
                )
        })
        .count();
    let own_name = path == old || path.rsplit('/').next() == Some(old);
    if total == 0 || alone != total || own_name {
        return None;
    }
    Some(if total == 1 {
        json!({"path": path, "old_text": old, "new_text": new})
    } else {
        json!({"path": path, "old_text": old, "new_text": new, "replace_all": true})
    })
}

/// `old_value` without the quotes around it, when it has them.
fn unquoted(old_value: &str) -> &str {
    match old_value.chars().next() {
        Some(q @ ('"' | '\'')) if old_value.len() >= 2 && old_value.ends_with(q) => {
            &old_value[1..old_value.len() - 1]
        }
        _ => old_value,
    }
}

/// `line` with `old_value`, the value it assigns (a piece of it, as [`assignment`] found it),
/// set to `value`, written the way the line writes it: in the same quotes when it quotes, a
/// version after the same constraint (`>= `, `~> `, `^`) or as the tag of the same image
/// (`photos-web:2.3.0`; not a time's minutes, `10:30`). The value is replaced where it stands,
/// not where its text first occurs (a key may hold it).
fn with_value(line: &str, old_value: &str, value: &str) -> String {
    // A version's constraint stays (`">= 3.1"` → `">= 3.2"`, `"^3.3.2"` → `"^3.4.0"`) when
    // the new value is a bare version.
    let bare = unquoted(old_value);
    let version = bare.trim_start_matches(['>', '<', '=', '~', '^', '!', ' ']);
    let constraint = &bare[..bare.len() - version.len()];
    // So does what comes before a tag (`ghcr.io/kestrel/photos-web:2.3.0` → `…:2.4.0`).
    let tagged = bare
        .rsplit_once(':')
        .filter(|(image, tag)| {
            image.chars().any(char::is_alphabetic)
                && !image.ends_with('/')
                && version_like(tag.trim_start_matches('v'))
        })
        .map(|(image, tag)| (image, tag.starts_with('v')));
    // A range's lower bound is the version replaced, the rest of the range kept (`">= 2.1.0
    // and < 3.0.0"` → `">= 2.3.0 and < 3.0.0"`, `requests>=2.31,<3`: a Gleam feed relay,
    // session 54, where "Require gleam_json 2.3.0 or newer." had been offered an exact pin).
    let head = version
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+')))
        .map_or(version, |end| &version[..end]);
    let rest = &version[head.len()..];
    let range = !rest.is_empty()
        && rest.contains(['<', '>', '='])
        && rest.chars().any(|c| c.is_ascii_digit());
    let value = if !constraint.trim().is_empty() && version_like(version) && version_like(value) {
        format!("{constraint}{value}")
    } else if !constraint.trim().is_empty() && range && version_like(head) && version_like(value) {
        format!("{constraint}{value}{rest}")
    } else if let Some((image, v)) = tagged
        && version_like(value.trim_start_matches('v'))
    {
        let value = value.trim_start_matches('v');
        format!("{image}:{}{value}", if v { "v" } else { "" })
    } else if let Some(suffix) = literal_suffix(bare)
        && !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == '_')
    {
        // A number's type stays (`10L` → `30L`: a Kotlin/Gradle application, session 40,
        // where `const val DEFAULT_TIMEOUT_SECONDS = 30` would no longer be a `Long`).
        format!("{value}{suffix}")
    } else {
        value.to_owned()
    };
    let value = value.as_str();
    let new_value = match old_value.chars().next() {
        Some(q @ ('"' | '\'')) if unquoted(old_value).len() + 2 == old_value.len() => {
            format!("{q}{value}{q}")
        }
        _ => value.to_owned(),
    };
    let at = old_value.as_ptr() as usize - line.as_ptr() as usize;
    format!(
        "{}{new_value}{}",
        &line[..at],
        &line[at + old_value.len()..]
    )
}

/// The type suffix of a number literal (`L` of Kotlin's and Java's `10L`, `UL` of C's `10UL`,
/// `f` of `1.5f`, `u64` of Rust's `8u64`): letters after digits that give the number's type
/// in code, not a unit (`15m`, `2g` and `10s` are durations and sizes whose letter the request's
/// words would have to give). `None` for anything else.
fn literal_suffix(value: &str) -> Option<&str> {
    let digits = value.find(|c: char| !(c.is_ascii_digit() || c == '_' || c == '.'))?;
    if digits == 0 || !value.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let suffix = &value[digits..];
    let rust = [
        "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
        "f32", "f64",
    ];
    let c_like = [
        "L", "l", "LL", "ll", "u", "U", "UL", "ul", "ULL", "ull", "f", "F",
    ];
    (rust.contains(&suffix) || c_like.contains(&suffix)).then_some(suffix.trim_start_matches('_'))
}

/// The edit that puts `new` on a line of its own at `place` in `text`, indented like the line it
/// goes next to. The old text is that line and, when the new line goes between two lines, the
/// other one too: once made, the edit's old text is gone, so sending it again changes nothing
/// (a small model sends a change it made again). `None` when no line, or more than one, reads
/// the heading it goes under or over.
fn insertion(text: &str, new: &str, place: &asked::Place) -> Option<(String, String)> {
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let filled: Vec<usize> = (0..lines.len())
        .filter(|&k| !lines[k].trim().is_empty())
        .collect();
    let one = |h: &str| {
        let mut found = filled.iter().filter(|&&k| lines[k].trim() == h);
        let k = *found.next()?;
        found.next().is_none().then_some(k)
    };
    // The new line goes right after line `k` (`true`) or right before it.
    let (k, after) = match place {
        asked::Place::After(h) => (one(h)?, true),
        asked::Place::Before(h) => (one(h)?, false),
        asked::Place::End => (*filled.last()?, true),
        asked::Place::Start => (*filled.first()?, false),
    };
    let line = lines[k];
    let indent = &line[..line.len() - line.trim_start().len()];
    let added = format!("{indent}{new}");
    Some(if after {
        match lines.get(k + 1) {
            Some(next) => (
                format!("{line}\n{next}"),
                format!("{line}\n{added}\n{next}"),
            ),
            None => (line.to_owned(), format!("{line}\n{added}")),
        }
    } else {
        match k.checked_sub(1).map(|p| lines[p]) {
            Some(prev) => (
                format!("{prev}\n{line}"),
                format!("{prev}\n{added}\n{line}"),
            ),
            None => (line.to_owned(), format!("{added}\n{line}")),
        }
    })
}

/// The edit that replaces `from` with `to` on the one line of `text` holding `from` as a token
/// of its own ([`asked::token_at`]), once; of several such lines, the one holding the most of
/// `hints` (lowercase words of the request), when one holds more than every other.
fn replaced_in_line(
    text: &str,
    from: &str,
    to: &str,
    hints: &[String],
) -> Option<(String, String)> {
    let candidates: Vec<&str> = text
        .lines()
        .filter(|l| !asked::token_at(l, from).is_empty())
        .collect();
    let score = |l: &str| {
        let lower = l.to_lowercase();
        hints.iter().filter(|h| lower.contains(h.as_str())).count()
    };
    let line = match candidates[..] {
        [one] => one,
        [] => return None,
        _ => {
            let best = candidates.iter().map(|l| score(l)).max()?;
            let mut top = candidates.iter().filter(|l| score(l) == best);
            let line = top.next()?;
            if best == 0 || top.next().is_some() {
                return None;
            }
            *line
        }
    };
    let [at] = asked::token_at(line, from)[..] else {
        return None;
    };
    let new_line = format!("{}{to}{}", &line[..at], &line[at + from.len()..]);
    Some((line.trim().to_owned(), new_line.trim().to_owned()))
}

/// A version written with two dots or more (`2.109.1`) that `text` writes on several lines,
/// each time as a whole token: the edit replacing every one with `to`, another such version.
/// Found with a D log shipper (session 55): "Move CI's newest DMD from 2.109.1 to 2.110.0;
/// coverage should still be uploaded from that job." was offered no change, the matrix's
/// `- dmd-2.109.1` and the coverage step's `if: matrix.dc == 'dmd-2.109.1'` both holding it.
fn every_version(path: &str, text: &str, from: &str, to: &str) -> Option<Value> {
    let version = |v: &str| version_like(v) && v.matches('.').count() >= 2 && !v.ends_with('.');
    if !version(from) || !version(to) {
        return None;
    }
    let tokens: usize = text.lines().map(|l| asked::token_at(l, from).len()).sum();
    (tokens >= 2 && text.matches(from).count() == tokens)
        .then(|| json!({"path": path, "old_text": from, "new_text": to, "replace_all": true}))
}

/// The edit that sets `value` on the one line of `text` assigning one of `keys` (words of the
/// request before "to"; `version` also names `__version__`), its value written the way the line
/// writes it. `None` when no line or several assign them, or the line already holds `value`.
/// For a request read into `parts` (none in tests of the keys alone), in the file at `path`:
/// not a line its words contradict — a value
/// lower than the line's for "raise" (`increase`, `bump`, `upgrade`), higher for "lower"
/// (`decrease`, `reduce`), or a key ending in a unit other than the thing the request counts
/// ("50 notes per page" is no `max-note-bytes`) — and within a call's arguments, the number
/// after a unit of time (`const Duration(seconds: 45)`: 45), a number replacing no whole call.
fn set_asked(
    path: &str,
    text: &str,
    parts: &[asked::Part],
    keys: &[asked::Part],
    value: &str,
) -> Option<(String, String)> {
    // A version written with a leading `v` ("Upgrade go-redis to v9.6.1.") is found as the
    // version, and written as the line writes its own: go.mod's `v9.5.3` keeps its `v` (a Go
    // job worker, session 53: offered no change).
    let bare = value
        .strip_prefix(['v', 'V'])
        .filter(|b| b.starts_with(|c: char| c.is_ascii_digit()) && version_like(b));
    let (line, old_value, value) = match bare.and_then(|b| value_line(text, keys, b).zip(Some(b))) {
        Some(((line, old), b)) => {
            let value = if unquoted(old).starts_with(['v', 'V']) {
                value
            } else {
                b
            };
            (line, old, value)
        }
        None => {
            let (line, old) = value_line(text, keys, value)?;
            (line, old, value)
        }
    };
    let number = !value.is_empty() && value.chars().all(|c| c.is_ascii_digit() || c == '.');
    // A name the file sets to a number elsewhere stands for that number: the line setting it
    // is the one to change (a Gleam feed relay, session 54: "Change the built-in default poll
    // interval to 360 seconds." was offered `interval_seconds: default_poll_interval_seconds,`
    // → `interval_seconds: 360,`, not `pub const default_poll_interval_seconds = 270`).
    let (line, old_value) = match number.then(|| set_elsewhere(text, line, old_value)) {
        Some(Some(set)) => set,
        _ => (line, old_value),
    };
    let old_value = if number && old_value.contains('(') {
        call_number(old_value, keys)?
    } else {
        old_value
    };
    if contradicted(parts, line, old_value, value) || !names_subject(path, text, line, keys, value)
    {
        return None;
    }
    let value = match keyed_number(line) {
        Some((name, old)) if std::ptr::eq(old, old_value) => in_key_unit(name, keys, value),
        _ => in_unit(unquoted(old_value), keys, value),
    };
    // The value already (`21.` ending a sentence, for 21), or a comment's words: no setting
    // to change. Found with a Clojure service (session 47): "Change CI to use Java 21." offered
    // to drop the `.` of the comment `# … the Docker image itself runs on Java 21.`.
    let bare_old = unquoted(old_value).trim_end_matches(['.', ',', ';', ':']);
    if unquoted(old_value) == value || bare_old == value || is_comment(line) {
        return None;
    }
    Some((
        line.trim().to_owned(),
        with_value(line, old_value, &value).trim().to_owned(),
    ))
}

/// The line of `text` other than `line` that sets `name`, a name in code (`default_poll_
/// interval_seconds`), to a number, with the number as written; `None` when `name` is no name
/// or no such line, or more than one, sets it.
fn set_elsewhere<'t>(text: &'t str, line: &str, name: &str) -> Option<(&'t str, &'t str)> {
    let ident = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.chars().count() >= 3
        && !["true", "false", "null", "nil", "None", "undefined"].contains(&name);
    if !ident {
        return None;
    }
    let mut found = text
        .lines()
        .filter(|l| !std::ptr::eq(*l, line) && !is_comment(l))
        .filter_map(|l| assignment(l, name))
        .filter(|(_, v)| {
            v.starts_with(|c: char| c.is_ascii_digit())
                && v.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_')
        });
    match (found.next(), found.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

/// The number inside `call`, a value that calls something (`const Duration(seconds: 45)`), set
/// as the request's: the one after a unit of time's name and `:` or `=` (`seconds: 45`), when
/// the request names that unit. `None` for any other call: a number replaces none
/// whole (a Dart package, session 44: "Change the default request timeout to 60 seconds."
/// offered `this.timeout = 60`).
fn call_number<'t>(call: &'t str, keys: &[asked::Part]) -> Option<&'t str> {
    let asked_unit = unit_of(keys);
    let mut hits = Vec::new();
    for (at, _) in call.match_indices([':', '=']) {
        let name_start = asked::run_start(call[..at].trim_end(), |c| c.is_ascii_alphabetic());
        let name = call[name_start..at].trim_end();
        let Some(unit) = crate::tools::unit_named(name) else {
            continue;
        };
        let rest = &call[at + 1..];
        let digits_at = at + 1 + (rest.len() - rest.trim_start().len());
        let len = call[digits_at..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(call.len() - digits_at);
        if len > 0 && asked_unit == Some(unit) {
            hits.push(&call[digits_at..digits_at + len]);
        }
    }
    match hits[..] {
        [one] => Some(one),
        _ => None,
    }
}

/// Whether `line` of `text` (the file at `path`), setting a version written with dots, names
/// what the version is of — or the line before it does (`- name: community.docker` above
/// `version: 3.8.1`), or the file's name (`Chart.yaml`'s `version: 0.4.2` for "Bump the chart
/// version to 0.5.0."), or the line is the bare version alone (`.nvmrc`): one of
/// the words of `keys` (fillers, `version` and the workspace's own names aside), when they hold
/// one. Found with a Scala/sbt service (session 44): "Upgrade the project to Scala 2.13.14."
/// offered `sbt.version=1.9.8`.
fn names_subject(path: &str, text: &str, line: &str, keys: &[asked::Part], value: &str) -> bool {
    let bare = line.trim().trim_start_matches(['v', 'V']);
    if !(version_like(value) && value.contains('.')) {
        return true;
    }
    let subjects: Vec<String> = key_words(keys)
        .into_iter()
        .filter(|w| {
            w.chars().count() >= 2
                && ![
                    "version", "versions", "default", "minimum", "maximum", "min", "max",
                ]
                .contains(&w.as_str())
                && !crate::tools::WORKSPACE_WORDS.contains(&w.as_str())
                // What a project is called in Ruby, Go, Ansible, a Neovim plugin: "Bump the
                // gem version to 0.5.0." is `VERSION = "0.4.0"` in `version.rb`.
                && !["gem", "module", "plugin", "role", "extension", "service"]
                    .contains(&w.as_str())
        })
        .collect();
    let file = path.rsplit('/').next().unwrap_or(path);
    // The bare version alone (`.nvmrc`, `.swift-version`): the version of what the file is
    // named for, when the request names a subject (a Swift/Vapor API, session 56: "Require
    // at least Vapor 4.110.1 in the package manifest." was offered `.swift-version`'s
    // `5.10.1` → `4.110.1`, and Qwen2.5-Coder-0.5B made it).
    if version_like(bare) {
        let named = file.to_lowercase();
        let named = named.trim_start_matches('.');
        // (A file whose name says no tool's, any.)
        let tool = match named {
            "nvmrc" | "node-version" => Some("node"),
            _ => named.strip_suffix("-version"),
        };
        return tool.is_none_or(|tool| {
            subjects.is_empty()
                || subjects
                    .iter()
                    .any(|w| w == tool || (tool == "node" && w == "nodejs"))
        });
    }
    let before = line_before(text, line).unwrap_or_default();
    let lower = format!("{file}\n{before}\n{line}").to_lowercase();
    subjects.is_empty() || subjects.iter().any(|w| lower.contains(w.as_str()))
}

/// Whether the request read into `parts` contradicts setting `value` over `old` on `line`:
/// see [`set_asked`].
fn contradicted(parts: &[asked::Part], line: &str, old: &str, value: &str) -> bool {
    let Some(verb) = parts.first() else {
        return false;
    };
    // Up or down: versions and numbers compared part by part.
    let nums = |v: &str| -> Option<Vec<u64>> {
        let v = unquoted(v).trim_start_matches(['>', '<', '=', '~', '^', '!', ' ', 'v', 'V']);
        v.split('.').map(|p| p.parse::<u64>().ok()).collect()
    };
    if let (Some(old), Some(new)) = (nums(old), nums(value)) {
        let up = verb.is_any(&["raise", "increase", "bump", "upgrade"]);
        let down = verb.is_any(&["lower", "decrease", "reduce", "downgrade"]);
        if (up && new < old) || (down && new > old) {
            return true;
        }
    }
    // The thing counted after the value ("50 notes") against a key ending in a unit
    // (`max-note-bytes`).
    let after = parts
        .iter()
        .position(|p| p.text == value)
        .and_then(|at| parts.get(at + 1))
        .map(|p| p.text.to_lowercase());
    let name = line.split(['=', ':']).next().unwrap_or_default();
    let last = crate::tools::name_words(&name.trim().replace(['.', '-'], "_"))
        .last()
        .map(|w| w.to_lowercase());
    let unit = |w: &str| crate::tools::unit_named(w).is_some() || ["bytes", "byte"].contains(&w);
    // Or the old value's own unit letters (`90d`).
    let last = match unit_letters(unquoted(old)) {
        Some(letters) if value.chars().all(|c| c.is_ascii_digit()) => Some(letters.to_lowercase()),
        _ => last.filter(|l| unit(l)),
    };
    let unit = |w: &str| {
        unit(w)
            || crate::tools::UNITS
                .iter()
                .any(|(_, letters)| letters.contains(&w))
    };
    // A rate names its unit after "per": "200 requests per minute" is
    // `DEFAULT_RATE_LIMIT_PER_MINUTE` (a Crystal web service, session 53).
    let at = parts.iter().position(|p| p.text == value);
    let per_unit = at
        .and_then(|at| parts.get(at + 2).zip(parts.get(at + 3)))
        .filter(|(per, _)| per.is("per"))
        .map(|(_, u)| u.text.to_lowercase());
    if let (Some(u), Some(last)) = (&per_unit, &last)
        && crate::tools::same_word(u, last)
    {
        return false;
    }
    matches!((after, last), (Some(after), Some(last))
        if unit(&last)
            && after.chars().all(char::is_alphabetic)
            && !unit(&after)
            && !crate::tools::same_word(&after, &last)
            && !["per", "and", "or", "in", "for", "by", "of", "at"].contains(&after.as_str()))
}

/// Whether a name's `parts` (lower case) are named by `words` (the request's words naming what
/// is set): each word stands for a part — as itself or its plural, as the start of it (`max`
/// for "maximum"), or as a short form code writes (`DB_PORT` for "Change the database port to
/// 3307.": a PHP library's .env, session 39) — or every part after the first (a prefix) stands
/// for a word, two different words at least (`DB_DATABASE` holds "database" twice).
fn parts_named(parts: &[String], words: &[String]) -> bool {
    let stands_for = |p: &String, w: &String| {
        crate::tools::same_word(p, w)
            || (p.len() >= 3 && w.starts_with(p.as_str()))
            || crate::tools::abbreviates(p, w)
    };
    // Two words side by side may be one part (`jobservice` for "job service"), and "number"
    // stands for a bound or a count (`max_job_workers` for "the number of job service
    // workers": an Ansible role, session 44).
    let joined = |p: &String| {
        words.windows(2).any(|w| {
            p.len() == w[0].len() + w[1].len()
                && p.starts_with(w[0].as_str())
                && p.ends_with(w[1].as_str())
        })
    };
    // And a size or a limit is a bound (`DEFAULT_BATCH_MAX_LINES` for "the built-in default
    // batch size to 750 lines": a Rust workspace, session 53).
    let counted = |p: &String| {
        (["max", "num", "count", "total"].contains(&p.as_str())
            && words.iter().any(|w| w == "number"))
            || (p == "max" && words.iter().any(|w| w == "size" || w == "limit"))
    };
    let all_words = words.iter().all(|w| parts.iter().any(|p| stands_for(p, w)));
    let part_held = |p: &String| words.iter().any(|w| stands_for(p, w)) || joined(p) || counted(p);
    let words_held = words
        .iter()
        .filter(|w| parts.iter().any(|p| stands_for(p, w)))
        .count();
    let all_parts = parts.len() >= 2 && parts[1..].iter().all(part_held) && words_held >= 2;
    // A bound's prefix and one word: `maxRetries` for "the default number of retries" (a
    // Swift package, session 42).
    // Not a bound the request contradicts ("the minimum stay" is no `MAX_NIGHTS`).
    let other_bound = |first: &str| {
        let other = match first {
            "max" => "min",
            "min" => "max",
            _ => return false,
        };
        words.iter().any(|w| w.starts_with(other))
    };
    let bound = matches!(parts, [first, second]
        if ["max", "min", "num", "total"].contains(&first.as_str())
            && part_held(second)
            && !other_bound(first));
    all_words || all_parts || bound
}

/// `word` with its first letter in capitals (`default` → `Default`).
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase()
            .chain(chars.flat_map(char::to_lowercase))
            .collect()
    })
}

/// Whether `old`, the value a line assigns, can take `value`: a number does not replace an
/// expression without one (`var loan = new Loan(memberId, …)` is no setting of "the loan
/// period": a .NET API, session 40, where "Change the loan period to 28 days." offered `var
/// loan = 28;`). Anything else can.
fn of_kind(old: &str, value: &str) -> bool {
    // A list or a map is no single value's (a Perl distribution, session 52: "Update the perl
    // base image to 5.40." offered the CI matrix's `perl: ['5.24', …, '5.40']` → `perl: 5.40`).
    if old.trim_start().starts_with(['[', '{']) && !value.trim_start().starts_with(['[', '{']) {
        return false;
    }
    let number = !value.is_empty() && value.chars().all(|c| c.is_ascii_digit() || c == '.');
    // Nor an image's name and a tag that is more than a version, which a number would replace
    // whole (a Go job worker, session 53: "Build the Docker image with Go 1.24.2." offered the
    // Compose file's `image: redis:7.2.5-alpine` as `image: 1.24.2`); a tag that is a version
    // alone is replaced keeping the name (see `with_value`).
    let image_ref = |v: &str| {
        let v = unquoted(v);
        v.split_once(':').is_some_and(|(name, tag)| {
            !name.is_empty()
                && !tag.is_empty()
                && name.starts_with(|c: char| c.is_ascii_alphabetic())
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '-' | '_'))
                && !tag.starts_with('/')
                && !version_like(tag.trim_start_matches('v'))
        })
    };
    if number && image_ref(old) {
        return false;
    }
    // A version of three parts or more is not a whole number's (CMakePresets.json's schema
    // `"version": 6` is no project version: a C++/CMake daemon, session 41).
    if number && value.matches('.').count() >= 2 && !unquoted(old).contains('.') {
        return false;
    }
    // Nor a string of words: `let line = "\(…)…"` is no line length (a Swift package,
    // session 42: "Make the linter warn at a line length of 100.").
    let bare = unquoted(old);
    if number
        && bare.len() < old.trim().len()
        && !bare
            .trim_start_matches(['v', 'V', '>', '<', '=', '~', '^', '!', ' '])
            .starts_with(|c: char| c.is_ascii_digit())
    {
        return false;
    }
    // Nor a switch: `vim.g.loaded_focus = true` is set to no 50 (a Neovim plugin, session 43:
    // "Make focus sessions last 50 minutes by default." found `focus` in its name). A 0 or a 1
    // may stand for one.
    if number
        && !["0", "1"].contains(&value)
        && ["true", "false"].contains(&bare.to_ascii_lowercase().as_str())
    {
        return false;
    }
    // Nor a type (`idleTimeout: FiniteDuration,` of a case class), a name of a value held
    // elsewhere (`final policy = config.retry;`) or YAML's block scalar (`command: >-`): a
    // Scala service, a Dart package and an Ansible role, session 44, where "Raise the
    // server's default idle timeout to 90 seconds." offered `idleTimeout: 90,`.
    let word = bare.trim_end_matches([',', ';']);
    // (Python's `None` and the like are values.)
    let literal = [
        "None",
        "Nil",
        "Null",
        "True",
        "False",
        "NaN",
        "Infinity",
        "Undefined",
    ];
    let camel_type = !literal.contains(&word)
        && word.starts_with(|c: char| c.is_ascii_uppercase())
        && word.chars().any(|c| c.is_ascii_lowercase())
        && word.chars().all(|c| c.is_ascii_alphanumeric());
    let reference = word.contains('.')
        && word.starts_with(|c: char| c.is_ascii_lowercase())
        && word
            .split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphabetic() || c == '_'));
    let block_scalar = [">", ">-", ">+", "|", "|-", "|+"].contains(&word);
    // A primitive type's name is a type too (a Zig struct's field `max_series: usize,`: a
    // Zig service, session 49, where "Let zest keep up to 50000 series by default." in
    // `src/registry.zig` offered `max_series: 50000,`).
    let primitive = [
        "usize",
        "isize",
        "u8",
        "u16",
        "u32",
        "u64",
        "u128",
        "i8",
        "i16",
        "i32",
        "i64",
        "i128",
        "f16",
        "f32",
        "f64",
        "f128",
        "int",
        "uint",
        "long",
        "short",
        "float",
        "double",
        "bool",
        "byte",
        "char",
        "str",
        "string",
        "number",
        "integer",
        "comptime_int",
    ]
    .contains(&word);
    // An empty collection's literal or constructor is no number's place either, whatever
    // its type's name holds (`level = Float64[]`: a Julia package, session 51, where "allow
    // the water level to change by up to 0.6 m …" offered `level = 0.6`).
    let empty = ["[]", "()", "{}"].iter().any(|e| word.ends_with(e));
    // Nor a one-letter capital, a variable or a type parameter (Erlang's `attempts => A,`: an
    // Erlang/OTP service, session 51, where "Lower the default number of delivery attempts
    // to 10." offered `attempts => 10,`); nor, for a version with dots, a word without a digit
    // (`KILN_SIGNING_SECRET: compose-secret-change-me` for "Bump kiln to 1.5.0 …").
    let letter = word.len() == 1 && word.starts_with(|c: char| c.is_ascii_uppercase());
    if letter
        || (number
            && value.contains('.')
            && value.split('.').count() >= 3
            && !bare.chars().any(|c| c.is_ascii_digit()))
    {
        return false;
    }
    // Nor a constant's name (`window = DEFAULT_WINDOW,` of a keyword argument: the Julia
    // package, where `const DEFAULT_WINDOW = 48` sets it).
    let constant = word.chars().any(|c| c.is_ascii_uppercase())
        && word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && (word.contains('_') || word.len() >= 4);
    // Nor a variable's or a parameter's name, camelCase or snake_case (`max: poolSize,` of a
    // connection's options: a Deno uptime checker, session 54, where "In production, give
    // probes up to 6 seconds to respond …" offered `max: 6,` in `src/store.ts`).
    let variable = word.starts_with(|c: char| c.is_ascii_lowercase())
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && (word.contains('_') || word.chars().any(|c| c.is_ascii_uppercase()));
    if number
        && (camel_type || reference || block_scalar || primitive || empty || constant || variable)
    {
        return false;
    }
    // A percentage replaces a percentage or a number, not a word (`target: auto` beside
    // `target: 80%` in codecov.yml for "Raise the overall coverage target on Codecov to 85%.":
    // an R package, session 49, offered no change).
    if let Some(n) = value.strip_suffix('%')
        && n.parse::<f64>().is_ok()
    {
        let b = bare.trim_end_matches([',', ';']);
        if b.strip_suffix('%').unwrap_or(b).parse::<f64>().is_err() {
            return false;
        }
    }
    // Nor a block's opening (`M.defaults = {`: a Lua plugin, session 42).
    if !value.starts_with(['{', '['])
        && old.trim().starts_with(['{', '['])
        && !old.contains(['}', ']'])
    {
        return false;
    }
    !number
        || old.chars().any(|c| c.is_ascii_digit())
        // (A literal in braces is an expression too: Zig's `.{}`, an empty map's `{}`.)
        || !(old.contains(['(', '{']) || unquoted(old).contains(char::is_whitespace))
}

/// The unit ([`crate::tools::UNITS`]) a word of `keys` names (`minutes` of "Poll for updates
/// every 30 minutes."), the last such word.
fn unit_of(keys: &[asked::Part]) -> Option<usize> {
    keys.iter().rev().find_map(|k| {
        (!k.quoted)
            .then(|| crate::tools::unit_named(&k.text))
            .flatten()
    })
}

/// The letters after the number of `value` (`m` of `15m`, `GB` of `2GB`) when they write a
/// unit of [`crate::tools::UNITS`], case aside; `None` for anything else.
fn unit_letters(value: &str) -> Option<&str> {
    let at = value.find(|c: char| !c.is_ascii_digit())?;
    let letters = &value[at..];
    (at > 0
        && crate::tools::UNITS
            .iter()
            .any(|(_, l)| l.contains(&letters.to_lowercase().as_str())))
    .then_some(letters)
}

/// `value` (a whole number the request gives in the unit one of `keys` names) written in the
/// unit letters of `old` (the value it replaces, quotes aside): `30` in minutes over `15m` is
/// `30m`; over `15s`, seconds, the unit the request names in the letter the first of its
/// letters is (`30m`), capitals as `old` writes them. A unit of another kind (a size over a
/// duration), an old value without letters or a value that is no whole number: `value` as
/// given.
fn in_unit(old: &str, keys: &[asked::Part], value: &str) -> String {
    let (Some(unit), Some(letters)) = (unit_of(keys), unit_letters(old)) else {
        return value.to_owned();
    };
    if value.is_empty() || !value.chars().all(|c| c.is_ascii_digit()) {
        return value.to_owned();
    }
    let units = crate::tools::UNITS;
    let lower = letters.to_lowercase();
    let time = crate::tools::is_time_unit;
    // The units the old letters may write (`m`: minutes or megabytes), of the request's kind.
    let same_kind = units
        .iter()
        .enumerate()
        .any(|(u, (_, l))| l.contains(&lower.as_str()) && time(u) == time(unit));
    if !same_kind {
        return value.to_owned();
    }
    let written = if units[unit].1.contains(&lower.as_str()) {
        letters.to_owned()
    } else if letters.chars().all(|c| c.is_ascii_uppercase()) {
        units[unit].1[0].to_uppercase()
    } else {
        units[unit].1[0].to_owned()
    };
    format!("{value}{written}")
}

/// The words of `keys` (fillers and single letters aside) in lower case, split at `_` and `-`:
/// what a key's parts are matched with.
fn key_words(keys: &[asked::Part]) -> Vec<String> {
    keys.iter()
        .filter(|k| asked::is_value(k) && k.text.chars().count() >= 2)
        .flat_map(|k| dashed_parts(&k.text))
        .collect()
}

/// The parts of `name` split at `_` and `-`, lower case, empty ones aside: `MAX_NIGHTS` →
/// `max`, `nights`; `default-page-size` → `default`, `page`, `size`.
fn dashed_parts(name: &str) -> Vec<String> {
    name.split(['_', '-'])
        .filter(|p| !p.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The request's words (`keys`) that may name a key by themselves: values, not fillers, of two
/// characters or more, trimmed.
fn value_keys(keys: &[asked::Part]) -> impl Iterator<Item = &str> {
    keys.iter()
        .filter(|k| asked::is_value(k))
        .map(|k| k.text.trim())
        .filter(|k| k.chars().count() >= 2)
}

/// The names `n` words of `keys` side by side make (fillers, quoted words and words not of
/// letters and digits break a run), joined as code writes them, lower case: `pool_size`,
/// `pool-size`, `poolsize` (for `poolSize`, `PoolSize`, matched case aside).
fn phrase_keys(keys: &[asked::Part], n: usize) -> Vec<String> {
    let mut out = Vec::new();
    for run in keys.windows(n) {
        let word = |k: &asked::Part| {
            asked::is_value(k) && !k.quoted && k.text.chars().all(char::is_alphanumeric)
        };
        if !run.iter().all(word) {
            continue;
        }
        let words: Vec<String> = run.iter().map(|k| k.text.to_lowercase()).collect();
        for sep in ["_", "-", ""] {
            out.push(words.join(sep));
        }
    }
    out
}

/// The value `line` gives the key `name` (lower case) anywhere in it — the name as a whole
/// token, case aside, then `:` or `=` (not `::`, `==`, `=>`), then the value up to a `,`, `)`,
/// `]`, `}` or `;` (a quoted one whole), when it is a literal: `max_attempts: 3` in `use
/// Oban.Worker, queue: :mailers, max_attempts: 3`, `max_retries=3` in
/// `@retry(max_retries=3, backoff=2)`.
pub(crate) fn keyword_arg<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let lower = line.to_ascii_lowercase();
    // A field set through `this.` or `self.` is the name's too (Dart's `this.maxAttempts = 3,`
    // in a constructor's parameters: a Dart package, session 45).
    let own = ["this.", "self."].map(|p| format!("{p}{name}"));
    let ats = asked::token_at(&lower, name)
        .into_iter()
        .map(|at| at + name.len())
        .chain(own.iter().flat_map(|t| {
            asked::token_at(&lower, t)
                .into_iter()
                .map(|at| at + t.len())
        }));
    ats.into_iter().find_map(|end| {
        let after = &line[end..];
        let after = after.strip_prefix(['"', '\'']).unwrap_or(after);
        let rest = after.trim_start();
        let sep = rest.chars().next()?;
        if !matches!(sep, ':' | '=') || rest[1..].starts_with([':', '=', '>']) {
            return None;
        }
        let mut value = rest[1..].trim_start();
        if sep == ':' {
            // A type, not a value: `maxRetries: Int = 3` sets 3; `public var timeoutSeconds:
            // TimeInterval` sets nothing (a Swift package, session 42: "Change the default
            // request timeout to 30 seconds." offered `public var timeoutSeconds: 30`).
            let end = value.find([',', ')', ';']).unwrap_or(value.len());
            match value[..end].find('=') {
                Some(eq) if is_type(&value[..eq]) && !value[eq + 1..].starts_with(['=', '>']) => {
                    value = value[eq + 1..].trim_start();
                }
                None if super::snippet::declared(line).0.len() < line.trim_start().len()
                    && is_type(&value[..end]) =>
                {
                    return None;
                }
                _ => {}
            }
        }
        let start = line.len() - value.len();
        let len = match value.chars().next()? {
            q @ ('"' | '\'') => value[1..].find(q)? + 2,
            _ => value.find([',', ')', ']', '}', ';']).unwrap_or(value.len()),
        };
        let v = line[start..start + len].trim_end();
        // A literal: quoted, or one word that opens no block and calls nothing (not
        // `DEFAULT_TIMEOUT_SECONDS * 1000`, not `"LogLevel": {`).
        let literal = v.starts_with(['"', '\''])
            || (!v.contains(char::is_whitespace) && !v.contains(['(', '{', '[']));
        // Not the name itself: `self.timeoutSeconds = timeoutSeconds` passes a parameter on.
        (!v.is_empty() && literal && !v.eq_ignore_ascii_case(name)).then_some(v)
    })
}

/// The name a `line` assigns and the bare whole number it assigns (`RestartSec=10`,
/// `interval_ms = 2000`, `"timeoutMs": 500,`), quotes and a list's `- ` aside.
fn keyed_number(line: &str) -> Option<(&str, &str)> {
    let bare = line.trim_start().trim_start_matches("- ").trim_start();
    // A binding's keyword before the name: OCaml's `let forecast_timeout_ms = 6000` (an
    // OCaml/dune project, session 49: "Set forecast_timeout_ms to 3 seconds." offered `= 3`).
    let bare = ["let ", "const ", "var ", "val "]
        .iter()
        .find_map(|k| bare.strip_prefix(k))
        .unwrap_or(bare)
        .trim_start();
    let bare = bare.trim_start_matches(['"', '\'']);
    let end = bare
        .find(|c: char| !(asked::is_name_char(c) || c == '-' || c == '.'))
        .unwrap_or(bare.len());
    let name = &bare[..end];
    let (_, old) = assignment(bare, name)?;
    (!name.is_empty() && !old.is_empty() && old.chars().all(|c| c.is_ascii_digit()))
        .then_some((name, old))
}

/// The unit of time a key's name ends in ([`crate::tools::UNITS`]: `Sec` of `RestartSec`,
/// `ms` of `interval_ms`, `Seconds` of `timeoutSeconds`), two letters or more: `None` for
/// another name.
fn key_unit(name: &str) -> Option<usize> {
    let parts = crate::tools::name_words(&name.replace(['.', '-'], "_"));
    let last = parts.last().filter(|_| parts.len() >= 2)?;
    (last.chars().count() >= 2)
        .then(|| crate::tools::unit_named(last))
        .flatten()
        .filter(|&u| crate::tools::is_time_unit(u))
}

/// `value`, a whole number in the unit of time one of `keys` names, in the unit the key `name`
/// ends in (`5` seconds for `interval_ms` is `5000`); `value` as given when either has no unit
/// of time or the number would not be whole.
fn in_key_unit(name: &str, keys: &[asked::Part], value: &str) -> String {
    const MS: [u64; 6] = [1, 1_000, 60_000, 3_600_000, 86_400_000, 604_800_000];
    let (Some(from), Some(to)) = (unit_of(keys), key_unit(name)) else {
        return value.to_owned();
    };
    let Ok(n) = value.parse::<u64>() else {
        return value.to_owned();
    };
    if !crate::tools::is_time_unit(from) {
        return value.to_owned();
    }
    match n.checked_mul(MS[from]) {
        Some(ms) if ms % MS[to] == 0 => (ms / MS[to]).to_string(),
        _ => value.to_owned(),
    }
}

/// The one line of `text` assigning one of `keys` (see [`set_asked`]) and the value it
/// assigns, as written; `value`, the value to set, tells a version's key (`go-version`).
fn value_line<'t>(text: &'t str, keys: &[asked::Part], value: &str) -> Option<(&'t str, &'t str)> {
    let mut found: Vec<(&str, &str)> = Vec::new();
    if version_like(value) && value.contains('.') {
        // A package the request names as code writes names (`swift-argument-parser`, with a
        // `-`, `_` or `.`), on the one line giving it one version: SwiftPM's `.package(url:
        // ".../swift-argument-parser", from: "1.3.0")` for "Require swift-argument-parser
        // 1.4.0 or later." (a Swift package, session 42, where the change offered was the
        // command's own `version: "0.3.1"`), a Gradle coordinate, a lock entry.
        for key in keys
            .iter()
            .map(|k| k.text.trim())
            .filter(|k| k.len() >= 3 && k.contains(['-', '_', '.']) && !version_like(k))
        {
            let lower = key.to_lowercase();
            for line in text.lines() {
                if asked::token_at(&line.to_lowercase(), &lower).is_empty() {
                    continue;
                }
                let mut versions = line
                    .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                    .filter(|v| v.contains('.') && version_like(v) && !v.ends_with('.'));
                if let (Some(v), None) = (versions.next(), versions.next())
                    && !found.iter().any(|(l, _)| std::ptr::eq(*l, line))
                {
                    found.push((line, v));
                }
            }
        }
        // Or a plain name as the artifact of a coordinate, after its group's `/` or `:`
        // (`metosin/reitit {:mvn/version "0.7.0"}` in deps.edn for "Upgrade reitit to
        // 0.7.1.": a Clojure service, session 47; `"com.squareup.okhttp3:okhttp:4.12.0"`).
        if found.is_empty() {
            for key in keys
                .iter()
                .filter(|k| asked::is_value(k))
                .map(|k| k.text.trim().to_lowercase())
                .filter(|k| k.len() >= 3 && k.chars().all(|c| c.is_ascii_alphanumeric()))
                .filter(|k| !version_like(k))
            {
                for line in text.lines().filter(|l| !is_comment(l)) {
                    let low = line.to_lowercase();
                    // The last part of the path: not an owner (`github.com/vapor/fluent.git`
                    // for "Vapor": a Swift/Vapor API, session 56, where three packages' lines
                    // were found and none offered).
                    let artifact = low.match_indices(key.as_str()).any(|(at, _)| {
                        low[..at].ends_with(['/', ':'])
                            && low[..at - 1].ends_with(|c: char| c.is_ascii_alphanumeric())
                            && !low[at + key.len()..].starts_with(|c: char| {
                                c.is_ascii_alphanumeric() || c == '-' || c == '/'
                            })
                    });
                    if !artifact {
                        continue;
                    }
                    let mut versions = line
                        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                        .filter(|v| v.contains('.') && version_like(v) && !v.ends_with('.'));
                    if let (Some(v), None) = (versions.next(), versions.next())
                        && !found.iter().any(|(l, _)| std::ptr::eq(*l, line))
                    {
                        found.push((line, v));
                    }
                }
            }
        }
        // Or the `version` right inside the block the package's name opens: `"fantomas": {`
        // then `"version": "6.3.15",` in `.config/dotnet-tools.json` (an F# inventory API,
        // session 54: "Bump fantomas to 6.3.16." was offered no change), a YAML mapping's
        // `fantomas:` then `version: 6.3.15`.
        if found.is_empty() {
            for key in value_keys(keys).filter(|k| k.chars().count() >= 2) {
                for (k, line) in text.lines().enumerate() {
                    if let Some((_, old)) = assignment(line.trim_start(), "version")
                        && version_like(unquoted(old))
                        && enclosing_keys(text, k)
                            .first()
                            .is_some_and(|outer| outer.eq_ignore_ascii_case(key))
                        && !found.iter().any(|(l, _)| std::ptr::eq(*l, line))
                    {
                        found.push((line, old));
                    }
                }
            }
        }
        // Or an MSBuild package item naming the package exactly, with its version as an
        // attribute: `<PackageVersion Include="Npgsql" Version="8.0.5" />` in
        // Directory.Packages.props, a project file's `<PackageReference Include=… Version=…
        // />` (an F# inventory API, session 54: "Upgrade Npgsql to 8.0.6." was offered no
        // change; `Npgsql.DependencyInjection` is another package).
        if found.is_empty() {
            for key in value_keys(keys).filter(|k| k.chars().count() >= 2) {
                let key = key.to_lowercase();
                for line in text.lines().filter(|l| !is_comment(l)) {
                    let low = line.to_lowercase();
                    let named = ["include=\"", "update=\""]
                        .iter()
                        .any(|a| low.contains(&format!("{a}{key}\"")));
                    let version = low.find("version=\"").and_then(|at| {
                        let start = at + "version=\"".len();
                        let end = start + low[start..].find('"')?;
                        Some(&line[start..end])
                    });
                    if named
                        && let Some(v) = version.filter(|v| version_like(v))
                        && !found.iter().any(|(l, _)| std::ptr::eq(*l, line))
                    {
                        found.push((line, v));
                    }
                }
            }
        }
        // Or a variable naming the package and its version, the package's parts joined
        // (`GOLANGCI_LINT_VERSION ?= v1.59.1` in a Makefile for "Bump golangci-lint to
        // v1.62.2.", `ARG NODE_VERSION=20.11.1`): a Go job worker, session 53.
        if found.is_empty() {
            for key in value_keys(keys).filter(|k| k.chars().count() >= 2) {
                let joined: String = key
                    .chars()
                    .filter(char::is_ascii_alphanumeric)
                    .collect::<String>()
                    .to_lowercase();
                found.extend(text.lines().filter(|l| !is_comment(l)).filter_map(|line| {
                    let (name, old) = version_variable(line)?;
                    let name: String = name
                        .chars()
                        .filter(char::is_ascii_alphanumeric)
                        .collect::<String>()
                        .to_lowercase();
                    (name == format!("{joined}version")).then_some((line, old))
                }));
            }
        }
        // Or an image named by a word of the request, its tag opening with the version:
        // `FROM golang:1.23.1-bookworm AS build` for "Build the Docker image with Go 1.24.2."
        // (a Go job worker, session 53; Go's image is `golang`).
        if found.is_empty() {
            for line in text.lines().filter(|l| !is_comment(l)) {
                if let Some(old) = image_version(line, keys) {
                    found.push((line, old));
                }
            }
        }
        match found[..] {
            [one] => return Some(one),
            [] => {}
            _ => return None,
        }
    }
    // A bound of a dependency's range: the line naming the dependency, with a version after
    // each of two comparisons or more (`, aeson >=2.1 && <2.3` in a Cabal file,
    // `requests>=2.28,<3`, `"typescript": ">=5.0 <6"`), and the request saying which bound —
    // upper (`<`, `<=`) or lower (`>=`, `>`). Found with a Haskell project (session 47):
    // "Raise the aeson upper bound to 2.4." was offered no change.
    if let Some(one) = range_bound(text, keys, value) {
        return Some(one);
    }
    // A requirement pinned to a version (see [`pinned`]), before the assignments below: the
    // one line pinning a package the request names (an OCaml/dune project, session 49:
    // "Require at least yojson 2.2.0." names `yojson` and `version`, the opam file's own
    // `version: "0.6.1"` was taken for the change, beside `"yojson" {>= "2.1.0"}`).
    // A whole number is a version pinned only where the request says "version": `window >= 3
    // || throw(…)` is a comparison in code (a Julia package, session 51: "Make the spike
    // filter's default rolling window 96 samples …" offered `window >= 96`).
    let pin_asked = version_like(value)
        && (value.contains('.') || keys.iter().any(|k| k.is_any(&["version", "versions"])));
    if pin_asked {
        // Not a line already pinning the value: the change is the other's (a lock file's
        // `puma (6.5.0)`, made, beside `puma (= 6.4.3)`: a Rails API, session 56).
        match &pins_of(text, keys, value)[..] {
            [one] => return Some(*one),
            // One version pinned on several lines is set on all of them (see `every_pin`).
            [(_, old), rest @ ..] if rest.iter().all(|(_, o)| o == old) => return None,
            _ => {}
        }
        // A dependency given a block of its own, its version on a line of the block:
        // shard.yml's `kemal:` / `github: kemalcr/kemal` / `version: ~> 1.5.0`, a pubspec's
        // hosted dependency (a Crystal web service, session 53: "Upgrade Kemal to 1.6.0." was
        // offered no change).
        let lines: Vec<&str> = text.lines().collect();
        let mut blocks = lines.iter().enumerate().filter_map(|(i, line)| {
            let v = line.trim_start().strip_prefix("version:")?.trim();
            let v = v.trim_matches(['"', '\'']);
            let version = v.trim_start_matches(['^', '~', '=', '>', '<', ' ']);
            if !version_like(version) || !version.contains('.') {
                return None;
            }
            let owner = enclosing_keys(text, i).into_iter().next()?;
            value_keys(keys)
                .any(|key| owner.eq_ignore_ascii_case(key))
                .then_some((*line, version))
        });
        if let (Some(one), None) = (blocks.next(), blocks.next()) {
            return Some(one);
        }
    }
    // A command-line option defined over several lines, its name in quotes on one and its
    // default on a line of the block after it (optparse-applicative's `( long "width"` …
    // `<> value 96`; a Haskell project, session 47: "Set the default report width to 120."
    // was offered no change).
    if let Some(one) = option_block_default(text, keys, value) {
        return Some(one);
    }
    // Or on one line, as OCaml's Cmdliner writes it: `Arg.(value & opt int 20 & info [ "r";
    // "reserve" ] …)` (an OCaml/dune project, session 49: "Bump the default safety reserve to
    // 25 percent." was offered no change).
    let mut options =
        value_keys(keys).flat_map(|key| text.lines().filter_map(move |l| cmdliner_default(l, key)));
    if let (Some(one), None) = (options.next(), options.next()) {
        return Some(one);
    }
    // A field whose documentation says what the request names (LuaLS's `---@field
    // work_minutes integer length of a focus session`, JSDoc's `@property`): its one literal
    // assignment of the value's kind. Found with a Neovim plugin (session 43): "Make focus
    // sessions last 50 minutes by default." named no key; three keys end in `_minutes`.
    let words: Vec<String> = key_words(keys)
        .into_iter()
        .filter(|w| w.chars().count() >= 3 && crate::tools::unit_named(w).is_none())
        .collect();
    let said = |doc: &str| {
        let doc: Vec<String> = words_of(doc).map(str::to_lowercase).collect();
        words
            .iter()
            .filter(|w| {
                let one = w.strip_suffix('s').unwrap_or(w);
                doc.iter()
                    .any(|d| d == *w || d.strip_suffix('s').unwrap_or(d) == one)
            })
            .count()
    };
    let documented: Vec<String> = text
        .lines()
        .filter_map(|line| {
            let name = super::grep::documented_field(line)?;
            let doc = &line[line.find(name)? + name.len()..];
            (said(doc) >= 2).then(|| name.to_lowercase())
        })
        .collect();
    if let [name] = &documented[..] {
        let hits: Vec<(&str, &str)> = text
            .lines()
            .filter(|line| super::grep::documented_field(line).is_none())
            .filter_map(|line| keyword_arg(line, name).map(|v| (line, v)))
            .filter(|(_, v)| of_kind(v, value))
            .collect();
        if let [one] = hits[..] {
            return Some(one);
        }
    }
    // A key made of two to four of the request's words side by side, joined as code writes
    // them (`pool_size` for "Set the dev database pool size to 20.", before `database:`, one
    // word; `max_attempts: 3` inside `use Oban.Worker, queue: :mailers, max_attempts: 3` for
    // "Raise the digest worker's max attempts to 5.": a Phoenix/Elixir API, session 41;
    // `maxWatchesPerAccount: 36,` for "Set the max watches per account to 60.": a NestJS
    // service, session 56), anywhere in a line: the one line so named, the longest such key
    // first.
    for n in [4, 3, 2] {
        let names = phrase_keys(keys, n);
        for line in text.lines() {
            if let Some(hit) = names.iter().find_map(|name| keyword_arg(line, name))
                && of_kind(hit, value)
                && !found.iter().any(|(l, _)| std::ptr::eq(*l, line))
            {
                found.push((line, hit));
            }
        }
        // Of several, the one line setting the key outside a call's parentheses opened on
        // it: the declaration's default, not a call passing its own (`this.maxAttempts = 3,`
        // over `const RetryPolicy.none() : this(maxAttempts: 1);`: a Dart package, session
        // 45).
        let declared: Vec<(&str, &str)> = found
            .iter()
            .copied()
            .filter(|(line, hit)| {
                let before = &line[..hit.as_ptr() as usize - line.as_ptr() as usize];
                before.matches('(').count() <= before.matches(')').count()
            })
            .collect();
        match (&found[..], &declared[..]) {
            ([one], _) | ([_, _, ..], [one]) => return Some(*one),
            ([], _) => {}
            _ => return None,
        }
    }
    if unit_of(keys).is_some_and(|u| !crate::tools::is_time_unit(u))
        && keys.iter().any(|k| k.is("heap"))
    {
        // The JVM's heap: the size after `-Xmx` (`org.gradle.jvmargs=-Xmx2g …` in
        // gradle.properties for "Give the Gradle daemon 4 GB of heap.": a Kotlin/Gradle
        // application, session 40; `JAVA_OPTS`, `MAVEN_OPTS`, jvm.options).
        for line in text.lines() {
            if let Some(at) = line.find("-Xmx") {
                let size = &line[at + 4..];
                let end = size
                    .find(|c: char| !c.is_ascii_alphanumeric())
                    .unwrap_or(size.len());
                if unit_letters(&size[..end]).is_some() {
                    found.push((line, &size[..end]));
                }
            }
        }
        // Before any key the request's other words name (`org.gradle.caching=true`).
        if let [one] = found[..] {
            return Some(one);
        }
        found.clear();
    }
    let words = key_words(keys);
    // A number in a block the request's words name, under a key a word of it begins, before a
    // key the request names alone: `targetCPUUtilizationPercentage: 75` under `autoscaling:`
    // for "Lower the autoscaling CPU target to 60 percent." (a Helm chart's values, session
    // 42; not `cpu: 500m` under `limits:`).
    if value.parse::<f64>().is_ok()
        && let Some((line, old, true)) = block_number(text, &words)
    {
        return Some((line, old));
    }
    if unit_of(keys).is_some_and(crate::tools::is_time_unit)
        && value.chars().all(|c| c.is_ascii_digit())
    {
        // A key made of words, one of them the request's and one a unit of time, set to a
        // bare number: systemd's `RestartSec=10` for "Make systemd wait 30 seconds before
        // restarting sensord." (not `Restart=on-failure`), `interval_ms = 2000` for "Sample
        // the sensors every 5000 ms." (a C++/CMake daemon, session 41). The number is written
        // in the key's unit (`key_unit`, `set_asked`). Before any other key.
        // Of several, the one whose name holds the most of the request's words
        // (`max_backoff_seconds` over `backoff_base_ms` for "let the wait between delivery
        // retries grow to at most 45 minutes": a Gleam feed relay, session 54).
        let mut most = 0;
        for line in text.lines() {
            let Some((name, old)) = keyed_number(line) else {
                continue;
            };
            let parts = crate::tools::name_words(&name.replace(['.', '-'], "_"));
            let named = parts
                .iter()
                .filter(|part| {
                    crate::tools::unit_named(part).is_none()
                        && words.iter().any(|w| crate::tools::same_word(part, w))
                })
                .count();
            if named > 0 && named >= most && key_unit(name).is_some() {
                if named > most {
                    found.clear();
                    most = named;
                }
                found.push((line, old));
            }
        }
        if let [one] = found[..] {
            return Some(one);
        }
        found.clear();
        // Or the one such key in a block or section the request's words name, none of its
        // own words the request's: `flush_interval_ms = 4000` under `[batch]` for "a batch that
        // isn't full should be shipped after 6000 ms" (a Rust workspace, session 53).
        for (k, line) in text.lines().enumerate() {
            let Some((name, old)) = keyed_number(line) else {
                continue;
            };
            let block = enclosing_keys(text, k)
                .into_iter()
                .next()
                .unwrap_or_default();
            let named = crate::tools::name_words(&block.replace(['.', '-'], "_"))
                .iter()
                .any(|part| words.iter().any(|w| crate::tools::same_word(part, w)));
            if named && key_unit(name).is_some() {
                found.push((line, old));
            }
        }
        if let [one] = found[..] {
            return Some(one);
        }
        found.clear();
    }
    for key in keys
        .iter()
        .map(|k| k.text.trim())
        .filter(|k| k.chars().count() >= 2)
    {
        let dunder = format!("__{key}__");
        for line in text.lines() {
            if let Some(hit) = assignment(line, key).or_else(|| assignment(line, &dunder))
                && !found.iter().any(|(l, _)| std::ptr::eq(*l, line))
                && of_kind(hit.1, value)
            {
                found.push(hit);
            }
        }
    }
    // A shell variable is written in capitals, whatever the request writes (`EDITOR` for "the
    // default editor": a folder of dotfiles, session 31); a manifest's key in lower case
    // (composer.json's `"php": ">=8.1"` for "Require PHP 8.2 or newer.": a PHP library,
    // session 39; package.json's `"node"`); a .NET setting's capitalised (`"Default":
    // "Information"` for "Set the default log level to Warning.": a .NET API's
    // appsettings.json, session 40).
    for cased in [str::to_uppercase, str::to_lowercase, capitalised] {
        if !found.is_empty() {
            break;
        }
        for key in keys
            .iter()
            .map(|k| cased(k.text.trim()))
            .filter(|k| k.chars().count() >= 2)
        {
            for line in text.lines() {
                if let Some(hit) = assignment(line, &key)
                    && !found.iter().any(|(l, _)| std::ptr::eq(*l, line))
                    && of_kind(hit.1, value)
                {
                    found.push(hit);
                }
            }
        }
    }
    if found.is_empty() {
        // No line assigns a key: the one entry of a collection on a line that names one in
        // quotes (`"milk": 1.1` in `PRICES = {"apple": 0.5, "milk": 1.1}` for "Set the price
        // of milk in src/shop.py to 1.2": shop tasks, session 27).
        for key in keys
            .iter()
            .map(|k| k.text.trim())
            .filter(|k| k.chars().count() >= 2)
        {
            for line in text.lines() {
                if let Some(v) = entry_value(line, key)
                    && !found.iter().any(|(l, _)| std::ptr::eq(*l, line))
                    && of_kind(v, value)
                {
                    found.push((line, v));
                }
            }
        }
    }
    if found.is_empty() {
        // A pair of lines naming the key and giving its value, as Kubernetes writes an
        // environment variable: `- name: MAX_UPLOAD_MB` then `value: "25"` (a Terraform
        // folder's manifests, session 38: "Raise MAX_UPLOAD_MB to 50.").
        let lines: Vec<&str> = text.lines().collect();
        for key in keys
            .iter()
            .map(|k| k.text.trim())
            .filter(|k| k.chars().count() >= 2)
        {
            for (k, line) in lines.iter().enumerate() {
                let t = line.trim().trim_start_matches("- ").trim_start();
                let named = t
                    .strip_prefix("name:")
                    .is_some_and(|n| n.trim().trim_matches(['"', '\'']) == key);
                let next = lines[k + 1..].iter().find(|l| !l.trim().is_empty());
                // Or `version:` for a version: an Ansible collection's `- name:
                // community.docker` then `version: 3.8.1` in requirements.yml (session 44).
                let field = |next: &'t str| {
                    assignment(next.trim_start(), "value").or_else(|| {
                        version_like(value)
                            .then(|| assignment(next.trim_start(), "version"))
                            .flatten()
                    })
                };
                if named
                    && let Some(next) = next
                    && let Some(hit) = field(next)
                {
                    found.push((next, hit.1));
                }
            }
        }
    }
    if found.is_empty() && value.chars().all(|c| c.is_ascii_digit()) {
        // A command line's option and its number: `--workers 3`, `--workers=3` and an exec
        // form's `"--workers", "3"` (a Dockerfile's `CMD`: "Start 5 gunicorn workers in the
        // container.", a Django project, session 41), named by a word of the request.
        for key in keys
            .iter()
            .filter(|k| asked::is_value(k) && !k.quoted)
            .map(|k| k.text.trim())
            .filter(|k| k.chars().count() >= 3)
        {
            found.extend(text.lines().filter_map(|line| option_number(line, key)));
        }
    }
    if found.is_empty() {
        // A directive, `name value;` (`client_max_body_size 10m;` in an nginx config), named
        // by a word that is no filler (`the end;` is no directive `the`).
        for key in value_keys(keys) {
            found.extend(text.lines().filter_map(|line| directive(line, key)));
        }
    }
    if found.is_empty() && keys.iter().any(|k| k.text.eq_ignore_ascii_case("default")) {
        // A column's default in SQL: `country TEXT DEFAULT 'NL'` for "Make UK the default
        // country in schema.sql." (a data folder, session 32), the column a word of the request.
        found.extend(text.lines().filter_map(|line| {
            let name = line.split_whitespace().next()?;
            (!name.eq_ignore_ascii_case("default") && names_key(keys, name))
                .then(|| sql_default(line))
                .flatten()
                .map(|v| (line, v))
        }));
    }
    if found.is_empty() {
        // A parameter's default in a function's signature: `max: number = 80` of `function
        // truncate(…)` for "Make 100 the default max of truncate." (a TypeScript package,
        // session 33), `width=72` of `def wrap(…)`. Of several signatures, the one defining a
        // function the request names.
        let mut defaults: Vec<(&str, &str)> = Vec::new();
        for key in value_keys(keys) {
            defaults.extend(
                text.lines()
                    .filter_map(|line| param_default(line, key).map(|v| (line, v))),
            );
        }
        if defaults.len() > 1 {
            defaults.retain(|(line, _)| {
                keys.iter()
                    .any(|k| !asked::token_at(line, &format!("{}(", k.text)).is_empty())
            });
        }
        found.extend(defaults);
    }
    if found.is_empty() && version_like(value) {
        // A version on a line of its own after its name, no `;` (`go 1.21` in go.mod, for "Set
        // the Go version in go.mod to 1.22": a Go module, session 30; `nodejs 20.1.0` in
        // .tool-versions), the name a word of the request, case aside.
        for line in text.lines() {
            if let [name, old] = line.split_whitespace().collect::<Vec<_>>()[..]
                && version_like(old)
                && names_key(keys, name)
            {
                found.push((line, old));
            }
        }
    }
    if found.is_empty() && tag_like(value) {
        // An image's tag, `FROM nginx:1.25.4-alpine AS runtime` for "Update the nginx base
        // image to 1.27.0-alpine." (a Vue/Vite application's Dockerfile, session 48), the
        // image a word of the request.
        for key in value_keys(keys) {
            found.extend(text.lines().filter_map(|line| image_tag(line, key, value)));
        }
    }
    if found.is_empty() && version_like(value) && value.contains('.') {
        // A version inside an image's tag after its subject and a `-`: `ocaml-5.1` of `FROM
        // ocaml/opam:debian-12-ocaml-5.1 AS build` for "Build the Docker image with OCaml
        // 5.2." (an OCaml/dune project, session 49).
        for key in value_keys(keys).filter(|k| k.chars().count() >= 2) {
            let marker = format!("{}-", key.to_lowercase());
            for line in text.lines().filter(|l| !is_comment(l)) {
                let lower = line.to_lowercase();
                for (at, _) in lower.match_indices(&marker) {
                    let before = lower[..at].chars().next_back();
                    if !before.is_some_and(|c| c == '-' || c == ':' || c == '/') {
                        continue;
                    }
                    let start = at + marker.len();
                    let len = line[start..]
                        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                        .unwrap_or(line.len() - start);
                    let version = &line[start..start + len];
                    if version.contains('.') && version_like(version) && !version.ends_with('.') {
                        found.push((line, version));
                    }
                }
            }
        }
    }
    if found.is_empty() && pin_asked {
        // A requirement pinned to a version, `pytest==8.2.2` (Python's requirements files:
        // "Bump pytest to 8.3.2.", a Django project, session 41; `psycopg[binary]>=3.1`): the
        // name a word of the request as written (not `pytest-django`), the version after the
        // operator.
        for key in value_keys(keys) {
            found.extend(text.lines().filter_map(|line| pinned(line, key)));
        }
    }
    if found.is_empty() && version_like(value) {
        // A version after its name inside a line, `VERSION 2.1.0` (CMake's `project(sensord
        // VERSION 2.1.0 LANGUAGES CXX)` for "Set the project version to 2.2.0.": a C++/CMake
        // daemon, session 41): the name a word of the request, the value the next word. Of
        // several (`cmake_minimum_required(VERSION 3.20)`), those whose line holds another of
        // the request's words too (`project`).
        let mut pairs: Vec<(&str, &str)> = Vec::new();
        for line in text.lines().filter(|l| !is_comment(l)) {
            let words: Vec<&str> = line
                .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
                .filter(|w| !w.is_empty())
                .collect();
            if let Some(w) = words
                .windows(2)
                .find(|w| names_key(keys, w[0]) && w[0].len() >= 3 && version_like(w[1]))
            {
                pairs.push((line, w[1]));
            }
        }
        if pairs.len() > 1 {
            pairs.retain(|(line, _)| {
                keys.iter()
                    .filter(|k| asked::is_value(k) && k.text.len() >= 3 && !k.is("version"))
                    .any(|k| {
                        line.split(|c: char| !asked::is_name_char(c))
                            .any(|w| w.eq_ignore_ascii_case(&k.text))
                    })
            });
        }
        if let [one] = pairs[..] {
            found.push(one);
        }
    }
    if found.is_empty() {
        // A key made of words, the first the request's, holding a value of the new value's
        // kind: `go-version: "1.21"` for "Change the CI to use Go 1.22" (a Go module's
        // workflow, session 30), `python_version = "3.11"` for "Set the Python version …".
        if version_like(value) {
            let counted = keys.iter().any(|k| k.is_any(&["number", "count"]));
            for line in text.lines() {
                let bare = line.trim_start().trim_start_matches("- ").trim_start();
                let bare = bare.trim_start_matches(['"', '\'']);
                // A Dockerfile's `ARG`/`ENV`, a shell's `export` before the name (`ARG
                // ZIG_VERSION=0.12.1` for "Make the Dockerfile use Zig 0.13.0.": a Zig
                // service, session 49).
                let bare = ["ARG ", "ENV ", "export "]
                    .iter()
                    .find_map(|k| bare.strip_prefix(k))
                    .map_or(bare, str::trim_start);
                let name = leading_name(bare);
                // Its first word, what the value is of (`go`, not `version`, which a request
                // to bump a project's own version names too).
                let mut words = name.split(['-', '_']).filter(|w| !w.is_empty());
                let named = words.next().is_some_and(|first| names_key(keys, first));
                // A number of things is no length of time or size: not
                // `delivery_timeout_seconds` for "the default number of delivery attempts" (a
                // Python webhook relay, session 55, offered a counter's `attempts: int = 0`
                // instead of `max_attempts: int = 6`).
                let rest: Vec<&str> = words.collect();
                let unit_fits =
                    !counted || !rest.iter().any(|w| crate::tools::unit_named(w).is_some());
                let named = named && !rest.is_empty() && unit_fits;
                if named
                    && let Some((_, old)) = assignment(bare, name)
                    && version_like(old)
                {
                    found.push((line, old));
                }
            }
        }
    }
    if found.is_empty()
        && version_like(value)
        && keys.iter().any(|k| k.text.eq_ignore_ascii_case("version"))
    {
        // A version file holding the bare version alone, comments and blank lines aside
        // (`18` in .nvmrc for "Bump the Node version to 20.": a TypeScript package, session
        // 33; `3.11.4` in .python-version), for a request that speaks of a version — any
        // other number set would find it too. A leading `v` stays (`v18.19.0`).
        let mut lines = text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
        if let (Some(line), None) = (lines.next(), lines.next()) {
            let bare = line.trim();
            let old = bare.strip_prefix(['v', 'V']).unwrap_or(bare);
            if version_like(old) {
                found.push((line, old));
            }
        }
    }
    if found.is_empty() && !words.is_empty() {
        // A key made of parts, written with dots — a Java properties file's
        // `bookings.checkout.hour=11` for "Move checkout to 10 o'clock.", an XML element's
        // `<version>1.2.0</version>` or `<maven.compiler.release>` (a Maven project, session
        // 37) — a part of which is a word of the request: of several, those whose parts hold
        // the most of its words.
        let mut best = 0;
        for line in text.lines() {
            let Some((name, old)) = keyed_value(line).filter(|(_, old)| of_kind(old, value)) else {
                continue;
            };
            let parts: Vec<String> = name
                .split(['.', '-', '_'])
                .filter(|p| !p.is_empty())
                .map(str::to_lowercase)
                .collect();
            let held = words
                .iter()
                .filter(|w| parts.iter().any(|p| crate::tools::same_word(p, w)))
                .count();
            if held > best {
                best = held;
                found.clear();
            }
            if held == best && held > 0 {
                found.push((line, old));
            }
        }
    }
    if found.is_empty() && unit_of(keys).is_some() {
        // A key made of words, one of them the request's, set to a number in a unit's letters:
        // `poll-interval = 15m` for "Poll for updates every 30 minutes." (a Kotlin/Gradle
        // application's HOCON config, session 40), `cache_ttl: 10s`, `maxHeap = "512m"`.
        for line in text.lines() {
            let bare = line.trim_start().trim_start_matches("- ").trim_start();
            let bare = bare.trim_start_matches(['"', '\'']);
            let name: String = bare
                .chars()
                .take_while(|&c| asked::is_name_char(c) || c == '-' || c == '.')
                .collect();
            let named = crate::tools::name_words(&name.replace(['.', '-'], "_"))
                .iter()
                .any(|part| words.iter().any(|w| crate::tools::same_word(part, w)));
            if named
                && let Some((_, old)) = assignment(bare, &name)
                && unit_letters(unquoted(old)).is_some()
            {
                found.push((line, old));
            }
        }
    }
    if found.is_empty() && !words.is_empty() {
        // A constant, `#define NAME VALUE` or `NAME = VALUE` (`static final int MAX_NIGHTS =
        // 14;`, `const MAX_LENGTH = 80;`), whose name holds each word of the request naming
        // it among its `_`-separated parts, one of three letters or more standing for a word
        // it begins (`#define RINGBUF_DEFAULT_CAP 64` for "Set the default capacity to 128.":
        // a C library, session 36) — or whose parts, the first aside (a prefix), are each
        // such a word, two at least (`MAX_NIGHTS` for "Raise the maximum stay to 21 nights.":
        // a Maven project, session 37). Or a Lisp's `(def default-page-size 25)` (a Clojure
        // service, session 47: "Change the default page size to 50." was offered no change).
        found.extend(text.lines().filter_map(|line| {
            let (name, old) = macro_value(line)
                .or_else(|| constant_value(line))
                .or_else(|| lisp_def(line))?;
            (parts_named(&dashed_parts(name), &words) && of_kind(old, value)).then_some((line, old))
        }));
    }
    if found.is_empty() && !words.is_empty() {
        // An EDN map's keyword and its value, `:pool-size 24`, or the entry of a map of
        // profiles the request's words pick (aero's `:pool-size #profile {:dev 4 :test 2
        // :prod 24}` for "Raise the production database pool size to 32.": a Clojure
        // service, session 47), the keyword's parts named as a constant's are.
        let picks = |profile: &str| {
            words
                .iter()
                .any(|w| w == profile || (profile.len() >= 3 && w.starts_with(profile)))
        };
        found.extend(text.lines().filter(|l| !is_comment(l)).flat_map(|line| {
            edn_entries(line, &picks)
                .into_iter()
                .filter(|(name, old)| {
                    parts_named(&dashed_parts(name), &words) && of_kind(old, value)
                })
                .map(move |(_, old)| (line, old))
        }));
    }
    // Not for a version written with dots, which the steps above set by their own keys (a
    // linter's `TargetRubyVersion: 3.1` is no requirement of Ruby 3.2) — but for a name
    // holding `version` when the request says it (`scalaVersion := "2.13.12"` for "Upgrade
    // the project to Scala 2.13.14.", `min_ansible_version: "2.14"` for "Raise the role's
    // minimum Ansible version to 2.15.": session 44), each of its parts a word of the request
    // (not a linter's `TargetRubyVersion: 3.1` for "Require Ruby 3.2 or newer.").
    let dotted = version_like(value) && value.contains('.');
    let says_version = keys.iter().any(|k| k.is("version"));
    if found.is_empty() && !words.is_empty() && (!dotted || says_version) {
        // A name made of words in another style — `LoanDays` (a C# constant), `"PageSize"` (a
        // .NET setting), `pageSize`, `page_size` — named as a constant's parts are, set to a
        // value of the new value's kind (a .NET API, session 40: "Change the loan period to 28
        // days.", "Set the page size to 50.").
        found.extend(text.lines().filter_map(|line| {
            // An Erlang term's pair, `{max_queue_len, 200000},` (see `assignment`).
            if let Some((name, old)) = erlang_pair(line) {
                let parts: Vec<String> = crate::tools::name_words(name)
                    .iter()
                    .map(|p| p.to_lowercase())
                    .collect();
                return (parts.len() >= 2 && parts_named(&parts, &words) && of_kind(old, value))
                    .then_some((line, old));
            }
            // The last name before the first `=` or `:` (past a declaration's keywords and
            // type: `public const int LoanDays = 21;`), where the line's assignment starts.
            let head = &line[..line.find(['=', ':'])?];
            // A Nim constant's export mark stands between its name and the `=`
            // (`DefaultBatchSize* = 750`: a Nim daemon, session 52).
            let bare = head.trim_end();
            let bare = bare.strip_suffix('*').unwrap_or(bare);
            let end = bare.trim_end_matches(['"', '\'']).len();
            let start = asked::run_start(&head[..end], asked::is_name_char);
            let name = &line[start..end];
            let parts: Vec<String> = crate::tools::name_words(name)
                .iter()
                .map(|p| p.to_lowercase())
                .collect();
            if parts.len() < 2
                || !parts_named(&parts, &words)
                || (dotted
                    && !(parts.iter().any(|p| p == "version")
                        && parts.iter().all(|p| {
                            words.iter().any(|w| {
                                crate::tools::same_word(p, w)
                                    || (p.len() >= 3 && w.starts_with(p.as_str()))
                            })
                        })))
            {
                return None;
            }
            let from = if line[..start].ends_with(['"', '\'']) {
                start - 1
            } else {
                start
            };
            let (_, old) = assignment(&line[from..], name)?;
            // A declaration's type with no value (`public var maxRetries: Int`).
            let declares = super::snippet::declared(line).0.len() < line.trim_start().len();
            if declares && !line[from..].contains('=') && is_type(old) {
                return None;
            }
            of_kind(old, value).then_some((line, old))
        }));
    }
    if found.is_empty()
        && !words.is_empty()
        && value.parse::<f64>().is_ok()
        && let Some((line, old, _)) = block_number(text, &words)
    {
        found.push((line, old));
    }
    if found.len() > 1 && value.parse::<f64>().is_ok() {
        // Of several, a number replaces a number before a name: `maxRetries: Int = 3,` over
        // the initialiser's `self.maxRetries = maxRetries` (a Swift package, session 42).
        let numbers: Vec<(&str, &str)> = found
            .iter()
            .copied()
            .filter(|(_, old)| old.chars().any(|c| c.is_ascii_digit()))
            .collect();
        if !numbers.is_empty() {
            found = numbers;
        }
    }
    if found.len() > 1 {
        // Of several, the one right after a line naming a key of the request (`- name:
        // community.docker` then `version: 3.8.1` in an Ansible requirements.yml, beside
        // another collection's `version:`: session 44).
        let after_name = |line: &str| {
            line_before(text, line)
                .and_then(|prev| {
                    prev.trim()
                        .trim_start_matches("- ")
                        .trim_start()
                        .strip_prefix("name:")
                })
                .is_some_and(|name| {
                    let name = name.trim().trim_matches(['"', '\'']);
                    keys.iter().any(|k| k.text.eq_ignore_ascii_case(name))
                })
        };
        if let [one] = found
            .iter()
            .filter(|(l, _)| after_name(l))
            .collect::<Vec<_>>()[..]
        {
            found = vec![*one];
        }
    }
    if found.len() > 1 {
        // Of several, those whose name holds the most of the request's words as whole words:
        // `harbor_https_port` over `harbor_http_port` for "Change the default HTTPS port to
        // 9443." (an Ansible role, session 44: `http` stands for "https" as its start, as
        // `max` does for "maximum").
        let whole = |line: &str| {
            // An EDN keyword opens its line with its `:` (`:request-timeout-ms 7500}`).
            let t = line.trim_start().trim_start_matches('{');
            let line = t
                .strip_prefix(':')
                .filter(|k| k.starts_with(char::is_alphabetic))
                .unwrap_or(line);
            let name = line.split(['=', ':']).next().unwrap_or_default();
            let parts: Vec<String> = name
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .flat_map(crate::tools::name_words)
                .map(|p| p.to_lowercase())
                .collect();
            // What the value is of counts before `version` (`http: ^1.2.1` over the
            // package's own `version: 1.4.0` for "Require version 1.2.2 or newer of the http
            // package.": a Dart package, session 44).
            // A word as written counts before its plural (`https` is no plural of `http`), and
            // a part standing for a word by its start or as its short form (`max` for
            // "maximum") as a plural does. "default" says whose value it is more than which
            // setting: `MaxPageSize` over `DefaultPageSize` for "Change the built-in default
            // maximum page size to 200." (an F# inventory API, session 54).
            words
                .iter()
                .map(|w| {
                    let weight = match w.as_str() {
                        "version" => 2,
                        "default" => 1,
                        _ => 4,
                    };
                    if parts.iter().any(|p| p == w) {
                        2 * weight
                    } else if parts.iter().any(|p| {
                        crate::tools::same_word(p, w)
                            || (p.len() >= 3 && w.starts_with(p.as_str()))
                            || crate::tools::abbreviates(p, w)
                    }) {
                        weight
                    } else {
                        0
                    }
                })
                .sum::<usize>()
        };
        let most = found.iter().map(|(l, _)| whole(l)).max().unwrap_or(0);
        found.retain(|(l, _)| whole(l) == most);
    }
    if found.len() > 1 {
        // Of several, the one nested (by indentation) in a block whose key the request names
        // too (or its plural): `image` under `web:` for "Bump the web image to notes:1.5.0" in
        // a Compose file, `memory` under `limits:` for "Raise the default memory limit to
        // 512Mi." (a Helm chart's values, session 42; not `memory` under `requests:`).
        let named = |line: &str| {
            let at = line.as_ptr() as usize - text.as_ptr() as usize;
            enclosing_keys(text, line_of(text, at) - 1)
                .iter()
                .any(|outer| keys.iter().any(|k| crate::tools::same_word(&k.text, outer)))
        };
        let inside: Vec<(&str, &str)> = found.iter().copied().filter(|(l, _)| named(l)).collect();
        // Several inside such a block (each `<version>` of a pom.xml is inside `<project>`):
        // the one right inside it.
        let innermost = |line: &str| {
            let at = line.as_ptr() as usize - text.as_ptr() as usize;
            enclosing_keys(text, line_of(text, at) - 1)
                .first()
                .is_some_and(|outer| keys.iter().any(|k| crate::tools::same_word(&k.text, outer)))
        };
        if inside.len() == 1 {
            found = inside;
        } else if let [one] = inside
            .iter()
            .filter(|(l, _)| innermost(l))
            .collect::<Vec<_>>()[..]
        {
            found = vec![*one];
        } else if inside.is_empty() {
            // None inside a block the request names: the file's own key, the one least
            // indented — Chart.yaml's `version: 0.4.2` for "Bump the chart version to 0.5.0.",
            // not its dependency's `version: 18.6.1` (a Helm chart, session 42).
            let least = found.iter().map(|(l, _)| indent(l)).min().unwrap_or(0);
            if let [one] = found
                .iter()
                .filter(|(l, _)| indent(l) == least)
                .collect::<Vec<_>>()[..]
            {
                found = vec![*one];
            }
        }
    }
    let [hit] = found[..] else {
        return None;
    };
    // A value that is a constant's name, the constant assigned in the same text, is set where
    // the constant is: `def initialize(station = DEFAULT_STATION)` takes its default from
    // `DEFAULT_STATION = "Brixham"` (a Ruby gem, session 38: "Make Dartmouth the default
    // station." would have set the parameter's default to a bare word).
    if let Some(defined) = text
        .lines()
        .filter_map(|line| constant_value(line).map(|(name, v)| (line, name, v)))
        .find(|&(_, name, _)| name == hit.1)
    {
        return Some((defined.0, defined.2));
    }
    Some(hit)
}

/// The number set right inside a block whose key is made of `words` (the request's, see
/// [`key_words`]), the only number so set there: RuboCop's `Max: 100` under
/// `Layout/LineLength:` for "Allow lines up to 120 characters in RuboCop." (a Ruby gem,
/// session 38), an ESLint rule's option. The key's words are split at `/`, `.`, `_`, `-` and
/// inner capitals. Of several numbers in the block, the one whose key a word of the request
/// (four letters or more) begins — then `true`: named twice over, it comes before a key the
/// request names alone (see `value_line`).
fn block_number<'t>(text: &'t str, words: &[String]) -> Option<(&'t str, &'t str, bool)> {
    let lines: Vec<&str> = text.lines().collect();
    // Each block's key, how many of the words it holds, and the numbers set right in it.
    type Block<'t> = (String, usize, Vec<(&'t str, &'t str)>);
    let mut blocks: Vec<Block> = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let name = leading_name(line);
        let Some((_, old)) = (!name.is_empty())
            .then(|| assignment(line.trim_start(), name))
            .flatten()
        else {
            continue;
        };
        if old.parse::<f64>().is_err() {
            continue;
        }
        let Some(outer) = enclosing_keys(text, k).into_iter().next() else {
            continue;
        };
        let parts: Vec<String> = outer
            .split(|c: char| !c.is_alphanumeric() && c != '_' && c != '-')
            .flat_map(crate::tools::name_words)
            .collect();
        let held = words
            .iter()
            .filter(|w| parts.iter().any(|p| crate::tools::same_word(p, w)))
            .count();
        if held == 0 {
            continue;
        }
        match blocks.iter_mut().find(|(o, _, _)| *o == outer) {
            Some((_, _, set)) => set.push((line, old)),
            None => blocks.push((outer, held, vec![(line, old)])),
        }
    }
    // Of several blocks, those whose key holds the most of the words (`Layout/LineLength`
    // over `Metrics/MethodLength` for "the line length").
    let most = blocks.iter().map(|(_, held, _)| *held).max().unwrap_or(0);
    blocks.retain(|(_, held, _)| *held == most);
    let [(_, _, set)] = &blocks[..] else {
        return None;
    };
    // SwiftLint's `warning: 120` under `line_length:` for "Make the linter warn at a line
    // length of 100." (a Swift package, session 42; not `error: 160`).
    let begun = |line: &str| {
        let key = line.trim_start().to_lowercase();
        words
            .iter()
            .any(|w| w.chars().count() >= 4 && key.starts_with(w.as_str()))
    };
    // Of several, one whose key holds two of the words or more, more than any other's, a
    // unit of the kind a word names counting as one: `max_backoff_seconds` over
    // `backoff_base_ms` and `max_retries` under `[delivery]` for "let the wait between
    // delivery retries grow to at most 45 minutes" (a Gleam feed relay, session 54).
    let time = crate::tools::is_time_unit;
    let asked_unit = words.iter().find_map(|w| crate::tools::unit_named(w));
    let held = |line: &str| {
        let parts = crate::tools::name_words(&leading_name(line).replace(['.', '-'], "_"));
        let unit = asked_unit.is_some_and(|a| {
            parts
                .iter()
                .filter_map(|p| crate::tools::unit_named(p))
                .any(|u| time(u) == time(a))
        });
        words
            .iter()
            .filter(|w| crate::tools::unit_named(w).is_none())
            .filter(|w| parts.iter().any(|p| crate::tools::same_word(p, w)))
            .count()
            + usize::from(unit)
    };
    if set.len() > 1 {
        let most = set.iter().map(|(line, _)| held(line)).max().unwrap_or(0);
        let mut best = set.iter().filter(|(line, _)| held(line) == most);
        if most >= 2
            && let (Some(&(line, old)), None) = (best.next(), best.next())
        {
            return Some((line, old, true));
        }
    }
    match set[..] {
        [(line, old)] => Some((line, old, begun(line))),
        _ => {
            let mut named = set.iter().filter(|(line, _)| begun(line));
            match (named.next(), named.next()) {
                (Some(&(line, old)), None) => Some((line, old, true)),
                _ => None,
            }
        }
    }
}

/// What says `change` is already so in `path` (its text `text`): a line to add that the file
/// has (for a line placed under or over a heading, anywhere in the file), an ignore file's
/// pattern it lists, a value the one line assigning it holds. `None` otherwise.
fn already_in(change: &Change, path: &str, text: &str) -> Option<String> {
    match change {
        Change::Line(line, _) if has_line(text, line) => {
            Some(format!("`{path}` already has the line `{}`.", line.trim()))
        }
        Change::Entry(entry)
            if entry.value.is_none()
                && lists_lines(path, &entry.name)
                && has_line(text, &entry.key.text) =>
        {
            Some(format!(
                "`{path}` already has the line `{}`.",
                entry.key.text
            ))
        }
        Change::Alias { name, command, .. } => {
            let q = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
            let lines = [
                format!("alias {name}='{command}'"),
                format!("alias {name}=\"{command}\""),
                format!("alias {name}={command}"),
                format!("{name} = {command}"),
            ];
            let line = text.lines().find(|l| lines.iter().any(|w| q(l) == q(w)))?;
            Some(format!("`{path}` already has `{}`.", line.trim()))
        }
        Change::Set(value, keys) => {
            let (line, old) = value_line(text, keys, &value.text)?;
            (unquoted(old) == value.text)
                .then(|| format!("`{path}` already has `{}`.", line.trim()))
        }
        Change::Switch(on, keys) => {
            let (line, old) = switch_line(text, keys, *on)?;
            (switch_state(old) == Some(*on))
                .then(|| format!("`{path}` already has `{}`.", line.trim()))
        }
        _ => None,
    }
}

/// The line of `text` setting what `keys` name, and its value, for a request turning it `on` or
/// off ([`value_line`], looked for as a value `true` or `false` would be).
///
/// Else the one line setting a switch ([`switch_state`]) whose key shares a stem with a word
/// of `keys` — four letters at least, all but two letters of the shorter: `notify = true` for
/// "Turn off notifications by default." (a Lua plugin, session 42), `compress: on` for
/// "Disable compression.".
fn switch_line<'t>(text: &'t str, keys: &[asked::Part], on: bool) -> Option<(&'t str, &'t str)> {
    if let Some(hit) = value_line(text, keys, if on { "true" } else { "false" }) {
        return Some(hit);
    }
    let words = key_words(keys);
    let stem_shared = |name: &str| {
        words.iter().any(|w| {
            let common = w
                .chars()
                .zip(name.chars())
                .take_while(|(a, b)| a.eq_ignore_ascii_case(b))
                .count();
            let shorter = w.chars().count().min(name.chars().count());
            common >= 4 && common + 2 >= shorter
        })
    };
    let mut found = text.lines().filter_map(|line| {
        let bare = line.trim_start().trim_start_matches("- ").trim_start();
        let bare = bare.trim_start_matches(['"', '\'']);
        let end = bare
            .find(|c: char| !(asked::is_name_char(c) || c == '-'))
            .unwrap_or(bare.len());
        let name = &bare[..end];
        let (_, old) = assignment(bare, name)?;
        (switch_state(old).is_some() && stem_shared(name)).then_some((line, old))
    });
    match (found.next(), found.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

/// The pairs of words a setting is turned off and on with, as files write them.
const SWITCH_WORDS: &[(&str, &str)] = &[("false", "true"), ("no", "yes"), ("off", "on")];

/// Whether `value` (quotes aside, case aside) is a setting that is on (`true`, `yes`, `on`)
/// or off; `None` for any other value.
fn switch_state(value: &str) -> Option<bool> {
    let v = unquoted(value).to_lowercase();
    SWITCH_WORDS
        .iter()
        .find_map(|(off, on)| (v == *off).then_some(false).or((v == *on).then_some(true)))
}

/// `old`, a setting's value (see [`switch_state`]), turned `on` or off, in the same pair of
/// words and letter case (`False` for `True`); `None` when it is already so or no setting.
fn switched_value(old: &str, on: bool) -> Option<String> {
    let v = unquoted(old);
    if switch_state(v)? == on {
        return None;
    }
    let lower = v.to_lowercase();
    let (off_word, on_word) = SWITCH_WORDS
        .iter()
        .find(|(off, on)| lower == *off || lower == *on)?;
    let word = if on { on_word } else { off_word };
    Some(if v.chars().all(|c| c.is_uppercase()) {
        word.to_uppercase()
    } else if v.starts_with(char::is_uppercase) {
        asked::capitalized(word)
    } else {
        (*word).to_owned()
    })
}

/// Whether a line of `text` reads `line`, white space around both aside.
fn has_line(text: &str, line: &str) -> bool {
    text.lines().any(|l| l.trim() == line.trim())
}

/// Whether `word` is one of `keys`, the request's words naming what gets a value (no filler,
/// two characters at least), case aside.
fn names_key(keys: &[asked::Part], word: &str) -> bool {
    keys.iter().any(|k| {
        asked::is_value(k) && k.text.chars().count() >= 2 && k.text.eq_ignore_ascii_case(word)
    })
}

/// The name and value of `line` when it defines an object-like macro with one value:
/// `#define NAME VALUE`, a comment after it aside (`# define` too); `None` for a macro with
/// parameters or a value of several words.
fn macro_value(line: &str) -> Option<(&str, &str)> {
    // Erlang's `-define(DEFAULT_MAX_ATTEMPTS, 12).` (an Erlang/OTP service, session 51).
    if let Some(rest) = line.trim_start().strip_prefix("-define(") {
        let (name, value) = rest.split_once(',')?;
        let value = value.trim().strip_suffix(").")?.trim();
        let simple = !value.is_empty() && !value.contains(['(', ')', ',', '?']);
        return (name.chars().all(asked::is_name_char) && simple).then_some((name.trim(), value));
    }
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("define")?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let mut words = rest.split_whitespace();
    let (name, value) = (words.next()?, words.next()?);
    let comment = |w: &str| w.starts_with("/*") || w.starts_with("//");
    (name.chars().all(asked::is_name_char) && !comment(value) && words.next().is_none_or(comment))
        .then_some((name, value))
}

/// The name and value of `line` when it assigns a constant: a name in capitals of two parts or
/// more joined by `_` (`MAX_NIGHTS`), after the keywords and the type a declaration writes
/// before it, then `=` and the value (`public static final int MAX_NIGHTS = 14;`, `const
/// MAX_LENGTH = 80;`, `pub const MILES_TO_KM: f64 = 1.609;`).
fn constant_value(line: &str) -> Option<(&str, &str)> {
    let mut at = 0;
    for word in line.split(|c: char| !asked::is_name_char(c)) {
        let start = at;
        at += word.len() + 1;
        let constant = word.contains('_')
            && word.starts_with(|c: char| c.is_ascii_uppercase())
            && !word.chars().any(char::is_lowercase)
            && word.split('_').filter(|p| !p.is_empty()).count() >= 2;
        if !constant || line[..start].contains(['=', '(', '"', '\'']) {
            continue;
        }
        if let Some((_, value)) = assignment(&line[start..], word) {
            return Some((word, value));
        }
    }
    None
}

/// The key and value of `line` when it sets a key written with dots (`bookings.checkout.hour=11`,
/// `server.port: 8080`) or a CSS custom property (`--accent: #2e7d32;`), or is an XML element
/// holding a value alone (`<version>1.2.0</version>`, `<maven.compiler.release>17</…>`): the
/// key as written and the value.
fn keyed_value(line: &str) -> Option<(&str, &str)> {
    let t = line.trim();
    let key_char = |c: char| asked::is_name_char(c) || c == '.' || c == '-';
    if let Some(rest) = t.strip_prefix('<') {
        let end = rest.find('>')?;
        let name = &rest[..end];
        let value = rest[end + 1..].strip_suffix(&format!("</{name}>"))?;
        let ok = !name.is_empty()
            && name.chars().all(key_char)
            && !value.trim().is_empty()
            && !value.contains(['<', '>']);
        return ok.then_some((name, value.trim()));
    }
    // A CSS custom property: `--accent: #2e7d32;` (a Hugo site, session 37).
    if let Some(rest) = t.strip_prefix("--") {
        let (name, value) = rest.split_once(':')?;
        let value = value.trim().trim_end_matches(';').trim_end();
        let ok = !name.is_empty() && name.chars().all(key_char) && !value.is_empty();
        return ok.then_some((name, value));
    }
    let end = t.find(|c: char| !key_char(c))?;
    let name = &t[..end];
    if !name.contains('.') || name.starts_with('.') || name.ends_with('.') {
        return None;
    }
    let rest = t[end..].trim_start().strip_prefix(['=', ':'])?;
    let value = rest.trim();
    (!rest.starts_with('=') && !value.is_empty()).then_some((name, value))
}

/// Whether `value`, quotes aside, is a number or a version written with dots (`1.21`, `"3.11"`,
/// `20.1.0`).
fn version_like(value: &str) -> bool {
    let v = unquoted(value);
    v.starts_with(|c: char| c.is_ascii_digit()) && v.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// The name and the version of `line` when it sets a variable to a version written with dots,
/// a leading `v` aside: `GOLANGCI_LINT_VERSION ?= v1.59.1` (`:=`, `=`, `:` too), `ARG
/// NODE_VERSION=20.11.1`, `export GO_VERSION="1.22"`; `None` otherwise.
fn version_variable(line: &str) -> Option<(&str, &str)> {
    let t = line.trim_start();
    let t = ["ARG ", "ENV ", "export "]
        .iter()
        .find_map(|k| t.strip_prefix(k))
        .map_or(t, str::trim_start);
    let end = t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))?;
    let (name, rest) = t.split_at(end);
    let rest = rest.trim_start();
    let rest = ["?=", ":=", "=", ":"]
        .iter()
        .find_map(|op| rest.strip_prefix(op))?
        .trim_start()
        .trim_start_matches(['"', '\'']);
    let rest = rest.strip_prefix(['v', 'V']).unwrap_or(rest);
    let len = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(rest.len());
    let version = &rest[..len];
    (!name.is_empty() && version.contains('.') && version_like(version)).then_some((name, version))
}

/// Images a language's name does not spell (`golang` for "Go").
const IMAGE_NAMES: &[(&str, &str)] = &[
    ("go", "golang"),
    ("nodejs", "node"),
    ("postgresql", "postgres"),
    // Microsoft's ASP.NET Core runtime image, `mcr.microsoft.com/dotnet/aspnet` (an F#
    // inventory API, session 54: "Move the Docker image's runtime stage to ASP.NET Core
    // 8.0.12." was offered no change).
    ("asp.net", "aspnet"),
];

/// When `line` is a Dockerfile's `FROM` or a Compose file's `image:` whose image (its last
/// path part) one of `keys` names — as itself or as the image of a language's name (see
/// `IMAGE_NAMES`) — and whose tag opens with a version written with dots: that version (`1.23.1`
/// of `golang:1.23.1-bookworm`); `None` otherwise.
fn image_version<'a>(line: &'a str, keys: &[asked::Part]) -> Option<&'a str> {
    let t = line.trim_start();
    let reference = if t.get(..5).is_some_and(|f| f.eq_ignore_ascii_case("from ")) {
        t[5..].split_whitespace().find(|w| !w.starts_with("--"))?
    } else {
        t.trim_start_matches("- ")
            .strip_prefix("image:")?
            .trim()
            .trim_matches(['"', '\''])
    };
    let (image, tag) = reference.rsplit_once(':')?;
    // A tag's `v` (`gleam:v1.8.1-erlang-alpine`: a Gleam feed relay, session 54) stays.
    let tag = tag.strip_prefix(['v', 'V']).unwrap_or(tag);
    let image = image.rsplit('/').next()?.to_ascii_lowercase();
    // Or the image's first part before a `-` (`dlang2/ldc-ubuntu` for "LDC": a D log shipper,
    // session 55, whose "Build the Docker image with LDC 1.40.0." was offered Compose's
    // `image: busybox:1.36.1`).
    let first = image.split_once('-').map(|(f, _)| f);
    let named = value_keys(keys).any(|k| {
        let k = k.to_ascii_lowercase();
        k == image
            || (k.len() >= 2 && first == Some(k.as_str()))
            || IMAGE_NAMES
                .iter()
                .any(|&(word, img)| word == k && img == image)
    });
    let len = tag
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(tag.len());
    let version = &tag[..len];
    (named && version.contains('.') && version_like(version)).then_some(version)
}

/// The name `text` opens with, white space before it aside: its first run of name characters
/// and `-` (`max_backoff_seconds` of `max_backoff_seconds = 1800`); empty when it opens with
/// none.
fn leading_name(text: &str) -> &str {
    let t = text.trim_start();
    let end = t
        .find(|c: char| !(asked::is_name_char(c) || c == '-'))
        .unwrap_or(t.len());
    &t[..end]
}

/// The name and value of `line` when it defines a name to one literal the Lisp way: `(def
/// default-page-size 25)` (`defconst`, `defparameter`, `defvar`, `defonce` too, a docstring
/// aside); `None` otherwise.
fn lisp_def(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim_start().strip_prefix('(')?;
    let (head, rest) = rest.split_once(char::is_whitespace)?;
    if !["def", "defconst", "defparameter", "defvar", "defonce"].contains(&head) {
        return None;
    }
    let rest = rest.trim_start();
    let end = rest.find(char::is_whitespace)?;
    let (name, value) = (&rest[..end], rest[end..].trim());
    let value = value.strip_suffix(')')?.trim_end();
    let literal = !value.is_empty()
        && !value.contains(char::is_whitespace)
        && !value.starts_with(['(', '[', '{']);
    (literal
        && name
            .chars()
            .all(|c| asked::is_name_char(c) || c == '-' || c == '*'))
    .then_some((name, value))
}

/// Whether `line` is a comment: `# `, `// `, `;; `, `-- `, `/* ` or `* ` first (with the space:
/// `#define`, CSS's `--accent:` are no comments; nor is C's `#  define`).
fn is_comment(line: &str) -> bool {
    let t = line.trim_start();
    // C's preprocessor may write its directives `#  define`.
    let directive = t.strip_prefix('#').is_some_and(|d| {
        let word = d
            .trim_start()
            .split(char::is_whitespace)
            .next()
            .unwrap_or("");
        [
            "define", "undef", "include", "if", "ifdef", "ifndef", "elif", "else", "endif",
            "pragma",
        ]
        .contains(&word)
    });
    // Doc comments too: Rust's `///` and `//!`, Nim's `##`, roxygen's `#'` (a Rust workspace,
    // session 53: `/// Soft limit for … one batch (1 MiB).` was offered as `(750 MiB)` for
    // "Change the built-in default batch size to 750 lines.").
    !directive
        && ["# ", "//", ";; ", "-- ", "/* ", "* ", "##", "#'"]
            .iter()
            .any(|c| t.starts_with(c))
}

/// The line and the number of the default of a command-line option defined over several
/// lines (see [`value_line`]): a line writing, in quotes, a word of the request as an option's
/// name (`long "width"`, `"--width"`), then on one of the next six lines of its block (indented
/// as far or further, up to a blank line) the one default given as a whole number: `value 96`,
/// `default 96`, `default=96`, `default: 96`, `default_value_t = 96` (a leading `<>`, `,` or
/// `.` aside). `None` for a value that is no whole number, or when two lines would do.
fn option_block_default<'t>(
    text: &'t str,
    keys: &[asked::Part],
    value: &str,
) -> Option<(&'t str, &'t str)> {
    if value.is_empty() || !value.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut found: Vec<(&str, &str)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let named = keys
            .iter()
            .filter(|k| asked::is_value(k) && k.text.chars().count() >= 3)
            .any(|k| {
                let name = k.text.to_lowercase();
                let low = line.to_lowercase();
                [format!("\"{name}\""), format!("\"--{name}\"")]
                    .iter()
                    .any(|q| low.contains(q.as_str()))
            });
        if !named {
            continue;
        }
        let depth = indent(line);
        for next in lines.iter().skip(i + 1).take(6) {
            if next.trim().is_empty() || indent(next) < depth {
                break;
            }
            let t = next
                .trim_start()
                .trim_start_matches("<>")
                .trim_start_matches([',', '.'])
                .trim_start();
            let rest = ["value", "default_value_t", "default_value", "default"]
                .iter()
                .find_map(|w| t.strip_prefix(w))
                .map(|r| r.trim_start().trim_start_matches(['=', ':']).trim_start());
            let Some(rest) = rest else { continue };
            let end = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            if end > 0 && !rest[end..].starts_with('.') {
                let number = &rest[..end];
                if !found.iter().any(|(l, _)| std::ptr::eq(*l, *next)) {
                    found.push((next, number));
                }
            }
        }
    }
    match found[..] {
        [one] => Some(one),
        _ => None,
    }
}

/// The line and the version of the bound of a dependency's range the request (`keys`) asks to
/// set to `value` (see [`value_line`]): the one line naming a dependency the request names,
/// as a whole word, that compares against two versions or more, and of them the one after `<`
/// or `<=` for an upper bound (`upper`, `maximum`, `max`, `ceiling`), after `>`, `>=`, `^` or
/// `~` for a lower one (`lower`, `minimum`, `min`, `floor`).
fn range_bound<'t>(text: &'t str, keys: &[asked::Part], value: &str) -> Option<(&'t str, &'t str)> {
    let upper = keys
        .iter()
        .any(|k| k.is_any(&["upper", "maximum", "max", "ceiling"]));
    let lower = keys
        .iter()
        .any(|k| k.is_any(&["lower", "minimum", "min", "floor"]));
    if !version_like(value) || upper == lower {
        return None;
    }
    let names: Vec<String> = keys
        .iter()
        .filter(|k| asked::is_value(k))
        .map(|k| k.text.trim().to_lowercase())
        .filter(|k| {
            k.chars().count() >= 2
                && !version_like(k)
                && ![
                    "upper", "maximum", "max", "ceiling", "lower", "minimum", "min", "floor",
                    "bound", "version",
                ]
                .contains(&k.as_str())
        })
        .collect();
    let mut found: Vec<(&str, &str)> = Vec::new();
    for line in text.lines() {
        let low = line.to_lowercase();
        if !names.iter().any(|n| !asked::token_at(&low, n).is_empty()) {
            continue;
        }
        // Each comparison's operator and the version after it.
        let mut bounds: Vec<(&str, &str)> = Vec::new();
        let mut rest = line;
        while let Some(at) = rest.find(['<', '>', '^', '~']) {
            let op_len = if rest[at + 1..].starts_with('=') {
                2
            } else {
                1
            };
            let op = &rest[at..at + op_len];
            let after = rest[at + op_len..].trim_start();
            let end = after
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(after.len());
            let version = after[..end].trim_end_matches('.');
            if version_like(version) {
                bounds.push((op, version));
            }
            rest = &rest[at + op_len..];
        }
        if bounds.len() < 2 {
            continue;
        }
        let mut wanted = bounds
            .iter()
            .filter(|(op, _)| op.starts_with('<') == upper)
            .map(|&(_, v)| v);
        if let (Some(v), None) = (wanted.next(), wanted.next()) {
            found.push((line, v));
        }
    }
    match found[..] {
        [one] => Some(one),
        _ => None,
    }
}

/// When `line` gives the command-line option `--key` (or `--` and `key`'s singular) a whole
/// number — `--workers 3`, `--workers=3`, an exec form's `"--workers", "3"` — the line and the
/// number; `None` otherwise.
fn option_number<'a>(line: &'a str, key: &str) -> Option<(&'a str, &'a str)> {
    let lower = key.to_lowercase();
    let singular = lower.strip_suffix('s').unwrap_or(&lower);
    [lower.as_str(), singular].iter().find_map(|name| {
        let flag = format!("--{name}");
        asked::token_at(line, &flag).into_iter().find_map(|at| {
            let rest = &line[at + flag.len()..];
            let rest = rest
                .strip_prefix(['"', '\''])
                .map(|r| r.trim_start().strip_prefix(',').unwrap_or(r))
                .unwrap_or(rest);
            let rest = rest.strip_prefix('=').unwrap_or(rest);
            let rest = rest.trim_start().trim_start_matches(['"', '\'']);
            let end = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            let after = rest[end..].chars().next();
            (end > 0 && after.is_none_or(|c| !c.is_alphanumeric() && c != '.'))
                .then_some((line, &rest[..end]))
        })
    })
}

/// When `line` declares a Cmdliner option named `key` (case aside) with a literal default —
/// `opt int 20 & info [ "r"; "reserve" ]`, `opt float 5.5 & info [ "speed" ]` — the line and
/// the default; `None` otherwise (`opt (some float) None` has none).
pub(crate) fn cmdliner_default<'a>(line: &'a str, key: &str) -> Option<(&'a str, &'a str)> {
    let info = line.find("info [")?;
    let list = &line[info + "info [".len()..];
    let list = &list[..list.find(']')?];
    if !list
        .split(';')
        .any(|name| name.trim().trim_matches('"').eq_ignore_ascii_case(key))
    {
        return None;
    }
    let before = &line[..info];
    let opt = asked::token_at(before, "opt").into_iter().next_back()?;
    let rest = before[opt + "opt".len()..].trim_start();
    // The converter: a word (`int`), or a parenthesised one (`(some float)`).
    let rest = if let Some(inner) = rest.strip_prefix('(') {
        &inner[inner.find(')')? + 1..]
    } else {
        &rest[rest.find(char::is_whitespace)?..]
    };
    let rest = rest.trim_start();
    let end = rest
        .find(|c: char| c.is_whitespace() || c == '&' || c == ')')
        .unwrap_or(rest.len());
    let value = &rest[..end];
    (value.starts_with(|c: char| c.is_ascii_digit() || c == '-')
        && value
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '_')))
    .then_some((line, value))
}

/// The keywords `line` gives a value the EDN way, each with its value: a literal after
/// `:name` (`:request-timeout-ms 7500`, `:host "0.0.0.0"`), or, for a map of profiles (aero's
/// `:pool-size #profile {:dev 4 :test 2 :prod 24}`), the literal of the one profile `picks`
/// (`24` for `prod`). Values built by a reader tag (`#or [#env PORT 3000]`), a vector or a
/// map are no literal.
fn edn_entries<'a>(line: &'a str, picks: &dyn Fn(&str) -> bool) -> Vec<(&'a str, &'a str)> {
    // The literal at the start of `rest` (a string whole), and what follows it.
    fn literal(rest: &str) -> Option<(&str, &str)> {
        let end = if let Some(string) = rest.strip_prefix('"') {
            string.find('"')? + 2
        } else {
            rest.find(|c: char| c.is_whitespace() || matches!(c, '}' | ']' | ')' | ','))
                .unwrap_or(rest.len())
        };
        let value = &rest[..end];
        let bad = value.is_empty() || value.starts_with(['#', '[', '{', '(', ':', ';']);
        (!bad).then(|| (value, &rest[end..]))
    }
    let key_char = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | '?' | '!' | '*');
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find(':') {
        // The character before in the whole line, not in what is left of it: `::` joins a
        // Perl or C++ name (`$Quarry::VERSION // 'dev'` is no keyword `:VERSION` set to `//`:
        // a Perl distribution, session 52).
        let before = line[..line.len() - rest.len() + at].chars().next_back();
        let after = &rest[at + 1..];
        rest = after;
        if before.is_some_and(|c| !(c.is_whitespace() || c == '{')) {
            continue;
        }
        let end = after.find(|c: char| !key_char(c)).unwrap_or(after.len());
        let name = &after[..end];
        let tail = &after[end..];
        if name.is_empty() || !tail.starts_with([' ', '\t']) {
            continue;
        }
        let tail = tail.trim_start();
        if let Some(map) = tail.strip_prefix("#profile") {
            let Some(map) = map.trim_start().strip_prefix('{') else {
                continue;
            };
            let body = &map[..map.find('}').unwrap_or(map.len())];
            let mut chosen = Vec::new();
            let mut entries = body;
            while let Some(k) = entries.find(':') {
                let entry = &entries[k + 1..];
                let end = entry.find(|c: char| !key_char(c)).unwrap_or(entry.len());
                let profile = &entry[..end];
                entries = &entry[end..];
                let Some((value, next)) = literal(entries.trim_start()) else {
                    continue;
                };
                entries = next;
                if picks(&profile.to_lowercase()) {
                    chosen.push(value);
                }
            }
            if let [one] = chosen[..] {
                out.push((name, one));
            }
            rest = &map[body.len()..];
        } else if let Some((value, _)) = literal(tail) {
            out.push((name, value));
        }
    }
    out
}

/// Whether `value` is an image's tag as a request gives one: a version, alone or with its
/// variant after a `-` (`1.27.0-alpine`, `3.12-slim`, `20.11.1-bookworm`), a `v` before it or
/// not (`v2.54.1`, as Prometheus tags its images).
fn tag_like(value: &str) -> bool {
    let (version, variant) = value.split_once('-').unwrap_or((value, ""));
    let version = version.strip_prefix(['v', 'V']).unwrap_or(version);
    version_like(version)
        && variant
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.' || c == '_')
}

/// When `line` (no comment) names the image `key` with a tag — `FROM nginx:1.25.4-alpine AS
/// runtime`, `image: docker.io/library/nginx:1.25.4` (the name after the registry's path,
/// case aside) — the line and the part of the tag `value` replaces: the whole tag when `value`
/// gives a variant too, else the version before the tag's variant, which stays
/// (`1.25.4-alpine` → `1.27.0-alpine` for "Update nginx to 1.27.0"). `None` otherwise.
fn image_tag<'a>(line: &'a str, key: &str, value: &str) -> Option<(&'a str, &'a str)> {
    if is_comment(line) {
        return None;
    }
    let mut found = image_words(line).filter_map(|word| {
        let (image, tag) = word.rsplit_once(':')?;
        let name = image.rsplit('/').next()?;
        (name.eq_ignore_ascii_case(key) && tag_like(tag)).then_some(tag)
    });
    let (Some(tag), None) = (found.next(), found.next()) else {
        return None;
    };
    // A `v` the tag writes stays when the request gives the version without one (`v2.53.0`
    // → `v2.54.1` for "… to 2.54.1").
    let tag = match tag.strip_prefix('v') {
        Some(bare) if !value.starts_with('v') => bare,
        _ => tag,
    };
    if value.contains('-') {
        return Some((line, tag));
    }
    Some((
        line,
        tag.split_once('-').map_or(tag, |(version, _)| version),
    ))
}

/// The words of `line` that may name an image with its tag (`perl:5.38-slim` of `FROM
/// perl:5.38-slim AS build`, of `image: "redis:7.2"`): split at spaces, quotes, `=` and `,`.
fn image_words(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == '=' || c == ',')
}

/// The image `keys` name at one tag on several lines of `text` (a Dockerfile's stages, `FROM
/// perl:5.38-slim AS build` and `FROM perl:5.38-slim AS runtime`), set to `value` on all of
/// them: the edit replacing each `perl:5.38-slim` by `perl:5.40-slim`. Found with a Perl
/// distribution (session 52): "Move the Docker image to Perl 5.40 (slim variant) for both the
/// build and the runtime stage." found two lines where one was wanted, and was offered the
/// CI's `perl-version: '5.38'`. The same image at one version with tags of its own variants
/// (`21-jdk`, `21-jre`) is set on all of them too. `None` unless every such line writes the
/// same image and version, and the file writes it nowhere else.
fn every_stage(path: &str, text: &str, keys: &[asked::Part], value: &str) -> Option<Value> {
    if !tag_like(value) {
        return None;
    }
    let mut refs: Vec<(&str, &str)> = Vec::new();
    for key in value_keys(keys) {
        for line in text.lines() {
            let Some((_, old)) = image_tag(line, key, value) else {
                continue;
            };
            let image = image_words(line).find(|w| {
                w.rsplit_once(':').is_some_and(|(image, tag)| {
                    image
                        .rsplit('/')
                        .next()
                        .is_some_and(|n| n.eq_ignore_ascii_case(key))
                        && tag.contains(old)
                })
            })?;
            refs.push((image, old));
        }
    }
    let [(image, old), rest @ ..] = &refs[..] else {
        return None;
    };
    if rest.is_empty() {
        return None;
    }
    // Stages of one image at one version with variants of their own (`eclipse-temurin:21-jdk`
    // to build, `eclipse-temurin:21-jre` to run) move together: the runtime runs what the
    // build made (see `every_image_tag`; `node:20.17.0-alpine` and `node:20.17.0-slim` for
    // "Move web/Dockerfile to Node 22.12.0.", which was offered no change).
    if rest.iter().any(|r| r != &(*image, *old)) {
        return rest
            .iter()
            .all(|(_, o)| o == old)
            .then(|| every_image_tag(path, text, old, value))
            .flatten();
    }
    if text.matches(image).count() != refs.len() {
        return None;
    }
    let (name, tag) = image.rsplit_once(':')?;
    let new = format!("{name}:{}", tag.replacen(old, value, 1));
    (new != *image)
        .then(|| json!({"path": path, "old_text": image, "new_text": new, "replace_all": true}))
}

/// The version a package `keys` name is pinned to on several lines of `text`, the same on each
/// (a Gemfile.lock's `puma (6.4.3)` under `specs:` and `puma (= 6.4.3)` under `DEPENDENCIES`),
/// set to `value` on all of them where the file writes that version nowhere else (see
/// [`every_version`]). Found with a Rails API (session 56): "Upgrade Puma to 6.5.0. It's
/// pinned exactly, so update both the Gemfile and Gemfile.lock." was offered one line of the
/// lock.
fn every_pin(path: &str, text: &str, keys: &[asked::Part], value: &str) -> Option<Value> {
    let pins = pins_of(text, keys, value);
    let [(_, old), rest @ ..] = &pins[..] else {
        return None;
    };
    if rest.is_empty() || rest.iter().any(|(_, o)| o != old) {
        return None;
    }
    every_version(path, text, old, value)
}

/// The lines of `text` pinning a package `keys` name ([`pinned`]) to a version other than
/// `value`, each with that version.
fn pins_of<'t>(text: &'t str, keys: &[asked::Part], value: &str) -> Vec<(&'t str, &'t str)> {
    value_keys(keys)
        .flat_map(|key| text.lines().filter_map(move |l| pinned(l, key)))
        .filter(|(_, old)| *old != value)
        .collect()
}

/// The version `from` where `text` writes it only as the version an image's tag opens with,
/// on two lines or more, each of one image (`eclipse-temurin:21-jdk` to build,
/// `eclipse-temurin:21-jre` to run): the edit setting `to` on all of them (`eclipse-temurin:21`
/// → `eclipse-temurin:23`). The runtime runs what the build made. Found with a Ktor link
/// shortener (session 55): "Build and run the Docker image on Java 23 instead of 21." was
/// offered the build stage's line alone.
fn every_image_tag(path: &str, text: &str, from: &str, to: &str) -> Option<Value> {
    if !version_like(from) || !version_like(to) || from == to {
        return None;
    }
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !asked::token_at(l, from).is_empty())
        .collect();
    if lines.len() < 2 {
        return None;
    }
    let mut images: Vec<String> = Vec::new();
    for line in &lines {
        let image = image_words(line).find_map(|w| {
            let (name, tag) = w.rsplit_once(':')?;
            let rest = tag.strip_prefix(from)?;
            (!name.is_empty()
                && !name.contains("//")
                && !rest.starts_with(|c: char| c.is_ascii_digit() || c == '.'))
            .then(|| format!("{name}:{from}"))
        })?;
        images.push(image);
    }
    let image = &images[0];
    if images.iter().any(|i| i != image) || text.matches(image.as_str()).count() != lines.len() {
        return None;
    }
    let (name, _) = image.rsplit_once(':')?;
    Some(
        json!({"path": path, "old_text": image, "new_text": format!("{name}:{to}"), "replace_all": true}),
    )
}

/// The reference `owner/name@version` that `keys` name (`erlef/setup-beam@v1.17.6`: a GitHub
/// Actions step's `uses:`), written alike on several lines of `text`, set to `value` on all of
/// them: the edit replacing each, its `v` kept as written. Found with a Gleam feed relay
/// (session 54): "Bump erlef/setup-beam to v1.18.2 in CI." was offered no change, the test and
/// the format job each using the action. `None` unless every such reference is the same and
/// the file writes it nowhere else.
fn every_use(path: &str, text: &str, keys: &[asked::Part], value: &str) -> Option<Value> {
    let bare = value.strip_prefix(['v', 'V']).unwrap_or(value);
    // Or a major version written with its `v` (`v4` of "Switch CI over to actions/setup-java
    // v4.": a Ktor link shortener, session 55, whose two jobs use `actions/setup-java@v3`).
    let major = bare.len() < value.len() && !bare.is_empty() && version_like(bare);
    if !(major || (version_like(bare) && bare.contains('.'))) {
        return None;
    }
    let mut refs: Vec<&str> = Vec::new();
    for key in keys
        .iter()
        .map(|k| k.text.trim())
        .filter(|k| k.contains('/') && k.len() >= 3)
    {
        let lower = key.to_ascii_lowercase();
        for line in text.lines().filter(|l| !is_comment(l)) {
            for word in line.split(|c: char| c.is_whitespace() || c == '"' || c == '\'') {
                if let Some((name, version)) = word.split_once('@')
                    && name.eq_ignore_ascii_case(&lower)
                    && version_like(version.trim_start_matches(['v', 'V']))
                {
                    refs.push(word);
                }
            }
        }
    }
    let [first, rest @ ..] = &refs[..] else {
        return None;
    };
    if rest.is_empty()
        || rest.iter().any(|r| r != first)
        || text.matches(first).count() != refs.len()
    {
        return None;
    }
    let (name, old) = first.split_once('@')?;
    let v = if old.starts_with(['v', 'V']) { "v" } else { "" };
    let new = format!("{name}@{v}{bare}");
    (new != *first)
        .then(|| json!({"path": path, "old_text": first, "new_text": new, "replace_all": true}))
}

/// When `line` pins the requirement `key` (case aside) to a version — `pytest==8.2.2`,
/// `Django>=5.0`, `psycopg[binary]~=3.1.19`, a comment after it aside, an opam dependency's
/// `"yojson" {>= "2.1.0"}` — the line and the version; `None` otherwise.
fn pinned<'a>(line: &'a str, key: &str) -> Option<(&'a str, &'a str)> {
    let t = line.trim_start();
    // A cpanfile's `requires 'Config::Tiny', '2.28';` (`=>` for the comma too; a Perl
    // distribution, session 52: "Raise the minimum Config::Tiny version quarry's cpanfile asks
    // for to 2.30." was offered no change).
    // A Gemfile's `gem "puma", "6.4.3"` (`~> 7.3`: the version after its operator) too (a
    // Rails API, session 56: "Upgrade Puma to 6.5.0. …" was offered the lock file's lines and
    // never the Gemfile's).
    let cpan = || -> Option<&'a str> {
        let rest = [
            "requires",
            "recommends",
            "test_requires",
            "build_requires",
            "gem",
        ]
        .iter()
        .find_map(|w| t.strip_prefix(w))
        .filter(|r| r.starts_with([' ', '\t']))?
        .trim_start();
        let quote = rest.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
        let (name, rest) = rest[1..].split_once(quote)?;
        if !name.eq_ignore_ascii_case(key) {
            return None;
        }
        let rest = rest.trim_start();
        let rest = rest
            .strip_prefix(',')
            .or_else(|| rest.strip_prefix("=>"))?
            .trim_start()
            .strip_prefix(['\'', '"'])?;
        let version = &rest[..rest.find(['\'', '"'])?];
        let version = version.trim_start_matches(['~', '>', '=', '<', ' ']);
        version_like(version).then_some(version)
    };
    if let Some(version) = cpan() {
        return Some((line, version));
    }
    // A Nimble file quotes the name and its constraint together after `requires`: `requires
    // "chronicles == 0.10.3"` (a Nim daemon, session 52: "Upgrade the chronicles logging
    // dependency to version 0.10.4." was offered no change).
    let (t, nimble) = match t
        .strip_prefix("requires")
        .filter(|r| r.starts_with([' ', '\t']))
        .and_then(|r| r.trim_start().strip_prefix('"'))
    {
        Some(quoted) => (quoted, true),
        None => (t, false),
    };
    // An opam file quotes the package's name and braces its constraint: `"yojson" {>=
    // "2.1.0"}` (an OCaml/dune project, session 49: "Require at least yojson 2.2.0." was
    // offered no change).
    let (t, opam) = match t.strip_prefix('"').filter(|_| !nimble) {
        Some(unquoted) => (unquoted, true),
        None => (t, false),
    };
    let rest = t.get(key.len()..)?;
    if !t[..key.len()].eq_ignore_ascii_case(key) {
        return None;
    }
    let rest = if opam {
        rest.strip_prefix('"')?.trim_start().strip_prefix('{')?
    } else {
        rest
    };
    // Extras, `[binary]`.
    let rest = match rest.strip_prefix('[') {
        Some(extras) => &extras[extras.find(']')? + 1..],
        None => rest,
    };
    // A Gemfile.lock's `puma (6.4.3)` under `specs:` and `puma (= 6.4.3)` under
    // `DEPENDENCIES` (a Rails API, session 56): the version in the parentheses, after its
    // operator.
    if !opam
        && !nimble
        && let Some(inner) = rest.strip_prefix(" (")
        && let Some(inner) = inner
            .strip_suffix(')')
            .or_else(|| inner.trim_end().strip_suffix(')'))
    {
        let version = inner.trim_start_matches(['~', '>', '=', '<', '!', ' ']);
        return (version_like(version) && !version.contains(' ')).then_some((line, version));
    }
    // Cargo's inline table of a dependency with features: `reqwest = { version = "0.12.5",
    // default-features = false, … }` (a Rust workspace, session 53: "Upgrade reqwest to
    // 0.12.9." was offered no change). The version's requirement operator stays.
    if !opam
        && !nimble
        && rest.starts_with([' ', '\t', '='])
        && let Some(table) = rest.trim_start().strip_prefix('=')
        && let Some(table) = table.trim_start().strip_prefix('{')
    {
        let at = table.match_indices("version").find_map(|(at, _)| {
            let before = table[..at].trim_end();
            let after = table[at + "version".len()..].trim_start();
            ((before.is_empty() || before.ends_with(',')) && after.starts_with('='))
                .then(|| after[1..].trim_start())
        })?;
        let quoted = at.strip_prefix('"')?;
        let quoted = &quoted[..quoted.find('"')?];
        let version = quoted.trim_start_matches(['^', '~', '=', '>', '<', ' ']);
        return version_like(version).then_some((line, version));
    }
    let rest = rest.trim_start();
    let op = ["===", "==", ">=", "~=", "<=", "!=", "="]
        .iter()
        .filter(|op| opam || **op != "=")
        .find(|op| rest.starts_with(*op))?;
    let version = rest[op.len()..].trim_start();
    let version = if opam {
        version.strip_prefix('"')?
    } else {
        version
    };
    let end = version
        .find(|c: char| {
            c.is_whitespace() || c == ',' || c == ';' || c == '#' || ((opam || nimble) && c == '"')
        })
        .unwrap_or(version.len());
    let version = &version[..end];
    version_like(version).then_some((line, version))
}

/// When `line` is a directive naming `key` — the key first, then one value, then `;`, as an
/// nginx config writes `client_max_body_size 10m;` — the line and the value; `None` otherwise.
fn directive<'a>(line: &'a str, key: &str) -> Option<(&'a str, &'a str)> {
    let rest = line.trim_start().strip_prefix(key)?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let value = rest.trim().strip_suffix(';')?.trim_end();
    (!value.is_empty() && !value.contains(char::is_whitespace)).then_some((line, value))
}

/// The keys of the blocks that hold line `k` (0-based) of `text` by indentation, innermost
/// first: each line above it, less indented than the last one taken, that opens a block with
/// `name:`, `name =`, `"name": {`, `name {` (quotes and a list's `- ` aside) or an XML
/// element's `<name>` (closing tags, comments and declarations skipped).
fn enclosing_keys(text: &str, k: usize) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let Some(mut level) = lines.get(k).map(|l| indent(l)) else {
        return Vec::new();
    };
    // A key at the margin of a TOML or INI file is its section's: `flush_interval_ms = 4000`
    // under `[batch]` (a Rust workspace, session 53).
    if level == 0 {
        return lines[..k]
            .iter()
            .rev()
            .find_map(|l| section_header(l))
            .map(|name| vec![name.to_owned()])
            .unwrap_or_default();
    }
    let mut keys = Vec::new();
    for line in lines[..k].iter().rev() {
        let t = line.trim();
        if level == 0 {
            break;
        }
        if t.is_empty()
            || t.starts_with('#')
            || t.starts_with("//")
            || t.starts_with("</")
            || t.starts_with("<!")
            || t.starts_with("<?")
            || indent(line) >= level
        {
            continue;
        }
        level = indent(line);
        let t = t.strip_prefix("- ").unwrap_or(t);
        let t = t.strip_prefix('<').unwrap_or(t);
        let end = t.find([':', '=', '{', ' ', '>']).unwrap_or(t.len());
        let key = t[..end].trim().trim_matches(['"', '\'']);
        if !key.is_empty() {
            keys.push(key.to_owned());
        }
    }
    keys
}

/// The name of a TOML or INI section that `line` opens, `batch` of `[batch]`, `input` of
/// `[[input]]`, `tool.ruff` of `[tool.ruff]`; `None` for any other line.
fn section_header(line: &str) -> Option<&str> {
    let t = line.trim();
    let inner = t.strip_prefix("[[").and_then(|r| r.strip_suffix("]]"));
    let inner = inner.or_else(|| t.strip_prefix('[').and_then(|r| r.strip_suffix(']')))?;
    let name = inner.trim();
    (!name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ' ' | '"')))
    .then_some(name)
}

/// When no line assigns `key`, the one line that names it as a word of its own (`"--city"`,
/// `'city'`) and passes a keyword argument that `request` names a value
/// (`add.add_argument("--city", default="Oslo")` for "Make Bergen the default city"): the line
/// and that value as written. Found on the held-out project tasks (city_default):
/// Qwen2.5-Coder-0.5B sent `{"city": "Bergen"}` to a made-up tool `add`.
fn keyword_value<'a>(text: &'a str, key: &str, request: &str) -> Option<(&'a str, &'a str)> {
    let words: Vec<String> = crate::tools::request_words(request)
        .filter(|w| w.chars().count() >= 3)
        .map(str::to_lowercase)
        .collect();
    let mut found = text
        .lines()
        .filter(|l| !asked::token_at(l, key).is_empty())
        .flat_map(|line| {
            keyword_args(line)
                .filter(|(name, _)| words.iter().any(|w| w.eq_ignore_ascii_case(name)))
                .map(move |(_, value)| (line, value))
        });
    let one = found.next()?;
    found.next().is_none().then_some(one)
}

/// The default value of the parameter `key` in the signature `line` opens: after `(`, the name
/// `key` as a word of its own, an optional `?` and `: Type`, then `=` (not `==`) and the value
/// as written — up to the next `,` or `)` outside brackets and quotes. `None` when `line` is no
/// signature or `key` has no default there.
fn param_default<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let open = line.find('(')?;
    let head = line[..open].trim_end();
    // A definition's name right before the `(`: `function truncate(`, `def wrap(`, `fn f(`.
    let name_start = asked::run_start(head, asked::is_name_char);
    let before = head[..name_start].trim_end();
    let defines = before
        .split_whitespace()
        .next_back()
        .is_some_and(|w| ["function", "def", "fn", "func", "async"].contains(&w));
    if !defines || name_start == head.len() {
        return None;
    }
    let at = asked::token_at(&line[open..], key)
        .into_iter()
        .map(|at| open + at)
        .find(|&at| {
            let prev = line[..at].trim_end();
            prev.ends_with(['(', ','])
        })?;
    let rest = line[at + key.len()..].trim_start();
    let rest = rest.strip_prefix('?').unwrap_or(rest).trim_start();
    let rest = match rest.strip_prefix(':') {
        Some(typed) => {
            let eq = typed.find('=')?;
            if !is_type(&typed[..eq]) {
                return None;
            }
            &typed[eq..]
        }
        None => rest,
    };
    let value = rest.strip_prefix('=')?;
    if value.starts_with(['=', '>']) {
        return None;
    }
    let value = value.trim_start();
    let (mut depth, mut quote) = (0usize, None::<char>);
    let mut end = value.len();
    for (i, c) in value.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') if depth > 0 => depth -= 1,
            (None, ',' | ')') if depth == 0 => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    let value = value[..end].trim_end();
    (!value.is_empty()).then_some(value)
}

/// The value after the word `DEFAULT` (any case) on `line`, as SQL writes a column's default:
/// a quoted string with its quotes, or the text up to the next `,`, `)` or space.
fn sql_default(line: &str) -> Option<&str> {
    let lower = line.to_ascii_lowercase();
    let at = asked::token_at(&lower, "default").into_iter().next()?;
    let rest = &line[at + "default".len()..];
    let trimmed = rest.trim_start();
    if trimmed.len() == rest.len() {
        return None;
    }
    let value = match trimmed.chars().next()? {
        q @ ('"' | '\'') => &trimmed[..trimmed[1..].find(q)? + 2],
        _ => &trimmed[..trimmed.find([',', ')', ' ', ';']).unwrap_or(trimmed.len())],
    };
    (!value.is_empty()).then_some(value)
}

/// The keyword arguments of a call written on `line`, `name=value` (not `==`), each value as
/// written: a quoted string, or the text up to the next `,`, `)` or space.
fn keyword_args(line: &str) -> impl Iterator<Item = (&str, &str)> {
    let b = line.as_bytes();
    memchr::memchr_iter(b'=', b).filter_map(move |at| {
        if b.get(at + 1) == Some(&b'=')
            || (at > 0 && matches!(b[at - 1], b'=' | b'!' | b'<' | b'>'))
        {
            return None;
        }
        let name_start = asked::run_start(&line[..at], |c| c.is_alphanumeric() || c == '_');
        let name = &line[name_start..at];
        if name.is_empty() {
            return None;
        }
        let rest = &line[at + 1..];
        let value = match rest.chars().next()? {
            q @ ('"' | '\'') => {
                let end = rest[1..].find(q)? + 2;
                &rest[..end]
            }
            _ => {
                let end = rest.find([',', ')', ' ', ';']).unwrap_or(rest.len());
                &rest[..end]
            }
        };
        (!value.is_empty()).then_some((name, value))
    })
}

/// The value of the entry `line` gives the quoted key `key` (`"milk": 1.1`, `'milk': 1.1`)
/// inside a collection: from after the `:` up to the next `,` or closing bracket outside
/// strings, as written. `None` when the line names no such key, or names it twice.
fn entry_value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut found = ['"', '\''].into_iter().flat_map(|q| {
        let quoted = format!("{q}{key}{q}");
        line.match_indices(&quoted)
            .map(|(at, _)| at + quoted.len())
            .collect::<Vec<_>>()
    });
    let (after, None) = (found.next()?, found.next()) else {
        return None;
    };
    let rest = line[after..].trim_start().strip_prefix(':')?;
    let start = line.len() - rest.trim_start().len();
    let mut depth = 0u32;
    let mut end = line.len();
    for (at, c) in Unquoted::new(&line[start..]) {
        match c {
            '{' | '[' | '(' => depth += 1,
            ',' | '}' | ']' | ')' if depth == 0 => {
                end = start + at;
                break;
            }
            '}' | ']' | ')' => depth -= 1,
            _ => {}
        }
    }
    let value = line[start..end].trim_end();
    (!value.is_empty()).then_some(value)
}

/// When `line` assigns `key` — the key, in quotes or not, then `=` or `:`, then a value — the
/// line and the value as written (without a trailing `,` or `;`); `None` otherwise. The key
/// must stand alone: `my_version = 1` does not assign `version`. A declaration's keywords may
/// come first and a type between the name and the `=` (`pub const MILES_TO_KM: f64 = 1.609;`,
/// `TIMEOUT: int = 30`); a `:` followed by text that is no type is the separator itself
/// (`"name": "a = b"`). A declaration of a type and no value assigns nothing (`public var
/// timeoutSeconds: TimeInterval`).
fn assignment<'a>(line: &'a str, key: &str) -> Option<(&'a str, &'a str)> {
    if let Some((name, value)) = erlang_pair(line) {
        return (name == key).then_some((line, value));
    }
    let (rest, _) = super::snippet::declared(line);
    let declared_rest = rest;
    // A vim option: `set tabstop=4` (a folder of dotfiles, session 31).
    let rest = ["set ", "setlocal ", "setglobal "]
        .iter()
        .find_map(|w| rest.strip_prefix(w))
        .map_or(rest, str::trim_start);
    let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
    // A Perl or PHP variable's sigil: `our $VERSION = '0.23';` (a Perl distribution, session
    // 52: "Bump quarry's version to 0.24." was offered no change).
    let rest = match rest.strip_prefix('$') {
        Some(r) if !key.starts_with('$') => r,
        _ => rest,
    };
    // A Zig struct literal's field, `.version = "0.6.1",` (a Zig package's `build.zig.zon`,
    // session 49: "Bump the package version to 0.7.0." was offered no change).
    let rest = match rest.strip_prefix('.') {
        Some(field) if !key.starts_with('.') && field.starts_with(key) => field,
        _ => rest,
    };
    let rest = rest.strip_prefix(key)?;
    let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest);
    // Nim's export mark, `DefaultBatchSize* = 750` (not C's `x*=2`).
    let rest = match rest.strip_prefix('*') {
        Some(r) if r.starts_with([' ', '\t', ':']) => r,
        _ => rest,
    };
    let rest = rest.trim_start();
    // A hash's entry, `'per_page' => 25,` (PHP's arrays, Ruby's and Perl's hashes); sbt's
    // and Go's `:=` (`scalaVersion := "2.13.12"`).
    if let Some(value) = rest.strip_prefix("=>").or_else(|| rest.strip_prefix(":=")) {
        let value = value.trim().trim_end_matches([',', ';']).trim_end();
        return (!value.is_empty()).then_some((line, value));
    }
    let mut rest = rest.strip_prefix(['=', ':'])?;
    if rest.starts_with('=') {
        return None;
    }
    if line[..line.len() - rest.len()].ends_with(':')
        && let Some(eq) = rest.find('=')
        && is_type(&rest[..eq])
    {
        // `name: Type = value`: the value is after the `=`.
        rest = &rest[eq + 1..];
        if rest.starts_with('=') {
            return None;
        }
    } else if line[..line.len() - rest.len()].ends_with(':')
        && line.trim_start().len() > declared_rest.len()
        && is_type(rest.trim().trim_end_matches([',', ';']))
    {
        // A declaration's type with no value: `public var timeoutSeconds: TimeInterval`.
        return None;
    }
    let value = rest.trim().trim_end_matches([',', ';']).trim_end();
    (!value.is_empty()).then_some((line, value))
}

/// The key and value of an Erlang term's pair opening `line` — `{rate_per_sec, 40},` in
/// `sys.config`, an `.app.src`'s env, `rebar.config`'s `{cowboy, "2.12.0"},` — when the value
/// is one simple term (no tuple, list or further element). Found with an Erlang/OTP service
/// (session 51): "Upgrade cowboy to 2.13.0." was offered no change.
fn erlang_pair(line: &str) -> Option<(&str, &str)> {
    let pair = line.trim_start().strip_prefix('{')?;
    let end = pair.find(|c: char| !asked::is_name_char(c))?;
    let (name, rest) = pair.split_at(end);
    let value = rest.strip_prefix(',')?.trim_start();
    let value = value[..value.find('}')?].trim_end();
    let simple = !name.is_empty()
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && !value.is_empty()
        && !value.contains(['{', '[', ',']);
    simple.then_some((name, value))
}

/// Whether `text` is a type as a declaration writes it before its `=`: names, paths and
/// generics (`f64`, `Vec<u8>`, `Record<string, number>`, `Option<&'static str>`, `int | None`).
/// Words stand apart only after `,`, `|`, a reference or `dyn`/`impl`/`mut`: `Hello world`
/// (`title: Hello world = greeting` in YAML) is no type.
fn is_type(text: &str) -> bool {
    let text = text.trim();
    let words: Vec<&str> = text.split_whitespace().collect();
    !text.is_empty()
        && text.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '&' || c == '[')
        && text
            .chars()
            .all(|c| asked::is_name_char(c) || c.is_whitespace() || "<>[]&',.:|?()*".contains(c))
        && words.windows(2).all(|w| {
            w[0].ends_with([',', '|'])
                || w[1] == "|"
                || w[0]
                    .rsplit(['<', '(', '[', ','])
                    .next()
                    .is_some_and(|last| {
                        last.starts_with('&') || ["dyn", "impl", "mut"].contains(&last)
                    })
        })
}

/// How many bytes of white space open `line`: its indentation.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The last line of `text` before `line` (a line of `text`, as `str::lines` gives it) that is
/// not blank; `None` for the first such line or a `line` from elsewhere.
fn line_before<'t>(text: &'t str, line: &str) -> Option<&'t str> {
    let at = (line.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    if at > text.len() {
        return None;
    }
    text[..at].lines().rev().find(|l| !l.trim().is_empty())
}

fn line_of(text: &str, at: usize) -> usize {
    memchr::memchr_iter(b'\n', &text.as_bytes()[..at]).count() + 1
}

/// True when `text` has line breaks and every one is CRLF.
fn is_crlf(text: &str) -> bool {
    let b = text.as_bytes();
    let mut lfs = memchr::memchr_iter(b'\n', b).peekable();
    lfs.peek().is_some() && lfs.all(|i| i > 0 && b[i - 1] == b'\r')
}

/// `s` with every line break as CRLF.
fn to_crlf(s: &str) -> String {
    s.replace("\r\n", "\n").replace('\n', "\r\n")
}

/// `s` without the line numbers `read` puts before each line (`12\t`, or `12.`, `12:`, `12)`,
/// `12 ` as models rewrite them), with the first line's number, when every non-empty line has
/// one and they count up by one; `None` otherwise.
fn strip_line_numbers(s: &str) -> Option<(usize, String)> {
    let mut out = Vec::new();
    let mut first = None;
    let mut next = 0;
    for line in s.split('\n') {
        if line.trim().is_empty() {
            out.push(line);
            continue;
        }
        let rest = line.trim_start();
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > 6 {
            return None;
        }
        let number: usize = rest[..digits].parse().ok()?;
        if first.is_some() && number != next {
            return None;
        }
        first.get_or_insert(number);
        let after = &rest[digits..];
        let after = match after.as_bytes().first() {
            Some(b'\t' | b'.' | b':' | b')') => &after[1..],
            Some(b' ') => after,
            _ => return None,
        };
        out.push(after.strip_prefix(' ').unwrap_or(after));
        next = number + 1;
    }
    first.map(|n| (n, out.join("\n")))
}

/// Where `old` (line numbers stripped from old_text that began at line `number`) stands in
/// `text`: found once, at the start of that very line. Anything else is not a copy of read's
/// numbered lines — `1 egg` is a quantity, not line 1.
fn numbered_copy_at(text: &str, number: usize, old: &str) -> Option<usize> {
    let mut found = text.match_indices(old).map(|(i, _)| i);
    let at = found.next()?;
    let starts_line = at == 0 || text.as_bytes()[at - 1] == b'\n';
    (found.next().is_none() && starts_line && line_of(text, at) == number).then_some(at)
}

/// The line of `text` most like `wanted`'s first line (1-based number and text), when one is
/// close enough to name: a model that misremembers a line gets the real one to copy.
fn closest_line<'t>(text: &'t str, wanted: &str) -> Option<(usize, &'t str)> {
    let first = wanted.lines().next()?.trim();
    if first.chars().count() < 5 {
        return None;
    }
    text.lines()
        .enumerate()
        .map(|(i, l)| (strsim::normalized_levenshtein(first, l.trim()), i + 1, l))
        .filter(|(score, _, _)| *score >= 0.6)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, n, l)| (n, l))
}

/// The word runs of `s` (letters, digits, `_`) with their byte ranges.
fn words(s: &str) -> Vec<(usize, usize)> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        match (is_word(c), start) {
            (true, None) => start = Some(i),
            (false, Some(b)) => {
                out.push((b, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(b) = start {
        out.push((b, s.len()));
    }
    out
}

/// Word `k` of `s`, whose word ranges are `w`.
fn word<'s>(s: &'s str, w: &[(usize, usize)], k: usize) -> &'s str {
    &s[w[k].0..w[k].1]
}

/// A one-line `old` → `new` edit written in other punctuation than the file's (`debug = false`
/// for the line `"debug": false,`): when exactly one line of `text` has `old`'s words, in order
/// and nothing else, the same change of words made on that line, in the file's own text — the
/// line (without its indentation) and the line changed, each unique in `text`. The words that
/// differ between `old` and `new` (after their common first and last words) are replaced on the
/// line by what `new` writes there. `None` when anything is unclear: several lines, a change
/// that only inserts or only removes words, multi-line text.
fn same_words_line<'t>(text: &'t str, old: &str, new: &str) -> Option<(usize, &'t str, String)> {
    if old.contains('\n') || new.contains('\n') {
        return None;
    }
    let (wo, wn) = (words(old), words(new));
    if wo.is_empty() {
        return None;
    }
    let same = |a: &str, aw: &[(usize, usize)], b: &str, bw: &[(usize, usize)]| {
        aw.len() == bw.len() && (0..aw.len()).all(|k| word(a, aw, k) == word(b, bw, k))
    };
    let mut found = None;
    for (n, line) in text.lines().enumerate() {
        let wl = words(line);
        if same(line, &wl, old, &wo) {
            if found.is_some() {
                return None;
            }
            found = Some((n + 1, line, wl));
        }
    }
    let (n, line, wl) = found?;
    // The differing middle: after the common first words, before the common last words.
    let max = wo.len().min(wn.len());
    let head = (0..max)
        .take_while(|&k| word(old, &wo, k) == word(new, &wn, k))
        .count();
    let tail = (0..max - head)
        .take_while(|&k| word(old, &wo, wo.len() - 1 - k) == word(new, &wn, wn.len() - 1 - k))
        .count();
    if head + tail >= wo.len() {
        // Only words inserted (or nothing changed): where they go in the file's text is unclear.
        return None;
    }
    let (from, to) = (wl[head].0, wl[wo.len() - 1 - tail].1);
    if head + tail >= wn.len() {
        // Only words removed: the punctuation around them would be left dangling.
        return None;
    }
    let middle = &new[wn[head].0..wn[wn.len() - 1 - tail].1];
    let changed = format!("{}{middle}{}", &line[..from], &line[to..]);
    let indent = indent(line);
    let (old_line, new_line) = (line.trim(), changed[indent..].trim_end().to_owned());
    (text.matches(old_line).count() == 1 && old_line != new_line).then_some((n, old_line, new_line))
}

fn edit(sb: &Sandbox, args: &EditArgs) -> Result<Output, Failure> {
    let abs = sb.resolve("edit", &args.path)?;
    let shown = sb.display(&abs);
    if args.old_text.is_empty() {
        return Err(Failure::invalid_args(
            "edit",
            "/old_text",
            "old_text is empty; copy the exact text to replace from the file (use read first), or use write to create a file",
        ));
    }
    if args.old_text == args.new_text {
        return Err(Failure::invalid_args(
            "edit",
            "/new_text",
            // No advice in words: a model copies them. Told how an addition is written ("to add
            // a line after it, send new_text as …"), Qwen2.5-Coder-0.5B sent that sentence as
            // its next new_text (eval mark_done).
            "new_text is the same as old_text, so nothing would change",
        ));
    }
    if abs.is_dir() {
        return Err(Failure::invalid_args(
            "edit",
            "/path",
            format!("`{shown}` is a directory, not a file"),
        ));
    }
    let meta = std::fs::metadata(&abs).map_err(|e| io_failure("edit", sb, &abs, &e))?;
    if !meta.is_file() || meta.len() > MAX_FILE_BYTES {
        return Err(Failure::invalid_args(
            "edit",
            "/path",
            format!(
                "`{shown}` is not a regular text file of at most {MAX_FILE_BYTES} bytes, so it cannot be edited"
            ),
        ));
    }
    let bytes = std::fs::read(&abs).map_err(|e| io_failure("edit", sb, &abs, &e))?;
    if looks_binary(&bytes) {
        return Err(Failure::invalid_args(
            "edit",
            "/path",
            format!("`{shown}` is a binary file; only text files can be edited"),
        ));
    }
    let text = String::from_utf8(bytes).map_err(|_| {
        Failure::invalid_args(
            "edit",
            "/path",
            format!("`{shown}` is not valid UTF-8 text, so it cannot be edited safely"),
        )
    })?;
    // A file whose every line ends in CRLF keeps doing so: `read` shows its lines without the
    // `\r`, so old_text copied from it has bare line feeds, and new_text's lines get the file's
    // line end.
    let (old_text, new_text) = if is_crlf(&text) {
        (to_crlf(&args.old_text), to_crlf(&args.new_text))
    } else {
        (args.old_text.clone(), args.new_text.clone())
    };
    let positions: Vec<usize> = text.match_indices(&old_text).map(|(i, _)| i).collect();
    if positions.is_empty() {
        let mut msg = format!("old_text was not found in `{shown}`.");
        let trimmed = args.old_text.trim();
        let crlf = is_crlf(&text);
        let unnumbered = strip_line_numbers(&args.old_text).and_then(|(number, old)| {
            let wanted = if crlf { to_crlf(&old) } else { old.clone() };
            numbered_copy_at(&text, number, &wanted).map(|at| (at, old))
        });
        if let Some((at, old)) = unnumbered {
            // `read` shows `3\tTODO: …`; small models copy the number in (`3.TODO: …`).
            let new = if args.new_text.lines().count() == args.old_text.lines().count() {
                strip_line_numbers(&args.new_text).map_or_else(|| args.new_text.clone(), |(_, n)| n)
            } else {
                args.new_text.clone()
            };
            let call = json!({"name": "edit", "arguments": {"path": shown, "old_text": old, "new_text": new}});
            msg.push_str(&format!(
                " Its lines start with line numbers copied from read's output, which are not part of the file; without them it is at line {}. Send exactly: {call}",
                line_of(&text, at)
            ));
            return Err(Failure::invalid_args("edit", "/old_text", msg));
        }
        if !trimmed.is_empty() && trimmed != args.old_text && text.contains(trimmed) {
            msg.push_str(
                " It appears with different leading or trailing whitespace; copy it exactly.",
            );
        } else if let Some(first) = trimmed
            .lines()
            .next()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            && let Some(at) = text.find(first)
        {
            msg.push_str(&format!(
                " Its first line appears at line {}, but the rest differs; copy the exact text.",
                line_of(&text, at)
            ));
        } else if let Some((n, old, new)) = same_words_line(&text, trimmed, args.new_text.trim()) {
            let call = json!({"name": "edit", "arguments": {"path": shown, "old_text": old, "new_text": new}});
            msg.push_str(&format!(
                " Its words are at line {n}, written {old:?} in the file. Send exactly: {call}"
            ));
            return Err(Failure::invalid_args("edit", "/old_text", msg));
        } else if let Some((n, line)) = closest_line(&text, trimmed) {
            msg.push_str(&format!(
                " The closest line is line {n}: {:?}; copy old_text exactly from the file.",
                line.chars().take(200).collect::<String>()
            ));
        }
        msg.push_str(&format!(
            " Read the file first: {{\"name\": \"read\", \"arguments\": {{\"path\": \"{shown}\"}}}}"
        ));
        return Err(Failure::invalid_args("edit", "/old_text", msg));
    }
    if positions.len() > 1 && !args.replace_all {
        let lines: Vec<String> = positions
            .iter()
            .take(10)
            .map(|&p| line_of(&text, p).to_string())
            .collect();
        return Err(Failure::invalid_args(
            "edit",
            "/old_text",
            format!(
                "old_text appears {} times in `{shown}` (lines {}); it must be unique. Include more surrounding lines in old_text, or set \"replace_all\": true to change all of them",
                positions.len(),
                lines.join(", ")
            ),
        ));
    }
    let new = text.replace(&old_text, &new_text);
    std::fs::write(&abs, &new).map_err(|e| io_failure("edit", sb, &abs, &e))?;
    let first_line = line_of(&text, positions[0]);
    let summary = if positions.len() == 1 {
        format!("replaced 1 occurrence in `{shown}` at line {first_line}")
    } else {
        format!("replaced {} occurrences in `{shown}`", positions.len())
    };
    Ok(Output::text(summary)
        .with_data(
            json!({"path": shown, "replacements": positions.len(), "first_line": first_line}),
        )
        .with_effect(Effect::FileWritten {
            path: abs.clone(),
            bytes: new.len() as u64,
        })
        .reading(abs))
}

#[cfg(test)]
mod tests {

    /// An `Edit` over a temporary folder holding `files` (path, text), and the folder.
    fn edit_over(files: &[(&str, &str)]) -> (tempfile::TempDir, super::Edit) {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let edit = super::Edit::new(std::sync::Arc::new(
            super::Sandbox::new(dir.path()).unwrap(),
        ));
        (dir, edit)
    }

    /// The `edit` call of `old` to `new` in `path`, as `change_asked` gives it.
    fn call(path: &str, old: &str, new: &str) -> Option<serde_json::Value> {
        Some(serde_json::json!({"path": path, "old_text": old, "new_text": new}))
    }

    use super::{assignment, is_document, same_words_line};

    #[test]
    fn r_markdown_and_quarto_are_documents() {
        for path in [
            "README.md",
            "docs/guide.rst",
            "README.Rmd",
            "report.qmd",
            "notes.txt",
        ] {
            assert!(is_document(path), "{path}");
        }
        for path in ["R/read.R", "DESCRIPTION", "config.yml", "main.ml"] {
            assert!(!is_document(path), "{path}");
        }
    }

    #[test]
    fn a_change_that_names_no_file_is_made_in_the_one_file_its_words_pick_out() {
        use crate::tools::TypedTool;
        let dir = tempfile::tempdir().unwrap();
        let files: &[(&str, &str)] = &[
            (
                "docker-compose.yml",
                "services:\n  web:\n    image: notes:1.4.2\n    environment:\n      LOG_LEVEL: info\n  db:\n    image: postgres:15\n",
            ),
            (".env.example", "PORT=8080\nLOG_LEVEL=info\n"),
            (
                "nginx/notes.conf",
                "server {\n    client_max_body_size 10m;\n}\n",
            ),
            ("README.md", "Set LOG_LEVEL in `.env`.\n"),
        ];
        for (path, text) in files {
            let abs = dir.path().join(path);
            std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
            std::fs::write(abs, text).unwrap();
        }
        let edit = super::Edit::new(std::sync::Arc::new(
            super::Sandbox::new(dir.path()).unwrap(),
        ));
        let asked = |request: &str| edit.change_asked(request);
        // Session 29, a Docker Compose folder: neither request names the file.
        assert_eq!(
            asked("Bump the web image to notes:1.5.0."),
            Some(
                serde_json::json!({"path": "docker-compose.yml", "old_text": "image: notes:1.4.2", "new_text": "image: notes:1.5.0"})
            )
        );
        assert_eq!(
            asked("Raise client_max_body_size to 50m in the nginx config."),
            Some(
                serde_json::json!({"path": "nginx/notes.conf", "old_text": "client_max_body_size 10m;", "new_text": "client_max_body_size 50m;"})
            )
        );
        // Two files hold the key: the one the request names, else none.
        assert_eq!(asked("Change LOG_LEVEL to debug."), None);
        assert_eq!(
            asked("Change LOG_LEVEL to debug in .env.example."),
            Some(
                serde_json::json!({"path": ".env.example", "old_text": "LOG_LEVEL=info", "new_text": "LOG_LEVEL=debug"})
            )
        );
        // Of several, the one that is no document (a Hugo site, session 37: a post's front
        // matter has a `title:` too).
        for (path, text) in [
            (
                "hugo.toml",
                "title = \"Allotment Notes\"\ntheme = \"papermod\"\n",
            ),
            (
                "content/posts/garlic.md",
                "---\ntitle: \"Planting garlic\"\n---\n",
            ),
            ("content/about.md", "---\ntitle: \"About\"\n---\n"),
        ] {
            let abs = dir.path().join(path);
            std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
            std::fs::write(abs, text).unwrap();
        }
        assert_eq!(
            asked("Change the site title to Plot 14 Diary."),
            Some(
                serde_json::json!({"path": "hugo.toml", "old_text": "title = \"Allotment Notes\"", "new_text": "title = \"Plot 14 Diary\""})
            )
        );
        // A file named by two words side by side, a setting marked as no longer so (a Hugo
        // site, session 37).
        std::fs::write(
            dir.path().join("content/posts/seed-list.md"),
            "---\ntitle: \"Seed list\"\ndraft: true\n---\n",
        )
        .unwrap();
        assert_eq!(
            asked("Mark the seed list post as no longer a draft."),
            Some(
                serde_json::json!({"path": "content/posts/seed-list.md", "old_text": "draft: true", "new_text": "draft: false"})
            )
        );
        assert_eq!(
            asked("Mark the seed list post as a draft."),
            None,
            "already so"
        );
        // A line to place, a rename or a respelling needs the file named.
        assert_eq!(asked("Add the line \"x\" at the end."), None);
        assert_eq!(asked("Rename the variable LOG_LEVEL to LEVEL."), None);
    }

    /// Found running `toolmend run` on a folder of dotfiles (session 31): asked to add an alias
    /// to .bashrc, Qwen2.5-Coder-0.5B answered with the line and called nothing.
    #[test]
    fn an_alias_is_added_as_the_file_writes_its_aliases() {
        use crate::tools::TypedTool;
        let dir = tempfile::tempdir().unwrap();
        let bashrc = "export EDITOR=vim\n\nalias ll=\"ls -la\"\nalias gs=\"git status\"\n\nfi\n";
        let gitconfig = "[user]\n\tname = Ada\n[alias]\n\tco = checkout\n\tst = status\n[pull]\n\trebase = true\n";
        for (path, text) in [
            (".bashrc", bashrc),
            (".gitconfig", gitconfig),
            (".zshrc", "export A=1\n"),
            ("notes.txt", "alias x\n"),
        ] {
            std::fs::write(dir.path().join(path), text).unwrap();
        }
        let edit = super::Edit::new(std::sync::Arc::new(
            super::Sandbox::new(dir.path()).unwrap(),
        ));
        let asked = |request: &str| edit.change_asked(request);
        let applied = |request: &str, path: &str| {
            let v = asked(request)?;
            let text = std::fs::read_to_string(dir.path().join(path)).unwrap();
            let old = v["old_text"].as_str().unwrap();
            assert_eq!(text.matches(old).count(), 1, "{request}: {old}");
            Some(text.replacen(old, v["new_text"].as_str().unwrap(), 1))
        };
        // After the last alias, quoted as it is.
        assert_eq!(
            applied(
                "Add an alias gl for 'git log --oneline' to .bashrc.",
                ".bashrc"
            )
            .as_deref(),
            Some(
                "export EDITOR=vim\n\nalias ll=\"ls -la\"\nalias gs=\"git status\"\nalias gl=\"git log --oneline\"\n\nfi\n"
            )
        );
        // A git alias: the `[alias]` entry, indented as the others, found with no file named.
        assert_eq!(
            applied("Add a git alias br for branch.", ".gitconfig").as_deref(),
            Some(
                "[user]\n\tname = Ada\n[alias]\n\tco = checkout\n\tst = status\n\tbr = branch\n[pull]\n\trebase = true\n"
            )
        );
        // A shell startup file with no alias yet: at its end.
        assert_eq!(
            applied("Add alias ll for ls -la to .zshrc", ".zshrc").as_deref(),
            Some("export A=1\nalias ll='ls -la'\n")
        );
        // An alias of that name already (a change), a file that is no shell's, an alias with
        // no file named that two files could take: nothing.
        assert_eq!(
            asked("Add an alias gs for 'git status -s' to .bashrc."),
            None
        );
        assert_eq!(asked("Add an alias y for 'ls' to notes.txt."), None);
        assert_eq!(asked("Add an alias gl for 'git log'."), None);
        assert!(
            edit.already_so("Add an alias ll for 'ls -la' to .bashrc.")
                .is_some_and(|m| m.contains("alias ll=\"ls -la\""))
        );
    }

    /// Found running `toolmend run` on a data folder (session 32): asked "Make UK the default
    /// country in schema.sql.", Qwen2.5-Coder-0.5B answered with an `ALTER TABLE` to run, then
    /// read the file until it answered with the table rewritten.
    #[test]
    fn a_columns_sql_default_is_the_value_set() {
        use crate::tools::TypedTool;
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sql")).unwrap();
        std::fs::write(
            dir.path().join("sql/schema.sql"),
            "CREATE TABLE customers (\n    id INTEGER PRIMARY KEY,\n    country TEXT DEFAULT 'NL',\n    credit INTEGER DEFAULT 0\n);\n",
        )
        .unwrap();
        let edit = super::Edit::new(std::sync::Arc::new(
            super::Sandbox::new(dir.path()).unwrap(),
        ));
        let call = |old: &str, new: &str| {
            Some(serde_json::json!({"path": "sql/schema.sql", "old_text": old, "new_text": new}))
        };
        assert_eq!(
            edit.change_asked("Make UK the default country in schema.sql."),
            call("country TEXT DEFAULT 'NL',", "country TEXT DEFAULT 'UK',")
        );
        assert_eq!(
            edit.change_asked("Set the default credit to 100 in sql/schema.sql."),
            call("credit INTEGER DEFAULT 0", "credit INTEGER DEFAULT 100")
        );
        // No column of that name.
        assert_eq!(
            edit.change_asked("Make UK the default region in schema.sql."),
            None
        );
    }

    /// Found with a Ruby gem (session 38, default_dartmouth): a parameter's default that is a
    /// constant's name is set where the constant is, and of two files' lines the one whose
    /// name holds more of the request's words is the change (`DEFAULT_STATION`, not a
    /// script's `station = ARGV.fetch(…)`).
    #[test]
    fn a_default_named_by_a_constant_is_set_at_the_constant() {
        use crate::tools::TypedTool;
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("lib")).unwrap();
        std::fs::create_dir_all(dir.path().join("bin")).unwrap();
        std::fs::write(
            dir.path().join("lib/table.rb"),
            "class Table\n  DEFAULT_STATION = \"Brixham\"\n\n  def initialize(station = DEFAULT_STATION)\n    @station = station\n  end\nend\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("bin/tides"),
            "station = ARGV.fetch(0, Table::DEFAULT_STATION)\nputs station\n",
        )
        .unwrap();
        let edit = super::Edit::new(std::sync::Arc::new(
            super::Sandbox::new(dir.path()).unwrap(),
        ));
        assert_eq!(
            edit.change_asked("Make Dartmouth the default station."),
            Some(serde_json::json!({
                "path": "lib/table.rb",
                "old_text": "DEFAULT_STATION = \"Brixham\"",
                "new_text": "DEFAULT_STATION = \"Dartmouth\""
            }))
        );
    }

    /// Found with a Ruby gem (session 38, line_length_120): RuboCop's `Max: 100` under
    /// `Layout/LineLength:` is the number "lines up to 120 characters" sets, the block's key
    /// made of the request's words; a block setting two numbers names neither.
    #[test]
    fn a_number_right_inside_a_block_the_request_names_is_the_one_set() {
        use crate::tools::TypedTool;
        let dir = tempfile::tempdir().unwrap();
        let config = "AllCops:\n  TargetRubyVersion: 3.1\n\nLayout/LineLength:\n  Max: 100\n\nMetrics/MethodLength:\n  Max: 20\n  CountComments: false\n";
        std::fs::write(dir.path().join(".rubocop.yml"), config).unwrap();
        let edit = super::Edit::new(std::sync::Arc::new(
            super::Sandbox::new(dir.path()).unwrap(),
        ));
        let max = |n: u32| {
            Some(serde_json::json!({
                "path": ".rubocop.yml",
                "old_text": "Max: 100",
                "new_text": format!("Max: {n}")
            }))
        };
        assert_eq!(
            edit.change_asked("Allow lines up to 120 characters in RuboCop."),
            max(120)
        );
        assert_eq!(
            edit.change_asked("Limit lines to 80 characters in .rubocop.yml."),
            max(80)
        );
        std::fs::write(
            dir.path().join(".rubocop.yml"),
            config.replace("  Max: 100\n", "  Max: 100\n  AllowedLength: 3\n"),
        )
        .unwrap();
        assert_eq!(
            edit.change_asked("Allow lines up to 120 characters in RuboCop."),
            None
        );
    }

    /// A version's constraint stays when the new value is a bare version (a Ruby gem, session
    /// 38: "Require Ruby 3.2 or newer." keeps the gemspec's `>= `).
    #[test]
    fn a_versions_constraint_stays() {
        let line = r#"  spec.required_ruby_version = ">= 3.1""#;
        let at = line.find('"').unwrap();
        assert_eq!(
            super::with_value(line, &line[at..], "3.2"),
            r#"  spec.required_ruby_version = ">= 3.2""#
        );
        let line = r#"    "node-fetch": "^3.3.2","#;
        let at = line.rfind("\"^").unwrap();
        assert_eq!(
            super::with_value(line, &line[at..line.len() - 1], "3.4.0"),
            r#"    "node-fetch": "^3.4.0","#
        );
        // A value that is no bare version replaces the constraint too.
        let line = "ruby = \"~> 3.1\"";
        assert_eq!(
            super::with_value(line, &line[7..], "~> 3.3"),
            "ruby = \"~> 3.3\""
        );
        let line = "port = 80";
        assert_eq!(super::with_value(line, &line[7..], "8080"), "port = 8080");
        // A tag is a named image's: a time's minutes are no tag.
        let line = "image: ghcr.io/kestrel/web:v2.3.0";
        assert_eq!(
            super::with_value(line, &line[7..], "2.4.0"),
            "image: ghcr.io/kestrel/web:v2.4.0"
        );
        let line = "at: 10:30";
        assert_eq!(super::with_value(line, &line[4..], "11"), "at: 11");
        // A number literal's type stays; a unit does not come from the old value.
        let line = "const val DEFAULT_TIMEOUT_SECONDS = 10L";
        assert_eq!(
            super::with_value(line, &line[36..], "30"),
            "const val DEFAULT_TIMEOUT_SECONDS = 30L"
        );
        let line = "let limit = 8u64;";
        assert_eq!(
            super::with_value(line, &line[12..16], "16"),
            "let limit = 16u64;"
        );
        let line = "poll-interval = 15m";
        assert_eq!(
            super::with_value(line, &line[16..], "30"),
            "poll-interval = 30"
        );
    }

    /// Found with a Terraform folder's Kubernetes manifests (session 38): "Scale the web
    /// deployment to 3 replicas.", "Raise MAX_UPLOAD_MB to 50." (an environment variable's
    /// `name:` line, then its `value:`) and "Deploy version 2.4.0 of the web image." (the
    /// image's tag) grounded no change.
    #[test]
    fn a_kubernetes_deployment_is_scaled_its_variables_set_and_its_image_tagged() {
        use crate::tools::TypedTool;
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("k8s")).unwrap();
        std::fs::write(
            dir.path().join("k8s/deployment.yaml"),
            "spec:\n  replicas: 2\n  template:\n    spec:\n      containers:\n        - name: web\n          image: ghcr.io/kestrel/photos-web:2.3.0\n          env:\n            - name: MAX_UPLOAD_MB\n              value: \"25\"\n",
        )
        .unwrap();
        let edit = super::Edit::new(std::sync::Arc::new(
            super::Sandbox::new(dir.path()).unwrap(),
        ));
        let call = |old: &str, new: &str| {
            Some(
                serde_json::json!({"path": "k8s/deployment.yaml", "old_text": old, "new_text": new}),
            )
        };
        assert_eq!(
            edit.change_asked("Scale the web deployment to 3 replicas."),
            call("replicas: 2", "replicas: 3")
        );
        assert_eq!(
            edit.change_asked("Raise MAX_UPLOAD_MB to 50."),
            call("value: \"25\"", "value: \"50\"")
        );
        assert_eq!(
            edit.change_asked("Deploy version 2.4.0 of the web image."),
            call(
                "image: ghcr.io/kestrel/photos-web:2.3.0",
                "image: ghcr.io/kestrel/photos-web:2.4.0"
            )
        );
    }

    /// Found with a .NET API (session 40): "Change the loan period to 28 days." offered `var
    /// loan = 28;` for `var loan = new Loan(…)` (a number over an expression), and "Set the page
    /// size to 50.", "Raise the maximum number of loans per member to 5." and "Set the default
    /// log level to Warning." grounded nothing: names made of the request's words in another
    /// style (`LoanDays`, `"PageSize"`, `"MaxLoansPerMember"`) and capitalised keys
    /// (`"Default"`) are set, and a number never replaces an expression without one.
    #[test]
    fn a_dotnet_apps_constants_and_settings_are_set() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                "src/Api/appsettings.json",
                "{\n  \"Logging\": {\n    \"LogLevel\": {\n      \"Default\": \"Information\",\n      \"Microsoft.AspNetCore\": \"Warning\"\n    }\n  },\n  \"Lending\": {\n    \"PageSize\": 20,\n    \"MaxLoansPerMember\": 3\n  }\n}\n",
            ),
            (
                "src/Api/Services/LoanService.cs",
                "public sealed class LendingOptions\n{\n    public int PageSize { get; set; } = 20;\n    public int MaxLoansPerMember { get; set; } = 3;\n}\n\npublic sealed class LoanService\n{\n    public const int LoanDays = 21;\n    private const decimal LateFeePerDay = 0.25m;\n\n    public Loan Borrow(int memberId, int bookId)\n    {\n        var loan = new Loan(memberId, bookId, DateOnly.FromDateTime(DateTime.Today).AddDays(LoanDays));\n        return loan;\n    }\n}\n",
            ),
        ]);
        let settings = "src/Api/appsettings.json";
        assert_eq!(
            edit.change_asked("Change the loan period to 28 days."),
            call(
                "src/Api/Services/LoanService.cs",
                "public const int LoanDays = 21;",
                "public const int LoanDays = 28;"
            )
        );
        assert_eq!(
            edit.change_asked("Set the page size to 50."),
            call(settings, "\"PageSize\": 20,", "\"PageSize\": 50,")
        );
        assert_eq!(
            edit.change_asked("Raise the maximum number of loans per member to 5."),
            call(
                settings,
                "\"MaxLoansPerMember\": 3",
                "\"MaxLoansPerMember\": 5"
            )
        );
        assert_eq!(
            edit.change_asked("Set the default log level to Warning."),
            call(
                settings,
                "\"Default\": \"Information\",",
                "\"Default\": \"Warning\","
            )
        );
        // A number over an expression without one: no setting.
        assert!(!super::of_kind("new Loan(memberId, bookId)", "28"));
        assert!(super::of_kind("None", "28"));
        assert!(super::of_kind("\"25\"", "28"));
        assert!(super::of_kind("new Loan(1)", "Bergen"));
    }

    /// Found with a Phoenix/Elixir API (session 41): "Set the dev database pool size to 20."
    /// was offered `database: "chirp_dev"` → `database: "20"` (the key `database` is one of
    /// the request's words; `pool_size` is two of them side by side), and "Raise the digest
    /// worker's max attempts to 5." config.exs's `max_per_day: 50` → `5` (the worker's
    /// `max_attempts: 3` is a keyword argument inside `use Oban.Worker, …`).
    #[test]
    fn settings_are_changed_where_they_are_set_not_in_variants_tests_or_types() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                "chart/Chart.yaml",
                "apiVersion: v2\nname: beacon\nversion: 0.4.2\nappVersion: \"1.9.0\"\ndependencies:\n  - name: redis\n    version: 18.6.1\n",
            ),
            (
                "chart/values.yaml",
                "replicaCount: 2\nresources:\n  limits:\n    cpu: 500m\n    memory: 256Mi\n  requests:\n    memory: 128Mi\nautoscaling:\n  enabled: false\n  minReplicas: 2\n  maxReplicas: 6\n  targetCPUUtilizationPercentage: 75\n",
            ),
            (
                "chart/values-prod.yaml",
                "replicaCount: 4\nresources:\n  limits:\n    memory: 512Mi\n",
            ),
            (
                "Package.swift",
                "let package = Package(\n    dependencies: [\n        .package(url: \"https://github.com/apple/swift-argument-parser\", from: \"1.3.0\"),\n        .package(url: \"https://github.com/apple/swift-log\", from: \"1.5.4\"),\n    ],\n    targets: [.executableTarget(name: \"Skylog\", dependencies: [.product(name: \"ArgumentParser\", package: \"swift-argument-parser\")])]\n)\n",
            ),
            (
                "Sources/Skylog.swift",
                "static let configuration = CommandConfiguration(version: \"0.3.1\")\nstruct Forecast {\n    @Option(help: \"How many days to show.\")\n    var days: Int = 5\n    func run() {\n        let days = try client.forecast(days: days)\n    }\n}\n",
            ),
            (
                "Sources/Config.swift",
                "public struct Config {\n    public var timeoutSeconds: TimeInterval\n    public var maxRetries: Int\n    public init(\n        timeoutSeconds: TimeInterval = 15,\n        maxRetries: Int = 3\n    ) {\n        self.timeoutSeconds = timeoutSeconds\n    }\n}\n",
            ),
            (
                ".swiftlint.yml",
                "line_length:\n  warning: 120\n  error: 160\ntype_body_length: 300\n",
            ),
            (
                "lua/focus/config.lua",
                "---@class FocusConfig\n---@field work_minutes integer length of a focus session\n---@field short_break_minutes integer\n---@field notify boolean show a notification when a session ends\nM.defaults = {\n  work_minutes = 25,\n  short_break_minutes = 5,\n  sessions_before_long_break = 4,\n  notify = true,\n}\n",
            ),
            (
                "plugin/focus.lua",
                "if vim.g.loaded_focus then\n  return\nend\nvim.g.loaded_focus = true\n",
            ),
            (
                "tests/config_spec.lua",
                "assert.are.equal(4, config.options.sessions_before_long_break)\n",
            ),
            (
                "README.md",
                "require(\"focus\").setup({\n  short_break_minutes = 10,\n})\n",
            ),
        ]);
        // A file over its variants, unless the request says the variant's word.
        assert_eq!(
            edit.change_asked("Set the default replica count to 3."),
            call("chart/values.yaml", "replicaCount: 2", "replicaCount: 3")
        );
        assert_eq!(
            edit.change_asked("Set the production replica count to 6."),
            call(
                "chart/values-prod.yaml",
                "replicaCount: 4",
                "replicaCount: 6"
            )
        );
        // The key nested under a block the request names in the plural, the value with a unit.
        assert_eq!(
            edit.change_asked("Raise the default memory limit to 1Gi."),
            call("chart/values.yaml", "memory: 256Mi", "memory: 1Gi")
        );
        // A variant holding the value does not make a change due in the file itself done.
        assert_eq!(
            edit.already_so("Raise the default memory limit to 512Mi."),
            None
        );
        // The top-level key of the file named, not a dependency's.
        assert_eq!(
            edit.change_asked("Bump the chart version to 0.5.0."),
            call("chart/Chart.yaml", "version: 0.4.2", "version: 0.5.0")
        );
        // A number in a block the request's words name, the key a word of it begins.
        assert_eq!(
            edit.change_asked("Lower the autoscaling CPU target to 60 percent."),
            call(
                "chart/values.yaml",
                "targetCPUUtilizationPercentage: 75",
                "targetCPUUtilizationPercentage: 60"
            )
        );
        assert_eq!(
            edit.change_asked("Make the linter warn at a line length of 100."),
            call(".swiftlint.yml", "warning: 120", "warning: 100")
        );
        // A package named as code writes names, on the line giving its version.
        assert_eq!(
            edit.change_asked("Require swift-argument-parser 1.4.0 or later."),
            call(
                "Package.swift",
                ".package(url: \"https://github.com/apple/swift-argument-parser\", from: \"1.3.0\"),",
                ".package(url: \"https://github.com/apple/swift-argument-parser\", from: \"1.4.0\"),"
            )
        );
        // A declaration's type is no value; the default after `=` is.
        assert_eq!(
            edit.change_asked("Change the default request timeout to 30 seconds."),
            call(
                "Sources/Config.swift",
                "timeoutSeconds: TimeInterval = 15,",
                "timeoutSeconds: TimeInterval = 30,"
            )
        );
        assert_eq!(
            edit.change_asked("Increase the default number of retries to 5."),
            call(
                "Sources/Config.swift",
                "maxRetries: Int = 3",
                "maxRetries: Int = 5"
            )
        );
        // "Make K show N things": the number of them K shows.
        assert_eq!(
            edit.change_asked("Make the forecast command show 7 days by default."),
            call(
                "Sources/Skylog.swift",
                "var days: Int = 5",
                "var days: Int = 7"
            )
        );
        // The setting, not the test asserting it.
        assert_eq!(
            edit.change_asked("Give a long break after every 3 sessions instead of 4."),
            call(
                "lua/focus/config.lua",
                "sessions_before_long_break = 4,",
                "sessions_before_long_break = 3,"
            )
        );
        // A switch whose key shares a stem with the request's word.
        assert_eq!(
            edit.change_asked("Turn off notifications by default."),
            call("lua/focus/config.lua", "notify = true,", "notify = false,")
        );
        // "Make K last N unit": the field documented as K's length, not a switch named
        // after a word of K.
        assert_eq!(
            edit.change_asked("Make focus sessions last 50 minutes by default."),
            call(
                "lua/focus/config.lua",
                "work_minutes = 25,",
                "work_minutes = 50,"
            )
        );
        // A README's example is no sign the setting is so.
        assert_eq!(
            edit.already_so("Change the default short break to 10 minutes."),
            None
        );
    }

    #[test]
    fn a_key_made_of_the_requests_words_side_by_side_comes_first() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                "config/dev.exs",
                "config :chirp, Chirp.Repo,\n  username: \"postgres\",\n  database: \"chirp_dev\",\n  pool_size: 10\n",
            ),
            (
                "config/config.exs",
                "config :chirp, :sightings,\n  max_per_day: 50,\n  photo_max_mb: 8\n",
            ),
            (
                "lib/chirp/workers/digest_worker.ex",
                "defmodule Chirp.Workers.DigestWorker do\n  use Oban.Worker, queue: :mailers, max_attempts: 3\nend\n",
            ),
            (
                "app/jobs.py",
                "@retry(max_retries=3, backoff=2)\ndef send():\n    pass\n",
            ),
        ]);
        assert_eq!(
            edit.change_asked("Set the dev database pool size to 20."),
            call("config/dev.exs", "pool_size: 10", "pool_size: 20")
        );
        assert_eq!(
            edit.change_asked("Raise the digest worker's max attempts to 5."),
            call(
                "lib/chirp/workers/digest_worker.ex",
                "use Oban.Worker, queue: :mailers, max_attempts: 3",
                "use Oban.Worker, queue: :mailers, max_attempts: 5"
            )
        );
        assert_eq!(
            edit.change_asked("Set max retries to 6."),
            call(
                "app/jobs.py",
                "@retry(max_retries=3, backoff=2)",
                "@retry(max_retries=6, backoff=2)"
            )
        );
        // One word alone still names its key.
        assert_eq!(
            edit.change_asked("Change the maximum per day to 60."),
            call("config/config.exs", "max_per_day: 50,", "max_per_day: 60,")
        );
    }

    /// Found with a Clojure service (session 47): "Upgrade reitit to 0.7.1." (`metosin/reitit
    /// {:mvn/version "0.7.0"}`), "Change the default page size to 50." (`(def
    /// default-page-size 25)`) and "Make CI use Java 21." (`JAVA_VERSION: "17"`) were offered no
    /// change, and "Change CI to use Java 21." the dropping of the `.` ending a comment that
    /// says "Java 21.". A coordinate's artifact, a Lisp `def` and "make K use V" are read; a
    /// comment's words, or the value already, are no setting to change.
    #[test]
    fn coordinates_lisp_defs_and_make_use_are_set_and_comments_left_alone() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                "deps.edn",
                "{:deps {metosin/reitit {:mvn/version \"0.7.0\"}\n        metosin/jsonista {:mvn/version \"0.3.8\"}}}\n",
            ),
            (
                "src/courier/config.clj",
                "(ns courier.config)\n\n(def default-page-size 25)\n(def max-page-size 100)\n",
            ),
            (
                ".github/workflows/ci.yml",
                "env:\n  # The oldest JDK we support; the image itself runs on Java 21.\n  JAVA_VERSION: \"17\"\n",
            ),
        ]);
        assert_eq!(
            edit.change_asked("Upgrade reitit to 0.7.1."),
            call(
                "deps.edn",
                "{:deps {metosin/reitit {:mvn/version \"0.7.0\"}",
                "{:deps {metosin/reitit {:mvn/version \"0.7.1\"}"
            )
        );
        assert_eq!(
            edit.change_asked("Change the default page size to 50."),
            call(
                "src/courier/config.clj",
                "(def default-page-size 25)",
                "(def default-page-size 50)"
            )
        );
        let java = call(
            ".github/workflows/ci.yml",
            "JAVA_VERSION: \"17\"",
            "JAVA_VERSION: \"21\"",
        );
        assert_eq!(edit.change_asked("Make CI use Java 21."), java);
        assert_eq!(edit.change_asked("Change CI to use Java 21."), java);
    }

    /// Found with a Clojure service and a Vue/Vite application (session 47): "Raise the
    /// production database pool size to 32." (`:pool-size #profile {:dev 4 :test 2 :prod 24}`)
    /// and "Update the nginx base image to 1.27.0-alpine." (`FROM nginx:1.25.4-alpine AS
    /// runtime`) were offered no change, nor, with a Haskell project, "Make the fiscal year
    /// start in January by default." (`cfgFiscalYearStart = 4`). An EDN keyword's value, or its profile's that the
    /// request names, is set; an image's tag is set, its variant kept when the request gives
    /// a bare version; a month named is its number.
    #[test]
    fn edn_profiles_image_tags_and_months_are_set() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                "resources/config.edn",
                "{:http {:host #or [#env HOST \"0.0.0.0\"]\n        :port #profile {:dev #long #or [#env PORT 3000]\n                        :prod #long #or [#env PORT 8080]}\n        :request-timeout-ms 7500}\n :db {:pool-size #profile {:dev 4 :test 2 :prod 24}\n      :connection-timeout-ms 5000}}\n",
            ),
            (
                "src/Ledger/Config.hs",
                "data Config = Config\n  { cfgCurrency :: !Text\n  , cfgFiscalYearStart :: !Int\n  -- ^ Month (1-12) in which the fiscal year begins.\n  }\n\ndefaultConfig :: Config\ndefaultConfig =\n  Config\n    { cfgCurrency = \"EUR\"\n    , cfgFiscalYearStart = 4\n    }\n",
            ),
            (
                "Dockerfile",
                "# syntax=docker/dockerfile:1.7\nFROM node:20.11.1-alpine AS build\nRUN npm ci\n\nFROM nginx:1.25.4-alpine AS runtime\nEXPOSE 8080\n",
            ),
        ]);
        let pool = ":db {:pool-size #profile {:dev 4 :test 2 :prod 24}";
        assert_eq!(
            edit.change_asked("Raise the production database pool size to 32."),
            call("resources/config.edn", pool, &pool.replace("24", "32"))
        );
        assert_eq!(
            edit.change_asked("Set the dev pool size to 8."),
            call(
                "resources/config.edn",
                pool,
                &pool.replace(":dev 4", ":dev 8")
            )
        );
        // No profile named: which one is not said.
        assert_eq!(edit.change_asked("Set the pool size to 8."), None);
        assert_eq!(
            edit.change_asked("Set the request timeout to 9000 ms."),
            call(
                "resources/config.edn",
                ":request-timeout-ms 7500}",
                ":request-timeout-ms 9000}"
            )
        );
        // A month by its name is its number.
        let fiscal = call(
            "src/Ledger/Config.hs",
            ", cfgFiscalYearStart = 4",
            ", cfgFiscalYearStart = 1",
        );
        assert_eq!(
            edit.change_asked("Make the fiscal year start in January by default."),
            fiscal
        );
        assert_eq!(
            edit.change_asked("Set the fiscal year start to January."),
            fiscal
        );
        let nginx = "FROM nginx:1.25.4-alpine AS runtime";
        assert_eq!(
            edit.change_asked("Update the nginx base image to 1.27.0-alpine."),
            call("Dockerfile", nginx, "FROM nginx:1.27.0-alpine AS runtime")
        );
        assert_eq!(
            edit.change_asked("Update nginx to 1.27.0."),
            call("Dockerfile", nginx, "FROM nginx:1.27.0-alpine AS runtime")
        );
        assert_eq!(
            edit.change_asked("Upgrade node to 22.2.0-bookworm."),
            call(
                "Dockerfile",
                "FROM node:20.11.1-alpine AS build",
                "FROM node:22.2.0-bookworm AS build"
            )
        );
    }

    /// Found with a Zig service (session 49): "Upgrade the Prometheus container in the compose
    /// setup to v2.54.1." was offered no change (`image: prom/prometheus:v2.53.0` in
    /// `docker-compose.yml`; `deploy/prometheus.yml`, which "Prometheus" names, holds no
    /// version). A tag may be written with a `v`, kept when the request gives a bare version;
    /// the file after "in" is where the change goes.
    #[test]
    fn a_v_tagged_image_in_the_compose_setup_is_set() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                "docker-compose.yml",
                "services:\n  zest:\n    build: .\n  prometheus:\n    image: prom/prometheus:v2.53.0\n    ports:\n      - \"9090:9090\"\n",
            ),
            (
                "deploy/prometheus.yml",
                "global:\n  scrape_interval: 15s\nscrape_configs:\n  - job_name: zest\n",
            ),
        ]);
        let want = call(
            "docker-compose.yml",
            "image: prom/prometheus:v2.53.0",
            "image: prom/prometheus:v2.54.1",
        );
        assert_eq!(
            edit.change_asked("Upgrade the Prometheus container in the compose setup to v2.54.1."),
            want
        );
        assert_eq!(
            edit.change_asked("Upgrade the Prometheus image to 2.54.1."),
            want
        );
    }

    /// Found with a Zig service (session 49): "The Docker build still downloads an older Zig;
    /// make it use 0.13.0 like CI does." was offered the read of the CI workflow and no change:
    /// the CI is only compared with, "it" is the sentence before, and the Dockerfile's
    /// `ARG ZIG_VERSION=0.12.1` is a key whose first word the request names.
    #[test]
    fn make_it_use_a_version_like_ci_does_sets_the_dockerfiles_arg() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                "Dockerfile",
                "# syntax=docker/dockerfile:1\nFROM alpine:3.20 AS build\nARG ZIG_VERSION=0.12.1\nRUN curl -fsSL \"https://ziglang.org/download/${ZIG_VERSION}/zig.tar.xz\"\n",
            ),
            (
                ".github/workflows/ci.yml",
                "env:\n  ZIG_VERSION: 0.13.0\njobs:\n  test:\n    steps:\n      - uses: mlugg/setup-zig@v1\n",
            ),
            ("README.md", "You need Zig 0.11.0 or newer.\n"),
        ]);
        let want = call(
            "Dockerfile",
            "ARG ZIG_VERSION=0.12.1",
            "ARG ZIG_VERSION=0.13.0",
        );
        assert_eq!(
            edit.change_asked(
                "The Docker build still downloads an older Zig; make it use 0.13.0 like CI does."
            ),
            want
        );
        assert_eq!(
            edit.change_asked("Make the Dockerfile use Zig 0.13.0."),
            want
        );
        // Named as what is changed, the CI is where the change goes.
        assert_eq!(
            edit.change_asked("Make CI use Zig 0.14.0."),
            call(
                ".github/workflows/ci.yml",
                "ZIG_VERSION: 0.13.0",
                "ZIG_VERSION: 0.14.0",
            )
        );
    }

    /// Found with a Zig service (session 49): "Let zest keep up to 50000 series by default."
    /// was offered `config/zest.json`'s `"max_series": 5000` (the project's own name named the
    /// sample config by its stem), and in `src/registry.zig` the struct field `max_series:
    /// usize,` and `series: … = .{},`; the default is `default_max_series = 20000`. The own
    /// name names no settings file unless the request says so ("the zest config"); a
    /// primitive type or a braced literal takes no number; a name saying "default" is where
    /// a default asked for is set.
    #[test]
    fn a_default_asked_for_is_set_where_a_name_says_default() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            ("README.md", "# zest\n\nA StatsD to Prometheus bridge.\n"),
            (
                "config/zest.json",
                "{\n  \"http_port\": 9477,\n  \"max_series\": 5000,\n  \"log_level\": \"debug\"\n}\n",
            ),
            (
                "src/registry.zig",
                "pub const default_max_series: usize = 20000;\n\npub const Registry = struct {\n    series: std.StringHashMapUnmanaged(Series) = .{},\n    max_series: usize,\n};\n",
            ),
            (
                "src/config.zig",
                "pub const Config = struct {\n    max_series: usize = registry.default_max_series,\n};\n",
            ),
        ]);
        let want = call(
            "src/registry.zig",
            "pub const default_max_series: usize = 20000;",
            "pub const default_max_series: usize = 50000;",
        );
        assert_eq!(
            edit.change_asked("Let zest keep up to 50000 series by default."),
            want
        );
        assert_eq!(
            edit.change_asked("Let zest keep up to 50000 series by default in src/registry.zig."),
            want
        );
        assert_eq!(
            edit.change_asked("Set max_series in the zest config to 100."),
            call(
                "config/zest.json",
                "\"max_series\": 5000,",
                "\"max_series\": 100,"
            )
        );
    }

    /// Found with an R package (session 49): "Turn meadow's progress messages on by default."
    /// was offered no change ("on by default" was no switch), then readr's `progress = FALSE`;
    /// the README's options table documents `meadow.verbose` as "progress messages", set in
    /// `R/zzz.R`. A switch the docs name by the request's words is that name's.
    #[test]
    fn a_switch_the_docs_name_is_turned_on_by_default() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                "README.md",
                "# meadow\n\n| Option | Default | What |\n|---|---|---|\n| `meadow.verbose` | `FALSE` | progress messages |\n| `meadow.palette` | `\"YlGn\"` | plot colours |\n",
            ),
            (
                "R/zzz.R",
                ".onLoad <- function(libname, pkgname) {\n  options(\n    meadow.verbose = FALSE,\n    meadow.palette = \"YlGn\"\n  )\n}\n",
            ),
            (
                "R/read.R",
                "read_survey <- function(path) {\n  readr::read_delim(path, progress = FALSE)\n}\n",
            ),
        ]);
        assert_eq!(
            edit.change_asked("Turn meadow's progress messages on by default."),
            call(
                "R/zzz.R",
                "meadow.verbose = FALSE,",
                "meadow.verbose = TRUE,"
            )
        );
    }

    /// Found with an R package (session 50): "Cover plots should show the 20 most abundant
    /// taxa unless the caller asks for a different number." was offered no change: the
    /// request says what should be (no verb that sets), and its words are not the setting's
    /// name but what the function's documentation says of its parameter (roxygen's `@param
    /// top_n Number of taxa to show individually.`). A parameter documented by the request's
    /// words takes the number.
    #[test]
    fn a_parameter_documented_by_the_requests_words_takes_the_number() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                "R/plot.R",
                "#' Plot the cover of the most abundant taxa\n#'\n#' @param data A cleaned survey.\n#' @param top_n Number of taxa to show individually.\n#' @param palette Name of a sequential palette.\n#' @examples\n#' plot_cover(survey, top_n = 5)\nplot_cover <- function(data,\n                       top_n = 15,\n                       palette = \"YlGn\") {\n  data\n}\n",
            ),
            (
                "R/clean.R",
                "#' @param min_cover Records with less cover than this (in percent) are\n#'   dropped.\nclean_survey <- function(data, min_cover = 0.25) {\n  data\n}\n",
            ),
        ]);
        let want = call("R/plot.R", "top_n = 15,", "top_n = 20,");
        assert_eq!(
            edit.change_asked(
                "Cover plots should show the 20 most abundant taxa unless the caller asks for a different number."
            ),
            want
        );
        // A parameter the docs describe the same way in a JSDoc comment.
        let (_dir, edit) = edit_over(&[(
            "src/list.js",
            "/**\n * Lists recent entries.\n * @param {number} [limit=10] How many entries to list.\n */\nexport function recent(limit = 10) {\n  return limit;\n}\n",
        )]);
        assert_eq!(
            edit.change_asked("The recent list should show 25 entries."),
            call(
                "src/list.js",
                "export function recent(limit = 10) {",
                "export function recent(limit = 25) {"
            )
        );
    }

    /// Found with a Julia package (session 51): "Bump the package version to 0.4.3 for the
    /// next release." was offered no change (`for` was read as the number's unit, a word
    /// naming the setting); "Make the spike filter's default rolling window 96 samples
    /// instead of the current value." was read as no change (no "to"); and "In production,
    /// allow the water level to change by up to 0.6 m …" offered `level = Float64[]` →
    /// `level = 0.6`, an empty array's literal taking a number.
    #[test]
    fn a_purpose_after_the_value_a_number_made_the_value_and_no_empty_literal() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            ("Project.toml", "name = \"Sedge\"\nversion = \"0.4.2\"\n"),
            (
                "src/anomaly.jl",
                "\"Number of samples in the rolling window.\"\nconst DEFAULT_WINDOW = 48\n\nfunction flag_spikes(s;\n                     window::Integer = DEFAULT_WINDOW,\n                     threshold = 3.5)\n    window >= 3 || throw(ArgumentError(\"window must be at least 3 samples\"))\nend\n",
            ),
            (
                ".github/workflows/TagBot.yml",
                "on:\n  workflow_dispatch:\n    inputs:\n      lookback:\n        default: \"3\"\n",
            ),
            (
                "src/io.jl",
                "function read(path)\n    level = Float64[]\n    return level\nend\n",
            ),
        ]);
        assert_eq!(
            edit.change_asked("Bump the package version to 0.4.3 for the next release."),
            call("Project.toml", "version = \"0.4.2\"", "version = \"0.4.3\"")
        );
        assert_eq!(
            edit.change_asked(
                "Make the spike filter's default rolling window 96 samples instead of the current value."
            ),
            call(
                "src/anomaly.jl",
                "const DEFAULT_WINDOW = 48",
                "const DEFAULT_WINDOW = 96"
            )
        );
        assert_eq!(
            edit.change_asked("Allow the water level to change by up to 0.6 m between samples."),
            None
        );
    }

    /// Found with a Julia package (session 51): "Let the formatter allow lines up to 100
    /// characters." was offered no change; `.JuliaFormatter.toml` sets `margin = 92` and
    /// `indent = 4`. A line length for a tool the request names by a word its settings file's
    /// name holds is that file's one line-length key (`margin`, `line_length`,
    /// `max_line_length`, `printWidth`, `ColumnLimit`, `max_width`, …).
    #[test]
    fn a_line_length_for_a_named_tool_is_its_line_length_key() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                ".JuliaFormatter.toml",
                "style = \"blue\"\nmargin = 92\nindent = 4\n",
            ),
            ("src/io.jl", "const MAX_LINES = 10_000\n"),
        ]);
        assert_eq!(
            edit.change_asked("Let the formatter allow lines up to 100 characters."),
            call(".JuliaFormatter.toml", "margin = 92", "margin = 100")
        );
        let (_dir, edit) = edit_over(&[
            (
                ".swiftlint.yml",
                "line_length:\n  warning: 120\n  error: 200\nfile_length: 400\n",
            ),
            (
                ".prettierrc.json",
                "{\n  \"printWidth\": 80,\n  \"tabWidth\": 2\n}\n",
            ),
        ]);
        assert_eq!(
            edit.change_asked("Let prettier allow lines up to 100 characters."),
            call(
                ".prettierrc.json",
                "\"printWidth\": 80,",
                "\"printWidth\": 100,"
            )
        );
    }

    /// Found with an Erlang/OTP service (session 51): "Upgrade cowboy to 2.13.0." and "In
    /// production, let kiln send up to 80 requests per second to each host." were offered no
    /// change (Erlang's terms set a key as a pair, `{cowboy, "2.12.0"}`, `{rate_per_sec,
    /// 40},`); "Lower the default number of delivery attempts to 10." offered a map's
    /// `attempts => A,` (a variable), not `-define(DEFAULT_MAX_ATTEMPTS, 12).`; "Bump kiln to
    /// 1.5.0" offered docker-compose's `KILN_SIGNING_SECRET: compose-secret-change-me`.
    #[test]
    fn erlang_terms_and_macros_are_settings_and_no_variable_or_word_takes_a_version() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                "rebar.config",
                "{minimum_otp_vsn, \"25\"}.\n{deps, [\n    {cowboy, \"2.12.0\"},\n    {hackney, \"1.20.1\"}\n]}.\n",
            ),
            (
                "config/sys.prod.config",
                "[{kiln, [\n    {max_queue_len, 200000},\n    {rate_per_sec, 40},\n    {burst, 120},\n    {max_attempts, 16}\n]}].\n",
            ),
            (
                "src/kiln_backoff.erl",
                "-define(DEFAULT_MAX_DELAY_MS, 300000).\n-define(DEFAULT_MAX_ATTEMPTS, 12).\n",
            ),
            (
                "src/kiln_http_handler.erl",
                "status_json(A) ->\n    #{\n      attempts => A,\n      state => S\n    }.\n",
            ),
            (
                "docker-compose.yml",
                "services:\n  kiln:\n    environment:\n      KILN_SIGNING_SECRET: compose-secret-change-me\n",
            ),
        ]);
        assert_eq!(
            edit.change_asked("Upgrade cowboy to 2.13.0."),
            call(
                "rebar.config",
                "{cowboy, \"2.12.0\"},",
                "{cowboy, \"2.13.0\"},"
            )
        );
        assert_eq!(
            edit.change_asked("Lower the default number of delivery attempts to 10."),
            call(
                "src/kiln_backoff.erl",
                "-define(DEFAULT_MAX_ATTEMPTS, 12).",
                "-define(DEFAULT_MAX_ATTEMPTS, 10)."
            )
        );
        assert_eq!(
            edit.change_asked("Set the production max queue length to 250000."),
            call(
                "config/sys.prod.config",
                "{max_queue_len, 200000},",
                "{max_queue_len, 250000},"
            )
        );
        assert_eq!(edit.change_asked("Bump kiln to 1.5.0."), None);
    }

    /// Found with a Perl distribution (session 52): "Production alerts on p95 too eagerly; raise
    /// the production p95 threshold to 1500 ms without touching the library default." was
    /// offered the library's `DEFAULT_P95_THRESHOLD_MS` ("default" read as the request's, and
    /// `etc/quarry.prod.conf` no environment's file: no `quarry.conf` stands beside it).
    /// A clause saying what to leave as it is says nothing of what to change; a name's part
    /// between dots names an environment as its stem does; of the files of environments, the
    /// one the request names comes first unless it asks for the default.
    #[test]
    fn the_environment_a_request_names_is_its_file_and_what_it_leaves_alone_is_not_said() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                "lib/Quarry/Config.pm",
                "use constant DEFAULT_P95_THRESHOLD_MS => 850;\nuse constant DEFAULT_COOLDOWN_SECONDS => 1800;\n",
            ),
            (
                "etc/quarry.prod.conf",
                "[thresholds]\np95_ms = 1200\ncooldown_seconds = 3600\n",
            ),
        ]);
        let prod = call("etc/quarry.prod.conf", "p95_ms = 1200", "p95_ms = 1500");
        for request in [
            "Production alerts on p95 too eagerly; raise the production p95 threshold to 1500 ms without touching the library default.",
            "Raise the production p95 threshold to 1500 ms.",
        ] {
            assert_eq!(edit.change_asked(request), prod, "{request}");
        }
        assert_eq!(
            edit.change_asked(
                "Lower the built-in default cooldown to 900 seconds. Production has its own setting; leave that alone."
            ),
            call(
                "lib/Quarry/Config.pm",
                "use constant DEFAULT_COOLDOWN_SECONDS => 1800;",
                "use constant DEFAULT_COOLDOWN_SECONDS => 900;"
            )
        );
        assert_eq!(
            super::asked::said_words(
                "Set it to 5. Leave production as it is, and don't change the dev setup."
            ),
            ["set", "it", "to", "5"]
        );
        assert_eq!(
            super::asked::said_words("Raise it to 9 without touching the default."),
            ["raise", "it", "to", "9"]
        );
    }

    /// Found with an Erlang/OTP service (session 51): "Switch the runtime stage of the Docker
    /// image to Alpine 3.20." was read as no change ("switch" set nothing but on or off).
    #[test]
    fn switch_k_to_v_sets_v() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[(
            "Dockerfile",
            "FROM erlang:26.2.5-alpine AS build\nRUN rebar3 as prod release\n\nFROM alpine:3.19\nEXPOSE 8090\n",
        )]);
        assert_eq!(
            edit.change_asked("Switch the runtime stage of the Docker image to Alpine 3.20."),
            call("Dockerfile", "FROM alpine:3.19", "FROM alpine:3.20")
        );
    }

    /// Found with an Erlang/OTP service (session 51): "In production, let kiln send up to 80
    /// requests per second to each host." was offered no change: the limit was read only in
    /// the request's first clause ("In production"), and "per second" named nothing; "In
    /// production" names `config/sys.prod.config` (`{rate_per_sec, 40},`).
    #[test]
    fn a_limit_after_a_scene_setting_clause_with_its_rate() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                "config/sys.config",
                "[{kiln, [\n    {rate_per_sec, 5},\n    {burst, 10}\n]}].\n",
            ),
            (
                "config/sys.prod.config",
                "[{kiln, [\n    {rate_per_sec, 40},\n    {burst, 120}\n]}].\n",
            ),
        ]);
        assert_eq!(
            edit.change_asked(
                "In production, let kiln send up to 80 requests per second to each host."
            ),
            call(
                "config/sys.prod.config",
                "{rate_per_sec, 40},",
                "{rate_per_sec, 80},"
            )
        );
    }

    /// Found with an OCaml/dune project (session 49): "Let ocamlformat use lines up to 100
    /// columns wide." was offered no change; `.ocamlformat`'s one whole number is `margin =
    /// 90`. In a tool's own dotfile named by its stem, a whole number whose words name no key
    /// is the file's one whole-number setting.
    #[test]
    fn a_tools_dotfile_with_one_number_takes_the_number_asked_for() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                ".ocamlformat",
                "version = 0.26.2\nprofile = default\nmargin = 90\nwrap-comments = true\n",
            ),
            ("etc/tern.json", "{\n  \"max_wind_kn\": 25\n}\n"),
        ]);
        assert_eq!(
            edit.change_asked("Let ocamlformat use lines up to 100 columns wide."),
            call(".ocamlformat", "margin = 90", "margin = 100")
        );
        // Two whole numbers: the line length's key (session 51, see
        // `a_line_length_for_a_named_tool_is_its_line_length_key`), else no guess.
        let (_dir, edit) = edit_over(&[(".ocamlformat", "margin = 90\nindent = 4\n")]);
        assert_eq!(
            edit.change_asked("Let ocamlformat use lines up to 100 columns wide."),
            call(".ocamlformat", "margin = 90", "margin = 100")
        );
        let (_dir, edit) = edit_over(&[(".ocamlformat", "match-indent = 2\nindent = 4\n")]);
        assert_eq!(
            edit.change_asked("Let ocamlformat use lines up to 100 columns wide."),
            None
        );
    }

    /// Found with an OCaml/dune project (session 49, docker_ocaml_52): "Build the Docker image
    /// with OCaml 5.2." was offered no change; the build stage is `FROM
    /// ocaml/opam:debian-12-ocaml-5.1 AS build`. "Build K with N V" sets N's version, and a
    /// version inside a tag after N and a `-` is N's.
    #[test]
    fn a_version_inside_an_image_tag_is_set() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[(
            "Dockerfile",
            "# syntax=docker/dockerfile:1\nFROM ocaml/opam:debian-12-ocaml-5.1 AS build\nRUN make\n\nFROM debian:bookworm-20240612-slim\n",
        )]);
        assert_eq!(
            edit.change_asked("Build the Docker image with OCaml 5.2."),
            call(
                "Dockerfile",
                "FROM ocaml/opam:debian-12-ocaml-5.1 AS build",
                "FROM ocaml/opam:debian-12-ocaml-5.2 AS build"
            )
        );
    }

    /// Found with an R package (session 49, codecov_target_85; failed again at s50c): "Raise
    /// the overall coverage target on Codecov to 85%." was offered no change — `codecov.yml`
    /// has `target: 80%` under `project` and `target: auto` under `patch`. A percentage
    /// replaces a percentage or a number, not a word.
    #[test]
    fn a_percentage_replaces_no_word() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[(
            "codecov.yml",
            "coverage:\n  status:\n    project:\n      default:\n        target: 80%\n        threshold: 2%\n    patch:\n      default:\n        target: auto\n        threshold: 1%\n",
        )]);
        assert_eq!(
            edit.change_asked("Raise the overall coverage target on Codecov to 85%."),
            call("codecov.yml", "target: 80%", "target: 85%")
        );
    }

    /// Found with a Haskell project (session 47): "Make reports 120 columns wide by default."
    /// was offered no change, nor "Set the default report width to 120."; the option is
    /// defined over several lines, `( long "width"` … `<> value 96`. A size in one dimension
    /// (`wide`) names its noun (`width`); an option's default is read from the lines of its
    /// block after its quoted name.
    #[test]
    fn a_multiline_options_default_is_set_and_wide_names_width() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[(
            "app/Main.hs",
            "optionsP =\n  Options\n    <$> strOption\n      ( long \"file\"\n          <> value \"ledger.journal\"\n      )\n    <*> option auto\n      ( long \"width\"\n          <> metavar \"COLUMNS\"\n          <> value 96\n          <> showDefault\n      )\n    <*> option auto\n      ( long \"depth\"\n          <> value 3\n      )\n",
        )]);
        let want = call("app/Main.hs", "<> value 96", "<> value 120");
        assert_eq!(
            edit.change_asked("Set the default report width to 120."),
            want
        );
        assert_eq!(
            edit.change_asked("Make reports 120 columns wide by default."),
            want
        );
        assert_eq!(
            edit.change_asked("Set the default depth to 4."),
            call("app/Main.hs", "<> value 3", "<> value 4")
        );
        // Not a whole number, no change from the block.
        assert_eq!(edit.change_asked("Make reports 12.5 columns wide."), None);
    }

    /// Found with a Haskell project (session 47): "Raise the aeson upper bound to 2.4." was
    /// offered no change; the Cabal file writes `, aeson >=2.1 && <2.3`. The bound the request
    /// names of a dependency's range is set, upper or lower; a range without the bound named,
    /// or a request naming neither, gets no change from it.
    #[test]
    fn a_bound_of_a_dependency_range_is_set() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                "ledger-lite.cabal",
                "library\n  build-depends:\n      base >=4.17 && <5\n    , aeson >=2.1 && <2.3\n    , text >=2.0\n",
            ),
            ("requirements.txt", "requests>=2.28,<3\n"),
        ]);
        assert_eq!(
            edit.change_asked("Raise the aeson upper bound to 2.4."),
            call(
                "ledger-lite.cabal",
                ", aeson >=2.1 && <2.3",
                ", aeson >=2.1 && <2.4"
            )
        );
        assert_eq!(
            edit.change_asked("Raise the lower bound of aeson to 2.2."),
            call(
                "ledger-lite.cabal",
                ", aeson >=2.1 && <2.3",
                ", aeson >=2.2 && <2.3"
            )
        );
        assert_eq!(
            edit.change_asked("Set the maximum version of requests to 4."),
            call("requirements.txt", "requests>=2.28,<3", "requests>=2.28,<4")
        );
        assert_eq!(
            edit.change_asked("Raise the text upper bound to 2.2."),
            None
        );
    }

    /// Found with a C++/CMake daemon and a Django project (session 41): "Set the project
    /// version to 2.2.0." was offered CMakePresets.json's schema `"version": 6` → `2.2.0`, and
    /// "Bump pytest to 8.3.2." (`pytest==8.2.2` beside `pytest-django`), "Start 5 gunicorn
    /// workers in the container." (the Dockerfile's `"--workers", "3"`), "Make systemd wait 30
    /// seconds before restarting sensord." (`RestartSec=10`), "Sample the sensors every 5000
    /// ms." (`interval_ms = 2000`) and "Change the MQTT topic prefix to home/climate." (the
    /// TOML's `topic_prefix`, not the C++ default it overrides) grounded no change.
    #[test]
    fn versions_pins_counts_and_units_in_keys_are_set() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                "CMakeLists.txt",
                "cmake_minimum_required(VERSION 3.20)\nproject(sensord VERSION 2.1.0 LANGUAGES CXX)\n\nset(CMAKE_CXX_STANDARD 20)\n",
            ),
            (
                "CMakePresets.json",
                "{\n  \"version\": 6,\n  \"configurePresets\": []\n}\n",
            ),
            (
                "config/sensord.toml",
                "[mqtt]\nhost = \"broker.local\"\ntopic_prefix = \"home/sensors\"\n\n[sampling]\ninterval_ms = 2000\nbus = \"/dev/i2c-1\"\n",
            ),
            (
                "src/config.hpp",
                "struct Config {\n    std::string topic_prefix = \"sensors\";\n    std::chrono::milliseconds interval{1000};\n};\n",
            ),
            (
                "src/config.cpp",
                "Config load_config(const std::string& path) {\n    config.topic_prefix = table[\"mqtt\"][\"topic_prefix\"].value_or(config.topic_prefix);\n}\n",
            ),
            (
                "packaging/sensord.service",
                "[Service]\nExecStart=/usr/local/bin/sensord\nRestart=on-failure\nRestartSec=10\n",
            ),
            (
                "requirements-dev.txt",
                "pytest==8.2.2\npytest-django==4.8.0\nruff==0.4.8\n",
            ),
            (
                "Dockerfile",
                "FROM python:3.12-slim\nEXPOSE 8000\nCMD [\"gunicorn\", \"pantry.wsgi\", \"--bind\", \"0.0.0.0:8000\", \"--workers\", \"3\"]\n",
            ),
        ]);
        assert_eq!(
            edit.change_asked("Set the project version to 2.2.0."),
            call(
                "CMakeLists.txt",
                "project(sensord VERSION 2.1.0 LANGUAGES CXX)",
                "project(sensord VERSION 2.2.0 LANGUAGES CXX)"
            )
        );
        assert_eq!(
            edit.change_asked("Bump pytest to 8.3.2."),
            call("requirements-dev.txt", "pytest==8.2.2", "pytest==8.3.2")
        );
        let cmd = "CMD [\"gunicorn\", \"pantry.wsgi\", \"--bind\", \"0.0.0.0:8000\", \"--workers\", \"3\"]";
        assert_eq!(
            edit.change_asked("Start 5 gunicorn workers in the container."),
            call("Dockerfile", cmd, &cmd.replace("\"3\"", "\"5\""))
        );
        assert_eq!(
            edit.change_asked("Make systemd wait 30 seconds before restarting sensord."),
            call(
                "packaging/sensord.service",
                "RestartSec=10",
                "RestartSec=30"
            )
        );
        assert_eq!(
            edit.change_asked("Sample the sensors every 5000 ms."),
            call(
                "config/sensord.toml",
                "interval_ms = 2000",
                "interval_ms = 5000"
            )
        );
        // In another unit, the number is written in the key's.
        assert_eq!(
            edit.change_asked("Sample the sensors every 5 seconds."),
            call(
                "config/sensord.toml",
                "interval_ms = 2000",
                "interval_ms = 5000"
            )
        );
        assert_eq!(
            edit.change_asked("Change the MQTT topic prefix to home/climate."),
            call(
                "config/sensord.toml",
                "topic_prefix = \"home/sensors\"",
                "topic_prefix = \"home/climate\""
            )
        );
    }

    /// Found with a Kotlin/Gradle application (session 40): "Change the default request
    /// timeout to 30 seconds." was offered `DEFAULT_TIMEOUT_SECONDS = 30` for `= 10L` (no
    /// longer a `Long`), and "Poll for updates every 30 minutes." (HOCON's `poll-interval =
    /// 15m`) and "Give the Gradle daemon 4 GB of heap." (`-Xmx2g`) grounded no change. A
    /// number's type suffix stays; a number given in a unit is written in the unit's letters
    /// the old value uses.
    #[test]
    fn a_literals_type_and_a_values_unit_are_kept() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                "src/Tracker.kt",
                "package packtrack\n\nconst val DEFAULT_TIMEOUT_SECONDS = 10L\nconst val USER_AGENT = \"packtrack/0.4\"\n",
            ),
            (
                "conf/application.conf",
                "packtrack {\n  # How often `packtrack watch` asks the carriers for news.\n  poll-interval = 15m\n  cache-dir = \"/tmp\"\n}\n",
            ),
            ("config.yml", "cache_ttl: \"90s\"\nmax_body: 512m\n"),
            (
                "gradle.properties",
                "org.gradle.jvmargs=-Xmx2g -Dfile.encoding=UTF-8\norg.gradle.caching=true\n",
            ),
        ]);
        assert_eq!(
            edit.change_asked("Change the default request timeout to 30 seconds."),
            call(
                "src/Tracker.kt",
                "const val DEFAULT_TIMEOUT_SECONDS = 10L",
                "const val DEFAULT_TIMEOUT_SECONDS = 30L"
            )
        );
        assert_eq!(
            edit.change_asked("Poll for updates every 30 minutes."),
            call(
                "conf/application.conf",
                "poll-interval = 15m",
                "poll-interval = 30m"
            )
        );
        // Another unit of the same kind is written in its own letter; a unit of another kind
        // leaves the number bare.
        assert_eq!(
            edit.change_asked("Set the cache ttl in config.yml to 2 minutes."),
            call("config.yml", "cache_ttl: \"90s\"", "cache_ttl: \"2m\"")
        );
        assert_eq!(
            edit.change_asked("Set the max body in config.yml to 1 GB."),
            call("config.yml", "max_body: 512m", "max_body: 1g")
        );
        // The JVM's heap is its `-Xmx`, the size in the letter the line writes it in.
        assert_eq!(
            edit.change_asked("Give the Gradle daemon 4 GB of heap."),
            call(
                "gradle.properties",
                "org.gradle.jvmargs=-Xmx2g -Dfile.encoding=UTF-8",
                "org.gradle.jvmargs=-Xmx4g -Dfile.encoding=UTF-8"
            )
        );
        assert_eq!(
            edit.change_asked("Give the Gradle daemon 512MB of heap."),
            call(
                "gradle.properties",
                "org.gradle.jvmargs=-Xmx2g -Dfile.encoding=UTF-8",
                "org.gradle.jvmargs=-Xmx512m -Dfile.encoding=UTF-8"
            )
        );
        assert_eq!(
            edit.change_asked("Set the cache ttl in config.yml to 1 GB."),
            call("config.yml", "cache_ttl: \"90s\"", "cache_ttl: \"1\"")
        );
    }

    /// Found with a PHP library (session 39): "Require PHP 8.2 or newer." (composer.json's
    /// `"php"`, in lower case), "Show 50 invoices per page." (a config array's `'per_page' =>
    /// 25`, in a file other than `src/Invoice.php`, which `invoices` names by its stem) and
    /// "Change the database port to 3307." (`.env`'s `DB_PORT`) grounded no change.
    #[test]
    fn a_php_librarys_requirement_config_array_and_env_are_set() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                "composer.json",
                "{\n    \"require\": {\n        \"php\": \">=8.1\",\n        \"brick/money\": \"^0.8\"\n    }\n}\n",
            ),
            (
                "config/app.php",
                "<?php\n\nreturn [\n    'timezone' => 'Europe/Amsterdam',\n    'per_page' => 25,\n    'due_days' => 30,\n];\n",
            ),
            (
                "src/Invoice.php",
                "<?php\n\nfinal class Invoice\n{\n    public const DEFAULT_CURRENCY = 'EUR';\n}\n",
            ),
            (
                ".env.example",
                "DB_HOST=127.0.0.1\nDB_PORT=3306\nDB_DATABASE=invoicer\n",
            ),
        ]);
        assert_eq!(
            edit.change_asked("Require PHP 8.2 or newer."),
            call(
                "composer.json",
                "\"php\": \">=8.1\",",
                "\"php\": \">=8.2\","
            )
        );
        assert_eq!(
            edit.change_asked("Show 50 invoices per page."),
            call("config/app.php", "'per_page' => 25,", "'per_page' => 50,")
        );
        assert_eq!(
            edit.change_asked("Set the timezone to Europe/London."),
            call(
                "config/app.php",
                "'timezone' => 'Europe/Amsterdam',",
                "'timezone' => 'Europe/London',"
            )
        );
        assert_eq!(
            edit.change_asked("Change the database port to 3307."),
            call(".env.example", "DB_PORT=3306", "DB_PORT=3307")
        );
        // The file a stem names still has what it holds.
        assert_eq!(
            edit.change_asked("Make USD the default currency of an invoice."),
            call(
                "src/Invoice.php",
                "public const DEFAULT_CURRENCY = 'EUR';",
                "public const DEFAULT_CURRENCY = 'USD';"
            )
        );
        // A look asks for no change: "Show the README", "List 3 files".
        assert_eq!(edit.change_asked("Show 3 invoices."), None);
    }

    #[test]
    fn x_instead_of_y_replaces_y_on_the_line_the_requests_words_pick_out() {
        use crate::tools::TypedTool;
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("scripts")).unwrap();
        std::fs::write(
            dir.path().join("scripts/report.sql"),
            "-- Revenue per month.\nSELECT substr(placed_at, 1, 7) AS month,\n       sum(total) AS revenue\nFROM orders\nGROUP BY month\nORDER BY month;\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("README.md"),
            "# Shop\n\nThe monthly report.\n",
        )
        .unwrap();
        let edit = super::Edit::new(std::sync::Arc::new(
            super::Sandbox::new(dir.path()).unwrap(),
        ));
        let call = |old: &str, new: &str| {
            Some(
                serde_json::json!({"path": "scripts/report.sql", "old_text": old, "new_text": new}),
            )
        };
        // "Sort" is the line that orders: SQL's ORDER BY.
        assert_eq!(
            edit.change_asked("Sort the report by revenue instead of month."),
            call("ORDER BY month;", "ORDER BY revenue;")
        );
        assert_eq!(
            edit.change_asked("Group by revenue instead of month in report.sql."),
            call("GROUP BY month", "GROUP BY revenue")
        );
        // Three lines say `month` and no word of the request picks one.
        assert_eq!(
            edit.change_asked("Use revenue instead of month in report.sql."),
            None
        );
    }

    #[test]
    fn a_parameters_default_and_a_switch_are_values_a_request_sets() {
        use crate::tools::TypedTool;
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        let signature = "export function truncate(text: string, max: number = 80, suffix: string = \"...\"): string {";
        std::fs::write(
            dir.path().join("src/truncate.ts"),
            format!("/** Cuts `text` to `max` characters. */\n{signature}\n  return text.slice(0, max);\n}}\n"),
        )
        .unwrap();
        std::fs::write(
            dir.path().join("src/wrap.py"),
            "def wrap(text, width=72, indent=\"\"):\n    return text\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("tsconfig.json"),
            "{\n  \"compilerOptions\": {\n    \"outDir\": \"dist\",\n    \"strict\": true,\n    \"sourceMap\": false\n  }\n}\n",
        )
        .unwrap();
        let edit = super::Edit::new(std::sync::Arc::new(
            super::Sandbox::new(dir.path()).unwrap(),
        ));
        let call = |path: &str, old: &str, new: &str| {
            Some(serde_json::json!({"path": path, "old_text": old, "new_text": new}))
        };
        // A parameter's default, typed (TypeScript) or not (Python).
        assert_eq!(
            edit.change_asked("Make 100 the default max of truncate."),
            call(
                "src/truncate.ts",
                signature,
                &signature.replace("max: number = 80", "max: number = 100")
            )
        );
        assert_eq!(
            edit.change_asked("Set the default width of wrap to 80."),
            call(
                "src/wrap.py",
                "def wrap(text, width=72, indent=\"\"):",
                "def wrap(text, width=80, indent=\"\"):"
            )
        );
        // "Turn off K", "disable K", "turn on K", "enable K": a true/false value flipped.
        assert_eq!(
            edit.change_asked("Turn off strict mode in tsconfig.json."),
            call("tsconfig.json", "\"strict\": true,", "\"strict\": false,")
        );
        assert_eq!(
            edit.change_asked("Enable sourceMap in tsconfig.json."),
            call(
                "tsconfig.json",
                "\"sourceMap\": false",
                "\"sourceMap\": true"
            )
        );
        // Already so, or no true/false value to flip.
        assert_eq!(
            edit.change_asked("Turn on strict mode in tsconfig.json."),
            None
        );
        assert_eq!(edit.change_asked("Turn off outDir in tsconfig.json."), None);
    }

    #[test]
    fn a_keyword_argument_the_request_names_is_the_value_of_a_line_naming_the_key() {
        use super::keyword_value;
        let text = "add.add_argument(\"celsius\", type=float)\nadd.add_argument(\"--city\", default=\"Oslo\")\nshow.add_argument(\"--last\", type=int, default=7)\n";
        let request = "Make Bergen the default city of `weatherlog add` in weatherlog/cli.py.";
        assert_eq!(
            keyword_value(text, "city", request),
            Some(("add.add_argument(\"--city\", default=\"Oslo\")", "\"Oslo\""))
        );
        assert_eq!(
            keyword_value(text, "last", "Set the default of --last to 14."),
            Some(("show.add_argument(\"--last\", type=int, default=7)", "7"))
        );
        // No keyword the request names, or no line naming the key.
        assert_eq!(keyword_value(text, "city", "Make Bergen the city."), None);
        assert_eq!(keyword_value(text, "town", request), None);
        assert_eq!(
            keyword_value("if a == b: city = 1", "city", "the default city"),
            None
        );
    }

    #[test]
    fn an_entry_is_added_last_to_the_named_collection_as_its_entries_are_written() {
        use super::{asked, entry_insertion};
        let add = |text: &str, request: &str, python: bool| {
            let entry = asked::entry_added(&asked::parts(request)).expect(request);
            let (old, new) = entry_insertion(text, &entry, python)?;
            assert_eq!(text.matches(old.as_str()).count(), 1, "{request}: {old}");
            Some(text.replacen(old.as_str(), &new, 1))
        };
        let shop = "PRICES = {\"apple\": 0.5, \"bread\": 2.25}\n\ndef price_of(item):\n    return PRICES[item]\n";
        assert_eq!(
            add(
                shop,
                "Add cheese with price 3.5 to the PRICES in src/shop.py.",
                true
            )
            .unwrap(),
            shop.replace("2.25}", "2.25, \"cheese\": 3.5}")
        );
        // Bare keys and ` = ` (Lua, TOML inline), single quotes, a trailing comma, a list.
        let cases: &[(&str, &str, &str)] = &[
            (
                "local T = {a = 1}\n",
                "Add b = 2 to T",
                "local T = {a = 1, b = 2}\n",
            ),
            ("T = [1,2]\n", "Add 3 to T", "T = [1,2,3]\n"),
            // Commas and brackets inside strings are no entries' ends.
            (
                "N = [\"a, b\", \"c]\"]\n",
                "Add \"d\" to N",
                "N = [\"a, b\", \"c]\", \"d\"]\n",
            ),
            (
                "NAMES = ['ann', 'bo']\n",
                "Add \"cy\" to the NAMES list",
                "NAMES = ['ann', 'bo', 'cy']\n",
            ),
            (
                "const L = [1, 2,];\n",
                "Add 3 to L",
                "const L = [1, 2, 3,];\n",
            ),
            (
                "X: dict[str, int] = {}\n",
                "Add k with value 1 to X",
                "X: dict[str, int] = {\"k\": 1}\n",
            ),
            (
                "FLAGS = {'a': True}\n",
                "Add b with value false to FLAGS",
                "FLAGS = {'a': True, 'b': False}\n",
            ),
            (
                "{\n  \"hosts\": [\"a.org\"]\n}\n",
                "Add \"b.org\" to hosts",
                "{\n  \"hosts\": [\"a.org\", \"b.org\"]\n}\n",
            ),
        ];
        for (text, request, want) in cases {
            assert_eq!(
                add(text, request, text.contains("True")).as_deref(),
                Some(*want),
                "{request}"
            );
        }
        // Over several lines: a line of its own at the last entry's indentation, with a comma
        // where the entries have one, and after the last entry where it has none.
        let multi = "DEFAULTS = {\n    \"timeout\": 5,\n    \"retries\": 2,\n}\nother = 1\n";
        assert_eq!(
            add(multi, "Add verbose with value true to DEFAULTS", true).unwrap(),
            multi.replace("2,\n}", "2,\n    \"verbose\": True,\n}")
        );
        let json = "{\n  \"deps\": [\n    \"a\",\n    \"b\"\n  ]\n}\n";
        assert_eq!(
            add(json, "Add \"c\" to the deps list", false).unwrap(),
            json.replace("\"b\"\n", "\"b\",\n    \"c\"\n")
        );
        // Already there, a list given a value, a mapping given none, two assignments, a
        // comment last, no collection.
        assert_eq!(add(shop, "Add bread with price 3 to PRICES", true), None);
        assert_eq!(add("L = [1]\n", "Add k with value 1 to L", true), None);
        assert_eq!(add(shop, "Add cheese to PRICES", true), None);
        assert_eq!(
            add("P = {}\nP = {}\n", "Add k with value 1 to P", true),
            None
        );
        assert_eq!(
            add(
                "P = {\n    'a': 1,\n    # more\n}\n",
                "Add b with value 2 to P",
                true
            ),
            None
        );
        assert_eq!(add("P = dict()\n", "Add k with value 1 to P", true), None);
    }

    #[test]
    fn an_entry_is_added_last_to_the_named_section_of_a_toml_or_ini_file() {
        use super::{asked, section_insertion};
        let add = |text: &str, request: &str, toml: bool| {
            let entry = asked::entry_added(&asked::parts(request)).expect(request);
            let (old, new) = section_insertion(text, &entry, toml)?;
            assert_eq!(text.matches(old.as_str()).count(), 1, "{request}: {old}");
            Some(text.replacen(old.as_str(), &new, 1))
        };
        // Found running `toolmend run` on a small Rust crate (session 28): asked "Add serde =
        // "1" to the dependencies in Cargo.toml.", Qwen2.5-Coder-0.5B showed the TOML in its
        // reply, then read the file until the run ended with nothing changed.
        let cargo = "[package]\nname = \"units\"\nversion = \"0.3.1\"\n\n[dependencies]\n";
        assert_eq!(
            add(
                cargo,
                "Add serde = \"1\" to the dependencies in Cargo.toml.",
                true
            )
            .as_deref(),
            Some(
                "[package]\nname = \"units\"\nversion = \"0.3.1\"\n\n[dependencies]\nserde = \"1\"\n"
            )
        );
        // After the section's last entry, not after the blank line before the next header; the
        // line quoted whole; a version number is a string in a dependencies table.
        let two = "[dependencies]\nlog = \"0.4\"\n\n[dev-dependencies]\nlog = \"0.4\"\n";
        assert_eq!(
            add(
                two,
                "Add `regex = \"1\"` to the [dependencies] section of Cargo.toml",
                true
            )
            .as_deref(),
            Some(
                "[dependencies]\nlog = \"0.4\"\nregex = \"1\"\n\n[dev-dependencies]\nlog = \"0.4\"\n"
            )
        );
        assert_eq!(
            add(
                two,
                "Add proptest with version 1.4 to the dev-dependencies in Cargo.toml",
                true
            )
            .as_deref(),
            Some(
                "[dependencies]\nlog = \"0.4\"\n\n[dev-dependencies]\nlog = \"0.4\"\nproptest = \"1.4\"\n"
            )
        );
        // TOML truth values and numbers stay bare outside a dependencies table; INI writes
        // values as they are, with the section's own separator.
        assert_eq!(
            add(
                "[profile.release]\nlto = true\n",
                "Add debug = true to the profile.release table in Cargo.toml",
                true
            )
            .as_deref(),
            Some("[profile.release]\nlto = true\ndebug = true\n")
        );
        assert_eq!(
            add(
                "[server]\nhost=example.org\n",
                "Add port with value 8080 to the server section in app.ini",
                false
            )
            .as_deref(),
            Some("[server]\nhost=example.org\nport=8080\n")
        );
        // Already there, no such section, two of them, no value: nothing.
        assert_eq!(
            add(two, "Add log = \"0.4\" to the dependencies", true),
            None
        );
        assert_eq!(add(cargo, "Add serde = \"1\" to the features", true), None);
        assert_eq!(add("[tools]\n[tools]\n", "Add k = 1 to tools", true), None);
        assert_eq!(add(cargo, "Add serde to the dependencies", true), None);
    }

    #[test]
    fn a_rule_is_added_after_the_makefiles_last_and_named_phony() {
        use super::rule_insertion;
        let add = |text: &str, name: &str, command: &str| {
            let (old, new) = rule_insertion(text, name, command)?;
            assert_eq!(text.matches(old.as_str()).count(), 1, "{name}: {old}");
            Some(text.replacen(old.as_str(), &new, 1))
        };
        // Found running `toolmend run` on a Docker Compose folder (session 29): asked "Add a
        // make target ps that runs docker compose ps.", Qwen2.5-Coder-0.5B called a tool `ps`,
        // then tools named after the folder's files, until the run ended with nothing changed.
        let make =
            "up:\n\tdocker compose up -d\n\nbackup:\n\t./scripts/backup.sh\n\n.PHONY: up backup\n";
        assert_eq!(
            add(make, "ps", "docker compose ps").as_deref(),
            Some(
                "up:\n\tdocker compose up -d\n\nbackup:\n\t./scripts/backup.sh\n\nps:\n\tdocker compose ps\n\n.PHONY: up backup ps\n"
            )
        );
        // `.PHONY` at the top; none at all.
        assert_eq!(
            add(".PHONY: up\nup:\n\tx\n", "ps", "y").as_deref(),
            Some(".PHONY: up ps\nup:\n\tx\n\nps:\n\ty\n")
        );
        assert_eq!(
            add("all: build\n\nbuild:\n\tcc a.c\n", "clean", "rm -f a.out").as_deref(),
            Some("all: build\n\nbuild:\n\tcc a.c\n\nclean:\n\trm -f a.out\n")
        );
        // The rule is there already (alone or beside another target).
        assert_eq!(add(make, "backup", "x"), None);
        assert_eq!(add("a b: c\n\tx\n", "b", "y"), None);
    }

    #[test]
    fn an_entry_is_added_last_to_the_named_yaml_mapping() {
        use super::{asked, mapping_insertion};
        let add = |text: &str, request: &str| {
            let entry = asked::entry_added(&asked::parts(request)).expect(request);
            let (old, new) = mapping_insertion(text, &entry)?;
            assert_eq!(text.matches(old.as_str()).count(), 1, "{request}: {old}");
            Some(text.replacen(old.as_str(), &new, 1))
        };
        // Found running `toolmend run` on a Docker Compose folder (session 29): asked "Add
        // restart: unless-stopped to the web service in docker-compose.yml.",
        // Qwen2.5-Coder-0.5B called a tool `restart:unless-stopped`, then `proxy` with the
        // proxy service's keys, until the run ended with nothing changed.
        let compose = "services:\n  web:\n    image: notes:1.4.2\n    ports:\n      - \"8080:8080\"\n    depends_on:\n      - db\n\n  db:\n    image: postgres:15\n";
        assert_eq!(
            add(
                compose,
                "Add restart: unless-stopped to the web service in docker-compose.yml."
            )
            .as_deref(),
            Some(
                "services:\n  web:\n    image: notes:1.4.2\n    ports:\n      - \"8080:8080\"\n    depends_on:\n      - db\n    restart: unless-stopped\n\n  db:\n    image: postgres:15\n"
            )
        );
        // The last mapping of the file; the line quoted whole; a value YAML would read
        // otherwise is quoted; a truth value in lower case.
        assert_eq!(
            add(compose, "Add `shm_size: 1gb` to db").as_deref(),
            Some(
                "services:\n  web:\n    image: notes:1.4.2\n    ports:\n      - \"8080:8080\"\n    depends_on:\n      - db\n\n  db:\n    image: postgres:15\n    shm_size: 1gb\n"
            )
        );
        assert_eq!(
            add("app:\n  name: x\n", "Add greeting: \"hi: there\" to app").as_deref(),
            Some("app:\n  name: x\n  greeting: \"hi: there\"\n")
        );
        assert_eq!(
            add("app:\n  name: x  # shown\n", "Add debug: True to app").as_deref(),
            Some("app:\n  name: x  # shown\n  debug: true\n")
        );
        // Already there, no such mapping, two of them, a list, no value: nothing.
        assert_eq!(add(compose, "Add image: notes:2 to web"), None);
        assert_eq!(add(compose, "Add restart: always to proxy"), None);
        assert_eq!(
            add(
                "a:\n  web:\n    x: 1\nb:\n  web:\n    x: 1\n",
                "Add y: 2 to web"
            ),
            None
        );
        assert_eq!(add(compose, "Add condition: healthy to depends_on"), None);
        assert_eq!(add(compose, "Add \"restart\" to web"), None);
    }

    #[test]
    fn a_version_is_set_on_the_key_whose_first_word_the_request_names() {
        use super::{asked, set_asked};
        let set = |text: &str, request: &str| {
            let (value, keys) = asked::value_set(&asked::parts(request)).expect(request);
            set_asked("", text, &[], &keys, &value.text)
        };
        let pair = |a: &str, b: &str| Some((a.to_owned(), b.to_owned()));
        // A Go module's workflow (session 30).
        let ci = "    steps:\n      - uses: actions/setup-go@v5\n        with:\n          go-version: \"1.21\"\n";
        assert_eq!(
            set(ci, "Change the CI to use Go 1.22."),
            pair("go-version: \"1.21\"", "go-version: \"1.22\"")
        );
        assert_eq!(
            set(
                "- python_version: 3.11\n",
                "Set the Python version to 3.12."
            ),
            pair("- python_version: 3.11", "- python_version: 3.12")
        );
        // The project's own version is no Go version; a value of another kind is no version.
        assert_eq!(set(ci, "Bump the version to 0.4.0."), None);
        assert_eq!(
            set("go-mode: strict\n", "Change the CI to use Go 1.22."),
            None
        );
        assert_eq!(set(ci, "Change the CI to use Go fast."), None);
        // A version after its name, alone on its line (go.mod, .tool-versions).
        let gomod =
            "module example.com/tally\n\ngo 1.21\n\nrequire github.com/spf13/pflag v1.0.5\n";
        assert_eq!(
            set(gomod, "Set the Go version in go.mod to 1.22."),
            pair("go 1.21", "go 1.22")
        );
        assert_eq!(
            set("nodejs 20.1.0\npython 3.11.4\n", "Change nodejs to 22.0.0."),
            pair("nodejs 20.1.0", "nodejs 22.0.0")
        );
        assert_eq!(set(gomod, "Set the module to 1.22."), None);
        // A version file holding the bare version alone (`.nvmrc`, `.python-version`): "Bump
        // the Node version to 20." found no key to set (textkit set, session 33).
        assert_eq!(
            set("18\n", "Bump the Node version to 20."),
            pair("18", "20")
        );
        assert_eq!(
            set("v18.19.0\n", "Set the Node version to 20.11.1."),
            pair("v18.19.0", "v20.11.1")
        );
        assert_eq!(
            set("# pinned\n3.11.4\n", "Set the Python version to 3.12."),
            pair("3.11.4", "3.12")
        );
        // Two bare lines, or a value that is no version, or a request that speaks of no
        // version ("Set MAX_LENGTH to 200." found .nvmrc's `18` as well as config.ts's line,
        // and offered no edit: textkit set, session 34): no such file.
        assert_eq!(set("18\n20\n", "Bump the Node version to 22."), None);
        assert_eq!(set("18\n", "Set the Node version to latest."), None);
        assert_eq!(set("18\n", "Set MAX_LENGTH to 200."), None);
    }

    #[test]
    fn the_version_file_a_request_names_is_the_one_changed() {
        use crate::tools::TypedTool;
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(".nvmrc"), "18\n").unwrap();
        std::fs::write(
            dir.path().join("package.json"),
            "{\n  \"name\": \"textkit\",\n  \"version\": \"1.2.4\"\n}\n",
        )
        .unwrap();
        let edit = super::Edit::new(std::sync::Arc::new(
            super::Sandbox::new(dir.path()).unwrap(),
        ));
        assert_eq!(
            edit.change_asked("Bump the Node version to 20."),
            Some(serde_json::json!({"path": ".nvmrc", "old_text": "18", "new_text": "20"}))
        );
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(
            dir.path().join("src/config.ts"),
            "export const MAX_LENGTH = 120;\n",
        )
        .unwrap();
        assert_eq!(
            edit.change_asked("Set MAX_LENGTH to 200."),
            Some(serde_json::json!({
                "path": "src/config.ts",
                "old_text": "export const MAX_LENGTH = 120;",
                "new_text": "export const MAX_LENGTH = 200;"
            }))
        );
    }

    #[test]
    fn a_pattern_added_to_an_ignore_file_is_its_last_line() {
        use crate::tools::TypedTool;
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(".gitignore"), "bin/\n*.out\n").unwrap();
        std::fs::write(dir.path().join("requirements.txt"), "requests\n").unwrap();
        let edit = super::Edit::new(std::sync::Arc::new(
            super::Sandbox::new(dir.path()).unwrap(),
        ));
        let asked = |request: &str| edit.change_asked(request);
        let edit_of = |path: &str, old: &str, new: &str| {
            Some(serde_json::json!({"path": path, "old_text": old, "new_text": new}))
        };
        assert_eq!(
            asked("Add *.log to the gitignore."),
            edit_of(".gitignore", "*.out", "*.out\n*.log")
        );
        assert_eq!(
            asked("Add dist/ to .gitignore"),
            edit_of(".gitignore", "*.out", "*.out\ndist/")
        );
        assert_eq!(
            asked("Add pyyaml to requirements.txt."),
            edit_of("requirements.txt", "requests", "requests\npyyaml")
        );
        // Already there: no change to make.
        assert_eq!(asked("Add bin/ to the gitignore."), None);
    }

    #[test]
    fn a_value_is_set_on_the_c_macro_whose_name_holds_the_requests_words() {
        use super::{asked, set_asked};
        let set = |text: &str, request: &str| {
            let (value, keys) = asked::value_set(&asked::parts(request)).expect(request);
            set_asked("", text, &[], &keys, &value.text)
        };
        let pair = |a: &str, b: &str| Some((a.to_owned(), b.to_owned()));
        // A C library (session 36): `CAP` stands for capacity.
        let header = "#ifndef RINGBUF_H\n#define RINGBUF_H\n\n/* Capacity used when 0 is passed. */\n#define RINGBUF_DEFAULT_CAP 64\n#define RINGBUF_MAX(a, b) ((a) > (b) ? (a) : (b))\n";
        assert_eq!(
            set(header, "Set the default capacity to 128."),
            pair(
                "#define RINGBUF_DEFAULT_CAP 64",
                "#define RINGBUF_DEFAULT_CAP 128"
            )
        );
        // A comment after the value stays; the name's words in any order.
        assert_eq!(
            set(
                "#  define CAP_DEFAULT 64 /* items */\n",
                "Change the default cap to 32"
            ),
            pair(
                "#  define CAP_DEFAULT 64 /* items */",
                "#  define CAP_DEFAULT 32 /* items */"
            )
        );
        // A word the name lacks, a macro with parameters, a guard with no value: no line.
        assert_eq!(set(header, "Set the default size to 128."), None);
        assert_eq!(set(header, "Set RINGBUF_MAX to 3."), None);
        assert_eq!(
            set("#define BUF_MAX(a, b) ((a) > (b))\n", "Set BUF_MAX to 3."),
            None
        );
        assert_eq!(set(header, "Set RINGBUF_H to 3."), None);
    }

    #[test]
    fn a_value_is_set_on_a_constant_a_dotted_key_or_an_xml_element_the_request_names() {
        use super::{asked, set_asked};
        let set = |text: &str, request: &str| {
            let (value, keys) = asked::value_set(&asked::parts(request)).expect(request);
            set_asked("", text, &[], &keys, &value.text)
        };
        let pair = |a: &str, b: &str| Some((a.to_owned(), b.to_owned()));
        // A Maven project (session 37): a Java constant, its parts the request's words (`MAX`
        // for maximum, the unit `nights` after the value).
        let java = "public record Booking(String guest) {\n    /** The longest stay. */\n    public static final int MAX_NIGHTS = 14;\n    private static final String DEFAULT_NAME = \"x\";\n}\n";
        assert_eq!(
            set(java, "Raise the maximum stay to 21 nights."),
            pair(
                "public static final int MAX_NIGHTS = 14;",
                "public static final int MAX_NIGHTS = 21;"
            )
        );
        assert_eq!(
            set(
                "export const MAX_LENGTH = 80;\n",
                "Set the max length to 100."
            ),
            pair(
                "export const MAX_LENGTH = 80;",
                "export const MAX_LENGTH = 100;"
            )
        );
        assert_eq!(set(java, "Raise the minimum stay to 2 nights."), None);
        assert_eq!(set(java, "Set the maximum price to 21."), None);
        // A properties file's dotted key, the one holding most of the request's words.
        let props = "# Guest house\nbookings.rooms=6\nbookings.checkin.hour=15\nbookings.checkout.hour=11\n";
        assert_eq!(
            set(props, "Move checkout to 10 o'clock."),
            pair("bookings.checkout.hour=11", "bookings.checkout.hour=10")
        );
        assert_eq!(
            set(props, "Set the checkin hour to 14."),
            pair("bookings.checkin.hour=15", "bookings.checkin.hour=14")
        );
        assert_eq!(set(props, "Set the hour to 14."), None, "two lines hold it");
        // An XML element: of a pom.xml's versions, the one right inside `<project>`.
        let pom = "<?xml version=\"1.0\"?>\n<project>\n  <modelVersion>4.0.0</modelVersion>\n  <version>1.2.0</version>\n  <properties>\n    <junit.version>5.10.2</junit.version>\n    <maven.compiler.release>17</maven.compiler.release>\n  </properties>\n  <dependencies>\n    <dependency>\n      <version>${junit.version}</version>\n    </dependency>\n  </dependencies>\n  <build>\n    <plugins>\n      <plugin>\n        <version>3.2.5</version>\n      </plugin>\n    </plugins>\n  </build>\n</project>\n";
        assert_eq!(
            set(pom, "Bump the project version to 1.3.0."),
            pair("<version>1.2.0</version>", "<version>1.3.0</version>")
        );
        assert_eq!(
            set(pom, "Set the JUnit version to 5.11.0."),
            pair(
                "<junit.version>5.10.2</junit.version>",
                "<junit.version>5.11.0</junit.version>"
            )
        );
        assert_eq!(
            set(pom, "Set the compiler release to 21."),
            pair(
                "<maven.compiler.release>17</maven.compiler.release>",
                "<maven.compiler.release>21</maven.compiler.release>"
            )
        );
        // No block named: of several, the one least indented, the project's own (session 42;
        // it was left undecided before).
        assert_eq!(
            set(pom, "Bump the version to 1.3.0."),
            pair("<version>1.2.0</version>", "<version>1.3.0</version>")
        );
        // A CSS custom property (a Hugo site, session 37).
        let css = ":root {\n  --accent: #2e7d32;\n  --text: #222222;\n}\n\n.meta {\n  color: #777777;\n}\n";
        assert_eq!(
            set(css, "Change the accent colour to #1565c0."),
            pair("--accent: #2e7d32;", "--accent: #1565c0;")
        );
        assert_eq!(set(css, "Change the link colour to #1565c0."), None);
    }

    #[test]
    fn a_value_is_set_in_the_one_entry_a_quoted_key_names_on_a_line() {
        use super::{asked, set_asked};
        let set = |text: &str, request: &str| {
            let (value, keys) = asked::value_set(&asked::parts(request)).expect(request);
            set_asked("", text, &[], &keys, &value.text)
        };
        let shop = "PRICES = {\"apple\": 1.1, \"milk\": 1.1, 'tea': \"x, y\"}\n";
        let pair = |a: &str, b: &str| Some((a.to_owned(), b.to_owned()));
        assert_eq!(
            set(shop, "Set the price of milk in src/shop.py to 1.2."),
            pair(
                shop.trim(),
                "PRICES = {\"apple\": 1.1, \"milk\": 1.2, 'tea': \"x, y\"}"
            )
        );
        // A quoted value keeps its quotes; the last entry ends at the bracket.
        assert_eq!(
            set(shop, "Set tea to z."),
            pair(
                shop.trim(),
                "PRICES = {\"apple\": 1.1, \"milk\": 1.1, 'tea': \"z\"}"
            )
        );
        // A line assigning a key wins; two entries named, or none: nothing.
        assert_eq!(
            set("milk = 2\nP = {\"milk\": 1}\n", "Set milk to 3."),
            pair("milk = 2", "milk = 3")
        );
        assert_eq!(
            set("A = {\"milk\": 1}\nB = {\"milk\": 2}\n", "Set milk to 3."),
            None
        );
        assert_eq!(set(shop, "Set the price of cheese to 3."), None);
        // Found running `toolmend run` on a Docker Compose folder (session 29): asked "Bump
        // the web image to notes:1.5.0.", Qwen2.5-Coder-0.5B called `bump-web-image`, then
        // named the Makefile's targets as tools. Of the three `image:` lines, the one in the
        // block the request names.
        let compose = "services:\n  web:\n    image: notes:1.4.2\n    ports:\n      - \"80:80\"\n  db:\n    image: postgres:15\n";
        assert_eq!(
            set(compose, "Bump the web image to notes:1.5.0."),
            pair("image: notes:1.4.2", "image: notes:1.5.0")
        );
        assert_eq!(
            set(compose, "Set the db image to postgres:16"),
            pair("image: postgres:15", "image: postgres:16")
        );
        assert_eq!(set(compose, "Set the image to x:1"), None);
        // Asked "Raise client_max_body_size to 50m in the nginx config.", the model called
        // `set_client_max_body_size` until the run ended: a directive's value.
        let nginx = "server {\n    listen 80;\n    client_max_body_size 10m;\n}\n";
        assert_eq!(
            set(
                nginx,
                "Raise client_max_body_size to 50m in the nginx config."
            ),
            pair("client_max_body_size 10m;", "client_max_body_size 50m;")
        );
        assert_eq!(set("the end;\n", "Set the end to x"), None);
        // A declaration with a type (units crate, session 28).
        let units = "pub fn f() {}\n\npub const MILES_TO_KM: f64 = 1.609;\n";
        assert_eq!(
            set(units, "Change MILES_TO_KM to 1.609344 in src/lib.rs."),
            pair(
                "pub const MILES_TO_KM: f64 = 1.609;",
                "pub const MILES_TO_KM: f64 = 1.609344;"
            )
        );
    }

    #[test]
    fn a_rename_is_every_occurrence_when_each_is_a_name_of_its_own() {
        use super::renaming;
        let shop = "def price_of(item):\n    return PRICES[item]\n\ndef total(items):\n    return sum(price_of(i) for i in items)\n";
        assert_eq!(
            renaming("src/shop.py", shop, "price_of", "unit_price"),
            Some(
                serde_json::json!({"path": "src/shop.py", "old_text": "price_of", "new_text": "unit_price", "replace_all": true})
            )
        );
        // One occurrence: a plain edit; a method called after a dot is the same name.
        assert_eq!(
            renaming("a.py", "x = self.total()\n", "total", "sum_of"),
            Some(serde_json::json!({"path": "a.py", "old_text": "total", "new_text": "sum_of"}))
        );
        // Inside a longer name, absent, or the file's own name: no edit.
        assert_eq!(
            renaming("a.py", "price_of(1)\nprice_of_all()\n", "price_of", "p"),
            None
        );
        assert_eq!(renaming("a.py", "cost = 1\n", "price_of", "p"), None);
        assert_eq!(
            renaming("src/shop.py", "see shop.py\n", "shop.py", "store.py"),
            None
        );
        // A quoted name with spaces is matched at its ends only where they are name characters.
        assert_eq!(
            renaming("a.md", "Old Name and (Old Name)\n", "Old Name", "New Name"),
            Some(
                serde_json::json!({"path": "a.md", "old_text": "Old Name", "new_text": "New Name", "replace_all": true})
            )
        );
    }

    #[test]
    fn the_request_names_the_new_value_of_the_same_kind() {
        use super::value_named;
        let v = |r, old| value_named(r, old);
        assert_eq!(
            v(
                "Set the version in weatherlog/__init__.py to 0.3.2.",
                "0.3.1"
            )
            .as_deref(),
            Some("0.3.2")
        );
        assert_eq!(
            v("Change the default of --last from 7 to 14.", "7").as_deref(),
            Some("14")
        );
        assert_eq!(v("Set DEBUG to true.", "False").as_deref(), Some("True"));
        assert_eq!(
            v("Set \"debug\" to TRUE.", "false").as_deref(),
            Some("true")
        );
        assert_eq!(v("Set it to 3 or 4.", "2"), None);
        assert_eq!(v("Set it to 2.", "2"), None);
        assert_eq!(v("Rename it to Bergen.", "Oslo"), None);
    }

    #[test]
    fn an_assignment_is_the_key_alone_then_one_separator_then_a_value() {
        assert_eq!(
            assignment("__version__ = \"0.3.1\"", "__version__"),
            Some(("__version__ = \"0.3.1\"", "\"0.3.1\""))
        );
        assert_eq!(
            assignment("  \"debug\": false,", "debug"),
            Some(("  \"debug\": false,", "false"))
        );
        assert_eq!(assignment("retries: 3;", "retries").map(|a| a.1), Some("3"));
        // A declaration's keywords and a type before the `=` (Rust, TypeScript, Python, Go,
        // Kotlin): "Change MILES_TO_KM to 1.609344 in src/lib.rs" (units crate, session 28).
        for (line, key, value) in [
            (
                "pub const MILES_TO_KM: f64 = 1.609;",
                "MILES_TO_KM",
                "1.609",
            ),
            ("pub(crate) static LIMIT: usize = 8;", "LIMIT", "8"),
            ("export const retries = 3;", "retries", "3"),
            ("let mut depth: Vec<u8> = vec![];", "depth", "vec![]"),
            ("TIMEOUT: int = 30", "TIMEOUT", "30"),
            (
                "const timeout: Record<string, number> = {};",
                "timeout",
                "{}",
            ),
            ("var port = 8080", "port", "8080"),
            ("static = true", "static", "true"),
            ("const ref: Option<&'static str> = None;", "ref", "None"),
            ("ok: int | None = None", "ok", "None"),
            (
                "title: Hello world = greeting",
                "title",
                "Hello world = greeting",
            ),
            ("private val name: String = \"x\"", "name", "\"x\""),
            ("\"name\": \"a = b\",", "name", "\"a = b\""),
        ] {
            assert_eq!(assignment(line, key), Some((line, value)), "{line}");
        }
        for (line, key) in [
            ("pub fn version() -> u32 {", "version"),
            ("let ok: bool == true", "ok"),
            ("constant = 1", "ant"),
            ("return x = 1", "x"),
            ("my_version = 1", "version"),
            ("version_2 = 1", "version"),
            ("if version == 1:", "version"),
            ("version =", "version"),
            ("# version = 1", "version"),
        ] {
            assert_eq!(assignment(line, key), None, "{line}");
        }
    }

    const CONFIG: &str = "{\n  \"name\": \"demo\",\n  \"debug\": false,\n  \"retries\": 3\n}\n";

    #[test]
    fn the_same_words_in_other_punctuation_are_the_files_line() {
        assert_eq!(
            same_words_line(CONFIG, "debug = false", "debug = true"),
            Some((3, "\"debug\": false,", "\"debug\": true,".to_owned()))
        );
        assert_eq!(
            same_words_line(CONFIG, "retries: 3", "retries: 5"),
            Some((4, "\"retries\": 3", "\"retries\": 5".to_owned()))
        );
        let todo = "TODO: call the plumber\nDONE: pay rent\n";
        assert_eq!(
            same_words_line(todo, "TODO call the plumber", "DONE call the plumber"),
            Some((
                1,
                "TODO: call the plumber",
                "DONE: call the plumber".to_owned()
            ))
        );
    }

    #[test]
    fn anything_unclear_gives_no_line() {
        // Other words, more words on the line, two lines with the same words.
        assert_eq!(same_words_line(CONFIG, "debug = off", "debug = on"), None);
        assert_eq!(same_words_line(CONFIG, "demo", "test"), None);
        let twice = "a: 1\nb: 2\na = 1\n";
        assert_eq!(same_words_line(twice, "a 1", "a 2"), None);
        // Words only inserted or only removed, nothing changed, several lines.
        assert_eq!(
            same_words_line(CONFIG, "debug false", "debug very false"),
            None
        );
        assert_eq!(same_words_line("a, b, c\n", "a b c", "a c"), None);
        assert_eq!(
            same_words_line(CONFIG, "debug = false", "debug: false"),
            None
        );
        assert_eq!(
            same_words_line(CONFIG, "debug = false\n", "debug = true\nx"),
            None
        );
        assert_eq!(same_words_line(CONFIG, "= :", "= ;"), None);
    }

    proptest::proptest! {
        /// Any text and any edit: no panic (slices stay on character boundaries), and a line
        /// given is the file's own, once, with the same words as `old`, changed.
        #[test]
        fn the_line_given_is_in_the_file_once(
            text in "([a-cé_ :=,\"\u{3000}\t]{0,12}\n){0,6}",
            old in "[a-cé_ :=,\"]{0,10}",
            new in "[a-cé_ :=,\"]{0,10}",
        ) {
            if let Some((n, line, changed)) = same_words_line(&text, &old, &new) {
                proptest::prop_assert_eq!(text.matches(line).count(), 1);
                proptest::prop_assert_eq!(text.lines().nth(n - 1).map(str::trim), Some(line));
                proptest::prop_assert!(changed != line);
                let words = |s: &str| {
                    super::words(s)
                        .iter()
                        .map(|&(a, b)| s[a..b].to_owned())
                        .collect::<Vec<_>>()
                };
                proptest::prop_assert_eq!(words(line), words(&old));
            }
        }

        /// A line's words in other punctuation, its last word changed: the line is found
        /// whenever no other line has the same words.
        #[test]
        fn a_lines_words_find_it(
            lines in proptest::collection::vec("[a-cé_ :=,\"]{0,12}", 1..6),
            pick in 0usize..6,
        ) {
            let text = lines.join("\n");
            let line = &lines[pick % lines.len()];
            let ws: Vec<&str> = line
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .collect();
            proptest::prop_assume!(!ws.is_empty());
            let old = ws.join(" ");
            let new = format!("{} zz", ws[..ws.len() - 1].join(" "));
            let same: Vec<&String> = lines
                .iter()
                .filter(|l| {
                    l.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .filter(|w| !w.is_empty())
                        .eq(ws.iter().copied())
                })
                .collect();
            let found = same_words_line(&text, &old, new.trim());
            if same.len() == 1 && text.matches(line.trim()).count() == 1 && ws.last() != Some(&"zz") {
                let (_, got, changed) = found.unwrap();
                proptest::prop_assert_eq!(got, line.trim());
                let mut want: Vec<&str> = ws[..ws.len() - 1].to_vec();
                want.push("zz");
                let got_words: Vec<&str> = changed
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .filter(|w| !w.is_empty())
                    .collect();
                proptest::prop_assert_eq!(got_words, want);
            } else if same.len() > 1 {
                proptest::prop_assert!(found.is_none());
            }
        }
    }

    /// Found with three held-out folders (session 44), whose change requests were offered no
    /// change, or the wrong one: an Ansible role (a `defaults/main.yml` beside production
    /// inventory overrides, `harbor_http_port` beside `harbor_https_port`, a collection's
    /// version on the line after its name, the role's `min_ansible_version`), a Dart package
    /// (a default inside `const Duration(seconds: 45)`, an example program's settings, a
    /// dependency named after "of the", the CI's pinned SDK lower than the one asked to raise
    /// to) and a Scala/sbt service (HOCON defaults beside `production.conf`, a case class's
    /// types, sbt's `:=`, `sbt.version` that is no Scala version, a key counting bytes).
    /// Found with a Scala/sbt service and a Dart package (session 44's max_column_120 and
    /// max_attempts_5): "up to N things" names the maximum of the things; a constructor's
    /// `this.` field default is the key's line, not a call passing its own value.
    #[test]
    fn an_upper_bound_sets_the_maximum_where_it_is_declared() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                ".scalafmt.conf",
                "version = \"3.7.17\"\nmaxColumn = 110\nalign.preset = more\n",
            ),
            (
                "lib/src/retry_policy.dart",
                "class RetryPolicy {\n  const RetryPolicy({int? maxAttempts})\n      : this.maxAttempts = maxAttempts;\n  const RetryPolicy.standard({\n    this.maxAttempts = 3,\n    this.maxDelay = const Duration(seconds: 8),\n  });\n\n  /// A policy that never retries.\n  const RetryPolicy.none() : this(maxAttempts: 1);\n  final int maxAttempts;\n}\n",
            ),
        ]);
        assert_eq!(
            edit.change_asked("Let scalafmt format lines up to 120 columns wide."),
            call(".scalafmt.conf", "maxColumn = 110", "maxColumn = 120")
        );
        assert_eq!(
            edit.change_asked("Make the retry policy try up to 5 times by default."),
            call(
                "lib/src/retry_policy.dart",
                "this.maxAttempts = 3,",
                "this.maxAttempts = 5,"
            )
        );
        // "Set … to": the request's own "to" is the value's, no bound.
        assert_eq!(
            edit.change_asked("Set the maximum attempts to 4."),
            call(
                "lib/src/retry_policy.dart",
                "this.maxAttempts = 3,",
                "this.maxAttempts = 4,"
            )
        );
    }

    #[test]
    fn settings_of_an_ansible_role_a_dart_package_and_an_sbt_service_are_set() {
        use crate::tools::TypedTool;
        let (_dir, edit) = edit_over(&[
            (
                "roles/harbor/defaults/main.yml",
                "harbor_version: \"2.10.2\"\nharbor_http_port: 8080\nharbor_https_port: 8443\nharbor_jobservice_max_job_workers: 10\n",
            ),
            (
                "roles/harbor/meta/main.yml",
                "galaxy_info:\n  role_name: harbor\n  min_ansible_version: \"2.14\"\n",
            ),
            (
                "inventory/production/group_vars/registry.yml",
                "harbor_http_port: 80\nharbor_https_port: 443\n",
            ),
            (
                "inventory/production/host_vars/reg-01.yml",
                "harbor_jobservice_max_job_workers: 20\n",
            ),
            (
                "requirements.yml",
                "collections:\n  - name: community.docker\n    version: 3.8.1\n  - name: community.general\n    version: 8.5.0\n",
            ),
            (
                "CHANGELOG.md",
                "- Pinned community.docker to 3.8.1.\n- Timeout now 45 seconds.\n",
            ),
            (
                "ci.yml",
                "env:\n  DART_VERSION: \"3.3.4\"\n  ANSIBLE_FORCE_COLOR: \"1\"\n",
            ),
            (
                "pubspec.yaml",
                "name: pebble\nversion: 1.4.0\nenvironment:\n  sdk: ^3.2.0\ndependencies:\n  http: ^1.2.1\n",
            ),
            (
                "lib/src/config.dart",
                "class PebbleConfig {\n  const PebbleConfig({\n    this.timeout = const Duration(seconds: 45),\n    this.retry = const RetryPolicy(),\n  });\n  final Duration timeout;\n}\n",
            ),
            (
                "example/main.dart",
                "final client = PebbleClient(PebbleConfig(\n  timeout: const Duration(seconds: 10),\n));\n",
            ),
            ("build.sbt", "ThisBuild / scalaVersion := \"2.13.12\"\n"),
            ("project/build.properties", "sbt.version=1.9.8\n"),
            (
                "src/main/resources/application.conf",
                "quill {\n  http {\n    idle-timeout = 60s\n  }\n  db {\n    pool-size = 10\n  }\n  notes {\n    max-note-bytes = 65536\n  }\n}\n",
            ),
            (
                "src/main/resources/production.conf",
                "quill.http.idle-timeout = 120s\nquill.db.pool-size = 32\n",
            ),
            (
                "src/main/scala/AppConfig.scala",
                "final case class HttpConfig(\n  idleTimeout: FiniteDuration,\n  poolSize: Int,\n)\n",
            ),
        ]);
        // The role's defaults, not an environment's overrides; `https` is no plural of `http`.
        assert_eq!(
            edit.change_asked("Change the default HTTPS port to 9443."),
            call(
                "roles/harbor/defaults/main.yml",
                "harbor_https_port: 8443",
                "harbor_https_port: 9443"
            )
        );
        // Two words joined in one part, "number" for its bound.
        assert_eq!(
            edit.change_asked("Set the default number of job service workers to 16."),
            call(
                "roles/harbor/defaults/main.yml",
                "harbor_jobservice_max_job_workers: 10",
                "harbor_jobservice_max_job_workers: 16"
            )
        );
        // The version on the line after the collection's name; the changelog sets nothing.
        assert_eq!(
            edit.change_asked("Pin the community.docker collection to version 3.10.2."),
            call("requirements.yml", "version: 3.8.1", "version: 3.10.2")
        );
        // A name holding `version` that the request says; a version replaces no flag's "1".
        assert_eq!(
            edit.change_asked("Raise the role's minimum Ansible version to 2.15."),
            call(
                "roles/harbor/meta/main.yml",
                "min_ansible_version: \"2.14\"",
                "min_ansible_version: \"2.15\""
            )
        );
        // The number inside a call, in the unit asked; not the example program's.
        assert_eq!(
            edit.change_asked("Change the default request timeout to 60 seconds."),
            call(
                "lib/src/config.dart",
                "this.timeout = const Duration(seconds: 45),",
                "this.timeout = const Duration(seconds: 60),"
            )
        );
        // What the version is of, named after "of the"; not the package's own version.
        assert_eq!(
            edit.change_asked("Require version 1.2.2 or newer of the http package."),
            call("pubspec.yaml", "http: ^1.2.1", "http: ^1.2.2")
        );
        // "Raise": not the CI's 3.3.4, higher than 3.3.0 already.
        assert_eq!(
            edit.change_asked("Raise the minimum Dart SDK to 3.3.0."),
            call("pubspec.yaml", "sdk: ^3.2.0", "sdk: ^3.3.0")
        );
        // sbt's `:=`; `sbt.version` is no Scala version.
        assert_eq!(
            edit.change_asked("Upgrade the project to Scala 2.13.14."),
            call(
                "build.sbt",
                "ThisBuild / scalaVersion := \"2.13.12\"",
                "ThisBuild / scalaVersion := \"2.13.14\""
            )
        );
        // HOCON's defaults, not production's; a case class's types are no values.
        assert_eq!(
            edit.change_asked("Raise the server's default idle timeout to 90 seconds."),
            call(
                "src/main/resources/application.conf",
                "idle-timeout = 60s",
                "idle-timeout = 90s"
            )
        );
        assert_eq!(
            edit.change_asked("Increase the default database connection pool size to 20."),
            call(
                "src/main/resources/application.conf",
                "pool-size = 10",
                "pool-size = 20"
            )
        );
        // "Lower" to a higher value, a count of notes for a key counting bytes: no change.
        assert_eq!(
            edit.change_asked("Lower the default pool size to 40."),
            None
        );
        assert_eq!(
            edit.change_asked("Make note listings return 50 notes per page by default."),
            None
        );
    }
}
