//! Decoding a result without its body, for opening a report: the identity and launch shape,
//! the few metrics the results table shows ([`crate::model::HEAD_METRICS`]) and the rule with
//! the highest estimated speedup. Every other metric is passed over by its name (no values, no
//! instances), section templates are read without their header tables, so opening costs a
//! fraction of a full decode; the body is decoded from the file when a view asks for it.

use super::container::{Entry, corrupt};
use super::messages::MetricOptionFilter;
use super::result::{
    Context, Decoded, HEAD_KEYS, ResultParts, decode_metric, graph_link_of, head_key, identity,
    nvtx_of, scan_result, section_set_of,
};
use super::rules;
use super::sections::{Applicability, section_shown};
use crate::model::{BodyHead, HEAD_METRICS, Metric, ResultBody, Section};
use crate::parse::ParseError;
use prost::Message;

/// `ProfilerSection` with only what places a rule: identifier, name, order and filter (prost
/// skips the header table and the body).
#[derive(Clone, PartialEq, prost::Message)]
struct SectionPlace {
    #[prost(string, optional, tag = "1")]
    identifier: Option<String>,
    #[prost(string, optional, tag = "2")]
    display_name: Option<String>,
    #[prost(uint32, optional, tag = "3")]
    order: Option<u32>,
    #[prost(message, optional, tag = "11")]
    filter: Option<MetricOptionFilter>,
}

/// Decodes the result stored at `entry` without its body; `id` is its position in the file.
/// The result's body is empty and [`Decoded::head`] holds the figures kept in its place, equal
/// to those of [`super::result::decode_result`] (tested on every fixture).
pub fn decode_result_head(
    ctx: &Context,
    entry: &Entry<'_>,
    id: u64,
) -> Result<Decoded, ParseError> {
    let at = |rel: usize, what: &str| corrupt(entry.offset + rel, format!("result {id}: {what}"));
    // The last entry of each head metric (as the full decode keeps the last of duplicates).
    let mut found: [Option<(usize, &[u8])>; HEAD_KEYS] = [None; HEAD_KEYS];
    let (head, parts) = scan_result(ctx, entry, id, |name_id, offset, bytes| {
        if let Some(slot) = ctx.head_slot(name_id)
            && let Some(place) = found.get_mut(slot)
        {
            *place = Some((offset, bytes));
        }
    })?;
    let ResultParts {
        templates,
        rule_msgs,
        nvtx,
        graph_link,
        section_set,
        unknown,
        left_out,
        ..
    } = parts;
    let mut metrics: Vec<Option<Metric>> = Vec::with_capacity(HEAD_KEYS);
    for place in found {
        metrics.push(match place {
            Some((offset, bytes)) => {
                Some(decode_metric(ctx, bytes).map_err(|(rel, what)| at(offset + rel, &what))?)
            }
            None => None,
        });
    }
    let number = |key: &str| {
        (0..HEAD_KEYS)
            .position(|k| head_key(k) == key)
            .and_then(|k| metrics.get(k))
            .and_then(Option::as_ref)
            .and_then(Metric::as_f64)
    };
    let (mut result, app) = identity(ctx, entry, id, &head, &number);
    let top_rule = top_rule(&templates, &rule_msgs, &app).map_err(|(rel, what)| at(rel, &what))?;
    result.nvtx = nvtx_of(nvtx, head.thread_id).map_err(|(offset, what)| at(offset, &what))?;
    result.graph = graph_link_of(graph_link).map_err(|(offset, what)| at(offset, &what))?;
    result.section_set = section_set_of(section_set).map_err(|(offset, what)| at(offset, &what))?;
    metrics.truncate(HEAD_METRICS.len());
    Ok(Decoded {
        result,
        clock_status: head.clock_status,
        driver_version: head.kmd_version,
        head: Some(BodyHead { metrics, top_rule }),
        unknown,
        left_out,
        unknown_in_body: super::unknown::Unknown::default(),
    })
}

/// The top rule of a result ([`ResultBody::top_rule`]): rules placed in the sections that show
/// for the result, in display order, as the full decode places them, then the rules of no
/// section; ties go the same way.
fn top_rule(
    templates: &[(usize, &[u8])],
    rule_msgs: &[(usize, &[u8])],
    app: &Applicability,
) -> Result<Option<crate::model::RuleResult>, (usize, String)> {
    if rule_msgs.is_empty() {
        return Ok(None);
    }
    let mut sections: Vec<(u32, Section)> = Vec::with_capacity(templates.len());
    for &(offset, bytes) in templates {
        let t =
            SectionPlace::decode(bytes).map_err(|e| (offset, format!("section template: {e}")))?;
        if !section_shown(t.filter.as_ref(), app) {
            continue;
        }
        sections.push((
            t.order.unwrap_or(u32::MAX),
            Section {
                identifier: t.identifier,
                name: t.display_name.unwrap_or_default(),
                rows: Vec::new(),
                rules: Vec::new(),
            },
        ));
    }
    sections.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.name.cmp(&b.1.name)));
    let mut body = ResultBody {
        sections: sections.into_iter().map(|(_, s)| s).collect(),
        ..ResultBody::default()
    };
    for &(offset, bytes) in rule_msgs {
        let decoded =
            rules::decode_rule(bytes).map_err(|e| (offset, format!("rule result: {e}")))?;
        for (section_id, rule) in decoded {
            match body
                .sections
                .iter_mut()
                .find(|s| section_id.is_some() && s.identifier == section_id)
            {
                Some(s) => s.rules.push(rule),
                None => body.rules.push(rule),
            }
        }
    }
    Ok(body.top_rule().cloned())
}
