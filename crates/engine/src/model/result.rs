//! One profiled workload (a kernel launch): identity, launch shape, sections, rules, metrics.

use super::body::{Body, BodyHead, BodySource, ResultBody};
use super::metric_store::{MetricStore, MetricView};
use super::result_kind::ResultKind;
pub use super::section::{RuleKind, RuleResult, Section, SpeedupKind};
use serde::Serialize;
use std::sync::Arc;

/// A grid or block shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Dim3 {
    pub x: u64,
    pub y: u64,
    pub z: u64,
}

impl Dim3 {
    /// The product of the three dimensions.
    pub fn product(&self) -> u64 {
        self.x.saturating_mul(self.y).saturating_mul(self.z)
    }
}

impl std::fmt::Display for Dim3 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {}, {})", self.x, self.y, self.z)
    }
}

/// The names of a kernel.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct KernelName {
    /// The demangled name with parameters, as ncu prints it on the kernel line.
    pub demangled: String,
    /// The function name without parameters (`matmul_tiled`).
    pub function: String,
    /// The mangled name, when the source has it.
    pub mangled: Option<String>,
}

impl KernelName {
    /// Builds the names from a demangled name, deriving the short function name.
    pub fn from_demangled(demangled: &str) -> Self {
        KernelName {
            demangled: demangled.to_string(),
            function: short_function_name(demangled),
            mangled: None,
        }
    }
}

/// A demangled name as ncu prints it: reports store template values with C-style casts
/// (`matmul_tiled<(int)32>`, `std::array<char *, (unsigned long)2>`), which ncu's kernel lines
/// and exports leave out (`matmul_tiled<32>`). A cast is dropped only where it stands before a
/// number at the start of a template argument.
pub fn ncu_spelling(demangled: &str) -> String {
    let mut out = String::with_capacity(demangled.len());
    let mut rest = demangled;
    while let Some(open) = rest.find('(') {
        let (head, tail) = rest.split_at(open);
        out.push_str(head);
        let after = &tail[1..];
        let argument_start = matches!(out.trim_end().chars().last(), Some('<' | ','));
        let cast_end = after.find(')').filter(|&close| {
            let inner = &after[..close];
            let mut follows = after[close + 1..].chars();
            let first = follows.next();
            let number = first.is_some_and(|c| c.is_ascii_digit())
                || (first == Some('-') && follows.next().is_some_and(|c| c.is_ascii_digit()));
            argument_start
                && number
                && !inner.trim().is_empty()
                && inner
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ' ' || c == ':')
        });
        match cast_end {
            Some(close) => rest = &after[close + 1..],
            None => {
                out.push('(');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The function name of a demangled signature: no return type, namespaces, template arguments
/// or parameters (`void cutlass::Kernel<...>(T1::Params)` gives `Kernel`).
pub fn short_function_name(demangled: &str) -> String {
    // ncu prints the anonymous namespace as `unnamed>` (its `<` lost), which would unbalance
    // the template brackets.
    let balanced;
    let s = if demangled.contains("unnamed>") {
        balanced = demangled
            .replace("<unnamed>", "unnamed")
            .replace("unnamed>", "unnamed");
        balanced.trim()
    } else {
        demangled.trim()
    };
    // Cut the parameter list: the last top-level '(' group at the end.
    let bytes = s.as_bytes();
    let mut end = s.len();
    if s.ends_with(')') {
        let mut depth = 0i32;
        for i in (0..bytes.len()).rev() {
            match bytes[i] {
                b')' => depth += 1,
                b'(' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i;
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    let head = &s[..end];
    // Strip template arguments at depth > 0 and keep the last path segment at depth 0.
    let mut out = String::new();
    let mut depth = 0i32;
    let mut segment_start = 0usize;
    let chars: Vec<char> = head.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '<' => depth += 1,
            '>' => depth = (depth - 1).max(0),
            ' ' if depth == 0 => {
                // A return type or qualifier before the name.
                out.clear();
                segment_start = i + 1;
            }
            ':' if depth == 0 && i + 1 < chars.len() && chars[i + 1] == ':' => {
                out.clear();
                i += 2;
                segment_start = i;
                continue;
            }
            _ if depth == 0 => out.push(c),
            _ => {}
        }
        i += 1;
    }
    let _ = segment_start;
    let out = out.trim().to_string();
    if out.is_empty() { s.to_string() } else { out }
}

/// One level of an NVTX push/pop stack or a start/end range.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NvtxRange {
    pub domain: String,
    pub name: String,
}

/// An NVTX push/pop stack as a path, outermost first: `outer/inner`, each domain other than
/// the default one named once before its first range (`domain:outer/inner`).
pub fn nvtx_path(stack: &[NvtxRange]) -> String {
    let mut out = String::new();
    let mut domain: Option<&str> = None;
    for range in stack {
        if !out.is_empty() {
            out.push('/');
        }
        let d = range.domain.as_str();
        if domain != Some(d) && !d.is_empty() && d != DEFAULT_NVTX_DOMAIN {
            out.push_str(d);
            out.push(':');
        }
        domain = Some(d);
        out.push_str(&range.name);
    }
    out
}

/// The name ncu gives the NVTX domain of ranges pushed without one.
pub const DEFAULT_NVTX_DOMAIN: &str = "<default domain>";

/// One result of a report: usually one kernel launch.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct KernelResult {
    /// The result ID (position in the report, or the ID the source prints).
    pub id: u64,
    /// What the result measured: a kernel launch, a range, a graph or a command list.
    pub kind: ResultKind,
    /// Process ID and name, when known.
    pub process_id: Option<u64>,
    pub process_name: Option<String>,
    pub name: KernelName,
    pub grid: Option<Dim3>,
    pub block: Option<Dim3>,
    pub context: Option<u64>,
    pub stream: Option<u64>,
    pub device: Option<u64>,
    /// Compute capability (major, minor).
    pub cc: Option<(u32, u32)>,
    /// NVTX push/pop stack, outermost first.
    pub nvtx: Vec<NvtxRange>,
    /// Launch timestamp as printed by older CLI layouts.
    pub timestamp: Option<String>,
    /// Sections, rules and metrics; decoded or read on demand; read them
    /// with [`KernelResult::sections`], [`KernelResult::metrics`] and the other accessors.
    #[serde(flatten)]
    pub content: Body,
    /// Number of invocations summarised (`--print-summary`), `None` for a single launch.
    pub invocations: Option<u64>,
    /// The CUDA graph of the report the result belongs to, where it names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graph: Option<Box<super::graph::GraphLink>>,
    /// The section set the result was collected with (`--set full`), where the report names
    /// it (ncu 2026.3 and later).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section_set: Option<String>,
}

impl KernelResult {
    /// The name to show for the result: a kernel's demangled name; for a range, its NVTX
    /// push/pop path (`outer/inner`, with a `domain:` prefix outside the default domain) when it
    /// has one, else the stored name (`range`, `graph`).
    pub fn display_name(&self) -> String {
        if self.kind == ResultKind::Range && !self.nvtx.is_empty() {
            return nvtx_path(&self.nvtx);
        }
        self.name.demangled.clone()
    }

    /// Sections in display order.
    pub fn sections(&self) -> &[Section] {
        &self.body().sections
    }

    /// Rules that belong to no section.
    pub fn rules(&self) -> &[RuleResult] {
        &self.body().rules
    }

    /// Every metric, by ncu metric name where known, else by `Section/Label`, in name order.
    pub fn metrics(&self) -> &MetricStore {
        &self.body().metrics
    }

    /// Sections, rules and metrics together.
    pub fn body(&self) -> &ResultBody {
        self.content.get()
    }

    /// Sections, rules and metrics, for a reader filling them or a caller changing them.
    pub fn body_mut(&mut self) -> &mut ResultBody {
        self.content.get_mut()
    }

    /// The sections, to change.
    pub fn sections_mut(&mut self) -> &mut Vec<Section> {
        &mut self.body_mut().sections
    }

    /// The rules of no section, to change.
    pub fn rules_mut(&mut self) -> &mut Vec<RuleResult> {
        &mut self.body_mut().rules
    }

    /// The metric map, to change.
    pub fn metrics_mut(&mut self) -> &mut MetricStore {
        &mut self.body_mut().metrics
    }

    /// Replaces sections, rules and metrics.
    pub fn set_body(&mut self, body: ResultBody) {
        self.content = Body::new(body);
    }

    /// The body, taken out of the result.
    pub fn into_body(mut self) -> ResultBody {
        std::mem::take(self.body_mut())
    }

    /// Keeps `head` in place of the body, which is read from `source` (as result `index`) when
    /// asked for.
    pub fn set_body_on_demand(
        &mut self,
        head: BodyHead,
        source: Arc<dyn BodySource>,
        index: usize,
    ) {
        self.content = Body::on_demand(head, source, index);
    }

    /// The result to read once and drop: for a result read on demand whose body is not decoded
    /// now, a copy whose body decodes into the copy (dropped with it), so the result itself
    /// stays without its body; else the result itself. For passes over every result of a
    /// report that may not release bodies (it is shared), such as a comparison.
    pub fn transient(&self) -> std::borrow::Cow<'_, KernelResult> {
        if self.content.is_pending() {
            // Cloning a body not decoded copies only where to read it from.
            std::borrow::Cow::Owned(self.clone())
        } else {
            std::borrow::Cow::Borrowed(self)
        }
    }

    /// For a result read on demand, a copy whose body is its head figures alone (the
    /// [`super::HEAD_METRICS`] it has and its top rule): what the results table knows, with
    /// nothing read from the file. `None` for a result held decoded from the start.
    pub fn head_only(&self) -> Option<KernelResult> {
        let head = self.content.head()?;
        let mut metrics = MetricStore::with_capacity(head.metrics.len(), 0);
        for (name, metric) in super::HEAD_METRICS.iter().zip(&head.metrics) {
            if let Some(m) = metric {
                metrics.insert(super::MetricKey::new(name), m.clone());
            }
        }
        let mut copy = self.clone();
        copy.set_body(ResultBody {
            metrics,
            rules: head.top_rule.iter().cloned().collect(),
            ..ResultBody::default()
        });
        Some(copy)
    }

    /// The head figures kept by a result read on demand.
    pub fn body_head(&self) -> Option<&BodyHead> {
        self.content.head()
    }

    /// Whether the body is decoded now (always, for results not read on demand).
    pub fn is_body_decoded(&self) -> bool {
        self.content.is_decoded()
    }

    /// Decodes a body read on demand with its values only, if it is not decoded
    /// ([`Body::get_values`]): for an output that prints the sections, rules and metric values
    /// and releases the body after.
    pub fn decode_values(&self) {
        self.content.get_values();
    }

    /// Drops the decoded body of a result read on demand; the next access decodes it again.
    /// Results not read on demand keep their body.
    pub fn release_body(&mut self) {
        self.content.release();
    }

    /// Whether the body is read on demand and decoded now.
    pub fn body_releasable(&self) -> bool {
        self.content.is_releasable()
    }

    /// The order of the last access to a body read on demand (larger is more recent).
    pub fn body_last_use(&self) -> Option<u64> {
        self.content.last_use()
    }

    /// Why the body could not be read from the report file, when it could not (the file
    /// changed or was removed since it was opened).
    pub fn body_error(&self) -> Option<&str> {
        self.content.error()
    }

    /// The section with this display name.
    pub fn section(&self, name: &str) -> Option<&Section> {
        self.sections().iter().find(|s| s.name == name)
    }

    /// The metric stored under `key` (an ncu metric name or `Section/Label`); for today's
    /// name of a metric older reports store under another ([`super::names::LEGACY_METRICS`]),
    /// the metric stored under that name.
    pub fn metric(&self, key: &str) -> Option<MetricView<'_>> {
        match self.content.head_metric(key) {
            Some(kept) => kept,
            None => {
                let metrics = self.metrics();
                metrics
                    .get(key)
                    .or_else(|| super::names::legacy_name(key).and_then(|old| metrics.get(old)))
            }
        }
    }

    /// A metric's value as a number in its base unit.
    pub fn number(&self, key: &str) -> Option<f64> {
        self.metric(key).and_then(|m| m.as_f64())
    }

    /// Every rule result, of all sections and of none.
    pub fn all_rules(&self) -> impl Iterator<Item = &RuleResult> {
        self.body().all_rules()
    }

    /// The rule result with the highest estimated speedup: a global estimate (a decrease of the
    /// workload's runtime) wins over a local one (the gain of one hardware unit).
    pub fn top_rule(&self) -> Option<&RuleResult> {
        match self.content.head_top_rule() {
            Some(kept) => kept,
            None => self.body().top_rule(),
        }
    }

    /// Inserts a section row's metric into the metric map under its key, keeping the row.
    pub fn index_section_metrics(&mut self) {
        self.body_mut().index_section_metrics();
    }
}

#[cfg(test)]
mod tests {
    use super::{
        KernelResult, NvtxRange, ResultKind, ncu_spelling, nvtx_path, short_function_name,
    };

    #[test]
    fn names_are_spelled_as_ncu_prints_them() {
        assert_eq!(
            ncu_spelling("void matmul_tiled<(int)32>(const float *, const float *, float *, int)"),
            "void matmul_tiled<32>(const float *, const float *, float *, int)"
        );
        assert_eq!(
            ncu_spelling(
                "void at::native::vectorized_elementwise_kernel<(int)4, at::native::F<float>, \
                 std::array<char *, (unsigned long)2>>(int, T2, T3)"
            ),
            "void at::native::vectorized_elementwise_kernel<4, at::native::F<float>, \
             std::array<char *, 2>>(int, T2, T3)"
        );
        assert_eq!(ncu_spelling("k<(Kind)-1, (bool)0>(int)"), "k<-1, 0>(int)");
        // Parameter lists and casts elsewhere stay.
        assert_eq!(ncu_spelling("f(int)"), "f(int)");
        assert_eq!(
            ncu_spelling("(anonymous namespace)::k<(int)2>((int)3)"),
            "(anonymous namespace)::k<2>((int)3)"
        );
    }

    #[test]
    fn range_names_follow_their_nvtx_path() {
        let range = |domain: &str, name: &str| NvtxRange {
            domain: domain.into(),
            name: name.into(),
        };
        let stack = [
            range("<default domain>", "outer"),
            range("<default domain>", "region"),
            range("io", "read"),
        ];
        assert_eq!(nvtx_path(&stack), "outer/region/io:read");
        let mut r = KernelResult {
            kind: ResultKind::Range,
            name: super::KernelName::from_demangled("range"),
            ..KernelResult::default()
        };
        assert_eq!(r.display_name(), "range");
        r.nvtx = stack[..2].to_vec();
        assert_eq!(r.display_name(), "outer/region");
        // A kernel keeps its name whatever NVTX range it ran in.
        r.kind = ResultKind::Kernel;
        assert_eq!(r.display_name(), "range");
    }

    #[test]
    fn function_names() {
        assert_eq!(
            short_function_name("vector_add(const float *, const float *, float *, int)"),
            "vector_add"
        );
        assert_eq!(
            short_function_name(
                "void matmul_tiled<32>(const float *, const float *, float *, int)"
            ),
            "matmul_tiled"
        );
        assert_eq!(
            short_function_name("void cutlass::Kernel<cutlass::conv::X<(int)1>>(T1::Params)"),
            "Kernel"
        );
        assert_eq!(
            short_function_name("void at::native::elementwise_kernel<128, 2, (lambda)>(int, T3)"),
            "elementwise_kernel"
        );
        assert_eq!(short_function_name("tiny_grid"), "tiny_grid");
    }
}
