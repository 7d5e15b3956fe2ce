//! Typed tools: the argument type declares the schema (derived with `schemars`) and the tool's
//! `run` receives a value of that type, decoded and validated by dispatch.

use std::future::Future;
use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize as _;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{Annotations, BoxFuture, Failure, Output, Tool, ToolContext, ToolSpec};

/// A tool whose arguments are a Rust type. Wrap it with [`typed`] to register it.
pub trait TypedTool: Send + Sync + 'static {
    /// The arguments. Their JSON Schema is derived and offered to the model.
    type Args: DeserializeOwned + JsonSchema + Send;

    /// The name the model calls it by.
    fn name(&self) -> &str;

    /// What it does, written for the model.
    fn description(&self) -> &str;

    /// Behaviour hints (default: MCP's worst-case defaults).
    fn annotations(&self) -> Annotations {
        Annotations::default()
    }

    /// Time limit for one call (`None`: the dispatcher's default).
    fn timeout(&self) -> Option<Duration> {
        None
    }

    /// One concrete valid argument object for corrective messages.
    fn example(&self) -> Option<Value> {
        None
    }

    /// An example grounded in the user's request (see [`Tool::example_for`]).
    fn example_for(&self, request: &str) -> Option<Value> {
        let _ = request;
        None
    }

    /// The call a call of an unknown name meant (see [`Tool::change_meant`]).
    fn change_meant(&self, request: &str, args: &Value) -> Option<Value> {
        let _ = (request, args);
        None
    }

    /// The call the request spells out (see [`Tool::change_asked`]).
    fn change_asked(&self, request: &str) -> Option<Value> {
        let _ = request;
        None
    }

    /// What says the change the request spells out is already so (see [`Tool::already_so`]).
    fn already_so(&self, request: &str) -> Option<String> {
        let _ = request;
        None
    }

    /// The call that makes the change a reply shows (see [`Tool::change_shown`]).
    fn change_shown(&self, request: &str, reply: &str) -> Option<Value> {
        let _ = (request, reply);
        None
    }

    /// The call a call named after an entry of the workspace means (see [`Tool::call_named`]).
    fn call_named(&self, name: &str) -> Option<Value> {
        let _ = name;
        None
    }

    /// The file a call would replace whole (see [`Tool::replaces`]).
    fn replaces(&self, args: &Value) -> Option<super::Replace> {
        let _ = args;
        None
    }

    /// Runs one call with decoded arguments.
    fn run(
        &self,
        ctx: &ToolContext,
        args: Self::Args,
    ) -> impl Future<Output = Result<Output, Failure>> + Send;
}

/// A [`TypedTool`] as a [`Tool`]: the spec with the derived schema, computed once.
#[derive(Debug)]
pub struct Typed<T> {
    inner: T,
    spec: ToolSpec,
}

/// Wraps a typed tool so it can be registered.
pub fn typed<T: TypedTool>(tool: T) -> Typed<T> {
    let mut parameters = crate::schema::schema_for::<T::Args>();
    if let Some(obj) = parameters.as_object_mut() {
        // The Rust type's name is noise for a model.
        obj.remove("title");
    }
    let mut spec = ToolSpec::new(tool.name(), tool.description(), parameters)
        .with_annotations(tool.annotations());
    spec.timeout = tool.timeout();
    spec.example = tool.example();
    Typed { inner: tool, spec }
}

impl<T> Typed<T> {
    /// The wrapped tool.
    pub fn inner(&self) -> &T {
        &self.inner
    }
}

impl<T: TypedTool> Tool for Typed<T> {
    fn spec(&self) -> ToolSpec {
        self.spec.clone()
    }

    fn call<'a>(
        &'a self,
        ctx: &'a ToolContext,
        args: Value,
    ) -> BoxFuture<'a, Result<Output, Failure>> {
        Box::pin(async move {
            let args = T::Args::deserialize(args).map_err(|e| {
                Failure::invalid_args(
                    &self.spec.name,
                    "",
                    format!("{e}. A valid call: {}", self.spec.example_call()),
                )
            })?;
            self.inner.run(ctx, args).await
        })
    }

    fn example_for(&self, request: &str) -> Option<Value> {
        self.inner.example_for(request)
    }

    fn change_meant(&self, request: &str, args: &Value) -> Option<Value> {
        self.inner.change_meant(request, args)
    }

    fn change_asked(&self, request: &str) -> Option<Value> {
        self.inner.change_asked(request)
    }

    fn already_so(&self, request: &str) -> Option<String> {
        self.inner.already_so(request)
    }

    fn change_shown(&self, request: &str, reply: &str) -> Option<Value> {
        self.inner.change_shown(request, reply)
    }

    fn call_named(&self, name: &str) -> Option<Value> {
        self.inner.call_named(name)
    }

    fn replaces(&self, args: &Value) -> Option<super::Replace> {
        self.inner.replaces(args)
    }
}
