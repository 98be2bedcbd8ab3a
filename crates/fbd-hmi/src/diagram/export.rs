//! File > Export drawing: the body the online diagram shows, as an SVG file, drawn as on screen
//! (the same layout: stored positions, connectors) with the values of the moment beside the
//! pins. An SVG scales to any paper; a PNG fits A4 at 300 dpi, as `fbd svg` writes it; File →
//! Print on A4 sheets cuts the drawing into sheets with 8-point text, as `fbd svg --sheets`.

use std::path::PathBuf;

use fbd_engine::ScanImage;
use fbd_layout::Body;

use crate::app::App;

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
enum Written {
    Drawing,
    Sheets,
}

impl App {
    /// Writes the shown body's drawing to `path` (or one a dialog or the typed-path window
    /// gives); says what happened on the status line.
    pub fn export_drawing(&mut self, path: Option<PathBuf>) {
        self.write_drawing(path, Written::Drawing);
    }

    /// Prints the shown body's drawing on A4 sheets with 8-point text: NAME-1.png,
    /// NAME-2.png... beside `path` (NAME.png, or one a dialog or the typed-path window gives);
    /// says what was written on the status line.
    pub fn print_sheets(&mut self, path: Option<PathBuf>) {
        self.write_drawing(path, Written::Sheets);
    }

    fn write_drawing(&mut self, path: Option<PathBuf>, how: Written) {
        use crate::path_prompt::PathAction;
        let Some(bl) = self.diagram_body() else {
            self.status = "no drawing to export yet: open the Diagram tab first".into();
            return;
        };
        let name = if self.diagram.instance.is_empty() { "program".to_string() } else { self.diagram.instance.clone() };
        let (action, filter, ext) = match how {
            Written::Drawing => (PathAction::ExportDrawing, ("SVG or PNG drawing", &["svg", "png"][..]), "svg"),
            Written::Sheets => (PathAction::PrintSheets, ("PNG sheets", &["png"][..]), "png"),
        };
        let file = format!("{}.{ext}", name.replace('/', "_"));
        let Some(path) = path.or_else(|| self.save_path(action, filter, &file)) else {
            self.status = "type the path to export the drawing to".into();
            return;
        };
        let (body, layout) = &*bl;
        let img = self.image();
        let values = self.values_of(body, &img);
        let title = format!(
            "{} — {}, scan {}",
            self.loaded.label(),
            if name == "program" { "the program" } else { name.as_str() },
            img.scan
        );
        let text = fbd_layout::svg::svg(body, layout, &title, &values);
        let path = crate::paths::typed_path(&path.display().to_string());
        if how == Written::Sheets {
            let pt = fbd_layout::sheets::PRINT_TEXT_PT;
            self.status = match fbd_layout::png::write_sheets(&path, &text, (body, layout), (pt, &title), |_| Ok(())) {
                Ok(said) => format!("printed on {said}"),
                Err(e) => e,
            };
            return;
        }
        // A `.png` is the drawing rendered to fit A4 landscape at 300 dpi, to print.
        let png = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("png"));
        let written = if png {
            fbd_layout::png::render_a4(&text)
                .map_err(std::io::Error::other)
                .and_then(|bytes| fbd_engine::load::write_with(&path, |w| w.write_all(&bytes)))
        } else {
            fbd_engine::load::write_text(&path, &text)
        };
        self.status = match written {
            Ok(()) => format!("drawing written to {}", path.display()),
            Err(e) => format!("{}: cannot write: {e}", path.display()),
        };
    }

    fn values_of<'a>(&self, body: &Body, img: &'a ScanImage) -> ImageValues<'a> {
        let (out_ids, in_ids) = self.diagram.signal_ids(body, &img.plan);
        ImageValues { img, out_ids, in_ids }
    }
}
