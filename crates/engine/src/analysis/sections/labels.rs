//! Labels the viewer makes from metric names (breakdown rows such as `SM: Inst Executed`) and
//! the pattern matching of `regex:` metric expressions.

/// The hardware unit a metric name starts with, as breakdown tables name it.
pub fn unit_label(prefix: &str) -> String {
    match prefix {
        "sm" | "smsp" => "SM".to_string(),
        "l1tex" => "L1".to_string(),
        "lts" | "ltc" => "L2".to_string(),
        "dram" | "fbpa" => "DRAM".to_string(),
        other => other.to_ascii_uppercase(),
    }
}

/// The counter part of a metric name in title case: `inst_executed_pipe_adu` of
/// `sm__inst_executed_pipe_adu.avg.pct_of_peak_sustained_elapsed` gives `Inst Executed Pipe Adu`.
pub fn compound_name(metric: &str) -> String {
    let counter = metric.split_once("__").map_or(metric, |(_, c)| c);
    let counter = counter.split('.').next().unwrap_or(counter);
    counter
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            match chars.next() {
                Some(c) => c.to_uppercase().chain(chars).collect::<String>(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A breakdown row's label from the template (`{UNIT}: {COMPOUND_NAME}`, the default when
/// empty) and the member metric.
pub fn breakdown_label(template: &str, member: &str) -> String {
    let template = if template.is_empty() {
        "{UNIT}: {COMPOUND_NAME}"
    } else {
        template
    };
    let prefix = member.split_once("__").map_or("", |(p, _)| p);
    template
        .replace("{UNIT}", &unit_label(prefix))
        .replace("{COMPOUND_NAME}", &compound_name(member))
}

/// One element of a pattern: what it matches and how often.
#[derive(Debug, Clone)]
enum Atom {
    Any,
    Char(char),
    /// A bracket class: ranges, negated or not.
    Class(Vec<(char, char)>, bool),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Repeat {
    One,
    ZeroOrOne,
    ZeroOrMore,
    OneOrMore,
}

/// Whether `name` matches `pattern` as a whole (the `regex:` expressions of section files).
/// Supports `.`, bracket classes, `\` escapes, `?`, `*`, `+`, `^`/`$` anchors and top-level
/// `|` alternatives; enough for metric-name patterns. A pattern it cannot read matches
/// nothing.
pub fn pattern_matches(pattern: &str, name: &str) -> bool {
    let pattern = pattern.trim_start_matches('^').trim_end_matches('$');
    pattern.split('|').any(|alt| match compile(alt) {
        Some(atoms) => {
            let chars: Vec<char> = name.chars().collect();
            match_here(&atoms, &chars)
        }
        None => false,
    })
}

fn compile(p: &str) -> Option<Vec<(Atom, Repeat)>> {
    let chars: Vec<char> = p.chars().collect();
    let mut out: Vec<(Atom, Repeat)> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let atom = match chars[i] {
            '.' => Atom::Any,
            '\\' => {
                i += 1;
                Atom::Char(*chars.get(i)?)
            }
            '[' => {
                i += 1;
                let negated = chars.get(i) == Some(&'^');
                if negated {
                    i += 1;
                }
                let mut ranges = Vec::new();
                while *chars.get(i)? != ']' {
                    let a = chars[i];
                    if chars.get(i + 1) == Some(&'-') && chars.get(i + 2).is_some_and(|c| *c != ']')
                    {
                        ranges.push((a, chars[i + 2]));
                        i += 3;
                    } else {
                        ranges.push((a, a));
                        i += 1;
                    }
                }
                Atom::Class(ranges, negated)
            }
            '(' | ')' | '{' | '}' => return None,
            c => Atom::Char(c),
        };
        i += 1;
        let repeat = match chars.get(i) {
            Some('?') => Repeat::ZeroOrOne,
            Some('*') => Repeat::ZeroOrMore,
            Some('+') => Repeat::OneOrMore,
            _ => Repeat::One,
        };
        if repeat != Repeat::One {
            i += 1;
        }
        out.push((atom, repeat));
    }
    Some(out)
}

fn atom_matches(a: &Atom, c: char) -> bool {
    match a {
        Atom::Any => true,
        Atom::Char(x) => *x == c,
        Atom::Class(ranges, negated) => {
            ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c)) != *negated
        }
    }
}

fn match_here(atoms: &[(Atom, Repeat)], s: &[char]) -> bool {
    let Some(((atom, repeat), rest)) = atoms.split_first() else {
        return s.is_empty();
    };
    match repeat {
        Repeat::One => {
            s.first().is_some_and(|c| atom_matches(atom, *c)) && match_here(rest, &s[1..])
        }
        Repeat::ZeroOrOne => {
            (s.first().is_some_and(|c| atom_matches(atom, *c)) && match_here(rest, &s[1..]))
                || match_here(rest, s)
        }
        Repeat::ZeroOrMore | Repeat::OneOrMore => {
            let run = s.iter().take_while(|c| atom_matches(atom, **c)).count();
            let min = usize::from(*repeat == Repeat::OneOrMore);
            (min..=run).rev().any(|n| match_here(rest, &s[n..]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breakdown_labels_as_ncu_prints_them() {
        let t = "{UNIT}: {COMPOUND_NAME}";
        assert_eq!(
            breakdown_label(
                t,
                "sm__inst_executed_pipe_adu.avg.pct_of_peak_sustained_elapsed"
            ),
            "SM: Inst Executed Pipe Adu"
        );
        assert_eq!(
            breakdown_label(
                t,
                "l1tex__m_l1tex2xbar_req_cycles_active.avg.pct_of_peak_sustained_elapsed"
            ),
            "L1: M L1tex2xbar Req Cycles Active"
        );
        assert_eq!(
            breakdown_label("", "fbpa__dram_sectors.avg.pct_of_peak_sustained_elapsed"),
            "DRAM: Dram Sectors"
        );
    }

    #[test]
    fn patterns() {
        assert!(pattern_matches(
            "sm__inst_executed_pipe_.*\\.sum",
            "sm__inst_executed_pipe_lsu.sum"
        ));
        assert!(!pattern_matches(
            "sm__inst_executed_pipe_.*\\.sum",
            "sm__inst_executed_pipe_lsu.avg"
        ));
        assert!(pattern_matches(
            "dram__bytes_re[a-z]+\\.sum|lts__x",
            "dram__bytes_read.sum"
        ));
        assert!(pattern_matches(
            "lts__t_sectors_srcunit_tex_op_[^w].*",
            "lts__t_sectors_srcunit_tex_op_read.sum"
        ));
        assert!(!pattern_matches(
            "lts__t_sectors_srcunit_tex_op_[^w].*",
            "lts__t_sectors_srcunit_tex_op_write.sum"
        ));
    }
}
