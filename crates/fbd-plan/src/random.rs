//! The random stream of a RANDOM block: part of the definition of a run (a recording replays
//! because of it), shared by the compiler (which keys each block's stream), the executor and the
//! reference evaluator.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The random stream of one RANDOM block: ChaCha8, portable and stable across platforms.
pub fn rng_for(seed: u64, key: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed ^ key.rotate_left(17) ^ 0x9E37_79B9_7F4A_7C15)
}

/// The stream key of a RANDOM block: a hash of its path mixed with its `params.seed`.
pub fn random_key(path: &str, param_seed: Option<u64>) -> u64 {
    fbd_model::fnv::fnv1a(path.as_bytes()) ^ param_seed.unwrap_or(0).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The random stream of the RANDOM block at `path` for runtime seed `seed`: part of the
/// definition of a run (a recording replays because of it), so other evaluators can draw the
/// same numbers. Each scan with `en` draws `x` from one `next_u64` (its top 53 bits) and then `n`
/// from another (`lo + ((u * (hi - lo + 1)) >> 64)`).
pub fn random_stream(seed: u64, path: &str, param_seed: Option<u64>) -> ChaCha8Rng {
    rng_for(seed, random_key(path, param_seed))
}
