//! sightline's engine: bytes to results and what they mean, with no window and no command
//! line. Data flows one way: [`parse`] turns every form of a result (`.ncu-rep` of every
//! version, compressed or not, CLI text, CSV exports, GUI copies) into the [`model`] (reports,
//! results and one metric store with interned keys and units), and [`analysis`] derives speed
//! of light, roofline, occupancy, section bodies, source lines, matching, comparisons and
//! series from it; [`output`] writes every form the results leave in (JSON, CSV, Markdown,
//! HTML, text tables). The application core, the window and the command line are crates above
//! it.

pub mod analysis;
pub mod cores;
pub mod model;
pub mod output;
pub mod parse;
