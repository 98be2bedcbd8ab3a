//! Comments and documentation: the text of a `documentation` element (formatted text: XHTML
//! paragraphs, CDATA) and the free `comment` boxes of an FBD body, so that what an author
//! wrote about a program travels with it.

use roxmltree::Node;

use super::{child, children};

/// The text of `n`'s `documentation` child, if it has one with any text.
pub(super) fn documentation(n: Node) -> Option<String> {
    child(n, "documentation").and_then(formatted)
}

/// The text of a formatted-text element: its text nodes, each line trimmed (editors indent the
/// XML around it), blank lines at either end dropped.
pub(super) fn formatted(n: Node) -> Option<String> {
    let raw: String = n.descendants().filter(|d| d.is_text()).filter_map(|d| d.text()).collect();
    let lines: Vec<&str> = raw.lines().map(str::trim).collect();
    let first = lines.iter().position(|l| !l.is_empty())?;
    let last = lines.iter().rposition(|l| !l.is_empty())?;
    Some(lines[first..=last].join("\n"))
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
