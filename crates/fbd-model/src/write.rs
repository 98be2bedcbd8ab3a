//! Writing the files a user keeps (diagrams from `fbd fmt`, `fbd layout --write` and the
//! editor's Save; exports; recordings) so that nothing of theirs is lost: each file is the old
//! one or the new one, never half of the new (a temporary file beside it, flushed, renamed over
//! it); several files are written all or none (every temporary file first, then the renames);
//! a symlink is written through (its target changes, the link stays); a read-only file is
//! refused; owner, group and mode stay. A file with another name (a hard link), or whose owner
//! this user cannot give a new file, is written in place once its new content has been
//! written beside it in full (a rename would separate the names, or hand the file to this
//! user).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::load::directory_of;

/// Writes `text` to `path` (see the module's description).
pub fn write_text(path: &Path, text: &str) -> std::io::Result<()> {
    write_texts(&[(path, text)]).map_err(|(_, e)| e)
}

/// Writes to `path` what `content` writes (see the module's description): a large file (a
/// recording) goes to the disk without a copy of it in memory first.
pub fn write_with(path: &Path, content: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> std::io::Result<()> {
    prepare(path, content)?.commit()
}

/// Writes every `(path, text)` or, on an error, none of them (the file the error is about
/// returned with it). See the module's description.
pub fn write_texts(files: &[(&Path, &str)]) -> Result<(), (PathBuf, std::io::Error)> {
    let mut prepared = Vec::new();
    for (path, text) in files {
        let p = prepare(path, |w| w.write_all(text.as_bytes())).map_err(|e| {
            let none = if files.len() > 1 { "; none of the files was changed" } else { "" };
            (path.to_path_buf(), std::io::Error::new(e.kind(), format!("{e}{none}")))
        })?;
        prepared.push(p);
    }
    // Every new content is on the disk beside its file: now the renames, which need no space.
    let n = prepared.len();
    for (i, p) in prepared.into_iter().enumerate() {
        let target = p.target.clone();
        p.commit().map_err(|e| {
            let before = if i > 0 { format!(" ({i} of the {n} files were written before it)") } else { String::new() };
            (target, std::io::Error::new(e.kind(), format!("{e}{before}")))
        })?;
    }
    Ok(())
}

/// A file's new content written beside it, not yet in its place.
struct Prepared {
    /// The file written: the path, or a symlink's final target.
    target: PathBuf,
    tmp: tempfile::NamedTempFile,
    /// Write into the existing file instead of renaming over it (a hard link, an owner this
    /// user cannot give).
    in_place: bool,
}

impl Prepared {
    fn commit(self) -> std::io::Result<()> {
        if !self.in_place {
            return self.tmp.persist(&self.target).map(drop).map_err(|e| plain(e.error));
        }
        let text = std::fs::read(self.tmp.path()).map_err(plain)?;
        let mut f = std::fs::OpenOptions::new().write(true).truncate(true).open(&self.target).map_err(plain)?;
        f.write_all(&text).and_then(|()| f.sync_all()).map_err(|e| {
            // The new content is whole beside it: said, not lost.
            let kept = self.tmp.into_temp_path().keep().map(|p| p.display().to_string()).unwrap_or_default();
            std::io::Error::new(e.kind(), format!("{} (the new content is in {kept})", plain(e)))
        })
    }
}

/// The file a write of `path` changes: a symlink's target (followed to the end), else `path`.
fn resolve(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
        _ => path.to_path_buf(),
    }
}

fn prepare(path: &Path, content: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> std::io::Result<Prepared> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let target = resolve(path);
    let dir = directory_of(&target)?;
    let old = std::fs::metadata(&target).ok();
    if let Some(m) = &old
        && m.permissions().mode() & 0o222 == 0
    {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            format!("{} is read-only (mode {:o}); make it writable to rewrite it", target.display(), m.mode() & 0o7777),
        ));
    }
    let mut builder = tempfile::Builder::new();
    builder.prefix(".fbd-write-").suffix(".tmp");
    // A new file gets the usual mode (0666 less the umask, where a temporary file would get
    // 0600); a replaced one its own, set below once the owner is (a chown clears set-id bits).
    builder.permissions(std::fs::Permissions::from_mode(0o666));
    // The temporary file is ours, not the user's: an error says what the system said, without
    // its name (tempfile appends `at path ".fbd-write-….tmp"`).
    let mut tmp = builder.tempfile_in(dir).map_err(|e| {
        std::io::Error::new(e.kind(), format!("cannot create a file in {}: {}", dir.display(), plain(e)))
    })?;
    {
        let mut w = std::io::BufWriter::with_capacity(1 << 16, tmp.as_file_mut());
        content(&mut w).and_then(|()| w.flush()).map_err(plain)?;
    }
    tmp.as_file().sync_all().map_err(plain)?;
    let mut in_place = false;
    if let Some(m) = &old {
        let owned = std::os::unix::fs::fchown(tmp.as_file(), Some(m.uid()), Some(m.gid())).is_ok();
        in_place = m.nlink() > 1 || !owned;
        tmp.as_file().set_permissions(m.permissions()).map_err(plain)?;
    }
    Ok(Prepared { target, tmp, in_place })
}

/// An I/O error as the system said it, without tempfile's note of its own file's name.
fn plain(e: std::io::Error) -> std::io::Error {
    let os = e.raw_os_error().or_else(|| {
        let inner = e.get_ref()?.source()?.downcast_ref::<std::io::Error>()?;
        inner.raw_os_error()
    });
    match os {
        Some(code) => std::io::Error::from_raw_os_error(code),
        None => std::io::Error::new(e.kind(), e.kind().to_string()),
    }
}
