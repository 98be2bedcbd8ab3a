//! fbd-st: Structured Text (IEC 61131-3 ST), the text front end's first stage: the lexer
//! (`lexer.rs`) and the parser (`parser.rs`) of a body's statements into the syntax tree
//! (`ast.rs`). Declarations are not text here: a body's variables, ports and instances are
//! the format's (`fbd_model::model::Variable`, the ports, blocks), as PLCopen keeps them in XML
//! beside the ST text of a body.
//!
//! [`parse`] returns every error of the text at once, each at its line and column with what
//! was expected; what the statements mean is the compiler's (`fbd_compiler::st`).

pub mod ast;
pub mod highlight;
pub mod lexer;
mod parser;

pub use ast::{Pos, Stmt};

/// A lexical or syntax error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Where, in the ST text.
    pub pos: Pos,
    /// What is wrong, with what was expected.
    pub msg: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.pos, self.msg)
    }
}

/// The statements of an ST body, or every error in it (in the order of the text).
pub fn parse(text: &str) -> Result<Vec<Stmt>, Vec<Error>> {
    let mut errors = Vec::new();
    let toks = lexer::tokens(text, &mut errors);
    let mut p = parser::Parser::new(toks, errors);
    let body = p.body();
    let mut errors = p.errors;
    if errors.is_empty() {
        return Ok(body);
    }
    errors.sort_by_key(|e| e.pos);
    errors.dedup();
    Err(errors)
}
