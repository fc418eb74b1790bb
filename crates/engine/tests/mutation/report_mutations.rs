//! Report (`.ncu-rep`) mutations: cut short, bytes changed, length fields and counts made
//! huge, blocks repeated, dropped and shuffled.

use crate::fixtures::seed_for;
use prost::Message;
use sightline_engine::parse::ncu_rep::messages::BlockHeader;
use sightline_engine::parse::ncu_rep::wire::{FieldIter, WireValue};
use sightline_testkit::XorShift;
use std::ops::Range;

/// One block of a sound report.
struct Block {
    /// From the length prefix of the header to the end of the payload.
    range: Range<usize>,
    header: BlockHeader,
    payload_start: usize,
}

fn u32_at(bytes: &[u8], at: usize) -> usize {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize
}

/// The blocks of a sound report, and where the first one starts.
fn blocks(bytes: &[u8]) -> (usize, Vec<Block>) {
    let first = 8 + u32_at(bytes, 4);
    let mut at = first;
    let mut out = Vec::new();
    while at < bytes.len() {
        let len = u32_at(bytes, at);
        let header = BlockHeader::decode(&bytes[at + 4..at + 4 + len]).unwrap();
        let payload_start = at + 4 + len;
        let end = payload_start + header.payload_size.unwrap_or(0) as usize;
        out.push(Block {
            range: at..end,
            header,
            payload_start,
        });
        at = end;
    }
    assert_eq!(at, bytes.len());
    (first, out)
}

/// The start of a big report: whole blocks, at least `size` bytes and one result.
pub(crate) fn report_prefix(bytes: &[u8], size: usize) -> &[u8] {
    let (_, all) = blocks(bytes);
    let mut seen_result = false;
    for b in &all {
        seen_result |= b.header.num_results.unwrap_or(0) > 0;
        if seen_result && b.range.end >= size {
            return &bytes[..b.range.end];
        }
    }
    bytes
}

#[derive(Debug, Clone)]
pub(crate) enum ReportMutation {
    /// The first `at` bytes.
    Truncate { at: usize },
    /// `count` bytes changed, half of them inside block headers and length prefixes.
    FlipBytes { seed: u64, count: usize },
    /// The file-header length prefix set to `value`.
    FileHeaderLength { value: u32 },
    /// A block's header length prefix set to `value`.
    BlockHeaderLength { block: usize, value: u32 },
    /// A block header re-encoded with `payload_size = value`.
    PayloadSize { block: usize, value: u32 },
    /// A block header re-encoded with `num_sources` (0), `num_results` (1) or
    /// `num_range_results` (2) set to `value`.
    EntryCount { block: usize, field: u8, value: u32 },
    /// The length prefix of the first payload entry of a block set to `value`.
    EntryLength { block: usize, value: u32 },
    /// A protobuf length inside a payload entry (up to three messages deep) made as large as
    /// its varint can hold, or one larger than it was.
    InnerLength { seed: u64 },
    /// A block written twice in a row.
    DuplicateBlock { block: usize },
    /// A block left out.
    DropBlock { block: usize },
    /// The blocks in random order (the file header stays first).
    ShuffleBlocks { seed: u64 },
    /// The blocks in reverse order.
    ReverseBlocks,
}

/// Blocks worth damaging: the first, the first with a payload of sources, the one with the
/// string table, the first and last with results, the last.
fn interesting_blocks(all: &[Block]) -> Vec<usize> {
    let mut picks = vec![0, all.len() - 1];
    let find = |pred: &dyn Fn(&BlockHeader) -> bool| all.iter().position(|b| pred(&b.header));
    picks.extend(find(&|h| h.num_sources.unwrap_or(0) > 0));
    picks.extend(find(&|h| {
        h.string_table
            .as_ref()
            .is_some_and(|t| !t.strings.is_empty())
    }));
    picks.extend(find(&|h| h.num_results.unwrap_or(0) > 0));
    picks.extend(
        all.iter()
            .rposition(|b| b.header.num_results.unwrap_or(0) > 0),
    );
    picks.sort_unstable();
    picks.dedup();
    picks
}

fn varint(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
    out
}

impl ReportMutation {
    /// The cases for a sound report.
    pub(crate) fn cases(rel: &str, bytes: &[u8], round: usize) -> Vec<ReportMutation> {
        use ReportMutation::*;
        let (_, all) = blocks(bytes);
        let len = bytes.len();
        let mut n = 0;
        let mut seed = || {
            n += 1;
            seed_for(rel, n + 1000 * round)
        };
        let mut cases = Vec::new();
        for at in [0, 3, 4, 9, 12, len / 9, len / 2, len - 1] {
            cases.push(Truncate { at });
        }
        for count in [1, 1, 2, 4, 8, 32, 256] {
            cases.push(FlipBytes {
                seed: seed(),
                count,
            });
        }
        for value in [u32::MAX, 0x8000_0000, 0] {
            cases.push(FileHeaderLength { value });
        }
        for block in interesting_blocks(&all) {
            let b = &all[block];
            let remaining = (len - b.range.start) as u32;
            for value in [u32::MAX, 0, remaining] {
                cases.push(BlockHeaderLength { block, value });
            }
            let size = b.header.payload_size.unwrap_or(0);
            for value in [u32::MAX, remaining, size.saturating_add(4)] {
                cases.push(PayloadSize { block, value });
            }
            for field in 0..3 {
                cases.push(EntryCount {
                    block,
                    field,
                    value: u32::MAX,
                });
            }
            cases.push(EntryCount {
                block,
                field: 1,
                value: b.header.num_results.unwrap_or(0) + 1,
            });
            if size > 0 {
                for value in [u32::MAX, size, 0] {
                    cases.push(EntryLength { block, value });
                }
            }
            cases.push(DuplicateBlock { block });
            cases.push(DropBlock { block });
        }
        for _ in 0..12 {
            cases.push(InnerLength { seed: seed() });
        }
        for _ in 0..2 {
            cases.push(ShuffleBlocks { seed: seed() });
        }
        cases.push(ReverseBlocks);
        if round > 0 {
            cases.retain(|m| {
                matches!(
                    m,
                    FlipBytes { .. } | InnerLength { .. } | ShuffleBlocks { .. }
                )
            });
        }
        cases
    }

    /// The damaged copy of a sound report.
    pub(crate) fn apply(&self, bytes: &[u8]) -> Vec<u8> {
        use ReportMutation::*;
        let (first, all) = blocks(bytes);
        let mut out = bytes.to_vec();
        let reencode = |block: usize, edit: &dyn Fn(&mut BlockHeader)| {
            let b = &all[block];
            let mut header = b.header.clone();
            edit(&mut header);
            let encoded = header.encode_to_vec();
            let mut out = bytes[..b.range.start].to_vec();
            out.extend_from_slice(&(encoded.len() as u32).to_le_bytes());
            out.extend(encoded);
            out.extend_from_slice(&bytes[b.payload_start..]);
            out
        };
        match *self {
            Truncate { at } => out.truncate(at),
            FlipBytes { seed, count } => {
                let mut rng = XorShift::new(seed);
                for _ in 0..count {
                    let at = if rng.below(2) == 0 {
                        let b = &all[rng.below(all.len())];
                        b.range.start + rng.below(b.payload_start + 8 - b.range.start)
                    } else {
                        rng.below(out.len())
                    }
                    .min(out.len() - 1);
                    let value = rng.next_u64() as u8;
                    out[at] = if value == out[at] { !value } else { value };
                }
            }
            FileHeaderLength { value } => out[4..8].copy_from_slice(&value.to_le_bytes()),
            BlockHeaderLength { block, value } => {
                let at = all[block].range.start;
                out[at..at + 4].copy_from_slice(&value.to_le_bytes());
            }
            PayloadSize { block, value } => {
                out = reencode(block, &|h| h.payload_size = Some(value));
            }
            EntryCount {
                block,
                field,
                value,
            } => {
                out = reencode(block, &|h| match field {
                    0 => h.num_sources = Some(value),
                    1 => h.num_results = Some(value),
                    _ => h.num_range_results = Some(value),
                });
            }
            EntryLength { block, value } => {
                let at = all[block].payload_start;
                out[at..at + 4].copy_from_slice(&value.to_le_bytes());
            }
            InnerLength { seed } => inner_length(&mut out, &all, seed),
            DuplicateBlock { block } => {
                let r = all[block].range.clone();
                out.splice(r.end..r.end, bytes[r].iter().copied());
            }
            DropBlock { block } => {
                out.drain(all[block].range.clone());
            }
            ShuffleBlocks { .. } | ReverseBlocks => {
                let mut order: Vec<usize> = (0..all.len()).collect();
                match *self {
                    ShuffleBlocks { seed } => XorShift::new(seed).shuffle(&mut order),
                    _ => order.reverse(),
                }
                out.truncate(first);
                for i in order {
                    out.extend_from_slice(&bytes[all[i].range.clone()]);
                }
            }
        }
        out
    }
}

/// Makes one protobuf length inside a payload entry too large (see
/// [`ReportMutation::InnerLength`]). Lengths are written as minimal varints, so the varint of a
/// field of `n` bytes is the `varint(n).len()` bytes before its value.
fn inner_length(out: &mut [u8], all: &[Block], seed: u64) {
    let mut rng = XorShift::new(seed);
    let with_payload: Vec<&Block> = all
        .iter()
        .filter(|b| b.header.payload_size.unwrap_or(0) > 0)
        .collect();
    let Some(b) = with_payload.get(rng.below(with_payload.len())) else {
        return;
    };
    // The entries of the block.
    let mut entries = Vec::new();
    let mut p = b.payload_start;
    while p < b.range.end {
        let n = u32_at(out, p);
        entries.push(p + 4..p + 4 + n);
        p += 4 + n;
    }
    let mut msg = entries[rng.below(entries.len())].clone();
    let mut target = None;
    for _depth in 0..3 {
        let fields: Vec<(usize, usize)> = FieldIter::new(&out[msg.clone()])
            .map_while(Result::ok)
            .filter_map(|f| match f.value {
                WireValue::Bytes(v) => Some((msg.start + f.offset, v.len())),
                _ => None,
            })
            .collect();
        let Some(&(value_at, len)) = fields.get(rng.below(fields.len())) else {
            break;
        };
        target = Some((value_at, len));
        if rng.below(3) == 0 {
            break;
        }
        msg = value_at..value_at + len;
    }
    let Some((value_at, len)) = target else {
        return;
    };
    let old = varint(len as u64);
    let start = value_at - old.len();
    let mut new = varint(len as u64 + 1);
    if rng.below(2) == 0 || new.len() != old.len() {
        new = vec![0xff; old.len()];
        *new.last_mut().unwrap() = 0x7f;
    }
    out[start..value_at].copy_from_slice(&new);
}
