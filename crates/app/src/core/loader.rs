//! Background loading: one thread per file, at most one reading per CPU core at a time (the
//! others wait their turn), results sent back over a channel; the UI drains it every frame and
//! is woken through its [`Waker`] when something arrives. A load can be cancelled: a waiting
//! one never starts, a running one stops before parsing where it can, and what a cancelled
//! load produced is dropped on its own thread and never sent.

use crate::core::commands::OpenRequest;
use crate::core::error::OpenError;
use crate::core::file_watch::FileSignature;
use crate::core::ids::LoadId;
use crate::core::ids::ReportId;
use crate::core::rows::{RowSummary, summarize_report};
use crate::core::waker::Waker;
use crate::model::Report;
use crate::parse;
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// A finished load.
#[derive(Debug)]
pub struct LoadOutcome {
    pub id: LoadId,
    pub result: Result<Report, OpenError>,
    pub elapsed: Duration,
    /// The file's size and modification time just before it was read, when it is a file.
    pub signature: Option<FileSignature>,
    /// The results table's rows of the report, made on the loading thread so that the UI
    /// thread does not walk the results (their report id is set when the report is added).
    pub rows: Vec<RowSummary>,
}

/// What the UI and a load's thread share: whether the load was cancelled and whether it has
/// started reading (it may wait for a free core first).
#[derive(Debug, Clone, Default)]
pub struct LoadControl {
    cancelled: Arc<AtomicBool>,
    started: Arc<AtomicBool>,
    /// Bytes of the file read so far.
    read: Arc<AtomicU64>,
}

impl LoadControl {
    /// Asks the load to stop; its outcome is never sent.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Release);
    }

    /// Whether the load was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Acquire)
    }

    /// Whether the load got a core and started reading.
    pub fn has_started(&self) -> bool {
        self.started.load(Ordering::Acquire)
    }

    /// Bytes of the file read so far.
    pub fn bytes_read(&self) -> u64 {
        self.read.load(Ordering::Relaxed)
    }
}

/// The number of loads that may read at the same time.
struct Slots {
    free: Mutex<usize>,
    changed: Condvar,
}

impl Slots {
    fn new(count: usize) -> Self {
        Slots {
            free: Mutex::new(count),
            changed: Condvar::new(),
        }
    }

    /// Waits for a free slot; `None` when the load is cancelled first.
    fn acquire(self: &Arc<Self>, control: &LoadControl) -> Option<SlotGuard> {
        let mut free = self.free.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if control.is_cancelled() {
                return None;
            }
            if *free > 0 {
                *free -= 1;
                return Some(SlotGuard(Arc::clone(self)));
            }
            // The timeout is a safety net only: cancelling and freeing a slot both notify.
            free = self
                .changed
                .wait_timeout(free, Duration::from_millis(200))
                .map_or_else(|p| p.into_inner().0, |(guard, _)| guard);
        }
    }

    /// Wakes the waiting loads (one was cancelled).
    fn wake_all(&self) {
        self.changed.notify_all();
    }
}

/// A taken slot, given back when dropped.
struct SlotGuard(Arc<Slots>);

impl Drop for SlotGuard {
    fn drop(&mut self) {
        *self.0.free.lock().unwrap_or_else(|p| p.into_inner()) += 1;
        self.0.changed.notify_all();
    }
}

/// Counts a loading thread for as long as it lives.
struct Running(Arc<AtomicUsize>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Starts loads and collects their outcomes.
pub struct Loader {
    tx: Sender<LoadOutcome>,
    rx: Receiver<LoadOutcome>,
    /// Set by the front end; threads use it to wake it.
    waker: Waker,
    slots: Arc<Slots>,
    running: Arc<AtomicUsize>,
    next_id: u64,
}

impl Default for Loader {
    fn default() -> Self {
        Loader::new(Waker::default())
    }
}

impl Loader {
    /// A loader whose threads call `waker` when they finish.
    pub fn new(waker: Waker) -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let (tx, rx) = channel();
        Loader {
            tx,
            rx,
            waker,
            slots: Arc::new(Slots::new(cores.max(2))),
            running: Arc::new(AtomicUsize::new(0)),
            next_id: 0,
        }
    }

    /// Starts loading on a new thread and returns at once.
    pub fn start(&mut self, request: OpenRequest) -> (LoadId, LoadControl) {
        self.next_id += 1;
        let id = LoadId(self.next_id);
        let control = LoadControl::default();
        let tx = self.tx.clone();
        let waker = self.waker.clone();
        let slots = Arc::clone(&self.slots);
        let name = request.display_name();
        let thread_name = format!("load {name}");
        let thread_control = control.clone();
        self.running.fetch_add(1, Ordering::AcqRel);
        let running = Running(Arc::clone(&self.running));
        let work = move || {
            let _running = running;
            let control = thread_control;
            let Some(_slot) = slots.acquire(&control) else {
                return;
            };
            control.started.store(true, Ordering::Release);
            let started = Instant::now();
            let signature = request.path().and_then(|p| FileSignature::read(p).ok());
            let result = load_unless_cancelled(&request, &control);
            let rows = match &result {
                Ok(report) if !control.is_cancelled() => {
                    summarize_report(ReportId(0), &name, report)
                }
                _ => Vec::new(),
            };
            if control.is_cancelled() {
                // Dropped here, off the UI thread.
                return;
            }
            let _ = tx.send(LoadOutcome {
                id,
                result,
                elapsed: started.elapsed(),
                signature,
                rows,
            });
            waker.wake();
        };
        let spawned = std::thread::Builder::new().name(thread_name).spawn(work);
        if let Err(e) = spawned {
            // The closure (and its `Running`) was dropped with the error.
            let _ = self.tx.send(LoadOutcome {
                id,
                result: Err(OpenError::Thread(Arc::new(e))),
                elapsed: Duration::ZERO,
                signature: None,
                rows: Vec::new(),
            });
        }
        (id, control)
    }

    /// Cancels a load (see [`LoadControl::cancel`]) and wakes it if it waits for a core.
    pub fn cancel(&self, control: &LoadControl) {
        control.cancel();
        self.slots.wake_all();
    }

    /// How many loading threads are still alive, cancelled ones included.
    pub fn threads_running(&self) -> usize {
        self.running.load(Ordering::Acquire)
    }

    /// A finished load, if one is waiting.
    pub fn try_recv(&self) -> Option<LoadOutcome> {
        self.rx.try_recv().ok()
    }

    /// Waits up to `timeout` for a finished load.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<LoadOutcome> {
        self.rx.recv_timeout(timeout).ok()
    }
}

/// [`load`], checking `control` before reading and again before parsing bytes that were read
/// separately (a dropped file's).
fn load_unless_cancelled(
    request: &OpenRequest,
    control: &LoadControl,
) -> Result<Report, OpenError> {
    if control.is_cancelled() {
        return Err(OpenError::Cancelled);
    }
    let loaded = match request {
        OpenRequest::Dropped(handle) => {
            let bytes = handle.bytes().map_err(OpenError::Dropped)?;
            if control.is_cancelled() {
                return Err(OpenError::Cancelled);
            }
            guard_panics(|| Ok(parse::parse_bytes(handle.path(), &bytes)?))
        }
        OpenRequest::Path(path) => guard_panics(|| {
            Ok(parse::load_path_with_progress(path, &mut |done, _| {
                control.read.store(done, Ordering::Relaxed);
            })?)
        }),
        _ => load(request),
    };
    match loaded {
        Err(OpenError::Load(e)) if !control.is_cancelled() => {
            Err(sass_export_of(request).unwrap_or(OpenError::Load(e)))
        }
        other => other,
    }
}

/// A file that is no result may be ncu's Source page export: its SASS text, as the outcome
/// that adds it to the Source page. Exports are small; a large file is not read again, nor
/// anything but a regular file (a pipe would wait for a writer that never comes).
fn sass_export_of(request: &OpenRequest) -> Option<OpenError> {
    const MAX_EXPORT_BYTES: u64 = 256 << 20;
    let (name, bytes) = match request {
        OpenRequest::Path(path) => {
            let meta = std::fs::metadata(path).ok()?;
            if !meta.is_file() || meta.len() > MAX_EXPORT_BYTES {
                return None;
            }
            (path.display().to_string(), std::fs::read(path).ok()?)
        }
        OpenRequest::Dropped(handle) => (handle.path().display().to_string(), handle.bytes().ok()?),
        _ => return None,
    };
    let import = crate::core::sass_imports::read_export(&name, &bytes)?;
    Some(OpenError::SassExport(Arc::new(import)))
}

/// Reads and parses a request on the calling thread. A parser panic becomes an error, so one
/// bad file never takes the app down.
pub fn load(request: &OpenRequest) -> Result<Report, OpenError> {
    guard_panics(|| match request {
        OpenRequest::Path(path) => Ok(parse::load_path(path)?),
        OpenRequest::Text { name, text } => {
            Ok(parse::parse_bytes(Path::new(name), text.as_bytes())?)
        }
        OpenRequest::Dropped(handle) => {
            let bytes = handle.bytes().map_err(OpenError::Dropped)?;
            Ok(parse::parse_bytes(handle.path(), &bytes)?)
        }
        OpenRequest::Demo => crate::core::demo::load_demo(),
    })
}

/// Runs `read`, turning a panic into an error.
fn guard_panics(read: impl FnOnce() -> Result<Report, OpenError>) -> Result<Report, OpenError> {
    match std::panic::catch_unwind(AssertUnwindSafe(read)) {
        Ok(result) => result,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown cause".into());
            Err(OpenError::ReaderFailed(what))
        }
    }
}
