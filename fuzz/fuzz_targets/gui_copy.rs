//! Fuzz target: text copied from the Nsight Compute GUI. Any bytes must give a report or an error,
//! never a panic, a hang or a huge allocation. The bytes go through the terminal clean-up and
//! straight to this form's reader (so the fuzzer need not pass form detection first), then through
//! the detecting entry point. Seeds: `fuzz/seed.sh` copies the matching fixtures into
//! `fuzz/corpus/gui_copy/`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sightline_engine::parse::{self, text_clean};

fuzz_target!(|data: &[u8]| {
    let text = text_clean::clean(data);
    let _ = parse::gui_copy::parse(&text);
    let _ = parse::parse_any(data);
});
