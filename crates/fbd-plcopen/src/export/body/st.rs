//! One Structured Text body of the export: its text as it is, in a CDATA section (as Beremiz
//! and OpenPLC Editor write one), its variables as locals, its function block instances as
//! instances; an output port that reads another name than its own variable gets the
//! assignment that gives it its value, after the text (a PLCopen output is a variable the body
//! writes). The import reads the body back the same (`crate::import::st`).

use fbd_model::model::{Block, PortOut, Variable, Wire};

use super::Body;

/// What an ST body is made of.
pub(in crate::export) struct StParts<'a> {
    /// Its function block instances.
    pub(in crate::export) blocks: &'a [Block],
    pub(in crate::export) variables: &'a [Variable],
    pub(in crate::export) st: &'a [String],
    /// The names of the body's inputs.
    pub(in crate::export) inputs: &'a [String],
    pub(in crate::export) outputs: &'a [PortOut],
}

/// The ST body of the program or of a macro.
pub(in crate::export) fn st_body_xml(p: StParts) -> Body {
    let own = |o: &PortOut| matches!(&o.from, Wire::Ref(r) if *r == o.name && p.variables.iter().any(|v| v.name == *r));
    let mut text = p.st.join("\n");
    for o in p.outputs.iter().filter(|o| !own(o)) {
        let value = match &o.from {
            Wire::Ref(r) => r.clone(),
            Wire::Const(l) => crate::literal::to_iec(l.value()),
            // A body's output reads a name or a constant; anything else is no ST body's.
            _ => continue,
        };
        text.push_str(&format!("\n{} := {value};", o.name));
    }
    // `]]>` cannot stand in a CDATA section: split there.
    let cdata = text.replace("]]>", "]]]]><![CDATA[>");
    let xml = format!(
        // Exactly as Beremiz writes it (its loader reads this form; the project declares the
        // namespace).
        "            <xhtml:p><![CDATA[{cdata}]]></xhtml:p>\n"
    );
    let locals = p
        .variables
        .iter()
        .filter(|v| !v.input && !p.inputs.contains(&v.name) && !p.outputs.iter().any(|o| o.name == v.name && own(o)))
        .filter(|v| v.data_type.is_none())
        .map(|v| (v.name.clone(), v.ty.0, v.init.map(|c| v.ty.0.fit(c.0).unwrap_or(c.0)), v.description.clone()))
        .collect();
    let instances = p.blocks.iter().map(|b| (b.id.clone(), b.ty.clone(), Vec::new())).collect();
    // A variable of an enumeration or an array: written by `typed_vars_xml`.
    let typed = p
        .variables
        .iter()
        .filter(|v| !v.input && !p.inputs.contains(&v.name) && v.data_type.is_some())
        .cloned()
        .collect();
    Body { xml, locals, instances, language: "ST", typed }
}
