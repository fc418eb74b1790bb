//! Texts made on every core and kept in temporary files until they can be written in order
//! (the pairs of `diff --format json`, whose document lists them after what only the whole
//! comparison tells). Each worker thread appends what it makes to a file of its own, in its
//! own buffer: the kernel copies into one file for one writer at a time, so one shared file,
//! written by the thread that puts the pieces in order, made that thread the bottleneck of
//! the whole comparison. The pieces are then copied to the output in order by the kernel.

use rayon::prelude::*;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::sync::Mutex;

/// Where one piece of text was kept: its file, where it starts there and its length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    file: usize,
    offset: u64,
    len: u64,
}

/// The temporary file of one thread and the buffer its pieces are made in.
#[derive(Default)]
struct Slot {
    file: Option<File>,
    len: u64,
    buffer: Vec<u8>,
}

/// Temporary files, one per worker thread (and one for any other thread), holding pieces
/// of text until [`Spill::copy_to`] writes them in order.
pub struct Spill {
    slots: Vec<Mutex<Slot>>,
}

impl Default for Spill {
    fn default() -> Self {
        Self::new()
    }
}

impl Spill {
    /// No file yet: each is made with the first piece of its thread.
    pub fn new() -> Self {
        Spill {
            slots: (0..=rayon::current_num_threads())
                .map(|_| Mutex::new(Slot::default()))
                .collect(),
        }
    }

    /// Keeps the text `make` appends to an empty buffer (one buffer per thread, reused) in the
    /// calling thread's file.
    pub fn put(&self, make: impl FnOnce(&mut Vec<u8>) -> io::Result<()>) -> io::Result<Piece> {
        let last = self.slots.len() - 1;
        let file = rayon::current_thread_index().map_or(last, |i| i.min(last));
        let slot = &self.slots[file];
        // The buffer is taken out while the text is made, so that no lock is held then.
        let mut buffer = std::mem::take(&mut lock(slot).buffer);
        buffer.clear();
        let made = make(&mut buffer);
        let mut slot = lock(slot);
        let kept = made.and_then(|()| {
            let offset = slot.len;
            let handle = match &mut slot.file {
                Some(handle) => handle,
                none => none.insert(tempfile::tempfile().map_err(|e| {
                    io::Error::new(e.kind(), format!("no temporary file to keep it in: {e}"))
                })?),
            };
            handle.write_all(&buffer)?;
            let len = buffer.len() as u64;
            slot.len += len;
            Ok(Piece { file, offset, len })
        });
        // The larger of the two buffers stays (another piece of this thread may have come
        // in between from work it took up while making this one).
        if buffer.capacity() > slot.buffer.capacity() {
            slot.buffer = buffer;
        }
        kept
    }

    /// Writes `pieces` in order, their first `skip` bytes left out, copied by the kernel where
    /// the output is a file or a pipe; the files are closed after, on every core (closing a
    /// file of gigabytes frees its pages).
    pub fn copy_to<W: Write>(self, pieces: &Pieces, out: &mut W, mut skip: u64) -> io::Result<()> {
        let mut files: Vec<Option<File>> = self
            .slots
            .into_iter()
            .map(|slot| {
                slot.into_inner()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .file
            })
            .collect();
        let mut copy = || -> io::Result<()> {
            for piece in &pieces.0 {
                let left = skip.min(piece.len);
                skip -= left;
                let Some(Some(file)) = files.get_mut(piece.file) else {
                    return Err(io::Error::other("a kept piece of the output has no file"));
                };
                file.seek(SeekFrom::Start(piece.offset + left))?;
                let len = piece.len - left;
                if io::copy(&mut Read::take(&*file, len), out)? != len {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "a kept piece of the output was cut short",
                    ));
                }
            }
            Ok(())
        };
        let copied = copy();
        files.par_iter_mut().for_each(|f| drop(f.take()));
        copied
    }
}

fn lock(slot: &Mutex<Slot>) -> std::sync::MutexGuard<'_, Slot> {
    slot.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The pieces of a [`Spill`] in the order they are to be written; pieces that follow each
/// other in one file are one.
#[derive(Debug, Default)]
pub struct Pieces(Vec<Piece>);

impl Pieces {
    /// Whether no piece was added.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Adds the next piece.
    pub fn push(&mut self, piece: Piece) {
        if let Some(last) = self.0.last_mut()
            && last.file == piece.file
            && last.offset + last.len == piece.offset
        {
            last.len += piece.len;
            return;
        }
        self.0.push(piece);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_made_on_every_core_come_back_in_order() {
        let texts: Vec<String> = (0..500)
            .map(|i| format!("<{i}:{}>", "x".repeat(i % 37)))
            .collect();
        let spill = Spill::new();
        let pieces: Vec<Piece> = texts
            .par_iter()
            .map(|t| {
                spill.put(|b| {
                    b.extend_from_slice(t.as_bytes());
                    Ok(())
                })
            })
            .collect::<io::Result<_>>()
            .unwrap();
        let mut list = Pieces::default();
        for p in pieces {
            list.push(p);
        }
        let mut out = Vec::new();
        spill.copy_to(&list, &mut out, 2).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), texts.concat()[2..]);
    }

    #[test]
    fn a_text_that_cannot_be_made_is_an_error() {
        let spill = Spill::new();
        let failed = spill.put(|b| {
            b.extend_from_slice(b"half");
            Err(io::Error::other("no"))
        });
        assert!(failed.is_err());
        let kept = spill.put(|b| {
            b.extend_from_slice(b"whole");
            Ok(())
        });
        let mut list = Pieces::default();
        list.push(kept.unwrap());
        let mut out = Vec::new();
        spill.copy_to(&list, &mut out, 0).unwrap();
        assert_eq!(out, b"whole");
    }
}
