//! Detects the form of a result by its content, never by file name.

use crate::model::Format;

/// The `.ncu-rep` magic.
pub const NCU_REP_MAGIC: &[u8; 4] = b"NVR\0";

/// What the content looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detected {
    NcuRep,
    CsvDetails,
    CsvRaw,
    SessionCsv,
    SessionText,
    GuiCopy,
    Summary,
    CliText,
}

impl Detected {
    /// The model format this detection loads as.
    pub fn format(self) -> Format {
        match self {
            Detected::NcuRep => Format::NcuRep,
            Detected::CsvDetails => Format::CsvDetails,
            Detected::CsvRaw => Format::CsvRaw,
            Detected::SessionCsv | Detected::SessionText => Format::Session,
            Detected::GuiCopy => Format::GuiCopy,
            Detected::Summary => Format::Summary,
            Detected::CliText => Format::CliText,
        }
    }
}

/// Detects a binary report from its first bytes.
pub fn is_ncu_rep(bytes: &[u8]) -> bool {
    bytes.starts_with(NCU_REP_MAGIC)
}

/// Detects the form of text content. `None` when it is no known form.
pub fn detect_text(text: &str) -> Option<Detected> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    if first.starts_with("\"ID\",\"Process ID\"") {
        let header = text.lines().find(|l| !l.trim().is_empty())?;
        return Some(if header.contains("\"Section Name\"") {
            Detected::CsvDetails
        } else {
            Detected::CsvRaw
        });
    }
    if first == "Launch Settings"
        || first == "Session Info"
        || first == "\"Launch Attribute\",\"Value\""
    {
        return Some(
            if text.contains("\"Launch Attribute\",\"Value\"")
                || text.contains("\"Session Attribute\",\"Value\"")
            {
                Detected::SessionCsv
            } else {
                Detected::SessionText
            },
        );
    }
    if text.contains("Result\tSize\tTime") || has_gui_pairs(text) {
        return Some(Detected::GuiCopy);
    }
    let has_section = text.contains("Section: ");
    if text.contains(", Invocations ") && (text.contains("Minimum") || has_section) {
        return Some(Detected::Summary);
    }
    if has_section || has_raw_table(text) {
        return Some(Detected::CliText);
    }
    None
}

/// A GUI copy has tab-separated `Label [unit]<TAB>value` pairs.
fn has_gui_pairs(text: &str) -> bool {
    text.lines()
        .take(5_000)
        .filter(|l| {
            let mut it = l.split('\t');
            matches!((it.next(), it.next()), (Some(a), Some(b)) if a.ends_with(']') && a.contains(" [") && !b.is_empty())
        })
        .take(3)
        .count()
        >= 3
}

/// The `--page raw` text form: a `Metric Name  Metric Unit  Metric Value` table whose rows are
/// ncu metric names, with no `Section:` lines.
fn has_raw_table(text: &str) -> bool {
    text.contains("Metric Name") && text.contains("device__attribute_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_csv_and_session() {
        assert_eq!(
            detect_text("\"ID\",\"Process ID\",\"Section Name\"\n"),
            Some(Detected::CsvDetails)
        );
        assert_eq!(
            detect_text("\"ID\",\"Process ID\",\"gpu__time_duration.sum\"\n"),
            Some(Detected::CsvRaw)
        );
        assert_eq!(
            detect_text("Launch Settings\n---- ----\n"),
            Some(Detected::SessionText)
        );
        assert_eq!(detect_text("hello world\n"), None);
        assert_eq!(detect_text(""), None);
    }
}
