//! A block as the compiler holds it: [`LeanBlock`], read from the same JSON as [`Block`] (with
//! the same messages: it is read as a `Block` and converted at once) and holding what the
//! compiler reads in about half the memory. A program of a million blocks is a million of
//! these while it is expanded, so their size is the compiler's peak memory.

use serde::{Deserialize, Deserializer};

use super::{Block, Params, PinNames, TypeName, Wire};

/// A block without its drawing: id, type, input pins, and the rarely written rest (negated
/// pins, parameters, data type, order) behind one pointer. A position is kept only when it is
/// outside the drawing ([`crate::limits::MAX_POS`]), for the compiler's error.
#[derive(Clone, Debug)]
pub struct LeanBlock {
    /// As [`Block::id`].
    pub id: Box<str>,
    /// As [`Block::ty`].
    pub ty: Box<str>,
    /// As [`Block::inputs`].
    pub inputs: LeanPins,
    rest: Option<Box<Rest>>,
}

/// What few blocks have: kept apart so that a block without them is four pointers.
#[derive(Clone, Debug, Default)]
struct Rest {
    negated: PinNames,
    params: Params,
    data_type: Option<TypeName>,
    bad_pos: Option<[f64; 2]>,
    order: Option<i64>,
}

impl LeanBlock {
    /// As [`Block::negated`].
    pub fn negated(&self) -> &PinNames {
        self.rest.as_ref().map_or(&PinNames::NONE, |r| &r.negated)
    }
    /// As [`Block::params`].
    pub fn params(&self) -> &Params {
        self.rest.as_ref().map_or(&Params::NONE, |r| &r.params)
    }
    /// As [`Block::data_type`].
    pub fn data_type(&self) -> Option<TypeName> {
        self.rest.as_ref().and_then(|r| r.data_type)
    }
    /// As [`Block::order`].
    pub fn order(&self) -> Option<i64> {
        self.rest.as_ref().and_then(|r| r.order)
    }
    /// [`Block::pos`] when it is outside the drawing (the compiler refuses it).
    pub fn bad_pos(&self) -> Option<[f64; 2]> {
        self.rest.as_ref().and_then(|r| r.bad_pos)
    }
    /// Sets the data type (a generic block typed by what it writes).
    pub fn set_data_type(&mut self, t: Option<TypeName>) {
        self.rest.get_or_insert_with(Default::default).data_type = t;
    }
    /// The data type, to change in place (a format migration).
    pub fn data_type_mut(&mut self) -> Option<&mut TypeName> {
        self.rest.as_mut().and_then(|r| r.data_type.as_mut())
    }
}

impl From<Block> for LeanBlock {
    fn from(b: Block) -> LeanBlock {
        let bad_pos = b.pos.filter(|p| !p.iter().all(|c| c.abs() <= crate::limits::MAX_POS));
        let rest = Rest { negated: b.negated, params: b.params, data_type: b.data_type, bad_pos, order: b.order };
        let rare = !rest.negated.is_empty()
            || rest.params != Params::NONE
            || rest.data_type.is_some()
            || rest.bad_pos.is_some()
            || rest.order.is_some();
        LeanBlock {
            id: b.id.into_boxed_str(),
            ty: b.ty.into_boxed_str(),
            inputs: LeanPins(b.inputs.0.into_iter().map(|(p, w)| (p.into_boxed_str(), w)).collect()),
            rest: rare.then(|| Box::new(rest)),
        }
    }
}

impl<'de> Deserialize<'de> for LeanBlock {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Block::deserialize(d).map(LeanBlock::from)
    }
}

/// A block's input pins in file order, as [`super::Pins`] without spare capacity.
#[derive(Clone, Debug, Default)]
pub struct LeanPins(pub Box<[(Box<str>, Wire)]>);

impl LeanPins {
    /// No pin connected.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// The pins and their wires, in file order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &Wire)> {
        self.0.iter().map(|(p, w)| (&**p, w))
    }
    /// The wire of `pin`, if connected.
    pub fn get(&self, pin: &str) -> Option<&Wire> {
        self.0.iter().find(|(p, _)| &**p == pin).map(|(_, w)| w)
    }
    /// The wire of `pin`, to change in place (a format migration).
    pub fn get_mut(&mut self, pin: &str) -> Option<&mut Wire> {
        self.0.iter_mut().find(|(p, _)| &**p == pin).map(|(_, w)| w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_block_is_four_pointers_and_keeps_what_the_compiler_reads() {
        assert_eq!(std::mem::size_of::<LeanBlock>(), 56);
        let b: Block = serde_json::from_str(
            r#"{"id":"s","type":"SEL","inputs":{"g":"x","in0":1,"in1":2},"data_type":"INT","order":3,
                "pos":[1,2],"comment":"c","negated":["g"]}"#,
        )
        .unwrap();
        let lean = LeanBlock::from(b);
        assert_eq!((&*lean.id, &*lean.ty), ("s", "SEL"));
        assert_eq!(lean.inputs.get("g"), Some(&Wire::Ref("x".into())));
        assert_eq!(lean.data_type().map(|t| t.0), Some(crate::Type::Int));
        assert_eq!((lean.order(), lean.bad_pos()), (Some(3), None));
        assert!(lean.negated().has("g"));
        let plain = LeanBlock::from(serde_json::from_str::<Block>(r#"{"id":"a","type":"AND"}"#).unwrap());
        assert!(plain.rest.is_none() && plain.negated().is_empty() && plain.params().n.is_none());
    }
}
