//! 2048 through the FBD program in a terminal: the board in the 2048 palette (true colour,
//! falling back to 256 and 16 colours), score, best, the lockout lamp, the scan count and the
//! cycle. Arrows or WASD move, `S` starts a game, `R` resets, `X`/`Y`/`Z` start the greedy,
//! pattern and Monte-Carlo test solvers and `E` expectimax, all playing through the program;
//! Space stops a player, `Q` quits. The program runs on the same real-time task as the HMI,
//! and the command queue, pulses, lockout and players are the shared
//! [`fbd2048_game::front::Front`]. Works in 80×24, without a mouse, over SSH; redraws on resize.

use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use fbd_engine::realtime::RealtimeRunner;
use fbd_engine::{Runtime, ScanPlan};
use fbd2048_game::Command;
use fbd2048_game::best::Best;
use fbd2048_game::front::{Front, GameIo, View};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ref2048::Dir;

pub mod panel;

/// What a key does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A command to the program (a move, start, reset).
    Command(Command),
    /// Start this automated player.
    Player(&'static str),
    /// Stop the automated player.
    StopPlayer,
    /// Leave.
    Quit,
}

/// The action of a key: arrows/WASD move, Enter starts, R resets, X/Y/Z/E players, Space stops, Q quits.
pub fn action(code: KeyCode) -> Option<Action> {
    Some(match code {
        KeyCode::Up | KeyCode::Char('w' | 'W') => Action::Command(Command::Move(Dir::Up)),
        KeyCode::Down | KeyCode::Char('s' | 'S') => Action::Command(Command::Move(Dir::Down)),
        KeyCode::Left | KeyCode::Char('a' | 'A') => Action::Command(Command::Move(Dir::Left)),
        KeyCode::Right | KeyCode::Char('d' | 'D') => Action::Command(Command::Move(Dir::Right)),
        // Enter starts; S is Down whatever its case (Shift+S started a game, Caps Lock too).
        KeyCode::Enter => Action::Command(Command::Start),
        KeyCode::Char('r' | 'R') => Action::Command(Command::Reset),
        KeyCode::Char('x' | 'X') => Action::Player("greedy"),
        KeyCode::Char('y' | 'Y') => Action::Player("pattern"),
        KeyCode::Char('z' | 'Z') => Action::Player("montecarlo"),
        KeyCode::Char('e' | 'E') => Action::Player("expectimax"),
        KeyCode::Char(' ') => Action::StopPlayer,
        KeyCode::Char('q' | 'Q') | KeyCode::Esc => Action::Quit,
        _ => return None,
    })
}

/// The action of a key with its modifiers: Ctrl+C and Ctrl+D quit, as in any terminal
/// program (raw mode turns them into keys: Ctrl+C did nothing); other Ctrl and Alt chords are
/// no command (Ctrl+R reset the game, Ctrl+A moved it); the rest as [`action`].
pub fn key_action(k: KeyEvent) -> Option<Action> {
    let chord = k.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SUPER);
    match k.code {
        KeyCode::Char('c' | 'd') if k.modifiers.contains(KeyModifiers::CONTROL) => Some(Action::Quit),
        _ if chord => None,
        code => action(code),
    }
}

/// How many colours the terminal shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Palette {
    /// 24-bit colour (`COLORTERM=truecolor`).
    TrueColor,
    /// The xterm 256-colour cube.
    Ansi256,
    /// The 16 basic colours.
    Ansi16,
}

impl Palette {
    /// From the environment: `COLORTERM` truecolor/24bit, else `TERM` with 256color, else 16.
    pub fn detect() -> Palette {
        let ct = std::env::var("COLORTERM").unwrap_or_default();
        let term = std::env::var("TERM").unwrap_or_default();
        if ct.contains("truecolor") || ct.contains("24bit") {
            Palette::TrueColor
        } else if term.contains("256") {
            Palette::Ansi256
        } else {
            Palette::Ansi16
        }
    }

    fn color(self, (r, g, b): (u8, u8, u8), basic: Color) -> Color {
        match self {
            Palette::TrueColor => Color::Rgb(r, g, b),
            Palette::Ansi256 => {
                let c = |x: u8| ((x as u16 * 5 + 127) / 255) as u8;
                Color::Indexed(16 + 36 * c(r) + 6 * c(g) + c(b))
            }
            Palette::Ansi16 => basic,
        }
    }

    /// A colour of the 2048 palette: its RGB in true colour, a chosen index of the xterm
    /// 256-colour set (rounding each RGB to the 6-level cube made 2 and 4 one pink), the
    /// nearest of the 16 basic ones.
    fn pick(self, rgb: (u8, u8, u8), ansi256: u8, basic: Color) -> Color {
        match self {
            Palette::TrueColor => Color::Rgb(rgb.0, rgb.1, rgb.2),
            Palette::Ansi256 => Color::Indexed(ansi256),
            Palette::Ansi16 => basic,
        }
    }
}

/// The board between the tiles, in the 2048 palette.
const BOARD_RGB: (u8, u8, u8) = (0xbb, 0xad, 0xa0);

/// Background and text colour of a tile, in the 2048 palette. With 256 colours each value has
/// an index of its own: the tiles up to 2048 are twelve colours apart, light to warm.
pub fn tile_colors(v: i64, p: Palette) -> (Color, Color) {
    let (rgb, ansi256, basic) = match v {
        0 => ((0xcd, 0xc1, 0xb4), 250, Color::DarkGray),
        2 => ((0xee, 0xe4, 0xda), 255, Color::White),
        4 => ((0xed, 0xe0, 0xc8), 230, Color::Gray),
        8 => ((0xf2, 0xb1, 0x79), 216, Color::LightRed),
        16 => ((0xf5, 0x95, 0x63), 209, Color::LightRed),
        32 => ((0xf6, 0x7c, 0x5f), 203, Color::Red),
        64 => ((0xf6, 0x5e, 0x3b), 196, Color::Red),
        128 => ((0xed, 0xcf, 0x72), 229, Color::LightYellow),
        256 => ((0xed, 0xcc, 0x61), 228, Color::LightYellow),
        512 => ((0xed, 0xc8, 0x50), 227, Color::Yellow),
        1024 => ((0xed, 0xc5, 0x3f), 226, Color::Yellow),
        2048 => ((0xed, 0xc2, 0x2e), 220, Color::Yellow),
        _ => ((0x3c, 0x3a, 0x32), 236, Color::Black),
    };
    let dark_text = matches!(v, 2 | 4);
    let fg = if dark_text {
        p.pick((0x77, 0x6e, 0x65), 241, Color::Black)
    } else {
        p.pick((0xf9, 0xf6, 0xf2), 231, Color::White)
    };
    (p.pick(rgb, ansi256, basic), fg)
}

/// What the screen shows.
pub struct Screen<'a> {
    /// The frame's values.
    pub view: &'a View,
    /// The program's name.
    pub name: &'a str,
    /// The cycle in ms.
    pub cycle_ms: f64,
    /// The automated player, if one plays.
    pub player: Option<&'a str>,
    /// The status line.
    pub status: &'a str,
    /// The colours.
    pub palette: Palette,
}

/// The smallest terminal the board (31×14: tiles of 6×3 characters a column apart), the panel beside it and
/// the status line fit in.
pub const MIN_SIZE: (u16, u16) = (53, 15);

/// Draws the board and the panel (tiles 6×3 characters a column apart: the board is 31×14, fits in 80×24). A
/// terminal smaller than [`MIN_SIZE`] gets a line that says so instead of a board drawn over
/// its own borders.
pub fn draw(f: &mut Frame, s: &Screen) {
    let area = f.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        let msg = format!(
            "The terminal is {}x{}; the board needs at least {}x{}. Enlarge it (Q quits).",
            area.width, area.height, MIN_SIZE.0, MIN_SIZE.1
        );
        f.render_widget(Paragraph::new(msg).wrap(ratatui::widgets::Wrap { trim: true }), area);
        return;
    }
    let [main, status] = Layout::vertical([Constraint::Min(14), Constraint::Length(1)]).areas(area);
    let tile = tile_size(main);
    // Tiles a column apart, a column at each side; borders around.
    let board_w = 4 * (tile.0 + 1) + 1 + 2;
    let [board_column, panel] = Layout::horizontal([Constraint::Length(board_w), Constraint::Min(20)]).areas(main);
    // The board is as tall as its tiles; below it the terminal's own background.
    let [board_area, _] =
        Layout::vertical([Constraint::Length(4 * tile.1 + 2), Constraint::Min(0)]).areas(board_column);
    let board = Block::default().borders(Borders::ALL).title(" 2048 ");
    let inner = board.inner(board_area);
    f.render_widget(board, board_area);
    // Tiles stand apart on the board's colour, as in the game: a column between two tiles, and
    // half a row above and below each (half blocks), so that two neighbours of one colour (2
    // and 4 are nearly alike) read as two tiles, not one bar.
    let felt = s.palette.pick(BOARD_RGB, 246, Color::Black);
    f.render_widget(Paragraph::new("").style(Style::default().bg(felt)), inner);
    for r in 0..4u16 {
        for c in 0..4u16 {
            let k = (r * 4 + c) as usize;
            let cell =
                Rect { x: inner.x + c * (tile.0 + 1) + 1, y: inner.y + r * tile.1, width: tile.0, height: tile.1 };
            if cell.right() > inner.right() || cell.bottom() > inner.bottom() {
                continue;
            }
            f.render_widget(
                Paragraph::new(tile_lines(s.view.values[k], s.view.forced[k], tile, felt, s.palette)),
                cell,
            );
        }
    }
    let lamp = if s.view.busy {
        Span::styled(" busy ", Style::default().bg(s.palette.color((0xe0, 0x90, 0x20), Color::Yellow)).fg(Color::Black))
    } else {
        Span::styled(" ready ", Style::default().bg(s.palette.color((0x1f, 0x9d, 0x3a), Color::Green)).fg(Color::Black))
    };
    let mut lines = vec![
        Line::from(Span::styled(s.name.to_string(), Style::default().add_modifier(Modifier::BOLD))),
        Line::from(format!("score {}", s.view.score)),
        Line::from(format!("best  {}", s.view.best)),
        Line::from(vec![Span::raw("lockout "), lamp]),
        Line::from(format!("scan {}  ({} ms)", s.view.scan, s.view.clock_ms)),
        Line::from(format!("cycle {} ms", s.cycle_ms)),
        Line::from(format!("player {}", s.player.unwrap_or("-"))),
        Line::from(""),
        Line::from("arrows/WASD move  Enter start  R reset"),
        Line::from("X greedy  Y pattern  Z Monte-Carlo"),
        Line::from("E expectimax  Space stop  Q quit"),
    ];
    if s.view.game_over {
        lines.insert(
            1,
            Line::from(Span::styled("GAME OVER", Style::default().fg(Color::Red).add_modifier(Modifier::BOLD))),
        );
    } else if s.view.win {
        lines.insert(
            1,
            Line::from(Span::styled("YOU WIN", Style::default().fg(Color::Green).add_modifier(Modifier::BOLD))),
        );
    }
    f.render_widget(Paragraph::new(lines).block(Block::default().borders(Borders::ALL)), panel);
    f.render_widget(Paragraph::new(s.status.to_string()), status);
}

/// The tiles' size (columns, rows): 6×3 in an 80×24 terminal, growing with the terminal up to
/// 14×7, the panel keeping the 40 columns its key help takes.
fn tile_size(main: Rect) -> (u16, u16) {
    let w = (main.width.saturating_sub(40 + 3) / 4).saturating_sub(1).clamp(6, 14);
    let h = (main.height.saturating_sub(2) / 4).clamp(3, 7);
    // Wide and low or narrow and tall tiles read badly: at most twice as wide as tall, plus one.
    (w.min(2 * h + 1), h)
}

/// The lines of one tile of `size`: half a row of the board's colour above and below (half
/// blocks), the value in the middle row, underlined when forced.
fn tile_lines(v: i64, forced: bool, size: (u16, u16), felt: Color, p: Palette) -> Vec<Line<'static>> {
    let (w, h) = (size.0 as usize, size.1 as usize);
    let (bg, fg) = tile_colors(v, p);
    let text = if v == 0 { String::new() } else { v.to_string() };
    let mut style = Style::default().bg(bg).fg(fg).add_modifier(Modifier::BOLD);
    if forced {
        style = style.add_modifier(Modifier::UNDERLINED);
    }
    let edge = Style::default().fg(bg).bg(felt);
    let fill = Style::default().bg(bg);
    (0..h)
        .map(|row| match row {
            0 => Line::styled("\u{2584}".repeat(w), edge),
            _ if row == h - 1 => Line::styled("\u{2580}".repeat(w), edge),
            _ if row == h / 2 => Line::styled(format!("{text:^w$}"), style),
            _ => Line::styled(" ".repeat(w), fill),
        })
        .collect()
}

/// Takes over the terminal (alternate screen, raw mode), or says why it cannot: ratatui's
/// `init` panicked when standard output was not a terminal (`fbd tui | tee`, a script, a
/// service), with a backtrace and the screen left switched.
fn open_terminal() -> std::io::Result<ratatui::DefaultTerminal> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return Err(std::io::Error::other(
            "standard output is not a terminal: `fbd tui` draws in one (for scripts, `fbd play` and `fbd run`)",
        ));
    }
    ratatui::try_init().map_err(|e| std::io::Error::new(e.kind(), format!("cannot take over the terminal: {e}")))
}

/// Runs the program in the terminal until `Q` and returns the runtime (with its recording, if
/// `record`). `best` is the program's best-score record: written into the program at the
/// start, saved when a game played here beats it. The terminal is restored on every exit path (ratatui's `try_init` restores it on a
/// panic too).
///
/// `notice`, when given, stands on the status line before the start hint until something else
/// is said there (the CLI's word on an import's warnings).
pub fn run(
    plan: ScanPlan,
    name: &str,
    seed: u64,
    record: bool,
    best: &mut Best,
    notice: Option<&str>,
) -> std::io::Result<Runtime> {
    let Some(io) = GameIo::find(&plan) else {
        return Err(std::io::Error::other(format!("{name} is not a 2048 program (no v11..v44, score, busy, command)")));
    };
    let cycle_ms = plan.cycle_us as f64 / 1000.0;
    let mut rt = Runtime::with_seed(plan, seed);
    rt.watch("busy", 16_384).map_err(|e| std::io::Error::other(e.to_string()))?;
    if record {
        rt.start_recording(100);
    }
    // After the recording starts, so that a replay writes it too.
    best.write_into(&mut rt);
    // Before the task starts: nothing runs without a screen to show it.
    let mut terminal = open_terminal()?;
    let runner = RealtimeRunner::start(rt, None);
    let mut front = Front::default();
    let palette = Palette::detect();
    let mut status = with_notice("Enter starts a game", notice);
    let result = (|| -> std::io::Result<()> {
        let mut last_draw = Instant::now() - Duration::from_secs(1);
        loop {
            let view = View::read(Some(&io), &runner.image());
            let p = front.pump(&runner.handle(), &view, best.saved());
            if let Some(st) = p.status {
                status = st;
            }
            if let Err(e) = best.offer(view.score, &front) {
                status = e;
            }
            if !front.in_flight()
                && let Err(e) = best.flush()
            {
                status = e;
            }
            if last_draw.elapsed() >= Duration::from_millis(33) {
                let player = front.autoplaying().then_some(front.autoplay_name.as_str());
                terminal
                    .draw(|f| draw(f, &Screen { view: &view, name, cycle_ms, player, status: &status, palette }))?;
                last_draw = Instant::now();
            }
            if event::poll(Duration::from_millis(10))? {
                match event::read()? {
                    Event::Key(k) if k.kind != KeyEventKind::Release => match key_action(k) {
                        Some(Action::Quit) => return Ok(()),
                        Some(Action::Command(c)) => {
                            if let Some(st) = command_status(c) {
                                status = st.into();
                            }
                            front.send(c);
                        }
                        Some(Action::Player(n)) => {
                            front.start_autoplay(n, 0.0, seed);
                            status = format!("{n} plays through the FBD program (Space stops)");
                        }
                        Some(Action::StopPlayer) => {
                            front.stop_autoplay();
                            status = "player stopped".into();
                        }
                        None => {}
                    },
                    // A resize redraws at once.
                    Event::Resize(..) => last_draw = Instant::now() - Duration::from_secs(1),
                    _ => {}
                }
            }
        }
    })();
    ratatui::restore();
    // A record not written yet (written at most once a second while it rises).
    if let Err(e) = best.flush() {
        eprintln!("warning: {e}");
    }
    let rt = runner.stop();
    result.map(|()| rt)
}

/// The first status line: the caller's `notice` (first: a long line is cut at the right), then
/// `first`.
pub(crate) fn with_notice(first: &str, notice: Option<&str>) -> String {
    match notice {
        Some(n) => format!("{n} · {first}"),
        None => first.to_string(),
    }
}

/// What the status line says after command `c` (the start hint stood under a running game).
fn command_status(c: Command) -> Option<&'static str> {
    match c {
        Command::Start => Some("new game: arrows or WASD move"),
        Command::Reset => Some("board cleared: Enter starts a game"),
        Command::Move(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    #[test]
    fn the_start_hint_goes_once_a_game_is_on() {
        let start = command_status(Command::Start).expect("says something");
        assert!(!start.contains("starts a game") && start.contains("move"), "{start}");
        assert!(command_status(Command::Reset).expect("says").contains("starts a game"));
        assert_eq!(command_status(Command::Move(Dir::Left)), None, "a move keeps what the game said");
    }

    /// The caller's notice (the CLI's word on an import's warnings) leads the first status line,
    /// so an 80-column terminal shows it whole: after the start hint it was cut off.
    #[test]
    fn a_notice_leads_the_first_status_line_and_fits_80_columns() {
        let status = with_notice("Enter starts a game", Some("2 import warnings, printed when you quit"));
        let view = View::default();
        let mut t = Terminal::new(TestBackend::new(80, 24)).expect("terminal");
        let screen = Screen {
            view: &view,
            name: "2048",
            cycle_ms: 5.0,
            player: None,
            status: &status,
            palette: Palette::Ansi16,
        };
        t.draw(|f| draw(f, &screen)).expect("draws");
        let text: String = t.backend().buffer().content().iter().map(|c| c.symbol()).collect();
        assert!(text.contains("2 import warnings, printed when you quit · Enter starts"), "{text}");
        assert_eq!(with_notice("hint", None), "hint", "no notice, the line as it was");
    }

    /// `view` drawn in an 80x24 terminal, in true colour.
    fn render_80x24(view: &View) -> ratatui::buffer::Buffer {
        let mut t = Terminal::new(TestBackend::new(80, 24)).expect("terminal");
        let screen =
            Screen { view, name: "2048", cycle_ms: 5.0, player: None, status: "", palette: Palette::TrueColor };
        t.draw(|f| draw(f, &screen)).expect("draws");
        t.backend().buffer().clone()
    }

    /// Two neighbouring tiles of one colour read as two: a column of the board's colour between
    /// them, and each tile's top and bottom rows are half blocks over the board (they were one
    /// bar of colour, 2 and 4 alike).
    #[test]
    fn tiles_stand_apart_on_the_board() {
        let view = View { values: [2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], ..View::default() };
        let buf = render_80x24(&view);
        let (two, _) = tile_colors(2, Palette::TrueColor);
        let felt = Palette::TrueColor.pick(BOARD_RGB, 246, Color::Black);
        // Inside the board's border (x 1.., y 1..): tile 1 from x 2, tile 2 a column after it.
        let (w, h) = tile_size(Rect::new(0, 0, 80, 23));
        let (x1, x2, mid) = (2 + w / 2, 2 + w + 1 + w / 2, 1 + h / 2);
        assert_eq!((buf[(x1, mid)].bg, buf[(x2, mid)].bg), (two, two), "both tiles, middle row");
        assert_eq!(buf[(2 + w, mid)].bg, felt, "the board between them");
        assert_eq!(
            (buf[(x1, 1)].symbol(), buf[(x1, 1)].fg, buf[(x1, 1)].bg),
            ("\u{2584}", two, felt),
            "half a row above"
        );
        assert_eq!((buf[(x1, h)].symbol(), buf[(x1, h)].fg), ("\u{2580}", two), "and below");
        let row: String = (2..2 + 2 * (w + 1)).map(|x| buf[(x, mid)].symbol()).collect();
        assert_eq!(row.split_whitespace().collect::<Vec<_>>(), ["2", "2"], "two numbers, not one bar: {row:?}");
    }

    /// The board grows with the terminal (it stayed 31x14 in a 100x32 one), and every tile
    /// value up to 2048 has a colour of its own in 256 colours (2 and 4 were one pink).
    #[test]
    fn the_board_grows_with_the_terminal_and_each_tile_has_its_colour() {
        assert_eq!(tile_size(Rect::new(0, 0, MIN_SIZE.0, MIN_SIZE.1 - 1)), (6, 3), "the smallest terminal");
        let (w80, h80) = tile_size(Rect::new(0, 0, 80, 23));
        let (w100, h100) = tile_size(Rect::new(0, 0, 100, 31));
        assert!(w100 > w80 && h100 > h80, "80x24: {w80}x{h80}, 100x32: {w100}x{h100}");
        let values = [0, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096];
        let colours: std::collections::HashSet<String> =
            values.iter().map(|&v| format!("{:?}", tile_colors(v, Palette::Ansi256).0)).collect();
        assert_eq!(colours.len(), values.len(), "one 256-colour index per tile value");
    }

    #[test]
    fn a_known_board_is_drawn_with_its_values_and_colours_in_80_by_24() {
        let view = View {
            values: [2, 4, 8, 0, 0, 2048, 0, 0, 0, 0, 64, 0, 0, 0, 0, 16],
            score: 1234,
            busy: true,
            ..View::default()
        };
        let buf = render_80x24(&view);
        let text: String = buf.content().iter().map(|c| c.symbol()).collect();
        for want in ["2048", "score 1234", "busy", "64", "16"] {
            assert!(text.contains(want), "`{want}` missing");
        }
        // The tile of 8 (row 1, column 3) has the 2048 palette's orange behind it.
        let (bg8, _) = tile_colors(8, Palette::TrueColor);
        let (w, h) = tile_size(Rect::new(0, 0, 80, 23));
        let x = 2 + 2 * (w + 1) + w / 2; // inside the third tile of the first row
        assert_eq!(buf[(x, 1 + h / 2)].bg, bg8);
        assert_eq!(bg8, Color::Rgb(0xf2, 0xb1, 0x79));
        // 256 and 16 colours fall back.
        assert!(matches!(tile_colors(8, Palette::Ansi256).0, Color::Indexed(_)));
        assert_eq!(tile_colors(8, Palette::Ansi16).0, Color::LightRed);
    }

    #[test]
    fn a_terminal_too_small_for_the_board_says_so_instead_of_drawing_over_the_borders() {
        let view = View { values: [2; 16], ..View::default() };
        let screen =
            |view| Screen { view, name: "2048", cycle_ms: 5.0, player: None, status: "", palette: Palette::Ansi16 };
        let text = |w: u16, h: u16| {
            let mut t = Terminal::new(TestBackend::new(w, h)).expect("terminal");
            t.draw(|f| draw(f, &screen(&view))).expect("draws");
            let buf = t.backend().buffer().clone();
            buf.content().iter().map(|c| c.symbol()).collect::<String>()
        };
        let small = text(40, 12);
        assert!(small.contains("The terminal is 40x12") && small.contains("53x15"), "{small}");
        assert!(!small.contains('┌'), "no board drawn");
        // The smallest that fits: the whole board, its right border intact on every row.
        let (w, h) = MIN_SIZE;
        let fits = text(w, h);
        assert_eq!(fits.matches('2').count(), 16 + 2, "16 tiles and the name");
        let rows: Vec<String> =
            fits.chars().collect::<Vec<_>>().chunks(w as usize).map(|r| r.iter().collect()).collect();
        for (y, row) in rows.iter().enumerate().take(14) {
            assert_eq!(
                row.chars().nth(30),
                Some(if y == 0 {
                    '┐'
                } else if y == 13 {
                    '┘'
                } else {
                    '│'
                }),
                "row {y}: {row}"
            );
        }
    }

    #[test]
    fn keys_map_to_commands_and_players() {
        assert_eq!(action(KeyCode::Left), Some(Action::Command(Command::Move(Dir::Left))));
        assert_eq!(action(KeyCode::Char('w')), Some(Action::Command(Command::Move(Dir::Up))));
        assert_eq!(action(KeyCode::Char('s')), Some(Action::Command(Command::Move(Dir::Down))));
        assert_eq!(action(KeyCode::Char('S')), Some(Action::Command(Command::Move(Dir::Down))));
        assert_eq!(action(KeyCode::Enter), Some(Action::Command(Command::Start)));
        assert_eq!(action(KeyCode::Char('x')), Some(Action::Player("greedy")));
        assert_eq!(action(KeyCode::Char('z')), Some(Action::Player("montecarlo")));
        assert_eq!(action(KeyCode::Char(' ')), Some(Action::StopPlayer));
        assert_eq!(action(KeyCode::Char('q')), Some(Action::Quit));
        assert_eq!(action(KeyCode::Char('k')), None);
        let chord = |c: char, m: KeyModifiers| key_action(KeyEvent::new(KeyCode::Char(c), m));
        assert_eq!(chord('c', KeyModifiers::CONTROL), Some(Action::Quit), "Ctrl+C quits");
        assert_eq!(chord('d', KeyModifiers::CONTROL), Some(Action::Quit), "Ctrl+D quits");
        assert_eq!(chord('r', KeyModifiers::CONTROL), None, "Ctrl+R is not Reset");
        assert_eq!(chord('a', KeyModifiers::ALT), None, "Alt+A is not a move");
        assert_eq!(chord('S', KeyModifiers::SHIFT), action(KeyCode::Char('s')), "Shift+S is s: Down");
        assert_eq!(key_action(KeyEvent::new(KeyCode::Left, KeyModifiers::NONE)), action(KeyCode::Left));
    }
}
