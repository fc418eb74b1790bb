//! Loading the files a headless command names, and reporting the ones that failed.

use crate::model::Report;
use crate::parse::{self, LoadError};
use serde_json::{Value as Json, json};
use std::path::PathBuf;

/// Loads every file; the reports that loaded and the errors of those that did not.
pub(crate) fn load_all(files: &[PathBuf]) -> (Vec<Report>, Vec<LoadError>) {
    let mut reports = Vec::new();
    let mut errors = Vec::new();
    for path in files {
        match parse::load_path(path) {
            Ok(r) => reports.push(r),
            Err(e) => errors.push(e),
        }
    }
    (reports, errors)
}

/// The `errors` array of the JSON outputs: each failed file with a one-line reason.
pub(crate) fn errors_json(errors: &[LoadError]) -> Vec<Json> {
    errors
        .iter()
        .map(|e| {
            let message = e
                .to_string()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            json!({"path": e.path().display().to_string(), "message": message})
        })
        .collect()
}

/// Hands the reports to the process exit instead of freeing them one allocation at a time: the
/// command ends right after, and freeing a large report's model costs about as much as
/// building it.
pub fn leave_for_exit(reports: Vec<Report>) {
    std::mem::forget(reports);
}
