//! Replays in the window: File > Open recording plays a recorded run back through its
//! program at the real cycle, and the replay bar is its timeline: the position, the recorded
//! events as ticks, a scrubber that seeks to any scan (back through the history, forward by
//! scanning), play/pause, a scan back or forward, and the first scan whose state differs from
//! the recording's.

use std::path::{Path, PathBuf};

use eframe::egui::{self, Color32, RichText, Sense};
use fbd_engine::Recording;
use fbd_engine::runtime::PlaybackStatus;
use fbd_engine::runtime::requests::{Playback, SeekToward, StartPlayback, StopPlayback};
use fbd2048_game::Wiring;

use crate::app::App;
use crate::debugger::slices::Slicer;
use crate::link::Link;
use crate::source::Origin;

/// The recording being played back.
pub(crate) struct Replay {
    /// Where it was read from.
    pub(crate) path: PathBuf,
    /// Its length in scans.
    pub(crate) scans: u64,
    /// The program's cycle in microseconds.
    pub(crate) cycle_us: u64,
    /// The scans events came before, without repeats.
    pub(crate) event_scans: Vec<u64>,
    /// The status as of the last pause (divergence, a failed event).
    pub(crate) status: Option<PlaybackStatus>,
    /// A seek still under way.
    pub(crate) seeking: Option<Seeking>,
}

/// A seek far ahead runs a slice of its scans each frame ([`crate::debugger::slices`]), so that the
/// window answers (and can stop it) while a long recording is scanned through: a legal
/// recording may hold 2^32 scans, an hour of scanning.
pub(crate) struct Seeking {
    /// The scan it goes to.
    pub(crate) target: u64,
    slicer: Slicer,
}

/// Where the recorded program comes from: its file, or the wiring built into the binary.
fn recorded_origin(rec: &Recording, path: &Path) -> Result<Origin, String> {
    let root =
        rec.program.files.first().ok_or_else(|| format!("{}: the recording names no program file", path.display()))?;
    if let Some(p) = rec.program_path(path) {
        return Ok(Origin::File(p));
    }
    Wiring::parse(&root.path)
        .map(Origin::Embedded)
        .ok_or_else(|| format!("{}: the recorded program {} is not here", path.display(), root.path))
}

impl App {
    /// Plays the recording at `path` (or one a file dialog picks) back through its program:
    /// a cold start with the recorded seed, then every recorded event before its scan.
    pub fn open_recording(&mut self, path: Option<PathBuf>) -> Result<(), String> {
        if self.unsaved_edits() > 0 {
            return Err("the editor has unsaved changes: save them (Ctrl+S) or undo them before playing a recording, which loads its own program".into());
        }
        let path = path
            .or_else(|| self.open_path(crate::path_prompt::PathAction::OpenRecording, ("fbd recording", &["json"])))
            .ok_or("type the path of the recording to open")?;
        // Bounded and regular files only, like a diagram: a device or a FIFO would never end.
        let rec = Recording::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let origin = recorded_origin(&rec, &path)?;
        // The program as loaded now must be the recorded one, or the replay is another run.
        let project = crate::source::load(&origin).map_err(|e| format!("{}: {e}", origin.label()))?.0.project;
        if let Some(why) = rec.program_differs(&project) {
            return Err(format!("{}: {why}; the replay would not be the recorded run", path.display()));
        }
        // At the recording's cycle, which a run may have set from outside the file
        // (`fbd serve --cycle`): the playback refused another.
        match crate::source::load_at(&origin, Some(rec.cycle_us)) {
            Ok((l, plan)) => {
                self.cold_start(l, plan);
            }
            Err(e) => {
                self.load_failed(&origin, e);
                return Err(format!("{}: its program does not load", path.display()));
            }
        }
        self.refresh();
        let replay = Replay {
            path: path.clone(),
            scans: rec.scans,
            cycle_us: rec.cycle_us,
            event_scans: {
                let mut s: Vec<u64> = rec.events.iter().map(|e| e.scan).collect();
                s.dedup();
                s
            },
            status: None,
            seeking: None,
        };
        self.runner.pause();
        self.runner.call(StartPlayback(Box::new(rec))).map_err(|e| format!("{}: {e}", path.display()))?;
        self.runner.resume();
        // A replayed game is not a new best.
        self.note_altered();
        self.status = format!("replaying {} ({} scans)", path.display(), replay.scans);
        self.replay = Some(replay);
        self.refresh();
        Ok(())
    }

    /// Moves the replay to scan `target` (the task pauses): back through the history, or
    /// forward by scanning. Returns the scan reached in this frame; a seek far ahead goes on
    /// a slice per frame ([`App::seek_target`]) until it arrives or is cancelled.
    pub fn seek(&mut self, target: u64) -> Result<u64, String> {
        self.runner.pause();
        let slicer = self.replay.as_mut().and_then(|r| r.seeking.take()).map(|s| s.slicer).unwrap_or_default();
        self.seek_slice(Seeking { target, slicer })
    }

    /// Where a seek under way goes, if one is.
    pub fn seek_target(&self) -> Option<u64> {
        self.replay.as_ref()?.seeking.as_ref().map(|s| s.target)
    }

    /// Stops a seek under way where it is.
    pub fn cancel_seek(&mut self) {
        if let Some(r) = self.replay.as_mut()
            && let Some(s) = r.seeking.take()
        {
            self.status = format!("stopped at scan {} on the way to {}", self.image().scan, s.target);
        }
    }

    /// Runs one slice of a seek and keeps the rest for the next frame.
    fn seek_slice(&mut self, mut s: Seeking) -> Result<u64, String> {
        let runner = &self.runner;
        let target = s.target;
        let r = s.slicer.run(|n| runner.call(SeekToward { target, at_most: n })).map_err(|e| e.to_string());
        if let Some(replay) = self.replay.as_mut() {
            replay.seeking = match &r {
                Ok(at) if *at != s.target => Some(s),
                _ => None,
            };
        }
        self.refresh();
        r
    }

    /// Ends the replay; the program runs on live from where it is.
    pub fn stop_replay(&mut self) {
        self.runner.call(StopPlayback);
        if let Some(r) = self.replay.take() {
            self.status = format!("replay of {} ended; running live", r.path.display());
        }
    }

    /// The replay's status: the scan reached, the first differing scan (while paused).
    pub fn replay_status(&self) -> Option<PlaybackStatus> {
        self.replay.as_ref()?;
        self.runner.call(Playback)
    }
    /// The replay bar, when a recording is being played back: the panel draws, the
    /// application carries out what was asked (pacing and seeking are its).
    pub(crate) fn replay_bar(&mut self, ui: &mut egui::Ui) {
        let img = self.image();
        let paused = self.runner.is_paused();
        let link = Link::new(&self.runner);
        let Some(r) = self.replay.as_mut() else { return };
        let asked = r.bar_ui(ui, img.scan, paused, link);
        if asked.play {
            self.resume();
        }
        if asked.pause {
            self.pause();
        }
        if asked.go_live {
            self.stop_replay();
        }
        if asked.stop_seek {
            self.cancel_seek();
        }
        // A seek under way goes on by a slice per frame, unless a new one replaces it.
        let seek = asked.seek_to.map(|t| self.seek(t)).or_else(|| {
            let s = self.replay.as_mut()?.seeking.take()?;
            Some(self.seek_slice(s))
        });
        if let Some(Err(e)) = seek {
            self.status = e;
        }
        if self.seek_target().is_some() {
            ui.ctx().request_repaint();
        }
    }
}

/// What the replay bar was asked in a frame.
#[derive(Default)]
pub(crate) struct ReplayAsked {
    play: bool,
    pause: bool,
    go_live: bool,
    stop_seek: bool,
    seek_to: Option<u64>,
}

impl Replay {
    /// Draws the bar at scan `at`; asks the task for the playback's status when paused at a
    /// scan it has not been asked at.
    fn bar_ui(&mut self, ui: &mut egui::Ui, at: u64, paused: bool, link: Link<'_>) -> ReplayAsked {
        let mut asked = ReplayAsked::default();
        let (scans, cycle_us) = (self.scans, self.cycle_us);
        // The task pauses on a difference or at the end: that is when the status can change
        // (asked once per scan reached, not every frame).
        if paused && self.status.as_ref().is_none_or(|st| st.at != at) {
            self.status = link.call(Playback);
        }
        let seeking = self.seeking.as_ref().map(|s| s.target);
        ui.horizontal(|ui| {
            ui.label(RichText::new("Replay").strong());
            if paused {
                if ui.button("Play").on_hover_text("at the program's cycle (F5)").clicked() {
                    if at >= scans {
                        asked.seek_to = Some(0);
                    }
                    asked.play = true;
                }
            } else if ui.button("Pause").on_hover_text("F5").clicked() {
                asked.pause = true;
            }
            if ui.button("|<").on_hover_text("to the start").clicked() {
                asked.seek_to = Some(0);
            }
            if ui.button("<").on_hover_text("one scan back").clicked() {
                asked.seek_to = Some(at.saturating_sub(1));
            }
            if ui.button(">").on_hover_text("one scan forward").clicked() {
                asked.seek_to = Some(at + 1);
            }
            if ui.button(">|").on_hover_text("to the end").clicked() {
                asked.seek_to = Some(scans);
            }
            // Before the position, whose width changes as it plays: buttons stay put.
            if ui.button("Go live").on_hover_text("end the replay; the program runs on from here").clicked() {
                asked.go_live = true;
            }
            let secs = |s: u64| s as f64 * cycle_us as f64 / 1e6;
            ui.label(format!("scan {at} / {scans} ({:.2} s of {:.2} s)", secs(at), secs(scans)));
        });
        if let Some(target) = seeking {
            ui.horizontal(|ui| {
                ui.spinner();
                // The button first: the text after it changes width every frame, and a button
                // that moves is missed.
                if ui.button("Stop here").on_hover_text("end the seek at the scan it reached (Esc)").clicked()
                    || ui.input(|i| i.key_pressed(egui::Key::Escape))
                {
                    asked.stop_seek = true;
                }
                let done = 100.0 * at as f64 / target.max(1) as f64;
                ui.label(format!("going to scan {target}: at {at} ({done:.0} %)"));
            });
        }
        if let Some(t) = self.timeline(ui, at, scans) {
            asked.seek_to = Some(t);
        }
        if let Some(st) = self.status.as_ref() {
            let red = Color32::from_rgb(0xe0, 0x40, 0x40);
            if let Some(d) = &st.divergence {
                ui.label(
                    RichText::new(format!(
                        "differs from the recording after scan {} (state hash {} recorded, {} now)",
                        d.scan, d.expected, d.got
                    ))
                    .color(red),
                );
            }
            if let Some(p) = &st.problem {
                ui.label(RichText::new(format!("a recorded event failed: {p}")).color(red));
            }
        }
        asked
    }

    /// The timeline: events as ticks, the position as a bar; a click or drag seeks.
    fn timeline(&self, ui: &mut egui::Ui, at: u64, scans: u64) -> Option<u64> {
        let (rect, resp) = ui.allocate_exact_size(egui::vec2(ui.available_width(), 22.0), Sense::click_and_drag());
        let resp = resp.on_hover_text("click or drag to go to a scan; ticks are recorded events");
        let p = ui.painter_at(rect);
        let visuals = ui.visuals();
        p.rect_filled(rect, 3.0, visuals.extreme_bg_color);
        let x_of = |s: u64| rect.left() + rect.width() * (s.min(scans) as f32 / scans.max(1) as f32);
        p.rect_filled(
            egui::Rect::from_min_max(rect.min, egui::pos2(x_of(at), rect.max.y)),
            3.0,
            visuals.selection.bg_fill.gamma_multiply(0.5),
        );
        let tick = visuals.weak_text_color();
        for s in &self.event_scans {
            let x = x_of(*s);
            p.line_segment([egui::pos2(x, rect.bottom() - 7.0), egui::pos2(x, rect.bottom())], (1.0, tick));
        }
        if let Some(d) = self.status.as_ref().and_then(|s| s.divergence.as_ref()) {
            let x = x_of(d.scan);
            p.line_segment([egui::pos2(x, rect.top()), egui::pos2(x, rect.bottom())], (2.0, Color32::RED));
        }
        let x = x_of(at);
        p.line_segment([egui::pos2(x, rect.top()), egui::pos2(x, rect.bottom())], (2.0, visuals.strong_text_color()));
        if resp.clicked() || resp.dragged() {
            let pos = resp.interact_pointer_pos()?;
            let f = ((pos.x - rect.left()) / rect.width()).clamp(0.0, 1.0);
            let target = (f as f64 * scans as f64).round() as u64;
            return (target != at).then_some(target);
        }
        None
    }
}
