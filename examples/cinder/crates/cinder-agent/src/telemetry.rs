//! Prometheus metrics.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, Result};
use cinder_collector_client::Delivery;
use cinder_core::Batch;
use metrics::{counter, describe_counter, describe_histogram, histogram, Unit};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder};

const SHIP_SECONDS: &str = "cinder_batch_ship_seconds";
const PAYLOAD_BYTES: &str = "cinder_batch_payload_bytes";

pub fn install(listen: SocketAddr) -> Result<()> {
    PrometheusBuilder::new()
        .with_http_listener(listen)
        .set_buckets_for_metric(
            Matcher::Full(SHIP_SECONDS.to_owned()),
            &[0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0],
        )?
        .set_buckets_for_metric(
            Matcher::Full(PAYLOAD_BYTES.to_owned()),
            &[1024.0, 8192.0, 65536.0, 262_144.0, 1_048_576.0, 4_194_304.0],
        )?
        .install()
        .with_context(|| format!("starting metrics endpoint on {listen}"))?;

    describe_counter!("cinder_lines_read_total", Unit::Count, "Lines read from log files");
    describe_counter!("cinder_lines_truncated_total", Unit::Count, "Lines cut to agent.max_line_bytes");
    describe_counter!("cinder_files_rotated_total", Unit::Count, "Rotations detected by the tailer");
    describe_counter!("cinder_batches_shipped_total", Unit::Count, "Batches accepted by the collector");
    describe_counter!("cinder_lines_shipped_total", Unit::Count, "Lines accepted by the collector");
    describe_counter!("cinder_delivery_retries_total", Unit::Count, "Retried delivery attempts");
    describe_counter!("cinder_batches_dropped_total", Unit::Count, "Batches given up after retries");
    describe_counter!("cinder_lines_dropped_total", Unit::Count, "Lines in dropped batches");
    describe_histogram!(SHIP_SECONDS, Unit::Seconds, "Time to deliver a batch, including retries");
    describe_histogram!(PAYLOAD_BYTES, Unit::Bytes, "Encoded (possibly compressed) request body size");

    tracing::info!(%listen, "serving Prometheus metrics on /metrics");
    Ok(())
}

pub fn line_read(input: &str) {
    counter!("cinder_lines_read_total", "input" => input.to_owned()).increment(1);
}

pub fn line_truncated(input: &str) {
    counter!("cinder_lines_truncated_total", "input" => input.to_owned()).increment(1);
}

pub fn file_rotated(input: &str) {
    counter!("cinder_files_rotated_total", "input" => input.to_owned()).increment(1);
}

pub fn batch_shipped(batch: &Batch, delivery: Delivery, elapsed: Duration) {
    counter!("cinder_batches_shipped_total", "reason" => batch.reason.as_str()).increment(1);
    counter!("cinder_lines_shipped_total").increment(batch.len() as u64);
    counter!("cinder_delivery_retries_total").increment(u64::from(delivery.attempts.saturating_sub(1)));
    histogram!(SHIP_SECONDS).record(elapsed.as_secs_f64());
    histogram!(PAYLOAD_BYTES).record(delivery.payload_bytes as f64);
}

pub fn batch_dropped(batch: &Batch) {
    counter!("cinder_batches_dropped_total").increment(1);
    counter!("cinder_lines_dropped_total").increment(batch.len() as u64);
}
