//! Characters to tokens: names, keywords, literals (through `fbd_model::iec::parse`, the one
//! reader of IEC literals), operators; comments `(* *)`, `/* */` and `//` skipped. A pragma
//! `{ .. }` (Beremiz's inline C) is a token of its own, refused by the parser at its place.

use fbd_model::{Type, Value};

use crate::Error;
use crate::ast::Pos;

/// What a token is.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// A name (not a keyword), as written.
    Ident(String),
    /// A keyword, upper case.
    Kw(&'static str),
    /// A literal, and the type it names (`INT#5`, `T#1s`), if it names one.
    Lit(Value, Option<Type>),
    /// An operator or punctuation: `:=`, `=>`, `<=`, `..`, `(`, ...
    Sym(&'static str),
    /// A pragma `{ .. }`.
    Pragma,
    /// The end of the text.
    End,
}

impl Tok {
    /// How the token reads in a message ("found `THEN`").
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Kw(k) => format!("`{k}`"),
            Tok::Lit(v, _) => format!("the literal `{v}`"),
            Tok::Sym(s) => format!("`{s}`"),
            Tok::Pragma => "a pragma `{..}`".into(),
            Tok::End => "the end of the text".into(),
        }
    }
}

/// The keywords of ST statements and operators.
pub const KEYWORDS: &[&str] = &[
    "IF",
    "THEN",
    "ELSIF",
    "ELSE",
    "END_IF",
    "CASE",
    "OF",
    "END_CASE",
    "FOR",
    "TO",
    "BY",
    "DO",
    "END_FOR",
    "WHILE",
    "END_WHILE",
    "REPEAT",
    "UNTIL",
    "END_REPEAT",
    "EXIT",
    "RETURN",
    "NOT",
    "MOD",
    "AND",
    "OR",
    "XOR",
];

const SYMBOLS: &[&str] = &[
    ":=", "=>", "<=", ">=", "<>", "**", "..", "(", ")", "[", "]", ",", ";", ":", ".", "=", "<", ">", "+", "-", "*",
    "/", "&", "^", "#",
];

/// Types whose typed literal is a duration or a date (`T#1s`, `D#2024-01-01`): the rest of the
/// literal runs over letters, digits, `_`, `.`, `:` and `-`.
const DATE_TIME_PREFIXES: &[&str] =
    &["T", "TIME", "LT", "LTIME", "D", "DATE", "TOD", "TIME_OF_DAY", "DT", "DATE_AND_TIME", "LTOD", "LDT", "LDATE"];

/// The tokens of `text`, each with its place, ending with [`Tok::End`]; every lexical error
/// (an unknown character, an unclosed comment or string, a malformed literal) in `errors`.
pub fn tokens(text: &str, errors: &mut Vec<Error>) -> Vec<(Tok, Pos)> {
    let mut lx = Lexer { chars: text.chars().collect(), i: 0, line: 1, col: 1 };
    let mut out = Vec::new();
    loop {
        lx.skip_blank(errors);
        let pos = lx.pos();
        let Some(c) = lx.peek(0) else {
            out.push((Tok::End, pos));
            return out;
        };
        let tok = if c.is_ascii_alphabetic() || c == '_' {
            lx.word(pos, errors)
        } else if c.is_ascii_digit() {
            lx.number(pos, errors)
        } else if c == '\'' || c == '"' {
            lx.string(pos, errors)
        } else if c == '{' {
            lx.pragma(pos, errors)
        } else if let Some(s) = SYMBOLS.iter().find(|s| lx.starts_with(s)) {
            lx.bump(s.len());
            Some(Tok::Sym(s))
        } else {
            lx.bump(1);
            errors.push(Error { pos, msg: format!("unexpected character `{c}`") });
            None
        };
        if let Some(t) = tok {
            out.push((t, pos));
        }
    }
}

struct Lexer {
    chars: Vec<char>,
    i: usize,
    line: u32,
    col: u32,
}

impl Lexer {
    fn pos(&self) -> Pos {
        Pos { line: self.line, col: self.col }
    }

    fn peek(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }

    fn starts_with(&self, s: &str) -> bool {
        s.chars().enumerate().all(|(k, c)| self.peek(k) == Some(c))
    }

    fn bump(&mut self, n: usize) {
        for _ in 0..n {
            if let Some(c) = self.peek(0) {
                self.i += 1;
                if c == '\n' {
                    self.line += 1;
                    self.col = 1;
                } else {
                    self.col += 1;
                }
            }
        }
    }

    /// Blanks and comments.
    fn skip_blank(&mut self, errors: &mut Vec<Error>) {
        loop {
            match self.peek(0) {
                Some(c) if c.is_whitespace() => self.bump(1),
                Some('/') if self.peek(1) == Some('/') => {
                    while self.peek(0).is_some_and(|c| c != '\n') {
                        self.bump(1);
                    }
                }
                Some('(') if self.peek(1) == Some('*') => self.block_comment("(*", "*)", errors),
                Some('/') if self.peek(1) == Some('*') => self.block_comment("/*", "*/", errors),
                _ => return,
            }
        }
    }

    fn block_comment(&mut self, open: &str, close: &str, errors: &mut Vec<Error>) {
        let pos = self.pos();
        self.bump(2);
        loop {
            if self.peek(0).is_none() {
                errors.push(Error { pos, msg: format!("a comment `{open}` is never closed (expected `{close}`)") });
                return;
            }
            if self.starts_with(close) {
                self.bump(2);
                return;
            }
            self.bump(1);
        }
    }

    fn take_while(&mut self, f: impl Fn(char) -> bool) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek(0).filter(|&c| f(c)) {
            s.push(c);
            self.bump(1);
        }
        s
    }

    /// A name, a keyword, or a typed literal (`INT#5`, `T#1s`, `STRING#'a'`).
    fn word(&mut self, pos: Pos, errors: &mut Vec<Error>) -> Option<Tok> {
        let w = self.take_while(|c| c.is_ascii_alphanumeric() || c == '_');
        let upper = w.to_ascii_uppercase();
        if self.peek(0) == Some('#') && fbd_model::iec::elementary(&upper).is_some()
            || DATE_TIME_PREFIXES.contains(&upper.as_str()) && self.peek(0) == Some('#')
        {
            self.bump(1);
            let mut text = format!("{w}#");
            if DATE_TIME_PREFIXES.contains(&upper.as_str()) {
                text.push_str(&self.take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-')));
            } else if self.peek(0) == Some('\'') {
                text.push_str(&self.quoted('\''));
            } else if self.peek(0).is_some_and(|c| c.is_ascii_alphabetic()) {
                text.push_str(&self.take_while(|c| c.is_ascii_alphanumeric()));
            } else {
                if let Some(sign) = self.peek(0).filter(|c| matches!(c, '+' | '-')) {
                    text.push(sign);
                    self.bump(1);
                }
                text.push_str(&self.number_text());
            }
            let ty = match upper.as_str() {
                "T" | "TIME" => Some(Type::Time),
                "LT" | "LTIME" => Some(Type::LTime),
                u => fbd_model::iec::elementary(u),
            };
            return literal(&text, ty, pos, errors);
        }
        // An enumeration value named with its type (`Mode#running`): one name, which the
        // compiler looks up in the program's types.
        if self.peek(0) == Some('#') && self.peek(1).is_some_and(|c| c.is_ascii_alphabetic() || c == '_') {
            self.bump(1);
            let value = self.take_while(|c| c.is_ascii_alphanumeric() || c == '_');
            return Some(Tok::Ident(format!("{w}#{value}")));
        }
        if upper == "TRUE" || upper == "FALSE" {
            return Some(Tok::Lit(Value::Bool(upper == "TRUE"), None));
        }
        match KEYWORDS.iter().find(|k| **k == upper) {
            Some(k) => Some(Tok::Kw(k)),
            None => Some(Tok::Ident(w)),
        }
    }

    /// The text of a number: digits with `_`, a base (`16#FF`), a fraction and an exponent;
    /// `1..5` is the integer 1 before a `..`.
    fn number_text(&mut self) -> String {
        let mut s = self.take_while(|c| c.is_ascii_digit() || c == '_');
        if self.peek(0) == Some('#') {
            s.push('#');
            self.bump(1);
            s.push_str(&self.take_while(|c| c.is_ascii_hexdigit() || c == '_'));
            return s;
        }
        if self.peek(0) == Some('.') && self.peek(1).is_some_and(|c| c.is_ascii_digit()) {
            s.push('.');
            self.bump(1);
            s.push_str(&self.take_while(|c| c.is_ascii_digit() || c == '_'));
        }
        if matches!(self.peek(0), Some('e' | 'E'))
            && (self.peek(1).is_some_and(|c| c.is_ascii_digit())
                || matches!(self.peek(1), Some('+' | '-')) && self.peek(2).is_some_and(|c| c.is_ascii_digit()))
        {
            s.push('E');
            self.bump(1);
            if let Some(sign) = self.peek(0).filter(|c| matches!(c, '+' | '-')) {
                s.push(sign);
                self.bump(1);
            }
            s.push_str(&self.take_while(|c| c.is_ascii_digit()));
        }
        s
    }

    fn number(&mut self, pos: Pos, errors: &mut Vec<Error>) -> Option<Tok> {
        let text = self.number_text();
        literal(&text, None, pos, errors)
    }

    /// A quoted string's text with its quotes (escapes kept for the literal reader).
    fn quoted(&mut self, q: char) -> String {
        let mut s = String::from(q);
        self.bump(1);
        while let Some(c) = self.peek(0) {
            if c == '\n' {
                break;
            }
            s.push(c);
            self.bump(1);
            if c == '$' {
                if let Some(e) = self.peek(0) {
                    s.push(e);
                    self.bump(1);
                }
            } else if c == q {
                return s;
            }
        }
        s
    }

    fn string(&mut self, pos: Pos, errors: &mut Vec<Error>) -> Option<Tok> {
        let q = self.peek(0).unwrap_or('\'');
        let s = self.quoted(q);
        if s.len() < 2 || !s.ends_with(q) {
            errors.push(Error { pos, msg: format!("a string is never closed (expected `{q}` on the same line)") });
            // A placeholder keeps the parser going; the error is reported.
            return Some(Tok::Lit(Value::Str(fbd_model::IecString::new(b"")), None));
        }
        if q == '"' {
            errors.push(Error {
                pos,
                msg: "a WSTRING (double quotes) is not supported: use a STRING in single quotes".into(),
            });
            return None;
        }
        literal(&s, None, pos, errors)
    }

    /// A pragma, to its matching `}` (inline C holds braces of its own).
    fn pragma(&mut self, pos: Pos, errors: &mut Vec<Error>) -> Option<Tok> {
        let mut depth = 0u32;
        while let Some(c) = self.peek(0) {
            self.bump(1);
            match c {
                '{' => depth += 1,
                '}' if depth == 1 => return Some(Tok::Pragma),
                '}' => depth -= 1,
                _ => {}
            }
        }
        errors.push(Error { pos, msg: "a pragma `{` is never closed (expected `}`)".into() });
        None
    }
}

fn literal(text: &str, ty: Option<Type>, pos: Pos, errors: &mut Vec<Error>) -> Option<Tok> {
    match fbd_model::iec::parse(text) {
        Ok(v) => Some(Tok::Lit(v, ty)),
        Err(why) => {
            errors.push(Error { pos, msg: why });
            // A placeholder keeps the parser going; the error is reported.
            Some(Tok::Lit(Value::Int(0), ty))
        }
    }
}
