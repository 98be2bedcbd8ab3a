//! FNV-1a (64 bit): the one hash of the project where a hash must be the same on every run,
//! build and machine (`std`'s hasher is not): plan fingerprints, RANDOM stream keys, the
//! identity of a program's files (recordings, best scores) and the state hashes of recordings.

/// The FNV-1a state.
#[derive(Copy, Clone, Debug)]
pub struct Fnv64(u64);

const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

impl Default for Fnv64 {
    fn default() -> Fnv64 {
        Fnv64::new()
    }
}

impl Fnv64 {
    /// The hash of nothing.
    pub const fn new() -> Fnv64 {
        Fnv64(OFFSET)
    }

    /// Folds in `bytes`, one at a time.
    #[inline]
    pub fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ *b as u64).wrapping_mul(PRIME);
        }
    }

    /// Folds in a whole 64-bit word at once (the checksum the generated C computes).
    #[inline]
    pub fn write_word(&mut self, w: u64) {
        self.0 = (self.0 ^ w).wrapping_mul(PRIME);
    }

    /// The hash.
    pub const fn finish(self) -> u64 {
        self.0
    }
}

/// FNV-1a of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = Fnv64::new();
    h.write(bytes);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published FNV-1a test vectors: the hashes are the standard's, not ours.
    #[test]
    fn the_standard_vectors() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
