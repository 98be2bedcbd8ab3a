//! The online diagram's menus (a block's outputs, a program input): what they offer for a
//! signal and what their actions do to it (write, force, release,
//! watch, breakpoints, select in the debugger).

use eframe::egui;
use fbd_engine::Value;

/// What the block context menu does to one output.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum MenuAction {
    Write(Value),
    Force(Value),
    Break(BreakOn),
    Release,
    Watch,
    Select,
}

/// Which breakpoint the context menu sets on an output.
#[derive(Copy, Clone, Debug, PartialEq)]
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
