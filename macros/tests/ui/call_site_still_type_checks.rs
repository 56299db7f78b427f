chess2rs_macros::chess_program!(fn song = "1. ^?2", lang = icp);

fn main() {
    // The stub keeps the signature: only the program error is reported.
    let mut out = Vec::new();
    song(&b""[..], &mut out, &Default::default()).unwrap();
}
