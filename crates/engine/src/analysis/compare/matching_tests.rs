use super::*;
use crate::model::KernelName;

fn launch(id: u64, name: &str, grid: u64) -> KernelResult {
    KernelResult {
        id,
        name: KernelName::from_demangled(name),
        grid: Some(Dim3 {
            x: grid,
            y: 1,
            z: 1,
        }),
        block: Some(Dim3 { x: 256, y: 1, z: 1 }),
        ..KernelResult::default()
    }
}

#[test]
fn equal_names_pair_in_order_and_shapes_break_ties() {
    let base = vec![
        launch(0, "a(int)", 1),
        launch(1, "b(int)", 8),
        launch(2, "a(int)", 2),
        launch(3, "a(int)", 3),
    ];
    // The first launch of `a` is gone; shapes say which of the remaining ones pair.
    let current = vec![
        launch(0, "b(int)", 8),
        launch(1, "a(int)", 2),
        launch(2, "a(int)", 3),
    ];
    let m = match_results(&base, &current);
    let pairs: Vec<(usize, usize)> = m.pairs.iter().map(|p| (p.base, p.current)).collect();
    assert_eq!(pairs, vec![(1, 0), (2, 1), (3, 2)]);
    assert_eq!(m.only_in_base, vec![0]);
    assert!(m.only_in_current.is_empty());
    assert_eq!(m.notes.len(), 1);
    assert!(m.notes[0].message.contains("3 times in base and 2 times"));
}

#[test]
fn shape_mismatch_is_reported() {
    let base = vec![launch(0, "a(int)", 1)];
    let current = vec![launch(0, "void a(int)", 4)];
    let m = match_results(&base, &current);
    assert_eq!(m.pairs.len(), 1);
    assert!(m.pairs[0].shape_differs);
    assert_eq!(m.pairs[0].kind, MatchKind::Exact);
    assert_eq!(
        m.pairs[0].changes,
        vec!["grid changed: (1, 1, 1) → (4, 1, 1)".to_string()]
    );
}

#[test]
fn bare_names_match_full_signatures_loosely() {
    let base = vec![launch(0, "convolutionConstantKernel", 1)];
    let current = vec![
        launch(
            0,
            "convolutionConstantKernel(const float *, float *, int, int, int)",
            1,
        ),
        launch(1, "matmul_tiled<64>(float *)", 1),
    ];
    let m = match_results(&base, &current);
    assert_eq!(m.pairs.len(), 1);
    assert_eq!(m.pairs[0].kind, MatchKind::NameOnly);
    assert_eq!(m.only_in_current, vec![1]);
    // Different template arguments in the same place: the same function, labelled.
    let m = match_results(
        &[launch(0, "matmul_tiled<32>(float *)", 1)],
        &[launch(0, "matmul_tiled<64>(float *)", 1)],
    );
    assert_eq!(m.pairs.len(), 1);
    assert_eq!(m.pairs[0].kind, MatchKind::TemplateArgs);
    assert_eq!(
        m.pairs[0].changes,
        vec!["template args changed: <32> → <64>".to_string()]
    );
}

/// Each pair as (base, current, kind).
fn kinds(m: &Matching) -> Vec<(usize, usize, MatchKind)> {
    m.pairs
        .iter()
        .map(|p| (p.base, p.current, p.kind))
        .collect()
}

/// The matching with renames only suggested.
fn suggesting(base: &[KernelResult], current: &[KernelResult]) -> Matching {
    let policy = RenamePolicy {
        auto_pair: false,
        unpaired: Vec::new(),
    };
    match_results_with(base, current, &[], &policy)
}

#[test]
fn renames_are_paired_suggested_and_manual_pairs_respected() {
    let base = vec![
        launch(0, "a(int)", 1),
        launch(1, "normalize(float *, int)", 8),
        launch(2, "b(int)", 1),
    ];
    let current = vec![
        launch(0, "a(int)", 1),
        launch(1, "normalize_rows(float *, int)", 8),
        launch(2, "b(int)", 1),
    ];
    // One function each side alone has, same parameters, same place: one kernel renamed.
    let m = match_results(&base, &current);
    assert!(m.only_in_base.is_empty() && m.only_in_current.is_empty());
    assert_eq!(m.pairs[1].kind, MatchKind::Renamed);
    assert_eq!(
        m.pairs[1].changes,
        vec!["name changed: normalize → normalize_rows".to_string()]
    );
    assert_eq!(
        m.renamed[0].label(),
        "paired as renamed: `normalize` → `normalize_rows`, same parameters and launch \
         shape, 1 launch"
    );
    assert!(m.notes.is_empty() && m.suggested.is_empty());
    // Not paired automatically: suggested, with one note.
    let m = suggesting(&base, &current);
    assert_eq!(
        (m.only_in_base.clone(), m.only_in_current.clone()),
        (vec![1], vec![1])
    );
    assert_eq!(m.notes.len(), 1, "{:?}", m.notes);
    assert_eq!(m.notes[0].kind, NoteKind::PossibleRename);
    assert!(
        m.notes[0]
            .message
            .starts_with("possibly renamed: `normalize` (base 1) → `normalize_rows` (current 1)")
    );
    // Unpaired by the user: suggested only.
    let policy = RenamePolicy {
        auto_pair: true,
        unpaired: vec![("normalize".into(), "normalize_rows".into())],
    };
    let m = match_results_with(&base, &current, &[], &policy);
    assert!(m.renamed.is_empty());
    assert_eq!(m.suggested.len(), 1);
    let m = match_results_with(&base, &current, &[(1, 1)], &policy);
    assert_eq!(
        kinds(&m),
        vec![
            (0, 0, MatchKind::Exact),
            (1, 1, MatchKind::Manual),
            (2, 2, MatchKind::Exact)
        ]
    );
    assert_eq!(
        m.pairs[1].changes,
        vec!["name changed: normalize → normalize_rows".to_string()]
    );
    assert!(m.notes.is_empty());
    // A manual pair across the order does not disturb the others.
    let m = match_results_with(&base, &current, &[(0, 2)], &policy);
    assert!(m.pairs.iter().any(|p| (p.base, p.current) == (0, 2)));
    assert!(m.only_in_base.contains(&2) && m.only_in_current.contains(&0));
}

#[test]
fn only_unambiguous_renames_are_paired() {
    // Two functions of one parameter list on each side: which is which is a guess.
    let base = vec![
        launch(0, "smooth_a(float *, int)", 8),
        launch(1, "smooth_b(float *, int)", 8),
    ];
    let current = vec![
        launch(0, "smooth_c(float *, int)", 8),
        launch(1, "smooth_d(float *, int)", 8),
    ];
    let m = match_results(&base, &current);
    assert!(m.pairs.is_empty() && m.renamed.is_empty());
    assert_eq!(m.suggested.len(), 2);
    // Other parameters at the same place and shape: two kernels, suggested only.
    let m = match_results(
        &[launch(0, "scale_old(float *, float, int)", 8)],
        &[launch(0, "fused_bias_relu(float *, const float *, int)", 8)],
    );
    assert!(m.pairs.is_empty());
    assert_eq!(m.suggested[0].reason, "same grid and threads per block");
    // Another launch count: not the same kernel's launches.
    let m = match_results(
        &[launch(0, "k1(float *)", 8), launch(1, "k1(float *)", 8)],
        &[launch(0, "k2(float *)", 8)],
    );
    assert!(m.renamed.is_empty());
    // Not in the same place: one launch before a common kernel, the other after it.
    let m = match_results(
        &[launch(0, "k1(float *)", 8), launch(1, "x(int)", 1)],
        &[launch(0, "x(int)", 1), launch(1, "k2(float *)", 8)],
    );
    assert!(m.renamed.is_empty());
    // `const` dropped is still the same parameter list.
    let m = match_results(
        &[launch(0, "t_naive(float *, const float *, int)", 8)],
        &[launch(0, "t_tiled(float *, float *, int)", 8)],
    );
    assert_eq!(m.renamed.len(), 1);
    assert_eq!(m.pairs[0].kind, MatchKind::Renamed);
}

#[test]
fn a_rewrite_with_a_new_name_and_a_reshaped_block_is_paired_in_place() {
    let launch_of = |i: u64, name: &str, block: (u64, u64)| {
        let mut r = launch(i, name, 64);
        r.block = Some(Dim3 {
            x: block.0,
            y: block.1,
            z: 1,
        });
        r
    };
    // Two launches each: a naive GEMM and its coalesced rewrite, the block reshaped.
    let base = vec![
        launch_of(0, "naive(float *, float *, float *, int)", (32, 32)),
        launch_of(1, "naive(float *, float *, float *, int)", (32, 32)),
    ];
    let current = vec![
        launch_of(0, "coalesced(float *, float *, float *, int)", (1024, 1)),
        launch_of(1, "coalesced(float *, float *, float *, int)", (1024, 1)),
    ];
    let m = match_results(&base, &current);
    assert_eq!(
        kinds(&m),
        vec![(0, 0, MatchKind::Renamed), (1, 1, MatchKind::Renamed)]
    );
    assert_eq!(m.renamed.len(), 1, "one line for both launches");
    assert_eq!(m.renamed[0].launches, 2);
    assert_eq!(m.renamed[0].reason, "same parameters");
    let m = suggesting(&base, &current);
    assert!(m.pairs.is_empty());
    let got: Vec<(usize, usize, &str)> = m
        .suggested
        .iter()
        .map(|s| (s.base, s.current, s.reason.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![(0, 0, "same parameters"), (1, 1, "same parameters")]
    );
    assert_eq!(
        m.notes.len(),
        1,
        "one note for both launches: {:?}",
        m.notes
    );
    assert!(m.notes[0].message.contains("2 launches"), "{:?}", m.notes);
    assert_eq!(pair_argument(&m.suggested), "--pair 0=0,1=1");
    // Other parameters, but the same grid and threads per block: still offered.
    let current: Vec<KernelResult> = (0..2)
        .map(|i| launch_of(i, "coalesced(const float *, float *, int)", (1024, 1)))
        .collect();
    let m = match_results(&base, &current);
    assert_eq!(m.suggested.len(), 2);
    assert_eq!(m.suggested[0].reason, "same grid and threads per block");
    // Neither: nothing offered.
    let current: Vec<KernelResult> = (0..2)
        .map(|i| launch_of(i, "coalesced(const float *, float *, int)", (256, 1)))
        .collect();
    assert!(match_results(&base, &current).suggested.is_empty());
}

#[test]
fn bools_spelled_either_way_agree() {
    assert_eq!(unify_bools("k<float,false,1>(T1)"), "k<float,0,1>(T1)");
    assert_eq!(unify_bools("falsey<true>"), "falsey<1>");
}
