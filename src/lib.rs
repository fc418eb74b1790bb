//! sightline: a viewer for NVIDIA Nsight Compute kernel profiles.
//!
//! Data flows one way: [`parse`] turns bytes into the [`model`], [`analysis`] derives
//! speed-of-light, roofline, occupancy and comparisons from it, and the [`ui`] and [`cli`]
//! front ends present the results. Nothing under `parse`, `model` or `analysis` uses egui.

pub mod analysis;
pub mod cli;
pub mod model;
pub mod parse;
#[cfg(feature = "app")]
pub mod ui;
