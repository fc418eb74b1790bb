//! Decoding a result of an opened `.ncu-rep` file when a view asks for it: one positioned read
//! of the result's message into a reused buffer, then the same decoder that opening used.
//! Threads read results of one report at once: the reads are positioned, on one descriptor.
//! A report read from its own path does not keep its file open: the descriptor is among the
//! files used last ([`crate::parse::reopen`]) and the path is opened again when it was let
//! go, so thousands of open reports hold a bounded number of descriptors. A file changed
//! since it was opened (in place, or replaced under its name) is refused. A compressed
//! report's decompressed copy, a pipe's copy and a file opened through another path (a
//! descriptor's) have no path of their own to open again: their file stays open.

use super::container::{Entry, corrupt};
use super::head::decode_result_head;
use super::result::{Context, Decoded, decode_result};
use super::unknown::Unknown;
use crate::model::{BodySource, ResultBody, ResultKind};
use crate::parse::ParseError;
use crate::parse::read::stamp_of;
use crate::parse::reopen::{ReopenError, Reopenable, read_at, read_exact_at};
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::SystemTime;

/// Where a result's message is in the file.
#[derive(Debug, Clone, Copy)]
pub struct ResultEntry {
    /// Offset of the message (after its length prefix).
    pub offset: u64,
    pub len: u32,
    /// Index of the block's process in the context's process list.
    pub process: Option<usize>,
    /// The message type of the result.
    pub kind: ResultKind,
}

/// The file results are read from.
enum FileSource {
    /// Kept open for as long as the report lives (it has no path to be opened again by).
    Kept(File),
    /// Opened again by its path when let go.
    Reopened(Reopenable),
}

/// Why the file could not be read.
enum ReadFailure {
    /// It changed since it was opened.
    Changed,
    Io(io::Error),
}

impl FileSource {
    /// Runs `read` on the file as it was opened; it reads at positions.
    fn with<R>(
        &self,
        stamp: (u64, Option<SystemTime>),
        read: impl FnOnce(&File) -> io::Result<R>,
    ) -> Result<R, ReadFailure> {
        match self {
            FileSource::Kept(file) => {
                if stamp_of(file).map_err(ReadFailure::Io)? != stamp {
                    return Err(ReadFailure::Changed);
                }
                read(file).map_err(ReadFailure::Io)
            }
            FileSource::Reopened(r) => r.with(read).map_err(|e| match e {
                ReopenError::Changed => ReadFailure::Changed,
                ReopenError::Io(e) => ReadFailure::Io(e),
            }),
        }
    }
}

/// Largest buffer a report keeps for the next reads; a larger result gets a buffer of its own.
const SPARE_BUFFER_BYTES: usize = 1 << 20;

/// How many buffers a report keeps for the next reads: one per thread that reads at once.
fn spare_buffers() -> usize {
    crate::cores::cores().min(16)
}

/// The fields no schema names inside the bodies read so far.
#[derive(Default)]
struct BodiesRead {
    unknown: Unknown,
    /// Which results are counted in `unknown` (a body released and read again is not
    /// counted twice).
    counted: Vec<bool>,
    read: usize,
}

/// The results of one opened report file, decoded on demand.
pub struct OnDemand {
    path: PathBuf,
    file: FileSource,
    /// Buffers left by earlier reads, for the next ones.
    spare: Mutex<Vec<Vec<u8>>>,
    /// Size and modification time when opened.
    stamp: (u64, Option<SystemTime>),
    /// Names and processes of the whole file, set when opening has read all of it.
    ctx: OnceLock<Context>,
    entries: OnceLock<Vec<ResultEntry>>,
    clock: AtomicU64,
    /// What the bodies decoded so far held that this reader does not know, each result
    /// counted once.
    in_bodies: Mutex<BodiesRead>,
    /// The decompressed copy the file is, when the report was compressed: removed with the
    /// source, that is when the report and every result of it are dropped.
    _temp: Option<tempfile::TempPath>,
}

impl OnDemand {
    /// The message of `len` bytes at `offset`, without its fields too large to read
    /// ([`super::oversized`]).
    pub fn read_compacted(&self, offset: u64, len: u32) -> io::Result<Vec<u8>> {
        self.file
            .with(self.stamp, |file| {
                super::oversized::read_compacted_at(file, offset, len)
            })
            .map_err(|e| match e {
                ReadFailure::Changed => io::Error::other(format!(
                    "{} changed since it was opened; reload it",
                    self.path.display()
                )),
                ReadFailure::Io(e) => e,
            })
    }

    /// A source reading from `file`, opened for `path` (which errors name); `temp` is the
    /// temporary file `file` is, if it is one, removed when the source is dropped. With
    /// `reopen`, `file` was opened at `path` itself and is let go when not used lately (see
    /// the module's documentation).
    pub fn new(
        path: &Path,
        file: File,
        temp: Option<tempfile::TempPath>,
        reopen: bool,
    ) -> io::Result<Self> {
        let stamp = stamp_of(&file)?;
        let file = if reopen {
            FileSource::Reopened(Reopenable::new(path, file)?)
        } else {
            FileSource::Kept(file)
        };
        Ok(OnDemand {
            path: path.to_path_buf(),
            file,
            spare: Mutex::new(Vec::new()),
            stamp,
            ctx: OnceLock::new(),
            entries: OnceLock::new(),
            clock: AtomicU64::new(0),
            in_bodies: Mutex::new(BodiesRead::default()),
            _temp: temp,
        })
    }

    /// Completes the source once the whole file was read: names, processes, result positions.
    pub fn complete(&self, ctx: Context, entries: Vec<ResultEntry>) {
        let _ = self.ctx.set(ctx);
        let _ = self.entries.set(entries);
    }

    /// Reads and decodes result `index` (also its ID) with the whole file's names, counting
    /// what its body holds that this reader does not know ([`BodySource::notes`]).
    pub fn decode(&self, index: usize) -> Result<Decoded, ParseError> {
        let decoded = self.decode_with(index, decode_result)?;
        let mut in_bodies = self
            .in_bodies
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let total = self.entries.get().map_or(0, Vec::len);
        if in_bodies.counted.len() < total {
            in_bodies.counted.resize(total, false);
        }
        if let Some(counted) = in_bodies.counted.get_mut(index)
            && !*counted
        {
            *counted = true;
            in_bodies.read += 1;
            in_bodies.unknown.merge(&decoded.unknown_in_body);
        }
        Ok(decoded)
    }

    /// Reads result `index` and decodes it without its body ([`decode_result_head`]).
    pub fn decode_head(&self, index: usize) -> Result<Decoded, ParseError> {
        self.decode_with(index, decode_result_head)
    }

    fn decode_with(
        &self,
        index: usize,
        decode: fn(&Context, &Entry<'_>, u64) -> Result<Decoded, ParseError>,
    ) -> Result<Decoded, ParseError> {
        let (Some(ctx), Some(entries)) = (self.ctx.get(), self.entries.get()) else {
            return Err(ParseError::NotAResult(
                "the report is still being opened".into(),
            ));
        };
        let entry = entries
            .get(index)
            .ok_or_else(|| ParseError::NotAResult(format!("no result {index} in the report")))?;
        // Several threads read and decode results of one report at once.
        let mut bytes = {
            // A message larger than any field may be is read without its oversized fields;
            // any other into a spare buffer left by an earlier read, else a new one.
            let oversized = u64::from(entry.len) > super::oversized::MAX_FIELD_BYTES;
            let mut bytes = if oversized {
                Vec::new()
            } else {
                self.spare
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .pop()
                    .unwrap_or_default()
            };
            bytes.clear();
            self.file
                .with(self.stamp, |file| {
                    if oversized {
                        bytes = super::oversized::read_compacted_at(file, entry.offset, entry.len)?;
                        return Ok(());
                    }
                    bytes.resize(entry.len as usize, 0);
                    read_exact_at(file, &mut bytes, entry.offset)
                })
                .map_err(|e| match e {
                    ReadFailure::Changed => ParseError::NotAResult(format!(
                        "{} changed since it was opened; reload it",
                        self.path.display()
                    )),
                    ReadFailure::Io(e) => corrupt(
                        entry.offset as usize,
                        format!(
                            "result {index}: {}",
                            crate::parse::open_files::io_error_text(&e)
                        ),
                    ),
                })?;
            bytes
        };
        let offset = usize::try_from(entry.offset).unwrap_or(usize::MAX);
        let decoded = decode(
            ctx,
            &Entry {
                offset,
                bytes: &bytes,
                process: entry.process,
                kind: entry.kind,
            },
            index as u64,
        );
        // The buffer is kept for the next read, unless grown for a large result.
        if bytes.capacity() <= SPARE_BUFFER_BYTES {
            bytes.clear();
            let mut spare = self
                .spare
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if spare.len() < spare_buffers() {
                spare.push(bytes);
            }
        }
        decoded
    }
}

/// The open file read from `pos` on, refused once the file changed since it was opened.
struct PlainFile<'a> {
    source: &'a OnDemand,
    pos: u64,
}

impl Read for PlainFile<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let pos = self.pos;
        let n = self
            .source
            .file
            .with(self.source.stamp, |file| read_at(file, out, pos))
            .map_err(|e| match e {
                ReadFailure::Changed => io::Error::other(format!(
                    "{} changed since it was opened; reload it",
                    self.source.path.display()
                )),
                ReadFailure::Io(e) => e,
            })?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl BodySource for OnDemand {
    fn plain_file(&self) -> Option<Box<dyn Read + Send + '_>> {
        Some(Box::new(PlainFile {
            source: self,
            pos: 0,
        }))
    }

    fn load(&self, index: usize) -> Result<ResultBody, String> {
        self.decode(index)
            .map(|d| d.result.into_body())
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }

    fn tick(&self) -> u64 {
        self.clock.fetch_add(1, Ordering::Relaxed) + 1
    }

    fn notes(&self) -> Vec<String> {
        let in_bodies = self
            .in_bodies
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let total = self.entries.get().map_or(0, Vec::len);
        in_bodies.unknown.notes_of_bodies(in_bodies.read, total)
    }
}
