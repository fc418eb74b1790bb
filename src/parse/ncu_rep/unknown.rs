//! Fields a report holds that this reader does not know. protobuf lets a newer writer add
//! fields that an older reader skips by their length; the reader walks the top level of the
//! messages it visits anyway (block headers, session pieces, results, graphs, section body
//! items) and counts the field numbers outside the schema it was written for (ncu 2026.3), so
//! the report's notes name what was skipped.

use super::wire::FieldIter;
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
        let mut out: Vec<String> = self
            .seen
            .iter()
            .map(|(&(message, number), &count)| {
                format!(
                    "{message} field {number} is not known to this reader (a newer report \
                     form): skipped in {count} {}",
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
