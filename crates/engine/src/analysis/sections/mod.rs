//! Section bodies of a result, ready to draw or print: resolved from a native report's
//! templates, or as a text export printed them. Sources without bodies get none, and
//! [`missing_note`] says which export would have them.

pub mod bars;
pub mod hot_spots;
pub mod instances_table;
pub mod labels;
pub mod memory_chart;
pub mod memory_grid;
pub mod memory_guide;
pub mod memory_table;
pub mod numa;
pub mod paired;
pub mod records;
pub mod request;
pub mod resolve;
pub mod sol_breakdown;
pub mod stalls;
pub mod timeline;
pub mod with_baseline;

use crate::model::section_body::{ReportBodies, SectionBodies, Target};
use crate::model::{Format, KernelResult, Report};

/// What a result is, for the template filters: its architecture, the report's driver, kernel
/// scope.
pub fn target_of(report: &Report, r: &KernelResult) -> Target {
    let arch =
        r.cc.or_else(|| report.device_of(r).and_then(|d| d.cc))
            .and_then(|(major, minor)| i32::try_from(major * 10 + minor).ok());
    let driver = report
        .session
        .get("Display Driver Version")
        .and_then(|v| v.trim().parse::<f32>().ok());
    Target {
        arch,
        driver,
        scope: 1,
    }
}

/// The bodies of the result at `index` (its position in `report.results`), then the tables
/// of its CUDA graph, PC samples and device NVTX ([`records`]).
pub fn bodies_of(report: &Report, index: usize) -> Vec<SectionBodies> {
    let Some(r) = report.results.get(index) else {
        return Vec::new();
    };
    let mut out = match &report.bodies {
        ReportBodies::None => Vec::new(),
        ReportBodies::Templates(t) => resolve::resolve(t, r, &target_of(report, r)),
        ReportBodies::Printed(by_result) => by_result.get(&index).cloned().unwrap_or_default(),
        ReportBodies::InResults => r.body().printed.clone(),
    };
    if report.format == Format::NcuRep {
        out.extend(records::sections(report, r));
    }
    out
}

/// The bodies of one section (by display name) of the result at `index`.
pub fn section_bodies(report: &Report, index: usize, section: &str) -> Option<SectionBodies> {
    bodies_of(report, index)
        .into_iter()
        .find(|s| s.name == section)
}

/// Why a report shows no bodies, naming the export that would have them; `None` when it has.
pub fn missing_note(report: &Report) -> Option<&'static str> {
    match (&report.bodies, report.format) {
        (ReportBodies::None, Format::NcuRep) => Some("this report stores no section templates"),
        (ReportBodies::None, _) => Some(
            "charts and tables need the .ncu-rep report, or its text export with \
             `ncu -i REPORT --print-details all`",
        ),
        _ => None,
    }
}
