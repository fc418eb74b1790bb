//! The `--csv --page raw` export (wide form): a header row of identity columns and metric names,
//! a units row, then one row per result. An empty cell means the metric was not collected.
//! Cells outside the named columns are skipped, and rows cut short are read as far as they go;
//! both are counted and named in the report's warnings.

use super::ParseError;
use super::csv_details::identity::IdentityColumns;
use super::csv_details::printed::metric_from_printed;
use super::csv_details::{
    CsvPart, Export, STRAY_QUOTE, csv_error, csv_reader, devices_of, header_row, rows_of,
};
use super::instances;
use super::number_format::NumberFormat;
use super::skipped::Skipped;
use crate::model::names::{CC_MAJOR, CC_MINOR, DEVICE_NAME, SM_COUNT};
use crate::model::stock_sections::build_sections;
use crate::model::units::to_base;
use crate::model::{Device, Format, KernelResult, Metric, MetricKey, Report};
use csv::StringRecord;

/// The prefix of device attribute metrics.
const DEVICE_ATTRIBUTE: &str = "device__attribute_";

/// Parses a `--csv --page raw` export, wherever its header row is.
pub fn parse(text: &str) -> Result<Report, ParseError> {
    Ok(parse_window(text, 0)?.finish())
}

/// Parses a window of a larger export whose first line is line `lines_before + 1` of the
/// whole text (see `parse::text_windows`); lines in warnings are numbered as in the whole.
/// A row whose quote is left open is skipped (see [`crate::parse::csv_rows`]).
pub fn parse_window(text: &str, lines_before: usize) -> Result<CsvPart, ParseError> {
    let found = Export::find(text);
    let (body, stray) = rows_of(&found);
    let mut export = Export {
        body: &body,
        lines_before: found.lines_before + lines_before,
        other: found.other,
    };
    let mut damaged = Skipped::new("row", "line");
    for line in stray {
        damaged.add(STRAY_QUOTE, line + lines_before);
    }
    let mut reader = csv_reader(export.body);
    let mut rows = reader.records();
    let header = header_row(&mut rows)?;
    let identity = IdentityColumns::from_header(header.iter());
    let metric_columns: Vec<(usize, &str)> = header
        .iter()
        .enumerate()
        .filter(|(i, name)| !identity.contains(*i) && !name.trim().is_empty())
        .map(|(i, name)| (i, name.trim()))
        .collect();
    let mut report = Report::new("", Format::CsvRaw);
    let mut units: Option<StringRecord> = None;
    let unnamed: Vec<usize> = (0..header.len())
        .filter(|&i| !identity.contains(i) && header.get(i).is_some_and(|n| n.trim().is_empty()))
        .collect();
    let mut cells = Skipped::new("cell", "column");
    let mut short = Skipped::new("row", "line").with_verb("read in part");
    for (n, row) in rows.enumerate() {
        let row = row.map_err(|e| csv_error(&e))?;
        if row.iter().all(|c| c.trim().is_empty()) || export.passes_over(&row) {
            continue;
        }
        // The units row comes first and leaves the identity columns empty.
        if n == 0 && identity.id_of(&row).is_none() {
            units = Some(row);
            continue;
        }
        let filled = |i: usize| row.get(i).is_some_and(|c| !c.trim().is_empty());
        for i in unnamed.iter().copied().filter(|&i| filled(i)) {
            cells.add("under a column without a name", i + 1);
        }
        for i in (header.len()..row.len()).filter(|&i| filled(i)) {
            cells.add("beyond the last named column", i + 1);
        }
        if row.len() < header.len() {
            short.add("shorter than the header", export.line_of(&row));
        }
        let mut result = KernelResult::default();
        identity.fill(&mut result, &row);
        if identity.id_of(&row).is_none() {
            result.id = report.results.len() as u64;
        }
        // `--print-metric-instances` prints lists after the values; then string metrics carry
        // lists too.
        let listed = metric_columns.iter().any(|&(i, _)| {
            row.get(i)
                .filter(|v| v.ends_with(')'))
                .and_then(instances::split)
                .is_some_and(|l| {
                    !l.aggregate.is_empty() && instances::instances_of(&l, 1.0, false).is_some()
                })
        });
        for &(i, name) in &metric_columns {
            let value = row.get(i).unwrap_or("");
            if value.trim().is_empty() {
                continue;
            }
            let unit = units.as_ref().and_then(|u| u.get(i)).unwrap_or("");
            let key = MetricKey::new(name);
            let metric = metric_with_instances(key, value, unit, listed);
            result.metrics_mut().insert(key, metric);
        }
        let sections = build_sections(result.metrics());
        *result.sections_mut() = sections;
        add_device(&mut report.devices, &result, &row, &metric_columns);
        report.results.push(result);
    }
    // Devices that no result describes still get an entry from the identity columns.
    for device in devices_of(&report.results) {
        if !report.devices.iter().any(|d| d.index == device.index) {
            report.devices.push(device);
        }
    }
    Ok(CsvPart {
        report,
        skipped: vec![cells, short, damaged],
        other: export.other,
        told: Vec::new(),
        numbers: NumberFormat::Point,
    })
}

/// A metric from a cell, reading an instance list after the value when the cell has one.
fn metric_with_instances(name: MetricKey, value: &str, unit: &str, listed: bool) -> Metric {
    if value.ends_with(')')
        && let Some(list) = instances::split(value)
    {
        let factor = to_base(unit.trim()).factor;
        let strings = listed || list.plausible_strings();
        if let Some(found) = instances::instances_of(&list, factor, strings) {
            let mut metric = metric_from_printed(Some(name), list.aggregate, unit);
            metric.instances = found;
            return metric;
        }
    }
    metric_from_printed(Some(name), value, unit)
}

/// Records the device a result ran on from its `device__attribute_*` columns, once per index.
fn add_device(
    devices: &mut Vec<Device>,
    result: &KernelResult,
    row: &StringRecord,
    metric_columns: &[(usize, &str)],
) {
    let index = result.device.unwrap_or(0);
    if devices.iter().any(|d| d.index == index) {
        return;
    }
    let attributes: Vec<(String, String)> = metric_columns
        .iter()
        .filter_map(|&(i, name)| {
            let attr = name.strip_prefix(DEVICE_ATTRIBUTE)?;
            let text = row.get(i)?.trim();
            (!text.is_empty()).then(|| (attr.to_string(), text.to_string()))
        })
        .collect();
    if attributes.is_empty() {
        return;
    }
    let number = |key: &str| result.number(key);
    let cc = match (number(CC_MAJOR), number(CC_MINOR)) {
        (Some(major), Some(minor)) => Some((major as u32, minor as u32)),
        _ => result.cc,
    };
    devices.push(Device {
        index,
        name: result
            .metric(DEVICE_NAME)
            .and_then(|m| m.value.as_str())
            .map(str::to_string),
        cc,
        sm_count: number(SM_COUNT).map(|v| v as u64),
        attributes,
    });
}
