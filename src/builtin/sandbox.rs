//! The root directory the built-in tools are confined to.
//!
//! Every path a model gives is resolved here before anything touches the file system:
//! absolute paths are refused (with a suggestion of `"."` or the relative form), `..` may not
//! climb above the root, and every existing component is checked for symbolic links — a link
//! (or a linked parent directory) whose target lies outside the root is refused. Paths that do
//! not exist yet (a file about to be written) are resolved through their deepest existing
//! ancestor, which gets the same checks. The sandbox guards against a model's mistakes, not a
//! concurrent adversary on the same machine: a link swapped in between the check and the use is
//! not caught.

use std::io;
use std::path::{Component, Path, PathBuf};

use crate::tools::Failure;

/// A root directory and the rules for resolving model-given paths inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sandbox {
    root: PathBuf,
}

/// The one item of `items`, or `None` when there are none or several.
fn only<T>(mut items: impl Iterator<Item = T>) -> Option<T> {
    let first = items.next()?;
    items.next().is_none().then_some(first)
}

impl Sandbox {
    /// A sandbox rooted at `root` (canonicalised; must be an existing directory).
    ///
    /// # Errors
    /// The I/O error when `root` does not exist or is not a directory.
    pub fn new(root: impl AsRef<Path>) -> io::Result<Self> {
        let root = std::fs::canonicalize(root.as_ref())?;
        if !root.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("{} is not a directory", root.display()),
            ));
        }
        Ok(Self { root })
    }

    /// The canonical root directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Resolves a model-given `path` to an absolute path inside the root. The path need not exist.
    ///
    /// # Errors
    /// [`Failure::Denied`] for absolute paths, `..` above the root and symbolic links leading
    /// out; [`Failure::InvalidArgs`] for a path that cannot name a file (a NUL byte, a name too
    /// long); [`Failure::Transient`] for other I/O errors than "not found".
    pub fn resolve(&self, tool: &str, path: &str) -> Result<PathBuf, Failure> {
        let given = path.trim();
        let given = if given.is_empty() { "." } else { given };
        let p = Path::new(given);
        // `~` and `~/…` mean a home folder; `~notes` is a file name like any other.
        if p.has_root() || given == "~" || given.starts_with("~/") || p.is_absolute() {
            return Err(Failure::denied(tool, self.absolute_message(tool, given)));
        }
        let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
        for c in p.components() {
            match c {
                Component::CurDir => {}
                Component::ParentDir => {
                    if parts.pop().is_none() {
                        return Err(Failure::denied(
                            tool,
                            format!(
                                "`{given}` leads outside the workspace root through `..`; only paths inside the root are allowed. {}",
                                relative_hint(tool)
                            ),
                        ));
                    }
                }
                Component::Normal(s) => parts.push(s),
                Component::RootDir | Component::Prefix(_) => {
                    return Err(Failure::denied(tool, self.absolute_message(tool, given)));
                }
            }
        }
        let mut cur = self.root.clone();
        for (i, part) in parts.iter().enumerate() {
            cur.push(part);
            match std::fs::symlink_metadata(&cur) {
                Ok(m) if m.file_type().is_symlink() => {
                    let shown = self.display(&cur);
                    let target = std::fs::canonicalize(&cur).map_err(|_| {
                        Failure::denied(
                            tool,
                            format!(
                                "`{shown}` is a symbolic link whose target does not exist or cannot be checked; it is not followed"
                            ),
                        )
                    })?;
                    if !target.starts_with(&self.root) {
                        return Err(Failure::denied(
                            tool,
                            format!(
                                "`{shown}` is a symbolic link to a place outside the workspace root; it is not followed. Use paths inside the root"
                            ),
                        ));
                    }
                    cur = target;
                }
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    for rest in &parts[i + 1..] {
                        cur.push(rest);
                    }
                    break;
                }
                Err(e) if e.kind() == io::ErrorKind::NotADirectory => {
                    return Err(Failure::invalid_args(
                        tool,
                        "/path",
                        format!(
                            "`{given}` goes through `{}`, which is a file, not a directory",
                            self.display(cur.parent().unwrap_or(&self.root))
                        ),
                    ));
                }
                Err(e) if is_bad_name(&e) => {
                    return Err(bad_name(tool, given, &e));
                }
                Err(e) => {
                    return Err(Failure::transient(
                        tool,
                        format!("cannot inspect `{}`: {e}", self.display(&cur)),
                    ));
                }
            }
        }
        Ok(cur)
    }

    /// Resolves `path` like [`Self::resolve`]; when that names nothing, tries in turn the near
    /// misses small models write, and resolves to the first that names exactly one entry, with a
    /// note for the model saying so:
    /// - the path without stray quotes around it (`."` for `.`, `'notes'`);
    /// - an entry of its directory with the same name once letter case and leading dots are set
    ///   aside (`.README.md` or `readme.md` for `README.md`, `.cargo.toml` for `Cargo.toml`);
    /// - the entry whose path ends with the path given (each component compared with case and
    ///   leading dots aside), when there is exactly one: a dropped leading folder
    ///   (`fuzz_targets/stream.rs` for `fuzz/fuzz_targets/stream.rs`, `meeting.md` for
    ///   `notes/meeting.md`, a folder as well as a file);
    /// - a file of that name (case and leading dots aside) anywhere below the root, when there
    ///   is exactly one (`docs/meeting.md` for `notes/meeting.md`);
    /// - an entry of its directory one edit away (a letter added, dropped, changed or two
    ///   swapped; case and leading dots aside), for names of six characters or more, when there
    ///   is exactly one (`tests/test_shop.py` for `tests/tests_shop.py`: Qwen2.5-Coder-0.5B sent
    ///   that `ls` three times until the run ended, session 27).
    ///
    /// For tools that only read: a read of the file the model plainly meant costs no turn. Two or
    /// more candidates, or none, leave the path as it is (the tool then reports it missing,
    /// naming what exists).
    ///
    /// # Errors
    /// As [`Self::resolve`], for `path` or for the entry found.
    pub fn resolve_near(
        &self,
        tool: &str,
        path: &str,
    ) -> Result<(PathBuf, Option<String>), Failure> {
        let abs = match self.resolve(tool, path) {
            Ok(abs) => abs,
            Err(refused) => {
                // An absolute path whose tail names an entry of the root: the entry, said so.
                let Some(tail) = self.existing_tail(path) else {
                    return Err(refused);
                };
                let entry = self.resolve(tool, &tail)?;
                let note = format!(
                    "(`{}` is outside the workspace; this is `{tail}`.)",
                    path.trim()
                );
                return Ok((entry, Some(note)));
            }
        };
        if abs.symlink_metadata().is_ok() {
            return Ok((abs, None));
        }
        let given = path.trim();
        let unquoted = given.trim_matches(['"', '\'', '`']);
        // Or a quote in the middle and text after it: the path ends before it (`."."`, the
        // root with a schema's quotes after it: a Maven project, session 37, where
        // Qwen2.5-Coder-0.5B sent it to glob three times until the run ended).
        let before = given
            .split(['"', '`'])
            .next()
            .filter(|b| !b.is_empty() && *b != given);
        if let Some(entry) = [unquoted]
            .into_iter()
            .filter(|u| *u != given && !u.is_empty())
            .chain(before)
            .find_map(|p| {
                self.resolve(tool, p)
                    .ok()
                    .filter(|e| e.symlink_metadata().is_ok())
            })
        {
            let note = format!(
                "(`{}` does not exist; this is `{}`.)",
                self.display(&abs),
                self.display(&entry)
            );
            return Ok((entry, Some(note)));
        }
        let (Some(parent), Some(name)) = (abs.parent(), abs.file_name()) else {
            return Ok((abs, None));
        };
        let key = near_key(&name.to_string_lossy());
        if key.is_empty() {
            return Ok((abs, None));
        }
        let mut found = None;
        for e in std::fs::read_dir(parent)
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
        {
            if near_key(&e.file_name().to_string_lossy()) == key {
                if found.is_some() {
                    return Ok((abs, None));
                }
                found = Some(e.path());
            }
        }
        if found.is_none() {
            // Nothing of that name where the model looked: the one entry whose path ends with
            // the path given (a dropped leading folder: `fuzz_targets/stream.rs` for
            // `fuzz/fuzz_targets/stream.rs`), else the one file of that name elsewhere below the
            // root (a dropped folder: `meeting.md`).
            let (ending, named) = self.entries_ending(&self.display(&abs), super::glob::MAX_WALK);
            found = ending.or(named);
        }
        if found.is_none() && key.chars().count() >= MIN_TYPO_NAME {
            // One letter off where the model looked (`tests/tests_shop.py` for
            // `tests/test_shop.py`): the one entry there at one edit.
            let mut near = std::fs::read_dir(parent)
                .into_iter()
                .flatten()
                .filter_map(Result::ok)
                .filter(|e| {
                    strsim::damerau_levenshtein(&near_key(&e.file_name().to_string_lossy()), &key)
                        == 1
                });
            if let (Some(one), None) = (near.next(), near.next()) {
                found = Some(one.path());
            }
        }
        let Some(entry) = found else {
            return Ok((abs, None));
        };
        // The entry goes through the same checks as any model-given path (a link leading out).
        let shown = self.display(&entry);
        let entry = self.resolve(tool, &shown)?;
        let note = format!(
            "(`{}` does not exist; this is `{shown}`.)",
            self.display(&abs)
        );
        Ok((entry, Some(note)))
    }

    /// The longest tail of the absolute path `given` — its leading components dropped — that
    /// names an existing entry below the root other than the root itself, as a relative path:
    /// `weatherlog/store.py` for `/path/to/weatherlog/store.py`. Small models copy placeholder
    /// prefixes (`/path/to/`) from their training data. `None` for a path that is not absolute
    /// (`/`, `~/`), or when no tail names anything.
    fn existing_tail(&self, given: &str) -> Option<String> {
        let given = given.trim();
        if !(given.starts_with(['/', '\\'])
            || given.starts_with("~/")
            || Path::new(given).is_absolute())
        {
            return None;
        }
        let parts: Vec<&str> = given
            .split(['/', '\\'])
            .filter(|c| !c.is_empty() && *c != "." && *c != "~")
            .collect();
        if parts.contains(&"..") {
            return None;
        }
        (0..parts.len()).find_map(|i| {
            let tail = parts[i..].join("/");
            let abs = self.resolve("read", &tail).ok()?;
            (abs != self.root && abs.symlink_metadata().is_ok()).then(|| self.display(&abs))
        })
    }

    fn absolute_message(&self, tool: &str, given: &str) -> String {
        let suggestion = Path::new(given)
            .strip_prefix(&self.root)
            .ok()
            .map(|rel| self.display(&self.root.join(rel)))
            .or_else(|| self.existing_tail(given));
        match suggestion {
            Some(rel) => format!(
                "`{given}` is an absolute path; paths are relative to the workspace root. Use {{\"path\": \"{rel}\"}}"
            ),
            None => format!(
                "`{given}` is an absolute path outside the workspace; paths are relative to the workspace root. {}",
                relative_hint(tool)
            ),
        }
    }

    /// The first entry of the root that `request` (a user's prompt) names: a word of it (see
    /// [`crate::tools::request_words`]) that is the relative path of an existing file
    /// (`want_dir` false) or folder (true) other than the root; for a file, failing that, the one
    /// file below the root a word with a dot names by its file name (`load.py` →
    /// `scripts/load.py`), then the root's manifest listing a dependency whose version it asks
    /// about, then the root's file holding the version of a language or tool the request asks
    /// about ([`crate::tools::version_files`]), then the one file below the root a word names
    /// by its stem (see [`crate::tools::word_names_stem`]: a word that is the stem or its
    /// plural first, a tool's own file after, a `Gemfile` deferring to the root's gemspec
    /// naming that; a word naming two files names none; the first 10,000 entries below the
    /// root are looked at), then two words naming a stem joined by `-` or `_` (in a question,
    /// before the one-word names), then the
    /// root's package.json for a script it lists
    /// ("the test script"). At most the first 200 words are looked at; nothing outside the
    /// root is ever named.
    pub fn first_named(&self, request: &str, want_dir: bool) -> Option<String> {
        let words: Vec<&str> = crate::tools::request_words(request).take(200).collect();
        let exact = words
            .iter()
            .enumerate()
            .filter(|&(i, _)| !names_whole(&words, i))
            // A one-letter word is a name of its own — the R language, not an R package's
            // `R/` folder (an R package, session 49: "What's the newest R release the GitHub
            // Actions check runs against?" searched `against` in `R/`) — unless written as a
            // path (`R/`) or called a folder ("the R folder").
            .filter(|&(i, w)| {
                w.chars().count() > 1
                    || words.get(i + 1).is_some_and(|next| {
                        ["folder", "directory", "dir"].contains(&next.to_lowercase().as_str())
                    })
            })
            .map(|(_, w)| *w)
            .filter(|w| !w.contains("..") && !w.starts_with(['/', '~', '\\']))
            .filter_map(|w| self.resolve("read", w).ok())
            .find(|abs| {
                *abs != self.root
                    && std::fs::metadata(abs)
                        .is_ok_and(|m| if want_dir { m.is_dir() } else { m.is_file() })
            })
            .map(|abs| self.display(&abs));
        if exact.is_some() || want_dir {
            return exact;
        }
        // No word is a file's path: a word that names exactly one file below the root by its
        // stem ("the meeting notes" → `notes/meeting.md`). A bounded look (this runs on every
        // answer given without a call): the first 10,000 entries.
        let files: Vec<(String, String)> =
            super::glob::walk_files_within(self, &self.root, false, super::glob::MAX_LOOK)
                .into_iter()
                .map(|f| {
                    let shown = self.display(&f);
                    (crate::tools::file_stem(&shown).to_owned(), shown)
                })
                .collect();
        // A word that is the name of exactly one file below the root, with its extension
        // ("What database file does load.py write to?" → `scripts/load.py`: a data folder,
        // session 32, where the question got a search for `database` instead).
        // The one file of `files` that `names` says a word of the request names.
        // Asked which version, a file holding none (`1.25.4`, `20.11`; not a size, `0.5rem`) is
        // not what a word names by its stem: "Which nginx image version does the Docker image
        // serve the app with?" is about the Dockerfile's `FROM nginx:1.25.4-alpine`, not
        // `nginx.conf` (a Vue/Vite application, session 47: the model read nginx.conf until
        // the run ended).
        let version = crate::tools::asks_version(request)
            .then(|| regex::Regex::new(r"(?:^|[^\w.])\d+\.\d+(?:\.\d+)*(?:[^\w.]|$)").ok())
            .flatten();
        let holds_version = |shown: &str| {
            let path = self.root.join(shown);
            version.as_ref().is_none_or(|re| {
                std::fs::metadata(&path).is_ok_and(|m| m.len() <= 256 * 1024)
                    && std::fs::read_to_string(&path).is_ok_and(|t| re.is_match(&t))
            })
        };
        let one_named = |word: fn(&str) -> bool,
                         names: &dyn Fn(&str, &(String, String)) -> bool| {
            crate::tools::request_words(request)
                .take(200)
                .filter(|w| word(w))
                .find_map(|w| {
                    only(
                        files
                            .iter()
                            .filter(|f| names(w, f))
                            .filter(|(_, shown)| holds_version(shown)),
                    )
                    .map(|(_, shown)| shown.clone())
                })
        };
        // Else two words side by side that are one file's stem joined by `-` or `_` ("the
        // seed list post" → `content/posts/seed-list.md`: a Hugo site, session 37); after the
        // one-word names ("make" names the Makefile before "docker compose" names
        // `docker-compose.yml`).
        let paired = || {
            only(
                files
                    .iter()
                    .filter(|(stem, _)| crate::tools::pair_names_stem(request, stem)),
            )
            .map(|(_, shown)| shown.clone())
        };
        // The project's own name (its README's title) is the project, not the settings
        // file named after it, unless the request says so ("the zest config"): "Let zest
        // keep up to 50000 series by default." is `src/registry.zig`'s
        // `default_max_series`, not `config/zest.json`'s `"max_series": 5000` (a Zig
        // service, session 49).
        // (The README is read only when a word may name a settings file by its stem.)
        let own = std::cell::OnceCell::new();
        let own = || own.get_or_init(|| super::grep::own_name(self, &self.root));
        let lower: Vec<String> = crate::tools::request_words(request)
            .take(200)
            .map(str::to_lowercase)
            .collect();
        let own_settings = || {
            own().as_ref().is_some_and(|own| {
                lower.windows(2).any(|p| {
                    crate::tools::possessor(&p[0]) == own.as_str()
                        && ["config", "configuration", "settings", "file"].contains(&p[1].as_str())
                })
            })
        };
        let settings = |shown: &str| {
            shown.rsplit_once('.').is_some_and(|(_, ext)| {
                ["json", "yaml", "yml", "toml", "ini", "conf", "cfg"]
                    .contains(&ext.to_ascii_lowercase().as_str())
            })
        };
        let own_word = |w: &str, shown: &str| {
            settings(shown)
                && own().as_deref() == Some(crate::tools::possessor(w).to_lowercase().as_str())
                && !own_settings()
        };
        one_named(
            |w| w.contains('.') && !w.contains(['/', '\\']),
            &|w, (_, shown)| shown.rsplit('/').next() == Some(w),
        )
        .or_else(|| self.manifest_listing(request))
        .or_else(|| {
            // A question about the CI: its one configuration file (a Dart package, session
            // 44: "Which Dart SDK version does CI run with?" was offered the read of
            // `lib/src/version.dart`, named by its stem; the workflow pins `DART_VERSION`).
            // Of several, the one named as the CI (a Julia package, session 51: `CI.yml`
            // beside `TagBot.yml`).
            if !crate::tools::names_ci(request) {
                return None;
            }
            let configs: Vec<&(String, String)> = files
                .iter()
                .filter(|(_, shown)| crate::tools::is_ci_config(shown))
                .collect();
            let named_ci = |shown: &str| {
                let file = shown.rsplit('/').next().unwrap_or(shown);
                ["ci", "test", "tests", "build", "check", "checks", "main"]
                    .contains(&crate::tools::file_stem(file).to_lowercase().as_str())
            };
            match configs.as_slice() {
                [(_, one)] => Some(one.clone()),
                several => only(several.iter().filter(|(_, shown)| named_ci(shown)))
                    .map(|(_, shown)| shown.clone()),
            }
        })
        .or_else(|| {
            // A question about the linter: its one configuration file in the root (see
            // `crate::tools::is_lint_config`).
            if !crate::tools::names_linter(request) {
                return None;
            }
            only(
                files
                    .iter()
                    .filter(|(_, shown)| crate::tools::is_lint_config(shown)),
            )
            .map(|(_, shown)| shown.clone())
        })
        .or_else(|| {
            // An environment's configuration, "the dev config" (see
            // `crate::tools::names_env_config`): the one file it names.
            only(
                files
                    .iter()
                    .filter(|(_, shown)| crate::tools::names_env_config(request, shown)),
            )
            .map(|(_, shown)| shown.clone())
        })
        .or_else(|| {
            // The oldest version of a language the project supports ("What is the minimum
            // Node.js version the app supports?"): the root's manifest stating it, before the
            // version file of the version it is developed with (`.nvmrc`).
            crate::tools::requirement_files(request)
                .into_iter()
                .find(|(f, marker)| {
                    let path = self.root.join(f);
                    std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() <= 256 * 1024)
                        && std::fs::read_to_string(&path).is_ok_and(|t| t.contains(marker))
                })
                .map(|(f, _)| f.to_owned())
        })
        .or_else(|| {
            // A language's or tool's version ("Which Node version …?"): the root's file
            // holding it, before a file a word names by its stem (`gradle.properties` for
            // "Which Gradle version …?" holds the daemon's settings, not the version).
            crate::tools::version_files(request)
                .into_iter()
                .find(|f| self.root.join(f).is_file())
                .map(str::to_owned)
        })
        // A word after "in" ("in the compose setup") names where the request is about, before
        // the other words naming files: "Upgrade the Prometheus container in the compose setup
        // to v2.54.1." is `docker-compose.yml`'s `image: prom/prometheus:v2.53.0`, not the
        // `deploy/prometheus.yml` "Prometheus" names (a Zig service, session 49: offered no
        // change).
        .or_else(|| {
            let words = &lower;
            words.iter().enumerate().find_map(|(i, w)| {
                if w != "in" {
                    return None;
                }
                let mut at = i + 1;
                if words
                    .get(at)
                    .is_some_and(|d| ["the", "my", "our", "this", "its"].contains(&d.as_str()))
                {
                    at += 1;
                }
                let place = words.get(at)?;
                only(files.iter().filter(|(stem, shown)| {
                    crate::tools::word_names_stem(place, stem) && holds_version(shown)
                }))
                .map(|(_, shown)| shown.clone())
            })
        })
        // In a question, two words naming a file are the setting it asks about, before a
        // word naming another (a Zig service, session 49: "When I run the stack with docker
        // compose, which port on my machine should I send StatsD packets to?" is about
        // `docker-compose.yml`'s `"9125:8125/udp"`, not `src/statsd.zig`); a change's pair may
        // be what it writes ("Add a make target ps that runs docker compose ps.").
        .or_else(|| request.trim_end().ends_with('?').then(paired).flatten())
        .or_else(|| {
            // A word that is a file's stem (or its plural) before one that names a tool's own
            // file (`gem` → `Gemfile`): "Bump the gem version to 0.5.0." is about
            // `lib/tidewatch/version.rb` (a Ruby gem, session 38: the model read the Gemfile
            // until the run ended).
            // A possessive's `'s` aside: "the chart's version" names `Chart.yaml` (a Helm
            // chart, session 42).
            let plain = |w: &str| {
                crate::tools::possessor(w)
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
            };
            one_named(plain, &|w, (stem, shown)| {
                !own_word(w, shown) && {
                    let w = crate::tools::possessor(w);
                    w.chars().count() >= 3 && crate::tools::same_word(w, stem)
                }
            })
            .map(|named| {
                // A variant of the file named whose word the request says too: "the
                // production values file" is `values-prod.yaml` (a Helm chart, session 42).
                let mut variants = files.iter().filter(|(_, shown)| {
                    crate::tools::variant_word(&named, shown)
                        .is_some_and(|v| crate::tools::variant_said(&lower, &v))
                });
                match (variants.next(), variants.next()) {
                    (Some((_, one)), None) => one.clone(),
                    _ => named,
                }
            })
            .or_else(|| {
                // Not the verb opening a request: "Make focus sessions last 50 minutes …" is no
                // word about the Makefile (a Lua plugin, session 42).
                let opening = crate::tools::request_words(request).next();
                // Nor a word of two that name another file together: "docker compose" is
                // `docker-compose.yml`, not the Dockerfile "docker" names alone (a Zig service,
                // session 49: asked which port to send StatsD packets to "when I run the stack
                // with docker compose", the look searched "docker compose" in prose).
                let pairs: Vec<String> = files
                    .iter()
                    .filter(|(stem, _)| crate::tools::pair_names_stem(request, stem))
                    .flat_map(|(stem, _)| {
                        stem.to_lowercase()
                            .split(['-', '_'])
                            .map(str::to_owned)
                            .collect::<Vec<_>>()
                    })
                    .collect();
                one_named(plain, &|w, (stem, shown)| {
                    if own_word(w, shown) {
                        return false;
                    }
                    let verb = opening.is_some_and(|o| std::ptr::eq(o, w))
                        && !request.trim_end().ends_with('?')
                        && !crate::tools::same_word(w, stem);
                    let of_pair = !crate::tools::same_word(w, stem)
                        && pairs.iter().any(|p| p.eq_ignore_ascii_case(w))
                        && !crate::tools::pair_names_stem(request, stem);
                    !verb && !of_pair && crate::tools::word_names_stem(w, stem)
                })
                .map(|named| self.gemspec_of(named))
            })
        })
        .or_else(paired)
        .or_else(|| self.script_named(request))
        .or_else(|| {
            // Last, a participle before a noun names its verb's file: "cached responses" is
            // about `cache.dart` (see `crate::tools::participle_names_stem`).
            let verbs = crate::tools::participle_verbs(request);
            only(
                files
                    .iter()
                    .filter(|(stem, _)| verbs.iter().any(|v| stem.eq_ignore_ascii_case(v))),
            )
            .map(|(_, shown)| shown.clone())
        })
    }

    /// The root's one `*.gemspec` for a root `Gemfile` with a `gemspec` line (Bundler's: the
    /// gem's dependencies are its gemspec's, and so are its name and version), else `named`.
    /// Found with a Ruby gem (session 38): asked "Which gem does tidewatch use for time
    /// zones?", the look searched the Gemfile's words elsewhere; its dependency `tzinfo` is in
    /// `tidewatch.gemspec`.
    fn gemspec_of(&self, named: String) -> String {
        if named != "Gemfile" {
            return named;
        }
        let defers = std::fs::metadata(self.root.join("Gemfile"))
            .is_ok_and(|m| m.len() <= 256 * 1024)
            && std::fs::read_to_string(self.root.join("Gemfile"))
                .is_ok_and(|t| t.lines().any(|l| l.trim() == "gemspec"));
        let mut specs = std::fs::read_dir(&self.root)
            .into_iter()
            .flatten()
            .take(10_000)
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.ends_with(".gemspec"));
        match (defers, specs.next(), specs.next()) {
            (true, Some(spec), None) => spec,
            _ => named,
        }
    }

    /// The root's manifest ([`crate::tools::MANIFESTS`], the first in that order) that lists a
    /// word of `request` as a dependency with a version ([`crate::tools::manifest_dependency`]),
    /// for a request that asks about a version and names no file of the root holding a
    /// language's version ([`crate::tools::version_files`]): what the project requires is there,
    /// not in the dependency's own config file. Found with a PHP library (session 39): asked
    /// "Which version of PHPUnit do the tests use?", Qwen2.5-Coder-0.5B was offered the read of
    /// `phpunit.xml` (named by its stem) and answered `1.0` from its `<?xml version="1.0"?>`;
    /// asked "Which PHP version does the package require?", it searched for `version` and
    /// found only that line — composer.json says `"php": ">=8.1"` and `"phpunit/phpunit":
    /// "^10.5"`. Each manifest is read only when it is at most 256 KiB.
    fn manifest_listing(&self, request: &str) -> Option<String> {
        if let Some(lock) = self.lock_listing(request) {
            return Some(lock);
        }
        if !crate::tools::asks_version(request)
            || crate::tools::version_files(request)
                .iter()
                .any(|f| self.root.join(f).is_file())
        {
            return None;
        }
        let words: Vec<&str> = crate::tools::request_words(request)
            .take(200)
            .filter(|w| w.chars().count() >= 3)
            .filter(|w| !w.eq_ignore_ascii_case("version") && !w.eq_ignore_ascii_case("versions"))
            .collect();
        crate::tools::MANIFESTS.iter().find_map(|m| {
            let path = self.root.join(m);
            if !std::fs::metadata(&path).is_ok_and(|md| md.is_file() && md.len() <= 256 * 1024) {
                return None;
            }
            let text = std::fs::read_to_string(&path).ok()?;
            words
                .iter()
                .any(|w| crate::tools::manifest_dependency(&text, w))
                .then(|| (*m).to_owned())
        })
    }

    /// The root's lock file that pins a word of `request` (a package's name, three letters or
    /// more), for a request that speaks of what is locked ("locked to", "the lockfile"): the
    /// version resolved is there, not in the manifest's range. Found with a Gleam feed relay
    /// (session 54): asked "Which exact version of wisp is the project locked to?", the look
    /// searched `lock`, which the code's comments hold; Gleam's `manifest.toml` pins `{ name =
    /// "wisp", version = "1.5.1", … }`. A lock file is read only when it is at most 256 KiB.
    fn lock_listing(&self, request: &str) -> Option<String> {
        if !crate::tools::speaks_of_lock(request) {
            return None;
        }
        let words: Vec<String> = crate::tools::request_words(request)
            .take(200)
            .map(str::to_lowercase)
            .collect();
        let names: Vec<&String> = words
            .iter()
            .filter(|w| w.chars().count() >= 3 && !w.starts_with("lock"))
            .filter(|w| {
                !["version", "versions", "exact", "which", "what", "project"].contains(&w.as_str())
            })
            .collect();
        crate::tools::LOCK_FILES.iter().find_map(|lock| {
            // Gleam's lock is `manifest.toml`, beside `gleam.toml`.
            if *lock == "manifest.toml" && !self.root.join("gleam.toml").is_file() {
                return None;
            }
            let path = self.root.join(lock);
            if !std::fs::metadata(&path).is_ok_and(|md| md.is_file() && md.len() <= 256 * 1024) {
                return None;
            }
            let text = std::fs::read_to_string(&path).ok()?.to_lowercase();
            let lines: Vec<&str> = text.lines().take(20_000).collect();
            let versioned = |l: &str| crate::tools::dotted_number(l);
            let pins = |name: &str| {
                lines.iter().enumerate().any(|(i, l)| {
                    l.match_indices(name).any(|(at, _)| {
                        let joined = |c: Option<char>| {
                            c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-')
                        };
                        !joined(l[..at].chars().next_back())
                            && !joined(l[at + name.len()..].chars().next())
                    }) && (versioned(l) || lines.get(i + 1).is_some_and(|n| versioned(n)))
                })
            };
            names.iter().any(|n| pins(n)).then(|| (*lock).to_owned())
        })
    }

    /// `package.json` when `request` speaks of a script ([`crate::tools::names_scripts`]) that
    /// the root's package.json lists by one of the request's words ("What does the test script
    /// run?" → `"test": "vitest run"`: a TypeScript package, session 33, where the look was the
    /// `ls` of the folder `test/`). Read only when it is at most 256 KiB.
    fn script_named(&self, request: &str) -> Option<String> {
        if !crate::tools::names_scripts(request) {
            return None;
        }
        let path = self.root.join("package.json");
        if std::fs::metadata(&path).ok()?.len() > 256 * 1024 {
            return None;
        }
        let package: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).ok()?).ok()?;
        let scripts = package.get("scripts")?.as_object()?;
        crate::tools::request_words(request)
            .take(200)
            .any(|w| scripts.contains_key(w))
            .then(|| "package.json".to_owned())
    }

    /// The entry below the root that `name` — what a model wrote where a tool's name belongs —
    /// is: a relative path of an existing file (`want_dir` false) or folder (true) other than
    /// the root, or the one file — or folder holding files — below the root with that name
    /// (case and leading dots aside; the first 10,000 entries are looked at). Shown relative
    /// to the root.
    pub fn entry_named(&self, name: &str, want_dir: bool) -> Option<String> {
        let name = name.trim();
        if name.is_empty() || name.contains("..") || name.starts_with(['/', '~', '\\']) {
            return None;
        }
        let is_kind = |abs: &Path| {
            std::fs::metadata(abs).is_ok_and(|m| if want_dir { m.is_dir() } else { m.is_file() })
        };
        if let Ok(abs) = self.resolve("read", name)
            && abs != self.root
            && is_kind(&abs)
        {
            return Some(self.display(&abs));
        }
        if name.contains(['/', '\\']) {
            return None;
        }
        if want_dir {
            // The one folder of that name at any depth (`count` for `internal/count`).
            let (found, _) = self.entries_ending(name, super::glob::MAX_LOOK);
            let abs = self.resolve("ls", &self.display(&found?)).ok()?;
            return is_kind(&abs).then(|| self.display(&abs));
        }
        let found = self.one_file_keyed(&near_key(name), super::glob::MAX_LOOK)?;
        // Through the same checks as any model-given path (a link leading out).
        let abs = self.resolve("read", &self.display(&found)).ok()?;
        Some(self.display(&abs))
    }

    /// The one file below the root whose name has `key` ([`near_key`]: case and leading dots
    /// aside), looking at `max` entries at most; `None` when there is none, or more than one.
    fn one_file_keyed(&self, key: &str, max: usize) -> Option<PathBuf> {
        let mut named = super::glob::walk_files_within(self, &self.root, false, max)
            .into_iter()
            .filter(|f| {
                f.file_name()
                    .is_some_and(|n| near_key(&n.to_string_lossy()) == key)
            });
        let first = named.next()?;
        named.next().is_none().then_some(first)
    }

    /// In one walk of `max` entries at most: the one entry below the root — a file, or a folder
    /// holding files — whose path ends with the components of `rel` (a relative path with `/`
    /// separators; each component compared by [`near_key`]: case and leading dots aside), and
    /// the one file whose name is `rel`'s last component (as [`Self::one_file_keyed`] finds it);
    /// each `None` when there is none, or more than one. `fuzz/fuzz_targets/stream.rs` ends
    /// `fuzz_targets/stream.rs` when `src/repair/stream.rs` is also there.
    fn entries_ending(&self, rel: &str, max: usize) -> (Option<PathBuf>, Option<PathBuf>) {
        /// Keeps the one candidate seen; a second, different one makes it none for good.
        fn one(slot: &mut Option<Option<PathBuf>>, entry: PathBuf) {
            match slot {
                None => *slot = Some(Some(entry)),
                Some(Some(f)) if *f != entry => *slot = Some(None),
                Some(_) => {}
            }
        }
        let want: Vec<String> = rel.split('/').map(near_key).collect();
        let (mut ending, mut named) = (None, None);
        for file in super::glob::walk_files_within(self, &self.root, false, max) {
            let Ok(below) = file.strip_prefix(&self.root) else {
                continue;
            };
            let parts: Vec<String> = below
                .components()
                .map(|c| near_key(&c.as_os_str().to_string_lossy()))
                .collect();
            if parts.last() == want.last() {
                one(&mut named, file.clone());
            }
            // The file itself and each folder it is in, by how many components they have.
            for len in want.len()..=parts.len() {
                if parts[len - want.len()..len] == want[..] {
                    let entry = self
                        .root
                        .join(below.components().take(len).collect::<PathBuf>());
                    one(&mut ending, entry);
                }
            }
        }
        (ending.flatten(), named.flatten())
    }

    /// `abs` relative to the root, with `/` separators; `.` for the root itself.
    pub fn display(&self, abs: &Path) -> String {
        match abs.strip_prefix(&self.root) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".into(),
            Ok(rel) => rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/"),
            Err(_) => abs.display().to_string(),
        }
    }

    /// A model's-fault failure for a path that does not exist, naming what does exist nearby:
    /// the entries of the deepest existing parent and the closest name. The suggestion is of
    /// the kind the tool takes: a directory for `ls` and `glob`, a file for `read` and `edit`,
    /// either for the others. Only `ls` and `read`, whose whole call is the path, get an
    /// example call (of the closest entry, else the first that fits): for the others a path
    /// alone is no valid call, and `edit` changes things.
    pub fn not_found(&self, tool: &str, abs: &Path) -> Failure {
        let wants_dir = matches!(tool, "ls" | "glob");
        let wants_file = matches!(tool, "read" | "edit");
        let fits = |n: &str| {
            if wants_dir {
                n.ends_with('/')
            } else if wants_file {
                !n.ends_with('/')
            } else {
                true
            }
        };
        let shown = self.display(abs);
        let mut dir = abs.parent().unwrap_or(&self.root).to_path_buf();
        // A folder that is not there but ends the path of exactly one folder elsewhere (a
        // dropped leading folder: `fuzz_targets/` for `fuzz/fuzz_targets/`): that folder's
        // entries are the ones meant.
        if !dir.is_dir()
            && dir.starts_with(&self.root)
            && let (Some(moved), _) =
                self.entries_ending(&self.display(&dir), super::glob::MAX_WALK)
            && moved.is_dir()
        {
            dir = moved;
        }
        while !dir.is_dir() && dir.starts_with(&self.root) && dir != self.root {
            dir = dir.parent().unwrap_or(&self.root).to_path_buf();
        }
        if !dir.starts_with(&self.root) {
            dir = self.root.clone();
        }
        let wanted = abs
            .file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .map(|rd| {
                rd.filter_map(Result::ok)
                    .map(|e| {
                        let mut n = e.file_name().to_string_lossy().into_owned();
                        if e.file_type().is_ok_and(|t| t.is_dir()) {
                            n.push('/');
                        }
                        n
                    })
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        let dir_shown = self.display(&dir);
        let prefix = if dir_shown == "." {
            String::new()
        } else {
            format!("{dir_shown}/")
        };
        let mut msg = format!("`{shown}` does not exist.");
        if names.is_empty() {
            msg.push_str(&format!(" `{dir_shown}` is empty."));
        } else {
            let best = names
                .iter()
                .filter(|n| fits(n))
                .map(|n| {
                    let score =
                        strsim::jaro_winkler(&wanted, &n.trim_end_matches('/').to_lowercase());
                    (score, n)
                })
                .max_by(|a, b| a.0.total_cmp(&b.0));
            let closest = best.filter(|(score, _)| *score > 0.7).map(|(_, n)| n);
            if let Some(n) = closest {
                msg.push_str(&format!(" Did you mean `{prefix}{n}`?"));
            }
            let shown_names: Vec<&str> = names.iter().take(40).map(String::as_str).collect();
            msg.push_str(&format!(
                " `{dir_shown}` contains: {}{}",
                shown_names.join(", "),
                if names.len() > 40 { ", …" } else { "" }
            ));
            let example = if !matches!(tool, "ls" | "read") {
                None
            } else if let Some(n) = closest {
                Some(format!("{prefix}{}", n.trim_end_matches('/')))
            } else if wants_dir {
                // A directory that exists: the first one listed, else the one listed.
                Some(names.iter().find(|n| n.ends_with('/')).map_or_else(
                    || dir_shown.clone(),
                    |d| format!("{prefix}{}", d.trim_end_matches('/')),
                ))
            } else {
                names
                    .iter()
                    .find(|n| !n.ends_with('/'))
                    .map(|f| format!("{prefix}{f}"))
            };
            if let Some(path) = example {
                msg.push_str(&format!(
                    ". For example: {{\"name\": \"{tool}\", \"arguments\": {{\"path\": \"{path}\"}}}}"
                ));
            }
        }
        Failure::invalid_args(tool, "/path", msg)
    }
}

/// The path itself cannot name a file (a NUL byte, a name longer than the file system allows):
/// the model's mistake, not the world's.
pub(super) fn is_bad_name(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::InvalidFilename | io::ErrorKind::InvalidInput
    )
}

/// The failure for a path that cannot name a file ([`is_bad_name`]).
pub(super) fn bad_name(tool: &str, given: &str, e: &io::Error) -> Failure {
    let shown: String = given.chars().take(80).collect();
    let more = if shown.len() < given.len() { "…" } else { "" };
    Failure::invalid_args(
        tool,
        "/path",
        format!(
            "`{shown}{more}` cannot be a file name ({e}); use a shorter path without control characters"
        ),
    )
}

/// The fewest characters of a name (leading dots aside) that a one-edit near miss is looked for
/// in (see [`Sandbox::resolve_near`]): shorter names are one edit from too many others (`nots`
/// for `notes/` is answered with a suggestion, not taken).
const MIN_TYPO_NAME: usize = 6;

/// A file name with letter case and leading dots set aside, for [`Sandbox::resolve_near`].
fn near_key(name: &str) -> String {
    name.trim_start_matches('.').to_lowercase()
}

/// What a path refused for leaving the root should be instead. A read-only tool gets `"."` as an
/// example (the root is a fine place to list or search); a tool that changes things gets no path
/// to copy — small models copy whatever they are shown, and `.` is no file to write — but the
/// `ls` call that shows which files there are.
fn relative_hint(tool: &str) -> &'static str {
    if super::READ_ONLY.contains(&tool) {
        "Use \".\" for the root itself, e.g. {\"path\": \".\"}"
    } else {
        "Give the path of a file relative to the root; to see which files there are, call {\"name\": \"ls\", \"arguments\": {\"path\": \".\"}}"
    }
}

/// Whether `words[i]` names the workspace as a whole, not a folder of that name: "project",
/// "repo", "repository", "codebase" or "workspace" after "the", "this", "my", "our" or "your",
/// not followed by "folder", "directory" or "dir". Found with a Scala/sbt service (session 44):
/// asked "Which Scala version does the project build with?", the look searched sbt's
/// `project/` folder, found only `sbt.version=1.9.8`, and Qwen2.5-Coder-0.5B answered `1.9.8`
/// (`scalaVersion := "2.13.12"` is in `build.sbt`).
fn names_whole(words: &[&str], i: usize) -> bool {
    const WHOLE: &[&str] = &["project", "repo", "repository", "codebase", "workspace"];
    const BEFORE: &[&str] = &["the", "this", "my", "our", "your"];
    let is = |w: Option<&&str>, set: &[&str]| {
        w.is_some_and(|w| set.iter().any(|s| w.eq_ignore_ascii_case(s)))
    };
    is(words.get(i), WHOLE)
        && i.checked_sub(1).is_some_and(|p| is(words.get(p), BEFORE))
        && !is(words.get(i + 1), &["folder", "directory", "dir"])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::FailureKind;

    /// Found running `toolmend run` on a data folder (session 32): asked "What database file
    /// does load.py write to?", with the file at `scripts/load.py`, the look was a search for
    /// `database`; the model answered with the schema's path.
    #[test]
    fn a_file_name_names_the_one_file_of_that_name_below_the_root() {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in [
            ("scripts/load.py", "x"),
            ("scripts/report.sql", "x"),
            ("sql/report.sql", "x"),
            ("data/orders.csv", "x"),
        ] {
            let abs = dir.path().join(path);
            std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
            std::fs::write(abs, text).unwrap();
        }
        let sb = Sandbox::new(dir.path()).unwrap();
        let named = |request: &str| sb.first_named(request, false);
        assert_eq!(
            named("What database file does load.py write to?").as_deref(),
            Some("scripts/load.py")
        );
        assert_eq!(
            named("How many orders are in orders.csv?").as_deref(),
            Some("data/orders.csv")
        );
        // Two files of that name: neither (nor the stem `report`, which names both).
        assert_eq!(named("What does report.sql compute?"), None);
        assert_eq!(named("What does main.py do?"), None);
    }

    /// Found with a Ruby gem (session 38): "gem" named the `Gemfile` (a tool's own file) before
    /// "version" named `lib/tidewatch/version.rb`, and the Gemfile, whose `gemspec` line says
    /// the gem's dependencies are its gemspec's, was the look for which gem it uses.
    #[test]
    fn a_stem_names_its_file_before_a_tools_own_file_and_a_gemfile_defers_to_the_gemspec() {
        let dir = tempfile::tempdir().unwrap();
        let write = |path: &str, text: &str| {
            let abs = dir.path().join(path);
            std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
            std::fs::write(abs, text).unwrap();
        };
        write("Gemfile", "source \"https://rubygems.org\"\n\ngemspec\n");
        write(
            "tidewatch.gemspec",
            "spec.add_dependency \"tzinfo\", \"~> 2.0\"\n",
        );
        write("lib/tidewatch/version.rb", "VERSION = \"0.4.1\"\n");
        write("Makefile", "test:\n\tcc -o t t.c\n");
        let sb = Sandbox::new(dir.path()).unwrap();
        let named = |request: &str| sb.first_named(request, false);
        assert_eq!(
            named("Bump the gem version to 0.5.0.").as_deref(),
            Some("lib/tidewatch/version.rb")
        );
        assert_eq!(
            named("Which gem does the project use for time zones?").as_deref(),
            Some("tidewatch.gemspec")
        );
        assert_eq!(
            named("Which make target runs the tests?").as_deref(),
            Some("Makefile")
        );
        // Named by its own name, the Gemfile is the Gemfile; without the `gemspec` line, the
        // Gemfile holds the gems.
        assert_eq!(
            named("What does the Gemfile hold?").as_deref(),
            Some("Gemfile")
        );
        write(
            "Gemfile",
            "source \"https://rubygems.org\"\n\ngem \"rails\"\n",
        );
        assert_eq!(
            named("Which gem does the app use for time zones?").as_deref(),
            Some("Gemfile")
        );
    }

    /// Found with a PHP library (session 39): "Which version of PHPUnit do the tests use?" was
    /// offered `phpunit.xml` (named by its stem, `<?xml version="1.0"?>` its only version) and
    /// "Which PHP version does the package require?" a search for `version`; both are
    /// composer.json's. A version question about a dependency the root's manifest lists is the
    /// manifest's — but for a language's own version file, and a name with no version listed.
    #[test]
    fn a_version_question_about_a_listed_dependency_names_the_manifest() {
        let dir = tempfile::tempdir().unwrap();
        let write = |path: &str, text: &str| std::fs::write(dir.path().join(path), text).unwrap();
        write(
            "composer.json",
            "{\n  \"name\": \"acme/invoicer\",\n  \"require\": {\"php\": \">=8.1\"},\n  \"require-dev\": {\"phpunit/phpunit\": \"^10.5\"},\n  \"scripts\": {\"test\": \"phpunit\"}\n}\n",
        );
        write("phpunit.xml", "<?xml version=\"1.0\"?>\n<phpunit/>\n");
        let sb = Sandbox::new(dir.path()).unwrap();
        let named = |request: &str| sb.first_named(request, false);
        for request in [
            "Which version of PHPUnit do the tests use?",
            "Which PHP version does the package require?",
        ] {
            assert_eq!(
                named(request).as_deref(),
                Some("composer.json"),
                "{request}"
            );
        }
        // No version asked, or a name listed without one: the stem's file, or nothing.
        assert_eq!(
            named("What does the PHPUnit config run?").as_deref(),
            Some("phpunit.xml")
        );
        assert_eq!(named("Which version of invoicer is this?"), None);
        // A language's version file comes first.
        write(".php-version", "8.3\n");
        write("package.json", "{\"engines\": {\"node\": \">=18\"}}\n");
        write(".nvmrc", "20\n");
        assert_eq!(
            named("Which Node version does the app use?").as_deref(),
            Some(".nvmrc")
        );
        // The oldest supported is the manifest's requirement (a Vue/Vite application, session
        // 47: `.nvmrc` was read for "What is the minimum Node.js version the app supports?").
        assert_eq!(
            named("What is the minimum Node.js version the app supports?").as_deref(),
            Some("package.json")
        );
        write("package.json", "{\"name\": \"app\"}\n");
        assert_eq!(
            named("What is the minimum Node.js version the app supports?").as_deref(),
            Some(".nvmrc")
        );
        let lists = crate::tools::manifest_dependency;
        assert!(lists("gem \"rake\", \"~> 13.0\"\n", "rake"));
        assert!(lists(
            "[dependencies]\nserde = { version = \"1\" }\n",
            "serde"
        ));
        assert!(lists("requests>=2.31\n", "requests"));
        assert!(lists(
            "require (\n\tgithub.com/spf13/cobra v1.8.0\n)\n",
            "cobra"
        ));
        assert!(!lists("gem \"rake\", \"~> 13.0\"\n", "gem"));
        assert!(!lists("# serde = \"1\"\n", "serde"));
    }

    /// Found with a Kotlin/Gradle application (session 40): "Which Gradle version does the
    /// wrapper download?" was offered `gradle.properties` (named by its stem: the daemon's
    /// settings); the version is in the wrapper's properties.
    #[test]
    fn a_tools_version_file_comes_before_a_file_its_name_names_by_stem() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("gradle/wrapper")).unwrap();
        let write = |path: &str, text: &str| std::fs::write(dir.path().join(path), text).unwrap();
        write("gradle.properties", "org.gradle.jvmargs=-Xmx2g\n");
        let sb = Sandbox::new(dir.path()).unwrap();
        let named = |request: &str| sb.first_named(request, false);
        let asked = "Which Gradle version does the wrapper download?";
        // The daemon's settings hold no version: no file is named (session 47).
        assert_eq!(named(asked), None);
        write(
            "gradle/wrapper/gradle-wrapper.properties",
            "distributionUrl=https\\://services.gradle.org/distributions/gradle-8.10.2-bin.zip\n",
        );
        assert_eq!(
            named(asked).as_deref(),
            Some("gradle/wrapper/gradle-wrapper.properties")
        );
        // No version asked: the stem's file.
        assert_eq!(
            named("How much heap does gradle get?").as_deref(),
            Some("gradle.properties")
        );
    }

    #[test]
    fn plain_paths_resolve_inside_the_root() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        let sb = Sandbox::new(dir.path()).unwrap();
        assert_eq!(sb.resolve("t", "src").unwrap(), sb.root().join("src"));
        assert_eq!(
            sb.resolve("t", "./src/../src/x.rs").unwrap(),
            sb.root().join("src/x.rs")
        );
        assert_eq!(sb.resolve("t", "").unwrap(), sb.root());
        assert_eq!(sb.display(&sb.root().join("src/x.rs")), "src/x.rs");
        assert_eq!(sb.display(sb.root()), ".");
    }

    #[test]
    fn a_tilde_file_name_is_relative_and_bad_names_are_the_models_fault() {
        // Regression: `~notes` was refused as absolute; a NUL byte or a 300-byte name was a
        // transient (world) failure, retried, and the model told its call was fine.
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("~notes"), "x").unwrap();
        let sb = Sandbox::new(dir.path()).unwrap();
        assert_eq!(sb.resolve("t", "~notes").unwrap(), sb.root().join("~notes"));
        assert_eq!(
            sb.resolve("t", "~").unwrap_err().kind(),
            FailureKind::Denied
        );
        assert_eq!(
            sb.resolve("t", "~/x").unwrap_err().kind(),
            FailureKind::Denied
        );
        for bad in ["a\0b.txt".to_owned(), "a".repeat(300)] {
            let f = sb.resolve("t", &bad).unwrap_err();
            assert_eq!(f.kind(), FailureKind::InvalidArgs, "{f}");
        }
    }

    #[test]
    fn absolute_placeholder_is_refused_with_dot_suggested() {
        let dir = tempfile::tempdir().unwrap();
        let sb = Sandbox::new(dir.path()).unwrap();
        let f = sb.resolve("ls", "/path/to/folder").unwrap_err();
        assert_eq!(f.kind(), FailureKind::Denied);
        assert!(f.to_string().contains(r#"{"path": "."}"#), "{f}");
        let inside = sb.root().join("a/b").display().to_string();
        let f = sb.resolve("ls", &inside).unwrap_err();
        assert!(f.to_string().contains(r#"{"path": "a/b"}"#), "{f}");
    }

    #[test]
    fn not_found_lists_neighbours_and_the_closest_name() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("main.rs"), "").unwrap();
        std::fs::write(dir.path().join("lib.rs"), "").unwrap();
        let sb = Sandbox::new(dir.path()).unwrap();
        let f = sb.not_found("read", &sb.root().join("mian.rs"));
        let m = f.to_string();
        assert!(m.contains("Did you mean `main.rs`?"), "{m}");
        assert!(m.contains("lib.rs, main.rs"), "{m}");
        assert_eq!(f.kind(), FailureKind::InvalidArgs);
    }
}
