//! How background threads (loads, the file watcher) wake the front end when they have news:
//! a callback the front end installs once (the desktop app asks egui for a repaint).

use std::sync::{Arc, OnceLock};

/// The callback that wakes the front end.
pub type WakeFn = Box<dyn Fn() + Send + Sync>;

/// Shared between the app and its threads; empty until the front end sets it.
#[derive(Clone, Default)]
pub struct Waker(Arc<OnceLock<WakeFn>>);

impl std::fmt::Debug for Waker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Waker")
            .field("set", &self.0.get().is_some())
            .finish()
    }
}

impl Waker {
    /// Installs the callback (the first one set stays).
    pub fn set(&self, wake: WakeFn) {
        let _ = self.0.set(wake);
    }

    /// Whether a callback is installed.
    pub fn is_set(&self) -> bool {
        self.0.get().is_some()
    }

    /// Wakes the front end, if it installed a callback.
    pub fn wake(&self) {
        if let Some(wake) = self.0.get() {
            wake();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn the_first_callback_is_the_one_called() {
        let count = Arc::new(AtomicUsize::new(0));
        let waker = Waker::default();
        waker.wake();
        let c = Arc::clone(&count);
        waker.set(Box::new(move || {
            c.fetch_add(1, Ordering::Relaxed);
        }));
        waker.set(Box::new(|| panic!("a second callback is ignored")));
        waker.clone().wake();
        assert_eq!(count.load(Ordering::Relaxed), 1);
    }
}
