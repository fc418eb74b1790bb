//! Following a folder: [`FolderFollow::wait`] blocks until report files grew or settled, and
//! returns them. The folder is watched with change notifications (the `notify` crate:
//! inotify, FSEvents, ReadDirectoryChangesW) and looked at when it changed, at most once per
//! interval, and every interval while a report in it has not settled (settling is a matter of
//! time); with nothing arriving the caller's thread sleeps in a blocking wait and costs
//! nothing. Where notifications are not available the folder is looked at every
//! [`IDLE_POLL`] while nothing arrives, and [`FolderFollow::polling`] says why. A folder that
//! cannot be listed (gone, or the open-file limit met) is said once and looked at again every
//! interval.

use super::settle::{Arrival, Arrivals, SettleTimes};
use super::writers::{ProcWriters, WriterCheck};
use crate::parse::open_files::io_error_text;
use crate::parse::report_files::report_files_in;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant, SystemTime};

/// How often the folder is looked at while nothing arrives, where change notifications are
/// not available.
pub const IDLE_POLL: Duration = Duration::from_secs(2);

/// What wakes a waiting follower.
enum Wake {
    /// Something in the folder changed.
    Changed,
    /// Following stops.
    Stop,
}

/// Stops a [`FolderFollow`] waiting on another thread.
#[derive(Clone)]
pub struct FollowStop(Sender<Wake>);

impl FollowStop {
    /// Wakes the follower and makes its [`FolderFollow::wait`] return `None`.
    pub fn stop(&self) {
        let _ = self.0.send(Wake::Stop);
    }
}

/// What a wait on the folder found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FollowEvent {
    /// Reports that grew or settled, in name order.
    Arrived(Vec<Arrival>),
    /// The folder cannot be listed now (said once until it can again); it is looked at again
    /// every interval.
    Unlisted(String),
}

/// A followed folder.
pub struct FolderFollow {
    dir: PathBuf,
    arrivals: Arrivals,
    writers: Box<dyn WriterCheck + Send>,
    wake: Receiver<Wake>,
    stop: Sender<Wake>,
    /// Kept for its notifications; `None` while polling.
    _watcher: Option<notify::RecommendedWatcher>,
    polling: Option<String>,
    last_look: Option<Instant>,
    /// Something changed since the last look.
    dirty: bool,
    /// The folder could not be listed at the last look (and why).
    unlisted: Option<String>,
}

impl FolderFollow {
    /// Follows `dir` with `times`, the writers of its files seen in `/proc` where there is
    /// one. The folder must be readable now: the error belongs to the one who asked.
    pub fn new(dir: &Path, times: SettleTimes) -> std::io::Result<Self> {
        FolderFollow::with_writers(dir, times, Box::new(ProcWriters))
    }

    /// Follows `dir` with `times`, asking `writers` who writes its files.
    pub fn with_writers(
        dir: &Path,
        times: SettleTimes,
        writers: Box<dyn WriterCheck + Send>,
    ) -> std::io::Result<Self> {
        report_files_in(dir)?;
        let (stop, wake) = channel();
        let (watcher, polling) = match watch(dir, stop.clone()) {
            Ok(w) => (Some(w), None),
            Err(reason) => (None, Some(reason)),
        };
        Ok(FolderFollow {
            dir: dir.to_path_buf(),
            arrivals: Arrivals::new(times),
            writers,
            wake,
            stop,
            _watcher: watcher,
            polling,
            last_look: None,
            dirty: true,
            unlisted: None,
        })
    }

    /// The folder followed.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Why the folder is looked at every [`IDLE_POLL`] instead of on change notifications,
    /// `None` when notifications work.
    pub fn polling(&self) -> Option<&str> {
        self.polling.as_deref()
    }

    /// What stops this follower from another thread.
    pub fn stopper(&self) -> FollowStop {
        FollowStop(self.stop.clone())
    }

    /// Waits until reports grew or settled (or the folder can no longer be listed) and says
    /// so; `None` once stopped.
    pub fn wait(&mut self) -> Option<FollowEvent> {
        loop {
            let now = Instant::now();
            if self.due(now) {
                self.last_look = Some(now);
                self.dirty = false;
                let looked =
                    self.arrivals
                        .look(&self.dir, now, SystemTime::now(), &mut *self.writers);
                match looked {
                    Ok(found) => {
                        self.unlisted = None;
                        if !found.is_empty() {
                            return Some(FollowEvent::Arrived(found));
                        }
                    }
                    Err(e) => {
                        let text = format!("{}: {}", self.dir.display(), io_error_text(&e));
                        if self.unlisted.as_ref() != Some(&text) {
                            self.unlisted = Some(text.clone());
                            return Some(FollowEvent::Unlisted(text));
                        }
                    }
                }
            }
            let wait = self.timeout(Instant::now());
            let woke = match wait {
                Some(d) => self.wake.recv_timeout(d),
                None => self.wake.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match woke {
                Ok(Wake::Changed) => self.dirty = true,
                Ok(Wake::Stop) | Err(RecvTimeoutError::Disconnected) => return None,
                Err(RecvTimeoutError::Timeout) => {}
            }
            // Take every wake-up waiting, so that a burst of writes is one look.
            while let Ok(w) = self.wake.try_recv() {
                match w {
                    Wake::Changed => self.dirty = true,
                    Wake::Stop => return None,
                }
            }
        }
    }

    /// Whether to look now: the first time, once a change was noticed, every interval while
    /// something has not settled or the folder cannot be listed, every [`IDLE_POLL`] while
    /// polling; never twice within an interval.
    fn due(&self, now: Instant) -> bool {
        let Some(last) = self.last_look else {
            return true;
        };
        let since = now.saturating_duration_since(last);
        let interval = self.arrivals.times().interval;
        if since < interval {
            return false;
        }
        self.dirty
            || self.arrivals.waiting()
            || self.unlisted.is_some()
            || (self.polling.is_some() && since >= IDLE_POLL)
    }

    /// How long to wait before the next look may be due; `None`: until woken.
    fn timeout(&self, now: Instant) -> Option<Duration> {
        let interval = self.arrivals.times().interval;
        let since = self
            .last_look
            .map_or(interval, |l| now.saturating_duration_since(l));
        let to_interval = interval.saturating_sub(since);
        if self.dirty || self.arrivals.waiting() || self.unlisted.is_some() {
            return Some(to_interval.max(Duration::from_millis(1)));
        }
        if self.polling.is_some() {
            return Some(
                IDLE_POLL
                    .saturating_sub(since)
                    .max(Duration::from_millis(1)),
            );
        }
        None
    }
}

/// Change notifications for `dir` (not its subfolders), each relevant one a
/// [`Wake::Changed`] on `wake`; the reason in words where they cannot be had.
fn watch(dir: &Path, wake: Sender<Wake>) -> Result<notify::RecommendedWatcher, String> {
    use notify::event::{AccessKind, AccessMode};
    use notify::{EventKind, RecursiveMode, Watcher};
    let handler = move |event: notify::Result<notify::Event>| {
        let relevant = match &event {
            // Reading a file (the reports' own loads) changes nothing; a write closed may.
            Ok(e) => match e.kind {
                EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
                EventKind::Access(_) => false,
                _ => true,
            },
            // Lost notifications: look.
            Err(_) => true,
        };
        if relevant {
            let _ = wake.send(Wake::Changed);
        }
    };
    let mut watcher = notify::recommended_watcher(handler)
        .map_err(|e| format!("change notifications unavailable: {e}"))?;
    watcher
        .watch(dir, RecursiveMode::NonRecursive)
        .map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
    Ok(watcher)
}
