//! FMA lanes per SM per clock for each compute capability, for peaks estimated from text-only
//! reports (`lanes` in `assets/data/gpu_limits.json`).

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

const GPU_LIMITS_JSON: &str = include_str!("../../../../../assets/data/gpu_limits.json");

/// FMA-class results per clock per SM.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Lanes {
    /// FFMA lanes (2 FLOP per clock each).
    pub fp32: Option<u32>,
    /// DFMA lanes (2 FLOP per clock each).
    pub fp64: Option<u32>,
    /// HFMA2 lanes, non-tensor FP16 (4 FLOP per clock each).
    pub hfma2: Option<u32>,
    /// Where the numbers come from and how sure they are.
    pub note: String,
}

#[derive(Deserialize, Default)]
struct LanesFile {
    lanes: BTreeMap<String, Lanes>,
}

fn table() -> &'static [((u32, u32), Lanes)] {
    static TABLE: OnceLock<Vec<((u32, u32), Lanes)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let file: LanesFile = serde_json::from_str(GPU_LIMITS_JSON).unwrap_or_default();
        file.lanes
            .into_iter()
            .filter_map(|(k, v)| Some((crate::analysis::occupancy::limits::parse_cc(&k)?, v)))
            .collect()
    })
}

/// The lanes of a compute capability, when the table lists it.
pub fn lanes_for(cc: (u32, u32)) -> Option<&'static Lanes> {
    table().iter().find(|(c, _)| *c == cc).map(|(_, l)| l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hopper_and_ampere_lanes() {
        let h = lanes_for((9, 0)).unwrap();
        assert_eq!((h.fp32, h.fp64, h.hfma2), (Some(128), Some(64), Some(128)));
        let a = lanes_for((8, 6)).unwrap();
        assert_eq!((a.fp32, a.fp64), (Some(128), Some(2)));
        assert_eq!(lanes_for((10, 0)).unwrap().hfma2, None);
        assert!(lanes_for((6, 1)).is_none());
    }
}
