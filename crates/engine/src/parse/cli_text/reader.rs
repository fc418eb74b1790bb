//! The line-by-line reader: recognises each line by its shape (process and kernel lines,
//! NVTX preface, `Section:` lines, dash-rule tables, rule messages, rule detail blocks) and
//! builds results as it goes. Indented lines inside a result that fit no shape are skipped,
//! counted and named in the report's warnings; lines outside every result and unindented ones
//! are not ncu's (the program's own output, text around a pasted block) and are noted apart.

use super::bodies::{BodyCollector, Collect};
use super::cell_value::{
    UnitCache, printed_metric, reads_as_text, split_label_name, summary_metric, value_metric,
};
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
use crate::model::is_head_metric;
use crate::model::names::{BLOCK_SIZE, GRID_SIZE, is_metric_name};
use crate::model::section_body::{ReportBodies, SectionBodies};
use crate::model::{
    Dim3, Format, KernelName, KernelResult, Metric, MetricKey, MetricRow, NvtxRange, Report,
    Section, Value,
};
use crate::model::{Warning, WarningKind};
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
    warnings: Vec<Warning>,
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
    /// What is read of each result: every value, or only what its head needs.
    wanted: Wanted,
    /// The text of a body metric's key being made (`Section/Table/Label`).
    key: String,
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
    /// Whether a result printed a section body with rows (kept in `bodies` when whole bodies
    /// are read).
    printed_bodies: bool,
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
            printed_bodies: false,
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
                wanted: Wanted::Bodies,
                key: String::new(),
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

    /// A reader that keeps only what `wanted` asks for of each result.
    pub fn wanting(wanted: Wanted) -> Self {
        let mut reader = Self::new();
        reader.shared.wanted = wanted;
        reader
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
            // Only a reading of whole bodies keeps the printed section bodies.
            bodies: BodyCollector::new(match self.shared.wanted {
                Wanted::Bodies => Collect::Bodies,
                Wanted::Heads => Collect::Presence,
                Wanted::Values => Collect::Nothing,
            }),
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
            self.printed_bodies |= cur.bodies.had_rows();
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
            self.shared.warnings.push(Warning::new(
                WarningKind::Truncated,
                format!(
                    "the text ends {why} of the last result (`{}`): it looks truncated",
                    cur.result.name.function
                ),
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
        } else if self.printed_bodies && self.shared.wanted == Wanted::Heads {
            // Read for the heads: the bodies are read with each result's body.
            report.bodies = ReportBodies::InResults;
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

/// What a reading keeps of each result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wanted {
    /// Every section, rule, metric and printed body.
    Bodies,
    /// What the result's head needs ([`crate::model::HEAD_METRICS`] and its rules): listing a
    /// large text reads it this way and parses a body again when a view asks for it. The
    /// lines are recognised and the warnings counted as for a full reading; of the metric
    /// rows only the head metrics are kept, and no printed body.
    Heads,
    /// Every section, rule and metric value, without what only the views of one result show:
    /// no instances, printed forms or printed section bodies. The values, keys and warnings
    /// are those of [`Wanted::Bodies`]; outputs that print values only read bodies this way.
    Values,
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

mod result_state;
