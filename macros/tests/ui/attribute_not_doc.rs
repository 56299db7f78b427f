chess2rs_macros::chess_program! {
    #[inline]
    fn song = "1. ^", lang = icp
}

fn main() {}
