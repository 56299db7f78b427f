//! The set of nodes a path search has visited, without hashing: a node's
//! automaton state and square pick a slot of a dense array, stamped with
//! the search's generation ([`Stamped`]: starting a search clears
//! nothing), and the
//! rest of the node (memory, effects, calls, repetitions) is compared along
//! a short chain hanging from the slot. A slot whose chain grows past
//! [`CHAIN_LIMIT`] (a search that reaches one square in one state in many
//! ways) moves its nodes into a hash set, so that no insertion walks a long
//! chain. Boards and notations so large that the array would pass
//! [`DENSE_SLOTS`] use the hash set for every node.
//!
//! Growth is charged to the run's memory budget: a search too large for it
//! is refused with the budget's error.

use super::super::hash::FastSet;
use super::super::memory::{self, Charged, Refused};
use super::automaton::Automaton;
use super::stamps::Stamped;

/// Most slots (automaton states of all piece types × squares) the dense
/// array may have: 4,194,304 slots of 8 bytes, 32 MB.
pub(super) const DENSE_SLOTS: usize = 1 << 22;

/// The longest chain a slot keeps before its nodes move into the hash set.
const CHAIN_LIMIT: u32 = 16;

/// A slot's head when its nodes are in the hash set.
const IN_HASHED: u32 = u32::MAX;

/// What a node is besides its state and square.
pub(super) type Rest = (u64, u64, u32);

/// Visited nodes, by (piece type, state, square) and the rest.
#[derive(Clone, Debug, Default)]
pub(super) struct NodeSet {
    /// Per piece type: the slot number of its state 0 on square 0, divided
    /// by the number of squares (the states of all types before it).
    bases: Vec<u32>,
    squares: u32,
    /// Per slot used by this search: the first entry of its chain (index +
    /// 1; [`IN_HASHED`]: the slot's nodes are in `hashed`).
    slots: Stamped<u32>,
    /// Chain entries: a node's rest and the next entry (index + 1).
    entries: Vec<(Rest, u32)>,
    /// The nodes of slots with long chains, or all nodes when the dense
    /// array would be too large: (slot's state, square, rest).
    hashed: Charged<FastSet<(u32, u32, Rest)>>,
    dense: bool,
    /// What `bases` were computed for: the automata (address, count) and
    /// the number of squares.
    layout: (usize, usize, u32),
    /// The states of all piece types.
    total_states: usize,
}

/// A search's hashed set is dropped instead of cleared when it grew past
/// this many entries, so that one big search does not slow down later
/// small ones.
const KEEP_CAPACITY: usize = 1 << 12;

impl NodeSet {
    /// Empties the set for a search over piece types with `states[kind]`
    /// states each, on a board of `squares` squares (refused if the dense
    /// array, up to 32 MB, does not fit in the memory budget).
    pub(super) fn start(&mut self, automata: &[Automaton], squares: u32) -> Result<(), Refused> {
        // The layout depends only on the piece types and the board, which
        // a game's searches share: computed once.
        let layout = (automata.as_ptr() as usize, automata.len(), squares);
        if layout != self.layout {
            self.layout = layout;
            self.bases.clear();
            let mut total: usize = 0;
            for automaton in automata {
                self.bases.push(total.min(u32::MAX as usize) as u32);
                total = total.saturating_add(automaton.states.len());
            }
            self.total_states = total;
        }
        let slots = self.total_states.saturating_mul(squares as usize);
        self.dense = slots <= DENSE_SLOTS;
        self.squares = squares;
        if self.dense {
            self.slots.start(slots)?;
            if self.entries.capacity() > KEEP_CAPACITY {
                memory::free(&mut self.entries);
            } else {
                self.entries.clear();
            }
        }
        if self.hashed.capacity() > KEEP_CAPACITY {
            memory::free_table(&mut self.hashed);
        } else if !self.hashed.is_empty() {
            self.hashed.clear();
        }
        Ok(())
    }

    /// Adds the node (state `state` of piece type `kind` on `square`, and
    /// `rest`); whether it was new, or the budget's error if the set could
    /// not grow.
    #[inline(always)]
    pub(super) fn insert(
        &mut self,
        kind: u16,
        state: u32,
        square: u32,
        rest: Rest,
    ) -> Result<bool, Refused> {
        let base = self.bases[usize::from(kind)];
        if !self.dense {
            return self.insert_hashed((base + state, square, rest));
        }
        let slot = ((base + state) as usize) * self.squares as usize + square as usize;
        let head = self.slots.get(slot).unwrap_or(0);
        if head == IN_HASHED {
            return self.insert_hashed((base + state, square, rest));
        }
        let mut entry = head;
        let mut length = 0;
        while entry != 0 {
            let (seen, next) = self.entries[entry as usize - 1];
            if seen == rest {
                return Ok(false);
            }
            entry = next;
            length += 1;
        }
        if length >= CHAIN_LIMIT {
            return self.move_to_hashed(slot, base + state, square, head, rest);
        }
        memory::push(&mut self.entries, (rest, head))?;
        self.slots.set(slot, self.entries.len() as u32);
        Ok(true)
    }

    /// Adds `node` to the hash set; whether it was new.
    fn insert_hashed(&mut self, node: (u32, u32, Rest)) -> Result<bool, Refused> {
        memory::reserve_entries(&mut self.hashed, 1)?;
        Ok(self.hashed.insert(node))
    }

    /// Moves the chain from `head` of slot `slot` (state `state` on
    /// `square`) into the hash set, with the new node `rest`.
    #[cold]
    #[inline(never)]
    fn move_to_hashed(
        &mut self,
        slot: usize,
        state: u32,
        square: u32,
        head: u32,
        rest: Rest,
    ) -> Result<bool, Refused> {
        memory::reserve_entries(&mut self.hashed, CHAIN_LIMIT as usize + 1)?;
        let mut entry = head;
        while entry != 0 {
            let (seen, next) = self.entries[entry as usize - 1];
            self.hashed.insert((state, square, seen));
            entry = next;
        }
        self.slots.set(slot, IN_HASHED);
        Ok(self.hashed.insert((state, square, rest)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::automaton::State;
    use super::super::testing::searched;
    use super::*;

    #[test]
    fn nodes_are_new_once_per_search_dense_or_hashed() {
        let states = [State::new(0, 0, 0); 3];
        let automaton = |count: usize| searched(&states[..count], &[]);
        let automata = [automaton(3), automaton(2)];
        for squares in [9, (DENSE_SLOTS as u32 / 5) + 1] {
            let mut set = NodeSet::default();
            set.start(&automata, squares).unwrap();
            assert_eq!(set.dense, squares == 9);
            let mut insert =
                |kind, state, square, rest| set.insert(kind, state, square, rest).unwrap();
            assert!(insert(1, 1, 8, (1, 2, 3)));
            assert!(!insert(1, 1, 8, (1, 2, 3)));
            assert!(insert(1, 1, 8, (1, 2, 4)), "another rest");
            assert!(insert(0, 1, 8, (1, 2, 3)), "another type");
            assert!(insert(1, 0, 8, (1, 2, 3)), "another state");
            assert!(!insert(1, 1, 8, (1, 2, 4)));
            set.start(&automata, squares).unwrap();
            assert!(
                set.insert(1, 1, 8, (1, 2, 3)).unwrap(),
                "a new search forgets"
            );
        }
    }

    #[test]
    fn a_long_chain_moves_into_the_hash_set_and_keeps_every_node() {
        let states = [State::new(0, 0, 0); 2];
        let automata = [searched(&states, &[])];
        let mut set = NodeSet::default();
        set.start(&automata, 4).unwrap();
        let count = u64::from(CHAIN_LIMIT) * 4;
        for rest in 0..count {
            assert!(set.insert(0, 1, 3, (rest, 0, 0)).unwrap(), "{rest} is new");
        }
        assert_eq!(set.slots.get(7), Some(IN_HASHED), "the slot's chain moved");
        assert_eq!(set.hashed.len() as u64, count);
        for rest in 0..count {
            assert!(
                !set.insert(0, 1, 3, (rest, 0, 0)).unwrap(),
                "{rest} was seen"
            );
        }
        assert!(
            set.insert(0, 0, 3, (0, 0, 0)).unwrap(),
            "other slots keep chains"
        );
        set.start(&automata, 4).unwrap();
        assert!(set.hashed.is_empty(), "a new search forgets hashed nodes");
        assert!(set.insert(0, 1, 3, (0, 0, 0)).unwrap());
        assert_eq!(set.slots.get(7), Some(1), "the slot has a chain again");
    }
}
