//! The 2048 program's Modbus layout, as a SCADA panel or `mbpoll` reads it: the six commands
//! as coils 0–5 (writing TRUE presses one, queued during the lockout as a key press), the board
//! row by row as input registers 0–15, score and best as two registers each from 16, the scan
//! count as four from 20, the lamps `busy`, `game_over` and `win` as discrete inputs 0–2. The
//! server (`fbd-serve`) turns it into its map; it is the game's, so another program's own
//! layout is data beside it, not code in the server.

use crate::Command;

/// Which Modbus table an entry is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Table {
    /// Read-write bits.
    Coil,
    /// Read-only bits.
    Discrete,
    /// Read-only registers.
    Input,
}

/// What an address of the layout holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Holds {
    /// A command: writing TRUE presses it.
    Command(Command),
    /// The program's signal of the entry's name, in this many registers (0: a bit).
    Signal(u16),
    /// The scan count (four registers, the most significant first).
    Scans,
}

/// One entry: its table, first address, name and what it holds.
pub type Entry = (Table, u16, &'static str, Holds);

/// The layout, by table and address.
pub const LAYOUT: [Entry; 28] = {
    use Holds::{Command as C, Scans, Signal as S};
    use Table::{Coil, Discrete, Input};
    use ref2048::Dir;
    [
        (Coil, 0, "up", C(Command::Move(Dir::Up))),
        (Coil, 1, "right", C(Command::Move(Dir::Right))),
        (Coil, 2, "down", C(Command::Move(Dir::Down))),
        (Coil, 3, "left", C(Command::Move(Dir::Left))),
        (Coil, 4, "start", C(Command::Start)),
        (Coil, 5, "reset", C(Command::Reset)),
        (Input, 0, "v11", S(1)),
        (Input, 1, "v12", S(1)),
        (Input, 2, "v13", S(1)),
        (Input, 3, "v14", S(1)),
        (Input, 4, "v21", S(1)),
        (Input, 5, "v22", S(1)),
        (Input, 6, "v23", S(1)),
        (Input, 7, "v24", S(1)),
        (Input, 8, "v31", S(1)),
        (Input, 9, "v32", S(1)),
        (Input, 10, "v33", S(1)),
        (Input, 11, "v34", S(1)),
        (Input, 12, "v41", S(1)),
        (Input, 13, "v42", S(1)),
        (Input, 14, "v43", S(1)),
        (Input, 15, "v44", S(1)),
        (Input, 16, "score", S(2)),
        (Input, 18, "best", S(2)),
        (Input, 20, "scan", Scans),
        (Discrete, 0, "busy", S(0)),
        (Discrete, 1, "game_over", S(0)),
        (Discrete, 2, "win", S(0)),
    ]
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_has_each_command_once_and_no_overlap() {
        let commands: Vec<Command> =
            LAYOUT.iter().filter_map(|e| if let Holds::Command(c) = e.3 { Some(c) } else { None }).collect();
        let positions: std::collections::BTreeSet<i64> = commands.iter().map(|c| c.position()).collect();
        assert_eq!(positions, (1..=6).collect(), "the six selector positions, each once");
        let span = |h: Holds| match h {
            Holds::Command(_) | Holds::Signal(0) => 1,
            Holds::Signal(w) => w,
            Holds::Scans => 4,
        };
        for (i, a) in LAYOUT.iter().enumerate() {
            for b in &LAYOUT[i + 1..] {
                let apart = a.0 != b.0 || a.1 + span(a.3) <= b.1 || b.1 + span(b.3) <= a.1;
                assert!(apart, "{} and {} overlap", a.2, b.2);
            }
        }
    }
}
