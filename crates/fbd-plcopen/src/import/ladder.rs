//! Ladder (LD) bodies, read as the statements Beremiz's generator writes for them
//! (PLCGenerator.py) and matiec runs: each coil, in document order among the body's
//! outVariables, is one assignment of its rung's power flow; the power flow is computed afresh
//! for each coil (and each block input it feeds), from the left rail through the contacts: in
//! series an AND, several connections into one point an OR. A contact reads its variable when
//! its coil's statement runs (a variable an earlier coil wrote is read as written); an edge
//! contact or coil is an R_TRIG or F_TRIG instance of its own per coil; a negated contact or
//! coil is a NOT; a set coil is `IF power THEN v := TRUE`, a reset coil `IF power THEN v :=
//! FALSE`; power passes through a coil to what follows it (the AND of the coil's connections:
//! Beremiz's generator reads a coil's several connections as a series there, as an OR in the
//! coil's own statement). Blocks in a rung are called once, at the first statement that needs
//! them, as in an FBD body.
//!
//! The body is rewritten as that FBD body (contacts and coils become AND, OR, NOT, R_TRIG,
//! F_TRIG blocks and outVariables; blocks, variables, connectors and comments stay), and the
//! FBD import reads it: one reading of order, reads and EN for both languages. The rewritten
//! text carries a map back to the file's offsets, so every error is at the user's element.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use fbd_model::xml::esc;
use roxmltree::Node;

use super::{child, children};

/// An LD body rewritten as FBD, and where each piece of the new text came from.
pub(super) struct Lowered {
    /// The file with every LD body rewritten.
    pub(super) text: String,
    /// (offset in `text`, offset in the file, copied), in the order of `text`: each piece of
    /// `text` from that offset on comes from the file's text at that offset (copied text
    /// advances with it; a generated element stays at its origin's start).
    pub(super) map: Vec<(usize, usize, bool)>,
}

impl Lowered {
    /// The offset in the file that offset `off` of the rewritten text comes from.
    pub(super) fn origin(&self, off: usize) -> usize {
        let k = self.map.partition_point(|&(at, _, _)| at <= off);
        if k == 0 {
            return off;
        }
        let (at, from, copied) = self.map[k - 1];
        if copied { from + (off - at) } else { from }
    }
}

/// Where an element's power comes from, as the rewritten body names it.
#[derive(Clone, Debug, PartialEq)]
enum Src {
    /// The left power rail: TRUE.
    Rail,
    /// An element's output: its localId and the formal parameter of the output (blocks).
    Out(String, Option<String>),
}

/// What a contact or coil modifies: its negation, edge and (coils) storage.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Modifier {
    Plain,
    Negated,
    Rising,
    Falling,
    Set,
    Reset,
}

fn modifier(e: Node) -> Modifier {
    // Beremiz's ExtractModifier: negation first, then a set or reset storage, then an edge.
    if e.attribute("negated") == Some("true") {
        return Modifier::Negated;
    }
    match (e.attribute("storage"), e.attribute("edge")) {
        (Some("set"), _) => Modifier::Set,
        (Some("reset"), _) => Modifier::Reset,
        (_, Some("rising")) => Modifier::Rising,
        (_, Some("falling")) => Modifier::Falling,
        _ => Modifier::Plain,
    }
}

/// The elements of the rewritten body.
struct Writer<'a, 'i> {
    by_id: HashMap<&'a str, Node<'a, 'i>>,
    /// The next localId to give a generated element (past every id of the file).
    next_id: u64,
    /// Names of trigger instances taken (the POU's variables, the body's instances).
    taken: HashSet<String>,
    /// The number the next trigger of each type tries (each name tried once).
    next_trigger: HashMap<String, u32>,
    /// Generated elements: (the origin element's offset in the file, the XML).
    out: Vec<(usize, String)>,
    /// The contacts already lowered for the statement being written: a contact reached twice
    /// by one coil (a diamond) reads once.
    memo: HashMap<String, Src>,
    errors: Vec<(usize, String)>,
}

impl<'a, 'i> Writer<'a, 'i> {
    fn id(&mut self) -> String {
        self.next_id += 1;
        self.next_id.to_string()
    }

    /// A trigger instance's name as Beremiz gives it: `R_TRIG1`, `R_TRIG2`... unused in the POU.
    fn trigger_name(&mut self, ty: &str) -> String {
        let next = self.next_trigger.entry(ty.to_string()).or_insert(1);
        loop {
            let name = format!("{ty}{next}");
            *next += 1;
            if self.taken.insert(name.to_ascii_uppercase()) {
                return name;
            }
        }
    }

    fn position(origin: Node) -> String {
        child(origin, "position")
            .map(|p| {
                format!(
                    "<position x=\"{}\" y=\"{}\"/>",
                    esc(p.attribute("x").unwrap_or("0")),
                    esc(p.attribute("y").unwrap_or("0"))
                )
            })
            .unwrap_or_else(|| "<position x=\"0\" y=\"0\"/>".into())
    }

    fn connection(src: &Src, rail: &str) -> String {
        match src {
            Src::Rail => format!("<connection refLocalId=\"{rail}\"/>"),
            Src::Out(id, Some(p)) => format!("<connection refLocalId=\"{}\" formalParameter=\"{}\"/>", esc(id), esc(p)),
            Src::Out(id, None) => format!("<connection refLocalId=\"{}\"/>", esc(id)),
        }
    }

    /// A TRUE inVariable for a rail reached from `origin`.
    fn rail(&mut self, origin: Node) -> String {
        let id = self.id();
        let xml = format!(
            "<inVariable localId=\"{id}\" height=\"20\" width=\"40\">{}<connectionPointOut/><expression>TRUE</expression></inVariable>",
            Self::position(origin)
        );
        self.out.push((origin.range().start, xml));
        id
    }

    fn src_ref(&mut self, src: &Src, origin: Node) -> String {
        let rail = if *src == Src::Rail { self.rail(origin) } else { String::new() };
        Self::connection(src, &rail)
    }

    /// A block of `ty` (an instance `inst` for a trigger) with inputs `pins` (formal, source),
    /// made for `origin`; its output.
    fn block(&mut self, ty: &str, inst: Option<String>, pins: &[(&str, Src)], out: &str, origin: Node) -> Src {
        let id = self.id();
        let mut xml = format!("<block localId=\"{id}\" typeName=\"{ty}\"");
        if let Some(i) = &inst {
            let _ = write!(xml, " instanceName=\"{}\"", esc(i));
        }
        let _ = write!(xml, " height=\"40\" width=\"60\">{}<inputVariables>", Self::position(origin));
        for (formal, src) in pins {
            let c = self.src_ref(src, origin);
            let _ = write!(
                xml,
                "<variable formalParameter=\"{formal}\"><connectionPointIn>{c}</connectionPointIn></variable>"
            );
        }
        // Named after what it stands for (`and_stop`: the AND of contact `stop`), as block ids
        // come back from an export's `addData`: the debugger and the drawing name it so.
        let var = variable(origin);
        let what = if var.is_empty() { origin.attribute("instanceName").unwrap_or("rung").to_string() } else { var };
        let name: String = format!("{}_{what}", ty.to_ascii_lowercase())
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
            .collect();
        let _ = write!(
            xml,
            "</inputVariables><inOutVariables/><outputVariables><variable formalParameter=\"{out}\"><connectionPointOut/></variable></outputVariables><addData><data name=\"{}\" handleUnknown=\"discard\"><id value=\"{name}\"/></data></addData></block>",
            crate::export::ID_DATA
        );
        self.out.push((origin.range().start, xml));
        Src::Out(id, Some(out.to_string()))
    }

    /// A read of variable `var` when the statement runs.
    fn read(&mut self, var: &str, origin: Node) -> Src {
        let id = self.id();
        let xml = format!(
            "<inVariable localId=\"{id}\" height=\"20\" width=\"40\">{}<connectionPointOut/><expression>{}</expression></inVariable>",
            Self::position(origin),
            esc(var)
        );
        self.out.push((origin.range().start, xml));
        Src::Out(id, None)
    }

    fn trigger(&mut self, ty: &str, clk: Src, origin: Node) -> Src {
        let name = self.trigger_name(ty);
        self.block(ty, Some(name), &[("CLK", clk)], "Q", origin)
    }

    /// The power flow into connection point `cpi` (an OR of its connections), as the
    /// statement being written computes it.
    fn power(&mut self, cpi: Node<'a, 'i>, origin: Node) -> Option<Src> {
        let conns: Vec<Node> = children(cpi, "connection").collect();
        if conns.is_empty() {
            return None;
        }
        let mut srcs = Vec::new();
        for c in conns {
            let src = self.source(c)?;
            if src == Src::Rail {
                // OR with the rail is TRUE (Beremiz: a path to the rail is TRUE).
                return Some(Src::Rail);
            }
            if !srcs.contains(&src) {
                srcs.push(src);
            }
        }
        if srcs.len() == 1 {
            return srcs.pop();
        }
        let formals: Vec<String> = (1..=srcs.len()).map(|k| format!("IN{k}")).collect();
        let pins: Vec<(&str, Src)> = formals.iter().map(String::as_str).zip(srcs).collect();
        Some(self.block("OR", None, &pins, "OUT", origin))
    }

    /// What connection `c` brings: the rail, a lowered contact, the power through a coil, or
    /// an element's output as it is.
    fn source(&mut self, c: Node<'a, 'i>) -> Option<Src> {
        let r = c.attribute("refLocalId").unwrap_or("");
        let Some(&e) = self.by_id.get(r) else {
            self.errors
                .push((c.range().start, format!("a connection names element {r}, which the body does not have")));
            return None;
        };
        match e.tag_name().name() {
            "leftPowerRail" => Some(Src::Rail),
            "contact" => {
                if let Some(s) = self.memo.get(r) {
                    return Some(s.clone());
                }
                let s = self.contact(e)?;
                self.memo.insert(r.to_string(), s.clone());
                Some(s)
            }
            "coil" => self.through_coil(e),
            "rightPowerRail" => {
                self.errors.push((c.range().start, "the right power rail is no source of power".into()));
                None
            }
            _ => Some(Src::Out(r.to_string(), c.attribute("formalParameter").map(str::to_string))),
        }
    }

    /// The power a coil passes on to what follows it: as Beremiz's generator reads it, the AND
    /// of the coil's connections (its own statement ORs them).
    fn through_coil(&mut self, e: Node<'a, 'i>) -> Option<Src> {
        let Some(cpi) = child(e, "connectionPointIn").filter(|c| child(*c, "connection").is_some()) else {
            self.errors.push((e.range().start, format!("{} is not connected on its left", what(e))));
            return None;
        };
        let mut srcs = Vec::new();
        for c in children(cpi, "connection") {
            let src = self.source(c)?;
            if src != Src::Rail && !srcs.contains(&src) {
                srcs.push(src);
            }
        }
        if srcs.len() <= 1 {
            return Some(srcs.pop().unwrap_or(Src::Rail));
        }
        let formals: Vec<String> = (1..=srcs.len()).map(|k| format!("IN{k}")).collect();
        let pins: Vec<(&str, Src)> = formals.iter().map(String::as_str).zip(srcs).collect();
        Some(self.block("AND", None, &pins, "OUT", e))
    }

    fn power_in(&mut self, e: Node<'a, 'i>) -> Option<Src> {
        let Some(cpi) = child(e, "connectionPointIn") else {
            self.errors.push((e.range().start, format!("{} is not connected on its left", what(e))));
            return None;
        };
        let p = self.power(cpi, e);
        if p.is_none() {
            self.errors.push((e.range().start, format!("{} is not connected on its left", what(e))));
        }
        p
    }

    fn contact(&mut self, e: Node<'a, 'i>) -> Option<Src> {
        let var = variable(e);
        if var.is_empty() {
            self.errors.push((e.range().start, "a contact without a variable".into()));
            return None;
        }
        let input = self.power_in(e)?;
        let read = self.read(&var, e);
        let term = match modifier(e) {
            Modifier::Negated => self.block("NOT", None, &[("IN", read)], "OUT", e),
            Modifier::Rising => self.trigger("R_TRIG", read, e),
            Modifier::Falling => self.trigger("F_TRIG", read, e),
            _ => read,
        };
        Some(match input {
            Src::Rail => term,
            input => self.block("AND", None, &[("IN1", input), ("IN2", term)], "OUT", e),
        })
    }

    /// The statement of coil `e`: its variable assigned the power flow, as modified.
    fn coil(&mut self, e: Node<'a, 'i>) {
        self.memo.clear();
        // A coil connected to nothing on its left makes no statement (Beremiz skips it).
        if child(e, "connectionPointIn").is_none_or(|c| child(c, "connection").is_none()) {
            return;
        }
        let var = variable(e);
        if var.is_empty() {
            self.errors.push((e.range().start, "a coil without a variable".into()));
            return;
        }
        let Some(power) = self.power_in(e) else { return };
        let value = match modifier(e) {
            Modifier::Plain => power,
            Modifier::Negated => self.block("NOT", None, &[("IN", power)], "OUT", e),
            Modifier::Rising => self.trigger("R_TRIG", power, e),
            Modifier::Falling => self.trigger("F_TRIG", power, e),
            Modifier::Set => {
                let now = self.read(&var, e);
                self.block("OR", None, &[("IN1", now), ("IN2", power)], "OUT", e)
            }
            Modifier::Reset => {
                let now = self.read(&var, e);
                let off = self.block("NOT", None, &[("IN", power)], "OUT", e);
                self.block("AND", None, &[("IN1", now), ("IN2", off)], "OUT", e)
            }
        };
        let id = e.attribute("localId").unwrap_or("").to_string();
        let c = self.src_ref(&value, e);
        // `ldCoil`: a coil assigns whatever its source is, even a block output under an EN
        // (Beremiz guards only an outVariable's write by the block's ENO).
        let xml = format!(
            "<outVariable localId=\"{}\" ldCoil=\"true\" height=\"20\" width=\"40\">{}<connectionPointIn>{c}</connectionPointIn><expression>{}</expression></outVariable>",
            esc(&id),
            Self::position(e),
            esc(&var)
        );
        self.out.push((e.range().start, xml));
    }

    /// A connection point of an element kept as it is: its connections, each to a lowered
    /// power flow where it comes from the ladder.
    fn kept_point(&mut self, cpi: Node<'a, 'i>, owner: Node) -> String {
        let conns: Vec<Node> = children(cpi, "connection").collect();
        let ladder = conns.iter().any(|c| {
            self.by_id
                .get(c.attribute("refLocalId").unwrap_or(""))
                .is_some_and(|e| matches!(e.tag_name().name(), "leftPowerRail" | "contact" | "coil"))
        });
        if !ladder {
            return serialize(cpi, &mut |_| None);
        }
        self.memo.clear();
        let mut xml = String::from("<connectionPointIn>");
        if let Some(p) = self.power(cpi, owner) {
            let c = self.src_ref(&p, owner);
            xml.push_str(&c);
        }
        xml.push_str("</connectionPointIn>");
        xml
    }
}

/// What an element is, in an error.
fn what(e: Node) -> String {
    let v = variable(e);
    match e.tag_name().name() {
        "contact" => format!("contact `{v}`"),
        "coil" => format!("coil `{v}`"),
        other => format!("{other} {}", e.attribute("localId").unwrap_or("")),
    }
}

fn variable(e: Node) -> String {
    child(e, "variable").and_then(|v| v.text()).unwrap_or("").trim().to_string()
}

/// `n` written as XML, with a chance to write any descendant otherwise (`over`).
fn serialize<'a, 'i>(n: Node<'a, 'i>, over: &mut dyn FnMut(Node<'a, 'i>) -> Option<String>) -> String {
    let mut s = String::new();
    write_node(n, over, None, &mut s);
    s
}

fn write_node<'a, 'i>(
    n: Node<'a, 'i>,
    over: &mut dyn FnMut(Node<'a, 'i>) -> Option<String>,
    parent_ns: Option<&str>,
    s: &mut String,
) {
    if n.is_text() {
        s.push_str(&esc(n.text().unwrap_or("")));
        return;
    }
    if !n.is_element() {
        return;
    }
    if let Some(x) = over(n) {
        s.push_str(&x);
        return;
    }
    let name = n.tag_name().name();
    let ns = n.tag_name().namespace();
    let _ = write!(s, "<{name}");
    if ns != parent_ns
        && let Some(ns) = ns
    {
        let _ = write!(s, " xmlns=\"{}\"", esc(ns));
    }
    for a in n.attributes() {
        if a.namespace().is_none() {
            let _ = write!(s, " {}=\"{}\"", a.name(), esc(a.value()));
        }
    }
    s.push('>');
    for c in n.children() {
        write_node(c, over, ns, s);
    }
    let _ = write!(s, "</{name}>");
}

/// Every LD body of the file rewritten as FBD (`None`: the file has none). Errors are at their
/// offsets in the file.
pub(super) fn lower(xml: &roxmltree::Document, text: &str) -> Result<Option<Lowered>, Vec<(usize, String)>> {
    let bodies: Vec<Node> = xml.descendants().filter(|n| n.is_element() && n.tag_name().name() == "LD").collect();
    if bodies.is_empty() {
        return Ok(None);
    }
    let max_id = xml.descendants().filter_map(|n| n.attribute("localId")?.parse::<u64>().ok()).max().unwrap_or(0);
    let mut next_id = max_id.max(1_000_000);
    let mut out = String::with_capacity(text.len() * 2);
    let mut map: Vec<(usize, usize, bool)> = Vec::new();
    let mut copied_to = 0usize;
    let mut errors = Vec::new();
    for ld in bodies {
        let range = ld.range();
        map.push((out.len(), copied_to, true));
        out.push_str(&text[copied_to..range.start]);
        let pou = ld.ancestors().find(|a| a.tag_name().name() == "pou");
        let mut taken: HashSet<String> = pou
            .into_iter()
            .flat_map(|p| p.descendants())
            .filter(|n| n.tag_name().name() == "variable")
            .filter_map(|v| v.attribute("name"))
            .chain(ld.descendants().filter_map(|b| b.attribute("instanceName")))
            .map(str::to_ascii_uppercase)
            .collect();
        taken.extend(["TRUE", "FALSE"].map(String::from));
        let elems: Vec<Node> = ld.children().filter(|c| c.is_element()).collect();
        let mut w = Writer {
            by_id: elems.iter().filter_map(|e| Some((e.attribute("localId")?, *e))).collect(),
            next_id,
            taken,
            next_trigger: HashMap::new(),
            out: Vec::new(),
            memo: HashMap::new(),
            errors: Vec::new(),
        };
        for e in &elems {
            match e.tag_name().name() {
                "leftPowerRail" | "rightPowerRail" | "contact" => {}
                "coil" => w.coil(*e),
                _ => {
                    let mut points = Vec::new();
                    let xml = serialize(*e, &mut |n| {
                        (n.tag_name().name() == "connectionPointIn").then(|| {
                            points.push(n);
                            format!("\u{0}{}\u{0}", points.len() - 1)
                        })
                    });
                    // The connection points written now, in order (their lowered power flows
                    // come before the element that reads them, as generated elements).
                    let mut filled = String::new();
                    let mut parts = xml.split('\u{0}');
                    filled.push_str(parts.next().unwrap_or(""));
                    while let (Some(k), Some(rest)) = (parts.next(), parts.next()) {
                        let k: usize = k.parse().unwrap_or(0);
                        filled.push_str(&w.kept_point(points[k], *e));
                        filled.push_str(rest);
                    }
                    w.out.push((e.range().start, filled));
                }
            }
        }
        next_id = w.next_id;
        errors.extend(w.errors);
        // `<LD>` becomes `<FBD>`; each element is written at its origin, the text between them
        // (white space) dropped.
        map.push((out.len(), range.start, false));
        out.push_str("<FBD ldBody=\"true\">");
        for (origin, xml) in w.out {
            map.push((out.len(), origin, false));
            out.push_str(&xml);
        }
        map.push((out.len(), range.end.saturating_sub("</LD>".len()), false));
        out.push_str("</FBD>");
        copied_to = range.end;
    }
    map.push((out.len(), copied_to, true));
    out.push_str(&text[copied_to..]);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Some(Lowered { text: out, map }))
}
