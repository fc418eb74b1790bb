//! The app with large reports, headless: how long until the results table lists every result
//! of the files opened (through the same open command as the command line and the File menu,
//! read on the loading threads), and, with two files, how long Report vs report takes to show
//! its table (compared on the results table's figures) and to compare every metric of every
//! pair; with the longest frame while each happens. Frames are run as eframe runs them
//! (the app's UI, then tessellation; no GPU, no window), paced at 60 per second.
//!
//! `SIGHTLINE_SCALE_FILES=a.ncu-rep[,b.ncu-rep] cargo bench --bench app_scale`
//! Prints one line per phase: the time, the number of frames, and the CPU time (this thread)
//! and wall time of the longest frame and of the 99th percentile.

use sightline_app::core::commands::OpenRequest;
use sightline_ui::{AppOptions, Command, PageId, SightlineApp};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use sightline_testkit::cpu_time::thread_cpu_time;

const WINDOW: egui::Vec2 = egui::vec2(1400.0, 900.0);
const FRAME: Duration = Duration::from_micros(16_667);
const TIMEOUT: Duration = Duration::from_secs(600);

struct Frames {
    ctx: egui::Context,
    app: SightlineApp,
    cpu: Vec<f64>,
    wall: Vec<f64>,
}

impl Frames {
    /// One frame: the UI and its tessellation, then a wait until the next 60 Hz tick.
    fn frame(&mut self) {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, WINDOW)),
            ..Default::default()
        };
        let wall = Instant::now();
        let cpu = thread_cpu_time();
        self.app.poll_loads();
        let output = self.ctx.run_ui(input, |ui| self.app.ui(ui));
        std::hint::black_box(self.ctx.tessellate(output.shapes, output.pixels_per_point));
        self.cpu
            .push(thread_cpu_time().saturating_sub(cpu).as_secs_f64() * 1e3);
        let took = wall.elapsed();
        self.wall.push(took.as_secs_f64() * 1e3);
        if let Some(rest) = FRAME.checked_sub(took) {
            std::thread::sleep(rest);
        }
    }

    /// Runs frames until `done`, then prints the phase's figures.
    fn until(&mut self, name: &str, mut done: impl FnMut(&SightlineApp) -> bool) {
        self.cpu.clear();
        self.wall.clear();
        let started = Instant::now();
        while !done(&self.app) {
            if started.elapsed() > TIMEOUT {
                println!("{name}: not done after {TIMEOUT:?}");
                return;
            }
            self.frame();
        }
        let elapsed = started.elapsed();
        let stat = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            let pick = |q: f64| {
                v.get(((v.len().max(1) - 1) as f64 * q).round() as usize)
                    .copied()
                    .unwrap_or(0.0)
            };
            (pick(1.0), pick(0.99))
        };
        let frames = self.cpu.len();
        let (cpu_max, cpu_p99) = stat(&mut self.cpu);
        let (wall_max, wall_p99) = stat(&mut self.wall);
        println!(
            "{name}: {:.2} s, {frames} frames; longest frame cpu {cpu_max:.2} ms, wall \
             {wall_max:.2} ms; p99 cpu {cpu_p99:.2} ms, wall {wall_p99:.2} ms",
            elapsed.as_secs_f64()
        );
    }
}

fn main() {
    let Some(files) = std::env::var_os("SIGHTLINE_SCALE_FILES") else {
        println!("app_scale: set SIGHTLINE_SCALE_FILES=a.ncu-rep[,b.ncu-rep]");
        return;
    };
    let files: Vec<PathBuf> = files
        .to_string_lossy()
        .split(',')
        .map(PathBuf::from)
        .collect();
    let bytes: u64 = files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    println!(
        "app_scale: {} file(s), {:.0} MB, {} cores",
        files.len(),
        bytes as f64 / 1e6,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    let mut frames = Frames {
        ctx: egui::Context::default(),
        app: SightlineApp::new(None, AppOptions::default()),
        cpu: Vec::new(),
        wall: Vec::new(),
    };
    frames.app.set_context(&frames.ctx);
    frames.app.settings_mut().page = PageId::Details;
    for f in &files {
        frames
            .app
            .handle(Command::Open(OpenRequest::Path(f.clone())));
    }
    let want = files.len();
    frames.until("results table complete", |app| {
        let ws = app.state().workspace();
        ws.pending().is_empty() && ws.reports().len() + ws.failed().len() >= want
    });
    let ws = frames.app.state().workspace();
    println!(
        "  {} reports, {} results, {} failed",
        ws.reports().len(),
        ws.result_count(),
        ws.failed().len()
    );
    if files.len() >= 2 {
        frames.app.select_row(0);
        frames.app.settings_mut().page = PageId::ReportDiff;
        // The first frame on the page starts the comparison.
        frames.frame();
        frames.until("Report vs report: the table", |app| {
            app.report_compare_progress().0
        });
        frames.until("Report vs report: every metric compared", |app| {
            app.report_compare_progress().1
        });
    }
}
