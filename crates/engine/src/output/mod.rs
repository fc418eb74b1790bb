//! Every output form in one place: the JSON documents (laid out as serde_json pretty-prints
//! them, long arrays streamed element by element), the CSV and Markdown exports, the
//! self-contained HTML pages and the aligned text tables. The command line, the MCP tools,
//! the window's exports and its copy menus call these writers; values are spelled by the
//! model's one formatter (`model::format`).

pub mod arrival_text;
pub mod clipboard;
pub mod compare;
pub mod html_page;
pub mod json_layout;
pub mod json_stream;
pub mod kernel_names;
pub mod line_chart;
pub mod occupancy_json;
pub mod occupancy_table;
pub mod result_json;
pub mod result_tables;
pub mod roofline_json;
pub mod roofline_table;
pub mod sections_json;
pub mod sections_text;
pub mod source_csv;
pub mod source_json;
pub mod spill;
pub mod summary_csv;
pub mod summary_html;
pub mod summary_json;
pub mod summary_table;
pub mod sweep_html;
pub mod sweep_json;
pub mod sweep_tables;
pub mod table;
pub mod text;
pub mod trend_forms;
pub mod trend_html;
pub mod trend_json;
pub mod trend_tables;
