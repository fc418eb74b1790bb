//! The data of the Source page: the selected result's Source view, built on demand from the
//! report file's full bytes (the loaded report leaves the cubins out), with the report's folder
//! searched for source files the report does not hold; with a baseline, the per-line changes
//! from the baseline result's view. The page reads it on a background thread ([`spawn`]).

use crate::analysis::source::compare::{SourceComparison, compare};
use crate::analysis::source::{self, SourceOptions};
use crate::model::KernelResult;
use crate::model::source::SourceView;
use crate::parse::ncu_rep::CodeIndex;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// Builds the Source view of `result`, read from the report at `path`; `sass` is SASS text
/// by address imported from ncu's export, used where nvdisasm gives none.
pub fn load(
    path: Option<&Path>,
    result: &KernelResult,
    sass: HashMap<u64, String>,
) -> Result<SourceView, String> {
    let Some(path) = path else {
        return Err("The Source page needs a .ncu-rep report file (made with --set full).".into());
    };
    let bytes = crate::parse::read_whole(path).map_err(|e| e.to_string())?;
    if !crate::parse::detect::is_ncu_rep(&bytes) {
        return Err("The Source page needs a .ncu-rep report: text and CSV exports hold no per-instruction metrics.".into());
    }
    let index = CodeIndex::new(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let mangled = result
        .name
        .mangled
        .as_deref()
        .unwrap_or(&result.name.function);
    let code = index.kernel_code(&bytes, mangled, source::function_address(result));
    let options = SourceOptions {
        source_dirs: path.parent().map(Path::to_path_buf).into_iter().collect(),
        disassemble: true,
        sass,
    };
    source::build(result, code.as_ref(), &options).map_err(|e| e.to_string())
}

/// The baseline's Source view and the per-line changes from it, or why there are none.
pub type Compared = Result<(SourceView, SourceComparison), String>;

/// The baseline's Source view and the per-line changes from it to `current`.
pub fn compare_with(
    current: &SourceView,
    base_path: Option<&Path>,
    base: &KernelResult,
    sass: HashMap<u64, String>,
) -> Compared {
    let base_view = load(base_path, base, sass).map_err(|e| format!("Baseline: {e}"))?;
    let comparison = compare(&base_view, current);
    Ok((base_view, comparison))
}

/// What the Source page shows: the view and, with a baseline, the comparison.
#[derive(Debug)]
pub struct SourceData {
    pub view: Result<SourceView, String>,
    pub baseline: Option<Compared>,
}

/// A report (its file, if any), one of its results and the SASS text imported for its kernel,
/// as the reading thread needs them.
pub type ResultSource = (Option<PathBuf>, KernelResult, HashMap<u64, String>);

/// Source data being read on a background thread.
#[derive(Debug)]
pub struct PendingSource {
    rx: Receiver<SourceData>,
}

/// Why the reading thread gave nothing.
fn thread_failed() -> SourceData {
    SourceData {
        view: Err("Reading the Source page failed (the reading thread stopped).".into()),
        baseline: None,
    }
}

impl PendingSource {
    /// The data, once read (without waiting).
    pub fn try_take(&self) -> Option<SourceData> {
        match self.rx.try_recv() {
            Ok(data) => Some(data),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(thread_failed()),
        }
    }

    /// Waits for the data.
    pub fn wait(self) -> SourceData {
        self.rx.recv().unwrap_or_else(|_| thread_failed())
    }
}

/// Reads the Source view of `current` (and its comparison with `baseline`) on a new thread;
/// `wake` is called when it is done.
pub fn spawn(
    current: ResultSource,
    baseline: Option<ResultSource>,
    wake: impl Fn() + Send + 'static,
) -> PendingSource {
    let (tx, rx) = channel();
    let work = move || {
        let (path, result, sass) = current;
        let view = load(path.as_deref(), &result, sass);
        let baseline = match (&view, baseline) {
            (Ok(v), Some((path, result, sass))) => {
                Some(compare_with(v, path.as_deref(), &result, sass))
            }
            _ => None,
        };
        let _ = tx.send(SourceData { view, baseline });
        wake();
    };
    if let Err(e) = std::thread::Builder::new()
        .name("source page".into())
        .spawn(work)
    {
        let (tx, rx) = channel();
        let _ = tx.send(SourceData {
            view: Err(format!("Could not start reading the Source page: {e}")),
            baseline: None,
        });
        return PendingSource { rx };
    }
    PendingSource { rx }
}
