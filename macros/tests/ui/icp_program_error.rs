chess2rs_macros::chess_program! {
    pub fn song = r#"
1. Beer=P0,0
2. Beer;1,0?3!7
"#, lang = icp
}

fn main() {}
