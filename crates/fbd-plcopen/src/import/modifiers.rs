//! What an FBD body may say that the import does not carry over, refused with its place, since
//! importing the body without it would compute another value than the PLC does: the modifiers
//! PLCopen puts on a variable box or a block's pin (`negated`, `edge`, `storage`; `negatedIn`,
//! ... on an in-out variable) other than those honoured (a block's negated pins, an edge on a
//! block's input: an R_TRIG or F_TRIG in front, a negated output variable: a NOT before it),
//! the control-flow elements (jump, label, return, action blocks), and in-out parameters
//! (VAR_IN_OUT, which the call writes back).

use roxmltree::Node;

use super::ctx::{Ctx, child, children};

/// The modifier `attr` of `n`, when it does something (`negated="true"`, an `edge` or a
/// `storage` other than `none`).
fn active<'a>(n: Node<'a, '_>, attr: &str) -> Option<&'a str> {
    let v = n.attribute(attr)?;
    let on = if attr.starts_with("negated") { v == "true" || v == "1" } else { v != "none" };
    on.then_some(v)
}

/// What a modifier is, for a message.
fn what(attr: &str) -> &'static str {
    match attr.trim_end_matches("In").trim_end_matches("Out") {
        "negated" => "a negation",
        "edge" => "an edge",
        _ => "storage (set/reset)",
    }
}

/// Reports every modifier of `elems` (one FBD body's elements) the import does not honour.
pub(super) fn refuse_unsupported(cx: &mut Ctx, elems: &[Node]) {
    for e in elems {
        let expr = child(*e, "expression").and_then(|x| x.text()).unwrap_or("").trim();
        match e.tag_name().name() {
            "inVariable" => {
                for attr in ["negated", "edge", "storage"] {
                    if let Some(v) = active(*e, attr) {
                        cx.err(
                            *e,
                            format!(
                                "`{expr}`: {} on a variable read ({attr}=\"{v}\") is not supported; put it on the block input the variable feeds",
                                what(attr)
                            ),
                        );
                    }
                }
            }
            "outVariable" => {
                if let Some(v) = active(*e, "edge") {
                    cx.err(
                        *e,
                        format!(
                            "`{expr}`: an edge on a variable write (edge=\"{v}\") is not supported; use an R_TRIG or F_TRIG block before it"
                        ),
                    );
                }
            }
            "inOutVariable" => {
                for attr in ["negatedIn", "edgeIn", "storageIn", "negatedOut", "edgeOut", "storageOut"] {
                    if let Some(v) = active(*e, attr) {
                        cx.err(
                            *e,
                            format!(
                                "`{expr}`: {} on an in-out variable ({attr}=\"{v}\") is not supported; put it on the block pin it connects",
                                what(attr)
                            ),
                        );
                    }
                }
            }
            "block" => {
                let ty = e.attribute("typeName").unwrap_or("");
                let pins = |list: &'static str| child(*e, list).into_iter().flat_map(|l| children(l, "variable"));
                // An in-out parameter is written back by the call: dropped, the variable kept
                // its value.
                for v in pins("inOutVariables")
                    .filter(|v| child(*v, "connectionPointIn").is_some_and(|c| child(c, "connection").is_some()))
                {
                    let formal = v.attribute("formalParameter").unwrap_or("");
                    cx.err(
                        v,
                        format!("block `{ty}`: in-out parameter `{formal}` (VAR_IN_OUT) is not supported; pass it in as an input and write the result back from an output"),
                    );
                }
                for v in pins("inputVariables") {
                    if let Some(s) = active(v, "storage") {
                        let formal = v.attribute("formalParameter").unwrap_or("");
                        cx.err(
                            v,
                            format!("block `{ty}`: storage on input `{formal}` (storage=\"{s}\") is not supported; use an SR or RS block"),
                        );
                    }
                }
                for v in pins("outputVariables") {
                    let formal = v.attribute("formalParameter").unwrap_or("");
                    for attr in ["edge", "storage"] {
                        if let Some(s) = active(v, attr) {
                            cx.err(
                                v,
                                format!(
                                    "block `{ty}`: {} on output `{formal}` ({attr}=\"{s}\") is not supported; put it on the input the output feeds",
                                    what(attr)
                                ),
                            );
                        }
                    }
                }
            }
            // The control-flow elements of an FBD body: a jump or a return skips the networks
            // after it when its input is TRUE; here every block runs every scan.
            tag @ ("jump" | "label" | "return" | "actionBlock") => {
                let name = e.attribute("label").map(|l| format!(" `{l}`")).unwrap_or_default();
                cx.err(
                    *e,
                    format!(
                        "a {tag}{name} is not supported: here every block of the body runs every scan, so what it skips would run; \
                         select with SEL or MUX instead"
                    ),
                );
            }
            _ => {}
        }
    }
}

/// A POU's in-out variables (VAR_IN_OUT), each refused where it is declared: the import has
/// no reference parameters, and a copy would not write back.
pub(super) fn refuse_in_outs(cx: &mut Ctx, iface: Option<Node>, pou: &str) {
    for list in iface.into_iter().flat_map(|i| children(i, "inOutVars")) {
        for v in children(list, "variable") {
            let name = v.attribute("name").unwrap_or("");
            cx.err(
                v,
                format!("`{name}` of `{pou}` is an in-out variable (VAR_IN_OUT), which is not supported; make it an input and an output"),
            );
        }
    }
}
