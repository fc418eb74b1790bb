//! One background job: work for a key run on a named thread, polled without waiting, replaced
//! when asked for another key (the old work is told to stop and its answer dropped), ending
//! in a value or an error. Every page that builds its data in the background uses it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// Tells running work that its answer is no longer wanted.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// Whether the job was replaced or dropped; long work checks it and returns early.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Where a job stands.
#[derive(Debug)]
pub enum Status<'a, T> {
    /// Nothing asked for yet.
    Idle,
    Building,
    Ready(&'a T),
    Failed(&'a str),
}

#[derive(Debug)]
enum State<T> {
    Idle,
    Building(Receiver<Result<T, String>>, Cancel),
    Done(Result<T, String>),
}

/// A job producing a `T` for a key `K`.
#[derive(Debug)]
pub struct Job<K, T> {
    name: &'static str,
    key: Option<K>,
    state: State<T>,
}

impl<K: PartialEq, T: Send + 'static> Job<K, T> {
    /// A job whose threads are named `name` (and whose errors say so).
    pub fn new(name: &'static str) -> Self {
        Job {
            name,
            key: None,
            state: State::Idle,
        }
    }

    /// The key of the job asked for last.
    pub fn key(&self) -> Option<&K> {
        self.key.as_ref()
    }

    /// Whether the job asked for last is for `key`.
    pub fn is_for(&self, key: &K) -> bool {
        self.key.as_ref() == Some(key)
    }

    /// Starts `work` for `key` unless the job is already for that key; work for another key
    /// is cancelled. `wake` runs when the work ends (to repaint).
    pub fn ensure(
        &mut self,
        key: K,
        work: impl FnOnce(&Cancel) -> Result<T, String> + Send + 'static,
        wake: impl Fn() + Send + 'static,
    ) {
        if self.is_for(&key) {
            return;
        }
        self.clear();
        self.key = Some(key);
        let (tx, rx) = channel();
        let cancel = Cancel::default();
        let token = cancel.clone();
        let started = std::thread::Builder::new()
            .name(self.name.into())
            .spawn(move || {
                let out = work(&token);
                if !token.is_cancelled() {
                    let _ = tx.send(out);
                    wake();
                }
            });
        self.state = match started {
            Ok(_) => State::Building(rx, cancel),
            Err(e) => State::Done(Err(format!("Could not start the {}: {e}", self.name))),
        };
    }

    /// Where the job stands, taking its answer if it has come.
    pub fn poll(&mut self) -> Status<'_, T> {
        if let State::Building(rx, _) = &self.state {
            match rx.try_recv() {
                Ok(out) => self.state = State::Done(out),
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => self.state = State::Done(Err(self.stopped())),
            }
        }
        self.status()
    }

    /// Waits for the job's answer (for screenshots and tests, which draw one frame).
    pub fn wait(&mut self) -> Status<'_, T> {
        if let State::Building(rx, _) = &self.state {
            let out = rx.recv().unwrap_or_else(|_| Err(self.stopped()));
            self.state = State::Done(out);
        }
        self.status()
    }

    /// Where the job stands, without taking an answer.
    pub fn status(&self) -> Status<'_, T> {
        match &self.state {
            State::Idle => Status::Idle,
            State::Building(..) => Status::Building,
            State::Done(Ok(v)) => Status::Ready(v),
            State::Done(Err(e)) => Status::Failed(e),
        }
    }

    /// Takes the answer once it has come (without waiting; with `wait`, waiting for it), for
    /// a view-model that keeps it and changes it. The job stays for its key, so asking again
    /// for the same key starts nothing.
    pub fn take(&mut self, wait: bool) -> Option<Result<T, String>> {
        let _ = if wait { self.wait() } else { self.poll() };
        match std::mem::replace(&mut self.state, State::Idle) {
            State::Done(out) => Some(out),
            other => {
                self.state = other;
                None
            }
        }
    }

    /// Drops the job and its answer; running work is cancelled.
    pub fn clear(&mut self) {
        if let State::Building(_, cancel) = &self.state {
            cancel.cancel();
        }
        self.state = State::Idle;
        self.key = None;
    }

    fn stopped(&self) -> String {
        format!("The {} stopped before it finished.", self.name)
    }
}

impl<K, T> Drop for Job<K, T> {
    fn drop(&mut self) {
        if let State::Building(_, cancel) = &self.state {
            cancel.cancel();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_key_cancels_the_old_work_and_keeps_only_the_new_answer() {
        let mut job: Job<u32, u32> = Job::new("test job");
        let (go_tx, go_rx) = channel::<()>();
        let (seen_tx, seen_rx) = channel::<bool>();
        job.ensure(
            1,
            move |cancel| {
                let _ = go_rx.recv();
                let _ = seen_tx.send(cancel.is_cancelled());
                Ok(1)
            },
            || {},
        );
        assert!(matches!(job.poll(), Status::Building));
        job.ensure(2, |_| Ok(2), || {});
        let _ = go_tx.send(());
        assert_eq!(
            seen_rx.recv().ok(),
            Some(true),
            "the first work was cancelled"
        );
        assert!(matches!(job.wait(), Status::Ready(2)));
        assert_eq!(job.key(), Some(&2));
        // The same key again starts nothing new.
        job.ensure(2, |_| Err("not run".into()), || {});
        assert!(matches!(job.poll(), Status::Ready(2)));
    }

    #[test]
    fn an_error_and_a_panicking_worker_both_end_as_failed() {
        let mut job: Job<u32, u32> = Job::new("test job");
        job.ensure(1, |_| Err("bad input".into()), || {});
        assert!(matches!(job.wait(), Status::Failed("bad input")));
        job.ensure(
            2,
            |_| -> Result<u32, String> { panic!("worker stopped") },
            || {},
        );
        match job.wait() {
            Status::Failed(e) => assert!(e.contains("test job stopped"), "{e}"),
            other => panic!("{other:?}"),
        }
    }
}
