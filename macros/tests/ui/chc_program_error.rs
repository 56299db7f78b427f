chess2rs_macros::chess_program! {
    pub fn adder = r#"
a1#
a9#
1/2 1/2
a1+
a1=R+
a1=R+
"#, lang = chc
}

fn main() {}
