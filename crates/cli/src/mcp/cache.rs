//! Reports opened by the MCP server, kept while the connection lasts: each file is read once,
//! through the descriptor confinement opened and checked, and reused until its modification
//! time or size changes.

use super::confinement::Opened;
use crate::model::Report;
use crate::parse::{self, LoadError};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::SystemTime;

/// How many decoded result bodies a cached report keeps between calls.
const KEPT_BODIES: usize = 16;

/// One opened report.
#[derive(Debug)]
pub struct CachedReport {
    /// The real path it was checked at.
    pub path: PathBuf,
    /// The file, open while the report is kept: every read goes through it.
    opened: Opened,
    report: Mutex<Report>,
    /// The file's bytes, read the first time the Source page of one of its results is asked
    /// for (the page needs the report's modules).
    bytes: Mutex<Option<Arc<Vec<u8>>>>,
}

impl CachedReport {
    /// The report, for one call. Bodies decoded during the call beyond the few kept are
    /// released when the guard's user calls [`CachedReport::trim`].
    pub fn lock(&self) -> MutexGuard<'_, Report> {
        self.report.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Drops the decoded bodies not used lately, so memory does not grow with the calls.
    pub fn trim(&self) {
        self.lock().release_bodies(KEPT_BODIES);
    }

    /// The file's bytes, read once.
    pub fn bytes(&self) -> Result<Arc<Vec<u8>>, LoadError> {
        let mut slot = self.bytes.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(b) = slot.as_ref() {
            return Ok(Arc::clone(b));
        }
        let read = std::fs::read(self.opened.reading_path()).map_err(|source| LoadError::Io {
            path: self.path.clone(),
            source,
        })?;
        let read = Arc::new(read);
        *slot = Some(Arc::clone(&read));
        Ok(read)
    }
}

/// What identifies a version of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
}

fn stamp(opened: &Opened) -> Result<Stamp, LoadError> {
    let meta = opened.file.metadata().map_err(|source| LoadError::Io {
        path: opened.real_path.clone(),
        source,
    })?;
    Ok(Stamp {
        modified: meta.modified().ok(),
        len: meta.len(),
    })
}

/// The reports opened so far, by canonical path.
#[derive(Debug, Default)]
pub struct ReportCache {
    entries: Mutex<HashMap<PathBuf, (Stamp, Arc<CachedReport>)>>,
}

impl ReportCache {
    /// The report of a file opened under the roots, read now (through the open descriptor)
    /// unless the cache holds the same version of the file; and whether it came from the
    /// cache.
    pub fn get(&self, opened: Opened) -> Result<(Arc<CachedReport>, bool), LoadError> {
        let now = stamp(&opened)?;
        let path = opened.real_path.clone();
        {
            let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((s, cached)) = entries.get(&path)
                && *s == now
            {
                return Ok((Arc::clone(cached), true));
            }
        }
        let mut report = parse::load_path(&opened.reading_path()).map_err(|e| e.naming(&path))?;
        report.source = path.clone();
        let cached = Arc::new(CachedReport {
            path: path.clone(),
            opened,
            report: Mutex::new(report),
            bytes: Mutex::new(None),
        });
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.insert(path, (now, Arc::clone(&cached)));
        Ok((cached, false))
    }
}
