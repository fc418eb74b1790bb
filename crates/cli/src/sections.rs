//! `sightline sections`: every section body (charts and tables) of every result, with the
//! values resolved: bar by bar, cell by cell; with a baseline, every value with both sides
//! and the change. The arguments become a [`SectionsRequest`]; the writers are
//! `output::sections_text` and `output::sections_json`.

use super::loading::{leave_for_exit, load_all};
use crate::analysis::sections::request::{SectionsFormat, SectionsRequest};
use crate::choice_arg::choice_parser;
use crate::output::sections_json::{write_compared_json, write_json};
use crate::output::sections_text::{write_compared_text, write_text};
use crate::output::table::finish;
use std::io::Write;
use std::path::PathBuf;

/// The arguments of `sections`.
#[derive(Debug, clap::Args)]
pub struct SectionsArgs {
    /// Print JSON instead of text (the same as `--format json`).
    #[arg(long)]
    pub json: bool,
    /// Output form: text or json.
    #[arg(long, value_parser = choice_parser::<SectionsFormat>(), conflicts_with = "json")]
    pub format: Option<SectionsFormat>,
    /// A baseline report: each result's bodies are paired with those of its kernel in the
    /// baseline (matched as `diff` matches them), every value with both sides and the
    /// change.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Treat every warning (a skipped result, section, metric or line) as an error.
    #[arg(long)]
    pub strict: bool,
    /// Files to read.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

impl SectionsArgs {
    /// The section bodies these arguments ask for.
    pub fn request(&self) -> SectionsRequest {
        SectionsRequest {
            files: self.files.clone(),
            baseline: self.baseline.clone(),
            format: SectionsFormat::pick(self.format, self.json),
            strict: self.strict,
        }
    }
}

/// Runs the command.
/// Every report's warnings (the baseline's too) go to stderr; `strict` makes them errors.
pub fn run(request: &SectionsRequest) -> i32 {
    let baseline = match &request.baseline {
        Some(path) => match load_all(std::slice::from_ref(path)) {
            (mut reports, _) if !reports.is_empty() => Some(reports.remove(0)),
            (_, errors) => {
                for e in errors {
                    crate::warnings::tell("error", e);
                }
                return 2;
            }
        },
        None => None,
    };
    let as_json = request.format == SectionsFormat::Json;
    let (mut reports, errors) = load_all(&request.files);
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let mut baseline = baseline;
    let written = match &mut baseline {
        Some(base) if as_json => write_compared_json(&mut stdout, base, &mut reports, &errors),
        Some(base) => reports
            .iter_mut()
            .try_for_each(|r| write_compared_text(&mut stdout, base, r)),
        None if as_json => write_json(&mut stdout, &mut reports, &errors),
        None => reports
            .iter_mut()
            .try_for_each(|r| write_text(&mut stdout, r)),
    };
    let write_failed = crate::output::table::write_failed(written.and_then(|()| stdout.flush()));
    drop(stdout);
    let code = finish("", &errors, as_json);
    let failed = match &baseline {
        Some(base) => {
            super::warnings::report_problems(std::iter::once(base).chain(&reports), request.strict)
        }
        None => super::warnings::report_problems(&reports, request.strict),
    };
    leave_for_exit(reports);
    if let Some(base) = baseline {
        leave_for_exit(vec![base]);
    }
    super::loading::exit_code(code, failed || write_failed)
}
