//! The container of an `.ncu-rep` checked as its bytes stream past, before they are kept: the
//! magic, the file header, and every block's header and payload size. Decompressing a report
//! feeds it each chunk, so that a damaged stream (a report's start followed by gigabytes of
//! zeros, a block that claims more than the stream holds) stops at its first damaged block
//! instead of being written out whole and found damaged afterwards.

use super::messages::BlockHeader;
use prost::Message;

/// The largest block header or file header accepted (real ones are kilobytes: counts, a
/// delta of the string table, a piece of the session).
const MAX_HEADER: u32 = 256 << 20;

/// Where the check stands in the container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// The 4 magic bytes.
    Magic,
    /// A 4-byte length, then a message of that length: the file header (`block: false`) or a
    /// block header.
    Length { block: bool },
    /// The message of `len` bytes after a length.
    Header { block: bool, len: u32 },
    /// Payload bytes of the current block still to come.
    Payload(u64),
}

/// A streaming check of an `.ncu-rep` container.
#[derive(Debug)]
pub struct ContainerCheck {
    expect: Expect,
    /// Bytes of the current length or header gathered so far.
    partial: Vec<u8>,
    /// Bytes fed so far.
    offset: u64,
    /// Where the current block started.
    block_start: u64,
}

impl Default for ContainerCheck {
    fn default() -> Self {
        ContainerCheck {
            expect: Expect::Magic,
            partial: Vec::new(),
            offset: 0,
            block_start: 0,
        }
    }
}

impl ContainerCheck {
    /// Checks the next bytes of the stream; the error says where and what is damaged.
    pub fn feed(&mut self, mut data: &[u8]) -> Result<(), String> {
        while !data.is_empty() {
            match self.expect {
                Expect::Payload(left) => {
                    let n = usize::try_from(left).unwrap_or(usize::MAX).min(data.len());
                    data = &data[n..];
                    self.offset += n as u64;
                    let left = left - n as u64;
                    self.expect = if left == 0 {
                        self.block_start = self.offset;
                        Expect::Length { block: true }
                    } else {
                        Expect::Payload(left)
                    };
                }
                Expect::Magic | Expect::Length { .. } | Expect::Header { .. } => {
                    let want = match self.expect {
                        Expect::Header { len, .. } => len as usize,
                        _ => 4,
                    };
                    let n = (want - self.partial.len()).min(data.len());
                    self.partial.extend_from_slice(&data[..n]);
                    data = &data[n..];
                    self.offset += n as u64;
                    if self.partial.len() == want {
                        let bytes = std::mem::take(&mut self.partial);
                        self.expect = self.next(&bytes)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// What follows a complete magic, length or header.
    fn next(&mut self, bytes: &[u8]) -> Result<Expect, String> {
        let at = self.block_start;
        match self.expect {
            Expect::Magic => {
                if bytes != crate::parse::detect::NCU_REP_MAGIC {
                    return Err("no NVR magic".into());
                }
                Ok(Expect::Length { block: false })
            }
            Expect::Length { block } => {
                let len = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
                if block && len == 0 {
                    return Err(format!("the block at byte {at} has an empty header"));
                }
                if len > MAX_HEADER {
                    return Err(format!(
                        "the header at byte {at} claims {len} bytes (at most {MAX_HEADER})"
                    ));
                }
                if len == 0 {
                    self.block_start = self.offset;
                    return Ok(Expect::Length { block: true });
                }
                Ok(Expect::Header { block, len })
            }
            Expect::Header { block: false, .. } => {
                self.block_start = self.offset;
                Ok(Expect::Length { block: true })
            }
            Expect::Header { block: true, .. } => {
                let header = BlockHeader::decode(bytes)
                    .map_err(|e| format!("the block header at byte {at} cannot be read: {e}"))?;
                if header == BlockHeader::default() {
                    return Err(format!("the block at byte {at} has an empty header"));
                }
                match header.payload_size.unwrap_or(0) {
                    0 => {
                        self.block_start = self.offset;
                        Ok(Expect::Length { block: true })
                    }
                    p => Ok(Expect::Payload(u64::from(p))),
                }
            }
            Expect::Payload(_) => Ok(self.expect),
        }
    }

    /// At the end of the stream: whether it ended where a block may end.
    pub fn finish(&self) -> Result<(), String> {
        match self.expect {
            Expect::Length { block: true } if self.partial.is_empty() => Ok(()),
            _ => Err(format!(
                "the stream ends inside the block at byte {}",
                self.block_start
            )),
        }
    }

    /// Bytes checked so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Payload bytes of the current block still to come (0 outside a payload).
    pub fn payload_left(&self) -> u64 {
        match self.expect {
            Expect::Payload(left) => left,
            _ => 0,
        }
    }

    /// Passes over the rest of the current block's payload unread (a reader that can seek).
    pub fn skip_payload(&mut self) {
        if let Expect::Payload(left) = self.expect {
            self.offset += left;
            self.block_start = self.offset;
            self.expect = Expect::Length { block: true };
        }
    }
}

/// Whether the `.ncu-rep` at `path` ends where a block ends, reading its block headers only
/// (payloads are passed over by seeking, so a report of gigabytes still being written costs a
/// few reads per look): a report whose write is cut short, or still under way mid-block, does
/// not. `None` when the file is no `.ncu-rep` (another form, or compressed), so its end cannot
/// be told this way. Bytes after the magic that are damaged count as not whole.
pub fn ends_whole(path: &std::path::Path) -> std::io::Result<Option<bool>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path)?;
    let size = file.metadata()?.len();
    let mut magic = [0u8; 4];
    let got = file.read(&mut magic)?;
    if got < 4 || &magic != crate::parse::detect::NCU_REP_MAGIC {
        return Ok(None);
    }
    let mut check = ContainerCheck::default();
    if check.feed(&magic).is_err() {
        return Ok(Some(false));
    }
    // Headers are small: reads of a few kilobytes, each fed whole (the payload bytes they
    // hold too), then the rest of a payload skipped.
    let mut buf = vec![0u8; 4 << 10];
    loop {
        let left = check.payload_left();
        if left > 0 {
            let end = check.offset().saturating_add(left);
            if end > size {
                return Ok(Some(false));
            }
            file.seek(SeekFrom::Start(end))?;
            check.skip_payload();
        }
        let n = file.read(&mut buf)?;
        if n == 0 {
            return Ok(Some(check.finish().is_ok()));
        }
        if check.feed(&buf[..n]).is_err() {
            return Ok(Some(false));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report's bytes: magic, a 2-byte file header, then blocks of (header, payload).
    fn container(blocks: &[(BlockHeader, usize)]) -> Vec<u8> {
        let mut out = b"NVR\0".to_vec();
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&[0x08, 0x07]);
        for (h, payload) in blocks {
            let bytes = h.encode_to_vec();
            out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
            out.extend_from_slice(&bytes);
            out.extend(std::iter::repeat_n(0xAB, *payload));
        }
        out
    }

    fn header(payload: u32) -> BlockHeader {
        BlockHeader {
            num_results: Some(1),
            payload_size: Some(payload),
            ..BlockHeader::default()
        }
    }

    #[test]
    fn a_sound_container_passes_in_any_chunking() {
        let bytes = container(&[(header(100), 100), (header(7), 7)]);
        for chunk in [1, 3, 4, 9, 64, bytes.len()] {
            let mut c = ContainerCheck::default();
            for part in bytes.chunks(chunk) {
                c.feed(part).unwrap();
            }
            c.finish().unwrap();
            assert_eq!(c.offset(), bytes.len() as u64);
        }
    }

    #[test]
    fn zeros_after_a_sound_start_stop_at_the_first_block_they_damage() {
        let mut bytes = container(&[(header(10), 10)]);
        let sound = bytes.len();
        bytes.extend(std::iter::repeat_n(0u8, 1 << 20));
        let mut c = ContainerCheck::default();
        let err = c.feed(&bytes).unwrap_err();
        assert_eq!(
            err,
            format!("the block at byte {sound} has an empty header")
        );
        // A block cut short is damage at the end.
        let cut = container(&[(header(10), 4)]);
        let mut c = ContainerCheck::default();
        c.feed(&cut).unwrap();
        assert!(c.finish().is_err());
        // Another file's bytes: no magic.
        assert!(ContainerCheck::default().feed(b"PK\x03\x04....").is_err());
    }

    /// `ends_whole` skips payloads by seeking and gives the answer of the byte-by-byte check
    /// at every cut of a container whose payloads outgrow its reads.
    #[test]
    fn ends_whole_skips_payloads_and_agrees_with_the_streaming_check() {
        let bytes = container(&[
            (header(10_000), 10_000),
            (header(3), 3),
            (header(9_000), 9_000),
        ]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.ncu-rep");
        for cut in (0..=bytes.len()).step_by(97).chain([bytes.len()]) {
            std::fs::write(&path, &bytes[..cut]).unwrap();
            let mut c = ContainerCheck::default();
            let streamed = c.feed(&bytes[..cut]).is_ok() && c.finish().is_ok();
            let got = ends_whole(&path).unwrap();
            if cut < 4 {
                assert_eq!(got, None, "cut {cut}");
            } else {
                assert_eq!(got, Some(streamed), "cut {cut}");
            }
        }
    }
}
