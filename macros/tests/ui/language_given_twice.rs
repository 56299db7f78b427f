chess2rs_macros::chess_program!(fn song = "1. ^", lang = icp, lang = fv);

fn main() {}
