mod checkpoint;
mod tail;
mod telemetry;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use cinder_collector_client::CollectorClient;
use cinder_core::{Batch, Batcher, Config, LogRecord};
use clap::Parser;
use tokio::sync::mpsc;
use tokio::time::MissedTickBehavior;
use tracing_subscriber::EnvFilter;

use crate::checkpoint::CheckpointStore;
use crate::tail::Tailer;

/// How often shipped offsets are written to the checkpoint file.
const CHECKPOINT_PERSIST_INTERVAL: Duration = Duration::from_secs(5);

#[derive(Debug, Parser)]
#[command(name = "cinder-agent", version, about = "Tails log files and ships them to a collector")]
struct Args {
    /// Configuration file. Repeat to layer overrides on top of a base file.
    #[arg(
        short,
        long = "config",
        value_name = "PATH",
        env = "CINDER_CONFIG",
        value_delimiter = ',',
        required = true
    )]
    configs: Vec<PathBuf>,

    /// Overrides `[collector] url`.
    #[arg(long, value_name = "URL", env = "CINDER_COLLECTOR_URL")]
    collector_url: Option<String>,

    /// Overrides `[metrics] listen`.
    #[arg(long, value_name = "ADDR", env = "CINDER_METRICS_LISTEN")]
    metrics_listen: Option<SocketAddr>,

    /// Log as JSON lines instead of human readable text.
    #[arg(long, env = "CINDER_LOG_JSON")]
    log_json: bool,

    /// Load and validate the configuration, then exit.
    #[arg(long)]
    check_config: bool,
}

#[tokio::main]
async fn main() -> Result<()> {
    let args = Args::parse();
    init_logging(args.log_json);

    let mut config = Config::load(&args.configs).context("loading configuration")?;
    if let Some(url) = args.collector_url {
        config.collector.url = url;
    }
    if let Some(listen) = args.metrics_listen {
        config.metrics.listen = listen;
    }
    config.validate().context("validating configuration")?;

    if args.check_config {
        println!(
            "configuration OK: {} input(s), shipping to {}",
            config.inputs.len(),
            config.collector.url
        );
        return Ok(());
    }

    tracing::info!(
        version = env!("CARGO_PKG_VERSION"),
        collector = %config.collector.url,
        max_lines = config.batch.max_lines,
        flush_interval_ms = config.batch.flush_interval_ms,
        "starting cinder-agent"
    );

    if config.metrics.enabled {
        telemetry::install(config.metrics.listen)?;
    }

    let hostname = config
        .agent
        .hostname
        .clone()
        .or_else(detect_hostname)
        .unwrap_or_else(|| "unknown".to_owned());
    let client = CollectorClient::new(&config.collector, hostname).context("creating collector client")?;
    let checkpoints = CheckpointStore::open(&config.agent.checkpoint_path)
        .with_context(|| format!("opening {}", config.agent.checkpoint_path.display()))?;

    // Bounded so that a slow collector pushes back on the tailer instead of
    // buffering the whole log directory in memory.
    let (tx, rx) = mpsc::channel(config.batch.max_lines.saturating_mul(4).max(1024));
    let tailer = Tailer::spawn(&config, checkpoints.clone(), tx)?;

    let result = run(&config, &client, &checkpoints, rx).await;
    tailer.shutdown().await;
    result
}

async fn run(
    config: &Config,
    client: &CollectorClient,
    checkpoints: &CheckpointStore,
    mut rx: mpsc::Receiver<LogRecord>,
) -> Result<()> {
    let mut batcher = Batcher::new(&config.batch);
    let mut persist = tokio::time::interval(CHECKPOINT_PERSIST_INTERVAL);
    persist.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let shutdown = shutdown_signal();
    tokio::pin!(shutdown);

    loop {
        tokio::select! {
            record = rx.recv() => {
                let Some(record) = record else { break };
                if let Some(batch) = batcher.push(record, Instant::now()) {
                    deliver(client, checkpoints, batch).await;
                }
            }
            () = sleep_until(batcher.deadline()) => {
                if let Some(batch) = batcher.flush_if_due(Instant::now()) {
                    deliver(client, checkpoints, batch).await;
                }
            }
            _ = persist.tick() => {
                if let Err(err) = checkpoints.persist() {
                    tracing::warn!(error = %err, "writing checkpoints failed");
                }
            }
            () = &mut shutdown => {
                tracing::info!(pending = batcher.pending(), "shutdown requested, flushing");
                break;
            }
        }
    }

    if let Some(batch) = batcher.drain() {
        deliver(client, checkpoints, batch).await;
    }
    checkpoints.persist().context("writing checkpoints on shutdown")?;
    Ok(())
}

async fn deliver(client: &CollectorClient, checkpoints: &CheckpointStore, batch: Batch) {
    let started = Instant::now();
    match client.ship(&batch).await {
        Ok(delivery) => {
            telemetry::batch_shipped(&batch, delivery, started.elapsed());
            checkpoints.advance(batch.records.iter().map(|r| (&*r.path, r.next_offset)));
        }
        Err(err) => {
            telemetry::batch_dropped(&batch);
            tracing::error!(seq = batch.seq, lines = batch.len(), error = %err, "dropping batch");
        }
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(tokio::time::Instant::from_std(at)).await,
        None => std::future::pending().await,
    }
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut term = signal(SignalKind::terminate()).expect("installing SIGTERM handler");
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

fn detect_hostname() -> Option<String> {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
}

fn init_logging(json: bool) {
    let filter = EnvFilter::try_from_env("CINDER_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_target(false);
    if json {
        builder.json().init();
    } else {
        builder.init();
    }
}
