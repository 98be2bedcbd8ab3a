//! A test table file read, and the program (or the macro) it tests loaded and compiled.

use std::path::{Path, PathBuf};

use fbd_engine::load::{Project, SourceFile};
use fbd_engine::model::{Block, PinNames, Pins, PortOut, ProgramInput, TypeName, Wire};
use fbd_engine::{CompileOptions, ScanPlan, compile_project};

use crate::table::{FORMAT_VERSION, TableFile};

/// A table file ready to run.
pub struct Loaded {
    /// The file as given.
    pub path: PathBuf,
    /// Its text (to say where a failing row is written).
    pub text: String,
    /// Its tables.
    pub table: TableFile,
    /// The program under test, compiled (for a macro: a program of one instance, `uut`).
    pub plan: ScanPlan,
    /// The program under test as loaded (for a macro: that program of one instance).
    pub project: Project,
    /// What importing it said (a PLCopen program's warnings).
    pub warnings: Vec<String>,
}

/// Reads the table file at `path` and compiles what it tests. An error names the file and the
/// place (line:col) of what is wrong, or carries the program's own diagnostics.
pub fn load(path: &Path) -> Result<Loaded, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let table: TableFile =
        serde_json::from_str(&text).map_err(|e| format!("{}:{}:{}: {e}", path.display(), e.line(), e.column()))?;
    if table.fbd_test != FORMAT_VERSION {
        return Err(format!(
            "{}: test format version {} (this runner reads version {FORMAT_VERSION})",
            path.display(),
            table.fbd_test
        ));
    }
    if table.tests.is_empty() {
        return Err(format!("{}: no tests (`tests` is empty)", path.display()));
    }
    let program = path.parent().unwrap_or(Path::new(".")).join(&table.program);
    // A diagram, or a PLCopen project imported on the way in (its POUs are macros to test).
    let (project, warnings) = fbd_plcopen::load_any(&program)
        .map_err(|d| format!("{}: the program under test does not load:\n{d}", path.display()))?;
    let project = match &table.macro_name {
        None => project,
        Some(m) => alone(project, m).map_err(|e| format!("{}: {e}", path.display()))?,
    };
    let plan = compile_project(&project, &CompileOptions::default())
        .map_err(|d| format!("{}: the program under test does not compile:\n{d}", path.display()))?;
    Ok(Loaded { path: path.to_path_buf(), text, table, plan, project, warnings })
}

/// `project` with its program replaced by one instance `uut` of macro `name`: every input port
/// a program input of its name (with the port's default), every output port a program output.
fn alone(mut project: Project, name: &str) -> Result<Project, String> {
    let Some((_, _, def)) = project.macro_def(name) else {
        let mut names: Vec<&str> = project.macros.keys().map(String::as_str).collect();
        names.sort_unstable();
        return Err(format!("no macro `{name}` to test; the diagram's macros are: {}", names.join(", ")));
    };
    let inputs: Vec<ProgramInput> = def
        .inputs
        .iter()
        .map(|p| ProgramInput {
            address: None,
            name: p.name.clone(),
            ty: p.ty,
            kind: Default::default(),
            default: p.default,
            options: Vec::new(),
            description: None,
        })
        .collect();
    let outputs: Vec<PortOut> = def
        .outputs
        .iter()
        .map(|p| PortOut {
            address: None,
            name: p.name.clone(),
            ty: TypeName(p.ty.0),
            from: Wire::Ref(format!("uut.{}", p.name)),
            kind: None,
            description: None,
        })
        .collect();
    let block = Block {
        id: "uut".into(),
        ty: name.to_string(),
        inputs: Pins(def.inputs.iter().map(|p| (p.name.clone(), Wire::Ref(p.name.clone()))).collect()),
        negated: PinNames::default(),
        params: Default::default(),
        data_type: None,
        pos: None,
        order: None,
        comment: None,
    };
    let root: &mut SourceFile = &mut project.files[0];
    // The program's own drawing and text do not describe this one.
    root.text = String::new();
    root.positions = Default::default();
    let doc = &mut root.doc;
    doc.inputs = inputs;
    doc.outputs = outputs;
    doc.blocks = vec![block];
    doc.connectors = Vec::new();
    doc.pages = Vec::new();
    Ok(project)
}
