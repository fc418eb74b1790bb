//! CPU time of the calling thread, for tests and benchmarks that bound how much work a step
//! does: unlike wall time it does not grow when other processes keep the machine busy.
//! (Linux `CLOCK_THREAD_CPUTIME_ID`; wall time since the first call stands in elsewhere.)

use std::time::Duration;

/// Longest a bounded step may run by the wall clock before it counts as hung. A limit on work
/// done is a CPU-time limit ([`thread_cpu_time`]); this one only catches a step that never
/// returns, so it is far above any step's time on a loaded machine.
pub const HANG_TIMEOUT: Duration = Duration::from_secs(300);

/// CPU time of the calling thread.
pub fn thread_cpu_time() -> Duration {
    cpu_clock(CpuClock::Thread)
}

/// CPU time of the whole process, every thread of it (for a step that hands its work to
/// threads of its own while no other test runs).
pub fn process_cpu_time() -> Duration {
    cpu_clock(CpuClock::Process)
}

#[derive(Clone, Copy)]
enum CpuClock {
    Process,
    Thread,
}

#[cfg(target_os = "linux")]
fn cpu_clock(clock: CpuClock) -> Duration {
    use rustix::time::{ClockId, clock_gettime};
    let ts = clock_gettime(match clock {
        CpuClock::Process => ClockId::ProcessCPUTime,
        CpuClock::Thread => ClockId::ThreadCPUTime,
    });
    Duration::new(
        ts.tv_sec.max(0) as u64,
        ts.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

/// Elsewhere, wall time stands in for CPU time.
#[cfg(not(target_os = "linux"))]
fn cpu_clock(_clock: CpuClock) -> Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

/// CPU time another process has used, user and system (`/proc/PID/stat`, Linux).
#[cfg(target_os = "linux")]
pub fn cpu_time_of(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command name, which is in parentheses.
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    let per_second: u64 = std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100);
    Duration::from_millis(ticks * 1000 / per_second)
}
