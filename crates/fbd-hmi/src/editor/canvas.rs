//! The editor's canvas: the edited body drawn on a grid, and the pointer turned into edits
//! (drag to move, pin to pin to connect, a rectangle to select, an input's menu).

use eframe::egui::{self, Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, Vec2};
use fbd_edit::BodyId;
use fbd_engine::model::Wire;
use fbd_layout::{Body, Layout};

use crate::canvas::Pen;
use crate::editor::Drag;
use crate::editor::EditorState;

impl EditorState {
    pub(crate) fn canvas_ui(&mut self, ui: &mut egui::Ui, body_id: &BodyId, body: &Body, layout: &Layout) {
        let (resp, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        let rect = resp.rect;
        self.canvas = Some(rect);
        let dark = ui.visuals().dark_mode;
        self.fit_view(rect, layout);
        crate::canvas::wheel_zoom(ui, &resp, &mut self.pan, &mut self.zoom);
        let z = self.zoom;
        let origin = rect.min + self.pan;
        self.origin = origin;
        let painter = painter.with_clip_rect(rect);
        painter.rect_filled(rect, 0.0, if dark { Color32::from_gray(20) } else { Color32::from_gray(252) });
        draw_grid(&painter, rect, origin, z, dark);
        let pointer = ui.input(|i| i.pointer.interact_pos());
        let ht = HitTest::new(body, layout, origin, z);
        let (out_at, in_at, block_at) = (|p| ht.out_at(p), |p| ht.in_at(p), |p| ht.block_at(p));
        let in_label_at = |p| ht.in_label_at(p);
        let hit_in = pointer.and_then(in_at);
        let menu_in = pointer.and_then(|p| in_at(p).or_else(|| in_label_at(p)));
        let hit_block = pointer.and_then(block_at);
        // A drag starts a few pixels from where the button went down: what it grabbed is what
        // was under the press, not under the pointer now.
        let press = ui.input(|i| i.pointer.press_origin()).or(pointer);
        let hit_out = press.and_then(out_at);
        let press_in = press.and_then(in_at);
        let press_block = press.and_then(block_at);

        // Pointer input.
        let shift = ui.input(|i| i.modifiers.shift);
        let middle = ui.input(|i| i.pointer.middle_down());
        if resp.drag_started() {
            self.drag =
                Some(self.drag_start(&ht, press, (hit_out.as_ref(), press_in.as_ref(), press_block), shift, middle));
        }
        // Summed here: egui's total drag delta is gone in the frame the drag stops.
        if resp.drag_started() {
            self.drag_offset = Vec2::ZERO;
        }
        if resp.dragged() {
            self.drag_offset += resp.drag_delta();
        }
        let drag_delta = self.drag_offset;
        if let Some(Drag::Pan) = self.drag
            && resp.dragged()
        {
            self.pan += resp.drag_delta();
        }
        let mut result: Option<Result<String, String>> = None;
        if resp.drag_stopped()
            && let Some(drag) = self.drag.take()
        {
            result = self.drop_at(drag, &ht, body_id, (pointer, hit_in.as_ref()), (drag_delta, shift));
        }
        if resp.clicked() {
            self.select(body, hit_block, shift);
        }
        if resp.double_clicked()
            && let Some(i) = hit_block
            && self.ws.as_ref().is_some_and(|w| w.macro_def(&body.nodes[i].label).is_some())
        {
            let m = body.nodes[i].label.clone();
            self.open_body(BodyId::Macro(m));
            return;
        }
        if resp.secondary_clicked() {
            self.open_pin_menu(&ht, body_id, pointer, menu_in);
        }

        let pen = Pen::new(painter.clone(), rect, origin, z, dark);
        self.draw(&pen, (body, layout), drag_delta, hit_in.as_ref(), pointer);

        // A block's comment, on hover (the properties column edits it).
        if self.drag.is_none()
            && hit_in.is_none()
            && let Some(i) = hit_block
            && let Some(c) = &body.nodes[i].comment
        {
            resp.clone().on_hover_text_at_pointer(format!("{} ({}): {c}", body.nodes[i].id, body.nodes[i].label));
        }

        let menu_result = self.pin_menu_ui(&resp, body_id);
        if let Some(r) = result.or(menu_result) {
            self.after(r);
        }
    }
}

impl EditorState {
    /// Fits the drawing to the canvas (asked for, or the canvas resized since a fit the user
    /// has not moved away from), with a 10-point margin on every side.
    fn fit_view(&mut self, rect: Rect, layout: &Layout) {
        if self.fit || self.fit_hold.refit(rect.size(), self.pan, self.zoom) {
            // A 10-point margin on every side.
            let sx = (rect.width() - 20.0).max(1.0) / layout.width.max(1.0) as f32;
            let sy = (rect.height() - 20.0).max(1.0) / (layout.height + 20.0).max(1.0) as f32;
            self.zoom = sx.min(sy).clamp(0.05, 1.2);
            self.pan = Vec2::new(10.0, 10.0);
            self.fit = false;
            self.fit_hold.fitted(rect.size(), self.pan, self.zoom);
        }
    }

    /// What a drag that starts now does: pan (middle button), draw a wire from an output or
    /// back from an input, move the selection (the block under the press joins it), or select
    /// with a band.
    fn drag_start(
        &mut self,
        ht: &HitTest,
        press: Option<Pos2>,
        (hit_out, press_in, press_block): (Option<&String>, Option<&(String, String)>, Option<usize>),
        shift: bool,
        middle: bool,
    ) -> Drag {
        if middle {
            Drag::Pan
        } else if let Some(src) = hit_out {
            Drag::Wire(src.clone(), press.unwrap_or_default())
        } else if let Some((b, p)) = press_in {
            // From an input back to an output: connects it, or reconnects it if it had a
            // driver.
            Drag::WireBack(b.clone(), p.clone(), press.unwrap_or_default())
        } else if let Some(i) = press_block {
            let id = ht.body.nodes[i].id.clone();
            if !self.selected.contains(&id) {
                if !shift {
                    self.selected.clear();
                }
                self.selected.push(id);
            }
            Drag::Move
        } else {
            Drag::Select(press.unwrap_or_default())
        }
    }

    /// A click selects the block under it (Shift adds or removes it), or nothing.
    fn select(&mut self, body: &Body, hit_block: Option<usize>, shift: bool) {
        match hit_block {
            Some(i) => {
                let id = body.nodes[i].id.clone();
                if shift {
                    if let Some(k) = self.selected.iter().position(|s| *s == id) {
                        self.selected.remove(k);
                    } else {
                        self.selected.push(id);
                    }
                } else {
                    self.selected = vec![id];
                }
            }
            None => self.selected.clear(),
        }
    }

    /// A right-click opens the menu of the pin under it: an input's (its constant shown as
    /// the field's hint) or an output's (its negation).
    fn open_pin_menu(
        &mut self,
        ht: &HitTest,
        body_id: &BodyId,
        pointer: Option<Pos2>,
        menu_in: Option<(String, String)>,
    ) {
        // An output pin's menu offers its negation (block ids hold no `.`; a port name none).
        let menu_out = match &menu_in {
            None => {
                pointer.and_then(|p| ht.out_at(p)).and_then(|s| s.split_once('.').map(|(b, p)| (b.into(), p.into())))
            }
            Some(_) => None,
        };
        self.pin_menu_output = menu_out.is_some();
        self.pin_menu = menu_in.clone().or(menu_out);
        self.constant_focus = true;
        // The field is empty; its hint shows the constant the pin has, if it has one.
        self.constant.clear();
        self.feedback_init.clear();
        self.connector_name.clear();
        self.constant_now = menu_in
            .as_ref()
            .and_then(|(b, p)| {
                let w = self.ws.as_ref()?.block(body_id, b)?.inputs.0.iter().find(|(q, _)| q == p)?.1.clone();
                match w {
                    Wire::Const(v) => Some(v.to_string()),
                    _ => None,
                }
            })
            .unwrap_or_default();
    }
}

/// The grid blocks snap to with their left edges and pins on its lines (`fbd_layout::snap`).
fn draw_grid(painter: &egui::Painter, rect: Rect, origin: Pos2, z: f32, dark: bool) {
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
}

impl EditorState {
    /// A drag that ended: blocks moved (snapped to the grid), a selection band, or a wire
    /// dropped on a pin or a port. What it did, or why it was refused.
    fn drop_at(
        &mut self,
        drag: Drag,
        ht: &HitTest,
        body_id: &BodyId,
        (pointer, hit_in): (Option<Pos2>, Option<&(String, String)>),
        (drag_delta, shift): (Vec2, bool),
    ) -> Option<Result<String, String>> {
        let (body, layout, z) = (ht.body, ht.layout, ht.z);
        let to = |x: f64, y: f64| ht.to(x, y);
        match drag {
            Drag::Move if drag_delta.length() > 2.0 => {
                let d = drag_delta / z;
                let moves: Vec<(String, [f64; 2])> = body
                    .nodes
                    .iter()
                    .zip(&layout.blocks)
                    .filter(|(n, _)| self.selected.contains(&n.id))
                    .map(|(n, r)| (n.id.clone(), fbd_layout::snap([r.x + d.x as f64, r.y + d.y as f64])))
                    .collect();
                let n = moves.len();
                return Some(
                    self.workspace()
                        .move_blocks(body_id, &moves)
                        .map(|()| format!("moved {n} block(s)"))
                        .map_err(|e| e.0),
                );
            }
            Drag::Select(from) => {
                let band = Rect::from_two_pos(from, pointer.unwrap_or(from));
                if !shift {
                    self.selected.clear();
                }
                for (n, r) in body.nodes.iter().zip(&layout.blocks) {
                    let br = Rect::from_min_max(to(r.x, r.y), to(r.x + r.w, r.y + r.h));
                    if band.intersects(br) && !self.selected.contains(&n.id) {
                        self.selected.push(n.id.clone());
                    }
                }
                self.message = format!("{} block(s) selected", self.selected.len());
            }
            Drag::WireBack(b, p, _) => {
                return Some(match pointer.and_then(|p| ht.out_at(p)) {
                    Some(src) => self
                        .workspace()
                        .set_input(body_id, &b, &p, Wire::Ref(src.clone()))
                        .map(|()| format!("connected {src} -> {b}.{p}"))
                        .map_err(|e| format!("not connected: {}", e.0)),
                    None => Err("drop on an output pin (the right side of a block) or a body input".into()),
                });
            }
            Drag::Wire(src, _) => {
                return Some(match hit_in {
                    Some((b, p)) => self
                        .workspace()
                        .connect(body_id, &src, b, p)
                        .map(|()| format!("connected {src} -> {b}.{p}"))
                        .map_err(|e| format!("not connected: {}", e.0)),
                    // On the port's point or its name: the name is where the eye aims.
                    None => match pointer.and_then(|p| ht.output_port_at(p)) {
                        Some(k) => {
                            let port = body.outputs[k].0.clone();
                            self.workspace()
                                .connect_output(body_id, &port, &src)
                                .map(|()| format!("connected {src} -> output {port}"))
                                .map_err(|e| format!("not connected: {}", e.0))
                        }
                        None => Err("drop a wire on an input pin (the left side of a block) or an output port".into()),
                    },
                });
            }
            _ => {}
        }
        None
    }
}

impl EditorState {
    /// The editor's drawing: wires (dashed where they carry the previous scan's value), blocks
    /// (selected, moved, with their errors under them), pins with the wire stubs, ports, and
    /// what is being dragged (a wire, a selection band).
    fn draw(
        &self,
        pen: &Pen,
        (body, layout): (&Body, &Layout),
        drag_delta: Vec2,
        hit_in: Option<&(String, String)>,
        pointer: Option<Pos2>,
    ) {
        let (z, dark) = (pen.z, pen.dark);
        let (plain, late) = (Color32::from_rgb(0x70, 0x90, 0xc0), Color32::from_rgb(0xc0, 0x50, 0x50));
        for n in &layout.nets {
            for (i, (a, b)) in n.segments.iter().enumerate() {
                let (pa, pb) = (pen.to(a.x, a.y), pen.to(b.x, b.y));
                // Dashed as in the online diagram and the SVG: the previous scan's value.
                if n.late.get(i).copied().unwrap_or(n.delayed) {
                    pen.painter.extend(egui::Shape::dashed_line(&[pa, pb], Stroke::new(1.3, late), 6.0 * z, 4.0 * z));
                } else {
                    pen.painter.line_segment([pa, pb], Stroke::new(1.3, plain));
                }
            }
            let color = if n.late.iter().all(|l| *l) && n.delayed { late } else { plain };
            for j in &n.junctions {
                pen.painter.circle_filled(pen.to(j.x, j.y), 3.0 * z.clamp(0.5, 1.5), color);
            }
        }
        crate::canvas::connector_tags(pen, (body, layout), (&|_| plain, &|_| None), None);
        let moving = matches!(self.drag, Some(Drag::Move));
        let mut errors_drawn = Vec::new();
        for (i, (n, r)) in body.nodes.iter().zip(&layout.blocks).enumerate() {
            let mut br = Rect::from_min_max(pen.to(r.x, r.y), pen.to(r.x + r.w, r.y + r.h));
            let sel = self.selected.contains(&n.id);
            if moving && sel {
                br = br.translate(drag_delta);
            }
            let fill = if dark { Color32::from_gray(44) } else { Color32::from_rgb(0xfd, 0xfd, 0xf6) };
            pen.painter.rect_filled(br, 3.0 * z, fill);
            let error = self.error_blocks.iter().find(|(b, _)| *b == n.id).map(|(_, m)| m.as_str());
            let bad = error.is_some();
            if let Some(m) = error {
                // The message under the block it is about, on its own ground so that it stays
                // readable over wires and neighbours.
                let g = pen.painter.layout_no_wrap(m.to_string(), pen.small.clone(), Color32::WHITE);
                let r = Rect::from_min_size(br.left_bottom() + Vec2::new(0.0, 3.0), g.size() + Vec2::new(6.0, 2.0));
                errors_drawn.push((r, g));
            }
            let stroke = match (sel, bad) {
                (_, true) => Stroke::new(2.5, Color32::from_rgb(0xe0, 0x40, 0x40)),
                (true, _) => Stroke::new(2.5, Color32::from_rgb(0x40, 0x90, 0xff)),
                _ => Stroke::new(1.2, pen.ink),
            };
            pen.painter.rect_stroke(br, 3.0 * z, stroke, egui::StrokeKind::Inside);
            if z > 0.35 {
                crate::canvas::block_titles(&pen.painter, br, &n.label, &n.id, z, &pen.font, &pen.small, pen.ink);
                for (k, (p, c)) in n.inputs.iter().enumerate() {
                    let a = pen.to(layout.in_anchors[i][k].x, layout.in_anchors[i][k].y);
                    let a = if moving && sel { a + drag_delta } else { a };
                    pen.painter.text(a + Vec2::new(4.0 * z, 0.0), Align2::LEFT_CENTER, p, pen.small.clone(), pen.ink);
                    // A stub outside the block marks where a wire lands (outputs have a dot); a
                    // negated pin has its circle there.
                    let negated = n.is_negated(k);
                    if negated {
                        crate::canvas::negation_circle(&pen.painter, a, -1.0, z, fill, pen.ink);
                    } else {
                        pen.painter.line_segment([a - Vec2::new(4.0 * z, 0.0), a], Stroke::new(1.0, pen.ink));
                    }
                    if let Some(c) = c {
                        pen.painter.text(
                            a - Vec2::new(6.0 * z + crate::canvas::negation_room(negated, z), 0.0),
                            Align2::RIGHT_CENTER,
                            c,
                            pen.small.clone(),
                            Color32::from_rgb(0xa0, 0x60, 0x00),
                        );
                    }
                    if hit_in.as_ref().is_some_and(|(b, q)| *b == n.id && q == p) {
                        pen.painter.circle_stroke(a, 5.0, Stroke::new(2.0, Color32::from_rgb(0x40, 0xc0, 0x60)));
                    }
                }
                for (k, p) in n.outputs.iter().enumerate() {
                    let a = pen.to(layout.out_anchors[i][k].x, layout.out_anchors[i][k].y);
                    let a = if moving && sel { a + drag_delta } else { a };
                    pen.painter.text(a - Vec2::new(4.0 * z, 0.0), Align2::RIGHT_CENTER, p, pen.small.clone(), pen.ink);
                    if n.is_negated_output(k) {
                        crate::canvas::negation_circle(&pen.painter, a, 1.0, z, fill, pen.ink);
                    } else {
                        pen.painter.circle_filled(a, 2.5, pen.ink);
                    }
                }
            }
        }
        for (r, g) in errors_drawn {
            pen.painter.rect_filled(r, 2.0, Color32::from_rgb(0xb0, 0x20, 0x20));
            pen.painter.galley(r.min + Vec2::new(3.0, 1.0), g, Color32::WHITE);
        }
        for (k, name) in body.inputs.iter().enumerate() {
            let a = pen.to(layout.input_ports[k].x, layout.input_ports[k].y);
            pen.painter.text(a - Vec2::new(4.0, 0.0), Align2::RIGHT_CENTER, name, pen.small.clone(), pen.ink);
            pen.painter.circle_filled(a, 3.0, pen.ink);
        }
        for (k, (name, _)) in body.outputs.iter().enumerate() {
            let a = pen.to(layout.output_ports[k].x, layout.output_ports[k].y);
            pen.painter.text(a + Vec2::new(6.0, 0.0), Align2::LEFT_CENTER, name, pen.small.clone(), pen.ink);
            // Where a wire lands, wired or not (an unwired output had no mark at all).
            pen.painter.circle_stroke(a, 3.0, Stroke::new(1.2, pen.ink));
        }
        if let (Some(Drag::Wire(_, from) | Drag::WireBack(_, _, from)), Some(p)) = (&self.drag, pointer) {
            pen.painter.line_segment([*from, p], Stroke::new(2.0, Color32::from_rgb(0x40, 0xc0, 0x60)));
        }
        if let (Some(Drag::Select(from)), Some(p)) = (&self.drag, pointer) {
            let band = Rect::from_two_pos(*from, p);
            pen.painter.rect_filled(band, 0.0, Color32::from_rgba_unmultiplied(0x40, 0x90, 0xff, 30));
            pen.painter.rect_stroke(
                band,
                0.0,
                Stroke::new(1.0, Color32::from_rgb(0x40, 0x90, 0xff)),
                egui::StrokeKind::Inside,
            );
        }
    }

    /// The menu of an input pin: a constant typed by the pin, a feedback wire, negation, or
    /// disconnect; of an output pin: its negation. What it did, once something was chosen.
    fn pin_menu_ui(&mut self, resp: &egui::Response, body_id: &BodyId) -> Option<Result<String, String>> {
        let mut menu_result: Option<Result<String, String>> = None;
        egui::Popup::context_menu(resp).close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside).show(|ui| {
            let Some((b, p)) = self.pin_menu.clone() else {
                ui.label("right-click a pin");
                return;
            };
            ui.label(egui::RichText::new(format!("{b}.{p}")).strong());
            if self.pin_menu_output {
                menu_result = self.negation_button(ui, body_id, &b, &p);
                if let Some(r) = self.connector_menu(ui, body_id, &b, &p) {
                    menu_result = Some(r);
                }
                return;
            }
            ui.horizontal(|ui| {
                let l = ui.label("constant");
                let field = ui
                    .add(
                        egui::TextEdit::singleline(&mut self.constant)
                            .hint_text(if self.constant_now.is_empty() {
                                "TRUE, 4, 2.5".to_string()
                            } else {
                                format!("now {}", self.constant_now)
                            })
                            .desired_width(80.0),
                    )
                    .labelled_by(l.id);
                // Typed at once and set with Enter, as a value is in an IDE's property field
                // (the field had to be clicked first, and Enter did nothing).
                if std::mem::take(&mut self.constant_focus) {
                    field.request_focus();
                }
                let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if ui.button("set").clicked() || entered {
                    let text = self.constant.clone();
                    menu_result = Some(
                        self.workspace()
                            .set_constant(body_id, &b, &p, &text)
                            .map(|()| format!("{b}.{p} := {}", text.trim()))
                            .map_err(|e| e.0),
                    );
                    ui.close();
                }
            });
            // A wire can carry the previous scan's value (a feedback wire, drawn dashed): the
            // way to close a loop.
            let current = self.ws.as_ref().and_then(|w| {
                w.block(body_id, &b).and_then(|x| x.inputs.0.iter().find(|(q, _)| *q == p).map(|(_, w)| w.clone()))
            });
            let toggle = match &current {
                Some(Wire::Ref(from)) if from.contains('.') => Some((
                    "make it a feedback wire (previous scan)",
                    Wire::Feedback { from: from.clone(), init: None },
                    format!("{b}.{p} reads {from} of the previous scan"),
                )),
                Some(Wire::Feedback { from, .. }) => Some((
                    "make it a plain wire (this scan)",
                    Wire::Ref(from.clone()),
                    format!("{b}.{p} reads {from} of this scan"),
                )),
                _ => None,
            };
            if let Some((label, w, msg)) = toggle
                && ui.button(label).clicked()
            {
                menu_result = Some(self.workspace().set_input(body_id, &b, &p, w).map(|()| msg).map_err(|e| e.0));
                ui.close();
            }
            // A feedback wire's value before the first scan.
            if let Some(Wire::Feedback { from, init }) = &current {
                ui.horizontal(|ui| {
                    let l = ui.label("init");
                    let hint = init.as_deref().map_or("zero".to_string(), |v| format!("now {v}"));
                    ui.add(egui::TextEdit::singleline(&mut self.feedback_init).hint_text(hint).desired_width(60.0))
                        .labelled_by(l.id);
                    if ui.button("set init").clicked() {
                        let t = self.feedback_init.trim().to_string();
                        let v = match t.to_ascii_lowercase().as_str() {
                            "" => Ok(None),
                            "true" => Ok(Some(fbd_engine::Value::Bool(true))),
                            "false" => Ok(Some(fbd_engine::Value::Bool(false))),
                            _ => fbd_engine::model::number(&t).map(Some),
                        };
                        menu_result = Some(match v {
                            Ok(init) => self
                                .workspace()
                                .set_input(
                                    body_id,
                                    &b,
                                    &p,
                                    Wire::Feedback { from: from.clone(), init: init.map(Box::new) },
                                )
                                .map(|()| format!("{b}.{p} starts at {}", if t.is_empty() { "zero" } else { &t }))
                                .map_err(|e| e.0),
                            Err(e) => Err(e),
                        });
                        ui.close();
                    }
                });
            }
            if let Some(r) = self.negation_button(ui, body_id, &b, &p) {
                menu_result = Some(r);
            }
            if ui.button("disconnect").clicked() {
                menu_result = Some(
                    self.workspace()
                        .disconnect(body_id, &b, &p)
                        .map(|()| format!("disconnected {b}.{p}"))
                        .map_err(|e| e.0),
                );
                ui.close();
            }
        });
        menu_result
    }
}

impl EditorState {
    /// IEC 61131-3's negation in a pin's menu (a library block's pin or a macro instance's):
    /// the circle put on or taken off; what it did, or why it was refused, once clicked.
    fn negation_button(
        &mut self,
        ui: &mut egui::Ui,
        body_id: &BodyId,
        b: &str,
        p: &str,
    ) -> Option<Result<String, String>> {
        let block = self.ws.as_ref().and_then(|w| w.block(body_id, b))?;
        let negated = block.negated.has(p);
        let output = self.pin_menu_output;
        let label = if negated { "remove the negation" } else { "negate (circle at the pin)" };
        if !ui.button(label).clicked() {
            return None;
        }
        ui.close();
        let msg = match (negated, output) {
            (true, false) => format!("{b}.{p} reads its wire as it is"),
            (false, false) => format!("{b}.{p} reads the inverse of its wire"),
            (true, true) => format!("{b}.{p} gives what the block computes"),
            (false, true) => format!("{b}.{p} gives the inverse of what the block computes"),
        };
        Some(self.workspace().set_negated(body_id, b, p, !negated).map(|()| msg).map_err(|e| e.0))
    }
}

/// What is under a point of the editor's canvas: an output pin, an input pin (or its name and
/// constant, for its menu), a body port, a block. The nearest pin within reach: zoomed out,
/// pins stand closer than the reach, and the first one listed was taken (a drag could wire the
/// pin next to the one pointed at).
struct HitTest<'a> {
    body: &'a Body,
    layout: &'a Layout,
    origin: Pos2,
    z: f32,
    reach: f32,
    /// The width of a character of the pins' labels.
    char_w: f32,
}

impl<'a> HitTest<'a> {
    fn new(body: &'a Body, layout: &'a Layout, origin: Pos2, z: f32) -> HitTest<'a> {
        let small = FontId::monospace((9.5 * z).clamp(5.0, 20.0));
        HitTest { body, layout, origin, z, reach: 8.0_f32.max(5.0 * z), char_w: small.size * 0.62 }
    }

    fn to(&self, x: f64, y: f64) -> Pos2 {
        self.origin + Vec2::new(x as f32, y as f32) * self.z
    }

    fn dist(&self, p: Pos2, a: &fbd_layout::Point) -> f32 {
        (self.to(a.x, a.y) - p).length()
    }

    /// The output pin (`block.pin`) or body input nearest `p`, within reach.
    fn out_at(&self, p: Pos2) -> Option<String> {
        let (body, layout) = (self.body, self.layout);
        let pins = (0..body.nodes.len()).flat_map(|i| {
            layout.out_anchors[i]
                .iter()
                .enumerate()
                .map(move |(k, a)| (self.dist(p, a), format!("{}.{}", body.nodes[i].id, body.nodes[i].outputs[k])))
        });
        let ports = layout.input_ports.iter().enumerate().map(|(k, a)| (self.dist(p, a), body.inputs[k].clone()));
        pins.chain(ports).filter(|(d, _)| *d < self.reach).min_by(|a, b| a.0.total_cmp(&b.0)).map(|(_, s)| s)
    }

    /// The block whose box holds `p`.
    fn block_at(&self, p: Pos2) -> Option<usize> {
        self.layout
            .blocks
            .iter()
            .position(|r| Rect::from_min_max(self.to(r.x, r.y), self.to(r.x + r.w, r.y + r.h)).contains(p))
    }

    /// The input pin (block, pin) nearest `p`, within reach.
    fn in_at(&self, p: Pos2) -> Option<(String, String)> {
        let (body, layout) = (self.body, self.layout);
        (0..body.nodes.len())
            .flat_map(|i| layout.in_anchors[i].iter().enumerate().map(move |(k, a)| (self.dist(p, a), i, k)))
            .filter(|(d, _, _)| *d < self.reach)
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, i, k)| (body.nodes[i].id.clone(), body.nodes[i].inputs[k].0.clone()))
    }

    /// An input's name inside the block and its constant outside stand for the pin too, for
    /// its menu: a right-click on `pt` did nothing unless it hit the block's very edge.
    fn in_label_at(&self, p: Pos2) -> Option<(String, String)> {
        let (body, layout, z) = (self.body, self.layout, self.z);
        (0..body.nodes.len()).find_map(|i| {
            layout.in_anchors[i].iter().zip(&body.nodes[i].inputs).find_map(|(a, (name, c))| {
                let a = self.to(a.x, a.y);
                let left = a.x - 6.0 * z - c.as_ref().map_or(0.0, |c| c.chars().count() as f32 * self.char_w);
                let right = a.x + 4.0 * z + name.chars().count() as f32 * self.char_w;
                let half = (fbd_layout::PITCH as f32 / 2.0 - 1.0) * z;
                (p.x >= left && p.x <= right && (p.y - a.y).abs() <= half)
                    .then(|| (body.nodes[i].id.clone(), name.clone()))
            })
        })
    }

    /// The body output whose point or name `p` is on (the name is where the eye aims).
    fn output_port_at(&self, p: Pos2) -> Option<usize> {
        let font = (9.5 * self.z).clamp(5.0, 20.0);
        self.layout.output_ports.iter().zip(&self.body.outputs).position(|(a, (name, _))| {
            let at = self.to(a.x, a.y);
            let label = Rect::from_min_size(
                at - Vec2::new(0.0, font),
                Vec2::new(6.0 + name.chars().count() as f32 * self.char_w, 2.0 * font),
            );
            self.dist(p, a) < self.reach || label.contains(p)
        })
    }
}
