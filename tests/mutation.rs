//! Every report fixture, damaged in a bounded, deterministic set of ways: cut short, bytes
//! changed, length fields and numbers made huge, an enormous field, blocks or lines repeated,
//! dropped and shuffled. Each copy goes through `parse_any` and through its format's own parser.
//! None may panic or hang; each gives a report or an error with a message; and the bytes live
//! during a parse stay below a small multiple of the input plus a fixed floor.
//!
//! Fixtures are found by walking `fixtures/`, so a new one is covered without a change here.
//! A failure names the fixture and the mutation with its seed; the mutation is a pure function
//! of the sound fixture, so it reproduces.

mod common;

use common::XorShift;
use common::cpu_time::{HANG_TIMEOUT, process_cpu_time};

use prost::Message;
use sightline::parse::detect::{self, Detected};
use sightline::parse::ncu_rep::messages::BlockHeader;
use sightline::parse::ncu_rep::wire::{FieldIter, WireValue};
use sightline::parse::{
    ParseError, cli_text, csv_details, csv_raw, gui_copy, ncu_rep, parse_any, session, text_clean,
};
use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write as _;
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------
// Live bytes and their high-water mark.

/// Forwards to the system allocator and counts the bytes live at any moment.
struct LiveBytes;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The case being parsed. A request this large is refused by the system and aborts the process
/// before any test can report, so the allocator names the case on stderr first.
static CURRENT_CASE: Mutex<String> = Mutex::new(String::new());
const GIANT_ALLOCATION: usize = 1 << 30;

/// Writes the giant request and the current case to stderr without allocating.
fn name_giant_request(size: usize) {
    use std::io::Write;
    if let Ok(case) = CURRENT_CASE.try_lock() {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "allocation of {size} bytes while parsing {}", *case);
    }
}

fn grow(n: usize) {
    let now = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

fn shrink(n: usize) {
    LIVE.fetch_sub(n, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to the system allocator unchanged; only counters change.
unsafe impl GlobalAlloc for LiveBytes {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= GIANT_ALLOCATION {
            name_giant_request(layout.size());
        }
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= GIANT_ALLOCATION {
            name_giant_request(layout.size());
        }
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size >= GIANT_ALLOCATION {
            name_giant_request(new_size);
        }
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grow(new_size - layout.size());
            } else {
                shrink(layout.size() - new_size);
            }
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        shrink(layout.size());
    }
}

#[global_allocator]
static ALLOCATOR: LiveBytes = LiveBytes;

/// Tests run one at a time so that the high-water mark is their own.
static SERIAL: Mutex<()> = Mutex::new(());

/// Most bytes a parse of `input` (of fixture `rel`) may add to what was live before it, less
/// the fixed [`LIVE_FLOOR`]: a multiple of its size and room for a record per text line (a
/// line of two bytes still becomes a row with its own strings).
fn allowance(rel: &str, input: &[u8]) -> usize {
    let lines = if is_binary_report(rel) {
        0
    } else {
        input.iter().filter(|&&b| b == b'\n').count()
    };
    per_byte(rel) * input.len() + LIVE_PER_LINE * lines
}

/// Live bytes allowed per input byte, by form.
fn per_byte(rel: &str) -> usize {
    let name = rel.trim_end_matches(".xz");
    if is_binary_report(rel) {
        REPORT_LIVE_PER_INPUT_BYTE
    } else if name.contains(".raw") && name.ends_with(".csv") {
        // The wide CSV export (`.raw.csv`, `.raw_base.csv`, `.raw_instances.csv`...) stores a
        // metric or an instance in a few bytes; the model keeps its name, unit and value per
        // result, and each instance.
        RAW_CSV_LIVE_PER_INPUT_BYTE
    } else {
        LIVE_PER_INPUT_BYTE
    }
}
const LIVE_PER_INPUT_BYTE: usize = 16;
const REPORT_LIVE_PER_INPUT_BYTE: usize = 8;
const RAW_CSV_LIVE_PER_INPUT_BYTE: usize = 64;
const LIVE_PER_LINE: usize = 256;
const LIVE_FLOOR: usize = 1 << 20;

/// Most CPU time a single parse may take (a debug build), measured as the process's CPU time
/// so that a busy machine does not count: the tests run one at a time, and a parse's own
/// threads count with it. A parse that does not return within [`HANG_TIMEOUT`] of wall time
/// is a hang.
const CASE_TIME_LIMIT: Duration = Duration::from_secs(10);

/// Text fixtures are parsed whole once (sound); the mutations apply to their first bytes, cut at
/// a line end, which keeps the case count affordable in a debug build.
const TEXT_PREFIX: usize = 64 << 10;
/// Reports larger than this get a few whole-file cases; the full set runs on a prefix.
const BIG_REPORT: usize = 2 << 20;
/// Least size of the prefix of a big report (cut at a block end, after a result).
const REPORT_PREFIX: usize = 1 << 20;
/// Size of the enormous field, number and rule inserted into a text.
const ENORMOUS: usize = 256 << 10;

// ---------------------------------------------------------------------------------------------
// Fixtures.

/// Every fixture that holds a report in some form, relative to `fixtures/`, sorted.
fn report_fixtures() -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, root, out);
                continue;
            }
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if is_report_fixture(&rel) {
                out.push(rel);
            }
        }
    }
    let root = common::fixture_path("");
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    out.sort();
    out
}

/// Reports: `.txt`, `.csv`, `.ncu-rep`, each maybe xz-compressed; not the truth oracles, notes,
/// sources, scripts or the tool version note, nor the files kept beside reports that hold none:
/// a profiling run's own messages (`*.cli_log.txt`), the recorded tool help and versions
/// (`tools/`), disassembly (`*.nvdisasm*`) and Source page exports (`*.source_*.csv`).
fn is_report_fixture(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let base = name.strip_suffix(".xz").unwrap_or(name);
    if base.ends_with(".truth.json") || base == "ncu_version.txt" {
        return false;
    }
    if rel.starts_with("tools/")
        || base.ends_with(".cli_log.txt")
        || base.contains(".nvdisasm")
        || base.contains(".source_")
    {
        return false;
    }
    [".txt", ".csv", ".ncu-rep"]
        .iter()
        .any(|ext| base.ends_with(ext))
}

fn is_binary_report(rel: &str) -> bool {
    rel.trim_end_matches(".xz").ends_with(".ncu-rep")
}

// ---------------------------------------------------------------------------------------------
// Deterministic randomness.

/// A seed for the `index`-th case of a fixture (FNV-1a of the path, mixed with the index).
fn seed_for(rel: &str, index: usize) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in rel.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h ^ (index as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

// ---------------------------------------------------------------------------------------------
// Text mutations.

/// Numbers written in place of numeric fields.
const HUGE_NUMBERS: &[&str] = &[
    "4294967295",
    "18446744073709551616",
    "1e308",
    "1.7976931348623157e309",
    "-9223372036854775809",
    "NaN",
    "340282366920938463463374607431768211456000000000000000000000000000000000000000000000",
];

/// Lines (or CSV columns) that hold the launch shape, where a huge value is most hostile.
const LAUNCH_LABELS: &[&str] = &[
    "Registers Per Thread",
    "Block Size",
    "Grid Size",
    "Threads",
    "Shared Memory",
    "Waves Per SM",
    "Block Limit",
    "Occupancy",
    "launch__",
    "Size",
];

#[derive(Debug, Clone)]
enum TextMutation {
    /// The first `at` bytes.
    Truncate { at: usize },
    /// `count` bytes set to random or structural characters.
    FlipBytes { seed: u64, count: usize },
    /// Every number replaced.
    EveryNumber { value: &'static str },
    /// About one number in eight replaced by one of [`HUGE_NUMBERS`].
    SomeNumbers { seed: u64 },
    /// Every number on launch-shape lines (and in launch-shape CSV columns) replaced.
    LaunchNumbers { value: &'static str },
    /// A quoted field of `size` bytes (with quotes, commas and line ends inside) in a line.
    HugeQuotedField { seed: u64, size: usize },
    /// A metric line whose value is a number of `digits` digits.
    HugeNumberLine { seed: u64, digits: usize },
    /// A `"` that is never closed, at the start of a line.
    UnclosedQuote { seed: u64 },
    /// The first `count` dash rules (`---- -------`, the column widths of a table) made
    /// `extra` dashes longer.
    WidenRules { extra: usize, count: usize },
    /// Every dash rule made `extra` dashes longer and the row after the last rule repeated
    /// `rows` times: a wide table of many short rows.
    WideTable { extra: usize, rows: usize },
    /// A run of lines repeated in place.
    RepeatLines { seed: u64 },
    /// The middle third of the lines (whole results in a multi-result file) repeated.
    RepeatMiddle,
    /// The whole text twice.
    RepeatWhole,
    /// Every line in random order.
    ShuffleLines { seed: u64 },
    /// The text cut into eight runs of lines, put back in random order.
    SwapRuns { seed: u64 },
    /// About one line in sixteen removed.
    DropLines { seed: u64 },
}

/// The lines of a text, each ending with `\n`.
fn split_lines(text: &[u8]) -> Vec<Vec<u8>> {
    text.split_inclusive(|&b| b == b'\n')
        .map(|l| {
            let mut l = l.to_vec();
            if l.last() != Some(&b'\n') {
                l.push(b'\n');
            }
            l
        })
        .collect()
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Copies `text`, offering each standalone number (`12`, `1,024`, `3.5`) to `pick`, which may
/// give its replacement.
fn replace_numbers<'v>(text: &[u8], mut pick: impl FnMut(&[u8]) -> Option<&'v [u8]>) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + text.len() / 4);
    let mut i = 0;
    while i < text.len() {
        let starts = text[i].is_ascii_digit() && (i == 0 || !is_word(text[i - 1]));
        if !starts {
            out.push(text[i]);
            i += 1;
            continue;
        }
        let mut j = i;
        while j < text.len()
            && (text[j].is_ascii_digit()
                || (matches!(text[j], b'.' | b',')
                    && text.get(j + 1).is_some_and(u8::is_ascii_digit)))
        {
            j += 1;
        }
        let standalone = j == text.len() || !is_word(text[j]);
        match pick(&text[i..j]).filter(|_| standalone) {
            Some(r) => out.extend_from_slice(r),
            None => out.extend_from_slice(&text[i..j]),
        }
        i = j;
    }
    out
}

/// A dash rule: `---- -------`, the column widths of a table.
fn is_rule(line: &[u8]) -> bool {
    let body = line.trim_ascii_end();
    body.contains(&b'-') && body.iter().all(|&b| b == b'-' || b == b' ')
}

/// The lines of `text`, the first `count` dash rules made `extra` dashes longer.
fn widen_rules(text: &[u8], extra: usize, count: usize) -> Vec<Vec<u8>> {
    let mut left = count;
    let mut lines = split_lines(text);
    for line in &mut lines {
        if left > 0 && is_rule(line) {
            let end = line.trim_ascii_end().len();
            line.splice(end..end, std::iter::repeat_n(b'-', extra));
            left -= 1;
        }
    }
    lines
}

/// Cell ranges of a line of a quoted CSV export (`"a","b",...`).
fn csv_cells(line: &[u8]) -> Vec<Range<usize>> {
    let mut cells = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i + 3 <= line.len() {
        if &line[i..i + 3] == b"\",\"" {
            cells.push(start..i + 1);
            start = i + 2;
            i += 3;
        } else {
            i += 1;
        }
    }
    cells.push(start..line.len());
    cells
}

/// The text with every number on launch-shape lines and in launch-shape CSV columns replaced.
fn launch_numbers(text: &[u8], value: &'static str) -> Vec<u8> {
    let lines = split_lines(text);
    let is_launch = |s: &[u8]| {
        let s = String::from_utf8_lossy(s);
        LAUNCH_LABELS.iter().any(|l| s.contains(l))
    };
    // A wide CSV export names the launch metrics in its header: those columns, every row.
    let columns: Vec<usize> = match lines.first() {
        Some(h) if h.starts_with(b"\"ID\"") => csv_cells(h)
            .into_iter()
            .enumerate()
            .filter(|(_, r)| is_launch(&h[r.clone()]))
            .map(|(i, _)| i)
            .collect(),
        _ => Vec::new(),
    };
    let mut out = Vec::with_capacity(text.len());
    for line in &lines {
        if is_launch(line) {
            out.extend(replace_numbers(line, |_| Some(value.as_bytes())));
        } else if !columns.is_empty() {
            let cells = csv_cells(line);
            let mut at = 0;
            for (i, cell) in cells.iter().enumerate() {
                out.extend_from_slice(&line[at..cell.start]);
                let body = &line[cell.clone()];
                if columns.contains(&i) {
                    out.extend(replace_numbers(body, |_| Some(value.as_bytes())));
                } else {
                    out.extend_from_slice(body);
                }
                at = cell.end;
            }
            out.extend_from_slice(&line[at..]);
        } else {
            out.extend_from_slice(line);
        }
    }
    out
}

impl TextMutation {
    /// The cases for a text of `len` bytes.
    fn cases(rel: &str, len: usize, round: usize) -> Vec<TextMutation> {
        use TextMutation::*;
        let mut n = 0;
        let mut seed = || {
            n += 1;
            seed_for(rel, n + 1000 * round)
        };
        let mut cases = Vec::new();
        for at in [0, 1, len / 4, len / 2, len - len / 50] {
            cases.push(Truncate { at });
        }
        for count in [1, 4, 16, 128, 1024] {
            cases.push(FlipBytes {
                seed: seed(),
                count,
            });
        }
        for value in ["4294967295", "1e308"] {
            cases.push(EveryNumber { value });
        }
        for _ in 0..2 {
            cases.push(SomeNumbers { seed: seed() });
        }
        for value in ["4294967295", "1.7976931348623157e309"] {
            cases.push(LaunchNumbers { value });
        }
        cases.push(HugeQuotedField {
            seed: seed(),
            size: ENORMOUS,
        });
        cases.push(HugeNumberLine {
            seed: seed(),
            digits: ENORMOUS,
        });
        cases.push(UnclosedQuote { seed: seed() });
        cases.push(WidenRules {
            extra: ENORMOUS,
            count: 1,
        });
        cases.push(WidenRules {
            extra: 4096,
            count: usize::MAX,
        });
        cases.push(WideTable {
            extra: 16 << 10,
            rows: 2000,
        });
        for _ in 0..2 {
            cases.push(RepeatLines { seed: seed() });
        }
        cases.push(RepeatMiddle);
        cases.push(RepeatWhole);
        cases.push(ShuffleLines { seed: seed() });
        cases.push(SwapRuns { seed: seed() });
        cases.push(DropLines { seed: seed() });
        if round > 0 {
            cases.retain(TextMutation::is_seeded);
        }
        cases
    }

    /// Whether the case changes with its seed (later rounds run only those).
    fn is_seeded(&self) -> bool {
        use TextMutation::*;
        matches!(
            self,
            FlipBytes { .. }
                | SomeNumbers { .. }
                | HugeQuotedField { .. }
                | HugeNumberLine { .. }
                | UnclosedQuote { .. }
                | RepeatLines { .. }
                | ShuffleLines { .. }
                | SwapRuns { .. }
                | DropLines { .. }
        )
    }

    /// The damaged copy of a text.
    fn apply(&self, text: &[u8]) -> Vec<u8> {
        use TextMutation::*;
        match *self {
            Truncate { at } => text[..at.min(text.len())].to_vec(),
            FlipBytes { seed, count } => {
                let mut rng = XorShift::new(seed);
                let mut out = text.to_vec();
                if out.is_empty() {
                    return out;
                }
                for _ in 0..count {
                    let at = rng.below(out.len());
                    out[at] = match rng.below(10) {
                        0 => b'\n',
                        1 => b',',
                        2 => b'"',
                        3 => b'\t',
                        4 => b'(',
                        5 => b'9',
                        6 => b' ',
                        7 => b'-',
                        _ => rng.next() as u8,
                    };
                }
                out
            }
            EveryNumber { value } => replace_numbers(text, |_| Some(value.as_bytes())),
            SomeNumbers { seed } => {
                let mut rng = XorShift::new(seed);
                replace_numbers(text, |_| {
                    (rng.below(8) == 0)
                        .then(|| HUGE_NUMBERS[rng.below(HUGE_NUMBERS.len())].as_bytes())
                })
            }
            LaunchNumbers { value } => launch_numbers(text, value),
            HugeQuotedField { seed, size } => {
                let mut rng = XorShift::new(seed);
                let mut lines = split_lines(text);
                let pattern = b"x\"\"y,\nz";
                let field: Vec<u8> = pattern.iter().copied().cycle().take(size).collect();
                let at = if lines.len() > 1 {
                    1 + rng.below(lines.len() - 1)
                } else {
                    0
                };
                match lines.get_mut(at) {
                    Some(line) => match line.iter().position(|&b| b == b'"') {
                        Some(q) => {
                            line.splice(q + 1..q + 1, field);
                        }
                        None => {
                            let mut quoted = vec![b'"'];
                            quoted.extend(field);
                            quoted.extend_from_slice(b"\",");
                            line.splice(0..0, quoted);
                        }
                    },
                    None => lines.push(field),
                }
                lines.concat()
            }
            HugeNumberLine { seed, digits } => {
                let mut rng = XorShift::new(seed);
                let mut lines = split_lines(text);
                let mut line = b"    Registers Per Thread             register/thread   ".to_vec();
                line.extend(std::iter::repeat_n(b'9', digits));
                line.push(b'\n');
                let at = rng.below(lines.len() + 1);
                lines.insert(at, line);
                lines.concat()
            }
            UnclosedQuote { seed } => {
                let mut rng = XorShift::new(seed);
                let mut lines = split_lines(text);
                let at = rng.below(lines.len() + 1);
                match lines.get_mut(at) {
                    Some(line) => line.insert(0, b'"'),
                    None => lines.push(b"\"".to_vec()),
                }
                lines.concat()
            }
            WidenRules { extra, count } => widen_rules(text, extra, count).concat(),
            WideTable { extra, rows } => {
                let mut lines = widen_rules(text, extra, usize::MAX);
                let last_rule = lines.iter().rposition(|l| is_rule(l));
                if let Some(row) = last_rule.and_then(|r| lines.get(r + 1)).cloned() {
                    let at = last_rule.unwrap_or(0) + 1;
                    lines.splice(at..at, std::iter::repeat_n(row, rows));
                }
                lines.concat()
            }
            RepeatLines { seed } => {
                let mut rng = XorShift::new(seed);
                let lines = split_lines(text);
                let start = rng.below(lines.len());
                let end = (start + 1 + rng.below(200)).min(lines.len());
                let times = 2 + rng.below(5);
                let mut out = lines[..end].concat();
                for _ in 1..times {
                    out.extend(lines[start..end].concat());
                }
                out.extend(lines[end..].concat());
                out
            }
            RepeatMiddle => {
                let lines = split_lines(text);
                let (a, b) = (lines.len() / 3, lines.len() * 2 / 3);
                let mut out = lines[..b].concat();
                out.extend(lines[a..].concat());
                out
            }
            RepeatWhole => {
                let mut out = split_lines(text).concat();
                out.extend_from_within(..);
                out
            }
            ShuffleLines { seed } => {
                let mut lines = split_lines(text);
                XorShift::new(seed).shuffle(&mut lines);
                lines.concat()
            }
            SwapRuns { seed } => {
                let mut rng = XorShift::new(seed);
                let lines = split_lines(text);
                let mut cuts: Vec<usize> = (0..7).map(|_| rng.below(lines.len() + 1)).collect();
                cuts.extend([0, lines.len()]);
                cuts.sort_unstable();
                let mut runs: Vec<&[Vec<u8>]> =
                    cuts.windows(2).map(|w| &lines[w[0]..w[1]]).collect();
                rng.shuffle(&mut runs);
                runs.concat().concat()
            }
            DropLines { seed } => {
                let mut rng = XorShift::new(seed);
                split_lines(text)
                    .into_iter()
                    .filter(|_| rng.below(16) != 0)
                    .collect::<Vec<_>>()
                    .concat()
            }
        }
    }
}

/// The start of a big text, cut at a line end.
fn text_prefix(text: &[u8], size: usize) -> &[u8] {
    if text.len() <= size {
        return text;
    }
    let end = text[..size]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(size, |p| p + 1);
    &text[..end]
}

// ---------------------------------------------------------------------------------------------
// Report (`.ncu-rep`) mutations.

/// One block of a sound report.
struct Block {
    /// From the length prefix of the header to the end of the payload.
    range: Range<usize>,
    header: BlockHeader,
    payload_start: usize,
}

fn u32_at(bytes: &[u8], at: usize) -> usize {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize
}

/// The blocks of a sound report, and where the first one starts.
fn blocks(bytes: &[u8]) -> (usize, Vec<Block>) {
    let first = 8 + u32_at(bytes, 4);
    let mut at = first;
    let mut out = Vec::new();
    while at < bytes.len() {
        let len = u32_at(bytes, at);
        let header = BlockHeader::decode(&bytes[at + 4..at + 4 + len]).unwrap();
        let payload_start = at + 4 + len;
        let end = payload_start + header.payload_size.unwrap_or(0) as usize;
        out.push(Block {
            range: at..end,
            header,
            payload_start,
        });
        at = end;
    }
    assert_eq!(at, bytes.len());
    (first, out)
}

/// The start of a big report: whole blocks, at least `size` bytes and one result.
fn report_prefix(bytes: &[u8], size: usize) -> &[u8] {
    let (_, all) = blocks(bytes);
    let mut seen_result = false;
    for b in &all {
        seen_result |= b.header.num_results.unwrap_or(0) > 0;
        if seen_result && b.range.end >= size {
            return &bytes[..b.range.end];
        }
    }
    bytes
}

#[derive(Debug, Clone)]
enum ReportMutation {
    /// The first `at` bytes.
    Truncate { at: usize },
    /// `count` bytes changed, half of them inside block headers and length prefixes.
    FlipBytes { seed: u64, count: usize },
    /// The file-header length prefix set to `value`.
    FileHeaderLength { value: u32 },
    /// A block's header length prefix set to `value`.
    BlockHeaderLength { block: usize, value: u32 },
    /// A block header re-encoded with `payload_size = value`.
    PayloadSize { block: usize, value: u32 },
    /// A block header re-encoded with `num_sources` (0), `num_results` (1) or
    /// `num_range_results` (2) set to `value`.
    EntryCount { block: usize, field: u8, value: u32 },
    /// The length prefix of the first payload entry of a block set to `value`.
    EntryLength { block: usize, value: u32 },
    /// A protobuf length inside a payload entry (up to three messages deep) made as large as
    /// its varint can hold, or one larger than it was.
    InnerLength { seed: u64 },
    /// A block written twice in a row.
    DuplicateBlock { block: usize },
    /// A block left out.
    DropBlock { block: usize },
    /// The blocks in random order (the file header stays first).
    ShuffleBlocks { seed: u64 },
    /// The blocks in reverse order.
    ReverseBlocks,
}

/// Blocks worth damaging: the first, the first with a payload of sources, the one with the
/// string table, the first and last with results, the last.
fn interesting_blocks(all: &[Block]) -> Vec<usize> {
    let mut picks = vec![0, all.len() - 1];
    let find = |pred: &dyn Fn(&BlockHeader) -> bool| all.iter().position(|b| pred(&b.header));
    picks.extend(find(&|h| h.num_sources.unwrap_or(0) > 0));
    picks.extend(find(&|h| {
        h.string_table
            .as_ref()
            .is_some_and(|t| !t.strings.is_empty())
    }));
    picks.extend(find(&|h| h.num_results.unwrap_or(0) > 0));
    picks.extend(
        all.iter()
            .rposition(|b| b.header.num_results.unwrap_or(0) > 0),
    );
    picks.sort_unstable();
    picks.dedup();
    picks
}

fn varint(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
    out
}

impl ReportMutation {
    /// The cases for a sound report.
    fn cases(rel: &str, bytes: &[u8], round: usize) -> Vec<ReportMutation> {
        use ReportMutation::*;
        let (_, all) = blocks(bytes);
        let len = bytes.len();
        let mut n = 0;
        let mut seed = || {
            n += 1;
            seed_for(rel, n + 1000 * round)
        };
        let mut cases = Vec::new();
        for at in [0, 3, 4, 9, 12, len / 9, len / 2, len - 1] {
            cases.push(Truncate { at });
        }
        for count in [1, 1, 2, 4, 8, 32, 256] {
            cases.push(FlipBytes {
                seed: seed(),
                count,
            });
        }
        for value in [u32::MAX, 0x8000_0000, 0] {
            cases.push(FileHeaderLength { value });
        }
        for block in interesting_blocks(&all) {
            let b = &all[block];
            let remaining = (len - b.range.start) as u32;
            for value in [u32::MAX, 0, remaining] {
                cases.push(BlockHeaderLength { block, value });
            }
            let size = b.header.payload_size.unwrap_or(0);
            for value in [u32::MAX, remaining, size.saturating_add(4)] {
                cases.push(PayloadSize { block, value });
            }
            for field in 0..3 {
                cases.push(EntryCount {
                    block,
                    field,
                    value: u32::MAX,
                });
            }
            cases.push(EntryCount {
                block,
                field: 1,
                value: b.header.num_results.unwrap_or(0) + 1,
            });
            if size > 0 {
                for value in [u32::MAX, size, 0] {
                    cases.push(EntryLength { block, value });
                }
            }
            cases.push(DuplicateBlock { block });
            cases.push(DropBlock { block });
        }
        for _ in 0..12 {
            cases.push(InnerLength { seed: seed() });
        }
        for _ in 0..2 {
            cases.push(ShuffleBlocks { seed: seed() });
        }
        cases.push(ReverseBlocks);
        if round > 0 {
            cases.retain(|m| {
                matches!(
                    m,
                    FlipBytes { .. } | InnerLength { .. } | ShuffleBlocks { .. }
                )
            });
        }
        cases
    }

    /// The damaged copy of a sound report.
    fn apply(&self, bytes: &[u8]) -> Vec<u8> {
        use ReportMutation::*;
        let (first, all) = blocks(bytes);
        let mut out = bytes.to_vec();
        let reencode = |block: usize, edit: &dyn Fn(&mut BlockHeader)| {
            let b = &all[block];
            let mut header = b.header.clone();
            edit(&mut header);
            let encoded = header.encode_to_vec();
            let mut out = bytes[..b.range.start].to_vec();
            out.extend_from_slice(&(encoded.len() as u32).to_le_bytes());
            out.extend(encoded);
            out.extend_from_slice(&bytes[b.payload_start..]);
            out
        };
        match *self {
            Truncate { at } => out.truncate(at),
            FlipBytes { seed, count } => {
                let mut rng = XorShift::new(seed);
                for _ in 0..count {
                    let at = if rng.below(2) == 0 {
                        let b = &all[rng.below(all.len())];
                        b.range.start + rng.below(b.payload_start + 8 - b.range.start)
                    } else {
                        rng.below(out.len())
                    }
                    .min(out.len() - 1);
                    let value = rng.next() as u8;
                    out[at] = if value == out[at] { !value } else { value };
                }
            }
            FileHeaderLength { value } => out[4..8].copy_from_slice(&value.to_le_bytes()),
            BlockHeaderLength { block, value } => {
                let at = all[block].range.start;
                out[at..at + 4].copy_from_slice(&value.to_le_bytes());
            }
            PayloadSize { block, value } => {
                out = reencode(block, &|h| h.payload_size = Some(value));
            }
            EntryCount {
                block,
                field,
                value,
            } => {
                out = reencode(block, &|h| match field {
                    0 => h.num_sources = Some(value),
                    1 => h.num_results = Some(value),
                    _ => h.num_range_results = Some(value),
                });
            }
            EntryLength { block, value } => {
                let at = all[block].payload_start;
                out[at..at + 4].copy_from_slice(&value.to_le_bytes());
            }
            InnerLength { seed } => inner_length(&mut out, &all, seed),
            DuplicateBlock { block } => {
                let r = all[block].range.clone();
                out.splice(r.end..r.end, bytes[r].iter().copied());
            }
            DropBlock { block } => {
                out.drain(all[block].range.clone());
            }
            ShuffleBlocks { .. } | ReverseBlocks => {
                let mut order: Vec<usize> = (0..all.len()).collect();
                match *self {
                    ShuffleBlocks { seed } => XorShift::new(seed).shuffle(&mut order),
                    _ => order.reverse(),
                }
                out.truncate(first);
                for i in order {
                    out.extend_from_slice(&bytes[all[i].range.clone()]);
                }
            }
        }
        out
    }
}

/// Makes one protobuf length inside a payload entry too large (see
/// [`ReportMutation::InnerLength`]). Lengths are written as minimal varints, so the varint of a
/// field of `n` bytes is the `varint(n).len()` bytes before its value.
fn inner_length(out: &mut [u8], all: &[Block], seed: u64) {
    let mut rng = XorShift::new(seed);
    let with_payload: Vec<&Block> = all
        .iter()
        .filter(|b| b.header.payload_size.unwrap_or(0) > 0)
        .collect();
    let Some(b) = with_payload.get(rng.below(with_payload.len())) else {
        return;
    };
    // The entries of the block.
    let mut entries = Vec::new();
    let mut p = b.payload_start;
    while p < b.range.end {
        let n = u32_at(out, p);
        entries.push(p + 4..p + 4 + n);
        p += 4 + n;
    }
    let mut msg = entries[rng.below(entries.len())].clone();
    let mut target = None;
    for _depth in 0..3 {
        let fields: Vec<(usize, usize)> = FieldIter::new(&out[msg.clone()])
            .map_while(Result::ok)
            .filter_map(|f| match f.value {
                WireValue::Bytes(v) => Some((msg.start + f.offset, v.len())),
                _ => None,
            })
            .collect();
        let Some(&(value_at, len)) = fields.get(rng.below(fields.len())) else {
            break;
        };
        target = Some((value_at, len));
        if rng.below(3) == 0 {
            break;
        }
        msg = value_at..value_at + len;
    }
    let Some((value_at, len)) = target else {
        return;
    };
    let old = varint(len as u64);
    let start = value_at - old.len();
    let mut new = varint(len as u64 + 1);
    if rng.below(2) == 0 || new.len() != old.len() {
        new = vec![0xff; old.len()];
        *new.last_mut().unwrap() = 0x7f;
    }
    out[start..value_at].copy_from_slice(&new);
}

// ---------------------------------------------------------------------------------------------
// Running one case.

/// What a parser gave: items read (results, modules) or an error message.
type Outcome = Result<usize, String>;

/// A parser under test: bytes in, outcome out.
type Parser = fn(&[u8]) -> Outcome;

/// The text of an error, or an empty string when its own message is blank (every form of
/// [`ParseError`] ends with its message after a colon).
fn error_text(e: &ParseError) -> String {
    let text = e.to_string();
    if text.trim_end().ends_with(':') {
        return String::new();
    }
    text
}

/// What a parser's result says, checking that every warning has words in it.
fn report_outcome(r: Result<sightline::model::Report, ParseError>) -> Outcome {
    match r {
        Ok(report) => {
            assert!(
                report.warnings.iter().all(|w| !w.trim().is_empty()),
                "an empty warning"
            );
            Ok(report.results.len())
        }
        Err(e) => Err(error_text(&e)),
    }
}

/// The shared entry point, which detects the form.
fn via_parse_any(bytes: &[u8]) -> Outcome {
    report_outcome(parse_any(bytes))
}

// Each text form's own parser, on the cleaned text as `parse_any` would give it.
fn via_cli_text(bytes: &[u8]) -> Outcome {
    report_outcome(cli_text::parse(&text_clean::clean(bytes)))
}
fn via_csv_details(bytes: &[u8]) -> Outcome {
    report_outcome(csv_details::parse(&text_clean::clean(bytes)))
}
fn via_csv_raw(bytes: &[u8]) -> Outcome {
    report_outcome(csv_raw::parse(&text_clean::clean(bytes)))
}
fn via_session(bytes: &[u8]) -> Outcome {
    report_outcome(session::parse(&text_clean::clean(bytes)))
}
fn via_gui_copy(bytes: &[u8]) -> Outcome {
    report_outcome(gui_copy::parse(&text_clean::clean(bytes)))
}

/// The on-request readers of a report: modules (cubins) and imported source files.
fn via_report_sources(bytes: &[u8]) -> Outcome {
    let modules = ncu_rep::modules(bytes).map_err(|e| error_text(&e))?;
    let files = ncu_rep::source_files(bytes).map_err(|e| error_text(&e))?;
    Ok(modules.len() + files.len())
}

/// The format's own parser of a text form.
fn own_text_parser(kind: Detected) -> (&'static str, Parser) {
    match kind {
        Detected::CsvDetails => ("csv_details", via_csv_details),
        Detected::CsvRaw => ("csv_raw", via_csv_raw),
        Detected::SessionCsv | Detected::SessionText => ("session", via_session),
        Detected::GuiCopy => ("gui_copy", via_gui_copy),
        Detected::Summary | Detected::CliText => ("cli_text", via_cli_text),
        Detected::NcuRep => ("ncu_rep sources", via_report_sources),
    }
}

/// One parse, measured.
struct Run {
    outcome: Result<Outcome, String>,
    elapsed: Duration,
    /// Most bytes live during the parse beyond those live before it.
    peak: usize,
}

/// Parses `input` on its own thread (so a hang is caught) and measures it.
fn run(input: Vec<u8>, parser: Parser) -> Result<(Vec<u8>, Run), String> {
    let (tx, rx) = mpsc::channel();
    let before = LIVE.load(Ordering::Relaxed);
    let table_before = sightline::model::intern::table_bytes();
    PEAK.store(before, Ordering::Relaxed);
    let start = process_cpu_time();
    std::thread::spawn(move || {
        let outcome = catch_unwind(AssertUnwindSafe(|| parser(&input))).map_err(|p| {
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic".into())
        });
        let _ = tx.send((input, outcome));
    });
    let (input, outcome) = rx
        .recv_timeout(HANG_TIMEOUT)
        .map_err(|_| format!("no answer within {HANG_TIMEOUT:?} (a hang)"))?;
    let elapsed = process_cpu_time().saturating_sub(start);
    // Texts interned for the first time stay in the process-wide table (bounded by the
    // distinct texts of the input); the rest must be the parse's own.
    let table_growth = sightline::model::intern::table_bytes().saturating_sub(table_before);
    let peak = PEAK
        .load(Ordering::Relaxed)
        .saturating_sub(before)
        .saturating_sub(table_growth);
    Ok((
        input,
        Run {
            outcome,
            elapsed,
            peak,
        },
    ))
}

/// What the cases of one fixture measured.
#[derive(Default)]
struct Tally {
    cases: usize,
    parses: usize,
    /// Parses that gave a report, and that gave an error.
    read: usize,
    rejected: usize,
    sound_ratio: f64,
    sound_peak: usize,
    worst_ratio: f64,
    worst_case: String,
    slowest: Duration,
    slowest_case: String,
    /// Most live bytes beyond the per-byte allowance: what the floor must cover.
    excess: usize,
    failures: Vec<String>,
}

const SOUND: &str = "Sound";

impl Tally {
    /// Runs one input through each parser and records every broken promise.
    fn check(&mut self, rel: &str, what: &str, mut input: Vec<u8>, parsers: &[(&str, Parser)]) {
        self.cases += 1;
        let len = input.len();
        let allowed = allowance(rel, &input);
        let limit = allowed + LIVE_FLOOR;
        for &(name, parser) in parsers {
            let describe = || format!("{rel} [{what}] via {name} ({len} bytes)");
            *CURRENT_CASE.lock().unwrap_or_else(|e| e.into_inner()) = describe();
            self.parses += 1;
            let run = match run(input, parser) {
                Ok((back, run)) => {
                    input = back;
                    run
                }
                Err(hang) => {
                    self.failures.push(format!("{}: {hang}", describe()));
                    return;
                }
            };
            match &run.outcome {
                Err(panic) => self
                    .failures
                    .push(format!("{}: panic: {panic}", describe())),
                Ok(Err(message)) if message.trim().is_empty() => self
                    .failures
                    .push(format!("{}: an error without a message", describe())),
                Ok(Err(message)) if what == SOUND => self.failures.push(format!(
                    "{}: the sound fixture fails: {message}",
                    describe()
                )),
                Ok(Ok(_)) => self.read += 1,
                Ok(Err(_)) => self.rejected += 1,
            }
            if run.elapsed > CASE_TIME_LIMIT {
                self.failures.push(format!(
                    "{}: took {:?} of CPU time",
                    describe(),
                    run.elapsed
                ));
            }
            if run.peak > limit {
                self.failures.push(format!(
                    "{}: {} bytes live during the parse, limit {limit}",
                    describe(),
                    run.peak,
                ));
            }
            self.excess = self.excess.max(run.peak.saturating_sub(allowed));
            let ratio = run.peak as f64 / len.max(1) as f64;
            if what == SOUND && name == "parse_any" {
                self.sound_ratio = ratio;
                self.sound_peak = run.peak;
            }
            // Small inputs are governed by the floor; their ratio says little.
            if len >= 4096 && ratio > self.worst_ratio {
                self.worst_ratio = ratio;
                self.worst_case = format!("{what} via {name}");
            }
            if run.elapsed > self.slowest {
                self.slowest = run.elapsed;
                self.slowest_case = format!("{what} via {name}");
            }
        }
    }
}

/// `MUTATION_FILTER=text` runs only the cases whose fixture path or mutation contains `text`
/// (to replay one failure).
fn selected(rel: &str, what: &str) -> bool {
    std::env::var("MUTATION_FILTER").map_or(true, |f| rel.contains(&f) || what.contains(&f))
}

/// `MUTATION_ROUNDS=n` (default 1) runs the seeded cases with `n` sets of seeds, for a deeper
/// search than CI's.
fn rounds() -> usize {
    std::env::var("MUTATION_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1)
}

/// Runs every case of one fixture.
fn mutate_fixture(rel: &str) -> Tally {
    let sound = common::fixture_bytes(rel);
    let mut tally = Tally::default();
    let mut check = |what: String, input: Vec<u8>, parsers: &[(&str, Parser)]| {
        if selected(rel, &what) {
            tally.check(rel, &what, input, parsers);
        }
    };
    if is_binary_report(rel) {
        let parsers: [(&str, Parser); 2] = [
            ("parse_any", via_parse_any),
            ("ncu_rep sources", via_report_sources),
        ];
        check(SOUND.into(), sound.clone(), &parsers[..1]);
        let body = if sound.len() > BIG_REPORT {
            let cut = ReportMutation::Truncate {
                at: sound.len() / 2 + 1,
            };
            check(format!("{cut:?}"), cut.apply(&sound), &parsers[..1]);
            report_prefix(&sound, REPORT_PREFIX)
        } else {
            &sound
        };
        let prefix = if body.len() < sound.len() {
            format!("prefix of {} bytes, ", body.len())
        } else {
            String::new()
        };
        for m in (0..rounds()).flat_map(|r| ReportMutation::cases(rel, body, r)) {
            check(format!("{prefix}{m:?}"), m.apply(body), &parsers);
        }
    } else {
        let kind = detect::detect_text(&text_clean::clean(&sound))
            .unwrap_or_else(|| panic!("{rel}: the sound fixture is no known text form"));
        let own = own_text_parser(kind);
        check(SOUND.into(), sound.clone(), &[("parse_any", via_parse_any)]);
        let body = text_prefix(&sound, TEXT_PREFIX);
        let prefix = if body.len() < sound.len() {
            format!("prefix of {} bytes, ", body.len())
        } else {
            String::new()
        };
        for m in (0..rounds()).flat_map(|r| TextMutation::cases(rel, body.len(), r)) {
            let input = m.apply(body);
            // `parse_any` reaches the format's own parser only while the damaged text is still
            // detected as that format; otherwise that parser is called directly too.
            let routed = !input[..input.len().min(8192)].contains(&0)
                && detect::detect_text(&text_clean::clean(&input)) == Some(kind);
            let parsers = [("parse_any", via_parse_any as Parser), own];
            let parsers = if routed { &parsers[..1] } else { &parsers[..] };
            check(format!("{prefix}{m:?}"), input, parsers);
        }
    }
    tally
}

/// Runs every fixture the filter picks, prints what was measured and fails with every broken
/// promise.
fn mutate_fixtures(pick: fn(&str) -> bool) -> usize {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let started = Instant::now();
    let mut failures = Vec::new();
    let mut table = String::new();
    let mut cases = 0;
    for rel in report_fixtures().into_iter().filter(|r| pick(r)) {
        let fixture_started = Instant::now();
        let t = mutate_fixture(&rel);
        cases += t.cases;
        let _ = writeln!(
            table,
            "{rel:<40} {:>3} cases {:>3} parses ({:>3} read, {:>3} rejected) {:>6.2?}  sound {:>5.2}x ({:>6} KiB)  worst {:>5.2}x [{}]  slowest {:>6.0?} [{}]  beyond the allowance: {} KiB",
            t.cases,
            t.parses,
            t.read,
            t.rejected,
            fixture_started.elapsed(),
            t.sound_ratio,
            t.sound_peak >> 10,
            t.worst_ratio,
            t.worst_case,
            t.slowest,
            t.slowest_case,
            t.excess >> 10
        );
        failures.extend(t.failures);
    }
    println!("{table}{cases} cases in {:.1?}", started.elapsed());
    for f in &failures {
        println!("FAILED {f}");
    }
    assert!(
        failures.is_empty(),
        "{} broken promise(s), first: {}",
        failures.len(),
        failures[0]
    );
    cases
}

// ---------------------------------------------------------------------------------------------

#[test]
fn fixture_walk_finds_every_report_form() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let all = report_fixtures();
    for ext in [".txt", ".csv", ".ncu-rep.xz", ".txt.xz", ".csv.xz"] {
        assert!(
            all.iter().any(|r| r.ends_with(ext)),
            "no {ext} fixture in {all:?}"
        );
    }
    assert!(all.contains(&"h100/kernels_basic.ncu-rep.xz".to_string()));
    assert!(all.contains(&"seeds/gui_details_copy_a100.txt".to_string()));
    assert!(
        !all.iter()
            .any(|r| r.contains("truth") || r.ends_with("ncu_version.txt"))
    );
    assert!(!all.iter().any(|r| r.ends_with(".md") || r.ends_with(".cu")));
}

/// Whether a run replays a subset (then the case counts are not checked).
fn filtered() -> bool {
    std::env::var("MUTATION_FILTER").is_ok()
}

#[test]
fn damaged_text_fixtures() {
    let cases = mutate_fixtures(|rel| !is_binary_report(rel));
    assert!(cases > 300 || filtered(), "{cases}");
}

#[test]
fn damaged_report_fixtures() {
    let cases = mutate_fixtures(is_binary_report);
    assert!(cases > 150 || filtered(), "{cases}");
}

/// A session page whose dash rule is 256 KiB wide over 2,000 short rows. Each row used to be
/// padded to the rule's width (half a gigabyte in all); now a row costs its own length, and a
/// wrapped value whose trailing blank was trimmed still joins at its word break.
#[test]
fn session_text_under_a_wide_rule() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let rule = format!("----- {}\n", "-".repeat(256 << 10));
    let mut text =
        format!("Session Info\n{rule}Key   Value\n{rule}Cmd   ncu --set\n      full app\n");
    for i in 0..2000 {
        text.push_str(&format!("k{i}    v{i}\n"));
    }
    let report = session::parse(&text).unwrap();
    assert_eq!(report.session.get("Cmd"), Some("ncu --set full app"));
    assert_eq!(report.session.get("k1999"), Some("v1999"));
    assert_eq!(report.session.attributes.len(), 2001);
    drop(report);
    let rel = "session.txt";
    let limit = allowance(rel, text.as_bytes()) + LIVE_FLOOR;
    let (_, measured) = run(text.into_bytes(), via_parse_any).unwrap();
    assert_eq!(measured.outcome, Ok(Ok(0)));
    assert!(
        measured.peak < limit,
        "{} bytes live, limit {limit}",
        measured.peak
    );
}
