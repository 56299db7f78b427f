//! Run-time support for programs compiled by [chess2rs](https://crates.io/crates/chess2rs).
//!
//! Generated code and the chess2rs interpreter both call into this crate, so
//! the semantics of boards, input, output, errors and step limits live in one
//! place. Users embedding a program need only [`Options`] and
//! [`RuntimeError`]; everything generated code calls lives in the hidden
//! [`__private`] module and may change between versions.
//!
//! The crate has no dependencies and never refers to itself as `crate::`, so
//! `chess2rs --standalone` can paste it into a single file that `rustc`
//! builds on its own (see [`SOURCES`]).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod chc;
mod error;
mod fv;
mod hash;
mod icp;
mod io;
mod limits;
mod memory;
mod tm;
mod tm_blocks;
mod tm_table;

pub use self::error::{ErrorKind, Location, MessageFormat, RuntimeError, SourceMap};
pub use self::limits::Options;

/// The runtime's copyright and MIT licence notice. The runtime is MIT OR
/// Apache-2.0; `chess2rs --standalone` copies it into the program file, so
/// the file carries this notice, as the MIT terms ask of copies.
pub const LICENSE_NOTICE: &str = include_str!("../LICENSE-MIT");

/// What generated code and the chess2rs crate (its interpreter and code
/// generator) call: each module lists exactly the items they use, so that
/// rustc reports what nothing uses. Not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use super::error::{ErrorKind, RuntimeError, SourceMap};
    pub use super::io::{
        append_source_name, parse_size, run_main, run_program, run_program_in, Io, ProgramInfo,
    };
    pub use super::limits::{Options, StepCounter};

    /// Chess Code: cells, passes of loops, the table of large programs.
    pub mod chc {
        pub use super::super::chc::{
            add, cold_path, count_direct_passes, counting_to_end, fit_to_end, output, skip,
            skip_passes, Exit, Pass, Role, Shape, DIRECT_PASSES, MAX_DEGREE, SKIP_AFTER_STEPS,
        };
        /// The table that large programs are written as.
        pub mod table {
            pub use super::super::super::chc::table::{
                run_table, write_line, Addend, Counting, Form, Gap, Op, Place, Polynomial, PureOp,
                Table, Test,
            };
        }
    }

    /// InfChessPro: the board, its pieces and moves, the table of large
    /// programs.
    pub mod icp {
        pub use super::super::icp::{
            jump_target, Board, Colour, Kind, NameId, Pace, Piece, Square,
        };
        // Generated code names a piece's constant by its colour and kind.
        pub use super::super::icp::{
            BLACK_BISHOP, BLACK_KING, BLACK_KNIGHT, BLACK_PAWN, BLACK_QUEEN, BLACK_ROOK,
            WHITE_BISHOP, WHITE_KING, WHITE_KNIGHT, WHITE_PAWN, WHITE_QUEEN, WHITE_ROOK,
        };
        /// Moves outlined from generated code into shared functions.
        pub mod outlined {
            pub use super::super::super::icp::outlined::{move_named_by, move_named_to};
        }
        /// The table that large programs are written as.
        pub mod table {
            pub use super::super::super::icp::table::{
                run_table, write_command, write_label, write_line, Command, Operand, Table, INPUT,
            };
        }
    }

    /// Finvara: rules, moves and their search, the game, the table of
    /// large programs.
    pub mod fv {
        pub use super::super::fv::{
            decode_all, views, Automaton, Bend, Cell, Edge, Game, Move, MoveLine, OwnedAutomaton,
            Path, Paths, PieceValue, Point, RankRange, Ray, Rules, Square, State, Step, MAX_EDGES,
            UNBOUNDED,
        };
        /// The table that large programs are written as.
        pub mod table {
            pub use super::super::super::fv::table::{run_table, write_line, CHECKS};
        }
    }

    /// The memory budget.
    pub mod memory {
        pub use super::super::memory::{charge, DEFAULT_MAX_MEMORY};
    }

    /// Turing machines (Chessoteric and BTM): the tape, rules, steps.
    pub mod tm {
        pub use super::super::tm::{
            finish, grow, input_value, output_symbol, scan_left, scan_right, step, sweep_left,
            sweep_right, Control, Rule, Step, Tape, INPUT, OUTPUT,
        };
    }

    /// Turing machines run a block of cells at a time.
    pub mod tm_blocks {
        pub use super::super::tm_blocks::{run, CODES};
    }

    /// The table that large Turing machines are written as.
    pub mod tm_table {
        pub use super::super::tm_table::{run_table, write_numbers, write_rule, Table};
    }
}

/// The source text of this crate, file by file (`lib.rs` first), used by
/// `chess2rs --standalone` to inline the runtime into one file. A module's
/// name is its path from the crate root (`fv/board` is `mod board;` inside
/// `fv`). Modules compiled only for tests (`fv/testing`, `fv/hooks`) are
/// left out: generated programs never compile them.
pub const SOURCES: &[(&str, &str)] = &[
    ("lib", include_str!("lib.rs")),
    ("chc", include_str!("chc/mod.rs")),
    ("chc/passes", include_str!("chc/passes.rs")),
    ("chc/poly", include_str!("chc/poly.rs")),
    ("chc/table", include_str!("chc/table/mod.rs")),
    ("chc/table/text", include_str!("chc/table/text.rs")),
    ("chc/table/words", include_str!("chc/table/words.rs")),
    ("error", include_str!("error.rs")),
    ("fv", include_str!("fv/mod.rs")),
    ("fv/automaton", include_str!("fv/automaton.rs")),
    ("fv/board", include_str!("fv/board/mod.rs")),
    ("fv/board/attacks", include_str!("fv/board/attacks.rs")),
    ("fv/board/flood", include_str!("fv/board/flood.rs")),
    ("fv/board/kinds", include_str!("fv/board/kinds.rs")),
    ("fv/board/listed", include_str!("fv/board/listed.rs")),
    ("fv/board/pieces", include_str!("fv/board/pieces.rs")),
    ("fv/moves", include_str!("fv/moves.rs")),
    ("fv/reach", include_str!("fv/reach.rs")),
    ("fv/repeat", include_str!("fv/repeat.rs")),
    ("fv/rules", include_str!("fv/rules.rs")),
    ("fv/search", include_str!("fv/search/mod.rs")),
    ("fv/search/follow", include_str!("fv/search/follow.rs")),
    ("fv/search/node", include_str!("fv/search/node.rs")),
    ("fv/search/queue", include_str!("fv/search/queue.rs")),
    ("fv/stacks", include_str!("fv/stacks.rs")),
    ("fv/stamps", include_str!("fv/stamps.rs")),
    ("fv/table", include_str!("fv/table.rs")),
    ("fv/visited", include_str!("fv/visited.rs")),
    ("hash", include_str!("hash.rs")),
    ("icp", include_str!("icp/mod.rs")),
    ("icp/board", include_str!("icp/board.rs")),
    ("icp/board_model", include_str!("icp/board_model.rs")),
    ("icp/geometry", include_str!("icp/geometry.rs")),
    ("icp/index", include_str!("icp/index.rs")),
    ("icp/legality", include_str!("icp/legality.rs")),
    ("icp/outlined", include_str!("icp/outlined.rs")),
    ("icp/piece", include_str!("icp/piece.rs")),
    ("icp/table", include_str!("icp/table.rs")),
    ("icp/walk", include_str!("icp/walk.rs")),
    ("io", include_str!("io.rs")),
    ("limits", include_str!("limits.rs")),
    ("memory", include_str!("memory.rs")),
    ("tm", include_str!("tm.rs")),
    ("tm_blocks", include_str!("tm_blocks.rs")),
    ("tm_table", include_str!("tm_table.rs")),
];
