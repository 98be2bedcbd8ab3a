//! The test table format (`*.test.json`), as Rust types; `docs/testing.md` describes it for
//! people and `schema/test.schema.json` is generated from these types.

use std::borrow::Cow;
use std::collections::BTreeMap;

use fbd_engine::model::Const;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};

/// The format version this runner reads.
pub const FORMAT_VERSION: u32 = 1;

/// A file of test tables for one program or one macro.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableFile {
    /// Format version: 1.
    pub fbd_test: u32,
    /// The diagram under test, relative to this file (its includes come along), or a PLCopen
    /// XML project (`.xml`), imported on the way in.
    pub program: String,
    /// A macro of that diagram to test alone: instantiated once, its input ports are the
    /// table's inputs and its output ports its outputs (`None`: the program itself).
    #[serde(default, rename = "macro")]
    pub macro_name: Option<String>,
    /// The runtime seed (RANDOM blocks); a test can give its own.
    #[serde(default)]
    pub seed: u64,
    /// Free text.
    #[serde(default)]
    pub description: Option<String>,
    /// The tests, each from a cold start.
    pub tests: Vec<TestCase>,
}

/// One test: rows of steps run from a cold start.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestCase {
    /// What it checks, in a sentence.
    pub name: String,
    /// The runtime seed for this test (default: the file's).
    #[serde(default)]
    pub seed: Option<u64>,
    /// The rows, in order.
    pub steps: Vec<Step>,
}

/// One row: what is applied, how long the program runs, what must hold.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Free text shown with a failure of this row.
    #[serde(default)]
    pub note: Option<String>,
    /// Program inputs (or the macro's input ports) set from this row on.
    #[serde(default)]
    pub set: BTreeMap<String, Const>,
    /// Inputs set for the row's first scan only (a push button pressed for one scan).
    #[serde(default)]
    pub pulse: BTreeMap<String, Const>,
    /// Signals (any path) written once, before the row's first scan (a debugger's write: the
    /// program may overwrite them in that scan).
    #[serde(default)]
    pub write: BTreeMap<String, Const>,
    /// Signals (any path: `block.pin`, `inst/block.pin`) forced from this row on.
    #[serde(default)]
    pub force: BTreeMap<String, Const>,
    /// Forced signals released at this row.
    #[serde(default)]
    pub release: Vec<String>,
    /// How long the row runs: a number of scans, or a duration (`"T#100ms"`, in whole scans
    /// of the program's cycle, rounded up). Default: one scan.
    #[serde(default)]
    pub run: Option<Run>,
    /// What must hold, by signal: an output's (or port's) name or any signal path.
    #[serde(default)]
    pub expect: BTreeMap<String, Expect>,
}

/// How long a row runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Run {
    /// This many scans (at least one).
    Scans(u64),
    /// This long, in nanoseconds of simulated time.
    Time(i64),
}

impl<'de> Deserialize<'de> for Run {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::Number(n) => match n.as_u64() {
                Some(0) | None => {
                    Err(de::Error::custom("`run` is a number of scans (1 or more) or a duration such as \"T#100ms\""))
                }
                Some(k) => Ok(Run::Scans(k)),
            },
            serde_json::Value::String(s) => match fbd_engine::iec::parse(&s) {
                Ok(fbd_engine::Value::Time(ns)) if ns > 0 => Ok(Run::Time(ns)),
                _ => Err(de::Error::custom(format!("`run`: `{s}` is not a duration such as \"T#100ms\""))),
            },
            _ => Err(de::Error::custom("`run` is a number of scans (1 or more) or a duration such as \"T#100ms\"")),
        }
    }
}

impl JsonSchema for Run {
    fn schema_name() -> Cow<'static, str> {
        "Run".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "anyOf": [{ "type": "integer", "minimum": 1 }, { "type": "string", "pattern": "^(?i)(L?T|L?TIME)#" }] })
    }
}

/// What must hold for one signal in a row: a value (at the row's last scan), or a [`Check`].
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// Equal at the row's last scan.
    Value(Const),
    /// Anything else.
    Check(Box<Check>),
}

impl<'de> Deserialize<'de> for Expect {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        if v.is_object() && !v.as_object().is_some_and(|m| m.contains_key("$serde_json::private::Number")) {
            let c: Check = serde_json::from_value(v).map_err(de::Error::custom)?;
            c.validate().map_err(de::Error::custom)?;
            Ok(Expect::Check(Box::new(c)))
        } else {
            Const::deserialize(v).map(Expect::Value).map_err(de::Error::custom)
        }
    }
}

impl JsonSchema for Expect {
    fn schema_name() -> Cow<'static, str> {
        "Expect".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        json_schema!({ "anyOf": [g.subschema_for::<Const>(), g.subschema_for::<Check>()] })
    }
}

/// A check of one signal over a row. One kind per check: `=` (at the last scan, or every
/// scan with `throughout`), `min`/`max` (a range, likewise), `becomes` (some scan of the row,
/// or of its first `within` scans), `rises`/`falls` (an edge during the row, the value before
/// the row included).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// Equal to this.
    #[serde(default, rename = "=", skip_serializing_if = "Option::is_none")]
    pub eq: Option<Const>,
    /// At least this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<Const>,
    /// At most this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<Const>,
    /// `=`, `min` and `max` hold at every scan of the row, not only at its last.
    #[serde(default)]
    pub throughout: bool,
    /// Takes this value at some scan of the row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub becomes: Option<Const>,
    /// With `becomes`: within this many scans of the row's start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<u64>,
    /// A rising edge (FALSE to TRUE) during the row.
    #[serde(default)]
    pub rises: bool,
    /// A falling edge (TRUE to FALSE) during the row.
    #[serde(default)]
    pub falls: bool,
    /// For REAL values: equal within this much.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tol: Option<f64>,
}

impl Check {
    /// One kind per check, each with what it needs.
    fn validate(&self) -> Result<(), String> {
        let kinds = [
            self.eq.is_some() || self.min.is_some() || self.max.is_some(),
            self.becomes.is_some(),
            self.rises,
            self.falls,
        ];
        match kinds.iter().filter(|k| **k).count() {
            0 => Err("an expectation needs `=`, `min`/`max`, `becomes`, `rises` or `falls`".into()),
            1 if self.within.is_some() && self.becomes.is_none() => Err("`within` goes with `becomes`".into()),
            1 if self.throughout && !kinds[0] => Err("`throughout` goes with `=`, `min` or `max`".into()),
            1 => Ok(()),
            _ => Err("one kind of check per expectation: `=`/`min`/`max`, `becomes`, `rises` or `falls` (write the signal in another row for another)".into()),
        }
    }
}

/// The JSON Schema of the format, as committed in `schema/test.schema.json`.
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(TableFile);
    let mut s = serde_json::to_string_pretty(&schema).expect("a schema serializes");
    s.push('\n');
    s
}
