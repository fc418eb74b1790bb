//! Reports opened from a file keep only each result's head and decode a result's body when it
//! is asked for: the values are those of reading the whole file at once, bodies can be
//! released again, and damaged or foreign files are refused without being read whole.

use sightline_engine::analysis::headline::headline;
use sightline_engine::model::{BodyHead, Report};
use sightline_engine::parse::{LoadError, ParseError, load_path, ncu_rep};
use sightline_testkit::fixture_bytes;
use std::path::PathBuf;

/// A file of its own in the temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, bytes: &[u8]) -> TempFile {
        let path =
            std::env::temp_dir().join(format!("sightline-ondemand-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Every native report among the fixtures.
const REPORTS: [&str; 16] = [
    "h100/kernels_basic.ncu-rep.xz",
    "h100/kernels_full.ncu-rep.xz",
    "big/many_basic.ncu-rep.xz",
    "tensor/tensor_full.ncu-rep.xz",
    "variants/multiproc.ncu-rep.xz",
    "variants/metrics_only.ncu-rep.xz",
    "source/inl_src.ncu-rep.xz",
    "source/inl_nosrc.ncu-rep.xz",
    "range/range_kernels.ncu-rep.xz",
    "range/range_nvtx.ncu-rep.xz",
    "range/range_profiler.ncu-rep.xz",
    "range/apprange.ncu-rep.xz",
    "graph/graph_graph.ncu-rep.xz",
    "graph/graph_node.ncu-rep.xz",
    "pair/before.ncu-rep.xz",
    "pair/after.ncu-rep.xz",
];

/// Compares two reports result by result as text (NaN values are not equal), releasing each
/// body of `opened` after it is compared.
fn assert_same(opened: &mut Report, whole: &Report, what: &str) {
    assert_eq!(opened.results.len(), whole.results.len(), "{what}");
    assert_eq!(opened.warnings, whole.warnings, "{what}");
    assert_eq!(opened.session, whole.session, "{what}");
    assert_eq!(opened.devices, whole.devices, "{what}");
    assert_eq!(opened.tool_version, whole.tool_version, "{what}");
    assert_eq!(
        format!("{:?}", opened.bodies),
        format!("{:?}", whole.bodies),
        "{what}"
    );
    for (a, b) in opened.results.iter_mut().zip(&whole.results) {
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{what} result {}", b.id);
        a.release_body();
    }
}

#[test]
fn opened_reports_equal_reports_read_whole() {
    for rel in REPORTS {
        let bytes = fixture_bytes(rel);
        let file = TempFile::new("same.ncu-rep", &bytes);
        let mut whole = ncu_rep::parse(&bytes).unwrap_or_else(|e| panic!("{rel}: {e}"));
        whole.source = file.0.clone();
        let mut opened = load_path(&file.0).unwrap_or_else(|e| panic!("{rel}: {e}"));
        assert_eq!(opened.results.len(), whole.results.len(), "{rel}");
        assert_eq!(opened.decoded_bodies(), 0, "{rel}: bodies decoded on open");
        // The head figures equal those of the decoded bodies, without decoding them.
        for (a, b) in opened.results.iter().zip(&whole.results) {
            // Opening decodes each result without its body: what it keeps in the body's place
            // equals the figures of the whole body, every head metric and the top rule.
            assert_eq!(
                format!("{:?}", a.body_head()),
                format!("{:?}", Some(BodyHead::of(b.body()))),
                "{rel} result {}",
                b.id
            );
            assert_eq!(a.name, b.name, "{rel}");
            assert_eq!(
                (a.grid, a.block, a.cc, a.device),
                (b.grid, b.block, b.cc, b.device)
            );
            let (ha, hb) = (headline(a), headline(b));
            assert_eq!(
                format!(
                    "{:?}",
                    (ha.duration_ns, ha.sol_compute_pct, ha.sol_memory_pct)
                ),
                format!(
                    "{:?}",
                    (hb.duration_ns, hb.sol_compute_pct, hb.sol_memory_pct)
                ),
                "{rel}"
            );
            assert_eq!(
                ha.achieved_occupancy_pct.map(f64::to_bits),
                hb.achieved_occupancy_pct.map(f64::to_bits)
            );
            assert_eq!(ha.top_rule, hb.top_rule, "{rel} result {}", a.id);
        }
        assert_eq!(
            opened.decoded_bodies(),
            0,
            "{rel}: the headline decoded a body"
        );
        assert_same(&mut opened, &whole, rel);
        assert_eq!(opened.decoded_bodies(), 0, "{rel}");
        // Decoded again after the release: the same values.
        assert_same(&mut opened, &whole, rel);
    }
}

#[test]
fn released_bodies_are_the_least_recently_used() {
    let bytes = fixture_bytes("h100/kernels_basic.ncu-rep.xz");
    let file = TempFile::new("lru.ncu-rep", &bytes);
    let mut report = load_path(&file.0).unwrap();
    assert_eq!(report.results.len(), 13);
    for r in &report.results {
        assert!(!r.metrics().is_empty());
    }
    assert_eq!(report.decoded_bodies(), 13);
    report.release_bodies(4);
    let decoded: Vec<u64> = report
        .results
        .iter()
        .filter(|r| r.is_body_decoded())
        .map(|r| r.id)
        .collect();
    assert_eq!(decoded, [9, 10, 11, 12]);
    // Asking again makes a body the most recent one.
    assert!(!report.results[10].sections().is_empty());
    assert!(!report.results[2].sections().is_empty());
    report.release_bodies(2);
    let decoded: Vec<u64> = report
        .results
        .iter()
        .filter(|r| r.is_body_decoded())
        .map(|r| r.id)
        .collect();
    assert_eq!(decoded, [2, 10]);
    // A body that was changed is kept.
    report.results[5].metrics_mut().clear();
    report.release_bodies(0);
    assert_eq!(report.decoded_bodies(), 1);
    assert!(report.results[5].metrics().is_empty());
    // Walking every result one after the other with a bound keeps at most that many.
    for i in 0..report.results.len() {
        if i != 5 {
            assert!(report.results[i].metric("launch__block_size").is_some());
        }
        report.release_bodies(3);
        assert!(report.decoded_bodies() <= 4, "{}", report.decoded_bodies());
    }
}

#[test]
fn a_file_changed_after_opening_gives_a_named_error_not_wrong_values() {
    let bytes = fixture_bytes("h100/kernels_basic.ncu-rep.xz");
    let file = TempFile::new("changed.ncu-rep", &bytes);
    let report = load_path(&file.0).unwrap();
    let mut changed = bytes.clone();
    changed.truncate(bytes.len() / 2);
    std::fs::write(&file.0, &changed).unwrap();
    let r = &report.results[12];
    assert!(r.metrics().is_empty());
    let error = r.body_error().expect("an error");
    assert!(error.contains("changed.ncu-rep"), "{error}");
    // The code, read through the open report, is refused too, and says why.
    let code = sightline_engine::parse::ncu_rep::read_code_of(&file.0, r);
    let error = code.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(error.contains("changed since it was opened"), "{error}");
}

/// Files that are no report are refused from their first bytes: a sparse file of zeros of a
/// gigabyte named `.ncu-rep`, and an endless device.
#[test]
fn zeros_are_refused_from_the_first_bytes() {
    let file = TempFile::new("zeros.ncu-rep", b"");
    std::fs::File::options()
        .write(true)
        .open(&file.0)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let mut paths = vec![file.0.clone()];
    if cfg!(target_os = "linux") {
        paths.push(PathBuf::from("/dev/zero"));
    }
    for path in paths {
        match load_path(&path) {
            Err(LoadError::Parse {
                path: p,
                source: ParseError::NotAResult(message),
            }) => {
                assert_eq!(p, path);
                assert!(message.contains("binary"), "{message}");
            }
            other => panic!("{}: {:?}", path.display(), other.map(|r| r.results.len())),
        }
    }
}

/// Lengths that claim more than the file holds are damage, never an allocation of that size.
#[test]
fn lengths_past_the_end_are_damage() {
    let mut header_too_long = b"NVR\0".to_vec();
    header_too_long.extend_from_slice(&u32::MAX.to_le_bytes());
    header_too_long.extend_from_slice(&[0u8; 64]);
    let real = fixture_bytes("h100/kernels_basic.ncu-rep.xz");
    let first = ncu_rep::container(&real).unwrap().results[0].offset;
    // The first result's length prefix says 4 GB.
    let mut result_too_long = real.clone();
    result_too_long[first - 4..first].copy_from_slice(&u32::MAX.to_le_bytes());
    for (name, bytes) in [("header", header_too_long), ("result", result_too_long)] {
        let file = TempFile::new(&format!("{name}.ncu-rep"), &bytes);
        match load_path(&file.0) {
            Err(LoadError::Parse {
                source: ParseError::Corrupt { message, .. },
                ..
            }) => assert!(message.contains("runs past the end"), "{name}: {message}"),
            other => panic!("{name}: {:?}", other.map(|r| r.results.len())),
        }
        // Reading the bytes whole gives the same verdict.
        assert!(ncu_rep::parse(&bytes).is_err(), "{name}");
    }
}

/// A report cut anywhere opens as reading the cut bytes whole does: the same results, the same
/// warnings, or an error.
#[test]
fn cut_reports_open_as_they_parse() {
    let bytes = fixture_bytes("big/many_basic.ncu-rep.xz");
    let file = TempFile::new("cut.ncu-rep", b"");
    for k in 1..=6 {
        let cut = bytes.len() * k / 7 + k * 7;
        std::fs::write(&file.0, &bytes[..cut]).unwrap();
        let opened = load_path(&file.0);
        let whole = ncu_rep::parse(&bytes[..cut]);
        match (opened, whole) {
            (Ok(mut a), Ok(b)) => assert_same(&mut a, &b, &format!("cut at {cut}")),
            (Err(LoadError::Parse { source, .. }), Err(e)) => {
                assert_eq!(source.to_string(), e.to_string(), "cut at {cut}");
            }
            (a, b) => panic!(
                "cut at {cut}: {:?} vs {:?}",
                a.map(|r| r.results.len()),
                b.map(|r| r.results.len())
            ),
        }
    }
}

/// A result message larger than the chunks a file is read in (here 5 MB, with a field no
/// schema names) opens as reading the bytes whole does, with its neighbours intact.
#[test]
fn a_result_larger_than_a_read_chunk_opens_as_it_parses() {
    use prost::Message;
    use sightline_engine::parse::ncu_rep::messages::BlockHeader;
    let bytes = fixture_bytes("h100/kernels_basic.ncu-rep.xz");
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap()) as usize;
    let mut out = bytes[..8 + u32_at(4)].to_vec();
    let mut off = out.len();
    let mut grown = 0;
    while off < bytes.len() {
        let len = u32_at(off);
        let mut header = BlockHeader::decode(&bytes[off + 4..off + 4 + len]).unwrap();
        let payload = off + 4 + len;
        let end = payload + header.payload_size.unwrap() as usize;
        let block = off..end;
        off = end;
        if grown == 3 || header.num_results.unwrap_or(0) == 0 || header.num_sources.unwrap_or(0) > 0
        {
            out.extend_from_slice(&bytes[block]);
            continue;
        }
        // The block's first result gets a 5 MB field 999 (length-delimited).
        grown += 1;
        let n = u32_at(payload);
        let mut result = bytes[payload + 4..payload + 4 + n].to_vec();
        let big = vec![0x5a_u8; 5 << 20];
        prost::encoding::encode_key(999, prost::encoding::WireType::LengthDelimited, &mut result);
        prost::encoding::encode_varint(big.len() as u64, &mut result);
        result.extend_from_slice(&big);
        let rest = &bytes[payload + 4 + n..end];
        header.payload_size = Some((4 + result.len() + rest.len()) as u32);
        let header = header.encode_to_vec();
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(&header);
        out.extend_from_slice(&(result.len() as u32).to_le_bytes());
        out.extend_from_slice(&result);
        out.extend_from_slice(rest);
    }
    assert_eq!(grown, 3, "three results grown");
    let file = TempFile::new("big-result.ncu-rep", &out);
    let mut whole = ncu_rep::parse(&out).unwrap();
    whole.source = file.0.clone();
    let mut opened = load_path(&file.0).unwrap();
    assert_eq!(opened.results.len(), 13);
    assert!(
        opened.notes.iter().any(|n| n.contains("999")),
        "{:?}",
        opened.notes
    );
    assert_eq!(opened.notes, whole.notes);
    assert_eq!(opened.warnings, whole.warnings);
    assert_same(&mut opened, &whole, "grown results");
}

/// A report of many read chunks (`many_basic`, 54 MB: 27 chunks of 2 MB) opened with a budget
/// of one and of three decoding threads, as a series opens reports side by side, equals the
/// same report opened on every core and the report read whole.
#[test]
fn opens_on_a_budget_of_threads_equal_opens_on_every_core() {
    let bytes = fixture_bytes("big/many_basic.ncu-rep.xz");
    let file = TempFile::new("budget.ncu-rep", &bytes);
    let mut every_core = load_path(&file.0).expect("many_basic opens");
    let mut whole = ncu_rep::parse(&bytes).expect("many_basic parses");
    whole.source = file.0.clone();
    for threads in [1, 3] {
        let mut budget = ncu_rep::open::with_decode_threads(threads, || load_path(&file.0))
            .expect("many_basic opens on a budget");
        assert_eq!(budget.results.len(), 400, "{threads} threads");
        for (a, b) in budget.results.iter().zip(&every_core.results) {
            assert_eq!(
                format!("{:?}", (a.body_head(), &a.name, a.grid, a.block)),
                format!("{:?}", (b.body_head(), &b.name, b.grid, b.block)),
                "{threads} threads, result {}",
                b.id
            );
        }
        assert_same(&mut budget, &whole, "a budget of threads");
    }
    assert_same(&mut every_core, &whole, "every core");
}
