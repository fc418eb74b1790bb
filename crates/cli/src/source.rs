//! `sightline source`: the Source page of every result: per CUDA line and per SASS instruction,
//! the metric columns of Nsight Compute's Source page, as JSON or as ncu's CSV.

use super::loading::errors_json;
use crate::analysis::parallel::map_ordered;
use crate::analysis::source::{self, SourceOptions, compare, stalls};
use crate::model::source::{Cell, SourceView};
use crate::output::json_stream;
use crate::parse::{self, LoadError};
use serde_json::{Map, Value as Json, json};
use std::io::Write;
use std::path::PathBuf;

/// The arguments of `source`.
#[derive(Debug, clap::Args)]
pub struct SourceArgs {
    /// Print JSON.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print the SASS listing as Nsight Compute's `--page source --csv` does.
    #[arg(long)]
    pub csv: bool,
    /// Treat every warning (a skipped result, section, metric or line) as an error.
    #[arg(long)]
    pub strict: bool,
    /// Only results whose kernel name contains this text.
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,
    /// A folder to look for CUDA source files in (repeatable), for reports made without
    /// `--import-source yes`.
    #[arg(long = "source-dir", value_name = "DIR")]
    pub source_dirs: Vec<PathBuf>,
    /// SASS text from an export of `ncu -i FILE --page source --csv --print-source sass`, for
    /// machines without nvdisasm.
    #[arg(long, value_name = "FILE")]
    pub sass_csv: Option<PathBuf>,
    /// A baseline report: each line gains the change of every metric column from the baseline
    /// result of the same kernel (`delta`), lines matched by place, then by text.
    #[arg(long, value_name = "FILE", conflicts_with = "csv")]
    pub baseline: Option<PathBuf>,
    /// Reports to read (.ncu-rep made with the SourceCounters section).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// Runs the command.
pub fn run(args: &SourceArgs) -> i32 {
    let mut options = SourceOptions {
        source_dirs: args.source_dirs.clone(),
        disassembler: Some(parse::sass::Disassembler::found()),
        ..SourceOptions::default()
    };
    if let Some(path) = &args.sass_csv {
        match std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|b| parse::source_csv::parse(&b).map_err(|e| e.to_string()))
        {
            Ok(export) => options.sass = export.sass_by_address(),
            Err(e) => {
                crate::warnings::tell("error", format!("{}: {e}", path.display()));
                return 2;
            }
        }
    }
    let mut errors = Vec::new();
    // What each report skipped: told on stderr, errors under --strict.
    let mut warnings = Vec::new();
    let baseline = match &args.baseline {
        Some(path) => match Loaded::read(path, &mut warnings) {
            Ok(loaded) => loaded.views(&options, args.kernel.as_deref()),
            Err(e) => {
                crate::warnings::tell("error", e);
                return 2;
            }
        },
        None => Vec::new(),
    };
    let mut reports = Vec::new();
    for path in &args.files {
        match Loaded::read(path, &mut warnings) {
            Ok(loaded) => reports.push(loaded),
            Err(e) => errors.push(e),
        }
    }
    let kernel = args.kernel.as_deref();
    // The views that could not be made, told after the output.
    let mut view_errors = Vec::new();
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let written = if args.csv {
        reports.iter().try_for_each(|loaded| {
            loaded.map_views(
                &options,
                kernel,
                |v, _| render_csv(v),
                |text| match text {
                    Ok(text) => stdout.write_all(text.as_bytes()),
                    Err(e) => {
                        view_errors.push(e);
                        Ok(())
                    }
                },
            )
        })
    } else {
        write_json(
            &mut stdout,
            &reports,
            &errors,
            &baseline,
            &options,
            kernel,
            &mut view_errors,
        )
    };
    let write_failed = crate::output::table::write_failed(written.and_then(|()| stdout.flush()));
    drop(stdout);
    if !args.json {
        for e in &errors {
            crate::warnings::tell("error", e);
        }
        for e in &view_errors {
            crate::warnings::tell("error", e);
        }
    }
    for w in &warnings {
        crate::warnings::tell(if args.strict { "error" } else { "warning" }, w);
    }
    if errors.is_empty() && (!args.strict || warnings.is_empty()) && !write_failed {
        0
    } else {
        2
    }
}

/// A report read for its Source pages: its results and its code (the modules and imported
/// sources, read from the file without the rest of it).
pub struct Loaded {
    path: PathBuf,
    report: crate::model::Report,
    code: parse::ncu_rep::ReportCode,
}

impl Loaded {
    /// Reads a report; what it skipped is added to `warnings`.
    pub fn read(path: &std::path::Path, warnings: &mut Vec<String>) -> Result<Self, LoadError> {
        // The results are opened with their bodies read on demand (each view decodes a copy);
        // the code the views disassemble is read apart, without the results around it.
        let report = parse::load_path(path)?;
        warnings.extend(
            report
                .warnings
                .iter()
                .map(|w| format!("{}: {w}", path.display())),
        );
        // Read through the open report: a compressed one is not decompressed again.
        let code = match (report.format, report.results.first()) {
            (crate::model::Format::NcuRep, Some(first)) => {
                parse::ncu_rep::read_code_of(path, first)?
            }
            _ => parse::ncu_rep::ReportCode::default(),
        };
        Ok(Self::from_parts(path, report, code))
    }

    /// A report already read, with its code (the file at `path`).
    pub fn from_parts(
        path: &std::path::Path,
        report: crate::model::Report,
        code: parse::ncu_rep::ReportCode,
    ) -> Self {
        Loaded {
            path: path.to_path_buf(),
            report,
            code,
        }
    }

    /// The results whose kernel name contains `kernel` (or is its function name).
    fn selected(&self, kernel: Option<&str>) -> Vec<usize> {
        (0..self.report.results.len())
            .filter(|&i| {
                let r = &self.report.results[i];
                kernel.is_none_or(|k| r.name.demangled.contains(k) || r.name.function == k)
            })
            .collect()
    }

    /// The Source page of result `i` (an error as text).
    fn view(&self, i: usize, options: &SourceOptions) -> Result<SourceView, String> {
        // A body read on demand is decoded into a copy, dropped with the view's inputs.
        let r = self.report.results[i].transient();
        let r = r.as_ref();
        let mangled = r.name.mangled.as_deref().unwrap_or(&r.name.function);
        let code =
            self.code
                .index
                .kernel_code(&self.code.bytes, mangled, source::function_address(r));
        source::build(r, code.as_ref(), options)
            .map_err(|e| format!("{} (result {}): {e}", r.name.demangled, r.id))
    }

    /// Builds the Source page of every selected result and hands `render(view, place among the
    /// selected)` to `each` in order: a window of results at a time on every core, each view
    /// dropped once rendered.
    fn map_views<T: Send>(
        &self,
        options: &SourceOptions,
        kernel: Option<&str>,
        render: impl Fn(&SourceView, usize) -> T + Sync,
        mut each: impl FnMut(Result<T, String>) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let selected = self.selected(kernel);
        map_ordered(
            selected.len(),
            |k| self.view(selected[k], options).map(|v| render(&v, k)),
            |_, t| each(t),
        )
    }

    /// Every Source page of the selected results that could be made.
    fn views(&self, options: &SourceOptions, kernel: Option<&str>) -> Vec<SourceView> {
        self.selected(kernel)
            .into_iter()
            .filter_map(|i| self.view(i, options).ok())
            .collect()
    }
}

/// The Source page of every result of one file (errors per result as text).
pub fn load_views(
    path: &std::path::Path,
    options: &SourceOptions,
    kernel: Option<&str>,
    warnings: &mut Vec<String>,
) -> Result<Vec<Result<SourceView, String>>, LoadError> {
    let loaded = Loaded::read(path, warnings)?;
    Ok(loaded
        .selected(kernel)
        .into_iter()
        .map(|i| loaded.view(i, options))
        .collect())
}

/// A cell as JSON: integral numbers as integers.
fn cell_json(c: &Cell) -> Json {
    match c {
        Cell::Number(v) if v.fract() == 0.0 && v.abs() < 9.0e15 => json!(*v as i64),
        Cell::Number(v) => serde_json::Number::from_f64(*v).map_or(Json::Null, Json::Number),
        Cell::Text(t) => Json::String(t.clone()),
    }
}

/// A cell as Nsight Compute's CSV prints it.
fn cell_text(c: &Cell) -> String {
    match c {
        Cell::Number(v) if v.fract() == 0.0 && v.abs() < 9.0e15 => format!("{}", *v as i64),
        Cell::Number(v) => v.to_string(),
        Cell::Text(t) => t.clone(),
    }
}

fn metrics_json(view: &SourceView, cells: &[Cell]) -> Json {
    let mut m = Map::new();
    for (name, c) in view.columns.iter().zip(cells) {
        m.insert(name.clone(), cell_json(c));
    }
    Json::Object(m)
}

/// A line's stall reasons, most samples first.
fn stalls_json(view: &SourceView, cells: &[Cell]) -> Json {
    stalls::stall_reasons(view, cells)
        .into_iter()
        .map(|s| {
            json!({
                "reason": s.reason,
                "samples": cell_json(&Cell::Number(s.samples)),
                "not_issued": cell_json(&Cell::Number(s.not_issued)),
            })
        })
        .collect()
}

/// The baseline view of a kernel: the first of the same name, else the one at the same place.
fn baseline_of<'a>(
    base: &'a [SourceView],
    view: &SourceView,
    index: usize,
) -> Option<&'a SourceView> {
    base.iter()
        .find(|b| b.kernel == view.kernel)
        .or_else(|| base.get(index))
}

/// The JSON object of one result's Source page, with per-line changes from `base` if given.
pub fn view_json(view: &SourceView, base: Option<&SourceView>) -> Json {
    let file = |i: usize| view.files.get(i).map_or(Json::Null, |f| json!(f.path));
    let lines: Vec<Json> = view
        .lines
        .iter()
        .map(|l| {
            json!({
                "file": file(l.file),
                "line": l.line,
                "source": view.text_of(l),
                "metrics": metrics_json(view, &l.cells),
                "stall_reasons": stalls_json(view, &l.cells),
            })
        })
        .collect();
    let mut lines = lines;
    let mut removed = Vec::new();
    if let Some(base) = base {
        let cmp = compare::compare(base, view);
        for (j, d) in lines.iter_mut().zip(&cmp.lines) {
            let mut delta = Map::new();
            for (name, v) in view.columns.iter().zip(&d.delta) {
                if let Some(v) = v {
                    delta.insert(name.clone(), cell_json(&Cell::Number(*v)));
                }
            }
            j["match"] = json!(d.matched);
            j["baseline_line"] = json!(d.base.map(|b| base.lines[b].line));
            j["delta"] = Json::Object(delta);
        }
        removed = cmp
            .removed
            .iter()
            .map(|&b| {
                let l = &base.lines[b];
                json!({
                    "file": base.files.get(l.file).map(|f| f.path.clone()),
                    "line": l.line,
                    "metrics": metrics_json(base, &l.cells),
                })
            })
            .collect();
    }
    let instructions: Vec<Json> = view
        .instructions
        .iter()
        .map(|i| {
            let line = i.line();
            let mut j = json!({
                "address": format!("0x{:x}", i.address),
                "file": line.map_or(Json::Null, |(f, _)| file(f)),
                "line": line.map(|(_, l)| l),
                "sass": i.sass,
                "metrics": metrics_json(view, &i.cells),
            });
            if let Some(r) = &i.registers {
                j["live_registers"] = json!(r.live_registers);
                j["live_predicates"] = json!(r.live_predicates);
                j["live_uniform_registers"] = json!(r.live_uniform_registers);
                j["reads"] = json!(r.reads);
                j["writes"] = json!(r.writes);
                j["reads_from"] = r
                    .reads_from
                    .iter()
                    .map(|(reg, at)| json!({"register": reg, "address": format!("0x{at:x}")}))
                    .collect();
            }
            j
        })
        .collect();
    let markers: Vec<Json> = view
        .markers
        .iter()
        .map(|m| {
            let line = m.line.and_then(|l| view.lines.get(l));
            json!({
                "rule": m.rule,
                "kind": m.kind,
                "tooltip": m.tooltip,
                "file": line.map_or(Json::Null, |l| file(l.file)),
                "line": line.map(|l| l.line),
                "address": m
                    .instruction
                    .and_then(|i| view.instructions.get(i))
                    .map(|i| format!("0x{:x}", i.address)),
            })
        })
        .collect();
    let inline_functions: Vec<Json> = view
        .inline_functions
        .iter()
        .map(|f| {
            json!({
                "function": f.name,
                "mangled": f.mangled,
                "call_file": file(f.call_file),
                "call_line": f.call_line,
                "instructions": f.instructions.len(),
                "metrics": metrics_json(view, &f.cells),
            })
        })
        .collect();
    let mut out = json!({
        "kernel": view.kernel,
        "markers": markers,
        "inline_functions": inline_functions,
        "function_address": format!("0x{:x}", view.function_address),
        "line_info": view.has_line_info,
        "files": view.files,
        "kernel_file": view.kernel_file.and_then(|f| view.files.get(f)).map(|f| &f.path),
        "registers_per_thread": view.registers_per_thread,
        "notes": view.notes,
        "lines": lines,
        "instructions": instructions,
        "ptx": view.ptx,
        "ptx_function": view.ptx_function.map(|(a, b)| json!({"first_line": a + 1, "last_line": b})),
    });
    if let Some(base) = base {
        out["baseline_kernel"] = json!(base.kernel);
        out["baseline_removed_lines"] = Json::Array(removed);
    }
    out
}

/// Writes the JSON document of `source` view by view: a window of results at a time is built
/// and turned into text on every core, then written in order. The views that could not be made
/// are added to `view_errors` too.
pub fn write_json(
    out: &mut impl Write,
    reports: &[Loaded],
    errors: &[LoadError],
    baseline: &[SourceView],
    options: &SourceOptions,
    kernel: Option<&str>,
    view_errors: &mut Vec<String>,
) -> std::io::Result<()> {
    let skeleton: Vec<Json> = reports
        .iter()
        .enumerate()
        .map(|(i, loaded)| {
            json!({"path": loaded.path.display().to_string(), "results": json_stream::placeholder(i)})
        })
        .collect();
    let doc = json!({"reports": skeleton, "errors": errors_json(errors)});
    json_stream::write_document(out, &doc, "  ", |out, i, array| {
        let Some(loaded) = reports.get(i) else {
            return Ok(());
        };
        loaded.map_views(
            options,
            kernel,
            |v, k| json_stream::pretty(&view_json(v, baseline_of(baseline, v, k))),
            |text| match text {
                Ok(text) => array.item_text(out, &text?),
                Err(e) => {
                    let item = json_stream::pretty(&json!({"error": e}))?;
                    view_errors.push(e);
                    array.item_text(out, &item)
                }
            },
        )
    })
}

/// The SASS listing as `ncu --page source --csv --print-source sass` prints it.
pub fn render_csv(view: &SourceView) -> String {
    let q = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let mut out = format!("{},{},\n", q("Kernel Name"), q(&view.kernel));
    let mut header = vec![q("Address"), q("Source")];
    header.extend(view.columns.iter().map(|c| q(c)));
    out.push_str(&header.join(","));
    out.push('\n');
    for i in &view.instructions {
        let mut row = vec![
            q(&format!("0x{:x}", i.address)),
            q(i.sass.as_deref().unwrap_or("")),
        ];
        row.extend(i.cells.iter().map(|c| q(&cell_text(c))));
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}
