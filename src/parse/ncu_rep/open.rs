//! Opening a `.ncu-rep` file: one sequential pass in large chunks over the file, keeping the
//! block headers (names, session, processes) and each result's position, identity and the few
//! figures the results table shows; a result's full body is decoded again when asked for
//! ([`super::on_demand`]). Cubins and source files are skipped. Every length is checked
//! against the file's size before anything is allocated or read.

use super::container::{
    Container, PAYLOAD_KINDS, add_graph, check_header, commit_header, corrupt, header_unknown,
};
use super::head::decode_result_head;
use super::messages::{BlockHeader, FileHeader};
use super::on_demand::{OnDemand, ResultEntry};
use super::result::{Context, Decoded};
use super::{assemble, decode_all};
use crate::model::{Report, ResultKind};
use crate::parse::{LoadError, ParseError};
use prost::Message;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;
use std::sync::Arc;

/// Bytes read from the file at a time.
const CHUNK: usize = 4 << 20;
/// Result messages gathered before they are decoded together.
const BATCH: usize = 8 << 20;

/// Opens a report, reading result bodies on demand. `progress` is told the bytes read so far
/// and the file's size.
pub fn open(path: &Path, progress: &mut dyn FnMut(u64, u64)) -> Result<Report, LoadError> {
    open_from(path, path, None, progress)
}

/// Opens the report that is the content of `file` as the report at `path` (errors name
/// `path`). `temp` is the temporary file `file` is, when it is a decompressed copy: the
/// report's on-demand reader keeps it, and it is removed when the report is dropped.
pub fn open_from(
    path: &Path,
    file: &Path,
    temp: Option<tempfile::TempPath>,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, LoadError> {
    let io_error = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let opened = File::open(file).map_err(io_error)?;
    let size = opened.metadata().map_err(io_error)?.len();
    let reader = File::open(file).map_err(io_error)?;
    // Where an open file outlives its name (Unix), a decompressed copy is removed now: no
    // process that ends without dropping the report (or is killed) leaves it behind.
    let temp = match temp {
        Some(t) if cfg!(unix) => {
            t.close().map_err(io_error)?;
            None
        }
        other => other,
    };
    let source = Arc::new(OnDemand::new(path, reader, temp).map_err(io_error)?);
    let file = opened;
    let mut walk = Walk {
        input: Input {
            reader: BufReader::with_capacity(CHUNK, file),
            pos: 0,
            size,
        },
        c: Container::default(),
        entries: Vec::new(),
        batch: Batch::default(),
        decoded: Vec::new(),
        ctx: None,
        source: Arc::clone(&source),
        first: None,
    };
    let report = walk.run(progress).map_err(|e| match e {
        Failure::Io(source) => LoadError::Io {
            path: path.to_path_buf(),
            source,
        },
        Failure::Parse(source) => LoadError::Parse {
            path: path.to_path_buf(),
            source,
        },
    })?;
    Ok(report)
}

/// Why opening stopped: the file could not be read, or it is no report.
enum Failure {
    Io(io::Error),
    Parse(ParseError),
}

impl From<ParseError> for Failure {
    fn from(e: ParseError) -> Self {
        Failure::Parse(e)
    }
}

/// The file, read front to back.
struct Input {
    reader: BufReader<File>,
    pos: u64,
    size: u64,
}

impl Input {
    /// Bytes left before the end of the file, as its size was when opened.
    fn remaining(&self) -> u64 {
        self.size.saturating_sub(self.pos)
    }

    /// Reads exactly `out.len()` bytes. A file that ended early (it shrank since it was
    /// opened) is damage at that offset, not an I/O failure.
    fn read_into(&mut self, out: &mut [u8], what: &str) -> Result<(), Failure> {
        match self.reader.read_exact(out) {
            Ok(()) => {
                self.pos += out.len() as u64;
                Ok(())
            }
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Err(Failure::Parse(corrupt(
                self.pos as usize,
                format!("{what}: the file ends early"),
            ))),
            Err(e) => Err(Failure::Io(e)),
        }
    }

    /// A little-endian length prefix whose message must end within `limit`.
    fn prefix(&mut self, limit: u64, what: &str) -> Result<u32, Failure> {
        let at = self.pos;
        if limit.saturating_sub(at) < 4 {
            return Err(corrupt(at as usize, format!("{what}: length prefix cut off")).into());
        }
        let mut b = [0u8; 4];
        self.read_into(&mut b, what)?;
        let len = u32::from_le_bytes(b);
        let left = limit.saturating_sub(self.pos);
        if u64::from(len) > left {
            return Err(corrupt(
                at as usize,
                format!("{what}: length {len} runs past the end ({left} bytes remain)"),
            )
            .into());
        }
        Ok(len)
    }

    /// A length-prefixed message ending within `limit`, read into a new vector (its length is
    /// checked against the file first).
    fn message(&mut self, limit: u64, what: &str) -> Result<Vec<u8>, Failure> {
        let len = self.prefix(limit, what)?;
        let mut out = vec![0u8; len as usize];
        self.read_into(&mut out, what)?;
        Ok(out)
    }

    /// Skips `len` bytes (checked against the file by the caller).
    fn skip(&mut self, len: u32) -> Result<(), Failure> {
        self.reader
            .seek_relative(i64::from(len))
            .map_err(Failure::Io)?;
        self.pos += u64::from(len);
        Ok(())
    }
}

/// Result messages waiting to be decoded together.
#[derive(Default)]
struct Batch {
    bytes: Vec<u8>,
    /// (index of the result in the file, range in `bytes`).
    items: Vec<(usize, std::ops::Range<usize>)>,
}

/// The state of one pass over the file.
struct Walk {
    input: Input,
    c: Container<'static>,
    entries: Vec<ResultEntry>,
    batch: Batch,
    /// Results decoded so far, by index; `None` while still in a batch.
    decoded: Vec<Option<Result<Decoded, ParseError>>>,
    /// The context of the names read so far, and how many there were.
    ctx: Option<((usize, usize), Context)>,
    source: Arc<OnDemand>,
    /// The first result and a copy of its message: it holds the section body templates.
    first: Option<(ResultEntry, Vec<u8>)>,
}

impl Walk {
    fn run(&mut self, progress: &mut dyn FnMut(u64, u64)) -> Result<Report, Failure> {
        let size = self.input.size;
        let mut magic = [0u8; 4];
        if size < 4 {
            return Err(ParseError::NotAResult("no NVR magic".into()).into());
        }
        self.input.read_into(&mut magic, "magic")?;
        if &magic != crate::parse::detect::NCU_REP_MAGIC {
            return Err(ParseError::NotAResult("no NVR magic".into()).into());
        }
        let header = self.input.message(size, "file header")?;
        let file_header = FileHeader::decode(header.as_slice())
            .map_err(|e| corrupt(8, format!("file header: {e}")))?;
        let version = file_header.version.unwrap_or(0);
        if version != super::container::SUPPORTED_VERSION {
            return Err(ParseError::UnsupportedVersion(version).into());
        }
        self.c.version = version;
        while self.input.pos < size {
            let (entries, batch_bytes, batch_items) = (
                self.entries.len(),
                self.batch.bytes.len(),
                self.batch.items.len(),
            );
            match self.block() {
                Ok(()) => {}
                Err(Failure::Parse(e)) => {
                    // The damaged block is dropped whole, as the in-memory walk does.
                    self.entries.truncate(entries);
                    self.decoded.truncate(entries);
                    if entries == 0 {
                        self.first = None;
                    }
                    self.batch.bytes.truncate(batch_bytes);
                    self.batch.items.truncate(batch_items);
                    self.c.damage = Some(e);
                    break;
                }
                Err(io) => return Err(io),
            }
            if self.batch.bytes.len() >= BATCH {
                self.decode_batch(None);
            }
            progress(self.input.pos, size);
        }
        self.decode_batch(None);
        let ctx = Context::from_parts(self.c.strings.clone(), self.c.processes.clone());
        self.source.complete(ctx, std::mem::take(&mut self.entries));
        // The first body read in full, so what bodies hold that this reader does not know is
        // named from the start (each body read later adds to it); a body that cannot be read
        // says so when it is shown.
        let _ = self.source.decode(0);
        // Results that could not be decoded with the names known when they were read (names
        // may come after their users) are decoded again with all of them.
        let decoded: Vec<Result<Decoded, ParseError>> = std::mem::take(&mut self.decoded)
            .into_iter()
            .enumerate()
            .map(|(i, d)| match d {
                Some(Ok(d)) => Ok(d),
                _ => self.source.decode_head(i).map(|d| self.on_demand(d, i)),
            })
            .collect();
        let total = decoded.len();
        let damage = self.c.damage.take();
        progress(size, size);
        let first = self
            .first
            .as_ref()
            .map(|(e, bytes)| super::container::Entry {
                offset: e.offset as usize,
                bytes,
                process: e.process,
                kind: e.kind,
            });
        Ok(assemble(&self.c, first.as_ref(), decoded, total, damage)?)
    }

    /// Makes a result decoded without its body read the body from the file when asked for.
    fn on_demand(&self, mut d: Decoded, index: usize) -> Decoded {
        let source: Arc<dyn crate::model::BodySource> = self.source.clone();
        let head = d.head.take().unwrap_or_default();
        d.result.set_body_on_demand(head, source, index);
        d
    }

    /// Reads one block: header, then its payload entries (results into the batch, the rest
    /// skipped). Nothing of a block that does not add up is kept.
    fn block(&mut self) -> Result<(), Failure> {
        let offset = self.input.pos;
        let header_bytes = self.input.message(self.input.size, "block header")?;
        let header = BlockHeader::decode(header_bytes.as_slice())
            .map_err(|e| corrupt(offset as usize + 4, format!("block header: {e}")))?;
        let unknown_fields = header_unknown(&header_bytes);
        let payload_size = u64::from(header.payload_size.unwrap_or(0));
        let remaining = self.input.remaining();
        if payload_size > remaining {
            return Err(corrupt(
                offset as usize,
                format!(
                    "block payload of {payload_size} bytes runs past the end of the file ({remaining} bytes remain)"
                ),
            )
            .into());
        }
        let end = self.input.pos + payload_size;
        let counts = check_header(&header, offset as usize, payload_size as usize)?;
        // The process index the block gets when it is committed.
        let process = header.process.as_ref().map(|p| {
            self.c
                .processes
                .iter()
                .rposition(|q| q == p)
                .unwrap_or(self.c.processes.len())
        });
        for (&kind, &n) in PAYLOAD_KINDS.iter().zip(&counts) {
            for _ in 0..n {
                let len = self.input.prefix(end, "payload entry")?;
                let Some(kind) = kind else {
                    self.input.skip(len)?;
                    continue;
                };
                self.entries.push(ResultEntry {
                    offset: self.input.pos,
                    len,
                    process,
                    kind,
                });
                self.decoded.push(None);
                let start = self.batch.bytes.len();
                self.batch.bytes.resize(start + len as usize, 0);
                let (_, room) = self.batch.bytes.split_at_mut(start);
                self.input.read_into(room, "result")?;
                if self.entries.len() == 1 {
                    let entry = self.entries[0];
                    self.first = Some((entry, room.to_vec()));
                }
                self.batch
                    .items
                    .push((self.entries.len() - 1, start..start + len as usize));
                if self.batch.bytes.len() >= BATCH {
                    self.decode_batch(Some(&header));
                }
            }
        }
        let mut graphs = Vec::new();
        for _ in 0..header.num_graphs.unwrap_or(0) {
            let at = self.input.pos as usize + 4;
            graphs.push((at, self.input.message(end, "payload entry")?));
        }
        // A block whose header has fields this reader does not know may count entries it
        // cannot name: the rest of its payload is skipped and said.
        let skipped = end - self.input.pos;
        if skipped > 0 && !unknown_fields.is_empty() {
            self.input
                .skip(u32::try_from(skipped).unwrap_or(u32::MAX))?;
        }
        if self.input.pos != end {
            return Err(corrupt(
                self.input.pos as usize,
                format!(
                    "payload entries end {} bytes before the block does",
                    end - self.input.pos
                ),
            )
            .into());
        }
        commit_header(&mut self.c, header, offset as usize, &unknown_fields)?;
        if skipped > 0 {
            self.c.unknown.skip_payload(skipped);
        }
        for (at, msg) in graphs {
            add_graph(&mut self.c, &msg, at);
        }
        Ok(())
    }

    /// Decodes the gathered results in parallel and keeps their heads. `pending` is the header
    /// of the block being read, whose names and process its results may use.
    fn decode_batch(&mut self, pending: Option<&BlockHeader>) {
        if self.batch.items.is_empty() {
            return;
        }
        let extra_strings = pending
            .and_then(|h| h.string_table.as_ref())
            .map_or(&[][..], |t| t.strings.as_slice());
        let extra_process = pending
            .and_then(|h| h.process.as_ref())
            .filter(|p| !self.c.processes.contains(p));
        let key = (
            self.c.strings.len() + extra_strings.len(),
            self.c.processes.len() + usize::from(extra_process.is_some()),
        );
        if self.ctx.as_ref().map(|(k, _)| *k) != Some(key) {
            let mut strings = self.c.strings.clone();
            strings.extend_from_slice(extra_strings);
            let mut processes = self.c.processes.clone();
            processes.extend(extra_process.cloned());
            self.ctx = Some((key, Context::from_parts(strings, processes)));
        }
        let Some((_, ctx)) = &self.ctx else {
            return;
        };
        let items = std::mem::take(&mut self.batch.items);
        // Consecutive results: IDs follow the file order.
        let first = items.first().map_or(0, |(i, _)| *i);
        let entries: Vec<super::container::Entry<'_>> = items
            .iter()
            .map(|(i, range)| super::container::Entry {
                offset: self.entries.get(*i).map_or(0, |e| e.offset as usize),
                bytes: self.batch.bytes.get(range.clone()).unwrap_or(&[]),
                process: self.entries.get(*i).and_then(|e| e.process),
                kind: self.entries.get(*i).map_or(ResultKind::Kernel, |e| e.kind),
            })
            .collect();
        let results = decode_all(ctx, &entries, first as u64, decode_result_head);
        drop(entries);
        for ((i, _), d) in items.into_iter().zip(results) {
            let d = d.map(|d| self.on_demand(d, i));
            if let Some(slot) = self.decoded.get_mut(i) {
                // A result that failed here is tried again once all names are known.
                *slot = d.ok().map(Ok);
            }
        }
        self.batch.bytes.clear();
        if self.batch.bytes.capacity() > 2 * BATCH {
            self.batch.bytes = Vec::new();
        }
    }
}
