//! PLCopen TC6 XML for FBD and ladder programs: [`import`] reads what CODESYS, OpenPLC Editor and Beremiz
//! write (`plc.xml`), [`export`] writes a project those tools open. No GUI; the `fbd` tool and
//! the HMI are clients.
//!
//! What is where: PLCopen TC6 XML: `import` (v2.01, v2.00, v1.0 namespaces; program POU of the
//! cyclic task → top level; several program instances → one macro instance each, under an EN its
//! task's tick sets, the globals routed between them in declared order (`import/project.rs`);
//! function blocks and functions → macros (a function's result is its `OUT`); blocks, in/out
//! variables, connectors/continuations, negated inputs and outputs of blocks and POU instances as
//! negated pins, every modifier not honoured, every jump, label, return and action block and every
//! in-out parameter refused with its place (`import/modifiers.rs`), ladder (LD) bodies as the
//! model's ladder networks (`import/rungs.rs`: rails, contacts, coils and outVariables element for
//! element with their positions, the POU's variables as the body's, the blocks imported as an FBD
//! body's; the compiler runs them as Beremiz's generator writes them), edge inputs as R_TRIG/F_TRIG
//! blocks, IEC literals, the body's statement sequence as Beremiz's generator writes it
//! (`import/order.rs`) and what each read sees in it (`import/reads.rs`: a variable or block output
//! read before its write is the previous scan's value, from the variable's initial value) →
//! feedback wires, documentation and comment boxes → comments and descriptions (`import/text.rs`),
//! structures flattened into a variable per member (`import/structs.rs`); extension libraries'
//! blocks, types and globals as stand-ins from description files (`import/extensions.rs`,
//! `stand-ins/*.json`, a user's `stand-ins.json` beside the file); every local variable by its IEC
//! name (a connector, which the plan names as a signal); what it would silently change refused at
//! its place (`import/checks.rs`: globals, undeclared or non-structure derived types, duplicate
//! localIds and connectors, formal parameters a block does not have); every problem with line:col)
//! and `export` (v2.01, standard blocks by IEC name, stand-in function blocks with ST bodies for
//! the library's non-IEC blocks and the timers (`stand_in.rs`: their IEC-legal names and renamed
//! pins, both ways), ports another tool cannot take renamed `FBD_…` and listed in the project's
//! `addData` (`reserved.rs`, both ways), constants as literals typed for their pin, feedback wires
//! as variables written at the end of the body, the cycle as the task interval, comments and
//! descriptions as `documentation`; a drawing other tools open as it is: blocks where the diagram
//! has them (the rest laid out) with their sizes and pin connection points, one variable box per
//! body input and output at its port, constants and feedback reads left of their pin, nothing over
//! anything: `export/body.rs`, `geometry.rs`; a ladder body as LD, its network element for
//! element in order, its blocks without execution order, its variables as locals:
//! `export/body/ladder.rs`)

mod export;
mod geometry;
mod import;
pub mod literal;
mod reserved;
mod stand_in;

pub use export::export;

/// Why `project` cannot be exported yet, if it cannot (nothing is written then):
/// - a variable that starts afresh every scan (`temp`) outside a FUNCTION (an ST macro whose
///   variables all are, with its result as its one output `OUT`, is written as a FUNCTION): a
///   function block's variable would keep its value (another program);
/// - in an ST body, a name another IEC tool cannot take (`step`, a keyword of SFC): the export
///   renames such names in a diagram's wires, not inside a text.
pub fn not_exportable(project: &fbd_model::load::Project) -> Option<String> {
    let mut why = Vec::new();
    let bodies = project.files.iter().flat_map(|f| {
        let program = std::iter::once((
            "the program".to_string(),
            &f.doc.variables,
            &f.doc.st,
            port_names(&f.doc.inputs, &f.doc.outputs),
            false,
        ));
        program.chain(f.doc.macros.iter().map(|m| {
            let ins: Vec<String> = m.inputs.iter().map(|p| p.name.clone()).collect();
            let outs = m.outputs.iter().map(|p| p.name.clone());
            (
                format!("`{}`", m.name),
                &m.variables,
                &m.st,
                ins.into_iter().chain(outs).collect(),
                export::is_function(m),
            )
        }))
    });
    for (name, variables, st, ports, function) in bodies {
        if !function && variables.iter().any(|v| v.temp) {
            why.push(format!(
                "{name} has variables that start afresh every scan (a FUNCTION's), which the export does not write yet"
            ));
        }
        if !st.is_empty() {
            let mut bad: Vec<&str> = variables
                .iter()
                .map(|v| v.name.as_str())
                .chain(ports.iter().map(String::as_str))
                .filter(|n| reserved::iec_name(n) != *n)
                .collect();
            bad.sort_unstable();
            bad.dedup();
            if !bad.is_empty() {
                why.push(format!("{name} is Structured Text naming {}, which another IEC tool reads as a keyword or a standard name: rename {}", bad.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", "), if bad.len() == 1 { "it" } else { "them" }));
            }
        }
    }
    (!why.is_empty()).then(|| format!("{}: nothing was exported", why.join("; ")))
}

/// The names of a program's ports.
fn port_names(inputs: &[fbd_model::model::ProgramInput], outputs: &[fbd_model::model::PortOut]) -> Vec<String> {
    inputs.iter().map(|p| p.name.clone()).chain(outputs.iter().map(|p| p.name.clone())).collect()
}
pub use import::{Imported, import};

use std::path::Path;

use fbd_compiler::{CompileOptions, compile_lean, compile_project};
use fbd_model::Diagnostics;
use fbd_model::load::{FsProvider, Project, ProjectOf, load, load_lean, read_text};
use fbd_model::model::LeanBlock;
use fbd_plan::ScanPlan;

/// Loads a diagram from disk whatever its format: `.xml` is PLCopen XML (imported on the way
/// in, its warnings returned), anything else the diagram format.
pub fn load_any(path: &Path) -> Result<(Project, Vec<String>), Diagnostics> {
    if is_xml(path) {
        let text = read_text(path)?;
        let imported = import(path, &text)?;
        let project = imported_project(&imported, path)?;
        Ok((project, imported.warnings))
    } else {
        // A file of an older format version is read as the current one: said, with how.
        let project = load(&FsProvider, path)?;
        let notices = project.notices();
        Ok((project, notices))
    }
}

/// [`load_any`] for the compiler: a diagram file's blocks are read as [`LeanBlock`]s, so a
/// large program is never held as `Block`s; an imported program is turned lean after import.
pub fn load_any_lean(path: &Path) -> Result<(ProjectOf<LeanBlock>, Vec<String>), Diagnostics> {
    if is_xml(path) {
        let (project, warnings) = load_any(path)?;
        Ok((project.map_blocks(LeanBlock::from), warnings))
    } else {
        let project = load_lean(&FsProvider, path)?;
        let notices = project.notices();
        Ok((project, notices))
    }
}

fn is_xml(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("xml"))
}

/// The program `imported` from the XML file `xml`, loaded and compiled once: an error the
/// compiler finds in it points into the XML file (the element its block comes from), not
/// into the diagram the import made, which the user has not seen.
pub fn imported_project(imported: &Imported, xml: &Path) -> Result<Project, Diagnostics> {
    // The document as the import built it, not a parse of its text; the text is the program's
    // for the editor and a recording's file hash.
    let json = serde_json::to_string(&imported.doc).expect("a document serialises");
    let project = fbd_model::load::project_of_document(xml, imported.doc.clone(), json)
        .map_err(|e| relocate(e, imported, xml))?;
    compile_project(&project, &CompileOptions::default()).map_err(|e| relocate(e, imported, xml))?;
    Ok(project)
}

/// The place in the XML file of an error the compiler found in an ST body (`` `pou`: ST 3:5: ..``
/// or, in the program, `ST 3:5: ..`): the body's text start moved by the line and column.
fn st_place(message: &str, imported: &Imported) -> Option<(usize, usize)> {
    let (pou, rest) = match message.strip_prefix('`').and_then(|m| m.split_once("`: ")) {
        Some((pou, rest)) => (pou.to_string(), rest),
        None => (String::new(), message),
    };
    let (line, rest) = rest.strip_prefix("ST ")?.split_once(':')?;
    let col = rest.split_once(':')?.0;
    let (line, col): (usize, usize) = (line.parse().ok()?, col.parse().ok()?);
    let (l0, c0) = *imported.places.get(&(pou, import::st::ST_TEXT.to_string()))?;
    Some(if line == 1 { (l0, c0 + col - 1) } else { (l0 + line - 1, col) })
}

/// Diagnostics about the diagram imported from `xml` moved to the XML file: each at the element
/// of its block (followed through macro instances), or without a place where it has no block.
pub fn relocate(e: Diagnostics, imported: &Imported, xml: &Path) -> Diagnostics {
    let doc = &imported.doc;
    let blocks_of = |pou: &str| -> &[fbd_model::model::Block] {
        if pou.is_empty() { &doc.blocks } else { doc.macros.iter().find(|m| m.name == pou).map_or(&[], |m| &m.blocks) }
    };
    let place = |path: &str| -> Option<(usize, usize)> {
        let segs: Vec<&str> = path.split('/').collect();
        let (last, inner) = segs.split_last()?;
        let mut pou = String::new();
        let mut outer = None;
        for seg in inner {
            outer = outer.or_else(|| imported.places.get(&(pou.clone(), seg.to_string())).copied());
            pou = blocks_of(&pou).iter().find(|b| b.id == *seg)?.ty.clone();
        }
        let id = last.split(':').next().unwrap_or(last);
        imported.places.get(&(pou, id.to_string())).copied().or(outer)
    };
    Diagnostics(
        e.0.into_iter()
            .map(|mut d| {
                if d.file == xml {
                    if let Some(at) = st_place(&d.message, imported) {
                        (d.line, d.col) = (Some(at.0), Some(at.1));
                        return d;
                    }
                    let at = d.block.as_deref().and_then(place);
                    d.line = at.map(|p| p.0);
                    d.col = at.map(|p| p.1);
                }
                d
            })
            .collect(),
    )
}

/// Loads and compiles a diagram in either format (see [`load_any`]).
pub fn compile_any(path: &Path) -> Result<ScanPlan, Diagnostics> {
    let (project, _) = load_any_lean(path)?;
    compile_lean(project, &CompileOptions::default())
}
