//! Loads started before the app's state exists: the files named on the command line start
//! reading while the window opens (its start took a fifth of a second of a 2-core machine
//! before the first byte was read), and the state takes them over as its pending loads.

use crate::core::commands::OpenRequest;
use crate::core::ids::ReportId;
use crate::core::loader::Loader;
use crate::core::waker::Waker;
use crate::core::workspace::PendingLoad;
use std::path::Path;
use std::time::Instant;

/// A loader, the waker its threads call, and the loads it started.
pub struct StartedLoads {
    pub(crate) loader: Loader,
    pub(crate) waker: Waker,
    pub(crate) pending: Vec<PendingLoad>,
}

impl Default for StartedLoads {
    /// Nothing started.
    fn default() -> Self {
        let waker = Waker::default();
        StartedLoads {
            loader: Loader::new(waker.clone()),
            waker,
            pending: Vec::new(),
        }
    }
}

impl StartedLoads {
    /// Starts loading `requests` on background threads, in order.
    pub fn start(requests: impl IntoIterator<Item = OpenRequest>) -> Self {
        let mut started = StartedLoads::default();
        for request in requests {
            let pending = start_pending(&mut started.loader, request, None);
            started.pending.push(pending);
        }
        started
    }

    /// How many loads were started.
    pub fn len(&self) -> usize {
        self.pending.len()
    }

    /// Whether no load was started.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }
}

/// Starts a load of `request` on `loader`'s threads and returns it as a pending load;
/// `replaces` is the open report a reload reads again.
pub(crate) fn start_pending(
    loader: &mut Loader,
    request: OpenRequest,
    replaces: Option<ReportId>,
) -> PendingLoad {
    let name = request.display_name();
    let path = request.path().map(Path::to_path_buf);
    let size = request.size_hint();
    let (id, control) = loader.start(request);
    PendingLoad {
        id,
        name,
        path,
        size,
        started: Instant::now(),
        control,
        replaces,
    }
}
