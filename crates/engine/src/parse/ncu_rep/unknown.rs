//! Fields a report holds that this reader does not know. protobuf lets a newer writer add
//! fields that an older reader skips by their length; the reader walks the messages it visits
//! anyway (block headers, session pieces, results, graphs, section body items, and inside a
//! result its metrics, their values and instances, its rule results and the section templates
//! down to their metrics and filters) and counts the field numbers outside the schema it was
//! written for (ncu 2026.3), so the report's notes name what was skipped.

use super::wire::{FieldIter, WireValue};
use crate::model::ResultKind;
use std::collections::BTreeMap;

/// The highest field number of each message whose fields are numbered 1 to that number in
/// the ncu 2026.3 schema.
pub const BLOCK_HEADER: u32 = 10;
pub const SESSION_DETAILS: u32 = 12;
pub const GRAPH_NODE: u32 = 4;
pub const GRAPH_NODE_PARAMS: u32 = 21;
pub const GRAPH_EDGE: u32 = 5;

/// Whether `number` is a field of `GraphData` (1–8, and 100 for its version).
pub fn is_graph_field(number: u32) -> bool {
    (1..=8).contains(&number) || number == 100
}

/// Whether `number` is a field of `ProfilerSectionBodyItem`: the item kinds 1–9 and 101–113,
/// the graphics widget (150) and the filter (200).
pub fn is_body_item_field(number: u32) -> bool {
    (1..=9).contains(&number) || (101..=113).contains(&number) || number == 150 || number == 200
}

/// The highest field number of a result message of a kind.
pub fn result_fields(kind: ResultKind) -> u32 {
    match kind {
        ResultKind::Kernel => 39,
        ResultKind::Range => 23,
        ResultKind::CommandList => 27,
        ResultKind::Graph => 26,
    }
}

/// The message name of a result kind, as the schema names it.
pub fn result_message(kind: ResultKind) -> &'static str {
    match kind {
        ResultKind::Kernel => "ProfileResult",
        ResultKind::Range => "RangeResult",
        ResultKind::CommandList => "CmdlistResult",
        ResultKind::Graph => "GraphResult",
    }
}

/// The fields of a message kind in the ncu 2026.3 schema: numbered 1 to `max`, and the
/// nested messages the walk of [`scan`] goes into.
pub struct Shape {
    pub name: &'static str,
    pub max: u32,
    pub nested: &'static [(u32, &'static Shape)],
}

/// `ProfileMetricValue`.
pub static METRIC_VALUE: Shape = Shape {
    name: "ProfileMetricValue",
    max: 5,
    nested: &[],
};
/// `ProfileMetricListElement`: a metric's instance.
pub static METRIC_INSTANCE: Shape = Shape {
    name: "ProfileMetricListElement",
    max: 3,
    nested: &[(1, &METRIC_VALUE), (2, &METRIC_VALUE), (3, &METRIC_VALUE)],
};
/// `ProfileMetricResult`: one metric of a result.
pub static METRIC: Shape = Shape {
    name: "ProfileMetricResult",
    max: 4,
    nested: &[(2, &METRIC_VALUE), (3, &METRIC_INSTANCE)],
};
static OPTION_FILTER: Shape = Shape {
    name: "MetricOptionFilter",
    max: 8,
    nested: &[],
};
static SECTION_METRIC_OPTION: Shape = Shape {
    name: "ProfilerSectionMetricOption",
    max: 3,
    nested: &[(3, &OPTION_FILTER)],
};
static SECTION_METRIC: Shape = Shape {
    name: "ProfilerSectionMetric",
    max: 16,
    nested: &[(6, &OPTION_FILTER), (7, &SECTION_METRIC_OPTION)],
};
static SECTION_HEADER: Shape = Shape {
    name: "ProfilerSectionHeader",
    max: 2,
    nested: &[(2, &SECTION_METRIC)],
};
static SECTION_METRICS: Shape = Shape {
    name: "ProfilerSectionMetrics",
    max: 2,
    nested: &[(1, &SECTION_METRIC)],
};
/// The body list of a section; its items are walked by the body reader.
static SECTION_BODY: Shape = Shape {
    name: "ProfilerSectionBody",
    max: 3,
    nested: &[],
};
/// `ProfilerSection`: a section template.
pub static SECTION: Shape = Shape {
    name: "ProfilerSection",
    max: 13,
    nested: &[
        (4, &SECTION_HEADER),
        (5, &SECTION_BODY),
        (6, &SECTION_METRICS),
        (11, &OPTION_FILTER),
    ],
};
static RULE_MESSAGE: Shape = Shape {
    name: "RuleResultMessage",
    max: 4,
    nested: &[],
};
static RULE_FOCUS_METRIC: Shape = Shape {
    name: "RuleResultFocusMetric",
    max: 5,
    nested: &[],
};
static RULE_SPEEDUP: Shape = Shape {
    name: "RuleResultSpeedup",
    max: 2,
    nested: &[],
};
static RULE_BODY_ITEM: Shape = Shape {
    name: "RuleResultBodyItem",
    max: 12,
    nested: &[
        (1, &RULE_MESSAGE),
        (8, &RULE_FOCUS_METRIC),
        (10, &RULE_SPEEDUP),
    ],
};
static RULE_BODY: Shape = Shape {
    name: "RuleResultBody",
    max: 1,
    nested: &[(1, &RULE_BODY_ITEM)],
};
/// `RuleResult`: a rule's output in a result.
pub static RULE_RESULT: Shape = Shape {
    name: "RuleResult",
    max: 5,
    nested: &[(3, &RULE_BODY)],
};

/// Counts in `unknown` the fields of `bytes`, a message of `shape`, and of the messages nested
/// in it, that the schema does not name. Damage ends the walk quietly: the decoder that reads
/// the message reports it.
pub fn scan(bytes: &[u8], shape: &Shape, unknown: &mut Unknown) {
    let mut numbers: Vec<u32> = Vec::new();
    for field in FieldIter::new(bytes).map_while(Result::ok) {
        if field.number == 0 || field.number > shape.max {
            if !numbers.contains(&field.number) {
                numbers.push(field.number);
            }
            continue;
        }
        if let WireValue::Bytes(inner) = field.value
            && let Some((_, nested)) = shape.nested.iter().find(|(n, _)| *n == field.number)
        {
            scan(inner, nested, unknown);
        }
    }
    unknown.add(shape.name, &numbers);
}

/// The top-level field numbers of `bytes` that `known` rejects, each once, in order. A
/// malformed message yields what was read before the damage (the decoder reports damage).
pub fn unknown_numbers(bytes: &[u8], known: impl Fn(u32) -> bool) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for field in FieldIter::new(bytes).map_while(Result::ok) {
        if !known(field.number) && !out.contains(&field.number) {
            out.push(field.number);
        }
    }
    out
}

/// Unknown fields seen in a report: per (message, field number), how many messages held it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Unknown {
    seen: BTreeMap<(&'static str, u32), u64>,
    /// Payload bytes passed over after the entries a block header counts, and in how many
    /// blocks (a block with counts this reader does not know).
    skipped_payload: (u64, u64),
}

impl Unknown {
    /// Counts one message of type `message` holding these unknown fields.
    pub fn add(&mut self, message: &'static str, numbers: &[u32]) {
        for &n in numbers {
            *self.seen.entry((message, n)).or_default() += 1;
        }
    }

    /// Counts `bytes` of a block's payload passed over.
    pub fn skip_payload(&mut self, bytes: u64) {
        self.skipped_payload.0 += bytes;
        self.skipped_payload.1 += 1;
    }

    /// Adds another tally to this one.
    pub fn merge(&mut self, other: &Unknown) {
        for (&k, &n) in &other.seen {
            *self.seen.entry(k).or_default() += n;
        }
        self.skipped_payload.0 += other.skipped_payload.0;
        self.skipped_payload.1 += other.skipped_payload.1;
    }

    /// Whether nothing unknown was seen.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty() && self.skipped_payload.1 == 0
    }

    /// One note per unknown field (and one for skipped payload), for the report's notes.
    pub fn notes(&self) -> Vec<String> {
        self.notes_with("")
    }

    /// [`Unknown::notes`] of what was seen inside the bodies of `read` results out of `total`
    /// (bodies read on demand are read in full only when shown).
    pub fn notes_of_bodies(&self, read: usize, total: usize) -> Vec<String> {
        if read >= total {
            return self.notes();
        }
        self.notes_with(&format!(
            ", in the {read} of {total} results read in full so far"
        ))
    }

    fn notes_with(&self, tail: &str) -> Vec<String> {
        let mut out: Vec<String> = self
            .seen
            .iter()
            .map(|(&(message, number), &count)| {
                format!(
                    "{message} field {number} is not known to this reader (a newer report \
                     form): skipped in {count} {}{tail}",
                    if count == 1 { "message" } else { "messages" }
                )
            })
            .collect();
        let (bytes, blocks) = self.skipped_payload;
        if blocks > 0 {
            out.push(format!(
                "{bytes} bytes of block payload after the entries this reader knows were \
                 skipped ({blocks} {})",
                if blocks == 1 { "block" } else { "blocks" }
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_walks_into_nested_messages() {
        // ProfileMetricResult { 1: 3, 2: { 3: 1.0, 9: 1 }, 3: { 2: { 5: 7 }, 7: 1 }, 5: 1 }
        let value = [0x19, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0x48, 0x01];
        let mut instance = vec![0x12, 0x02, 0x28, 0x07];
        instance.extend([0x38, 0x01]);
        let mut msg = vec![0x08, 0x03, 0x12, value.len() as u8];
        msg.extend(value);
        msg.extend([0x1a, instance.len() as u8]);
        msg.extend(&instance);
        msg.extend([0x28, 0x01]);
        let mut u = Unknown::default();
        scan(&msg, &METRIC, &mut u);
        scan(&msg, &METRIC, &mut u);
        assert_eq!(
            u.notes_of_bodies(1, 2),
            [
                "ProfileMetricListElement field 7 is not known to this reader (a newer report \
                 form): skipped in 2 messages, in the 1 of 2 results read in full so far",
                "ProfileMetricResult field 5 is not known to this reader (a newer report \
                 form): skipped in 2 messages, in the 1 of 2 results read in full so far",
                "ProfileMetricValue field 9 is not known to this reader (a newer report \
                 form): skipped in 2 messages, in the 1 of 2 results read in full so far",
            ]
        );
    }

    #[test]
    fn names_each_unknown_field_once_per_message() {
        // Fields 1 (varint), 12 (varint) twice, 40 (bytes).
        let msg = [0x08, 0x01, 0x60, 0x01, 0x60, 0x02, 0xc2, 0x02, 0x01, 0x00];
        assert_eq!(unknown_numbers(&msg, |n| n <= 10), [12, 40]);
        let mut u = Unknown::default();
        u.add("BlockHeader", &[12, 40]);
        u.add("BlockHeader", &[12]);
        u.skip_payload(7);
        assert_eq!(
            u.notes(),
            [
                "BlockHeader field 12 is not known to this reader (a newer report form): \
                 skipped in 2 messages",
                "BlockHeader field 40 is not known to this reader (a newer report form): \
                 skipped in 1 message",
                "7 bytes of block payload after the entries this reader knows were skipped \
                 (1 block)",
            ]
        );
    }
}
