//! The editor's Structured Text mode: a body written in ST (or started in ST from an empty
//! one) is edited as text, highlighted as the online view shows it; "Save to body" makes the
//! text the body's (one undoable edit), the background check compiles it and every error of
//! the body is listed under the text with its line and column, the lines in error marked red
//! in the text; Apply runs it by online change, as any edit.

use eframe::egui::{self, Color32, text::LayoutJob};
use fbd_edit::workspace::BodyId;

use crate::diagram::st::append_line;
use crate::editor::EditorState;

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

    /// The ST mode: the toolbar, the declarations, the ports beside the text, the errors under
    /// it, the text.
    pub(crate) fn st_ui(&mut self, ui: &mut egui::Ui, body: &BodyId) {
        self.st_buffer(body);
        let errors = st_errors(&self.errors, body);
        let (save, label) = self.st_toolbar(ui, body);
        if let Some((name, ty)) = self.st_declare_row(ui, body) {
            let ws = self.ws.as_mut().expect("made");
            let r = ws.declare(body, &name, &ty).map(|_| format!("`{name}` declared : {ty}")).map_err(|e| e.0);
            self.after_keeping_text(r);
        }
        if save && let Some((_, _, text)) = self.st_text.clone() {
            let ws = self.ws.as_mut().expect("made");
            let r = ws.set_st(body, &text).map(|_| "Structured Text saved to the body".to_string()).map_err(|e| e.0);
            self.after_keeping_text(r);
        }
        // The body's ports beside the text, as for a diagram: an ST program's inputs and
        // outputs (an output reads a variable by its name) are edited there.
        egui::Panel::right("st_ports").resizable(true).default_size(250.0).show(ui, |ui| {
            self.props(ui, body);
        });
        self.st_error_panel(ui, &errors);
        let bad_lines: Vec<usize> = errors.iter().map(|(l, _, _)| *l).collect();
        self.st_text_ui(ui, &bad_lines, label);
    }

    /// The text typed is kept until saved; another body, or an edit made elsewhere (an undo),
    /// reads the body's text again.
    fn st_buffer(&mut self, body: &BodyId) {
        let fresh = match &self.st_text {
            Some((b, v, _)) => b != body || *v != self.version,
            None => true,
        };
        if fresh {
            let text = self.workspace().st(body).join("\n");
            self.st_text = Some((body.clone(), self.version, text));
        }
    }

    /// An edit's outcome, the text typed kept (a declaration or a save changes no text typed).
    fn after_keeping_text(&mut self, r: Result<String, String>) {
        let kept = self.st_text.clone();
        self.after(r);
        if let Some(mut t) = kept {
            t.1 = self.version;
            self.st_text = Some(t);
        }
    }

    /// The title, the line count and Save to body; whether Save was clicked, and the title's
    /// id (the text edit is labelled by it: a reader, a test, finds it so).
    fn st_toolbar(&mut self, ui: &mut egui::Ui, body: &BodyId) -> (bool, Option<egui::Id>) {
        let saved = self.workspace().st(body).join("\n");
        let mut save = false;
        let mut label = None;
        ui.horizontal_wrapped(|ui| {
            let text = self.st_text.as_ref().map_or("", |t| t.2.as_str());
            let n = text.lines().count();
            label = Some(ui.label("Structured Text").id);
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
        (save, label)
    }

    /// What the text names is declared here: a variable, or a function block instance; the
    /// declarations so far as IEC writes them. The name and type to declare, when asked.
    fn st_declare_row(&mut self, ui: &mut egui::Ui, body: &BodyId) -> Option<(String, String)> {
        let mut declare = None;
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("declare");
            ui.add(egui::TextEdit::singleline(&mut self.st_name).desired_width(110.0).hint_text("motor"))
                .labelled_by(l.id);
            let l = ui.label("as");
            ui.add(egui::TextEdit::singleline(&mut self.st_type).desired_width(80.0).hint_text("BOOL"))
                .labelled_by(l.id);
            let tip = "a variable of an elementary type, or an instance of a function block (TON, CTU, a macro)";
            if ui.button("Declare").on_hover_text(tip).clicked() {
                let ty = Some(self.st_type.trim()).filter(|t| !t.is_empty()).unwrap_or("BOOL").to_string();
                declare = Some((self.st_name.trim().to_string(), ty));
            }
            let ws = self.workspace();
            let vars = ws.variables(body).iter().map(|v| format!("{} : {}", v.name, v.ty.0.name()));
            let fbs = ws.blocks(body).into_iter().flatten().map(|b| format!("{} : {}", b.id, b.ty));
            let all: Vec<String> = vars.chain(fbs).collect();
            if !all.is_empty() {
                ui.label(egui::RichText::new(format!("VAR {} END_VAR", all.join("; "))).monospace().weak());
            }
        });
        declare
    }

    /// The body's errors under the text, each at its line and column; the program's others
    /// when the body has none.
    fn st_error_panel(&self, ui: &mut egui::Ui, errors: &[(usize, usize, String)]) {
        egui::Panel::bottom("st_errors").resizable(true).default_size(90.0).show(ui, |ui| {
            egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
                if errors.is_empty() && !self.errors.is_empty() {
                    ui.label(egui::RichText::new("the program has errors elsewhere:").color(ERROR_RED));
                    for e in &self.errors {
                        ui.label(egui::RichText::new(e).color(ERROR_RED));
                    }
                }
                for (l, c, m) in errors {
                    ui.label(egui::RichText::new(format!("line {l}:{c}: {m}")).color(ERROR_RED).monospace());
                }
            });
        });
    }

    /// The text, highlighted as the online view shows it, with line numbers; the lines in
    /// error underlined and their numbers red.
    fn st_text_ui(&mut self, ui: &mut egui::Ui, bad_lines: &[usize], label: Option<egui::Id>) {
        let comment = ui.visuals().weak_text_color();
        let mut layouter = |ui: &egui::Ui, buf: &dyn egui::TextBuffer, wrap: f32| {
            let font = egui::TextStyle::Monospace.resolve(ui.style());
            let mut job = LayoutJob::default();
            for (k, line) in buf.as_str().split('\n').enumerate() {
                let underline = bad_lines.contains(&(k + 1)).then_some(ERROR_RED);
                if k > 0 {
                    job.append("\n", 0.0, egui::TextFormat::simple(font.clone(), ui.visuals().text_color()));
                }
                append_line(&mut job, line, &font, ui.visuals(), underline);
            }
            job.wrap.max_width = wrap;
            ui.fonts_mut(|f| f.layout_job(job))
        };
        egui::ScrollArea::both().auto_shrink([false, false]).show(ui, |ui| {
            let Some((_, _, text)) = self.st_text.as_mut() else { return };
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
                if let Some(l) = label {
                    edit.labelled_by(l);
                }
            });
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
