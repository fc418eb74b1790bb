//! The data of the Source page: the selected result's Source view, built on demand from the
//! report file's full bytes (the loaded report leaves the cubins out), with the report's folder
//! searched for source files the report does not hold; with a baseline, the per-line changes
//! from the baseline result's view. The page's view-model ([`SourcePageView`]) reads it on a
//! [`Job`] and keeps the rows listed for the user's choice ([`listing`]).

use crate::analysis::source::compare::{SourceComparison, compare};
use crate::analysis::source::{self, SourceOptions};
use crate::core::ids::ResultRef;
use crate::job::Job;
use crate::model::KernelResult;
use crate::model::source::{Cell, SourceView};
use crate::parse::ncu_rep::{ReportCode, read_code_of};
use crate::parse::sass::Disassembler;
use crate::parse::{LoadError, ParseError};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Builds the Source view of `result`, read from the report at `path`; `sass` is SASS text
/// by address imported from ncu's export, used where `disassembler` gives none.
pub fn load(
    path: Option<&Path>,
    result: &KernelResult,
    sass: HashMap<u64, String>,
    disassembler: &Disassembler,
) -> Result<SourceView, String> {
    load_with(path, result, sass, Vec::new(), disassembler)
}

/// [`load`], with the folders the user located sources in (recorded prefix, local folder).
pub fn load_with(
    path: Option<&Path>,
    result: &KernelResult,
    sass: HashMap<u64, String>,
    source_maps: Vec<(String, PathBuf)>,
    disassembler: &Disassembler,
) -> Result<SourceView, String> {
    let options = SourceOptions {
        source_dirs: Vec::new(),
        disassembler: Some(disassembler.clone()),
        sass,
        source_maps,
        files: None,
    };
    read_view(path, result, options)
}

/// The lines and per-instruction metrics of `result`'s Source view, without SASS text (no
/// disassembler is run): what the comparison's line links need.
pub fn load_lines(path: Option<&Path>, result: &KernelResult) -> Result<SourceView, String> {
    let options = SourceOptions {
        source_dirs: Vec::new(),
        disassembler: None,
        sass: HashMap::new(),
        source_maps: Vec::new(),
        files: None,
    };
    read_view(path, result, options)
}

/// Whether some explained change is one a Source page column measures: only then are the
/// lines of both results read to link it.
pub fn why_needs_lines(why: &[crate::analysis::compare::Explanation]) -> bool {
    why.iter()
        .any(|e| source::why_lines::column_for(e).is_some())
}

/// Ties the explained changes of a pair to the CUDA lines that carry them, from both results'
/// lines ([`load_lines`]).
pub fn link_why_to_lines(
    why: &mut [crate::analysis::compare::Explanation],
    base: &SourceView,
    current: &SourceView,
) {
    let comparison = compare(base, current);
    source::why_lines::link_lines(why, base, current, &comparison);
}

/// Builds a Source view with `options`, the report's own folder searched for sources first.
fn read_view(
    path: Option<&Path>,
    result: &KernelResult,
    mut options: SourceOptions,
) -> Result<SourceView, String> {
    let Some(path) = path else {
        return Err("The Source page needs a .ncu-rep report file (made with --set full).".into());
    };
    const NOT_NATIVE: &str = "The Source page needs a .ncu-rep report: text and CSV exports hold no per-instruction metrics.";
    // Only the code is read: the modules and sources, not the results around them, through
    // the open report (a compressed one is not decompressed again). A file that is no
    // `.ncu-rep` (compressed or not) is told apart by its first bytes.
    let ReportCode { bytes, index } = match read_code_of(path, result) {
        Ok(code) => code,
        Err(LoadError::Parse {
            source: ParseError::NotAResult(_),
            ..
        }) => return Err(NOT_NATIVE.into()),
        Err(e) => return Err(e.to_string()),
    };
    let mangled = result
        .name
        .mangled
        .as_deref()
        .unwrap_or(&result.name.function);
    let code = index.kernel_code(&bytes, mangled, source::function_address(result));
    options.source_dirs = path.parent().map(Path::to_path_buf).into_iter().collect();
    source::build(result, code.as_ref(), &options).map_err(|e| e.to_string())
}

/// The baseline's Source view and the per-line changes from it, or why there are none.
pub type Compared = Result<(SourceView, SourceComparison), String>;

/// The baseline's Source view and the per-line changes from it to `current`.
pub fn compare_with(
    current: &SourceView,
    base_path: Option<&Path>,
    base: &KernelResult,
    sass: HashMap<u64, String>,
    disassembler: &Disassembler,
) -> Compared {
    let base_view =
        load(base_path, base, sass, disassembler).map_err(|e| format!("Baseline: {e}"))?;
    let comparison = compare(&base_view, current);
    Ok((base_view, comparison))
}

/// What the Source page shows: the view and, with a baseline, the comparison.
#[derive(Debug)]
pub struct SourceData {
    pub view: Result<SourceView, String>,
    pub baseline: Option<Compared>,
}

/// A report (its file, if any), one of its results and the SASS text imported for its kernel,
/// as the reading thread needs them.
pub type ResultSource = (Option<PathBuf>, KernelResult, HashMap<u64, String>);

/// What the Source page's data was read for: the result, the baseline shown, the generation
/// of the imported SASS exports and the number of source folders located.
pub type DataKey = (ResultRef, Option<ResultRef>, u64, usize);

/// Reads the Source view of `current` and its comparison with `baseline`.
fn read(
    current: ResultSource,
    baseline: Option<ResultSource>,
    source_maps: Vec<(String, PathBuf)>,
    disassembler: &Disassembler,
) -> SourceData {
    let (path, result, sass) = current;
    let view = load_with(path.as_deref(), &result, sass, source_maps, disassembler);
    let baseline = match (&view, baseline) {
        (Ok(v), Some((path, result, sass))) => Some(compare_with(
            v,
            path.as_deref(),
            &result,
            sass,
            disassembler,
        )),
        _ => None,
    };
    SourceData { view, baseline }
}

/// The column the page starts on.
pub const DEFAULT_COLUMN: &str = "Warp Stall Sampling (All Samples)";

/// What the user chose on the Source page.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceChoice {
    /// The metric column of the bars and of the order.
    pub column: String,
    pub hottest_first: bool,
    /// Show the whole function's SASS instead of the selected line's.
    pub all_sass: bool,
    /// Show the function's PTX text instead of the SASS.
    pub ptx: bool,
    /// With `ptx`: the whole module's PTX, not only the function's.
    pub module_ptx: bool,
    /// Show the Inline Functions table instead of the SASS or PTX.
    pub inline_functions: bool,
    /// Which file's lines are listed.
    pub file: FileFilter,
    pub search: String,
    /// The selected CUDA line (index into the view's lines).
    pub selected_line: Option<usize>,
    /// The selected SASS instruction (index into the view's instructions): the instructions
    /// that wrote the registers it reads are highlighted.
    pub selected_instruction: Option<usize>,
}

impl Default for SourceChoice {
    fn default() -> Self {
        SourceChoice {
            column: DEFAULT_COLUMN.to_string(),
            hottest_first: true,
            all_sass: false,
            ptx: false,
            module_ptx: false,
            inline_functions: false,
            file: FileFilter::Kernel,
            search: String::new(),
            selected_line: None,
            selected_instruction: None,
        }
    }
}

/// The list of the Source page the keyboard moves in: the CUDA lines or the SASS
/// instructions, whichever the user last pointed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SourcePane {
    #[default]
    Lines,
    Sass,
}

impl SourceChoice {
    /// Moves the selection of `pane` `steps` rows down the listed order (up when negative),
    /// staying within the list; with nothing selected there, the first row (or the last,
    /// going up). A new line drops the selected instruction. Returns the row's position in the
    /// listed order, to scroll it into view; `None` when the list is empty.
    pub fn step(&mut self, pane: SourcePane, listing: &Listing, steps: isize) -> Option<usize> {
        let order = match pane {
            SourcePane::Lines => &listing.lines,
            SourcePane::Sass => &listing.sass,
        };
        let last = order.len().checked_sub(1)?;
        let selected = match pane {
            SourcePane::Lines => self.selected_line,
            SourcePane::Sass => self.selected_instruction,
        };
        let to = match selected.and_then(|s| order.iter().position(|&i| i == s)) {
            Some(at) => at.saturating_add_signed(steps).min(last),
            None if steps < 0 => last,
            None => 0,
        };
        match pane {
            SourcePane::Lines => {
                if self.selected_line != Some(order[to]) {
                    self.selected_instruction = None;
                }
                self.selected_line = Some(order[to]);
            }
            SourcePane::Sass => self.selected_instruction = Some(order[to]),
        }
        Some(to)
    }

    /// Enter on the lines: the SASS pane shows the selected line's instructions (not the
    /// whole function's, the PTX or the inline functions).
    pub fn show_line_sass(&mut self) {
        self.all_sass = false;
        self.ptx = false;
        self.inline_functions = false;
    }
}

/// A place on the Source page to open it at: an instruction (a hot spot, a rule's SASS
/// marker) or a CUDA line (a rule's line marker: the file's name and the 1-based line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceTarget {
    Address(u64),
    Line { file: String, line: u32 },
}

/// Which file's CUDA lines the page lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FileFilter {
    /// The kernel's own file ([`SourceView::kernel_file`]).
    #[default]
    Kernel,
    /// One file, by index into the view's files.
    One(usize),
    /// Every file's lines together.
    All,
}

/// A file of the file selector.
#[derive(Debug, Clone, PartialEq)]
pub struct FileEntry {
    /// Index into the view's files.
    pub index: usize,
    /// The file's name and its count of lines with code (`reduce.cu (12 lines)`), marked when
    /// its text was not found.
    pub label: String,
    /// The whole path, for the tooltip.
    pub path: String,
}

/// The rows the page lists for a choice: which lines, instructions and PTX lines, in order,
/// and the scales of their heat bars.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Listing {
    /// The column the values come from.
    pub column: usize,
    /// The numeric columns (the metric choices).
    pub numeric: Vec<usize>,
    /// The files with lines, the kernel's own first, then by lines with code.
    pub files: Vec<FileEntry>,
    /// The file listed (`None`: every file).
    pub file: Option<usize>,
    /// CUDA lines (indices into the view's lines) of the file listed, hottest first or in
    /// source order, filtered by the search.
    pub lines: Vec<usize>,
    /// Instructions of the selected line (or of the whole function), ordered likewise.
    pub sass: Vec<usize>,
    /// PTX lines matching the search.
    pub ptx: Vec<usize>,
    /// Inline functions (indices into the view's), hottest first or in code order, filtered
    /// by the search (their name, or a value comparison).
    pub inline: Vec<usize>,
    /// Each inline function's call site as `file.cu:27`, by index into the view's.
    pub call_sites: Vec<String>,
    /// Each inline function's name without its parameters, by index into the view's.
    pub inline_names: Vec<String>,
    /// The largest value of the column over the inline functions.
    pub inline_max: f64,
    /// The largest value of the column over all lines, and over all instructions.
    pub line_max: f64,
    pub sass_max: f64,
    /// Characters of the longest instruction address.
    pub address_width: usize,
    /// Statistics of the column over the lines and the instructions listed (a search such as
    /// `>= 5` lists a selection).
    pub line_stats: Stats,
    pub sass_stats: Stats,
    /// The rule markers (indices into the view's markers) on each CUDA line and instruction
    /// that has some.
    pub line_marks: std::collections::HashMap<usize, Vec<usize>>,
    pub instruction_marks: std::collections::HashMap<usize, Vec<usize>>,
}

/// The number in a cell (0 for text).
pub fn number(cells: &[Cell], column: usize) -> f64 {
    cells.get(column).and_then(Cell::number).unwrap_or(0.0)
}

/// The rows of `view` for `choice`.
pub fn listing(view: &SourceView, choice: &SourceChoice) -> Listing {
    let numeric: Vec<usize> = (0..view.columns.len())
        .filter(|&i| view.numeric.get(i).copied().unwrap_or(false))
        .collect();
    let column = view
        .column(&choice.column)
        .or_else(|| numeric.first().copied())
        .unwrap_or(0);
    let query = choice.search.to_lowercase();
    let line_text = |i: usize| view.text_of(&view.lines[i]).unwrap_or("");
    let mut lines: Vec<usize> = if choice.hottest_first {
        view.hottest_lines(column)
    } else {
        (0..view.lines.len()).collect()
    };
    let files = file_entries(view);
    let file = match choice.file {
        FileFilter::All => None,
        FileFilter::One(i) if i < view.files.len() => Some(i),
        _ => view.kernel_file.or_else(|| files.first().map(|f| f.index)),
    };
    if let Some(f) = file {
        lines.retain(|&i| view.lines[i].file == f);
    }
    let compared = ValueQuery::parse(&choice.search);
    match &compared {
        Some(q) => lines.retain(|&i| q.holds(number(&view.lines[i].cells, column))),
        None if !query.is_empty() => lines.retain(|&i| {
            line_text(i).to_lowercase().contains(&query) || view.lines[i].line.to_string() == query
        }),
        None => {}
    }
    let selected = choice.selected_line.and_then(|i| view.lines.get(i));
    let mut sass: Vec<usize> = match selected {
        Some(l) if !choice.all_sass => l.instructions.clone(),
        _ => (0..view.instructions.len()).collect(),
    };
    if choice.hottest_first {
        let rank = view.hottest_instructions(column);
        let mut position = vec![0usize; view.instructions.len()];
        for (p, &i) in rank.iter().enumerate() {
            position[i] = p;
        }
        sass.sort_by_key(|&i| position.get(i).copied().unwrap_or(usize::MAX));
    }
    match &compared {
        Some(q) => sass.retain(|&i| q.holds(number(&view.instructions[i].cells, column))),
        None if !query.is_empty() => sass.retain(|&i| {
            view.instructions[i]
                .sass
                .as_deref()
                .is_some_and(|s| s.to_lowercase().contains(&query))
        }),
        None => {}
    }
    let (from, to) = match view.ptx_function {
        Some(range) if !choice.module_ptx => range,
        _ => (0, view.ptx.len()),
    };
    let ptx: Vec<usize> = (from..to.min(view.ptx.len()))
        .filter(|&i| query.is_empty() || view.ptx[i].to_lowercase().contains(&query))
        .collect();
    let mut inline: Vec<usize> = (0..view.inline_functions.len()).collect();
    let inline_value = |i: usize| number(&view.inline_functions[i].cells, column);
    if choice.hottest_first {
        inline.sort_by(|&a, &b| inline_value(b).total_cmp(&inline_value(a)));
    }
    match &compared {
        Some(q) => inline.retain(|&i| q.holds(inline_value(i))),
        None if !query.is_empty() => inline.retain(|&i| {
            view.inline_functions[i]
                .name
                .to_lowercase()
                .contains(&query)
        }),
        None => {}
    }
    let call_sites = view
        .inline_functions
        .iter()
        .map(|f| {
            let file = view
                .files
                .get(f.call_file)
                .map_or("", |g| crate::analysis::source::file_name(&g.path));
            format!("{file}:{}", f.call_line)
        })
        .collect();
    let inline_names = view
        .inline_functions
        .iter()
        .map(|f| {
            f.name
                .split('(')
                .next()
                .unwrap_or(&f.name)
                .trim()
                .to_string()
        })
        .collect();
    let inline_max = (0..view.inline_functions.len())
        .map(inline_value)
        .fold(0.0, f64::max);
    let total = line_total(view, column);
    let line_stats = Stats::of(lines_values(view, &lines, column), total);
    let sass_stats = Stats::of(
        sass.iter()
            .map(|&i| number(&view.instructions[i].cells, column)),
        total,
    );
    Listing {
        column,
        numeric,
        files,
        file,
        lines,
        sass,
        ptx,
        inline,
        call_sites,
        inline_names,
        inline_max,
        line_max: view
            .lines
            .iter()
            .map(|l| number(&l.cells, column))
            .fold(0.0, f64::max),
        sass_max: view
            .instructions
            .iter()
            .map(|i| number(&i.cells, column))
            .fold(0.0, f64::max),
        address_width: view
            .instructions
            .iter()
            .map(|i| format!("{:#x}", i.address).len())
            .max()
            .unwrap_or(7),
        line_stats,
        sass_stats,
        line_marks: marks(view, |m| m.line),
        instruction_marks: marks(view, |m| m.instruction),
    }
}

/// The values of the column on some lines.
fn lines_values<'a>(
    view: &'a SourceView,
    lines: &'a [usize],
    column: usize,
) -> impl Iterator<Item = f64> + 'a {
    lines
        .iter()
        .map(move |&i| number(&view.lines[i].cells, column))
}

/// The column summed over the function's instructions (each counted once).
fn line_total(view: &SourceView, column: usize) -> f64 {
    view.instructions
        .iter()
        .map(|i| number(&i.cells, column))
        .sum()
}

/// Sum, share of the function, least, most and mean of a column over some rows.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Stats {
    pub count: usize,
    pub sum: f64,
    /// The sum's share of the whole function, %.
    pub share_pct: Option<f64>,
    pub min: f64,
    pub max: f64,
    pub mean: f64,
}

impl Stats {
    fn of(values: impl Iterator<Item = f64>, total: f64) -> Self {
        let mut s = Stats {
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
            ..Stats::default()
        };
        for v in values {
            s.count += 1;
            s.sum += v;
            s.min = s.min.min(v);
            s.max = s.max.max(v);
        }
        if s.count == 0 {
            return Stats::default();
        }
        s.mean = s.sum / s.count as f64;
        s.share_pct = (total > 0.0).then(|| s.sum / total * 100.0);
        s
    }
}

/// A search comparing the chosen column with a number: `>= 5`, `> 0`, `< 1e3`, `= 0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ValueQuery {
    op: Comparison,
    value: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Comparison {
    Greater,
    AtLeast,
    Less,
    AtMost,
    Equal,
    NotEqual,
}

impl ValueQuery {
    /// The comparison a search asks for; `None` for a text search.
    pub fn parse(search: &str) -> Option<Self> {
        let t = search.trim();
        let (op, rest) = [
            (">=", Comparison::AtLeast),
            ("<=", Comparison::AtMost),
            ("!=", Comparison::NotEqual),
            ("==", Comparison::Equal),
            (">", Comparison::Greater),
            ("<", Comparison::Less),
            ("=", Comparison::Equal),
        ]
        .into_iter()
        .find_map(|(prefix, op)| t.strip_prefix(prefix).map(|rest| (op, rest)))?;
        let value: f64 = rest.trim().replace(',', "").parse().ok()?;
        value.is_finite().then_some(ValueQuery { op, value })
    }

    /// Whether a value passes.
    pub fn holds(&self, v: f64) -> bool {
        match self.op {
            Comparison::Greater => v > self.value,
            Comparison::AtLeast => v >= self.value,
            Comparison::Less => v < self.value,
            Comparison::AtMost => v <= self.value,
            Comparison::Equal => v == self.value,
            Comparison::NotEqual => v != self.value,
        }
    }
}

/// The next (or, with `back`, the previous) listed line after the line at `from` (an index
/// into the view's lines) whose column changed from the baseline; wraps around.
pub fn next_change(
    listing: &Listing,
    comparison: &SourceComparison,
    from: Option<usize>,
    back: bool,
) -> Option<usize> {
    let changed = |i: usize| {
        comparison
            .lines
            .get(i)
            .and_then(|d| d.delta.get(listing.column).copied().flatten())
            .is_some_and(|d| d != 0.0)
    };
    let n = listing.lines.len();
    let at = from.and_then(|f| listing.lines.iter().position(|&l| l == f));
    (1..=n)
        .map(|step| match (at, back) {
            (None, false) => step - 1,
            (None, true) => n - step,
            (Some(p), false) => (p + step) % n,
            (Some(p), true) => (p + n - step % n) % n,
        })
        .map(|p| listing.lines[p])
        .find(|&l| changed(l))
}

/// The markers of the view by where they are (`place` of each marker).
fn marks(
    view: &SourceView,
    place: impl Fn(&crate::model::source::PlacedMarker) -> Option<usize>,
) -> std::collections::HashMap<usize, Vec<usize>> {
    let mut out: std::collections::HashMap<usize, Vec<usize>> = Default::default();
    for (i, m) in view.markers.iter().enumerate() {
        if let Some(at) = place(m) {
            out.entry(at).or_default().push(i);
        }
    }
    out
}

/// The files that have lines with code: the kernel's own first, then by their count of lines.
fn file_entries(view: &SourceView) -> Vec<FileEntry> {
    let counts = view.lines_per_file();
    let mut order: Vec<usize> = (0..view.files.len())
        .filter(|&i| counts.get(i).is_some_and(|&c| c > 0))
        .collect();
    order.sort_by_key(|&i| {
        (
            Some(i) != view.kernel_file,
            std::cmp::Reverse(counts.get(i).copied().unwrap_or(0)),
            i,
        )
    });
    order
        .into_iter()
        .map(|i| {
            let f = &view.files[i];
            let name = source::file_name(&f.path);
            let n = counts.get(i).copied().unwrap_or(0);
            let lines = if n == 1 { "line" } else { "lines" };
            let missing = if f.text.is_none() {
                ", text not found"
            } else {
                ""
            };
            FileEntry {
                index: i,
                label: format!("{name} ({n} {lines}{missing})"),
                path: f.path.clone(),
            }
        })
        .collect()
}

/// Where the Source page stands.
pub enum SourceStatus<'a> {
    /// Not asked for yet.
    Idle,
    Reading,
    /// Read: the data (whose view may be an error saying why there is none) and the rows the
    /// choice lists (`None` when there is no view).
    Ready {
        data: &'a SourceData,
        listing: Option<&'a Listing>,
    },
    Failed(&'a str),
}

/// The Source page's view-model: the data of the selected result (and its comparison with the
/// first baseline shown) read on a [`Job`], the user's choice, and the rows listed for it,
/// computed again only when the data or the choice changes.
pub struct SourcePageView {
    job: Job<DataKey, SourceData>,
    data: Option<(DataKey, Result<SourceData, String>)>,
    pub choice: SourceChoice,
    listing: Option<(SourceChoice, Listing)>,
    /// A place to select once the data of its result is read (a hot spot or a rule's marker
    /// clicked elsewhere).
    jump: Option<(ResultRef, SourceTarget)>,
    /// The folders the user located sources in (recorded prefix, local folder), set by the
    /// page from the settings.
    pub source_maps: Vec<(String, PathBuf)>,
    /// The nvdisasm programs the page runs, set by the page from the app's.
    pub disassembler: Disassembler,
}

impl Default for SourcePageView {
    fn default() -> Self {
        SourcePageView {
            job: Job::new("Source page reader"),
            data: None,
            choice: SourceChoice::default(),
            listing: None,
            source_maps: Vec::new(),
            disassembler: Disassembler::found(),
            jump: None,
        }
    }
}

impl SourcePageView {
    /// The page's data for `key`, read in the background from what `sources` gives (the
    /// result's and the baseline's file, result and imported SASS) when the key changed;
    /// `wake` is called when it is read, `wait` waits for it (screenshots).
    pub fn status(
        &mut self,
        key: DataKey,
        sources: impl FnOnce() -> (ResultSource, Option<ResultSource>),
        wait: bool,
        wake: impl Fn() + Send + 'static,
    ) -> SourceStatus<'_> {
        let have = self.data.as_ref().is_some_and(|(k, _)| *k == key);
        if !have && !self.job.is_for(&key) {
            if self
                .data
                .as_ref()
                .is_none_or(|((at, _, _, _), _)| *at != key.0)
            {
                self.choice.selected_line = None;
                self.choice.selected_instruction = None;
                self.choice.file = FileFilter::Kernel;
            }
            self.data = None;
            self.listing = None;
            let (current, baseline) = sources();
            let maps = self.source_maps.clone();
            let disassembler = self.disassembler.clone();
            self.job.ensure(
                key,
                move |_| Ok(read(current, baseline, maps, &disassembler)),
                wake,
            );
        }
        if !have && let Some(out) = self.job.take(wait) {
            self.data = Some((key, out));
            self.listing = None;
        }
        if let Some((_, target)) = self
            .jump
            .take_if(|(at, _)| *at == key.0 && self.data.is_some())
        {
            match target {
                SourceTarget::Address(address) => self.select_instruction(address),
                SourceTarget::Line { file, line } => self.select_line(&file, line),
            }
        }
        match &self.data {
            Some((_, Ok(data))) => {
                if let Ok(view) = &data.view
                    && self.listing.as_ref().is_none_or(|(c, _)| *c != self.choice)
                {
                    self.listing = Some((self.choice.clone(), listing(view, &self.choice)));
                }
                SourceStatus::Ready {
                    data,
                    listing: self.listing.as_ref().map(|(_, l)| l),
                }
            }
            Some((_, Err(e))) => SourceStatus::Failed(e),
            None if self.job.key().is_some() => SourceStatus::Reading,
            None => SourceStatus::Idle,
        }
    }

    /// Selects the place `target` (a hot spot or a rule's marker clicked elsewhere) and shows
    /// its SASS, once the data is read.
    pub fn jump_to(&mut self, at: ResultRef, target: SourceTarget) {
        self.jump = Some((at, target));
    }

    /// Selects the CUDA line `line` of the file named `file` and lists its file.
    fn select_line(&mut self, file: &str, line: u32) {
        let Some((_, Ok(SourceData { view: Ok(view), .. }))) = &self.data else {
            return;
        };
        let name = source::file_name;
        let found = view.lines.iter().position(|l| {
            l.line == line
                && view
                    .files
                    .get(l.file)
                    .is_some_and(|f| name(&f.path) == name(file))
        });
        if let Some(i) = found {
            let file = view.lines[i].file;
            self.choice.file = if Some(file) == view.kernel_file {
                FileFilter::Kernel
            } else {
                FileFilter::One(file)
            };
        }
        self.choice.selected_line = found;
        self.choice.selected_instruction = None;
        self.choice.ptx = false;
        self.choice.all_sass = found.is_none();
        self.choice.search.clear();
    }

    fn select_instruction(&mut self, address: u64) {
        let Some((_, Ok(SourceData { view: Ok(view), .. }))) = &self.data else {
            return;
        };
        let index = view.instructions.iter().position(|i| i.address == address);
        self.choice.selected_instruction = index;
        let line = index.and_then(|i| view.instructions[i].line());
        self.choice.selected_line =
            line.and_then(|l| view.lines.iter().position(|x| (x.file, x.line) == l));
        // The line may be in a header: its file is listed then.
        if let Some((file, _)) = line
            && Some(file) != view.kernel_file
        {
            self.choice.file = FileFilter::One(file);
        }
        self.choice.ptx = false;
        self.choice.all_sass = self.choice.selected_line.is_none();
        self.choice.search.clear();
    }

    /// Drops the data (reports closed); it is read again when shown.
    pub fn release(&mut self) {
        self.job.clear();
        self.data = None;
        self.listing = None;
        self.choice.selected_line = None;
        self.choice.selected_instruction = None;
        self.jump = None;
    }
}
