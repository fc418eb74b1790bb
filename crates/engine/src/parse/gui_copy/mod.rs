//! Text copied from the Nsight Compute GUI Details page: a tab-separated report header row,
//! section titles as bare lines followed by a description paragraph, header tables as
//! `Label [unit]<TAB>value` pairs (two per line) and rule results as one line each.

mod header;
mod number;
mod rule_line;

use super::ParseError;
use super::csv_details::printed::metric_from_parsed;
use crate::model::catalog::{self, metric_for};
use crate::model::names::{DURATION, ELAPSED_CYCLES, SM_FREQUENCY};
use crate::model::stock_sections::{identifier_for, known_sections};
use crate::model::{Device, Format, KernelResult, MetricKey, MetricRow, Report, Section};
use header::HeaderRow;
use number::gui_number;
use rule_line::{is_rule_line, parse_rule_line};
use std::collections::HashSet;
use std::sync::OnceLock;

/// Lines that mark a block of the GUI without content of their own.
const MARKER_LINES: &[&str] = &["Key Performance Indicators"];

/// What one line of a GUI copy is.
enum Line<'a> {
    Blank,
    /// Tab-separated cells (header table pairs).
    Cells(&'a str),
    /// A sentence or paragraph: a section description or a rule result.
    Prose(&'a str),
    /// A short bare line: a section title, subtitle, chart caption or page tab bar.
    Title(&'a str),
    Marker,
}

fn classify(line: &str) -> Line<'_> {
    let t = line.trim();
    if t.is_empty() {
        return Line::Blank;
    }
    if line.contains('\t') {
        return Line::Cells(line);
    }
    if MARKER_LINES.contains(&t) {
        return Line::Marker;
    }
    let words = t.split_whitespace().count();
    if words >= 9 || (words >= 3 && t.ends_with('.')) {
        Line::Prose(t)
    } else {
        Line::Title(t)
    }
}

/// Bare lines kept while looking for a section title: a title, a subtitle and chart captions.
const MAX_PENDING_TITLES: usize = 8;

/// Whether a bare line names a stock section.
fn is_known_section(title: &str) -> bool {
    static NAMES: OnceLock<HashSet<&'static str>> = OnceLock::new();
    NAMES
        .get_or_init(|| {
            known_sections()
                .map(|(_, name)| name)
                .chain(catalog::entries().map(|(section, _, _)| section))
                .collect()
        })
        .contains(title)
}

/// Parses a GUI Details copy into one result.
pub fn parse(text: &str) -> Result<Report, ParseError> {
    let mut report = Report::new("", Format::GuiCopy);
    let mut result = KernelResult::default();
    let mut lines = text.lines().peekable();
    let mut head = HeaderRow::default();
    // The report header: column titles, then one values row per result shown (the current
    // result and any baselines); the current one is read.
    let mut body: Vec<&str> = Vec::new();
    while let Some(line) = lines.next() {
        if header::is_title_row(line) {
            while lines.next_if(|l| l.trim().is_empty()).is_some() {}
            let mut rows = Vec::new();
            while let Some(values) = lines.next_if(|l| l.contains('\t')) {
                rows.push(values);
            }
            let current = rows.iter().find(|r| r.starts_with("Current\t"));
            if let Some(values) = current.or(rows.first()) {
                head = header::parse_row(values);
            }
            continue;
        }
        body.push(line);
    }
    let mut pending: Vec<&str> = Vec::new();
    let mut pairs = 0usize;
    for line in body {
        match classify(line) {
            Line::Blank | Line::Marker => {}
            Line::Title(t) => {
                if pending.len() == MAX_PENDING_TITLES {
                    pending.remove(0);
                }
                pending.push(t);
            }
            Line::Cells(line) => {
                open_known_section(result.sections_mut(), &pending);
                pending.clear();
                if result.sections().is_empty() {
                    result.sections_mut().push(Section::default());
                }
                if let Some(section) = result.sections_mut().last_mut() {
                    pairs += add_pairs(section, line);
                }
            }
            Line::Prose(t) => {
                let opened = open_known_section(result.sections_mut(), &pending);
                // Bare lines above a rule that are no section title repeat the rule title.
                let subtitles: Vec<&str> = pending
                    .iter()
                    .copied()
                    .filter(|p| !is_known_section(p))
                    .collect();
                if is_rule_line(t, &subtitles) {
                    let rule = parse_rule_line(t, &subtitles);
                    match result.body_mut().sections.last_mut() {
                        Some(section) => section.rules.push(rule),
                        None => result.body_mut().rules.push(rule),
                    }
                } else if !opened && let Some(title) = pending.last() {
                    // A description paragraph under an unknown section title.
                    open_section(result.sections_mut(), title);
                }
                pending.clear();
            }
        }
    }
    if pairs == 0 && result.all_rules().next().is_none() && head.id.is_none() {
        return Err(ParseError::NotAResult(
            "no header row, metric pairs or rule results in the GUI copy".into(),
        ));
    }
    result.index_section_metrics();
    apply_header(&mut report, &mut result, head);
    report.results.push(result);
    Ok(report)
}

/// Opens the last known stock section among the pending bare lines; true when one was.
fn open_known_section(sections: &mut Vec<Section>, pending: &[&str]) -> bool {
    match pending.iter().rev().find(|t| is_known_section(t)) {
        Some(title) => {
            open_section(sections, title);
            true
        }
        None => false,
    }
}

fn open_section(sections: &mut Vec<Section>, title: &str) {
    sections.push(Section {
        identifier: identifier_for(title).map(str::to_string),
        name: title.to_string(),
        ..Section::default()
    });
}

/// Adds the `Label [unit]<TAB>value` pairs of a line to a section; returns how many.
fn add_pairs(section: &mut Section, line: &str) -> usize {
    let cells: Vec<&str> = line.split('\t').collect();
    let mut added = 0;
    for pair in cells.chunks(2) {
        let (Some(label), Some(value)) = (pair.first(), pair.get(1)) else {
            continue;
        };
        let label = label.trim();
        if label.is_empty() {
            continue;
        }
        let (label, unit) = split_unit(label);
        let metric = metric_from_parsed(
            metric_for(&section.name, label).map(MetricKey::from),
            gui_number(value),
            unit,
        );
        section.rows.push(MetricRow {
            label: label.to_string(),
            metric,
        });
        added += 1;
    }
    added
}

/// `Duration [ms]` gives (`Duration`, `ms`); a label without a unit gives an empty unit.
fn split_unit(label: &str) -> (&str, &str) {
    if let Some(inner) = label.strip_suffix(']')
        && let Some((name, unit)) = inner.rsplit_once(" [")
    {
        return (name.trim(), unit.trim());
    }
    (label, "")
}

/// Fills the result identity and header metrics, and the device, from the header row.
fn apply_header(report: &mut Report, result: &mut KernelResult, head: HeaderRow) {
    if let Some(id) = head.id {
        result.id = id;
    }
    if let Some(name) = head.name {
        result.name = name;
    }
    result.grid = head.grid;
    result.block = head.block;
    if let Some((pid, name)) = head.process {
        result.process_id = Some(pid);
        result.process_name = Some(name);
    }
    let header_metrics = [
        (DURATION, head.duration),
        (
            ELAPSED_CYCLES,
            head.cycles.map(|c| (c, "cycle".to_string())),
        ),
        (SM_FREQUENCY, head.sm_frequency),
    ];
    for (name, printed) in header_metrics {
        if let Some((value, unit)) = printed {
            let key = MetricKey::new(name);
            if !result.metrics().contains_key(&key) {
                let metric = metric_from_parsed(Some(key), value, &unit);
                result.metrics_mut().insert(key, metric);
            }
        }
    }
    if let Some((index, name)) = head.device {
        result.device = Some(index);
        report.devices.push(Device {
            index,
            name: Some(name),
            ..Device::default()
        });
    }
}
