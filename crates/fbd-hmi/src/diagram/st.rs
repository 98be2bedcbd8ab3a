//! The online view of a Structured Text body, as CODESYS's online mode monitors one inline:
//! the text with its line numbers and its keywords, literals and comments set apart, and
//! after each line the values the newest scan left in the variables and instance outputs the
//! line names (`stage = 2`, `mix_t.Q = TRUE`; a BOOL's TRUE green, a forced one underlined);
//! right-click a value to write, force, release or break on it (the debugger's rules, as the
//! block and ladder views' menus). An enumeration's value is shown by its name (`mode =
//! running`), an array by its first elements (`buf = [7, 0, 3, ..]`, all of them on hover).
//! The line of a loop the watchdog stopped the task in is marked red. A body without ST is not
//! shown here (`None`).

use std::sync::Arc;

use eframe::egui::{self, Color32, RichText, text::LayoutJob};
use fbd_engine::model::{DataType, DataTypes, Variable};
use fbd_engine::{ScanImage, Value};

use crate::diagram::menu::{MenuAction, value_actions};
use crate::diagram::{DiagramCtx, DiagramState};
use fbd_st::highlight::{Piece, pieces};

const TRUE_GREEN: Color32 = Color32::from_rgb(0x1f, 0x9d, 0x3a);
const STOP_RED: Color32 = Color32::from_rgb(0xe0, 0x40, 0x40);

/// The ST lines of the body of macro `mac` ("" the program's), if it is written in ST.
pub(crate) fn st_of<'p>(cx: &DiagramCtx<'p>, mac: &str) -> Option<&'p [String]> {
    let st = if mac.is_empty() { &cx.project.root().st } else { &cx.project.macro_def(mac)?.2.st };
    (!st.is_empty()).then_some(st.as_slice())
}

/// The variables of the body of macro `mac` ("" the program's).
fn variables_of<'p>(cx: &DiagramCtx<'p>, mac: &str) -> &'p [Variable] {
    if mac.is_empty() {
        &cx.project.root().variables
    } else {
        cx.project.macro_def(mac).map_or(&[], |m| m.2.variables.as_slice())
    }
}

/// The values shown read from one scan image, under an instance's prefix.
struct StLive {
    img: Arc<ScanImage>,
    prefix: String,
    /// The project's user data types, and the body's variables of one (upper-case name →
    /// type name): how their values are shown.
    types: Vec<DataType>,
    typed: Vec<(String, String)>,
}

/// How many of an array's elements a line shows (all of them on hover, up to [`HOVER_MAX`]).
const SHOWN_ELEMENTS: usize = 6;
const HOVER_MAX: usize = 64;

impl StLive {
    /// The line of this body whose loop the watchdog stopped the task in, if it did (the loop's
    /// block is named by its place: `L4C3_while`).
    fn halted_line(&self) -> Option<usize> {
        let f = self.img.halted?;
        let b = *self.img.plan.instr_block.get(f.instr as usize)?;
        let p = fbd_engine::plan::st_place(self.img.plan.blocks.at(b as usize).path)?;
        (p.instance == self.prefix.trim_end_matches('/')).then_some(p.line as usize)
    }

    /// The user data type of variable `name`, if it has one.
    fn data_type(&self, name: &str) -> Option<&str> {
        self.typed.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, t)| t.as_str())
    }

    /// `v` as the line shows it: an enumeration's value by its name.
    fn shown(&self, name: &str, v: Value) -> String {
        let types = DataTypes(&self.types);
        match self.data_type(name).and_then(|t| types.get(t)).filter(|t| t.is_enum()) {
            Some(t) => v.as_i64().and_then(|i| t.values().get(i as usize)).cloned().unwrap_or_else(|| v.short()),
            None => v.short(),
        }
    }

    /// An array's elements as the line shows them (the first few) and as its hover does.
    fn array(&self, name: &str) -> Option<(String, String)> {
        let shape = self.data_type(name).and_then(|t| DataTypes(&self.types).array(t))?;
        let plan = &self.img.plan;
        let elem = DataTypes(&self.types).element(&shape.of).and_then(|(_, e)| e);
        let mut values = Vec::new();
        for k in 0..shape.len().min(HOVER_MAX as u64) {
            let path = format!("{}{}", self.prefix, shape.element_name(name, k));
            let v = plan.signal_id(&path).map(|i| self.img.read_signal(i))?;
            let text = match elem {
                Some(t) => v.as_i64().and_then(|i| t.values().get(i as usize)).cloned().unwrap_or_else(|| v.short()),
                None => v.short(),
            };
            values.push((shape.element_name(name, k), text));
        }
        let more = shape.len() as usize > SHOWN_ELEMENTS;
        let first: Vec<&str> = values.iter().take(SHOWN_ELEMENTS).map(|(_, t)| t.as_str()).collect();
        let line = format!("{name} = [{}{}]", first.join(", "), if more { ", .." } else { "" });
        let hover: Vec<String> = values.iter().map(|(n, t)| format!("{n} = {t}")).collect();
        let hover =
            format!("{shape}\n{}{}", hover.join("\n"), if shape.len() as usize > HOVER_MAX { "\n.." } else { "" });
        Some((line, hover))
    }

    /// The signal path and value of a name of the body: a variable (it answers by its name),
    /// an input, an instance's output (`mix_t.Q` is the signal `mix_t.q`).
    fn value(&self, name: &str) -> Option<(String, Value)> {
        let plan = &self.img.plan;
        let lower = name.to_ascii_lowercase();
        let member = name.split_once('.').map(|(inst, pin)| format!("{inst}.{}", pin.to_ascii_lowercase()));
        let inside =
            [Some(name.to_string()), Some(lower), member].into_iter().flatten().map(|p| format!("{}{p}", self.prefix));
        // A function block's input is its instance's pin (`batch.stop`).
        let pin = self.prefix.strip_suffix('/').map(|inst| format!("{inst}.{name}"));
        inside.chain(pin).find_map(|path| plan.signal_id(&path).map(|i| (path, self.img.read_signal(i))))
    }
}

/// Appends `line` to `job` as the ST views show it: keywords, literals and comments coloured,
/// underlined in `underline` (a line in error); the names it reads, each once.
pub(crate) fn append_line<'l>(
    job: &mut LayoutJob,
    line: &'l str,
    font: &egui::FontId,
    visuals: &egui::Visuals,
    underline: Option<Color32>,
) -> Vec<&'l str> {
    let dark = visuals.dark_mode;
    let keyword = if dark { Color32::from_rgb(0x79, 0xb8, 0xff) } else { Color32::from_rgb(0x1a, 0x4f, 0xb0) };
    let literal = if dark { Color32::from_rgb(0xe0, 0xa0, 0x60) } else { Color32::from_rgb(0x9a, 0x4a, 0x00) };
    let mut names: Vec<&str> = Vec::new();
    for p in pieces(line) {
        let (s, c) = match p {
            Piece::Keyword(s) => (s, keyword),
            Piece::Literal(s) => (s, literal),
            Piece::Comment(s) => (s, visuals.weak_text_color()),
            Piece::Name(s) => {
                if !names.iter().any(|n| n.eq_ignore_ascii_case(s)) {
                    names.push(s);
                }
                (s, visuals.text_color())
            }
            Piece::Other(s) => (s, visuals.text_color()),
        };
        let mut f = egui::TextFormat::simple(font.clone(), c);
        if let Some(u) = underline {
            f.underline = egui::Stroke::new(1.5, u);
        }
        job.append(s, 0.0, f);
    }
    names
}

impl DiagramState {
    /// Draws the shown ST body with its live values; `None` when the body shown is not ST.
    pub(crate) fn st_ui(&mut self, ui: &mut egui::Ui, cx: &DiagramCtx<'_>) -> Option<Vec<(String, MenuAction)>> {
        let mac = self.macro_shown(cx.img)?;
        let lines = st_of(cx, &mac)?;
        let prefix = if self.instance.is_empty() { String::new() } else { format!("{}/", self.instance) };
        let types = cx.project.files.iter().flat_map(|f| f.doc.types.iter().cloned()).collect();
        let typed =
            variables_of(cx, &mac).iter().filter_map(|v| Some((v.name.clone(), v.data_type.clone()?))).collect();
        let live = StLive { img: Arc::clone(cx.img), prefix, types, typed };
        let mut back = None;
        ui.horizontal_wrapped(|ui| {
            if !self.instance.is_empty() {
                back = self.breadcrumb(ui);
                ui.separator();
            }
            let n = lines.len();
            ui.label(format!("Structured Text · {n} line{} · scan {}", if n == 1 { "" } else { "s" }, live.img.scan));
        });
        if let Some(path) = back {
            self.open(&path, &live.img);
            ui.ctx().request_repaint();
            return Some(Vec::new());
        }
        if let Some(d) = self.description(cx) {
            let first = d.lines().next().unwrap_or_default();
            ui.add(egui::Label::new(RichText::new(first).weak().italics()).truncate()).on_hover_text(d);
        }
        ui.separator();
        let font = egui::TextStyle::Monospace.resolve(ui.style());
        let text = ui.visuals().text_color();
        let comment = ui.visuals().weak_text_color();
        let chip = ui.visuals().widgets.inactive.weak_bg_fill;
        let width = lines.len().to_string().len();
        let mut acts = Vec::new();
        let halted = live.halted_line();
        egui::ScrollArea::both().auto_shrink([false, false]).show(ui, |ui| {
            for (k, line) in lines.iter().enumerate() {
                let stopped = halted == Some(k + 1);
                let mut job = LayoutJob::default();
                let number = if stopped { STOP_RED } else { comment };
                job.append(&format!("{:>width$}  ", k + 1), 0.0, egui::TextFormat::simple(font.clone(), number));
                let names = append_line(&mut job, line, &font, ui.visuals(), stopped.then_some(STOP_RED));
                ui.horizontal(|ui| {
                    ui.label(job);
                    ui.add_space(20.0);
                    if stopped {
                        // The loop the watchdog stopped the task in, as CODESYS marks the
                        // line of an exception.
                        ui.label(RichText::new("STOP: watchdog").color(STOP_RED).strong())
                            .on_hover_text(live.img.halt_message().unwrap_or_default());
                    }
                    for n in names {
                        if let Some((line, hover)) = live.array(n) {
                            let shown = RichText::new(line).monospace().background_color(chip).color(text);
                            ui.label(shown).on_hover_text(hover);
                            continue;
                        }
                        let Some((path, v)) = live.value(n) else { continue };
                        // A box per value, as CODESYS's inline monitoring draws them (a forced
                        // one underlined); right-click: write, force, release, break on it.
                        let shown =
                            RichText::new(format!("{n} = {}", live.shown(n, v))).monospace().background_color(chip);
                        let shown =
                            if v == Value::Bool(true) { shown.color(TRUE_GREEN).strong() } else { shown.color(text) };
                        let forced = live.img.plan.signal_id(&path).is_some_and(|i| live.img.is_forced(i));
                        let shown = if forced { shown.underline() } else { shown };
                        let resp = ui.add(egui::Label::new(shown).sense(egui::Sense::click()));
                        resp.on_hover_text(format!("{path}: right-click to write, force or break on it")).context_menu(
                            |ui| {
                                ui.label(RichText::new(format!("`{n}`")).strong());
                                if !matches!(v, Value::Bool(_)) {
                                    ui.text_edit_singleline(&mut self.menu_value);
                                }
                                for (label, act) in value_actions(ui, Some(v), forced, &self.menu_value) {
                                    if ui.button(label).clicked() {
                                        acts.push((path.clone(), act));
                                        ui.close();
                                    }
                                }
                            },
                        );
                    }
                });
            }
        });
        Some(acts)
    }
}
