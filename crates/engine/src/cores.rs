//! The number of cores the process may run on, found once: `available_parallelism` reads the
//! process's limits (its CPU set and cgroup quota) each time it is asked, and the readers ask
//! for every window and body they read.

use std::sync::OnceLock;

/// How many threads the process can run at once (1 where that cannot be told).
pub fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}
