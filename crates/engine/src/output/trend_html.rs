//! A series of runs as one self-contained HTML page (`trend --format html`, the page a CI job
//! keeps): the regressions, the table of every kernel's mean duration per run, a chart per
//! kernel over the runs (log scale where its values span more than tenfold, run labels that
//! never overlap) and the biggest steps with their why.

use crate::analysis::series::Trend;
use crate::analysis::series::regression::Regression;
use crate::model::format::{NOT_MEASURED, count_text, measured_text};
use crate::output::html_page::{self, escape};
use crate::output::line_chart::{LineChart, Series, XAxis, line_chart};

/// The kernel's names over the series (`gemm_step → gemm_tiled_2d`).
fn names_text(names: &[String]) -> String {
    names.join(" \u{2192} ")
}

/// The page.
pub fn trend_html(t: &Trend, found: &[Regression]) -> String {
    let mut body = format!(
        "<h1>Trend of {}</h1>\n<p class=\"muted\">{}</p>\n",
        count_text(t.runs.len(), "run", "runs"),
        escape(&t.order_note)
    );
    if !found.is_empty() {
        body.push_str("<div class=\"banner\">");
        for r in found {
            body.push_str(&format!(
                "<div class=\"worse\">Regression: {}</div>",
                escape(&r.line())
            ));
        }
        body.push_str("</div>\n");
    }
    // A long series makes a wide table: it scrolls in its box, the page does not.
    body.push_str("<div class=\"wide\"><table>\n<tr><th>Kernel</th>");
    for r in &t.runs {
        body.push_str(&format!("<th class=\"num\">{}</th>", escape(&r.label)));
    }
    body.push_str("</tr>\n");
    for k in &t.kernels {
        body.push_str(&format!(
            "<tr><td class=\"name\"><code>{}</code></td>",
            escape(&names_text(&k.names))
        ));
        for m in k.means() {
            let text = m.map_or_else(|| NOT_MEASURED.into(), |v| measured_text(v, "ns"));
            body.push_str(&format!("<td class=\"num\">{}</td>", escape(&text)));
        }
        body.push_str("</tr>\n");
    }
    body.push_str("</table></div>\n");
    let labels: Vec<String> = t.runs.iter().map(|r| r.label.clone()).collect();
    for k in &t.kernels {
        let names = names_text(&k.names);
        body.push_str(&format!("<h2>{}</h2>\n", escape(&names)));
        body.push_str(&line_chart(&LineChart {
            title: format!("{names}: mean duration over the runs"),
            x: XAxis::Runs(labels.clone()),
            unit: "ns".into(),
            series: vec![Series {
                name: names.clone(),
                values: k.means(),
            }],
        }));
    }
    if !t.steps.is_empty() {
        body.push_str("<h2>Biggest steps</h2>\n<ul class=\"why\">\n");
        for s in &t.steps {
            let line = s.line(&t.runs, |k| format!("<code>{}</code>", escape(k)), escape);
            body.push_str(&format!("<li>{line}</li>\n"));
        }
        body.push_str("</ul>\n");
    }
    html_page::page("sightline trend", &body)
}
