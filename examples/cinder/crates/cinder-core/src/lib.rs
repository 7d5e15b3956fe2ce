//! Building blocks shared by the cinder agent and its collector client:
//! configuration loading, path matching, log records and batching.

pub mod batch;
pub mod config;
pub mod glob;
pub mod record;

pub use batch::{Batch, Batcher, FlushReason};
pub use config::{Config, ConfigError};
pub use glob::{PathMatcher, PatternError};
pub use record::LogRecord;
