//! A change a reply shows as a code block instead of making it: small models asked to add code
//! to a file often write the code in their reply (```` ```toml ```` with `[dependencies]` and
//! the new line, ```` ```rust ```` with the new function) and call no tool. This module reads
//! such a block against the file the request names and finds the one `edit` that puts the
//! block's new lines where the block shows them, adding only: lines the file already holds
//! anchor the block, every other line of it is new. Anything that looks like a line changed
//! rather than added — a name the file already defines, written another way; a new line in
//! the place of a file line much like it — gives no edit: applied, the file would hold both.
//!
//! `edit` shows what is found here to the model as the call to send
//! ([`crate::tools::Tool::change_shown`]); nothing here writes a file.

use super::asked;

/// The fenced code blocks of `reply` that are closed (a block cut off by the token limit is not
/// the code the model meant), each without its fences.
pub(crate) fn fenced_blocks(reply: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut open: Option<Vec<&str>> = None;
    for line in reply.lines() {
        let fence = line.trim_start().starts_with("```");
        match open.as_mut() {
            None if fence => open = Some(Vec::new()),
            None => {}
            Some(lines) if fence => {
                if line.trim() == "```" {
                    blocks.push(lines.join("\n"));
                    open = None;
                } else {
                    // A fence with a language tag inside a block: the block was never closed.
                    *lines = Vec::new();
                }
            }
            Some(lines) => lines.push(line.trim_end()),
        }
    }
    blocks
}

/// Whether `path` names a file of prose (Markdown, plain text), where any block the request
/// asks to add may go at the end.
fn is_prose(path: &str) -> bool {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    matches!(
        ext.to_ascii_lowercase().as_str(),
        "md" | "markdown" | "txt" | "rst" | "adoc"
    ) || !path.contains('.')
}

/// Keywords that may open a declaration before the name it binds, naming no kind of item
/// (Rust, JavaScript and TypeScript, Go, Kotlin, Java, Python's `async`).
const MODIFIERS: &[&str] = &[
    "pub",
    "pub(crate)",
    "async",
    "export",
    "default",
    "let",
    "mut",
    "var",
    "val",
    "final",
    "readonly",
    "public",
    "private",
    "protected",
    "declare",
    // Perl's package and lexical variables (`our $VERSION = '0.23';`).
    "our",
    "my",
    // F#'s `let mutable`, C#'s, F#'s and Kotlin's `internal`.
    "mutable",
    "internal",
];

/// Keywords that open an item of a module — a function, a type, a constant — rather than a
/// local binding (`let`, `var`).
pub(crate) const ITEMS: &[&str] = &[
    "fn",
    "def",
    "function",
    "class",
    "struct",
    "enum",
    "trait",
    "type",
    "interface",
    "impl",
    "mod",
    "const",
    "static",
];

/// `line` without the keywords a declaration opens with ([`MODIFIERS`], [`ITEMS`]), and whether
/// one of [`ITEMS`] was among them: `pub const MILES_TO_KM: f64 = 1.609;` is `MILES_TO_KM: f64 =
/// 1.609;`, an item. A keyword followed by `=` or `:` is a name itself (`static = true`).
pub(crate) fn declared(line: &str) -> (&str, bool) {
    let mut rest = line.trim_start();
    let mut item = false;
    while let Some((w, after)) = MODIFIERS.iter().chain(ITEMS).find_map(|w| {
        rest.strip_prefix(w)
            .filter(|r| {
                r.starts_with(char::is_whitespace) && !r.trim_start().starts_with(['=', ':'])
            })
            .map(|r| (*w, r))
    }) {
        rest = after.trim_start();
        item |= ITEMS.contains(&w);
    }
    (rest, item)
}

/// The name `line` defines, when it is a definition (`fn km_to_miles(`, `def price_of(`,
/// `pub const MILES_TO_KM: f64 = …`, `class Cart:`) or assigns a name at its start (`LIMIT =
/// 3`, `serde = "1"`); `None` otherwise.
fn defined_name(line: &str) -> Option<&str> {
    definition(line).map(|(name, _)| name)
}

/// Whether `line` opens an item of a module (see [`ITEMS`]): a block that holds one is code to
/// add, where `let x = f(5);` is a usage example.
fn defines_item(line: &str) -> bool {
    definition(line).is_some_and(|(_, item)| item)
}

/// The name `line` defines (see [`defined_name`]) and whether one of [`ITEMS`] opened it.
fn definition(line: &str) -> Option<(&str, bool)> {
    let (rest, item) = declared(line);
    let keyword = rest.len() < line.trim_start().len();
    let end = rest
        .find(|c: char| !asked::is_name_char(c))
        .unwrap_or(rest.len());
    let name = &rest[..end];
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let after = rest[end..].trim_start();
    let defines = if keyword {
        true
    } else {
        // An assignment: `=`, not `==`.
        after.starts_with('=') && !after.starts_with("==")
    };
    defines.then_some((name, item))
}

/// The file's definitions: each defined name with the line that defines it.
fn definitions(lines: &[&str]) -> Vec<(String, String)> {
    lines
        .iter()
        .filter_map(|l| Some((defined_name(l)?.to_owned(), l.trim().to_owned())))
        .collect()
}

/// Lines that tell no place in a file, however often it holds them.
const BARE: &[&str] = &[
    "pass",
    "return",
    "return;",
    "break",
    "break;",
    "continue",
    "continue;",
    "else",
    "else:",
    "} else {",
    "end",
    "done",
    "fi",
    "esac",
    "});",
    "})",
    "try:",
    "finally:",
];

/// Whether `a` and `b` read as one line written two ways (most of their characters the same):
/// a block line like that in the place of a file line changes it.
fn much_alike(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim(), b.trim());
    a != b && a.len().max(b.len()) >= 6 && strsim::normalized_levenshtein(a, b) >= 0.6
}

/// The edit (`old_text`, `new_text`) of `text`, the file `path`, that adds what `block` shows:
///
/// - when some of the block's lines are lines of the file, each once in it (anchors), and they
///   come in the file's order with no file line between two of them left out, the block's other
///   lines go in between or around them as the block places them — the span from the first
///   anchor to the last is replaced by itself with the new lines in (a section's header and
///   its new entry; the whole file with a line added);
/// - when none is, the block goes at the end of the file, after a blank line — only when it defines an item (a function, a
///   test, a constant: see [`ITEMS`]) or the file is prose: a usage example is no code to add.
///
/// `None` when the block adds nothing, changes a line rather than adding one (see the module
/// doc), or its anchors do not line up.
pub(crate) fn snippet_edit(text: &str, path: &str, block: &str) -> Option<(String, String)> {
    let file: Vec<&str> = text.lines().collect();
    let mut shown: Vec<&str> = block.lines().map(str::trim_end).collect();
    // A first line that only names the file (`// src/lib.rs`, `# tests/test_shop.py`) says
    // where the block goes; it is no line of the file (session 28: added as a comment).
    let name = path.rsplit('/').next().unwrap_or(path);
    if let Some(first) = shown.first()
        && let Some(said) = ["//", "#", "--", "/*", "<!--"]
            .iter()
            .find_map(|c| first.trim().strip_prefix(c))
        && said
            .trim()
            .trim_end_matches("*/")
            .trim_end_matches("-->")
            .trim()
            .ends_with(name)
    {
        shown.remove(0);
    }
    while shown.first().is_some_and(|l| l.trim().is_empty()) {
        shown.remove(0);
    }
    while shown.last().is_some_and(|l| l.trim().is_empty()) {
        shown.pop();
    }
    if shown.is_empty() {
        return None;
    }
    // The file line each block line is, when it is one the file holds once and tells a place:
    // a closing `}` or a bare `pass` held once is no anchor (a new function's `}` would place
    // the function before the file's last one).
    let once = |l: &str| {
        let t = l.trim();
        if t.chars().filter(|c| c.is_alphanumeric()).count() < 3 || BARE.contains(&t) {
            return None;
        }
        let mut at = (0..file.len()).filter(|&k| file[k].trim() == t);
        let k = at.next()?;
        at.next().is_none().then_some(k)
    };
    let mut anchors: Vec<(usize, usize)> = (0..shown.len())
        .filter_map(|i| Some((i, once(shown[i])?)))
        .collect();
    // A line next to an anchor that is the file's next line there anchors too (`pass` after
    // `def g():`, the `}` after a function's last line), blank lines aside on both sides.
    let next = |lines: &[&str], from: usize, step: isize| {
        let mut k = from as isize + step;
        while k >= 0 && (k as usize) < lines.len() && lines[k as usize].trim().is_empty() {
            k += step;
        }
        (k >= 0 && (k as usize) < lines.len()).then_some(k as usize)
    };
    let mut grown = true;
    while grown {
        grown = false;
        for (i, k) in anchors.clone() {
            for step in [1, -1] {
                if let (Some(j), Some(m)) = (next(&shown, i, step), next(&file, k, step))
                    && shown[j].trim() == file[m].trim()
                    && !anchors.iter().any(|&(a, b)| a == j || b == m)
                {
                    anchors.push((j, m));
                    grown = true;
                }
            }
        }
    }
    anchors.sort_unstable();
    let new: Vec<usize> = (0..shown.len())
        .filter(|&i| {
            let t = shown[i].trim();
            !t.is_empty() && !anchors.iter().any(|&(a, _)| a == i)
        })
        .collect();
    if new.is_empty() {
        return None;
    }
    // A name the file defines, defined again another way: a change, not an addition.
    let defined = definitions(&file);
    if new.iter().any(|&i| {
        defined_name(shown[i]).is_some_and(|name| {
            defined
                .iter()
                .any(|(n, line)| n == name && line != shown[i].trim())
        })
    }) {
        return None;
    }
    if anchors.is_empty() {
        if let Some(edit) = sibling_edit(&file, &shown) {
            return Some(edit);
        }
        let defines = shown.iter().any(|l| defines_item(l));
        if !(defines || is_prose(path)) {
            return None;
        }
        return appended(&file, &shown);
    }
    // The anchors in the file's order, with nothing of the file between two of them left out
    // but blank lines.
    for pair in anchors.windows(2) {
        let (from, to) = (pair[0].1, pair[1].1);
        if to <= from || file[from + 1..to].iter().any(|l| !l.trim().is_empty()) {
            return None;
        }
    }
    let (first, last) = (anchors[0].1, anchors[anchors.len() - 1].1);
    // The file line that follows the last anchor, and the one before the first: a new line
    // next to one much like it takes its place rather than joining it.
    let after = file[last + 1..].iter().find(|l| !l.trim().is_empty());
    let before = file[..first].iter().rev().find(|l| !l.trim().is_empty());
    let (first_i, last_i) = (anchors[0].0, anchors[anchors.len() - 1].0);
    for &i in &new {
        let neighbour = if i > last_i {
            after
        } else if i < first_i {
            before
        } else {
            None
        };
        if neighbour.is_some_and(|n| much_alike(n, shown[i])) {
            return None;
        }
    }
    // Indentation: the block's, moved by what the first anchor's moved.
    let indent = |l: &str| l.len() - l.trim_start().len();
    let shift = indent(file[first]) as isize - indent(shown[first_i]) as isize;
    let placed = |l: &str| -> String {
        if l.trim().is_empty() {
            return String::new();
        }
        let width = (indent(l) as isize + shift).max(0) as usize;
        format!("{}{}", " ".repeat(width), l.trim_start())
    };
    // The file's span with the block's new lines in: new lines before the first anchor, between
    // anchors (after the file's lines up to the next anchor), after the last.
    let mut out: Vec<String> = Vec::new();
    let mut k = first;
    for (i, line) in shown.iter().enumerate() {
        if let Some(&(_, at)) = anchors.iter().find(|&&(a, _)| a == i) {
            // The file's lines up to this anchor (blank ones between anchors), then it.
            while k < at {
                out.push(file[k].to_owned());
                k += 1;
            }
            out.push(file[at].to_owned());
            k = at + 1;
        } else if i > first_i && i < last_i && line.trim().is_empty() {
            // A blank line between anchors: the file's own blank lines stand for it.
        } else {
            out.push(placed(line));
        }
    }
    let old_text = file[first..=last].join("\n");
    let new_text = out.join("\n");
    (new_text != old_text).then_some((old_text, new_text))
}

/// Words that open a line that does something rather than declare one thing of a kind a file
/// lists: no block line opening with one is placed by its kind (see [`kind_of`]).
const NO_KIND: &[&str] = &[
    "if", "elif", "else", "for", "while", "until", "do", "done", "then", "fi", "case", "esac",
    "return", "echo", "print", "printf", "exit", "cd", "local", "assert", "raise", "throw", "try",
    "with", "match", "switch", "break", "continue", "yield", "await", "call",
];

/// The kind of line `line` is and the name it declares, when it is one line of a list of its
/// kind: a word of small letters at the start of an unindented line, then the name — `alias gl='git
/// log --oneline'` is (`alias`, `gl`), `export EDITOR=vim` (`export`, `EDITOR`), `set
/// tabstop=4` (`set`, `tabstop`), `import os` (`import`, `os`), `source ~/.aliases`
/// (`source`, `~/.aliases`). `None` for an indented line and for a word of [`NO_KIND`].
fn kind_of(line: &str) -> Option<(&str, &str)> {
    let line = line.trim_end();
    if !line.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let (word, rest) = line.split_once(' ')?;
    let rest = rest.trim_start();
    if word.len() < 2 || !word.chars().all(|c| c.is_ascii_lowercase()) || NO_KIND.contains(&word) {
        return None;
    }
    let name = rest
        .split(|c: char| c == '=' || c == '(' || c.is_whitespace())
        .next()
        .filter(|n| !n.is_empty())?;
    Some((word, name))
}

/// The edit that adds the block `shown` — lines of one kind the file lists (see [`kind_of`]),
/// none of them in the file — after the file's last line of that kind: a new `alias` after the
/// last `alias`, an `import` after the last `import`. `None` when the block holds another kind
/// of line, the file has no line of its kind, or a new line declares a name a line of the file
/// declares already (`alias gs='git status -s'` beside `alias gs='git status'`: a change, and
/// applied the file would hold both). Found running `toolmend run` on a folder of dotfiles
/// (session 31): asked "Add an alias gl for 'git log --oneline' to .bashrc.",
/// Qwen2.5-Coder-0.5B answered `alias gl='git log --oneline'` and called nothing.
pub(crate) fn sibling_edit(file: &[&str], shown: &[&str]) -> Option<(String, String)> {
    let lines: Vec<&str> = shown
        .iter()
        .copied()
        .filter(|l| !l.trim().is_empty())
        .collect();
    let (kind, _) = kind_of(lines.first()?)?;
    let mut names = Vec::new();
    for line in &lines {
        let (k, name) = kind_of(line)?;
        if k != kind || file.iter().any(|f| f.trim() == line.trim()) {
            return None;
        }
        names.push(name);
    }
    // The file's lines of that kind, with the names they declare.
    let siblings: Vec<(usize, &str)> = (0..file.len())
        .filter_map(|k| {
            kind_of(file[k])
                .filter(|(w, _)| *w == kind)
                .map(|(_, n)| (k, n))
        })
        .collect();
    if siblings.iter().any(|(_, n)| names.contains(n)) {
        return None;
    }
    let (last, _) = *siblings.last()?;
    // The last sibling, with as many lines before it as make it one place in the file.
    let old_text = file[once_from(file, last)?..=last].join("\n");
    let new_text = format!("{old_text}\n{}", lines.join("\n"));
    Some((old_text, new_text))
}

/// The one-line code a reply that has no fenced block shows: each span in backticks, and each
/// line of the reply that is a line of a kind (see [`kind_of`]) — `alias gl='git log
/// --oneline'` written as the whole answer.
pub(crate) fn unfenced_lines(reply: &str) -> Vec<&str> {
    let mut out: Vec<&str> = reply
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::trim)
        .filter(|s| !s.is_empty() && !s.contains('\n'))
        .collect();
    out.extend(
        reply
            .lines()
            .map(str::trim)
            .filter(|l| !l.contains('`') && kind_of(l).is_some()),
    );
    out
}

/// The edit that adds `shown` at the end of `file`, after a blank line: the file's last lines
/// (as few as are written once in it, the last one that is not blank to start) and the block.
fn appended(file: &[&str], shown: &[&str]) -> Option<(String, String)> {
    let last = (0..file.len())
        .rev()
        .find(|&k| !file[k].trim().is_empty())?;
    let old_text = file[once_from(file, last)?..=last].join("\n");
    let new_text = format!("{old_text}\n\n{}", shown.join("\n"));
    Some((old_text, new_text))
}

/// The first of the fewest lines ending at line `last` of `file` that are written once in it:
/// an edit's old text that names one place.
fn once_from(file: &[&str], last: usize) -> Option<usize> {
    let text = file.join("\n");
    (0..=last)
        .rev()
        .find(|&k| text.matches(&file[k..=last].join("\n")).count() == 1)
}

#[cfg(test)]
mod tests {
    use super::{defined_name, fenced_blocks, snippet_edit, unfenced_lines};

    fn apply(text: &str, path: &str, block: &str) -> Option<String> {
        let (old, new) = snippet_edit(text, path, block)?;
        assert_eq!(text.matches(old.as_str()).count(), 1, "{old}");
        Some(text.replacen(old.as_str(), &new, 1))
    }

    /// Found running `toolmend run` on a folder of dotfiles (session 31): the model answered
    /// the alias to add and called nothing.
    #[test]
    fn a_line_of_a_listed_kind_goes_after_the_last_of_its_kind() {
        let bashrc = "export EDITOR=vim\n\nalias ll='ls -la'\nalias gs='git status'\n\nfi\n";
        assert_eq!(
            apply(bashrc, ".bashrc", "alias gl='git log --oneline'").as_deref(),
            Some(
                "export EDITOR=vim\n\nalias ll='ls -la'\nalias gs='git status'\nalias gl='git log --oneline'\n\nfi\n"
            )
        );
        let py = "import os\nimport sys\n\ndef f():\n    pass\n";
        assert_eq!(
            apply(py, "m.py", "import re").as_deref(),
            Some("import os\nimport sys\nimport re\n\ndef f():\n    pass\n")
        );
        // A name the file declares already, another kind, a word that does something, a kind
        // the file does not list: no edit.
        for block in [
            "alias gs='git status -s'",
            "alias gl='git log'\nexport X=1",
            "echo hi",
            "source ~/.aliases",
        ] {
            assert_eq!(snippet_edit(bashrc, ".bashrc", block), None, "{block}");
        }
        assert_eq!(
            unfenced_lines("Sure.\n`alias gl='x'` or\nalias gm='y'\n"),
            ["alias gl='x'", "alias gm='y'"]
        );
    }

    #[test]
    fn closed_blocks_only() {
        let reply = "Here:\n```toml\n[dependencies]\nserde = \"1\"\n```\nand\n```rust\nfn f() {";
        assert_eq!(fenced_blocks(reply), ["[dependencies]\nserde = \"1\""]);
        assert!(fenced_blocks("no code").is_empty());
    }

    #[test]
    fn names_a_line_defines() {
        for (line, name) in [
            ("pub fn km_to_miles(km: f64) -> f64 {", "km_to_miles"),
            ("def price_of(item):", "price_of"),
            ("pub const MILES_TO_KM: f64 = 1.609;", "MILES_TO_KM"),
            ("export async function load() {", "load"),
            ("serde = \"1\"", "serde"),
            ("    LIMIT = 3", "LIMIT"),
        ] {
            assert_eq!(defined_name(line), Some(name), "{line}");
        }
        for line in ["if x == 1:", "assert_eq!(f(1.0), 2.0);", "}", "return x"] {
            assert_eq!(defined_name(line), None, "{line}");
        }
    }

    /// Found running `toolmend run` on a small Rust crate (session 28): asked to add serde to
    /// the dependencies in Cargo.toml, Qwen2.5-Coder-0.5B answered with the TOML to add.
    #[test]
    fn new_lines_go_where_the_anchors_place_them() {
        let cargo = "[package]\nname = \"units\"\n\n[dependencies]\n";
        assert_eq!(
            apply(cargo, "Cargo.toml", "[dependencies]\nserde = \"1\"\n").as_deref(),
            Some("[package]\nname = \"units\"\n\n[dependencies]\nserde = \"1\"\n")
        );
        // The whole file with a line added, blank lines kept; a new line before the first
        // anchor; indentation moved with the anchors'.
        let py = "def f(x):\n    return x\n\n\ndef g():\n    pass\n";
        assert_eq!(
            apply(
                py,
                "m.py",
                "def f(x):\n    \"\"\"Identity.\"\"\"\n    return x\n\ndef g():\n    pass"
            )
            .as_deref(),
            Some("def f(x):\n    \"\"\"Identity.\"\"\"\n    return x\n\n\ndef g():\n    pass\n")
        );
        let nested = "class A:\n    def f(self):\n        return 1\n";
        assert_eq!(
            apply(nested, "a.py", "def f(self):\n    # one\n    return 1").as_deref(),
            Some("class A:\n    def f(self):\n        # one\n        return 1\n")
        );
        assert_eq!(
            apply("apples\npears\n", "t.txt", "plums\npears").as_deref(),
            Some("apples\nplums\npears\n")
        );
    }

    #[test]
    fn a_block_with_no_anchor_is_added_at_the_end_when_it_defines_something() {
        let lib = "pub fn a() -> u8 {\n    1\n}\n\npub const K: f64 = 1.609;\n";
        let f = "pub fn km_to_miles(km: f64) -> f64 {\n    km / K\n}";
        assert_eq!(
            apply(lib, "src/lib.rs", f).as_deref(),
            Some(&*format!("{lib}\n{f}\n"))
        );
        // A first line naming the file is left out (session 28, the same request).
        assert_eq!(
            apply(lib, "src/lib.rs", &format!("// src/lib.rs\n{f}")).as_deref(),
            Some(&*format!("{lib}\n{f}\n"))
        );
        // The file ends with a line written twice in it: as many last lines as make it one.
        let tests = "#[test]\nfn a() {\n    f();\n}\n\n#[test]\nfn b() {\n    g();\n}\n";
        let t = "#[test]\nfn c() {\n    h();\n}";
        assert_eq!(
            apply(tests, "tests/t.rs", t).as_deref(),
            Some(&*format!("{tests}\n{t}\n"))
        );
        // Prose takes any block; code only one that defines something.
        assert_eq!(
            apply("# Notes\n", "NOTES.md", "- buy milk").as_deref(),
            Some("# Notes\n\n- buy milk\n")
        );
        assert_eq!(apply(lib, "src/lib.rs", "let x = km_to_miles(5.0);"), None);
    }

    #[test]
    fn a_line_changed_rather_than_added_gives_no_edit() {
        let lib = "pub fn a() {}\n\npub const MILES_TO_KM: f64 = 1.609;\n";
        // The constant written again without `pub` (a reply that meant to change its value).
        assert_eq!(
            apply(lib, "src/lib.rs", "const MILES_TO_KM: f64 = 1.609;"),
            None
        );
        // A body line in the place of the one after the anchor.
        let py = "def f(x):\n    return x + 1\n";
        assert_eq!(apply(py, "m.py", "def f(x):\n    return x + 2"), None);
        // Anchors out of order, or a file line between them left out.
        let fruit = "apples\npears\nplums\n";
        assert_eq!(apply(fruit, "t.txt", "pears\nfigs\napples"), None);
        assert_eq!(apply(fruit, "t.txt", "apples\nfigs\nplums"), None);
        // Nothing new.
        assert_eq!(apply(fruit, "t.txt", "apples\npears"), None);
    }
}
