//! Embeds the Chessoteric hello-world game and its BTM listing: the whole
//! game is played while this example compiles; only the Turing machine is
//! left in the binary. Both print the same.
//!
//! `cargo run --example pgn_hello`

use chess2rs_runtime::{Options, RuntimeError};

chess2rs_macros::chess_program!(fn hello_game = file "chessoteric-hello.pgn");
chess2rs_macros::chess_program!(fn hello_listing = file "hello.btm");

fn main() -> Result<(), RuntimeError> {
    let mut from_game = Vec::new();
    hello_game(&b""[..], &mut from_game, &Options::default())?;
    let mut from_listing = Vec::new();
    hello_listing(&b""[..], &mut from_listing, &Options::default())?;
    print!("game:    {}", String::from_utf8_lossy(&from_game));
    print!("listing: {}", String::from_utf8_lossy(&from_listing));
    assert_eq!(from_game, from_listing);
    Ok(())
}
