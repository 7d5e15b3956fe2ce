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

    fn call<'a>(&'a mut self, call: &'a PendingCall) -> BoxFuture<'a, CallResult> {
        Box::pin(async move {
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
            let result = self
                .dispatcher
                .dispatch(ToolCall {
                    id: Some(call.id.clone()),
                    name: call.name.clone(),
                    arguments,
                    source,
                })
                .await;
            to_call_result(result)
        })
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
        }),
        changed: !r.effects.is_empty(),
        output: r.output,
        attempts: r.attempts,
        cached: r.cached,
    }
}
