//! The random numbers every generator draws: one small generator, so that
//! the same seed makes the same programs on every build and machine.

/// A small deterministic generator (SplitMix64), so the programs are the
/// same on every build.
pub struct Random(u64);

impl Random {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        Random(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    /// A number in `low..=high`.
    pub fn between(&mut self, low: i64, high: i64) -> i64 {
        low + self.below((high - low + 1) as u64) as i64
    }
}

/// The generator of a corpus's program `index`: SplitMix64 from a seed
/// made of the corpus's own constant and the index.
pub fn corpus_random(base: u64, index: usize) -> Random {
    Random::new(base ^ (index as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03))
}
