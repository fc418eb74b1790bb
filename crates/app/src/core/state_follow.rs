//! The followed folder in the application state: what the follower found becomes open
//! reports shown as being written, read again in place as they grow, counted once settled.

use super::AppState;
use crate::core::commands::{Command, OpenRequest};
use crate::core::file_watch::FileSignature;
use crate::core::ids::ReportId;
use crate::core::workspace::ReportArrival;
use std::path::Path;
use std::time::Duration;

impl AppState {
    /// Takes what the follower found since the last call: a report that grew is opened (or
    /// read again in place) and shown as being written; one that settled is read again if
    /// its file is not the version shown, and counts from then on. One path is one run:
    /// nothing open moves, and a report written again is read again in place.
    pub fn poll_followed(&mut self) {
        let mut events = Vec::new();
        if let Some(f) = &self.follower {
            while let Some(event) = f.try_recv() {
                events.push(event);
            }
        }
        for event in events {
            match event {
                crate::parse::arrival::FollowEvent::Unlisted(text) => {
                    self.notice = Some(format!("The followed folder cannot be read: {text}"));
                }
                crate::parse::arrival::FollowEvent::Arrived(arrivals) => {
                    for arrival in arrivals {
                        self.arrived(arrival);
                    }
                }
            }
        }
    }

    /// One report of the followed folder grew or settled.
    pub(super) fn arrived(&mut self, arrival: crate::parse::arrival::Arrival) {
        let (path, state) = self.followed.note(arrival);
        let open = self
            .workspace
            .reports()
            .iter()
            .find(|r| r.path.as_deref() == Some(path.as_path()))
            .map(|r| r.id);
        match open {
            Some(id) if self.followed.is_current(&path) => {
                self.workspace.set_arrival(id, state);
            }
            // Read again in place (once the read under way ends, if one is); it counts once
            // the version settled is the one shown.
            Some(id) if self.workspace.is_reloading(id) => self.followed.read_again(&path),
            Some(id) => self.reload(id),
            None => {
                let loading = self
                    .workspace
                    .pending()
                    .iter()
                    .any(|p| p.replaces.is_none() && p.path.as_deref() == Some(path.as_path()));
                if loading {
                    self.followed.read_again(&path);
                } else {
                    self.handle(Command::Open(OpenRequest::Path(path)));
                }
            }
        }
    }

    /// After a report of the followed folder was read (`signature`: the file as read): it is
    /// shown as the follower last said. Read before its last write, it is read again when
    /// the follower said that it settled, or that it grew into a new whole state while it was
    /// read (a state in between, which may be cut short, is never read on its own account).
    pub(super) fn loaded_followed(&mut self, id: ReportId, signature: Option<FileSignature>) {
        let Some(path) = self.workspace.report(id).and_then(|r| r.path.clone()) else {
            return;
        };
        let Some(state) = self.followed.loaded(&path, signature) else {
            return;
        };
        let again = self.followed.take_read_again(&path);
        let settled = !matches!(state, ReportArrival::Growing { .. });
        if !self.followed.is_current(&path) && (again || settled) {
            let shown = if settled {
                ReportArrival::Growing { writer: None }
            } else {
                state
            };
            self.workspace.set_arrival(id, shown);
            self.reload(id);
        } else {
            self.workspace.set_arrival(id, state);
        }
    }

    /// Whether `path` is a report of the followed folder still being written (its reads may
    /// fail and its changes are the follower's).
    pub(super) fn is_followed(&self, path: Option<&Path>) -> bool {
        self.follower.is_some() && path.is_some_and(|p| self.followed.knows(p))
    }

    /// Stops following; the reports being written are shown as they are from now on (their
    /// file's changes are then noticed as any open file's).
    pub(super) fn stop_following(&mut self) {
        self.follower = None;
        self.followed.clear();
        let growing: Vec<ReportId> = self
            .workspace
            .reports()
            .iter()
            .filter(|r| r.is_growing())
            .map(|r| r.id)
            .collect();
        for id in growing {
            self.workspace.set_arrival(id, ReportArrival::Whole);
        }
    }

    /// Settles reports of followed folders after `settle` instead of [`SETTLE`] (tests, and
    /// writers with long pauses between results), from the next folder followed on.
    ///
    /// [`SETTLE`]: crate::parse::arrival::SETTLE
    pub fn set_follow_settle(&mut self, settle: Duration) {
        self.followed
            .set_times(crate::parse::arrival::SettleTimes::with_settle(settle));
    }

    /// The times reports of the followed folder settle by.
    pub fn follow_times(&self) -> crate::parse::arrival::SettleTimes {
        self.followed.times()
    }

    /// The folder followed, if one is.
    pub fn followed_folder(&self) -> Option<&std::path::Path> {
        self.follower.as_ref().map(|f| f.dir())
    }

    /// Why the followed folder is looked at every few seconds instead of on change
    /// notifications, if it is.
    pub fn follow_polling(&self) -> Option<&str> {
        self.follower.as_ref().and_then(|f| f.polling())
    }
}
