//! Watching the files of open reports. The directories that hold them are watched for change
//! notifications (the `notify` crate: inotify, FSEvents, ReadDirectoryChangesW), so an editor or
//! tool that replaces a file by writing a temporary one and renaming it over the old name is
//! seen too. Notifications are debounced: once a burst is quiet for [`DEBOUNCE`] a background
//! thread compares each file's size, modification time and inode with the version loaded and
//! reports what changed or vanished. Where notifications are not available (a build without
//! the desktop app, no inotify watches left, a file system that does not support them) the
//! thread polls the files every interval instead, and [`FileWatcher::mode`] says so and why.
//! The UI thread never waits on the disk.

use crate::core::ids::ReportId;
use crate::core::waker::Waker;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant, SystemTime};

/// How often the files are looked at when change notifications are not available.
pub const POLL_INTERVAL: Duration = Duration::from_secs(1);

/// How long a burst of change notifications must be quiet before the files are looked at (a
/// tool writing a report in many pieces is reported once).
pub const DEBOUNCE: Duration = Duration::from_millis(200);

/// The longest a steady stream of notifications postpones a look at the files.
const MAX_DEBOUNCE: Duration = Duration::from_secs(2);

/// How long the thread sleeps without notifications before it checks that the watcher still
/// exists (it also ends at once when the watcher is dropped).
const IDLE_WAIT: Duration = Duration::from_secs(30);

/// What identifies a version of a file cheaply: its size, modification time and (on Unix) the
/// inode, which changes when a file is replaced by a rename.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileSignature {
    pub len: u64,
    pub modified: Option<SystemTime>,
    pub inode: u64,
}

impl FileSignature {
    /// The signature of the file at `path` (its metadata only: looking never blocks, not even
    /// on a pipe).
    pub fn read(path: &Path) -> std::io::Result<FileSignature> {
        let meta = std::fs::metadata(path)?;
        Ok(FileSignature {
            len: meta.len(),
            modified: meta.modified().ok(),
            inode: inode(&meta),
        })
    }
}

#[cfg(unix)]
fn inode(meta: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::ino(meta)
}

#[cfg(not(unix))]
fn inode(_meta: &std::fs::Metadata) -> u64 {
    0
}

/// How a watched file differs from the version that was loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileState {
    /// Another size, modification time or inode.
    Changed(FileSignature),
    /// Gone, or its metadata cannot be read any more; the text says why.
    Unreadable(String),
}

/// A message of the watching thread: the file of `report` is now in `state` (`None`: the same
/// as when it was loaded, again).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEvent {
    pub report: ReportId,
    pub state: Option<FileState>,
}

/// How changes are noticed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WatchMode {
    /// Change notifications of the operating system for the files' directories.
    Notify,
    /// The files are looked at every `interval`, because notifications are not available; the
    /// text says why.
    Polling { interval: Duration, reason: String },
}

impl WatchMode {
    /// A sentence for the user, `None` when notifications work.
    pub fn describe(&self) -> Option<String> {
        match self {
            WatchMode::Notify => None,
            WatchMode::Polling { interval, reason } => Some(format!(
                "Open files are checked for changes every {} s ({reason})",
                interval.as_secs_f64()
            )),
        }
    }
}

/// One watched file.
#[derive(Debug, Clone)]
struct Watched {
    report: ReportId,
    path: PathBuf,
    /// The version loaded (or acknowledged).
    known: FileSignature,
    /// What was last sent for it.
    reported: Option<FileState>,
}

type WatchList = Arc<Mutex<Vec<Watched>>>;

fn lock<T>(list: &Mutex<T>) -> MutexGuard<'_, T> {
    list.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The files of the open reports and the thread that looks at them. The thread starts with the
/// first watched file and ends when the watcher is dropped.
pub struct FileWatcher {
    list: WatchList,
    tx: Sender<FileEvent>,
    rx: Receiver<FileEvent>,
    waker: Waker,
    interval: Duration,
    /// Wakes the thread: one message per relevant notification.
    touch: Sender<()>,
    touched: Option<Receiver<()>>,
    /// Whether the thread polls (shared with it).
    polling: Arc<AtomicBool>,
    mode: WatchMode,
    backend: Option<notify_backend::Backend>,
    started: bool,
}

impl Default for FileWatcher {
    fn default() -> Self {
        FileWatcher::with_interval(POLL_INTERVAL, Waker::default())
    }
}

impl FileWatcher {
    /// A watcher that uses change notifications where it can and otherwise looks at the files
    /// every `interval`; it calls `waker` when a file changed.
    pub fn with_interval(interval: Duration, waker: Waker) -> Self {
        let mut watcher = FileWatcher::polling(interval, waker, "");
        let list = Arc::downgrade(&watcher.list);
        match notify_backend::Backend::new(list, watcher.touch.clone()) {
            Ok(backend) => {
                watcher.backend = Some(backend);
                watcher.mode = WatchMode::Notify;
                watcher.polling.store(false, Ordering::Relaxed);
            }
            Err(reason) => watcher.fall_back(reason),
        }
        watcher
    }

    /// A watcher that only polls, every `interval` (`reason` says why).
    pub fn polling(interval: Duration, waker: Waker, reason: &str) -> Self {
        let (tx, rx) = channel();
        let (touch, touched) = channel();
        FileWatcher {
            list: Arc::new(Mutex::new(Vec::new())),
            tx,
            rx,
            waker,
            interval,
            touch,
            touched: Some(touched),
            polling: Arc::new(AtomicBool::new(true)),
            mode: WatchMode::Polling {
                interval,
                reason: reason.to_string(),
            },
            backend: None,
            started: false,
        }
    }

    /// How changes are noticed now.
    pub fn mode(&self) -> &WatchMode {
        &self.mode
    }

    /// Watches the file of `report`, loaded at version `known` (replacing what was watched for
    /// it before).
    pub fn watch(&mut self, report: ReportId, path: &Path, known: FileSignature) {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        {
            let mut list = lock(&self.list);
            list.retain(|w| w.report != report);
            list.push(Watched {
                report,
                path,
                known,
                reported: None,
            });
        }
        self.sync_directories();
        self.start();
    }

    /// Stops watching the file of `report`.
    pub fn unwatch(&mut self, report: ReportId) {
        {
            let mut list = lock(&self.list);
            list.retain(|w| w.report != report);
            if list.is_empty() {
                *list = Vec::new();
            }
        }
        self.sync_directories();
    }

    /// Stops watching every file.
    pub fn unwatch_all(&mut self) {
        *lock(&self.list) = Vec::new();
        self.sync_directories();
    }

    /// Takes the file as it is now as the known version (the user dismissed the change); a
    /// later change is reported again.
    pub fn acknowledge(&mut self, report: ReportId) {
        let mut list = lock(&self.list);
        if let Some(w) = list.iter_mut().find(|w| w.report == report)
            && let Some(FileState::Changed(now)) = w.reported
        {
            w.known = now;
            w.reported = None;
        }
    }

    /// What the thread found since the last call.
    pub fn try_recv(&self) -> Option<FileEvent> {
        self.rx.try_recv().ok()
    }

    /// Watches the directories of the watched files (and no others); falls back to polling
    /// when one cannot be watched.
    fn sync_directories(&mut self) {
        let Some(backend) = &mut self.backend else {
            return;
        };
        let dirs: Vec<PathBuf> = lock(&self.list)
            .iter()
            .filter_map(|w| w.path.parent().map(Path::to_path_buf))
            .collect();
        if let Err(reason) = backend.watch_only(&dirs) {
            self.fall_back(reason);
        }
    }

    /// Polls from now on and says why (in the UI through [`FileWatcher::mode`], and in the log).
    fn fall_back(&mut self, reason: String) {
        self.backend = None;
        self.polling.store(true, Ordering::Relaxed);
        eprintln!(
            "sightline: no change notifications for open files ({reason}); checking them every {} s",
            self.interval.as_secs_f64()
        );
        self.mode = WatchMode::Polling {
            interval: self.interval,
            reason,
        };
        // Wake the thread so that it starts polling now.
        let _ = self.touch.send(());
    }

    /// Starts the thread once.
    fn start(&mut self) {
        if self.started {
            return;
        }
        let Some(touched) = self.touched.take() else {
            return;
        };
        let worker = Worker {
            list: Arc::downgrade(&self.list),
            tx: self.tx.clone(),
            waker: self.waker.clone(),
            interval: self.interval,
            polling: Arc::clone(&self.polling),
        };
        let spawned = std::thread::Builder::new()
            .name("watch report files".into())
            .spawn(move || worker.run(&touched));
        self.started = spawned.is_ok();
    }
}

/// The watching thread's side.
struct Worker {
    list: Weak<Mutex<Vec<Watched>>>,
    tx: Sender<FileEvent>,
    waker: Waker,
    interval: Duration,
    polling: Arc<AtomicBool>,
}

impl Worker {
    /// Waits for notifications (or the polling interval) and looks at the files once a burst
    /// is quiet, until the watcher is gone.
    fn run(&self, touched: &Receiver<()>) {
        let mut dirty_since: Option<Instant> = None;
        loop {
            let polling = self.polling.load(Ordering::Relaxed);
            let wait = match (dirty_since, polling) {
                (Some(_), _) => DEBOUNCE,
                (None, true) => self.interval,
                (None, false) => IDLE_WAIT,
            };
            match touched.recv_timeout(wait) {
                Ok(()) => {
                    let since = *dirty_since.get_or_insert_with(Instant::now);
                    if since.elapsed() < MAX_DEBOUNCE {
                        continue;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
            let look = dirty_since.is_some() || self.polling.load(Ordering::Relaxed);
            dirty_since = None;
            let Some(list) = self.list.upgrade() else {
                return;
            };
            if look && !self.look(&list) {
                return;
            }
        }
    }

    /// Compares every watched file with its known version and sends what changed; false when
    /// nobody listens any more.
    fn look(&self, list: &Mutex<Vec<Watched>>) -> bool {
        // Look at the disk without holding the lock: the UI thread may need it meanwhile.
        let snapshot: Vec<(ReportId, PathBuf)> = lock(list)
            .iter()
            .map(|w| (w.report, w.path.clone()))
            .collect();
        let seen: Vec<(ReportId, std::io::Result<FileSignature>)> = snapshot
            .into_iter()
            .map(|(report, path)| (report, FileSignature::read(&path)))
            .collect();
        let mut events = Vec::new();
        {
            let mut watched = lock(list);
            for (report, now) in seen {
                let Some(w) = watched.iter_mut().find(|w| w.report == report) else {
                    continue;
                };
                let state = match now {
                    Ok(sig) if sig == w.known => None,
                    Ok(sig) => Some(FileState::Changed(sig)),
                    Err(e) => Some(FileState::Unreadable(unreadable_text(&e))),
                };
                if state != w.reported {
                    w.reported = state.clone();
                    events.push(FileEvent { report, state });
                }
            }
        }
        if events.is_empty() {
            return true;
        }
        for event in events {
            if self.tx.send(event).is_err() {
                return false;
            }
        }
        self.waker.wake();
        true
    }
}

/// Whether a notification about `paths` may concern a watched file (same file name; the
/// thread compares signatures afterwards). An event without paths (a queue overflow) may
/// concern any.
fn concerns(watched: &[Watched], paths: &[PathBuf]) -> bool {
    paths.is_empty()
        || paths.iter().any(|p| {
            p.file_name()
                .is_some_and(|name| watched.iter().any(|w| w.path.file_name() == Some(name)))
        })
}

/// Why a file cannot be looked at, in words.
fn unreadable_text(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "is no longer on disk (removed or renamed)".into(),
        std::io::ErrorKind::PermissionDenied => "can no longer be read (permission denied)".into(),
        _ => format!("can no longer be read ({error})"),
    }
}

mod notify_backend {
    //! Change notifications through the `notify` crate, for the directories of watched files.

    use super::{Watched, concerns, lock};
    use notify::{EventKind, RecursiveMode, Watcher, event::AccessKind, event::AccessMode};
    use std::collections::BTreeSet;
    use std::path::PathBuf;
    use std::sync::mpsc::Sender;
    use std::sync::{Mutex, Weak};

    /// The operating system's watcher and the directories it watches.
    pub struct Backend {
        watcher: notify::RecommendedWatcher,
        dirs: BTreeSet<PathBuf>,
    }

    impl Backend {
        /// A watcher whose relevant notifications send a message on `touch`.
        pub fn new(list: Weak<Mutex<Vec<Watched>>>, touch: Sender<()>) -> Result<Backend, String> {
            let handler = move |event: notify::Result<notify::Event>| {
                let relevant = match &event {
                    // Reading a file (our own loads included) changes nothing; a write that
                    // was closed may have.
                    Ok(e) => match e.kind {
                        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
                        EventKind::Access(_) => false,
                        _ => list
                            .upgrade()
                            .is_some_and(|l| concerns(&lock(&l), &e.paths)),
                    },
                    // Lost notifications: look at every file.
                    Err(_) => true,
                };
                if relevant {
                    let _ = touch.send(());
                }
            };
            let watcher = notify::recommended_watcher(handler)
                .map_err(|e| format!("change notifications unavailable: {e}"))?;
            Ok(Backend {
                watcher,
                dirs: BTreeSet::new(),
            })
        }

        /// Watches exactly `dirs` (not their subdirectories).
        pub fn watch_only(&mut self, dirs: &[PathBuf]) -> Result<(), String> {
            let wanted: BTreeSet<PathBuf> = dirs.iter().cloned().collect();
            for gone in self.dirs.difference(&wanted) {
                // A directory that vanished is no longer watched anyway.
                let _ = self.watcher.unwatch(gone);
            }
            for new in wanted.difference(&self.dirs) {
                self.watcher
                    .watch(new, RecursiveMode::NonRecursive)
                    .map_err(|e| format!("cannot watch {}: {e}", new.display()))?;
            }
            self.dirs = wanted;
            Ok(())
        }
    }
}

#[cfg(test)]
#[path = "file_watch_tests.rs"]
mod tests;
