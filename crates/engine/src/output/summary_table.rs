//! `sightline summary` as text: one aligned row per result of every report (ID, kernel,
//! grid × block, duration, speed-of-light and occupancy percentages, top rule).

use crate::analysis::headline::headline;
use crate::analysis::path_names::distinct_names;
use crate::model::Report;
use crate::model::format::NOT_MEASURED;
use crate::model::format::measured_text;
use crate::output::table::render_rows;
use rayon::prelude::*;

fn opt_pct(v: Option<f64>) -> String {
    v.map_or_else(|| NOT_MEASURED.into(), |v| format!("{v:.2}"))
}

/// The plain-text table of `summary`.
pub fn render_table(reports: &[Report]) -> String {
    let mut rows: Vec<Vec<String>> = vec![vec![
        "REPORT".into(),
        "ID".into(),
        "KERNEL".into(),
        "GRID x BLOCK".into(),
        "DURATION".into(),
        "SM %".into(),
        "MEM %".into(),
        "OCC %".into(),
        "TOP RULE (EST. SPEEDUP)".into(),
    ]];
    let names = distinct_names(&reports.iter().map(|r| &r.source).collect::<Vec<_>>());
    for (rep, file) in reports.iter().zip(names) {
        // Rows are formatted on every core, in order.
        rows.par_extend(rep.results.par_iter().map(|r| {
            let h = headline(r);
            let shape = match (r.grid, r.block) {
                (Some(g), Some(b)) => format!("{g}x{b}"),
                _ => NOT_MEASURED.into(),
            };
            let rule = h.top_rule.map_or_else(
                || NOT_MEASURED.into(),
                |rule| {
                    let title = rule.heading();
                    match rule.speedup {
                        Some((_, s)) => format!("{title} ({s:.2}%)"),
                        None => title,
                    }
                },
            );
            vec![
                file.clone(),
                r.id.to_string(),
                if r.kind.is_kernel() {
                    r.name.function.clone()
                } else {
                    format!("{} ({})", r.display_name(), r.kind.label())
                },
                shape,
                h.duration_ns
                    .map_or_else(|| NOT_MEASURED.into(), |d| measured_text(d, "ns")),
                opt_pct(h.sol_compute_pct),
                opt_pct(h.sol_memory_pct),
                opt_pct(h.achieved_occupancy_pct),
                rule,
            ]
        }));
    }
    render_rows(&rows, &[1, 4, 5, 6, 7])
}
