//! User data types (format version 7): the document's `types`, which its variables name as
//! their `type`. Enumerations so far: named values, stored as their position in the list
//! (matiec's C enum: the first value is 0), compared and assigned by name.
//!
//! A variable of a user type holds, once the project is loaded (`load::resolve_types`), its
//! representation in `ty` (an enumeration's is DINT) and the type's name in `data_type`; the
//! compiler and the executor see the representation, the front ends and the ST compiler the
//! name. Arrays, structures and subranges are the next kinds.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::types::Type;

/// A user data type (IEC's `TYPE .. END_TYPE`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DataType {
    /// An identifier, unique among the project's types and not an elementary type's name.
    pub name: String,
    /// What it is.
    #[serde(flatten)]
    pub kind: DataKind,
    /// The value a variable of the type starts with when it names none: one of an
    /// enumeration's values (default: its first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<String>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// The kinds of user data type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DataKind {
    /// An enumeration: its values' names, in order (`"enum": ["idle", "running"]`).
    Enum(Vec<String>),
}

/// The elementary type a variable of an enumeration is held in: matiec's C enum is an int.
pub const ENUM_REPRESENTATION: Type = Type::DInt;

impl DataType {
    /// The elementary type its variables are held in.
    pub fn representation(&self) -> Type {
        match self.kind {
            DataKind::Enum(_) => ENUM_REPRESENTATION,
        }
    }

    /// An enumeration's values (none for other kinds).
    pub fn values(&self) -> &[String] {
        match &self.kind {
            DataKind::Enum(v) => v,
        }
    }

    /// The position of the value `name` (case-insensitive, as IEC names are), or of
    /// `TYPE#name` when it is this type's.
    pub fn value_index(&self, name: &str) -> Option<usize> {
        let name = match name.split_once('#') {
            Some((ty, v)) if ty.eq_ignore_ascii_case(&self.name) => v,
            Some(_) => return None,
            None => name,
        };
        self.values().iter().position(|v| v.eq_ignore_ascii_case(name))
    }
}

/// The data types a body sees (the project's), for looking up names.
#[derive(Clone, Copy, Debug, Default)]
pub struct DataTypes<'a>(pub &'a [DataType]);

/// What an enumeration value's name stands for.
#[derive(Clone, Debug, PartialEq)]
pub enum EnumName<'a> {
    /// The value at `index` of the type.
    Value(&'a DataType, usize),
    /// A name that several enumerations have, written without its type (`started` of both
    /// `Mode` and `Phase`): which one it is must be written (`Mode#started`).
    Ambiguous(Vec<&'a str>),
}

impl<'a> DataTypes<'a> {
    /// The type named `name` (case-insensitive).
    pub fn get(&self, name: &str) -> Option<&'a DataType> {
        self.0.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// The enumeration value `name` or `TYPE#name` names, if any.
    pub fn enum_value(&self, name: &str) -> Option<EnumName<'a>> {
        if let Some((ty, _)) = name.split_once('#') {
            let t = self.get(ty)?;
            return t.value_index(name).map(|i| EnumName::Value(t, i));
        }
        let found: Vec<(&'a DataType, usize)> =
            self.0.iter().filter_map(|t| t.value_index(name).map(|i| (t, i))).collect();
        match found.as_slice() {
            [] => None,
            [(t, i)] => Some(EnumName::Value(t, *i)),
            many => Some(EnumName::Ambiguous(many.iter().map(|(t, _)| t.name.as_str()).collect())),
        }
    }
}
