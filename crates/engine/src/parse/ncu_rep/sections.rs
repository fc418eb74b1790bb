//! Sections from the stored section templates: the header table of each section with the labels
//! and metrics ncu shows for this device (template filters and per-architecture metric options
//! applied), rows ordered by metric name as the ncu CLI prints them, sections by their `Order`.

use super::messages::{MetricOptionFilter, SectionMetric, SectionTemplate};
use super::units::unit_of;
use crate::model::{Metric, MetricRow, MetricStore, Section, Value};
use prost::Message;

/// What decides whether a template part applies to a result.
#[derive(Debug, Clone, Copy)]
pub struct Applicability {
    /// Architecture as the filters write it: `10 × major + minor` (90 for CC 9.0).
    pub arch: Option<i32>,
    /// Display driver version, when the result records it.
    pub driver: Option<f32>,
    /// Collection scope (1 kernel launch, 2 range, 3 command list).
    pub scope: i32,
}

/// A template that could not be decoded: its offset in the result, and why.
#[derive(Debug, Clone)]
pub struct SectionError {
    pub offset: usize,
    pub message: String,
}

fn within(value: Option<i32>, min: Option<i32>, max: Option<i32>) -> bool {
    match value {
        Some(v) => min.is_none_or(|m| v >= m) && max.is_none_or(|m| v <= m),
        None => true,
    }
}

fn within_driver(value: Option<f32>, min: Option<f32>, max: Option<f32>) -> bool {
    match value {
        Some(v) => min.is_none_or(|m| v >= m) && max.is_none_or(|m| v <= m),
        None => true,
    }
}

/// Whether a filter lets a template part apply.
pub fn passes(filter: Option<&MetricOptionFilter>, app: &Applicability) -> bool {
    passes_with(filter, app, true)
}

/// Whether a stored section shows for the result: its filter applies, collection scopes aside
/// (they only decide which of its rows show, see `in_scope`).
pub fn section_shown(filter: Option<&MetricOptionFilter>, app: &Applicability) -> bool {
    passes_with(filter, app, false)
}

/// The collection scopes a filter lists, if any.
fn scopes(filter: Option<&MetricOptionFilter>) -> Option<&[i32]> {
    filter
        .and_then(|f| f.collection.as_ref())
        .map(|c| c.scopes.as_slice())
        .filter(|s| !s.is_empty())
}

/// Whether a header entry shows for the result's collection scope: an entry that lists scopes
/// shows for those; one that lists none inherits its section's; a section that lists none
/// shows every entry. (The Occupancy section lists launches only: a range result shows just
/// the rows that add ranges, though it stores the other metrics too.)
fn in_scope(m: &SectionMetric, section: Option<&MetricOptionFilter>, app: &Applicability) -> bool {
    scopes(m.filter.as_ref())
        .or_else(|| scopes(section))
        .is_none_or(|s| s.contains(&app.scope))
}

/// [`passes`], checking the collection scope or not.
fn passes_with(filter: Option<&MetricOptionFilter>, app: &Applicability, scope: bool) -> bool {
    let Some(f) = filter else { return true };
    if scope
        && let Some(c) = &f.collection
        && !c.scopes.is_empty()
        && !c.scopes.contains(&app.scope)
    {
        return false;
    }
    if !f.items.is_empty() {
        return f.items.iter().any(|i| {
            within(app.arch, i.min_arch, i.max_arch)
                && within_driver(app.driver, i.min_driver, i.max_driver)
        });
    }
    within(app.arch, f.min_arch, f.max_arch)
        && within_driver(app.driver, f.min_driver, f.max_driver)
}

/// The (metric name, label) a header entry shows: the first option whose filter applies (the
/// variant of the metric for this architecture), else the entry itself when its own filter
/// applies. `None` for blank cells and entries that do not apply.
fn resolve<'t>(m: &'t SectionMetric, app: &Applicability) -> Option<(&'t str, &'t str)> {
    let label = m.label.as_deref().unwrap_or_default();
    let option = m
        .options
        .iter()
        .find(|o| o.filter.is_some() && passes(o.filter.as_ref(), app))
        .map(|o| {
            let l = o
                .label
                .as_deref()
                .filter(|l| !l.is_empty())
                .unwrap_or(label);
            (o.name.as_deref().unwrap_or_default(), l)
        });
    let chosen = option.or_else(|| {
        passes(m.filter.as_ref(), app).then(|| (m.name.as_deref().unwrap_or_default(), label))
    });
    chosen.filter(|(name, _)| !name.is_empty() && !name.contains(':'))
}

/// Builds the sections of a result from its encoded templates (each with its offset in the
/// result), in display order.
pub fn build_sections(
    templates: &[(usize, &[u8])],
    metrics: &MetricStore,
    app: &Applicability,
) -> Result<Vec<Section>, SectionError> {
    let mut out: Vec<(u32, Section)> = Vec::with_capacity(templates.len());
    for &(offset, bytes) in templates {
        let t = SectionTemplate::decode(bytes).map_err(|e| SectionError {
            offset,
            message: format!("section template: {e}"),
        })?;
        if !section_shown(t.filter.as_ref(), app) {
            continue;
        }
        let mut rows: Vec<(&str, MetricRow)> = Vec::new();
        for m in t.header.iter().flat_map(|h| h.metrics.iter()) {
            if !in_scope(m, t.filter.as_ref(), app) {
                continue;
            }
            let Some((name, label)) = resolve(m, app) else {
                continue;
            };
            let metric = metrics
                .get(name)
                .map(|m| m.to_metric())
                .unwrap_or_else(|| Metric::new(Some(name.into()), Value::Missing, unit_of(name)));
            // `--metrics` runs store a section of bare metric names: the name is the label.
            let label = if label.is_empty() { name } else { label };
            rows.push((
                name,
                MetricRow {
                    label: label.to_string(),
                    metric,
                },
            ));
        }
        // The CLI prints header rows sorted by metric name.
        rows.sort_by(|a, b| a.0.cmp(b.0));
        let name = t.display_name.clone().unwrap_or_default();
        out.push((
            t.order.unwrap_or(u32::MAX),
            Section {
                identifier: t.identifier.clone(),
                name,
                rows: rows.into_iter().map(|(_, r)| r).collect(),
                rules: Vec::new(),
            },
        ));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.name.cmp(&b.1.name)));
    Ok(out.into_iter().map(|(_, s)| s).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::ncu_rep::messages::FilterItem;

    fn app(arch: i32) -> Applicability {
        Applicability {
            arch: Some(arch),
            driver: Some(580.0),
            scope: 1,
        }
    }

    #[test]
    fn filters_by_architecture_ranges() {
        let f = MetricOptionFilter {
            items: vec![
                FilterItem {
                    min_arch: Some(75),
                    max_arch: Some(86),
                    ..FilterItem::default()
                },
                FilterItem {
                    min_arch: Some(89),
                    max_arch: Some(100),
                    ..FilterItem::default()
                },
            ],
            ..MetricOptionFilter::default()
        };
        assert!(passes(Some(&f), &app(90)));
        assert!(passes(Some(&f), &app(80)));
        assert!(!passes(Some(&f), &app(87)));
        let min100 = MetricOptionFilter {
            min_arch: Some(100),
            ..MetricOptionFilter::default()
        };
        assert!(!passes(Some(&min100), &app(90)));
        assert!(passes(None, &app(90)));
    }
}
