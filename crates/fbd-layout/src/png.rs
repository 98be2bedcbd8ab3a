//! A drawing as a PNG image, to print or paste where SVG is not taken: the SVG of
//! [`crate::svg`] rendered by resvg, its text in egui's own monospace font (Hack, bundled), so
//! the image is the same on every machine whatever fonts it has.

use resvg::{tiny_skia, usvg};

use std::path::{Path, PathBuf};

use crate::sheets::{CAPTION_UNITS, Sheet, Sheets};

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
    let n = sheets.list.len();
    sheets
        .list
        .iter()
        .enumerate()
        .map(|(k, &Sheet { part: r, column: col, row })| {
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

/// `svg`, the drawing of `body` laid out as `l`, printed on A4 sheets with `pt`-point text
/// ([`crate::sheets::a4_sheets`], [`render_sheets`]) and written as NAME-1.png, NAME-2.png...
/// beside `output` (NAME.png), each first passed to `check` (which refuses a path it must not
/// write). Says what was written: how many sheets, their paper and the files.
pub fn write_sheets(
    output: &Path,
    svg: &str,
    (body, l): (&crate::Body, &crate::Layout),
    (pt, caption): (f64, &str),
    check: impl Fn(&Path) -> Result<(), String>,
) -> Result<String, String> {
    let sheets = crate::sheets::a4_sheets(body, l, pt);
    write_these_sheets(output, svg, &sheets, (pt, caption), check)
}

/// `svg` printed on `sheets` with `pt`-point text and written as NAME-1.png, NAME-2.png...
/// beside `output`, each first passed to `check`; says what was written.
pub fn write_these_sheets(
    output: &Path,
    svg: &str,
    sheets: &Sheets,
    (pt, caption): (f64, &str),
    check: impl Fn(&Path) -> Result<(), String>,
) -> Result<String, String> {
    let stem = output.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let paths: Vec<PathBuf> =
        (1..=sheets.list.len()).map(|k| output.with_file_name(format!("{stem}-{k}.png"))).collect();
    for p in &paths {
        check(p)?;
    }
    let images = render_sheets(svg, sheets, pt, caption)?;
    for (p, bytes) in paths.iter().zip(&images) {
        fbd_model::load::write_with(p, |w| std::io::Write::write_all(w, bytes))
            .map_err(|e| format!("{}: cannot write: {e}", p.display()))?;
    }
    let (cols, rows) = sheets.grid();
    let (n, paper) = (paths.len(), if sheets.portrait { "portrait" } else { "landscape" });
    Ok(format!(
        "{n} {} of A4 {paper} (cut {cols} across, {rows} down), text {pt} pt: {}{}",
        if n == 1 { "sheet" } else { "sheets" },
        paths[0].display(),
        if n > 1 { format!(" … {}", paths[n - 1].display()) } else { String::new() }
    ))
}
