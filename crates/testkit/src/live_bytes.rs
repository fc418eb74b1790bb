//! Live bytes and their high-water mark: a global allocator that forwards to the system
//! allocator and counts, and names the case being parsed when a request is too large to serve.
//!
//! Register it in a test binary of its own:
//! `#[global_allocator] static ALLOCATOR: LiveBytes = LiveBytes;`.

#![allow(
    unsafe_code,
    reason = "a global allocator implements the unsafe `GlobalAlloc`; it forwards every call unchanged"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Forwards to the system allocator and counts the bytes live at any moment.
pub struct LiveBytes;

pub static LIVE: AtomicUsize = AtomicUsize::new(0);
pub static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The case being parsed. A request this large is refused by the system and aborts the process
/// before any test can report, so the allocator names the case on stderr first.
pub static CURRENT_CASE: Mutex<String> = Mutex::new(String::new());
const GIANT_ALLOCATION: usize = 1 << 30;

/// Writes the giant request and the current case to stderr without allocating.
fn name_giant_request(size: usize) {
    use std::io::Write;
    if let Ok(case) = CURRENT_CASE.try_lock() {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "allocation of {size} bytes while parsing {}", *case);
    }
}

fn grow(n: usize) {
    let now = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

fn shrink(n: usize) {
    LIVE.fetch_sub(n, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to the system allocator unchanged; only counters change.
unsafe impl GlobalAlloc for LiveBytes {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= GIANT_ALLOCATION {
            name_giant_request(layout.size());
        }
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= GIANT_ALLOCATION {
            name_giant_request(layout.size());
        }
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size >= GIANT_ALLOCATION {
            name_giant_request(new_size);
        }
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grow(new_size - layout.size());
            } else {
                shrink(layout.size() - new_size);
            }
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        shrink(layout.size());
    }
}
