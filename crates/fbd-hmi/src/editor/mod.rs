//! The editor: the Diagram tab's Edit mode. It draws one body of an `fbd_edit::Workspace` (the
//! program or a macro *definition*: an edit applies to every instance) and turns pointer and
//! key input into workspace edits: drag a block to move it (with the selection), drag from an
//! output pin (or a body input) to an input pin to connect, right-click an input to set a
//! constant or disconnect, Del to delete, Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y, Ctrl+S. After every
//! edit the program is compiled and the errors listed (blocks named in them are outlined red);
//! the running program keeps running until **Apply** loads the edited one by online change.
//!
//! The panel is `EditorState` (its methods here and in `canvas.rs`, `props.rs`,
//! `ports.rs`, `keys.rs`, `clipboard.rs`); what only the application can
//! do (Apply by online change, New after asking about unsaved edits, the running program's file
//! after a save, the recent list) it asks for in `EditorAsks`, which `App` carries out.

pub(crate) mod canvas;
pub(crate) mod clipboard;
pub(crate) mod connectors;
pub(crate) mod keys;
pub(crate) mod ladder;
pub(crate) mod ports;
pub(crate) mod props;
pub(crate) mod st;

use std::rc::Rc;
use std::time::Duration;

use eframe::egui::{self, Color32, Pos2, Vec2};
use fbd_edit::{BodyId, Workspace};
use fbd_layout::{Body, Layout};

use crate::source::{Loaded, Origin};
use fbd_engine::ScanPlan;

/// What the editor keeps between frames.
#[derive(Default)]
pub struct EditorState {
    /// Edit mode is on (the Diagram tab shows the editor instead of the online view).
    pub(crate) on: bool,
    /// A ladder network was started in a body that had none (`ladder.rs`).
    pub(crate) ladder_started: bool,
    /// The ladder toolbar's variable (what a new contact reads, a new coil writes) and coil.
    pub(crate) ladder_var: String,
    pub(crate) ladder_coil: String,
    /// The block type a rung gets, and the input of a selected block the toolbar sets.
    pub(crate) ladder_block: String,
    pub(crate) ladder_pin: String,
    /// The ST text being typed: the body it is of, the workspace version it was read at, and
    /// the text (`st.rs`); a body started in ST that had none.
    pub(crate) st_text: Option<(BodyId, u64, String)>,
    pub(crate) st_started: bool,
    /// The ST toolbar's declaration: a name and its type (`motor`, `BOOL`; `t1`, `TON`).
    pub(crate) st_name: String,
    pub(crate) st_type: String,
    /// The edited ladder body's drawing, for the workspace version it was made at.
    pub(crate) ladder_drawn: Option<(u64, Rc<fbd_layout::ladder::LadderDrawing>)>,
    pub(crate) ws: Option<Workspace>,
    pub(crate) body: Option<BodyId>,
    /// Bumped on every change of the workspace, to redraw.
    pub(crate) version: u64,
    pub(crate) drawn: Option<(u64, Rc<(Body, Layout)>)>,
    pub(crate) selected: Vec<String>,
    pub(crate) drag: Option<Drag>,
    /// How far the pointer has moved since the drag started.
    pub(crate) drag_offset: Vec2,
    pub(crate) pan: Vec2,
    pub(crate) zoom: f32,
    pub(crate) fit: bool,
    pub(crate) fit_hold: crate::canvas::FitHold,
    pub(crate) palette: String,
    pub(crate) save_as: String,
    /// Save as was asked to write over this existing file: the next click on Overwrite does.
    pub(crate) overwrite: Option<std::path::PathBuf>,
    /// The input whose menu is open: (block, pin), and the constant typed there.
    pub(crate) pin_menu: Option<(String, String)>,
    /// The pin of `pin_menu` is an output (its menu offers only the negation).
    pub(crate) pin_menu_output: bool,
    pub(crate) constant: String,
    /// The initial value typed for a feedback wire in the pin menu.
    pub(crate) feedback_init: String,
    /// The connector name typed in an output pin's menu.
    pub(crate) connector_name: String,
    /// The constant the pin of the open menu has (shown as the field's hint).
    pub(crate) constant_now: String,
    /// The pin menu just opened: its constant field takes the keyboard.
    pub(crate) constant_focus: bool,
    pub(crate) message: String,
    /// More about the message (what an Apply kept and reset), shown on hover.
    pub(crate) details: String,
    /// The errors of the last compile of the edited program (empty when it compiles).
    pub(crate) errors: Vec<String>,
    /// Blocks named by those errors, with the message.
    pub(crate) error_blocks: Vec<(String, String)>,
    /// The background compiler of the edited program.
    pub(crate) checker: Option<fbd_edit::Checker>,
    /// How long its last compile took (ms).
    pub(crate) check_ms: f64,
    pub(crate) origin: Pos2,
    /// The canvas's screen rectangle in the last frame.
    pub(crate) canvas: Option<egui::Rect>,
    /// The properties column.
    pub(crate) props: crate::editor::props::PropsState,
    /// What the editor last copied (the system clipboard has it too).
    pub(crate) clipboard: Option<String>,
    /// What this frame asked of the application (taken by it after the frame).
    pub(crate) asks: EditorAsks,
}

/// A pointer drag in progress.
#[derive(Clone, Debug)]
pub(crate) enum Drag {
    /// Moving the selected blocks.
    Move,
    /// Drawing a wire from this source (`block.pin` or an input port name).
    Wire(String, Pos2),
    /// Drawing a wire from input `pin` of `block` back to a source (connect or reconnect).
    WireBack(String, String, Pos2),
    /// Panning the view (middle button).
    Pan,
    /// Selecting the blocks a rectangle from this corner touches.
    Select(Pos2),
}

impl EditorState {
    /// Forgets the workspace (another program was loaded).
    pub(crate) fn reset(&mut self) {
        self.ws = None;
        self.body = None;
        self.drawn = None;
        self.ladder_drawn = None;
        self.ladder_started = false;
        self.st_started = false;
        self.st_text = None;
        self.selected.clear();
        self.errors.clear();
        self.error_blocks.clear();
    }

    /// Forgets what was typed and said for the program before, and its view (another program
    /// was loaded): a path left in the Save as field wrote the new program over the old one's
    /// file, and the old view showed an empty part of the new canvas.
    pub(crate) fn another_program(&mut self) {
        self.save_as.clear();
        self.overwrite = None;
        self.message.clear();
        self.details.clear();
        self.pin_menu = None;
        self.fit = true;
        self.pan = Vec2::ZERO;
    }

    /// Starts a new, empty program in the editor (saved with Save as; Apply runs it).
    pub(crate) fn new_program(&mut self) {
        let mut ws = Workspace::new_program("untitled.json");
        ws.set_no_file("the new program has no file yet");
        self.ws = Some(ws);
        self.ladder_started = false;
        self.ladder_drawn = None;
        self.body = Some(BodyId::Program);
        self.selected.clear();
        self.errors.clear();
        self.error_blocks.clear();
        self.fit = false;
        self.zoom = 1.0;
        self.pan = Vec2::new(40.0, 40.0);
        self.version += 1;
        self.message = "new program: add blocks, then Save as and Apply".into();
    }

    /// Save (Ctrl+S): writes the changed files.
    pub(crate) fn save(&mut self) -> Result<String, String> {
        match self.workspace().save() {
            Ok(w) if w.is_empty() => Ok("nothing to save".into()),
            Ok(w) => {
                self.asks.saved = true;
                Ok(format!("saved {}", w.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")))
            }
            Err(e) => Err(format!("cannot save: {e}")),
        }
    }

    /// Save as the path typed in the field (`~` is the home directory, as in a shell). An
    /// existing file other than the program's own is written over only when `overwrite`
    /// confirms it: the first click asks.
    pub(crate) fn save_as_typed(&mut self, overwrite: bool) -> Result<String, String> {
        let typed = self.save_as.trim().to_string();
        if typed.is_empty() {
            return Err("type a path to save as".to_string());
        }
        let target = fbd_engine::load::normalize(&crate::paths::typed_path(&typed));
        let ws = self.ws.as_mut().expect("made");
        let own = ws.has_file() && fbd_engine::load::normalize(ws.path()) == target;
        if target.exists() && !own && !(overwrite && self.overwrite.as_ref() == Some(&target)) {
            self.overwrite = Some(target.clone());
            return Err(format!("{} exists: Overwrite replaces it, Cancel keeps it", target.display()));
        }
        self.overwrite = None;
        let written = ws.save_as(&target).map_err(|e| format!("{}: {e}", target.display()))?;
        self.asks.saved = true;
        self.asks.saved_as = Some(ws.path().to_path_buf());
        Ok(format!("wrote {}", written.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")))
    }

    /// The workspace being edited (made by [`Self::ensure_workspace`] before the editor is
    /// drawn or asked).
    pub fn workspace(&mut self) -> &mut Workspace {
        self.ws.as_mut().expect("the workspace is made before the editor is used")
    }

    /// Makes the workspace from the running program's files (`loaded`, compiled as `plan`)
    /// on first use.
    pub(crate) fn ensure_workspace(&mut self, loaded: &Loaded, plan: &ScanPlan) {
        if self.ws.is_some() {
            return;
        }
        let mut ws = Workspace::from_project(&loaded.project);
        // Its files' paths are names, not places to write, unless it was opened from a
        // diagram file of its own.
        match &loaded.origin {
            Origin::Embedded(w) => {
                ws.set_no_file(format!("diagrams/{} is built into the program, not a file of yours", w.file_name()))
            }
            Origin::File(p) if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("xml")) => ws.set_no_file(format!(
                "{} was imported from PLCopen XML (the editor writes its own format)",
                p.display()
            )),
            Origin::File(_) => {}
            Origin::Editor(_) => ws.set_no_file("the program applied from the editor has no file yet"),
        }
        ws.learn_types(plan);
        self.ws = Some(ws);
        self.version += 1;
    }

    /// The editor's last message (what an edit did, or why it was refused).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The editor's header and canvas.
    pub(crate) fn ui(&mut self, ui: &mut egui::Ui) {
        if self.zoom == 0.0 {
            self.zoom = 1.0;
            self.fit = true;
        }
        let body = self.shown_body();
        if let Some(o) = self.checker.as_mut().and_then(|c| c.poll()) {
            self.take_check(o);
        }
        if self.checker.as_ref().is_some_and(|c| c.pending()) {
            ui.ctx().request_repaint_after(Duration::from_millis(30));
        }
        self.header(ui, &body);
        self.keys(ui, &body);
        if self.ladder_mode(&body) {
            self.ladder_ui(ui, &body);
            return;
        }
        if self.st_mode(&body) {
            self.st_ui(ui, &body);
            return;
        }
        self.clipboard_keys(ui, &body);
        let Some(drawn) = self.drawn_body() else {
            ui.label("this body cannot be drawn until its file parses");
            return;
        };
        let (b, l) = &*drawn;
        egui::Panel::right("edit_props").resizable(true).default_size(250.0).show(ui, |ui| {
            self.props(ui, &body);
        });
        self.canvas_ui(ui, &body, b, l);
    }
}

impl EditorState {
    /// Where input `pin` of block `block` of the edited body was drawn in the last frame (for
    /// tests that right-click it).
    pub fn pin_pos(&mut self, block: &str, pin: &str) -> Option<Pos2> {
        let d = self.drawn_body()?;
        let (b, l) = &*d;
        let i = b.nodes.iter().position(|n| n.id == block)?;
        let k = b.nodes[i].inputs.iter().position(|(p, _)| p == pin)?;
        let a = l.in_anchors[i][k];
        Some(self.origin + Vec2::new(a.x as f32, a.y as f32) * self.zoom)
    }

    /// Where output `pin` of `block` (or, with `block` empty, the body's input or output port
    /// `pin`) was drawn in the last frame.
    pub fn anchor_pos(&mut self, block: &str, pin: &str) -> Option<Pos2> {
        let d = self.drawn_body()?;
        let (b, l) = &*d;
        let a = if block.is_empty() {
            match b.inputs.iter().position(|p| p == pin) {
                Some(k) => l.input_ports[k],
                None => l.output_ports[b.outputs.iter().position(|(p, _)| p == pin)?],
            }
        } else {
            let i = b.nodes.iter().position(|n| n.id == block)?;
            l.out_anchors[i][b.nodes[i].outputs.iter().position(|p| p == pin)?]
        };
        Some(self.origin + Vec2::new(a.x as f32, a.y as f32) * self.zoom)
    }

    /// The stored position of block `id` of the edited body and where its centre was drawn.
    pub fn block_at(&mut self, id: &str) -> Option<([f64; 2], Pos2)> {
        let body = self.shown_body();
        let stored = self.workspace().block(&body, id)?.pos?;
        let d = self.drawn_body()?;
        let (b, l) = &*d;
        let r = l.blocks[b.nodes.iter().position(|n| n.id == id)?];
        let c = Vec2::new((r.x + r.w / 2.0) as f32, (r.y + r.h / 2.0) as f32);
        Some((stored, self.origin + c * self.zoom))
    }

    /// Which body the editor shows.
    pub(crate) fn shown_body(&self) -> BodyId {
        self.body.clone().unwrap_or(BodyId::Program)
    }

    /// Opens `body` in the editor.
    pub fn open_body(&mut self, body: BodyId) {
        self.body = Some(body);
        self.selected.clear();
        self.fit = true;
        self.version += 1;
    }

    /// Records the outcome of an edit: on success the edited program is compiled and its
    /// errors listed; on a refusal the reason is shown.
    pub fn after(&mut self, what: Result<String, String>) {
        self.details.clear();
        match what {
            Ok(m) => {
                self.version += 1;
                self.message = m;
                self.check();
            }
            Err(e) => self.message = e,
        }
    }

    /// Hands the edited program to the background checker (it compiles once the edits pause
    /// for 150 ms; the editor never waits for it).
    fn check(&mut self) {
        let version = self.version;
        self.workspace();
        let checker = self.checker.get_or_insert_with(|| fbd_edit::Checker::new(Duration::from_millis(150)));
        checker.submit(version, self.ws.as_ref().expect("made"));
    }

    /// Takes the checker's newest outcome, if it is for the current version: its errors are
    /// listed, and a good compile teaches the workspace the types of generic blocks.
    fn take_check(&mut self, o: fbd_edit::check::Outcome) {
        if o.version != self.version {
            return;
        }
        self.check_ms = o.took.as_secs_f64() * 1e3;
        match o.result {
            Ok(plan) => {
                if let Some(ws) = self.ws.as_mut() {
                    ws.learn_types(&plan);
                }
                self.errors.clear();
                self.error_blocks.clear();
            }
            Err(d) => {
                self.error_blocks =
                    d.0.iter()
                        .filter_map(|e| {
                            let b = e.block.as_ref()?;
                            Some((b.rsplit('/').next().unwrap_or(b).to_string(), e.message.clone()))
                        })
                        .collect();
                self.errors = d.0.iter().map(|e| e.to_string()).collect();
            }
        }
    }

    /// Waits (at most 30 s) for the check of the current version and takes it; for tests and
    /// for Apply, which needs to know.
    pub fn wait_check(&mut self) {
        if let Some(o) = self.checker.as_mut().and_then(|c| c.wait(Duration::from_secs(30))) {
            self.take_check(o);
        }
    }

    pub(crate) fn drawn_body(&mut self) -> Option<Rc<(Body, Layout)>> {
        let version = self.version;
        if let Some((v, d)) = &self.drawn
            && *v == version
        {
            return Some(d.clone());
        }
        let body = self.shown_body();
        let ws = self.workspace();
        let project = ws.project().ok()?;
        let name = match &body {
            BodyId::Program => None,
            BodyId::Macro(m) => Some(m.as_str()),
        };
        let b = fbd_layout::from_model::body_for_editing(&project, name).ok()?;
        // Blocks stand exactly where the user put them; a body with no positions at all (an
        // imported one) is laid out once.
        let pos = fbd_layout::from_model::positions(&project, name);
        let l =
            if pos.iter().all(Option::is_none) { fbd_layout::layout(&b) } else { fbd_layout::layout_free(&b, &pos) };
        let rc = Rc::new((b, l));
        self.drawn = Some((version, rc.clone()));
        Some(rc)
    }

    /// The editor's header: which body, the palette, undo/redo, the file buttons, Apply; under
    /// it the check's status and the first error.
    fn header(&mut self, ui: &mut egui::Ui, body: &BodyId) {
        let mut act: Option<Result<String, String>> = None;
        let mut new = false;
        ui.horizontal_wrapped(|ui| {
            let open = self.body_picker(ui, body);
            let add = self.palette(ui);
            if let Some(open) = open {
                self.open_body(open);
            }
            if let Some(t) = add {
                act = Some(self.add_block(body, &t));
            }
            // An empty body may be written in ladder (`ladder.rs`).
            let empty = self.workspace().blocks(body).is_some_and(<[_]>::is_empty);
            if empty
                && !self.ladder_mode(body)
                && ui
                    .button("Ladder")
                    .on_hover_text("write this body in ladder (LD): rungs of contacts and coils")
                    .clicked()
            {
                self.ladder_started = true;
            }
            if empty
                && !self.ladder_mode(body)
                && !self.st_mode(body)
                && ui.button("ST").on_hover_text("write this body in Structured Text").clicked()
            {
                self.st_started = true;
            }
            ui.separator();
            let (a, n) = self.file_buttons(ui);
            if a.is_some() {
                act = a;
            }
            new = n;
        });
        if new {
            self.asks.new_program = true;
        }
        if let Some(a) = act {
            self.after(a);
        }
        self.status_line(ui);
    }

    /// The body being edited: the program or a macro of the project. The one chosen.
    fn body_picker(&mut self, ui: &mut egui::Ui, body: &BodyId) -> Option<BodyId> {
        let ws = self.ws.as_ref().expect("made");
        let mut open: Option<BodyId> = None;
        egui::ComboBox::from_id_salt("edit_body").selected_text(body.to_string()).show_ui(ui, |ui| {
            if ui.selectable_label(*body == BodyId::Program, "the program").clicked() {
                open = Some(BodyId::Program);
            }
            for (m, f) in ws.macros() {
                let here = *body == BodyId::Macro(m.clone());
                let file = f.file_name().map(|x| x.to_string_lossy().to_string()).unwrap_or_default();
                if ui.selectable_label(here, format!("macro {m}  ({file})")).clicked() {
                    open = Some(BodyId::Macro(m));
                }
            }
        });
        open
    }

    /// The palette: library blocks by kind, then the project's macros; type to filter, Enter
    /// takes the type typed or the only one that matches. The type to add, if one was chosen.
    fn palette(&mut self, ui: &mut egui::Ui) -> Option<String> {
        let ws = self.ws.as_ref().expect("made");
        // The palette: library blocks by kind, then the project's macros; type to filter.
        let l = ui.label("Add");
        let typed = ui
            .add(egui::TextEdit::singleline(&mut self.palette).hint_text("block type").desired_width(90.0))
            .labelled_by(l.id);
        // Enter in the field: the type typed, or the only one that matches.
        let entered = typed.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let q = self.palette.trim().to_uppercase();
        // (category, type), library blocks by category, then the project's macros.
        // Every conversion too (type `DINT_TO` to find them).
        let mut types: Vec<(&str, String)> =
            fbd_engine::library::all().map(|d| (d.category(), d.name.to_string())).collect();
        types.sort_by_key(|(c, _)| *c);
        types.extend(ws.macros().into_iter().map(|(m, _)| ("macros of this project", m)));
        let entries: Vec<(&str, String)> =
            types.into_iter().filter(|(_, t)| q.is_empty() || t.to_uppercase().contains(&q)).collect();
        let matches: Vec<String> = entries.iter().map(|(_, t)| t.clone()).collect();
        let mut add: Option<String> = None;
        egui::ComboBox::from_id_salt("edit_palette")
            .selected_text(format!("{} types", matches.len()))
            .height(360.0)
            .show_ui(ui, |ui| {
                let mut heading = "";
                for (c, t) in &entries {
                    if *c != heading {
                        heading = c;
                        ui.label(egui::RichText::new(*c).weak().small());
                    }
                    if ui.selectable_label(false, t).clicked() {
                        add = Some(t.clone());
                    }
                }
            });
        let exact = matches.iter().find(|t| t.to_uppercase() == q).cloned();
        if entered && exact.is_none() && matches.len() != 1 {
            self.message = format!("{} types match `{}`: pick one from the list", matches.len(), q);
        }
        add.or_else(|| entered.then(|| exact.or_else(|| (matches.len() == 1).then(|| matches[0].clone()))).flatten())
    }

    /// Adds a block of type `t` at the centre of the view, on the grid, in the first free place
    /// down from there.
    fn add_block(&mut self, body: &BodyId, t: &str) -> Result<String, String> {
        // At the centre of the view, on the grid.
        let centre = self.canvas.map_or(Pos2::new(400.0, 300.0), |r| r.center());
        let c = (centre - self.origin) / self.zoom;
        let mut pos = fbd_layout::snap([c.x as f64, c.y as f64]);
        self.palette.clear();
        // Not on or under a block already there (as drawn, whatever its size, with the
        // line its error message takes below it): the first free place down the view.
        let taken: Vec<fbd_layout::Rect> = self.drawn_body().map(|d| d.1.blocks.clone()).unwrap_or_default();
        let clear = |p: [f64; 2]| {
            let (w, h, gap, error_line) = (140.0, 100.0, 20.0, 30.0);
            taken.iter().all(|r| {
                p[0] + w + gap <= r.x
                    || r.x + r.w + gap <= p[0]
                    || p[1] + h + gap <= r.y
                    || r.y + r.h + gap + error_line <= p[1]
            })
        };
        for _ in 0..1000 {
            if clear(pos) {
                break;
            }
            pos[1] += 20.0;
        }
        let ws = self.ws.as_mut().expect("made");
        ws.add_block(body, t, pos).map(|id| format!("added `{id}`")).map_err(|e| e.0)
    }

    /// Undo, Redo, New, Save, Save as (with its Overwrite question) and Apply: what one did,
    /// and whether New was asked for.
    fn file_buttons(&mut self, ui: &mut egui::Ui) -> (Option<Result<String, String>>, bool) {
        let (mut act, mut new) = (None, false);
        let ws = self.ws.as_ref().expect("made");
        let (u, r) = (ws.undo_label().map(str::to_string), ws.redo_label().map(str::to_string));
        if ui.add_enabled(u.is_some(), egui::Button::new("Undo")).on_hover_text(u.clone().unwrap_or_default()).clicked()
        {
            act = Some(self.undo(true));
        }
        if ui.add_enabled(r.is_some(), egui::Button::new("Redo")).on_hover_text(r.unwrap_or_default()).clicked() {
            act = Some(self.undo(false));
        }
        if ui.button("New").on_hover_text("a new, empty program (the running one keeps running)").clicked() {
            new = true;
        }
        if ui.button("Save").on_hover_text("Ctrl+S: write the changed files").clicked() {
            act = Some(self.save());
        }
        let l = ui.label("file");
        ui.add(egui::TextEdit::singleline(&mut self.save_as).hint_text("path.json").desired_width(120.0))
            .labelled_by(l.id);
        if ui.button("Save as").clicked() {
            act = Some(self.save_as_typed(false));
        }
        if let Some(target) = self.overwrite.clone() {
            ui.colored_label(Color32::from_rgb(0xe0, 0x90, 0x30), format!("{} exists", target.display()));
            if ui.button("Overwrite").clicked() {
                act = Some(self.save_as_typed(true));
            }
            if ui.button("Cancel").clicked() {
                self.overwrite = None;
                act = Some(Ok("not saved".into()));
            }
        }
        let apply = ui.add_enabled(self.errors.is_empty(), egui::Button::new("Apply"));
        if apply.on_hover_text("load the edited program into the running one (online change)").clicked() {
            self.asks.apply = true;
        }
        (act, new)
    }

    /// Whether the edited program compiles (or its errors), the unsaved files, the last
    /// message; then the first error on a line of its own.
    fn status_line(&mut self, ui: &mut egui::Ui) {
        let dirty = self.ws.as_ref().map_or(0, |w| w.dirty().len());
        ui.horizontal(|ui| {
            if self.checker.as_ref().is_some_and(|c| c.pending()) {
                ui.label(egui::RichText::new("checking...").weak());
            } else if !self.errors.is_empty() {
                ui.colored_label(Color32::from_rgb(0xe0, 0x40, 0x40), format!("{} error(s)", self.errors.len()))
                    .on_hover_text(self.errors.join("\n"));
            } else {
                ui.colored_label(Color32::from_rgb(0x30, 0xa0, 0x40), "compiles")
                    .on_hover_text(format!("the last check took {:.1} ms", self.check_ms));
            }
            if dirty > 0 {
                ui.label(format!("{dirty} unsaved file(s)"));
            }
            let m = ui.label(egui::RichText::new(&self.message).weak());
            if !self.details.is_empty() {
                m.on_hover_text(&self.details);
            }
        });
        // Always one line, empty or not: the canvas must not jump when an error comes or goes
        // (a drag in progress would land somewhere else).
        let first = self.errors.first().map_or("", String::as_str);
        ui.add(
            egui::Label::new(egui::RichText::new(first).color(Color32::from_rgb(0xe0, 0x40, 0x40)).small()).truncate(),
        );
    }

    pub(crate) fn undo(&mut self, undo: bool) -> Result<String, String> {
        let ws = self.workspace();
        let label = if undo { ws.undo_label() } else { ws.redo_label() }.unwrap_or_default().to_string();
        let done = if undo { ws.undo() } else { ws.redo() };
        if !done {
            return Err(format!("nothing to {}", if undo { "undo" } else { "redo" }));
        }
        Ok(format!("{} {label}", if undo { "undid" } else { "redid" }))
    }
}

/// What the editor asks of the application after a frame: what only the application can do
/// (the running program, the loaded files and the recent list are its).
#[derive(Default)]
pub(crate) struct EditorAsks {
    /// Apply: load the edited program by online change.
    pub apply: bool,
    /// New: a new program, after asking about unsaved edits.
    pub new_program: bool,
    /// Files were written: the running program may be the saved file's now.
    pub saved: bool,
    /// Save as wrote this main file: one to open again.
    pub saved_as: Option<std::path::PathBuf>,
}
