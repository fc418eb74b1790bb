//! What the GPU recorded during a result's workload besides metrics (ncu 2026.3 and later):
//! PC samples taken with PM sampling, per SM, and device-side NVTX events and warp ranges.

use serde::Serialize;

/// The stored PC samples of one SM for one PM sampling metric. The layout of the sample
/// buffers is not described by the format, so they are kept as sizes only.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SmPcSamples {
    /// The SM (virtual SM id).
    pub sm: u32,
    /// Bytes of sample timestamps.
    pub timestamp_bytes: u64,
    /// Bytes of PC samples.
    pub pc_sample_bytes: u64,
    /// Bytes of the counts of dropped samples.
    pub dropped_bytes: u64,
}

/// The PC samples gathered with one PM sampling metric.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PcSampling {
    pub metric: String,
    pub per_sm: Vec<SmPcSamples>,
}

/// A device-side NVTX event.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct DeviceNvtxEvent {
    pub timestamp: u64,
    pub event_id: u32,
    pub sm: u32,
    pub warp: u32,
}

/// The time a warp executed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct WarpRange {
    pub start: u64,
    pub end: u64,
    pub sm: u32,
    pub warp: u32,
}

/// What an event id stands for: its domain, name and kind.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct DeviceNvtxInfo {
    pub event_id: u32,
    pub domain: String,
    pub name: String,
    /// 0 warp execution range, 1 user range, 2 marker (other values kept as stored).
    pub kind: u32,
}

impl DeviceNvtxInfo {
    /// The name of the event's kind.
    pub fn kind_name(&self) -> String {
        match self.kind {
            0 => "warp execution range".into(),
            1 => "range".into(),
            2 => "marker".into(),
            n => format!("kind {n}"),
        }
    }
}

/// Device-side NVTX of one result.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct DeviceNvtx {
    pub events: Vec<DeviceNvtxEvent>,
    pub warp_ranges: Vec<WarpRange>,
    /// The metric of the pass group the events were collected in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pass_group_metric: Option<String>,
    pub infos: Vec<DeviceNvtxInfo>,
}

impl DeviceNvtx {
    /// The description of an event id.
    pub fn info(&self, event_id: u32) -> Option<&DeviceNvtxInfo> {
        self.infos.iter().find(|i| i.event_id == event_id)
    }
}
