//! The comparison of two reports as one self-contained HTML page (`diff --format html`, the
//! app's export): the totals and the verdict, a bar chart of the biggest changes, the matched
//! kernels by time won or lost with their verdicts, each with why it changed in a row under
//! it, the kernels on one side only, and the suggested renames with the `--pair` argument
//! that pairs them. Reports are named by their file names: the page travels with a pull
//! request, away from the folders it was written in.

use crate::analysis::compare::export::{
    DEFAULT_MAX_CHANGES, HEADLINE_METRICS, MAX_NAME_CHARS, count_text, delta_text, listed_changes,
    listed_why, renamed_lines, short_name, suggested_lines, time_delta_text, totals_lines,
};
use crate::analysis::compare::{MatchedDiff, ReportDiff, UnmatchedResult};
use crate::model::Report;
use crate::model::format::NOT_MEASURED;
use crate::model::format::value_text;
use crate::output::html_page::{Bar, bar_chart, escape, page};

/// How many kernels the chart shows at most.
pub const CHART_BARS: usize = 15;

/// A report as the page names it: its file name (the folders it lay in on the machine that
/// wrote the page mean nothing where the page is read), its form, results and ncu version.
fn describe(name: &str, r: &Report) -> String {
    format!(
        "{} ({}, {}{})",
        name,
        r.format.name(),
        count_text(r.results.len(), "result", "results"),
        r.tool_version
            .as_deref()
            .map_or_else(String::new, |v| format!(", ncu {v}"))
    )
}

fn ns(v: Option<f64>) -> String {
    v.map_or_else(|| NOT_MEASURED.into(), |x| value_text(x, "ns"))
}

fn verdict_of(k: &MatchedDiff) -> &'static str {
    k.diff
        .duration
        .as_ref()
        .map_or(NOT_MEASURED, |d| d.verdict.name())
}

/// The chart of the kernels that won or lost the most time.
fn chart(diff: &ReportDiff) -> String {
    let bars: Vec<Bar> = diff
        .by_impact()
        .into_iter()
        .filter_map(|k| {
            let t = k.time_delta_ns()?;
            Some(Bar {
                label: format!("{}→{} {}", k.base_id, k.current_id, k.name),
                value: t,
                class: match verdict_of(k) {
                    "better" => "better",
                    "worse" => "worse",
                    _ => "neutral",
                },
                text: time_delta_text(t),
            })
        })
        .take(CHART_BARS)
        .collect();
    if bars.is_empty() {
        return String::new();
    }
    format!(
        "<h2>Biggest changes</h2>\n<p class=\"muted\">Time won (left) or lost (right) per matched kernel, the {} largest.</p>\n{}",
        bars.len(),
        bar_chart("Time won or lost per matched kernel", &bars)
    )
}

/// How many why-lists, those of the largest changes, are shown unfolded.
const OPEN_WHY: usize = 3;

/// The why-list of a pair as a row of its own under the pair's row, across the table (folded
/// with `<details>`, open for the first pairs): what differs between the two launches, then
/// the listed explanations. Empty when there is nothing to list.
fn why_row(k: &MatchedDiff, columns: usize, open: bool) -> String {
    let listed = listed_why(&k.why);
    if listed.is_empty() && k.changes.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "<tr class=\"why-row\"><td></td><td colspan=\"{}\"><details{}><summary>Why it changed \
         <span class=\"muted\">({})</span></summary><ul class=\"why\">",
        columns - 1,
        if open { " open" } else { "" },
        count_text(listed.len() + k.changes.len(), "line", "lines")
    );
    for c in &k.changes {
        out.push_str(&format!("<li>= {}</li>", escape(c)));
    }
    for w in listed {
        let (mark, class) = match w.agrees {
            Some(true) => ('+', "agrees"),
            Some(false) => ('−', "disagrees"),
            None => ('·', "neutral"),
        };
        out.push_str(&format!(
            "<li class=\"{class}\">{mark} {}</li>",
            escape(&w.text)
        ));
    }
    out.push_str("</ul></details></td></tr>\n");
    out
}

fn matched_table(diff: &ReportDiff) -> String {
    let mut out = format!(
        "<h2>Matched kernels ({})</h2>\n<p class=\"muted\">Sorted by time won or lost; under each \
         kernel, why it changed.</p>\n",
        diff.matched.len()
    );
    if diff.matched.is_empty() {
        out.push_str("<p>No kernel of the current report matched one of the base report.</p>\n");
        return out;
    }
    out.push_str(
        "<table class=\"matched\">\n<thead><tr><th>IDs</th><th>Kernel</th><th class=\"num\">Base</th>\
         <th class=\"num\">Current</th><th class=\"num\">Δ duration</th><th>Verdict</th>\
         <th class=\"num\">Time</th>",
    );
    for (_, label) in HEADLINE_METRICS {
        out.push_str(&format!("<th class=\"num\">Δ {}</th>", escape(label)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    let columns = 7 + HEADLINE_METRICS.len();
    let mut unfolded = 0;
    for k in diff.by_impact() {
        let verdict = verdict_of(k);
        out.push_str(&format!(
            "<tr class=\"kernel\"><td class=\"mono ids\">{}→{}</td><td class=\"name\" title=\"{}\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"{verdict}\">{verdict}</td><td class=\"num\">{}</td>",
            k.base_id,
            k.current_id,
            escape(&k.name),
            escape(&short_name(&k.name, MAX_NAME_CHARS)),
            ns(k.base_duration_ns),
            ns(k.current_duration_ns),
            escape(&delta_text(k.diff.duration.as_ref())),
            k.time_delta_ns()
                .map_or_else(|| NOT_MEASURED.into(), time_delta_text),
        ));
        for (key, _) in HEADLINE_METRICS {
            out.push_str(&format!(
                "<td class=\"num\">{}</td>",
                escape(&delta_text(k.diff.get(key)))
            ));
        }
        out.push_str("</tr>\n");
        let row = why_row(k, columns, unfolded < OPEN_WHY);
        unfolded += usize::from(!row.is_empty());
        out.push_str(&row);
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

fn unmatched_table(title: &str, list: &[UnmatchedResult]) -> String {
    if list.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "<h2>{} ({})</h2>\n<table class=\"unmatched\">\n<thead><tr><th>ID</th><th>Kernel</th>\
         <th class=\"num\">Duration</th></tr></thead>\n<tbody>\n",
        escape(title),
        list.len()
    );
    for u in list {
        out.push_str(&format!(
            "<tr><td class=\"mono\">{}</td><td title=\"{}\">{}</td><td class=\"num\">{}</td></tr>\n",
            u.id,
            escape(&u.name),
            escape(&short_name(&u.name, MAX_NAME_CHARS)),
            ns(u.duration_ns)
        ));
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

fn changes_table(diff: &ReportDiff) -> String {
    let changes = listed_changes(diff, DEFAULT_MAX_CHANGES);
    if changes.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "<h2>{}</h2>\n<table class=\"changes\">\n<thead><tr><th>IDs</th><th>Kernel</th>\
         <th>Metric</th><th class=\"num\">Base</th><th class=\"num\">Current</th>\
         <th class=\"num\">Change</th><th>Verdict</th></tr></thead>\n<tbody>\n",
        if diff.restricted {
            "Selected metrics"
        } else {
            "Biggest metric changes"
        }
    );
    for c in changes {
        let m = c.metric;
        let verdict = m.verdict.name();
        out.push_str(&format!(
            "<tr><td class=\"mono ids\">{}→{}</td><td>{}</td><td class=\"mono\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"{verdict}\">{verdict}</td></tr>\n",
            c.kernel.base_id,
            c.kernel.current_id,
            escape(&short_name(&c.kernel.name, 40)),
            escape(&m.key),
            escape(&crate::model::format::stored_value_text(&m.base, &m.unit)),
            escape(&crate::model::format::stored_value_text(
                &m.current, &m.unit
            )),
            escape(&delta_text(Some(m))),
        ));
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

/// The comparison as a self-contained HTML page. All text from the reports is escaped.
pub fn diff_html(diff: &ReportDiff, base: &Report, current: &Report, title: &str) -> String {
    let mut body = format!("<h1>{}</h1>\n", escape(title));
    // File names, lengthened only where the two are named alike.
    let names = crate::analysis::path_names::distinct_names(&[&base.source, &current.source]);
    let name = |i: usize| names.get(i).map_or("", String::as_str);
    body.push_str(&format!(
        "<p class=\"muted\">Base: <span class=\"mono\">{}</span><br>Current: <span class=\"mono\">{}</span><br>Noise threshold: {}%</p>\n",
        escape(&describe(name(0), base)),
        escape(&describe(name(1), current)),
        diff.threshold_pct
    ));
    let worse = diff.regressions().count();
    let better = diff
        .matched
        .iter()
        .filter(|k| verdict_of(k) == "better")
        .count();
    let banner = if worse > 0 {
        format!(
            "<span class=\"worse\">{} slower</span> beyond the threshold, {} faster.",
            count_text(worse, "kernel", "kernels"),
            better
        )
    } else {
        format!(
            "<span class=\"better\">No kernel slower</span> beyond the threshold; {} faster.",
            count_text(better, "kernel", "kernels")
        )
    };
    body.push_str(&format!("<div class=\"banner\">{banner}</div>\n"));
    body.push_str("<h2>Totals</h2>\n<ul class=\"totals\">\n");
    for line in totals_lines(diff) {
        body.push_str(&format!("<li>{}</li>\n", escape(&line)));
    }
    body.push_str("</ul>\n");
    if !diff.warnings.is_empty() {
        body.push_str("<h2>Warnings</h2>\n<ul class=\"warnings\">\n");
        for w in &diff.warnings {
            body.push_str(&format!("<li>{}</li>\n", escape(&w.to_string())));
        }
        body.push_str("</ul>\n");
    }
    body.push_str(&chart(diff));
    body.push_str(&matched_table(diff));
    body.push_str(&changes_table(diff));
    body.push_str(&unmatched_table("Only in base", &diff.only_in_base));
    body.push_str(&unmatched_table("Only in current", &diff.only_in_current));
    if !diff.renamed.is_empty() {
        body.push_str("<h2>Paired as renamed</h2>\n<ul class=\"renamed\">\n");
        for line in renamed_lines(diff) {
            body.push_str(&format!("<li><code>{}</code></li>\n", escape(&line)));
        }
        body.push_str("</ul>\n");
    }
    if !diff.suggested_pairs.is_empty() {
        body.push_str(
            "<h2>Renamed?</h2>\n<p>Not paired; each pair below has a new name on one kernel.</p>\n<ul class=\"suggested\">\n",
        );
        for line in suggested_lines(diff) {
            body.push_str(&format!("<li><code>{}</code></li>\n", escape(&line)));
        }
        body.push_str("</ul>\n");
    }
    page(title, &body)
}
