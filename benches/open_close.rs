//! Memory of opening and closing reports in the release app, round after round. The real app,
//! headless (stepped with `egui::Context::run_ui` and tessellated, as eframe does each frame),
//! opens the reports through its own loading threads, shows the results table, the Details,
//! Raw, Roofline, Compare (with a baseline) and Report vs report
//! pages, then closes them all with the Close all command. Each round prints the live heap (a
//! counting allocator) and the resident set with the reports open and after closing; a closed
//! report left behind would add its size to every round's "closed" figure.
//!
//! Run with `cargo bench --bench open_close [-- ROUNDS]` (20 rounds by default).
//! `SIGHTLINE_BENCH_FILE=report.ncu-rep` opens that file each round instead of 10 copies of
//! `fixtures/big/many_basic.details.txt.xz` (4,000 results).

use sightline_testkit::live_heap::{self, LiveHeap};
use sightline_ui::{AppOptions, Command, OpenRequest, PageId, SightlineApp};
use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;

#[global_allocator]
static ALLOCATOR: LiveHeap = LiveHeap;

const WINDOW: egui::Vec2 = egui::vec2(1400.0, 900.0);
const COPIES: usize = 10;
const LOAD_TIMEOUT: Duration = Duration::from_secs(600);

/// The files each round opens: `SIGHTLINE_BENCH_FILE`, else 10 copies of the big text fixture
/// written to a temporary folder.
fn bench_files() -> (Vec<PathBuf>, String) {
    if let Some(path) = std::env::var_os("SIGHTLINE_BENCH_FILE") {
        let path = PathBuf::from(path);
        let what = path.display().to_string();
        return (vec![path], what);
    }
    let fixture =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/big/many_basic.details.txt.xz");
    let raw = std::fs::read(&fixture).unwrap_or_else(|e| panic!("{}: {e}", fixture.display()));
    let mut text = Vec::new();
    xz2::read::XzDecoder::new(&raw[..])
        .read_to_end(&mut text)
        .expect("xz");
    let dir = std::env::temp_dir().join(format!("sightline-open-close-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let files = (0..COPIES)
        .map(|i| {
            let path = dir.join(format!("many_basic_{i}.details.txt"));
            std::fs::write(&path, &text).expect("copy");
            path
        })
        .collect();
    (files, format!("{COPIES} × {}", fixture.display()))
}

/// The app and its egui context, one frame at a time.
struct Frames {
    ctx: egui::Context,
    app: SightlineApp,
}

impl Frames {
    fn frame(&mut self) {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, WINDOW)),
            ..Default::default()
        };
        let output = self.ctx.run_ui(input, |ui| self.app.ui(ui));
        std::hint::black_box(self.ctx.tessellate(output.shapes, output.pixels_per_point));
    }

    fn frames(&mut self, n: usize) {
        for _ in 0..n {
            self.frame();
        }
    }

    /// Shows `page` until the app stops asking for frames (a page building its view on a
    /// background thread shows a spinner, which asks for the next frame).
    fn show(&mut self, page: PageId) {
        self.app.settings_mut().page = page;
        let mut quiet = 0;
        for _ in 0..20_000 {
            self.frame();
            if self.ctx.has_requested_repaint() {
                quiet = 0;
                std::thread::sleep(Duration::from_millis(2));
            } else {
                quiet += 1;
                if quiet == 3 {
                    break;
                }
            }
        }
    }
}

/// Live heap and resident set in MB.
fn memory() -> (f64, f64) {
    let live = live_heap::live_bytes() as f64 / 1e6;
    let resident = live_heap::resident_bytes().map_or(f64::NAN, |b| b as f64 / 1e6);
    (live, resident)
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(20);
    let (files, what) = bench_files();
    let mut f = Frames {
        ctx: egui::Context::default(),
        app: SightlineApp::new(None, AppOptions::default()),
    };
    f.frames(3);
    let (live, resident) = memory();
    println!("open_close: {rounds} rounds of opening {what}; window {WINDOW:?}");
    println!("before the first round: live {live:.1} MB, resident {resident:.1} MB");
    println!(
        "| round | results | live open (MB) | resident open (MB) | live closed (MB) | resident closed (MB) |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: |");
    for round in 1..=rounds {
        for path in &files {
            f.app.open(OpenRequest::Path(path.clone()));
        }
        f.frame();
        assert!(f.app.wait_for_loads(LOAD_TIMEOUT), "loads did not finish");
        f.frames(3);
        let results = f.app.state().workspace().result_count();
        assert!(
            results > 0,
            "no results: {:?}",
            f.app.state().workspace().failed()
        );
        f.app.select_row(1);
        f.show(PageId::Details);
        f.show(PageId::Raw);
        f.show(PageId::Roofline);
        if let Some(base) = f.app.select_row(0) {
            f.app.handle(Command::SetBaseline(base));
        }
        f.app.select_row(1);
        f.show(PageId::Compare);
        f.show(PageId::ReportDiff);
        let (live_open, resident_open) = memory();
        f.app.handle(Command::CloseAll);
        f.frames(5);
        let (live_closed, resident_closed) = memory();
        println!(
            "| {round} | {results} | {live_open:.1} | {resident_open:.1} | {live_closed:.1} | {resident_closed:.1} |"
        );
    }
    if std::env::var_os("SIGHTLINE_BENCH_FILE").is_none()
        && let Some(dir) = files.first().and_then(|p| p.parent())
    {
        let _ = std::fs::remove_dir_all(dir);
    }
}
