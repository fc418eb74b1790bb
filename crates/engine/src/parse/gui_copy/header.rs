//! The report header row of a GUI copy:
//! `Current\t535 - name\t(32, 32, 1024)x(8, 8, 1)\t1.27 ms\t1.391.144 0 - NVIDIA A100-SXM4-40GB\t1.09 Ghz\t[3874072] xray_cnn`.
//!
//! Cells are read by their content, since the GUI may merge neighbouring columns
//! (Cycles and GPU above).

use super::number::gui_number;
use crate::model::{Dim3, KernelName, Value};
use crate::parse::csv_details::identity::parse_dim3;

/// What the header row of a result says.
#[derive(Debug, Default, PartialEq)]
pub struct HeaderRow {
    pub id: Option<u64>,
    pub name: Option<KernelName>,
    pub grid: Option<Dim3>,
    pub block: Option<Dim3>,
    /// The duration as printed: (value, decimals) and unit.
    pub duration: Option<((Value, u8), String)>,
    /// The elapsed cycles as printed.
    pub cycles: Option<(Value, u8)>,
    /// The SM frequency as printed: (value, decimals) and unit.
    pub sm_frequency: Option<((Value, u8), String)>,
    pub device: Option<(u64, String)>,
    pub process: Option<(u64, String)>,
}

/// Whether a line is the header's column titles.
pub fn is_title_row(line: &str) -> bool {
    let mut cells = line.split('\t').map(str::trim);
    cells.next() == Some("Result") && line.contains("\tSize") && line.contains("\tTime")
}

/// Reads a header values row.
pub fn parse_row(line: &str) -> HeaderRow {
    let mut row = HeaderRow::default();
    for cell in line.split('\t').map(str::trim).filter(|c| !c.is_empty()) {
        if let Some(process) = bracketed_process(cell) {
            row.process = Some(process);
        } else if let Some((grid, block)) = cell.split_once(")x(") {
            row.grid = parse_dim3(&format!("{grid})"));
            row.block = parse_dim3(&format!("({block}"));
        } else if let Some((index, name)) = numbered_name(cell) {
            if row.id.is_none() {
                row.id = Some(index);
                row.name = Some(KernelName::from_demangled(name));
            } else {
                row.device = Some((index, name.to_string()));
            }
        } else if let Some((cycles, rest)) = cell.split_once(' ')
            && let Some((index, name)) = numbered_name(rest)
            && let Some(value) = number_cell(cycles)
        {
            row.cycles = Some(value);
            row.device = Some((index, name.to_string()));
        } else if let Some((number, unit)) = cell.split_once(' ')
            && let Some(value) = number_cell(number)
        {
            let lower = unit.to_ascii_lowercase();
            if lower.ends_with("hz") {
                row.sm_frequency = Some((value, unit.to_string()));
            } else if matches!(lower.as_str(), "ns" | "us" | "ms" | "s") {
                row.duration = Some((value, unit.to_string()));
            }
        } else if let Some(value) = number_cell(cell) {
            row.cycles = Some(value);
        }
    }
    row
}

/// A number cell in the GUI's formatting.
fn number_cell(text: &str) -> Option<(Value, u8)> {
    let parsed = gui_number(text);
    parsed.0.as_f64().map(|_| parsed)
}

/// `535 - convolutionConstantKernel` or `0 - NVIDIA A100-SXM4-40GB`.
fn numbered_name(cell: &str) -> Option<(u64, &str)> {
    let (index, name) = cell.split_once(" - ")?;
    let index = index.trim().parse().ok()?;
    let name = name.trim();
    (!name.is_empty()).then_some((index, name))
}

/// `[3874072] xray_cnn`.
fn bracketed_process(cell: &str) -> Option<(u64, String)> {
    let (pid, name) = cell.strip_prefix('[')?.split_once(']')?;
    Some((pid.trim().parse().ok()?, name.trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cells_by_content() {
        let row = parse_row(
            "Current\t535 - convolutionConstantKernel\t(32, 32, 1024)x(8, 8, 1)\t1.27 ms\t\
             1.391.144 0 - NVIDIA A100-SXM4-40GB\t1.09 Ghz\t[3874072] xray_cnn\t",
        );
        assert_eq!(row.id, Some(535));
        assert_eq!(
            row.name.map(|n| n.function),
            Some("convolutionConstantKernel".into())
        );
        assert_eq!(row.grid.map(|d| d.product()), Some(32 * 32 * 1024));
        assert_eq!(row.block.map(|d| d.product()), Some(64));
        assert_eq!(row.cycles, Some((Value::U64(1_391_144), 0)));
        assert_eq!(row.device, Some((0, "NVIDIA A100-SXM4-40GB".into())));
        assert_eq!(row.duration, Some(((Value::Double(1.27), 2), "ms".into())));
        assert_eq!(
            row.sm_frequency,
            Some(((Value::Double(1.09), 2), "Ghz".into()))
        );
        assert_eq!(row.process, Some((3_874_072, "xray_cnn".into())));
    }
}
