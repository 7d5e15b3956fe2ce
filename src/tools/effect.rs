//! Effects: what a tool call changed in the world, typed and serialisable, so the runtime can
//! invalidate memoised results and a transcript can record what happened.

use std::path::{Path, PathBuf};

/// One change a tool made outside itself.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Effect {
    /// A file was created or overwritten.
    FileWritten {
        /// The file's path (absolute, after sandbox resolution).
        path: PathBuf,
        /// The file's size in bytes after the write.
        bytes: u64,
    },
    /// A file was deleted.
    FileDeleted {
        /// The file's path (absolute, after sandbox resolution).
        path: PathBuf,
    },
    /// A process was started.
    ProcessSpawned {
        /// The program that was run.
        program: String,
        /// Its arguments.
        args: Vec<String>,
        /// Its process id, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pid: Option<u32>,
    },
}

impl Effect {
    /// The file this effect touched, if it touched one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Self::FileWritten { path, .. } | Self::FileDeleted { path } => Some(path),
            Self::ProcessSpawned { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_json() {
        let e = Effect::FileWritten {
            path: "/r/a.txt".into(),
            bytes: 3,
        };
        let s = serde_json::to_string(&e).unwrap();
        assert_eq!(s, r#"{"type":"file_written","path":"/r/a.txt","bytes":3}"#);
        assert_eq!(serde_json::from_str::<Effect>(&s).unwrap(), e);
        let p = Effect::ProcessSpawned {
            program: "cargo".into(),
            args: vec!["test".into()],
            pid: None,
        };
        assert_eq!(p.path(), None);
        let s = serde_json::to_string(&p).unwrap();
        assert_eq!(serde_json::from_str::<Effect>(&s).unwrap(), p);
    }
}
