//! The lowered Chessoteric/BTM program: only the Turing machine. Both the
//! code generator and the interpreter consume this.

/// A Turing machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    /// The rules in order, one per (state, read); states 1 and 2 left out
    /// (input and output states never consult rules).
    pub rules: Vec<Rule>,
    /// The initial tape from cell 0.
    pub tape: Vec<i64>,
    /// The source file's name.
    pub source_name: String,
}

/// `(state, read) → (next, write, direction)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The state it applies in.
    pub state: i64,
    /// The symbol it applies to.
    pub read: i64,
    /// The state after.
    pub next: i64,
    /// The symbol written.
    pub write: i64,
    /// Move left (odd direction) instead of right (even).
    pub left: bool,
    /// The source line its run-time errors name: that of its first part
    /// (a game's annotated move, a listing's line). Errors in the input
    /// and output states name the rule that entered them.
    pub line: u32,
    /// Where its five parts came from: the annotated moves of a game or
    /// the lines of a BTM listing, e.g. ``from `Qg8!` (line 3) to `Kd1!`
    /// (line 4)``.
    pub origin: String,
}

/// The machine's special states.
pub mod states {
    /// Reads a line of input.
    pub const INPUT: i64 = 1;
    /// Prints symbols until a 0.
    pub const OUTPUT: i64 = 2;
}

impl Machine {
    /// The rule for `(state, read)`, if any.
    pub fn rule(&self, state: i64, read: i64) -> Option<&Rule> {
        self.rules
            .iter()
            .find(|r| r.state == state && r.read == read)
    }
}
