//! User data types (format version 7): the document's `types`, which its variables name as
//! their `type`. Enumerations so far: named values, stored as their position in the list
//! (matiec's C enum: the first value is 0), compared and assigned by name.
//!
//! Arrays: dimensions (`ARRAY[0..7, 1..3] OF INT`) of an elementary type or an enumeration,
//! named in `types` or written as a variable's type; each element is a variable of its own
//! to the executor (`a[2]`, `grid[0,1]`), indexed by the ST compiler.
//!
//! A variable of a user type holds, once the project is loaded (`load::resolve_types`), its
//! representation in `ty` (an enumeration's is DINT, an array's its element's) and the type's
//! name in `data_type`; the compiler and the executor see the representation, the front ends
//! and the ST compiler the name. Structures and subranges are the next kinds.

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
    /// An array: `"array": "ARRAY[0..7] OF BYTE"`, as IEC writes its type.
    Array(ArrayType),
}

/// An array type: its dimensions (each `low..high`, both included) and its element type.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayType {
    /// Each dimension's bounds.
    pub dims: Vec<(i64, i64)>,
    /// The element type's name: elementary, or an enumeration of the project.
    pub of: String,
}

/// The most elements an array has: each is a variable of its own to the executor.
pub const MAX_ARRAY_ELEMENTS: u64 = 65_536;

impl ArrayType {
    /// Reads `ARRAY[0..7, 1..3] OF INT` (case-insensitive, spaces free).
    pub fn parse(text: &str) -> Result<ArrayType, String> {
        let t = text.trim();
        let bad = || format!("`{t}` is no array type: expected `ARRAY[low..high, ..] OF TYPE`");
        let rest =
            t.get(..5).filter(|p| p.eq_ignore_ascii_case("ARRAY")).map(|_| t[5..].trim_start()).ok_or_else(bad)?;
        let rest = rest.strip_prefix('[').ok_or_else(bad)?;
        let (dims_text, rest) = rest.split_once(']').ok_or_else(bad)?;
        let rest = rest.trim_start();
        let of = rest.get(..2).filter(|p| p.eq_ignore_ascii_case("OF")).map(|_| rest[2..].trim()).ok_or_else(bad)?;
        if of.is_empty() || !of.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!(
                "`{t}`: the element type `{of}` is no type name (arrays of arrays: `ARRAY[0..1, 0..2] OF INT`)"
            ));
        }
        let mut dims = Vec::new();
        for d in dims_text.split(',') {
            let (lo, hi) = d.split_once("..").ok_or_else(bad)?;
            let num = |s: &str| {
                s.trim()
                    .replace('_', "")
                    .parse::<i64>()
                    .map_err(|_| format!("`{t}`: `{}` is no integer bound", s.trim()))
            };
            let (lo, hi) = (num(lo)?, num(hi)?);
            if hi < lo {
                return Err(format!("`{t}`: the dimension {lo}..{hi} is empty (its upper bound is below its lower)"));
            }
            dims.push((lo, hi));
        }
        let a = ArrayType { dims, of: of.to_string() };
        if a.len() > MAX_ARRAY_ELEMENTS {
            return Err(format!("`{t}` has {} elements; an array has at most {MAX_ARRAY_ELEMENTS}", a.len()));
        }
        Ok(a)
    }

    /// How many elements it has.
    pub fn len(&self) -> u64 {
        self.dims.iter().fold(1u64, |n, (lo, hi)| n.saturating_mul((hi - lo + 1) as u64))
    }

    /// Whether it has no element (never: a dimension has at least one).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `k`'s indices (row-major: the last index varies fastest, as IEC and C lay out).
    pub fn indices(&self, mut k: u64) -> Vec<i64> {
        let mut out = vec![0; self.dims.len()];
        for (d, (lo, hi)) in self.dims.iter().enumerate().rev() {
            let n = (hi - lo + 1) as u64;
            out[d] = lo + (k % n) as i64;
            k /= n;
        }
        out
    }

    /// Element `k`'s name as a variable: `a[2]`, `grid[0,1]`.
    pub fn element_name(&self, array: &str, k: u64) -> String {
        let idx: Vec<String> = self.indices(k).iter().map(i64::to_string).collect();
        format!("{array}[{}]", idx.join(","))
    }

    /// The position of the element at `indices`, or `None` when one is out of its bounds.
    pub fn position(&self, indices: &[i64]) -> Option<u64> {
        if indices.len() != self.dims.len() {
            return None;
        }
        let mut k = 0u64;
        for (&i, &(lo, hi)) in indices.iter().zip(&self.dims) {
            if i < lo || i > hi {
                return None;
            }
            k = k * (hi - lo + 1) as u64 + (i - lo) as u64;
        }
        Some(k)
    }
}

impl std::fmt::Display for ArrayType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let dims: Vec<String> = self.dims.iter().map(|(lo, hi)| format!("{lo}..{hi}")).collect();
        write!(f, "ARRAY[{}] OF {}", dims.join(", "), self.of)
    }
}

impl Serialize for ArrayType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for ArrayType {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        ArrayType::parse(&s).map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for ArrayType {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ArrayType".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "pattern": "^(?i)ARRAY\\s*\\[.*\\]\\s*OF\\s+\\w+$" })
    }
}

/// The elementary type a variable of an enumeration is held in: matiec's C enum is an int.
pub const ENUM_REPRESENTATION: Type = Type::DInt;

impl DataType {
    /// An enumeration's values (none for other kinds).
    pub fn values(&self) -> &[String] {
        match &self.kind {
            DataKind::Enum(v) => v,
            DataKind::Array(_) => &[],
        }
    }

    /// An array type's shape, if it is one.
    pub fn array(&self) -> Option<&ArrayType> {
        match &self.kind {
            DataKind::Array(a) => Some(a),
            DataKind::Enum(_) => None,
        }
    }

    /// Whether it is an enumeration.
    pub fn is_enum(&self) -> bool {
        matches!(self.kind, DataKind::Enum(_))
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

    /// The array a variable's `data_type` is: a named array type, or one written out
    /// (`ARRAY[0..7] OF INT`).
    pub fn array(&self, data_type: &str) -> Option<ArrayType> {
        match self.get(data_type) {
            Some(t) => t.array().cloned(),
            None => ArrayType::parse(data_type).ok(),
        }
    }

    /// The elementary type an element of type `name` is held in (an enumeration's: DINT), and
    /// the enumeration it is of, if one; `None` when `name` is neither.
    pub fn element(&self, name: &str) -> Option<(Type, Option<&'a DataType>)> {
        if let Some(t) = Type::parse(name) {
            return Some((t, None));
        }
        self.get(name).filter(|t| t.is_enum()).map(|t| (ENUM_REPRESENTATION, Some(t)))
    }

    /// The enumeration value `name` or `TYPE#name` names, if any.
    pub fn enum_value(&self, name: &str) -> Option<EnumName<'a>> {
        if let Some((ty, _)) = name.split_once('#') {
            let t = self.get(ty)?;
            return t.value_index(name).map(|i| EnumName::Value(t, i));
        }
        let found: Vec<(&'a DataType, usize)> =
            self.0.iter().filter(|t| t.is_enum()).filter_map(|t| t.value_index(name).map(|i| (t, i))).collect();
        match found.as_slice() {
            [] => None,
            [(t, i)] => Some(EnumName::Value(t, *i)),
            many => Some(EnumName::Ambiguous(many.iter().map(|(t, _)| t.name.as_str()).collect())),
        }
    }
}
