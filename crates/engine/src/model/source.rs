//! The Source page of one result: SASS instructions and CUDA source lines, each with the
//! values of the page's metric columns.

use serde::Serialize;

/// A cell of a metric column.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Cell {
    Number(f64),
    Text(String),
}

impl Cell {
    /// The number, for numeric columns.
    pub fn number(&self) -> Option<f64> {
        match self {
            Cell::Number(v) => Some(*v),
            Cell::Text(_) => None,
        }
    }
}

/// One SASS instruction.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Instruction {
    /// The absolute GPU address, as Nsight Compute prints it.
    pub address: u64,
    /// The disassembly, when a disassembler or an imported export gave it.
    pub sass: Option<String>,
    /// The CUDA lines the instruction belongs to (indices into [`SourceView::files`] and line
    /// numbers), outermost call site first, the line of the code itself last.
    pub lines: Vec<(usize, u32)>,
    /// One cell per column of [`SourceView::columns`].
    pub cells: Vec<Cell>,
    /// Live registers and register dependencies, where nvdisasm gave its life ranges.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub registers: Option<RegisterUse>,
}

/// What an instruction does with registers (from `nvdisasm --print-life-ranges`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RegisterUse {
    /// General purpose registers live at the instruction (ncu-ui's "Live Registers").
    pub live_registers: u32,
    /// Predicates and uniform registers live.
    pub live_predicates: u32,
    pub live_uniform_registers: u32,
    /// The registers it reads and writes (`R3`, `P0`, `UR4`).
    pub reads: Vec<String>,
    pub writes: Vec<String>,
    /// For each register read, the address of the instruction before it (in address order)
    /// that last wrote it: its producers.
    pub reads_from: Vec<(String, u64)>,
}

impl Instruction {
    /// The line of the instruction's own code (innermost when inlined).
    pub fn line(&self) -> Option<(usize, u32)> {
        self.lines.last().copied()
    }
}

/// One CUDA source line that has code.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourceLine {
    /// Index into [`SourceView::files`].
    pub file: usize,
    pub line: u32,
    /// Sums over the line's instructions (text columns: each value with its count).
    pub cells: Vec<Cell>,
    /// Indices into [`SourceView::instructions`].
    pub instructions: Vec<usize>,
}

/// Where a source file's text came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TextOrigin {
    /// Imported into the report (`--import-source yes`).
    Report,
    /// Read from disk at this path.
    Disk(String),
    /// Not found.
    Missing,
}

/// A CUDA source file the line table names.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourceFileText {
    /// The path the line table records.
    pub path: String,
    /// The file's lines, when found.
    #[serde(skip)]
    pub text: Option<Vec<String>>,
    pub origin: TextOrigin,
}

impl SourceFileText {
    /// The text of a 1-based line.
    pub fn line_text(&self, line: u32) -> Option<&str> {
        let i = usize::try_from(line).ok()?.checked_sub(1)?;
        self.text.as_ref()?.get(i).map(String::as_str)
    }
}

/// Everything the Source page shows for one result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourceView {
    /// The kernel's display name.
    pub kernel: String,
    /// The function's start address on the GPU.
    pub function_address: u64,
    /// Column names, in Nsight Compute's order.
    pub columns: Vec<String>,
    /// Whether each column is numeric (summed per line) or text.
    pub numeric: Vec<bool>,
    pub instructions: Vec<Instruction>,
    /// Lines with code, by file and line number.
    pub lines: Vec<SourceLine>,
    pub files: Vec<SourceFileText>,
    /// Registers per thread the kernel was compiled to (`launch__registers_per_thread`): the
    /// live registers an instruction can reach.
    pub registers_per_thread: Option<u32>,
    /// The kernel's own file (index into `files`): where most of its instructions' outermost
    /// lines are; CUDA headers inlined into it are the other files.
    pub kernel_file: Option<usize>,
    /// The module's PTX text, line by line (empty when the module carries none).
    pub ptx: Vec<String>,
    /// The lines of `ptx` that are the function's own (`.entry` to its closing brace), as a
    /// start and an end index.
    pub ptx_function: Option<(usize, usize)>,
    /// Whether the module carried a line table (built with `-lineinfo`).
    pub has_line_info: bool,
    /// What could not be shown, and how to get it.
    pub notes: Vec<String>,
    /// The note of `notes` that says why no instruction has SASS text, and how to get it
    /// (shown by the SASS listing rather than above the page).
    #[serde(skip)]
    pub sass_note: Option<String>,
    /// The places the result's rules point at, on the lines and instructions listed.
    pub markers: Vec<PlacedMarker>,
    /// The device functions inlined into the kernel, one per function and call site
    /// (ncu-ui's Inline Functions table), in the order their code starts.
    pub inline_functions: Vec<InlineFunction>,
}

/// A device function inlined at one call site, with the sums of its instructions' values.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InlineFunction {
    /// The demangled name (the mangled one where it does not demangle).
    pub name: String,
    pub mangled: String,
    /// Where it is called: an index into [`SourceView::files`] and the line.
    pub call_file: usize,
    pub call_line: u32,
    /// Its instructions (indices into [`SourceView::instructions`]), code it inlines in turn
    /// included.
    pub instructions: Vec<usize>,
    /// Sums over those instructions, one per column, as a line's.
    pub cells: Vec<Cell>,
}

/// A rule's marker placed on the page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlacedMarker {
    /// The CUDA line (index into [`SourceView::lines`]) or the instruction (index into
    /// [`SourceView::instructions`]) it is on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instruction: Option<usize>,
    /// The rule's title (or identifier) and what it says there.
    pub rule: String,
    pub tooltip: String,
    pub kind: crate::model::RuleKind,
}

impl SourceView {
    /// The index of a column by name.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    /// The CUDA text of one of the lines with code, when its file's text is known.
    pub fn text_of(&self, line: &SourceLine) -> Option<&str> {
        self.files
            .get(line.file)
            .and_then(|f| f.line_text(line.line))
    }

    /// How many lines with code each file has, by index into `files`.
    pub fn lines_per_file(&self) -> Vec<usize> {
        let mut counts = vec![0; self.files.len()];
        for l in &self.lines {
            if let Some(c) = counts.get_mut(l.file) {
                *c += 1;
            }
        }
        counts
    }

    /// Line indices ordered by a column, largest first (ties by file and line).
    pub fn hottest_lines(&self, column: usize) -> Vec<usize> {
        let value = |i: usize| {
            self.lines[i]
                .cells
                .get(column)
                .and_then(Cell::number)
                .unwrap_or(0.0)
        };
        let mut order: Vec<usize> = (0..self.lines.len()).collect();
        order.sort_by(|&a, &b| value(b).total_cmp(&value(a)).then(a.cmp(&b)));
        order
    }

    /// Instruction indices ordered by a column, largest first (ties by address).
    pub fn hottest_instructions(&self, column: usize) -> Vec<usize> {
        let value = |i: usize| {
            self.instructions[i]
                .cells
                .get(column)
                .and_then(Cell::number)
                .unwrap_or(0.0)
        };
        let mut order: Vec<usize> = (0..self.instructions.len()).collect();
        order.sort_by(|&a, &b| value(b).total_cmp(&value(a)).then(a.cmp(&b)));
        order
    }
}
