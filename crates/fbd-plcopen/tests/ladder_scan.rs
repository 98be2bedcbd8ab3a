//! A ladder program's scan allocates nothing: its rungs run as the same plan an FBD body
//! compiles to (a counting allocator, as `fbd-engine`'s `no_allocation.rs` has it).
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use fbd_engine::Value;

#[allow(dead_code)] // the other tests' helpers
mod common;

struct Counting;

thread_local! {
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: delegates to the system allocator; only counts calls on the current thread.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        COUNT.with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        COUNT.with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

#[test]
fn a_ladder_scan_allocates_nothing() {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/conveyor-ld.xml"));
    let text = std::fs::read_to_string(path).expect("the example");
    let imported = fbd_plcopen::import(path, &text).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = fbd_engine::Runtime::new(common::compile_doc(&imported.doc));
    rt.step();
    let before = COUNT.with(Cell::get);
    for k in 0..2000u32 {
        // Start, parts and a reset now and then: every rung's contacts and coils switch.
        rt.set_input("start", Value::Bool(k % 200 == 5)).expect("start");
        rt.set_input("part", Value::Bool(k % 7 == 0)).expect("part");
        rt.set_input("reset", Value::Bool(k % 500 == 250)).expect("reset");
        rt.step();
    }
    let n = COUNT.with(Cell::get) - before;
    assert_eq!(n, 0, "2,000 scans of the ladder conveyor allocated {n} times");
    assert!(rt.output("count").is_some_and(|c| c != Value::Int(0)), "the counter counted");
}
