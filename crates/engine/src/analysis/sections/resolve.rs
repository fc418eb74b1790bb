//! Resolving body templates against one result: each metric reference becomes rows of values,
//! after choosing the variant for the result's architecture and expanding `group:`,
//! `breakdown:` and `regex:` expressions from the metric lists the report stores.

use super::labels::{breakdown_label, pattern_matches};
use crate::model::section_body::{
    BodyItem, BodyRow, BodyTemplate, BodyTemplates, ItemKind, ItemTemplate, MetricRef,
    RooflinePart, RooflineValue, SectionBodies, SectionBody, Target,
};
use crate::model::{KernelResult, Metric, Value};
use crate::parse::ncu_rep::units::unit_of;

/// The resolved bodies of every section that applies to the result, in display order.
pub fn resolve(templates: &BodyTemplates, r: &KernelResult, target: &Target) -> Vec<SectionBodies> {
    templates
        .sections
        .iter()
        .filter(|s| s.applies.check(target))
        .filter_map(|s| {
            let bodies: Vec<SectionBody> =
                s.bodies.iter().filter_map(|b| body(b, r, target)).collect();
            (!bodies.is_empty()).then(|| SectionBodies {
                identifier: s.identifier.clone(),
                name: s.name.clone(),
                extends: s.extends.clone(),
                bodies,
            })
        })
        .collect()
}

fn body(b: &BodyTemplate, r: &KernelResult, target: &Target) -> Option<SectionBody> {
    let items: Vec<BodyItem> = b
        .items
        .iter()
        .filter(|i| i.applies.check(target))
        .map(|i| item(i, r, target))
        .collect();
    (!items.is_empty()).then(|| SectionBody {
        name: b.name.clone(),
        default: b.default,
        items,
    })
}

fn item(t: &ItemTemplate, r: &KernelResult, target: &Target) -> BodyItem {
    let mut rows: Vec<BodyRow> = match t.kind {
        ItemKind::SuffixTable => suffix_rows(t, r, target),
        // The template names no metrics: ncu fills the table from the `numa__` metrics.
        ItemKind::NumaTable => super::numa::rows(r),
        ItemKind::RooflineChart => {
            let mut rows = Vec::new();
            for p in &t.rooflines {
                roofline_rows(p, "Peak Work", "Peak Traffic", r, target, &mut rows);
            }
            for p in &t.achieved {
                roofline_rows(p, "Achieved Work", "Achieved Traffic", r, target, &mut rows);
            }
            rows
        }
        ItemKind::Timeline => {
            let mut rows = Vec::new();
            for g in &t.timeline {
                // The group's own row first, under the group's label alone.
                for (row, group) in g.group_row.iter().map(|row| (row, g.label.clone())).chain(
                    g.rows
                        .iter()
                        .map(|row| (row, format!("{} / {}", g.label, row.label))),
                ) {
                    // Rows drawn other than as bars say how, after their label.
                    let group = match row.kind.marker() {
                        Some(kind) => format!("{group} [{kind}]"),
                        None => group,
                    };
                    let drawn_as = row.kind.marker().map(|_| row.kind);
                    for m in &row.metrics {
                        rows.extend(expand(m, r, target).into_iter().map(|resolved| BodyRow {
                            drawn_as,
                            ..with_group(resolved, &group)
                        }));
                    }
                }
            }
            rows
        }
        ItemKind::MetricInstancesTable => super::instances_table::rows(
            t.metrics
                .iter()
                .flat_map(|m| expand(m, r, target))
                .collect(),
            r,
        ),
        _ => t
            .metrics
            .iter()
            .flat_map(|m| expand(m, r, target))
            .collect(),
    };
    if t.sort_descending {
        rows.sort_by(|a, b| {
            let (x, y) = (
                a.metric.as_f64().unwrap_or(f64::NEG_INFINITY),
                b.metric.as_f64().unwrap_or(f64::NEG_INFINITY),
            );
            y.total_cmp(&x).then_with(|| a.label.cmp(&b.label))
        });
    }
    BodyItem {
        kind: t.kind,
        label: t.label.clone(),
        description: t.description.clone(),
        rows,
        highlight: t
            .highlight
            .iter()
            .flat_map(|m| expand(m, r, target))
            .collect(),
        horizontal: t.horizontal,
        value_axis: t.value_axis.clone(),
        category_axis: t.category_axis.clone(),
        note: None,
        workload_ns: (t.kind == ItemKind::Timeline)
            .then(|| super::timeline::workload_stamps(r))
            .flatten(),
    }
}

fn with_group(mut row: BodyRow, group: &str) -> BodyRow {
    row.group = Some(group.to_string());
    row
}

fn suffix_rows(t: &ItemTemplate, r: &KernelResult, target: &Target) -> Vec<BodyRow> {
    let mut rows = Vec::new();
    for base in &t.metrics {
        let Some((name, label)) = chosen(base, target) else {
            continue;
        };
        for (suffix, column) in &t.suffixes {
            let full = format!("{name}{suffix}");
            rows.push(BodyRow {
                label: label.to_string(),
                group: Some(column.clone()),
                metric: metric_or_missing(r, &full),
                drawn_as: None,
            });
        }
    }
    rows
}

fn roofline_rows(
    p: &RooflinePart,
    work: &str,
    traffic: &str,
    r: &KernelResult,
    target: &Target,
    out: &mut Vec<BodyRow>,
) {
    for (value, what) in [(&p.work, work), (&p.traffic, traffic)] {
        let group = format!("{}: {what}", p.label);
        let refs: Vec<&MetricRef> = match value {
            Some(RooflineValue::Metric(m)) => vec![m],
            Some(RooflineValue::PerSecond { per_cycle, rate }) => {
                per_cycle.iter().chain(rate.iter()).collect()
            }
            Some(RooflineValue::Constant(c)) => {
                out.push(BodyRow {
                    label: what.to_string(),
                    group: Some(group.clone()),
                    metric: Metric::new(None, Value::Double(*c), ""),
                    drawn_as: None,
                });
                Vec::new()
            }
            None => Vec::new(),
        };
        for m in refs {
            out.extend(
                expand(m, r, target)
                    .into_iter()
                    .map(|row| with_group(row, &group)),
            );
        }
    }
}

/// The (metric name, label) a reference shows for the target: the first alternative whose
/// filter applies, else the reference itself when its own filter applies.
pub fn chosen<'m>(m: &'m MetricRef, target: &Target) -> Option<(&'m str, &'m str)> {
    let option = m
        .options
        .iter()
        .find(|o| !o.applies.is_any() && o.applies.check(target))
        .map(|o| {
            let label = if o.label.is_empty() {
                &m.label
            } else {
                &o.label
            };
            (o.name.as_str(), label.as_str())
        });
    option
        .or_else(|| {
            m.applies
                .check(target)
                .then_some((m.name.as_str(), m.label.as_str()))
        })
        .filter(|(name, _)| !name.is_empty())
}

fn metric_or_missing(r: &KernelResult, name: &str) -> Metric {
    r.metric(name)
        .map(|m| m.to_metric())
        .unwrap_or_else(|| Metric::new(Some(name.into()), Value::Missing, unit_of(name)))
}

/// The members a stored list metric (`group:…`, `breakdown:…`) names.
fn members(r: &KernelResult, key: &str) -> Vec<String> {
    r.metric(key)
        .and_then(|m| m.value.as_str())
        .map(|s| {
            s.split(',')
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The rows of one metric reference.
pub fn expand(m: &MetricRef, r: &KernelResult, target: &Target) -> Vec<BodyRow> {
    let Some((name, label)) = chosen(m, target) else {
        return Vec::new();
    };
    let row = |label: String, member: &str| BodyRow {
        label,
        group: None,
        metric: metric_or_missing(r, member),
        drawn_as: None,
    };
    if name.starts_with("group:") {
        return members(r, name)
            .iter()
            .map(|member| {
                let l = if label.is_empty() {
                    member.clone()
                } else {
                    format!("{label} ({member})")
                };
                row(l, member)
            })
            .collect();
    }
    if let Some(rest) = name.strip_prefix("breakdown:") {
        // An optional depth comes first (`breakdown:2:name`); the report stores the list under
        // the name without it.
        let base = match rest.split_once(':') {
            Some((depth, base)) if depth.bytes().all(|b| b.is_ascii_digit()) => base,
            _ => rest,
        };
        return members(r, &format!("breakdown:{base}"))
            .iter()
            .map(|member| row(breakdown_label(label, member), member))
            .collect();
    }
    if let Some(pattern) = name.strip_prefix("regex:") {
        return r
            .metrics()
            .keys()
            .filter(|k| pattern_matches(pattern, k))
            .map(|k| {
                let l = if label.is_empty() {
                    k.to_string()
                } else {
                    format!("{label} ({k})")
                };
                row(l, &k)
            })
            .collect();
    }
    vec![row(label.to_string(), name)]
}
