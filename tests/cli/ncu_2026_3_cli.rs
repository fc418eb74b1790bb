//! What ncu 2026.3 adds, through the commands: `sections` shows the CUDA graph, the metric
//! instances and device NVTX of a report built from that version's schema
//! (`sightline_testkit::ncu_2026_3_report`), the fields it skips are said as notes (not
//! problems: `--strict` passes), and `summary --json` carries the merged report's origin, the
//! graphs and CC 10.7.

use sightline_testkit::ncu_2026_3_report::{BODY_NOTES, NOTES, written};

fn sightline(args: &[&str]) -> (String, String, bool) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(args)
        .output()
        .expect("runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

#[test]
fn the_cli_shows_them_and_notes_what_it_skipped() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = written(dir.path());
    let file = path.to_str().expect("utf-8 path");
    let (out, err, ok) = sightline(&["sections", file]);
    assert!(ok, "{err}");
    for line in [
        "  Section: CUDA Graph",
        "      [table] Nodes",
        "      [metric_instances_table] Per Instance",
        "  Section: Device NVTX",
    ] {
        assert!(
            out.lines().any(|l| l == line),
            "{line:?} missing in:\n{out}"
        );
    }
    assert!(out.contains("Subgrid Schedule"), "{out}");
    assert!(out.contains("Schedule: 0x1234"), "{out}");
    assert!(out.contains("Overview / Events [markers]"), "{out}");
    for note in NOTES {
        assert!(
            err.contains(&format!("note: {file}: {note}")),
            "{note:?} not in:\n{err}"
        );
    }
    // What bodies hold is named too, counted over the bodies read before the notes are said.
    for note in BODY_NOTES {
        let line = format!("note: {file}: {note}");
        assert!(
            err.lines().any(|l| l.starts_with(&line)),
            "{line:?} not in:\n{err}"
        );
    }
    // Notes are not problems: --strict passes.
    let (_, err, ok) = sightline(&["summary", "--strict", file]);
    assert!(ok, "{err}");
    let (out, _, ok) = sightline(&["summary", "--json", file]);
    assert!(ok);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let rep = &doc["reports"][0];
    assert_eq!(rep["merged_from"], "app (42) on hostA; other (43) on hostB");
    assert_eq!(rep["graphs"][0]["address"], 0xabc000);
    assert_eq!(rep["graphs"][0]["nodes"][6]["kind"], "subgrid_schedule");
    assert_eq!(rep["results"][0]["cc"], "10.7");
    assert_eq!(rep["results"][0]["graph"]["launch_index"], 0);
}
