//! File > Export drawing: the body the online diagram shows, as an SVG file, drawn as on screen
//! (the same layout: stored positions, connectors) with the values of the moment beside the
//! pins. An SVG scales to any paper: printed on A4 landscape, as `fbd svg` writes it.

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

impl App {
    /// Writes the shown body's drawing to `path` (or one a dialog or the typed-path window
    /// gives); says what happened on the status line.
    pub fn export_drawing(&mut self, path: Option<PathBuf>) {
        let Some(bl) = self.diagram_body() else {
            self.status = "no drawing to export yet: open the Diagram tab first".into();
            return;
        };
        let name = if self.diagram.instance.is_empty() { "program".to_string() } else { self.diagram.instance.clone() };
        let file = format!("{}.svg", name.replace('/', "_"));
        let Some(path) = path.or_else(|| {
            self.save_path(
                crate::path_prompt::PathAction::ExportDrawing,
                ("SVG or PNG drawing", &["svg", "png"]),
                &file,
            )
        }) else {
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
