//! Fuzz target: any bytes given to the `.ncu-rep` reader must give a report or an error, never a
//! panic, a hang or a huge allocation. Seeds: put real reports (decompressed fixtures) in
//! `fuzz/corpus/ncu_rep_container/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The reader expects the magic; also try the data behind it so every input reaches the
    // container walk.
    let _ = sightline_engine::parse::ncu_rep::parse(data);
    if !data.starts_with(b"NVR\0") {
        let mut with_magic = b"NVR\0".to_vec();
        with_magic.extend_from_slice(data);
        let _ = sightline_engine::parse::ncu_rep::parse(&with_magic);
    }
    let _ = sightline_engine::parse::ncu_rep::modules(data);
    let _ = sightline_engine::parse::ncu_rep::source_files(data);
});
