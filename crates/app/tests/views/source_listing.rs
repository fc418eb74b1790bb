//! The Source page's view-model: the app reads the page from the report file (and from a
//! located source folder), lists lines grouped by file with the kernel's own file first and the
//! function's own PTX with ncu's line numbers, searches values with their statistics, and steps
//! through the lines that changed.

use sightline_engine::analysis::source::{self, SourceOptions};
use sightline_engine::model::source::TextOrigin;
use sightline_testkit::source_fixture::{export, views};
use sightline_testkit::{fixture_bytes, fixture_file, temp_dir};

#[test]
fn the_app_reads_the_source_page_from_the_report_file() {
    let dir = temp_dir("source-page");
    let path = fixture_file(&dir, "source/inl_src.ncu-rep.xz");
    let report = sightline_engine::parse::load_path(&path).expect("report");
    let expected = views("source/inl_src.ncu-rep.xz", &SourceOptions::default());
    for (r, want) in report.results.iter().zip(&expected) {
        let got = sightline_app::views::source::load(
            Some(&path),
            r,
            Default::default(),
            &sightline_engine::parse::sass::Disassembler::none(),
        )
        .expect("view");
        assert_eq!(got.instructions.len(), want.instructions.len());
        assert_eq!(got.lines, want.lines);
    }
    // A text export holds no per-instruction metrics: the page says what it needs.
    let text = dir.join("details.txt");
    std::fs::write(&text, fixture_bytes("source/inl_src.details.txt")).expect("write");
    let report = sightline_engine::parse::load_path(&text).expect("text report");
    let err = sightline_app::views::source::load(
        Some(&text),
        &report.results[0],
        Default::default(),
        &sightline_engine::parse::sass::Disassembler::none(),
    )
    .expect_err("no view");
    assert!(err.contains(".ncu-rep"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lines_are_grouped_by_file_with_the_kernels_own_file_first() {
    use sightline_app::views::source::{FileFilter, SourceChoice, listing};
    let views = views("source_files/reduce.ncu-rep.xz", &SourceOptions::default());
    let view = views
        .iter()
        .find(|v| v.kernel.starts_with("reduce_shfl"))
        .expect("reduce_shfl");
    let own = view.kernel_file.expect("the kernel's file");
    assert!(
        view.files[own].path.ends_with("/reduce.cu"),
        "{}",
        view.files[own].path
    );
    // Its code inlines two CUDA headers: their lines are files of their own.
    let headers: Vec<&str> = view
        .files
        .iter()
        .map(|f| f.path.as_str())
        .filter(|p| p.ends_with(".hpp"))
        .collect();
    assert_eq!(headers.len(), 2, "{headers:?}");
    let shown = listing(view, &SourceChoice::default());
    assert_eq!(shown.file, Some(own));
    assert_eq!(shown.files[0].index, own);
    assert!(
        shown.files[0].label.starts_with("reduce.cu ("),
        "{}",
        shown.files[0].label
    );
    assert!(shown.lines.iter().all(|&i| view.lines[i].file == own));
    // ncu's CUDA export of the kernel lists that file, and every line we list is one of its.
    let cuda = export("source_files/reduce.reduce_shfl.source_cuda_sass.csv");
    assert_eq!(cuda.lines[0].file, view.files[own].path);
    let numbers: Vec<u32> = cuda.lines[0].lines.iter().map(|l| l.line).collect();
    for &i in &shown.lines {
        assert!(numbers.contains(&view.lines[i].line));
    }
    // One header on its own, then every file.
    let header = shown.files[1].index;
    let choice = SourceChoice {
        file: FileFilter::One(header),
        ..SourceChoice::default()
    };
    let of_header = listing(view, &choice);
    assert!(!of_header.lines.is_empty());
    assert!(
        of_header
            .lines
            .iter()
            .all(|&i| view.lines[i].file == header)
    );
    let choice = SourceChoice {
        file: FileFilter::All,
        ..SourceChoice::default()
    };
    assert_eq!(listing(view, &choice).lines.len(), view.lines.len());
}

#[test]
fn the_functions_own_ptx_is_listed_with_ncus_line_numbers() {
    use sightline_app::views::source::{SourceChoice, listing};
    let views = views("source_files/reduce.ncu-rep.xz", &SourceOptions::default());
    let view = views
        .iter()
        .find(|v| v.kernel.starts_with("reduce_shfl"))
        .expect("reduce_shfl");
    let (first, last) = view.ptx_function.expect("the function's PTX");
    assert!(
        view.ptx[first].contains(".entry _Z11reduce_shflPKfPfi("),
        "{}",
        view.ptx[first]
    );
    assert_eq!(view.ptx[last - 1].trim(), "}");
    // Line numbers as ncu's PTX export numbers the module.
    let bytes = fixture_bytes("source_files/reduce.reduce_shfl.source_ptx.csv");
    let mut rows = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(&bytes[..]);
    let theirs: Vec<(usize, String)> = rows
        .records()
        .map(|r| r.expect("row"))
        .map(|r| (r[0].parse().expect("line"), r[1].to_string()))
        .collect();
    for (i, (number, text)) in theirs.iter().enumerate().take(last).skip(first) {
        assert_eq!(*number, i + 1);
        assert_eq!(view.ptx[i].trim(), text.trim(), "PTX line {number}");
    }
    // The page lists the function's lines; the whole module is one click away.
    let shown = listing(
        view,
        &SourceChoice {
            ptx: true,
            ..SourceChoice::default()
        },
    );
    assert_eq!(shown.ptx, (first..last).collect::<Vec<_>>());
    let whole = listing(
        view,
        &SourceChoice {
            ptx: true,
            module_ptx: true,
            ..SourceChoice::default()
        },
    );
    assert_eq!(whole.ptx.len(), view.ptx.len());
}

#[test]
fn a_value_search_lists_a_selection_with_its_statistics() {
    use sightline_app::views::source::{SourceChoice, ValueQuery, listing};
    assert!(ValueQuery::parse("ld.global").is_none());
    assert!(ValueQuery::parse(">= 5").is_some_and(|q| q.holds(5.0) && !q.holds(4.0)));
    assert!(ValueQuery::parse("<1,000").is_some_and(|q| q.holds(999.0) && !q.holds(1000.0)));
    assert!(ValueQuery::parse("!= 0").is_some_and(|q| !q.holds(0.0)));
    let views = views("source_files/reduce.ncu-rep.xz", &SourceOptions::default());
    let view = views
        .iter()
        .find(|v| v.kernel.starts_with("strided_sum"))
        .unwrap();
    let all = listing(view, &SourceChoice::default());
    let column = all.column;
    let value = |i: usize| view.lines[i].cells[column].number().unwrap_or(0.0);
    // Lines at least as hot as the second hottest.
    let threshold = value(all.lines[1]);
    let choice = SourceChoice {
        search: format!(">= {threshold}"),
        ..SourceChoice::default()
    };
    let some = listing(view, &choice);
    let expected: Vec<usize> = all
        .lines
        .iter()
        .copied()
        .filter(|&i| value(i) >= threshold)
        .collect();
    assert!(!expected.is_empty() && expected.len() < all.lines.len());
    assert_eq!(some.lines, expected);
    let sum: f64 = expected.iter().map(|&i| value(i)).sum();
    assert_eq!(some.line_stats.count, expected.len());
    assert_eq!(some.line_stats.sum, sum);
    assert_eq!(
        some.line_stats.max,
        expected.iter().map(|&i| value(i)).fold(0.0, f64::max)
    );
    // The share is of the whole function's samples.
    let total: f64 = view
        .instructions
        .iter()
        .map(|i| i.cells[column].number().unwrap_or(0.0))
        .sum();
    let share = some.line_stats.share_pct.unwrap();
    assert!((share - sum / total * 100.0).abs() < 1e-9);
}

#[test]
fn previous_and_next_change_step_through_the_lines_that_changed() {
    use sightline_app::views::source::{SourceChoice, listing, next_change};
    use sightline_engine::analysis::source::compare::compare;
    let chain = |rel: &str| {
        views(rel, &SourceOptions::default())
            .into_iter()
            .find(|v| v.kernel.starts_with("inline_chain"))
            .unwrap()
    };
    let base = chain("source/inl_nosrc.ncu-rep.xz");
    let current = chain("source/inl_src.ncu-rep.xz");
    let comparison = compare(&base, &current);
    let shown = listing(&current, &SourceChoice::default());
    let changed: Vec<usize> = shown
        .lines
        .iter()
        .copied()
        .filter(|&i| comparison.lines[i].delta[shown.column].is_some_and(|d| d != 0.0))
        .collect();
    assert!(changed.len() >= 2, "{changed:?}");
    // Forward from nothing visits each changed line once, in the order listed, then wraps.
    let mut at = None;
    let mut visited = Vec::new();
    for _ in 0..changed.len() {
        at = next_change(&shown, &comparison, at, false);
        visited.push(at.unwrap());
    }
    assert_eq!(visited, changed);
    assert_eq!(
        next_change(&shown, &comparison, at, false),
        Some(changed[0])
    );
    // Back from the first goes to the last.
    assert_eq!(
        next_change(&shown, &comparison, Some(changed[0]), true),
        changed.last().copied()
    );
}

#[test]
fn a_located_folder_gives_the_sources_recorded_under_it() {
    // inl_nosrc records /opt/sightline-fixture/src/inl.cu and holds no source text.
    let dir = temp_dir("locate_source");
    let report = fixture_file(&dir, "source/inl_nosrc.ncu-rep.xz");
    // The checkout is not below the report's folder (which is searched anyway).
    let checkout = temp_dir("locate_source_checkout");
    let elsewhere = checkout.join("kernels");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("inl.cu"), fixture_bytes("source/inl.cu")).unwrap();
    let parsed = sightline_engine::parse::load_path(&report).expect("report");
    let chain = parsed
        .results
        .iter()
        .find(|r| r.name.demangled.starts_with("inline_chain"))
        .unwrap();
    let missing = sightline_app::views::source::load(
        Some(&report),
        chain,
        Default::default(),
        &sightline_engine::parse::sass::Disassembler::none(),
    )
    .expect("view");
    assert_eq!(missing.files[0].origin, TextOrigin::Missing);
    assert!(
        missing
            .notes
            .iter()
            .any(|n| n.contains("locate its folder"))
    );
    let recorded = source::recorded_folder(&missing.files[0].path).to_string();
    assert_eq!(recorded, "/opt/sightline-fixture/src");
    // The folder located for that prefix: found there, with ncu's text.
    let view = sightline_app::views::source::load_with(
        Some(&report),
        chain,
        Default::default(),
        vec![(recorded.clone(), elsewhere.clone())],
        &sightline_engine::parse::sass::Disassembler::none(),
    )
    .expect("view");
    let TextOrigin::Disk(path) = &view.files[0].origin else {
        panic!("not found: {:?}", view.files[0].origin);
    };
    assert!(
        path.ends_with("locate_source_checkout/kernels/inl.cu"),
        "{path}"
    );
    let cuda = export("source/inl_nosrc.inline_chain.source_cuda_sass.csv");
    for row in &cuda.lines[0].lines {
        assert_eq!(
            view.files[0].line_text(row.line).map(str::trim),
            Some(row.source.trim())
        );
    }
    // A folder located for another prefix is not used.
    let other = sightline_app::views::source::load_with(
        Some(&report),
        chain,
        Default::default(),
        vec![("/home/someone/else".into(), elsewhere)],
        &sightline_engine::parse::sass::Disassembler::none(),
    )
    .expect("view");
    assert_eq!(other.files[0].origin, TextOrigin::Missing);
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(checkout);
}
