//! The debugger's signal tree: instances, blocks and their pins with live values, forced and
//! breakpoint marks; or, with a filter, every signal whose path has its text. Drawn from the
//! scan image it is lent; a click selects a signal for the editor above it.

use std::collections::BTreeMap;
use std::sync::Arc;

use eframe::egui::{self, Color32, RichText};
use fbd_engine::runtime::requests::TakeImage;
use fbd_engine::{ScanImage, ScanPlan, SignalKind};

use crate::debugger::{DebuggerState, value_text};
use crate::link::Link;

/// The plan's hierarchy as the tree shows it, indexed once per program.
#[derive(Default)]
pub(crate) struct TreeIndex {
    /// Parent path ("" for the top) → child instance paths and block indices.
    children: BTreeMap<String, (Vec<String>, Vec<usize>)>,
    /// Instance path → its macro-pin signals.
    instance_pins: BTreeMap<String, Vec<usize>>,
}

fn parent_of(path: &str) -> &str {
    path.rsplit_once('/').map(|(p, _)| p).unwrap_or("")
}

impl TreeIndex {
    pub(crate) fn of(plan: &ScanPlan) -> TreeIndex {
        let mut t = TreeIndex::default();
        for inst in &plan.instances {
            t.children.entry(parent_of(&inst.path).to_string()).or_default().0.push(inst.path.clone());
        }
        for (i, b) in plan.blocks.iter().enumerate() {
            t.children.entry(parent_of(b.path).to_string()).or_default().1.push(i);
        }
        for (i, s) in plan.signals.iter().enumerate() {
            if s.kind == SignalKind::MacroPin
                && let Some((inst, _)) = s.path.rsplit_once('.')
            {
                t.instance_pins.entry(inst.to_string()).or_default().push(i);
            }
        }
        for v in t.children.values_mut() {
            v.0.sort();
            v.1.sort_by(|a, b| plan.blocks.at(*a).path.cmp(plan.blocks.at(*b).path));
        }
        t
    }
}

impl DebuggerState {
    /// The tree, or the signals whose path has the filter's text (at most 300).
    pub(crate) fn tree_ui(&mut self, ui: &mut egui::Ui, img: &ScanImage, link: Link<'_>) {
        ui.horizontal(|ui| {
            let l = ui.label("Signals");
            ui.add(
                egui::TextEdit::singleline(&mut self.filter).hint_text(self.hints.filter.as_str()).desired_width(200.0),
            )
            .labelled_by(l.id);
        });
        let Some(plan) = self.plan.clone() else { return };
        // The values of the tree's own plan (the published image may still be of the program
        // just replaced).
        let fresh;
        let img = if Arc::ptr_eq(&img.plan, &plan) {
            img
        } else {
            fresh = link.call(TakeImage);
            &fresh
        };
        if !self.filter.is_empty() {
            let f = self.filter.to_lowercase();
            let hits: Vec<usize> = plan
                .signals
                .iter()
                .enumerate()
                .filter(|(_, s)| s.path.to_lowercase().contains(&f))
                .map(|(i, _)| i)
                .take(300)
                .collect();
            for i in hits {
                self.signal_row(ui, img, i, plan.signals.at(i).path);
            }
            return;
        }
        self.tree_level(ui, img, "");
    }

    fn tree_level(&mut self, ui: &mut egui::Ui, img: &ScanImage, parent: &str) {
        let plan = &*img.plan;
        let Some((insts, blocks)) = self.tree.children.get(parent).cloned() else { return };
        for inst in insts {
            let macro_name =
                plan.instances.iter().find(|i| i.path == inst).map(|i| i.macro_name.as_str()).unwrap_or("");
            let name = inst.rsplit('/').next().unwrap_or(&inst).to_string();
            egui::CollapsingHeader::new(format!("{name}  ({macro_name})")).id_salt(&inst).show(ui, |ui| {
                if let Some(pins) = self.tree.instance_pins.get(&inst).cloned() {
                    for i in pins {
                        let label = plan.signals.at(i).path.rsplit('.').next().unwrap_or("").to_string();
                        let negated = if plan.is_negated_pin(i as u32) { " (negated)" } else { "" };
                        self.signal_row(ui, img, i, &format!(".{label}{negated}"));
                    }
                }
                self.tree_level(ui, img, &inst);
            });
        }
        for bi in blocks {
            let b = plan.blocks.at(bi);
            let name = b.path.rsplit('/').next().unwrap_or(b.path).to_string();
            egui::CollapsingHeader::new(format!("{name}  {}", b.type_name)).id_salt(b.path).show(ui, |ui| {
                for &s in b.inputs.iter().chain(b.outputs) {
                    // A negated pin says so: an input's value is its wire's, before the circle
                    // (the block reads the inverse), an output's the block's own (its readers
                    // get the inverse).
                    let pin = match plan.is_negated_pin(s) {
                        true => format!("{} (negated)", plan.pin_name(s)),
                        false => plan.pin_name(s).to_string(),
                    };
                    self.signal_row(ui, img, s as usize, &pin);
                }
            });
        }
    }

    fn signal_row(&mut self, ui: &mut egui::Ui, img: &ScanImage, id: usize, label: &str) {
        let s = img.plan.signals.at(id);
        let (v, forced) = (img.read_signal(id), img.is_forced(id));
        ui.horizontal(|ui| {
            let selected = self.selected.as_deref() == Some(s.path);
            if ui.selectable_label(selected, label).on_hover_text(s.path).clicked() {
                self.selected = Some(s.path.to_string());
                self.edit = v.to_string().to_lowercase();
            }
            ui.label(value_text(v));
            if forced {
                ui.label(RichText::new("F").color(Color32::from_rgb(0xd0, 0x20, 0x20)).strong())
                    .on_hover_text("forced");
            }
            if img.breakpoint_paths.iter().any(|p| p == s.path) {
                // The gutter mark of a breakpoint, as on the pin in the online diagram.
                let (r, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
                ui.painter().circle_filled(r.center(), 4.0, Color32::from_rgb(0xd0, 0x20, 0x20));
                ui.label(RichText::new("breakpoint").small().color(Color32::from_rgb(0xd0, 0x20, 0x20)));
            }
        });
    }
}
