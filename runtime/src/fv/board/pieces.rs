//! The piece lists: each colour's pieces that attack along lines or by a
//! search, and its royal pieces, kept up to date by every change of a
//! cell (and the per-cell slots that find a piece in them).

use super::super::rules::{Point, Square};
use super::kinds::{offset_between, Attacker};
use super::{side, Board};

/// A piece in a piece list: where it stands (both ways) and its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Placed {
    pub(super) square: Square,
    pub(super) at: Point,
    pub(super) kind: u16,
}

pub(super) const NO_SLOT: u32 = u32::MAX;

/// Removes entry `slot` of `list` by swapping the last entry into its place.
fn remove_at(list: &mut Vec<Placed>, slots: &mut [(u32, u32)], slot: u32, piece_list: bool) {
    let slot = slot as usize;
    if slot >= list.len() {
        return;
    }
    list.swap_remove(slot);
    if let Some(moved) = list.get(slot) {
        let entry = &mut slots[moved.square as usize];
        if piece_list {
            entry.0 = slot as u32;
        } else {
            entry.1 = slot as u32;
        }
    }
}

impl Board {
    /// Takes the piece on cell `index` out of the lists.
    #[inline(never)]
    pub(super) fn lift(&mut self, index: usize, kind: u16, white: bool) {
        let colour = side(white);
        let facts = &self.kinds[usize::from(kind)];
        let (royal, listed) = (facts.royal, facts.listed());
        let explores = facts.explores();
        let (listed_slot, royal_slot) = self.slots[index];
        if listed {
            if explores {
                self.explorers[colour] -= 1;
                self.attacked[side(!white)].stale = true;
            }
            remove_at(&mut self.listed[colour], &mut self.slots, listed_slot, true);
        }
        if royal {
            self.attacked[colour].stale = true;
            remove_at(&mut self.royals[colour], &mut self.slots, royal_slot, false);
        }
        self.slots[index] = (NO_SLOT, NO_SLOT);
    }

    /// Enters the piece now on cell `index` in the lists, and marks the
    /// enemy's count stale if the piece points at one of its royal pieces.
    pub(super) fn drop_on(&mut self, index: usize, kind: u16, white: bool) {
        let colour = side(white);
        let enemy = side(!white);
        let at = self.points[index];
        let facts = &self.kinds[usize::from(kind)];
        let near = |royal: &Placed| u64::from(at.distance(royal.at)) <= facts.reach;
        let threat = facts.explores()
            || match facts.attacker {
                Attacker::Never => false,
                Attacker::Mapped => self.royals[enemy].iter().any(|royal| {
                    near(royal) && facts.offsets[colour].contains(&offset_between(at, royal.at))
                }),
                Attacker::Rays => {
                    let rank = self.rank_of_row(at.row, white);
                    self.royals[enemy].iter().any(|royal| {
                        near(royal)
                            && facts.ray_groups[colour].towards(at, royal.at).any(|index| {
                                let ray = &facts.rays[colour][index];
                                ray.ray.ranks.is_none_or(|r| r.admits(rank))
                                    && ray.leaps_to(at, royal.at).is_some()
                            })
                    })
                }
                Attacker::Searched => true,
            };
        if threat {
            self.attacked[enemy].stale = true;
        }
        let (royal, listed) = (facts.royal, facts.listed());
        let placed = Placed {
            square: index as Square,
            at,
            kind,
        };
        if listed {
            if facts.explores() {
                self.explorers[colour] += 1;
            }
            let list = &mut self.listed[colour];
            self.slots[index].0 = list.len() as u32;
            list.push(placed);
        }
        if royal {
            self.attacked[colour].stale = true;
            let list = &mut self.royals[colour];
            self.slots[index].1 = list.len() as u32;
            list.push(placed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::testing::{rules, WAZIR, WAZIR_LEAPER};
    use super::super::super::{Cell, Game, PieceValue};
    use super::*;

    #[test]
    fn piece_lists_follow_every_change() {
        // Kind 0 moves like a wazir but is not known to be a leaper (so it
        // is scanned); kind 1 is a royal wazir (mapped, and in the royal
        // lists); kind 2 a mapped wazir (in no list).
        let automata = [WAZIR, WAZIR_LEAPER, WAZIR_LEAPER];
        let values = [
            PieceValue::Number(1),
            PieceValue::Royal,
            PieceValue::Number(2),
        ];
        let rules = rules(&automata, &values);
        let mut game = Game::with_position(
            &rules,
            &[(4, 1)],
            &[(0, 0, true), (1, 1, true), (8, 1, false), (6, 2, true)],
        );
        game.place(0, false, 2, 1);
        game.place(0, false, 4, 1);
        let squares = |list: &[Placed]| {
            let mut squares: Vec<Square> = list.iter().map(|p| p.square).collect();
            squares.sort();
            squares
        };
        let board = &game.board;
        assert_eq!(squares(&board.listed[0]), [0]);
        assert_eq!(squares(&board.listed[1]), [2]);
        assert_eq!(squares(&board.royals[0]), [1]);
        assert_eq!(squares(&board.royals[1]), [8]);
        assert_eq!(board.listed[1][0].at, Point { row: 0, col: 2 });
        assert_eq!(game.cells()[4], Cell::Hole);
        // The black king steps to (1,2); the white scanned piece leaves.
        game.board.set(8, Cell::Empty);
        game.board.set(
            5,
            Cell::Piece {
                kind: 1,
                white: false,
            },
        );
        assert_eq!(squares(&game.board.royals[1]), [5]);
        assert_eq!(game.board.slots[5], (NO_SLOT, 0));
        game.board.set(0, Cell::Empty);
        assert!(game.board.listed[0].is_empty());
        // Offsets: the four wazir leaps, black's the other way round.
        assert_eq!(game.board.mapped_offsets[0].len(), 4);
        assert_eq!(
            game.board.kinds[2].offsets[1],
            [(0, 1), (0, u32::MAX), (1, 0), (u32::MAX, 0)]
        );
    }
}
