//! Pieces several pages share: speed-of-light bars ([`sol_bars`]), plot helpers
//! ([`plot_util`]), the export buttons of the comparison pages ([`compare_export`]) and the
//! colours of both themes ([`theme`]).

pub mod compare_export;
pub mod plot_util;
pub mod sol_bars;
pub mod theme;
