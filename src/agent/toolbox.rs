//! What the loop needs from the tools it offers: their definitions, an example call for each, and
//! a way to run one call and get a [`CallResult`] back, with failures split by whose fault they
//! are.

use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use crate::backend::{BoxFuture, ToolDef};

/// Whose fault a failed call is; decides what the loop does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fault {
    /// The model wrote a bad call: it gets a corrective message with one valid call.
    Model,
    /// The environment failed (I/O, timeout, a crashing tool): the loop retries the call.
    World,
    /// A rule refused the call: the message goes back and the turn's remaining calls are skipped.
    Policy,
}

/// Why a call failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CallFailure {
    /// A snake_case tag (`invalid_args`, `unknown_tool`, `timeout`, `denied`, …).
    pub kind: String,
    /// Whose fault it is.
    pub fault: Fault,
    /// The model-facing message: what was wrong and what to send instead.
    pub message: String,
    /// The argument the failure is about, as a JSON Pointer (`/new_text`), when the tool refused
    /// one value of well-formed arguments; `None` for failures of the whole call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// The outcome of one call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CallResult {
    /// The model-facing text: the tool's output, or the failure message.
    pub output: String,
    /// Why the call failed, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<CallFailure>,
    /// How many times the tool ran for this result (0: answered without running it).
    pub attempts: u32,
    /// True when the result was reused from an identical earlier call instead of a run.
    pub cached: bool,
    /// True when the call changed something (wrote a file, started a process): earlier results
    /// may be stale, so identical calls run again instead of being answered from them.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub changed: bool,
    /// The tool that ran, when the name called is no tool's and the toolbox ran the read-only
    /// tool the call clearly meant (see [`crate::dispatch::Policy::run_meant_read_only`]), or
    /// when the agent ran the change the request asks for in the call's place (a made-up name
    /// or a no-op `edit` sent with its arguments).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ran_as: Option<String>,
    /// The arguments `ran_as` ran with (see [`crate::tools::ToolResult::ran_with`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ran_with: Option<serde_json::Value>,
}

impl CallResult {
    /// A successful result.
    pub fn ok(output: impl Into<String>) -> Self {
        Self {
            output: output.into(),
            failure: None,
            attempts: 1,
            cached: false,
            changed: false,
            ran_as: None,
            ran_with: None,
        }
    }

    /// A failed result; `output` is the failure message.
    pub fn failed(kind: &str, fault: Fault, message: impl Into<String>) -> Self {
        let message = message.into();
        Self {
            output: message.clone(),
            failure: Some(CallFailure {
                kind: kind.to_owned(),
                fault,
                message,
                field: None,
            }),
            attempts: 1,
            cached: false,
            changed: false,
            ran_as: None,
            ran_with: None,
        }
    }

    /// This result with its failure about the argument at `pointer` (see [`CallFailure::field`]):
    /// a toolbox refusing one value says which, and the loop then shows no example call of a
    /// tool that changes things beside the message.
    ///
    /// ```
    /// use toolmend::agent::{CallResult, Fault};
    /// let r = CallResult::failed("invalid_args", Fault::Model, "no such file").about_field("/path");
    /// assert_eq!(r.failure.unwrap().field.as_deref(), Some("/path"));
    /// ```
    #[must_use]
    pub fn about_field(mut self, pointer: impl Into<String>) -> Self {
        if let Some(f) = &mut self.failure {
            f.field = Some(pointer.into());
        }
        self
    }

    /// The same result, marked as having changed something.
    #[must_use]
    pub fn with_change(mut self) -> Self {
        self.changed = true;
        self
    }

    /// True when the call succeeded.
    #[must_use]
    pub fn is_ok(&self) -> bool {
        self.failure.is_none()
    }

    /// Whose fault the failure is, if the call failed.
    #[must_use]
    pub fn fault(&self) -> Option<Fault> {
        self.failure.as_ref().map(|f| f.fault)
    }
}

/// The arguments of a call as the model gave them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Args {
    /// A JSON value (a native call's object, or arguments the extractor repaired).
    Value(Value),
    /// JSON text still to be repaired (a native call whose `arguments` is a string).
    Text(String),
}

impl Args {
    /// The arguments as a JSON value for display (`Text` stays a string).
    #[must_use]
    pub fn to_value(&self) -> Value {
        match self {
            Self::Value(v) => v.clone(),
            Self::Text(t) => Value::String(t.clone()),
        }
    }
}

/// One call to run, found in the model's text or reported natively by the backend.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PendingCall {
    /// The call id (the backend's, or `call_<n>` counted over the run).
    pub id: String,
    /// The tool name as the model wrote it.
    pub name: String,
    /// The arguments as the model gave them.
    pub arguments: Args,
    /// True when the backend reported the call natively.
    pub native: bool,
    /// The call as the model wrote it in its text (empty for a native call).
    pub raw: String,
    /// What repair changed to get the arguments.
    pub fixes: Vec<crate::repair::Fix>,
}

/// The tools a loop offers the model and runs for it.
pub trait Toolbox: Send + Sync {
    /// The tools to offer (names, descriptions, parameter schemas).
    fn defs(&self) -> Vec<ToolDef>;

    /// One concrete valid call of tool `name` as JSON text (`{"name": …, "arguments": …}`), for
    /// corrective messages; `None` when there is no such tool.
    fn example_call(&self, name: &str) -> Option<String> {
        let def = self.defs().into_iter().find(|d| d.name == name)?;
        let args = crate::tools::example_arguments(&def.parameters);
        Some(serde_json::json!({"name": def.name, "arguments": args}).to_string())
    }

    /// Like [`Toolbox::example_call`], grounded in the user's `request` where the tool can (a
    /// file the request names: see [`crate::tools::Tool::example_for`]). The default ignores
    /// the request.
    fn example_call_for(&self, name: &str, request: &str) -> Option<String> {
        let _ = request;
        self.example_call(name)
    }

    /// The call (JSON text `{"name", "arguments"}`) of a tool that changes things which a call
    /// of a name that is no tool's, with arguments `args`, meant for the user's `request`,
    /// grounded in the request and the workspace (see
    /// [`crate::tools::Tool::change_meant`]): shown to the model, never run unasked. The
    /// default: `None`.
    fn change_meant(&self, args: &serde_json::Value, request: &str) -> Option<String> {
        let _ = (args, request);
        None
    }

    /// The call (JSON text `{"name", "arguments"}`) of a tool that changes things which the
    /// user's `request` spells out in words, grounded in the workspace (see
    /// [`crate::tools::Tool::change_asked`]): shown to the model, never run unasked. The
    /// default: `None`.
    fn change_asked(&self, request: &str) -> Option<String> {
        let _ = request;
        None
    }

    /// What says the change the user's `request` spells out is already so in the workspace
    /// (see [`crate::tools::Tool::already_so`]): told to a model that has not made it. The
    /// default: `None`.
    fn already_so(&self, request: &str) -> Option<String> {
        let _ = request;
        None
    }

    /// The call (JSON text `{"name", "arguments"}`) of a tool that changes things which makes
    /// the change a model's `reply` to the user's `request` shows in a code block, grounded in
    /// the workspace (see [`crate::tools::Tool::change_shown`]): shown to the model, never run
    /// unasked. The default: `None`.
    fn change_shown(&self, request: &str, reply: &str) -> Option<String> {
        let _ = (request, reply);
        None
    }

    /// The call (JSON text `{"name", "arguments"}`) of the one read-only tool that a call of
    /// `name` — no tool's name — means by its name alone: the `read` of the file, the `ls` of
    /// the folder the model wrote where a tool's name belongs (see
    /// [`crate::tools::Tool::call_named`]). Shown in the unknown tool's message. The default:
    /// `None`.
    fn call_named(&self, name: &str) -> Option<String> {
        let _ = name;
        None
    }

    /// Runs one call: repair, decode and validate its arguments, execute, and report the result.
    /// Unknown names and bad arguments come back as model-fault failures, never as panics.
    fn call<'a>(&'a mut self, call: &'a PendingCall) -> BoxFuture<'a, CallResult>;

    /// True when tool `name` only reads (it changes nothing), so the loop may run several calls
    /// of read-only tools from one turn at the same time. The default, `false`, runs every call
    /// alone and in order.
    fn is_read_only(&self, name: &str) -> bool {
        let _ = name;
        false
    }

    /// True when running a call of tool `name` again after a failure does no harm (the tool is
    /// read-only or idempotent): only then does the loop retry a world-fault failure the toolbox
    /// did not already retry itself. The default is [`Toolbox::is_read_only`].
    fn is_retry_safe(&self, name: &str) -> bool {
        self.is_read_only(name)
    }

    /// True when tool `name` changes local state and nothing else (it is not read-only and
    /// talks to no open world: the built-in `write` and `edit`). Such a call cannot help answer
    /// a question, so the loop does not offer these tools for a request phrased as one (see
    /// [`super::AgentOptions::questions_read_only`]). The default, `false`, offers every tool.
    fn changes_local_state(&self, name: &str) -> bool {
        let _ = name;
        false
    }

    /// Called at the start of each prompt's run ([`super::Agent::run`]): a new request is a new
    /// task, so what the toolbox remembers about calls made for earlier requests (repeats it
    /// refuses, budgets spent) should no longer stand — in a chat, "do that again" must be able
    /// to make the same change again. The default does nothing.
    fn begin_prompt(&mut self) {}

    /// The total wall time the tools themselves have run in this toolbox so far (executing, with
    /// retries and their back-off; concurrent calls counted once), so the loop can tell toolmend's
    /// own dispatch time from the tools'. The default, `None`, means the toolbox cannot tell: the
    /// loop then counts all the time spent in it as the tools'.
    fn run_time(&self) -> Option<Duration> {
        None
    }

    /// Runs calls of read-only tools from one turn (the loop passes only such calls) and returns
    /// one result per call, in call order. The default runs them one after another;
    /// implementations may run them concurrently.
    fn call_read_only<'a>(
        &'a mut self,
        calls: &'a [PendingCall],
    ) -> BoxFuture<'a, Vec<CallResult>> {
        Box::pin(async move {
            let mut out = Vec::with_capacity(calls.len());
            for c in calls {
                out.push(self.call(c).await);
            }
            out
        })
    }
}

impl<T: Toolbox + ?Sized> Toolbox for Box<T> {
    fn defs(&self) -> Vec<ToolDef> {
        (**self).defs()
    }

    fn example_call(&self, name: &str) -> Option<String> {
        (**self).example_call(name)
    }

    fn example_call_for(&self, name: &str, request: &str) -> Option<String> {
        (**self).example_call_for(name, request)
    }

    fn change_meant(&self, args: &serde_json::Value, request: &str) -> Option<String> {
        (**self).change_meant(args, request)
    }

    fn change_asked(&self, request: &str) -> Option<String> {
        (**self).change_asked(request)
    }

    fn already_so(&self, request: &str) -> Option<String> {
        (**self).already_so(request)
    }

    fn change_shown(&self, request: &str, reply: &str) -> Option<String> {
        (**self).change_shown(request, reply)
    }

    fn call_named(&self, name: &str) -> Option<String> {
        (**self).call_named(name)
    }

    fn call<'a>(&'a mut self, call: &'a PendingCall) -> BoxFuture<'a, CallResult> {
        (**self).call(call)
    }

    fn is_read_only(&self, name: &str) -> bool {
        (**self).is_read_only(name)
    }

    fn is_retry_safe(&self, name: &str) -> bool {
        (**self).is_retry_safe(name)
    }

    fn changes_local_state(&self, name: &str) -> bool {
        (**self).changes_local_state(name)
    }

    fn begin_prompt(&mut self) {
        (**self).begin_prompt();
    }

    fn run_time(&self) -> Option<Duration> {
        (**self).run_time()
    }

    fn call_read_only<'a>(
        &'a mut self,
        calls: &'a [PendingCall],
    ) -> BoxFuture<'a, Vec<CallResult>> {
        (**self).call_read_only(calls)
    }
}

/// Milliseconds of a duration, for reports.
#[must_use]
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
