//! Text mutations: cut short, bytes changed, numbers made huge, an enormous field, rules
//! widened, lines repeated, dropped and shuffled.

use crate::ENORMOUS;
use crate::fixtures::seed_for;
use sightline_testkit::XorShift;
use std::ops::Range;

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
pub(crate) enum TextMutation {
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
    pub(crate) fn cases(rel: &str, len: usize, round: usize) -> Vec<TextMutation> {
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
    pub(crate) fn apply(&self, text: &[u8]) -> Vec<u8> {
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
                        _ => rng.next_u64() as u8,
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
pub(crate) fn text_prefix(text: &[u8], size: usize) -> &[u8] {
    if text.len() <= size {
        return text;
    }
    let end = text[..size]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(size, |p| p + 1);
    &text[..end]
}
