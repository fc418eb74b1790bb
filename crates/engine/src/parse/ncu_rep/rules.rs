//! Rule results (guided analysis): one [`RuleResult`] per message of a rule's body, with its
//! kind, title, text (link markup rendered the way the ncu CLI prints it), estimated speedup and
//! focus metrics, tagged with the identifier of the section it belongs to.

use super::messages::{RuleBodyItem, RuleResultMsg, SourceMarkerMsg};
use crate::model::section::SourceMarker;
use crate::model::{RuleKind, RuleResult, SpeedupKind};
use prost::Message;

/// The kind of a stored message type: 1 INF, 2 WRN, 3 ERR, 4 OPT. Unknown types read as INF.
pub fn kind_of(message_type: i32) -> RuleKind {
    match message_type {
        2 => RuleKind::Wrn,
        3 => RuleKind::Err,
        4 => RuleKind::Opt,
        _ => RuleKind::Inf,
    }
}

/// A stored source marker: a CUDA line (kind 1) or a SASS address.
fn marker(m: &SourceMarkerMsg) -> SourceMarker {
    let line = m.kind == Some(1);
    SourceMarker {
        file: m.file_name.clone().filter(|f| line && !f.is_empty()),
        line: m.line_number.filter(|_| line),
        address: m.address.filter(|_| !line),
        tooltip: render_markup(m.tooltip.as_deref().unwrap_or_default()),
        kind: kind_of(m.message_type.unwrap_or(0)),
    }
}

/// Decodes one stored rule result into (section identifier, rule) pairs, one per message.
pub fn decode_rule(bytes: &[u8]) -> Result<Vec<(Option<String>, RuleResult)>, prost::DecodeError> {
    let rule = RuleResultMsg::decode(bytes)?;
    let mut out = Vec::new();
    // The rule's markers go with its first message.
    let mut markers = markers_of(&rule);
    for item in rule.body.into_iter().flat_map(|b| b.items) {
        if let Some(result) = rule_result(&rule.identifier, item, &mut markers) {
            out.push((rule.section_identifier.clone(), result));
        }
    }
    Ok(out)
}

/// The source markers of a stored rule result (they go with its first message).
pub fn markers_of(rule: &RuleResultMsg) -> Vec<SourceMarker> {
    rule.source_markers.iter().map(marker).collect()
}

/// Whether an item of a rule's body is a message a reader sees (one with neither text nor
/// kind is not).
pub fn is_shown(item: &RuleBodyItem) -> bool {
    item.message.as_ref().is_some_and(|msg| {
        !(msg.message.as_deref().unwrap_or_default().is_empty() && msg.kind.unwrap_or(0) == 0)
    })
}

/// The estimated speedup of an item of a rule's body.
pub fn speedup_of(item: &RuleBodyItem) -> Option<(SpeedupKind, f64)> {
    item.speedup.as_ref().and_then(|s| {
        let kind = if s.speedup_type == Some(1) {
            SpeedupKind::Local
        } else {
            SpeedupKind::Global
        };
        s.value.map(|v| (kind, v))
    })
}

/// The rule result of one item of the body of rule `identifier`, taking `markers` (the
/// rule's, for its first message); `None` for an item that is not shown ([`is_shown`]).
pub fn rule_result(
    identifier: &Option<String>,
    item: RuleBodyItem,
    markers: &mut Vec<SourceMarker>,
) -> Option<RuleResult> {
    if !is_shown(&item) {
        return None;
    }
    let speedup = speedup_of(&item);
    let msg = item.message?;
    let text = msg.message.unwrap_or_default();
    let guidance = item
        .focus_metrics
        .iter()
        .filter_map(|f| {
            let info = f.info.as_deref().filter(|i| !i.is_empty())?;
            Some((f.metric_name.clone().unwrap_or_default(), info.to_string()))
        })
        .collect();
    Some(RuleResult {
        identifier: identifier.clone(),
        kind: kind_of(msg.kind.unwrap_or(0)),
        title: msg.name.unwrap_or_default(),
        message: render_markup(&text),
        speedup,
        focus_metrics: item
            .focus_metrics
            .into_iter()
            .map(|f| {
                (
                    f.metric_name.unwrap_or_default(),
                    f.metric_value.unwrap_or(f64::NAN),
                )
            })
            .collect(),
        guidance,
        markers: std::mem::take(markers),
    })
}

/// Renders link markup as the CLI prints it: `@section:<id>:<label>@` and
/// `@source:<file>:<line>:<label>@` become the label, `@url:<label>:<url>@` becomes
/// `label (url)`. Text without complete markup is kept as it is.
pub fn render_markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('@') {
        let after = &rest[start + 1..];
        let rendered = ["section:", "url:", "source:"].iter().find_map(|kind| {
            let body_and_more = after.strip_prefix(kind)?;
            let end = body_and_more.find('@')?;
            let body = &body_and_more[..end];
            let text = match *kind {
                "url:" => {
                    let (label, url) = body.split_once(':')?;
                    format!("{label} ({url})")
                }
                "section:" => body.split_once(':')?.1.to_string(),
                _ => body.splitn(3, ':').nth(2)?.to_string(),
            };
            Some((text, kind.len() + end + 1))
        });
        out.push_str(&rest[..start]);
        match rendered {
            Some((text, used)) => {
                out.push_str(&text);
                rest = &after[used..];
            }
            None => {
                out.push('@');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::render_markup;

    #[test]
    fn renders_links_like_the_cli() {
        assert_eq!(
            render_markup(
                "Look at the @section:MemoryWorkloadAnalysis:Memory Workload Analysis@ section"
            ),
            "Look at the Memory Workload Analysis section"
        );
        assert_eq!(
            render_markup("See the @url:CUDA Guide:https://docs.nvidia.com/x#occupancy@ for more."),
            "See the CUDA Guide (https://docs.nvidia.com/x#occupancy) for more."
        );
        assert_eq!(
            render_markup("@source:kernels.cu:10:kernels.cu, line 11@"),
            "kernels.cu, line 11"
        );
        assert_eq!(render_markup("mail a@b and 5 @ 3"), "mail a@b and 5 @ 3");
    }
}
