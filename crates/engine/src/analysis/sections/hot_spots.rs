//! The hot spots of a Source Counters table (ncu's "Hotspot Locations"): the instructions
//! with the largest sums over the table's per-instruction metrics, each with its CUDA line,
//! its SASS and the metrics that make it hot, named as ncu names them.

use crate::analysis::source::columns::address_of;
use crate::model::format::{metric_text, value_text};
use crate::model::section_body::BodyItem;
use crate::model::source::SourceView;
use std::collections::BTreeMap;

/// How many instructions a table lists.
pub const HOT_SPOTS: usize = 5;
/// How many of its metrics a hot spot names.
const REASONS: usize = 3;

/// One hot instruction.
#[derive(Debug, Clone, PartialEq)]
pub struct HotSpot {
    pub address: u64,
    /// The sum of the table's metrics at the instruction.
    pub value: f64,
    /// `value` as text, in the unit of the table's metrics.
    pub value_text: String,
    /// The instruction's share of the table's total, in percent, and as text (`12.3 %`).
    pub share_pct: f64,
    pub share_text: String,
    /// Where it is: `file.cu:42` with line information, else `kernel+0x1a0`.
    pub location: String,
    /// The SASS when the Source view has it, else the address (`0x7f45…`).
    pub instruction: String,
    /// The metrics that make up most of `value`, largest first:
    /// `Stall Long Scoreboard 62 %, Stall Wait 20 %`.
    pub reasons: String,
}

/// The hot spots of one table, with what it counts.
#[derive(Debug, Clone, PartialEq)]
pub struct HotSpotTable {
    /// The table's label (`Warp Stall Sampling (All Samples)`).
    pub label: String,
    pub rows: Vec<HotSpot>,
    /// The table's metrics, named as ncu names them, each with its value.
    pub metrics: Vec<(String, String)>,
}

/// A per-instruction metric's name as ncu's charts write it: the stall reasons of warp
/// sampling as `Stall Long Scoreboard`, other metrics as stored.
pub fn metric_label(name: &str) -> String {
    let stall = name
        .strip_prefix("smsp__pcsamp_warps_issue_stalled_")
        .or_else(|| name.strip_prefix("smsp__pcsamp_warps_issue_stalled_not_issued_"));
    let Some(reason) = stall else {
        return match name {
            "smsp__pcsamp_sample_count" => "Samples".into(),
            "inst_executed" | "smsp__sass_inst_executed" => "Instructions Executed".into(),
            _ => name.into(),
        };
    };
    let words: Vec<String> = reason
        .split('_')
        .map(|w| match w {
            "lg" | "mio" | "imc" | "gmma" => w.to_uppercase(),
            "no" => "No".into(),
            "instructions" => "Instruction".into(),
            _ => {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_uppercase().chain(c).collect())
                    .unwrap_or_default()
            }
        })
        .collect();
    format!("Stall {}", words.join(" "))
}

/// The hot spots of `item` (a Source Counters table), located and disassembled with `view`
/// when the result's Source view has been read; `function_address` and `kernel` name the
/// place of an instruction without line information.
pub fn hot_spots(
    item: &BodyItem,
    view: Option<&SourceView>,
    kernel: &str,
    function_address: u64,
) -> HotSpotTable {
    let mut by_address: BTreeMap<u64, Vec<(usize, f64)>> = BTreeMap::new();
    let mut totals = vec![0.0; item.rows.len()];
    for (r, row) in item.rows.iter().enumerate() {
        for i in &row.metric.instances {
            if let (Some(address), Some(v)) = (i.id.as_ref().and_then(address_of), i.value.as_f64())
            {
                by_address.entry(address).or_default().push((r, v));
                totals[r] += v;
            }
        }
    }
    let total: f64 = totals.iter().sum();
    let unit = item
        .rows
        .first()
        .map(|r| r.metric.unit.as_str())
        .unwrap_or("");
    // (address, sum, (row, value) of each metric there)
    type Spot = (u64, f64, Vec<(usize, f64)>);
    let mut hot: Vec<Spot> = by_address
        .into_iter()
        .map(|(a, parts)| (a, parts.iter().map(|p| p.1).sum::<f64>(), parts))
        .filter(|(_, v, _)| *v > 0.0)
        .collect();
    hot.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    hot.truncate(HOT_SPOTS);
    let rows = hot
        .into_iter()
        .map(|(address, value, mut parts)| {
            parts.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            let reasons = if item.rows.len() > 1 {
                parts
                    .iter()
                    .filter(|p| 100.0 * p.1 / value >= 0.5)
                    .take(REASONS)
                    .map(|&(r, v)| {
                        let name = item.rows[r].metric.name.as_deref().unwrap_or("");
                        format!("{} {:.0} %", metric_label(name), 100.0 * v / value)
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            } else {
                String::new()
            };
            let instruction =
                view.and_then(|v| v.instructions.iter().find(|i| i.address == address));
            let line = instruction.and_then(|i| i.line()).and_then(|(file, line)| {
                let path = &view?.files.get(file)?.path;
                let base = crate::analysis::source::file_name(path);
                Some(format!("{base}:{line}"))
            });
            let location = line.unwrap_or_else(|| {
                format!("{kernel}+{:#x}", address.saturating_sub(function_address))
            });
            let share_pct = if total > 0.0 {
                100.0 * value / total
            } else {
                0.0
            };
            HotSpot {
                address,
                value,
                value_text: value_text(value, unit),
                share_pct,
                share_text: format!("{share_pct:.1} %"),
                location,
                instruction: instruction
                    .and_then(|i| i.sass.as_deref())
                    .map(|s| s.trim().to_string())
                    .unwrap_or_else(|| format!("{address:#x}")),
                reasons,
            }
        })
        .collect();
    let metrics = item
        .rows
        .iter()
        .map(|row| {
            let name = row.metric.name.as_deref().unwrap_or(&row.label);
            (metric_label(name), metric_text(row.metric.view()))
        })
        .collect();
    HotSpotTable {
        label: item.label.clone(),
        rows,
        metrics,
    }
}
