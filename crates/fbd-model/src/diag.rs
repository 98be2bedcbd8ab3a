//! Errors that point at the place in a diagram file: file, line and column, block and pin.

use std::fmt;
use std::path::PathBuf;

/// One problem found while loading or compiling a diagram.
///
/// `Display` renders it as `file:line:col: message (block `id`, pin `pin`)` followed by a
/// `help:` line when there is something the user can do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file the problem is in (as given, or `<memory>` for an in-memory diagram).
    pub file: PathBuf,
    /// 1-based line, when the place is known.
    pub line: Option<usize>,
    /// 1-based column, when the place is known.
    pub col: Option<usize>,
    /// The block id (or hierarchical instance path) involved, if any.
    pub block: Option<String>,
    /// The pin involved, if any.
    pub pin: Option<String>,
    /// What is wrong.
    pub message: String,
    /// What to do about it, when there is a clear next step.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic for `file` with a message and no position yet.
    pub fn new(file: impl Into<PathBuf>, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: file.into(),
            line: None,
            col: None,
            block: None,
            pin: None,
            message: message.into(),
            help: None,
        }
    }

    /// Sets line and column.
    pub fn at(mut self, pos: Option<(usize, usize)>) -> Diagnostic {
        if let Some((l, c)) = pos {
            self.line = Some(l);
            self.col = Some(c);
        }
        self
    }

    /// Names the block involved.
    pub fn block(mut self, block: impl Into<String>) -> Diagnostic {
        self.block = Some(block.into());
        self
    }

    /// Names the pin involved.
    pub fn pin(mut self, pin: impl Into<String>) -> Diagnostic {
        self.pin = Some(pin.into());
        self
    }

    /// Adds a hint.
    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
            if let Some(c) = self.col {
                write!(f, ":{c}")?;
            }
        }
        write!(f, ": {}", self.message)?;
        match (&self.block, &self.pin) {
            (Some(b), Some(p)) => write!(f, " (block `{b}`, pin `{p}`)")?,
            (Some(b), None) => write!(f, " (block `{b}`)")?,
            (None, Some(p)) => write!(f, " (pin `{p}`)")?,
            (None, None) => {}
        }
        if let Some(h) = &self.help {
            write!(f, "\n  help: {h}")?;
        }
        Ok(())
    }
}

/// All problems found in one load or compile, in file order. Never empty when returned as an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// The first diagnostic (there always is one).
    pub fn first(&self) -> &Diagnostic {
        &self.0[0]
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}

/// Most errors [`Diagnostics`] prints; the rest are counted. The list itself keeps them all.
pub const MAX_SHOWN: usize = 50;

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().take(MAX_SHOWN).enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "error: {d}")?;
        }
        if self.0.len() > MAX_SHOWN {
            write!(f, "\n... and {} more errors", self.0.len() - MAX_SHOWN)?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// The candidate nearest to `s` by edit distance, if it is close enough to be a typo.
pub fn closest<'a>(s: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let d = |a: &str, b: &str| -> usize {
        let a: Vec<char> = a.to_lowercase().chars().collect();
        let b: Vec<char> = b.to_lowercase().chars().collect();
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for i in 1..=a.len() {
            let mut cur = vec![i; b.len() + 1];
            for j in 1..=b.len() {
                cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + usize::from(a[i - 1] != b[j - 1]));
            }
            prev = cur;
        }
        prev[b.len()]
    };
    // Typos are short: long names (and very different lengths) get no suggestion, which keeps
    // this linear in the number of candidates whatever the names' length.
    const LONGEST: usize = 64;
    if s.len() > LONGEST {
        return None;
    }
    candidates
        .iter()
        .filter(|c| c.len() <= LONGEST && c.len().abs_diff(s.len()) <= c.len().div_ceil(3).max(1))
        .map(|c| (d(s, c), *c))
        .filter(|(dist, c)| *dist <= c.len().div_ceil(3).max(1))
        .min()
        .map(|(_, c)| c)
}
