chess2rs_macros::chess_program!(fn song = "1. x=Z0,0\n2 ^\n", lang = icp);

fn main() {}
