//! zstd frames written block by block: RLE blocks make a stream of gigabytes from a file of
//! kilobytes, as a decompression bomb does, for the tests that a bomb stops early; and zstd as
//! `.ncu-repz` may be written, in several frames with a seek table.

/// Largest zstd block.
const BLOCK: usize = 128 << 10;

/// One zstd block.
pub enum Block<'a> {
    Raw(&'a [u8]),
    /// `n` copies of a byte.
    Rle(u8, usize),
}

/// A zstd frame of the blocks, made by hand: RLE blocks make a stream of gigabytes from a file
/// of kilobytes, as a bomb does.
pub fn zstd(blocks: &[Block<'_>]) -> Vec<u8> {
    // (block type, regenerated size, bytes stored).
    let mut parts: Vec<(u32, usize, &[u8])> = Vec::new();
    let bytes_of: Vec<[u8; 1]> = blocks
        .iter()
        .map(|b| match b {
            Block::Rle(byte, _) => [*byte],
            Block::Raw(_) => [0],
        })
        .collect();
    for (b, byte) in blocks.iter().zip(&bytes_of) {
        match b {
            Block::Raw(bytes) => parts.extend(bytes.chunks(BLOCK).map(|c| (0, c.len(), c))),
            Block::Rle(_, n) => parts.extend(
                (0..*n)
                    .step_by(BLOCK)
                    .map(|i| (1, (n - i).min(BLOCK), &byte[..])),
            ),
        }
    }
    // Magic; no content size, checksum or dictionary; a 128 KiB window.
    let mut out = vec![0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x38];
    let last = parts.len().saturating_sub(1);
    for (i, (kind, size, stored)) in parts.into_iter().enumerate() {
        let header = ((size as u32) << 3) | (kind << 1) | u32::from(i == last);
        out.extend_from_slice(&header.to_le_bytes()[..3]);
        out.extend_from_slice(stored);
    }
    out
}

/// zstd as `.ncu-repz` may be written: a skippable frame first, the data in several frames,
/// and a seek table in a skippable frame at the end.
pub fn zstd_frames(bytes: &[u8]) -> Vec<u8> {
    let mut out = skippable(0x184D_2A50, b"user metadata");
    let step = bytes.len() / 3 + 1;
    for chunk in bytes.chunks(step) {
        out.extend(ruzstd::encoding::compress_to_vec(
            chunk,
            ruzstd::encoding::CompressionLevel::Fastest,
        ));
    }
    // A seekable-zstd seek table: entries, then the footer (count, flags, magic).
    let mut table = Vec::new();
    for chunk in bytes.chunks(step) {
        table.extend(0u32.to_le_bytes());
        table.extend((chunk.len() as u32).to_le_bytes());
    }
    table.extend((bytes.chunks(step).count() as u32).to_le_bytes());
    table.push(0);
    table.extend(0x8F92_EAB1u32.to_le_bytes());
    out.extend(skippable(0x184D_2A5E, &table));
    out
}

/// A skippable zstd frame of `payload` with the given magic number.
pub fn skippable(magic: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = magic.to_le_bytes().to_vec();
    out.extend((payload.len() as u32).to_le_bytes());
    out.extend(payload);
    out
}
