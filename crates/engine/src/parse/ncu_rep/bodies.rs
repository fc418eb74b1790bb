//! Section bodies from the section templates a report stores with its results: the charts and
//! tables below each section's header, with the metric expressions they name, decoded once per
//! report (every result of a file carries the same templates) into [`BodyTemplates`].

use super::body_messages::{
    BodyItemMsg, RooflinePartMsg, RooflineValueMsg, SectionBodiesMsg, TimelineRowMsg, ValueAxisMsg,
};
use super::container::Entry;
use super::messages::{MetricOptionFilter, SectionMetric};
use super::unknown::{Unknown, is_body_item_field, unknown_numbers};
use super::wire::{FieldIter, WireValue};
use crate::model::section_body::{
    Applies, BodyTemplate, BodyTemplates, ItemKind, ItemTemplate, MetricRef, RooflinePart,
    RooflineValue, SectionTemplateBodies, TimelineGroup, TimelineRow, TimelineRowKind, ValueAxis,
};
use prost::Message;

/// `ProfileResult` field holding one section template.
const SECTIONS: u32 = 17;

/// Nesting of horizontal containers followed; deeper items are dropped.
const MAX_DEPTH: usize = 8;

/// The body templates stored with a result, in display order of their sections. Body items
/// of kinds this reader does not know are skipped and counted in `unknown`.
pub fn templates_of(entry: &Entry<'_>, unknown: &mut Unknown) -> Result<BodyTemplates, String> {
    let mut sections = Vec::new();
    for field in FieldIter::new(entry.bytes) {
        let field = field.map_err(|e| format!("at {}: {}", entry.offset + e.offset, e.message))?;
        let (SECTIONS, WireValue::Bytes(bytes)) = (field.number, field.value) else {
            continue;
        };
        let at = entry.offset + field.offset;
        super::unknown::scan(bytes, &super::unknown::SECTION, unknown);
        let msg = SectionBodiesMsg::decode(bytes)
            .map_err(|e| format!("section template at {at}: {e}"))?;
        sections.push(section(msg, unknown).map_err(|e| format!("section template at {at}: {e}"))?);
    }
    sections.sort_by(|a, b| a.order.cmp(&b.order).then_with(|| a.name.cmp(&b.name)));
    Ok(BodyTemplates { sections })
}

fn section(msg: SectionBodiesMsg, unknown: &mut Unknown) -> Result<SectionTemplateBodies, String> {
    let mut bodies = Vec::with_capacity(msg.body.len());
    for b in msg.body {
        let mut items = Vec::new();
        for item in &b.items {
            push_items(item, 0, &mut items, unknown)?;
        }
        bodies.push(BodyTemplate {
            name: b.display_name.unwrap_or_default(),
            default: b.set_default.unwrap_or(false),
            items,
        });
    }
    Ok(SectionTemplateBodies {
        identifier: msg.identifier,
        name: msg.display_name.unwrap_or_default(),
        order: msg.order.unwrap_or(u32::MAX),
        extends: msg.extends.filter(|e| !e.is_empty()),
        applies: applies(msg.filter.as_ref()),
        bodies,
    })
}

/// The model form of a timeline row.
fn timeline_row(r: &TimelineRowMsg) -> TimelineRow {
    TimelineRow {
        label: r.label.clone().unwrap_or_default(),
        kind: TimelineRowKind::from_stored(r.kind.unwrap_or(0)),
        metrics: refs(&r.metrics),
    }
}

/// The model form of a filter.
pub fn applies(filter: Option<&MetricOptionFilter>) -> Applies {
    let Some(f) = filter else {
        return Applies::default();
    };
    let scopes = f
        .collection
        .as_ref()
        .map(|c| c.scopes.clone())
        .unwrap_or_default();
    if f.items.is_empty() {
        let arch = (f.min_arch.is_some() || f.max_arch.is_some())
            .then_some((f.min_arch, f.max_arch))
            .into_iter()
            .collect();
        let driver = (f.min_driver.is_some() || f.max_driver.is_some())
            .then_some((f.min_driver, f.max_driver))
            .into_iter()
            .collect();
        return Applies {
            arch,
            driver,
            scopes,
        };
    }
    Applies {
        arch: f.items.iter().map(|i| (i.min_arch, i.max_arch)).collect(),
        driver: f
            .items
            .iter()
            .map(|i| (i.min_driver, i.max_driver))
            .collect(),
        scopes,
    }
}

/// The model form of a metric a template names.
fn metric_ref(m: &SectionMetric) -> MetricRef {
    MetricRef {
        name: m.name.clone().unwrap_or_default(),
        label: m.label.clone().unwrap_or_default(),
        applies: applies(m.filter.as_ref()),
        options: m
            .options
            .iter()
            .map(|o| MetricRef {
                name: o.name.clone().unwrap_or_default(),
                label: o.label.clone().unwrap_or_default(),
                applies: applies(o.filter.as_ref()),
                options: Vec::new(),
                show_instances: m.show_instances.unwrap_or(false),
            })
            .collect(),
        show_instances: m.show_instances.unwrap_or(false),
    }
}

fn refs(ms: &[SectionMetric]) -> Vec<MetricRef> {
    ms.iter().map(metric_ref).collect()
}

fn axis(a: Option<&ValueAxisMsg>) -> Option<ValueAxis> {
    a.map(|a| ValueAxis {
        label: a.label.clone().unwrap_or_default(),
        min: a.range.as_ref().and_then(|r| r.min).map(|v| v as f64),
        max: a.range.as_ref().and_then(|r| r.max).map(|v| v as f64),
    })
}

fn blank(kind: ItemKind, label: Option<&String>, applies: Applies) -> ItemTemplate {
    ItemTemplate {
        kind,
        label: label.cloned().unwrap_or_default(),
        description: None,
        applies,
        metrics: Vec::new(),
        highlight: Vec::new(),
        suffixes: Vec::new(),
        rooflines: Vec::new(),
        achieved: Vec::new(),
        timeline: Vec::new(),
        horizontal: false,
        value_axis: None,
        category_axis: String::new(),
        sort_descending: false,
    }
}

fn roofline_value(v: Option<&RooflineValueMsg>) -> Option<RooflineValue> {
    let v = v?;
    if let Some(m) = &v.metric {
        return Some(RooflineValue::Metric(metric_ref(m)));
    }
    if let Some(p) = &v.per_second {
        return Some(RooflineValue::PerSecond {
            per_cycle: refs(&p.per_cycle),
            rate: p.rate.as_ref().map(metric_ref),
        });
    }
    v.constant.map(RooflineValue::Constant)
}

fn roofline_parts(parts: &[RooflinePartMsg]) -> Vec<RooflinePart> {
    parts
        .iter()
        .map(|p| RooflinePart {
            label: p
                .options
                .as_ref()
                .and_then(|o| o.label.clone())
                .unwrap_or_default(),
            work: roofline_value(p.work.as_ref()),
            traffic: roofline_value(p.traffic.as_ref()),
        })
        .collect()
}

/// Appends the items of one encoded body item: itself, or a container's items in order. An
/// item of a kind this reader does not know is skipped and counted.
fn push_items(
    bytes: &[u8],
    depth: usize,
    out: &mut Vec<ItemTemplate>,
    unknown: &mut Unknown,
) -> Result<(), String> {
    unknown.add(
        "ProfilerSectionBodyItem",
        &unknown_numbers(bytes, is_body_item_field),
    );
    let item = BodyItemMsg::decode(bytes).map_err(|e| format!("body item: {e}"))?;
    let applies = applies(item.filter.as_ref());
    if let Some(c) = &item.horizontal_container {
        if depth < MAX_DEPTH {
            for inner in &c.items {
                let before = out.len();
                push_items(inner, depth + 1, out, unknown)?;
                // A container's filter gates all of its items.
                if !applies.is_any() {
                    for t in &mut out[before..] {
                        if t.applies.is_any() {
                            t.applies = applies.clone();
                        }
                    }
                }
            }
        }
        return Ok(());
    }
    let t = if let Some(t) = &item.table {
        ItemTemplate {
            description: t.description.clone(),
            metrics: refs(&t.metrics),
            sort_descending: t.sort_key.is_some() && t.sort_direction == Some(1),
            ..blank(ItemKind::Table, t.label.as_ref(), applies)
        }
    } else if let Some(b) = &item.bar_chart {
        ItemTemplate {
            description: b.description.clone(),
            metrics: refs(&b.metrics),
            horizontal: b.direction.unwrap_or(0) == 0,
            value_axis: axis(b.value_axis.as_ref()),
            category_axis: b
                .category_axis
                .as_ref()
                .and_then(|a| a.label.clone())
                .unwrap_or_default(),
            sort_descending: b.sort_key.is_some() && b.sort_direction == Some(1),
            ..blank(ItemKind::BarChart, b.label.as_ref(), applies)
        }
    } else if let Some(h) = &item.histogram_chart {
        ItemTemplate {
            description: h.description.clone(),
            metrics: h.metric.iter().map(metric_ref).collect(),
            value_axis: axis(h.value_axis.as_ref()),
            category_axis: h
                .axis
                .as_ref()
                .and_then(|a| a.label.clone())
                .unwrap_or_default(),
            ..blank(ItemKind::HistogramChart, h.label.as_ref(), applies)
        }
    } else if let Some(l) = &item.line_chart {
        ItemTemplate {
            description: l.description.clone(),
            metrics: refs(&l.metrics),
            highlight: l
                .highlight_x
                .as_ref()
                .map(|h| refs(&h.metrics))
                .unwrap_or_default(),
            value_axis: axis(l.axis_y.as_ref()),
            category_axis: l
                .axis_x
                .as_ref()
                .and_then(|a| a.label.clone())
                .unwrap_or_default(),
            ..blank(ItemKind::LineChart, l.label.as_ref(), applies)
        }
    } else if let Some(r) = &item.roofline_chart {
        ItemTemplate {
            description: r.description.clone(),
            rooflines: roofline_parts(&r.rooflines),
            achieved: roofline_parts(&r.achieved_values),
            ..blank(ItemKind::RooflineChart, r.label.as_ref(), applies)
        }
    } else if let Some(s) = &item.source_metric_table {
        ItemTemplate {
            description: s.description.clone(),
            metrics: refs(&s.metrics),
            ..blank(ItemKind::SourceMetricTable, s.label.as_ref(), applies)
        }
    } else if let Some(s) = &item.suffix_table {
        ItemTemplate {
            description: s.description.clone(),
            metrics: s
                .base_names
                .as_ref()
                .map(|b| refs(&b.metrics))
                .unwrap_or_default(),
            suffixes: s
                .suffixes
                .as_ref()
                .map(|x| {
                    x.suffixes
                        .iter()
                        .map(|s| {
                            (
                                s.name.clone().unwrap_or_default(),
                                s.label.clone().unwrap_or_default(),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default(),
            ..blank(ItemKind::SuffixTable, s.label.as_ref(), applies)
        }
    } else if let Some(t) = &item.timeline {
        ItemTemplate {
            metrics: refs(&t.metrics),
            timeline: t
                .groups
                .iter()
                .map(|g| TimelineGroup {
                    label: g.label.clone().unwrap_or_default(),
                    group_row: g.group_row.as_ref().map(timeline_row),
                    rows: g.rows.iter().map(timeline_row).collect(),
                })
                .collect(),
            ..blank(ItemKind::Timeline, t.label.as_ref(), applies)
        }
    } else if let Some(t) = &item.metric_instances_table {
        ItemTemplate {
            description: t.description.clone(),
            metrics: refs(&t.metrics),
            category_axis: t.instances_label.clone().unwrap_or_default(),
            value_axis: t.values_label.clone().map(|label| ValueAxis {
                label,
                min: None,
                max: None,
            }),
            ..blank(ItemKind::MetricInstancesTable, t.label.as_ref(), applies)
        }
    } else if let Some(g) = &item.gfx_widget {
        ItemTemplate {
            metrics: refs(&g.metrics),
            ..blank(ItemKind::Other(150), g.label.as_ref(), applies)
        }
    } else {
        let widgets = [
            (&item.shared_table, ItemKind::SharedMemoryTable),
            (&item.l1_table_old, ItemKind::L1Table),
            (&item.l2_table_old, ItemKind::L2Table),
            (&item.device_memory_table, ItemKind::DeviceMemoryTable),
            (&item.memory_chart, ItemKind::MemoryChart),
            (&item.l1tex_table, ItemKind::L1TexTable),
            (&item.l2_table, ItemKind::L2CacheTable),
            (&item.nvlink_topology, ItemKind::NvlinkTopology),
            (&item.nvlink_properties, ItemKind::NvlinkPropertyTable),
            (&item.nvlink_throughput, ItemKind::NvlinkThroughputTable),
            (&item.l2_evict_policy_table, ItemKind::L2EvictPolicyTable),
            (&item.numa_table, ItemKind::NumaTable),
        ];
        let Some((w, kind)) = widgets
            .into_iter()
            .find_map(|(w, k)| w.as_ref().map(|w| (w, k)))
        else {
            // No kind this reader knows: counted above as an unknown field.
            return Ok(());
        };
        // The viewer builds memory widgets from a metric group the report stores.
        let metrics = kind
            .memory_group()
            .map(|g| {
                vec![MetricRef {
                    name: g.to_string(),
                    ..MetricRef::default()
                }]
            })
            .unwrap_or_default();
        ItemTemplate {
            metrics,
            ..blank(kind, w.label.as_ref(), applies)
        }
    };
    out.push(t);
    Ok(())
}
