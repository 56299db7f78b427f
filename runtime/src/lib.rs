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

pub mod chc;
pub mod error;
pub mod fv;
pub mod hash;
pub mod icp;
pub mod io;
pub mod limits;
pub mod memory;
pub mod tm;
pub mod tm_blocks;
pub mod tm_table;

pub use self::error::{ErrorKind, Location, MessageFormat, RuntimeError, SourceMap};
pub use self::limits::Options;

/// The runtime's copyright and MIT licence notice. The runtime is MIT OR
/// Apache-2.0; `chess2rs --standalone` copies it into the program file, so
/// the file carries this notice, as the MIT terms ask of copies.
pub const LICENSE_NOTICE: &str = include_str!("../LICENSE-MIT");

/// What generated code calls. Not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use super::chc;
    pub use super::error::{ErrorKind, RuntimeError, SourceMap};
    pub use super::fv;
    pub use super::icp;
    pub use super::io::{parse_size, run_main, run_program, run_program_in, Io, ProgramInfo};
    pub use super::limits::{Options, StepCounter};
    pub use super::tm;
    pub use super::tm_blocks;
    pub use super::tm_table;
}

/// The source text of this crate, file by file (`lib.rs` first), used by
/// `chess2rs --standalone` to inline the runtime into one file. A module's
/// name is its path from the crate root (`fv/board` is `mod board;` inside
/// `fv`).
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
    ("fv/board", include_str!("fv/board.rs")),
    ("fv/repeat", include_str!("fv/repeat.rs")),
    ("fv/rules", include_str!("fv/rules.rs")),
    ("fv/search", include_str!("fv/search.rs")),
    ("fv/table", include_str!("fv/table.rs")),
    ("fv/visited", include_str!("fv/visited.rs")),
    ("hash", include_str!("hash.rs")),
    ("icp", include_str!("icp/mod.rs")),
    ("icp/board", include_str!("icp/board.rs")),
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
