//! `sightline sections --baseline`, run as the built binary: every result paired with its
//! kernel in the baseline, each value with both sides and the change, as the pairing of the
//! engine (checked against the oracle in crates/engine/tests/analysis/section_bodies_compare.rs)
//! gives them.

use sightline_testkit::pair_fixture::{SAXPY, close, paired_saxpy, truth_value};

/// `sightline sections --baseline`: every result paired with its kernel in the baseline, each
/// value with both sides and the change, as the engine's pairing (checked against the oracle)
/// gives them.
#[test]
fn the_sections_command_pairs_each_result_with_its_baseline_kernel() {
    let dir = sightline_testkit::temp_dir("sections-baseline");
    let before = sightline_testkit::fixture_file(&dir, "pair/before.ncu-rep.xz");
    let after = sightline_testkit::fixture_file(&dir, "pair/after.ncu-rep.xz");
    let run = |json: bool| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"));
        cmd.arg("sections")
            .arg("--baseline")
            .arg(&before)
            .arg(&after);
        if json {
            cmd.arg("--json");
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let printed: serde_json::Value = serde_json::from_slice(&run(true)).unwrap();
    let result = &printed["reports"][0]["results"][SAXPY];
    let kernel = "saxpy_strided(float, const float *, float *, int)";
    assert_eq!(result["name"], kernel);
    assert_eq!(result["baseline"]["name"], kernel);

    let (sections, tb, ta) = paired_saxpy();
    // Both through the same text round trip (the JSON reader rounds the last bit of some
    // floats).
    let expected: serde_json::Value =
        serde_json::from_str(&serde_json::to_string(&sections).unwrap()).unwrap();
    assert!(
        result["sections"] == expected,
        "the printed sections differ from the pairing"
    );

    // One value read back from the printed JSON: both sides and the change of the oracle.
    let name = "dram__bytes_read.sum";
    let cell = result["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["bodies"].as_array().unwrap())
        .flat_map(|b| b["items"].as_array().unwrap())
        .filter_map(|i| i["content"]["memory_table"]["rows"].as_array())
        .flatten()
        .flat_map(|r| r["cells"].as_array().unwrap())
        .find(|c| c["metric"] == name)
        .expect("a DRAM read cell");
    let (b, a) = (
        truth_value(&tb, name).unwrap(),
        truth_value(&ta, name).unwrap(),
    );
    assert_eq!(cell["value"]["base"].as_f64(), Some(b));
    assert_eq!(cell["value"]["current"].as_f64(), Some(a));
    assert!(close(cell["value"]["delta"].as_f64().unwrap(), a - b));

    let text = String::from_utf8(run(false)).unwrap();
    assert!(
        text.contains(&format!("[1] {kernel} vs [1] {kernel}")),
        "{}",
        &text[..text.len().min(1500)]
    );
    assert!(
        text.contains("Device Memory"),
        "no memory table in the text form"
    );
    std::fs::remove_dir_all(&dir).ok();
}
