//! A drawing as a PNG image, to print or paste where SVG is not taken: the SVG of
//! [`crate::svg`] rendered by resvg, its text in egui's own monospace font (Hack, bundled), so
//! the image is the same on every machine whatever fonts it has.

use resvg::{tiny_skia, usvg};

use crate::sheets::{CAPTION_UNITS, Sheets};

/// The pixels of A4 landscape's long side at 300 dots per inch: the size [`render_a4`] fits.
pub const A4_LONG_SIDE_PX: f32 = 3508.0;
/// The pixels of A4's short side at 300 dots per inch.
pub const A4_SHORT_SIDE_PX: f32 = 2480.0;

/// `svg` rendered `scale` times its size, as PNG bytes.
pub fn render(svg: &str, scale: f32) -> Result<Vec<u8>, String> {
    let mut opt = usvg::Options::default();
    let fonts = opt.fontdb_mut();
    fonts.load_font_data(epaint_default_fonts::HACK_REGULAR.to_vec());
    fonts.set_monospace_family("Hack");
    fonts.set_sans_serif_family("Hack");
    fonts.set_serif_family("Hack");
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| format!("the drawing does not parse as SVG: {e}"))?;
    let size = tree.size().to_int_size().scale_by(scale).ok_or("the drawing is empty")?;
    if size.width() > 30_000 || size.height() > 30_000 {
        return Err(format!(
            "the image would be {}×{} pixels; draw a page (`--page`) or a macro instead of the whole body",
            size.width(),
            size.height()
        ));
    }
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("the image is too large")?;
    resvg::render(&tree, tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| format!("PNG: {e}"))
}

/// `svg` rendered to fit A4 at 300 dpi, its long side on the sheet's long side (3,508 by 2,480
/// pixels: a drawing nearly square fits by its short side), never smaller than its own size,
/// as PNG bytes.
pub fn render_a4(svg: &str) -> Result<Vec<u8>, String> {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .map_err(|e| format!("the drawing does not parse as SVG: {e}"))?;
    let (w, h) = (tree.size().width(), tree.size().height());
    let scale = (A4_LONG_SIDE_PX / w.max(h)).min(A4_SHORT_SIDE_PX / w.min(h));
    render(svg, scale.max(1.0))
}

/// `svg` (a drawing as [`crate::svg::svg`] draws it) printed on `sheets` (from
/// [`crate::sheets::a4_sheets`]): each part rendered at the scale that makes the text `pt`
/// points high at 300 dpi, with a caption at its foot (`caption`, then which sheet of how many,
/// its column and row), as PNG bytes per sheet.
pub fn render_sheets(svg: &str, sheets: &Sheets, pt: f64, caption: &str) -> Result<Vec<Vec<u8>>, String> {
    let scale = (pt * 300.0 / 72.0 / crate::sheets::TEXT_UNITS) as f32;
    let (head, rest) = svg.split_once('>').ok_or("the drawing is not SVG")?;
    let body = rest.trim_end().strip_suffix("</svg>").ok_or("the drawing is not SVG")?;
    let n = sheets.parts.len();
    sheets
        .parts
        .iter()
        .zip(&sheets.at)
        .enumerate()
        .map(|(k, (r, &(col, row)))| {
            let h = r.h + CAPTION_UNITS;
            let root = with_attr(head, "width", &r.w.to_string());
            let root = with_attr(&root, "height", &h.to_string());
            let root = with_attr(&root, "viewBox", &format!("{} {} {} {h}", r.x, r.y, r.w));
            let text = format!(
                "{root}>{body}<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{CAPTION_UNITS}\" fill=\"white\"/>\n<text x=\"{}\" y=\"{}\" fill=\"#606060\">{} — sheet {} of {n} (column {col}, row {row})</text>\n</svg>\n",
                r.x,
                r.y + r.h,
                r.w,
                r.x + 4.0,
                r.y + r.h + 14.0,
                crate::svg::esc(caption),
                k + 1,
            );
            render(&text, scale)
        })
        .collect()
}

/// The root tag `head` (without its `>`) with attribute `name` set to `value`.
fn with_attr(head: &str, name: &str, value: &str) -> String {
    let key = format!(" {name}=\"");
    match head.find(&key) {
        Some(i) => {
            let start = i + key.len();
            let end = start + head[start..].find('"').unwrap_or(0);
            format!("{}{value}{}", &head[..start], &head[end..])
        }
        None => format!("{head}{key}{value}\""),
    }
}
