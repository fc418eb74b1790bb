//! The lists of the Source page: the CUDA lines, the SASS of the selected line (or of the
//! whole function), the PTX text and the Inline Functions table.

use super::rows::{
    Header, cell_text, delta_text, heat_bar, marker_glyph, monospace_rows, register_text,
    stall_reasons, stats_line,
};
use super::{Baseline, note_line};
use crate::model::source::SourceView;
use sightline_app::core::commands::Command;
use sightline_app::views::source::{FileFilter, Listing, SourceChoice, next_change, number};

/// The module's PTX text with its line numbers (as Nsight Compute numbers them), the lines
/// matching the search.
pub(super) fn ptx_list(
    ui: &mut egui::Ui,
    choice: &SourceChoice,
    view: &SourceView,
    listing: &Listing,
) {
    match view.ptx_function {
        Some((first, last)) if !choice.module_ptx => ui.strong(format!(
            "PTX of the function (lines {} to {} of {})",
            first + 1,
            last,
            view.ptx.len()
        )),
        _ => ui.strong(format!("PTX ({} lines)", view.ptx.len())),
    };
    if view.ptx.is_empty() {
        ui.label(
            "The module holds no PTX text: build it with `nvcc -lineinfo` (or -G) to keep it.",
        );
        return;
    }
    monospace_rows(ui, "source_ptx", &listing.ptx, None, None, |ui, i, _bar| {
        let text = format!("{:>5}  {}", i + 1, view.ptx[i]);
        ui.label(egui::RichText::new(text).monospace());
    });
}

/// The Inline Functions table: each inlined function and call site with its value of the
/// column; a click selects the call site's line.
pub(super) fn inline_list(
    ui: &mut egui::Ui,
    choice: &mut SourceChoice,
    view: &SourceView,
    listing: &Listing,
) {
    let column = listing.column;
    ui.strong(format!(
        "Inline functions ({} call sites)",
        listing.inline.len()
    ));
    let site_width = listing
        .call_sites
        .iter()
        .map(String::len)
        .max()
        .unwrap_or(9);
    let name_width = listing
        .inline_names
        .iter()
        .map(String::len)
        .max()
        .unwrap_or(8);
    let header = Header {
        text: format!(
            "{:<name_width$}  {:<site_width$} {:>6} {:>10}",
            "Function", "Called at", "Instr.", "Value"
        ),
        metric: view.columns.get(column).map_or("", String::as_str),
    };
    let selected_site = choice
        .selected_line
        .and_then(|l| view.lines.get(l))
        .map(|l| (l.file, l.line));
    let mut clicked = None;
    monospace_rows(
        ui,
        "source_inline",
        &listing.inline,
        Some(header),
        None,
        |ui, i, bar| {
            let f = &view.inline_functions[i];
            let v = number(&f.cells, column);
            ui.horizontal(|ui| {
                let max = listing.inline_max;
                heat_bar(ui, if max > 0.0 { v / max } else { 0.0 }, bar);
                let text = format!(
                    "{:<name_width$}  {:<site_width$} {:>6} {:>10}",
                    listing.inline_names.get(i).map_or("", String::as_str),
                    listing.call_sites.get(i).map_or("", String::as_str),
                    f.instructions.len(),
                    cell_text(v),
                );
                let selected = selected_site == Some((f.call_file, f.call_line));
                let response = ui
                    .selectable_label(selected, egui::RichText::new(text).monospace())
                    .on_hover_text(format!("{}\n{}", f.name, f.mangled));
                if response.clicked() {
                    clicked = Some(i);
                }
            });
        },
    );
    if let Some(i) = clicked {
        let f = &view.inline_functions[i];
        choice.selected_line = view
            .lines
            .iter()
            .position(|l| (l.file, l.line) == (f.call_file, f.call_line));
        if listing.file.is_some_and(|shown| shown != f.call_file) {
            choice.file = FileFilter::One(f.call_file);
        }
    }
}

/// The CUDA lines with code.
pub(super) fn lines_list(
    ui: &mut egui::Ui,
    choice: &mut SourceChoice,
    view: &SourceView,
    listing: &Listing,
    baseline: Baseline<'_>,
    scroll_to: Option<usize>,
) {
    let column = listing.column;
    let file_name = |f: usize| {
        view.files
            .get(f)
            .map_or("", |f| crate::analysis::source::file_name(&f.path))
    };
    match listing.file {
        Some(f) => ui.strong(format!(
            "CUDA source ({} lines with code) \u{b7} {}",
            listing.lines.len(),
            file_name(f)
        )),
        None => ui.strong(format!(
            "CUDA source ({} lines with code) \u{b7} every file",
            view.lines.len()
        )),
    };
    if !view.has_line_info {
        ui.label("No line information: build with `nvcc -lineinfo` to see CUDA lines.");
        return;
    }
    // Listing every file, a line's text starts with its file's name.
    let every_file = listing.file.is_none();
    let text_of = |i: usize| {
        let line = &view.lines[i];
        let text = view.text_of(line).unwrap_or("");
        if every_file {
            format!("{}: {text}", file_name(line.file))
        } else {
            text.to_string()
        }
    };
    let (order, max) = (&listing.lines, listing.line_max);
    let comparison = match baseline {
        Some((base, c)) => {
            ui.label(format!(
                "Δ: change from the baseline {} (lines matched by place, then by text; {} baseline lines gone)",
                base.kernel,
                c.removed.len()
            ));
            // Previous / next line whose value changed, in the order listed.
            ui.horizontal(|ui| {
                let mut step = |back: bool| {
                    if let Some(l) = next_change(listing, c, choice.selected_line, back) {
                        choice.selected_line = Some(l);
                        choice.selected_instruction = None;
                    }
                };
                if ui.button("\u{25c0} Previous change").clicked() {
                    step(true);
                }
                if ui.button("Next change \u{25b6}").clicked() {
                    step(false);
                }
            });
            Some(c)
        }
        _ => None,
    };
    stats_line(ui, "lines", &listing.line_stats);
    let metric = view.columns.get(column).map_or("", String::as_str);
    let header = Header {
        text: match comparison {
            Some(_) => format!("{:>5} {:>10} {:>9}  Source", "Line", "Value", "Δ"),
            None => format!("{:>5} {:>10}  Source", "Line", "Value"),
        },
        metric,
    };
    monospace_rows(
        ui,
        "source_lines",
        order,
        Some(header),
        scroll_to,
        |ui, i, bar| {
            let line = &view.lines[i];
            let v = number(&line.cells, column);
            ui.horizontal(|ui| {
                heat_bar(ui, if max > 0.0 { v / max } else { 0.0 }, bar);
                marker_glyph(ui, view, listing.line_marks.get(&i));
                let delta = comparison.map(|c| {
                    c.lines
                        .get(i)
                        .and_then(|d| d.delta.get(column).copied().flatten())
                });
                let text = match delta {
                    Some(d) => format!(
                        "{:>5} {:>10} {:>9}  {}",
                        line.line,
                        cell_text(v),
                        delta_text(d),
                        text_of(i).trim_end()
                    ),
                    None => format!(
                        "{:>5} {:>10}  {}",
                        line.line,
                        cell_text(v),
                        text_of(i).trim_end()
                    ),
                };
                let selected = choice.selected_line == Some(i);
                let label = egui::RichText::new(text).monospace();
                // The pane scrolls sideways; the whole line is also on hover.
                let response = ui.selectable_label(selected, label).on_hover_text(format!(
                    "line {}: {}",
                    line.line,
                    text_of(i).trim()
                ));
                if response.clicked() {
                    choice.selected_line = Some(i);
                }
            });
        },
    );
}

/// The SASS of the selected line, or of the whole function.
pub(super) fn sass_list(
    ui: &mut egui::Ui,
    choice: &mut SourceChoice,
    view: &SourceView,
    listing: &Listing,
    commands: &mut Vec<Command>,
    scroll_to: Option<usize>,
) {
    let column = listing.column;
    let selected = choice.selected_line.and_then(|i| view.lines.get(i));
    let order = &listing.sass;
    ui.strong(match selected {
        Some(l) if !choice.all_sass => {
            format!("SASS of line {} ({} instructions)", l.line, order.len())
        }
        _ => format!("SASS ({} instructions)", order.len()),
    });
    if let Some(note) = &view.sass_note {
        ui.horizontal(|ui| {
            if ui
                .button("Add SASS export…")
                .on_hover_text(
                    "Open ncu's export of this report's Source page \
                     (ncu -i FILE --page source --csv --print-source sass > sass.csv): its SASS \
                     text is shown here",
                )
                .clicked()
            {
                commands.push(Command::ShowOpenDialog);
            }
            note_line(ui, note);
        });
    }
    if let Some(l) = selected {
        stall_reasons(ui, view, &l.cells, l.line);
    }
    stats_line(ui, "instructions", &listing.sass_stats);
    let (max, address_width) = (listing.sass_max, listing.address_width);
    let live = view.instructions.iter().any(|i| i.registers.is_some());
    let header = Header {
        text: format!(
            "{:<address_width$} {:>10} {:>5}{}  SASS",
            "Address",
            "Value",
            "Line",
            if live { " Live" } else { "" }
        ),
        metric: view.columns.get(column).map_or("", String::as_str),
    };
    // The producers of the selected instruction's registers.
    let producers: Vec<u64> = choice
        .selected_instruction
        .and_then(|i| view.instructions.get(i))
        .and_then(|i| i.registers.as_ref())
        .map(|r| r.reads_from.iter().map(|(_, at)| *at).collect())
        .unwrap_or_default();
    // Within two of the registers the kernel was compiled to: pressure worth a look.
    let pressure = view
        .registers_per_thread
        .map(|n| n.saturating_sub(2).max(1));
    let mut clicked = None;
    monospace_rows(
        ui,
        "source_sass",
        order,
        Some(header),
        scroll_to,
        |ui, i, bar| {
            let ins = &view.instructions[i];
            let v = number(&ins.cells, column);
            ui.horizontal(|ui| {
                heat_bar(ui, if max > 0.0 { v / max } else { 0.0 }, bar);
                marker_glyph(ui, view, listing.instruction_marks.get(&i));
                let line = ins.line().map_or(String::new(), |(_, l)| l.to_string());
                let live_text = match (&ins.registers, live) {
                    (Some(r), _) => format!(" {:>4}", r.live_registers),
                    (None, true) => "     ".to_string(),
                    (None, false) => String::new(),
                };
                let text = format!(
                    "{:#x} {:>10} {:>5}{live_text}  {}",
                    ins.address,
                    cell_text(v),
                    line,
                    ins.sass.as_deref().unwrap_or("")
                );
                let mut label = egui::RichText::new(text).monospace();
                let high = ins
                    .registers
                    .as_ref()
                    .zip(pressure)
                    .is_some_and(|(r, p)| r.live_registers >= p);
                if high {
                    label = label.color(ui.visuals().warn_fg_color);
                }
                if producers.contains(&ins.address) {
                    label =
                        label.background_color(ui.visuals().selection.bg_fill.gamma_multiply(0.5));
                }
                let selected = choice.selected_instruction == Some(i);
                let response = ui.selectable_label(selected, label);
                let response = match &ins.registers {
                    Some(r) => response.on_hover_text(register_text(view, r, high)),
                    None => response,
                };
                if response.clicked() {
                    clicked = Some(i);
                }
            });
        },
    );
    // A click selects the instruction (its producers are highlighted) and its line.
    if let Some(i) = clicked {
        choice.selected_instruction = Some(i);
        if let Some(l) = view.instructions[i].line() {
            choice.selected_line = view.lines.iter().position(|x| (x.file, x.line) == l);
        }
    }
}
