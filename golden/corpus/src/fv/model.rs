//! The Finvara planner's model of what it writes: piece types and their
//! notations, cells of the board, moves and what they do, routes.

use super::{finvara_leap, leap_symmetries};

/// The leap vectors of `(a,b|dirs)` in the owner's (forward, right)
/// coordinates, in the order the project documents, without duplicates or
/// `(0,0)`.
pub(super) fn fv_vectors(a: i64, b: i64, dirs: &str) -> Vec<(i64, i64)> {
    let mut vectors = Vec::new();
    for (forward, right) in leap_symmetries(a, b) {
        let keep = dirs.is_empty()
            || (dirs.contains('^') && forward > 0)
            || (dirs.contains('v') && forward < 0)
            || (dirs.contains('>') && right > 0)
            || (dirs.contains('<') && right < 0);
        if keep && (forward, right) != (0, 0) && !vectors.contains(&(forward, right)) {
            vectors.push((forward, right));
        }
    }
    vectors
}

/// A leap as the generator knows it: `(a,b|dirs)`.
#[derive(Clone, Copy, Debug)]
pub(super) struct FvLeap(pub(super) i64, pub(super) i64, pub(super) &'static str);

impl FvLeap {
    /// Its notation.
    pub(super) fn text(self) -> String {
        finvara_leap(self.0, self.1, self.2)
    }
}

/// One way a generated piece type moves (one alternative of its notation).
#[derive(Clone, Debug)]
pub(super) enum FvForm {
    /// `(a,b|d)`.
    Leap(FvLeap),
    /// `(a,b|d)*`: a rider.
    Ride(FvLeap),
    /// `[(a,b)(a,b)]*`: two leaps, repeated the same way.
    Double(i64, i64),
    /// ``(a,b)` ``: a crooked rider.
    Crooked(i64, i64),
    /// `L x M`: leap onto an enemy, take it, leap on.
    Through(FvLeap, FvLeap),
    /// `p`, `p->[…]` or the seed's `->[…]`: promote without moving (the
    /// targets by type index; none listed = any other).
    Promote(Vec<usize>, bool),
    /// `L p->[…]`: leap, then promote.
    LeapPromote(FvLeap, Vec<usize>),
    /// `c(A)`.
    Capture(Box<FvForm>),
    /// `m(A)`.
    Quiet(Box<FvForm>),
    /// `r(A,ranks)` or `r!(A,ranks)`: the ranks as written.
    Rank(Box<FvForm>, &'static str, bool),
    /// `"s"`: moves like type s.
    Like(usize),
}

impl FvForm {
    /// Its notation, naming types by `symbols`.
    pub(super) fn text(&self, symbols: &[String]) -> String {
        let targets = |targets: &[usize]| {
            let names: Vec<&str> = targets.iter().map(|&t| symbols[t].as_str()).collect();
            format!("->[{}]", names.join(","))
        };
        match self {
            FvForm::Leap(leap) => leap.text(),
            FvForm::Ride(leap) => format!("{}*", leap.text()),
            FvForm::Double(a, b) => format!("[({a},{b})({a},{b})]*"),
            FvForm::Crooked(a, b) => format!("({a},{b})`"),
            FvForm::Through(first, then) => format!("{}x{}", first.text(), then.text()),
            FvForm::Promote(list, _) if list.is_empty() => "p".to_string(),
            FvForm::Promote(list, with_p) => {
                format!("{}{}", if *with_p { "p" } else { "" }, targets(list))
            }
            FvForm::LeapPromote(leap, list) if list.is_empty() => format!("{}p", leap.text()),
            FvForm::LeapPromote(leap, list) => format!("{}p{}", leap.text(), targets(list)),
            FvForm::Capture(inner) => format!("c({})", inner.text(symbols)),
            FvForm::Quiet(inner) => format!("m({})", inner.text(symbols)),
            FvForm::Rank(inner, ranks, negated) => format!(
                "r{}({},{ranks})",
                if *negated { "!" } else { "" },
                inner.text(symbols)
            ),
            FvForm::Like(kind) => format!("\"{}\"", symbols[*kind]),
        }
    }

    /// Whether the form has a crooked rider (whose routes the model only
    /// follows a few squares, so it cannot prove a move impossible).
    pub(super) fn crooked(&self, types: &[FvType]) -> bool {
        match self {
            FvForm::Crooked(..) => true,
            FvForm::Capture(inner) | FvForm::Quiet(inner) | FvForm::Rank(inner, ..) => {
                inner.crooked(types)
            }
            FvForm::Like(kind) => types[*kind].forms.iter().any(|f| f.crooked(types)),
            _ => false,
        }
    }

    /// Whether the form can promote.
    pub(super) fn promotes(&self, types: &[FvType]) -> bool {
        match self {
            FvForm::Promote(..) | FvForm::LeapPromote(..) => true,
            FvForm::Capture(inner) | FvForm::Quiet(inner) | FvForm::Rank(inner, ..) => {
                inner.promotes(types)
            }
            FvForm::Like(kind) => types[*kind].forms.iter().any(|f| f.promotes(types)),
            _ => false,
        }
    }
}

/// A generated piece type.
#[derive(Clone, Debug)]
pub(super) struct FvType {
    pub(super) symbol: String,
    /// `None`: royal.
    pub(super) value: Option<String>,
    pub(super) forms: Vec<FvForm>,
}

impl FvType {
    /// Its definition line: `(SYMBOL VALUE): NOTATION`.
    pub(super) fn definition(&self, symbols: &[String]) -> String {
        let forms: Vec<String> = self.forms.iter().map(|f| f.text(symbols)).collect();
        let notation = match forms.len() {
            0 => String::new(),
            1 => forms[0].clone(),
            _ => format!("{{{}}}", forms.join(",")),
        };
        match &self.value {
            Some(value) => format!("({} {value}): {notation}", self.symbol),
            None => format!("({}): {notation}", self.symbol),
        }
    }
}

/// A cell of the generator's model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FvCell {
    Empty,
    Hole,
    Piece(usize, bool),
}

/// What a path allows promoting to.
#[derive(Clone, Copy, Debug)]
pub(super) enum FvPromo {
    No,
    Any,
    /// A bit per type index.
    Only(u64),
}

/// The conditions a path carries (from `c`, `m` and promotions).
#[derive(Clone, Copy, Debug)]
pub(super) struct FvFlags {
    pub(super) promo: FvPromo,
    pub(super) must_capture: bool,
    pub(super) no_capture: bool,
}

/// What receives the paths of a notation: the landing squares (and
/// whether the path takes with `x` there), and the path's conditions.
pub(super) type FvPathSink<'a> = dyn FnMut(&[(usize, bool)], FvFlags) + 'a;

/// What a valid move does, as the model sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct FvEffect {
    /// Every landing square of the path (holes included).
    pub(super) landings: Vec<usize>,
    /// The hole the piece falls into.
    pub(super) fell: Option<usize>,
    /// Squares whose pieces are taken (by `x` or at the end).
    pub(super) taken: Vec<usize>,
    /// Where the piece ends (when it does not fall).
    pub(super) end: usize,
    /// Its type afterwards.
    pub(super) kind: usize,
}

/// A planned move line.
#[derive(Clone, Debug)]
pub(super) struct FvMove {
    pub(super) kind: usize,
    pub(super) white: bool,
    pub(super) from: usize,
    pub(super) to: usize,
    pub(super) promote: Option<usize>,
    pub(super) effect: FvEffect,
}

impl FvMove {
    /// Whether the move ends on the board, on another square, and takes
    /// nothing.
    pub(super) fn quiet_step(&self) -> bool {
        self.effect.fell.is_none() && self.effect.taken.is_empty() && self.effect.end != self.from
    }
}

/// A piece making its way from its square to a hole.
#[derive(Clone, Debug)]
pub(super) struct FvEpisode {
    pub(super) white: bool,
    pub(super) moves: Vec<FvMove>,
    /// How many of `moves` were written.
    pub(super) done: usize,
    /// Squares kept free for it.
    pub(super) reserved: Vec<usize>,
    /// Stack elements its last move (a fall) pops.
    pub(super) need: i64,
}

/// A square that a `checks` line keeps filled: a piece that sets out from
/// it, or a piece that the other side takes there.
#[derive(Clone, Copy, Debug)]
pub(super) struct FvHome {
    pub(super) square: usize,
    pub(super) kind: usize,
    pub(super) white: bool,
    pub(super) target: bool,
}

/// What a fall does to its side's stack: (elements needed, change).
pub(super) fn fv_stack_action(action: i64) -> (i64, i64) {
    match action {
        0..=2 => (2, -1),
        3 => (0, 1),
        4 => (1, 0),
        _ => (1, -1),
    }
}

/// The index of `white`'s side in per-side arrays: White 0, Black 1.
pub(super) fn side(white: bool) -> usize {
    usize::from(!white)
}

/// The promotions a `->[…]` list allows (`p` alone: any other type).
pub(super) fn promo_of(list: &[usize]) -> FvPromo {
    if list.is_empty() {
        FvPromo::Any
    } else {
        FvPromo::Only(list.iter().fold(0, |mask, &t| mask | 1 << t))
    }
}

/// Applies a move's effect to a model board and the stack depths (`action`:
/// the stack action of its fall).
pub(super) fn apply_effect(
    cells: &mut [FvCell],
    m: &FvMove,
    depth: &mut [i64; 2],
    action: Option<i64>,
) {
    cells[m.from] = FvCell::Empty;
    for &square in &m.effect.taken {
        if let FvCell::Piece(_, white) = cells[square] {
            depth[side(white)] += 1;
        }
        cells[square] = FvCell::Empty;
    }
    match m.effect.fell {
        Some(_) => {
            if let Some(action) = action {
                depth[side(m.white)] += fv_stack_action(action).1;
            }
        }
        None => cells[m.effect.end] = FvCell::Piece(m.effect.kind, m.white),
    }
}
