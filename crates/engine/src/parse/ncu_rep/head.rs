//! Decoding a result without its body, for opening a report: the identity and launch shape,
//! the few metrics the results table shows ([`crate::model::HEAD_METRICS`]) and the rule with
//! the highest estimated speedup. Every other metric is passed over by its name (no values, no
//! instances), section templates are read without their header tables, so opening costs a
//! fraction of a full decode; the body is decoded from the file when a view asks for it.

use super::container::{Entry, corrupt};
use super::messages::{MetricOptionFilter, RuleResultMsg};
use super::result::{
    Context, Decoded, HEAD_KEYS, ResultParts, decode_metric, graph_link_of, head_key, identity,
    nvtx_of, scan_result, section_set_of,
};
use super::rules;
use super::sections::{Applicability, section_shown};
use crate::model::{BodyHead, HEAD_METRICS, Metric, RuleResult, SpeedupKind};
use crate::parse::ParseError;
use prost::Message;
use std::cmp::Ordering;

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

/// The top rule of a result ([`crate::model::ResultBody::top_rule`]): rules placed in the sections that show
/// for the result, in display order, as the full decode places them, then the rules of no
/// section; ties go the same way. Every rule result is decoded (a damaged one is the error it
/// is in the full decode), and only the top one is made a [`RuleResult`].
fn top_rule(
    templates: &[(usize, &[u8])],
    rule_msgs: &[(usize, &[u8])],
    app: &Applicability,
) -> Result<Option<RuleResult>, (usize, String)> {
    if rule_msgs.is_empty() {
        return Ok(None);
    }
    // (order, name, identifier) of each section that shows.
    let mut sections: Vec<(u32, String, Option<String>)> = Vec::with_capacity(templates.len());
    for &(offset, bytes) in templates {
        let t =
            SectionPlace::decode(bytes).map_err(|e| (offset, format!("section template: {e}")))?;
        if !section_shown(t.filter.as_ref(), app) {
            continue;
        }
        let order = t.order.unwrap_or(u32::MAX);
        sections.push((order, t.display_name.unwrap_or_default(), t.identifier));
    }
    sections.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    let mut msgs = Vec::with_capacity(rule_msgs.len());
    for &(offset, bytes) in rule_msgs {
        msgs.push(RuleResultMsg::decode(bytes).map_err(|e| (offset, format!("rule result: {e}")))?);
    }
    // A rule goes to the first section of its identifier, or after every section; the
    // rules are then read in that order, each rule's items in turn
    // (`ResultBody::all_rules`).
    let place = |msg: &RuleResultMsg| {
        msg.section_identifier
            .as_ref()
            .and_then(|id| sections.iter().position(|s| s.2.as_ref() == Some(id)))
            .unwrap_or(sections.len())
    };
    let mut order: Vec<(usize, usize)> = msgs.iter().map(place).zip(0..).collect();
    order.sort_unstable();
    // The last of the largest, as `Iterator::max_by` keeps: a global estimate over a local
    // one, then the larger.
    let mut top: Option<((bool, f64), usize, usize)> = None;
    for (_, m) in order {
        let items = msgs[m].body.as_ref().map_or(&[][..], |b| &b.items[..]);
        for (k, item) in items.iter().enumerate() {
            if !rules::is_shown(item) {
                continue;
            }
            let Some((kind, pct)) = rules::speedup_of(item) else {
                continue;
            };
            let key = (kind == SpeedupKind::Global, pct);
            if top.is_none_or(|(best, ..)| best.partial_cmp(&key) != Some(Ordering::Greater)) {
                top = Some((key, m, k));
            }
        }
    }
    let Some((_, m, k)) = top else {
        return Ok(None);
    };
    let msg = &mut msgs[m];
    // The rule's markers go with its first message.
    let first = msg
        .body
        .as_ref()
        .and_then(|b| b.items.iter().position(rules::is_shown));
    let mut markers = if first == Some(k) {
        rules::markers_of(msg)
    } else {
        Vec::new()
    };
    let item = msg
        .body
        .as_mut()
        .and_then(|b| b.items.get_mut(k))
        .map(std::mem::take);
    Ok(item.and_then(|item| rules::rule_result(&msg.identifier, item, &mut markers)))
}

#[cfg(test)]
mod tests {
    use super::super::messages::{RuleBody, RuleBodyItem, RuleMessage, SourceMarkerMsg, Speedup};
    use super::*;
    use crate::model::{ResultBody, Section};

    /// The top rule as the full decode finds it: every rule result made and placed in the
    /// sections that show, then [`ResultBody::top_rule`].
    fn full_top(templates: &[(usize, &[u8])], rule_msgs: &[(usize, &[u8])]) -> Option<RuleResult> {
        let mut sections: Vec<(u32, Section)> = templates
            .iter()
            .map(|&(_, bytes)| {
                let t = SectionPlace::decode(bytes).unwrap();
                let section = Section {
                    identifier: t.identifier,
                    name: t.display_name.unwrap_or_default(),
                    rows: Vec::new(),
                    rules: Vec::new(),
                };
                (t.order.unwrap_or(u32::MAX), section)
            })
            .collect();
        sections.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.name.cmp(&b.1.name)));
        let mut body = ResultBody {
            sections: sections.into_iter().map(|(_, s)| s).collect(),
            ..ResultBody::default()
        };
        for &(_, bytes) in rule_msgs {
            for (section_id, rule) in rules::decode_rule(bytes).unwrap() {
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
        body.top_rule().cloned()
    }

    /// A small generator of numbers, the same on every run.
    struct Numbers(u64);

    impl Numbers {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    const IDS: [Option<&str>; 4] = [Some("A"), Some("B"), Some("C"), None];

    fn template(n: &mut Numbers) -> Vec<u8> {
        SectionPlace {
            identifier: IDS[n.below(4) as usize].map(str::to_string),
            display_name: Some(["x", "y"][n.below(2) as usize].to_string()),
            order: [None, Some(1), Some(2)][n.below(3) as usize],
            filter: None,
        }
        .encode_to_vec()
    }

    fn rule(n: &mut Numbers, index: usize) -> Vec<u8> {
        let speedups = [
            None,
            Some((1, 5.0)),
            Some((2, 5.0)),
            Some((2, 7.5)),
            Some((2, f64::NAN)),
        ];
        let items = (0..n.below(4))
            .map(|i| RuleBodyItem {
                message: Some(RuleMessage {
                    message: Some(["", "text"][n.below(2) as usize].to_string()),
                    kind: Some([0, 2][n.below(2) as usize]),
                    name: Some(format!("rule {index} item {i}")),
                    ..RuleMessage::default()
                }),
                speedup: speedups[n.below(5) as usize].map(|(t, v)| Speedup {
                    speedup_type: Some(t),
                    value: Some(v),
                }),
                ..RuleBodyItem::default()
            })
            .collect();
        RuleResultMsg {
            identifier: Some(format!("Rule{index}")),
            section_identifier: [Some("A"), Some("B"), Some("D"), None][n.below(4) as usize]
                .map(str::to_string),
            body: Some(RuleBody { items }),
            source_markers: (0..n.below(3))
                .map(|line| SourceMarkerMsg {
                    kind: Some(1),
                    line_number: Some(line as u32),
                    file_name: Some("k.cu".into()),
                    ..SourceMarkerMsg::default()
                })
                .collect(),
            ..RuleResultMsg::default()
        }
        .encode_to_vec()
    }

    #[test]
    fn the_top_rule_is_the_full_decodes_with_ties_sections_and_markers() {
        let app = Applicability {
            arch: Some(90),
            driver: None,
            scope: 1,
        };
        let mut n = Numbers(7);
        let mut with_rule = 0;
        for case in 0..2000 {
            let templates: Vec<Vec<u8>> = (0..n.below(4)).map(|_| template(&mut n)).collect();
            let rule_msgs: Vec<Vec<u8>> = (0..1 + n.below(5) as usize)
                .map(|i| rule(&mut n, i))
                .collect();
            let templates: Vec<(usize, &[u8])> =
                templates.iter().map(|t| (0, t.as_slice())).collect();
            let rule_msgs: Vec<(usize, &[u8])> =
                rule_msgs.iter().map(|r| (0, r.as_slice())).collect();
            let ours = top_rule(&templates, &rule_msgs, &app).unwrap();
            let full = full_top(&templates, &rule_msgs);
            with_rule += usize::from(full.is_some());
            // Debug text: a NaN speedup equals itself there.
            assert_eq!(format!("{ours:?}"), format!("{full:?}"), "case {case}");
        }
        assert!(with_rule > 1000, "{with_rule}");
    }
}
