//! Analyses derived from the model (no egui).
