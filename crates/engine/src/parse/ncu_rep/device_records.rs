//! What a result stores of the GPU's own records (ncu 2026.3 and later): the PC samples of PM
//! sampling per SM (`ProfilerPmPcSamplingDataEntry`) and device-side NVTX (`NvtxdInfo`),
//! declared by hand with the fields shown.

// prost's derive generates the field accessors; some are unused.
#![allow(dead_code)]

use crate::model::device_records::{
    DeviceNvtx, DeviceNvtxEvent, DeviceNvtxInfo, PcSampling, SmPcSamples, WarpRange,
};
use prost::Message;

/// One PM sampling metric and its PC samples.
#[derive(Clone, PartialEq, prost::Message)]
pub struct PcSamplingEntryMsg {
    #[prost(string, optional, tag = "1")]
    pub metric: Option<String>,
    #[prost(message, optional, tag = "2")]
    pub data: Option<PcSamplingDataMsg>,
}

/// The samples of every SM.
#[derive(Clone, PartialEq, prost::Message)]
pub struct PcSamplingDataMsg {
    #[prost(message, repeated, tag = "1")]
    pub per_sm: Vec<SmSamplesMsg>,
}

/// The sample buffers of one SM (their lengths are what is read).
#[derive(Clone, PartialEq, prost::Message)]
pub struct SmSamplesMsg {
    #[prost(uint32, optional, tag = "1")]
    pub sm: Option<u32>,
    #[prost(bytes = "vec", optional, tag = "2")]
    pub timestamps: Option<Vec<u8>>,
    #[prost(bytes = "vec", optional, tag = "3")]
    pub pc_samples: Option<Vec<u8>>,
    #[prost(bytes = "vec", optional, tag = "4")]
    pub dropped: Option<Vec<u8>>,
}

/// Device-side NVTX of a result.
#[derive(Clone, PartialEq, prost::Message)]
pub struct DeviceNvtxMsg {
    #[prost(message, repeated, tag = "1")]
    pub events: Vec<NvtxdEventMsg>,
    #[prost(message, repeated, tag = "2")]
    pub warp_ranges: Vec<WarpRangeMsg>,
    #[prost(string, optional, tag = "3")]
    pub pass_group_metric: Option<String>,
    #[prost(message, repeated, tag = "4")]
    pub infos: Vec<NvtxdInfoMsg>,
}

/// One event: when, which, on which SM and warp.
#[derive(Clone, PartialEq, prost::Message)]
pub struct NvtxdEventMsg {
    #[prost(uint64, optional, tag = "1")]
    pub timestamp: Option<u64>,
    #[prost(uint32, optional, tag = "2")]
    pub event_id: Option<u32>,
    #[prost(uint32, optional, tag = "3")]
    pub sm: Option<u32>,
    #[prost(uint32, optional, tag = "4")]
    pub warp: Option<u32>,
}

/// The time one warp executed.
#[derive(Clone, PartialEq, prost::Message)]
pub struct WarpRangeMsg {
    #[prost(uint64, optional, tag = "1")]
    pub start: Option<u64>,
    #[prost(uint64, optional, tag = "2")]
    pub end: Option<u64>,
    #[prost(uint32, optional, tag = "3")]
    pub sm: Option<u32>,
    #[prost(uint32, optional, tag = "4")]
    pub warp: Option<u32>,
}

/// What an event id stands for.
#[derive(Clone, PartialEq, prost::Message)]
pub struct NvtxdInfoMsg {
    #[prost(uint32, optional, tag = "1")]
    pub event_id: Option<u32>,
    #[prost(string, optional, tag = "2")]
    pub domain: Option<String>,
    #[prost(string, optional, tag = "3")]
    pub name: Option<String>,
    #[prost(uint32, optional, tag = "4")]
    pub kind: Option<u32>,
}

/// One stored PM sampling metric with its PC samples.
pub fn pc_sampling(bytes: &[u8]) -> Result<PcSampling, prost::DecodeError> {
    let m = PcSamplingEntryMsg::decode(bytes)?;
    let len = |b: &Option<Vec<u8>>| b.as_ref().map_or(0, |b| b.len() as u64);
    Ok(PcSampling {
        metric: m.metric.unwrap_or_default(),
        per_sm: m
            .data
            .map(|d| d.per_sm)
            .unwrap_or_default()
            .iter()
            .map(|s| SmPcSamples {
                sm: s.sm.unwrap_or(0),
                timestamp_bytes: len(&s.timestamps),
                pc_sample_bytes: len(&s.pc_samples),
                dropped_bytes: len(&s.dropped),
            })
            .collect(),
    })
}

/// A result's device-side NVTX.
pub fn device_nvtx(bytes: &[u8]) -> Result<DeviceNvtx, prost::DecodeError> {
    let m = DeviceNvtxMsg::decode(bytes)?;
    Ok(DeviceNvtx {
        events: m
            .events
            .iter()
            .map(|e| DeviceNvtxEvent {
                timestamp: e.timestamp.unwrap_or(0),
                event_id: e.event_id.unwrap_or(0),
                sm: e.sm.unwrap_or(0),
                warp: e.warp.unwrap_or(0),
            })
            .collect(),
        warp_ranges: m
            .warp_ranges
            .iter()
            .map(|w| WarpRange {
                start: w.start.unwrap_or(0),
                end: w.end.unwrap_or(0),
                sm: w.sm.unwrap_or(0),
                warp: w.warp.unwrap_or(0),
            })
            .collect(),
        pass_group_metric: m.pass_group_metric.filter(|s| !s.is_empty()),
        infos: m
            .infos
            .into_iter()
            .map(|i| DeviceNvtxInfo {
                event_id: i.event_id.unwrap_or(0),
                domain: i.domain.unwrap_or_default(),
                name: i.name.unwrap_or_default(),
                kind: i.kind.unwrap_or(0),
            })
            .collect(),
    })
}
