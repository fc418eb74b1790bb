//! Fuzz target: one `ProfileResult` message. The bytes are decoded as a result of a real report
//! (`fixtures/h100/kernels_basic.ncu-rep.xz`: its string table, processes and session), the way the
//! reader decodes each result entry of a container; they must give a result or an error, never a
//! panic, a hang or a huge allocation. Seeds: `fuzz/seed.sh` writes each result entry of the
//! fixtures into `fuzz/corpus/ncu_rep_result/`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sightline_engine::parse::ncu_rep::container::{Container, Entry};
use sightline_engine::parse::ncu_rep::result::{Context, decode_result};
use std::io::Read;
use std::sync::OnceLock;

static TEMPLATE_XZ: &[u8] = include_bytes!("../../fixtures/h100/kernels_basic.ncu-rep.xz");

fn template() -> &'static Container<'static> {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    static CONTAINER: OnceLock<Container<'static>> = OnceLock::new();
    CONTAINER.get_or_init(|| {
        let bytes = BYTES.get_or_init(|| {
            let mut out = Vec::new();
            xz2::read::XzDecoder::new(TEMPLATE_XZ)
                .read_to_end(&mut out)
                .expect("the template fixture decompresses");
            out
        });
        sightline_engine::parse::ncu_rep::container(bytes)
            .expect("the template fixture is a report")
    })
}

fn context() -> &'static Context<'static> {
    static CONTEXT: OnceLock<Context<'static>> = OnceLock::new();
    CONTEXT.get_or_init(|| Context::new(template()))
}

fuzz_target!(|data: &[u8]| {
    let ctx = context();
    let entry = Entry {
        offset: 0,
        bytes: data,
        process: Some(0),
        kind: sightline_engine::model::ResultKind::Kernel,
    };
    let _ = decode_result(ctx, &entry, 0);
});
