//! Comparison of a real rewrite that renames the kernels it optimises (`fixtures/renames`,
//! profiled on the device, the "after" build before the "before" build): unambiguous renames
//! paired in every combination of forms and said once per kernel, the limits of auto-pairing
//! (other parameters, two candidates), `--no-auto-pair` and unpairing, verdicts and the
//! default `--fail-on` on renamed pairs, the why-list's new bank conflicts and barrier stalls
//! for the kernel that gained a shared-memory tile (paired by hand: it has two candidates), and
//! names spelled as ncu prints them.

use sightline_engine::analysis::compare::export::listed_why;
use sightline_engine::analysis::compare::fail_on::FailOn;
use sightline_engine::analysis::compare::{
    CompareRequest, DiffOptions, Keep, MatchKind, RenamePolicy, ReportDiff, Verdict, WhyKind,
    diff_reports,
};
use sightline_engine::model::Report;
use sightline_testkit::{TruthResult, load_fixture, load_truth};

/// The forms each side was exported in.
const FORMS: [&str; 4] = [
    "ncu-rep.xz",
    "details.txt.xz",
    "details.csv.xz",
    "raw.csv.xz",
];

fn truths() -> (Vec<TruthResult>, Vec<TruthResult>) {
    (
        load_truth("renames/before.truth.json.xz"),
        load_truth("renames/after.truth.json.xz"),
    )
}

fn sides(form_b: &str, form_c: &str) -> (Report, Report) {
    (
        load_fixture(&format!("renames/before.{form_b}")),
        load_fixture(&format!("renames/after.{form_c}")),
    )
}

fn pairs(diff: &ReportDiff) -> Vec<(usize, usize, MatchKind)> {
    diff.matched
        .iter()
        .map(|m| (m.base_index, m.current_index, m.kind))
        .collect()
}

#[test]
fn unambiguous_renames_are_paired_in_every_combination_of_forms() {
    let (bt, at) = truths();
    // The oracle says what the program does: these launches carry new names.
    let functions = |t: &[TruthResult]| t.iter().map(|r| r.function.clone()).collect::<Vec<_>>();
    assert_eq!(
        functions(&bt),
        [
            "fill",
            "naive_gemm",
            "naive_gemm",
            "matmul_tiled",
            "transpose_naive",
            "scale_old",
            "smooth_a",
            "smooth_b",
            "fill"
        ]
    );
    assert_eq!(
        functions(&at),
        [
            "fill",
            "sgemm_global_mem_coalesce",
            "sgemm_global_mem_coalesce",
            "matmul_tiled",
            "transpose_tiled",
            "fused_bias_relu",
            "smooth_c",
            "smooth_d",
            "fill"
        ]
    );
    use MatchKind::{Exact, Renamed};
    let want = vec![
        (0, 0, Exact),
        (1, 1, Renamed),
        (2, 2, Renamed),
        (3, 3, Exact),
        (8, 8, Exact),
    ];
    for fb in FORMS {
        for fc in FORMS {
            let what = format!("before.{fb} → after.{fc}");
            let (base, current) = sides(fb, fc);
            let diff = diff_reports(&base, &current, &DiffOptions::default());
            assert_eq!(pairs(&diff), want, "{what}");
            let labels: Vec<String> = diff.renamed.iter().map(|r| r.label()).collect();
            assert_eq!(
                labels,
                [
                    "paired as renamed: `naive_gemm` → `sgemm_global_mem_coalesce`, same \
                  parameters, 2 launches"
                ],
                "{what}"
            );
            // Two candidates of one parameter list (`transpose_tiled` and `fused_bias_relu`
            // are both `(float *, float *, int)` once `const` is set aside; `smooth_c` and
            // `smooth_d` both `(float *, int)`), and other parameters at the same place
            // (`scale_old` → `fused_bias_relu`): suggested only.
            let only = |u: &[sightline_engine::analysis::compare::UnmatchedResult]| {
                u.iter().map(|u| u.index).collect::<Vec<_>>()
            };
            assert_eq!(only(&diff.only_in_base), [4, 5, 6, 7], "{what}");
            assert_eq!(only(&diff.only_in_current), [4, 5, 6, 7], "{what}");
            let suggested: Vec<(usize, usize, &str)> = diff
                .suggested_pairs
                .iter()
                .map(|s| (s.base, s.current, s.reason.as_str()))
                .collect();
            assert_eq!(
                suggested,
                [
                    (4, 4, "same parameters and launch shape"),
                    (5, 5, "same grid and threads per block"),
                    (6, 6, "same parameters and launch shape"),
                    (7, 7, "same parameters and launch shape"),
                ],
                "{what}"
            );
            // Each renamed pair compares the oracle's durations, with a verdict.
            for m in diff.matched.iter().filter(|m| m.kind == Renamed) {
                let d = m.diff.duration.as_ref().expect("a duration on both sides");
                let (b, c) = (&bt[m.base_index], &at[m.current_index]);
                if fb == "ncu-rep.xz" && fc == "ncu-rep.xz" {
                    assert_eq!(
                        m.base_duration_ns,
                        Some(b.number("gpu__time_duration.sum")),
                        "{what}"
                    );
                    assert_eq!(
                        m.current_duration_ns,
                        Some(c.number("gpu__time_duration.sum")),
                        "{what}"
                    );
                }
                let faster =
                    c.number("gpu__time_duration.sum") < b.number("gpu__time_duration.sum");
                assert_eq!(
                    d.verdict,
                    if faster {
                        Verdict::Better
                    } else {
                        Verdict::Worse
                    },
                    "{what}: {}",
                    m.name
                );
                assert_eq!(
                    m.changes[0],
                    format!("name changed: {} → {}", b.function, c.function),
                    "{what}"
                );
            }
            // The default --fail-on fails for the kernels only the base has, never for a
            // renamed one.
            let failures = FailOn::default().check(&diff);
            assert!(
                failures.iter().all(|f| !f.kernel.contains("naive_gemm")),
                "{what}: {failures:?}"
            );
            assert!(!failures.is_empty(), "{what}");
        }
    }
}

#[test]
fn auto_pairing_can_be_turned_off_or_undone_per_rename() {
    let (base, current) = sides("ncu-rep.xz", "ncu-rep.xz");
    let off = DiffOptions {
        renames: RenamePolicy {
            auto_pair: false,
            unpaired: Vec::new(),
        },
        ..DiffOptions::default()
    };
    let diff = diff_reports(&base, &current, &off);
    assert!(diff.renamed.is_empty());
    assert_eq!(
        pairs(&diff),
        [
            (0, 0, MatchKind::Exact),
            (3, 3, MatchKind::Exact),
            (8, 8, MatchKind::Exact)
        ]
    );
    assert_eq!(diff.suggested_pairs.len(), 6);
    // One note per pair of names, the GEMM's two launches in one.
    let notes: Vec<&str> = diff
        .match_notes
        .iter()
        .map(|n| n.message.as_str())
        .filter(|m| m.contains("naive_gemm"))
        .collect();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("2 launches"), "{}", notes[0]);
    // Unpaired by the user: suggested again, the rest as before.
    let undone = DiffOptions {
        renames: RenamePolicy {
            auto_pair: true,
            unpaired: vec![("naive_gemm".into(), "sgemm_global_mem_coalesce".into())],
        },
        ..DiffOptions::default()
    };
    let diff = diff_reports(&base, &current, &undone);
    assert!(diff.renamed.is_empty());
    assert!(diff.only_in_base.iter().any(|u| u.index == 1));
    assert!(
        diff.suggested_pairs
            .iter()
            .any(|s| (s.base, s.current) == (1, 1))
    );
}

#[test]
fn the_why_list_names_the_new_bank_conflicts_and_barrier_stalls() {
    let (bt, at) = truths();
    let (base, current) = sides("ncu-rep.xz", "ncu-rep.xz");
    // The transpose has two candidates: paired by hand, as the window's Pair button does.
    let diff = CompareRequest {
        options: &DiffOptions::default(),
        manual: &[(4, 4)],
        keep: Keep::All,
    }
    .run(&base, &current);
    let pair = diff
        .matched
        .iter()
        .find(|m| m.base_index == 4)
        .expect("transpose paired by hand");
    assert_eq!(pair.kind, MatchKind::Manual);
    assert_eq!(
        pair.diff.duration.as_ref().map(|d| d.verdict),
        Some(Verdict::Better)
    );
    let listed = listed_why(&pair.why);
    let find = |kind: WhyKind, subject: &str| {
        listed
            .iter()
            .find(|w| w.kind == kind && w.subject == subject)
            .unwrap_or_else(|| panic!("{kind:?} {subject} listed: {:#?}", pair.why))
    };
    let conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum";
    let bank = find(WhyKind::BankConflicts, conflicts);
    assert_eq!(bank.base, Some(bt[4].number(conflicts)));
    assert_eq!(bank.current, Some(at[4].number(conflicts)));
    assert_eq!(bank.base, Some(0.0));
    assert_eq!(
        bank.agrees,
        Some(false),
        "more conflicts argue against faster"
    );
    let barrier = find(WhyKind::StallMoved, "barrier");
    let ratio = "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio";
    assert_eq!(barrier.base, Some(bt[4].number(ratio)));
    assert_eq!(barrier.current, Some(at[4].number(ratio)));
    assert!(
        barrier.text.starts_with("new stall barrier"),
        "{}",
        barrier.text
    );
    let samples = "smsp__pcsamp_warps_issue_stalled_barrier";
    assert!(
        barrier.text.contains(&format!(
            "{} → {} samples",
            bt[4].number(samples),
            at[4].number(samples)
        )),
        "{}",
        barrier.text
    );
    // What agrees with the speed-up is listed too: the drain stall that went down.
    assert!(listed.iter().any(|w| w.agrees == Some(true)), "{listed:#?}");
    // Shared memory per block: none before, the tile after.
    let shared = find(WhyKind::SharedMemory, "launch__shared_mem_per_block_static");
    assert_eq!(shared.base, Some(0.0));
    assert_eq!(
        shared.current,
        Some(at[4].number("launch__shared_mem_per_block_static"))
    );
}

#[test]
fn names_are_spelled_as_ncu_prints_them() {
    // ncu's own kernel lines (the details text) against the names read from the reports.
    for (report, text) in [
        ("renames/after.ncu-rep.xz", "renames/after.details.txt.xz"),
        ("renames/before.ncu-rep.xz", "renames/before.details.txt.xz"),
        (
            "h100/kernels_full.ncu-rep.xz",
            "h100/kernels_full.details.txt",
        ),
        ("pair/before.ncu-rep.xz", "pair/before.details.txt.xz"),
    ] {
        let (r, t) = (load_fixture(report), load_fixture(text));
        assert_eq!(r.results.len(), t.results.len(), "{report}");
        for (a, b) in r.results.iter().zip(&t.results) {
            assert_eq!(a.name.demangled, b.name.demangled, "{report}");
            assert!(!a.name.demangled.contains("(int)"), "{}", a.name.demangled);
        }
    }
    let r = load_fixture("renames/after.ncu-rep.xz");
    assert_eq!(
        r.results[3].name.demangled,
        "void matmul_tiled<32>(const float *, const float *, float *, int)"
    );
}

/// A public report of `../shared/corpus/public`, read from its compressed file.
fn public(name: &str) -> Report {
    let path = sightline_testkit::corpus_path("public").join(format!("{name}.ncu-rep.xz"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    sightline_engine::parse::parse_bytes(&path, &bytes).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn public_pairs_get_no_invented_renames_and_one_note_per_kernel() {
    // One project profiled on an H100 and on an RTX 4070 Ti: the same kernels, one of them
    // launched 10 times in one run and 6 in the other.
    let (b, c) = (
        public("jestes15__EE384_FinalProject__profile_output_38fd5b70"),
        public("jestes15__EE384_FinalProject__profile_output_6ba0c144"),
    );
    let diff = diff_reports(&b, &c, &DiffOptions::default());
    assert!(diff.renamed.is_empty() && diff.suggested_pairs.is_empty());
    assert!(diff.matched.iter().all(|m| m.kind != MatchKind::Renamed));
    let agent: Vec<&str> = diff
        .match_notes
        .iter()
        .filter(|n| n.kernel.contains("_kernel_agent"))
        .map(|n| n.message.as_str())
        .collect();
    assert_eq!(
        agent,
        ["launched 10 times in base and 6 times in current; 6 launches paired"]
    );
    // A GEMM tuned through ten numbered kernels against a later run of four of them: the four
    // pair by name, the others are removed; nothing is paired as renamed.
    let (b, c) = (
        public("AveryClapp__ESMM-Research__profile"),
        public("AveryClapp__ESMM-Research__profile_output"),
    );
    let diff = diff_reports(&b, &c, &DiffOptions::default());
    assert!(diff.renamed.is_empty());
    assert_eq!(diff.matched.len(), 4);
    assert!(diff.only_in_current.is_empty());
}
