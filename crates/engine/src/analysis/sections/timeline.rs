//! The PM sampling timeline: each metric of the section's timeline rows as a series of
//! (time, value) points. A sampled metric's instances are its samples, keyed by the sample's
//! GPU timestamp in nanoseconds; times are counted from the first sample. A sample without a
//! timestamp (id 0) cannot be placed and is counted instead. The workload's execution (the
//! "Workload Execution" row) spans the result's `profiler__timestamp_workload_start_0` and
//! `_end_0`, whose instances are keyed by the same clock.

use crate::model::section_body::{BodyItem, TimelineRowKind};
use crate::model::{KernelResult, Value};
use serde::Serialize;

/// One sampled metric over time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Series {
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
    /// The base unit of the values.
    pub unit: String,
    /// (nanoseconds since the timeline's first sample, value), in time order.
    pub points: Vec<(f64, f64)>,
    /// Samples without a timestamp, left out of `points`.
    pub untimed: usize,
}

impl Series {
    /// The largest value (0 when there is none).
    pub fn max(&self) -> f64 {
        self.points.iter().map(|p| p.1).fold(0.0, f64::max)
    }

    /// The value at or before `t` (the sample that covers it).
    pub fn value_at(&self, t: f64) -> Option<f64> {
        let i = self.points.partition_point(|p| p.0 <= t);
        i.checked_sub(1).map(|i| self.points[i].1)
    }
}

/// A row group of the timeline (`Overview`, `SM`, `DRAM`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    pub label: String,
    pub series: Vec<Series>,
    /// How the row is drawn, where not as one strip per metric: its metrics over each other
    /// in one strip (overlay), or each sample as a mark (markers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drawn_as: Option<TimelineRowKind>,
}

/// The timeline of one result.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Timeline {
    pub groups: Vec<Group>,
    /// The time of the last sample, in nanoseconds since the first.
    pub end_ns: f64,
    /// When the workload executed: (start, end) in nanoseconds since the first sample.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workload: Option<(f64, f64)>,
}

impl Timeline {
    /// Whether no series has a sample.
    pub fn is_empty(&self) -> bool {
        self.groups
            .iter()
            .all(|g| g.series.iter().all(|s| s.points.is_empty()))
    }

    /// The series with this label, in any group.
    pub fn series(&self, label: &str) -> Option<&Series> {
        self.groups
            .iter()
            .flat_map(|g| &g.series)
            .find(|s| s.label == label)
    }
}

/// The group label of a resolved row (`Overview / ` → `Overview`, `L2 / Hit` → `L2 / Hit`).
fn group_label(group: Option<&str>) -> String {
    let g = group.unwrap_or("").trim();
    g.strip_suffix('/').unwrap_or(g).trim().to_string()
}

/// A sample's timestamp in nanoseconds, exact (timestamps exceed what an `f64` holds to the
/// nanosecond); `None` for a sample without one.
fn stamp(id: Option<&Value>) -> Option<u64> {
    match id? {
        Value::U64(t) => Some(*t),
        Value::I64(t) => u64::try_from(*t).ok(),
        v => v.as_f64().filter(|t| *t >= 1.0).map(|t| t as u64),
    }
    .filter(|t| *t > 0)
}

/// The GPU timestamps at which the result's workload started and ended, when the profiler
/// recorded them (a PM sampling collection does).
pub fn workload_stamps(r: &KernelResult) -> Option<[u64; 2]> {
    let at = |name: &str| {
        let m = r.metric(name)?.to_metric();
        let first = m.instances.first()?;
        stamp(first.id.as_ref())
    };
    let (start, end) = (
        at("profiler__timestamp_workload_start_0")?,
        at("profiler__timestamp_workload_end_0")?,
    );
    (end >= start).then_some([start, end])
}

/// Builds the timeline of a resolved timeline item.
pub fn build(item: &BodyItem) -> Timeline {
    let start = item
        .rows
        .iter()
        .flat_map(|r| &r.metric.instances)
        .filter_map(|i| stamp(i.id.as_ref()))
        .min()
        .unwrap_or(0);
    let mut groups: Vec<Group> = Vec::new();
    let mut end_ns: f64 = 0.0;
    for row in &item.rows {
        let mut points = Vec::with_capacity(row.metric.instances.len());
        let mut untimed = 0;
        for i in &row.metric.instances {
            match (stamp(i.id.as_ref()), i.value.as_f64()) {
                (Some(t), Some(v)) if v.is_finite() => points.push(((t - start) as f64, v)),
                _ => untimed += 1,
            }
        }
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        if let Some(last) = points.last() {
            end_ns = end_ns.max(last.0);
        }
        let series = Series {
            label: row.label.clone(),
            metric: row.metric.name.map(|k| k.as_str().to_string()),
            unit: row.metric.unit.to_string(),
            points,
            untimed,
        };
        let label = group_label(row.group.as_deref());
        match groups.iter_mut().find(|g| g.label == label) {
            Some(g) => g.series.push(series),
            None => groups.push(Group {
                label,
                series: vec![series],
                drawn_as: row.drawn_as,
            }),
        }
    }
    // Signed: the workload may start before the first sample.
    let since_start = |t: u64| (i128::from(t) - i128::from(start)) as f64;
    let workload = item
        .workload_ns
        .filter(|_| start > 0)
        .map(|[s, e]| (since_start(s), since_start(e)));
    if let Some((_, stop)) = workload {
        end_ns = end_ns.max(stop);
    }
    Timeline {
        groups,
        end_ns,
        workload,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_labels_drop_the_empty_row_label() {
        assert_eq!(group_label(Some("Overview / ")), "Overview");
        assert_eq!(group_label(Some("L2 / Hit")), "L2 / Hit");
        assert_eq!(group_label(None), "");
    }

    #[test]
    fn value_at_takes_the_covering_sample() {
        let s = Series {
            label: String::new(),
            metric: None,
            unit: String::new(),
            points: vec![(0.0, 1.0), (10.0, 2.0)],
            untimed: 0,
        };
        assert_eq!(s.value_at(-1.0), None);
        assert_eq!(s.value_at(5.0), Some(1.0));
        assert_eq!(s.value_at(10.0), Some(2.0));
    }
}
