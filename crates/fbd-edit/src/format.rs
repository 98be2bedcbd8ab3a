//! The canonical text of a diagram file: what the editor saves and `fbd fmt` writes.
//!
//! Two-space indentation; a value that fits on its line (120 columns) is written on one line
//! as `{ "id": "a", "type": "AND" }` or `[1, 2]`, otherwise one member per line. So a block is
//! one line and a body one block per line, which keeps diffs of edited files small. Every
//! committed diagram is in this form (a test checks it), so loading and saving a file without
//! changes gives back the same bytes.

use fbd_model::model::Document;
use serde_json::Value;

/// Lines are kept within this many columns where a value allows it.
const WIDTH: usize = 120;

/// The canonical text of `doc` (ends with a newline).
pub fn to_text(doc: &Document) -> String {
    let v = serde_json::to_value(doc).expect("a document always serialises");
    let mut out = String::new();
    write_value(&v, 0, 0, &mut out);
    out.push('\n');
    out
}

/// Writes `v` at `indent`, the line already holding `used` columns (a key). The top-level
/// document is always expanded.
fn write_value(v: &Value, indent: usize, used: usize, out: &mut String) {
    let one_line = compact(v);
    if indent > 0 && used + one_line.len() <= WIDTH {
        out.push_str(&one_line);
        return;
    }
    match v {
        Value::Object(m) if !m.is_empty() => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                out.push('\n');
                push_indent(out, indent + 2);
                let key = string(k);
                out.push_str(&key);
                out.push_str(": ");
                write_value(x, indent + 2, indent + 2 + key.len() + 2 + usize::from(i + 1 < m.len()), out);
                if i + 1 < m.len() {
                    out.push(',');
                }
            }
            out.push('\n');
            push_indent(out, indent);
            out.push('}');
        }
        Value::Array(a) if !a.is_empty() => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                out.push('\n');
                push_indent(out, indent + 2);
                write_value(x, indent + 2, indent + 2 + usize::from(i + 1 < a.len()), out);
                if i + 1 < a.len() {
                    out.push(',');
                }
            }
            out.push('\n');
            push_indent(out, indent);
            out.push(']');
        }
        _ => out.push_str(&one_line),
    }
}

/// `v` on one line: `{ "a": 1, "b": [1, 2] }`.
fn compact(v: &Value) -> String {
    match v {
        Value::Object(m) if m.is_empty() => "{}".to_string(),
        Value::Object(m) => {
            let parts: Vec<String> = m.iter().map(|(k, x)| format!("{}: {}", string(k), compact(x))).collect();
            format!("{{ {} }}", parts.join(", "))
        }
        Value::Array(a) => {
            let parts: Vec<String> = a.iter().map(compact).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::String(s) => string(s),
        other => other.to_string(),
    }
}

fn string(s: &str) -> String {
    Value::String(s.to_string()).to_string()
}

fn push_indent(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Document {
        fbd_model::load::parse_document(std::path::Path::new("t.json"), text).expect("parses")
    }

    #[test]
    fn short_values_stay_on_one_line_and_long_ones_are_expanded() {
        let d = doc(r#"{"fbd":2,"cycle_ms":5,"inputs":[{"name":"a","type":"BOOL"}],
            "blocks":[{"id":"n","type":"NOT","inputs":{"in":"a"},"pos":[40,60.5]}]}"#);
        let t = to_text(&d);
        assert_eq!(
            t,
            "{\n  \"fbd\": 3,\n  \"cycle_ms\": 5,\n  \"inputs\": [{ \"name\": \"a\", \"type\": \"BOOL\" }],\n  \"blocks\": [{ \"id\": \"n\", \"type\": \"NOT\", \"inputs\": { \"in\": \"a\" }, \"pos\": [40, 60.5] }]\n}\n"
        );
        // A REAL constant keeps its fraction so it stays REAL when read back.
        let d = doc(r#"{"fbd":1,"blocks":[{"id":"m","type":"MOVE","inputs":{"in":2.0}}]}"#);
        assert!(to_text(&d).contains("\"in\": 2.0"), "{}", to_text(&d));
        let long: Vec<String> =
            (0..30).map(|i| format!("{{\"id\":\"b{i}\",\"type\":\"NOT\",\"inputs\":{{\"in\":true}}}}")).collect();
        let d = doc(&format!(r#"{{"fbd":1,"blocks":[{}]}}"#, long.join(",")));
        let t = to_text(&d);
        assert_eq!(t.lines().count(), 30 + 5, "one block per line:\n{t}");
        assert!(t.lines().all(|l| l.len() <= WIDTH), "{t}");
        assert_eq!(to_text(&doc(&t)), t, "formatting is idempotent");
    }
}
