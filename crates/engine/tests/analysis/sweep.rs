//! A sweep over problem sizes on `fixtures/sweep/` (one GEMM in versions v1, v3 and v5, the
//! kernel renamed `gemm_step` → `gemm_tiled_2d` in v5, each profiled at N = 256, 512, 1024 and
//! 2048 in folders `N=SIZE/`): the sizes and versions read from the paths, the rename one
//! kernel, each version's duration and achieved FLOP/s at each size NVIDIA's values, a size
//! pattern given by hand, and the reports that cannot be placed said or refused. (The window's
//! view-model of it is in crates/app/tests/views/sweep_view.rs.)

use sightline_engine::analysis::series::sizes::SizePattern;
use sightline_engine::analysis::series::sweep::{
    Sweep, SweepError, SweepFigure, SweepOptions, sweep,
};
use sightline_engine::model::Report;
use sightline_testkit::fixture_path;
use sightline_testkit::sweep_fixture::{SIZES, VERSIONS, assert_nvidias_figures, fixture_reports};
use std::path::PathBuf;

fn build(reports: &[Report], paths: &[PathBuf], options: &SweepOptions) -> Sweep {
    let refs: Vec<&Report> = reports.iter().collect();
    sweep(&refs, paths, options).expect("a sweep")
}

#[test]
fn a_sweep_gives_nvidias_duration_and_flop_rate_per_version_and_size() {
    let (reports, paths) = fixture_reports();
    let s = build(&reports, &paths, &SweepOptions::default());
    assert_eq!(s.parameter, "N");
    assert!(s.left_out.is_empty(), "{:?}", s.left_out);
    assert_eq!(s.reports.len(), 12);
    assert!(s.reports[0].path.ends_with("N=256/v1.ncu-rep.xz"));
    assert_eq!(
        s.figures(),
        [SweepFigure::Duration, SweepFigure::FlopRate],
        "the reports have the roofline section"
    );
    assert_nvidias_figures(&s);
    // Given in another order, the same sweep.
    let (mut r, mut p) = (reports, paths);
    r.reverse();
    p.reverse();
    assert_eq!(build(&r, &p, &SweepOptions::default()), s);
}

/// Sizes in the file names, read with a pattern given by hand: the same figures, the version
/// what is left of the name.
#[test]
fn a_size_pattern_given_by_hand_reads_sizes_from_file_names() {
    let (reports, paths) = fixture_reports();
    let flat: Vec<PathBuf> = SIZES
        .iter()
        .flat_map(|n| {
            VERSIONS
                .iter()
                .map(move |v| PathBuf::from(format!("runs/gemm-{v}-n{n}.ncu-rep")))
        })
        .collect();
    assert!(matches!(
        sweep(
            &reports.iter().collect::<Vec<_>>(),
            &flat,
            &SweepOptions::default()
        ),
        Err(SweepError::TooFewSizes { .. })
    ));
    let options = SweepOptions {
        pattern: SizePattern::parse(r"-n(\d+)").expect("a pattern"),
        metric: None,
    };
    let s = build(&reports, &flat, &options);
    assert_eq!(s.parameter, "n");
    assert_eq!(s.size_pattern.as_deref(), Some(r"-n(\d+)"));
    assert_eq!(s.versions, ["gemm-v1", "gemm-v3", "gemm-v5"]);
    let by_folder = build(&reports, &paths, &SweepOptions::default());
    assert_eq!(s.sizes, by_folder.sizes);
    assert_eq!(s.kernels.len(), 1);
    for (a, b) in s.kernels[0].lines.iter().zip(&by_folder.kernels[0].lines) {
        assert_eq!(a.points, b.points);
    }
}

/// A report whose path gives no size, or two, is left out and said; two reports of one
/// version at one size, and a sweep of one size, are errors naming what they found.
#[test]
fn reports_that_cannot_be_placed_are_said_or_refused() {
    let (reports, paths) = fixture_reports();
    let mut with_stray: Vec<&Report> = reports.iter().collect();
    let mut stray_paths = paths.clone();
    with_stray.push(&reports[0]);
    stray_paths.push(fixture_path("sweep/baseline.ncu-rep"));
    with_stray.push(&reports[1]);
    stray_paths.push(fixture_path("sweep/N=256/M=64/v3.ncu-rep"));
    let s = sweep(&with_stray, &stray_paths, &SweepOptions::default()).expect("a sweep");
    assert_eq!(s.left_out.len(), 2, "{:?}", s.left_out);
    assert!(s.left_out[0].contains("baseline.ncu-rep: left out of the sweep: no size"));
    assert!(s.left_out[1].contains(
        "v3.ncu-rep: left out of the sweep: its path names several sizes (`N=256`, `M=64`)"
    ));
    assert_nvidias_figures(&s);
    // v1 at N=256 twice.
    let mut twice = stray_paths.clone();
    twice[12] = fixture_path("sweep/v1_N=256.ncu-rep");
    let err = sweep(&with_stray, &twice, &SweepOptions::default()).unwrap_err();
    assert!(matches!(&err, SweepError::Duplicate { version, size: 256, .. } if version == "v1"));
    let text = err.to_string();
    assert!(
        text.contains("N=256/v1.ncu-rep.xz and ") && text.contains("v1_N=256.ncu-rep"),
        "{text}"
    );
    // One size only.
    let one: Vec<&Report> = reports[..3].iter().collect();
    let err = sweep(&one, &paths[..3], &SweepOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "a sweep needs reports at two sizes or more: every report read is at N=256"
    );
}
