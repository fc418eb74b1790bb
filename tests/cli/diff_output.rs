//! A comparison that keeps of each pair only what the text forms show (the duration, the
//! headline metrics, the biggest changes, what the `--fail-on` rules read) prints the same text,
//! Markdown, failures and totals as one that keeps every metric, and the JSON and CSV written
//! pair by pair are the bytes of those documents made whole; `sightline diff` prints them.

use crate::common;

use common::{fixture_file, run_diff, temp_dir};
use sightline_engine::analysis::compare::export::{DEFAULT_MAX_CHANGES, listed_changes};
use sightline_engine::analysis::compare::fail_on::FailOn;
use sightline_engine::analysis::compare::{
    CompareRequest, DiffOptions, Keep, MatchedDiff, ReportDiff, Verdict,
};
use sightline_engine::model::Report;
use sightline_engine::output::compare::MarkdownOptions;
use std::path::PathBuf;

/// Compares two reports as the commands ask, keeping of each pair what `keep` names.
fn compare_keeping(
    base: &Report,
    current: &Report,
    opts: &DiffOptions,
    keep: Keep<'_>,
) -> ReportDiff {
    CompareRequest {
        options: opts,
        manual: &[],
        keep,
    }
    .run(base, current)
}

/// Pairs of real reports that differ: a kernel rewritten (before → after) and the basic and
/// full sets of the same kernels.
const PAIRS: [(&str, &str); 2] = [
    ("pair/before.ncu-rep.xz", "pair/after.ncu-rep.xz"),
    (
        "h100/kernels_basic.ncu-rep.xz",
        "h100/kernels_full.ncu-rep.xz",
    ),
];

/// Both reports of a pair, opened from files (bodies read on demand), and the files.
fn open_pair(dir: &std::path::Path, (b, c): (&str, &str)) -> (Report, Report, PathBuf, PathBuf) {
    let (bf, cf) = (fixture_file(dir, b), fixture_file(dir, c));
    let base = sightline_engine::parse::load_path(&bf).unwrap();
    let current = sightline_engine::parse::load_path(&cf).unwrap();
    (base, current, bf, cf)
}

/// Better or worse metric changes outside the headline columns, over all pairs.
fn candidates(diff: &ReportDiff) -> usize {
    diff.matched
        .iter()
        .flat_map(|k| &k.diff.metrics)
        .filter(|m| matches!(m.verdict, Verdict::Better | Verdict::Worse))
        .count()
}

fn kept_metrics(diff: &ReportDiff) -> usize {
    diff.matched.iter().map(|k| k.diff.metrics.len()).sum()
}

fn markdown(diff: &ReportDiff, max_changes: usize) -> String {
    sightline_engine::output::compare::to_markdown(
        diff,
        &MarkdownOptions {
            title: "Comparison".into(),
            max_changes,
        },
    )
}

/// The "matched" list of a pretty-printed comparison document, as printed.
fn matched_text(doc: &str) -> &str {
    let start = doc.find("\n  \"matched\": [").expect("a matched list");
    let end = start + doc[start..].find("\n  \"only_in_base\"").expect("after it");
    &doc[start..end]
}

#[test]
fn kept_metrics_print_what_every_metric_prints() {
    let dir = temp_dir("diff_output_kept");
    for pair in PAIRS {
        let (base, current, _, _) = open_pair(&dir, pair);
        let opts = DiffOptions::default();
        let full = compare_keeping(&base, &current, &opts, Keep::All);
        assert!(!full.matched.is_empty(), "{pair:?}");
        for (max_changes, fail_on) in [
            (10, "duration>5%,only-in-base"),
            (3, "duration>5%,*hit_rate*,only-in-current"),
            (0, "dram__bytes_read.sum>1%"),
        ] {
            let fail_on = FailOn::parse(fail_on).unwrap();
            let reads = |key: &str| fail_on.reads_metric(key);
            let kept = compare_keeping(
                &base,
                &current,
                &opts,
                Keep::Shown {
                    max_changes,
                    also: &reads,
                },
            );
            let what = format!("{pair:?}, {max_changes} changes");
            // Only some metrics kept, yet the same biggest changes, failures and text.
            assert!(kept_metrics(&kept) < kept_metrics(&full) / 4, "{what}");
            let listed = |d: &ReportDiff| {
                listed_changes(d, max_changes)
                    .iter()
                    .map(|c| format!("{} {:?}", c.kernel.current_index, c.metric))
                    .collect::<Vec<_>>()
            };
            assert_eq!(listed(&kept), listed(&full), "{what}");
            assert_eq!(
                format!("{:?}", fail_on.check(&kept)),
                format!("{:?}", fail_on.check(&full)),
                "{what}"
            );
            assert_eq!(
                markdown(&kept, max_changes),
                markdown(&full, max_changes),
                "{what}"
            );
            // The text form lists the default number of changes.
            if max_changes == DEFAULT_MAX_CHANGES {
                assert_eq!(
                    sightline_engine::output::compare::text::render_text(
                        &kept,
                        &base,
                        &current,
                        &[]
                    ),
                    sightline_engine::output::compare::text::render_text(
                        &full,
                        &base,
                        &current,
                        &[]
                    ),
                    "{what}"
                );
            }
            assert_eq!(
                format!("{:?}", kept.totals()),
                format!("{:?}", full.totals())
            );
        }
        // More candidates than listed: the choice of the biggest ones is tested.
        assert!(candidates(&full) > 10, "{pair:?}: {}", candidates(&full));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn json_and_csv_written_pair_by_pair_are_the_whole_documents() {
    let dir = temp_dir("diff_output_streamed");
    for pair in PAIRS {
        let (base, current, bf, cf) = open_pair(&dir, pair);
        let opts = DiffOptions::default();
        let full = compare_keeping(&base, &current, &opts, Keep::All);
        let nothing = |_: &str| false;
        let kept = compare_keeping(
            &base,
            &current,
            &opts,
            Keep::Shown {
                max_changes: 10,
                also: &nothing,
            },
        );
        let mut pairs = |each: &mut dyn FnMut(&MatchedDiff)| {
            CompareRequest {
                options: &opts,
                manual: &[],
                keep: Keep::All,
            }
            .pairs_in_full(&base, &current, &kept, each);
        };
        let mut json = Vec::new();
        let doc = sightline_engine::output::compare::to_json_without_pairs(&kept);
        sightline_engine::output::compare::write_json_with_pairs(&mut json, doc, &mut pairs)
            .unwrap();
        let whole_json =
            serde_json::to_string_pretty(&sightline_engine::output::compare::to_json(&full))
                .unwrap();
        assert_eq!(String::from_utf8(json).unwrap(), whole_json, "{pair:?}");
        let mut csv = Vec::new();
        sightline_engine::output::compare::write_csv_with_pairs(&mut csv, &kept, &mut pairs)
            .unwrap();
        assert_eq!(
            String::from_utf8(csv).unwrap(),
            sightline_engine::output::compare::to_csv(&full),
            "{pair:?}"
        );

        // The command: its CSV is that document, its JSON lists the same pairs.
        let out = run_diff(&["--format", "csv"], &bf, &cf);
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            sightline_engine::output::compare::to_csv(&full)
        );
        let out = run_diff(&["--format", "json"], &bf, &cf);
        assert_eq!(
            matched_text(&String::from_utf8_lossy(&out.stdout)),
            matched_text(&whole_json),
            "{pair:?}"
        );
    }
    // No pair at all: an empty list, as serde_json prints it.
    let (base, _, _, _) = open_pair(&dir, PAIRS[0]);
    let empty = Report::new("", sightline_engine::model::Format::NcuRep);
    let full = compare_keeping(&base, &empty, &DiffOptions::default(), Keep::All);
    assert!(full.matched.is_empty());
    let mut json = Vec::new();
    sightline_engine::output::compare::write_json_with_pairs(
        &mut json,
        sightline_engine::output::compare::to_json(&full),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(json).unwrap(),
        serde_json::to_string_pretty(&sightline_engine::output::compare::to_json(&full)).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The JSON document of `sightline diff`, whose pairs are written on every core into files of
/// their own and copied out in order, is byte for byte the document printed whole from a
/// comparison that kept every metric, on one worker thread and on several.
#[test]
fn the_json_command_prints_the_whole_document_on_any_number_of_threads() {
    let dir = temp_dir("diff_output_json_threads");
    for pair in PAIRS {
        let (base, current, bf, cf) = open_pair(&dir, pair);
        let full = compare_keeping(&base, &current, &DiffOptions::default(), Keep::All);
        assert!(full.matched.len() > 1, "{pair:?}");
        let fail_on = FailOn::default();
        let failures = fail_on.check(&full);
        let mut doc = sightline_engine::output::compare::document::json_document(
            &full, &base, &current, &fail_on, &failures,
        );
        doc["matched"] = sightline_engine::output::compare::to_json(&full)["matched"].take();
        let whole = serde_json::to_string_pretty(&doc).unwrap() + "\n";
        for threads in ["1", "3"] {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
                .env("RAYON_NUM_THREADS", threads)
                .args(["diff", "--format", "json"])
                .arg(&bf)
                .arg(&cf)
                .output()
                .unwrap();
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                whole,
                "{pair:?}, {threads} threads"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `sightline diff` on the renaming rewrite of `fixtures/renames`: every format says which
/// kernels it paired as renamed; `--no-auto-pair` only suggests them, and then the default
/// `--fail-on` counts the renamed kernels as removed.
#[test]
fn every_diff_format_names_the_renamed_pairs() {
    let dir = temp_dir("diff_renames");
    let base = fixture_file(&dir, "renames/before.ncu-rep.xz");
    let current = fixture_file(&dir, "renames/after.ncu-rep.xz");
    let gemm = "paired as renamed: `naive_gemm` → `sgemm_global_mem_coalesce`, same parameters, 2 launches";
    for format in ["text", "md", "html", "json", "csv"] {
        let out = run_diff(&["--format", format], &base, &current);
        let stdout = String::from_utf8_lossy(&out.stdout);
        match format {
            "json" => {
                let doc: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
                // "after" was profiled first: the base given was captured later.
                assert_eq!(doc["base_captured_after_current"], true);
                let renamed = doc["renamed"].as_array().expect("renamed list");
                assert_eq!(renamed.len(), 1);
                assert_eq!(renamed[0]["base_function"], "naive_gemm");
                assert_eq!(renamed[0]["current_function"], "sgemm_global_mem_coalesce");
                assert_eq!(renamed[0]["launches"], 2);
                let kinds: Vec<&str> = doc["matched"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|m| m["match"].as_str().or(m["kind"].as_str()))
                    .filter(|k| *k == "renamed")
                    .collect();
                assert_eq!(kinds.len(), 2, "two launches paired as renamed");
            }
            "csv" => {
                let renamed_rows: std::collections::BTreeSet<(String, String)> =
                    csv::Reader::from_reader(stdout.as_bytes())
                        .records()
                        .map(|r| r.unwrap())
                        .filter(|r| &r[0] == "renamed")
                        .map(|r| (r[1].to_string(), r[2].to_string()))
                        .collect();
                assert_eq!(renamed_rows.len(), 2, "{renamed_rows:?}");
            }
            // HTML escapes the backticks' neighbours but not the words.
            "html" => assert!(
                stdout.contains("naive_gemm") && stdout.contains("Paired as renamed"),
                "{format}"
            ),
            _ => assert!(stdout.contains(gemm), "{format}: {stdout}"),
        }
        if format == "text" {
            assert!(
                stdout.contains("note: the base was captured after the current report"),
                "{stdout}"
            );
        }
        // The kernels only the base has (other parameters, two candidates) fail the default
        // rule; the renamed ones are not among them.
        assert_eq!(out.status.code(), Some(1), "{format}");
    }
    // The other way round, in capture order: no note.
    let out = run_diff(&[], &current, &base);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("captured after"));
    let out = run_diff(&["--no-auto-pair"], &base, &current);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("paired as renamed"), "{stdout}");
    assert!(
        stdout.contains("renamed? `naive_gemm` → `sgemm_global_mem_coalesce` (2 launches"),
        "{stdout}"
    );
    assert!(stdout.contains("Only in base: 6"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}
