//! The Source page in the desktop app, driven headless with egui_kittest: read in the
//! background, with a baseline its Δ column equals the difference of Nsight Compute's exports of
//! the two reports, and a selected line's stall reasons are ncu's per-reason columns; the PTX
//! view shows the lines of ncu's `--print-source ptx` export with their numbers.

use crate::common;

use common::app_harness::{
    AppHarness, WAIT_TIMEOUT, has_label, has_label_containing, open_in_order, options,
    options_with_sass, step_until, type_into,
};
use common::{fixture_bytes, fixture_file, temp_dir};
use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT, Queryable};
use sightline_app::core::ids::ResultRef;
use sightline_engine::parse::sass::Disassembler;
use sightline_engine::parse::source_csv::{self, LineListing};
use sightline_ui::{PageId, SightlineApp};

/// ncu's per-line listing of `inline_chain` in one report.
fn ncu_lines(report: &str) -> LineListing {
    let rel = format!("source/{report}.inline_chain.source_cuda_sass.csv.xz");
    let mut export = source_csv::parse(&fixture_bytes(&rel)).expect("export");
    export.lines.remove(0)
}

/// The app with `report` (a fixture) open in `dir`, `inline_chain` selected and the Source
/// page shown.
fn chain_on_source_page(dir: &std::path::Path, report: &str) -> AppHarness {
    let files = [fixture_file(dir, report)];
    let app = SightlineApp::new(None, options(Vec::new(), false));
    let mut h = open_in_order(app, &files, false);
    let current = chain_in(&h, 0);
    h.state_mut().select(Some(current));
    h.state_mut().settings_mut().page = PageId::Source;
    h
}

/// `inline_chain` in the open report at `report`.
fn chain_in(h: &AppHarness, report: usize) -> ResultRef {
    let open = &h.state().workspace().reports()[report];
    let index = open
        .report
        .results
        .iter()
        .position(|r| r.name.demangled.starts_with("inline_chain"))
        .expect("kernel");
    ResultRef {
        report: open.id,
        index,
    }
}

/// Shows the Details page of the result at `at` scrolled to its Source Counters hot-spot
/// tables, and waits until a label containing `label` is drawn there.
fn hot_spots_showing(h: &mut AppHarness, at: ResultRef, label: &str) {
    h.state_mut().select(Some(at));
    h.state_mut().settings_mut().page = PageId::Details;
    h.run();
    h.query_all_by_label("Warp Stall Sampling (All Samples)")
        .next()
        .expect("the hot-spot table")
        .scroll_to_me();
    assert!(
        step_until(h, WAIT_TIMEOUT, |h| has_label_containing(h, label)),
        "the hot spots never showed {label:?}"
    );
}

fn number(listing: &LineListing, row: usize, column: &str) -> i64 {
    let c = listing
        .columns
        .iter()
        .position(|n| n == column)
        .expect(column);
    listing.lines[row].cells[c].parse().expect("integer")
}

#[test]
fn source_page_shows_the_change_from_a_baseline_and_a_lines_stall_reasons() {
    let dir = temp_dir("app_source");
    let files = [
        fixture_file(&dir, "source/inl_nosrc.ncu-rep.xz"),
        fixture_file(&dir, "source/inl_src.ncu-rep.xz"),
    ];
    let app = SightlineApp::new(None, options(Vec::new(), false));
    let mut h = open_in_order(app, &files, false);
    let (base, current) = (chain_in(&h, 0), chain_in(&h, 1));
    h.state_mut().select(Some(base));
    h.run();
    h.get_by_role_and_label(Role::Button, "Set as baseline")
        .click();
    h.run();
    h.state_mut().select(Some(current));
    h.state_mut().settings_mut().page = PageId::Source;
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| has_label_containing(
            h,
            "Δ: change from the baseline"
        )),
        "the Source page never showed the comparison"
    );

    // The hottest line of ncu's export, with its samples and their change.
    let (before, after) = (ncu_lines("inl_nosrc"), ncu_lines("inl_src"));
    let samples = "Warp Stall Sampling (All Samples)";
    let hottest = (0..after.lines.len())
        .max_by_key(|&i| (number(&after, i, samples), std::cmp::Reverse(i)))
        .expect("lines");
    let line = after.lines[hottest].line;
    let then = before
        .lines
        .iter()
        .position(|r| r.line == line)
        .expect("line");
    let (now_v, delta) = (
        number(&after, hottest, samples),
        number(&after, hottest, samples) - number(&before, then, samples),
    );
    let delta = if delta > 0 {
        format!("+{delta}")
    } else {
        delta.to_string()
    };
    let row = format!("{line:>5} {now_v:>10} {delta:>9}  ");
    h.query_all_by_label_contains(&row)
        .next()
        .unwrap_or_else(|| panic!("no line row starting {row:?}"))
        .click();
    h.run();
    assert!(has_label(&h, &format!("Stall reasons of line {line}:")));
    // The whole source line on hover (long lines run past the pane).
    let source = String::from_utf8(fixture_bytes("source/inl.cu")).expect("text");
    let text = source.lines().nth(line as usize - 1).expect("line").trim();
    h.query_all_by_label_contains(&row)
        .next()
        .expect("the row")
        .hover();
    h.run();
    assert!(
        has_label(&h, &format!("line {line}: {text}")),
        "no hover text for line {line}"
    );
    let mut shown = 0;
    for name in after
        .columns
        .iter()
        .filter(|n| n.starts_with("stall_") && !n.ends_with("(Not Issued)"))
    {
        let v = number(&after, hottest, name);
        if v != 0 {
            let short = name.trim_start_matches("stall_");
            assert!(
                has_label_containing(&h, &format!("{short} {v} (")),
                "stall reason {name} {v} of line {line} not shown"
            );
            shown += 1;
        }
    }
    assert!(
        shown > 0,
        "line {line} has no stall reasons in ncu's export"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn source_page_ptx_view_shows_ncus_ptx_lines() {
    let dir = temp_dir("app_source_ptx");
    let mut h = chain_on_source_page(&dir, "source/inl_src.ncu-rep.xz");
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| has_label_containing(
            h,
            "CUDA source ("
        )),
        "the Source page never showed its lines"
    );
    h.get_by_role_and_label(Role::CheckBox, "PTX").click();
    h.run();

    let bytes = fixture_bytes("source/inl_src.inline_chain.source_ptx.csv");
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    let rows: Vec<(String, String)> = reader
        .records()
        .map(|r| {
            let r = r.expect("row");
            (r[0].to_string(), r[1].to_string())
        })
        .collect();
    // The function's own PTX first, the whole module one click away.
    assert!(has_label_containing(&h, "PTX of the function (lines "));
    h.get_by_role_and_label(Role::CheckBox, "Whole module")
        .click();
    h.run();
    assert!(has_label(&h, &format!("PTX ({} lines)", rows.len())));
    // Every line of ncu's export holding the searched text, with its number.
    type_into(&mut h, "Search", "ld.param");
    let wanted: Vec<&(String, String)> = rows
        .iter()
        .filter(|(_, t)| t.contains("ld.param"))
        .collect();
    assert!(wanted.len() >= 3, "{wanted:?}");
    for (number, text) in wanted {
        let label = format!("{number:>5}  {text}");
        assert!(has_label(&h, &label), "PTX line {label:?} not shown");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn inline_functions_table_lists_each_call_site_and_opens_its_line() {
    let dir = temp_dir("app_source_inline");
    let mut h = chain_on_source_page(&dir, "source/inl_src.ncu-rep.xz");
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| has_label_containing(
            h,
            "CUDA source ("
        )),
        "the Source page never showed its lines"
    );
    h.get_by_role_and_label(Role::CheckBox, "Inline functions")
        .click();
    h.run();
    // inl.cu: poly at lines 16 (twice, one row) and 28, load_and_poly at 27, store_checked at 29.
    assert!(has_label(&h, "Inline functions (4 call sites)"));
    let poly_at_28 = h
        .query_all_by_label_contains(" inl.cu:28 ")
        .filter_map(|n| n.accesskit_node().label())
        .find(|l| l.starts_with("poly "))
        .expect("poly called at line 28");
    h.get_by_label(&poly_at_28).click();
    h.run();
    h.get_by_role_and_label(Role::CheckBox, "Inline functions")
        .click();
    h.run();
    assert!(
        has_label_containing(&h, "SASS of line 28 ("),
        "the call site's line was not selected"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_hot_spot_of_the_source_counters_opens_the_source_page_at_its_line() {
    let dir = temp_dir("app_source_jump");
    let files = [fixture_file(&dir, "source/inl_src.ncu-rep.xz")];
    let app = SightlineApp::new(None, options(Vec::new(), false));
    let mut h = open_in_order(app, &files, false);
    let current = chain_in(&h, 0);
    hot_spots_showing(&mut h, current, "inl.cu:");
    // The first hot spot is ncu's hottest instruction by warp-stall samples.
    let address = {
        let export = source_csv::parse(&fixture_bytes(
            "source/inl_src.inline_chain.source_sass.csv.xz",
        ))
        .expect("export");
        let listing = &export.sass[0];
        let column = listing
            .columns
            .iter()
            .position(|c| c == "Warp Stall Sampling (All Samples)")
            .expect("column");
        let samples = |r: &source_csv::SassRow| -> i64 { r.cells[column].parse().unwrap_or(0) };
        listing
            .rows
            .iter()
            .max_by_key(|r| (samples(r), std::cmp::Reverse(r.address)))
            .expect("rows")
            .address
    };
    let link = h
        .query_all_by_role(Role::Link)
        .find(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.contains(".cu:"))
        })
        .expect("a hot-spot link");
    link.click_accesskit();
    h.step();
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| has_label_containing(
            h,
            "SASS of line"
        )),
        "the Source page never opened at a line"
    );
    assert_eq!(h.state().settings().page, PageId::Source);
    // The instruction is listed under the selected line with ncu's own sample count.
    let export = source_csv::parse(&fixture_bytes(
        "source/inl_src.inline_chain.source_sass.csv.xz",
    ))
    .expect("export");
    let listing = &export.sass[0];
    let samples = listing
        .columns
        .iter()
        .position(|c| c == "Warp Stall Sampling (All Samples)")
        .expect("column");
    let row = listing
        .rows
        .iter()
        .find(|r| r.address == address)
        .expect("address in ncu's listing");
    let v: i64 = row.cells[samples].parse().expect("integer");
    assert!(v > 0, "{address:#x} has no samples in ncu's export");
    let prefix = format!("{address:#x} {v:>10} ");
    assert!(
        has_label_containing(&h, &prefix),
        "no SASS row starting {prefix:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Details page's Source Counters hot spots are ncu's five hottest instructions of
/// `matmul_naive` by warp-stall samples, with the values and SASS of ncu's Source page export,
/// each at the CUDA line of the function's line table, and the stall reasons they are made of.
#[test]
fn details_hot_spots_show_line_sass_and_samples_of_ncus_hottest_instructions() {
    let dir = temp_dir("app_hot_spots");
    let file = fixture_file(&dir, "h100/kernels_full.ncu-rep.xz");
    let app = SightlineApp::new(None, options_with_sass(Vec::new()));
    let mut h = open_in_order(app, &[file], false);
    let open = &h.state().workspace().reports()[0];
    let at = ResultRef {
        report: open.id,
        index: 3,
    };
    assert!(
        open.report.results[3]
            .name
            .demangled
            .starts_with("matmul_naive")
    );
    hot_spots_showing(&mut h, at, "kernels.cu:");

    let export = source_csv::parse(&fixture_bytes(
        "source/kernels_full/k03_matmul_naive.source_sass.csv.xz",
    ))
    .expect("export");
    let listing = &export.sass[0];
    let column = listing
        .columns
        .iter()
        .position(|c| c == "Warp Stall Sampling (All Samples)")
        .expect("samples column");
    let samples = |r: &source_csv::SassRow| -> i64 { r.cells[column].parse().unwrap_or(0) };
    let mut rows: Vec<&source_csv::SassRow> = listing.rows.iter().collect();
    rows.sort_by_key(|r| (std::cmp::Reverse(samples(r)), r.address));
    let total: i64 = listing.rows.iter().map(samples).sum();

    // The line of each address, from the result's Source view.
    let result = h.state().workspace().reports()[0].report.results[3].clone();
    let view = sightline_app::views::source::load(
        Some(&dir.join("kernels_full.ncu-rep")),
        &result,
        Default::default(),
        &Disassembler::none(),
    )
    .expect("source view");
    for r in rows.iter().take(5) {
        let ins = view
            .instructions
            .iter()
            .find(|i| i.address == r.address)
            .expect("instruction");
        let (file, line) = ins.line().expect("line");
        assert!(view.files[file].path.ends_with("kernels.cu"));
        let location = format!("kernels.cu:{line}");
        let value = format!(
            "{} warp",
            sightline_engine::model::format::number_text(samples(r) as f64)
        );
        let share = format!("{:.1} %", 100.0 * samples(r) as f64 / total as f64);
        let sass: String = r.sass.split_whitespace().collect::<Vec<_>>().join(" ");
        for text in [&location, &value, &share] {
            assert!(has_label(&h, text), "{:#x}: no {text:?}", r.address);
        }
        assert!(
            has_label(&h, &sass),
            "{:#x}: no SASS {sass:?}; view has {:?}; notes {:?}",
            r.address,
            ins.sass,
            view.notes
        );
    }
    // The hottest instruction is a load waiting on memory: long scoreboard first.
    assert!(has_label_containing(&h, "Stall Long Scoreboard 99 %"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_rules_marker_opens_the_source_page_at_its_line() {
    let dir = temp_dir("app_source_marker");
    let files = [fixture_file(&dir, "source_files/reduce.ncu-rep.xz")];
    let app = SightlineApp::new(None, options(Vec::new(), false));
    let mut h = open_in_order(app, &files, false);
    h.state_mut().settings_mut().page = PageId::Rules;
    h.run();
    // The FP32 rule of reduce_shfl points at two lines, as its own table names them.
    assert!(has_label(&h, "reduce.cu:16"));
    assert!(has_label(&h, "reduce.cu:9"));
    h.get_by_label("reduce.cu:9").click_accesskit();
    h.step();
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| has_label_containing(
            h,
            "SASS of line 9"
        )),
        "the Source page never opened at line 9"
    );
    assert_eq!(h.state().settings().page, PageId::Source);
    // The line carries the rule's mark, with what the rule says there on hover.
    assert!(has_label(&h, "\u{25b6}"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn adding_a_sass_export_says_so_without_asking_for_a_path() {
    let dir = temp_dir("app_source_sass_notice");
    let files = [
        fixture_file(&dir, "source/inl_src.ncu-rep.xz"),
        fixture_file(&dir, "source/inl_src.inline_chain.source_sass.csv.xz"),
    ];
    let app = SightlineApp::new(None, options(Vec::new(), false));
    let mut h = open_in_order(app, &files, false);
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| has_label_containing(
            h,
            "Added SASS text for"
        )),
        "no notice of the SASS export"
    );
    // A notice that asks for nothing: dismissed, with no path bar.
    assert!(!has_label(&h, "Open path"));
    h.get_by_label("Dismiss").click();
    h.run();
    assert!(!has_label_containing(&h, "Added SASS text for"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn locating_a_missing_source_folder_shows_its_lines() {
    let dir = temp_dir("app_source_locate");
    let checkout = temp_dir("app_source_locate_checkout");
    std::fs::write(checkout.join("inl.cu"), fixture_bytes("source/inl.cu")).unwrap();
    let mut h = chain_on_source_page(&dir, "source/inl_nosrc.ncu-rep.xz");
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| has_label(
            h,
            "Locate inl.cu\u{2026}"
        )),
        "no Locate button for the missing file"
    );
    // What the folder dialog gives: the folder, for the folder the report recorded.
    h.state_mut()
        .handle(sightline_ui::Command::AddSourceFolder {
            recorded: "/opt/sightline-fixture/src".into(),
            folder: checkout.clone(),
        });
    let line = "__global__ void inline_chain";
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| has_label_containing(h, line)),
        "the located file's lines never showed"
    );
    assert!(!has_label(&h, "Locate inl.cu\u{2026}"));
    // Remembered for the next report that names files there.
    assert_eq!(
        h.state().settings().source_folders,
        vec![("/opt/sightline-fixture/src".to_string(), checkout.clone())]
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&checkout);
}

/// The CUDA line numbers whose rows the Source page's lines list draws (it draws only the
/// rows in view).
fn lines_in_view(h: &AppHarness) -> Vec<u32> {
    let mut lines: Vec<u32> = h
        .query_all_by_role(Role::Button)
        .filter_map(|n| n.accesskit_node().label())
        .filter(|l| l.len() > 5 && l.as_bytes()[5] == b' ')
        .filter_map(|l| l[..5].trim().parse().ok())
        .collect();
    lines.sort_unstable();
    lines.dedup();
    lines
}

#[test]
fn paging_keys_scroll_the_source_pages_lines_list() {
    let dir = temp_dir("app_source_paging");
    let mut h = chain_on_source_page(&dir, "source/inl_src.ncu-rep.xz");
    // A short window: the list holds fewer rows than the kernel has lines with code.
    h.set_size(egui::vec2(853.0, 380.0));
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| has_label_containing(
            h,
            "CUDA source ("
        )),
        "the Source page never showed its lines"
    );
    h.get_by_role_and_label(Role::CheckBox, "Hottest first")
        .click();
    h.run();
    let all = lines_with_code(&h);
    let (first, last) = (all[0], *all.last().expect("lines"));
    let shown = lines_in_view(&h);
    assert_eq!(shown.first(), Some(&first), "{shown:?}");
    assert!(!shown.contains(&last), "every line fits: {shown:?}");
    // The pointer over the list: the keys are the page's.
    let list = h
        .query_all_by_label_contains("CUDA source (")
        .next()
        .expect("the list's heading")
        .rect();
    h.event(egui::Event::PointerMoved(
        list.center_bottom() + egui::vec2(0.0, 40.0),
    ));
    h.run();
    h.key_press(egui::Key::End);
    h.run();
    assert!(
        lines_in_view(&h).contains(&last),
        "End: {:?}",
        lines_in_view(&h)
    );
    h.key_press(egui::Key::Home);
    h.run();
    assert_eq!(lines_in_view(&h).first(), Some(&first), "Home");
    h.key_press(egui::Key::PageDown);
    h.run();
    let paged = lines_in_view(&h);
    assert!(paged.first() > Some(&first), "Page Down: {paged:?}");
    h.key_press(egui::Key::PageUp);
    h.run();
    assert_eq!(lines_in_view(&h).first(), Some(&first), "Page Up");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The line numbers of the selected result's kernel file that have code, from its view.
fn lines_with_code(h: &AppHarness) -> Vec<u32> {
    let at = h.state().selection().expect("a selection");
    let (open, result) = h.state().workspace().result(at).expect("result");
    let view = sightline_app::views::source::load(
        open.path.as_deref(),
        result,
        Default::default(),
        &Disassembler::none(),
    )
    .expect("view");
    let file = view.kernel_file.expect("kernel file");
    let mut lines: Vec<u32> = view
        .lines
        .iter()
        .filter(|l| l.file == file)
        .map(|l| l.line)
        .collect();
    lines.sort_unstable();
    lines
}

#[test]
fn the_source_counters_say_a_note_of_reading_the_lines_once_for_both_hot_spot_tables() {
    // inl_nosrc records /opt/sightline-fixture/src/inl.cu and holds no source text.
    if std::path::Path::new("/opt/sightline-fixture/src/inl.cu").exists() {
        return; // the recorded path itself would be found
    }
    let dir = temp_dir("app_source_notes_once");
    let files = [fixture_file(&dir, "source/inl_nosrc.ncu-rep.xz")];
    let app = SightlineApp::new(None, options(Vec::new(), false));
    let mut h = open_in_order(app, &files, false);
    h.set_size(egui::vec2(1600.0, 2400.0));
    let current = chain_in(&h, 0);
    hot_spots_showing(&mut h, current, "inl.cu was not found");
    // Both of the section's hot-spot tables are drawn, with links to their lines.
    assert!(has_label(&h, "Most Instructions Executed"));
    let links = h
        .query_all_by_role(Role::Link)
        .filter(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.contains("inl.cu:"))
        })
        .count();
    assert!(links >= 2, "{links} hot-spot links");
    assert_eq!(
        h.query_all_by_label_contains("inl.cu was not found")
            .count(),
        1,
        "the note is said once"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
