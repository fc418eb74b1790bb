//! sightline: a viewer for NVIDIA Nsight Compute kernel profiles.
//!
//! Data flows one way: [`parse`] turns bytes into the [`model`], [`analysis`] derives
//! speed-of-light, roofline, occupancy and comparisons from it, [`app`] holds what is open and
//! selected and carries out commands, and the [`ui`] and [`cli`] front ends present the results.
//! Nothing under `parse`, `model`, `analysis` or `app` uses egui.

#![forbid(unsafe_code)]

pub mod analysis;
pub mod app;
pub mod cli;
pub mod model;
pub mod parse;
#[cfg(feature = "app")]
pub mod ui;
