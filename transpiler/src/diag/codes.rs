//! The stable code of every kind of diagnostic (`E0101`, `W0150`) and its
//! longer explanation (`chess2rs --explain E0101`, `docs/diagnostics.md`).
//!
//! Every diagnostic is built with its code ([`Diagnostic::error`]), so no
//! site can forget one. Codes are never renumbered or reused: a code that
//! is no longer produced stays retired. `E` codes are errors, `W` codes
//! warnings; the number says whose they are:
//!
//! | Range | What |
//! |---|---|
//! | `0001`–`0099` | every language: formatting options, limits of the compiler |
//! | `0101`–`0199` | InfChessPro (`.icp`) |
//! | `0201`–`0299` | Chess Code (`.chc`) |
//! | `0301`–`0399` | Chessoteric games (`.pgn`), and the machine both Chessoteric formats build |
//! | `0401`–`0499` | BTM listings (`.btm`) |
//! | `0501`–`0599` | Finvara (`.fv`) |
//! | `0601`–`0699` | runtime errors (the runtime crate gives them: `interpret`, `run` and built executables print the same) |
//!
//! Within a language's range errors come first (`x01`…) and warnings from
//! `x50` on, so that no number is both an `E` and a `W` code.
//!
//! Each explanation is one Markdown file, `codes/CODE.md`: what the
//! diagnostic means, then a program that produces it (a fenced block whose
//! info string is the file extension and the code, e.g. `icp,E0105`) and
//! the corrected program (the extension alone), which checks clean. A
//! block may add `fmt` (the example is formatted, as `chess2rs fmt`, not
//! checked), `renumber` (formatted with `--renumber`) or `run` (checked,
//! then run in the interpreter with at most 10,000 steps; `input=TEXT`
//! gives its input, `_` for a blank, and `max-memory=SIZE` its memory
//! limit). Warnings count: a corrected program has none. The unit tests
//! run every example.
//!
//! [`Diagnostic::error`]: super::Diagnostic::error

use super::Severity;

/// Declares [`Code`]: each variant's doc comment, name and code, whose
/// explanation is `codes/CODE.md`.
macro_rules! codes {
    ($( $(#[doc = $doc:literal])+ $name:ident = $code:literal, )+) => {
        /// The stable code of a kind of diagnostic (see the module's
        /// documentation for the ranges).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $( $(#[doc = $doc])+ $name, )+
        }

        impl Code {
            /// Every code, in the order of their numbers.
            pub const ALL: &'static [Code] = &[$(Code::$name),+];

            /// The code as it is shown: `E0101`, `W0150`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$name => $code,)+
                }
            }

            /// The longer explanation, in Markdown: what the diagnostic
            /// means, a program that produces it and the program
            /// corrected.
            pub fn explanation(self) -> &'static str {
                match self {
                    $(Code::$name => include_str!(concat!("codes/", $code, ".md")),)+
                }
            }
        }
    };
}

codes! {
    /// `--renumber` asked of a language without line numbers.
    RenumberRefused = "E0001",
    /// A program passes a limit of the compiler (nesting, size).
    Limit = "E0002",

    /// An InfChessPro line does not parse.
    IcpSyntax = "E0101",
    /// A label, jump target or number does not fit in an i64.
    IcpNumberTooLarge = "E0102",
    /// A second `?` or `!` jump on one line.
    IcpSecondJump = "E0103",
    /// Two lines have the same label.
    IcpLabelTwice = "E0104",
    /// A jump to a label no line has.
    IcpNoSuchLabel = "E0105",
    /// `--renumber` on a program that jumps to a label read from input.
    IcpRenumberInputJump = "E0106",
    /// A text line ends in what looks like a jump.
    IcpTextLikeJump = "W0150",
    /// A piece is moved or counted but never placed.
    IcpNeverPlaced = "W0151",
    /// A line no path from the first line reaches.
    IcpUnreachable = "W0152",

    /// A Chess Code line is not a command.
    ChcNotACommand = "E0201",
    /// Another language's comment marker.
    ChcOtherComment = "E0202",
    /// A cell outside a1…h8.
    ChcNoSuchCell = "E0203",
    /// A loop condition without a label before it.
    ChcConditionWithoutLabel = "E0204",
    /// A label no loop condition loops back to.
    ChcLabelWithoutCondition = "W0250",
    /// A cell or variable is read but never written.
    ChcNeverWritten = "W0251",
    /// A loop condition nothing in the loop can change.
    ChcUnchangingLoop = "W0252",

    /// A comment, variation or tag pair is never closed.
    PgnNeverClosed = "E0301",
    /// A `)`, `}` or `]` that closes nothing.
    PgnUnmatchedClose = "E0302",
    /// Moves after the game's result.
    PgnMovesAfterResult = "E0303",
    /// A `FEN` tag without a legal position.
    PgnBadFen = "E0304",
    /// An annotation or suffix that is not one of `!` `?` `!!` `??`.
    NotAnInstruction = "E0305",
    /// A move with two annotations.
    PgnTwoAnnotations = "E0306",
    /// An annotation before any move.
    PgnAnnotationBeforeMove = "E0307",
    /// A word of the movetext that is not a move.
    PgnNotAMove = "E0308",
    /// An illegal move.
    PgnIllegalMove = "E0309",
    /// A move more than one piece can make.
    PgnAmbiguousMove = "E0310",
    /// A move written for the side that is not to move.
    PgnOutOfTurn = "E0311",
    /// An annotated move whose board holds no instruction.
    PgnNoInstruction = "E0312",
    /// `!!` or `??` before any `!` or `?`.
    ContinuationWithoutStart = "E0313",
    /// A rule part or tape symbol that does not fit in an i64.
    ValueTooLarge = "E0314",
    /// A game or listing without instructions: the program is empty.
    EmptyProgram = "W0350",
    /// A second rule for the same state and symbol.
    SecondRule = "W0351",
    /// Rule parts after the last complete rule.
    LeftoverParts = "W0352",

    /// A BTM line is not an instruction.
    BtmNotALine = "E0401",

    /// A Finvara line is not a piece, a board row or a move.
    FvLineNotUnderstood = "E0501",
    /// A piece definition or move line does not parse.
    FvSyntax = "E0502",
    /// A number does not fit in an i64.
    FvNumberTooLarge = "E0503",
    /// A turn number below 1.
    FvTurnZero = "E0504",
    /// Board rows of different widths.
    FvRaggedBoard = "E0505",
    /// Text after a board row's last `|`.
    FvAfterRow = "E0506",
    /// A board cell that is not a piece, a hole or empty.
    FvNotACell = "E0507",
    /// A piece symbol defined twice.
    FvDefinedTwice = "E0508",
    /// A piece that moves like itself through `"s"` references.
    FvMovesLikeItself = "E0509",
    /// A program without a board.
    FvNoBoard = "E0510",
    /// A piece symbol that is not defined.
    FvUndefinedPiece = "E0511",
    /// A square off the board.
    FvOffTheBoard = "E0512",
    /// Move lines out of turn order.
    FvTurnOutOfOrder = "E0513",
    /// `checks turn N` for a turn that does not exist.
    FvNoSuchTurn = "E0514",
    /// A side without a royal piece on the board.
    FvNoRoyal = "W0550",
    /// `fmt` completed a short board row with empty cells.
    FvRowCompleted = "W0551",
    /// `fmt` redrew a `+--+` line for the board's width.
    FvBorderRedrawn = "W0552",

    /// A run reached its step limit.
    RunStepLimit = "E0601",
    /// A run wanted input after the input ended.
    RunInputEnded = "E0602",
    /// A run read input that is not a number it can hold.
    RunInputNotANumber = "E0603",
    /// A run computed a value outside the i64 range.
    RunOverflow = "E0604",
    /// A run grew past its memory limit.
    RunMemoryLimit = "E0605",
    /// A run jumped to a label read from input that no line has.
    RunNoSuchLabel = "E0606",
    /// A Chess Code run printed a number that is no character in ASCII mode.
    RunNotACodePoint = "E0607",
    /// A Finvara stack action needed more values than the stack had.
    RunStackUnderflow = "E0608",
}

/// Where the explanations are published: `docs/diagnostics.md` in the
/// repository, one section per code.
const DOCS: &str = "https://github.com/chess2rs/chess2rs/blob/main/docs/diagnostics.md";

impl Code {
    /// The severity of the diagnostics of this code: `E` errors, `W`
    /// warnings (`-D warnings` shows a warning as an error, still with
    /// its `W` code).
    pub fn severity(self) -> Severity {
        if self.as_str().starts_with('W') {
            Severity::Warning
        } else {
            Severity::Error
        }
    }

    /// The code written `text`: `E0101`, `e0101` or `0101` (as `rustc
    /// --explain` takes them).
    pub fn parse(text: &str) -> Option<Code> {
        let text = text.trim();
        Code::ALL.iter().copied().find(|code| {
            let written = code.as_str();
            written.eq_ignore_ascii_case(text) || written[1..] == *text
        })
    }

    /// The address of its section of `docs/diagnostics.md` (for the
    /// language server's `codeDescription`).
    pub fn docs_url(self) -> String {
        format!("{DOCS}#{}", self.as_str().to_ascii_lowercase())
    }

    /// The first line of its explanation: what the diagnostic says, in
    /// one sentence.
    pub fn summary(self) -> &'static str {
        self.explanation().lines().next().unwrap_or_default()
    }
}

/// `docs/diagnostics.md`: every code with its explanation, made from the
/// explanations (a test keeps the file in step).
pub fn reference() -> String {
    let mut page = String::from(
        "# Diagnostic codes\n\n\
         <!-- Generated from transpiler/src/diag/codes/*.md; regenerate with\n     \
         CHESS2RS_WRITE_DIAGNOSTICS_DOCS=1 cargo test -p chess2rs --lib diagnostics_reference -->\n\n\
         Every error and warning chess2rs reports has a code: `error[E0105]: no line is\n\
         labelled 5`. `chess2rs --explain E0105` prints the code's explanation, which is\n\
         also below. `E` codes are errors and `W` codes warnings (`-D warnings` makes\n\
         them errors, with the same code). The number says whose they are: `00xx` every\n\
         language, `01xx` InfChessPro, `02xx` Chess Code, `03xx` Chessoteric games and\n\
         the machine both Chessoteric formats build, `04xx` BTM listings, `05xx`\n\
         Finvara, `06xx` runtime errors. Codes are never renumbered.\n\n\
         In each explanation the program under \"For example\" produces the code and\n\
         the one under \"Corrected\" has no error or warning (the tests run both).\n\n",
    );
    for code in Code::ALL {
        page.push_str(&format!(
            "- [{}](#{}): {}\n",
            code.as_str(),
            code.as_str().to_ascii_lowercase(),
            code.summary()
        ));
    }
    for code in Code::ALL {
        page.push_str(&format!("\n## {}\n\n{}", code.as_str(), code.explanation()));
    }
    page
}

#[cfg(test)]
mod tests;
