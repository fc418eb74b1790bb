//! `summary --format html`: the summary of every report as one self-contained HTML page:
//! per report its device and one row per result, with a bar chart of the longest results.

use crate::analysis::headline::{device_summary, headline};
use crate::analysis::path_names::distinct_names;
use crate::model::Report;
use crate::model::format::NOT_MEASURED;
use crate::model::format::value_text;
use crate::output::html_page::{Bar, bar_chart, escape, page};

/// How many results the chart shows at most.
const CHART_BARS: usize = 15;

fn pct(v: Option<f64>) -> String {
    v.map_or_else(|| NOT_MEASURED.into(), |v| format!("{v:.2}"))
}

/// The page; all text from the reports is escaped.
pub fn summary_html(reports: &[Report], title: &str) -> String {
    let names = distinct_names(&reports.iter().map(|r| &r.source).collect::<Vec<_>>());
    let mut body = format!("<h1>{}</h1>\n", escape(title));
    let mut longest: Vec<(f64, String)> = Vec::new();
    let mut tables = String::new();
    for (rep, file) in reports.iter().zip(&names) {
        let dev = device_summary(rep, rep.results.first());
        let total: f64 = rep
            .results
            .iter()
            .filter_map(|r| headline(r).duration_ns)
            .sum();
        tables.push_str(&format!(
            "<h2>{}</h2>\n<p class=\"muted\">{}, {}, {} in total{}{}</p>\n",
            escape(file),
            escape(rep.format.name()),
            crate::model::format::count_text(rep.results.len(), "result", "results"),
            value_text(total, "ns"),
            dev.name
                .as_deref()
                .map_or_else(String::new, |n| format!(", {}", escape(n))),
            rep.tool_version
                .as_deref()
                .map_or_else(String::new, |v| format!(", ncu {}", escape(v))),
        ));
        tables.push_str(
            "<table class=\"results\">\n<thead><tr><th class=\"num\">ID</th><th>Kernel</th>\
             <th>Grid × block</th><th class=\"num\">Duration</th><th class=\"num\">SM %</th>\
             <th class=\"num\">Mem %</th><th class=\"num\">Occ. %</th><th>Top rule (est. speedup)</th>\
             </tr></thead>\n<tbody>\n",
        );
        for r in &rep.results {
            let h = headline(r);
            let shape = match (r.grid, r.block) {
                (Some(g), Some(b)) => format!("{g} × {b}"),
                _ => NOT_MEASURED.into(),
            };
            let rule = h.top_rule.map_or_else(
                || NOT_MEASURED.into(),
                |rule| match rule.speedup {
                    Some((_, s)) => format!("{} ({s:.2}%)", rule.heading()),
                    None => rule.heading(),
                },
            );
            let name = r.display_name();
            if let Some(d) = h.duration_ns {
                longest.push((d, format!("{file} {} {}", r.id, r.name.function)));
            }
            tables.push_str(&format!(
                "<tr class=\"result\"><td class=\"num\">{}</td><td title=\"{}\">{}</td><td class=\"mono\">{}</td>\
                 <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
                 <td class=\"num\">{}</td><td>{}</td></tr>\n",
                r.id,
                escape(&name),
                escape(&r.name.function),
                escape(&shape),
                h.duration_ns
                    .map_or_else(|| NOT_MEASURED.into(), |d| value_text(d, "ns")),
                pct(h.sol_compute_pct),
                pct(h.sol_memory_pct),
                pct(h.achieved_occupancy_pct),
                escape(&rule),
            ));
        }
        tables.push_str("</tbody>\n</table>\n");
    }
    longest.sort_by(|a, b| b.0.total_cmp(&a.0));
    let bars: Vec<Bar> = longest
        .into_iter()
        .take(CHART_BARS)
        .map(|(d, label)| Bar {
            label,
            value: d,
            class: "neutral",
            text: value_text(d, "ns"),
        })
        .collect();
    if !bars.is_empty() {
        body.push_str(&format!(
            "<h2>Longest results</h2>\n{}",
            bar_chart("Duration of the longest results", &bars)
        ));
    }
    body.push_str(&tables);
    page(title, &body)
}
