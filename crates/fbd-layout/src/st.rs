//! A Structured Text body as a drawing: its listing, numbered, keywords and literals and
//! comments set apart (`fbd_st::highlight`), and after a run (`fbd svg --after N`) the values
//! its lines name beside each line, as the window's online view shows them.

use std::fmt::Write as _;

use fbd_model::xml::esc;
use fbd_st::highlight::{Piece, pieces};

/// Line pitch and character width of the listing (11 px monospace).
const LINE: f64 = 16.0;
const CHAR: f64 = 6.7;

/// The SVG of `lines` titled `title`; `value(name)` the text of a name's value after a run
/// (`None`: nothing beside it, as before any run).
pub fn svg(lines: &[String], title: &str, value: &dyn Fn(&str) -> Option<String>) -> String {
    let width_n = lines.len().to_string().len();
    let mut body = String::new();
    let mut widest = title.chars().count() as f64 * CHAR;
    for (k, line) in lines.iter().enumerate() {
        let y = 40.0 + LINE * k as f64;
        let _ = write!(body, "<text x=\"8\" y=\"{y}\" class=\"num\">{:>width_n$}</text>", k + 1);
        let x0 = 16.0 + CHAR * width_n as f64;
        let mut spans = String::new();
        let mut names: Vec<&str> = Vec::new();
        for p in pieces(line) {
            let (s, class) = match p {
                Piece::Keyword(s) => (s, "kw"),
                Piece::Literal(s) => (s, "lit"),
                Piece::Comment(s) => (s, "com"),
                Piece::Name(s) => {
                    if !names.iter().any(|n| n.eq_ignore_ascii_case(s)) {
                        names.push(s);
                    }
                    (s, "")
                }
                Piece::Other(s) => (s, ""),
            };
            if class.is_empty() {
                spans.push_str(&esc(s));
            } else {
                let _ = write!(spans, "<tspan class=\"{class}\">{}</tspan>", esc(s));
            }
        }
        let _ = write!(body, "<text x=\"{x0}\" y=\"{y}\" xml:space=\"preserve\">{spans}</text>");
        let mut x = x0 + CHAR * (line.chars().count() as f64 + 3.0);
        for n in names {
            let Some(v) = value(n) else { continue };
            let label = format!("{n} = {v}");
            let w = CHAR * label.chars().count() as f64 + 6.0;
            let class = if v == "TRUE" { "val on" } else { "val" };
            let _ = write!(
                body,
                "<g class=\"{class}\"><rect x=\"{x}\" y=\"{}\" width=\"{w}\" height=\"{}\" rx=\"2\"/><text x=\"{}\" y=\"{y}\">{}</text></g>",
                y - LINE + 4.0,
                LINE - 2.0,
                x + 3.0,
                esc(&label)
            );
            x += w + 6.0;
        }
        widest = widest.max(x);
    }
    let height = 40.0 + LINE * lines.len() as f64;
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{height}\" viewBox=\"0 0 {w} {height}\" font-family=\"DejaVu Sans Mono, monospace\" font-size=\"11\">\n\
<style>\n.num {{ fill: #909090; }}\n.kw {{ fill: #1a4fb0; font-weight: bold; }}\n.lit {{ fill: #9a4a00; }}\n.com {{ fill: #909090; font-style: italic; }}\n\
.val rect {{ fill: #eeeeee; stroke: #c0c0c0; }}\n.val text {{ fill: #303030; }}\n.val.on text {{ fill: #1f9d3a; font-weight: bold; }}\n.title {{ font-weight: bold; }}\n</style>\n\
<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"8\" y=\"16\" class=\"title\">{}</text>\n{body}\n</svg>\n",
        esc(title),
        w = widest + 16.0,
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_listing_numbers_its_lines_and_shows_values_after_a_run() {
        let lines = vec!["IF stop THEN (* halt *)".to_string(), "  stage := 0;".to_string(), "END_IF;".to_string()];
        let plain = super::svg(&lines, "BATCH", &|_| None);
        assert!(plain.contains("<tspan class=\"kw\">IF</tspan>") && plain.contains("class=\"com\""), "{plain}");
        assert!(plain.contains(">  3</text>") || plain.contains(">3</text>"), "numbered: {plain}");
        let run = super::svg(&lines, "BATCH", &|n| (n == "stop").then(|| "TRUE".to_string()));
        assert!(run.contains("stop = TRUE") && run.contains("val on"), "{run}");
        assert!(!run.contains("stage ="), "a name without a value shows none");
    }
}
