//! The order and scale of a bar chart's bars: a bar per row on the chart's value axis, stall
//! reasons largest first; a chart whose rows are all instanced (the opcode mix) as a bar per
//! instance, largest first, each row on its own scale. The same for a comparison's paired bars,
//! ordered by the current side.

use super::paired::{PairedContent, PairedItem, PairedRow};
use super::stalls;
use crate::model::section_body::{BodyItem, ValueAxis};

/// The positions of `values`, largest first; equal values keep their order.
pub fn largest_first(values: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
    order
}

/// The scale of a chart: its value axis's maximum when that holds every value, else the largest
/// value.
fn scale(axis: Option<&ValueAxis>, data_max: f64) -> f64 {
    axis.and_then(|a| a.max)
        .filter(|m| *m >= data_max && *m > 0.0)
        .unwrap_or(data_max)
}

/// The bars of one instanced row: (instance, value), largest first, and the largest value.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InstanceBars {
    pub bars: Vec<(String, f64)>,
    pub max: f64,
}

/// The bars of a chart, in the order they are drawn.
#[derive(Debug, Clone, PartialEq)]
pub enum BarOrder {
    /// Every row instanced: one group per row (in the rows' order).
    Instanced(Vec<InstanceBars>),
    /// A bar per row: positions in the item's rows (stall reasons largest first) and the
    /// scale.
    Rows { order: Vec<usize>, max: f64 },
}

/// The bars of a bar chart or histogram item.
pub fn bar_order(item: &BodyItem) -> BarOrder {
    // Per-instance bars only where every row is instanced (the opcode mix); a chart of plain
    // values with one instanced row among them (warps per scheduler) keeps a bar per row.
    if item.rows.iter().all(|r| !r.metric.instances.is_empty()) {
        let groups = item
            .rows
            .iter()
            .map(|row| {
                let inst: Vec<(String, f64)> = row
                    .metric
                    .instances
                    .iter()
                    .map(|i| {
                        let id = i.id.as_ref().map(|v| v.to_string()).unwrap_or_default();
                        (id, i.value.as_f64().unwrap_or(0.0))
                    })
                    .collect();
                let values: Vec<f64> = inst.iter().map(|i| i.1).collect();
                let order = largest_first(&values);
                InstanceBars {
                    max: values.iter().copied().fold(0.0, f64::max),
                    bars: order.into_iter().map(|k| inst[k].clone()).collect(),
                }
            })
            .collect();
        return BarOrder::Instanced(groups);
    }
    let order = if stalls::is_stall_chart(&item.label) {
        let values: Vec<f64> = item
            .rows
            .iter()
            .map(|r| r.metric.as_f64().unwrap_or(0.0))
            .collect();
        largest_first(&values)
    } else {
        (0..item.rows.len()).collect()
    };
    let data_max = item
        .rows
        .iter()
        .filter_map(|r| r.metric.as_f64())
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    BarOrder::Rows {
        order,
        max: scale(item.value_axis.as_ref(), data_max),
    }
}

/// The paired bars of one instanced row: positions in its instances, largest first (by the
/// larger side), and the largest value.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PairedInstanceBars {
    pub order: Vec<usize>,
    pub max: f64,
}

/// The paired bars of a chart, in the order they are drawn.
#[derive(Debug, Clone, PartialEq)]
pub enum PairedBarOrder {
    /// Every row instanced: one group per row (in the rows' order).
    Instanced(Vec<PairedInstanceBars>),
    /// A pair of bars per row: positions in the rows (stall reasons largest first by the
    /// current side, else the baseline's) and the scale of both sides.
    Rows { order: Vec<usize>, max: f64 },
}

/// The paired bars of an item of rows (`None` for other content).
pub fn paired_bar_order(item: &PairedItem) -> Option<PairedBarOrder> {
    let PairedContent::Rows(rows) = &item.content else {
        return None;
    };
    if !rows.is_empty() && rows.iter().all(|r| !r.instances.is_empty()) {
        let groups = rows
            .iter()
            .map(|row| {
                let values: Vec<f64> = row.instances.iter().map(|i| i.1.max()).collect();
                PairedInstanceBars {
                    order: largest_first(&values),
                    max: values.iter().copied().fold(0.0, f64::max),
                }
            })
            .collect();
        return Some(PairedBarOrder::Instanced(groups));
    }
    let order = if stalls::is_stall_chart(&item.label) {
        let value = |r: &PairedRow| r.value.current.or(r.value.base).unwrap_or(0.0);
        largest_first(&rows.iter().map(value).collect::<Vec<f64>>())
    } else {
        (0..rows.len()).collect()
    };
    let data_max = rows.iter().map(|r| r.value.max()).fold(0.0, f64::max);
    Some(PairedBarOrder::Rows {
        order,
        max: scale(item.value_axis.as_ref(), data_max),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn largest_first_keeps_ties_in_order_and_puts_nan_by_its_sign() {
        assert_eq!(largest_first(&[1.0, 3.0, 2.0, 3.0, 0.0]), [1, 3, 2, 0, 4]);
        assert_eq!(largest_first(&[]), Vec::<usize>::new());
        // total_cmp: a positive NaN above every number, -inf below.
        assert_eq!(
            largest_first(&[f64::NEG_INFINITY, 1.0, f64::NAN]),
            [2, 1, 0]
        );
    }

    #[test]
    fn the_value_axis_scales_only_when_it_holds_every_value() {
        let axis = |max| ValueAxis {
            label: String::new(),
            min: None,
            max,
        };
        assert_eq!(scale(Some(&axis(Some(100.0))), 42.0), 100.0);
        assert_eq!(scale(Some(&axis(Some(10.0))), 42.0), 42.0);
        assert_eq!(scale(Some(&axis(Some(0.0))), 0.0), 0.0);
        assert_eq!(scale(Some(&axis(None)), 7.0), 7.0);
        assert_eq!(scale(None, 7.0), 7.0);
    }
}
