//! The egui views.
