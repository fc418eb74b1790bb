//! Section bodies of `--print-details all` text: a body title line, then per item a
//! `Table Name : <label>` line (and maybe `Table Description : …`), then its rows; roofline
//! items print sub-titles (`Single Precision Roofline`, `Peak Work`) before each sub-table.
//! The rows fill the same [`SectionBodies`] a native report resolves to.

use crate::model::Metric;
use crate::model::section_body::{BodyItem, BodyRow, ItemKind, SectionBodies, SectionBody};

/// Sub-table titles of roofline items.
const ROOFLINE_PARTS: [&str; 4] = [
    "Peak Work",
    "Peak Traffic",
    "Achieved Work",
    "Achieved Traffic",
];

/// What a [`BodyCollector`] keeps of the lines it is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Collect {
    /// Every body.
    Bodies,
    /// No body, only whether an item printed a row: the report then has bodies to read on
    /// demand.
    Presence,
    /// Nothing: every line is passed over.
    Nothing,
}

/// Collects the bodies of one result while its lines are read.
#[derive(Debug)]
pub struct BodyCollector {
    collect: Collect,
    /// Whether an item printed a row.
    had_rows: bool,
    sections: Vec<SectionBodies>,
    /// The section being read.
    section: String,
    /// Title lines since the last table or item start.
    titles: Vec<String>,
    /// The last roofline or achieved-value title of the open item.
    part_label: Option<String>,
    /// Whether an item is open in the current section.
    open: bool,
}

impl BodyCollector {
    /// A collector that keeps what `collect` says.
    pub fn new(collect: Collect) -> Self {
        BodyCollector {
            collect,
            had_rows: false,
            sections: Vec::new(),
            section: String::new(),
            titles: Vec::new(),
            part_label: None,
            open: false,
        }
    }

    /// A new section starts: items end.
    pub fn section(&mut self, name: &str) {
        if self.collect != Collect::Bodies {
            self.open = false;
            return;
        }
        self.section = name.to_string();
        self.titles.clear();
        self.part_label = None;
        self.open = false;
    }

    /// A line inside a section that is neither a table nor a rule message.
    pub fn text_line(&mut self, text: &str) {
        match self.collect {
            Collect::Bodies => {}
            Collect::Presence => {
                self.open |= text.trim().starts_with("Table Name : ");
                return;
            }
            Collect::Nothing => return,
        }
        let text = text.trim();
        if let Some(label) = text.strip_prefix("Table Name : ") {
            self.start_item(label.trim());
        } else if let Some(d) = text.strip_prefix("Table Description : ") {
            if let Some(item) = self.item() {
                item.description = Some(d.trim().to_string());
            }
        } else if !text.is_empty() {
            if !ROOFLINE_PARTS.contains(&text) && self.open {
                self.part_label = Some(text.to_string());
            }
            self.titles.push(text.to_string());
        }
    }

    fn start_item(&mut self, label: &str) {
        let new_body = !self.titles.is_empty() || !self.open;
        let body_name = self.titles.first().cloned().unwrap_or_default();
        self.titles.clear();
        self.part_label = None;
        self.open = true;
        if self.sections.last().is_none_or(|s| s.name != self.section) {
            self.sections.push(SectionBodies {
                identifier: None,
                name: self.section.clone(),
                extends: None,
                bodies: Vec::new(),
            });
        }
        let Some(section) = self.sections.last_mut() else {
            return;
        };
        if new_body || section.bodies.is_empty() {
            section.bodies.push(SectionBody {
                name: body_name,
                default: true,
                items: Vec::new(),
            });
        }
        if let Some(body) = section.bodies.last_mut() {
            body.items.push(BodyItem {
                kind: kind_of(&self.section, label),
                label: label.to_string(),
                description: None,
                rows: Vec::new(),
                highlight: Vec::new(),
                horizontal: true,
                value_axis: None,
                category_axis: String::new(),
                note: None,
                workload_ns: None,
            });
        }
    }

    fn item(&mut self) -> Option<&mut BodyItem> {
        if !self.open {
            return None;
        }
        self.sections
            .last_mut()
            .and_then(|s| s.bodies.last_mut())
            .and_then(|b| b.items.last_mut())
    }

    /// Whether body rows are being read (a `Table Name` line opened an item).
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// A row of the open item's table.
    pub fn row(&mut self, label: &str, metric: &Metric) {
        self.had_rows |= self.open;
        if self.collect != Collect::Bodies {
            return;
        }
        let group = match self.titles.last().map(String::as_str) {
            Some(part) if ROOFLINE_PARTS.contains(&part) => Some(match &self.part_label {
                Some(l) => format!("{l}: {part}"),
                None => part.to_string(),
            }),
            _ => None,
        };
        let rooflike = group.is_some();
        let Some(item) = self.item() else {
            return;
        };
        if rooflike {
            item.kind = ItemKind::RooflineChart;
        } else if !metric.instances.is_empty() && item.kind == ItemKind::Table {
            item.kind = ItemKind::BarChart;
        }
        item.rows.push(BodyRow {
            label: label.to_string(),
            group,
            metric: metric.clone(),
            drawn_as: None,
        });
    }

    /// A row of the open item's table that is not kept (read for a listing).
    pub fn row_passed_over(&mut self) {
        self.had_rows |= self.open;
    }

    /// Whether an item printed a row.
    pub fn had_rows(&self) -> bool {
        self.had_rows
    }

    /// The table the rows came from has ended.
    pub fn end_table(&mut self) {
        self.titles.clear();
    }

    /// The bodies read; items the export printed no rows for (tables of their own layout,
    /// such as the NUMA table) are left out.
    pub fn finish(mut self) -> Vec<SectionBodies> {
        for s in &mut self.sections {
            for b in &mut s.bodies {
                b.items.retain(|i| !i.rows.is_empty());
            }
            s.bodies.retain(|b| !b.items.is_empty());
        }
        self.sections.retain(|s| !s.bodies.is_empty());
        self.sections
    }
}

/// The kind of an item the text names only by its label.
fn kind_of(section: &str, label: &str) -> ItemKind {
    match label {
        "Memory Chart" => return ItemKind::MemoryChart,
        "Shared Memory" => return ItemKind::SharedMemoryTable,
        "L1/TEX Cache" => return ItemKind::L1TexTable,
        "L2 Cache" => return ItemKind::L2CacheTable,
        "L2 Cache Eviction Policies" => return ItemKind::L2EvictPolicyTable,
        "Device Memory" => return ItemKind::DeviceMemoryTable,
        "Workload Distribution" => return ItemKind::SuffixTable,
        _ => {}
    }
    if label.starts_with("Impact of Varying") {
        return ItemKind::LineChart;
    }
    let charts = [
        "GPU Throughput",
        "Warps Per Scheduler",
        "Warp State",
        "Pipe Utilization",
        "Executed Instruction",
    ];
    if charts.iter().any(|c| label.starts_with(c)) || label.ends_with("Breakdown") {
        return ItemKind::BarChart;
    }
    if section == "Source Counters" {
        return ItemKind::SourceMetricTable;
    }
    ItemKind::Table
}
