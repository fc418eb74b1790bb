//! nvdisasm is bounded: a run that hangs is stopped after the time limit and the page says
//! so. The hanging nvdisasm is a stand-in that answers `--version` as CUDA 13.0's does and then
//! never finishes (`sightline_testkit::hanging_nvdisasm`). That a `sightline source` ended by
//! SIGTERM while nvdisasm runs leaves nothing in the temporary folder is a test of the binary:
//! `tests/cli/interrupted_commands.rs` of the root package.

use sightline_engine::parse::sass::Disassembler;
use sightline_testkit::hanging_nvdisasm;
use std::time::{Duration, Instant};

#[test]
fn a_hanging_nvdisasm_is_stopped_and_the_page_says_so() {
    let dir = sightline_testkit::temp_dir("sass_hang");
    let tool = hanging_nvdisasm(&dir);
    let report = sightline_testkit::fixture_file(&dir, "h100/kernels_full.ncu-rep.xz");
    let parsed = sightline_engine::parse::load_path(&report).expect("report");
    let disassembler = Disassembler::only([tool])
        .with_cache(None)
        .with_time_limit(Duration::from_secs(1));
    let started = Instant::now();
    let view = sightline_app::views::source::load(
        Some(&report),
        &parsed.results[3],
        Default::default(),
        &disassembler,
    )
    .expect("view");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    assert!(
        view.notes
            .iter()
            .any(|n| n.contains("gave no answer in 1 s and was stopped")),
        "{:?}",
        view.notes
    );
    assert!(view.instructions.iter().all(|i| i.sass.is_none()));
    let _ = std::fs::remove_dir_all(&dir);
}
