//! Comparison on real workloads: every form of one run pairs with itself and shows no change;
//! the before/after pair (`fixtures/pair`) matches as `pair.cu` designs it in every combination
//! of forms; launches deleted from and inserted into a 400-launch run leave every other launch
//! paired with itself; the "why" list names the cause the oracle shows. (`diff --fail-on` and
//! `--pair` are tests of the binary: `tests/cli/diff_command.rs` of the root package.)

use sightline_engine::analysis::compare::fail_on::FailOn;
use sightline_engine::analysis::compare::groups::group_key;
use sightline_engine::analysis::compare::{
    CompareRequest, DiffOptions, Keep, MatchKind, ReportDiff, Verdict, WhyKind, diff_reports,
    split_baselines,
};
use sightline_engine::model::{Dim3, Report};
use sightline_testkit::{TruthResult, load_fixture, load_truth};
use std::collections::BTreeSet;

/// Every export of one run, per run.
const SAME_RUN_FORMS: [&[&str]; 3] = [
    &[
        "h100/kernels_full.ncu-rep.xz",
        "h100/kernels_full.details.txt",
        "h100/kernels_full.details_base.txt",
        "h100/kernels_full.details.csv.xz",
        "h100/kernels_full.raw.csv.xz",
        "h100/kernels_full.raw_base.csv.xz",
    ],
    &[
        "h100/kernels_basic.ncu-rep.xz",
        "h100/kernels_basic.details.txt",
        "h100/kernels_basic.details_base.txt",
        "h100/kernels_basic.details.csv",
        "h100/kernels_basic.raw.csv",
        "h100/kernels_basic.raw_base.csv",
    ],
    &[
        "big/many_basic.ncu-rep.xz",
        "big/many_basic.details.txt.xz",
        "big/many_basic.raw.csv.xz",
    ],
];

/// The forms of each side of the pair (`X` = `before` or `after`); `cli.txt` is a second
/// measurement of the same program.
const PAIR_FORMS: [&str; 5] = [
    "ncu-rep.xz",
    "details.txt.xz",
    "details.csv.xz",
    "raw.csv.xz",
    "cli.txt.xz",
];

fn assert_same_run(diff: &ReportDiff, n: usize, what: &str) {
    assert_eq!(diff.matched.len(), n, "{what}: {:?}", diff.warnings);
    assert!(
        diff.only_in_base.is_empty() && diff.only_in_current.is_empty(),
        "{what}"
    );
    for (i, m) in diff.matched.iter().enumerate() {
        assert_eq!((m.base_index, m.current_index), (i, i), "{what}");
        assert_eq!(m.kind, MatchKind::Exact, "{what}: {}", m.name);
        assert!(m.changes.is_empty(), "{what}: {:?}", m.changes);
        let d = m.diff.duration.as_ref().expect("a duration on both sides");
        assert_eq!(d.verdict, Verdict::Unchanged, "{what}: {}", m.name);
    }
    let t = diff.totals();
    assert!(
        !t.matched_changed() && !t.net_changed(),
        "{what}: {} ns within ±{} ns",
        t.matched_delta_ns(),
        t.noise_ns
    );
    assert_eq!(t.matched_delta_shown_ns(), 0.0);
    assert!(FailOn::default().check(diff).is_empty(), "{what}");
}

#[test]
fn every_form_of_one_run_matches_itself_with_nothing_changed() {
    for forms in SAME_RUN_FORMS {
        let reports: Vec<Report> = forms.iter().map(|f| load_fixture(f)).collect();
        let n = reports[0].results.len();
        for (i, base) in reports.iter().enumerate() {
            assert_eq!(base.results.len(), n, "{}", forms[i]);
            for (j, current) in reports.iter().enumerate() {
                if i == j {
                    continue;
                }
                let diff = diff_reports(base, current, &DiffOptions::default());
                assert_same_run(&diff, n, &format!("{} → {}", forms[i], forms[j]));
            }
        }
    }
}

// ---- the before/after pair ----

/// A launch shape from the oracle's launch metrics.
fn truth_shape(t: &TruthResult) -> (Dim3, Dim3) {
    let dim = |p: &str| Dim3 {
        x: t.number(&format!("launch__{p}_dim_x")) as u64,
        y: t.number(&format!("launch__{p}_dim_y")) as u64,
        z: t.number(&format!("launch__{p}_dim_z")) as u64,
    };
    (dim("grid"), dim("block"))
}

/// The integer template argument of an oracle launch, read from its mangled name
/// (`_Z6matmulILi16EEvPKfS1_Pfi` gives `<16>`).
fn truth_template_args(t: &TruthResult) -> Option<String> {
    let rest = &t.mangled[t.mangled.find("ILi")? + 3..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    (!digits.is_empty() && rest[digits.len()..].starts_with('E')).then(|| format!("<{digits}>"))
}

/// What the designed pairing says differs between two oracle launches.
fn expected_changes(b: &TruthResult, c: &TruthResult) -> Vec<String> {
    let mut out = Vec::new();
    let (ta, tb) = (truth_template_args(b), truth_template_args(c));
    if ta != tb {
        out.push(format!(
            "template args changed: {} → {}",
            ta.unwrap_or_default(),
            tb.unwrap_or_default()
        ));
    }
    let ((bg, bb), (cg, cb)) = (truth_shape(b), truth_shape(c));
    if bg != cg {
        out.push(format!("grid changed: {bg} → {cg}"));
    }
    if bb != cb {
        out.push(format!("block changed: {bb} → {cb}"));
    }
    out
}

/// The designed pairing of `fixtures/pair/README.md`: launches of the same function at the
/// same place pair, and so does the rename `normalize` → `normalize_rows` (the only function
/// of its parameter list each side alone has); `histogram_old`/`bias_relu` (other parameters)
/// do not.
fn designed_pairs(before: &[TruthResult], after: &[TruthResult]) -> Vec<(usize, usize)> {
    let same: Vec<(usize, usize)> = (0..before.len().min(after.len()))
        .filter(|&i| before[i].function == after[i].function)
        .map(|i| (i, i))
        .collect();
    assert_eq!(
        same,
        vec![(0, 0), (1, 1), (2, 2), (3, 3), (5, 5), (6, 6), (8, 8)],
        "the oracle agrees with the fixture's README"
    );
    assert_eq!(
        (before[7].function.as_str(), after[7].function.as_str()),
        ("normalize", "normalize_rows")
    );
    vec![
        (0, 0),
        (1, 1),
        (2, 2),
        (3, 3),
        (5, 5),
        (6, 6),
        (7, 7),
        (8, 8),
    ]
}

#[test]
fn pair_matches_as_designed_in_every_combination_of_forms() {
    let before_truth = load_truth("pair/before.truth.json.xz");
    let after_truth = load_truth("pair/after.truth.json.xz");
    let expected = designed_pairs(&before_truth, &after_truth);
    let before: Vec<Report> = PAIR_FORMS
        .iter()
        .map(|f| load_fixture(&format!("pair/before.{f}")))
        .collect();
    let after: Vec<Report> = PAIR_FORMS
        .iter()
        .map(|f| load_fixture(&format!("pair/after.{f}")))
        .collect();
    for (bi, base) in before.iter().enumerate() {
        for (ci, current) in after.iter().enumerate() {
            let what = format!("before.{} → after.{}", PAIR_FORMS[bi], PAIR_FORMS[ci]);
            let diff = diff_reports(base, current, &DiffOptions::default());
            let got: Vec<(usize, usize)> = diff
                .matched
                .iter()
                .map(|m| (m.base_index, m.current_index))
                .collect();
            assert_eq!(got, expected, "{what}");
            let only_base: Vec<usize> = diff.only_in_base.iter().map(|u| u.index).collect();
            let only_current: Vec<usize> = diff.only_in_current.iter().map(|u| u.index).collect();
            assert_eq!(only_base, vec![4], "{what}");
            assert_eq!(only_current, vec![4], "{what}");
            for m in &diff.matched {
                let (b, c) = (&before_truth[m.base_index], &after_truth[m.current_index]);
                let mut want_changes = expected_changes(b, c);
                let template_changed = truth_template_args(b) != truth_template_args(c);
                let want = if b.function != c.function {
                    want_changes
                        .insert(0, format!("name changed: {} → {}", b.function, c.function));
                    MatchKind::Renamed
                } else if template_changed {
                    MatchKind::TemplateArgs
                } else {
                    MatchKind::Exact
                };
                assert_eq!(m.changes, want_changes, "{what}: {}", m.name);
                assert_eq!(m.kind, want, "{what}: {}", m.name);
            }
            // The rename is paired and said once; the removed and added kernels, which sit in
            // one place with the same grid and threads per block, are only suggested.
            let labels: Vec<String> = diff.renamed.iter().map(|r| r.label()).collect();
            assert_eq!(
                labels,
                vec![format!(
                    "paired as renamed: `{}` → `{}`, same parameters and launch shape, 1 launch",
                    before_truth[7].function, after_truth[7].function
                )],
                "{what}"
            );
            let suggested: Vec<(usize, usize, &str)> = diff
                .suggested_pairs
                .iter()
                .map(|s| (s.base, s.current, s.reason.as_str()))
                .collect();
            assert_eq!(
                suggested,
                vec![(4, 4, "same grid and threads per block")],
                "{what}"
            );
            // Paired by hand, the rename is a manual pair.
            let manual = CompareRequest {
                options: &DiffOptions::default(),
                manual: &[(7, 7)],
                keep: Keep::All,
            }
            .run(base, current);
            let m = manual
                .matched
                .iter()
                .find(|m| m.base_index == 7)
                .expect("manual pair");
            assert_eq!((m.current_index, m.kind), (7, MatchKind::Manual), "{what}");
            assert_eq!(
                m.changes,
                vec![format!(
                    "name changed: {} → {}",
                    before_truth[7].function, after_truth[7].function
                )]
            );
            assert_eq!(manual.matched.len(), expected.len(), "{what}");
            assert!(manual.renamed.is_empty(), "{what}");
        }
    }
}

#[test]
fn pair_totals_count_removed_and_added_time() {
    let before_truth = load_truth("pair/before.truth.json.xz");
    let after_truth = load_truth("pair/after.truth.json.xz");
    let duration = |t: &TruthResult| t.number("gpu__time_duration.sum");
    let base = load_fixture("pair/before.ncu-rep.xz");
    let current = load_fixture("pair/after.ncu-rep.xz");
    let diff = diff_reports(&base, &current, &DiffOptions::default());
    let t = diff.totals();
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 * b.abs().max(1.0);
    let sum = |truth: &[TruthResult], idx: &[usize]| idx.iter().map(|&i| duration(&truth[i])).sum();
    let matched = [0, 1, 2, 3, 5, 6, 7, 8];
    assert!(close(t.matched_base_ns, sum(&before_truth, &matched)));
    assert!(close(t.matched_current_ns, sum(&after_truth, &matched)));
    assert!(close(t.only_in_base_ns, sum(&before_truth, &[4])));
    assert!(close(t.only_in_current_ns, sum(&after_truth, &[4])));
    let all = |truth: &[TruthResult]| truth.iter().map(duration).sum::<f64>();
    assert!(close(t.net_ns(), all(&after_truth) - all(&before_truth)));
    assert_eq!(t.noise_ns, 0.0, "a report stores exact values");
    assert!(t.matched_changed());
}

// ---- 400 launches, some deleted and some inserted ----

/// Positions whose kernel differs from both neighbours (a deletion or insertion there has one
/// right answer).
fn isolated(keys: &[String]) -> Vec<usize> {
    (1..keys.len().saturating_sub(1))
        .filter(|&i| keys[i - 1] != keys[i] && keys[i + 1] != keys[i] && keys[i - 1] != keys[i + 1])
        .collect()
}

#[test]
fn edited_many_basic_keeps_every_unaffected_launch_paired_with_itself() {
    let base = load_fixture("big/many_basic.ncu-rep.xz");
    for current_form in ["big/many_basic.ncu-rep.xz", "big/many_basic.raw.csv.xz"] {
        let source = load_fixture(current_form);
        let keys: Vec<String> = source.results.iter().map(group_key).collect();
        let candidates = isolated(&keys);
        assert!(candidates.len() >= 40, "{}", candidates.len());
        // Five deletions and three insertions, spread over the run.
        let step = candidates.len() / 9;
        let deleted: Vec<usize> = (0..5).map(|k| candidates[step * (k + 1)]).collect();
        let copies: Vec<(usize, usize)> = (0..3)
            .map(|k| {
                let from = candidates[step * 6 + k * step / 3];
                // Inserted before a launch whose neighbours are both of other kernels.
                let at = *candidates
                    .iter()
                    .rev()
                    .find(|&&p| {
                        keys[p] != keys[from]
                            && keys[p - 1] != keys[from]
                            && !deleted.contains(&p)
                            && !deleted.contains(&(p - 1))
                            && p < keys.len() - 20 * (k + 1)
                    })
                    .expect("a place to insert");
                (from, at)
            })
            .collect();
        // The edited run: (original index or None for an inserted copy, result).
        let mut edited: Vec<(Option<usize>, sightline_engine::model::KernelResult)> = Vec::new();
        for (i, r) in source.results.iter().enumerate() {
            for &(from, at) in &copies {
                if at == i {
                    edited.push((None, source.results[from].clone()));
                }
            }
            if !deleted.contains(&i) {
                edited.push((Some(i), r.clone()));
            }
        }
        let mut current = source.clone();
        current.results = edited.iter().map(|(_, r)| r.clone()).collect();
        let diff = diff_reports(&base, &current, &DiffOptions::default());
        let what = current_form;
        let mut wrong = Vec::new();
        for m in &diff.matched {
            match edited[m.current_index].0 {
                Some(orig) if orig == m.base_index => {}
                other => wrong.push((m.base_index, m.current_index, other)),
            }
        }
        assert!(
            wrong.is_empty(),
            "{what}: {} wrong pairs: {wrong:?}",
            wrong.len()
        );
        assert_eq!(diff.matched.len(), 400 - 5, "{what}");
        let only_base: BTreeSet<usize> = diff.only_in_base.iter().map(|u| u.index).collect();
        assert_eq!(only_base, deleted.iter().copied().collect(), "{what}");
        let inserted: BTreeSet<usize> = edited
            .iter()
            .enumerate()
            .filter(|(_, (o, _))| o.is_none())
            .map(|(i, _)| i)
            .collect();
        let only_current: BTreeSet<usize> = diff.only_in_current.iter().map(|u| u.index).collect();
        assert_eq!(only_current, inserted, "{what}");
        for m in &diff.matched {
            assert_eq!(
                m.diff.duration.as_ref().map(|d| d.verdict),
                Some(Verdict::Unchanged),
                "{what}"
            );
        }
    }
}

// ---- why a kernel changed ----

/// Identifiers of the rules that point at a problem (warning or optimisation messages).
fn truth_problem_rules(t: &TruthResult) -> BTreeSet<String> {
    t.rules
        .iter()
        .filter(|r| matches!(r["rule_message"]["type"].as_i64(), Some(2 | 4)))
        .filter_map(|r| r["rule_identifier"].as_str().map(str::to_string))
        .collect()
}

fn truth_l1_bytes(t: &TruthResult) -> f64 {
    [
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
        "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
    ]
    .iter()
    .map(|k| t.number(k))
    .sum::<f64>()
        * 32.0
}

#[test]
fn why_names_the_cause_the_oracle_shows() {
    let before_truth = load_truth("pair/before.truth.json.xz");
    let after_truth = load_truth("pair/after.truth.json.xz");
    for form in ["ncu-rep.xz", "raw.csv.xz"] {
        let base = load_fixture(&format!("pair/before.{form}"));
        let current = load_fixture(&format!("pair/after.{form}"));
        let diff = diff_reports(&base, &current, &DiffOptions::default());
        let pair = |i: usize| diff.matched.iter().find(|m| m.base_index == i).unwrap();

        // saxpy_strided got faster: the scattered index is gone, so the uncoalesced-access
        // rules stop firing and L1 moves fewer sectors.
        let saxpy = pair(1);
        assert_eq!(
            saxpy.diff.duration.as_ref().unwrap().verdict,
            Verdict::Better
        );
        if form == "ncu-rep.xz" {
            let gone: BTreeSet<String> = truth_problem_rules(&before_truth[1])
                .difference(&truth_problem_rules(&after_truth[1]))
                .cloned()
                .collect();
            assert!(gone.contains("UncoalescedGlobalAccess"), "{gone:?}");
            let listed: BTreeSet<String> = saxpy
                .why
                .iter()
                .filter(|w| w.kind == WhyKind::RuleDisappeared)
                .map(|w| w.subject.clone())
                .collect();
            assert_eq!(listed, gone, "{form}");
            let top3: Vec<&str> = saxpy
                .why
                .iter()
                .take(3)
                .map(|w| w.subject.as_str())
                .collect();
            assert!(
                top3.contains(&"UncoalescedGlobalAccess"),
                "{form}: {:?}",
                saxpy.why
            );
        }
        let l1 = saxpy
            .why
            .iter()
            .find(|w| w.kind == WhyKind::MemoryTraffic && w.subject == "L1")
            .unwrap_or_else(|| panic!("{form}: {:?}", saxpy.why));
        assert_eq!(l1.base, Some(truth_l1_bytes(&before_truth[1])), "{form}");
        assert_eq!(l1.current, Some(truth_l1_bytes(&after_truth[1])), "{form}");
        assert_eq!(l1.agrees, Some(true));

        // blur got slower: radius 2 → 8 executes more instructions.
        let blur = pair(6);
        assert_eq!(blur.diff.duration.as_ref().unwrap().verdict, Verdict::Worse);
        let inst = |t: &TruthResult| t.number("smsp__inst_executed.sum");
        let w = blur
            .why
            .iter()
            .position(|w| w.kind == WhyKind::Instructions)
            .unwrap_or_else(|| panic!("{form}: {:?}", blur.why));
        assert!(w < 3, "{form}: {:?}", blur.why);
        assert_eq!(blur.why[w].base, Some(inst(&before_truth[6])));
        assert_eq!(blur.why[w].current, Some(inst(&after_truth[6])));
        assert_eq!(blur.why[w].agrees, Some(true));
        assert!(inst(&after_truth[6]) > inst(&before_truth[6]));

        // Unchanged kernels have nothing to explain in the work they do.
        let scale = pair(0);
        assert!(
            !scale
                .why
                .iter()
                .any(|w| matches!(w.kind, WhyKind::Instructions)),
            "{form}: {:?}",
            scale.why
        );
    }
}

#[test]
fn baselines_of_other_kernels_are_kept_apart() {
    let report = load_fixture("pair/before.ncu-rep.xz");
    let r = &report.results;
    // scale (0) against baselines scale (5), blur (6), scale (8).
    let split = split_baselines(&r[0], &[&r[5], &r[6], &r[8]]);
    assert_eq!(split.matching, vec![0, 2]);
    assert_eq!(split.other, vec![1]);
}

// ---- the `diff` command ----
