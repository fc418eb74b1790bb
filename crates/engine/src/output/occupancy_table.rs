//! The text table of `sightline occupancy`: per result the compute capability, the launch, the
//! block limit of each resource (stored, or computed and marked `*`), the limiter, and the
//! theoretical and achieved occupancy, then the notes of the results.

use crate::analysis::occupancy::{self, CcOrigin, Limiter, OccupancyAnalysis, OccupancyOptions};
use crate::model::format::{NOT_MEASURED, cc_text};
use crate::model::{KernelResult, Report};
use crate::output::occupancy_json::limiter_text;
use crate::output::result_tables::write_result_table;
use std::io::Write;

/// Writes the plain-text table of `occupancy`: the results are analysed a window at a time on
/// every core and released; only the table's cells are kept until the columns' widths are known.
pub fn write_table(
    out: &mut dyn Write,
    reports: &mut [Report],
    options: &OccupancyOptions,
) -> std::io::Result<()> {
    let header = [
        "REPORT", "ID", "KERNEL", "CC", "SOURCE", "BLOCK", "REGS", "SMEM", "L.REG", "L.SMEM",
        "L.WARP", "L.SM", "L.BAR", "LIMITER", "WARPS", "THEO %", "ACH %",
    ];
    write_result_table(
        out,
        reports,
        &header,
        &[1, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16],
        |_| (),
        |rep, r, file, ()| table_row(rep, r, file, options),
    )
}

/// A block limit in the table: the stored one, or the calculator's marked `*` (computed).
fn shown(a: &OccupancyAnalysis, limiter: Limiter) -> String {
    let s = a.shown(limiter);
    let v = s
        .value
        .map_or_else(|| NOT_MEASURED.into(), |v| v.to_string());
    if s.computed { format!("{v}*") } else { v }
}

/// One result's row of the table and the notes it adds (each once per result).
fn table_row(
    rep: &Report,
    r: &KernelResult,
    file: &str,
    options: &OccupancyOptions,
) -> (Vec<String>, Vec<String>) {
    let mut row = vec![file.to_string(), r.id.to_string(), r.name.function.clone()];
    let mut notes = Vec::new();
    match occupancy::analyze(r, rep.device_of(r), options) {
        Ok(a) => {
            let o = &a.occupancy;
            let assumed = if a.cc_origin == CcOrigin::Assumed {
                "?"
            } else {
                ""
            };
            row.extend([
                format!("{}{assumed}", cc_text(a.cc)),
                a.source.name().to_string(),
                a.launch.block_size.to_string(),
                a.launch.registers_per_thread.to_string(),
                a.launch.shared_mem_per_block().to_string(),
                shown(&a, Limiter::Registers),
                shown(&a, Limiter::SharedMem),
                shown(&a, Limiter::Warps),
                shown(&a, Limiter::Blocks),
                if a.limits.enforces_barriers() || a.stored.barriers.is_some() {
                    shown(&a, Limiter::Barriers)
                } else {
                    NOT_MEASURED.into()
                },
                limiter_text(&a),
                o.active_warps.to_string(),
                format!("{:.2}", o.occupancy_pct),
                a.achieved_occupancy_pct
                    .map_or_else(|| NOT_MEASURED.into(), |v| format!("{v:.2}")),
            ]);
            notes.extend(a.notes.iter().cloned());
            if Limiter::ALL.into_iter().any(|l| a.shown(l).computed) {
                notes.push("limits marked * are computed: the report stores none".into());
            }
        }
        Err(e) => {
            row.push(format!("({e})"));
        }
    }
    (row, notes)
}
