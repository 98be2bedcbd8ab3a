//! Stand-ins for what other tools' extension libraries declare: their blocks (OpenPLC Editor's
//! MQTT, TCP, CAN and I/O card blocks, Beremiz's python_eval) and their type names (svghmi's
//! `HMI_INT`). A stand-in block has the library's interface and holds its outputs at their
//! defaults: a program using it imports, runs, and can be tested, its outputs written and forced
//! from outside, as CODESYS simulates a program whose I/O modules are absent. The interfaces
//! come from description files: those shipped (`stand-ins/*.json`) and a user's `stand-ins.json`
//! beside the imported file, in the same form.

use std::collections::HashMap;
use std::path::Path;

use fbd_model::model::{Block, Const, MacroDef, Params, Pins, PortIn, PortOut, TypeName, Wire};
use fbd_model::{Diagnostic, Type, Value};

/// The description files shipped with the import.
const SHIPPED: [(&str, &str); 2] = [
    ("stand-ins/openplc.json", include_str!("../../stand-ins/openplc.json")),
    ("stand-ins/beremiz.json", include_str!("../../stand-ins/beremiz.json")),
];

/// The name of a user's description file, looked for beside the imported file.
pub const USER_FILE: &str = "stand-ins.json";

/// One stand-in block: its name, the library it stands in for, its pins.
#[derive(Clone, Debug)]
pub struct StandInBlock {
    pub name: String,
    pub library: String,
    pub inputs: Vec<(String, Type, Option<Value>)>,
    pub outputs: Vec<(String, Type, Option<Value>)>,
}

/// The stand-ins known to an import: type names (in upper case: IEC names ignore case) and
/// blocks.
#[derive(Clone, Debug, Default)]
pub struct StandIns {
    types: HashMap<String, Type>,
    blocks: HashMap<String, StandInBlock>,
}

impl StandIns {
    /// The shipped descriptions.
    pub fn shipped() -> StandIns {
        let mut s = StandIns::default();
        for (name, text) in SHIPPED {
            s.add(Path::new(name), text).expect("a shipped stand-in file reads");
        }
        s
    }

    /// The shipped descriptions and a user's `stand-ins.json` beside `xml`, if there is one
    /// (its entries win): an error names that file and what is wrong in it.
    pub fn for_file(xml: &Path) -> Result<StandIns, Diagnostic> {
        let mut s = StandIns::shipped();
        let user = xml.parent().map_or_else(|| Path::new(USER_FILE).to_path_buf(), |d| d.join(USER_FILE));
        if user.is_file() {
            let text =
                std::fs::read_to_string(&user).map_err(|e| Diagnostic::new(&user, format!("cannot read: {e}")))?;
            s.add(&user, &text)?;
        }
        Ok(s)
    }

    /// The elementary type a stand-in type name stands for.
    pub fn type_of(&self, name: &str) -> Option<Type> {
        self.types.get(&name.to_ascii_uppercase()).copied()
    }

    /// The stand-in block of that type name.
    pub fn block(&self, name: &str) -> Option<&StandInBlock> {
        self.blocks.get(&name.to_ascii_uppercase())
    }

    /// Reads one description file into the table.
    fn add(&mut self, file: &Path, text: &str) -> Result<(), Diagnostic> {
        let bad = |msg: String| Diagnostic::new(file, msg).help(DESCRIPTION_HELP);
        let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            Diagnostic::new(file, format!("not JSON: {e}")).at(Some((e.line(), e.column()))).help(DESCRIPTION_HELP)
        })?;
        let types = doc.get("types").and_then(|t| t.as_object());
        for (name, ty) in types.into_iter().flatten() {
            let t = ty.as_str().and_then(fbd_model::iec::elementary);
            let t =
                t.ok_or_else(|| bad(format!("types.{name}: `{ty}` is no elementary type (INT, REAL, STRING...)")))?;
            self.types.insert(name.to_ascii_uppercase(), t);
        }
        let blocks = doc.get("blocks").map(|b| b.as_array().ok_or_else(|| bad("`blocks` is a list".into())));
        for (k, b) in blocks.transpose()?.into_iter().flatten().enumerate() {
            let name = b.get("name").and_then(|n| n.as_str()).ok_or_else(|| bad(format!("blocks[{k}] has no name")))?;
            let library = b.get("library").and_then(|n| n.as_str()).unwrap_or("a library").to_string();
            let pins = |which: &str| -> Result<Vec<(String, Type, Option<Value>)>, Diagnostic> {
                let list = b.get(which).and_then(|p| p.as_array()).map(Vec::as_slice).unwrap_or_default();
                list.iter()
                    .enumerate()
                    .map(|(j, p)| {
                        let at = format!("blocks[{k}] ({name}).{which}[{j}]");
                        let p = p.as_array().filter(|p| (2..=3).contains(&p.len()));
                        let p =
                            p.ok_or_else(|| bad(format!("{at}: a pin is [name, type] or [name, type, default]")))?;
                        let pin = p[0].as_str().ok_or_else(|| bad(format!("{at}: the name is a string")))?;
                        let ty = p[1].as_str().and_then(fbd_model::iec::elementary);
                        let ty = ty.ok_or_else(|| bad(format!("{at}: `{}` is no elementary type", p[1])))?;
                        let default = match p.get(2) {
                            None => None,
                            Some(d) => {
                                let t = d.as_str().map_or_else(|| d.to_string(), str::to_string);
                                Some(Value::parse(&t, ty).map_err(|e| bad(format!("{at}: default: {e}")))?)
                            }
                        };
                        Ok((pin.to_string(), ty, default))
                    })
                    .collect()
            };
            let block =
                StandInBlock { name: name.to_string(), library, inputs: pins("inputs")?, outputs: pins("outputs")? };
            self.blocks.insert(name.to_ascii_uppercase(), block);
        }
        Ok(())
    }
}

const DESCRIPTION_HELP: &str = r#"a stand-in description is {"types": {"HMI_INT": "INT"}, "blocks": [{"name": "MQTT_SEND", "library": "...", "inputs": [["SEND", "BOOL"]], "outputs": [["SUCCESS", "BOOL", "FALSE"]]}]}"#;

/// The macro a stand-in block imports as: its inputs read nothing; each output is a MEMORY
/// that holds its default (never enabled), so a write or a force of `instance/OUTPUT.q` stays.
pub(super) fn macro_of(b: &StandInBlock, name: &str) -> MacroDef {
    let inputs = b
        .inputs
        .iter()
        .map(|(n, t, d)| PortIn {
            name: n.clone(),
            ty: TypeName(*t),
            default: Some(Const(d.unwrap_or_else(|| t.zero()))),
            description: None,
        })
        .collect();
    let mut blocks = Vec::new();
    let mut outputs = Vec::new();
    for (n, t, d) in &b.outputs {
        let v = d.unwrap_or_else(|| t.zero());
        blocks.push(Block {
            id: n.clone(),
            ty: "MEMORY".into(),
            inputs: Pins(vec![("in".into(), Wire::constant(v)), ("en".into(), Wire::constant(Value::Bool(false)))]),
            negated: Default::default(),
            params: Params { init: Some(Box::new(Const(v))), ..Params::default() },
            data_type: Some(TypeName(*t)),
            pos: None,
            order: None,
            comment: Some(format!("`{n}` held at its default: write or force `{n}.q`")),
        });
        outputs.push(PortOut {
            name: n.clone(),
            ty: TypeName(*t),
            from: Wire::Ref(format!("{n}.q")),
            kind: None,
            address: None,
            description: None,
        });
    }
    MacroDef {
        name: name.to_string(),
        description: Some(format!(
            "stand-in for {} of {}: its outputs are held at their defaults (write or force them)",
            b.name, b.library
        )),
        inputs,
        outputs,
        blocks,
        variables: Vec::new(),
        ladder: Vec::new(),
        st: Vec::new(),
        connectors: Vec::new(),
        pages: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_descriptions_read_and_a_bad_one_is_refused_with_its_file() {
        let s = StandIns::shipped();
        assert_eq!(s.type_of("hmi_int"), Some(Type::Int));
        let mqtt = s.block("MQTT_SEND").expect("MQTT_SEND");
        assert_eq!(mqtt.outputs[0].0, "SUCCESS");
        assert!(s.block("python_poll").is_some() && s.block("STM32CAN_CONF").is_some());
        let mut t = StandIns::default();
        let e = t.add(Path::new("my/stand-ins.json"), r#"{"blocks": [{"name": "X", "inputs": [["A", "NUMBER"]]}]}"#);
        let e = e.expect_err("refused").to_string();
        assert!(
            e.contains("my/stand-ins.json") && e.contains("blocks[0] (X).inputs[0]") && e.contains("NUMBER"),
            "{e}"
        );
        let e = t.add(Path::new("s.json"), "{\n  \"types\": [").expect_err("refused").to_string();
        assert!(e.contains("s.json:2:") && e.contains("not JSON"), "{e}");
    }
}
