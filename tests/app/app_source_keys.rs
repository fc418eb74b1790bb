//! The Source page for the keyboard and for a laptop: Up and Down move in the lines or the
//! SASS, whichever pane the pointer was last in, and never change the selected result; Enter
//! shows the selected line's SASS; the split between the panes drags and is remembered; the
//! Reports panel hides and comes back (button, View menu and Ctrl+Shift+R).

use crate::common;

use common::app_harness::{
    AppHarness, WAIT_TIMEOUT, drag, has_label, has_label_containing, open_in_order, options,
    selected_function, show_page, step_until,
};
use common::{fixture_file, temp_dir};
use egui::accesskit::{Role, Toggled};
use egui::{Key, Modifiers};
use egui_kittest::kittest::{NodeT, Queryable};
use sightline_app::core::ids::ResultRef;
use sightline_ui::{PageId, SightlineApp};

/// `kernels_full` open, its `matmul_naive` (result 3) selected, the Source page shown.
fn matmul_on_source_page(dir: &std::path::Path) -> AppHarness {
    let file = fixture_file(dir, "h100/kernels_full.ncu-rep.xz");
    let app = SightlineApp::new(None, options(Vec::new(), false));
    let mut h = open_in_order(app, &[file], false);
    let report = h.state().workspace().reports()[0].id;
    h.state_mut().select(Some(ResultRef { report, index: 3 }));
    h.run();
    show_page(&mut h, PageId::Source);
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| has_label_containing(
            h,
            "CUDA source ("
        )),
        "the Source page never showed its lines"
    );
    h
}

/// The labels of the selected rows of the page's lists: CUDA lines (`   83 ...`) and
/// instructions (`0x...`).
fn selected_rows(h: &AppHarness) -> Vec<String> {
    let is_row = |l: &str| {
        l.starts_with("0x") || l.get(..5).is_some_and(|n| n.trim().parse::<u32>().is_ok())
    };
    h.query_all_by_role(Role::Button)
        .filter(|n| n.accesskit_node().toggled() == Some(Toggled::True))
        .filter_map(|n| n.accesskit_node().label().map(|l| l.to_string()))
        .filter(|l| is_row(l))
        .collect()
}

/// The heading of the SASS pane ("SASS of line 83 (12 instructions)") and where it is.
fn sass_heading_at(h: &AppHarness) -> (String, egui::Rect) {
    h.query_all_by_label_contains("instructions)")
        .filter_map(|n| {
            let node = n.accesskit_node();
            let text = node.label().or(node.value())?.to_string();
            text.starts_with("SASS").then(|| (text, n.rect()))
        })
        .next()
        .expect("the SASS pane's heading")
}

fn sass_heading(h: &AppHarness) -> String {
    sass_heading_at(h).0
}

/// Moves the pointer over the pane whose heading contains `heading`, below it.
fn point_into(h: &mut AppHarness, heading: &str) {
    let rect = h
        .query_all_by_label_contains(heading)
        .next()
        .unwrap_or_else(|| panic!("no {heading:?}"))
        .rect();
    h.event(egui::Event::PointerMoved(
        rect.left_bottom() + egui::vec2(20.0, 80.0),
    ));
    h.run();
}

fn press(h: &mut AppHarness, key: Key) {
    h.key_press(key);
    h.run();
}

#[test]
fn up_down_and_enter_move_in_the_pane_pointed_at_and_keep_the_result() {
    let dir = temp_dir("source_keys");
    let mut h = matmul_on_source_page(&dir);
    let result = selected_function(&h);
    point_into(&mut h, "CUDA source (");
    assert!(selected_rows(&h).is_empty(), "no line selected at first");
    press(&mut h, Key::ArrowDown);
    let first = selected_rows(&h);
    assert_eq!(first.len(), 1, "{first:?}");
    let first_line: u32 = first[0][..5].trim().parse().expect("a line number");
    assert!(sass_heading(&h).starts_with(&format!("SASS of line {first_line} ")));
    press(&mut h, Key::ArrowDown);
    let second = selected_rows(&h);
    assert_eq!(second.len(), 1);
    assert_ne!(second, first, "Down moves to the next line");
    press(&mut h, Key::ArrowUp);
    assert_eq!(selected_rows(&h), first, "Up moves back");
    assert_eq!(selected_function(&h), result, "the result stays selected");

    // In the SASS pane the keys move between the line's instructions; the line stays.
    point_into(&mut h, "SASS of line");
    press(&mut h, Key::ArrowDown);
    let rows = selected_rows(&h);
    assert_eq!(rows.len(), 2, "the line and an instruction: {rows:?}");
    let instruction = rows
        .iter()
        .find(|r| r.starts_with("0x"))
        .expect("an instruction")
        .clone();
    press(&mut h, Key::ArrowDown);
    let next = selected_rows(&h);
    assert!(next.contains(&first[0]), "the line stays: {next:?}");
    assert!(
        !next.contains(&instruction),
        "the next instruction: {next:?}"
    );
    assert_eq!(selected_function(&h), result);

    // Enter on a line shows that line's SASS, not the whole function's.
    h.get_by_role_and_label(Role::CheckBox, "Whole function's SASS")
        .click();
    h.run();
    assert!(
        sass_heading(&h).starts_with("SASS ("),
        "{}",
        sass_heading(&h)
    );
    point_into(&mut h, "CUDA source (");
    press(&mut h, Key::Enter);
    assert!(
        sass_heading(&h).starts_with(&format!("SASS of line {first_line} ")),
        "{}",
        sass_heading(&h)
    );
    assert_eq!(selected_function(&h), result);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_split_between_lines_and_sass_drags_and_is_remembered() {
    let dir = temp_dir("source_split");
    let mut h = matmul_on_source_page(&dir);
    let before = h.state().settings().panels.source_split;
    let lines = h
        .query_all_by_label_contains("CUDA source (")
        .next()
        .expect("lines heading")
        .rect();
    let sass = sass_heading_at(&h).1;
    // The handle lies just left of the SASS pane.
    let handle = egui::pos2(sass.min.x - 4.0, sass.center().y + 60.0);
    drag(&mut h, handle, handle - egui::vec2(150.0, 0.0));
    let after = h.state().settings().panels.source_split;
    assert!(after < before - 0.05, "dragged left: {before} -> {after}");
    let sass_after = sass_heading_at(&h).1;
    assert!(
        sass_after.min.x < sass.min.x - 100.0,
        "the SASS pane widened"
    );
    assert!(lines.min.x < sass_after.min.x);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_reports_panel_hides_and_comes_back() {
    let dir = temp_dir("reports_panel");
    let mut h = matmul_on_source_page(&dir);
    let name = "kernels_full.ncu-rep";
    assert!(has_label_containing(&h, name));
    let page_left = |h: &AppHarness| {
        h.query_all_by_label_contains("CUDA source (")
            .next()
            .expect("lines heading")
            .rect()
            .min
            .x
    };
    let shown_at = page_left(&h);
    h.get_by_label("\u{25c2} Hide").click();
    h.run();
    assert!(h.state().settings().panels.reports_hidden);
    assert!(page_left(&h) < shown_at - 100.0, "the page gets the width");
    // The strip's button brings it back; Ctrl+Shift+R hides it again, and shows it.
    h.get_by_label("\u{25b8}").click();
    h.run();
    assert!(!h.state().settings().panels.reports_hidden);
    assert!(has_label(&h, "\u{25c2} Hide"));
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::R);
    h.run();
    assert!(h.state().settings().panels.reports_hidden);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::R);
    h.run();
    assert!(!h.state().settings().panels.reports_hidden);
    assert_eq!(page_left(&h), shown_at);
    let _ = std::fs::remove_dir_all(&dir);
}
