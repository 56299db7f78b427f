//! One module per language, each with the same shape: `syntax` (text →
//! tree with spans), `check` (diagnostics), `lower` (tree → `ir`),
//! `codegen` (IR → Rust tokens) and `interp` (runs the IR on the runtime).

pub mod chesscode;
pub mod chessoteric;
pub mod finvara;
pub mod infchesspro;
