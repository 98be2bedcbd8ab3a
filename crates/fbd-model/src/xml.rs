//! Text as XML carries it: what the SVG drawings, the PLCopen export and the JUnit report
//! write.

/// `s` as XML text or an attribute value (the SVG drawings', the PLCopen export's, the JUnit
/// report's). A character XML 1.0 does not allow at all (U+0000..U+001F but tab, line feed and
/// carriage return; U+FFFE, U+FFFF) is written as U+FFFD: no escape can carry it, and the
/// document would not parse.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' | '\n' | '\r' => out.push(c),
            '\u{0}'..='\u{1F}' | '\u{FFFE}' | '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::esc;

    #[test]
    fn markup_is_escaped_and_characters_xml_cannot_carry_are_replaced() {
        assert_eq!(esc("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
        assert_eq!(esc("tab\tok\u{1}"), "tab\tok\u{FFFD}");
    }
}
