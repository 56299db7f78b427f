//! Embeds the InfChessPro beer song and prints its last verse.
//!
//! `cargo run --example icp_beer`

use chess2rs_runtime::Options;

chess2rs_macros::chess_program! {
    /// The beer song from the InfChessPro page.
    fn beer_song = file "beer.icp"
}

fn main() {
    let mut output = Vec::new();
    if let Err(error) = beer_song(&b""[..], &mut output, &Options::default()) {
        eprintln!("error: {error}");
        std::process::exit(error.exit_code());
    }
    let song = String::from_utf8_lossy(&output);
    let lines: Vec<&str> = song.lines().collect();
    println!("The song has {} lines; it ends:", lines.len());
    for line in &lines[lines.len().saturating_sub(8)..] {
        println!("  {line}");
    }
}
