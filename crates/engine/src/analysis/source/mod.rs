//! The Source page of a result: every SASS instruction of the function with the page's metric
//! columns (per-PC source-counter instances), attributed to CUDA lines through the cubin's line
//! table (inlined code counting for the call site as well), and summed per line.

pub mod columns;
pub mod compare;
pub mod pages;
pub mod request;
pub mod stalls;
pub mod why_lines;

use crate::model::source::{Cell, Instruction, SourceFileText, SourceLine, SourceView, TextOrigin};
use crate::model::{KernelResult, Value};
use crate::parse::cubin::{Cubin, CubinError, text_section};
use crate::parse::ncu_rep::KernelCode;
use columns::Feed;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Arc;

/// The other way to SASS text, for notes: ncu's own export of the Source page.
pub const SASS_EXPORT_HINT: &str = "ncu's SASS export also gives it: `ncu -i FILE --page source --csv --print-source sass > sass.csv`, added with --sass-csv (command line) or Add SASS export (Source page)";

/// Said on a Source page whose result was profiled without the SourceCounters section.
pub const NO_COUNTERS_NOTE: &str = "The result has no per-instruction (source counter) metrics: its code is shown without them (profile with --set full for them).";

/// Size of a SASS instruction from Volta (sm_70) on.
const INSTRUCTION_BYTES: u64 = 16;
/// Before Volta: size of an instruction, and of the bundle a control word opens.
const OLD_INSTRUCTION_BYTES: u64 = 8;
const OLD_BUNDLE_BYTES: u64 = 32;

/// What the caller adds to the report's own data.
#[derive(Debug, Clone, Default)]
pub struct SourceOptions {
    /// SASS text by absolute address (from a disassembler or an imported Source page export).
    pub sass: HashMap<u64, String>,
    /// Folders to look for source files in when the report holds none.
    pub source_dirs: Vec<PathBuf>,
    /// The nvdisasm programs to run for functions `sass` has no text for (none: no
    /// disassembly).
    pub disassembler: Option<crate::parse::sass::Disassembler>,
    /// Folders the user located sources in, by the recorded folder they stand for: a file
    /// recorded under the prefix is looked for in the folder.
    pub source_maps: Vec<(String, PathBuf)>,
    /// Who reads source files the report does not hold: `None` looks for them on disk (the
    /// recorded path, then the folders above); a reader decides instead, for a caller that
    /// may read only some files (the MCP server reads only under its roots).
    pub files: Option<Arc<dyn SourceFiles>>,
}

/// Reads the source files a line table names, for a caller that decides which files may be
/// read; the folders of [`SourceOptions`] are not searched then.
pub trait SourceFiles: std::fmt::Debug + Send + Sync {
    /// The text of the file recorded as `recorded`, and where it was read; or why it was not
    /// read, in a sentence the Source page shows as a note.
    fn read(&self, recorded: &str) -> Result<(String, String), String>;
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
    let counted =
        r.metric("inst_executed").is_some() || r.metric("smsp__pcsamp_sample_count").is_some();
    if !counted && code.is_none() {
        return Err(SourceError::NoSourceCounters);
    }
    // Without source counters no column has a value to show.
    let cols = if counted {
        columns::columns(r)
    } else {
        Vec::new()
    };
    let start = code
        .and_then(|c| c.address)
        .or_else(|| function_address(r))
        .unwrap_or(0);
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
        Some(len) => instruction_addresses(start, len, code.and_then(|c| c.cuda_sm_version)),
        None if counted => metric_addresses(r),
        None => return Err(SourceError::NoSourceCounters),
    };
    if !counted {
        // As ncu's Source page does, the code is shown without the per-instruction columns.
        notes.push(NO_COUNTERS_NOTE.to_string());
    }

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
    let left_out: usize = ranges.iter().map(|rg| rg.left_out).sum();
    if left_out > 0 {
        notes.push(format!(
            "{left_out} line-table rows were left out: they give an address more than {} lines, \
             more than any compiler writes",
            crate::parse::cubin::line_table::MAX_LINES_AT_ONE_ADDRESS
        ));
    }
    let range_of = |address: u64| {
        let offset = address.wrapping_sub(start);
        // Ranges are sorted by start and do not overlap.
        let i = ranges.partition_point(|rg| rg.start <= offset);
        i.checked_sub(1)
            .and_then(|i| ranges.get(i))
            .filter(|rg| offset < rg.end)
    };
    let lines_of = |address: u64| -> Vec<(usize, u32)> {
        range_of(address)
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
    let mut life_ranges = HashMap::new();
    if let Some(disassembler) = &options.disassembler
        && let Some(c) = code
    {
        // A module stored as loaded is rewritten into one nvdisasm reads.
        let readable = crate::parse::cubin::unloaded(c.cubin);
        let cubin = readable.as_deref().unwrap_or(c.cubin);
        match disassembler.disassemble(cubin) {
            Ok(text) => {
                if !options.sass.contains_key(&start) {
                    for (offset, s) in crate::parse::sass::function_sass(&text, &section, start) {
                        disassembled.insert(start + offset, s);
                    }
                }
                // Live registers where this nvdisasm prints life ranges.
                if let Ok(ranges) = disassembler.life_ranges(cubin) {
                    life_ranges =
                        crate::parse::life_ranges::function_life_ranges(&ranges, &section);
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
                registers: None,
            }
        })
        .collect();
    let mut instructions = instructions;
    add_register_use(&mut instructions, &life_ranges, start);
    let sass_note = (!have_sass && !instructions.is_empty())
        .then(|| sass_note.unwrap_or_else(|| format!("No SASS text. {SASS_EXPORT_HINT}")));
    notes.extend(sass_note.clone());

    let numeric: Vec<bool> = cols
        .iter()
        .map(|c| !matches!(c.feed, Feed::Text(_)))
        .collect();
    let lines = sum_lines(&instructions, &numeric);
    let inline_functions = inline_functions(&instructions, &numeric, |address| {
        range_of(address).map_or(&[][..], |rg| rg.inlined.as_slice())
    });
    // Why a file's text was not read, where a reader said.
    let mut refused: HashMap<String, String> = HashMap::new();
    let files: Vec<SourceFileText> = match &table {
        Some(t) => t
            .files
            .iter()
            .map(|p| {
                source_text(p, code, options, &mut |why| {
                    refused.insert(p.clone(), why);
                })
            })
            .collect(),
        None => Vec::new(),
    };
    for f in &files {
        let used = lines
            .iter()
            .any(|l| files.get(l.file).is_some_and(|g| g.path == f.path));
        if used && f.origin == TextOrigin::Missing {
            notes.push(refused.remove(&f.path).unwrap_or_else(|| format!(
                "Source file {} was not found: profile with `--import-source yes`, or locate its folder (Locate… on the Source page, --source-dir on the command line).",
                f.path
            )));
        }
    }
    let ptx = cubin
        .as_ref()
        .and_then(|c| c.ptx_lines())
        .unwrap_or_default();
    let ptx_function = ptx_function(&ptx, &mangled);
    let registers_per_thread = r
        .number("launch__registers_per_thread")
        .filter(|v| v.is_finite() && *v >= 0.0)
        .map(|v| v as u32);
    let kernel_file = kernel_file(&instructions);
    let markers = place_markers(r, &files, &lines, &instructions, start);
    Ok(SourceView {
        kernel: r.name.demangled.clone(),
        function_address: start,
        columns: cols.iter().map(|c| c.name.to_string()).collect(),
        numeric,
        instructions,
        lines,
        files,
        registers_per_thread,
        kernel_file,
        ptx,
        ptx_function,
        has_line_info,
        notes,
        sass_note,
        markers,
        inline_functions,
    })
}

/// The result's rule markers on the lines and instructions of the page: a line marker on the
/// line of the file it names (by file name), a SASS marker on its instruction (the address
/// absolute or from the function's start). Markers on nothing listed are left out.
fn place_markers(
    r: &KernelResult,
    files: &[SourceFileText],
    lines: &[SourceLine],
    instructions: &[Instruction],
    start: u64,
) -> Vec<crate::model::source::PlacedMarker> {
    let mut placed = Vec::new();
    for rule in r.body().all_rules() {
        let name = if rule.title.is_empty() {
            rule.identifier.clone().unwrap_or_default()
        } else {
            rule.title.clone()
        };
        for m in &rule.markers {
            let line = match (&m.file, m.line) {
                (Some(file), Some(number)) => lines.iter().position(|l| {
                    l.line == number
                        && files
                            .get(l.file)
                            .is_some_and(|f| file_name(&f.path) == file_name(file))
                }),
                _ => None,
            };
            let instruction = m.address.and_then(|a| {
                instructions
                    .iter()
                    .position(|i| i.address == a || i.address == start.wrapping_add(a))
            });
            if line.is_none() && instruction.is_none() {
                continue;
            }
            let marker = crate::model::source::PlacedMarker {
                line,
                instruction,
                rule: name.clone(),
                tooltip: m.tooltip.clone(),
                kind: m.kind,
            };
            if !placed.contains(&marker) {
                placed.push(marker);
            }
        }
    }
    placed
}

/// Gives each instruction its live registers and, for each register it reads, the instruction
/// before it (in address order) that last wrote that register.
fn add_register_use(
    instructions: &mut [Instruction],
    life_ranges: &HashMap<u64, crate::parse::life_ranges::InstructionRegisters>,
    start: u64,
) {
    use crate::model::source::RegisterUse;
    let mut last_writer: HashMap<crate::parse::life_ranges::Register, u64> = HashMap::new();
    for ins in instructions.iter_mut() {
        let Some(regs) = life_ranges.get(&ins.address.wrapping_sub(start)) else {
            continue;
        };
        let name = |&(file, n): &crate::parse::life_ranges::Register| file.name(n);
        let reads_from = regs
            .reads
            .iter()
            .filter_map(|r| last_writer.get(r).map(|&at| (name(r), at)))
            .collect();
        ins.registers = Some(RegisterUse {
            live_registers: regs.live[0],
            live_predicates: regs.live[1],
            live_uniform_registers: regs.live[2],
            reads: regs.reads.iter().map(name).collect(),
            writes: regs.writes.iter().map(name).collect(),
            reads_from,
        });
        for w in &regs.writes {
            last_writer.insert(*w, ins.address);
        }
    }
}

/// The file most instructions' outermost lines are in: the kernel's own, not the headers
/// inlined into it.
fn kernel_file(instructions: &[Instruction]) -> Option<usize> {
    let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
    for (file, _) in instructions.iter().filter_map(|i| i.lines.first()) {
        *counts.entry(*file).or_default() += 1;
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(file, _)| file)
}

/// The lines of the function `mangled` in a module's PTX: from its `.entry` (or `.func`)
/// line to the brace that closes its body.
pub fn ptx_function(ptx: &[String], mangled: &str) -> Option<(usize, usize)> {
    let start = ptx.iter().position(|l| {
        let l = l.trim_start();
        (l.contains(".entry ") || l.contains(".func "))
            && l.split(|c: char| c.is_whitespace() || c == '(')
                .any(|word| word == mangled)
    })?;
    let mut depth = 0usize;
    let mut opened = false;
    for (i, line) in ptx.iter().enumerate().skip(start) {
        for c in line.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        if opened && depth == 0 {
            return Some((start, i + 1));
        }
    }
    None
}

/// The addresses of the instructions in `len` bytes of code loaded at `start`: 16-byte
/// instructions from Volta (sm_70) on; before it 8-byte ones, each 32-byte bundle opened by a
/// control word that is no instruction.
fn instruction_addresses(start: u64, len: u64, cuda_sm_version: Option<u32>) -> Vec<u64> {
    if cuda_sm_version.is_some_and(|v| v >> 16 < 7) {
        (0..len / OLD_INSTRUCTION_BYTES)
            .map(|i| i * OLD_INSTRUCTION_BYTES)
            .filter(|offset| offset % OLD_BUNDLE_BYTES != 0)
            .map(|offset| start + offset)
            .collect()
    } else {
        (0..len / INSTRUCTION_BYTES)
            .map(|i| start + i * INSTRUCTION_BYTES)
            .collect()
    }
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
/// An inlined call: the function's mangled name and its call site (file index and line).
type InlinedCall = (String, (usize, u32));

/// The inlined functions of the instructions, one per function and call site, in the order
/// their code starts; `inlined` gives an address's functions.
fn inline_functions<'a>(
    instructions: &[Instruction],
    numeric: &[bool],
    inlined: impl Fn(u64) -> &'a [InlinedCall],
) -> Vec<crate::model::source::InlineFunction> {
    let mut calls: Vec<(&'a InlinedCall, Vec<usize>)> = Vec::new();
    for (i, ins) in instructions.iter().enumerate() {
        for call in inlined(ins.address) {
            match calls.iter_mut().find(|(c, _)| *c == call) {
                Some((_, members)) => members.push(i),
                None => calls.push((call, vec![i])),
            }
        }
    }
    calls
        .into_iter()
        .map(
            |((mangled, (file, line)), members)| crate::model::source::InlineFunction {
                name: crate::analysis::compare::normalize::demangle(mangled)
                    .unwrap_or_else(|| mangled.clone()),
                mangled: mangled.clone(),
                call_file: *file,
                call_line: *line,
                cells: sum_cells(instructions, &members, numeric),
                instructions: members,
            },
        )
        .collect()
}

/// The cells of a group of instructions: numeric columns summed, text columns each value
/// with its count.
fn sum_cells(instructions: &[Instruction], members: &[usize], numeric: &[bool]) -> Vec<Cell> {
    numeric
        .iter()
        .enumerate()
        .map(|(c, &is_number)| {
            if is_number {
                Cell::Number(
                    members
                        .iter()
                        .filter_map(|&i| instructions[i].cells.get(c).and_then(Cell::number))
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
        .collect()
}

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
            let cells = sum_cells(instructions, &members, numeric);
            SourceLine {
                file,
                line,
                cells,
                instructions: members,
            }
        })
        .collect()
}

/// The folders a recorded source path is looked for in: the source folders, then the folders
/// located for a recorded prefix of it.
fn dirs_for(path: &str, options: &SourceOptions) -> Vec<PathBuf> {
    let mut dirs = options.source_dirs.clone();
    dirs.extend(
        options
            .source_maps
            .iter()
            .filter(|(prefix, _)| path.starts_with(prefix.as_str()))
            .map(|(_, folder)| folder.clone()),
    );
    dirs
}

/// The folder a recorded path's file was recorded in (what "Locate source…" stands a local
/// folder for).
pub fn recorded_folder(path: &str) -> &str {
    path.rsplit_once(['/', '\\']).map_or("", |(dir, _)| dir)
}

/// The text of a source file: imported into the report, else read by the caller's reader
/// (`refused` is told why not, where it says), else found on disk.
fn source_text(
    path: &str,
    code: Option<&KernelCode<'_>>,
    options: &SourceOptions,
    refused: &mut dyn FnMut(String),
) -> SourceFileText {
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
    if let Some(reader) = &options.files {
        return match reader.read(path) {
            Ok((text, at)) => SourceFileText {
                path: path.to_string(),
                text: Some(split_lines(&text)),
                origin: TextOrigin::Disk(at),
            },
            Err(why) => {
                refused(why);
                SourceFileText {
                    path: path.to_string(),
                    text: None,
                    origin: TextOrigin::Missing,
                }
            }
        };
    }
    if let Some(found) = crate::parse::source_lookup::find(path, &dirs_for(path, options))
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

/// The file name of a recorded path (either separator).
pub fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

fn split_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.trim_end_matches('\r').to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::ptx_function;

    #[test]
    fn a_functions_ptx_runs_from_its_entry_to_its_closing_brace() {
        let ptx: Vec<String> = [
            ".version 9.0",
            ".visible .entry _Z1av(",
            ".param .u64 p",
            ")",
            "{",
            "ret;",
            "}",
            ".visible .entry _Z1bv()",
            "{",
            "{ // inner scope",
            "}",
            "}",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(ptx_function(&ptx, "_Z1av"), Some((1, 7)));
        assert_eq!(ptx_function(&ptx, "_Z1bv"), Some((7, 12)));
        assert_eq!(ptx_function(&ptx, "_Z1cv"), None);
    }
}
