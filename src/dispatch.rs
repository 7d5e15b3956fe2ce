//! The one dispatch path: [`ToolCall`]s in — native or extracted, it makes no difference — and
//! [`ToolResult`]s out.
//!
//! A [`Dispatcher`] holds what one task needs across turns: the [`Registry`], the [`Policy`], the
//! [`Memo`] of pure results, the retry budgets and the record of calls already made. The agent
//! loop calls [`Dispatcher::dispatch_turn`] once per model turn with all the calls of that turn.
//!
//! For each call, in order:
//! 1. the tool is looked up in the turn's registry snapshot. A name that is no tool's runs the
//!    read-only tool the call clearly means, with a note naming it
//!    ([`Policy::run_meant_read_only`]; the rules are
//!    [`crate::tools::Snapshot::read_only_call_meant`]'s: the arguments fit only that tool, or
//!    the name is a file or folder of the workspace (its `read`, its `ls`), or
//!    its name is a word of the name written, or they are an example call's shown in this
//!    task, or they hold a shown call's values under other names — that call then runs as
//!    shown); otherwise it is `UnknownTool`, listing the known tools and one concrete call — of
//!    the one read-only tool whose parameters take the arguments sent, else the closest
//!    read-only tool's example; never of one that writes — and nothing runs;
//! 2. the arguments go through [`crate::decode`]: repaired, coerced where the schema asks,
//!    validated (`Malformed` / `InvalidArgs`, with decode's corrective message and a valid call —
//!    for a value no fix could be derived for, only for a tool that only reads);
//! 3. the retry budget of `(tool, canonical args)` is checked (spent: `BudgetExhausted`); the
//!    arguments are the decoded ones, or the raw ones when they could not be decoded;
//! 4. policy: a call replacing an existing file whole that the task has neither read nor
//!    written is refused with the read to make ([`Policy::read_before_replace`]); a
//!    non-read-only tool in a read-only task is `Denied`, and so is one the policy's
//!    [`Approver`] (a person asked before anything changes) does not allow (a repeat refused as
//!    `AlreadyDone`, step 5, is refused before anyone is asked);
//! 5. the third identical call (same tool, same canonical args, nothing changed since) gets a
//!    `Duplicate` message with the earlier result instead of a re-run; a repeated pure call is
//!    answered from the memo; a call of a tool that changes things and is not idempotent,
//!    identical to one that succeeded with nothing it touched changed since, gets `AlreadyDone`
//!    (running it would make the change twice) unless [`Policy::rerun_identical_changes`];
//! 6. the tool runs under its timeout with panics caught; world failures (`Transient`, `Timeout`,
//!    `Panicked`) of read-only or idempotent tools are retried with exponential backoff;
//! 7. the output is rendered (`labeled` or `json` for lists) and capped with a truncation note;
//!    effects invalidate the memo and the duplicate record for the paths they touch.
//!
//! Consecutive calls to read-only tools run concurrently; every other call runs alone, in order.
//! The checks of step 5 see the calls of earlier batches, so two identical read-only calls in one
//! batch both run. A policy failure (`Denied`, `BudgetExhausted`) ends the turn: the calls after it are not run
//! and get a `Skipped` result, so every call still gets exactly one result, in call order. (In a
//! concurrent batch that holds for failures known before running; a read-only tool that refuses
//! while it runs does not stop the calls started beside it.)
//!
//! World failures are never counted against the model; model failures count against the budget
//! of their `(tool, canonical args)`, and a success of a tool resets all of that tool's budgets.
//!
//! Timeouts use tokio's timer: run the dispatcher on a runtime with time enabled.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::Arc;
use std::task::Poll;
use std::time::{Duration, Instant};

use futures::FutureExt as _;
use serde_json::Value;

use crate::decode::Coercion;
use crate::tools::canon::write_canonical;
use crate::tools::memo::{MemoEntry, overlaps};
use crate::tools::{
    Arguments, Entry, Failure, Fault, MeantArgs, Memo, Output, OutputFormat, Registry, Snapshot,
    ToolCall, ToolContext, ToolResult,
};

/// The rules of one task's dispatch.
#[derive(Debug, Clone, PartialEq)]
pub struct Policy {
    /// How list results are rendered for the model.
    pub format: OutputFormat,
    /// Most bytes of a call's output shown to the model; longer output is cut at a line and a
    /// one-line note (what was cut, what to ask for instead) follows it.
    pub max_output_bytes: usize,
    /// Time limit of a call when its tool sets none.
    pub default_timeout: Duration,
    /// Model's-fault failures allowed per `(tool, canonical args)` before the call is refused.
    pub retry_budget: u32,
    /// Identical calls allowed per task; the next identical one gets a `Duplicate` message.
    pub duplicate_limit: u32,
    /// Run a call of a tool that changes things and is not idempotent again when it is
    /// identical to one that already succeeded and nothing it touched has changed since. Off by
    /// default: such a repeat gets an `AlreadyDone` message instead, since running it would make
    /// the same change twice (small models send a call they already made again, and an edit
    /// whose new text holds its old text grows with each run).
    pub rerun_identical_changes: bool,
    /// Extra attempts after a world failure (only for read-only or idempotent tools).
    pub world_retries: u32,
    /// Wait before the first retry; doubled for each further retry.
    pub backoff: Duration,
    /// Refuse every tool that is not read-only.
    pub read_only: bool,
    /// Asked before a call of a tool that is not read-only runs, once its arguments are decoded
    /// and valid: a refusal makes the call `Denied`. `None` (the default): such calls run.
    pub approve: Option<Approver>,
    /// How forgiving argument decoding is.
    pub decode: crate::decode::Policy,
    /// Run the read-only tool a call of an unknown name clearly meant, with a note naming it
    /// (see [`crate::tools::Snapshot::read_only_call_meant`]), instead of refusing the call as
    /// `UnknownTool`. A tool that changes things never runs under another name.
    pub run_meant_read_only: bool,
    /// Refuse a call that would replace an existing file whole ([`crate::tools::Tool::replaces`]:
    /// the built-in `write`) while the task has neither read nor written that file, with the
    /// tool's message (`invalid_args`, the model's fault): asked to add a line, a small model
    /// writes the file with only that line, and every other line is lost. Once the file was
    /// read (or written) in the task, the call runs.
    pub read_before_replace: bool,
}

impl Default for Policy {
    fn default() -> Self {
        Self {
            format: OutputFormat::Labeled,
            max_output_bytes: 16 * 1024,
            default_timeout: Duration::from_secs(30),
            retry_budget: 3,
            duplicate_limit: 2,
            rerun_identical_changes: false,
            world_retries: 2,
            backoff: Duration::from_millis(100),
            read_only: false,
            approve: None,
            decode: crate::decode::Policy::default(),
            run_meant_read_only: true,
            read_before_replace: true,
        }
    }
}

/// Decides whether a call of a tool that changes things may run: given the tool's name and its
/// decoded, valid arguments, `true` lets it run. It is called on the dispatching thread and may
/// block (`toolmend run --ask` asks a person on the terminal).
///
/// ```
/// use toolmend::dispatch::{Approver, Policy};
/// let policy = Policy {
///     approve: Some(Approver::new(|tool, args| tool == "write" && args["path"] == "notes.txt")),
///     ..Policy::default()
/// };
/// # let _ = policy;
/// ```
#[derive(Clone)]
pub struct Approver(Arc<Allows>);

/// What an [`Approver`] asks: the tool's name and decoded arguments in, whether it may run out.
type Allows = dyn Fn(&str, &Value) -> bool + Send + Sync;

impl Approver {
    /// An approver that asks `allows`.
    pub fn new(allows: impl Fn(&str, &Value) -> bool + Send + Sync + 'static) -> Self {
        Self(Arc::new(allows))
    }

    /// Whether the call of `tool` with `args` may run.
    #[must_use]
    pub fn allows(&self, tool: &str, args: &Value) -> bool {
        (self.0)(tool, args)
    }
}

impl std::fmt::Debug for Approver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Approver(..)")
    }
}

impl PartialEq for Approver {
    /// The same approver (one `Arc`), not one that decides alike.
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// The message of a call the [`Approver`] refused.
const NOT_ALLOWED: &str = "the user did not allow this call, so it was not run. Do not send it again: continue without it, or answer the user in plain text";

/// What is remembered about calls already made, keyed by `tool \0 canonical args`.
#[derive(Debug)]
struct Seen {
    count: u32,
    last_output: String,
    reads: Vec<PathBuf>,
    /// The last identical call succeeded and changed things (its tool is not read-only).
    changed: bool,
}

/// Runs the tool calls of one task. See the [module documentation](self) for the path a call takes.
#[derive(Debug)]
pub struct Dispatcher {
    registry: Registry,
    policy: Policy,
    memo: Memo,
    budgets: HashMap<String, u32>,
    seen: HashMap<String, Seen>,
    calls: u64,
    run_time: Duration,
    /// The calls the model has seen in this task, as (tool, arguments): the example calls
    /// unknown-tool messages showed, and the read-only calls that ran. A model sends them
    /// again, or their values, under a name of its own (see [`Policy::run_meant_read_only`]).
    shown: Vec<(String, Value)>,
    /// The paths this task's calls have read or written, exactly as the tools named them
    /// (see [`Policy::read_before_replace`]).
    known: std::collections::HashSet<PathBuf>,
}

/// How many seen calls a dispatcher remembers for [`Dispatcher::shown`].
const SHOWN_MAX: usize = 32;

/// A call that passed every check and will run.
struct Job {
    id: String,
    entry: Arc<Entry>,
    args: Value,
    /// The arguments as the model sent them (repaired), when they are a value and the tool is
    /// read-only.
    sent: Option<Value>,
    coercions: Vec<Coercion>,
    key: String,
    start: Instant,
    called_as: Option<Meant>,
}

/// A call of a name that is no tool's, run as the read-only call it meant.
struct Meant {
    /// The name the model wrote.
    called: String,
    /// Which arguments ran: its own, a shown call's it copied under other names, or those its
    /// name means.
    args: MeantArgs,
    /// Those arguments as a value.
    ran_with: Value,
}

enum Prepared {
    Done(ToolResult),
    Run(Job),
}

/// Marks `r` as the result of the call the model's call of a name that is no tool's meant,
/// and says so at the head of its output: the model learns the name to call.
fn ran_as_meant(r: &mut ToolResult, meant: Meant) {
    let what = match &meant.args {
        MeantArgs::Own => "with the arguments you sent".to_owned(),
        MeantArgs::Shown(args) => format!(
            "as shown to you: {}",
            serde_json::json!({"name": r.name, "arguments": args})
        ),
        MeantArgs::Named(args) => format!(
            "for that name: {}",
            serde_json::json!({"name": r.name, "arguments": args})
        ),
    };
    r.output = format!(
        "(No tool is named `{}`; this is the result of `{}` {what}.)\n{}",
        meant.called, r.name, r.output
    );
    r.called_as = Some(meant.called);
    r.ran_with = Some(meant.ran_with);
}

const TRUNCATION_NOTE: &str = "[output truncated:";
const PREVIOUS_MAX: usize = 2000;

impl Dispatcher {
    /// A dispatcher for one task over `registry`.
    pub fn new(registry: Registry, policy: Policy) -> Self {
        Self {
            registry,
            policy,
            memo: Memo::default(),
            budgets: HashMap::new(),
            seen: HashMap::new(),
            calls: 0,
            run_time: Duration::ZERO,
            shown: Vec::new(),
            known: std::collections::HashSet::new(),
        }
    }

    /// The registry (register tools here; they are callable from the next turn).
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The policy.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The memo of pure results.
    pub fn memo(&self) -> &Memo {
        &self.memo
    }

    /// Starts a new task on this dispatcher (a new prompt in a chat): the record of calls
    /// already made and the model's-fault budgets are forgotten, so a call identical to one of
    /// an earlier task is neither a `Duplicate` nor `AlreadyDone` (asked to do it again, the
    /// model may make the same change again). Memoised results stay: effects keep them true.
    pub fn begin_task(&mut self) {
        self.seen.clear();
        self.budgets.clear();
        self.shown.clear();
        self.known.clear();
    }

    /// The total wall time tools have spent running (step 6: under their timeouts, with retries
    /// and back-off) since the dispatcher was made; a concurrent batch counts once. Everything
    /// else a dispatch takes is toolmend's own work.
    pub fn run_time(&self) -> Duration {
        self.run_time
    }

    /// Runs one call as a turn of its own.
    pub async fn dispatch(&mut self, call: ToolCall) -> ToolResult {
        let snap = self.registry.snapshot();
        self.run_one(&snap, call).await
    }

    /// One call alone: no batch bookkeeping.
    async fn run_one(&mut self, snap: &Snapshot, call: ToolCall) -> ToolResult {
        match self.prepare(snap, call) {
            Prepared::Done(r) => r,
            Prepared::Run(job) => {
                let t = Instant::now();
                let (outcome, attempts) = execute(&job, &self.policy).await;
                self.run_time += t.elapsed();
                self.finish(job, outcome, attempts)
            }
        }
    }

    /// Runs all calls of one model turn and returns one result per call, in call order.
    pub async fn dispatch_turn(&mut self, calls: Vec<ToolCall>) -> Vec<ToolResult> {
        let snap = self.registry.snapshot();
        let mut results = Vec::with_capacity(calls.len());
        let mut calls = calls.into_iter().peekable();
        let mut ended: Option<String> = None;
        while let Some(first) = calls.next() {
            if let Some(reason) = &ended {
                results.push(self.skipped(first, reason));
                continue;
            }
            if calls.peek().is_none_or(|next| {
                !(is_read_only(&snap, &first.name) && is_read_only(&snap, &next.name))
            }) {
                // Alone in its batch (the usual case).
                let r = self.run_one(&snap, first).await;
                if r.ends_turn() {
                    ended = Some(ended_reason(&r));
                }
                results.push(r);
                continue;
            }
            let mut batch = vec![first];
            if is_read_only(&snap, &batch[0].name) {
                while let Some(next) = calls.next_if(|c| is_read_only(&snap, &c.name)) {
                    batch.push(next);
                }
            }
            let batch_results = self.run_batch(&snap, batch).await;
            for r in &batch_results {
                if ended.is_none() && r.ends_turn() {
                    ended = Some(ended_reason(r));
                }
            }
            results.extend(batch_results);
        }
        results
    }

    async fn run_batch(&mut self, snap: &Snapshot, batch: Vec<ToolCall>) -> Vec<ToolResult> {
        // A policy failure known before running (a spent budget, a read-only task) skips the
        // calls after it, as it would outside a batch.
        let mut prepared: Vec<Prepared> = Vec::with_capacity(batch.len());
        let mut ended: Option<String> = None;
        for call in batch {
            if let Some(reason) = &ended {
                prepared.push(Prepared::Done(self.skipped(call, reason)));
                continue;
            }
            let p = self.prepare(snap, call);
            if let Prepared::Done(r) = &p
                && r.ends_turn()
            {
                ended = Some(ended_reason(r));
            }
            prepared.push(p);
        }
        let jobs: Vec<&Job> = prepared
            .iter()
            .filter_map(|p| match p {
                Prepared::Run(j) => Some(j),
                Prepared::Done(_) => None,
            })
            .collect();
        let t = Instant::now();
        let mut outcomes = if jobs.len() == 1 {
            vec![execute(jobs[0], &self.policy).await]
        } else {
            futures::future::join_all(jobs.iter().map(|j| execute(j, &self.policy))).await
        }
        .into_iter();
        self.run_time += t.elapsed();
        let mut results = Vec::with_capacity(prepared.len());
        for p in prepared {
            match p {
                Prepared::Done(r) => results.push(r),
                Prepared::Run(job) => {
                    let (outcome, attempts) =
                        outcomes.next().unwrap_or_else(|| (Err(lost_job(&job)), 0));
                    results.push(self.finish(job, outcome, attempts));
                }
            }
        }
        results
    }

    fn prepare(&mut self, snap: &Snapshot, call: ToolCall) -> Prepared {
        let start = Instant::now();
        self.calls += 1;
        let id = call.id.unwrap_or_else(|| format!("call_{}", self.calls));
        // A name that is no tool's: the arguments as a value (repaired if need be), for the
        // tool they mean.
        let unknown_args = snap
            .get(&call.name)
            .is_none()
            .then(|| sent_value(&call.arguments));
        let meant = unknown_args
            .as_ref()
            .and_then(Option::as_ref)
            .filter(|_| self.policy.run_meant_read_only)
            .and_then(|args| snap.read_only_call_meant(&call.name, args, &self.shown));
        let (name, arguments, called_as) = match meant {
            Some((e, args)) => {
                let arguments = match &args {
                    MeantArgs::Own => call.arguments,
                    MeantArgs::Shown(v) | MeantArgs::Named(v) => Arguments::Value(v.clone()),
                };
                let ran_with = match &args {
                    MeantArgs::Own => unknown_args.clone().flatten().unwrap_or(Value::Null),
                    MeantArgs::Shown(v) | MeantArgs::Named(v) => v.clone(),
                };
                let meant = Meant {
                    called: call.name,
                    args,
                    ran_with,
                };
                (e.spec.name.clone(), arguments, Some(meant))
            }
            None => (call.name, call.arguments, None),
        };
        let prepared = self.prepare_named(snap, start, id, name, arguments, unknown_args);
        match (prepared, called_as) {
            (p, None) => p,
            (Prepared::Done(mut r), Some(meant)) => {
                ran_as_meant(&mut r, meant);
                Prepared::Done(r)
            }
            (Prepared::Run(mut job), meant) => {
                job.called_as = meant;
                Prepared::Run(job)
            }
        }
    }

    /// [`Self::prepare`] once the name is settled: `unknown_args` is set when `name` is no
    /// tool's (the call's arguments as a value, when they are one).
    fn prepare_named(
        &mut self,
        snap: &Snapshot,
        start: Instant,
        id: String,
        name: String,
        arguments: Arguments,
        unknown_args: Option<Option<Value>>,
    ) -> Prepared {
        let fail = |this: &mut Self, failure: Failure| {
            Prepared::Done(this.failed(id.clone(), name.clone(), failure, start, 0))
        };
        // A call that fails before running: refused if its budget is spent, else charged.
        let fail_charged = |this: &mut Self, failure: Failure, key: &str| {
            let failure = this.exhausted(&name, key).unwrap_or(failure);
            if failure.fault() == Fault::Model {
                this.charge(key);
            }
            Prepared::Done(this.failed(id.clone(), name.clone(), failure, start, 0))
        };

        let Some(entry) = snap.get(&name) else {
            // The call the arguments say was meant, else an example of the closest read-only
            // tool; remembered, as a model may copy its values under its own name again.
            let example = unknown_args
                .flatten()
                .and_then(|args| snap.read_only_call_taking(&args))
                .or_else(|| snap.closest_read_only(&name).map(|e| e.spec.example_call()));
            if let Some(shown) = example
                .as_deref()
                .and_then(|t| serde_json::from_str::<Value>(t).ok())
                && let (Some(tool), Some(args)) = (shown["name"].as_str(), shown.get("arguments"))
            {
                self.remember_shown(tool, args.clone());
            }
            let failure = Failure::UnknownTool {
                name: name.clone(),
                known: snap.names(),
                example,
            };
            let key = raw_key(&name, &arguments);
            return fail_charged(self, failure, &key);
        };
        let entry = Arc::clone(entry);

        let (args, coercions) =
            match entry
                .decoder
                .decode(&entry.spec, &arguments, &self.policy.decode)
            {
                Ok(d) => (d.value, d.coercions),
                Err(failure) => {
                    let key = raw_key(&name, &arguments);
                    return fail_charged(self, failure, &key);
                }
            };
        let key = value_key(&name, &args);
        if let Some(failure) = self.exhausted(&name, &key) {
            return fail(self, failure);
        }

        if self.policy.read_only && !entry.spec.annotations.read_only {
            let failure = Failure::denied(
                &name,
                format!(
                    "this task is read-only and `{name}` changes things. Use only read-only tools ({})",
                    read_only_names(snap)
                ),
            );
            return fail(self, failure);
        }
        if !self.policy.rerun_identical_changes
            && !entry.spec.annotations.idempotent
            && let Some(seen) = self.seen.get(&key)
            && seen.changed
        {
            // The identical call succeeded and nothing it touched changed since (a change to
            // its paths, or an effect without a path, forgets it): the change is made.
            let failure = Failure::AlreadyDone {
                tool: name.clone(),
                previous: cut(&seen.last_output, PREVIOUS_MAX).0,
            };
            self.charge(&key);
            return fail(self, failure);
        }
        if self.policy.read_before_replace
            && let Some(replace) = entry.tool.replaces(&args)
            && !self.known.contains(&replace.path)
            && snap.get(&replace.read_with).is_some()
        {
            let failure = Failure::invalid_args(&name, "/path", replace.message);
            return fail_charged(self, failure, &key);
        }
        if !entry.spec.annotations.read_only
            && let Some(approver) = &self.policy.approve
            && !approver.allows(&name, &args)
        {
            return fail(self, Failure::denied(&name, NOT_ALLOWED));
        }

        if let Some(seen) = self.seen.get(&key)
            && seen.count >= self.policy.duplicate_limit
        {
            let failure = Failure::Duplicate {
                tool: name.clone(),
                count: seen.count,
                previous: cut(&seen.last_output, PREVIOUS_MAX).0,
            };
            self.charge(&key);
            return fail(self, failure);
        }

        if entry.spec.annotations.is_pure()
            && let Some(hit) = self.memo.get(&key)
        {
            let result = ToolResult {
                call_id: id,
                name: name.clone(),
                output: hit.output.clone(),
                data: hit.data.clone(),
                failure: None,
                effects: Vec::new(),
                duration: start.elapsed(),
                attempts: 0,
                cached: true,
                truncated: hit.truncated,
                coercions,
                called_as: None,
                ran_with: None,
            };
            let reads = hit.reads.clone();
            self.known.extend(reads.iter().cloned());
            self.record_seen(key, &result.output, reads, false);
            self.reset_budgets(&name);
            return Prepared::Done(result);
        }

        // The arguments as sent, for the read-only calls the model has seen (decoding may add
        // defaults); not kept for the others.
        let sent = entry
            .spec
            .annotations
            .read_only
            .then(|| sent_value(&arguments))
            .flatten();
        Prepared::Run(Job {
            id,
            entry,
            args,
            sent,
            coercions,
            key,
            start,
            called_as: None,
        })
    }

    fn finish(&mut self, job: Job, outcome: Result<Output, Failure>, attempts: u32) -> ToolResult {
        let name = job.entry.spec.name.clone();
        let mut output = match outcome {
            Ok(o) => o,
            Err(failure) => {
                if failure.fault() == Fault::Model {
                    self.charge(&job.key);
                    self.record_seen(job.key, &failure.to_string(), Vec::new(), false);
                }
                let mut r = self.failed(job.id, name, failure, job.start, attempts);
                r.coercions = job.coercions;
                if let Some(called) = job.called_as {
                    ran_as_meant(&mut r, called);
                }
                return r;
            }
        };
        let rendered = if self.policy.format == OutputFormat::Json && output.list {
            output.data.to_string()
        } else {
            std::mem::take(&mut output.text)
        };
        let (text, truncated) = cap(rendered, self.policy.max_output_bytes);

        self.known.extend(output.reads.iter().cloned());
        self.known.extend(
            output
                .effects
                .iter()
                .filter(|e| matches!(e, crate::tools::Effect::FileWritten { .. }))
                .filter_map(|e| e.path().map(PathBuf::from)),
        );
        // Effects first, so a call never invalidates its own duplicate count.
        for effect in &output.effects {
            if let Some(path) = effect.path() {
                self.memo.invalidate(path);
                self.seen.retain(|k, s| {
                    *k == job.key
                        || (!s.reads.is_empty() && !s.reads.iter().any(|r| overlaps(r, path)))
                });
            }
        }
        let annotations = job.entry.spec.annotations;
        if !annotations.read_only && output.effects.is_empty() {
            // It changed the world without saying where: nothing remembered can be trusted.
            self.memo.clear();
            self.seen.retain(|k, _| *k == job.key);
        }
        if annotations.is_pure() {
            self.memo.insert(
                job.key.clone(),
                MemoEntry {
                    output: text.clone(),
                    data: output.data.clone(),
                    truncated,
                    reads: output.reads.clone(),
                },
            );
        }
        // A change is remembered by what it read and the paths it changed: a later change to
        // any of them makes its repeat a new change (see `AlreadyDone`).
        let mut touched = output.reads;
        if !annotations.read_only {
            touched.extend(
                output
                    .effects
                    .iter()
                    .filter_map(|e| e.path().map(PathBuf::from)),
            );
        }
        self.record_seen(job.key, &text, touched, !annotations.read_only);
        if annotations.read_only
            && let Some(sent) = job.sent.as_ref().and_then(crate::tools::present_members)
        {
            self.remember_shown(&name, Value::Object(sent));
        }
        self.reset_budgets(&name);
        let mut result = ToolResult {
            call_id: job.id,
            name,
            output: text,
            data: output.data,
            failure: None,
            effects: output.effects,
            duration: job.start.elapsed(),
            attempts,
            cached: false,
            truncated,
            coercions: job.coercions,
            called_as: None,
            ran_with: None,
        };
        if let Some(called) = job.called_as {
            ran_as_meant(&mut result, called);
        }
        result
    }

    /// Remembers a call the model has seen (see [`Dispatcher::shown`]), the latest last.
    fn remember_shown(&mut self, tool: &str, args: Value) {
        self.shown.retain(|(t, a)| !(t == tool && *a == args));
        if self.shown.len() == SHOWN_MAX {
            self.shown.remove(0);
        }
        self.shown.push((tool.to_owned(), args));
    }

    fn failed(
        &self,
        call_id: String,
        name: String,
        failure: Failure,
        start: Instant,
        attempts: u32,
    ) -> ToolResult {
        let (output, truncated) = cap(failure.to_string(), self.policy.max_output_bytes);
        ToolResult {
            call_id,
            name,
            output,
            data: Value::Null,
            failure: Some(failure),
            effects: Vec::new(),
            duration: start.elapsed(),
            attempts,
            cached: false,
            truncated,
            coercions: Vec::new(),
            called_as: None,
            ran_with: None,
        }
    }

    fn skipped(&mut self, call: ToolCall, reason: &str) -> ToolResult {
        self.calls += 1;
        let id = call.id.unwrap_or_else(|| format!("call_{}", self.calls));
        let failure = Failure::Skipped {
            tool: call.name.clone(),
            reason: reason.to_string(),
        };
        self.failed(id, call.name, failure, Instant::now(), 0)
    }

    fn charge(&mut self, key: &str) {
        *self.budgets.entry(key.to_string()).or_insert(0) += 1;
    }

    /// `BudgetExhausted` when the model's-fault budget of `key` is spent.
    fn exhausted(&self, tool: &str, key: &str) -> Option<Failure> {
        if self.budgets.is_empty()
            || self.budgets.get(key).copied().unwrap_or(0) < self.policy.retry_budget
        {
            return None;
        }
        Some(Failure::BudgetExhausted {
            tool: tool.to_string(),
            reason: format!(
                "this exact call already failed {} times in this task. Do not repeat it; try a different approach or answer with what you have",
                self.policy.retry_budget
            ),
        })
    }

    fn reset_budgets(&mut self, tool: &str) {
        if !self.budgets.is_empty() {
            self.budgets
                .retain(|k, _| !(k.starts_with(tool) && k.as_bytes().get(tool.len()) == Some(&0)));
        }
    }

    fn record_seen(&mut self, key: String, output: &str, reads: Vec<PathBuf>, changed: bool) {
        let s = self.seen.entry(key).or_insert(Seen {
            count: 0,
            last_output: String::new(),
            reads: Vec::new(),
            changed: false,
        });
        s.count += 1;
        output.clone_into(&mut s.last_output);
        s.reads = reads;
        s.changed = changed;
    }
}

fn ended_reason(r: &ToolResult) -> String {
    format!(
        "the earlier call `{}` ({}) ended this turn; read its message, then call again",
        r.name, r.call_id
    )
}

fn lost_job(job: &Job) -> Failure {
    Failure::Panicked {
        tool: job.entry.spec.name.clone(),
        message: "the call's result was lost".into(),
    }
}

fn is_read_only(snap: &Snapshot, name: &str) -> bool {
    snap.get(name).is_some_and(|e| e.spec.annotations.read_only)
}

fn read_only_names(snap: &Snapshot) -> String {
    let names: Vec<&str> = snap
        .entries()
        .filter(|e| e.spec.annotations.read_only)
        .map(|e| e.spec.name.as_str())
        .collect();
    if names.is_empty() {
        "none are available".into()
    } else {
        names.join(", ")
    }
}

/// The arguments as a value, text repaired (a native backend's string, extracted text);
/// `None` for text that repairs to nothing.
fn sent_value(args: &Arguments) -> Option<Value> {
    match args {
        Arguments::Value(Value::String(t)) | Arguments::Text(t) => crate::repair::repaired_value(t),
        Arguments::Value(v) => Some(v.clone()),
    }
}

fn value_key(name: &str, args: &Value) -> String {
    let mut k = String::with_capacity(name.len() + 32);
    k.push_str(name);
    k.push('\0');
    write_canonical(args, &mut k);
    k
}

/// The key of what the model wrote: canonical JSON when it parses, else the trimmed text.
fn raw_key(name: &str, args: &Arguments) -> String {
    match args {
        Arguments::Value(Value::String(t)) | Arguments::Text(t) => {
            match serde_json::from_str::<Value>(t) {
                Ok(v) => value_key(name, &v),
                Err(_) => format!("{name}\0{}", t.trim()),
            }
        }
        Arguments::Value(v) => value_key(name, v),
    }
}

/// Runs a job: timeout, panic catching, and retries of world failures.
async fn execute(job: &Job, policy: &Policy) -> (Result<Output, Failure>, u32) {
    let spec = &job.entry.spec;
    let timeout = spec.timeout.unwrap_or(policy.default_timeout);
    let retryable = spec.annotations.read_only || spec.annotations.idempotent;
    let max_attempts = if retryable {
        policy.world_retries.saturating_add(1)
    } else {
        1
    };
    let mut attempt = 1;
    loop {
        let ctx = ToolContext {
            call_id: job.id.clone(),
            format: policy.format,
            attempt,
        };
        let outcome = run_once(&job.entry, &ctx, job.args.clone(), timeout).await;
        match outcome {
            Err(f) if f.fault() == Fault::World && attempt < max_attempts => {
                let factor = 1u32 << (attempt - 1).min(16);
                // Boxed: the timer stays out of the future's size until a retry needs it.
                Box::pin(tokio::time::sleep(policy.backoff.saturating_mul(factor))).await;
                attempt += 1;
            }
            other => return (other, attempt),
        }
    }
}

async fn run_once(
    entry: &Entry,
    ctx: &ToolContext,
    args: Value,
    timeout: Duration,
) -> Result<Output, Failure> {
    let name = &entry.spec.name;
    let fut = match std::panic::catch_unwind(AssertUnwindSafe(|| entry.tool.call(ctx, args))) {
        Ok(f) => f,
        Err(payload) => {
            return Err(Failure::Panicked {
                tool: name.clone(),
                message: panic_message(payload.as_ref()),
            });
        }
    };
    let mut fut = AssertUnwindSafe(fut).catch_unwind();
    // A tool that is done at once needs no timer.
    let done = match futures::poll!(&mut fut) {
        Poll::Ready(r) => r,
        Poll::Pending => match Box::pin(tokio::time::timeout(timeout, fut)).await {
            Ok(r) => r,
            Err(_) => {
                return Err(Failure::Timeout {
                    tool: name.clone(),
                    after: timeout,
                });
            }
        },
    };
    match done {
        Err(payload) => Err(Failure::Panicked {
            tool: name.clone(),
            message: panic_message(payload.as_ref()),
        }),
        Ok(outcome) => outcome,
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-text payload".into()
    }
}

/// Cuts `text` to at most `max` bytes at a char boundary, preferring the last line break.
fn cut(text: &str, max: usize) -> (String, bool) {
    if text.len() <= max {
        return (text.to_string(), false);
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    if let Some(nl) = text[..end].rfind('\n')
        && nl >= end / 2
    {
        end = nl + 1;
    }
    (text[..end].to_string(), true)
}

/// Caps model-facing output, appending a note that says what was cut and what to do.
fn cap(text: String, max: usize) -> (String, bool) {
    if text.len() <= max {
        return (text, false);
    }
    let (mut head, _) = cut(&text, max);
    let shown = head.len();
    if !head.ends_with('\n') {
        head.push('\n');
    }
    head.push_str(&format!(
        "{TRUNCATION_NOTE} showing the first {shown} of {} bytes. Ask for less: a line range, a narrower path or pattern.]",
        text.len()
    ));
    (head, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cap_cuts_at_a_line_and_says_so() {
        let text = "line one\nline two\nline three\n".repeat(10);
        let (out, truncated) = cap(text.clone(), 40);
        assert!(truncated);
        assert!(out.starts_with("line one\nline two\n"));
        assert!(out.contains("[output truncated: showing the first"));
        assert!(out.contains(&format!("of {} bytes", text.len())));
        // The count is of the input shown, not of the newline put before the note.
        let (out, _) = cap(format!("1\t{}\n", "a".repeat(26)), 10);
        assert!(out.starts_with("1\taaaaaaaa\n["), "{out}");
        assert!(out.contains("showing the first 10 of 29 bytes"), "{out}");
        let (same, t) = cap("short".into(), 40);
        assert_eq!((same.as_str(), t), ("short", false));
    }

    #[test]
    fn cut_respects_char_boundaries() {
        let (out, t) = cut("ééééé", 3);
        assert!(t);
        assert_eq!(out, "é");
    }

    #[test]
    fn the_dispatcher_and_its_futures_can_move_between_threads() {
        fn assert_send<T: Send>(_: &T) {}
        let mut d = Dispatcher::new(Registry::new(), Policy::default());
        assert_send(&d.dispatch_turn(Vec::new()));
        assert_send(&d);
    }

    #[test]
    fn budget_reset_only_touches_one_tool() {
        let mut d = Dispatcher::new(Registry::new(), Policy::default());
        d.charge("read\0{}");
        d.charge("reader\0{}");
        d.reset_budgets("read");
        assert_eq!(d.budgets.len(), 1);
        assert!(d.budgets.contains_key("reader\0{}"));
    }
}
