//! Enumerations and arrays: a `dataType` whose base type is an `<enum>` or an `<array>` becomes
//! one of the document's `types`, and a variable of it (in an ST body) a variable of that type,
//! its initial value a value's name (`stopped`, `Mode_t#stopped`) or its elements' values
//! (`arrayValue`). A variable's own `<array>` type is written out (`ARRAY[0..7] OF BYTE`).

use fbd_model::Value;
use fbd_model::model::{ArrayType, DataKind, DataType};
use roxmltree::Node;

use super::{Ctx, child, children};

/// The enumeration types declared in `types/dataTypes`, in the file's order.
pub(super) fn enum_types(cx: &mut Ctx, root: Node) -> Vec<DataType> {
    let mut out = Vec::new();
    let Some(dts) = child(root, "types").and_then(|t| child(t, "dataTypes")) else { return out };
    for dt in children(dts, "dataType") {
        let name = dt.attribute("name").unwrap_or("").to_string();
        if let Some(a) = child(dt, "baseType").and_then(|b| child(b, "array")) {
            match array_type(a) {
                Ok(shape) => out.push(DataType {
                    name,
                    kind: DataKind::Array(shape),
                    init: None,
                    description: super::text::documentation(dt),
                }),
                Err(e) => cx.err(a, format!("array type `{name}`: {e}")),
            }
            continue;
        }
        let Some(e) = child(dt, "baseType").and_then(|b| child(b, "enum")) else { continue };
        let values: Vec<String> = child(e, "values")
            .map(|v| children(v, "value").filter_map(|v| v.attribute("name")).map(str::to_string).collect())
            .unwrap_or_default();
        if values.is_empty() {
            cx.err(dt, format!("enumeration `{name}` has no value"));
            continue;
        }
        let init = child(dt, "initialValue")
            .and_then(|i| child(i, "simpleValue"))
            .and_then(|s| s.attribute("value"))
            .map(str::to_string);
        let documentation = super::text::documentation(dt);
        out.push(DataType { name, kind: DataKind::Enum(values), init, description: documentation });
    }
    out
}

/// An `<array>` type: its dimensions and its element type (elementary or derived by name).
pub(super) fn array_type(a: Node) -> Result<ArrayType, String> {
    let mut dims = Vec::new();
    for d in children(a, "dimension") {
        let bound = |k: &str| {
            d.attribute(k)
                .and_then(|v| v.trim().parse::<i64>().ok())
                .ok_or_else(|| format!("a dimension's `{k}` is no integer"))
        };
        dims.push(format!("{}..{}", bound("lower")?, bound("upper")?));
    }
    let elem = child(a, "baseType").and_then(|b| b.children().find(|c| c.is_element()));
    let of = match elem {
        Some(t) if t.tag_name().name() == "derived" => t.attribute("name").unwrap_or("").to_string(),
        Some(t) => t.tag_name().name().to_string(),
        None => return Err("no element type".into()),
    };
    ArrayType::parse(&format!("ARRAY[{}] OF {of}", dims.join(", ")))
}

/// An `arrayValue`'s elements, in order (a `repeatCount` repeats one), each read as a literal.
pub(super) fn array_value(init: Node) -> Result<Vec<Value>, String> {
    let mut out = Vec::new();
    for v in children(init, "value") {
        let n = v.attribute("repeatCount").and_then(|c| c.parse::<usize>().ok()).unwrap_or(1);
        let Some(text) = child(v, "simpleValue").and_then(|s| s.attribute("value")) else {
            return Err("an element that is no simple value (a structure's, an array's)".into());
        };
        let x = crate::literal::parse(text).map_err(|e| format!("element `{text}`: {e}"))?;
        if out.len() + n > fbd_model::model::MAX_ARRAY_ELEMENTS as usize {
            return Err("more elements than an array has".into());
        }
        out.extend(std::iter::repeat_n(x, n));
    }
    Ok(out)
}

/// The enumeration `name` names, if the file declares one.
pub(super) fn find<'a>(enums: &'a [DataType], name: &str) -> Option<&'a DataType> {
    enums.iter().find(|t| t.name.eq_ignore_ascii_case(name))
}
