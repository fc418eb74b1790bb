//! A global allocator that remembers the largest single allocation, of the process and of each
//! thread: the damaged-input tests bound it by a multiple of the input.
//!
//! Register it in a test binary of its own:
//! `#[global_allocator] static ALLOCATOR: LargestAllocation = LargestAllocation;`.

#![allow(
    unsafe_code,
    reason = "a global allocator implements the unsafe `GlobalAlloc`; it forwards every call unchanged"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Forwards to the system allocator and notes the size of each allocation.
pub struct LargestAllocation;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// The largest allocation made by this thread (for readers that stay on one thread).
    static LARGEST_HERE: Cell<usize> = const { Cell::new(0) };
}

fn note(size: usize) {
    LARGEST.fetch_max(size, Ordering::Relaxed);
    let _ = LARGEST_HERE.try_with(|l| l.set(l.get().max(size)));
}

// SAFETY: every call is forwarded to the system allocator unchanged.
unsafe impl GlobalAlloc for LargestAllocation {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Forgets the allocations so far, of the process and of the calling thread.
pub fn reset() {
    LARGEST.store(0, Ordering::Relaxed);
    LARGEST_HERE.with(|l| l.set(0));
}

/// The largest allocation of the process since the last [`reset`].
pub fn largest() -> usize {
    LARGEST.load(Ordering::Relaxed)
}

/// The largest allocation the calling thread made since the last [`reset`].
pub fn largest_here() -> usize {
    LARGEST_HERE.with(Cell::get)
}
