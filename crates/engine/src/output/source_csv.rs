//! The Source page as `ncu --page source --csv --print-source sass` prints it
//! (`sightline source --format csv`): a row per SASS instruction with its metric columns.

use crate::model::source::{Cell, SourceView};

/// A cell as Nsight Compute's CSV prints it.
fn cell_text(c: &Cell) -> String {
    match c {
        Cell::Number(v) if v.fract() == 0.0 && v.abs() < 9.0e15 => format!("{}", *v as i64),
        Cell::Number(v) => v.to_string(),
        Cell::Text(t) => t.clone(),
    }
}

/// The SASS listing as `ncu --page source --csv --print-source sass` prints it.
pub fn render_csv(view: &SourceView) -> String {
    let q = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let mut out = format!("{},{},\n", q("Kernel Name"), q(&view.kernel));
    let mut header = vec![q("Address"), q("Source")];
    header.extend(view.columns.iter().map(|c| q(c)));
    out.push_str(&header.join(","));
    out.push('\n');
    for i in &view.instructions {
        let mut row = vec![
            q(&format!("0x{:x}", i.address)),
            q(i.sass.as_deref().unwrap_or("")),
        ];
        row.extend(i.cells.iter().map(|c| q(&cell_text(c))));
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}
