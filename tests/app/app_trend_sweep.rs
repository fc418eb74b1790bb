//! The Trend page's "By size" view in the window: the sweep's twelve reports opened from their
//! size folders (`N=SIZE/vV.ncu-rep`), the toggle "Runs | By size", the table of each version's
//! figures at each size (NVIDIA's values, spelled as every output spells them), the figure
//! switched to achieved FLOP/s, and back to the runs; an image snapshot of each figure.

use crate::common;

use common::app_harness::{WAIT_TIMEOUT, has_label, open_in_order, options, step_until};
use common::sweep_fixture::{SIZES, VERSIONS, truth_figures};
use common::temp_dir;
use egui_kittest::kittest::Queryable;
use sightline_engine::model::format::{measured_text, value_text};
use sightline_ui::{PageId, SightlineApp};

#[test]
fn the_trend_page_shows_the_open_reports_by_size() {
    let dir = temp_dir("trend-by-size");
    let mut files = Vec::new();
    for size in SIZES {
        for version in VERSIONS {
            let folder = dir.join(format!("N={size}"));
            std::fs::create_dir_all(&folder).unwrap();
            let path = folder.join(format!("{version}.ncu-rep"));
            let rel = format!("sweep/N={size}/{version}.ncu-rep.xz");
            std::fs::write(&path, common::fixture_bytes(&rel)).unwrap();
            files.push(path);
        }
    }
    let app = SightlineApp::new(None, options(Vec::new(), false));
    let mut h = open_in_order(app, &files, true);
    h.state_mut().settings_mut().page = PageId::Trend;
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| has_label(h, "By size")),
        "no toggle on the Trend page"
    );
    h.get_by_label("By size").click();
    let heading = "Sweep over N: 4 sizes (256, 512, 1024, 2048), 3 versions (v1, v3, v5)";
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| has_label(h, heading)),
        "the sweep never showed"
    );
    assert!(
        has_label(&h, "gemm_step \u{2192} gemm_tiled_2d against N"),
        "one kernel, renamed"
    );
    for head in ["N=256", "N=512", "N=1024", "N=2048"] {
        assert!(has_label(&h, head), "{head}");
    }
    let cells = |duration: bool| -> Vec<String> {
        VERSIONS
            .iter()
            .flat_map(|v| SIZES.map(|n| truth_figures(v, n)))
            .map(|(mean, rate)| {
                if duration {
                    measured_text(mean, "ns")
                } else {
                    value_text(rate, "FLOP/s")
                }
            })
            .collect()
    };
    for cell in cells(true) {
        assert!(has_label(&h, &cell), "duration {cell}");
    }
    h.run();
    h.snapshot("trend_by_size_duration");
    h.get_by_label("Achieved FLOP/s").click();
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| cells(false)
            .iter()
            .all(|c| has_label(h, c))),
        "the FLOP/s never showed"
    );
    h.run();
    h.snapshot("trend_by_size_flops");
    h.get_by_label("Runs").click();
    assert!(
        step_until(&mut h, WAIT_TIMEOUT, |h| !has_label(h, heading)
            && has_label(h, "gemm_step \u{2192} gemm_tiled_2d over the runs")),
        "the runs never came back"
    );
    let _ = std::fs::remove_dir_all(dir);
}
