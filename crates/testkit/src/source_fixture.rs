//! The Source page's fixtures: the launches of `kernels_full` as `fixtures/source/` names
//! their exports, ncu's Source page exports read, the Source page the engine builds for the
//! results of a report fixture, and the inlined-call program's `inline_chain` kernel in its
//! two reports (`source/inl_nosrc` as the baseline of `source/inl_src`) with ncu's per-line
//! listings of it.

use sightline_engine::analysis::source::{self, SourceOptions};
use sightline_engine::model::KernelResult;
use sightline_engine::model::source::SourceView;
use sightline_engine::parse::ncu_rep::CodeIndex;
use sightline_engine::parse::source_csv::{self, LineListing, LineRow, SourceExport};
use std::path::{Path, PathBuf};

/// Every launch of `kernels_full`, as `fixtures/source/kernels_full/` names its exports.
pub const KERNELS_FULL: [&str; 13] = [
    "k00_vector_add",
    "k01_vector_add",
    "k02_strided_copy",
    "k03_matmul_naive",
    "k04_matmul_tiled",
    "k05_dgemm_naive",
    "k06_reduce_bank_conflicts",
    "k07_reduce_sequential",
    "k08_conv2d_naive",
    "k09_convolutionConstantKernel",
    "k10_register_hog",
    "k11_divergent_branches",
    "k12_tiny_grid",
];

/// The bytes of an export that is stored plain or xz-compressed.
pub fn export(rel: &str) -> SourceExport {
    let rel = if crate::fixture_path(rel).exists() {
        rel.to_string()
    } else {
        format!("{rel}.xz")
    };
    source_csv::parse(&crate::fixture_bytes(&rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The Source page of every result of a report fixture.
pub fn views(rel: &str, options: &SourceOptions) -> Vec<SourceView> {
    let bytes = crate::fixture_bytes(rel);
    let name = crate::fixture_path(rel.trim_end_matches(".xz"));
    let report = sightline_engine::parse::parse_bytes(&name, &bytes).expect("report");
    let index = CodeIndex::new(&bytes).expect("code index");
    report
        .results
        .iter()
        .map(|r| {
            let mangled = r.name.mangled.as_deref().expect("mangled name");
            let code = index
                .kernel_code(&bytes, mangled, source::function_address(r))
                .expect("module of the result");
            source::build(r, Some(&code), options).expect("source view")
        })
        .collect()
}

/// A report fixture's result whose demangled name contains `kernel`, and its Source page.
pub fn result_and_view(
    rel: &str,
    kernel: &str,
    options: &SourceOptions,
) -> (sightline_engine::model::KernelResult, SourceView) {
    let bytes = crate::fixture_bytes(rel);
    let name = crate::fixture_path(rel.trim_end_matches(".xz"));
    let report = sightline_engine::parse::parse_bytes(&name, &bytes).expect("report");
    let index = CodeIndex::new(&bytes).expect("code index");
    let r = report
        .results
        .iter()
        .find(|r| r.name.demangled.contains(kernel))
        .unwrap_or_else(|| panic!("{rel}: no kernel {kernel}"))
        .clone();
    let mangled = r.name.mangled.as_deref().expect("mangled name");
    let code = index
        .kernel_code(&bytes, mangled, source::function_address(&r))
        .expect("module of the result");
    let view = source::build(&r, Some(&code), options).expect("source view");
    (r, view)
}

/// The `inline_chain` view of a report of `fixtures/source/`, its text found in `fixtures/`.
pub fn chain(report: &str) -> SourceView {
    let options = SourceOptions {
        source_dirs: vec![crate::repo_path("fixtures")],
        ..SourceOptions::default()
    };
    crate::source_fixture::result_and_view(
        &format!("source/{report}.ncu-rep.xz"),
        "inline_chain",
        &options,
    )
    .1
}

/// ncu's per-line listing of the kernel in one report.
pub fn ncu_lines(report: &str) -> LineListing {
    let rel = format!("source/{report}.inline_chain.source_cuda_sass.csv.xz");
    let mut export = source_csv::parse(&crate::fixture_bytes(&rel)).expect("export");
    assert_eq!(export.lines.len(), 1, "{rel}: one file");
    export.lines.remove(0)
}

/// The row of ncu's listing for a CUDA line.
pub fn ncu_row(listing: &LineListing, line: u32) -> &LineRow {
    listing
        .lines
        .iter()
        .find(|r| r.line == line)
        .unwrap_or_else(|| panic!("line {line} not in ncu's listing"))
}

/// The position of a metric column in ncu's listing.
pub fn ncu_column(listing: &LineListing, name: &str) -> usize {
    listing
        .columns
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("column {name} not in ncu's listing"))
}

/// The two reports of the inlined-call program as files in `dir` (the one without imported
/// source as the baseline) and their `inline_chain` results.
pub fn inline_chain_pair(dir: &Path) -> (PathBuf, PathBuf, KernelResult, KernelResult) {
    let base = crate::fixture_file(dir, "source/inl_nosrc.ncu-rep.xz");
    let current = crate::fixture_file(dir, "source/inl_src.ncu-rep.xz");
    let pick = |path: &Path| {
        let report = sightline_engine::parse::load_path(path).expect("report");
        report
            .results
            .into_iter()
            .find(|r| r.name.demangled.starts_with("inline_chain"))
            .expect("kernel")
    };
    let (base_result, current_result) = (pick(&base), pick(&current));
    (base, current, base_result, current_result)
}
