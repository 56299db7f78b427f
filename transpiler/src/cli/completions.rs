//! `chess2rs completions SHELL`: the shell completion script clap_complete
//! writes, and for bash a wrapper that completes program files.

use clap::CommandFactory;
use clap_complete::Shell;

use super::args::Cli;
use super::output::to_stdout;
use super::CliResult;
use crate::Language;

/// The bash wrapper around clap_complete's `_chess2rs`. That function
/// offers the flags wherever a word does not start with `-`, so `chess2rs
/// check <TAB>` listed flags instead of files; the wrapper drops the flags
/// there and adds the files, for the verbs that take a program (and with
/// no verb), and completes `--lang` with the languages' extensions
/// (`LANGUAGES`). Values of other options are left as they were.
const BASH_FILES: &str = r#"
# chess2rs: complete program files where clap_complete offers only flags.
_chess2rs_files() {
    _chess2rs "$@"
    local cur="${COMP_WORDS[COMP_CWORD]}"
    if [[ ${COMP_WORDS[COMP_CWORD-1]} == --lang ]]; then
        COMPREPLY=($(compgen -W "LANGUAGES" -- "${cur}"))
        return 0
    fi
    [[ ${cur} == -* ]] && return 0
    local word verb=""
    for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
        case "${word}" in
            run|build|interpret|check|explain|synth|completions|man|cache|lsp|view|help)
                verb="${word}"; break ;;
        esac
    done
    case "${verb}" in
        ""|run|build|interpret|check|explain|synth|view) ;;
        *) return 0 ;;
    esac
    local kept=() offered=0 item
    for item in "${COMPREPLY[@]}"; do
        if [[ ${item} == -* ]]; then offered=1; else kept+=("${item}"); fi
    done
    if [[ ${offered} -eq 1 || ${#COMPREPLY[@]} -eq 0 ]]; then
        local IFS=$'\n'
        kept+=($(compgen -f -- "${cur}"))
        compopt -o filenames 2>/dev/null
        COMPREPLY=("${kept[@]}")
    fi
}
complete -F _chess2rs_files -o bashdefault -o default chess2rs
"#;

/// Prints the completion script for `shell`.
pub(super) fn completions(shell: Shell) -> CliResult<u8> {
    // Generated in memory: clap_complete panics on a failed write.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "chess2rs", &mut script);
    if shell == Shell::Bash {
        let extensions: Vec<&str> = Language::ALL.iter().map(|l| l.extension()).collect();
        let wrapper = BASH_FILES.replace("LANGUAGES", &extensions.join(" "));
        script.extend_from_slice(wrapper.as_bytes());
    }
    to_stdout(|out| out.write_all(&script)).map(|()| 0)
}
