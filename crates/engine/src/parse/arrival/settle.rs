//! The state machine of a followed folder: one look at a time, with the time of the look
//! given (so that tests can pass time without waiting), it says which report files grew into
//! a new whole state and which settled, in name order. Files gone from the folder are
//! forgotten (one written again under the name is new); a settled file written again is
//! followed again from its new state, so one path stays one run.

use super::writers::{Writer, WriterCheck};
use super::{GIVE_UP, LOOK_INTERVAL, SETTLE};
use crate::parse::ncu_rep::stream_check::ends_whole;
use crate::parse::report_files::report_files_in;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// The times that decide when a report's write has settled and how often a folder is looked
/// at meanwhile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettleTimes {
    /// How long a file stays unchanged, with no process known to write it, before it counts
    /// as settled ([`SETTLE`]).
    pub settle: Duration,
    /// How long a report cut short mid-block stays unchanged before it is handed on as it is
    /// ([`GIVE_UP`]).
    pub give_up: Duration,
    /// How often the folder is looked at while a report has not settled ([`LOOK_INTERVAL`]).
    pub interval: Duration,
}

impl Default for SettleTimes {
    fn default() -> Self {
        SettleTimes {
            settle: SETTLE,
            give_up: GIVE_UP,
            interval: LOOK_INTERVAL,
        }
    }
}

impl SettleTimes {
    /// The times for a settling time of `settle` (a shorter one for tests, a longer one for
    /// a writer with long pauses): looks six times as often, gives up on a cut report after
    /// [`GIVE_UP`] or twice the settling time.
    pub fn with_settle(settle: Duration) -> Self {
        SettleTimes {
            settle,
            give_up: GIVE_UP.max(settle * 2),
            interval: (settle / 6).clamp(Duration::from_millis(10), LOOK_INTERVAL),
        }
    }
}

/// How a report's write was seen to end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettledBy {
    /// The ncu process profiling into it ended.
    NcuEnded,
    /// The process that held it open for writing closed it.
    WriterClosed,
    /// Its size and modification time stayed the same for this long (no process was seen
    /// writing it).
    Quiet(Duration),
    /// It stayed cut short mid-block for this long: handed on as it is.
    GaveUp(Duration),
}

/// What a look found of a report file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arrival {
    /// A report still being written, whole as far as it goes (every state ncu leaves is a
    /// valid report with the results so far); `writer` is who writes it, where known.
    Growing {
        path: PathBuf,
        writer: Option<Writer>,
    },
    /// A report whose write ended, and how that was seen.
    Settled { path: PathBuf, by: SettledBy },
}

impl Arrival {
    /// The report file.
    pub fn path(&self) -> &Path {
        match self {
            Arrival::Growing { path, .. } | Arrival::Settled { path, .. } => path,
        }
    }
}

/// A file's size and modification time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
}

fn stamp_of(path: &Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    Some(Stamp {
        len: meta.len(),
        modified: meta.modified().ok(),
    })
}

/// Whether a state of a file ends where a block ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ending {
    Whole,
    Cut,
    /// Not a plain `.ncu-rep` (compressed, `.ncu-repz`): its end cannot be told, so it is
    /// never shown growing, only settled.
    Unknown,
}

fn ending_of(path: &Path) -> Ending {
    match ends_whole(path) {
        Ok(Some(true)) => Ending::Whole,
        Ok(Some(false)) => Ending::Cut,
        // Unreadable for now (gone meanwhile, or no permission): its load will say why.
        Ok(None) | Err(_) => Ending::Unknown,
    }
}

/// What the looks saw of a file.
#[derive(Debug, Clone)]
struct Seen {
    stamp: Stamp,
    /// When this state was first seen.
    since: Instant,
    /// How long it had been unchanged before that (its modification time's age when first
    /// seen; zero when it was seen to change).
    quiet_before: Duration,
    /// Whether this state ends where a block ends (read once per state).
    ending: Option<Ending>,
    /// This state was handed on (as growing or settled).
    handed_on: bool,
    settled: bool,
    /// A process seen writing it since it last settled.
    writer_seen: Option<Writer>,
}

/// The report files of one folder as the looks saw them.
#[derive(Debug)]
pub struct Arrivals {
    times: SettleTimes,
    seen: HashMap<PathBuf, Seen>,
}

impl Arrivals {
    /// Nothing seen yet.
    pub fn new(times: SettleTimes) -> Self {
        Arrivals {
            times,
            seen: HashMap::new(),
        }
    }

    /// The times used.
    pub fn times(&self) -> SettleTimes {
        self.times
    }

    /// Whether some report file seen has not settled (the folder is then looked at every
    /// interval; otherwise only when it changes).
    pub fn waiting(&self) -> bool {
        self.seen.values().any(|s| !s.settled && s.stamp.len > 0)
    }

    /// One look at `dir` at `now` (`wall`: the clock the files' modification times are on):
    /// the report files that grew into a new whole state or settled since the last look, in
    /// name order. `writers` tells which of the files not settled a process writes.
    pub fn look(
        &mut self,
        dir: &Path,
        now: Instant,
        wall: SystemTime,
        writers: &mut dyn WriterCheck,
    ) -> std::io::Result<Vec<Arrival>> {
        let files = report_files_in(dir)?;
        let listed: HashSet<&PathBuf> = files.iter().collect();
        self.seen.retain(|p, _| listed.contains(p));
        let mut unsettled = Vec::new();
        for path in &files {
            let Some(stamp) = stamp_of(path) else {
                continue;
            };
            match self.seen.get_mut(path) {
                Some(s) if s.stamp == stamp => {}
                Some(s) => {
                    *s = Seen {
                        stamp,
                        since: now,
                        quiet_before: Duration::ZERO,
                        ending: None,
                        handed_on: false,
                        settled: false,
                        // A file written again after it settled starts afresh.
                        writer_seen: if s.settled {
                            None
                        } else {
                            s.writer_seen.take()
                        },
                    };
                }
                None => {
                    let age = stamp
                        .modified
                        .and_then(|m| wall.duration_since(m).ok())
                        .unwrap_or_default();
                    self.seen.insert(
                        path.clone(),
                        Seen {
                            stamp,
                            since: now,
                            quiet_before: age,
                            ending: None,
                            handed_on: false,
                            settled: false,
                            writer_seen: None,
                        },
                    );
                }
            }
            if self.seen.get(path).is_some_and(|s| !s.settled) {
                unsettled.push(path.clone());
            }
        }
        let candidates: Vec<PathBuf> = unsettled
            .into_iter()
            .filter(|p| self.seen.get(p).is_some_and(|s| s.stamp.len > 0))
            .collect();
        if candidates.is_empty() {
            return Ok(Vec::new());
        }
        let writing = writers.writers(&candidates);
        let mut out = Vec::new();
        for path in candidates {
            let writer = writing.get(&path).cloned();
            if let Some(arrival) = self.decide(&path, writer, now) {
                out.push(arrival);
            }
        }
        Ok(out)
    }

    /// What a look makes of a file not settled: handed on growing, settled, or nothing yet.
    fn decide(&mut self, path: &Path, writer: Option<Writer>, now: Instant) -> Option<Arrival> {
        let times = self.times;
        let s = self.seen.get_mut(path)?;
        if writer.is_some() {
            s.writer_seen.clone_from(&writer);
        }
        let ending = *s.ending.get_or_insert_with(|| ending_of(path));
        let quiet = s.quiet_before + now.saturating_duration_since(s.since);
        if writer.is_some() {
            // Written now: shown as it grows, never settled.
            if ending == Ending::Whole && !s.handed_on {
                s.handed_on = true;
                return Some(Arrival::Growing {
                    path: path.to_path_buf(),
                    writer,
                });
            }
            return None;
        }
        let by = match (ending, &s.writer_seen) {
            (Ending::Cut, _) if quiet >= times.give_up => Some(SettledBy::GaveUp(times.give_up)),
            (Ending::Cut, _) => None,
            (_, Some(Writer::Ncu { .. })) => Some(SettledBy::NcuEnded),
            (_, Some(Writer::Process { .. })) => Some(SettledBy::WriterClosed),
            (_, None) if quiet >= times.settle => Some(SettledBy::Quiet(times.settle)),
            (_, None) => None,
        };
        if let Some(by) = by {
            // The writer may have written once more between the listing and the check of
            // the writers: then this is a new state, looked at again next time.
            if stamp_of(path) != Some(s.stamp) {
                return None;
            }
            s.settled = true;
            s.handed_on = true;
            return Some(Arrival::Settled {
                path: path.to_path_buf(),
                by,
            });
        }
        if ending == Ending::Whole && !s.handed_on {
            s.handed_on = true;
            return Some(Arrival::Growing {
                path: path.to_path_buf(),
                writer: s.writer_seen.clone(),
            });
        }
        None
    }
}

#[cfg(test)]
#[path = "settle_tests.rs"]
mod tests;
