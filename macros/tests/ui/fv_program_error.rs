chess2rs_macros::chess_program! {
    pub fn stacks = r#"
(k):
(a 1): {(1,0),(0,1)

+--+
|kW|
+--+
"#, lang = fv
}

fn main() {}
