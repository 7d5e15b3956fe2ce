//! Follows the files selected by the `[[input]]` sections.
//!
//! Tailing runs on a dedicated blocking thread: reads are synchronous and a
//! busy host can have hundreds of open logs. The thread wakes up when `notify`
//! reports a change and at least every `agent.poll_interval_ms`, for
//! filesystems that don't deliver events (NFS, some overlay setups).
//!
//! Rotation handling:
//! * rename + create (logrotate default): the old handle is read to EOF, then
//!   the new file at the same path is followed from offset 0;
//! * copytruncate: the file shrinks below our offset, so reading restarts at 0.

use std::collections::{BTreeMap, HashMap};
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self as std_mpsc, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use cinder_core::config::{Config, StartAt};
use cinder_core::record::truncate_line;
use cinder_core::{LogRecord, PathMatcher};
use notify::event::ModifyKind;
use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::checkpoint::CheckpointStore;
use crate::telemetry;

/// Matching files are re-discovered at least this often, events or not.
const RESCAN_INTERVAL: Duration = Duration::from_secs(10);

#[derive(Debug, Clone, Copy)]
enum Wake {
    /// Files may have appeared or disappeared.
    Rescan,
    /// Known files may have grown.
    Read,
}

struct Input {
    name: Arc<str>,
    matcher: PathMatcher,
    start_at: StartAt,
    labels: Arc<BTreeMap<String, String>>,
}

struct TrackedFile {
    input: usize,
    path: Arc<str>,
    reader: BufReader<File>,
    inode: u64,
    offset: u64,
    /// Bytes of a line whose terminator has not been written yet.
    partial: Vec<u8>,
}

impl TrackedFile {
    fn rewind(&mut self) -> io::Result<()> {
        self.reader.seek(SeekFrom::Start(0))?;
        self.offset = 0;
        self.partial.clear();
        Ok(())
    }
}

/// The receiving end of the line channel is gone: the agent is shutting down.
#[derive(Debug)]
struct Closed;

pub struct Tailer {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
    _watcher: Option<RecommendedWatcher>,
}

impl Tailer {
    pub fn spawn(config: &Config, checkpoints: CheckpointStore, tx: mpsc::Sender<LogRecord>) -> Result<Self> {
        let mut inputs = Vec::with_capacity(config.inputs.len());
        for input in &config.inputs {
            let matcher = PathMatcher::new(&input.include, &input.exclude)
                .with_context(|| format!("input `{}`", input.name))?;
            let mut labels = config.agent.labels.clone();
            labels.extend(input.labels.clone());
            inputs.push(Input {
                name: input.name.as_str().into(),
                matcher,
                start_at: input.start_at,
                labels: Arc::new(labels),
            });
        }

        let (wake_tx, wake_rx) = std_mpsc::channel();
        let watcher = match watch(&inputs, wake_tx) {
            Ok(watcher) => Some(watcher),
            Err(err) => {
                tracing::warn!(error = %err, "file change notifications unavailable, polling only");
                None
            }
        };

        let state = TailState {
            inputs,
            files: HashMap::new(),
            checkpoints,
            tx,
            max_line_bytes: config.agent.max_line_bytes,
            poll_interval: Duration::from_millis(config.agent.poll_interval_ms),
            initial_scan_done: false,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = Arc::clone(&stop);
        let handle = tokio::task::spawn_blocking(move || state.run(&wake_rx, &thread_stop));

        Ok(Self {
            stop,
            handle,
            _watcher: watcher,
        })
    }

    pub async fn shutdown(self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Err(err) = self.handle.await {
            tracing::error!(error = %err, "tailer thread panicked");
        }
    }
}

fn watch(inputs: &[Input], wake: std_mpsc::Sender<Wake>) -> notify::Result<RecommendedWatcher> {
    let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        let Ok(event) = res else { return };
        let kind = match event.kind {
            EventKind::Create(_) | EventKind::Remove(_) | EventKind::Modify(ModifyKind::Name(_)) => {
                Wake::Rescan
            }
            EventKind::Modify(_) => Wake::Read,
            _ => return,
        };
        let _ = wake.send(kind);
    })?;

    let mut dirs: Vec<_> = inputs.iter().flat_map(|i| i.matcher.base_dirs()).collect();
    dirs.sort();
    dirs.dedup();
    for dir in dirs {
        if let Err(err) = watcher.watch(&dir, RecursiveMode::Recursive) {
            tracing::warn!(dir = %dir.display(), error = %err, "cannot watch directory, it will be polled");
        }
    }
    Ok(watcher)
}

struct TailState {
    inputs: Vec<Input>,
    files: HashMap<Arc<str>, TrackedFile>,
    checkpoints: CheckpointStore,
    tx: mpsc::Sender<LogRecord>,
    max_line_bytes: usize,
    poll_interval: Duration,
    /// Files found after the first scan are new and always read from the start.
    initial_scan_done: bool,
}

impl TailState {
    fn run(mut self, wake: &std_mpsc::Receiver<Wake>, stop: &AtomicBool) {
        let mut next_rescan = Instant::now();
        while !stop.load(Ordering::Relaxed) {
            if Instant::now() >= next_rescan {
                self.rescan();
                next_rescan = Instant::now() + RESCAN_INTERVAL;
            }
            if self.read_all().is_err() {
                break;
            }
            match wake.recv_timeout(self.poll_interval) {
                Ok(Wake::Rescan) => next_rescan = Instant::now(),
                Ok(Wake::Read) | Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    // No watcher: plain polling. This is a dedicated blocking
                    // thread, not a runtime worker.
                    #[allow(clippy::disallowed_methods)]
                    std::thread::sleep(self.poll_interval);
                }
            }
            // Coalesce a burst of events into a single pass.
            for kind in wake.try_iter() {
                if matches!(kind, Wake::Rescan) {
                    next_rescan = Instant::now();
                }
            }
        }
        tracing::debug!(files = self.files.len(), "tailer stopped");
    }

    fn rescan(&mut self) {
        let mut discovered = Vec::new();
        for (idx, input) in self.inputs.iter().enumerate() {
            match input.matcher.expand() {
                Ok(paths) => discovered.extend(paths.into_iter().map(|p| (idx, p))),
                Err(err) => tracing::warn!(input = %input.name, error = %err, "listing files failed"),
            }
        }
        for (idx, path) in discovered {
            let key: Arc<str> = path.to_string_lossy().into();
            if self.files.contains_key(&key) {
                continue;
            }
            match self.open(idx, &key, false) {
                Ok(tracked) => {
                    tracing::info!(input = %self.inputs[idx].name, path = %key, offset = tracked.offset, "following file");
                    self.files.insert(key, tracked);
                }
                Err(err) => tracing::warn!(path = %key, error = %err, "cannot open file"),
            }
        }
        self.initial_scan_done = true;
    }

    fn open(&self, input: usize, path: &Arc<str>, rotated: bool) -> io::Result<TrackedFile> {
        let file = File::open(&**path)?;
        let meta = file.metadata()?;
        let inode = meta.ino();
        let offset = if rotated {
            0
        } else {
            self.initial_offset(input, path, inode, meta.len())
        };
        let mut reader = BufReader::with_capacity(64 * 1024, file);
        reader.seek(SeekFrom::Start(offset))?;
        self.checkpoints.track(path, inode, offset);
        Ok(TrackedFile {
            input,
            path: Arc::clone(path),
            reader,
            inode,
            offset,
            partial: Vec::new(),
        })
    }

    fn initial_offset(&self, input: usize, path: &str, inode: u64, len: u64) -> u64 {
        match self.checkpoints.get(path) {
            Some(cp) if cp.inode == inode && cp.offset <= len => cp.offset,
            // rotated or truncated while the agent was not running
            Some(_) => 0,
            None if self.initial_scan_done => 0,
            None => match self.inputs[input].start_at {
                StartAt::Beginning => 0,
                StartAt::End => len,
            },
        }
    }

    fn read_all(&mut self) -> Result<(), Closed> {
        let keys: Vec<Arc<str>> = self.files.keys().cloned().collect();
        for key in keys {
            let Some(mut tracked) = self.files.remove(&key) else {
                continue;
            };
            let input = &self.inputs[tracked.input];
            drain_lines(&mut tracked, input, self.max_line_bytes, &self.tx)?;

            match fs::metadata(&*key) {
                Ok(meta) if meta.ino() != tracked.inode => {
                    tracing::info!(path = %key, "file rotated, following the new file");
                    telemetry::file_rotated(&input.name);
                    match self.open(tracked.input, &key, true) {
                        Ok(new) => {
                            self.files.insert(key, new);
                        }
                        Err(err) => tracing::warn!(path = %key, error = %err, "cannot open rotated file"),
                    }
                }
                Ok(meta) if meta.len() < tracked.offset => {
                    tracing::info!(path = %key, "file truncated, reading from the start");
                    match tracked.rewind() {
                        Ok(()) => {
                            self.checkpoints.track(&key, tracked.inode, 0);
                            self.files.insert(key, tracked);
                        }
                        Err(err) => tracing::warn!(path = %key, error = %err, "cannot rewind file"),
                    }
                }
                Ok(_) => {
                    self.files.insert(key, tracked);
                }
                Err(err) if err.kind() == io::ErrorKind::NotFound => {
                    tracing::debug!(path = %key, "file removed, no longer following it");
                    self.checkpoints.forget(&key);
                }
                Err(err) => {
                    tracing::warn!(path = %key, error = %err, "stat failed");
                    self.files.insert(key, tracked);
                }
            }
        }
        Ok(())
    }
}

/// Sends every complete line available in `tracked`. An unterminated last
/// line stays in `tracked.partial` until the writer finishes it.
fn drain_lines(
    tracked: &mut TrackedFile,
    input: &Input,
    max_line_bytes: usize,
    tx: &mpsc::Sender<LogRecord>,
) -> Result<(), Closed> {
    loop {
        match tracked.reader.read_until(b'\n', &mut tracked.partial) {
            Ok(0) => return Ok(()),
            Ok(_) if tracked.partial.last() != Some(&b'\n') => return Ok(()),
            Ok(_) => {}
            Err(err) => {
                tracing::warn!(path = %tracked.path, error = %err, "read failed");
                return Ok(());
            }
        }

        let start = tracked.offset;
        tracked.offset += tracked.partial.len() as u64;
        let mut line = String::from_utf8_lossy(trim_line_ending(&tracked.partial)).into_owned();
        tracked.partial.clear();

        if truncate_line(&mut line, max_line_bytes) {
            telemetry::line_truncated(&input.name);
        }
        telemetry::line_read(&input.name);

        let record = LogRecord::new(
            Arc::clone(&input.name),
            Arc::clone(&tracked.path),
            start,
            tracked.offset,
            line,
        )
        .with_labels(Arc::clone(&input.labels));
        tx.blocking_send(record).map_err(|_| Closed)?;
    }
}

fn trim_line_ending(raw: &[u8]) -> &[u8] {
    let raw = raw.strip_suffix(b"\n").unwrap_or(raw);
    raw.strip_suffix(b"\r").unwrap_or(raw)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn input() -> Input {
        Input {
            name: "test".into(),
            matcher: PathMatcher::new::<&str>(&["/tmp/**"], &[]).unwrap(),
            start_at: StartAt::Beginning,
            labels: Arc::default(),
        }
    }

    fn tracked(path: &std::path::Path) -> TrackedFile {
        let file = File::open(path).unwrap();
        let inode = file.metadata().unwrap().ino();
        TrackedFile {
            input: 0,
            path: path.to_string_lossy().into(),
            reader: BufReader::new(file),
            inode,
            offset: 0,
            partial: Vec::new(),
        }
    }

    #[test]
    fn line_endings_are_trimmed() {
        assert_eq!(trim_line_ending(b"GET /\r\n"), b"GET /");
        assert_eq!(trim_line_ending(b"GET /\n"), b"GET /");
        assert_eq!(trim_line_ending(b"no newline"), b"no newline");
    }

    #[test]
    fn partial_lines_wait_for_their_terminator() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("app.log");
        let mut writer = File::create(&path).unwrap();
        writer.write_all(b"first\nsecond\nthi").unwrap();

        let (tx, mut rx) = mpsc::channel(16);
        let mut file = tracked(&path);
        let input = input();

        drain_lines(&mut file, &input, 1024, &tx).unwrap();
        assert_eq!(rx.try_recv().unwrap().line, "first");
        let second = rx.try_recv().unwrap();
        assert_eq!((second.line.as_str(), second.offset, second.next_offset), ("second", 6, 13));
        assert!(rx.try_recv().is_err());
        assert_eq!(file.offset, 13);

        writer.write_all(b"rd\n").unwrap();
        drain_lines(&mut file, &input, 1024, &tx).unwrap();
        let third = rx.try_recv().unwrap();
        assert_eq!((third.line.as_str(), third.next_offset), ("third", 19));
    }

    #[test]
    fn rewind_drops_buffered_partial_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("app.log");
        fs::write(&path, b"complete\nhalf").unwrap();

        let (tx, mut rx) = mpsc::channel(16);
        let mut file = tracked(&path);
        drain_lines(&mut file, &input(), 1024, &tx).unwrap();
        assert_eq!(file.partial, b"half");

        // copytruncate: the file is emptied and written again from the start
        fs::write(&path, b"fresh\n").unwrap();
        file.rewind().unwrap();
        drain_lines(&mut file, &input(), 1024, &tx).unwrap();

        assert_eq!(rx.try_recv().unwrap().line, "complete");
        assert_eq!(rx.try_recv().unwrap().line, "fresh");
        assert!(rx.try_recv().is_err());
    }
}
