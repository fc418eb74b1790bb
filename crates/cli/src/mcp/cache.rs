//! Reports opened by the MCP server: each file is read through the descriptor confinement
//! opened and checked, and reused until its modification time or size changes. The cache
//! keeps only the reports used last, a bounded number of them (each keeps its file open to
//! read result bodies on demand), so a client that reads thousands of reports never takes
//! the process to its open-file limit: a report let go is read again when asked for. Where
//! the limit is met all the same (other descriptors of the process), the reports not in use
//! are let go and the file is opened once more before the answer says so in words.

use super::confinement::{self, Opened};
use crate::model::{KernelResult, Report};
use crate::parse::ncu_rep::{ReportCode, code_reader};
use crate::parse::{self, LoadError};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::SystemTime;

/// How many decoded result bodies a cached report keeps between calls.
const KEPT_BODIES: usize = 16;
/// Most reports kept open, whatever the open-file limit.
const MOST_KEPT: usize = 64;
/// Least reports kept open, whatever the open-file limit.
const LEAST_KEPT: usize = 2;

/// How many reports a server keeps open: an eighth of the open-file limit (each report holds
/// one descriptor; the rest is left for reports in use and the process), within bounds.
pub fn kept_reports() -> usize {
    confinement::open_file_limit()
        .map_or(MOST_KEPT, |n| usize::try_from(n / 8).unwrap_or(MOST_KEPT))
        .clamp(LEAST_KEPT, MOST_KEPT)
}

/// One opened report.
#[derive(Debug)]
pub struct CachedReport {
    /// The real path it was checked at.
    pub path: PathBuf,
    report: Mutex<Report>,
    /// The report's code (modules and imported sources, not the results around them), read
    /// the first time the Source page of one of its results is asked for.
    code: Mutex<Option<Arc<ReportCode>>>,
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

    /// The report's code, read once, through the open report (a compressed report's
    /// decompressed copy), never through its path: only the source entries are kept, so
    /// memory follows the size of the code, not of the file. A report of another form, or
    /// whose results hold no file, has none.
    pub fn code(&self, result: &KernelResult) -> Result<Arc<ReportCode>, LoadError> {
        let mut slot = self.code.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(code) = slot.as_ref() {
            return Ok(Arc::clone(code));
        }
        let code = match result.content.source().and_then(|s| s.plain_file()) {
            Some(plain) => {
                code_reader::read_code_from(plain).map_err(|source| LoadError::Parse {
                    path: self.path.clone(),
                    source,
                })?
            }
            None => ReportCode::default(),
        };
        let code = Arc::new(code);
        *slot = Some(Arc::clone(&code));
        Ok(code)
    }
}

/// Locks two reports (the same one once), always in the order of their paths, so that two
/// calls locking the same two reports each way round cannot wait for each other.
pub fn lock_pair<'a>(
    a: &'a CachedReport,
    b: &'a CachedReport,
) -> (MutexGuard<'a, Report>, Option<MutexGuard<'a, Report>>) {
    if std::ptr::eq(a, b) {
        return (a.lock(), None);
    }
    // The same path twice is a file read again after it changed: the addresses decide.
    let key = |c: &'a CachedReport| (&c.path, c as *const CachedReport as usize);
    if key(a) <= key(b) {
        let first = a.lock();
        (first, Some(b.lock()))
    } else {
        let second = b.lock();
        (a.lock(), Some(second))
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

/// A report kept, the version of its file and when it was last asked for.
#[derive(Debug)]
struct Kept {
    stamp: Stamp,
    report: Arc<CachedReport>,
    last_use: u64,
}

#[derive(Debug, Default)]
struct Entries {
    by_path: HashMap<PathBuf, Kept>,
    clock: u64,
}

impl Entries {
    /// Lets go of the reports used least lately until at most `keep` are kept (a report a
    /// call still reads stays open until that call ends).
    fn shrink_to(&mut self, keep: usize) {
        while self.by_path.len() > keep {
            let oldest = self
                .by_path
                .iter()
                .min_by_key(|(_, k)| k.last_use)
                .map(|(p, _)| p.clone());
            match oldest {
                Some(p) => self.by_path.remove(&p),
                None => break,
            };
        }
    }
}

/// The reports opened lately, by canonical path, at most a bound of them.
#[derive(Debug)]
pub struct ReportCache {
    entries: Mutex<Entries>,
    /// Most reports kept; halved each time the process meets its open-file limit.
    capacity: AtomicUsize,
}

impl Default for ReportCache {
    fn default() -> Self {
        ReportCache::new(kept_reports())
    }
}

impl ReportCache {
    /// A cache that keeps at most `capacity` reports open.
    pub fn new(capacity: usize) -> Self {
        ReportCache {
            entries: Mutex::new(Entries::default()),
            capacity: AtomicUsize::new(capacity.max(1)),
        }
    }

    fn entries(&self) -> MutexGuard<'_, Entries> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many reports are kept open now.
    pub fn len(&self) -> usize {
        self.entries().by_path.len()
    }

    /// Whether no report is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Lets go of every report kept (those in use close when their calls end) and keeps half
    /// as many from now on: for a process that met its open-file limit.
    pub fn shed(&self) {
        let _ = self
            .capacity
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |c| {
                Some((c / 2).max(LEAST_KEPT))
            });
        self.entries().shrink_to(0);
    }

    /// The report of a file opened under the roots, read now (through the open descriptor)
    /// unless the cache holds the same version of the file; and whether it came from the
    /// cache. The descriptor is closed once the report is read: the report keeps its own.
    pub fn get(&self, opened: Opened) -> Result<(Arc<CachedReport>, bool), LoadError> {
        let now = stamp(&opened)?;
        let path = opened.real_path.clone();
        {
            let mut entries = self.entries();
            entries.clock += 1;
            let clock = entries.clock;
            if let Some(kept) = entries.by_path.get_mut(&path)
                && kept.stamp == now
            {
                kept.last_use = clock;
                return Ok((Arc::clone(&kept.report), true));
            }
        }
        let mut report = parse::load_path(&opened.reading_path()).map_err(|e| e.naming(&path))?;
        drop(opened);
        report.source = path.clone();
        let cached = Arc::new(CachedReport {
            path: path.clone(),
            report: Mutex::new(report),
            code: Mutex::new(None),
        });
        let mut entries = self.entries();
        entries.clock += 1;
        let last_use = entries.clock;
        entries.by_path.insert(
            path,
            Kept {
                stamp: now,
                report: Arc::clone(&cached),
                last_use,
            },
        );
        entries.shrink_to(self.capacity.load(Ordering::Relaxed));
        Ok((cached, false))
    }
}

#[cfg(test)]
mod tests {
    use super::Entries;

    #[test]
    fn the_reports_used_least_lately_are_let_go() {
        let mut e = Entries::default();
        let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/h100/kernels_basic.raw.csv");
        let report = crate::parse::load_path(&fixture).expect("a real report");
        for (name, last_use) in [("a", 3), ("b", 1), ("c", 2)] {
            e.by_path.insert(
                name.into(),
                super::Kept {
                    stamp: super::Stamp {
                        modified: None,
                        len: 0,
                    },
                    report: std::sync::Arc::new(super::CachedReport {
                        path: name.into(),
                        report: std::sync::Mutex::new(report.clone()),
                        code: std::sync::Mutex::new(None),
                    }),
                    last_use,
                },
            );
        }
        e.shrink_to(2);
        let mut left: Vec<_> = e.by_path.keys().cloned().collect();
        left.sort();
        assert_eq!(left, [std::path::PathBuf::from("a"), "c".into()]);
        e.shrink_to(0);
        assert!(e.by_path.is_empty());
    }
}
