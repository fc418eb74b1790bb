//! The header above the pages: kernel, report, GPU, duration, launch shape, ncu version, and
//! the button that makes the result a baseline (or stops it being one). In a short window it
//! folds to one line, the full name and every fact on hover.

use crate::analysis::headline::{device_summary, headline};
use crate::model::KernelResult;
use crate::model::format::NOT_MEASURED;
use crate::model::format::value_text;
use crate::widgets::copy_menu::copy_button;
use sightline_app::core::actions::Action;
use sightline_app::core::commands::Command;
use sightline_app::core::ids::ResultRef;
use sightline_app::core::workspace::OpenReport;

/// Facts shown in the header, as (label, value) pairs.
pub fn facts(open: &OpenReport, result: &KernelResult) -> Vec<(&'static str, String)> {
    let report = &open.report;
    let dev = device_summary(report, Some(result));
    let mut extra = Vec::new();
    if let Some((a, b)) = dev.cc {
        extra.push(format!("CC {a}.{b}"));
    }
    if let Some(n) = dev.sm_count {
        extra.push(format!("{n} SMs"));
    }
    let gpu = match (dev.name, extra.is_empty()) {
        (Some(name), true) => name,
        (Some(name), false) => format!("{name} ({})", extra.join(", ")),
        (None, false) => extra.join(", "),
        (None, true) => NOT_MEASURED.into(),
    };
    let h = headline(result);
    let shape =
        |d: Option<crate::model::Dim3>| d.map_or_else(|| NOT_MEASURED.into(), |d| d.to_string());
    let mut facts = vec![
        ("Report", open.name.clone()),
        ("ID", result.id.to_string()),
        ("GPU", gpu),
        (
            "Duration",
            h.duration_ns
                .map_or_else(|| NOT_MEASURED.into(), |d| value_text(d, "ns")),
        ),
        ("Grid", shape(result.grid)),
        ("Block", shape(result.block)),
    ];
    if let Some(set) = &result.section_set {
        facts.push(("Section set", set.clone()));
    }
    // Text exports do not name the ncu version; the report file and session page do.
    if let Some(version) = &report.tool_version {
        facts.push(("ncu", version.clone()));
    }
    facts
}

/// Shows the header of the selected result `at`; `baseline` is its place in the baseline list
/// and its colour when it is one.
pub fn show(
    ui: &mut egui::Ui,
    open: &OpenReport,
    result: &KernelResult,
    at: ResultRef,
    baseline: Option<(usize, egui::Color32)>,
    folded: bool,
    commands: &mut Vec<Command>,
) {
    let function = crate::output::kernel_names::short_kernel_name(
        &result.name.function,
        &result.name.demangled,
        crate::output::kernel_names::TABLE_NAME_CHARS,
    );
    ui.horizontal(|ui| {
        // The name gives way to the buttons beside it (zoomed in, on a small screen).
        let reserve = if result.invocations.is_some() {
            330.0
        } else {
            200.0
        };
        let name_width = (ui.available_width() - reserve).max(80.0);
        let name = egui::RichText::new(&function);
        let name = if folded {
            name.strong()
        } else {
            name.heading()
        };
        let heading = ui
            .scope(|ui| {
                ui.set_max_width(if folded {
                    name_width.min(260.0)
                } else {
                    name_width
                });
                ui.add(
                    egui::Label::new(name)
                        .truncate()
                        .sense(egui::Sense::click()),
                )
            })
            .inner;
        let heading = if function == result.name.demangled {
            heading
        } else {
            heading.on_hover_text(&result.name.demangled)
        };
        name_copy_menu(&heading, result);
        if let Some(n) = result.invocations {
            ui.weak(format!("{n} invocations"));
        }
        match baseline {
            Some((index, color)) => {
                crate::widgets::theme::swatch(ui, color);
                ui.label(egui::RichText::new("Baseline").color(color).strong());
                if ui
                    .button("Remove baseline")
                    .on_hover_text(
                        Action::ToggleBaseline
                            .with_key("Stop comparing other results with this one"),
                    )
                    .clicked()
                {
                    commands.push(Command::RemoveBaseline(index));
                }
            }
            None => {
                if ui
                    .button("Set as baseline")
                    .on_hover_text(Action::ToggleBaseline.with_key(
                        "Compare other results with this one (Compare and Roofline pages); \
                         kept across restarts",
                    ))
                    .clicked()
                {
                    commands.push(Command::SetBaseline(at));
                }
            }
        }
        if folded {
            // A short window: the facts follow on the same line, shortened; all on hover.
            let facts = facts(open, result);
            let line = facts
                .iter()
                .filter(|(label, _)| matches!(*label, "Duration" | "ID" | "GPU" | "Grid" | "Block"))
                .map(|(label, value)| format!("{label} {value}"))
                .collect::<Vec<_>>()
                .join(" \u{b7} ");
            let all = facts
                .iter()
                .map(|(label, value)| format!("{label}: {value}"))
                .collect::<Vec<_>>()
                .join("\n");
            ui.add(egui::Label::new(egui::RichText::new(line).weak()).truncate())
                .on_hover_text(format!("{}\n{all}", result.name.demangled));
        }
    });
    if folded {
        return;
    }
    if result.name.demangled != function {
        // The demangled name on one line, shortened in the middle (a CUTLASS signature would
        // wrap to a screenful); the whole name on hover and in the copy menu.
        let shown = crate::output::kernel_names::short_demangled(
            &result.name.demangled,
            crate::output::kernel_names::HEADER_NAME_CHARS,
        );
        let full = ui
            .add(egui::Label::new(egui::RichText::new(shown).weak()).truncate())
            .on_hover_text(&result.name.demangled);
        name_copy_menu(&full, result);
    }
    ui.horizontal_wrapped(|ui| {
        for (i, (label, value)) in facts(open, result).into_iter().enumerate() {
            if i > 0 {
                ui.separator();
            }
            // A fact wraps to the next line whole, never between its label and value: one
            // label that does not wrap.
            let mut fact = egui::text::LayoutJob::default();
            let font = egui::TextStyle::Body.resolve(ui.style());
            let format = |color| egui::TextFormat::simple(font.clone(), color);
            fact.append(label, 0.0, format(ui.visuals().weak_text_color()));
            fact.append(&format!(" {value}"), 0.0, format(ui.visuals().text_color()));
            ui.add(egui::Label::new(fact).wrap_mode(egui::TextWrapMode::Extend));
        }
    });
}

/// The right-click menu of the kernel's name: copy the function name, the demangled or the
/// mangled name.
fn name_copy_menu(response: &egui::Response, result: &KernelResult) {
    response.context_menu(|ui| {
        let name = &result.name;
        if !name.function.is_empty() {
            copy_button(ui, "Copy function name", || name.function.clone());
        }
        if !name.demangled.is_empty() {
            copy_button(ui, "Copy full name", || name.demangled.clone());
        }
        if let Some(mangled) = name.mangled.as_deref().filter(|m| !m.is_empty()) {
            copy_button(ui, "Copy mangled name", || mangled.to_string());
        }
    });
}
