//! Repeated launches of one kernel compared as a group: count, total, mean, minimum and
//! maximum duration per kernel on each side (a kernel paired as renamed is one group).

use super::matching::{Rename, unify_bools};
use super::metric_diff::metric_number;
use super::normalize::{KernelIdentity, display_name};
use crate::model::{KernelResult, names};
use serde::Serialize;
use std::collections::BTreeMap;

/// Durations of the launches of one kernel on one side, in ns.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct GroupStats {
    /// Launches of the kernel.
    pub count: usize,
    /// Launches with a duration (the statistics below are over these).
    pub timed: usize,
    pub total_ns: f64,
    pub mean_ns: Option<f64>,
    pub min_ns: Option<f64>,
    pub max_ns: Option<f64>,
}

/// One kernel's launches on both sides.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KernelGroup {
    /// The group key: the function name with its template arguments.
    pub key: String,
    /// A display name (the current side's where it has one).
    pub name: String,
    pub base: Option<GroupStats>,
    pub current: Option<GroupStats>,
}

impl KernelGroup {
    /// Total time won (negative) or lost (positive) by the group.
    pub fn total_delta_ns(&self) -> f64 {
        self.current.map_or(0.0, |c| c.total_ns) - self.base.map_or(0.0, |b| b.total_ns)
    }
}

/// The group key of a launch.
pub fn group_key(r: &KernelResult) -> String {
    key_of(&KernelIdentity::of(r))
}

/// [`group_key`] of a launch whose identity is worked out already.
fn key_of(identity: &KernelIdentity) -> String {
    unify_bools(&identity.base)
}

fn stats(results: &[&KernelResult]) -> GroupStats {
    let durations: Vec<f64> = results
        .iter()
        .filter_map(|r| metric_number(r, names::DURATION))
        .filter(|d| d.is_finite())
        .collect();
    let total: f64 = durations.iter().sum();
    GroupStats {
        count: results.len(),
        timed: durations.len(),
        total_ns: total,
        mean_ns: (!durations.is_empty()).then(|| total / durations.len() as f64),
        min_ns: durations.iter().copied().min_by(f64::total_cmp),
        max_ns: durations.iter().copied().max_by(f64::total_cmp),
    }
}

/// The launches of both reports grouped per kernel, the largest change of total time first;
/// the launches of a kernel paired as renamed are one group, under the current name.
pub fn groups(
    base: &[KernelResult],
    current: &[KernelResult],
    renamed: &[Rename],
) -> Vec<KernelGroup> {
    type Sides<'a> = (Vec<&'a KernelResult>, Vec<&'a KernelResult>);
    // Each launch's group key and function, worked out from its long demangled name on
    // every core (the function only where something was renamed).
    let keyed = |results: &[KernelResult]| -> Vec<(String, Option<String>)> {
        use rayon::prelude::*;
        results
            .par_iter()
            .map(|r| {
                let identity = KernelIdentity::of(r);
                (
                    key_of(&identity),
                    (!renamed.is_empty()).then_some(identity.function),
                )
            })
            .collect()
    };
    let (base_keys, current_keys) = rayon::join(|| keyed(base), || keyed(current));
    // The current group of each renamed base function.
    let mut current_key: BTreeMap<&str, &str> = BTreeMap::new();
    for (key, function) in &current_keys {
        let Some(function) = function else { continue };
        if let Some(rename) = renamed.iter().find(|n| n.current_function == *function) {
            current_key
                .entry(rename.base_function.as_str())
                .or_insert(key.as_str());
        }
    }
    let mut renamed_from: BTreeMap<String, &str> = BTreeMap::new();
    let mut by_key: BTreeMap<String, Sides<'_>> = BTreeMap::new();
    for (r, (own_key, function)) in base.iter().zip(base_keys) {
        let renamed_to = function.and_then(|function| {
            let rename = renamed.iter().find(|n| n.base_function == function)?;
            Some((*current_key.get(function.as_str())?, rename))
        });
        let key = match renamed_to {
            Some((key, rename)) => {
                renamed_from.insert(key.to_string(), &rename.base_function);
                key.to_string()
            }
            None => own_key,
        };
        by_key.entry(key).or_default().0.push(r);
    }
    for (r, (key, _)) in current.iter().zip(current_keys) {
        by_key.entry(key).or_default().1.push(r);
    }
    let mut out: Vec<KernelGroup> = by_key
        .into_iter()
        .map(|(key, (b, c))| {
            let name = c
                .first()
                .or(b.first())
                .map(|r| display_name(r).to_string())
                .unwrap_or_default();
            let name = match renamed_from.get(&key) {
                Some(old) => format!("{old} → {name}"),
                None => name,
            };
            KernelGroup {
                key,
                name,
                base: (!b.is_empty()).then(|| stats(&b)),
                current: (!c.is_empty()).then(|| stats(&c)),
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.total_delta_ns()
            .abs()
            .total_cmp(&a.total_delta_ns().abs())
            .then(a.key.cmp(&b.key))
    });
    out
}
