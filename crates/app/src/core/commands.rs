//! What the user asks for: every way of opening something (argv, File > Open, recent files, a
//! drop, a paste, the demo, a reload) becomes one [`Command::Open`] or goes the same way, handled
//! in one place by the app, as do cancelling loads, baselines, comparisons and saving exports.

use crate::core::ids::LoadId;
use crate::core::ids::{ReportId, ResultRef};
use crate::core::page_id::PageId;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A file dropped on the window whose bytes come from the window system (the desktop front
/// end wraps its own handle in this).
pub trait DroppedFile: std::fmt::Debug + Send + Sync {
    /// The file's path (possibly only a name).
    fn path(&self) -> &Path;
    /// Reads the file's bytes.
    fn bytes(&self) -> Result<Vec<u8>, String>;
}

/// Something to open as a report.
#[derive(Debug, Clone)]
pub enum OpenRequest {
    /// A file on disk.
    Path(PathBuf),
    /// Text, e.g. pasted from the clipboard; `name` is how lists show it.
    Text { name: String, text: String },
    /// A dropped file whose path cannot be read directly (its bytes come from the handle).
    Dropped(Arc<dyn DroppedFile>),
    /// The report built into the binary.
    Demo,
}

impl OpenRequest {
    /// How the file lists name it.
    pub fn display_name(&self) -> String {
        match self {
            OpenRequest::Path(p) => crate::output::text::file_name(p),
            OpenRequest::Text { name, .. } => name.clone(),
            OpenRequest::Dropped(h) => crate::output::text::file_name(h.path()),
            OpenRequest::Demo => crate::core::demo::DEMO_NAME.to_string(),
        }
    }

    /// The file on disk, when there is one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            OpenRequest::Path(p) => Some(p),
            OpenRequest::Dropped(h) => Some(h.path()),
            OpenRequest::Text { .. } | OpenRequest::Demo => None,
        }
    }

    /// The size in bytes, when cheap to know.
    pub fn size_hint(&self) -> Option<u64> {
        match self {
            OpenRequest::Path(p) => std::fs::metadata(p).ok().map(|m| m.len()),
            OpenRequest::Text { text, .. } => Some(text.len() as u64),
            OpenRequest::Dropped(h) => std::fs::metadata(h.path()).ok().map(|m| m.len()),
            OpenRequest::Demo => Some(crate::core::demo::demo_size()),
        }
    }
}

/// One user action that changes what is open or shown.
#[derive(Debug, Clone)]
pub enum Command {
    /// Open a file, text or the demo on a background thread.
    Open(OpenRequest),
    /// Show the native file dialog (File > Open, Ctrl+O).
    ShowOpenDialog,
    /// Show the native folder dialog to follow a folder (File > Follow folder…).
    ShowFollowDialog,
    /// Follow a folder: its reports open now, and those written later as they are complete.
    FollowFolder(PathBuf),
    /// Stop following the folder followed.
    StopFollowing,
    /// Hide the Reports panel, or show it again.
    ToggleReportsPanel,
    /// Ask for the local folder of a source folder a report recorded (its path), with the
    /// native folder dialog ("Locate source…" on the Source page).
    LocateSource(String),
    /// Use `folder` for the source files recorded under `recorded` (remembered).
    AddSourceFolder {
        recorded: String,
        folder: PathBuf,
    },
    /// Close one report.
    CloseReport(ReportId),
    /// Close every report.
    CloseAll,
    /// Open again what the last close closed (Ctrl+Shift+T): its files and the demo.
    UndoClose,
    /// Hide the "closed" bar and its Undo button.
    DismissClosed,
    /// Stop a load that has not finished; what it read is dropped.
    CancelLoad(LoadId),
    /// Stop every load that has not finished.
    CancelAllLoads,
    /// Read an open report's file again and put the result in its place.
    ReloadReport(ReportId),
    /// Hide the notice that a report's file changed on disk (until it changes again).
    DismissFileNotice(ReportId),
    /// Read files of open reports again as soon as they change on disk (on), or only show a
    /// notice (off); turning it on reloads the files that changed already.
    SetReloadChangedFiles(bool),
    /// Forget a failed file.
    DismissFailed(LoadId),
    /// Empty the recent files list.
    ClearRecent,
    /// Hide the notice bar.
    DismissNotice,
    /// Select a result (a click in the table, a key, a link); ignored when it is not open.
    Select(ResultRef),
    /// Show or hide the baseline at this position of the list in the comparisons.
    ShowBaseline {
        index: usize,
        visible: bool,
    },
    /// Make a result a baseline.
    /// The results filter changed: a selection it hides moves to the first visible row.
    FollowFilter,
    SetBaseline(ResultRef),
    /// Stop using the baseline at this position of the list.
    RemoveBaseline(usize),
    /// Make a result a baseline, or stop using it as one (Ctrl+B).
    ToggleBaseline(ResultRef),
    /// Show a page of the selected result (its key: `actions::page_shortcut`).
    ShowPage(PageId),
    /// Select the first result of the next open report (Ctrl+Tab), or of the previous one
    /// (Ctrl+Shift+Tab), in the order they were opened.
    NextReport {
        back: bool,
    },
    /// Show the side-by-side comparison of two results (a row of the report comparison).
    ComparePair {
        base: ResultRef,
        current: ResultRef,
    },
    /// Save text (an export) to a file the user picks.
    SaveText {
        file_name: String,
        text: String,
    },
}
