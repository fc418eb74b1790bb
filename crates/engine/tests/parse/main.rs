//! The readers and formats: the `.ncu-rep` reader against NVIDIA's oracle, the ncu text, CSV,
//! session and GUI-copy forms, compressed inputs, files read on demand or changing while read,
//! what ncu 2026.3 adds, the public corpora, and damaged text. One test binary; each module was
//! a test file of its own and keeps its name.

mod bombs;
mod cli_text;
mod code_reader;
mod compressed_inputs;
mod csv_exports;
mod field_bombs;
mod gui_copy;
mod load_path;
mod ncu_2026_3;
mod ncu_rep;
mod ncu_rep_kinds;
mod on_demand;
mod print_variants;
mod public_corpus;
mod rule_details;
mod rule_titles;
mod rules_agree;
mod saved_text;
mod session_page;
mod skipped_lines;
mod text_public;
mod text_robustness;
mod text_windows;
