//! Frame time of the desktop app, headless: 10 reports with 4,000 results open, the real app
//! stepped with `egui::Context::run_ui` (layout and painting commands) and then tessellated,
//! as eframe does each frame. No GPU, no window.
//!
//! Run with `cargo bench --bench frame_time` (`SIGHTLINE_BENCH_FILE=report.ncu-rep` opens
//! that file twice instead). Prints per-scenario mean, median, p95 and max of
//! the thread's CPU time per frame in milliseconds (Linux `CLOCK_THREAD_CPUTIME_ID`, so other
//! processes on a busy machine do not inflate it; wall time elsewhere), and the mean wall time. The reports are 10 copies of `fixtures/big/many_basic.details.txt.xz`
//! (400 results each) when the text reader can read it, else 10 generated reports of the same
//! shape; the Details measurement also opens `fixtures/h100/kernels_full.details.txt`
//! (`--set full`, the longest Details page) when it loads.

use sightline_engine::model::{
    Dim3, KernelName, KernelResult, Metric, MetricRow, Report, RuleKind, RuleResult, Section,
    SpeedupKind, Value, names,
};
use sightline_engine::parse;
use sightline_ui::{AppOptions, Command, PageId, SightlineApp};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sightline_testkit::cpu_time::thread_cpu_time;

const REPORTS: usize = 10;
const RESULTS_PER_REPORT: usize = 400;
const WINDOW: egui::Vec2 = egui::vec2(1400.0, 900.0);
const WARMUP_FRAMES: usize = 20;
const FRAMES: usize = 300;

fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

fn fixture_bytes(rel: &str) -> Option<Vec<u8>> {
    let raw = std::fs::read(fixture(rel)).ok()?;
    if rel.ends_with(".xz") {
        let mut out = Vec::new();
        xz2::read::XzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .ok()?;
        Some(out)
    } else {
        Some(raw)
    }
}

/// A generated result shaped like a `--set basic` one: SOL, launch and occupancy sections.
fn generated_result(report: usize, index: usize) -> KernelResult {
    let seed = (report * RESULTS_PER_REPORT + index) as f64;
    let pct = |k: f64| (seed * k).sin().abs() * 100.0;
    let mut sections = Vec::new();
    let mut sol = Section {
        identifier: Some("SpeedOfLight".into()),
        name: "GPU Speed Of Light Throughput".into(),
        ..Section::default()
    };
    for (label, metric, unit, value) in [
        ("DRAM Frequency", names::DRAM_FREQUENCY, "hz", 2.62e9),
        ("SM Frequency", names::SM_FREQUENCY, "hz", 1.98e9),
        (
            "Elapsed Cycles",
            names::ELAPSED_CYCLES,
            "cycle",
            1000.0 + seed,
        ),
        ("Memory Throughput", names::SOL_MEMORY, "%", pct(0.7)),
        ("DRAM Throughput", names::SOL_DRAM, "%", pct(0.7)),
        ("Duration", names::DURATION, "ns", 2000.0 + seed * 3.0),
        ("L1/TEX Cache Throughput", names::SOL_L1, "%", pct(1.3)),
        ("L2 Cache Throughput", names::SOL_L2, "%", pct(0.4)),
        ("Compute (SM) Throughput", names::SOL_COMPUTE, "%", pct(1.1)),
    ] {
        sol.rows.push(MetricRow {
            label: label.into(),
            metric: Metric::new(Some(metric.into()), Value::Double(value), unit),
        });
    }
    sol.rules.push(RuleResult {
        identifier: Some("SOLBottleneck".into()),
        kind: RuleKind::Opt,
        title: "High Memory Throughput".into(),
        message: "Memory is more heavily utilized than Compute: Look at the Memory Workload \
                  Analysis section to identify the DRAM bottleneck."
            .into(),
        speedup: Some((SpeedupKind::Global, pct(0.3) / 2.0)),
        focus_metrics: Vec::new(),
        guidance: Vec::new(),
        markers: Vec::new(),
    });
    sections.push(sol);
    let mut launch = Section {
        identifier: Some("LaunchStats".into()),
        name: "Launch Statistics".into(),
        ..Section::default()
    };
    for i in 0..16 {
        launch.rows.push(MetricRow {
            label: format!("Launch Statistic {i}"),
            metric: Metric::new(
                Some(format!("launch__statistic_{i}").into()),
                Value::U64((seed as u64 + i) * 7),
                "",
            ),
        });
    }
    sections.push(launch);
    let mut occupancy = Section {
        identifier: Some("Occupancy".into()),
        name: "Occupancy".into(),
        ..Section::default()
    };
    occupancy.rows.push(MetricRow {
        label: "Achieved Occupancy".into(),
        metric: Metric::new(
            Some(names::ACHIEVED_OCCUPANCY.into()),
            Value::Double(pct(0.9)),
            "%",
        ),
    });
    sections.push(occupancy);
    let mut result = KernelResult {
        id: index as u64,
        name: KernelName::from_demangled(&format!(
            "void elementwise_kernel_{}<128, 4>(int, float *)",
            index % 37
        )),
        grid: Some(Dim3 {
            x: 1 + (index as u64 % 512),
            y: 1,
            z: 1,
        }),
        block: Some(Dim3 { x: 128, y: 1, z: 1 }),
        ..KernelResult::default()
    };
    *result.sections_mut() = sections;
    result.index_section_metrics();
    result
}

fn generated_report(report: usize) -> Report {
    let mut r = Report::new(
        format!("generated_{report}.txt"),
        sightline_engine::model::Format::CliText,
    );
    r.results = (0..RESULTS_PER_REPORT)
        .map(|i| generated_result(report, i))
        .collect();
    r
}

/// Ten reports of 400 results: the real fixture when it parses, generated ones otherwise.
fn big_reports() -> (Vec<Report>, &'static str) {
    let source = Path::new("many_basic.details.txt");
    if let Some(bytes) = fixture_bytes("big/many_basic.details.txt.xz")
        && let Ok(report) = parse::parse_bytes(source, &bytes)
        && report.results.len() == RESULTS_PER_REPORT
    {
        return (
            (0..REPORTS).map(|_| report.clone()).collect(),
            "10 × fixtures/big/many_basic.details.txt.xz",
        );
    }
    (
        (0..REPORTS).map(generated_report).collect(),
        "10 generated reports (the details text reader cannot read the fixture yet)",
    )
}

struct Frames {
    ctx: egui::Context,
    app: SightlineApp,
}

impl Frames {
    fn input(&self, events: Vec<egui::Event>) -> egui::RawInput {
        egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, WINDOW)),
            events,
            ..Default::default()
        }
    }

    /// One frame as eframe runs it: the app's UI, then tessellation. Returns its CPU time
    /// and wall time.
    fn frame(&mut self, events: Vec<egui::Event>) -> (Duration, Duration) {
        let input = self.input(events);
        let wall = Instant::now();
        let cpu = thread_cpu_time();
        let output = self.ctx.run_ui(input, |ui| self.app.ui(ui));
        let primitives = self.ctx.tessellate(output.shapes, output.pixels_per_point);
        let cpu = thread_cpu_time().saturating_sub(cpu);
        let wall = wall.elapsed();
        std::hint::black_box(primitives);
        (cpu, wall)
    }

    /// One frame right after a change, as the user waits for it: its CPU and wall time.
    fn once(&mut self, name: &str) {
        let (cpu, wall) = self.frame(Vec::new());
        println!(
            "{name:<44} cpu {:7.2} ms (one frame) | wall {:7.2} ms",
            cpu.as_secs_f64() * 1e3,
            wall.as_secs_f64() * 1e3
        );
    }

    fn measure(&mut self, name: &str, mut events: impl FnMut(usize) -> Vec<egui::Event>) {
        for i in 0..WARMUP_FRAMES {
            self.frame(events(i));
        }
        let mut times = Vec::with_capacity(FRAMES);
        let mut wall_total = 0.0;
        for i in 0..FRAMES {
            let (cpu, wall) = self.frame(events(WARMUP_FRAMES + i));
            times.push(cpu.as_secs_f64() * 1e3);
            wall_total += wall.as_secs_f64() * 1e3;
        }
        times.sort_by(f64::total_cmp);
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        let pick = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        println!(
            "{name:<44} cpu mean {mean:5.2}  median {:5.2}  p95 {:5.2}  max {:5.2} ms | wall mean {:5.2} ms",
            pick(0.5),
            pick(0.95),
            pick(1.0),
            wall_total / FRAMES as f64
        );
    }
}

fn key(key: egui::Key) -> Vec<egui::Event> {
    vec![egui::Event::Key {
        key,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: egui::Modifiers::NONE,
    }]
}

/// The reports to open: the file named by `SIGHTLINE_BENCH_FILE` twice (e.g. a 4,000-result
/// `.ncu-rep`, so that "Report vs report" has two), else [`big_reports`].
fn bench_reports() -> (Vec<Report>, String) {
    if let Some(path) = std::env::var_os("SIGHTLINE_BENCH_FILE") {
        let path = PathBuf::from(path);
        let load = || parse::load_path(&path).unwrap_or_else(|e| panic!("{e}"));
        let reports = vec![load(), load()];
        return (reports, format!("{} opened twice", path.display()));
    }
    let (reports, what) = big_reports();
    (reports, what.to_string())
}

fn main() {
    let (reports, what) = bench_reports();
    let first_len = reports.first().map_or(0, |r| r.results.len());
    let count = reports.len();
    let total: usize = reports.iter().map(|r| r.results.len()).sum();
    println!("frame_time: {count} reports, {total} results ({what}); window {WINDOW:?}");
    let mut app = SightlineApp::new(None, AppOptions::default());
    for (i, report) in reports.into_iter().enumerate() {
        app.add_loaded_report(format!("report_{i}"), report);
    }
    let mut frames = Frames {
        ctx: egui::Context::default(),
        app,
    };

    frames.app.settings_mut().page = PageId::Details;
    frames.measure("idle, results table + Details page", |_| Vec::new());
    frames.measure("Down arrow every frame (table scrolls)", |_| {
        key(egui::Key::ArrowDown)
    });
    frames
        .app
        .settings_mut()
        .sort
        .clicked(sightline_app::core::rows::SortColumn::Duration);
    frames.measure("sorted by duration, Down arrow every frame", |_| {
        key(egui::Key::ArrowDown)
    });
    frames.app.filter_mut().push_str("kernel");
    frames.measure("filtered, idle", |_| Vec::new());
    frames.app.filter_mut().clear();

    frames.app.select_row(0);
    for (page, name) in [
        (PageId::Raw, "idle, Raw page"),
        (PageId::Session, "idle, Session page"),
        (PageId::Roofline, "idle, Roofline page"),
        (PageId::Occupancy, "idle, Occupancy page"),
        (PageId::ReportDiff, "idle, Report vs report page"),
        (PageId::Source, "idle, Source page"),
        (PageId::Rules, "idle, Rules page"),
    ] {
        frames.app.settings_mut().page = page;
        frames.measure(name, |_| Vec::new());
    }
    frames.app.settings_mut().page = PageId::Roofline;
    frames.measure("Roofline page, Down arrow every frame", |_| {
        key(egui::Key::ArrowDown)
    });
    frames.app.settings_mut().page = PageId::Occupancy;
    frames.measure("Occupancy page, Down arrow every frame", |_| {
        key(egui::Key::ArrowDown)
    });
    // A baseline: the Compare page and the Roofline page's arrows.
    if let Some(base) = frames.app.select_row(1) {
        frames.app.handle(Command::SetBaseline(base));
    }
    frames.app.select_row(0);
    frames.app.settings_mut().page = PageId::Compare;
    frames.measure("idle, Compare page (one baseline)", |_| Vec::new());
    // Each frame a new selection: the comparison is built on a background thread.
    frames.measure("Compare page, Down arrow every frame", |_| {
        key(egui::Key::ArrowDown)
    });
    frames.app.select_row(0);
    frames.app.settings_mut().page = PageId::Roofline;
    frames.measure("idle, Roofline page (one baseline)", |_| Vec::new());
    // A baseline in the second report: the first comparison of two reports reads every result
    // of both for its context warnings (on a background thread).
    if let Some(base) = frames.app.select_row(first_len) {
        frames.app.handle(Command::SetBaseline(base));
    }
    frames.app.select_row(0);
    frames.app.settings_mut().page = PageId::Compare;
    frames.once("Compare page, first frame, other report");
    frames.measure("idle, Compare page (baseline in other report)", |_| {
        Vec::new()
    });

    let full = fixture("h100/kernels_full.details.txt");
    match parse::load_path(&full) {
        Ok(report) => {
            frames.app.settings_mut().page = PageId::Details;
            frames.app.settings_mut().show_sol_breakdown = true;
            let id = frames.app.add_loaded_report("kernels_full", report);
            frames.app.select(Some(sightline_app::core::ids::ResultRef {
                report: id,
                index: 3,
            }));
            frames.measure("idle, Details of a --set full result", |_| Vec::new());
        }
        Err(e) => println!("(Details of a --set full result skipped: {e})"),
    }
}
