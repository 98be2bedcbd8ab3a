//! `fbd svg` and `fbd layout`: drawings of a program or macro, laid out by fbd-layout.

use std::process::ExitCode;

use fbd_engine::{CompileOptions, load};

use crate::{out, rejected};

/// `fbd svg --after N`: the values of a run after N scans.
pub(crate) struct Online {
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
        let set = crate::stimulus::parse_set(text, format!("--set #{}", k + 1))
            .and_then(|(s, _)| crate::run::value_for(&rt, &s.path, &s.value, &s.origin).map(|v| (s.scan, s.path, v)));
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
pub(crate) struct How {
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
) -> ExitCode {
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
    let png = output.is_some_and(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")));
    let Some(p) = output else {
        out::print(&text);
        return ExitCode::SUCCESS;
    };
    let written = if png {
        fbd_layout::png::render_a4(&text)
            .map_err(std::io::Error::other)
            .and_then(|bytes| fbd_engine::load::write_with(p, |w| w.write_all(&bytes)))
    } else {
        fbd_engine::load::write_text(p, &text)
    };
    match written {
        Ok(()) => {
            let crossings: usize = laid.iter().map(|(_, _, l)| l.stats.crossings).sum();
            eprintln!(
                "{}: {} pages, {} blocks, {} crossings in all (--page N draws one, --auto the whole body afresh)",
                p.display(),
                laid.len(),
                body.nodes.len(),
                crossings
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            out::error(&format!("{}: cannot write: {e}", p.display()));
            ExitCode::FAILURE
        }
    }
}

pub(crate) fn svg(
    file: &std::path::Path,
    macro_name: Option<&str>,
    output: Option<&std::path::Path>,
    online: Option<Online>,
    how: How,
) -> ExitCode {
    let project = match crate::source::load_file(file) {
        Ok(p) => p,
        Err(e) => return rejected(file, &e),
    };
    if let Some(Err(e)) = output.map(|o| crate::guard::not_an_input(o, "-o", &crate::guard::project_inputs(&project))) {
        out::error(&e);
        return ExitCode::FAILURE;
    }
    let body = match fbd_layout::from_model::body(&project, macro_name) {
        Ok(b) => b,
        Err(e) => {
            out::error(&e);
            return ExitCode::FAILURE;
        }
    };
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
            match pick_page(&body, &fbd_layout::from_model::pages(&project, macro_name), &positions, which) {
                Ok((page, pos, name)) => {
                    positions = pos;
                    (page, Some(name))
                }
                Err(e) => {
                    out::error(&e);
                    return ExitCode::FAILURE;
                }
            }
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
            match online_values(&project, &body, macro_name, o) {
                Ok(v) => {
                    let title = match &v.instance {
                        Some(i) => format!("{title}, instance {i}, after {scans} scans"),
                        None => format!("{title}, after {scans} scans"),
                    };
                    fbd_layout::svg::svg(&body, &l, &title, &v)
                }
                Err(e) => {
                    out::error(&e);
                    return ExitCode::FAILURE;
                }
            }
        }
    };
    // A `.png` output is the drawing rendered to fit A4 landscape at 300 dpi.
    let png = output.is_some_and(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")));
    if how.sheets {
        let Some(p) = output.filter(|_| png) else {
            out::error("--sheets prints PNG images: name the output NAME.png (-o NAME.png)");
            return ExitCode::FAILURE;
        };
        let inputs = crate::guard::project_inputs(&project);
        let check = |path: &std::path::Path| crate::guard::not_an_input(path, "--sheets", &inputs);
        return match fbd_layout::png::write_sheets(
            p,
            &text,
            (&body, &l),
            (fbd_layout::sheets::PRINT_TEXT_PT, &title),
            check,
        ) {
            Ok(said) => {
                eprintln!("{said}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                out::error(&e);
                ExitCode::FAILURE
            }
        };
    }
    let written = |p: &std::path::Path| {
        if png {
            let bytes = fbd_layout::png::render_a4(&text).map_err(std::io::Error::other)?;
            fbd_engine::load::write_with(p, |w| w.write_all(&bytes))
        } else {
            fbd_engine::load::write_text(p, &text)
        }
    };
    match output {
        None => out::print(&text),
        Some(p) => match written(p) {
            Ok(()) => {
                eprintln!(
                    "{}: {} blocks, {} crossings, {} bends, wire length {:.0}",
                    p.display(),
                    body.nodes.len(),
                    l.stats.crossings,
                    l.stats.bends,
                    l.stats.length
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                out::error(&format!("{}: cannot write: {e}", p.display()));
                ExitCode::FAILURE
            }
        },
    }
}

pub(crate) fn layout_cmd(file: &std::path::Path, write: bool, connectors: bool) -> ExitCode {
    if write && file.extension().is_some_and(|e| e.eq_ignore_ascii_case("xml")) {
        out::error(&format!("{}: --write stores positions in diagram files; `fbd import` it first", file.display()));
        return ExitCode::FAILURE;
    }
    let project = match crate::source::load_file(file) {
        Ok(p) => p,
        Err(e) => return rejected(file, &e),
    };
    let mut names: Vec<Option<&str>> = vec![None];
    let mut macros: Vec<&str> = project.macros.keys().map(String::as_str).collect();
    macros.sort_unstable();
    names.extend(macros.into_iter().map(Some));
    let mut report = String::new();
    for name in names {
        let Ok(b) = fbd_layout::from_model::body(&project, name) else { continue };
        if b.nodes.is_empty() {
            continue;
        }
        let opts = fbd_layout::Options::default();
        let opts = if connectors { opts.with_connectors(fbd_layout::ConnectorRule::DEFAULT) } else { opts };
        let l = fbd_layout::layout_with(&b, &opts);
        let pairs = if connectors { format!(" {:>4} connectors", l.connectors.len()) } else { String::new() };
        report.push_str(&format!(
            "{:<24} {:>5} blocks {:>6} crossings {:>5} bends  wire length {:.0}{pairs}\n",
            name.unwrap_or("(program)"),
            b.nodes.len(),
            l.stats.crossings,
            l.stats.bends,
            l.stats.length
        ));
    }
    if write {
        // Every file whose positions moved or that is not in canonical form (one whose
        // positions stayed was left as it was, though --write says canonical).
        let moved = fbd_layout::from_model::with_positions(&project);
        let files: Vec<(std::path::PathBuf, String)> = project
            .files
            .iter()
            .filter_map(|f| {
                let text = moved.iter().find(|(p, _)| *p == f.path).map_or(f.text.as_str(), |(_, t)| t.as_str());
                let canonical = match load::parse_document(&f.path, text) {
                    Ok(doc) => fbd_edit::format::to_text(&doc),
                    Err(_) => text.to_string(),
                };
                (canonical != f.text).then(|| (f.path.clone(), canonical))
            })
            .collect();
        // The program and its libraries all or none: a library that cannot be written leaves
        // the program as it was too.
        let refs: Vec<(&std::path::Path, &str)> = files.iter().map(|(p, t)| (p.as_path(), t.as_str())).collect();
        if let Err((path, e)) = load::write_texts(&refs) {
            out::error(&format!("{}: cannot write: {e}", path.display()));
            return ExitCode::FAILURE;
        }
        for (path, _) in &files {
            report.push_str(&format!("wrote positions into {}\n", path.display()));
        }
    }
    out::print(&report)
}

pub(crate) fn fmt_cmd(files: &[std::path::PathBuf], check: bool) -> ExitCode {
    let mut failed = false;
    let mut report = String::new();
    for f in files {
        // A PLCopen file is another tool's format, not one fmt writes (it said "a diagram is a
        // JSON object, but the file starts with `<`").
        if f.extension().is_some_and(|e| e.eq_ignore_ascii_case("xml")) {
            out::error(&format!(
                "{}: `fbd fmt` rewrites diagram files; a PLCopen XML file is left as it is (`fbd import` it to get one)",
                f.display()
            ));
            failed = true;
            continue;
        }
        let text = match load::read_text(f) {
            Ok(t) => t,
            Err(e) => {
                out::error(&e.to_string());
                failed = true;
                continue;
            }
        };
        let doc = match load::parse_document(f, &text) {
            Ok(d) => d,
            Err(e) => {
                out::error(&e.to_string());
                failed = true;
                continue;
            }
        };
        let canonical = fbd_edit::format::to_text(&doc);
        if canonical == text {
            continue;
        }
        if check {
            report.push_str(&format!("{}: not in canonical form (run `fbd fmt` on it)\n", f.display()));
            failed = true;
        } else if let Err(e) = load::write_text(f, &canonical) {
            out::error(&format!("{}: cannot write: {e}", f.display()));
            failed = true;
        } else {
            report.push_str(&format!("formatted {}\n", f.display()));
        }
    }
    let code = out::print(&report);
    if failed { ExitCode::FAILURE } else { code }
}
