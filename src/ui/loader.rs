//! Background loading: one thread per file, results sent back over a channel; the UI drains it
//! every frame and is woken with `request_repaint` when something arrives.

use super::commands::OpenRequest;
use crate::model::Report;
use crate::parse::{self, LoadError};
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// Identifies one load for as long as the app runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LoadId(pub u64);

/// A finished load.
#[derive(Debug)]
pub struct LoadOutcome {
    pub id: LoadId,
    pub result: Result<Report, String>,
    pub elapsed: Duration,
}

/// Starts loads and collects their outcomes.
pub struct Loader {
    tx: Sender<LoadOutcome>,
    rx: Receiver<LoadOutcome>,
    /// Set on the first frame; threads use it to wake the UI.
    repaint: Arc<OnceLock<egui::Context>>,
    next_id: u64,
}

impl Default for Loader {
    fn default() -> Self {
        let (tx, rx) = channel();
        Loader {
            tx,
            rx,
            repaint: Arc::new(OnceLock::new()),
            next_id: 0,
        }
    }
}

impl Loader {
    /// Lets loading threads wake this context when they finish.
    pub fn set_context(&self, ctx: &egui::Context) {
        if self.repaint.get().is_none() {
            let _ = self.repaint.set(ctx.clone());
        }
    }

    /// Starts loading on a new thread and returns at once.
    pub fn start(&mut self, request: OpenRequest) -> LoadId {
        self.next_id += 1;
        let id = LoadId(self.next_id);
        let tx = self.tx.clone();
        let repaint = Arc::clone(&self.repaint);
        let name = request.display_name();
        let work = move || {
            let started = Instant::now();
            let result = load(&request);
            let _ = tx.send(LoadOutcome {
                id,
                result,
                elapsed: started.elapsed(),
            });
            if let Some(ctx) = repaint.get() {
                ctx.request_repaint();
            }
        };
        let spawned = std::thread::Builder::new()
            .name(format!("load {name}"))
            .spawn(work);
        if let Err(e) = spawned {
            let _ = self.tx.send(LoadOutcome {
                id,
                result: Err(format!("could not start a loading thread: {e}")),
                elapsed: Duration::ZERO,
            });
        }
        id
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

/// Reads and parses a request on the calling thread. A parser panic becomes an error, so one
/// bad file never takes the app down.
pub fn load(request: &OpenRequest) -> Result<Report, String> {
    let run = AssertUnwindSafe(|| match request {
        OpenRequest::Path(path) => parse::load_path(path).map_err(|e| describe(&e)),
        OpenRequest::Text { name, text } => {
            parse::parse_bytes(Path::new(name), text.as_bytes()).map_err(|e| describe(&e))
        }
        OpenRequest::Dropped(handle) => {
            let bytes = handle.bytes()?;
            parse::parse_bytes(handle.path(), &bytes).map_err(|e| describe(&e))
        }
        OpenRequest::Demo => super::demo::load_demo(),
    });
    match std::panic::catch_unwind(run) {
        Ok(result) => result,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown cause".into());
            Err(format!("the reader failed unexpectedly: {what}"))
        }
    }
}

/// An error without the file name (the UI shows the name next to it).
pub fn describe(error: &LoadError) -> String {
    let text = error.to_string();
    let prefix = format!("{}: ", error.path().display());
    match text.strip_prefix(&prefix) {
        Some(rest) => rest.to_string(),
        None => text,
    }
}
