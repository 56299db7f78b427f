chess2rs_macros::chess_program!(fn song = "1. ^");

fn main() {}
