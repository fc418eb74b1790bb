//! One table being read: its layout, what its columns hold, whether it is a section's header
//! table or a body table, and the row waiting for wrapped continuation lines.

use super::layout::Layout;
use std::borrow::Cow;

/// Where a table is in its grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase<'a> {
    /// A dash rule was read; a header row or (older layout) data rows follow.
    AfterRule,
    /// A header row was read; the dash rule under it follows.
    Header { line: &'a str, opened_by_rule: bool },
    /// Data rows.
    Rows,
}

/// What a table's columns hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Label, unit, value.
    Metric,
    /// Label, unit, then the Minimum, Maximum and Average columns at these positions.
    Summary { stats: [usize; 3] },
    /// A rule's key performance indicators: metric name, value, guidance.
    Kpi,
    /// Any other table (rule detail tables): read past it.
    Skip,
}

/// Marks an unused slot of [`Kind::value_columns`].
pub const NO_COLUMN: usize = usize::MAX;

impl Kind {
    /// The columns holding values: the value, or Minimum, Maximum and Average.
    pub fn value_columns(self) -> [usize; 3] {
        match self {
            Kind::Summary { stats } => stats,
            _ => [2, NO_COLUMN, NO_COLUMN],
        }
    }
}

/// Where a metric table's rows go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The section's header table: rows become `MetricRow`s.
    Header,
    /// The `--page raw` table: rows are labelled by metric name.
    Raw,
    /// A section body table (`--print-details all`): metrics only.
    Body,
}

/// A row read but not stored yet, because wrapped lines may continue it.
#[derive(Debug)]
pub struct PendingRow<'a> {
    pub label: Cow<'a, str>,
    pub unit: &'a str,
    /// The value cells (one, or three for summaries); continuation lines append to them.
    pub values: [Cow<'a, str>; 3],
    /// Whether the last piece of each value filled its column: ncu then broke the value
    /// inside a word (a long number), else at a space it dropped.
    filled: [bool; 3],
    /// The 1-based line number of the row's first line (0 where not known).
    pub line: usize,
}

impl<'a> PendingRow<'a> {
    /// A row from its cells; `widths` are the value columns' widths.
    pub fn new(label: &'a str, unit: &'a str, values: [&'a str; 3], widths: [usize; 3]) -> Self {
        PendingRow {
            label: Cow::Borrowed(label),
            unit,
            values: values.map(Cow::Borrowed),
            filled: [0, 1, 2].map(|i| values[i].len() >= widths[i]),
            line: 0,
        }
    }

    /// Appends a wrapped piece to value cell `i` of a column `width` wide: directly after a
    /// piece that filled its column, else after a space.
    pub fn continue_value(&mut self, i: usize, piece: &str, width: usize) {
        if piece.is_empty() || i >= 3 {
            return;
        }
        let s = self.values[i].to_mut();
        if !s.is_empty() && !self.filled[i] {
            s.push(' ');
        }
        s.push_str(piece);
        self.filled[i] = piece.len() >= width;
    }

    /// Appends the wrapped rest of a metric name (key performance indicator tables wrap
    /// long names inside the cell, with no space).
    pub fn continue_name(&mut self, piece: &str) {
        self.label.to_mut().push_str(piece);
    }
}

/// A table being read.
#[derive(Debug)]
pub struct Table<'a> {
    pub layout: Layout,
    pub phase: Phase<'a>,
    pub kind: Kind,
    pub role: Role,
    /// Whether a closing dash rule is expected (details and summary tables); a table cut
    /// before it means the text was truncated.
    pub expects_close: bool,
    /// Rows stored so far (the position for the label cache).
    pub rows: usize,
    pub pending: Option<PendingRow<'a>>,
}

impl<'a> Table<'a> {
    /// A table opened by a dash rule.
    pub fn after_rule(layout: Layout) -> Self {
        Table {
            layout,
            phase: Phase::AfterRule,
            kind: Kind::Skip,
            role: Role::Body,
            expects_close: false,
            rows: 0,
            pending: None,
        }
    }

    /// A table whose header row comes before its first dash rule (`--page raw`).
    pub fn header_first(line: &'a str) -> Self {
        Table {
            phase: Phase::Header {
                line,
                opened_by_rule: false,
            },
            ..Table::after_rule(Layout::default())
        }
    }
}

/// The kind of table a header row announces, cut with the rule under it.
pub fn kind_of_header(layout: &Layout, header: &str, in_rule_block: bool, kpi: bool) -> Kind {
    let cell = |i| layout.cell(header, i).unwrap_or("");
    if in_rule_block {
        return if kpi && cell(0) == "Metric Name" && cell(1) == "Value" {
            Kind::Kpi
        } else {
            Kind::Skip
        };
    }
    if cell(0) != "Metric Name" || cell(1) != "Metric Unit" || layout.len() < 3 {
        return Kind::Skip;
    }
    let find = |name: &str| (2..layout.len()).find(|&i| cell(i) == name);
    match (find("Minimum"), find("Maximum"), find("Average")) {
        (Some(a), Some(b), Some(c)) => Kind::Summary { stats: [a, b, c] },
        _ => Kind::Metric,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_wrapped_values() {
        // A number wider than its column is cut inside the number; text is cut at a space.
        let mut row = PendingRow::new("m", "", ["129,801,102,499,526.", "", ""], [20, 0, 0]);
        row.continue_value(0, "08", 20);
        assert_eq!(row.values[0], "129,801,102,499,526.08");
        let mut row = PendingRow::new("m", "", ["NVIDIA H100 80GB", "", ""], [20, 0, 0]);
        row.continue_value(0, "HBM3", 20);
        assert_eq!(row.values[0], "NVIDIA H100 80GB HBM3");
    }

    #[test]
    fn reads_header_kinds() {
        let rule = "    ----------------------- ----------- ------------ ------------ ------------";
        let head = "    Metric Name             Metric Unit      Minimum      Maximum      Average";
        let l = Layout::from_rule(rule).unwrap();
        assert_eq!(
            kind_of_header(&l, head, false, false),
            Kind::Summary { stats: [2, 3, 4] }
        );
        let rule = "    ----------------------- ----------- ------------";
        let head = "    Metric Name             Metric Unit Metric Value";
        let l = Layout::from_rule(rule).unwrap();
        assert_eq!(kind_of_header(&l, head, false, false), Kind::Metric);
        assert_eq!(kind_of_header(&l, head, true, true), Kind::Skip);
    }
}
