//! The results table's filter text read as what it asks for: words of a kernel name
//! (case-insensitive, template values with or without their casts) and `nvtx:PATH` terms,
//! each keeping the results launched under that NVTX range (`nvtx:forward/attn`), so a run of
//! thousands of kernels can be read range by range.

/// The word that starts an NVTX term.
const NVTX_TERM: &str = "nvtx:";

/// A filter text, parsed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RowFilter {
    /// What the name must contain, lowercase (empty: any name).
    name: String,
    /// The same as the filter compares names: without spaces and casts.
    loose: String,
    /// Each `nvtx:` term's ranges, lowercase, outermost first; every term must match.
    nvtx: Vec<Vec<String>>,
}

impl RowFilter {
    /// Reads a filter text: every `nvtx:PATH` word (`nvtx:"forward pass/attn"` where a range
    /// name has spaces) is an NVTX term, the rest is a part of a kernel name.
    pub fn parse(text: &str) -> RowFilter {
        let mut name = String::new();
        let mut nvtx = Vec::new();
        let mut rest = text;
        while let Some(at) = find_term(rest) {
            name.push_str(&rest[..at]);
            let after = &rest[at + NVTX_TERM.len()..];
            let (path, tail) = match after.strip_prefix('"') {
                Some(quoted) => match quoted.find('"') {
                    Some(end) => (&quoted[..end], &quoted[end + 1..]),
                    None => (quoted, ""),
                },
                None => {
                    let end = after.find(char::is_whitespace).unwrap_or(after.len());
                    (&after[..end], &after[end..])
                }
            };
            let ranges = ranges_of(&path.to_lowercase());
            if !ranges.is_empty() {
                nvtx.push(ranges);
            }
            name.push(' ');
            rest = tail;
        }
        name.push_str(rest);
        let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
        let name = name.to_lowercase();
        RowFilter {
            loose: searchable(&name),
            name,
            nvtx,
        }
    }

    /// Whether the filter asks for an NVTX range.
    pub fn has_nvtx(&self) -> bool {
        !self.nvtx.is_empty()
    }

    /// Whether a row passes: its `filter_key` (lowercase names, see
    /// [`crate::core::rows::RowSummary::filter_key`]) contains the name part, and its NVTX path
    /// (`outer/inner`) has every term's ranges, in a row and whole: `nvtx:attn` keeps every
    /// result under a range named `attn`, `nvtx:forward/attn` only those under `attn` inside
    /// `forward`.
    pub fn matches(&self, filter_key: &str, nvtx_path: &str) -> bool {
        let name_ok = self.name.is_empty()
            || filter_key.contains(&self.name)
            || filter_key.contains(&self.loose);
        name_ok && self.nvtx.iter().all(|term| under(nvtx_path, term))
    }
}

/// Where the next `nvtx:` term starts in `text`: at its start or after a space.
fn find_term(text: &str) -> Option<usize> {
    let lower = text.to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find(NVTX_TERM) {
        let at = from + i;
        if at == 0 || lower[..at].ends_with(char::is_whitespace) {
            return Some(at);
        }
        from = at + NVTX_TERM.len();
    }
    None
}

/// The ranges of an NVTX path, outermost first (empty names left out).
fn ranges_of(path: &str) -> Vec<String> {
    path.split('/')
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(str::to_string)
        .collect()
}

/// Whether the NVTX path `path` has the ranges `term` one after the other, each whole.
fn under(path: &str, term: &[String]) -> bool {
    let stack = ranges_of(&path.to_lowercase());
    !term.is_empty() && stack.windows(term.len()).any(|w| w == term)
}

/// A kernel name as the filter compares it: lowercase, without spaces and without the casts
/// that reports put before template values (`matmul<(int)32>` reads as ncu's `matmul<32>`).
pub fn searchable(name: &str) -> String {
    let compact: String = name
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    let mut out = String::with_capacity(compact.len());
    let mut rest = compact.as_str();
    while let Some(open) = rest.find('(') {
        let after = &rest[open + 1..];
        let cast = after.find(')').filter(|&close| {
            let inner = &after[..close];
            let follows = after[close + 1..].chars().next();
            !inner.is_empty()
                && inner
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
                && follows.is_some_and(|c| c.is_ascii_digit() || c == '-')
                && matches!(
                    out.chars().last().or(rest[..open].chars().last()),
                    Some('<' | ',')
                )
        });
        match cast {
            Some(close) => {
                out.push_str(&rest[..open]);
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::{RowFilter, searchable};

    #[test]
    fn nvtx_terms_keep_what_was_launched_under_the_range() {
        let f = RowFilter::parse("nvtx:forward/attn");
        assert!(f.has_nvtx());
        assert!(f.matches("gemm", "forward/attn"));
        assert!(f.matches("gemm", "step/Forward/attn/softmax"));
        assert!(!f.matches("gemm", "forward/attn_out"));
        assert!(!f.matches("gemm", "backward/attn"));
        assert!(!f.matches("gemm", ""));
        // With a name: both must hold.
        let f = RowFilter::parse("GEMM nvtx:attn");
        assert!(f.matches("gemm_kernel", "forward/attn"));
        assert!(!f.matches("softmax", "forward/attn"));
        // A range name with spaces, quoted; a word that only contains `nvtx:` is a name.
        let f = RowFilter::parse("nvtx:\"forward pass/attn\" soft");
        assert!(f.matches("softmax", "forward pass/attn"));
        assert!(!RowFilter::parse("my_nvtx:x").has_nvtx());
        // `nvtx:` alone asks for nothing yet.
        assert!(RowFilter::parse("nvtx:").matches("any", ""));
    }

    #[test]
    fn the_filter_reads_template_values_with_or_without_their_casts() {
        assert_eq!(
            searchable("void matmul<(int)32>(float *, int)"),
            "voidmatmul<32>(float*,int)"
        );
        assert_eq!(searchable("k<(unsigned int)4, (bool)1>"), "k<4,1>");
        assert_eq!(searchable("matmul<32>"), "matmul<32>");
        // A parameter list is no cast.
        assert_eq!(searchable("f(int)"), "f(int)");
    }
}
