//! The DWARF line program of a cubin (`.debug_line`, read with `gimli`), run with NVIDIA's
//! extended opcode for inlined calls, giving for each function the CUDA lines of every SASS
//! address range.
//!
//! `DW_LNE` 0x90 (NVIDIA's inlined call) carries two ULEB128 operands: the 1-based index, within
//! the sequence, of the row of the call site, and the offset in `.debug_str` of the inlined
//! function's mangled name. It stays in force until the next 0x90 (context 0: not inlined).
//! Where the compiler enters inlined code it emits several rows at one address (the call
//! site's line, then the callee's); all of them describe the code up to the next address, which
//! is how Nsight Compute attributes that code to each of those lines.

use super::CubinError;
use std::collections::HashMap;

use gimli::{DebugLine, DebugLineOffset, LineInstruction, LittleEndian, Reader};

/// The most lines one address is attributed to. Rows at one address are the levels of an
/// inlined call (a call site's line, then the callee's); compilers write tens at most, while a
/// crafted table of thousands would attribute every instruction of a range to each of them.
pub const MAX_LINES_AT_ONE_ADDRESS: usize = 256;

/// `DW_LNE_NVIDIA_inlined_call`.
const DW_LNE_NVIDIA_INLINED_CALL: u8 = 0x90;

/// The line tables of a cubin, per function.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LineTable {
    /// Source file paths (directory joined with the name), indexed by [`LineRow::file`].
    pub files: Vec<String>,
    /// One entry per function that has line information.
    pub functions: Vec<FunctionLines>,
    /// Sequences whose start address is not relocated against a code section (not attributed).
    pub skipped_sequences: usize,
}

/// The rows of one function, in program order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FunctionLines {
    /// The code section (`.text.<mangled>`).
    pub section: String,
    pub rows: Vec<LineRow>,
}

/// One row of the line table.
#[derive(Debug, Clone, PartialEq)]
pub struct LineRow {
    /// Byte offset in the function's code section.
    pub offset: u64,
    /// Index into [`LineTable::files`].
    pub file: usize,
    pub line: u32,
    /// For code of an inlined function: the file and line of the call site.
    pub inlined_at: Option<(usize, u32)>,
    /// For code of an inlined function: its mangled name.
    pub inlined_function: Option<String>,
    /// The row that ends the sequence (its offset is the end of the code).
    pub end_sequence: bool,
}

/// A range of code and the lines it belongs to (outermost call site first, innermost last).
#[derive(Debug, Clone, PartialEq)]
pub struct LineRange {
    pub start: u64,
    pub end: u64,
    pub lines: Vec<(usize, u32)>,
    /// The inlined functions the code belongs to: each one's mangled name and call site (file
    /// index and line), in the order of `lines`.
    pub inlined: Vec<(String, (usize, u32))>,
    /// Rows at this address beyond [`MAX_LINES_AT_ONE_ADDRESS`] lines, left out.
    pub left_out: usize,
}

impl FunctionLines {
    /// Address ranges with their lines: the rows sharing an address cover the code up to the
    /// next address.
    pub fn ranges(&self) -> Vec<LineRange> {
        let mut rows: Vec<&LineRow> = self.rows.iter().collect();
        rows.sort_by_key(|r| r.offset);
        let mut out: Vec<LineRange> = Vec::new();
        let mut i = 0;
        while i < rows.len() {
            let start = rows[i].offset;
            let mut lines = Vec::new();
            let mut inlined = Vec::new();
            let mut left_out = 0;
            let mut j = i;
            while j < rows.len() && rows[j].offset == start {
                let r = rows[j];
                if lines.len() >= MAX_LINES_AT_ONE_ADDRESS {
                    left_out += usize::from(!r.end_sequence);
                    j += 1;
                    continue;
                }
                if !r.end_sequence && !lines.contains(&(r.file, r.line)) {
                    lines.push((r.file, r.line));
                }
                if let (false, Some(function), Some(at)) =
                    (r.end_sequence, &r.inlined_function, r.inlined_at)
                {
                    let call = (function.clone(), at);
                    if !inlined.contains(&call) {
                        inlined.push(call);
                    }
                }
                j += 1;
            }
            if let Some(next) = rows.get(j)
                && !lines.is_empty()
            {
                out.push(LineRange {
                    start,
                    end: next.offset,
                    lines,
                    inlined,
                    left_out,
                });
            }
            i = j;
        }
        out
    }
}

/// A row as the state machine emits it, before it is assigned to a function.
struct RawRow {
    address: u64,
    file: u64,
    line: u64,
    context: u64,
    function: u64,
    end_sequence: bool,
}

/// Runs every line program in `data` (relocated `.debug_line`). `bases` maps the high half of a
/// relocated address to its code section.
pub fn read(
    data: &[u8],
    debug_str: &[u8],
    bases: &[(u64, String)],
) -> Result<LineTable, CubinError> {
    let err = |e: gimli::Error| CubinError::Lines(e.to_string());
    let debug_line = DebugLine::new(data, LittleEndian);
    let mut table = LineTable::default();
    // Each path's index in `table.files`.
    let mut known: HashMap<String, usize> = HashMap::new();
    let mut offset = 0usize;
    while offset < data.len() {
        let program = debug_line
            .program(DebugLineOffset(offset), 8, None, None)
            .map_err(err)?;
        let header = program.header();
        let unit_end = offset
            .checked_add(header.format().initial_length_size() as usize)
            .and_then(|o| o.checked_add(header.unit_length()))
            .filter(|&end| end > offset)
            .ok_or_else(|| CubinError::Lines(format!("unit at offset {offset} has no length")))?;
        // File paths of this unit, mapped to the table's file list.
        let mut file_ids = Vec::new();
        for entry in header.file_names() {
            let name = attr_text(&entry.path_name());
            let dir = entry
                .directory(header)
                .map(|d| attr_text(&d))
                .unwrap_or_default();
            let path = if dir.is_empty() || name.starts_with('/') {
                name
            } else {
                format!("{}/{}", dir.trim_end_matches('/'), name)
            };
            let id = *known.entry(path).or_insert_with_key(|path| {
                table.files.push(path.clone());
                table.files.len() - 1
            });
            file_ids.push(id);
        }
        let rows = run(header).map_err(err)?;
        assign(&mut table, rows, &file_ids, debug_str, bases);
        offset = unit_end;
    }
    Ok(table)
}

/// The line-number state machine over one unit's instructions.
fn run<R: Reader>(header: &gimli::LineProgramHeader<R>) -> gimli::Result<Vec<RawRow>> {
    let min_len = u64::from(header.minimum_instruction_length());
    let line_base = i64::from(header.line_base());
    let line_range = u64::from(header.line_range()).max(1);
    let opcode_base = u64::from(header.opcode_base());
    let fresh = || RawRow {
        address: 0,
        file: 1,
        line: 1,
        context: 0,
        function: 0,
        end_sequence: false,
    };
    let mut s = fresh();
    let mut rows = Vec::new();
    let emit = |s: &RawRow, rows: &mut Vec<RawRow>, end: bool| {
        rows.push(RawRow {
            end_sequence: end,
            ..*s
        });
    };
    let mut instructions = header.instructions();
    while let Some(ins) = instructions.next_instruction(header)? {
        match ins {
            LineInstruction::Special(op) => {
                let adjusted = u64::from(op).saturating_sub(opcode_base);
                s.address = s.address.wrapping_add(adjusted / line_range * min_len);
                s.line = s
                    .line
                    .wrapping_add_signed(line_base + (adjusted % line_range) as i64);
                emit(&s, &mut rows, false);
            }
            LineInstruction::Copy => emit(&s, &mut rows, false),
            LineInstruction::AdvancePc(n) => {
                s.address = s.address.wrapping_add(n.wrapping_mul(min_len))
            }
            LineInstruction::AdvanceLine(n) => s.line = s.line.wrapping_add_signed(n),
            LineInstruction::SetFile(f) => s.file = f,
            LineInstruction::ConstAddPc => {
                let adjusted = 255u64.saturating_sub(opcode_base);
                s.address = s.address.wrapping_add(adjusted / line_range * min_len);
            }
            LineInstruction::FixedAddPc(n) => s.address = s.address.wrapping_add(u64::from(n)),
            LineInstruction::SetAddress(a) => s.address = a,
            LineInstruction::EndSequence => {
                emit(&s, &mut rows, true);
                s = fresh();
            }
            LineInstruction::UnknownExtended(op, mut operands)
                if op.0 == DW_LNE_NVIDIA_INLINED_CALL =>
            {
                s.context = operands.read_uleb128()?;
                s.function = operands.read_uleb128()?;
            }
            _ => {}
        }
    }
    Ok(rows)
}

/// Splits a unit's rows into sequences and adds each to its function.
fn assign(
    table: &mut LineTable,
    rows: Vec<RawRow>,
    file_ids: &[usize],
    debug_str: &[u8],
    bases: &[(u64, String)],
) {
    let file_of = |f: u64| -> usize {
        // DWARF 2–4 number files from 1.
        let i = usize::try_from(f).unwrap_or(usize::MAX).wrapping_sub(1);
        file_ids.get(i).copied().unwrap_or(usize::MAX)
    };
    let mut start = 0;
    for end in 0..rows.len() {
        if !rows[end].end_sequence {
            continue;
        }
        let seq = &rows[start..=end];
        start = end + 1;
        let base = seq[0].address & !0xffff_ffff;
        let Some((_, section)) = bases.iter().find(|(b, _)| *b == base) else {
            table.skipped_sequences += 1;
            continue;
        };
        let converted: Vec<LineRow> = seq
            .iter()
            .map(|r| {
                let call = usize::try_from(r.context)
                    .ok()
                    .and_then(|c| c.checked_sub(1))
                    .and_then(|c| seq.get(c))
                    .filter(|_| r.context > 0);
                LineRow {
                    offset: r.address.wrapping_sub(base),
                    file: file_of(r.file),
                    line: u32::try_from(r.line).unwrap_or(u32::MAX),
                    inlined_at: call
                        .map(|c| (file_of(c.file), u32::try_from(c.line).unwrap_or(u32::MAX))),
                    inlined_function: call.map(|_| c_string(debug_str, r.function)),
                    end_sequence: r.end_sequence,
                }
            })
            .collect();
        match table.functions.iter_mut().find(|f| f.section == *section) {
            Some(f) => f.rows.extend(converted),
            None => table.functions.push(FunctionLines {
                section: section.clone(),
                rows: converted,
            }),
        }
    }
}

/// The NUL-terminated string at `offset` of `.debug_str`.
fn c_string(debug_str: &[u8], offset: u64) -> String {
    let at = usize::try_from(offset).unwrap_or(usize::MAX);
    let Some(tail) = debug_str.get(at..) else {
        return String::new();
    };
    let end = tail.iter().position(|&b| b == 0).unwrap_or(tail.len());
    String::from_utf8_lossy(&tail[..end]).into_owned()
}

/// The text of a string attribute of the line header.
fn attr_text<R: Reader>(value: &gimli::AttributeValue<R>) -> String {
    match value {
        gimli::AttributeValue::String(r) => r
            .to_string_lossy()
            .map(|s| s.into_owned())
            .unwrap_or_default(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A DWARF 2 line unit naming `names` (each in the current directory) with no rows.
    fn unit_naming(names: &[String]) -> Vec<u8> {
        // Minimum instruction length, default is_stmt, line base, line range, opcode base and
        // the lengths of the 12 standard opcodes; no include directories.
        let mut header = vec![1, 1, 0xfb, 14, 13, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1, 0];
        for name in names {
            header.extend_from_slice(name.as_bytes());
            header.extend_from_slice(&[0, 0, 0, 0]); // NUL, directory, time, size
        }
        header.push(0);
        let mut unit = 2u16.to_le_bytes().to_vec();
        unit.extend_from_slice(&(header.len() as u32).to_le_bytes());
        unit.extend_from_slice(&header);
        let mut out = (unit.len() as u32).to_le_bytes().to_vec();
        out.extend_from_slice(&unit);
        out
    }

    /// File names are matched to the table's list through a map: a unit of 100,000 names
    /// (half of them repeats) reads in one pass, each name once, in order of first use.
    #[test]
    fn many_file_names_are_listed_once_each() {
        let names: Vec<String> = (0..100_000)
            .map(|i| format!("f{}.cu", i % 50_000))
            .collect();
        let mut data = unit_naming(&names);
        data.extend(unit_naming(&names[..10]));
        let table = read(&data, &[], &[]).unwrap();
        assert_eq!(table.files.len(), 50_000);
        assert_eq!(table.files[0], "f0.cu");
        assert_eq!(table.files[49_999], "f49999.cu");
    }

    /// Rows at one address give it at most [`MAX_LINES_AT_ONE_ADDRESS`] lines; the others are
    /// counted.
    #[test]
    fn lines_at_one_address_are_bounded() {
        let row = |line: u32, offset: u64| LineRow {
            offset,
            file: 0,
            line,
            inlined_at: None,
            inlined_function: None,
            end_sequence: false,
        };
        let mut rows: Vec<LineRow> = (0..1000).map(|l| row(l, 0)).collect();
        rows.push(row(5, 0));
        rows.push(row(7, 16));
        rows.push(LineRow {
            end_sequence: true,
            ..row(7, 32)
        });
        let f = FunctionLines {
            section: ".text.f".into(),
            rows,
        };
        let ranges = f.ranges();
        assert_eq!(ranges.len(), 2);
        assert_eq!(ranges[0].lines.len(), MAX_LINES_AT_ONE_ADDRESS);
        assert_eq!(ranges[0].lines[255], (0, 255));
        assert_eq!(ranges[0].left_out, 1001 - MAX_LINES_AT_ONE_ADDRESS);
        assert_eq!(
            (ranges[1].lines.clone(), ranges[1].left_out),
            (vec![(0, 7)], 0)
        );
    }
}
