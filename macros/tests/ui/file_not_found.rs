chess2rs_macros::chess_program!(fn song = file "no/such/program.icp");

fn main() {}
