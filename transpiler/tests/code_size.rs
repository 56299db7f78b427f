//! The size rules of `docs/architecture.md` ("Code size"): no source file
//! outside `tests/` over 900 lines, and no function in `transpiler/src`
//! or `runtime/src` over 120 lines. A file or function that grows past
//! them is split by concern, not given an exception here.

use std::path::{Path, PathBuf};

/// Most lines a source file outside `tests/` may have.
const MAX_FILE_LINES: usize = 900;

/// Most lines a function may have, from its `fn` line to its closing brace.
const MAX_FUNCTION_LINES: usize = 120;

/// The `.rs` files below `dir`, except those in directories named `tests`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().is_some_and(|name| name != "tests") {
                    dirs.push(path);
                }
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// `line` without its comment, string literals and character literals,
/// so that the braces left are the code's.
fn code_of(line: &str) -> String {
    let mut code = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => break,
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            // A character literal (`'{'`, `'\''`), not a lifetime (`'a`).
            '\'' => {
                let ahead: Vec<char> = chars.clone().take(10).collect();
                let len = match ahead.as_slice() {
                    ['\\', _, rest @ ..] => rest.iter().position(|&c| c == '\'').map(|end| end + 3),
                    [_, '\'', ..] => Some(2),
                    _ => None,
                };
                for _ in 0..len.unwrap_or(0) {
                    chars.next();
                }
            }
            _ => code.push(c),
        }
    }
    code
}

/// The functions of `text` longer than [`MAX_FUNCTION_LINES`], as
/// `(name, first line, lines)`.
fn long_functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut long = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(at) = words.iter().position(|word| *word == "fn") else {
            continue;
        };
        let before_ok = words[..at].iter().all(|word| {
            word.starts_with("pub") || ["const", "async", "unsafe", "extern"].contains(word)
        });
        if !before_ok || words.len() <= at + 1 {
            continue;
        }
        let name: String = (words[at + 1].chars())
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let mut depth = 0i64;
        let mut opened = false;
        for (offset, line) in lines[start..].iter().enumerate() {
            let code = code_of(line);
            for c in code.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            // A declaration without a body (`fn f();` in a trait).
            if !opened && code.contains(';') {
                break;
            }
            if opened && depth <= 0 {
                if offset + 1 > MAX_FUNCTION_LINES {
                    long.push((name.clone(), start + 1, offset + 1));
                }
                break;
            }
        }
    }
    long
}

#[test]
fn no_source_file_or_function_is_over_the_size_rules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut over = Vec::new();
    for crate_dir in ["transpiler", "runtime", "macros", "golden"] {
        for file in sources(&root.join(crate_dir)) {
            let text = std::fs::read_to_string(&file).unwrap();
            let shown = file.strip_prefix(&root).unwrap_or(&file).display();
            let count = text.lines().count();
            if count > MAX_FILE_LINES {
                over.push(format!("{shown}: {count} lines"));
            }
            let in_src = ["transpiler/src", "runtime/src"]
                .iter()
                .any(|dir| file.starts_with(root.join(dir)));
            if in_src {
                for (name, line, lines) in long_functions(&text) {
                    over.push(format!("{shown}:{line}: fn {name} is {lines} lines"));
                }
            }
        }
    }
    assert!(over.is_empty(), "over the size rules:\n{}", over.join("\n"));
}

/// The rule finds a long function, and not one whose braces are in
/// strings, comments or character literals.
#[test]
fn a_long_function_is_found() {
    let body = "    let x = 1;\n".repeat(MAX_FUNCTION_LINES);
    let text = format!("pub fn long() {{\n{body}}}\n\nfn short() {{\n    let _ = \"}}\";\n}}\n");
    assert_eq!(
        long_functions(&text),
        [("long".to_string(), 1, MAX_FUNCTION_LINES + 2)]
    );
    let tricky = format!(
        "fn tricky<'a>(s: &'a str) {{\n    let _ = ('{{', '\\'', \"{{\"); // {{\n{body}}}\nfn next() {{}}\n"
    );
    assert_eq!(
        long_functions(&tricky),
        [("tricky".to_string(), 1, MAX_FUNCTION_LINES + 3)]
    );
    let fits = format!(
        "fn fits() {{\n{}}}\n",
        "    let x = 1;\n".repeat(MAX_FUNCTION_LINES - 2)
    );
    assert!(long_functions(&fits).is_empty());
}
