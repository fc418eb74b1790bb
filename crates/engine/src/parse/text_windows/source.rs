//! The bodies of a text report read in windows, parsed again from their window when a view
//! asks for them. The few windows parsed last keep their other bodies, so that reading every
//! result in order (a comparison, an export) parses each window once; a window one thread is
//! parsing is waited for by the others that ask for its results, not parsed again beside it, so
//! the work and the memory do not grow with the number of threads asking. A body may be asked
//! for with its values only ([`Wanted::Values`]): its window is then parsed without building
//! instances, printed forms or printed section bodies, and kept apart from whole ones.

use super::{Reading, WindowAt, windows_in_flight};
use crate::model::{BodySource, ResultBody};
use crate::parse::cli_text::Wanted;
use crate::parse::read::stamp_of;
use crate::parse::reopen::read_exact_at;
use std::collections::VecDeque;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, OnceLock, PoisonError};
use std::time::SystemTime;

/// Windows whose bodies are kept after parsing.
pub const CACHED_WINDOWS: usize = 4;

/// The bodies of one window, each taken out when asked for; `None` while a thread parses it.
struct CachedWindow {
    window: usize,
    /// What the bodies hold.
    wanted: Wanted,
    bodies: Option<Vec<Option<ResultBody>>>,
}

impl CachedWindow {
    /// Whether this is `window` read for `wanted`: whole bodies serve a reading of values too.
    fn serves(&self, window: usize, wanted: Wanted) -> bool {
        self.window == window && (self.wanted == wanted || self.wanted == Wanted::Bodies)
    }
}

/// The results of one text file read in windows.
pub struct TextSource {
    path: PathBuf,
    /// Read at positions, so that threads reading windows at once do not take turns.
    file: File,
    /// Size and modification time when opened.
    stamp: (u64, Option<SystemTime>),
    reading: Reading,
    windows: OnceLock<Vec<WindowAt>>,
    cache: Mutex<VecDeque<CachedWindow>>,
    /// Told when a window being parsed is ready (or was given up).
    parsed: Condvar,
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
            file,
            reading,
            windows: OnceLock::new(),
            cache: Mutex::new(VecDeque::new()),
            parsed: Condvar::new(),
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
        if stamp_of(&self.file).map_err(|_| self.changed())? != self.stamp {
            return Err(self.changed());
        }
        let end = at.start + at.span;
        let holes: u64 = at.holes.iter().map(|h| h.len).sum();
        let len = usize::try_from(at.span - holes).map_err(|_| self.changed())?;
        let mut raw = vec![0; len];
        let (mut from, mut filled) = (at.start, 0usize);
        let pieces = at
            .holes
            .iter()
            .map(|h| (h.at, h.at + h.len))
            .chain(std::iter::once((end, end)));
        for (to, next) in pieces {
            let piece = usize::try_from(to - from).map_err(|_| self.changed())?;
            let into = raw
                .get_mut(filled..filled + piece)
                .ok_or_else(|| self.changed())?;
            match read_exact_at(&self.file, into, from) {
                Ok(()) => {}
                // Shorter than when it was opened.
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Err(self.changed()),
                Err(e) => return Err(format!("{}: {e}", self.path.display())),
            }
            filled += piece;
            from = next;
        }
        Ok(raw)
    }

    /// The body in `slot` of `window` from the cache, waiting while another thread parses the
    /// window, or while as many windows as there are cores (up to eight) are being parsed:
    /// however many threads ask, the windows parsed at once stay that few. `Err(())` when the
    /// window is not there: the caller is then marked as parsing it and must call
    /// [`TextSource::parsed`].
    fn cached(&self, window: usize, slot: usize, wanted: Wanted) -> Result<Option<ResultBody>, ()> {
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            let parsing = cache.iter().filter(|c| c.bodies.is_none()).count();
            match cache.iter_mut().find(|c| c.serves(window, wanted)) {
                Some(CachedWindow {
                    bodies: Some(bodies),
                    ..
                }) => return Ok(bodies.get_mut(slot).and_then(Option::take)),
                None if parsing < windows_in_flight() => {
                    cache.push_back(CachedWindow {
                        window,
                        wanted,
                        bodies: None,
                    });
                    return Err(());
                }
                // Being parsed by another thread, or too many windows are.
                _ => {
                    cache = self
                        .parsed
                        .wait(cache)
                        .unwrap_or_else(PoisonError::into_inner);
                }
            }
        }
    }

    /// Keeps the bodies of `window` once parsed (`None`: parsing failed, nothing is kept), and
    /// wakes the threads waiting for it. The windows parsed longest ago are let go.
    fn parsed(&self, window: usize, wanted: Wanted, bodies: Option<Vec<Option<ResultBody>>>) {
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        cache.retain(|c| c.window != window || c.wanted != wanted);
        if let Some(bodies) = bodies {
            while cache.iter().filter(|c| c.bodies.is_some()).count() >= CACHED_WINDOWS {
                let Some(oldest) = cache.iter().position(|c| c.bodies.is_some()) else {
                    break;
                };
                cache.remove(oldest);
            }
            cache.push_back(CachedWindow {
                window,
                wanted,
                bodies: Some(bodies),
            });
        }
        self.parsed.notify_all();
    }

    /// Parses `window` and returns the bodies of its results, holding what `wanted` asks.
    fn parse_window(
        &self,
        window: usize,
        at: &WindowAt,
        wanted: Wanted,
    ) -> Result<Vec<Option<ResultBody>>, String> {
        let raw = self.read(at)?;
        let report = self
            .reading
            .parse(&raw, at, window, wanted)
            .map_err(|e| format!("{}: {e}", self.path.display()))?
            .into_report();
        if report.results.len() != at.results {
            return Err(self.changed());
        }
        Ok(report
            .results
            .into_iter()
            .map(|r| Some(r.into_body()))
            .collect())
    }
    /// Parses `window` (claimed by this thread); on success the bodies are handed back, to
    /// be kept with [`TextSource::parsed`] once the caller took what it asked for; on failure,
    /// or a panic, the threads waiting for it are woken.
    fn parse_claimed(
        &self,
        window: usize,
        at: &WindowAt,
        wanted: Wanted,
    ) -> Result<Vec<Option<ResultBody>>, String> {
        let mut giving_up = GiveUp {
            source: self,
            window: Some((window, wanted)),
        };
        let parsed = self.parse_window(window, at, wanted);
        giving_up.window = None;
        if parsed.is_err() {
            self.parsed(window, wanted, None);
        }
        parsed
    }

    /// Claims for parsing the windows after `window` that are neither kept nor being parsed,
    /// as many as keep the windows parsed at once within [`read_ahead`].
    fn claim_ahead(&self, window: usize, windows: usize, wanted: Wanted) -> Vec<usize> {
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        let mut claimed = Vec::new();
        for next in window + 1..windows.min(window + read_ahead()) {
            let parsing = cache.iter().filter(|c| c.bodies.is_none()).count();
            if parsing >= read_ahead() {
                break;
            }
            if !cache.iter().any(|c| c.serves(next, wanted)) {
                cache.push_back(CachedWindow {
                    window: next,
                    wanted,
                    bodies: None,
                });
                claimed.push(next);
            }
        }
        claimed
    }
}

/// How many windows a reader parses at once, the one asked for and those after it: a core's
/// worth, within what the cache keeps.
fn read_ahead() -> usize {
    windows_in_flight().min(CACHED_WINDOWS)
}

impl BodySource for TextSource {
    fn load(&self, index: usize) -> Result<ResultBody, String> {
        self.load_wanted(index, Wanted::Bodies)
    }

    fn load_values(&self, index: usize) -> Result<ResultBody, String> {
        self.load_wanted(index, Wanted::Values)
    }

    fn tick(&self) -> u64 {
        self.clock.fetch_add(1, Ordering::Relaxed) + 1
    }
}

impl TextSource {
    /// The body of result `index`, holding what `wanted` asks.
    fn load_wanted(&self, index: usize, wanted: Wanted) -> Result<ResultBody, String> {
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
        let take = |bodies: &mut Vec<Option<ResultBody>>| {
            bodies
                .get_mut(slot)
                .and_then(Option::take)
                .ok_or_else(|| self.changed())
        };
        match self.cached(window, slot, wanted) {
            Ok(Some(body)) => return Ok(body),
            // Taken already (asked for twice): parsed again, beside the cache.
            Ok(None) => {
                return self
                    .parse_window(window, at, wanted)
                    .and_then(|mut b| take(&mut b));
            }
            Err(()) => {}
        }
        // The windows after it are parsed at the same time on threads of their own, and waited
        // for: readers go through the results in order, so a batch of results asks for one
        // window at a time.
        let ahead = self.claim_ahead(window, windows.len(), wanted);
        std::thread::scope(|scope| {
            for &next in &ahead {
                let at = &windows[next];
                scope.spawn(move || {
                    if let Ok(bodies) = self.parse_claimed(next, at, wanted) {
                        self.parsed(next, wanted, Some(bodies));
                    }
                });
            }
            self.parse_claimed(window, at, wanted).and_then(|mut b| {
                let body = take(&mut b);
                self.parsed(window, wanted, Some(b));
                body
            })
        })
    }
}

/// Marks a window no longer parsed when dropped before its bodies are kept (a panic while
/// parsing), so that no thread waits for it forever.
struct GiveUp<'a> {
    source: &'a TextSource,
    window: Option<(usize, Wanted)>,
}

impl Drop for GiveUp<'_> {
    fn drop(&mut self) {
        if let Some((window, wanted)) = self.window {
            self.source.parsed(window, wanted, None);
        }
    }
}
