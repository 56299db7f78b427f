//! The languages chess2rs compiles, and how a file's language is found.

use std::fmt;
use std::path::Path;

/// A source language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    /// InfChessPro (`.icp`): an infinite board with goto lines.
    InfChessPro,
    /// Chess Code (`.chc`): Brainfuck-like cells in move notation.
    ChessCode,
    /// Chessoteric (`.pgn`): a chess game whose annotated boards build a
    /// Turing machine.
    Chessoteric,
    /// BTM (`.btm`): Chessoteric's Turing-machine listing.
    Btm,
    /// Finvara (`.fv`): fairy chess driving two stacks.
    Finvara,
}

impl Language {
    /// Every language, in the order of the documentation.
    pub const ALL: [Language; 5] = [
        Language::InfChessPro,
        Language::ChessCode,
        Language::Chessoteric,
        Language::Btm,
        Language::Finvara,
    ];

    /// The language's display name.
    pub fn name(self) -> &'static str {
        match self {
            Language::InfChessPro => "InfChessPro",
            Language::ChessCode => "Chess Code",
            Language::Chessoteric => "Chessoteric",
            Language::Btm => "BTM",
            Language::Finvara => "Finvara",
        }
    }

    /// The file extension, without the dot; also the `--lang` value.
    pub fn extension(self) -> &'static str {
        match self {
            Language::InfChessPro => "icp",
            Language::ChessCode => "chc",
            Language::Chessoteric => "pgn",
            Language::Btm => "btm",
            Language::Finvara => "fv",
        }
    }

    /// The language whose extension is `ext`.
    pub fn from_extension(ext: &str) -> Option<Language> {
        Language::ALL
            .into_iter()
            .find(|lang| lang.extension().eq_ignore_ascii_case(ext))
    }

    /// The language of a file, from its extension.
    pub fn from_path(path: &Path) -> Option<Language> {
        path.extension()
            .and_then(|ext| ext.to_str())
            .and_then(Language::from_extension)
    }

    /// The language called `name` on the command line or in the macro:
    /// its extension or its name (any case, spaces and dashes ignored).
    pub fn from_name(name: &str) -> Option<Language> {
        let squash = |s: &str| {
            s.chars()
                .filter(|c| !matches!(c, ' ' | '-' | '_'))
                .collect::<String>()
                .to_ascii_lowercase()
        };
        let wanted = squash(name);
        Language::from_extension(&wanted).or_else(|| {
            Language::ALL
                .into_iter()
                .find(|lang| squash(lang.name()) == wanted)
        })
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_extensions() {
        assert_eq!(
            Language::from_path(Path::new("a/beer.icp")),
            Some(Language::InfChessPro)
        );
        assert_eq!(
            Language::from_path(Path::new("x.PGN")),
            Some(Language::Chessoteric)
        );
        assert_eq!(Language::from_path(Path::new("x.txt")), None);
        assert_eq!(Language::from_name("chess-code"), Some(Language::ChessCode));
        assert_eq!(
            Language::from_name("InfChessPro"),
            Some(Language::InfChessPro)
        );
        assert_eq!(Language::from_name("fv"), Some(Language::Finvara));
        assert_eq!(Language::from_name("cobol"), None);
    }
}
