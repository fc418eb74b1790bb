//! The headless commands write their output while they read the results, so memory does not grow
//! with the report: a report of thousands of results (the results of a real report repeated)
//! whose bodies come from a source that counts every body it decodes is written by each
//! command's writer, and the count is taken as the output grows. By the time half of the output
//! is written, about half of the bodies (and never all of them) have been decoded; in the end
//! every body was decoded exactly once (one pass), and none is left decoded.

use crate::common;

use sightline_engine::analysis::compare::{CompareRequest, DiffOptions, Keep};
use sightline_engine::analysis::parallel::window_len;
use sightline_engine::model::{BodyHead, BodySource, Report, ResultBody};
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Serves the bodies of a real report's results, result `i` having the body of result
/// `i % bodies.len()`, and counts every body it decodes.
struct CountingSource {
    bodies: Vec<ResultBody>,
    loads: AtomicUsize,
    clock: AtomicU64,
}

impl BodySource for CountingSource {
    fn load(&self, index: usize) -> Result<ResultBody, String> {
        self.loads.fetch_add(1, Ordering::SeqCst);
        Ok(self.bodies[index % self.bodies.len()].clone())
    }

    fn tick(&self) -> u64 {
        self.clock.fetch_add(1, Ordering::Relaxed) + 1
    }
}

/// How many results the large reports have: many windows of results.
fn result_count() -> usize {
    (12 * window_len()).max(300)
}

/// The results of fixture `rel` repeated to `n` results, read on demand from a counting source.
fn repeated(rel: &str, n: usize) -> (Report, Arc<CountingSource>) {
    let whole = common::load_fixture(rel);
    let source = Arc::new(CountingSource {
        bodies: whole.results.iter().map(|r| r.body().clone()).collect(),
        loads: AtomicUsize::new(0),
        clock: AtomicU64::new(0),
    });
    let mut report = whole.clone();
    report.results = (0..n)
        .map(|i| {
            let mut r = whole.results[i % whole.results.len()].clone();
            let head = BodyHead::of(r.body());
            r.id = i as u64;
            r.set_body_on_demand(head, source.clone(), i);
            r
        })
        .collect();
    assert_eq!(report.decoded_bodies(), 0);
    (report, source)
}

/// Output that notes, at every write, how many bytes were written before it and how many bodies
/// the source had decoded by then.
struct Recorder {
    source: Arc<CountingSource>,
    bytes: Vec<u8>,
    marks: Vec<(usize, usize)>,
}

impl Recorder {
    fn new(source: &Arc<CountingSource>) -> Self {
        Recorder {
            source: source.clone(),
            bytes: Vec::new(),
            marks: Vec::new(),
        }
    }

    /// The bodies decoded when the output first reached `fraction` of its final length.
    fn loads_at(&self, fraction: f64) -> usize {
        let at = (self.bytes.len() as f64 * fraction) as usize;
        self.marks
            .iter()
            .find(|(written, _)| *written >= at)
            .map_or(usize::MAX, |(_, loads)| *loads)
    }

    /// Checks that the output of `n` results was written as they were read: at a quarter, half
    /// and three quarters of the output, no more bodies were decoded than that share of the
    /// results and a few windows, and each body was decoded once in all.
    fn assert_streamed(&self, what: &str, n: usize, report: &Report) {
        assert!(
            self.bytes.len() > 100_000,
            "{what}: output too small to tell"
        );
        let slack = 3 * window_len() + 50;
        for fraction in [0.25, 0.5, 0.75] {
            let loads = self.loads_at(fraction);
            let share = (n as f64 * fraction) as usize;
            assert!(
                loads <= share + slack,
                "{what}: {loads} of {n} bodies decoded when {fraction} of the output was written"
            );
            assert!(
                loads < n,
                "{what}: every body decoded before {fraction} of the output"
            );
        }
        assert_eq!(
            self.source.loads.load(Ordering::SeqCst),
            n,
            "{what}: each body decoded once"
        );
        assert_eq!(report.decoded_bodies(), 0, "{what}: bodies left decoded");
    }
}

impl Write for Recorder {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.marks
            .push((self.bytes.len(), self.source.loads.load(Ordering::SeqCst)));
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

const FULL: &str = "h100/kernels_full.ncu-rep.xz";

/// Runs `write` on a fresh large report and checks that it streamed.
fn check(what: &str, write: impl FnOnce(&mut Recorder, &mut Vec<Report>)) {
    let n = result_count();
    let (report, source) = repeated(FULL, n);
    let mut reports = vec![report];
    let mut out = Recorder::new(&source);
    write(&mut out, &mut reports);
    out.assert_streamed(what, n, &reports[0]);
}

#[test]
fn summary_json_is_written_as_the_results_are_read() {
    check("summary --json", |out, reports| {
        sightline_engine::output::summary_json::write_json(out, reports, &[]).unwrap();
    });
}

#[test]
fn sections_are_written_as_the_results_are_read() {
    check("sections --json", |out, reports| {
        sightline_engine::output::sections_json::write_json(out, reports, &[]).unwrap();
    });
    check("sections", |out, reports| {
        sightline_engine::output::sections_text::write_text(out, &mut reports[0]).unwrap();
    });
}

#[test]
fn occupancy_and_roofline_json_are_written_as_the_results_are_read() {
    check("occupancy --json", |out, reports| {
        let options = sightline_engine::analysis::occupancy::OccupancyOptions {
            assumed_cc: None,
            table_only: false,
        };
        sightline_engine::output::occupancy_json::write_json(out, reports, &[], &options).unwrap();
    });
    check("roofline --json", |out, reports| {
        let options = sightline_engine::analysis::roofline::RooflineOptions { assumed_cc: None };
        sightline_engine::output::roofline_json::write_json(out, reports, &[], &options).unwrap();
    });
}

#[test]
fn source_pages_are_written_as_the_results_are_read() {
    let n = result_count();
    let (report, source) = repeated(FULL, n);
    let path = report.source.clone();
    let code = sightline_engine::parse::ncu_rep::code_reader::read_code_from(
        &common::fixture_bytes(FULL)[..],
    )
    .unwrap();
    let loaded =
        sightline_engine::analysis::source::pages::SourcePages::from_parts(&path, report, code);
    let options = sightline_engine::analysis::source::SourceOptions::default();
    let mut out = Recorder::new(&source);
    let mut errors = Vec::new();
    use sightline_engine::analysis::source::request::{
        ResultChoice, SourceFormat, SourceRequest, StallDetail,
    };
    let request = SourceRequest {
        files: vec![path.clone()],
        results: ResultChoice::Named(None),
        source_dirs: Vec::new(),
        sass_csv: None,
        baseline: None,
        format: SourceFormat::Json,
        errors_on_stderr: false,
        stalls: StallDetail::Full,
        strict: false,
    };
    sightline_engine::output::source_json::write_json(
        &mut out,
        &[loaded],
        &[],
        &[],
        &options,
        &request,
        &mut errors,
    )
    .unwrap();
    // The views are built from copies of the results: the report keeps no body.
    out.assert_streamed(
        "source --json",
        n,
        &Report::new(path, sightline_engine::model::Format::NcuRep),
    );
}

/// The tables align their columns over every row, so they are written once every result is
/// read; they still read each body once, a window at a time, and keep none.
#[test]
fn tables_read_each_body_once_and_keep_none() {
    let n = result_count();
    for what in ["occupancy", "roofline"] {
        let (report, source) = repeated(FULL, n);
        let mut reports = vec![report];
        let mut out = Vec::new();
        if what == "occupancy" {
            let options = sightline_engine::analysis::occupancy::OccupancyOptions {
                assumed_cc: None,
                table_only: false,
            };
            sightline_engine::output::occupancy_table::write_table(
                &mut out,
                &mut reports,
                &options,
            )
            .unwrap();
        } else {
            let options =
                sightline_engine::analysis::roofline::RooflineOptions { assumed_cc: None };
            sightline_engine::output::roofline_table::write_table(&mut out, &mut reports, &options)
                .unwrap();
        }
        assert!(String::from_utf8_lossy(&out).lines().count() > n, "{what}");
        assert_eq!(
            source.loads.load(Ordering::SeqCst),
            n,
            "{what}: each body once"
        );
        assert_eq!(reports[0].decoded_bodies(), 0, "{what}");
    }
}

/// `diff` compares the pairs in one pass that also renders each pair for JSON and CSV: a pair's
/// rows come out while the rest is still unread, each body of both sides is decoded once (the
/// context read with them), and the reports keep none.
#[test]
fn diff_renders_each_pair_as_the_results_are_read() {
    let n = result_count();
    let (base, base_source) = repeated(FULL, n);
    let (current, current_source) = repeated(FULL, n);
    let loads =
        || base_source.loads.load(Ordering::SeqCst) + current_source.loads.load(Ordering::SeqCst);
    let mut at_pair = Vec::new();
    let mut csv = Vec::new();
    let opts = DiffOptions::default();
    let also = |_: &str| false;
    let keep = Keep::Shown {
        max_changes: 10,
        also: &also,
    };
    let request = CompareRequest {
        options: &opts,
        manual: &[],
        keep,
    };
    let diff = request.run_each(
        &base,
        &current,
        |pair| sightline_engine::output::compare::pair_csv(pair).unwrap(),
        |rows: Vec<u8>| {
            at_pair.push(loads());
            csv.extend_from_slice(&rows);
        },
    );
    assert_eq!(diff.matched.len(), n);
    assert_eq!(at_pair.len(), n);
    let slack = 2 * (3 * window_len() + 50);
    for k in [n / 4, n / 2, 3 * n / 4] {
        assert!(
            at_pair[k] <= 2 * (k + 1) + slack,
            "{} bodies decoded when pair {k} of {n} was written",
            at_pair[k]
        );
    }
    assert_eq!(loads(), 2 * n, "each body of both sides decoded once");
    assert_eq!(base.decoded_bodies() + current.decoded_bodies(), 0);
    // The rows are those the CSV export writes for the pairs compared again in full.
    let mut expected = Vec::new();
    sightline_engine::output::compare::write_csv_with_pairs(&mut expected, &diff, &mut |each| {
        request.pairs_in_full(&base, &current, &diff, each);
    })
    .unwrap();
    let header = sightline_engine::output::compare::csv_header();
    assert!(expected.starts_with(&header));
    assert!(expected[header.len()..].starts_with(&csv));
}
