//! `sightline mcp` against hostile files and clients, each on inputs the test builds from real
//! fixtures: a report whose line table names a CUDA file outside the roots, FIFOs where
//! reports and sources should be, one report named twice in a series, more reports than the
//! open-file limit allows (the limit lowered in the server's own shell), a report followed by
//! gigabytes of holes, calls cancelled mid-way, and comparisons of thousands of renamed
//! kernels whose answers must stay cut.

use crate::common;
use crate::mcp_client::Client;

use serde_json::{Value as Json, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A call that should answer at once: long past this it is taken as hung.
const PROMPT: Duration = Duration::from_secs(30);

/// A fresh folder with a short path (`/tmp/slPID-TAG`), so that a path the test writes into a
/// report fits where a shorter one was; removed when dropped.
struct ShortDir(PathBuf);

impl ShortDir {
    fn new(tag: &str) -> ShortDir {
        let dir = PathBuf::from(format!("/tmp/sl{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        ShortDir(dir)
    }
}

impl Drop for ShortDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The folder the source report's line table records (`/opt/sightline-fixture/src`, 26 bytes).
const RECORDED_DIR: &[u8] = b"/opt/sightline-fixture/src";

/// `source/inl_nosrc.ncu-rep` (a report without its CUDA file) with the folder its line table
/// records rewritten to `dir` (padded with slashes to the same length, so no length in the
/// report changes).
fn report_naming_folder(dir: &Path) -> Vec<u8> {
    let mut bytes = common::fixture_bytes("source/inl_nosrc.ncu-rep.xz");
    let mut to = dir.as_os_str().as_encoded_bytes().to_vec();
    assert!(
        to.len() <= RECORDED_DIR.len(),
        "{} is too long",
        dir.display()
    );
    to.resize(RECORDED_DIR.len(), b'/');
    let mut replaced = 0;
    let mut at = 0;
    while let Some(i) = bytes[at..]
        .windows(RECORDED_DIR.len())
        .position(|w| w == RECORDED_DIR)
    {
        bytes[at + i..at + i + to.len()].copy_from_slice(&to);
        at += i + to.len();
        replaced += 1;
    }
    assert!(replaced > 0, "the fixture records {RECORDED_DIR:?}");
    bytes
}

/// A CUDA file whose every line says where it is.
fn write_cuda(dir: &Path, marker: &str) {
    std::fs::create_dir_all(dir).unwrap();
    let text: String = (1..=400)
        .map(|i| format!("// {marker} line {i}\n"))
        .collect();
    std::fs::write(dir.join("inl.cu"), text).unwrap();
}

fn mkfifo(path: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo");
    assert!(ok.success());
}

/// The refusal of `path` with the path itself taken out: one text for every reason.
fn refusal(c: &mut Client, path: &str) -> String {
    let r = c
        .call_within("list_results", json!({"report": path}), PROMPT)
        .unwrap_or_else(|| panic!("{path}: no answer in {PROMPT:?} (a blocked open?)"));
    assert_eq!(r["isError"], true, "{path} must be refused: {r}");
    let text = r["content"][0]["text"].as_str().unwrap().to_string();
    assert!(text.starts_with(path), "{text}");
    text[path.len()..].to_string()
}

/// Source text comes from the report or from under the roots, whatever folder the report's
/// line table names: a CUDA file outside (or behind a symlink out) is not read, and the answer
/// says so in one sentence, the same whether the file outside exists or not.
#[cfg(unix)]
#[test]
fn source_text_outside_the_roots_is_never_read() {
    let dir = ShortDir::new("src");
    let root = dir.0.join("r");
    let outside = dir.0.join("o");
    write_cuda(&root.join("s"), "inside the root");
    write_cuda(&outside, "OUTSIDE SECRET");
    std::os::unix::fs::symlink(&outside, root.join("l")).unwrap();
    for (name, folder) in [
        ("in.ncu-rep", root.join("s")),
        ("out.ncu-rep", outside.clone()),
        ("link.ncu-rep", root.join("l")),
        ("absent.ncu-rep", dir.0.join("x")),
    ] {
        std::fs::write(root.join(name), report_naming_folder(&folder)).unwrap();
    }
    let mut c = Client::start(&[&root]);
    c.initialize();
    let hotspots = |c: &mut Client, report: &str| -> Json {
        let s = c.structured("source_hotspots", json!({"report": report, "limit": 50}));
        assert!(!s["lines"].as_array().unwrap().is_empty(), "{s}");
        s
    };
    // Under the root, the file is read.
    let inside = hotspots(&mut c, "in.ncu-rep");
    assert!(
        inside["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["source"]
                .as_str()
                .is_some_and(|t| t.contains("inside the root"))),
        "{inside}"
    );
    // Outside, directly or through a symlink: not read, and said.
    let note_of = |s: &Json| -> String {
        let notes: Vec<&str> = s["notes"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Json::as_str)
            .filter(|n| n.contains("was not read"))
            .collect();
        assert_eq!(notes.len(), 1, "{s}");
        notes[0].to_string()
    };
    let mut refusals = Vec::new();
    for report in ["out.ncu-rep", "link.ncu-rep", "absent.ncu-rep"] {
        let s = hotspots(&mut c, report);
        assert!(!s.to_string().contains("OUTSIDE SECRET"), "{report}: {s}");
        assert!(
            s["lines"]
                .as_array()
                .unwrap()
                .iter()
                .all(|l| l["source"].is_null())
        );
        let note = note_of(&s);
        assert!(note.contains("not a file under the directories this server may read"));
        // The note without the recorded path, which differs per report.
        refusals.push(note[note.find(" was not read").unwrap()..].to_string());
    }
    assert!(refusals.windows(2).all(|w| w[0] == w[1]), "{refusals:?}");
}

/// A FIFO as a report (inside the root, outside it, behind a symlink) or as a CUDA file: every
/// one is refused at once, with the answer of a missing file, and none is ever opened (a
/// writer that only succeeds while a reader holds the FIFO open never succeeds).
#[cfg(target_os = "linux")]
#[test]
fn a_fifo_is_never_opened_nor_waited_for() {
    use std::os::unix::fs::OpenOptionsExt;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    const O_NONBLOCK: i32 = 0o4000;
    let dir = ShortDir::new("fifo");
    let root = dir.0.join("r");
    let outside = dir.0.join("o");
    std::fs::create_dir_all(root.join("f")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let fifos = [
        root.join("in.ncu-rep"),
        outside.join("out.ncu-rep"),
        root.join("f/inl.cu"),
    ];
    for f in &fifos {
        mkfifo(f);
    }
    std::os::unix::fs::symlink(outside.join("out.ncu-rep"), root.join("link.ncu-rep")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", root.join("zero.ncu-rep")).unwrap();
    std::fs::write(
        root.join("src.ncu-rep"),
        report_naming_folder(&root.join("f")),
    )
    .unwrap();
    // Opening a FIFO to write without blocking succeeds only while a reader has it open.
    let stop = Arc::new(AtomicBool::new(false));
    let opened = Arc::new(AtomicUsize::new(0));
    let watcher = {
        let (stop, opened, fifos) = (Arc::clone(&stop), Arc::clone(&opened), fifos.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                for f in &fifos {
                    let w = std::fs::OpenOptions::new()
                        .write(true)
                        .custom_flags(O_NONBLOCK)
                        .open(f);
                    if w.is_ok() {
                        opened.fetch_add(1, Ordering::SeqCst);
                    }
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        })
    };
    let mut c = Client::start(&[&root]);
    c.initialize();
    let missing = refusal(&mut c, "missing.ncu-rep");
    let outside_fifo = outside.join("out.ncu-rep");
    for path in [
        "in.ncu-rep",
        "link.ncu-rep",
        outside_fifo.to_str().unwrap(),
        "zero.ncu-rep",
        "/dev/zero",
    ] {
        let started = Instant::now();
        assert_eq!(refusal(&mut c, path), missing, "{path}");
        assert!(started.elapsed() < Duration::from_secs(10), "{path}");
    }
    assert_eq!(
        opened.load(Ordering::SeqCst),
        0,
        "the server opened a FIFO named as a report"
    );
    // A report whose CUDA file is a FIFO under the root: answered, the file not read.
    let s = c
        .call_within("source_hotspots", json!({"report": "src.ncu-rep"}), PROMPT)
        .expect("no answer: the server waits on the FIFO");
    assert_ne!(s["isError"], true, "{s}");
    assert!(s.to_string().contains("was not read"), "{s}");
    stop.store(true, Ordering::Relaxed);
    watcher.join().unwrap();
    assert_eq!(
        opened.load(Ordering::SeqCst),
        0,
        "the server opened a FIFO named as a CUDA file"
    );
    // Still serving.
    let ok = c.call_within("list_results", json!({"report": "src.ncu-rep"}), PROMPT);
    assert_ne!(ok.expect("an answer")["isError"], true);
}

/// One report named twice in a series (`a.ncu-rep`, `./a.ncu-rep`): the series is answered,
/// and so is every later call on that report.
#[test]
fn one_report_named_twice_in_a_series_is_answered() {
    let dir = common::TempFixtures::new("mcp-twice");
    dir.add("a.ncu-rep", "series/v1.ncu-rep.xz");
    dir.add("b.ncu-rep", "series/v2.ncu-rep.xz");
    let mut c = Client::start(&[&dir.0]);
    c.initialize();
    let t = c
        .call_within(
            "trend",
            json!({"reports": ["a.ncu-rep", "./a.ncu-rep", "b.ncu-rep"]}),
            PROMPT,
        )
        .expect("the series answered (no lock taken twice)");
    assert_ne!(t["isError"], true, "{t}");
    let runs = t["structuredContent"]["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3);
    let later = c
        .call_within("list_results", json!({"report": "a.ncu-rep"}), PROMPT)
        .expect("a later call on the report answered");
    assert_ne!(later["isError"], true, "{later}");
}

/// The server's peak resident memory (`VmHWM`), bytes.
#[cfg(target_os = "linux")]
fn peak_memory(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("VmHWM");
    let kb: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap();
    kb * 1024
}

/// A real report followed by 4 GiB of holes: `source_hotspots` reads the report's code, not
/// the file, so the server stays far below the file's size and lets nothing of it stay.
#[cfg(target_os = "linux")]
#[test]
fn source_hotspots_reads_only_the_code_of_a_report() {
    let dir = common::TempFixtures::new("mcp-holes");
    let path = dir.add("holes.ncu-rep", "h100/kernels_full.ncu-rep.xz");
    let real = std::fs::metadata(&path).unwrap().len();
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(real + (4 << 30)).unwrap();
    drop(file);
    let mut c = Client::start(&[&dir.0]);
    c.initialize();
    let s = c.structured("source_hotspots", json!({"report": "holes.ncu-rep"}));
    assert!(!s["instructions"].as_array().unwrap().is_empty(), "{s}");
    let again = c.structured("source_hotspots", json!({"report": "holes.ncu-rep"}));
    assert_eq!(again["instructions"], s["instructions"]);
    let peak = peak_memory(c.pid());
    eprintln!("peak {} MiB for a {} MiB report", peak >> 20, real >> 20);
    assert!(peak < 1 << 30, "peak resident memory {} MiB", peak >> 20);
}

/// `count` names for one real report in `dir` (hard links: one file's worth of disk), each a
/// report of its own to the server.
fn linked_copies(dir: &Path, fixture: &str, count: usize) -> Vec<String> {
    let first = dir.join("r00000.ncu-rep");
    if !first.exists() {
        std::fs::write(&first, common::fixture_bytes(fixture)).unwrap();
    }
    (0..count)
        .map(|i| {
            let name = format!("r{i:05}.ncu-rep");
            let path = dir.join(&name);
            if !path.exists() {
                std::fs::hard_link(&first, &path).unwrap();
            }
            name
        })
        .collect()
}

/// 150 reports under an open-file limit of 64: each is listed, the series of all is answered,
/// and so is the CLI's trend of the folder, since neither keeps a file open per report.
#[cfg(target_os = "linux")]
#[test]
fn more_reports_than_the_open_file_limit_are_read_in_turn() {
    let dir = common::TempFixtures::new("mcp-many");
    let names = linked_copies(&dir.0, "h100/kernels_basic.ncu-rep.xz", 150);
    let mut c = Client::start_under("ulimit -n 64", &[&dir.0]);
    c.initialize();
    for name in &names {
        let r = c.call("list_results", json!({"report": name}));
        assert_ne!(r["isError"], true, "{name}: {r}");
    }
    let t = c.structured("trend", json!({"reports": names}));
    assert_eq!(t["runs"].as_array().unwrap().len(), names.len());
    let cmp = c.structured(
        "compare",
        json!({"base": names[0], "current": names[names.len() - 1]}),
    );
    assert!(cmp["matched_count"].as_u64().unwrap() > 0);
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -n 64\nexec \"$0\" trend --format json \"$1\"")
        .arg(env!("CARGO_BIN_EXE_sightline"))
        .arg(&dir.0)
        .output()
        .unwrap();
    let doc: Json = common::printed_json(&out);
    assert_eq!(doc["runs"].as_array().unwrap().len(), names.len());
}

/// How many descriptors below 10 a process holds (those a shell can close or leave free).
#[cfg(target_os = "linux")]
fn low_descriptors(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&fd| fd < 10)
        .count()
}

/// A server whose open-file limit leaves it two descriptors beyond those it holds when idle,
/// too few to read a report (the file, and the report's own reader while it opens): the
/// answer says why in words, with the limit, instead of calling the file unreadable; the
/// server answers on.
#[cfg(target_os = "linux")]
#[test]
fn the_open_file_limit_is_told_in_words() {
    let dir = common::TempFixtures::new("mcp-limit");
    dir.add("basic.ncu-rep", "h100/kernels_basic.ncu-rep.xz");
    // Descriptors 3 to 9 inherited from the test's process are closed first.
    let close = "exec 3<&- 4<&- 5<&- 6<&- 7<&- 8<&- 9<&-";
    let mut idle = Client::start_under(close, &[&dir.0]);
    idle.initialize();
    let limit = low_descriptors(idle.pid()) + 2;
    drop(idle);
    let mut c = Client::start_under(&format!("{close}\nulimit -n {limit}"), &[&dir.0]);
    c.initialize();
    let r = c.call("list_results", json!({"report": "basic.ncu-rep"}));
    assert_eq!(r["isError"], true, "{r}");
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("open-file limit") && text.contains(&format!("({limit},")),
        "{text}"
    );
    assert!(!text.contains("not readable here"), "{text}");
    let pong = c.request("ping", json!({}));
    assert!(pong["result"].is_object(), "{pong}");
}

/// As many long series as the server has threads for calls, each cancelled once it runs:
/// a quick call is answered at once (the threads are free), and the server uses no CPU
/// afterwards (nothing runs on).
#[cfg(target_os = "linux")]
#[test]
fn a_cancelled_call_stops_and_gives_its_thread_back() {
    let dir = common::TempFixtures::new("mcp-cancel");
    dir.add("small.ncu-rep", "h100/kernels_basic.ncu-rep.xz");
    let slots = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut c = Client::start(&[&dir.0]);
    c.initialize();
    // How long one report of the series takes, read for the first time.
    let probe = linked_copies(&dir.0, "big/many_basic.ncu-rep.xz", 4);
    let started = Instant::now();
    c.structured("trend", json!({"reports": probe}));
    let per_report = started.elapsed() / 4;
    // Each call reads enough reports to keep its thread busy for a minute.
    let count = (Duration::from_secs(60).as_secs_f64() / per_report.as_secs_f64())
        .ceil()
        .clamp(20.0, 5_000.0) as usize;
    let names = linked_copies(&dir.0, "big/many_basic.ncu-rep.xz", slots * count + 4);
    for k in 0..slots {
        let series = &names[4 + k * count..4 + (k + 1) * count];
        c.send_raw(&Client::call_line(
            9_000 + k as u64,
            "trend",
            &json!({ "reports": series }),
        ));
    }
    std::thread::sleep(Duration::from_millis(500));
    for k in 0..slots {
        c.send_raw(&format!(
            r#"{{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {{"requestId": {}}}}}"#,
            9_000 + k
        ));
    }
    let cancelled = Instant::now();
    let quick = c
        .call_within("list_results", json!({"report": "small.ncu-rep"}), PROMPT)
        .expect("a quick call answered while cancelled calls held the threads");
    assert_ne!(quick["isError"], true, "{quick}");
    let waited = cancelled.elapsed();
    assert!(
        waited < Duration::from_secs(10),
        "the quick call waited {waited:?}"
    );
    let before = common::cpu_time::cpu_time_of(c.pid());
    std::thread::sleep(Duration::from_secs(2));
    let used = common::cpu_time::cpu_time_of(c.pid()) - before;
    assert!(
        used < Duration::from_millis(500),
        "the server used {used:?} of CPU after every call was cancelled"
    );
    while let Some(m) = c.next_within(Duration::from_millis(200)) {
        assert!(m["id"].as_u64().is_none_or(|id| id < 9_000), "{m}");
    }
}

/// A CSV export of `kernels` launches made from the rows of a real one, every kernel renamed
/// by `prefix` (`a17_vector_add(...)`), its parameters kept.
fn many_kernels_csv(kernels: usize, prefix: &str) -> String {
    let text = String::from_utf8(common::fixture_bytes("h100/kernels_basic.raw.csv")).unwrap();
    let mut rows = csv::Reader::from_reader(text.as_bytes());
    let header = rows.headers().unwrap().clone();
    let records: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    let (units, launches) = records.split_first().unwrap();
    let name_at = header.iter().position(|h| h == "Kernel Name").unwrap();
    let id_at = header.iter().position(|h| h == "ID").unwrap();
    let mut out = csv::WriterBuilder::new()
        .quote_style(csv::QuoteStyle::Always)
        .from_writer(Vec::new());
    out.write_record(&header).unwrap();
    out.write_record(units).unwrap();
    for i in 0..kernels {
        let mut row: Vec<String> = launches[i % launches.len()]
            .iter()
            .map(str::to_string)
            .collect();
        row[id_at] = i.to_string();
        row[name_at] = format!("{prefix}{i}_{}", row[name_at]);
        out.write_record(&row).unwrap();
    }
    String::from_utf8(out.into_inner().unwrap()).unwrap()
}

/// Two reports of 600 kernels, each renamed: the comparison and the series are answered cut to
/// their limits (renamed kernels, suggested pairs and pairing notes included), saying what
/// they left out.
#[test]
fn compare_and_trend_answers_are_cut_to_their_limits() {
    let dir = common::TempFixtures::new("mcp-cut");
    std::fs::write(dir.0.join("base.csv"), many_kernels_csv(600, "a")).unwrap();
    std::fs::write(dir.0.join("current.csv"), many_kernels_csv(600, "b")).unwrap();
    let mut c = Client::start(&[&dir.0]);
    c.initialize();
    let size = |j: &Json| j.to_string().len();
    for auto_pair in [true, false] {
        let args = json!({"base": "base.csv", "current": "current.csv", "auto_pair": auto_pair});
        let result = c.call("compare", args);
        assert_ne!(result["isError"], true);
        assert!(size(&result) < 50_000, "{} bytes", size(&result));
        let cmp = &result["structuredContent"];
        for list in ["matched", "renamed", "suggested_pairs", "warnings"] {
            assert!(cmp[list].as_array().unwrap().len() <= 10, "{list}");
        }
        let left_out = cmp["left_out"].to_string();
        assert!(
            left_out.contains("renamed kernels") || left_out.contains("suggested pairs"),
            "{left_out}"
        );
    }
    let result = c.call(
        "trend",
        json!({"reports": ["base.csv", "current.csv"], "limit": 20}),
    );
    assert_ne!(result["isError"], true);
    assert!(size(&result) < 50_000, "{} bytes", size(&result));
    let t = &result["structuredContent"];
    assert_eq!(t["kernels"].as_array().unwrap().len(), 20);
    assert!(t["kernel_count"].as_u64().unwrap() >= 600);
    assert!(
        t["left_out"].to_string().contains("20 of"),
        "{}",
        t["left_out"]
    );
}
