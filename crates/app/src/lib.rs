//! sightline's application core, without a window (no egui). It has two parts:
//!
//! - [`core`]: the state (open reports, selection, baselines, settings), the commands that
//!   change it, loading and file watching;
//! - [`views`]: one view-model per page or page part, named like its page, built from the
//!   core's state (in the background through [`job`] where it takes long); a page asks its
//!   view-model for ready, building or failed and draws the answer.
//!
//! Beside them, what both use: [`job`] (one background job: keyed, polled, cancelled when
//! superseded) and [`cache`] (the one cache helper for derived views). Every text a view shows
//! is spelled by the engine: values by `model::format`, names, rule texts and clipboard tables
//! by `output` (`kernel_names`, `text`, `clipboard`).
//!
//! The desktop front end (`ui`) draws the view-models and turns clicks and keys into
//! commands; `cli` uses the analysis directly.

use sightline_engine::{analysis, model, output, parse};

pub mod cache;
pub mod core;
pub mod job;
pub mod views;

pub use self::core::commands::{Command, OpenRequest};
pub use self::core::page_id::PageId;
pub use self::core::settings::{Settings, ThemeChoice};
pub use self::core::state::AppState;
