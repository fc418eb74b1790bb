//! The CUDA lines of the compared results (their Source views without disassembly), read once
//! for the why-list's line links and kept while the open reports stay the same: building the
//! comparison again (another noise threshold, the same pair shown again) reads no code.

use crate::core::ids::ResultRef;
use crate::model::source::SourceView;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// Most results whose lines are kept; past it the cache starts over.
const KEPT: usize = 16;

/// The lines of results by place, shared by the page and its builds (clones share one cache).
pub struct LinesCache<T = SourceView> {
    kept: Arc<Mutex<Kept<T>>>,
    reads: Arc<AtomicU64>,
}

impl<T> Clone for LinesCache<T> {
    fn clone(&self) -> Self {
        LinesCache {
            kept: Arc::clone(&self.kept),
            reads: Arc::clone(&self.reads),
        }
    }
}

impl<T> Default for LinesCache<T> {
    fn default() -> Self {
        LinesCache {
            kept: Arc::new(Mutex::new(Kept {
                generation: 0,
                lines: HashMap::new(),
            })),
            reads: Arc::default(),
        }
    }
}

struct Kept<T> {
    /// The workspace generation the places belong to.
    generation: u64,
    /// The lines of each result, `None` where it has none (no `.ncu-rep`, no per-line metrics).
    lines: HashMap<ResultRef, Option<Arc<T>>>,
}

impl<T> LinesCache<T> {
    /// The lines of the result at `at` in `generation`: kept ones, else `read` (once per result
    /// and generation, outside the lock).
    pub fn get_or_read(
        &self,
        generation: u64,
        at: ResultRef,
        read: impl FnOnce() -> Option<T>,
    ) -> Option<Arc<T>> {
        {
            let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
            if kept.generation == generation
                && let Some(lines) = kept.lines.get(&at)
            {
                return lines.clone();
            }
        }
        self.reads.fetch_add(1, Ordering::Relaxed);
        let lines = read().map(Arc::new);
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.generation != generation || kept.lines.len() >= KEPT {
            kept.lines.clear();
            kept.generation = generation;
        }
        kept.lines.insert(at, lines.clone());
        lines
    }

    /// How many results' lines were read so far.
    pub fn reads(&self) -> u64 {
        self.reads.load(Ordering::Relaxed)
    }

    /// Forgets every result's lines (the reports were closed or replaced).
    pub fn clear(&self) {
        self.kept
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .lines
            .clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::ids::ReportId;

    #[test]
    fn read_once_per_result_and_generation() {
        let cache = LinesCache::<u32>::default();
        let at = ResultRef {
            report: ReportId(1),
            index: 2,
        };
        assert!(cache.get_or_read(5, at, || None).is_none());
        assert!(cache.get_or_read(5, at, || Some(7)).is_none());
        assert_eq!(cache.reads(), 1);
        assert!(cache.get_or_read(6, at, || Some(7)).is_some());
        assert_eq!(cache.reads(), 2);
        cache.clear();
        assert!(cache.get_or_read(6, at, || None).is_none());
        assert_eq!(cache.reads(), 3);
    }
}
