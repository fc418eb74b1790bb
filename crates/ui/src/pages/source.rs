//! The Source page: the CUDA lines of the selected result with a heat bar and the chosen
//! metric column, hottest first or in source order; the SASS of the selected line (or of the
//! whole function) beside it, or the module's PTX text. The rows come from the page's
//! view-model ([`SourcePageView`]); both lists draw only their visible rows, so functions with
//! tens of thousands of instructions scroll smoothly.

use crate::analysis::source::compare::SourceComparison;
use crate::model::source::{Cell, SourceView, TextOrigin};
use crate::pages::{Page, PageContext, PageIo};
use sightline_app::core::commands::Command;
use sightline_app::core::page_id::PageId;
use sightline_app::views::source::{
    FileFilter, Listing, SourceChoice, SourcePageView, SourceStatus, next_change, number,
};

/// The colour of the heat bars (reads on light and dark backgrounds).
const HEAT: egui::Color32 = egui::Color32::from_rgb(232, 96, 48);
/// Width of a heat bar.
const BAR_WIDTH: f32 = 56.0;

/// A baseline's view and the per-line changes from it.
type Baseline<'a> = Option<(&'a SourceView, &'a SourceComparison)>;

/// The Source page: its view-model.
#[derive(Default)]
pub struct SourcePage {
    view: SourcePageView,
}

impl Page for SourcePage {
    fn id(&self) -> PageId {
        PageId::Source
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &PageContext<'_>, io: &mut PageIo<'_>) {
        let base_at = cx.baselines.iter().map(|b| b.at).find(|&b| b != cx.at);
        self.view.source_maps = io.settings.source_folders.clone();
        let key = (
            cx.at,
            base_at,
            cx.sass_imports.generation(),
            io.settings.source_folders.len(),
        );
        let sources = || {
            let imported =
                |r: &crate::model::KernelResult| cx.sass_imports.for_kernel(&r.name.demangled);
            let baseline = base_at.and_then(|b| {
                let (open, result) = cx.workspace.result(b)?;
                Some((open.path.clone(), result.clone(), imported(result)))
            });
            (
                (cx.open.path.clone(), cx.result.clone(), imported(cx.result)),
                baseline,
            )
        };
        if let Some((at, target)) = io.shared.source_jump.take_if(|(at, _)| *at == cx.at) {
            self.view.jump_to(at, target);
        }
        let ctx = ui.ctx().clone();
        let wait = crate::screenshot_mode();
        // What the page changes this frame; the view-model may change the choice itself while
        // answering (a hot spot's line selected once read), so only a change made here is
        // written back.
        let asked = self.view.choice.clone();
        let mut choice = asked.clone();
        match self
            .view
            .status(key, sources, wait, move || ctx.request_repaint())
        {
            SourceStatus::Idle => {}
            SourceStatus::Reading => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("Reading the function's code and per-instruction metrics…");
                });
            }
            SourceStatus::Failed(e) => {
                ui.label(e);
            }
            SourceStatus::Ready { data, listing } => match (&data.view, listing) {
                (Ok(v), Some(listing)) => {
                    if let Some(Err(e)) = &data.baseline {
                        ui.colored_label(ui.visuals().warn_fg_color, e.as_str());
                    }
                    let baseline = match &data.baseline {
                        Some(Ok((base, c))) => Some((base, c)),
                        _ => None,
                    };
                    show(ui, &mut choice, v, listing, baseline, io.commands);
                }
                (Err(e), _) => {
                    ui.label(e.as_str());
                }
                (Ok(_), None) => {}
            },
        }
        if choice != asked {
            self.view.choice = choice;
        }
    }

    fn release(&mut self) {
        self.view.release();
    }
}

/// A value as the tables print it.
fn cell_text(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:.2}")
    }
}

/// A change as the Δ column prints it.
fn delta_text(v: Option<f64>) -> String {
    match v {
        Some(v) if v > 0.0 => format!("+{}", cell_text(v)),
        Some(v) => cell_text(v),
        None => String::new(),
    }
}

/// The selected line's warp-stall samples by reason, most first.
fn stall_reasons(ui: &mut egui::Ui, view: &SourceView, cells: &[Cell], line: u32) {
    let reasons = crate::analysis::source::stalls::stall_reasons(view, cells);
    if reasons.is_empty() {
        ui.label(format!("Line {line}: no warp-stall samples."));
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("Stall reasons of line {line}:"));
        for s in &reasons {
            let name = s.reason.strip_prefix("stall_").unwrap_or(s.reason);
            ui.label(
                egui::RichText::new(format!(
                    "{name} {} ({} not issued)",
                    cell_text(s.samples),
                    cell_text(s.not_issued)
                ))
                .monospace(),
            );
        }
    });
}

/// The header of a list of rows: blank above the heat bars, then `text` in the rows' columns;
/// `metric` (the value column's full name) on hover.
fn column_header(ui: &mut egui::Ui, text: String, metric: &str) {
    ui.horizontal(|ui| {
        let height = ui.text_style_height(&egui::TextStyle::Monospace);
        ui.allocate_exact_size(egui::vec2(BAR_WIDTH, height), egui::Sense::hover());
        ui.add_space(ui.spacing().button_padding.x);
        ui.label(egui::RichText::new(text).monospace().strong())
            .on_hover_text(format!("Value: {metric}"));
    });
}

/// The module's PTX text with its line numbers (as Nsight Compute numbers them), the lines
/// matching the search.
fn ptx_list(ui: &mut egui::Ui, choice: &SourceChoice, view: &SourceView, listing: &Listing) {
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
    monospace_rows(ui, "source_ptx", &listing.ptx, |ui, i| {
        let text = format!("{:>5}  {}", i + 1, view.ptx[i]);
        ui.label(egui::RichText::new(text).monospace());
    });
}

/// The Inline Functions table: each inlined function and call site with its value of the
/// column; a click selects the call site's line.
fn inline_list(ui: &mut egui::Ui, choice: &mut SourceChoice, view: &SourceView, listing: &Listing) {
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
    column_header(
        ui,
        format!(
            "{:<name_width$}  {:<site_width$} {:>6} {:>10}",
            "Function", "Called at", "Instr.", "Value"
        ),
        view.columns.get(column).map_or("", String::as_str),
    );
    let selected_site = choice
        .selected_line
        .and_then(|l| view.lines.get(l))
        .map(|l| (l.file, l.line));
    let mut clicked = None;
    monospace_rows(ui, "source_inline", &listing.inline, |ui, i| {
        let f = &view.inline_functions[i];
        let v = number(&f.cells, column);
        ui.horizontal(|ui| {
            let max = listing.inline_max;
            heat_bar(ui, if max > 0.0 { v / max } else { 0.0 });
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
    });
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

/// A pane of monospace rows, one for each index of `order`, drawn only where they show.
fn monospace_rows(
    ui: &mut egui::Ui,
    id: &str,
    order: &[usize],
    mut row: impl FnMut(&mut egui::Ui, usize),
) {
    let row_height =
        ui.text_style_height(&egui::TextStyle::Monospace) + ui.spacing().item_spacing.y;
    let height = crate::pages::list_height(ui);
    egui::ScrollArea::both()
        .id_salt(id)
        .auto_shrink([false, false])
        .max_height(height)
        .min_scrolled_height(height)
        .show_rows(ui, row_height, order.len(), |ui, rows| {
            for &i in &order[rows] {
                row(ui, i);
            }
        });
}

/// The column's statistics over the rows listed: count, sum and its share of the function,
/// least, most, mean.
fn stats_line(ui: &mut egui::Ui, rows: &str, s: &sightline_app::views::source::Stats) {
    if s.count == 0 {
        return;
    }
    let share = s
        .share_pct
        .map_or(String::new(), |p| format!(" ({p:.1} % of the function)"));
    ui.weak(format!(
        "{} {rows}: sum {}{share} \u{b7} min {} \u{b7} max {} \u{b7} mean {}",
        s.count,
        cell_text(s.sum),
        cell_text(s.min),
        cell_text(s.max),
        cell_text(s.mean)
    ));
}

/// The mark of the rules that point at a line or an instruction, in the colour of the most
/// severe, with what each says on hover; a blank of the same width elsewhere.
fn marker_glyph(ui: &mut egui::Ui, view: &SourceView, marks: Option<&Vec<usize>>) {
    let markers: Vec<&crate::model::source::PlacedMarker> = marks
        .into_iter()
        .flatten()
        .filter_map(|&m| view.markers.get(m))
        .collect();
    let Some(worst) = markers.iter().map(|m| m.kind).max_by_key(|k| k.severity()) else {
        ui.monospace(" ");
        return;
    };
    let color = crate::widgets::theme::rule_color(ui, worst);
    let text = markers
        .iter()
        .map(|m| format!("{} {}: {}", m.kind.tag(), m.rule, m.tooltip))
        .collect::<Vec<_>>()
        .join("\n");
    ui.label(egui::RichText::new("\u{25b6}").monospace().color(color))
        .on_hover_text(text);
}

/// A bar whose length is `fraction` of its width.
fn heat_bar(ui: &mut egui::Ui, fraction: f64) {
    let height = ui.text_style_height(&egui::TextStyle::Monospace);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(BAR_WIDTH, height), egui::Sense::hover());
    ui.painter()
        .rect_filled(rect, 1.0, ui.visuals().faint_bg_color);
    let fraction = if fraction.is_finite() {
        fraction.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut bar = rect;
    bar.set_width(rect.width() * fraction as f32);
    ui.painter().rect_filled(bar, 1.0, HEAT);
}

/// The page: the metric and order choices, then the CUDA lines and the SASS or PTX beside.
fn show(
    ui: &mut egui::Ui,
    choice: &mut SourceChoice,
    view: &SourceView,
    listing: &Listing,
    baseline: Baseline<'_>,
    commands: &mut Vec<Command>,
) {
    ui.heading(&view.kernel);
    // A source file not found: the user can say where its folder is.
    let mut asked: Vec<&str> = Vec::new();
    for f in view
        .files
        .iter()
        .filter(|f| f.origin == TextOrigin::Missing)
    {
        let recorded = crate::analysis::source::recorded_folder(&f.path);
        let used = view
            .lines
            .iter()
            .any(|l| view.files.get(l.file).is_some_and(|g| g.path == f.path));
        if !used || recorded.is_empty() || asked.contains(&recorded) {
            continue;
        }
        asked.push(recorded);
        let name = crate::analysis::source::file_name(&f.path);
        if ui
            .button(format!("Locate {name}\u{2026}"))
            .on_hover_text(format!(
                "Pick the folder that holds the sources recorded under {recorded}; it is \
                 remembered and used by every report that names files there"
            ))
            .clicked()
        {
            commands.push(Command::LocateSource(recorded.to_string()));
        }
    }
    // Each note on one line (the lists keep the room); the whole note on hover.
    for note in &view.notes {
        ui.add(
            egui::Label::new(egui::RichText::new(note).color(ui.visuals().warn_fg_color))
                .truncate(),
        )
        .on_hover_text(note);
    }
    let no_sass = view.instructions.iter().all(|i| i.sass.is_none());
    if no_sass
        && !view.instructions.is_empty()
        && ui
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
    let column = listing.column;
    // The choices wrap onto a second line in a narrow window rather than hiding the last ones.
    ui.horizontal_wrapped(|ui| {
        file_choice(ui, choice, listing);
        egui::ComboBox::from_label("Metric")
            .selected_text(view.columns.get(column).map_or("", String::as_str))
            .show_ui(ui, |ui| {
                for &i in &listing.numeric {
                    ui.selectable_value(
                        &mut choice.column,
                        view.columns[i].clone(),
                        &view.columns[i],
                    );
                }
            });
        ui.checkbox(&mut choice.hottest_first, "Hottest first");
        ui.checkbox(&mut choice.all_sass, "Whole function's SASS");
        ui.checkbox(&mut choice.ptx, "PTX");
        if choice.ptx {
            ui.checkbox(&mut choice.module_ptx, "Whole module")
                .on_hover_text("The module's whole PTX, not only this function's");
        }
        if !view.inline_functions.is_empty() {
            ui.checkbox(&mut choice.inline_functions, "Inline functions")
                .on_hover_text(
                    "The device functions inlined into the kernel, per call site, with the \
                     sums of their instructions",
                );
        }
        let label = ui.label("Search");
        ui.add(
            egui::TextEdit::singleline(&mut choice.search)
                .hint_text("text, or >= 5")
                .desired_width(160.0),
        )
        .labelled_by(label.id)
        .on_hover_text(
            "Text finds lines and instructions by their text; a comparison (> 0, >= 5, < 1e3, \
             = 0, != 0) lists those whose value of the metric passes it",
        );
    });
    ui.separator();
    ui.columns(2, |cols| {
        lines_list(&mut cols[0], choice, view, listing, baseline);
        if choice.inline_functions && !view.inline_functions.is_empty() {
            inline_list(&mut cols[1], choice, view, listing);
        } else if choice.ptx {
            ptx_list(&mut cols[1], choice, view, listing);
        } else {
            sass_list(&mut cols[1], choice, view, listing);
        }
    });
}

/// The file selector: the kernel's own file first, the CUDA headers its code inlines after,
/// and every file together.
fn file_choice(ui: &mut egui::Ui, choice: &mut SourceChoice, listing: &Listing) {
    if listing.files.len() < 2 {
        return;
    }
    let shown = match listing.file {
        Some(f) => listing
            .files
            .iter()
            .find(|e| e.index == f)
            .map_or(String::new(), |e| e.label.clone()),
        None => "All files".to_string(),
    };
    egui::ComboBox::from_label("File")
        .selected_text(shown)
        .show_ui(ui, |ui| {
            for (n, entry) in listing.files.iter().enumerate() {
                let value = if n == 0 {
                    FileFilter::Kernel
                } else {
                    FileFilter::One(entry.index)
                };
                ui.selectable_value(&mut choice.file, value, &entry.label)
                    .on_hover_text(&entry.path);
            }
            ui.selectable_value(&mut choice.file, FileFilter::All, "All files");
        });
}

/// The CUDA lines with code.
fn lines_list(
    ui: &mut egui::Ui,
    choice: &mut SourceChoice,
    view: &SourceView,
    listing: &Listing,
    baseline: Baseline<'_>,
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
    column_header(
        ui,
        match comparison {
            Some(_) => format!("{:>5} {:>10} {:>9}  Source", "Line", "Value", "Δ"),
            None => format!("{:>5} {:>10}  Source", "Line", "Value"),
        },
        metric,
    );
    monospace_rows(ui, "source_lines", order, |ui, i| {
        let line = &view.lines[i];
        let v = number(&line.cells, column);
        ui.horizontal(|ui| {
            heat_bar(ui, if max > 0.0 { v / max } else { 0.0 });
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
    });
}

/// The SASS of the selected line, or of the whole function.
fn sass_list(ui: &mut egui::Ui, choice: &mut SourceChoice, view: &SourceView, listing: &Listing) {
    let column = listing.column;
    let selected = choice.selected_line.and_then(|i| view.lines.get(i));
    let order = &listing.sass;
    ui.strong(match selected {
        Some(l) if !choice.all_sass => {
            format!("SASS of line {} ({} instructions)", l.line, order.len())
        }
        _ => format!("SASS ({} instructions)", order.len()),
    });
    if let Some(l) = selected {
        stall_reasons(ui, view, &l.cells, l.line);
    }
    stats_line(ui, "instructions", &listing.sass_stats);
    let (max, address_width) = (listing.sass_max, listing.address_width);
    let live = view.instructions.iter().any(|i| i.registers.is_some());
    column_header(
        ui,
        format!(
            "{:<address_width$} {:>10} {:>5}{}  SASS",
            "Address",
            "Value",
            "Line",
            if live { " Live" } else { "" }
        ),
        view.columns.get(column).map_or("", String::as_str),
    );
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
    monospace_rows(ui, "source_sass", order, |ui, i| {
        let ins = &view.instructions[i];
        let v = number(&ins.cells, column);
        ui.horizontal(|ui| {
            heat_bar(ui, if max > 0.0 { v / max } else { 0.0 });
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
                label = label.background_color(ui.visuals().selection.bg_fill.gamma_multiply(0.5));
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
    });
    // A click selects the instruction (its producers are highlighted) and its line.
    if let Some(i) = clicked {
        choice.selected_instruction = Some(i);
        if let Some(l) = view.instructions[i].line() {
            choice.selected_line = view.lines.iter().position(|x| (x.file, x.line) == l);
        }
    }
}

/// The tooltip of an instruction's registers: what is live, what it reads and from where.
fn register_text(view: &SourceView, r: &crate::model::source::RegisterUse, high: bool) -> String {
    let mut text = format!(
        "Live: {} registers, {} predicates, {} uniform registers",
        r.live_registers, r.live_predicates, r.live_uniform_registers
    );
    if high && let Some(n) = view.registers_per_thread {
        text.push_str(&format!(
            "\nNear the {n} registers per thread the kernel was compiled to"
        ));
    }
    if !r.writes.is_empty() {
        text.push_str(&format!("\nWrites {}", r.writes.join(", ")));
    }
    for (reg, at) in &r.reads_from {
        let sass = view
            .instructions
            .iter()
            .find(|i| i.address == *at)
            .and_then(|i| i.sass.as_deref())
            .unwrap_or("");
        text.push_str(&format!(
            "\nReads {reg}, written at {at:#x} {}",
            sass.trim()
        ));
    }
    text.push_str("\nClick: highlight the instructions whose results it reads");
    text
}
