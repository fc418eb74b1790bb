//! What the pages show, one view-model per page or page part, named like it: each is asked
//! for its data, builds it (in the background through [`crate::app::job::Job`] where it
//! takes long) and answers ready, building or failed; the page only draws the answer.

pub mod hot_spots;
