//! `source_hotspots`: where a result spent its time on the Source page: the CUDA lines and
//! SASS instructions with the most warp-stall samples (or another column), each with its share
//! and its main stall reasons.

use super::super::source_files::RootedSources;
use super::{
    Entry, ToolContext, ToolError, ToolOutput, arguments, input_schema, left_out_note,
    number_or_null, object_schema, open, report_json, report_schema, result_index,
};
use crate::analysis::source::request::{ResultChoice, SourceFormat, SourceRequest, StallDetail};
use crate::analysis::source::{self, SourceOptions};
use crate::model::format::NOT_MEASURED;
use crate::model::format::number_json;
use crate::model::source::{Cell, SourceView};
use crate::output::source_json::stalls_json;
use rmcp::schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value as Json, json};
use std::sync::Arc;

const NAME: &str = "source_hotspots";
const DEFAULT_LIMIT: usize = 10;
/// The columns ranked by default, the first the view has.
const DEFAULT_COLUMNS: [&str; 2] = ["Warp Stall Sampling (All Samples)", "Instructions Executed"];

pub(super) const ENTRY: Entry = Entry {
    name: NAME,
    title: "Source hot spots of a result",
    description: "The hottest CUDA source lines and SASS instructions of a result (reports profiled with the SourceCounters section, e.g. --set full): warp-stall samples (or another Source page column), share of the total, and the main stall reasons of each. Lines need a build with -lineinfo. SASS text appears only where the report carries it.",
    input: input_schema::<Args>,
    output,
    call,
};

/// Arguments of `source_hotspots`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct Args {
    /// Report file (.ncu-rep) under the server's roots.
    report: String,
    /// Result ID as list_results gives it (default: the first result).
    #[serde(default)]
    result_id: Option<u64>,
    /// How many lines and instructions to list (default 10).
    #[serde(default)]
    limit: Option<usize>,
    /// The Source page column to rank by (default "Warp Stall Sampling (All Samples)", else
    /// "Instructions Executed").
    #[serde(default)]
    column: Option<String>,
}

impl Args {
    /// The Source page these arguments ask for: one result, its stall reasons in brief (the
    /// column and the limit choose among its lines here).
    fn request(&self) -> SourceRequest {
        SourceRequest {
            files: vec![self.report.clone().into()],
            results: ResultChoice::Id(self.result_id),
            source_dirs: Vec::new(),
            sass_csv: None,
            baseline: None,
            format: SourceFormat::Json,
            errors_on_stderr: false,
            stalls: StallDetail::Brief,
            strict: false,
        }
    }
}

fn output() -> Json {
    let stall = object_schema(json!({
        "reason": {"type": "string"},
        "samples": {"type": "number"},
    }));
    object_schema(json!({
        "report": report_schema(),
        "result": object_schema(json!({"id": {"type": "integer"}, "name": {"type": "string"}})),
        "column": {"type": "string", "description": "the column ranked by"},
        "columns": {"type": "array", "items": {"type": "string"}, "description": "every column the page has"},
        "total": number_or_null("the column summed over all instructions"),
        "line_info": {"type": "boolean"},
        "lines": {"type": "array", "items": object_schema(json!({
            "file": {"type": ["string", "null"]},
            "line": {"type": "integer"},
            "source": {"type": ["string", "null"]},
            "value": {"type": "number"},
            "share_pct": number_or_null("share of the total, %"),
            "stall_reasons": {"type": "array", "items": stall.clone()},
        }))},
        "instructions": {"type": "array", "items": object_schema(json!({
            "address": {"type": "string"},
            "file": {"type": ["string", "null"]},
            "line": {"type": ["integer", "null"]},
            "sass": {"type": ["string", "null"]},
            "value": {"type": "number"},
            "share_pct": number_or_null("share of the total, %"),
            "stall_reasons": {"type": "array", "items": stall},
            "live_registers": {"type": ["integer", "null"], "description": "general purpose registers live at the instruction (nvdisasm's life ranges)"},
            "reads_from": {"type": "array", "description": "for each register read, the instruction that last wrote it", "items": object_schema(json!({
                "register": {"type": "string"},
                "address": {"type": "string"},
            }))},
        }))},
        "inline_functions": {"type": "array", "description": "device functions inlined into the kernel, per call site, hottest first", "items": object_schema(json!({
            "function": {"type": "string"},
            "call_file": {"type": ["string", "null"]},
            "call_line": {"type": "integer"},
            "instructions": {"type": "integer"},
            "value": {"type": "number"},
            "share_pct": number_or_null("share of the total, %"),
        }))},
        "notes": {"type": "array", "items": {"type": "string"}},
        "left_out": {"type": "array", "items": {"type": "string"}},
    }))
}

fn value_of(cells: &[Cell], column: usize) -> f64 {
    cells.get(column).and_then(Cell::number).unwrap_or(0.0)
}

fn share(v: f64, total: f64) -> Json {
    number_json((total > 0.0).then(|| v / total * 100.0))
}

/// The hot spots of a built Source page.
fn hotspots(
    view: &SourceView,
    column: usize,
    limit: usize,
    detail: StallDetail,
) -> (Json, Vec<String>, f64) {
    let total: f64 = view
        .instructions
        .iter()
        .map(|i| value_of(&i.cells, column))
        .sum();
    let file = |i: usize| view.files.get(i).map(|f| f.path.clone());
    let hot_lines: Vec<usize> = view
        .hottest_lines(column)
        .into_iter()
        .filter(|&i| value_of(&view.lines[i].cells, column) > 0.0)
        .collect();
    let lines: Vec<Json> = hot_lines
        .iter()
        .take(limit)
        .map(|&i| {
            let l = &view.lines[i];
            let v = value_of(&l.cells, column);
            json!({
                "file": file(l.file),
                "line": l.line,
                "source": view.text_of(l).map(str::trim),
                "value": v,
                "share_pct": share(v, total),
                "stall_reasons": stalls_json(view, &l.cells, detail),
            })
        })
        .collect();
    let hot_instructions: Vec<usize> = view
        .hottest_instructions(column)
        .into_iter()
        .filter(|&i| value_of(&view.instructions[i].cells, column) > 0.0)
        .collect();
    let instructions: Vec<Json> = hot_instructions
        .iter()
        .take(limit)
        .map(|&i| {
            let ins = &view.instructions[i];
            let v = value_of(&ins.cells, column);
            let line = ins.line();
            json!({
                "address": format!("0x{:x}", ins.address),
                "file": line.and_then(|(f, _)| file(f)),
                "line": line.map(|(_, l)| l),
                "sass": ins.sass,
                "value": v,
                "share_pct": share(v, total),
                "stall_reasons": stalls_json(view, &ins.cells, detail),
                "live_registers": ins.registers.as_ref().map(|r| r.live_registers),
                "reads_from": ins.registers.as_ref().map_or_else(Vec::new, |r| {
                    r.reads_from
                        .iter()
                        .map(|(reg, at)| json!({"register": reg, "address": format!("0x{at:x}")}))
                        .collect()
                }),
            })
        })
        .collect();
    let mut inlined: Vec<usize> = (0..view.inline_functions.len())
        .filter(|&i| value_of(&view.inline_functions[i].cells, column) > 0.0)
        .collect();
    inlined.sort_by(|&a, &b| {
        let v = |i: usize| value_of(&view.inline_functions[i].cells, column);
        v(b).total_cmp(&v(a))
    });
    let inline_functions: Vec<Json> = inlined
        .iter()
        .take(limit)
        .map(|&i| {
            let f = &view.inline_functions[i];
            let v = value_of(&f.cells, column);
            json!({
                "function": f.name,
                "call_file": file(f.call_file),
                "call_line": f.call_line,
                "instructions": f.instructions.len(),
                "value": v,
                "share_pct": share(v, total),
            })
        })
        .collect();
    let more = "call again with a larger limit";
    let left_out: Vec<String> = [
        left_out_note("hot lines", lines.len(), hot_lines.len(), more),
        left_out_note(
            "hot instructions",
            instructions.len(),
            hot_instructions.len(),
            more,
        ),
        left_out_note(
            "inline functions",
            inline_functions.len(),
            inlined.len(),
            more,
        ),
    ]
    .into_iter()
    .flatten()
    .collect();
    (
        json!({"lines": lines, "instructions": instructions, "inline_functions": inline_functions}),
        left_out,
        total,
    )
}

fn call(cx: &ToolContext<'_>, value: Json) -> Result<ToolOutput, ToolError> {
    let args: Args = arguments(NAME, value)?;
    let request = args.request();
    let limit = args.limit.unwrap_or(DEFAULT_LIMIT).max(1);
    let (cached, hit) = open(cx, &args.report)?;
    let failed = |e: String| ToolError::Failed(format!("{}: {e}", cached.path.display()));
    let out = {
        let rep = cached.lock();
        // An ID the report lacks is told as every tool tells it.
        let i = result_index(&rep, args.result_id)?;
        let r = &rep.results[i];
        // Only the report's code is read (modules and imported sources), through the open
        // report, once per report.
        let code = cached
            .code(r)
            .map_err(|e| ToolError::Failed(e.to_string()))?;
        cx.check()?;
        let mangled = r.name.mangled.as_deref().unwrap_or(&r.name.function);
        let kernel = code
            .index
            .kernel_code(&code.bytes, mangled, source::function_address(r));
        // No disassembler is run and no folder searched: source files the report does not
        // hold are read only under the server's roots.
        let options = SourceOptions {
            files: Some(Arc::new(RootedSources {
                roots: cx.roots.clone(),
            })),
            ..SourceOptions::default()
        };
        let view = source::build(r, kernel.as_ref(), &options)
            .map_err(|e| failed(format!("result {}: {e}", r.id)))?;
        let column_name = match &args.column {
            Some(c) => c.clone(),
            None => DEFAULT_COLUMNS
                .iter()
                .find(|c| view.column(c).is_some())
                .map_or_else(|| DEFAULT_COLUMNS[0].to_string(), |c| c.to_string()),
        };
        let column = view.column(&column_name).ok_or_else(|| {
            failed(format!(
                "the Source page has no column `{column_name}`; it has: {}",
                view.columns.join(", ")
            ))
        })?;
        let (spots, left_out, total) = hotspots(&view, column, limit, request.stalls);
        let mut summary = format!(
            "Result {} {}: {} {} in total over {} instructions and {} lines.",
            r.id,
            r.name.function,
            total,
            column_name,
            view.instructions.len(),
            view.lines.len()
        );
        if let Some(top) = spots["lines"].get(0) {
            summary.push_str(&format!(
                " Hottest line: {}:{} ({}%).",
                top["file"].as_str().unwrap_or("?"),
                top["line"],
                top["share_pct"]
                    .as_f64()
                    .map_or_else(|| NOT_MEASURED.into(), |p| format!("{p:.1}"))
            ));
        }
        for l in &left_out {
            summary.push_str(&format!(" {l}."));
        }
        ToolOutput {
            structured: json!({
                "report": report_json(&rep, hit),
                "result": {"id": r.id, "name": r.name.demangled},
                "column": column_name,
                "columns": view.columns,
                "total": total,
                "line_info": view.has_line_info,
                "lines": spots["lines"],
                "instructions": spots["instructions"],
                "inline_functions": spots["inline_functions"],
                "notes": view.notes,
                "left_out": left_out,
            }),
            summary,
        }
    };
    cached.trim();
    Ok(out)
}
