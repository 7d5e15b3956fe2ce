//! Evaluation on the Berkeley Function Calling Leaderboard (BFCL v4) data: loading, recording,
//! replay, scoring and reports; and on agent [`tasks`], whole tool-loop runs judged by what they
//! leave behind.
//!
//! [`data`] loads questions and ground truth, [`types`] maps BFCL's Python-ish types to JSON
//! Schema, [`score`] is BFCL's AST checker, [`parse`] turns a raw model output into calls under the
//! `strict`, `extract` and `full` parsers, [`record`] writes and reads the raw outputs (one JSON line
//! per question) and [`report`] aggregates scores into the Markdown and JSON reports.

pub mod data;
pub mod parse;
pub mod record;
pub mod report;
pub mod score;
pub mod tasks;
pub mod types;
