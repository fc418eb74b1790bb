//! The hot spots of the Details page's Source Counters tables. Their addresses, values and
//! metrics come from the loaded result at once; their CUDA lines and SASS from the result's
//! Source view, read from the report file in the background once a table is in view.

use crate::analysis::sections::hot_spots::{HotSpotTable, hot_spots};
use crate::core::ids::ResultRef;
use crate::job::{Job, Status};
use crate::model::KernelResult;
use crate::model::section_body::{ItemKind, SectionBodies};
use crate::model::source::SourceView;
use std::collections::HashMap;
use std::path::PathBuf;

/// What the Source view was read for: the result and the generation of imported SASS.
type Key = (ResultRef, u64);

/// Where the lines and SASS of the hot spots stand.
#[derive(Debug, Clone, PartialEq)]
pub enum Lines {
    /// Not asked for yet (no table in view).
    NotRead,
    Reading,
    /// Read; with what the Source view could not give (no SASS without nvdisasm, say).
    Read(Vec<String>),
    /// Why there are none (a text report, a report without code).
    Unavailable(String),
}

/// The hot-spot tables of the selected result.
#[derive(Debug)]
pub struct HotSpotsView {
    source: Job<Key, SourceView>,
    tables: Option<(Key, Lines, Vec<HotSpotTable>)>,
}

impl Default for HotSpotsView {
    fn default() -> Self {
        HotSpotsView {
            source: Job::new("Source view reader"),
            tables: None,
        }
    }
}

/// The result the hot spots are of.
pub struct HotSpotInput<'a> {
    pub at: ResultRef,
    pub path: Option<PathBuf>,
    pub result: &'a KernelResult,
    pub bodies: &'a [SectionBodies],
    /// The generation of the imported SASS exports, and the SASS imported for the kernel.
    pub sass_generation: u64,
    pub sass: &'a dyn Fn() -> HashMap<u64, String>,
    /// The nvdisasm programs that give the hot spots' SASS text.
    pub disassembler: &'a crate::parse::sass::Disassembler,
}

impl HotSpotsView {
    /// The tables of the result's Source Counters bodies, in body order, and where their
    /// lines stand. With `read_lines`, the Source view is read in the background (`wake` is
    /// called when it is done); `wait` waits for it (for screenshots).
    pub fn tables(
        &mut self,
        input: &HotSpotInput<'_>,
        read_lines: bool,
        wait: bool,
        wake: impl Fn() + Send + 'static,
    ) -> (&[HotSpotTable], &Lines) {
        let key = (input.at, input.sass_generation);
        let has_tables = input
            .bodies
            .iter()
            .flat_map(|s| &s.bodies)
            .flat_map(|b| &b.items)
            .any(|i| i.kind == ItemKind::SourceMetricTable);
        if read_lines && has_tables && !self.source.is_for(&key) {
            let (path, result, sass) = (input.path.clone(), input.result.clone(), (input.sass)());
            let disassembler = input.disassembler.clone();
            self.source.ensure(
                key,
                move |_| crate::views::source::load(path.as_deref(), &result, sass, &disassembler),
                wake,
            );
        }
        if !self.source.is_for(&key) {
            self.source.clear();
        }
        let status = if wait {
            self.source.wait()
        } else {
            self.source.poll()
        };
        let (lines, view) = match status {
            Status::Idle => (Lines::NotRead, None),
            Status::Building => (Lines::Reading, None),
            Status::Ready(v) => (Lines::Read(v.notes.clone()), Some(v)),
            Status::Failed(e) => (Lines::Unavailable(e.to_string()), None),
        };
        let stale = self
            .tables
            .as_ref()
            .is_none_or(|(k, l, _)| *k != key || *l != lines);
        if stale {
            let kernel = &input.result.name.function;
            // The Source view's start is the module's record of the kernel (the first of the
            // launch's function PCs may be a function it calls).
            let start = view.map_or_else(
                || crate::analysis::source::function_address(input.result).unwrap_or(0),
                |v| v.function_address,
            );
            let tables = input
                .bodies
                .iter()
                .flat_map(|s| &s.bodies)
                .flat_map(|b| &b.items)
                .filter(|i| i.kind == ItemKind::SourceMetricTable)
                .map(|i| hot_spots(i, view, kernel, start))
                .collect();
            self.tables = Some((key, lines, tables));
        }
        match &self.tables {
            Some((_, lines, tables)) => (tables, lines),
            None => (&[], &Lines::NotRead),
        }
    }

    /// Drops the tables and the Source view (reports closed).
    pub fn release(&mut self) {
        self.source.clear();
        self.tables = None;
    }
}
