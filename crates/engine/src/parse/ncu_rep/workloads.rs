//! Where the parts of a result message live for each kind of result. A `ProfileResult` is one
//! kernel launch; `RangeResult` (range and application-range replay), `CmdlistResult` and
//! `GraphResult` (whole-graph profiling) carry the same parts (metrics, section templates, rule
//! results, NVTX state, context, clock status) under other field numbers and have no kernel
//! names or launch shape of their own.

use super::messages::{ClockStatus, ResultHead};
use crate::model::ResultKind;
use prost::Message;

/// The field numbers of the repeated or nested parts the result decoder visits itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub metrics: u32,
    pub sections: u32,
    pub rules: u32,
    pub nvtx: u32,
    /// PC samples of PM sampling, per metric (ncu 2026.3).
    pub pc_sampling: u32,
    /// The link to the result's CUDA graph (kernels and whole graphs; ncu 2026.3).
    pub graph_link: Option<u32>,
    /// Device-side NVTX (kernels; ncu 2026.3).
    pub device_nvtx: Option<u32>,
    /// The section set's identifier (ncu 2026.3).
    pub section_set: u32,
}

/// The layout of a result kind's message.
impl Layout {
    /// Whether field `number` is one of the parts (metrics, sections, rules, NVTX, samples,
    /// links, the section set), none of which the kind's head declares: its head decodes the
    /// same with or without them.
    pub fn is_part(&self, number: u32) -> bool {
        number == self.metrics
            || number == self.sections
            || number == self.rules
            || number == self.nvtx
            || number == self.pc_sampling
            || number == self.section_set
            || Some(number) == self.graph_link
            || Some(number) == self.device_nvtx
    }
}

pub fn layout(kind: ResultKind) -> Layout {
    match kind {
        ResultKind::Kernel => Layout {
            metrics: 13,
            sections: 17,
            rules: 19,
            nvtx: 21,
            pc_sampling: 36,
            graph_link: Some(37),
            device_nvtx: Some(38),
            section_set: 39,
        },
        ResultKind::Range => Layout {
            metrics: 4,
            sections: 7,
            rules: 20,
            nvtx: 10,
            pc_sampling: 22,
            graph_link: None,
            device_nvtx: None,
            section_set: 23,
        },
        // Command lists: the parts shared with ranges and graphs; the rule results sit between
        // the range's (20) and the graph's (22).
        ResultKind::CommandList => Layout {
            metrics: 4,
            sections: 7,
            rules: 21,
            nvtx: 10,
            pc_sampling: 26,
            graph_link: None,
            device_nvtx: None,
            section_set: 27,
        },
        ResultKind::Graph => Layout {
            metrics: 4,
            sections: 7,
            rules: 22,
            nvtx: 10,
            pc_sampling: 24,
            graph_link: Some(25),
            device_nvtx: None,
            section_set: 26,
        },
    }
}

/// The collection scope a kind's section filters test (1 launch, 2 range, 3 command list). A
/// whole graph shows the rows of ranges (checked against ncu's details page).
pub fn collection_scope(kind: ResultKind) -> i32 {
    match kind {
        ResultKind::Kernel => 1,
        ResultKind::Range | ResultKind::Graph => 2,
        ResultKind::CommandList => 3,
    }
}

/// The small fields of a `RangeResult`.
#[derive(Clone, PartialEq, prost::Message)]
struct RangeHead {
    #[prost(uint32, optional, tag = "1")]
    thread_id: Option<u32>,
    #[prost(uint64, optional, tag = "2")]
    api_call_id: Option<u64>,
    #[prost(uint64, optional, tag = "5")]
    creation_time: Option<u64>,
    #[prost(uint32, optional, tag = "11")]
    context_id: Option<u32>,
    #[prost(message, optional, tag = "12")]
    clock_status: Option<ClockStatus>,
    #[prost(float, optional, tag = "21")]
    kmd_version: Option<f32>,
}

/// The small fields of a `GraphResult` (and, as far as they are shared, a `CmdlistResult`).
#[derive(Clone, PartialEq, prost::Message)]
struct GraphHead {
    #[prost(uint32, optional, tag = "1")]
    thread_id: Option<u32>,
    #[prost(uint64, optional, tag = "2")]
    api_call_id: Option<u64>,
    #[prost(uint64, optional, tag = "5")]
    creation_time: Option<u64>,
    #[prost(uint32, optional, tag = "11")]
    context_id: Option<u32>,
    #[prost(uint32, optional, tag = "12")]
    stream_id: Option<u32>,
    #[prost(message, optional, tag = "13")]
    clock_status: Option<ClockStatus>,
    #[prost(float, optional, tag = "23")]
    kmd_version: Option<f32>,
}

/// The name NVIDIA's report module gives results of a kind that has no kernel names.
pub fn workload_name(kind: ResultKind) -> &'static str {
    kind.name()
}

/// Decodes the small fields of a result message of any kind into the kernel's shape. Results
/// other than kernels are named after their kind (`range`, `graph`, `cmdlist`), as ncu names
/// them, and have no grid or block here.
pub fn decode_head(kind: ResultKind, bytes: &[u8]) -> Result<ResultHead, prost::DecodeError> {
    let named = |head: ResultHead| {
        let name = Some(workload_name(kind).to_string());
        ResultHead {
            kernel_mangled_name: name.clone(),
            kernel_function_name: name.clone(),
            kernel_demangled_name: name,
            collection_scope: Some(collection_scope(kind)),
            ..head
        }
    };
    match kind {
        ResultKind::Kernel => ResultHead::decode(bytes),
        ResultKind::Range => {
            let h = RangeHead::decode(bytes)?;
            Ok(named(ResultHead {
                thread_id: h.thread_id,
                api_call_id: h.api_call_id,
                creation_time: h.creation_time,
                context_id: h.context_id,
                clock_status: h.clock_status,
                kmd_version: h.kmd_version,
                ..ResultHead::default()
            }))
        }
        ResultKind::Graph => {
            let h = GraphHead::decode(bytes)?;
            Ok(named(ResultHead {
                thread_id: h.thread_id,
                api_call_id: h.api_call_id,
                creation_time: h.creation_time,
                context_id: h.context_id,
                stream_id: h.stream_id,
                clock_status: h.clock_status,
                kmd_version: h.kmd_version,
                ..ResultHead::default()
            }))
        }
        // Only the fields every kind shares are read: their numbers are the same in ranges and
        // graphs.
        ResultKind::CommandList => {
            let h = GraphHead::decode(bytes)?;
            Ok(named(ResultHead {
                thread_id: h.thread_id,
                api_call_id: h.api_call_id,
                creation_time: h.creation_time,
                context_id: h.context_id,
                ..ResultHead::default()
            }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{decode_head, layout};
    use crate::model::ResultKind;
    use prost::encoding::{WireType, encode_key};

    /// A key of field `number` with wire type `wire`.
    fn key(number: u32, wire: WireType) -> Vec<u8> {
        let mut out = Vec::new();
        encode_key(number, wire, &mut out);
        out
    }

    #[test]
    fn no_kinds_head_declares_one_of_its_parts() {
        for kind in [
            ResultKind::Kernel,
            ResultKind::Range,
            ResultKind::Graph,
            ResultKind::CommandList,
        ] {
            let parts = layout(kind);
            let numbers = (1..64).filter(|&n| parts.is_part(n)).collect::<Vec<_>>();
            assert!(numbers.len() >= 6, "{kind:?}: {numbers:?}");
            let empty = decode_head(kind, &[]).unwrap();
            for n in numbers {
                // The part as bytes and as a number: a head that declared it would keep it
                // or refuse the other wire type.
                let mut bytes = key(n, WireType::LengthDelimited);
                bytes.extend([3, 0x08, 0x01, 0x00]);
                bytes.extend(key(n, WireType::Varint));
                bytes.push(7);
                assert_eq!(
                    decode_head(kind, &bytes).unwrap(),
                    empty,
                    "{kind:?} field {n}"
                );
            }
        }
    }
}
