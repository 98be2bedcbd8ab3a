//! `fbd layout`: every body laid out afresh, with its crossings, bends and wire length; with
//! `--write`, the positions stored in the diagram files.

use std::path::PathBuf;
use std::process::ExitCode;

use fbd_engine::load;

use crate::error::Error;
use crate::out;

/// Arguments of `fbd layout`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The diagram (JSON), or a PLCopen XML file (`.xml`; not with --write).
    file: PathBuf,
    /// Write the positions into the diagram and the library files it includes.
    #[arg(long)]
    write: bool,
    /// Report the figures with long nets drawn as connector pairs (as `fbd svg --connectors`
    /// and the window's online view draw them), and how many nets became connectors.
    #[arg(long)]
    connectors: bool,
}

/// Runs `fbd layout`.
pub(crate) fn run(Args { file, write, connectors }: Args) -> Result<ExitCode, Error> {
    let file = file.as_path();
    if write && file.extension().is_some_and(|e| e.eq_ignore_ascii_case("xml")) {
        return Err(
            format!("{}: --write stores positions in diagram files; `fbd import` it first", file.display()).into()
        );
    }
    let project = crate::source::load_file(file).map_err(|e| Error::Rejected(file.to_path_buf(), e))?;
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
        load::write_texts(&refs).map_err(|(path, e)| format!("{}: cannot write: {e}", path.display()))?;
        for (path, _) in &files {
            report.push_str(&format!("wrote positions into {}\n", path.display()));
        }
    }
    out::print(&report)
}
