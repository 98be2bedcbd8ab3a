//! IEC 61131-3 located addresses (`%IX0.0`, `%QW3`, `%MD10`, `%IB2`, Beremiz's hierarchical
//! `%IW0.0.2.8192.0`, `%I*` in a function block), and where OpenPLC's Modbus server puts the
//! ones it serves: `%IX` discrete inputs and `%QX` coils (byte × 8 + bit), `%IW` input
//! registers, `%QW` holding registers 0.., `%MW` holding registers from 1024, `%MD` from 2048
//! (two registers each), `%ML` from 4096 (four each), a wider value's most significant word
//! first. Every other form is a valid address OpenPLC does not serve: a map file places it.

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

/// A located address as IEC 61131-3 writes it: `%` area, size, then numbers separated by
/// dots (or `*`: not yet bound, in a function block or a program type).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    /// `I` input, `Q` output, `M` memory.
    pub area: char,
    /// `X` bit (also written without a size), `B` byte, `W` word, `D` double word, `L` long.
    pub size: char,
    /// The numbers of a hierarchical address (`%IW0.0.2.8192.0`: five); empty for `%I*`.
    pub path: Vec<u32>,
}

impl Address {
    /// Whether the address is `%I*`/`%Q*`/`%M*`, bound later by the configuration.
    pub fn is_unbound(&self) -> bool {
        self.path.is_empty()
    }

    /// Where OpenPLC's Modbus server serves this address, if it does.
    pub fn openplc(&self) -> Option<Located> {
        let (a, s) = (self.area, self.size);
        let one = |max: u32| match self.path[..] {
            [n] if n <= max => Some(n),
            _ => None,
        };
        let (table, address, words) = match (a, s) {
            ('I' | 'Q', 'X') => match self.path[..] {
                [byte, bit] if bit <= 7 && byte <= 1023 => (if a == 'I' { 1 } else { 0 }, byte * 8 + bit, 0),
                _ => return None,
            },
            ('I', 'W') => (3, one(1023)?, 1),
            ('Q', 'W') => (2, one(1023)?, 1),
            ('M', 'W') => (2, 1024 + one(1023)?, 1),
            ('M', 'D') => (2, 2048 + 2 * one(1023)?, 2),
            ('M', 'L') => (2, 4096 + 4 * one(1023)?, 4),
            _ => return None,
        };
        Some(Located { table, address: address as u16, words })
    }
}

impl std::fmt::Display for Address {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            return write!(f, "%{}*", self.area);
        }
        write!(f, "%{}{}", self.area, self.size)?;
        for (k, n) in self.path.iter().enumerate() {
            if k > 0 {
                f.write_str(".")?;
            }
            write!(f, "{n}")?;
        }
        Ok(())
    }
}

/// Reads a located address in any form IEC 61131-3 allows; an error says what one looks like.
pub fn parse_address(text: &str) -> Result<Address, String> {
    let bad = || {
        format!(
            "`{text}` is no located address: % then I, Q or M, a size X, B, W, D or L, and numbers with dots (%IX0.0, %QW3, %MD10, %IW0.0.2.8192.0) or * (%I*)"
        )
    };
    let t = text.trim().to_ascii_uppercase();
    let rest = t.strip_prefix('%').ok_or_else(bad)?;
    let mut chars = rest.chars();
    let area = chars.next().filter(|c| matches!(c, 'I' | 'Q' | 'M')).ok_or_else(bad)?;
    let rest = chars.as_str();
    let (size, nums) = match rest.chars().next() {
        Some(c @ ('X' | 'B' | 'W' | 'D' | 'L')) => (c, &rest[1..]),
        _ => ('X', rest),
    };
    if nums == "*" {
        return Ok(Address { area, size, path: Vec::new() });
    }
    let path = nums
        .split('.')
        .map(|n| if n.bytes().all(|b| b.is_ascii_digit()) && !n.is_empty() { n.parse::<u32>().ok() } else { None })
        .collect::<Option<Vec<u32>>>()
        .ok_or_else(bad)?;
    Ok(Address { area, size, path })
}

/// Reads a located address where OpenPLC's Modbus server serves it; an error for a form it does
/// not serve (a valid IEC address all the same: see [`parse_address`]).
pub fn parse(text: &str) -> Result<Located, String> {
    let a = parse_address(text)?;
    a.openplc().ok_or_else(|| {
        format!(
            "`{text}` is not served by OpenPLC's Modbus map (%IX0.0 to %IX1023.7, %QX likewise, %IW0, %QW0, %MW0, %MD0 or %ML0 to 1023)"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openplc_s_map() {
        let at = |s| parse(s).map(|l| (l.table, l.address, l.words));
        assert_eq!(at("%IX0.0"), Ok((1, 0, 0)));
        assert_eq!(at("%QX2.3"), Ok((0, 19, 0)));
        assert_eq!(at("%IX100.0"), Ok((1, 800, 0)));
        assert_eq!(at("%IW5"), Ok((3, 5, 1)));
        assert_eq!(at("%QW5"), Ok((2, 5, 1)));
        assert_eq!(at("%mw2"), Ok((2, 1026, 1)));
        assert_eq!(at("%MD3"), Ok((2, 2054, 2)));
        assert_eq!(at("%ML1"), Ok((2, 4100, 4)));
        assert!(parse("%IX0.8").is_err() && parse("%QW1024").is_err() && parse("IX0.0").is_err());
        assert!(parse("%IB0").unwrap_err().contains("not served"));
    }

    #[test]
    fn every_iec_form_reads_and_a_malformed_one_is_refused() {
        for ok in [
            "%IX0.0",
            "%IB2",
            "%QB1",
            "%MB7",
            "%ID0.2",
            "%QD3",
            "%IL1",
            "%QL0",
            "%IW0.0.2.8192.0",
            "%I*",
            "%Q*",
            "%I3",
            "%MX1.2",
        ] {
            let a = parse_address(ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
            assert_eq!(a.to_string(), if ok == "%I3" { "%IX3".to_string() } else { ok.to_string() }, "{ok}");
        }
        for bad in ["%%", "hello", "%", "%IX", "%IW0..1", "%IW-1", "%ZW0", "%IW0.", "%IWx"] {
            assert!(parse_address(bad).unwrap_err().contains("no located address"), "{bad}");
        }
        assert!(parse_address("%I*").unwrap().is_unbound());
        assert!(parse_address("%ID0.2").unwrap().openplc().is_none());
    }
}
