//! The `chess2rs` command: see `chess2rs --help`.

fn main() -> std::process::ExitCode {
    chess2rs::cli::main()
}
