//! SASS on the Source page: text from `nvdisasm -c` output (with and without life ranges) reads
//! as ncu prints it, life ranges give each instruction's live registers, reads and writes, an
//! imported export lands on its instructions, the page says how to get SASS when it has none,
//! and the functions of cubins stored as loaded are listed.

use sightline_engine::analysis::source::{self, SourceOptions};
use sightline_engine::parse::ncu_rep::CodeIndex;
use sightline_testkit::fixture_bytes;
use sightline_testkit::source_fixture::{export, views};

#[test]
fn sass_text_from_nvdisasm_output_reads_as_ncu_prints_it() {
    let text = String::from_utf8(fixture_bytes("source/inl.nvdisasm_code.txt")).expect("utf-8");
    for (kernel, mangled) in [
        ("inline_chain", "_Z12inline_chainPKfPfi"),
        ("plain_copy", "_Z10plain_copyPKfPfi"),
    ] {
        let listing = &export(&format!("source/inl_src.{kernel}.source_sass.csv")).sass[0];
        let base = listing.rows[0].address;
        let ours =
            sightline_engine::parse::sass::function_sass(&text, &format!(".text.{mangled}"), base);
        assert_eq!(ours.len(), listing.rows.len(), "{kernel}");
        for ((offset, sass), row) in ours.iter().zip(&listing.rows) {
            assert_eq!(base + offset, row.address);
            assert_eq!(sass, &row.sass, "{kernel} at {:#x}", row.address);
        }
    }
}

#[test]
fn sass_text_with_life_ranges_reads_as_ncu_prints_it() {
    // `nvdisasm --print-life-ranges` puts each instruction's registers after it as a comment.
    let text =
        String::from_utf8(fixture_bytes("source_files/reduce.life_ranges.txt.xz")).expect("utf-8");
    for (kernel, mangled) in [
        ("reduce_shfl", "_Z11reduce_shflPKfPfi"),
        ("strided_sum", "_Z11strided_sumPKfPfii"),
    ] {
        let listing = &export(&format!("source_files/reduce.{kernel}.source_sass.csv.xz")).sass[0];
        let base = listing.rows[0].address;
        let ours =
            sightline_engine::parse::sass::function_sass(&text, &format!(".text.{mangled}"), base);
        // Printed without `-c`, nvdisasm leaves out the padding after the last branch.
        let padding = listing.rows.len() - ours.len();
        assert!(
            listing.rows[ours.len()..]
                .iter()
                .all(|r| r.sass.trim() == "NOP"),
            "{kernel}: {padding} rows short"
        );
        for ((offset, sass), row) in ours.iter().zip(&listing.rows) {
            assert_eq!(base + offset, row.address);
            assert_eq!(sass, &row.sass, "{kernel} at {:#x}", row.address);
        }
    }
}

#[test]
fn life_ranges_give_each_instructions_live_registers_reads_and_writes() {
    use sightline_engine::parse::life_ranges::{RegisterFile::*, function_life_ranges};
    let text =
        String::from_utf8(fixture_bytes("source_files/reduce.life_ranges.txt.xz")).expect("utf-8");
    let sass =
        sightline_engine::parse::sass::function_sass(&text, ".text._Z11reduce_shflPKfPfi", 0);
    let ranges = function_life_ranges(&text, ".text._Z11reduce_shflPKfPfi");
    // Every instruction has its row.
    assert_eq!(ranges.len(), sass.len());
    // `/*0080*/ IMAD R2, R3, UR5, R0`: reads R3, R0 and UR5, writes R2; 7 GPRs live.
    let imad = &ranges[&0x80];
    assert_eq!(imad.live, [7, 0, 4]);
    assert_eq!(imad.writes, vec![(Gpr, 2)]);
    let mut reads = imad.reads.clone();
    reads.sort();
    assert_eq!(reads, vec![(Gpr, 0), (Gpr, 3), (Ugpr, 5)]);
    // `/*0110*/ LDG.E R3, desc[UR6][R2.64]`: R3 read and written (x), R2 read.
    let ldg = &ranges[&0x110];
    assert!(ldg.writes.contains(&(Gpr, 3)) && ldg.reads.contains(&(Gpr, 3)));
    assert!(ldg.reads.contains(&(Gpr, 2)));
    // `ISETP.GE.AND P0, …` writes a predicate.
    assert_eq!(ranges[&0x90].writes, vec![(Pred, 0)]);
    // Never more GPRs live than the function's register count (EIATTR_REGCOUNT 0x0c = 12).
    let most = ranges.values().map(|r| r.live[0]).max().unwrap();
    assert!((8..=12).contains(&most), "{most}");
    // Each instruction reads and writes what its SASS names.
    for (offset, text) in &sass {
        for (file, n) in &ranges[offset].writes {
            // A 64- or 128-bit operand names the first register of its group.
            let named = (0..4).any(|k| {
                n.checked_sub(k)
                    .is_some_and(|r| text.contains(&file.name(r)))
            });
            assert!(named, "{offset:#x} {text} writes {file:?}{n}");
        }
    }
}

#[test]
fn sass_text_imported_from_an_export_lands_on_its_instructions() {
    // Both kernels' CUDA lines with the SASS under them, in one export.
    let all = export("source/inl_src.all.source_cuda_sass.csv");
    assert_eq!(all.lines.len(), 2);
    let options = SourceOptions {
        sass: all.sass_by_address(),
        ..SourceOptions::default()
    };
    let views = views("source/inl_src.ncu-rep.xz", &options);
    for view in &views {
        let name = view
            .kernel
            .split('(')
            .next()
            .unwrap_or_default()
            .to_string();
        let listing = &export(&format!("source/inl_src.{name}.source_sass.csv")).sass[0];
        // Every instruction that sits under a line has the text ncu's own listing shows.
        let mut with_text = 0;
        for (ins, row) in view.instructions.iter().zip(&listing.rows) {
            if let Some(text) = &ins.sass {
                assert_eq!(text, &row.sass, "{name} at {:#x}", ins.address);
                with_text += 1;
            } else {
                assert!(
                    ins.lines.is_empty(),
                    "{name} at {:#x}: no text",
                    ins.address
                );
            }
        }
        assert!(with_text > 10, "{name}: {with_text}");
        assert!(
            !view.notes.iter().any(|n| n.contains("SASS")),
            "{:?}",
            view.notes
        );
    }
}

#[test]
fn without_sass_text_the_page_says_how_to_get_it() {
    let views = views("source/inl_src.ncu-rep.xz", &SourceOptions::default());
    for v in &views {
        assert!(v.instructions.iter().all(|i| i.sass.is_none()));
        assert!(
            v.notes.iter().any(|n| n.contains("--sass-csv")),
            "{:?}",
            v.notes
        );
    }
}

/// Reports of ncu 2021.3 and earlier carry no relocation data: their cubins are stored as the
/// driver loaded them, each function's GPU address in its symbol. The function is found and
/// listed from that address (not from the first `launch__function_pcs`, which in
/// `computeValue<float>` is a function it calls); before Volta, in 8-byte slots.
#[test]
fn functions_of_cubins_stored_as_loaded_are_listed() {
    let public = sightline_testkit::corpus_path("public");
    // (report, function, load address, instructions)
    let cases = [
        (
            "thedavidchu__speedy_scan__profile",
            "_Z6kernelPKiPiPmPjj",
            0x7f5e16fb2900,
            288,
        ),
        (
            "iamcoleman__monte-carlo-pi__profile",
            "_Z12computeValueIfEvPjP17curandStateXORWOWj",
            0xb00bc3300,
            568,
        ),
        (
            "jhiems__PMKID_Brute-Force__FinalProfile",
            "_Z10El1t3Hax0rPhS_jjS_jS_S_Pb",
            0x2bc680,
            20046,
        ),
    ];
    for (name, mangled, load, count) in cases {
        let path = public.join(format!("{name}.ncu-rep.xz"));
        let raw = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut xz2::read::XzDecoder::new(&raw[..]), &mut bytes)
            .expect("xz");
        let report = sightline_engine::parse::parse_bytes(&path, &raw).expect("report");
        let index = CodeIndex::new(&bytes).expect("code index");
        let r = report
            .results
            .iter()
            .find(|r| r.name.mangled.as_deref() == Some(mangled))
            .unwrap_or_else(|| panic!("{name}: no {mangled}"));
        let r = r.transient();
        let r = r.as_ref();
        let code = index
            .kernel_code(&bytes, mangled, source::function_address(r))
            .unwrap_or_else(|| panic!("{name}: no module for {mangled}"));
        assert_eq!(code.address, Some(load), "{name}");
        let view = source::build(r, Some(&code), &SourceOptions::default()).expect("view");
        assert_eq!(view.function_address, load, "{name}");
        assert_eq!(view.instructions.len(), count, "{name}");
        // Every executed address within the function is listed.
        let listed: std::collections::HashSet<u64> =
            view.instructions.iter().map(|i| i.address).collect();
        let end = view.instructions.last().map_or(load, |i| i.address);
        let outside = source::columns::by_address(r, "inst_executed")
            .into_keys()
            .filter(|a| (load..=end).contains(a) && !listed.contains(a))
            .count();
        assert_eq!(outside, 0, "{name}");
    }
}
