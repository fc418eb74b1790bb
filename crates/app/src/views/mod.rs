//! What the pages show, one view-model per page or page part, named like it: each is asked
//! for its data, builds it (in the background through [`crate::job::Job`] where it
//! takes long) and answers ready, building or failed; the page only draws the answer.
//!
//! - [`compare`]: the Compare page (the [`side_by_side`] comparison and the paired bodies);
//! - [`report_compare`]: Report vs report;
//! - [`roofline`], [`occupancy`]: the Roofline and Occupancy pages;
//! - [`source`]: the Source page's view, read from the report file on demand;
//! - [`hot_spots`]: the Details page's Source Counters tables;
//! - [`rules`]: the Rules page (every rule result of a result, ranked);
//! - [`raw`]: the Raw page's search over the result's metric names;
//! - [`section_bodies`]: section bodies as drawn (the Details page's, the Compare page's
//!   paired bars);
//! - [`loading`]: a file being loaded (the reports panel, the central panel while none is
//!   open);
//! - [`trend`]: the Trend page (every open report as a run of one series), and [`sweep`],
//!   its "By size" view (the open reports as a sweep over problem sizes).

pub mod compare;
pub mod hot_spots;
pub mod loading;
pub mod occupancy;
pub mod raw;
pub mod report_compare;
pub mod roofline;
pub mod rules;
pub mod section_bodies;
pub mod side_by_side;
pub mod source;
pub mod sweep;
pub mod trend;
