//! An output a command would write over one of its own inputs (`fbd run b.json --record b.json`,
//! `fbd import m.xml -o m.xml`, a trace over an included library) is refused before anything is
//! written: the same file by any name, through a symlink, `..` or a hard link.

use std::path::Path;

use fbd_engine::load::Project;

/// Whether `a` and `b` name one existing file (the same device and inode).
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// `Err` when `output` (given by `option`) is one of `inputs`, each with what it is to the
/// command (`the program`, `a library it includes`, `the stimulus`).
pub(crate) fn not_an_input(output: &Path, option: &str, inputs: &[(&Path, &str)]) -> Result<(), String> {
    match inputs.iter().find(|(input, _)| same_file(output, input)) {
        Some((input, what)) => Err(format!(
            "{}: {option} would write over {}, {what} of this command; name another file",
            output.display(),
            input.display()
        )),
        None => Ok(()),
    }
}

/// The files of `project` as inputs: the program, then each library it includes.
pub(crate) fn project_inputs(project: &Project) -> Vec<(&Path, &'static str)> {
    project
        .files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.path.as_path(), if i == 0 { "the program" } else { "a library the program includes" }))
        .collect()
}
