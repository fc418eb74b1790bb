//! Reports arriving in a folder: when a report file that is being written counts as settled,
//! shared by the window's followed folder and `sightline trend --watch`.
//!
//! ncu creates its report after the first kernel it profiles and appends one whole result at
//! a time (about every 1.4 s for a short kernel), opening the file for each append and
//! closing it between them; every state in between is a valid report holding the results so
//! far. So the content alone never says that a report is finished, only that it still grows.
//! A report is handed on as *growing* while it does (each whole state once, so that it can be
//! shown with its results so far), and as *settled* once its writer is known to be done:
//!
//! - the ncu process profiling into it ended (Linux: `/proc/*/cmdline` names it as the
//!   output of a running `ncu`), or another process that held it open for writing closed it
//!   (`/proc/*/fd`, `/proc/*/fdinfo`); see [`writers`];
//! - otherwise (another platform, another user's process, another machine writing to a
//!   share) once its size and modification time stayed the same for [`SETTLE`], longer than
//!   ncu's gaps between results.
//!
//! A file cut short mid-block (a copy that stalls) is never handed on as growing, and waited
//! for until it stays cut for [`GIVE_UP`]; then it is handed on as it is and the reader's
//! error names it. [`settle`] is the state machine (no thread, no clock of its own);
//! [`follow`] waits on a folder with change notifications and looks at it only when
//! something changed or a report has not settled, so that following costs nothing while no
//! report arrives.

pub mod follow;
pub mod settle;
pub mod writers;

pub use follow::{FolderFollow, FollowEvent, FollowStop};
pub use settle::{Arrival, Arrivals, SettleTimes, SettledBy};
pub use writers::{ProcWriters, Writer, WriterCheck};

use std::time::Duration;

/// How long a file's size and time stay unchanged, with no process known to write it, before
/// its write counts as settled: longer than the 1.4 s ncu takes between the results it
/// appends.
pub const SETTLE: Duration = Duration::from_secs(3);

/// How long a report cut short mid-block stays unchanged before it is handed on as it is.
pub const GIVE_UP: Duration = Duration::from_secs(60);

/// How often a folder is looked at while a report in it has not settled.
pub const LOOK_INTERVAL: Duration = Duration::from_millis(500);
