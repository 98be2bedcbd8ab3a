//! The string family of the executor: every block with a STRING operand ([`StrOp`]). The
//! functions themselves are `crate::string`'s; this reads their operands from the banks and
//! writes the result. Nothing allocates: a STRING is a fixed 127-byte value.

use super::{FaultKind, Machine};
use fbd_model::string::{self as s, IecString};
use fbd_model::types::{Bank, Type};
use fbd_plan::instr::StrOp;

/// The slot banks, borrowed apart (the executor holds them so).
pub(super) struct Banks<'a> {
    pub b: &'a mut [bool],
    pub n: &'a mut [i64],
    pub r: &'a mut [f64],
    pub s: &'a mut [IecString],
}

impl Machine<'_> {
    /// The string family is called, not inlined: its operations copy 127-byte values and are
    /// rare in a program; the dispatch loop stays small for the others.
    #[inline(always)]
    pub(super) fn string(&mut self, op: StrOp, args: u32, n: u32, o: u32) {
        let list = self.list(args, n);
        let banks = Banks { b: self.b, n: self.n, r: self.r, s: self.s };
        if let Some(k) = step(op, list, o, banks) {
            self.fault(k);
        }
    }
}

/// Runs one string operation over the operand slots `a` into slot `o`; the fault it is, if one
/// (an argument matiec refuses or leaves undefined, a MUX index out of range).
#[inline(never)]
pub(super) fn step(op: StrOp, a: &[u32], o: u32, k: Banks) -> Option<FaultKind> {
    let Banks { b, n, r, s: strs } = k;
    let st = |i: usize| &strs[a[i] as usize];
    let int = |i: usize| n[a[i] as usize];
    let (value, fault) = match op {
        StrOp::Concat => (s::concat(a.iter().map(|&x| &strs[x as usize])), false),
        StrOp::Left => s::left(st(0), int(1)),
        StrOp::Right => s::right(st(0), int(1)),
        StrOp::Mid => s::mid(st(0), int(1), int(2)),
        StrOp::Insert => s::insert(st(0), st(1), int(2)),
        StrOp::Delete => s::delete(st(0), int(1), int(2)),
        StrOp::Replace => s::replace(st(0), st(1), int(2), int(3)),
        StrOp::Find => {
            n[o as usize] = s::find(st(0), st(1));
            return None;
        }
        StrOp::Len => {
            n[o as usize] = st(0).len() as i64;
            return None;
        }
        StrOp::Cmp(mask) => {
            let outcome = match st(0).cmp(st(1)) {
                std::cmp::Ordering::Less => 0b001,
                std::cmp::Ordering::Equal => 0b010,
                std::cmp::Ordering::Greater => 0b100,
            };
            b[o as usize] = mask & outcome != 0;
            return None;
        }
        StrOp::Sel => (if b[a[0] as usize] { *st(2) } else { *st(1) }, false),
        StrOp::Mux => match usize::try_from(int(0)).ok().filter(|&k| k + 1 < a.len()) {
            Some(k) => (*st(k + 1), false),
            None => {
                strs[o as usize] = IecString::EMPTY;
                return Some(FaultKind::IndexOutOfRange);
            }
        },
        StrOp::Move => (*st(0), false),
        StrOp::Memory => (if b[a[1] as usize] { *st(0) } else { strs[o as usize] }, false),
        // Folded as matiec's __extrem_: a later input replaces the extreme when beyond it.
        StrOp::Min => (*a.iter().map(|&x| &strs[x as usize]).fold(st(0), |m, x| if x < m { x } else { m }), false),
        StrOp::Max => (*a.iter().map(|&x| &strs[x as usize]).fold(st(0), |m, x| if x > m { x } else { m }), false),
        StrOp::Limit => {
            let (mn, x, mx) = (st(0), st(1), st(2));
            (*if x > mn { if x < mx { x } else { mx } } else { mn }, false)
        }
        StrOp::ToString(from) => (to_string(from, a[0], b, n, r), false),
        StrOp::FromString(to) => {
            let x = st(0);
            match to.bank() {
                Bank::Bool => b[o as usize] = s::string_to_bool(x),
                Bank::Real => r[o as usize] = s::string_to_real(x),
                Bank::Int if to.is_time() => {
                    let (ns, over) = s::string_to_time_ns(x);
                    n[o as usize] = ns;
                    if over {
                        return Some(FaultKind::Overflow);
                    }
                }
                Bank::Int => n[o as usize] = s::string_to_int(x),
                Bank::Str => strs[o as usize] = *x,
            }
            return None;
        }
    };
    strs[o as usize] = value;
    fault.then_some(FaultKind::BadArgument)
}

/// `A_TO_STRING` of the slot `x` of type `from`.
fn to_string(from: Type, x: u32, b: &[bool], n: &[i64], r: &[f64]) -> IecString {
    let x = x as usize;
    match from.bank() {
        Bank::Bool => s::bool_to_string(b[x]),
        Bank::Real => s::real_to_string(r[x]),
        Bank::Int if from.is_time() => s::time_to_string(n[x]),
        Bank::Int => s::int_to_string(n[x], from.width().map_or(!from.is_u64(), |w| w.1), from.is_bit_string()),
        Bank::Str => IecString::EMPTY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fbd_plan::instr::CmpOp;

    #[test]
    fn a_comparison_mask_reads_the_ordering() {
        let mut strs = [IecString::new(b"ab"), IecString::new(b"b")];
        let mut b = [false; 1];
        let mut n = [0i64; 0];
        let mut r = [0f64; 0];
        for (op, want) in [(CmpOp::Lt, true), (CmpOp::Gt, false), (CmpOp::Ne, true), (CmpOp::Eq, false)] {
            let banks = Banks { b: &mut b, n: &mut n, r: &mut r, s: &mut strs };
            step(StrOp::Cmp(op.mask()), &[0, 1], 0, banks);
            assert_eq!(b[0], want, "{op:?}");
        }
    }
}
