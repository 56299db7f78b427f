//! The lowered InfChessPro program: labels resolved to line indices, names
//! interned, piece letters turned into runtime constants. Both the code
//! generator and the interpreter consume this.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;

use chess2rs_runtime::__private::icp::{NameId, Piece};

use crate::source::Span;

pub use super::syntax::Operand;

/// A program ready to run or to generate code from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The numbered lines in execution (file) order.
    pub lines: Vec<Line>,
    /// Interned names: `NameId` indexes this.
    pub names: Vec<String>,
    /// Every label and its line index, sorted by label (for `*` jumps).
    pub labels: Vec<(i64, u32)>,
    /// The source file's name.
    pub source_name: String,
}

/// One executable line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the source file (for errors).
    pub source_line: u32,
    /// Where its command is in the source (after the label): what its
    /// run-time errors point at.
    pub span: Span,
    /// The source text, for comments in generated code.
    pub text: String,
    /// What it does.
    pub command: Command,
    /// Where to continue after success.
    pub on_success: Next,
    /// Where to continue after failure.
    pub on_failure: Next,
}

/// Where execution continues.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// The line with this index; `lines.len()` halts.
    Line(u32),
    /// A label read from input when the jump is taken.
    Input,
}

/// A command with names interned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `^`.
    Nop,
    /// `"TEXT`.
    Print(String),
    /// `%NAME`.
    Count(NameId),
    /// `NAME=Tr,c`.
    Place {
        /// The name.
        name: NameId,
        /// Type and colour.
        piece: Piece,
        /// Row and column.
        square: [Operand; 2],
    },
    /// `r,c,r,c`.
    MoveFrom {
        /// The square moved from.
        from: [Operand; 2],
        /// The square moved to.
        to: [Operand; 2],
    },
    /// `NAME,r,c`.
    MoveNamedTo {
        /// The name.
        name: NameId,
        /// The square moved to.
        to: [Operand; 2],
    },
    /// `NAME;dr,dc`.
    MoveNamedBy {
        /// The name.
        name: NameId,
        /// The offset.
        by: [Operand; 2],
    },
}

impl Command {
    /// The command's operands in reading order (`*`s are read in this
    /// order); unused trailing entries are `Literal(0)`.
    pub fn operands(&self) -> ([Operand; 4], usize) {
        let none = Operand::Literal(0);
        match self {
            Command::Nop | Command::Print(_) | Command::Count(_) => ([none; 4], 0),
            Command::Place { square: [a, b], .. }
            | Command::MoveNamedTo { to: [a, b], .. }
            | Command::MoveNamedBy { by: [a, b], .. } => ([*a, *b, none, none], 2),
            Command::MoveFrom { from, to } => ([from[0], from[1], to[0], to[1]], 4),
        }
    }
}

/// Values numbered in order of first appearance: piece names as the
/// [`NameId`]s of [`Program::names`], labels and names for the checks.
#[derive(Clone, Debug)]
pub struct Interner<K> {
    ids: HashMap<K, u32>,
    values: Vec<K>,
}

impl<K> Default for Interner<K> {
    fn default() -> Self {
        Interner {
            ids: HashMap::new(),
            values: Vec::new(),
        }
    }
}

impl<K: Hash + Eq + Clone> Interner<K> {
    /// The number of `key`, given it if it is new.
    pub fn id<Q>(&mut self, key: &Q) -> u32
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        if let Some(&id) = self.ids.get(key) {
            return id;
        }
        let id = u32::try_from(self.values.len()).unwrap_or(u32::MAX);
        self.values.push(key.to_owned());
        self.ids.insert(key.to_owned(), id);
        id
    }

    /// The values, by number.
    pub fn values(&self) -> &[K] {
        &self.values
    }

    /// The values, by number, without the numbering.
    pub fn into_values(self) -> Vec<K> {
        self.values
    }
}
