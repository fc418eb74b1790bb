//! The text table of `sightline roofline`: per result whether it is estimated, the FP32, FP64
//! and DRAM peaks and achieved rates (with SI prefixes), the FP32 arithmetic intensity against
//! DRAM and the roof it sits under, then the assumptions the estimates made.

use crate::analysis::roofline::{self, MemoryLevel, Precision, RooflineContext, RooflineOptions};
use crate::model::format::NOT_MEASURED;
use crate::model::{KernelResult, Report};
use crate::output::result_tables::write_result_table;
use std::io::Write;

/// Writes the plain-text table of `roofline`: each report's context (the figures estimates
/// take from its other results) is gathered first; the results are analysed a window at a time
/// on every core and released; only the table's cells are kept until the columns' widths are
/// known.
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
        RooflineContext::of_report,
        |rep, r, file, context| table_row(rep, r, file, context, options),
    )
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
