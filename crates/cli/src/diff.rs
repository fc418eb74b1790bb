//! `sightline diff BASE CURRENT`: compares two reports of any form kernel by kernel, for people
//! (text, Markdown) and for CI (JSON, CSV, exit code).

use crate::analysis::compare::export::{
    self, DEFAULT_MAX_CHANGES, HEADLINE_METRICS, MAX_NAME_CHARS, delta_text, short_name,
    time_delta_text,
};
use crate::analysis::compare::fail_on::{FailOn, Failure};
use crate::analysis::compare::groups::groups;
use crate::analysis::compare::metric_diff::DEFAULT_THRESHOLD_PCT;
use crate::analysis::compare::request;
use crate::analysis::compare::{CompareRequest, DiffOptions, Keep, RenamePolicy, ReportDiff};
use crate::analysis::path_names::distinct_names;
use crate::model::Report;
use crate::model::format::NOT_MEASURED;
use crate::model::format::stored_value_text;
use crate::model::format::value_text;
use crate::output::compare::MarkdownOptions;
use crate::output::compare::html;
use crate::output::html_page::escape;
use crate::output::table::render_rows;
use crate::parse;
use clap::{Args, ValueEnum};
use std::io::{Seek, Write};
use std::path::PathBuf;

/// Exit code when nothing got worse.
pub const EXIT_OK: i32 = 0;
/// Exit code when a `--fail-on` rule fired.
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
    /// One self-contained HTML page (inline style and SVG chart, no links), for CI artifacts.
    Html,
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
    /// When to exit 1: a comma list of `METRIC>N%`, `METRIC>Npp` (percentages), `METRIC` (any
    /// move the bad way beyond the noise threshold), `only-in-base`, `only-in-current`, or
    /// `none`. Default: `duration>5%,only-in-base`, or the `--metrics` list when given.
    #[arg(long, value_parser = parse_fail_on, value_name = "LIST")]
    pub fail_on: Option<FailOn>,
    /// Pair two results by hand: `BASE_ID=CURRENT_ID` (result IDs as listed; repeatable or a
    /// comma list). The other kernels are matched around them.
    #[arg(long = "pair", value_delimiter = ',', value_parser = parse_pair, value_name = "BASE_ID=CUR_ID")]
    pub pairs: Vec<(u64, u64)>,
    /// Do not pair renamed kernels automatically: a kernel only the base has and one only the
    /// current has, with the same parameters, launch count and places, are then only
    /// suggested (and count as removed and added).
    #[arg(long)]
    pub no_auto_pair: bool,
    /// The baseline report (any form: .ncu-rep, CLI text or log, CSV, GUI copy).
    pub base: PathBuf,
    /// The report to compare against the baseline.
    pub current: PathBuf,
}

fn parse_threshold(s: &str) -> Result<f64, String> {
    request::parse_threshold(s).map_err(|e| e.to_string())
}

fn parse_fail_on(s: &str) -> Result<FailOn, String> {
    FailOn::parse(s).map_err(|e| e.to_string())
}

pub(crate) fn parse_pair(s: &str) -> Result<(u64, u64), String> {
    request::parse_pair(s).map_err(|e| e.to_string())
}

/// Loads both reports, prints the comparison and returns the exit code: 0 when no `--fail-on`
/// rule fired (by default: no matched kernel's duration worse by more than 5 %, no kernel only
/// in the base), 1 when one did, 2 when an input could not be read.
pub fn run(args: &DiffArgs) -> i32 {
    let (base, current) = match (
        parse::load_path(&args.base),
        parse::load_path(&args.current),
    ) {
        (Ok(b), Ok(c)) => (b, c),
        (b, c) => {
            for e in [b.err(), c.err()].into_iter().flatten() {
                crate::warnings::tell("error", e);
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
        renames: RenamePolicy {
            auto_pair: !args.no_auto_pair,
            unpaired: Vec::new(),
        },
    };
    let fail_on = match (&args.fail_on, &opts.metrics) {
        (Some(f), _) => f.clone(),
        (None, Some(metrics)) => FailOn::from_metrics(metrics),
        (None, None) => FailOn::default(),
    };
    // One pass over the results, a window of pairs at a time on every core: each pair is
    // compared with every metric, the comparison keeps of it only what the text forms show or
    // the `--fail-on` rules read, and JSON and CSV, which list every metric, get the pair's
    // text made on the same core. CSV writes it at once; JSON, whose document lists the
    // failures before the pairs, keeps the pairs' text in a temporary file until the
    // comparison is complete. Memory does not grow with the results.
    let reads = |key: &str| fail_on.reads_metric(key);
    // A pair naming a result a report lacks is refused before anything is written.
    let manual = match request::pairs_by_id(&args.pairs, &base, &current) {
        Ok(manual) => manual,
        Err(e) => {
            crate::warnings::tell("error", format!("--pair: {e}"));
            return EXIT_UNREADABLE;
        }
    };
    let request = CompareRequest {
        options: &opts,
        manual: &manual,
        keep: Keep::Shown {
            max_changes: DEFAULT_MAX_CHANGES,
            also: &reads,
        },
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut spill = match args.format {
        DiffFormat::Json => match tempfile::tempfile() {
            Ok(file) => Some(std::io::BufWriter::with_capacity(1 << 20, file)),
            Err(e) => {
                eprintln!("error: no temporary file for the comparison: {e}");
                return EXIT_UNREADABLE;
            }
        },
        _ => None,
    };
    let mut failed: Option<std::io::Error> = None;
    let mut first = true;
    if args.format == DiffFormat::Csv {
        failed = out.write_all(&crate::output::compare::csv_header()).err();
    }
    let format = args.format;
    let diff = request.run_each(
        &base,
        &current,
        |pair| match format {
            DiffFormat::Json => crate::output::compare::pair_json_bytes(pair),
            DiffFormat::Csv => crate::output::compare::pair_csv(pair),
            _ => Ok(Vec::new()),
        },
        |text| {
            if failed.is_some() || !matches!(format, DiffFormat::Json | DiffFormat::Csv) {
                return;
            }
            let written = text.and_then(|text| match &mut spill {
                Some(spill) => {
                    spill.write_all(crate::output::compare::pair_json_separator(first))?;
                    spill.write_all(&text)
                }
                None => out.write_all(&text),
            });
            first = false;
            failed = written.err();
        },
    );
    let failures = fail_on.check(&diff);
    let written = match failed {
        Some(e) => Err(e),
        None => match args.format {
            DiffFormat::Text => {
                let text = render_text(&diff, &base, &current, &failures);
                out.write_all(crate::model::safe_text::visible(&text).as_bytes())
            }
            DiffFormat::Md => {
                let text = crate::output::compare::to_markdown(
                    &diff,
                    &MarkdownOptions {
                        title: {
                            let names = distinct_names(&[&base.source, &current.source]);
                            format!("Comparison: {} → {}", names[0], names[1])
                        },
                        max_changes: DEFAULT_MAX_CHANGES,
                    },
                ) + &failures_markdown(&failures);
                out.write_all(text.as_bytes())
            }
            DiffFormat::Json => write_json(
                &mut out,
                json_document(&diff, &base, &current, &fail_on, &failures),
                spill.take(),
                first,
            ),
            DiffFormat::Csv => crate::output::compare::write_csv_unmatched(&mut out, &diff),
            DiffFormat::Html => {
                let names = distinct_names(&[&base.source, &current.source]);
                let title = format!("Comparison: {} → {}", names[0], names[1]);
                let mut page = html::diff_html(&diff, &base, &current, &title);
                if !failures.is_empty() {
                    // The page says which --fail-on rules fired, before its end.
                    let list: String = failures
                        .iter()
                        .map(|f| format!("<li>{}</li>\n", escape(&failure_line(f))))
                        .collect();
                    let section =
                        format!("<h2>Result</h2>\n<ul class=\"failures\">\n{list}</ul>\n");
                    if let Some(at) = page.rfind("<p class=\"muted\">Made by") {
                        page.insert_str(at, &section);
                    }
                }
                out.write_all(page.as_bytes())
            }
        },
    };
    if crate::output::table::write_failed(written.and_then(|()| out.flush())) {
        return EXIT_UNREADABLE;
    }
    if failures.is_empty() {
        EXIT_OK
    } else {
        EXIT_REGRESSION
    }
}

/// Writes the JSON document with its "matched" list taken from `pairs`, the file the pairs'
/// items were written to (separated as the list separates them; `none` says none was).
fn write_json<W: Write>(
    out: &mut W,
    doc: serde_json::Value,
    pairs: Option<std::io::BufWriter<std::fs::File>>,
    none: bool,
) -> std::io::Result<()> {
    let (head, tail) = crate::output::compare::json_around_pairs(doc)?;
    out.write_all(head.as_bytes())?;
    let Some(tail) = tail else {
        return out.write_all(b"\n");
    };
    out.write_all(b"[")?;
    if let Some(pairs) = pairs {
        let mut file = pairs.into_inner().map_err(|e| e.into_error())?;
        file.seek(std::io::SeekFrom::Start(0))?;
        // From file to standard output by the kernel where it can (the writer's concrete type
        // lets the copy see both ends): gigabytes for a large pair of reports.
        std::io::copy(&mut file, out)?;
    }
    if !none {
        out.write_all(b"\n  ")?;
    }
    out.write_all(b"]")?;
    out.write_all(tail.as_bytes())?;
    out.write_all(b"\n")
}

fn failure_line(f: &Failure) -> String {
    let ids = match (f.base_id, f.current_id) {
        (Some(b), Some(c)) => format!("{b}→{c}"),
        (Some(b), None) => format!("{b}→-"),
        (None, Some(c)) => format!("-→{c}"),
        (None, None) => NOT_MEASURED.into(),
    };
    format!(
        "{ids} {}: {} [{}]",
        short_name(&f.kernel, MAX_NAME_CHARS),
        f.detail,
        f.rule
    )
}

fn failures_markdown(failures: &[Failure]) -> String {
    let mut out = String::from("\n#### Result\n\n");
    if failures.is_empty() {
        out.push_str("No `--fail-on` rule fired.\n");
    } else {
        for f in failures {
            out.push_str(&format!("- {}\n", failure_line(f)));
        }
    }
    out
}

/// The JSON document of the comparison without its pairs
/// ([`crate::output::compare::to_json_without_pairs`]), with both sides, the failures and the groups of
/// repeated kernels; `run` writes the pairs, compared again, into its "matched" list.
fn json_document(
    diff: &ReportDiff,
    base: &Report,
    current: &Report,
    fail_on: &FailOn,
    failures: &[Failure],
) -> serde_json::Value {
    let mut doc = crate::output::compare::to_json_without_pairs(diff);
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
        obj.insert("failed".into(), (!failures.is_empty()).into());
        obj.insert(
            "base_captured_after_current".into(),
            capture_order_note(base, current).is_some().into(),
        );
        obj.insert(
            "groups".into(),
            serde_json::to_value(groups(&base.results, &current.results, &diff.renamed))
                .unwrap_or(serde_json::Value::Null),
        );
        obj.insert(
            "fail_on".into(),
            serde_json::json!({
                "rules": fail_on.rules.iter().map(|(t, _)| t).collect::<Vec<_>>(),
                "failures": failures,
            }),
        );
    }
    doc
}

/// Where the base was captured after the current report (both say when), the line that says
/// so: `diff A B` keeps A as the base whatever the capture times, and the reader should know.
pub fn capture_order_note(base: &Report, current: &Report) -> Option<String> {
    let (b, c) = (base.created?, current.created?);
    (b > c).then(|| {
        let at = crate::parse::ncu_rep::session::format_utc;
        format!(
            "the base was captured after the current report ({} UTC vs {} UTC); the order given \
             decides: swap the files to compare the other way",
            at(b),
            at(c)
        )
    })
}

fn describe(r: &Report) -> String {
    format!(
        "{} ({}, {}{})",
        r.source.display(),
        r.format.name(),
        crate::model::format::count_text(r.results.len(), "result", "results"),
        r.tool_version
            .as_deref()
            .map_or_else(String::new, |v| format!(", ncu {v}"))
    )
}

/// A duration for people; one that is no number is named as damage.
fn duration_text(ns: f64) -> String {
    if ns.is_finite() {
        value_text(ns, "ns")
    } else {
        format!("damaged ({ns})")
    }
}

/// The plain-text comparison.
pub fn render_text(
    diff: &ReportDiff,
    base: &Report,
    current: &Report,
    failures: &[Failure],
) -> String {
    let mut out = String::new();
    out.push_str(&format!("base:    {}\n", describe(base)));
    out.push_str(&format!("current: {}\n", describe(current)));
    out.push_str(&format!("noise threshold: {}%\n", diff.threshold_pct));
    if let Some(note) = capture_order_note(base, current) {
        out.push_str(&format!("note: {note}\n"));
    }
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
            let value = |v: Option<f64>| v.map_or_else(|| NOT_MEASURED.into(), duration_text);
            let mut row = vec![
                format!("{}→{}", k.base_id, k.current_id),
                short_name(&k.name, MAX_NAME_CHARS),
                value(k.base_duration_ns),
                value(k.current_duration_ns),
                delta_text(d),
                d.map_or(NOT_MEASURED, |d| d.verdict.name()).to_string(),
                k.time_delta_ns()
                    .map_or_else(|| NOT_MEASURED.into(), time_delta_text),
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
    }
    out.push('\n');
    for line in export::totals_lines(diff) {
        out.push_str(&format!("{line}\n"));
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
                m.key.to_string(),
                stored_value_text(&m.base, &m.unit),
                stored_value_text(&m.current, &m.unit),
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
                .map_or_else(String::new, |d| format!("  {}", duration_text(d)));
            out.push_str(&format!(
                "  {}  {}{duration}\n",
                u.id,
                short_name(&u.name, MAX_NAME_CHARS)
            ));
        }
    }
    if !diff.renamed.is_empty() {
        out.push_str("\nPaired as renamed:\n");
        for line in export::renamed_lines(diff) {
            out.push_str(&format!("  {line}\n"));
        }
    }
    if !diff.suggested_pairs.is_empty() {
        out.push_str("\nRenamed? Not paired; each pair below has a new name on one kernel:\n");
        for line in export::suggested_lines(diff) {
            out.push_str(&format!("  {line}\n"));
        }
    }
    let repeated: Vec<_> = groups(&base.results, &current.results, &diff.renamed)
        .into_iter()
        .filter(|g| g.base.is_some_and(|s| s.count > 1) || g.current.is_some_and(|s| s.count > 1))
        .take(DEFAULT_MAX_CHANGES)
        .collect();
    if !repeated.is_empty() {
        out.push_str("\nRepeated kernels (per kernel: launches, total, mean, min–max):\n");
        let side = |s: Option<crate::analysis::compare::groups::GroupStats>| {
            s.map_or_else(
                || NOT_MEASURED.to_string(),
                |s| {
                    let ns = |v: Option<f64>| v.map_or_else(|| NOT_MEASURED.into(), duration_text);
                    format!(
                        "{}× {} (mean {}, {}–{})",
                        s.count,
                        value_text(s.total_ns, "ns"),
                        ns(s.mean_ns),
                        ns(s.min_ns),
                        ns(s.max_ns)
                    )
                },
            )
        };
        let mut rows = vec![vec![
            "KERNEL".to_string(),
            "BASE".to_string(),
            "CURRENT".to_string(),
            "TIME".to_string(),
        ]];
        for g in repeated {
            rows.push(vec![
                short_name(&g.name, 60),
                side(g.base),
                side(g.current),
                time_delta_text(g.total_delta_ns()),
            ]);
        }
        for line in render_rows(&rows, &[3]).lines() {
            out.push_str("  ");
            out.push_str(line);
            out.push('\n');
        }
    }
    let explained: Vec<_> = diff
        .by_impact()
        .into_iter()
        .filter(|k| !k.why.is_empty() || !k.changes.is_empty())
        .collect();
    if !explained.is_empty() {
        out.push_str("\nWhy it changed:\n");
        for k in explained.into_iter().take(DEFAULT_MAX_CHANGES) {
            out.push_str(&format!(
                "  {}→{} {}\n",
                k.base_id,
                k.current_id,
                short_name(&k.name, MAX_NAME_CHARS)
            ));
            for c in &k.changes {
                out.push_str(&format!("      = {c}\n"));
            }
            for w in export::listed_why(&k.why) {
                let mark = match w.agrees {
                    Some(true) => '+',
                    Some(false) => '-',
                    None => '·',
                };
                out.push_str(&format!("      {mark} {}\n", w.text));
            }
        }
    }
    if failures.is_empty() {
        out.push_str("\nResult: no --fail-on rule fired\n");
    } else {
        out.push_str(&format!(
            "\nResult: {}:\n",
            crate::model::format::count_text(failures.len(), "failure", "failures")
        ));
        for f in failures {
            out.push_str(&format!("  - {}\n", failure_line(f)));
        }
    }
    out
}
