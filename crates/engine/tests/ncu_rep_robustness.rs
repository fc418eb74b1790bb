//! Damaged `.ncu-rep` files: cut short at 500 points and with random bytes changed in 20,000
//! copies. The reader must never panic or hang, must report damage as `ParseError::Corrupt`
//! with an offset inside the file (or keep the results read before it, with a warning), and
//! must never make an allocation larger than a small multiple of the file.

use sightline_testkit::XorShift;

use prost::Message;
use sightline_engine::model::WarningKind;
use sightline_engine::parse::ParseError;
use sightline_engine::parse::ncu_rep::wire::{FieldIter, WireValue};
use sightline_engine::parse::ncu_rep::{self, messages::BlockHeader};
use sightline_testkit::largest_allocation::{self, LargestAllocation};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::time::Duration;

#[global_allocator]
static ALLOCATOR: LargestAllocation = LargestAllocation;

/// Tests run one at a time so that the global allocation high-water mark is their own.
static SERIAL: Mutex<()> = Mutex::new(());

/// The largest single allocation allowed while reading a file of `len` bytes.
fn allocation_limit(len: usize) -> usize {
    4 * len + 4096
}

// ---------------------------------------------------------------------------------------------
// Inputs.

fn basic() -> Vec<u8> {
    sightline_testkit::fixture_bytes("h100/kernels_basic.ncu-rep.xz")
}

/// Byte ranges of the blocks of a sound report.
fn blocks(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap()) as usize;
    let mut off = 8 + u32_at(4);
    let mut out = Vec::new();
    while off < bytes.len() {
        let len = u32_at(off);
        let header = BlockHeader::decode(&bytes[off + 4..off + 4 + len]).unwrap();
        let end = off + 4 + len + header.payload_size.unwrap_or(0) as usize;
        out.push(off..end);
        off = end;
    }
    out
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Re-encodes a `ProfileResult` keeping every field but only every `keep`-th metric entry.
fn thin_result(result: &[u8], keep: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut metric = 0;
    for field in FieldIter::new(result) {
        let field = field.unwrap();
        if field.number == 13 {
            metric += 1;
            if metric % keep != 0 {
                continue;
            }
        }
        let n = u64::from(field.number) << 3;
        match field.value {
            WireValue::Varint(v) => {
                put_varint(&mut out, n);
                put_varint(&mut out, v);
            }
            WireValue::Fixed64(v) => {
                put_varint(&mut out, n | 1);
                out.extend_from_slice(&v.to_le_bytes());
            }
            WireValue::Fixed32(v) => {
                put_varint(&mut out, n | 5);
                out.extend_from_slice(&v.to_le_bytes());
            }
            WireValue::Bytes(b) => {
                put_varint(&mut out, n | 2);
                put_varint(&mut out, b.len() as u64);
                out.extend_from_slice(b);
            }
        }
    }
    out
}

/// A smaller report made from `kernels_basic`: the file header, every session block and the
/// block with the string table and result 0, that result keeping one metric entry in four (and
/// all its sections and rules). No cubin, no later results. Blocks are self-contained, so this
/// is a valid report; it decodes in well under a millisecond, which keeps 20,000 damaged copies
/// affordable.
fn one_result_report(bytes: &[u8]) -> Vec<u8> {
    let all = blocks(bytes);
    let mut out = bytes[..all[0].start].to_vec();
    let mut kept_result = false;
    for b in all {
        let len = u32::from_le_bytes(bytes[b.start..b.start + 4].try_into().unwrap()) as usize;
        let mut h = BlockHeader::decode(&bytes[b.start + 4..b.start + 4 + len]).unwrap();
        if h.num_sources.unwrap_or(0) > 0 {
            continue;
        }
        if h.num_results.unwrap_or(0) == 0 {
            out.extend_from_slice(&bytes[b]);
            continue;
        }
        if kept_result {
            continue; // Only the first result.
        }
        kept_result = true;
        let payload = b.start + 4 + len;
        let n = u32::from_le_bytes(bytes[payload..payload + 4].try_into().unwrap()) as usize;
        let result = thin_result(&bytes[payload + 4..payload + 4 + n], 4);
        h.payload_size = Some(4 + result.len() as u32);
        let header = h.encode_to_vec();
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(&header);
        out.extend_from_slice(&(result.len() as u32).to_le_bytes());
        out.extend_from_slice(&result);
    }
    out
}

/// What reading damaged bytes gave.
enum Outcome {
    Results(usize),
    Failed,
}

/// Reads damaged bytes and checks every promise: no panic, no hang, errors with offsets inside
/// the file, partial reports with a warning, bounded allocations.
/// `same_thread`: the reader decodes on the calling thread (reports of one result), so the
/// thread's own high-water mark is used and several copies can be read at once.
fn read_damaged(bytes: &[u8], same_thread: bool, what: &dyn Fn() -> String) -> Outcome {
    largest_allocation::reset();
    // Work done, not wall time (which grows when the machine is busy): the thread's CPU time
    // when it decodes alone, else the process's (the tests run one at a time).
    let cpu_time = if same_thread {
        sightline_testkit::cpu_time::thread_cpu_time
    } else {
        sightline_testkit::cpu_time::process_cpu_time
    };
    let start = cpu_time();
    let result = catch_unwind(AssertUnwindSafe(|| ncu_rep::parse(bytes)));
    let elapsed = cpu_time().saturating_sub(start);
    let largest = if same_thread {
        largest_allocation::largest_here()
    } else {
        largest_allocation::largest()
    };
    let result = result.unwrap_or_else(|_| panic!("panic reading {}", what()));
    assert!(
        elapsed < Duration::from_secs(5),
        "{} took {elapsed:?} of CPU time",
        what()
    );
    assert!(
        largest <= allocation_limit(bytes.len()),
        "{}: allocation of {largest} bytes for a file of {}",
        what(),
        bytes.len()
    );
    match result {
        Ok(report) => {
            for r in &report.results {
                assert!(r.metrics().len() <= bytes.len());
            }
            Outcome::Results(report.results.len())
        }
        Err(ParseError::Corrupt { offset, message }) => {
            assert!(
                offset <= bytes.len() as u64,
                "{}: offset {offset} ({message})",
                what()
            );
            assert!(!message.is_empty());
            Outcome::Failed
        }
        Err(ParseError::NotAResult(_) | ParseError::UnsupportedVersion(_)) => Outcome::Failed,
        Err(e) => panic!("{}: unexpected error {e}", what()),
    }
}

// ---------------------------------------------------------------------------------------------

#[test]
fn truncated_files_keep_what_came_before() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let full = basic();
    let sound = ncu_rep::parse(&full).unwrap();
    assert_eq!(sound.results.len(), 13);
    assert!(sound.warnings.is_empty());

    // 500 cut points: the first 40 bytes one by one, the rest spread over the file.
    let mut cuts: Vec<usize> = (0..40).collect();
    let step = full.len() / 460;
    cuts.extend((0..460).map(|i| 40 + i * step + i % 7));
    let mut last = 0;
    let mut partial = 0;
    for &cut in &cuts {
        let bytes = &full[..cut.min(full.len() - 1)];
        match read_damaged(bytes, false, &|| format!("cut at {cut}")) {
            Outcome::Results(n) => {
                assert!(n >= last, "cut at {cut}: {n} results after {last}");
                assert!(n < 13);
                last = n;
                partial += 1;
            }
            Outcome::Failed => assert_eq!(last, 0, "cut at {cut}: error after results were read"),
        }
    }
    // A cut inside the tenth result keeps the nine before it, and says so.
    let entries = ncu_rep::container(&full).unwrap().results;
    let report = ncu_rep::parse(&full[..entries[9].offset + 1000]).unwrap();
    assert_eq!(report.results.len(), 9);
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    assert_eq!(report.warnings[0].kind, WarningKind::Damaged);
    assert!(partial > 300, "{partial}");
    // A cut inside the block of the first result: an error at the start of that block.
    let first = blocks(&full)
        .into_iter()
        .find(|b| b.contains(&entries[0].offset))
        .unwrap();
    match ncu_rep::parse(&full[..entries[0].offset + 100]) {
        Err(ParseError::Corrupt { offset, .. }) => assert_eq!(offset, first.start as u64),
        other => panic!("{:?}", other.map(|r| r.results.len())),
    }
}

#[test]
fn flipped_bytes_never_panic() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let small = one_result_report(&basic());
    let sound = ncu_rep::parse(&small).unwrap();
    assert_eq!(sound.results.len(), 1);
    assert!(sound.results[0].metrics().len() > 100);
    assert!(sound.results[0].sections().len() >= 4);
    const COPIES: u64 = 20_000;
    const WORKERS: u64 = 2;
    let (ok, failed) = std::thread::scope(|s| {
        let workers: Vec<_> = (0..WORKERS)
            .map(|w| {
                let small = &small;
                s.spawn(move || {
                    let (mut ok, mut failed) = (0u64, 0u64);
                    for copy in (w..COPIES).step_by(WORKERS as usize) {
                        let mut rng = XorShift(
                            0x9e37_79b9_7f4a_7c15 ^ (copy + 1).wrapping_mul(0x0100_0000_01b3),
                        );
                        let mut bytes = small.clone();
                        let mut changed = Vec::new();
                        for _ in 0..1 + rng.below(4) {
                            // Half of the changes land in the first 2 KB: the container framing,
                            // the session and the start of the string table.
                            let at = if rng.below(2) == 0 {
                                rng.below(2048)
                            } else {
                                rng.below(bytes.len())
                            };
                            let value = rng.next_u64() as u8;
                            bytes[at] = if value == bytes[at] { !value } else { value };
                            changed.push(at);
                        }
                        let what = || format!("copy {copy}, bytes {changed:?} changed");
                        match read_damaged(&bytes, true, &what) {
                            Outcome::Results(_) => ok += 1,
                            Outcome::Failed => failed += 1,
                        }
                    }
                    (ok, failed)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap())
            .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    });
    println!("{COPIES} damaged copies: {ok} read, {failed} rejected as corrupt");
    assert_eq!(ok + failed, COPIES);
    assert!(failed > 1_000 && ok > 1_000, "{ok} / {failed}");
}

#[test]
fn damaged_complete_file_with_its_cubin() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let full = basic();
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    for copy in 0..150 {
        let mut bytes = full.clone();
        let at = rng.below(bytes.len());
        bytes[at] ^= 1 << rng.below(8);
        read_damaged(&bytes, false, &|| {
            format!("full copy {copy}, byte {at} changed")
        });
        // The on-request APIs read the same damaged bytes.
        let _ = catch_unwind(AssertUnwindSafe(|| ncu_rep::modules(&bytes)))
            .unwrap_or_else(|_| panic!("modules: byte {at}"));
        let _ = catch_unwind(AssertUnwindSafe(|| ncu_rep::source_files(&bytes)))
            .unwrap_or_else(|_| panic!("source_files: byte {at}"));
    }
}

#[test]
fn hostile_lengths_and_versions() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let full = basic();
    // An unknown container version.
    let mut v8 = full[..200].to_vec();
    v8[9] = 8;
    assert!(matches!(
        ncu_rep::parse(&v8),
        Err(ParseError::UnsupportedVersion(8))
    ));
    // A block header length of 4 GB and a payload size larger than the file.
    for at in [10usize, 0x9b] {
        let mut bytes = full.clone();
        if at == 10 {
            bytes[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        } else {
            // payload_size of block 1 (0x9b: `28 CE A3 07`) becomes 2 MB, more than the file.
            assert_eq!(bytes[at], 0x28);
            bytes[at + 1..at + 4].copy_from_slice(&[0xff, 0xff, 0x7f]);
        }
        match read_damaged(&bytes, false, &|| format!("huge length at {at}")) {
            Outcome::Failed => {}
            Outcome::Results(n) => panic!("{n} results from a file with an impossible length"),
        }
    }
    // Magic only, and nothing.
    assert!(ncu_rep::parse(b"NVR\0").is_err());
    assert!(ncu_rep::parse(b"").is_err());
}
