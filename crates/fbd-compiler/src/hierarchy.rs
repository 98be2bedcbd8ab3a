//! The check of the macro hierarchy done before anything is expanded: recursion, expanded
//! size, nesting depth, the bytes of the expanded paths, against the limits of
//! [`fbd_model::limits`].

use rustc_hash::FxHashMap as HashMap;

use fbd_model::diag::Diagnostic;
use fbd_model::json_path;
use fbd_model::limits::*;
use fbd_model::load::Project;

/// Recursion is an error naming the chain; the expanded size (primitive blocks plus macro
/// instances, so that empty macros count too) and the nesting depth are computed per macro
/// (memoised, saturating) before anything is expanded, so an expansion bomb costs nothing.
/// Iterative: a 10,000-level chain of macros needs no stack. Returns the number of blocks and
/// instances the program expands to and the bytes of their paths ((0, 0) after an error), so
/// the expansion can size its tables.
pub(crate) fn check_recursion_and_size(project: &Project, max_blocks: u64, errors: &mut Vec<Diagnostic>) -> (u64, u64) {
    #[derive(Copy, Clone, PartialEq)]
    enum Mark {
        Visiting,
        /// `bytes`: the paths of everything inside one instance, relative to the instance.
        Done {
            size: u64,
            depth: usize,
            bytes: u64,
        },
    }
    struct Frame<'a> {
        name: &'a str,
        next: usize,
        size: u64,
        depth: usize,
        bytes: u64,
    }
    // What an item named `id` adds to its body's path bytes: its own path, and for an instance
    // the `id/` prefix of each of its `size` items plus their own paths.
    let item_bytes = |id: &str, inner: Option<(u64, u64)>| -> u64 {
        let id = id.len() as u64;
        match inner {
            None => id,
            Some((size, bytes)) => id.saturating_add(size.saturating_mul(id + 1)).saturating_add(bytes),
        }
    };
    let mut marks: HashMap<&str, Mark> = HashMap::default();
    let mut names: Vec<&String> = project.macros.keys().collect();
    names.sort();
    for start in names {
        if marks.contains_key(start.as_str()) {
            continue;
        }
        marks.insert(start, Mark::Visiting);
        let mut stack = vec![Frame { name: start, next: 0, size: 0, depth: 1, bytes: 0 }];
        while let Some(top) = stack.last_mut() {
            let (fi, mi, m) = project.macro_def(top.name).expect("a macro of the table");
            let Some(b) = m.blocks.get(top.next) else {
                let done = stack.pop().expect("non-empty");
                marks.insert(done.name, Mark::Done { size: done.size, depth: done.depth, bytes: done.bytes });
                if let Some(parent) = stack.last_mut() {
                    parent.size = parent.size.saturating_add(1).saturating_add(done.size);
                    parent.depth = parent.depth.max(done.depth + 1);
                    let (_, _, pm) = project.macro_def(parent.name).expect("a macro of the table");
                    let id = &pm.blocks[parent.next - 1].id;
                    parent.bytes = parent.bytes.saturating_add(item_bytes(id, Some((done.size, done.bytes))));
                }
                continue;
            };
            let bi = top.next;
            top.next += 1;
            if !project.macros.contains_key(&b.ty) {
                top.size = top.size.saturating_add(1);
                top.bytes = top.bytes.saturating_add(item_bytes(&b.id, None));
                continue;
            }
            match marks.get(b.ty.as_str()).copied() {
                Some(Mark::Done { size, depth, bytes }) => {
                    top.size = top.size.saturating_add(1).saturating_add(size);
                    top.depth = top.depth.max(depth + 1);
                    top.bytes = top.bytes.saturating_add(item_bytes(&b.id, Some((size, bytes))));
                }
                Some(Mark::Visiting) => {
                    let from = stack.iter().position(|f| f.name == b.ty).unwrap_or(0);
                    let mut cyc: Vec<&str> = stack[from..].iter().map(|f| f.name).collect();
                    cyc.push(&b.ty);
                    let shown = if cyc.len() > 12 {
                        format!(
                            "{} -> ... ({} macros) -> {}",
                            cyc[..6].join(" -> "),
                            cyc.len() - 8,
                            cyc[cyc.len() - 2..].join(" -> ")
                        )
                    } else {
                        cyc.join(" -> ")
                    };
                    errors.push(
                        project
                            .diag(
                                fi,
                                &json_path!["macros", mi, "blocks", bi, "type"],
                                format!("recursive macro: {shown}"),
                            )
                            .block(format!("{}/{}", m.name, b.id))
                            .help("a macro cannot contain an instance of itself, directly or through other macros"),
                    );
                }
                None => {
                    marks.insert(&b.ty, Mark::Visiting);
                    stack.push(Frame { name: &b.ty, next: 0, size: 0, depth: 1, bytes: 0 });
                }
            }
        }
    }
    if !errors.is_empty() {
        return (0, 0);
    }
    let mut total: u64 = 0;
    let mut total_bytes: u64 = 0;
    let mut biggest: Option<(u64, usize)> = None;
    let mut longest: Option<(u64, usize)> = None;
    let mut deepest: Option<(usize, usize)> = None;
    for (bi, b) in project.root().blocks.iter().enumerate() {
        let (n, depth, bytes) = match marks.get(b.ty.as_str()) {
            Some(Mark::Done { size, depth, bytes }) => {
                (size.saturating_add(1), *depth, item_bytes(&b.id, Some((*size, *bytes))))
            }
            _ => (1, 0, item_bytes(&b.id, None)),
        };
        total = total.saturating_add(n);
        total_bytes = total_bytes.saturating_add(bytes);
        if longest.is_none_or(|(m, _)| bytes > m) {
            longest = Some((bytes, bi));
        }
        if biggest.is_none_or(|(m, _)| n > m) {
            biggest = Some((n, bi));
        }
        if deepest.is_none_or(|(d, _)| depth > d) {
            deepest = Some((depth, bi));
        }
    }
    // Each limit is reported at the root block that contributes most to it.
    let at_root = |bi: usize, what: &dyn Fn(&str, &str) -> String, help: &str| {
        let b = &project.root().blocks[bi];
        project.diag(0, &json_path!["blocks", bi], what(&b.id, &b.ty)).block(&b.id).help(help)
    };
    if let Some((depth, bi)) = deepest
        && depth > MAX_NESTING
    {
        errors.push(at_root(
            bi,
            &|id, ty| {
                format!(
                    "instance `{id}` of `{ty}` nests macros {depth} levels deep, more than the limit of {MAX_NESTING}"
                )
            },
            "flatten the macro hierarchy; a deeper one is almost certainly generated by mistake",
        ));
    }
    if total > max_blocks {
        let (n, bi) = biggest.unwrap_or((total, 0));
        errors.push(at_root(
            bi,
            &|id, ty| {
                format!(
                    "the program would expand to {} blocks and macro instances, more than the limit of {max_blocks}; instance `{id}` of `{ty}` alone expands to {n}",
                    fmt_big(total)
                )
            },
            "an expansion bomb (macros that instance each other many times) is refused; raise CompileOptions::max_blocks if the program is really this large",
        ));
    }
    if total <= max_blocks && total_bytes > MAX_PATH_BYTES {
        let (n, bi) = longest.unwrap_or((total_bytes, 0));
        errors.push(at_root(
            bi,
            &|id, ty| {
                format!(
                    "the program's expanded block paths would take {} bytes, more than the limit of {MAX_PATH_BYTES}; instance `{id}` of `{ty}` alone takes {n}",
                    fmt_big(total_bytes)
                )
            },
            "every expanded block is named by its instances' ids (`inst/inner/block`): shorten the ids of instances that hold many blocks, or nest less deeply",
        ));
    }
    (total, total_bytes)
}

fn fmt_big(n: u64) -> String {
    if n == u64::MAX { "more than 18446744073709551614".into() } else { n.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The path bytes are computed per macro without expanding; they must equal the bytes of
    /// the paths the expansion then builds (every block and every instance).
    #[test]
    fn path_bytes_match_the_expansion() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../diagrams");
        for f in ["2048.json", "2048-original.json", "2048-smart-spawn.json"] {
            let path = std::path::Path::new(root).join(f);
            let project = fbd_model::load::load(&fbd_model::FsProvider, &path).expect("loads");
            let mut errors = Vec::new();
            let (items, bytes) = check_recursion_and_size(&project, MAX_BLOCKS, &mut errors);
            assert!(errors.is_empty());
            let plan = crate::compile_project(&project, &Default::default()).expect("compiles");
            let built: usize = plan.blocks.iter().map(|b| b.path.len()).sum::<usize>()
                + plan.instances.iter().map(|i| i.path.len()).sum::<usize>();
            assert_eq!((items, bytes), ((plan.blocks.len() + plan.instances.len()) as u64, built as u64), "{f}");
        }
    }
}
