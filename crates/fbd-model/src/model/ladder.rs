//! Ladder diagrams (LD) in a body, and the body's variables (format version 5).
//!
//! A body (the program's or a macro's) may hold, beside its blocks, a **ladder network**: the
//! elements of IEC 61131-3's LD as PLCopen writes them: contacts that read a BOOL, coils that
//! write a variable, and stores (PLCopen's outVariable: a variable assigned a value), each
//! powered from the left rail, another element or a block output (`from`: several sources are
//! their OR, a parallel branch). Blocks of the same body sit in the rungs: an input of a block
//! reads an element's power by the element's id, and an element reads a block's output as
//! `block.pin` (`ton.Q`; `blk.ENO`, the power through a block: its EN).
//!
//! The network runs as Beremiz's generator writes it and matiec runs it (docs/ladder.md): its
//! coils and stores are statements in the order of the list, each computing its power flow
//! afresh; a block is called at the first statement that needs it, the others after the last
//! statement; a read of a variable sees the last write before it in the scan, or what the
//! previous scan left. The compiler lowers it to blocks (`fbd_compiler::ladder`); nothing here
//! executes.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Const, TypeName, Wire, de_pos, ser_pos};

/// A variable of a body (IEC's `VAR`): read by name by its body's contacts, blocks and ports,
/// written by its coils and stores; between scans it keeps its value. The debugger, the CLI and
/// test tables watch it by its name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Variable {
    /// Unique among the body's variables, inputs (but the one it takes, with `input`), blocks
    /// and ladder elements; no `/` or `.`.
    pub name: String,
    /// Its IEC elementary type.
    #[serde(rename = "type")]
    pub ty: TypeName,
    /// Its value before the first scan (default: zero of the type).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<Const>,
    /// It takes the body's input of the same name at the start of every scan (a global a
    /// program instance shares, a `%I` location the body writes): a read before the scan's
    /// first write sees the input, and what it is written reaches its readers after.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub input: bool,
    /// It starts every scan at its init instead of keeping the previous scan's value: a
    /// FUNCTION's variables (and its result), IEC's VAR_TEMP.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub temp: bool,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// What a ladder element is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LdKind {
    /// `-| |-`: passes the power on while its BOOL (`var`) is TRUE (as modified).
    Contact,
    /// `-( )-`: writes its power flow (as modified) into the variable `var`, and passes the
    /// power on.
    Coil,
    /// An assignment (PLCopen's outVariable): the variable `var` takes what its source carries
    /// (a block output, a variable, a constant; several BOOLs: their OR), of any type.
    Store,
}

/// How a contact reads or a coil writes (IEC's symbols in the comments).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LdModifier {
    /// `-| |-`, `-( )-`.
    #[default]
    Plain,
    /// `-|/|-`: passes power while the BOOL is FALSE; `-(/)-` (and a negated store of a
    /// BOOL): writes the inverse.
    Negated,
    /// `-|P|-`: power for one scan where the BOOL rises; `-(P)-`: TRUE for one scan where the
    /// power rises.
    Rising,
    /// `-|N|-`, `-(N)-`: the same on a fall.
    Falling,
    /// `-(S)-`: a coil that sets its variable while powered (it stays TRUE).
    Set,
    /// `-(R)-`: a coil that resets its variable while powered.
    Reset,
}

impl LdModifier {
    fn is_plain(&self) -> bool {
        *self == LdModifier::Plain
    }

    /// The modifier as the format writes it (`negated`).
    pub fn name(self) -> &'static str {
        match self {
            LdModifier::Plain => "plain",
            LdModifier::Negated => "negated",
            LdModifier::Rising => "rising",
            LdModifier::Falling => "falling",
            LdModifier::Set => "set",
            LdModifier::Reset => "reset",
        }
    }
}

/// The source `from` names for the left power rail.
pub const RAIL: &str = "rail";

/// One element of a ladder network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LdElement {
    /// Unique among the body's elements, blocks, variables and inputs; no `/` or `.`.
    pub id: String,
    /// A contact, a coil or a store.
    pub kind: LdKind,
    /// What a contact reads (a variable, an input, `block.pin`), or the variable a coil or a
    /// store writes.
    pub var: String,
    /// How a contact reads or a coil writes (a store: plain or negated).
    #[serde(default, skip_serializing_if = "LdModifier::is_plain")]
    pub modifier: LdModifier,
    /// Where its power (a store: its value) comes from: `"rail"`, an element's id,
    /// `block.pin`, a variable or input, a constant, a continuation; several are their OR (a
    /// parallel branch joining). Empty: connected to nothing (a coil or store so writes
    /// nothing, as Beremiz generates no statement for it).
    #[serde(default)]
    pub from: Vec<Wire>,
    /// Drawing position `[x, y]` of its left connection.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "de_pos", serialize_with = "ser_pos")]
    pub pos: Option<[f64; 2]>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

impl LdElement {
    /// A contact reading `var`, powered from `from`.
    pub fn contact(id: &str, var: &str, modifier: LdModifier, from: &[&str]) -> LdElement {
        LdElement::new(id, LdKind::Contact, var, modifier, from)
    }

    /// A coil writing `var`, powered from `from`.
    pub fn coil(id: &str, var: &str, modifier: LdModifier, from: &[&str]) -> LdElement {
        LdElement::new(id, LdKind::Coil, var, modifier, from)
    }

    fn new(id: &str, kind: LdKind, var: &str, modifier: LdModifier, from: &[&str]) -> LdElement {
        LdElement {
            id: id.into(),
            kind,
            var: var.into(),
            modifier,
            from: from.iter().map(|s| Wire::Ref(s.to_string())).collect(),
            pos: None,
            comment: None,
        }
    }

    /// Whether it writes a variable (a coil or a store): a statement of the network.
    pub fn writes(&self) -> bool {
        matches!(self.kind, LdKind::Coil | LdKind::Store)
    }
}
