//! The diagram file format (version 1), as Rust types. `docs/diagram-format.md` describes it for
//! people and `schema/diagram.schema.json` is generated from these types.
//!
//! A diagram file holds a program (interface and blocks), macro definitions, or both, and can
//! `include` library files of macros by relative path.
//!
//! Files: this one (the file's structure: document, ports, macros, blocks, parameters),
//! `lean.rs` (a block as the compiler holds it), `values.rs` (how a value is written: type names, constants, wires, a block's pins and
//! negated pins, each read with its own messages).

mod data_types;
pub mod ladder;
mod lean;
pub mod tasks;
mod values;

pub use data_types::{ArrayType, DataKind, DataType, DataTypes, ENUM_REPRESENTATION, EnumName, MAX_ARRAY_ELEMENTS};
pub use ladder::{LdElement, LdKind, LdModifier, Variable, VariableText};
pub use lean::{LeanBlock, LeanPins};
pub use values::{Const, PinNames, Pins, TypeName, Wire, number};

use schemars::JsonSchema;
use serde::de;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The newest format version this engine reads and writes: 7, which adds user data types
/// (`types`: enumerations); 6 added Structured Text bodies (`st`); 5 added ladder networks and body variables ([`LdElement`], [`Variable`]);
/// 4 added [`Task`]s. A document writes the
/// oldest version that holds what it has ([`DocumentOf::version_needed`]): one without tasks
/// or ladder is version 3 (an older engine reads it), and an older engine refuses a newer one
/// by its version.
pub const FORMAT_VERSION: u32 = 7;

/// The version that added Structured Text bodies.
pub const ST_VERSION: u32 = 6;

/// The version that added ladder networks and body variables.
pub const LADDER_VERSION: u32 = 5;

/// The version that added [`Task`]s.
pub const TASKS_VERSION: u32 = 4;

/// The version of a document without tasks, what an older file is migrated to.
pub const BASE_VERSION: u32 = 3;

/// A diagram file, its blocks as [`Block`]s: what tools read, edit and write.
pub type Document = DocumentOf<Block>;

/// A diagram file whose blocks are `B`s: [`Block`] for tools, [`LeanBlock`] for the compiler.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "B: Deserialize<'de>", serialize = "B: Serialize"))]
#[schemars(rename = "Document", description = "A diagram file.")]
pub struct DocumentOf<B> {
    /// Format version: 3 (IEC 61131-3 type names: INT is 16 bits, LINT 64; TIME a type of
    /// its own), 4 for a file with `tasks` (which 4 adds, nothing else), 5 for one with
    /// `variables` or a `ladder` network (which 5 adds), 6 for one with Structured Text
    /// (`st`), 7 for one with user data types (`types`). An older file is read under the new
    /// names with the same behaviour ([`Document::migrate`]).
    pub fbd: u32,
    /// The format version the file was written in, when older than this engine's (the
    /// document has been migrated to it): for the notice a tool gives. Not part of the file.
    #[serde(skip)]
    #[schemars(skip)]
    pub migrated_from: Option<u32>,
    /// What the migration changed or could not carry over, for that notice.
    #[serde(skip)]
    #[schemars(skip)]
    pub migration_notes: Vec<String>,
    /// A human name for the program or library.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Scan cycle in milliseconds (default 5). Fractions are allowed (0.5 = 500 µs).
    #[serde(default, skip_serializing_if = "Option::is_none", serialize_with = "ser_opt_number")]
    pub cycle_ms: Option<f64>,
    /// Watchdog in milliseconds (default three cycles): a scan whose loops run longer stops
    /// the task with a watchdog fault naming the loop. Counted in instructions, not measured
    /// (docs/st.md), so a run stays deterministic.
    #[serde(default, skip_serializing_if = "Option::is_none", serialize_with = "ser_opt_number")]
    pub watchdog_ms: Option<f64>,
    /// Library files whose macros this file uses, relative to this file's directory.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub include: Vec<String>,
    /// User data types (format version 7), which variables name as their `type`: the
    /// project's (this file's and its includes') are seen by every body.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<DataType>,
    /// Program inputs: what the HMI, CLI and tests write by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<ProgramInput>,
    /// Program outputs: what the HMI, CLI and tests read by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outputs: Vec<PortOut>,
    /// Macro (composite block) definitions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub macros: Vec<MacroDefOf<B>>,
    /// The program's blocks (empty for a pure library file).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocks: Vec<B>,
    /// The body's variables (format version 5): read by name, written by its ladder's coils
    /// and stores.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<Variable>,
    /// The body's ladder network (format version 5): contacts, coils and stores in the order
    /// their statements run (`ladder.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ladder: Vec<LdElement>,
    /// The body's Structured Text (format version 6), one string per line: statements on its
    /// `variables`, ports and instances (its `blocks` without inputs), run after its blocks'
    /// data flow each scan (`docs/st.md`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub st: Vec<String>,
    /// The program body's connectors: named nets its blocks read as `{"connector": name}`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub connectors: Vec<Connector>,
    /// The program body drawn on several pages (sheets), each with some of its blocks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pages: Vec<Page>,
    /// The program's tasks (format version 4): top-level blocks that run only in some scans,
    /// as IEC 61131-3's tasks run program instances (a block in no task runs every scan).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tasks: Vec<Task>,
}

/// A task (IEC 61131-3's, as matiec runs it on one tick, the program's cycle): the top-level
/// blocks (program instances: macro instances, or any block) it runs, in the scans its interval
/// divides (counted from scan 0, as OpenPLC's runtime counts) or, for an event task, in the
/// scans where its `single` rises. Its blocks run in the program's order as before; in the
/// other scans they are not called (as under a FALSE EN: see docs/diagram-format.md), and
/// `NAME__runs.out` is TRUE in the scans it runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// An identifier, unique among the tasks (its flag is the block `NAME__runs`).
    pub name: String,
    /// A cyclic task's interval in milliseconds: a multiple of the program's cycle.
    #[serde(default, skip_serializing_if = "Option::is_none", serialize_with = "ser_opt_number")]
    pub interval_ms: Option<f64>,
    /// An event task's BOOL: the task runs in the scans where it rises (IEC's SINGLE). Read
    /// before the task's blocks: a feedback wire reads what the last scan left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub single: Option<Wire>,
    /// The top-level blocks it runs, by id.
    #[serde(default)]
    pub programs: Vec<String>,
}

// By hand: a derive would ask for `B: Default`, which no block type is.
impl<B> Default for DocumentOf<B> {
    fn default() -> Self {
        DocumentOf {
            fbd: 0,
            migrated_from: None,
            migration_notes: Vec::new(),
            name: None,
            description: None,
            cycle_ms: None,
            watchdog_ms: None,
            include: Vec::new(),
            types: Vec::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            macros: Vec::new(),
            blocks: Vec::new(),
            variables: Vec::new(),
            ladder: Vec::new(),
            st: Vec::new(),
            connectors: Vec::new(),
            pages: Vec::new(),
            tasks: Vec::new(),
        }
    }
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

/// The colour an HMI lights a BOOL output's lamp in, read from its name as a panel builder
/// would pick it: red for an alarm, a fault, a stop or a red lamp (`O_LEDRed`), amber for a
/// warning or a yellow lamp, green otherwise (every TRUE lamp was green).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LampColour {
    /// Running, on, OK.
    Green,
    /// Attention: a warning, a yellow or amber lamp.
    Amber,
    /// An alarm, a fault, a stop, a red lamp.
    Red,
}

impl LampColour {
    /// The colour for the output `name`.
    pub fn of(name: &str) -> LampColour {
        let n = name.to_ascii_lowercase();
        let has = |words: &[&str]| words.iter().any(|w| n.contains(w));
        if has(&["red", "alarm", "fault", "error", "stop", "trip", "emergency"]) {
            LampColour::Red
        } else if has(&["yellow", "amber", "orange", "warn"]) {
            LampColour::Amber
        } else {
            LampColour::Green
        }
    }
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
            InputKind::Selector => Some(crate::Type::LInt),
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
    /// Its IEC elementary type (BOOL, the integers and bit strings, REAL, LREAL, TIME, STRING).
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
    /// Its IEC 61131-3 location (`%IX0.0`, `%IW2`, `%MW0`): where `fbd serve` puts it in the
    /// Modbus map, as OpenPLC would.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
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
    /// Its IEC elementary type (BOOL, the integers and bit strings, REAL, LREAL, TIME, STRING).
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
    /// Its IEC elementary type; checked against what `from` carries.
    #[serde(rename = "type")]
    pub ty: TypeName,
    /// The signal: `block.pin`, an input name, or a constant.
    pub from: Wire,
    /// How an HMI presents it (`lamp`, `display`, ...); free text to the engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// A program output's IEC 61131-3 location (`%QX0.0`, `%QW1`, `%MD0`): where `fbd serve`
    /// puts it in the Modbus map, as OpenPLC would.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A macro, its body of [`Block`]s.
pub type MacroDef = MacroDefOf<Block>;

/// A macro: a named composite block with typed inputs and outputs; its body's blocks are `B`s.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "B: Deserialize<'de>", serialize = "B: Serialize"))]
#[schemars(rename = "MacroDef", description = "A macro: a named composite block with typed inputs and outputs.")]
pub struct MacroDefOf<B> {
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
    pub blocks: Vec<B>,
    /// The body's variables (format version 5): read by name, written by its ladder's coils
    /// and stores.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<Variable>,
    /// The body's ladder network (format version 5): contacts, coils and stores in the order
    /// their statements run (`ladder.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ladder: Vec<LdElement>,
    /// The body's Structured Text (format version 6), one string per line: statements on its
    /// `variables`, ports and instances (its `blocks` without inputs), run after its blocks'
    /// data flow each scan (`docs/st.md`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub st: Vec<String>,
    /// The body's connectors: named nets its blocks read as `{"connector": name}`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub connectors: Vec<Connector>,
    /// The body drawn on several pages (sheets), each with some of its blocks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pages: Vec<Page>,
}

/// A page (sheet) of a body's drawing, as CODESYS and printed FBD split a large network: the
/// blocks drawn on it. A net between two pages is drawn as a connector on the page of its
/// source and a continuation on each page that reads it. Only drawing: the program is the same
/// with or without pages. A block of the body on no page is drawn on a last page of its own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Page {
    /// Its title (the tab or sheet name), unique among the body's pages.
    pub name: String,
    /// The ids of the blocks on it, each on one page.
    pub blocks: Vec<String>,
}

/// A connector (PLCopen's `connector`, CODESYS's connection mark, LOGO!'s flag): a name for a
/// net of one body. Where the net is read, a continuation `{"connector": name}` stands for it,
/// and a drawing shows two labels instead of a wire across the page. Only a name: it costs no
/// instruction, and the value read is the value of `from`, in the same scan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Connector {
    /// Unique among the body's connectors; no `/` or `.`.
    pub name: String,
    /// What it carries: `block.pin`, an input name, a constant, a feedback wire, or another
    /// connector.
    pub from: Wire,
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

impl Block {
    /// A block `id` of type `ty` with nothing wired and nothing set: what an ST body declares
    /// as a function block instance (its calls give its inputs).
    pub fn instance(id: impl Into<String>, ty: impl Into<String>) -> Block {
        Block {
            id: id.into(),
            ty: ty.into(),
            inputs: Pins::default(),
            negated: Default::default(),
            params: Default::default(),
            data_type: None,
            pos: None,
            order: None,
            comment: None,
        }
    }
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

pub(super) fn ser_pos<S: Serializer>(v: &Option<[f64; 2]>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some([x, y]) => [number_text(*x), number_text(*y)].serialize(s),
        None => s.serialize_none(),
    }
}

/// `pos` is two numbers; serde's own message for three ("trailing characters") says nothing.
pub(super) fn de_pos<'de, D: Deserializer<'de>>(d: D) -> Result<Option<[f64; 2]>, D::Error> {
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
    // Boxed: a value is 136 bytes (a STRING's), and few blocks have one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<Box<Const>>,
    /// RANDOM: a seed mixed with the runtime seed (default: derived from the block path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// SELECTOR: number of positions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<u32>,
}

impl Params {
    /// No parameter, as a constant (what most blocks have).
    pub const NONE: Params = Params { init: None, seed: None, n: None };

    fn is_empty(&self) -> bool {
        *self == Params::NONE
    }
}

/// The JSON Schema of the format, as committed in `schema/diagram.schema.json`.
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(Document);
    let mut s = serde_json::to_string_pretty(&schema).expect("a schema serializes");
    s.push('\n');
    s
}

/// What a format migration reads and changes in a block, of either block type.
pub trait MigrateBlock {
    /// The block's id.
    fn id(&self) -> &str;
    /// Its type name.
    fn ty(&self) -> &str;
    /// Renames its type.
    fn set_ty(&mut self, ty: &str);
    /// Its data type, to change in place.
    fn data_type_mut(&mut self) -> Option<&mut TypeName>;
    /// What drives its input `pin`, to change in place.
    fn input_mut(&mut self, pin: &str) -> Option<&mut Wire>;
    /// Whether its input `pin` is connected.
    fn has_input(&self, pin: &str) -> bool;
    /// Connects its input `pin` (not connected yet) to `wire` (a task's EN).
    fn add_input(&mut self, pin: &str, wire: Wire);
}

impl MigrateBlock for Block {
    fn id(&self) -> &str {
        &self.id
    }
    fn ty(&self) -> &str {
        &self.ty
    }
    fn set_ty(&mut self, ty: &str) {
        self.ty = ty.into();
    }
    fn data_type_mut(&mut self) -> Option<&mut TypeName> {
        self.data_type.as_mut()
    }
    fn input_mut(&mut self, pin: &str) -> Option<&mut Wire> {
        self.inputs.0.iter_mut().find(|(p, _)| p == pin).map(|(_, w)| w)
    }
    fn has_input(&self, pin: &str) -> bool {
        self.inputs.get(pin).is_some()
    }
    fn add_input(&mut self, pin: &str, wire: Wire) {
        self.inputs.0.push((pin.to_string(), wire));
    }
}

impl MigrateBlock for LeanBlock {
    fn id(&self) -> &str {
        &self.id
    }
    fn ty(&self) -> &str {
        &self.ty
    }
    fn set_ty(&mut self, ty: &str) {
        self.ty = ty.into();
    }
    fn data_type_mut(&mut self) -> Option<&mut TypeName> {
        LeanBlock::data_type_mut(self)
    }
    fn input_mut(&mut self, pin: &str) -> Option<&mut Wire> {
        self.inputs.get_mut(pin)
    }
    fn has_input(&self, pin: &str) -> bool {
        self.inputs.get(pin).is_some()
    }
    fn add_input(&mut self, pin: &str, wire: Wire) {
        let mut pins = std::mem::take(&mut self.inputs.0).into_vec();
        pins.push((pin.into(), wire));
        self.inputs.0 = pins.into_boxed_slice();
    }
}

impl<B> DocumentOf<B> {
    /// The same document with each block (of the program and of every macro) turned into a
    /// `C` by `f`.
    pub fn map_blocks<C>(self, f: &mut impl FnMut(B) -> C) -> DocumentOf<C> {
        let DocumentOf {
            fbd,
            migrated_from,
            migration_notes,
            name,
            description,
            cycle_ms,
            watchdog_ms,
            include,
            types,
            inputs,
            outputs,
            macros,
            blocks,
            variables,
            ladder,
            st,
            connectors,
            pages,
            tasks,
        } = self;
        let macros = macros.into_iter().map(|m| m.map_blocks(&mut *f)).collect();
        let blocks = blocks.into_iter().map(f).collect();
        DocumentOf {
            fbd,
            migrated_from,
            migration_notes,
            name,
            description,
            cycle_ms,
            watchdog_ms,
            include,
            types,
            inputs,
            outputs,
            macros,
            blocks,
            variables,
            ladder,
            st,
            connectors,
            pages,
            tasks,
        }
    }
}

impl<B> MacroDefOf<B> {
    /// The same macro with each block of its body turned into a `C` by `f`.
    pub fn map_blocks<C>(self, f: &mut impl FnMut(B) -> C) -> MacroDefOf<C> {
        let MacroDefOf { name, description, inputs, outputs, blocks, variables, ladder, st, connectors, pages } = self;
        let blocks = blocks.into_iter().map(f).collect();
        MacroDefOf { name, description, inputs, outputs, blocks, variables, ladder, st, connectors, pages }
    }
}

impl<B> DocumentOf<B> {
    /// The format version the document needs: 6 with Structured Text, 5 with variables or a
    /// ladder network (in the program or a macro), 4 with tasks, else 3.
    pub fn version_needed(&self) -> u32 {
        if !self.types.is_empty() {
            return FORMAT_VERSION;
        }
        if !self.st.is_empty() || self.macros.iter().any(|m| !m.st.is_empty()) {
            return ST_VERSION;
        }
        let ladder = !self.ladder.is_empty()
            || !self.variables.is_empty()
            || self.macros.iter().any(|m| !m.ladder.is_empty() || !m.variables.is_empty());
        if ladder {
            LADDER_VERSION
        } else if !self.tasks.is_empty() {
            TASKS_VERSION
        } else {
            BASE_VERSION
        }
    }
}

impl<B: MigrateBlock> DocumentOf<B> {
    /// Brings a document of an older format version to this one, with the same behaviour
    /// where the new version can say it, and a note for the notice where it cannot.
    pub fn migrate(&mut self) {
        let from = self.fbd;
        if from >= BASE_VERSION {
            return;
        }
        if from < 2 {
            self.migrate_v1_to_v2();
        }
        self.migrate_v2_to_v3();
        self.migrated_from = Some(from);
        self.fbd = BASE_VERSION;
    }

    /// Every block list of the document: the program's and each macro's.
    fn block_lists(&mut self) -> impl Iterator<Item = &mut Vec<B>> {
        std::iter::once(&mut self.blocks).chain(self.macros.iter_mut().map(|m| &mut m.blocks))
    }

    /// Version 1 had three types, BOOL, a 64-bit INT and a 64-bit REAL, which are LINT and
    /// LREAL in IEC 61131-3 (version 2's INT is 16 bits and REAL 32); its conversion blocks go
    /// by their new names.
    fn migrate_v1_to_v2(&mut self) {
        use crate::types::Type;
        let up = |t: &mut TypeName| {
            t.0 = match t.0 {
                Type::Int => Type::LInt,
                Type::Real => Type::LReal,
                other => other,
            }
        };
        for bs in self.block_lists() {
            for b in bs {
                if let Some(t) = b.data_type_mut() {
                    up(t);
                }
                match b.ty() {
                    "INT_TO_REAL" => b.set_ty("LINT_TO_LREAL"),
                    "REAL_TO_INT" => b.set_ty("LREAL_TO_LINT"),
                    _ => {}
                }
            }
        }
        self.inputs.iter_mut().for_each(|p| up(&mut p.ty));
        self.outputs.iter_mut().for_each(|p| up(&mut p.ty));
        for m in &mut self.macros {
            m.inputs.iter_mut().for_each(|p| up(&mut p.ty));
            m.outputs.iter_mut().for_each(|p| up(&mut p.ty));
        }
        self.migration_notes.push("its INT is LINT, its REAL LREAL: the same values".into());
        let counters = self.block_lists().flatten().any(|b| matches!(b.ty(), "CTU" | "CTD" | "CTUD"));
        if counters {
            self.migration_notes.push(
                "its counters now stop at pv (CTU) and at 0 (CTD), as matiec's do, where version 1 counted on".into(),
            );
        }
    }

    /// Version 2's timers took and gave LINT milliseconds; version 3's pt and et are TIMEs (to
    /// the nanosecond). A constant preset becomes the same duration (`500` → `T#500ms`); a
    /// wired one needs a TIME signal, which only its author can choose: it is named in a note.
    fn migrate_v2_to_v3(&mut self) {
        use crate::types::{Literal, Value};
        let mut wired = Vec::new();
        let mut moved = 0;
        for bs in self.block_lists() {
            for b in bs.iter_mut().filter(|b| matches!(b.ty(), "TON" | "TOF" | "TP")) {
                let is_wired = match b.input_mut("pt") {
                    Some(wire) => match *wire {
                        Wire::Const(Literal::Int(ms)) => {
                            *wire = Wire::constant(Value::Time(ms.saturating_mul(1_000_000)));
                            moved += 1;
                            false
                        }
                        _ => true,
                    },
                    None => false,
                };
                if is_wired {
                    wired.push(format!("{}.pt", b.id()));
                }
            }
        }
        if moved > 0 {
            self.migration_notes.push(format!("its timers' presets are TIMEs now ({moved} moved: 500 → T#500ms)"));
        }
        if self.block_lists().flatten().any(|b| b.ty() == "LREAL_TO_LINT") {
            self.migration_notes
                .push("its LREAL_TO_LINT rounds halves to even now, as matiec's (2.5 → 2; version 2 gave 3)".into());
        }
        if !wired.is_empty() {
            self.migration_notes.push(format!(
                "pt and et of a timer are TIME now, not LINT ms: wire a TIME to {} (a LINT is refused)",
                wired.join(", ")
            ));
        }
    }
}

#[cfg(test)]
mod lamp_tests {
    use super::LampColour;

    #[test]
    fn a_lamp_is_coloured_by_what_its_name_says() {
        assert_eq!(LampColour::of("O_LEDRed"), LampColour::Red);
        assert_eq!(LampColour::of("dry_run_alarm"), LampColour::Red);
        assert_eq!(LampColour::of("E_Stop"), LampColour::Red);
        assert_eq!(LampColour::of("lamp_yellow"), LampColour::Amber);
        assert_eq!(LampColour::of("pump"), LampColour::Green);
    }
}
