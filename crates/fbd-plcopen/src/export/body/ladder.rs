//! One ladder (LD) body of the export: the left rail, the contacts, coils and stores in the
//! order of the network (the order Beremiz's generator makes its statements in), the blocks of
//! the rungs as an FBD body writes them but without executionOrderId (an LD body runs in
//! document order), the body's variables as locals. What the network computes is then what
//! Beremiz's generator and matiec compute from it: the reading the import and the compiler
//! share (`fbd_compiler::ladder`), written back element for element.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

use fbd_layout::Point;
use fbd_model::Type;
use fbd_model::load::Project;
use fbd_model::model::{Block, Connector, LdElement, LdKind, LdModifier, PortOut, Variable, Wire};

use super::{Body, Emitter, InstanceNames, relative};
use crate::export::{Types, esc, formal_out};

/// What a ladder body is made of.
pub(in crate::export) struct LadderParts<'a> {
    pub(in crate::export) blocks: &'a [Block],
    pub(in crate::export) connectors: &'a [Connector],
    pub(in crate::export) variables: &'a [Variable],
    pub(in crate::export) ladder: &'a [LdElement],
    /// The names of the body's inputs.
    pub(in crate::export) inputs: &'a [String],
    pub(in crate::export) outputs: &'a [PortOut],
}

/// Rung pitch and element pitch where the network stores no position.
const RUNG: f64 = 60.0;
const STEP: f64 = 80.0;
const ELEMENT_H: f64 = 20.0;
const ELEMENT_W: f64 = 21.0;

/// The LD body of the program (`mac` empty) or of macro `mac`.
pub(in crate::export) fn ladder_body_xml(
    project: &Project,
    types: &Types,
    mac: &str,
    p: LadderParts,
    helpers: &mut BTreeSet<(String, Type)>,
) -> Body {
    let blocks = p.blocks;
    let rail = blocks.len() as u64 + 1;
    let mut ladder: HashMap<String, u64> = HashMap::new();
    ladder.insert(fbd_model::model::ladder::RAIL.to_string(), rail);
    for (k, e) in p.ladder.iter().enumerate() {
        ladder.insert(e.id.clone(), rail + 1 + k as u64);
    }
    let mut names = InstanceNames::of(project, mac);
    for v in p.variables {
        names.taken.insert(v.name.to_ascii_uppercase());
    }
    // The same writer as an FBD body's, its localIds after the rail's and the elements'.
    let mut em = Emitter::new(project, types, mac, (blocks, p.connectors));
    em.next_id = rail + 1 + p.ladder.len() as u64;
    em.ladder = Some(ladder);
    em.eno_read = eno_read(blocks, p.ladder);
    let mut xml = String::new();
    let (instances, instance_of) = em.blocks_xml(&mut xml, &mut names, helpers);
    // The rail, as tall as the network.
    let bottom = p.ladder.iter().enumerate().map(|(k, e)| position(e, k)[1]).fold(0.0, f64::max) + RUNG;
    let _ = writeln!(
        xml,
        "            <leftPowerRail localId=\"{rail}\" height=\"{bottom}\" width=\"3\"><position x=\"0\" y=\"0\"/><connectionPointOut formalParameter=\"\">{}</connectionPointOut></leftPowerRail>",
        relative(Point { x: 3.0, y: ELEMENT_H / 2.0 })
    );
    for (k, e) in p.ladder.iter().enumerate() {
        let [x, y] = position(e, k);
        let at = Point { x, y: y + ELEMENT_H / 2.0 };
        let conns: String = e.from.iter().map(|w| em.connect(w, &e.id, at, None)).collect();
        let cpi =
            format!("<connectionPointIn>{}{conns}</connectionPointIn>", relative(Point { x: 0.0, y: ELEMENT_H / 2.0 }));
        let cpo = format!(
            "<connectionPointOut>{}</connectionPointOut>",
            relative(Point { x: ELEMENT_W, y: ELEMENT_H / 2.0 })
        );
        let i = rail + 1 + k as u64;
        let head = format!("localId=\"{i}\" height=\"{ELEMENT_H}\" width=\"{ELEMENT_W}\"");
        let pos = format!("<position x=\"{x}\" y=\"{y}\"/>");
        let var = esc(&iec_variable(&e.var, blocks, &em.block_ids, &instance_of));
        let line = match e.kind {
            LdKind::Contact => {
                format!("<contact {head}{}>{pos}{cpi}{cpo}<variable>{var}</variable></contact>", modifier(e.modifier))
            }
            LdKind::Coil => {
                format!("<coil {head}{}>{pos}{cpi}{cpo}<variable>{var}</variable></coil>", modifier(e.modifier))
            }
            LdKind::Store => format!(
                "<outVariable {head}{}>{pos}{cpi}<expression>{var}</expression></outVariable>",
                if e.modifier == LdModifier::Negated { " negated=\"true\"" } else { "" }
            ),
        };
        let _ = writeln!(xml, "            {line}");
    }
    // An output read from another name than its own variable is written last, as the
    // statement after the network's.
    let own = |o: &PortOut| matches!(&o.from, Wire::Ref(r) if *r == o.name && p.variables.iter().any(|v| v.name == *r));
    let y = bottom + RUNG;
    for o in p.outputs.iter().filter(|o| !own(o)) {
        let at = Point { x: STEP * 6.0, y };
        let conn = em.connect(&o.from, &o.name, at, Some(o.ty.0));
        let i = em.id();
        let _ = writeln!(
            xml,
            "            <outVariable localId=\"{i}\" height=\"{ELEMENT_H}\" width=\"{}\"><position x=\"{}\" y=\"{}\"/><connectionPointIn>{}{conn}</connectionPointIn><expression>{}</expression></outVariable>",
            crate::geometry::box_width(&o.name),
            at.x,
            at.y - ELEMENT_H / 2.0,
            relative(Point { x: 0.0, y: ELEMENT_H / 2.0 }),
            esc(&o.name)
        );
    }
    em.connector_elements(&mut xml);
    xml.push_str(&em.reads);
    // The variables: the outputs' own and the inputs' are the ports; the rest are locals.
    let mut locals = em.locals;
    for v in p.variables {
        if v.input || p.inputs.contains(&v.name) || p.outputs.iter().any(|o| o.name == v.name && own(o)) {
            continue;
        }
        locals.push((v.name.clone(), v.ty.0, v.init.map(|c| v.ty.0.fit(c.0).unwrap_or(c.0)), v.description.clone()));
    }
    Body { xml, locals, instances, language: "LD", typed: Vec::new() }
}

/// Where element `k` stands: its stored position, else a rung of its own.
fn position(e: &LdElement, k: usize) -> [f64; 2] {
    e.pos.unwrap_or([STEP, RUNG * k as f64])
}

/// A contact's or coil's modifier as PLCopen's attributes.
fn modifier(m: LdModifier) -> &'static str {
    match m {
        LdModifier::Plain => " negated=\"false\"",
        LdModifier::Negated => " negated=\"true\"",
        LdModifier::Rising => " negated=\"false\" edge=\"rising\"",
        LdModifier::Falling => " negated=\"false\" edge=\"falling\"",
        LdModifier::Set => " negated=\"false\" storage=\"set\"",
        LdModifier::Reset => " negated=\"false\" storage=\"reset\"",
    }
}

/// What a contact reads or a coil writes, as IEC names it: a variable as it is, a block's
/// output as its instance's (`TON0.Q`).
fn iec_variable(
    var: &str,
    blocks: &[Block],
    ids: &HashMap<&str, u64>,
    instance_of: &HashMap<String, String>,
) -> String {
    match var.split_once('.') {
        Some((b, p)) if ids.contains_key(b) => {
            let inst = instance_of.get(b).cloned().unwrap_or_else(|| b.to_string());
            let formal = if p.eq_ignore_ascii_case("eno") { "ENO".to_string() } else { formal_out(blocks, ids, b, p) };
            format!("{inst}.{formal}")
        }
        _ => var.to_string(),
    }
}

/// The blocks whose ENO an element or a block reads.
fn eno_read(blocks: &[Block], ladder: &[LdElement]) -> std::collections::HashSet<String> {
    let wires =
        ladder.iter().flat_map(|e| e.from.iter()).chain(blocks.iter().flat_map(|b| b.inputs.0.iter().map(|(_, w)| w)));
    let vars = ladder.iter().map(|e| e.var.as_str());
    wires
        .filter_map(|w| if let Wire::Ref(r) = w { Some(r.as_str()) } else { None })
        .chain(vars)
        .filter_map(|r| r.split_once('.').filter(|(_, p)| p.eq_ignore_ascii_case("eno")).map(|(b, _)| b.to_string()))
        .collect()
}
