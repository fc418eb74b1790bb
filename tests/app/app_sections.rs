//! Section bodies on the Details page, driven headless with egui_kittest: the charts and
//! tables of a native report and of its `--print-details all` text export, and image
//! snapshots of the memory chart (with the first memory table; also with inactive units
//! hidden) and of the warp stall chart in both themes.

#![cfg(feature = "app")]

use crate::common;

use common::app_harness::{
    assert_label, has_label, has_label_containing, new_app, open_ok, settle_ok, show_page,
};
use common::{fixture_file, temp_dir};
use egui_kittest::kittest::{NodeT, Queryable};
use sightline_ui::{PageId, ThemeChoice};

/// Item labels the Details page shows for the first kernel (vector_add) of `kernels_full`.
const ITEMS: [&str; 5] = [
    "Warp State (All Cycles) · cycles per issued instruction",
    "Warps Per Scheduler",
    "Pipe Utilization (% of active cycles)",
    "Memory Chart",
    "Device Memory",
];

#[test]
fn details_page_shows_the_report_bodies() {
    let dir = temp_dir("sections_rep");
    let file = fixture_file(&dir, "h100/kernels_full.ncu-rep.xz");
    let mut h = open_ok(vec![file], false);
    show_page(&mut h, PageId::Details);
    for label in ITEMS {
        assert_label(&h, label);
    }
    // Memory tables laid out by access type.
    assert_label(&h, "Global Loads");
    // The memory chart's label switch.
    assert_label(&h, "Transfer Size");
}

#[test]
fn roofline_inputs_wait_behind_one_click_scaled_as_ncu_prints_them() {
    let dir = temp_dir("sections_roofline_inputs");
    let file = fixture_file(&dir, "h100/kernels_full.ncu-rep.xz");
    let mut h = open_ok(vec![file], false);
    show_page(&mut h, PageId::Details);
    let headers: Vec<String> = h
        .query_all_by_label_contains("Chart inputs (")
        .filter_map(|n| n.accesskit_node().label())
        .collect();
    assert!(!headers.is_empty(), "roofline bodies with their inputs");
    assert!(
        !has_label(&h, "Theoretical DRAM Bytes Accessible"),
        "inputs start closed"
    );
    // Scrolled out of view: opened the way assistive tools open them.
    for i in 0..headers.len() {
        if let Some(node) = h.query_all_by_label_contains("Chart inputs (").nth(i) {
            node.click_accesskit();
        }
        h.run();
    }
    assert!(has_label_containing(
        &h,
        "Theoretical DRAM Bytes Accessible"
    ));
    // 1,280 bytes per cycle and a bandwidth stored without its per-second, as ncu shows them.
    assert!(has_label(&h, "1.28 Kbyte/cycle"));
    assert!(has_label_containing(&h, "Tbyte/s"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn details_page_shows_the_bodies_of_the_text_export() {
    let dir = temp_dir("sections_text");
    let file = fixture_file(&dir, "h100/kernels_full.details_all.txt.xz");
    let mut h = open_ok(vec![file], false);
    show_page(&mut h, PageId::Details);
    for label in ITEMS {
        assert_label(&h, label);
    }
    assert!(has_label(&h, "Global Loads"));
}

#[test]
fn a_text_export_without_bodies_says_which_export_has_them() {
    // The CC 8.6 capture prints the header tables only.
    let dir = temp_dir("sections_missing");
    let file = fixture_file(&dir, "seeds/cli_details_cc86.txt");
    let mut h = open_ok(vec![file], false);
    show_page(&mut h, PageId::Details);
    assert!(!has_label(&h, "Memory Chart"));
    assert!(has_label_containing(
        &h,
        "Charts and tables of this section: charts and tables need the .ncu-rep report, or its \
         text export with `ncu -i REPORT --print-details all`."
    ));
}

#[test]
fn a_rules_guidance_shows_on_hover_of_its_message() {
    let dir = temp_dir("sections_guidance");
    let rel = "h100/kernels_full.ncu-rep.xz";
    let report = common::load_fixture(rel);
    let rule = report.results[0]
        .all_rules()
        .find(|r| !r.guidance.is_empty())
        .expect("a rule with guidance")
        .clone();
    let file = fixture_file(&dir, rel);
    let mut h = open_ok(vec![file], false);
    show_page(&mut h, PageId::Details);
    // Tall enough that the rule is not under the status bar.
    h.set_size(egui::vec2(1400.0, 2400.0));
    h.run();
    let message = sightline_engine::output::text::clean_markup(&rule.message);
    let (metric, text) = &rule.guidance[0];
    let tip = format!("{metric}: {text}");
    assert!(!has_label_containing(&h, &tip));
    h.get_by_label(&message).hover();
    // Tooltips open once the pointer has rested a moment.
    for _ in 0..20 {
        h.step();
    }
    assert!(has_label_containing(&h, &tip), "no tooltip {tip:?}");
}

/// The Details page of vector_add scrolled to `label`, in a theme, as snapshot `name`.
fn snapshot_at(label: &str, theme: ThemeChoice, name: &str) {
    snapshot_after(label, theme, name, &[]);
}

/// As [`snapshot_at`], after clicking the buttons labelled `clicks`.
fn snapshot_after(label: &str, theme: ThemeChoice, name: &str, clicks: &[&str]) {
    let dir = temp_dir(name);
    let mut app = new_app(vec![fixture_file(&dir, "h100/kernels_full.ncu-rep.xz")]);
    app.settings_mut().theme = theme;
    // Taller than the shared harness, so a whole chart fits below the results table.
    let mut h = egui_kittest::Harness::builder()
        .with_size([1400.0, 1300.0])
        .with_max_steps(12)
        .with_options(common::app_harness::snapshot_options())
        .wgpu()
        .build_ui_state(|ui, app: &mut sightline_ui::SightlineApp| app.ui(ui), app);
    settle_ok(&mut h);
    show_page(&mut h, PageId::Details);
    h.query_all_by_label(label)
        .next()
        .unwrap_or_else(|| panic!("no {label}"))
        .scroll_to_me();
    h.run();
    for click in clicks {
        h.get_by_label(click).click();
        h.run();
    }
    h.snapshot(name);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn snapshot_memory_chart_dark() {
    snapshot_at("Memory Tables", ThemeChoice::Dark, "memory_chart_dark");
}

#[test]
fn snapshot_memory_chart_light() {
    snapshot_at("Memory Tables", ThemeChoice::Light, "memory_chart_light");
}

/// "Inactive: Hidden" leaves out the units and links nothing went through.
#[test]
fn snapshot_memory_chart_hidden_inactive() {
    snapshot_after(
        "Memory Tables",
        ThemeChoice::Dark,
        "memory_chart_hidden",
        &["Hidden"],
    );
}

#[test]
fn snapshot_stall_chart_dark() {
    snapshot_at(
        "Warp State (All Cycles) · cycles per issued instruction",
        ThemeChoice::Dark,
        "stall_chart_dark",
    );
}

#[test]
fn snapshot_stall_chart_light() {
    snapshot_at(
        "Warp State (All Cycles) · cycles per issued instruction",
        ThemeChoice::Light,
        "stall_chart_light",
    );
}

/// Every link label of every memory chart of `kernels_full` sits beside its own link: on no
/// box, no other label and no other link, within reach of the segment into its unit. Labels
/// are sized as the widest the chart writes (`134.22 MB` at 11 points is about 60 units).
#[test]
fn memory_chart_labels_cover_no_box_link_or_other_label() {
    use sightline_engine::analysis::sections::{bodies_of, memory_chart};
    use sightline_engine::model::section_body::ItemKind;
    use sightline_ui::widgets::memory_chart_layout::{place, unit_rect};
    let report = common::load_fixture("h100/kernels_full.ncu-rep.xz");
    let mut charts = 0;
    for i in 0..report.results.len() {
        let bodies = bodies_of(&report, i);
        let Some(item) = bodies
            .iter()
            .flat_map(|s| &s.bodies)
            .flat_map(|b| &b.items)
            .find(|it| it.kind == ItemKind::MemoryChart)
        else {
            continue;
        };
        charts += 1;
        let chart = memory_chart::build(Some(item), None);
        let sizes: Vec<egui::Vec2> = chart
            .links
            .iter()
            .map(|l| {
                let text = sightline_ui::widgets::memory_chart::amount_text(
                    l,
                    sightline_ui::widgets::memory_chart::LabelMode::TransferSize,
                );
                egui::vec2(6.2 * text.chars().count() as f32, 14.0)
            })
            .collect();
        let placed = place(&chart, &sizes);
        assert_eq!(placed.len(), chart.links.len());
        for (k, (l, p)) in chart.links.iter().zip(&placed).enumerate() {
            let what = format!("result {i}: {:?} → {:?}", l.from, l.to);
            for n in &chart.nodes {
                assert!(
                    !unit_rect(n.unit).intersects(p.label),
                    "{what}: label on the {:?} box",
                    n.unit
                );
            }
            for (j, other) in placed.iter().enumerate() {
                assert!(
                    j == k || !other.label.intersects(p.label),
                    "{what}: labels overlap"
                );
                // Its own link included: a label beside its link, not on it.
                for s in other.path.windows(2) {
                    let hit = (0..=32)
                        .any(|t| p.label.contains(s[0] + (s[1] - s[0]) * (t as f32 / 32.0)));
                    assert!(!hit, "{what}: label on a link");
                }
            }
            let (a, b) = (p.path[p.path.len() - 2], p.path[p.path.len() - 1]);
            let near = (0..=32).any(|t| {
                let q = a + (b - a) * (t as f32 / 32.0);
                p.label.expand(6.0).contains(q)
            });
            assert!(near, "{what}: label away from its link");
        }
    }
    assert_eq!(
        charts,
        report.results.len(),
        "every kernel has a memory chart"
    );
}

/// The roofline sections draw their charts on the Details page, as ncu-ui does, with the
/// chart's inputs one click away.
#[test]
fn details_page_draws_the_roofline_sections_charts() {
    let dir = temp_dir("details_roofline");
    let file = fixture_file(&dir, "h100/kernels_full.ncu-rep.xz");
    let mut h = open_ok(vec![file], false);
    show_page(&mut h, PageId::Details);
    let drawn = "Tables, zoom and every result of the report: the Roofline page (Ctrl+4).";
    h.query_all_by_label("Floating Point Operations Roofline")
        .next()
        .expect("the roofline section's chart")
        .scroll_to_me();
    h.run();
    assert!(
        has_label(&h, drawn),
        "no chart drawn in the roofline section"
    );
    assert!(has_label_containing(&h, "Chart inputs ("));
    let _ = std::fs::remove_dir_all(&dir);
}
