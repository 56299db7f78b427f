//! Model tests of the Finvara engine, in `tests/`: `finvara_model.rs`
//! compares the runtime's move search with a plain model of the
//! specification (and with brute force), `finvara_attacks.rs` the attack
//! counts the board keeps with counts made from scratch. They live in a
//! package of their own so that they build optimised; this library is
//! empty.
