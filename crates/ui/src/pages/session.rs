//! The Session page: launch settings, session information, processes, devices, and how the
//! selected result was launched.

use crate::model::format::NOT_MEASURED;
use crate::model::format::value_and_unit;
use crate::model::{KernelResult, Report};
use crate::pages::{Page, PageContext, PageIo};
use sightline_app::core::page_id::PageId;

/// The Session page (no state of its own).
#[derive(Debug, Default)]
pub struct SessionPage;

impl Page for SessionPage {
    fn id(&self) -> PageId {
        PageId::Session
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &PageContext<'_>, _io: &mut PageIo<'_>) {
        show(ui, &cx.open.report, cx.result);
    }
}

/// Session attributes that describe how the profiler was launched.
fn is_launch_setting(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    k.contains("command line") || k.starts_with("launch") || k.contains("working directory")
}

/// Shows the Session page.
pub fn show(ui: &mut egui::Ui, report: &Report, result: &KernelResult) {
    egui::ScrollArea::vertical()
        .id_salt("session_page")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let (launch, info): (Vec<_>, Vec<_>) = report
                .session
                .attributes
                .iter()
                .partition(|(k, _)| is_launch_setting(k));
            section(ui, "Launch Settings", |ui| pairs(ui, &launch));
            section(ui, "Session Info", |ui| {
                let mut rows: Vec<&(String, String)> = info;
                let version;
                if let Some(v) = &report.tool_version {
                    version = ("Nsight Compute version".to_string(), v.clone());
                    if !rows.iter().any(|(_, value)| value == v) {
                        rows.push(&version);
                    }
                }
                let format = ("Report form".to_string(), report.format.name().to_string());
                rows.push(&format);
                pairs(ui, &rows);
            });
            if !report.session.processes.is_empty() {
                section(ui, "Processes", |ui| {
                    egui::Grid::new("processes").striped(true).show(ui, |ui| {
                        ui.weak("Process Id");
                        ui.weak("Process Name");
                        ui.end_row();
                        for (pid, name) in &report.session.processes {
                            ui.label(pid.to_string());
                            ui.label(name);
                            ui.end_row();
                        }
                    });
                });
            }
            section(ui, "Device Attributes", |ui| devices(ui, report));
            section(ui, "Launch of This Result", |ui| {
                launch_of_result(ui, result)
            });
        });
}

fn section(ui: &mut egui::Ui, title: &str, add: impl FnOnce(&mut egui::Ui)) {
    egui::CollapsingHeader::new(egui::RichText::new(title).strong())
        .id_salt(("session_section", title))
        .default_open(true)
        .show(ui, add);
}

/// Key/value rows; long values (a command line) wrap in the value column.
fn pairs(ui: &mut egui::Ui, rows: &[&(String, String)]) {
    if rows.is_empty() {
        ui.weak("Not in this form of report.");
        return;
    }
    const KEY_WIDTH: f32 = 200.0;
    for (k, v) in rows {
        ui.horizontal_top(|ui| {
            ui.allocate_ui_with_layout(
                egui::vec2(KEY_WIDTH, ui.spacing().interact_size.y),
                egui::Layout::left_to_right(egui::Align::Min),
                |ui| {
                    ui.set_min_width(KEY_WIDTH);
                    ui.add(egui::Label::new(egui::RichText::new(k.as_str()).weak()).truncate());
                },
            );
            ui.add(egui::Label::new(v.as_str()).wrap());
        });
    }
}

/// One column per device, one row per attribute, in source order.
fn devices(ui: &mut egui::Ui, report: &Report) {
    if report.devices.is_empty() {
        ui.weak("Not in this form of report.");
        return;
    }
    let mut keys: Vec<&str> = Vec::new();
    for d in &report.devices {
        for (k, _) in &d.attributes {
            if !keys.contains(&k.as_str()) {
                keys.push(k);
            }
        }
    }
    egui::Grid::new("device_attributes")
        .striped(true)
        .show(ui, |ui| {
            ui.weak("Device Attribute");
            for d in &report.devices {
                ui.weak(format!("Device {}", d.index));
            }
            ui.end_row();
            ui.label("Name");
            for d in &report.devices {
                ui.label(d.name.as_deref().unwrap_or(NOT_MEASURED));
            }
            ui.end_row();
            ui.label("Compute capability");
            for d in &report.devices {
                ui.label(d.cc.map_or_else(|| NOT_MEASURED.into(), crate::model::format::cc_text));
            }
            ui.end_row();
            for key in keys {
                ui.label(key);
                for d in &report.devices {
                    let v = d
                        .attributes
                        .iter()
                        .find(|(k, _)| k == key)
                        .map_or(NOT_MEASURED, |(_, v)| v.as_str());
                    ui.label(v);
                }
                ui.end_row();
            }
        });
}

/// The result's launch: shape, stream, process, NVTX, and the `launch__` metrics.
fn launch_of_result(ui: &mut egui::Ui, r: &KernelResult) {
    let opt = |v: Option<u64>| v.map_or_else(|| NOT_MEASURED.to_string(), |v| v.to_string());
    let mut rows: Vec<(String, String)> = vec![
        ("Kernel".into(), r.name.demangled.clone()),
        ("ID".into(), r.id.to_string()),
        (
            "Grid Size".into(),
            r.grid
                .map_or_else(|| NOT_MEASURED.into(), |g| g.to_string()),
        ),
        (
            "Block Size".into(),
            r.block
                .map_or_else(|| NOT_MEASURED.into(), |b| b.to_string()),
        ),
        ("Device".into(), opt(r.device)),
        ("Context".into(), opt(r.context)),
        ("Stream".into(), opt(r.stream)),
        (
            "CC".into(),
            r.cc.map_or_else(|| NOT_MEASURED.into(), crate::model::format::cc_text),
        ),
        (
            "Process".into(),
            match (r.process_id, &r.process_name) {
                (Some(pid), Some(name)) => format!("{pid} {name}"),
                (Some(pid), None) => pid.to_string(),
                (None, Some(name)) => name.clone(),
                (None, None) => NOT_MEASURED.into(),
            },
        ),
    ];
    if let Some(m) = &r.name.mangled {
        rows.push(("Mangled name".into(), m.clone()));
    }
    if !r.nvtx.is_empty() {
        let stack: Vec<String> = r
            .nvtx
            .iter()
            .map(|n| format!("{}: {}", n.domain, n.name))
            .collect();
        rows.push(("NVTX".into(), stack.join(" / ")));
    }
    for (key, metric) in r.metrics().with_prefix("launch__") {
        let (value, unit) = value_and_unit(&metric.value, &metric.unit);
        let text = if unit.is_empty() {
            value
        } else {
            format!("{value} {unit}")
        };
        rows.push((key.to_string(), text));
    }
    let refs: Vec<&(String, String)> = rows.iter().collect();
    pairs(ui, &refs);
}
