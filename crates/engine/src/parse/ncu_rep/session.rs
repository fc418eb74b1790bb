//! Session information (launch settings, host and target, versions, processes) and devices,
//! from the merged `ReportSessionDetails` and the block processes. Attribute labels follow
//! ncu's session page.

use super::container::Container;
use super::messages::{MetricValue, SystemInfo};
use super::result::value_of;
use crate::model::{Device, Session, Value};

/// The session page attributes, processes and devices of a report.
pub struct SessionInfo {
    pub session: Session,
    pub devices: Vec<Device>,
    /// The Nsight Compute version (`2025.3.1.0`), from the `Nsight Compute Target` entry.
    pub tool_version: Option<String>,
}

/// Where the results of a merged report come from: each distinct process as
/// `name (pid) on host`, joined by `; `.
fn merged_origins(c: &Container<'_>) -> String {
    let mut seen: Vec<String> = Vec::new();
    for p in &c.processes {
        let name = p.process_name.as_deref().unwrap_or("").trim();
        let name = name.rsplit('/').next().unwrap_or(name);
        let mut origin = format!("{name} ({})", p.process_id.unwrap_or(0));
        if let Some(host) = p.hostname.as_deref().filter(|h| !h.is_empty()) {
            origin.push_str(&format!(" on {host}"));
        }
        if !seen.contains(&origin) {
            seen.push(origin);
        }
    }
    seen.join("; ")
}

/// Builds the session information from a walked container.
pub fn session_info(c: &Container<'_>) -> SessionInfo {
    let s = &c.session;
    let mut attrs: Vec<(String, String)> = Vec::new();
    let mut push = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            attrs.push((k.to_string(), v));
        }
    };
    push("Profiler Command Line", s.profiler_cmdline.clone());
    push("Created", s.creation_time.map(format_utc));
    push_system(&mut push, "Host", s.host_system_info.as_ref(), false);
    push_system(&mut push, "Target", s.target_system_info.as_ref(), true);
    let mut tool_version = None;
    for v in &s.version_info {
        let provider = v.provider.clone().unwrap_or_default();
        if provider == "Nsight Compute Target" {
            tool_version = v
                .version
                .as_deref()
                .and_then(|t| t.split_whitespace().next())
                .map(str::to_string);
        }
        push(&provider, Some(v.version.clone().unwrap_or_default()));
    }
    push("Comments", s.comments.clone());
    if let Some(e) = &s.executable_settings {
        push("Executable", e.path.clone());
        push("Working Directory", e.working_directory.clone());
        push("Arguments", e.arguments.clone());
        push("Environment", e.environment.clone());
    }
    if s.is_merged_report == Some(true) {
        push("Merged Report", Some("Yes".into()));
        push("Merged From", Some(merged_origins(c)));
    }
    let mut processes: Vec<(u64, String)> = Vec::new();
    for p in &c.processes {
        let pid = u64::from(p.process_id.unwrap_or(0));
        if !processes.iter().any(|(q, _)| *q == pid) {
            processes.push((pid, p.process_name.clone().unwrap_or_default()));
        }
    }
    let devices = s
        .device_attributes
        .iter()
        .map(|d| {
            let attr = |suffix: &str| {
                d.attributes
                    .iter()
                    .find(|a| {
                        a.name
                            .as_deref()
                            .and_then(|n| n.strip_prefix("device__attribute_"))
                            == Some(suffix)
                    })
                    .and_then(|a| a.value.as_ref())
                    .and_then(|v| value_of(v).as_f64())
            };
            let cc = match (
                attr("compute_capability_major"),
                attr("compute_capability_minor"),
            ) {
                (Some(a), Some(b)) => Some((a as u32, b as u32)),
                _ => None,
            };
            Device {
                index: u64::from(d.id.unwrap_or(0)),
                name: d.name.clone(),
                cc,
                sm_count: attr("multiprocessor_count").map(|v| v as u64),
                attributes: d
                    .attributes
                    .iter()
                    .map(|a| {
                        let name = a.name.as_deref().unwrap_or_default();
                        (
                            name.strip_prefix("device__attribute_")
                                .unwrap_or(name)
                                .to_string(),
                            a.value.as_ref().map_or_else(String::new, attribute_text),
                        )
                    })
                    .collect(),
            }
        })
        .collect();
    SessionInfo {
        session: Session {
            attributes: attrs,
            processes,
        },
        devices,
        tool_version,
    }
}

fn push_system(
    push: &mut impl FnMut(&str, Option<String>),
    who: &str,
    info: Option<&SystemInfo>,
    with_ips: bool,
) {
    let Some(info) = info else { return };
    push(&format!("{who} Name"), info.computer_name.clone());
    if with_ips && !info.ip_addresses.is_empty() {
        let ips: Vec<&str> = info
            .ip_addresses
            .iter()
            .filter_map(|a| a.address.as_deref())
            .collect();
        push(&format!("{who} IP Addresses"), Some(ips.join(", ")));
    }
    let os = match (&info.os_name, &info.build) {
        (Some(os), Some(build)) => Some(format!("{os} - {build}")),
        (Some(os), None) => Some(os.clone()),
        (None, Some(build)) => Some(build.clone()),
        (None, None) => None,
    };
    push(&format!("{who} OS"), os);
    push(&format!("{who} Architecture"), info.architecture.clone());
    push(&format!("{who} Processor"), info.processor.clone());
}

/// A stored value as text (integers exact, strings as they are).
fn attribute_text(v: &MetricValue) -> String {
    match value_of(v) {
        Value::Missing => String::new(),
        other => other.to_string(),
    }
}

/// Unix seconds as ncu's session page prints them: `2026-Nov-21 19:05:57` (UTC).
pub fn format_utc(secs: u64) -> String {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year}-{}-{day:02} {:02}:{:02}:{:02}",
        MONTHS.get((month - 1) as usize).copied().unwrap_or("???"),
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::format_utc;

    #[test]
    fn formats_creation_time() {
        assert_eq!(format_utc(1_795_287_983), "2026-Nov-21 19:06:23");
        assert_eq!(format_utc(0), "1970-Jan-01 00:00:00");
        assert_eq!(format_utc(951_782_400), "2000-Feb-29 00:00:00");
    }
}
