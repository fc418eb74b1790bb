//! The state machine on real reports written into a temporary folder, with the time of each
//! look given: writes in pieces, a copy cut short, a temporary name renamed, ncu's appends
//! (the intermediate states of `fixtures/arrival`) with and without ncu seen running, a
//! writer holding the file open, a report written again, a report there before following.

use super::*;
use crate::parse::arrival::writers::Writer;

/// A fixture, decompressed.
fn fixture(rel: &str) -> Vec<u8> {
    let xz = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(rel);
    let raw = std::fs::read(&xz).expect("fixture");
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut xz2::read::XzDecoder::new(&raw[..]), &mut out).expect("xz");
    out
}

/// The sizes of the states ncu left on disk while it appended ten results
/// (`fixtures/arrival/slow.states`: time, size, modification time, name).
fn ncu_state_sizes() -> Vec<usize> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/arrival/slow.states");
    std::fs::read_to_string(path)
        .expect("states")
        .lines()
        .map(|l| l.split(' ').nth(1).expect("size").parse().expect("a size"))
        .collect()
}

/// Writers named by the test.
#[derive(Default)]
struct Told(HashMap<PathBuf, Writer>);

impl WriterCheck for Told {
    fn writers(&mut self, files: &[PathBuf]) -> HashMap<PathBuf, Writer> {
        files
            .iter()
            .filter_map(|f| Some((f.clone(), self.0.get(f)?.clone())))
            .collect()
    }
}

struct Folder {
    dir: tempfile::TempDir,
    arrivals: Arrivals,
    t0: Instant,
    writers: Told,
}

impl Folder {
    fn new() -> Self {
        Folder {
            dir: tempfile::tempdir().unwrap(),
            arrivals: Arrivals::new(SettleTimes::default()),
            t0: Instant::now(),
            writers: Told::default(),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// A look `secs` seconds after the start (the files' clock is the real one: what is
    /// written now is new).
    fn look(&mut self, secs: f64) -> Vec<Arrival> {
        let at = self.t0 + Duration::from_secs_f64(secs);
        self.arrivals
            .look(self.dir.path(), at, SystemTime::now(), &mut self.writers)
            .unwrap()
    }
}

fn growing(path: &Path, writer: Option<Writer>) -> Arrival {
    Arrival::Growing {
        path: path.to_path_buf(),
        writer,
    }
}

fn settled(path: &Path, by: SettledBy) -> Arrival {
    Arrival::Settled {
        path: path.to_path_buf(),
        by,
    }
}

#[test]
fn a_report_written_in_pieces_is_shown_whole_states_only_and_settles_when_quiet() {
    let mut f = Folder::new();
    let a = f.path("a.ncu-rep");
    let bytes = fixture("series/v1.ncu-rep.xz");
    std::fs::write(&a, &bytes[..1000]).unwrap();
    std::fs::write(f.path("notes.txt"), b"not a report").unwrap();
    // Cut mid-block: nothing to show.
    assert!(f.look(0.0).is_empty());
    assert!(f.arrivals.waiting());
    // Whole: shown growing once, then quiet but not for SETTLE yet.
    std::fs::write(&a, &bytes).unwrap();
    assert_eq!(f.look(1.0), [growing(&a, None)]);
    assert!(f.look(2.0).is_empty());
    // Settled: handed on once.
    assert_eq!(f.look(4.5), [settled(&a, SettledBy::Quiet(SETTLE))]);
    assert!(f.look(9.0).is_empty());
    assert!(!f.arrivals.waiting());
    // An empty file is never a report.
    let b = f.path("b.ncu-rep");
    std::fs::write(&b, b"").unwrap();
    assert!(f.look(10.0).is_empty());
    assert!(f.look(20.0).is_empty());
}

#[test]
fn a_report_cut_short_is_waited_for_however_long_the_pause() {
    let mut f = Folder::new();
    let a = f.path("run.ncu-rep");
    let bytes = fixture("series/v1.ncu-rep.xz");
    // A copy that stalls half-way, for far longer than the look interval and SETTLE.
    std::fs::write(&a, &bytes[..bytes.len() / 2]).unwrap();
    for s in [0.0, 1.0, 4.0, 10.0, 30.0] {
        assert!(f.look(s).is_empty(), "{s} s");
    }
    // The copy completes: settled once quiet, whole.
    std::fs::write(&a, &bytes).unwrap();
    assert_eq!(f.look(31.0), [growing(&a, None)]);
    assert_eq!(f.look(35.0), [settled(&a, SettledBy::Quiet(SETTLE))]);
    // A report that stays cut is handed on after GIVE_UP (its error then names it).
    let b = f.path("stuck.ncu-rep");
    std::fs::write(&b, &bytes[..bytes.len() / 3]).unwrap();
    assert!(f.look(40.0).is_empty());
    assert!(f.look(50.0).is_empty());
    assert_eq!(f.look(100.0), [settled(&b, SettledBy::GaveUp(GIVE_UP))]);
}

#[test]
fn a_report_written_under_another_name_is_seen_once_renamed() {
    let mut f = Folder::new();
    let bytes = fixture("series/v2.ncu-rep.xz");
    // rsync's and browsers' way: a temporary (hidden) name, then the real one.
    let tmp = f.path(".run.ncu-rep.Xa81bz");
    std::fs::write(&tmp, &bytes[..bytes.len() / 2]).unwrap();
    assert!(f.look(0.0).is_empty());
    std::fs::write(&tmp, &bytes).unwrap();
    assert!(f.look(5.0).is_empty());
    let real = f.path("run.ncu-rep");
    std::fs::rename(&tmp, &real).unwrap();
    assert_eq!(f.look(6.0), [growing(&real, None)]);
    assert_eq!(f.look(10.0), [settled(&real, SettledBy::Quiet(SETTLE))]);
}

/// ncu's appends replayed: every state is shown growing; with ncu seen running the report
/// never settles, however long a pause, and settles as soon as ncu ends.
#[test]
fn ncu_appending_shows_each_state_and_settles_when_ncu_ends() {
    let final_bytes = fixture("arrival/slow.ncu-rep.xz");
    let sizes = ncu_state_sizes();
    assert_eq!(sizes.len(), 10);
    assert_eq!(*sizes.last().unwrap(), final_bytes.len());
    for ncu_seen in [true, false] {
        let mut f = Folder::new();
        let path = f.path("slow.ncu-rep");
        let ncu = Writer::Ncu { pid: 4242 };
        if ncu_seen {
            f.writers.0.insert(path.clone(), ncu.clone());
        }
        let writer = ncu_seen.then(|| ncu.clone());
        let mut t = 0.0;
        for &size in &sizes {
            std::fs::write(&path, &final_bytes[..size]).unwrap();
            assert_eq!(f.look(t), [growing(&path, writer.clone())], "{size} bytes");
            // ncu's gap between results: not settled.
            assert!(f.look(t + 1.3).is_empty());
            t += 1.4;
        }
        if ncu_seen {
            // A long kernel: ncu still runs, no settling on time.
            assert!(f.look(t + 30.0).is_empty());
            f.writers.0.clear();
            assert_eq!(f.look(t + 30.5), [settled(&path, SettledBy::NcuEnded)]);
        } else {
            assert_eq!(f.look(t + 3.0), [settled(&path, SettledBy::Quiet(SETTLE))]);
        }
    }
}

#[test]
fn a_writer_holding_the_file_keeps_it_growing_until_it_closes_it() {
    let mut f = Folder::new();
    let path = f.path("copy.ncu-rep");
    let bytes = fixture("series/v3.ncu-rep.xz");
    let cp = Writer::Process {
        pid: 7,
        name: "cp".into(),
    };
    f.writers.0.insert(path.clone(), cp.clone());
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    assert!(f.look(0.0).is_empty());
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(f.look(1.0), [growing(&path, Some(cp))]);
    assert!(f.look(200.0).is_empty(), "held open: not settled by time");
    f.writers.0.clear();
    assert_eq!(f.look(200.5), [settled(&path, SettledBy::WriterClosed)]);
}

#[test]
fn a_report_written_again_is_followed_again_under_its_path() {
    let mut f = Folder::new();
    let path = f.path("v.ncu-rep");
    std::fs::write(&path, fixture("series/v1.ncu-rep.xz")).unwrap();
    assert_eq!(f.look(0.0), [growing(&path, None)]);
    assert_eq!(f.look(3.0), [settled(&path, SettledBy::Quiet(SETTLE))]);
    std::fs::write(&path, fixture("series/v5.ncu-rep.xz")).unwrap();
    assert_eq!(f.look(10.0), [growing(&path, None)]);
    assert_eq!(f.look(13.0), [settled(&path, SettledBy::Quiet(SETTLE))]);
    // Removed, then written again: new.
    std::fs::remove_file(&path).unwrap();
    assert!(f.look(14.0).is_empty());
    std::fs::write(&path, fixture("series/v2.ncu-rep.xz")).unwrap();
    assert_eq!(f.look(15.0), [growing(&path, None)]);
}

#[test]
fn reports_there_before_settle_at_once_and_compressed_ones_never_show_growing() {
    let mut f = Folder::new();
    let old = f.path("old.ncu-rep");
    std::fs::write(&old, fixture("series/v1.ncu-rep.xz")).unwrap();
    let written = SystemTime::now() - Duration::from_secs(600);
    std::fs::File::options()
        .write(true)
        .open(&old)
        .unwrap()
        .set_modified(written)
        .unwrap();
    // A compressed report's end cannot be told: it settles by time alone.
    let xz = f.path("new.ncu-rep.xz");
    let raw = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/series/v2.ncu-rep.xz"),
    )
    .unwrap();
    std::fs::write(&xz, &raw).unwrap();
    assert_eq!(f.look(0.0), [settled(&old, SettledBy::Quiet(SETTLE))]);
    assert!(f.look(1.0).is_empty());
    assert_eq!(f.look(3.0), [settled(&xz, SettledBy::Quiet(SETTLE))]);
}

#[test]
fn times_for_a_settling_time_look_often_enough() {
    let t = SettleTimes::with_settle(Duration::from_millis(600));
    assert_eq!(t.interval, Duration::from_millis(100));
    assert_eq!(t.give_up, GIVE_UP);
    assert_eq!(SettleTimes::with_settle(SETTLE), SettleTimes::default());
}
