//! The diagram view: the blocks of one macro instance (or the top level) as boxes with pins and
//! wires, live values on the pins, BOOL wires coloured by state. Positions come from the JSON,
//! or from a layered layout (blocks placed by data-flow depth). Click a block to select it.

use std::collections::HashMap;

use eframe::egui::{self, Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, Vec2};
use fbd_engine::Value;
use fbd_engine::model::{Block, Wire};

use crate::app::App;

const BOX_W: f32 = 130.0;
const ROW_H: f32 = 16.0;

struct Drawn {
    id: String,
    ty: String,
    rect: Rect,
    ins: Vec<String>,
    outs: Vec<String>,
}

/// Depth of each block in the body's data flow (feedback wires ignored), for the layout.
fn layered(blocks: &[Block]) -> HashMap<String, (usize, usize)> {
    let ids: HashMap<&str, usize> = blocks.iter().enumerate().map(|(i, b)| (b.id.as_str(), i)).collect();
    let mut depth = vec![0usize; blocks.len()];
    // Relax a bounded number of times: enough for any acyclic body, and terminates on cycles.
    for _ in 0..blocks.len().min(200) {
        let mut changed = false;
        for (i, b) in blocks.iter().enumerate() {
            for (_, w) in &b.inputs.0 {
                if let Wire::Ref(r) = w
                    && let Some((src, _)) = r.split_once('.')
                    && let Some(&j) = ids.get(src)
                    && j != i
                    && depth[i] < depth[j] + 1
                {
                    depth[i] = depth[j] + 1;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut rows: HashMap<usize, usize> = HashMap::new();
    let mut out = HashMap::new();
    for (i, b) in blocks.iter().enumerate() {
        let row = rows.entry(depth[i]).or_insert(0);
        out.insert(b.id.clone(), (depth[i], *row));
        *row += 1;
    }
    out
}

impl App {
    pub(crate) fn diagram_window(&mut self, ctx: &egui::Context) {
        let mut open = true;
        egui::Window::new("Diagram").open(&mut open).default_size([900.0, 600.0]).show(ctx, |ui| self.diagram_ui(ui));
        self.dbg.show_diagram = open;
    }

    fn diagram_ui(&mut self, ui: &mut egui::Ui) {
        let instances: Vec<(String, String)> =
            self.runner.with(|rt| rt.plan().instances.iter().map(|i| (i.path.clone(), i.macro_name.clone())).collect());
        ui.horizontal(|ui| {
            let shown = if self.dbg.diagram_instance.is_empty() {
                "(top level)".to_string()
            } else {
                self.dbg.diagram_instance.clone()
            };
            egui::ComboBox::from_label("instance").selected_text(shown).height(400.0).show_ui(ui, |ui| {
                ui.selectable_value(&mut self.dbg.diagram_instance, String::new(), "(top level)");
                for (p, m) in &instances {
                    ui.selectable_value(&mut self.dbg.diagram_instance, p.clone(), format!("{p} ({m})"));
                }
            });
            ui.checkbox(&mut self.dbg.auto_layout, "layered layout");
            ui.add(egui::Slider::new(&mut self.dbg.zoom, 0.3..=2.0).text("zoom"));
        });
        let inst = self.dbg.diagram_instance.clone();
        let project = &self.loaded.project;
        let blocks: Vec<Block> = if inst.is_empty() {
            project.root().blocks.clone()
        } else {
            let mac = instances.iter().find(|(p, _)| *p == inst).map(|(_, m)| m.clone()).unwrap_or_default();
            project.macro_def(&mac).map(|(_, _, m)| m.blocks.clone()).unwrap_or_default()
        };
        let prefix = if inst.is_empty() { String::new() } else { format!("{inst}/") };
        let layout = layered(&blocks);
        let z = self.dbg.zoom;
        let mut drawn: Vec<Drawn> = Vec::new();
        for b in &blocks {
            let (ins, outs) = project.block_pins(b);
            let pos = match (b.pos, self.dbg.auto_layout) {
                (Some(p), false) => Vec2::new(p[0] as f32, p[1] as f32),
                _ => {
                    let (col, row) = layout.get(&b.id).copied().unwrap_or((0, 0));
                    Vec2::new(col as f32 * (BOX_W + 90.0), row as f32 * 110.0)
                }
            };
            let h = (ins.len().max(outs.len()).max(1) as f32 + 1.2) * ROW_H;
            drawn.push(Drawn {
                id: b.id.clone(),
                ty: b.ty.clone(),
                rect: Rect::from_min_size(pos.to_pos2(), Vec2::new(BOX_W, h)),
                ins,
                outs,
            });
        }
        let bounds = drawn.iter().fold(Rect::NOTHING, |r, d| r.union(d.rect)).expand(40.0);
        let origin = if bounds.is_finite() { bounds.min } else { Pos2::ZERO };
        let size = if bounds.is_finite() { bounds.size() * z } else { Vec2::splat(100.0) };
        let values: HashMap<String, Value> = self.runner.with(|rt| {
            let mut m = HashMap::new();
            for d in &drawn {
                for p in d.ins.iter().chain(&d.outs) {
                    let path = format!("{prefix}{}.{p}", d.id);
                    if let Ok(v) = rt.read(&path) {
                        m.insert(path, v);
                    }
                }
            }
            m
        });
        egui::ScrollArea::both().id_salt("diagram_scroll").show(ui, |ui| {
            let (resp, painter) = ui.allocate_painter(size, Sense::click());
            let at = |p: Pos2| resp.rect.min + (p - origin) * z;
            let font = FontId::monospace(10.0 * z.max(0.6));
            let index: HashMap<&str, &Drawn> = drawn.iter().map(|d| (d.id.as_str(), d)).collect();
            let in_pos = |d: &Drawn, k: usize| at(Pos2::new(d.rect.min.x, d.rect.min.y + (k as f32 + 1.5) * ROW_H));
            let out_pos = |d: &Drawn, k: usize| at(Pos2::new(d.rect.max.x, d.rect.min.y + (k as f32 + 1.5) * ROW_H));
            // Wires first, under the boxes.
            for b in &blocks {
                let Some(d) = index.get(b.id.as_str()) else { continue };
                for (pin, w) in &b.inputs.0 {
                    let (src, fb) = match w {
                        Wire::Ref(r) => (r.as_str(), false),
                        Wire::Feedback { from, .. } => (from.as_str(), true),
                        Wire::Const(_) => continue,
                    };
                    let Some(k) = d.ins.iter().position(|p| p == pin) else { continue };
                    let to = in_pos(d, k);
                    let from = match src.split_once('.') {
                        Some((sb, sp)) => {
                            match index.get(sb).and_then(|s| s.outs.iter().position(|p| p == sp).map(|j| out_pos(s, j)))
                            {
                                Some(p) => p,
                                None => continue,
                            }
                        }
                        None => to - Vec2::new(40.0 * z, 0.0),
                    };
                    let v = values.get(&format!("{prefix}{}.{pin}", b.id)).copied();
                    let color = match v {
                        Some(Value::Bool(true)) => Color32::from_rgb(0x20, 0xb0, 0x40),
                        Some(Value::Bool(false)) => Color32::from_gray(150),
                        _ => Color32::from_rgb(0x50, 0x70, 0xb0),
                    };
                    let stroke = Stroke::new(
                        if fb { 1.0 } else { 1.5 },
                        if fb { Color32::from_rgb(0xc0, 0x30, 0x30) } else { color },
                    );
                    let mid = (from.x + to.x) / 2.0;
                    painter.line_segment([from, Pos2::new(mid, from.y)], stroke);
                    painter.line_segment([Pos2::new(mid, from.y), Pos2::new(mid, to.y)], stroke);
                    painter.line_segment([Pos2::new(mid, to.y), to], stroke);
                }
            }
            let selected_block =
                self.dbg.selected.as_deref().and_then(|s| s.rsplit_once('.')).map(|(b, _)| b.to_string());
            let mut clicked_block: Option<String> = None;
            for d in &drawn {
                let r = Rect::from_min_max(at(d.rect.min), at(d.rect.max));
                let is_macro = fbd_engine::library::lookup(&d.ty).is_none();
                let fill =
                    if is_macro { Color32::from_rgb(0xdd, 0xe8, 0xff) } else { Color32::from_rgb(0xf4, 0xf4, 0xf0) };
                painter.rect_filled(r, 3.0, fill);
                let sel = selected_block.as_deref() == Some(&format!("{prefix}{}", d.id));
                painter.rect_stroke(
                    r,
                    3.0,
                    Stroke::new(
                        if sel { 2.5 } else { 1.0 },
                        if sel { Color32::from_rgb(0xd0, 0x80, 0x00) } else { Color32::DARK_GRAY },
                    ),
                    egui::StrokeKind::Inside,
                );
                painter.text(
                    r.center_top() + Vec2::new(0.0, 2.0),
                    Align2::CENTER_TOP,
                    format!("{} {}", d.id, d.ty),
                    font.clone(),
                    Color32::BLACK,
                );
                for (k, p) in d.ins.iter().enumerate() {
                    let pos = in_pos(d, k);
                    let v = values.get(&format!("{prefix}{}.{p}", d.id)).map(|v| v.to_string()).unwrap_or_default();
                    painter.text(pos + Vec2::new(3.0, 0.0), Align2::LEFT_CENTER, p, font.clone(), Color32::DARK_GRAY);
                    painter.text(
                        pos - Vec2::new(3.0, 0.0),
                        Align2::RIGHT_CENTER,
                        v,
                        font.clone(),
                        Color32::from_rgb(0x30, 0x30, 0xa0),
                    );
                }
                for (k, p) in d.outs.iter().enumerate() {
                    let pos = out_pos(d, k);
                    let v = values.get(&format!("{prefix}{}.{p}", d.id)).map(|v| v.to_string()).unwrap_or_default();
                    painter.text(pos - Vec2::new(3.0, 0.0), Align2::RIGHT_CENTER, p, font.clone(), Color32::DARK_GRAY);
                    painter.text(
                        pos + Vec2::new(3.0, 0.0),
                        Align2::LEFT_CENTER,
                        v,
                        font.clone(),
                        Color32::from_rgb(0x30, 0x30, 0xa0),
                    );
                }
                if resp.clicked()
                    && let Some(pp) = resp.interact_pointer_pos()
                    && r.contains(pp)
                {
                    clicked_block = Some(d.id.clone());
                }
            }
            if let Some(id) = clicked_block
                && let Some(d) = drawn.iter().find(|d| d.id == id)
            {
                // Select the block's first output (or input) in the debugger, where it can be forced.
                let pin = d.outs.first().or(d.ins.first()).cloned().unwrap_or_default();
                self.dbg.selected = Some(format!("{prefix}{id}.{pin}"));
                self.dbg.filter = format!("{prefix}{id}.");
                self.show_debugger = true;
            }
        });
    }
}
