//! The `--time-to-table` measurement: the first frame after the one that showed every loaded
//! result in the table (so that frame was painted) prints the time since the process started
//! and closes the window. With `--click-through N`, the frames after the complete table first
//! select the table's rows one per frame on the Details page, as a user clicking down the
//! table, N of them.

use crate::model::format::count_text;
use sightline_app::core::page_id::PageId;
use sightline_app::core::state::AppState;
use std::time::Instant;

#[derive(Debug, Clone, Copy)]
pub struct TimeToTable {
    started: Instant,
    /// Results and reports of the frame that showed them all.
    shown: Option<(usize, usize)>,
    /// Rows to click through after the complete table, and how many were.
    click_through: usize,
    clicked: usize,
    /// When the first row was clicked.
    clicks_started: Option<Instant>,
    done: bool,
}

impl TimeToTable {
    /// Measures from `started`, then clicks through `rows` rows.
    pub fn new(started: Instant, rows: usize) -> Self {
        TimeToTable {
            started,
            shown: None,
            click_through: rows,
            clicked: 0,
            clicks_started: None,
            done: false,
        }
    }

    /// Remembers the first frame whose table lists every loaded result once nothing is
    /// loading, and asks for the next frame (which prints the time).
    pub fn note_complete(&mut self, state: &mut AppState, ctx: &egui::Context) {
        if self.shown.is_some() || state.workspace.is_loading() {
            return;
        }
        let results = state.workspace.result_count();
        let listed = if state.workspace.reports().is_empty() {
            0
        } else {
            state.visible_rows().len()
        };
        if listed == results {
            self.shown = Some((results, state.workspace.reports().len()));
            ctx.request_repaint();
        }
    }

    /// On the frame after the complete table was painted, prints the time since start, clicks
    /// through the rows asked for, and closes the window. Returns whether the window is
    /// closing.
    pub fn finish(&mut self, state: &mut AppState, ctx: &egui::Context) -> bool {
        if self.done {
            return true;
        }
        let Some((results, reports)) = self.shown else {
            return false;
        };
        if self.clicks_started.is_none() {
            let ms = self.started.elapsed().as_secs_f64() * 1e3;
            if reports == 0 {
                eprintln!(
                    "no results table: {} could not be read ({ms:.1} ms)",
                    count_text(state.workspace.failed().len(), "file", "files")
                );
            } else {
                println!(
                    "results table shown: {} from {} in {ms:.1} ms",
                    count_text(results, "result", "results"),
                    count_text(reports, "report", "reports")
                );
            }
            self.clicks_started = Some(Instant::now());
        }
        let rows = state.visible_rows().len();
        // One row a frame on the Details page; this frame draws the row selected here.
        if self.clicked < self.click_through.min(rows) {
            let row = self.clicked;
            self.clicked += 1;
            state.settings.page = PageId::Details;
            state.select_row(row);
            ctx.request_repaint();
            return false;
        }
        self.done = true;
        if self.click_through > 0 {
            let ms = self
                .clicks_started
                .map_or(0.0, |s| s.elapsed().as_secs_f64() * 1e3);
            println!(
                "clicked through {} in {ms:.1} ms ({} bodies decoded at the end)",
                count_text(self.clicked, "result", "results"),
                state
                    .workspace
                    .reports()
                    .iter()
                    .map(|r| r.report.decoded_bodies())
                    .sum::<usize>()
            );
        }
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        true
    }
}
