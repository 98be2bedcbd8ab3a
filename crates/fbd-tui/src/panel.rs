//! Any program without the 2048 interface in the terminal, as the window's generic panel shows
//! it: its inputs (a switch, a push button, a selector with its position labels, a number)
//! and its live outputs, on the same real-time task. `fbd tui FILE` of such a program said
//! "not a 2048 program" and stopped. Up/Down (or k/j) choose an input; Space or Enter toggles
//! a switch and presses a button (one scan: a terminal reports no key release); `+`/`-` (or
//! Right/Left) step a number or a selector; a digit picks a selector's position; `Q`, Esc or
//! Ctrl+C quits.

use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use fbd_engine::model::InputKind;
use fbd_engine::plan::PortInfo;
use fbd_engine::realtime::RealtimeRunner;
use fbd_engine::runtime::requests::Request;
use fbd_engine::{Runtime, ScanPlan, Value};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

/// What a key does in the panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PanelKey {
    /// The input above.
    Up,
    /// The input below.
    Down,
    /// Toggle a switch, press a button.
    Toggle,
    /// One more (a number, a selector's next position).
    More,
    /// One less.
    Less,
    /// A selector's position by its number.
    Position(i64),
    /// Leave.
    Quit,
}

/// The panel's key for `k`: Ctrl+C and Ctrl+D quit, other chords do nothing.
pub fn panel_key(k: KeyEvent) -> Option<PanelKey> {
    if k.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SUPER) {
        let quit = k.modifiers.contains(KeyModifiers::CONTROL) && matches!(k.code, KeyCode::Char('c' | 'd'));
        return quit.then_some(PanelKey::Quit);
    }
    Some(match k.code {
        KeyCode::Up | KeyCode::Char('k') => PanelKey::Up,
        KeyCode::Down | KeyCode::Char('j') => PanelKey::Down,
        KeyCode::Char(' ') | KeyCode::Enter => PanelKey::Toggle,
        KeyCode::Char('+') | KeyCode::Right => PanelKey::More,
        KeyCode::Char('-') | KeyCode::Left => PanelKey::Less,
        KeyCode::Char(c @ '0'..='9') => PanelKey::Position(i64::from(c as u8 - b'0')),
        KeyCode::Char('q' | 'Q') | KeyCode::Esc => PanelKey::Quit,
        _ => return None,
    })
}

/// What a key does to an input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Change {
    /// The input takes this value (and keeps it).
    Set(Value),
    /// A push button: TRUE for one scan.
    Pulse,
}

/// The change key `k` makes to input `p` whose value is `cur`, if it makes one.
pub fn change(p: &PortInfo, cur: Value, k: PanelKey) -> Option<Change> {
    // A selector's last position: its labels' count (any number without labels).
    let last = if p.options.is_empty() { i64::MAX } else { p.options.len() as i64 };
    Some(match (p.kind, cur, k) {
        (InputKind::Button, Value::Bool(_), PanelKey::Toggle) => Change::Pulse,
        (_, Value::Bool(b), PanelKey::Toggle) => Change::Set(Value::Bool(!b)),
        (InputKind::Selector, Value::Int(i), PanelKey::More) => Change::Set(Value::Int(i.saturating_add(1).min(last))),
        (InputKind::Selector, Value::Int(i), PanelKey::Less) => Change::Set(Value::Int(i.saturating_sub(1).max(0))),
        (InputKind::Selector, Value::Int(_), PanelKey::Position(d)) if d <= last => Change::Set(Value::Int(d)),
        (_, Value::Int(i), PanelKey::More) => Change::Set(Value::Int(i.saturating_add(1))),
        (_, Value::Int(i), PanelKey::Less) => Change::Set(Value::Int(i.saturating_sub(1))),
        (_, Value::Real(r), PanelKey::More) => Change::Set(Value::Real(step_tenth(r, true))),
        (_, Value::Real(r), PanelKey::Less) => Change::Set(Value::Real(step_tenth(r, false))),
        _ => return None,
    })
}

/// The next multiple of 0.1 above (or below) `r`: adding 0.1 seventeen times gave
/// 1.7000000000000004, wider than the value's column. A step too small to change `r`, or one
/// past the largest REAL, leaves it.
fn step_tenth(r: f64, up: bool) -> f64 {
    let k = (r * 10.0).round();
    // On the grid (within rounding) it steps from its own tenth; off it, to the next one.
    let on_grid = (k - r * 10.0).abs() <= 1e-9 * k.abs().max(1.0);
    let next = match (on_grid, up) {
        (true, true) => k + 1.0,
        (true, false) => k - 1.0,
        (false, true) => (r * 10.0).ceil(),
        (false, false) => (r * 10.0).floor(),
    } / 10.0;
    if next.is_finite() { next } else { r }
}

/// Applies key `key` to input `p` of the program `runner` runs, and says what it did. The
/// value it steps from is the one set last, read when the request is applied: the scan image
/// is a scan old, so keys faster than the scans (a held `+` on a slow cycle, a paste) were
/// each applied to the same old value and all but one lost.
pub fn apply_key(runner: &RealtimeRunner, p: &PortInfo, key: PanelKey) -> String {
    runner.call(KeyOnInput { port: p.clone(), key })
}

/// A panel key on one input, as a request to the scan task.
struct KeyOnInput {
    port: PortInfo,
    key: PanelKey,
}

impl Request for KeyOnInput {
    type Reply = String;
    fn apply(self, rt: &mut Runtime) -> String {
        let p = &self.port;
        let cur = rt.input(&p.name).unwrap_or(p.default);
        match change(p, cur, self.key) {
            Some(Change::Set(v)) => match rt.set_input(&p.name, v) {
                Ok(()) => format!("{} := {}", p.name, shown(p, v)),
                Err(e) => e.to_string(),
            },
            Some(Change::Pulse) => match rt.pulse_input(&p.name, Value::Bool(true)) {
                Ok(()) => format!("{} pressed (one scan)", p.name),
                Err(e) => e.to_string(),
            },
            None => format!("{}: that key does nothing to a {}", p.name, p.kind.name()),
        }
    }
}

/// An input's value as the panel shows it: a selector's position with its label.
pub fn shown(p: &PortInfo, v: Value) -> String {
    match (p.kind, v) {
        (InputKind::Selector, Value::Int(0)) => "0 (none)".into(),
        (InputKind::Selector, Value::Int(i)) => match usize::try_from(i - 1).ok().and_then(|k| p.options.get(k)) {
            Some(label) => format!("{i} {label}"),
            None => i.to_string(),
        },
        // Five significant digits, as the online diagram draws them.
        _ => v.short(),
    }
}

/// What one frame of the panel shows.
pub struct PanelScreen<'a> {
    /// The program's name.
    pub name: &'a str,
    /// Its description, if it has one.
    pub description: Option<&'a str>,
    /// Each input: name, how it is shown (`switch`), its value as shown.
    pub inputs: &'a [(String, &'static str, String)],
    /// Each output: name and value.
    pub outputs: &'a [(String, String)],
    /// The chosen input.
    pub selected: usize,
    /// The scan count and the cycle.
    pub scan: u64,
    /// The cycle in ms.
    pub cycle_ms: f64,
    /// The status line.
    pub status: &'a str,
    /// Faults so far and the latest (`scan 12: m: REAL overflow …`), if any: a program that
    /// divides by zero every scan looked healthy here.
    pub faults: Option<(u64, String)>,
}

/// Draws the panel: inputs (the chosen one marked) and outputs side by side, keys and status
/// below. A list longer than the terminal scrolls to keep the chosen input in view.
pub fn draw_panel(f: &mut Frame, s: &PanelScreen) {
    let [top, body, help, status] =
        Layout::vertical([Constraint::Length(2), Constraint::Min(3), Constraint::Length(1), Constraint::Length(1)])
            .areas(f.area());
    let mut title = vec![Span::styled(
        format!("{}   scan {}  cycle {} ms", s.name, s.scan, s.cycle_ms),
        Style::new().add_modifier(Modifier::BOLD),
    )];
    if let Some((n, last)) = &s.faults {
        title.push(Span::styled(format!("   {n} fault(s), last: {last}"), Style::new().fg(Color::Red)));
    }
    let head =
        vec![Line::from(title), Line::raw(s.description.and_then(|d| d.lines().next()).unwrap_or("").to_string())];
    f.render_widget(Paragraph::new(head), top);
    let [ins, outs] = Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(body);
    let rows = ins.height.saturating_sub(2) as usize;
    let skip = (s.selected + 1).saturating_sub(rows);
    let lines: Vec<Line> = s
        .inputs
        .iter()
        .enumerate()
        .skip(skip)
        .take(rows)
        .map(|(k, (name, kind, value))| {
            let text = format!("{} {name:<14} {value:<12} {kind}", if k == s.selected { ">" } else { " " });
            if k == s.selected {
                Line::styled(text, Style::new().add_modifier(Modifier::REVERSED))
            } else {
                Line::raw(text)
            }
        })
        .collect();
    // An empty box says why it is empty.
    let lines = if s.inputs.is_empty() { vec![Line::raw("(none: this program reads no input)")] } else { lines };
    f.render_widget(Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" inputs ")), ins);
    let mut out_lines: Vec<Line> = s
        .outputs
        .iter()
        .take(outs.height.saturating_sub(2) as usize)
        .map(|(n, v)| match v.as_str() {
            // A BOOL output as a lamp, lit in the colour its name says.
            "TRUE" => {
                let colour = match fbd_engine::model::LampColour::of(n) {
                    fbd_engine::model::LampColour::Green => Color::Green,
                    fbd_engine::model::LampColour::Amber => Color::Yellow,
                    fbd_engine::model::LampColour::Red => Color::Red,
                };
                Line::from(vec![Span::raw(format!("{n:<14} ")), Span::styled("● TRUE", Style::new().fg(colour))])
            }
            "FALSE" => Line::from(vec![
                Span::raw(format!("{n:<14} ")),
                Span::styled("○ FALSE", Style::new().fg(Color::DarkGray)),
            ]),
            _ => Line::raw(format!("{n:<14} {v}")),
        })
        .collect();
    if out_lines.is_empty() {
        out_lines.push(Line::raw("(none: this program has no output)"));
    }
    f.render_widget(Paragraph::new(out_lines).block(Block::default().borders(Borders::ALL).title(" outputs ")), outs);
    f.render_widget(Paragraph::new("up/down choose  space toggle/press  +/- step  0-9 position  Q quit"), help);
    f.render_widget(Paragraph::new(s.status.to_string()), status);
}

/// Runs `plan` (a program without the 2048 interface; `description` what it is for) in the
/// terminal until `Q` and returns the runtime (with its recording, if `record`). The terminal
/// is restored on every exit path. `notice`, when given, follows the first status line.
pub fn run_panel(
    plan: ScanPlan,
    name: &str,
    description: Option<&str>,
    seed: u64,
    record: bool,
    notice: Option<&str>,
) -> std::io::Result<Runtime> {
    let cycle_ms = plan.cycle_us as f64 / 1000.0;
    let mut rt = Runtime::with_seed(plan, seed);
    if record {
        rt.start_recording(100);
    }
    let ports: Vec<PortInfo> = rt.plan().inputs.clone();
    let outputs: Vec<(String, Option<usize>)> =
        rt.plan().outputs.iter().map(|p| (p.name.clone(), rt.plan().signal_id(&p.name))).collect();
    let input_ids: Vec<Option<usize>> = ports.iter().map(|p| rt.plan().signal_id(&p.name)).collect();
    let title = rt.plan().name.clone();
    // Before the task starts: nothing runs without a screen to show it.
    let mut terminal = crate::open_terminal()?;
    let runner = RealtimeRunner::start(rt, None);
    let mut selected = 0usize;
    let mut status = crate::with_notice(&format!("{name}: no 2048 interface; its inputs and outputs"), notice);
    let result = (|| -> std::io::Result<()> {
        let mut last_draw = Instant::now() - Duration::from_secs(1);
        loop {
            let img = runner.image();
            let value = |id: Option<usize>, default: Value| id.map_or(default, |i| img.read_signal(i));
            if last_draw.elapsed() >= Duration::from_millis(50) {
                let inputs: Vec<(String, &'static str, String)> = ports
                    .iter()
                    .zip(&input_ids)
                    .map(|(p, id)| (p.name.clone(), p.kind.name(), shown(p, value(*id, p.default))))
                    .collect();
                let outs: Vec<(String, String)> =
                    outputs.iter().map(|(n, id)| (n.clone(), value(*id, Value::Bool(false)).short())).collect();
                let faults = img.last_fault.as_ref().map(|f| {
                    let at = img.plan.instr_block(f.instr as usize).path;
                    (img.faults_total, format!("scan {}: {}: {}", f.scan, at, f.kind.describe()))
                });
                let screen = PanelScreen {
                    name: &title,
                    description,
                    inputs: &inputs,
                    outputs: &outs,
                    selected,
                    scan: img.scan,
                    cycle_ms,
                    status: &status,
                    faults,
                };
                terminal.draw(|f| draw_panel(f, &screen))?;
                last_draw = Instant::now();
            }
            if !event::poll(Duration::from_millis(20))? {
                continue;
            }
            match event::read()? {
                Event::Key(k) if k.kind != KeyEventKind::Release => match panel_key(k) {
                    Some(PanelKey::Quit) => return Ok(()),
                    Some(PanelKey::Up) => selected = selected.saturating_sub(1),
                    Some(PanelKey::Down) => selected = (selected + 1).min(ports.len().saturating_sub(1)),
                    Some(key) => {
                        let Some(p) = ports.get(selected) else { continue };
                        status = apply_key(&runner, p, key);
                        last_draw = Instant::now() - Duration::from_secs(1);
                    }
                    None => {}
                },
                Event::Resize(..) => last_draw = Instant::now() - Duration::from_secs(1),
                _ => {}
            }
        }
    })();
    ratatui::restore();
    let rt = runner.stop();
    result.map(|()| rt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyEventState;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    /// A program input of `kind` (its type from `default`) with `options`, as a compiled plan
    /// has it.
    fn port(kind: InputKind, default: Value, options: &[&str]) -> PortInfo {
        let ty = default.ty().name();
        let opts: Vec<String> = options.iter().map(|o| format!("\"{o}\"")).collect();
        let text = format!(
            r#"{{"fbd": 1, "inputs": [{{"name": "x", "type": "{ty}", "kind": "{}", "options": [{}]}}],
              "outputs": [{{"name": "y", "type": "{ty}", "from": "x"}}]}}"#,
            kind.name(),
            opts.join(", ")
        );
        let text = if options.is_empty() { text.replace(r#", "options": []"#, "") } else { text };
        let plan = fbd_engine::compile_str(&fbd_engine::MemProvider::new(), "p.json", &text, &Default::default())
            .unwrap_or_else(|e| panic!("{e}"));
        plan.inputs[0].clone()
    }

    #[test]
    fn keys_change_each_kind_of_input_as_its_control_would() {
        let switch = port(InputKind::Switch, Value::Bool(false), &[]);
        assert_eq!(change(&switch, Value::Bool(false), PanelKey::Toggle), Some(Change::Set(Value::Bool(true))));
        let button = port(InputKind::Button, Value::Bool(false), &[]);
        assert_eq!(change(&button, Value::Bool(false), PanelKey::Toggle), Some(Change::Pulse), "a press, one scan");
        let sel = port(InputKind::Selector, Value::Int(0), &["off", "slow", "fast"]);
        assert_eq!(change(&sel, Value::Int(3), PanelKey::More), Some(Change::Set(Value::Int(3))), "stops at the last");
        assert_eq!(change(&sel, Value::Int(0), PanelKey::Less), Some(Change::Set(Value::Int(0))), "and at none");
        assert_eq!(change(&sel, Value::Int(0), PanelKey::Position(2)), Some(Change::Set(Value::Int(2))));
        assert_eq!(change(&sel, Value::Int(0), PanelKey::Position(7)), None, "no position 7");
        assert_eq!(shown(&sel, Value::Int(2)), "2 slow");
        assert_eq!(shown(&sel, Value::Int(0)), "0 (none)");
        let n = port(InputKind::Number, Value::Int(0), &[]);
        assert_eq!(change(&n, Value::Int(i64::MAX), PanelKey::More), Some(Change::Set(Value::Int(i64::MAX))));
        assert_eq!(change(&n, Value::Int(5), PanelKey::Toggle), None, "space does nothing to a number");
        let key = |code| KeyEvent {
            code,
            modifiers: KeyModifiers::NONE,
            kind: KeyEventKind::Press,
            state: KeyEventState::NONE,
        };
        assert_eq!(panel_key(key(KeyCode::Char('3'))), Some(PanelKey::Position(3)));
        let ctrl_c = KeyEvent { modifiers: KeyModifiers::CONTROL, ..key(KeyCode::Char('c')) };
        assert_eq!(panel_key(ctrl_c), Some(PanelKey::Quit));
        let ctrl_j = KeyEvent { modifiers: KeyModifiers::CONTROL, ..key(KeyCode::Char('j')) };
        assert_eq!(panel_key(ctrl_j), None, "other chords do nothing");
    }

    #[test]
    fn a_real_steps_by_tenths_that_stay_tenths() {
        let x = port(InputKind::Number, Value::Real(0.0), &[]);
        let mut v = Value::Real(0.0);
        for _ in 0..17 {
            let Some(Change::Set(next)) = change(&x, v, PanelKey::More) else { panic!("a REAL steps") };
            v = next;
        }
        assert!(v.same_bits(Value::Real(1.7)), "seventeen steps: {v:?}");
        assert_eq!(shown(&x, v), "1.7");
        assert_eq!(change(&x, Value::Real(0.6799), PanelKey::More), Some(Change::Set(Value::Real(0.7))));
        assert_eq!(change(&x, Value::Real(0.6799), PanelKey::Less), Some(Change::Set(Value::Real(0.6))));
        assert_eq!(change(&x, Value::Real(-0.1), PanelKey::More), Some(Change::Set(Value::Real(0.0))));
        assert_eq!(change(&x, Value::Real(f64::MAX), PanelKey::More), Some(Change::Set(Value::Real(f64::MAX))));
        assert_eq!(shown(&x, Value::Real(0.6799679474004608)), "0.67997", "five significant digits");
    }

    /// Keys faster than the scans each count: the value stepped from is the one set last, not
    /// the scan image's (five `+` before a scan gave 1, not 5).
    #[test]
    fn keys_between_two_scans_each_count() {
        let x = port(InputKind::Number, Value::Int(0), &[]);
        let text = r#"{"fbd": 1, "inputs": [{"name": "x", "type": "INT"}],
              "outputs": [{"name": "y", "type": "INT", "from": "x"}]}"#;
        let plan = fbd_engine::compile_str(&fbd_engine::MemProvider::new(), "p.json", text, &Default::default())
            .unwrap_or_else(|e| panic!("{e}"));
        // Running, at a cycle of a minute: after its first scan none comes while the keys do,
        // and a running task's image is not refreshed by a key (a paused one's is).
        let runner = RealtimeRunner::start_with(Runtime::new(plan), None, true);
        runner.set_period(Duration::from_secs(60));
        runner.resume();
        let deadline = Instant::now() + Duration::from_secs(20);
        while runner.image().scan < 1 {
            assert!(Instant::now() < deadline, "no first scan");
            std::thread::sleep(Duration::from_millis(1));
        }
        for k in 1..=5 {
            assert_eq!(apply_key(&runner, &x, PanelKey::More), format!("x := {k}"));
        }
        let rt = runner.stop();
        assert_eq!(rt.input("x"), Some(Value::Int(5)));
    }

    #[test]
    fn the_panel_shows_inputs_outputs_and_keeps_the_chosen_input_in_view() {
        let inputs: Vec<(String, &'static str, String)> = (0..40)
            .map(|k| (format!("in{k}"), "switch", if k == 30 { "TRUE".into() } else { "FALSE".into() }))
            .collect();
        let outputs = vec![("lamp".to_string(), "TRUE".to_string())];
        let screen = PanelScreen {
            name: "many",
            description: Some("Forty switches."),
            inputs: &inputs,
            outputs: &outputs,
            selected: 30,
            scan: 12,
            cycle_ms: 10.0,
            status: "in30 := TRUE",
            faults: Some((3, "scan 11: d: division by zero (result 0)".into())),
        };
        let mut t = Terminal::new(TestBackend::new(80, 24)).expect("terminal");
        t.draw(|f| draw_panel(f, &screen)).expect("draws");
        let text: String = t.backend().buffer().content().iter().map(|c| c.symbol()).collect();
        assert!(text.contains("many   scan 12  cycle 10 ms") && text.contains("Forty switches."), "{text}");
        assert!(text.contains("> in30") && text.contains("TRUE"), "the chosen input, scrolled into view");
        assert!(!text.contains(" in0 "), "the first inputs scrolled out");
        assert!(text.contains("lamp") && text.contains("in30 := TRUE"));
        assert!(text.contains("3 fault(s), last: scan 11: d: division by zero"), "{text}");
    }

    /// A TRUE lamp is lit in the colour its name says (every one was green, `O_LEDRed` too), and
    /// an empty box says why it is empty.
    #[test]
    fn lamps_take_their_colour_from_their_name_and_empty_boxes_say_so() {
        let outputs =
            vec![("O_LEDRed".to_string(), "TRUE".to_string()), ("O_LEDGreen".to_string(), "TRUE".to_string())];
        let screen = PanelScreen {
            name: "lamps",
            description: None,
            inputs: &[],
            outputs: &outputs,
            selected: 0,
            scan: 1,
            cycle_ms: 10.0,
            status: "",
            faults: None,
        };
        let mut t = Terminal::new(TestBackend::new(80, 12)).expect("terminal");
        t.draw(|f| draw_panel(f, &screen)).expect("draws");
        let buf = t.backend().buffer();
        let text: String = buf.content().iter().map(|c| c.symbol()).collect();
        assert!(text.contains("(none: this program reads no input)"), "{text}");
        let lamp_fg = |row_name: &str| {
            let w = buf.area.width as usize;
            let cells = buf.content();
            let row = (0..cells.len() / w)
                .find(|r| cells[r * w..(r + 1) * w].iter().map(|c| c.symbol()).collect::<String>().contains(row_name))
                .expect("the row");
            cells[row * w..(row + 1) * w].iter().find(|c| c.symbol() == "●").map(|c| c.fg).expect("a lamp")
        };
        assert_eq!(lamp_fg("O_LEDRed"), Color::Red);
        assert_eq!(lamp_fg("O_LEDGreen"), Color::Green);
    }
}
