//! The bodies of a text report read in windows, parsed again from their window when a view
//! asks for them. The few windows parsed last keep their other bodies, so that reading every
//! result in order (a comparison, an export) parses each window once.

use super::{Reading, WindowAt};
use crate::model::{BodySource, ResultBody};
use crate::parse::read::stamp_of;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::SystemTime;

/// Windows whose bodies are kept after parsing.
pub const CACHED_WINDOWS: usize = 4;

/// The bodies of one parsed window, each taken out when asked for.
struct CachedWindow {
    window: usize,
    bodies: Vec<Option<ResultBody>>,
}

/// The results of one text file read in windows.
pub struct TextSource {
    path: PathBuf,
    file: Mutex<File>,
    /// Size and modification time when opened.
    stamp: (u64, Option<SystemTime>),
    reading: Reading,
    windows: OnceLock<Vec<WindowAt>>,
    cache: Mutex<VecDeque<CachedWindow>>,
    clock: AtomicU64,
    /// The decompressed copy the file is, when the text was compressed.
    _temp: Option<crate::parse::compressed::TempCopy>,
}

impl TextSource {
    /// A source reading `file`, opened for `path` (which errors name).
    pub fn new(
        path: &Path,
        file: File,
        reading: Reading,
        temp: Option<crate::parse::compressed::TempCopy>,
    ) -> io::Result<Self> {
        Ok(TextSource {
            path: path.to_path_buf(),
            stamp: stamp_of(&file)?,
            file: Mutex::new(file),
            reading,
            windows: OnceLock::new(),
            cache: Mutex::new(VecDeque::new()),
            clock: AtomicU64::new(0),
            _temp: temp,
        })
    }

    /// How the windows are parsed.
    pub fn reading(&self) -> &Reading {
        &self.reading
    }

    /// Completes the source once the whole file was read.
    pub fn complete(&self, windows: Vec<WindowAt>) {
        let _ = self.windows.set(windows);
    }

    fn changed(&self) -> String {
        format!(
            "{} changed since it was opened; reload it",
            self.path.display()
        )
    }

    /// The raw bytes of a window, its holes left out, from a file that has not changed.
    pub(super) fn read(&self, at: &WindowAt) -> Result<Vec<u8>, String> {
        let mut file = self.file.lock().unwrap_or_else(PoisonError::into_inner);
        if stamp_of(&file).map_err(|_| self.changed())? != self.stamp {
            return Err(self.changed());
        }
        let end = at.start + at.span;
        let holes: u64 = at.holes.iter().map(|h| h.len).sum();
        let mut raw = Vec::with_capacity(usize::try_from(at.span - holes).unwrap_or(0));
        let mut from = at.start;
        let pieces = at
            .holes
            .iter()
            .map(|h| (h.at, h.at + h.len))
            .chain(std::iter::once((end, end)));
        for (to, next) in pieces {
            file.seek(SeekFrom::Start(from))
                .and_then(|_| (&mut *file).take(to - from).read_to_end(&mut raw))
                .map_err(|e| format!("{}: {e}", self.path.display()))?;
            from = next;
        }
        if raw.len() as u64 != at.span - holes {
            return Err(self.changed());
        }
        Ok(raw)
    }

    /// The body of result `index` from the cache, if its window is there.
    fn cached(&self, window: usize, slot: usize) -> Option<ResultBody> {
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        let entry = cache.iter_mut().find(|c| c.window == window)?;
        entry.bodies.get_mut(slot)?.take()
    }
}

impl BodySource for TextSource {
    fn load(&self, index: usize) -> Result<ResultBody, String> {
        let windows = self
            .windows
            .get()
            .ok_or_else(|| format!("{} is still being opened", self.path.display()))?;
        let window = windows
            .partition_point(|w| w.first_result <= index)
            .checked_sub(1)
            .ok_or_else(|| format!("{}: no result {index}", self.path.display()))?;
        let at = &windows[window];
        let slot = index - at.first_result;
        if slot >= at.results {
            return Err(format!("{}: no result {index}", self.path.display()));
        }
        if let Some(body) = self.cached(window, slot) {
            return Ok(body);
        }
        let raw = self.read(at)?;
        let report = self
            .reading
            .parse(&raw, at, window)
            .map_err(|e| format!("{}: {e}", self.path.display()))?
            .into_report();
        if report.results.len() != at.results {
            return Err(self.changed());
        }
        let mut bodies: Vec<Option<ResultBody>> = report
            .results
            .into_iter()
            .map(|r| Some(r.into_body()))
            .collect();
        let body = bodies.get_mut(slot).and_then(Option::take);
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        cache.retain(|c| c.window != window);
        if cache.len() >= CACHED_WINDOWS {
            cache.pop_front();
        }
        cache.push_back(CachedWindow { window, bodies });
        body.ok_or_else(|| self.changed())
    }

    fn tick(&self) -> u64 {
        self.clock.fetch_add(1, Ordering::Relaxed) + 1
    }
}
