//! Replays in the window: File > Open recording plays a recorded run back through its
//! program at the real cycle, and the replay bar is its timeline: the position, the recorded
//! events as ticks, a scrubber that seeks to any scan (back through the history, forward by
//! scanning), play/pause, a scan back or forward, and the first scan whose state differs from
//! the recording's.

use std::path::{Path, PathBuf};

use eframe::egui::{self, Color32, RichText, Sense};
use fbd_engine::Recording;
use fbd_engine::runtime::PlaybackStatus;
use fbd_engine::runtime::requests::{Playback, SeekToward};
use fbd2048_game::Wiring;

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

impl Seeking {
    /// A seek to `target`, going on at the pace of the one it replaces (if any).
    pub(crate) fn to(target: u64, replaced: Option<Seeking>) -> Seeking {
        Seeking { target, slicer: replaced.map(|s| s.slicer).unwrap_or_default() }
    }

    /// Runs one slice toward the target: the scan reached, and whether it is the target.
    pub(crate) fn run(&mut self, link: Link<'_>) -> (Result<u64, String>, bool) {
        let target = self.target;
        let r = self.slicer.run(|n| link.call(SeekToward { target, at_most: n })).map_err(|e| e.to_string());
        let arrived = !matches!(r, Ok(at) if at != target);
        (r, arrived)
    }
}

impl Replay {
    /// The replay of `rec`, read from `path`, before it starts.
    pub(crate) fn of(rec: &Recording, path: &Path) -> Replay {
        let mut event_scans: Vec<u64> = rec.events.iter().map(|e| e.scan).collect();
        event_scans.dedup();
        Replay {
            path: path.to_path_buf(),
            scans: rec.scans,
            cycle_us: rec.cycle_us,
            event_scans,
            status: None,
            seeking: None,
        }
    }

    /// Runs one slice of seek `s`, keeping it for the next frame unless it arrived.
    pub(crate) fn seek_slice(&mut self, mut s: Seeking, link: Link<'_>) -> Result<u64, String> {
        let (r, arrived) = s.run(link);
        self.seeking = (!arrived).then_some(s);
        r
    }
}

/// Where the recorded program comes from: its file, or the wiring built into the binary.
pub(crate) fn recorded_origin(rec: &Recording, path: &Path) -> Result<Origin, String> {
    let root =
        rec.program.files.first().ok_or_else(|| format!("{}: the recording names no program file", path.display()))?;
    if let Some(p) = rec.program_path(path) {
        return Ok(Origin::File(p));
    }
    Wiring::parse(&root.path)
        .map(Origin::Embedded)
        .ok_or_else(|| format!("{}: the recorded program {} is not here", path.display(), root.path))
}

/// What the replay bar was asked in a frame.
#[derive(Default)]
pub(crate) struct ReplayAsked {
    pub(crate) play: bool,
    pub(crate) pause: bool,
    pub(crate) go_live: bool,
    pub(crate) stop_seek: bool,
    pub(crate) seek_to: Option<u64>,
}

impl Replay {
    /// Draws the bar at scan `at`; asks the task for the playback's status when paused at a
    /// scan it has not been asked at.
    pub(crate) fn bar_ui(&mut self, ui: &mut egui::Ui, at: u64, paused: bool, link: Link<'_>) -> ReplayAsked {
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
