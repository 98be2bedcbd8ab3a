//! PLCopen TC6 XML → a diagram document: the program POU of the cyclic task becomes the top
//! level, function blocks and functions with FBD bodies become macros.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use fbd_model::library;
use fbd_model::model::{
    Block, Connector, Const, Document, LdElement, MacroDef, Pins, PortOut, ProgramInput, TypeName, Variable, Wire,
};
use fbd_model::{Diagnostic, Diagnostics, Value};
use roxmltree::Node;

use crate::literal;

mod checks;
mod ctx;
mod disabled;
mod enums;
pub mod extensions;
mod lookup;
mod modifiers;
mod names;
mod order;
mod project;
mod reads;
mod rungs;
pub(crate) mod st;
mod structs;
mod text;
mod vars;

use ctx::{Ctx, child, children};
use lookup::{Lookup, Src, set_pin, simple_block, wired_or};
pub(crate) use names::helper;
use names::{in_pin, map_type};
use reads::{Dataflow, Declared, EarlierWrites, Read, Writes};
use vars::{RESULT, Var, function_result, member_error, variables};

/// The namespaces read: TC6 v2.01, v2.00 (CODESYS) and v1.0 (matiec's test file).
const NAMESPACES: [&str; 3] = [
    "http://www.plcopen.org/xml/tc6_0201",
    "http://www.plcopen.org/xml/tc6_0200",
    "http://www.plcopen.org/xml/tc6.xsd",
];

/// An imported program, and what the import had to say about it.
#[derive(Debug)]
pub struct Imported {
    /// The program as one self-contained diagram (its POUs as macros).
    pub doc: Document,
    /// The line and column in the XML file of the element each block comes from, by (macro
    /// name, `""` for the program; block id): where an error the compiler finds points.
    pub places: HashMap<(String, String), (usize, usize)>,
    /// Things that import but behave differently here (narrow integers widened, a second task
    /// ignored), one line each.
    pub warnings: Vec<String>,
}

/// The most attributes (namespace declarations included) an element may have: the XML reader
/// checks each new one against the others, so a file of elements with this many takes time in
/// proportion to it (98 MB of elements with 1,000 each: 35 s; with 64: 6.6 s, the time of
/// reading 14 million attributes at all). The 116 public files measured have at most 7.
const MAX_ATTRIBUTES: usize = 64;

/// The first element with more than [`MAX_ATTRIBUTES`] attributes (its byte offset and the
/// count reached), found in one pass: the `=` of a start tag outside its quoted values.
fn crowded_element(text: &str) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'<' {
            i += 1;
            continue;
        }
        // Comments, CDATA, declarations and processing instructions hold no attributes.
        let rest = &text[i..];
        let skip_to = |end: &str| rest.find(end).map_or(b.len(), |k| i + k + end.len());
        if rest.starts_with("<!--") {
            i = skip_to("-->");
            continue;
        }
        if rest.starts_with("<![CDATA[") {
            i = skip_to("]]>");
            continue;
        }
        let start = i;
        let mut quote = None;
        let mut n = 0;
        i += 1;
        while i < b.len() {
            match (quote, b[i]) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, c @ (b'"' | b'\'')) => quote = Some(c),
                (None, b'=') => {
                    n += 1;
                    if n > MAX_ATTRIBUTES {
                        return Some((start, n));
                    }
                }
                (None, b'>') => break,
                _ => {}
            }
            i += 1;
        }
        i += 1;
    }
    None
}

/// Reads a PLCopen XML file. Every independent problem is reported, each with its line:column.
pub fn import(path: &Path, text: &str) -> Result<Imported, Diagnostics> {
    let xml = parse_xml(path, text)?;
    import_parsed(path, text, &xml)
}

/// Imports the parsed file of text `text`.
fn import_parsed(path: &Path, text: &str, xml: &roxmltree::Document) -> Result<Imported, Diagnostics> {
    let stand_ins = extensions::StandIns::for_file(path)?;
    let mut cx = Ctx::new(path, &stand_ins, text);
    let root = xml.root_element();
    let ns = root.tag_name().namespace().unwrap_or("");
    if root.tag_name().name() != "project" || !NAMESPACES.contains(&ns) {
        let what = if ns.contains("plcopen.org/xml/tc6_0201") || text.contains("ppx:") || ns.contains("61131-10") {
            "an IEC 61131-10 file (FbdObject elements) is not supported; export the project as PLCopen TC6 XML v2.01"
        } else {
            "not a PLCopen TC6 project: expected <project> in namespace tc6_0201, tc6_0200 or tc6.xsd"
        };
        return Err(Diagnostic::new(path, format!("{what} (found <{}> in `{ns}`)", root.tag_name().name()))
            .at(Some(cx.text_pos(root)))
            .into());
    }
    let pous: Vec<Node> =
        child(root, "types").and_then(|t| child(t, "pous")).map(|p| children(p, "pou").collect()).unwrap_or_default();
    // Several program instances (of one task or several) run as matiec runs them.
    let instances = project::program_instances(root);
    let several = instances.len() > 1 || instances.iter().any(|i| i.single.is_some());
    let (cycle_ms, run) =
        if several { (project::tick_ms(&mut cx, &instances), None) } else { cyclic_task(&mut cx, root) };
    // A file of function blocks and functions only (a library: a CODESYS library, examples of
    // blocks) imports as a library of macros, for `include`, the palette and test tables.
    let library = run.is_none()
        && !several
        && !pous.is_empty()
        && pous.iter().all(|p| matches!(p.attribute("pouType"), Some("functionBlock" | "function")));
    let program = if library || several { None } else { Some(program_to_run(&mut cx, root, &pous, run.as_deref())?) };
    let mut pou_names: HashSet<String> = pous.iter().filter_map(|p| p.attribute("name")).map(str::to_string).collect();
    // Blocks of extension libraries the file uses, as stand-ins: macros of their interface.
    let stand_in_macros = used_stand_ins(&cx, root, &pou_names);
    pou_names.extend(stand_in_macros.iter().map(|m| m.name.clone()));
    checks::located_sizes(&mut cx, root);
    let types = structs::struct_types(&mut cx, root);
    cx.enums = enums::enum_types(&mut cx, root);
    let globals = checks::configuration_globals(&mut cx, root);
    let declares_en = declaring_en(&pous);
    let mut doc = Document {
        fbd: fbd_model::model::BASE_VERSION,
        name: match program {
            Some(p) => names::program_name(root, p),
            None => child(root, "contentHeader")
                .and_then(|h| h.attribute("name"))
                .or_else(|| root.descendants().find(|n| n.tag_name().name() == "configuration")?.attribute("name"))
                .map(str::to_string),
        },
        // The file's name, not the path it was given by: the program is the same wherever it is
        // opened from (a recording of it compares its text).
        description: Some(format!(
            "imported from PLCopen XML ({})",
            path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
        )),
        cycle_ms,
        types: cx.enums.clone(),
        ..Document::default()
    };
    if !stand_in_macros.is_empty() {
        let names: Vec<String> = stand_in_macros.iter().map(|m| m.name.clone()).collect();
        cx.warnings.push(format!(
            "stand-ins for extension blocks (their outputs held at their defaults; write or force `instance/OUTPUT.q`): {}",
            names.join(", ")
        ));
    }
    doc.macros.extend(stand_in_macros);
    for p in &pous {
        // The export's stand-ins for library blocks come back as those blocks.
        if p.attribute("pouType") == Some("program") || p.attribute("name").and_then(helper).is_some() {
            continue;
        }
        if let Some(m) = pou_body(&mut cx, *p, &pou_names, &declares_en, &types, &globals, Role::Block) {
            doc.macros.push(m.0);
        }
    }
    if library {
        cx.warnings.push(format!(
            "no program POU: a library of {} function blocks and functions, imported as macros (use it by `include`, in the editor's palette, in test tables)",
            doc.macros.len()
        ));
    }
    if several {
        let mut import_program = |cx: &mut Ctx, pou: Node<'_, '_>| {
            pou_body(cx, pou, &pou_names, &declares_en, &types, &globals, Role::Instance)
                .map(|(m, _, ports)| (m, ports))
        };
        project::assemble(&mut cx, (&pous, &globals), &instances, &mut doc, &mut import_program);
    }
    let body = program.and_then(|p| pou_body(&mut cx, p, &pou_names, &declares_en, &types, &globals, Role::Program));
    if let Some((m, inputs, _)) = body {
        // The program's own words (its documentation and comments), else where it came from.
        if m.description.is_some() {
            doc.description = m.description;
        }
        doc.inputs = inputs;
        doc.outputs = m.outputs;
        doc.blocks = m.blocks;
        doc.variables = m.variables;
        doc.ladder = m.ladder;
        doc.st = m.st;
        doc.connectors = m.connectors;
    }
    doc.fbd = doc.fbd.max(doc.version_needed());
    if !cx.errors.is_empty() {
        return Err(Diagnostics(cx.errors));
    }
    crate::reserved::restore(&mut doc, &renamed_ports(root));
    let mut places = HashMap::new();
    for (pou, id, off) in std::mem::take(&mut cx.places) {
        let at = cx.offset_pos(off);
        places.entry((pou, id)).or_insert(at);
    }
    Ok(Imported { doc, places, warnings: cx.warnings })
}

/// The file parsed as XML, or why it is not (an element of too many attributes refused before
/// the parser spends its time on it; a file cut short named at its end).
fn parse_xml<'i>(path: &Path, text: &'i str) -> Result<roxmltree::Document<'i>, Diagnostics> {
    if let Some((off, n)) = crowded_element(text) {
        let line = text[..off].matches('\n').count() + 1;
        let col = text[..off].rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        return Err(Diagnostic::new(
            path,
            format!("this element has more than {} attributes; a PLCopen element has a few", n - 1),
        )
        .at(Some((line, col)))
        .into());
    }
    roxmltree::Document::parse(text).map_err(|e| {
        let p = e.pos();
        // A file cut short ends where it ends (the parser says 1:1 for it).
        let at = if matches!(e, roxmltree::Error::UnexpectedEndOfStream | roxmltree::Error::UnclosedRootNode) {
            let line = text.split('\n').count();
            (line, text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1)
        } else {
            (p.row as usize, p.col as usize)
        };
        Diagnostics::from(Diagnostic::new(path, format!("not well-formed XML: {e}")).at(Some(at)))
    })
}

/// The POUs that declare an input named EN (those have no implicit one).
fn declaring_en(pous: &[Node]) -> HashSet<String> {
    pous.iter()
        .filter(|p| {
            p.descendants()
                .filter(|n| n.tag_name().name() == "inputVars")
                .flat_map(|n| children(n, "variable"))
                .any(|v| v.attribute("name").is_some_and(|n| n.eq_ignore_ascii_case("en")))
        })
        .map(|p| p.attribute("name").unwrap_or("").to_string())
        .collect()
}

/// The ports this tool's export renamed because IEC reserves their names (`FBD_en`), from the
/// project's `addData`.
fn renamed_ports(root: Node) -> Vec<crate::reserved::Rename> {
    child(root, "addData")
        .into_iter()
        .flat_map(|a| children(a, "data"))
        .filter(|d| d.attribute("name") == Some(crate::reserved::NAMES_DATA))
        .flat_map(|d| d.descendants().filter(|n| n.tag_name().name() == "port"))
        .filter_map(|p| {
            Some((
                p.attribute("pou").map(str::to_string),
                p.attribute("name")?.to_string(),
                p.attribute("original")?.to_string(),
            ))
        })
        .collect()
}

/// The stand-in macros of the extension blocks the file uses (a block's type, or a variable's
/// derived type) that are neither its POUs nor blocks this runtime has, each named as the file
/// first writes it.
fn used_stand_ins(cx: &Ctx, root: Node, pou_names: &HashSet<String>) -> Vec<MacroDef> {
    let mut seen: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    let used = root.descendants().filter_map(|n| match n.tag_name().name() {
        "block" => n.attribute("typeName"),
        "derived" => n.attribute("name"),
        _ => None,
    });
    for t in used {
        if pou_names.iter().any(|p| p.eq_ignore_ascii_case(t)) || map_type(t).is_some() {
            continue;
        }
        if let Some(b) = cx.stand_ins.block(t)
            && seen.insert(t.to_ascii_uppercase())
        {
            out.push(extensions::macro_of(b, t));
        }
    }
    out
}

/// The cyclic task of the one program instance: its interval as the cycle, and the name of the
/// program it runs.
fn cyclic_task(cx: &mut Ctx, root: Node) -> (Option<f64>, Option<String>) {
    let cyclic: Vec<Node> = root
        .descendants()
        .filter(|n| n.is_element() && n.tag_name().name() == "task" && n.attribute("interval").is_some())
        .collect();
    let Some(t) = cyclic.first() else { return (None, None) };
    let iv = t.attribute("interval").unwrap_or("");
    let cycle_ms = match literal::interval_ms(iv) {
        Some(ms) if ms > 0.0 => Some(ms),
        _ => {
            let task = t.attribute("name").unwrap_or("");
            cx.err(*t, format!("task `{task}`: interval `{iv}` is not a duration (T#20ms or 00:00:00.020)"));
            None
        }
    };
    // CODESYS and TwinCAT write a program's instance as `name="PLC_PRG" typeName=""`: there a
    // program is its own instance, named as the POU.
    let run = t
        .descendants()
        .find(|n| n.tag_name().name() == "pouInstance")
        .and_then(|p| p.attribute("typeName").filter(|t| !t.trim().is_empty()).or(p.attribute("name")))
        .map(str::to_string);
    if cyclic.len() > 1 {
        let names: Vec<&str> = cyclic.iter().map(|t| t.attribute("name").unwrap_or("?")).collect();
        cx.warnings.push(format!(
            "{} cyclic tasks ({}); imported `{}`'s interval, the first: this runtime has one task",
            cyclic.len(),
            names.join(", "),
            names[0]
        ));
    }
    (cycle_ms, run)
}

/// The program POU imported: the one the task runs (`run`), else the first (said if there are
/// more); an error at the task's pouInstance if there is none.
fn program_to_run<'a, 'i>(
    cx: &mut Ctx,
    root: Node<'a, 'i>,
    pous: &[Node<'a, 'i>],
    run: Option<&str>,
) -> Result<Node<'a, 'i>, Diagnostics> {
    let programs: Vec<Node> = pous.iter().copied().filter(|p| p.attribute("pouType") == Some("program")).collect();
    let program = match run {
        Some(name) => programs.iter().find(|p| p.attribute("name") == Some(name)).copied(),
        None => programs.first().copied(),
    };
    if run.is_none() && programs.len() > 1 {
        let names: Vec<&str> = programs.iter().map(|p| p.attribute("name").unwrap_or("?")).collect();
        cx.warnings.push(format!(
            "no task says which program runs; imported `{}`, the first of {} programs ({})",
            names[0],
            names.len(),
            names.join(", ")
        ));
    }
    program.ok_or_else(|| {
        let d = match run {
            Some(n) if n.trim().is_empty() => {
                Diagnostic::new(cx.path, "the task's pouInstance has an empty typeName: name the program POU it runs")
            }
            Some(n) => Diagnostic::new(cx.path, format!("the task runs `{n}`, which is no program POU of the file")),
            None => Diagnostic::new(cx.path, "no program POU to run (types/pous/pou with pouType=\"program\")"),
        };
        let at = root.descendants().find(|n| n.tag_name().name() == "pouInstance").map(|n| cx.text_pos(n));
        d.at(at).into()
    })
}

/// What the blocks of a POU body build, element after element.
#[derive(Default)]
struct BodyBlocks {
    /// The blocks, with edge inputs as R_TRIG / F_TRIG blocks in front.
    blocks: Vec<Block>,
    /// Every read of a variable by a block, and each block's call in the sequence.
    reads: Vec<Read>,
    /// Each block's call in the sequence.
    block_at: HashMap<String, usize>,
    /// ENO of the blocks that have an EN: the EN's driver.
    enos: HashMap<String, Wire>,
    /// A number for the blocks the import adds (`__or`, `__pre`).
    extra: usize,
    /// The connectors the blocks' continuations read: name → the block output it carries.
    connectors: BTreeMap<String, String>,
}

/// What a block of the body is read against.
struct BlockEnv<'a, 'x, 'i> {
    look: &'a Lookup<'a, 'x, 'i>,
    seq: &'a order::Sequence,
    declares_en: &'a HashSet<String>,
    /// The POU's inputs (a read of one is of this scan's value, never delayed).
    in_names: &'a HashSet<&'a str>,
    locals: &'a [Var],
    /// The key of the POU in `Ctx::places` (the program's is empty).
    pou_key: &'a str,
    /// The variables declared TIME (a MUL or DIV of one by a number is MULTIME, DIVTIME).
    time_vars: &'a HashSet<&'a str>,
}

/// The variables the body's outVariables (and inOutVariables) write: each one's source
/// (through the OR of a wired OR and the NOT of a negated write, blocks added to `built`).
fn variable_writes(
    cx: &mut Ctx,
    elems: &[Node],
    env: &BlockEnv,
    (name, vars): (&str, &[&Var]),
    built: &mut BodyBlocks,
    earlier: &mut BTreeMap<String, Vec<(Src, usize)>>,
) -> BTreeMap<String, (Src, usize)> {
    let (look, seq) = (env.look, env.seq);
    let BodyBlocks { blocks, reads, block_at, enos, .. } = built;
    let mut writes: BTreeMap<String, (Src, usize)> = BTreeMap::new();
    for e in elems.iter().filter(|e| matches!(e.tag_name().name(), "outVariable" | "inOutVariable")) {
        let var = child(*e, "expression").and_then(|x| x.text()).unwrap_or("").trim();
        let var = look.variable(var);
        let Some(cpi) = child(*e, "connectionPointIn") else { continue };
        if child(cpi, "connection").is_none() {
            continue;
        }
        if e.attribute("storage").is_some_and(|s| s != "none") {
            cx.err(*e, format!("`{var}`: set/reset coils (storage) are not supported; use an SR or RS block"));
            continue;
        }
        // Resolved first: the source's own problems are reported whatever the variable.
        let src = look.source(cx, cpi, 0).map(Src::direct);
        if look.whole_structure(&var) {
            cx.err(*e, format!("`{var}` is a whole structure; it is imported as a variable per member (`{var}.x` is `{var}_x`), so write its members"));
            continue;
        }
        if !look.var_names.contains(var.as_str()) {
            let whole = var.split_once('.').map(|(v, _)| v);
            let why = match whole.and_then(|w| vars.iter().find(|v| v.name == w)) {
                Some(v) => member_error(&var, &v.name, v.derived.as_deref()),
                None => format!("`{var}` is written but not declared in POU `{name}`"),
            };
            cx.err(*e, why);
            continue;
        }
        let Some(src) = src else { continue };
        let at = seq.at(e.attribute("localId"));
        let first_new = blocks.len();
        let mut src = wired_or(src, &format!("or_{}", var.replace('.', "_")), blocks, reads, e, at);
        if e.attribute("negated") == Some("true") {
            let id = format!("not_{}", var.replace('.', "_"));
            let w = match src {
                Src::Out(r) | Src::Var(r) => Wire::Ref(r),
                Src::Const(v) => Wire::constant(v),
                Src::Or(_) | Src::Via { .. } => continue,
            };
            blocks.push(simple_block(&id, "NOT", vec![("in".into(), w)], e));
            src = Src::Out(format!("{id}.out"));
        }
        // Beremiz writes a variable straight from a block with EN only while its ENO (its EN)
        // is TRUE (`IF blk.ENO THEN var := ... END_IF`): else the variable keeps its value,
        // its initial one before the block's first call (it took the block's output).
        if let Some(enw) = guarding_en(cpi, look, enos) {
            let id = format!("{}__eno_{}", var.replace('.', "_"), e.attribute("localId").unwrap_or("0"));
            let w = match &src {
                Src::Out(r) | Src::Var(r) => Wire::Ref(r.clone()),
                Src::Const(v) => Wire::constant(*v),
                Src::Or(_) | Src::Via { .. } => continue,
            };
            let hold = Wire::constant(Value::Bool(false));
            blocks.push(simple_block(
                &id,
                "SEL",
                vec![("g".into(), enw.clone()), ("in0".into(), hold), ("in1".into(), w)],
                e,
            ));
            reads.push(Read::new(&id, "in0", &var, at));
            if let Wire::Ref(r) = &enw
                && !env.in_names.contains(r.as_str())
                && !r.contains('.')
            {
                reads.push(Read::new(&id, "g", r, at));
            }
            src = Src::Out(format!("{id}.out"));
        }
        for b in &blocks[first_new..] {
            block_at.insert(b.id.clone(), at);
            cx.places.push((env.pou_key.to_string(), b.id.clone(), e.range().start));
        }
        // Several writes of one variable are legal: the last in the sequence is what the scan
        // leaves, the others what the reads between them see.
        match writes.get(&var) {
            Some((_, q)) if *q > at => earlier.entry(var).or_default().push((src, at)),
            Some(_) => {
                let old = writes.insert(var.clone(), (src, at)).expect("present");
                earlier.entry(var).or_default().push(old);
            }
            None => {
                writes.insert(var, (src, at));
            }
        }
    }
    writes
}

/// The EN of the block a variable's write reads straight from (one connection to a block
/// whose EN is wired: Beremiz's `GetUsedEno`), if it has one.
fn guarding_en(cpi: Node, look: &Lookup, enos: &HashMap<String, Wire>) -> Option<Wire> {
    let mut conns = children(cpi, "connection");
    let (c, None) = (conns.next()?, conns.next()) else { return None };
    let r = c.attribute("refLocalId")?;
    let src = look.by_id.get(r)?;
    if src.tag_name().name() != "block" {
        return None;
    }
    enos.get(look.block_ids.get(r)?).cloned()
}

/// Imports block element `e` into `out` (the block, and the R_TRIG, F_TRIG, NOT, OR and SEL
/// blocks its edges, negations, wired ORs and EN make), or reports why it cannot be.
fn import_block(cx: &mut Ctx, e: &Node, env: &BlockEnv, out: &mut BodyBlocks) {
    let ty = e.attribute("typeName").unwrap_or("");
    let Some(id) = e.attribute("localId").and_then(|l| env.look.block_ids.get(l)).cloned() else {
        cx.err(*e, "a block without localId");
        return;
    };
    let first_new = out.blocks.len();
    // A POU of the file first: a user's `Random` is not the library's RANDOM.
    let our_ty = match map_type(ty) {
        _ if env.look.pou_names.contains(ty) && helper(ty).is_none() => ty.to_string(),
        Some(t) => t,
        None => {
            cx.err(*e, format!("block type `{ty}` is neither a standard block this runtime has nor a POU of the file"));
            return;
        }
    };
    // IEC's MUL and DIV of a TIME by a number: ours are MULTIME and DIVTIME.
    let our_ty = match our_ty.as_str() {
        "MUL" | "DIV" if time_first_input(cx, e, env) => format!("{our_ty}TIME"),
        _ => our_ty,
    };
    let mut bi = BlockImport {
        e: *e,
        ty,
        our_ty,
        at: env.seq.at(e.attribute("localId")),
        id,
        pins: Pins::default(),
        negated_pins: Vec::new(),
        en: None,
        connected: Vec::new(),
        open: Vec::new(),
        literal_types: Vec::new(),
    };
    for v in child(*e, "inputVariables").into_iter().flat_map(|i| children(i, "variable")) {
        bi.input(cx, v, env, out);
    }
    let at = bi.at;
    let mut b = bi.block(env);
    // ENO is EN: its readers read what drives EN.
    if let Some(enw) = bi.en.take() {
        b.inputs.0.push((library::ENABLE.into(), enw.clone()));
        out.enos.insert(b.id.clone(), enw);
    }
    out.blocks.push(b);
    for b in &out.blocks[first_new..] {
        out.block_at.insert(b.id.clone(), at);
        cx.places.push((env.pou_key.to_string(), b.id.clone(), e.range().start));
    }
}

/// Whether block `e` (a MUL or DIV of two inputs) has a TIME first: a duration literal, a
/// variable declared TIME, or a block output of type TIME (a timer's ET).
fn time_first_input(cx: &mut Ctx, e: &Node, env: &BlockEnv) -> bool {
    let vars: Vec<Node> = child(*e, "inputVariables").into_iter().flat_map(|i| children(i, "variable")).collect();
    let Some(in1) = vars.iter().find(|v| v.attribute("formalParameter").is_some_and(|f| f.eq_ignore_ascii_case("IN1")))
    else {
        return false;
    };
    let Some(cpi) = child(*in1, "connectionPointIn").filter(|_| vars.len() == 2) else { return false };
    // Only looked at: the block's own import reports what is wrong with the connection.
    let before = cx.errors.len();
    let src = env.look.source(cx, cpi, 0).map(Src::direct);
    cx.errors.truncate(before);
    match src {
        Some(Src::Const(v)) => v.ty().is_time(),
        Some(Src::Var(name)) => env.time_vars.contains(name.as_str()),
        Some(Src::Out(r)) => {
            let Some((blk, pin)) = r.split_once('.') else { return false };
            let ty = env
                .look
                .by_id
                .iter()
                .filter(|(id, _)| env.look.block_ids.get(*id).is_some_and(|b| b == blk))
                .find_map(|(_, n)| n.attribute("typeName"))
                .and_then(map_type);
            ty.and_then(|t| library::lookup(&t)).is_some_and(|d| {
                d.outputs.iter().any(|o| o.name == pin && o.ty == library::PinTy::Fixed(fbd_model::Type::Time))
            })
        }
        _ => false,
    }
}

/// One block element being imported.
struct BlockImport<'x, 'i> {
    e: Node<'x, 'i>,
    /// Its type name in the file, and ours.
    ty: &'x str,
    our_ty: String,
    at: usize,
    id: String,
    pins: Pins,
    negated_pins: Vec<String>,
    /// The wire of its EN, when it has one (a function only).
    en: Option<Wire>,
    /// Connected inputs by our pin name: a pin listed twice would be two drivers.
    connected: Vec<(String, Node<'x, 'i>)>,
    /// Inputs the file lists without a connection: they take their IEC default.
    open: Vec<String>,
    /// Inputs fed by a typed literal (`INT#1`), and its type.
    literal_types: Vec<(String, fbd_model::Type)>,
}

impl<'x, 'i> BlockImport<'x, 'i> {
    /// A formal parameter of the file as ours: a stand-in's renamed pins (ENABLE, POSITION)
    /// back to ours.
    fn formal(&self, v: Node<'x, 'i>) -> &'x str {
        let formal = v.attribute("formalParameter").unwrap_or("");
        match helper(self.ty) {
            Some((blk, _)) => crate::stand_in::pin(&blk, formal).unwrap_or(formal),
            None => formal,
        }
    }

    /// Input variable `v`: its EN, or a pin connected to its source (through the NOT,
    /// R_TRIG or F_TRIG its negation or edge needs, and the OR of a wired OR).
    fn input(&mut self, cx: &mut Ctx, v: Node<'x, 'i>, env: &BlockEnv, out: &mut BodyBlocks) {
        let (ty, id) = (self.ty, self.id.clone());
        let formal = self.formal(v);
        if formal.eq_ignore_ascii_case("EN") && helper(ty).is_none() && !env.declares_en.contains(ty) {
            self.enable(cx, v, env, out);
            return;
        }
        let pin = in_pin(&self.our_ty, formal);
        // A formal parameter the block does not have: which pin was meant is a guess.
        if let Some(def) = library::lookup(&self.our_ty)
            && helper(ty).is_none()
            && !checks::library_input(def, &pin)
        {
            cx.err(v, format!("block `{id}`: {ty} has no input `{formal}`"));
            return;
        }
        let Some(cpi) = child(v, "connectionPointIn").filter(|c| child(*c, "connection").is_some()) else {
            self.open.push(pin);
            return;
        };
        if let Some((_, first)) = self.connected.iter().find(|(p, _)| *p == pin) {
            let (line, col) = cx.text_pos(*first);
            cx.err(
                v,
                format!("block `{id}`: input `{formal}` is connected twice (first at {line}:{col}); an input has exactly one driver"),
            );
            return;
        }
        self.connected.push((pin.clone(), v));
        // A typed literal (`INT#1`) types the generic block it feeds, as matiec types the call.
        if let Some(t) = typed_literal(env.look, cpi) {
            self.literal_types.push((pin.clone(), t));
        }
        let Some(src) = env.look.source(cx, cpi, 0) else { return };
        let src = wired_or(src, &format!("{id}__or{}", out.extra), &mut out.blocks, &mut out.reads, &self.e, self.at);
        out.extra += 1;
        let wire = match &src {
            Src::Out(r) | Src::Var(r) => Wire::Ref(r.clone()),
            Src::Const(v) => Wire::constant(*v),
            // An ENO is not an output here (it is replaced by what drives EN): read directly.
            Src::Via { connector, out: r } if !r.ends_with(".eno") => {
                out.connectors.insert(connector.clone(), r.clone());
                Wire::Connector(connector.clone())
            }
            Src::Via { out: r, .. } => Wire::Ref(r.clone()),
            Src::Or(_) => return, // made into an OR block above
        };
        let wire = self.negation_or_edge(v, &pin, &src, wire, out);
        self.pins.0.push((pin, wire));
    }

    /// A negated input is negated here too (the circle stays a circle), a library block's and
    /// a POU instance's alike; an edge (or a negation with one) is an R_TRIG, F_TRIG or NOT in
    /// front of the block. The wire the pin then reads.
    fn negation_or_edge(&mut self, v: Node, pin: &str, src: &Src, wire: Wire, out: &mut BodyBlocks) -> Wire {
        let (id, at) = (&self.id, self.at);
        let negated = v.attribute("negated") == Some("true");
        let edge = v.attribute("edge").filter(|e| *e != "none");
        if negated && edge.is_none() {
            if let Src::Var(n) = src {
                out.reads.push(Read::new(id, pin, n, at));
            }
            self.negated_pins.push(pin.to_string());
            return wire;
        }
        if !negated && edge.is_none() {
            if let Src::Var(n) = src {
                out.reads.push(Read::new(id, pin, n, at));
            }
            return wire;
        }
        let (kind, inpin, outpin) = match edge {
            Some("rising") => ("R_TRIG", "clk", "q"),
            Some("falling") => ("F_TRIG", "clk", "q"),
            _ => ("NOT", "in", "out"),
        };
        let pre = format!("{id}__pre{}", out.extra);
        out.extra += 1;
        if let Src::Var(n) = src {
            out.reads.push(Read::new(&pre, inpin, n, at));
        }
        let mut pb = simple_block(&pre, kind, vec![(inpin.to_string(), wire)], &self.e);
        // In front of the block it feeds, not on top of it.
        if let Some(p) = pb.pos.as_mut() {
            p[0] -= 80.0;
            p[1] += 20.0 * self.pins.0.len() as f64;
        }
        out.blocks.push(pb);
        Wire::Ref(format!("{pre}.{outpin}"))
    }

    /// An EN input: the block's EN pin (while it is FALSE the function or function block is
    /// not called and keeps its outputs and state, as matiec runs it); refused when negated or
    /// edge-triggered; an open EN is always executed.
    fn enable(&mut self, cx: &mut Ctx, v: Node, env: &BlockEnv, out: &mut BodyBlocks) {
        let id = &self.id;
        let Some(cpi) = child(v, "connectionPointIn").filter(|c| child(*c, "connection").is_some()) else {
            return;
        };
        // A negated or edge-triggered EN ran the function when EN was FALSE (dropped).
        if v.attribute("negated") == Some("true") || v.attribute("edge").is_some_and(|e| e != "none") {
            cx.err(v, format!("block `{id}`: a negated or edge-triggered EN is not supported; negate or detect the edge before it (NOT, R_TRIG)"));
            return;
        }
        // Several connections into EN are a wired OR, as on any input (EN was dropped: the
        // block ran every scan).
        let src = env.look.source(cx, cpi, 0).map(|s| {
            let s = wired_or(s, &format!("{id}__en_or"), &mut out.blocks, &mut out.reads, &v, self.at);
            Src::direct(s)
        });
        self.en = match src {
            Some(Src::Out(r)) | Some(Src::Var(r)) => Some(Wire::Ref(r)),
            // EN wired to TRUE (a ladder rung's rail) calls the block every scan: no EN.
            Some(Src::Const(Value::Bool(true))) => None,
            Some(Src::Const(c)) => Some(Wire::constant(c)),
            _ => None,
        };
        if let Some(Wire::Ref(r)) = &self.en
            && !env.in_names.contains(r.as_str())
            && !r.contains('.')
        {
            out.reads.push(Read::new(id, library::ENABLE, r, self.at));
        }
    }

    /// The block itself: its pins, negated outputs (every reader gets the inverse), type,
    /// and parameters (an instance's initial member values; a SELECTOR's n from its outputs).
    fn block(&mut self, env: &BlockEnv) -> Block {
        let (e, ty, our_ty) = (self.e, self.ty, self.our_ty.as_str());
        let mut b = simple_block(&self.id, our_ty, Vec::new(), &e);
        b.comment = text::documentation(e);
        b.inputs = std::mem::take(&mut self.pins);
        for v in child(e, "outputVariables").into_iter().flat_map(|o| children(o, "variable")) {
            if v.attribute("negated") == Some("true") {
                let formal = self.formal(v);
                self.negated_pins.push(names::out_pin(ty, formal, env.look.pou_names));
            }
        }
        b.negated = std::mem::take(&mut self.negated_pins).into();
        let def = library::lookup(our_ty);
        if def.is_some_and(|d| d.generic != library::Generic::No) {
            b.data_type = helper(ty).map(|(_, t)| TypeName(t)).or_else(|| names::counter_type(ty).map(TypeName));
        }
        if let Some(d) = def.filter(|d| d.generic != library::Generic::No && b.data_type.is_none()) {
            let on_t = |pin: &str| {
                d.inputs.iter().any(|p| p.name == pin && p.ty == library::PinTy::T)
                    || d.var_inputs.is_some_and(|v| v.ty == library::PinTy::T && pin.starts_with(v.prefix))
            };
            if let Some((_, t)) = self.literal_types.iter().find(|(pin, t)| on_t(pin) && d.generic.admits(*t)) {
                b.data_type = Some(TypeName(*t));
            }
        }
        if let Some(d) = def.filter(|_| helper(ty).is_none()) {
            default_inputs(&mut b, d, &self.open);
        }
        if let Some(inst) = e.attribute("instanceName")
            && let Some(var) = env.locals.iter().find(|v| v.name == inst)
        {
            for (k, v) in &var.members {
                match k.as_str() {
                    "seed" => b.params.seed = v.as_f64().max(0.0).to_string().parse::<f64>().ok().map(|x| x as u64),
                    _ if def.is_some_and(|d| d.outputs.first().is_some_and(|o| o.name == k)) => {
                        b.params.init = Some(Box::new(Const(*v)))
                    }
                    _ => {}
                }
            }
        }
        if our_ty == "SELECTOR" {
            let n = child(e, "outputVariables").map_or(0, |o| children(o, "variable").count());
            b.params.n = Some(n as u32);
        }
        b
    }
}

/// The type of a typed literal (`INT#1`, `REAL#2.5`; not a duration's `T#`) that an
/// inVariable feeding `cpi` writes.
fn typed_literal(look: &Lookup, cpi: Node) -> Option<fbd_model::Type> {
    let id = child(cpi, "connection")?.attribute("refLocalId")?;
    let e = look.by_id.get(id)?;
    if e.tag_name().name() != "inVariable" {
        return None;
    }
    let text = child(*e, "expression")?.text()?.trim();
    let (prefix, _) = text.split_once('#')?;
    let t = literal::elementary(prefix)?;
    (!t.is_time()).then_some(t)
}

/// An input of a standard block that nothing drives takes its IEC default, as matiec does (a
/// TON whose PT is open runs with T#0s; an ADD whose IN1 is open adds 0): the inputs the file
/// lists open, and the ones this runtime would otherwise require.
fn default_inputs(b: &mut Block, def: &library::BlockDef, open: &[String]) {
    let zero = |ty: library::PinTy| match ty {
        library::PinTy::Fixed(t) => t.zero(),
        library::PinTy::T => match (b.data_type, def.generic) {
            (Some(TypeName(t)), _) => t.zero(),
            (None, library::Generic::Logic) => Value::Bool(false),
            (None, _) => Value::Int(0),
        },
    };
    let mut add: Vec<(String, Value)> = Vec::new();
    for p in def.inputs.iter().filter(|p| p.default.is_none() && b.inputs.get(p.name).is_none()) {
        add.push((p.name.to_string(), zero(p.ty)));
    }
    if let Some(v) = def.var_inputs {
        for pin in open.iter().filter(|p| b.inputs.get(p).is_none() && p.starts_with(v.prefix)) {
            if !add.iter().any(|(n, _)| n == pin) {
                add.push((pin.clone(), zero(v.ty)));
            }
        }
    }
    b.inputs.0.extend(add.into_iter().map(|(n, v)| (n, Wire::constant(v))));
}

/// A POU's variables as the body sees them: inputs, outputs and locals (a program's located
/// variables as its I/O, structures flattened into a variable per member).
struct Interface {
    ins: Vec<Var>,
    outs: Vec<Var>,
    locals: Vec<Var>,
    /// `st.Run` → `st_Run`, for every member of a flattened structure.
    member_paths: HashMap<String, String>,
    /// A function's result variable (its name), read and written by that name in its body.
    result_of: Option<String>,
    /// A program instance's globals (among `ins`): read from the instance's input of that
    /// name, written back through its output `<name>__out`.
    shared: Vec<String>,
}

/// What a POU becomes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// The one program run: the top level, its located variables its I/O.
    Program,
    /// One of several program instances: a macro whose located variables and globals are its
    /// ports (`project.rs` wires them at the top level).
    Instance,
    /// A function block or a function: a macro.
    Block,
}

/// The interface of POU `pou` (named `name`), with every problem of it reported.
fn interface(
    cx: &mut Ctx,
    pou: Node,
    name: &str,
    pou_names: &HashSet<String>,
    types: &structs::StructTypes,
    globals: &HashMap<String, Var>,
    role: Role,
) -> Interface {
    let is_program = role != Role::Block;
    let iface = child(pou, "interface");
    modifiers::refuse_in_outs(cx, iface, name);
    let mut ins = variables(cx, iface, "inputVars");
    let mut outs = variables(cx, iface, "outputVars");
    // A function's result (its `returnType`) is written, and read, by the function's name in
    // its body, and is the `OUT` pin of a call (as Beremiz and OpenPLC Editor name it).
    let result_of = function_result(cx, pou, iface, name, &mut outs);
    let mut locals: Vec<Var> = ["localVars", "tempVars"].iter().flat_map(|s| variables(cx, iface, s)).collect();
    locals.extend(checks::globals_of(cx, iface, name, is_program, globals));
    checks::unknown_types(cx, pou, &ins.iter().chain(&outs).chain(&locals).collect::<Vec<_>>(), pou_names, types);
    // An instance's globals are shared with the other instances: each is an input (its value
    // when the instance is called) that the body may write (an output), located or not.
    if role == Role::Instance {
        let (globals, rest): (Vec<Var>, Vec<Var>) = std::mem::take(&mut locals).into_iter().partition(|v| v.global);
        locals = rest;
        ins.extend(globals);
    }
    // Located variables of the program are its I/O, each keeping its address: %I… inputs;
    // %Q… and %M… outputs where the body writes them, else inputs (plain memory the PLC's
    // runtime, and a SCADA over Modbus, sets; a read of one was a constant 0).
    if is_program {
        let written = written_variables(pou);
        for v in std::mem::take(&mut locals) {
            match v.address.as_deref().map(|a| a.trim().to_ascii_uppercase()) {
                _ if v.stand_in && written.contains(&v.name) => outs.push(v),
                _ if v.stand_in => ins.push(v),
                Some(a) if a.starts_with("%I") => ins.push(v),
                Some(a) if (a.starts_with("%Q") || a.starts_with("%M")) && written.contains(&v.name) => outs.push(v),
                Some(a) if a.starts_with("%Q") || a.starts_with("%M") => ins.push(v),
                _ => locals.push(v),
            }
        }
    }
    // Structures: a variable per member (`st.Run` is `st_Run`).
    let mut member_paths: HashMap<String, String> = HashMap::new();
    let ins = structs::flatten(cx, ins, types, &mut member_paths, pou);
    let outs = structs::flatten(cx, outs, types, &mut member_paths, pou);
    let locals = structs::flatten(cx, locals, types, &mut member_paths, pou);
    structs::check_collisions(cx, pou, [&ins, &outs, &locals], &member_paths);
    // A structure global is shared member by member.
    let shared = ins.iter().filter(|v| v.global && role == Role::Instance).map(|v| v.name.clone()).collect();
    Interface { ins, outs, locals, member_paths, result_of, shared }
}

/// The POU's outputs, each from what the scan leaves in its variable (`value_at`); a located
/// one of the program at its address (`fbd serve`), a function block's without one.
fn pou_outputs(
    cx: &mut Ctx,
    (pou, name): (Node, &str),
    outs: &[Var],
    mut value_at: impl FnMut(&str) -> Wire,
    is_program: bool,
) -> Vec<PortOut> {
    let mut outputs = Vec::new();
    for v in outs {
        let from = value_at(&v.name);
        let Some(ty) = v.ty else {
            cx.err(pou, format!("output `{}` of `{name}` has a derived type; a program's outputs are of elementary types (BOOL, the integers and bit strings, REAL, LREAL, TIME, STRING)", v.name));
            continue;
        };
        outputs.push(PortOut {
            address: if is_program { v.address.clone() } else { None },
            name: v.name.clone(),
            ty: TypeName(ty),
            from,
            kind: v.output_kind.clone(),
            description: v.doc.clone(),
        });
    }
    outputs
}

/// The variables a body writes (its outVariables' and inOutVariables' expressions, its coils'
/// variables).
fn written_variables(pou: Node) -> HashSet<String> {
    pou.descendants()
        .filter(|e| matches!(e.tag_name().name(), "outVariable" | "inOutVariable" | "coil"))
        .filter(|e| child(*e, "connectionPointIn").and_then(|c| child(c, "connection")).is_some())
        .filter_map(|e| child(e, "expression").or_else(|| child(e, "variable")).and_then(|x| x.text()))
        .map(|t| t.trim().to_string())
        .collect()
}

/// Every read of a block's ENO made a read of what drove its EN (an open EN, always run:
/// TRUE), in the blocks' inputs and the variables' writes.
fn substitute_enos(
    blocks: &mut [Block],
    (writes, earlier): (&mut Writes, &mut EarlierWrites),
    enos: &HashMap<String, Wire>,
    (reads, block_at, in_names): (&mut Vec<Read>, &HashMap<String, usize>, &HashSet<&str>),
) {
    // ENO to EN to ENO...: a chain of enabled calls is followed to its first EN's driver, and
    // the block whose EN that is.
    let eno_of = |r: &str| -> Option<(Wire, String)> {
        let mut r = r.to_string();
        let mut hops = 0;
        loop {
            let (b, p) = r.split_once('.')?;
            if p != "eno" {
                return None;
            }
            let next = enos.get(b).cloned().unwrap_or(Wire::constant(Value::Bool(true)));
            hops += 1;
            match &next {
                Wire::Ref(n) if n.ends_with(".eno") && hops <= enos.len() => r = n.clone(),
                _ => return Some((next, b.to_string())),
            }
        }
    };
    // An EN driven by a variable (not an input): the ENO's reader reads that variable where
    // the enabled block is called, as its EN does.
    let variable = |w: &Wire| match w {
        Wire::Ref(n) if !n.contains('.') && !in_names.contains(n.as_str()) => Some(n.clone()),
        _ => None,
    };
    for b in blocks.iter_mut() {
        for (pin, w) in b.inputs.0.iter_mut() {
            if let Wire::Ref(r) = w
                && let Some((x, en_block)) = eno_of(r)
            {
                if let (Some(var), Some(at)) = (variable(&x), block_at.get(&en_block)) {
                    reads.push(Read::new(&b.id, pin, &var, *at));
                }
                *w = x;
            }
        }
    }
    // An EN that came to a constant TRUE (the ENO of a block without EN) is no EN.
    for b in blocks.iter_mut() {
        b.inputs.0.retain(|(p, w)| !(p == library::ENABLE && *w == Wire::constant(Value::Bool(true))));
    }
    for (src, _) in writes.values_mut().chain(earlier.values_mut().flatten()) {
        if let Src::Out(r) = src
            && let Some((x, _)) = eno_of(r)
        {
            *src = match x {
                Wire::Ref(r) if variable(&Wire::Ref(r.clone())).is_some() => Src::Var(r),
                Wire::Ref(r) => Src::Out(r),
                Wire::Const(c) => Src::Const(c.value()),
                Wire::Feedback { from, .. } => Src::Out(from),
                // An import's EN wires name their sources directly.
                Wire::Connector(_) => continue,
            };
        }
    }
}

/// A local variable whose only type is its declaration (`cnt : INT`, written by an ADD of a
/// literal) holds what is written into it in that type: the generic block that writes it is
/// of the declared type, as matiec types an expression by the variable it is assigned to (it
/// was LINT, and never wrapped).
fn typed_locals(locals: &[Var], (writes, earlier): (&Writes, &EarlierWrites), blocks: &mut [Block]) {
    let all = |name: &str| writes.get(name).into_iter().chain(earlier.get(name).into_iter().flatten());
    for (v, (src, _)) in locals.iter().flat_map(|v| all(&v.name).map(move |w| (v, w))) {
        let (Some(ty), Src::Out(r)) = (v.ty, src) else { continue };
        let Some((id, pin)) = r.split_once('.') else { continue };
        let Some(b) = blocks.iter_mut().find(|b| b.id == id) else { continue };
        let generic_out = library::lookup(&b.ty)
            .and_then(|d| d.outputs.iter().find(|o| o.name == pin))
            .is_some_and(|o| matches!(o.ty, library::PinTy::T));
        if generic_out && b.data_type.is_none() {
            b.data_type = Some(TypeName(ty));
        }
    }
}

/// Converts one POU: its interface, then its body by language (ST: `st.rs`; LD: `ladder_pou`;
/// FBD: `fbd_pou`), the blocks of a graphical body imported first. For the program, also
/// returns its program inputs.
fn pou_body(
    cx: &mut Ctx,
    pou: Node,
    pou_names: &HashSet<String>,
    declares_en: &HashSet<String>,
    types: &structs::StructTypes,
    globals: &HashMap<String, Var>,
    role: Role,
) -> Option<(MacroDef, Vec<ProgramInput>, project::InstancePorts)> {
    let name = pou.attribute("name").unwrap_or("").to_string();
    let is_program = role == Role::Program;
    let Interface { ins, outs, locals, member_paths, result_of, shared } =
        interface(cx, pou, &name, pou_names, types, globals, role);
    let Some(body) = child(pou, "body") else {
        cx.err(pou, format!("POU `{name}` has no body"));
        return None;
    };
    if let Some(st) = child(body, "ST") {
        let parts = st::StParts {
            pou,
            name,
            st,
            is_program,
            role,
            ins: &ins,
            outs: &outs,
            locals: &locals,
            shared: &shared,
            pou_names,
        };
        return st::st_pou(cx, parts);
    }
    let ld = child(body, "LD");
    let Some(fbd) = child(body, "FBD").or(ld) else {
        let lang =
            body.children().find(|c| c.is_element()).map(|c| c.tag_name().name().to_string()).unwrap_or_default();
        cx.err(body, format!("POU `{name}`: the body is {lang}; only FBD, LD and ST bodies are imported"));
        return None;
    };
    let elems: Vec<Node> = fbd.children().filter(|c| c.is_element()).collect();
    let elements = if ld.is_some() { rungs::element_ids(&elems) } else { HashMap::new() };
    checks::instances_in_function(cx, pou, &name, &elems);
    modifiers::refuse_unsupported(cx, &elems);
    checks::ambiguous(cx, &name, &elems);
    let by_id: HashMap<&str, Node> = elems.iter().filter_map(|e| e.attribute("localId").map(|i| (i, *e))).collect();
    let seq = order::sequence(&elems, &by_id);
    let connectors: HashMap<&str, Node> = elems
        .iter()
        .filter(|e| e.tag_name().name() == "connector")
        .filter_map(|e| e.attribute("name").map(|n| (n, *e)))
        .collect();
    let block_ids = names::block_ids(&elems);
    let var_names: HashSet<&str> = ins.iter().chain(&outs).chain(&locals).map(|v| v.name.as_str()).collect();
    // Variables of a derived type that is no block (a structure, an enumeration): `x.member`
    // of one of them is not an instance's output.
    let structs: HashMap<&str, &str> = ins
        .iter()
        .chain(&outs)
        .chain(&locals)
        .filter_map(|v| Some((v.name.as_str(), v.derived.as_deref()?)))
        .filter(|(_, t)| !pou_names.contains(*t) && map_type(t).is_none())
        .collect();
    // The source a connectionPointIn names (through continuations to their connector).
    let look = Lookup {
        by_id: &by_id,
        connectors: &connectors,
        block_ids: &block_ids,
        var_names: &var_names,
        structs: &structs,
        pou_names,
        result_of: result_of.as_deref(),
        members: &member_paths,
        elements: &elements,
    };

    // Where each block comes from in the file, for an error found after the import.
    let pou_key = if is_program { String::new() } else { name.clone() };
    let in_names_all: HashSet<&str> = ins.iter().map(|v| v.name.as_str()).collect();
    let time_vars: HashSet<&str> = ins
        .iter()
        .chain(&outs)
        .chain(&locals)
        .filter(|v| v.ty.is_some_and(|t| t.is_time()))
        .map(|v| v.name.as_str())
        .collect();
    let env = BlockEnv {
        look: &look,
        seq: &seq,
        declares_en,
        in_names: &in_names_all,
        locals: &locals,
        pou_key: &pou_key,
        time_vars: &time_vars,
    };
    let mut built = BodyBlocks::default();
    for e in elems.iter().filter(|e| e.tag_name().name() == "block") {
        import_block(cx, e, &env, &mut built);
    }
    let parts =
        GraphicParts { pou, name, fbd, is_program, role, ins: &ins, outs: &outs, locals: &locals, shared: &shared };
    if ld.is_some() {
        return ladder_pou(cx, &look, &elems, built, parts);
    }
    fbd_pou(cx, &elems, &env, built, parts)
}

/// An FBD POU as a macro: what each block's inputs read, by the sequence a PLC runs the body
/// in (`order.rs`), the variables the body writes held for the next scan, its outputs and (an
/// instance of several programs) its ports.
fn fbd_pou(
    cx: &mut Ctx,
    elems: &[Node],
    env: &BlockEnv,
    mut built: BodyBlocks,
    parts: GraphicParts,
) -> Option<(MacroDef, Vec<ProgramInput>, project::InstancePorts)> {
    let GraphicParts { pou, name, fbd, is_program, role, ins, outs, locals, shared } = parts;
    let seq = env.seq;
    let vars: Vec<&Var> = ins.iter().chain(outs).chain(locals).collect();
    let mut earlier = BTreeMap::new();
    let mut writes = variable_writes(cx, elems, env, (&name, &vars), &mut built, &mut earlier);
    let BodyBlocks { mut blocks, mut reads, mut block_at, enos, connectors: mut carried, .. } = built;
    let inputs_named: HashSet<&str> = ins.iter().map(|v| v.name.as_str()).collect();
    substitute_enos(&mut blocks, (&mut writes, &mut earlier), &enos, (&mut reads, &block_at, &inputs_named));
    disabled::results_of_disabled_calls(pou.document().root(), &mut blocks, (&mut reads, &mut block_at), &mut carried);
    typed_locals(locals, (&writes, &earlier), &mut blocks);
    // What every read sees, by the sequence a PLC runs the body in (`order.rs`).
    let declared: HashMap<String, Declared> =
        ins.iter().chain(outs).chain(locals).map(|v| (v.name.clone(), Declared { ty: v.ty, init: v.init })).collect();
    let in_names: HashSet<&str> = ins.iter().map(|v| v.name.as_str()).collect();
    let taken: HashSet<String> = blocks.iter().map(|b| b.id.clone()).collect();
    let mut flow = Dataflow::new((&writes, &earlier), &in_names, &declared, &block_at, &taken);
    // Each block by its id, once (a search per read was quadratic in a large body).
    let index: HashMap<String, usize> = blocks.iter().enumerate().map(|(k, b)| (b.id.clone(), k)).collect();
    for r in &reads {
        let wire = flow.value_at(&r.var, r.at);
        if let Some(&k) = index.get(&r.block) {
            set_pin(std::slice::from_mut(&mut blocks[k]), &r.block, &r.pin, wire);
        }
    }
    reads::last_scan_outputs(&mut blocks, &block_at, &carried);
    let mut connectors = reads::kept_connectors(&blocks, &carried);
    // Every local variable the body uses answers by its IEC name (`--watch cnt`, a write, a
    // force, a test table): a connector carrying what the scan leaves in it.
    for v in locals {
        let used = writes.contains_key(&v.name) || reads.iter().any(|r| r.var == v.name);
        if !used || v.ty.is_none() || connectors.iter().any(|c| c.name.eq_ignore_ascii_case(&v.name)) {
            continue;
        }
        let from = flow.value_at(&v.name, seq.end());
        connectors.push(fbd_model::model::Connector { name: v.name.clone(), from });
    }
    lookup::drop_unusable_positions(cx, &name, &mut blocks);
    let mut outputs = pou_outputs(cx, (pou, &name), outs, |v| flow.value_at(v, seq.end()), is_program);
    let mut ports = project::InstancePorts::default();
    if role == Role::Instance {
        project::hold_port_reads(ins, &mut blocks, &mut connectors);
        let written: Vec<(String, Wire)> = shared
            .iter()
            .filter(|g| writes.contains_key(*g))
            .map(|g| (g.clone(), flow.value_at(g, seq.end())))
            .collect();
        ports = project::instance_ports((ins, outs), shared, written, &mut outputs);
    }
    blocks.extend(flow.hold_blocks());
    let body = (blocks, Vec::new(), Vec::new(), connectors);
    Some(pou_macro(cx, (pou, fbd, name, ins, is_program), outputs, body, ports))
}

/// A POU's body, interface and ports as the macro it imports as, with its program inputs.
fn pou_macro(
    cx: &mut Ctx,
    (pou, fbd, name, ins, is_program): (Node, Node, String, &[Var], bool),
    outputs: Vec<PortOut>,
    (blocks, variables, ladder, connectors): (Vec<Block>, Vec<Variable>, Vec<LdElement>, Vec<Connector>),
    ports: project::InstancePorts,
) -> (MacroDef, Vec<ProgramInput>, project::InstancePorts) {
    let (prog_inputs, macro_inputs) = vars::input_ports(cx, pou, &name, ins, is_program);
    let description = text::description(pou, fbd);
    let m = MacroDef {
        name,
        description,
        inputs: macro_inputs,
        outputs,
        blocks,
        variables,
        ladder,
        st: Vec::new(),
        connectors,
        pages: Vec::new(),
    };
    (m, prog_inputs, ports)
}

/// What an LD POU's import has read of it besides its blocks.
/// What the import of an FBD or LD body needs of its POU: the element, its name, the body,
/// its role and its interface.
struct GraphicParts<'a, 'x, 'i> {
    pou: Node<'x, 'i>,
    name: String,
    fbd: Node<'x, 'i>,
    is_program: bool,
    role: Role,
    ins: &'a [Var],
    outs: &'a [Var],
    locals: &'a [Var],
    shared: &'a [String],
}

/// An LD POU as a macro with a ladder network (`rungs.rs`): its blocks as imported, its
/// outputs and locals as variables the network writes, its inputs the body writes as variables
/// that take the input each scan; the compiler runs it in Beremiz's order.
fn ladder_pou(
    cx: &mut Ctx,
    look: &Lookup,
    elems: &[Node],
    built: BodyBlocks,
    p: GraphicParts,
) -> Option<(MacroDef, Vec<ProgramInput>, project::InstancePorts)> {
    let GraphicParts { pou, name, fbd, is_program, role, ins, outs, locals, shared } = p;
    let pou_key = if is_program { String::new() } else { name.clone() };
    let BodyBlocks { mut blocks, connectors: carried, .. } = built;
    let ladder = rungs::network(cx, (look, &pou_key), (look.elements, &blocks), elems);
    let written: HashSet<&str> =
        ladder.iter().filter(|e| e.writes() && !e.from.is_empty()).map(|e| e.var.as_str()).collect();
    let variable = |v: &Var, input: bool| {
        v.ty.map(|ty| Variable {
            name: v.name.clone(),
            ty: TypeName(ty),
            init: v.init.map(fbd_model::model::Const),
            data_type: None,
            init_name: None,
            init_elements: Vec::new(),
            input,
            temp: false,
            description: None,
        })
    };
    let mut variables: Vec<Variable> =
        ins.iter().filter(|v| written.contains(v.name.as_str())).filter_map(|v| variable(v, true)).collect();
    variables.extend(outs.iter().chain(locals).filter_map(|v| variable(v, false)));
    let connectors = reads::kept_connectors(&blocks, &carried);
    lookup::drop_unusable_positions(cx, &name, &mut blocks);
    let mut outputs = pou_outputs(cx, (pou, &name), outs, |v| Wire::Ref(v.to_string()), is_program);
    let mut ports = project::InstancePorts::default();
    if role == Role::Instance {
        let written: Vec<(String, Wire)> =
            shared.iter().filter(|g| written.contains(g.as_str())).map(|g| (g.clone(), Wire::Ref(g.clone()))).collect();
        ports = project::instance_ports((ins, outs), shared, written, &mut outputs);
    }
    Some(pou_macro(cx, (pou, fbd, name, ins, is_program), outputs, (blocks, variables, ladder, connectors), ports))
}
