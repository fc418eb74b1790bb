//! Report vs report in the desktop app, driven headless with egui_kittest: matched kernels,
//! context warnings and a row opening the pair; the order the reports were given and the swap to
//! the older capture; reports read on demand; pairs made by hand and by the comparison
//! (renames), with their verdicts; the totals and what changed in a pair; why it changed, the
//! causes the oracle shows linked to their source lines; the image snapshot of the view.

use crate::app_compare::{
    BASIC, BASIC_NAME, FULL, FULL_NAME, MATMUL_TILED, copy_report_csv, duration, open_both, pct,
    report_id, result_at, select_in,
};
use crate::common;

use common::app_harness::{
    AppHarness, MemoryStorage, assert_in_row, assert_label, assert_label_containing, has_label,
    open_in_order, open_pair, options, show_page, until_compared,
};
use common::{TruthResult, fixture_file, fixture_path, load_truth, temp_dir};
use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT, Queryable};
use sightline_app::core::ids::ResultRef;
use sightline_engine::analysis::compare::{DiffOptions, diff_reports};
use sightline_engine::model::names;
use sightline_engine::parse::load_path;
use sightline_ui::{Command, PageId, SightlineApp};

#[test]
fn report_vs_report_lists_matched_kernels_and_opens_a_pair() {
    let mut h = open_both(false);
    select_in(&mut h, FULL_NAME, 0);
    show_page(&mut h, PageId::ReportDiff);
    assert_label(&h, "13 kernels matched");
    assert_label(&h, "0 only in the baseline report");
    assert_label(&h, "0 only in the current report");
    assert_label_containing(
        &h,
        "the section sets differ (4 sections in base, 14 in current",
    );
    // Sorted by impact: conv2d_naive lost the most time (956.61 us → 961.25 us), before
    // matmul_tiled (770 ns won).
    let conv = "conv2d_naive(const float *, const float *, float *, int, int, int, int)";
    let tiled = "void matmul_tiled<32>(const float *, const float *, float *, int)";
    assert!(h.get_by_label(conv).rect().top() < h.get_by_label(tiled).rect().top());
    let expected = format!(
        "{:+.2}%",
        pct(duration(BASIC, MATMUL_TILED), duration(FULL, MATMUL_TILED))
    );
    assert_in_row(&h, tiled, &expected);
    assert_in_row(&h, "4→4", tiled);
    // A click opens the pair side by side.
    h.get_by_label(tiled).click();
    h.step();
    until_compared(&mut h);
    assert_eq!(h.state().settings().page, PageId::Compare);
    assert_eq!(
        h.state().selection(),
        Some(result_at(&h, FULL_NAME, MATMUL_TILED))
    );
    assert_label(&h, "Pair picked in the report comparison.");
    assert_in_row(&h, "Duration", &expected);
    assert_label(&h, "matmul_tiled<32> · ID 4 (kernels_full.details.txt)");
    // Another selection goes back to the (here: no) baselines.
    select_in(&mut h, FULL_NAME, 0);
    assert_label(&h, "No baseline to compare with.");
}

/// The newer run opened first: Report vs report still takes the older capture as its baseline
/// (so the kernel that got 11x faster reads as better), says why, and a swap is kept for that
/// pair of files.
#[test]
fn report_vs_report_follows_the_order_given_and_swaps_to_the_older_capture() {
    let dir = temp_dir("report_vs_report_direction");
    let before = fixture_file(&dir, "pair/before.ncu-rep.xz");
    let after = fixture_file(&dir, "pair/after.ncu-rep.xz");
    let app = SightlineApp::new(None, options(Vec::new(), false));
    let mut h = open_in_order(app, &[after.clone(), before.clone()], false);
    assert_eq!(h.state().workspace().reports()[0].name, "after.ncu-rep");
    select_in(&mut h, "after.ncu-rep", 0);
    show_page(&mut h, PageId::ReportDiff);
    // The report opened first is the baseline; it was captured later, which the page says.
    assert_label_containing(
        &h,
        "Direction unconfirmed: the baseline after.ncu-rep was captured after before.ncu-rep",
    );
    // saxpy_strided: 185.44 us in the older run, 16.35 us in the newer one.
    let saxpy = "saxpy_strided(float, const float *, float *, int)";
    let as_opened = format!(
        "{:+.2}%",
        pct(
            duration("pair/after.ncu-rep.xz", 1),
            duration("pair/before.ncu-rep.xz", 1)
        )
    );
    assert!(as_opened.starts_with('+'), "{as_opened}");
    assert_in_row(&h, saxpy, &as_opened);
    // The comparison shown can be saved as the page `diff --format html` writes.
    assert_label(&h, "Save HTML…");
    // Swap takes the older capture as the baseline: the user's choice, kept for these files.
    h.get_by_label("Swap to capture order").click();
    h.step();
    until_compared(&mut h);
    assert_label_containing(&h, "Baseline report: as chosen");
    let expected = format!(
        "{:+.2}%",
        pct(
            duration("pair/before.ncu-rep.xz", 1),
            duration("pair/after.ncu-rep.xz", 1)
        )
    );
    assert_in_row(&h, saxpy, &expected);
    let orders = &h.state().settings().report_orders;
    assert_eq!(orders.len(), 1);
    assert!(orders[0].base.ends_with("before.ncu-rep"), "{orders:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two native reports read on demand: the Report vs report page compares them pair by pair
/// without leaving their bodies decoded, and its CSV still lists every metric of every pair.
#[test]
fn report_vs_report_of_reports_read_on_demand_leaves_no_body_decoded() {
    let dir = temp_dir("report_vs_report_on_demand");
    let before = fixture_file(&dir, "pair/before.ncu-rep.xz");
    let after = fixture_file(&dir, "pair/after.ncu-rep.xz");
    let app = SightlineApp::new(None, options(Vec::new(), false));
    let mut h = open_in_order(app, &[before.clone(), after.clone()], false);
    let decoded = |h: &AppHarness| -> usize {
        h.state()
            .workspace()
            .reports()
            .iter()
            .map(|r| r.report.decoded_bodies())
            .sum()
    };
    select_in(&mut h, "after.ncu-rep", 0);
    show_page(&mut h, PageId::ReportDiff);
    assert_label(&h, "8 kernels matched");
    // At most the results selected so far (the Details page showed them), not the 9 + 9
    // results compared.
    assert!(decoded(&h) <= 2, "{} bodies decoded", decoded(&h));
    let csv = copy_report_csv(&mut h);
    let opts = DiffOptions {
        threshold_pct: h.state().settings().threshold_pct(),
        metrics: None,
        ..DiffOptions::default()
    };
    let (b, c) = (load_path(&before).unwrap(), load_path(&after).unwrap());
    let whole = diff_reports(&b, &c, &opts);
    assert_eq!(csv, sightline_engine::output::compare::to_csv(&whole));
    assert!(
        csv.lines().count() > 7 * 100,
        "{} lines",
        csv.lines().count()
    );
    assert!(decoded(&h) <= 2, "{} bodies decoded", decoded(&h));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pair_made_by_hand_is_respected_saved_and_removed() {
    let files = [fixture_path(BASIC), fixture_path(FULL)];
    let app = SightlineApp::new(None, options(Vec::new(), true));
    let mut h = open_in_order(app, &files, false);
    select_in(&mut h, FULL_NAME, 0);
    show_page(&mut h, PageId::ReportDiff);
    // The two vector_add launches pair in order; pair the first baseline launch with the
    // second current one from the row's context menu.
    assert_label(&h, "0→0");
    assert!(!has_label(&h, "0→1"));
    h.get_by_label("0→0").click_secondary();
    h.run();
    h.get_by_label("Pair with…").click();
    h.run();
    h.get_by_label("ID 1 · vector_add").click();
    h.step();
    until_compared(&mut h);
    let pairs = h.state().settings().manual_pairs.clone();
    assert_eq!(pairs.len(), 1);
    assert_eq!(
        (pairs[0].base.result_id, pairs[0].current.result_id),
        (0, 1)
    );
    let from = |p: &Option<std::path::PathBuf>, name: &str| {
        p.as_deref()
            .is_some_and(|p| p.is_absolute() && p.ends_with(name))
    };
    assert!(from(&pairs[0].base.path, BASIC_NAME));
    assert!(from(&pairs[0].current.path, FULL_NAME));
    assert_eq!(h.state().settings().to_save().manual_pairs, pairs);
    assert_label(&h, "Paired by hand: baseline ID 0 with current ID 1");
    assert_label(&h, "0→1");
    assert!(!has_label(&h, "0→0"));
    assert_label(&h, "13 kernels matched");
    // Kept across a restart, by file and result ID.
    let mut storage = MemoryStorage::default();
    eframe::App::save(h.state_mut(), &mut storage);
    let restored = SightlineApp::new(Some(&storage), options(Vec::new(), true));
    let mut h = open_in_order(restored, &files, false);
    assert_eq!(h.state().settings().manual_pairs, pairs);
    select_in(&mut h, FULL_NAME, 0);
    show_page(&mut h, PageId::ReportDiff);
    assert_label(&h, "0→1");
    // Removed, the matching pairs the launches in order again.
    h.get_by_label("Remove").click();
    h.step();
    until_compared(&mut h);
    assert!(h.state().settings().manual_pairs.is_empty());
    assert_label(&h, "0→0");
    assert!(!has_label(&h, "0→1"));
}

/// The integer template argument of an oracle launch, read from its mangled name
/// (`_Z6matmulILi16EEvPKfS1_Pfi` gives `<16>`).
fn truth_template_args(t: &TruthResult) -> Option<String> {
    let rest = &t.mangled[t.mangled.find("ILi")? + 3..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    (!digits.is_empty() && rest[digits.len()..].starts_with('E')).then(|| format!("<{digits}>"))
}

/// The oracle of the before/after pair.
fn pair_truth() -> (Vec<TruthResult>, Vec<TruthResult>) {
    (
        load_truth("pair/before.truth.json.xz"),
        load_truth("pair/after.truth.json.xz"),
    )
}

#[test]
fn report_vs_report_shows_the_totals_and_what_changed_in_a_pair() {
    let dir = temp_dir("pair_totals");
    let mut h = open_pair(&dir);
    select_in(&mut h, "after.ncu-rep", 0);
    show_page(&mut h, PageId::ReportDiff);
    let (before, after) = pair_truth();
    let ns = |t: &TruthResult| t.number(names::DURATION);
    let text = |v: f64| sightline_engine::model::units::format_value(v, "ns");
    // fixtures/pair/README.md: base 4 (histogram_old) only in base, current 4 (bias_relu)
    // only in current; normalize → normalize_rows paired as renamed, the other seven by place.
    assert_label(&h, "8 kernels matched");
    assert_label(
        &h,
        "Paired as renamed: `normalize` → `normalize_rows`, same parameters and launch shape, \
         1 launch",
    );
    assert_label(
        &h,
        &format!("Only in base (1 removed): {}", text(ns(&before[4]))),
    );
    assert_label(
        &h,
        &format!("Only in current (1 added): {}", text(ns(&after[4]))),
    );
    let (all_before, all_after) = (
        before.iter().map(ns).sum::<f64>(),
        after.iter().map(ns).sum::<f64>(),
    );
    assert_label_containing(
        &h,
        &format!(
            "Net (whole report): {} → {} (",
            text(all_before),
            text(all_after)
        ),
    );
    // matmul<16> with 16x16 blocks became matmul<32> with 32x32 blocks: labelled on its row.
    let (ta, tb) = (
        truth_template_args(&before[2]).expect("matmul<16>"),
        truth_template_args(&after[2]).expect("matmul<32>"),
    );
    assert_eq!((ta.as_str(), tb.as_str()), ("<16>", "<32>"));
    assert_label_containing(&h, &format!("template args changed: {ta} → {tb}"));
    let block = |t: &TruthResult, p: &str| {
        ["x", "y", "z"]
            .map(|d| t.number(&format!("launch__{p}_dim_{d}")).to_string())
            .join(", ")
    };
    assert_label_containing(
        &h,
        &format!(
            "block changed: ({}) → ({})",
            block(&before[2], "block"),
            block(&after[2], "block")
        ),
    );
    assert_label_containing(
        &h,
        &format!(
            "grid changed: ({}) → ({})",
            block(&before[3], "grid"),
            block(&after[3], "grid")
        ),
    );
}

#[test]
fn report_vs_report_compares_the_first_opened_report_against_the_next_by_default() {
    // Opened before, then after, with a result of "before" selected (as after opening): the
    // page compares before (baseline) → after (current), not the other way round.
    let dir = temp_dir("pair_default_sides");
    let mut h = open_pair(&dir);
    select_in(&mut h, "before.ncu-rep", 0);
    show_page(&mut h, PageId::ReportDiff);
    let (before, after) = pair_truth();
    let ns = |t: &TruthResult| t.number(names::DURATION);
    let text = |v: f64| sightline_engine::model::units::format_value(v, "ns");
    // fixtures/pair/README.md: base 4 is only in "before", 4 only in "after".
    assert_label(
        &h,
        &format!("Only in base (1 removed): {}", text(ns(&before[4]))),
    );
    assert_label(
        &h,
        &format!("Only in current (1 added): {}", text(ns(&after[4]))),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Rules that point at a problem (warning or optimisation messages) in an oracle launch.
fn truth_problem_rules(t: &TruthResult) -> std::collections::BTreeSet<String> {
    t.rules
        .iter()
        .filter(|r| matches!(r["rule_message"]["type"].as_i64(), Some(2 | 4)))
        .filter_map(|r| r["rule_identifier"].as_str().map(str::to_string))
        .collect()
}

/// Opens the pair's row of the report comparison whose kernel name starts with `function(`.
fn open_pair_row(h: &mut AppHarness, function: &str) {
    show_page(h, PageId::ReportDiff);
    let prefix = format!("{function}(");
    h.query_all_by_label_contains(&prefix)
        .find(|n| {
            n.accesskit_node()
                .value()
                .is_some_and(|l| l.starts_with(&prefix))
        })
        .unwrap_or_else(|| panic!("no row of {function}"))
        .click();
    until_compared(h);
    assert_eq!(h.state().settings().page, PageId::Compare);
}

#[test]
fn why_it_changed_lists_the_causes_the_oracle_shows() {
    let dir = temp_dir("pair_why");
    let mut h = open_pair(&dir);
    select_in(&mut h, "after.ncu-rep", 0);
    let (before, after) = pair_truth();
    let bytes = |v: f64| sightline_engine::model::format::value_text(v, "byte");
    let count = |v: f64| sightline_engine::model::units::format_value(v, "inst");

    // saxpy_strided (launch 1) got faster: the uncoalesced-access rule stops firing and L1
    // moves fewer bytes.
    open_pair_row(&mut h, "saxpy_strided");
    assert_label(&h, "Why it changed");
    let gone = truth_problem_rules(&before[1]);
    assert!(gone.contains("UncoalescedGlobalAccess"), "{gone:?}");
    assert!(!truth_problem_rules(&after[1]).contains("UncoalescedGlobalAccess"));
    assert_label_containing(&h, "rule UncoalescedGlobalAccess no longer fires");
    let l1 = |t: &TruthResult| {
        [
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
            "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
            "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
        ]
        .iter()
        .map(|k| t.number(k))
        .sum::<f64>()
            * 32.0
    };
    let (x, y) = (l1(&before[1]), l1(&after[1]));
    assert_label(
        &h,
        &format!(
            "L1 traffic: {} → {} ({:+.1}%)",
            bytes(x),
            bytes(y),
            pct(x, y)
        ),
    );

    // blur (launch 6) got slower: radius 2 → 8 executes more instructions.
    select_in(&mut h, "after.ncu-rep", 0);
    open_pair_row(&mut h, "blur");
    let inst = |t: &TruthResult| t.number("smsp__inst_executed.sum");
    let (x, y) = (inst(&before[6]), inst(&after[6]));
    assert!(y > x);
    assert_label(
        &h,
        &format!(
            "instructions executed: {} → {} ({:+.1}%)",
            count(x),
            count(y),
            pct(x, y)
        ),
    );
}

#[test]
fn snapshot_report_vs_report() {
    let mut h = open_both(true);
    select_in(&mut h, FULL_NAME, MATMUL_TILED);
    show_page(&mut h, PageId::ReportDiff);
    h.snapshot("compare_reports");
}

/// The rewrite of `fixtures/renames`, whose "after" build was profiled first, opened in the
/// order the user gives: the "before" report first.
pub(crate) fn open_renames(dir: &std::path::Path) -> AppHarness {
    let files = [
        fixture_file(dir, "renames/before.ncu-rep.xz"),
        fixture_file(dir, "renames/after.ncu-rep.xz"),
    ];
    let app = SightlineApp::new(None, options(Vec::new(), false));
    open_in_order(app, &files, false)
}

#[test]
fn report_vs_report_keeps_the_order_given_and_asks_when_the_captures_disagree() {
    let dir = temp_dir("renames_order");
    let mut h = open_renames(&dir);
    select_in(&mut h, "after.ncu-rep", 0);
    show_page(&mut h, PageId::ReportDiff);
    let before = load_truth("renames/before.truth.json.xz");
    let ns = |t: &TruthResult| t.number(names::DURATION);
    let text = |v: f64| sightline_engine::model::units::format_value(v, "ns");
    // The report opened first is the baseline although it was captured later: the four
    // kernels only "before" has are the removed ones.
    assert_label(
        &h,
        &format!(
            "Only in base (4 removed): {}",
            text(ns(&before[4]) + ns(&before[5]) + ns(&before[6]) + ns(&before[7]))
        ),
    );
    assert_label_containing(
        &h,
        "Direction unconfirmed: the baseline before.ncu-rep was captured after after.ncu-rep",
    );
    assert!(h.state().settings().report_orders.is_empty());
    h.get_by_label("Keep this order").click();
    until_compared(&mut h);
    assert!(!has_label_containing_text(&h, "was captured after"));
    let orders = &h.state().settings().report_orders;
    assert_eq!(orders.len(), 1);
    assert!(orders[0].base.ends_with("before.ncu-rep"), "{orders:?}");
    // Swap from the pickers' button: the other way round, and kept.
    h.get_by_label("Swap").click();
    until_compared(&mut h);
    let orders = &h.state().settings().report_orders;
    assert!(orders[0].base.ends_with("after.ncu-rep"), "{orders:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

pub(crate) fn has_label_containing_text(h: &AppHarness, part: &str) -> bool {
    common::app_harness::has_label_containing(h, part)
}

#[test]
fn report_vs_report_pairs_renames_says_so_and_unpairs_them() {
    let dir = temp_dir("renames_unpair");
    let mut h = open_renames(&dir);
    select_in(&mut h, "before.ncu-rep", 0);
    show_page(&mut h, PageId::ReportDiff);
    assert_label(&h, "5 kernels matched");
    let gemm = "Paired as renamed: `naive_gemm` → `sgemm_global_mem_coalesce`, same parameters, 2 launches";
    assert_label(&h, gemm);
    // The transpose and the smooth kernels have two candidates each: offered, not paired.
    assert_label_containing(&h, "Renamed? `transpose_naive`");
    assert_label_containing(&h, "Renamed? `smooth_a`");
    // Unpair the GEMM: its launches are removed and added, and offered again.
    let unpair = h
        .query_all_by_role_and_label(Role::Button, "Unpair")
        .min_by(|a, b| a.rect().center().y.total_cmp(&b.rect().center().y))
        .expect("an Unpair button");
    unpair.click();
    until_compared(&mut h);
    assert_eq!(
        h.state().settings().unpaired_renames,
        vec![(
            "naive_gemm".to_string(),
            "sgemm_global_mem_coalesce".to_string()
        )]
    );
    assert!(!has_label(&h, gemm));
    assert_label(&h, "3 kernels matched");
    assert_label_containing(&h, "Renamed? `naive_gemm`");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pair_made_by_the_comparison_gets_verdicts_on_the_compare_page() {
    let dir = temp_dir("renames_verdict");
    let mut h = open_renames(&dir);
    select_in(&mut h, "before.ncu-rep", 0);
    show_page(&mut h, PageId::ReportDiff);
    // Open the renamed transpose from its row (the model paired it; the names differ).
    let (before, after) = (
        ResultRef {
            report: report_id(&h, "before.ncu-rep"),
            index: 4,
        },
        ResultRef {
            report: report_id(&h, "after.ncu-rep"),
            index: 4,
        },
    );
    h.state_mut().handle(Command::ComparePair {
        base: before,
        current: after,
    });
    until_compared(&mut h);
    assert_eq!(h.state().settings().page, PageId::Compare);
    assert!(!has_label_containing_text(&h, "shown without a verdict"));
    assert_label_containing(&h, "paired with transpose_tiled by the comparison");
    assert_label_containing(&h, "better");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn why_it_changed_links_each_change_to_its_line_and_opens_the_source_page_there() {
    let dir = temp_dir("pair_why_lines");
    let files = [
        common::fixture_file(&dir, "pair_lines/before.ncu-rep.xz"),
        common::fixture_file(&dir, "pair_lines/after.ncu-rep.xz"),
    ];
    let app = SightlineApp::new(None, options(Vec::new(), false));
    let mut h = open_in_order(app, &files, false);
    select_in(&mut h, "after.ncu-rep", 0);
    // blur got slower (radius 2 -> 8): the links the analysis gives for it, each on the page.
    open_pair_row(&mut h, "blur");
    assert_label(&h, "Why it changed");
    let links: Vec<(String, u32)> = {
        let result = |i: usize| {
            let (open, r) = h
                .state()
                .workspace()
                .result(ResultRef {
                    report: h.state().workspace().reports()[i].id,
                    // saxpy_strided, matmul, blur in launch order.
                    index: 2,
                })
                .expect("blur");
            assert!(r.name.demangled.starts_with("blur"), "{}", r.name.demangled);
            (open.path.clone(), r.clone())
        };
        let ((bp, b), (cp, c)) = (result(0), result(1));
        let speed =
            sightline_engine::analysis::compare::diff_results(&b, &c, &DiffOptions::default())
                .speed();
        let mut why = sightline_engine::analysis::compare::explain(&b, &c, speed);
        let lines = |path: &Option<std::path::PathBuf>, r| {
            sightline_app::views::source::load_lines(path.as_deref(), r).expect("lines")
        };
        sightline_app::views::source::link_why_to_lines(&mut why, &lines(&bp, &b), &lines(&cp, &c));
        why.iter()
            .flat_map(|e| e.lines.iter().map(|l| (l.place.clone(), l.line)))
            .collect()
    };
    assert!(links.len() >= 3, "{links:?}");
    for (text, _) in &links {
        assert_label(&h, text);
    }
    let (text, line) = &links[0];
    h.get_by_label(text).click();
    h.step();
    assert!(
        common::app_harness::step_until(&mut h, common::app_harness::WAIT_TIMEOUT, |h| {
            h.query_all_by_label_contains(&format!("SASS of line {line} ("))
                .next()
                .is_some()
        }),
        "the Source page did not open at line {line}"
    );
    assert_eq!(h.state().settings().page, PageId::Source);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_why_list_reads_each_results_lines_once_across_rebuilds() {
    use sightline_app::core::baselines::VisibleBaseline;
    use sightline_app::core::workspace::Workspace;
    use sightline_app::views::compare::{CompareInput, CompareStatus, CompareView};
    let dir = temp_dir("pair_why_lines_once");
    let mut workspace = Workspace::default();
    let mut ids = Vec::new();
    for name in ["before", "after"] {
        let path = common::fixture_file(&dir, &format!("pair_lines/{name}.ncu-rep.xz"));
        let report = load_path(&path).expect("report");
        ids.push(workspace.add_report(name.into(), Some(path), report, std::time::Duration::ZERO));
    }
    // blur, the third kernel of both: its why-list has stall changes the Source page measures.
    let (base, current) = (
        ResultRef {
            report: ids[0],
            index: 2,
        },
        ResultRef {
            report: ids[1],
            index: 2,
        },
    );
    let baselines = [VisibleBaseline {
        index: 0,
        at: base,
        color: [1, 2, 3],
        title: "blur".into(),
        report_name: "before".into(),
    }];
    let mut view = CompareView::default();
    let links = |view: &mut CompareView, threshold_pct: f64| -> usize {
        let input = CompareInput {
            workspace: &workspace,
            at: current,
            baselines: &baselines,
            threshold_pct,
            manual_pairs: &[],
            renames: Default::default(),
        };
        match view.status(&input, true, || {}) {
            CompareStatus::Ready { data, .. } => data
                .view
                .as_ref()
                .and_then(|v| v.export.matched.first())
                .map_or(0, |m| m.why.iter().map(|e| e.lines.len()).sum()),
            _ => panic!("the comparison was not built"),
        }
    };
    let first = links(&mut view, 2.0);
    assert!(first >= 3, "{first} line links");
    assert_eq!(view.lines_read(), 2);
    // Another noise threshold builds the comparison again, from the lines read before.
    assert_eq!(links(&mut view, 5.0), first);
    assert_eq!(view.lines_read(), 2);
    // Reports closed or replaced: read again.
    view.release();
    assert_eq!(links(&mut view, 5.0), first);
    assert_eq!(view.lines_read(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}
