//! What the app remembers across runs (the desktop front end stores it): theme, zoom, page,
//! sort order, recent files, the sizes of the resizable panels, baselines (by file path and
//! result ID) and comparison choices. Loaded reports are never persisted.

use crate::core::baselines::Baseline;
use crate::core::page_id::PageId;
use crate::core::rows::SortState;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The colour theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ThemeChoice {
    #[default]
    Dark,
    Light,
}

impl ThemeChoice {
    /// The menu label.
    pub fn label(self) -> &'static str {
        match self {
            ThemeChoice::Dark => "Dark",
            ThemeChoice::Light => "Light",
        }
    }
}

/// How many recent files the File menu lists.
pub const MAX_RECENT_FILES: usize = 10;

/// The persisted settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub theme: ThemeChoice,
    /// egui zoom factor (Ctrl+wheel, Ctrl+plus/minus).
    pub zoom_factor: f32,
    /// The page shown for the selected result.
    pub page: PageId,
    /// The results table's order.
    pub sort: SortState,
    /// Whether the Details page shows the throughput breakdown under the SOL bars.
    pub show_sol_breakdown: bool,
    /// Files opened from a path, most recent first.
    pub recent_files: Vec<PathBuf>,
    /// Results to compare others with, in the order they were set.
    pub baselines: Vec<Baseline>,
    /// Results of two reports paired by hand in the report comparison.
    pub manual_pairs: Vec<crate::core::manual_pairs::ManualPair>,
    /// Which of two report files the report comparison takes as the baseline, as the user
    /// picked or swapped them (most recent first).
    pub report_orders: Vec<crate::core::report_sides::ReportOrder>,
    /// Renames the comparison paired and the user unpaired, as (base function, current
    /// function): suggested only from then on.
    pub unpaired_renames: Vec<(String, String)>,
    /// Changes smaller than this percentage count as unchanged in comparisons.
    pub compare_threshold_pct: f64,
    /// The side-by-side comparison lists only metrics that changed.
    pub compare_changed_only: bool,
    /// Files of open reports that change on disk are read again at once (otherwise a notice
    /// offers it).
    pub reload_changed_files: bool,
    /// Sizes of the resizable panels.
    pub panels: PanelSizes,
    /// Folders the user located source files in ("Locate source…"): the folder a report
    /// recorded (a prefix of its files' paths) and the local folder that stands for it, used
    /// by every report that names files under it.
    pub source_folders: Vec<(String, PathBuf)>,
}

/// Sizes of the resizable panels as the user left them, points (outer size, margins
/// included).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PanelSizes {
    /// Width of the Reports panel on the left.
    pub reports_width: f32,
    /// Height of the results table above the pages (the pages get the rest; at first about
    /// nine rows, so the pages keep most of a laptop screen).
    pub results_height: f32,
    /// Height of the results table in a short window ([`PanelSizes::is_short`]): remembered
    /// apart, so that a laptop screen and a tall monitor each keep what the user chose.
    pub results_height_short: f32,
    /// The results table folded to a one-line strip, the pages taking the room.
    pub results_collapsed: bool,
    /// The Reports panel hidden to a narrow strip (its button brings it back), the pages
    /// taking its width.
    pub reports_hidden: bool,
    /// The share of the Source page's width its CUDA lines take (the SASS the rest).
    pub source_split: f32,
}

impl Default for PanelSizes {
    fn default() -> Self {
        PanelSizes {
            reports_width: 250.0,
            results_height: 260.0,
            results_height_short: 150.0,
            results_collapsed: false,
            reports_hidden: false,
            source_split: 0.6,
        }
    }
}

impl PanelSizes {
    /// The allowed width of the Reports panel.
    pub const REPORTS_WIDTH: std::ops::RangeInclusive<f32> = 120.0..=500.0;
    /// The allowed share of the Source page's CUDA lines.
    pub const SOURCE_SPLIT: std::ops::RangeInclusive<f32> = 0.2..=0.8;
    /// The allowed height of the results table.
    pub const RESULTS_HEIGHT: std::ops::RangeInclusive<f32> = 120.0..=2000.0;
    /// Height the page below the results table keeps at the least, points.
    pub const PAGE_MIN_HEIGHT: f32 = 260.0;

    /// A central area lower than this is short (1280x800 at zoom 1.5 leaves about 510
    /// points): the header folds to one line and the table keeps a height of its own.
    pub const SHORT_HEIGHT: f32 = 640.0;

    /// How much one keyboard step (Ctrl+Shift+Up/Down) moves the split, points.
    pub const RESULTS_STEP: f32 = 40.0;

    /// Whether a central area `available` points high is short.
    pub fn is_short(available: f32) -> bool {
        available < Self::SHORT_HEIGHT
    }

    /// The heights the results table may take in a central area `available` points high: it
    /// leaves [`Self::PAGE_MIN_HEIGHT`] to the page, and takes at most 27 % of a short area
    /// (1280x800 at zoom 1.5 leaves 533 points: the table gets at most 144, three rows and a
    /// half).
    pub fn results_height_range(available: f32) -> std::ops::RangeInclusive<f32> {
        let (least, most) = (*Self::RESULTS_HEIGHT.start(), *Self::RESULTS_HEIGHT.end());
        let room = (available - Self::PAGE_MIN_HEIGHT).max(least);
        let short = if Self::is_short(available) {
            available * 0.27
        } else {
            f32::MAX
        };
        least..=room.min(short).max(least).min(most)
    }

    /// The remembered table height for a central area `available` points high.
    pub fn results_height_for(&mut self, available: f32) -> &mut f32 {
        if Self::is_short(available) {
            &mut self.results_height_short
        } else {
            &mut self.results_height
        }
    }

    /// Moves the split by `steps` keyboard steps (negative: the table shrinks); below its
    /// least height the table folds to its strip, and a step down from the strip unfolds it.
    pub fn step_results(&mut self, available: f32, steps: i32) {
        if steps == 0 {
            return;
        }
        let range = Self::results_height_range(available);
        if self.results_collapsed {
            if steps > 0 {
                self.results_collapsed = false;
                *self.results_height_for(available) = *range.start();
            }
            return;
        }
        let height = self.results_height_for(available);
        let current = height.clamp(*range.start(), *range.end());
        // (The height measured on screen is a few points over the one set: margins.)
        if steps < 0 && current <= *range.start() + Self::RESULTS_STEP / 2.0 {
            self.results_collapsed = true;
            return;
        }
        *height = (current + steps as f32 * Self::RESULTS_STEP).clamp(*range.start(), *range.end());
    }

    /// The widths the Reports panel may take in a window `available` points wide: at most a
    /// fifth of a narrow window (1280 pixels at zoom 1.5 is 853 points: the panel gets at
    /// most 170), so the table and the page keep their room.
    pub fn reports_width_range(available: f32) -> std::ops::RangeInclusive<f32> {
        let (least, most) = (*Self::REPORTS_WIDTH.start(), *Self::REPORTS_WIDTH.end());
        let narrow = if available < 1000.0 {
            available * 0.2
        } else {
            f32::MAX
        };
        least..=narrow.min(most).max(least)
    }

    /// Takes a panel size measured on screen (whole points; a value that is not finite is
    /// ignored).
    pub fn remember(size: &mut f32, measured: f32) {
        if measured.is_finite() && measured > 0.0 {
            *size = measured.round();
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            theme: ThemeChoice::default(),
            zoom_factor: 1.0,
            page: PageId::default(),
            sort: SortState::default(),
            show_sol_breakdown: false,
            recent_files: Vec::new(),
            baselines: Vec::new(),
            manual_pairs: Vec::new(),
            report_orders: Vec::new(),
            unpaired_renames: Vec::new(),
            compare_threshold_pct: crate::analysis::compare::metric_diff::DEFAULT_THRESHOLD_PCT,
            compare_changed_only: false,
            reload_changed_files: false,
            panels: PanelSizes::default(),
            source_folders: Vec::new(),
        }
    }
}

impl Settings {
    /// Puts a file at the top of the recent list (absolute path, no duplicates, bounded).
    pub fn remember_file(&mut self, path: &Path) {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        self.recent_files.retain(|p| p != &path);
        self.recent_files.insert(0, path);
        self.recent_files.truncate(MAX_RECENT_FILES);
    }

    /// The settings as saved: baselines and manual pairs that cannot attach again (no file)
    /// are left out.
    pub fn to_save(&self) -> Settings {
        let mut saved = self.clone();
        saved.baselines.retain(|b| b.path.is_some());
        saved.manual_pairs.retain(|p| p.can_be_saved());
        saved
    }

    /// How the comparisons pair renamed kernels: automatically, but for those unpaired.
    pub fn rename_policy(&self) -> crate::analysis::compare::RenamePolicy {
        crate::analysis::compare::RenamePolicy {
            auto_pair: true,
            unpaired: self.unpaired_renames.clone(),
        }
    }

    /// Unpairs a rename, or pairs it again.
    pub fn set_unpaired(&mut self, base_function: &str, current_function: &str, unpaired: bool) {
        let pair = (base_function.to_string(), current_function.to_string());
        self.unpaired_renames.retain(|p| *p != pair);
        if unpaired {
            self.unpaired_renames.push(pair);
        }
    }

    /// The comparison threshold, made sane (finite, 0–100 %).
    pub fn threshold_pct(&self) -> f64 {
        if self.compare_threshold_pct.is_finite() {
            self.compare_threshold_pct.clamp(0.0, 100.0)
        } else {
            crate::analysis::compare::metric_diff::DEFAULT_THRESHOLD_PCT
        }
    }

    /// Zoom factors outside this range make the window unusable.
    pub fn clamp_zoom(zoom: f32) -> f32 {
        if zoom.is_finite() {
            zoom.clamp(0.5, 3.0)
        } else {
            1.0
        }
    }
}

#[cfg(test)]
mod results_height_tests {
    use super::PanelSizes;

    #[test]
    fn the_table_leaves_the_page_room_in_a_small_window() {
        // 1280x800 at zoom 1.5: about 533 points for the table and the page.
        let r = PanelSizes::results_height_range(533.0);
        assert_eq!(*r.start(), 120.0);
        assert!((*r.end() - 143.9).abs() < 0.1, "{r:?}");
        // A tall window lets it grow, leaving the page its share.
        let r = PanelSizes::results_height_range(1200.0);
        assert_eq!(*r.end(), 940.0);
        // Never below the least height.
        assert_eq!(*PanelSizes::results_height_range(100.0).end(), 120.0);
    }

    #[test]
    fn the_keyboard_moves_the_split_and_folds_the_table_below_its_least_height() {
        let mut p = PanelSizes::default();
        // A short window keeps its own height.
        p.step_results(533.0, 1);
        assert!((p.results_height_short - 143.9).abs() < 0.1);
        assert_eq!(p.results_height, 260.0);
        p.step_results(533.0, -1);
        assert_eq!(p.results_height_short, 120.0);
        assert!(!p.results_collapsed);
        p.step_results(533.0, -1);
        assert!(
            p.results_collapsed,
            "below the least height the table folds"
        );
        p.step_results(533.0, -1);
        assert!(p.results_collapsed);
        p.step_results(533.0, 1);
        assert!(!p.results_collapsed);
        assert_eq!(p.results_height_short, 120.0);
        // A tall window moves its own.
        p.step_results(1000.0, 2);
        assert_eq!(p.results_height, 340.0);
    }

    #[test]
    fn the_reports_panel_leaves_the_table_room_in_a_narrow_window() {
        // 1280 pixels at zoom 1.5: about 853 points wide.
        let r = PanelSizes::reports_width_range(853.3);
        assert!((*r.end() - 170.7).abs() < 0.1, "{r:?}");
        assert_eq!(*r.start(), 120.0);
        // A wide window lets it take what the user drags it to, up to the most.
        assert_eq!(*PanelSizes::reports_width_range(1920.0).end(), 500.0);
        // Never below the least width.
        assert_eq!(*PanelSizes::reports_width_range(400.0).end(), 120.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_files_are_unique_and_bounded() {
        let mut s = Settings::default();
        for i in 0..12 {
            s.remember_file(Path::new(&format!("/tmp/r{i}.ncu-rep")));
        }
        s.remember_file(Path::new("/tmp/r5.ncu-rep"));
        assert_eq!(s.recent_files.len(), MAX_RECENT_FILES);
        assert_eq!(s.recent_files[0], PathBuf::from("/tmp/r5.ncu-rep"));
        assert_eq!(
            s.recent_files
                .iter()
                .filter(|p| p.ends_with("r5.ncu-rep"))
                .count(),
            1
        );
    }
}
