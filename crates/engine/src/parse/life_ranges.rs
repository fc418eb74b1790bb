//! Register life ranges from `nvdisasm --print-life-ranges`: beside each instruction nvdisasm
//! draws, per register file (GPR, predicates, uniform registers), how many registers are live
//! and, in a column per register, whether the instruction writes it (`^`), reads it (`v`),
//! reads and writes it (`x`) or only keeps it live (`:`). The columns are placed under the
//! register numbers of the table's header row.

use std::collections::HashMap;

/// A register file of the life-range table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RegisterFile {
    /// General purpose registers (`R7`).
    Gpr,
    /// Predicates (`P0`).
    Pred,
    /// Uniform registers (`UR4`).
    Ugpr,
}

impl RegisterFile {
    /// How SASS names a register of this file.
    pub fn name(self, index: u16) -> String {
        match self {
            RegisterFile::Gpr => format!("R{index}"),
            RegisterFile::Pred => format!("P{index}"),
            RegisterFile::Ugpr => format!("UR{index}"),
        }
    }

    fn of_header(title: &str) -> Option<Self> {
        match title.trim() {
            "GPR" => Some(RegisterFile::Gpr),
            "PRED" => Some(RegisterFile::Pred),
            "UGPR" => Some(RegisterFile::Ugpr),
            _ => None,
        }
    }
}

/// A register: its file and number.
pub type Register = (RegisterFile, u16);

/// What one instruction does with registers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InstructionRegisters {
    /// Registers live at the instruction, per file (GPR, PRED, UGPR).
    pub live: [u32; 3],
    pub reads: Vec<Register>,
    pub writes: Vec<Register>,
}

/// A register file's columns in the table: the file, where its live count is, and the column
/// of each register number.
type Group = (RegisterFile, usize, Vec<(usize, u16)>);

/// The life ranges of one code section (`.text.<mangled>`), by instruction offset.
pub fn function_life_ranges(text: &str, section: &str) -> HashMap<u64, InstructionRegisters> {
    let mut out = HashMap::new();
    let mut inside = false;
    // The register files of the current table: (file, position of the count, register
    // number by column).
    let mut groups: Vec<Group> = Vec::new();
    let mut titles: Vec<Option<RegisterFile>> = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix(".section")
            && rest.starts_with(char::is_whitespace)
        {
            inside = rest.trim().split(',').next().map(str::trim) == Some(section);
            groups.clear();
            titles.clear();
            continue;
        }
        if !inside {
            continue;
        }
        let Some((code, table)) = line.split_once("// |") else {
            continue;
        };
        let cells: Vec<&str> = table.split('|').collect();
        if groups.is_empty() {
            // The title row names the files, the next row numbers their registers.
            if titles.is_empty() {
                titles = cells.iter().map(|c| RegisterFile::of_header(c)).collect();
                if titles.iter().all(Option::is_none) {
                    titles.clear();
                }
                continue;
            }
            groups = cells
                .iter()
                .zip(&titles)
                .filter_map(|(cell, file)| Some((file.as_ref().copied()?, header_columns(cell)?)))
                .map(|(file, (count_at, columns))| (file, count_at, columns))
                .collect();
            continue;
        }
        let Some(offset) = instruction_offset(code) else {
            continue;
        };
        let mut regs = InstructionRegisters::default();
        for ((file, count_at, columns), cell) in groups.iter().zip(&cells) {
            let bytes = cell.as_bytes();
            let slot = match file {
                RegisterFile::Gpr => 0,
                RegisterFile::Pred => 1,
                RegisterFile::Ugpr => 2,
            };
            regs.live[slot] = live_count(cell, *count_at);
            for &(at, number) in columns {
                match bytes.get(at) {
                    Some(b'^') => regs.writes.push((*file, number)),
                    Some(b'v') => regs.reads.push((*file, number)),
                    Some(b'x') => {
                        regs.reads.push((*file, number));
                        regs.writes.push((*file, number));
                    }
                    _ => {}
                }
            }
        }
        out.insert(offset, regs);
    }
    out
}

/// The header cell of a register file (`  # 0 1 2 … 10 11  `): where its count is and the
/// column of each register (the last character of its number).
fn header_columns(cell: &str) -> Option<(usize, Vec<(usize, u16)>)> {
    let count_at = cell.find('#')?;
    let mut columns = Vec::new();
    let mut start = None;
    for (i, c) in cell
        .char_indices()
        .chain(std::iter::once((cell.len(), ' ')))
    {
        match (c.is_ascii_digit(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                let number = cell.get(s..i)?.parse().ok()?;
                columns.push((i - 1, number));
                start = None;
            }
            _ => {}
        }
    }
    Some((count_at, columns))
}

/// The live count printed at the count's column (right-aligned up to it); 0 when blank.
fn live_count(cell: &str, count_at: usize) -> u32 {
    let end = (count_at + 1).min(cell.len());
    cell.get(..end)
        .and_then(|head| head.split_whitespace().last())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// The offset of an instruction line (`/*0080*/ IMAD R2, …`).
fn instruction_offset(code: &str) -> Option<u64> {
    let rest = code.trim().strip_prefix("/*")?;
    let (offset, _) = rest.split_once("*/")?;
    u64::from_str_radix(offset.trim(), 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_columns_sit_under_the_last_digit() {
        let (count, cols) = header_columns("  # 0 1 2 9 10 11  ").unwrap();
        assert_eq!(count, 2);
        assert_eq!(
            cols,
            vec![(4, 0), (6, 1), (8, 2), (10, 9), (13, 10), (16, 11)]
        );
        assert_eq!(live_count("  7 v : ", 2), 7);
        assert_eq!(live_count(" 10 : : ", 2), 10);
        assert_eq!(live_count("        ", 2), 0);
    }
}
