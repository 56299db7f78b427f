//! The model's board: cells, values, stacks, and reading a program's tree.

use super::*;

pub(super) fn addr<T: ?Sized>(r: &T) -> usize {
    r as *const T as *const u8 as usize
}

impl<'a> Model<'a> {
    pub(super) fn new(tree: &'a syntax::Program) -> Self {
        let rows = tree.rows.len() as i32;
        let cols = tree.rows.first().map_or(0, Vec::len) as i32;
        Model {
            notations: tree.pieces.iter().map(|p| &p.notation.value).collect(),
            kinds: tree
                .pieces
                .iter()
                .enumerate()
                .map(|(i, p)| (p.symbol.value.clone(), i))
                .collect(),
            values: tree
                .pieces
                .iter()
                .map(|p| match p.value {
                    None => MValue::Royal,
                    Some(syntax::Value::Number(n)) => MValue::Number(n),
                    Some(syntax::Value::X) => MValue::X,
                    Some(syntax::Value::Y) => MValue::Y,
                })
                .collect(),
            rows,
            cols,
        }
    }

    /// The model's initial board from the drawing (top row drawn first;
    /// square = row * cols + column, row 0 at the bottom).
    pub(super) fn board(&self, tree: &syntax::Program) -> Vec<MCell> {
        let mut cells = Vec::new();
        for row in tree.rows.iter().rev() {
            for cell in row {
                cells.push(match &cell.value {
                    syntax::Cell::Empty => MCell::Empty,
                    syntax::Cell::Hole => MCell::Hole,
                    syntax::Cell::Piece(s, w) => MCell::Piece {
                        kind: self.kinds[s],
                        white: *w,
                    },
                });
            }
        }
        cells
    }

    pub(super) fn royal(&self, kind: usize) -> bool {
        self.values[kind] == MValue::Royal
    }

    /// Spec "A valid move": x = column number, y = row number (1-based).
    pub(super) fn value_at(&self, kind: usize, square: usize) -> Option<i64> {
        let cols = self.cols as usize;
        match self.values[kind] {
            MValue::Royal => None,
            MValue::Number(n) => Some(n),
            MValue::X => Some((square % cols) as i64 + 1),
            MValue::Y => Some((square / cols) as i64 + 1),
        }
    }

    /// Spec "Geometry": white looks up the board; Black's view is rotated
    /// 180° (forward toward row a, right toward column 1).
    pub(super) fn leap(
        &self,
        square: usize,
        white: bool,
        forward: i64,
        right: i64,
    ) -> Option<usize> {
        let (dr, dc) = if white {
            (forward, right)
        } else {
            (-forward, -right)
        };
        let row = (square as i64) / i64::from(self.cols) + dr;
        let col = (square as i64) % i64::from(self.cols) + dc;
        if row < 0 || col < 0 || row >= i64::from(self.rows) || col >= i64::from(self.cols) {
            return None;
        }
        Some((row * i64::from(self.cols) + col) as usize)
    }

    /// The ways of `atom` repeated by a `*` that the project compiles as
    /// one loop per way (docs/architecture.md: a notation of at most
    /// [`EXPANDED_WAYS`] ways with no repetition nested in it, and at most
    /// [`EXPANDED_PARTS`] leaps and conditions in all), each way the
    /// choices one round makes (leap vector and alternative indices), in
    /// notation order; `None` for any other `*`, whose round 1 the search
    /// records.
    pub(super) fn expanded_ways(&self, atom: &Atom) -> Option<Vec<Way>> {
        if self.count_ways(atom) > EXPANDED_WAYS {
            return None;
        }
        let ways = self.atom_ways(atom)?;
        Some(ways.into_iter().map(|(way, _)| way.into()).collect())
    }

    /// How many ways `atom` has for `*`, counting a nested repetition as
    /// one and stopping just past [`EXPANDED_WAYS`].
    pub(super) fn count_ways(&self, atom: &Atom) -> u64 {
        let cap = EXPANDED_WAYS + 1;
        let in_seq = |seq: &[Item]| {
            seq.iter().fold(1u64, |n, item| {
                if item.repeats.is_empty() {
                    n.saturating_mul(self.count_ways(&item.atom)).min(cap)
                } else {
                    n
                }
            })
        };
        match atom {
            Atom::Leap { a, b, dirs } => self.fitting_vectors(*a, *b, *dirs).count() as u64,
            Atom::Any(alts) => alts
                .iter()
                .fold(0u64, |n, alt| n.saturating_add(in_seq(alt)).min(cap)),
            Atom::Group(seq)
            | Atom::Capture(seq)
            | Atom::NoCapture(seq)
            | Atom::Rank { seq, .. } => in_seq(seq),
            Atom::Like(symbol) => {
                let notation = self.notations[self.kinds[&symbol.value]];
                // An empty notation has no way at all.
                if notation.is_empty() {
                    0
                } else {
                    in_seq(notation)
                }
            }
            Atom::CaptureHere | Atom::Promote(_) => 1,
        }
    }

    /// The indices in [`vectors`] of the leap vectors of `(a,b|dirs)` that
    /// fit on the board (the others never land, and the project leaves them
    /// out of a `*`'s ways).
    pub(super) fn fitting_vectors(
        &self,
        a: i64,
        b: i64,
        dirs: Option<[bool; 4]>,
    ) -> impl Iterator<Item = u32> + '_ {
        vectors(a, b, dirs)
            .into_iter()
            .enumerate()
            .filter(|&(_, (f, r))| f.abs() < i64::from(self.rows) && r.abs() < i64::from(self.cols))
            .map(|(index, _)| index as u32)
    }

    /// The ways of `atom` (choices, and how many leaps and conditions),
    /// or `None` if a repetition is nested in it.
    pub(super) fn atom_ways(&self, atom: &Atom) -> Option<Vec<(Vec<u32>, usize)>> {
        Some(match atom {
            Atom::Leap { a, b, dirs } => self
                .fitting_vectors(*a, *b, *dirs)
                .map(|vector| (vec![vector], 1))
                .collect(),
            Atom::Any(alts) => {
                let mut ways = Vec::new();
                for (index, alt) in alts.iter().enumerate() {
                    for (choices, parts) in self.seq_ways(alt)? {
                        ways.push(([index as u32].into_iter().chain(choices).collect(), parts));
                    }
                }
                ways
            }
            Atom::Group(seq) => self.seq_ways(seq)?,
            Atom::Capture(seq) | Atom::NoCapture(seq) | Atom::Rank { seq, .. } => self
                .seq_ways(seq)?
                .into_iter()
                .map(|(choices, parts)| (choices, parts + 1))
                .collect(),
            Atom::Like(symbol) => {
                let notation = self.notations[self.kinds[&symbol.value]];
                // An empty notation has no way at all.
                if notation.is_empty() {
                    Vec::new()
                } else {
                    self.seq_ways(notation)?
                }
            }
            Atom::CaptureHere | Atom::Promote(_) => vec![(Vec::new(), 1)],
        })
    }

    /// [`Model::atom_ways`] for a sequence: each way of the items before
    /// followed by each way of the next, until too many parts.
    pub(super) fn seq_ways(&self, seq: &[Item]) -> Option<Vec<(Vec<u32>, usize)>> {
        let mut ways = vec![(Vec::new(), 0)];
        for item in seq {
            let parts: usize = ways.iter().map(|(_, parts)| parts).sum();
            if !item.repeats.is_empty() || parts > EXPANDED_PARTS {
                return None;
            }
            let tails = self.atom_ways(&item.atom)?;
            ways = ways
                .iter()
                .flat_map(|(choices, parts)| {
                    tails.iter().map(move |(tail, tail_parts)| {
                        let mut way = choices.clone();
                        way.extend(tail);
                        (way, parts + tail_parts)
                    })
                })
                .collect();
        }
        Some(ways)
    }

    /// The owner's rank: 1 = the owner's nearest row.
    pub(super) fn rank(&self, square: usize, white: bool) -> i64 {
        let row = (square as i64) / i64::from(self.cols);
        if white {
            row + 1
        } else {
            i64::from(self.rows) - row
        }
    }

    /// Spec: `r(A,b)`: the piece stands on rank b (or in range b); negative
    /// ranks count from the far side (−1 = the owner's last row); `[x,y]`
    /// either way round is every rank from x to y; rank 0 matches no row.
    /// Read literally: the ranks from min to max, each mapped to its row.
    pub(super) fn rank_matches(&self, rank: i64, (a, b): (i64, i64)) -> bool {
        let rows = i64::from(self.rows);
        (a.min(b)..=a.max(b)).any(|r| {
            let row = if r > 0 {
                r
            } else if r < 0 {
                rows + 1 + r
            } else {
                return false;
            };
            row >= 1 && row == rank
        })
    }
}

/// The leap vectors of `(a,b|dirs)` in the owner's (forward, right)
/// coordinates, in the order the project documents, duplicates and (0,0)
/// removed, then the direction filter (union of ^ v > <).
pub(super) fn vectors(a: i64, b: i64, dirs: Option<[bool; 4]>) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    for v in leap_symmetries(a, b) {
        if v == (0, 0) || out.contains(&v) {
            continue;
        }
        if let Some([up, down, right, left]) = dirs {
            if !((up && v.0 > 0) || (down && v.0 < 0) || (right && v.1 > 0) || (left && v.1 < 0)) {
                continue;
            }
        }
        out.push(v);
    }
    out
}

/// The frames plus where they point to (the frames hold addresses; these
/// hold the references).
#[derive(Clone)]
pub(super) struct Stack<'a> {
    pub(super) frames: Vec<Frame>,
    pub(super) seqs: Vec<&'a [Item]>,
    pub(super) items: Vec<Option<&'a Item>>,
}

impl<'a> Stack<'a> {
    pub(super) fn push_items(&mut self, seq: &'a [Item], next: usize) {
        self.frames.push(Frame::Items {
            seq: addr(seq),
            len: seq.len(),
            next,
        });
        self.seqs.push(seq);
        self.items.push(None);
    }
    pub(super) fn push_other(&mut self, frame: Frame, item: Option<&'a Item>) {
        self.frames.push(frame);
        self.seqs.push(&[]);
        self.items.push(item);
    }
    pub(super) fn pop(&mut self) -> Option<(Frame, &'a [Item], Option<&'a Item>)> {
        let f = self.frames.pop()?;
        Some((f, self.seqs.pop().unwrap(), self.items.pop().unwrap()))
    }
    pub(super) fn crooked_depth(&self) -> usize {
        self.frames
            .iter()
            .filter(|f| matches!(f, Frame::AnyLoop { .. }))
            .count()
    }
}
