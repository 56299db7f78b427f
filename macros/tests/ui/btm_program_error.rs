chess2rs_macros::chess_program! {
    pub fn machine = r#"
10!
01?
"#, lang = btm
}

fn main() {}
