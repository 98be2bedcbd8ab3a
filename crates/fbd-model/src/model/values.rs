//! How a value is written in a diagram file: type names, constants, wires (a reference, a
//! constant or a feedback wire), a block's input pins and its negated pins. Each has its own
//! reader, so that a wrong one is refused with a message that says what was expected.

use std::borrow::Cow;
use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::types::{Literal, Type, Value};

/// A type name in a diagram: an IEC 61131-3 elementary type (`BOOL`, `SINT`, `INT`, `DINT`,
/// `LINT`, `USINT`, `UINT`, `UDINT`, `BYTE`, `WORD`, `DWORD`, `REAL`, `LREAL`).
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
        Type::parse(&s).map(TypeName).ok_or_else(|| {
            let names: Vec<&str> = Type::ALL.iter().map(|t| t.name()).collect();
            de::Error::custom(format!("unknown type `{s}`, expected one of {}", names.join(", ")))
        })
    }
}

impl JsonSchema for TypeName {
    fn schema_name() -> Cow<'static, str> {
        "TypeName".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let names: Vec<&str> = Type::ALL.iter().map(|t| t.name()).collect();
        json_schema!({ "type": "string", "enum": names })
    }
}

/// A constant: `true`/`false` is BOOL, an integer is INT (accepted by REAL pins), a number with a
/// fraction or exponent is REAL, a string `"T#1s500ms"` a TIME, a string `"'text'"` a STRING.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Const(pub Value);

impl Serialize for Const {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Bool(b) => s.serialize_bool(b),
            Value::Int(i) => s.serialize_i64(i),
            Value::Real(r) => s.serialize_f64(r),
            Value::Time(_) => s.serialize_str(&self.0.to_string()),
            Value::ULInt(u) => s.serialize_u64(u),
            Value::Str(t) => s.serialize_str(&t.literal()),
        }
    }
}

impl<'de> Deserialize<'de> for Const {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Wire::deserialize(d)? {
            Wire::Const(v) => Ok(Const(v.value())),
            _ => Err(de::Error::custom(
                "expected a constant (true, false, a number, a duration such as \"T#500ms\" or a STRING such as \"'text'\")",
            )),
        }
    }
}

impl JsonSchema for Const {
    fn schema_name() -> Cow<'static, str> {
        "Const".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "anyOf": [{ "type": ["boolean", "number"] }, { "type": "string", "pattern": "^(?i)(L?T|L?TIME)#" }] })
    }
}

/// What drives an input pin (or a port): a constant, `block.pin`, a bare input name, the
/// object form `{"from": "block.pin", "feedback": true, "init": 0}` that marks a feedback wire
/// (it carries the source's value of the previous scan, starting at `init`), or
/// `{"connector": "name"}`, a continuation of the body's connector of that name (PLCopen's
/// `continuation`: the net is drawn as two labels instead of a wire).
#[derive(Clone, Debug, PartialEq)]
pub enum Wire {
    /// A constant value: a [`Literal`], 16 bytes (a `Value` is 136, a STRING's; a large
    /// program has one per constant pin).
    Const(Literal),
    /// A reference: `block.pin` or an input name.
    Ref(String),
    /// A feedback wire: the previous scan's value of `from`.
    Feedback {
        /// The source reference.
        from: String,
        /// The value before the first scan (default: zero of the type).
        init: Option<Box<Value>>,
    },
    /// A continuation: reads what the body's connector of this name carries.
    Connector(String),
}

impl Wire {
    /// A constant wire.
    pub fn constant(v: Value) -> Wire {
        Wire::Const(v.into())
    }
}

impl Serialize for Wire {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Wire::Const(v) => Const(v.value()).serialize(s),
            Wire::Ref(r) => s.serialize_str(r),
            Wire::Feedback { from, init } => {
                let mut m = s.serialize_map(None)?;
                m.serialize_entry("from", from)?;
                m.serialize_entry("feedback", &true)?;
                if let Some(v) = init {
                    m.serialize_entry("init", &Const(**v))?;
                }
                m.end()
            }
            Wire::Connector(name) => {
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry("connector", name)?;
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
                f.write_str(
                    "a constant, \"block.pin\", an input name, {\"from\": ..., \"feedback\": true} or {\"connector\": name}",
                )
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Wire, E> {
                Ok(Wire::constant(Value::Bool(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Wire, E> {
                Ok(Wire::constant(Value::Int(v)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Wire, E> {
                // Above LINT's range: a ULINT (or LWORD) constant.
                Ok(Wire::constant(i64::try_from(v).map_or(Value::ULInt(v), Value::Int)))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Wire, E> {
                Ok(Wire::constant(Value::Real(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Wire, E> {
                if v.is_empty() {
                    return Err(E::custom("empty reference; expected \"block.pin\" or an input name"));
                }
                // A duration is written as its IEC literal; no name has a `#`.
                if is_duration_literal(v) {
                    return crate::iec::parse(v).map(Wire::constant).map_err(E::custom);
                }
                // A STRING is written as its IEC literal, quoted: `"'text'"`; no name has a `'`.
                if v.starts_with('\'') {
                    return crate::types::IecString::parse_literal(v)
                        .map(|s| Wire::constant(Value::Str(s)))
                        .map_err(E::custom);
                }
                Ok(Wire::Ref(v.to_string()))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Wire, A::Error> {
                let mut from: Option<String> = None;
                let mut feedback: Option<bool> = None;
                let mut init: Option<Const> = None;
                let mut connector: Option<String> = None;
                while let Some(k) = map.next_key::<String>()? {
                    match k.as_str() {
                        // serde_json (arbitrary_precision) hands a number over as its text.
                        NUMBER_TOKEN
                            if from.is_none() && feedback.is_none() && init.is_none() && connector.is_none() =>
                        {
                            let text: String = map.next_value()?;
                            return number(&text).map(Wire::constant).map_err(de::Error::custom);
                        }
                        "from" if from.is_none() => from = Some(map.next_value()?),
                        "feedback" if feedback.is_none() => feedback = Some(map.next_value()?),
                        "init" if init.is_none() => init = Some(map.next_value()?),
                        "connector" if connector.is_none() => connector = Some(map.next_value()?),
                        "from" | "feedback" | "init" | "connector" => {
                            return Err(de::Error::custom(format!("duplicate field `{k}`")));
                        }
                        other => {
                            return Err(de::Error::custom(format!(
                                "unknown field `{other}` in a wire, expected `from`, `feedback`, `init` or `connector`"
                            )));
                        }
                    }
                }
                if let Some(name) = connector {
                    if from.is_some() || feedback.is_some() || init.is_some() {
                        return Err(de::Error::custom(
                            "a continuation is {\"connector\": name} alone; to delay a connector's value, mark its `from` as a feedback wire",
                        ));
                    }
                    if name.is_empty() {
                        return Err(de::Error::custom("empty connector name"));
                    }
                    return Ok(Wire::Connector(name));
                }
                let from = from.ok_or_else(|| de::Error::custom("a wire object needs `from` (or `connector`)"))?;
                match feedback {
                    Some(true) => Ok(Wire::Feedback { from, init: init.map(|c| Box::new(c.0)) }),
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
        // Above LINT's range and within ULINT's: a ULINT constant.
        text.parse::<i64>().map(Value::Int).or_else(|_| text.parse::<u64>().map(Value::ULInt)).map_err(|_| {
            format!(
                "integer {text} is out of the LINT and ULINT ranges ({}..{}); write it with a fraction or an exponent (e.g. 1e20) for a REAL",
                i64::MIN,
                u64::MAX
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
                },
                {
                    "type": "object",
                    "required": ["connector"],
                    "additionalProperties": false,
                    "properties": { "connector": { "type": "string", "minLength": 1 } }
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
    /// No pin named, as a constant.
    pub const NONE: PinNames = PinNames(None);

    /// No pin named.
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }
    /// Whether `pin` is named.
    pub fn has(&self, pin: &str) -> bool {
        self.as_slice().iter().any(|n| n == pin)
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

/// Whether a string in a diagram is a duration literal (`T#500ms`, `TIME#1s`, `LT#5us`).
fn is_duration_literal(v: &str) -> bool {
    let u = v.trim_start().to_ascii_uppercase();
    ["T#", "TIME#", "LT#", "LTIME#"].iter().any(|p| u.starts_with(p))
}
