//! A report read for its Source pages: its results and its code (modules and imported
//! sources, read from the file without the rest of it), and the Source page of each result
//! asked for, built a window of results at a time on every core.

use super::SourceOptions;
use super::request::ResultChoice;
use crate::analysis::parallel::map_ordered;
use crate::model::source::SourceView;
use crate::parse::{self, LoadError};
use std::path::{Path, PathBuf};

/// A report read for its Source pages: its results and its code (the modules and imported
/// sources, read from the file without the rest of it).
pub struct SourcePages {
    path: PathBuf,
    report: crate::model::Report,
    code: parse::ncu_rep::ReportCode,
}

impl SourcePages {
    /// Reads a report; what it skipped is added to `warnings`.
    pub fn read(path: &Path, warnings: &mut Vec<String>) -> Result<Self, LoadError> {
        // The results are opened with their bodies read on demand (each view decodes a copy);
        // the code the views disassemble is read apart, without the results around it.
        let report = parse::load_path(path)?;
        warnings.extend(
            report
                .warnings
                .iter()
                .map(|w| format!("{}: {w}", path.display())),
        );
        // Read through the open report: a compressed one is not decompressed again.
        let code = match (report.format, report.results.first()) {
            (crate::model::Format::NcuRep, Some(first)) => {
                parse::ncu_rep::read_code_of(path, first)?
            }
            _ => parse::ncu_rep::ReportCode::default(),
        };
        Ok(Self::from_parts(path, report, code))
    }

    /// The file the report was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A report already read, with its code (the file at `path`).
    pub fn from_parts(
        path: &Path,
        report: crate::model::Report,
        code: parse::ncu_rep::ReportCode,
    ) -> Self {
        SourcePages {
            path: path.to_path_buf(),
            report,
            code,
        }
    }

    /// The places of the results `choice` chooses.
    pub fn selected(&self, choice: &ResultChoice) -> Vec<usize> {
        choice.places(&self.report)
    }

    /// The Source page of result `i` (an error as text).
    pub fn view(&self, i: usize, options: &SourceOptions) -> Result<SourceView, String> {
        // A body read on demand is decoded into a copy, dropped with the view's inputs.
        let r = self.report.results[i].transient();
        let r = r.as_ref();
        let mangled = r.name.mangled.as_deref().unwrap_or(&r.name.function);
        let code =
            self.code
                .index
                .kernel_code(&self.code.bytes, mangled, super::function_address(r));
        super::build(r, code.as_ref(), options)
            .map_err(|e| format!("{} (result {}): {e}", r.name.demangled, r.id))
    }

    /// Builds the Source page of every selected result and hands `render(view, place among the
    /// selected)` to `each` in order: a window of results at a time on every core, each view
    /// dropped once rendered.
    pub fn map_views<T: Send>(
        &self,
        options: &SourceOptions,
        choice: &ResultChoice,
        render: impl Fn(&SourceView, usize) -> T + Sync,
        mut each: impl FnMut(Result<T, String>) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let selected = self.selected(choice);
        map_ordered(
            selected.len(),
            |k| self.view(selected[k], options).map(|v| render(&v, k)),
            |_, t| each(t),
        )
    }

    /// Every Source page of the selected results that could be made.
    pub fn views(&self, options: &SourceOptions, choice: &ResultChoice) -> Vec<SourceView> {
        self.selected(choice)
            .into_iter()
            .filter_map(|i| self.view(i, options).ok())
            .collect()
    }
}
