//! The Trend page's "By size" view-model on the sweep of `fixtures/sweep/` (one GEMM in
//! versions v1, v3 and v5, each profiled at four sizes): each version charted against the size
//! with NVIDIA's figures. The sweep itself is tested in crates/engine/tests/analysis/sweep.rs.

use sightline_engine::analysis::series::sweep::SweepFigure;
use sightline_testkit::sweep_fixture::{
    SIZES, VERSIONS, assert_nvidias_figures, fixture_reports, truth_figures,
};

/// The Trend page's "By size" view-model on the open reports: a line per version of the
/// chosen figure against the size (log10 where the values span more than tenfold), the table
/// behind it spelled as every output spells it, a size pattern typed on the page, and what it
/// answers when the sweep cannot be built.
#[test]
fn the_window_view_model_charts_each_version_against_the_size() {
    use sightline_app::AppState;
    use sightline_app::views::sweep::{SweepStatus, SweepView};
    use sightline_engine::model::format::{measured_text, value_text};
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
