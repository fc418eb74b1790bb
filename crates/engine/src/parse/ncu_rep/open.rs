//! Opening a `.ncu-rep` file: one sequential pass in large chunks over the file, keeping the
//! block headers (names, session, processes) and each result's position, identity and the few
//! figures the results table shows; a result's full body is decoded again when asked for
//! ([`super::on_demand`]). The chunks are read straight into the buffers the results are
//! decoded from, and each is decoded on another thread while the file is read on. Cubins and
//! source files are skipped. Every length is checked against the file's size before anything
//! is allocated or read.

use super::assemble;
use super::container::{
    Container, PAYLOAD_KINDS, add_graph, check_header, commit_header, corrupt, header_unknown,
};
use super::head::decode_result_head;
use super::messages::{BlockHeader, FileHeader};
use super::on_demand::{OnDemand, ResultEntry};
use super::result::{Context, Decoded};
use crate::model::Report;
use crate::parse::{LoadError, ParseError};
use prost::Message;
use std::cell::Cell;
use std::fs::File;
use std::io::{self, Read, Seek};
use std::path::Path;
use std::sync::{Arc, Mutex, mpsc};

/// Bytes read from the file at a time: the buffer results are decoded from, handed whole to a
/// decoding thread once read past.
const CHUNK: usize = 2 << 20;
/// Most decoding threads.
const MAX_THREADS: usize = 16;

thread_local! {
    /// The most decoding threads an open made on this thread starts, where its caller set a
    /// budget ([`with_decode_threads`]); otherwise one per core.
    static DECODE_THREADS: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Runs `f` with the opens it makes on this thread decoding on at most `threads` threads. For
/// callers that open several reports at once (a series): each open reads through its own
/// threads and buffers, so that opens side by side with a share of the cores each hold the
/// buffers of one open with every core, not one such set each.
pub fn with_decode_threads<T>(threads: usize, f: impl FnOnce() -> T) -> T {
    /// Puts the budget that was set back, also when `f` panics.
    struct Restore(Option<usize>);
    impl Drop for Restore {
        fn drop(&mut self) {
            DECODE_THREADS.set(self.0);
        }
    }
    let _restore = Restore(DECODE_THREADS.replace(Some(threads.max(1))));
    f()
}

/// Opens a report, reading result bodies on demand. `progress` is told the bytes read so far
/// and the file's size.
pub fn open(path: &Path, progress: &mut dyn FnMut(u64, u64)) -> Result<Report, LoadError> {
    open_from(path, path, None, progress)
}

/// Opens the report that is the content of `file` as the report at `path` (errors name
/// `path`). `temp` is the temporary file `file` is, when it is a decompressed copy: the
/// report's on-demand reader keeps it, and it is removed when the report is dropped.
///
/// One thread reads the file; result heads are decoded on other threads while it reads on, a
/// bounded number of chunks at a time.
pub fn open_from(
    path: &Path,
    file: &Path,
    temp: Option<crate::parse::compressed::TempCopy>,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, LoadError> {
    let io_error = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let opened = File::open(file).map_err(io_error)?;
    let size = opened.metadata().map_err(io_error)?.len();
    let reader = File::open(file).map_err(io_error)?;
    // A report read from its own path opens it again when asked for; a copy or a file read
    // through another path keeps its descriptor.
    let reopen = temp.is_none() && file == path;
    // Where an open file outlives its name (Unix), a decompressed copy is removed now: no
    // process that ends without dropping the report (or is killed) leaves it behind.
    // An unnamed copy lives on in the reader's own descriptor.
    use crate::parse::compressed::TempCopy;
    let temp = match temp {
        Some(TempCopy::Named(t)) if cfg!(unix) => {
            t.close().map_err(io_error)?;
            None
        }
        Some(TempCopy::Named(t)) => Some(t),
        Some(TempCopy::Unnamed(_)) | None => None,
    };
    let source = Arc::new(OnDemand::new(path, reader, temp, reopen).map_err(io_error)?);
    let chunks = usize::try_from(size / CHUNK as u64).unwrap_or(usize::MAX);
    let threads = crate::cores::cores()
        .min(DECODE_THREADS.get().unwrap_or(usize::MAX))
        .min(chunks + 1)
        .clamp(1, MAX_THREADS);
    let report = std::thread::scope(|scope| {
        let (jobs, job_queue) = mpsc::channel::<Job>();
        let (pool_back, pool) = mpsc::channel::<Vec<u8>>();
        let (done_send, done) = mpsc::channel::<Vec<Done>>();
        let job_queue = Arc::new(Mutex::new(job_queue));
        for _ in 0..threads {
            let job_queue = Arc::clone(&job_queue);
            let pool_back = pool_back.clone();
            let done_send = done_send.clone();
            let source = Arc::clone(&source);
            scope.spawn(move || decode_jobs(&job_queue, &pool_back, &done_send, &source));
        }
        drop((pool_back, done_send));
        let mut walk = Walk {
            input: Input {
                file: opened,
                size,
                pos: 0,
                buf: Vec::new(),
                at: 0,
            },
            c: Container::default(),
            entries: Vec::new(),
            items: Vec::new(),
            jobs: Some(jobs),
            pool: Pool {
                back: pool,
                out: 1,
                limit: threads + 2,
            },
            done,
            ctx: None,
            source: Arc::clone(&source),
            first: None,
        };
        walk.run(progress)
    });
    report.map_err(|e| match e {
        Failure::Io(source) => LoadError::Io {
            path: path.to_path_buf(),
            source,
        },
        Failure::Parse(source) => LoadError::Parse {
            path: path.to_path_buf(),
            source,
        },
    })
}

/// Results to decode: their messages lie in `bytes`, which goes back to the reader's pool
/// afterwards.
struct Job {
    bytes: Vec<u8>,
    items: Vec<Item>,
    ctx: Arc<Context>,
}

/// One result in a chunk: its index in the file, where its message lies in the chunk, and its
/// place in the file.
struct Item {
    index: usize,
    range: std::ops::Range<usize>,
    entry: ResultEntry,
}

/// A decoded result by index; `None` when it could not be decoded with the names known when it
/// was read (it is tried again once all are known).
type Done = (usize, Option<Decoded>);

/// A decoding thread: takes chunks until the reader is done, sends back each chunk's results and
/// its emptied buffer.
fn decode_jobs(
    queue: &Mutex<mpsc::Receiver<Job>>,
    pool_back: &mpsc::Sender<Vec<u8>>,
    done: &mpsc::Sender<Vec<Done>>,
    source: &Arc<OnDemand>,
) {
    loop {
        // The lock is held only while waiting for the next chunk; a poisoned lock means another
        // decoder panicked, which the scope passes on.
        let job = match queue.lock() {
            Ok(q) => q.recv(),
            Err(_) => return,
        };
        let Ok(Job {
            mut bytes,
            items,
            ctx,
        }) = job
        else {
            return;
        };
        let results = items
            .into_iter()
            .map(|item| {
                let entry = super::container::Entry {
                    offset: item.entry.offset as usize,
                    bytes: bytes.get(item.range).unwrap_or(&[]),
                    process: item.entry.process,
                    kind: item.entry.kind,
                };
                let decoded = decode_result_head(&ctx, &entry, item.index as u64)
                    .ok()
                    .map(|d| with_body_on_demand(source, d, item.index));
                (item.index, decoded)
            })
            .collect();
        if done.send(results).is_err() {
            return;
        }
        bytes.clear();
        if bytes.capacity() > 2 * CHUNK {
            bytes = Vec::new();
        }
        let _ = pool_back.send(bytes);
    }
}

/// Makes a result decoded without its body read the body from the file when asked for.
fn with_body_on_demand(source: &Arc<OnDemand>, mut d: Decoded, index: usize) -> Decoded {
    let source: Arc<dyn crate::model::BodySource> = source.clone();
    let head = d.head.take().unwrap_or_default();
    d.result.set_body_on_demand(head, source, index);
    d
}

/// The buffers chunks are read into: at most `limit` are out at once (read into, or waiting
/// to be decoded), so memory stays bounded however far the decoders fall behind.
struct Pool {
    back: mpsc::Receiver<Vec<u8>>,
    out: usize,
    limit: usize,
}

impl Pool {
    /// A buffer for the next chunk: one a decoder has handed back, else a new one while fewer
    /// than `limit` are out, else the next one handed back.
    fn take(&mut self) -> Vec<u8> {
        if let Ok(buf) = self.back.try_recv() {
            return buf;
        }
        if self.out < self.limit {
            self.out += 1;
            return Vec::new();
        }
        self.back.recv().unwrap_or_default()
    }
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

/// The file, read front to back in chunks straight into the buffer results are decoded from.
struct Input {
    file: File,
    size: u64,
    /// File offset of the next byte to consume.
    pos: u64,
    /// Bytes read from the file; `buf[at..]` are those from `pos` on.
    buf: Vec<u8>,
    at: usize,
}

impl Input {
    /// Bytes left before the end of the file, as its size was when opened.
    fn remaining(&self) -> u64 {
        self.size.saturating_sub(self.pos)
    }

    /// Bytes read and not consumed yet.
    fn available(&self) -> usize {
        self.buf.len() - self.at
    }

    /// Reads on until `n` bytes are available (a chunk's worth where the file has them). A
    /// file that ended early (it shrank since it was opened) is damage at that offset, not an
    /// I/O failure.
    fn fill(&mut self, n: usize, what: &str) -> Result<(), Failure> {
        let avail = self.available();
        let unread = self.remaining().saturating_sub(avail as u64);
        let want = n.max(CHUNK).saturating_sub(avail);
        let want = usize::try_from(unread).map_or(want, |u| want.min(u));
        self.buf.reserve(want);
        (&self.file)
            .take(want as u64)
            .read_to_end(&mut self.buf)
            .map_err(Failure::Io)?;
        if self.available() < n {
            return Err(Failure::Parse(corrupt(
                self.pos as usize,
                format!("{what}: the file ends early"),
            )));
        }
        Ok(())
    }

    /// Moves the bytes not consumed yet to the front of the buffer.
    fn compact(&mut self) {
        self.buf.copy_within(self.at.., 0);
        self.buf.truncate(self.buf.len() - self.at);
        self.at = 0;
    }

    /// Starts a new buffer, `fresh`, with the bytes not consumed yet; returns the old one.
    fn switch(&mut self, mut fresh: Vec<u8>) -> Vec<u8> {
        fresh.clear();
        fresh.reserve(CHUNK);
        fresh.extend_from_slice(self.buf.get(self.at..).unwrap_or(&[]));
        self.at = 0;
        std::mem::replace(&mut self.buf, fresh)
    }

    /// Consumes `n` available bytes, returning where they lie in the buffer.
    fn consume(&mut self, n: usize) -> std::ops::Range<usize> {
        let range = self.at..self.at + n;
        self.at += n;
        self.pos += n as u64;
        range
    }

    /// Skips `len` bytes (checked against the file by the caller), reading none it does not
    /// have yet.
    fn skip(&mut self, len: u32) -> Result<(), Failure> {
        let len = len as usize;
        let avail = self.available();
        if len <= avail {
            self.consume(len);
            return Ok(());
        }
        self.at = self.buf.len();
        let beyond = (len - avail) as i64;
        (&self.file)
            .seek(io::SeekFrom::Current(beyond))
            .map_err(Failure::Io)?;
        self.pos += len as u64;
        Ok(())
    }
}

/// The state of one pass over the file.
struct Walk {
    input: Input,
    c: Container<'static>,
    entries: Vec<ResultEntry>,
    /// The results in the current buffer, not handed to a decoder yet.
    items: Vec<Item>,
    /// Where chunks go to be decoded; closed once the file is read.
    jobs: Option<mpsc::Sender<Job>>,
    pool: Pool,
    /// The decoders' results.
    done: mpsc::Receiver<Vec<Done>>,
    /// The context of the names read so far, and how many there were.
    ctx: Option<((usize, usize), Arc<Context>)>,
    source: Arc<OnDemand>,
    /// The first result and a copy of its message: it holds the section body templates.
    first: Option<(ResultEntry, Vec<u8>)>,
}

impl Walk {
    fn run(&mut self, progress: &mut dyn FnMut(u64, u64)) -> Result<Report, Failure> {
        let size = self.input.size;
        if size < 4 {
            return Err(ParseError::NotAResult("no NVR magic".into()).into());
        }
        self.need(4, "magic", None)?;
        let magic = self.input.consume(4);
        if self.input.buf.get(magic) != Some(&crate::parse::detect::NCU_REP_MAGIC[..]) {
            return Err(ParseError::NotAResult("no NVR magic".into()).into());
        }
        let header = self.message(size, "file header", None)?;
        let file_header = FileHeader::decode(header.as_slice())
            .map_err(|e| corrupt(8, format!("file header: {e}")))?;
        let version = file_header.version.unwrap_or(0);
        if version != super::container::SUPPORTED_VERSION {
            return Err(ParseError::UnsupportedVersion(version).into());
        }
        self.c.version = version;
        while self.input.pos < size {
            let (entries, items) = (self.entries.len(), self.items.len());
            match self.block() {
                Ok(()) => {}
                Err(Failure::Parse(e)) => {
                    // The damaged block is dropped whole, as the in-memory walk does (results
                    // of it already handed to a decoder are passed over when they come back).
                    self.entries.truncate(entries);
                    self.items.truncate(items);
                    if entries == 0 {
                        self.first = None;
                    }
                    self.c.damage = Some(e);
                    break;
                }
                Err(io) => return Err(io),
            }
            progress(self.input.pos, size);
        }
        let rest = std::mem::take(&mut self.input.buf);
        self.dispatch(rest, None);
        drop(self.jobs.take());
        let mut decoded: Vec<Option<Decoded>> = Vec::new();
        decoded.resize_with(self.entries.len(), || None);
        for results in self.done.iter() {
            for (i, d) in results {
                if let Some(slot) = decoded.get_mut(i) {
                    *slot = d;
                }
            }
        }
        let ctx = Context::from_parts(self.c.strings.clone(), self.c.processes.clone());
        self.source.complete(ctx, std::mem::take(&mut self.entries));
        // The first body read in full, so what bodies hold that this reader does not know is
        // named from the start (each body read later adds to it); a body that cannot be read
        // says so when it is shown.
        let _ = self.source.decode(0);
        // Results that could not be decoded with the names known when they were read (names
        // may come after their users) are decoded again with all of them.
        let decoded: Vec<Result<Decoded, ParseError>> = decoded
            .into_iter()
            .enumerate()
            .map(|(i, d)| match d {
                Some(d) => Ok(d),
                None => self
                    .source
                    .decode_head(i)
                    .map(|d| with_body_on_demand(&self.source, d, i)),
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

    /// Makes `n` bytes available to consume, reading on. The results of a buffer read past go
    /// to a decoder; `pending` is the header of the block being read, whose names and process
    /// they may use.
    fn need(&mut self, n: usize, what: &str, pending: Option<&BlockHeader>) -> Result<(), Failure> {
        if self.input.available() >= n {
            return Ok(());
        }
        if self.items.is_empty() {
            self.input.compact();
        } else {
            let fresh = self.pool.take();
            let old = self.input.switch(fresh);
            self.dispatch(old, pending);
        }
        self.input.fill(n, what)
    }

    /// A little-endian length prefix whose message must end within `limit`.
    fn prefix(
        &mut self,
        limit: u64,
        what: &str,
        pending: Option<&BlockHeader>,
    ) -> Result<u32, Failure> {
        let at = self.input.pos;
        if limit.saturating_sub(at) < 4 {
            return Err(corrupt(at as usize, format!("{what}: length prefix cut off")).into());
        }
        self.need(4, what, pending)?;
        let range = self.input.consume(4);
        let mut b = [0u8; 4];
        b.copy_from_slice(self.input.buf.get(range).unwrap_or(&[0; 4]));
        let len = u32::from_le_bytes(b);
        let left = limit.saturating_sub(self.input.pos);
        if u64::from(len) > left {
            return Err(corrupt(
                at as usize,
                format!("{what}: length {len} runs past the end ({left} bytes remain)"),
            )
            .into());
        }
        Ok(len)
    }

    /// A length-prefixed message ending within `limit`, copied out (its length is checked
    /// against the file first).
    fn message(
        &mut self,
        limit: u64,
        what: &str,
        pending: Option<&BlockHeader>,
    ) -> Result<Vec<u8>, Failure> {
        let len = self.prefix(limit, what, pending)? as usize;
        self.need(len, what, pending)?;
        let range = self.input.consume(len);
        Ok(self.input.buf.get(range).unwrap_or(&[]).to_vec())
    }

    /// Reads one block: header, then its payload entries (results kept for decoding, the rest
    /// skipped). Nothing of a block that does not add up is kept.
    fn block(&mut self) -> Result<(), Failure> {
        let offset = self.input.pos;
        let header_bytes = self.message(self.input.size, "block header", None)?;
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
                let len = self.prefix(end, "payload entry", Some(&header))?;
                let Some(kind) = kind else {
                    self.input.skip(len)?;
                    continue;
                };
                if u64::from(len) > super::oversized::MAX_FIELD_BYTES {
                    // Larger than any result: decoded at the end through the on-demand reader,
                    // which leaves out its oversized fields, and never read whole here.
                    let entry = ResultEntry {
                        offset: self.input.pos,
                        len,
                        process,
                        kind,
                    };
                    if self.entries.is_empty() {
                        let bytes = self
                            .source
                            .read_compacted(entry.offset, len)
                            .map_err(Failure::Io)?;
                        self.first = Some((entry, bytes));
                    }
                    self.entries.push(entry);
                    self.input.skip(len)?;
                    continue;
                }
                self.need(len as usize, "result", Some(&header))?;
                let entry = ResultEntry {
                    offset: self.input.pos,
                    len,
                    process,
                    kind,
                };
                let range = self.input.consume(len as usize);
                if self.entries.is_empty() {
                    let bytes = self.input.buf.get(range.clone()).unwrap_or(&[]).to_vec();
                    self.first = Some((entry, bytes));
                }
                self.entries.push(entry);
                self.items.push(Item {
                    index: self.entries.len() - 1,
                    range,
                    entry,
                });
            }
        }
        let mut graphs = Vec::new();
        for _ in 0..header.num_graphs.unwrap_or(0) {
            let at = self.input.pos as usize + 4;
            graphs.push((at, self.message(end, "payload entry", Some(&header))?));
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

    /// Hands the results in `bytes` (the buffer just read past) to a decoder, with the names
    /// read so far. `pending` is the header of the block being read, whose names and process
    /// its results may use.
    fn dispatch(&mut self, bytes: Vec<u8>, pending: Option<&BlockHeader>) {
        if self.items.is_empty() {
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
        let ctx = match &self.ctx {
            Some((k, ctx)) if *k == key => Arc::clone(ctx),
            _ => {
                let mut strings = self.c.strings.clone();
                strings.extend_from_slice(extra_strings);
                let mut processes = self.c.processes.clone();
                processes.extend(extra_process.cloned());
                let ctx = Arc::new(Context::from_parts(strings, processes));
                self.ctx = Some((key, Arc::clone(&ctx)));
                ctx
            }
        };
        let job = Job {
            bytes,
            items: std::mem::take(&mut self.items),
            ctx,
        };
        // With no decoder left (one panicked, which the scope passes on), the results are
        // decoded at the end like those that failed.
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(job);
        }
    }
}
