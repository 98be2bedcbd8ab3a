//! Which Modbus register or bit is which signal. The 2048 program brings a layout of its own
//! (`fbd2048_game::modbus`: the six commands as coils, the board, score and best as input
//! registers, the lamps as discrete inputs); any other program gets one generated from its ports: BOOL inputs as coils, BOOL
//! outputs as discrete inputs, numeric inputs as holding registers, numeric outputs as input
//! registers, each from address 0 in declaration order. A value wider than 16 bits spans
//! registers, the most significant word first; REAL is IEEE 754 in two registers.

use std::fmt::Write as _;

use fbd_engine::{ScanImage, ScanPlan, Type, Value};
use fbd2048_game::Command;

/// The four Modbus tables.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Table {
    /// Read-write bits (functions 1, 5, 15).
    Coil,
    /// Read-only bits (function 2).
    Discrete,
    /// Read-write registers (functions 3, 6, 16).
    Holding,
    /// Read-only registers (function 4).
    Input,
}

impl Table {
    fn name(self) -> &'static str {
        match self {
            Table::Coil => "coil",
            Table::Discrete => "discrete input",
            Table::Holding => "holding register",
            Table::Input => "input register",
        }
    }
}

/// What an address holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A 2048 command: writing TRUE presses it (queued during the lockout, as a key press).
    Command(Command),
    /// A signal of the plan.
    Signal {
        /// Its index in the plan's signals.
        id: usize,
        /// Its type.
        ty: Type,
        /// The registers it takes (0: a bit).
        words: u16,
        /// The program input it is, when it can be written.
        input: Option<String>,
    },
    /// The scan count (four registers, most significant first).
    Scans,
}

/// One mapped item.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Its table.
    pub table: Table,
    /// Its first address.
    pub address: u16,
    /// The signal's name (or the command's).
    pub name: String,
    /// What it is.
    pub item: Item,
    /// Writable even when the server refuses writes (a map file's `"write": true`).
    pub write: bool,
    /// The register holds the value times this (a map file's `"scale"`; a REAL read as an
    /// integer register).
    pub scale: Option<f64>,
}

impl Entry {
    fn span(&self) -> u16 {
        match &self.item {
            Item::Command(_) => 1,
            Item::Signal { words, .. } => (*words).max(1),
            Item::Scans => 4,
        }
    }
}

/// A program's Modbus map.
#[derive(Clone, Debug, Default)]
pub struct ModbusMap {
    /// Every item, by table and address.
    pub entries: Vec<Entry>,
}

/// The registers a STRING takes: its 126 characters two by two, the first in the high byte,
/// NUL after the text (as SCADA tools read a string from registers).
const STRING_WORDS: u16 = 63;

/// How many registers a value of `ty` takes (0: a bit).
fn words(ty: Type) -> u16 {
    match ty {
        Type::Bool => 0,
        Type::SInt | Type::Int | Type::USInt | Type::UInt | Type::Byte | Type::Word => 1,
        Type::DInt | Type::UDInt | Type::DWord | Type::Real => 2,
        Type::String => STRING_WORDS,
        _ => 4,
    }
}

impl ModbusMap {
    /// The map of `plan`: the 2048 program's own, or one generated from its ports.
    pub fn of(plan: &ScanPlan) -> ModbusMap {
        if fbd2048_game::front::GameIo::find(plan).is_some() {
            Self::game(plan)
        } else if plan.inputs.iter().chain(&plan.outputs).any(|p| p.address.is_some()) {
            Self::located(plan)
        } else {
            Self::generated(plan)
        }
    }

    /// The ports at their located addresses, where OpenPLC serves them (a program imported from
    /// OpenPLC or Beremiz answers where its SCADA already reads); ports without one are not
    /// served.
    fn located(plan: &ScanPlan) -> ModbusMap {
        let mut m = ModbusMap::default();
        let ports = plan.inputs.iter().map(|p| (p, true)).chain(plan.outputs.iter().map(|p| (p, false)));
        for (p, input) in ports {
            let (Some(a), Some(id)) = (&p.address, plan.signal_id(&p.name)) else { continue };
            let Ok(l) = fbd_engine::located::parse(a) else { continue };
            let table = [Table::Coil, Table::Discrete, Table::Holding, Table::Input][usize::from(l.table)];
            let writable = input && matches!(table, Table::Coil | Table::Holding);
            m.entries.push(Entry {
                table,
                address: l.address,
                name: p.name.clone(),
                item: Item::Signal { id, ty: p.ty, words: l.words, input: writable.then(|| p.name.clone()) },
                write: false,
                scale: None,
            });
        }
        m
    }

    /// The 2048 program's own layout ([`fbd2048_game::modbus::LAYOUT`]), each signal found in
    /// `plan` (one it lacks is not served).
    fn game(plan: &ScanPlan) -> ModbusMap {
        use fbd2048_game::modbus::{Holds, LAYOUT, Table as T};
        let mut m = ModbusMap::default();
        for (table, address, name, holds) in LAYOUT {
            let table = match table {
                T::Coil => Table::Coil,
                T::Discrete => Table::Discrete,
                T::Input => Table::Input,
            };
            let item = match holds {
                Holds::Command(c) => Item::Command(c),
                Holds::Scans => Item::Scans,
                Holds::Signal(words) => {
                    let Some(id) = plan.signal_id(name) else { continue };
                    Item::Signal { id, ty: plan.signals.at(id).slot.ty, words, input: None }
                }
            };
            m.entries.push(Entry { table, address, name: name.into(), item, write: false, scale: None });
        }
        m
    }

    fn generated(plan: &ScanPlan) -> ModbusMap {
        let mut m = ModbusMap::default();
        let mut next = [0u16; 4];
        let mut add = |m: &mut ModbusMap, table: Table, name: &str, item: Item, span: u16| {
            let k = table as usize;
            m.entries.push(Entry { table, address: next[k], name: name.into(), item, write: false, scale: None });
            next[k] += span;
        };
        for p in &plan.inputs {
            let Some(id) = plan.signal_id(&p.name) else { continue };
            let w = words(p.ty);
            let table = if w == 0 { Table::Coil } else { Table::Holding };
            add(&mut m, table, &p.name, Item::Signal { id, ty: p.ty, words: w, input: Some(p.name.clone()) }, w.max(1));
        }
        for p in &plan.outputs {
            let Some(id) = plan.signal_id(&p.name) else { continue };
            let w = words(p.ty);
            let table = if w == 0 { Table::Discrete } else { Table::Input };
            add(&mut m, table, &p.name, Item::Signal { id, ty: p.ty, words: w, input: None }, w.max(1));
        }
        add(&mut m, Table::Input, "scan", Item::Scans, 4);
        m
    }

    /// The map a file gives (`--map FILE`): `{"items": [{"name", "table", "address", "words"?,
    /// "scale"?, "write"?}]}`, `name` any signal of the program (an input, an output, a block's
    /// pin by path), `table` `coil`, `discrete`, `holding` or `input`; only the items listed
    /// are served. Errors name the item and what is wrong, all at once.
    pub fn from_file(plan: &ScanPlan, text: &str) -> Result<ModbusMap, String> {
        let doc: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("{}:{}: {e}", e.line(), e.column()))?;
        let items = doc.get("items").and_then(|i| i.as_array()).ok_or("a map is {\"items\": [...]}")?;
        let mut m = ModbusMap::default();
        let mut errors = Vec::new();
        // Each entry's item number in the file.
        let mut index = Vec::new();
        for (k, it) in items.iter().enumerate() {
            let field = |f: &str| it.get(f);
            let Some(name) = field("name").and_then(|v| v.as_str()) else {
                errors.push(format!("item {k}: no `name`"));
                continue;
            };
            let Some(id) = plan.signal_id(name) else {
                errors.push(format!("item {k}: the program has no signal `{name}`"));
                continue;
            };
            let table = match field("table").and_then(|v| v.as_str()) {
                Some("coil") => Table::Coil,
                Some("discrete") => Table::Discrete,
                Some("holding") => Table::Holding,
                Some("input") => Table::Input,
                other => {
                    errors.push(format!("item {k} (`{name}`): table {other:?}: one of coil, discrete, holding, input"));
                    continue;
                }
            };
            let Some(address) = field("address").and_then(|v| v.as_u64()).filter(|a| *a <= u64::from(u16::MAX)) else {
                errors.push(format!("item {k} (`{name}`): `address` is a number from 0 to 65535"));
                continue;
            };
            let ty = plan.signals.at(id).slot.ty;
            let words = field("words").and_then(|v| v.as_u64()).map_or(words(ty), |w| w as u16);
            if matches!(table, Table::Coil | Table::Discrete) != (words == 0) {
                errors.push(format!(
                    "item {k} (`{name}`, {}): a BOOL goes in a coil or a discrete input, a number in registers",
                    ty.name()
                ));
                continue;
            }
            let write = field("write").and_then(|v| v.as_bool()).unwrap_or(false);
            let input = plan.inputs.iter().any(|p| p.name == name).then(|| name.to_string());
            if write && (input.is_none() || !matches!(table, Table::Coil | Table::Holding)) {
                errors.push(format!(
                    "item {k} (`{name}`): only a program input in a coil or holding register can be written"
                ));
                continue;
            }
            index.push(k);
            m.entries.push(Entry {
                table,
                address: address as u16,
                name: name.to_string(),
                item: Item::Signal {
                    id,
                    ty,
                    words,
                    input: if matches!(table, Table::Coil | Table::Holding) { input } else { None },
                },
                write,
                scale: field("scale").and_then(|v| v.as_f64()),
            });
        }
        errors.extend(m.misplaced(&index));
        if errors.is_empty() { Ok(m) } else { Err(errors.join("\n")) }
    }

    /// Items that run past address 65535 or overlap another of their table, each said with
    /// the item's number in the file (`index[k]`).
    fn misplaced(&self, index: &[usize]) -> Vec<String> {
        let mut errors = Vec::new();
        let at = |k: usize| index.get(k).copied().unwrap_or(k);
        for (k, e) in self.entries.iter().enumerate() {
            let last = u32::from(e.address) + u32::from(e.span()) - 1;
            if last > u32::from(u16::MAX) {
                errors.push(format!(
                    "item {} (`{}`): {} words from address {} run past 65535",
                    at(k),
                    e.name,
                    e.span(),
                    e.address
                ));
            }
            let overlaps = self.entries[..k].iter().enumerate().find(|(_, o)| {
                o.table == e.table
                    && u32::from(o.address) <= last
                    && u32::from(e.address) < u32::from(o.address) + u32::from(o.span())
            });
            if let Some((j, o)) = overlaps {
                errors.push(format!(
                    "item {} (`{}`, {} {}..{}) overlaps item {} (`{}`, {}..{})",
                    at(k),
                    e.name,
                    e.table.name(),
                    e.address,
                    last,
                    at(j),
                    o.name,
                    o.address,
                    u32::from(o.address) + u32::from(o.span()) - 1
                ));
            }
        }
        errors
    }

    /// The item at `address` of `table` and the word of it that address is.
    pub fn find(&self, table: Table, address: u16) -> Option<(&Entry, u16)> {
        self.entries
            .iter()
            .filter(|e| e.table == table)
            .find(|e| (e.address..e.address + e.span()).contains(&address))
            .map(|e| (e, address - e.address))
    }

    /// The map as `fbd serve --print-map` prints it.
    pub fn text(&self, plan: &ScanPlan) -> String {
        let mut s = String::from("table             address  words  access  name (type)\n");
        for e in &self.entries {
            let (ty, access) = match &e.item {
                Item::Command(_) => ("command".to_string(), "write"),
                Item::Signal { ty, input, .. } => {
                    (ty.name().to_string(), if input.is_some() { "read/write" } else { "read" })
                }
                Item::Scans => ("ULINT".to_string(), "read"),
            };
            let _ =
                writeln!(s, "{:<17} {:>7}  {:>5}  {access:<7} {} ({ty})", e.table.name(), e.address, e.span(), e.name);
        }
        let _ = plan;
        s
    }

    /// Register `word` of `e` as the image shows it now.
    pub fn read_word(&self, e: &Entry, word: u16, img: &ScanImage) -> u16 {
        match &e.item {
            Item::Command(_) => 0,
            Item::Scans => (img.scan >> (16 * (3 - word))) as u16,
            Item::Signal { id, words, .. } => {
                let value = match (e.scale, img.read_signal(*id)) {
                    (Some(k), Value::Real(r)) => Value::Int((r * k).round() as i64),
                    (Some(k), Value::Int(i)) => Value::Int((i as f64 * k).round() as i64),
                    (_, v) => v,
                };
                let raw: u64 = match value {
                    Value::Bool(b) => b as u64,
                    Value::Int(i) | Value::Time(i) => i as u64,
                    Value::ULInt(u) => u,
                    Value::Real(r) if *words == 2 => (r as f32).to_bits() as u64,
                    Value::Real(r) => r.to_bits(),
                    Value::Str(s) => {
                        let b = s.as_bytes();
                        let at = |k: usize| u16::from(b.get(k).copied().unwrap_or(0));
                        let k = 2 * usize::from(word);
                        return (at(k) << 8) | at(k + 1);
                    }
                };
                let words = (*words).max(1);
                if words == 1
                    && let Value::Int(i) = value
                {
                    // One register: an INT's two's complement, a UINT; a wider value (a 2048
                    // tile of 131,072) saturates rather than wraps.
                    return if (-32768..=65535).contains(&i) {
                        i as u16
                    } else if i > 0 {
                        u16::MAX
                    } else {
                        i16::MIN as u16
                    };
                }
                (raw >> (16 * (words - 1 - word))) as u16
            }
        }
    }

    /// Bit `e` as the image shows it.
    pub fn read_bit(&self, e: &Entry, img: &ScanImage) -> bool {
        match &e.item {
            Item::Signal { id, .. } => img.read_signal(*id) == Value::Bool(true),
            _ => false,
        }
    }

    /// A value of `ty` from its registers (most significant first).
    pub fn value_of(ty: Type, regs: &[u16]) -> Value {
        let raw = regs.iter().fold(0u64, |a, r| (a << 16) | u64::from(*r));
        match ty {
            Type::Real if regs.len() == 2 => Value::Real(f64::from(f32::from_bits(raw as u32))),
            // One register for a REAL: a scaled integer (the map's `scale` divides it).
            Type::Real | Type::LReal if regs.len() == 1 => Value::Int(i64::from(raw as u16 as i16)),
            Type::Real | Type::LReal => Value::Real(f64::from_bits(raw)),
            Type::SInt | Type::Int if regs.len() == 1 => Value::Int(i64::from(raw as u16 as i16)),
            Type::DInt if regs.len() == 2 => Value::Int(i64::from(raw as u32 as i32)),
            Type::ULInt | Type::LWord => Value::ULInt(raw),
            // Nanoseconds, as a TIME reads.
            Type::Time | Type::LTime => Value::Time(raw as i64),
            Type::String => {
                let bytes: Vec<u8> = regs.iter().flat_map(|r| r.to_be_bytes()).take_while(|b| *b != 0).collect();
                Value::Str(fbd_engine::IecString::new(&bytes))
            }
            _ => Value::Int(raw as i64),
        }
    }
}
