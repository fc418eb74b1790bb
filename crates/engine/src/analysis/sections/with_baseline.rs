//! The results of a report each with its baseline result (matched as `diff` matches them),
//! worked on a window at a time on every core: what `sections --baseline` writes is made
//! from them.

use crate::analysis::compare::matching::match_results;
use crate::analysis::parallel::window_len;
use crate::model::Report;
use rayon::prelude::*;

/// Runs `work(base, current, index, base index)` on every result of `current` with its
/// baseline result (matched as `diff` matches them), a window at a time on every core, and
/// hands the outcomes to `each` in order; the bodies a window decoded on either side are
/// released before the next.
pub fn map_with_baseline<T: Send>(
    base: &mut Report,
    current: &mut Report,
    work: impl Fn(&Report, &Report, usize, Option<usize>) -> T + Sync,
    mut each: impl FnMut(T) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let matching = match_results(&base.results, &current.results);
    // The first pair of each current result, as `Matching::base_of` finds it.
    let mut base_of: Vec<Option<usize>> = vec![None; current.results.len()];
    for p in &matching.pairs {
        if let Some(slot) = base_of.get_mut(p.current)
            && slot.is_none()
        {
            *slot = Some(p.base);
        }
    }
    drop(matching);
    let window = window_len();
    let mut start = 0;
    while start < base_of.len() {
        let end = (start + window).min(base_of.len());
        let (b, c): (&Report, &Report) = (base, current);
        let done: Vec<T> = (start..end)
            .into_par_iter()
            .map(|i| work(b, c, i, base_of[i]))
            .collect();
        base.release_bodies(0);
        current.release_bodies(0);
        for t in done {
            each(t)?;
        }
        start = end;
    }
    Ok(())
}
