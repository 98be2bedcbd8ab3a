//! Conditions on signals, checked after a scan: the run-until (fast-forward) command and the
//! breakpoints the real-time task pauses on.

use std::fmt;

use super::{Runtime, RuntimeError};
use fbd_model::types::{Type, Value};
use fbd_plan::Slot;

/// A condition for [`Runtime::run_until`], checked after every scan.
#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    /// The signal went FALSE→TRUE (numbers: zero→non-zero) in this scan.
    Rises(String),
    /// The signal went TRUE→FALSE in this scan.
    Falls(String),
    /// The signal equals the value after this scan.
    Equals(String, Value),
    /// The signal changed in this scan.
    Changes(String),
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Condition::Rises(p) => write!(f, "rises:{p}"),
            Condition::Falls(p) => write!(f, "falls:{p}"),
            Condition::Changes(p) => write!(f, "changes:{p}"),
            Condition::Equals(p, v) => write!(f, "{p}={v}"),
        }
    }
}

impl Condition {
    /// Whether the condition holds after a scan that took the signal from `before` to `now`
    /// (`ty` is the signal's type).
    pub(super) fn holds(&self, ty: Type, before: Value, now: Value) -> bool {
        match self {
            Condition::Rises(_) => !before.as_bool() && now.as_bool(),
            Condition::Falls(_) => before.as_bool() && !now.as_bool(),
            Condition::Changes(_) => !before.same_bits(now),
            Condition::Equals(_, v) => v.coerce(ty).is_some_and(|v| v.same_bits(now)),
        }
    }

    /// The signal path the condition watches.
    pub fn path(&self) -> &str {
        match self {
            Condition::Rises(p) | Condition::Falls(p) | Condition::Equals(p, _) | Condition::Changes(p) => p,
        }
    }

    /// Parses `rises:PATH`, `falls:PATH`, `changes:PATH` or `PATH=VALUE`.
    pub fn parse(text: &str) -> Result<Condition, String> {
        if let Some(p) = text.strip_prefix("rises:") {
            return Ok(Condition::Rises(p.to_string()));
        }
        if let Some(p) = text.strip_prefix("falls:") {
            return Ok(Condition::Falls(p.to_string()));
        }
        if let Some(p) = text.strip_prefix("changes:") {
            return Ok(Condition::Changes(p.to_string()));
        }
        if let Some((p, v)) = text.split_once('=') {
            let v = v.trim();
            let value = match v {
                "true" | "TRUE" => Value::Bool(true),
                "false" | "FALSE" => Value::Bool(false),
                _ => match v.parse::<i64>() {
                    Ok(i) => Value::Int(i),
                    Err(_) => v.parse::<f64>().map(Value::Real).map_err(|_| format!("`{v}` is not a value"))?,
                },
            };
            return Ok(Condition::Equals(p.trim().to_string(), value));
        }
        Err(format!("cannot parse condition `{text}`; use rises:PATH, falls:PATH, changes:PATH or PATH=VALUE"))
    }
}

/// A breakpoint: a condition checked after every scan of the running program.
#[derive(Clone, Debug)]
pub(super) struct Breakpoint {
    pub(super) cond: Condition,
    pub(super) slot: Slot,
    pub(super) before: Value,
    pub(super) enabled: bool,
    pub(super) hits: u64,
}

/// What the debugger shows of a breakpoint.
#[derive(Clone, Debug, PartialEq)]
pub struct BreakpointInfo {
    /// The condition, as `rises:PATH`, `falls:PATH`, `changes:PATH` or `PATH=VALUE`.
    pub condition: Condition,
    /// Whether it is checked.
    pub enabled: bool,
    /// How often it held.
    pub hits: u64,
}

/// Why [`Runtime::run_until`] stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// Condition `index` held after the last scan; `scans` scans were run.
    Condition {
        /// Which condition.
        index: usize,
        /// Scans run.
        scans: u64,
    },
    /// The scan limit was reached.
    Limit,
}

impl Runtime {
    /// The slot each condition watches, checking that compared values have its type.
    pub(super) fn condition_slots(&self, conds: &[Condition]) -> Result<Vec<Slot>, RuntimeError> {
        let slots: Vec<Slot> =
            conds.iter().map(|c| self.resolve(c.path()).map(|(_, s)| s)).collect::<Result<_, _>>()?;
        for (c, s) in conds.iter().zip(&slots) {
            if let Condition::Equals(p, v) = c
                && v.coerce(s.ty).is_none()
            {
                return Err(RuntimeError::TypeMismatch { path: p.clone(), expected: s.ty, got: v.ty() });
            }
        }
        Ok(slots)
    }

    /// Scans until one of `conds` holds after a scan, or `limit` scans ran.
    pub fn run_until(&mut self, conds: &[Condition], limit: u64) -> Result<StopReason, RuntimeError> {
        let slots = self.condition_slots(conds)?;
        let mut before: Vec<Value> = slots.iter().map(|s| self.state.get(*s)).collect();
        for k in 1..=limit {
            self.step();
            for (i, (c, s)) in conds.iter().zip(&slots).enumerate() {
                let now = self.state.get(*s);
                if c.holds(s.ty, before[i], now) {
                    return Ok(StopReason::Condition { index: i, scans: k });
                }
                before[i] = now;
            }
        }
        Ok(StopReason::Limit)
    }

    /// Adds a breakpoint: after every scan in which `cond` holds, [`Runtime::take_breakpoint_hit`]
    /// reports it (the real-time runner pauses). Returns its index.
    pub fn add_breakpoint(&mut self, cond: Condition) -> Result<usize, RuntimeError> {
        let (_, slot) = self.resolve(cond.path())?;
        if let Condition::Equals(p, v) = &cond
            && v.coerce(slot.ty).is_none()
        {
            return Err(RuntimeError::TypeMismatch { path: p.clone(), expected: slot.ty, got: v.ty() });
        }
        let before = self.state.get(slot);
        self.breakpoints.push(Breakpoint { cond, slot, before, enabled: true, hits: 0 });
        self.rebuild_break_paths();
        Ok(self.breakpoints.len() - 1)
    }

    /// Removes breakpoint `i` (later ones move up).
    pub fn remove_breakpoint(&mut self, i: usize) {
        if i < self.breakpoints.len() {
            self.breakpoints.remove(i);
            self.last_hit = None;
            self.rebuild_break_paths();
        }
    }

    /// Enables or disables breakpoint `i`.
    pub fn enable_breakpoint(&mut self, i: usize, on: bool) {
        if let Some(b) = self.breakpoints.get_mut(i) {
            b.enabled = on;
        }
        self.rebuild_break_paths();
    }

    /// The paths the enabled breakpoints watch, shared with scan images.
    pub(super) fn rebuild_break_paths(&mut self) {
        self.break_paths = std::sync::Arc::new(
            self.breakpoints.iter().filter(|b| b.enabled).map(|b| b.cond.path().to_string()).collect(),
        );
        self.break_list = std::sync::Arc::new(self.breakpoints.iter().map(|b| (b.cond.clone(), b.enabled)).collect());
    }

    /// The breakpoints, in order.
    pub fn breakpoints(&self) -> Vec<BreakpointInfo> {
        self.breakpoints
            .iter()
            .map(|b| BreakpointInfo { condition: b.cond.clone(), enabled: b.enabled, hits: b.hits })
            .collect()
    }

    /// The last breakpoint hit: its index and the scan it held in, counted as
    /// [`Runtime::scan_count`] counts (the third scan is 3), so that it equals the scan count
    /// while the task is paused right after it.
    pub fn last_breakpoint_hit(&self) -> Option<(usize, u64)> {
        self.last_hit
    }

    /// Whether a scan hit a breakpoint since the last call (and clears it).
    pub fn take_breakpoint_hit(&mut self) -> bool {
        std::mem::take(&mut self.hit_pending)
    }

    /// After a scan: every enabled breakpoint whose condition held counts a hit; the first
    /// one marks the scan for the real-time task. Allocates nothing.
    pub(super) fn check_breakpoints(&mut self) {
        for (i, b) in self.breakpoints.iter_mut().enumerate() {
            let now = self.state.get(b.slot);
            let hit = b.enabled && b.cond.holds(b.slot.ty, b.before, now);
            b.before = now;
            if hit {
                b.hits += 1;
                if !self.hit_pending {
                    // The scan counts when it ends (check_breakpoints runs just before).
                    self.last_hit = Some((i, self.scan + 1));
                    self.hit_pending = true;
                }
            }
        }
    }
}
