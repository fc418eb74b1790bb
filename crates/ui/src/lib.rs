//! The desktop app (egui/eframe), drawing the application core ([`sightline_app`]): a results
//! table across every open report ([`results_table`]), the list of open reports and baselines
//! ([`reports_panel`]), the files being opened or the welcome while none is open ([`welcome`]),
//! and the pages of the selected result ([`pages`], one file each, all
//! implementing [`Page`]):
//!
//! - Details: speed-of-light bars, every section's metrics and rule results;
//! - Raw: every metric, searchable;
//! - Session: session, device and launch information;
//! - Roofline: the result's rooflines with arrows from the baselines, or one chart of every
//!   result of a report or of all open reports;
//! - Occupancy: block limits, occupancy graphs and what-if;
//! - Compare: the result side by side with the visible baselines;
//! - Report vs report: two open reports compared kernel by kernel;
//! - Source: the CUDA lines and SASS of the result with their metrics, hot spots first;
//! - Rules: every rule result of the result, the largest estimated speedup first;
//! - Trend: every open report as a run of one series, each kernel's story over the runs.
//!
//! Shared drawing pieces are in [`widgets`]. Clicks, keys, drops and pastes become
//! [`Command`]s, carried out in one place ([`SightlineApp::handle`], which passes all but the
//! file dialogs to [`sightline_app::AppState::handle`]). [`SightlineApp`] can be driven without
//! eframe, which is how the tests run it.

use sightline_engine::{analysis, model, output};

pub mod app;
pub mod desktop;
pub mod drop_overlay;
pub mod file_bar;
pub mod header;
pub mod menu;
pub mod pages;
pub mod reports_panel;
pub mod results_table;
pub mod time_to_table;
pub mod welcome;
pub mod widgets;

pub use app::{AppOptions, SightlineApp};
pub use pages::Page;
pub use sightline_app::{Command, OpenRequest, PageId, Settings, ThemeChoice};
pub use widgets::{plot_util, sol_bars, theme};

use sightline_app::core::started_loads::StartedLoads;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Environment variables read only when `EFRAME_SCREENSHOT_TO` is set (documentation
/// screenshots): the page to show, the row (in table order) to select, the theme, and the rows
/// (comma-separated, in table order) to make baselines first.
const SCREENSHOT_PAGE_VAR: &str = "SIGHTLINE_SCREENSHOT_PAGE";
const SCREENSHOT_ROW_VAR: &str = "SIGHTLINE_SCREENSHOT_ROW";
const SCREENSHOT_THEME_VAR: &str = "SIGHTLINE_SCREENSHOT_THEME";
const SCREENSHOT_BASELINES_VAR: &str = "SIGHTLINE_SCREENSHOT_BASELINES";
/// The window size of a screenshot, `WIDTHxHEIGHT` (default 1360x860).
const SCREENSHOT_SIZE_VAR: &str = "SIGHTLINE_SCREENSHOT_SIZE";
/// The zoom factor of a screenshot (as View → Zoom in sets it, e.g. `1.5`).
const SCREENSHOT_ZOOM_VAR: &str = "SIGHTLINE_SCREENSHOT_ZOOM";
/// The text typed into the results table's filter.
const SCREENSHOT_FILTER_VAR: &str = "SIGHTLINE_SCREENSHOT_FILTER";

/// Whether this run takes a documentation screenshot (`EFRAME_SCREENSHOT_TO` set). eframe saves
/// it after the second frame, so pages that build their view on a background thread wait for
/// it instead of showing a spinner first.
pub(crate) fn screenshot_mode() -> bool {
    static MODE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *MODE.get_or_init(|| std::env::var_os("EFRAME_SCREENSHOT_TO").is_some())
}

/// The window size asked for by [`SCREENSHOT_SIZE_VAR`].
fn screenshot_size() -> Option<[f32; 2]> {
    let text = std::env::var(SCREENSHOT_SIZE_VAR).ok()?;
    let (w, h) = text.trim().split_once('x')?;
    let (w, h) = (w.trim().parse::<f32>().ok()?, h.trim().parse::<f32>().ok()?);
    (w >= 640.0 && h >= 420.0 && w <= 8000.0 && h <= 8000.0).then_some([w, h])
}

/// Starts the desktop app on the given files (the demo report when there are none), following
/// the folder `follow` if one is given.
pub fn run(files: Vec<PathBuf>, follow: Option<PathBuf>) -> Result<(), eframe::Error> {
    run_app(files, None, follow)
}

/// Opens the files in the real window, and on the frame after the results table first shows
/// every loaded result prints `results table shown: N results from M reports in T ms` (T
/// since `started`, the start of the process) and closes the window. Settings are read but
/// not written. For benchmarks (`sightline --time-to-table FILE...`).
/// With `click_through` N > 0, first selects the table's first N rows one per frame on the
/// Details page, then prints `clicked through N results in T ms` (`--click-through N`).
pub fn run_time_to_table(
    files: Vec<PathBuf>,
    started: Instant,
    click_through: usize,
) -> Result<(), eframe::Error> {
    run_app(files, Some((started, click_through)), None)
}

fn run_app(
    files: Vec<PathBuf>,
    time_to_table: Option<(Instant, usize)>,
    follow: Option<PathBuf>,
) -> Result<(), eframe::Error> {
    let screenshot = std::env::var_os("EFRAME_SCREENSHOT_TO").is_some();
    let mut viewport = egui::ViewportBuilder::default()
        .with_title("Sightline")
        .with_app_id(desktop::APP_ID)
        .with_inner_size(
            screenshot
                .then(screenshot_size)
                .flatten()
                .unwrap_or([1360.0, 860.0]),
        )
        .with_min_inner_size([640.0, 420.0])
        .with_drag_and_drop(true);
    if let Ok(icon) = eframe::icon_data::from_png_bytes(desktop::ICON_PNG) {
        viewport = viewport.with_icon(Arc::new(icon));
    }
    let options = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        viewport,
        ..Default::default()
    };
    // A screenshot opens the files one after the other, so their order is fixed; otherwise
    // they start reading now, while the window opens.
    let (started, later) = if screenshot {
        (StartedLoads::default(), files)
    } else {
        (
            StartedLoads::start(files.into_iter().map(OpenRequest::Path)),
            Vec::new(),
        )
    };
    eframe::run_native(
        "Sightline",
        options,
        Box::new(move |cc| {
            let mut app = SightlineApp::with_started_loads(
                cc.storage,
                AppOptions {
                    demo_when_empty: later.is_empty() && follow.is_none(),
                    persist_state: !screenshot && time_to_table.is_none(),
                    file_dialog: true,
                    follow,
                    ..AppOptions::default()
                },
                started,
            );
            app.set_context(&cc.egui_ctx);
            if let Some((started, rows)) = time_to_table {
                app.click_through_then_report(started, rows);
            }
            if screenshot {
                prepare_screenshot(&mut app, later);
            }
            Ok(Box::new(app))
        }),
    )
}

/// The first frames are the screenshot: load everything first (`files` in order) and apply
/// the requested view.
fn prepare_screenshot(app: &mut SightlineApp, files: Vec<PathBuf>) {
    app.wait_for_loads(Duration::from_secs(300));
    for file in files {
        app.open(OpenRequest::Path(file));
        app.wait_for_loads(Duration::from_secs(300));
    }
    if let Some(zoom) = std::env::var(SCREENSHOT_ZOOM_VAR)
        .ok()
        .and_then(|z| z.trim().parse::<f32>().ok())
    {
        app.settings_mut().zoom_factor = Settings::clamp_zoom(zoom);
    }
    if let Ok(filter) = std::env::var(SCREENSHOT_FILTER_VAR) {
        *app.filter_mut() = filter;
    }
    if let Ok(page) = std::env::var(SCREENSHOT_PAGE_VAR)
        && let Some(p) = PageId::from_label(&page)
    {
        app.settings_mut().page = p;
    }
    if let Ok(theme) = std::env::var(SCREENSHOT_THEME_VAR) {
        app.settings_mut().theme = if theme.eq_ignore_ascii_case("light") {
            ThemeChoice::Light
        } else {
            ThemeChoice::Dark
        };
    }
    if let Ok(rows) = std::env::var(SCREENSHOT_BASELINES_VAR) {
        for row in rows
            .split(',')
            .filter_map(|r| r.trim().parse::<usize>().ok())
        {
            if let Some(at) = app.select_row(row) {
                app.handle(Command::SetBaseline(at));
            }
        }
    }
    if let Some(row) = std::env::var(SCREENSHOT_ROW_VAR)
        .ok()
        .and_then(|r| r.parse::<usize>().ok())
    {
        app.select_row(row);
    }
}
