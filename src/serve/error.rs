//! Errors of `toolmend serve`, and their OpenAI-style wire form.
//!
//! Every failure a client can see is an [`ApiError`]: an HTTP status and the
//! `{"error": {"message", "type", "param", "code"}}` object the `openai` SDKs parse. Upstream
//! faults are typed first as [`UpstreamError`] and then mapped: unreachable, non-2xx and malformed
//! answers become 502, timeouts 504.

use std::time::Duration;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// A fault of the upstream server, before it is turned into an HTTP answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UpstreamError {
    /// No connection could be made, or it broke before an answer arrived.
    #[error(
        "the upstream at {url} cannot be reached ({reason}): check that it is running and that --upstream points at it"
    )]
    Unreachable {
        /// The URL that was tried.
        url: String,
        /// What the connection attempt reported.
        reason: String,
    },
    /// The upstream did not answer (or did not send the next chunk) in time.
    #[error(
        "the upstream sent nothing for {}s while {during}: it may be overloaded; raise --timeout if generation is legitimately slow",
        after.as_secs_f64()
    )]
    Timeout {
        /// How long toolmend waited.
        after: Duration,
        /// What toolmend was waiting for.
        during: &'static str,
    },
    /// The upstream answered with an error status toolmend cannot pass on as is.
    #[error("the upstream answered {status}: {excerpt}")]
    Status {
        /// The upstream's HTTP status.
        status: u16,
        /// The start of its body, for diagnosis.
        excerpt: String,
    },
    /// The embedded model failed (it could not render the prompt, the prompt does not fit, or
    /// generation broke).
    #[error("the model failed: {message}")]
    Model {
        /// The backend's message, saying what to do.
        message: String,
    },
    /// The upstream's answer is not the JSON or SSE an OpenAI-compatible server sends.
    #[error("the upstream's answer is malformed at byte {at}: {message}")]
    Malformed {
        /// Byte offset in the upstream body (or stream) where the problem is.
        at: usize,
        /// What is wrong.
        message: String,
    },
}

impl UpstreamError {
    /// The HTTP status this fault is answered with: 504 for timeouts, 502 otherwise.
    pub fn status(&self) -> StatusCode {
        match self {
            Self::Timeout { .. } => StatusCode::GATEWAY_TIMEOUT,
            _ => StatusCode::BAD_GATEWAY,
        }
    }

    /// The machine-readable `code` of the error object.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Unreachable { .. } => "upstream_unreachable",
            Self::Timeout { .. } => "upstream_timeout",
            Self::Status { .. } => "upstream_error_status",
            Self::Malformed { .. } => "upstream_malformed",
            Self::Model { .. } => "model_error",
        }
    }

    /// The OpenAI-style error this fault is answered with.
    pub fn to_api(&self) -> ApiError {
        ApiError {
            status: self.status(),
            kind: "upstream_error",
            code: self.code(),
            message: self.to_string(),
        }
    }
}

/// An error answered to the client as an OpenAI-style error object.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{status}: {message}")]
pub struct ApiError {
    /// HTTP status of the answer.
    pub status: StatusCode,
    /// The error object's `type` (`invalid_request_error`, `upstream_error`, …).
    pub kind: &'static str,
    /// The error object's `code`.
    pub code: &'static str,
    /// What happened and what to do about it.
    pub message: String,
}

impl ApiError {
    /// 401: the bearer token is missing or wrong.
    pub fn unauthorized() -> Self {
        Self {
            status: StatusCode::UNAUTHORIZED,
            kind: "invalid_request_error",
            code: "invalid_api_key",
            message: "missing or wrong API key: send the key given to `toolmend serve --api-key` as `Authorization: Bearer KEY`".into(),
        }
    }

    /// 413: the request body is larger than the configured limit.
    pub fn too_large(limit: usize) -> Self {
        Self {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            kind: "invalid_request_error",
            code: "request_too_large",
            message: format!(
                "the request body is larger than {limit} bytes: shorten the conversation or start the server with a larger --max-body"
            ),
        }
    }

    /// 503: the embedded model's queue is full.
    pub fn busy(queue: usize) -> Self {
        Self {
            status: StatusCode::SERVICE_UNAVAILABLE,
            kind: "server_error",
            code: "queue_full",
            message: format!(
                "{queue} requests are already waiting for the model: retry later, or start the server with a larger --queue"
            ),
        }
    }

    /// 404: no such route.
    pub fn not_found(method: &str, path: &str) -> Self {
        Self {
            status: StatusCode::NOT_FOUND,
            kind: "invalid_request_error",
            code: "unknown_route",
            message: format!(
                "toolmend serve has no route {method} {path}: it serves POST /v1/chat/completions, GET /v1/models and GET /health"
            ),
        }
    }

    /// 405: the route exists, but not with this method.
    pub fn method_not_allowed(method: &str, path: &str) -> Self {
        Self {
            status: StatusCode::METHOD_NOT_ALLOWED,
            kind: "invalid_request_error",
            code: "method_not_allowed",
            message: format!(
                "{path} does not take {method}: use POST /v1/chat/completions, GET /v1/models or GET /health"
            ),
        }
    }

    /// 400: the request body could not be read.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self {
            status: StatusCode::BAD_REQUEST,
            kind: "invalid_request_error",
            code: "invalid_request",
            message: message.into(),
        }
    }

    /// The error object, as JSON.
    pub fn body(&self) -> serde_json::Value {
        serde_json::json!({
            "error": {
                "message": self.message,
                "type": self.kind,
                "param": null,
                "code": self.code,
            }
        })
    }
}

impl From<UpstreamError> for ApiError {
    fn from(e: UpstreamError) -> Self {
        e.to_api()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(self.body())).into_response()
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StartError {
    /// The listen address could not be bound.
    #[error(
        "cannot listen on {addr}: {source}; pick another --listen address or stop what uses it"
    )]
    Bind {
        /// The address asked for.
        addr: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// The upstream URL is not an `http://` URL.
    #[error("--upstream {url:?} is not usable: {reason}")]
    Upstream {
        /// The URL given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The HTTP client could not be built.
    #[error("cannot build the HTTP client: {0}")]
    Client(String),
}
