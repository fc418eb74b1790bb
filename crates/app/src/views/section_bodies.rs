//! Section bodies as the pages draw them. The Details page's view-model
//! ([`SectionBodiesView`]) resolves the shown result's bodies once per result and builds, per
//! item, what drawing it needs beyond the item itself ([`ItemDrawing`]: bars in order with
//! their scale, the PM sampling timeline, the memory table's grid, the memory chart with its
//! colour-scale marks), with the speed-of-light breakdowns. The Compare page's paired bodies
//! get their paired bars in order ([`PairedBodies`]), built with the comparison.

use crate::analysis::sections::bars::{BarOrder, PairedBarOrder, bar_order, paired_bar_order};
use crate::analysis::sections::memory_chart::{self, MemoryChart, PeakMark};
use crate::analysis::sections::memory_table::{self, Grid};
use crate::analysis::sections::paired::{PairedSection, group_extending_at};
use crate::analysis::sections::sol_breakdown::SolBreakdown;
use crate::analysis::sections::timeline::{self, Timeline};
use crate::analysis::sections::{bodies_of, missing_note};
use crate::cache::Cached;
use crate::core::ids::ResultRef;
use crate::model::Report;
use crate::model::section_body::{BodyItem, ItemKind, SectionBodies};
use std::sync::Arc;

/// The memory chart of an item: all of it, without its inactive units and links (the
/// "Hidden" display), and the marks of its colour scale.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartModel {
    pub chart: MemoryChart,
    pub active: MemoryChart,
    /// The active links' % of peak, highest first (the same with inactive links hidden).
    pub marks: Vec<PeakMark>,
}

impl ChartModel {
    /// The chart of a memory chart item.
    pub fn of(item: &BodyItem) -> Self {
        let chart = memory_chart::build(Some(item), None);
        let active = chart.without_inactive(|l| !l.is_active());
        let marks = chart.peak_marks();
        ChartModel {
            chart,
            active,
            marks,
        }
    }

    /// The chart shown: without inactive units and links when `hide_inactive`.
    pub fn shown(&self, hide_inactive: bool) -> &MemoryChart {
        if hide_inactive {
            &self.active
        } else {
            &self.chart
        }
    }
}

/// What drawing an item needs beyond the item, by its kind.
#[derive(Debug, Clone, PartialEq)]
pub enum ItemDrawing {
    MemoryChart(ChartModel),
    MemoryTable(Grid),
    Bars(BarOrder),
    Timeline(Timeline),
    /// Drawn from the item alone (tables, line charts, ...).
    Plain,
}

impl ItemDrawing {
    /// The drawing of `item`.
    pub fn of(item: &BodyItem) -> Self {
        match item.kind {
            ItemKind::MemoryChart => ItemDrawing::MemoryChart(ChartModel::of(item)),
            k if k.memory_group().is_some() => ItemDrawing::MemoryTable(memory_table::grid(item)),
            ItemKind::BarChart | ItemKind::HistogramChart => ItemDrawing::Bars(bar_order(item)),
            ItemKind::Timeline => ItemDrawing::Timeline(timeline::build(item)),
            _ => ItemDrawing::Plain,
        }
    }
}

/// The drawings of one section's items, by body and item.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SectionDrawing {
    pub bodies: Vec<Vec<ItemDrawing>>,
}

impl SectionDrawing {
    /// The drawings of the items of `section`.
    pub fn of(section: &SectionBodies) -> Self {
        SectionDrawing {
            bodies: section
                .bodies
                .iter()
                .map(|b| b.items.iter().map(ItemDrawing::of).collect())
                .collect(),
        }
    }

    /// The drawing of item `item` of body `body`.
    pub fn item(&self, body: usize, item: usize) -> &ItemDrawing {
        self.bodies
            .get(body)
            .and_then(|b| b.get(item))
            .unwrap_or(&ItemDrawing::Plain)
    }
}

/// A section's bodies with their drawings.
#[derive(Debug, Clone, Copy)]
pub struct DrawnSection<'a> {
    pub section: &'a SectionBodies,
    pub drawing: &'a SectionDrawing,
}

/// What the Details page draws of one result: its resolved bodies, their drawings (one per
/// section, in the same order), why there are none, and the speed-of-light breakdowns.
#[derive(Debug, Default)]
pub struct ResultBodies {
    pub bodies: Arc<Vec<SectionBodies>>,
    pub drawings: Vec<SectionDrawing>,
    /// Why the report has no bodies, when it has none.
    pub missing: Option<&'static str>,
    pub breakdown: SolBreakdown,
}

impl ResultBodies {
    /// The bodies and drawings of the result at `index` of `report`.
    pub fn of(report: &Report, index: usize) -> Self {
        let bodies = bodies_of(report, index);
        let drawings = bodies.iter().map(SectionDrawing::of).collect();
        ResultBodies {
            missing: if bodies.is_empty() {
                missing_note(report)
            } else {
                None
            },
            bodies: Arc::new(bodies),
            drawings,
            breakdown: report
                .results
                .get(index)
                .map(SolBreakdown::of)
                .unwrap_or_default(),
        }
    }

    /// The section at `k` with its drawing.
    pub fn drawn(&self, k: usize) -> Option<DrawnSection<'_>> {
        Some(DrawnSection {
            section: self.bodies.get(k)?,
            drawing: self.drawings.get(k)?,
        })
    }
}

/// The Details page's bodies: those of the result shown, built again when another result (or
/// another state of its report) is shown.
#[derive(Debug, Default)]
pub struct SectionBodiesView {
    /// Keyed by the result and its report's number of results.
    shown: Cached<(ResultRef, usize), Arc<ResultBodies>>,
}

impl SectionBodiesView {
    /// The bodies of the result `at` of `report`.
    pub fn of(&mut self, report: &Report, at: ResultRef) -> Arc<ResultBodies> {
        Arc::clone(self.shown.get_or_compute((at, report.results.len()), |_| {
            Arc::new(ResultBodies::of(report, at.index))
        }))
    }

    /// Drops the bodies (reports closed); they are built again when shown.
    pub fn release(&mut self) {
        self.shown.clear();
    }
}

/// The paired bars of one paired section, by body and item (`None`: not drawn as bars).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PairedSectionDrawing {
    pub bodies: Vec<Vec<Option<PairedBarOrder>>>,
}

impl PairedSectionDrawing {
    /// The paired bars of the items of `section`.
    pub fn of(section: &PairedSection) -> Self {
        PairedSectionDrawing {
            bodies: section
                .bodies
                .iter()
                .map(|b| {
                    b.items
                        .iter()
                        .map(|i| match i.kind {
                            ItemKind::BarChart | ItemKind::HistogramChart => paired_bar_order(i),
                            _ => None,
                        })
                        .collect()
                })
                .collect(),
        }
    }

    /// The paired bars of item `item` of body `body`.
    pub fn item(&self, body: usize, item: usize) -> Option<&PairedBarOrder> {
        self.bodies.get(body)?.get(item)?.as_ref()
    }
}

/// A paired section with its drawing.
#[derive(Debug, Clone, Copy)]
pub struct DrawnPairedSection<'a> {
    pub section: &'a PairedSection,
    pub drawing: &'a PairedSectionDrawing,
}

/// The Compare page's paired bodies: the sections, their drawings (in the same order) and the
/// groups of a section with those extending it (positions in `sections`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PairedBodies {
    pub sections: Vec<PairedSection>,
    pub drawings: Vec<PairedSectionDrawing>,
    pub groups: Vec<Vec<usize>>,
}

impl PairedBodies {
    /// The paired bodies of `sections`, with their drawings and groups.
    pub fn new(sections: Vec<PairedSection>) -> Self {
        PairedBodies {
            drawings: sections.iter().map(PairedSectionDrawing::of).collect(),
            groups: group_extending_at(&sections),
            sections,
        }
    }

    /// Whether there are no paired sections.
    pub fn is_empty(&self) -> bool {
        self.sections.is_empty()
    }

    /// The section at `k` with its drawing.
    pub fn drawn(&self, k: usize) -> Option<DrawnPairedSection<'_>> {
        Some(DrawnPairedSection {
            section: self.sections.get(k)?,
            drawing: self.drawings.get(k)?,
        })
    }
}
