//! A line of ST cut into the pieces a view shows apart: keywords, literals, comments, names
//! (with their member: `mix_t.Q`), the rest. For drawing and highlighting, not for compiling
//! (a comment that runs past the line's end colours the rest of the line; the next line is
//! read afresh): the window's online view and editor and `fbd svg` share it.

/// One piece of a line as shown.
#[derive(Debug, PartialEq)]
#[allow(missing_docs)]
pub enum Piece<'a> {
    Keyword(&'a str),
    Literal(&'a str),
    Comment(&'a str),
    /// A name, with its member (`mix_t.Q`).
    Name(&'a str),
    Other(&'a str),
}

/// A line cut into the pieces it is shown in. A comment that runs on past the line's end
/// colours the rest of the line (the next line is read afresh).
pub fn pieces(line: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let rest = &line[i..];
        let start = i;
        if rest.starts_with("//") {
            out.push(Piece::Comment(rest));
            break;
        }
        if rest.starts_with("(*") || rest.starts_with("/*") {
            let close = if rest.starts_with("(*") { "*)" } else { "*/" };
            let end = rest[2..].find(close).map_or(b.len(), |e| i + 2 + e + 2);
            out.push(Piece::Comment(&line[start..end]));
            i = end;
            continue;
        }
        let c = b[i];
        if c == b'\'' {
            let end = rest[1..].find('\'').map_or(b.len(), |e| i + 1 + e + 1);
            out.push(Piece::Literal(&line[start..end]));
            i = end;
            continue;
        }
        if c.is_ascii_alphanumeric() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            // A typed literal runs on after its `#` (`T#1s500ms`, `INT#5`, `16#FF`).
            if i < b.len() && b[i] == b'#' {
                i += 1;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'.' | b'-' | b':')) {
                    i += 1;
                }
                out.push(Piece::Literal(&line[start..i]));
                continue;
            }
            let word = &line[start..i];
            let upper = word.to_ascii_uppercase();
            if c.is_ascii_digit() {
                while i < b.len()
                    && (b[i].is_ascii_digit() || b[i] == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
                {
                    i += 1;
                }
                out.push(Piece::Literal(&line[start..i]));
            } else if upper == "TRUE" || upper == "FALSE" {
                out.push(Piece::Literal(word));
            } else if crate::lexer::KEYWORDS.contains(&upper.as_str()) {
                out.push(Piece::Keyword(word));
            } else {
                // A member: `inst.Q`.
                if i + 1 < b.len() && b[i] == b'.' && (b[i + 1].is_ascii_alphabetic() || b[i + 1] == b'_') {
                    i += 1;
                    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                        i += 1;
                    }
                }
                out.push(Piece::Name(&line[start..i]));
            }
            continue;
        }
        let ch = rest.chars().next().map_or(1, char::len_utf8);
        i += ch;
        out.push(Piece::Other(&line[start..i]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Piece, pieces};

    #[test]
    fn a_line_is_cut_into_keywords_names_literals_and_comments() {
        let p = pieces("IF mix_t.Q AND lvl >= 80 THEN step := T#2s; (* go *) END_IF; // done");
        assert!(p.contains(&Piece::Keyword("IF")));
        assert!(p.contains(&Piece::Name("mix_t.Q")));
        assert!(p.contains(&Piece::Name("lvl")));
        assert!(p.contains(&Piece::Literal("80")));
        assert!(p.contains(&Piece::Literal("T#2s")));
        assert!(p.contains(&Piece::Comment("(* go *)")));
        assert!(p.contains(&Piece::Comment("// done")));
        assert!(p.contains(&Piece::Keyword("END_IF")));
        let whole: String = p
            .iter()
            .map(|x| match x {
                Piece::Keyword(s) | Piece::Literal(s) | Piece::Comment(s) | Piece::Name(s) | Piece::Other(s) => *s,
            })
            .collect();
        assert_eq!(whole, "IF mix_t.Q AND lvl >= 80 THEN step := T#2s; (* go *) END_IF; // done", "nothing lost");
    }
}
