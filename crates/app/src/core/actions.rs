//! The user's actions as data: one table that gives each action its menu text, tooltip, the
//! words the help list says it with, its keyboard shortcut and the [`Command`] it becomes. The
//! window's menu, its help list of keys and its key handler all read this table, so a key is
//! spelled once and an action cannot have a key the menu or the help does not know.
//!
//! Keys are written in the table's own terms ([`Shortcut`], [`Key`]): the desktop front end
//! turns them into its toolkit's, and the help list spells them as [`Shortcut::text`] does.

use crate::core::commands::{Command, OpenRequest};
use crate::core::ids::ResultRef;
use crate::core::page_id::PageId;

/// A key an action is bound to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    B,
    O,
    Q,
    R,
    T,
    V,
    W,
    Tab,
    Num0,
    Num1,
    Num2,
    Num3,
    Num4,
    Num5,
    Num6,
    Num7,
    Num8,
    Num9,
}

impl Key {
    /// The digit keys, from 0.
    pub const DIGITS: [Key; 10] = [
        Key::Num0,
        Key::Num1,
        Key::Num2,
        Key::Num3,
        Key::Num4,
        Key::Num5,
        Key::Num6,
        Key::Num7,
        Key::Num8,
        Key::Num9,
    ];

    /// The key's name as the help list writes it.
    pub fn name(self) -> &'static str {
        match self {
            Key::B => "B",
            Key::O => "O",
            Key::Q => "Q",
            Key::R => "R",
            Key::T => "T",
            Key::V => "V",
            Key::W => "W",
            Key::Tab => "Tab",
            Key::Num0 => "0",
            Key::Num1 => "1",
            Key::Num2 => "2",
            Key::Num3 => "3",
            Key::Num4 => "4",
            Key::Num5 => "5",
            Key::Num6 => "6",
            Key::Num7 => "7",
            Key::Num8 => "8",
            Key::Num9 => "9",
        }
    }

    /// The digit of a digit key.
    pub fn digit(self) -> Option<usize> {
        Key::DIGITS.iter().position(|&d| d == self)
    }
}

/// A key with the modifiers held with it. `command` is Ctrl (Cmd on macOS).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shortcut {
    pub command: bool,
    pub shift: bool,
    pub alt: bool,
    pub key: Key,
}

impl Shortcut {
    /// Ctrl and `key`.
    pub const fn ctrl(key: Key) -> Shortcut {
        Shortcut {
            command: true,
            shift: false,
            alt: false,
            key,
        }
    }

    /// Ctrl, Shift and `key`.
    pub const fn ctrl_shift(key: Key) -> Shortcut {
        Shortcut {
            shift: true,
            ..Shortcut::ctrl(key)
        }
    }

    /// Alt and `key`.
    pub const fn alt(key: Key) -> Shortcut {
        Shortcut {
            command: false,
            shift: false,
            alt: true,
            key,
        }
    }

    /// The keys as the help list writes them: `Ctrl+Shift+T`.
    pub fn text(self) -> String {
        let mut text = String::new();
        for (held, name) in [
            (self.command, "Ctrl+"),
            (self.alt, "Alt+"),
            (self.shift, "Shift+"),
        ] {
            if held {
                text.push_str(name);
            }
        }
        text.push_str(self.key.name());
        text
    }

    /// How many of Shift and Alt it holds. A toolkit that lets a press with Shift or Alt held
    /// match a shortcut without them (Shift makes `+` on some keyboards) sees Ctrl+Shift+Tab in
    /// Ctrl+Tab too, so the key handler tries the shortcuts that hold more of them first.
    pub fn extra_modifiers(self) -> usize {
        usize::from(self.shift) + usize::from(self.alt)
    }
}

/// The key of the page at tab position `number` (from 1).
///
/// The first nine pages are Ctrl+1 … Ctrl+9 and the tenth is Ctrl+0, the digit row in its
/// order on the keyboard (Ctrl+0 is then a page's key, no longer a key that resets the zoom:
/// View > Reset zoom does). An eleventh and a twelfth page get Alt+1 and Alt+2, a second row on
/// the same digits (Alt+3 … Alt+9, then Alt+0, for the pages after them); past the twentieth a
/// page has no key. Alt+digit never matches Ctrl+digit (Ctrl must be held, or not, exactly).
pub fn page_shortcut(number: usize) -> Option<Shortcut> {
    let digit = |n: usize| Key::DIGITS[n % 10];
    match number {
        1..=10 => Some(Shortcut::ctrl(digit(number))),
        11..=20 => Some(Shortcut::alt(digit(number - 10))),
        _ => None,
    }
}

/// What the window knows when an action is asked for.
#[derive(Debug, Clone, Copy, Default)]
pub struct ActionContext {
    /// The selected result, where its row is visible (never one the filter hides).
    pub selection: Option<ResultRef>,
    /// Whether a close can be undone.
    pub can_undo_close: bool,
}

/// What carrying out an action does: a command for the app, or a request to the window.
#[derive(Debug, Clone)]
pub enum Effect {
    /// A command, carried out after the frame.
    App(Command),
    /// Close the window.
    Quit,
    /// Read the clipboard: its text arrives as a paste and opens as a report.
    Paste,
}

/// One thing the user can ask for from the menu, and from the keyboard where it has a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// File > Open…: the native file dialog.
    Open,
    /// Paste ncu text from the clipboard.
    Paste,
    /// File > Follow folder…: the native folder dialog.
    FollowFolder,
    /// Open the demo report.
    OpenDemo,
    /// Show a page of the selected result.
    ShowPage(PageId),
    /// Make the selected result a baseline, or stop using it as one.
    ToggleBaseline,
    /// Close the selected result's report.
    CloseReport,
    /// Close every report.
    CloseAll,
    /// Open again what the last close closed.
    ReopenClosed,
    /// The first result of the next report, in the order they were opened.
    NextReport,
    /// The first result of the previous report.
    PreviousReport,
    /// Hide the Reports panel, or show it again.
    ToggleReportsPanel,
    /// Close the window.
    Quit,
}

/// The actions before the pages, in the help list's order.
const BEFORE_PAGES: [Action; 4] = [
    Action::Open,
    Action::Paste,
    Action::FollowFolder,
    Action::OpenDemo,
];

/// The actions after the pages.
const AFTER_PAGES: [Action; 8] = [
    Action::ToggleBaseline,
    Action::CloseReport,
    Action::CloseAll,
    Action::ReopenClosed,
    Action::NextReport,
    Action::PreviousReport,
    Action::ToggleReportsPanel,
    Action::Quit,
];

impl Action {
    /// Every action, in the order the help list gives them: a page per tab, in tab order.
    pub fn all() -> impl Iterator<Item = Action> {
        BEFORE_PAGES
            .into_iter()
            .chain(PageId::ALL.iter().map(|&page| Action::ShowPage(page)))
            .chain(AFTER_PAGES)
    }

    /// The text of its menu entry.
    pub fn label(self) -> &'static str {
        match self {
            Action::Open => "Open…",
            Action::Paste => "Paste ncu text",
            Action::FollowFolder => "Follow folder…",
            Action::OpenDemo => "Open demo report",
            Action::ShowPage(page) => page.label(),
            Action::ToggleBaseline => "Set or remove baseline",
            Action::CloseReport => "Close report",
            Action::CloseAll => "Close all reports",
            Action::ReopenClosed => "Reopen closed report",
            Action::NextReport => "Next report",
            Action::PreviousReport => "Previous report",
            Action::ToggleReportsPanel => "Reports panel",
            Action::Quit => "Quit",
        }
    }

    /// What its menu entry says on hover, where the text alone does not say enough.
    pub fn tooltip(self) -> Option<&'static str> {
        match self {
            Action::Paste => Some("Open text copied from a terminal or from Nsight Compute"),
            Action::FollowFolder => Some(
                "Open a folder's reports, and those written there later as their writes complete \
                 (the Trend page shows the series)",
            ),
            Action::Open
            | Action::OpenDemo
            | Action::ShowPage(_)
            | Action::ToggleBaseline
            | Action::CloseReport
            | Action::CloseAll
            | Action::ReopenClosed
            | Action::NextReport
            | Action::PreviousReport
            | Action::ToggleReportsPanel
            | Action::Quit => None,
        }
    }

    /// What it does, in the words of the help list of keys.
    pub fn description(self) -> &'static str {
        match self {
            Action::Open => "Open files",
            Action::Paste => "Open ncu text from the clipboard",
            Action::FollowFolder => "Follow a folder of reports",
            Action::OpenDemo => "Open the demo report",
            Action::ShowPage(page) => page.label(),
            Action::ToggleBaseline => "Set the selected result as a baseline (again: remove it)",
            Action::CloseReport => "Close the selected result's report",
            Action::CloseAll => "Close every report",
            Action::ReopenClosed => "Open again what was closed last (undo a close)",
            Action::NextReport => "Next report",
            Action::PreviousReport => "Previous report",
            Action::ToggleReportsPanel => "Hide the Reports panel (again: show it)",
            Action::Quit => "Quit",
        }
    }

    /// Its keyboard shortcut, if it has one.
    pub fn shortcut(self) -> Option<Shortcut> {
        match self {
            Action::Open => Some(Shortcut::ctrl(Key::O)),
            Action::Paste => Some(Shortcut::ctrl(Key::V)),
            Action::ShowPage(page) => page_shortcut(page.number()),
            Action::ToggleBaseline => Some(Shortcut::ctrl(Key::B)),
            Action::CloseReport => Some(Shortcut::ctrl(Key::W)),
            Action::ReopenClosed => Some(Shortcut::ctrl_shift(Key::T)),
            Action::NextReport => Some(Shortcut::ctrl(Key::Tab)),
            Action::PreviousReport => Some(Shortcut::ctrl_shift(Key::Tab)),
            Action::ToggleReportsPanel => Some(Shortcut::ctrl_shift(Key::R)),
            Action::Quit => Some(Shortcut::ctrl(Key::Q)),
            Action::FollowFolder | Action::OpenDemo | Action::CloseAll => None,
        }
    }

    /// `text` followed by its key in brackets, as hover texts and notes name it: `Open it
    /// again (Ctrl+Shift+T)`; `text` alone for an action without a key.
    pub fn with_key(self, text: &str) -> String {
        match self.shortcut() {
            Some(shortcut) => format!("{text} ({})", shortcut.text()),
            None => text.to_string(),
        }
    }

    /// Whether its key reaches the window as something else than a key press, so that the
    /// key handler leaves it alone: the window system turns Ctrl+V into a paste of the
    /// clipboard's text, which opens as a report.
    pub fn key_arrives_as_paste(self) -> bool {
        self == Action::Paste
    }

    /// What carrying it out does now; `None` where it cannot be done (no result selected, no
    /// close to undo).
    pub fn effect(self, cx: &ActionContext) -> Option<Effect> {
        let app = |command| Some(Effect::App(command));
        match self {
            Action::Open => app(Command::ShowOpenDialog),
            Action::Paste => Some(Effect::Paste),
            Action::FollowFolder => app(Command::ShowFollowDialog),
            Action::OpenDemo => app(Command::Open(OpenRequest::Demo)),
            Action::ShowPage(page) => app(Command::ShowPage(page)),
            Action::ToggleBaseline => cx
                .selection
                .map(|at| Effect::App(Command::ToggleBaseline(at))),
            Action::CloseReport => cx
                .selection
                .map(|at| Effect::App(Command::CloseReport(at.report))),
            Action::CloseAll => app(Command::CloseAll),
            Action::ReopenClosed if cx.can_undo_close => app(Command::UndoClose),
            Action::ReopenClosed => None,
            Action::NextReport => app(Command::NextReport { back: false }),
            Action::PreviousReport => app(Command::NextReport { back: true }),
            Action::ToggleReportsPanel => app(Command::ToggleReportsPanel),
            Action::Quit => Some(Effect::Quit),
        }
    }
}

/// One row of the help list of keys: the keys, and what they do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelpRow {
    pub keys: String,
    pub what: String,
}

/// The help list's rows for the actions that have keys, in table order: a row per action,
/// but one for all the pages (their keys in runs, `Ctrl+1 … Ctrl+9, Ctrl+0`, and their names).
pub fn help_rows() -> Vec<HelpRow> {
    let mut rows = Vec::new();
    let mut pages: Option<(usize, Vec<Shortcut>, Vec<&str>)> = None;
    for action in Action::all() {
        let Some(shortcut) = action.shortcut() else {
            continue;
        };
        if let Action::ShowPage(page) = action {
            let (_, keys, names) =
                pages.get_or_insert_with(|| (rows.len(), Vec::new(), Vec::new()));
            keys.push(shortcut);
            names.push(page.label());
            continue;
        }
        rows.push(HelpRow {
            keys: shortcut.text(),
            what: action.description().into(),
        });
    }
    if let Some((at, keys, names)) = pages {
        let row = HelpRow {
            keys: key_runs(&keys),
            what: names.join(", "),
        };
        rows.insert(at, row);
    }
    rows
}

/// Keys written in runs: three or more digits in a row with the same modifiers as
/// `Ctrl+1 … Ctrl+9`, the others one by one, separated by commas.
fn key_runs(keys: &[Shortcut]) -> String {
    let mut parts = Vec::new();
    let mut start = 0;
    while start < keys.len() {
        let mut end = start + 1;
        while let (Some(prev), Some(next)) = (keys.get(end - 1), keys.get(end)) {
            let follows =
                matches!((prev.key.digit(), next.key.digit()), (Some(a), Some(b)) if b == a + 1);
            let same = (prev.command, prev.shift, prev.alt) == (next.command, next.shift, next.alt);
            if !(follows && same) {
                break;
            }
            end += 1;
        }
        if end - start >= 3 {
            parts.push(format!("{} … {}", keys[start].text(), keys[end - 1].text()));
        } else {
            parts.extend(keys[start..end].iter().map(|s| s.text()));
        }
        start = end;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pages_get_the_digit_row_then_alt_digits() {
        let texts: Vec<String> = (1..=21)
            .map(|n| page_shortcut(n).map_or("none".into(), Shortcut::text))
            .collect();
        assert_eq!(texts[0], "Ctrl+1");
        assert_eq!(texts[8], "Ctrl+9");
        assert_eq!(texts[9], "Ctrl+0");
        assert_eq!(texts[10], "Alt+1");
        assert_eq!(texts[11], "Alt+2");
        assert_eq!(texts[19], "Alt+0");
        assert_eq!(texts[20], "none");
        assert_eq!(page_shortcut(0), None);
    }

    #[test]
    fn the_help_writes_the_page_keys_in_runs_and_every_page_name_in_tab_order() {
        let rows = help_rows();
        let pages = rows
            .iter()
            .find(|r| r.keys.starts_with("Ctrl+1"))
            .expect("the pages' row");
        let names: Vec<&str> = PageId::ALL.iter().map(|p| p.label()).collect();
        assert_eq!(pages.what, names.join(", "));
        let last = page_shortcut(PageId::ALL.len()).expect("every page has a key");
        assert!(pages.keys.ends_with(&last.text()), "{}", pages.keys);
        let twelve: Vec<Shortcut> = (1..=12).filter_map(page_shortcut).collect();
        assert_eq!(key_runs(&twelve), "Ctrl+1 … Ctrl+9, Ctrl+0, Alt+1, Alt+2");
    }

    /// Every action is in the table that the menu, the help and the keys read. A new action
    /// does not build here until it is in the `match`, and fails until it is in the table.
    #[test]
    fn the_table_lists_every_action_once() {
        let every = [
            Action::Open,
            Action::Paste,
            Action::FollowFolder,
            Action::OpenDemo,
            Action::ShowPage(PageId::Details),
            Action::ToggleBaseline,
            Action::CloseReport,
            Action::CloseAll,
            Action::ReopenClosed,
            Action::NextReport,
            Action::PreviousReport,
            Action::ToggleReportsPanel,
            Action::Quit,
        ];
        for action in every {
            match action {
                Action::Open
                | Action::Paste
                | Action::FollowFolder
                | Action::OpenDemo
                | Action::ShowPage(_)
                | Action::ToggleBaseline
                | Action::CloseReport
                | Action::CloseAll
                | Action::ReopenClosed
                | Action::NextReport
                | Action::PreviousReport
                | Action::ToggleReportsPanel
                | Action::Quit => {}
            }
            let listed = Action::all().filter(|&a| a == action).count();
            assert_eq!(listed, 1, "{action:?} in the table");
        }
        let pages = Action::all()
            .filter(|a| matches!(a, Action::ShowPage(_)))
            .count();
        assert_eq!(pages, PageId::ALL.len());
        assert_eq!(Action::all().count(), every.len() - 1 + pages);
    }

    #[test]
    fn actions_on_the_selection_need_one() {
        let none = ActionContext::default();
        assert!(Action::ToggleBaseline.effect(&none).is_none());
        assert!(Action::CloseReport.effect(&none).is_none());
        assert!(Action::ReopenClosed.effect(&none).is_none());
        assert!(Action::Open.effect(&none).is_some());
    }
}
