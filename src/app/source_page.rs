//! The data of the Source page: the selected result's Source view, built on demand from the
//! report file's full bytes (the loaded report leaves the cubins out), with the report's folder
//! searched for source files the report does not hold; with a baseline, the per-line changes
//! from the baseline result's view.

use crate::analysis::source::compare::{SourceComparison, compare};
use crate::analysis::source::{self, SourceOptions};
use crate::model::KernelResult;
use crate::model::source::SourceView;
use crate::parse::ncu_rep::CodeIndex;
use std::path::Path;

/// Builds the Source view of `result`, read from the report at `path`.
pub fn load(path: Option<&Path>, result: &KernelResult) -> Result<SourceView, String> {
    let Some(path) = path else {
        return Err("The Source page needs a .ncu-rep report file (made with --set full).".into());
    };
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !crate::parse::detect::is_ncu_rep(&bytes) {
        return Err("The Source page needs a .ncu-rep report: text and CSV exports hold no per-instruction metrics.".into());
    }
    let index = CodeIndex::new(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let mangled = result
        .name
        .mangled
        .as_deref()
        .unwrap_or(&result.name.function);
    let code = index.kernel_code(&bytes, mangled, source::function_address(result));
    let options = SourceOptions {
        source_dirs: path.parent().map(Path::to_path_buf).into_iter().collect(),
        disassemble: true,
        ..SourceOptions::default()
    };
    source::build(result, code.as_ref(), &options).map_err(|e| e.to_string())
}

/// The baseline's Source view and the per-line changes from it, or why there are none.
pub type Compared = Result<(SourceView, SourceComparison), String>;

/// The baseline's Source view and the per-line changes from it to `current`.
pub fn compare_with(
    current: &SourceView,
    base_path: Option<&Path>,
    base: &KernelResult,
) -> Compared {
    let base_view = load(base_path, base).map_err(|e| format!("Baseline: {e}"))?;
    let comparison = compare(&base_view, current);
    Ok((base_view, comparison))
}
