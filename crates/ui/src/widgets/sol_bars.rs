//! GPU Speed Of Light bars: Compute and Memory throughput on a fixed 0–100 % scale, with the
//! breakdown (L1/TEX, L2, DRAM and the stored `breakdown:` member lists) on demand.

use crate::analysis::sections::sol_breakdown::SolBreakdown;
use crate::model::{KernelResult, names};
use crate::widgets::theme;

/// Width of the label column of the bars.
const LABEL_WIDTH: f32 = 220.0;
/// Height of one bar.
const BAR_HEIGHT: f32 = 16.0;

/// The compute and memory bars, and the breakdown (its members listed largest first) when
/// `show_breakdown` is on.
pub fn show(
    ui: &mut egui::Ui,
    result: &KernelResult,
    members: &SolBreakdown,
    show_breakdown: &mut bool,
) {
    ui.heading("GPU Speed Of Light Throughput");
    let compute = result.number(names::SOL_COMPUTE);
    let memory = result.number(names::SOL_MEMORY);
    if compute.is_none() && memory.is_none() {
        ui.weak("This result has no speed-of-light throughput metrics.");
        return;
    }
    bar_row(
        ui,
        "Compute (SM) Throughput",
        names::SOL_COMPUTE,
        compute,
        false,
    );
    bar_row(ui, "Memory Throughput", names::SOL_MEMORY, memory, true);
    scale_row(ui);
    ui.checkbox(show_breakdown, "Show throughput breakdown");
    if *show_breakdown {
        breakdown(ui, result, members);
    }
}

/// The unit-level throughputs and the stored breakdown lists.
fn breakdown(ui: &mut egui::Ui, result: &KernelResult, lists: &SolBreakdown) {
    ui.indent("sol_breakdown", |ui| {
        let units = [
            ("L1/TEX Cache Throughput", names::SOL_L1),
            ("L2 Cache Throughput", names::SOL_L2),
            ("DRAM Throughput", names::SOL_DRAM),
        ];
        for (label, metric) in units {
            if let Some(v) = result.number(metric) {
                bar_row(ui, label, metric, Some(v), true);
            }
        }
        for (title, members, memory) in [
            ("Compute Throughput Breakdown", &lists.compute, false),
            ("Memory Throughput Breakdown", &lists.memory, true),
        ] {
            if members.is_empty() {
                continue;
            }
            ui.add_space(4.0);
            ui.strong(title);
            for (metric, value) in members {
                bar_row(ui, &breakdown_label(metric), metric, Some(*value), memory);
            }
        }
    });
}

/// The row label ncu shows for a breakdown member: `{UNIT}: {Counter Name}`
/// (`l1tex__m_l1tex2xbar_req_cycles_active.avg.pct_of_peak_sustained_elapsed` gives
/// `L1: M L1tex2xbar Req Cycles Active`).
pub fn breakdown_label(metric: &str) -> String {
    let (unit, rest) = metric.split_once("__").unwrap_or(("", metric));
    let unit = match unit {
        "sm" => "SM".to_string(),
        "l1tex" => "L1".to_string(),
        "lts" => "L2".to_string(),
        "dram" | "fbpa" => "DRAM".to_string(),
        "idc" => "IDC".to_string(),
        "gpu" => "GPU".to_string(),
        other => other.to_uppercase(),
    };
    let base = rest.split('.').next().unwrap_or(rest);
    let words: Vec<String> = base
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(first) => first.to_uppercase().chain(c).collect(),
                None => String::new(),
            }
        })
        .collect();
    if unit.is_empty() {
        words.join(" ")
    } else {
        format!("{unit}: {}", words.join(" "))
    }
}

/// One labelled bar with its value; hovering names the metric.
pub fn bar_row(ui: &mut egui::Ui, label: &str, metric: &str, pct: Option<f64>, memory: bool) {
    ui.horizontal(|ui| {
        let (rect, _) =
            ui.allocate_exact_size(egui::vec2(LABEL_WIDTH, BAR_HEIGHT), egui::Sense::hover());
        ui.put(rect, egui::Label::new(label).truncate())
            .on_hover_text(metric);
        let width = (ui.available_width() - 90.0).max(80.0);
        percent_bar(ui, pct, memory, egui::vec2(width, BAR_HEIGHT));
        ui.label(crate::model::format::percent_text(pct))
            .on_hover_text(metric);
    });
}

/// A bar of `size` filled to `pct` percent (clamped to 0–100), with grid lines every 25 %.
pub fn percent_bar(ui: &mut egui::Ui, pct: Option<f64>, memory: bool, size: egui::Vec2) {
    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    if !ui.is_rect_visible(rect) {
        return;
    }
    let painter = ui.painter();
    painter.rect_filled(rect, 2.0, theme::bar_track(ui));
    if let Some(p) = pct.filter(|p| p.is_finite()) {
        let frac = (p / 100.0).clamp(0.0, 1.0) as f32;
        let mut fill = rect;
        fill.set_width(rect.width() * frac);
        painter.rect_filled(fill, 2.0, theme::bar_fill(ui, memory, p));
    }
    let grid = ui.visuals().widgets.noninteractive.bg_stroke;
    for q in 1..4 {
        let x = rect.left() + rect.width() * q as f32 / 4.0;
        painter.vline(x, rect.y_range(), grid);
    }
}

/// The 0–100 % scale under the bars.
fn scale_row(ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        ui.add_space(LABEL_WIDTH + ui.spacing().item_spacing.x);
        let width = (ui.available_width() - 90.0).max(80.0);
        let (rect, _) = ui.allocate_exact_size(egui::vec2(width, 14.0), egui::Sense::hover());
        let painter = ui.painter();
        let color = ui.visuals().weak_text_color();
        let font = egui::FontId::proportional(10.0);
        for q in 0..=4 {
            let x = rect.left() + rect.width() * q as f32 / 4.0;
            let align = match q {
                0 => egui::Align2::LEFT_TOP,
                4 => egui::Align2::RIGHT_TOP,
                _ => egui::Align2::CENTER_TOP,
            };
            painter.text(
                egui::pos2(x, rect.top()),
                align,
                format!("{}%", q * 25),
                font.clone(),
                color,
            );
        }
    });
}

#[cfg(test)]
mod tests {
    use super::breakdown_label;

    #[test]
    fn labels_like_ncu() {
        assert_eq!(
            breakdown_label(
                "l1tex__m_l1tex2xbar_req_cycles_active.avg.pct_of_peak_sustained_elapsed"
            ),
            "L1: M L1tex2xbar Req Cycles Active"
        );
        assert_eq!(
            breakdown_label("sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active"),
            "SM: Inst Executed Pipe Lsu"
        );
        assert_eq!(
            breakdown_label("fbpa__dram_read_sectors.avg.pct_of_peak_sustained_elapsed"),
            "DRAM: Dram Read Sectors"
        );
    }
}
