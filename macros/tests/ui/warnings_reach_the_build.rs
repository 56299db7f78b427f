// A program's warnings reach rustc's output as deprecation notes at the
// macro call; denying `deprecated` turns them into errors, which shows them
// here.
#![deny(deprecated)]

chess2rs_macros::chess_program!(pub fn ghost = "1. %ghost", lang = icp);

fn main() {}
