//! The desktop app (egui/eframe views).

use std::path::PathBuf;

/// Starts the desktop app on the given files.
pub fn run(files: Vec<PathBuf>) -> Result<(), String> {
    let _ = files;
    Err("the desktop app is not built yet".into())
}
