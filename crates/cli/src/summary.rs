//! `sightline summary`: one row per result of every file, as a table, JSON, CSV or HTML. The
//! arguments become a [`SummaryRequest`]; the writers are `output::summary_*`.

use super::loading::load_all;
use crate::analysis::path_names::distinct_names;
use crate::analysis::summary_request::{SummaryFormat, SummaryRequest};
use crate::choice_arg::choice_parser;
use crate::output::table::finish;
use std::io::Write;
use std::path::PathBuf;

/// The arguments of `summary`.
#[derive(Debug, clap::Args)]
pub struct SummaryArgs {
    /// Print JSON instead of a table (the same as `--format json`).
    #[arg(long)]
    pub json: bool,
    /// Print CSV instead of a table: one row per result, numbers in base units (the same as
    /// `--format csv`).
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    /// Output form: text (a table), json, csv, or html (one self-contained page with a chart
    /// of the longest results, for CI artifacts).
    #[arg(long, value_parser = choice_parser::<SummaryFormat>(), conflicts_with_all = ["json", "csv"])]
    pub format: Option<SummaryFormat>,
    /// Treat every warning (a skipped result, section, metric or line) as an error.
    #[arg(long)]
    pub strict: bool,
    /// Files to read.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

impl SummaryArgs {
    /// The summary these arguments ask for.
    pub fn request(&self) -> SummaryRequest {
        SummaryRequest {
            files: self.files.clone(),
            format: SummaryFormat::pick(self.format, self.json, self.csv),
            strict: self.strict,
        }
    }
}

/// Loads every file, prints the summary, and returns the exit code: 0 when every file loaded
/// with results, 2 when one could not be read as a result or yielded none (or, with `strict`,
/// gave any warning). Warnings and unreadable files go to stderr.
pub fn run(request: &SummaryRequest) -> i32 {
    let (mut reports, errors) = load_all(&request.files);
    let code = match request.format {
        SummaryFormat::Json => {
            let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
            let failed = crate::output::table::write_failed(
                crate::output::summary_json::write_json(&mut stdout, &mut reports, &errors)
                    .and_then(|()| stdout.flush()),
            );
            if errors.is_empty() && !failed { 0 } else { 2 }
        }
        SummaryFormat::Csv => {
            for e in &errors {
                crate::warnings::tell("error", e);
            }
            let stdout = std::io::BufWriter::new(std::io::stdout().lock());
            let failed = crate::output::table::write_failed(crate::output::summary_csv::write_csv(
                stdout,
                &mut reports,
            ));
            if errors.is_empty() && !failed { 0 } else { 2 }
        }
        SummaryFormat::Text => finish(
            &crate::output::summary_table::render_table(&reports),
            &errors,
            false,
        ),
        SummaryFormat::Html => {
            let names = distinct_names(&reports.iter().map(|r| &r.source).collect::<Vec<_>>());
            let title = format!("Summary: {}", names.join(", "));
            finish(
                &crate::output::summary_html::summary_html(&reports, &title),
                &errors,
                false,
            )
        }
    };
    let failed = super::warnings::report_problems(&reports, request.strict);
    super::loading::leave_for_exit(reports);
    match code {
        0 if failed => 2,
        code => code,
    }
}
