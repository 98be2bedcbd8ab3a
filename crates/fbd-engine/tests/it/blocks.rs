//! A golden test per library block: inputs per scan and the outputs they must give, quirks
//! included (see docs/blocks.md). Cycle 10 ms, so scan k runs at t = 10·k ms.

use crate::harness::{Harness, b, i, r};
use fbd_engine::Value;

const B: &str = "BOOL";
const I: &str = "INT";
const D: &str = "TIME";

/// A TIME of `n` milliseconds.
fn ms(n: i64) -> Value {
    Value::Time(n * 1_000_000)
}
const R: &str = "REAL";

#[test]
fn and_or_xor_are_n_ary() {
    let ins = [("in1", B), ("in2", B), ("in3", B)];
    let mut and = Harness::new("AND", &ins, &[("out", B)], "");
    let mut or = Harness::new("OR", &ins, &[("out", B)], "");
    let mut xor = Harness::new("XOR", &ins, &[("out", B)], "");
    for k in 0..8 {
        let v = [k & 1 != 0, k & 2 != 0, k & 4 != 0];
        let row = [b(v[0]), b(v[1]), b(v[2])];
        let ones = v.iter().filter(|x| **x).count();
        and.expect(&[(&row, &[b(ones == 3)])]);
        or.expect(&[(&row, &[b(ones > 0)])]);
        xor.expect(&[(&row, &[b(ones % 2 == 1)])]);
    }
    // Two-input forms compile to specialised instructions; check them too.
    let mut and2 = Harness::new("AND", &ins[..2], &[("out", B)], "");
    and2.expect(&[(&[b(true), b(true)], &[b(true)]), (&[b(true), b(false)], &[b(false)])]);
    let mut or2 = Harness::new("OR", &ins[..2], &[("out", B)], "");
    or2.expect(&[(&[b(false), b(false)], &[b(false)]), (&[b(false), b(true)], &[b(true)])]);
}

#[test]
fn not_negates() {
    let mut h = Harness::new("NOT", &[("in", B)], &[("out", B)], "");
    h.expect(&[(&[b(false)], &[b(true)]), (&[b(true)], &[b(false)])]);
}

#[test]
fn comparisons_on_int_real_and_bool() {
    type Cmp = fn(f64, f64) -> bool;
    let table: [(&str, Cmp); 6] = [
        ("EQ", |a, b| a == b),
        ("NE", |a, b| a != b),
        ("GT", |a, b| a > b),
        ("GE", |a, b| a >= b),
        ("LT", |a, b| a < b),
        ("LE", |a, b| a <= b),
    ];
    for (name, f) in table {
        let mut hi = Harness::new(name, &[("in1", I), ("in2", I)], &[("out", B)], "");
        let mut hr = Harness::new(name, &[("in1", R), ("in2", R)], &[("out", B)], "");
        let mut hb = Harness::new(name, &[("in1", B), ("in2", B)], &[("out", B)], "");
        for (x, y) in [(1, 2), (2, 2), (3, 2), (-5, 7)] {
            hi.expect(&[(&[i(x), i(y)], &[b(f(x as f64, y as f64))])]);
            hr.expect(&[(&[r(x as f64 / 4.0), r(y as f64 / 4.0)], &[b(f(x as f64, y as f64))])]);
        }
        for (x, y) in [(false, false), (false, true), (true, false), (true, true)] {
            hb.expect(&[(&[b(x), b(y)], &[b(f(x as u8 as f64, y as u8 as f64))])]);
        }
    }
    // NaN is never equal, not even to itself.
    let mut eq = Harness::new("EQ", &[("in1", R), ("in2", R)], &[("out", B)], "");
    eq.expect(&[(&[r(f64::NAN), r(f64::NAN)], &[b(false)])]);
}

#[test]
fn int_arithmetic_wraps_and_flags_overflow() {
    let mut add = Harness::new("ADD", &[("in1", I), ("in2", I), ("in3", I)], &[("out", I)], "");
    add.expect(&[(&[i(1), i(2), i(3)], &[i(6)])]);
    assert_eq!(add.faults(), 0);
    add.expect(&[(&[i(i64::MAX), i(1), i(0)], &[i(i64::MIN)])]);
    assert_eq!(add.faults(), 1, "ADD overflow must be flagged");

    let mut add2 = Harness::new("ADD", &[("in1", I), ("in2", I)], &[("out", I)], "");
    add2.expect(&[(&[i(40), i(2)], &[i(42)]), (&[i(i64::MAX), i(1)], &[i(i64::MIN)])]);
    assert_eq!(add2.faults(), 1);

    let mut sub = Harness::new("SUB", &[("in1", I), ("in2", I)], &[("out", I)], "");
    sub.expect(&[(&[i(5), i(7)], &[i(-2)]), (&[i(i64::MIN), i(1)], &[i(i64::MAX)])]);
    assert_eq!(sub.faults(), 1);

    let mut mul = Harness::new("MUL", &[("in1", I), ("in2", I)], &[("out", I)], "");
    mul.expect(&[(&[i(-6), i(7)], &[i(-42)]), (&[i(i64::MAX), i(2)], &[i(-2)])]);
    assert_eq!(mul.faults(), 1);

    let mut abs = Harness::new("ABS", &[("in", I)], &[("out", I)], "");
    abs.expect(&[(&[i(-3)], &[i(3)]), (&[i(i64::MIN)], &[i(i64::MIN)])]);
    assert_eq!(abs.faults(), 1);

    let mut neg = Harness::new("NEG", &[("in", I)], &[("out", I)], "");
    neg.expect(&[(&[i(3)], &[i(-3)]), (&[i(i64::MIN)], &[i(i64::MIN)])]);
    assert_eq!(neg.faults(), 1);
}

#[test]
fn div_and_mod_by_zero_give_zero_and_a_fault() {
    let mut div = Harness::new("DIV", &[("in1", I), ("in2", I)], &[("out", I)], "");
    div.expect(&[(&[i(7), i(2)], &[i(3)]), (&[i(-7), i(2)], &[i(-3)])]);
    assert_eq!(div.faults(), 0, "DIV truncates toward zero without a fault");
    div.expect(&[(&[i(7), i(0)], &[i(0)])]);
    assert_eq!(div.faults(), 1);
    div.expect(&[(&[i(i64::MIN), i(-1)], &[i(i64::MIN)])]);
    assert_eq!(div.faults(), 2, "MIN / -1 overflows");

    let mut divr = Harness::new("DIV", &[("in1", R), ("in2", R)], &[("out", R)], "");
    divr.expect(&[(&[r(1.0), r(4.0)], &[r(0.25)]), (&[r(1.0), r(0.0)], &[r(0.0)])]);
    assert_eq!(divr.faults(), 1);

    let mut m = Harness::new("MOD", &[("in1", I), ("in2", I)], &[("out", I)], "");
    m.expect(&[(&[i(7), i(4)], &[i(3)]), (&[i(-7), i(4)], &[i(-3)]), (&[i(7), i(0)], &[i(0)])]);
    assert_eq!(m.faults(), 1);
    // The fault names the block and the scan.
    let f = m.rt.faults().recent()[0];
    assert_eq!(f.scan, 2);
    assert_eq!(m.rt.plan().instr_block(f.instr as usize).path, "x");
}

#[test]
fn real_arithmetic_flags_nan() {
    let mut sub = Harness::new("SUB", &[("in1", R), ("in2", R)], &[("out", R)], "");
    sub.expect(&[(&[r(1.5), r(0.25)], &[r(1.25)])]);
    assert_eq!(sub.faults(), 0);
    let got = sub.scan(&[r(f64::INFINITY), r(f64::INFINITY)]);
    assert!(matches!(got[0], Value::Real(x) if x.is_nan()));
    assert_eq!(sub.faults(), 1, "a NaN result is flagged");

    let mut add = Harness::new("ADD", &[("in1", R), ("in2", R), ("in3", R)], &[("out", R)], "");
    add.expect(&[(&[r(0.5), r(0.25), r(1.0)], &[r(1.75)])]);
    let mut mul = Harness::new("MUL", &[("in1", R), ("in2", R)], &[("out", R)], "");
    mul.expect(&[(&[r(1.5), r(-2.0)], &[r(-3.0)])]);
    let mut abs = Harness::new("ABS", &[("in", R)], &[("out", R)], "");
    abs.expect(&[(&[r(-2.5)], &[r(2.5)])]);
    let mut neg = Harness::new("NEG", &[("in", R)], &[("out", R)], "");
    neg.expect(&[(&[r(2.5)], &[r(-2.5)])]);
}

/// A REAL result past the largest REAL is ±infinity, and a fault at the block that overflowed
/// (it went on unsaid, and was reported only where it later made a NaN, blocks away).
#[test]
fn real_overflow_to_infinity_is_flagged_where_it_happens() {
    let big = f64::MAX / 2.0;
    let mut mul = Harness::new("MUL", &[("in1", R), ("in2", R)], &[("out", R)], "");
    mul.expect(&[(&[r(big), r(2.0)], &[r(f64::MAX)])]);
    assert_eq!(mul.faults(), 0, "the largest REAL is no overflow");
    mul.expect(&[(&[r(big), r(4.0)], &[r(f64::INFINITY)])]);
    assert_eq!(mul.faults(), 1, "MUL overflow is flagged");
    let f = mul.rt.faults().recent()[0];
    assert_eq!(f.kind, fbd_engine::exec::FaultKind::RealOverflow);
    assert_eq!(f.kind.describe(), "REAL overflow (result ±infinity)");
    let mut add = Harness::new("ADD", &[("in1", R), ("in2", R)], &[("out", R)], "");
    add.expect(&[(&[r(f64::MAX), r(f64::MAX)], &[r(f64::INFINITY)])]);
    assert_eq!(add.faults(), 1, "ADD overflow is flagged");
    let mut sub = Harness::new("SUB", &[("in1", R), ("in2", R)], &[("out", R)], "");
    sub.expect(&[(&[r(-f64::MAX), r(f64::MAX)], &[r(f64::NEG_INFINITY)])]);
    assert_eq!(sub.faults(), 1, "SUB overflow is flagged");
    let mut div = Harness::new("DIV", &[("in1", R), ("in2", R)], &[("out", R)], "");
    div.expect(&[(&[r(1e308), r(1e-10)], &[r(f64::INFINITY)])]);
    assert_eq!(div.faults(), 1, "a quotient past the largest REAL is flagged");
}

#[test]
fn min_max_limit() {
    let ins = [("in1", I), ("in2", I), ("in3", I)];
    let mut mn = Harness::new("MIN", &ins, &[("out", I)], "");
    let mut mx = Harness::new("MAX", &ins, &[("out", I)], "");
    mn.expect(&[(&[i(3), i(-1), i(2)], &[i(-1)])]);
    mx.expect(&[(&[i(3), i(-1), i(2)], &[i(3)])]);
    let mut mnr = Harness::new("MIN", &[("in1", R), ("in2", R)], &[("out", R)], "");
    mnr.expect(&[(&[r(0.5), r(0.25)], &[r(0.25)])]);
    let mut mxr = Harness::new("MAX", &[("in1", R), ("in2", R)], &[("out", R)], "");
    mxr.expect(&[(&[r(0.5), r(0.25)], &[r(0.5)])]);
    let mut lim = Harness::new("LIMIT", &[("mn", I), ("in", I), ("mx", I)], &[("out", I)], "");
    lim.expect(&[
        (&[i(0), i(5), i(10)], &[i(5)]),
        (&[i(0), i(-5), i(10)], &[i(0)]),
        (&[i(0), i(50), i(10)], &[i(10)]),
        (&[i(10), i(5), i(0)], &[i(10)]), // mn > mx: mn wins, as matiec's IN > MN ? (IN < MX ? IN : MX) : MN
        (&[i(10), i(50), i(0)], &[i(0)]),
    ]);
    let mut limr = Harness::new("LIMIT", &[("mn", R), ("in", R), ("mx", R)], &[("out", R)], "");
    limr.expect(&[(&[r(0.0), r(1.5), r(1.0)], &[r(1.0)]), (&[r(4.0), r(-9.25), r(0.5)], &[r(4.0)])]);
}

#[test]
fn conversions() {
    let mut floor = Harness::new("FLOOR", &[("in", R)], &[("out", I)], "");
    floor.expect(&[(&[r(2.7)], &[i(2)]), (&[r(-2.2)], &[i(-3)])]);
    assert_eq!(floor.faults(), 0);
    floor.expect(&[(&[r(f64::NAN)], &[i(0)])]);
    floor.expect(&[(&[r(1e300)], &[i(i64::MAX)])]);
    assert_eq!(floor.faults(), 2, "NaN and out-of-range conversions are flagged");
    let mut trunc = Harness::new("TRUNC", &[("in", R)], &[("out", I)], "");
    trunc.expect(&[(&[r(2.7)], &[i(2)]), (&[r(-2.7)], &[i(-2)])]);
    let mut frac = Harness::new("FRAC", &[("in", R)], &[("out", R)], "");
    frac.expect(&[(&[r(2.75)], &[r(0.75)]), (&[r(-2.75)], &[r(-0.75)])]);
    let mut i2r = Harness::new("LINT_TO_LREAL", &[("in", I)], &[("out", R)], "");
    i2r.expect(&[(&[i(-3)], &[r(-3.0)])]);
    let mut r2i = Harness::new("LREAL_TO_LINT", &[("in", R)], &[("out", I)], "");
    // Halves to even, as matiec's LREAL_TO_LINT.
    r2i.expect(&[(&[r(2.5)], &[i(2)]), (&[r(3.5)], &[i(4)]), (&[r(-2.5)], &[i(-2)]), (&[r(2.6)], &[i(3)])]);
}

/// A ULINT or LWORD takes a float in 2^63..2^64 whole (it gave 2^63 - 1 and an overflow
/// fault); beyond 2^64 it saturates with a fault.
#[test]
fn a_float_converts_to_the_upper_half_of_a_ulint() {
    let u = |v: u64| Value::ULInt(v);
    for (kind, ty) in [("LREAL_TO_ULINT", "ULINT"), ("LREAL_TO_LWORD", "LWORD")] {
        let mut h = Harness::new(kind, &[("in", R)], &[("out", ty)], "");
        h.expect(&[
            (&[r(1.2e19)], &[u(12_000_000_000_000_000_000)]),
            (&[r(9_223_372_036_854_775_808.0)], &[u(1 << 63)]),
        ]);
        assert_eq!(h.faults(), 0, "{kind}: in range, no fault");
        h.expect(&[(&[r(1e20)], &[u(u64::MAX)])]);
        assert_eq!(h.faults(), 1, "{kind}: beyond 2^64, saturated with a fault");
    }
}

#[test]
fn sel_mux_move() {
    let mut sel = Harness::new("SEL", &[("g", B), ("in0", I), ("in1", I)], &[("out", I)], "");
    sel.expect(&[(&[b(false), i(2), i(4)], &[i(2)]), (&[b(true), i(2), i(4)], &[i(4)])]);
    let mut selr = Harness::new("SEL", &[("g", B), ("in0", R), ("in1", R)], &[("out", R)], "");
    selr.expect(&[(&[b(true), r(0.5), r(1.5)], &[r(1.5)])]);
    let mut selb = Harness::new("SEL", &[("g", B), ("in0", B), ("in1", B)], &[("out", B)], "");
    selb.expect(&[(&[b(false), b(true), b(false)], &[b(true)])]);

    let mut mux = Harness::new("MUX", &[("k", I), ("in0", I), ("in1", I), ("in2", I)], &[("out", I)], "");
    mux.expect(&[(&[i(0), i(10), i(20), i(30)], &[i(10)]), (&[i(2), i(10), i(20), i(30)], &[i(30)])]);
    assert_eq!(mux.faults(), 0);
    mux.expect(&[(&[i(3), i(10), i(20), i(30)], &[i(0)]), (&[i(-1), i(10), i(20), i(30)], &[i(0)])]);
    assert_eq!(mux.faults(), 2, "MUX out of range gives 0 and a fault");
    let mut muxb = Harness::new("MUX", &[("k", I), ("in0", B), ("in1", B)], &[("out", B)], "");
    muxb.expect(&[(&[i(1), b(false), b(true)], &[b(true)]), (&[i(9), b(true), b(true)], &[b(false)])]);
    let mut muxr = Harness::new("MUX", &[("k", I), ("in0", R)], &[("out", R)], "");
    muxr.expect(&[(&[i(0), r(2.5)], &[r(2.5)]), (&[i(1), r(2.5)], &[r(0.0)])]);

    for (t, v) in [(B, b(true)), (I, i(-9)), (R, r(0.125))] {
        let mut mv = Harness::new("MOVE", &[("in", t)], &[("out", t)], "");
        mv.expect(&[(&[v], &[v])]);
    }
}

#[test]
fn memory_holds_and_writes_when_enabled() {
    let mut m = Harness::new("MEMORY", &[("in", I), ("en", B)], &[("q", I)], r#", "params": {"init": 7}"#);
    m.expect(&[
        (&[i(1), b(false)], &[i(7)]),
        (&[i(2), b(true)], &[i(2)]), // visible in the same scan
        (&[i(3), b(false)], &[i(2)]),
        (&[i(4), b(false)], &[i(2)]),
        (&[i(5), b(true)], &[i(5)]),
    ]);
    let mut mb = Harness::new("MEMORY", &[("in", B), ("en", B)], &[("q", B)], "");
    mb.expect(&[
        (&[b(true), b(false)], &[b(false)]),
        (&[b(true), b(true)], &[b(true)]),
        (&[b(false), b(false)], &[b(true)]),
    ]);
    let mut mr = Harness::new("MEMORY", &[("in", R), ("en", B)], &[("q", R)], "");
    mr.expect(&[(&[r(1.5), b(true)], &[r(1.5)]), (&[r(2.5), b(false)], &[r(1.5)])]);
}

#[test]
fn memory_prev_and_delay_lag_one_scan() {
    // prev and DELAY.q show, after each scan, the value they had during it: the previous
    // scan's q / in.
    let mut m = Harness::new("MEMORY", &[("in", I), ("en", B)], &[("q", I), ("prev", I)], r#", "params": {"init": 7}"#);
    m.expect(&[
        (&[i(1), b(true)], &[i(1), i(7)]),
        (&[i(2), b(true)], &[i(2), i(1)]),
        (&[i(3), b(false)], &[i(2), i(2)]),
        (&[i(4), b(false)], &[i(2), i(2)]),
    ]);
    let mut d = Harness::new("DELAY", &[("in", I)], &[("q", I)], r#", "params": {"init": -1}"#);
    d.expect(&[(&[i(10)], &[i(-1)]), (&[i(20)], &[i(10)]), (&[i(30)], &[i(20)])]);
}

#[test]
fn sr_is_set_dominant_and_rs_reset_dominant() {
    let mut sr = Harness::new("SR", &[("s1", B), ("r", B)], &[("q1", B)], "");
    sr.expect(&[
        (&[b(false), b(false)], &[b(false)]),
        (&[b(true), b(false)], &[b(true)]),
        (&[b(false), b(false)], &[b(true)]),
        (&[b(true), b(true)], &[b(true)]), // set wins
        (&[b(false), b(true)], &[b(false)]),
    ]);
    let mut rs = Harness::new("RS", &[("s", B), ("r1", B)], &[("q1", B)], "");
    rs.expect(&[
        (&[b(true), b(false)], &[b(true)]),
        (&[b(true), b(true)], &[b(false)]), // reset wins
        (&[b(false), b(false)], &[b(false)]),
        (&[b(true), b(false)], &[b(true)]),
        (&[b(false), b(false)], &[b(true)]),
    ]);
    let mut sr_init = Harness::new("SR", &[("s1", B), ("r", B)], &[("q1", B)], r#", "params": {"init": true}"#);
    sr_init.expect(&[(&[b(false), b(false)], &[b(true)])]);
}

#[test]
fn r_trig_fires_on_first_scan_when_clk_starts_true() {
    let mut t = Harness::new("R_TRIG", &[("clk", B)], &[("q", B)], "");
    t.expect(&[
        (&[b(true)], &[b(true)]),
        (&[b(true)], &[b(false)]),
        (&[b(false)], &[b(false)]),
        (&[b(true)], &[b(true)]),
    ]);
}

#[test]
fn f_trig_fires_on_first_scan_when_clk_starts_false() {
    // matiec: M starts FALSE, Q := NOT CLK AND NOT M, so a FALSE clk on the first scan gives Q.
    let mut t = Harness::new("F_TRIG", &[("clk", B)], &[("q", B)], "");
    t.expect(&[
        (&[b(false)], &[b(true)]),
        (&[b(false)], &[b(false)]),
        (&[b(true)], &[b(false)]),
        (&[b(false)], &[b(true)]),
        (&[b(false)], &[b(false)]),
    ]);
    let mut t2 = Harness::new("F_TRIG", &[("clk", B)], &[("q", B)], "");
    t2.expect(&[(&[b(true)], &[b(false)]), (&[b(false)], &[b(true)])]);
}

#[test]
fn ton_delays_the_rising_edge() {
    let mut t = Harness::new("TON", &[("in", B), ("pt", D)], &[("q", B), ("et", D)], "");
    let pt = ms(30);
    t.expect(&[
        (&[b(false), pt], &[b(false), ms(0)]), // t=0
        (&[b(true), pt], &[b(false), ms(0)]),  // t=10: edge, start
        (&[b(true), pt], &[b(false), ms(10)]), // t=20
        (&[b(true), pt], &[b(false), ms(20)]), // t=30
        (&[b(true), pt], &[b(true), ms(30)]),  // t=40: elapsed
        (&[b(true), pt], &[b(true), ms(30)]),
        (&[b(false), pt], &[b(false), ms(0)]),
        (&[b(true), pt], &[b(false), ms(0)]),
        (&[b(false), pt], &[b(false), ms(0)]), // interrupted before pt
    ]);
}

#[test]
fn tof_extends_the_falling_edge() {
    let mut t = Harness::new("TOF", &[("in", B), ("pt", D)], &[("q", B), ("et", D)], "");
    let pt = ms(30);
    t.expect(&[
        (&[b(true), pt], &[b(true), ms(0)]),
        (&[b(false), pt], &[b(true), ms(0)]), // t=10: falling edge, start
        (&[b(false), pt], &[b(true), ms(10)]),
        (&[b(false), pt], &[b(true), ms(20)]),
        (&[b(false), pt], &[b(false), ms(30)]), // t=40: elapsed
        (&[b(false), pt], &[b(false), ms(30)]),
        (&[b(true), pt], &[b(true), ms(0)]),
        (&[b(false), pt], &[b(true), ms(0)]),
        (&[b(true), pt], &[b(true), ms(0)]), // in again before pt: cancelled
    ]);
}

#[test]
fn tp_is_not_retriggerable() {
    let mut t = Harness::new("TP", &[("in", B), ("pt", D)], &[("q", B), ("et", D)], "");
    let pt = ms(30);
    t.expect(&[
        (&[b(false), pt], &[b(false), ms(0)]),
        (&[b(true), pt], &[b(true), ms(0)]),   // t=10: pulse starts
        (&[b(false), pt], &[b(true), ms(10)]), // pulse goes on while in drops
        (&[b(true), pt], &[b(true), ms(20)]),  // a new edge during the pulse is ignored
        (&[b(true), pt], &[b(false), ms(30)]), // t=40: pulse ends; et holds pt while in
        (&[b(true), pt], &[b(false), ms(30)]),
        (&[b(false), pt], &[b(false), ms(0)]),
        (&[b(true), pt], &[b(true), ms(0)]), // new pulse
    ]);
}

/// matiec's CTU (and so OpenPLC's and Beremiz's): counts rising edges up to pv, not past it.
#[test]
fn ctu_counts_edges_up_to_pv_and_resets() {
    let mut c = Harness::new("CTU", &[("cu", B), ("r", B), ("pv", I)], &[("q", B), ("cv", I)], "");
    let pv = i(2);
    c.expect(&[
        (&[b(false), b(false), pv], &[b(false), i(0)]),
        (&[b(true), b(false), pv], &[b(false), i(1)]),
        (&[b(true), b(false), pv], &[b(false), i(1)]), // level, not edge
        (&[b(false), b(false), pv], &[b(false), i(1)]),
        (&[b(true), b(false), pv], &[b(true), i(2)]),
        (&[b(false), b(false), pv], &[b(true), i(2)]),
        (&[b(true), b(false), pv], &[b(true), i(2)]), // at pv: no further
        (&[b(true), b(true), pv], &[b(false), i(0)]),
        (&[b(false), b(false), pv], &[b(false), i(0)]),
    ]);
    c.rt.write_now("x.cv", i(5)).expect("cv is a block output");
    c.expect(&[(&[b(true), b(false), pv], &[b(true), i(5)])]); // above pv: holds
    assert_eq!(c.faults(), 0);
}

/// matiec's CTD: loads pv, counts down to 0, not below.
#[test]
fn ctd_loads_and_counts_down_to_zero() {
    let mut c = Harness::new("CTD", &[("cd", B), ("ld", B), ("pv", I)], &[("q", B), ("cv", I)], "");
    let pv = i(2);
    c.expect(&[
        (&[b(false), b(true), pv], &[b(false), i(2)]),
        (&[b(true), b(false), pv], &[b(false), i(1)]),
        (&[b(false), b(false), pv], &[b(false), i(1)]),
        (&[b(true), b(false), pv], &[b(true), i(0)]),
        (&[b(false), b(false), pv], &[b(true), i(0)]),
        (&[b(true), b(false), pv], &[b(true), i(0)]), // at 0: no further
    ]);
}

#[test]
fn ctud_ignores_simultaneous_edges() {
    let ins = [("cu", B), ("cd", B), ("r", B), ("ld", B), ("pv", I)];
    let mut c = Harness::new("CTUD", &ins, &[("qu", B), ("qd", B), ("cv", I)], "");
    let (t, f, pv) = (b(true), b(false), i(2));
    c.expect(&[
        (&[f, f, f, f, pv], &[f, t, i(0)]),
        (&[t, f, f, f, pv], &[f, f, i(1)]),
        (&[f, f, f, f, pv], &[f, f, i(1)]),
        (&[t, t, f, f, pv], &[f, f, i(1)]), // both edges at once: ignored
        (&[f, f, f, f, pv], &[f, f, i(1)]),
        (&[t, f, f, f, pv], &[t, f, i(2)]),
        (&[f, t, f, f, pv], &[f, f, i(1)]),
        (&[f, f, f, f, pv], &[f, f, i(1)]),
        (&[t, f, f, f, pv], &[t, f, i(2)]),
        (&[f, f, f, f, pv], &[t, f, i(2)]),
        (&[t, f, f, f, pv], &[t, f, i(2)]), // at pv: not up
        (&[f, f, f, t, pv], &[t, f, i(2)]), // load
        (&[f, f, t, t, pv], &[f, t, i(0)]), // reset beats load
        (&[f, t, f, f, pv], &[f, t, i(0)]), // at 0: not down
    ]);
}

#[test]
fn now_follows_the_simulated_clock() {
    let mut n = Harness::new("NOW", &[], &[("ms", I), ("s", R)], "");
    n.expect(&[(&[], &[i(0), r(0.0)]), (&[], &[i(10), r(0.01)]), (&[], &[i(20), r(0.02)])]);
}

#[test]
fn saw_ramps_over_its_period() {
    let mut s = Harness::new("SAW", &[("period", I), ("lo", R), ("hi", R)], &[("out", R)], "");
    let row = [i(40), r(1.0), r(3.0)];
    // t = 0, 10, 20, 30, 40 ms with a 40 ms period from 1 to 3.
    s.expect(&[(&row, &[r(1.0)]), (&row, &[r(1.5)]), (&row, &[r(2.0)]), (&row, &[r(2.5)]), (&row, &[r(1.0)])]);
    assert_eq!(s.faults(), 0);
    s.expect(&[(&[i(0), r(1.0), r(3.0)], &[r(1.0)])]);
    assert_eq!(s.faults(), 1, "period <= 0 is flagged");
}

#[test]
fn random_is_in_range_seeded_and_holds_when_disabled() {
    let ins = [("en", B), ("lo", I), ("hi", I)];
    let outs = [("x", R), ("n", I)];
    let mut h = Harness::new("RANDOM", &ins, &outs, "");
    let mut seen = [false; 6];
    let mut xs = Vec::new();
    for _ in 0..600 {
        let o = h.scan(&[b(true), i(1), i(6)]);
        let (Value::Real(x), Value::Int(n)) = (o[0], o[1]) else { panic!("types") };
        assert!((0.0..1.0).contains(&x), "x = {x}");
        assert!((1..=6).contains(&n), "n = {n}");
        seen[(n - 1) as usize] = true;
        xs.push(x);
    }
    assert!(seen.iter().all(|s| *s), "every value of 1..=6 appears in 600 draws");
    let held = h.scan(&[b(false), i(1), i(6)]);
    assert_eq!(held, h.scan(&[b(false), i(1), i(6)]), "en FALSE holds the outputs");
    // Same seed, same stream.
    let mut again = Harness::new("RANDOM", &ins, &outs, "");
    let first: Vec<f64> = (0..600)
        .map(|_| match again.scan(&[b(true), i(1), i(6)])[0] {
            Value::Real(x) => x,
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(first, xs);
    // hi < lo gives lo and a fault.
    assert_eq!(h.scan(&[b(true), i(5), i(1)])[1], i(5));
    assert_eq!(h.faults(), 1);
}

#[test]
fn selector_is_one_of_n() {
    let mut s = Harness::new("SELECTOR", &[("sel", I)], &[("q1", B), ("q2", B), ("q3", B)], r#", "params": {"n": 3}"#);
    let (t, f) = (b(true), b(false));
    s.expect(&[
        (&[i(0)], &[f, f, f]),
        (&[i(1)], &[t, f, f]),
        (&[i(3)], &[f, f, t]),
        (&[i(4)], &[f, f, f]),
        (&[i(-1)], &[f, f, f]),
    ]);
}

#[test]
fn a_time_scaled_by_a_number_as_matiec_computes_it() {
    // matiec's __time_mul / __time_div (iec_std_lib.h), compiled and called with these
    // operands: T#1s500ms * 3 = 4.5 s, T#-1s500ms / 4 = -375 ms, T#1s / 3.0 = 333.333333 ms,
    // T#2s * 0.25 = 500 ms.
    let t = |ms: i64| Value::Time(ms * 1_000_000);
    let mut mul = Harness::new("MULTIME", &[("in1", "TIME"), ("in2", "INT")], &[("out", "TIME")], "");
    mul.expect(&[(&[t(1500), i(3)], &[t(4500)])]);
    let mut div = Harness::new("DIVTIME", &[("in1", "TIME"), ("in2", "INT")], &[("out", "TIME")], "");
    div.expect(&[(&[t(-1500), i(4)], &[t(-375)])]);
    let mut divr = Harness::new("DIVTIME", &[("in1", "TIME"), ("in2", "REAL")], &[("out", "TIME")], "");
    divr.expect(&[(&[t(1000), r(3.0)], &[Value::Time(333_333_333)])]);
    let mut mulr = Harness::new("MULTIME", &[("in1", "TIME"), ("in2", "LREAL")], &[("out", "TIME")], "");
    mulr.expect(&[(&[t(2000), r(0.25)], &[t(500)])]);
    // Division by zero: T#0s and a fault (C leaves it undefined); likewise a NaN factor; and
    // a nanoseconds' product beyond a C int (T#500ms * 5).
    div.expect(&[(&[t(100), i(0)], &[t(0)])]);
    assert_eq!(div.faults(), 1);
    mulr.expect(&[(&[t(100), r(f64::NAN)], &[t(0)])]);
    assert_eq!(mulr.faults(), 1);
    mul.scan(&[t(500), i(5)]);
    assert_eq!(mul.faults(), 1);
}

#[test]
fn every_library_block_has_a_golden_test() {
    // Keeps this file honest when the library grows.
    let src = include_str!("blocks.rs");
    for d in fbd_engine::library::LIBRARY {
        let quoted = format!("\"{}\"", d.name);
        assert!(src.contains(&quoted), "no golden test mentions {}", d.name);
    }
}

#[test]
fn real_min_max_fold_as_matiec_a_nan_first_stays_a_nan_later_is_passed_over() {
    // matiec: op1 := (op1 > tmp) ? tmp : op1 (MIN), op1 < tmp (MAX). MIN(NaN, NaN) was once +∞
    // with no fault (found by the differential test): a NaN result is reported.
    let mut min = Harness::new("MIN", &[("in1", R), ("in2", R)], &[("out", R)], "");
    let mut max = Harness::new("MAX", &[("in1", R), ("in2", R)], &[("out", R)], "");
    min.expect(&[(&[r(3.0), r(f64::NAN)], &[r(3.0)])]);
    max.expect(&[(&[r(2.0), r(f64::NAN)], &[r(2.0)])]);
    assert_eq!((min.faults(), max.faults()), (0, 0));
    let nan = max.scan(&[r(f64::NAN), r(2.0)]);
    assert!(matches!(nan[0], Value::Real(x) if x.is_nan()), "MAX(NaN, 2) gave {nan:?}");
    assert_eq!(max.faults(), 1);
    let mut max = Harness::new("MAX", &[("in1", R), ("in2", R)], &[("out", R)], "");
    let nan = min.scan(&[r(f64::NAN), r(f64::NAN)]);
    assert!(matches!(nan[0], Value::Real(x) if x.is_nan()), "MIN(NaN, NaN) gave {nan:?}");
    let nan = max.scan(&[r(f64::NAN), r(f64::NAN)]);
    assert!(matches!(nan[0], Value::Real(x) if x.is_nan()), "MAX(NaN, NaN) gave {nan:?}");
    assert_eq!((min.faults(), max.faults()), (1, 1));
}

/// A negative preset, as matiec's timers take it: elapsed at once, et := pt; and reported.
#[test]
fn a_negative_timer_preset_runs_as_matiec_and_is_a_fault() {
    let mut ton = Harness::new("TON", &[("in", B), ("pt", D)], &[("q", B), ("et", D)], "");
    ton.expect(&[
        (&[b(true), ms(-50)], &[b(false), ms(0)]),
        (&[b(true), ms(-50)], &[b(true), ms(-50)]),
        (&[b(true), ms(-50)], &[b(true), ms(-50)]),
    ]);
    assert_eq!(ton.faults(), 3, "one fault per scan with a negative preset");
    let mut tp = Harness::new("TP", &[("in", B), ("pt", D)], &[("q", B), ("et", D)], "");
    tp.expect(&[
        (&[b(true), ms(-50)], &[b(true), ms(0)]),
        (&[b(true), ms(-50)], &[b(false), ms(-50)]),
        (&[b(false), ms(-50)], &[b(false), ms(0)]),
    ]);
    let mut tof = Harness::new("TOF", &[("in", B), ("pt", D)], &[("q", B), ("et", D)], "");
    tof.expect(&[
        (&[b(true), ms(-1)], &[b(true), ms(0)]),
        (&[b(false), ms(-1)], &[b(true), ms(0)]),
        (&[b(false), ms(-1)], &[b(false), ms(-1)]),
    ]);
    assert_eq!(tof.faults(), 3);
}

/// The numeric functions on LREAL as C's libm computes them (what matiec's generated C calls),
/// with NaN and infinite results reported.
#[test]
fn numeric_functions() {
    let cases: [(&str, f64, f64); 10] = [
        ("SQRT", 2.0, 2f64.sqrt()),
        ("LN", 10.0, 10f64.ln()),
        ("LOG", 1000.0, 3.0),
        ("EXP", 1.0, std::f64::consts::E),
        ("SIN", 1.0, 1f64.sin()),
        ("COS", 1.0, 1f64.cos()),
        ("TAN", 1.0, 1f64.tan()),
        ("ASIN", 0.5, 0.5f64.asin()),
        ("ACOS", 0.5, 0.5f64.acos()),
        ("ATAN", 1.0, 1f64.atan()),
    ];
    for (ty, x, want) in cases {
        let mut h = Harness::new(ty, &[("in", R)], &[("out", R)], "");
        h.expect(&[(&[r(x)], &[r(want)])]);
        assert_eq!(h.faults(), 0, "{ty}");
    }
    let mut p = Harness::new("EXPT", &[("in1", R), ("in2", R)], &[("out", R)], "");
    p.expect(&[(&[r(2.0), r(10.0)], &[r(1024.0)])]);
    let mut s = Harness::new("SQRT", &[("in", R)], &[("out", R)], "");
    s.rt.set_input("in", fbd_engine::Value::Real(-1.0)).expect("in");
    s.rt.step();
    assert!(matches!(s.rt.output("out"), Some(fbd_engine::Value::Real(v)) if v.is_nan()));
    assert_eq!(s.faults(), 1, "SQRT(-1) is NaN, reported");
}

/// SHL, SHR, ROL, ROR on the bit strings, as matiec computes them for counts below 32.
#[test]
fn shifts_and_rotations_of_bit_strings() {
    // Each of "SHL", "SHR", "ROL", "ROR" on BYTE, WORD, DWORD.
    let cases = [
        ("BYTE", "SHL", 0b1000_0001, 1, 0b0000_0010),
        ("BYTE", "SHR", 0b1000_0001, 7, 1),
        ("BYTE", "SHL", 0xFF, 8, 0),
        ("BYTE", "ROL", 0b1000_0001, 1, 0b0000_0011),
        ("BYTE", "ROR", 0b1000_0001, 1, 0b1100_0000),
        ("WORD", "ROL", 0x8001, 17, 0x0003),
        ("DWORD", "ROR", 1, 1, 0x8000_0000),
        ("DWORD", "SHL", 1, 31, 0x8000_0000),
    ];
    for (ty, op, v, n, want) in cases {
        let text = format!(
            r#"{{"fbd": 3, "inputs": [{{"name": "a", "type": "{ty}", "default": {v}}}],
                "outputs": [{{"name": "y", "type": "{ty}", "from": "s.out"}}],
                "blocks": [{{"id": "s", "type": "{op}", "inputs": {{"in": "a", "n": {n}}}}}]}}"#
        );
        let mut rt = fbd_engine::Runtime::new(crate::harness::plan(&text));
        rt.step();
        assert_eq!(rt.output("y"), Some(fbd_engine::Value::Int(want)), "{op}({ty}#{v}, {n})");
    }
}

/// A STRING value.
fn st(t: &str) -> Value {
    Value::Str(fbd_engine::IecString::new(t.as_bytes()))
}
const S: &str = "STRING";
const L: &str = "LINT";

#[test]
fn string_functions_compute_what_matiec_computes() {
    let mut len = Harness::new("LEN", &[("in", S)], &[("out", "INT")], "");
    len.expect(&[(&[st("")], &[i(0)]), (&[st("hello")], &[i(5)])]);
    let mut left = Harness::new("LEFT", &[("in", S), ("l", L)], &[("out", S)], "");
    left.expect(&[(&[st("hello"), i(2)], &[st("he")]), (&[st("hello"), i(9)], &[st("hello")])]);
    let faults = left.faults();
    left.expect(&[(&[st("hello"), i(-1)], &[st("")])]);
    assert_eq!(left.faults(), faults + 1, "a negative length is a fault (matiec: ENO FALSE)");
    let mut right = Harness::new("RIGHT", &[("in", S), ("l", L)], &[("out", S)], "");
    right.expect(&[(&[st("hello"), i(3)], &[st("llo")])]);
    let mut mid = Harness::new("MID", &[("in", S), ("l", L), ("p", L)], &[("out", S)], "");
    mid.expect(&[(&[st("hello"), i(2), i(2)], &[st("el")]), (&[st("hello"), i(2), i(9)], &[st("")])]);
    let mut concat = Harness::new("CONCAT", &[("in1", S), ("in2", S), ("in3", S)], &[("out", S)], "");
    concat.expect(&[(&[st("a"), st("bc"), st("")], &[st("abc")])]);
    let long = "x".repeat(100);
    concat.expect(&[(&[st(&long), st(&long), st("y")], &[st(&"x".repeat(126))])]);
    let mut insert = Harness::new("INSERT", &[("in1", S), ("in2", S), ("p", L)], &[("out", S)], "");
    insert.expect(&[(&[st("abc"), st("XY"), i(1)], &[st("aXYbc")])]);
    let mut delete = Harness::new("DELETE", &[("in", S), ("l", L), ("p", L)], &[("out", S)], "");
    delete.expect(&[(&[st("abcde"), i(2), i(2)], &[st("ade")])]);
    let mut replace = Harness::new("REPLACE", &[("in1", S), ("in2", S), ("l", L), ("p", L)], &[("out", S)], "");
    replace.expect(&[(&[st("abcde"), st("XYZ"), i(1), i(2)], &[st("aXcde")])]);
    let mut find = Harness::new("FIND", &[("in1", S), ("in2", S)], &[("out", "INT")], "");
    find.expect(&[(&[st("hello"), st("ll")], &[i(3)]), (&[st("aab"), st("ab")], &[i(0)])]);
}

/// INSERT, DELETE and REPLACE take positions and lengths as matiec's byte-wide length type takes
/// them, modulo 256 (checked against matiec: 251 position × length pairs, 1,300 values, the
/// same), and say so with a fault above 255; 128..=255 are plain positions past the end.
#[test]
fn string_positions_wrap_as_in_matiec_and_the_wrap_is_a_fault() {
    let mut insert = Harness::new("INSERT", &[("in1", S), ("in2", S), ("p", L)], &[("out", S)], "");
    let f = insert.faults();
    insert.expect(&[(&[st("abc"), st("XY"), i(200)], &[st("abcXY")])]);
    assert_eq!(insert.faults(), f, "200 is past the end: appended, no fault");
    insert.expect(&[(&[st("abc"), st("XY"), i(257)], &[st("aXYbc")])]);
    assert_eq!(insert.faults(), f + 1, "257 is 1 in matiec, and a fault here");
    let mut delete = Harness::new("DELETE", &[("in", S), ("l", L), ("p", L)], &[("out", S)], "");
    let f = delete.faults();
    delete.expect(&[(&[st("abcde"), i(200), i(2)], &[st("a")])]);
    assert_eq!(delete.faults(), f);
    delete.expect(&[(&[st("abcde"), i(258), i(2)], &[st("ade")])]);
    assert_eq!(delete.faults(), f + 1, "a length of 258 deletes 2, with a fault");
    let mut replace = Harness::new("REPLACE", &[("in1", S), ("in2", S), ("l", L), ("p", L)], &[("out", S)], "");
    // The rest resumes at (p - 1 + l) mod 256: 99 + 255 = 354 → 98, as matiec's byte adds it.
    let long = "0123456789".repeat(12);
    let f = replace.faults();
    replace.expect(&[(&[st(&long), st("XYZ"), i(255), i(100)], &[st(&format!("{}XYZ{}", &long[..99], &long[98..]))])]);
    assert_eq!(replace.faults(), f);
    // With l = 200 the rest (from 43) would overflow matiec's 126 characters: cut, a fault.
    replace
        .expect(&[(&[st(&long), st("XYZ"), i(200), i(100)], &[st(&format!("{}XYZ{}", &long[..99], &long[43..67]))])]);
    assert_eq!(replace.faults(), f + 1);
}

#[test]
fn strings_compare_select_and_convert() {
    let mut lt = Harness::new("LT", &[("in1", S), ("in2", S)], &[("out", B)], "");
    lt.expect(&[
        (&[st("ab"), st("b")], &[b(true)]),
        (&[st("b"), st("ab")], &[b(false)]),
        (&[st("a"), st("ab")], &[b(true)]),
    ]);
    let mut max = Harness::new("MAX", &[("in1", S), ("in2", S)], &[("out", S)], "");
    max.expect(&[(&[st("pear"), st("apple")], &[st("pear")])]);
    let mut sel = Harness::new("SEL", &[("g", B), ("in0", S), ("in1", S)], &[("out", S)], "");
    sel.expect(&[(&[b(true), st("no"), st("yes")], &[st("yes")])]);
    let mut mem = Harness::new("MEMORY", &[("in", S), ("en", B)], &[("q", S), ("prev", S)], "");
    mem.expect(&[(&[st("a"), b(true)], &[st("a"), st("")]), (&[st("b"), b(false)], &[st("a"), st("a")])]);
    let mut to = Harness::new("DINT_TO_STRING", &[("in", "DINT")], &[("out", S)], "");
    to.expect(&[(&[i(-42)], &[st("-42")])]);
    let mut from = Harness::new("STRING_TO_INT", &[("in", S)], &[("out", "INT")], "");
    from.expect(&[(&[st("40000")], &[i(-25536)]), (&[st("16#ff")], &[i(255)])]);
    // %.10g, as matiec writes it (the harness's REAL reads as an LREAL: a format-1 file).
    let mut real = Harness::new("LREAL_TO_STRING", &[("in", "REAL")], &[("out", S)], "");
    real.expect(&[(&[r(0.1)], &[st("0.1")]), (&[r(1e20)], &[st("1e+20")]), (&[r(2.0 / 3.0)], &[st("0.6666666667")])]);
}
