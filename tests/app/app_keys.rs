//! Keyboard use of the desktop app, driven headless with egui_kittest: moving through the
//! results table (arrows, Home/End, Page Up/Down), the filter (Ctrl+F, Esc), pages (each
//! page's key from the action table, Ctrl+0 for the Trend page), baselines (Ctrl+B), closing
//! (Ctrl+W), switching reports (Ctrl+Tab), the shortcut list in the Help menu, every action of
//! the table in the menu and the help, and copying from right-click menus.

use crate::common;

use common::app_harness::{
    assert_label, copied, harness, has_label, new_app, open_in_order, selected_function, settle_ok,
};
use common::{fixture_file, fixture_path, load_truth, temp_dir};
use egui::{Key, Modifiers};
use egui_kittest::kittest::{NodeT, Queryable};
use sightline_app::core::actions::{Action, Shortcut};
use sightline_ui::PageId;
use sightline_ui::menu::{action_shortcut, shortcut_list};

const BASIC: &str = "h100/kernels_basic.details.txt";
const TRUTH: &str = "h100/kernels_basic.truth.json.xz";

/// The oracle's function names, in launch order (the table's order for one report).
fn functions() -> Vec<String> {
    load_truth(TRUTH).into_iter().map(|t| t.function).collect()
}

/// The app with the basic H100 report open and settled.
fn basic() -> common::app_harness::AppHarness {
    let mut h = harness(new_app(vec![fixture_path(BASIC)]));
    settle_ok(&mut h);
    h
}

fn press(h: &mut common::app_harness::AppHarness, key: Key) {
    h.key_press(key);
    h.run();
}

fn ctrl(h: &mut common::app_harness::AppHarness, key: Key) {
    h.key_press_modifiers(Modifiers::COMMAND, key);
    h.run();
}

#[test]
fn home_end_and_page_keys_move_through_the_table() {
    let names = functions();
    let mut h = basic();
    assert_eq!(selected_function(&h), names[0]);
    press(&mut h, Key::End);
    assert_eq!(selected_function(&h), *names.last().unwrap());
    press(&mut h, Key::Home);
    assert_eq!(selected_function(&h), names[0]);
    press(&mut h, Key::ArrowDown);
    assert_eq!(selected_function(&h), names[1]);
    // A page is several rows (the table shows more than two), never past the end.
    press(&mut h, Key::PageDown);
    let after_page = names
        .iter()
        .position(|n| *n == selected_function(&h))
        .unwrap();
    assert!(after_page > 2, "Page Down moved to row {after_page}");
    press(&mut h, Key::PageDown);
    press(&mut h, Key::PageDown);
    assert_eq!(selected_function(&h), *names.last().unwrap());
    press(&mut h, Key::PageUp);
    press(&mut h, Key::PageUp);
    press(&mut h, Key::PageUp);
    assert_eq!(selected_function(&h), names[0]);
}

#[test]
fn ctrl_f_focuses_the_filter_and_escape_clears_it() {
    let names = functions();
    let mut h = basic();
    ctrl(&mut h, Key::F);
    let target = names.last().unwrap().clone();
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, "Filter kernels")
        .type_text(&target);
    h.run();
    let shown = names.iter().filter(|n| n.contains(&target)).count();
    assert_label(&h, &format!("{shown} of {} results", names.len()));
    // The filter has the keyboard; Esc empties it.
    press(&mut h, Key::Escape);
    assert_label(&h, &format!("{} of {} results", names.len(), names.len()));
    assert!(h.state_mut().filter_mut().is_empty());
}

#[test]
fn ctrl_digits_switch_pages() {
    let mut h = basic();
    for &page in PageId::ALL.iter().rev() {
        let key = action_shortcut(Action::ShowPage(page)).expect("every page has a key");
        // One frame: pages that build their view in the background (Compare, Source) show a
        // spinner meanwhile, and the page switch is what is checked.
        h.key_press_modifiers(key.modifiers, key.logical_key);
        h.step();
        assert_eq!(h.state().settings().page, page, "{key:?}");
    }
    assert_eq!(h.state().settings().page, PageId::Details);
}

#[test]
fn ctrl_b_sets_and_removes_a_baseline() {
    let names = functions();
    let mut h = basic();
    ctrl(&mut h, Key::B);
    assert_eq!(h.state().baselines().len(), 1);
    assert_eq!(h.state().baselines()[0].kernel, names[0]);
    assert_eq!(h.state().baselines()[0].attached, h.state().selection());
    ctrl(&mut h, Key::B);
    assert!(h.state().baselines().is_empty());
}

#[test]
fn ctrl_tab_goes_to_the_next_report_and_ctrl_w_closes_it() {
    let dir = temp_dir("keys_reports");
    let a = fixture_file(&dir, BASIC);
    let b = fixture_file(&dir, "seeds/gui_details_copy_a100.txt");
    let mut h = open_in_order(new_app(Vec::new()), &[a, b], false);
    let reports: Vec<_> = h
        .state()
        .workspace()
        .reports()
        .iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(reports.len(), 2);
    h.state_mut().select_row(0);
    let first = h.state().selection().unwrap();
    assert_eq!(first.report, reports[0]);
    ctrl(&mut h, Key::Tab);
    assert_eq!(h.state().selection().unwrap().report, reports[1]);
    // Wraps around.
    ctrl(&mut h, Key::Tab);
    assert_eq!(h.state().selection(), Some(first));
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Tab);
    h.run();
    assert_eq!(h.state().selection().unwrap().report, reports[1]);
    ctrl(&mut h, Key::W);
    let open: Vec<_> = h
        .state()
        .workspace()
        .reports()
        .iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(open, vec![reports[0]]);
    assert_eq!(h.state().selection().unwrap().report, reports[0]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn help_lists_the_shortcuts() {
    let mut h = basic();
    h.get_by_label("Help").click();
    h.run();
    for (keys, what) in shortcut_list() {
        assert_label(&h, &keys);
        assert_label(&h, &what);
    }
}

/// How many labels on screen contain `text`.
fn count_containing(h: &common::app_harness::AppHarness, text: &str) -> usize {
    h.query_all_by_label_contains(text).count()
}

/// The keys a help row's keys stand for: `Ctrl+1 … Ctrl+9, Ctrl+0` is ten keys.
fn keys_of_help_row(keys: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in keys.split(", ") {
        let Some((first, last)) = part.split_once(" … ") else {
            out.push(part.to_string());
            continue;
        };
        let (prefix, from) = first.rsplit_once('+').expect("a key with modifiers");
        let to = last.rsplit_once('+').expect("a key with modifiers").1;
        let (from, to): (u32, u32) = (from.parse().unwrap(), to.parse().unwrap());
        out.extend((from..=to).map(|d| format!("{prefix}+{d}")));
    }
    out
}

/// Every action of the table has an entry in the File or the View menu, and every action with
/// a key is in the Help menu's list with its key.
#[test]
fn every_action_is_in_the_menu_and_the_help_list() {
    let mut h = basic();
    let actions: Vec<Action> = Action::all().collect();
    let mut in_a_menu = vec![false; actions.len()];
    for menu in ["File", "View"] {
        let before: Vec<usize> = actions
            .iter()
            .map(|a| count_containing(&h, a.label()))
            .collect();
        h.get_by_label(menu).click();
        h.run();
        for (i, action) in actions.iter().enumerate() {
            // The entry's label is its text, then its key as the window spells it.
            if count_containing(&h, action.label()) > before[i] {
                in_a_menu[i] = true;
            }
        }
        h.get_by_label(menu).click();
        h.run();
    }
    let missing: Vec<&str> = actions
        .iter()
        .zip(&in_a_menu)
        .filter(|(_, shown)| !**shown)
        .map(|(a, _)| a.label())
        .collect();
    assert!(missing.is_empty(), "not in any menu: {missing:?}");

    let help = shortcut_list();
    for action in &actions {
        let Some(key) = action.shortcut() else {
            continue;
        };
        let row = help
            .iter()
            .find(|(keys, _)| keys_of_help_row(keys).contains(&key.text()))
            .unwrap_or_else(|| panic!("{} ({}) is not in the help", action.label(), key.text()));
        assert!(
            row.1.contains(action.description()),
            "{}: the help row {row:?}",
            key.text()
        );
    }
}

/// No two actions have the same key, nor the key of the results table's filter.
#[test]
fn no_two_actions_share_a_key() {
    let keyed: Vec<(Action, Shortcut)> = Action::all()
        .filter_map(|a| a.shortcut().map(|s| (a, s)))
        .collect();
    for (i, (a, key)) in keyed.iter().enumerate() {
        for (b, other) in &keyed[i + 1..] {
            assert_ne!(key, other, "{a:?} and {b:?} share {}", key.text());
        }
        assert_ne!(
            action_shortcut(*a),
            Some(sightline_ui::results_table::FIND_SHORTCUT),
            "{a:?} takes the filter's key"
        );
    }
    // Every page has a key of its own.
    let pages = keyed
        .iter()
        .filter(|(a, _)| matches!(a, Action::ShowPage(_)))
        .count();
    assert_eq!(pages, PageId::ALL.len());
}

/// The Trend page's key (Ctrl+0, after Ctrl+9 on the digit row) opens the Trend page, and the
/// zoom stays where it was: the key is the page's, not egui's reset of the zoom.
#[test]
fn the_trend_pages_key_opens_the_trend_page() {
    let mut h = basic();
    let key = action_shortcut(Action::ShowPage(PageId::Trend)).expect("a key");
    assert_eq!(
        (key.modifiers, key.logical_key),
        (Modifiers::COMMAND, Key::Num0)
    );
    h.state_mut().settings_mut().zoom_factor = 1.5;
    h.run();
    assert_ne!(h.state().settings().page, PageId::Trend);
    h.key_press_modifiers(key.modifiers, key.logical_key);
    h.step();
    h.step();
    assert_eq!(h.state().settings().page, PageId::Trend);
    assert_eq!(h.state().settings().zoom_factor, 1.5);
}

/// The texts the last frame put on the clipboard.

#[test]
fn right_click_on_a_row_copies_it_as_tsv_and_markdown() {
    let names = functions();
    let mut h = basic();
    h.get_all_by_label(&names[0])
        .next()
        .unwrap()
        .click_secondary();
    h.run();
    h.get_by_label("Copy row (TSV)").click();
    h.step();
    let tsv = copied(&h);
    assert_eq!(tsv.len(), 1, "{tsv:?}");
    let lines: Vec<&str> = tsv[0].lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with("Report\tID\tKernel\t"));
    let cells: Vec<&str> = lines[1].split('\t').collect();
    assert_eq!(cells.len(), 9);
    assert_eq!(cells[0], "kernels_basic.details.txt");
    assert!(cells[2].starts_with(&names[0]), "{}", cells[2]);
    h.run();

    h.get_all_by_label(&names[0])
        .next()
        .unwrap()
        .click_secondary();
    h.run();
    h.get_by_label("Copy all shown rows (Markdown)").click();
    h.step();
    let md = copied(&h);
    assert_eq!(md.len(), 1, "{md:?}");
    let lines: Vec<&str> = md[0].lines().collect();
    // Header, separator and one line per result.
    assert_eq!(lines.len(), 2 + names.len());
    assert!(lines[1].starts_with("|---|"));
    for (line, name) in lines[2..].iter().zip(&names) {
        assert!(line.contains(name.as_str()), "{line} names {name}");
    }
}

#[test]
fn right_click_on_a_row_selects_the_row_its_menu_acts_on() {
    let names = functions();
    let mut h = basic();
    let first = h.state().selection().expect("the first result selected");
    assert_eq!(first.index, 0);
    h.get_all_by_label(&names[3])
        .next()
        .unwrap()
        .click_secondary();
    h.run();
    assert_eq!(h.state().selection().map(|s| s.index), Some(3));
}

#[test]
fn a_filter_that_hides_the_selection_says_so() {
    let names = functions();
    let mut h = basic();
    assert_eq!(h.state().selection().map(|s| s.index), Some(0));
    let hidden = "The selected result is hidden by the filter";
    assert!(!has_label(&h, hidden));
    // A filter that keeps other kernels but not the selected vector_add.
    h.state_mut().filter_mut().push_str(&names[3]);
    h.run();
    assert!(has_label(&h, hidden));
    h.state_mut().filter_mut().clear();
    h.run();
    assert!(!has_label(&h, hidden));
}

#[test]
fn right_click_on_a_metric_copies_its_value() {
    let truth = load_truth(TRUTH);
    let mut h = basic();
    // The Duration row of the first result's speed-of-light section, as ncu prints it.
    let duration_ns = truth[0].number("gpu__time_duration.sum");
    let shown = format!("{:.2}", duration_ns / 1000.0);
    h.get_all_by_label(&shown)
        .last()
        .expect("the duration value")
        .click_secondary();
    h.run();
    h.get_by_label("Copy value").click();
    h.step();
    assert_eq!(copied(&h), vec![format!("{shown} us")]);
}

/// With the pointer last over the page, Page Down, End and Home scroll the page and leave the
/// table's selection where it is; back over the table, they move the selection again.
#[test]
fn paging_keys_scroll_the_pane_the_pointer_was_last_over() {
    let names = functions();
    let mut h = basic();
    h.state_mut().settings_mut().page = PageId::Details;
    h.run();
    let top_of = |h: &common::app_harness::AppHarness, label: &str| {
        h.query_all_by_label(label)
            .next()
            .and_then(|n| n.accesskit_node().bounding_box())
            .map(|r| r.y0)
    };
    let section = "GPU Speed Of Light Throughput";
    let before = top_of(&h, section).expect("the first section on the page");
    // Over the page, below the table.
    let page_point = egui::pos2(900.0, 820.0);
    h.event(egui::Event::PointerMoved(page_point));
    h.run();
    press(&mut h, Key::PageDown);
    assert_eq!(
        selected_function(&h),
        names[0],
        "Page Down moved the selection"
    );
    let after = top_of(&h, section);
    assert!(
        after.is_none_or(|y| y < before - 100.0),
        "the page did not scroll: {before} → {after:?}"
    );
    press(&mut h, Key::Home);
    assert_eq!(
        top_of(&h, section),
        Some(before),
        "Home went back to the top"
    );
    press(&mut h, Key::End);
    assert_eq!(selected_function(&h), names[0], "End moved the selection");
    // Over the table again: the keys move the selection.
    h.event(egui::Event::PointerMoved(egui::pos2(700.0, 150.0)));
    h.run();
    press(&mut h, Key::End);
    assert_eq!(selected_function(&h), *names.last().unwrap());
}

/// After a sort the selected row is scrolled into view: the last row selected (End scrolls the
/// table to the bottom), a sort by duration puts it first, and its row is drawn there (the
/// table lays out only the rows in view).
#[test]
fn the_selected_row_stays_in_view_after_a_sort() {
    let names = functions();
    let mut h = basic();
    press(&mut h, Key::End);
    let last = names.last().unwrap().clone();
    assert_eq!(selected_function(&h), last);
    let shown = |h: &common::app_harness::AppHarness| h.query_all_by_label(&last).count();
    // The page header and the table row.
    assert_eq!(shown(&h), 2);
    // Back to the top without moving the selection: the row leaves the view.
    h.event(egui::Event::PointerMoved(egui::pos2(700.0, 150.0)));
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, 2000.0),
        phase: egui::TouchPhase::Move,
        modifiers: Modifiers::NONE,
        source: egui::MouseWheelSource::Wheel,
    });
    h.run();
    assert_eq!(
        shown(&h),
        1,
        "the table did not scroll away from its last row"
    );
    h.query_all_by_label("Duration")
        .next()
        .expect("the Duration header")
        .click();
    h.run();
    h.run();
    assert_eq!(selected_function(&h), last);
    assert_eq!(
        shown(&h),
        2,
        "the selected row is not in view after the sort"
    );
}

/// Ctrl+W can be undone: the bar names what was closed, Ctrl+Shift+T (or its Undo button)
/// opens the file again with all its results; "Close all reports" is undone as one step; a
/// pasted text is named as one that cannot come back.
#[test]
fn a_close_can_be_undone() {
    let names = functions();
    let mut h = basic();
    ctrl(&mut h, Key::W);
    assert_eq!(h.state().workspace().reports().len(), 0);
    assert_label(&h, "Closed kernels_basic.details.txt.");
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::T);
    settle_ok(&mut h);
    common::app_harness::assert_loaded(&h, 1, names.len());
    assert!(!has_label(&h, "Closed kernels_basic.details.txt."));

    // Two files and a pasted text closed together come back together, with the Undo button.
    let dir = temp_dir("undo_close");
    let second = fixture_file(&dir, "h100/kernels_full.details.txt");
    h.state_mut().handle(sightline_app::Command::Open(
        sightline_app::OpenRequest::Path(second),
    ));
    let text = std::fs::read_to_string(fixture_path(BASIC)).expect("text");
    h.state_mut().handle(sightline_app::Command::Open(
        sightline_app::OpenRequest::Text {
            name: "Pasted text 1".into(),
            text,
        },
    ));
    settle_ok(&mut h);
    common::app_harness::assert_loaded(&h, 3, 3 * names.len());
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Close all reports").click();
    h.run();
    common::app_harness::assert_loaded(&h, 0, 0);
    assert_label(
        &h,
        "Closed 2 reports. Pasted text 1 cannot be opened again (pasted text has no file).",
    );
    h.get_by_label("Undo").click();
    settle_ok(&mut h);
    common::app_harness::assert_loaded(&h, 2, 2 * names.len());
    let _ = std::fs::remove_dir_all(&dir);
}
