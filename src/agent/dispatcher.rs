//! The loop's [`Toolbox`] over toolmend's own dispatch path: each call becomes a
//! [`ToolCall`](crate::tools::ToolCall) (native, or extracted with its raw text and repair fixes),
//! goes through [`Dispatcher::dispatch`] (lookup, repair, decode, validation, policy, execution
//! with timeouts, panics caught, world faults retried with backoff), and its
//! [`ToolResult`](crate::tools::ToolResult) comes back as a [`CallResult`].

use std::path::Path;

use super::toolbox::{Args, CallFailure, CallResult, Fault, PendingCall, Toolbox};
use crate::backend::{BoxFuture, ToolDef};
use crate::builtin::BuiltinError;
use crate::dispatch::{Dispatcher, Policy};
use crate::tools::{self, Arguments, CallSource, ToolCall, ToolResult};

/// A [`Dispatcher`] as the loop's toolbox.
#[derive(Debug)]
pub struct DispatchToolbox {
    dispatcher: Dispatcher,
}

impl DispatchToolbox {
    /// Wraps a dispatcher (its registry's tools are offered to the model).
    #[must_use]
    pub fn new(dispatcher: Dispatcher) -> Self {
        Self { dispatcher }
    }

    /// The built-in file tools confined to `root`, with the default dispatch policy.
    ///
    /// # Errors
    /// [`BuiltinError`] when `root` is not an existing directory.
    pub fn builtin(root: &Path) -> Result<Self, BuiltinError> {
        let registry = crate::builtin::registry(root)?;
        Ok(Self::new(Dispatcher::new(registry, Policy::default())))
    }

    /// The dispatcher.
    #[must_use]
    pub fn dispatcher(&self) -> &Dispatcher {
        &self.dispatcher
    }

    /// The annotations of tool `name`, when the registry has it.
    fn annotations(&self, name: &str) -> Option<tools::Annotations> {
        let snap = self.dispatcher.registry().snapshot();
        snap.get(name).map(|e| e.spec.annotations)
    }

    /// The first call (JSON text `{"name", "arguments"}`), in name order, of a tool that changes
    /// things for which `arguments` gives arguments: the change a request or a made-up call
    /// means (see [`Toolbox::change_meant`] and [`Toolbox::change_asked`]).
    fn first_change(
        &self,
        arguments: impl Fn(&dyn crate::tools::Tool) -> Option<serde_json::Value>,
    ) -> Option<String> {
        let snap = self.dispatcher.registry().snapshot();
        snap.names().iter().find_map(|name| {
            let entry = snap.get(name)?;
            if entry.spec.annotations.read_only {
                return None;
            }
            let args = arguments(entry.tool.as_ref())?;
            Some(serde_json::json!({"name": name, "arguments": args}).to_string())
        })
    }
}

impl Toolbox for DispatchToolbox {
    fn defs(&self) -> Vec<ToolDef> {
        self.dispatcher.registry().snapshot().defs()
    }

    /// The tool's own example, else one built from its schema (see
    /// [`ToolSpec::example_call`](crate::tools::ToolSpec::example_call)).
    fn example_call(&self, name: &str) -> Option<String> {
        let snap = self.dispatcher.registry().snapshot();
        Some(snap.get(name)?.spec.example_call())
    }

    /// The tool's example grounded in `request` when it has one, else [`Self::example_call`].
    fn example_call_for(&self, name: &str, request: &str) -> Option<String> {
        let snap = self.dispatcher.registry().snapshot();
        let entry = snap.get(name)?;
        Some(match entry.tool.example_for(request) {
            Some(args) => serde_json::json!({"name": name, "arguments": args}).to_string(),
            None => entry.spec.example_call(),
        })
    }

    fn change_meant(&self, args: &serde_json::Value, request: &str) -> Option<String> {
        self.first_change(|tool| tool.change_meant(request, args))
    }

    fn change_asked(&self, request: &str) -> Option<String> {
        self.first_change(|tool| tool.change_asked(request))
    }

    /// The first tool that changes things and knows the change to be so already.
    fn already_so(&self, request: &str) -> Option<String> {
        let snap = self.dispatcher.registry().snapshot();
        snap.names().iter().find_map(|name| {
            let entry = snap.get(name)?;
            (!entry.spec.annotations.read_only)
                .then(|| entry.tool.already_so(request))
                .flatten()
        })
    }

    fn change_shown(&self, request: &str, reply: &str) -> Option<String> {
        self.first_change(|tool| tool.change_shown(request, reply))
    }

    fn call_named(&self, name: &str) -> Option<String> {
        let snap = self.dispatcher.registry().snapshot();
        let (entry, args) = snap.call_named(name)?;
        Some(serde_json::json!({"name": entry.spec.name, "arguments": args}).to_string())
    }

    fn call<'a>(&'a mut self, call: &'a PendingCall) -> BoxFuture<'a, CallResult> {
        Box::pin(async move { to_call_result(self.dispatcher.dispatch(to_tool_call(call)).await) })
    }

    /// A new prompt is a new task for the dispatcher ([`Dispatcher::begin_task`]).
    fn begin_prompt(&mut self) {
        self.dispatcher.begin_task();
    }

    fn is_read_only(&self, name: &str) -> bool {
        self.annotations(name).is_some_and(|a| a.read_only)
    }

    fn is_retry_safe(&self, name: &str) -> bool {
        self.annotations(name)
            .is_some_and(|a| a.read_only || a.idempotent)
    }

    /// Not read-only and closed-world by the tool's annotations: `write`, `edit`, a command
    /// tool marked so (command tools are open-world unless marked otherwise).
    fn changes_local_state(&self, name: &str) -> bool {
        self.annotations(name)
            .is_some_and(|a| !a.read_only && !a.open_world)
    }

    /// [`Dispatcher::run_time`].
    fn run_time(&self) -> Option<std::time::Duration> {
        Some(self.dispatcher.run_time())
    }

    /// One [`Dispatcher::dispatch_turn`]: the read-only calls run concurrently.
    fn call_read_only<'a>(
        &'a mut self,
        calls: &'a [PendingCall],
    ) -> BoxFuture<'a, Vec<CallResult>> {
        Box::pin(async move {
            let results = self
                .dispatcher
                .dispatch_turn(calls.iter().map(to_tool_call).collect())
                .await;
            results.into_iter().map(to_call_result).collect()
        })
    }
}

/// A loop call as a dispatch call: native, or extracted with its raw text and repair fixes.
fn to_tool_call(call: &PendingCall) -> ToolCall {
    let arguments = match &call.arguments {
        Args::Value(v) => Arguments::Value(v.clone()),
        Args::Text(t) => Arguments::Text(t.clone()),
    };
    let source = if call.native {
        CallSource::Native
    } else {
        CallSource::Extracted {
            raw: call.raw.clone(),
            fixes: call.fixes.clone(),
        }
    };
    ToolCall {
        id: Some(call.id.clone()),
        name: call.name.clone(),
        arguments,
        source,
    }
}

/// A dispatch result as the loop sees it.
#[must_use]
pub fn to_call_result(r: ToolResult) -> CallResult {
    CallResult {
        failure: r.failure.as_ref().map(|f| CallFailure {
            kind: f.kind().as_str().to_owned(),
            fault: match f.fault() {
                tools::Fault::Model => Fault::Model,
                tools::Fault::World => Fault::World,
                tools::Fault::Policy => Fault::Policy,
            },
            message: r.output.clone(),
            field: match f {
                tools::Failure::InvalidArgs { pointer, .. } if !pointer.is_empty() => {
                    Some(pointer.clone())
                }
                _ => None,
            },
        }),
        changed: !r.effects.is_empty(),
        ran_as: r.called_as.is_some().then(|| r.name.clone()),
        ran_with: r.ran_with,
        output: r.output,
        attempts: r.attempts,
        cached: r.cached,
    }
}
