//! A counting allocator proves that `Runtime::step` allocates nothing.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

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

fn allocations_during(f: impl FnOnce()) -> u64 {
    let before = COUNT.with(Cell::get);
    f();
    COUNT.with(Cell::get) - before
}

#[test]
fn a_scan_allocates_nothing() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/blinker.json");
    let mut rt = fbd_engine::Runtime::new(fbd_engine::compile_file(path, &Default::default()).expect("compiles"));
    rt.set_input("start", fbd_engine::Value::Bool(true)).expect("input");
    rt.watch("fast.q", 16).expect("watch");
    rt.force("slow.q", fbd_engine::Value::Bool(true)).expect_err("macro pins are aliases");
    rt.force("fast/t_on.q", fbd_engine::Value::Bool(false)).expect("force");
    rt.write("fast/count.cv", fbd_engine::Value::Int(3)).expect("write");
    rt.step(); // first scan applies the pending write
    let n = allocations_during(|| rt.step_n(2000));
    assert_eq!(n, 0, "scans with watches and forces allocated {n} times");
    // Publishing the scan image after each scan, as the real-time task does into its pooled
    // images (the watch's newest samples too), allocates nothing either.
    let mut pool = [rt.image(), rt.image(), rt.image()];
    for (k, img) in pool.iter_mut().enumerate() {
        rt.step_n(k as u64 + 1);
        rt.image_into(img);
    }
    let n = allocations_during(|| {
        for k in 0..2000 {
            rt.step();
            rt.image_into(&mut pool[k % 3]);
        }
    });
    assert_eq!(n, 0, "publishing images allocated {n} times");

    let mut syn =
        fbd_engine::Runtime::new(fbd_engine::compile(&fbd_engine::synth::diagram(5000, 3)).expect("compiles"));
    syn.step();
    let n = allocations_during(|| syn.step_n(200));
    assert_eq!(n, 0, "synthetic scans allocated {n} times");
    // Strings: fixed 127-byte values, copied; a watch and a force of one too.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/part-label.json");
    let mut st = fbd_engine::Runtime::new(fbd_engine::compile_file(path, &Default::default()).expect("compiles"));
    st.watch("label.out", 16).expect("watch");
    st.force("lot.out", fbd_engine::Value::parse("'FORCED'", fbd_engine::Type::String).expect("a literal"))
        .expect("force");
    st.set_input("print", fbd_engine::Value::Bool(true)).expect("input");
    st.step();
    let n = allocations_during(|| {
        for k in 0..400 {
            let _ = st.set_input("print", fbd_engine::Value::Bool(k % 2 == 0));
            st.step();
        }
    });
    assert_eq!(n, 0, "scans of string blocks allocated {n} times");
    // One press before, then one every other scan from the third on: 1 + 199.
    assert_eq!(st.output("printed"), Some(fbd_engine::Value::Int(200)), "the scans ran");
    // ST loops (the executor's jumps back, the watchdog's count): a FOR, a WHILE left by an
    // EXIT, a REPEAT, with a loop variable watched.
    let text = r#"{"fbd": 6, "inputs": [{"name": "n", "type": "DINT", "default": 50}],
      "variables": [{"name": "i", "type": "DINT"}, {"name": "s", "type": "DINT"}, {"name": "w", "type": "DINT"}],
      "outputs": [{"name": "sum", "type": "DINT", "from": "s"}],
      "st": ["s := 0;", "FOR i := 1 TO n DO s := s + i; END_FOR;",
             "w := 1; WHILE TRUE DO w := w * 2; IF w > 1000 THEN EXIT; END_IF; END_WHILE;",
             "REPEAT w := w - 7; UNTIL w < 0 END_REPEAT;"]}"#;
    let mut lp = fbd_engine::Runtime::new(fbd_engine::compile(text).expect("compiles"));
    lp.watch("s", 16).expect("watch");
    lp.step();
    let n = allocations_during(|| lp.step_n(500));
    assert_eq!(n, 0, "scans with loops allocated {n} times");
    assert_eq!(lp.output("sum"), Some(fbd_engine::Value::Int(1275)), "the loops ran: 1 + .. + 50");
    // And the counter can see an allocation when there is one.
    assert!(allocations_during(|| drop(vec![1u8; 16])) > 0);
}

#[test]
fn a_scan_under_playback_allocates_nothing() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/blinker.json");
    let plan = fbd_engine::compile_file(path, &Default::default()).expect("compiles");
    let mut rt = fbd_engine::Runtime::new(plan.clone());
    rt.start_recording(10);
    rt.set_input("start", fbd_engine::Value::Bool(true)).expect("input");
    rt.step_n(600);
    let id = fbd_engine::runtime::ProgramId { name: "blinker".into(), files: Vec::new() };
    let rec = rt.stop_recording(id).expect("a recording");
    assert!(rec.hashes.len() >= 50, "hashes are checked during the playback");
    let mut play = fbd_engine::Runtime::new(plan);
    play.start_playback(rec).expect("same cycle");
    play.step_n(5); // the recorded input is applied in the first scan
    let n = allocations_during(|| play.step_n(500));
    assert_eq!(n, 0, "scans under playback allocated {n} times");
    let status = play.playback().expect("playing");
    assert!(status.divergence.is_none() && status.problem.is_none(), "the playback matches");
}

#[test]
fn a_scan_with_the_history_on_allocates_nothing_once_its_ring_is_full() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/blinker.json");
    let mut rt = fbd_engine::Runtime::new(fbd_engine::compile_file(path, &Default::default()).expect("compiles"));
    rt.force("fast/t_on.q", fbd_engine::Value::Bool(false)).expect("force");
    // A snapshot every 10 scans and a stimulus (a pulse, every 7th scan an input change too)
    // every scan, within 20 kB: the ring fills within the first few hundred scans and then
    // recycles what leaves it. Pulsing and setting inputs allocate nothing either.
    rt.enable_history(10, 20_000);
    let scans = |rt: &mut fbd_engine::Runtime, n: usize| {
        for k in 0..n {
            if k % 7 == 0 {
                rt.set_input("start", fbd_engine::Value::Bool(k % 2 == 0)).expect("input");
            }
            rt.pulse_input("start", fbd_engine::Value::Bool(k % 3 != 0)).expect("pulse");
            rt.step();
        }
    };
    scans(&mut rt, 3000);
    let before = rt.history_span().expect("on");
    assert!(before.oldest > 0, "the ring is full: {before:?}");
    let n = allocations_during(|| scans(&mut rt, 3000));
    assert_eq!(n, 0, "scans with the history on allocated {n} times");
    let after = rt.history_span().expect("on");
    assert!(after.oldest > before.oldest && after.snapshots > 10, "the history still moves with the scans: {after:?}");
    assert_eq!(rt.step_back(25).expect("within the history"), 6000 - 25);
}

#[test]
fn a_scan_of_an_st_program_allocates_nothing() {
    // The ST batch sequence called from FBD: its CASE, its calls under their conditions, its
    // variables held for the next scan are blocks like any other.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/batch-st.json");
    let mut rt = fbd_engine::Runtime::new(fbd_engine::compile_file(path, &Default::default()).expect("compiles"));
    rt.watch("batch.stage", 16).expect("watch");
    rt.set_input("start", fbd_engine::Value::Bool(true)).expect("input");
    rt.set_input("level", fbd_engine::Value::Int(90)).expect("input");
    rt.step();
    let n = allocations_during(|| {
        for k in 0..2000 {
            let _ = rt.set_input("level", fbd_engine::Value::Int(if k % 600 < 300 { 90 } else { 0 }));
            rt.step();
        }
    });
    assert_eq!(n, 0, "scans of an ST body allocated {n} times");
    assert!(rt.output("batches").and_then(|v| v.as_i64()).is_some_and(|b| b >= 1), "the sequence ran");
}
