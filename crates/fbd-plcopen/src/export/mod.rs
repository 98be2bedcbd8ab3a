//! A loaded program → PLCopen TC6 XML v2.01: the program POU with its FBD body, one
//! function-block POU per macro, a configuration whose cyclic task runs the program at the
//! program's cycle. Library blocks the IEC standard has are exported by their standard names
//! (counters by their 64-bit forms, CTU_LINT); the others (MEMORY, DELAY, NEG, FLOOR, FRAC,
//! SELECTOR, NOW, SAW, RANDOM) and the timers (INT milliseconds here, TIME in IEC) become small
//! function blocks with ST bodies named `FBD_<BLOCK>_OF_<TYPE>` (e.g. `FBD_MEMORY_OF_LINT`), which the
//! importer maps back. A feedback wire becomes a local variable written at the end of the body
//! and read, before that, by the block it feeds: the previous scan's value, as in any IEC
//! runtime.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

use fbd_model::library;
use fbd_model::load::Project;
use fbd_model::model::Block;
use fbd_model::{Type, Value};
use fbd_plan::ScanPlan;

use crate::literal::to_iec;

mod body;
use body::{Body, body_xml, ladder_body_xml, st_body_xml};

/// Whether library block `ty` goes out under its own name ([`library::BlockDef::is_iec_standard`]);
/// the others go out as stand-ins.
pub(crate) fn standard(ty: &str) -> bool {
    library::lookup(ty).is_some_and(library::BlockDef::is_iec_standard)
}

use fbd_model::xml::esc;

/// A `documentation` element (formatted text: one XHTML paragraph) for a comment or
/// description, or nothing. The importer reads it back, so comments survive a round trip.
fn documentation(indent: &str, text: Option<&str>) -> String {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => format!("{indent}<documentation><xhtml:p>{}</xhtml:p></documentation>\n", esc(t)),
        None => String::new(),
    }
}

fn iec_type(t: Type) -> &'static str {
    // TC6 writes the elementary types as their names, the strings as `string` and `wstring`.
    if t == Type::String { "string" } else { t.name() }
}

/// A function block instance: its name, its type, its initial member values.
type Instance = (String, String, Vec<(String, Value)>);

/// Types the compiled plan gave: generic blocks' type (by macro, block id) and every output
/// (by macro, `block.pin`).
struct Types {
    block: HashMap<(String, String), Type>,
    output: HashMap<(String, String), Type>,
}

impl Types {
    fn of(plan: &ScanPlan) -> Types {
        let macro_of: HashMap<&str, &str> =
            plan.instances.iter().map(|i| (i.path.as_str(), i.macro_name.as_str())).collect();
        let split = |path: &str| -> (String, String) {
            match path.rsplit_once('/') {
                Some((inst, local)) => (macro_of.get(inst).copied().unwrap_or("").to_string(), local.to_string()),
                None => (String::new(), path.to_string()),
            }
        };
        let mut block = HashMap::new();
        for b in &plan.blocks {
            if let Some(t) = b.data_type {
                block.entry(split(b.path)).or_insert(t);
            }
        }
        let mut output = HashMap::new();
        for s in &plan.signals {
            let k = split(s.path);
            if k.1.contains('.') {
                output.entry(k).or_insert(s.slot.ty);
            }
        }
        Types { block, output }
    }

    /// The types of the macros the program does not instance (a library's others), which go
    /// out too: each compiled once in a program of its own whose inputs are its ports, so its
    /// blocks have the types its ports give them, as an instance would.
    fn add_uninstanced(&mut self, project: &Project, plan: &ScanPlan) {
        let used: std::collections::HashSet<&str> = plan.instances.iter().map(|i| i.macro_name.as_str()).collect();
        let mut names: Vec<&String> = project.macros.keys().filter(|m| !used.contains(m.as_str())).collect();
        names.sort();
        for name in names {
            let Some((_, _, def)) = project.macro_def(name) else { continue };
            let inputs: Vec<serde_json::Value> = def
                .inputs
                .iter()
                .map(|p| serde_json::json!({"name": format!("p_{}", p.name), "type": p.ty.0.name()}))
                .collect();
            let pins: serde_json::Map<String, serde_json::Value> = def
                .inputs
                .iter()
                .map(|p| (p.name.clone(), serde_json::Value::String(format!("p_{}", p.name))))
                .collect();
            let (Ok(inputs), Ok(block)) = (
                serde_json::from_value(serde_json::Value::Array(inputs)),
                serde_json::from_value(serde_json::json!({"id": "u", "type": name, "inputs": pins})),
            ) else {
                continue;
            };
            let mut files: Vec<fbd_model::load::SourceFile> = project
                .files
                .iter()
                .map(|f| fbd_model::load::SourceFile {
                    path: f.path.clone(),
                    text: String::new(),
                    doc: f.doc.clone(),
                    positions: Default::default(),
                })
                .collect();
            let root = &mut files[0].doc;
            root.inputs = inputs;
            root.outputs = Vec::new();
            root.blocks = vec![block];
            // The program's drawing does not fit the one-block program.
            root.connectors = Vec::new();
            root.pages = Vec::new();
            let alone = Project { files, macros: project.macros.clone() };
            // A macro that does not compile on its own keeps the export's guesses.
            if let Ok(p) = fbd_compiler::compile_project(&alone, &fbd_compiler::CompileOptions::default()) {
                let t = Types::of(&p);
                for (k, v) in t.block {
                    self.block.entry(k).or_insert(v);
                }
                for (k, v) in t.output {
                    self.output.entry(k).or_insert(v);
                }
            }
        }
    }
}

/// What a body (the program's or a macro's) is made of, in whichever language it is written.
struct BodyParts<'a> {
    blocks: &'a [Block],
    connectors: &'a [fbd_model::model::Connector],
    variables: &'a [fbd_model::model::Variable],
    ladder: &'a [fbd_model::model::LdElement],
    st: &'a [String],
    /// The names of its inputs.
    inputs: &'a [String],
    outputs: &'a [fbd_model::model::PortOut],
}

/// The body of the program (`mac` empty) or of macro `mac` in its own language: ST, LD (a
/// ladder network or body variables), else FBD.
fn body_in_its_language(
    project: &Project,
    types: &Types,
    mac: &str,
    p: BodyParts,
    helpers: &mut BTreeSet<(String, Type)>,
) -> Body {
    if !p.st.is_empty() {
        let parts =
            body::StParts { blocks: p.blocks, variables: p.variables, st: p.st, inputs: p.inputs, outputs: p.outputs };
        return st_body_xml(parts);
    }
    if p.ladder.is_empty() && p.variables.is_empty() {
        return body_xml(project, types, mac, (p.blocks, p.connectors), p.outputs, helpers);
    }
    let parts = body::LadderParts {
        blocks: p.blocks,
        connectors: p.connectors,
        variables: p.variables,
        ladder: p.ladder,
        inputs: p.inputs,
        outputs: p.outputs,
    };
    ladder_body_xml(project, types, mac, parts, helpers)
}

/// Writes `project` (compiled as `plan`) as PLCopen XML.
pub fn export(project: &Project, plan: &ScanPlan) -> String {
    // A port another tool cannot take (EN, IF, `a-b`, a case twin) goes out renamed,
    // everywhere it is named, and the renames are listed for the import.
    let mut docs: Vec<fbd_model::model::Document> = project.files.iter().map(|f| f.doc.clone()).collect();
    let renames = crate::reserved::hide(&mut docs.iter_mut().collect::<Vec<_>>());
    // Tasks go out as the blocks that run them, as the plan has them (one program whose
    // blocks of a slower task run under an EN: matiec computes the same).
    let tasks = !project.root().tasks.is_empty();
    if tasks {
        // Checked by the compile that made `plan`.
        let _ = fbd_model::model::tasks::lower(&mut docs[0]);
        docs[0].tasks.clear();
    }
    if !renames.is_empty() || tasks {
        let renamed = Project {
            files: project
                .files
                .iter()
                .zip(docs)
                .map(|(f, doc)| fbd_model::load::SourceFile {
                    path: f.path.clone(),
                    text: String::new(),
                    doc,
                    positions: Default::default(),
                })
                .collect(),
            macros: project.macros.clone(),
        };
        return export_project(&renamed, plan, &renames);
    }
    export_project(project, plan, &[])
}

fn export_project(project: &Project, plan: &ScanPlan, renames: &[crate::reserved::Rename]) -> String {
    let mut types = Types::of(plan);
    types.add_uninstanced(project, plan);
    let root = project.root();
    let name = root.name.clone().unwrap_or_else(|| "program".into());
    // One namespace ignoring case: a program `blinker` beside its macro `Blinker` is one name
    // twice in IEC (matiec refused it).
    let mut pname = ident(&name);
    let pou_names: Vec<&str> =
        project.files.iter().flat_map(|f| f.doc.macros.iter().map(|m| m.name.as_str())).collect();
    while pou_names.iter().any(|m| m.eq_ignore_ascii_case(&pname)) || pname.to_ascii_uppercase().starts_with("FBD_") {
        pname.push_str("_program");
    }
    let mut helpers: BTreeSet<(String, Type)> = BTreeSet::new();
    let mut pous = String::new();
    for f in &project.files {
        for m in &f.doc.macros {
            if is_function(m) {
                pous.push_str(&function_pou(m));
                continue;
            }
            let ins: Vec<_> = m
                .inputs
                .iter()
                .map(|p| {
                    (p.name.clone(), p.ty.0, p.default.map(|c| p.ty.0.fit(c.0).unwrap_or(c.0)), p.description.clone())
                })
                .collect();
            let outs: Vec<_> =
                m.outputs.iter().map(|p| (p.name.clone(), p.ty.0, None, p.description.clone())).collect();
            let inputs: Vec<String> = m.inputs.iter().map(|p| p.name.clone()).collect();
            let parts = BodyParts {
                blocks: &m.blocks,
                connectors: &m.connectors,
                variables: &m.variables,
                ladder: &m.ladder,
                st: &m.st,
                inputs: &inputs,
                outputs: &m.outputs,
            };
            let body = body_in_its_language(project, &types, &m.name, parts, &mut helpers);
            pous.push_str(&pou_xml(
                &m.name,
                "functionBlock",
                (&ins, &outs, ""),
                &body,
                m.description.as_deref(),
                &none,
                &none,
            ));
        }
    }
    let ins: Vec<_> = root
        .inputs
        .iter()
        .map(|p| (p.name.clone(), p.ty.0, p.default.map(|c| p.ty.0.fit(c.0).unwrap_or(c.0)), p.description.clone()))
        .collect();
    let outs: Vec<_> = root.outputs.iter().map(|p| (p.name.clone(), p.ty.0, None, p.description.clone())).collect();
    let inputs: Vec<String> = root.inputs.iter().map(|p| p.name.clone()).collect();
    let parts = BodyParts {
        blocks: &root.blocks,
        connectors: &root.connectors,
        variables: &root.variables,
        ladder: &root.ladder,
        st: &root.st,
        inputs: &inputs,
        outputs: &root.outputs,
    };
    let body = body_in_its_language(project, &types, "", parts, &mut helpers);
    let hmi_in = |n: &str| {
        let p = root.inputs.iter().find(|p| p.name == n);
        (p.and_then(|p| p.address.clone()), p.map(hmi_data).unwrap_or_default())
    };
    let hmi_out = |n: &str| {
        let p = root.outputs.iter().find(|p| p.name == n);
        let kind = p.and_then(|p| p.kind.as_deref());
        let xml = kind
            .map(|k| {
                format!(
                    "<addData><data name=\"{HMI_DATA}\" handleUnknown=\"discard\"><output kind=\"{}\"/></data></addData>",
                    esc(k)
                )
            })
            .unwrap_or_default();
        (p.and_then(|p| p.address.clone()), xml)
    };
    // A located variable is a VAR of the program with its address, as OpenPLC Editor and
    // Beremiz write one: matiec refuses an address in VAR_INPUT or VAR_OUTPUT.
    let is_located = |n: &str, ports_in: bool| {
        if ports_in {
            root.inputs.iter().any(|p| p.name == n && p.address.is_some())
        } else {
            root.outputs.iter().any(|p| p.name == n && p.address.is_some())
        }
    };
    let (located_ins, ins): (Vec<_>, Vec<_>) = ins.into_iter().partition(|v| is_located(&v.0, true));
    let (located_outs, outs): (Vec<_>, Vec<_>) = outs.into_iter().partition(|v| is_located(&v.0, false));
    let located =
        vars_xml("localVars", &located_ins, &[], &hmi_in) + &vars_xml("localVars", &located_outs, &[], &hmi_out);
    let program =
        pou_xml(&pname, "program", (&ins, &outs, &located), &body, root.description.as_deref(), &hmi_in, &hmi_out);
    // One SELECTOR stand-in serves every instance: as many outputs as the widest has.
    let selector_n = project
        .files
        .iter()
        .flat_map(|f| f.doc.blocks.iter().chain(f.doc.macros.iter().flat_map(|m| m.blocks.iter())))
        .filter(|b| b.ty == "SELECTOR")
        .map(|b| b.params.n.unwrap_or(1))
        .max()
        .unwrap_or(1);
    for (h, t) in &helpers {
        pous.push_str(&helper_pou(h, *t, plan.cycle_us, selector_n));
    }
    pous.push_str(&program);
    let cycle = plan.cycle_us as f64 / 1000.0;
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0201" xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <fileHeader companyName="fbd2048" productName="fbd2048" productVersion="{ver}" creationDateTime="1970-01-01T00:00:00"/>
  <contentHeader name="{name}">
    <coordinateInfo>
      <fbd><scaling x="1" y="1"/></fbd>
      <ld><scaling x="1" y="1"/></ld>
      <sfc><scaling x="1" y="1"/></sfc>
    </coordinateInfo>
  </contentHeader>
  <types>
{data_types}    <pous>
{pous}    </pous>
  </types>
  <instances>
    <configurations>
      <configuration name="config">
        <resource name="resource1">
          <task name="task_main" interval="T#{cycle}ms" priority="0">
            <pouInstance name="instance0" typeName="{pname}"/>
          </task>
        </resource>
      </configuration>
    </configurations>
  </instances>
{names}</project>
"#,
        ver = env!("CARGO_PKG_VERSION"),
        data_types = data_types_xml(project),
        name = esc(&name),
        names = names_data(renames),
    )
}

/// Whether macro `m` is a FUNCTION as the import makes one (`import::st`): an ST body whose
/// every variable starts afresh at each call, and one output `OUT`, the variable of the
/// function's name (its result).
pub(crate) fn is_function(m: &fbd_model::model::MacroDef) -> bool {
    !m.st.is_empty()
        && m.variables.iter().all(|v| v.temp)
        && matches!(m.outputs.as_slice(), [o] if o.name == "OUT" && matches!(&o.from, fbd_model::model::Wire::Ref(r) if r.eq_ignore_ascii_case(&m.name)))
}

/// A FUNCTION's POU: its inputs, its return type, its other variables as locals (with their
/// initial values: they take them at every call), its ST text.
fn function_pou(m: &fbd_model::model::MacroDef) -> String {
    let ins: Vec<VarDecl> = m
        .inputs
        .iter()
        .map(|p| (p.name.clone(), p.ty.0, p.default.map(|c| p.ty.0.fit(c.0).unwrap_or(c.0)), p.description.clone()))
        .collect();
    let locals: Vec<VarDecl> = m
        .variables
        .iter()
        .filter(|v| !v.input && !v.name.eq_ignore_ascii_case(&m.name))
        .map(|v| (v.name.clone(), v.ty.0, v.init.map(|c| v.ty.0.fit(c.0).unwrap_or(c.0)), v.description.clone()))
        .collect();
    let text = m.st.join("\n").replace("]]>", "]]]]><![CDATA[>");
    format!(
        "      <pou name=\"{}\" pouType=\"function\">\n        <interface>\n          <returnType><{}/></returnType>\n{}{}        </interface>\n        <body>\n          <ST>\n            <xhtml:p><![CDATA[{text}]]></xhtml:p>\n          </ST>\n        </body>\n{}      </pou>\n",
        esc(&m.name),
        iec_type(m.outputs[0].ty.0),
        vars_xml("inputVars", &ins, &[], &none),
        vars_xml("localVars", &locals, &[], &none),
        documentation("        ", m.description.as_deref()),
    )
}

fn ident(s: &str) -> String {
    // Letters and digits with single underscores between them: `2048 (original)` gave
    // `p2048__original_`, which no IEC compiler takes (two underscores in a row, one at the end).
    let mapped: String = s.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    let mut out = mapped.split('_').filter(|p| !p.is_empty()).collect::<Vec<_>>().join("_");
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'p');
    }
    out
}

/// What a variable declaration carries besides its name, type, initial value and
/// documentation: its located address (an attribute) and XML after the initial value.
type Extra<'a> = &'a dyn Fn(&str) -> (Option<String>, String);

/// Nothing extra for any variable.
fn none(_: &str) -> (Option<String>, String) {
    (None, String::new())
}

/// The variables of user data types, as a `localVars` section of their own: an enumeration's
/// by its name, its initial value a value's name (with its type, `Lamp#hold`: matiec reads a
/// name another enumeration has as ambiguous); an array's type written out
/// (`<array><dimension ..>`) unless it is a named one, its initial elements an `arrayValue`.
fn typed_vars_xml(vars: &[fbd_model::model::Variable]) -> String {
    if vars.is_empty() {
        return String::new();
    }
    let mut s = "          <localVars>\n".to_string();
    for v in vars {
        let Some(t) = &v.data_type else { continue };
        let ty = match fbd_model::model::ArrayType::parse(t) {
            Ok(a) => array_xml(&a),
            Err(_) => format!("<derived name=\"{}\"/>", esc(t)),
        };
        let init = if let Some(n) = &v.init_name {
            let n = if n.contains('#') { n.clone() } else { format!("{t}#{n}") };
            format!("<initialValue><simpleValue value=\"{}\"/></initialValue>", esc(&n))
        } else if !v.init_elements.is_empty() {
            let values: String = v
                .init_elements
                .iter()
                .map(|c| format!("<value><simpleValue value=\"{}\"/></value>", esc(&to_iec(c.0))))
                .collect();
            format!("<initialValue><arrayValue>{values}</arrayValue></initialValue>")
        } else {
            String::new()
        };
        let _ = writeln!(s, "            <variable name=\"{}\"><type>{ty}</type>{init}</variable>", esc(&v.name));
    }
    s.push_str("          </localVars>\n");
    s
}

/// An array type as PLCopen writes one: its dimensions and its element type.
fn array_xml(a: &fbd_model::model::ArrayType) -> String {
    let dims: String = a.dims.iter().map(|(lo, hi)| format!("<dimension lower=\"{lo}\" upper=\"{hi}\"/>")).collect();
    let of = match Type::parse(&a.of) {
        Some(t) => format!("<{}/>", iec_type(t)),
        None => format!("<derived name=\"{}\"/>", esc(&a.of)),
    };
    format!("<array>{dims}<baseType>{of}</baseType></array>")
}

/// The project's user data types as PLCopen `dataType`s (an enumeration: its values).
fn data_types_xml(project: &Project) -> String {
    let types: Vec<&fbd_model::model::DataType> = project.files.iter().flat_map(|f| f.doc.types.iter()).collect();
    if types.is_empty() {
        return "    <dataTypes/>\n".to_string();
    }
    let mut s = "    <dataTypes>\n".to_string();
    for t in types {
        if let Some(a) = t.array() {
            let _ = writeln!(
                s,
                "      <dataType name=\"{}\"><baseType>{}</baseType></dataType>",
                esc(&t.name),
                array_xml(a)
            );
            continue;
        }
        let values: String = t.values().iter().map(|v| format!("<value name=\"{}\"/>", esc(v))).collect();
        // With its type (`Lamp#hold`): matiec reads a value name another type has as ambiguous.
        let init = t.init.as_ref().map_or(String::new(), |v| {
            let v = if v.contains('#') { v.clone() } else { format!("{}#{v}", t.name) };
            format!("<initialValue><simpleValue value=\"{}\"/></initialValue>", esc(&v))
        });
        let _ = writeln!(
            s,
            "      <dataType name=\"{}\"><baseType><enum><values>{values}</values></enum></baseType>{init}{}</dataType>",
            esc(&t.name),
            documentation("", t.description.as_deref()).trim_end()
        );
    }
    s.push_str("    </dataTypes>\n");
    s
}

/// A declared variable: name, type, initial value, documentation.
type VarDecl = (String, Type, Option<Value>, Option<String>);

/// Where the export keeps what PLCopen has no element for: how the HMI shows a program input or
/// output (`addData`, which other tools keep or drop as they please; the import reads it back).
pub(crate) const HMI_DATA: &str = "https://fbd2048.example/plcopen/hmi";

/// The `addData` name under which a block renamed on export keeps its id (`<id value=…/>`).
pub(crate) const ID_DATA: &str = "https://fbd2048.example/plcopen/id";

/// A program input's `addData`: its kind and a selector's position labels (nothing for a
/// number field, the default).
fn hmi_data(p: &fbd_model::model::ProgramInput) -> String {
    if p.kind == fbd_model::model::InputKind::Number && p.options.is_empty() {
        return String::new();
    }
    let options: String = p.options.iter().map(|o| format!("<option>{}</option>", esc(o))).collect();
    format!(
        "<addData><data name=\"{HMI_DATA}\" handleUnknown=\"discard\"><input kind=\"{}\">{options}</input></data></addData>",
        p.kind.name()
    )
}

/// `extra(name)`: a variable's located address and the XML written after its initial value
/// (its `addData`).
fn vars_xml(tag: &str, vars: &[VarDecl], derived: &[Instance], extra: Extra<'_>) -> String {
    if vars.is_empty() && derived.is_empty() {
        return String::new();
    }
    let mut s = format!("          <{tag}>\n");
    for (n, t, init, doc) in vars {
        let init = init.map_or(String::new(), |v| {
            format!("<initialValue><simpleValue value=\"{}\"/></initialValue>", esc(&to_iec(v)))
        });
        let doc = documentation("", doc.as_deref());
        let (address, more) = extra(n);
        let address = address.map_or(String::new(), |a| format!(" address=\"{}\"", esc(&a)));
        let _ = writeln!(
            s,
            "            <variable name=\"{}\"{address}><type><{}/></type>{init}{more}{}</variable>",
            esc(n),
            iec_type(*t),
            doc.trim_end()
        );
    }
    for (n, t, members) in derived {
        // Parameters the block has (a MEMORY's init, a RANDOM's seed) as the instance's
        // initial member values.
        let init = if members.is_empty() {
            String::new()
        } else {
            let m: String = members
                .iter()
                .map(|(k, v)| {
                    format!("<value member=\"{}\"><simpleValue value=\"{}\"/></value>", esc(k), esc(&to_iec(*v)))
                })
                .collect();
            format!("<initialValue><structValue>{m}</structValue></initialValue>")
        };
        let _ = writeln!(
            s,
            "            <variable name=\"{}\"><type><derived name=\"{}\"/></type>{init}</variable>",
            esc(n),
            esc(t)
        );
    }
    let _ = writeln!(s, "          </{tag}>");
    s
}

/// `extra_in` and `extra_out`: XML written into an input's or an output's declaration (see
/// `vars_xml`); `located`: the located variables' sections, written before the locals.
fn pou_xml(
    name: &str,
    kind: &str,
    (ins, outs, located): (&[VarDecl], &[VarDecl], &str),
    body: &Body,
    doc: Option<&str>,
    extra_in: Extra<'_>,
    extra_out: Extra<'_>,
) -> String {
    format!(
        "      <pou name=\"{}\" pouType=\"{kind}\">\n        <interface>\n{}{}{located}{}        </interface>\n        <body>\n          <{lang}>\n{}          </{lang}>\n        </body>\n{}      </pou>\n",
        esc(name),
        vars_xml("inputVars", ins, &[], extra_in),
        vars_xml("outputVars", outs, &[], extra_out),
        vars_xml("localVars", &body.locals, &body.instances, &none) + &typed_vars_xml(&body.typed),
        body.xml,
        documentation("        ", doc),
        lang = body.language,
    )
}

/// The formal parameter of input `pin` of `b` (standard blocks: the IEC name in upper case). A
/// stand-in renames what an IEC compiler reserves (`en` is `ENABLE`: every IEC block has an
/// implicit EN of its own; SELECTOR's `sel` is `POSITION`).
fn formal_in(b: &Block, pin: &str) -> String {
    match library::lookup(&b.ty) {
        Some(_) if !standard(&b.ty) => {
            crate::stand_in::formal(&b.ty, pin).map_or_else(|| pin.to_ascii_uppercase(), str::to_string)
        }
        Some(_) => pin.to_ascii_uppercase(),
        None => pin.to_string(),
    }
}

/// The formal name of output `pin` of block `block` (`ids`: each block's localId, its index + 1;
/// a lookup, as a search of the body per wire made a large body's export quadratic).
fn formal_out(blocks: &[Block], ids: &HashMap<&str, u64>, block: &str, pin: &str) -> String {
    match ids.get(block).and_then(|&k| blocks.get(k as usize - 1)) {
        Some(b) if library::lookup(&b.ty).is_some() => pin.to_ascii_uppercase(),
        _ => pin.to_string(),
    }
}

/// A function block with an ST body for a library block IEC has no equivalent of.
fn helper_pou(block: &str, t: Type, cycle_us: u64, selector_n: u32) -> String {
    let (b, i, r) = (Type::Bool, Type::LInt, Type::LReal);
    let v = |n: &str, ty: Type| -> VarDecl { (n.to_string(), ty, None, None) };
    let with = |n: &str, ty: Type, init: Value| -> VarDecl { (n.to_string(), ty, Some(init), None) };
    let (ins, outs, locals, st): (Vec<_>, Vec<_>, Vec<_>, String) = match block {
        "MEMORY" => (
            vec![v("in", t), v("ENABLE", b)],
            vec![v("q", t), v("prev", t)],
            vec![],
            "prev := q;\nIF ENABLE THEN q := in; END_IF;".into(),
        ),
        // `next` is what q becomes at the next call: a block that runs before this one in the
        // scan reads it (q there would be two scans old), and the instance's init sets both
        // (q took the local's 0 at the first call, not init).
        "DELAY" => (vec![v("in", t)], vec![v("q", t), v("next", t)], vec![], "q := next;\nnext := in;".into()),
        "NEG" => (vec![v("in", t)], vec![v("out", t)], vec![], "out := -in;".into()),
        "FLOOR" => (
            vec![v("in", r)],
            vec![v("out", i)],
            vec![],
            "out := LREAL_TO_LINT(in);\nIF LINT_TO_LREAL(out) > in THEN out := out - 1; END_IF;".into(),
        ),
        // The whole part toward zero, whichever way the tool's LREAL_TO_LINT rounds (matiec
        // and CODESYS round to nearest: `in - LREAL_TO_LINT(in)` made FRAC(2.7) -0.3, and the
        // 2048 design's Random takes its digits with FRAC).
        "FRAC" => (
            vec![v("in", r)],
            vec![v("out", r)],
            vec![v("whole", r)],
            "whole := LINT_TO_LREAL(LREAL_TO_LINT(in));\nIF in >= 0.0 AND whole > in THEN whole := whole - 1.0; END_IF;\nIF in < 0.0 AND whole < in THEN whole := whole + 1.0; END_IF;\nout := in - whole;".into(),
        ),
        // The simulated clock: scan n runs at n cycles (in µs, so a cycle of 0.5 ms is exact;
        // it was rounded to whole milliseconds).
        "NOW" => (
            vec![],
            vec![v("ms", i), v("s", r)],
            vec![v("n", i)],
            format!("ms := (n * {cycle_us}) / 1000;\ns := LINT_TO_LREAL(n * {cycle_us}) / 1000000.0;\nn := n + 1;"),
        ),
        // The ramp on the same clock, computed as the engine does it (the 2048 design's Random
        // is three of them; the stand-in had no body, so the export's Random drew nothing).
        "SAW" => (
            vec![with("period", i, Value::Int(1000)), with("lo", r, Value::Real(0.0)), with("hi", r, Value::Real(1.0))],
            vec![v("out", r)],
            vec![v("n", i)],
            format!(
                "IF period <= 0 THEN\n  out := lo;\nELSE\n  out := lo + (hi - lo) * (LINT_TO_LREAL((n * {cycle_us}) MOD (period * 1000)) / LINT_TO_LREAL(period * 1000));\nEND_IF;\nn := n + 1;"
            ),
        ),
        // The one-of-n selector (the design's six-way command selector had no body either).
        "SELECTOR" => (
            vec![v("POSITION", i)],
            (1..=selector_n).map(|k| v(&format!("q{k}"), b)).collect(),
            vec![],
            (1..=selector_n).map(|k| format!("q{k} := POSITION = {k};")).collect::<Vec<_>>().join("\n"),
        ),
        // Not ChaCha8 (it is not written in ST here): Park and Miller's generator, seeded by the
        // block's `seed`; uniform, but not the numbers this engine draws (the stand-in had no
        // declarations and no body at all, which matiec refused).
        "RANDOM" => (
            vec![with("ENABLE", b, Value::Bool(true)), with("lo", i, Value::Int(0)), with("hi", i, Value::Int(1)), v("seed", i)],
            vec![v("x", r), v("n", i)],
            vec![v("st", i)],
            "IF st <= 0 THEN\n  st := ABS(seed MOD 2147483646) + 1;\nEND_IF;\nIF ENABLE THEN\n  st := (st * 48271) MOD 2147483647;\n  x := LINT_TO_LREAL(st - 1) / 2147483646.0;\n  IF hi < lo THEN n := lo; ELSE n := lo + ((st - 1) MOD (hi - lo + 1)); END_IF;\nEND_IF;".into(),
        ),
        _ => (vec![], vec![], vec![], format!("(* {block}: no IEC equivalent; see fbd2048's docs/blocks.md *)")),
    };
    // Pins declared as the blocks that call the stand-in name them (`Q`, `PREV`): a reader
    // that compares names case-sensitively (Beremiz's generator) finds them.
    let upper = |vs: Vec<VarDecl>| -> Vec<VarDecl> {
        vs.into_iter().map(|(n, t, i, d)| (n.to_ascii_uppercase(), t, i, d)).collect()
    };
    let (ins, outs) = (upper(ins), upper(outs));
    let body = Body { xml: String::new(), locals, instances: Vec::new(), language: "FBD", typed: Vec::new() };
    let iface = format!(
        "{}{}{}",
        vars_xml("inputVars", &ins, &[], &none),
        vars_xml("outputVars", &outs, &[], &none),
        vars_xml("localVars", &body.locals, &[], &none)
    );
    format!(
        "      <pou name=\"{}\" pouType=\"functionBlock\">\n        <interface>\n{iface}        </interface>\n        <body>\n          <ST><xhtml:p><![CDATA[{st}]]></xhtml:p></ST>\n        </body>\n        <documentation><xhtml:p>fbd2048 library block {block} ({}) as a function block</xhtml:p></documentation>\n      </pou>\n",
        crate::stand_in::name(block, t),
        t.name()
    )
}

/// The project's `addData` listing the ports renamed on export (empty when none was).
fn names_data(renames: &[crate::reserved::Rename]) -> String {
    if renames.is_empty() {
        return String::new();
    }
    let items: String = renames
        .iter()
        .map(|(pou, new, old)| {
            let pou = pou.as_deref().map(|p| format!(" pou=\"{}\"", esc(p))).unwrap_or_default();
            format!("<port{pou} name=\"{}\" original=\"{}\"/>", esc(new), esc(old))
        })
        .collect();
    format!(
        "  <addData><data name=\"{}\" handleUnknown=\"discard\"><renamed>{items}</renamed></data></addData>\n",
        crate::reserved::NAMES_DATA
    )
}
