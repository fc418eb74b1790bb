//! The rows of a metric-instances table (ncu 2026.3): for each metric the template names, one
//! row per instance, labelled by the instance's correlation id (its position where it has
//! none), holding the instance's value and, as that row's instances, the further values the
//! report stores on the instance.

use crate::model::section_body::BodyRow;
use crate::model::{Instance, KernelResult, Metric};

/// The rows of a metric-instances table for a result, from the rows of the metrics its
/// template names (resolved for the result's architecture).
pub fn rows(metrics: Vec<BodyRow>, r: &KernelResult) -> Vec<BodyRow> {
    let body = r.body();
    let mut out = Vec::new();
    for row in metrics {
        let group = if row.label.is_empty() {
            row.metric.name.map(|k| k.as_str().to_string())
        } else {
            Some(row.label.clone())
        };
        for (i, instance) in row.metric.instances.iter().enumerate() {
            let mut metric = Metric::new(row.metric.name, instance.value, row.metric.unit);
            if let Some(key) = row.metric.name {
                metric.instances = body
                    .instance_values
                    .iter()
                    .filter(|v| v.metric == key && v.instance == i)
                    .flat_map(|v| &v.values)
                    .map(|v| Instance {
                        id: None,
                        value: *v,
                    })
                    .collect();
            }
            out.push(BodyRow {
                label: instance
                    .id
                    .as_ref()
                    .map_or_else(|| format!("#{i}"), |id| id.to_string()),
                group: group.clone(),
                metric,
                drawn_as: None,
            });
        }
    }
    out
}
