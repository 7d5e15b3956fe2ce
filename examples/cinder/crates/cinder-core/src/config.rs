//! Agent configuration.
//!
//! Configuration is read from one or more TOML files. Later files are merged
//! on top of earlier ones table by table, so a production file only needs to
//! list the keys it overrides. Arrays (such as the `[[input]]` list) are
//! replaced as a whole. Anything that is still unset falls back to the
//! `DEFAULT_*` constants below.

use std::collections::BTreeMap;
use std::fs;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use thiserror::Error;

/// Number of lines collected into one batch before it is shipped.
pub const DEFAULT_BATCH_MAX_LINES: usize = 500;
/// Soft limit for the uncompressed size of one batch (1 MiB).
pub const DEFAULT_BATCH_MAX_BYTES: usize = 1_048_576;
/// How long a batch that is not full yet may wait before it is shipped anyway.
pub const DEFAULT_FLUSH_INTERVAL_MS: u64 = 1750;
/// Retries after the first failed delivery attempt (7 attempts in total).
pub const DEFAULT_MAX_RETRIES: u32 = 6;
/// Delay ceiling before the first retry; doubles with every further retry.
pub const DEFAULT_BACKOFF_BASE_MS: u64 = 250;
/// Upper bound for a single backoff delay.
pub const DEFAULT_BACKOFF_MAX_MS: u64 = 45_000;
pub const DEFAULT_REQUEST_TIMEOUT_MS: u64 = 8_000;
pub const DEFAULT_COLLECTOR_URL: &str = "http://127.0.0.1:7280/api/v1/ingest";
/// Port of the Prometheus scrape endpoint when `[metrics] listen` is not set.
pub const DEFAULT_METRICS_PORT: u16 = 9464;
/// Wake-up interval of the tailer on filesystems without change notifications.
pub const DEFAULT_POLL_INTERVAL_MS: u64 = 250;
/// Lines longer than this are truncated before they are batched.
pub const DEFAULT_MAX_LINE_BYTES: usize = 16_384;
pub const DEFAULT_CHECKPOINT_PATH: &str = "/var/lib/cinder/checkpoints.json";

/// Flush intervals below this would turn the agent into a request-per-line shipper.
const MIN_FLUSH_INTERVAL_MS: u64 = 50;

#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("failed to read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("failed to parse {}: {source}", path.display())]
    Parse {
        path: PathBuf,
        #[source]
        source: toml::de::Error,
    },
    #[error("invalid configuration: {0}")]
    Schema(#[from] toml::de::Error),
    #[error("invalid configuration: {0}")]
    Invalid(String),
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub agent: AgentConfig,
    #[serde(rename = "input")]
    pub inputs: Vec<InputConfig>,
    pub batch: BatchConfig,
    pub collector: CollectorConfig,
    pub metrics: MetricsConfig,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AgentConfig {
    /// Reported with every batch; detected from the host when unset.
    pub hostname: Option<String>,
    pub checkpoint_path: PathBuf,
    pub poll_interval_ms: u64,
    pub max_line_bytes: usize,
    /// Static labels attached to every record shipped by this agent.
    pub labels: BTreeMap<String, String>,
}

impl Default for AgentConfig {
    fn default() -> Self {
        Self {
            hostname: None,
            checkpoint_path: PathBuf::from(DEFAULT_CHECKPOINT_PATH),
            poll_interval_ms: DEFAULT_POLL_INTERVAL_MS,
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            labels: BTreeMap::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputConfig {
    pub name: String,
    /// Absolute glob patterns, see [`crate::glob`] for the syntax.
    pub include: Vec<String>,
    #[serde(default)]
    pub exclude: Vec<String>,
    /// Where to start reading files that have no checkpoint yet.
    #[serde(default)]
    pub start_at: StartAt,
    /// Labels for this input; they take precedence over `[agent] labels`.
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StartAt {
    Beginning,
    #[default]
    End,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BatchConfig {
    pub max_lines: usize,
    pub max_bytes: usize,
    pub flush_interval_ms: u64,
}

impl Default for BatchConfig {
    fn default() -> Self {
        Self {
            max_lines: DEFAULT_BATCH_MAX_LINES,
            max_bytes: DEFAULT_BATCH_MAX_BYTES,
            flush_interval_ms: DEFAULT_FLUSH_INTERVAL_MS,
        }
    }
}

impl BatchConfig {
    pub fn flush_interval(&self) -> Duration {
        Duration::from_millis(self.flush_interval_ms)
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub enum Compression {
    #[default]
    #[serde(rename = "gzip")]
    Gzip,
    #[serde(rename = "none")]
    Identity,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CollectorConfig {
    pub url: String,
    /// Name of the environment variable holding the bearer token.
    pub token_env: Option<String>,
    pub compression: Compression,
    pub request_timeout_ms: u64,
    pub max_retries: u32,
    pub backoff_base_ms: u64,
    pub backoff_max_ms: u64,
}

impl Default for CollectorConfig {
    fn default() -> Self {
        Self {
            url: DEFAULT_COLLECTOR_URL.to_owned(),
            token_env: None,
            compression: Compression::default(),
            request_timeout_ms: DEFAULT_REQUEST_TIMEOUT_MS,
            max_retries: DEFAULT_MAX_RETRIES,
            backoff_base_ms: DEFAULT_BACKOFF_BASE_MS,
            backoff_max_ms: DEFAULT_BACKOFF_MAX_MS,
        }
    }
}

impl CollectorConfig {
    pub fn request_timeout(&self) -> Duration {
        Duration::from_millis(self.request_timeout_ms)
    }

    pub fn backoff_base(&self) -> Duration {
        Duration::from_millis(self.backoff_base_ms)
    }

    pub fn backoff_max(&self) -> Duration {
        Duration::from_millis(self.backoff_max_ms)
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MetricsConfig {
    pub enabled: bool,
    pub listen: SocketAddr,
}

impl Default for MetricsConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            listen: SocketAddr::from((Ipv4Addr::UNSPECIFIED, DEFAULT_METRICS_PORT)),
        }
    }
}

impl Config {
    /// Loads and merges the given files in order; later files win.
    pub fn load<P: AsRef<Path>>(paths: &[P]) -> Result<Self, ConfigError> {
        let mut merged = toml::Table::new();
        for path in paths {
            let path = path.as_ref();
            let text = fs::read_to_string(path).map_err(|source| ConfigError::Read {
                path: path.to_owned(),
                source,
            })?;
            let table: toml::Table = text.parse().map_err(|source| ConfigError::Parse {
                path: path.to_owned(),
                source,
            })?;
            merge_tables(&mut merged, table);
        }
        Ok(toml::Value::Table(merged).try_into()?)
    }

    pub fn from_toml_str(text: &str) -> Result<Self, ConfigError> {
        Ok(toml::from_str(text)?)
    }

    /// Checks invariants that serde cannot express.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let invalid = |msg: String| Err(ConfigError::Invalid(msg));

        if self.inputs.is_empty() {
            return invalid("at least one [[input]] section is required".into());
        }
        let mut names = std::collections::BTreeSet::new();
        for input in &self.inputs {
            if !names.insert(input.name.as_str()) {
                return invalid(format!("input name `{}` is used more than once", input.name));
            }
            if input.include.is_empty() {
                return invalid(format!("input `{}` has no include patterns", input.name));
            }
        }
        if self.batch.max_lines == 0 {
            return invalid("batch.max_lines must be at least 1".into());
        }
        if self.batch.max_bytes < self.agent.max_line_bytes {
            return invalid(format!(
                "batch.max_bytes ({}) is smaller than agent.max_line_bytes ({})",
                self.batch.max_bytes, self.agent.max_line_bytes
            ));
        }
        if self.batch.flush_interval_ms < MIN_FLUSH_INTERVAL_MS {
            return invalid(format!(
                "batch.flush_interval_ms must be at least {MIN_FLUSH_INTERVAL_MS}"
            ));
        }
        if !(self.collector.url.starts_with("http://") || self.collector.url.starts_with("https://")) {
            return invalid(format!("collector.url `{}` is not an http(s) URL", self.collector.url));
        }
        if self.collector.backoff_base_ms > self.collector.backoff_max_ms {
            return invalid("collector.backoff_base_ms is larger than collector.backoff_max_ms".into());
        }
        Ok(())
    }
}

fn merge_tables(base: &mut toml::Table, overlay: toml::Table) {
    for (key, value) in overlay {
        match value {
            toml::Value::Table(incoming) => match base.get_mut(&key) {
                Some(toml::Value::Table(existing)) => merge_tables(existing, incoming),
                _ => {
                    base.insert(key, toml::Value::Table(incoming));
                }
            },
            other => {
                base.insert(key, other);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = r#"
        [[input]]
        name = "nginx"
        include = ["/var/log/nginx/*.log"]
    "#;

    #[test]
    fn unset_keys_fall_back_to_defaults() {
        let cfg = Config::from_toml_str(MINIMAL).unwrap();
        cfg.validate().unwrap();

        assert_eq!(cfg.batch, BatchConfig::default());
        assert_eq!(cfg.batch.max_lines, DEFAULT_BATCH_MAX_LINES);
        assert_eq!(
            cfg.batch.flush_interval(),
            Duration::from_millis(DEFAULT_FLUSH_INTERVAL_MS)
        );
        assert_eq!(cfg.collector.max_retries, DEFAULT_MAX_RETRIES);
        assert_eq!(cfg.collector.compression, Compression::Gzip);
        assert_eq!(cfg.metrics.listen.port(), DEFAULT_METRICS_PORT);
        assert_eq!(cfg.inputs[0].start_at, StartAt::End);
    }

    #[test]
    fn later_files_override_earlier_ones_key_by_key() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("base.toml");
        let overlay = dir.path().join("overlay.toml");
        fs::write(
            &base,
            format!("{MINIMAL}\n[batch]\nmax_lines = 64\nmax_bytes = 65536\n"),
        )
        .unwrap();
        fs::write(&overlay, "[batch]\nmax_lines = 128\n\n[agent]\nlabels = { env = \"test\" }\n").unwrap();

        let cfg = Config::load(&[base, overlay]).unwrap();
        assert_eq!(cfg.batch.max_lines, 128);
        assert_eq!(cfg.batch.max_bytes, 65536);
        assert_eq!(cfg.inputs.len(), 1);
        assert_eq!(cfg.agent.labels.get("env").map(String::as_str), Some("test"));
    }

    #[test]
    fn input_lists_are_replaced_not_appended() {
        let mut base: toml::Table = MINIMAL.parse().unwrap();
        let overlay: toml::Table = r#"
            [[input]]
            name = "app"
            include = ["/srv/app/logs/**/*.log"]
        "#
        .parse()
        .unwrap();
        merge_tables(&mut base, overlay);

        let cfg: Config = toml::Value::Table(base).try_into().unwrap();
        assert_eq!(cfg.inputs.len(), 1);
        assert_eq!(cfg.inputs[0].name, "app");
    }

    #[test]
    fn unknown_keys_are_rejected() {
        let err = Config::from_toml_str("[batch]\nmax_line = 10\n").unwrap_err();
        assert!(err.to_string().contains("max_line"), "{err}");
    }

    #[test]
    fn backoff_base_above_max_is_invalid() {
        let text = format!("{MINIMAL}\n[collector]\nbackoff_base_ms = 5000\nbackoff_max_ms = 1000\n");
        let cfg = Config::from_toml_str(&text).unwrap();
        assert!(matches!(cfg.validate(), Err(ConfigError::Invalid(_))));
    }

    #[test]
    fn duplicate_input_names_are_invalid() {
        let text = format!("{MINIMAL}\n{MINIMAL}");
        let cfg = Config::from_toml_str(&text).unwrap();
        let err = cfg.validate().unwrap_err();
        assert!(err.to_string().contains("more than once"), "{err}");
    }
}
