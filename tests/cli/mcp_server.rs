//! `sightline mcp`: the real binary driven over stdio with raw JSON-RPC: the handshake, the
//! tool list, every tool on real reports (values checked against NVIDIA's oracle), the root
//! confinement, and bad requests after which the server still answers.

use crate::common;
use crate::mcp_client::{Client, WAIT};

use serde_json::{Value as Json, json};
use std::time::Duration;

/// A temporary folder with the fixtures decompressed, removed at the end.
type Dir = common::TempFixtures;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

#[test]
fn every_tool_answers_with_the_oracle_values() {
    let dir = Dir::new("tools");
    dir.add("full.ncu-rep", "h100/kernels_full.ncu-rep.xz");
    dir.add("before.ncu-rep", "pair/before.ncu-rep.xz");
    dir.add("after.ncu-rep", "pair/after.ncu-rep.xz");
    let mut c = Client::start(&[&dir.0]);

    let init = c.initialize();
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(init["result"]["serverInfo"]["name"], "sightline");
    assert!(init["result"]["capabilities"]["tools"].is_object());

    let tools = c.request("tools/list", json!({}));
    let tools = tools["result"]["tools"].as_array().expect("tools").clone();
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(
        names,
        [
            "list_results",
            "result_details",
            "compare",
            "source_hotspots",
            "occupancy",
            "roofline",
            "trend"
        ]
    );
    for t in &tools {
        assert_eq!(t["inputSchema"]["type"], "object", "{t}");
        assert_eq!(t["outputSchema"]["type"], "object", "{t}");
        assert!(!t["description"].as_str().unwrap_or("").is_empty());
    }

    // list_results: every row's duration and Speed of Light as the oracle has them.
    let truth = common::load_truth("h100/kernels_full.truth.json.xz");
    let list = c.structured(
        "list_results",
        json!({"report": "full.ncu-rep", "limit": 100}),
    );
    let rows = list["results"].as_array().unwrap();
    assert_eq!(rows.len(), truth.len());
    assert_eq!(list["report"]["cached"], false);
    assert!(list["left_out"].is_null());
    for (r, t) in rows.iter().zip(&truth) {
        assert_eq!(r["function"], t.function.as_str());
        assert!(close(
            r["duration_ns"].as_f64().unwrap(),
            t.number("gpu__time_duration.sum")
        ));
        assert!(close(
            r["sol_memory_pct"].as_f64().unwrap(),
            t.number("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed")
        ));
    }
    // A page of two: the rest is said to be left out; the report comes from the cache.
    let page = c.structured(
        "list_results",
        json!({"report": "full.ncu-rep", "limit": 2}),
    );
    assert_eq!(page["results"].as_array().unwrap().len(), 2);
    assert_eq!(page["report"]["cached"], true);
    assert!(page["left_out"].as_str().unwrap().contains("offset"));

    // result_details of the register-limited kernel.
    let (index, hog) = truth
        .iter()
        .enumerate()
        .find(|(_, t)| t.function == "register_hog")
        .expect("register_hog in the oracle");
    let hog_id = rows[index]["id"].as_u64().unwrap();
    let details = c.structured(
        "result_details",
        json!({"report": "full.ncu-rep", "result_id": hog_id, "max_rules": 3}),
    );
    assert_eq!(details["result"]["function"], "register_hog");
    assert!(close(
        details["speed_of_light"]["duration_ns"].as_f64().unwrap(),
        hog.number("gpu__time_duration.sum")
    ));
    assert!(
        details["speed_of_light"]["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["label"] == "Duration" && m["unit"] == "ns")
    );
    let sections = details["sections"].as_array().unwrap();
    assert!(sections.len() > 3);
    for s in sections {
        for m in s["metrics"].as_array().unwrap() {
            assert!(m["unit"].is_string() && m["text"].is_string(), "{m}");
        }
    }
    let rules = details["rules"].as_array().unwrap();
    assert_eq!(rules.len(), 3, "max_rules");
    assert!(
        rules[0]["speedup_pct"].as_f64().unwrap()
            >= rules[1]["speedup_pct"].as_f64().unwrap_or(0.0)
    );
    assert!(details["left_out"].as_str().unwrap().contains("max_rules"));

    // occupancy, and a what-if with fewer registers.
    let occ = c.structured(
        "occupancy",
        json!({"report": "full.ncu-rep", "result_id": hog_id, "registers_per_thread": 32}),
    );
    let theoretical = occ["occupancy"]["theoretical_occupancy_pct"]
        .as_f64()
        .unwrap();
    assert!(close(
        theoretical,
        hog.number("sm__maximum_warps_per_active_cycle_pct")
    ));
    assert_eq!(occ["occupancy"]["limiter"], "registers");
    assert!(
        occ["occupancy"].get("curves").is_none(),
        "curves only when asked"
    );
    let what_if = &occ["what_if"];
    assert_eq!(what_if["registers_per_thread"], 32);
    assert!(what_if["theoretical_occupancy_pct"].as_f64().unwrap() > theoretical);

    // roofline.
    let roof = c.structured(
        "roofline",
        json!({"report": "full.ncu-rep", "result_id": hog_id}),
    );
    assert_eq!(roof["roofline"]["estimated"], false);
    assert!(roof["roofline"]["achieved"]["fp32"].as_f64().unwrap() > 0.0);
    let bounds = roof["bounds"].as_array().unwrap();
    assert!(bounds.iter().any(|b| b["precision"] == "fp32"));

    // source hot spots: ranked, with shares and stall reasons.
    let src = c.structured(
        "source_hotspots",
        json!({"report": "full.ncu-rep", "result_id": hog_id, "limit": 3}),
    );
    assert_eq!(src["column"], "Warp Stall Sampling (All Samples)");
    let lines = src["lines"].as_array().unwrap();
    assert!(!lines.is_empty() && lines.len() <= 3);
    let values: Vec<f64> = lines.iter().map(|l| l["value"].as_f64().unwrap()).collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "hottest first");
    assert!(!lines[0]["stall_reasons"].as_array().unwrap().is_empty());
    let ins = src["instructions"].as_array().unwrap();
    assert_eq!(ins.len(), 3);
    assert!(ins[0]["address"].as_str().unwrap().starts_with("0x"));
    assert!(src["total"].as_f64().unwrap() >= values[0]);

    // compare two reports: matched kernels with the oracle's durations.
    let before = common::load_truth("pair/before.truth.json.xz");
    let after = common::load_truth("pair/after.truth.json.xz");
    let cmp = c.structured(
        "compare",
        json!({"base": "before.ncu-rep", "current": "after.ncu-rep", "limit": 100}),
    );
    let matched = cmp["matched"].as_array().unwrap();
    assert_eq!(matched.len() as u64, cmp["matched_count"].as_u64().unwrap());
    assert!(!matched.is_empty());
    let base_rows = c.structured("list_results", json!({"report": "before.ncu-rep"}));
    let current_rows = c.structured("list_results", json!({"report": "after.ncu-rep"}));
    let index_of = |rows: &Json, id: &Json| {
        rows["results"]
            .as_array()
            .unwrap()
            .iter()
            .position(|r| &r["id"] == id)
            .unwrap()
    };
    let mut previous = f64::INFINITY;
    for k in matched {
        let b = &before[index_of(&base_rows, &k["base_id"])];
        let a = &after[index_of(&current_rows, &k["current_id"])];
        assert!(close(
            k["duration_ns"]["base"].as_f64().unwrap(),
            b.number("gpu__time_duration.sum")
        ));
        assert!(close(
            k["duration_ns"]["current"].as_f64().unwrap(),
            a.number("gpu__time_duration.sum")
        ));
        let impact = k["time_delta_ns"].as_f64().unwrap().abs();
        assert!(impact <= previous, "sorted by time won or lost");
        previous = impact;
        assert!(
            ["better", "worse", "unchanged", "neutral"]
                .contains(&k["duration_ns"]["verdict"].as_str().unwrap())
        );
    }
    assert!(cmp["totals"]["noise_ns"].is_number());
    assert_eq!(cmp["threshold_pct"], 2.0);
    // The rename normalize → normalize_rows is paired and said; the removed and added
    // kernels of other parameters are only suggested.
    let renamed = cmp["renamed"].as_array().unwrap();
    assert_eq!(renamed.len(), 1);
    assert_eq!(renamed[0]["base_function"], "normalize");
    assert_eq!(renamed[0]["current_function"], "normalize_rows");
    assert!(
        c.summary_of(
            "compare",
            json!({"base": "before.ncu-rep", "current": "after.ncu-rep"})
        )
        .contains("Paired as renamed: `normalize` → `normalize_rows`")
    );
    let unpaired = c.structured(
        "compare",
        json!({"base": "before.ncu-rep", "current": "after.ncu-rep", "auto_pair": false}),
    );
    assert!(unpaired["renamed"].as_array().unwrap().is_empty());
    assert_eq!(
        unpaired["matched_count"].as_u64().unwrap() + 1,
        cmp["matched_count"].as_u64().unwrap()
    );
    let suggested = cmp["suggested_pairs"].as_array().unwrap();
    assert!(!suggested.is_empty(), "the pair fixture renames kernels");
    let pairs: Vec<String> = suggested
        .iter()
        .map(|s| format!("{}={}", s["base_id"], s["current_id"]))
        .collect();
    assert!(cmp["pair_hint"].as_str().unwrap().contains(&pairs[0]));

    // With the suggested pairs and another threshold the renamed kernels are matched.
    let paired = c.structured(
        "compare",
        json!({"base": "before.ncu-rep", "current": "after.ncu-rep", "pairs": pairs, "threshold": 10, "limit": 100}),
    );
    assert_eq!(paired["threshold_pct"], 10.0);
    assert_eq!(
        paired["matched_count"].as_u64().unwrap(),
        cmp["matched_count"].as_u64().unwrap() + suggested.len() as u64
    );
    assert!(paired["suggested_pairs"].as_array().unwrap().is_empty());

    // Two results compared.
    let k = &matched[0];
    let one = c.structured(
        "compare",
        json!({"base": "before.ncu-rep", "current": "after.ncu-rep",
               "base_result_id": k["base_id"], "current_result_id": k["current_id"]}),
    );
    assert_eq!(one["matched_count"], 1);
    assert_eq!(one["matched"][0]["duration_ns"], k["duration_ns"]);

    // A pair in brief is the document's pair (`diff --format json`) with the headline
    // metrics for the whole list and each change also in words: what both hold is the same.
    let out = common::run_diff(
        &["--format", "json"],
        &dir.0.join("before.ncu-rep"),
        &dir.0.join("after.ncu-rep"),
    );
    let doc: Json = serde_json::from_slice(&out.stdout).unwrap();
    let without = |j: &Json, keys: &[&str]| -> Json {
        let mut j = j.clone();
        for key in keys {
            j.as_object_mut().unwrap().remove(*key);
        }
        j
    };
    for brief in matched {
        let full = doc["matched"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["base_id"] == brief["base_id"] && f["current_id"] == brief["current_id"])
            .expect("the pair in the document");
        for key in ["changes", "match", "name", "shape_differs", "time_delta_ns"] {
            assert_eq!(brief[key], full[key], "{key}");
        }
        assert_eq!(
            without(&brief["duration_ns"], &["change"]),
            full["duration_ns"]
        );
        let headline = brief["headline"].as_array().unwrap();
        assert!(!headline.is_empty());
        for m in headline {
            let same = full["metrics"]
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["key"] == m["key"])
                .expect("the headline metric in the document");
            assert_eq!(&without(m, &["change", "label"]), same);
            assert!(m["change"].is_string() && m["label"].is_string());
        }
    }
}

#[test]
fn the_trend_tool_follows_a_renamed_kernel_through_the_series() {
    let dir = Dir::new("trend");
    for v in 1..=5 {
        dir.add(&format!("v{v}.ncu-rep"), &format!("series/v{v}.ncu-rep.xz"));
    }
    let mut c = Client::start(&[&dir.0]);
    c.initialize();
    let reports: Vec<String> = (1..=5).map(|v| format!("v{v}.ncu-rep")).collect();
    let t = c.structured("trend", json!({"reports": reports, "order": "captured"}));
    let labels: Vec<&str> = t["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["v1", "v2", "v3", "v5", "v4"]);
    let gemm = t["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == "gemm_tiled_2d")
        .expect("the GEMM");
    assert_eq!(gemm["names"], json!(["gemm_step", "gemm_tiled_2d"]));
    let truth = common::load_truth("series/v1.truth.json.xz");
    let first = truth.iter().find(|r| r.function == "gemm_step").unwrap();
    assert!(close(
        gemm["points"][0]["mean_ns"].as_f64().unwrap(),
        first.number("gpu__time_duration.sum")
    ));
    assert_eq!(t["regressions"], json!([]));
    // The naive version last: a regression, with the rule that found it.
    let late = ["v2", "v3", "v4", "v5", "v1"].map(|v| format!("{v}.ncu-rep"));
    let t = c.structured("trend", json!({"reports": late}));
    assert_eq!(t["regressions"][0]["kernel"], "gemm_step");
    assert_eq!(t["regressions"][0]["rule"], "duration>median5+3spread");
}

/// `trend` with `by_size`: the reports of a sweep named under the root (in any order) give
/// the same document as `sightline trend --by-size --format json` on their folder, NVIDIA's
/// values in it; a size pattern reads sizes from file names; a sweep that cannot be built is a
/// failed call saying why, and the options of a series beside `by_size` are bad arguments.
#[test]
fn the_trend_tool_by_size_answers_as_the_command() {
    use crate::sweep_cli::{assert_document, copy_sweep, exact, sweep};
    use common::sweep_fixture::{SIZES, VERSIONS};
    let dir = Dir::new("trend-by-size");
    let root = std::fs::canonicalize(&dir.0).unwrap();
    copy_sweep(&root.join("sweep"), |n, v| format!("N={n}/{v}.ncu-rep"));
    copy_sweep(&root.join("flat"), |n, v| format!("{v}-size{n}.ncu-rep"));
    let mut c = Client::start(&[&root]);
    c.initialize();
    let mut reports: Vec<String> = SIZES
        .iter()
        .flat_map(|n| {
            VERSIONS
                .iter()
                .map(move |v| format!("sweep/N={n}/{v}.ncu-rep"))
        })
        .collect();
    reports.reverse();
    let answer = c.structured("trend", json!({"reports": reports, "by_size": true}));
    let (code, out, err) = sweep(&["--format", "json"], &[root.join("sweep")]);
    assert_eq!(code, 0, "{err}");
    let command: Json = serde_json::from_str(&out).unwrap();
    assert_eq!(answer, command, "the tool answers as the command");
    // NVIDIA's values, read from the answer's text with exact numbers.
    let text = c.call("trend", json!({"reports": reports, "by_size": true}))["content"][1]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert_document(&exact(&text), "N", &VERSIONS);
    let summary = c.summary_of("trend", json!({"reports": reports, "by_size": true}));
    assert!(
        summary.starts_with(
            "Sweep over N: 4 sizes (256, 512, 1024, 2048), 3 versions (v1, v3, v5); 1 kernel."
        ),
        "{summary}"
    );
    // Sizes in the file names, with a pattern.
    let flat: Vec<String> = SIZES
        .iter()
        .flat_map(|n| {
            VERSIONS
                .iter()
                .map(move |v| format!("flat/{v}-size{n}.ncu-rep"))
        })
        .collect();
    let args = json!({"reports": flat, "by_size": true, "size_pattern": "size(\\d+)"});
    let answer = c.structured("trend", args);
    let (code, out, err) = sweep(
        &["--format", "json", "--size-pattern", r"size(\d+)"],
        &[root.join("flat")],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(answer, serde_json::from_str::<Json>(&out).unwrap());
    assert_document(&exact(&out), "size", &VERSIONS);
    // Without the pattern no report has a size: refused, each named.
    let refused = c.call("trend", json!({"reports": flat, "by_size": true}));
    assert_eq!(refused["isError"], json!(true));
    let why = refused["content"][0]["text"].as_str().unwrap();
    assert!(
        why.contains("a sweep needs reports at two sizes or more"),
        "{why}"
    );
    assert!(
        why.contains("v3-size512.ncu-rep: left out of the sweep: no size"),
        "{why}"
    );
    let bad = c.request(
        "tools/call",
        json!({"name": "trend", "arguments": {"reports": flat, "by_size": true, "order": "captured"}}),
    );
    assert!(
        bad["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not a sweep"),
        "{bad}"
    );
}

#[test]
fn the_server_reads_only_under_its_roots_and_survives_bad_requests() {
    let dir = Dir::new("roots");
    let root = dir.0.join("root");
    let outside = dir.0.join("outside");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let inside = root.join("basic.ncu-rep");
    std::fs::write(
        &inside,
        common::fixture_bytes("h100/kernels_basic.ncu-rep.xz"),
    )
    .unwrap();
    let secret = outside.join("secret.ncu-rep");
    std::fs::copy(&inside, &secret).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&secret, root.join("link.ncu-rep")).unwrap();

    let mut c = Client::start(&[&root]);
    c.initialize();

    let refused = |c: &mut Client, path: &str| {
        let r = c.call("list_results", json!({"report": path}));
        assert_eq!(r["isError"], true, "{path} must be refused: {r}");
        r["content"][0]["text"].as_str().unwrap().to_string()
    };
    // One answer for every refusal, whatever the reason: a file outside that exists and one
    // that does not, a `..` escape, a symlink pointing out, a file inside that is missing.
    let reason = |text: &str, path: &str| {
        assert!(
            text.starts_with(&format!("{path}: not readable here")),
            "{text}"
        );
        text[path.len()..].to_string()
    };
    let secret_path = secret.to_str().unwrap().to_string();
    let absent_outside = outside.join("absent.ncu-rep");
    let absent_outside = absent_outside.to_str().unwrap().to_string();
    let same = reason(&refused(&mut c, &secret_path), &secret_path);
    assert_eq!(
        reason(&refused(&mut c, &absent_outside), &absent_outside),
        same,
        "an absent file outside reads as an existing one"
    );
    let dotdot = "../outside/secret.ncu-rep";
    assert_eq!(reason(&refused(&mut c, dotdot), dotdot), same);
    #[cfg(unix)]
    assert_eq!(
        reason(&refused(&mut c, "link.ncu-rep"), "link.ncu-rep"),
        same
    );
    assert_eq!(
        reason(&refused(&mut c, "missing.ncu-rep"), "missing.ncu-rep"),
        same
    );
    // A directory is no report file.
    std::fs::create_dir_all(root.join("adir")).unwrap();
    assert_eq!(reason(&refused(&mut c, "adir"), "adir"), same);

    // A report inside is read, by a relative and by an absolute path.
    let ok = c.structured("list_results", json!({"report": "basic.ncu-rep"}));
    assert!(ok["results"].as_array().unwrap().len() > 1);
    let ok = c.structured("list_results", json!({"report": inside.to_str().unwrap()}));
    assert_eq!(ok["report"]["cached"], true, "the same file is opened once");

    // Malformed JSON, nesting deeper than the parser allows, a number out of range: each is
    // answered with the parse error and a null id; a request over the size bound with an
    // invalid request; the next request is answered.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    for bad in [
        "{this is not json".to_string(),
        deep,
        r#"{"jsonrpc": "2.0", "id": 1e400, "method": "ping"}"#.to_string(),
    ] {
        c.send_raw(&bad);
        let err = c.next();
        assert_eq!(err["error"]["code"], -32700, "{err}");
        assert!(err["id"].is_null(), "{err}");
    }
    let huge = format!(
        r#"{{"jsonrpc": "2.0", "id": 5, "method": "ping", "pad": "{}"}}"#,
        "x".repeat(20 << 20)
    );
    c.send_raw(&huge);
    let err = c.next();
    assert_eq!(err["error"]["code"], -32600, "{err}");
    let pong = c.request("ping", json!({}));
    assert!(pong["result"].is_object(), "{pong}");
    // JSON that is no JSON-RPC message: Invalid Request.
    c.send_raw(r#"{"foo": "bar"}"#);
    let err = c.next();
    assert_eq!(err["error"]["code"], -32600, "{err}");
    // An unknown method, an unknown tool, wrong argument types, an unknown argument.
    let err = c.request("no/such/method", json!({}));
    assert_eq!(err["error"]["code"], -32601, "{err}");
    let err = c.request(
        "tools/call",
        json!({"name": "no_such_tool", "arguments": {}}),
    );
    assert_eq!(err["error"]["code"], -32602, "{err}");
    let err = c.request(
        "tools/call",
        json!({"name": "list_results", "arguments": {"report": 7}}),
    );
    assert_eq!(err["error"]["code"], -32602, "{err}");
    let err = c.request(
        "tools/call",
        json!({"name": "occupancy", "arguments": {"report": "basic.ncu-rep", "block_size": "big"}}),
    );
    assert_eq!(err["error"]["code"], -32602, "{err}");
    let err = c.request(
        "tools/call",
        json!({"name": "compare", "arguments": {"base": "basic.ncu-rep"}}),
    );
    assert_eq!(err["error"]["code"], -32602, "a missing argument: {err}");
    let err = c.request(
        "tools/call",
        json!({"name": "roofline", "arguments": {"report": "basic.ncu-rep", "bogus": 1}}),
    );
    assert_eq!(err["error"]["code"], -32602, "{err}");
    // A result ID the report does not have: the tool says which IDs it has.
    let r = c.call(
        "result_details",
        json!({"report": "basic.ncu-rep", "result_id": 999999}),
    );
    assert_eq!(r["isError"], true);
    assert!(r["content"][0]["text"].as_str().unwrap().contains("999999"));

    // Still serving.
    let ok = c.structured("roofline", json!({"report": "basic.ncu-rep"}));
    assert!(ok["roofline"].is_object());
}

/// A directory under the root swapped again and again with a symlink to a directory outside
/// while the server is asked for a report in it: the path is never checked apart from the
/// file opened, so no answer ever holds the outside report.
#[cfg(unix)]
#[test]
fn a_directory_swapped_for_a_symlink_never_leaks_a_report_outside_the_root() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = Dir::new("race");
    let root = dir.0.join("root");
    let outside = dir.0.join("outside");
    std::fs::create_dir_all(root.join("racedir")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(
        root.join("racedir/r.ncu-rep"),
        common::fixture_bytes("h100/kernels_basic.ncu-rep.xz"),
    )
    .unwrap();
    // The outside report has kernels the inside one does not.
    std::fs::write(
        outside.join("r.ncu-rep"),
        common::fixture_bytes("pair/before.ncu-rep.xz"),
    )
    .unwrap();
    std::os::unix::fs::symlink(&outside, root.join("racelink")).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (root, stop) = (root.clone(), Arc::clone(&stop));
        std::thread::spawn(move || {
            let (d, link, held) = (
                root.join("racedir"),
                root.join("racelink"),
                root.join("racedir.held"),
            );
            let mut swaps = 0u64;
            while !stop.load(Ordering::Relaxed) && swaps < 2_000_000 {
                // racedir: the real directory, then the symlink, then the real one again.
                let _ = std::fs::rename(&d, &held);
                let _ = std::fs::rename(&link, &d);
                let _ = std::fs::rename(&d, &link);
                let _ = std::fs::rename(&held, &d);
                swaps += 1;
            }
            swaps
        })
    };
    let mut c = Client::start(&[&root]);
    c.initialize();
    let (mut leaked, mut served, mut refused) = (0, 0, 0);
    for _ in 0..2_000 {
        let r = c.call("list_results", json!({"report": "racedir/r.ncu-rep"}));
        let text = r.to_string();
        if text.contains("histogram_old") || text.contains("saxpy_strided") {
            leaked += 1;
        } else if r["isError"] == true {
            refused += 1;
        } else {
            served += 1;
        }
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().unwrap();
    eprintln!("{swaps} swaps: {served} served, {refused} refused");
    assert!(swaps > 0);
    assert_eq!(
        leaked, 0,
        "{leaked} answers held the outside report ({served} served, {refused} refused)"
    );
    assert!(served + refused == 2_000);
}

/// A slow call (every pair of a 400-result report compared) holds up no other request; a
/// call the client cancels is not answered; and the server ends when its input closes, even
/// with a slow call still running.
#[test]
fn slow_calls_hold_up_nothing_and_the_server_ends_with_its_input() {
    let dir = Dir::new("concurrent");
    dir.add("big.ncu-rep", "big/many_basic.ncu-rep.xz");
    dir.add("small.ncu-rep", "h100/kernels_basic.ncu-rep.xz");
    let mut c = Client::start(&[&dir.0]);
    c.initialize();
    let call = |id: u64, name: &str, arguments: Json| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": name, "arguments": arguments}})
        .to_string()
    };
    let slow = json!({"base": "big.ncu-rep", "current": "big.ncu-rep", "limit": 400});
    c.send_raw(&call(900, "compare", slow.clone()));
    c.send_raw(&call(
        901,
        "list_results",
        json!({"report": "small.ncu-rep"}),
    ));
    c.send_raw(r#"{"jsonrpc": "2.0", "id": 902, "method": "tools/list"}"#);
    let order: Vec<Json> = (0..3).map(|_| c.next()).map(|m| m["id"].clone()).collect();
    assert_eq!(
        order.last(),
        Some(&json!(900)),
        "the slow call answers last: {order:?}"
    );
    // Cancelled: the slow call is not answered; the next request is.
    c.send_raw(&call(903, "compare", slow.clone()));
    c.send_raw(
        r#"{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 903}}"#,
    );
    c.send_raw(r#"{"jsonrpc": "2.0", "id": 904, "method": "ping"}"#);
    let pong = c.next();
    assert_eq!(pong["id"], 904, "{pong}");
    // Input closed while a slow call runs: the server ends.
    c.send_raw(&call(905, "compare", slow));
    c.close_input();
    assert!(
        c.ends_within(WAIT),
        "the server kept running after its input closed"
    );
    // Nothing answered the cancelled call.
    while let Ok(line) = c.lines.recv_timeout(Duration::from_millis(200)) {
        let m: Json = serde_json::from_str(&line).unwrap();
        assert_ne!(m["id"], 903, "the cancelled call was answered: {m}");
    }
}
