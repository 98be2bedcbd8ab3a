//! The `fbd` tool's allocator: mimalloc (compiling a large diagram is allocation-bound; glibc's
//! malloc and free took a third of it) behind a counter of the bytes in use and their peak, so
//! `fbd bench` can say how much memory loading and compiling took. Counting the requests, not
//! the resident size, keeps the figure independent of what the allocator keeps for reuse.

// The only unsafe code of the tool: a global allocator cannot be written without it.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use mimalloc::MiMalloc;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// mimalloc, counting.
pub struct Counting;

fn grew(by: usize) {
    let now = IN_USE.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call is forwarded unchanged to mimalloc; the counters only observe sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed through.
        let p = unsafe { MiMalloc.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { MiMalloc.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { MiMalloc.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size(), Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { MiMalloc.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            IN_USE.fetch_sub(layout.size(), Relaxed);
            grew(new_size);
        }
        p
    }
}

/// Starts a measurement: the peak is reset to the bytes in use now, which are returned.
pub fn reset_peak() -> Option<u64> {
    let now = IN_USE.load(Relaxed);
    PEAK.store(now, Relaxed);
    Some(now as u64)
}

/// How far the bytes in use rose above `base` since [`reset_peak`].
pub fn peak_above(base: Option<u64>) -> Option<u64> {
    Some((PEAK.load(Relaxed) as u64).saturating_sub(base?))
}
