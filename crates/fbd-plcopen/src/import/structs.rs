//! Structures: a `dataType` whose base type is a `<struct>` is flattened where a POU declares a
//! variable of it, into a variable per member (`st : S_STATUS` with `Run : BOOL` gives `st_Run`),
//! so that the body's `st.Run` reads and writes that variable and a structure among a program's
//! inputs or outputs gives one input or output per member. Nested structures flatten in turn
//! (`a.b.c` → `a_b_c`). A whole structure wired to a pin has no counterpart here.

use std::collections::HashMap;

use fbd_model::{Type, Value};
use roxmltree::Node;

use super::vars::Var;
use super::{Ctx, child, children};
use crate::literal;

/// Nesting deeper than this is refused.
const MAX_DEPTH: usize = 16;
/// Most variables the structures of one POU may flatten into: ten types of ten members each
/// nested ten deep would be 10^10 of them.
const MAX_MEMBERS: usize = 100_000;

/// One member of a structure type.
pub(super) struct Member {
    name: String,
    ty: Option<Type>,
    /// A member of another structure type (or another derived type).
    derived: Option<String>,
    init: Option<Value>,
}

/// The structure types of a file, by their names in lower case (IEC names ignore case).
pub(super) type StructTypes = HashMap<String, (String, Vec<Member>)>;

/// The structure types declared in `types/dataTypes`.
pub(super) fn struct_types(cx: &mut Ctx, root: Node) -> StructTypes {
    let mut out = StructTypes::new();
    let Some(dts) = child(root, "types").and_then(|t| child(t, "dataTypes")) else { return out };
    for dt in children(dts, "dataType") {
        let name = dt.attribute("name").unwrap_or("").to_string();
        let Some(st) = child(dt, "baseType").and_then(|b| child(b, "struct")) else { continue };
        let mut members = Vec::new();
        for v in children(st, "variable") {
            let m = v.attribute("name").unwrap_or("").to_string();
            let t = child(v, "type").and_then(|t| t.children().find(|c| c.is_element()));
            let (ty, derived) = match t {
                Some(t) if t.tag_name().name() == "derived" => (None, t.attribute("name").map(str::to_string)),
                Some(t) => match literal::elementary(t.tag_name().name()) {
                    Some(ty) => (Some(ty), None),
                    None => {
                        cx.err(t, format!("member `{name}.{m}`: type {} is not supported", t.tag_name().name()));
                        continue;
                    }
                },
                None => {
                    cx.err(v, format!("member `{name}.{m}` has no type"));
                    continue;
                }
            };
            let init =
                child(v, "initialValue").and_then(|i| child(i, "simpleValue")).and_then(|s| s.attribute("value"));
            let init = match init.map(|t| literal::initial_value(t, ty)) {
                Some(Ok(x)) => Some(x),
                Some(Err(e)) => {
                    cx.err(v, format!("member `{name}.{m}`: initial value: {e}"));
                    None
                }
                None => None,
            };
            members.push(Member { name: m, ty, derived, init });
        }
        out.insert(name.to_ascii_lowercase(), (name, members));
    }
    out
}

/// `vars` with every variable of a structure type replaced by its members (`st_Run`), and in
/// `paths` each member's path as a body writes it (`st.Run`, and in lower case) → the variable.
pub(super) fn flatten(
    cx: &mut Ctx,
    vars: Vec<Var>,
    types: &StructTypes,
    paths: &mut HashMap<String, String>,
    at: Node,
) -> Vec<Var> {
    let mut f =
        Flattening { types, paths, at, chain: Vec::new(), cycles: Vec::new(), too_deep: false, out: Vec::new() };
    for v in vars {
        let path = v.name.clone();
        f.expand(cx, v, &path);
    }
    f.out
}

/// One list of variables being flattened.
struct Flattening<'t, 'p, 'a, 'i> {
    types: &'t StructTypes,
    paths: &'p mut HashMap<String, String>,
    /// Where errors are placed (the POU).
    at: Node<'a, 'i>,
    /// The structure types being expanded, outermost first.
    chain: Vec<String>,
    /// Types already reported as containing themselves (said once, however many paths lead there).
    cycles: Vec<String>,
    /// Nesting past [`MAX_DEPTH`] was reported.
    too_deep: bool,
    out: Vec<Var>,
}

impl Flattening<'_, '_, '_, '_> {
    /// `v` (whose path in the body is `path`: `st`, `st.Cmd`), flattened into `out`.
    fn expand(&mut self, cx: &mut Ctx, v: Var, path: &str) {
        let types = self.types;
        let Some((tname, members)) = v.derived.as_deref().and_then(|d| types.get(&d.to_ascii_lowercase())) else {
            self.out.push(v);
            return;
        };
        if self.chain.iter().any(|t| t == tname) {
            if !self.cycles.contains(tname) {
                self.cycles.push(tname.clone());
                let chain = self.chain.iter().skip_while(|t| *t != tname).cloned().collect::<Vec<_>>().join(" → ");
                cx.err(
                    self.at,
                    format!("structure type {tname} contains itself ({chain} → {tname}): `{path}` would never end"),
                );
            }
            return;
        }
        if self.chain.len() >= MAX_DEPTH {
            // Said once too: every path below would say it again.
            if !self.too_deep {
                self.too_deep = true;
                cx.err(self.at, format!("`{path}` nests structures more than {MAX_DEPTH} deep"));
            }
            return;
        }
        if self.out.len() + members.len() > MAX_MEMBERS {
            // Said once: the members after it are not expanded at all.
            if self.out.len() <= MAX_MEMBERS {
                cx.err(
                    self.at,
                    format!("`{path}`: the structures of this POU flatten into more than {MAX_MEMBERS} variables"),
                );
                let n = MAX_MEMBERS + 1 - self.out.len();
                self.out.extend(std::iter::repeat_with(sentinel).take(n));
            }
            return;
        }
        self.chain.push(tname.clone());
        for m in members {
            let flat = format!("{}_{}", v.name, m.name);
            let p = format!("{path}.{}", m.name);
            self.paths.insert(p.to_ascii_lowercase(), flat.clone());
            self.paths.insert(p.clone(), flat.clone());
            // The variable's own initial value for the member (`structValue`) wins over the type's.
            let init = v.members.iter().find(|(k, _)| k.eq_ignore_ascii_case(&m.name)).map(|(_, x)| *x).or(m.init);
            let member = Var {
                ty: m.ty,
                init,
                derived: m.derived.clone(),
                doc: v.doc.as_ref().map(|d| format!("{d} ({})", m.name)),
                at: v.at,
                global: v.global,
                ..Var::named(&flat)
            };
            self.expand(cx, member, &p);
        }
        self.chain.pop();
    }
}

/// A placeholder counted when the limit is passed (the import fails with the error then).
fn sentinel() -> Var {
    Var::named("")
}

/// A member flattened onto the name of another variable (`st.Run` and a declared `st_Run`)
/// would make two variables one: refused, naming it.
pub(super) fn check_collisions(cx: &mut Ctx, pou: Node, lists: [&[Var]; 3], paths: &HashMap<String, String>) {
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for v in lists.into_iter().flatten() {
        if !seen.insert(v.name.as_str()) && paths.values().any(|f| *f == v.name) {
            cx.err(pou, format!("`{}` is both a variable and a structure's member flattened to that name", v.name));
        }
    }
}
