//! The pieces of the self-contained HTML pages (`diff`, `summary` and `trend --format html`):
//! text escaping, the page shell with its inline style (light and dark by
//! `prefers-color-scheme`), and an inline SVG bar chart (line charts are `line_chart`'s).
//! Nothing links or loads anything: a page reads the same offline, attached to a CI run or a
//! pull request.

/// Text made safe for HTML element content and quoted attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // A run of slashes never reads as the start of an address.
            '/' => out.push_str("&#47;"),
            // Control and bidirectional characters are shown, not obeyed.
            c if crate::model::safe_text::is_hidden(c) => {
                out.push_str(&format!("&lt;U+{:04X}&gt;", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = r#"
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1d1f23; --muted: #5f6670;
  --line: #d8dce2; --head: #f3f5f8; --better: #1a7f37; --worse: #c62828; --neutral: #6b7280;
  --bar-better: #2da44e; --bar-worse: #e5534b; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #16181d; --fg: #e4e7eb; --muted: #9aa3ad; --line: #343a43; --head: #1f232a;
    --better: #57c46e; --worse: #f47067; --neutral: #9aa3ad; --bar-better: #46a758;
    --bar-worse: #e5534b; }
}
body { background: var(--bg); color: var(--fg); margin: 2rem auto; max-width: 80rem;
  padding: 0 1rem; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
h1 { font-size: 1.5rem; margin-bottom: 0.25rem; }
h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid var(--line); }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0; }
th, td { border-bottom: 1px solid var(--line); padding: 0.3rem 0.5rem; text-align: left;
  vertical-align: top; }
th { background: var(--head); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.muted { color: var(--muted); }
.better { color: var(--better); font-weight: 600; }
.worse { color: var(--worse); font-weight: 600; }
.unchanged, .neutral { color: var(--neutral); }
.banner { padding: 0.6rem 0.8rem; border: 1px solid var(--line); border-radius: 6px;
  background: var(--head); margin: 1rem 0; }
td { overflow-wrap: anywhere; }
td.ids { white-space: nowrap; }
tr.kernel:has(+ tr.why-row) td { border-bottom: none; }
tr.why-row td { padding-top: 0; }
tr.why-row summary { cursor: pointer; color: var(--muted); }
ul.why { margin: 0.2rem 0 0.3rem 0; padding-left: 1.1rem; }
ul.why .agrees { color: var(--fg); }
ul.why .disagrees, ul.why .neutral { color: var(--muted); }
svg text { fill: var(--fg); font-size: 12px; }
svg .axis { stroke: var(--muted); }
svg .bar-better { fill: var(--bar-better); }
svg .bar-worse { fill: var(--bar-worse); }
svg .bar-neutral { fill: var(--neutral); }
svg .grid { stroke: var(--line); }
svg .note { fill: var(--muted); font-size: 11px; }
svg.line-chart { display: block; margin: 0.5rem 0; }
svg .s0 { stroke: #3b82f6; fill: #3b82f6; } svg .s1 { stroke: #f59e0b; fill: #f59e0b; }
svg .s2 { stroke: #10b981; fill: #10b981; } svg .s3 { stroke: #ef4444; fill: #ef4444; }
svg .s4 { stroke: #8b5cf6; fill: #8b5cf6; } svg .s5 { stroke: #06b6d4; fill: #06b6d4; }
svg .s6 { stroke: #ec4899; fill: #ec4899; } svg .s7 { stroke: #84cc16; fill: #84cc16; }
svg g text { stroke: none; fill: var(--fg); }
.wide { overflow-x: auto; max-width: 100%; }
.wide td.name { min-width: 14rem; }
"#;

/// A whole page: the title, the inline style and the body's HTML.
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}\n\
         <p class=\"muted\">Made by sightline {}.</p>\n</body>\n</html>\n",
        escape(title),
        env!("CARGO_PKG_VERSION")
    )
}

/// One bar of a chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// What the bar is about (escaped when drawn).
    pub label: String,
    /// Its signed length.
    pub value: f64,
    /// `better`, `worse` or `neutral`: the bar's colour.
    pub class: &'static str,
    /// The value as text, drawn beside the bar.
    pub text: String,
}

/// A horizontal bar chart as inline SVG, one row per bar; negative values go left of the
/// axis, positive ones right. Empty when there are no bars.
pub fn bar_chart(title: &str, bars: &[Bar]) -> String {
    if bars.is_empty() {
        return String::new();
    }
    const ROW: f64 = 22.0;
    const LABEL: f64 = 300.0;
    const PLOT: f64 = 520.0;
    const TEXT: f64 = 150.0;
    let width = LABEL + PLOT + TEXT;
    let height = ROW * bars.len() as f64 + 10.0;
    let max = bars
        .iter()
        .map(|b| b.value.abs())
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let any_negative = bars.iter().any(|b| b.value < 0.0);
    let any_positive = bars.iter().any(|b| b.value > 0.0);
    // The zero axis: in the middle when bars go both ways, else at the side they start from.
    let zero = match (any_negative, any_positive) {
        (true, true) => LABEL + PLOT / 2.0,
        (true, false) => LABEL + PLOT,
        _ => LABEL,
    };
    let span = if any_negative && any_positive {
        PLOT / 2.0
    } else {
        PLOT
    };
    let scale = if max > 0.0 { span / max } else { 0.0 };
    let mut svg = format!(
        "<svg role=\"img\" aria-label=\"{}\" viewBox=\"0 0 {width} {height}\" width=\"100%\" \
         preserveAspectRatio=\"xMinYMin meet\">\n<title>{}</title>\n",
        escape(title),
        escape(title)
    );
    for (i, b) in bars.iter().enumerate() {
        let y = 5.0 + ROW * i as f64;
        let len = if b.value.is_finite() {
            b.value.abs() * scale
        } else {
            0.0
        };
        let x = if b.value < 0.0 { zero - len } else { zero };
        let label: String = if b.label.chars().count() > 44 {
            let head: String = b.label.chars().take(43).collect();
            format!("{head}…")
        } else {
            b.label.clone()
        };
        svg.push_str(&format!(
            "<g><title>{}: {}</title><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\
             <rect class=\"bar-{}\" x=\"{x:.1}\" y=\"{:.1}\" width=\"{len:.1}\" height=\"{:.1}\"></rect>\
             <text x=\"{:.1}\" y=\"{:.1}\">{}</text></g>\n",
            escape(&b.label),
            escape(&b.text),
            LABEL - 8.0,
            y + 14.0,
            escape(&label),
            b.class,
            y + 3.0,
            ROW - 6.0,
            LABEL + PLOT + 8.0,
            y + 14.0,
            escape(&b.text),
        ));
    }
    svg.push_str(&format!(
        "<line class=\"axis\" x1=\"{zero:.1}\" y1=\"0\" x2=\"{zero:.1}\" y2=\"{height:.1}\"></line>\n</svg>\n"
    ));
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_slashes() {
        assert_eq!(
            escape("<a href=\"x\">&'//"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&#47;&#47;"
        );
    }

    #[test]
    fn chart_has_a_bar_per_value() {
        let bars = vec![
            Bar {
                label: "k<1>".into(),
                value: -2.0,
                class: "better",
                text: "2 won".into(),
            },
            Bar {
                label: "k2".into(),
                value: 1.0,
                class: "worse",
                text: "1 lost".into(),
            },
        ];
        let svg = bar_chart("t", &bars);
        assert_eq!(svg.matches("<rect").count(), 2);
        assert!(svg.contains("k&lt;1&gt;"));
        assert!(bar_chart("t", &[]).is_empty());
    }
}
