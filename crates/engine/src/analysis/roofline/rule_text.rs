//! Roofline facts in rule messages, the only roofline information default text output has:
//! "The ratio of peak float (FP32) to double (FP64) performance on this device is 2:1. The
//! workload achieved 8% of this device's FP32 peak performance and 0% of its FP64 peak
//! performance." (SOLFPRoofline), and "... the GPU's 28 multiprocessors" (launch rules).

use crate::model::KernelResult;

/// A percentage as the rule printed it: rounded to an integer, or "close to" one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RulePct {
    pub value: f64,
    /// The rule said "close to N%" (the value is nonzero but rounds to N).
    pub close_to: bool,
}

impl RulePct {
    /// The range of true percentages the printed one stands for.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.value - 0.5).max(0.0), self.value + 0.5)
    }

    /// The best single guess: the printed value, or the middle of (0, 0.5) for "close to 0%"
    /// (the work is nonzero, and a point at 0 could not be drawn on log axes).
    pub fn estimate(&self) -> f64 {
        if self.close_to && self.value == 0.0 {
            0.25
        } else {
            self.value
        }
    }
}

/// What the SOLFPRoofline rule says.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FpRooflineRule {
    /// Peak FP32 over peak FP64 (the N of "N:1").
    pub fp32_to_fp64_ratio: Option<f64>,
    pub fp32_pct: Option<RulePct>,
    pub fp64_pct: Option<RulePct>,
}

fn normalize(message: &str) -> String {
    message
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Splits a leading number (`23`, `0.5`, `1,024`) off `s`.
fn leading_number(s: &str) -> Option<(f64, &str)> {
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
        .unwrap_or(s.len());
    let text = s.get(..end)?.replace(',', "");
    let text = text.trim_end_matches('.');
    let v: f64 = text.parse().ok()?;
    Some((v, s.get(end..)?))
}

/// Parses "[close to ]N%" at the start of `s`, followed by `then`.
fn pct_then<'a>(s: &'a str, then: &str) -> Option<(RulePct, &'a str)> {
    let (close_to, s) = match s.strip_prefix("close to ") {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let (value, rest) = leading_number(s)?;
    let rest = rest.strip_prefix('%')?;
    rest.starts_with(then)
        .then_some((RulePct { value, close_to }, rest))
}

/// Reads an SOLFPRoofline message; `None` when the message is not that rule's.
pub fn parse_fp_roofline(message: &str) -> Option<FpRooflineRule> {
    let text = normalize(message);
    if !text.contains("fp32 peak") && !text.contains("(fp64) performance on this device") {
        return None;
    }
    let mut rule = FpRooflineRule::default();
    if let Some(i) = text.find("performance on this device is ") {
        let rest = &text[i + "performance on this device is ".len()..];
        if let Some((n, tail)) = leading_number(rest)
            && tail.starts_with(":1")
            && n > 0.0
        {
            rule.fp32_to_fp64_ratio = Some(n);
        }
    }
    if let Some(i) = text.find("achieved ") {
        let rest = &text[i + "achieved ".len()..];
        if let Some((p32, tail)) = pct_then(rest, " of this device's fp32") {
            rule.fp32_pct = Some(p32);
            if let Some(j) = tail.find(" and ") {
                rule.fp64_pct = pct_then(&tail[j + " and ".len()..], " of its fp64").map(|p| p.0);
            }
        }
    }
    Some(rule)
}

/// The SOLFPRoofline facts of a result, from any of its rules.
pub fn fp_roofline_rule(result: &KernelResult) -> Option<FpRooflineRule> {
    result
        .all_rules()
        .find_map(|r| parse_fp_roofline(&r.message))
}

/// The SM count a launch rule names ("... less than the GPU's 28 multiprocessors").
pub fn sm_count_from_rules(result: &KernelResult) -> Option<u64> {
    result.all_rules().find_map(|r| {
        let text = normalize(&r.message);
        let i = text.find("the gpu's ")?;
        let (n, tail) = leading_number(&text[i + "the gpu's ".len()..])?;
        (tail.starts_with(" multiprocessors") && n >= 1.0).then_some(n as u64)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_wordings() {
        let new = "The ratio of peak float (FP32) to double (FP64) performance on this device is 2:1. \
                   The workload achieved 8%   \n of this device's FP32 peak performance and 0% of its \
                   FP64 peak performance. See the Profiling Guide";
        let r = parse_fp_roofline(new).unwrap();
        assert_eq!(r.fp32_to_fp64_ratio, Some(2.0));
        assert_eq!(
            r.fp32_pct,
            Some(RulePct {
                value: 8.0,
                close_to: false
            })
        );
        assert_eq!(
            r.fp64_pct,
            Some(RulePct {
                value: 0.0,
                close_to: false
            })
        );
        let old = "The ratio of peak float (fp32) to double (fp64) performance on this device is 64:1. \
                   The kernel achieved close to 1% of this device's fp32 peak performance and 5% of \
                   its fp64 peak performance.";
        let r = parse_fp_roofline(old).unwrap();
        assert_eq!(r.fp32_to_fp64_ratio, Some(64.0));
        assert_eq!(
            r.fp32_pct,
            Some(RulePct {
                value: 1.0,
                close_to: true
            })
        );
        assert_eq!(r.fp64_pct.map(|p| p.value), Some(5.0));
        assert!(parse_fp_roofline("Memory is more heavily utilized than Compute").is_none());
    }
}
