//! The catalogue of guided-analysis rule messages (`rule_catalog.tsv`, written by
//! `scripts/rule_catalog.py` from what `.ncu-rep` reports store): rule identifier, rule name,
//! section, message title and the opening words of each message. Text and CSV exports print a
//! rule's message without its title (text also without its identifier); the catalogue finds
//! both from the message, so a rule reads the same whatever form its result came from.

use super::result::RuleResult;
use std::sync::OnceLock;

/// One known rule message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogEntry {
    /// Rule identifier (`SOLBottleneck`).
    pub rule: &'static str,
    /// Rule name (`Bottleneck`).
    pub name: &'static str,
    /// Identifier of the section the rule belongs to (`SpeedOfLight`).
    pub section: &'static str,
    /// Title of the message (`Latency Issue`); empty for rules whose messages have none.
    pub title: &'static str,
    /// The opening words of the message, `#` standing for any number.
    pub opening: Vec<&'static str>,
}

const TABLE: &str = include_str!("rule_catalog.tsv");

/// Every catalogue entry, in the table's order.
pub fn entries() -> &'static [CatalogEntry] {
    static ENTRIES: OnceLock<Vec<CatalogEntry>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        TABLE
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| {
                let mut cols = l.split('\t');
                Some(CatalogEntry {
                    rule: cols.next()?,
                    name: cols.next()?,
                    section: cols.next()?,
                    title: cols.next()?,
                    opening: cols.next()?.split(' ').filter(|w| !w.is_empty()).collect(),
                })
            })
            .collect()
    })
}

/// The name of a rule (`Bottleneck` for `SOLBottleneck`).
pub fn rule_name(identifier: &str) -> Option<&'static str> {
    entries()
        .iter()
        .find(|e| e.rule == identifier)
        .map(|e| e.name)
}

/// Whether a word is a number as messages quote them: `32`, `1,024`, `60.0%`, `(2.3%)`,
/// `1.5x`, `11.` (the same rule as the script that wrote the table).
fn is_number(word: &str) -> bool {
    let w = word.strip_prefix(['(', '[']).unwrap_or(word);
    let w = w.strip_prefix(['-', '+']).unwrap_or(w);
    let w = w.strip_suffix(['.', ',', ':', ';']).unwrap_or(w);
    let w = w.strip_suffix([')', ']']).unwrap_or(w);
    let w = w.strip_suffix(['%', 'x']).unwrap_or(w);
    w.starts_with(|c: char| c.is_ascii_digit())
        && w.chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
}

/// Whether a message starts with an entry's opening words.
fn opens_with(words: &[&str], opening: &[&str]) -> bool {
    words.len() >= opening.len()
        && opening
            .iter()
            .zip(words)
            .all(|(o, w)| o == w || (*o == "#" && is_number(w)))
}

/// The catalogue entry of a message (as the CLI prints it), among the entries of `identifier`
/// when it is known; the entry with the longest matching opening wins (the later one of
/// equally long openings).
pub fn identify(identifier: Option<&str>, message: &str) -> Option<&'static CatalogEntry> {
    let index = openings();
    let entries = entries();
    let first = message.split_whitespace().next()?;
    let named = index
        .by_first_word
        .get(first)
        .map_or(&[][..], Vec::as_slice);
    let numbered = if is_number(first) {
        &index.numbered[..]
    } else {
        &[]
    };
    let candidates = || {
        named
            .iter()
            .chain(numbered)
            .filter_map(|&i| entries.get(i).map(|e| (i, e)))
            .filter(|(_, e)| identifier.is_none_or(|id| e.rule == id))
    };
    let longest = candidates().map(|(_, e)| e.opening.len()).max()?;
    let words: Vec<&str> = message.split_whitespace().take(longest).collect();
    candidates()
        .filter(|(_, e)| opens_with(&words, &e.opening))
        .max_by_key(|(i, e)| (e.opening.len(), *i))
        .map(|(_, e)| e)
}

/// The entries with an opening, by its first word, so that a message is matched only against
/// the entries it may open with.
struct Openings {
    /// Positions in [`entries`] of the openings that start with this word.
    by_first_word: std::collections::HashMap<&'static str, Vec<usize>>,
    /// Positions of the openings that start with a number (`#`).
    numbered: Vec<usize>,
}

fn openings() -> &'static Openings {
    static OPENINGS: OnceLock<Openings> = OnceLock::new();
    OPENINGS.get_or_init(|| {
        let mut index = Openings {
            by_first_word: std::collections::HashMap::new(),
            numbered: Vec::new(),
        };
        for (i, e) in entries().iter().enumerate() {
            let Some(&first) = e.opening.first() else {
                continue;
            };
            if first == "#" {
                index.numbered.push(i);
            } else {
                index.by_first_word.entry(first).or_default().push(i);
            }
        }
        index
    })
}

/// Fills in what a text or CSV form did not print: the identifier and the message title.
pub fn complete(rule: &mut RuleResult) {
    if rule.identifier.is_some() && !rule.title.is_empty() {
        return;
    }
    let Some(entry) = identify(rule.identifier.as_deref(), &rule.message) else {
        return;
    };
    if rule.identifier.is_none() {
        rule.identifier = Some(entry.rule.to_string());
    }
    if rule.title.is_empty() {
        rule.title = entry.title.to_string();
    }
}

impl RuleResult {
    /// The words that name this rule result for a reader: the message title (`Latency
    /// Issue`), else the rule's name (`Achieved Occupancy`), else its identifier, else the
    /// message's first words. The same for every form of the same result.
    pub fn heading(&self) -> String {
        if !self.title.is_empty() {
            return self.title.clone();
        }
        if let Some(id) = &self.identifier {
            return rule_name(id).unwrap_or(id).to_string();
        }
        if let Some(entry) = identify(None, &self.message) {
            return if entry.title.is_empty() {
                entry.name
            } else {
                entry.title
            }
            .to_string();
        }
        self.message
            .split_whitespace()
            .take(6)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_reads_completely() {
        let lines = TABLE
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .count();
        assert_eq!(entries().len(), lines);
        assert!(entries().iter().all(|e| !e.rule.is_empty()));
        assert_eq!(rule_name("SOLBottleneck"), Some("Bottleneck"));
    }

    #[test]
    fn numbers_match_any_number() {
        for w in ["32", "1,024", "60.0%", "(2.3%)", "1.5x", "11.", "-3"] {
            assert!(is_number(w), "{w}");
        }
        for w in ["L1TEX", "L2", "x", "%", "(see", "2-way"] {
            assert!(!is_number(w), "{w}");
        }
    }
}
