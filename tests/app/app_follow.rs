//! A followed folder in the window, fed real reports as they are written: ncu's appends
//! replayed state by state (the fixture `fixtures/arrival` with a stand-in ncu process, the
//! corpus' capture with its own timing), a copy in pieces with pauses longer than the look
//! interval, a report written under a temporary name and renamed, Reload and rewrites. Each
//! gives one run, whole, with NVIDIA's values; a report still being written is shown as such
//! with its results so far and is neither compared nor a run of the Trend until it settles.
//! A folder of more reports than the open-file limit opens every one on a bounded pool of
//! threads, and following it costs no CPU while nothing arrives.

use crate::common;

use common::app_harness::{
    AppHarness, WAIT_TIMEOUT, harness, has_label, has_label_containing, new_app, step_until,
};
use common::arrival::{
    FakeNcu, NcuCapture, assert_results_are_truths, corpus_capture, fixture_capture, linked_copies,
    replay,
};
use common::{fixture_bytes, fixture_file, load_truth, temp_dir};
use sightline_app::core::ids::{ReportId, ResultRef};
use sightline_app::core::workspace::{OpenReport, ReportArrival};
use sightline_engine::parse::arrival::SettledBy;
use sightline_ui::{Command, PageId};
use std::path::Path;
use std::time::{Duration, Instant};

/// The app following `dir`, its reports settling after `settle`, on the Trend page.
fn following(dir: &Path, settle: Duration) -> AppHarness {
    let mut h = harness(new_app(Vec::new()));
    h.state_mut().set_follow_settle(settle);
    h.state_mut()
        .handle(Command::FollowFolder(dir.to_path_buf()));
    h.state_mut().settings_mut().page = PageId::Trend;
    h
}

/// The open reports of `path`: one path is one run, so never more than one.
#[track_caller]
fn open_for<'a>(h: &'a AppHarness, path: &Path) -> Option<&'a OpenReport> {
    let open: Vec<&OpenReport> = h
        .state()
        .workspace()
        .reports()
        .iter()
        .filter(|r| r.path.as_deref() == Some(path))
        .collect();
    assert!(
        open.len() <= 1,
        "{} is open {} times",
        path.display(),
        open.len()
    );
    open.first().copied()
}

/// Whether `path` is open, read as it is on disk now, and settled.
fn settled(h: &AppHarness, path: &Path) -> bool {
    !h.state().workspace().is_loading()
        && open_for(h, path).is_some_and(|r| {
            !r.is_growing()
                && std::fs::metadata(path).is_ok_and(|m| {
                    r.report.results.len()
                        == sightline_engine::parse::load_path(path).map_or(0, |l| l.results.len())
                        && m.len() > 0
                })
        })
}

/// Steps frames for `pause` (time passing, as between a writer's writes), checking `each`.
fn pause(h: &mut AppHarness, pause: Duration, mut each: impl FnMut(&AppHarness)) {
    let start = Instant::now();
    while start.elapsed() < pause {
        h.step();
        each(h);
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn results_so_far(k: usize) -> String {
    format!(
        "being written, {k} result{} so far",
        if k == 1 { "" } else { "s" }
    )
}

/// ncu appending ten results, replayed state by state while a stand-in ncu runs: each state
/// is shown as being written with its results so far (NVIDIA's values), in place; it is no
/// run of the Trend and is not compared, however long ncu pauses; once ncu ends it settles,
/// says so, and is the third run.
#[test]
fn a_report_ncu_appends_to_grows_in_place_and_counts_once_ncu_ends() {
    let dir = temp_dir("follow-ncu");
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    for v in 1..=2 {
        fixture_file(&runs, &format!("series/v{v}.ncu-rep.xz"));
    }
    let settle = Duration::from_millis(600);
    let mut h = following(&runs, settle);
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| has_label(
            h,
            "2 runs, in the order given: v1, v2"
        )),
        "the reports already there never made the series"
    );
    let capture = fixture_capture();
    let slow = runs.join("slow.ncu-rep");
    let ncu = FakeNcu::start(&dir, &runs.join("slow"));
    replay(&capture, &slow, 0.25, |k| {
        assert!(
            step_until(&mut h, WAIT_TIMEOUT, |h| has_label(h, &results_so_far(k))
                && open_for(h, &slow).is_some_and(|r| r.report.results.len() == k)),
            "state {k} never shown"
        );
        let open = open_for(&h, &slow).unwrap();
        assert!(open.is_growing());
        assert_results_are_truths(&open.report.results, &capture.truth);
        let id = open.id;
        assert!(h.state().workspace().failed().is_empty());
        // Not a run of the series (the page built again only when it first appeared), and the
        // page says so.
        assert!(step_until(&mut h, WAIT_TIMEOUT, |h| has_label(
            h,
            "2 runs, in the order given: v1, v2"
        ) && has_label(
            h,
            "1 report being written is not a run yet: it joins the series once it has settled."
        )));
        if k == 3 {
            // Selected, it is not compared: the page says why.
            let at = ResultRef {
                report: id,
                index: 0,
            };
            h.state_mut().handle(Command::Select(at));
            h.state_mut().settings_mut().page = PageId::Compare;
            assert!(step_until(&mut h, WAIT_TIMEOUT, |h| has_label_containing(
                h,
                "slow.ncu-rep is being written, 3 results so far: it is compared once its write has settled."
            )));
            h.state_mut().settings_mut().page = PageId::ReportDiff;
            assert!(step_until(&mut h, WAIT_TIMEOUT, |h| has_label_containing(
                h,
                "it is compared once its write has settled."
            )));
            h.state_mut().settings_mut().page = PageId::Trend;
        }
    });
    // ncu profiles a long kernel: far longer than the settling time, and still growing.
    pause(&mut h, settle * 4, |h| {
        assert!(open_for(h, &slow).unwrap().is_growing());
    });
    assert!(has_label(&h, "2 runs, in the order given: v1, v2"));
    drop(ncu);
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| has_label(
            h,
            "settled: ncu finished"
        ) && has_label(
            h,
            "3 runs, in the order given: v1, v2, slow"
        ) && !has_label_containing(
            h,
            "being written is not a run yet"
        )),
        "the report did not settle when ncu ended"
    );
    let open = open_for(&h, &slow).unwrap();
    assert_eq!(open.arrival, ReportArrival::Settled(SettledBy::NcuEnded));
    assert_eq!(open.report.results.len(), 10);
    assert_results_are_truths(&open.report.results, &capture.truth);
    assert_eq!(h.state().workspace().reports().len(), 3);
    assert!(h.state().workspace().failed().is_empty());
    assert!(h.state().file_notices().list().is_empty());
    let _ = std::fs::remove_dir_all(dir);
}

/// The corpus' capture replayed with its timing (shortened, with a settling time shortened
/// alike), with no ncu process to be seen: one report, settled once quiet, with NVIDIA's
/// ten results.
#[test]
fn the_corpus_capture_settles_once_quiet_as_one_whole_run() {
    let dir = temp_dir("follow-corpus");
    let capture: NcuCapture = corpus_capture();
    assert_eq!(capture.states.len(), 10);
    let settle = Duration::from_millis(1500);
    let mut h = following(&dir, settle);
    let slow = dir.join("slow.ncu-rep");
    // ncu's gaps (1.4 s) shortened five times, the settling time (3 s) only twice.
    replay(&capture, &slow, 0.2, |_| {
        h.step();
        open_for(&h, &slow);
    });
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| settled(h, &slow)
            && has_label(h, "settled: no growth for 1.5 s")),
        "the report never settled whole"
    );
    let open = open_for(&h, &slow).unwrap();
    assert_eq!(
        open.arrival,
        ReportArrival::Settled(SettledBy::Quiet(settle))
    );
    assert_eq!(open.report.results.len(), 10);
    assert_results_are_truths(&open.report.results, &capture.truth);
    assert_eq!(h.state().workspace().reports().len(), 1);
    assert!(h.state().workspace().failed().is_empty());
    let _ = std::fs::remove_dir_all(dir);
}

/// A copy in three pieces with pauses longer than the look interval and the settling time,
/// and a copy under a hidden temporary name renamed when done: never opened before whole,
/// never an error, then one run each with NVIDIA's values. Reload and a rewrite keep one run
/// per path, read again in place.
#[test]
fn copies_in_pieces_or_renamed_open_once_whole_and_stay_one_run_per_path() {
    let dir = temp_dir("follow-pieces");
    let settle = Duration::from_millis(600);
    let mut h = following(&dir, settle);
    let interval = h.state().follow_times().interval;
    let v3 = dir.join("v3.ncu-rep");
    let bytes = fixture_bytes("series/v3.ncu-rep.xz");
    let thirds = [bytes.len() / 3, 2 * bytes.len() / 3, bytes.len()];
    let nothing_yet = |h: &AppHarness| {
        assert!(
            h.state().workspace().reports().is_empty(),
            "opened cut short"
        );
        assert!(
            h.state().workspace().failed().is_empty(),
            "a cut copy failed"
        );
    };
    let mut from = 0;
    for (i, &to) in thirds.iter().enumerate() {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&v3)
            .unwrap();
        std::io::Write::write_all(&mut file, &bytes[from..to]).unwrap();
        drop(file);
        from = to;
        if i < 2 {
            pause(&mut h, settle * 2 + interval * 2, nothing_yet);
        }
    }
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| settled(h, &v3)),
        "v3 never opened whole"
    );
    let truth3 = load_truth("series/v3.truth.json.xz");
    assert_results_are_truths(&open_for(&h, &v3).unwrap().report.results, &truth3);
    assert_eq!(
        open_for(&h, &v3).unwrap().report.results.len(),
        truth3.len()
    );

    // rsync's way: a hidden temporary name, written in pieces, then renamed.
    let v4 = dir.join("v4.ncu-rep");
    let tmp = dir.join(".v4.ncu-rep.Xa81bz");
    let bytes4 = fixture_bytes("series/v4.ncu-rep.xz");
    std::fs::write(&tmp, &bytes4[..bytes4.len() / 2]).unwrap();
    pause(&mut h, interval * 3, |h| {
        assert_eq!(h.state().workspace().reports().len(), 1);
    });
    std::fs::write(&tmp, &bytes4).unwrap();
    std::fs::rename(&tmp, &v4).unwrap();
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| settled(h, &v4)),
        "v4 never opened once renamed"
    );
    let truth4 = load_truth("series/v4.truth.json.xz");
    let id4: ReportId = open_for(&h, &v4).unwrap().id;
    assert_results_are_truths(&open_for(&h, &v4).unwrap().report.results, &truth4);

    // Reload: read again in place, the same report.
    h.state_mut().handle(Command::ReloadReport(id4));
    assert!(step_until(&mut h, WAIT_TIMEOUT, |h| !h
        .state()
        .workspace()
        .is_loading()));
    assert_eq!(open_for(&h, &v4).unwrap().id, id4);
    assert_eq!(h.state().workspace().reports().len(), 2);

    // v3 written again with v5's profile: read again in place, one run.
    let id3 = open_for(&h, &v3).unwrap().id;
    std::fs::write(&v3, fixture_bytes("series/v5.ncu-rep.xz")).unwrap();
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| settled(h, &v3)
            && open_for(h, &v3).is_some_and(|r| r
                .report
                .results
                .iter()
                .any(|r| r.name.function == "gemm_tiled_2d"))),
        "v3 written again was not read again in place"
    );
    assert_eq!(open_for(&h, &v3).unwrap().id, id3);
    assert_results_are_truths(
        &open_for(&h, &v3).unwrap().report.results,
        &load_truth("series/v5.truth.json.xz"),
    );
    assert_eq!(h.state().workspace().reports().len(), 2);
    assert!(h.state().workspace().failed().is_empty());
    assert!(step_until(&mut h, WAIT_TIMEOUT, |h| has_label(
        h,
        "2 runs, in the order given: v3, v4"
    )));
    let _ = std::fs::remove_dir_all(dir);
}

/// What the child process of the next two tests follows: `DIR|LIMIT|PLAIN|COMPRESSED`.
const CHILD: &str = "SIGHTLINE_TEST_FOLLOW_CHILD";

/// A folder of `plain` reports and `compressed` ones (`.ncu-rep.xz`), written an hour ago.
fn folder_of_many(name: &str, plain: usize, compressed: usize) -> std::path::PathBuf {
    let dir = temp_dir(name);
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    let mut firsts = Vec::new();
    if plain > 0 {
        let bytes = fixture_bytes("series/v1.ncu-rep.xz");
        firsts.push(linked_copies(&dir, &bytes, plain, ".ncu-rep").remove(0));
    }
    if compressed > 0 {
        let raw = std::fs::read(common::fixture_path("series/v2.ncu-rep.xz")).unwrap();
        firsts.push(linked_copies(&dir, &raw, compressed, ".ncu-rep.xz").remove(0));
    }
    for first in firsts {
        std::fs::File::options()
            .write(true)
            .open(first)
            .unwrap()
            .set_modified(old)
            .unwrap();
    }
    dir
}

/// Runs `test` of this binary again in a child under `ulimit -n LIMIT`, following `dir`; what
/// the child printed.
fn in_child(test: &str, dir: &Path, limit: usize, plain: usize, compressed: usize) -> String {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -n {limit} && exec \"$0\" \"$@\""))
        .arg(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(
            CHILD,
            format!("{}|{limit}|{plain}|{compressed}", dir.display()),
        )
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains(&format!("followed under ulimit -n {limit}:")),
        "{said}"
    );
    println!("{said}");
    said
}

/// A folder of ten times more reports than the open-file limit, followed in a child process
/// under that limit (`ulimit -n 64`): every report opens (each reads its bodies again), on
/// at most one loading thread per core; then, with nothing arriving, the process uses next
/// to no CPU time.
#[cfg(target_os = "linux")]
#[test]
fn a_folder_beyond_the_open_file_limit_opens_every_report_and_idles_for_free() {
    if let Ok(spec) = std::env::var(CHILD) {
        return follow_in_child(&spec);
    }
    let dir = folder_of_many("follow-many", 640, 10);
    let said = in_child(
        "app_follow::a_folder_beyond_the_open_file_limit_opens_every_report_and_idles_for_free",
        &dir,
        64,
        640,
        10,
    );
    assert!(said.contains("650 of 650 reports open"), "{said}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Compressed reports keep their decompressed copy's descriptor: more of them than the limit
/// allows are each open, or say the limit in words; none is shown damaged or unreadable.
#[cfg(target_os = "linux")]
#[test]
fn compressed_reports_beyond_the_open_file_limit_say_it_in_words() {
    if let Ok(spec) = std::env::var(CHILD) {
        return follow_in_child(&spec);
    }
    let dir = folder_of_many("follow-many-xz", 0, 40);
    let said = in_child(
        "app_follow::compressed_reports_beyond_the_open_file_limit_say_it_in_words",
        &dir,
        24,
        0,
        40,
    );
    assert!(!said.contains("; 0 said the limit)"), "{said}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Threads of this process now.
fn threads_now() -> usize {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Threads:"))
                .and_then(|n| n.trim().parse().ok())
        })
        .unwrap_or(0)
}

/// The child: the application state without a window, following the folder of `spec`
/// (`DIR|LIMIT|PLAIN|COMPRESSED`) under the open-file limit.
fn follow_in_child(spec: &str) {
    use sightline_app::AppState;
    let fields: Vec<&str> = spec.split('|').collect();
    let dir = Path::new(fields[0]);
    let number = |i: usize| fields[i].parse::<usize>().unwrap();
    let (limit, plain, compressed) = (number(1), number(2), number(3));
    assert_eq!(
        sightline_engine::parse::open_files::open_file_limit(),
        Some(limit as u64)
    );
    let mut state = AppState::new(Default::default());
    state.set_follow_settle(Duration::from_millis(600));
    state.handle(Command::FollowFolder(dir.to_path_buf()));
    let most = state.most_loading_threads();
    let (mut peak_loaders, mut peak_threads) = (0, 0);
    let total = plain + compressed;
    let started = Instant::now();
    loop {
        state.poll_followed();
        state.poll_loads();
        peak_loaders = peak_loaders.max(state.loading_threads());
        peak_threads = peak_threads.max(threads_now());
        let ws = state.workspace();
        if ws.reports().len() + ws.failed().len() == total && !ws.is_loading() {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(600),
            "{} of {total} after 10 minutes",
            ws.reports().len()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let ws = state.workspace();
    let open_plain = ws
        .reports()
        .iter()
        .filter(|r| {
            r.path
                .as_ref()
                .is_some_and(|p| p.extension().is_some_and(|e| e == "ncu-rep"))
        })
        .count();
    assert_eq!(open_plain, plain, "every plain report opens");
    for failed in ws.failed() {
        let text = failed.error.to_string();
        assert!(
            text.contains(&format!("({limit}, the open-file limit `ulimit -n`)")),
            "{text}"
        );
    }
    assert!(state.notice().is_none(), "{:?}", state.notice());
    assert!(
        peak_loaders <= most,
        "{peak_loaders} loading threads, at most {most}"
    );
    assert!(peak_threads < 64, "{peak_threads} threads");
    // Every report's first result body reads: descriptors let go are opened again.
    let mut bodies = 0;
    for open in ws.reports().iter().take(200) {
        if let Some(first) = open.report.results.first() {
            assert!(!first.metrics().is_empty(), "{:?}", open.path);
            assert_eq!(first.body_error(), None, "{:?}", open.path);
            bodies += 1;
        }
    }
    let (open, failed) = (ws.reports().len(), ws.failed().len());
    // Idle: nothing arrives; the followed folder costs no CPU.
    std::thread::sleep(Duration::from_millis(500));
    state.poll_followed();
    let before = common::cpu_time::process_cpu_time();
    std::thread::sleep(Duration::from_secs(3));
    let used = common::cpu_time::process_cpu_time() - before;
    state.poll_followed();
    println!(
        "followed under ulimit -n {limit}: {} of {total} reports open ({open_plain} plain, {} \
         compressed; {} said the limit), {bodies} bodies read again, at most {peak_loaders} \
         loading threads ({peak_threads} threads in all), {:?} of CPU in 3 s idle",
        open,
        open - open_plain,
        failed,
        used
    );
    assert!(
        used < Duration::from_millis(150),
        "{used:?} of CPU while idle"
    );
}
