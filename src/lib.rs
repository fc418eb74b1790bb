//! sightline: a viewer for NVIDIA Nsight Compute kernel profiles.
//!
//! Each layer is a crate of its own, re-exported here under its name: [`parse`], [`model`],
//! [`analysis`] and [`output`] (the engine, `sightline-engine`), [`app`] (the application core and its
//! view-models, `sightline-app`), [`ui`] (the egui window, `sightline-ui`) and [`cli`] (the
//! headless commands and the MCP server, `sightline-cli`). Data flows one way, and the
//! compiler keeps it so: the engine knows nothing above it, the core knows no egui, and the
//! window and the command line do not know each other.

#![forbid(unsafe_code)]

#[cfg(feature = "app")]
pub use sightline_app as app;
pub use sightline_cli as cli;
pub use sightline_engine::{analysis, model, output, parse};
#[cfg(feature = "app")]
pub use sightline_ui as ui;
