//! The data of the Source page: the selected result's Source view, built on demand from the
//! report file's full bytes (the loaded report leaves the cubins out), with the report's folder
//! searched for source files the report does not hold.

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
