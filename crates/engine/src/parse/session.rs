//! The `--page session` export, text or CSV: titled blocks (Launch Settings, Session Info,
//! Processes, Device Attributes) of small tables. A report with session data and no results.

use super::ParseError;
use super::csv_details::{csv_error, csv_reader};
use crate::model::{Device, Format, Report, Warning, WarningKind};

/// One titled table of the session page.
#[derive(Debug, Default)]
struct Block {
    title: String,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

/// Parses a session page, text or CSV.
pub fn parse(text: &str) -> Result<Report, ParseError> {
    let blocks = if is_csv(text) {
        csv_blocks(text)?
    } else {
        text_blocks(text)
    };
    if blocks.iter().all(|b| b.rows.is_empty()) {
        return Err(ParseError::NotAResult(
            "a session page without any table rows".into(),
        ));
    }
    let mut report = Report::new("", Format::Session);
    for block in &blocks {
        let first_header = block.header.first().map(String::as_str).unwrap_or("");
        if block.title == "Processes" || first_header == "Process Id" {
            for row in &block.rows {
                let (Some(pid), Some(name)) = (row.first(), row.get(1)) else {
                    continue;
                };
                match pid.trim().parse::<u64>() {
                    Ok(pid) => report.session.processes.push((pid, name.clone())),
                    Err(_) => report.warnings.push(Warning::new(
                        WarningKind::BadValue,
                        format!("process id \"{pid}\" is not a number"),
                    )),
                }
            }
        } else if block.title == "Device Attributes" || first_header == "Device Attribute" {
            report.devices.extend(devices_of(block));
        } else {
            for row in &block.rows {
                if let (Some(key), Some(value)) = (row.first(), row.get(1)) {
                    report.session.attributes.push((key.clone(), value.clone()));
                }
            }
        }
    }
    report.tool_version = report
        .session
        .get("Nsight Compute Target")
        .and_then(|v| v.split_whitespace().next())
        .map(str::to_string);
    Ok(report)
}

/// One device per value column of the Device Attributes block (`Device 0`, `Device 1`...).
fn devices_of(block: &Block) -> Vec<Device> {
    let mut devices = Vec::new();
    for (col, title) in block.header.iter().enumerate().skip(1) {
        let index = title
            .split_whitespace()
            .last()
            .and_then(|t| t.parse::<u64>().ok())
            .unwrap_or((col - 1) as u64);
        let attributes: Vec<(String, String)> = block
            .rows
            .iter()
            .filter_map(|row| Some((row.first()?.clone(), row.get(col)?.clone())))
            .collect();
        let get = |key: &str| {
            attributes
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
        };
        let number = |key: &str| get(key).and_then(|v| v.trim().parse::<u64>().ok());
        let cc = match (
            number("compute_capability_major"),
            number("compute_capability_minor"),
        ) {
            (Some(major), Some(minor)) => u32::try_from(major).ok().zip(u32::try_from(minor).ok()),
            _ => None,
        };
        devices.push(Device {
            index,
            name: get("display_name").map(str::to_string),
            cc,
            sm_count: number("multiprocessor_count"),
            attributes: attributes.clone(),
        });
    }
    devices
}

/// The CSV form has quoted rows after each bare title.
fn is_csv(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .nth(1)
        .is_some_and(|l| l.starts_with('"'))
}

/// Blocks of the CSV form: a one-cell record is a title, the next record the header.
fn csv_blocks(text: &str) -> Result<Vec<Block>, ParseError> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut reader = csv_reader(text);
    for record in reader.records() {
        let record = record.map_err(|e| csv_error(&e))?;
        let cells: Vec<String> = record.iter().map(|c| c.trim().to_string()).collect();
        if cells.iter().all(String::is_empty) {
            continue;
        }
        if cells.len() == 1 {
            blocks.push(Block {
                title: cells.into_iter().next().unwrap_or_default(),
                ..Block::default()
            });
            continue;
        }
        if blocks.is_empty() {
            blocks.push(Block::default());
        }
        if let Some(block) = blocks.last_mut() {
            if block.header.is_empty() {
                block.header = cells;
            } else {
                block.rows.push(cells);
            }
        }
    }
    Ok(blocks)
}

/// A dash rule `---- -------`: its dash groups as (start, width) in characters.
fn rule_columns(line: &str) -> Option<Vec<(usize, usize)>> {
    let t = line.trim_end();
    if t.is_empty() || !t.chars().all(|c| c == '-' || c == ' ') {
        return None;
    }
    let mut cols = Vec::new();
    let mut start = None;
    for (i, c) in t.chars().chain(std::iter::once(' ')).enumerate() {
        match (c, start) {
            ('-', None) => start = Some(i),
            (' ', Some(s)) => {
                cols.push((s, i - s));
                start = None;
            }
            _ => {}
        }
    }
    Some(cols)
}

/// The cells of a table line: the text under each dash group (the last column takes the rest of
/// the line). A cell the line ends inside gets one space for the blanks a trimmed line lost, so
/// wrapped continuation lines join at their word break. Cells past the end of the line are left
/// out (the first two are kept, empty): a short line under a very wide rule costs no more than
/// its own length.
fn raw_cells(line: &str, cols: &[(usize, usize)]) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    cols.iter()
        .enumerate()
        .take_while(|&(k, &(start, _))| k < 2 || start < chars.len())
        .map(|(k, &(start, width))| {
            let full = start.saturating_add(width);
            let end = if k + 1 == cols.len() {
                chars.len()
            } else {
                full.min(chars.len())
            };
            let mut cell: String = chars.get(start..end).unwrap_or_default().iter().collect();
            if start < chars.len() && end < full {
                cell.push(' ');
            }
            cell
        })
        .collect()
}

/// Blocks of the text form: title, dash rule, header, dash rule, rows up to a blank line.
/// A row whose first cell is blank continues the previous row (wrapped values).
fn text_blocks(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let cols = lines.get(i + 1).and_then(|l| rule_columns(l));
        let (Some(cols), false) = (cols, line.trim().is_empty() || rule_columns(line).is_some())
        else {
            i += 1;
            continue;
        };
        let mut block = Block {
            title: line.trim().to_string(),
            ..Block::default()
        };
        i += 2;
        if let Some(header) = lines.get(i) {
            block.header = raw_cells(header, &cols)
                .iter()
                .map(|c| c.trim().to_string())
                .collect();
            i += 1;
        }
        if lines.get(i).is_some_and(|l| rule_columns(l).is_some()) {
            i += 1;
        }
        let mut raw_rows: Vec<Vec<String>> = Vec::new();
        while let Some(line) = lines.get(i) {
            if line.trim().is_empty() || rule_columns(line).is_some() {
                break;
            }
            let cells = raw_cells(line, &cols);
            let continues = cells.first().is_some_and(|c| c.trim().is_empty());
            match raw_rows.last_mut() {
                Some(last) if continues => {
                    for (k, more) in cells.into_iter().enumerate() {
                        match last.get_mut(k) {
                            Some(into) => into.push_str(&more),
                            None => last.push(more),
                        }
                    }
                }
                _ => raw_rows.push(cells),
            }
            i += 1;
        }
        block.rows = raw_rows
            .into_iter()
            .map(|row| row.iter().map(|c| c.trim().to_string()).collect())
            .collect();
        blocks.push(block);
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_wrapped_values() {
        let text = "Launch Settings\n\
                    ----- ----------\n\
                    Key   Value     \n\
                    ----- ----------\n\
                    Cmd   ncu --set \n      full app  \n\
                    Other x\n";
        let blocks = text_blocks(text);
        assert_eq!(blocks.len(), 1);
        assert_eq!(blocks[0].header, ["Key", "Value"]);
        assert_eq!(
            blocks[0].rows,
            [vec!["Cmd", "ncu --set full app"], vec!["Other", "x"]]
        );
    }
}
