//! ref2048: the rules of 2048 as the original game (gabrielecirulli/2048) plays them, on a
//! bitboard.
//!
//! A [`Board`] is a `u64`: 16 cells of 4 bits, each the exponent of the tile (0 = empty,
//! 1 = 2, 2 = 4, ... 15 = 32768; 16 would not fit and a merge of two 32768s saturates at 15,
//! which no real game reaches). Cell `(r, c)` (row, column, both 0-based from the top left) is
//! nibble `4 * (4 * r + c)`. A move looks each row up in a 65,536-entry table, so a move costs
//! four table lookups (plus a transpose for up and down).
//!
//! Rules: a new game places two tiles; after every move that changed something one tile spawns
//! in a uniformly chosen empty cell, 2 with probability 0.9 and 4 with 0.1; a move that changes
//! nothing is not a move; each tile merges at most once per move and the pair nearest the wall
//! merges first; the score grows by the value of each merged tile; game over when no cell is
//! empty and no two orthogonal neighbours are equal.

use rand::Rng;

pub mod workload;

/// A 4x4 board: 16 nibbles of tile exponents.
pub type Board = u64;

/// A move direction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Toward row 0.
    Up,
    /// Toward column 3.
    Right,
    /// Toward row 3.
    Down,
    /// Toward column 0.
    Left,
}

impl Dir {
    /// All four, in the selector's order (1 up, 2 right, 3 down, 4 left).
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Right, Dir::Down, Dir::Left];

    /// Parses `U`, `R`, `D`, `L` (either case).
    pub fn from_char(c: char) -> Option<Dir> {
        match c.to_ascii_uppercase() {
            'U' => Some(Dir::Up),
            'R' => Some(Dir::Right),
            'D' => Some(Dir::Down),
            'L' => Some(Dir::Left),
            _ => None,
        }
    }

    /// The letter of the direction.
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Right => 'R',
            Dir::Down => 'D',
            Dir::Left => 'L',
        }
    }
}

// The move tables, built at compile time (so a move reads a static array: no lazy
// initialisation check, no pointer to load, no bounds check: a `u16` index always fits).
// `row ^ moved(row)`, so a move XORs them into the board. Rows moved left or right keep 16-bit
// entries (128 kB each, as nneonneo's 2048-ai does: on random boards the lookups miss the
// cache, and smaller tables miss less); columns are spread to nibbles 0, 16, 32, 48, so a row
// of the transposed board moves a column without transposing back.

/// The rule on one packed row, toward cell 0: the moved row and the score it gains. The same
/// rule as [`slide_left`] (a test compares them on all 65,536 rows), in a `const fn`.
const fn slide_row(row: u16) -> (u16, u32) {
    let mut tiles = [0u8; 4];
    let mut n = 0;
    let mut i = 0;
    while i < 4 {
        let c = ((row >> (4 * i)) & 15) as u8;
        if c != 0 {
            tiles[n] = c;
            n += 1;
        }
        i += 1;
    }
    let (mut out, mut gain, mut k) = (0u16, 0u32, 0);
    i = 0;
    while i < n {
        let mut e = tiles[i];
        if i + 1 < n && tiles[i] == tiles[i + 1] {
            e = if e >= 15 { 15 } else { e + 1 };
            gain += 1u32 << e;
            i += 2;
        } else {
            i += 1;
        }
        out |= (e as u16) << (4 * k);
        k += 1;
    }
    (out, gain)
}

const fn reverse_row(r: u16) -> u16 {
    (r >> 12) | ((r >> 4) & 0x00F0) | ((r << 4) & 0x0F00) | (r << 12)
}

const fn spread(row: u16) -> u64 {
    let r = row as u64;
    (r & 0xF) | ((r >> 4) & 0xF) << 16 | ((r >> 8) & 0xF) << 32 | ((r >> 12) & 0xF) << 48
}

/// `row ^ moved(row)` for every row, moved toward cell 0 (`right == false`) or cell 3.
const fn row_table(right: bool) -> [u16; 65536] {
    let mut t = [0u16; 65536];
    let mut r = 0;
    while r < 65536 {
        let row = r as u16;
        t[r] = if right { row ^ reverse_row(slide_row(reverse_row(row)).0) } else { row ^ slide_row(row).0 };
        r += 1;
    }
    t
}

/// A row table spread to columns.
const fn col_table(rows: &[u16; 65536]) -> [u64; 65536] {
    let mut t = [0u64; 65536];
    let mut r = 0;
    while r < 65536 {
        t[r] = spread(rows[r]);
        r += 1;
    }
    t
}

const fn score_table() -> [u32; 65536] {
    let mut t = [0u32; 65536];
    let mut r = 0;
    while r < 65536 {
        t[r] = slide_row(r as u16).1;
        r += 1;
    }
    t
}

// (Each row is slid once per direction at compile time; the column tables reuse the rows.)
static LEFT: [u16; 65536] = row_table(false);
static RIGHT: [u16; 65536] = row_table(true);
static UP: [u64; 65536] = col_table(&LEFT);
static DOWN: [u64; 65536] = col_table(&RIGHT);
/// Score gained by moving the row (the same either way).
static SCORE: [u32; 65536] = score_table();

/// The rule on one line of exponents, toward index 0: close the gaps, then merge equal
/// neighbours from index 0 on, each tile at most once. Returns the line and the score.
pub fn slide_left(cells: [u8; 4]) -> ([u8; 4], u32) {
    let tiles: Vec<u8> = cells.iter().copied().filter(|&c| c != 0).collect();
    let mut out = [0u8; 4];
    let mut gain = 0u32;
    let (mut i, mut k) = (0, 0);
    while i < tiles.len() {
        if i + 1 < tiles.len() && tiles[i] == tiles[i + 1] {
            let e = (tiles[i] + 1).min(15);
            out[k] = e;
            gain += 1u32 << e;
            i += 2;
        } else {
            out[k] = tiles[i];
            i += 1;
        }
        k += 1;
    }
    (out, gain)
}

/// The exponent of cell `i` (0..16, row-major).
#[inline]
pub fn cell(b: Board, i: usize) -> u8 {
    ((b >> (4 * i)) & 15) as u8
}

/// Sets the exponent of cell `i`.
#[inline]
pub fn with_cell(b: Board, i: usize, e: u8) -> Board {
    (b & !(15u64 << (4 * i))) | ((e as u64 & 15) << (4 * i))
}

/// The board from 16 tile values (0 or a power of two from 2 to 32768), row-major.
/// Returns `None` if a value is not a tile.
pub fn from_values(v: &[u32; 16]) -> Option<Board> {
    let mut b = 0;
    for (i, &x) in v.iter().enumerate() {
        let e = match x {
            0 => 0,
            x if x.is_power_of_two() && (2..=32768).contains(&x) => x.trailing_zeros() as u8,
            _ => return None,
        };
        b = with_cell(b, i, e);
    }
    Some(b)
}

/// The 16 tile values, row-major.
pub fn to_values(b: Board) -> [u32; 16] {
    std::array::from_fn(|i| match cell(b, i) {
        0 => 0,
        e => 1u32 << e,
    })
}

/// Swaps rows and columns.
#[inline]
pub fn transpose(x: Board) -> Board {
    let a1 = x & 0xF0F0_0F0F_F0F0_0F0F;
    let a2 = x & 0x0000_F0F0_0000_F0F0;
    let a3 = x & 0x0F0F_0000_0F0F_0000;
    let a = a1 | (a2 << 12) | (a3 >> 12);
    let b1 = a & 0xFF00_FF00_00FF_00FF;
    let b2 = a & 0x00FF_00FF_0000_0000;
    let b3 = a & 0x0000_0000_FF00_FF00;
    b1 | (b2 >> 24) | (b3 << 24)
}

#[inline(always)]
fn row(x: Board, k: u32) -> usize {
    ((x >> (16 * k)) & 0xFFFF) as usize
}

/// Moves the four rows of `x` with a row table.
#[inline(always)]
fn rows(table: &[u16; 65536], x: Board) -> Board {
    x ^ table[row(x, 0)] as u64
        ^ (table[row(x, 1)] as u64) << 16
        ^ (table[row(x, 2)] as u64) << 32
        ^ (table[row(x, 3)] as u64) << 48
}

/// Moves the four columns of `b`, whose rows in the transpose are `lines`, with a column table.
#[inline(always)]
fn cols(table: &[u64; 65536], b: Board, lines: Board) -> Board {
    b ^ table[row(lines, 0)] ^ table[row(lines, 1)] << 4 ^ table[row(lines, 2)] << 8 ^ table[row(lines, 3)] << 12
}

/// Applies a move: the new board only (the fast path for search).
#[inline]
pub fn move_board(b: Board, d: Dir) -> Board {
    match d {
        Dir::Left => rows(&LEFT, b),
        Dir::Right => rows(&RIGHT, b),
        Dir::Up => cols(&UP, b, transpose(b)),
        Dir::Down => cols(&DOWN, b, transpose(b)),
    }
}

/// Applies a move: the new board and the score it gains. The board is unchanged (and the gain
/// 0) when nothing can move that way.
#[inline]
pub fn make_move(b: Board, d: Dir) -> (Board, u32) {
    let lines = if matches!(d, Dir::Up | Dir::Down) { transpose(b) } else { b };
    let gain = SCORE[row(lines, 0)] + SCORE[row(lines, 1)] + SCORE[row(lines, 2)] + SCORE[row(lines, 3)];
    (move_board(b, d), gain)
}

/// Number of empty cells.
pub fn count_empty(b: Board) -> u32 {
    (0..16).filter(|&i| cell(b, i) == 0).count() as u32
}

/// The largest tile value on the board (0 when empty).
pub fn max_tile(b: Board) -> u32 {
    (0..16).map(|i| cell(b, i)).max().map(|e| if e == 0 { 0 } else { 1 << e }).unwrap_or(0)
}

/// Whether no move changes the board.
pub fn is_game_over(b: Board) -> bool {
    Dir::ALL.iter().all(|&d| make_move(b, d).0 == b)
}

/// Whether a 2048 tile (or larger) is on the board.
pub fn is_win(b: Board) -> bool {
    (0..16).any(|i| cell(b, i) >= 11)
}

/// Spawns one tile in a uniformly chosen empty cell: 2 with probability 0.9, 4 with 0.1.
/// A full board is returned unchanged.
pub fn spawn(b: Board, rng: &mut impl Rng) -> Board {
    let n = count_empty(b);
    if n == 0 {
        return b;
    }
    let mut k = (rng.next_u64() % n as u64) as u32;
    let e = if rng.next_u64().is_multiple_of(10) { 2 } else { 1 };
    for i in 0..16 {
        if cell(b, i) == 0 {
            if k == 0 {
                return with_cell(b, i, e);
            }
            k -= 1;
        }
    }
    b
}

/// A new game: two tiles on an empty board.
pub fn new_game(rng: &mut impl Rng) -> Board {
    spawn(spawn(0, rng), rng)
}

/// Whether `after` is `before` plus exactly one spawned tile (2 or 4) in an empty cell.
pub fn is_one_spawn(before: Board, after: Board) -> bool {
    let mut added = 0;
    for i in 0..16 {
        let (x, y) = (cell(before, i), cell(after, i));
        if x != y {
            if x != 0 || !(y == 1 || y == 2) {
                return false;
            }
            added += 1;
        }
    }
    added == 1
}

/// A game in progress: board, score, and the seeded random stream of the spawns.
#[derive(Clone, Debug)]
pub struct Game {
    /// The board.
    pub board: Board,
    /// The score.
    pub score: u64,
    /// Moves made (that changed the board).
    pub moves: u64,
    rng: rand_chacha::ChaCha8Rng,
}

impl Game {
    /// A new game whose spawns follow `seed`.
    pub fn new(seed: u64) -> Game {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let board = new_game(&mut rng);
        Game { board, score: 0, moves: 0, rng }
    }

    /// Plays a move; returns whether it was a move (something changed).
    pub fn play(&mut self, d: Dir) -> bool {
        let (b, g) = make_move(self.board, d);
        if b == self.board {
            return false;
        }
        self.board = spawn(b, &mut self.rng);
        self.score += g as u64;
        self.moves += 1;
        true
    }

    /// Whether the game is over.
    pub fn over(&self) -> bool {
        is_game_over(self.board)
    }
}

/// Renders a board as four lines of values.
pub fn render(b: Board) -> String {
    let v = to_values(b);
    let mut s = String::new();
    for r in 0..4 {
        let row: Vec<String> = (0..4).map(|c| format!("{:>6}", v[4 * r + c])).collect();
        s.push_str(&row.join(""));
        s.push('\n');
    }
    s
}
