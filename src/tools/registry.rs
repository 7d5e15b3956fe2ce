//! The `Registry` of tools offered to a model: keyed by name, last registration wins, tools
//! grouped by provider, and an immutable [`Snapshot`] taken per turn.
//!
//! A `Registry` is a cheap handle (clones share the same tools), so a provider can register tools
//! while a task runs; the dispatcher takes a snapshot at the start of each turn, so a tool
//! registered mid-turn becomes callable on the next turn. Tools are kept sorted by name: the order
//! never depends on registration order, so the rendered prompt stays byte-stable (cache-friendly).
//! [`Snapshot::export`] converts every spec into each provider dialect of [`crate::schema`].

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use serde_json::{Value, json};

use super::args::{ArgDecoder, SchemaError};
use super::{Tool, ToolSpec};
use crate::schema::{Dialect, Dropped};

/// One registered tool: the tool, its spec (read once at registration), its compiled argument
/// decoder and its provider tag.
pub struct Entry {
    /// The tool.
    pub tool: Arc<dyn Tool>,
    /// Its spec, as returned by [`Tool::spec`] at registration.
    pub spec: ToolSpec,
    /// Its compiled argument decoder.
    pub decoder: ArgDecoder,
    /// The provider that registered it (`None`: registered directly).
    pub provider: Option<String>,
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entry")
            .field("name", &self.spec.name)
            .field("provider", &self.provider)
            .finish_non_exhaustive()
    }
}

type Tools = BTreeMap<String, Arc<Entry>>;

/// One tool's spec in a provider dialect.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Exported {
    /// The dialect it was converted to.
    pub dialect: Dialect,
    /// The tool's name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// The parameter schema in the dialect.
    pub parameters: Value,
    /// What the conversion dropped or changed.
    pub dropped: Vec<Dropped>,
}

impl Exported {
    /// The tool in the shape the provider's API takes: OpenAI and Ollama
    /// `{"type": "function", "function": {name, description, parameters}}` (OpenAI strict adds
    /// `"strict": true`), Anthropic `{name, description, input_schema}`, Gemini's function
    /// declaration `{name, description, parameters}`.
    pub fn to_provider_json(&self) -> Value {
        match self.dialect {
            Dialect::Anthropic => json!({
                "name": self.name,
                "description": self.description,
                "input_schema": self.parameters,
            }),
            Dialect::Gemini => json!({
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            }),
            Dialect::OpenAiStrict => json!({
                "type": "function",
                "function": {
                    "name": self.name,
                    "description": self.description,
                    "parameters": self.parameters,
                    "strict": true,
                },
            }),
            _ => json!({
                "type": "function",
                "function": {
                    "name": self.name,
                    "description": self.description,
                    "parameters": self.parameters,
                },
            }),
        }
    }
}

/// The tools of a task. Cloning gives another handle to the same tools.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    inner: Arc<RwLock<Arc<Tools>>>,
}

/// An immutable view of the registry at one moment (one per turn).
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    tools: Arc<Tools>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers `tool` (no provider). A tool with the same name is replaced.
    ///
    /// # Errors
    /// [`SchemaError`] when the tool's parameter schema does not compile.
    pub fn register(&self, tool: impl Tool) -> Result<(), SchemaError> {
        self.insert(Arc::new(tool), None)
    }

    /// Registers `tool` under `provider` (e.g. an MCP server), so
    /// [`clear_provider`](Self::clear_provider) can remove the provider's tools together.
    ///
    /// # Errors
    /// [`SchemaError`] when the tool's parameter schema does not compile.
    pub fn register_from(&self, provider: &str, tool: impl Tool) -> Result<(), SchemaError> {
        self.insert(Arc::new(tool), Some(provider.to_string()))
    }

    /// Registers a shared tool, optionally under a provider.
    ///
    /// # Errors
    /// [`SchemaError`] when the tool's parameter schema does not compile.
    pub fn insert(&self, tool: Arc<dyn Tool>, provider: Option<String>) -> Result<(), SchemaError> {
        let spec = tool.spec();
        let decoder = ArgDecoder::new(&spec.name, &spec.parameters)?;
        let entry = Arc::new(Entry {
            tool,
            spec,
            decoder,
            provider,
        });
        let mut guard = self.inner.write().unwrap_or_else(|p| p.into_inner());
        Arc::make_mut(&mut guard).insert(entry.spec.name.clone(), entry);
        Ok(())
    }

    /// Removes the tool called `name`; true when there was one.
    pub fn remove(&self, name: &str) -> bool {
        let mut guard = self.inner.write().unwrap_or_else(|p| p.into_inner());
        if !guard.contains_key(name) {
            return false;
        }
        Arc::make_mut(&mut guard).remove(name).is_some()
    }

    /// Removes every tool registered under `provider`, leaving the others; returns how many.
    pub fn clear_provider(&self, provider: &str) -> usize {
        let mut guard = self.inner.write().unwrap_or_else(|p| p.into_inner());
        let before = guard.len();
        if guard
            .values()
            .any(|e| e.provider.as_deref() == Some(provider))
        {
            Arc::make_mut(&mut guard).retain(|_, e| e.provider.as_deref() != Some(provider));
        }
        before - guard.len()
    }

    /// The tools as they are now. Later registrations do not change a snapshot.
    pub fn snapshot(&self) -> Snapshot {
        let guard = self.inner.read().unwrap_or_else(|p| p.into_inner());
        Snapshot {
            tools: Arc::clone(&guard),
        }
    }
}

impl Snapshot {
    /// The entry for `name`.
    pub fn get(&self, name: &str) -> Option<&Arc<Entry>> {
        self.tools.get(name)
    }

    /// The tool names, in the stable (sorted) order.
    pub fn names(&self) -> Vec<String> {
        self.tools.keys().cloned().collect()
    }

    /// The specs, in the stable order.
    pub fn specs(&self) -> Vec<&ToolSpec> {
        self.tools.values().map(|e| &e.spec).collect()
    }

    /// The entries, in the stable order.
    pub fn entries(&self) -> impl Iterator<Item = &Arc<Entry>> {
        self.tools.values()
    }

    /// The specs as backend tool definitions, in the order they are offered to a model: the
    /// tools that only read first, then the others, each group in name order (still stable, so
    /// the rendered prompt stays byte-stable). Small models lean towards the first tool listed;
    /// in name order that was `edit`, which Qwen2.5-Coder-0.5B then called to answer questions.
    pub fn defs(&self) -> Vec<crate::backend::ToolDef> {
        let (read_only, others): (Vec<_>, Vec<_>) = self
            .tools
            .values()
            .partition(|e| e.spec.annotations.read_only);
        read_only
            .into_iter()
            .chain(others)
            .map(|e| e.spec.to_def())
            .collect()
    }

    /// The tools as the extractor needs them (names and parameter schemas), in the stable order.
    pub fn tool_infos(&self) -> Vec<crate::extract::ToolInfo> {
        self.tools
            .values()
            .map(|e| crate::extract::ToolInfo {
                name: e.spec.name.clone(),
                parameters: e.spec.parameters.clone(),
            })
            .collect()
    }

    /// Every tool's spec converted into `dialect`, in the stable order, each with the report of
    /// what the conversion dropped or changed.
    pub fn export(&self, dialect: Dialect) -> Vec<Exported> {
        self.tools
            .values()
            .map(|e| {
                let converted = crate::schema::convert(&e.spec.parameters, dialect);
                Exported {
                    dialect,
                    name: e.spec.name.clone(),
                    description: e.spec.description.clone(),
                    parameters: converted.schema,
                    dropped: converted.dropped,
                }
            })
            .collect()
    }

    /// Number of tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// True when there are no tools.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The known name closest to `name` (for "did you mean").
    pub fn closest(&self, name: &str) -> Option<&Arc<Entry>> {
        closest_of(name, self.tools.values())
    }

    /// The read-only tool whose name is closest to `name`: the one whose example call a message
    /// about a name that is no tool may show. Small models copy the example they are given, so it
    /// must never be a call that writes or deletes (the closest name is often `write` or `edit`).
    /// `None` when no tool is read-only.
    pub fn closest_read_only(&self, name: &str) -> Option<&Arc<Entry>> {
        closest_of(
            name,
            self.tools.values().filter(|e| e.spec.annotations.read_only),
        )
    }

    /// The call a message about a name that is no tool may show when `args` say which tool was
    /// meant: the one tool whose parameters take exactly these arguments (every key one of its
    /// properties, every required one present; `null` values left out), as JSON text with the
    /// same arguments — only when that tool is read-only (a call that changes things is never
    /// shown to copy). Qwen2.5-Coder-0.5B called a tool `todo.txt` with grep's arguments.
    pub fn read_only_call_taking(&self, args: &Value) -> Option<String> {
        let args = present_members(args)?;
        if args.is_empty() {
            return None;
        }
        let only = only_one(self.taking(&args)).filter(|e| e.spec.annotations.read_only)?;
        Some(json!({"name": only.spec.name, "arguments": args}).to_string())
    }

    /// The tools whose parameters take `args` (see [`crate::schema::takes_arguments`]).
    fn taking(&self, args: &serde_json::Map<String, Value>) -> Vec<&Arc<Entry>> {
        self.tools
            .values()
            .filter(|e| crate::schema::takes_arguments(&e.spec.parameters, args))
            .collect()
    }

    /// The one read-only tool whose call a call of `name` — no tool's name — means by its name
    /// alone, and that call's arguments ([`crate::tools::Tool::call_named`]: the `read` of a
    /// file, the `ls` of a folder); `None` when no tool or several answer.
    pub fn call_named(&self, name: &str) -> Option<(&Arc<Entry>, Value)> {
        let mut it = self.tools.values().filter_map(|e| {
            if !e.spec.annotations.read_only {
                return None;
            }
            e.tool.call_named(name).map(|a| (e, a))
        });
        let first = it.next()?;
        it.next().is_none().then_some(first)
    }

    /// The read-only call a call of `name` — no tool's name — clearly meant, which the
    /// dispatcher runs in its place (see [`crate::dispatch::Policy::run_meant_read_only`]):
    /// the tool, and the arguments to run it with.
    /// Small models name a call after the subject of the request (`test_ls` asked about tests,
    /// `convert` with grep's arguments asked about `convert.py`) and send that name again after
    /// being shown the right call. Among the tools whose parameters take `args` (every key one
    /// of its properties, every required one present; `null` values left out), the one that is
    /// meant is:
    /// 0. the one tool whose call the name alone means (rule 2), when the strings of `args`
    ///    name nothing but the root (`.`; numbers and booleans aside): `ringbuf_push` with
    ///    read's `{"path": ".", "start_line": 1}`, asked "Which file declares ringbuf_push?"
    ///    (a C library, session 36), is the search for `ringbuf_push`, not the read of `.`;
    /// 1. the only one, when `args` is not empty;
    /// 2. else the one tool whose call the name alone means ([`crate::tools::Tool::call_named`]:
    ///    the `read` of a file, the `ls` of a folder the model wrote as a tool's name,
    ///    `config.json` with `{"path": "."}`) — that call, in place of the arguments sent (which
    ///    some tool takes: arguments no tool takes, `config.json` with `{"debug": true}`, may
    ///    be a change the model meant, and are left to the caller), unless they name something
    ///    inside the entry the name is (`weatherlog` with `{"path": "weatherlog/convert.py"}`);
    /// 3. else the only one whose name is a word (or run of words) of `name`: `test_ls` → `ls`;
    /// 4. else the only one whose arguments are exactly `args` in a call the model has seen:
    ///    the tool's own example, or one of `shown` (tool, arguments: an example an earlier
    ///    message showed, a call that ran) — the model copied its values under its own name.
    ///
    /// When no tool takes `args`: 5. the last call of `shown` whose arguments hold the same
    /// values in the same order as `args` under other names (`{"city": "--city", "path":
    /// "weatherlog"}` after grep's `{"pattern": "--city", "path": "weatherlog"}` was shown) —
    /// that call as shown.
    ///
    /// `None` when no rule gives exactly one tool, or the tool it gives changes things.
    pub fn read_only_call_meant(
        &self,
        name: &str,
        args: &Value,
        shown: &[(String, Value)],
    ) -> Option<(&Arc<Entry>, MeantArgs)> {
        let args = present_members(args)?;
        // Rule 2: the one read-only tool whose call the name means — unless the arguments sent
        // name something inside what the name does (`weatherlog` with `{"path":
        // "weatherlog/convert.py"}`): those are the more exact call.
        let named = || {
            let (e, a) = self.call_named(name)?;
            let within = |s: &str| {
                a.as_object().is_some_and(|m| {
                    m.values()
                        .filter_map(Value::as_str)
                        .any(|p| s.strip_prefix(p).is_some_and(|r| r.starts_with('/')))
                })
            };
            if args.values().filter_map(Value::as_str).any(within) {
                return None;
            }
            Some((e, MeantArgs::Named(a)))
        };
        // Rule 0: arguments that name nothing but the root give way to the call the name means.
        if super::names_only_root(&args)
            && let Some(n) = named()
        {
            return Some(n);
        }
        let fits = self.taking(&args);
        if fits.is_empty() {
            // Rule 5: the values of a shown call under other names.
            let values: Vec<&Value> = args.values().collect();
            let (tool, shown_args) = shown.iter().rev().find(|(_, a)| {
                a.as_object()
                    .is_some_and(|a| !a.is_empty() && a.values().collect::<Vec<_>>() == values)
            })?;
            let e = self.tools.get(tool.as_str())?;
            return e
                .spec
                .annotations
                .read_only
                .then(|| (e, MeantArgs::Shown(shown_args.clone())));
        }
        if !args.is_empty() && fits.len() == 1 {
            return fits[0]
                .spec
                .annotations
                .read_only
                .then(|| (fits[0], MeantArgs::Own));
        }
        if let Some(n) = named() {
            return Some(n);
        }
        let words = format!("_{}_", word_run(name));
        let meant = if let Some(e) = only_one(
            fits.iter()
                .copied()
                .filter(|e| words.contains(&format!("_{}_", word_run(&e.spec.name))))
                .collect(),
        ) {
            Some(e)
        } else {
            let wanted = Value::Object(args.clone());
            only_one(
                fits.iter()
                    .copied()
                    .filter(|e| {
                        e.spec.example_args() == wanted
                            || shown.iter().any(|(n, a)| *n == e.spec.name && *a == wanted)
                    })
                    .collect(),
            )
        };
        meant
            .filter(|e| e.spec.annotations.read_only)
            .map(|e| (e, MeantArgs::Own))
    }
}

/// What a call of a name that is no tool's runs with, as [`Snapshot::read_only_call_meant`]
/// found it.
#[derive(Debug, Clone, PartialEq)]
pub enum MeantArgs {
    /// The arguments the model sent.
    Own,
    /// The arguments of a call the model was shown (an example, a call that ran), whose
    /// values it sent under other names.
    Shown(Value),
    /// The arguments the name alone means ([`crate::tools::Tool::call_named`]): the model wrote
    /// a file's or a folder's name where the tool's belongs.
    Named(Value),
}

/// The members of the object `args` whose values are not `null` (a model writes `null` for an
/// argument it leaves out); `None` when `args` is no object.
pub(crate) fn present_members(args: &Value) -> Option<serde_json::Map<String, Value>> {
    Some(
        args.as_object()?
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    )
}

/// The one entry of `v`, if it holds exactly one.
fn only_one(v: Vec<&Arc<Entry>>) -> Option<&Arc<Entry>> {
    (v.len() == 1).then(|| v[0])
}

/// `name` in lower case with every run of other characters than letters and digits one `_`
/// (`Weather Log-add` → `weather_log_add`), for matching a tool's name as a word of it.
fn word_run(name: &str) -> String {
    name.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join("_")
}

/// The entry whose name is closest to `name` (Jaro–Winkler, case-insensitive).
fn closest_of<'a>(
    name: &str,
    entries: impl Iterator<Item = &'a Arc<Entry>>,
) -> Option<&'a Arc<Entry>> {
    let lower = name.to_lowercase();
    entries
        .map(|e| (strsim::jaro_winkler(&lower, &e.spec.name.to_lowercase()), e))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, e)| e)
}
