//! Pipes one program's output into another: the first counts pieces and
//! prints the counts, the second reads them as coordinates.
//!
//! `cargo run --example pipe`

use chess2rs_runtime::{Options, RuntimeError};

chess2rs_macros::chess_program! {
    /// Places six pawns, four of them called `a`, and prints both counts.
    fn counts = r#"
1. a=P0,0
2. a=P0,1
3. a=P0,2
4. a=P0,3
5. b=p9,0
6. b=p9,1
7. %a
8. %b
"#, lang = icp
}

chess2rs_macros::chess_program! {
    /// Places a king on the square it reads, walks it diagonally while it
    /// can (a wall stops it) and prints what happened.
    fn walker = r#"
1. k=K*,*
2. "a king stands on the square read from the first program
3. wall=P7,5
4. k;1,1!7
5. "the king stepped diagonally
6. ^?4
7. "the king stopped at the wall
8. %k
"#, lang = InfChessPro
}

fn main() -> Result<(), RuntimeError> {
    let options = Options::with_max_steps(1_000);
    let mut first = Vec::new();
    counts(&b""[..], &mut first, &options)?;
    println!(
        "first program printed {:?}",
        String::from_utf8_lossy(&first)
    );
    let mut second = Vec::new();
    walker(&first[..], &mut second, &options)?;
    print!("{}", String::from_utf8_lossy(&second));
    Ok(())
}
