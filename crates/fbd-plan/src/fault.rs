//! The faults a scan may record in a block: part of the instruction set's meaning, shared by
//! the executor and the reference evaluator.

/// What went wrong in a block during a scan. The block still produced a value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// DIV or MOD by zero; the result is 0.
    DivisionByZero,
    /// Integer overflow; the result wrapped (or, for a REAL converted to an integer, saturated).
    Overflow,
    /// A REAL result is NaN, or a NaN was converted to an integer (the result 0).
    NotANumber,
    /// A REAL result is ±infinity: it passed the largest REAL (1.8e308), or came from an
    /// infinite input, which only such an overflow makes (inputs and constants are finite).
    RealOverflow,
    /// MUX index out of range; the result is the zero of the type.
    IndexOutOfRange,
    /// An invalid argument (SAW period <= 0, RANDOM hi < lo, a negative timer preset).
    BadArgument,
    /// The scan's loops ran past the watchdog: the scan stopped at this loop's jump back and
    /// the task with it (a PLC's watchdog error), until the program is restarted.
    Watchdog,
}

impl FaultKind {
    /// Short description.
    pub fn describe(self) -> &'static str {
        match self {
            FaultKind::DivisionByZero => "division by zero (result 0)",
            FaultKind::Overflow => "integer overflow (result wrapped; a REAL beyond an integer type saturates)",
            FaultKind::NotANumber => "NaN (a REAL result; converted to an integer, the result 0)",
            FaultKind::RealOverflow => "REAL overflow (result ±infinity)",
            FaultKind::IndexOutOfRange => "MUX index out of range (result 0)",
            FaultKind::BadArgument => "invalid argument",
            FaultKind::Watchdog => "watchdog: a loop ran past the watchdog time (the task stopped)",
        }
    }
}
