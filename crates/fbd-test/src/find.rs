//! Test table files under the paths a user gives.

use std::path::{Path, PathBuf};

/// Every `*.test.json` at or under `paths` (a file is taken as it is), sorted, once each;
/// `target` and hidden directories are skipped. An error names a path that does not exist.
pub fn test_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let mut seen_dirs = std::collections::HashSet::new();
    for p in paths {
        match std::fs::metadata(p) {
            Ok(m) if m.is_file() => out.push(p.clone()),
            Ok(m) if m.is_dir() => walk(p, &mut out, &mut seen_dirs),
            Ok(_) => {
                return Err(format!(
                    "{}: not a regular file or a directory (a device, FIFO or socket); give a table file or a directory",
                    p.display()
                ));
            }
            // A link whose target is missing, or a loop of links, is there but leads nowhere.
            Err(e) if std::fs::symlink_metadata(p).is_ok() => {
                return Err(format!("{}: a symbolic link that leads nowhere ({e})", p.display()));
            }
            Err(_) => return Err(format!("{}: no such file or directory", p.display())),
        }
    }
    // The same file by two names (a link beside it) runs once.
    let mut seen_files = std::collections::HashSet::new();
    out.retain(|p| seen_files.insert(std::fs::canonicalize(p).unwrap_or_else(|_| p.clone())));
    out.sort();
    out.dedup();
    Ok(out)
}

/// The tables under `dir`. A directory reached again (by a link to a parent, or to a
/// directory walked already) is walked once: two links to `..` ran for ever.
fn walk(dir: &Path, out: &mut Vec<PathBuf>, seen: &mut std::collections::HashSet<PathBuf>) {
    let Ok(real) = std::fs::canonicalize(dir) else { return };
    if !seen.insert(real) {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if p.is_dir() {
            if !name.starts_with('.') && name != "target" {
                walk(&p, out, seen);
            }
        } else if name.ends_with(".test.json") && p.is_file() {
            out.push(p);
        }
    }
}
