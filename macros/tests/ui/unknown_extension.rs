chess2rs_macros::chess_program!(fn song = file "song.txt");

fn main() {}
