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
use crate::types::Type;

/// A variable of a body (IEC's `VAR`): read by name by its body's contacts, blocks and ports,
/// written by its coils and stores; between scans it keeps its value. The debugger, the CLI and
/// test tables watch it by its name.
///
/// Its file form is [`VariableText`]: one `type` that names an elementary type or one of the
/// document's [`DataType`](super::DataType)s, and an `init` that may be an enumeration
/// value's name; the loader resolves both (`load::resolve_types`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "VariableText", into = "VariableText")]
pub struct Variable {
    /// Unique among the body's variables, inputs (but the one it takes, with `input`), blocks
    /// and ladder elements; no `/` or `.`.
    pub name: String,
    /// Its IEC elementary type; for a variable of a user type, the type it is held in
    /// (an enumeration's: DINT) once the project is loaded.
    pub ty: TypeName,
    /// The user data type it is declared of (a name of the project's `types`), if any.
    pub data_type: Option<String>,
    /// Its value before the first scan (default: zero of the type; an enumeration's first
    /// value or its type's `init`).
    pub init: Option<Const>,
    /// Its init as written when it is a name (an enumeration's value), which the loader
    /// turns into `init`; kept so the file is written back as it was.
    pub init_name: Option<String>,
    /// An array's initial elements, in order (row-major); the rest start at zero.
    pub init_elements: Vec<Const>,
    /// It takes the body's input of the same name at the start of every scan (a global a
    /// program instance shares, a `%I` location the body writes): a read before the scan's
    /// first write sees the input, and what it is written reaches its readers after.
    pub input: bool,
    /// It starts every scan at its init instead of keeping the previous scan's value: a
    /// FUNCTION's variables (and its result), IEC's VAR_TEMP.
    pub temp: bool,
    /// Free text.
    pub description: Option<String>,
}

impl Variable {
    /// A variable of an elementary type, with no init, neither input nor temp.
    pub fn new(name: impl Into<String>, ty: Type) -> Variable {
        Variable {
            name: name.into(),
            ty: TypeName(ty),
            data_type: None,
            init: None,
            init_name: None,
            init_elements: Vec::new(),
            input: false,
            temp: false,
            description: None,
        }
    }

    /// The name of its type as the file writes it: its user type's, or its elementary type's.
    pub fn type_name(&self) -> &str {
        self.data_type.as_deref().unwrap_or(self.ty.0.name())
    }
}

/// A [`Variable`] as the file writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Variable")]
pub struct VariableText {
    /// Unique among the body's variables, inputs (but the one it takes, with `input`), blocks
    /// and ladder elements; no `/` or `.`.
    pub name: String,
    /// Its type: an IEC elementary type (`BOOL`, `INT`, `REAL`, `TIME`, `STRING`..), the
    /// name of one of the project's `types`, or an array (`ARRAY[0..7] OF INT`).
    #[serde(rename = "type")]
    pub ty: String,
    /// Its value before the first scan (default: zero of the type): a constant, for a
    /// variable of an enumeration one of its values' names (`"running"`), for an array a list
    /// of its first elements' values (`[1, 2, 3]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<serde_json::Value>,
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

impl JsonSchema for Variable {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        VariableText::schema_name()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        VariableText::json_schema(g)
    }
}

/// Whether `s` can be a name (an enumeration value's): a letter or `_`, then letters, digits
/// and `_`; `TYPE#value` too.
fn is_value_name(s: &str) -> bool {
    let name = |p: &str| {
        p.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    match s.split_once('#') {
        Some((t, v)) => name(t) && name(v),
        None => name(s) && !s.eq_ignore_ascii_case("TRUE") && !s.eq_ignore_ascii_case("FALSE"),
    }
}

impl TryFrom<VariableText> for Variable {
    type Error = String;

    fn try_from(t: VariableText) -> Result<Variable, String> {
        let (ty, data_type) = match Type::parse(&t.ty) {
            Some(ty) => (ty, None),
            None if is_value_name(&t.ty) && !t.ty.contains('#') => (Type::DInt, Some(t.ty.clone())),
            None if t.ty.trim_start().get(..5).is_some_and(|p| p.eq_ignore_ascii_case("ARRAY")) => {
                let a = super::ArrayType::parse(&t.ty).map_err(|e| format!("variable `{}`: {e}", t.name))?;
                (Type::DInt, Some(a.to_string()))
            }
            None => {
                let names: Vec<&str> = Type::ALL.iter().map(|t| t.name()).collect();
                return Err(format!(
                    "variable `{}`: unknown type `{}`, expected one of {} or a name of the document's `types`",
                    t.name,
                    t.ty,
                    names.join(", ")
                ));
            }
        };
        let mut init_elements = Vec::new();
        let (init, init_name) = match t.init {
            None => (None, None),
            Some(serde_json::Value::Array(list)) => {
                for (k, v) in list.into_iter().enumerate() {
                    let c =
                        Const::deserialize(v).map_err(|e| format!("variable `{}`: init element {k}: {e}", t.name))?;
                    init_elements.push(c);
                }
                (None, None)
            }
            Some(serde_json::Value::String(s)) if is_value_name(&s) => (None, Some(s)),
            Some(_) if data_type.is_some() => {
                return Err(format!(
                    "variable `{}` is of `{}`: its init is one of its values' names (`\"init\": \"running\"`)",
                    t.name, t.ty
                ));
            }
            Some(v) => (Some(Const::deserialize(v).map_err(|e| format!("variable `{}`: init: {e}", t.name))?), None),
        };
        Ok(Variable {
            name: t.name,
            ty: TypeName(ty),
            data_type,
            init,
            init_name,
            init_elements,
            input: t.input,
            temp: t.temp,
            description: t.description,
        })
    }
}

impl From<Variable> for VariableText {
    fn from(v: Variable) -> VariableText {
        let ty = v.type_name().to_string();
        // A user type's variable is written with the init it was given by name (the one its
        // type gives it, resolved into `init`, is the type's to write).
        let init = match (v.init_name, v.init) {
            (Some(n), _) => Some(serde_json::Value::String(n)),
            (None, Some(c)) if v.data_type.is_none() => serde_json::to_value(c).ok(),
            (None, _) if !v.init_elements.is_empty() => serde_json::to_value(&v.init_elements).ok(),
            (None, _) => None,
        };
        VariableText { name: v.name, ty, init, input: v.input, temp: v.temp, description: v.description }
    }
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
