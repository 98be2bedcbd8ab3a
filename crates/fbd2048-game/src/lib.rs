//! 2048 played through the FBD program.
//!
//! The three wirings of `diagrams/` are embedded ([`Wiring`]). A [`FbdGame`] drives one the way
//! an operator does: it puts the one-of-six selector on a position for one scan, then scans
//! until the lockout (`busy`) releases, and reads the 16 cell outputs. [`check_command`] judges
//! each command against the native rules of `ref2048`.

pub mod best;
pub mod datafile;
pub mod front;
pub mod modbus;

use std::fmt;
use std::path::Path;

use fbd_engine::{CompileOptions, Diagnostics, MemProvider, Runtime, ScanPlan, Value, compile_str};
use ref2048::{Board, Dir};

/// The shared macro library, as embedded.
pub const LIBRARY: &str = include_str!("../../../diagrams/lib/2048-macros.json");

/// One of the three 2048 programs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Wiring {
    /// `diagrams/2048.json`: UPD.1 single-pass processing, time-based Random with retries.
    Upd1,
    /// `diagrams/2048-original.json`: multi-scan processing with triggers and feedback.
    Original,
    /// `diagrams/2048-smart-spawn.json`: the spawn draws among the empty cells; one scan.
    SmartSpawn,
}

impl Wiring {
    /// All three.
    pub const ALL: [Wiring; 3] = [Wiring::Upd1, Wiring::Original, Wiring::SmartSpawn];

    /// The file name under `diagrams/`.
    pub fn file_name(self) -> &'static str {
        match self {
            Wiring::Upd1 => "2048.json",
            Wiring::Original => "2048-original.json",
            Wiring::SmartSpawn => "2048-smart-spawn.json",
        }
    }

    /// The diagram text, as embedded in the binary.
    pub fn text(self) -> &'static str {
        match self {
            Wiring::Upd1 => include_str!("../../../diagrams/2048.json"),
            Wiring::Original => include_str!("../../../diagrams/2048-original.json"),
            Wiring::SmartSpawn => include_str!("../../../diagrams/2048-smart-spawn.json"),
        }
    }

    /// A short name (`upd1`, `original`, `smart-spawn`).
    pub fn short(self) -> &'static str {
        match self {
            Wiring::Upd1 => "upd1",
            Wiring::Original => "original",
            Wiring::SmartSpawn => "smart-spawn",
        }
    }

    /// Parses a short name or a file name.
    pub fn parse(s: &str) -> Option<Wiring> {
        Wiring::ALL.into_iter().find(|w| w.short() == s || w.file_name() == s || s.ends_with(w.file_name()))
    }

    /// Compiles the embedded wiring.
    pub fn compile(self) -> Result<ScanPlan, Diagnostics> {
        let provider = embedded_provider();
        compile_str(&provider, Path::new("diagrams").join(self.file_name()), self.text(), &CompileOptions::default())
    }
}

/// The embedded `diagrams/` tree, for loading the wirings (and their include) from memory.
pub fn embedded_provider() -> MemProvider {
    let mut p = MemProvider::new().with("diagrams/lib/2048-macros.json", LIBRARY);
    for w in Wiring::ALL {
        p = p.with(Path::new("diagrams").join(w.file_name()), w.text());
    }
    p
}

/// A selector position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A move.
    Move(Dir),
    /// 5: a new game.
    Start,
    /// 6: clear the board.
    Reset,
}

impl Command {
    /// The selector position (1 up, 2 right, 3 down, 4 left, 5 start, 6 reset).
    pub fn position(self) -> i64 {
        match self {
            Command::Move(Dir::Up) => 1,
            Command::Move(Dir::Right) => 2,
            Command::Move(Dir::Down) => 3,
            Command::Move(Dir::Left) => 4,
            Command::Start => 5,
            Command::Reset => 6,
        }
    }
}

/// Something the program did that the driver could not accept.
#[derive(Clone, Debug, PartialEq)]
pub enum DriveError {
    /// The lockout did not release within the scan limit.
    Stuck {
        /// Scans waited.
        scans: u64,
    },
    /// A cell output is not a tile value.
    BadCell {
        /// Cell index (row-major).
        index: usize,
        /// The value.
        value: i64,
    },
    /// The diagram lacks a signal the driver needs.
    Interface(String),
}

impl fmt::Display for DriveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DriveError::Stuck { scans } => write!(f, "the lockout did not release within {scans} scans"),
            DriveError::BadCell { index, value } => {
                write!(f, "cell {} ({}, {}) holds {value}, not a tile", index, index / 4 + 1, index % 4 + 1)
            }
            DriveError::Interface(s) => write!(f, "the diagram does not have the 2048 interface: {s}"),
        }
    }
}

impl std::error::Error for DriveError {}

/// The most scans a command may take before the driver gives up (a 5 ms scan: 50 s).
pub const SCAN_LIMIT: u64 = 10_000;

/// A 2048 program in a runtime, driven through its selector.
pub struct FbdGame {
    /// The runtime (public for debugging and forcing).
    pub rt: Runtime,
    cells: [usize; 16],
    score: usize,
    busy: usize,
    game_over: usize,
    win: usize,
    best: usize,
    /// The selector was on a position in the last scan: it must return to 0 for one scan
    /// before the next command, or the program sees no new edge.
    selector_held: bool,
}

fn signal(rt: &Runtime, name: &str) -> Result<usize, DriveError> {
    rt.plan().signal_id(name).ok_or_else(|| DriveError::Interface(format!("no output `{name}`")))
}

impl FbdGame {
    /// A game on `plan` with runtime seed `seed`.
    pub fn new(plan: ScanPlan, seed: u64) -> Result<FbdGame, DriveError> {
        let rt = Runtime::with_seed(plan, seed);
        let mut cells = [0; 16];
        for (i, c) in cells.iter_mut().enumerate() {
            *c = signal(&rt, &format!("v{}{}", i / 4 + 1, i % 4 + 1))?;
        }
        if rt.plan().input("command").is_none() {
            return Err(DriveError::Interface("no input `command`".into()));
        }
        Ok(FbdGame {
            cells,
            score: signal(&rt, "score")?,
            busy: signal(&rt, "busy")?,
            game_over: signal(&rt, "game_over")?,
            win: signal(&rt, "win")?,
            best: signal(&rt, "best")?,
            selector_held: false,
            rt,
        })
    }

    /// A game on an embedded wiring.
    pub fn embedded(w: Wiring, seed: u64) -> Result<FbdGame, Box<dyn std::error::Error>> {
        Ok(FbdGame::new(w.compile()?, seed)?)
    }

    fn int(&self, id: usize) -> i64 {
        front::int(self.rt.read_signal(id))
    }

    /// The 16 cell values, row-major.
    pub fn values(&self) -> [i64; 16] {
        std::array::from_fn(|i| self.int(self.cells[i]))
    }

    /// The board as a bitboard, or the first cell that holds no tile value.
    pub fn board(&self) -> Result<Board, DriveError> {
        let v = self.values();
        let mut u = [0u32; 16];
        for (i, x) in v.iter().enumerate() {
            u[i] = u32::try_from(*x).map_err(|_| DriveError::BadCell { index: i, value: *x })?;
        }
        ref2048::from_values(&u).ok_or_else(|| {
            let i = u.iter().position(|&x| x != 0 && (!x.is_power_of_two() || x < 2)).unwrap_or(0);
            DriveError::BadCell { index: i, value: v[i] }
        })
    }

    /// The score.
    pub fn score(&self) -> i64 {
        self.int(self.score)
    }
    /// The best score of this run.
    pub fn best(&self) -> i64 {
        self.int(self.best)
    }
    /// The lockout lamp.
    pub fn busy(&self) -> bool {
        self.rt.read_signal(self.busy).as_bool()
    }
    /// The game-over lamp.
    pub fn game_over(&self) -> bool {
        self.rt.read_signal(self.game_over).as_bool()
    }
    /// The win lamp (a 2048 tile).
    pub fn win(&self) -> bool {
        self.rt.read_signal(self.win).as_bool()
    }

    /// Scans until the lockout releases; returns the scans run.
    pub fn settle(&mut self) -> Result<u64, DriveError> {
        let mut n = 0;
        while self.busy() {
            if n >= SCAN_LIMIT {
                return Err(DriveError::Stuck { scans: n });
            }
            self.rt.step();
            n += 1;
        }
        Ok(n)
    }

    /// Sends a command: waits for the lockout, puts the selector on the position for one scan,
    /// then scans until the lockout releases. Returns the scans the command took, counting the
    /// scan that accepted it (at least 1). If the selector was on a position in the last scan
    /// (a command that completed in one scan), it first returns to 0 for one idle scan, as an
    /// operator's hand does: the program acts on the change to a position.
    pub fn command(&mut self, c: Command) -> Result<u64, DriveError> {
        self.settle()?;
        if self.selector_held {
            self.rt.step();
            self.selector_held = false;
        }
        self.rt.pulse_input("command", Value::Int(c.position())).map_err(|e| DriveError::Interface(e.to_string()))?;
        self.rt.step();
        let more = self.settle()?;
        self.selector_held = more == 0;
        Ok(1 + more)
    }

    /// Puts a board on the field by writing the 16 cell memories, then runs one idle scan so that
    /// every delayed copy (feedback wires, `prev` outputs) sees it.
    pub fn set_board(&mut self, b: Board) -> Result<(), DriveError> {
        self.settle()?;
        self.selector_held = false;
        let v = ref2048::to_values(b);
        for (i, x) in v.iter().enumerate() {
            let path = format!("cell_{}_{}/mem.q", i / 4 + 1, i % 4 + 1);
            self.rt.write_now(&path, Value::Int(*x as i64)).map_err(|e| DriveError::Interface(e.to_string()))?;
        }
        self.rt.step();
        Ok(())
    }
}

/// What went wrong with one command, judged by the reference.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// The board before the command.
    pub before: Board,
    /// The move.
    pub dir: Dir,
    /// What the reference expects after the move, before the spawn.
    pub expected: Board,
    /// What the FBD program shows.
    pub got: Board,
    /// What is wrong.
    pub why: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} after {:?}:", self.why, self.dir)?;
        writeln!(
            f,
            "before:\n{}expected (before the spawn):\n{}got:\n{}",
            ref2048::render(self.before),
            ref2048::render(self.expected),
            ref2048::render(self.got)
        )
    }
}

/// Judges one move: `after` must be the reference move of `before` plus exactly one spawn, or
/// `before` unchanged when the reference says nothing moves; the score must grow by the
/// reference's gain and the game-over lamp must agree with the rules.
pub fn check_command(before: Board, dir: Dir, after: Board, score_gain: i64, game_over: bool) -> Result<(), Mismatch> {
    let (expected, gain) = ref2048::make_move(before, dir);
    let fail = |why: String| Mismatch { before, dir, expected, got: after, why };
    if expected == before {
        if after != before {
            return Err(fail("the board changed although nothing can move".into()));
        }
    } else if !ref2048::is_one_spawn(expected, after) {
        return Err(fail("the board is not the reference move plus exactly one spawn".into()));
    }
    if score_gain != gain as i64 {
        return Err(fail(format!("score grew by {score_gain}, the reference says {gain}")));
    }
    if game_over != ref2048::is_game_over(after) {
        return Err(fail(format!("game over lamp is {game_over}, the rules say {}", !game_over)));
    }
    Ok(())
}

/// Scans per command over many games: what the design measured as "processing time".
#[derive(Clone, Debug, Default)]
pub struct Latency {
    /// Games played to the end (game over) or to the move cap.
    pub games: u64,
    /// Histogram: `moves[n]` = moves that changed the board and took `n` scans (spawn included).
    pub moves: Vec<u64>,
    /// Histogram of commands that changed nothing.
    pub no_ops: Vec<u64>,
    /// Histogram of Start commands (two tiles).
    pub starts: Vec<u64>,
    /// Differences from the reference (must be zero).
    pub mismatches: u64,
    /// The first mismatch, for the report.
    pub first_mismatch: Option<String>,
    /// Scan cycle of the program, ms.
    pub cycle_ms: f64,
}

/// Summary statistics of a histogram of scans.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Samples.
    pub count: u64,
    /// Mean scans.
    pub mean: f64,
    /// Median scans.
    pub p50: u64,
    /// 99th percentile.
    pub p99: u64,
    /// Maximum.
    pub max: u64,
}

/// Summarises a histogram (`h[n]` = samples of value `n`).
pub fn summarize(h: &[u64]) -> Summary {
    let count: u64 = h.iter().sum();
    if count == 0 {
        return Summary::default();
    }
    let mean = h.iter().enumerate().map(|(n, &c)| n as f64 * c as f64).sum::<f64>() / count as f64;
    let quantile = |q: f64| {
        let target = ((count as f64) * q).ceil().max(1.0) as u64;
        let mut acc = 0;
        for (n, &c) in h.iter().enumerate() {
            acc += c;
            if acc >= target {
                return n as u64;
            }
        }
        h.len() as u64 - 1
    };
    let max = h.iter().rposition(|&c| c > 0).unwrap_or(0) as u64;
    Summary { count, mean, p50: quantile(0.5), p99: quantile(0.99), max }
}

fn bump(h: &mut Vec<u64>, n: u64) {
    let n = n as usize;
    if h.len() <= n {
        h.resize(n + 1, 0);
    }
    h[n] += 1;
}

/// Plays `games` games of uniformly random moves (seeded) through the program, judging every
/// command against the reference, and records how many scans each command took. A game ends
/// at game over or after `max_moves` moves.
pub fn measure_latency(plan: &ScanPlan, games: u64, seed: u64, max_moves: u64) -> Result<Latency, DriveError> {
    let mut g = FbdGame::new(plan.clone(), seed)?;
    let mut lat = Latency { cycle_ms: plan.cycle_us as f64 / 1000.0, ..Latency::default() };
    // A small xorshift for the moves, so the measurement does not depend on the runtime's RANDOM.
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..games {
        let n = g.command(Command::Start)?;
        bump(&mut lat.starts, n);
        let mut moves = 0;
        while moves < max_moves {
            let before = g.board()?;
            if g.game_over() || ref2048::is_game_over(before) {
                break;
            }
            let dir = Dir::ALL[(next() % 4) as usize];
            let s0 = g.score();
            let n = g.command(Command::Move(dir))?;
            let after = g.board()?;
            if let Err(m) = check_command(before, dir, after, g.score() - s0, g.game_over()) {
                lat.mismatches += 1;
                if lat.first_mismatch.is_none() {
                    lat.first_mismatch = Some(m.to_string());
                }
                // Continue from what the program shows.
            }
            if after == before {
                bump(&mut lat.no_ops, n);
            } else {
                bump(&mut lat.moves, n);
                moves += 1;
            }
        }
        lat.games += 1;
    }
    Ok(lat)
}

/// Where spawned tiles land and what they are.
#[derive(Clone, Debug, Default)]
pub struct SpawnStats {
    /// Spawns observed.
    pub spawns: u64,
    /// Of which 4s.
    pub fours: u64,
    /// Spawns per cell.
    pub observed: [u64; 16],
    /// Expected spawns per cell if the spawn were uniform among the empty cells
    /// (the sum of 1/empties over the spawns where the cell was empty).
    pub expected: [f64; 16],
}

impl SpawnStats {
    /// Share of 4s.
    pub fn four_share(&self) -> f64 {
        self.fours as f64 / self.spawns.max(1) as f64
    }

    /// Pearson's chi-square of the cell counts against uniform-among-empty (15 degrees of freedom).
    pub fn chi_square(&self) -> f64 {
        self.observed
            .iter()
            .zip(&self.expected)
            .filter(|(_, e)| **e > 0.0)
            .map(|(&o, &e)| (o as f64 - e).powi(2) / e)
            .sum()
    }

    /// The largest ratio observed / expected and the smallest, over the cells.
    pub fn ratio_range(&self) -> (f64, f64) {
        let r: Vec<f64> = self.observed.iter().zip(&self.expected).map(|(&o, &e)| o as f64 / e).collect();
        (r.iter().copied().fold(f64::INFINITY, f64::min), r.iter().copied().fold(0.0, f64::max))
    }

    fn record(&mut self, before: Board, after: Board) {
        let empties: Vec<usize> = (0..16).filter(|&i| ref2048::cell(before, i) == 0).collect();
        for i in 0..16 {
            let (b, a) = (ref2048::cell(before, i), ref2048::cell(after, i));
            if b == 0 && a != 0 {
                self.spawns += 1;
                self.fours += (a == 2) as u64;
                self.observed[i] += 1;
            }
        }
        for &i in &empties {
            self.expected[i] += 1.0 / empties.len() as f64;
        }
    }
}

/// Collects spawn statistics from `moves` random moves that changed the board.
pub fn measure_spawns(plan: &ScanPlan, moves: u64, seed: u64) -> Result<SpawnStats, DriveError> {
    let mut g = FbdGame::new(plan.clone(), seed)?;
    let mut st = SpawnStats::default();
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    g.command(Command::Start)?;
    let mut n = 0;
    while n < moves {
        let before = g.board()?;
        if ref2048::is_game_over(before) {
            g.command(Command::Start)?;
            continue;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let dir = Dir::ALL[(x % 4) as usize];
        let (expected, _) = ref2048::make_move(before, dir);
        if expected == before {
            continue;
        }
        g.command(Command::Move(dir))?;
        st.record(expected, g.board()?);
        n += 1;
    }
    Ok(st)
}
