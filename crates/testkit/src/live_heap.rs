//! A counting global allocator for memory tests and benchmarks: the live heap of the process,
//! and apart from it the live bytes that the thread marked with [`mark_ui_thread`] allocated.
//!
//! The split is what makes a leak check exact in a debug build: egui's bookkeeping lives on
//! the UI thread (in debug builds a map that describes every widget id ever made, which grows
//! with new ids and now and then doubles its table), while a report is read, and a comparison
//! built, on threads of the app's own. Each allocation carries a small header with the class
//! of the thread that made it, so freeing it on another thread counts it right.
//!
//! Include it with `#[path]` and register it:
//! `#[global_allocator] static ALLOCATOR: LiveHeap = LiveHeap;`.

#![allow(
    unsafe_code,
    reason = "a global allocator implements the unsafe `GlobalAlloc`; every unsafe block says why it holds"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, Ordering};

/// The system allocator, counting live bytes by the class of the thread that allocated them.
pub struct LiveHeap;

static LIVE: AtomicIsize = AtomicIsize::new(0);
static LIVE_UI: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

thread_local! {
    static ON_UI_THREAD: Cell<bool> = const { Cell::new(false) };
}

/// Bytes in front of each allocation: the header sits in the last of them.
const HEADER: usize = 16;

/// The layout asked of the system for `layout`, and where the caller's bytes start in it.
fn padded(layout: Layout) -> Option<(Layout, usize)> {
    let offset = layout.align().max(HEADER);
    let size = layout.size().checked_add(offset)?;
    Some((Layout::from_size_align(size, offset).ok()?, offset))
}

fn on_ui_thread() -> bool {
    ON_UI_THREAD.try_with(Cell::get).unwrap_or(false)
}

fn count(bytes: isize, ui: bool) {
    let live = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(live, Ordering::Relaxed);
    if ui {
        LIVE_UI.fetch_add(bytes, Ordering::Relaxed);
    }
}

impl LiveHeap {
    /// Puts the header in front of a fresh block of the system's, counts it and returns the
    /// caller's part.
    ///
    /// # Safety
    /// `base` is null or a block of `full` bytes from the system, `offset` as [`padded`] gave.
    unsafe fn tag(base: *mut u8, offset: usize, size: usize) -> *mut u8 {
        if base.is_null() {
            return base;
        }
        let ui = on_ui_thread();
        // SAFETY: `offset >= HEADER` bytes of the block lie before the caller's part.
        unsafe {
            let p = base.add(offset);
            p.sub(HEADER).cast::<usize>().write(usize::from(ui));
            count(size as isize, ui);
            p
        }
    }

    /// Whether the block at `ptr` (handed out by [`Self::tag`]) was allocated on the UI thread.
    ///
    /// # Safety
    /// `ptr` came from this allocator.
    unsafe fn was_ui(ptr: *mut u8) -> bool {
        // SAFETY: the header was written in front of `ptr` by `tag`.
        unsafe { ptr.sub(HEADER).cast::<usize>().read() != 0 }
    }
}

// SAFETY: every block comes from the system allocator with a layout at least as large and as
// aligned as the caller's; the caller's part starts `offset` bytes in, a multiple of its
// alignment, and is handed back with the same padding.
unsafe impl GlobalAlloc for LiveHeap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some((full, offset)) = padded(layout) else {
            return std::ptr::null_mut();
        };
        // SAFETY: `full` has a non-zero size.
        unsafe { Self::tag(System.alloc(full), offset, layout.size()) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let Some((full, offset)) = padded(layout) else {
            return std::ptr::null_mut();
        };
        // SAFETY: `full` has a non-zero size.
        unsafe { Self::tag(System.alloc_zeroed(full), offset, layout.size()) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let Some((full, offset)) = padded(layout) else {
            return;
        };
        // SAFETY: `ptr` came from `alloc` with this layout, so the block starts `offset`
        // bytes before it.
        unsafe {
            let ui = Self::was_ui(ptr);
            System.dealloc(ptr.sub(offset), full);
            count(-(layout.size() as isize), ui);
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let Some((full, offset)) = padded(layout) else {
            return std::ptr::null_mut();
        };
        let Some(new_total) = new_size
            .checked_add(offset)
            .filter(|&n| Layout::from_size_align(n, offset).is_ok())
        else {
            return std::ptr::null_mut();
        };
        // SAFETY: the block starts `offset` bytes before `ptr`; the system keeps its first
        // bytes, header included, and the block keeps the class it was allocated with.
        unsafe {
            let ui = Self::was_ui(ptr);
            let base = System.realloc(ptr.sub(offset), full, new_total);
            if base.is_null() {
                return base;
            }
            count(new_size as isize - layout.size() as isize, ui);
            base.add(offset)
        }
    }
}

/// The most bytes live at once since the last [`reset_peak`].
pub fn peak_bytes() -> isize {
    PEAK.load(Ordering::Relaxed)
}

/// Starts measuring the peak from the bytes live now.
pub fn reset_peak() {
    PEAK.store(LIVE.load(Ordering::Relaxed), Ordering::Relaxed);
}

/// Marks the calling thread as the UI thread: what it allocates from now on is counted apart.
pub fn mark_ui_thread() {
    ON_UI_THREAD.with(|c| c.set(true));
}

/// Live bytes of the whole process.
pub fn live_bytes() -> isize {
    LIVE.load(Ordering::Relaxed)
}

/// Live bytes that were allocated on any thread but the UI thread.
pub fn live_bytes_off_ui() -> isize {
    LIVE.load(Ordering::Relaxed) - LIVE_UI.load(Ordering::Relaxed)
}

/// Live bytes that were allocated on the UI thread.
pub fn live_bytes_on_ui() -> isize {
    LIVE_UI.load(Ordering::Relaxed)
}

/// The resident set of the process (what the OS counts, pages the allocator keeps included),
/// Linux only.
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}
