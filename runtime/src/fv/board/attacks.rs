//! Attacks: whether an enemy piece attacks a royal piece (looked back
//! along the mapped leaps, walked along lines, flood-filled for crooked
//! riders, or searched), and the kept count of each colour's attacked royal
//! pieces with the squares whose change may change it.

use super::super::super::memory::{self, Refused};
use super::super::rules::{Cell, Point, Rules, Square};
use super::super::search::{Goal, Search};
use super::flood::Flood;
use super::kinds::{offset_point, Attacker, BoardBend, BoardRay};
use super::pieces::Placed;
use super::{side, Board};

/// How many of a colour's royal pieces are attacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct AttackCount {
    /// A change since the count may have changed it.
    pub(super) stale: bool,
    /// The count.
    pub(super) attacked: usize,
}

impl Board {
    /// How many royal pieces of `white` are attacked: counted again only
    /// when a change since the last count may have changed it. (A search
    /// that outgrows the memory budget ends the count with its error.)
    #[inline]
    pub(in super::super) fn attacked_royals(
        &mut self,
        rules: &Rules,
        white: bool,
        search: &mut Search,
    ) -> Result<usize, Refused> {
        let count = self.attacked[side(white)];
        if !count.stale {
            return Ok(count.attacked);
        }
        self.count_attacked_royals(rules, white, search)
    }

    /// Counts the attacked royal pieces of `white` from scratch, watching
    /// the squares whose change may change the count.
    #[inline(never)]
    pub(in super::super) fn count_attacked_royals(
        &mut self,
        rules: &Rules,
        white: bool,
        search: &mut Search,
    ) -> Result<usize, Refused> {
        let colour = side(white);
        let bit = 1u8 << colour;
        let mut watched = std::mem::take(&mut self.watched[colour]);
        for &square in &watched {
            self.watch[square as usize] &= !bit;
        }
        watched.clear();
        let mut attacked = 0;
        let mut refused = None;
        for index in 0..self.royals[colour].len() {
            let royal = self.royals[colour][index].at;
            match self.royal_attacked(rules, royal, !white, search, &mut watched) {
                Ok(true) => attacked += 1,
                Ok(false) => {}
                Err(kind) => {
                    refused = Some(kind);
                    break;
                }
            }
        }
        for &square in &watched {
            self.watch[square as usize] |= bit;
        }
        self.watched[colour] = watched;
        if let Some(kind) = refused {
            // The count is unknown: it stays stale.
            return Err(kind);
        }
        self.attacked[colour] = AttackCount {
            stale: false,
            attacked,
        };
        Ok(attacked)
    }

    /// Whether a piece of colour `by_white` attacks `target`; the squares
    /// whose change may change that are added to `watched`.
    fn royal_attacked(
        &self,
        rules: &Rules,
        target: Point,
        by_white: bool,
        search: &mut Search,
        watched: &mut Vec<Square>,
    ) -> Result<bool, Refused> {
        if let Some(from) = self.mapped_attacker(target, by_white) {
            watched.push(from);
            return Ok(true);
        }
        let goal = Goal {
            to: target,
            promote: None,
            attack: true,
        };
        let listed = &self.listed[side(by_white)];
        // Lines first: they cost a comparison or a short walk, while flood
        // fills and searches explore the board.
        let on_a_line = listed.iter().any(|placed| {
            self.kinds[usize::from(placed.kind)].attacker == Attacker::Rays
                && self.rays_attack(placed, by_white, target, watched)
        });
        if on_a_line || self.explorers[side(by_white)] == 0 {
            return Ok(on_a_line);
        }
        for placed in listed {
            let kind = usize::from(placed.kind);
            let attacks = match self.kinds[kind].attacker {
                Attacker::Rays => {
                    self.crooked_attack(placed, by_white, target, &mut search.flood, watched)?
                }
                Attacker::Searched => {
                    let automaton = &rules.automata[kind];
                    automaton.reach() >= placed.at.distance(target) && {
                        // The search's answer depends on the board only
                        // through the cells it looks at (and where the
                        // piece and the target stand): watch them.
                        watched.push(placed.square);
                        search.start(
                            rules,
                            automaton,
                            placed.kind,
                            by_white,
                            placed.at,
                            rules.cols,
                        )?;
                        search.record_reads_from_now();
                        let found = search.next(rules, self, goal).map(|path| path.is_some());
                        let taken = search.take_reads(watched);
                        taken?;
                        found?
                    }
                }
                Attacker::Never | Attacker::Mapped => false,
            };
            if attacks {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether the piece `placed` of colour `by_white` attacks `target`
    /// along one of its lines; the piece's square and every square of an
    /// aligned line up to its first blocker are added to `watched`.
    fn rays_attack(
        &self,
        placed: &Placed,
        by_white: bool,
        target: Point,
        watched: &mut Vec<Square>,
    ) -> bool {
        let facts = &self.kinds[usize::from(placed.kind)];
        let rank = self.rank_of_row(placed.at.row, by_white);
        let colour = side(by_white);
        let mut attacks = false;
        for index in facts.ray_groups[colour].towards(placed.at, target) {
            let ray = &facts.rays[colour][index];
            if ray.ray.ranks.is_some_and(|r| !r.admits(rank)) {
                continue;
            }
            let Some(leaps) = ray.leaps_to(placed.at, target) else {
                continue;
            };
            if let Some(direction) = ray.direction {
                let clear = self.hole_free[direction][placed.square as usize];
                if leaps - 1 > i64::from(clear) {
                    // A hole on the way: blocked for good.
                    continue;
                }
            }
            watched.push(placed.square);
            if self.line_is_clear(ray, placed.at, leaps, by_white, watched) {
                attacks = true;
                break;
            }
        }
        attacks
    }

    /// Whether a crooked rider of the piece `placed` (of colour `by_white`)
    /// reaches `target`: a flood fill from the piece's square over the
    /// empty squares its leaps reach. Every square looked at is added to
    /// `watched`. The memory budget's error if the fill cannot grow.
    fn crooked_attack(
        &self,
        placed: &Placed,
        by_white: bool,
        target: Point,
        flood: &mut Flood,
        watched: &mut Vec<Square>,
    ) -> Result<bool, Refused> {
        let facts = &self.kinds[usize::from(placed.kind)];
        let riders = &facts.crooked[side(by_white)];
        if riders.is_empty() {
            return Ok(false);
        }
        let rank = self.rank_of_row(placed.at.row, by_white);
        let target_square = target.row * self.cols + target.col;
        watched.push(placed.square);
        for rider in riders {
            if rider.ranks.is_some_and(|r| !r.admits(rank)) {
                continue;
            }
            let reached = self.flood_reaches(
                flood,
                placed.at,
                target_square,
                watched,
                |board, at, landed, watched| {
                    for leap in &rider.leaps {
                        if let Some(end) = board.leap_lands(leap, at, by_white, watched) {
                            memory::push(landed, end)?;
                        }
                    }
                    Ok(())
                },
            )?;
            if reached {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Where one leap of `leap` from `at` by a piece of `by_white`'s colour
    /// ends, if it is on the board and its intermediate landings allow it
    /// (those looked at are added to `watched`).
    #[inline]
    fn leap_lands(
        &self,
        leap: &BoardRay,
        at: Point,
        by_white: bool,
        watched: &mut Vec<Square>,
    ) -> Option<Point> {
        let (rows, cols) = (i64::from(self.rows), i64::from(self.cols));
        let on_board = |d_row: i64, d_col: i64| {
            let (row, col) = (i64::from(at.row) + d_row, i64::from(at.col) + d_col);
            (row >= 0 && col >= 0 && row < rows && col < cols).then_some(Point {
                row: row as u32,
                col: col as u32,
            })
        };
        for bend in &leap.bends {
            let point = on_board(bend.d_row, bend.d_col)?;
            let square = point.row * self.cols + point.col;
            watched.push(square);
            if !self.bend_allows(bend, square, by_white) {
                return None;
            }
        }
        on_board(leap.d_row, leap.d_col)
    }

    /// Whether an intermediate landing `bend` on `square` allows a path of
    /// a piece of `by_white`'s colour to go on.
    #[inline]
    fn bend_allows(&self, bend: &BoardBend, square: Square, by_white: bool) -> bool {
        match self.cells[square as usize] {
            Cell::Empty => !bend.capture,
            Cell::Piece { white, .. } => bend.capture && white != by_white,
            Cell::Hole => false,
        }
    }

    /// Whether every landing of `leaps` leaps along `ray` from `from` before
    /// the last is on the board and empty (or an enemy piece taken by `x`);
    /// the squares looked at are added to `watched`.
    #[inline]
    fn line_is_clear(
        &self,
        ray: &BoardRay,
        from: Point,
        leaps: i64,
        by_white: bool,
        watched: &mut Vec<Square>,
    ) -> bool {
        if ray.bends.is_empty() {
            let cols = i64::from(self.cols);
            let (mut row, mut col) = (i64::from(from.row), i64::from(from.col));
            // A straight line between two squares on the board stays on it.
            for _ in 1..leaps {
                row += ray.d_row;
                col += ray.d_col;
                let square = (row * cols + col) as Square;
                watched.push(square);
                if self.cells[square as usize] != Cell::Empty {
                    return false;
                }
            }
            return true;
        }
        let mut at = from;
        for leap in 0..leaps {
            if leap > 0 {
                let square = at.row * self.cols + at.col;
                watched.push(square);
                if self.cells[square as usize] != Cell::Empty {
                    return false;
                }
            }
            match self.leap_lands(ray, at, by_white, watched) {
                Some(end) => at = end,
                None => return false,
            }
        }
        true
    }

    /// The square of a mapped piece of colour `by_white` that leaps to
    /// `target`, if any: looks back along every mapped offset.
    fn mapped_attacker(&self, target: Point, by_white: bool) -> Option<Square> {
        let colour = side(by_white);
        self.mapped_offsets[colour].iter().find_map(|&(row, col)| {
            let back = (row.wrapping_neg(), col.wrapping_neg());
            let from = offset_point(target, back, self.rows, self.cols)?;
            let square = from.row * self.cols + from.col;
            match self.cells[square as usize] {
                Cell::Piece { kind, white } if white == by_white => {
                    let facts = &self.kinds[usize::from(kind)];
                    (facts.attacker == Attacker::Mapped
                        && facts.offsets[colour].binary_search(&(row, col)).is_ok())
                    .then_some(square)
                }
                _ => None,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::testing::{rules, WAZIR, WAZIR_LEAPER};
    use super::super::super::{Automaton, Cell, Game, PieceValue};

    #[test]
    fn royal_pieces_are_attacked_by_leaps_and_scans() {
        // Kind 1, the royal piece, attacks nothing (no capturing leap).
        let royal = Automaton {
            attacks: Some(&[]),
            ..WAZIR
        };
        let automata = [WAZIR, royal, WAZIR_LEAPER];
        let values = [
            PieceValue::Number(1),
            PieceValue::Royal,
            PieceValue::Number(2),
        ];
        let rules = rules(&automata, &values);
        // White king on (0,0), black king on (2,2); a black mapped wazir on
        // (1,1) does not touch the white king.
        let mut game =
            Game::with_position(&rules, &[], &[(0, 1, true), (8, 1, false), (4, 2, false)]);
        assert!(!game.attacked(&rules, true).unwrap());
        // A black mapped wazir on (1,0) attacks it (a leap looking back).
        game.place(2, false, 3, 1);
        assert!(game.attacked(&rules, true).unwrap());
        assert_eq!(
            game.board
                .attacked_royals(&rules, true, &mut game.attacks)
                .unwrap(),
            1
        );
        game.board.set(3, Cell::Empty);
        assert!(!game.attacked(&rules, true).unwrap());
        // A black scanned piece on (0,1) attacks it through the scan.
        game.place(0, false, 1, 1);
        assert!(game.attacked(&rules, true).unwrap());
        game.board.set(1, Cell::Empty);
        assert!(!game.attacked(&rules, true).unwrap());
        // A second white king on (2,1) is attacked by the wazir on (1,1):
        // one of two royal pieces attacked is not a loss; both are.
        game.place(1, true, 7, 1);
        assert_eq!(
            game.board
                .attacked_royals(&rules, true, &mut game.attacks)
                .unwrap(),
            1
        );
        assert!(!game.someone_lost(&rules).unwrap());
        game.place(2, false, 3, 1);
        assert_eq!(
            game.board
                .attacked_royals(&rules, true, &mut game.attacks)
                .unwrap(),
            2
        );
        assert!(game.someone_lost(&rules).unwrap());
    }
}
