//! Enumerations: a `dataType` whose base type is an `<enum>` becomes one of the document's
//! `types`, and a variable of it (in an ST body) a variable of that type, its initial value a
//! value's name (`stopped`, `Mode_t#stopped`).

use fbd_model::model::{DataKind, DataType};
use roxmltree::Node;

use super::{Ctx, child, children};

/// The enumeration types declared in `types/dataTypes`, in the file's order.
pub(super) fn enum_types(cx: &mut Ctx, root: Node) -> Vec<DataType> {
    let mut out = Vec::new();
    let Some(dts) = child(root, "types").and_then(|t| child(t, "dataTypes")) else { return out };
    for dt in children(dts, "dataType") {
        let Some(e) = child(dt, "baseType").and_then(|b| child(b, "enum")) else { continue };
        let name = dt.attribute("name").unwrap_or("").to_string();
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

/// The enumeration `name` names, if the file declares one.
pub(super) fn find<'a>(enums: &'a [DataType], name: &str) -> Option<&'a DataType> {
    enums.iter().find(|t| t.name.eq_ignore_ascii_case(name))
}
