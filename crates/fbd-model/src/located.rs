//! IEC 61131-3 located addresses of program ports (`%IX0.0`, `%QW3`, `%MD10`), as OpenPLC and
//! Beremiz locate variables, and where OpenPLC's Modbus server puts each: `%IX` discrete
//! inputs and `%QX` coils (byte × 8 + bit), `%IW` input registers, `%QW` holding registers 0..,
//! `%MW` holding registers from 1024, `%MD` from 2048 (two registers each), `%ML` from 4096
//! (four each), a wider value's most significant word first.

/// Where a located port sits in OpenPLC's Modbus map.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// 0 coil, 1 discrete input, 2 holding register, 3 input register (Modbus's tables).
    pub table: u8,
    /// The first address.
    pub address: u16,
    /// Registers it takes (0: a bit).
    pub words: u16,
}

/// Reads a located address; an error says what one looks like.
pub fn parse(text: &str) -> Result<Located, String> {
    let bad = || {
        format!("`{text}` is no located address: %IX0.0 or %QX0.0 (a bit, byte.bit), %IW0, %QW0, %MW0, %MD0 or %ML0")
    };
    let t = text.trim().to_ascii_uppercase();
    let rest = t.strip_prefix('%').ok_or_else(bad)?;
    let (area, rest) = rest.split_at_checked(1).ok_or_else(bad)?;
    let (size, num) = rest.split_at_checked(1).ok_or_else(bad)?;
    let index = |s: &str| s.parse::<u32>().map_err(|_| bad());
    let (table, address, words) = match (area, size) {
        ("I" | "Q", "X") => {
            let (byte, bit) = num.split_once('.').ok_or_else(bad)?;
            let (byte, bit) = (index(byte)?, index(bit)?);
            if bit > 7 || byte > 99 {
                return Err(format!("`{text}`: OpenPLC's bits are %IX0.0 to %IX99.7"));
            }
            (if area == "I" { 1 } else { 0 }, byte * 8 + bit, 0)
        }
        ("I", "W") => (3, limit(text, index(num)?, 1023)?, 1),
        ("Q", "W") => (2, limit(text, index(num)?, 1023)?, 1),
        ("M", "W") => (2, 1024 + limit(text, index(num)?, 1023)?, 1),
        ("M", "D") => (2, 2048 + 2 * limit(text, index(num)?, 1023)?, 2),
        ("M", "L") => (2, 4096 + 4 * limit(text, index(num)?, 1023)?, 4),
        _ => return Err(bad()),
    };
    Ok(Located { table, address: address as u16, words })
}

fn limit(text: &str, n: u32, max: u32) -> Result<u32, String> {
    if n > max { Err(format!("`{text}`: OpenPLC's words are numbered 0 to {max}")) } else { Ok(n) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openplc_s_map() {
        let at = |s| parse(s).map(|l| (l.table, l.address, l.words));
        assert_eq!(at("%IX0.0"), Ok((1, 0, 0)));
        assert_eq!(at("%QX2.3"), Ok((0, 19, 0)));
        assert_eq!(at("%IW5"), Ok((3, 5, 1)));
        assert_eq!(at("%QW5"), Ok((2, 5, 1)));
        assert_eq!(at("%mw2"), Ok((2, 1026, 1)));
        assert_eq!(at("%MD3"), Ok((2, 2054, 2)));
        assert_eq!(at("%ML1"), Ok((2, 4100, 4)));
        assert!(parse("%IX0.8").is_err() && parse("%QW1024").is_err() && parse("IX0.0").is_err());
        assert!(parse("%IB0").unwrap_err().contains("%IX0.0"));
    }
}
