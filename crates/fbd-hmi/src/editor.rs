//! The editor: the Diagram tab's Edit mode. It draws one body of an `fbd_edit::Workspace` (the
//! program or a macro *definition*: an edit applies to every instance) and turns pointer and
//! key input into workspace edits: drag a block to move it (with the selection), drag from an
//! output pin (or a body input) to an input pin to connect, right-click an input to set a
//! constant or disconnect, Del to delete, Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y, Ctrl+S. After every
//! edit the program is compiled and the errors listed (blocks named in them are outlined red);
//! the running program keeps running until **Apply** loads the edited one by online change.

use std::rc::Rc;
use std::time::Duration;

use eframe::egui::{self, Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, Vec2};
use fbd_edit::{BodyId, Workspace};
use fbd_engine::library::LIBRARY;
use fbd_layout::{Body, Layout};

use crate::app::App;

/// What the editor keeps between frames.
#[derive(Default)]
pub struct EditorState {
    /// Edit mode is on (the Diagram tab shows the editor instead of the online view).
    pub(crate) on: bool,
    ws: Option<Workspace>,
    body: Option<BodyId>,
    /// Bumped on every change of the workspace, to redraw.
    version: u64,
    drawn: Option<(u64, Rc<(Body, Layout)>)>,
    selected: Vec<String>,
    drag: Option<Drag>,
    pan: Vec2,
    zoom: f32,
    fit: bool,
    palette: String,
    save_as: String,
    /// The input whose menu is open: (block, pin), and the constant typed there.
    pin_menu: Option<(String, String)>,
    constant: String,
    pub(crate) message: String,
    /// The errors of the last compile of the edited program (empty when it compiles).
    pub(crate) errors: Vec<String>,
    error_blocks: Vec<String>,
    origin: Pos2,
}

/// A pointer drag in progress.
#[derive(Clone, Debug)]
enum Drag {
    /// Moving the selected blocks.
    Move,
    /// Drawing a wire from this source (`block.pin` or an input port name).
    Wire(String, Pos2),
    /// Panning the view.
    Pan,
}

impl EditorState {
    /// Forgets the workspace (another program was loaded).
    pub(crate) fn reset(&mut self) {
        self.ws = None;
        self.body = None;
        self.drawn = None;
        self.selected.clear();
        self.errors.clear();
        self.error_blocks.clear();
    }
}

impl App {
    /// The workspace being edited, made from the running program's files on first use.
    pub fn editor_workspace(&mut self) -> &mut Workspace {
        if self.editor.ws.is_none() {
            let mut ws = Workspace::from_project(&self.loaded.project);
            self.runner.with(|rt| ws.learn_types(rt.plan()));
            self.editor.ws = Some(ws);
            self.editor.version += 1;
        }
        self.editor.ws.as_mut().expect("just made")
    }

    /// Where input `pin` of block `block` of the edited body was drawn in the last frame (for
    /// tests that right-click it).
    pub fn editor_pin_pos(&mut self, block: &str, pin: &str) -> Option<Pos2> {
        let d = self.editor_drawn()?;
        let (b, l) = &*d;
        let i = b.nodes.iter().position(|n| n.id == block)?;
        let k = b.nodes[i].inputs.iter().position(|(p, _)| p == pin)?;
        let a = l.in_anchors[i][k];
        Some(self.editor.origin + Vec2::new(a.x as f32, a.y as f32) * self.editor.zoom)
    }

    /// Which body the editor shows.
    pub fn editor_body(&self) -> BodyId {
        self.editor.body.clone().unwrap_or(BodyId::Program)
    }

    /// Opens `body` in the editor.
    pub fn editor_open(&mut self, body: BodyId) {
        self.editor.body = Some(body);
        self.editor.selected.clear();
        self.editor.fit = true;
        self.editor.version += 1;
    }

    /// Records the outcome of an edit: on success the edited program is compiled and its
    /// errors listed; on a refusal the reason is shown.
    pub fn editor_after(&mut self, what: Result<String, String>) {
        match what {
            Ok(m) => {
                self.editor.version += 1;
                self.editor.message = m;
                self.editor_check();
            }
            Err(e) => self.editor.message = e,
        }
    }

    /// Compiles the edited program (a few milliseconds for the 2048 program) and lists its
    /// errors; a good compile teaches the workspace the types of generic blocks.
    fn editor_check(&mut self) {
        let ws = self.editor_workspace();
        match ws.compile() {
            Ok(plan) => {
                ws.learn_types(&plan);
                self.editor.errors.clear();
                self.editor.error_blocks.clear();
            }
            Err(d) => {
                self.editor.error_blocks =
                    d.0.iter()
                        .filter_map(|e| e.block.as_ref().map(|b| b.rsplit('/').next().unwrap_or(b).to_string()))
                        .collect();
                self.editor.errors = d.0.iter().map(|e| e.to_string()).collect();
            }
        }
    }

    /// Loads the edited program into the running runtime by online change.
    pub fn editor_apply(&mut self) {
        let ws = self.editor_workspace();
        let (project, plan) = match ws.project().and_then(|p| {
            let plan = fbd_engine::compile_project(&p, &Default::default())?;
            Ok((p, plan))
        }) {
            Ok(x) => x,
            Err(d) => {
                self.editor.errors = d.0.iter().map(|e| e.to_string()).collect();
                self.editor.message = format!("not applied: {} error(s); the running program is unchanged", d.0.len());
                return;
            }
        };
        let old_cycle = self.runner.with(|rt| Duration::from_micros(rt.plan().cycle_us));
        let new_cycle = Duration::from_micros(plan.cycle_us);
        let report = self.runner.with(|rt| rt.online_change(plan));
        if self.runner.period() == old_cycle {
            self.runner.set_period(new_cycle);
        }
        self.editor.message = format!(
            "applied by online change: {} kept, {} reset, {} removed",
            report.kept.len(),
            report.reset.len(),
            report.removed.len()
        );
        self.loaded.project = project;
        // The runtime has a new plan: rebind the game and the views, keep the editor's work.
        let ws = self.editor.ws.take();
        let body = self.editor.body.clone();
        self.attach();
        self.editor.ws = ws;
        self.editor.body = body;
    }

    fn editor_drawn(&mut self) -> Option<Rc<(Body, Layout)>> {
        let version = self.editor.version;
        if let Some((v, d)) = &self.editor.drawn
            && *v == version
        {
            return Some(d.clone());
        }
        let body = self.editor_body();
        let ws = self.editor_workspace();
        let project = ws.project().ok()?;
        let name = match &body {
            BodyId::Program => None,
            BodyId::Macro(m) => Some(m.as_str()),
        };
        let b = fbd_layout::from_model::body(&project, name).ok()?;
        let l = fbd_layout::layout_kept(&b, &fbd_layout::from_model::positions(&project, name));
        let rc = Rc::new((b, l));
        self.editor.drawn = Some((version, rc.clone()));
        Some(rc)
    }

    /// The editor's header and canvas.
    pub(crate) fn editor_panel(&mut self, ui: &mut egui::Ui) {
        self.editor_workspace();
        if self.editor.zoom == 0.0 {
            self.editor.zoom = 1.0;
            self.editor.fit = true;
        }
        let body = self.editor_body();
        self.editor_header(ui, &body);
        self.editor_keys(ui, &body);
        let Some(drawn) = self.editor_drawn() else {
            ui.label("this body cannot be drawn until its file parses");
            return;
        };
        let (b, l) = &*drawn;
        self.editor_canvas(ui, &body, b, l);
    }

    fn editor_header(&mut self, ui: &mut egui::Ui, body: &BodyId) {
        let mut act: Option<Result<String, String>> = None;
        ui.horizontal_wrapped(|ui| {
            let ws = self.editor.ws.as_ref().expect("made");
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
            // The palette: library blocks by kind, then the project's macros; type to filter.
            let l = ui.label("Add");
            ui.add(egui::TextEdit::singleline(&mut self.editor.palette).hint_text("block type").desired_width(90.0))
                .labelled_by(l.id);
            let q = self.editor.palette.trim().to_uppercase();
            let mut types: Vec<String> = LIBRARY.iter().map(|d| d.name.to_string()).collect();
            types.extend(ws.macros().into_iter().map(|(m, _)| m));
            let matches: Vec<String> =
                types.into_iter().filter(|t| q.is_empty() || t.to_uppercase().contains(&q)).collect();
            let mut add: Option<String> = None;
            egui::ComboBox::from_id_salt("edit_palette")
                .selected_text(format!("{} types", matches.len()))
                .height(360.0)
                .show_ui(ui, |ui| {
                    for t in &matches {
                        if ui.selectable_label(false, t).clicked() {
                            add = Some(t.clone());
                        }
                    }
                });
            if let Some(open) = open {
                self.editor_open(open);
            }
            if let Some(t) = add.or_else(|| {
                (ui.input(|i| i.key_pressed(egui::Key::Enter)) && matches.len() == 1).then(|| matches[0].clone())
            }) {
                // At the centre of the view, on the grid.
                let c = (self.editor.origin.to_vec2() * -1.0 + Vec2::new(300.0, 200.0)) / self.editor.zoom;
                let pos = [(c.x as f64 / 20.0).round() * 20.0, (c.y as f64 / 20.0).round() * 20.0];
                let ws = self.editor.ws.as_mut().expect("made");
                act = Some(ws.add_block(body, &t, pos).map(|id| format!("added `{id}`")).map_err(|e| e.0));
            }
            ui.separator();
            let ws = self.editor.ws.as_ref().expect("made");
            let (u, r) = (ws.undo_label().map(str::to_string), ws.redo_label().map(str::to_string));
            if ui
                .add_enabled(u.is_some(), egui::Button::new("Undo"))
                .on_hover_text(u.clone().unwrap_or_default())
                .clicked()
            {
                act = Some(self.editor_undo(true));
            }
            if ui.add_enabled(r.is_some(), egui::Button::new("Redo")).on_hover_text(r.unwrap_or_default()).clicked() {
                act = Some(self.editor_undo(false));
            }
            if ui.button("Save").on_hover_text("Ctrl+S: write the changed files").clicked() {
                act = Some(self.editor_save());
            }
            ui.add(
                egui::TextEdit::singleline(&mut self.editor.save_as)
                    .hint_text("save as path.json")
                    .desired_width(120.0),
            );
            if ui.button("Save as").clicked() {
                let p = self.editor.save_as.trim().to_string();
                let ws = self.editor.ws.as_mut().expect("made");
                act = Some(if p.is_empty() {
                    Err("type a path to save as".to_string())
                } else {
                    ws.save_as(&p)
                        .map(|w| {
                            format!(
                                "wrote {}",
                                w.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
                            )
                        })
                        .map_err(|e| format!("{p}: {e}"))
                });
            }
            let apply = ui.add_enabled(self.editor.errors.is_empty(), egui::Button::new("Apply"));
            if apply.on_hover_text("load the edited program into the running one (online change)").clicked() {
                self.editor_apply();
            }
        });
        if let Some(a) = act {
            self.editor_after(a);
        }
        let dirty = self.editor.ws.as_ref().map_or(0, |w| w.dirty().len());
        ui.horizontal(|ui| {
            if !self.editor.errors.is_empty() {
                ui.colored_label(Color32::from_rgb(0xe0, 0x40, 0x40), format!("{} error(s)", self.editor.errors.len()))
                    .on_hover_text(self.editor.errors.join("\n"));
            } else {
                ui.colored_label(Color32::from_rgb(0x30, 0xa0, 0x40), "compiles");
            }
            if dirty > 0 {
                ui.label(format!("{dirty} unsaved file(s)"));
            }
            ui.label(egui::RichText::new(&self.editor.message).weak());
        });
        if let Some(first) = self.editor.errors.first() {
            ui.label(egui::RichText::new(first).color(Color32::from_rgb(0xe0, 0x40, 0x40)).small());
        }
    }

    fn editor_undo(&mut self, undo: bool) -> Result<String, String> {
        let ws = self.editor_workspace();
        let label = if undo { ws.undo_label() } else { ws.redo_label() }.unwrap_or_default().to_string();
        let done = if undo { ws.undo() } else { ws.redo() };
        if !done {
            return Err(format!("nothing to {}", if undo { "undo" } else { "redo" }));
        }
        Ok(format!("{} {label}", if undo { "undid" } else { "redid" }))
    }

    fn editor_save(&mut self) -> Result<String, String> {
        let ws = self.editor_workspace();
        match ws.save() {
            Ok(w) if w.is_empty() => Ok("nothing to save".into()),
            Ok(w) => Ok(format!("saved {}", w.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "))),
            Err(e) => Err(format!("cannot save: {e} (an embedded program is saved with Save as)")),
        }
    }

    fn editor_keys(&mut self, ui: &egui::Ui, body: &BodyId) {
        if ui.memory(|m| m.focused().is_some()) {
            return; // typing in a field
        }
        let (undo, redo, save, del) = ui.input_mut(|i| {
            (
                i.consume_key(egui::Modifiers::COMMAND, egui::Key::Z),
                i.consume_key(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::Z)
                    || i.consume_key(egui::Modifiers::COMMAND, egui::Key::Y),
                i.consume_key(egui::Modifiers::COMMAND, egui::Key::S),
                i.key_pressed(egui::Key::Delete),
            )
        });
        // Ctrl+Shift+Z is checked first by egui's matching of modifiers; undo only without Shift.
        let r = if redo {
            Some(self.editor_undo(false))
        } else if undo {
            Some(self.editor_undo(true))
        } else if save {
            Some(self.editor_save())
        } else if del && !self.editor.selected.is_empty() {
            let ids = std::mem::take(&mut self.editor.selected);
            Some(
                self.editor_workspace()
                    .remove_blocks(body, &ids)
                    .map(|()| format!("deleted {}", ids.join(", ")))
                    .map_err(|e| e.0),
            )
        } else {
            None
        };
        if let Some(r) = r {
            self.editor_after(r);
        }
    }

    fn editor_canvas(&mut self, ui: &mut egui::Ui, body_id: &BodyId, body: &Body, layout: &Layout) {
        let (resp, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        let rect = resp.rect;
        let dark = ui.visuals().dark_mode;
        if self.editor.fit {
            let sx = rect.width() / layout.width.max(1.0) as f32;
            let sy = rect.height() / (layout.height + 20.0).max(1.0) as f32;
            self.editor.zoom = sx.min(sy).clamp(0.05, 1.2);
            self.editor.pan = Vec2::new(10.0, 10.0);
            self.editor.fit = false;
        }
        crate::diagram_view::wheel_zoom(ui, &resp, &mut self.editor.pan, &mut self.editor.zoom);
        let z = self.editor.zoom;
        let origin = rect.min + self.editor.pan;
        self.editor.origin = origin;
        let to = |x: f64, y: f64| origin + Vec2::new(x as f32, y as f32) * z;
        let painter = painter.with_clip_rect(rect);
        painter.rect_filled(rect, 0.0, if dark { Color32::from_gray(20) } else { Color32::from_gray(252) });
        // The grid blocks snap to.
        let grid = if dark { Color32::from_gray(34) } else { Color32::from_gray(232) };
        let step = 20.0 * z;
        if step > 6.0 {
            let mut x = origin.x.rem_euclid(step) + rect.left();
            while x < rect.right() {
                painter.line_segment([Pos2::new(x, rect.top()), Pos2::new(x, rect.bottom())], Stroke::new(1.0, grid));
                x += step;
            }
            let mut y = origin.y.rem_euclid(step) + rect.top();
            while y < rect.bottom() {
                painter.line_segment([Pos2::new(rect.left(), y), Pos2::new(rect.right(), y)], Stroke::new(1.0, grid));
                y += step;
            }
        }
        let ink = if dark { Color32::from_gray(220) } else { Color32::from_gray(30) };
        let small = FontId::monospace((9.5 * z).clamp(5.0, 20.0));
        let font = FontId::monospace((11.0 * z).clamp(6.0, 22.0));
        let pointer = ui.input(|i| i.pointer.interact_pos());
        // What is under the pointer: an output pin, an input pin, a body input, a block.
        let near = |p: Pos2, a: fbd_layout::Point| (to(a.x, a.y) - p).length() < 8.0_f32.max(5.0 * z);
        let hit_out = pointer.and_then(|p| {
            (0..body.nodes.len())
                .find_map(|i| {
                    layout.out_anchors[i]
                        .iter()
                        .position(|a| near(p, *a))
                        .map(|k| format!("{}.{}", body.nodes[i].id, body.nodes[i].outputs[k]))
                })
                .or_else(|| layout.input_ports.iter().position(|a| near(p, *a)).map(|k| body.inputs[k].clone()))
        });
        let hit_in = pointer.and_then(|p| {
            (0..body.nodes.len()).find_map(|i| {
                layout.in_anchors[i]
                    .iter()
                    .position(|a| near(p, *a))
                    .map(|k| (body.nodes[i].id.clone(), body.nodes[i].inputs[k].0.clone()))
            })
        });
        let hit_block = pointer.and_then(|p| {
            layout.blocks.iter().position(|r| Rect::from_min_max(to(r.x, r.y), to(r.x + r.w, r.y + r.h)).contains(p))
        });

        // Pointer input.
        let shift = ui.input(|i| i.modifiers.shift);
        if resp.drag_started() {
            self.editor.drag = if let Some(src) = &hit_out {
                Some(Drag::Wire(src.clone(), pointer.unwrap_or_default()))
            } else if let Some(i) = hit_block {
                let id = body.nodes[i].id.clone();
                if !self.editor.selected.contains(&id) {
                    if !shift {
                        self.editor.selected.clear();
                    }
                    self.editor.selected.push(id);
                }
                Some(Drag::Move)
            } else {
                Some(Drag::Pan)
            };
        }
        let drag_delta = resp.total_drag_delta().unwrap_or_default();
        if let Some(Drag::Pan) = self.editor.drag
            && resp.dragged()
        {
            self.editor.pan += resp.drag_delta();
        }
        let mut result: Option<Result<String, String>> = None;
        if resp.drag_stopped() {
            match self.editor.drag.take() {
                Some(Drag::Move) if drag_delta.length() > 2.0 => {
                    let d = drag_delta / z;
                    let moves: Vec<(String, [f64; 2])> = body
                        .nodes
                        .iter()
                        .zip(&layout.blocks)
                        .filter(|(n, _)| self.editor.selected.contains(&n.id))
                        .map(|(n, r)| {
                            let x = ((r.x + d.x as f64) / 20.0).round() * 20.0;
                            let y = ((r.y + d.y as f64) / 20.0).round() * 20.0;
                            (n.id.clone(), [x.max(0.0), y.max(0.0)])
                        })
                        .collect();
                    let n = moves.len();
                    result = Some(
                        self.editor_workspace()
                            .move_blocks(body_id, &moves)
                            .map(|()| format!("moved {n} block(s)"))
                            .map_err(|e| e.0),
                    );
                }
                Some(Drag::Wire(src, _)) => {
                    result = Some(match &hit_in {
                        Some((b, p)) => self
                            .editor_workspace()
                            .connect(body_id, &src, b, p)
                            .map(|()| format!("connected {src} → {b}.{p}"))
                            .map_err(|e| format!("not connected: {}", e.0)),
                        None => Err("drop a wire on an input pin (the left side of a block)".into()),
                    });
                }
                _ => {}
            }
        }
        if resp.clicked() {
            match hit_block {
                Some(i) => {
                    let id = body.nodes[i].id.clone();
                    if shift {
                        if let Some(k) = self.editor.selected.iter().position(|s| *s == id) {
                            self.editor.selected.remove(k);
                        } else {
                            self.editor.selected.push(id);
                        }
                    } else {
                        self.editor.selected = vec![id];
                    }
                }
                None => self.editor.selected.clear(),
            }
        }
        if resp.double_clicked()
            && let Some(i) = hit_block
            && self.editor.ws.as_ref().is_some_and(|w| w.macro_def(&body.nodes[i].label).is_some())
        {
            let m = body.nodes[i].label.clone();
            self.editor_open(BodyId::Macro(m));
            return;
        }
        if resp.secondary_clicked() {
            self.editor.pin_menu = hit_in.clone();
            self.editor.constant.clear();
        }

        // Drawing: wires, blocks, ports, then what is being dragged.
        for n in &layout.nets {
            let color =
                if n.delayed { Color32::from_rgb(0xc0, 0x50, 0x50) } else { Color32::from_rgb(0x70, 0x90, 0xc0) };
            for (a, b) in &n.segments {
                painter.line_segment([to(a.x, a.y), to(b.x, b.y)], Stroke::new(1.3, color));
            }
            for j in &n.junctions {
                painter.circle_filled(to(j.x, j.y), 3.0 * z.clamp(0.5, 1.5), color);
            }
        }
        let moving = matches!(self.editor.drag, Some(Drag::Move));
        for (i, (n, r)) in body.nodes.iter().zip(&layout.blocks).enumerate() {
            let mut br = Rect::from_min_max(to(r.x, r.y), to(r.x + r.w, r.y + r.h));
            let sel = self.editor.selected.contains(&n.id);
            if moving && sel {
                br = br.translate(drag_delta);
            }
            let fill = if dark { Color32::from_gray(44) } else { Color32::from_rgb(0xfd, 0xfd, 0xf6) };
            painter.rect_filled(br, 3.0 * z, fill);
            let bad = self.editor.error_blocks.contains(&n.id);
            let stroke = match (sel, bad) {
                (_, true) => Stroke::new(2.5, Color32::from_rgb(0xe0, 0x40, 0x40)),
                (true, _) => Stroke::new(2.5, Color32::from_rgb(0x40, 0x90, 0xff)),
                _ => Stroke::new(1.2, ink),
            };
            painter.rect_stroke(br, 3.0 * z, stroke, egui::StrokeKind::Inside);
            if z > 0.35 {
                painter.text(
                    br.center_top() + Vec2::new(0.0, 10.0 * z),
                    Align2::CENTER_CENTER,
                    &n.label,
                    font.clone(),
                    ink,
                );
                painter.text(
                    br.center_top() - Vec2::new(0.0, 2.0),
                    Align2::CENTER_BOTTOM,
                    &n.id,
                    small.clone(),
                    Color32::GRAY,
                );
                for (k, (p, c)) in n.inputs.iter().enumerate() {
                    let a = to(layout.in_anchors[i][k].x, layout.in_anchors[i][k].y);
                    let a = if moving && sel { a + drag_delta } else { a };
                    painter.text(a + Vec2::new(4.0 * z, 0.0), Align2::LEFT_CENTER, p, small.clone(), ink);
                    if let Some(c) = c {
                        painter.text(
                            a - Vec2::new(4.0 * z, 0.0),
                            Align2::RIGHT_CENTER,
                            c,
                            small.clone(),
                            Color32::from_rgb(0xa0, 0x60, 0x00),
                        );
                    }
                    if hit_in.as_ref().is_some_and(|(b, q)| *b == n.id && q == p) {
                        painter.circle_stroke(a, 5.0, Stroke::new(2.0, Color32::from_rgb(0x40, 0xc0, 0x60)));
                    }
                }
                for (k, p) in n.outputs.iter().enumerate() {
                    let a = to(layout.out_anchors[i][k].x, layout.out_anchors[i][k].y);
                    let a = if moving && sel { a + drag_delta } else { a };
                    painter.text(a - Vec2::new(4.0 * z, 0.0), Align2::RIGHT_CENTER, p, small.clone(), ink);
                    painter.circle_filled(a, 2.5, ink);
                }
            }
        }
        for (k, name) in body.inputs.iter().enumerate() {
            let a = to(layout.input_ports[k].x, layout.input_ports[k].y);
            painter.text(a - Vec2::new(4.0, 0.0), Align2::RIGHT_CENTER, name, small.clone(), ink);
            painter.circle_filled(a, 3.0, ink);
        }
        for (k, (name, _)) in body.outputs.iter().enumerate() {
            let a = to(layout.output_ports[k].x, layout.output_ports[k].y);
            painter.text(a + Vec2::new(4.0, 0.0), Align2::LEFT_CENTER, name, small.clone(), ink);
        }
        if let (Some(Drag::Wire(_, from)), Some(p)) = (&self.editor.drag, pointer) {
            painter.line_segment([*from, p], Stroke::new(2.0, Color32::from_rgb(0x40, 0xc0, 0x60)));
        }

        // The menu of an input pin: a constant typed by the pin, or disconnect.
        let mut menu_result: Option<Result<String, String>> = None;
        egui::Popup::context_menu(&resp).close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside).show(|ui| {
            let Some((b, p)) = self.editor.pin_menu.clone() else {
                ui.label("right-click an input pin");
                return;
            };
            ui.label(egui::RichText::new(format!("{b}.{p}")).strong());
            ui.horizontal(|ui| {
                let l = ui.label("constant");
                ui.add(
                    egui::TextEdit::singleline(&mut self.editor.constant).hint_text("TRUE, 4, 2.5").desired_width(80.0),
                )
                .labelled_by(l.id);
                if ui.button("set").clicked() {
                    let text = self.editor.constant.clone();
                    menu_result = Some(
                        self.editor_workspace()
                            .set_constant(body_id, &b, &p, &text)
                            .map(|()| format!("{b}.{p} := {}", text.trim()))
                            .map_err(|e| e.0),
                    );
                    ui.close();
                }
            });
            if ui.button("disconnect").clicked() {
                menu_result = Some(
                    self.editor_workspace()
                        .disconnect(body_id, &b, &p)
                        .map(|()| format!("disconnected {b}.{p}"))
                        .map_err(|e| e.0),
                );
                ui.close();
            }
        });
        if let Some(r) = result.or(menu_result) {
            self.editor_after(r);
        }
    }
}
