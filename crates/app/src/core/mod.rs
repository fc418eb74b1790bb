//! The application core: what is open and selected, the settings, and everything the user can
//! ask for as one [`commands::Command`], carried out by [`state::AppState::handle`]. Nothing
//! here knows a page; the view-models in [`crate::views`] read this state.
//!
//! - [`ids`]: the ids of open reports, results and loads (a leaf: it imports nothing);
//! - [`state`]: [`state::AppState`], the open reports ([`workspace`]), the selection, the
//!   results table's filter and order ([`table_view`], with each row summarised once by
//!   [`rows`] and the filter text read by [`row_filter`]), notices;
//! - [`commands`]: the command enum and what can be opened ([`commands::OpenRequest`]);
//!   [`actions`]: the table of what the user asks for from the menu and the keyboard (text,
//!   tooltip, key, command), which the window's menu, help list and key handler read;
//! - [`loader`]: loading on background threads with progress and cancel, failing with an
//!   [`error::OpenError`] ([`started_loads`]: loads begun before the state, while the window
//!   opens); [`demo`] is the report built into the binary; [`sass_imports`] reads ncu's SASS
//!   exports opened beside a report;
//! - [`file_watch`] and [`file_notices`]: files of open reports that changed on disk;
//!   [`follow`] and [`followed`]: a followed folder, its reports opened as they arrive and
//!   shown as being written until they settle;
//!   [`closed_reports`]: what a close closed, to open again (undo);
//! - [`settings`]: what is remembered across runs (theme, page, sort, recent files,
//!   [`baselines`], [`manual_pairs`] and [`report_sides`] of the report comparison);
//! - [`page_id`]: which page is shown; [`waker`]: how threads wake the UI.

pub mod actions;
pub mod baselines;
pub mod closed_reports;
pub mod commands;
pub mod demo;
pub mod error;
pub mod file_notices;
pub mod file_watch;
pub mod follow;
pub mod followed;
pub mod ids;
pub mod loader;
pub mod manual_pairs;
pub mod page_id;
pub mod report_sides;
pub mod row_filter;
pub mod rows;
pub mod sass_imports;
pub mod settings;
pub mod started_loads;
pub mod state;
pub mod table_view;
pub mod waker;
pub mod workspace;
