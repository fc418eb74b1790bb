//! A sweep as one self-contained HTML page (`trend --by-size --format html`): for each kernel
//! and figure, a chart of the figure against the size with one line per version (log axes
//! where the values span more than tenfold) and the table behind it.

use crate::analysis::series::sweep::{Sweep, SweepFigure, SweepKernel};
use crate::output::html_page::{self, escape};
use crate::output::line_chart::{LineChart, Series, XAxis, line_chart};
use crate::output::sweep_tables::{cell_text, contents, names_text};

/// The chart of one figure of a kernel: a line per version over the sizes.
pub fn figure_chart(s: &Sweep, k: &SweepKernel, figure: SweepFigure) -> LineChart {
    LineChart {
        title: format!(
            "{}: {} against {}",
            names_text(k),
            figure.title(s),
            s.parameter
        ),
        x: XAxis::Numbers {
            name: s.parameter.clone(),
            values: s.sizes.iter().map(|&n| n as f64).collect(),
        },
        unit: figure.unit().into(),
        series: k
            .lines
            .iter()
            .map(|line| Series {
                name: line.version.clone(),
                values: line
                    .points
                    .iter()
                    .map(|p| p.as_ref().and_then(|p| figure.value(p)))
                    .collect(),
            })
            .collect(),
    }
}

/// The table behind a chart: a row per version, a column per size.
fn figure_table(s: &Sweep, k: &SweepKernel, figure: SweepFigure) -> String {
    let mut out = String::from("<div class=\"wide\"><table>\n<tr><th>Version</th>");
    for i in 0..s.sizes.len() {
        out.push_str(&format!(
            "<th class=\"num\">{}</th>",
            escape(&s.size_label(i))
        ));
    }
    out.push_str("</tr>\n");
    for line in &k.lines {
        out.push_str(&format!("<tr><td>{}</td>", escape(&line.version)));
        for p in &line.points {
            let value = p.as_ref().and_then(|p| figure.value(p));
            out.push_str(&format!(
                "<td class=\"num\">{}</td>",
                escape(&cell_text(figure, value))
            ));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table></div>\n");
    out
}

/// The whole page.
pub fn sweep_html(s: &Sweep) -> String {
    let mut body = format!(
        "<h1>Sweep over {}</h1>\n<p class=\"muted\">{}</p>\n",
        escape(&s.parameter),
        escape(&contents(s))
    );
    if !s.left_out.is_empty() {
        body.push_str("<div class=\"banner\">");
        for line in &s.left_out {
            body.push_str(&format!("<div>{}</div>", escape(line)));
        }
        body.push_str("</div>\n");
    }
    for k in &s.kernels {
        body.push_str(&format!(
            "<h2><code>{}</code></h2>\n",
            escape(&names_text(k))
        ));
        for figure in s.figures() {
            body.push_str(&format!("<h3>{}</h3>\n", escape(&figure.title(s))));
            body.push_str(&line_chart(&figure_chart(s, k, figure)));
            body.push_str(&figure_table(s, k, figure));
        }
    }
    html_page::page(&format!("sightline sweep over {}", s.parameter), &body)
}
