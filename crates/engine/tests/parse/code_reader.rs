//! The code of a report read as a stream (only its source entries kept) is the code the whole
//! file gives: the same modules with their functions and load addresses, the same cubin bytes
//! and the same imported sources, for every native fixture, from the file and from a
//! compressed copy; damage keeps the code before it, and memory follows the code, not the
//! file.

use sightline_engine::parse::ncu_rep::code_reader::read_code_from;
use sightline_engine::parse::ncu_rep::{CodeIndex, read_code};
use sightline_testkit::{fixture_bytes, fixture_files, temp_dir};

#[test]
fn the_streamed_code_is_the_code_of_the_whole_file() {
    let dir = temp_dir("code_reader");
    let mut modules = 0;
    for rel in fixture_files().iter().filter(|f| f.contains(".ncu-rep")) {
        let whole = fixture_bytes(rel);
        let index = CodeIndex::new(&whole).unwrap_or_else(|e| panic!("{rel}: {e}"));
        // From the file as it is stored (xz-compressed) and from the plain bytes.
        let stored = sightline_testkit::fixture_path(rel);
        for code in [
            read_code(&stored).unwrap_or_else(|e| panic!("{rel}: {e}")),
            read_code_from(&whole[..]).unwrap_or_else(|e| panic!("{rel}: {e}")),
        ] {
            assert_eq!(code.index.modules.len(), index.modules.len(), "{rel}");
            for (a, b) in code.index.modules.iter().zip(&index.modules) {
                assert_eq!(
                    (a.reference, a.cuda_sm_version, &a.functions),
                    (b.reference, b.cuda_sm_version, &b.functions),
                    "{rel}"
                );
                let cubin = |bytes: &[u8], range: &Option<std::ops::Range<usize>>| {
                    range.clone().map(|r| bytes[r].to_vec())
                };
                assert_eq!(
                    cubin(&code.bytes, &a.cubin),
                    cubin(&whole, &b.cubin),
                    "{rel}"
                );
            }
            assert_eq!(code.index.sources, index.sources, "{rel}");
            // Only the source entries are kept.
            assert!(code.bytes.len() <= whole.len(), "{rel}");
        }
        modules += index.modules.len();
    }
    assert!(modules >= 10, "{modules} modules checked");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_code_of_a_report_with_many_results_is_its_code_only() {
    // 400 results around 31.6 MB of cubins: what is kept is the cubins.
    let whole = fixture_bytes("big/many_basic.ncu-rep.xz");
    let code = read_code_from(&whole[..]).expect("reads");
    let index = CodeIndex::new(&whole).expect("indexes");
    let cubins: usize = index
        .modules
        .iter()
        .filter_map(|m| m.cubin.as_ref().map(|r| r.len()))
        .sum();
    assert!(cubins > 0);
    assert!(
        code.bytes.len() < cubins + whole.len() / 10,
        "{} bytes kept for {cubins} bytes of cubins in a {} byte report",
        code.bytes.len(),
        whole.len()
    );
}

#[test]
fn damage_keeps_the_code_before_it_and_no_report_is_an_error() {
    let whole = fixture_bytes("h100/kernels_basic.ncu-rep.xz");
    let full = read_code_from(&whole[..]).expect("reads");
    // Cut inside the file header: no report.
    for cut in [3, 9] {
        assert!(read_code_from(&whole[..cut]).is_err(), "cut at {cut}");
    }
    // Cut in the last block: the code of the blocks before it.
    let cut = read_code_from(&whole[..whole.len() - 1]).expect("kept");
    assert!(cut.index.modules.len() <= full.index.modules.len());
    assert!(full.bytes.starts_with(&cut.bytes));
    // A block header's length prefix claiming 4 GB ends the walk, with no allocation.
    let mut huge = whole.clone();
    let first_block = 4 + 4 + u32::from_le_bytes([whole[4], whole[5], whole[6], whole[7]]) as usize;
    huge[first_block..first_block + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let none = read_code_from(&huge[..]).expect("kept");
    assert!(none.bytes.is_empty() && none.index.modules.is_empty());
    assert!(read_code_from(&b"not a report"[..]).is_err());
}
