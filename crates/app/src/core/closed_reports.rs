//! What was closed, so that a close can be undone (Ctrl+Shift+T): each close remembers how to
//! open its reports again (their files, the demo), never the reports themselves, so closing
//! still gives their memory back. Pasted text has nothing to open again and is named as lost.

use crate::core::commands::OpenRequest;
use crate::core::demo::DEMO_NAME;
use crate::core::ids::ReportId;
use crate::core::workspace::Workspace;

/// How many closes can be undone.
const KEPT: usize = 10;

/// One close: what can be opened again, and the names of what cannot.
#[derive(Debug, Clone, Default)]
struct Closed {
    reopen: Vec<OpenRequest>,
    names: Vec<String>,
    lost: Vec<String>,
}

/// The closes that can be undone, the last one last, and whether its bar is shown.
#[derive(Debug, Default)]
pub struct ClosedReports {
    closes: Vec<Closed>,
    shown: bool,
}

impl ClosedReports {
    /// Remembers the reports `ids` of `workspace`, about to be closed.
    pub fn remember(&mut self, workspace: &Workspace, ids: &[ReportId]) {
        let mut closed = Closed::default();
        for open in ids.iter().filter_map(|&id| workspace.report(id)) {
            let request = match &open.path {
                Some(path) => Some(OpenRequest::Path(path.clone())),
                None if open.name == DEMO_NAME => Some(OpenRequest::Demo),
                None => None,
            };
            match request {
                Some(r) => {
                    closed.reopen.push(r);
                    closed.names.push(open.name.clone());
                }
                None => closed.lost.push(open.name.clone()),
            }
        }
        if closed.reopen.is_empty() && closed.lost.is_empty() {
            return;
        }
        self.closes.push(closed);
        if self.closes.len() > KEPT {
            self.closes.remove(0);
        }
        self.shown = true;
    }

    /// What the last close closed, to open again; the bar is hidden.
    pub fn take_last(&mut self) -> Vec<OpenRequest> {
        self.shown = false;
        self.closes.pop().map(|c| c.reopen).unwrap_or_default()
    }

    /// Hides the bar (the closes can still be undone).
    pub fn dismiss(&mut self) {
        self.shown = false;
    }

    /// Whether a close can be undone.
    pub fn can_undo(&self) -> bool {
        self.closes.last().is_some_and(|c| !c.reopen.is_empty())
    }

    /// The bar's text after a close: what was closed and what cannot come back; `None` once
    /// dismissed or undone.
    pub fn bar_text(&self) -> Option<String> {
        let last = self.closes.last().filter(|_| self.shown)?;
        let mut text = match last.names.as_slice() {
            [] => String::new(),
            [one] => format!("Closed {one}."),
            many => format!("Closed {} reports.", many.len()),
        };
        if !last.lost.is_empty() {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(&format!(
                "{} cannot be opened again (pasted text has no file).",
                last.lost.join(", ")
            ));
        }
        Some(text)
    }
}
