//! What the import carries along: the file, its errors and warnings with their places, and
//! the two XML look-ups every part of it uses.

use std::path::Path;

use fbd_model::Diagnostic;
use roxmltree::Node;

pub(super) struct Ctx<'a> {
    pub(super) path: &'a Path,
    /// The stand-ins of extension libraries' blocks and types.
    pub(super) stand_ins: &'a super::extensions::StandIns,
    /// The file's own text (where lines and columns are counted), and the map from `text`
    /// back to it when LD bodies were rewritten.
    pub(super) file: &'a str,
    pub(super) errors: Vec<Diagnostic>,
    pub(super) warnings: Vec<String>,
    /// Each block made and the byte offset of the element it comes from: (POU, block id, offset).
    pub(super) places: Vec<(String, String, usize)>,
    /// Where each line starts, built at the first error that needs a place.
    pub(super) line_starts: Vec<usize>,
    /// The last place computed (offset, line, column): errors come mostly in document order,
    /// so a column continues from there instead of counting from the line's start (a file
    /// written on one line would otherwise cost a pass over it per error).
    pub(super) last: (usize, usize, usize),
    /// The file's enumeration types (`enums.rs`): a variable of one is no derived type to
    /// refuse, its initial value a value's name.
    pub(super) enums: Vec<fbd_model::model::DataType>,
}

impl<'a> Ctx<'a> {
    /// A context for the file at `path` of text `file`.
    pub(super) fn new(path: &'a Path, stand_ins: &'a super::extensions::StandIns, file: &'a str) -> Ctx<'a> {
        Ctx {
            path,
            stand_ins,
            file,
            errors: Vec::new(),
            warnings: Vec::new(),
            places: Vec::new(),
            line_starts: Vec::new(),
            last: (0, 0, 0),
            enums: Vec::new(),
        }
    }

    pub(super) fn err(&mut self, node: Node, msg: impl Into<String>) {
        self.err_at(node.range().start, msg);
    }

    /// An error at byte offset `off` of the file.
    pub(super) fn err_at(&mut self, off: usize, msg: impl Into<String>) {
        let p = self.offset_pos(off);
        self.errors.push(Diagnostic::new(self.path, msg).at(Some(p)));
    }

    /// The line and column (1-based, in characters) where `node` starts.
    pub(super) fn text_pos(&mut self, node: Node) -> (usize, usize) {
        self.offset_pos(node.range().start)
    }

    pub(super) fn offset_pos(&mut self, off: usize) -> (usize, usize) {
        let text = self.file;
        let off = off.min(text.len());
        if self.line_starts.is_empty() {
            self.line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        }
        let line = self.line_starts.partition_point(|&s| s <= off);
        let start = self.line_starts[line - 1];
        let (last_off, last_line, last_col) = self.last;
        let col = if last_line == line && last_off <= off && text.is_char_boundary(last_off) {
            last_col + text[last_off..off].chars().count()
        } else {
            text[start..off].chars().count() + 1
        };
        self.last = (off, line, col);
        (line, col)
    }
}

/// The first child element of `n` named `name`.
pub(super) fn child<'a, 'i>(n: Node<'a, 'i>, name: &str) -> Option<Node<'a, 'i>> {
    n.children().find(|c| c.is_element() && c.tag_name().name() == name)
}

/// The child elements of `n` named `name`.
pub(super) fn children<'a, 'i>(n: Node<'a, 'i>, name: &'static str) -> impl Iterator<Item = Node<'a, 'i>> {
    n.children().filter(move |c| c.is_element() && c.tag_name().name() == name)
}
