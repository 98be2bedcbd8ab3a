//! The online diagram's menus (a block's outputs, a program input): what they offer for a
//! signal and what their actions do to it (write, force, release,
//! watch, breakpoints, select in the debugger).

use eframe::egui;
use fbd_engine::runtime::requests::{AddBreakpoint, Release, Write};
use fbd_engine::{Condition, Value};

use crate::app::App;

impl App {
    /// Carries out a context-menu action on signal `path`.
    pub(crate) fn diagram_act(&mut self, path: &str, a: MenuAction) {
        if matches!(a, MenuAction::Write(_)) {
            self.note_altered();
        }
        let result: Result<String, String> = match a {
            MenuAction::Write(v) => self
                .runner
                .call(Write { path: path.to_string(), value: v })
                .map(|()| format!("{path} := {v} at the next scan"))
                .map_err(|e| e.to_string()),
            MenuAction::Break(on) => {
                let cond = match on {
                    BreakOn::Rise => Condition::Rises(path.to_string()),
                    BreakOn::Change => Condition::Changes(path.to_string()),
                    BreakOn::Equals(v) => Condition::Equals(path.to_string(), v),
                };
                let text = cond.to_string();
                self.runner
                    .call(AddBreakpoint(cond))
                    .map(|_| format!("breakpoint `{text}` set: the task pauses after a scan where it holds"))
                    .map_err(|e| e.to_string())
            }
            MenuAction::Force(v) => self.force(path, v).map(|()| format!("{path} forced to {v}")),
            MenuAction::Release => Ok(if self.runner.call(Release(path.to_string())) {
                format!("{path} released")
            } else {
                format!("{path} was not forced")
            }),
            MenuAction::Watch => self.watch_signal(path).map(|()| format!("watching {path}")),
            MenuAction::Select => {
                self.dbg.selected = Some(path.to_string());
                self.dbg.filter = path.rsplit_once('.').map(|(b, _)| format!("{b}.")).unwrap_or_default();
                *self.debugger_shown_mut() = true;
                Ok(format!("{path} selected in the debugger (write or force it there)"))
            }
        };
        self.diagram.message = result.unwrap_or_else(|e| format!("{path}: {e}"));
    }
}

/// What the block context menu does to one output.
#[derive(Copy, Clone, Debug)]
pub(crate) enum MenuAction {
    Write(Value),
    Force(Value),
    Break(BreakOn),
    Release,
    Watch,
    Select,
}

/// Which breakpoint the context menu sets on an output.
#[derive(Copy, Clone, Debug)]
pub(crate) enum BreakOn {
    Rise,
    Change,
    Equals(Value),
}

/// What the context menu offers for a signal whose value is `cur`: write and force (the other
/// BOOL value, or the number typed in the menu), breakpoints, release if forced, watch, select.
pub(crate) fn value_actions(
    ui: &mut egui::Ui,
    cur: Option<Value>,
    forced: bool,
    typed: &str,
) -> Vec<(String, MenuAction)> {
    let mut actions: Vec<(String, MenuAction)> = Vec::new();
    match cur {
        Some(Value::Bool(b)) => {
            actions.push((format!("write {}", if b { "FALSE" } else { "TRUE" }), MenuAction::Write(Value::Bool(!b))));
            actions.push(("force TRUE".into(), MenuAction::Force(Value::Bool(true))));
            actions.push(("force FALSE".into(), MenuAction::Force(Value::Bool(false))));
            actions.push(("break on rise".into(), MenuAction::Break(BreakOn::Rise)));
        }
        Some(v) => match Value::parse(typed.trim(), v.ty()) {
            Ok(x) => {
                actions.push((format!("write {x}"), MenuAction::Write(x)));
                actions.push((format!("force {x}"), MenuAction::Force(x)));
                actions.push((format!("break at {x}"), MenuAction::Break(BreakOn::Equals(x))));
            }
            Err(_) => {
                ui.label(egui::RichText::new("(type a value to write or force)").weak());
            }
        },
        None => {}
    }
    if cur.is_some() {
        actions.push(("break on change".into(), MenuAction::Break(BreakOn::Change)));
    }
    if forced {
        actions.push(("release".into(), MenuAction::Release));
    }
    actions.push(("watch".into(), MenuAction::Watch));
    actions.push(("select".into(), MenuAction::Select));
    actions
}
