//! The container: `NVR\0`, a length-prefixed file header, then blocks until the end of the file.
//! Walking it reads only block headers and the length prefixes of payload entries; it gathers
//! the string table, the merged session, the processes and the byte ranges of every source and
//! result. Every length is checked against the bytes that remain before anything is sliced.

use super::messages::{BlockHeader, FileHeader, ProcessInfo, SessionDetails};
use crate::model::ResultKind;
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
    if p != end {
        return Err(corrupt(
            p,
            format!(
                "payload entries end {} bytes before the block does",
                end - p
            ),
        ));
    }
    // The block is sound: commit it.
    let process = commit_header(c, header, offset)?;
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
    // Validate the session piece before merging it.
    if let Some(piece) = &header.session_details {
        SessionDetails::decode(piece.as_slice())
            .map_err(|e| corrupt(offset + 4, format!("session details: {e}")))?;
    }
    let counts = [
        header.num_sources.unwrap_or(0),
        header.num_results.unwrap_or(0),
        header.num_range_results.unwrap_or(0),
        header.num_cmdlist_results.unwrap_or(0),
        header.num_graph_results.unwrap_or(0),
    ];
    // Each entry takes at least its 4-byte prefix: counts beyond that are corrupt, and this
    // also bounds the vectors of entries by the payload size.
    let total: u64 = counts.iter().map(|&n| u64::from(n)).sum();
    if total > (payload_size / 4) as u64 {
        return Err(corrupt(
            offset,
            format!("block claims {total} entries in a payload of {payload_size} bytes"),
        ));
    }
    Ok(counts)
}

/// Adds a sound block's header to the container: session piece, strings and process. Returns
/// the index of the block's process.
pub fn commit_header(
    c: &mut Container<'_>,
    header: BlockHeader,
    offset: usize,
) -> Result<Option<usize>, ParseError> {
    if let Some(piece) = &header.session_details {
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
