//! Pieces several pages share: speed-of-light bars ([`sol_bars`]), the spinner
//! ([`calm_spinner`]), right-click copy menus
//! ([`copy_menu`]), plot helpers ([`plot_util`]), the export buttons of the comparison pages
//! ([`compare_export`]), the colours of both themes ([`theme`]), and section bodies: charts and
//! tables ([`section_body`]) with the memory chart ([`memory_chart`]), the PM sampling timeline
//! ([`timeline`]) and metric-instances tables ([`instances_table`]), and both sides of a
//! comparison ([`section_body_compare`]).

pub mod calm_spinner;
pub mod compare_export;
pub mod copy_menu;
pub mod instances_table;
pub mod memory_chart;
pub mod memory_chart_layout;
pub mod plot_util;
pub mod rule_card;
pub mod section_body;
pub mod section_body_compare;
pub mod sol_bars;
pub mod theme;
pub mod timeline;
