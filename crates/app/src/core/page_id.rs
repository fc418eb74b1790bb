//! Which page of the selected result is shown. The desktop front end draws each one (see
//! `ui::pages`); the id is what settings remember and commands name.

use serde::{Deserialize, Serialize};

/// A page of the selected result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum PageId {
    /// Speed-of-light bars, then every section with its metrics and rule results.
    #[default]
    Details,
    /// Every metric of the result, searchable.
    Raw,
    /// Session, device and launch information.
    Session,
    /// Rooflines of the result, or of every result of the report.
    Roofline,
    /// Occupancy limits, graphs and what-if.
    Occupancy,
    /// The result side by side with the visible baselines.
    Compare,
    /// Two open reports compared kernel by kernel.
    ReportDiff,
    /// CUDA lines and SASS with their metrics, hot spots first.
    Source,
    /// Every rule result of the result, the largest estimated speedup first.
    Rules,
    /// Every open report as a run of one series: each kernel's story over the runs.
    Trend,
}

impl PageId {
    /// Whether the page scrolls as a whole around lists that fill its pane (its head may push
    /// them below a short window's fold).
    pub fn scrolls_as_a_whole(self) -> bool {
        matches!(self, PageId::Source | PageId::ReportDiff)
    }

    /// The tabs, left to right (their keys follow this order: `actions::page_shortcut`).
    pub const ALL: &'static [PageId] = &[
        PageId::Details,
        PageId::Raw,
        PageId::Session,
        PageId::Roofline,
        PageId::Occupancy,
        PageId::Compare,
        PageId::ReportDiff,
        PageId::Source,
        PageId::Rules,
        PageId::Trend,
    ];

    /// The tab label.
    pub fn label(self) -> &'static str {
        match self {
            PageId::Details => "Details",
            PageId::Raw => "Raw",
            PageId::Session => "Session",
            PageId::Roofline => "Roofline",
            PageId::Occupancy => "Occupancy",
            PageId::Compare => "Compare",
            PageId::ReportDiff => "Report vs report",
            PageId::Source => "Source",
            PageId::Rules => "Rules",
            PageId::Trend => "Trend",
        }
    }

    /// The page's position among the tabs, from 1 (which gives its key).
    pub fn number(self) -> usize {
        PageId::ALL
            .iter()
            .position(|&p| p == self)
            .map_or(0, |i| i + 1)
    }

    /// The page at tab position `n` (from 1).
    pub fn from_number(n: usize) -> Option<PageId> {
        n.checked_sub(1).and_then(|i| PageId::ALL.get(i)).copied()
    }

    /// The page whose label is `name` (any case).
    pub fn from_label(name: &str) -> Option<PageId> {
        PageId::ALL
            .iter()
            .copied()
            .find(|p| p.label().eq_ignore_ascii_case(name.trim()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_labels_go_both_ways() {
        for (i, &page) in PageId::ALL.iter().enumerate() {
            assert_eq!(page.number(), i + 1);
            assert_eq!(PageId::from_number(i + 1), Some(page));
            assert_eq!(PageId::from_label(&page.label().to_uppercase()), Some(page));
        }
        assert_eq!(PageId::from_number(0), None);
        assert_eq!(PageId::from_number(PageId::ALL.len() + 1), None);
    }
}
