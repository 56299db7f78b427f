//! A table whose entries are stamped with the generation that wrote them:
//! starting a new generation empties it without writing to it (until the
//! stamps wrap, once in four billion starts). Searches' visited nodes and
//! flood fills' visited squares, started once per search or fill.

use super::super::memory::{self, Refused};

/// Per index, a value and the generation that wrote it.
#[derive(Clone, Debug, Default)]
pub(super) struct Stamped<T> {
    entries: Vec<(u32, T)>,
    generation: u32,
}

impl<T: Copy + Default> Stamped<T> {
    /// Empties the table for indices `0..len` (its growth charged to the
    /// run's memory budget).
    pub(super) fn start(&mut self, len: usize) -> Result<(), Refused> {
        if self.entries.len() != len {
            self.entries.clear();
            memory::reserve(&mut self.entries, len)?;
            self.entries.resize(len, (0, T::default()));
            self.generation = 0;
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Stamps wrapped: forget them all once.
            self.entries.fill((0, T::default()));
            self.generation = 1;
        }
        Ok(())
    }

    /// The value written at `index` since the table was started, if any.
    #[inline(always)]
    pub(super) fn get(&self, index: usize) -> Option<T> {
        let (stamp, value) = self.entries[index];
        (stamp == self.generation).then_some(value)
    }

    /// Writes `value` at `index`.
    #[inline(always)]
    pub(super) fn set(&mut self, index: usize, value: T) {
        self.entries[index] = (self.generation, value);
    }
}

impl Stamped<()> {
    /// Adds `index` to the set; whether it was not in it yet.
    #[inline(always)]
    pub(super) fn insert(&mut self, index: usize) -> bool {
        let stamp = &mut self.entries[index].0;
        let new = *stamp != self.generation;
        *stamp = self.generation;
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_generation_forgets_and_a_wrap_resets() {
        let mut table: Stamped<u32> = Stamped::default();
        table.start(4).unwrap();
        assert_eq!(table.get(2), None);
        table.set(2, 7);
        table.set(1, 5);
        assert_eq!(table.get(2), Some(7));
        // The stamps wrap back to this generation's: its entries must not
        // come back.
        table.generation = u32::MAX;
        table.start(4).unwrap();
        assert_eq!(table.generation, 1);
        assert_eq!(table.get(1), None, "after the wrap");
        table.start(4).unwrap();
        assert_eq!(table.get(2), None, "the next generation");
        let mut set: Stamped<()> = Stamped::default();
        set.start(3).unwrap();
        assert!(set.insert(0) && !set.insert(0) && set.insert(2));
        set.start(5).unwrap();
        assert!(set.insert(0), "another length starts afresh");
    }
}
