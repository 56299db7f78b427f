chess2rs_macros::chess_program!(fn song = 42);

fn main() {}
