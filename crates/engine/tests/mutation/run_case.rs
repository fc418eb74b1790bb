//! Running one case: each parser on its own thread, measured (CPU time, live bytes), and the
//! tally of every fixture's cases with every broken promise.

use crate::fixtures::{is_binary_report, report_fixtures};
use crate::report_mutations::{ReportMutation, report_prefix};
use crate::text_mutations::{TextMutation, text_prefix};
use crate::{
    BIG_REPORT, CASE_TIME_LIMIT, LIVE_FLOOR, REPORT_PREFIX, SERIAL, TEXT_PREFIX, allowance,
};
use sightline_engine::parse::detect::{self, Detected};
use sightline_engine::parse::{
    ParseError, cli_text, csv_details, csv_raw, gui_copy, ncu_rep, parse_any, session, text_clean,
};
use sightline_testkit::cpu_time::{HANG_TIMEOUT, process_cpu_time};
use sightline_testkit::live_bytes::{CURRENT_CASE, LIVE, PEAK};
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What a parser gave: items read (results, modules) or an error message.
pub(crate) type Outcome = Result<usize, String>;

/// A parser under test: bytes in, outcome out.
pub(crate) type Parser = fn(&[u8]) -> Outcome;

/// The text of an error, or an empty string when its own message is blank (every form of
/// [`ParseError`] ends with its message after a colon).
fn error_text(e: &ParseError) -> String {
    let text = e.to_string();
    if text.trim_end().ends_with(':') {
        return String::new();
    }
    text
}

/// What a parser's result says, checking that every warning has words in it.
fn report_outcome(r: Result<sightline_engine::model::Report, ParseError>) -> Outcome {
    match r {
        Ok(report) => {
            assert!(
                report.warnings.iter().all(|w| !w.message.trim().is_empty()),
                "an empty warning"
            );
            Ok(report.results.len())
        }
        Err(e) => Err(error_text(&e)),
    }
}

/// The shared entry point, which detects the form.
pub(crate) fn via_parse_any(bytes: &[u8]) -> Outcome {
    report_outcome(parse_any(bytes))
}

// Each text form's own parser, on the cleaned text as `parse_any` would give it.
fn via_cli_text(bytes: &[u8]) -> Outcome {
    report_outcome(cli_text::parse(&text_clean::clean(bytes)))
}
fn via_csv_details(bytes: &[u8]) -> Outcome {
    report_outcome(csv_details::parse(&text_clean::clean(bytes)))
}
fn via_csv_raw(bytes: &[u8]) -> Outcome {
    report_outcome(csv_raw::parse(&text_clean::clean(bytes)))
}
fn via_session(bytes: &[u8]) -> Outcome {
    report_outcome(session::parse(&text_clean::clean(bytes)))
}
fn via_gui_copy(bytes: &[u8]) -> Outcome {
    report_outcome(gui_copy::parse(&text_clean::clean(bytes)))
}

/// The on-request readers of a report: modules (cubins) and imported source files.
fn via_report_sources(bytes: &[u8]) -> Outcome {
    let modules = ncu_rep::modules(bytes).map_err(|e| error_text(&e))?;
    let files = ncu_rep::source_files(bytes).map_err(|e| error_text(&e))?;
    Ok(modules.len() + files.len())
}

/// The format's own parser of a text form.
fn own_text_parser(kind: Detected) -> (&'static str, Parser) {
    match kind {
        Detected::CsvDetails => ("csv_details", via_csv_details),
        Detected::CsvRaw => ("csv_raw", via_csv_raw),
        Detected::SessionCsv | Detected::SessionText => ("session", via_session),
        Detected::GuiCopy => ("gui_copy", via_gui_copy),
        Detected::Summary | Detected::CliText => ("cli_text", via_cli_text),
        Detected::NcuRep => ("ncu_rep sources", via_report_sources),
    }
}

/// One parse, measured.
pub(crate) struct Run {
    pub(crate) outcome: Result<Outcome, String>,
    elapsed: Duration,
    /// Most bytes live during the parse beyond those live before it.
    pub(crate) peak: usize,
}

/// Parses `input` on its own thread (so a hang is caught) and measures it.
pub(crate) fn run(input: Vec<u8>, parser: Parser) -> Result<(Vec<u8>, Run), String> {
    let (tx, rx) = mpsc::channel();
    let before = LIVE.load(Ordering::Relaxed);
    let table_before = sightline_engine::model::intern::table_bytes();
    PEAK.store(before, Ordering::Relaxed);
    let start = process_cpu_time();
    std::thread::spawn(move || {
        let outcome = catch_unwind(AssertUnwindSafe(|| parser(&input))).map_err(|p| {
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic".into())
        });
        let _ = tx.send((input, outcome));
    });
    let (input, outcome) = rx
        .recv_timeout(HANG_TIMEOUT)
        .map_err(|_| format!("no answer within {HANG_TIMEOUT:?} (a hang)"))?;
    let elapsed = process_cpu_time().saturating_sub(start);
    // Texts interned for the first time stay in the process-wide table (bounded by the
    // distinct texts of the input); the rest must be the parse's own.
    let table_growth = sightline_engine::model::intern::table_bytes().saturating_sub(table_before);
    let peak = PEAK
        .load(Ordering::Relaxed)
        .saturating_sub(before)
        .saturating_sub(table_growth);
    Ok((
        input,
        Run {
            outcome,
            elapsed,
            peak,
        },
    ))
}

/// What the cases of one fixture measured.
#[derive(Default)]
struct Tally {
    cases: usize,
    parses: usize,
    /// Parses that gave a report, and that gave an error.
    read: usize,
    rejected: usize,
    sound_ratio: f64,
    sound_peak: usize,
    worst_ratio: f64,
    worst_case: String,
    slowest: Duration,
    slowest_case: String,
    /// Most live bytes beyond the per-byte allowance: what the floor must cover.
    excess: usize,
    failures: Vec<String>,
}

const SOUND: &str = "Sound";

impl Tally {
    /// Runs one input through each parser and records every broken promise.
    fn check(&mut self, rel: &str, what: &str, mut input: Vec<u8>, parsers: &[(&str, Parser)]) {
        self.cases += 1;
        let len = input.len();
        let allowed = allowance(rel, &input);
        let limit = allowed + LIVE_FLOOR;
        for &(name, parser) in parsers {
            let describe = || format!("{rel} [{what}] via {name} ({len} bytes)");
            *CURRENT_CASE.lock().unwrap_or_else(|e| e.into_inner()) = describe();
            self.parses += 1;
            let run = match run(input, parser) {
                Ok((back, run)) => {
                    input = back;
                    run
                }
                Err(hang) => {
                    self.failures.push(format!("{}: {hang}", describe()));
                    return;
                }
            };
            match &run.outcome {
                Err(panic) => self
                    .failures
                    .push(format!("{}: panic: {panic}", describe())),
                Ok(Err(message)) if message.trim().is_empty() => self
                    .failures
                    .push(format!("{}: an error without a message", describe())),
                Ok(Err(message)) if what == SOUND => self.failures.push(format!(
                    "{}: the sound fixture fails: {message}",
                    describe()
                )),
                Ok(Ok(_)) => self.read += 1,
                Ok(Err(_)) => self.rejected += 1,
            }
            if run.elapsed > CASE_TIME_LIMIT {
                self.failures.push(format!(
                    "{}: took {:?} of CPU time",
                    describe(),
                    run.elapsed
                ));
            }
            if run.peak > limit {
                self.failures.push(format!(
                    "{}: {} bytes live during the parse, limit {limit}",
                    describe(),
                    run.peak,
                ));
            }
            self.excess = self.excess.max(run.peak.saturating_sub(allowed));
            let ratio = run.peak as f64 / len.max(1) as f64;
            if what == SOUND && name == "parse_any" {
                self.sound_ratio = ratio;
                self.sound_peak = run.peak;
            }
            // Small inputs are governed by the floor; their ratio says little.
            if len >= 4096 && ratio > self.worst_ratio {
                self.worst_ratio = ratio;
                self.worst_case = format!("{what} via {name}");
            }
            if run.elapsed > self.slowest {
                self.slowest = run.elapsed;
                self.slowest_case = format!("{what} via {name}");
            }
        }
    }
}

/// `MUTATION_FILTER=text` runs only the cases whose fixture path or mutation contains `text`
/// (to replay one failure).
fn selected(rel: &str, what: &str) -> bool {
    std::env::var("MUTATION_FILTER").map_or(true, |f| rel.contains(&f) || what.contains(&f))
}

/// `MUTATION_ROUNDS=n` (default 1) runs the seeded cases with `n` sets of seeds, for a deeper
/// search than CI's.
fn rounds() -> usize {
    std::env::var("MUTATION_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1)
}

/// Runs every case of one fixture.
fn mutate_fixture(rel: &str) -> Tally {
    let sound = sightline_testkit::fixture_bytes(rel);
    let mut tally = Tally::default();
    let mut check = |what: String, input: Vec<u8>, parsers: &[(&str, Parser)]| {
        if selected(rel, &what) {
            tally.check(rel, &what, input, parsers);
        }
    };
    if is_binary_report(rel) {
        let parsers: [(&str, Parser); 2] = [
            ("parse_any", via_parse_any),
            ("ncu_rep sources", via_report_sources),
        ];
        check(SOUND.into(), sound.clone(), &parsers[..1]);
        let body = if sound.len() > BIG_REPORT {
            let cut = ReportMutation::Truncate {
                at: sound.len() / 2 + 1,
            };
            check(format!("{cut:?}"), cut.apply(&sound), &parsers[..1]);
            report_prefix(&sound, REPORT_PREFIX)
        } else {
            &sound
        };
        let prefix = if body.len() < sound.len() {
            format!("prefix of {} bytes, ", body.len())
        } else {
            String::new()
        };
        for m in (0..rounds()).flat_map(|r| ReportMutation::cases(rel, body, r)) {
            check(format!("{prefix}{m:?}"), m.apply(body), &parsers);
        }
    } else {
        let kind = detect::detect_text(&text_clean::clean(&sound))
            .unwrap_or_else(|| panic!("{rel}: the sound fixture is no known text form"));
        let own = own_text_parser(kind);
        check(SOUND.into(), sound.clone(), &[("parse_any", via_parse_any)]);
        let body = text_prefix(&sound, TEXT_PREFIX);
        let prefix = if body.len() < sound.len() {
            format!("prefix of {} bytes, ", body.len())
        } else {
            String::new()
        };
        for m in (0..rounds()).flat_map(|r| TextMutation::cases(rel, body.len(), r)) {
            let input = m.apply(body);
            // `parse_any` reaches the format's own parser only while the damaged text is still
            // detected as that format; otherwise that parser is called directly too.
            let routed = !input[..input.len().min(8192)].contains(&0)
                && detect::detect_text(&text_clean::clean(&input)) == Some(kind);
            let parsers = [("parse_any", via_parse_any as Parser), own];
            let parsers = if routed { &parsers[..1] } else { &parsers[..] };
            check(format!("{prefix}{m:?}"), input, parsers);
        }
    }
    tally
}

/// Runs every fixture the filter picks, prints what was measured and fails with every broken
/// promise.
pub(crate) fn mutate_fixtures(pick: fn(&str) -> bool) -> usize {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let started = Instant::now();
    let mut failures = Vec::new();
    let mut table = String::new();
    let mut cases = 0;
    for rel in report_fixtures().into_iter().filter(|r| pick(r)) {
        let fixture_started = Instant::now();
        let t = mutate_fixture(&rel);
        cases += t.cases;
        let _ = writeln!(
            table,
            "{rel:<40} {:>3} cases {:>3} parses ({:>3} read, {:>3} rejected) {:>6.2?}  sound {:>5.2}x ({:>6} KiB)  worst {:>5.2}x [{}]  slowest {:>6.0?} [{}]  beyond the allowance: {} KiB",
            t.cases,
            t.parses,
            t.read,
            t.rejected,
            fixture_started.elapsed(),
            t.sound_ratio,
            t.sound_peak >> 10,
            t.worst_ratio,
            t.worst_case,
            t.slowest,
            t.slowest_case,
            t.excess >> 10
        );
        failures.extend(t.failures);
    }
    println!("{table}{cases} cases in {:.1?}", started.elapsed());
    for f in &failures {
        println!("FAILED {f}");
    }
    assert!(
        failures.is_empty(),
        "{} broken promise(s), first: {}",
        failures.len(),
        failures[0]
    );
    cases
}
