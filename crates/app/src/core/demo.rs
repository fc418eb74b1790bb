//! The demo report built into the binary, opened when the app starts with no file: the
//! `.ncu-rep` of a small H100 program (13 launches, `ncu --set basic`), from
//! `fixtures/h100/kernels_basic.ncu-rep.xz`.

use crate::core::error::OpenError;
use crate::model::Report;
use std::path::Path;

/// The name the demo is listed under.
pub const DEMO_NAME: &str = "Demo report (H100)";

const DEMO_NCU_REP: &[u8] = include_bytes!("../../../../assets/demo/kernels_basic.ncu-rep");

/// Size of the embedded demo.
pub fn demo_size() -> u64 {
    DEMO_NCU_REP.len() as u64
}

/// Parses the embedded demo.
pub fn load_demo() -> Result<Report, OpenError> {
    Ok(crate::parse::parse_bytes(
        Path::new("demo/kernels_basic.ncu-rep"),
        DEMO_NCU_REP,
    )?)
}
