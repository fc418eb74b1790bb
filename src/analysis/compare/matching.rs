//! Matches the results of two reports: by normalised kernel name, then by launch order among
//! equal names with grid/block shapes breaking ties. Ambiguities are reported, not hidden.

use super::normalize::{KernelIdentity, Specificity, display_name};
use crate::model::{Dim3, KernelResult};
use serde::Serialize;
use std::collections::BTreeMap;

/// Largest launch-order alignment table (base launches × current launches of one kernel) that
/// is computed exactly; larger groups are paired in launch order.
const MAX_ALIGNMENT_CELLS: usize = 4_000_000;

/// How a pair was matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    /// Same normalised signature (namespace qualifiers aside, which ncu's exports drop).
    Exact,
    /// Same name, but one side's name carries no parameter list or no template arguments
    /// (a GUI copy or summary against a full report).
    NameOnly,
}

/// One matched pair, by index into each report's results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KernelMatch {
    pub base: usize,
    pub current: usize,
    pub kind: MatchKind,
    /// Both shapes are known and differ.
    pub shape_differs: bool,
}

/// Something about the matching a reader should know.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MatchNote {
    /// The kernel concerned (a display name).
    pub kernel: String,
    pub message: String,
}

/// The matching of two result lists.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Matching {
    /// Pairs in the current report's launch order.
    pub pairs: Vec<KernelMatch>,
    /// Base results with no partner, in launch order.
    pub only_in_base: Vec<usize>,
    /// Current results with no partner, in launch order.
    pub only_in_current: Vec<usize>,
    /// Ambiguities: different launch counts, grid/block mismatches, loose name matches.
    pub notes: Vec<MatchNote>,
}

impl Matching {
    /// The current index matched to a base index.
    pub fn current_of(&self, base: usize) -> Option<usize> {
        self.pairs
            .iter()
            .find(|p| p.base == base)
            .map(|p| p.current)
    }

    /// The base index matched to a current index.
    pub fn base_of(&self, current: usize) -> Option<usize> {
        self.pairs
            .iter()
            .find(|p| p.current == current)
            .map(|p| p.base)
    }
}

/// The grid and block of a launch, from the result or its `launch__*` metrics.
pub fn launch_shape(result: &KernelResult) -> Option<(Dim3, Dim3)> {
    let dim = |prefix: &str| -> Option<Dim3> {
        let get = |axis: &str| {
            result
                .number(&format!("launch__{prefix}_dim_{axis}"))
                .filter(|v| v.is_finite() && *v >= 0.0)
                .map(|v| v as u64)
        };
        Some(Dim3 {
            x: get("x")?,
            y: get("y")?,
            z: get("z")?,
        })
    };
    let grid = result.grid.or_else(|| dim("grid"))?;
    let block = result.block.or_else(|| dim("block"))?;
    Some((grid, block))
}

struct Entry {
    index: usize,
    identity: KernelIdentity,
    shape: Option<(Dim3, Dim3)>,
    name: String,
}

fn entries(results: &[KernelResult]) -> Vec<Entry> {
    results
        .iter()
        .enumerate()
        .map(|(index, r)| Entry {
            index,
            identity: KernelIdentity::of(r),
            shape: launch_shape(r),
            name: display_name(r).to_string(),
        })
        .collect()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Full,
    Unqualified,
    Base,
    Function,
}

impl Level {
    fn key(self, id: &KernelIdentity) -> &str {
        match self {
            Level::Full => &id.full,
            Level::Unqualified => &id.unqualified,
            Level::Base => &id.base,
            Level::Function => &id.function,
        }
    }

    /// Whether a group may be matched at this level: looser levels only apply when a side's
    /// name says too little to match at the stricter one.
    fn applies(self, base: &[&Entry], current: &[&Entry]) -> bool {
        let least = |g: &[&Entry]| g.iter().map(|e| e.identity.specificity).min();
        let (Some(b), Some(c)) = (least(base), least(current)) else {
            return false;
        };
        match self {
            Level::Full | Level::Unqualified => true,
            Level::Base => b < Specificity::Full || c < Specificity::Full,
            Level::Function => b == Specificity::Bare || c == Specificity::Bare,
        }
    }
}

/// Matches the results of a base report to those of a current one.
pub fn match_results(base: &[KernelResult], current: &[KernelResult]) -> Matching {
    let base_entries = entries(base);
    let current_entries = entries(current);
    let mut base_taken = vec![false; base.len()];
    let mut current_taken = vec![false; current.len()];
    let mut pairs = Vec::new();
    let mut notes = Vec::new();
    for level in [
        Level::Full,
        Level::Unqualified,
        Level::Base,
        Level::Function,
    ] {
        let mut groups: BTreeMap<&str, (Vec<&Entry>, Vec<&Entry>)> = BTreeMap::new();
        for e in base_entries.iter().filter(|e| !base_taken[e.index]) {
            groups.entry(level.key(&e.identity)).or_default().0.push(e);
        }
        for e in current_entries.iter().filter(|e| !current_taken[e.index]) {
            groups.entry(level.key(&e.identity)).or_default().1.push(e);
        }
        for (b, c) in groups.values() {
            if b.is_empty() || c.is_empty() || !level.applies(b, c) {
                continue;
            }
            let kind = if matches!(level, Level::Full | Level::Unqualified) {
                MatchKind::Exact
            } else {
                MatchKind::NameOnly
            };
            let found = align_group(b, c, kind);
            note_group(b, c, &found, level, &mut notes);
            for p in found {
                base_taken[p.base] = true;
                current_taken[p.current] = true;
                pairs.push(p);
            }
        }
    }
    pairs.sort_by_key(|p| (p.current, p.base));
    let only_in_base = (0..base.len()).filter(|&i| !base_taken[i]).collect();
    let only_in_current = (0..current.len()).filter(|&i| !current_taken[i]).collect();
    Matching {
        pairs,
        only_in_base,
        only_in_current,
        notes,
    }
}

fn same_shape(a: &Entry, b: &Entry) -> bool {
    match (a.shape, b.shape) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    }
}

fn shapes_differ(a: &Entry, b: &Entry) -> bool {
    !same_shape(a, b)
}

/// Pairs the launches of one kernel: the longest order-preserving run of equal shapes first,
/// then the launches between those anchors in order.
fn align_group(base: &[&Entry], current: &[&Entry], kind: MatchKind) -> Vec<KernelMatch> {
    let pair = |b: &Entry, c: &Entry| KernelMatch {
        base: b.index,
        current: c.index,
        kind,
        shape_differs: shapes_differ(b, c),
    };
    let (n, m) = (base.len(), current.len());
    let cells = (n + 1).saturating_mul(m + 1);
    if cells > MAX_ALIGNMENT_CELLS {
        return base.iter().zip(current).map(|(b, c)| pair(b, c)).collect();
    }
    // lcs[i][j]: longest run of equal shapes in base[i..] and current[j..].
    let width = m + 1;
    let mut lcs = vec![0u32; cells];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i * width + j] = if same_shape(base[i], current[j]) {
                lcs[(i + 1) * width + j + 1] + 1
            } else {
                lcs[(i + 1) * width + j].max(lcs[i * width + j + 1])
            };
        }
    }
    let mut anchors = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if same_shape(base[i], current[j]) && lcs[i * width + j] == lcs[(i + 1) * width + j + 1] + 1
        {
            anchors.push((i, j));
            i += 1;
            j += 1;
        } else if lcs[(i + 1) * width + j] >= lcs[i * width + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    let mut out = Vec::new();
    let (mut bi, mut cj) = (0, 0);
    for &(ai, aj) in anchors.iter().chain(std::iter::once(&(n, m))) {
        // Launches between two anchors: pair them in order.
        for (b, c) in base[bi..ai].iter().zip(&current[cj..aj]) {
            out.push(pair(b, c));
        }
        if ai < n && aj < m {
            out.push(pair(base[ai], current[aj]));
        }
        bi = ai + 1;
        cj = aj + 1;
    }
    out
}

fn note_group(
    base: &[&Entry],
    current: &[&Entry],
    found: &[KernelMatch],
    level: Level,
    notes: &mut Vec<MatchNote>,
) {
    let kernel = current
        .first()
        .or(base.first())
        .map(|e| e.name.clone())
        .unwrap_or_default();
    if !matches!(level, Level::Full | Level::Unqualified) {
        let (b, c) = (&base[0].name, &current[0].name);
        notes.push(MatchNote {
            kernel: kernel.clone(),
            message: format!("matched by name only: `{b}` in base, `{c}` in current"),
        });
    }
    if base.len() != current.len() {
        notes.push(MatchNote {
            kernel: kernel.clone(),
            message: format!(
                "launched {} times in base and {} times in current; {} launches paired",
                base.len(),
                current.len(),
                found.len()
            ),
        });
    }
    let mismatched = found.iter().filter(|p| p.shape_differs).count();
    if mismatched > 0 {
        let example = found.iter().find(|p| p.shape_differs).and_then(|p| {
            let b = base.iter().find(|e| e.index == p.base)?.shape?;
            let c = current.iter().find(|e| e.index == p.current)?.shape?;
            Some(format!(" (e.g. {}x{} against {}x{})", b.0, b.1, c.0, c.1))
        });
        notes.push(MatchNote {
            kernel,
            message: format!(
                "{mismatched} matched launch(es) differ in grid/block{}",
                example.unwrap_or_default()
            ),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::KernelName;

    fn launch(id: u64, name: &str, grid: u64) -> KernelResult {
        KernelResult {
            id,
            name: KernelName::from_demangled(name),
            grid: Some(Dim3 {
                x: grid,
                y: 1,
                z: 1,
            }),
            block: Some(Dim3 { x: 256, y: 1, z: 1 }),
            ..KernelResult::default()
        }
    }

    #[test]
    fn equal_names_pair_in_order_and_shapes_break_ties() {
        let base = vec![
            launch(0, "a(int)", 1),
            launch(1, "b(int)", 8),
            launch(2, "a(int)", 2),
            launch(3, "a(int)", 3),
        ];
        // The first launch of `a` is gone; shapes say which of the remaining ones pair.
        let current = vec![
            launch(0, "b(int)", 8),
            launch(1, "a(int)", 2),
            launch(2, "a(int)", 3),
        ];
        let m = match_results(&base, &current);
        let pairs: Vec<(usize, usize)> = m.pairs.iter().map(|p| (p.base, p.current)).collect();
        assert_eq!(pairs, vec![(1, 0), (2, 1), (3, 2)]);
        assert_eq!(m.only_in_base, vec![0]);
        assert!(m.only_in_current.is_empty());
        assert_eq!(m.notes.len(), 1);
        assert!(m.notes[0].message.contains("3 times in base and 2 times"));
    }

    #[test]
    fn shape_mismatch_is_reported() {
        let base = vec![launch(0, "a(int)", 1)];
        let current = vec![launch(0, "void a(int)", 4)];
        let m = match_results(&base, &current);
        assert_eq!(m.pairs.len(), 1);
        assert!(m.pairs[0].shape_differs);
        assert!(m.notes[0].message.contains("grid/block"));
    }

    #[test]
    fn bare_names_match_full_signatures_loosely() {
        let base = vec![launch(0, "convolutionConstantKernel", 1)];
        let current = vec![
            launch(
                0,
                "convolutionConstantKernel(const float *, float *, int, int, int)",
                1,
            ),
            launch(1, "matmul_tiled<64>(float *)", 1),
        ];
        let m = match_results(&base, &current);
        assert_eq!(m.pairs.len(), 1);
        assert_eq!(m.pairs[0].kind, MatchKind::NameOnly);
        assert_eq!(m.only_in_current, vec![1]);
        // Different template arguments are different kernels.
        let m = match_results(
            &[launch(0, "matmul_tiled<32>(float *)", 1)],
            &[launch(0, "matmul_tiled<64>(float *)", 1)],
        );
        assert!(m.pairs.is_empty());
    }
}
