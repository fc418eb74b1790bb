//! Benchmark placeholder, replaced by the real benchmark.
fn main() {}
