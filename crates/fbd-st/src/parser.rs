//! Tokens to statements: recursive descent with IEC 61131-3's precedence (as matiec's grammar
//! writes it: a unary `-` or `NOT` binds its operand before `**`). A statement that does not
//! parse is reported and skipped to its `;` (or to the keyword closing its block), so one
//! parse finds every error.

use crate::Error;
use crate::ast::*;
use crate::lexer::Tok;

/// The keywords that close a statement list.
const CLOSERS: &[&str] = &["END_IF", "ELSIF", "ELSE", "END_CASE", "END_FOR", "END_WHILE", "UNTIL", "END_REPEAT"];

pub(crate) struct Parser {
    toks: Vec<(Tok, Pos)>,
    k: usize,
    pub(crate) errors: Vec<Error>,
    /// Nesting of statements and expressions: a text nested deeper is refused, not a stack
    /// overflow.
    depth: u32,
}

/// How deep statements and expressions may nest.
const MAX_DEPTH: u32 = 100;

/// Whether statements are being read inside a CASE arm (a label ends them).
#[derive(Copy, Clone, PartialEq)]
enum In {
    Block,
    CaseArm,
}

impl Parser {
    pub(crate) fn new(toks: Vec<(Tok, Pos)>, errors: Vec<Error>) -> Parser {
        Parser { toks, k: 0, errors, depth: 0 }
    }

    fn tok(&self) -> &Tok {
        &self.toks[self.k.min(self.toks.len() - 1)].0
    }

    fn ahead(&self, n: usize) -> &Tok {
        &self.toks[(self.k + n).min(self.toks.len() - 1)].0
    }

    fn pos(&self) -> Pos {
        self.toks[self.k.min(self.toks.len() - 1)].1
    }

    fn next(&mut self) -> Tok {
        let t = self.tok().clone();
        if self.k < self.toks.len() - 1 {
            self.k += 1;
        }
        t
    }

    fn is_kw(&self, k: &str) -> bool {
        matches!(self.tok(), Tok::Kw(w) if *w == k)
    }

    fn is_sym(&self, s: &str) -> bool {
        matches!(self.tok(), Tok::Sym(w) if *w == s)
    }

    fn eat_kw(&mut self, k: &str) -> bool {
        let yes = self.is_kw(k);
        if yes {
            self.next();
        }
        yes
    }

    fn eat_sym(&mut self, s: &str) -> bool {
        let yes = self.is_sym(s);
        if yes {
            self.next();
        }
        yes
    }

    /// Records "expected `what`, found ..." at the current token.
    fn expected(&mut self, what: &str) {
        let found = match self.tok() {
            Tok::Pragma => "a pragma `{..}` (Beremiz's inline C, which only Beremiz's C runtime can run)".to_string(),
            t => t.describe(),
        };
        let pos = self.pos();
        self.errors.push(Error { pos, msg: format!("expected {what}, found {found}") });
    }

    fn expect_kw(&mut self, k: &str) -> Option<()> {
        if self.eat_kw(k) {
            Some(())
        } else {
            self.expected(&format!("`{k}`"));
            None
        }
    }

    fn expect_sym(&mut self, s: &str) -> Option<()> {
        if self.eat_sym(s) {
            Some(())
        } else {
            self.expected(&format!("`{s}`"));
            None
        }
    }

    fn ident(&mut self, what: &str) -> Option<String> {
        match self.tok().clone() {
            Tok::Ident(s) => {
                self.next();
                Some(s)
            }
            _ => {
                self.expected(what);
                None
            }
        }
    }

    /// Skips a statement that did not parse: to just past its `;`, or to the keyword that
    /// closes the block it is in.
    fn recover(&mut self) {
        loop {
            match self.tok() {
                Tok::End => return,
                Tok::Sym(";") => {
                    self.next();
                    return;
                }
                Tok::Kw(k) if CLOSERS.contains(k) => return,
                _ => {
                    self.next();
                }
            }
        }
    }

    /// Statements up to the end of the text.
    pub(crate) fn body(&mut self) -> Vec<Stmt> {
        let mut out = Vec::new();
        loop {
            out.extend(self.statements(In::Block));
            match self.tok() {
                Tok::End => return out,
                _ => {
                    self.expected("a statement");
                    self.next();
                    self.recover();
                }
            }
        }
    }

    /// Statements until a closing keyword (or, in a CASE arm, the next label).
    fn statements(&mut self, within: In) -> Vec<Stmt> {
        let mut out = Vec::new();
        loop {
            match self.tok() {
                Tok::End => return out,
                Tok::Kw(k) if CLOSERS.contains(k) => return out,
                Tok::Sym(";") => {
                    self.next();
                    continue;
                }
                // Refused where it stands; the statements around it are read on.
                Tok::Pragma => {
                    self.expected("a statement");
                    self.next();
                    continue;
                }
                _ if within == In::CaseArm && self.at_case_label() => return out,
                _ => {}
            }
            let start = self.k;
            match self.statement() {
                Some(s) => out.push(s),
                None => {
                    self.recover();
                    if self.k == start {
                        // Nothing was consumed (a closer of another block): go on after it.
                        self.next();
                    }
                }
            }
        }
    }

    /// Whether the tokens here begin a CASE label: a literal, a signed one, or a name followed
    /// by `,`, `:` or `..`.
    fn at_case_label(&self) -> bool {
        match self.tok() {
            Tok::Lit(..) => true,
            Tok::Sym("-") => matches!(self.ahead(1), Tok::Lit(..)),
            Tok::Ident(_) => matches!(self.ahead(1), Tok::Sym(",") | Tok::Sym(":") | Tok::Sym("..")),
            _ => false,
        }
    }

    fn statement(&mut self) -> Option<Stmt> {
        if self.depth >= MAX_DEPTH {
            let pos = self.pos();
            self.errors.push(Error { pos, msg: format!("statements nested more than {MAX_DEPTH} deep") });
            return None;
        }
        self.depth += 1;
        let s = self.statement_inner();
        self.depth -= 1;
        s
    }

    fn statement_inner(&mut self) -> Option<Stmt> {
        let pos = self.pos();
        let s = match self.tok().clone() {
            Tok::Kw("IF") => self.if_statement(pos)?,
            Tok::Kw("CASE") => self.case_statement(pos)?,
            Tok::Kw("FOR") => self.for_statement(pos)?,
            Tok::Kw("WHILE") => {
                self.next();
                let cond = self.expr()?;
                self.expect_kw("DO")?;
                let body = self.statements(In::Block);
                self.expect_kw("END_WHILE")?;
                Stmt::While { cond, body, pos }
            }
            Tok::Kw("REPEAT") => {
                self.next();
                let body = self.statements(In::Block);
                self.expect_kw("UNTIL")?;
                let until = self.expr()?;
                self.expect_kw("END_REPEAT")?;
                Stmt::Repeat { body, until, pos }
            }
            Tok::Kw("EXIT") => {
                self.next();
                Stmt::Exit(pos)
            }
            Tok::Kw("RETURN") => {
                self.next();
                Stmt::Return(pos)
            }
            Tok::Ident(_) => {
                let target = self.path()?;
                if self.is_sym("(") && target.parts.len() == 1 && !target.indexed {
                    let args = self.args()?;
                    Stmt::Call(Call { name: target.parts[0].clone(), args, pos })
                } else if self.eat_sym(":=") {
                    let value = self.expr()?;
                    Stmt::Assign { target, value, pos }
                } else {
                    self.expected("`:=` or a call's `(`");
                    return None;
                }
            }
            _ => {
                self.expected("a statement (an assignment, a call, IF, CASE, FOR, WHILE, REPEAT, EXIT or RETURN)");
                return None;
            }
        };
        if !self.eat_sym(";") {
            self.expected("`;`");
            // A `;` forgotten at the end of a line: the next line is the next statement.
            let prev_line = self.toks[self.k.saturating_sub(1)].1.line;
            return (self.k > 0 && self.pos().line > prev_line).then_some(s);
        }
        Some(s)
    }

    fn if_statement(&mut self, pos: Pos) -> Option<Stmt> {
        self.next();
        let mut arms = Vec::new();
        let cond = self.expr()?;
        self.expect_kw("THEN")?;
        arms.push((cond, self.statements(In::Block)));
        let mut otherwise = Vec::new();
        loop {
            if self.eat_kw("ELSIF") {
                let cond = self.expr()?;
                self.expect_kw("THEN")?;
                arms.push((cond, self.statements(In::Block)));
            } else if self.eat_kw("ELSE") {
                otherwise = self.statements(In::Block);
                self.expect_kw("END_IF")?;
                break;
            } else {
                self.expect_kw("END_IF")?;
                break;
            }
        }
        Some(Stmt::If { arms, otherwise, pos })
    }

    fn case_statement(&mut self, pos: Pos) -> Option<Stmt> {
        self.next();
        let selector = self.expr()?;
        self.expect_kw("OF")?;
        let mut arms = Vec::new();
        let mut otherwise = Vec::new();
        loop {
            if self.eat_kw("ELSE") {
                otherwise = self.statements(In::Block);
                self.expect_kw("END_CASE")?;
                break;
            }
            if self.eat_kw("END_CASE") {
                break;
            }
            if !self.at_case_label() {
                self.expected("a CASE label (`1:`, `2, 3:`, `4..6:`), ELSE or END_CASE");
                return None;
            }
            let mut labels = Vec::new();
            loop {
                let a = self.expr_above_compare()?;
                if self.eat_sym("..") {
                    let b = self.expr_above_compare()?;
                    labels.push(CaseLabel::Range(a, b));
                } else {
                    labels.push(CaseLabel::Value(a));
                }
                if !self.eat_sym(",") {
                    break;
                }
            }
            self.expect_sym(":")?;
            let body = self.statements(In::CaseArm);
            arms.push(CaseArm { labels, body });
        }
        Some(Stmt::Case { selector, arms, otherwise, pos })
    }

    fn for_statement(&mut self, pos: Pos) -> Option<Stmt> {
        self.next();
        let var = self.path()?;
        self.expect_sym(":=")?;
        let from = self.expr()?;
        self.expect_kw("TO")?;
        let to = self.expr()?;
        let by = if self.eat_kw("BY") { Some(self.expr()?) } else { None };
        self.expect_kw("DO")?;
        let body = self.statements(In::Block);
        self.expect_kw("END_FOR")?;
        Some(Stmt::For(Box::new(ForLoop { var, from, to, by, body, pos })))
    }

    /// `a`, `a.b.c`, `a[i].b` (an index parsed and marked).
    fn path(&mut self) -> Option<Path> {
        let pos = self.pos();
        let mut parts = vec![self.ident("a name")?];
        let mut indexed = false;
        let mut subscripts = Vec::new();
        let mut index_after_member = false;
        loop {
            if self.eat_sym(".") {
                parts.push(self.ident("a member name after `.`")?);
            } else if self.eat_sym("[") {
                indexed = true;
                index_after_member |= parts.len() > 1;
                loop {
                    let e = self.expr()?;
                    if parts.len() == 1 {
                        subscripts.push(e);
                    }
                    if !self.eat_sym(",") {
                        break;
                    }
                }
                self.expect_sym("]")?;
            } else {
                return Some(Path { parts, indexed, subscripts, index_after_member, pos });
            }
        }
    }

    /// `( args )` of a call.
    fn args(&mut self) -> Option<Vec<Arg>> {
        self.expect_sym("(")?;
        let mut args = Vec::new();
        if self.eat_sym(")") {
            return Some(args);
        }
        loop {
            let pos = self.pos();
            let formal_in = matches!(self.tok(), Tok::Ident(_)) && matches!(self.ahead(1), Tok::Sym(":="));
            let out = matches!(self.tok(), Tok::Ident(_)) && matches!(self.ahead(1), Tok::Sym("=>"))
                || self.is_kw("NOT")
                    && matches!(self.ahead(1), Tok::Ident(_))
                    && matches!(self.ahead(2), Tok::Sym("=>"));
            if out {
                let negated = self.eat_kw("NOT");
                let name = self.ident("an output name")?;
                self.next(); // =>
                let target = self.path()?;
                args.push(Arg::Out { name, negated, target, pos });
            } else if formal_in {
                let name = self.ident("a parameter name")?;
                self.next(); // :=
                let value = self.expr()?;
                args.push(Arg::In { name: Some(name), value, pos });
            } else {
                let value = self.expr()?;
                args.push(Arg::In { name: None, value, pos });
            }
            if self.eat_sym(")") {
                return Some(args);
            }
            if !self.eat_sym(",") {
                self.expected("`,` or `)`");
                return None;
            }
        }
    }

    /// An expression.
    pub(crate) fn expr(&mut self) -> Option<Expr> {
        if self.depth >= MAX_DEPTH {
            let pos = self.pos();
            self.errors.push(Error { pos, msg: format!("an expression nested more than {MAX_DEPTH} deep") });
            return None;
        }
        self.depth += 1;
        let e = self.binary(0);
        self.depth -= 1;
        e
    }

    /// A CASE label's operand: no comparison or logic (a `:` or `..` follows it).
    fn expr_above_compare(&mut self) -> Option<Expr> {
        self.binary(5)
    }

    /// The operator at the current token at precedence `level` (0 OR .. 6 `**`).
    fn op_at(&self, level: u8) -> Option<BinOp> {
        let t = self.tok();
        Some(match (level, t) {
            (0, Tok::Kw("OR")) => BinOp::Or,
            (1, Tok::Kw("XOR")) => BinOp::Xor,
            (2, Tok::Kw("AND")) | (2, Tok::Sym("&")) => BinOp::And,
            (3, Tok::Sym("=")) => BinOp::Eq,
            (3, Tok::Sym("<>")) => BinOp::Ne,
            (4, Tok::Sym("<")) => BinOp::Lt,
            (4, Tok::Sym(">")) => BinOp::Gt,
            (4, Tok::Sym("<=")) => BinOp::Le,
            (4, Tok::Sym(">=")) => BinOp::Ge,
            (5, Tok::Sym("+")) => BinOp::Add,
            (5, Tok::Sym("-")) => BinOp::Sub,
            (6, Tok::Sym("*")) => BinOp::Mul,
            (6, Tok::Sym("/")) => BinOp::Div,
            (6, Tok::Kw("MOD")) => BinOp::Mod,
            (7, Tok::Sym("**")) => BinOp::Pow,
            _ => return None,
        })
    }

    /// Left-associative operators from precedence `level` up.
    fn binary(&mut self, level: u8) -> Option<Expr> {
        if level > 7 {
            return self.unary();
        }
        let mut left = self.binary(level + 1)?;
        while let Some(op) = self.op_at(level) {
            let pos = self.pos();
            self.next();
            let right = self.binary(level + 1)?;
            left = Expr::Binary(op, Box::new(left), Box::new(right), pos);
        }
        Some(left)
    }

    fn unary(&mut self) -> Option<Expr> {
        if self.depth >= MAX_DEPTH {
            let pos = self.pos();
            self.errors.push(Error { pos, msg: format!("an expression nested more than {MAX_DEPTH} deep") });
            return None;
        }
        self.depth += 1;
        let e = self.unary_inner();
        self.depth -= 1;
        e
    }

    fn unary_inner(&mut self) -> Option<Expr> {
        let pos = self.pos();
        if self.eat_sym("-") {
            let e = self.unary()?;
            return Some(Expr::Unary(UnOp::Neg, Box::new(e), pos));
        }
        if self.eat_sym("+") {
            return self.unary();
        }
        if self.eat_kw("NOT") {
            let e = self.unary()?;
            return Some(Expr::Unary(UnOp::Not, Box::new(e), pos));
        }
        self.primary()
    }

    fn primary(&mut self) -> Option<Expr> {
        let pos = self.pos();
        match self.tok().clone() {
            Tok::Lit(value, ty) => {
                self.next();
                Some(Expr::Lit { value, ty, pos })
            }
            Tok::Sym("(") => {
                self.next();
                let e = self.expr()?;
                self.expect_sym(")")?;
                Some(e)
            }
            Tok::Ident(name) => {
                if matches!(self.ahead(1), Tok::Sym("(")) {
                    self.next();
                    let args = self.args()?;
                    return Some(Expr::Call(Call { name, args, pos }));
                }
                Some(Expr::Name(self.path()?))
            }
            // Operators spelled as keywords are also functions: `AND(a, b)`, `MOD(a, 3)`.
            Tok::Kw(k @ ("AND" | "OR" | "XOR" | "NOT" | "MOD")) if matches!(self.ahead(1), Tok::Sym("(")) => {
                self.next();
                let args = self.args()?;
                Some(Expr::Call(Call { name: k.to_string(), args, pos }))
            }
            _ => {
                self.expected("an expression (a name, a literal, a call or `(`)");
                None
            }
        }
    }
}
