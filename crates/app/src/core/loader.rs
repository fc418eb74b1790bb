//! Background loading on a bounded pool: one worker thread per CPU core at most (fewer under
//! a low open-file limit), started as loads are queued and ended once the queue is empty, so
//! a folder of thousands of reports is read a few files at a time on a few threads (the others
//! wait their turn in the queue).
//! Results go back over a channel; the UI drains it every frame and is woken through its
//! [`Waker`] when something arrives. A load can be cancelled: a queued one never starts, a
//! running one stops before parsing where it can, and what a cancelled load produced is
//! dropped on its worker and never sent.

use crate::core::commands::OpenRequest;
use crate::core::error::OpenError;
use crate::core::file_watch::FileSignature;
use crate::core::ids::LoadId;
use crate::core::ids::ReportId;
use crate::core::rows::{RowSummary, summarize_report};
use crate::core::waker::Waker;
use crate::model::Report;
use crate::parse;
use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
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

    /// Whether the load got a worker and started reading.
    pub fn has_started(&self) -> bool {
        self.started.load(Ordering::Acquire)
    }

    /// Bytes of the file read so far.
    pub fn bytes_read(&self) -> u64 {
        self.read.load(Ordering::Relaxed)
    }
}

/// A queued load: what to read and what to do with it.
type Job = Box<dyn FnOnce() + Send>;

/// The queue of loads and the workers that take them.
struct Pool {
    queue: Mutex<Queue>,
    /// Most workers at a time.
    size: usize,
    /// Workers alive ([`Loader::threads_running`]).
    running: AtomicUsize,
}

#[derive(Default)]
struct Queue {
    jobs: VecDeque<(LoadControl, Job)>,
    workers: usize,
}

impl Pool {
    fn queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Queues a load, starting a worker when fewer than [`Pool::size`] run; an error (the
    /// load dropped) when no worker runs and none can be started.
    fn push(self: &Arc<Self>, control: LoadControl, job: Job) -> std::io::Result<()> {
        let mut queue = self.queue();
        queue.jobs.push_back((control, job));
        if queue.workers >= self.size {
            return Ok(());
        }
        queue.workers += 1;
        self.running.fetch_add(1, Ordering::AcqRel);
        let pool = Arc::clone(self);
        let spawned = std::thread::Builder::new()
            .name("report loader".into())
            .spawn(move || pool.work());
        match spawned {
            Ok(_) => Ok(()),
            Err(e) => {
                queue.workers -= 1;
                self.running.fetch_sub(1, Ordering::AcqRel);
                // The workers alive take it; with none, it is dropped and the error said.
                if queue.workers > 0 {
                    return Ok(());
                }
                queue.jobs.pop_back();
                Err(e)
            }
        }
    }

    /// A worker: takes loads until the queue is empty, then ends. Cancelled loads are
    /// passed over.
    fn work(&self) {
        loop {
            let next = {
                let mut queue = self.queue();
                match queue.jobs.pop_front() {
                    Some(job) => job,
                    None => {
                        queue.workers -= 1;
                        self.running.fetch_sub(1, Ordering::AcqRel);
                        return;
                    }
                }
            };
            let (control, job) = next;
            if control.is_cancelled() {
                continue;
            }
            control.started.store(true, Ordering::Release);
            job();
        }
    }
}

/// Starts loads and collects their outcomes.
pub struct Loader {
    tx: Sender<LoadOutcome>,
    rx: Receiver<LoadOutcome>,
    /// Set by the front end; threads use it to wake it.
    waker: Waker,
    pool: Arc<Pool>,
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
        // A load holds a few descriptors while it reads (the file, its reader, a
        // decompressed copy): under a low open-file limit fewer read at once.
        let by_limit = crate::parse::open_files::open_file_limit().map_or(usize::MAX, |n| {
            usize::try_from(n / 16).unwrap_or(usize::MAX)
        });
        let (tx, rx) = channel();
        Loader {
            tx,
            rx,
            waker,
            pool: Arc::new(Pool {
                queue: Mutex::new(Queue::default()),
                size: cores.min(by_limit).max(2),
                running: AtomicUsize::new(0),
            }),
            next_id: 0,
        }
    }

    /// Queues a load for the pool's workers and returns at once.
    pub fn start(&mut self, request: OpenRequest) -> (LoadId, LoadControl) {
        self.next_id += 1;
        let id = LoadId(self.next_id);
        let control = LoadControl::default();
        let tx = self.tx.clone();
        let waker = self.waker.clone();
        let name = request.display_name();
        let job_control = control.clone();
        let work = move || {
            let control = job_control;
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
        if let Err(e) = self.pool.push(control.clone(), Box::new(work)) {
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

    /// Cancels a load (see [`LoadControl::cancel`]): a queued one is passed over.
    pub fn cancel(&self, control: &LoadControl) {
        control.cancel();
    }

    /// How many loading threads are alive (the pool's workers, ended once the queue is
    /// empty; a cancelled load still running counts).
    pub fn threads_running(&self) -> usize {
        self.pool.running.load(Ordering::Acquire)
    }

    /// Most loading threads at a time.
    pub fn most_threads(&self) -> usize {
        self.pool.size
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
