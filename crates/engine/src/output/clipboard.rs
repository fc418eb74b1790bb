//! Table rows as the copy actions put them on the clipboard: tab-separated values (for
//! spreadsheets) or a Markdown table (for issues and chat), the first row the header.

/// A cell made safe for one TSV field: tabs and line breaks become spaces.
fn tsv_cell(cell: &str) -> String {
    cell.replace(['\t', '\n', '\r'], " ")
}

/// A cell made safe for one Markdown table cell: `|` escaped, line breaks become spaces.
fn markdown_cell(cell: &str) -> String {
    cell.replace(['\n', '\r'], " ").replace('|', "\\|")
}

/// Rows (the first one the header) as tab-separated values, one line each.
pub fn tsv(rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row.iter().map(|c| tsv_cell(c)).collect();
        out.push_str(&cells.join("\t"));
        out.push('\n');
    }
    out
}

/// Rows (the first one the header) as a Markdown table.
pub fn markdown(rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|c| markdown_cell(c)).collect();
        out.push_str("| ");
        out.push_str(&cells.join(" | "));
        out.push_str(" |\n");
        if i == 0 {
            out.push('|');
            out.push_str(&"---|".repeat(row.len()));
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Vec<Vec<String>> {
        vec![
            vec!["Metric".into(), "Value".into()],
            vec!["a|b".into(), "1\t2\n3".into()],
        ]
    }

    #[test]
    fn tsv_keeps_one_line_per_row_and_one_field_per_cell() {
        assert_eq!(tsv(&table()), "Metric\tValue\na|b\t1 2 3\n");
    }

    #[test]
    fn markdown_escapes_pipes_and_has_a_separator_line() {
        assert_eq!(
            markdown(&table()),
            "| Metric | Value |\n|---|---|\n| a\\|b | 1\t2 3 |\n"
        );
    }
}
