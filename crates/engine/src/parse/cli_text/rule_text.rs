//! Rule results as the CLI prints them: a type tag (`OPT`, `WRN`, `INF`, `ERR`; `OK` before
//! ncu 2022), an optional
//! first line `Est. Speedup: 20.32%` or `Est. Local Speedup: 94.4%`, and text wrapped over
//! lines indented to the text column.

use crate::model::{RuleKind, RuleResult, SpeedupKind};
use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char, space0};
use nom::combinator::{opt, value};
use nom::number::complete::double;
use nom::sequence::terminated;
use nom::{IResult, Parser};

/// The column, from the tag's start, where a rule's text starts (`OPT   text`, `OK    text`).
const TEXT_COLUMN: usize = 6;

/// Splits a tag line (without indentation) into the kind and the text after the tag.
pub fn tag_line(rest: &str) -> Option<(RuleKind, &str)> {
    let len = rest.bytes().take_while(u8::is_ascii_uppercase).count();
    if !(2..=3).contains(&len) {
        return None;
    }
    let kind = RuleKind::from_tag(rest.get(..len)?)?;
    let after = rest.get(len..)?;
    if after.trim_end().is_empty() {
        return Some((kind, ""));
    }
    // Spaces pad the tag to the text column.
    let text = after.strip_prefix(" ".repeat(TEXT_COLUMN - len).as_str())?;
    if text.starts_with(' ') {
        return None;
    }
    Some((kind, text.trim_end()))
}

fn speedup(i: &str) -> IResult<&str, (SpeedupKind, f64)> {
    let kind = alt((
        value(SpeedupKind::Local, tag("Est. Local Speedup: ")),
        value(SpeedupKind::Global, tag("Est. Speedup: ")),
    ));
    (kind, terminated(double, (space0, opt(char('%')), space0))).parse(i)
}

/// A rule being read: its text grows with each continuation line.
#[derive(Debug)]
pub struct OpenRule {
    pub kind: RuleKind,
    /// Indentation of the tag; continuation lines are indented further.
    pub indent: usize,
    speedup: Option<(SpeedupKind, f64)>,
    message: String,
}

impl OpenRule {
    /// Starts a rule from its tag line's parts.
    pub fn new(kind: RuleKind, indent: usize, first_text: &str) -> Self {
        let mut rule = OpenRule {
            kind,
            indent,
            speedup: None,
            message: String::new(),
        };
        let mut text = first_text;
        if let Ok((rest, s)) = speedup(text) {
            rule.speedup = Some(s);
            text = rest;
        }
        rule.push(text);
        rule
    }

    /// Adds a wrapped line of text.
    pub fn push(&mut self, text: &str) {
        let t = text.trim();
        if t.is_empty() {
            return;
        }
        if !self.message.is_empty() {
            self.message.push(' ');
        }
        self.message.push_str(t);
    }

    /// The finished rule result.
    pub fn finish(self) -> RuleResult {
        let mut rule = RuleResult {
            identifier: None,
            kind: self.kind,
            title: String::new(),
            message: self.message,
            speedup: self.speedup,
            focus_metrics: Vec::new(),
            guidance: Vec::new(),
            markers: Vec::new(),
        };
        crate::model::rule_catalog::complete(&mut rule);
        rule
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_and_speedups() {
        assert_eq!(
            tag_line("OPT   Memory is"),
            Some((RuleKind::Opt, "Memory is"))
        );
        assert_eq!(tag_line("ERR"), Some((RuleKind::Err, "")));
        // Before ncu 2022 a rule that found nothing to improve was `OK`.
        assert_eq!(
            tag_line("OK    The kernel is"),
            Some((RuleKind::Inf, "The kernel is"))
        );
        assert_eq!(tag_line("OK   short"), None);
        assert_eq!(tag_line("OKAY  x"), None);
        assert_eq!(tag_line("OPTIONS are"), None);
        assert_eq!(tag_line("Section: x"), None);
        let r = OpenRule::new(RuleKind::Opt, 4, "Est. Local Speedup: 94.36%");
        assert_eq!(r.speedup, Some((SpeedupKind::Local, 94.36)));
        let mut r = OpenRule::new(RuleKind::Opt, 4, "Est. Speedup: 20.32%   ");
        r.push("  Out of the   ");
        r.push("bytes sent.");
        let r = r.finish();
        assert_eq!(r.speedup, Some((SpeedupKind::Global, 20.32)));
        assert_eq!(r.message, "Out of the bytes sent.");
    }
}
