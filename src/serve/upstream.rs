//! The client side: sending a request to the upstream server and classifying what comes back.
//!
//! Every wait is bounded by the configured timeout (connecting, the response head, and each body
//! chunk), so a stalled upstream yields [`UpstreamError::Timeout`], never a hang. Nothing here
//! spawns a task: dropping the future or the body stream drops the connection, which is how a
//! client disconnect cancels the upstream request.

use std::time::Duration;

use bytes::Bytes;
use futures::{Stream, StreamExt};

use super::error::{StartError, UpstreamError};

/// Most bytes of an upstream error body quoted in the error message.
const EXCERPT: usize = 300;

/// A configured connection to one OpenAI-compatible upstream.
#[derive(Debug, Clone)]
pub struct Upstream {
    client: reqwest::Client,
    base: String,
    api_key: Option<String>,
    timeout: Duration,
}

/// The head of an upstream answer, with its body still to be read.
#[derive(Debug)]
pub struct Answer {
    /// The upstream's status.
    pub status: u16,
    /// Its `Content-Type`, when given.
    pub content_type: Option<String>,
    body: AnswerBody,
    timeout: Duration,
}

/// Where an answer's body comes from.
#[derive(Debug)]
enum AnswerBody {
    /// An HTTP upstream.
    Http(reqwest::Response),
    /// The embedded model (see [`super::local`]): chunks as it generates them.
    Local(tokio::sync::mpsc::UnboundedReceiver<Result<Bytes, UpstreamError>>),
}

impl Upstream {
    /// A client for the upstream whose OpenAI base URL is `url` (`http://host:port/v1`; a URL
    /// without a path gets `/v1`). `api_key` is sent as a bearer token when given.
    ///
    /// # Errors
    /// [`StartError::Upstream`] when `url` is not an `http://` URL.
    pub fn new(url: &str, api_key: Option<String>, timeout: Duration) -> Result<Self, StartError> {
        let bad = |reason: &str| StartError::Upstream {
            url: url.to_owned(),
            reason: reason.to_owned(),
        };
        let rest = url.strip_prefix("http://").ok_or_else(|| {
            bad("only http:// upstreams are supported (local runtimes speak plain HTTP)")
        })?;
        let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
        if host.is_empty() {
            return Err(bad("it has no host"));
        }
        let path = path.trim_end_matches('/');
        let base = if path.is_empty() {
            format!("http://{host}/v1")
        } else {
            format!("http://{host}/{path}")
        };
        let client = reqwest::Client::builder()
            .connect_timeout(timeout)
            .pool_idle_timeout(Duration::from_secs(30))
            .build()
            .map_err(|e| StartError::Client(e.to_string()))?;
        Ok(Self {
            client,
            base,
            api_key,
            timeout,
        })
    }

    /// The base URL requests go to (`…/v1`).
    pub fn base(&self) -> &str {
        &self.base
    }

    /// Sends `body` as a `POST` to `path` (relative to the base URL) and waits for the answer's head.
    ///
    /// # Errors
    /// [`UpstreamError::Unreachable`] or [`UpstreamError::Timeout`].
    pub async fn post(&self, path: &str, body: Bytes) -> Result<Answer, UpstreamError> {
        let req = self
            .client
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body);
        self.send(req).await
    }

    /// Sends a `GET` to `path` (relative to the base URL) and waits for the answer's head.
    ///
    /// # Errors
    /// [`UpstreamError::Unreachable`] or [`UpstreamError::Timeout`].
    pub async fn get(&self, path: &str) -> Result<Answer, UpstreamError> {
        let req = self.client.get(format!("{}{path}", self.base));
        self.send(req).await
    }

    async fn send(&self, mut req: reqwest::RequestBuilder) -> Result<Answer, UpstreamError> {
        if let Some(key) = &self.api_key {
            req = req.bearer_auth(key);
        }
        let response = match tokio::time::timeout(self.timeout, req.send()).await {
            Err(_) => {
                return Err(UpstreamError::Timeout {
                    after: self.timeout,
                    during: "waiting for the response head",
                });
            }
            Ok(Err(e)) if e.is_timeout() => {
                return Err(UpstreamError::Timeout {
                    after: self.timeout,
                    during: "connecting",
                });
            }
            Ok(Err(e)) => {
                return Err(UpstreamError::Unreachable {
                    url: self.base.clone(),
                    reason: error_chain(&e),
                });
            }
            Ok(Ok(r)) => r,
        };
        let content_type = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        Ok(Answer {
            status: response.status().as_u16(),
            content_type,
            body: AnswerBody::Http(response),
            timeout: self.timeout,
        })
    }
}

impl Answer {
    /// A 200 answer of `content_type` whose body arrives through `rx` (the embedded model).
    pub fn local(
        content_type: &str,
        rx: tokio::sync::mpsc::UnboundedReceiver<Result<Bytes, UpstreamError>>,
        timeout: Duration,
    ) -> Self {
        Self {
            status: 200,
            content_type: Some(content_type.to_owned()),
            body: AnswerBody::Local(rx),
            timeout,
        }
    }

    /// True for a 2xx status.
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// True when the content type says `text/event-stream`.
    pub fn is_event_stream(&self) -> bool {
        self.content_type
            .as_deref()
            .is_some_and(|c| c.trim_start().starts_with("text/event-stream"))
    }

    /// Reads the whole body, each chunk within the timeout, refusing more than `limit` bytes.
    ///
    /// # Errors
    /// [`UpstreamError::Timeout`], [`UpstreamError::Unreachable`] when the connection breaks, or
    /// [`UpstreamError::Malformed`] when the body exceeds `limit`.
    pub async fn bytes(self, limit: usize) -> Result<Bytes, UpstreamError> {
        let mut stream = Box::pin(self.chunks());
        let mut buf = Vec::new();
        while let Some(chunk) = stream.next().await {
            let chunk = chunk?;
            if buf.len() + chunk.len() > limit {
                return Err(UpstreamError::Malformed {
                    at: limit,
                    message: format!("the answer is larger than {limit} bytes"),
                });
            }
            buf.extend_from_slice(&chunk);
        }
        Ok(Bytes::from(buf))
    }

    /// The body as a stream of chunks; each chunk must arrive within the timeout.
    pub fn chunks(self) -> impl Stream<Item = Result<Bytes, UpstreamError>> + Send + 'static {
        let timeout = self.timeout;
        let inner: std::pin::Pin<Box<dyn Stream<Item = Result<Bytes, UpstreamError>> + Send>> =
            match self.body {
                AnswerBody::Http(r) => Box::pin(r.bytes_stream().map(|c| {
                    c.map_err(|e| UpstreamError::Unreachable {
                        url: "the upstream".into(),
                        reason: format!("the connection broke mid-answer: {}", error_chain(&e)),
                    })
                })),
                AnswerBody::Local(rx) => {
                    Box::pin(tokio_stream::wrappers::UnboundedReceiverStream::new(rx))
                }
            };
        futures::stream::unfold(Some(inner), move |state| async move {
            let mut inner = state?;
            match tokio::time::timeout(timeout, inner.next()).await {
                Err(_) => Some((
                    Err(UpstreamError::Timeout {
                        after: timeout,
                        during: "reading the response body",
                    }),
                    None,
                )),
                Ok(None) => None,
                Ok(Some(Ok(b))) => Some((Ok(b), Some(inner))),
                Ok(Some(Err(e))) => Some((Err(e), None)),
            }
        })
    }

    /// Reads the body of a non-2xx answer (bounded) and classifies it: an OpenAI-style 4xx error
    /// object is passed on as is (`Ok` with status and body); anything else is an
    /// [`UpstreamError::Status`].
    ///
    /// # Errors
    /// The [`UpstreamError`] the client should receive instead.
    pub async fn into_failure(self) -> Result<(u16, Bytes), UpstreamError> {
        let status = self.status;
        let body = self.bytes(1 << 20).await?;
        let is_error_object = serde_json::from_slice::<serde_json::Value>(&body)
            .is_ok_and(|v| v.get("error").is_some());
        if (400..500).contains(&status) && is_error_object {
            return Ok((status, body));
        }
        let text = String::from_utf8_lossy(&body);
        let mut end = text.len().min(EXCERPT);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        Err(UpstreamError::Status {
            status,
            excerpt: text[..end].trim().to_owned(),
        })
    }
}

/// The error and its sources, joined: reqwest's own message alone rarely names the cause.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut src = e.source();
    while let Some(c) = src {
        s.push_str(": ");
        s.push_str(&c.to_string());
        src = c.source();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_url_gets_v1_only_when_it_has_no_path() {
        let t = Duration::from_secs(1);
        let b = |u: &str| Upstream::new(u, None, t).map(|u| u.base().to_owned());
        assert_eq!(
            b("http://127.0.0.1:8080").unwrap(),
            "http://127.0.0.1:8080/v1"
        );
        assert_eq!(
            b("http://127.0.0.1:8080/").unwrap(),
            "http://127.0.0.1:8080/v1"
        );
        assert_eq!(b("http://h:1/v1/").unwrap(), "http://h:1/v1");
        assert_eq!(b("http://h:1/api/v1").unwrap(), "http://h:1/api/v1");
        assert!(b("https://h/v1").is_err());
        assert!(b("localhost:8080").is_err());
        assert!(b("http:///v1").is_err());
    }
}
