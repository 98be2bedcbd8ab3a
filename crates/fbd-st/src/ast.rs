//! The syntax tree of an ST body: statements and expressions, each with the place it starts
//! at in the text (1-based line and column, counted in characters).

use fbd_model::{Type, Value};

/// A place in the ST text: 1-based line and column (characters).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1, in characters.
    pub col: u32,
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// A binary operator, in IEC 61131-3's spelling.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BinOp {
    Or,
    Xor,
    And,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
}

impl BinOp {
    /// The standard function the operator is (`+` is ADD, `<=` is LE, `**` is EXPT).
    pub fn function(self) -> &'static str {
        match self {
            BinOp::Or => "OR",
            BinOp::Xor => "XOR",
            BinOp::And => "AND",
            BinOp::Eq => "EQ",
            BinOp::Ne => "NE",
            BinOp::Lt => "LT",
            BinOp::Gt => "GT",
            BinOp::Le => "LE",
            BinOp::Ge => "GE",
            BinOp::Add => "ADD",
            BinOp::Sub => "SUB",
            BinOp::Mul => "MUL",
            BinOp::Div => "DIV",
            BinOp::Mod => "MOD",
            BinOp::Pow => "EXPT",
        }
    }

    /// How it is written in ST.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "OR",
            BinOp::Xor => "XOR",
            BinOp::And => "AND",
            BinOp::Eq => "=",
            BinOp::Ne => "<>",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "MOD",
            BinOp::Pow => "**",
        }
    }
}

/// A unary operator.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-x`.
    Neg,
    /// `NOT x`.
    Not,
}

/// An expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A literal (`42`, `INT#5`, `T#1s`, `'text'`, `TRUE`).
    Lit {
        /// Its value.
        value: Value,
        /// The type it names (`INT#5`, `T#1s`); an untyped one takes the type its use gives it.
        ty: Option<Type>,
        /// Where it starts.
        pos: Pos,
    },
    /// A variable, or a member of an instance or structure: `a`, `ton1.Q`.
    Name(Path),
    /// `-x`, `NOT x`.
    Unary(UnOp, Box<Expr>, Pos),
    /// `a op b` (the place is the operator's).
    Binary(BinOp, Box<Expr>, Box<Expr>, Pos),
    /// A function call `LIMIT(0, x, 10)`, `SEL(G := c, IN0 := a, IN1 := b)`.
    Call(Call),
}

impl Expr {
    /// Where the expression starts (a binary one: its left operand).
    pub fn pos(&self) -> Pos {
        match self {
            Expr::Lit { pos, .. } => *pos,
            Expr::Name(p) => p.pos,
            Expr::Unary(_, _, pos) => *pos,
            Expr::Binary(_, a, _, _) => a.pos(),
            Expr::Call(c) => c.pos,
        }
    }
}

/// A name with its members: `a`, `ton1.Q`, `arr[i]`, `grid[i, j]` (`grid[i][j]` the same).
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    /// The parts, as written (`ton1`, `Q`).
    pub parts: Vec<String>,
    /// Whether an index `[..]` follows a part.
    pub indexed: bool,
    /// The indices right after the first part (`arr[i, j]`: `i`, `j`).
    pub subscripts: Vec<Expr>,
    /// Whether an index follows a later part (`s.arr[i]`, `arr[i].x`): not compiled yet.
    pub index_after_member: bool,
    /// Where it starts.
    pub pos: Pos,
}

impl Path {
    /// The path as text, `ton1.Q`.
    pub fn text(&self) -> String {
        self.parts.join(".")
    }
}

/// A call of a function or function block with its arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The function's or instance's name, as written.
    pub name: String,
    /// The arguments in the order written.
    pub args: Vec<Arg>,
    /// Where the name starts.
    pub pos: Pos,
}

/// One argument of a call.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// `x` (positional) or `IN := x` (formal).
    In {
        /// The parameter named (`IN`), none when positional.
        name: Option<String>,
        /// The value.
        value: Expr,
        /// Where the argument starts.
        pos: Pos,
    },
    /// `Q => y` (`NOT Q => y`: the output negated): the output stored into a variable.
    Out {
        /// The output's name.
        name: String,
        /// Whether `NOT` precedes it.
        negated: bool,
        /// Where it goes.
        target: Path,
        /// Where the argument starts.
        pos: Pos,
    },
}

/// A label of a CASE arm.
#[derive(Clone, Debug, PartialEq)]
pub enum CaseLabel {
    /// One value.
    Value(Expr),
    /// `lo..hi`, both included.
    Range(Expr, Expr),
}

/// An arm of a CASE.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseArm {
    /// Its labels.
    pub labels: Vec<CaseLabel>,
    /// Its statements.
    pub body: Vec<Stmt>,
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `target := value;`
    Assign {
        /// What is written.
        target: Path,
        /// The value.
        value: Expr,
        /// Where the statement starts.
        pos: Pos,
    },
    /// `inst(args);`: a function block called (or a function whose result is dropped).
    Call(Call),
    /// `IF c THEN .. ELSIF c2 THEN .. ELSE .. END_IF;`
    If {
        /// Each condition with its statements, in order.
        arms: Vec<(Expr, Vec<Stmt>)>,
        /// The ELSE part.
        otherwise: Vec<Stmt>,
        /// Where the statement starts.
        pos: Pos,
    },
    /// `CASE sel OF 1, 2: .. 3..5: .. ELSE .. END_CASE;`
    Case {
        /// The selector.
        selector: Expr,
        /// The arms in order.
        arms: Vec<CaseArm>,
        /// The ELSE part.
        otherwise: Vec<Stmt>,
        /// Where the statement starts.
        pos: Pos,
    },
    /// `FOR i := a TO b BY s DO .. END_FOR;`
    For(Box<ForLoop>),
    /// `WHILE c DO .. END_WHILE;`
    While {
        /// The condition.
        cond: Expr,
        /// The statements.
        body: Vec<Stmt>,
        /// Where the statement starts.
        pos: Pos,
    },
    /// `REPEAT .. UNTIL c END_REPEAT;`
    Repeat {
        /// The statements.
        body: Vec<Stmt>,
        /// The condition that ends it.
        until: Expr,
        /// Where the statement starts.
        pos: Pos,
    },
    /// `EXIT;`
    Exit(Pos),
    /// `RETURN;`
    Return(Pos),
}

impl Stmt {
    /// Where the statement starts.
    pub fn pos(&self) -> Pos {
        match self {
            Stmt::Assign { pos, .. }
            | Stmt::If { pos, .. }
            | Stmt::Case { pos, .. }
            | Stmt::While { pos, .. }
            | Stmt::Repeat { pos, .. } => *pos,
            Stmt::Call(c) => c.pos,
            Stmt::For(f) => f.pos,
            Stmt::Exit(p) | Stmt::Return(p) => *p,
        }
    }

    /// The statement lists directly inside this statement, in order: an IF's branches and its
    /// ELSE, a CASE's arms and its ELSE, a loop's body (none for the others). What a walk over
    /// nested statements descends into.
    pub fn bodies(&self) -> Vec<&[Stmt]> {
        match self {
            Stmt::If { arms, otherwise, .. } => {
                arms.iter().map(|(_, b)| b.as_slice()).chain([otherwise.as_slice()]).collect()
            }
            Stmt::Case { arms, otherwise, .. } => {
                arms.iter().map(|a| a.body.as_slice()).chain([otherwise.as_slice()]).collect()
            }
            Stmt::For(f) => vec![f.body.as_slice()],
            Stmt::While { body, .. } | Stmt::Repeat { body, .. } => vec![body.as_slice()],
            Stmt::Assign { .. } | Stmt::Call(_) | Stmt::Exit(_) | Stmt::Return(_) => Vec::new(),
        }
    }

    /// Whether the statement is a loop (FOR, WHILE, REPEAT): what an EXIT inside it leaves.
    pub fn is_loop(&self) -> bool {
        matches!(self, Stmt::For(_) | Stmt::While { .. } | Stmt::Repeat { .. })
    }
}

/// A FOR loop.
#[derive(Clone, Debug, PartialEq)]
pub struct ForLoop {
    /// The control variable.
    pub var: Path,
    /// First value.
    pub from: Expr,
    /// Last value.
    pub to: Expr,
    /// Step (default 1).
    pub by: Option<Expr>,
    /// The statements.
    pub body: Vec<Stmt>,
    /// Where the statement starts.
    pub pos: Pos,
}
