//! The online commands, as CODESYS's Online and Debug menus have them: run, pause and stop,
//! cycles forward and back, write and force the prepared values, release every force, reset
//! cold. The hotkeys (`keys.rs`), the Debug menu (`menu.rs`) and the debugger's buttons call
//! these, so a key and its menu item cannot drift apart.

use fbd_engine::runtime::requests::{ReleaseAll, Step, StepBack};

use crate::app::App;
use crate::source;

impl App {
    /// Steps `n` scans back (the task pauses first), as if they had not run.
    pub fn step_back(&mut self, n: u64) -> Result<u64, String> {
        self.pause();
        let r = self.runner.call(StepBack(n)).map_err(|e| e.to_string());
        self.note_altered();
        self.refresh();
        r
    }

    /// Runs `n` scans now (used while paused, and by tests).
    pub fn run_scans(&mut self, n: u64) {
        self.cancel_seek();
        self.cancel_forward();
        self.runner.call(Step(n));
        self.refresh();
    }

    /// Pauses the scan thread.
    pub fn pause(&mut self) {
        // The debugger takes over from where a seek or a fast-forward got to.
        self.cancel_seek();
        self.cancel_forward();
        self.runner.pause();
    }

    /// Resumes the scan thread.
    pub fn resume(&mut self) {
        // Running live from where a seek or a fast-forward got to: it ends there.
        self.cancel_seek();
        self.cancel_forward();
        self.runner.resume();
        // Messages about where a stepped or fast-forwarded run stopped no longer hold.
        if self.dbg.message.ends_with("(paused)") {
            self.dbg.message.clear();
        }
    }

    /// F5: runs the task if it is paused, pauses it if it runs.
    pub fn online_run_or_pause(&mut self) {
        if self.runner.is_paused() { self.resume() } else { self.pause() }
    }

    /// Ctrl+F5 (and F10): one cycle, pausing the task first.
    pub fn online_one_cycle(&mut self) {
        if !self.runner.is_paused() {
            self.pause();
        }
        self.run_scans(1);
    }

    /// Shift+F10: the debugger's N cycles, pausing the task first.
    pub fn online_n_cycles(&mut self) {
        if !self.runner.is_paused() {
            self.pause();
        }
        self.fast_forward(None, self.dbg.step_n.max(1));
    }

    /// Shift+F8: stops the task (it stays stopped until run again).
    pub fn online_stop(&mut self) {
        if !self.runner.is_paused() {
            self.pause();
        }
    }

    /// Ctrl+F7 (`force` false) and F7 (`force` true): writes or forces the prepared values,
    /// together in one scan.
    pub fn online_prepared(&mut self, force: bool) {
        if self.dbg.prepared.is_empty() {
            self.dbg.message = "nothing is prepared: prepare values in the signal editor first".into();
        } else if force {
            self.force_prepared();
        } else {
            self.write_prepared();
        }
    }

    /// Alt+F7: releases every force.
    pub fn online_release_all(&mut self) {
        self.runner.call(ReleaseAll);
        self.dbg.message = "all forces released".into();
        self.refresh();
    }

    /// Reset cold: the running program starts again from its initial values, scan 0, no forces
    /// (what a download of the same program does, without reading its file again: after an
    /// Apply from the editor the file may be another program, or there is none). The task
    /// keeps running or stays paused; the editor's work, the watches and the breakpoints stay.
    pub fn reset_cold(&mut self) -> Result<(), String> {
        let l = source::Loaded {
            origin: self.loaded.origin.clone(),
            project: self.loaded.project.clone(),
            unsaved: self.loaded.unsaved,
            warnings: self.loaded.warnings.clone(),
        };
        let plan = fbd_engine::compile_project(&l.project, &Default::default())
            .map_err(|e| format!("{}: cannot restart: {e}", l.label()))?;
        let ws = self.editor.ws.take();
        let body = self.editor.body.clone();
        let note = self.cold_start(l, plan);
        self.editor.ws = ws;
        self.editor.body = body;
        self.status = format!("{}: reset cold (initial values, scan 0){note}", self.loaded.label());
        self.refresh();
        Ok(())
    }
}
