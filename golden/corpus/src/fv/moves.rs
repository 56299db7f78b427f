//! The planner's move generator: every path of a piece's notation from a
//! square, and which of them are legal moves on a model board (as the
//! spec resolves them), with what each does.

use super::finvara_square;
use super::model::{
    fv_vectors, promo_of, FvCell, FvEffect, FvFlags, FvForm, FvLeap, FvMove, FvPathSink, FvPromo,
};
use super::planner::FvPlanner;

/// What receives the paths of one form under fixed conditions: its
/// landing squares (and whether it takes with `x` there).
type LandingSink<'a> = dyn FnMut(&[(usize, bool)]) + 'a;

impl FvPlanner<'_> {
    /// The name of `square` (row-major index).
    pub(super) fn square(&self, square: usize) -> String {
        finvara_square(square / self.cols, square % self.cols)
    }

    /// The square `vector` (owner's forward, right) from `square`.
    pub(super) fn step(
        &self,
        square: usize,
        white: bool,
        (forward, right): (i64, i64),
    ) -> Option<usize> {
        let (dr, dc) = if white {
            (forward, right)
        } else {
            (-forward, -right)
        };
        let row = (square / self.cols) as i64 + dr;
        let col = (square % self.cols) as i64 + dc;
        (row >= 0 && col >= 0 && row < self.rows as i64 && col < self.cols as i64)
            .then(|| row as usize * self.cols + col as usize)
    }

    /// `square`'s rank for its owner (1 = the owner's first row).
    pub(super) fn rank(&self, square: usize, white: bool) -> i64 {
        let row = (square / self.cols) as i64;
        if white {
            row + 1
        } else {
            self.rows as i64 - row
        }
    }

    /// Whether rank `rank` is in the ranks written `text` (`2`, `-1`,
    /// `[1,3]`…), as the spec resolves them.
    pub(super) fn in_ranks(&self, text: &str, rank: i64) -> bool {
        let resolve = |n: i64| if n < 0 { self.rows as i64 + n + 1 } else { n };
        let numbers: Vec<i64> = text
            .trim_matches(|c| c == '[' || c == ']')
            .split(',')
            .map(|n| n.parse().expect("generated ranks are numbers"))
            .collect();
        let (a, b) = (resolve(numbers[0]), resolve(*numbers.last().unwrap()));
        if numbers.len() == 1 && a == 0 {
            return false;
        }
        a.min(b) <= rank && rank <= a.max(b)
    }

    /// Calls `out` with every path of `form` for a piece of `white` on
    /// `from`, in notation order, as landing squares (and whether the path
    /// takes with `x` there). Crooked riders go at most 8 squares away.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn paths(
        &self,
        form: &FvForm,
        cells: &[FvCell],
        white: bool,
        from: usize,
        flags: FvFlags,
        buffer: &mut Vec<(usize, bool)>,
        out: &mut FvPathSink,
    ) {
        match form {
            FvForm::Leap(FvLeap(a, b, dirs)) => {
                for v in fv_vectors(*a, *b, dirs) {
                    if let Some(to) = self.step(from, white, v) {
                        out(&[(to, false)], flags);
                    }
                }
            }
            FvForm::Ride(leap) => {
                let emit = &mut |path: &[(usize, bool)]| out(path, flags);
                self.ride_paths(*leap, cells, white, from, buffer, emit);
            }
            FvForm::Double(a, b) => {
                let emit = &mut |path: &[(usize, bool)]| out(path, flags);
                self.double_paths((*a, *b), cells, white, from, buffer, emit);
            }
            FvForm::Crooked(a, b) => {
                let emit = &mut |path: &[(usize, bool)]| out(path, flags);
                self.crooked_paths((*a, *b), cells, white, from, emit);
            }
            FvForm::Through(first, then) => {
                for v in fv_vectors(first.0, first.1, first.2) {
                    for w in fv_vectors(then.0, then.1, then.2) {
                        let Some(middle) = self.step(from, white, v) else {
                            continue;
                        };
                        if let Some(to) = self.step(middle, white, w) {
                            out(&[(middle, true), (to, false)], flags);
                        }
                    }
                }
            }
            FvForm::Promote(list, _) => {
                out(
                    &[],
                    FvFlags {
                        promo: promo_of(list),
                        ..flags
                    },
                );
            }
            FvForm::LeapPromote(FvLeap(a, b, dirs), list) => {
                for v in fv_vectors(*a, *b, dirs) {
                    if let Some(to) = self.step(from, white, v) {
                        out(
                            &[(to, false)],
                            FvFlags {
                                promo: promo_of(list),
                                ..flags
                            },
                        );
                    }
                }
            }
            FvForm::Capture(inner) => {
                let flags = FvFlags {
                    must_capture: true,
                    ..flags
                };
                self.paths(inner, cells, white, from, flags, buffer, out);
            }
            FvForm::Quiet(inner) => {
                let flags = FvFlags {
                    no_capture: true,
                    ..flags
                };
                self.paths(inner, cells, white, from, flags, buffer, out);
            }
            FvForm::Rank(inner, ranks, negated) => {
                if self.in_ranks(ranks, self.rank(from, white)) != *negated {
                    self.paths(inner, cells, white, from, flags, buffer, out);
                }
            }
            FvForm::Like(kind) => {
                for form in &self.types[*kind].forms {
                    self.paths(form, cells, white, from, flags, buffer, out);
                }
            }
        }
    }

    /// The paths of the rider `leap*` from `from`: each line square by
    /// square, up to the first piece.
    fn ride_paths(
        &self,
        FvLeap(a, b, dirs): FvLeap,
        cells: &[FvCell],
        white: bool,
        from: usize,
        buffer: &mut Vec<(usize, bool)>,
        emit: &mut LandingSink,
    ) {
        for v in fv_vectors(a, b, dirs) {
            buffer.clear();
            let mut at = from;
            while let Some(to) = self.step(at, white, v) {
                buffer.push((to, false));
                emit(buffer);
                if matches!(cells[to], FvCell::Piece(..)) {
                    break;
                }
                at = to;
            }
        }
    }

    /// The paths of `[(a,b)(a,b)]*` from `from`: pairs of leaps (any two
    /// that do not cancel out), repeated the same way up to the first piece.
    fn double_paths(
        &self,
        (a, b): (i64, i64),
        cells: &[FvCell],
        white: bool,
        from: usize,
        buffer: &mut Vec<(usize, bool)>,
        emit: &mut LandingSink,
    ) {
        let vectors = fv_vectors(a, b, "");
        for &v in &vectors {
            for &w in &vectors {
                if (v.0 + w.0, v.1 + w.1) == (0, 0) {
                    continue;
                }
                buffer.clear();
                let mut at = from;
                while let Some(middle) = self.step(at, white, v) {
                    let Some(to) = self.step(middle, white, w) else {
                        break;
                    };
                    buffer.push((middle, false));
                    buffer.push((to, false));
                    emit(buffer);
                    if matches!(cells[middle], FvCell::Piece(..))
                        || matches!(cells[to], FvCell::Piece(..))
                    {
                        break;
                    }
                    at = to;
                }
            }
        }
    }

    /// The ends of the crooked rider ``(a,b)` `` from `from`: every square
    /// its leaps reach through empty squares, at most 8 rows and columns away.
    fn crooked_paths(
        &self,
        (a, b): (i64, i64),
        cells: &[FvCell],
        white: bool,
        from: usize,
        emit: &mut LandingSink,
    ) {
        let vectors = fv_vectors(a, b, "");
        let near = |s: usize| {
            let (r, c) = (s / self.cols, s % self.cols);
            let (fr, fc) = (from / self.cols, from % self.cols);
            r.abs_diff(fr) <= 8 && c.abs_diff(fc) <= 8
        };
        let mut seen = vec![from];
        let mut ended = Vec::new();
        let mut next = 0;
        let mut queue = vec![from];
        while next < queue.len() {
            let at = queue[next];
            next += 1;
            for &v in &vectors {
                let Some(to) = self.step(at, white, v) else {
                    continue;
                };
                if to == from || !near(to) {
                    continue;
                }
                if !ended.contains(&to) {
                    ended.push(to);
                    emit(&[(to, false)]);
                }
                if cells[to] == FvCell::Empty && !seen.contains(&to) {
                    seen.push(to);
                    queue.push(to);
                }
            }
        }
    }

    /// The effect of `path` for a piece of `kind` and `white` on `from`
    /// promoting to `promote`, if the path is legal on `cells` (the check
    /// rule aside: kings are out of reach).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn legal(
        &self,
        cells: &[FvCell],
        kind: usize,
        white: bool,
        from: usize,
        path: &[(usize, bool)],
        flags: FvFlags,
        promote: Option<usize>,
    ) -> Option<FvEffect> {
        let new_kind = match (flags.promo, promote) {
            (FvPromo::No, None) => kind,
            (FvPromo::Any, Some(p)) if p != kind => p,
            (FvPromo::Only(mask), Some(p)) if mask & (1 << p) != 0 => p,
            _ => return None,
        };
        let mut taken = Vec::new();
        let mut fell = None;
        let last = path.len().checked_sub(1);
        let mut ends_taking = false;
        for (i, &(square, x)) in path.iter().enumerate() {
            let cell = if taken.contains(&square) {
                FvCell::Empty
            } else {
                cells[square]
            };
            let enemy = matches!(cell, FvCell::Piece(_, w) if w != white);
            if x {
                if !enemy {
                    return None;
                }
                if fell.is_none() {
                    taken.push(square);
                }
                continue;
            }
            if Some(i) == last {
                if matches!(cell, FvCell::Piece(_, w) if w == white) {
                    return None;
                }
                ends_taking = enemy;
            } else if matches!(cell, FvCell::Piece(..)) {
                return None;
            }
            if cell == FvCell::Hole && fell.is_none() {
                fell = Some(square);
            }
        }
        let took = path.iter().any(|&(_, x)| x) || ends_taking;
        if flags.must_capture && !ends_taking || flags.no_capture && took {
            return None;
        }
        let end = path.last().map_or(from, |&(s, _)| s);
        if fell.is_none() && ends_taking {
            taken.push(end);
        }
        Some(FvEffect {
            landings: path.iter().map(|&(s, _)| s).collect(),
            fell,
            taken,
            end,
            kind: new_kind,
        })
    }

    /// Every move a piece of `kind` and `white` on `from` can make on
    /// `cells`: (TO, promotion, effect) for the first legal path to each.
    pub(super) fn moves(
        &self,
        cells: &[FvCell],
        kind: usize,
        white: bool,
        from: usize,
    ) -> Vec<FvMove> {
        let mut found: Vec<FvMove> = Vec::new();
        let mut buffer = Vec::new();
        let flags = FvFlags {
            promo: FvPromo::No,
            must_capture: false,
            no_capture: false,
        };
        let others: Vec<usize> = (0..self.types.len())
            .filter(|&t| t != kind && self.types[t].value.is_some())
            .collect();
        for form in &self.types[kind].forms {
            self.paths(
                form,
                cells,
                white,
                from,
                flags,
                &mut buffer,
                &mut |path, flags| {
                    let to = path.last().map_or(from, |&(s, _)| s);
                    let promotions: Vec<Option<usize>> = match flags.promo {
                        FvPromo::No => vec![None],
                        FvPromo::Any => others.iter().map(|&t| Some(t)).collect(),
                        FvPromo::Only(mask) => {
                            (0..64).filter(|t| mask & (1 << t) != 0).map(Some).collect()
                        }
                    };
                    for promote in promotions {
                        if found.iter().any(|m| m.to == to && m.promote == promote) {
                            continue;
                        }
                        if let Some(effect) =
                            self.legal(cells, kind, white, from, path, flags, promote)
                        {
                            found.push(FvMove {
                                kind,
                                white,
                                from,
                                to,
                                promote,
                                effect,
                            });
                        }
                    }
                },
            );
        }
        found
    }

    /// The move `kind` of `white` from `from` to `to` makes on the current
    /// board, if it is valid there.
    pub(super) fn resolve(
        &self,
        kind: usize,
        white: bool,
        from: usize,
        to: usize,
        promote: Option<usize>,
    ) -> Option<FvEffect> {
        if self.cells[from] != FvCell::Piece(kind, white) {
            return None;
        }
        self.moves(&self.cells, kind, white, from)
            .into_iter()
            .find(|m| m.to == to && m.promote == promote)
            .map(|m| m.effect)
    }

    /// The stack action (0 to 5) of `kind` falling into `hole`; `None`
    /// for a royal piece.
    pub(super) fn action(&self, kind: usize, hole: usize) -> Option<i64> {
        let value = match self.types[kind].value.as_deref()? {
            "x" => (hole % self.cols + 1) as i64,
            "y" => (hole / self.cols + 1) as i64,
            n => n.parse().expect("generated values are numbers"),
        };
        Some(value.rem_euclid(6))
    }
}
