//! The container: `NVR\0`, a length-prefixed file header, then blocks until the end of the file.
//! Walking it reads only block headers and the length prefixes of payload entries; it gathers
//! the string table, the merged session, the processes and the byte ranges of every source and
//! result. Every length is checked against the bytes that remain before anything is sliced.

use super::messages::{BlockHeader, FileHeader, ProcessInfo, SessionDetails};
use super::unknown::{self, Unknown, unknown_numbers};
use crate::model::ResultKind;
use crate::model::graph::CudaGraph;
use crate::parse::ParseError;
use prost::Message;

/// The only container version known (written by ncu 2023.3 through 2025.3).
pub const SUPPORTED_VERSION: u32 = 7;

/// One payload entry: a message's bytes and where they start in the file.
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    /// Offset of the message (after its length prefix) in the file.
    pub offset: usize,
    pub bytes: &'a [u8],
    /// Index into [`Container::processes`] of the block's process.
    pub process: Option<usize>,
    /// The message type of a result entry: `ProfileResult` (kernel), `RangeResult`,
    /// `CmdlistResult` or `GraphResult`. Sources are marked as kernels.
    pub kind: ResultKind,
}

/// The entries of a block's payload, in order: sources (`None`), then kernel, range,
/// command-list and graph results.
pub const PAYLOAD_KINDS: [Option<ResultKind>; 5] = [
    None,
    Some(ResultKind::Kernel),
    Some(ResultKind::Range),
    Some(ResultKind::CommandList),
    Some(ResultKind::Graph),
];

/// Everything the block headers say, and where the payload messages are.
#[derive(Debug, Default)]
pub struct Container<'a> {
    pub version: u32,
    /// The global metric-name table: all block string tables concatenated in file order.
    pub strings: Vec<String>,
    /// The session details of all block headers, merged.
    pub session: SessionDetails,
    /// Distinct process records, in order of first appearance.
    pub processes: Vec<ProcessInfo>,
    /// `SourceData` entries (modules), in file order.
    pub sources: Vec<Entry<'a>>,
    /// Result entries of every kind (kernel, range, command list, graph), in file order; within
    /// one block in payload order. A result's ID is its position here.
    pub results: Vec<Entry<'a>>,
    /// Where and why the walk stopped before the end of the file.
    pub damage: Option<ParseError>,
    /// The CUDA graphs stored after the results of blocks, in file order.
    pub graphs: Vec<CudaGraph>,
    /// Graph messages that could not be decoded (skipped), each with why.
    pub graph_errors: Vec<String>,
    /// Fields and payload this reader does not know, skipped.
    pub unknown: Unknown,
}

/// Reads a little-endian u32 at `offset`, if four bytes remain there.
fn u32_at(bytes: &[u8], offset: usize) -> Option<u32> {
    let b = bytes.get(offset..offset.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// A `Corrupt` error at an offset.
pub fn corrupt(offset: usize, message: impl Into<String>) -> ParseError {
    ParseError::Corrupt {
        offset: offset as u64,
        message: message.into(),
    }
}

/// A length-prefixed message at `offset` whose end may not pass `limit`: (message, next offset).
fn prefixed<'a>(
    bytes: &'a [u8],
    offset: usize,
    limit: usize,
    what: &str,
) -> Result<(&'a [u8], usize), ParseError> {
    let len = u32_at(bytes, offset)
        .filter(|_| offset + 4 <= limit)
        .ok_or_else(|| corrupt(offset, format!("{what}: length prefix cut off")))?;
    let start = offset + 4;
    let end = start
        .checked_add(len as usize)
        .filter(|&end| end <= limit)
        .ok_or_else(|| {
            corrupt(
                offset,
                format!(
                    "{what}: length {len} runs past the end ({} bytes remain)",
                    limit - start
                ),
            )
        })?;
    Ok((&bytes[start..end], end))
}

/// Walks the container. Fails only when the file is not a version-7 report at all; damage in
/// a block stops the walk and is recorded in [`Container::damage`], keeping what came before.
pub fn walk(bytes: &[u8]) -> Result<Container<'_>, ParseError> {
    if !bytes.starts_with(crate::parse::detect::NCU_REP_MAGIC) {
        return Err(ParseError::NotAResult("no NVR magic".into()));
    }
    let (header, mut offset) = prefixed(bytes, 4, bytes.len(), "file header")?;
    let file_header =
        FileHeader::decode(header).map_err(|e| corrupt(8, format!("file header: {e}")))?;
    let version = file_header.version.unwrap_or(0);
    if version != SUPPORTED_VERSION {
        return Err(ParseError::UnsupportedVersion(version));
    }
    let mut container = Container {
        version,
        ..Container::default()
    };
    while offset < bytes.len() {
        match read_block(bytes, offset, &mut container) {
            Ok(next) => offset = next,
            Err(e) => {
                container.damage = Some(e);
                break;
            }
        }
    }
    Ok(container)
}

/// Reads the block at `offset`, adds it to the container only when all of it is sound, and
/// returns the offset of the next block.
fn read_block<'a>(
    bytes: &'a [u8],
    offset: usize,
    c: &mut Container<'a>,
) -> Result<usize, ParseError> {
    let (header_bytes, payload_start) = prefixed(bytes, offset, bytes.len(), "block header")?;
    let header = BlockHeader::decode(header_bytes)
        .map_err(|e| corrupt(offset + 4, format!("block header: {e}")))?;
    let unknown_fields = header_unknown(header_bytes);
    let payload_size = header.payload_size.unwrap_or(0) as usize;
    let end = payload_start
        .checked_add(payload_size)
        .filter(|&end| end <= bytes.len())
        .ok_or_else(|| {
            corrupt(
                offset,
                format!(
                    "block payload of {payload_size} bytes runs past the end of the file ({} bytes remain)",
                    bytes.len() - payload_start
                ),
            )
        })?;
    let counts = check_header(&header, offset, payload_size)?;
    let mut sources: Vec<(usize, &'a [u8])> = Vec::new();
    let mut results: Vec<(usize, &'a [u8], ResultKind)> = Vec::new();
    let mut p = payload_start;
    for (&kind, &n) in PAYLOAD_KINDS.iter().zip(&counts) {
        for _ in 0..n {
            let (msg, next) = prefixed(bytes, p, end, "payload entry")?;
            match kind {
                None => sources.push((p + 4, msg)),
                Some(kind) => results.push((p + 4, msg, kind)),
            }
            p = next;
        }
    }
    let mut graphs = Vec::new();
    for _ in 0..header.num_graphs.unwrap_or(0) {
        let (msg, next) = prefixed(bytes, p, end, "payload entry")?;
        graphs.push((p + 4, msg));
        p = next;
    }
    let skipped = end - p;
    if p != end && unknown_fields.is_empty() {
        return Err(corrupt(
            p,
            format!(
                "payload entries end {} bytes before the block does",
                end - p
            ),
        ));
    }
    // The block is sound: commit it.
    let process = commit_header(c, header, offset, &unknown_fields)?;
    if skipped > 0 {
        c.unknown.skip_payload(skipped as u64);
    }
    for (at, msg) in graphs {
        add_graph(c, msg, at);
    }
    c.sources
        .extend(sources.into_iter().map(|(offset, bytes)| Entry {
            offset,
            bytes,
            process,
            kind: ResultKind::Kernel,
        }));
    c.results
        .extend(results.into_iter().map(|(offset, bytes, kind)| Entry {
            offset,
            bytes,
            process,
            kind,
        }));
    Ok(end)
}

/// Checks a block header whose payload is `payload_size` bytes: its session piece decodes and
/// its entry counts fit the payload. Returns the counts of sources and of kernel, range,
/// command-list and graph results, in payload order.
pub fn check_header(
    header: &BlockHeader,
    offset: usize,
    payload_size: usize,
) -> Result<[u32; 5], ParseError> {
    // A header with nothing in it is no block a profiler writes: zeros, most often.
    if *header == BlockHeader::default() {
        return Err(corrupt(offset, "empty block header"));
    }
    // Validate the session piece before merging it.
    if let Some(piece) = &header.session_details {
        SessionDetails::decode(piece.as_slice())
            .map_err(|e| corrupt(offset + 4, format!("session details: {e}")))?;
    }
    let graphs = u64::from(header.num_graphs.unwrap_or(0));
    let counts = [
        header.num_sources.unwrap_or(0),
        header.num_results.unwrap_or(0),
        header.num_range_results.unwrap_or(0),
        header.num_cmdlist_results.unwrap_or(0),
        header.num_graph_results.unwrap_or(0),
    ];
    // Each entry takes at least its 4-byte prefix: counts beyond that are corrupt, and this
    // also bounds the vectors of entries by the payload size.
    let total: u64 = counts.iter().map(|&n| u64::from(n)).sum::<u64>() + graphs;
    if total > (payload_size / 4) as u64 {
        return Err(corrupt(
            offset,
            format!("block claims {total} entries in a payload of {payload_size} bytes"),
        ));
    }
    Ok(counts)
}

/// The top-level fields of a block header this reader does not know.
pub fn header_unknown(header_bytes: &[u8]) -> Vec<u32> {
    unknown_numbers(header_bytes, |n| (1..=unknown::BLOCK_HEADER).contains(&n))
}

/// Decodes a graph message at file offset `at` into the container; one that cannot be decoded
/// is skipped and named.
pub fn add_graph(c: &mut Container<'_>, msg: &[u8], at: usize) {
    match super::graphs::decode_graph(msg, &mut c.unknown) {
        Ok(g) => c.graphs.push(g),
        Err(e) => c.graph_errors.push(format!(
            "CUDA graph at offset {at} could not be read ({e}): skipped"
        )),
    }
}

/// Adds a sound block's header to the container: session piece, strings and process, and
/// the header's unknown fields (`unknown_fields`) to the tally. Returns the index of the
/// block's process.
pub fn commit_header(
    c: &mut Container<'_>,
    header: BlockHeader,
    offset: usize,
    unknown_fields: &[u32],
) -> Result<Option<usize>, ParseError> {
    c.unknown.add("BlockHeader", unknown_fields);
    if let Some(piece) = &header.session_details {
        c.unknown.add(
            "ReportSessionDetails",
            &unknown_numbers(piece, |n| (1..=unknown::SESSION_DETAILS).contains(&n)),
        );
        c.session
            .merge(piece.as_slice())
            .map_err(|e| corrupt(offset + 4, format!("session details: {e}")))?;
    }
    if let Some(table) = header.string_table {
        c.strings.extend(table.strings);
    }
    Ok(header
        .process
        .map(|p| match c.processes.iter().rposition(|q| *q == p) {
            Some(i) => i,
            None => {
                c.processes.push(p);
                c.processes.len() - 1
            }
        }))
}
