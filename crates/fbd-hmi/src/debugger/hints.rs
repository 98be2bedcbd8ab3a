//! The examples in the debugger's empty fields, taken from the loaded program: the 2048
//! program's `rises:busy` and `cell_1_1/mem.q=4` stood there for every program, naming signals
//! a blinker's user has never seen.

use fbd_engine::{ScanPlan, SignalKind, Type};

/// What the breakpoint, fast-forward and filter fields show while empty.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Hints {
    /// The breakpoint field: a rising edge, a change and a comparison.
    pub(crate) breakpoint: String,
    /// The fast-forward field: a rising edge and a comparison.
    pub(crate) until: String,
    /// The signal tree's filter.
    pub(crate) filter: String,
}

impl Hints {
    /// Examples naming `plan`'s own signals: its first BOOL output for an edge, its first
    /// numeric output for a change, a block output inside an instance (else any) for a value.
    pub(crate) fn of(plan: &ScanPlan) -> Hints {
        let outputs = || plan.signals.iter().filter(|s| s.kind == SignalKind::ProgramOutput);
        let edge = outputs().find(|s| s.slot.ty == Type::Bool).map_or("SIGNAL", |s| s.path);
        let change = outputs().find(|s| s.slot.ty != Type::Bool).map_or("SIGNAL", |s| s.path);
        let blocks = || plan.signals.iter().filter(|s| s.kind == SignalKind::BlockOutput);
        let inner = blocks().find(|s| s.path.contains('/')).or_else(|| blocks().next());
        let (compare, block) = match inner {
            Some(s) => {
                let v = match s.slot.ty.bank() {
                    fbd_engine::Bank::Bool => "TRUE",
                    fbd_engine::Bank::Int => "4",
                    fbd_engine::Bank::Real => "1.5",
                    fbd_engine::Bank::Str => "'OK'",
                };
                (format!("{}={v}", s.path), s.path.rsplit_once('.').map_or(s.path, |(b, _)| b).to_string())
            }
            None => ("PATH=VALUE".to_string(), "PATH".to_string()),
        };
        Hints {
            breakpoint: format!("rises:{edge}, changes:{change}, {compare}"),
            until: format!("rises:{edge}, {compare}"),
            filter: format!("filter, e.g. {block}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(file: &str) -> ScanPlan {
        let path = format!("{}/../../{file}", env!("CARGO_MANIFEST_DIR"));
        fbd_engine::compile_file(&path, &Default::default()).expect("compiles")
    }

    #[test]
    fn the_examples_name_the_programs_own_signals() {
        let p = plan("examples/blinker.json");
        let h = Hints::of(&p);
        assert_eq!(h.breakpoint, "rises:fast_lamp, changes:slow_cycles, fast/not_off.out=TRUE");
        for path in ["fast_lamp", "slow_cycles", "fast/not_off.out"] {
            assert!(p.signal(path).is_some(), "{path} is a signal of the blinker");
        }
        let h = Hints::of(&plan("diagrams/2048.json"));
        assert!(h.breakpoint.starts_with("rises:game_over, changes:v11, "), "{}", h.breakpoint);
        assert!(!h.until.contains("SIGNAL") && h.filter.contains('/'), "{h:?}");
    }
}
