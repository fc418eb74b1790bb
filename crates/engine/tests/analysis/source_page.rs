//! The Source page against Nsight Compute's own exports (`ncu -i --page source --csv`): for
//! every kernel of `kernels_full` and of the inlined-function fixture, every per-instruction and
//! per-line cell; the inlined-function attribution; source text from the report and from a
//! source folder; the PTX text against the `--print-source ptx` export; rule markers on the
//! lines and instructions the rules name. SASS text is in `source_sass`; the page's view-model
//! in crates/app/tests/views/source_listing.rs; `source --json` in tests/cli/source_json.rs of
//! the root package.

use sightline_engine::analysis::source::SourceOptions;
use sightline_engine::model::source::{Cell, SourceView, TextOrigin};
use sightline_engine::parse::source_csv::SourceExport;
use sightline_testkit::fixture_bytes;
use sightline_testkit::source_fixture::{KERNELS_FULL, export, views};

/// Whether our cell equals the exported text.
fn same(ours: &Cell, theirs: &str) -> bool {
    match ours {
        Cell::Number(v) => theirs.parse::<f64>().is_ok_and(|t| t == *v),
        Cell::Text(t) => t == theirs,
    }
}

/// Every instruction and every cell of the first SASS listing of an export.
fn check_instructions(view: &SourceView, export: &SourceExport, what: &str) {
    let listing = &export.sass[0];
    assert_eq!(view.columns, listing.columns, "{what}: columns");
    assert_eq!(
        view.instructions.len(),
        listing.rows.len(),
        "{what}: instruction count"
    );
    let mut cells = 0;
    for (ours, theirs) in view.instructions.iter().zip(&listing.rows) {
        assert_eq!(ours.address, theirs.address, "{what}: address");
        for ((name, o), t) in view.columns.iter().zip(&ours.cells).zip(&theirs.cells) {
            assert!(
                same(o, t),
                "{what}: {:#x} {name}: ours {o:?}, ncu {t:?}",
                ours.address
            );
            cells += 1;
        }
    }
    assert!(cells > 100, "{what}: only {cells} cells compared");
}

/// Every CUDA line of the export's line listings, every cell, and no line of ours missing.
fn check_lines(view: &SourceView, export: &SourceExport, what: &str) {
    assert!(
        !export.lines.is_empty(),
        "{what}: the export has no line listing"
    );
    let mut theirs_count = 0;
    for listing in &export.lines {
        assert_eq!(view.columns, listing.columns, "{what}: line columns");
        for row in &listing.lines {
            theirs_count += 1;
            let ours = view
                .lines
                .iter()
                .find(|l| view.files[l.file].path == listing.file && l.line == row.line)
                .unwrap_or_else(|| panic!("{what}: line {} of {} missing", row.line, listing.file));
            for ((name, o), t) in view.columns.iter().zip(&ours.cells).zip(&row.cells) {
                assert!(
                    same(o, t),
                    "{what}: line {} {name}: ours {o:?}, ncu {t:?}",
                    row.line
                );
            }
        }
    }
    assert_eq!(
        view.lines.len(),
        theirs_count,
        "{what}: number of lines with code"
    );
}

#[test]
fn every_kernel_of_kernels_full_equals_ncus_source_page() {
    let views = views("h100/kernels_full.ncu-rep.xz", &SourceOptions::default());
    assert_eq!(views.len(), KERNELS_FULL.len());
    for (view, name) in views.iter().zip(KERNELS_FULL) {
        let sass = export(&format!("source/kernels_full/{name}.source_sass.csv"));
        assert_eq!(view.kernel, sass.sass[0].kernel, "{name}: kernel");
        check_instructions(view, &sass, name);
        let cuda = export(&format!("source/kernels_full/{name}.source_cuda_sass.csv"));
        check_lines(view, &cuda, name);
        assert!(view.has_line_info, "{name}");
        // The report was made with --import-source yes: every line's text is the export's.
        for listing in &cuda.lines {
            for row in &listing.lines {
                let l = view
                    .lines
                    .iter()
                    .find(|l| l.line == row.line)
                    .expect("line");
                assert_eq!(
                    view.files[l.file].line_text(row.line).map(str::trim),
                    Some(row.source.trim()),
                    "{name}: text of line {}",
                    row.line
                );
            }
        }
    }
}

#[test]
fn inlined_device_functions_count_for_their_lines_and_call_sites() {
    for report in ["inl_src", "inl_nosrc"] {
        let views = views(
            &format!("source/{report}.ncu-rep.xz"),
            &SourceOptions::default(),
        );
        for kernel in ["inline_chain", "plain_copy"] {
            let view = views
                .iter()
                .find(|v| v.kernel.starts_with(kernel))
                .expect("kernel");
            let what = format!("{report} {kernel}");
            check_instructions(
                view,
                &export(&format!("source/{report}.{kernel}.source_sass.csv")),
                &what,
            );
            check_lines(
                view,
                &export(&format!("source/{report}.{kernel}.source_cuda_sass.csv")),
                &what,
            );
        }
        // inl.cu: `poly` (line 10) is inlined into `load_and_poly` (line 16), itself inlined at
        // line 27; code of line 10 called from line 16 counts for both lines.
        let chain = views
            .iter()
            .find(|v| v.kernel.starts_with("inline_chain"))
            .expect("kernel");
        let line = |n: u32| chain.lines.iter().find(|l| l.line == n).expect("line");
        let shared = line(10)
            .instructions
            .iter()
            .filter(|i| line(16).instructions.contains(i))
            .count();
        assert!(
            shared > 0,
            "{report}: no code of poly() attributed to its call site"
        );
    }
}

/// The device functions of a CUDA file: each `__device__` definition's name and the lines from
/// its first to its closing brace.
fn device_functions(cu: &str) -> Vec<(String, std::ops::RangeInclusive<u32>)> {
    let lines: Vec<&str> = cu.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if !l.starts_with("__device__") {
            continue;
        }
        let head = l.split('(').next().unwrap_or("");
        let name = head.split_whitespace().last().unwrap_or("").to_string();
        let end = (i..lines.len())
            .find(|&j| lines[j] == "}")
            .expect("closing brace");
        out.push((name, (i as u32 + 1)..=(end as u32 + 1)));
    }
    out
}

/// For each instruction address of `function` in `nvdisasm -g -gi` output, its inlined-code
/// comments: the line of the code and the line it is inlined at, one per level.
fn inlined_levels(nvdisasm: &str, function: &str) -> Vec<(u64, Vec<(u32, u32)>)> {
    let header = format!(".text.{function}:");
    let body = nvdisasm.split(&header).nth(1).expect("function's code");
    let body = body.split("//-----").next().unwrap_or(body);
    let (mut levels, mut out, mut fresh) = (Vec::new(), Vec::new(), false);
    for line in body.lines() {
        let t = line.trim();
        if let Some(comment) = t.strip_prefix("//## File ") {
            if !fresh {
                levels.clear();
                fresh = true;
            }
            let numbers: Vec<u32> = comment
                .split(", line ")
                .skip(1)
                .filter_map(|p| p.split_whitespace().next()?.parse().ok())
                .collect();
            if let [at, called_from] = numbers[..] {
                levels.push((at, called_from));
            }
        } else if let Some(rest) = t.strip_prefix("/*") {
            let Some(address) = rest
                .split("*/")
                .next()
                .and_then(|a| u64::from_str_radix(a, 16).ok())
            else {
                continue;
            };
            fresh = false;
            out.push((address, levels.clone()));
        }
    }
    out
}

#[test]
fn inline_functions_table_equals_nvdisasm_inline_info_and_ncu_values() {
    let cu = String::from_utf8(fixture_bytes("source/inl.cu")).expect("text");
    let functions = device_functions(&cu);
    assert_eq!(functions.len(), 3, "{functions:?}");
    let nvdisasm = String::from_utf8(fixture_bytes("source/inl.nvdisasm.txt.xz")).expect("text");
    let levels = inlined_levels(&nvdisasm, "_Z12inline_chainPKfPfi");
    // Expected: (function, call line) -> offsets of its instructions.
    let mut expected: std::collections::BTreeMap<(String, u32), Vec<u64>> = Default::default();
    for (offset, chain) in &levels {
        for &(at, called_from) in chain {
            let (name, _) = functions
                .iter()
                .find(|(_, lines)| lines.contains(&at))
                .expect("inlined line inside a device function");
            expected
                .entry((name.clone(), called_from))
                .or_default()
                .push(*offset);
        }
    }
    assert!(expected.len() >= 4, "{expected:?}");
    for report in ["inl_src", "inl_nosrc"] {
        let views = views(
            &format!("source/{report}.ncu-rep.xz"),
            &SourceOptions::default(),
        );
        let view = views
            .iter()
            .find(|v| v.kernel.starts_with("inline_chain"))
            .expect("kernel");
        let ours: std::collections::BTreeMap<(String, u32), Vec<u64>> = view
            .inline_functions
            .iter()
            .map(|f| {
                let short = f.name.split('(').next().unwrap_or("").to_string();
                let offsets = f
                    .instructions
                    .iter()
                    .map(|&i| view.instructions[i].address - view.function_address)
                    .collect();
                ((short, f.call_line), offsets)
            })
            .collect();
        assert_eq!(ours, expected, "{report}");
        // Each row's values are the sums of ncu's per-instruction values.
        let sass = export(&format!("source/{report}.inline_chain.source_sass.csv"));
        let listing = &sass.sass[0];
        for f in &view.inline_functions {
            for (c, name) in listing.columns.iter().enumerate() {
                let Some(Cell::Number(ours)) = f.cells.get(c) else {
                    continue;
                };
                let theirs: f64 = f
                    .instructions
                    .iter()
                    .map(|&i| view.instructions[i].address)
                    .filter_map(|a| listing.rows.iter().find(|r| r.address == a))
                    .filter_map(|r| r.cells.get(c)?.parse::<f64>().ok())
                    .sum();
                assert!(
                    (ours - theirs).abs() <= 1e-9 * theirs.abs().max(1.0),
                    "{report} {} at line {} {name}: ours {ours}, ncu's {theirs}",
                    f.name,
                    f.call_line
                );
            }
        }
        // plain_copy inlines nothing.
        let plain = views
            .iter()
            .find(|v| v.kernel.starts_with("plain_copy"))
            .expect("kernel");
        assert!(plain.inline_functions.is_empty());
    }
}

#[test]
fn source_text_is_found_through_a_source_folder() {
    // inl_nosrc records /opt/sightline-fixture/src/inl.cu and holds no source text.
    let recorded = "/opt/sightline-fixture/src/inl.cu";
    if std::path::Path::new(recorded).exists() {
        return; // the recorded path itself would be found
    }
    let bare = views("source/inl_nosrc.ncu-rep.xz", &SourceOptions::default());
    let chain = bare
        .iter()
        .find(|v| v.kernel.starts_with("inline_chain"))
        .expect("kernel");
    assert_eq!(chain.files[0].path, recorded);
    assert_eq!(chain.files[0].origin, TextOrigin::Missing);
    assert!(
        chain.notes.iter().any(|n| n.contains("--source-dir")),
        "{:?}",
        chain.notes
    );

    let options = SourceOptions {
        source_dirs: vec![sightline_testkit::repo_path("fixtures")],
        ..SourceOptions::default()
    };
    let found = views("source/inl_nosrc.ncu-rep.xz", &options);
    let chain = found
        .iter()
        .find(|v| v.kernel.starts_with("inline_chain"))
        .expect("kernel");
    let TextOrigin::Disk(path) = &chain.files[0].origin else {
        panic!("not found on disk: {:?}", chain.files[0].origin);
    };
    assert!(path.ends_with("source/inl.cu"), "{path}");
    // The text equals what ncu printed when the file was in place.
    let cuda = export("source/inl_nosrc.inline_chain.source_cuda_sass.csv");
    for row in &cuda.lines[0].lines {
        assert_eq!(
            chain.files[0].line_text(row.line).map(str::trim),
            Some(row.source.trim())
        );
    }
}

#[test]
fn ptx_text_equals_ncus_ptx_export_line_by_line() {
    for report in ["inl_src", "inl_nosrc"] {
        let views = views(
            &format!("source/{report}.ncu-rep.xz"),
            &SourceOptions::default(),
        );
        assert_eq!(views.len(), 2, "{report}");
        for view in &views {
            let name = view.kernel.split('(').next().unwrap_or_default();
            let rel = format!("source/{report}.{name}.source_ptx.csv");
            let bytes = fixture_bytes(&rel);
            let mut reader = csv::ReaderBuilder::new()
                .has_headers(true)
                .from_reader(bytes.as_slice());
            let rows: Vec<(String, String)> = reader
                .records()
                .map(|r| {
                    let r = r.unwrap_or_else(|e| panic!("{rel}: {e}"));
                    (r[0].to_string(), r[1].to_string())
                })
                .collect();
            assert!(rows.len() > 100, "{rel}: {} rows", rows.len());
            assert_eq!(view.ptx.len(), rows.len(), "{rel}");
            for (i, (ours, (number, theirs))) in view.ptx.iter().zip(&rows).enumerate() {
                assert_eq!(number, &(i + 1).to_string(), "{rel}");
                assert_eq!(ours, theirs, "{rel} line {number}");
            }
        }
    }
}

#[test]
fn rule_markers_sit_on_the_lines_and_instructions_the_rules_name() {
    let views = views("source_files/reduce.ncu-rep.xz", &SourceOptions::default());
    let view = |name: &str| views.iter().find(|v| v.kernel.starts_with(name)).unwrap();
    let line_markers = |v: &SourceView, rule: &str| -> Vec<u32> {
        let mut lines: Vec<u32> = v
            .markers
            .iter()
            .filter(|m| m.rule == rule)
            .filter_map(|m| m.line.map(|l| v.lines[l].line))
            .collect();
        lines.sort();
        lines
    };
    let shfl = view("reduce_shfl");
    // The rule's own table names these lines: `@source:reduce.cu:15:reduce.cu, line 16@` and
    // `@source:reduce.cu:8:reduce.cu, line 9@`.
    assert_eq!(
        line_markers(shfl, "FP32 Non-Fused Instructions"),
        vec![9, 16]
    );
    assert_eq!(line_markers(shfl, "Long Scoreboard Stalls"), vec![16]);
    // Its SASS marker is on an instruction of that line.
    let sass: Vec<usize> = shfl.markers.iter().filter_map(|m| m.instruction).collect();
    assert_eq!(sass.len(), 1);
    assert_eq!(shfl.instructions[sass[0]].line().map(|(_, l)| l), Some(16));
    let strided = view("strided_sum");
    assert_eq!(line_markers(strided, "UncoalescedGlobalAccess"), vec![31]);
    // Eight uncoalesced global accesses, each on line 31 and marked with ncu's text.
    let uncoalesced: Vec<_> = strided
        .markers
        .iter()
        .filter(|m| m.rule == "UncoalescedGlobalAccess" && m.instruction.is_some())
        .collect();
    assert_eq!(uncoalesced.len(), 8);
    for m in uncoalesced {
        let ins = &strided.instructions[m.instruction.unwrap()];
        assert_eq!(ins.line().map(|(_, l)| l), Some(31));
        assert_eq!(
            m.tooltip,
            "87.50% of this line's global accesses are excessive."
        );
    }
}
