//! What a path search remembers about the `A*` repetitions it is inside
//! (those compiled with [`Edge::Begin`](super::Edge::Begin)): "the same way
//! each time" means that every round after the first makes exactly the
//! choices the first made — every edge, in every automaton `"s"` enters,
//! nested repetitions and crooked rounds included.
//!
//! A *context* is a stack of levels, one per open repetition, innermost on
//! top:
//! - *recording*: in the first round; the choices so far are a node of a
//!   trie shared by the whole search, so equal rounds share storage;
//! - *replaying*: in a later round; the first round's choices, stored once
//!   when it ended, and how many of them this round has made;
//! - *passive*: inside a replayed round, where the outer level already
//!   fixes every choice.
//!
//! Contexts are interned (equal stacks have one number), so a search node
//! can name its context in its visited-set key. Memory grows with the
//! choices the search makes, never with how many ways a notation has.

use super::super::hash::FastMap;
use super::super::memory::{self, Charged, Refused};

/// One choice: the piece type whose automaton the edge belongs to, and the
/// edge's index in it.
pub(super) type Choice = u64;

/// The choice of edge `edge` of `kind`'s automaton.
pub(super) fn choice(kind: u16, edge: u32) -> Choice {
    u64::from(kind) << 32 | u64::from(edge)
}

/// One open repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Level {
    /// First round; the choices so far are trie node `trie`.
    Recording { trie: u32 },
    /// A later round: `made` of the first round's choices (round `round`
    /// of [`Repetitions::rounds`]) are made again.
    Replaying { round: u32, made: u32 },
    /// Inside a round an outer level replays.
    Passive,
}

/// An interned context: its top level and the context below it.
#[derive(Clone, Copy, Debug)]
struct Context {
    below: u32,
    level: Level,
    /// The choice the next edge must make (from the replaying level), if
    /// any.
    expected: Option<Choice>,
    /// Some level records: a path must not come back to where it was
    /// (see [`Repetitions::shape`]).
    recording: bool,
    /// Some level replays (so new levels are passive).
    replaying: bool,
    /// This context with every recording's choices forgotten.
    shape: u32,
}

/// The repetition contexts of one search, and the first rounds they
/// recorded. Context 0 is "inside no repetition".
#[derive(Clone, Debug, Default)]
pub(super) struct Repetitions {
    contexts: Vec<Context>,
    context_ids: Charged<FastMap<(u32, Level), u32>>,
    /// The trie of recorded choices: node → (parent, choice); node 0 is
    /// the empty recording.
    trie: Vec<(u32, Choice)>,
    trie_ids: Charged<FastMap<(u32, Choice), u32>>,
    /// Finished first rounds: (start, length) in `choices`.
    rounds: Vec<(u32, u32)>,
    round_ids: Charged<FastMap<u32, u32>>,
    choices: Vec<Choice>,
}

/// Context 0: inside no repetition.
pub(super) const OUTSIDE: u32 = 0;

impl Repetitions {
    /// Forgets everything but keeps the buffers.
    pub(super) fn clear(&mut self) {
        // Most searches never enter a recorded repetition: nothing to undo.
        if self.contexts.len() == 1 {
            return;
        }
        self.contexts.clear();
        self.context_ids.clear();
        self.contexts.push(Context {
            below: OUTSIDE,
            level: Level::Passive,
            expected: None,
            recording: false,
            replaying: false,
            shape: OUTSIDE,
        });
        self.trie.clear();
        self.trie_ids.clear();
        self.trie.push((0, 0));
        self.rounds.clear();
        self.round_ids.clear();
        self.choices.clear();
    }

    /// The choice context `context` requires of the next edge, if any.
    #[inline]
    pub(super) fn expected(&self, context: u32) -> Option<Choice> {
        if context == OUTSIDE {
            return None;
        }
        self.contexts[context as usize].expected
    }

    /// Whether some level of `context` records a first round.
    pub(super) fn recording(&self, context: u32) -> bool {
        self.contexts[context as usize].recording
    }

    /// `context` with the recordings' choices forgotten: two nodes of one
    /// path with the same shape (and the same place in the notation,
    /// square and memory) *in the same first round* only differ by the way
    /// being recorded, so the second is a detour and is not searched (the
    /// search tells first rounds apart by their number, `Mark::round`).
    pub(super) fn shape(&self, context: u32) -> u32 {
        self.contexts[context as usize].shape
    }

    /// The context after an ordinary edge `made` was taken in `context`:
    /// every recording level records it, the replaying level counts it.
    /// (Each of these steps is refused with the memory budget's error
    /// when the contexts cannot grow.)
    pub(super) fn after(&mut self, context: u32, made: Choice) -> Result<u32, Refused> {
        if context == OUTSIDE {
            return Ok(OUTSIDE);
        }
        let Context { below, level, .. } = self.contexts[context as usize];
        let below = self.after(below, made)?;
        let level = match level {
            Level::Recording { trie } => Level::Recording {
                trie: self.trie_child(trie, made)?,
            },
            Level::Replaying { round, made } => Level::Replaying {
                round,
                made: made + 1,
            },
            Level::Passive => Level::Passive,
        };
        self.intern(below, level)
    }

    /// The context after [`Edge::Begin`](super::Edge::Begin) (choice
    /// `made`) in `context`: a new level on top, recording unless an
    /// outer round replays.
    pub(super) fn begin(&mut self, context: u32, made: Choice) -> Result<u32, Refused> {
        let replaying = self.contexts[context as usize].replaying;
        let context = self.after(context, made)?;
        let level = if replaying {
            Level::Passive
        } else {
            Level::Recording { trie: 0 }
        };
        self.intern(context, level)
    }

    /// The context after [`Edge::Stop`](super::Edge::Stop): the top level
    /// is closed; the levels below record the choice.
    pub(super) fn stop(&mut self, context: u32, made: Choice) -> Result<u32, Refused> {
        let below = self.contexts[context as usize].below;
        self.after(below, made)
    }

    /// The context after [`Edge::Again`](super::Edge::Again): the top level
    /// replays its first round from the start; the levels below record the
    /// choice.
    pub(super) fn again(&mut self, context: u32, made: Choice) -> Result<u32, Refused> {
        let Context { below, level, .. } = self.contexts[context as usize];
        let below = self.after(below, made)?;
        let level = match level {
            Level::Recording { trie } => Level::Replaying {
                round: self.finish_round(trie)?,
                made: 0,
            },
            Level::Replaying { round, .. } => Level::Replaying { round, made: 0 },
            Level::Passive => Level::Passive,
        };
        self.intern(below, level)
    }

    /// The trie node of recording `parent` followed by `made`.
    fn trie_child(&mut self, parent: u32, made: Choice) -> Result<u32, Refused> {
        memory::reserve_entries(&mut self.trie_ids, 1)?;
        memory::reserve(&mut self.trie, 1)?;
        let next = self.trie.len() as u32;
        let id = *self.trie_ids.entry((parent, made)).or_insert(next);
        if id == next {
            self.trie.push((parent, made));
        }
        Ok(id)
    }

    /// The round of the recording ending at trie node `trie`, stored once.
    fn finish_round(&mut self, trie: u32) -> Result<u32, Refused> {
        if let Some(&round) = self.round_ids.get(&trie) {
            return Ok(round);
        }
        let start = self.choices.len();
        let mut node = trie;
        while node != 0 {
            let (parent, made) = self.trie[node as usize];
            memory::push(&mut self.choices, made)?;
            node = parent;
        }
        self.choices[start..].reverse();
        let round = self.rounds.len() as u32;
        memory::push(
            &mut self.rounds,
            (start as u32, (self.choices.len() - start) as u32),
        )?;
        memory::reserve_entries(&mut self.round_ids, 1)?;
        self.round_ids.insert(trie, round);
        Ok(round)
    }

    /// The context `level` on top of `below`, interned.
    fn intern(&mut self, below: u32, level: Level) -> Result<u32, Refused> {
        if let Some(&id) = self.context_ids.get(&(below, level)) {
            return Ok(id);
        }
        let under = self.contexts[below as usize];
        let expected = match level {
            Level::Replaying { round, made } => {
                let (start, length) = self.rounds[round as usize];
                (made < length).then(|| self.choices[(start + made) as usize])
            }
            Level::Passive => under.expected,
            Level::Recording { .. } => None,
        };
        let id = self.contexts.len() as u32;
        memory::reserve_entries(&mut self.context_ids, 1)?;
        memory::push(
            &mut self.contexts,
            Context {
                below,
                level,
                expected,
                recording: under.recording || matches!(level, Level::Recording { .. }),
                replaying: under.replaying || matches!(level, Level::Replaying { .. }),
                shape: id,
            },
        )?;
        self.context_ids.insert((below, level), id);
        let shape = match level {
            Level::Recording { trie } if trie != 0 || under.shape != below => {
                self.intern(under.shape, Level::Recording { trie: 0 })?
            }
            _ if under.shape != below => self.intern(under.shape, level)?,
            _ => id,
        };
        self.contexts[id as usize].shape = shape;
        Ok(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replayed_round_expects_the_recorded_choices_in_order() {
        let mut reps = Repetitions::default();
        reps.clear();
        let outer = reps.begin(OUTSIDE, choice(0, 1)).unwrap();
        assert!(reps.recording(outer));
        assert_eq!(reps.expected(outer), None);
        let a = reps.after(outer, choice(0, 2)).unwrap();
        let b = reps.after(a, choice(1, 7)).unwrap();
        // Two paths that recorded different choices differ, but have one
        // shape.
        let other = reps.after(outer, choice(0, 3)).unwrap();
        assert_ne!(a, other);
        assert_eq!(reps.shape(a), reps.shape(other));
        assert_eq!(reps.shape(a), reps.shape(outer));
        let replay = reps.again(b, choice(0, 9)).unwrap();
        assert!(!reps.recording(replay));
        assert_eq!(reps.expected(replay), Some(choice(0, 2)));
        let replay = reps.after(replay, choice(0, 2)).unwrap();
        assert_eq!(reps.expected(replay), Some(choice(1, 7)));
        let replay = reps.after(replay, choice(1, 7)).unwrap();
        assert_eq!(reps.expected(replay), None, "the round is complete");
        // Again: from the start of the same round.
        let again = reps.again(replay, choice(0, 9)).unwrap();
        assert_eq!(reps.expected(again), Some(choice(0, 2)));
        assert_eq!(reps.stop(again, choice(0, 8)).unwrap(), OUTSIDE);
    }

    #[test]
    fn levels_inside_a_replayed_round_are_passive_and_outer_ones_record() {
        let mut reps = Repetitions::default();
        reps.clear();
        let outer = reps.begin(OUTSIDE, choice(0, 0)).unwrap();
        let inner = reps.begin(outer, choice(0, 1)).unwrap();
        let inner = reps.after(inner, choice(0, 2)).unwrap();
        // The inner round is replayed while the outer one still records.
        let inner = reps.again(inner, choice(0, 3)).unwrap();
        assert!(reps.recording(inner));
        assert_eq!(reps.expected(inner), Some(choice(0, 2)));
        let inner = reps.after(inner, choice(0, 2)).unwrap();
        let outer_end = reps.stop(inner, choice(0, 4)).unwrap();
        // The outer recording holds every choice: 1, 2, 3, 2, 4.
        let replay = reps.again(outer_end, choice(0, 5)).unwrap();
        let mut seen = Vec::new();
        let mut context = replay;
        while let Some(next) = reps.expected(context) {
            seen.push(next);
            context = match next {
                n if n == choice(0, 1) => reps.begin(context, n).unwrap(),
                n if n == choice(0, 3) => reps.again(context, n).unwrap(),
                n if n == choice(0, 4) => reps.stop(context, n).unwrap(),
                n => reps.after(context, n).unwrap(),
            };
        }
        assert_eq!(
            seen,
            [1, 2, 3, 2, 4].map(|e| choice(0, e)),
            "inner levels are passive and the outer one leads"
        );
    }
}
