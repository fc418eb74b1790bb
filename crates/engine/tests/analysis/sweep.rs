//! A sweep over problem sizes on `fixtures/sweep/` (one GEMM in versions v1, v3 and v5, the
//! kernel renamed `gemm_step` → `gemm_tiled_2d` in v5, each profiled at N = 256, 512, 1024 and
//! 2048 in folders `N=SIZE/`): the sizes and versions read from the paths, the rename one
//! kernel, each version's duration and achieved FLOP/s at each size NVIDIA's values, a size
//! pattern given by hand, and the reports that cannot be placed said or refused; and the
//! window's view-model of it.

use crate::common;

use common::fixture_path;
use common::sweep_fixture::{SIZES, VERSIONS, function, truth_figures};
use sightline::analysis::series::sizes::SizePattern;
use sightline::analysis::series::sweep::{Sweep, SweepError, SweepFigure, SweepOptions, sweep};
use sightline::model::Report;
use std::path::PathBuf;

/// The fixture reports, read as they lie (compressed), with their paths.
fn fixture_reports() -> (Vec<Report>, Vec<PathBuf>) {
    let mut reports = Vec::new();
    let mut paths = Vec::new();
    for size in SIZES {
        for version in VERSIONS {
            let path = fixture_path(&format!("sweep/N={size}/{version}.ncu-rep.xz"));
            reports.push(sightline::parse::load_path(&path).expect("a fixture report"));
            paths.push(path);
        }
    }
    (reports, paths)
}

fn build(reports: &[Report], paths: &[PathBuf], options: &SweepOptions) -> Sweep {
    let refs: Vec<&Report> = reports.iter().collect();
    sweep(&refs, paths, options).expect("a sweep")
}

/// Every version's duration and FLOP/s at every size, NVIDIA's values to the bit.
pub fn assert_nvidias_figures(s: &Sweep) {
    assert_eq!(s.sizes, SIZES);
    assert_eq!(s.versions, VERSIONS);
    assert_eq!(s.kernels.len(), 1, "the rename v3 → v5 is one kernel");
    let gemm = &s.kernels[0];
    assert_eq!(gemm.names, ["gemm_step", "gemm_tiled_2d"]);
    assert_eq!(gemm.name, "gemm_tiled_2d");
    assert_eq!(
        gemm.lines
            .iter()
            .map(|l| l.version.as_str())
            .collect::<Vec<_>>(),
        VERSIONS
    );
    for line in &gemm.lines {
        for (size, point) in SIZES.iter().zip(&line.points) {
            let p = point.as_ref().expect("a point at every size");
            let (mean, rate) = truth_figures(&line.version, *size);
            let at = format!("{} N={size}", line.version);
            assert_eq!(p.launches.name, function(&line.version), "{at}");
            assert_eq!(p.launches.launches, 1, "{at}");
            assert_eq!(p.launches.mean_ns, mean, "{at}: duration");
            assert_eq!(p.flop_per_s, Some(rate), "{at}: FLOP/s");
            assert_eq!(SweepFigure::FlopRate.value(p), Some(rate));
            // What the figure means: a GEMM does 2·N³ floating-point operations, so the
            // achieved rate over the kernel's time is that work, within what the cycle
            // counters and the timer disagree by.
            let flop = rate * mean * 1e-9;
            let expected = 2.0 * (*size as f64).powi(3);
            assert!(
                (flop / expected - 1.0).abs() < 0.02,
                "{at}: {flop} FLOP against 2·N³ = {expected}"
            );
        }
    }
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

/// The Trend page's "By size" view-model on the open reports: a line per version of the
/// chosen figure against the size (log10 where the values span more than tenfold), the table
/// behind it spelled as every output spells it, a size pattern typed on the page, and what it
/// answers when the sweep cannot be built.
#[test]
fn the_window_view_model_charts_each_version_against_the_size() {
    use sightline::app::AppState;
    use sightline::app::views::sweep::{SweepStatus, SweepView};
    use sightline::model::format::{measured_text, value_text};
    let (reports, _) = fixture_reports();
    let mut state = AppState::default();
    let mut view = SweepView::default();
    let mut reports = reports.into_iter();
    // Reports added without a file are placed by their names.
    for size in SIZES {
        for version in VERSIONS {
            let report = reports.next().expect("a report");
            state.add_loaded_report(format!("sweep/N={size}/{version}.ncu-rep"), report);
            if state.workspace().reports().len() == 1 {
                assert!(matches!(
                    view.status(state.workspace(), true, || {}),
                    SweepStatus::TooFew
                ));
            }
        }
    }
    let SweepStatus::Ready(data) = view.status(state.workspace(), true, || {}) else {
        panic!("no sweep");
    };
    assert_nvidias_figures(&data.sweep);
    for (figure, unit) in [
        (SweepFigure::Duration, "ns"),
        (SweepFigure::FlopRate, "FLOP/s"),
    ] {
        let chart = data.chart(0, figure);
        // Sizes from 256 to 2048 span eightfold: a linear axis; both figures span more than
        // tenfold (12.64 us to 17.92 ms; 0.83 to 8.58 TFLOP/s): log10.
        assert!(!chart.log_x && chart.log_y, "{figure:?}");
        assert_eq!(chart.unit, unit);
        assert_eq!(chart.size_marks, SIZES.map(|s| s as f64));
        let (heads, rows) = data.table(0, figure);
        assert_eq!(heads, ["N=256", "N=512", "N=1024", "N=2048"]);
        for ((line, (version, cells)), expected) in chart.lines.iter().zip(&rows).zip(VERSIONS) {
            assert_eq!(line.version, expected);
            assert_eq!(version, expected);
            for ((point, cell), size) in line.points.iter().zip(cells).zip(SIZES) {
                let (mean, rate) = truth_figures(expected, size);
                let value = if figure == SweepFigure::Duration {
                    mean
                } else {
                    rate
                };
                assert_eq!(*point, [size as f64, value.log10()]);
                let text = if figure == SweepFigure::Duration {
                    measured_text(mean, "ns")
                } else {
                    value_text(rate, "FLOP/s")
                };
                assert_eq!(*cell, text);
            }
        }
    }
    // A pattern typed and confirmed reads the sizes with it; one that cannot be read says why.
    view.pattern_text = r"N=(\d+)".into();
    view.confirm_pattern();
    let SweepStatus::Ready(data) = view.status(state.workspace(), true, || {}) else {
        panic!("no sweep with the pattern");
    };
    assert_eq!(data.sweep.size_pattern.as_deref(), Some(r"N=(\d+)"));
    assert_nvidias_figures(&data.sweep);
    view.pattern_text = r"N=\d+".into();
    view.confirm_pattern();
    let SweepStatus::Failed(why) = view.status(state.workspace(), true, || {}) else {
        panic!("a pattern without a group was read");
    };
    assert!(why.contains("no group for the size"), "{why}");
}
