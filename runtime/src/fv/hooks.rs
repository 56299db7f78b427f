//! What tests outside the crate ask of a game's incremental state
//! (feature `test-hooks`: compiled only for them, and left out of the
//! runtime that generated programs carry).

use super::super::memory::Refused;
use super::{Game, Rules};

impl Game {
    /// Whether the board's kept counts of attacked royal pieces equal
    /// counts made from scratch (for tests of the incremental state).
    #[doc(hidden)]
    pub fn attack_counts_are_fresh(&mut self, rules: &Rules) -> Result<bool, Refused> {
        for white in [true, false] {
            let kept = self
                .board
                .attacked_royals(rules, white, &mut self.attacks)?;
            let fresh = self
                .board
                .count_attacked_royals(rules, white, &mut self.attacks)?;
            if kept != fresh {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// How many royal pieces of White and of Black are attacked (for tests
    /// that compare ways of finding out).
    #[doc(hidden)]
    pub fn attacked_royal_counts(&mut self, rules: &Rules) -> Result<[usize; 2], Refused> {
        Ok([
            self.board.attacked_royals(rules, true, &mut self.attacks)?,
            self.board
                .attacked_royals(rules, false, &mut self.attacks)?,
        ])
    }
}
