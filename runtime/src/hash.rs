//! A fast, deterministic hasher for the small integer keys the boards use
//! (squares, search nodes). Not resistant to adversarial keys; the keys are
//! positions on a board, not attacker-controlled strings.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-rotate hashing of integer words (the scheme of FxHash).
#[derive(Clone, Copy, Debug, Default)]
pub struct WordHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl WordHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        // Multiplying moves entropy only upward; fold the high half down so
        // that the low bits (which pick the bucket) depend on every word.
        // (MurmurHash3's 64-bit finaliser.)
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_u128(&mut self, n: u128) {
        self.add(n as u64);
        self.add((n >> 64) as u64);
    }

    fn write_i64(&mut self, n: i64) {
        self.add(n as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}

/// A hash map with [`WordHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

/// A hash set with [`WordHasher`].
pub type FastSet<K> = HashSet<K, BuildHasherDefault<WordHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_hash_equal_and_neighbours_differ() {
        let hash = |n: u128| {
            let mut h = WordHasher::default();
            h.write_u128(n);
            h.finish()
        };
        assert_eq!(hash(7), hash(7));
        assert_ne!(hash(7), hash(8));
        assert_ne!(hash(1 << 64), hash(1));
    }

    #[test]
    fn the_low_bits_depend_on_high_words() {
        // Keys differing only in bits 32..48 must spread over buckets.
        let mut buckets = std::collections::HashSet::new();
        for square in 0..256u64 {
            let mut h = WordHasher::default();
            h.write_u64(square << 32);
            h.write_u64(0);
            buckets.insert(h.finish() & 0xff);
        }
        assert!(buckets.len() > 128, "{} buckets", buckets.len());
    }
}
