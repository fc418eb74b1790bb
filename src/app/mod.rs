//! The application core, without a window (no egui): what is open and selected, the settings,
//! and everything the user can ask for as one [`Command`], carried out by
//! [`AppState::handle`].
//!
//! - [`state`]: [`AppState`], the open reports ([`workspace`]), the selection, the results
//!   table's filter and order ([`table_view`], [`rows`]), notices;
//! - [`commands`]: the command enum and what can be opened ([`OpenRequest`]);
//! - [`loader`]: loading on background threads with progress and cancel, failing with an
//!   [`error::OpenError`]; [`demo`] is the report built into the binary;
//! - [`file_watch`] and [`file_notices`]: files of open reports that changed on disk;
//!   [`closed_reports`]: what a close closed, to open again (undo);
//! - [`settings`]: what is remembered across runs (theme, page, sort, recent files,
//!   [`baselines`], [`manual_pairs`] of the report comparison);
//! - [`source_page`]: the Source page's view, read from the report file on demand, with SASS
//!   text from ncu's exports ([`sass_imports`]) where no nvdisasm is found;
//! - [`roofline_scene`], [`occupancy_view`], [`side_by_side`]: what the Roofline, Occupancy and
//!   Compare pages show, computed when their inputs change;
//! - [`report_sides`]: which two reports Report vs report compares, and which is the baseline;
//! - [`page_id`]: which page is shown; [`format`]: numbers and names as text; [`names`]: long
//!   kernel names shortened in the middle;
//! - [`cache`]: the one cache helper for derived views; [`waker`]: how threads wake the UI;
//! - [`job`]: one background job (keyed, polled, cancelled when superseded); [`views`]: the
//!   view-models of pages built that way.
//!
//! The desktop front end (`ui`) draws this state and turns clicks and keys into commands.

pub mod baselines;
pub mod cache;
pub mod closed_reports;
pub mod commands;
pub mod compare_page;
pub mod copy;
pub mod demo;
pub mod error;
pub mod file_notices;
pub mod file_watch;
pub mod format;
pub mod job;
pub mod loader;
pub mod manual_pairs;
pub mod names;
pub mod occupancy_view;
pub mod page_id;
pub mod report_compare_view;
pub mod report_sides;
pub mod roofline_scene;
pub mod rows;
pub mod sass_imports;
pub mod settings;
pub mod side_by_side;
pub mod source_page;
pub mod state;
pub mod table_view;
pub mod views;
pub mod waker;
pub mod workspace;

pub use commands::{Command, OpenRequest};
pub use page_id::PageId;
pub use settings::{Settings, ThemeChoice};
pub use state::AppState;
