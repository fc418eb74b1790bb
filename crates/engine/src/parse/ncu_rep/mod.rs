//! Reader of native Nsight Compute reports (`.ncu-rep`, container version 7).
//!
//! Opening walks the block headers only ([`container`]), then decodes every result message
//! ([`result`]) in parallel across the cores, borrowing from the caller's bytes. Embedded cubins
//! and imported source files are located but not decoded; ask for them with [`modules`] and
//! [`source_files`], given the file's full bytes (`load_path` leaves their bytes out).

pub mod bodies;
pub mod body_messages;
pub mod code;
pub mod code_reader;
pub mod container;
pub mod device_records;
pub mod graphs;
pub mod head;
pub mod messages;
pub mod on_demand;
pub mod open;
pub mod oversized;
pub mod result;
pub mod rules;
pub mod sections;
pub mod session;
pub mod sources;
pub mod stream_check;
pub mod units;
pub mod unknown;
pub mod wire;
pub mod workloads;

pub use code::{CodeIndex, KernelCode};
pub use code_reader::{ReportCode, read_code, read_code_of};
pub use open::open;
pub use sources::{Module, SourceFile, modules, source_files};

use super::ParseError;
use crate::model::section_body::ReportBodies;
use crate::model::{Format, Report, Warning, WarningKind};
use container::{Container, Entry};
use result::{Context, Decoded, decode_result};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Parses a `.ncu-rep` report. Damage after at least one result gives a partial report with a
/// warning; damage before any result is an error.
pub fn parse(bytes: &[u8]) -> Result<Report, ParseError> {
    let mut c = container::walk(bytes)?;
    let ctx = Context::new(&c);
    let decoded = decode_all(&ctx, &c.results, 0, decode_result);
    let damage = c.damage.take();
    let total = c.results.len();
    assemble(&c, c.results.first(), decoded, total, damage)
}

/// The report of a walked container, its first result message (which holds the section body
/// templates) and its decoded results (`total` of them in the file).
/// Damage after at least one result gives a partial report with a warning; damage before any
/// result is an error.
fn assemble(
    c: &Container<'_>,
    first: Option<&Entry<'_>>,
    decoded: Vec<Result<Decoded, ParseError>>,
    total: usize,
    damage: Option<ParseError>,
) -> Result<Report, ParseError> {
    let info = session::session_info(c);
    let mut report = Report::new("", Format::NcuRep);
    report.tool_version = info.tool_version;
    report.created = c.session.creation_time;
    report.session = info.session;
    report.devices = info.devices;

    let mut first_error: Option<ParseError> = None;
    let mut clocks = Vec::new();
    let mut driver = None;
    let mut unknown = c.unknown.clone();
    let mut left_out = oversized::LeftOut::default();
    report.results.reserve_exact(decoded.len());
    for d in decoded {
        match d {
            Ok(d) if first_error.is_none() => {
                unknown.add(unknown::result_message(d.result.kind), &d.unknown);
                left_out.add(unknown::result_message(d.result.kind), &d.left_out);
                unknown.merge(&d.unknown_in_body);
                if let Some(s) = &d.clock_status {
                    clocks.push((s.lock_requested.unwrap_or(false), s.locked.unwrap_or(false)));
                }
                driver = driver.or(d.driver_version);
                report.results.push(d.result);
            }
            Ok(_) => {}
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    add_clock_attributes(&mut report, &clocks, driver);
    report.bodies = body_templates(first, &mut report.warnings, &mut unknown);
    report.graphs = c.graphs.clone();
    report.warnings.extend(
        c.graph_errors
            .iter()
            .map(|e| Warning::new(WarningKind::Unreadable, e.clone())),
    );
    report.notes.extend(unknown.notes());
    report.warnings.extend(left_out.warnings());

    let damage = first_error.or(damage);
    if let Some(e) = damage {
        if report.results.is_empty() {
            return Err(e);
        }
        let lost = if total > report.results.len() {
            format!(", {} more could not be read", total - report.results.len())
        } else {
            String::new()
        };
        report.warnings.push(Warning::new(
            WarningKind::Damaged,
            format!(
                "the report is damaged ({e}); kept the {} read before it{lost}",
                crate::model::format::count_text(report.results.len(), "result", "results"),
            ),
        ));
    }
    Ok(report)
}

/// The section body templates of the report, from its first result (all carry the same).
fn body_templates(
    first: Option<&Entry<'_>>,
    warnings: &mut Vec<Warning>,
    unknown: &mut unknown::Unknown,
) -> ReportBodies {
    let Some(first) = first else {
        return ReportBodies::None;
    };
    match bodies::templates_of(first, unknown) {
        Ok(t) if t.sections.is_empty() => ReportBodies::None,
        Ok(t) => ReportBodies::Templates(std::sync::Arc::new(t)),
        Err(e) => {
            warnings.push(Warning::new(
                WarningKind::Unreadable,
                format!("section bodies not shown: {e}"),
            ));
            ReportBodies::None
        }
    }
}

/// How a result is decoded: whole, or without its body.
type Decoder = fn(&Context, &Entry<'_>, u64) -> Result<Decoded, ParseError>;

/// Decodes every result with `decode`, in parallel when there are several, returning them in
/// file order; the first has the ID `first_id`.
fn decode_all(
    ctx: &Context,
    entries: &[Entry<'_>],
    first_id: u64,
    decode: Decoder,
) -> Vec<Result<Decoded, ParseError>> {
    let threads = crate::cores::cores().min(entries.len() / 2).clamp(1, 16);
    if threads == 1 {
        return entries
            .iter()
            .enumerate()
            .map(|(i, e)| decode(ctx, e, first_id + i as u64))
            .collect();
    }
    let next = AtomicUsize::new(0);
    let mut parts: Vec<(usize, Result<Decoded, ParseError>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(e) = entries.get(i) else { break };
                        done.push((i, decode(ctx, e, first_id + i as u64)));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            // A panic in a worker is a bug; pass it on rather than lose results quietly.
            .flat_map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    parts.sort_by_key(|(i, _)| *i);
    parts.into_iter().map(|(_, r)| r).collect()
}

/// Session attributes for the clock control of the results (the details page warns about
/// results collected without locked clocks) and the display driver version.
fn add_clock_attributes(report: &mut Report, clocks: &[(bool, bool)], driver: Option<f32>) {
    let summary = |pick: fn(&(bool, bool)) -> bool| {
        let yes = clocks.iter().filter(|c| pick(c)).count();
        if yes == clocks.len() {
            "yes".to_string()
        } else if yes == 0 {
            "no".to_string()
        } else {
            format!(
                "mixed ({yes} of {})",
                crate::model::format::count_text(clocks.len(), "result", "results")
            )
        }
    };
    let attrs = &mut report.session.attributes;
    if !clocks.is_empty() {
        attrs.push(("Clock Lock Requested".into(), summary(|c| c.0)));
        attrs.push(("Clocks Locked".into(), summary(|c| c.1)));
    }
    if let Some(v) = driver
        && !attrs.iter().any(|(k, _)| k == "Display Driver Version")
    {
        attrs.push(("Display Driver Version".into(), v.to_string()));
    }
}

/// The walked container of a report, for callers that want offsets without decoding results.
pub fn container(bytes: &[u8]) -> Result<Container<'_>, ParseError> {
    container::walk(bytes)
}
