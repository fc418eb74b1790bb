//! SASS on the architectures pip's CUDA 13 nvdisasm refuses, from the CUDA 12 nvdisasm a user
//! gets with Triton. The two Volta (sm_70) public reports give ncu's own Source page text at
//! every address (ncu 2025.3's export; NVIDIA's Python module answers "N/A" for them). For the
//! Pascal (sm_61) report NVIDIA's tools have no text at all (ncu 2025.3 and both Python modules
//! print "N/A"), so its check is ncu's list of instruction addresses (the Pascal bundles of three
//! instructions after a control word), text at each, and the Maxwell/Pascal prologue first. The
//! nvdisasm is chosen by the cubin's architecture: with CUDA 13 and CUDA 12 both at hand the
//! CUDA 12 one reads the Pascal code; with CUDA 13 alone the page says which architecture needs
//! which nvdisasm and how to get it.

use sightline_engine::model::source::SourceView;
use sightline_engine::parse::sass::Disassembler;
use sightline_engine::parse::source_csv;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const PASCAL: &str = "jhiems__PMKID_Brute-Force__FinalProfile";
const VOLTA: [&str; 2] = [
    "anuragdogra2192__MultipleNodesScalingCUDACPPApplications__report",
    "strrules105__PhysiCell__profile",
];

/// A public report of the corpus, decompressed into `dir`.
fn public_report(dir: &Path, name: &str) -> PathBuf {
    let xz = sightline_testkit::corpus_path("public").join(format!("{name}.ncu-rep.xz"));
    let raw = std::fs::read(&xz).unwrap_or_else(|e| panic!("{}: {e}", xz.display()));
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut xz2::read::XzDecoder::new(&raw[..]), &mut bytes).expect("xz");
    let path = dir.join(format!("{name}.ncu-rep"));
    std::fs::write(&path, bytes).expect("write");
    path
}

/// ncu's SASS text by address, from its Source page export of every result: the listings of
/// `kernels` (every listing when empty; ncu lists the device functions a kernel calls after it).
fn ncu_sass(name: &str, kernels: &[&str]) -> BTreeMap<u64, String> {
    let export = source_csv::parse(&sightline_testkit::fixture_bytes(&format!(
        "sass_arch/{name}.source_sass.csv.xz"
    )))
    .expect("ncu's export");
    export
        .sass
        .iter()
        .filter(|l| kernels.is_empty() || kernels.contains(&function(&l.kernel)))
        .flat_map(|l| &l.rows)
        .map(|r| (r.address, squeeze(&r.sass)))
        .collect()
}

/// A kernel's name without its parameters.
fn function(name: &str) -> &str {
    name.split('(').next().unwrap_or(name)
}

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The Source view of every result of the report that has its code, read with `disassembler`,
/// with the names ncu may list it by (demangled and mangled, without parameters).
fn views(path: &Path, disassembler: &Disassembler) -> Vec<(Vec<String>, SourceView)> {
    let report = sightline_engine::parse::load_path(path).expect("report");
    report
        .results
        .iter()
        .filter_map(|r| {
            let view =
                sightline_app::views::source::load(Some(path), r, Default::default(), disassembler)
                    .ok()?;
            let names = [Some(&r.name.demangled), r.name.mangled.as_ref()]
                .into_iter()
                .flatten()
                .map(|n| function(n).to_string())
                .collect();
            Some((names, view))
        })
        .collect()
}

/// Every address of ncu's export is an instruction of some view, with ncu's text.
fn assert_sass_equals_ncus(name: &str, views: &[(Vec<String>, SourceView)]) -> usize {
    let kernels: Vec<&str> = views
        .iter()
        .flat_map(|(names, _)| names.iter().map(String::as_str))
        .collect();
    let want = ncu_sass(name, &kernels);
    let mut got: BTreeMap<u64, String> = BTreeMap::new();
    for (_, v) in views {
        for i in &v.instructions {
            if let Some(s) = &i.sass {
                got.insert(i.address, squeeze(s));
            }
        }
    }
    assert!(!want.is_empty(), "{name}: ncu's export is empty");
    for (address, text) in &want {
        assert_eq!(
            got.get(address),
            Some(text),
            "{name}: SASS at {address:#x}; notes: {:?}",
            views.iter().flat_map(|(_, v)| &v.notes).collect::<Vec<_>>()
        );
    }
    want.len()
}

#[test]
fn a_cuda12_nvdisasm_gives_ncus_sass_for_pascal_and_volta() {
    let dir = sightline_testkit::temp_dir("sass_arch");
    // Both nvdisasm programs, CUDA 13 first as a search finds it: the architecture picks.
    let both = Disassembler::only([
        sightline_testkit::pip_nvdisasm().1,
        sightline_testkit::cuda12_nvdisasm(),
    ])
    .with_cache(None);
    let pascal = public_report(&dir, PASCAL);
    let shown = views(&pascal, &both);
    let ncu_addresses: Vec<u64> = ncu_sass(PASCAL, &[]).into_keys().collect();
    let ours: Vec<(u64, String)> = shown
        .iter()
        .flat_map(|(_, v)| &v.instructions)
        .map(|i| (i.address, squeeze(i.sass.as_deref().unwrap_or(""))))
        .collect();
    assert_eq!(
        ours.iter().map(|(a, _)| *a).collect::<Vec<_>>(),
        ncu_addresses,
        "the Pascal instructions are ncu's"
    );
    assert!(ours.len() > 20_000, "{} Pascal instructions", ours.len());
    assert!(
        ours.iter().all(|(_, s)| !s.is_empty()),
        "text at every address"
    );
    assert_eq!(ours[0].1, "MOV R1, c[0x0][0x20]");
    for name in VOLTA {
        let report = public_report(&dir, name);
        let shown = views(&report, &both);
        // Profiled without SourceCounters: the code is shown without metric columns.
        assert!(
            shown.iter().all(|(_, v)| v
                .notes
                .iter()
                .any(|n| n == sightline_engine::analysis::source::NO_COUNTERS_NOTE)),
            "{name}"
        );
        assert_sass_equals_ncus(name, &shown);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_a_cuda12_nvdisasm_the_page_says_which_one_pascal_needs() {
    let dir = sightline_testkit::temp_dir("sass_arch_cuda13");
    let pascal = public_report(&dir, PASCAL);
    let shown = views(&pascal, &sightline_testkit::pip_disassembler());
    let notes: Vec<&String> = shown.iter().flat_map(|(_, v)| &v.notes).collect();
    assert!(
        notes.iter().any(|n| n.contains("sm_61 (Pascal)")
            && n.contains("CUDA 13.")
            && n.contains("triton<3.6")),
        "{notes:?}"
    );
    assert!(
        shown
            .iter()
            .all(|(_, v)| v.instructions.iter().all(|i| i.sass.is_none()))
    );
    let _ = std::fs::remove_dir_all(&dir);
}
