//! The Trend page's view-model on real series, without a window, against NVIDIA's values: the
//! GEMM tuned through five versions (renamed at v4) read as measured, as a share of its first
//! and of its fastest run and of a reference kernel launched in the same runs; the value scale
//! chosen by the span of what is charted (the GEMM swept over problem sizes needs a log axis);
//! the changes of the latest run and of each step with their verdicts.

use sightline_app::AppState;
use sightline_app::views::trend::chart::{Reading, ScaleChoice, TrendChart};
use sightline_app::views::trend::{TrendChoice, TrendData, TrendStatus, TrendView};
use sightline_engine::analysis::compare::Verdict;
use sightline_engine::analysis::compare::metric_diff::DEFAULT_THRESHOLD_PCT;
use sightline_engine::analysis::series::SeriesOrder;
use sightline_engine::analysis::series::readings::{LOG_SPAN, Scale};
use sightline_engine::model::names::DURATION;
use sightline_testkit::{load_fixture, load_truth};

/// The app with `reports` (fixture paths) open in that order.
fn opened(reports: &[String]) -> AppState {
    let mut state = AppState::default();
    for rel in reports {
        // Named as the files are: `v1.ncu-rep`, `N=256_v1.ncu-rep` (the runs' labels).
        let name = rel
            .trim_end_matches(".xz")
            .trim_start_matches("series/")
            .trim_start_matches("sweep/")
            .replace('/', "_");
        state.add_loaded_report(name, load_fixture(rel));
    }
    state
}

/// The trend of the open reports, built as the page builds it.
fn trend_of<'v>(view: &'v mut TrendView, state: &AppState) -> &'v TrendData {
    match view.status(state.workspace(), true, || {}) {
        TrendStatus::Ready(data) => data,
        TrendStatus::Failed(e) => panic!("{e}"),
        _ => panic!("the trend was not built"),
    }
}

/// NVIDIA's mean duration of the launches of `functions` (any of them) in the truth `rel`.
fn truth_mean(rel: &str, functions: &[&str]) -> f64 {
    let durations: Vec<f64> = load_truth(rel)
        .iter()
        .filter(|t| functions.contains(&t.function.as_str()))
        .map(|t| t.number(DURATION))
        .collect();
    assert!(!durations.is_empty(), "{rel}: none of {functions:?}");
    durations.iter().sum::<f64>() / durations.len() as f64
}

const GEMM: [&str; 2] = ["gemm_step", "gemm_tiled_2d"];

/// The series' reports, v1 to v5, and NVIDIA's mean duration of `functions` in each.
fn series() -> Vec<String> {
    (1..=5).map(|v| format!("series/v{v}.ncu-rep.xz")).collect()
}

fn series_truth(functions: &[&str]) -> Vec<f64> {
    (1..=5)
        .map(|v| truth_mean(&format!("series/v{v}.truth.json.xz"), functions))
        .collect()
}

/// The scale the span of `values` asks for, by the rule the page states.
fn scale_for(values: &[f64]) -> Scale {
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if hi / lo > LOG_SPAN {
        Scale::Log
    } else {
        Scale::Linear
    }
}

/// The index of the least value (the earliest of equal ones).
fn least(values: &[f64]) -> usize {
    (0..values.len()).fold(0, |best, i| if values[i] < values[best] { i } else { best })
}

fn chart(data: &TrendData, choice: &TrendChoice) -> TrendChart {
    let k = data.kernel_named("gemm_tiled_2d").expect("the GEMM");
    data.chart(k, choice, DEFAULT_THRESHOLD_PCT)
        .expect("the GEMM's chart")
}

fn pct(from: f64, to: f64) -> f64 {
    (to - from) / from * 100.0
}

#[test]
fn each_run_reads_against_the_first_and_the_fastest_run_with_nvidias_values() {
    let state = opened(&series());
    let mut view = TrendView::default();
    let data = trend_of(&mut view, &state);
    let truth = series_truth(&GEMM);
    let c = chart(data, &TrendChoice::default());
    assert_eq!(c.label, "gemm_step \u{2192} gemm_tiled_2d");
    assert_eq!(c.reading, Reading::Measured);
    assert_eq!(c.unit, "ns");
    let measured: Vec<Option<f64>> = c.runs.iter().map(|r| r.measured).collect();
    assert_eq!(measured, truth.iter().map(|&t| Some(t)).collect::<Vec<_>>());
    // From 2.3 ms to 278 us: the GEMM alone spans less than ten times, a linear axis.
    assert_eq!(c.auto_scale, scale_for(&truth));
    assert_eq!(c.scale, c.auto_scale);
    assert!(truth[0] / truth[2] < LOG_SPAN);
    // Shares of the first run and of the fastest (v3).
    let fastest = least(&truth);
    assert_eq!(c.first_run, Some(0));
    assert_eq!(c.best_run, Some(fastest));
    for (i, r) in c.runs.iter().enumerate() {
        assert_eq!(r.of_first, Some(truth[i] / truth[0] * 100.0), "v{}", i + 1);
        assert_eq!(
            r.of_best,
            Some(truth[i] / truth[fastest] * 100.0),
            "v{}",
            i + 1
        );
        assert_eq!(r.of_reference, None);
        assert_eq!(r.shown, r.measured);
    }
    // Each step from the run before, judged at the noise threshold.
    for (i, r) in c.runs.iter().enumerate().skip(1) {
        let step = r.step.expect("a step");
        let change = pct(truth[i - 1], truth[i]);
        assert_eq!(step.change.pct, change, "v{}", i + 1);
        let expected = if change.abs() < DEFAULT_THRESHOLD_PCT {
            Verdict::Unchanged
        } else if change > 0.0 {
            Verdict::Worse
        } else {
            Verdict::Better
        };
        assert_eq!(step.verdict, expected, "v{}", i + 1);
    }
    assert_eq!(c.runs[0].step, None);
    // The latest run (v5) against v4, v1 and the fastest: v5 got slower, and it shows.
    let latest = c.latest.expect("the latest run's changes");
    assert_eq!(latest.latest, 4);
    let previous = latest.previous.expect("against the run before");
    assert_eq!(
        (previous.change.from_run, previous.change.pct),
        (3, pct(truth[3], truth[4]))
    );
    assert_eq!(previous.verdict, Verdict::Worse);
    let first = latest.first.expect("against the first run");
    assert_eq!(first.change.pct, pct(truth[0], truth[4]));
    assert_eq!(first.verdict, Verdict::Better);
    let best = latest.best.expect("against the fastest run");
    assert_eq!(
        (best.change.from_run, best.change.pct),
        (fastest, pct(truth[fastest], truth[4]))
    );
    assert_eq!(best.verdict, Verdict::Worse);
    // The table's row says the same of the latest step.
    let k = c.kernel;
    let row = &data.rows(None, DEFAULT_THRESHOLD_PCT)[k];
    assert_eq!(row.latest, Some(truth[4]));
    assert_eq!(row.change, Some(previous));
    assert!(!row.regressed);
    // Read as a share of the fastest run: the values charted are those shares, on the same
    // scale (a share spans what the values span).
    let of_best = TrendChoice {
        reading: Reading::OfBest,
        ..TrendChoice::default()
    };
    let c = chart(data, &of_best);
    assert_eq!(c.unit, "%");
    let shown: Vec<Option<f64>> = c.runs.iter().map(|r| r.shown).collect();
    let expected: Vec<Option<f64>> = truth
        .iter()
        .map(|&t| Some(t / truth[fastest] * 100.0))
        .collect();
    assert_eq!(shown, expected);
    assert_eq!(c.auto_scale, scale_for(&truth));
    // A scale asked for is the scale drawn.
    let log = TrendChoice {
        scale: ScaleChoice::Log,
        ..TrendChoice::default()
    };
    let c = chart(data, &log);
    assert_eq!((c.scale, c.off_scale, c.unread), (Scale::Log, 0, 0));
}

#[test]
fn a_reference_kernel_reads_each_run_as_a_share_of_it() {
    let state = opened(&series());
    let mut view = TrendView::default();
    let mut choice = TrendChoice::default();
    choice.pick_reference(Some("bias_add".into()));
    assert_eq!(choice.reading, Reading::OfReference);
    let data = trend_of(&mut view, &state);
    let gemm = series_truth(&GEMM);
    let bias = series_truth(&["bias_add"]);
    let c = chart(data, &choice);
    assert_eq!(c.reading, Reading::OfReference);
    let reference = c.reference.as_ref().expect("the reference");
    assert_eq!(reference.label, "bias_add");
    assert!(
        !reference.drawn,
        "its line is drawn only beside values as measured"
    );
    for (i, r) in c.runs.iter().enumerate() {
        let share = gemm[i] / bias[i] * 100.0;
        assert_eq!(r.of_reference, Some(share), "v{}", i + 1);
        assert_eq!(r.shown, Some(share), "v{}", i + 1);
    }
    let shares: Vec<f64> = (0..5).map(|i| gemm[i] / bias[i] * 100.0).collect();
    assert_eq!(c.auto_scale, scale_for(&shares));
    // The table: the GEMM's latest run as a share of bias_add's in that run.
    let rows = data.rows(data.reference(&choice), DEFAULT_THRESHOLD_PCT);
    assert_eq!(rows[c.kernel].of_reference, Some(gemm[4] / bias[4] * 100.0));
    assert!(rows[reference.kernel].is_reference);
    // As measured, the reference is charted beside the GEMM: together they span more than ten
    // times (2.3 ms against 5 us), a log axis.
    let measured = TrendChoice {
        reading: Reading::Measured,
        ..choice.clone()
    };
    let c = chart(data, &measured);
    let reference = c.reference.as_ref().expect("the reference");
    assert!(reference.drawn);
    assert_eq!(
        reference.values,
        bias.iter().map(|&b| Some(b)).collect::<Vec<_>>()
    );
    let both: Vec<f64> = gemm.iter().chain(&bias).copied().collect();
    assert_eq!(scale_for(&both), Scale::Log);
    assert_eq!(c.auto_scale, Scale::Log);
    assert_eq!(c.scale, Scale::Log);
    // Dropping the reference reads the values as measured again.
    choice.pick_reference(None);
    assert_eq!(
        (choice.reading, choice.reference.as_deref()),
        (Reading::Measured, None)
    );
    // The reference is kept by name while the runs are ordered by capture time (v5 before v4).
    let mut view = TrendView::default();
    let mut by_time = TrendChoice {
        order: SeriesOrder::Captured,
        ..TrendChoice::default()
    };
    by_time.pick_reference(Some("bias_add".into()));
    view.choice = by_time.clone();
    let data = trend_of(&mut view, &state);
    let labels: Vec<&str> = data.trend.runs.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(labels, ["v1", "v2", "v3", "v5", "v4"]);
    let c = chart(data, &by_time);
    let order = [0, 1, 2, 4, 3];
    for (r, &v) in c.runs.iter().zip(&order) {
        assert_eq!(r.of_reference, Some(gemm[v] / bias[v] * 100.0));
    }
}

#[test]
fn a_gemm_swept_over_sizes_is_charted_on_a_log_axis() {
    let sizes = [256, 512, 1024, 2048];
    let reports: Vec<String> = sizes
        .iter()
        .map(|n| format!("sweep/N={n}/v1.ncu-rep.xz"))
        .collect();
    let state = opened(&reports);
    let mut view = TrendView::default();
    let data = trend_of(&mut view, &state);
    let truth: Vec<f64> = sizes
        .iter()
        .map(|n| truth_mean(&format!("sweep/N={n}/v1.truth.json.xz"), &["gemm_step"]))
        .collect();
    let k = data.kernel_named("gemm_step").expect("the GEMM");
    let c = data
        .chart(k, &TrendChoice::default(), DEFAULT_THRESHOLD_PCT)
        .expect("its chart");
    let measured: Vec<Option<f64>> = c.runs.iter().map(|r| r.measured).collect();
    assert_eq!(measured, truth.iter().map(|&t| Some(t)).collect::<Vec<_>>());
    // 39 us to 18 ms: hundreds of times.
    assert_eq!(scale_for(&truth), Scale::Log);
    assert_eq!((c.auto_scale, c.scale), (Scale::Log, Scale::Log));
    // Linear when asked.
    let linear = TrendChoice {
        scale: ScaleChoice::Linear,
        ..TrendChoice::default()
    };
    let c = data
        .chart(k, &linear, DEFAULT_THRESHOLD_PCT)
        .expect("its chart");
    assert_eq!((c.auto_scale, c.scale), (Scale::Log, Scale::Linear));
    // Each size against the first (N=256).
    for (i, r) in c.runs.iter().enumerate() {
        assert_eq!(r.of_first, Some(truth[i] / truth[0] * 100.0));
    }
}
