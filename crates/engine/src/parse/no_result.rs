//! Why a text holds no result, told from what it does hold: ncu's status lines name the report
//! the results went to (`==PROF== Report: out.ncu-rep`) and the errors that stopped profiling
//! (`==ERROR== ...`); a section table without a kernel line has no result to belong to.

use super::detect::is_status_line;

/// Most `==ERROR==` messages a reason quotes.
const ERRORS_QUOTED: usize = 2;

/// `reason`, followed by what the text tells about where its results are or why there are none.
pub fn explain(text: &str, reason: &str) -> String {
    let mut reports: Vec<&str> = Vec::new();
    let mut errors: Vec<&str> = Vec::new();
    let mut status_lines = 0usize;
    for line in text.lines().map(str::trim) {
        if !is_status_line(line) {
            continue;
        }
        status_lines += 1;
        if let Some(path) = line.strip_prefix("==PROF== Report: ") {
            let path = path.trim();
            if !path.is_empty() && !reports.contains(&path) {
                reports.push(path);
            }
        } else if let Some(message) = line.strip_prefix("==ERROR== ") {
            let message = message.trim();
            if !errors.contains(&message) {
                errors.push(message);
            }
        }
    }
    let mut out = reason.to_string();
    if !reports.is_empty() {
        out.push_str(&format!(
            "; ncu wrote the results to {} (`==PROF== Report:`): open that report instead",
            reports.join(", ")
        ));
    } else if status_lines > 0 {
        out.push_str(&format!(
            "; the file is an ncu log ({status_lines} `==PROF==`/`==ERROR==` lines) with no result printed"
        ));
    }
    if !errors.is_empty() {
        let quoted: Vec<String> = errors
            .iter()
            .take(ERRORS_QUOTED)
            .map(|e| format!("\"{e}\""))
            .collect();
        out.push_str(&format!("; ncu reported {}", quoted.join(", ")));
    }
    if reports.is_empty() && text.contains("Section: ") {
        out.push_str(
            "; the `Section:` tables here have no kernel line above them to name their result",
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::explain;

    #[test]
    fn names_the_report_and_the_errors() {
        let log = "==PROF== Connected to process 1 (/bin/app)\nKernel: 3 ms\n\
                   ==ERROR== The application returned an error code (1).\n\
                   ==PROF== Report: /home/u/out.ncu-rep\n";
        let why = explain(log, "no ncu output found");
        assert_eq!(
            why,
            "no ncu output found; ncu wrote the results to /home/u/out.ncu-rep \
             (`==PROF== Report:`): open that report instead; ncu reported \
             \"The application returned an error code (1).\""
        );
        let bare = explain("==PROF== Connected to process 1\n", "none");
        assert!(bare.contains("an ncu log (1 `==PROF==`"), "{bare}");
        let table = explain("Section: GPU Speed Of Light Throughput\n", "no kernel line");
        assert!(table.contains("no kernel line above them"), "{table}");
        assert_eq!(explain("hello\n", "none"), "none");
    }
}
