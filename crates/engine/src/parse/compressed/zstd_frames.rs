//! A zstd stream of any number of frames, read as one: each frame is decoded in turn (with
//! its checksum checked where it has one), and skippable frames (a seekable-zstd writer's seek
//! table, user metadata) are passed over.

use ruzstd::decoding::errors::{FrameDecoderError, ReadFrameHeaderError};
use ruzstd::decoding::{BlockDecodingStrategy, FrameDecoder};
use std::io::{self, BufRead, Read};

/// The largest window a frame may ask for: what `zstd --long=31` writes. A header asking for
/// more is refused before anything is allocated.
const MAX_WINDOW: u64 = 1 << 31;

/// Decodes every frame of `source`, one after the other.
pub struct ZstdFrames<R> {
    source: R,
    decoder: FrameDecoder,
    in_frame: bool,
    /// Frames of data decoded so far.
    frames: u64,
}

impl<R: BufRead> ZstdFrames<R> {
    pub fn new(source: R) -> Self {
        let mut decoder = FrameDecoder::new();
        decoder.set_max_window_size(MAX_WINDOW);
        ZstdFrames {
            source,
            decoder,
            in_frame: false,
            frames: 0,
        }
    }

    /// Starts the next frame; `Ok(false)` at the end of the stream.
    fn next_frame(&mut self) -> io::Result<bool> {
        loop {
            if self.source.fill_buf()?.is_empty() {
                if self.frames == 0 {
                    return Err(damaged("the stream holds no zstd frame"));
                }
                return Ok(false);
            }
            match self.decoder.init(&mut self.source) {
                Ok(()) => {
                    self.in_frame = true;
                    self.frames += 1;
                    return Ok(true);
                }
                Err(FrameDecoderError::ReadFrameHeaderError(ReadFrameHeaderError::SkipFrame {
                    length,
                    ..
                })) => {
                    let skipped = io::copy(
                        &mut (&mut self.source).take(u64::from(length)),
                        &mut io::sink(),
                    )?;
                    if skipped != u64::from(length) {
                        return Err(damaged("a skippable frame is cut off"));
                    }
                }
                Err(e) => {
                    return Err(damaged(&format!(
                        "frame {}: {}",
                        self.frames + 1,
                        in_words(&e.to_string())
                    )));
                }
            }
        }
    }

    /// Checks the finished frame's checksum, where it has one.
    fn check_frame(&self) -> io::Result<()> {
        match (
            self.decoder.get_checksum_from_data(),
            self.decoder.get_calculated_checksum(),
        ) {
            (Some(stored), Some(computed)) if stored != computed => Err(damaged(&format!(
                "frame {}: checksum mismatch (the data is damaged)",
                self.frames
            ))),
            _ => Ok(()),
        }
    }
}

impl<R: BufRead> Read for ZstdFrames<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if self.in_frame {
                while self.decoder.can_collect() == 0 && !self.decoder.is_finished() {
                    self.decoder
                        .decode_blocks(&mut self.source, BlockDecodingStrategy::UptoBlocks(1))
                        .map_err(|e| {
                            damaged(&format!(
                                "frame {}: {}",
                                self.frames,
                                in_words(&e.to_string())
                            ))
                        })?;
                }
                let n = self.decoder.read(buf)?;
                if n > 0 {
                    return Ok(n);
                }
                self.in_frame = false;
                self.check_frame()?;
            }
            if !self.next_frame()? {
                return Ok(0);
            }
        }
    }
}

/// A decoder error in words: its messages print nested Rust values
/// (`BlockContentReadError(Error { kind: UnexpectedEof, … })`, `BadMagicNumber(134777631)`).
fn in_words(message: &str) -> String {
    if message.contains("UnexpectedEof") || message.contains("failed to fill whole buffer") {
        return "the stream is cut off".into();
    }
    if message.contains("BadMagicNumber") {
        return "no zstd frame starts here (the bytes are no zstd data)".into();
    }
    if !message.contains(['(', '{']) {
        return message.to_string();
    }
    // The outermost name, `SomeKindOfError`, as words.
    let name: String = message
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    let mut words = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() && !words.is_empty() {
            words.push(' ');
        }
        words.push(c.to_ascii_lowercase());
    }
    if words.is_empty() {
        "the data is damaged".into()
    } else {
        format!("the data is damaged ({words})")
    }
}

/// Damage in the stream.
fn damaged(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message.to_string())
}
