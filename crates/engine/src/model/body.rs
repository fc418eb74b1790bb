//! A result's body (sections, rules, metrics), held decoded or read on demand from the report
//! file. A body read on demand keeps the few figures the results table shows, so listing
//! thousands of results decodes none of them; the full body is decoded when first asked for
//! and can be released again ([`super::Report::release_bodies`]).

use super::intern::MetricKey;
use super::metric::Metric;
use super::metric_store::{MetricStore, MetricView};
use super::names;
use super::section::{RuleResult, Section, SpeedupKind};
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// What a result holds beyond its identity and launch shape: sections, the rules of no section,
/// and every metric.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ResultBody {
    /// Sections in display order.
    pub sections: Vec<Section>,
    /// Rules that belong to no section.
    pub rules: Vec<RuleResult>,
    /// Every metric, by ncu metric name where known, else by `Section/Label`.
    pub metrics: MetricStore,
    /// Values stored on single instances of a metric (ncu 2026.3 and later), by metric.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub instance_values: Vec<InstanceValues>,
    /// PC samples taken with PM sampling, per metric and SM.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pc_sampling: Vec<super::device_records::PcSampling>,
    /// Device-side NVTX events and warp ranges.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device_nvtx: Option<Box<super::device_records::DeviceNvtx>>,
    /// The section bodies a text export printed for this result, where they travel with the
    /// body ([`super::section_body::ReportBodies::InResults`]: a large text read in windows).
    #[serde(skip)]
    pub printed: Vec<super::section_body::SectionBodies>,
}

/// The values a report stores on one instance of a metric, beside the instance's own value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InstanceValues {
    pub metric: MetricKey,
    /// The instance's position among the metric's instances.
    pub instance: usize,
    pub values: Vec<super::value::Value>,
}

impl ResultBody {
    /// Inserts each section row's metric into the metric map under its key, keeping the row.
    pub fn index_section_metrics(&mut self) {
        for section in &self.sections {
            for row in &section.rows {
                let key = match row.metric.name {
                    Some(name) => name,
                    None => MetricKey::from(format!("{}/{}", section.name, row.label)),
                };
                if !self.metrics.contains_key(&key) {
                    self.metrics.insert(key, row.metric.clone());
                }
            }
        }
    }

    /// Every rule result, of all sections and of none.
    pub fn all_rules(&self) -> impl Iterator<Item = &RuleResult> {
        self.sections
            .iter()
            .flat_map(|s| s.rules.iter())
            .chain(self.rules.iter())
    }

    /// The rule result with the highest estimated speedup: a global estimate (a decrease of the
    /// workload's runtime) wins over a local one (the gain of one hardware unit).
    pub fn top_rule(&self) -> Option<&RuleResult> {
        self.all_rules()
            .filter_map(|r| {
                r.speedup
                    .map(|(kind, pct)| (kind == SpeedupKind::Global, pct, r))
            })
            .max_by(|a, b| {
                (a.0, a.1)
                    .partial_cmp(&(b.0, b.1))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .map(|(_, _, r)| r)
    }
}

/// The metrics a result keeps while its body is not decoded: what the results table, the
/// `summary` table and the device summary read, and the DRAM figures a roofline estimate takes
/// from the other results of its report (so that context needs no body).
pub const HEAD_METRICS: [&str; 14] = [
    names::DURATION,
    names::SOL_COMPUTE,
    names::SOL_MEMORY,
    names::ACHIEVED_OCCUPANCY,
    names::CC_MAJOR,
    names::CC_MINOR,
    names::DEVICE_NAME,
    names::SM_COUNT,
    "launch__sm_count",
    "launch__device_id",
    "dram__bytes.sum.peak_sustained",
    "dram__bytes.sum.per_second",
    "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
    "dram__cycles_elapsed.avg.per_second",
];

/// Whether `name` is one of the [`HEAD_METRICS`].
pub fn is_head_metric(name: &str) -> bool {
    HEAD_METRICS.contains(&name)
}

/// Reads the body of one result from where it is stored.
pub trait BodySource: Send + Sync {
    /// Decodes the body of the result at `index` in the source.
    fn load(&self, index: usize) -> Result<ResultBody, String>;

    /// Decodes the body of the result at `index` with its values only: its sections, rules and
    /// metrics, with no instances, printed forms or printed section bodies where the source
    /// can leave them out (for outputs that print no more); the whole body by default.
    fn load_values(&self, index: usize) -> Result<ResultBody, String> {
        self.load(index)
    }

    /// A number that grows with every body access, for releasing the least recently used.
    fn tick(&self) -> u64;

    /// What the bodies read so far held that the reader passed over, one note each (parts of
    /// a newer report form); none by default.
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }

    /// A reader of the whole plain file the bodies are read from (a compressed report's
    /// decompressed copy), from its first byte, for readers of other parts of it (the code);
    /// `None` by default.
    fn plain_file(&self) -> Option<Box<dyn std::io::Read + Send + '_>> {
        None
    }
}

/// The figures a body read on demand keeps while it is not decoded.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BodyHead {
    /// The [`HEAD_METRICS`] the result has, in that order.
    pub metrics: Vec<Option<Metric>>,
    /// The rule result with the highest estimated speedup ([`ResultBody::top_rule`]).
    pub top_rule: Option<RuleResult>,
}

impl BodyHead {
    /// The head figures of a decoded body.
    pub fn of(body: &ResultBody) -> Self {
        BodyHead {
            metrics: HEAD_METRICS
                .iter()
                .map(|k| body.metrics.get(*k).map(|m| m.to_metric()))
                .collect(),
            top_rule: body.top_rule().cloned(),
        }
    }
}

/// Where a body not yet decoded is, and the figures kept meanwhile.
struct Lazy {
    source: Arc<dyn BodySource>,
    index: usize,
    head: BodyHead,
    /// The source's tick at the last access to the decoded body.
    last_use: AtomicU64,
    /// Why the body could not be decoded, when it could not.
    error: OnceLock<String>,
}

/// A body: decoded, or read on demand.
#[derive(Default)]
pub struct Body {
    decoded: OnceLock<ResultBody>,
    lazy: Option<Arc<Lazy>>,
}

impl Body {
    /// A decoded body.
    pub fn new(body: ResultBody) -> Self {
        Body {
            decoded: OnceLock::from(body),
            lazy: None,
        }
    }

    /// A body read from `source` when asked for, keeping `head` meanwhile.
    pub fn on_demand(head: BodyHead, source: Arc<dyn BodySource>, index: usize) -> Self {
        Body {
            decoded: OnceLock::new(),
            lazy: Some(Arc::new(Lazy {
                source,
                index,
                head,
                last_use: AtomicU64::new(0),
                error: OnceLock::new(),
            })),
        }
    }

    /// The body, decoded now if it was not.
    pub fn get(&self) -> &ResultBody {
        self.get_by(|source, index| source.load(index))
    }

    /// The body, decoded now with its values only ([`BodySource::load_values`]) if it was not
    /// decoded: it stays so until released, so only an output that prints no more, and
    /// releases the body after, reads it this way.
    pub fn get_values(&self) -> &ResultBody {
        self.get_by(|source, index| source.load_values(index))
    }

    fn get_by(
        &self,
        load: impl FnOnce(&dyn BodySource, usize) -> Result<ResultBody, String>,
    ) -> &ResultBody {
        let body = self.decoded.get_or_init(|| match &self.lazy {
            Some(lazy) => load(lazy.source.as_ref(), lazy.index).unwrap_or_else(|e| {
                let _ = lazy.error.set(e);
                ResultBody::default()
            }),
            None => ResultBody::default(),
        });
        if let Some(lazy) = &self.lazy {
            lazy.last_use.store(lazy.source.tick(), Ordering::Relaxed);
        }
        body
    }

    /// The body to change; a body read on demand becomes one held decoded (it is never
    /// released, so the change is kept).
    pub fn get_mut(&mut self) -> &mut ResultBody {
        self.get();
        let body = self.decoded.take().unwrap_or_default();
        self.lazy = None;
        self.decoded = OnceLock::from(body);
        match self.decoded.get_mut() {
            Some(body) => body,
            None => unreachable!("the body was set just above"),
        }
    }

    /// The head figures of a body read on demand that is not decoded now.
    fn undecoded(&self) -> Option<&Lazy> {
        match &self.lazy {
            Some(lazy) if self.decoded.get().is_none() => Some(lazy),
            _ => None,
        }
    }

    /// `Some(metric or none)` when `key` is a head metric of a body not decoded now, `None`
    /// when the body must be asked.
    pub fn head_metric(&self, key: &str) -> Option<Option<MetricView<'_>>> {
        let lazy = self.undecoded()?;
        let i = HEAD_METRICS.iter().position(|k| *k == key)?;
        Some(
            lazy.head
                .metrics
                .get(i)
                .and_then(Option::as_ref)
                .map(Metric::view),
        )
    }

    /// `Some(top rule or none)` for a body not decoded now.
    pub fn head_top_rule(&self) -> Option<Option<&RuleResult>> {
        self.undecoded().map(|lazy| lazy.head.top_rule.as_ref())
    }

    /// Where a body read on demand is read from.
    pub fn source(&self) -> Option<&Arc<dyn BodySource>> {
        self.lazy.as_ref().map(|lazy| &lazy.source)
    }

    /// The head figures kept by a body read on demand (decoded now or not).
    pub fn head(&self) -> Option<&BodyHead> {
        self.lazy.as_ref().map(|lazy| &lazy.head)
    }

    /// Whether the body is read on demand and not decoded now.
    pub fn is_pending(&self) -> bool {
        self.undecoded().is_some()
    }

    /// Whether the body is read on demand and decoded now.
    pub fn is_releasable(&self) -> bool {
        self.lazy.is_some() && self.decoded.get().is_some()
    }

    /// Whether the body is held decoded (read on demand and decoded now, or never lazy).
    pub fn is_decoded(&self) -> bool {
        self.decoded.get().is_some()
    }

    /// Drops the decoded body of a body read on demand; the next access decodes it again.
    pub fn release(&mut self) {
        if self.lazy.is_some() {
            self.decoded = OnceLock::new();
        }
    }

    /// The source's tick at the last access, for bodies read on demand.
    pub fn last_use(&self) -> Option<u64> {
        self.lazy
            .as_ref()
            .map(|lazy| lazy.last_use.load(Ordering::Relaxed))
    }

    /// Why the body could not be read from its source, when it could not.
    pub fn error(&self) -> Option<&str> {
        self.lazy
            .as_ref()
            .and_then(|lazy| lazy.error.get())
            .map(String::as_str)
    }
}

impl Clone for Body {
    fn clone(&self) -> Self {
        Body {
            decoded: self.decoded.clone(),
            lazy: self.lazy.clone(),
        }
    }
}

impl PartialEq for Body {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl std::fmt::Debug for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

impl Serialize for Body {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.get().serialize(serializer)
    }
}
