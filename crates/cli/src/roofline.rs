//! `sightline roofline`: peak and achieved FP work and memory traffic of every result, exact
//! where the roofline metrics exist, estimated (and marked) where they do not.

use super::loading::print_reports;
use super::occupancy::{parse_arch, write_result_table, write_results_json};
use crate::analysis::parallel::map_results;
use crate::analysis::roofline::{self, MemoryLevel, Precision, RooflineContext, RooflineOptions};
use crate::model::format::NOT_MEASURED;
use crate::model::{KernelResult, Report};
use crate::output::roofline_json::result_json;
use crate::parse::LoadError;
use std::io::Write;
use std::path::PathBuf;

/// Runs the command.
/// Every report's warnings go to stderr; `strict` makes them errors (exit code 2).
pub fn run(files: &[PathBuf], as_json: bool, arch: Option<&str>, strict: bool) -> i32 {
    let assumed_cc = match parse_arch(arch) {
        Ok(cc) => cc,
        Err(message) => {
            crate::warnings::tell("error", message);
            return 2;
        }
    };
    let options = RooflineOptions { assumed_cc };
    print_reports(
        files,
        as_json,
        |out, reports, errors| write_json(out, reports, errors, &options),
        |out, reports| write_table(out, reports, &options),
        strict,
    )
}

/// Writes the JSON document of `roofline --json` result by result; each report's context (the
/// figures estimates take from its other results) is gathered first, on every core.
pub fn write_json(
    out: &mut dyn Write,
    reports: &mut [Report],
    errors: &[LoadError],
    options: &RooflineOptions,
) -> std::io::Result<()> {
    let contexts: Vec<RooflineContext> = reports.iter_mut().map(context_of).collect();
    write_results_json(out, reports, errors, |i, rep, r| {
        let context = contexts.get(i).cloned().unwrap_or_default();
        result_json(
            r,
            &roofline::analyze(r, rep.device_of(r), &context, options),
        )
    })
}

/// The context of a report's results ([`RooflineContext::from_results`]), read a window of
/// results at a time on every core, each body released after.
fn context_of(rep: &mut Report) -> RooflineContext {
    let mut context = RooflineContext::from_results([]);
    let _ = map_results(
        rep,
        |rep, i| RooflineContext::from_results([&rep.results[i]]),
        |_, c| -> Result<(), std::convert::Infallible> {
            context.merge(c);
            Ok(())
        },
    );
    context
}

/// A rate with an SI prefix: `66.92 T` + unit.
fn si(v: Option<f64>, unit: &str) -> String {
    let Some(v) = v.filter(|v| v.is_finite()) else {
        return NOT_MEASURED.into();
    };
    let a = v.abs();
    let (div, prefix) = [(1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "K")]
        .into_iter()
        .find(|(d, _)| a >= *d)
        .unwrap_or((1.0, ""));
    format!("{:.2} {prefix}{unit}", v / div)
}

/// Writes the plain-text table of `roofline`: the results are analysed a window at a time on
/// every core and released; only the table's cells are kept until the columns' widths are known.
pub fn write_table(
    out: &mut dyn Write,
    reports: &mut [Report],
    options: &RooflineOptions,
) -> std::io::Result<()> {
    let header = [
        "REPORT",
        "ID",
        "KERNEL",
        "EST",
        "PEAK FP32",
        "PEAK FP64",
        "PEAK DRAM",
        "FP32",
        "FP64",
        "DRAM",
        "AI FP32",
        "BOUND",
    ];
    write_result_table(
        out,
        reports,
        &header,
        &[1, 4, 5, 6, 7, 8, 9, 10],
        context_of,
        |rep, r, file, context| table_row(rep, r, file, context, options),
    )
}

/// One result's row of the table and the assumptions its estimates made.
fn table_row(
    rep: &Report,
    r: &KernelResult,
    file: &str,
    context: &RooflineContext,
    options: &RooflineOptions,
) -> (Vec<String>, Vec<String>) {
    let roof = roofline::analyze(r, rep.device_of(r), context, options);
    let fp = roof.chart(roofline::ChartKind::FloatingPoint);
    let bound = fp.points.first().map_or_else(
        || NOT_MEASURED.into(),
        |p| format!("{:?}", p.bound).to_lowercase(),
    );
    let row = vec![
        file.to_string(),
        r.id.to_string(),
        r.name.function.clone(),
        if roof.estimated {
            "yes".into()
        } else {
            "no".into()
        },
        si(roof.peak_work.fp32, "FLOP/s"),
        si(roof.peak_work.fp64, "FLOP/s"),
        si(roof.peak_traffic.dram, "B/s"),
        si(roof.achieved_work.fp32, "FLOP/s"),
        si(roof.achieved_work.fp64, "FLOP/s"),
        si(roof.achieved_traffic.dram, "B/s"),
        roof.intensity(Precision::Fp32, MemoryLevel::Dram)
            .map_or_else(|| NOT_MEASURED.into(), |v| format!("{v:.3}")),
        bound,
    ];
    (row, roof.assumptions)
}
