//! The watcher on real files in a temporary directory: writes, replacing by rename and
//! removal are reported once, with notifications and with polling.

use super::*;

const ID: ReportId = ReportId(7);
/// Long enough for any notification and debounce on a loaded machine.
const PATIENCE: Duration = Duration::from_secs(10);

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sightline-watch-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Waits for the next event (the watcher wakes nobody: it is asked).
fn next_event(watcher: &FileWatcher) -> Option<FileEvent> {
    let deadline = Instant::now() + PATIENCE;
    while Instant::now() < deadline {
        if let Some(event) = watcher.try_recv() {
            return Some(event);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    None
}

/// No event within a while.
fn quiet(watcher: &FileWatcher) -> bool {
    std::thread::sleep(DEBOUNCE * 3);
    watcher.try_recv().is_none()
}

fn watched(watcher: &mut FileWatcher, path: &Path) {
    let known = FileSignature::read(path).unwrap();
    watcher.watch(ID, path, known);
}

/// Write, then an editor's save (a new file renamed over the old one), then removal.
fn sees_writes_renames_and_removal(mut watcher: FileWatcher, dir: &Path) {
    let file = dir.join("kernels.txt");
    std::fs::write(&file, "first").unwrap();
    std::fs::write(dir.join("unrelated.txt"), "x").unwrap();
    watched(&mut watcher, &file);
    assert!(quiet(&watcher), "an event before any change");

    // Another file in the directory changes: nothing to say.
    std::fs::write(dir.join("unrelated.txt"), "xy").unwrap();
    assert!(quiet(&watcher), "an event for another file");

    std::fs::write(&file, "second, longer").unwrap();
    let event = next_event(&watcher).expect("no event for a write");
    assert_eq!(event.report, ID);
    let Some(FileState::Changed(sig)) = event.state else {
        panic!("not a change: {event:?}");
    };
    assert_eq!(sig.len, "second, longer".len() as u64);
    assert!(quiet(&watcher), "one write, more than one event");

    // Dismissed: the changed file is the known version now.
    watcher.acknowledge(ID);
    let temp = dir.join(".kernels.txt.swp");
    std::fs::write(&temp, "saved by an editor").unwrap();
    std::fs::rename(&temp, &file).unwrap();
    let event = next_event(&watcher).expect("no event for a replacing rename");
    let Some(FileState::Changed(sig)) = event.state else {
        panic!("not a change: {event:?}");
    };
    assert_eq!(sig.len, "saved by an editor".len() as u64);

    std::fs::remove_file(&file).unwrap();
    let event = next_event(&watcher).expect("no event for a removal");
    assert_eq!(
        event.state,
        Some(FileState::Unreadable(
            "is no longer on disk (removed or renamed)".into()
        ))
    );

    // Unwatched: its return is not reported.
    watcher.unwatch(ID);
    std::fs::write(&file, "back").unwrap();
    assert!(quiet(&watcher), "an event for an unwatched file");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn notifications_report_writes_renames_and_removal() {
    let dir = temp_dir("notify");
    // An hour between polls: whatever is seen comes from notifications.
    let watcher = FileWatcher::with_interval(Duration::from_secs(3600), Waker::default());
    assert_eq!(watcher.mode(), &WatchMode::Notify);
    assert_eq!(watcher.mode().describe(), None);
    sees_writes_renames_and_removal(watcher, &dir);
}

#[test]
fn polling_reports_the_same_and_says_why() {
    let dir = temp_dir("poll");
    let watcher = FileWatcher::polling(
        Duration::from_millis(50),
        Waker::default(),
        "no inotify watches left",
    );
    assert_eq!(
        watcher.mode().describe().as_deref(),
        Some("Open files are checked for changes every 0.05 s (no inotify watches left)")
    );
    sees_writes_renames_and_removal(watcher, &dir);
}

#[test]
fn a_directory_that_cannot_be_watched_falls_back_to_polling() {
    let dir = temp_dir("fallback");
    let file = dir.join("kernels.txt");
    std::fs::write(&file, "first").unwrap();
    let mut watcher = FileWatcher::with_interval(Duration::from_millis(50), Waker::default());
    let known = FileSignature::read(&file).unwrap();
    // A file whose directory does not exist (any more): notifications cannot be set up.
    watcher.watch(ReportId(1), &dir.join("gone").join("k.txt"), known);
    let WatchMode::Polling { reason, .. } = watcher.mode().clone() else {
        panic!("still notifications: {:?}", watcher.mode());
    };
    assert!(reason.starts_with("cannot watch "), "{reason}");
    assert!(reason.contains("gone"), "{reason}");
    // Polling reports that file as unreadable, and still sees the other one change.
    let event = next_event(&watcher).expect("no event for the missing file");
    assert_eq!(event.report, ReportId(1));
    watched(&mut watcher, &file);
    std::fs::write(&file, "second").unwrap();
    let event = next_event(&watcher).expect("no event when polling");
    assert_eq!(event.report, ID);
    assert!(matches!(event.state, Some(FileState::Changed(_))));
    let _ = std::fs::remove_dir_all(&dir);
}
