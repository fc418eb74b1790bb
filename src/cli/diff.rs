//! `sightline diff BASE CURRENT`: compares two reports of any form kernel by kernel, for people
//! (text, Markdown) and for CI (JSON, CSV, exit code).

use super::output::render_rows;
use crate::analysis::compare::export::{
    self, DEFAULT_MAX_CHANGES, HEADLINE_METRICS, MAX_NAME_CHARS, MarkdownOptions, delta_text,
    pct_text, short_name, time_delta_text, value_text,
};
use crate::analysis::compare::metric_diff::{DEFAULT_THRESHOLD_PCT, delta_pct};
use crate::analysis::compare::{DiffOptions, ReportDiff, Verdict, diff_reports};
use crate::analysis::path_names::distinct_names;
use crate::model::Report;
use crate::model::units::format_value;
use crate::parse;
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

/// Exit code when nothing got worse.
pub const EXIT_OK: i32 = 0;
/// Exit code when something got worse beyond the threshold.
pub const EXIT_REGRESSION: i32 = 1;
/// Exit code when an input could not be read.
pub const EXIT_UNREADABLE: i32 = 2;

/// Output forms of `diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Text,
    Md,
    Json,
    Csv,
}

/// Arguments of `sightline diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// Changes smaller than this percentage count as unchanged (`5` or `5%`).
    #[arg(long, default_value_t = DEFAULT_THRESHOLD_PCT, value_parser = parse_threshold)]
    pub threshold: f64,
    /// Output form.
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    pub format: DiffFormat,
    /// Compare only these metrics (comma list of ncu metric names, Section/Label keys, labels
    /// such as `Duration`, or globs such as `*hit_rate*`). They then also decide the exit code.
    #[arg(long, value_delimiter = ',')]
    pub metrics: Option<Vec<String>>,
    /// Treat every warning (a skipped result, section, metric or line) as an error.
    #[arg(long)]
    pub strict: bool,
    /// The baseline report (any form: .ncu-rep, CLI text or log, CSV, GUI copy).
    pub base: PathBuf,
    /// The report to compare against the baseline.
    pub current: PathBuf,
}

fn parse_threshold(s: &str) -> Result<f64, String> {
    let t = s.trim().trim_end_matches('%').trim();
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("`{s}` is not a percentage (e.g. 2 or 2.5%)")),
    }
}

/// Loads both reports, prints the comparison and returns the exit code: 0 when no matched
/// kernel got worse beyond the threshold (its duration, or a metric chosen with `--metrics`),
/// 1 when one did, 2 when an input could not be read.
pub fn run(args: &DiffArgs) -> i32 {
    let (base, current) = match (
        parse::load_path(&args.base),
        parse::load_path(&args.current),
    ) {
        (Ok(b), Ok(c)) => (b, c),
        (b, c) => {
            for e in [b.err(), c.err()].into_iter().flatten() {
                eprintln!("error: {e}");
            }
            return EXIT_UNREADABLE;
        }
    };
    if super::warnings::report_problems([&base, &current], args.strict) {
        return EXIT_UNREADABLE;
    }
    let opts = DiffOptions {
        threshold_pct: args.threshold,
        metrics: args.metrics.clone().filter(|m| !m.is_empty()),
    };
    let diff = diff_reports(&base, &current, &opts);
    let out = match args.format {
        DiffFormat::Text => render_text(&diff, &base, &current),
        DiffFormat::Md => export::to_markdown(
            &diff,
            &MarkdownOptions {
                title: {
                    let names = distinct_names(&[&base.source, &current.source]);
                    format!("Comparison: {} → {}", names[0], names[1])
                },
                max_changes: DEFAULT_MAX_CHANGES,
            },
        ),
        DiffFormat::Json => render_json(&diff, &base, &current),
        DiffFormat::Csv => export::to_csv(&diff),
    };
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    if diff.has_regression() {
        EXIT_REGRESSION
    } else {
        EXIT_OK
    }
}

fn render_json(diff: &ReportDiff, base: &Report, current: &Report) -> String {
    let mut doc = export::to_json(diff);
    let side = |r: &Report| {
        serde_json::json!({
            "path": r.source.display().to_string(),
            "format": r.format.name(),
            "tool_version": r.tool_version,
            "results": r.results.len(),
        })
    };
    if let Some(obj) = doc.as_object_mut() {
        obj.insert("base".into(), side(base));
        obj.insert("current".into(), side(current));
    }
    let mut s =
        serde_json::to_string_pretty(&doc).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    s.push('\n');
    s
}

fn describe(r: &Report) -> String {
    format!(
        "{} ({}, {} results{})",
        r.source.display(),
        r.format.name(),
        r.results.len(),
        r.tool_version
            .as_deref()
            .map_or_else(String::new, |v| format!(", ncu {v}"))
    )
}

/// The plain-text comparison.
pub fn render_text(diff: &ReportDiff, base: &Report, current: &Report) -> String {
    let mut out = String::new();
    out.push_str(&format!("base:    {}\n", describe(base)));
    out.push_str(&format!("current: {}\n", describe(current)));
    out.push_str(&format!("noise threshold: {}%\n", diff.threshold_pct));
    if !diff.warnings.is_empty() {
        out.push_str("\nWarnings:\n");
        for w in &diff.warnings {
            out.push_str(&format!("  ! {w}\n"));
        }
    }
    out.push_str(&format!(
        "\nMatched kernels: {} (sorted by time won or lost)\n",
        diff.matched.len()
    ));
    if !diff.matched.is_empty() {
        let mut rows = vec![
            [
                "IDS",
                "KERNEL",
                "BASE",
                "CURRENT",
                "Δ DURATION",
                "VERDICT",
                "TIME",
            ]
            .iter()
            .map(|s| s.to_string())
            .chain(
                HEADLINE_METRICS
                    .iter()
                    .map(|(_, l)| format!("Δ {}", l.to_uppercase())),
            )
            .collect::<Vec<_>>(),
        ];
        for k in diff.by_impact() {
            let d = k.diff.duration.as_ref();
            let value = |v: Option<f64>| v.map_or_else(|| "-".into(), |x| format_value(x, "ns"));
            let mut row = vec![
                format!("{}→{}", k.base_id, k.current_id),
                short_name(&k.name, MAX_NAME_CHARS),
                value(k.base_duration_ns),
                value(k.current_duration_ns),
                delta_text(d),
                d.map_or("-", |d| d.verdict.name()).to_string(),
                k.time_delta_ns()
                    .map_or_else(|| "-".into(), time_delta_text),
            ];
            row.extend(
                HEADLINE_METRICS
                    .iter()
                    .map(|(key, _)| delta_text(k.diff.get(key))),
            );
            rows.push(row);
        }
        let right = [2, 3, 4, 6, 7, 8, 9];
        for line in render_rows(&rows, &right).lines() {
            out.push_str("  ");
            out.push_str(line);
            out.push('\n');
        }
        let t = diff.time_totals();
        out.push_str(&format!(
            "\nTotal (matched): {} → {} ({}, {})\n",
            format_value(t.matched_base_ns, "ns"),
            format_value(t.matched_current_ns, "ns"),
            pct_text(delta_pct(t.matched_base_ns, t.matched_current_ns), true),
            time_delta_text(t.matched_delta_ns()),
        ));
    }
    let changes = export::listed_changes(diff, DEFAULT_MAX_CHANGES);
    if !changes.is_empty() {
        out.push_str(if diff.restricted {
            "\nSelected metrics:\n"
        } else {
            "\nBiggest metric changes:\n"
        });
        let mut rows = Vec::new();
        for c in changes {
            let m = c.metric;
            rows.push(vec![
                format!("{}→{}", c.kernel.base_id, c.kernel.current_id),
                short_name(&c.kernel.name, 40),
                m.key.clone(),
                value_text(&m.base, &m.unit),
                value_text(&m.current, &m.unit),
                delta_text(Some(m)),
                m.verdict.name().to_string(),
            ]);
        }
        let right = [3, 4, 5];
        for line in render_rows(&rows, &right).lines() {
            out.push_str("  ");
            out.push_str(line);
            out.push('\n');
        }
    }
    for (title, list) in [
        ("Only in base", &diff.only_in_base),
        ("Only in current", &diff.only_in_current),
    ] {
        if list.is_empty() {
            continue;
        }
        out.push_str(&format!("\n{title}: {}\n", list.len()));
        for u in list {
            let duration = u
                .duration_ns
                .map_or_else(String::new, |d| format!("  {}", format_value(d, "ns")));
            out.push_str(&format!(
                "  {}  {}{duration}\n",
                u.id,
                short_name(&u.name, MAX_NAME_CHARS)
            ));
        }
    }
    let regressions: Vec<String> = diff
        .regressions()
        .map(|k| {
            let what = k
                .diff
                .duration
                .as_ref()
                .filter(|d| d.verdict == Verdict::Worse)
                .map_or_else(
                    || {
                        let keys: Vec<&str> = k.diff.worse().map(|m| m.key.as_str()).collect();
                        keys.join(", ")
                    },
                    |d| format!("duration {}", delta_text(Some(d))),
                );
            format!("{} ({what})", short_name(&k.name, MAX_NAME_CHARS))
        })
        .collect();
    if regressions.is_empty() {
        out.push_str(&format!(
            "\nResult: nothing got worse beyond {}%\n",
            diff.threshold_pct
        ));
    } else {
        out.push_str(&format!(
            "\nResult: {} kernel(s) got worse beyond {}%:\n",
            regressions.len(),
            diff.threshold_pct
        ));
        for r in regressions {
            out.push_str(&format!("  - {r}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::parse_threshold;

    #[test]
    fn thresholds() {
        assert_eq!(parse_threshold("5"), Ok(5.0));
        assert_eq!(parse_threshold("2.5%"), Ok(2.5));
        assert!(parse_threshold("-1").is_err());
        assert!(parse_threshold("abc").is_err());
    }
}
