//! Matches the results of two reports: a sequence alignment of their launches on kernel keys
//! (signature and launch shape, then signature, then the function's base name), pairs chosen by
//! hand, renames paired where they are unambiguous (one function only the base has and one only
//! the current has, with the same parameters, launch count and places), and notes on what a
//! reader should know (renames suggested, launch counts, loose matches).

use super::alignment::{self, Gap, Launch, Level};
use super::normalize::{KernelIdentity, Specificity, display_name};
use crate::model::{Dim3, KernelResult};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// How a pair was matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    /// Same normalised signature (namespace qualifiers aside, which ncu's exports drop).
    Exact,
    /// Same name, but one side's name carries no parameter list or no template arguments
    /// (a GUI copy or summary against a full report).
    NameOnly,
    /// Same function, different template arguments, in the same place of the launch order.
    TemplateArgs,
    /// A new name for the same kernel: the only function of its parameter list that the base
    /// alone has, against the only one the current alone has, launched as often in the same
    /// places (see [`Rename`]).
    Renamed,
    /// Paired by hand.
    Manual,
}

impl MatchKind {
    /// The name used in exports.
    pub fn name(self) -> &'static str {
        match self {
            MatchKind::Exact => "exact",
            MatchKind::NameOnly => "name_only",
            MatchKind::TemplateArgs => "template_args",
            MatchKind::Renamed => "renamed",
            MatchKind::Manual => "manual",
        }
    }
}

/// One matched pair, by index into each report's results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KernelMatch {
    pub base: usize,
    pub current: usize,
    pub kind: MatchKind,
    /// Both shapes are known and differ.
    pub shape_differs: bool,
    /// What differs between the two launches (`template args changed: <16> → <32>`).
    pub changes: Vec<String>,
}

/// What a [`MatchNote`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NoteKind {
    /// Unmatched kernels that look like one kernel renamed (one note per pair of names).
    PossibleRename,
    /// A kernel launched a different number of times on the two sides.
    LaunchCount,
    /// A pair chosen by hand that could not be used.
    ManualPair,
}

/// Something about the matching a reader should know.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MatchNote {
    pub kind: NoteKind,
    /// The kernel concerned (a display name).
    pub kernel: String,
    pub message: String,
}

/// How renamed kernels are paired: automatically where unambiguous (the default), except the
/// renames the user unpaired; `auto_pair: false` (`--no-auto-pair`) only suggests them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenamePolicy {
    pub auto_pair: bool,
    /// Renames the user unpaired, as (base function, current function): suggested only.
    pub unpaired: Vec<(String, String)>,
}

impl Default for RenamePolicy {
    fn default() -> Self {
        RenamePolicy {
            auto_pair: true,
            unpaired: Vec::new(),
        }
    }
}

/// A kernel paired as renamed: every launch of `base_function` (which only the base has) with
/// every launch of `current_function` (which only the current has).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rename {
    pub base_function: String,
    pub current_function: String,
    /// How many launches were paired (each side has as many).
    pub launches: usize,
    /// What the two have in common (`same parameters`).
    pub reason: String,
}

impl Rename {
    /// The line every surface shows: ``paired as renamed: `naive` → `coalesced`, same
    /// parameters, 2 launches``.
    pub fn label(&self) -> String {
        self.label_with(&|name| format!("`{name}`"), &|text| text.to_string())
    }

    /// [`Rename::label`] with the names quoted by `code` and the other words written by `text`
    /// (Markdown escapes them).
    pub fn label_with(
        &self,
        code: &dyn Fn(&str) -> String,
        text: &dyn Fn(&str) -> String,
    ) -> String {
        format!(
            "{} {} → {}{}",
            text("paired as renamed:"),
            code(&self.base_function),
            code(&self.current_function),
            text(&format!(
                ", {}, {} {}",
                self.reason,
                self.launches,
                if self.launches == 1 {
                    "launch"
                } else {
                    "launches"
                }
            ))
        )
    }

    /// [`Rename::label`] as a sentence of its own (`Paired as renamed: …`).
    pub fn sentence(&self) -> String {
        let label = self.label();
        let mut chars = label.chars();
        chars.next().map_or_else(String::new, |c| {
            c.to_uppercase().chain(chars).collect::<String>()
        })
    }
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
    /// Unmatched pairs that look like one kernel renamed, offered for pairing by hand.
    pub suggested: Vec<SuggestedPair>,
    /// Kernels paired as renamed (their launches are among `pairs`, of kind `Renamed`).
    pub renamed: Vec<Rename>,
}

/// A base and a current result left unmatched that look like one kernel under a new name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SuggestedPair {
    /// Indices into each report's results.
    pub base: usize,
    pub current: usize,
    /// Result IDs, as `--pair` takes them.
    pub base_id: u64,
    pub current_id: u64,
    /// The functions' names (`naive`, `coalesced`).
    pub base_function: String,
    pub current_function: String,
    /// The current kernel's display name.
    pub current_name: String,
    /// What the two have in common (`same parameters`).
    pub reason: String,
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

/// The launches of one report as the alignment sees them. `use_mangled`: key by the mangled
/// name (both reports have one for every result).
fn launches(results: &[KernelResult], use_mangled: bool) -> Vec<Launch> {
    use rayon::prelude::*;
    // Long demangled names are worked out on every core.
    results
        .par_iter()
        .enumerate()
        .map(|(index, r)| launch_of(index, r, use_mangled))
        .collect()
}

/// One result as the alignment sees it.
fn launch_of(index: usize, r: &KernelResult, use_mangled: bool) -> Launch {
    let identity = KernelIdentity::of(r);
    let signature = match r.name.mangled.as_deref() {
        Some(m) if use_mangled => m.trim().to_string(),
        _ => unify_bools(&identity.unqualified),
    };
    Launch {
        index,
        id: r.id,
        signature,
        identity,
        shape: launch_shape(r),
        name: display_name(r).to_string(),
    }
}

/// The pair of two results the user put side by side (a baseline at `base.0` and the selected
/// result at `current.0`), described as `diff` describes its pairs: `Exact` for one
/// signature, `TemplateArgs` for one function with other template arguments; two functions
/// are paired as `pairing` says (how the comparison pairs them, `Renamed` or `Manual`), else
/// `Manual`: the user chose them. The changes say what differs (`name changed: …`,
/// `template args changed: <16> → <32>`, `grid changed: …`, `block changed: …`).
pub fn chosen_pair(
    base: (usize, &KernelResult),
    current: (usize, &KernelResult),
    pairing: Option<MatchKind>,
) -> KernelMatch {
    let (b, c) = (
        launch_of(base.0, base.1, false),
        launch_of(current.0, current.1, false),
    );
    let kind = if b.signature == c.signature {
        MatchKind::Exact
    } else if b.identity.function == c.identity.function {
        MatchKind::TemplateArgs
    } else {
        pairing.unwrap_or(MatchKind::Manual)
    };
    KernelMatch {
        kind,
        ..describe_pair(&b, &c, MatchKind::Manual)
    }
}

fn all_mangled(results: &[KernelResult]) -> bool {
    !results.is_empty()
        && results.iter().all(|r| {
            r.name
                .mangled
                .as_deref()
                .is_some_and(|m| m.starts_with("_Z"))
        })
}

/// `false`/`true` as `0`/`1`: reports demangle `(bool)0` where ncu's exports print `0`.
pub(crate) fn unify_bools(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        out.push_str(match word.as_str() {
            "false" => "0",
            "true" => "1",
            w => w,
        });
        word.clear();
    };
    for ch in s.chars() {
        if ch.is_alphanumeric() || ch == '_' {
            word.push(ch);
        } else {
            flush(&mut word, &mut out);
            out.push(ch);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Matches the results of a base report to those of a current one (renames paired where
/// unambiguous).
pub fn match_results(base: &[KernelResult], current: &[KernelResult]) -> Matching {
    match_results_with(base, current, &[], &RenamePolicy::default())
}

/// Matches the results of two reports, with pairs chosen by hand (`(base index, current
/// index)`) taken as they are; the other results are aligned around them, and renames paired
/// as `renames` says.
pub fn match_results_with(
    base: &[KernelResult],
    current: &[KernelResult],
    manual: &[(usize, usize)],
    renames: &RenamePolicy,
) -> Matching {
    let use_mangled = all_mangled(base) && all_mangled(current);
    let (base_launches, current_launches) = rayon::join(
        || launches(base, use_mangled),
        || launches(current, use_mangled),
    );
    let mut notes = Vec::new();
    let mut pairs = Vec::new();
    let mut base_manual = vec![false; base.len()];
    let mut current_manual = vec![false; current.len()];
    for &(b, c) in manual {
        let (Some(bl), Some(cl)) = (base_launches.get(b), current_launches.get(c)) else {
            notes.push(MatchNote {
                kind: NoteKind::ManualPair,
                kernel: String::new(),
                message: format!("manual pair {b}={c} names a result that does not exist"),
            });
            continue;
        };
        if base_manual[b] || current_manual[c] {
            notes.push(MatchNote {
                kind: NoteKind::ManualPair,
                kernel: cl.name.clone(),
                message: format!("manual pair {}={} repeats a result; ignored", bl.id, cl.id),
            });
            continue;
        }
        base_manual[b] = true;
        current_manual[c] = true;
        pairs.push(describe_pair(bl, cl, MatchKind::Manual));
    }
    let free_base: Vec<Launch> = base_launches
        .iter()
        .filter(|l| !base_manual[l.index])
        .cloned()
        .collect();
    let free_current: Vec<Launch> = current_launches
        .iter()
        .filter(|l| !current_manual[l.index])
        .cloned()
        .collect();
    let aligned = alignment::align(&free_base, &free_current);
    for p in &aligned.pairs {
        let (b, c) = (&free_base[p.base], &free_current[p.current]);
        let kind = match p.level {
            Level::SignatureAndShape | Level::Signature => MatchKind::Exact,
            Level::Function => {
                let loose = b.identity.specificity < Specificity::Templated
                    || c.identity.specificity < Specificity::Templated;
                match (b.template_args(), c.template_args()) {
                    (Some(x), Some(y)) if x != y && !loose => MatchKind::TemplateArgs,
                    _ => MatchKind::NameOnly,
                }
            }
        };
        pairs.push(describe_pair(b, c, kind));
    }
    let (renamed_pairs, renamed) = if renames.auto_pair {
        pair_renames(
            &aligned.gaps,
            (&free_base, &free_current),
            (&base_launches, &current_launches),
            &renames.unpaired,
        )
    } else {
        (Vec::new(), Vec::new())
    };
    let (mut paired_base, mut paired_current) = (BTreeSet::new(), BTreeSet::new());
    for &(i, j) in &renamed_pairs {
        pairs.push(describe_pair(
            &free_base[i],
            &free_current[j],
            MatchKind::Renamed,
        ));
        paired_base.insert(i);
        paired_current.insert(j);
    }
    pairs.sort_by_key(|p| (p.current, p.base));
    let mut only_in_base = Vec::new();
    let mut only_in_current = Vec::new();
    let mut suggested = Vec::new();
    for gap in &aligned.gaps {
        let gap = Gap {
            base: gap
                .base
                .iter()
                .copied()
                .filter(|i| !paired_base.contains(i))
                .collect(),
            current: gap
                .current
                .iter()
                .copied()
                .filter(|j| !paired_current.contains(j))
                .collect(),
        };
        only_in_base.extend(gap.base.iter().map(|&i| free_base[i].index));
        only_in_current.extend(gap.current.iter().map(|&j| free_current[j].index));
        suggested.extend(suggest_renames(&gap, &free_base, &free_current));
    }
    only_in_base.sort_unstable();
    only_in_current.sort_unstable();
    notes.extend(rename_notes(&suggested));
    note_counts(&base_launches, &current_launches, &pairs, &mut notes);
    Matching {
        pairs,
        only_in_base,
        only_in_current,
        notes,
        suggested,
        renamed,
    }
}

/// Each function's launch count and the parameter lists its launches have.
fn functions(launches: &[Launch]) -> BTreeMap<&str, (usize, BTreeSet<Option<&str>>)> {
    let mut out: BTreeMap<&str, (usize, BTreeSet<Option<&str>>)> = BTreeMap::new();
    for l in launches {
        let e = out.entry(l.identity.function.as_str()).or_default();
        e.0 += 1;
        e.1.insert(l.parameters());
    }
    out
}

/// The renames that are unambiguous, paired launch by launch (positions into the free launch
/// lists), and what each is. A rename is paired when, of the functions only the base has and
/// those only the current has, exactly one on each side has a given parameter list (the
/// normalised one: `const` and spacing aside), both are launched as often, each gap of the
/// alignment holds as many launches of one as of the other (they sit in the same places), and
/// the user did not unpair them. Anything less certain (two candidates, other parameters, the
/// same grid alone) stays a suggestion.
fn pair_renames(
    gaps: &[Gap],
    (base, current): (&[Launch], &[Launch]),
    (all_base, all_current): (&[Launch], &[Launch]),
    unpaired: &[(String, String)],
) -> (Vec<(usize, usize)>, Vec<Rename>) {
    let (in_base, in_current) = (functions(all_base), functions(all_current));
    // Functions one side alone has, by their one parameter list.
    let mut by_parameters: BTreeMap<&str, (Vec<&str>, Vec<&str>)> = BTreeMap::new();
    for (function, (_, params)) in &in_base {
        if !in_current.contains_key(function)
            && let [Some(p)] = params.iter().copied().collect::<Vec<_>>().as_slice()
        {
            by_parameters.entry(p).or_default().0.push(function);
        }
    }
    for (function, (_, params)) in &in_current {
        if !in_base.contains_key(function)
            && let [Some(p)] = params.iter().copied().collect::<Vec<_>>().as_slice()
        {
            by_parameters.entry(p).or_default().1.push(function);
        }
    }
    let mut pairs = Vec::new();
    let mut renames = Vec::new();
    for (bs, cs) in by_parameters.values() {
        let ([bf], [cf]) = (bs.as_slice(), cs.as_slice()) else {
            continue;
        };
        let count = in_base.get(bf).map_or(0, |e| e.0);
        if count != in_current.get(cf).map_or(0, |e| e.0)
            || unpaired.iter().any(|(b, c)| b == bf && c == cf)
        {
            continue;
        }
        let mut these = Vec::new();
        let same_places = gaps.iter().all(|gap| {
            let of = |ids: &[usize], ls: &[Launch], f: &str| -> Vec<usize> {
                ids.iter()
                    .copied()
                    .filter(|&i| ls[i].identity.function == f)
                    .collect()
            };
            let (gb, gc) = (of(&gap.base, base, bf), of(&gap.current, current, cf));
            these.extend(gb.iter().copied().zip(gc.iter().copied()));
            gb.len() == gc.len()
        });
        // Every launch must be in a gap: one paired by hand is not a rename of the others.
        if !same_places || these.len() != count {
            continue;
        }
        let same_shape = these
            .iter()
            .all(|&(i, j)| base[i].shape == current[j].shape);
        renames.push(Rename {
            base_function: bf.to_string(),
            current_function: cf.to_string(),
            launches: count,
            reason: if same_shape {
                "same parameters and launch shape"
            } else {
                "same parameters"
            }
            .to_string(),
        });
        pairs.extend(these);
    }
    (pairs, renames)
}

/// A pair with what differs between its two launches spelled out.
fn describe_pair(b: &Launch, c: &Launch, kind: MatchKind) -> KernelMatch {
    let mut changes = Vec::new();
    if b.identity.function != c.identity.function {
        changes.push(format!(
            "name changed: {} → {}",
            b.identity.function, c.identity.function
        ));
    }
    if kind == MatchKind::TemplateArgs
        || (kind == MatchKind::Manual
            && b.template_args().is_some()
            && c.template_args().is_some()
            && b.template_args() != c.template_args())
    {
        changes.push(format!(
            "template args changed: {} → {}",
            b.template_args().unwrap_or(""),
            c.template_args().unwrap_or("")
        ));
    }
    let shape_differs = matches!((b.shape, c.shape), (Some(x), Some(y)) if x != y);
    if let (Some((bg, bb)), Some((cg, cb))) = (b.shape, c.shape) {
        if bg != cg {
            changes.push(format!("grid changed: {bg} → {cg}"));
        }
        if bb != cb {
            changes.push(format!("block changed: {bb} → {cb}"));
        }
    }
    if kind == MatchKind::NameOnly {
        changes.push(format!("matched by name only: `{}` → `{}`", b.name, c.name));
    }
    KernelMatch {
        base: b.index,
        current: c.index,
        kind,
        shape_differs,
        changes,
    }
}

/// Unpaired launches of one gap that look like one kernel renamed: a new name with the same
/// parameter list, or with the same grid and threads per block (a rewrite may reshape its
/// block). Where both sides of the gap have as many launches, the launches at the same places
/// are suggested; otherwise a base launch with exactly one such partner, which has no other.
/// They are suggested, never paired: a renamed kernel and a removed one plus an added one
/// read the same.
fn suggest_renames(gap: &Gap, base: &[Launch], current: &[Launch]) -> Vec<SuggestedPair> {
    let fits = |b: &Launch, c: &Launch| {
        let same_parameters = b.parameters().is_some() && b.parameters() == c.parameters();
        let same_work = match (b.shape, c.shape) {
            (Some((bg, bb)), Some((cg, cb))) => bg == cg && bb.product() == cb.product(),
            _ => false,
        };
        b.identity.function != c.identity.function && (same_parameters || same_work)
    };
    let suggest = |b: &Launch, c: &Launch| {
        let same_parameters = b.parameters().is_some() && b.parameters() == c.parameters();
        let reason = match (same_parameters, b.shape == c.shape) {
            (true, true) => "same parameters and launch shape",
            (true, false) => "same parameters",
            (false, _) => "same grid and threads per block",
        };
        SuggestedPair {
            base: b.index,
            current: c.index,
            base_id: b.id,
            current_id: c.id,
            base_function: b.identity.function.clone(),
            current_function: c.identity.function.clone(),
            current_name: c.name.clone(),
            reason: reason.to_string(),
        }
    };
    if gap.base.len() == gap.current.len() {
        return gap
            .base
            .iter()
            .zip(&gap.current)
            .map(|(&bi, &cj)| (&base[bi], &current[cj]))
            .filter(|(b, c)| fits(b, c))
            .map(|(b, c)| suggest(b, c))
            .collect();
    }
    let mut out = Vec::new();
    for &bi in &gap.base {
        let b = &base[bi];
        let candidates: Vec<&Launch> = gap
            .current
            .iter()
            .map(|&j| &current[j])
            .filter(|c| fits(b, c))
            .collect();
        let [c] = candidates.as_slice() else {
            continue;
        };
        let rivals = gap.base.iter().filter(|&&i| fits(&base[i], c)).count();
        if rivals == 1 {
            out.push(suggest(b, c));
        }
    }
    out
}

/// The suggested pairs grouped by pair of names (and reason), in the order they first come:
/// the launches of one renamed kernel are one group, its first pair standing for them all.
pub fn group_suggestions(suggested: &[SuggestedPair]) -> Vec<Vec<&SuggestedPair>> {
    fn key(p: &SuggestedPair) -> (&str, &str, &str) {
        (&p.base_function, &p.current_function, &p.reason)
    }
    let mut groups: Vec<Vec<&SuggestedPair>> = Vec::new();
    for s in suggested {
        match groups.iter_mut().find(|g| key(g[0]) == key(s)) {
            Some(g) => g.push(s),
            None => groups.push(vec![s]),
        }
    }
    groups
}

/// The notes the suggested pairs give: one per pair of names, with its launches.
fn rename_notes(suggested: &[SuggestedPair]) -> Vec<MatchNote> {
    group_suggestions(suggested)
        .into_iter()
        .map(|all| {
            let s = all[0];
            let ids = |f: fn(&SuggestedPair) -> u64| {
                all.iter()
                    .map(|p| f(p).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let pairs: Vec<String> = all
                .iter()
                .map(|p| format!("{}={}", p.base_id, p.current_id))
                .collect();
            let launches = if all.len() == 1 {
                String::new()
            } else {
                format!(", {} launches", all.len())
            };
            MatchNote {
                kind: NoteKind::PossibleRename,
                kernel: s.current_name.clone(),
                message: format!(
                    "possibly renamed: `{}` (base {}) → `{}` (current {}): {}{launches}; pair \
                     them by hand ({}) to compare",
                    s.base_function,
                    ids(|p| p.base_id),
                    s.current_function,
                    ids(|p| p.current_id),
                    s.reason,
                    pairs.join(",")
                ),
            }
        })
        .collect()
}

/// The `--pair` argument that pairs `suggested` by hand (`--pair 7=7,8=8`).
pub fn pair_argument(suggested: &[SuggestedPair]) -> String {
    let list: Vec<String> = suggested
        .iter()
        .map(|s| format!("{}={}", s.base_id, s.current_id))
        .collect();
    format!("--pair {}", list.join(","))
}

/// Kernels launched a different number of times on the two sides.
fn note_counts(
    base: &[Launch],
    current: &[Launch],
    pairs: &[KernelMatch],
    notes: &mut Vec<MatchNote>,
) {
    let mut counts: BTreeMap<&str, (usize, usize, usize, &str)> = BTreeMap::new();
    for l in base {
        counts
            .entry(&l.identity.function)
            .or_insert((0, 0, 0, &l.name))
            .0 += 1;
    }
    for l in current {
        let e = counts
            .entry(&l.identity.function)
            .or_insert((0, 0, 0, &l.name));
        e.1 += 1;
        e.3 = &l.name;
    }
    for p in pairs {
        if let Some(l) = current.get(p.current)
            && let Some(e) = counts.get_mut(l.identity.function.as_str())
        {
            e.2 += 1;
        }
    }
    for (b, c, paired, name) in counts.values() {
        if *b > 0 && *c > 0 && b != c {
            notes.push(MatchNote {
                kind: NoteKind::LaunchCount,
                kernel: name.to_string(),
                message: format!(
                    "launched {b} times in base and {c} times in current; {paired} launches paired"
                ),
            });
        }
    }
}

#[cfg(test)]
#[path = "matching_tests.rs"]
mod tests;
