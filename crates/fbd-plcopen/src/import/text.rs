//! Comments and documentation: the text of a `documentation` element (formatted text: XHTML
//! paragraphs, CDATA) and the free `comment` boxes of an FBD body, so that what an author
//! wrote about a program travels with it.

use roxmltree::Node;

use super::{child, children};

/// The text of `n`'s `documentation` child, if it has one with any text.
pub(super) fn documentation(n: Node) -> Option<String> {
    child(n, "documentation").and_then(formatted)
}

/// The text of a formatted-text element: its text nodes, blank lines at either end dropped and
/// the indentation all its lines share removed (editors indent the XML around it); the spaces
/// the author wrote stay, around line breaks too (this tool's export writes them as they are).
pub(super) fn formatted(n: Node) -> Option<String> {
    let raw: String = n.descendants().filter(|d| d.is_text()).filter_map(|d| d.text()).collect();
    let lines: Vec<&str> = raw.lines().collect();
    let first = lines.iter().position(|l| !l.trim().is_empty())?;
    let last = lines.iter().rposition(|l| !l.trim().is_empty())?;
    let lines = &lines[first..=last];
    let indent = |l: &&str| l.len() - l.trim_start().len();
    // A first line that follows the opening tag has no indentation of the XML's: the others
    // say how deep the XML is indented.
    let rest = if first == 0 && lines.len() > 1 { &lines[1..] } else { lines };
    let common = rest.iter().filter(|l| !l.trim().is_empty()).map(indent).min().unwrap_or(0);
    let text: Vec<&str> =
        lines.iter().map(|l| if l.trim().is_empty() { "" } else { &l[common.min(indent(l))..] }).collect();
    Some(text.join("\n").trim_end().to_string())
}

/// The free comment boxes of an FBD body (CODESYS's and Beremiz's network comments), top to
/// bottom and left to right as they stand.
pub(super) fn body_comments(fbd: Node) -> Vec<String> {
    let mut found: Vec<((f64, f64), String)> = children(fbd, "comment")
        .filter_map(|c| {
            let at = child(c, "position").map_or((0.0, 0.0), |p| {
                let num = |a: &str| p.attribute(a).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
                (num("y"), num("x"))
            });
            Some((at, formatted(child(c, "content")?)?))
        })
        .collect();
    found.sort_by(|a, b| a.0.0.total_cmp(&b.0.0).then(a.0.1.total_cmp(&b.0.1)));
    found.into_iter().map(|(_, t)| t).collect()
}

/// A POU's description: its documentation, then the comments of its body, a paragraph each.
pub(super) fn description(pou: Node, fbd: Node) -> Option<String> {
    let parts: Vec<String> = documentation(pou).into_iter().chain(body_comments(fbd)).collect();
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}
