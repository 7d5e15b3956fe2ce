//! `grep`: search file contents inside the root with a regular expression.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Sandbox, blocking, default_path, io_failure, looks_binary};
use crate::tools::{Annotations, Failure, Output, ToolContext, TypedTool};

/// How grep labels a line it shows with a match, after `path (line N` and before the match's
/// own line number: the line a matched comment documents, a line of the block below it, a
/// line of the block a matched description is in, a line of the block a matched line of data
/// opens, a line of the entry a matched name names, a line of the mapping a matched key opens,
/// the value a Helm template's line uses (from the chart's `values.yaml` or `Chart.yaml`).
const BELOW_COMMENT: &str = ", below the comment on line ";
const IN_COMMENTS_BLOCK: &str = ", in the block below the comment on line ";
const IN_DESCRIBED_BLOCK: &str = ", in the block the description on line ";
const IN_DATA_BLOCK: &str = ", in the block line ";
const IN_NAMED_ENTRY: &str = ", in the entry line ";
const IN_MAPPING: &str = ", under the key on line ";
const VALUE_OF: &str = ", the value of ";
const IN_SECTION: &str = ", the same key in the section on line ";
/// Nim's doc comment (`##`) follows what it documents, indented under it: the line above.
const ABOVE_COMMENT: &str = ", above the comment on line ";

/// The labels of the lines grep shows with a match ([`BELOW_COMMENT`] and the others): a line
/// bearing on a request brings the lines so labelled after it (`Agent::evidence`).
pub(crate) const SHOWN_WITH: &[&str] = &[
    BELOW_COMMENT,
    IN_COMMENTS_BLOCK,
    IN_DESCRIBED_BLOCK,
    IN_DATA_BLOCK,
    IN_NAMED_ENTRY,
    IN_MAPPING,
    VALUE_OF,
    IN_SECTION,
    ABOVE_COMMENT,
];

/// Most matches in the structured data (`--format json`, the library's `data`).
const MAX_MATCHES: usize = 200;
/// Most match lines in the text: more matches than this are shown spread over the files that
/// have them ([`spread`]). Listed in walk order, 200 matches of the first folders filled a small
/// model's context window and hid every later file (Qwen2.5-Coder-0.5B's grep of `.*`).
const LIST_LINES: usize = 50;
const MAX_LINE_CHARS: usize = 200;
/// How much of one line is searched: files are read line by line with memory bounded by this,
/// whatever their size; a longer line is searched in its first `MAX_LINE_BYTES` and the result
/// says so.
const MAX_LINE_BYTES: usize = 1 << 20;

/// Arguments of `grep`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct GrepArgs {
    /// Regular expression to search for (Rust regex syntax).
    pub pattern: String,
    /// File or directory to search, relative to the workspace root. Default: ".".
    #[serde(default = "default_path")]
    pub path: String,
    /// Only search files whose path matches this glob (e.g. "*.rs").
    #[serde(default)]
    pub glob: Option<String>,
    /// Match without regard to letter case. Default: false.
    #[serde(default)]
    pub ignore_case: bool,
}

/// Searches text files for a regular expression and reports `file (line N): text` for each match.
///
/// The line number is labelled rather than written `file:N:` as grep does: a 0.5B model counted
/// `5 eggs` from `notes/groceries.md:5: - 6 eggs`, and answers `6 eggs` from
/// `notes/groceries.md (line 5): - 6 eggs` (`toolmend eval tasks --only eggs`).
///
/// A match is shown with what makes it readable, each line labelled with why it is there: the
/// line opening the block it is in (`(line 7, which line 8 is inside)`); for a comment, the
/// line it documents and that line's short block; for a description inside a block
/// (`description = "…"`), the block's other lines; for a line of data opening a block
/// (`required_providers {`), the block's lines up to its close — six lines at most each.
#[derive(Debug)]
pub struct Grep {
    sandbox: Arc<Sandbox>,
}

impl Grep {
    /// `grep` confined to `sandbox`.
    pub fn new(sandbox: Arc<Sandbox>) -> Self {
        Self { sandbox }
    }
}

impl TypedTool for Grep {
    type Args = GrepArgs;

    fn name(&self) -> &str {
        "grep"
    }

    fn description(&self) -> &str {
        "Search the text files of the workspace for a regular expression. Prints `file (line N): text` for each match."
    }

    fn annotations(&self) -> Annotations {
        Annotations::READ_ONLY
    }

    fn example(&self) -> Option<Value> {
        Some(json!({"pattern": "fn main", "path": "."}))
    }

    /// A search, in the folder the request names, for the request's most telling word: of its
    /// words written as code (below) found in the folder's text files, else of its phrases (two
    /// words side by side, see `phrases`: "longest line" tells more than `longest`, found on
    /// every line of the function that finds it — the tally set, session 30), else of its plain words
    /// (four letters or more, not a common function word), the one found on the fewest lines,
    /// at least one (longer first on a tie), searched without regard to case. Found with
    /// `toolmend eval tasks` (quickstart): asked "Who writes the quickstart, according to the
    /// notes?", Qwen2.5-Coder-0.5B copied the fixed example and searched for `fn main` in a
    /// folder of notes; `quickstart` is on one line of `notes/`, the answer's.
    ///
    /// A request that names no folder gets a search of the whole root only for a word written
    /// as code: an identifier with `_` (`to_kelvin`), a flag (`--last`), or a word the request
    /// quotes (`"temperture"`) — of those found there, the one on the fewest lines; the call
    /// leaves `path` out (the root). A question in plain words need not be about the workspace
    /// at all — unless it says it is ("in this project", "the repository", see
    /// `about_workspace`) or is a question (ends with `?`) with no word written as code: then
    /// its plain words count too. Found on the held-out project
    /// tasks: asked "In which file is the function to_kelvin defined?", the model answered "in
    /// the `<tools>` XML tags" without a look; running `toolmend run` on a small Python project
    /// (session 27), asked "What is the price of bread in this project?", it answered "$1.50"
    /// without a look (the file says 2.25).
    ///
    /// `None` when the request names a file (reading it is the better look, see `read`) — but
    /// for a question naming it by its stem only, whose phrase is found elsewhere (see
    /// `phrase_elsewhere`) — or no such word occurs where it would be searched.
    fn example_for(&self, request: &str) -> Option<Value> {
        let sb = &self.sandbox;
        // A question naming a long flag asks about the option: searched by its name, which
        // its definition writes without the dashes (`long "width"`, `flag.Int("width", …)`,
        // `#[arg(long)] width`) — the dashes find only the docs (a Haskell project, session
        // 47: "How many columns wide are reports when --width isn't given?" searched "columns
        // wide", the README's stale `80`; `value 96` is on the option's definition).
        if request.trim_end().ends_with('?') {
            // Only where no file but the docs writes the flag with its dashes (a Python
            // script's `add_argument("--last", …)` is found so).
            let flags: Vec<String> = code_words(request)
                .iter()
                .filter(|w| w.starts_with("--") && w.chars().count() >= 5)
                .filter(|w| {
                    !super::small_files(sb, sb.root()).any(|(path, text)| {
                        !is_doc(&path) && text.to_lowercase().contains(w.as_str())
                    })
                })
                .map(|w| w[2..].to_owned())
                .collect();
            if let Some(word) = telling_word(sb, sb.root(), &flags, &[], Tie::Earlier) {
                return Some(json!({"pattern": word, "ignore_case": true}));
            }
        }
        // "How many N … at most?" asks for a maximum, which code names `max_N` (`MaxN`,
        // `max-N`): searched for where a file writes it, before the files the question's
        // words name (an OCaml/dune project, session 49: "How many waypoints can a route have
        // at most?" searched `most`, then read `lib/waypoint.ml`; `let max_waypoints = 250`
        // is in `lib/defaults.ml`).
        if let Some(pattern) = at_most_name(sb, request)
            .or_else(|| default_name(sb, request))
            .or_else(|| unit_name(sb, request))
            .or_else(|| env_name(sb, request))
            .or_else(|| documented_default(sb, request))
            .or_else(|| assigned_name(sb, request))
        {
            return Some(json!({"pattern": pattern, "ignore_case": true}));
        }
        if let Some(file) = sb.first_named(request, false) {
            return phrase_elsewhere(sb, request, &file)
                .map(|phrase| json!({"pattern": phrase, "ignore_case": true}));
        }
        // Not a name the request says is not set ("with no env file and no MARTEN_* variables
        // set, which port …?": a Python webhook relay, session 55, where the search for
        // `marten_` showed the env files' overrides and the CI's, never the code's default).
        // (A prefix only, `MARTEN_*`: "when no --city is given" asks for the option's default,
        // which the search for `--city` finds.)
        let unset = said_unset(request);
        let mut code = code_words(request);
        code.retain(|w| !(w.ends_with(['_', '-']) && unset.contains(w)));
        if let Some(folder) = sb.first_named(request, true) {
            let abs = sb.resolve("grep", &folder).ok()?;
            // The words that name the folder tell nothing about what is inside it: searched
            // for, `benches` in `benches/` matched the doc line of every bench, and asked "How
            // many benches does this project have?", Qwen2.5-Coder-0.5B answered `1` from them
            // (session 26, this repository). With no other word, the look is the folder's `ls`.
            let names_folder =
                |w: &String| folder.split('/').any(|part| part.eq_ignore_ascii_case(w));
            let mut words: Vec<String> =
                code.iter().filter(|w| !names_folder(w)).cloned().collect();
            let preferred = words.len();
            words.extend(asked_phrases(request));
            let phrased = words.len();
            words.extend(
                plain_words(request)
                    .into_iter()
                    .filter(|w| !code.contains(w) && !names_folder(w)),
            );
            // Found nowhere in the folder, the words are looked for as if it were not named: a
            // folder's name can be the subject, not the place ("Which version of busted do the
            // tests need at least?" names `tests/`, and busted is in the rockspec: a Lua
            // plugin, session 42).
            if let Some(word) = telling_word(sb, &abs, &words, &[preferred, phrased], Tie::Longer) {
                return Some(search_in_described(sb, request, word, Some(&folder)));
            }
            // Only for a question about a version, and only what it asks for (otherwise the
            // look is the folder's: "How many benches does this project have?").
            let version =
                crate::tools::request_words(request).any(|w| w.eq_ignore_ascii_case("version"));
            if !(version && code.is_empty() && request.trim_end().ends_with('?')) {
                return None;
            }
            let (mut asked, _) = asked_words(request);
            asked.retain(|w| !names_folder(w));
            return version_subject(sb, request)
                .or_else(|| telling_word(sb, sb.root(), &asked, &[], Tie::Earlier))
                .map(|word| json!({"pattern": word, "ignore_case": true}));
        }
        // A request about the workspace itself ("… in this project?") asks about its files:
        // its plain words count too, after those written as code. So does any question: asked
        // with the workspace open, "What postgres version does the db use?" is about its files
        // (a Docker Compose folder, session 29: Qwen2.5-Coder-0.5B answered "14" without a
        // look; the file says 15), and a question about something else finds its words in no
        // file, or costs one search. A question's name in code found nowhere is the answer
        // ("no such function"), not a reason to search for its plain words.
        let mut words = code.clone();
        let mut phrased = words.len();
        if about_workspace(request) || (code.is_empty() && request.trim_end().ends_with('?')) {
            // What the question asks for, before its other words: `currency` of "Which
            // currency does the guest house use?" (a Maven project, session 37: the look
            // searched for "guest house", and Qwen2.5-Coder-0.5B answered "USD").
            if code.is_empty() {
                let (mut asked, mut tier) = asked_words(request);
                if let Some(unset) = left_unset(request) {
                    asked.insert(0, unset);
                    tier = 1;
                }
                // The subject of a version no line naming the version writes first (see
                // `version_subject`): the phrase's lines tell no version.
                if let Some(word) = version_subject(sb, request)
                    .or_else(|| {
                        telling_word(sb, sb.root(), &asked, &[tier], Tie::Earlier)
                            .map(|w| valued_noun(sb, &asked, w))
                    })
                    .or_else(|| port_written(sb, &asked))
                {
                    return Some(json!({"pattern": word, "ignore_case": true}));
                }
            }
            words.extend(negations(request));
            words.extend(asked_phrases(request));
            phrased = words.len();
            // Each with a verb's or a plural's `s` off too (`build` of "builds": a Hugo site,
            // session 37, where "Which command builds the site?" searched `site`): on as many
            // lines as the word or more, it counts only where the word is on none.
            // Not the unit the answer is asked in ("…, in milliseconds?"): the search for it
            // found another setting's comment (see `crate::tools::answer_unit`).
            let unit = crate::tools::answer_unit(request);
            for w in plain_words(request).into_iter().filter(|w| {
                !code.contains(w) && !WORKSPACE.contains(&w.as_str()) && unit.as_ref() != Some(w)
            }) {
                let stem = w
                    .strip_suffix('s')
                    .filter(|s| s.chars().count() >= 4 && !s.ends_with('s'))
                    .map(str::to_owned);
                let mut stems = crate::tools::ing_stems(&w);
                stems.extend(crate::tools::ed_stems(&w));
                words.push(w);
                words.extend(stem.filter(|s| !words.contains(s)));
                for s in stems {
                    if !words.contains(&s) {
                        words.push(s);
                    }
                }
            }
        }
        // Asked which (source) file or module, a word that only documents hold finds no
        // answer: of the words some other file holds, when any (a Crystal web service, session
        // 53: "Which source file implements the per-client request throttling?" searched
        // `per-client`, two lines of the README; `throttling` is in `rate_limiter.cr`).
        let (mut words, mut tiers) = (words, [code.len(), phrased]);
        if asks_which_source(request) {
            let in_code = |w: &String| {
                let pattern = w
                    .split(' ')
                    .map(regex::escape)
                    .collect::<Vec<_>>()
                    .join("[ ._-]?");
                written_in_code(sb, pattern).is_some()
            };
            let kept: Vec<bool> = words.iter().map(in_code).collect();
            if kept.iter().any(|&k| k) {
                for t in &mut tiers {
                    *t = kept[..*t].iter().filter(|&&k| k).count();
                }
                let mut k = kept.iter();
                words.retain(|_| *k.next().unwrap_or(&false));
            }
        }
        let word = telling_word(sb, sb.root(), &words, &tiers, Tie::Longer)?;
        // Asked which source file does what the question describes, the one source file that
        // holds two of its words more than any other holds is searched alone (a D log
        // shipper, session 56: "Which source file notices that a log file was rotated or
        // truncated and starts reading it from the beginning again?" searched `reading`,
        // whose lines were `app.d`'s and `config.d`'s first, and Qwen2.5-Coder-0.5B answered
        // `source/app.d`; `tailer.d` holds six of the words, no other file four).
        Some(search_in_described(sb, request, word, None))
    }

    /// A call named after a name in code that the workspace's text files hold (`ringbuf_push`,
    /// `isBroken`: three characters or more, letters, digits and `_`, with a `_` or an inner
    /// capital) means searching for it, case aside — or, held only as written in another style
    /// (`addLine` for `add_line`), for its words joined by an optional `_` or `-`. Found with a C library (session 36): asked
    /// "Which file declares ringbuf_push?", Qwen2.5-Coder-0.5B called `ringbuf_push` with
    /// read's arguments for `.`.
    fn call_named(&self, name: &str) -> Option<Value> {
        if name.chars().count() < 3
            || !name.chars().all(|c| c.is_alphanumeric() || c == '_')
            || !name.chars().any(char::is_alphabetic)
            || !crate::tools::written_as_code(name.trim_matches('_'))
        {
            return None;
        }
        let lower = name.to_lowercase();
        let sb = &self.sandbox;
        // Or written in another style (`addLine` for `add_line`): the search for its words
        // joined by an optional `_` or `-` (a PHP library, session 39: asked "Which method adds
        // a line to an invoice?", the model answered `add_line`; the method is `addLine`). Both
        // counted in one pass over the files.
        let words = crate::tools::name_words(name);
        let pattern = words.join("[_-]?");
        let re = (words.len() >= 2)
            .then(|| regex::Regex::new(&pattern).ok())
            .flatten();
        let found = lines_holding(sb, sb.root(), 2, |line, k| match k {
            0 => line.contains(lower.as_str()),
            _ => re.as_ref().is_some_and(|re| re.is_match(line)),
        });
        if found[0] > 0 {
            Some(json!({"pattern": name, "ignore_case": true}))
        } else {
            (found[1] > 0).then(|| json!({"pattern": pattern, "ignore_case": true}))
        }
    }

    async fn run(&self, _ctx: &ToolContext, args: GrepArgs) -> Result<Output, Failure> {
        let sb = Arc::clone(&self.sandbox);
        blocking("grep", move || grep(&sb, &args)).await
    }
}

fn grep(sb: &Sandbox, args: &GrepArgs) -> Result<Output, Failure> {
    let re = regex::RegexBuilder::new(&args.pattern)
        .case_insensitive(args.ignore_case)
        .size_limit(1 << 20)
        .build()
        .map_err(|e| {
            Failure::invalid_args(
                "grep",
                "/pattern",
                format!(
                    "`{}` is not a valid regular expression: {e}. Escape special characters such as ( [ . * with a backslash, e.g. {{\"pattern\": \"{}\"}}",
                    args.pattern,
                    regex::escape(&args.pattern).replace('\\', "\\\\")
                ),
            )
        })?;
    let filter = match &args.glob {
        Some(g) => Some(super::glob::matcher("grep", "/glob", g)?),
        None => None,
    };
    let (abs, note) = sb.resolve_near("grep", &args.path)?;
    grep_at(sb, args, &re, filter.as_ref(), abs).map(|out| super::noted(out, note))
}

fn grep_at(
    sb: &Sandbox,
    args: &GrepArgs,
    re: &regex::Regex,
    filter: Option<&globset::GlobMatcher>,
    abs: std::path::PathBuf,
) -> Result<Output, Failure> {
    let meta = std::fs::metadata(&abs).map_err(|e| io_failure("grep", sb, &abs, &e))?;
    let files = bases_first(super::glob::walk_files(sb, &abs, meta.is_file()));
    let mut data = Vec::new();
    let mut total = 0usize;
    // Per file with matches: its path, how many, and the first LIST_LINES of them.
    let mut by_file: Vec<(String, usize, Vec<String>)> = Vec::new();
    // Files with a line longer than MAX_LINE_BYTES (searched in its first MAX_LINE_BYTES only).
    let mut long_lines: Vec<String> = Vec::new();
    for file in files {
        let rel = sb.display(&file);
        if let Some(f) = &filter
            && !f.is_match(&rel)
            && !file.file_name().is_some_and(|n| f.is_match(n))
        {
            continue;
        }
        let Ok(f) = std::fs::File::open(&file) else {
            continue;
        };
        let mut reader = std::io::BufReader::with_capacity(64 * 1024, f);
        if std::io::BufRead::fill_buf(&mut reader).map_or(true, looks_binary) {
            continue;
        }
        let mut lines = Lines::new(reader);
        let mut number = 0usize;
        let (mut count, mut shown) = (0usize, Vec::<String>::new());
        let mut blocks = Blocks::default();
        // The header last shown for this file: matches in one block show it once.
        let mut header_shown: Option<usize> = None;
        // The numbers of this file's matches shown (at most `LIST_LINES`): a block line shown
        // as a match is not shown again as a block line.
        let mut matches_shown: Vec<usize> = Vec::new();
        // A comment matched and shown: the entry it is in, its line, and the comment lines
        // left to pass before the line it documents.
        let mut documented: Option<(usize, usize, usize)> = None;
        // The closer a block comment the documented line opened still waits for (`*)` of
        // OCaml's `(* Speed through the water, … nor` then `[boat_speed_kn] … gives one. *)`:
        // an OCaml/dune project, session 50, where the search for `--speed` showed the
        // comment's first line and never `let boat_speed_kn = 5.5`).
        let mut comment_open: Option<&str> = None;
        // The block a documented line opens (`:root {` below `/* Site colours … */`): the
        // entry, the comment's line, the open brackets, and the lines left to show.
        let mut opened: Option<(usize, usize, i64, usize)> = None;
        // A documented line whose block opens on the next line, a `{` alone (PHP's and C#'s
        // classes and methods, Allman-style C): the entry and the comment's line.
        let mut brace_next: Option<(usize, usize)> = None;
        // The block a matched line of data opens (`required_providers {`), likewise.
        let mut data_block: Option<(usize, usize, i64, usize)> = None;
        // A description matched inside a block (`description = "AWS region to deploy into."`
        // in `variable "region" {`): the entry, its line, its indentation, and the lines of
        // the block left to show.
        let mut described: Option<(usize, usize, usize, usize)> = None;
        // An entry of a data file named by a matched line (`name = "attic"` in a TOML
        // `[[sensor]]`, `- name: web` in a YAML list): the entry, its line, the indentation
        // its keys have at least, and the lines left to show.
        // The entry shown, the line naming it, its keys' indentation, the lines left, and
        // whether it is a mapping a key opens (not an entry a name names).
        let mut named: Option<(usize, usize, usize, usize, bool)> = None;
        // Prose and data have no comments (a Markdown list's `* item`); prose has no blocks.
        let of_kind = |kinds: &[&str]| {
            file.extension()
                .is_some_and(|e| kinds.iter().any(|p| e.eq_ignore_ascii_case(p)))
        };
        let build = is_build_calls(&file);
        let prose = !build && of_kind(&["md", "markdown", "txt", "rst", "adoc", "csv", "tsv"]);
        let code = !prose && !of_kind(&["json"]);
        // Julia documents a definition with a string on the line before it.
        let julia = of_kind(&["jl"]);
        let nim = of_kind(&["nim", "nims", "nimble"]);
        let keyed_data = of_kind(&["toml", "yaml", "yml", "ini", "cfg", "conf"]);
        while let Some(line) = lines.next_line() {
            number += 1;
            let line = String::from_utf8_lossy(line);
            // Matched without its line break, as grep matches lines: `x$` ends at the break.
            let line = line.trim_end_matches(['\n', '\r']);
            let header = blocks.enter(number, line);
            let in_block = header.is_some();
            let matched = re.is_match(line);
            // The line a matched comment documents, the first after it that is code: what
            // the comment is about (`/* Removes the oldest item … */` above `int
            // ringbuf_pop(…);`: a C library, session 36, asked "Which function removes the
            // oldest item?"). Not when it is a match itself; not across a blank line.
            // The lines of a short block the documented line opens, up to its close (a Hugo
            // site, session 37: asked "What is the accent colour?", the search for `colour`
            // matched `/* Site colours on top of the theme's. */` and showed `:root {` below
            // it, not `--accent: #2e7d32;` inside).
            if let Some((entry, at)) = brace_next.take()
                && !matched
                && line.trim() == "{"
            {
                opened = Some((entry, at, 0, BLOCK_LINES));
            }
            if !matched {
                follow_block(&mut opened, &mut shown, line, |at| {
                    format!("{rel} (line {number}{IN_COMMENTS_BLOCK}{at})")
                });
                // The lines of a short block a matched line of data opens, up to its close (a
                // Terraform folder, session 38: asked "Which version of the AWS provider is
                // required?", the search for `provider` showed `required_providers {`, not
                // `version = "~> 5.40"` inside, and Qwen2.5-Coder-0.5B answered from the
                // lines shown).
                follow_block(&mut data_block, &mut shown, line, |at| {
                    format!("{rel} (line {number}{IN_DATA_BLOCK}{at} opens)")
                });
            } else {
                // A match inside a block of data is shown as a match, and the block goes on
                // below it (`GIT_REPOSITORY …/fmt.git` between `FetchContent_Declare(fmt` and
                // `GIT_TAG 10.2.1)`: a C++/CMake daemon, session 41).
                // Its next lines go with the entry last shown (`usize::MAX`: see
                // `follow_block`), in the file's order.
                data_block = data_block.take().and_then(|(_, at, depth, left)| {
                    let depth = depth + brackets(line);
                    (depth > 0 && left > 1).then_some((usize::MAX, at, depth, left - 1))
                });
                opened = None;
            }
            // The other lines of the block a matched description is in, as far as lines as
            // indented go: what it describes (a Terraform folder, session 38: asked "Which AWS
            // region is the infrastructure deployed to?", the search for `aws region` showed
            // `description = "AWS region to deploy into."`, not `default = "eu-west-2"` two
            // lines below, and Qwen2.5-Coder-0.5B answered with the description).
            if let Some((entry, at, level, left)) = described.take() {
                let ends = !line.trim().is_empty() && block_indent(line) < level;
                if !ends && !line.trim().is_empty() && !matched {
                    show_with(
                        &mut shown,
                        entry,
                        &format!("{rel} (line {number}{IN_DESCRIBED_BLOCK}{at} is in)"),
                        line,
                    );
                    if left > 1 {
                        described = Some((entry, at, level, left - 1));
                    }
                } else if !ends {
                    described = Some((entry, at, level, left));
                }
            }
            // The other keys of the entry a matched name names, up to a blank line, a header
            // (`[…]`), the next item of the list or a line less indented: what it has (a
            // C++/CMake daemon, session 41: asked "What is the I2C address of the attic
            // sensor?", the search for `attic` showed `name = "attic"`, not `address = 0x45`
            // below it, and Qwen2.5-Coder-0.5B made up `0x40`).
            if let Some((entry, at, level, left, mapping)) = named.take() {
                let t = line.trim_start();
                let ends = t.is_empty()
                    || t.starts_with('[')
                    || block_indent(line) < level
                    || (t.starts_with("- ") && block_indent(line) <= level);
                if !ends && !matched {
                    show_with(
                        &mut shown,
                        entry,
                        &if mapping {
                            format!("{rel} (line {number}{IN_MAPPING}{at})")
                        } else {
                            format!("{rel} (line {number}{IN_NAMED_ENTRY}{at} names)")
                        },
                        line,
                    );
                    if left > 1 {
                        named = Some((entry, at, level, left - 1, mapping));
                    }
                }
            }
            if let Some((entry, at, left)) = documented.take()
                && !matched
                && !line.trim().is_empty()
            {
                if let Some(closer) = comment_open {
                    if line.contains(closer) {
                        comment_open = None;
                    }
                    if left > 0 {
                        documented = Some((entry, at, left - 1));
                    }
                } else if is_comment(line) {
                    comment_open = block_comment_left_open(line);
                    if left > 0 {
                        documented = Some((entry, at, left - 1));
                    }
                } else if let Some(e) = shown.get_mut(entry) {
                    let text: String = line.trim_end().chars().take(MAX_LINE_CHARS).collect();
                    e.push_str(&format!(
                        "\n{rel} (line {number}{BELOW_COMMENT}{at}): {text}"
                    ));
                    let depth = brackets(line);
                    if depth > 0 {
                        opened = Some((entry, at, depth, BLOCK_LINES));
                    } else if depth == 0 && !line.trim_end().ends_with([';', ',']) {
                        // `final class TaxRate` then `{` (a PHP library, session 39: asked
                        // "What is the standard VAT rate?", the search for `vat rate` showed
                        // the class's head below its comment, not `STANDARD = 0.21` inside).
                        brace_next = Some((entry, at));
                    }
                }
            }
            if !matched {
                continue;
            }
            total += 1;
            count += 1;
            if total > MAX_MATCHES && count > LIST_LINES {
                continue;
            }
            let shown_line: String = if line.chars().count() > MAX_LINE_CHARS {
                line.chars()
                    .take(MAX_LINE_CHARS)
                    .chain("…".chars())
                    .collect()
            } else {
                line.to_string()
            };
            if count <= LIST_LINES {
                let mut entry = String::new();
                // A Nim doc comment documents the line it is indented under: shown after the
                // comment, as the line a comment documents is (a Nim daemon, session 52: `##
                // A partial batch is written after this long even if it is not full.` was
                // shown with the constant below it, `DefaultMaxBuffered* = 60_000`, not
                // `DefaultFlushIntervalMs* = 2500` above).
                let nim_doc = (nim && line.trim_start().starts_with("##"))
                    .then_some(header.clone())
                    .flatten();
                // The line that opens the block the match is in, once per block: which table
                // a column belongs to, which function a line is in.
                if let Some((at, text)) = header
                    && nim_doc.is_none()
                    && header_shown != Some(at)
                    && !matches_shown.contains(&at)
                {
                    header_shown = Some(at);
                    entry.push_str(&format!(
                        "{rel} (line {at}, which line {number} is inside): {text}\n"
                    ));
                }
                entry.push_str(&format!("{rel} (line {number}): {}", shown_line.trim_end()));
                if let Some((at, text)) = &nim_doc {
                    let text: String = text.trim_end().chars().take(MAX_LINE_CHARS).collect();
                    entry.push_str(&format!(
                        "\n{rel} (line {at}{ABOVE_COMMENT}{number}): {text}"
                    ));
                }
                shown.push(entry);
                matches_shown.push(number);
                if code
                    && nim_doc.is_none()
                    && (is_comment(line) || (julia && is_string_line(line)))
                {
                    documented = Some((shown.len() - 1, number, 8));
                    comment_open = block_comment_left_open(line);
                }
                if !prose && (opens_data_block(line) || opens_build_call(line, build)) {
                    data_block = Some((shown.len() - 1, number, brackets(line), BLOCK_LINES));
                }
                if in_block && is_description(line) {
                    described = Some((shown.len() - 1, number, block_indent(line), BLOCK_LINES));
                }
                if keyed_data && let Some(level) = names_entry(line) {
                    named = Some((shown.len() - 1, number, level, BLOCK_LINES, false));
                } else if keyed_data && let Some(level) = opens_mapping(line) {
                    named = Some((shown.len() - 1, number, level, BLOCK_LINES, true));
                }
            }
            if total <= MAX_MATCHES {
                data.push(json!({"path": rel, "line": number, "text": shown_line}));
            }
        }
        if lines.cut {
            long_lines.push(rel.clone());
        }
        // The file's own text for the lines shown beside a match below, read once (at most
        // 1 MiB, see `small_text`).
        let own = std::cell::OnceCell::new();
        let own_text = || own.get_or_init(|| small_text(&file)).as_deref();
        // A documented field's value: `---@field work_minutes integer length of a focus
        // session` matched, the line setting `work_minutes` in the same file (a Neovim plugin
        // in Lua, session 42: asked "How long is a focus session by default?", the search
        // showed the annotation, and Qwen2.5-Coder-0.5B answered `10`; the defaults' table
        // says `work_minutes = 25,` fourteen lines below).
        if count > 0 {
            for k in 0..shown.len() {
                let fields: Vec<(usize, String)> = shown[k]
                    .lines()
                    .filter_map(|l| {
                        let (place, text) = l.split_once("): ")?;
                        let at = place.rsplit_once("(line ")?.1;
                        let number: usize = at
                            .split(|c: char| !c.is_ascii_digit())
                            .next()?
                            .parse()
                            .ok()?;
                        documented_field(text).map(|name| (number, name.to_owned()))
                    })
                    .collect();
                for (at, name) in fields {
                    if let Some((n, line)) = own_text().and_then(|t| field_set(t, &name))
                        && !shown[k].contains(&format!("(line {n},"))
                        && !shown[k].contains(&format!("(line {n})"))
                    {
                        let place =
                            format!("{rel} (line {n}{VALUE_OF}{name} documented on line {at})");
                        show_with(&mut shown, k, &place, &line);
                    }
                }
            }
        }
        // A value set from a module's constant (`{ Http = { Port = Defaults.HttpPort } }`,
        // `boat_speed_kn = Defaults.boat_speed_kn;`): the line setting the constant, in this
        // file's module of that name or in a file of that name beside it (an F# inventory API,
        // session 54: asked "With no configuration whatsoever, which port does the API listen
        // on?", the search for the default's name showed only that reference, and
        // Qwen2.5-Coder-0.5B answered `74`, its line number; `let HttpPort = 5311` is in
        // `module Defaults =` above it).
        if count > 0 && code {
            for k in 0..shown.len() {
                let refs: Vec<(String, String)> = shown[k]
                    .lines()
                    .filter_map(|l| l.split_once("): ").map(|(_, t)| t))
                    .flat_map(qualified_refs)
                    .collect();
                for (module, name) in refs {
                    let Some((other, m, line)) = qualified_value(&file, own_text(), &module, &name)
                    else {
                        continue;
                    };
                    let other_rel = match other {
                        Some(other) => match rel.rsplit_once('/') {
                            Some((dir, _)) => format!("{dir}/{other}"),
                            None => other,
                        },
                        None => rel.clone(),
                    };
                    let shown_already = shown.iter().any(|e| {
                        e.contains(&format!("{other_rel} (line {m})"))
                            || e.contains(&format!("{other_rel} (line {m},"))
                    });
                    if !shown_already {
                        let place = format!("{other_rel} (line {m}{VALUE_OF}{module}.{name})");
                        show_with(&mut shown, k, &place, &line);
                    }
                }
            }
        }
        // A key shown in one section of a settings file, with its value in the file's other
        // sections (an R package's `config.yml`, session 50: asked about "the production
        // profile", the search showed `accumulation_reps: 199` under `default:`, and
        // Qwen2.5-Coder-0.5B answered 199; `production:` sets 999).
        if count > 0
            && keyed_data
            && let Some(text) = own_text()
        {
            let file_lines: Vec<&str> = text.lines().collect();
            for k in 0..shown.len() {
                let numbers: Vec<usize> = shown[k]
                    .lines()
                    .filter_map(|l| {
                        let place = l.split_once("): ")?.0.strip_prefix(rel.as_str())?;
                        place
                            .strip_prefix(" (line ")?
                            .split(|c: char| !c.is_ascii_digit())
                            .next()?
                            .parse()
                            .ok()
                    })
                    .collect();
                for n in numbers {
                    for (m, at, section) in same_key_elsewhere(&file_lines, n) {
                        let shown_already = shown.iter().any(|e| {
                            e.contains(&format!("{rel} (line {m})"))
                                || e.contains(&format!("{rel} (line {m},"))
                        });
                        if !shown_already {
                            let place = format!("{rel} (line {m}{IN_SECTION}{at}, `{section}`)");
                            show_with(&mut shown, k, &place, file_lines[m - 1]);
                        }
                    }
                }
            }
        }
        // A Helm template's matched lines with the values they use (see `helm`).
        if count > 0
            && let Some(chart) = super::helm::Chart::of(sb, &file)
        {
            for k in 0..shown.len() {
                for r in chart.resolved(&shown[k]) {
                    let place = format!("{} (line {}{VALUE_OF}{})", r.file, r.line, r.reference);
                    show_with(&mut shown, k, &place, &r.value);
                }
            }
        }
        if count > 0 {
            by_file.push((rel, count, shown));
        }
    }
    let shown = sb.display(&abs);
    let mut text = if total == 0 {
        format!("no matches for `{}` in `{shown}`", args.pattern)
    } else if total <= LIST_LINES {
        by_file
            .iter()
            .flat_map(|(_, _, lines)| lines.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join("\n")
    } else if by_file.len() <= LIST_LINES {
        format!(
            "{}\n[{total} matches in {} files; the first matches of each file shown: narrow the \
             pattern, the path or the glob]",
            spread(&by_file, LIST_LINES).join("\n"),
            by_file.len()
        )
    } else {
        // Too many files for a line each: the files' first matches, with the folders holding
        // many summed up as glob sums them up.
        let paths: Vec<String> = by_file.iter().map(|(rel, _, _)| rel.clone()).collect();
        let first: std::collections::HashMap<&str, &str> = by_file
            .iter()
            .map(|(rel, _, lines)| (rel.as_str(), lines[0].as_str()))
            .collect();
        let summed = super::glob::summed_up(&paths, &shown, LIST_LINES);
        let lines: Vec<&str> = summed
            .iter()
            .map(|l| first.get(l.as_str()).copied().unwrap_or(l))
            .collect();
        format!(
            "{}\n[{total} matches in {} files; the first match of each file shown, folders with \
             many such files summed up as `folder/ (N files)`: grep with that folder as the path \
             to see them, or narrow the pattern or the glob]",
            lines.join("\n"),
            by_file.len()
        )
    };
    if !long_lines.is_empty() {
        text.push_str(&format!(
            "\n[lines longer than {} MiB were searched in their first {} MiB only, in: {}]",
            MAX_LINE_BYTES >> 20,
            MAX_LINE_BYTES >> 20,
            long_lines.join(", ")
        ));
    }
    Ok(Output::list(text.trim_end().to_string(), Value::Array(data)).reading(abs))
}

/// The lines of a file that open the blocks the line being read is in, as its indentation
/// nests them: a line is in the block of each line before it that is less indented with no
/// line between them less indented still (blank lines aside). Kept for [`Grep`]'s matches: the
/// line a match is in the block of tells which table a column belongs to (`CREATE TABLE
/// customers (` over `    email TEXT UNIQUE,`), which function a line is in, which mapping a
/// key is under. Bounded: 16 levels, each line cut to `MAX_LINE_CHARS` characters.
#[derive(Default)]
struct Blocks {
    /// (indentation, line number, text) of the open blocks, outermost first.
    open: Vec<(usize, usize, String)>,
}

/// Words that open a definition besides those `snippet` knows as opening an item (`fn`,
/// `def`, `class`, `struct`, …): the block a match is in that starts with one (after modifiers
/// such as `pub`, `async`, `export`) names the function, type or table it belongs to, and is
/// shown over the blocks nested in it (an `if`, a loop).
const DEFINES: &[&str] = &["func", "module", "create", "macro_rules!"];

/// Words that may come before one of [`DEFINES`] on its line.
const DEFINE_MODIFIERS: &[&str] = &[
    "pub",
    "pub(crate)",
    "async",
    "export",
    "default",
    "public",
    "private",
    "protected",
    "static",
    "abstract",
    "final",
    "unsafe",
    "const",
    "extern",
    "or",
    "replace",
    "temp",
    "temporary",
    "virtual",
    "override",
    "inline",
];

impl Blocks {
    /// Takes in line `number`, `line`, and returns the block line it is in (number, text): the
    /// innermost that opens a definition (see [`opens_definition`]), else the innermost with a
    /// letter or digit. `None` for an unindented line, a blank one, or one in no such block.
    fn enter(&mut self, number: usize, line: &str) -> Option<(usize, String)> {
        let body = line.trim_start();
        if body.is_empty() {
            return None;
        }
        let indent = block_indent(line);
        // A `{` alone on its line opens the block of the line before it, as indented (`final
        // class TaxRate` then `{`): that line stays the block's.
        if body.trim_end() == "{"
            && self
                .open
                .last()
                .is_some_and(|(i, _, text)| *i == indent && !text.ends_with([';', ',', '{']))
        {
            return None;
        }
        while self.open.last().is_some_and(|(i, _, _)| *i >= indent) {
            self.open.pop();
        }
        // A line of punctuation alone (JSON's `{`) names no block: the innermost with a word.
        let named = |text: &str| text.chars().any(char::is_alphanumeric);
        let header = if indent == 0 {
            None
        } else {
            self.open
                .iter()
                .rev()
                .find(|(_, _, text)| opens_definition(text))
                .or_else(|| self.open.iter().rev().find(|(_, _, text)| named(text)))
                .map(|(_, at, text)| (*at, text.clone()))
        };
        // A comment, or a line that only closes, opens no block.
        let closes = body.starts_with(['}', ')', ']']) || body == "end" || body.starts_with("end ");
        let comment = ["//", "#", "--", "/*", "*", "<!--", ";"]
            .iter()
            .any(|c| body.starts_with(c));
        if !closes && !comment && self.open.len() < 16 {
            let text: String = body.trim_end().chars().take(MAX_LINE_CHARS).collect();
            self.open.push((indent, number, text));
        }
        header
    }
}

/// Whether `text`, a line without its indentation, opens a definition (see [`DEFINES`] and
/// `snippet`'s items).
fn opens_definition(text: &str) -> bool {
    text.split_whitespace()
        .map(str::to_ascii_lowercase)
        .find(|w| !DEFINE_MODIFIERS.contains(&w.as_str()))
        .is_some_and(|w| {
            DEFINES.contains(&w.as_str()) || super::snippet::ITEMS.contains(&w.as_str())
        })
}

/// `files` (in name order) with each settings file's variants right after it: `values.yaml`,
/// then `values-prod.yaml` (see [`crate::tools::variant_word`]), the rest in their order. By
/// name a `-` sorts before a `.`, so the variant came first, and the defaults a question asks
/// for were shown after the override's value. Found with a Helm chart (session 43): asked
/// "What is the default memory limit of the container?", Qwen2.5-Coder-0.5B answered
/// `values-prod.yaml`'s `512Mi`, the first memory limit grep showed, not `values.yaml`'s `256Mi`.
fn bases_first(files: Vec<std::path::PathBuf>) -> Vec<std::path::PathBuf> {
    let names: std::collections::HashSet<String> = files
        .iter()
        .map(|f| f.to_string_lossy().into_owned())
        .collect();
    // The base a file is a variant of, when the walk found it: the name with its last `-`,
    // `_` or `.` word before the extension taken out (`.env.production` → `.env`).
    let base_of = |f: &std::path::Path| -> Option<String> {
        let path = f.to_string_lossy();
        let (dir, name) = path.rsplit_once('/').unwrap_or(("", &path));
        let (head, ext) = match name.get(1..).and_then(|n| n.find('.')).map(|i| i + 1) {
            Some(dot) if name[dot + 1..].contains('.') || !name.starts_with('.') => {
                let last = name.rfind('.').unwrap_or(dot);
                (&name[..last], &name[last..])
            }
            _ => (name, ""),
        };
        let cut = head.get(1..)?.rfind(['-', '_', '.'])? + 1;
        let base = format!("{dir}/{}{ext}", &head[..cut]);
        (names.contains(&base) && crate::tools::variant_word(&base, &path).is_some())
            .then_some(base)
    };
    // Paths compare by component, as the walk sorted them.
    let mut keyed: Vec<(std::path::PathBuf, bool, std::path::PathBuf)> = files
        .into_iter()
        .map(|f| match base_of(&f) {
            Some(base) => (base.into(), true, f),
            None => (f.clone(), false, f),
        })
        .collect();
    keyed.sort_by(|a, b| (&a.0, a.1, &a.2).cmp(&(&b.0, b.1, &b.2)));
    keyed.into_iter().map(|(_, _, f)| f).collect()
}

/// The lines that show the matches of `by_file` (path, number of matches, the first match lines)
/// in about `limit` lines (`by_file` has `limit` files at most): each file's first match, then
/// each file's second, and so on while they fit, in file order, a file whose matches are not all
/// shown followed by how many more it has (a line, counted in `limit`).
fn spread(by_file: &[(String, usize, Vec<String>)], limit: usize) -> Vec<String> {
    let mut take = vec![0usize; by_file.len()];
    // Room for the notes of the files with more matches than shown, at worst one each.
    let notes = by_file.iter().filter(|(_, count, _)| *count > 1).count();
    let mut room = limit.saturating_sub(notes).max(by_file.len());
    'rounds: loop {
        let mut more = false;
        for ((_, _, lines), n) in by_file.iter().zip(take.iter_mut()) {
            if *n < lines.len() {
                if room == 0 {
                    break 'rounds;
                }
                *n += 1;
                room -= 1;
                more = true;
            }
        }
        if !more {
            break;
        }
    }
    let mut out = Vec::new();
    for ((_, count, lines), n) in by_file.iter().zip(take) {
        if n == 0 {
            break;
        }
        out.extend(lines[..n].iter().cloned());
        if *count > n {
            out.push(format!("[+{} more in this file]", count - n));
        }
    }
    out
}

/// Words too common to tell anything about where an answer is.
const COMMON: &[&str] = &[
    "according",
    "about",
    "after",
    "also",
    "been",
    "before",
    "could",
    "does",
    "done",
    "each",
    "file",
    "files",
    "find",
    "folder",
    "folders",
    "from",
    "give",
    "have",
    "here",
    "into",
    "list",
    "look",
    "many",
    "much",
    "please",
    "read",
    "should",
    "show",
    "some",
    "tell",
    "that",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "what",
    "when",
    "where",
    "which",
    "while",
    "will",
    "with",
    "would",
    "your",
];

/// Words that name the workspace as a whole (see [`crate::tools::WORKSPACE_WORDS`]).
const WORKSPACE: &[&str] = crate::tools::WORKSPACE_WORDS;

/// The first 200 words of `request`, lower case, when it is a question (it ends with `?`).
fn question_words(request: &str) -> Option<Vec<String>> {
    request.trim_end().ends_with('?').then(|| {
        crate::tools::request_words(request)
            .take(200)
            .map(str::to_lowercase)
            .collect()
    })
}

/// For a question "How many N … at most?" (or "at the most", "maximum"), the search for N's
/// maximum as code names it, `max[._-]?N`, when a text file of the workspace holds it; `None`
/// otherwise.
fn at_most_name(sb: &Sandbox, request: &str) -> Option<String> {
    let words = question_words(request)?;
    let bounded = words.windows(2).any(|w| w == ["at", "most"])
        || words.windows(3).any(|w| w == ["at", "the", "most"])
        || words.iter().any(|w| w == "maximum");
    let how_many = words.windows(2).any(|w| w == ["how", "many"]);
    if !(bounded && how_many) {
        return None;
    }
    let (asked, _) = asked_words(request);
    let noun = asked
        .iter()
        .find(|w| !w.contains(' ') && w.chars().count() >= 3)?;
    let pattern = format!("max[._-]?{}", regex::escape(noun));
    let re = regex::RegexBuilder::new(&pattern)
        .case_insensitive(true)
        .build()
        .ok()?;
    let found = lines_holding(sb, sb.root(), 1, |line, _| re.is_match(line));
    (found[0] > 0).then_some(pattern)
}

/// The first `limit` words of `request`, each lower case without the punctuation around it,
/// and whether a clause ends with it (`?`, `,`, `.`, `;`, `:` or `!` after it).
fn ended_tokens(request: &str, limit: usize) -> Vec<(String, bool)> {
    request
        .split_whitespace()
        .take(limit)
        .map(|w| {
            let ends = w.ends_with(['?', ',', '.', ';', ':', '!']);
            let t = w
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase();
            (t, ends)
        })
        .collect()
}

/// What a request says nothing sets — "nothing configures a page size", "nothing sets the
/// port" — one or two words after the verb and its article, lower case, up to the clause's
/// end; `None` otherwise.
fn nothing_sets(request: &str) -> Option<String> {
    let tokens = ended_tokens(request, 200);
    let at = tokens.windows(2).position(|w| {
        w[0].0 == "nothing"
            && !w[0].1
            && ["sets", "configures", "specifies", "overrides", "changes"]
                .contains(&w[1].0.as_str())
    })?;
    let mut i = at + 2;
    if tokens
        .get(i)
        .is_some_and(|(t, _)| ["a", "an", "the", "its", "any"].contains(&t.as_str()))
    {
        i += 1;
    }
    let mut words: Vec<&str> = Vec::new();
    for (t, ends) in tokens.iter().skip(i).take(2) {
        if t.is_empty() || !t.chars().all(|c| c.is_ascii_alphanumeric()) {
            break;
        }
        words.push(t);
        if *ends {
            break;
        }
    }
    // A word, not a pronoun ("nothing overrides it").
    let named = |w: &&str| {
        w.chars().count() >= 3
            && !is_common(w)
            && !["one", "this", "that", "these", "those", "them"].contains(w)
    };
    (!words.is_empty() && words.iter().all(named)).then(|| words.join(" "))
}

/// For a question about a default ("… by default?", "… when nothing overrides it?") whose
/// asked word is N, the search for a name in code joining `default` and N
/// (`default[\w.-]*N`: `default_http_port`, `DefaultPort`), when a file other than a document
/// holds one; `None` otherwise. Found with a Zig service (session 50): asked "On which port
/// does zestd serve /metrics when nothing overrides it?", the look searched `port`, which
/// `import`, `Supported` and `portions` hold, and `pub const default_http_port: u16 = 9477;`
/// was never shown.
fn default_name(sb: &Sandbox, request: &str) -> Option<String> {
    let words = question_words(request)?;
    if !crate::tools::asks_default(request) {
        return None;
    }
    // What is asked for first, one word (a phrase, "page size", is searched as code joins it:
    // `default[ ._-]?page[ ._-]?size`).
    let (asked, _) = asked_words(request);
    // What "how many" counts, when it names a unit as well as a thing (`lines`), which the
    // asked words leave out.
    let counted = || -> Option<String> {
        let at = words
            .windows(2)
            .position(|w| w[0] == "how" && ["many", "much"].contains(&w[1].as_str()))?;
        let run: Vec<&str> = words[at + 2..]
            .iter()
            .take_while(|w| {
                ![
                    "does", "do", "is", "are", "can", "will", "would", "should", "did", "the",
                ]
                .contains(&w.as_str())
            })
            .take(3)
            .map(String::as_str)
            .collect();
        (!run.is_empty()).then(|| run.join(" "))
    };
    // (A phrase of the asked words is searched as code joins it, by the steps after this.)
    let (first, of_count) = match asked.first() {
        Some(first) => (first.clone(), false),
        None => (counted()?, true),
    };
    let first = &first;
    let fits = |w: &str| {
        w.chars().count() >= 3 && !["default", "defaults", "version", "versions"].contains(&w)
    };
    if !of_count && first.contains(' ') {
        return None;
    }
    if !first.contains(' ') {
        // A unit counted ("how many seconds does spire keep a link lookup in the Redis
        // cache?") names no setting: the question's last noun code joins to `default` does
        // (`DEFAULT_CACHE_TTL = 5400 # seconds`: a Crystal web service, session 53, where the
        // look searched `redis cache`).
        let found = written_in_code(sb, format!(r"default[\w.-]*{}", regex::escape(first)));
        // Only where no search for the unit does better: a key in it (`sync_timeout_seconds`,
        // see `unit_name`) or a name that is the unit set to a number (`var days: Int = 5`).
        // Or what the request says nothing sets ("If nothing configures a page size, how many
        // sightings does the sightings list return per page?" is `static let defaultPageSize =
        // 37`: a Swift/Vapor API, session 56, where the look searched "page size", the docs'
        // words).
        let found = found.or_else(|| {
            let named = nothing_sets(request)?;
            let joined = named
                .split(' ')
                .map(regex::escape)
                .collect::<Vec<_>>()
                .join("[ ._-]?");
            written_in_code(sb, format!(r"default[\w.-]*{joined}"))
        });
        if found.is_some()
            || !UNITS.contains(&first.as_str())
            || unit_name(sb, request).is_some()
            || written_in_code(
                sb,
                format!(r"\b{}\s*(?::\s*\w+\s*)?=\s*\d", regex::escape(first)),
            )
            .is_some()
        {
            return found.filter(|_| fits(first));
        }
        return plain_words(request)
            .into_iter()
            .rev()
            .filter(|w| {
                w != first
                    && w.chars().count() >= 4
                    && w.chars().all(char::is_alphabetic)
                    && !is_common(w)
                    && !UNITS.contains(&w.as_str())
            })
            .find_map(|w| written_in_code(sb, format!(r"default[\w.-]*{}", regex::escape(&w))));
    }
    // A phrase joined as code joins it, else its last word, the noun (`DEFAULT_BATCH_MAX_LINES`
    // for "how many log lines … by default": a Rust workspace, session 53, where the look
    // searched `shipping`).
    let last = first.rsplit(' ').next().filter(|w| fits(w))?;
    let joined = first
        .split(' ')
        .map(regex::escape)
        .collect::<Vec<_>>()
        .join("[ ._-]?");
    written_in_code(sb, format!(r"default[\w.-]*{joined}"))
        .or_else(|| written_in_code(sb, format!(r"default[\w.-]*{}", regex::escape(last))))
}

/// Whether `request` is a question asking which file or module, a word of its kind between
/// them or none: "Which source file implements …?", "Which module holds …?", "In what file
/// is …?".
pub(crate) fn asks_which_source(request: &str) -> bool {
    let Some(words) = question_words(request) else {
        return false;
    };
    words.iter().enumerate().any(|(i, w)| {
        ["which", "what"].contains(&w.as_str())
            && words[i + 1..]
                .iter()
                .take(2)
                .any(|n| ["file", "files", "module", "modules", "source"].contains(&n.as_str()))
            && words[i + 1..]
                .iter()
                .take(2)
                .any(|n| ["file", "files", "module", "modules"].contains(&n.as_str()))
    })
}

/// The search for `word` (in `folder`, when given) — or, asked which source file does what
/// the question describes, in the one source file that holds two of its words more than any
/// other holds ([`most_described`]), when that file holds `word` (in `folder`). Found with a D
/// log shipper (session 56): "Which source file notices that a log file was rotated or
/// truncated and starts reading it from the beginning again?" searched `reading` in
/// `source/`, whose lines were `app.d`'s and `config.d`'s first, and Qwen2.5-Coder-0.5B
/// answered `source/app.d`; `tailer.d` holds six of the words, no other file four.
fn search_in_described(sb: &Sandbox, request: &str, word: String, folder: Option<&str>) -> Value {
    let in_file = |file: &String| {
        let re = regex::RegexBuilder::new(&word)
            .case_insensitive(true)
            .build();
        let text = sb
            .resolve("grep", file)
            .ok()
            .and_then(|abs| std::fs::read_to_string(abs).ok());
        folder.is_none_or(|f| file.starts_with(&format!("{}/", f.trim_end_matches('/'))))
            && re.is_ok_and(|re| text.is_some_and(|t| t.lines().any(|l| re.is_match(l))))
    };
    // Not for a name in code the question writes (`toKelvin`): its search finds where it is.
    let file = (asks_which_source(request) && code_words(request).is_empty())
        .then(|| most_described(sb, request).filter(in_file))
        .flatten();
    match file.as_deref().or(folder) {
        Some(path) => json!({"pattern": word, "path": path, "ignore_case": true}),
        None => json!({"pattern": word, "ignore_case": true}),
    }
}

/// Whether `request` asks how many times something is tried ("how many times does marten try
/// to deliver …", "… retry …", "… attempt …"): a count code names `attempts`, `retries` or
/// `tries`.
pub(crate) fn counts_tries(request: &str) -> bool {
    let words: Vec<String> = crate::tools::request_words(request)
        .take(200)
        .map(str::to_lowercase)
        .collect();
    words.windows(3).any(|w| w == ["how", "many", "times"])
        && words.iter().any(|w| {
            [
                "try", "tries", "tried", "retry", "retries", "retried", "attempt", "attempts",
            ]
            .contains(&w.as_str())
        })
}

/// The source file (not a document, a test, a settings file or a license) that holds the
/// most of the words of `request` (four letters or more, no common word, not the project's
/// own name; each also by its stem without `-s`, `-ed`, `-ing`), case aside — when it holds
/// two more than any other file does; `None` otherwise.
fn most_described(sb: &Sandbox, request: &str) -> Option<String> {
    let own = own_name(sb, sb.root());
    let words: Vec<Vec<String>> = plain_words(request)
        .into_iter()
        .filter(|w| !WORKSPACE.contains(&w.as_str()) && own.as_deref() != Some(w.as_str()))
        .map(|w| {
            let mut forms = vec![w.clone()];
            forms.extend(
                w.strip_suffix('s')
                    .filter(|s| s.chars().count() >= 4)
                    .map(str::to_owned),
            );
            forms.extend(crate::tools::ed_stems(&w));
            forms.extend(crate::tools::ing_stems(&w));
            forms
        })
        .collect();
    if words.len() < 3 {
        return None;
    }
    let mut held: Vec<(usize, String)> = super::small_files(sb, sb.root())
        .filter(|(path, _)| {
            let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
            !is_doc(path)
                && !super::edit::is_test_file(path)
                && !crate::tools::is_settings_file(path)
                && !name.starts_with("license")
                && !name.starts_with("copying")
        })
        .map(|(path, text)| {
            let text = text.to_lowercase();
            let n = words
                .iter()
                .filter(|forms| forms.iter().any(|f| text.contains(f.as_str())))
                .count();
            (n, path)
        })
        .collect();
    held.sort_by_key(|h| std::cmp::Reverse(h.0));
    let (best, path) = held.first()?;
    let second = held.get(1).map_or(0, |h| h.0);
    (*best >= second + 2).then(|| path.clone())
}

/// `pattern` when a line of a file other than a document matches it (case aside); `None`
/// otherwise.
fn written_in_code(sb: &Sandbox, pattern: String) -> Option<String> {
    let re = regex::RegexBuilder::new(&pattern)
        .case_insensitive(true)
        .build()
        .ok()?;
    let found = super::small_files(sb, sb.root())
        .filter(|(path, _)| !is_doc(path))
        .any(|(_, text)| text.lines().any(|l| re.is_match(l)));
    found.then_some(pattern)
}

/// The words of `request` (lower case) that one of "no", "without", "unset", "nor" comes right
/// before, or one word before (`marten_` of "no MARTEN_* variables"): what the request says is
/// not set.
fn said_unset(request: &str) -> Vec<String> {
    let words: Vec<String> = crate::tools::request_words(request)
        .map(str::to_lowercase)
        .collect();
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if ["no", "without", "unset", "nor"].contains(&w.as_str()) {
            out.extend(words.iter().skip(i + 1).take(2).cloned());
        }
    }
    out
}

/// For a request naming an environment variable by words ("If I don't set the data directory
/// environment variable, where …?"), the search for the variable's name as code writes it:
/// the one or two words before "environment variable" (or "env var"), joined as code joins
/// words, each also by its short form (`data[ ._-]?(?:directory|dir)` finds `SEDGE_DATA_DIR`
/// and `data_dir()`), where a file other than a document writes it; `None` otherwise. Found
/// with a Julia package (session 51): that question searched "data directory", a README line
/// and an error message's, and `data_dir() = get(ENV, "SEDGE_DATA_DIR", "/var/lib/sedge")`
/// was never shown.
fn env_name(sb: &Sandbox, request: &str) -> Option<String> {
    const NOT_NAMING: &[&str] = &[
        "the", "a", "an", "my", "your", "our", "its", "this", "that", "set", "unset", "i", "if",
        "no", "any", "which", "what",
    ];
    let words: Vec<String> = crate::tools::request_words(request)
        .map(str::to_lowercase)
        .collect();
    let at = words.windows(2).position(|p| {
        ["environment", "env"].contains(&p[0].as_str())
            && ["variable", "variables", "var", "vars"].contains(&p[1].as_str())
    })?;
    let mut named: Vec<&str> = words[..at]
        .iter()
        .rev()
        .take_while(|w| {
            w.chars().count() >= 2
                && w.chars().all(char::is_alphanumeric)
                && !NOT_NAMING.contains(&w.as_str())
        })
        .take(2)
        .map(String::as_str)
        .collect();
    named.reverse();
    if named.is_empty() {
        return None;
    }
    let pattern = named
        .iter()
        .map(|w| match crate::tools::short_form(w) {
            Some(short) if short != *w => {
                format!("(?:{}|{})", regex::escape(w), regex::escape(short))
            }
            _ => regex::escape(w),
        })
        .collect::<Vec<_>>()
        .join("[ ._-]?");
    written_in_code(sb, pattern)
}

/// For a question about a default whose words name no default (no word of one's name) but
/// describe one, the search for the definition of the built-in default (a name holding
/// `default`, set to a literal, in a file other than a document, a test or a settings file)
/// that the question's words describe best: each word (the words any question about a default
/// holds aside) weighs one over the number of defaults whose doc comment (the comment lines
/// right above it, or Nim's `##` lines indented below it, or a comment after it on its line)
/// or name holds it, and one default must weigh the most, with a word no more than two
/// defaults hold. The pattern finds the name where it is set ([`SET_HERE`]), not where it is
/// read; `None` otherwise. Found with a D service (session 56): asked "If I start harrow
/// without any config file, how long does a partly filled batch wait before it is sent
/// anyway?", the look searched `sent`; `enum uint defaultFlushIntervalMs = 2300;` is below
/// `/// ... or when its oldest line has waited this long, whichever comes first.`.
fn documented_default(sb: &Sandbox, request: &str) -> Option<String> {
    const ASKING: &[&str] = &[
        "default",
        "defaults",
        "config",
        "configs",
        "configuration",
        "configured",
        "file",
        "files",
        "setting",
        "settings",
        "environment",
        "variable",
        "variables",
        "nothing",
        "without",
        "neither",
        "start",
        "starts",
        "started",
        "long",
        "often",
        "value",
        "values",
        "anyway",
        "used",
        "uses",
        "there",
    ];
    if !crate::tools::asks_default(request) {
        return None;
    }
    let own = own_name(sb, sb.root());
    let asked: Vec<String> = plain_words(request)
        .into_iter()
        .filter(|w| !ASKING.contains(&w.as_str()) && own.as_deref() != Some(w.as_str()))
        .collect();
    if asked.is_empty() {
        return None;
    }
    // Each default: its name, and the words describing it (its comment's and its name's).
    let mut defaults: Vec<(String, Vec<String>)> = Vec::new();
    // The words of the defaults' names: a question holding one names a setting (`batch` of
    // `DefaultBatchSize`), which the searches for its words find.
    let mut named: Vec<String> = Vec::new();
    for (path, text) in super::small_files(sb, sb.root()) {
        if is_doc(&path)
            || super::edit::is_test_file(&path)
            || (crate::tools::is_settings_file(&path) && !crate::tools::is_defaults_file(&path))
        {
            continue;
        }
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if is_comment(line) {
                continue;
            }
            let Some((key, _)) = crate::agent::correct::keyed_of(super::declared(line).0) else {
                continue;
            };
            let parts = crate::tools::name_words(key);
            if !parts.iter().any(|p| p.eq_ignore_ascii_case("default")) {
                continue;
            }
            let mut described: Vec<String> = parts
                .iter()
                .map(|p| p.to_lowercase())
                .filter(|p| p != "default")
                .collect();
            named.extend(described.iter().cloned());
            // Its doc comment: the comment lines right above it, or those right below it
            // indented more (Nim's `##`, which documents the line above).
            let indent = |l: &str| l.len() - l.trim_start().len();
            let below: Vec<&str> = lines[i + 1..]
                .iter()
                .take_while(|l| is_comment(l) && indent(l) > indent(line))
                .take(4)
                .copied()
                .collect();
            let above: Vec<&str> = if below.is_empty() {
                lines[..i]
                    .iter()
                    .rev()
                    .take_while(|l| is_comment(l))
                    .take(4)
                    .copied()
                    .collect()
            } else {
                Vec::new()
            };
            let comments = above.into_iter().chain(below);
            let trailing = line
                .find(" //")
                .or_else(|| line.find(" # "))
                .map(|at| &line[at..]);
            for c in comments.chain(trailing) {
                described.extend(
                    c.split(|ch: char| !ch.is_alphanumeric())
                        .filter(|w| w.chars().count() >= 3)
                        .map(str::to_lowercase),
                );
            }
            if !defaults.iter().any(|(k, _)| k == key) {
                defaults.push((key.to_owned(), described));
            }
        }
        if defaults.len() > 200 {
            break;
        }
    }
    let holds = |described: &[String], w: &str| {
        described.iter().any(|d| {
            crate::tools::same_word(d, w)
                || crate::tools::ed_stems(d).iter().any(|s| s == w)
                || crate::tools::ing_stems(d).iter().any(|s| s == w)
                || crate::tools::ed_stems(w).iter().any(|s| s == d)
        })
    };
    if asked.iter().any(|w| holds(&named, w)) {
        return None;
    }
    let counts: Vec<usize> = asked
        .iter()
        .map(|w| defaults.iter().filter(|(_, d)| holds(d, w)).count())
        .collect();
    let mut scored: Vec<(f64, bool, &String)> = defaults
        .iter()
        .map(|(key, d)| {
            let mut score = 0.0;
            let mut telling = false;
            for (w, &n) in asked.iter().zip(&counts) {
                if holds(d, w) {
                    score += 1.0 / n as f64;
                    telling |= n <= 2;
                }
            }
            (score, telling, key)
        })
        .filter(|(score, _, _)| *score > 0.0)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (best, telling, key) = scored.first()?;
    let alone = scored.get(1).is_none_or(|second| second.0 < *best);
    (*telling && alone).then(|| format!("{}{SET_HERE}", regex::escape(key)))
}

/// What the search for a name set to a number ([`assigned_name`]) writes after the name: its
/// end, a quote, a type (`port: int = 8417`), then `=` or `:` and the number.
pub(crate) const ASSIGNED: &str = r#"\b["']?\s*(:\s*\w+\s*)?[:=]\s*["']?\d"#;

/// For a question about the value of N with no configuration ("If I start marten with no env
/// file and no MARTEN_* variables set, which port does it listen on?"), N its one asked word
/// (see [`asked_words`]), the search for N set to a number as a name of its own (`\bport` then
/// [`ASSIGNED`]: `port: int = 8417`, not `MARTEN_PORT=9312` nor `import`), when a file other
/// than a document holds one; `None` otherwise. Found with a Python webhook relay (session
/// 55): that question searched `port`, whose lines were `import`s, the env files'
/// `MARTEN_PORT` and the CI's, and the settings class's `port: int = 8417` was never shown.
fn assigned_name(sb: &Sandbox, request: &str) -> Option<String> {
    if !crate::tools::says_unconfigured(request) || question_words(request).is_none() {
        return None;
    }
    let (asked, _) = asked_words(request);
    let first = asked.first()?;
    if first.contains(' ')
        || first.chars().count() < 3
        || !first.chars().all(|c| c.is_ascii_alphanumeric())
    {
        return None;
    }
    written_in_code(sb, format!(r"\b{first}{ASSIGNED}"))
}

/// What the search for a documented default's name ends with ([`documented_default`]): the
/// name where it is set, not where it is read.
pub(crate) const SET_HERE: &str = r"\s*[:=][^=]";

/// For a question "How many U …?" where U is a unit (milliseconds, seconds, minutes, hours,
/// days, …), the search for a name in code joining a word of the question and U as code
/// abbreviates it (`forecast\w*(?:[_-](?:milliseconds|ms)|Milliseconds|Ms)\b`:
/// `forecast_timeout_ms`, `requestTimeoutMs`): the first of the question's plain words (the
/// project's own name aside) for which a file other than a document writes one; `None`
/// otherwise. Found with an OCaml/dune project and a Zig service (session 50): asked "By
/// default, how many milliseconds does tern wait for the wind forecast before it gives up?",
/// the look searched "wind forecast", and `let forecast_timeout_ms = 6000` was never shown;
/// asked how many milliseconds the metrics server gives a client to send its request, the
/// look searched `milliseconds`, a doc comment's word.
fn unit_name(sb: &Sandbox, request: &str) -> Option<String> {
    let patterns = unit_patterns(sb, request, false);
    if patterns.is_empty() {
        return None;
    }
    let texts: Vec<String> = super::small_files(sb, sb.root())
        .filter(|(path, _)| !is_doc(path))
        .map(|(_, text)| text)
        .collect();
    // A file the question names that writes such a name is the look itself (`"series_ttl_s":
    // 900` in `config/production.json` for "In production, how many seconds …").
    let named = sb
        .first_named(request, false)
        .and_then(|f| sb.resolve("grep", &f).ok())
        .filter(|abs| std::fs::metadata(abs).is_ok_and(|m| m.len() <= 256 * 1024))
        .and_then(|abs| std::fs::read_to_string(abs).ok());
    patterns
        .into_iter()
        .find(|(_, re)| texts.iter().any(|t| t.lines().any(|l| re.is_match(l))))
        .filter(|(_, re)| {
            !named
                .as_ref()
                .is_some_and(|t| t.lines().any(|l| re.is_match(l)))
        })
        .map(|(pattern, _)| pattern)
}

/// For a question "How many U …?" where U is a unit (or, `answered_in`, one asking its answer
/// in U: "…, in MB?"), each of its plain words (the unit's and the project's own name aside)
/// W, in order, with the search for a name of W in U as code writes it (see [`unit_name`])
/// and the regular expression matching one (W case aside, the camel-case unit as written).
/// Empty for any other request.
fn unit_patterns(sb: &Sandbox, request: &str, answered_in: bool) -> Vec<(String, regex::Regex)> {
    let Some(words) = question_words(request) else {
        return Vec::new();
    };
    // Or, `answered_in`, the unit the answer is asked in ("how big can a survey photo be, in
    // MB?": a Rails API, session 56, where the look searched "survey photo" and
    // `config.x.rookery.max_photo_mb = 27` in the production file was never shown).
    let Some(unit) = words
        .windows(3)
        .find(|w| w[0] == "how" && w[1] == "many")
        .map(|w| w[2].clone())
        .or_else(|| {
            answered_in
                .then(|| crate::tools::answer_unit(request))
                .flatten()
        })
    else {
        return Vec::new();
    };
    let unit = &unit;
    let Some((names, shorts)) = crate::tools::unit_named(unit).map(|u| crate::tools::UNITS[u])
    else {
        return Vec::new();
    };
    // The unit as code abbreviates it: its short forms and the word the question uses, after
    // a `_` or `-` (`series_ttl_s`), or capitalised at the end of a camel-case name (two
    // letters or more: `timeoutMs`).
    let mut forms: Vec<String> = shorts
        .iter()
        .map(|f| (*f).to_owned())
        .chain(std::iter::once(unit.clone()))
        .collect();
    forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
    forms.dedup();
    let capital = |f: &str| {
        let mut c = f.chars();
        c.next()
            .map(|first| first.to_uppercase().chain(c).collect::<String>())
            .unwrap_or_default()
    };
    let lower = forms.join("|");
    let camel = forms
        .iter()
        .filter(|f| f.len() >= 2)
        .map(|f| capital(f))
        .collect::<Vec<_>>()
        .join("|");
    let own = own_name(sb, sb.root());
    plain_words(request)
        .into_iter()
        .filter(|w| w != unit && !names.contains(&w.as_str()) && own.as_deref() != Some(w))
        .filter(|w| w.chars().all(|c| c.is_ascii_alphabetic()))
        .filter_map(|w| {
            let pattern = format!(r"{w}\w*(?:[_-](?:{lower})|{camel})\b");
            let re = regex::RegexBuilder::new(&format!(
                r"(?i:{w})\w*(?:(?i:[_-](?:{lower}))|{camel})\b"
            ))
            .build()
            .ok()?;
            Some((pattern, re))
        })
        .collect()
}

/// For a question (it ends with `?`) that names `file` by its stem only, not by its path: the
/// phrase of the request ([`asked_phrases`], [`negations`]) found on the fewest lines of the workspace's text files
/// when `file` does not hold it, else a plain word of the question ([`plain_words`]) that `file`
/// lacks, found elsewhere on a line with another of its plain words (the one on the fewest such
/// lines; the word naming the file by its stem is none) — the request's words are about
/// something else than that file. Asked "Which flag prints the word count?", `count` names
/// `internal/count/count.go`; the flag's help, `print the word count`, is in main.go (a Go
/// module, session 30). Asked "What is the default country of a customer?", the look was the
/// read of `data/customers.csv`, a country column and no default; `country TEXT DEFAULT 'NL'`
/// is in `sql/schema.sql` (session 32). `None` for a file named by its path: reading it is the
/// look.
fn phrase_elsewhere(sb: &Sandbox, request: &str, file: &str) -> Option<String> {
    if !request.trim_end().ends_with('?') {
        return None;
    }
    // A dotfile named by its stem is the tool's own settings (`.scalafmt.conf`, `.rubocop.yml`):
    // a question about the tool is about them, read whole. Found with a Scala/sbt service
    // (session 44): asked "What maximum line length is scalafmt configured with?", the look
    // searched `configured`, the one word `.scalafmt.conf` lacked found beside another
    // (`test("slugs use the configured length …")`), and `maxColumn = 110` was never shown.
    if file
        .rsplit('/')
        .next()
        .is_some_and(|name| name.starts_with('.'))
    {
        return None;
    }
    // A manifest stating the oldest version of the language the question asks about is read
    // whole (`build.zig.zon`'s `.minimum_zig_version` for "What's the oldest Zig release I can
    // still build zest with?": a Zig service, session 49, where `still` was searched).
    if crate::tools::requirement_files(request)
        .iter()
        .any(|(f, _)| *f == file)
    {
        return None;
    }
    let abs = sb.resolve("grep", file).ok()?;
    // A file writing the name of a question's word in the unit it asks in is read whole
    // (`let forecast_timeout_ms = 6000` in `lib/defaults.ml` for "By default, how many
    // milliseconds does tern wait for the wind forecast before it gives up?": an OCaml/dune
    // project, session 50, where the search for "wind forecast" never showed it).
    // Its text, read once, within the bound of every other look (see `small_texts`): `None`
    // for a larger file (or none), empty for one that is not text.
    let whole: Option<String> = std::fs::metadata(&abs)
        .ok()
        .filter(|m| m.len() <= 256 * 1024)
        .map(|_| std::fs::read_to_string(&abs).unwrap_or_default());
    let patterns = unit_patterns(sb, request, true);
    if !patterns.is_empty()
        && whole.as_deref().is_some_and(|t| {
            t.lines()
                .any(|l| patterns.iter().any(|(_, re)| re.is_match(l)))
        })
    {
        return None;
    }
    // Asked "how many times" something is tried, a file writing a count of attempts (retries,
    // tries) is read whole (`MARTEN_MAX_ATTEMPTS=23` in `config/production.env` for "In
    // production, how many times does marten try to deliver a webhook before it gives up and
    // dead-letters it?": a Python webhook relay, session 55, where `times` was searched).
    if counts_tries(request)
        && whole.as_deref().is_some_and(|t| {
            t.lines().any(|l| {
                crate::agent::correct::code_names(l).iter().any(|n| {
                    crate::tools::name_words(n).iter().any(|p| {
                        ["attempts", "retries", "tries"].contains(&p.to_lowercase().as_str())
                    })
                })
            })
        })
    {
        return None;
    }
    let stem = crate::tools::file_stem(file);
    let mut words = crate::tools::request_words(request).take(200);
    if !words.any(|w| crate::tools::word_names_stem(w, stem))
        || crate::tools::request_words(request)
            .take(200)
            .any(|w| sb.resolve("grep", w).ok().as_ref() == Some(&abs))
    {
        return None;
    }
    // A larger file named by its stem keeps the read as the look, as before phrases.
    let original = whole?;
    let mut text = original.to_lowercase();
    // A Dockerfile's `FROM` lines write, in its syntax, a stage's base image, the last the
    // final one: the file holds those words (an OCaml/dune project, session 49: asked "Which
    // base image does the final stage of the Docker build run on?", the look searched `image`,
    // two lines of the README, and the Dockerfile's `FROM debian:bookworm-20240612-slim` was
    // never shown).
    let name = file.rsplit('/').next().unwrap_or(file).to_ascii_lowercase();
    if (name.contains("dockerfile") || name.contains("containerfile"))
        && text.lines().any(|l| l.trim_start().starts_with("from "))
    {
        text.push_str("\nbase image stage final\n");
    }
    // And its `EXPOSE` lines the ports the image exposes (a Go job worker, session 53: asked
    // "Which port does the Docker image expose?", the look searched `port` across the
    // workspace, its lines of code and docs, and Qwen2.5-Coder-0.5B answered the code's
    // default, 7460; the Dockerfile says `EXPOSE 9183`).
    if (name.contains("dockerfile") || name.contains("containerfile"))
        && text.lines().any(|l| l.trim_start().starts_with("expose "))
    {
        text.push_str("\nport ports exposed\n");
    }
    // The file sets what the question asks for under its own key (`image:` in Molecule's
    // `molecule.yml` for "Which container image do the Molecule tests run in?"): its read
    // answers it, whatever other word of the question it lacks (an Ansible role, session 44:
    // the look searched `container`, and Qwen2.5-Coder-0.5B answered `Harbor` from the
    // README). Not a version: `version` keys are everywhere (see `version_subject`).
    let (asked, _) = asked_words(request);
    // Or as the last part of its key (`column-limit: 100` in `fourmolu.yaml` for "What line
    // length limit does fourmolu enforce?": a Haskell project, session 47, where the look
    // searched `length`, on the lines of code measuring lengths).
    let keyed = |w: &str| {
        text.lines().any(|line| {
            // A JSON key's quotes aside.
            let line = line
                .trim_start()
                .trim_start_matches("- ")
                .trim_start_matches(['"', '\'']);
            let as_key = |key: &str| {
                line.strip_prefix(key)
                    .map(|rest| rest.trim_start_matches(['"', '\'']).trim_start())
                    .is_some_and(|rest| rest.starts_with([':', '=']))
            };
            // Its plural too (Compose's `ports:` for "which port …": a Zig service, session 49).
            as_key(w)
                || as_key(&format!("{w}s"))
                || line
                    .split([':', '='])
                    .next()
                    .map(|k| k.trim().trim_matches(['"', '\'']))
                    .filter(|k| k.len() > w.len() && as_key(k))
                    .is_some_and(|k| {
                        k.strip_suffix(w)
                            .is_some_and(|head| head.ends_with(['-', '_', '.']))
                    })
        })
    };
    // In a settings file, any plain word of the question keying a line will do (the asked words
    // of "What line length limit does fourmolu enforce?" are none: see `asked_words`).
    let name = file.rsplit('/').next().unwrap_or(file);
    // In a settings file, a word of a key's name will do too, as its first part
    // (`"series_ttl_s": 900` in `config/production.json` for "In production, how many seconds
    // can a series go without updates before it gets dropped?": a Zig service, session 49,
    // where the look searched `seconds`).
    let settings = name.rsplit_once('.').is_some_and(|(_, ext)| {
        ["yaml", "yml", "toml", "ini", "cfg", "conf", "json"]
            .contains(&ext.to_ascii_lowercase().as_str())
    });
    let plain = if settings {
        plain_words(request)
    } else {
        Vec::new()
    };
    let key_part = |w: &str| {
        text.lines().any(|line| {
            let line = line
                .trim_start()
                .trim_start_matches("- ")
                .trim_start_matches(['"', '\'']);
            let Some((key, _)) = line.split_once([':', '=']) else {
                return false;
            };
            let key = key.trim().trim_end_matches(['"', '\'']);
            !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_alphanumeric() || "_-.".contains(c))
                && crate::tools::name_words(key)
                    .iter()
                    .any(|p| crate::tools::same_word(p, w))
        })
    };
    let plain_keyed = |w: &String| {
        !w.contains(' ') && !["version", "versions"].contains(&w.as_str()) && key_part(w)
    };
    if asked
        .iter()
        .chain(&plain)
        .any(|w| !w.contains(' ') && !["version", "versions"].contains(&w.as_str()) && keyed(w))
        || plain.iter().any(plain_keyed)
    {
        return None;
    }
    // A version question whose subject the file writes beside a version (`FROM
    // nginx:1.25.4-alpine` for "Which nginx image version does the Docker image serve the app
    // with?": a Vue/Vite application, session 47): its read answers it.
    if crate::tools::asks_version(request) {
        let mut subjects: Vec<String> = plain_words(request)
            .into_iter()
            .filter(|w| !["version", "versions"].contains(&w.as_str()))
            .collect();
        // And a one-letter name written as one, next to "version" ("Which R version …", "the
        // version of R"), which plain words leave out.
        let words: Vec<&str> = crate::tools::request_words(request).take(200).collect();
        for i in crate::tools::version_letters(request) {
            let letter = words[i].to_lowercase();
            if !subjects.contains(&letter) {
                subjects.push(letter);
            }
        }
        // Beside: on the line, or on one of the two after it, as a lockfile writes an entry
        // (renv.lock's `"Package": "dplyr",` then `"Version": "1.1.4",`: an R package, session
        // 49, where "Which exact dplyr version is locked in the renv lockfile?" searched
        // `locked`, a comment of the Dockerfile).
        // The subject as a word, or as the name of its version key (`ARG R_VERSION=4.3.2` for
        // "Which R version does the Docker image run?": an R package, session 49).
        let lines: Vec<&str> = text.lines().collect();
        if lines.iter().enumerate().any(|(i, l)| {
            subjects.iter().any(|w| {
                !super::asked::token_at(l, w).is_empty()
                    || !super::asked::token_at(l, &format!("{w}_version")).is_empty()
            }) && lines[i..(i + 3).min(lines.len())]
                .iter()
                .any(|near| crate::tools::dotted_number(near))
        }) {
            return None;
        }
    }
    // What the question asks for, a word the file writes only on lines with no number — a
    // value it is handed, not one it sets — which another file sets, as a key, to a value with
    // a number: searched for. Found with a Clojure service (session 47): asked "Which port does the server listen
    // on in development when PORT is not set?", the look was the read of
    // `src/courier/server.clj`, whose `:port port` comes from the configuration, and
    // Qwen2.5-Coder-0.5B answered `44`, a line number; `:port #profile {:dev #long #or [#env
    // PORT 3000]` is in `resources/config.edn`.
    // Where `w` (lower case) stands in `line`, case aside: as a word, or as the last part of a
    // name (`cfgMaxTransactions`, `max_transactions`), its plural too.
    let stands = |line: &str, w: &str| -> Vec<usize> {
        let lower = line.to_ascii_lowercase();
        lower
            .match_indices(w)
            .map(|(at, _)| at)
            .filter(|&at| {
                let prev = line[..at].chars().next_back();
                let first = line[at..].chars().next();
                let starts = prev.is_none_or(|p| !p.is_alphanumeric())
                    || (prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit())
                        && first.is_some_and(char::is_uppercase));
                let rest = &lower[at + w.len()..];
                let rest = rest.strip_prefix('s').unwrap_or(rest);
                starts && !rest.starts_with(|c: char| c.is_alphabetic())
            })
            .collect()
    };
    let digits = |line: &str| line.contains(|c: char| c.is_ascii_digit());
    // A line setting the word, as a key, to a value holding a number: `port: 3000`, `PORT=3000`,
    // `cfgMaxTransactions = 250000`, an EDN keyword's `:port #profile {:dev … 3000]`.
    let sets = |line: &str, w: &str| {
        digits(line)
            && stands(line, w).into_iter().any(|at| {
                let (before, after) = (&line[..at], &line[at + w.len()..]);
                let after = after.strip_prefix(['s', 'S']).unwrap_or(after);
                let edn = before
                    .strip_suffix(':')
                    .is_some_and(|b| !b.ends_with(|c: char| c.is_alphanumeric()))
                    && after.starts_with([' ', '\t']);
                let after = after.trim_start_matches(['"', '\'']);
                let keyed = (after.starts_with(':')
                    && after[1..].starts_with(|c: char| c.is_whitespace()))
                    || (after.trim_start().starts_with('=')
                        && !after.trim_start().starts_with("=="));
                edn || keyed
            })
    };
    if let Some(word) = asked.iter().find(|w| {
        !w.contains(' ')
            && w.chars().count() >= 4
            && !["version", "versions"].contains(&w.as_str())
            && original.lines().any(|l| !stands(l, w).is_empty())
            && !original
                .lines()
                .any(|l| digits(l) && !stands(l, w).is_empty())
            && super::small_files(sb, sb.root()).any(|(path, other)| {
                sb.resolve("grep", &path).ok().as_ref() != Some(&abs)
                    && other.lines().any(|l| sets(l, w))
            })
    }) {
        return Some(word.clone());
    }
    // The request's phrases, and its plain words `file` lacks ([`plain_words`]; the word naming
    // the file by its stem is none), counted in one walk of the workspace's small texts.
    let mut phrases = negations(request);
    phrases.extend(asked_phrases(request));
    let stem = stem.to_lowercase();
    // A phrase naming the tool whose file it is is about the file ("the final Docker image":
    // `Dockerfile`'s `FROM` lines; a Clojure service, session 47, where the search for "docker
    // image" showed two lines about Java and never the Dockerfile). Not a word that is the
    // stem ("the main class" and `Main.kt`: see below).
    // Nor are its other words ("image" of "the Docker image": a Vue/Vite application,
    // session 47, where the search for `image` found nginx.conf's `image/svg+xml`).
    let mut of_tool: Vec<String> = Vec::new();
    if let Some(tool) = stem.strip_suffix("file").filter(|t| t.len() >= 3) {
        phrases.retain(|p| {
            let named = p.split(' ').any(|w| w == tool);
            if named {
                of_tool.extend(p.split(' ').filter(|w| *w != tool).map(str::to_owned));
            }
            !named
        });
    }
    // "By default" says how a value is set, not a word the file writes it with: a default is
    // a parameter's or a field's value (a Dart package, session 45: asked "How many responses
    // does the cache hold by default?", `cache.dart` — `this.maxEntries = 256` — lacked
    // `default`, searched instead, and the model answered `3` from the changelog).
    let by_default = request
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .windows(2)
        .any(|w| w == ["by", "default"]);
    // Nor is the project's own name (see `own_name`).
    let own = own_name(sb, sb.root());
    phrases.retain(|p| own.as_deref() != Some(p.as_str()));
    // Nor is the unit the answer is asked in ("…, in milliseconds?": a Rails API, session 56,
    // where the search for `milliseconds` found a comment above `production:`).
    let unit = crate::tools::answer_unit(request);
    let words: Vec<String> = plain_words(request)
        .into_iter()
        .filter(|w| !stem.contains(w.as_str()) && !w.contains(&stem))
        .filter(|w| !of_tool.contains(w))
        .filter(|w| !(by_default && w == "default"))
        .filter(|w| own.as_deref() != Some(w.as_str()))
        .collect();
    // (It still counts beside another word: see below.)
    let lacked: Vec<String> = words
        .iter()
        .filter(|w| unit.as_ref() != Some(*w))
        .filter(|w| !text.contains(w.as_str()))
        .cloned()
        .collect();
    if phrases.is_empty() && lacked.is_empty() {
        return None;
    }
    // A lacked word counts on a line that holds, or is next to one that holds, another of the
    // question's plain words, or the file's stem of five letters or more
    // (`CELERY_BROKER_URL` in settings.py for "Which message broker does Celery use?", where
    // `celery.py` holds no `broker`: a Django project, session 41; a short stem, `line`, is
    // inside too many names: `testTotalAddsTaxPerLine`). Next to it: a call's arguments are
    // often on the lines after its name (a Neovim plugin, session 43: "Which command stops the
    // timer?" is `nvim_create_user_command("FocusStop", function()`, then
    // `require("focus.timer").stop()`).
    // Both counted in one walk of the workspace's small texts, each line lower-cased once.
    let other = |line: &str, w: &str| {
        words.iter().any(|o| o != w && line.contains(o.as_str()))
            || (stem.chars().count() >= 5 && line.contains(stem.as_str()))
    };
    let mut phrase_lines = vec![0usize; phrases.len()];
    let mut lacked_lines = vec![0usize; lacked.len()];
    for text in super::small_texts(sb, sb.root()) {
        let lines: Vec<String> = text.lines().map(str::to_lowercase).collect();
        for (i, line) in lines.iter().enumerate() {
            for (k, phrase) in phrases.iter().enumerate() {
                phrase_lines[k] += usize::from(line.contains(phrase.as_str()));
            }
            for (k, w) in lacked.iter().enumerate() {
                if line.contains(w.as_str())
                    && lines[i.saturating_sub(1)..(i + 3).min(lines.len())]
                        .iter()
                        .any(|near| other(near, w))
                {
                    lacked_lines[k] += 1;
                }
            }
        }
    }
    let (phrase_lines, lacked_lines) = (&phrase_lines[..], &lacked_lines[..]);
    fewest_found(&phrases, phrase_lines, Tie::Longer)
        .filter(|phrase| !text.contains(phrase.as_str()))
        .or_else(|| {
            // A phrase found nowhere as written, joined as code writes it (`mainClass` for
            // "What is the application's main class?": a Kotlin/Gradle application, session
            // 40, where `Main.kt`, named by its stem, was read and the build file's
            // `mainClass.set("packtrack.MainKt")` never seen) — elsewhere than in `file`.
            let joined: Vec<[String; 4]> = phrases.iter().filter_map(|p| joined_forms(p)).collect();
            if joined.len() != phrases.len() || joined.is_empty() {
                return None;
            }
            let holds = |line: &str, k: usize| joined[k].iter().any(|f| line.contains(f.as_str()));
            let lines = lines_holding(sb, sb.root(), joined.len(), holds);
            let found = fewest_found(&phrases, &lines, Tie::Longer)?;
            let k = phrases.iter().position(|p| *p == found)?;
            let in_file = text.lines().any(|line| holds(line, k));
            (!in_file).then(|| joined_pattern(&found))
        })
        .or_else(|| {
            // Of the lacked words, what the question asks for first (`port` of "On which port
            // does zestd serve /metrics when nothing overrides it?": a Zig service, session
            // 49, where the rarest lacked word, `overrides`, was searched).
            // Not for a version (a package's name is asked for then, and its manifest's
            // section found by other words: "Which version of the http package does pebble
            // depend on?" searches `depend`).
            let asked_lacked: Vec<String> = lacked
                .iter()
                .filter(|w| asked.contains(w) && !crate::tools::asks_version(request))
                .cloned()
                .collect();
            let lines: Vec<usize> = asked_lacked
                .iter()
                .map(|w| lacked_lines[lacked.iter().position(|l| l == w).unwrap_or(0)])
                .collect();
            fewest_found(&asked_lacked, &lines, Tie::Longer)
        })
        .or_else(|| fewest_found(&lacked, lacked_lines, Tie::Longer))
}

/// `word`, the word [`telling_word`] chose of the `asked` words ([`asked_words`]) — or, when it
/// is the kind's word before the noun (`request` of "the default request timeout": `asked`
/// holds "request timeout", then `timeout`, then `request`) and none of the lines holding it
/// as a word of its own holds a digit while one of the noun's does, the noun: the kind's word
/// is then only in prose and other names, not where a value is set. Found with a Swift package (session 43): asked "What is
/// the default request timeout in seconds?", the look searched `request` (two lines: a doc
/// comment, `timeoutIntervalForRequest = config.timeoutSeconds`), and the default, on the line
/// `timeoutSeconds: TimeInterval = 15,`, was never shown.
fn valued_noun(sb: &Sandbox, asked: &[String], word: String) -> String {
    let Some(at) = asked.iter().position(|w| *w == word) else {
        return word;
    };
    let noun = match (at.checked_sub(1), at.checked_sub(2)) {
        (Some(n), Some(p))
            if !asked[n].contains(' ') && asked[p] == format!("{word} {}", asked[n]) =>
        {
            asked[n].clone()
        }
        _ => return word,
    };
    // The kind's word counts as a word of its own only (`requestsPerSecond: 20` sets no
    // request's value: a Dart package, session 45, where `request` was searched again); the
    // noun inside a name too (`timeoutSeconds: TimeInterval = 15`).
    let whole = |line: &str, w: &str| {
        line.match_indices(w).any(|(at, _)| {
            let end = at + w.len();
            !line[..at].ends_with(char::is_alphanumeric)
                && !line[end..].starts_with(char::is_alphanumeric)
        })
    };
    let pair = [noun.as_str(), word.as_str()];
    let valued = lines_holding(sb, sb.root(), 2, |line, k| {
        (if k == 0 {
            line.contains(pair[k])
        } else {
            whole(line, pair[k])
        }) && line.chars().any(|c| c.is_ascii_digit())
    });
    if valued[0] > 0 && valued[1] == 0 {
        noun
    } else {
        word
    }
}

/// For each of `n` things, on how many lines of the small texts below `dir` ([`super::small_texts`])
/// `holds(line, k)` is true for thing `k`; each line lower-cased once.
fn lines_holding(
    sb: &Sandbox,
    dir: &std::path::Path,
    n: usize,
    holds: impl Fn(&str, usize) -> bool,
) -> Vec<usize> {
    let mut counts = vec![0usize; n];
    for text in super::small_texts(sb, dir) {
        for line in text.lines() {
            let line = line.to_lowercase();
            for (k, count) in counts.iter_mut().enumerate() {
                if holds(&line, k) {
                    *count += 1;
                }
            }
        }
    }
    counts
}

/// How [`fewest_found`] breaks a tie between words found on as many lines.
#[derive(Clone, Copy)]
enum Tie {
    /// The longer word: the more telling of the request's words.
    Longer,
    /// The earlier word: the list is in order of what is asked for first ([`asked_words`]).
    Earlier,
}

/// Of `words`, the one found on the fewest lines by `counts` (the same order; at least one
/// line), ties broken by `tie` — the most telling of them.
fn fewest_found(words: &[String], counts: &[usize], tie: Tie) -> Option<String> {
    words
        .iter()
        .zip(counts)
        .enumerate()
        .filter(|&(_, (_, &n))| n > 0)
        .min_by_key(|&(k, (w, &n))| match tie {
            Tie::Longer => (n, usize::MAX - w.chars().count()),
            Tie::Earlier => (n, k),
        })
        .map(|(_, (w, _))| w.clone())
}

/// Whether `request` speaks of the workspace as a whole: "in this project", "the repository",
/// "my codebase" (case aside).
fn about_workspace(request: &str) -> bool {
    let words: Vec<String> = crate::tools::request_words(request)
        .take(200)
        .map(str::to_lowercase)
        .collect();
    words.windows(2).any(|w| {
        ["this", "the", "my", "our", "your"].contains(&w[0].as_str())
            && WORKSPACE.contains(&w[1].as_str())
    })
}

/// The words of `request` a search for its telling word tries: four letters or more, letters
/// and digits only, not a common function word; lower case, at most 20, in order.
fn plain_words(request: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut prev = String::new();
    for w in crate::tools::request_words(request).take(200) {
        let w = w.to_lowercase();
        // "At most", "at least" bound what is asked; they name nothing (an OCaml/dune project,
        // session 49: "How many waypoints can a route have at most?" searched `most`, and the
        // README's stale "at most 200 waypoints" was shown, not `max_waypoints = 250`).
        let bound = prev == "at" && ["most", "least"].contains(&w.as_str());
        if w.chars().count() >= 4
            && w.chars().all(char::is_alphanumeric)
            && !COMMON.contains(&w.as_str())
            && !words.contains(&w)
            && !bound
        {
            words.push(w.clone());
        }
        prev = w;
        if words.len() == 20 {
            break;
        }
    }
    words
}

/// How many lines of a block a documented line opens grep shows (the block's close among them).
const BLOCK_LINES: usize = 6;

/// The brackets `line` opens less those it closes (`{`, `[`, `(`), strings and comments not
/// told apart: `:root {` is 1, `}` is -1.
fn brackets(line: &str) -> i64 {
    line.chars()
        .map(|c| match c {
            '{' | '[' | '(' => 1,
            '}' | ']' | ')' => -1,
            _ => 0,
        })
        .sum()
}

/// Adds `line` (its first [`MAX_LINE_CHARS`] characters) to the shown entry `entry` on a line
/// of its own after `place` (`path (line N, …)`): a line shown with a match.
fn show_with(shown: &mut [String], entry: usize, place: &str, line: &str) {
    if let Some(e) = shown.get_mut(entry) {
        let text: String = line.trim_end().chars().take(MAX_LINE_CHARS).collect();
        e.push_str(&format!("\n{place}: {text}"));
    }
}

/// A block being shown line by line below a shown entry — the entry's index in `shown` (the
/// last entry for an index past the end), the line that opened it, the brackets open, and the
/// lines left to show: `line`, the next line of the file, is added to the entry after
/// `place(at)` (`path (line N, …)`), and the block goes on while brackets stay open and lines
/// are left.
fn follow_block(
    block: &mut Option<(usize, usize, i64, usize)>,
    shown: &mut [String],
    line: &str,
    place: impl Fn(usize) -> String,
) {
    let Some((entry, at, depth, left)) = block.take() else {
        return;
    };
    let depth = depth + brackets(line);
    let last = shown.len().saturating_sub(1);
    show_with(shown, entry.min(last), &place(at), line);
    if depth > 0 && left > 1 {
        *block = Some((entry, at, depth, left - 1));
    }
}

/// Whether `line` opens a block of data — it ends with `{` or `[`, opening more brackets than
/// it closes, with no `(` (a function's or a call's head is code: its body is no value of the
/// key matched): HCL's `required_providers {`, JSON's `"dependencies": {`.
fn opens_data_block(line: &str) -> bool {
    let t = line.trim_end();
    t.ends_with(['{', '[']) && brackets(t) > 0 && !t.contains('(')
}

/// Whether `line` of a build description (`build`: CMake's `CMakeLists.txt` and `.cmake`,
/// Meson's, Bazel's) opens a call it does not close, whose arguments are its data:
/// `FetchContent_Declare(fmt` above `GIT_TAG 10.2.1)` (a C++/CMake daemon, session 41: the
/// version of a fetched library is two lines below its name).
fn opens_build_call(line: &str, build: bool) -> bool {
    let t = line.trim_end();
    build && brackets(t) > 0 && t.contains('(') && !t.ends_with(['{', '['])
}

/// Whether `file` describes a build as calls with arguments: CMake (`CMakeLists.txt`,
/// `*.cmake`), Meson (`meson.build`), Bazel and Buck (`BUILD`, `BUILD.bazel`, `*.bzl`,
/// `WORKSPACE`).
fn is_build_calls(file: &std::path::Path) -> bool {
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    matches!(
        name,
        "CMakeLists.txt" | "meson.build" | "BUILD" | "BUILD.bazel" | "WORKSPACE" | "BUCK"
    ) || name.ends_with(".cmake")
        || name.ends_with(".bzl")
}

/// The width of `line`'s indentation, a tab as four spaces.
fn block_indent(line: &str) -> usize {
    line.chars()
        .take_while(|c| c.is_whitespace())
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

/// When `line` names an entry of a data file — `name`, `id`, `title`, `label`, or a source
/// (`github`, `git`, `gitlab`) set with `=` or `:`, in a YAML list's item (`- name: web`) or not (`name = "attic"`) — the indentation the
/// entry's other keys have at least (a list item's: past its `- `); `None` otherwise.
fn names_entry(line: &str) -> Option<usize> {
    let indent = block_indent(line);
    let t = line.trim_start();
    let (t, level) = match t.strip_prefix("- ") {
        Some(rest) => (rest.trim_start(), indent + 1),
        None => (t, indent),
    };
    let t = t.trim_start_matches(['"', '\'']);
    // And where a dependency comes from, which names it as well (shard.yml's `pg:` / `github:
    // will/crystal-pg` / `version: ~> 0.28.0`: a Crystal web service, session 53, where asked
    // "Which version of the crystal-pg driver does spire depend on?", the search showed the
    // `github:` line alone and Qwen2.5-Coder-0.5B answered another dependency's source).
    ["name", "id", "title", "label", "github", "git", "gitlab"]
        .iter()
        .any(|k| {
            t.strip_prefix(k).is_some_and(|r| {
                r.trim_start_matches(['"', '\''])
                    .trim_start()
                    .starts_with(['=', ':'])
            })
        })
        .then_some(level)
}

/// When `line` is a key opening a mapping of a YAML file — the key, a `:` and nothing more
/// (`limits:`) — the indentation its entries have at least; `None` otherwise. Its entries are
/// what it is (a Helm chart, session 42: asked "What is the memory limit of the web
/// container?", the search for `limit` showed `limits:`, not `memory: 512Mi` below it).
fn opens_mapping(line: &str) -> Option<usize> {
    let t = line.trim();
    let t = t.strip_prefix("- ").unwrap_or(t);
    let key = t.strip_suffix(':')?;
    let key = key.trim_matches(['"', '\'']);
    (!key.is_empty()
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/')))
    .then(|| block_indent(line) + 1)
}

/// The name a documentation comment's field tag gives — LuaLS's `---@field NAME type …`,
/// JSDoc's `@property {type} NAME …`, `@prop`, `@attr`, `:ivar NAME:` — `None` for any other
/// line.
pub(super) fn documented_field(line: &str) -> Option<&str> {
    let t = line
        .trim_start()
        .trim_start_matches(['-', '/', '*', '#', ' ']);
    let rest = [
        "@field ",
        "@property ",
        "@prop ",
        "@attr ",
        ":ivar ",
        ":var ",
    ]
    .iter()
    .find_map(|tag| t.strip_prefix(tag))?
    .trim_start();
    // JSDoc's type first, in braces.
    let rest = match rest.strip_prefix('{') {
        Some(typed) => typed[typed.find('}')? + 1..].trim_start(),
        None => rest,
    };
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let name = &rest[..end];
    (name.chars().count() >= 2 && name.starts_with(|c: char| c.is_alphabetic() || c == '_'))
        .then_some(name)
}

/// The first line of `text` (a file's) that sets `name` to a value — the name first on
/// the line (past `local`, `self.`, `this.`, a quote), then `=` or `:` and a value, not `==` —
/// with its number; `None` when none does.
fn field_set(text: &str, name: &str) -> Option<(usize, String)> {
    text.lines().enumerate().find_map(|(k, line)| {
        let t = line.trim_start();
        let t = ["local ", "self.", "this.", "M."]
            .iter()
            .find_map(|p| t.strip_prefix(p))
            .unwrap_or(t);
        let t = t.trim_start_matches(['"', '\'']);
        let rest = t.strip_prefix(name)?;
        let rest = rest.trim_start_matches(['"', '\'']).trim_start();
        let value = rest.strip_prefix(['=', ':'])?;
        (!value.starts_with(['=', ':']) && !value.trim().is_empty())
            .then(|| (k + 1, line.trim_end().to_owned()))
    })
}

/// The qualified names (`Module.name`) the value side of `text`, a line of code, reads — after
/// its first `=` or `:` (not `==`, `::`), a module's name (a capital first) and a constant's
/// (three characters or more); two at most.
fn qualified_refs(text: &str) -> Vec<(String, String)> {
    let Some(at) = text.char_indices().find_map(|(i, c)| {
        let next = text[i + c.len_utf8()..].chars().next();
        let prev = text[..i].chars().next_back();
        (matches!(c, '=' | ':')
            && !matches!(next, Some('=' | ':' | '>'))
            && !matches!(prev, Some('=' | ':' | '!' | '<' | '>')))
        .then_some(i)
    }) else {
        return Vec::new();
    };
    text[at + 1..]
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .filter_map(|token| {
            let (module, name) = token.trim_matches('.').rsplit_once('.')?;
            let module = module.rsplit('.').next()?;
            (module.starts_with(|c: char| c.is_ascii_uppercase())
                && name.chars().count() >= 3
                && name.starts_with(|c: char| c.is_alphabetic() || c == '_'))
            .then(|| (module.to_owned(), name.to_owned()))
        })
        .take(2)
        .collect()
}

/// Whether `line` sets `name` to a literal — a declaration's keywords (`let`, `const`, `pub`,
/// …) and a type (`: u16`) aside, then `=` or `:` and a value holding a digit or a quote; the
/// value as written when it does.
fn sets_literal<'t>(line: &'t str, name: &str) -> Option<&'t str> {
    let t = super::snippet::declared(line).0;
    let rest = t.strip_prefix(name)?.trim_start();
    if rest.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let value = match rest.strip_prefix(':') {
        // A type, then `=` and the value (`: u16 = 9477`), or a value (`: 5311,`).
        Some(r) => r.split_once('=').map_or(r, |(_, v)| v),
        None => rest.strip_prefix('=')?,
    };
    let value = value.trim();
    (!value.starts_with(['=', '>'])
        && value.contains(|c: char| c.is_ascii_digit() || c == '"' || c == '\''))
    .then_some(value)
}

/// The text of `path` when it is at most 1 MiB; `None` otherwise or when it cannot be read.
fn small_text(path: &std::path::Path) -> Option<String> {
    (std::fs::metadata(path).ok()?.len() <= 1024 * 1024)
        .then(|| std::fs::read_to_string(path).ok())
        .flatten()
}

/// Where `module.name`, read by a line of `file` (its text `own`, [`small_text`]), is set to a
/// literal ([`sets_literal`]): in `file`, the first such line after one naming `module`
/// (`module Defaults =`), or its only one; else the first in a file beside it named `module`
/// (`defaults.ml` for `Defaults`) — as (that file's name when not `file`, the line's number,
/// its text). 1 MiB a file at most.
fn qualified_value(
    file: &std::path::Path,
    own: Option<&str>,
    module: &str,
    name: &str,
) -> Option<(Option<String>, usize, String)> {
    if let Some(text) = own {
        let lines: Vec<&str> = text.lines().collect();
        let setting: Vec<usize> = (0..lines.len())
            .filter(|&i| sets_literal(lines[i], name).is_some())
            .collect();
        let opens = lines.iter().position(|l| {
            l.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|w| w == module)
                && !l.contains(&format!("{module}."))
        });
        let found = opens
            .and_then(|o| setting.iter().find(|&&i| i > o))
            .or((setting.len() == 1).then(|| &setting[0]));
        if let Some(&i) = found {
            return Some((None, i + 1, lines[i].trim_end().to_owned()));
        }
    }
    let dir = file.parent()?;
    let mut beside: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && p != file
                && p.file_stem()
                    .and_then(|s| s.to_str())
                    .is_some_and(|s| s.eq_ignore_ascii_case(module))
        })
        .collect();
    beside.sort();
    beside.iter().find_map(|p| {
        let text = small_text(p)?;
        let (i, line) = text
            .lines()
            .enumerate()
            .find(|(_, l)| sets_literal(l, name).is_some())?;
        let file_name = p.file_name()?.to_str()?.to_owned();
        Some((Some(file_name), i + 1, line.trim_end().to_owned()))
    })
}

/// The name of the section a settings file's line `line` opens at the top level — YAML's
/// `production:` (nothing after the colon but a comment), TOML's and INI's `[production]` —
/// or `None`.
fn section_name(line: &str) -> Option<&str> {
    if line.starts_with(char::is_whitespace) {
        return None;
    }
    let t = line.trim_end();
    if let Some(name) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        return (!name.is_empty() && !name.contains(['[', ']'])).then_some(name.trim());
    }
    let (name, rest) = t.split_once(':')?;
    let rest = rest.trim();
    (!name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || "_-.".contains(c))
        && (rest.is_empty() || rest.starts_with('#')))
    .then_some(name)
}

/// The key a settings file's line sets to a value — `  accumulation_reps: 199`, `workers = 16`
/// — with the line's indentation; `None` for a line that opens a mapping or sets nothing.
fn key_set(line: &str) -> Option<(&str, usize)> {
    let indent = line.len() - line.trim_start().len();
    let t = line.trim();
    let end = t.find(|c: char| !(c.is_alphanumeric() || "_-.".contains(c)))?;
    let (key, rest) = t.split_at(end);
    let value = rest.trim_start().strip_prefix([':', '='])?;
    let value = value.trim();
    (!key.is_empty() && !value.is_empty() && !value.starts_with(['#', '=', ':']))
        .then_some((key, indent))
}

/// For line `n` (from 1) of a settings file's `lines` that sets a key inside a top-level
/// section (see [`section_name`]): each other section's line setting the same key at the same
/// indentation, as (its number, the number of its section's line, the section's name); six
/// sections at most.
fn same_key_elsewhere<'t>(lines: &[&'t str], n: usize) -> Vec<(usize, usize, &'t str)> {
    let Some((key, indent)) = lines.get(n.wrapping_sub(1)).and_then(|l| key_set(l)) else {
        return Vec::new();
    };
    // The section line `n` is in: the last line before it at the top level, when it opens one
    // (YAML's keys of a section are indented; TOML's and INI's are not).
    let top = |l: &str| !l.trim().is_empty() && !l.starts_with(char::is_whitespace);
    let comment = |l: &str| l.trim_start().starts_with(['#', ';']);
    let Some(own) = (0..n - 1)
        .rev()
        .find(|&i| top(lines[i]) && !comment(lines[i]))
        .filter(|&i| section_name(lines[i]).is_some())
    else {
        return Vec::new();
    };
    let yaml = !lines[own].starts_with('[');
    if yaml && indent == 0 {
        return Vec::new();
    }
    // The keys line `n` is nested in below its section: another section's line must be under
    // the same ones.
    let under = nesting(lines, own, n - 1);
    let mut found = Vec::new();
    let mut section: Option<(usize, &str)> = None;
    for (i, line) in lines.iter().enumerate() {
        if top(line) && !comment(line) {
            if let Some(name) = section_name(line).filter(|_| line.starts_with('[') != yaml) {
                section = Some((i + 1, name));
                continue;
            }
            // A TOML or INI section's keys are at the top level too; YAML's end the section.
            if yaml {
                section = None;
                continue;
            }
        }
        if let Some((at, name)) = section
            && at != own + 1
            && key_set(line) == Some((key, indent))
            && !found.iter().any(|&(_, a, _)| a == at)
            && nesting(lines, at - 1, i) == under
        {
            found.push((i + 1, at, name));
        }
    }
    found.truncate(6);
    found
}

/// The keys of the mappings line `i` (from 0) is nested in below the section opened on line
/// `section` (from 0), innermost first: `["pg"]` for `    github: will/crystal-pg` under
/// `  pg:` in `dependencies:`. The same key in another section is the same setting only under
/// the same keys (a Crystal web service, session 53: a search for `crystal-pg` in shard.yml
/// showed ameba's `github:` and `version: ~> 1.6.1` from `development_dependencies` as the
/// same key, and Qwen2.5-Coder-0.5B answered `1.6.1` for crystal-pg's version).
fn nesting<'t>(lines: &[&'t str], section: usize, i: usize) -> Vec<&'t str> {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut within = indent(lines[i]);
    let mut keys = Vec::new();
    for l in lines[section + 1..i].iter().rev() {
        let t = l.trim();
        if within == 0 {
            break;
        }
        if t.is_empty() || t.starts_with(['#', ';']) || indent(l) >= within {
            continue;
        }
        within = indent(l);
        let t = t.trim_start_matches("- ");
        keys.push(t.split_once(':').map_or(t, |(k, _)| k).trim());
    }
    keys
}

/// Whether `line` sets a description — `description`, `desc`, `summary` or `help`, quoted or
/// not, then `=` or `:` (Terraform's `description = "…"`, YAML's `description: …`, JSON's
/// `"description": "…"`): it says what the block it is in is about.
fn is_description(line: &str) -> bool {
    let t = line.trim_start().trim_start_matches(['"', '\'']);
    ["description", "desc", "summary", "help"].iter().any(|k| {
        t.strip_prefix(k).is_some_and(|r| {
            r.trim_start_matches(['"', '\''])
                .trim_start()
                .starts_with(['=', ':'])
        })
    })
}

/// Whether `line` is one string literal and nothing else — `"Number of samples in the
/// rolling window."` — as Julia writes a docstring on the line before the definition it
/// documents (a Julia package, session 51: asked "By default, how many samples wide is the
/// rolling window used for spike detection?", the search for `samples` showed that docstring
/// and not `const DEFAULT_WINDOW = 48` below it).
fn is_string_line(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 2
        && t.starts_with('"')
        && t.ends_with('"')
        && !t.starts_with("\"\"\"")
        && !t[1..t.len() - 1].contains('"')
}

/// The closer (`*/`, `*)`, `-->`) a block comment `line` opens and does not close still
/// waits for; `None` for any other line.
fn block_comment_left_open(line: &str) -> Option<&'static str> {
    let t = line.trim_start();
    [("/*", "*/"), ("(*", "*)"), ("<!--", "-->")]
        .into_iter()
        .find(|(open, _)| t.starts_with(open))
        .and_then(|(open, close)| (!t[open.len()..].contains(close)).then_some(close))
}

/// Whether `line` is a comment line: it opens with `//`, `/*`, `(*` (OCaml's), `*` (a block
/// comment's inner line), `#` before a space or nothing (a shell, Python, YAML or Makefile
/// comment; not C's `#define`), `--` (SQL, Lua; not YAML's `---`) or `<!--`.
fn is_comment(line: &str) -> bool {
    let t = line.trim_start();
    ["//", "/*", "(*", "*", "<!--"]
        .iter()
        .any(|m| t.starts_with(m))
        || (t.starts_with("--") && !t.starts_with("---"))
        || t.strip_prefix('#')
            .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t', '#']))
}

/// Whether `word` (lower case) is too common to tell anything about what a request asks: one of
/// the common words a search is never made for, of three letters or more (`does`, `have`,
/// `not`).
pub(crate) fn is_common(word: &str) -> bool {
    COMMON.contains(&word) || SHORT_COMMON.contains(&word)
}

/// Words of three letters too common to make a phrase of the request ([`asked_phrases`]).
const SHORT_COMMON: &[&str] = &[
    "the", "and", "for", "are", "was", "you", "how", "why", "who", "its", "has", "had", "not",
    "but", "can", "did", "all", "any", "one", "our", "out", "per", "via", "own",
];

/// The phrases of `request`: two words next to each other, with nothing but a space between
/// them (no comma, no full stop), each of three letters or more, letters only, neither a common
/// word ("word count", "longest line", "database password"). Lower case, at most 20, in order.
/// A phrase found in a file names what the request asks about more closely than either word:
/// the search for `longest` showed every line of the function that finds the longest line.
/// So does a name joined by hyphens (`sbt-native-packager`, `docker-compose`: two parts or
/// more, letters and digits, one of three letters or more, not all common words), after the
/// phrases. Found with a Scala/sbt service (session 44): asked "Which version of
/// sbt-native-packager does the build use?", the look searched `build` (the plugin's name was
/// no word of the search: letters only), and Qwen2.5-Coder-0.5B answered the Scala version.
fn asked_phrases(request: &str) -> Vec<String> {
    let word = |raw: &str| -> Option<String> {
        let w = raw
            .trim_start_matches(['"', '\'', '`', '(', '\u{201c}'])
            .trim_end_matches([
                '"', '\'', '`', ')', '\u{201d}', '?', '!', '.', ',', ';', ':',
            ]);
        let w = w.to_lowercase();
        (w.chars().count() >= 3
            && w.chars().all(char::is_alphabetic)
            && !COMMON.contains(&w.as_str())
            && !SHORT_COMMON.contains(&w.as_str()))
        .then_some(w)
    };
    let raw: Vec<&str> = request.split_whitespace().take(200).collect();
    let mut out: Vec<String> = Vec::new();
    for pair in raw.windows(2) {
        // Punctuation after the first word ends the phrase there.
        if pair[0].ends_with([',', '.', ';', ':', '!', '?', ')', '"', '\'', '`']) {
            continue;
        }
        if let (Some(a), Some(b)) = (word(pair[0]), word(pair[1])) {
            let phrase = format!("{a} {b}");
            if !out.contains(&phrase) {
                out.push(phrase);
            }
        }
        if out.len() == 20 {
            break;
        }
    }
    for raw in crate::tools::request_words(request).take(200) {
        let name = raw.to_lowercase();
        let parts: Vec<&str> = name.split('-').collect();
        if out.len() < 20
            && parts.len() >= 2
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.chars().all(char::is_alphanumeric))
            && parts
                .iter()
                .any(|p| p.chars().filter(char::is_ascii_alphabetic).count() >= 3)
            && !parts
                .iter()
                .all(|p| COMMON.contains(p) || SHORT_COMMON.contains(p) || p.chars().count() < 3)
            && !out.contains(&name)
        {
            out.push(name);
        }
    }
    out
}

/// Words that qualify what a question asks for without naming it (`default` of "the default
/// capacity").
const QUALIFIERS: &[&str] = &[
    "default", "longest", "shortest", "maximum", "minimum", "max", "min", "first", "last", "main",
    "current", "total", "largest", "smallest", "highest", "lowest", "oldest", "newest", "latest",
];

/// Kinds of dependency a name comes before ("the aeson dependency", "the http package").
const DEPENDENCY_KINDS: &[&str] = &[
    "dependency",
    "dependencies",
    "package",
    "library",
    "crate",
    "gem",
    "module",
    "plugin",
    "collection",
];

/// Kinds of named things: asked which one, the answer is a name, and what the question says
/// about it tells where it is (`"Which flag prints the word count?"`), not the kind's word.
const NAMED_KINDS: &[&str] = &[
    "file",
    "files",
    "folder",
    "directory",
    "path",
    "test",
    "tests",
    "exception",
    "error",
    "flag",
    "option",
    "command",
    "target",
    "table",
    "column",
    "key",
    "script",
    "tool",
    "step",
    "rule",
    "item",
    "items",
    "name",
    "names",
    "line",
    "lines",
];

/// Words that end the words naming what a question asks for.
const ASKED_STOPS: &[&str] = &[
    "does",
    "do",
    "did",
    "is",
    "are",
    "was",
    "were",
    "has",
    "have",
    "can",
    "will",
    "should",
    "of",
    "in",
    "for",
    "on",
    "to",
    "with",
    "by",
    "from",
    "at",
    "under",
    "that",
    "when",
    "a",
    "an",
    "the",
    "and",
    "or",
    "according",
];

/// What a question says is left unset, whose default it asks for: `limit` of "How many notes
/// does a listing return by default when no limit is given?" — "no X is (are) given" (`set`,
/// `specified`, `passed`, `provided`, `supplied`), X one word of three letters or more. Searched
/// before the words naming what the question asks for: a Scala/sbt service (session 44), where
/// the look searched `notes`, and Qwen2.5-Coder-0.5B answered `200`, the most a page holds, from
/// the README; the default is `PageRequest(limit: Int = 25, …)`.
pub(crate) fn left_unset(request: &str) -> Option<String> {
    let words: Vec<String> = request
        .split_whitespace()
        .take(200)
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    const GIVEN: &[&str] = &[
        "given",
        "set",
        "specified",
        "passed",
        "provided",
        "supplied",
    ];
    const GIVE: &[&str] = &["give", "set", "specify", "pass", "provide", "supply"];
    let named = |w: &String| w.chars().count() >= 3 && w.chars().all(|c| c.is_ascii_alphabetic());
    /// Whether four words side by side are one form of leaving a name unset.
    type Fits = fn(&[String]) -> bool;
    fn is(w: &str, ws: &[&str]) -> bool {
        ws.contains(&w)
    }
    // Each form: whether four words side by side are it, and which of them is the name.
    // "no X is given"; "when --width is not given", "when I do not give --width" (contractions
    // written out: see `crate::agent::correct::expanded`) — an OCaml/dune project, session 50,
    // where the lines shown for "How wide is the text table when I don't give --width?" were
    // the option's `opt int 88` and three lines of code holding `width` in a name.
    let forms: [(Fits, usize); 3] = [
        (
            |w| w[0] == "no" && is(&w[2], &["is", "are"]) && is(&w[3], GIVEN),
            1,
        ),
        (
            |w| is(&w[1], &["is", "are"]) && w[2] == "not" && is(&w[3], GIVEN),
            0,
        ),
        (
            |w| is(&w[0], &["do", "does"]) && w[1] == "not" && is(&w[2], GIVE),
            3,
        ),
    ];
    forms.iter().find_map(|(fits, at)| {
        words
            .windows(4)
            .find(|w| fits(w) && named(&w[*at]))
            .map(|w| w[*at].clone())
    })
}

/// The words naming what a question asks for, to search for before its other words: after
/// "how many" ([`how_many_words`]), or after "which" or "what", "What is the A of B?", "Which
/// A does B use?", "What A is B?" — A as a whole, then its last word, then B as a whole and
/// each of B's words. A is one to three
/// words, all but the last qualifiers ([`QUALIFIERS`]: "the default capacity"), not a kind of
/// named thing ([`NAMED_KINDS`], [`crate::tools::CODE_KINDS`]). After "which A" or "what A"
/// comes "does", "is" (…) or "of", not another verb: "Which flag prints …" describes what it
/// asks for. "Which A is B?", B no thing of its own ("still a draft"), gives B alone. Empty
/// when the question is of none of these shapes. The `usize`: how many of the words are A's
/// and searched before B's (a tier of [`telling_word`]), when A holds a word naming its kind
/// ("the time zone") and B is a clause about it ("is the site configured for"); 0 (no tier)
/// otherwise.
pub(crate) fn asked_words(request: &str) -> (Vec<String>, usize) {
    let tokens = ended_tokens(request, 60);
    // The words the request writes in capitals (`API`, `HTTP`, `CI`), lower case: an acronym
    // before what is asked (not a version) qualifies it as a qualifier does ("What API base URL does the
    // production build use?" asks for the API base URL: a Vue/Vite application, session 47,
    // where the look searched "production build" and found a test server's `baseURL`).
    let acronyms: Vec<String> = request
        .split_whitespace()
        .take(60)
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|w| w.chars().count() >= 2 && w.chars().all(|c| c.is_ascii_uppercase()))
        .map(str::to_lowercase)
        .collect();
    // "How many A (of B)", "how much A": A, then B (a Terraform folder, session 38: "How many
    // replicas of the web app run?" searched "web app", a line of the README).
    let how_many = tokens.windows(2).position(|w| {
        w[0].0 == "how" && !w[0].1 && ["many", "much"].contains(&w[1].0.as_str()) && !w[1].1
    });
    let which = tokens.iter().position(|(t, _)| t == "which" || t == "what");
    // "How long (how often) is A V-ed?": what is timed is V's doing, which code names by its
    // stem (a Vue/Vite application, session 47: "How long is the search input debounced, in
    // milliseconds?" is `searchDebounceMs: 350`; the look searched `milliseconds`, then
    // `input`).
    if let [(how, false), (span, false), rest @ ..] = &tokens[..]
        && how == "how"
        && ["long", "often"].contains(&span.as_str())
        && which.is_none()
    {
        let clause = rest
            .iter()
            .position(|(_, ends)| *ends)
            .map_or(rest, |end| &rest[..=end]);
        if let Some((done, mut stems)) = clause.iter().rev().find_map(|(t, _)| {
            let stems = crate::tools::ed_stems(t);
            (!stems.is_empty()).then_some((t, stems))
        }) {
            stems.reverse();
            stems.push(done.clone());
            return (searchable(stems), 0);
        }
    }
    if let Some(h) = how_many
        && which.is_none_or(|w| h < w)
    {
        return (how_many_words(&tokens, h + 2), 0);
    }
    let Some(at) = which else {
        return (Vec::new(), 0);
    };
    if tokens[at].1 {
        return (Vec::new(), 0);
    }
    let copula = ["is", "are", "was", "were"];
    let mut i = at + 1;
    let copula_first = tokens
        .get(i)
        .is_some_and(|(t, _)| copula.contains(&t.as_str()));
    if copula_first {
        i += 1;
    }
    let determiner = [
        "the", "a", "an", "my", "our", "your", "this", "its", "their",
    ];
    let skip = |mut i: usize| {
        while tokens
            .get(i)
            .is_some_and(|(t, e)| !e && determiner.contains(&t.as_str()))
        {
            i += 1;
        }
        i
    };
    let run = |i: usize| asked_run(&tokens, i);
    if copula_first {
        i = skip(i);
    }
    let (head, next, ended) = run(i);
    let Some(noun) = head.last() else {
        return (Vec::new(), 0);
    };
    let after = if ended {
        None
    } else {
        tokens.get(next).map(|(t, _)| t.as_str())
    };
    // Or a place, then the clause ("Which port on my machine should I send StatsD packets
    // to?": a Zig service, session 50, where nothing was asked for and the line shown as
    // bearing was a comment's `docker compose up --build`).
    let asks = copula_first
        || after.is_none_or(|a| {
            ["does", "do", "did", "of", "on", "at"].contains(&a) || copula.contains(&a)
        });
    // Qualifiers, then the noun — or one word naming what kind of it, right before it ("the
    // base URL", "the default request timeout": a Swift package, session 42, where the look
    // searched "api client" and "request"; "the sampling interval": a C++/CMake daemon,
    // session 41).
    // Not a version's subject ("Which Java version …": see `version_subject`).
    let modifier = head.len() >= 2 && !["version", "versions"].contains(&noun.as_str()) && {
        let w = &head[head.len() - 2];
        w.len() >= 3 && !is_common(w) && !QUALIFIERS.contains(&w.as_str())
    };
    let qualified = head.len() - 1 - usize::from(modifier);
    // Not before a version ("Which JVM version …": see `version_subject`).
    let version = ["version", "versions"].contains(&noun.as_str());
    if !asks
        || NAMED_KINDS.contains(&noun.as_str())
        || crate::tools::CODE_KINDS.contains(&noun.as_str())
        || !head[..qualified]
            .iter()
            .all(|w| QUALIFIERS.contains(&w.as_str()) || (acronyms.contains(w) && !version))
    {
        return (Vec::new(), 0);
    }
    let mut words: Vec<String> = Vec::new();
    // "Which A is B?" with B no thing of its own ("the server", "this crate") but what A is
    // ("still a draft", "broken"): B tells which, and A is what the answer is one of (a
    // Hugo site, session 37: "Which post is still a draft?" searched `post`).
    let predicate = tokens[at].0 == "which"
        && !copula_first
        && after.is_some_and(|a| copula.contains(&a))
        && tokens.get(next + 1).is_some_and(|(t, _)| {
            !["the", "my", "our", "your", "this", "its", "their"].contains(&t.as_str())
        });
    if predicate {
        let mut i = next + 1;
        let adverbs = [
            "still",
            "currently",
            "now",
            "already",
            "also",
            "only",
            "no",
            "longer",
            "not",
            "yet",
            "a",
            "an",
        ];
        while tokens
            .get(i)
            .is_some_and(|(t, e)| !e && adverbs.contains(&t.as_str()))
        {
            i += 1;
        }
        let (what, _, _) = run(i);
        if what.len() > 1 {
            words.push(what.join(" "));
        }
        words.extend(what);
    } else {
        if head.len() > 1 {
            words.push(head.join(" "));
        }
        if modifier && head.len() > 2 {
            words.push(head[head.len() - 2..].join(" "));
        }
        words.push(noun.clone());
        // The kind's word too, the one on fewer lines telling more: `bread` of "the bread
        // price" (`price` is on every line of the prices).
        // Not a gerund ("the sampling interval": `sampling` is no thing).
        if modifier && !head[head.len() - 2].ends_with("ing") {
            words.push(head[head.len() - 2].clone());
        }
    }
    let asked = searchable(std::mem::take(&mut words));
    // What the noun is of tells which one ("the I2C address of the attic sensor": `attic`,
    // on fewer lines, comes first); a clause about it does not ("Which time zone is the site
    // configured for?": a Django project's `site`, session 41's look, would come first).
    let tier = if modifier && after.is_some_and(|a| copula.contains(&a)) {
        asked.len()
    } else {
        0
    };
    // So does what it is on or for ("the upper bound on the aeson dependency": `bound` is on
    // the lines of a function's bounds, `aeson` on the dependency's: a Haskell project,
    // session 47).
    if !predicate && after.is_some_and(|a| ["of", "on", "for"].contains(&a) || copula.contains(&a))
    {
        let (of, _, _) = run(skip(next + 1));
        let mut of: Vec<String> = of
            .into_iter()
            .filter(|w| !WORKSPACE.contains(&w.as_str()))
            .collect();
        // A kind of dependency after its name ("the aeson dependency") tells nothing of which:
        // the README's one line about dependencies was searched in its place.
        if of.len() > 1
            && of
                .last()
                .is_some_and(|w| DEPENDENCY_KINDS.contains(&w.as_str()))
        {
            of.pop();
        }
        // "What time of day": a time on the clock, no word of the files — the question's
        // other words say of what (a Django project, session 41: "At what time of day are
        // the expiry alerts sent?" searched `day`, on every line of the expiry rule's days).
        if noun == "time" && of.first().is_some_and(|w| w == "day") {
            return (Vec::new(), 0);
        }
        // "Which version of B": B alone tells — `version` is on the line of every other
        // version the files hold (a C++/CMake daemon, session 41: "Which version of fmt is
        // fetched?" searched `version` and was answered with CMakePresets.json's `6`).
        if after == Some("of") && ["version", "versions"].contains(&noun.as_str()) && !of.is_empty()
        {
            let mut words = Vec::new();
            if of.len() > 1 {
                words.push(of.join(" "));
            }
            words.extend(of);
            return (searchable(words), 0);
        }
        if of.len() > 1 {
            words.push(of.join(" "));
        }
        words.extend(of);
    }
    let rest: Vec<String> = searchable(words)
        .into_iter()
        .filter(|w| !asked.contains(w))
        .collect();
    let mut all = asked;
    all.extend(rest);
    (all, tier)
}

/// The words of `tokens` from `i` on naming what a question asks for: one to three, up to a
/// word of [`ASKED_STOPS`], or the end of a sentence (the last word's punctuation: `true`
/// then); with the index after them.
fn asked_run(tokens: &[(String, bool)], mut i: usize) -> (Vec<String>, usize, bool) {
    let mut out: Vec<String> = Vec::new();
    while let Some((t, e)) = tokens.get(i) {
        if ASKED_STOPS.contains(&t.as_str()) || t.is_empty() || out.len() == 3 {
            break;
        }
        out.push(t.clone());
        i += 1;
        if *e {
            return (out, i, true);
        }
    }
    (out, i, false)
}

/// `words` fit to search for: three characters or more, no common word, nothing a regular
/// expression reads as an operator; a word right after itself once.
fn searchable(mut words: Vec<String>) -> Vec<String> {
    words.retain(|w| {
        w.chars().count() >= 3
            && !COMMON.contains(&w.as_str())
            && !SHORT_COMMON.contains(&w.as_str())
            // A dotted name (`next.jdbc`) is searched as written: its `.` matches itself too
            // (a Clojure service, session 47: "Which version of next.jdbc does courier depend
            // on?" searched `depend`).
            && regex::escape(w).replace("\\.", ".") == *w
            && !w.starts_with('.')
            && !w.ends_with('.')
    });
    words.dedup();
    words
}

/// Units a count is given in: "after how many days" asks for a number of them, not for them.
const UNITS: &[&str] = &[
    "seconds",
    "minutes",
    "hours",
    "days",
    "weeks",
    "months",
    "years",
    "times",
    "bytes",
    "characters",
    "chars",
    "lines",
    "percent",
    "items",
    "entries",
];

/// [`asked_words`] of "how many A (of B)" with A from `tokens[from]` on: A (one to three words,
/// up to a word of [`ASKED_STOPS`]) as a whole and its last word, then B's words likewise;
/// nothing when A is a unit ([`UNITS`]) or a kind of named thing.
fn how_many_words(tokens: &[(String, bool)], from: usize) -> Vec<String> {
    let (mut head, mut next, mut ended) = asked_run(tokens, from);
    // The things counted end at their plural: "how many replicas run by default" counts
    // replicas, not runs (a Helm chart, session 42: the look searched `run`).
    if let Some(p) = head
        .iter()
        .position(|w| w.chars().count() >= 4 && w.ends_with('s') && !w.ends_with("ss"))
        && p + 1 < head.len()
        && head[p + 1] != "per"
    {
        next -= head.len() - (p + 1);
        head.truncate(p + 1);
        ended = false;
    }
    let after = (!ended)
        .then(|| tokens.get(next).map(|(t, _)| t.as_str()))
        .flatten();
    let Some(noun) = head.last() else {
        return Vec::new();
    };
    // A unit of time that something does ("How many days does the forecast command show by
    // default?": a Swift package's `var days: Int = 5`, session 42) is what is searched; a
    // unit after which something is so ("After how many days are uploads deleted?") is not,
    // nor things per unit ("How many items does the API return per page?").
    if [
        "seconds", "minutes", "hours", "days", "weeks", "months", "years",
    ]
    .contains(&noun.as_str())
        && !tokens.iter().any(|(t, _)| t == "per")
        && head.len() == 1
        && after.is_some_and(|a| ["does", "do", "did"].contains(&a))
    {
        return searchable(head);
    }
    if UNITS.contains(&noun.as_str())
        || NAMED_KINDS.contains(&noun.as_str())
        || crate::tools::CODE_KINDS.contains(&noun.as_str())
    {
        return Vec::new();
    }
    let mut words: Vec<String> = Vec::new();
    if head.len() > 1 {
        words.push(head.join(" "));
    }
    words.push(noun.clone());
    if after == Some("of") {
        let at = next + 1;
        let at = at
            + tokens[at..]
                .iter()
                .take_while(|(t, e)| {
                    !e && ["the", "a", "an", "this", "my", "our"].contains(&t.as_str())
                })
                .count();
        let (of, _, _) = asked_run(tokens, at);
        if of.len() > 1 {
            words.push(of.join(" "));
        }
        words.extend(of.into_iter().filter(|w| !WORKSPACE.contains(&w.as_str())));
    }
    searchable(words)
}

/// Capitalised words that are no name, wherever they stand ("… notes. Which function …").
const NO_NAMES: &[&str] = &[
    "which", "what", "the", "this", "that", "each", "every", "any", "some", "new", "one",
];

/// The words of `request` written as code: an identifier holding `_` (`to_kelvin`) or an inner
/// capital (`isBroken`), a flag (`--last`, `-v`), a word the request puts in quotes or
/// backticks (`"temperture"`), or a capitalised word, not the request's first, next to a word
/// naming a kind of code ([`crate::tools::CODE_KINDS`]: "the Text function" — found running `toolmend run`
/// on a Go module, session 30); three characters or more, none that a regular expression reads
/// as an operator outside a class (the search is for the word itself, and the call must be
/// made of the request's own words). Lower case, at most 20, in order.
fn code_words(request: &str) -> Vec<String> {
    let quoted = |w: &str| {
        ['"', '`', '\'', '\u{201c}']
            .iter()
            .any(|q| request.contains(&format!("{q}{w}")))
    };
    let all: Vec<&str> = crate::tools::request_words(request).take(200).collect();
    let kind = |i: Option<usize>| {
        i.and_then(|i| all.get(i))
            .is_some_and(|w| crate::tools::CODE_KINDS.contains(&w.to_lowercase().as_str()))
    };
    let named = |i: usize| {
        let w = all[i];
        i > 0
            && w.starts_with(char::is_uppercase)
            && w.chars().all(|c| c.is_alphanumeric() || c == '_')
            && !NO_NAMES.contains(&w.to_lowercase().as_str())
            && (kind(i.checked_sub(1)) || kind(Some(i + 1)))
    };
    let mut words: Vec<String> = Vec::new();
    for (i, &w) in all.iter().enumerate() {
        let flag = w.starts_with('-') && w.trim_start_matches('-').starts_with(char::is_alphabetic);
        let ident = w.contains('_') && w.chars().any(char::is_alphabetic);
        // camelCase or an inner capital (`isBroken`, `formatReport`, `JUnit`): a name in
        // code, not prose.
        let camel = w.chars().all(char::is_alphanumeric) && crate::tools::written_as_code(w);
        let w_low = w.to_lowercase();
        if w.chars().count() >= 3
            && (flag || ident || camel || quoted(w) || named(i))
            && regex::escape(w).replace("\\-", "-") == w
            && !words.contains(&w_low)
        {
            words.push(w_low);
        }
        if words.len() == 20 {
            break;
        }
    }
    words
}

/// Of `words` (lower case), the one found on the fewest lines (at least one) of the text files
/// below `dir`, case aside — tier by tier: `tiers` are the ends of all tiers but the last (the
/// request's words written as code, then its phrases, then its plain words), and a tier with a
/// word found gives it, ties broken by `tie`; see [`Grep`]'s `example_for`. Reads at most 500
/// files of up to 256 KiB each, 4 MiB in all, among the first 10,000 entries (in name order).
fn telling_word(
    sb: &Sandbox,
    dir: &std::path::Path,
    words: &[String],
    tiers: &[usize],
    tie: Tie,
) -> Option<String> {
    if words.is_empty() {
        return None;
    }
    let joined: Vec<Option<[String; 4]>> = words.iter().map(|w| joined_forms(w)).collect();
    // The short form code writes for a word, where it begins the word (`conn` of
    // "connections"; see `crate::tools::short_form`): its search finds the word too.
    let short: Vec<Option<&str>> = words
        .iter()
        .map(|w| crate::tools::short_form(w).filter(|s| w.starts_with(s)))
        .collect();
    let n = words.len();
    let lines = lines_holding(sb, dir, 3 * n, |line, k| {
        if k < n {
            line.contains(words[k].as_str())
        } else if k < 2 * n {
            joined[k - n]
                .as_ref()
                .is_some_and(|forms| forms.iter().any(|f| line.contains(f.as_str())))
        } else {
            // Written short as a name's part of its own (`max_open_conns`).
            short[k - 2 * n].is_some_and(|s| {
                line.split(|c: char| !c.is_alphanumeric())
                    .any(|t| t.strip_suffix('s').unwrap_or(t) == s)
            })
        }
    });
    // A phrase found nowhere as written but joined as code writes it (`mainClass` for "main
    // class") is searched for so.
    let (words, lines): (Vec<String>, Vec<usize>) = (0..n)
        .map(|k| match &joined[k] {
            Some(_) if lines[k] == 0 && lines[n + k] > 0 => {
                (joined_pattern(&words[k]), lines[n + k])
            }
            // Found both ways, it is searched both ways: `expiry[ ._-]?alerts` finds the
            // README's "expiry alerts" and the code's `send_expiry_alerts` and schedule entry
            // `"expiry-alerts"` (a Django project, session 41: the search as written showed
            // the README's line alone).
            // Its last word by its stem, as the joined forms write it (`rate[ ._-]?limit`
            // finds "rate limiting" and `kiln_ratelimit`: an Erlang/OTP service, session 51,
            // where `rate[ ._-]?limiting` found a config comment alone).
            Some(_) if lines[n + k] > 0 => (
                phrase_words(&words[k]).map_or_else(
                    || words[k].replace(' ', "[ ._-]?"),
                    |parts| parts.join("[ ._-]?"),
                ),
                lines[k],
            ),
            // A word the files also write short is searched short, which finds both
            // (`harbor_db_max_open_conns: 900` for "How many open database connections does
            // Harbor allow by default?": an Ansible project, session 45, where the search for
            // `connection` found `[ssh_connection]` alone, and Qwen2.5-Coder-0.5B answered
            // `2`).
            _ => match short[k] {
                Some(s) if lines[2 * n + k] > 0 => (s.to_owned(), lines[k] + lines[2 * n + k]),
                _ => (words[k].clone(), lines[k]),
            },
        })
        .unzip();
    // The project's own name (its README's title) is on lines all over it and tells nothing of
    // where something is in it: it counts as found nowhere when another word is found, in any
    // tier (a Haskell project, session 47: "How many transactions can a journal hold before
    // ledger-lite refuses to load it?" searched `ledger-lite`, a phrase of the question, and
    // the model answered `12` from the README's `12.80`).
    let own = own_name(sb, dir);
    let is_own = |w: &String| own.as_deref() == Some(w.as_str());
    let other_found = words.iter().zip(&lines).any(|(w, &n)| n > 0 && !is_own(w));
    let lines: Vec<usize> = words
        .iter()
        .zip(lines)
        .map(|(w, n)| if other_found && is_own(w) { 0 } else { n })
        .collect();
    // Each tier in turn: the first with a word found gives it.
    let mut from = 0;
    for &end in tiers.iter().chain([&words.len()]) {
        let end = end.clamp(from, words.len());
        if let Some(w) = fewest_found(&words[from..end], &lines[from..end], tie) {
            return Some(w);
        }
        from = end;
    }
    None
}

/// Whether `path` is documentation, not code or settings: Markdown, text, reStructuredText,
/// AsciiDoc, or a README, CHANGELOG or the like without an extension.
fn is_doc(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    match name.rsplit_once('.') {
        Some((_, ext)) => ["md", "markdown", "txt", "rst", "adoc"].contains(&ext),
        None => ["readme", "changelog", "changes", "news", "history"].contains(&name.as_str()),
    }
}

/// The name a project's README gives it in its title (`# ledger-lite`), lower case: one word
/// of two characters or more, without what its ecosystem adds to a package's name — an
/// owner (`acme/invoicer`), CPAN's `App-` (`App-Quarry` is the `quarry` command: a Perl
/// distribution, session 52, whose "how many milliseconds does quarry wait …" searched
/// `quarry\w*_ms`), a language's or editor's suffix (`Sedge.jl`, `focus.nvim`). Read from
/// `README.md` at `dir`, or the workspace's root.
pub(crate) fn own_name(sb: &Sandbox, dir: &std::path::Path) -> Option<String> {
    let title = |d: &std::path::Path| -> Option<String> {
        let text = std::fs::read_to_string(d.join("README.md")).ok()?;
        // The first line that says something, an HTML comment aside (`<!-- README.md is
        // generated from README.Rmd … -->`, an R package's: session 49).
        let first = text
            .lines()
            .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with("<!--"))?;
        let name = first.strip_prefix("# ")?.trim().trim_matches('`');
        if name.contains(char::is_whitespace) {
            return None;
        }
        let name = name.to_lowercase();
        let name = name.rsplit('/').next().unwrap_or(&name);
        let name = ["app-", "app::"]
            .iter()
            .find_map(|p| name.strip_prefix(p))
            .unwrap_or(name);
        let name = [".jl", ".nvim", ".vim", ".el", ".js", ".py", ".rs", "-rs"]
            .iter()
            .find_map(|s| name.strip_suffix(s))
            .unwrap_or(name);
        (name.chars().count() >= 2).then(|| name.to_owned())
    };
    title(dir).or_else(|| title(sb.root()))
}

/// The negated verbs of `request` as the phrase `not <verb>`: "cannot be found", "can't be
/// found", "is not found", "wasn't found" → `not found`, which code writes `NotFound`,
/// `not_found` or in a message as words (a Kotlin/Gradle application, session 40: "Which
/// exception is thrown when a shipment cannot be found?" searched `cannot` and found the
/// message of another exception; the one thrown is `TrackingNotFoundException`). Searched for
/// as the request's other phrases are ([`joined_forms`]).
pub(crate) fn negations(request: &str) -> Vec<String> {
    let words: Vec<String> = request
        .split_whitespace()
        .take(200)
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                .to_lowercase()
        })
        .collect();
    let mut out: Vec<String> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let after = match w.as_str() {
            "cannot" | "can't" | "couldn't" | "isn't" | "wasn't" | "aren't" | "weren't"
            | "doesn't" | "don't" | "didn't" | "not" => i + 1,
            _ => continue,
        };
        let mut j = after;
        while words
            .get(j)
            .is_some_and(|w| ["be", "been", "being", "not"].contains(&w.as_str()))
        {
            j += 1;
        }
        if let Some(verb) = words.get(j)
            && verb.chars().count() >= 3
            && verb.chars().all(|c| c.is_ascii_alphabetic())
            && !COMMON.contains(&verb.as_str())
        {
            let phrase = format!("not {verb}");
            if !out.contains(&phrase) {
                out.push(phrase);
            }
        }
    }
    out
}

/// What a version question asks the version of, when the files write a number beside it:
/// the word before `version` ("Which JVM version is the project compiled for?" → `jvm`, on
/// `jvmToolchain(17)`: a Kotlin/Gradle application, session 40, where the search for `version`
/// showed only the plugins' versions and Qwen2.5-Coder-0.5B answered `2.0.21`). Only where
/// the two words are on no line together, in any of their [`joined_forms`] either
/// (`required_ruby_version` is searched for as the phrase), and the word is on a line with a
/// digit (`import java.time.LocalDate` tells no version). `None` otherwise, and for a request
/// that is no question or asks the version of the workspace itself ("the project version").
fn version_subject(sb: &Sandbox, request: &str) -> Option<String> {
    let words: Vec<String> = crate::tools::request_words(request)
        .take(200)
        .map(str::to_lowercase)
        .collect();
    let at = words.iter().position(|w| w == "version")?;
    let subject = words.get(at.checked_sub(1)?)?.clone();
    if !request.trim_end().ends_with('?')
        || WORKSPACE.contains(&subject.as_str())
        || subject.chars().count() < 2
        || !subject.chars().all(char::is_alphanumeric)
        || COMMON.contains(&subject.as_str())
        || SHORT_COMMON.contains(&subject.as_str())
    {
        return None;
    }
    let phrase = format!("{subject} version");
    let forms = joined_forms(&phrase)?;
    let found = lines_holding(sb, sb.root(), 2, |line, k| match k {
        // A line naming the phrase but writing no number tells no version (`nim-version: ${{
        // matrix.nim }}` in a workflow, where `requires "nim >= 2.0.4"` is the answer to
        // "What's the oldest Nim version fjord can be built with?": a Nim daemon, session 52).
        0 => {
            (line.contains(phrase.as_str()) || forms.iter().any(|f| line.contains(f.as_str())))
                && line.chars().any(|c| c.is_ascii_digit())
        }
        _ => line.contains(subject.as_str()) && line.chars().any(|c| c.is_ascii_digit()),
    });
    (found[0] == 0 && found[1] > 0).then_some(subject)
}

/// The search for a port written after a host's `:` (see `port_written`).
pub(crate) const PORT_PATTERN: &str = r":[0-9]{4,5}\b";

/// A port as the files write it where none says "port": after a host's `:` in a URL or an
/// address (`"applicationUrl": "http://localhost:5080"` in a .NET API's launchSettings.json,
/// session 41: asked "Which port does the API listen on during development?", the search was
/// for `development`, which showed an environment variable), four or five digits — for a
/// question asking for a port (`asked`, see [`asked_words`]) when `port` is on no line.
/// `None` otherwise.
fn port_written(sb: &Sandbox, asked: &[String]) -> Option<String> {
    if !asked.iter().any(|w| w == "port" || w == "ports") {
        return None;
    }
    let re = regex::Regex::new(PORT_PATTERN).ok()?;
    let found = lines_holding(sb, sb.root(), 2, |line, k| match k {
        0 => line.contains("port"),
        _ => re.is_match(line),
    });
    (found[0] == 0 && found[1] > 0).then(|| PORT_PATTERN.to_owned())
}

/// A phrase of two words (`main class`) as code writes it joined, lower case: `mainclass`
/// (`mainClass`, `MainClass`), `main_class`, `main-class`, `main.class` (a properties key:
/// `sbt.version=1.9.8` in sbt's `project/build.properties` for "Which sbt version does the
/// build use?", a Scala/sbt service, session 44); a second word in `-ing` by its stem
/// ([`code_stem`]), which the whole word holds: `keymap` for "key mapping" (`keymaps`,
/// `vim.keymap.set`), `ratelimit` for "rate limiting". `None` for anything else.
fn joined_forms(phrase: &str) -> Option<[String; 4]> {
    let words = phrase_words(phrase)?;
    Some(["", "_", "-", "."].map(|sep| words.join(sep)))
}

/// The words of `phrase`, two or three of letters only, the last by its [`code_stem`]: those a
/// name in code joins (three: `api_base_url`, `apiBaseUrl` for "API base URL", asked what a
/// Vue/Vite application's production build uses, session 47). `None` for anything else.
fn phrase_words(phrase: &str) -> Option<Vec<&str>> {
    let mut words: Vec<&str> = phrase.split(' ').collect();
    let word = |w: &&str| !w.is_empty() && w.chars().all(char::is_alphabetic);
    if !(2..=3).contains(&words.len()) || !words.iter().all(word) {
        return None;
    }
    let last = words.len() - 1;
    words[last] = code_stem(words[last]);
    Some(words)
}

/// The search for a phrase of two or three words in any of its [`joined_forms`]:
/// `main[._-]?class`, `key[._-]?map`, `api[._-]?base[._-]?url`.
fn joined_pattern(phrase: &str) -> String {
    phrase_words(phrase).map_or_else(|| phrase.to_owned(), |words| words.join("[._-]?"))
}

/// `word` as a name in code may write it when it is a verb's `-ing` form: its shortest stem
/// that begins it (`mapping` → `map`, `limiting` → `limit`, `handling` → `handl`), or `word`
/// itself. Found with a Neovim plugin (session 43): "Which key mapping starts or stops the
/// timer?" found no `key mapping`, and the plugin's `keymaps = {` was never searched.
fn code_stem(word: &str) -> &str {
    if ["string", "spring", "thing", "during", "nothing"].contains(&word) {
        return word;
    }
    crate::tools::ing_stems(word)
        .iter()
        .filter(|s| word.starts_with(s.as_str()))
        .map(String::len)
        .min()
        .map_or(word, |n| &word[..n])
}

/// Reads lines (with their `\n`) from a buffered reader, keeping at most [`MAX_LINE_BYTES`] of
/// each: the rest of a longer line is read and dropped, so memory stays bounded whatever the
/// file holds. Read errors end the file.
struct Lines<R> {
    reader: R,
    line: Vec<u8>,
    /// True once some line was longer than [`MAX_LINE_BYTES`].
    cut: bool,
}

impl<R: std::io::BufRead> Lines<R> {
    fn new(reader: R) -> Self {
        Self {
            reader,
            line: Vec::new(),
            cut: false,
        }
    }

    fn next_line(&mut self) -> Option<&[u8]> {
        self.line.clear();
        let mut any = false;
        loop {
            let buf = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            if buf.is_empty() {
                break;
            }
            any = true;
            let (take, done) = match memchr::memchr(b'\n', buf) {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            let room = MAX_LINE_BYTES.saturating_sub(self.line.len());
            if take > room {
                self.cut = true;
            }
            self.line.extend_from_slice(&buf[..take.min(room)]);
            self.reader.consume(take);
            if done {
                break;
            }
        }
        any.then_some(self.line.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::Blocks;

    #[test]
    fn the_defined_kinds_run_from_function_to_test() {
        let kinds = crate::tools::DEFINED_KINDS;
        assert_eq!(
            (kinds.first(), kinds.last()),
            (Some(&"function"), Some(&"test"))
        );
    }

    #[test]
    fn what_a_question_leaves_unset_is_its_one_word() {
        assert_eq!(
            super::left_unset(
                "How many notes does a listing return by default when no limit is given?"
            )
            .as_deref(),
            Some("limit")
        );
        assert_eq!(
            super::left_unset("Which port is used when no PORT is set?").as_deref(),
            Some("port")
        );
        assert_eq!(super::left_unset("Is there no limit?"), None);
        assert_eq!(super::left_unset("What is given when no a is set?"), None);
    }

    #[test]
    fn a_questions_asked_words_are_what_it_asks_for_then_what_that_is_of() {
        let asked = |q: &str| super::asked_words(q).0;
        assert_eq!(
            asked("Which currency does the guest house use?"),
            ["currency"]
        );
        assert_eq!(
            asked("What is the default capacity of a ring buffer?"),
            [
                "default capacity",
                "capacity",
                "ring buffer",
                "ring",
                "buffer"
            ]
        );
        assert_eq!(asked("At what hour is checkout?"), ["hour", "checkout"]);
        assert_eq!(asked("What license is this project under?"), ["license"]);
        // Which A is B: B tells which, unless it is a thing of its own.
        assert_eq!(asked("Which post is still a draft?"), ["draft"]);
        assert_eq!(asked("Which port is the server on?"), ["port", "server"]);
        assert_eq!(
            asked("What is the longest stay a booking may span?"),
            ["longest stay", "stay"]
        );
        // How many A of B: A, then B; a unit counts nothing of its own.
        assert_eq!(
            asked("How many replicas of the web app run?"),
            ["replicas", "web app run", "web", "run"]
        );
        assert_eq!(
            asked("How much memory does the web container get?"),
            ["memory"]
        );
        assert!(asked("After how many days are unprocessed uploads deleted?").is_empty());
        // A version of B: B alone; a gerund before the noun; a time of day: none (session 41).
        assert_eq!(asked("Which version of fmt is fetched?"), ["fmt"]);
        assert_eq!(
            asked("What is the sampling interval in milliseconds?"),
            ["sampling interval", "interval"]
        );
        assert!(asked("At what time of day are the expiry alerts sent?").is_empty());
        // A word naming the kind before the noun: the phrase, the noun, then that word; the
        // things "how many" counts end at their plural (session 42).
        assert_eq!(
            asked("Which base URL does the API client use?"),
            ["base url", "url", "base"]
        );
        assert_eq!(
            super::asked_words("Which time zone is the site configured for?"),
            (
                vec![
                    "time zone".to_owned(),
                    "zone".to_owned(),
                    "time".to_owned(),
                    "site configured".to_owned(),
                    "site".to_owned(),
                    "configured".to_owned()
                ],
                3
            )
        );
        assert_eq!(asked("How many replicas run by default?"), ["replicas"]);
        assert_eq!(
            asked("How many days does the forecast command show by default?"),
            ["days"]
        );
        // A kind of named thing, a name qualifying what is asked, a verb after it, no which
        // or what: none.
        for q in [
            "Which flag prints the word count?",
            "Which function removes the oldest item?",
            "Which Java version does the project compile for?",
            "What does make clean remove?",
            "How many days of backups are kept?",
            "Which files are in this folder?",
        ] {
            assert!(asked(q).is_empty(), "{q}: {:?}", asked(q));
        }
    }

    /// The block line each line of `text` is in, as (line, header line number).
    fn headers(text: &str) -> Vec<(String, Option<usize>)> {
        let mut blocks = Blocks::default();
        text.lines()
            .enumerate()
            .map(|(i, l)| {
                (
                    l.trim().to_owned(),
                    blocks.enter(i + 1, l).map(|(at, _)| at),
                )
            })
            .collect()
    }

    fn header_of(text: &str, line: &str) -> Option<usize> {
        headers(text)
            .into_iter()
            .find(|(l, _)| l == line)
            .and_then(|(_, h)| h)
    }

    /// Found running `toolmend run` on a data folder (session 32): asked "Which table has the
    /// email column?", Qwen2.5-Coder-0.5B searched for `email`, was shown `    email TEXT
    /// UNIQUE,` without its table, and answered `schema`.
    #[test]
    fn a_line_is_in_the_block_of_the_line_that_opens_it() {
        let sql = "-- Tables.\nCREATE TABLE customers (\n    id INTEGER PRIMARY KEY,\n    email TEXT\n);\n\nCREATE TABLE orders (\n    id INTEGER\n);\n";
        assert_eq!(header_of(sql, "email TEXT"), Some(2));
        assert_eq!(header_of(sql, "id INTEGER"), Some(7));
        assert_eq!(header_of(sql, "CREATE TABLE orders ("), None);
        // The function over the `if` the line is nested in; tabs indent.
        let go = "// Max.\nfunc MaxLineLength(r io.Reader) int {\n\tlongest := 0\n\tfor s.Scan() {\n\t\tif n > longest {\n\t\t\tlongest = n\n\t\t}\n\t}\n\treturn longest\n}\n";
        assert_eq!(header_of(go, "longest = n"), Some(2));
        assert_eq!(header_of(go, "return longest"), Some(2));
        // A method over its class; a mapping's key where nothing defines.
        let py = "class Cart:\n    def total(self):\n        return sum(self.items)\n";
        assert_eq!(header_of(py, "return sum(self.items)"), Some(2));
        let yaml = "services:\n  web:\n    image: notes:1.4\n  db:\n    image: postgres:15\n";
        assert_eq!(header_of(yaml, "image: postgres:15"), Some(4));
        // Comments and closing lines open nothing.
        let js = "function f() {\n  // note\n    x();\n}\n";
        assert_eq!(header_of(js, "x();"), Some(1));
    }

    #[test]
    fn the_open_blocks_are_bounded() {
        let deep: String = (0..2_000)
            .map(|i| format!("{}x\n", " ".repeat(i)))
            .collect();
        let mut blocks = Blocks::default();
        for (i, l) in deep.lines().enumerate() {
            blocks.enter(i + 1, l);
            assert!(blocks.open.len() <= 16);
        }
    }
}
