//! The spinner shown while something loads or is computed: egui's spinner, drawn ten times a
//! second instead of at the screen's rate. egui's asks for the next frame every frame, so the
//! whole window was drawn 60 times a second for as long as a file loaded; where the window is
//! drawn in software (a remote desktop, a machine without a GPU driver) that took most of a
//! core from the load (a 909 MB report on 2 cores: llvmpipe busy 40 % of the time).

use egui::{Pos2, Response, Role, Sense, Shape, Stroke, Ui, WidgetInfo, emath::lerp, vec2};
use std::time::Duration;

/// Time between two drawings of a spinner.
const FRAME: Duration = Duration::from_millis(100);

/// A spinner of the height of a button, the same figure as egui's.
pub fn calm_spinner(ui: &mut Ui) -> Response {
    let size = ui.style().spacing.interact_size.y;
    let (rect, response) = ui.allocate_exact_size(vec2(size, size), Sense::hover());
    response.widget_info(|| WidgetInfo::new(Role::ProgressIndicator));
    if ui.is_rect_visible(rect) {
        ui.ctx().request_repaint_after(FRAME);
        let color = ui.visuals().strong_text_color();
        let radius = (rect.height().min(rect.width()) * 0.5) - 2.0;
        let n_points = (radius.round() as u32).clamp(8, 128);
        let time = ui.input(|i| i.time);
        let start_angle = time * std::f64::consts::TAU;
        let end_angle = start_angle + 240f64.to_radians() * time.sin();
        let points: Vec<Pos2> = (0..n_points)
            .map(|i| {
                let angle = lerp(start_angle..=end_angle, f64::from(i) / f64::from(n_points));
                let (sin, cos) = angle.sin_cos();
                rect.center() + radius * vec2(cos as f32, sin as f32)
            })
            .collect();
        ui.painter()
            .add(Shape::line(points, Stroke::new(3.0, color)));
    }
    response
}
