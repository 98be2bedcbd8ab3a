//! File > Export drawing: the body the online diagram shows, as an SVG file, drawn as on screen
//! (the same layout: stored positions, connectors) with the values of the moment beside the
//! pins. An SVG scales to any paper; a PNG fits A4 at 300 dpi, as `fbd svg` writes it; File →
//! Print on A4 sheets cuts the drawing into sheets with 8-point text, as `fbd svg --sheets`.

use std::path::Path;

use fbd_engine::ScanImage;
use fbd_layout::{Body, Layout};

use crate::diagram::DiagramState;
use crate::path_prompt::PathAction;

/// The values of one scan image beside the pins of the shown body.
struct ImageValues<'a> {
    img: &'a ScanImage,
    /// The signal of every output pin, per node, and of every input port.
    out_ids: Vec<Vec<Option<usize>>>,
    in_ids: Vec<Option<usize>>,
}

impl fbd_layout::svg::Values for ImageValues<'_> {
    fn output(&self, node: usize, pin: usize) -> Option<String> {
        let id = self.out_ids.get(node)?.get(pin).copied().flatten()?;
        Some(self.img.read_signal(id).short())
    }
    fn input_port(&self, k: usize) -> Option<String> {
        Some(self.img.read_signal(self.in_ids.get(k).copied().flatten()?).short())
    }
    fn output_exact(&self, node: usize, pin: usize) -> Option<String> {
        let id = self.out_ids.get(node)?.get(pin).copied().flatten()?;
        Some(self.img.read_signal(id).to_string())
    }
}

/// What a drawing is written as: one SVG or PNG, or PNG sheets of A4.
#[derive(Copy, Clone, PartialEq)]
pub(crate) enum Written {
    Drawing,
    Sheets,
}

impl DiagramState {
    /// What a drawing of the shown instance is asked for as: the typed-path window's action,
    /// the dialog's filter, the file name offered.
    pub(crate) fn drawing_file(&self, how: Written) -> (PathAction, (&'static str, &'static [&'static str]), String) {
        let name = if self.instance.is_empty() { "program" } else { self.instance.as_str() };
        let (action, filter, ext) = match how {
            Written::Drawing => (PathAction::ExportDrawing, ("SVG or PNG drawing", &["svg", "png"][..]), "svg"),
            Written::Sheets => (PathAction::PrintSheets, ("PNG sheets", &["png"][..]), "png"),
        };
        (action, filter, format!("{}.{ext}", name.replace('/', "_")))
    }

    /// Writes the drawing of the shown body `bl` with the values of `img` to `path`; what
    /// happened, for the status line. `label` names the running program in the title.
    pub(crate) fn write_drawing(
        &self,
        bl: &(Body, Layout),
        img: &ScanImage,
        label: &str,
        path: &Path,
        how: Written,
    ) -> String {
        let (body, layout) = bl;
        let (out_ids, in_ids) = self.signal_ids(body, &img.plan);
        let values = ImageValues { img, out_ids, in_ids };
        let shown = if self.instance.is_empty() { "the program" } else { self.instance.as_str() };
        let title = format!("{label} — {shown}, scan {}", img.scan);
        let text = fbd_layout::svg::svg(body, layout, &title, &values);
        let path = crate::paths::typed_path(&path.display().to_string());
        if how == Written::Sheets {
            let pt = fbd_layout::sheets::PRINT_TEXT_PT;
            return match fbd_layout::png::write_sheets(&path, &text, (body, layout), (pt, &title), |_| Ok(())) {
                Ok(said) => format!("printed on {said}"),
                Err(e) => e,
            };
        }
        write_svg(&text, &path, Written::Drawing)
    }
}

/// Writes drawing `text` (SVG) to `path` (typed by the user): the SVG, or (`.png`, or sheets
/// asked for) rendered to fit A4 landscape at 300 dpi, to print. What happened, for the status
/// line.
pub(crate) fn write_svg(text: &str, path: &Path, how: Written) -> String {
    let path = crate::paths::typed_path(&path.display().to_string());
    let png = how == Written::Sheets || path.extension().is_some_and(|e| e.eq_ignore_ascii_case("png"));
    let written = if png {
        fbd_layout::png::render_a4(text)
            .map_err(std::io::Error::other)
            .and_then(|bytes| fbd_engine::load::write_with(&path, |w| w.write_all(&bytes)))
    } else {
        fbd_engine::load::write_text(&path, text)
    };
    match written {
        Ok(()) => format!("drawing written to {}", path.display()),
        Err(e) => format!("{}: cannot write: {e}", path.display()),
    }
}
