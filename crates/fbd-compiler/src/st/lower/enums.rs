//! Enumerations in ST: a value's name (`running`, `Mode#running`) read as its position, and
//! the checks matiec makes of them: an enumeration's variable takes only its own values (or
//! another of its variables), its values compare with `=` and `<>` only, and a CASE on it
//! has its values as labels.

use fbd_model::model::{DataTypes, ENUM_REPRESENTATION, EnumName, Wire};
use fbd_model::{Type, Value};
use fbd_st::Pos;
use fbd_st::ast::{BinOp, Expr, Path};

use super::Lowerer;
use crate::st::Name;

/// What an expression is, for the enumeration checks.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Kind {
    /// A value of the enumeration named.
    Enum(String),
    /// A value of an elementary type (a literal, a variable).
    Elementary,
    /// Not known without typing it (a call, an operation): not checked.
    Unknown,
}

impl Lowerer<'_, '_> {
    fn types(&self) -> DataTypes<'_> {
        DataTypes(self.body.types)
    }

    /// The enumeration value `p` names, as a constant, or `None` when it names none.
    pub(super) fn enum_value(&mut self, p: &Path) -> Option<(Wire, Option<Type>)> {
        if p.parts.len() != 1 {
            return None;
        }
        match self.types().enum_value(&p.parts[0])? {
            EnumName::Value(_, i) => Some((Wire::constant(Value::Int(i as i64)), Some(ENUM_REPRESENTATION))),
            EnumName::Ambiguous(types) => {
                let first = types.first().copied().unwrap_or_default();
                self.error(
                    p.pos,
                    format!(
                        "`{}` is a value of several enumerations ({}): write which, `{first}#{}`",
                        p.parts[0],
                        types.join(", "),
                        p.parts[0]
                    ),
                );
                Some((Wire::constant(Value::Int(0)), Some(ENUM_REPRESENTATION)))
            }
        }
    }

    /// What `e` is, for the enumeration checks.
    pub(super) fn kind(&self, e: &Expr) -> Kind {
        match e {
            Expr::Lit { .. } => Kind::Elementary,
            Expr::Name(p) if self.array_of(p).is_some() => {
                let first = self.arrays[self.array_of(p).unwrap_or_default()].first;
                match &self.body.variables[first].data_type {
                    Some(t) => Kind::Enum(t.clone()),
                    None => Kind::Elementary,
                }
            }
            Expr::Name(p) if p.parts.len() == 1 && !p.indexed => {
                match self.names.get(&p.parts[0].to_ascii_uppercase()) {
                    Some(Name::Var(v)) => match &self.body.variables[*v].data_type {
                        Some(t) => Kind::Enum(t.clone()),
                        None => Kind::Elementary,
                    },
                    Some(Name::Input(_)) => Kind::Elementary,
                    Some(Name::Instance(_) | Name::Array(_)) => Kind::Unknown,
                    None => match self.types().enum_value(&p.parts[0]) {
                        Some(EnumName::Value(t, _)) => Kind::Enum(t.name.clone()),
                        _ => Kind::Unknown,
                    },
                }
            }
            Expr::Binary(op, ..) if is_comparison(*op) => Kind::Elementary,
            _ => Kind::Unknown,
        }
    }

    /// `value` stored where a value of `to` (an enumeration's name, or none: elementary) goes;
    /// whether it was wrong (and said so).
    pub(super) fn check_enum_store(&mut self, value: &Expr, to: Option<&str>, what: &str) -> bool {
        let msg = match (to, self.kind(value)) {
            (Some(to), Kind::Enum(from)) if !from.eq_ignore_ascii_case(to) => {
                format!("{what} is a `{to}`; this value is a `{from}`")
            }
            (Some(to), Kind::Elementary) => {
                let values = self.types().get(to).map(|t| t.values().join(", ")).unwrap_or_default();
                format!("{what} is a `{to}`: it takes one of its values ({values})")
            }
            (None, Kind::Enum(from)) => {
                format!("{what} is no enumeration; this value is a `{from}` (an enumeration's value is no number)")
            }
            _ => return false,
        };
        self.error(value.pos(), msg);
        true
    }

    /// `a op b` where one side is an enumeration's: a comparison of two of the same.
    pub(super) fn check_enum_binary(&mut self, op: BinOp, a: &Expr, b: &Expr, pos: Pos) {
        let (ka, kb) = (self.kind(a), self.kind(b));
        let msg = match (&ka, &kb) {
            (Kind::Enum(x), _) | (_, Kind::Enum(x)) if !matches!(op, BinOp::Eq | BinOp::Ne) => {
                format!("`{}` of a `{x}`: an enumeration's values are compared with `=` and `<>` only", op.symbol())
            }
            (Kind::Enum(x), Kind::Enum(y)) if !x.eq_ignore_ascii_case(y) => {
                format!("a `{x}` compared with a `{y}`")
            }
            (Kind::Enum(x), Kind::Elementary) | (Kind::Elementary, Kind::Enum(x)) => {
                format!("a `{x}` compared with a number: compare it with one of its values")
            }
            _ => return,
        };
        self.error(pos, msg);
    }
}

fn is_comparison(op: BinOp) -> bool {
    matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge)
}
