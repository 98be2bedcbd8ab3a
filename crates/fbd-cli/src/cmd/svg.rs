//! `fbd svg`: a drawing of the program or one macro, laid out by fbd-layout, to standard output, an
//! SVG or PNG file, or A4 sheets.

use std::path::PathBuf;
use std::process::ExitCode;

use fbd_engine::CompileOptions;

use crate::error::Error;
use crate::out;

/// `fbd svg --after N`: the values of a run after N scans.
struct Online {
    pub(crate) scans: u64,
    pub(crate) seed: u64,
    pub(crate) sets: Vec<String>,
    pub(crate) instance: Option<String>,
}

/// Values read from a runtime by signal path: `prefix` + `block.pin` for block outputs, and the
/// body's input ports (program inputs, or the instance's macro pins).
struct RunValues {
    rt: fbd_engine::Runtime,
    prefix: String,
    instance: Option<String>,
    ids: Vec<String>,
    outs: Vec<Vec<String>>,
    inputs: Vec<String>,
}

impl RunValues {
    fn output_value(&self, node: usize, pin: usize) -> Option<fbd_engine::Value> {
        self.rt.read(&format!("{}{}.{}", self.prefix, self.ids[node], self.outs[node][pin])).ok()
    }
    fn port_value(&self, k: usize) -> Option<fbd_engine::Value> {
        let path = match &self.instance {
            Some(i) => format!("{i}.{}", self.inputs[k]),
            None => self.inputs[k].clone(),
        };
        self.rt.read(&path).ok()
    }
}

impl fbd_layout::svg::Values for RunValues {
    fn output(&self, node: usize, pin: usize) -> Option<String> {
        self.output_value(node, pin).map(|v| v.short())
    }
    fn input_port(&self, k: usize) -> Option<String> {
        self.port_value(k).map(|v| v.short())
    }
    fn output_exact(&self, node: usize, pin: usize) -> Option<String> {
        self.output_value(node, pin).map(|v| v.to_string())
    }
    fn input_port_exact(&self, k: usize) -> Option<String> {
        self.port_value(k).map(|v| v.to_string())
    }
}

fn online_values(
    project: &fbd_engine::load::Project,
    body: &fbd_layout::Body,
    macro_name: Option<&str>,
    o: Online,
) -> Result<RunValues, String> {
    let plan = fbd_engine::compile_project(project, &CompileOptions::default()).map_err(|e| e.to_string())?;
    let instance = match (macro_name, o.instance) {
        (None, _) => None,
        (Some(_), Some(i)) => Some(i),
        (Some(m), None) => Some(
            plan.instances
                .iter()
                .find(|i| i.macro_name == m)
                .map(|i| i.path.clone())
                .ok_or_else(|| format!("the program has no instance of macro `{m}`; give --instance"))?,
        ),
    };
    if let (Some(i), Some(m)) = (&instance, macro_name)
        && !plan.instances.iter().any(|x| &x.path == i && x.macro_name == m)
    {
        return Err(format!("`{i}` is not an instance of macro `{m}`"));
    }
    let mut rt = fbd_engine::Runtime::with_seed(plan, o.seed);
    // As `fbd run` reads them (`PATH=VALUE[@SCAN]`), every bad one said at once: the first
    // stopped the check, and an unknown signal came without the close names.
    let mut sets = Vec::new();
    let mut errors = Vec::new();
    for (k, text) in o.sets.iter().enumerate() {
        let set = crate::stimulus::parse_set(text, format!("--set #{}", k + 1)).and_then(|(s, _)| {
            crate::stimulus::value_for(&rt, &s.path, &s.value, &s.origin).map(|v| (s.scan, s.path, v))
        });
        match set {
            Ok(x) if x.0 >= o.scans && o.scans > 0 => {
                errors.push(format!("--set #{}: scan {} is not before --after {}", k + 1, x.0, o.scans))
            }
            Ok(x) => sets.push(x),
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(format!("{}\n{} error(s); nothing was drawn", errors.join("\nerror: "), errors.len()));
    }
    sets.sort_by_key(|s| s.0);
    // A long run shows how far it is (--after 10^11 ran for a day without a word).
    let bar = crate::out::scan_bar("running", o.scans);
    let mut next = 0;
    let mut scan = 0;
    loop {
        // Program inputs keep a value set; other signals are written once, before that scan.
        while next < sets.len() && sets[next].0 == scan {
            let (_, path, v) = &sets[next];
            if rt.plan().input(path).is_some() {
                rt.set_input(path, *v).map_err(|e| e.to_string())?;
            } else {
                rt.write(path, *v).map_err(|e| e.to_string())?;
            }
            next += 1;
        }
        if scan >= o.scans {
            break;
        }
        let until = sets.get(next).map_or(o.scans, |s| s.0).min(scan + (1 << 16));
        rt.step_n(until - scan);
        bar.inc(until - scan);
        scan = until;
    }
    bar.finish_and_clear();
    Ok(RunValues {
        rt,
        prefix: instance.as_ref().map(|i| format!("{i}/")).unwrap_or_default(),
        instance,
        ids: body.nodes.iter().map(|n| n.id.clone()).collect(),
        outs: body.nodes.iter().map(|n| n.outputs.clone()).collect(),
        inputs: body.inputs.clone(),
    })
}

/// How `fbd svg` lays the body out.
struct How {
    /// Afresh, not at the stored positions.
    pub auto: bool,
    /// Long nets as connector pairs.
    pub connectors: bool,
    /// One page (number from 1, or name) of a body drawn on pages.
    pub page: Option<String>,
    /// A body drawn on pages as one drawing.
    pub whole: bool,
    /// Printed on A4 sheets at a legible size (`-o NAME.png`: NAME-1.png...).
    pub sheets: bool,
}

/// A page drawn alone: its body, its blocks' stored positions and its name.
type PickedPage = (fbd_layout::Body, Vec<Option<[f64; 2]>>, String);

/// The page `which` (its number from 1, or its name) of `body` among `pages`, with the stored
/// positions of its blocks; an error lists the pages.
fn pick_page(
    body: &fbd_layout::Body,
    pages: &[(String, Vec<usize>)],
    positions: &[Option<[f64; 2]>],
    which: &str,
) -> Result<PickedPage, String> {
    if pages.is_empty() {
        return Err(format!("this body has no pages (a body lists them in `pages`); drop --page {which}"));
    }
    let k = match which.parse::<usize>() {
        Ok(n) if (1..=pages.len()).contains(&n) => n - 1,
        _ => pages.iter().position(|(name, _)| name == which).ok_or_else(|| {
            let list: Vec<String> = pages.iter().enumerate().map(|(k, (n, _))| format!("{} {n}", k + 1)).collect();
            format!("no page `{which}`; the pages are: {}", list.join(", "))
        })?,
    };
    let (page, back) = fbd_layout::page::page_body(body, &pages[k].1);
    let pos = fbd_layout::page::page_positions(positions, &back);
    Ok((page, pos, pages[k].0.clone()))
}

/// A body drawn on pages: the body, its blocks' stored positions, its pages (name, blocks).
type PagedBody<'a> = (&'a fbd_layout::Body, &'a [Option<[f64; 2]>], &'a [(String, Vec<usize>)]);

/// `fbd svg` of a body drawn on pages: every page laid out at its blocks' stored positions
/// (nets to other pages as connectors), one under another.
fn svg_pages(
    project: &fbd_engine::load::Project,
    file: &std::path::Path,
    macro_name: Option<&str>,
    output: Option<&std::path::Path>,
    (body, positions, pages): PagedBody<'_>,
    connectors: bool,
) -> Result<ExitCode, Error> {
    let mut opts = fbd_layout::Options::default();
    if connectors {
        opts = opts.with_connectors(fbd_layout::ConnectorRule::DEFAULT);
    }
    let laid: Vec<(String, fbd_layout::Body, fbd_layout::Layout)> = pages
        .iter()
        .map(|(name, nodes)| {
            let (page, back) = fbd_layout::page::page_body(body, nodes);
            let pos = fbd_layout::page::page_positions(positions, &back);
            let l = fbd_layout::layout_kept_with(&page, &pos, &opts);
            (name.clone(), page, l)
        })
        .collect();
    let title = match macro_name {
        Some(m) => format!("{m} ({})", file.display()),
        None => project.root().name.clone().unwrap_or_else(|| file.display().to_string()),
    };
    let text = fbd_layout::svg::svg_pages(&laid, &title);
    let Some(p) = output else {
        return out::print(&text);
    };
    write_drawing(p, &text)?;
    let crossings: usize = laid.iter().map(|(_, _, l)| l.stats.crossings).sum();
    eprintln!(
        "{}: {} pages, {} blocks, {} crossings in all (--page N draws one, --auto the whole body afresh)",
        p.display(),
        laid.len(),
        body.nodes.len(),
        crossings
    );
    Ok(ExitCode::SUCCESS)
}

fn svg(
    file: &std::path::Path,
    macro_name: Option<&str>,
    output: Option<&std::path::Path>,
    online: Option<Online>,
    how: How,
) -> Result<ExitCode, Error> {
    let project = crate::source::load_file(file).map_err(|e| Error::Rejected(file.to_path_buf(), e))?;
    if let Some(o) = output {
        crate::guard::not_an_input(o, "-o", &crate::guard::project_inputs(&project))?;
    }
    let body = fbd_layout::from_model::body(&project, macro_name)?;
    if let Some((blocks, ladder)) = ladder_of(&project, macro_name) {
        return ladder_svg(&project, (file, macro_name, output), (blocks, ladder), (&body, online), how.sheets);
    }
    if let Some(st) = st_of(&project, macro_name) {
        return st_svg(&project, (file, macro_name, output), st, (&body, online));
    }
    let mut positions = fbd_layout::from_model::positions(&project, macro_name);
    // A body drawn on pages, asked for as a whole drawing at its stored positions: its pages, as
    // the window draws them (the whole top level of the 2048 program was one body of wires,
    // 7,207 crossings).
    let pages = fbd_layout::from_model::pages(&project, macro_name);
    if how.page.is_none() && !how.whole && online.is_none() && !how.auto && !how.sheets && !pages.is_empty() {
        return svg_pages(&project, file, macro_name, output, (&body, &positions, &pages), how.connectors);
    }
    let (body, page_name) = match how.page.as_deref() {
        None => (body, None),
        Some(which) => {
            let (page, pos, name) =
                pick_page(&body, &fbd_layout::from_model::pages(&project, macro_name), &positions, which)?;
            positions = pos;
            (page, Some(name))
        }
    };
    // Values are written beside the output pins: the channels keep room for them.
    let mut opts = if online.is_some() { fbd_layout::Options::WITH_VALUES } else { fbd_layout::Options::default() };
    if how.connectors {
        opts = opts.with_connectors(fbd_layout::ConnectorRule::DEFAULT);
    }
    let l = if how.auto {
        fbd_layout::layout_with(&body, &opts)
    } else {
        fbd_layout::layout_kept_with(&body, &positions, &opts)
    };
    let mut title = match macro_name {
        Some(m) => format!("{m} ({})", file.display()),
        None => project.root().name.clone().unwrap_or_else(|| file.display().to_string()),
    };
    if let Some(p) = page_name {
        title = format!("{title}, page {p}");
    }
    let text = match online {
        None => fbd_layout::svg::svg(&body, &l, &title, &fbd_layout::svg::NoValues),
        Some(o) => {
            let scans = o.scans;
            let v = online_values(&project, &body, macro_name, o)?;
            let title = match &v.instance {
                Some(i) => format!("{title}, instance {i}, after {scans} scans"),
                None => format!("{title}, after {scans} scans"),
            };
            fbd_layout::svg::svg(&body, &l, &title, &v)
        }
    };
    // A `.png` output is the drawing rendered to fit A4 landscape at 300 dpi.
    let png = output.is_some_and(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")));
    if how.sheets {
        let Some(p) = output.filter(|_| png) else {
            return Err("--sheets prints PNG images: name the output NAME.png (-o NAME.png)".into());
        };
        let inputs = crate::guard::project_inputs(&project);
        let check = |path: &std::path::Path| crate::guard::not_an_input(path, "--sheets", &inputs);
        let said =
            fbd_layout::png::write_sheets(p, &text, (&body, &l), (fbd_layout::sheets::PRINT_TEXT_PT, &title), check)?;
        eprintln!("{said}");
        return Ok(ExitCode::SUCCESS);
    }
    let Some(p) = output else { return out::print(&text) };
    write_drawing(p, &text)?;
    eprintln!(
        "{}: {} blocks, {} crossings, {} bends, wire length {:.0}",
        p.display(),
        body.nodes.len(),
        l.stats.crossings,
        l.stats.bends,
        l.stats.length
    );
    Ok(ExitCode::SUCCESS)
}

/// The ST lines of an ST body (the program's, or macro `name`'s).
fn st_of<'p>(project: &'p fbd_engine::load::Project, name: Option<&str>) -> Option<&'p [String]> {
    let st = match name {
        None => &project.root().st,
        Some(m) => &project.macro_def(m)?.2.st,
    };
    (!st.is_empty()).then_some(st.as_slice())
}

/// `fbd svg` of an ST body: its listing (fbd_layout::st), after a run (`--after N`) with the
/// values its lines name beside each line.
fn st_svg(
    project: &fbd_engine::load::Project,
    (file, macro_name, output): (&std::path::Path, Option<&str>, Option<&std::path::Path>),
    st: &[String],
    (body, online): (&fbd_layout::Body, Option<Online>),
) -> Result<ExitCode, Error> {
    let mut title = match macro_name {
        Some(m) => format!("{m} ({}), Structured Text", file.display()),
        None => project.root().name.clone().unwrap_or_else(|| file.display().to_string()),
    };
    let text = match online {
        None => fbd_layout::st::svg(st, &title, &|_| None),
        Some(o) => {
            title = format!("{title}, after {} scans", o.scans);
            let v = online_values(project, body, macro_name, o)?;
            let prefix = v.instance.as_ref().map(|i| format!("{i}/")).unwrap_or_default();
            let value = |name: &str| {
                let member = name.split_once('.').map(|(i, p)| format!("{prefix}{i}.{}", p.to_ascii_lowercase()));
                let pin = v.instance.as_ref().map(|i| format!("{i}.{name}"));
                [Some(format!("{prefix}{name}")), member, pin]
                    .into_iter()
                    .flatten()
                    .find_map(|p| v.rt.read(&p).ok())
                    .map(|x| x.to_string())
            };
            fbd_layout::st::svg(st, &title, &value)
        }
    };
    let Some(p) = output else { return out::print(&text) };
    write_drawing(p, &text)?;
    eprintln!("{}: {} lines of Structured Text", p.display(), st.len());
    Ok(ExitCode::SUCCESS)
}

/// The blocks and network of a ladder body (the program's, or macro `name`'s).
fn ladder_of<'p>(
    project: &'p fbd_engine::load::Project,
    name: Option<&str>,
) -> Option<(&'p [fbd_engine::model::Block], &'p [fbd_engine::model::LdElement])> {
    let (blocks, ladder) = match name {
        None => (&project.root().blocks, &project.root().ladder),
        Some(n) => {
            let (_, _, m) = project.macro_def(n)?;
            (&m.blocks, &m.ladder)
        }
    };
    (!ladder.is_empty()).then_some((blocks.as_slice(), ladder.as_slice()))
}

/// `fbd svg` of a ladder body: rails, rungs, contacts, coils and blocks (fbd_layout::ladder),
/// the power flow coloured after a run (`--after N`: energised green, open blue).
fn ladder_svg(
    project: &fbd_engine::load::Project,
    (file, macro_name, output): (&std::path::Path, Option<&str>, Option<&std::path::Path>),
    (blocks, ladder): (&[fbd_engine::model::Block], &[fbd_engine::model::LdElement]),
    (body, online): (&fbd_layout::Body, Option<Online>),
    sheets: bool,
) -> Result<ExitCode, Error> {
    let pins: Vec<(Vec<String>, Vec<String>)> = blocks.iter().map(|b| project.block_pins(b)).collect();
    let d = fbd_layout::ladder::drawing(blocks, &pins, ladder);
    let mut title = match macro_name {
        Some(m) => format!("{m} ({})", file.display()),
        None => project.root().name.clone().unwrap_or_else(|| file.display().to_string()),
    };
    let text = match online {
        None => fbd_layout::ladder::svg(&d, blocks, ladder, &title, &|_| None),
        Some(o) => {
            title = format!("{title}, after {} scans", o.scans);
            let v = online_values(project, body, macro_name, o)?;
            let prefix = v.instance.as_ref().map(|i| format!("{i}/")).unwrap_or_default();
            let read = |path: &str| match v.rt.read(&format!("{prefix}{path}")) {
                Ok(fbd_engine::Value::Bool(b)) => Some(b),
                _ => None,
            };
            let powered = |from: &str| fbd_layout::ladder::powered(ladder, from, &read);
            fbd_layout::ladder::svg(&d, blocks, ladder, &title, &powered)
        }
    };
    if sheets {
        let Some(p) = output.filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png"))) else {
            return Err("--sheets prints PNG images: name the output NAME.png (-o NAME.png)".into());
        };
        let inputs = crate::guard::project_inputs(project);
        let check = |path: &std::path::Path| crate::guard::not_an_input(path, "--sheets", &inputs);
        let pt = fbd_layout::sheets::PRINT_TEXT_PT;
        let sheets = fbd_layout::ladder::a4_sheets(&d, pt);
        eprintln!("{}", fbd_layout::png::write_these_sheets(p, &text, &sheets, (pt, &title), check)?);
        return Ok(ExitCode::SUCCESS);
    }
    let Some(p) = output else { return out::print(&text) };
    write_drawing(p, &text)?;
    eprintln!("{}: {} ladder elements, {} blocks", p.display(), ladder.len(), blocks.len());
    Ok(ExitCode::SUCCESS)
}

/// Writes a drawing to `p`: the SVG text, or (`.png`) rendered to fit A4 landscape at 300 dpi.
fn write_drawing(p: &std::path::Path, text: &str) -> Result<(), String> {
    let png = p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png"));
    let written = if png {
        fbd_layout::png::render_a4(text)
            .map_err(std::io::Error::other)
            .and_then(|bytes| fbd_engine::load::write_with(p, |w| w.write_all(&bytes)))
    } else {
        fbd_engine::load::write_text(p, text)
    };
    written.map_err(|e| format!("{}: cannot write: {e}", p.display()))
}

/// Arguments of `fbd svg`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The diagram (JSON), or a PLCopen XML file (`.xml`).
    file: PathBuf,
    /// Draw this macro's body instead of the program.
    #[arg(long = "macro")]
    macro_name: Option<String>,
    /// Write to this file instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Run this many scans first and print the values beside the pins (online view).
    #[arg(long)]
    after: Option<u64>,
    /// Runtime seed for RANDOM blocks (with --after).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Set a program input (it keeps the value) or write a signal (once) before a scan:
    /// PATH=VALUE or PATH=VALUE@SCAN (SCAN defaults to 0), as `fbd run --set`. Repeatable.
    #[arg(long = "set", value_name = "PATH=VALUE[@SCAN]")]
    sets: Vec<String>,
    /// With --macro and --after: the instance whose values to show (default: the first).
    #[arg(long)]
    instance: Option<String>,
    /// Lay the body out afresh instead of keeping the blocks' stored positions.
    #[arg(long)]
    auto: bool,
    /// Draw long nets (crossing more than 12 other wires, or longer than 120 grid steps)
    /// as a connector at the source and a continuation at each target, named after the
    /// source, instead of a wire across the page.
    #[arg(long)]
    connectors: bool,
    /// Draw one page of a body drawn on pages: its number (from 1) or its name. Nets to and
    /// from other pages are drawn as connectors named after their source.
    #[arg(long, conflicts_with = "whole")]
    page: Option<String>,
    /// Draw a body drawn on pages as one drawing, not page by page (the default draws its
    /// pages one under another, as the window shows them).
    #[arg(long)]
    whole: bool,
    /// With `-o NAME.png`: print on A4 sheets (landscape or portrait, whichever takes fewer)
    /// with the text 8 pt high, the drawing cut between blocks where it does not fit one
    /// sheet; writes NAME-1.png, NAME-2.png...
    #[arg(long, requires = "output")]
    sheets: bool,
}

/// Runs `fbd svg`.
pub(crate) fn run(a: Args) -> Result<ExitCode, Error> {
    let Args { file, macro_name, output, after, seed, sets, instance, auto, connectors, page, whole, sheets } = a;
    let online = after.map(|n| Online { scans: n, seed, sets, instance });
    svg(&file, macro_name.as_deref(), output.as_deref(), online, How { auto, connectors, page, whole, sheets })
}
