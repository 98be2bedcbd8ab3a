//! The game front end every UI shares (the HMI, the terminal): the program's 2048 interface
//! found by name, what a frame shows read from the scan image, and the command queue that
//! sends one pulse of the selector at a time when the lockout allows it, measures the scans
//! each command took, and drives an automated player.

use std::collections::VecDeque;
use std::time::Instant;

use fbd_engine::realtime::TaskHandle;
use fbd_engine::runtime::requests::{Histories, Request};
use fbd_engine::runtime::{Runtime, RuntimeError};
use fbd_engine::{ScanImage, ScanPlan, Value};

use crate::Command;

/// Signal ids of the 2048 interface, when the running program has it.
#[derive(Clone, Debug)]
pub struct GameIo {
    /// `v11`..`v44`, row-major.
    pub cells: [usize; 16],
    /// `score`.
    pub score: usize,
    /// `best`.
    pub best: usize,
    /// `busy` (the lockout lamp).
    pub busy: usize,
    /// `game_over`.
    pub game_over: usize,
    /// `win`.
    pub win: usize,
    /// Each cell's memory (`cell_R_C/mem.q`), to mark forced cells.
    pub cell_mem: [Option<usize>; 16],
}

impl GameIo {
    /// The interface of `plan`, if it is a 2048 program (the outputs and the `command` input).
    pub fn find(plan: &ScanPlan) -> Option<GameIo> {
        let id = |n: &str| plan.signal_id(n);
        let mut cells = [0; 16];
        for (i, c) in cells.iter_mut().enumerate() {
            *c = id(&format!("v{}{}", i / 4 + 1, i % 4 + 1))?;
        }
        plan.input("command")?;
        let cell_mem = std::array::from_fn(|i| id(&format!("cell_{}_{}/mem.q", i / 4 + 1, i % 4 + 1)));
        Some(GameIo {
            cells,
            score: id("score")?,
            best: id("best")?,
            busy: id("busy")?,
            game_over: id("game_over")?,
            win: id("win")?,
            cell_mem,
        })
    }
}

/// A signal of the 2048 program as a number (its signals are BOOL and DINT; a STRING reads 0).
pub(crate) fn int(v: Value) -> i64 {
    match v {
        Value::Int(i) | Value::Time(i) => i,
        Value::ULInt(u) => u as i64,
        Value::Bool(b) => b as i64,
        Value::Real(r) => r as i64,
        Value::Str(_) => 0,
    }
}

/// What a frame shows.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// The 16 cells, row-major.
    pub values: [i64; 16],
    /// Which cells are forced.
    pub forced: [bool; 16],
    /// The score.
    pub score: i64,
    /// The program's best memory.
    pub best: i64,
    /// The lockout lamp.
    pub busy: bool,
    /// Game over.
    pub game_over: bool,
    /// 2048 reached.
    pub win: bool,
    /// Scans run.
    pub scan: u64,
    /// The simulated clock in ms.
    pub clock_ms: u64,
    /// A pulse waits for its scan.
    pub pulse_pending: bool,
}

impl View {
    /// Reads a frame from the scan image (`io`: the 2048 interface, if the program has it).
    pub fn read(io: Option<&GameIo>, img: &ScanImage) -> View {
        let mut v =
            View { scan: img.scan, clock_ms: img.clock_us / 1000, pulse_pending: img.pulse_pending, ..View::default() };
        if let Some(g) = io {
            for i in 0..16 {
                v.values[i] = int(img.read_signal(g.cells[i]));
                v.forced[i] = g.cell_mem[i].is_some_and(|s| img.is_forced(s));
            }
            v.score = int(img.read_signal(g.score));
            v.best = int(img.read_signal(g.best));
            v.busy = img.read_signal(g.busy).as_bool();
            v.game_over = img.read_signal(g.game_over).as_bool();
            v.win = img.read_signal(g.win).as_bool();
        }
        v
    }
}

/// What one [`Front::pump`] did that a UI shows.
#[derive(Debug, Default)]
pub struct Pumped {
    /// A command was sent this time.
    pub sent: Option<Command>,
    /// A line for the status bar (an automated player stopped).
    pub status: Option<String>,
}

/// The command queue, the scans-per-command measurement and the automated player.
pub struct Front {
    queue: VecDeque<Command>,
    last_pulse_scan: Option<u64>,
    awaiting: Option<u64>,
    /// Scans the last command took, from the pulse to the lockout's release.
    pub scans_last: Option<u64>,
    /// The most any command took.
    pub scans_max: u64,
    autoplay: Option<Box<dyn players::Player>>,
    /// The command in flight is a Start or a Reset.
    awaiting_new_game: bool,
    /// The player chosen (see `players::NAMES`).
    pub autoplay_name: String,
    /// Moves per second (0: as fast as the lockout allows).
    pub autoplay_speed: f64,
    last_auto: Instant,
    /// Moves the player has sent.
    pub autoplay_moves: u64,
    /// The game in progress was changed from outside the program (a write, a force, a set
    /// board) or began under another program: its score is not a best.
    pub game_altered: bool,
}

impl Default for Front {
    fn default() -> Self {
        Front {
            queue: VecDeque::new(),
            last_pulse_scan: None,
            awaiting: None,
            scans_last: None,
            scans_max: 0,
            autoplay: None,
            awaiting_new_game: false,
            autoplay_name: "expectimax".into(),
            autoplay_speed: 10.0,
            last_auto: Instant::now(),
            autoplay_moves: 0,
            game_altered: false,
        }
    }
}

impl Front {
    /// Queues a command; [`Front::pump`] sends it when the lockout allows.
    pub fn send(&mut self, c: Command) {
        self.queue.push_back(c);
    }

    /// Forgets queued and in-flight commands (another program was loaded).
    pub fn clear(&mut self) {
        self.queue.clear();
        self.restarted();
    }

    /// Forgets the pulse in flight and when the last one went: the runtime started again
    /// from scan 0 (a cold start, a recording begun, a program reopened), so scans counted
    /// before mean nothing now. Queued commands stay queued.
    pub fn restarted(&mut self) {
        self.awaiting = None;
        self.last_pulse_scan = None;
    }

    /// Whether a command is in flight (sent, lockout not yet released).
    pub fn in_flight(&self) -> bool {
        self.awaiting.is_some()
    }

    /// Whether a Start or Reset is in flight: until it lands, the outputs still show the old
    /// game's score (which may have been altered from outside).
    pub fn new_game_in_flight(&self) -> bool {
        self.awaiting.is_some() && self.awaiting_new_game
    }

    /// Whether every queued command was sent and the lockout released.
    pub fn settled(&self, view: &View) -> bool {
        self.queue.is_empty() && !view.busy && !view.pulse_pending && self.awaiting.is_none()
    }

    /// Starts the automated player `name` seeded with `seed`; `speed` in moves per second.
    pub fn start_autoplay(&mut self, name: &str, speed: f64, seed: u64) -> bool {
        self.autoplay = players::by_name(name, seed);
        self.autoplay_name = name.to_string();
        self.autoplay_speed = speed;
        self.autoplay_moves = 0;
        self.autoplay.is_some()
    }

    /// The automated player driving now, if one is (its name: the selection may have changed).
    pub fn autoplay_player(&self) -> Option<&'static str> {
        self.autoplay.as_ref().map(|p| p.name())
    }

    /// While a player drives, the player selected in `autoplay_name` takes over from the one
    /// driving (seeded with `seed`), the moves counted on; whether it did.
    pub fn follow_selected_player(&mut self, seed: u64) -> bool {
        if self.autoplay.is_none() || self.autoplay_player() == Some(self.autoplay_name.as_str()) {
            return false;
        }
        match players::by_name(&self.autoplay_name, seed) {
            Some(p) => {
                self.autoplay = Some(p);
                true
            }
            None => false,
        }
    }

    /// Stops the automated player.
    pub fn stop_autoplay(&mut self) {
        self.autoplay = None;
    }

    /// Whether an automated player is driving.
    pub fn autoplaying(&self) -> bool {
        self.autoplay.is_some()
    }

    /// One step, once per frame: finish measuring the command in flight (from the lockout's
    /// history, exact even when frames are late), let the player choose, and send the next
    /// queued command if the lockout allows. `best_record` is what the program's best memory
    /// restarts from at a new game.
    pub fn pump(&mut self, runner: &TaskHandle, view: &View, best_record: i64) -> Pumped {
        let mut out = Pumped::default();
        // A scan counter behind the last pulse: the runtime was started again under us. Waiting
        // for it to pass that scan again would leave the keys dead for as long as it ran before.
        if self.last_pulse_scan.is_some_and(|s| view.scan < s) || self.awaiting.is_some_and(|s| view.scan < s) {
            self.restarted();
        }
        if let Some(sent) = self.awaiting
            && !view.busy
            && !view.pulse_pending
            && view.scan > sent
        {
            let hist = runner.call(Histories(vec!["busy".into()])).pop().unwrap_or_default();
            if let Some(r) = hist.iter().find(|(s, v)| *s >= sent && !v.as_bool()).map(|(s, _)| *s) {
                let n = r - sent + 1;
                self.scans_last = Some(n);
                self.scans_max = self.scans_max.max(n);
            }
            self.awaiting = None;
        }
        if self.autoplay.is_some() && self.queue.is_empty() && self.awaiting.is_none() && !view.busy {
            let due = self.autoplay_speed <= 0.0 || self.last_auto.elapsed().as_secs_f64() >= 1.0 / self.autoplay_speed;
            let board = view.values.map(|v| u32::try_from(v).unwrap_or(0));
            match ref2048::from_values(&board) {
                Some(b) if due => match self.autoplay.as_mut().and_then(|p| p.choose(b)) {
                    Some(d) => {
                        self.queue.push_back(Command::Move(d));
                        self.last_auto = Instant::now();
                        self.autoplay_moves += 1;
                    }
                    None => {
                        self.autoplay = None;
                        out.status = Some(format!("autoplay ({}) stopped: no move left", self.autoplay_name));
                    }
                },
                Some(_) => {}
                None => {
                    self.autoplay = None;
                    out.status = Some("autoplay stopped: the board holds a value that is not a tile".into());
                }
            }
        }
        let ready = !view.busy
            && !view.pulse_pending
            && self.awaiting.is_none()
            && self.last_pulse_scan.is_none_or(|s| view.scan >= s + 2);
        if ready && let Some(c) = self.queue.pop_front() {
            let scan = view.scan;
            let start_best = (c == Command::Start).then_some(best_record);
            if let Ok(forces_held) = runner.call(PulseCommand { position: c.position(), start_best }) {
                self.last_pulse_scan = Some(scan);
                self.awaiting = Some(scan);
                if c == Command::Start {
                    // A new game counts, unless a force still holds.
                    self.game_altered = forces_held;
                }
                self.awaiting_new_game = matches!(c, Command::Start | Command::Reset);
                out.sent = Some(c);
            }
        }
        out
    }
}

/// A game command as the program reads it: a pulse of its `command` input for one scan. For
/// Start, the program's best memory restarts from the record (a game altered before may have
/// raised it), in the same gap between scans. Answers whether any force holds.
struct PulseCommand {
    position: i64,
    start_best: Option<i64>,
}

impl Request for PulseCommand {
    type Reply = Result<bool, RuntimeError>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        rt.pulse_input("command", Value::Int(self.position))?;
        if let Some(best) = self.start_best {
            let _ = rt.write_now("best.q", Value::Int(best));
            let _ = rt.write_now("best.prev", Value::Int(best));
        }
        Ok(!rt.forced().is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Wiring;
    use fbd_engine::Runtime;

    /// Commands queue up, go out one pulse at a time when the lockout allows, and each one's
    /// scans are measured; a player drives the same queue.
    #[test]
    fn the_queue_sends_one_command_at_a_time_and_measures_it() {
        let plan = Wiring::Upd1.compile().expect("compiles");
        let io = GameIo::find(&plan).expect("a 2048 program");
        let mut rt = Runtime::with_seed(plan, 3);
        rt.watch("busy", 4096).expect("watch");
        let runner = fbd_engine::realtime::RealtimeRunner::start_with(rt, None, true);
        let mut front = Front::default();
        front.send(Command::Start);
        front.send(Command::Move(ref2048::Dir::Left));
        let mut sent = Vec::new();
        for _ in 0..200 {
            let view = View::read(Some(&io), &runner.image());
            if let Some(c) = front.pump(&runner.handle(), &view, 0).sent {
                sent.push(c);
            }
            if front.settled(&view) && sent.len() == 2 {
                break;
            }
            runner.with(|rt| rt.step());
        }
        assert_eq!(sent, vec![Command::Start, Command::Move(ref2048::Dir::Left)], "in order, one at a time");
        assert!(front.scans_last.is_some_and(|n| n >= 1) && front.scans_max >= 1, "measured");
        let view = View::read(Some(&io), &runner.image());
        assert!(view.values.iter().filter(|v| **v != 0).count() >= 2, "a game is on the board");
        // A player queues its own moves.
        assert!(front.start_autoplay("greedy", 0.0, 1));
        for _ in 0..400 {
            let view = View::read(Some(&io), &runner.image());
            front.pump(&runner.handle(), &view, 0);
            runner.with(|rt| rt.step());
        }
        assert!(front.autoplay_moves >= 5, "{} moves", front.autoplay_moves);
    }

    /// After a cold start (the runtime replaced, its scans counted from 0 again) the next key
    /// goes out at once, not when the scan counter passes the scan of the last command before.
    #[test]
    fn a_cold_start_does_not_hold_the_queue() {
        let plan = Wiring::Upd1.compile().expect("compiles");
        let io = GameIo::find(&plan).expect("a 2048 program");
        let mut runner =
            fbd_engine::realtime::RealtimeRunner::start_with(Runtime::with_seed(plan.clone(), 3), None, true);
        let mut front = Front::default();
        // A game well on its way: the last pulse goes out late in the run.
        runner.with(|rt| {
            for _ in 0..5_000 {
                rt.step();
            }
        });
        front.send(Command::Start);
        let mut sent_at = None;
        for _ in 0..200 {
            let view = View::read(Some(&io), &runner.image());
            if front.pump(&runner.handle(), &view, 0).sent.is_some() {
                sent_at = Some(view.scan);
            }
            if front.settled(&view) && sent_at.is_some() {
                break;
            }
            runner.with(|rt| rt.step());
        }
        assert!(sent_at.is_some_and(|s| s >= 5_000), "the first command went out late in the run: {sent_at:?}");
        // Cold start, with a command in the queue and another one pressed after it.
        runner.replace(Runtime::with_seed(plan, 3));
        front.send(Command::Start);
        front.send(Command::Move(ref2048::Dir::Left));
        let mut sent = Vec::new();
        for _ in 0..100 {
            let view = View::read(Some(&io), &runner.image());
            if let Some(c) = front.pump(&runner.handle(), &view, 0).sent {
                sent.push((c, view.scan));
            }
            if front.settled(&view) && sent.len() == 2 {
                break;
            }
            runner.with(|rt| rt.step());
        }
        assert_eq!(sent.len(), 2, "both commands went out within 100 scans of the cold start: {sent:?}");
        assert!(sent.iter().all(|(_, scan)| *scan < 100), "{sent:?}");
    }
}
