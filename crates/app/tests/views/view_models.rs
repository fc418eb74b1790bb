//! The view-models of the Occupancy and Compare pages, computed without a window from a real
//! report and checked against ncu's own values (the oracle): block limits and limiters, the
//! curves and the kernel's point, the what-if; the side-by-side rows of two and three results.

use sightline_app::AppState;
use sightline_app::core::ids::ResultRef;
use sightline_app::views::occupancy::{OccupancyKey, OccupancyView, occupancy_view};
use sightline_app::views::side_by_side::{SideBySide, SideBySideKey, side_by_side, side_of};
use sightline_engine::analysis::compare::{MatchKind, Verdict};
use sightline_engine::analysis::occupancy::{CurveKind, LaunchConfig, Limiter, OccupancyOptions};
use sightline_testkit::{TruthResult, load_fixture, load_truth};

const REPORT: &str = "h100/kernels_basic.ncu-rep.xz";
const TRUTH: &str = "h100/kernels_basic.truth.json.xz";

/// The app with the basic report open, and ncu's values for it.
fn opened() -> (AppState, Vec<TruthResult>) {
    let mut state = AppState::default();
    state.add_loaded_report("kernels_basic.ncu-rep", load_fixture(REPORT));
    let truth = load_truth(TRUTH);
    assert_eq!(
        state.workspace().reports()[0].report.results.len(),
        truth.len()
    );
    (state, truth)
}

fn at(state: &AppState, index: usize) -> ResultRef {
    ResultRef {
        report: state.workspace().reports()[0].id,
        index,
    }
}

fn occupancy(
    state: &AppState,
    index: usize,
    what_if: Option<(LaunchConfig, LaunchConfig)>,
    show_warps: bool,
) -> OccupancyView {
    let key = OccupancyKey {
        generation: state.workspace().generation(),
        at: at(state, index),
        options: OccupancyOptions::default(),
        what_if: what_if.map(|w| w.1),
        show_warps,
    };
    occupancy_view(state.workspace(), &key, what_if.map(|w| w.0))
        .expect("result open")
        .expect("occupancy")
}

/// ncu's metric of a resource's block limit.
fn limit_metric(limiter: Limiter) -> &'static str {
    match limiter {
        Limiter::Registers => "launch__occupancy_limit_registers",
        Limiter::SharedMem => "launch__occupancy_limit_shared_mem",
        Limiter::Warps => "launch__occupancy_limit_warps",
        Limiter::Blocks => "launch__occupancy_limit_blocks",
        Limiter::Barriers => "launch__occupancy_limit_barriers",
    }
}

#[test]
fn occupancy_view_matches_ncu_for_every_result() {
    let (state, truth) = opened();
    for (i, t) in truth.iter().enumerate() {
        let what = format!("#{i} {}", t.function);
        let v = occupancy(&state, i, None, true);
        assert_eq!(
            v.analysis.occupancy.occupancy_pct,
            t.number("sm__maximum_warps_per_active_cycle_pct"),
            "{what}"
        );
        assert_eq!(v.printed_mismatch, None, "{what}");
        // Block limits: ncu's numbers; the limiters are the resources with the fewest blocks.
        assert_eq!(v.rows.len(), 5);
        let fewest = v
            .rows
            .iter()
            .map(|r| t.number(limit_metric(r.limiter)) as u64)
            .min()
            .unwrap();
        for row in &v.rows {
            let blocks = t.number(limit_metric(row.limiter)) as u64;
            if row.blocks != "no limit" {
                assert_eq!(row.blocks, blocks.to_string(), "{what} {}", row.label);
            }
            // A limiter allows the fewest blocks (a barrier count at the SM's block limit
            // without named barriers is reported, not binding).
            if row.binds {
                assert_eq!(blocks, fewest, "{what} {}", row.label);
            }
            if blocks == fewest && row.limiter != Limiter::Barriers {
                assert!(row.binds, "{what} {}", row.label);
            }
        }
        assert!(v.rows.iter().any(|r| r.binds), "{what}: no limiter");
        // Curves: every point ncu stored, in warps per SM; the kernel's point is ncu's warps.
        assert_eq!(v.curves.len(), CurveKind::ALL.len(), "{what}");
        let warps = t.number("sm__maximum_warps_avg_per_active_cycle");
        for curve in &v.curves {
            let stored = &t.metrics[curve.kind.metric()].instances;
            assert!(!stored.is_empty());
            for (x, y) in stored {
                let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
                let ours = curve.points.iter().find(|p| p[0] == x);
                assert_eq!(ours.map(|p| p[1]), Some(y), "{what} {:?} x={x}", curve.kind);
            }
            assert_eq!(curve.kernel_point[1], warps, "{what} {:?}", curve.kind);
            assert_eq!(curve.what_if_point, curve.kernel_point);
        }
        assert_eq!(v.what_if_text, None);
        // In % occupancy the same point is ncu's occupancy.
        let pct = occupancy(&state, i, None, false);
        for curve in &pct.curves {
            assert_eq!(
                curve.kernel_point[1],
                t.number("sm__maximum_warps_per_active_cycle_pct"),
                "{what}"
            );
        }
        assert_eq!(pct.y_max, 110.0);
    }
}

#[test]
fn what_if_curves_are_those_of_the_edited_launch() {
    let (state, truth) = opened();
    // register_hog: 1024 threads, limited by its registers to one block (50 %).
    let i = 10;
    assert_eq!(truth[i].function, "register_hog");
    let kernel = occupancy(&state, i, None, true);
    assert_eq!(kernel.limiter, "Registers");
    assert_eq!(kernel.analysis.occupancy.occupancy_pct, 50.0);
    let mut edited = kernel.analysis.launch;
    edited.block_size = 512;
    let v = occupancy(&state, i, Some((kernel.analysis.launch, edited)), true);
    assert!(v.what_if_changed());
    assert_eq!(v.what_if, edited);
    // Two blocks of 16 warps fit the registers where one block of 32 did: the same 32 warps.
    assert_eq!(
        v.what_if_text.as_deref(),
        Some("What-if occupancy: 50.00 % (32 warps per SM, limited by Registers)")
    );
    // The kernel's point stays ncu's; the what-if point is at 512 threads on the block curve.
    let block = v
        .curves
        .iter()
        .find(|c| c.kind == CurveKind::BlockSize)
        .unwrap();
    assert_eq!(
        block.kernel_point,
        [
            1024.0,
            truth[i].number("sm__maximum_warps_avg_per_active_cycle")
        ]
    );
    assert_eq!(block.what_if_point, [512.0, 32.0]);
    // The block size curve does not depend on the block size: it is ncu's.
    let kernel_block = kernel
        .curves
        .iter()
        .find(|c| c.kind == CurveKind::BlockSize)
        .unwrap();
    assert_eq!(block.points, kernel_block.points);
    // An edit that belongs to another launch is ignored.
    let other = LaunchConfig {
        block_size: 7,
        ..kernel.analysis.launch
    };
    let stale = occupancy(&state, i, Some((other, edited)), true);
    assert!(!stale.what_if_changed());
}

fn compare(state: &AppState, current: usize, bases: &[usize], threshold: f64) -> SideBySide {
    let key = SideBySideKey {
        generation: state.workspace().generation(),
        current: at(state, current),
        bases: bases
            .iter()
            .map(|&b| side_of(state.workspace(), at(state, b), Some([1, 2, 3])).unwrap())
            .collect(),
        threshold_bits: threshold.to_bits(),
    };
    side_by_side(state.workspace(), &key).expect("both open")
}

/// The row of a metric, by its key.
fn row<'v>(v: &'v SideBySide, key: &str) -> &'v sightline_app::views::side_by_side::MetricLine {
    v.sections
        .iter()
        .flat_map(|s| &s.lines)
        .find(|l| l.key == key)
        .unwrap_or_else(|| panic!("no row {key}"))
}

#[test]
fn side_by_side_rows_of_naive_and_tiled_matmul() {
    let (state, truth) = opened();
    let (naive, tiled) = (3, 4);
    assert_eq!(truth[naive].function, "matmul_naive");
    assert_eq!(truth[tiled].function, "matmul_tiled");
    let v = compare(&state, tiled, &[naive], 2.0);
    assert_eq!(v.current.title, "matmul_tiled<32> · ID 4");
    assert_eq!(v.current.color, None);
    assert_eq!(v.bases[0].title, "matmul_naive · ID 3");
    assert_eq!(v.current.report_name, "kernels_basic.ncu-rep");

    // Duration: 418.24 us → 246.88 us, faster.
    let d = row(&v, "gpu__time_duration.sum");
    let (base, cur) = (
        truth[naive].number("gpu__time_duration.sum"),
        truth[tiled].number("gpu__time_duration.sum"),
    );
    assert_eq!((base, cur), (418_240.0, 246_880.0));
    assert_eq!(d.baselines, vec!["418.24 us".to_string()]);
    assert_eq!(d.current, "246.88 us");
    assert_eq!(d.delta, "-171.36 us");
    let pct = d.delta_pct.unwrap();
    assert!((pct - (cur - base) / base * 100.0).abs() < 1e-9, "{pct}");
    assert_eq!(d.pct_text, "-40.97%");
    // Two different functions: the change, but no verdict on it.
    assert_eq!(d.verdict, Some(Verdict::Neutral));
    let line = v.duration.as_ref().unwrap();
    assert_eq!(line.verdict, Verdict::Neutral);
    assert!(
        line.text.starts_with("Duration 246.88 us, was 418.24 us: "),
        "{}",
        line.text
    );

    // Block size: 256 → 1024, a launch input (no verdict of better or worse).
    let b = row(&v, "launch__block_size");
    assert_eq!(b.baselines, vec!["256".to_string()]);
    assert_eq!(b.current, "1,024");
    assert_eq!(b.delta_pct, Some(300.0));

    // Speed of light and occupancy of both sides, baseline first.
    let compute = v
        .sol
        .iter()
        .find(|(label, ..)| *label == "Compute (SM) Throughput")
        .unwrap();
    assert_eq!(
        compute.3,
        vec![
            Some(truth[naive].number("sm__throughput.avg.pct_of_peak_sustained_elapsed")),
            Some(truth[tiled].number("sm__throughput.avg.pct_of_peak_sustained_elapsed")),
        ]
    );
    let theoretical = v
        .occupancy
        .iter()
        .find(|(label, _)| *label == "Theoretical Occupancy")
        .unwrap();
    assert_eq!(
        theoretical.1,
        vec!["100.00 %".to_string(), "100.00 %".to_string()]
    );
    let block = v
        .occupancy
        .iter()
        .find(|(label, _)| *label == "Block Size")
        .unwrap();
    assert_eq!(block.1, vec!["256".to_string(), "1024".to_string()]);
    assert!(
        v.notes
            .iter()
            .any(|n| n.contains("block changed: (16, 16, 1) → (32, 32, 1)")),
        "{:?}",
        v.notes
    );
    assert!(v.notes.iter().any(|n| n.starts_with("Different kernels")));
    assert_eq!(v.export.matched.len(), 1);
    assert_eq!(v.export.matched[0].base_id, 3);
    assert_eq!(v.export.matched[0].current_id, 4);
    // Two functions the comparison does not pair: the user chose them, so the export says
    // `manual`, as `diff` says of a pair made by hand.
    assert_eq!(v.export.matched[0].kind, MatchKind::Manual);
    // A threshold above the change makes the duration unchanged.
    let loose = compare(&state, tiled, &[naive], 50.0);
    assert_eq!(
        row(&loose, "gpu__time_duration.sum").verdict,
        Some(Verdict::Unchanged)
    );
}

#[test]
fn two_baselines_give_the_mean_of_the_same_kernel() {
    let (state, truth) = opened();
    // The second vector_add launch against the first one and strided_copy.
    assert_eq!(truth[0].function, "vector_add");
    assert_eq!(truth[1].function, "vector_add");
    let v = compare(&state, 1, &[0, 2], 2.0);
    assert_eq!(v.bases.len(), 2);
    // Each pair described as `diff` describes it: the same kernel is exact.
    let kinds: Vec<MatchKind> = v.export.matched.iter().map(|m| m.kind).collect();
    assert_eq!(kinds, [MatchKind::Exact, MatchKind::Manual]);
    let d = row(&v, "gpu__time_duration.sum");
    assert_eq!(
        d.baselines,
        vec!["72.64 us".to_string(), "409.22 us".to_string()]
    );
    // Only the baseline of the same kernel is in the mean: 72.736 against 72.640.
    let expected = (72_736.0 - 72_640.0) / 72_640.0 * 100.0;
    assert!((d.delta_pct.unwrap() - expected).abs() < 1e-9);
    assert_eq!(
        v.notes,
        vec![
            "Other kernels, not in the mean: strided_copy · ID 2.".to_string(),
            "Different kernels: strided_copy · ID 2 against vector_add.".to_string(),
        ]
    );
    assert_eq!(d.verdict, Some(Verdict::Unchanged));
    // Every baseline keeps its column.
    let block = row(&v, "launch__block_size");
    assert_eq!(block.baselines, vec!["256".to_string(), "256".to_string()]);
}

#[test]
fn selection_and_baseline_visibility_change_only_through_commands() {
    use sightline_app::Command;
    let (mut state, _) = opened();
    state.handle(Command::Select(at(&state, 4)));
    assert_eq!(state.selection(), Some(at(&state, 4)));
    // A result that is not open is not selected.
    let gone = ResultRef {
        index: 999,
        ..at(&state, 0)
    };
    state.handle(Command::Select(gone));
    assert_eq!(state.selection(), Some(at(&state, 4)));
    state.handle(Command::SetBaseline(at(&state, 3)));
    assert!(state.baselines()[0].visible);
    state.handle(Command::ShowBaseline {
        index: 0,
        visible: false,
    });
    assert!(!state.baselines()[0].visible);
    // A position past the list changes nothing.
    state.handle(Command::ShowBaseline {
        index: 5,
        visible: false,
    });
    assert_eq!(state.baselines().len(), 1);
}

/// The Rules page lists every rule result of a result, as ncu's details page prints them (the
/// same number of OPT, WRN and INF entries and the same estimated speedups), largest
/// estimate first.
#[test]
fn rules_page_lists_every_rule_of_ncus_details_page_largest_speedup_first() {
    use sightline_app::views::rules::rules_list;
    let report = load_fixture("h100/kernels_full.ncu-rep.xz");
    let text = std::fs::read_to_string(sightline_testkit::fixture_path(
        "h100/kernels_full.details.txt",
    ))
    .expect("details text");
    // ncu's blocks, one per result: its rule tags and estimated speedups.
    let mut printed: Vec<(Vec<String>, Vec<f64>)> = Vec::new();
    for line in text.lines() {
        if line.starts_with("  ") && !line.starts_with("   ") && line.contains(", Context ") {
            printed.push((Vec::new(), Vec::new()));
            continue;
        }
        let Some((tags, speedups)) = printed.last_mut() else {
            continue;
        };
        let t = line.trim_start();
        if line.starts_with("    ") && !line.starts_with("     ") {
            for tag in ["OPT", "WRN", "INF", "ERR"] {
                if t.starts_with(&format!("{tag} ")) {
                    tags.push(tag.to_string());
                }
            }
        }
        for prefix in ["Est. Speedup: ", "Est. Local Speedup: "] {
            if let Some(at) = t.find(prefix) {
                let rest = &t[at + prefix.len()..];
                let number: String = rest.chars().take_while(|c| *c != '%').collect();
                speedups.push(number.trim().parse().expect("a speedup"));
            }
        }
    }
    assert_eq!(printed.len(), report.results.len());
    let mut checked = 0;
    for (r, (tags, speedups)) in report.results.iter().zip(&printed) {
        let list = rules_list(r);
        let mut kinds: Vec<&str> = list.lines.iter().map(|l| l.kind.tag()).collect();
        let mut expected: Vec<&str> = tags.iter().map(String::as_str).collect();
        kinds.sort_unstable();
        expected.sort_unstable();
        assert_eq!(kinds, expected, "{}", r.name.function);
        let shown: Vec<f64> = list
            .lines
            .iter()
            .filter_map(|l| l.speedup.as_deref())
            .map(|s| {
                let n = s.split(": ").nth(1).expect("value").trim_end_matches('%');
                n.parse().expect("a number")
            })
            .collect();
        assert_eq!(shown.len(), list.with_speedup);
        let mut sorted = shown.clone();
        sorted.sort_by(|a, b| b.total_cmp(a));
        let mut ncu = speedups.clone();
        ncu.sort_by(|a, b| b.total_cmp(a));
        assert_eq!(sorted.len(), ncu.len(), "{}", r.name.function);
        for (a, b) in sorted.iter().zip(&ncu) {
            // ncu prints four significant digits, the page two decimals.
            assert!((a - b).abs() <= 0.006 + b.abs() * 5e-4, "{a} vs {b}");
        }
        // Whole-workload estimates first, largest first.
        let globals: Vec<f64> = list
            .lines
            .iter()
            .take_while(|l| {
                l.speedup
                    .as_deref()
                    .is_some_and(|s| s.starts_with("Est. Speedup"))
            })
            .map(|l| {
                let n = l.speedup.as_deref().unwrap_or_default();
                n.trim_start_matches("Est. Speedup: ")
                    .trim_end_matches('%')
                    .parse::<f64>()
                    .expect("a number")
            })
            .collect();
        assert!(globals.windows(2).all(|w| w[0] >= w[1]), "{globals:?}");
        checked += list.lines.len();
    }
    assert!(checked > 100, "{checked} rules checked");
}

/// Report vs report of two reports read on demand shows its table at once: compared on the
/// results table's figures alone, it reads nothing from the files, and its table (pairs,
/// durations, headline metrics, order by impact, totals) is the one the comparison of every
/// metric gives.
#[test]
fn report_vs_report_first_compares_the_table_figures_without_reading_the_files() {
    use sightline_app::views::report_compare::comparison;
    let dir = sightline_testkit::temp_dir("rvr_heads");
    let open = |rel: &str| {
        sightline_engine::parse::load_path(&sightline_testkit::fixture_file(&dir, rel))
            .expect("opens")
    };
    let base = open("h100/kernels_basic.ncu-rep.xz");
    let current = open("h100/kernels_full.ncu-rep.xz");
    let decoded = |r: &sightline_engine::model::Report| {
        r.results.iter().filter(|k| k.is_body_decoded()).count()
    };
    let (b0, c0) = (decoded(&base), decoded(&current));
    let quick = comparison(
        &base.heads_only().expect("read on demand"),
        &current.heads_only().expect("read on demand"),
        2.0,
        &[],
        &sightline_engine::analysis::compare::RenamePolicy::default(),
    );
    assert_eq!(
        (decoded(&base), decoded(&current)),
        (b0, c0),
        "nothing read"
    );
    let full = comparison(
        &base,
        &current,
        2.0,
        &[],
        &sightline_engine::analysis::compare::RenamePolicy::default(),
    );
    assert!(!full.diff.matched.is_empty());
    assert_eq!(quick.by_impact, full.by_impact);
    assert_eq!(quick.totals, full.totals);
    assert_eq!(quick.regressions, full.regressions);
    assert_eq!(quick.diff.matched.len(), full.diff.matched.len());
    let headline = sightline_engine::analysis::compare::export::HEADLINE_METRICS;
    for (q, f) in quick.diff.matched.iter().zip(&full.diff.matched) {
        assert_eq!(
            (q.base_index, q.current_index, q.kind, &q.name),
            (f.base_index, f.current_index, f.kind, &f.name)
        );
        assert_eq!(
            (q.base_duration_ns, q.current_duration_ns),
            (f.base_duration_ns, f.current_duration_ns)
        );
        for (key, label) in headline {
            let delta = |m: &sightline_engine::analysis::compare::MatchedDiff| {
                m.diff.get(key).map(|d| (d.base, d.current))
            };
            assert_eq!(delta(q), delta(f), "{label} of {}", q.name);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_side_the_comparison_pairs_as_renamed_is_exported_as_renamed_with_verdicts() {
    let (state, truth) = opened();
    let (naive, tiled) = (3, 4);
    let mut base = side_of(state.workspace(), at(&state, naive), Some([1, 2, 3])).unwrap();
    base.pairing = Some(MatchKind::Renamed);
    let key = SideBySideKey {
        generation: state.workspace().generation(),
        current: at(&state, tiled),
        bases: vec![base],
        threshold_bits: 2.0_f64.to_bits(),
    };
    let v = side_by_side(state.workspace(), &key).expect("both open");
    let m = &v.export.matched[0];
    assert_eq!(m.kind, MatchKind::Renamed);
    assert_eq!(
        (m.base_duration_ns, m.current_duration_ns),
        (
            Some(truth[naive].number("gpu__time_duration.sum")),
            Some(truth[tiled].number("gpu__time_duration.sum"))
        )
    );
    // Paired, the faster tiled kernel is better, not only different.
    assert_eq!(
        row(&v, "gpu__time_duration.sum").verdict,
        Some(Verdict::Better)
    );
    assert_eq!(
        m.diff.duration.as_ref().map(|d| d.verdict),
        Some(Verdict::Better)
    );
}
