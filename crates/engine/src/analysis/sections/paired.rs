//! Section bodies of two results side by side, for the comparison: sections, bodies, items
//! and rows of a baseline and a current result matched by name, each value with both sides
//! and the change. Bar charts and tables pair their rows (and instances), memory tables their
//! cells, the memory chart its links and units' figures. Something only one side has keeps an
//! empty other side.

use super::memory_chart::{self, Amount, Unit};
use super::memory_table;
use super::timeline::{self, Timeline};
use crate::analysis::compare::Verdict;
use crate::analysis::compare::direction::{Direction, direction_of};
use crate::model::section_body::{BodyItem, BodyRow, ItemKind, SectionBodies, ValueAxis};
use serde::Serialize;

/// A value of both sides (serialized with its change: `delta`, `delta_pct`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Paired {
    pub base: Option<f64>,
    pub current: Option<f64>,
}

impl Paired {
    pub fn new(base: Option<f64>, current: Option<f64>) -> Self {
        let finite = |v: Option<f64>| v.filter(|v| v.is_finite());
        Paired {
            base: finite(base),
            current: finite(current),
        }
    }

    /// current − base, when both sides have a value.
    pub fn delta(&self) -> Option<f64> {
        Some(self.current? - self.base?)
    }

    /// The change in percent of the base; `None` without both sides or with a zero base.
    pub fn delta_pct(&self) -> Option<f64> {
        let (b, c) = (self.base?, self.current?);
        if b == 0.0 {
            (c == 0.0).then_some(0.0)
        } else {
            Some((c - b) / b.abs() * 100.0)
        }
    }

    /// Better, worse, changed or unchanged, by the metric's direction (`Direction` table) and
    /// the noise threshold in percent; `None` without both sides.
    pub fn verdict(&self, metric: Option<&str>, threshold_pct: f64) -> Option<Verdict> {
        let d = self.delta()?;
        let pct = self.delta_pct();
        if d == 0.0 || pct.is_some_and(|p| p.abs() < threshold_pct) {
            return Some(Verdict::Unchanged);
        }
        Some(match (metric.map(direction_of), d > 0.0) {
            (Some(Direction::Lower), false) | (Some(Direction::Higher), true) => Verdict::Better,
            (Some(Direction::Lower), true) | (Some(Direction::Higher), false) => Verdict::Worse,
            _ => Verdict::Neutral,
        })
    }

    /// The larger of the two values (for a common scale).
    pub fn max(&self) -> f64 {
        self.base
            .unwrap_or(0.0)
            .max(self.current.unwrap_or(0.0))
            .max(0.0)
    }
}

impl Serialize for Paired {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Paired", 4)?;
        st.serialize_field("base", &self.base)?;
        st.serialize_field("current", &self.current)?;
        st.serialize_field("delta", &self.delta())?;
        st.serialize_field("delta_pct", &self.delta_pct())?;
        st.end()
    }
}

/// One row of a chart or table with both sides.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairedRow {
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The metric's name, when a side knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
    /// The base unit of the values.
    pub unit: String,
    pub value: Paired,
    /// Instanced rows (the opcode mix): (instance, both values), current's order first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub instances: Vec<(String, Paired)>,
}

/// One cell of a memory table with both sides.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairedCell {
    pub metric: String,
    pub unit: String,
    pub value: Paired,
}

/// One row of a memory table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairedGridRow {
    pub label: String,
    pub cells: Vec<Option<PairedCell>>,
}

/// A memory table with both sides: the union of the sides' columns and rows.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PairedGrid {
    pub columns: Vec<String>,
    pub rows: Vec<PairedGridRow>,
}

/// One link of the memory chart with both sides.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairedLink {
    #[serde(serialize_with = "unit_name")]
    pub from: Unit,
    #[serde(serialize_with = "unit_name")]
    pub to: Unit,
    #[serde(serialize_with = "amount_name")]
    pub amount_kind: Amount,
    pub amount: Paired,
    pub per_second: Paired,
    pub pct_of_peak: Paired,
    pub metrics: Vec<String>,
}

/// A unit of the memory chart with its figure (hit rate) of both sides.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairedNode {
    #[serde(serialize_with = "unit_name")]
    pub unit: Unit,
    /// (label, both values, metric).
    pub figure: Option<(&'static str, Paired, String)>,
    pub active: bool,
}

/// The memory chart with both sides: the union of the sides' links and units.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PairedChart {
    pub nodes: Vec<PairedNode>,
    pub links: Vec<PairedLink>,
}

fn unit_name<S: serde::Serializer>(u: &Unit, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(u.name())
}

fn amount_name<S: serde::Serializer>(a: &Amount, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(a.short())
}

/// What a paired item holds, by kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PairedContent {
    /// Bar charts, line charts and tables: rows.
    Rows(Vec<PairedRow>),
    MemoryTable(PairedGrid),
    MemoryChart(PairedChart),
    /// A PM sampling timeline: each side's series over its own time.
    Timeline {
        base: Option<Timeline>,
        current: Option<Timeline>,
    },
}

/// One body item with both sides.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairedItem {
    pub kind: ItemKind,
    pub label: String,
    pub horizontal: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_axis: Option<ValueAxis>,
    /// Whether only one side has the item (`Some(true)`: only the current one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub only_current: Option<bool>,
    pub content: PairedContent,
}

/// One body with both sides.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairedBody {
    pub name: String,
    pub default: bool,
    pub items: Vec<PairedItem>,
}

/// One section's bodies with both sides.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairedSection {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identifier: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extends: Option<String>,
    pub bodies: Vec<PairedBody>,
}

impl PairedSection {
    /// The item of this kind and label, in any body.
    pub fn item(&self, kind: ItemKind, label: &str) -> Option<&PairedItem> {
        self.bodies
            .iter()
            .flat_map(|b| &b.items)
            .find(|i| i.kind == kind && i.label == label)
    }
}

impl PairedItem {
    /// The rows of a chart or table item.
    pub fn rows(&self) -> &[PairedRow] {
        match &self.content {
            PairedContent::Rows(r) => r,
            _ => &[],
        }
    }

    /// The row with this label.
    pub fn row(&self, label: &str) -> Option<&PairedRow> {
        self.rows().iter().find(|r| r.label == label)
    }
}

/// Matches two lists by key, the n-th occurrence of a key with the n-th: current's order,
/// then what only the base has.
fn match_by<'a, T, K: PartialEq>(
    base: &'a [T],
    current: &'a [T],
    key: impl Fn(&T) -> K,
) -> Vec<(Option<&'a T>, Option<&'a T>)> {
    let keyed = |list: &'a [T]| -> Vec<(K, usize, &'a T)> {
        let mut out: Vec<(K, usize, &'a T)> = Vec::with_capacity(list.len());
        for t in list {
            let k = key(t);
            let n = out.iter().filter(|(o, _, _)| *o == k).count();
            out.push((k, n, t));
        }
        out
    };
    let b = keyed(base);
    let c = keyed(current);
    let mut used = vec![false; b.len()];
    let mut out = Vec::with_capacity(c.len().max(b.len()));
    for (k, n, t) in &c {
        let found = b.iter().position(|(bk, bn, _)| bk == k && bn == n);
        if let Some(i) = found {
            used[i] = true;
        }
        out.push((found.map(|i| b[i].2), Some(*t)));
    }
    for (i, (_, _, t)) in b.iter().enumerate() {
        if !used[i] {
            out.push((Some(*t), None));
        }
    }
    out
}

/// Pairs the bodies of every section of two results.
pub fn pair(base: &[SectionBodies], current: &[SectionBodies]) -> Vec<PairedSection> {
    match_by(base, current, |s| (s.identifier.clone(), s.name.clone()))
        .into_iter()
        .filter_map(|(b, c)| {
            let any = c.or(b)?;
            let (bb, cb) = (
                b.map_or(&[][..], |s| &s.bodies[..]),
                c.map_or(&[][..], |s| &s.bodies[..]),
            );
            let bodies = match_by(bb, cb, |x| x.name.clone())
                .into_iter()
                .filter_map(|(b, c)| {
                    let any = c.or(b)?;
                    let (bi, ci) = (
                        b.map_or(&[][..], |x| &x.items[..]),
                        c.map_or(&[][..], |x| &x.items[..]),
                    );
                    let items = match_by(bi, ci, |i| (i.kind, i.label.clone()))
                        .into_iter()
                        .filter_map(|(b, c)| pair_item(b, c))
                        .collect();
                    Some(PairedBody {
                        name: any.name.clone(),
                        default: any.default,
                        items,
                    })
                })
                .collect();
            Some(PairedSection {
                name: any.name.clone(),
                identifier: any.identifier.clone(),
                extends: any.extends.clone(),
                bodies,
            })
        })
        .collect()
}

/// Groups sections as the details page shows them: each section followed by those extending
/// it (`Extends` naming its identifier), in order; a section extending one that is absent
/// stands alone.
pub fn group_extending(sections: &[PairedSection]) -> Vec<Vec<&PairedSection>> {
    group_extending_at(sections)
        .into_iter()
        .map(|g| g.into_iter().map(|i| &sections[i]).collect())
        .collect()
}

/// The groups of [`group_extending`] as positions in `sections`.
pub fn group_extending_at(sections: &[PairedSection]) -> Vec<Vec<usize>> {
    let parent_of = |s: &PairedSection| {
        s.extends.as_deref().and_then(|e| {
            sections
                .iter()
                .position(|p| p.identifier.as_deref() == Some(e) && p.extends.is_none())
        })
    };
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for (i, s) in sections.iter().enumerate() {
        match parent_of(s) {
            Some(p) => match groups.iter_mut().find(|g| g.0 == p) {
                Some(g) => g.1.push(i),
                None => groups.push((p, vec![p, i])),
            },
            None => {
                if !groups.iter().any(|g| g.0 == i) {
                    groups.push((i, vec![i]));
                }
            }
        }
    }
    groups.into_iter().map(|g| g.1).collect()
}

/// Pairs one item.
pub fn pair_item(base: Option<&BodyItem>, current: Option<&BodyItem>) -> Option<PairedItem> {
    let any = current.or(base)?;
    let only_current = match (base, current) {
        (Some(_), Some(_)) => None,
        (None, _) => Some(true),
        (_, None) => Some(false),
    };
    let content = match any.kind {
        ItemKind::MemoryChart => PairedContent::MemoryChart(pair_chart(base, current)),
        k if k.memory_group().is_some() => PairedContent::MemoryTable(pair_grid(base, current)),
        ItemKind::Timeline => PairedContent::Timeline {
            base: base.map(timeline::build),
            current: current.map(timeline::build),
        },
        _ => PairedContent::Rows(pair_rows(
            base.map_or(&[][..], |i| &i.rows[..]),
            current.map_or(&[][..], |i| &i.rows[..]),
        )),
    };
    Some(PairedItem {
        kind: any.kind,
        label: any.label.clone(),
        horizontal: any.horizontal,
        value_axis: any.value_axis.clone(),
        only_current,
        content,
    })
}

/// The text of an instance id.
fn instance_key(i: &crate::model::Instance) -> String {
    i.id.as_ref().map(|v| v.to_string()).unwrap_or_default()
}

/// Pairs rows by group and label.
fn pair_rows(base: &[BodyRow], current: &[BodyRow]) -> Vec<PairedRow> {
    match_by(base, current, |r| (r.group.clone(), r.label.clone()))
        .into_iter()
        .filter_map(|(b, c)| {
            let any = c.or(b)?;
            let (bi, ci) = (
                b.map_or(&[][..], |r| &r.metric.instances[..]),
                c.map_or(&[][..], |r| &r.metric.instances[..]),
            );
            let instances = match_by(bi, ci, instance_key)
                .into_iter()
                .filter_map(|(b, c)| {
                    let id = instance_key(c.or(b)?);
                    Some((
                        id,
                        Paired::new(
                            b.and_then(|i| i.value.as_f64()),
                            c.and_then(|i| i.value.as_f64()),
                        ),
                    ))
                })
                .collect();
            Some(PairedRow {
                label: any.label.clone(),
                group: any.group.clone(),
                metric: c
                    .and_then(|r| r.metric.name)
                    .or_else(|| b.and_then(|r| r.metric.name))
                    .map(|k| k.as_str().to_string()),
                unit: any.metric.unit.to_string(),
                value: Paired::new(
                    b.and_then(|r| r.metric.as_f64()),
                    c.and_then(|r| r.metric.as_f64()),
                ),
                instances,
            })
        })
        .collect()
}

/// Pairs two memory tables cell by cell.
fn pair_grid(base: Option<&BodyItem>, current: Option<&BodyItem>) -> PairedGrid {
    let b = base.map(memory_table::grid).unwrap_or_default();
    let c = current.map(memory_table::grid).unwrap_or_default();
    let mut columns = c.columns.clone();
    for col in &b.columns {
        if !columns.contains(col) {
            columns.push(col.clone());
        }
    }
    let cell_of = |g: &memory_table::Grid, label: &str, col: &str| {
        let r = g.rows.iter().find(|r| r.label == label)?;
        let k = g.columns.iter().position(|c| c == col)?;
        r.cells.get(k)?.clone()
    };
    let rows = match_by(&b.rows, &c.rows, |r| r.label.clone())
        .into_iter()
        .filter_map(|(br, cr)| {
            let label = cr.or(br)?.label.clone();
            let cells = columns
                .iter()
                .map(|col| {
                    let (bc, cc) = (cell_of(&b, &label, col), cell_of(&c, &label, col));
                    let any = cc.as_ref().or(bc.as_ref())?;
                    Some(PairedCell {
                        metric: any.metric.clone(),
                        unit: any.unit.clone(),
                        value: Paired::new(
                            bc.as_ref().and_then(|x| x.value),
                            cc.as_ref().and_then(|x| x.value),
                        ),
                    })
                })
                .collect();
            Some(PairedGridRow { label, cells })
        })
        .collect();
    PairedGrid { columns, rows }
}

/// Pairs two memory charts link by link and unit by unit.
fn pair_chart(base: Option<&BodyItem>, current: Option<&BodyItem>) -> PairedChart {
    let b = base
        .map(|i| memory_chart::build(Some(i), None))
        .unwrap_or_default();
    let c = current
        .map(|i| memory_chart::build(Some(i), None))
        .unwrap_or_default();
    let links = match_by(&b.links, &c.links, |l| (l.from, l.to))
        .into_iter()
        .filter_map(|(bl, cl)| {
            let any = cl.or(bl)?;
            let both = |f: fn(&memory_chart::Link) -> Option<f64>| {
                Paired::new(bl.and_then(f), cl.and_then(f))
            };
            let mut metrics = any.metrics.clone();
            for m in bl.iter().flat_map(|l| &l.metrics) {
                if !metrics.contains(m) {
                    metrics.push(m.clone());
                }
            }
            Some(PairedLink {
                from: any.from,
                to: any.to,
                amount_kind: any.amount_kind,
                amount: both(|l| l.amount),
                per_second: both(|l| l.per_second),
                pct_of_peak: both(|l| l.pct_of_peak),
                metrics,
            })
        })
        .collect();
    let mut nodes: Vec<PairedNode> = match_by(&b.nodes, &c.nodes, |n| n.unit)
        .into_iter()
        .filter_map(|(bn, cn)| {
            let any = cn.or(bn)?;
            let figure_of = |n: Option<&memory_chart::Node>| n.and_then(|n| n.figure.clone());
            let (bf, cf) = (figure_of(bn), figure_of(cn));
            let figure = cf.as_ref().or(bf.as_ref()).map(|(label, _, metric)| {
                (
                    *label,
                    Paired::new(bf.as_ref().map(|f| f.1), cf.as_ref().map(|f| f.1)),
                    metric.clone(),
                )
            });
            Some(PairedNode {
                unit: any.unit,
                figure,
                active: bn.is_some_and(|n| n.active) || cn.is_some_and(|n| n.active),
            })
        })
        .collect();
    nodes.sort_by_key(|n| n.unit);
    PairedChart { nodes, links }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn change_of_a_pair() {
        let p = Paired::new(Some(200.0), Some(150.0));
        assert_eq!(p.delta(), Some(-50.0));
        assert_eq!(p.delta_pct(), Some(-25.0));
        assert_eq!(Paired::new(Some(0.0), Some(0.0)).delta_pct(), Some(0.0));
        assert_eq!(Paired::new(Some(0.0), Some(1.0)).delta_pct(), None);
        assert_eq!(Paired::new(None, Some(1.0)).delta(), None);
        assert_eq!(Paired::new(Some(f64::NAN), Some(1.0)).base, None);
        let stall =
            Some("smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio");
        assert_eq!(p.verdict(stall, 2.0), Some(Verdict::Better));
        assert_eq!(
            Paired::new(Some(100.0), Some(101.0)).verdict(stall, 2.0),
            Some(Verdict::Unchanged)
        );
        assert_eq!(p.verdict(None, 2.0), Some(Verdict::Neutral));
    }

    #[test]
    fn matching_keeps_duplicates_in_order_and_both_ends() {
        let base = ["a", "b", "a", "x"];
        let current = ["a", "a", "c"];
        let m = match_by(&base, &current, |s| s.to_string());
        let pairs: Vec<(Option<&str>, Option<&str>)> =
            m.iter().map(|(b, c)| (b.copied(), c.copied())).collect();
        assert_eq!(
            pairs,
            vec![
                (Some("a"), Some("a")),
                (Some("a"), Some("a")),
                (None, Some("c")),
                (Some("b"), None),
                (Some("x"), None),
            ]
        );
    }
}
