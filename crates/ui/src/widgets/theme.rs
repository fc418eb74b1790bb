//! Light and dark themes, and the few colours the views share (bars, rule kinds, comparison
//! verdicts).

use crate::analysis::compare::Verdict;
use crate::model::RuleKind;
use egui::Color32;
pub use sightline_app::core::settings::ThemeChoice;

/// The egui theme of a choice.
pub fn egui_theme(choice: ThemeChoice) -> egui::Theme {
    match choice {
        ThemeChoice::Dark => egui::Theme::Dark,
        ThemeChoice::Light => egui::Theme::Light,
    }
}

/// An `[r, g, b]` colour (baselines) as egui draws it.
pub fn rgb(color: [u8; 3]) -> Color32 {
    let [r, g, b] = color;
    Color32::from_rgb(r, g, b)
}

/// Installs egui's bundled fonts with the monospace face (Hack) as the last fallback of the
/// proportional one, whose face lacks arrows and other symbols the pages print (`→`, `≤`).
pub fn install_fonts(ctx: &egui::Context) {
    let mut fonts = egui::FontDefinitions::default();
    if fonts.font_data.contains_key("Hack")
        && let Some(family) = fonts.families.get_mut(&egui::FontFamily::Proportional)
        && !family.iter().any(|name| name == "Hack")
    {
        family.push("Hack".to_owned());
    }
    ctx.set_fonts(fonts);
}

/// Adjusts egui's light theme: text fields (the filter, the searches) get a grey fill, where
/// egui's white one vanished on the near-white panels.
pub fn install_styles(ctx: &egui::Context) {
    ctx.style_mut_of(egui::Theme::Light, |style| {
        style.visuals.text_edit_bg_color = Some(Color32::from_gray(232));
    });
}

/// Applies the theme to the context when it differs from the current one.
pub fn apply(ctx: &egui::Context, choice: ThemeChoice) {
    if ctx.theme() != egui_theme(choice) {
        ctx.set_theme(egui_theme(choice));
    }
}

/// Whether the UI is currently dark.
fn is_dark(ui: &egui::Ui) -> bool {
    ui.visuals().dark_mode
}

/// The fill of a throughput bar: blue for compute, teal for memory, orange above 80 %.
pub fn bar_fill(ui: &egui::Ui, memory: bool, pct: f64) -> Color32 {
    let dark = is_dark(ui);
    match (pct >= 80.0, memory, dark) {
        (true, _, true) => Color32::from_rgb(222, 140, 50),
        (true, _, false) => Color32::from_rgb(230, 130, 30),
        (false, false, true) => Color32::from_rgb(64, 126, 205),
        (false, false, false) => Color32::from_rgb(90, 150, 225),
        (false, true, true) => Color32::from_rgb(40, 150, 140),
        (false, true, false) => Color32::from_rgb(70, 175, 160),
    }
}

/// The background track of a bar (and of a timeline strip): the darkest fill in the dark
/// theme; in the light theme a grey that stands out from the near-white panel.
pub fn bar_track(ui: &egui::Ui) -> Color32 {
    if is_dark(ui) {
        ui.visuals().extreme_bg_color
    } else {
        Color32::from_gray(226)
    }
}

/// The colour of a rule kind's tag.
pub fn rule_color(ui: &egui::Ui, kind: RuleKind) -> Color32 {
    let dark = is_dark(ui);
    match (kind, dark) {
        (RuleKind::Opt, true) => Color32::from_rgb(110, 170, 255),
        (RuleKind::Opt, false) => Color32::from_rgb(20, 90, 200),
        (RuleKind::Wrn, true) => Color32::from_rgb(240, 190, 60),
        (RuleKind::Wrn, false) => Color32::from_rgb(170, 110, 0),
        (RuleKind::Err, true) => Color32::from_rgb(255, 100, 100),
        (RuleKind::Err, false) => Color32::from_rgb(200, 30, 30),
        (RuleKind::Inf, _) => ui.visuals().weak_text_color(),
    }
}

/// The colour of an error message.
pub fn error_color(ui: &egui::Ui) -> Color32 {
    ui.visuals().error_fg_color
}

/// A small square of `color` (the mark of a baseline), laid out like a glyph.
pub fn swatch(ui: &mut egui::Ui, color: Color32) {
    let size = egui::vec2(10.0, 10.0);
    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    ui.painter().rect_filled(rect, 2.0, color);
}

/// The colour of a comparison verdict: green for better, red for worse, blue for a change
/// without a direction, the weak text colour when unchanged.
pub fn verdict_color(ui: &egui::Ui, verdict: Verdict) -> Color32 {
    let dark = is_dark(ui);
    match (verdict, dark) {
        (Verdict::Better, true) => Color32::from_rgb(95, 200, 115),
        (Verdict::Better, false) => Color32::from_rgb(20, 135, 50),
        (Verdict::Worse, true) => Color32::from_rgb(255, 105, 100),
        (Verdict::Worse, false) => Color32::from_rgb(200, 35, 35),
        (Verdict::Neutral, true) => Color32::from_rgb(120, 170, 235),
        (Verdict::Neutral, false) => Color32::from_rgb(40, 95, 185),
        (Verdict::Unchanged, _) => ui.visuals().weak_text_color(),
    }
}
