//! Following a folder in the window: a background thread waits on the folder
//! ([`crate::parse::arrival::FolderFollow`]: change notifications, looks only while a report
//! has not settled) and hands on what it finds, a report that grew into a new whole state or
//! whose write settled, in name order; the UI thread never waits on the disk. What a report's
//! arrival means (growing while ncu appends results, settled once ncu ends, its writer closed
//! it, or it stayed the same for [`SETTLE`]) is the engine's, shared with
//! `sightline trend --watch`.

use crate::core::waker::Waker;
use crate::parse::arrival::{FolderFollow, FollowEvent, FollowStop, SettleTimes};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};

pub use crate::parse::arrival::{GIVE_UP, LOOK_INTERVAL as FOLLOW_INTERVAL, SETTLE};

/// A followed folder; following stops when it is dropped.
pub struct FolderFollower {
    dir: PathBuf,
    found: Receiver<FollowEvent>,
    stop: FollowStop,
    times: SettleTimes,
    /// Why the folder is polled instead of watched, if it is.
    polling: Option<String>,
}

impl FolderFollower {
    /// Starts following `dir` with `times`; `waker` wakes the front end when something
    /// arrived.
    pub fn start(dir: &Path, times: SettleTimes, waker: Waker) -> std::io::Result<Self> {
        let mut follow = FolderFollow::new(dir, times)?;
        let stop = follow.stopper();
        let polling = follow.polling().map(str::to_string);
        let (tx, found) = channel();
        std::thread::Builder::new()
            .name("folder follower".into())
            .spawn(move || {
                while let Some(event) = follow.wait() {
                    if tx.send(event).is_err() {
                        return;
                    }
                    waker.wake();
                }
            })?;
        Ok(FolderFollower {
            dir: dir.to_path_buf(),
            found,
            stop,
            times,
            polling,
        })
    }

    /// The folder followed.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The times the folder's reports settle by.
    pub fn times(&self) -> SettleTimes {
        self.times
    }

    /// Why the folder is looked at every few seconds instead of on change notifications.
    pub fn polling(&self) -> Option<&str> {
        self.polling.as_deref()
    }

    /// What the follower found since the last call, if anything.
    pub fn try_recv(&self) -> Option<FollowEvent> {
        self.found.try_recv().ok()
    }
}

impl Drop for FolderFollower {
    fn drop(&mut self) {
        self.stop.stop();
    }
}
