//! The order a PLC runs an imported body in, without `executionOrderId`s: the statement
//! sequence Beremiz's generator writes (variables written in document order, each pulling the
//! blocks that feed it; then the blocks not called yet), and what each read sees in it. Each
//! expected trace is the one matiec runs from Beremiz's ST of the same body
//! (tools/plcopen/beremiz-check.py).

use fbd_engine::Value;

#[allow(dead_code)] // `data` and `exported` are for the other tests
mod common;
use common::{block, project, trace, var_in, var_out};

/// A variable's initial value holds until its write, even when the write is a constant: the
/// "first cycle" flag of OpenPLC's traffic light.
#[test]
fn an_initial_value_is_read_until_the_write_later_in_the_body() {
    let vars = r#"<outputVars><variable name="seen"><type><BOOL/></type></variable></outputVars>
        <localVars><variable name="first"><type><BOOL/></type><initialValue><simpleValue value="TRUE"/></initialValue></variable></localVars>"#;
    let body = [
        var_in(1, 0, "first"),
        var_out(2, 0, 1, None, "seen"),
        var_in(3, 100, "FALSE"),
        var_out(4, 100, 3, None, "first"),
    ]
    .concat();
    let t = trace(&project("p", vars, &body), &["seen"], 3);
    let b = Value::Bool;
    assert_eq!(t, vec![vec![b(true)], vec![b(false)], vec![b(false)]]);
}

/// Document order decides whether a read sees this scan's write or the previous scan's.
#[test]
fn document_order_decides_which_scan_a_variable_read_sees() {
    let vars = r#"<outputVars><variable name="cnt"><type><LINT/></type></variable><variable name="copy"><type><LINT/></type></variable></outputVars>"#;
    let add = block(10, "ADD", None, 200, &[("IN1", 11, None), ("IN2", 12, None)], &["OUT"]);
    let parts = [var_in(11, 200, "cnt"), var_in(12, 240, "1"), add, var_in(13, 0, "cnt")];
    let copy_first =
        [parts.concat(), var_out(14, 0, 13, None, "copy"), var_out(15, 200, 10, Some("OUT"), "cnt")].concat();
    let count_first =
        [parts.concat(), var_out(15, 200, 10, Some("OUT"), "cnt"), var_out(14, 0, 13, None, "copy")].concat();
    let i = Value::Int;
    // copy := cnt; cnt := ADD(cnt, 1): the copy is one behind.
    assert_eq!(
        trace(&project("p", vars, &copy_first), &["cnt", "copy"], 3),
        vec![vec![i(1), i(0)], vec![i(2), i(1)], vec![i(3), i(2)]]
    );
    // cnt := ADD(cnt, 1); copy := cnt: the copy is this scan's.
    assert_eq!(
        trace(&project("p", vars, &count_first), &["cnt", "copy"], 3),
        vec![vec![i(1), i(1)], vec![i(2), i(2)], vec![i(3), i(3)]]
    );
}

/// A loop between two function block instances, with no feedback variable: legal IEC; the
/// instance called first reads the other's outputs of its last call.
#[test]
fn a_direct_loop_between_function_block_instances_reads_the_last_call() {
    let vars = r#"<outputVars><variable name="qa"><type><BOOL/></type></variable><variable name="qb"><type><BOOL/></type></variable></outputVars>
        <localVars><variable name="a"><type><derived name="SR"/></type></variable><variable name="b"><type><derived name="SR"/></type></variable></localVars>"#;
    let body = [
        var_in(1, 0, "TRUE"),
        var_in(2, 100, "FALSE"),
        block(3, "SR", Some("a"), 0, &[("S1", 1, None), ("R", 4, Some("Q1"))], &["Q1"]),
        block(4, "SR", Some("b"), 100, &[("S1", 3, Some("Q1")), ("R", 2, None)], &["Q1"]),
        var_out(5, 0, 3, Some("Q1"), "qa"),
        var_out(6, 100, 4, Some("Q1"), "qb"),
    ]
    .concat();
    // qa := a.Q1 pulls a, whose R pulls b, which reads a.Q1 of a's last call (FALSE at first).
    let b = Value::Bool;
    assert_eq!(
        trace(&project("p", vars, &body), &["qa", "qb"], 3),
        vec![vec![b(true), b(false)], vec![b(true), b(true)], vec![b(true), b(true)]]
    );
}

/// The same loop drawn with a connector and a continuation reads the same values: a
/// continuation read before its source's call is the last call's value as a wire would be
/// (imported as a feedback wire, not as a continuation of this scan's value).
#[test]
fn a_continuation_is_read_in_the_body_s_order_as_the_wire_it_stands_for() {
    let vars = r#"<outputVars><variable name="qa"><type><BOOL/></type></variable><variable name="qb"><type><BOOL/></type></variable></outputVars>
        <localVars><variable name="a"><type><derived name="SR"/></type></variable><variable name="b"><type><derived name="SR"/></type></variable></localVars>"#;
    let continuation = |id: u32, name: &str| {
        format!(
            r#"<continuation localId="{id}" name="{name}"><position x="0" y="0"/><connectionPointOut><relPosition x="0" y="0"/></connectionPointOut></continuation>"#
        )
    };
    let connector = |id: u32, name: &str, from: u32, param: &str| {
        format!(
            r#"<connector localId="{id}" name="{name}"><position x="0" y="0"/><connectionPointIn><connection refLocalId="{from}" formalParameter="{param}"><position x="0" y="0"/></connection></connectionPointIn></connector>"#
        )
    };
    let body = [
        var_in(1, 0, "TRUE"),
        var_in(2, 100, "FALSE"),
        block(3, "SR", Some("a"), 0, &[("S1", 1, None), ("R", 4, Some("Q1"))], &["Q1"]),
        block(4, "SR", Some("b"), 100, &[("S1", 7, None), ("R", 2, None)], &["Q1"]),
        var_out(5, 0, 3, Some("Q1"), "qa"),
        var_out(6, 100, 4, Some("Q1"), "qb"),
        continuation(7, "a_q"),
        connector(8, "a_q", 3, "Q1"),
    ]
    .concat();
    let b = Value::Bool;
    assert_eq!(
        trace(&project("p", vars, &body), &["qa", "qb"], 3),
        vec![vec![b(true), b(false)], vec![b(true), b(true)], vec![b(true), b(true)]],
        "as the loop wired directly (the test above)"
    );
}
