//! The Source page of a result: every SASS instruction of the function with the page's metric
//! columns (per-PC source-counter instances), attributed to CUDA lines through the cubin's line
//! table (inlined code counting for the call site as well), and summed per line.

pub mod columns;
pub mod compare;
pub mod stalls;

use crate::model::source::{Cell, Instruction, SourceFileText, SourceLine, SourceView, TextOrigin};
use crate::model::{KernelResult, Value};
use crate::parse::cubin::{Cubin, CubinError, text_section};
use crate::parse::ncu_rep::KernelCode;
use columns::Feed;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;

/// The other way to SASS text, for notes: ncu's own export of the Source page.
pub const SASS_EXPORT_HINT: &str = "ncu's SASS export also gives it: `ncu -i FILE --page source --csv --print-source sass > sass.csv`, added with --sass-csv (command line) or Add SASS export (Source page)";

/// Size of a SASS instruction from Volta (sm_70) on.
const INSTRUCTION_BYTES: u64 = 16;

/// What the caller adds to the report's own data.
#[derive(Debug, Clone, Default)]
pub struct SourceOptions {
    /// SASS text by absolute address (from a disassembler or an imported Source page export).
    pub sass: HashMap<u64, String>,
    /// Folders to look for source files in when the report holds none.
    pub source_dirs: Vec<PathBuf>,
    /// Run `nvdisasm` (when on PATH) for functions `sass` has no text for.
    pub disassemble: bool,
}

/// Why a result has no Source page.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error(
        "the result has no per-instruction (source counter) metrics: profile with the SourceCounters section (--set full)"
    )]
    NoSourceCounters,
    #[error(transparent)]
    Cubin(#[from] CubinError),
}

/// The function's start address (`launch__function_pcs`).
pub fn function_address(r: &KernelResult) -> Option<u64> {
    let m = r.metric("launch__function_pcs")?;
    m.instances.iter().find_map(|i| match i.value {
        Value::U64(a) => Some(a),
        _ => None,
    })
}

/// Builds the Source page of a result. `code` is the module behind it (absent for reports
/// without cubins, which then list only the addresses that have metrics).
pub fn build(
    r: &KernelResult,
    code: Option<&KernelCode<'_>>,
    options: &SourceOptions,
) -> Result<SourceView, SourceError> {
    let cols = columns::columns(r);
    if r.metric("inst_executed").is_none() && r.metric("smsp__pcsamp_sample_count").is_none() {
        return Err(SourceError::NoSourceCounters);
    }
    let start = function_address(r).unwrap_or(0);
    let mangled = r
        .name
        .mangled
        .clone()
        .unwrap_or_else(|| r.name.function.clone());
    let mut notes = Vec::new();

    let cubin = match code {
        Some(c) => Some(Cubin::parse(c.cubin)?),
        None => {
            notes.push("The report holds no module for this function: only addresses with metrics are listed.".to_string());
            None
        }
    };
    let code_len = cubin
        .as_ref()
        .and_then(|c| c.function_code(&mangled))
        .map(|c| c.len() as u64);
    let addresses: Vec<u64> = match code_len {
        Some(len) => (0..len / INSTRUCTION_BYTES)
            .map(|i| start + i * INSTRUCTION_BYTES)
            .collect(),
        None => metric_addresses(r),
    };

    // Lines of every instruction.
    let table = match &cubin {
        Some(c) => c.line_table()?,
        None => None,
    };
    let section = text_section(&mangled);
    let function_lines = table
        .as_ref()
        .and_then(|t| t.functions.iter().find(|f| f.section == section));
    let has_line_info = function_lines.is_some();
    if cubin.is_some() && !has_line_info {
        notes.push("The module has no line information for this function: build it with `nvcc -lineinfo` to see CUDA source lines.".to_string());
    }
    let ranges = function_lines.map(|f| f.ranges()).unwrap_or_default();
    let lines_of = |address: u64| -> Vec<(usize, u32)> {
        let offset = address.wrapping_sub(start);
        // Ranges are sorted by start and do not overlap.
        let i = ranges.partition_point(|rg| rg.start <= offset);
        i.checked_sub(1)
            .and_then(|i| ranges.get(i))
            .filter(|rg| offset < rg.end)
            .map(|rg| rg.lines.clone())
            .unwrap_or_default()
    };

    // Cells, column by column.
    let mut cells: Vec<Vec<Cell>> = vec![Vec::with_capacity(cols.len()); addresses.len()];
    for c in &cols {
        if let Feed::Text(_) = c.feed {
            for (slot, t) in cells
                .iter_mut()
                .zip(columns::column_texts(r, c, &addresses))
            {
                slot.push(Cell::Text(t));
            }
        } else {
            for (slot, v) in cells
                .iter_mut()
                .zip(columns::column_values(r, c, &addresses))
            {
                slot.push(Cell::Number(v));
            }
        }
    }
    let mut sass_note = None;
    let mut disassembled = HashMap::new();
    if options.disassemble
        && !options.sass.contains_key(&start)
        && let Some(c) = code
    {
        match crate::parse::sass::disassemble(c.cubin) {
            Ok(text) => {
                for (offset, s) in crate::parse::sass::function_sass(&text, &section, start) {
                    disassembled.insert(start + offset, s);
                }
            }
            Err(e) => sass_note = Some(format!("No SASS text: {e}. {SASS_EXPORT_HINT}")),
        }
    }
    let mut have_sass = false;
    let instructions: Vec<Instruction> = addresses
        .iter()
        .zip(cells)
        .map(|(&address, cells)| {
            let sass = options
                .sass
                .get(&address)
                .or_else(|| disassembled.get(&address))
                .cloned();
            have_sass |= sass.is_some();
            Instruction {
                address,
                sass,
                lines: lines_of(address),
                cells,
            }
        })
        .collect();
    if !have_sass && !instructions.is_empty() {
        notes.push(sass_note.unwrap_or_else(|| format!("No SASS text. {SASS_EXPORT_HINT}")));
    }

    let numeric: Vec<bool> = cols
        .iter()
        .map(|c| !matches!(c.feed, Feed::Text(_)))
        .collect();
    let lines = sum_lines(&instructions, &numeric);
    let files = match &table {
        Some(t) => t
            .files
            .iter()
            .map(|p| source_text(p, code, &options.source_dirs))
            .collect(),
        None => Vec::new(),
    };
    for f in &files {
        let used = lines
            .iter()
            .any(|l| files.get(l.file).is_some_and(|g| g.path == f.path));
        if used && f.origin == TextOrigin::Missing {
            notes.push(format!(
                "Source file {} was not found: profile with `--import-source yes`, or add its folder (--source-dir).",
                f.path
            ));
        }
    }
    let ptx = cubin
        .as_ref()
        .and_then(|c| c.ptx_lines())
        .unwrap_or_default();
    Ok(SourceView {
        kernel: r.name.demangled.clone(),
        function_address: start,
        columns: cols.iter().map(|c| c.name.to_string()).collect(),
        numeric,
        instructions,
        lines,
        files,
        ptx,
        has_line_info,
        notes,
    })
}

/// Every address any per-instruction metric has, in order.
fn metric_addresses(r: &KernelResult) -> Vec<u64> {
    let mut set = BTreeSet::new();
    for m in ["inst_executed", "smsp__pcsamp_sample_count"] {
        set.extend(columns::by_address(r, m).into_keys());
    }
    set.into_iter().collect()
}

/// Per-line sums: each instruction counts once for every line it belongs to.
fn sum_lines(instructions: &[Instruction], numeric: &[bool]) -> Vec<SourceLine> {
    let mut by_line: BTreeMap<(usize, u32), Vec<usize>> = BTreeMap::new();
    for (i, ins) in instructions.iter().enumerate() {
        for &l in &ins.lines {
            by_line.entry(l).or_default().push(i);
        }
    }
    by_line
        .into_iter()
        .map(|((file, line), members)| {
            let cells = numeric
                .iter()
                .enumerate()
                .map(|(c, &is_number)| {
                    if is_number {
                        Cell::Number(
                            members
                                .iter()
                                .filter_map(|&i| {
                                    instructions[i].cells.get(c).and_then(Cell::number)
                                })
                                .sum(),
                        )
                    } else {
                        Cell::Text(columns::text_summary(members.iter().map(|&i| {
                            match instructions[i].cells.get(c) {
                                Some(Cell::Text(t)) => t.as_str(),
                                _ => "-",
                            }
                        })))
                    }
                })
                .collect();
            SourceLine {
                file,
                line,
                cells,
                instructions: members,
            }
        })
        .collect()
}

/// The text of a source file: imported into the report, else found on disk.
fn source_text(path: &str, code: Option<&KernelCode<'_>>, dirs: &[PathBuf]) -> SourceFileText {
    let imported = code.and_then(|c| {
        c.sources.iter().find(|s| s.name == path).or_else(|| {
            c.sources
                .iter()
                .find(|s| file_name(&s.name) == file_name(path))
        })
    });
    if let Some(s) = imported {
        return SourceFileText {
            path: path.to_string(),
            text: Some(split_lines(&s.content)),
            origin: TextOrigin::Report,
        };
    }
    if let Some(found) = crate::parse::source_lookup::find(path, dirs)
        && let Ok(bytes) = std::fs::read(&found)
    {
        return SourceFileText {
            path: path.to_string(),
            text: Some(split_lines(&String::from_utf8_lossy(&bytes))),
            origin: TextOrigin::Disk(found.display().to_string()),
        };
    }
    SourceFileText {
        path: path.to_string(),
        text: None,
        origin: TextOrigin::Missing,
    }
}

fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

fn split_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.trim_end_matches('\r').to_string())
        .collect()
}
