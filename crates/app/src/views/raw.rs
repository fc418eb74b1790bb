//! The Raw page's view-model: the search text and the names of the result's metrics that
//! contain it (case-insensitive), in the store's order, kept until the result or the text
//! changes.

use crate::core::ids::ResultRef;
use crate::model::KernelResult;

/// The Raw page: its search and the metric names it lists.
#[derive(Debug, Default)]
pub struct RawView {
    pub query: String,
    cache: Option<(ResultRef, String, Vec<String>)>,
}

impl RawView {
    /// Drops the listed names (reports closed or replaced).
    pub fn release(&mut self) {
        self.cache = None;
    }

    /// The metric names of `result` containing the query, built once per result and text.
    pub fn matches(&mut self, at: ResultRef, result: &KernelResult) -> &[String] {
        let fresh = matches!(&self.cache, Some((r, q, _)) if *r == at && *q == self.query);
        if !fresh {
            let needle = self.query.trim().to_lowercase();
            let names = result
                .metrics()
                .keys()
                .filter(|k| needle.is_empty() || k.to_lowercase().contains(&needle))
                .map(|k| k.to_string())
                .collect();
            self.cache = Some((at, self.query.clone(), names));
        }
        self.cache
            .as_ref()
            .map_or(&[], |(_, _, names)| names.as_slice())
    }
}
