//! Reading a file window by window, a batch of windows parsed at once on every core, in bounded
//! memory whatever its lines: a line is read up to [`Windows::max_window_bytes`] and a longer
//! one is never held (it becomes a hole of its window, read as an empty line, and is named in a
//! warning); a window that would grow past that bound at a line that opens no result ends
//! there, and the lines up to the next line that opens one are skipped and named (ncu never
//! writes a result that large: such text is damage, and holding it would make a window as
//! large as the file).

use super::cuts::Cutter;
use super::source::TextSource;
use super::{Hole, Parsed, WindowAt, Windows, windows_in_flight};
use crate::model::{BodyHead, KernelResult, Warning, WarningKind};
use crate::parse::ParseError;
use crate::parse::cli_text::Wanted;
use crate::parse::skipped::Skipped;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};

/// Why reading the windows stopped.
pub enum WindowError {
    Io(io::Error),
    Parse(ParseError),
}

/// What reading the windows gives: each window's parse (bodies taken out), the results'
/// heads in order, where each window is, and the warnings of what was not read.
pub struct Windowed {
    pub parts: Vec<Parsed>,
    pub heads: Vec<BodyHead>,
    pub at: Vec<WindowAt>,
    pub warnings: Vec<Warning>,
}

/// The window being filled.
#[derive(Default)]
struct Filling {
    bytes: Vec<u8>,
    start: u64,
    lines_before: usize,
    holes: Vec<Hole>,
}

/// Lines being skipped after a window that grew past the bound: from which line, how many.
struct Skipping {
    first_line: usize,
    lines: usize,
}

/// Reads the file window by window, parsing a batch of windows at once on all cores while the
/// next batch is read.
pub fn read_windows(
    source: &TextSource,
    file: File,
    size: u64,
    mut cut: Cutter,
    windows: Windows,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Windowed, WindowError> {
    let workers = windows_in_flight();
    let max = windows.max_window_bytes.max(1);
    let mut input = BufReader::with_capacity(1 << 20, file.take(size));
    let mut out = Windowed {
        parts: Vec::new(),
        heads: Vec::new(),
        at: Vec::new(),
        warnings: Vec::new(),
    };
    let mut buffers = Buffers::new(windows.window_bytes);
    let mut batch: Vec<(WindowAt, Vec<u8>)> = Vec::new();
    let mut window = Filling {
        bytes: buffers.take(),
        ..Filling::default()
    };
    let mut long_lines = Skipped::new("line", "line");
    let mut skipping: Option<Skipping> = None;
    let (mut offset, mut lines) = (0u64, 0usize);
    std::thread::scope(|scope| {
        let mut parsing: Option<InFlight<'_>> = None;
        loop {
            // The line is read onto the end of the window, and moved to the next window when
            // the window ends before it.
            let mut at = window.bytes.len();
            let (spanned, too_long) =
                next_line(&mut input, &mut window.bytes, max).map_err(WindowError::Io)?;
            let end = spanned == 0;
            let line_len = window.bytes.len() - at;
            // Every line goes through the cutter, in order, whether the window is cut there or
            // not (a line too long to hold as the empty line it is read as).
            let starts = !end && cut.may_start(&window.bytes[at..]);
            if let Some(skipped) = skipping.as_ref()
                && (end || starts)
            {
                out.warnings.push(skipped_warning(skipped, max));
                skipping = None;
                window.start = offset;
                window.lines_before = lines;
            }
            let grown = at > 0 && at + line_len > max;
            let bound = !end && !starts && skipping.is_none() && grown;
            let full = at >= windows.window_bytes || grown;
            if end || bound || (starts && full) {
                if at > 0 {
                    let mut next = Filling {
                        bytes: buffers.take(),
                        start: offset,
                        lines_before: lines,
                        ..Filling::default()
                    };
                    next.bytes.extend_from_slice(&window.bytes[at..]);
                    window.bytes.truncate(at);
                    at = 0;
                    let full = std::mem::replace(&mut window, next);
                    batch.push((
                        WindowAt {
                            start: full.start,
                            span: offset - full.start,
                            holes: full.holes,
                            lines_before: full.lines_before,
                            last: end,
                            first_result: 0,
                            results: 0,
                            numbers: None,
                        },
                        full.bytes,
                    ));
                }
                if batch.len() >= workers || end {
                    // One batch is parsed while the next is read.
                    if let Some(done) = parsing.take() {
                        done.join(&mut out, &mut buffers)?;
                        progress(offset, size);
                    }
                    let taken = std::mem::take(&mut batch);
                    parsing = Some(InFlight::spawn(scope, source, out.at.len(), taken));
                }
                if end {
                    break;
                }
                if bound {
                    skipping = Some(Skipping {
                        first_line: lines + 1,
                        lines: 0,
                    });
                }
            }
            let ended = usize::from(window.bytes.last() == Some(&b'\n') && line_len > 0);
            if let Some(skipped) = skipping.as_mut() {
                skipped.lines += 1;
                window.bytes.truncate(at);
            } else if too_long {
                long_lines.add(&format!("longer than {} MiB", max >> 20), lines + 1);
                window.holes.push(Hole {
                    at: offset,
                    len: spanned - ended as u64,
                });
            }
            offset += spanned;
            lines += ended;
            if skipping.is_some() {
                window.start = offset;
                window.lines_before = lines;
            }
        }
        if let Some(done) = parsing.take() {
            done.join(&mut out, &mut buffers)?;
            progress(offset, size);
        }
        Ok::<(), WindowError>(())
    })?;
    out.warnings.extend(long_lines.warnings());
    Ok(out)
}

/// The windows' byte buffers, used again once their windows are parsed, so that reading a
/// large file touches the same few megabytes instead of new memory for every window.
struct Buffers {
    spare: Vec<Vec<u8>>,
    capacity: usize,
}

impl Buffers {
    fn new(window_bytes: usize) -> Self {
        Buffers {
            spare: Vec::new(),
            // A window ends at the first result after it fills: room for it past the size.
            capacity: window_bytes.saturating_add(window_bytes / 4),
        }
    }

    fn take(&mut self) -> Vec<u8> {
        self.spare
            .pop()
            .unwrap_or_else(|| Vec::with_capacity(self.capacity))
    }

    fn give_back(&mut self, mut bytes: Vec<u8>) {
        if bytes.capacity() <= self.capacity.saturating_mul(2) {
            bytes.clear();
            self.spare.push(bytes);
        }
    }
}

/// A batch of windows being parsed on threads of their own.
struct InFlight<'scope> {
    handle: std::thread::ScopedJoinHandle<'scope, Batch>,
}

/// A batch of windows with what parsing each gave.
type Batch = (
    Vec<(WindowAt, Vec<u8>)>,
    Vec<Result<(Parsed, Vec<BodyHead>), ParseError>>,
);

impl<'scope> InFlight<'scope> {
    /// Starts parsing `batch`, whose first window is window `first_window` of the file.
    fn spawn<'env>(
        scope: &'scope std::thread::Scope<'scope, 'env>,
        source: &'env TextSource,
        first_window: usize,
        batch: Vec<(WindowAt, Vec<u8>)>,
    ) -> Self {
        let handle = scope.spawn(move || {
            let parsed = parse_windows(
                source,
                batch
                    .iter()
                    .enumerate()
                    .map(|(i, (at, raw))| (first_window + i, at, raw.as_slice())),
            );
            (batch, parsed)
        });
        InFlight { handle }
    }

    /// Waits for the batch and appends what its windows hold, in order.
    fn join(self, out: &mut Windowed, buffers: &mut Buffers) -> Result<(), WindowError> {
        let (batch, parsed) = self
            .handle
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e));
        for ((mut w, raw), result) in batch.into_iter().zip(parsed) {
            buffers.give_back(raw);
            let (part, part_heads) = result.map_err(WindowError::Parse)?;
            w.first_result = out.heads.len();
            w.results = part_heads.len();
            out.heads.extend(part_heads);
            out.parts.push(part);
            out.at.push(w);
        }
        Ok(())
    }
}

/// The warning for lines skipped after a window that grew past the bound.
fn skipped_warning(skipped: &Skipping, max: usize) -> Warning {
    let last = skipped.first_line + skipped.lines.saturating_sub(1);
    let plural = if skipped.lines == 1 { "" } else { "s" };
    Warning::new(
        WarningKind::Skipped,
        format!(
            "{} line{plural} skipped (lines {}-{last}): the text before them grew past {} MiB \
             without a line that opens a result, more than ncu writes for one result; what \
             came before line {} is read",
            skipped.lines,
            skipped.first_line,
            max >> 20,
            skipped.first_line
        ),
    )
}

/// Reads the next line of `input` onto the end of `buf`, keeping at most `max` bytes of it: a
/// longer line is read past and leaves only its line end. Returns the bytes the line spans in
/// the file (0 at the end) and whether it was longer than `max`.
fn next_line(input: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> io::Result<(u64, bool)> {
    let at = buf.len();
    let mut spanned = 0u64;
    let mut too_long = false;
    let mut ended = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        let (n, done) = match memchr::memchr(b'\n', chunk) {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if !too_long {
            buf.extend_from_slice(&chunk[..n]);
            let content = buf.len() - at - usize::from(done);
            if content > max {
                too_long = true;
                buf.truncate(at);
            }
        }
        input.consume(n);
        spanned += n as u64;
        if done {
            ended = true;
            break;
        }
    }
    if too_long && ended {
        // The line end stays, so that lines keep their numbers.
        buf.push(b'\n');
    }
    Ok((spanned, too_long))
}

/// Parses windows `(index, where, raw bytes)` at once, one thread each, their bodies taken out.
pub fn parse_windows<'a>(
    source: &TextSource,
    windows: impl Iterator<Item = (usize, &'a WindowAt, &'a [u8])>,
) -> Vec<Result<(Parsed, Vec<BodyHead>), ParseError>> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = windows
            .map(|(index, at, raw)| {
                scope.spawn(move || {
                    let mut parsed = source.reading().parse(raw, at, index, Wanted::Heads)?;
                    let heads = take_bodies(&mut parsed.report_mut().results);
                    Ok((parsed, heads))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// Takes the bodies out of `results`, keeping their heads.
fn take_bodies(results: &mut [KernelResult]) -> Vec<BodyHead> {
    results
        .iter_mut()
        .map(|r| BodyHead::of(std::mem::take(&mut r.content).get()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::next_line;

    #[test]
    fn a_line_longer_than_the_bound_is_read_past_not_held() {
        let text = b"short\nxxxxxxxxxxxxxxxxxxxx\nlast";
        let mut input = std::io::BufReader::with_capacity(4, &text[..]);
        let mut line = Vec::new();
        assert_eq!(next_line(&mut input, &mut line, 8).unwrap(), (6, false));
        assert_eq!(line, b"short\n");
        // Lines are read onto the end of what the buffer holds.
        assert_eq!(next_line(&mut input, &mut line, 8).unwrap(), (21, true));
        assert_eq!(line, b"short\n\n");
        line.clear();
        assert_eq!(next_line(&mut input, &mut line, 8).unwrap(), (4, false));
        assert_eq!(line, b"last");
        line.clear();
        assert_eq!(next_line(&mut input, &mut line, 8).unwrap(), (0, false));
        assert!(line.is_empty());
        let mut input = std::io::BufReader::with_capacity(4, &b"0123456789"[..]);
        line.extend_from_slice(b"kept");
        assert_eq!(next_line(&mut input, &mut line, 8).unwrap(), (10, true));
        assert_eq!(line, b"kept");
    }
}
