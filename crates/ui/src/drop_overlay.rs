//! Drag and drop: an overlay while files hover over the window, and the dropped files as open
//! requests.

use sightline_app::core::commands::{DroppedFile, OpenRequest};
use std::path::Path;
use std::sync::Arc;

/// A file the window system dropped, read through its handle.
#[derive(Debug)]
struct DroppedHandle(egui::DroppedFileHandle);

impl DroppedFile for DroppedHandle {
    fn path(&self) -> &Path {
        egui::DroppedFile::path(&*self.0)
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        egui::DroppedFile::bytes(&*self.0)
    }
}

/// Paints the overlay while files are dragged over the window.
pub fn paint_hover(ctx: &egui::Context) {
    let names: Vec<String> = ctx.input(|i| {
        i.raw
            .hovered_files
            .iter()
            .map(|f| {
                f.path
                    .as_deref()
                    .map_or_else(|| "file".to_string(), crate::output::text::file_name)
            })
            .collect()
    });
    if names.is_empty() {
        return;
    }
    let layer = egui::LayerId::new(egui::Order::Foreground, egui::Id::unique("drop_overlay"));
    let painter = ctx.layer_painter(layer);
    let rect = ctx.content_rect();
    painter.rect_filled(rect, 0.0, egui::Color32::from_black_alpha(170));
    let frame = rect.shrink(24.0);
    painter.rect_stroke(
        frame,
        12.0,
        egui::Stroke::new(3.0, egui::Color32::from_rgb(110, 170, 255)),
        egui::StrokeKind::Inside,
    );
    let count = names.len();
    let title = if count == 1 {
        "Drop to open 1 file".to_string()
    } else {
        format!("Drop to open {count} files")
    };
    let mut listed: Vec<String> = names.into_iter().take(6).collect();
    if count > listed.len() {
        listed.push(format!("and {} more", count - listed.len()));
    }
    // The text is a real label (an area above everything) so it is also announced.
    egui::Area::new(egui::Id::unique("drop_overlay_text"))
        .order(egui::Order::Tooltip)
        .interactable(false)
        .pivot(egui::Align2::CENTER_CENTER)
        .fixed_pos(rect.center())
        .show(ctx, |ui| {
            ui.vertical_centered(|ui| {
                ui.label(
                    egui::RichText::new(title)
                        .size(28.0)
                        .color(egui::Color32::WHITE),
                );
                for name in listed {
                    ui.label(
                        egui::RichText::new(name)
                            .size(16.0)
                            .color(egui::Color32::from_gray(220)),
                    );
                }
            });
        });
}

/// Takes the files dropped this frame (so they are handled once) as open requests.
pub fn take_dropped(ctx: &egui::Context) -> Vec<OpenRequest> {
    let dropped = ctx.input_mut(|i| std::mem::take(&mut i.raw.dropped_files));
    dropped
        .into_iter()
        .map(|file| {
            let path = file.path();
            if !path.as_os_str().is_empty() && path.is_file() {
                OpenRequest::Path(path.to_path_buf())
            } else {
                OpenRequest::Dropped(Arc::new(DroppedHandle(file)))
            }
        })
        .collect()
}
