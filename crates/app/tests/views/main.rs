//! The view-models the window's pages draw, built from real reports without a window: the
//! Details page's section drawings, occupancy and side-by-side views, the rules list, report
//! against report, the Source page (its listing, SASS per architecture and nvdisasm's limits,
//! its baseline), the Trend page's chart and its By size view, the results table's rows. One test binary; each module is a
//! topic of its own.

mod sass_arch;
mod sass_limits;
mod section_drawing;
mod source_baseline;
mod source_listing;
mod sweep_view;
mod table_rows;
mod trend_chart;
mod view_models;
