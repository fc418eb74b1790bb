//! `diff --format html` and `summary --format html`: one self-contained page with every
//! matched kernel, the totals, the SVG chart and the suggested renames; well formed, nothing
//! loaded or linked, and every text from the reports escaped.

use crate::common;

use sightline_engine::analysis::compare::{DiffOptions, diff_reports};
use sightline_engine::model::KernelName;
use sightline_engine::output::compare::html::diff_html;
use sightline_engine::output::html_page::escape;
use std::path::Path;
use std::process::Command;

type Dir = common::TempFixtures;

fn sightline(args: &[&str], files: &[&Path]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(args)
        .args(files)
        .output()
        .expect("run sightline");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("utf-8"),
    )
}

/// Elements that have no end tag.
const VOID: [&str; 4] = ["meta", "br", "hr", "img"];

/// Checks that every element is closed in order, and returns the tag names seen.
fn check_well_formed(page: &str) -> Vec<String> {
    let mut stack: Vec<String> = Vec::new();
    let mut seen = Vec::new();
    let mut rest = page;
    let mut in_raw: Option<&str> = None;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let end = rest.find('>').expect("a tag ends");
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if let Some(raw) = in_raw {
            if tag == format!("/{raw}") {
                in_raw = None;
                stack.pop();
            }
            continue;
        }
        if tag.starts_with('!') {
            continue;
        }
        let closing = tag.starts_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        assert!(!name.is_empty(), "a tag without a name: <{tag}>");
        if closing {
            let open = stack.pop().unwrap_or_default();
            assert_eq!(open, name, "</{name}> closes <{open}>");
        } else if !VOID.contains(&name.as_str()) && !tag.ends_with('/') {
            if name == "style" {
                in_raw = Some("style");
            }
            stack.push(name.clone());
        }
        seen.push(name);
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    seen
}

/// Nothing loaded or linked: no address, no script, no external resource.
fn check_self_contained(page: &str) {
    for bad in [
        "http:", "https:", "//", "<script", "<link", "<iframe", "<img", "src=", "href=", "url(",
        "@import",
    ] {
        assert!(!page.contains(bad), "the page contains `{bad}`");
    }
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("prefers-color-scheme: dark"));
}

#[test]
fn diff_page_has_every_kernel_the_totals_and_the_chart() {
    let dir = Dir::new("diff");
    let before = dir.add("before.ncu-rep", "pair/before.ncu-rep.xz");
    let after = dir.add("after.ncu-rep", "pair/after.ncu-rep.xz");
    let (code, page) = sightline(&["diff", "--format", "html"], &[&before, &after]);
    let (json_code, json) = sightline(&["diff", "--format", "json"], &[&before, &after]);
    assert_eq!(code, json_code, "the same exit code as the other forms");
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();

    check_self_contained(&page);
    let tags = check_well_formed(&page);
    assert!(tags.iter().any(|t| t == "svg"));
    assert!(
        page.len() < 200_000,
        "small enough to attach: {} bytes",
        page.len()
    );

    // Every matched kernel, with its IDs, in order of impact.
    let matched = doc["matched"].as_array().unwrap();
    assert!(!matched.is_empty());
    let rows: Vec<&str> = page.split("<tr class=\"kernel\">").skip(1).collect();
    assert_eq!(rows.len(), matched.len());
    for k in matched {
        let name = escape(k["name"].as_str().unwrap());
        let ids = format!("{}→{}", k["base_id"], k["current_id"]);
        assert!(
            rows.iter().any(|r| r.contains(&name) && r.contains(&ids)),
            "kernel {ids} {name} listed"
        );
    }
    let impacts: Vec<f64> = {
        let mut v: Vec<&serde_json::Value> = matched.iter().collect();
        v.sort_by(|a, b| {
            let t = |k: &serde_json::Value| k["time_delta_ns"].as_f64().map_or(-1.0, f64::abs);
            t(b).total_cmp(&t(a))
        });
        v.iter()
            .map(|k| k["time_delta_ns"].as_f64().unwrap_or(0.0))
            .collect()
    };
    let first_ids = rows[0].split("</td>").next().unwrap();
    let biggest = matched
        .iter()
        .find(|k| k["time_delta_ns"].as_f64() == Some(impacts[0]))
        .unwrap();
    assert!(first_ids.contains(&format!("{}→{}", biggest["base_id"], biggest["current_id"])));
    // Verdicts.
    for k in matched {
        if let Some(v) = k["duration_ns"]["verdict"].as_str() {
            assert!(page.contains(&format!("class=\"{v}\">{v}<")));
        }
    }

    // The totals, as the text form gives them.
    let (_, text) = sightline(&["diff"], &[&before, &after]);
    for line in text
        .lines()
        .filter(|l| l.starts_with("Matched (") || l.starts_with("Net ("))
    {
        assert!(page.contains(&escape(line)), "totals line `{line}`");
    }

    // The chart: one bar per kernel with a time change, at most 15.
    let svg = &page[page.find("<svg").unwrap()..page.find("</svg>").unwrap()];
    let with_time = matched
        .iter()
        .filter(|k| k["time_delta_ns"].is_number())
        .count();
    assert_eq!(svg.matches("<rect").count(), with_time.min(15));

    // Unmatched kernels and the suggested renames with their --pair argument.
    for k in doc["only_in_base"]
        .as_array()
        .unwrap()
        .iter()
        .chain(doc["only_in_current"].as_array().unwrap())
    {
        assert!(page.contains(&escape(k["name"].as_str().unwrap())));
    }
    let pair_line = text
        .lines()
        .find(|l| l.contains("--pair "))
        .expect("the text form offers a --pair argument");
    let pair = &pair_line[pair_line.find("--pair ").unwrap()..];
    assert!(page.contains(&escape(pair.trim())), "`{pair}` on the page");
}

#[test]
fn report_text_is_escaped() {
    let before = common::oracle::parse_fixture("pair/before.ncu-rep.xz");
    let mut after = before.clone();
    let evil = "evil<script>alert('x')</script>&kernel(int)";
    for r in &mut after.results {
        r.name = KernelName::from_demangled(evil);
    }
    let diff = diff_reports(&before, &after, &DiffOptions::default());
    let page = diff_html(&diff, &before, &after, "a <b> title");
    check_self_contained(&page);
    check_well_formed(&page);
    assert!(!page.contains("<script"));
    assert!(page.contains("evil&lt;script&gt;"));
    assert!(page.contains("a &lt;b&gt; title"));
}

#[test]
fn summary_page_lists_every_result() {
    let dir = Dir::new("summary");
    let full = dir.add("full.ncu-rep", "h100/kernels_full.ncu-rep.xz");
    let (code, page) = sightline(&["summary", "--format", "html"], &[&full]);
    assert_eq!(code, 0);
    check_self_contained(&page);
    check_well_formed(&page);
    let truth = common::load_truth("h100/kernels_full.truth.json.xz");
    let rows: Vec<&str> = page.split("<tr class=\"result\">").skip(1).collect();
    assert_eq!(rows.len(), truth.len());
    for (row, t) in rows.iter().zip(&truth) {
        assert!(row.contains(&escape(&t.function)), "{}", t.function);
    }
    assert!(page.contains("<svg"));
    assert!(page.contains("NVIDIA H100 80GB HBM3"));
}

/// The why-list of a pair is a row under the pair's row, across the table (the three pairs of
/// largest impact unfolded, the others folded with `<details>`), not a last column; the reports
/// are named by their files, without the folders they lay in here.
#[test]
fn diff_page_lists_why_under_each_pair_and_names_files_only() {
    let dir = Dir::new("diff_why_rows");
    let before = dir.add("before.ncu-rep", "pair/before.ncu-rep.xz");
    let after = dir.add("after.ncu-rep", "pair/after.ncu-rep.xz");
    let (_, page) = sightline(&["diff", "--format", "html"], &[&before, &after]);
    let (_, json) = sightline(&["diff", "--format", "json"], &[&before, &after]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    check_well_formed(&page);

    // The folder of this machine is nowhere on the page; the files are named.
    let folder = escape(&dir.0.display().to_string());
    assert!(!page.contains(&folder), "the page names {folder}");
    assert!(page.contains("Base: <span class=\"mono\">before.ncu-rep (ncu-rep, 9 results"));
    assert!(page.contains("Current: <span class=\"mono\">after.ncu-rep (ncu-rep, 9 results"));

    // No Why column: a row of its own under each pair that has something to say.
    let table = &page[page.find("<table class=\"matched\">").unwrap()..];
    let table = &table[..table.find("</table>").unwrap()];
    assert!(!table.contains("<th>Why</th>"));
    let head = &table[..table.find("</thead>").unwrap()];
    let columns = head.matches("<th>").count() + head.matches("<th class").count();
    let rows: Vec<&str> = table.split("<tr").skip(2).collect();
    let mut kernel: Option<&str> = None;
    let mut why_rows = 0;
    for row in &rows {
        if row.starts_with(" class=\"why-row\"") {
            let above = kernel.take().expect("a why row under its kernel's row");
            assert!(
                row.contains(&format!("colspan=\"{}\"", columns - 1)),
                "{row}"
            );
            // The explanations of that pair, by its IDs in the JSON document.
            let ids = above
                .split("</td>")
                .next()
                .and_then(|c| c.rsplit('>').next())
                .unwrap();
            let pair = doc["matched"]
                .as_array()
                .unwrap()
                .iter()
                .find(|k| format!("{}→{}", k["base_id"], k["current_id"]) == ids)
                .unwrap_or_else(|| panic!("no pair {ids}"));
            for w in pair["why"].as_array().unwrap().iter().take(3) {
                let text = escape(w["text"].as_str().unwrap());
                assert!(row.contains(&text), "{ids}: `{text}` not under its row");
            }
            let open = row.contains("<details open>");
            assert_eq!(open, why_rows < 3, "why row {why_rows} of {ids}");
            why_rows += 1;
        } else {
            assert!(row.starts_with(" class=\"kernel\""), "{row}");
            kernel = Some(row);
        }
    }
    assert!(why_rows > 3, "{why_rows} pairs with a why-list");
}

/// Counts read as words on the pages and in the text forms: `1 result`, `1 kernel matched`,
/// never `1 results` or `kernel(s)`.
#[test]
fn counts_of_one_read_as_words() {
    let dir = Dir::new("counts_of_one");
    let one = dir.add("one.txt", "seeds/gui_details_copy_a100.txt");
    let (code, page) = sightline(&["summary", "--format", "html"], &[&one]);
    assert_eq!(code, 0);
    assert!(page.contains(", 1 result, "), "{page}");
    let (_, diff_page) = sightline(&["diff", "--format", "html"], &[&one, &one]);
    assert!(diff_page.contains("(gui-copy, 1 result"), "{diff_page}");
    let (_, md) = sightline(&["diff", "--format", "md"], &[&one, &one]);
    assert!(md.contains("(1 kernel matched)"), "{md}");
    let (_, text) = sightline(&["diff"], &[&one, &one]);
    for out in [&page, &diff_page, &md, &text] {
        assert!(!out.contains("(s)"), "{out}");
        assert!(!out.contains(" 1 results"), "{out}");
    }
}
