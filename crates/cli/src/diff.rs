//! `sightline diff BASE CURRENT`: compares two reports of any form kernel by kernel, for people
//! (text, Markdown) and for CI (JSON, CSV, exit code). The arguments become a
//! `CompareRequest`; the writers are `output::compare`.

use crate::analysis::compare::export::DEFAULT_MAX_CHANGES;
use crate::analysis::compare::fail_on::FailOn;
use crate::analysis::compare::metric_diff::DEFAULT_THRESHOLD_PCT;
use crate::analysis::compare::request::{self, DiffFormat};
use crate::analysis::compare::{CompareRequest, DiffOptions, Keep, RenamePolicy};
use crate::choice_arg::choice_parser;
use crate::output::compare::{self as compare_out, MarkdownOptions};
use crate::output::spill::{Piece, Pieces, Spill};
use crate::parse;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// Exit code when nothing got worse.
pub const EXIT_OK: i32 = 0;
/// Exit code when a `--fail-on` rule fired.
pub const EXIT_REGRESSION: i32 = 1;
/// Exit code when an input could not be read.
pub const EXIT_UNREADABLE: i32 = 2;

/// Arguments of `sightline diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// Changes smaller than this percentage count as unchanged (`5` or `5%`).
    #[arg(long, default_value_t = DEFAULT_THRESHOLD_PCT, value_parser = parse_threshold)]
    pub threshold: f64,
    /// Output form.
    #[arg(long, default_value = "text", value_parser = choice_parser::<DiffFormat>())]
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

/// What a pair gives the output while the comparison goes on: its CSV rows, or where its
/// JSON item was kept.
enum Rendered {
    Text(Vec<u8>),
    Kept(Piece),
}

/// Loads both reports, prints the comparison and returns the exit code: 0 when no `--fail-on`
/// rule fired (by default: no matched kernel's duration worse by more than 5 %, no kernel only
/// in the base), 1 when one did, 2 when an input could not be read.
pub fn run(args: &DiffArgs) -> i32 {
    // Both reports are read at once: each read is one thread reading its file while others
    // decode what it read.
    let loaded = std::thread::scope(|scope| {
        let current = scope.spawn(|| parse::load_path(&args.current));
        let base = parse::load_path(&args.base);
        (base, current.join())
    });
    let (base, current) = match loaded {
        (base, Ok(current)) => (base, current),
        (_, Err(panic)) => std::panic::resume_unwind(panic),
    };
    let (base, current) = match (base, current) {
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
    // failures before the pairs, keeps the pairs' text in temporary files (one per core,
    // written by that core) until the comparison is complete. Memory does not grow with the
    // results.
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
    // JSON: each pair's item is kept, where it was made, in a temporary file of that core.
    let spill = (args.format == DiffFormat::Json).then(Spill::new);
    let mut pieces = Pieces::default();
    let mut failed: Option<std::io::Error> = None;
    if args.format == DiffFormat::Csv {
        failed = out.write_all(&compare_out::csv_header()).err();
    }
    let format = args.format;
    let diff = request.run_each(
        &base,
        &current,
        |pair| match (format, &spill) {
            (DiffFormat::Json, Some(spill)) => spill
                .put(|text| compare_out::pair_json::append_pair_json_item(pair, text))
                .map(Rendered::Kept),
            (DiffFormat::Csv, _) => compare_out::pair_csv(pair).map(Rendered::Text),
            _ => Ok(Rendered::Text(Vec::new())),
        },
        |rendered| {
            if failed.is_some() || !matches!(format, DiffFormat::Json | DiffFormat::Csv) {
                return;
            }
            failed = match rendered {
                Ok(Rendered::Kept(piece)) => {
                    pieces.push(piece);
                    None
                }
                Ok(Rendered::Text(text)) => out.write_all(&text).err(),
                Err(e) => Some(e),
            };
        },
    );
    let failures = fail_on.check(&diff);
    let written = match failed {
        Some(e) => Err(e),
        None => match args.format {
            DiffFormat::Text => {
                let text = compare_out::text::render_text(&diff, &base, &current, &failures);
                out.write_all(crate::model::safe_text::visible(&text).as_bytes())
            }
            DiffFormat::Md => {
                let text = compare_out::to_markdown(
                    &diff,
                    &MarkdownOptions {
                        title: compare_out::text::title(&base, &current),
                        max_changes: DEFAULT_MAX_CHANGES,
                    },
                ) + &compare_out::failures::failures_markdown(&failures);
                out.write_all(text.as_bytes())
            }
            DiffFormat::Json => compare_out::document::write_json(
                &mut out,
                compare_out::document::json_document(&diff, &base, &current, &fail_on, &failures),
                spill.map(|spill| (spill, pieces)),
            ),
            DiffFormat::Csv => compare_out::write_csv_unmatched(&mut out, &diff),
            DiffFormat::Html => {
                let title = compare_out::text::title(&base, &current);
                let page = compare_out::html::diff_html(&diff, &base, &current, &title);
                out.write_all(compare_out::failures::with_failures_html(page, &failures).as_bytes())
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
