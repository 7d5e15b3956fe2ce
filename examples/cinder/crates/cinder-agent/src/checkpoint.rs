//! Read positions that survive restarts.
//!
//! Offsets only move forward once the collector has accepted the lines
//! before them, so after a crash lines may be shipped twice but never skipped.
//! The file is rewritten atomically (temp file + rename).

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use serde::{Deserialize, Serialize};

const SNAPSHOT_VERSION: u32 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Identifies the file across renames; a new inode at the same path means rotation.
    pub inode: u64,
    pub offset: u64,
}

#[derive(Debug, Serialize, Deserialize)]
struct Snapshot {
    version: u32,
    files: HashMap<String, Checkpoint>,
}

#[derive(Debug, Default)]
struct Inner {
    files: HashMap<String, Checkpoint>,
    dirty: bool,
}

#[derive(Debug, Clone)]
pub struct CheckpointStore {
    path: PathBuf,
    inner: Arc<Mutex<Inner>>,
}

impl CheckpointStore {
    pub fn open(path: &Path) -> io::Result<Self> {
        let files = match fs::read(path) {
            Ok(bytes) => match serde_json::from_slice::<Snapshot>(&bytes) {
                Ok(snapshot) if snapshot.version == SNAPSHOT_VERSION => snapshot.files,
                Ok(snapshot) => {
                    tracing::warn!(
                        found = snapshot.version,
                        expected = SNAPSHOT_VERSION,
                        "ignoring checkpoint file written by an incompatible version"
                    );
                    HashMap::new()
                }
                Err(err) => {
                    tracing::warn!(path = %path.display(), error = %err, "checkpoint file is corrupt, starting without checkpoints");
                    HashMap::new()
                }
            },
            Err(err) if err.kind() == io::ErrorKind::NotFound => HashMap::new(),
            Err(err) => return Err(err),
        };
        Ok(Self {
            path: path.to_owned(),
            inner: Arc::new(Mutex::new(Inner { files, dirty: false })),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().expect("checkpoint lock poisoned")
    }

    pub fn get(&self, path: &str) -> Option<Checkpoint> {
        self.lock().files.get(path).copied()
    }

    /// Records where the tailer (re)started reading a file.
    pub fn track(&self, path: &str, inode: u64, offset: u64) {
        let mut inner = self.lock();
        let new = Checkpoint { inode, offset };
        if inner.files.insert(path.to_owned(), new) != Some(new) {
            inner.dirty = true;
        }
    }

    /// Moves offsets forward after a successful delivery. Unknown paths are
    /// ignored: they were forgotten (deleted) while the batch was in flight.
    pub fn advance<'a>(&self, positions: impl IntoIterator<Item = (&'a str, u64)>) {
        let mut inner = self.lock();
        let mut changed = false;
        for (path, offset) in positions {
            if let Some(cp) = inner.files.get_mut(path) {
                if offset > cp.offset {
                    cp.offset = offset;
                    changed = true;
                }
            }
        }
        inner.dirty |= changed;
    }

    pub fn forget(&self, path: &str) {
        let mut inner = self.lock();
        if inner.files.remove(path).is_some() {
            inner.dirty = true;
        }
    }

    /// Writes the checkpoint file if anything changed since the last write.
    pub fn persist(&self) -> io::Result<()> {
        let snapshot = {
            let mut inner = self.lock();
            if !inner.dirty {
                return Ok(());
            }
            inner.dirty = false;
            Snapshot {
                version: SNAPSHOT_VERSION,
                files: inner.files.clone(),
            }
        };
        let result = self.write(&snapshot);
        if result.is_err() {
            self.lock().dirty = true;
        }
        result
    }

    fn write(&self, snapshot: &Snapshot) -> io::Result<()> {
        if let Some(dir) = self.path.parent() {
            fs::create_dir_all(dir)?;
        }
        let tmp = self.path.with_extension("json.tmp");
        {
            let mut file = File::create(&tmp)?;
            serde_json::to_writer(&mut file, snapshot)?;
            file.write_all(b"\n")?;
            file.sync_all()?;
        }
        fs::rename(&tmp, &self.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_through_disk() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state/checkpoints.json");

        let store = CheckpointStore::open(&path).unwrap();
        store.track("/var/log/app.log", 42, 0);
        store.advance([("/var/log/app.log", 1200)]);
        store.persist().unwrap();

        let reopened = CheckpointStore::open(&path).unwrap();
        assert_eq!(
            reopened.get("/var/log/app.log"),
            Some(Checkpoint { inode: 42, offset: 1200 })
        );
        assert!(!path.with_extension("json.tmp").exists());
    }

    #[test]
    fn offsets_never_move_backwards() {
        let dir = tempfile::tempdir().unwrap();
        let store = CheckpointStore::open(&dir.path().join("cp.json")).unwrap();
        store.track("/a.log", 1, 0);
        store.advance([("/a.log", 500)]);
        store.advance([("/a.log", 300), ("/unknown.log", 10)]);
        assert_eq!(store.get("/a.log").unwrap().offset, 500);
        assert!(store.get("/unknown.log").is_none());
    }

    #[test]
    fn corrupt_file_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cp.json");
        fs::write(&path, b"{\"version\": 2, \"files\": ").unwrap();
        let store = CheckpointStore::open(&path).unwrap();
        assert!(store.get("/a.log").is_none());
    }
}
