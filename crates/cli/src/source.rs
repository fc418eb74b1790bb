//! `sightline source`: the Source page of every result: per CUDA line and per SASS instruction,
//! the metric columns of Nsight Compute's Source page, as JSON or as ncu's CSV. The arguments
//! become a [`SourceRequest`]; the writers are `output::source_json` and `output::source_csv`.

use crate::analysis::source::SourceOptions;
use crate::analysis::source::pages::SourcePages;
use crate::analysis::source::request::{ResultChoice, SourceFormat, SourceRequest, StallDetail};
use crate::choice_arg::choice_parser;
use crate::output::source_csv::render_csv;
use crate::output::source_json::write_json;
use crate::parse;
use std::io::Write;
use std::path::PathBuf;

/// The arguments of `source`.
#[derive(Debug, clap::Args)]
pub struct SourceArgs {
    /// Print JSON (the same as `--format json`).
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print the SASS listing as Nsight Compute's `--page source --csv` does (the same as
    /// `--format csv`).
    #[arg(long)]
    pub csv: bool,
    /// Output form: json (the default) or csv (the SASS listing as Nsight Compute's `--page
    /// source --csv` prints it).
    #[arg(long, value_parser = choice_parser::<SourceFormat>(), conflicts_with_all = ["json", "csv"])]
    pub format: Option<SourceFormat>,
    /// Treat every warning (a skipped result, section, metric or line) as an error.
    #[arg(long)]
    pub strict: bool,
    /// Only results whose kernel name contains this text.
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,
    /// A folder to look for CUDA source files in (repeatable), for reports made without
    /// `--import-source yes`.
    #[arg(long = "source-dir", value_name = "DIR")]
    pub source_dirs: Vec<PathBuf>,
    /// SASS text from an export of `ncu -i FILE --page source --csv --print-source sass`, for
    /// machines without nvdisasm.
    #[arg(long, value_name = "FILE")]
    pub sass_csv: Option<PathBuf>,
    /// A baseline report: each line gains the change of every metric column from the baseline
    /// result of the same kernel (`delta`), lines matched by place, then by text.
    #[arg(long, value_name = "FILE", conflicts_with = "csv")]
    pub baseline: Option<PathBuf>,
    /// Reports to read (.ncu-rep made with the SourceCounters section).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

impl SourceArgs {
    /// The Source pages these arguments ask for.
    pub fn request(&self) -> SourceRequest {
        let (format, json_by_name) = SourceFormat::pick(self.format, self.json, self.csv);
        SourceRequest {
            files: self.files.clone(),
            results: ResultChoice::Named(self.kernel.clone()),
            source_dirs: self.source_dirs.clone(),
            sass_csv: self.sass_csv.clone(),
            baseline: self.baseline.clone(),
            format,
            errors_on_stderr: !json_by_name,
            stalls: StallDetail::Full,
            strict: self.strict,
        }
    }
}

/// Runs the command.
pub fn run(args: &SourceRequest) -> i32 {
    let mut options = SourceOptions {
        source_dirs: args.source_dirs.clone(),
        disassembler: Some(parse::sass::Disassembler::found()),
        ..SourceOptions::default()
    };
    if let Some(path) = &args.sass_csv {
        match std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|b| parse::source_csv::parse(&b).map_err(|e| e.to_string()))
        {
            Ok(export) => options.sass = export.sass_by_address(),
            Err(e) => {
                crate::warnings::tell("error", format!("{}: {e}", path.display()));
                return 2;
            }
        }
    }
    let mut errors = Vec::new();
    // What each report skipped: told on stderr, errors under --strict.
    let mut warnings = Vec::new();
    let baseline = match &args.baseline {
        Some(path) => match SourcePages::read(path, &mut warnings) {
            Ok(loaded) => loaded.views(&options, &args.results),
            Err(e) => {
                crate::warnings::tell("error", e);
                return 2;
            }
        },
        None => Vec::new(),
    };
    let mut reports = Vec::new();
    for path in &args.files {
        match SourcePages::read(path, &mut warnings) {
            Ok(loaded) => reports.push(loaded),
            Err(e) => errors.push(e),
        }
    }
    let choice = &args.results;
    // The views that could not be made, told after the output.
    let mut view_errors = Vec::new();
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let written = if args.format == SourceFormat::Csv {
        reports.iter().try_for_each(|loaded| {
            loaded.map_views(
                &options,
                choice,
                |v, _| render_csv(v),
                |text| match text {
                    Ok(text) => stdout.write_all(text.as_bytes()),
                    Err(e) => {
                        view_errors.push(e);
                        Ok(())
                    }
                },
            )
        })
    } else {
        write_json(
            &mut stdout,
            &reports,
            &errors,
            &baseline,
            &options,
            args,
            &mut view_errors,
        )
    };
    let write_failed = crate::output::table::write_failed(written.and_then(|()| stdout.flush()));
    drop(stdout);
    if args.errors_on_stderr {
        for e in &errors {
            crate::warnings::tell("error", e);
        }
        for e in &view_errors {
            crate::warnings::tell("error", e);
        }
    }
    for w in &warnings {
        crate::warnings::tell(if args.strict { "error" } else { "warning" }, w);
    }
    if errors.is_empty() && (!args.strict || warnings.is_empty()) && !write_failed {
        0
    } else {
        2
    }
}
