//! The NUMA affinity table: one row per GPU (the instance of the `numa__` metrics), with its
//! name, the NUMA node of its CPU affinity, the CPUs, and the NUMA node of its memory, as
//! ncu prints the `NUMA Affinity` table.

use crate::model::section_body::{BodyItem, BodyRow};
use crate::model::{KernelResult, Metric, Value};

/// The table's columns after `GPU ID`: (title, metric holding one instance per GPU).
pub const COLUMNS: [(&str, &str); 4] = [
    ("GPU Name", "numa__dev_display_name_all"),
    ("NUMA ID by CPU Affinity", "numa__id_cpu"),
    ("CPU Affinity", "numa__cpu_affinity"),
    ("NUMA ID by Memory Affinity", "numa__id_memory"),
];

/// The rows of a NUMA table item: each collected column's metric.
pub fn rows(r: &KernelResult) -> Vec<BodyRow> {
    COLUMNS
        .iter()
        .filter_map(|(label, name)| {
            r.metric(name).map(|m| BodyRow {
                label: (*label).to_string(),
                group: None,
                metric: m.to_metric(),
                drawn_as: None,
            })
        })
        .collect()
}

/// The table: column titles (`GPU ID` first) and a row of texts per GPU.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NumaTable {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// The metric behind each column (empty for `GPU ID`).
    pub metrics: Vec<String>,
}

fn instance_text(m: &Metric, gpu: &Value) -> String {
    m.instances
        .iter()
        .find(|i| i.id.as_ref() == Some(gpu))
        .map_or_else(String::new, |i| i.value.to_string())
}

/// Builds the table from a NUMA item's rows.
pub fn table(item: &BodyItem) -> NumaTable {
    let mut gpus: Vec<Value> = Vec::new();
    for row in &item.rows {
        for i in &row.metric.instances {
            if let Some(id) = &i.id
                && !gpus.contains(id)
            {
                gpus.push(*id);
            }
        }
    }
    let mut t = NumaTable {
        columns: vec!["GPU ID".to_string()],
        rows: Vec::new(),
        metrics: vec![String::new()],
    };
    for row in &item.rows {
        t.columns.push(row.label.clone());
        t.metrics.push(
            row.metric
                .name
                .map(|k| k.as_str().to_string())
                .unwrap_or_default(),
        );
    }
    for gpu in &gpus {
        let mut cells = vec![gpu.to_string()];
        cells.extend(item.rows.iter().map(|r| instance_text(&r.metric, gpu)));
        t.rows.push(cells);
    }
    t
}
