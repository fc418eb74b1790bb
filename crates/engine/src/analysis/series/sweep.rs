//! A sweep: a series whose axis is a parameter. Versions of a program profiled at several
//! problem sizes (`N=1024/v1.ncu-rep`, the sizes read from the paths by [`super::sizes`]),
//! each kernel matched across the versions by the comparison model (renames included, so a
//! kernel renamed in v5 is one line), and for each version and size its launches aggregated
//! as the trend does (count, mean duration) with the achieved FLOP/s of the roofline's exact
//! figures (every precision's FP work, the launches' work over their time). Reports without a
//! size are left out and said; two reports of one version at one size are an error.

use super::sizes::{self, Placed, SizePattern};
use super::{RunPoint, aggregate, function};
use crate::analysis::compare::matching::{RenamePolicy, match_results_with};
use crate::analysis::roofline::Precision;
use crate::analysis::roofline::exact::{achieved_work, achieved_work_metrics};
use crate::model::{KernelResult, Report, names};
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;

/// What a sweep is built with.
#[derive(Debug, Clone, Default)]
pub struct SweepOptions {
    /// How the sizes are read from the paths.
    pub pattern: SizePattern,
    /// A metric (by name) to aggregate beside the duration and the FLOP/s.
    pub metric: Option<String>,
}

/// Why a sweep cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SweepError {
    #[error(
        "{first} and {second} are both version `{version}` at {parameter}={size}: a sweep takes one report of a version at a size"
    )]
    Duplicate {
        version: String,
        parameter: String,
        size: u64,
        first: String,
        second: String,
    },
    /// Fewer than two sizes among the reports placed; `left_out` says why the others have no
    /// place.
    #[error("a sweep needs reports at two sizes or more: {found}")]
    TooFewSizes {
        found: String,
        left_out: Vec<String>,
    },
}

impl SweepError {
    /// The reports left out before the sweep was refused, each said in a line.
    pub fn left_out(&self) -> &[String] {
        match self {
            SweepError::TooFewSizes { left_out, .. } => left_out,
            SweepError::Duplicate { .. } => &[],
        }
    }
}

/// One report of the sweep.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SweepReport {
    /// Its version (index into [`Sweep::versions`]) and size (index into [`Sweep::sizes`]).
    pub version: usize,
    pub size: usize,
    pub path: String,
}

/// A kernel's launches in one version at one size.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SweepPoint {
    /// Count, total, mean, least and most duration (ns), the metric asked for, damage: as a
    /// trend aggregates a run.
    #[serde(flatten)]
    pub launches: RunPoint,
    /// Achieved FP work of every precision (FP32 + FP64 + FP16), FLOP/s: the launches' work
    /// over their time, from the roofline's exact figures; `None` where the report has not
    /// measured them (no roofline section).
    pub flop_per_s: Option<f64>,
}

/// One version of a kernel over the sizes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SweepLine {
    pub version: String,
    /// One per size, `None` where the version has no report at that size or its report does
    /// not launch the kernel.
    pub points: Vec<Option<SweepPoint>>,
}

/// A kernel through the sweep.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SweepKernel {
    /// Its name in the latest version that launches it.
    pub name: String,
    /// Every name it had, in the order of the versions (more than one where it was renamed).
    pub names: Vec<String>,
    /// One per version that launches it, in the order of the versions.
    pub lines: Vec<SweepLine>,
}

/// A sweep over a parameter.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sweep {
    /// What the sizes are called (`N`).
    pub parameter: String,
    /// The sizes, smallest first.
    pub sizes: Vec<u64>,
    /// The versions, in their natural order (`v2` before `v10`).
    pub versions: Vec<String>,
    /// The pattern the sizes were read with, where one was given.
    pub size_pattern: Option<String>,
    /// The metric aggregated beside the duration, if one was asked for.
    pub metric: Option<String>,
    pub reports: Vec<SweepReport>,
    /// Every kernel, the longest at the largest size of the latest version first.
    pub kernels: Vec<SweepKernel>,
    /// The reports left out (no size, several sizes), each said in a line.
    pub left_out: Vec<String>,
}

/// A figure of a sweep's points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SweepFigure {
    /// The mean duration of the launches, ns.
    Duration,
    /// The achieved FLOP/s.
    FlopRate,
    /// The metric asked for.
    Metric,
}

impl SweepFigure {
    /// The figure's value at a point.
    pub fn value(self, p: &SweepPoint) -> Option<f64> {
        match self {
            SweepFigure::Duration => Some(p.launches.mean_ns),
            SweepFigure::FlopRate => p.flop_per_s,
            SweepFigure::Metric => p.launches.metric,
        }
    }

    /// The base unit of its values.
    pub fn unit(self) -> &'static str {
        match self {
            SweepFigure::Duration => "ns",
            SweepFigure::FlopRate => "FLOP/s",
            SweepFigure::Metric => "",
        }
    }

    /// What it is called (the metric's own name for the metric).
    pub fn title(self, sweep: &Sweep) -> String {
        match self {
            SweepFigure::Duration => "Duration".into(),
            SweepFigure::FlopRate => "Achieved FLOP/s".into(),
            SweepFigure::Metric => sweep.metric.clone().unwrap_or_default(),
        }
    }
}

impl Sweep {
    /// The figures with something to show: the duration always, the FLOP/s where some report
    /// measured it, the metric where one was asked for.
    pub fn figures(&self) -> Vec<SweepFigure> {
        let any = |f: SweepFigure| {
            self.kernels
                .iter()
                .flat_map(|k| &k.lines)
                .flat_map(|l| l.points.iter().flatten())
                .any(|p| f.value(p).is_some())
        };
        let mut out = vec![SweepFigure::Duration];
        if any(SweepFigure::FlopRate) {
            out.push(SweepFigure::FlopRate);
        }
        if self.metric.is_some() {
            out.push(SweepFigure::Metric);
        }
        out
    }

    /// A size as a column names it: `N=1024`.
    pub fn size_label(&self, size: usize) -> String {
        self.sizes
            .get(size)
            .map_or_else(String::new, |s| format!("{}={s}", self.parameter))
    }
}

/// The metrics a sweep reads besides the heads: what the FLOP/s needs, and the metric asked
/// for (what [`super::detached_keeping`] must keep).
pub fn sweep_metrics(metric: Option<&str>) -> Vec<String> {
    let mut out = achieved_work_metrics();
    out.extend(metric.map(str::to_string));
    out
}

/// Builds the sweep of `reports`, read from `paths` (one each, in the same order).
pub fn sweep<P: AsRef<Path>>(
    reports: &[&Report],
    paths: &[P],
    options: &SweepOptions,
) -> Result<Sweep, SweepError> {
    let folder = sizes::shared_folder(paths);
    let folder_name = folder
        .file_name()
        .map_or_else(|| "reports".into(), |n| n.to_string_lossy().into_owned());
    let mut left_out = Vec::new();
    let mut placed: Vec<(usize, Placed)> = Vec::new();
    for (i, path) in paths.iter().enumerate().take(reports.len()) {
        let path = path.as_ref();
        let below = sizes::path_below(path, &folder);
        match sizes::place(
            &below,
            &path.display().to_string(),
            &folder_name,
            &options.pattern,
        ) {
            Ok(p) => placed.push((i, p)),
            Err(e) => left_out.push(e.to_string()),
        }
    }
    let mut sizes: Vec<u64> = placed.iter().map(|(_, p)| p.size).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let parameter = common_parameter(&placed);
    if sizes.len() < 2 {
        return Err(SweepError::TooFewSizes {
            found: match sizes.first() {
                None => "no report has a size in its path".into(),
                Some(s) => format!("every report read is at {parameter}={s}"),
            },
            left_out,
        });
    }
    let mut versions: Vec<String> = placed.iter().map(|(_, p)| p.version.clone()).collect();
    versions.sort_by(|a, b| sizes::natural_order(a, b));
    versions.dedup();
    // The report of each version at each size.
    let mut grid: Vec<Vec<Option<usize>>> = vec![vec![None; sizes.len()]; versions.len()];
    let mut sweep_reports = Vec::new();
    for (input, p) in &placed {
        let v = versions.binary_search_by(|x| sizes::natural_order(x, &p.version));
        let s = sizes.binary_search(&p.size);
        let (Ok(v), Ok(s)) = (v, s) else { continue };
        if let Some(first) = grid[v][s] {
            return Err(SweepError::Duplicate {
                version: p.version.clone(),
                parameter,
                size: p.size,
                first: shown(paths, first),
                second: shown(paths, *input),
            });
        }
        grid[v][s] = Some(*input);
        sweep_reports.push(SweepReport {
            version: v,
            size: s,
            path: shown(paths, *input),
        });
    }
    sweep_reports.sort_by_key(|r| (r.version, r.size));
    let identities = kernel_identities(reports, &grid);
    let kernels = kernel_lines(reports, &grid, &identities, &versions, options);
    Ok(Sweep {
        parameter,
        sizes,
        versions,
        size_pattern: options.pattern.text().map(str::to_string),
        metric: options.metric.clone(),
        reports: sweep_reports,
        kernels,
        left_out,
    })
}

fn shown<P: AsRef<Path>>(paths: &[P], i: usize) -> String {
    paths
        .get(i)
        .map_or_else(String::new, |p| p.as_ref().display().to_string())
}

/// The parameter's name: the one every report gives, else `size`.
fn common_parameter(placed: &[(usize, Placed)]) -> String {
    let mut names = placed.iter().map(|(_, p)| p.parameter.as_str());
    let first = names.next().unwrap_or("size");
    if names.all(|n| n == first) {
        first.to_string()
    } else {
        "size".into()
    }
}

/// Kernel identities version by version: each version's functions take the identity of the
/// function the comparison model pairs them with in the nearest earlier version that was
/// profiled at a size this one was (at every such size, the smallest first), else one of
/// their own; a name seen before keeps its identity.
fn kernel_identities(
    reports: &[&Report],
    grid: &[Vec<Option<usize>>],
) -> Vec<HashMap<String, usize>> {
    let mut identities: Vec<HashMap<String, usize>> = Vec::with_capacity(grid.len());
    let mut by_name: HashMap<String, usize> = HashMap::new();
    let mut count = 0usize;
    for (v, row) in grid.iter().enumerate() {
        let mut ids: HashMap<String, usize> = HashMap::new();
        let earlier = (0..v).rev().find(|&e| {
            grid[e]
                .iter()
                .zip(row)
                .any(|(a, b)| a.is_some() && b.is_some())
        });
        if let Some(e) = earlier {
            for (before, current) in grid[e].iter().zip(row) {
                let (Some(b), Some(c)) = (before, current) else {
                    continue;
                };
                let (Some(before), Some(current)) = (reports.get(*b), reports.get(*c)) else {
                    continue;
                };
                let matching = match_results_with(
                    &before.results,
                    &current.results,
                    &[],
                    &RenamePolicy::default(),
                );
                for pair in &matching.pairs {
                    let (Some(b), Some(c)) = (
                        before.results.get(pair.base),
                        current.results.get(pair.current),
                    ) else {
                        continue;
                    };
                    if let Some(&id) = identities[e].get(&function(b)) {
                        ids.entry(function(c)).or_insert(id);
                    }
                }
            }
        }
        for report in row.iter().flatten().filter_map(|&i| reports.get(i)) {
            for result in &report.results {
                let name = function(result);
                if ids.contains_key(&name) {
                    continue;
                }
                let id = *by_name.entry(name.clone()).or_insert_with(|| {
                    count += 1;
                    count - 1
                });
                ids.insert(name, id);
            }
        }
        for (name, &id) in &ids {
            by_name.insert(name.clone(), id);
        }
        identities.push(ids);
    }
    identities
}

/// Each kernel's points, version by version and size by size.
fn kernel_lines(
    reports: &[&Report],
    grid: &[Vec<Option<usize>>],
    identities: &[HashMap<String, usize>],
    versions: &[String],
    options: &SweepOptions,
) -> Vec<SweepKernel> {
    let count = identities
        .iter()
        .flat_map(|ids| ids.values())
        .map(|&id| id + 1)
        .max()
        .unwrap_or(0);
    let sizes = grid.first().map_or(0, Vec::len);
    let mut kernels: Vec<SweepKernel> = (0..count)
        .map(|_| SweepKernel {
            name: String::new(),
            names: Vec::new(),
            lines: versions
                .iter()
                .map(|v| SweepLine {
                    version: v.clone(),
                    points: vec![None; sizes],
                })
                .collect(),
        })
        .collect();
    for (v, row) in grid.iter().enumerate() {
        for (s, input) in row.iter().enumerate() {
            let Some(report) = input.and_then(|i| reports.get(i)) else {
                continue;
            };
            let mut launches: HashMap<usize, Vec<&KernelResult>> = HashMap::new();
            for result in &report.results {
                if let Some(&id) = identities[v].get(&function(result)) {
                    launches.entry(id).or_default().push(result);
                }
            }
            for (id, results) in launches {
                let Some(k) = kernels.get_mut(id) else {
                    continue;
                };
                let mut point = aggregate(&results, options.metric.as_deref());
                point.results.clear();
                k.lines[v].points[s] = Some(SweepPoint {
                    flop_per_s: flop_rate(&results),
                    launches: point,
                });
            }
        }
    }
    for k in &mut kernels {
        k.lines.retain(|l| l.points.iter().any(Option::is_some));
        for line in &k.lines {
            for p in line.points.iter().flatten() {
                if !k.names.contains(&p.launches.name) {
                    k.names.push(p.launches.name.clone());
                }
                k.name = p.launches.name.clone();
            }
        }
    }
    kernels.retain(|k| !k.lines.is_empty());
    kernels.sort_by(|a, b| {
        latest_largest(b)
            .total_cmp(&latest_largest(a))
            .then(a.name.cmp(&b.name))
    });
    kernels
}

/// The total duration at the largest size of the latest version that launches the kernel.
fn latest_largest(k: &SweepKernel) -> f64 {
    k.lines
        .last()
        .and_then(|l| l.points.iter().rev().flatten().next())
        .map_or(0.0, |p| p.launches.total_ns)
}

/// The achieved FLOP/s of some launches: each launch's FP work (every precision the roofline
/// metrics give) weighted by its share of their time; `None` where no launch has both.
fn flop_rate(results: &[&KernelResult]) -> Option<f64> {
    let launches: Vec<(f64, f64)> = results
        .iter()
        .filter_map(|r| {
            let work: Vec<f64> = Precision::ALL
                .into_iter()
                .filter_map(|p| achieved_work(r, p))
                .collect();
            let duration = r
                .number(names::DURATION)
                .filter(|d| d.is_finite() && *d > 0.0)?;
            (!work.is_empty()).then(|| (work.iter().sum::<f64>(), duration))
        })
        .collect();
    let time: f64 = launches.iter().map(|(_, d)| d).sum();
    (!launches.is_empty() && time > 0.0).then(|| launches.iter().map(|(w, d)| w * (d / time)).sum())
}
