chess2rs_macros::chess_program!(fn song = "1. ^", lang = icp; fn other);

fn main() {}
