//! The export's stand-in function blocks for the library blocks IEC has no equivalent of: their
//! names and the pins they rename, shared by the export (which writes them) and the import
//! (which maps them back).

use fbd_model::Type;

/// Pins a stand-in declares under another name: an IEC compiler reserves `EN` (every block has
/// one of its own) and the standard function names (`SEL`): matiec refused a variable `sel`.
const RENAMED: &[(Option<&str>, &str, &str)] = &[(None, "en", "ENABLE"), (Some("SELECTOR"), "sel", "POSITION")];

/// The name of the stand-in for library block `block` of type `t`: `FBD_MEMORY_OF_LINT`.
/// Exports before the IEC types wrote `FBD_MEMORY_INT` (and earlier `MEMORY__INT`), whose INT
/// and REAL meant LINT and LREAL; [`block_of`] reads those too, and the `_OF_` keeps a 16-bit
/// INT's stand-in (`FBD_MEMORY_OF_INT`) apart from them.
pub(crate) fn name(block: &str, t: Type) -> String {
    format!("FBD_{block}_OF_{}", t.name())
}

/// The library block and type a stand-in's name stands for.
pub(crate) fn block_of(name: &str) -> Option<(String, Type)> {
    if let Some((b, t)) = name.strip_prefix("FBD_").and_then(|r| r.rsplit_once("_OF_")) {
        fbd_model::library::lookup(b)?;
        return Some((b.to_string(), Type::parse(t)?));
    }
    let (b, t) = match name.strip_prefix("FBD_") {
        Some(rest) => rest.rsplit_once('_')?,
        None => name.split_once("__")?,
    };
    fbd_model::library::lookup(b)?;
    let t = match t {
        "INT" => Type::LInt,
        "REAL" => Type::LReal,
        "BOOL" => Type::Bool,
        _ => return None,
    };
    Some((b.to_string(), t))
}

/// The stand-in's name for pin `pin` of `block`, where it declares it under another.
pub(crate) fn formal(block: &str, pin: &str) -> Option<&'static str> {
    RENAMED.iter().find(|(b, p, _)| b.is_none_or(|b| b == block) && *p == pin).map(|r| r.2)
}

/// Our pin for a stand-in's formal parameter `formal` of `block`, where it was renamed.
pub(crate) fn pin(block: &str, formal: &str) -> Option<&'static str> {
    RENAMED.iter().find(|(b, _, f)| b.is_none_or(|b| b == block) && f.eq_ignore_ascii_case(formal)).map(|r| r.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_renamed_pins_go_both_ways() {
        assert_eq!(name("MEMORY", Type::LInt), "FBD_MEMORY_OF_LINT");
        assert_eq!(block_of("FBD_MEMORY_OF_LINT"), Some(("MEMORY".into(), Type::LInt)));
        assert_eq!(block_of("FBD_MEMORY_OF_INT"), Some(("MEMORY".into(), Type::Int)), "a 16-bit INT's");
        assert_eq!(
            block_of("FBD_MEMORY_INT"),
            Some(("MEMORY".into(), Type::LInt)),
            "as exports before the IEC types wrote it"
        );
        assert_eq!(block_of("FBD_R_TRIG_OF_BOOL"), Some(("R_TRIG".into(), Type::Bool)), "a block with an underscore");
        assert_eq!(block_of("MEMORY__REAL"), Some(("MEMORY".into(), Type::LReal)), "as earlier exports wrote it");
        assert_eq!(block_of("FBD_NOPE_INT"), None);
        assert_eq!(formal("SELECTOR", "sel"), Some("POSITION"));
        assert_eq!(formal("RANDOM", "en"), Some("ENABLE"));
        assert_eq!(formal("RANDOM", "lo"), None);
        assert_eq!(pin("SELECTOR", "position"), Some("sel"));
        assert_eq!(pin("MEMORY", "POSITION"), None, "only SELECTOR's");
    }
}
