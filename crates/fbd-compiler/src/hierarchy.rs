//! The check of the macro hierarchy done before anything is expanded: recursion, expanded
//! size, nesting depth, the bytes of the expanded paths, against the limits of
//! [`fbd_model::limits`].

use rustc_hash::FxHashMap as HashMap;

use crate::Project;
use fbd_model::diag::Diagnostic;
use fbd_model::json_path;
use fbd_model::limits::*;

/// Recursion is an error naming the chain; the expanded size (primitive blocks plus macro
/// instances, so that empty macros count too) and the nesting depth are computed per macro
/// (memoised, saturating) before anything is expanded, so an expansion bomb costs nothing.
/// Iterative: a 10,000-level chain of macros needs no stack. Returns the number of blocks and
/// instances the program expands to and the bytes of their paths ((0, 0) after an error), so
/// the expansion can size its tables.
pub(crate) fn check_recursion_and_size(project: &Project, max_blocks: u64, errors: &mut Vec<Diagnostic>) -> (u64, u64) {
    let marks = macro_sizes(project, errors);
    if !errors.is_empty() {
        return (0, 0);
    }
    let totals = root_totals(project, &marks);
    report_limits(project, &totals, max_blocks, errors);
    (totals.items, totals.bytes)
}

/// A macro's walk: under way (a macro met again while under way is a recursion), or done.
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

/// A macro on the walk's stack: its next block and what its blocks so far add up to.
struct Frame<'a> {
    name: &'a str,
    next: usize,
    size: u64,
    depth: usize,
    bytes: u64,
}

impl Frame<'_> {
    /// Adds an item: a primitive block (`inner` = `None`) or an instance of a macro of `inner`
    /// = (size, depth, bytes), named `id`.
    fn add(&mut self, id: &str, inner: Option<(u64, usize, u64)>) {
        self.size = self.size.saturating_add(1).saturating_add(inner.map_or(0, |i| i.0));
        if let Some((_, depth, _)) = inner {
            self.depth = self.depth.max(depth + 1);
        }
        self.bytes = self.bytes.saturating_add(item_bytes(id, inner.map(|(size, _, bytes)| (size, bytes))));
    }
}

/// What an item named `id` adds to its body's path bytes: its own path, and for an instance
/// the `id/` prefix of each of its `size` items plus their own paths.
fn item_bytes(id: &str, inner: Option<(u64, u64)>) -> u64 {
    let id = id.len() as u64;
    match inner {
        None => id,
        Some((size, bytes)) => id.saturating_add(size.saturating_mul(id + 1)).saturating_add(bytes),
    }
}

/// Every macro's expanded size, depth and path bytes, walked depth first without recursion;
/// a recursion is an error.
fn macro_sizes<'p>(project: &'p Project, errors: &mut Vec<Diagnostic>) -> HashMap<&'p str, Mark> {
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
            let (_, _, m) = project.macro_def(top.name).expect("a macro of the table");
            let Some(b) = m.blocks.get(top.next) else {
                let done = stack.pop().expect("non-empty");
                marks.insert(done.name, Mark::Done { size: done.size, depth: done.depth, bytes: done.bytes });
                if let Some(parent) = stack.last_mut() {
                    let (_, _, pm) = project.macro_def(parent.name).expect("a macro of the table");
                    parent.add(&pm.blocks[parent.next - 1].id, Some((done.size, done.depth, done.bytes)));
                }
                continue;
            };
            let bi = top.next;
            top.next += 1;
            if !project.macros.contains_key(&*b.ty) {
                top.add(&b.id, None);
                continue;
            }
            match marks.get(&*b.ty).copied() {
                Some(Mark::Done { size, depth, bytes }) => top.add(&b.id, Some((size, depth, bytes))),
                Some(Mark::Visiting) => errors.push(recursion(project, &stack, bi)),
                None => {
                    marks.insert(&b.ty, Mark::Visiting);
                    stack.push(Frame { name: &b.ty, next: 0, size: 0, depth: 1, bytes: 0 });
                }
            }
        }
    }
    marks
}

/// The error at block `bi` of the macro on top of `stack`, an instance of a macro already on
/// it: the chain of macros, shortened when long.
fn recursion(project: &Project, stack: &[Frame], bi: usize) -> Diagnostic {
    let top = stack.last().expect("a macro under way");
    let (fi, mi, m) = project.macro_def(top.name).expect("a macro of the table");
    let b = &m.blocks[bi];
    let from = stack.iter().position(|f| f.name == &*b.ty).unwrap_or(0);
    let mut cyc: Vec<&str> = stack[from..].iter().map(|f| f.name).collect();
    cyc.push(&b.ty);
    let shown = if cyc.len() > 12 {
        format!("{} -> ... ({} macros) -> {}", cyc[..6].join(" -> "), cyc.len() - 8, cyc[cyc.len() - 2..].join(" -> "))
    } else {
        cyc.join(" -> ")
    };
    project
        .diag(fi, &json_path!["macros", mi, "blocks", bi, "type"], format!("recursive macro: {shown}"))
        .block(format!("{}/{}", m.name, b.id))
        .help("a macro cannot contain an instance of itself, directly or through other macros")
}

/// What the program expands to, and the root blocks that contribute most to each limit.
struct Totals {
    items: u64,
    bytes: u64,
    /// (items, root block) of the instance that expands to the most.
    biggest: Option<(u64, usize)>,
    /// (path bytes, root block) of the one whose paths take the most.
    longest: Option<(u64, usize)>,
    /// (nesting, root block) of the deepest.
    deepest: Option<(usize, usize)>,
}

fn root_totals(project: &Project, marks: &HashMap<&str, Mark>) -> Totals {
    let mut t = Totals { items: 0, bytes: 0, biggest: None, longest: None, deepest: None };
    for (bi, b) in project.root().blocks.iter().enumerate() {
        let (n, depth, bytes) = match marks.get(&*b.ty) {
            Some(Mark::Done { size, depth, bytes }) => {
                (size.saturating_add(1), *depth, item_bytes(&b.id, Some((*size, *bytes))))
            }
            _ => (1, 0, item_bytes(&b.id, None)),
        };
        t.items = t.items.saturating_add(n);
        t.bytes = t.bytes.saturating_add(bytes);
        if t.longest.is_none_or(|(m, _)| bytes > m) {
            t.longest = Some((bytes, bi));
        }
        if t.biggest.is_none_or(|(m, _)| n > m) {
            t.biggest = Some((n, bi));
        }
        if t.deepest.is_none_or(|(d, _)| depth > d) {
            t.deepest = Some((depth, bi));
        }
    }
    t
}

/// Each limit passed, reported at the root block that contributes most to it.
fn report_limits(project: &Project, t: &Totals, max_blocks: u64, errors: &mut Vec<Diagnostic>) {
    let at_root = |bi: usize, what: &dyn Fn(&str, &str) -> String, help: &str| {
        let b = &project.root().blocks[bi];
        project.diag(0, &json_path!["blocks", bi], what(&b.id, &b.ty)).block(&*b.id).help(help)
    };
    let (total, total_bytes) = (t.items, t.bytes);
    if let Some((depth, bi)) = t.deepest
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
        let (n, bi) = t.biggest.unwrap_or((total, 0));
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
        let (n, bi) = t.longest.unwrap_or((total_bytes, 0));
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
            let (items, bytes) = check_recursion_and_size(&project.to_lean(), MAX_BLOCKS, &mut errors);
            assert!(errors.is_empty());
            let plan = crate::compile_project(&project, &Default::default()).expect("compiles");
            let built: usize = plan.blocks.iter().map(|b| b.path.len()).sum::<usize>()
                + plan.instances.iter().map(|i| i.path.len()).sum::<usize>();
            assert_eq!((items, bytes), ((plan.blocks.len() + plan.instances.len()) as u64, built as u64), "{f}");
        }
    }
}
