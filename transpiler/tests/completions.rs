//! Shell completion through a real bash: `chess2rs check <TAB>` offers the
//! program files (clap_complete's script alone offered the flags).

use std::path::Path;
use std::process::Command;

/// What bash completes for the command line `words` (the last one being
/// completed) in `dir`, with the script `chess2rs completions bash` prints.
fn complete(dir: &Path, words: &[&str]) -> Vec<String> {
    let script = Command::new(env!("CARGO_BIN_EXE_chess2rs"))
        .args(["completions", "bash"])
        .output()
        .unwrap();
    assert!(script.status.success());
    std::fs::write(dir.join("chess2rs.bash"), &script.stdout).unwrap();
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let driver = format!(
        "source ./chess2rs.bash
COMP_WORDS=({})
COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1))
COMP_LINE=\"${{COMP_WORDS[*]}}\"
COMP_POINT=${{#COMP_LINE}}
complete -p chess2rs | grep -q _chess2rs_files || exit 3
_chess2rs_files chess2rs \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"
printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        quoted.join(" ")
    );
    let output = Command::new("bash")
        .current_dir(dir)
        .args(["--norc", "-c", &driver])
        .output()
        .expect("bash runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut words: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|line| !line.is_empty())
        .map(String::from)
        .collect();
    words.sort();
    words
}

#[test]
fn bash_completes_program_files_verbs_flags_and_values() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("completions");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("loop.icp"), "1. \"hi\n").unwrap();
    std::fs::write(dir.join("add.chc"), "a1\n").unwrap();
    let files = ["add.chc", "chess2rs.bash", "loop.icp"];

    // A verb's program: the files, no flags.
    assert_eq!(complete(&dir, &["chess2rs", "check", ""]), files);
    assert_eq!(complete(&dir, &["chess2rs", "run", "lo"]), ["loop.icp"]);
    assert_eq!(
        complete(&dir, &["chess2rs", "interpret", "--lang", "icp", ""]),
        files
    );
    // No verb: the verbs and the files.
    let top = complete(&dir, &["chess2rs", ""]);
    assert!(top.contains(&"check".to_string()) && top.contains(&"loop.icp".to_string()));
    assert!(!top.iter().any(|w| w.starts_with('-')), "{top:?}");
    // A flag being typed, an option's values, a verb without files.
    assert_eq!(
        complete(&dir, &["chess2rs", "check", "--message-"]),
        ["--message-format"]
    );
    assert_eq!(
        complete(&dir, &["chess2rs", "check", "--lang", ""]),
        ["btm", "chc", "fv", "icp", "pgn"]
    );
    assert_eq!(
        complete(&dir, &["chess2rs", "check", "loop.icp", "--color", ""]),
        ["always", "auto", "never"]
    );
    let cache = complete(&dir, &["chess2rs", "cache", ""]);
    assert!(cache.contains(&"clean".to_string()), "{cache:?}");
    assert!(!cache.contains(&"loop.icp".to_string()), "{cache:?}");
}
