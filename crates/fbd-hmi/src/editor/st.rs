//! The editor's Structured Text mode: a body written in ST (or started in ST from an empty
//! one) is edited as text, highlighted as the online view shows it; "Save to body" makes the
//! text the body's (one undoable edit), the background check compiles it and every error of
//! the body is listed under the text with its line and column, the lines in error marked red
//! in the text; Apply runs it by online change, as any edit.

use eframe::egui::{self, Color32, text::LayoutJob};
use fbd_edit::workspace::BodyId;

use crate::editor::EditorState;
use fbd_st::highlight::{Piece, pieces};

const ERROR_RED: Color32 = Color32::from_rgb(0xd0, 0x30, 0x30);

/// The errors the last check found in the ST of `body`: line, column, message. A macro's are
/// named by it (`` `BATCH`: ST 3:5: ..``), the program's are not (`ST 3:5: ..`).
pub(crate) fn st_errors(errors: &[String], body: &BodyId) -> Vec<(usize, usize, String)> {
    let tag = match body {
        BodyId::Program => "ST ".to_string(),
        BodyId::Macro(m) => format!("`{m}`: ST "),
    };
    errors
        .iter()
        .filter_map(|e| {
            let at = e.find(&tag)?;
            // The program's tag must not be the end of a macro's.
            if matches!(body, BodyId::Program)
                && e[..at].ends_with(": ")
                && e[..at].trim_end_matches(": ").ends_with('`')
            {
                return None;
            }
            let rest = &e[at + tag.len()..];
            let (line, rest) = rest.split_once(':')?;
            let (col, msg) = rest.split_once(':')?;
            Some((line.parse().ok()?, col.parse().ok()?, msg.trim().to_string()))
        })
        .collect()
}

impl EditorState {
    /// Whether the editor shows `body` as ST text: it has some, or the user started it.
    pub(crate) fn st_mode(&mut self, body: &BodyId) -> bool {
        self.st_started || !self.workspace().st(body).is_empty()
    }

    /// The ST toolbar, the text and its errors.
    pub(crate) fn st_ui(&mut self, ui: &mut egui::Ui, body: &BodyId) {
        let version = self.version;
        // The text typed is kept until saved; another body, or an edit made elsewhere (an
        // undo), reads the body's text again.
        let fresh = match &self.st_text {
            Some((b, v, _)) => b != body || *v != version,
            None => true,
        };
        if fresh {
            let text = self.workspace().st(body).join("\n");
            self.st_text = Some((body.clone(), version, text));
        }
        let saved = self.workspace().st(body).join("\n");
        let errors = st_errors(&self.errors, body);
        let mut save = false;
        let mut text_label = None;
        ui.horizontal_wrapped(|ui| {
            let text = self.st_text.as_ref().map_or("", |t| t.2.as_str());
            let n = text.lines().count();
            // The text edit below is labelled by this (a reader, a test, finds it by it).
            text_label = Some(ui.label("Structured Text").id);
            ui.label(egui::RichText::new(format!("{n} line{}", if n == 1 { "" } else { "s" })).weak());
            let changed = text != saved;
            save = ui
                .add_enabled(changed, egui::Button::new("Save to body"))
                .on_hover_text("make this text the body's (undo takes it back); Apply then runs it")
                .clicked();
            // Whether it compiles the header says, as for every body.
            if changed {
                ui.label(egui::RichText::new("not saved to the body yet").weak());
            }
        });
        // What the text names is declared here: a variable, or a function block instance.
        let mut declare = None;
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("declare");
            ui.add(egui::TextEdit::singleline(&mut self.st_name).desired_width(110.0).hint_text("motor"))
                .labelled_by(l.id);
            let l = ui.label("as");
            ui.add(egui::TextEdit::singleline(&mut self.st_type).desired_width(80.0).hint_text("BOOL"))
                .labelled_by(l.id);
            if ui
                .button("Declare")
                .on_hover_text(
                    "a variable of an elementary type, or an instance of a function block (TON, CTU, a macro)",
                )
                .clicked()
            {
                let ty =
                    if self.st_type.trim().is_empty() { "BOOL".to_string() } else { self.st_type.trim().to_string() };
                declare = Some((self.st_name.trim().to_string(), ty));
            }
            let vars: Vec<String> =
                self.workspace().variables(body).iter().map(|v| format!("{} : {}", v.name, v.ty.0.name())).collect();
            let fbs: Vec<String> = self
                .workspace()
                .blocks(body)
                .map_or_else(Vec::new, |bs| bs.iter().map(|b| format!("{} : {}", b.id, b.ty)).collect());
            if !vars.is_empty() || !fbs.is_empty() {
                ui.label(
                    egui::RichText::new(format!("VAR {} END_VAR", [vars, fbs].concat().join("; "))).monospace().weak(),
                );
            }
        });
        if let Some((name, ty)) = declare {
            let ws = self.ws.as_mut().expect("made");
            let r = ws.declare(body, &name, &ty).map(|_| format!("`{name}` declared : {ty}")).map_err(|e| e.0);
            // The text typed is kept: only the declarations changed.
            let kept = self.st_text.clone();
            self.after(r);
            if let (Some(mut t), true) = (kept, self.st_text.is_some()) {
                t.1 = self.version;
                self.st_text = Some(t);
            }
        }
        if save && let Some((_, _, text)) = self.st_text.clone() {
            let ws = self.ws.as_mut().expect("made");
            let r = ws.set_st(body, &text).map(|_| "Structured Text saved to the body".to_string()).map_err(|e| e.0);
            self.after(r);
            if let Some(t) = self.st_text.as_mut() {
                t.1 = self.version;
            }
        }
        let bad_lines: Vec<usize> = errors.iter().map(|(l, _, _)| *l).collect();
        let dark = ui.visuals().dark_mode;
        let text_color = ui.visuals().text_color();
        let comment = ui.visuals().weak_text_color();
        let mut layouter = |ui: &egui::Ui, buf: &dyn egui::TextBuffer, wrap: f32| {
            let font = egui::TextStyle::Monospace.resolve(ui.style());
            let keyword = if dark { Color32::from_rgb(0x79, 0xb8, 0xff) } else { Color32::from_rgb(0x1a, 0x4f, 0xb0) };
            let literal = if dark { Color32::from_rgb(0xe0, 0xa0, 0x60) } else { Color32::from_rgb(0x9a, 0x4a, 0x00) };
            let mut job = LayoutJob::default();
            for (k, line) in buf.as_str().split('\n').enumerate() {
                let bad = bad_lines.contains(&(k + 1));
                let fmt = |c: Color32| {
                    let mut f = egui::TextFormat::simple(font.clone(), c);
                    if bad {
                        f.underline = egui::Stroke::new(1.5, ERROR_RED);
                    }
                    f
                };
                if k > 0 {
                    job.append("\n", 0.0, fmt(text_color));
                }
                for p in pieces(line) {
                    let (s, c) = match p {
                        Piece::Keyword(s) => (s, keyword),
                        Piece::Literal(s) => (s, literal),
                        Piece::Comment(s) => (s, comment),
                        Piece::Name(s) | Piece::Other(s) => (s, text_color),
                    };
                    job.append(s, 0.0, fmt(c));
                }
            }
            job.wrap.max_width = wrap;
            ui.fonts_mut(|f| f.layout_job(job))
        };
        // The body's ports beside the text, as for a diagram: an ST program's inputs and
        // outputs (an output reads a variable by its name) are edited there.
        egui::Panel::right("st_ports").resizable(true).default_size(250.0).show(ui, |ui| {
            self.props(ui, body);
        });
        egui::Panel::bottom("st_errors").resizable(true).default_size(90.0).show(ui, |ui| {
            egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
                if errors.is_empty() && !self.errors.is_empty() {
                    ui.label(egui::RichText::new("the program has errors elsewhere:").color(ERROR_RED));
                    for e in &self.errors {
                        ui.label(egui::RichText::new(e).color(ERROR_RED));
                    }
                }
                for (l, c, m) in &errors {
                    ui.label(egui::RichText::new(format!("line {l}:{c}: {m}")).color(ERROR_RED).monospace());
                }
            });
        });
        egui::ScrollArea::both().auto_shrink([false, false]).show(ui, |ui| {
            if let Some((_, _, text)) = self.st_text.as_mut() {
                // Line numbers beside the text, the lines in error in red: the errors name them.
                let n = text.split('\n').count().max(1);
                let width = n.to_string().len();
                let mut gutter = LayoutJob::default();
                let font = egui::TextStyle::Monospace.resolve(ui.style());
                for k in 1..=n {
                    let c = if bad_lines.contains(&k) { ERROR_RED } else { comment };
                    gutter.append(&format!("{k:>width$}\n"), 0.0, egui::TextFormat::simple(font.clone(), c));
                }
                ui.horizontal_top(|ui| {
                    ui.add_space(2.0);
                    ui.vertical(|ui| {
                        ui.add_space(2.0); // the text edit's inner margin
                        ui.label(gutter);
                    });
                    let edit = ui.add(
                        egui::TextEdit::multiline(text)
                            .code_editor()
                            .desired_width(f32::INFINITY)
                            .desired_rows(24)
                            .layouter(&mut layouter),
                    );
                    if let Some(l) = text_label {
                        edit.labelled_by(l);
                    }
                });
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::st_errors;
    use fbd_edit::workspace::BodyId;

    #[test]
    fn a_body_s_errors_are_told_from_another_body_s() {
        let errors = vec![
            "error: a.json:9:5: `BATCH`: ST 3:7: unknown name `lvl`".to_string(),
            "error: a.json:20:5: ST 1:1: expected `;`".to_string(),
        ];
        assert_eq!(st_errors(&errors, &BodyId::Macro("BATCH".into())), [(3, 7, "unknown name `lvl`".into())]);
        assert_eq!(st_errors(&errors, &BodyId::Program), [(1, 1, "expected `;`".into())]);
        assert!(st_errors(&errors, &BodyId::Macro("OTHER".into())).is_empty());
    }
}
