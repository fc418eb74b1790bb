//! The line-by-line reader: recognises each line by its shape (process and kernel lines,
//! NVTX preface, `Section:` lines, dash-rule tables, rule messages, rule detail blocks) and
//! builds results as it goes. Indented lines inside a result that fit no shape are skipped,
//! counted and named in the report's warnings; lines outside every result and unindented ones
//! are not ncu's (the program's own output, text around a pasted block) and are noted apart.

use super::bodies::BodyCollector;
use super::cell_value::{UnitCache, printed_metric, split_label_name, summary_metric};
use super::heading::{
    KernelLine, device_line, is_nvtx_header, kernel_line, nvtx_range, process_line,
    summary_kernel_line,
};
use super::labels::LabelCache;
use super::layout::{Layout, is_dash_rule, leading_spaces};
use super::metric_index::index_metrics;
use super::rule_text::{OpenRule, tag_line};
use super::table::{Kind, NO_COLUMN, PendingRow, Phase, Role, Table, kind_of_header};
use crate::model::catalog::{metric_for, section_today};
use crate::model::names::{BLOCK_SIZE, GRID_SIZE, is_metric_name};
use crate::model::section_body::{ReportBodies, SectionBodies};
use crate::model::{
    Dim3, Format, KernelName, KernelResult, Metric, MetricKey, MetricRow, NvtxRange, Report,
    Section, Value,
};
use crate::parse::number::parse_value;
use crate::parse::number_format::{NumberFormat, to_point};
use crate::parse::other_text::OtherText;
use crate::parse::skipped::Skipped;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Name of the section that holds a `--page raw` table.
pub const RAW_SECTION: &str = "Raw";

/// Why a line inside a result was skipped.
const NO_SHAPE: &str = "inside a result that fit no shape";
/// Why a row of a table of no known shape was skipped.
const UNREAD_TABLE: &str = "in a table of no known shape";
/// Why a key performance indicator row was skipped.
const KPI_NOT_A_NUMBER: &str = "with a key performance indicator that is not a number";
/// Why a metric row was skipped: its unit says it is a number, and the value is not one.
const VALUE_NOT_A_NUMBER: &str = "in a metric table whose value is not a number";
/// Starts of ncu's own notes printed in a result before its first section; expected, so not
/// counted as skipped.
const KNOWN_PREFACE: &[&str] = &["Warning: Data collection happened without fixed GPU frequencies"];

/// State shared by all results: caches and warnings.
struct Shared<'a> {
    labels: LabelCache<'a>,
    units: UnitCache<'a>,
    warnings: Vec<String>,
    /// A truncation was already reported.
    truncated: bool,
    /// The line being read is the last one and has no line break: it may be cut.
    unterminated: bool,
    /// Sections of the last result (to size the next result's section list).
    last_sections: usize,
    /// The number of the line being read, from 1 within this part.
    line_no: usize,
    /// Lines that fit no shape or held nothing readable.
    skipped: Skipped,
    /// Lines that are not ncu's.
    other: OtherText,
    /// The number format of the block being read.
    numbers: NumberFormat,
}

impl Shared<'_> {
    /// Notes the line being read as skipped for `reason`.
    fn skip(&mut self, reason: &str) {
        self.skipped.add(reason, self.line_no);
    }

    /// Notes the line being read as text that is not ncu's.
    fn other_text(&mut self) {
        self.other.add(self.line_no);
    }

    /// A value cell as the number parser reads it (`1,234.5`).
    fn point_form<'c>(&self, cell: Cow<'c, str>) -> Cow<'c, str> {
        match to_point(&cell, self.numbers) {
            Cow::Owned(c) => Cow::Owned(c),
            Cow::Borrowed(_) => cell,
        }
    }
}

/// Where the last rule was stored, so that its key performance indicators can follow it.
#[derive(Debug, Clone, Copy)]
enum RuleSlot {
    Section(usize),
    Result,
}

/// After a `> Title: ...` line of `--print-rule-details`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RuleBlock {
    None,
    Kpi,
    Other,
}

/// The section being read.
#[derive(Debug)]
struct SectionState<'a> {
    name: &'a str,
    index: usize,
    label_slot: usize,
    header_done: bool,
    body_seen: bool,
    table_name: &'a str,
    has_content: bool,
}

/// A result being read.
struct ResultState<'a> {
    result: KernelResult,
    body_metrics: Vec<(MetricKey, Metric)>,
    /// Section bodies of `--print-details all`.
    bodies: BodyCollector,
    section: Option<SectionState<'a>>,
    table: Option<Table<'a>>,
    rule: Option<OpenRule>,
    last_rule: Option<RuleSlot>,
    rule_block: RuleBlock,
    /// Inside an NVTX block: the current domain.
    nvtx: Option<Option<&'a str>>,
}

/// Reads the lines of a text page into a report.
pub struct Reader<'a> {
    report: Report,
    /// Printed section bodies by result position within this part.
    bodies: BTreeMap<usize, Vec<SectionBodies>>,
    shared: Shared<'a>,
    process: Option<(u64, &'a str)>,
    current: Option<ResultState<'a>>,
    next_id: u64,
    banner_seen: bool,
    summary: bool,
    /// In a per-GPU summary (`--print-summary per-gpu`): the device and compute capability of
    /// the `Device 0, CC 9.0` line the results below are indented under.
    gpu: Option<(u64, (u32, u32))>,
    /// Inside the `Note:` paragraph under a summary.
    note: bool,
    /// A line that may be the first part of a wrapped kernel line, read with the next one.
    held: Option<Held<'a>>,
}

/// A line held back for one line.
#[derive(Debug, Clone, Copy)]
struct Held<'a> {
    line: &'a str,
    indent: usize,
    rest: &'a str,
    line_no: usize,
}

impl Default for Reader<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> Reader<'a> {
    /// A reader with no results yet.
    pub fn new() -> Self {
        Reader {
            report: Report::new("", Format::CliText),
            bodies: BTreeMap::new(),
            shared: Shared {
                labels: LabelCache::default(),
                units: UnitCache::default(),
                warnings: Vec::new(),
                truncated: false,
                unterminated: false,
                last_sections: 0,
                line_no: 0,
                skipped: Skipped::new("line", "line"),
                other: OtherText::default(),
                numbers: NumberFormat::Point,
            },
            process: None,
            current: None,
            next_id: 0,
            banner_seen: false,
            summary: false,
            gpu: None,
            note: false,
            held: None,
        }
    }

    /// Sets the number format of the lines that follow.
    pub fn set_number_format(&mut self, format: NumberFormat) {
        self.shared.numbers = format;
    }

    /// Reads one line (without its line break); `unterminated` marks a last line with none.
    pub fn line(&mut self, line: &'a str, unterminated: bool) {
        self.shared.unterminated = unterminated;
        self.shared.line_no += 1;
        // A per-GPU summary nests each result two columns deeper under its device line.
        let line = match self.gpu {
            Some(_) => line.strip_prefix("  ").unwrap_or(line),
            None => line,
        };
        let indent = leading_spaces(line);
        let rest = line.get(indent..).unwrap_or("");
        if let Some(held) = self.held.take() {
            if self.joins_kernel_line(held.rest, rest) {
                return;
            }
            self.replay(held);
        }
        let starts_blank = rest.as_bytes().first().is_none_or(u8::is_ascii_whitespace);
        if starts_blank && rest.trim_end().is_empty() {
            self.note = false;
            if let Some(cur) = &mut self.current {
                cur.blank(&mut self.shared);
            }
            return;
        }
        if indent <= 3 && self.top_level(rest) {
            return;
        }
        if self.note || (indent <= 3 && rest.starts_with("Note: ")) {
            // The note under a summary: text of ncu's own, no values.
            self.note = true;
            return;
        }
        if indent > 3
            && !self.in_table_rows()
            && let Some(k) = kernel_line(rest)
        {
            // A hand-edited extract may indent a kernel line like a section.
            self.start_result(&k);
            return;
        }
        if indent <= 3 && rest.contains('(') && !self.in_table_rows() {
            // Perhaps the first part of a kernel line wrapped onto the next line.
            self.held = Some(Held {
                line,
                indent,
                rest,
                line_no: self.shared.line_no,
            });
            return;
        }
        self.dispatch(line, indent, rest);
    }

    /// A line that opens no result and is no line of ncu's own outside results.
    fn dispatch(&mut self, line: &'a str, indent: usize, rest: &'a str) {
        match &mut self.current {
            Some(cur) => cur.line(&mut self.shared, line, indent, rest),
            // ncu prints nothing of a result before its kernel line: the program's output.
            None => self.shared.other_text(),
        }
    }

    /// Whether the open table is reading rows.
    fn in_table_rows(&self) -> bool {
        self.current
            .as_ref()
            .and_then(|c| c.table.as_ref())
            .is_some_and(|t| t.phase == Phase::Rows)
    }

    /// Starts a result when a held line and `rest` are one kernel line wrapped in two.
    fn joins_kernel_line(&mut self, head: &str, rest: &str) -> bool {
        let (head, tail) = (head.trim_end(), rest.trim());
        if tail.is_empty() {
            return false;
        }
        for sep in [" ", ""] {
            let joined = format!("{head}{sep}{tail}");
            if let Some(k) = kernel_line(&joined) {
                self.start_result(&k);
                return true;
            }
        }
        false
    }

    /// Reads a held line as it would have been read at once, under its own line number.
    fn replay(&mut self, held: Held<'a>) {
        let now = std::mem::replace(&mut self.shared.line_no, held.line_no);
        self.dispatch(held.line, held.indent, held.rest);
        self.shared.line_no = now;
    }

    /// Lines outside results: profiler messages, process and kernel lines, the version banner.
    fn top_level(&mut self, rest: &'a str) -> bool {
        let first = rest.as_bytes().first().copied().unwrap_or(b' ');
        if first == b'=' && rest.starts_with("==") {
            // ==PROF==, ==WARNING==, ==ERROR== lines.
            return true;
        }
        if first == b'['
            && let Some(p) = process_line(rest)
        {
            self.finish_result();
            self.process = Some((p.pid, p.name));
            return true;
        }
        if let Some(k) = kernel_line(rest) {
            self.start_result(&k);
            return true;
        }
        if let Some(gpu) = device_line(rest) {
            self.finish_result();
            self.gpu = Some(gpu);
            return true;
        }
        if let Some((device, cc)) = self.gpu
            && let Some(mut k) = summary_kernel_line(rest)
        {
            k.device = k.device.or(Some(device));
            k.cc = k.cc.or(Some(cc));
            self.start_result(&k);
            return true;
        }
        if rest.starts_with("NVIDIA (R) Nsight Compute") {
            self.banner_seen = true;
            return true;
        }
        if self.banner_seen
            && let Some(v) = rest.strip_prefix("Version ")
        {
            let version = v.split_whitespace().next().unwrap_or("");
            if !version.is_empty() {
                self.report.tool_version = Some(version.to_string());
            }
            self.banner_seen = false;
            return true;
        }
        false
    }

    fn start_result(&mut self, k: &KernelLine<'_>) {
        self.finish_result();
        if k.invocations.is_some() {
            self.summary = true;
        }
        // A range's summary line prints the shape it does not have as zeros.
        let shape = |d: Option<Dim3>| d.filter(|d| k.kind.is_kernel() || d.product() > 0);
        let result = KernelResult {
            id: self.next_id,
            kind: k.kind,
            process_id: self.process.map(|p| p.0),
            process_name: self.process.map(|p| p.1.to_string()),
            name: KernelName::from_demangled(k.name),
            grid: shape(k.grid),
            block: shape(k.block),
            context: k.context,
            stream: k.stream,
            device: k.device,
            cc: k.cc,
            timestamp: k.timestamp.map(str::to_string),
            invocations: k.invocations,
            ..KernelResult::default()
        };
        let mut result = result;
        *result.sections_mut() = Vec::with_capacity(self.shared.last_sections);
        self.next_id += 1;
        // The older per-kernel summary prints the launch's sizes, not its shape.
        let body_metrics = [(BLOCK_SIZE, k.block_size), (GRID_SIZE, k.grid_size)]
            .into_iter()
            .filter_map(|(name, size)| {
                let key = MetricKey::new(name);
                size.map(|v| (key, Metric::new(Some(key), Value::U64(v), "")))
            })
            .collect();
        self.current = Some(ResultState {
            result,
            body_metrics,
            bodies: BodyCollector::default(),
            section: None,
            table: None,
            rule: None,
            last_rule: None,
            rule_block: RuleBlock::None,
            nvtx: None,
        });
    }

    fn finish_result(&mut self) {
        if let Some(cur) = self.current.take() {
            let (result, bodies) = cur.finish(&mut self.shared);
            if !bodies.is_empty() {
                self.bodies.insert(self.report.results.len(), bodies);
            }
            self.shared.last_sections = result.sections().len();
            self.report.results.push(result);
        }
    }

    /// Ends the text (or this part of it): closes the last result and, for the last part,
    /// notes a truncated tail.
    pub fn finish(mut self, last_part: bool) -> Part {
        if let Some(held) = self.held.take() {
            self.replay(held);
        }
        if last_part
            && !self.shared.truncated
            && let Some(cur) = &self.current
            && let Some(why) = cur.unfinished()
        {
            self.shared.warnings.push(format!(
                "the text ends {why} of the last result (`{}`): it looks truncated",
                cur.result.name.function
            ));
        }
        self.finish_result();
        let mut report = self.report;
        report.warnings.append(&mut self.shared.warnings);
        if self.summary {
            report.format = Format::Summary;
        }
        if !self.bodies.is_empty() {
            report.bodies = ReportBodies::Printed(self.bodies);
        }
        Part {
            report,
            last_process: self.process.map(|(pid, name)| (pid, name.to_string())),
            lines: self.shared.line_no,
            skipped: self.shared.skipped,
            other: self.shared.other,
        }
    }
}

/// What reading a part of a text gives.
#[derive(Debug)]
pub struct Part {
    /// Results (numbered from 0 within the part), warnings, format and tool version.
    pub report: Report,
    /// The process of the part's last process line: results at the start of the next part
    /// belong to it.
    pub last_process: Option<(u64, String)>,
    /// The number of lines read.
    pub lines: usize,
    /// Lines skipped, numbered from 1 within the part.
    pub skipped: Skipped,
    /// Lines that are not ncu's, numbered from 1 within the part.
    pub other: OtherText,
}

impl<'a> ResultState<'a> {
    /// A non-blank line inside a result.
    fn line(&mut self, sh: &mut Shared<'a>, line: &'a str, indent: usize, rest: &'a str) {
        if let Some(domain) = &mut self.nvtx {
            if indent >= 6 {
                match nvtx_range(rest) {
                    Some((_, name)) => self.result.nvtx.push(NvtxRange {
                        domain: domain.unwrap_or("").to_string(),
                        name: name.to_string(),
                    }),
                    None => *domain = Some(rest.trim_end()),
                }
                return;
            }
            self.nvtx = None;
        }
        // Table rows: the common case, checked first.
        if let Some(table) = &self.table
            && table.phase == Phase::Rows
        {
            let table_indent = table.layout.indent();
            if indent > table_indent {
                self.table_row(sh, line);
                return;
            }
            if indent == table_indent {
                let first = rest.as_bytes().first().copied().unwrap_or(b' ');
                if first == b'-' && is_dash_rule(rest) {
                    // The closing rule.
                    self.end_table(sh);
                    return;
                }
                let ends =
                    (first == b'S' && rest.starts_with("Section: ")) || tag_line(rest).is_some();
                if !ends {
                    self.table_row(sh, line);
                    return;
                }
            } else if indent == 0 {
                // Program output printed in the middle of a table.
                sh.other_text();
                return;
            }
            self.end_table(sh);
        }
        if let Some(name) = rest.strip_prefix("Section: ") {
            self.open_section(sh, name.trim_end());
            return;
        }
        let first = rest.as_bytes().first().copied().unwrap_or(b' ');
        if first == b'-' && is_dash_rule(rest) {
            self.dash_rule(sh, line);
            return;
        }
        if let Some((kind, text)) = tag_line(rest) {
            self.end_table(sh);
            self.finish_rule();
            self.rule_block = RuleBlock::None;
            self.rule = Some(OpenRule::new(kind, indent, text));
            return;
        }
        if let Some(rule) = &mut self.rule {
            if indent > rule.indent + 3 {
                rule.push(rest);
                return;
            }
            self.finish_rule();
        }
        if first == b'>' && indent >= 5 {
            self.end_table(sh);
            self.rule_block = if rest.starts_with("> Key Performance Indicators") {
                RuleBlock::Kpi
            } else {
                RuleBlock::Other
            };
            return;
        }
        if let Some(table) = &mut self.table {
            if table.phase == Phase::AfterRule && indent == table.layout.indent() {
                if rest.starts_with("Metric Name") || self.rule_block != RuleBlock::None {
                    table.phase = Phase::Header {
                        line,
                        opened_by_rule: true,
                    };
                    return;
                }
                if table.layout.len() == 3 {
                    // Older layout: rows follow the first rule with no header row.
                    let layout = table.layout;
                    self.start_rows(layout, Kind::Metric, true);
                    self.table_row(sh, line);
                    return;
                }
            }
            self.table = None;
        }
        if rest.starts_with("Metric Name") && rest.contains("Metric Unit") {
            // `--page raw` and the older per-kernel summary: the header row comes before the
            // first rule.
            self.end_table(sh);
            self.table = Some(Table::header_first(line));
            return;
        }
        if is_nvtx_header(rest) {
            self.nvtx = Some(None);
            return;
        }
        if indent >= 4 {
            // Preface warnings, body item titles, `Table Name : ...` lines.
            self.rule_block = RuleBlock::None;
            match &mut self.section {
                Some(section) => {
                    section.body_seen = true;
                    section.has_content = true;
                    if let Some(name) = rest.strip_prefix("Table Name : ") {
                        section.table_name = name.trim_end();
                    }
                    self.bodies.text_line(rest);
                }
                None if KNOWN_PREFACE.iter().any(|p| rest.starts_with(p)) => {}
                None => sh.skip(NO_SHAPE),
            }
            return;
        }
        // Unindented lines are the application's own output.
        if indent > 0 {
            sh.skip(NO_SHAPE);
        } else {
            sh.other_text();
        }
    }

    fn blank(&mut self, sh: &mut Shared<'a>) {
        self.finish_rule();
        self.nvtx = None;
        if self.table.as_ref().is_some_and(|t| t.phase == Phase::Rows) {
            self.end_table(sh);
        } else {
            self.table = None;
        }
    }

    fn open_section(&mut self, sh: &mut Shared<'a>, name: &'a str) {
        // Older versions printed some sections under other names.
        let name = section_today(name);
        self.end_table(sh);
        self.finish_rule();
        self.rule_block = RuleBlock::None;
        let index = self.result.sections().len();
        self.bodies.section(name);
        let label_slot = sh.labels.slot(name);
        self.result.sections_mut().push(Section {
            identifier: None,
            name: name.to_string(),
            rows: Vec::with_capacity(sh.labels.known_rows(label_slot)),
            rules: Vec::new(),
        });
        self.section = Some(SectionState {
            name,
            index,
            label_slot,
            header_done: false,
            body_seen: false,
            table_name: "",
            has_content: false,
        });
    }

    fn dash_rule(&mut self, sh: &mut Shared<'a>, line: &'a str) {
        self.finish_rule();
        let Some(layout) = Layout::from_rule(line) else {
            return;
        };
        if let Some(Table {
            phase:
                Phase::Header {
                    line: header,
                    opened_by_rule,
                },
            ..
        }) = self.table
        {
            let kind = kind_of_header(
                &layout,
                header,
                self.rule_block != RuleBlock::None,
                self.rule_block == RuleBlock::Kpi,
            );
            self.start_rows(layout, kind, opened_by_rule);
            return;
        }
        self.end_table(sh);
        self.table = Some(Table::after_rule(layout));
    }

    /// Starts the data rows of a table and decides where they go.
    fn start_rows(&mut self, layout: Layout, kind: Kind, opened_by_rule: bool) {
        let metric_table = matches!(kind, Kind::Metric | Kind::Summary { .. });
        let role = if metric_table {
            self.role_of_new_table()
        } else {
            Role::Body
        };
        self.table = Some(Table {
            layout,
            phase: Phase::Rows,
            kind,
            role,
            expects_close: opened_by_rule && metric_table,
            rows: 0,
            pending: None,
        });
    }

    fn role_of_new_table(&mut self) -> Role {
        match &mut self.section {
            None => {
                let index = self.result.sections().len();
                self.result.sections_mut().push(Section {
                    identifier: None,
                    name: RAW_SECTION.to_string(),
                    rows: Vec::new(),
                    rules: Vec::new(),
                });
                self.section = Some(SectionState {
                    name: RAW_SECTION,
                    index,
                    label_slot: usize::MAX,
                    header_done: true,
                    body_seen: false,
                    table_name: "",
                    has_content: true,
                });
                Role::Raw
            }
            Some(s) => {
                s.has_content = true;
                if !s.header_done && !s.body_seen {
                    s.header_done = true;
                    Role::Header
                } else {
                    Role::Body
                }
            }
        }
    }

    /// A data or continuation row of the open table.
    fn table_row(&mut self, sh: &mut Shared<'a>, line: &'a str) {
        let Some(table) = &mut self.table else {
            return;
        };
        let layout = table.layout;
        match table.kind {
            Kind::Skip => sh.skip(UNREAD_TABLE),
            Kind::Kpi => {
                let guidance = layout.cell(line, 2).unwrap_or("");
                let width = layout.col(2).map_or(usize::MAX, |(s, e)| e - s);
                if layout.blank_before(line, 0) {
                    // Guidance text wrapped onto the next line.
                    if let Some(p) = &mut table.pending {
                        p.continue_value(1, guidance, width);
                    }
                    return;
                }
                let name = layout.cell(line, 0).unwrap_or("");
                let value = layout.cell(line, 1).unwrap_or("");
                if value.is_empty() {
                    if let Some(p) = &mut table.pending {
                        p.continue_name(name);
                        p.continue_value(1, guidance, width);
                    }
                    return;
                }
                if parse_value(&sh.point_form(Cow::Borrowed(value)))
                    .0
                    .as_f64()
                    .is_none()
                {
                    sh.skip(KPI_NOT_A_NUMBER);
                }
                let row = PendingRow::new(name, "", [value, guidance, ""], [0, width, 0]);
                if let Some(done) = table.pending.replace(row) {
                    self.store_focus_metric(&done, sh.numbers);
                }
            }
            Kind::Metric | Kind::Summary { .. } => {
                if sh.unterminated && line.len() < layout.end() {
                    // The text was cut inside this row.
                    sh.warnings.push(format!(
                        "the last line is cut inside a table row of the last result (`{}`): \
                         the row was skipped and the text looks truncated",
                        self.result.name.function
                    ));
                    sh.truncated = true;
                    return;
                }
                let value_cols = table.kind.value_columns();
                let widths = value_cols.map(|c| layout.col(c).map_or(usize::MAX, |(s, e)| e - s));
                if layout.blank_before(line, 0) {
                    if let Some(p) = &mut table.pending {
                        for (slot, &col) in value_cols.iter().enumerate() {
                            if col == NO_COLUMN {
                                continue;
                            }
                            let piece = layout
                                .cell(line, col)
                                .unwrap_or_else(|| if slot == 0 { line.trim() } else { "" });
                            p.continue_value(slot, piece, widths[slot]);
                        }
                    }
                    return;
                }
                let (label, unit, values) = layout.cut_row(line, value_cols);
                let mut row = PendingRow::new(label, unit, values, widths);
                row.line = sh.line_no;
                if let Some(done) = table.pending.replace(row) {
                    self.store_row(sh, done);
                }
            }
        }
    }

    /// Stores a finished metric row in its section, or among the body metrics.
    fn store_row(&mut self, sh: &mut Shared<'a>, mut row: PendingRow<'a>) {
        row.values = row.values.map(|v| sh.point_form(v));
        let ResultState {
            result,
            body_metrics,
            bodies,
            section,
            table,
            ..
        } = self;
        let (Some(table), Some(section)) = (table.as_mut(), section.as_ref()) else {
            return;
        };
        let full_label: &str = &row.label;
        let (label, name) = match split_label_name(full_label) {
            Some((l, n)) => (l, Some(n)),
            None => {
                let name = match (table.role, &row.label) {
                    (Role::Raw, _) => Some(full_label),
                    (Role::Header, std::borrow::Cow::Borrowed(l)) => {
                        sh.labels
                            .metric(section.label_slot, table.rows, section.name, l)
                    }
                    _ => metric_for(section.name, full_label),
                };
                // `--metrics` tables and `--print-metric-name name` print the names themselves.
                let name = name.or_else(|| is_metric_name(full_label).then_some(full_label));
                (full_label, name)
            }
        };
        let base = sh.units.base(row.unit);
        let metric = match table.kind {
            Kind::Summary { .. } => summary_metric(
                name,
                [&row.values[0], &row.values[1], &row.values[2]],
                row.unit,
                base,
            ),
            _ => printed_metric(name, &row.values[0], row.unit, base),
        };
        table.rows += 1;
        if !row.unit.trim().is_empty()
            && matches!(metric.value, Value::Str(_))
            && metric.instances.is_empty()
        {
            // A damaged row: the unit column says the value is a number.
            sh.skipped.add(VALUE_NOT_A_NUMBER, row.line);
            return;
        }
        match table.role {
            Role::Header | Role::Raw => {
                if let Some(s) = result.sections_mut().get_mut(section.index) {
                    s.rows.push(MetricRow {
                        label: label.to_string(),
                        metric,
                    });
                }
            }
            Role::Body => {
                if bodies.is_open() {
                    bodies.row(label, &metric);
                }
                let key = match name {
                    Some(n) => MetricKey::new(n),
                    None => MetricKey::from(format!(
                        "{}/{}/{}",
                        section.name, section.table_name, label
                    )),
                };
                body_metrics.push((key, metric));
            }
        }
    }

    /// Adds a key performance indicator to the last rule.
    fn store_focus_metric(&mut self, row: &PendingRow<'_>, numbers: NumberFormat) {
        let Some(value) = parse_value(&to_point(&row.values[0], numbers)).0.as_f64() else {
            return;
        };
        let rule = match self.last_rule {
            Some(RuleSlot::Section(i)) => self
                .result
                .sections_mut()
                .get_mut(i)
                .and_then(|s| s.rules.last_mut()),
            Some(RuleSlot::Result) => self.result.rules_mut().last_mut(),
            None => None,
        };
        if let Some(rule) = rule {
            rule.focus_metrics.push((row.label.to_string(), value));
            let guidance = row.values[1].trim();
            if !guidance.is_empty() {
                rule.guidance
                    .push((row.label.to_string(), guidance.to_string()));
            }
        }
    }

    fn end_table(&mut self, sh: &mut Shared<'a>) {
        let Some(mut table) = self.table.take() else {
            return;
        };
        if table.role == Role::Body {
            self.bodies.end_table();
        }
        if let Some(row) = table.pending.take() {
            let kind = table.kind;
            self.table = Some(table);
            match kind {
                Kind::Kpi => self.store_focus_metric(&row, sh.numbers),
                Kind::Metric | Kind::Summary { .. } => self.store_row(sh, row),
                Kind::Skip => {}
            }
            self.table = None;
        }
    }

    fn finish_rule(&mut self) {
        let Some(rule) = self.rule.take() else {
            return;
        };
        let rule = rule.finish();
        match &self.section {
            Some(s) if s.index < self.result.sections().len() => {
                self.result.sections_mut()[s.index].rules.push(rule);
                self.last_rule = Some(RuleSlot::Section(s.index));
            }
            _ => {
                self.result.rules_mut().push(rule);
                self.last_rule = Some(RuleSlot::Result);
            }
        }
        if let Some(s) = &mut self.section {
            s.has_content = true;
        }
    }

    /// Why the text looks cut at this point, if it does.
    fn unfinished(&self) -> Option<&'static str> {
        if let Some(t) = &self.table {
            match t.phase {
                Phase::Rows if t.expects_close => return Some("inside a table"),
                Phase::Header { .. } => return Some("after a table header"),
                Phase::AfterRule if t.layout.len() >= 3 => return Some("after a table rule"),
                _ => {}
            }
        }
        match &self.section {
            Some(s) if !s.has_content && self.rule.is_none() && self.table.is_none() => {
                Some("right after a section title")
            }
            _ => None,
        }
    }

    fn finish(mut self, sh: &mut Shared<'a>) -> (KernelResult, Vec<SectionBodies>) {
        self.end_table(sh);
        self.finish_rule();
        let mut result = self.result;
        index_metrics(&mut result, self.body_metrics);
        (result, self.bodies.finish())
    }
}
