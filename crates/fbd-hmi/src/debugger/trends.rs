//! The watch list and its trend plot (a panel struct, `TrendState`, lent the scan image and a
//! link to the request queue each frame): simulated time on the x axis, a window length, follow or
//! stop (a stopped plot can be dragged and zoomed), a cursor readout of the nearest sample, and
//! the watched history exported as CSV.

use eframe::egui::{self, RichText};
use egui_plot::{CoordinatesFormatter, Corner, Legend, Line, Plot, PlotPoints};

use fbd_engine::runtime::requests::{Histories, Unwatch, Watch};

use crate::debugger::value_text;
use crate::link::FrameCtx;

/// What the trend plot keeps between frames.
pub struct TrendState {
    /// Shown time span in ms of simulated time (0: the whole history).
    pub(crate) window_ms: f64,
    /// The plot follows the newest samples; stopped, it keeps what it showed.
    pub(crate) follow: bool,
    /// The series as last drawn (what a stopped plot keeps showing), each with whether it is
    /// a BOOL (drawn as a digital lane under the numbers, not on their axis).
    frozen: Vec<(String, Vec<[f64; 2]>, bool)>,
    /// Where Export CSV writes.
    pub(crate) csv_path: String,
    /// The user watches the 2048 program's `busy` too: the front end's own watch of it (which
    /// the list leaves out) is theirs as well.
    pub(crate) busy_by_user: bool,
    /// Each watched path's samples (scan, value as a number), gathered from the scan images'
    /// tails frame after frame: the plot reads these, not the runtime.
    samples: std::collections::HashMap<String, std::collections::VecDeque<(u64, f64)>>,
}

/// Samples a trend keeps per signal (the runtime's watches keep as many).
const TREND_SAMPLES: usize = 600;

impl Default for TrendState {
    fn default() -> Self {
        TrendState {
            window_ms: 1000.0,
            follow: true,
            frozen: Vec::new(),
            csv_path: "trends.csv".into(),
            busy_by_user: false,
            samples: Default::default(),
        }
    }
}

/// What the trends ask of the debugger after a frame.
#[derive(Default)]
pub(crate) struct TrendsOut {
    /// For the debugger's message line.
    pub message: Option<String>,
    /// A watched signal clicked: select it in the debugger.
    pub select: Option<String>,
}

impl TrendState {
    /// The watched signals the user chose (the HMI's own lockout watch is listed only when the
    /// user watches `busy` too).
    pub(crate) fn user_watches(&self, cx: FrameCtx<'_>) -> Vec<String> {
        let own = |p: &String| p == "busy" && cx.game && !self.busy_by_user;
        cx.img.watched.iter().filter(|p| !own(p)).cloned().collect()
    }

    /// Adds the samples of the image's trend tails that the trends have not seen. Where the tail
    /// does not reach back to the last sample seen (a window late by more than the tail, a watch
    /// just added) or goes back in time (a step back, a cold start), the whole history is asked
    /// for once.
    fn gather_samples(&mut self, cx: FrameCtx<'_>) {
        let img = cx.img;
        let samples = &mut self.samples;
        samples.retain(|p, _| img.watched.contains(p));
        let mut refill = Vec::new();
        for (path, tail) in img.watched.iter().zip(&img.trend_tails) {
            let buf = samples.entry(path.clone()).or_default();
            let last = buf.back().map(|s| s.0);
            let (Some(first), Some(newest)) = (tail.first(), tail.last()) else { continue };
            // A tail shorter than the image carries is the watch's whole history.
            let whole = last.is_none() && tail.len() < fbd_engine::runtime::TREND_TAIL;
            let joins = whole || last.is_some_and(|l| first.0 <= l + 1 && newest.0 >= l);
            if !joins {
                refill.push(path.clone());
                continue;
            }
            buf.extend(tail.iter().filter(|s| last.is_none_or(|l| s.0 > l)));
            while buf.len() > TREND_SAMPLES {
                buf.pop_front();
            }
        }
        if refill.is_empty() {
            return;
        }
        let histories = cx.link.call(Histories(refill.clone()));
        for (path, h) in refill.into_iter().zip(histories) {
            let skip = h.len().saturating_sub(TREND_SAMPLES);
            self.samples.insert(path, h.iter().skip(skip).map(|(s, v)| (*s, v.as_f64())).collect());
        }
    }

    /// Watches `path` for the trends (the last 600 samples). The 2048 program's `busy` is
    /// watched by the front end already, with a longer history: that watch is shared (a
    /// second one replaced it, and the list hid it: watching `busy` did nothing visible).
    pub(crate) fn watch(&mut self, path: &str, cx: FrameCtx<'_>) -> Result<(), String> {
        if path == "busy" && cx.game {
            self.busy_by_user = true;
            return cx.img.plan.signal_id("busy").map(|_| ()).ok_or_else(|| "busy: no such signal".into());
        }
        cx.link.call(Watch { path: path.to_string(), capacity: 600 }).map_err(|e| e.to_string())
    }

    /// Stops the trend of `path` (the front end's own watch of `busy` stays).
    pub(crate) fn unwatch(&mut self, path: &str, cx: FrameCtx<'_>) {
        if path == "busy" && cx.game {
            self.busy_by_user = false;
        } else {
            cx.link.call(Unwatch(path.to_string()));
        }
    }

    /// The watched history as CSV: `scan,time_ms,<signal>...`, one row per scan any watch
    /// sampled, empty where a signal has no sample for that scan.
    pub(crate) fn csv(&self, cx: FrameCtx<'_>) -> String {
        let watched = self.user_watches(cx);
        let hist = cx.link.call(Histories(watched.clone()));
        let ms = cx.img.plan.cycle_us as f64 / 1000.0;
        let mut scans: Vec<u64> = hist.iter().flatten().map(|(s, _)| *s).collect();
        scans.sort_unstable();
        scans.dedup();
        let mut out = format!("scan,time_ms,{}\n", watched.join(","));
        let mut at = vec![0usize; hist.len()];
        for s in scans {
            out.push_str(&format!("{s},{}", s as f64 * ms));
            for (k, h) in hist.iter().enumerate() {
                while at[k] < h.len() && h[at[k]].0 < s {
                    at[k] += 1;
                }
                out.push(',');
                if at[k] < h.len() && h[at[k]].0 == s {
                    out.push_str(&h[at[k]].1.to_string());
                }
            }
            out.push('\n');
        }
        out
    }

    /// The watch list and its plots; what the debugger should do afterwards.
    pub(crate) fn ui(&mut self, ui: &mut egui::Ui, cx: FrameCtx<'_>) -> TrendsOut {
        let mut out = TrendsOut::default();
        let watched = self.user_watches(cx);
        if watched.is_empty() {
            return out;
        }
        ui.horizontal(|ui| {
            ui.label(RichText::new("Watch").strong());
            let l = ui.label("window");
            egui::ComboBox::from_id_salt("trend_window")
                .selected_text(if self.window_ms == 0.0 {
                    "all".to_string()
                } else {
                    format!("{} s", self.window_ms / 1000.0)
                })
                .width(60.0)
                .show_ui(ui, |ui| {
                    for w in [500.0, 1000.0, 2000.0, 0.0] {
                        let text = if w == 0.0 { "all".to_string() } else { format!("{} s", w / 1000.0) };
                        ui.selectable_value(&mut self.window_ms, w, text);
                    }
                })
                .response
                .labelled_by(l.id);
            ui.checkbox(&mut self.follow, "follow").on_hover_text("off: the plot stops and can be dragged and zoomed");
            let l = ui.label("CSV file");
            ui.add(egui::TextEdit::singleline(&mut self.csv_path).desired_width(110.0)).labelled_by(l.id);
            if ui.button("Export CSV").clicked() {
                let path = self.csv_path.trim().to_string();
                out.message = Some(match fbd_engine::load::write_text(std::path::Path::new(&path), &self.csv(cx)) {
                    Ok(()) => format!("watched history written to {path}"),
                    Err(e) => format!("{path}: cannot write: {e}"),
                });
            }
        });
        let mut remove = None;
        let img = cx.img;
        let ms = img.plan.cycle_us as f64 / 1000.0;
        let mut series = Vec::new();
        self.gather_samples(cx);
        for w in &watched {
            let v = img.read(w);
            let h = self.samples.get(w).cloned().unwrap_or_default();
            ui.horizontal(|ui| {
                if ui.small_button("x").clicked() {
                    remove = Some(w.clone());
                }
                if ui.link(w).clicked() {
                    out.select = Some(w.clone());
                }
                if let Some(v) = v {
                    ui.label(value_text(v));
                }
            });
            // Simulated time in ms on the x axis: what timers and presets are written in.
            // (The program's cycle, not the slow-motion pacing.)
            let pts: Vec<[f64; 2]> = h.iter().map(|(s, v)| [*s as f64 * ms, *v]).collect();
            let is_bool = matches!(v, Some(fbd_engine::Value::Bool(_)));
            series.push((w.clone(), pts, is_bool));
        }
        let t = &mut *self;
        if t.follow || t.frozen.is_empty() {
            if t.window_ms > 0.0 {
                let newest = series.iter().filter_map(|(_, p, _)| p.last().map(|q| q[0])).fold(0.0, f64::max);
                for (_, p, _) in series.iter_mut() {
                    p.retain(|q| q[0] >= newest - t.window_ms);
                }
            }
            t.frozen = series;
        }
        let follow = t.follow;
        let numbers: Vec<&(String, Vec<[f64; 2]>, bool)> = t.frozen.iter().filter(|s| !s.2).collect();
        let bools: Vec<&(String, Vec<[f64; 2]>, bool)> = t.frozen.iter().filter(|s| s.2).collect();
        // The plots share their x axis (time); they stay inside the panel, axis labels included.
        let width = (ui.available_width() - 12.0).max(100.0);
        let link = egui::Id::unique("trend_time");
        if !numbers.is_empty() {
            // Following, the plot leaves the wheel to the panel (it once captured it and stopped
            // following); stopped, it can be dragged and zoomed.
            trend_plot("trends", follow, width, 160.0, link, bools.is_empty()).show(ui, |p| {
                if follow {
                    p.set_auto_bounds(true);
                }
                for (name, pts, _) in &numbers {
                    p.line(Line::new(name.clone(), PlotPoints::from(pts.clone())));
                }
            });
        }
        if !bools.is_empty() {
            // BOOLs as digital lanes, one above the other (on the numbers' axis a BOOL was a flat
            // line under a score of 60,000): lane k is k*1.5 (FALSE) to k*1.5+1 (TRUE).
            let height = 30.0 + 24.0 * bools.len() as f32;
            trend_plot("trend_bools", follow, width, height, link, true).show_y(false).show(ui, |p| {
                if follow {
                    p.set_auto_bounds(true);
                }
                for (k, (name, pts, _)) in bools.iter().enumerate() {
                    let lane = (bools.len() - 1 - k) as f64 * 1.5;
                    let pts: Vec<[f64; 2]> = pts.iter().map(|q| [q[0], lane + q[1]]).collect();
                    p.line(Line::new(name.clone(), PlotPoints::from(pts)));
                }
            });
        }
        if let Some(r) = remove {
            self.unwatch(&r, cx);
        }
        out
    }
}

/// A trend plot: simulated time on its x axis (shared by the numbers' and the BOOLs' plots),
/// following the newest samples or, stopped, dragged and zoomed.
fn trend_plot(id: &str, follow: bool, width: f32, height: f32, link: egui::Id, x_label: bool) -> Plot<'static> {
    let plot = Plot::new(id)
        .height(height)
        .width(width)
        .legend(Legend::default())
        .link_axis(link, [true, false])
        .allow_scroll(!follow)
        .allow_zoom(!follow)
        .allow_drag(!follow)
        .allow_boxed_zoom(!follow)
        .label_formatter(|hover| match hover {
            egui_plot::HoverPosition::NearDataPoint { plot_name, position, .. } => {
                Some(format!("{plot_name}\n{} at {:.0} ms", position.y, position.x))
            }
            _ => None,
        })
        .coordinates_formatter(Corner::RightBottom, CoordinatesFormatter::new(|p, _| format!("{:.0} ms", p.x)));
    if x_label { plot.x_axis_label("simulated time (ms)") } else { plot }
}

impl crate::debugger::DebuggerState {
    /// The watch list and trends in the debugger.
    pub(crate) fn watches_ui(&mut self, ui: &mut egui::Ui, cx: FrameCtx<'_>) {
        let out = self.trends.ui(ui, cx);
        if let Some(m) = out.message {
            self.message = m;
        }
        if let Some(s) = out.select {
            self.selected = Some(s);
        }
    }
}
