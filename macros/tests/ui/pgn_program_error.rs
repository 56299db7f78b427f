chess2rs_macros::chess_program! {
    pub fn game = r#"1. e4 e5 2. Ke3 *"#, lang = pgn
}

fn main() {}
