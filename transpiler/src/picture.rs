//! One step of an interpreted program as it is shown: the text `--trace`
//! prints, and the picture `chess2rs view` draws — grids of labelled
//! cells (a board window, the 64 cells, a chess position, the tape around
//! the head) and named values beside them (stacks, variables, the
//! machine's state). Each language's interpreter describes its steps
//! through [`Step`], so the trace and the view show the same runs from
//! one semantics.

/// A step the interpreter just made.
pub trait Step {
    /// The source line it ran (1-based; 0 when no line runs, such as a
    /// machine's input and output states).
    fn line(&self) -> u32;
    /// The column (1-based, in characters) of the command on that line,
    /// for lines that hold many (a game's moves); 0 for the whole line.
    fn column(&self) -> u32 {
        0
    }
    /// Where it comes from, for showing it: its line and column, or for a
    /// step that runs no line, the place that explains it (a machine's
    /// input or output state: the move that wrote the tape symbol it
    /// reads); `(0, 0)` if nothing does.
    fn place(&self) -> (u32, u32) {
        (self.line(), self.column())
    }
    /// What `--trace` prints for it.
    fn text(&self) -> String;
    /// The state it left, as a picture.
    fn picture(&self) -> Picture;
}

/// A state as grids and named values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Picture {
    /// The grids, drawn in order.
    pub grids: Vec<Grid>,
    /// Named values beside them, in order.
    pub panels: Vec<(String, String)>,
}

/// A grid of labelled cells.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Grid {
    /// What it shows (`board`, `tape`).
    pub title: String,
    /// Column labels, left to right.
    pub columns: Vec<String>,
    /// Row labels, top to bottom.
    pub rows: Vec<String>,
    /// The cells, row by row from the top (`""` empty, `"##"` a hole).
    pub cells: Vec<String>,
    /// Cells to highlight (the tape's head).
    pub marked: Vec<usize>,
    /// Whether to colour the cells as a chessboard's squares.
    pub chequered: bool,
}

impl Grid {
    /// An 8×8 chessboard titled `title`: files `a`…`h` left to right,
    /// ranks 8…1 from the top; `cells` row by row from rank 8.
    pub fn chessboard(title: &str, cells: Vec<String>) -> Grid {
        Grid {
            title: title.to_string(),
            columns: "abcdefgh".chars().map(String::from).collect(),
            rows: (1..=8).rev().map(|rank: u8| rank.to_string()).collect(),
            cells,
            marked: Vec::new(),
            chequered: true,
        }
    }
}
