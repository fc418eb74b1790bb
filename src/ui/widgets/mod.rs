//! Pieces several pages share: speed-of-light bars ([`sol_bars`]), right-click copy menus
//! ([`copy_menu`]), plot helpers ([`plot_util`]), the export buttons of the comparison pages
//! ([`compare_export`]) and the colours of both themes ([`theme`]).

pub mod compare_export;
pub mod copy_menu;
pub mod plot_util;
pub mod sol_bars;
pub mod theme;
