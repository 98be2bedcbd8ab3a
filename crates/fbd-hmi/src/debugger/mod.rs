//! The online view, after CODESYS: run/pause/step, run until, cycle time, task statistics, the
//! tree of instances, blocks and pins with live values, write and force, watches with trends.

pub(crate) mod hints;
pub(crate) mod slices;
pub(crate) mod tree;
pub(crate) mod trends;
pub(crate) mod values;

use std::sync::Arc;
use std::time::Duration;

use eframe::egui::{self, Color32, RichText};
use fbd_engine::runtime::requests::{AddBreakpoint, EnableBreakpoint, Force, Release, RemoveBreakpoint, Write};
use fbd_engine::{ScanImage, ScanPlan, SignalKind, Value};

use crate::link::{FrameCtx, Link};

/// The debugger's own state.
#[derive(Default)]
pub struct DebuggerState {
    pub(crate) filter: String,
    pub(crate) selected: Option<String>,
    pub(crate) edit: String,
    /// The signal `edit` was filled for: a new selection starts from its own value.
    edit_for: String,
    pub(crate) step_n: u64,
    pub(crate) until: String,
    /// The condition typed for a new breakpoint.
    pub(crate) breakpoint: String,
    pub(crate) until_limit: u64,
    pub(crate) cycle_ms: f64,
    /// The central panel shows the online diagram instead of the board.
    pub(crate) show_diagram: bool,
    pub(crate) message: String,
    /// The signal tree's index of the plan.
    pub(crate) tree: crate::debugger::tree::TreeIndex,
    pub(crate) plan: Option<Arc<ScanPlan>>,
    /// Values prepared to be written or forced together.
    pub(crate) prepared: Vec<(String, Value)>,
    /// The active forces as last read, and the image stamp they were read at.
    pub(crate) forces: Vec<(String, Value)>,
    pub(crate) forces_stamp: Option<u64>,
    /// The trend plot's settings.
    pub(crate) trends: crate::debugger::trends::TrendState,
    /// A fast-forward or Step N under way.
    pub(crate) forward: Option<crate::debugger::slices::Forward>,
    /// The empty fields' examples, from the loaded program.
    pub(crate) hints: crate::debugger::hints::Hints,
}

impl DebuggerState {
    /// Indexes a newly loaded plan for the tree.
    pub(crate) fn rebuild(&mut self, plan: Arc<ScanPlan>) {
        self.forces_stamp = None;
        self.tree = crate::debugger::tree::TreeIndex::of(&plan);
        if self.step_n == 0 {
            self.step_n = 10;
        }
        if self.until_limit == 0 {
            self.until_limit = 100_000;
        }
        self.cycle_ms = plan.cycle_us as f64 / 1000.0;
        // Another program: a selection or filter that names nothing in it is dropped.
        if self.selected.as_deref().is_some_and(|s| plan.signal(s).is_none()) {
            self.selected = None;
        }
        if !self.filter.is_empty() && !plan.signals.iter().any(|s| s.path.contains(&self.filter)) {
            self.filter.clear();
        }
        self.hints = crate::debugger::hints::Hints::of(&plan);
        self.plan = Some(plan);
    }
}

/// What a signal is, in the words of the signal editor (the enum's names, `MacroPin` and
/// `BlockOutput`, stood there).
pub(crate) fn kind_words(kind: SignalKind) -> &'static str {
    match kind {
        SignalKind::ProgramInput => "program input",
        SignalKind::ProgramOutput => "program output",
        SignalKind::BlockOutput => "block output",
        SignalKind::BlockInput => "block input",
        SignalKind::MacroPin => "instance pin",
        SignalKind::Feedback => "feedback copy (the previous scan's value)",
        SignalKind::Constant => "constant",
        SignalKind::Connector => "variable (a named net)",
    }
}

pub(crate) fn value_text(v: Value) -> RichText {
    match v {
        Value::Bool(true) => RichText::new("TRUE").color(Color32::from_rgb(0x20, 0xa0, 0x40)).monospace(),
        Value::Bool(false) => RichText::new("FALSE").color(Color32::GRAY).monospace(),
        other => RichText::new(other.to_string()).monospace(),
    }
}

impl DebuggerState {
    /// The debugger panel, lent this frame's scan image and link; what only the application
    /// can do (pacing, runs, a game altered from outside) it returns.
    pub(crate) fn window(&mut self, ui: &mut egui::Ui, cx: FrameCtx<'_>, task: &TaskView) -> Vec<DebuggerAsk> {
        let mut asks = Vec::new();
        egui::ScrollArea::vertical().id_salt("dbg_scroll").show(ui, |ui| {
            // Rows wrap inside the panel: a wide one (a BOOL's editor) widened the panel.
            ui.set_max_width(ui.available_width());
            asks.extend(self.controls(ui, task, cx.link));
            ui.separator();
            if self.stats_ui(ui, task, cx.img) {
                asks.push(DebuggerAsk::ResetStatistics);
            }
            ui.separator();
            // The selection's editor keeps one height whether or not a signal is selected, so
            // selecting one never moves the tree under the pointer.
            ui.scope(|ui| {
                ui.set_min_height(130.0);
                if self.selected_ui(ui, cx) {
                    asks.push(DebuggerAsk::Altered);
                }
            });
            let prepared = self.prepared_ui(ui, cx.img, cx.link);
            if prepared.write {
                asks.push(DebuggerAsk::Prepared { force: false });
            }
            if prepared.force {
                asks.push(DebuggerAsk::Prepared { force: true });
            }
            ui.separator();
            self.watches_ui(ui, cx);
            ui.separator();
            self.tree_ui(ui, cx.img, cx.link);
        });
        asks
    }

    /// Selects signal `path` for the signal editor (what clicking it in the tree does); false
    /// when the program has no such signal.
    pub fn select(&mut self, path: &str) -> bool {
        let known = self.plan.as_ref().is_some_and(|p| p.signal(path).is_some());
        if known {
            self.selected = Some(path.to_string());
        }
        known
    }

    /// The signal `path` selected from a menu elsewhere (the diagram's): the tree filtered to
    /// its block.
    pub(crate) fn select_from_menu(&mut self, path: &str) {
        self.selected = Some(path.to_string());
        self.filter = path.rsplit_once('.').map(|(b, _)| format!("{b}.")).unwrap_or_default();
    }
}

impl DebuggerState {
    /// Breakpoints: conditions checked after every scan of the running task; a hit pauses it.
    pub(crate) fn breakpoints_ui(&mut self, ui: &mut egui::Ui, link: Link<'_>, paused: bool) {
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("Breakpoint");
            ui.add(
                egui::TextEdit::singleline(&mut self.breakpoint)
                    .hint_text(self.hints.breakpoint.as_str())
                    .desired_width(200.0),
            )
            .labelled_by(l.id);
            if ui.button("Add").clicked() {
                let text = self.breakpoint.trim().to_string();
                self.message = match fbd_engine::Condition::parse(&text) {
                    Ok(c) => match link.call(AddBreakpoint(c)) {
                        Ok(_) => {
                            self.breakpoint.clear();
                            format!("breakpoint `{text}` set: the task pauses after a scan where it holds")
                        }
                        Err(e) => e.to_string(),
                    },
                    Err(e) => e,
                };
            }
        });
        // Read after the Add above: a breakpoint just set is listed in this frame.
        let img = link.image();
        let (list, hit, scans) = (img.breakpoints(), img.last_breakpoint_hit, img.scan);
        // The task is paused by that hit only if no scan ran since (a manual Pause later, or a
        // disabled breakpoint's old hit, is not "paused here").
        let holding = hit.filter(|&(i, scan)| scan == scans && paused && list.get(i).is_some_and(|b| b.enabled));
        let mut remove = None;
        for (i, b) in list.iter().enumerate() {
            ui.horizontal(|ui| {
                let mut on = b.enabled;
                if ui.checkbox(&mut on, b.condition.to_string()).changed() {
                    link.call(EnableBreakpoint { index: i, on });
                }
                ui.label(RichText::new(format!("{} hits", b.hits)).weak());
                if holding.is_some_and(|(h, _)| h == i) {
                    ui.label(RichText::new("< paused here").color(Color32::from_rgb(0xd0, 0x80, 0x20)).strong());
                }
                if ui.small_button("remove").clicked() {
                    remove = Some(i);
                }
            });
        }
        // One line whether or not a breakpoint holds: a line that came and went moved every row
        // below it (a click landed on the wrong control).
        let held = holding
            .and_then(|(i, scan)| Some((list.get(i)?, scan)))
            .map(|(b, scan)| format!("breakpoint `{}` held in scan {scan}; Run (F5) continues", b.condition))
            .unwrap_or_default();
        ui.add(egui::Label::new(RichText::new(held).color(Color32::from_rgb(0xd0, 0x80, 0x20))).truncate());
        if let Some(i) = remove {
            link.call(RemoveBreakpoint(i));
        }
    }

    /// The selected signal: its type, kind and value, and what can be done to it (write,
    /// force, prepare, release; a read-only signal names what drives it). Returns whether the
    /// program was changed from outside (a game so changed is not a best).
    pub(crate) fn selected_ui(&mut self, ui: &mut egui::Ui, cx: FrameCtx<'_>) -> bool {
        let mut altered = false;
        let Some(path) = self.selected.clone() else {
            ui.label(
                RichText::new(
                    "Select a signal in the tree (or right-click a block in the diagram) to write, force or watch it.",
                )
                .weak(),
            );
            return false;
        };
        // From the published image, as every frame's values.
        let (img, link) = (cx.img, cx.link);
        let info = img.plan.signal_id(&path).map(|id| {
            let s = img.plan.signals.at(id);
            (s.kind, s.slot.ty, Some(img.read_signal(id)), img.is_forced(id))
        });
        let Some((kind, ty, value, forced)) = info else {
            self.selected = None;
            return false;
        };
        ui.label(RichText::new(&path).strong());
        ui.horizontal(|ui| {
            ui.label(format!("{ty} {}", kind_words(kind)));
            if let Some(v) = value {
                ui.label(value_text(v));
            }
            if forced {
                ui.label(RichText::new("FORCED").color(Color32::from_rgb(0xd0, 0x20, 0x20)).strong());
            }
        });
        if self.edit_for != path {
            self.edit = value.map(|v| v.to_string().to_lowercase()).unwrap_or_default();
            self.edit_for = path.clone();
        }
        if kind.writable() && ty == fbd_engine::Type::Bool {
            // BOOL: one click per value, as in CODESYS.
            ui.horizontal(|ui| {
                for v in [true, false] {
                    let name = if v { "TRUE" } else { "FALSE" };
                    if ui.button(format!("Write {name}")).clicked() {
                        altered = true;
                        self.message = link
                            .call(Write { path: path.clone(), value: Value::Bool(v) })
                            .map(|_| format!("{path} := {name} at the next scan"))
                            .unwrap_or_else(|e| e.to_string());
                    }
                }
                for v in [true, false] {
                    let name = if v { "TRUE" } else { "FALSE" };
                    if ui.button(format!("Force {name}")).clicked() {
                        altered = true;
                        self.message = link
                            .call(Force { path: path.clone(), value: Value::Bool(v) })
                            .map(|_| format!("{path} forced to {name}"))
                            .unwrap_or_else(|e| e.to_string());
                    }
                }
                for v in [true, false] {
                    if ui.button(if v { "Prepare TRUE" } else { "Prepare FALSE" }).clicked() {
                        self.prepare(&path, Value::Bool(v));
                    }
                }
                if forced && ui.button("Release").clicked() {
                    link.call(Release(path.clone()));
                    self.message = format!("{path} released");
                }
            });
        } else if kind.writable() {
            ui.horizontal_wrapped(|ui| {
                ui.add(egui::TextEdit::singleline(&mut self.edit).desired_width(90.0));
                let parsed = Value::parse(&self.edit, ty);
                if ui.button("Write").clicked() {
                    altered = true;
                    self.message = match parsed.clone() {
                        Ok(v) => link
                            .call(Write { path: path.clone(), value: v })
                            .map(|_| format!("{path} := {v} at the next scan"))
                            .unwrap_or_else(|e| e.to_string()),
                        Err(e) => e,
                    };
                }
                if ui.button("Force").clicked() {
                    self.message = match parsed.clone() {
                        Ok(v) => {
                            altered = true;
                            link.call(Force { path: path.clone(), value: v })
                                .map(|_| format!("{path} forced to {v}"))
                                .unwrap_or_else(|e| e.to_string())
                        }
                        Err(e) => e,
                    };
                }
                if ui
                    .button("Prepare")
                    .on_hover_text("write or force later, together with other prepared values")
                    .clicked()
                {
                    match parsed {
                        Ok(v) => self.prepare(&path, v),
                        Err(e) => self.message = e,
                    }
                }
                if forced && ui.button("Release").clicked() {
                    link.call(Release(path.clone()));
                    self.message = format!("{path} released");
                }
            });
        } else {
            let driver = img.plan.signal(&path).and_then(|s| img.plan.driver(s));
            if let Some(d) = driver {
                ui.horizontal_wrapped(|ui| {
                    ui.label("read-only: it shows");
                    if ui.link(&d).on_hover_text("select it to write or force it").clicked() {
                        self.selected = Some(d.clone());
                    }
                    ui.label("(write or force that)");
                });
            }
        }
        ui.horizontal_wrapped(|ui| {
            if ui.button("Watch").clicked()
                && let Err(e) = self.trends.watch(&path, cx)
            {
                self.message = e;
            }
        });
        ui.separator();
        altered
    }

    /// Run, pause, step (forward and back), breakpoints, fast-forward, the cycle time, a
    /// fast-forward's progress and the message line; what was asked, for the application.
    pub(crate) fn controls(&mut self, ui: &mut egui::Ui, task: &TaskView, link: Link<'_>) -> Vec<DebuggerAsk> {
        let mut asks = Vec::new();
        let paused = task.paused;
        ui.horizontal_wrapped(|ui| {
            if paused {
                if ui.button("Run").on_hover_text("F5").clicked() {
                    asks.push(DebuggerAsk::Run);
                }
            } else if ui.button("Pause").on_hover_text("F5").clicked() {
                asks.push(DebuggerAsk::Pause);
            }
            ui.add_enabled_ui(paused, |ui| {
                if ui.button("Step").on_hover_text("one scan (F10)").clicked() {
                    asks.push(DebuggerAsk::Step);
                }
                let l = ui.label("N");
                ui.add(egui::DragValue::new(&mut self.step_n).range(1..=1_000_000)).labelled_by(l.id);
                if ui.button("Step N").on_hover_text("N scans (Shift+F10)").clicked() {
                    asks.push(DebuggerAsk::StepN(self.step_n));
                }
                // No PLC debugger steps back; a deterministic runtime can (snapshots every 100
                // scans, re-executed to the scan asked for).
                for (label, n) in [("Back", 1), ("Back N", self.step_n)] {
                    if ui.button(label).on_hover_text(format!("{n} scan(s) back: the state as it was")).clicked() {
                        asks.push(DebuggerAsk::Back(n));
                    }
                }
            });
            ui.label(if let Some(why) = &task.halted {
                RichText::new(format!("halted: {why}")).color(Color32::from_rgb(0xe0, 0x40, 0x40)).strong()
            } else if paused {
                RichText::new("paused").color(Color32::from_rgb(0xc0, 0x80, 0x20))
            } else {
                RichText::new("running")
            });
        });
        self.breakpoints_ui(ui, link, paused);
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("Fast-forward until").on_hover_text(
                "runs scans as fast as the machine can until the condition holds (not at the real cycle; for that, set a breakpoint)",
            );
            ui.add(
                egui::TextEdit::singleline(&mut self.until)
                    .hint_text(self.hints.until.as_str())
                    .desired_width(180.0),
            )
            .labelled_by(l.id);
            let l = ui.label("max scans");
            ui.add(egui::DragValue::new(&mut self.until_limit).range(1..=10_000_000)).labelled_by(l.id);
            if ui.button("Go").clicked() {
                asks.push(DebuggerAsk::RunUntil);
            }
            if ui
                .button("Go back")
                .on_hover_text("back to just after the latest earlier scan in which the condition held")
                .clicked()
            {
                asks.push(DebuggerAsk::RunBackUntil);
            }
        });
        ui.horizontal(|ui| {
            let r = ui.add(
                egui::Slider::new(&mut self.cycle_ms, 5.0..=1000.0).logarithmic(true).suffix(" ms").text("cycle time"),
            );
            if r.changed() {
                asks.push(DebuggerAsk::Period(Duration::from_secs_f64(self.cycle_ms / 1000.0)));
            }
        });
        if self.forward_ui(ui) {
            asks.push(DebuggerAsk::StopForward);
        }
        if !self.message.is_empty() {
            ui.label(RichText::new(&self.message).weak());
        }
        asks
    }

    /// The task's statistics (CODESYS's Task_Info), the game's scans per command, the faults;
    /// whether Reset statistics was clicked.
    pub(crate) fn stats_ui(&mut self, ui: &mut egui::Ui, task: &TaskView, img: &ScanImage) -> bool {
        let s = &task.stats;
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        egui::Grid::new("stats").num_columns(2).show(ui, |ui| {
            ui.label("scan time min / avg / max");
            ui.label(format!("{:.1} / {:.1} / {:.1} us", us(s.exec_min), us(s.exec_avg), us(s.exec_max)));
            ui.end_row();
            ui.label("jitter p50 / p99 / p99.9 / max");
            ui.label(format!(
                "{:.0} / {:.0} / {:.0} / {:.0} us",
                us(s.jitter_p50),
                us(s.jitter_p99),
                us(s.jitter_p999),
                us(s.jitter_max)
            ))
            .on_hover_text("lateness of scan starts against the schedule (10 us buckets)");
            ui.end_row();
            ui.label("overruns");
            ui.label(format!("{} ({:.1} per 10,000 scans)", s.overruns, s.overruns as f64 * 1e4 / s.scans.max(1) as f64))
                .on_hover_text("scans that started a whole period late or more");
            ui.end_row();
            ui.label("task priority");
            ui.label(if s.realtime_priority { "real-time" } else { "normal" }).on_hover_text(
                "without a real-time class the system may wake the task milliseconds late; allow it with `ulimit -r` or CAP_SYS_NICE",
            );
            ui.end_row();
            ui.label("task scans, period");
            ui.label(format!("{}, {:.1} ms", s.scans, s.period.as_secs_f64() * 1e3));
            ui.end_row();
            // The program's own tasks: which ran in the scan shown.
            if !task.program_tasks.is_empty() {
                ui.label("program tasks");
                let runs: Vec<String> = task
                    .program_tasks
                    .iter()
                    .map(|(name, when)| {
                        let ran = img.read(&format!("{name}__runs.out")) == Some(fbd_engine::Value::Bool(true));
                        format!("{name} ({when}): {}", if ran { "ran" } else { "idle" })
                    })
                    .collect();
                ui.label(runs.join(", ")).on_hover_text("whether each task ran in the scan shown");
                ui.end_row();
            }
            // Commands are the 2048 interface's; another program has none to count.
            if let Some((last, max)) = task.scans_per_command {
                ui.label("scans per command (last / max)");
                ui.label(format!("{} / {max}", last.map(|n| n.to_string()).unwrap_or("-".into())));
                ui.end_row();
            }
            ui.label("faults");
            ui.label(img.faults_total.to_string());
            ui.end_row();
            if let Some(f) = &img.last_fault {
                let block = img.plan.instr_block(f.instr as usize).path.to_string();
                ui.label("last fault");
                ui.label(format!("scan {}: {block}: {}", f.scan, f.kind.describe()));
                ui.end_row();
            }
        });
        ui.button("Reset statistics").clicked()
    }
}

/// The scan task as the debugger's controls and statistics show it, read once per frame.
pub(crate) struct TaskView {
    pub paused: bool,
    /// Why the task stopped for good, if it did.
    pub halted: Option<String>,
    pub stats: fbd_engine::realtime::TaskStats,
    /// The 2048 program's scans per command, last and most (another program has no commands).
    pub scans_per_command: Option<(Option<u64>, u64)>,
    /// The program's tasks (docs/diagram-format.md#tasks): each name and when it runs.
    pub program_tasks: Vec<(String, String)>,
}

/// What the debugger's controls asked for: pacing and runs are the application's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum DebuggerAsk {
    Run,
    Pause,
    Step,
    StepN(u64),
    Back(u64),
    RunUntil,
    RunBackUntil,
    Period(Duration),
    StopForward,
    /// Reset statistics.
    ResetStatistics,
    /// A value was written or forced from the panel: the game in progress is altered.
    Altered,
    /// Write all (false) or Force all (true) of the prepared values.
    Prepared {
        force: bool,
    },
}

/// A task's name and when it runs, as the debugger says it.
pub(crate) fn task_when(t: &fbd_engine::model::Task) -> (String, String) {
    let when = match (&t.interval_ms, &t.single) {
        (Some(ms), _) => format!("every {ms} ms"),
        (None, Some(fbd_engine::model::Wire::Ref(r))) => format!("when {r} rises"),
        _ => "on an event".to_string(),
    };
    (t.name.clone(), when)
}
