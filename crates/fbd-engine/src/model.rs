//! The diagram file format (version 1), as Rust types. `docs/diagram-format.md` describes it for
//! people and `schema/diagram.schema.json` is generated from these types.
//!
//! A diagram file holds a program (interface and blocks), macro definitions, or both, and can
//! `include` library files of macros by relative path.

use std::borrow::Cow;
use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::types::{Type, Value};

/// The format version this engine reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// A diagram file.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Document {
    /// Format version; must be 1.
    pub fbd: u32,
    /// A human name for the program or library.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Scan cycle in milliseconds (default 5). Fractions are allowed (0.5 = 500 µs).
    #[serde(default, skip_serializing_if = "Option::is_none", serialize_with = "ser_opt_number")]
    pub cycle_ms: Option<f64>,
    /// Library files whose macros this file uses, relative to this file's directory.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub include: Vec<String>,
    /// Program inputs: what the HMI, CLI and tests write by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<ProgramInput>,
    /// Program outputs: what the HMI, CLI and tests read by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outputs: Vec<PortOut>,
    /// Macro (composite block) definitions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub macros: Vec<MacroDef>,
    /// The program's blocks (empty for a pure library file).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocks: Vec<Block>,
}

/// How an HMI should present a program input. The engine treats all kinds alike.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum InputKind {
    /// A momentary push button (BOOL).
    Button,
    /// A latching switch (BOOL).
    Switch,
    /// A manual one-of-n selector (INT, 0 = nothing selected, 1..=n the positions).
    Selector,
    /// A numeric entry.
    #[default]
    Number,
}

impl InputKind {
    fn is_default(&self) -> bool {
        *self == InputKind::default()
    }

    /// The kind as a diagram writes it (`button`).
    pub fn name(self) -> &'static str {
        match self {
            InputKind::Button => "button",
            InputKind::Switch => "switch",
            InputKind::Selector => "selector",
            InputKind::Number => "number",
        }
    }

    /// The type an input of this kind must have: a button or a switch writes TRUE/FALSE, a
    /// selector a position number; a number field fits any type (`None`).
    pub fn needs(self) -> Option<crate::Type> {
        match self {
            InputKind::Button | InputKind::Switch => Some(crate::Type::Bool),
            InputKind::Selector => Some(crate::Type::Int),
            InputKind::Number => None,
        }
    }
}

/// A named program input.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProgramInput {
    /// The name blocks refer to (a bare name in a wire) and clients write.
    pub name: String,
    /// BOOL, INT or REAL.
    #[serde(rename = "type")]
    pub ty: TypeName,
    /// How an HMI presents it.
    #[serde(default, skip_serializing_if = "InputKind::is_default")]
    pub kind: InputKind,
    /// Value before anything is written (default: zero of the type).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Const>,
    /// Labels of the selector positions 1..=n (for `selector` inputs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A macro input port.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PortIn {
    /// Name used inside the macro body (a bare name in a wire) and as the instance's pin name.
    pub name: String,
    /// BOOL, INT or REAL.
    #[serde(rename = "type")]
    pub ty: TypeName,
    /// Value when an instance leaves the pin unconnected; without it the pin is required.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Const>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// An output port of a macro or of the program: a name bound to a signal inside.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PortOut {
    /// The output's name.
    pub name: String,
    /// BOOL, INT or REAL; checked against what `from` carries.
    #[serde(rename = "type")]
    pub ty: TypeName,
    /// The signal: `block.pin`, an input name, or a constant.
    pub from: Wire,
    /// How an HMI presents it (`lamp`, `display`, ...); free text to the engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A macro: a named composite block with typed inputs and outputs.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MacroDef {
    /// The type name instances use. Must not clash with a library block.
    pub name: String,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Input ports.
    #[serde(default)]
    pub inputs: Vec<PortIn>,
    /// Output ports.
    #[serde(default)]
    pub outputs: Vec<PortOut>,
    /// The body.
    pub blocks: Vec<Block>,
}

/// One block: a library block or a macro instance.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Block {
    /// Unique within its program or macro body; no `/` or `.`.
    pub id: String,
    /// A library block type (`AND`, `TON`, ...) or a macro name.
    #[serde(rename = "type")]
    pub ty: String,
    /// Input pins and what drives each.
    #[serde(default, skip_serializing_if = "Pins::is_empty")]
    pub inputs: Pins,
    /// Negated BOOL pins (IEC 61131-3's circle): an input reads the inverse of what drives it,
    /// an output gives its readers the inverse of what the block computes. On a macro instance,
    /// its BOOL ports.
    #[serde(default, skip_serializing_if = "PinNames::is_empty")]
    pub negated: PinNames,
    /// Parameters fixed at compile time.
    #[serde(default, skip_serializing_if = "Params::is_empty")]
    pub params: Params,
    /// Fixes the type of a generic block (`SEL`, `MEMORY`, `ADD`, ...) when the wiring does not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_type: Option<TypeName>,
    /// Drawing position `[x, y]`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "de_pos", serialize_with = "ser_pos")]
    pub pos: Option<[f64; 2]>,
    /// Explicit execution order: a tie-break among blocks whose inputs are ready. Data flow
    /// always wins, so it never changes results, only the order of the plan listing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<i64>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// A number as written by people: `5`, not `5.0`, when it is whole (these fields are REAL in
/// any case, so the fraction carries no type).
fn number_text(x: f64) -> serde_json::Number {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        serde_json::Number::from(x as i64)
    } else {
        serde_json::Number::from_f64(x).unwrap_or_else(|| serde_json::Number::from(0))
    }
}

fn ser_opt_number<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(x) => number_text(*x).serialize(s),
        None => s.serialize_none(),
    }
}

fn ser_pos<S: Serializer>(v: &Option<[f64; 2]>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some([x, y]) => [number_text(*x), number_text(*y)].serialize(s),
        None => s.serialize_none(),
    }
}

/// `pos` is two numbers; serde's own message for three ("trailing characters") says nothing.
fn de_pos<'de, D: Deserializer<'de>>(d: D) -> Result<Option<[f64; 2]>, D::Error> {
    let v: Vec<f64> = Vec::deserialize(d)?;
    match v[..] {
        [x, y] => Ok(Some([x, y])),
        _ => Err(de::Error::custom(format!("pos is [x, y], two numbers; this one has {}", v.len()))),
    }
}

/// Compile-time parameters of a block.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// Initial value of a stateful block's output (MEMORY, DELAY, SR, RS).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<Const>,
    /// RANDOM: a seed mixed with the runtime seed (default: derived from the block path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// SELECTOR: number of positions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<u32>,
}

impl Params {
    fn is_empty(&self) -> bool {
        *self == Params::default()
    }
}

/// A type name in a diagram: `BOOL`, `INT` or `REAL`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TypeName(pub Type);

impl Serialize for TypeName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.name())
    }
}

impl<'de> Deserialize<'de> for TypeName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Type::parse(&s)
            .map(TypeName)
            .ok_or_else(|| de::Error::custom(format!("unknown type `{s}`, expected BOOL, INT or REAL")))
    }
}

impl JsonSchema for TypeName {
    fn schema_name() -> Cow<'static, str> {
        "TypeName".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "enum": ["BOOL", "INT", "REAL"] })
    }
}

/// A constant: `true`/`false` is BOOL, an integer is INT (accepted by REAL pins), a number with a
/// fraction or exponent is REAL.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Const(pub Value);

impl Serialize for Const {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Bool(b) => s.serialize_bool(b),
            Value::Int(i) => s.serialize_i64(i),
            Value::Real(r) => s.serialize_f64(r),
        }
    }
}

impl<'de> Deserialize<'de> for Const {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Wire::deserialize(d)? {
            Wire::Const(v) => Ok(Const(v)),
            _ => Err(de::Error::custom("expected a constant (true, false or a number)")),
        }
    }
}

impl JsonSchema for Const {
    fn schema_name() -> Cow<'static, str> {
        "Const".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": ["boolean", "number"] })
    }
}

/// What drives an input pin (or a port): a constant, `block.pin`, a bare input name, or the
/// object form `{"from": "block.pin", "feedback": true, "init": 0}` that marks a feedback wire
/// (it carries the source's value of the previous scan, starting at `init`).
#[derive(Clone, Debug, PartialEq)]
pub enum Wire {
    /// A constant value.
    Const(Value),
    /// A reference: `block.pin` or an input name.
    Ref(String),
    /// A feedback wire: the previous scan's value of `from`.
    Feedback {
        /// The source reference.
        from: String,
        /// The value before the first scan (default: zero of the type).
        init: Option<Value>,
    },
}

impl Serialize for Wire {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Wire::Const(v) => Const(*v).serialize(s),
            Wire::Ref(r) => s.serialize_str(r),
            Wire::Feedback { from, init } => {
                let mut m = s.serialize_map(None)?;
                m.serialize_entry("from", from)?;
                m.serialize_entry("feedback", &true)?;
                if let Some(v) = init {
                    m.serialize_entry("init", &Const(*v))?;
                }
                m.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Wire {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Wire;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a constant, \"block.pin\", an input name, or {\"from\": ..., \"feedback\": true}")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Wire, E> {
                Ok(Wire::Const(Value::Bool(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Wire, E> {
                Ok(Wire::Const(Value::Int(v)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Wire, E> {
                i64::try_from(v)
                    .map(|i| Wire::Const(Value::Int(i)))
                    .map_err(|_| E::custom(format!("integer {v} does not fit in a 64-bit INT")))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Wire, E> {
                Ok(Wire::Const(Value::Real(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Wire, E> {
                if v.is_empty() {
                    return Err(E::custom("empty reference; expected \"block.pin\" or an input name"));
                }
                Ok(Wire::Ref(v.to_string()))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Wire, A::Error> {
                let mut from: Option<String> = None;
                let mut feedback: Option<bool> = None;
                let mut init: Option<Const> = None;
                while let Some(k) = map.next_key::<String>()? {
                    match k.as_str() {
                        // serde_json (arbitrary_precision) hands a number over as its text.
                        NUMBER_TOKEN if from.is_none() && feedback.is_none() && init.is_none() => {
                            let text: String = map.next_value()?;
                            return number(&text).map(Wire::Const).map_err(de::Error::custom);
                        }
                        "from" if from.is_none() => from = Some(map.next_value()?),
                        "feedback" if feedback.is_none() => feedback = Some(map.next_value()?),
                        "init" if init.is_none() => init = Some(map.next_value()?),
                        "from" | "feedback" | "init" => {
                            return Err(de::Error::custom(format!("duplicate field `{k}`")));
                        }
                        other => {
                            return Err(de::Error::custom(format!(
                                "unknown field `{other}` in a wire, expected `from`, `feedback` or `init`"
                            )));
                        }
                    }
                }
                let from = from.ok_or_else(|| de::Error::custom("a wire object needs `from`"))?;
                match feedback {
                    Some(true) => Ok(Wire::Feedback { from, init: init.map(|c| c.0) }),
                    _ if init.is_some() => {
                        Err(de::Error::custom("`init` is only meaningful on a feedback wire; add \"feedback\": true"))
                    }
                    _ => Ok(Wire::Ref(from)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// How serde_json with `arbitrary_precision` presents a number to `deserialize_any`: a map with
/// this one key and the number's text, so that `-0` and integers too big for INT can be told
/// from REAL literals.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// A number literal as written: an integer (`-0` included) is INT and must fit in 64 bits; a
/// number with a fraction or an exponent is REAL and must be finite.
pub fn number(text: &str) -> Result<Value, String> {
    if text.contains(['.', 'e', 'E']) {
        match text.parse::<f64>() {
            Ok(r) if r.is_finite() => Ok(Value::Real(r)),
            _ => Err(format!("number {text} is out of the REAL range (about ±1.8e308)")),
        }
    } else {
        text.parse::<i64>().map(Value::Int).map_err(|_| {
            format!(
                "integer {text} is out of the INT range ({}..{}); write it with a fraction or an exponent (e.g. 1e20) for a REAL",
                i64::MIN,
                i64::MAX
            )
        })
    }
}

impl JsonSchema for Wire {
    fn schema_name() -> Cow<'static, str> {
        "Wire".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "oneOf": [
                { "type": "boolean" },
                { "type": "number" },
                { "type": "string", "minLength": 1, "description": "`block.pin` or an input name" },
                {
                    "type": "object",
                    "required": ["from"],
                    "additionalProperties": false,
                    "properties": {
                        "from": { "type": "string" },
                        "feedback": { "type": "boolean" },
                        "init": { "type": ["boolean", "number"] }
                    }
                }
            ]
        })
    }
}

/// A few pin names in file order (a block's `negated`). Read it as a slice (`iter`,
/// `contains`, `len`); none costs one pointer, as a large program has one per block.
#[derive(Clone, Debug, Default, PartialEq)]
// The box keeps the field one pointer wide (a `Vec` is three, a boxed slice two).
#[allow(clippy::box_collection)]
pub struct PinNames(Option<Box<Vec<String>>>);

impl PinNames {
    /// No pin named.
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }
    /// The names as a slice.
    pub fn as_slice(&self) -> &[String] {
        self.0.as_deref().map_or(&[], Vec::as_slice)
    }
    /// Names `pin` last.
    pub fn push(&mut self, pin: String) {
        self.0.get_or_insert_with(Default::default).push(pin);
    }
    /// The names, to change in place (a renamed port).
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, String> {
        match &mut self.0 {
            Some(v) => v.iter_mut(),
            None => [].iter_mut(),
        }
    }
    /// Keeps the names `keep` says yes to.
    pub fn retain(&mut self, keep: impl FnMut(&String) -> bool) {
        if let Some(v) = &mut self.0 {
            v.retain(keep);
            if v.is_empty() {
                self.0 = None;
            }
        }
    }
}

impl std::ops::Deref for PinNames {
    type Target = [String];
    fn deref(&self) -> &[String] {
        self.as_slice()
    }
}

impl From<Vec<String>> for PinNames {
    fn from(v: Vec<String>) -> PinNames {
        PinNames((!v.is_empty()).then(|| Box::new(v)))
    }
}

impl Serialize for PinNames {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

impl<'de> Deserialize<'de> for PinNames {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut v: Vec<String> = Vec::deserialize(d)?;
        v.shrink_to_fit();
        Ok(PinNames::from(v))
    }
}

impl JsonSchema for PinNames {
    fn schema_name() -> Cow<'static, str> {
        "PinNames".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "array", "items": { "type": "string" } })
    }
}

/// The input pins of a block in file order. A pin named twice (two drivers for one input) is a
/// parse error with the position of the second.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pins(pub Vec<(String, Wire)>);

impl Pins {
    /// No pin connected.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// The wire of `pin`, if connected.
    pub fn get(&self, pin: &str) -> Option<&Wire> {
        self.0.iter().find(|(p, _)| p == pin).map(|(_, w)| w)
    }
}

impl Serialize for Pins {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Pins {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Pins;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object mapping pin names to wires")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Pins, A::Error> {
                let mut out: Vec<(String, Wire)> = Vec::new();
                // Most blocks have a handful of pins: those are compared in place; a set is
                // built only for the rare block with many (so 150,000 pins stay linear).
                let mut seen: Option<std::collections::HashSet<String>> = None;
                while let Some(k) = map.next_key::<String>()? {
                    let twice = match &mut seen {
                        Some(set) => !set.insert(k.clone()),
                        None if out.len() < 16 => out.iter().any(|(p, _)| *p == k),
                        None => {
                            let mut set: std::collections::HashSet<String> =
                                out.iter().map(|(p, _)| p.clone()).collect();
                            let twice = !set.insert(k.clone());
                            seen = Some(set);
                            twice
                        }
                    };
                    if twice {
                        return Err(de::Error::custom(format!(
                            "pin `{k}` is driven twice; an input has exactly one driver"
                        )));
                    }
                    let w: Wire = map.next_value()?;
                    out.push((k, w));
                }
                // A large program holds hundreds of thousands of these: no spare capacity.
                out.shrink_to_fit();
                Ok(Pins(out))
            }
        }
        d.deserialize_map(V)
    }
}

impl JsonSchema for Pins {
    fn schema_name() -> Cow<'static, str> {
        "Pins".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let wire = generator.subschema_for::<Wire>();
        json_schema!({ "type": "object", "additionalProperties": wire })
    }
}

/// The JSON Schema of the format, as committed in `schema/diagram.schema.json`.
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(Document);
    let mut s = serde_json::to_string_pretty(&schema).expect("a schema serializes");
    s.push('\n');
    s
}
