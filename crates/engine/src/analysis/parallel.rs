//! Work on many independent results on every core, in order and a bounded window at a time:
//! a window of results is derived in parallel (a work-stealing pool), then handed on in order
//! while the next window is derived, so whatever the work decodes or builds for a result is
//! dropped within two windows, and memory does not grow with the number of results.

use rayon::prelude::*;

/// How many results a window holds: two per core, so that uneven results keep every core busy
/// (with the window handed on while the next is worked on, four per core are in flight), and
/// at most 256.
pub fn window_len() -> usize {
    (rayon::current_num_threads() * 2).clamp(8, 256)
}

/// Runs `work` on `0..len` in windows of [`window_len`] indices, each window in parallel, and
/// hands each outcome to `each` in index order, on the calling thread, while the next window
/// is worked on. Stops at the first error of `each`.
pub fn map_ordered<T: Send, E>(
    len: usize,
    work: impl Fn(usize) -> T + Sync,
    mut each: impl FnMut(usize, T) -> Result<(), E>,
) -> Result<(), E> {
    let window = window_len();
    let range = |start: usize| start..start.saturating_add(window).min(len);
    let run = |start: usize| -> Vec<T> { range(start).into_par_iter().map(&work).collect() };
    let mut start = 0;
    let mut done = if len > 0 { run(0) } else { Vec::new() };
    while start < len {
        let this = range(start);
        let mut next = None;
        rayon::in_place_scope(|scope| {
            if this.end < len {
                scope.spawn(|_| next = Some(run(this.end)));
            }
            for (i, t) in this.clone().zip(done.drain(..)) {
                each(i, t)?;
            }
            Ok(())
        })?;
        done = next.unwrap_or_default();
        start = this.end;
    }
    Ok(())
}

/// Runs `work` in rayon's pool, or, where that pool has more threads than the machine has
/// cores, in a pool of one thread per core. Reading result bodies parses and drops them on the
/// thread that asks, in that thread's heap, which keeps some of what it freed: threads beyond
/// the cores add no speed, only heaps (`summary --json` of a 119 MB text with 16 worker threads
/// on 2 cores held 160 – 172 MB, against 74 MB with 2).
fn on_cores<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    let cores = crate::cores::cores();
    if rayon::current_num_threads() <= cores {
        return work();
    }
    let pool = POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(cores)
            .thread_name(|i| format!("result reader {i}"))
            .build()
            .ok()
    });
    match pool {
        Some(pool) => pool.install(work),
        None => work(),
    }
}

/// [`map_ordered`] over the results of a report: `work` reads the report (decoding the bodies
/// it needs) on at most a thread per core ([`on_cores`]), then the bodies decoded in the window
/// are released before `each` sees the outcomes in order.
pub fn map_results<T: Send, E>(
    report: &mut crate::model::Report,
    work: impl Fn(&crate::model::Report, usize) -> T + Sync,
    mut each: impl FnMut(usize, T) -> Result<(), E>,
) -> Result<(), E> {
    let window = window_len();
    let len = report.results.len();
    let mut start = 0;
    while start < len {
        let end = start.saturating_add(window).min(len);
        let shared: &crate::model::Report = report;
        let done: Vec<T> = on_cores(|| {
            (start..end)
                .into_par_iter()
                .map(|i| work(shared, i))
                .collect()
        });
        for r in &mut report.results[start..end] {
            r.release_body();
        }
        for (i, t) in (start..end).zip(done) {
            each(i, t)?;
        }
        start = end;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{map_ordered, on_cores, window_len};

    #[test]
    fn results_are_worked_on_at_most_a_thread_per_core() {
        let cores = crate::cores::cores();
        for threads in [1, cores, cores * 2 + 1] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a pool");
            let (workers, sum) = pool.install(|| {
                on_cores(|| {
                    use rayon::prelude::*;
                    let sum: usize = (0..1000usize).into_par_iter().sum();
                    (rayon::current_num_threads(), sum)
                })
            });
            assert_eq!(
                (workers, sum),
                (threads.min(cores), 499_500),
                "{threads} threads"
            );
        }
    }

    #[test]
    fn outcomes_come_in_order_and_errors_stop() {
        let n = window_len() * 3 + 5;
        let mut seen = Vec::new();
        let r: Result<(), ()> = map_ordered(
            n,
            |i| i * 2,
            |i, v| {
                seen.push((i, v));
                Ok(())
            },
        );
        assert!(r.is_ok());
        assert_eq!(seen, (0..n).map(|i| (i, i * 2)).collect::<Vec<_>>());
        let mut count = 0;
        let r = map_ordered(
            n,
            |i| i,
            |i, _| {
                count += 1;
                if i == 3 { Err(i) } else { Ok(()) }
            },
        );
        assert_eq!((r, count), (Err(3), 4));
    }
}
