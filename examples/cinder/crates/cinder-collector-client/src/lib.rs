//! Ships batches to a collector over HTTP.
//!
//! Every batch is sent as one `POST` with a JSON envelope, gzip-compressed
//! unless `compression = "none"`. Connection errors, timeouts, `408`, `429`
//! and `5xx` responses (except `501`) are retried with [`Backoff`]; any other
//! non-success status means the collector rejected the payload and retrying
//! would not help.

pub mod backoff;

use std::io::Write;
use std::time::Duration;

use bytes::Bytes;
use cinder_core::config::{CollectorConfig, Compression};
use cinder_core::{Batch, LogRecord};
use flate2::write::GzEncoder;
use reqwest::header::{
    HeaderMap, HeaderValue, AUTHORIZATION, CONTENT_ENCODING, CONTENT_TYPE, RETRY_AFTER, USER_AGENT,
};
use reqwest::StatusCode;
use serde::Serialize;
use thiserror::Error;

pub use backoff::Backoff;

const AGENT_ID: &str = concat!("cinder-agent/", env!("CARGO_PKG_VERSION"));
/// Only this much of an error response body ends up in logs.
const MAX_ERROR_BODY_BYTES: usize = 512;

#[derive(Debug, Error)]
pub enum ShipError {
    #[error("collector rejected batch {seq} with status {status}: {body}")]
    Rejected {
        seq: u64,
        status: StatusCode,
        body: String,
    },
    #[error("giving up on batch {seq} after {attempts} attempts: {last}")]
    Exhausted { seq: u64, attempts: u32, last: String },
    #[error("failed to encode batch: {0}")]
    Encode(#[from] std::io::Error),
    #[error("invalid collector configuration: {0}")]
    Config(String),
}

/// Result of a successful delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delivery {
    pub attempts: u32,
    pub payload_bytes: usize,
}

#[derive(Serialize)]
struct Envelope<'a> {
    agent: &'a str,
    hostname: &'a str,
    seq: u64,
    records: &'a [LogRecord],
}

enum AttemptError {
    Retry {
        reason: String,
        retry_after: Option<Duration>,
    },
    Fatal {
        status: StatusCode,
        body: String,
    },
}

pub struct CollectorClient {
    http: reqwest::Client,
    url: reqwest::Url,
    compression: Compression,
    max_retries: u32,
    backoff: Backoff,
    hostname: String,
}

impl CollectorClient {
    pub fn new(cfg: &CollectorConfig, hostname: impl Into<String>) -> Result<Self, ShipError> {
        let url = reqwest::Url::parse(&cfg.url)
            .map_err(|e| ShipError::Config(format!("collector url `{}`: {e}", cfg.url)))?;

        let mut headers = HeaderMap::new();
        headers.insert(USER_AGENT, HeaderValue::from_static(AGENT_ID));
        if let Some(var) = &cfg.token_env {
            let token = std::env::var(var)
                .map_err(|_| ShipError::Config(format!("environment variable {var} is not set")))?;
            let mut value = HeaderValue::from_str(&format!("Bearer {}", token.trim())).map_err(|_| {
                ShipError::Config(format!("{var} contains characters that are not valid in a header"))
            })?;
            value.set_sensitive(true);
            headers.insert(AUTHORIZATION, value);
        }

        let http = reqwest::Client::builder()
            .default_headers(headers)
            .timeout(cfg.request_timeout())
            .pool_idle_timeout(Duration::from_secs(90))
            .build()
            .map_err(|e| ShipError::Config(e.to_string()))?;

        Ok(Self {
            http,
            url,
            compression: cfg.compression,
            max_retries: cfg.max_retries,
            backoff: Backoff::new(cfg.backoff_base(), cfg.backoff_max()),
            hostname: hostname.into(),
        })
    }

    /// Sends `batch`, retrying transient failures up to `max_retries` times.
    pub async fn ship(&self, batch: &Batch) -> Result<Delivery, ShipError> {
        let body = self.encode(batch)?;
        let payload_bytes = body.len();
        let mut attempt: u32 = 0;
        loop {
            attempt += 1;
            let (reason, retry_after) = match self.send_once(body.clone()).await {
                Ok(()) => {
                    return Ok(Delivery {
                        attempts: attempt,
                        payload_bytes,
                    })
                }
                Err(AttemptError::Fatal { status, body }) => {
                    return Err(ShipError::Rejected {
                        seq: batch.seq,
                        status,
                        body,
                    })
                }
                Err(AttemptError::Retry {
                    reason,
                    retry_after,
                }) => (reason, retry_after),
            };

            if attempt > self.max_retries {
                return Err(ShipError::Exhausted {
                    seq: batch.seq,
                    attempts: attempt,
                    last: reason,
                });
            }
            // Honour Retry-After, but never wait longer than our own backoff cap.
            let delay = match retry_after {
                Some(after) => after.min(self.backoff.max()),
                None => self.backoff.delay(attempt - 1),
            };
            tracing::warn!(
                seq = batch.seq,
                attempt,
                delay_ms = delay.as_millis() as u64,
                %reason,
                "delivery failed, will retry"
            );
            tokio::time::sleep(delay).await;
        }
    }

    async fn send_once(&self, body: Bytes) -> Result<(), AttemptError> {
        let mut request = self
            .http
            .post(self.url.clone())
            .header(CONTENT_TYPE, "application/json");
        if self.compression == Compression::Gzip {
            request = request.header(CONTENT_ENCODING, "gzip");
        }

        let response = match request.body(body).send().await {
            Ok(response) => response,
            Err(err) => {
                return Err(AttemptError::Retry {
                    reason: err.to_string(),
                    retry_after: None,
                })
            }
        };

        let status = response.status();
        if status.is_success() {
            return Ok(());
        }
        let retry_after = parse_retry_after(response.headers());
        let body = truncate_body(response.text().await.unwrap_or_default());
        if is_retryable(status) {
            Err(AttemptError::Retry {
                reason: format!("status {status}: {body}"),
                retry_after,
            })
        } else {
            Err(AttemptError::Fatal { status, body })
        }
    }

    fn encode(&self, batch: &Batch) -> Result<Bytes, ShipError> {
        let envelope = Envelope {
            agent: AGENT_ID,
            hostname: &self.hostname,
            seq: batch.seq,
            records: &batch.records,
        };
        let json = serde_json::to_vec(&envelope).map_err(std::io::Error::from)?;
        match self.compression {
            Compression::Identity => Ok(Bytes::from(json)),
            Compression::Gzip => {
                let mut encoder = GzEncoder::new(
                    Vec::with_capacity(json.len() / 4),
                    flate2::Compression::fast(),
                );
                encoder.write_all(&json)?;
                Ok(Bytes::from(encoder.finish()?))
            }
        }
    }
}

fn is_retryable(status: StatusCode) -> bool {
    matches!(status, StatusCode::REQUEST_TIMEOUT | StatusCode::TOO_MANY_REQUESTS)
        || (status.is_server_error() && status != StatusCode::NOT_IMPLEMENTED)
}

/// Only the delta-seconds form is supported; collectors don't send HTTP dates.
fn parse_retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?;
    value.trim().parse::<u64>().ok().map(Duration::from_secs)
}

fn truncate_body(mut body: String) -> String {
    if body.len() > MAX_ERROR_BODY_BYTES {
        let mut cut = MAX_ERROR_BODY_BYTES;
        while !body.is_char_boundary(cut) {
            cut -= 1;
        }
        body.truncate(cut);
        body.push('…');
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;
    use cinder_core::FlushReason;
    use wiremock::matchers::{header, method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};

    fn config(server: &MockServer) -> CollectorConfig {
        CollectorConfig {
            url: format!("{}/api/v1/ingest", server.uri()),
            compression: Compression::Identity,
            max_retries: 2,
            backoff_base_ms: 1,
            backoff_max_ms: 5,
            ..CollectorConfig::default()
        }
    }

    fn batch() -> Batch {
        let record = LogRecord::new("app".into(), "/var/log/app.log".into(), 0, 12, "hello world".into());
        Batch {
            seq: 7,
            bytes: record.encoded_len(),
            records: vec![record],
            reason: FlushReason::Shutdown,
        }
    }

    #[tokio::test]
    async fn retries_server_errors_then_succeeds() {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/api/v1/ingest"))
            .respond_with(ResponseTemplate::new(503))
            .up_to_n_times(2)
            .mount(&server)
            .await;
        Mock::given(method("POST"))
            .and(path("/api/v1/ingest"))
            .and(header("content-type", "application/json"))
            .respond_with(ResponseTemplate::new(202))
            .mount(&server)
            .await;

        let client = CollectorClient::new(&config(&server), "test-host").unwrap();
        let delivery = client.ship(&batch()).await.unwrap();
        assert_eq!(delivery.attempts, 3);
    }

    #[tokio::test]
    async fn client_errors_are_not_retried() {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(400).set_body_string("records[0].ts_ms: missing"))
            .expect(1)
            .mount(&server)
            .await;

        let client = CollectorClient::new(&config(&server), "test-host").unwrap();
        let err = client.ship(&batch()).await.unwrap_err();
        assert!(
            matches!(&err, ShipError::Rejected { status, seq: 7, .. } if *status == StatusCode::BAD_REQUEST),
            "{err}"
        );
    }

    #[tokio::test]
    async fn gives_up_after_max_retries() {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(500))
            .expect(3)
            .mount(&server)
            .await;

        let client = CollectorClient::new(&config(&server), "test-host").unwrap();
        match client.ship(&batch()).await {
            Err(ShipError::Exhausted { attempts, .. }) => assert_eq!(attempts, 3),
            other => panic!("expected Exhausted, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn gzip_payloads_are_labelled() {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(header("content-encoding", "gzip"))
            .respond_with(ResponseTemplate::new(200))
            .expect(1)
            .mount(&server)
            .await;

        let cfg = CollectorConfig {
            compression: Compression::Gzip,
            ..config(&server)
        };
        let client = CollectorClient::new(&cfg, "test-host").unwrap();
        client.ship(&batch()).await.unwrap();
    }

    #[test]
    fn retry_classification() {
        assert!(is_retryable(StatusCode::SERVICE_UNAVAILABLE));
        assert!(is_retryable(StatusCode::TOO_MANY_REQUESTS));
        assert!(!is_retryable(StatusCode::NOT_IMPLEMENTED));
        assert!(!is_retryable(StatusCode::PAYLOAD_TOO_LARGE));
    }

    #[test]
    fn retry_after_seconds_are_parsed() {
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, HeaderValue::from_static(" 12 "));
        assert_eq!(parse_retry_after(&headers), Some(Duration::from_secs(12)));
        headers.insert(RETRY_AFTER, HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"));
        assert_eq!(parse_retry_after(&headers), None);
    }
}
