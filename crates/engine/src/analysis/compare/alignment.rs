//! Pairs two launch sequences by sequence alignment on kernel keys, so that launches inserted or
//! removed on one side leave every other pair in place.
//!
//! Three keys, from strict to loose, are aligned in turn: the signature with the launch shape,
//! the signature alone, and the function's base name. Each looser key only aligns what the
//! stricter ones left between two of their pairs (a "gap"), so a kernel whose template
//! arguments or grid changed is paired with its old self only where it sits in the same place.

use super::normalize::{KernelIdentity, Specificity};
use crate::model::Dim3;
use similar::{Algorithm, DiffTag};
use std::time::{Duration, Instant};

/// How long one alignment may search for the shortest edit script before it settles for a
/// good one (only reached by very long, very different sequences).
const ALIGNMENT_DEADLINE: Duration = Duration::from_secs(2);

/// One launch as the alignment sees it.
#[derive(Debug, Clone)]
pub struct Launch {
    /// Index into its report's results.
    pub index: usize,
    /// The result ID the source gives.
    pub id: u64,
    pub identity: KernelIdentity,
    /// The strict key: the mangled name where both reports have one for every launch, else
    /// the normalised signature without namespace qualifiers.
    pub signature: String,
    pub shape: Option<(Dim3, Dim3)>,
    /// The name to show.
    pub name: String,
}

impl Launch {
    /// Template arguments as the normalised name spells them (`<16>`), if any.
    pub fn template_args(&self) -> Option<&str> {
        let base = &self.identity.base;
        let start = base.find('<')?;
        Some(&base[start..])
    }

    /// The normalised parameter list (`(float*,int,int)`), if the name has one.
    pub fn parameters(&self) -> Option<&str> {
        let u = &self.identity.unqualified;
        (self.identity.specificity == Specificity::Full).then(|| &u[self.identity.base.len()..])
    }
}

/// The key level a pair was found at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Same signature and launch shape.
    SignatureAndShape,
    /// Same signature, different (or unknown) launch shape.
    Signature,
    /// Same function base name only.
    Function,
}

impl Level {
    fn next(self) -> Option<Level> {
        match self {
            Level::SignatureAndShape => Some(Level::Signature),
            Level::Signature => Some(Level::Function),
            Level::Function => None,
        }
    }

    fn key(self, l: &Launch) -> String {
        match self {
            Level::SignatureAndShape => match l.shape {
                Some((g, b)) => format!("{}|{g}x{b}", l.signature),
                None => format!("{}|?", l.signature),
            },
            Level::Signature => l.signature.clone(),
            Level::Function => l.identity.function.clone(),
        }
    }
}

/// A pair the alignment found, by position in the launch lists it was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlignedPair {
    pub base: usize,
    pub current: usize,
    pub level: Level,
}

/// Launches the alignment could not pair, between the same two pairs: what was removed and
/// added there.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Gap {
    pub base: Vec<usize>,
    pub current: Vec<usize>,
}

/// The outcome of an alignment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Alignment {
    /// Pairs in launch order.
    pub pairs: Vec<AlignedPair>,
    /// Unpaired launches, gap by gap in launch order.
    pub gaps: Vec<Gap>,
}

/// Aligns two launch sequences (positions into `base` and `current`).
pub fn align(base: &[Launch], current: &[Launch]) -> Alignment {
    let b: Vec<usize> = (0..base.len()).collect();
    let c: Vec<usize> = (0..current.len()).collect();
    let mut out = Alignment::default();
    let deadline = Instant::now() + ALIGNMENT_DEADLINE;
    align_level(
        base,
        current,
        &b,
        &c,
        Level::SignatureAndShape,
        deadline,
        &mut out,
    );
    out.pairs.sort_by_key(|p| (p.current, p.base));
    out
}

fn align_level(
    base: &[Launch],
    current: &[Launch],
    b: &[usize],
    c: &[usize],
    level: Level,
    deadline: Instant,
    out: &mut Alignment,
) {
    if b.is_empty() || c.is_empty() {
        if !b.is_empty() || !c.is_empty() {
            out.gaps.push(Gap {
                base: b.to_vec(),
                current: c.to_vec(),
            });
        }
        return;
    }
    let bk: Vec<String> = b.iter().map(|&i| level.key(&base[i])).collect();
    let ck: Vec<String> = c.iter().map(|&i| level.key(&current[i])).collect();
    let ops = similar::capture_diff_slices_deadline(Algorithm::Patience, &bk, &ck, Some(deadline));
    let (mut gap_b, mut gap_c): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    let flush = |gap_b: &mut Vec<usize>, gap_c: &mut Vec<usize>, out: &mut Alignment| {
        let (gb, gc) = (std::mem::take(gap_b), std::mem::take(gap_c));
        match level.next() {
            Some(next) => align_level(base, current, &gb, &gc, next, deadline, out),
            None if gb.is_empty() && gc.is_empty() => {}
            None => out.gaps.push(Gap {
                base: gb,
                current: gc,
            }),
        }
    };
    for op in ops {
        let (tag, old, new) = op.as_tag_tuple();
        match tag {
            DiffTag::Equal => {
                flush(&mut gap_b, &mut gap_c, out);
                for (i, j) in old.zip(new) {
                    out.pairs.push(AlignedPair {
                        base: b[i],
                        current: c[j],
                        level,
                    });
                }
            }
            _ => {
                gap_b.extend(old.map(|i| b[i]));
                gap_c.extend(new.map(|j| c[j]));
            }
        }
    }
    flush(&mut gap_b, &mut gap_c, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn launch(index: usize, name: &str, grid: u64) -> Launch {
        let identity = KernelIdentity::from_name(name);
        Launch {
            index,
            id: index as u64,
            signature: identity.unqualified.clone(),
            identity,
            shape: Some((
                Dim3 {
                    x: grid,
                    y: 1,
                    z: 1,
                },
                Dim3 { x: 256, y: 1, z: 1 },
            )),
            name: name.into(),
        }
    }

    fn seq(names: &[(&str, u64)]) -> Vec<Launch> {
        names
            .iter()
            .enumerate()
            .map(|(i, (n, g))| launch(i, n, *g))
            .collect()
    }

    fn pairs(a: &Alignment) -> Vec<(usize, usize, Level)> {
        a.pairs
            .iter()
            .map(|p| (p.base, p.current, p.level))
            .collect()
    }

    #[test]
    fn insertions_and_deletions_stay_local() {
        let base = seq(&[("a(int)", 1), ("b(int)", 1), ("a(int)", 1), ("c(int)", 1)]);
        let current = seq(&[("b(int)", 1), ("a(int)", 1), ("d(int)", 1), ("c(int)", 1)]);
        let a = align(&base, &current);
        use Level::SignatureAndShape as S;
        assert_eq!(pairs(&a), vec![(1, 0, S), (2, 1, S), (3, 3, S)]);
        assert_eq!(
            a.gaps,
            vec![
                Gap {
                    base: vec![0],
                    current: vec![]
                },
                Gap {
                    base: vec![],
                    current: vec![2]
                }
            ]
        );
    }

    #[test]
    fn looser_keys_pair_inside_gaps_only() {
        let base = seq(&[("k<16>(int)", 64), ("r(int)", 1024), ("x(int)", 1)]);
        let current = seq(&[("k<32>(int)", 32), ("r(int)", 4096), ("x(int)", 1)]);
        let a = align(&base, &current);
        assert_eq!(
            pairs(&a),
            vec![
                (0, 0, Level::Function),
                (1, 1, Level::Signature),
                (2, 2, Level::SignatureAndShape)
            ]
        );
        assert!(a.gaps.is_empty());
        assert_eq!(base[0].template_args(), Some("<16>"));
        assert_eq!(base[0].parameters(), Some("(int)"));
    }
}
