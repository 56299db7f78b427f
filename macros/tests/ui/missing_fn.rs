chess2rs_macros::chess_program!(pub song = "1. ^", lang = icp);

fn main() {}
