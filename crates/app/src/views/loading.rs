//! What a file being loaded shows: its name, how much of it was read and for how long, or that
//! it waits for a free core. The reports panel lists each; while no report is open the
//! central panel shows them large, with their progress.

use crate::core::ids::LoadId;
use crate::core::workspace::PendingLoad;
use crate::output::text::size_text;

/// One pending load as it is shown.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadProgress {
    pub id: LoadId,
    /// The file's name (`x40.ncu-rep`), for the Cancel button's name.
    pub name: String,
    /// The name, or `Reloading x40.ncu-rep` for a file read again.
    pub title: String,
    /// `Loading · 474.7 MB of 909.0 MB · 0.3 s`, `Queued · 909.0 MB · 0.0 s`, or without the
    /// size where it is not known (a pipe).
    pub facts: String,
    /// The part of the file read, 0 to 1, when its size is known.
    pub fraction: Option<f32>,
    /// Whether it waits for a free core.
    pub queued: bool,
}

/// What `load` shows now.
pub fn load_progress(load: &PendingLoad) -> LoadProgress {
    let read = load.control.bytes_read();
    let size = load.size.map(|size| match read {
        0 => size_text(size),
        read => format!("{} of {}", size_text(read.min(size)), size_text(size)),
    });
    let seconds = load.started.elapsed().as_secs_f64();
    let queued = !load.control.has_started();
    let what = if queued { "Queued" } else { "Loading" };
    LoadProgress {
        id: load.id,
        name: load.name.clone(),
        title: match load.replaces {
            Some(_) => format!("Reloading {}", load.name),
            None => load.name.clone(),
        },
        facts: match size {
            Some(size) => format!("{what} · {size} · {seconds:.1} s"),
            None => format!("{what} · {seconds:.1} s"),
        },
        fraction: load
            .size
            .filter(|&size| size > 0)
            .map(|size| (read.min(size) as f64 / size as f64) as f32),
        queued,
    }
}
