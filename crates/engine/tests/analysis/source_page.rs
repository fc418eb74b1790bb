//! The Source page against Nsight Compute's own exports (`ncu -i --page source --csv`): for
//! every kernel of `kernels_full` and of the inlined-function fixture, every per-instruction and
//! per-line cell; the inlined-function attribution; source text from the report and from a
//! source folder; SASS text from `nvdisasm -c` output and from an imported export; the PTX text
//! against the `--print-source ptx` export.

use crate::common;

use common::{fixture_bytes, fixture_file, fixture_path, temp_dir};
use sightline::analysis::source::{self, SourceOptions};
use sightline::model::source::{Cell, SourceView, TextOrigin};
use sightline::parse::ncu_rep::CodeIndex;
use sightline::parse::source_csv::{self, SourceExport};
use std::path::PathBuf;

/// Every launch of `kernels_full`, as `fixtures/source/kernels_full/` names its exports.
const KERNELS_FULL: [&str; 13] = [
    "k00_vector_add",
    "k01_vector_add",
    "k02_strided_copy",
    "k03_matmul_naive",
    "k04_matmul_tiled",
    "k05_dgemm_naive",
    "k06_reduce_bank_conflicts",
    "k07_reduce_sequential",
    "k08_conv2d_naive",
    "k09_convolutionConstantKernel",
    "k10_register_hog",
    "k11_divergent_branches",
    "k12_tiny_grid",
];

/// The bytes of an export that is stored plain or xz-compressed.
fn export(rel: &str) -> SourceExport {
    let rel = if fixture_path(rel).exists() {
        rel.to_string()
    } else {
        format!("{rel}.xz")
    };
    source_csv::parse(&fixture_bytes(&rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The Source page of every result of a report fixture.
fn views(rel: &str, options: &SourceOptions) -> Vec<SourceView> {
    let bytes = fixture_bytes(rel);
    let name = fixture_path(rel.trim_end_matches(".xz"));
    let report = sightline::parse::parse_bytes(&name, &bytes).expect("report");
    let index = CodeIndex::new(&bytes).expect("code index");
    report
        .results
        .iter()
        .map(|r| {
            let mangled = r.name.mangled.as_deref().expect("mangled name");
            let code = index
                .kernel_code(&bytes, mangled, source::function_address(r))
                .expect("module of the result");
            source::build(r, Some(&code), options).expect("source view")
        })
        .collect()
}

/// A report fixture's result whose demangled name contains `kernel`, and its Source page.
pub(crate) fn result_and_view(
    rel: &str,
    kernel: &str,
    options: &SourceOptions,
) -> (sightline::model::KernelResult, SourceView) {
    let bytes = fixture_bytes(rel);
    let name = fixture_path(rel.trim_end_matches(".xz"));
    let report = sightline::parse::parse_bytes(&name, &bytes).expect("report");
    let index = CodeIndex::new(&bytes).expect("code index");
    let r = report
        .results
        .iter()
        .find(|r| r.name.demangled.contains(kernel))
        .unwrap_or_else(|| panic!("{rel}: no kernel {kernel}"))
        .clone();
    let mangled = r.name.mangled.as_deref().expect("mangled name");
    let code = index
        .kernel_code(&bytes, mangled, source::function_address(&r))
        .expect("module of the result");
    let view = source::build(&r, Some(&code), options).expect("source view");
    (r, view)
}

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
        // `source --json` names the same rows.
        let dir = temp_dir(&format!("inline_json_{report}"));
        let file = fixture_file(&dir, &format!("source/{report}.ncu-rep.xz"));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
            .args(["source", "--json", "--kernel", "inline_chain"])
            .arg(&file)
            .output()
            .expect("sightline runs");
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let rows = doc["reports"][0]["results"][0]["inline_functions"]
            .as_array()
            .expect("inline_functions")
            .iter()
            .map(|f| {
                (
                    f["function"].as_str().unwrap_or("").to_string(),
                    f["call_line"].as_u64().unwrap_or(0) as u32,
                    f["instructions"].as_u64().unwrap_or(0) as usize,
                )
            })
            .collect::<Vec<_>>();
        let want: Vec<_> = view
            .inline_functions
            .iter()
            .map(|f| (f.name.clone(), f.call_line, f.instructions.len()))
            .collect();
        assert_eq!(rows, want, "{report}: source --json");
        let _ = std::fs::remove_dir_all(dir);
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
        source_dirs: vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")],
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
fn sass_text_from_nvdisasm_output_reads_as_ncu_prints_it() {
    let text = String::from_utf8(fixture_bytes("source/inl.nvdisasm_code.txt")).expect("utf-8");
    for (kernel, mangled) in [
        ("inline_chain", "_Z12inline_chainPKfPfi"),
        ("plain_copy", "_Z10plain_copyPKfPfi"),
    ] {
        let listing = &export(&format!("source/inl_src.{kernel}.source_sass.csv")).sass[0];
        let base = listing.rows[0].address;
        let ours = sightline::parse::sass::function_sass(&text, &format!(".text.{mangled}"), base);
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
        let ours = sightline::parse::sass::function_sass(&text, &format!(".text.{mangled}"), base);
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
    use sightline::parse::life_ranges::{RegisterFile::*, function_life_ranges};
    let text =
        String::from_utf8(fixture_bytes("source_files/reduce.life_ranges.txt.xz")).expect("utf-8");
    let sass = sightline::parse::sass::function_sass(&text, ".text._Z11reduce_shflPKfPfi", 0);
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

#[test]
fn the_app_reads_the_source_page_from_the_report_file() {
    let dir = temp_dir("source-page");
    let path = fixture_file(&dir, "source/inl_src.ncu-rep.xz");
    let report = sightline::parse::load_path(&path).expect("report");
    let expected = views("source/inl_src.ncu-rep.xz", &SourceOptions::default());
    for (r, want) in report.results.iter().zip(&expected) {
        let got = sightline::app::views::source::load(
            Some(&path),
            r,
            Default::default(),
            &sightline::parse::sass::Disassembler::none(),
        )
        .expect("view");
        assert_eq!(got.instructions.len(), want.instructions.len());
        assert_eq!(got.lines, want.lines);
    }
    // A text export holds no per-instruction metrics: the page says what it needs.
    let text = dir.join("details.txt");
    std::fs::write(&text, fixture_bytes("source/inl_src.details.txt")).expect("write");
    let report = sightline::parse::load_path(&text).expect("text report");
    let err = sightline::app::views::source::load(
        Some(&text),
        &report.results[0],
        Default::default(),
        &sightline::parse::sass::Disassembler::none(),
    )
    .expect_err("no view");
    assert!(err.contains(".ncu-rep"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
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

// ---------------------------------------------------------------------------------------------
// SASS from the real nvdisasm, found where pip puts it.

/// `sightline source --json FILE` run the way a user with nvdisasm from pip runs it: the
/// environment active (`VIRTUAL_ENV`), nvdisasm not on PATH, no cache of earlier runs.
fn source_json_with_pip_nvdisasm(
    file: &std::path::Path,
    venv: &std::path::Path,
) -> serde_json::Value {
    let cache = temp_dir("nvdisasm_cache");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(["source", "--json"])
        .arg(file)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("VIRTUAL_ENV", venv)
        .env("HOME", &cache)
        .env("XDG_CACHE_HOME", &cache)
        .output()
        .expect("sightline runs");
    let _ = std::fs::remove_dir_all(&cache);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; stderr: {}",
            file.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// The results of a `source --json` document that have a Source page.
fn source_pages(doc: &serde_json::Value) -> Vec<&serde_json::Value> {
    doc["reports"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| r["results"].as_array().into_iter().flatten())
        .filter(|r| r.get("error").is_none())
        .collect()
}

/// Text with runs of whitespace as one space.
fn squeezed(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn sass_from_pip_nvdisasm_equals_ncus_export_for_every_kernel() {
    let (venv, _) = common::pip_nvdisasm();
    let dir = temp_dir("pip_nvdisasm");
    let mut cases: Vec<(String, String)> = KERNELS_FULL
        .iter()
        .map(|k| {
            (
                "h100/kernels_full.ncu-rep.xz".into(),
                format!("source/kernels_full/{k}.source_sass.csv"),
            )
        })
        .collect();
    for report in ["inl_src", "inl_nosrc"] {
        for kernel in ["inline_chain", "plain_copy"] {
            cases.push((
                format!("source/{report}.ncu-rep.xz"),
                format!("source/{report}.{kernel}.source_sass.csv"),
            ));
        }
    }
    let mut docs = std::collections::HashMap::new();
    let mut checked = 0;
    for (report, sass_export) in &cases {
        let doc = docs
            .entry(report.clone())
            .or_insert_with(|| source_json_with_pip_nvdisasm(&fixture_file(&dir, report), &venv));
        let listing = &export(sass_export).sass[0];
        let page = source_pages(doc)
            .into_iter()
            .find(|p| p["kernel"] == listing.kernel.as_str())
            .unwrap_or_else(|| panic!("{report}: no Source page of {}", listing.kernel));
        let ours: std::collections::HashMap<&str, &str> = page["instructions"]
            .as_array()
            .expect("instructions")
            .iter()
            .map(|i| {
                (
                    i["address"].as_str().unwrap_or(""),
                    i["sass"].as_str().unwrap_or(""),
                )
            })
            .collect();
        assert_eq!(ours.len(), listing.rows.len(), "{sass_export}");
        for row in &listing.rows {
            let address = format!("0x{:x}", row.address);
            assert_eq!(
                ours.get(address.as_str()).map(|s| squeezed(s)),
                Some(squeezed(&row.sass)),
                "{sass_export} at {address}"
            );
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked} instructions");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Reports of ncu 2021.3 and earlier carry no relocation data: their cubins are stored as the
/// driver loaded them, each function's GPU address in its symbol. The function is found and
/// listed from that address (not from the first `launch__function_pcs`, which in
/// `computeValue<float>` is a function it calls); before Volta, in 8-byte slots.
#[test]
fn functions_of_cubins_stored_as_loaded_are_listed() {
    let public = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/public");
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
        let report = sightline::parse::parse_bytes(&path, &raw).expect("report");
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

#[test]
fn sass_from_pip_nvdisasm_and_tritons_for_every_public_report_with_a_cubin() {
    let (venv, _) = common::pip_nvdisasm();
    let public = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/public");
    let mut reports: Vec<PathBuf> = std::fs::read_dir(&public)
        .unwrap_or_else(|e| panic!("{}: {e}", public.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".ncu-rep.xz"))
        .collect();
    reports.sort();
    let dir = temp_dir("pip_nvdisasm_public");
    let (mut with_pages, mut instructions) = (0, 0);
    // Reports of ncu 2020.2 to 2021.3 store their modules as loaded, without relocation data:
    // each must have its pages, with SASS.
    let as_loaded = [
        "bautista-garcia__heat_sim__profile",
        "iamcoleman__monte-carlo-pi__profile",
        "thedavidchu__speedy_scan__profile",
        "SkeletonSkelettron__Yanni__prof",
        "bwd29__self-join-MiSTIC__profileSUSYNODE.out",
        "wtzhang23__gpu-ray-tracer__report",
    ];
    let mut as_loaded_pages = std::collections::BTreeMap::new();
    for xz in &reports {
        let raw = std::fs::read(xz).expect("read");
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut xz2::read::XzDecoder::new(&raw[..]), &mut bytes)
            .expect("xz");
        let file = dir.join(
            xz.file_name()
                .expect("name")
                .to_string_lossy()
                .trim_end_matches(".xz"),
        );
        std::fs::write(&file, &bytes).expect("write");
        // Only reports that carry the module's cubin can be disassembled.
        if CodeIndex::new(&bytes).map_or(true, |c| c.modules.iter().all(|m| m.cubin.is_none())) {
            continue;
        }
        let doc = source_json_with_pip_nvdisasm(&file, &venv);
        for page in source_pages(&doc) {
            let kernel = page["kernel"].as_str().unwrap_or("");
            let notes = page["notes"].to_string();
            // A function whose module the report does not carry has no code to disassemble.
            // Pascal and Volta cubins, which pip's nvdisasm (CUDA 13) refuses, are read by the
            // CUDA 12 nvdisasm of the environment's Triton.
            let name = xz
                .file_name()
                .unwrap()
                .to_string_lossy()
                .replace(".ncu-rep.xz", "");
            if as_loaded.contains(&name.as_str()) {
                assert!(
                    !notes.contains("holds no module"),
                    "{name}: {kernel}: {notes}"
                );
                *as_loaded_pages.entry(name.clone()).or_insert(0) += 1;
            }
            if notes.contains("holds no module for this function") {
                continue;
            }
            // NVIDIA's module gives the first instruction of speedy_scan's kernel as this.
            if name == "thedavidchu__speedy_scan__profile" {
                let first = page["instructions"][0]["sass"].as_str().unwrap_or("");
                assert_eq!(first.trim(), "IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28]");
            }
            assert!(
                !notes.contains("No SASS"),
                "{}: {kernel}: {notes}",
                xz.display()
            );
            for i in page["instructions"].as_array().into_iter().flatten() {
                let sass = i["sass"].as_str().unwrap_or("");
                assert!(
                    !sass.trim().is_empty(),
                    "{}: {kernel} at {}: no SASS",
                    xz.display(),
                    i["address"]
                );
                instructions += 1;
            }
            with_pages += 1;
        }
    }
    assert_eq!(
        as_loaded_pages.len(),
        as_loaded.len(),
        "every report stored as loaded has Source pages: {as_loaded_pages:?}"
    );
    println!("{with_pages} Source pages, {instructions} instructions with SASS");
    assert!(with_pages > 0 && instructions > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lines_are_grouped_by_file_with_the_kernels_own_file_first() {
    use sightline::app::views::source::{FileFilter, SourceChoice, listing};
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
    use sightline::app::views::source::{SourceChoice, listing};
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
fn source_json_carries_live_registers_and_producers_from_pip_nvdisasm() {
    let (venv, _) = common::pip_nvdisasm();
    let dir = temp_dir("life_ranges_json");
    let doc =
        source_json_with_pip_nvdisasm(&fixture_file(&dir, "source_files/reduce.ncu-rep.xz"), &venv);
    let results = doc["reports"][0]["results"].as_array().expect("results");
    let shfl = results
        .iter()
        .find(|r| {
            r["kernel"]
                .as_str()
                .is_some_and(|k| k.starts_with("reduce_shfl"))
        })
        .expect("reduce_shfl");
    assert!(
        shfl["kernel_file"]
            .as_str()
            .unwrap()
            .ends_with("/reduce.cu")
    );
    assert_eq!(shfl["registers_per_thread"], 16);
    let ins = shfl["instructions"].as_array().unwrap();
    let start = u64::from_str_radix(
        shfl["function_address"]
            .as_str()
            .unwrap()
            .trim_start_matches("0x"),
        16,
    )
    .unwrap();
    let at = |offset: u64| {
        let address = format!("0x{:x}", start + offset);
        ins.iter()
            .find(|i| i["address"] == address.as_str())
            .unwrap()
    };
    // `IMAD R2, R3, UR5, R0` with 5 registers live (R0 to R3 and R6; nvdisasm 13 with `-c`);
    // R3 came from `S2R R3, SR_CTAID.X` at 0x10, R0 from `S2R R0, SR_TID.X` at 0x50.
    let imad = at(0x80);
    assert_eq!(imad["live_registers"], 5);
    assert_eq!(imad["writes"], serde_json::json!(["R2"]));
    let from: Vec<(String, String)> = imad["reads_from"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["register"].as_str().unwrap().into(),
                r["address"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert!(
        from.contains(&("R3".into(), format!("0x{:x}", start + 0x10))),
        "{from:?}"
    );
    assert!(
        from.contains(&("R0".into(), format!("0x{:x}", start + 0x50))),
        "{from:?}"
    );
    // The padding after the last branch has no life range, and no live registers.
    let last = ins.last().unwrap();
    assert_eq!(last["sass"].as_str().map(str::trim), Some("NOP"));
    assert!(last.get("live_registers").is_none());
    let _ = std::fs::remove_dir_all(dir);
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

#[test]
fn a_value_search_lists_a_selection_with_its_statistics() {
    use sightline::app::views::source::{SourceChoice, ValueQuery, listing};
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
    use sightline::analysis::source::compare::compare;
    use sightline::app::views::source::{SourceChoice, listing, next_change};
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
    let parsed = sightline::parse::load_path(&report).expect("report");
    let chain = parsed
        .results
        .iter()
        .find(|r| r.name.demangled.starts_with("inline_chain"))
        .unwrap();
    let missing = sightline::app::views::source::load(
        Some(&report),
        chain,
        Default::default(),
        &sightline::parse::sass::Disassembler::none(),
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
    let view = sightline::app::views::source::load_with(
        Some(&report),
        chain,
        Default::default(),
        vec![(recorded.clone(), elsewhere.clone())],
        &sightline::parse::sass::Disassembler::none(),
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
    let other = sightline::app::views::source::load_with(
        Some(&report),
        chain,
        Default::default(),
        vec![("/home/someone/else".into(), elsewhere)],
        &sightline::parse::sass::Disassembler::none(),
    )
    .expect("view");
    assert_eq!(other.files[0].origin, TextOrigin::Missing);
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(checkout);
}
