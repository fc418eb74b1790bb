//! ncu text and CSV as people save it: the public corpus in `../shared/corpus/text-public`
//! (read in place, xz-compressed) and its `EXPECTED.tsv`, the result count of each file and
//! whether its text gives durations.

use std::io::Read;
use std::path::PathBuf;

/// The corpus folder, next to the repository.
pub fn corpus_dir() -> PathBuf {
    crate::corpus_path("text-public")
}

/// One row of `EXPECTED.tsv`.
pub struct Expected {
    pub file: String,
    pub results: usize,
    pub duration_needed: bool,
}

/// The rows of `EXPECTED.tsv`. The corpus sits beside the project (`../shared`), in CI too:
/// without it the test fails rather than check nothing.
pub fn expected() -> Vec<Expected> {
    let path = corpus_dir().join("EXPECTED.tsv");
    let tsv = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (the public text corpus)", path.display()));
    tsv.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cells: Vec<&str> = l.split('\t').collect();
            Expected {
                file: cells[0].to_string(),
                results: cells[1].parse().expect("results column"),
                duration_needed: cells[2].trim() == "1",
            }
        })
        .collect()
}

/// The decompressed bytes of a corpus file.
pub fn corpus_bytes(file: &str) -> Vec<u8> {
    let path = corpus_dir().join(format!("{file}.xz"));
    let raw = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    xz2::read::XzDecoder::new(&raw[..])
        .read_to_end(&mut out)
        .expect("xz");
    out
}

/// The `.ncu-rep` paths a log's `==PROF== Report: PATH` lines name.
pub fn named_reports(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("==PROF== Report: "))
        .map(str::trim)
        .collect()
}
