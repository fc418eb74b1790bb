//! The code of a report (its modules' cubins and imported CUDA sources) read from its file as
//! a stream, keeping only the source entries: the Source views of a report need its code, not
//! the megabytes of results around it, so memory follows the size of the code, not of the
//! file. An open report's code is read through the report (a compressed one from its
//! decompressed copy); a report file alone is decompressed as it streams.

use super::code::CodeIndex;
use super::container::{Entry, SUPPORTED_VERSION, check_header, corrupt};
use super::messages::{BlockHeader, FileHeader};
use crate::model::{KernelResult, ResultKind};
use crate::parse::{LoadError, ParseError, compressed};
use prost::Message;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// A report's source entries, one after the other, and their index: the cubin ranges of
/// [`CodeIndex::modules`] count in `bytes`.
#[derive(Debug, Default)]
pub struct ReportCode {
    pub bytes: Vec<u8>,
    pub index: CodeIndex,
}

/// Reads the code of the report `result` belongs to, opened from `path`: through the open
/// report when the result is read on demand (a compressed report's decompressed copy is not
/// decompressed again), else from the file at `path` (plain or compressed).
pub fn read_code_of(path: &Path, result: &KernelResult) -> Result<ReportCode, LoadError> {
    let Some(plain) = result.content.source().and_then(|s| s.plain_file()) else {
        return read_code(path);
    };
    read_code_from(plain).map_err(|source| LoadError::Parse {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads the code of the report at `path` (plain or compressed).
pub fn read_code(path: &Path) -> Result<ReportCode, LoadError> {
    let io = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut input = BufReader::with_capacity(1 << 20, std::fs::File::open(path).map_err(io)?);
    let head = input.fill_buf().map_err(io)?;
    let parsed = match compressed::detect(head) {
        Some(kind) => read_code_from(compressed::decoder(kind, input)),
        None => read_code_from(input),
    };
    parsed.map_err(|source| LoadError::Parse {
        path: path.to_path_buf(),
        source,
    })
}

/// A stream read with its position counted, for the offsets errors name.
struct Counted<R> {
    inner: R,
    pos: usize,
}

impl<R: Read> Counted<R> {
    fn exact(&mut self, out: &mut [u8], what: &str) -> Result<(), ParseError> {
        self.inner
            .read_exact(out)
            .map_err(|e| corrupt(self.pos, format!("{what}: {e}")))?;
        self.pos += out.len();
        Ok(())
    }

    /// A length prefix and the message after it, at most `limit` bytes in all (the message is
    /// read as it comes: a false length ends at the end of the stream, not in an allocation).
    fn message(&mut self, limit: usize, what: &str) -> Result<Vec<u8>, ParseError> {
        let mut prefix = [0u8; 4];
        self.exact(&mut prefix, what)?;
        let len = u32::from_le_bytes(prefix) as usize;
        if len + 4 > limit {
            return Err(corrupt(
                self.pos - 4,
                format!("{what}: length {len} runs past its block"),
            ));
        }
        let mut out = Vec::new();
        let read = (&mut self.inner)
            .take(len as u64)
            .read_to_end(&mut out)
            .map_err(|e| corrupt(self.pos, format!("{what}: {e}")))?;
        if read != len {
            return Err(corrupt(self.pos, format!("{what}: cut off")));
        }
        self.pos += len;
        Ok(out)
    }

    /// Passes over `n` bytes.
    fn skip(&mut self, n: usize, what: &str) -> Result<(), ParseError> {
        let passed = std::io::copy(&mut (&mut self.inner).take(n as u64), &mut std::io::sink())
            .map_err(|e| corrupt(self.pos, format!("{what}: {e}")))?;
        if passed != n as u64 {
            return Err(corrupt(self.pos, format!("{what}: cut off")));
        }
        self.pos += n;
        Ok(())
    }
}

/// Reads one block, appending its source entries to `bytes` (their places to `spans`) and
/// passing over the rest of its payload.
fn read_block<R: Read>(
    input: &mut Counted<BufReader<R>>,
    bytes: &mut Vec<u8>,
    spans: &mut Vec<(usize, usize)>,
) -> Result<(), ParseError> {
    let offset = input.pos;
    let header_bytes = input.message(usize::MAX, "block header")?;
    let header = BlockHeader::decode(header_bytes.as_slice())
        .map_err(|e| corrupt(offset + 4, format!("block header: {e}")))?;
    let payload = header.payload_size.unwrap_or(0) as usize;
    let counts = check_header(&header, offset, payload)?;
    let end = input.pos + payload;
    for _ in 0..counts[0] {
        let entry = input.message(end - input.pos, "source entry")?;
        spans.push((bytes.len(), entry.len()));
        bytes.extend_from_slice(&entry);
    }
    input.skip(end - input.pos, "block payload")
}

/// Reads the source entries of a report from `input`. A stream that is no report at all is an
/// error; damage after the file header ends the walk with what was read before it.
pub fn read_code_from(input: impl Read) -> Result<ReportCode, ParseError> {
    let mut input = Counted {
        inner: BufReader::with_capacity(1 << 20, input),
        pos: 0,
    };
    let mut magic = [0u8; 4];
    // A file too short for the magic is no report; a file that cannot be read says why.
    match input.inner.read_exact(&mut magic) {
        Ok(()) => input.pos += magic.len(),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            return Err(ParseError::NotAResult("no NVR magic".into()));
        }
        Err(e) => return Err(corrupt(0, e.to_string())),
    }
    if &magic != crate::parse::detect::NCU_REP_MAGIC {
        return Err(ParseError::NotAResult("no NVR magic".into()));
    }
    let header = input.message(usize::MAX, "file header")?;
    let version = FileHeader::decode(header.as_slice())
        .map_err(|e| corrupt(8, format!("file header: {e}")))?
        .version
        .unwrap_or(0);
    if version != SUPPORTED_VERSION {
        return Err(ParseError::UnsupportedVersion(version));
    }
    // (offset in `bytes`, length) of each source entry.
    let mut bytes = Vec::new();
    let mut spans: Vec<(usize, usize)> = Vec::new();
    // Damage ends the walk, as it ends the reading of the results: the code of the blocks read
    // before it is kept (the report's warnings say what was lost).
    loop {
        // The stream ends between blocks.
        if input.inner.fill_buf().map_or(true, |b| b.is_empty()) {
            break;
        }
        let (kept_bytes, kept_spans) = (bytes.len(), spans.len());
        if read_block(&mut input, &mut bytes, &mut spans).is_err() {
            bytes.truncate(kept_bytes);
            spans.truncate(kept_spans);
            break;
        }
    }
    let entries: Vec<Entry<'_>> = spans
        .iter()
        .map(|&(offset, len)| Entry {
            offset,
            bytes: &bytes[offset..offset + len],
            process: None,
            kind: ResultKind::Kernel,
        })
        .collect();
    let index = CodeIndex::of_entries(&entries)?;
    drop(entries);
    Ok(ReportCode { bytes, index })
}
