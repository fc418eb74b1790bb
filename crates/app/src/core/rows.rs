//! The rows of the results table: one summary per result, built once per loaded report, and
//! the filter and sort that give the order on screen (no egui).

use crate::analysis::headline::headline;
use crate::core::ids::{ReportId, ResultRef};
use crate::core::row_filter::RowFilter;
use crate::core::row_filter::searchable;
use crate::model::format::NOT_MEASURED;
use crate::model::format::{percent_text, value_text};
use crate::model::result::nvtx_path;
use crate::model::{KernelResult, Report, ResultKind, RuleKind, SpeedupKind};
use crate::output::kernel_names::{TABLE_NAME_CHARS, elide_middle, short_kernel_name};
use crate::output::text::{first_words, rule_title};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::HashMap;

/// A column of the results table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum SortColumn {
    Report,
    #[default]
    Id,
    Kernel,
    /// The NVTX ranges the result was launched under.
    Nvtx,
    Shape,
    Duration,
    SolCompute,
    SolMemory,
    Occupancy,
    TopRule,
}

impl SortColumn {
    /// Every column, left to right.
    pub const ALL: [SortColumn; 10] = [
        SortColumn::Report,
        SortColumn::Id,
        SortColumn::Kernel,
        SortColumn::Nvtx,
        SortColumn::Shape,
        SortColumn::Duration,
        SortColumn::SolCompute,
        SortColumn::SolMemory,
        SortColumn::Occupancy,
        SortColumn::TopRule,
    ];

    /// The column header.
    pub fn title(self) -> &'static str {
        match self {
            SortColumn::Report => "Report",
            SortColumn::Id => "ID",
            SortColumn::Kernel => "Kernel",
            SortColumn::Nvtx => "NVTX",
            SortColumn::Shape => "Grid × Block",
            SortColumn::Duration => "Duration",
            SortColumn::SolCompute => "SOL Compute",
            SortColumn::SolMemory => "SOL Memory",
            SortColumn::Occupancy => "Occupancy",
            SortColumn::TopRule => "Top rule",
        }
    }

    /// What a header's short title leaves out, shown on hover.
    pub fn hover(self) -> Option<&'static str> {
        match self {
            SortColumn::Nvtx => Some(
                "The NVTX ranges the result was launched under, outermost first; the filter \
                 nvtx:PATH keeps the results under a range (nvtx:forward/attn)",
            ),
            SortColumn::Shape => Some("Grid size × block size of the launch"),
            SortColumn::SolCompute => Some("Compute (SM) throughput, % of peak"),
            SortColumn::SolMemory => Some("Memory throughput, % of peak"),
            SortColumn::Occupancy => Some("Achieved occupancy"),
            SortColumn::TopRule => Some(
                "The rule with the largest estimated speedup: the speedup (\"local\" when it \
                 is of one unit, not the whole kernel), then the rule",
            ),
            _ => None,
        }
    }

    /// Numbers read best largest first; names and IDs smallest first.
    pub fn default_ascending(self) -> bool {
        matches!(
            self,
            SortColumn::Report | SortColumn::Id | SortColumn::Kernel | SortColumn::Nvtx
        )
    }

    /// The columns the table shows, left to right: the NVTX column only where some open
    /// result was launched under an NVTX range.
    pub fn shown(any_nvtx: bool) -> Vec<SortColumn> {
        SortColumn::ALL
            .into_iter()
            .filter(|c| any_nvtx || *c != SortColumn::Nvtx)
            .collect()
    }
}

/// The table's sort order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SortState {
    pub column: SortColumn,
    pub ascending: bool,
}

impl Default for SortState {
    fn default() -> Self {
        SortState {
            column: SortColumn::Report,
            ascending: true,
        }
    }
}

impl SortState {
    /// Clicking a header: the same column flips the direction, another column starts with its
    /// natural direction.
    pub fn clicked(&mut self, column: SortColumn) {
        if self.column == column {
            self.ascending = !self.ascending;
        } else {
            self.column = column;
            self.ascending = column.default_ascending();
        }
    }
}

/// What the table shows for one result, computed once when the report arrives.
#[derive(Debug, Clone, PartialEq)]
pub struct RowSummary {
    pub result: ResultRef,
    /// Position of the report in the open list (for sorting by report).
    pub report_order: usize,
    pub report_name: String,
    /// What the Report column shows: the part of the report's name the other open reports'
    /// names do not share (`naive` next to `variant1`), else the name.
    pub report_label: String,
    pub id: u64,
    /// The short function name.
    pub kernel: String,
    /// The demangled name, for the tooltip and the filter.
    pub kernel_full: String,
    /// Lowercase function and demangled names, for the filter.
    pub filter_key: String,
    /// The NVTX push/pop ranges the result was launched under, outermost first
    /// (`forward/attn`); empty where there are none.
    pub nvtx: String,
    /// `(65536, 1, 1)×(256, 1, 1)`, or `-`.
    pub shape: String,
    /// Threads in the launch (grid × block), for sorting.
    pub threads: Option<u64>,
    pub duration_ns: Option<f64>,
    pub duration_text: String,
    pub sol_compute_pct: Option<f64>,
    pub sol_memory_pct: Option<f64>,
    pub occupancy_pct: Option<f64>,
    pub top_rule_kind: Option<RuleKind>,
    pub top_rule_text: String,
    pub top_rule_speedup: Option<f64>,
    /// The whole message of the top rule, for the tooltip.
    pub top_rule_message: String,
}

/// What the Kernel column shows: a kernel's function name (with its template arguments
/// shortened in the middle); for a range, graph or command list, its name (a range's NVTX
/// path) and its kind, `region (range)`. The full name is the row's `kernel_full`.
pub fn kernel_cell(r: &KernelResult, report: &Report) -> String {
    if r.kind.is_kernel() {
        short_kernel_name(&r.name.function, &r.name.demangled, TABLE_NAME_CHARS)
    } else {
        format!(
            "{} ({})",
            elide_middle(&r.display_name(), TABLE_NAME_CHARS),
            kind_label(r, report)
        )
    }
}

/// A result's kind as a reader tells them apart: `range` or `app-range` (the replay mode
/// on the profiler's command line), `graph`, `command list`.
pub fn kind_label(r: &KernelResult, report: &Report) -> &'static str {
    let app_range = || {
        report
            .session
            .get("Profiler Command Line")
            .is_some_and(|cmd| {
                let words: Vec<&str> = cmd.split_whitespace().collect();
                words
                    .windows(2)
                    .any(|w| w[0] == "--replay-mode" && w[1] == "app-range")
                    || words.contains(&"--replay-mode=app-range")
            })
    };
    match r.kind {
        ResultKind::Range if app_range() => "app-range",
        kind => kind.label(),
    }
}

/// Builds the rows of one report, its results shared among the cores (a report of 16,000
/// results took 0.15 s on one core after its reading, with the other idle). What a row takes
/// from the kernel's name alone (its cell and filter key) is made once per name on each
/// thread: a report repeats a few names thousands of times.
pub fn summarize_report(report_id: ReportId, name: &str, report: &Report) -> Vec<RowSummary> {
    report
        .results
        .par_iter()
        .enumerate()
        .with_min_len(ROWS_PER_TASK)
        .map_init(NameCells::default, |names, (index, r)| {
            summarize_result(report_id, name, report, names, index, r)
        })
        .collect()
}

/// Fewest rows a thread summarizes at a time: a small report stays on one thread.
const ROWS_PER_TASK: usize = 512;

/// The kernel cell and filter key of each kernel name seen on one thread.
#[derive(Default)]
struct NameCells<'a>(HashMap<(&'a str, &'a str), (String, String)>);

impl<'a> NameCells<'a> {
    /// The Kernel column's text and the filter's key of `r`, made once per name for kernels
    /// (a range's cell also names its kind).
    fn of(&mut self, r: &'a KernelResult, report: &Report) -> (String, String) {
        let made = || {
            let cell = kernel_cell(r, report);
            let key = filter_key(&cell, &r.name.demangled);
            (cell, key)
        };
        if !r.kind.is_kernel() {
            return made();
        }
        self.0
            .entry((r.name.function.as_str(), r.name.demangled.as_str()))
            .or_insert_with(made)
            .clone()
    }
}

/// What the filter matches a row against: its Kernel cell and full name, lowercase, and the
/// name as [`searchable`] spells it.
fn filter_key(cell: &str, demangled: &str) -> String {
    format!(
        "{}\n{}\n{}",
        cell.to_lowercase(),
        demangled.to_lowercase(),
        searchable(demangled)
    )
}

/// The table row of the result at `index`.
fn summarize_result<'a>(
    report_id: ReportId,
    name: &str,
    report: &'a Report,
    names: &mut NameCells<'a>,
    index: usize,
    r: &'a KernelResult,
) -> RowSummary {
    let h = headline(r);
    let shape = match (r.grid, r.block) {
        (Some(g), Some(b)) => format!("{g}×{b}"),
        (Some(g), None) => format!("{g}×?"),
        (None, Some(b)) => format!("?×{b}"),
        _ => NOT_MEASURED.into(),
    };
    let threads = match (r.grid, r.block) {
        (Some(g), Some(b)) => Some(g.product().saturating_mul(b.product())),
        _ => None,
    };
    let (top_rule_text, top_rule_speedup, top_rule_kind, top_rule_message) = match h.top_rule {
        Some(rule) => {
            let pct = rule.speedup.map(|s| s.1);
            let title = first_words(&rule_title(rule), 48);
            // The speedup first, so a narrow column still shows it; a local speedup (of one
            // unit, not the whole kernel) says so.
            let text = match rule.speedup {
                Some((SpeedupKind::Local, p)) => format!("{p:.2}% local · {title}"),
                Some((SpeedupKind::Global, p)) => format!("{p:.2}% · {title}"),
                None => title,
            };
            (text, pct, Some(rule.kind), rule.message.clone())
        }
        None => (NOT_MEASURED.into(), None, None, String::new()),
    };
    let (kernel, filter_key) = names.of(r, report);
    RowSummary {
        result: ResultRef {
            report: report_id,
            index,
        },
        report_order: 0,
        report_name: name.to_string(),
        report_label: name.to_string(),
        id: r.id,
        kernel,
        kernel_full: r.name.demangled.clone(),
        filter_key,
        nvtx: nvtx_path(&r.nvtx),
        shape,
        threads,
        duration_ns: h.duration_ns,
        duration_text: h
            .duration_ns
            .map_or_else(|| NOT_MEASURED.into(), |d| value_text(d, "ns")),
        sol_compute_pct: h.sol_compute_pct,
        sol_memory_pct: h.sol_memory_pct,
        occupancy_pct: h.achieved_occupancy_pct,
        top_rule_kind,
        top_rule_text,
        top_rule_speedup,
        top_rule_message,
    }
}

/// Missing values sort after present ones in both directions.
fn cmp_opt<T: PartialOrd>(a: Option<T>, b: Option<T>, ascending: bool) -> Ordering {
    match (a, b) {
        (Some(a), Some(b)) => {
            let o = a.partial_cmp(&b).unwrap_or(Ordering::Equal);
            if ascending { o } else { o.reverse() }
        }
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// A row's NVTX path; `None` where it has none (sorted last).
fn nvtx_of(r: &RowSummary) -> Option<&str> {
    Some(r.nvtx.as_str()).filter(|p| !p.is_empty())
}

fn cmp_rows(a: &RowSummary, b: &RowSummary, sort: SortState) -> Ordering {
    let dir = |o: Ordering| if sort.ascending { o } else { o.reverse() };
    let primary = match sort.column {
        SortColumn::Report => dir(a.report_order.cmp(&b.report_order)),
        SortColumn::Id => dir(a.id.cmp(&b.id)),
        SortColumn::Kernel => dir(a.kernel.cmp(&b.kernel)),
        SortColumn::Nvtx => cmp_opt(nvtx_of(a), nvtx_of(b), sort.ascending),
        SortColumn::Shape => cmp_opt(a.threads, b.threads, sort.ascending),
        SortColumn::Duration => cmp_opt(a.duration_ns, b.duration_ns, sort.ascending),
        SortColumn::SolCompute => cmp_opt(a.sol_compute_pct, b.sol_compute_pct, sort.ascending),
        SortColumn::SolMemory => cmp_opt(a.sol_memory_pct, b.sol_memory_pct, sort.ascending),
        SortColumn::Occupancy => cmp_opt(a.occupancy_pct, b.occupancy_pct, sort.ascending),
        SortColumn::TopRule => cmp_opt(a.top_rule_speedup, b.top_rule_speedup, sort.ascending),
    };
    // Ties keep report order, then position in the report.
    primary
        .then(a.report_order.cmp(&b.report_order))
        .then(a.result.index.cmp(&b.result.index))
}

/// The indices of `rows` that match `filter` (a case-insensitive part of the kernel name and
/// `nvtx:PATH` terms, see [`RowFilter`]), in `sort` order.
pub fn visible_order(rows: &[RowSummary], filter: &str, sort: SortState) -> Vec<usize> {
    let filter = RowFilter::parse(filter);
    let mut order: Vec<usize> = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| filter.matches(&r.filter_key, &r.nvtx))
        .map(|(i, _)| i)
        .collect();
    order.sort_by(|&a, &b| cmp_rows(&rows[a], &rows[b], sort));
    order
}

/// The results table's cells of one row for `columns`, as the table shows them (the names
/// whole).
pub fn row_cells(r: &RowSummary, columns: &[SortColumn]) -> Vec<String> {
    columns
        .iter()
        .map(|c| match c {
            SortColumn::Report => r.report_name.clone(),
            SortColumn::Id => r.id.to_string(),
            SortColumn::Kernel => r.kernel_full.clone(),
            SortColumn::Nvtx => r.nvtx.clone(),
            SortColumn::Shape => r.shape.clone(),
            SortColumn::Duration => r.duration_text.clone(),
            SortColumn::SolCompute => percent_text(r.sol_compute_pct),
            SortColumn::SolMemory => percent_text(r.sol_memory_pct),
            SortColumn::Occupancy => percent_text(r.occupancy_pct),
            SortColumn::TopRule => r.top_rule_text.clone(),
        })
        .collect()
}

/// The titles of `columns`.
pub fn row_header(columns: &[SortColumn]) -> Vec<String> {
    columns.iter().map(|c| c.title().to_string()).collect()
}

/// Results table rows with their header, as the copy actions put them on the clipboard: TSV,
/// or a Markdown table; the NVTX column where some of the rows has an NVTX path.
pub fn clipboard_rows<'r>(
    rows: impl IntoIterator<Item = &'r RowSummary>,
    as_markdown: bool,
) -> String {
    let rows: Vec<&RowSummary> = rows.into_iter().collect();
    let columns = SortColumn::shown(rows.iter().any(|r| !r.nvtx.is_empty()));
    let mut table = vec![row_header(&columns)];
    table.extend(rows.into_iter().map(|r| row_cells(r, &columns)));
    if as_markdown {
        crate::output::clipboard::markdown(&table)
    } else {
        crate::output::clipboard::tsv(&table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_finds_template_values_with_or_without_their_casts() {
        let rows = vec![
            row(0, "matmul<(int)32>", None),
            row(1, "matmul<(int)64>", None),
        ];
        let shown = |f: &str| visible_order(&rows, f, SortState::default());
        assert_eq!(shown("matmul<32>"), vec![0]);
        assert_eq!(shown("MATMUL<(int)64>"), vec![1]);
        assert_eq!(shown("matmul"), vec![0, 1]);
    }

    fn row(index: usize, kernel: &str, duration: Option<f64>) -> RowSummary {
        RowSummary {
            result: ResultRef {
                report: ReportId(1),
                index,
            },
            report_order: 0,
            report_name: "r".into(),
            report_label: "r".into(),
            id: index as u64,
            kernel: kernel.into(),
            kernel_full: format!("void {kernel}(int)"),
            filter_key: format!(
                "{}\nvoid {}(int)\n{}",
                kernel.to_lowercase(),
                kernel.to_lowercase(),
                searchable(&format!("void {kernel}(int)"))
            ),
            nvtx: String::new(),
            shape: "-".into(),
            threads: None,
            duration_ns: duration,
            duration_text: String::new(),
            sol_compute_pct: None,
            sol_memory_pct: None,
            occupancy_pct: None,
            top_rule_kind: None,
            top_rule_text: String::new(),
            top_rule_speedup: None,
            top_rule_message: String::new(),
        }
    }

    #[test]
    fn sorts_missing_last_and_filters() {
        let rows = vec![
            row(0, "alpha", Some(5.0)),
            row(1, "Beta", None),
            row(2, "gamma", Some(9.0)),
        ];
        let desc = SortState {
            column: SortColumn::Duration,
            ascending: false,
        };
        assert_eq!(visible_order(&rows, "", desc), vec![2, 0, 1]);
        let asc = SortState {
            column: SortColumn::Duration,
            ascending: true,
        };
        assert_eq!(visible_order(&rows, "", asc), vec![0, 2, 1]);
        assert_eq!(visible_order(&rows, "BET", asc), vec![1]);
        assert_eq!(visible_order(&rows, "a", asc), vec![0, 2, 1]);
    }

    #[test]
    fn header_click_flips_then_switches() {
        let mut s = SortState::default();
        s.clicked(SortColumn::Duration);
        assert_eq!((s.column, s.ascending), (SortColumn::Duration, false));
        s.clicked(SortColumn::Duration);
        assert!(s.ascending);
        s.clicked(SortColumn::Kernel);
        assert_eq!((s.column, s.ascending), (SortColumn::Kernel, true));
    }
}
