//! Kernel names crafted to hurt (HTML, Markdown syntax, backticks, terminal escapes and bidi
//! controls) stay inert in every output form: escaped in HTML and Markdown, shown by code
//! point in text.

use crate::common;

use common::{fixture_bytes, run_diff, temp_dir};

/// A hostile spelling of `normalize`: markup, a backtick, an escape sequence, bidi controls.
const HOSTILE: &str = "norm`al\"><img src=x onerror=alert(1)>\u{1b}[31m\u{202E}ize\u{2066}";

#[test]
fn hostile_kernel_names_stay_inert_in_every_diff_format() {
    let dir = temp_dir("hostile_names");
    // The details text of the pair, its renamed kernel given a hostile name in the base.
    let text = String::from_utf8(fixture_bytes("pair/before.details.txt.xz")).unwrap();
    assert!(text.contains("  normalize(float *, int, int)"));
    let hostile = text.replace(
        "  normalize(float *, int, int)",
        &format!("  {HOSTILE}(float *, int, int)"),
    );
    let base = dir.join("before.txt");
    std::fs::write(&base, hostile).unwrap();
    let current = dir.join("after.txt");
    std::fs::write(&current, fixture_bytes("pair/after.details.txt.xz")).unwrap();
    for format in ["text", "md", "html"] {
        let out = run_diff(&["--format", format], &base, &current);
        let stdout = String::from_utf8(out.stdout).unwrap();
        // Paired as renamed: the hostile name is in the output, made harmless.
        assert!(stdout.contains("norm"), "{format}: {stdout}");
        for raw in ['\u{202E}', '\u{2066}', '\u{1b}'] {
            assert!(!stdout.contains(raw), "{format}: raw {raw:?}");
        }
        assert!(stdout.contains("U+202E"), "{format}");
        assert!(!stdout.contains("<img"), "{format}: raw HTML");
        if format == "md" {
            // The name sits whole in one code span, fenced past its backtick.
            assert!(stdout.contains("``norm`al"), "{stdout}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_duration_that_is_no_number_is_damage_and_fails_the_default_rule() {
    let dir = temp_dir("nan_duration");
    let base = dir.join("before.txt");
    std::fs::write(&base, fixture_bytes("pair/before.details.txt.xz")).unwrap();
    // The second kernel's duration printed as ncu prints a failed value.
    let text = String::from_utf8(fixture_bytes("pair/after.details.txt.xz")).unwrap();
    let line = "    Duration                         us        16.35";
    assert!(text.contains(line));
    let damaged = text.replacen(
        line,
        "    Duration                         us          nan",
        1,
    );
    let current = dir.join("after.txt");
    std::fs::write(&current, damaged).unwrap();
    // Only the duration rule: the kernel is otherwise faster, so only damage can fire it.
    let out = run_diff(&["--fail-on", "duration>5%"], &base, &current);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("damaged (NaN)"), "{stdout}");
    assert!(!stdout.contains("NaN ns"), "{stdout}");
    assert!(
        stdout.contains("gpu__time_duration.sum is NaN in current: damaged"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
