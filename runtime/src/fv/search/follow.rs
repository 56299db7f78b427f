//! Following one edge of the automaton from the node on top of the search's
//! stack: the board's say on a leap, the conditions, captures and
//! promotions, the repetition contexts, and where the node reached goes
//! (the stack, its holder's queue, or a flood fill for the whole
//! repetition it enters).

use super::super::super::memory::{self, Refused};
use super::super::automaton::{Edge, UNBOUNDED};
use super::super::board::Board;
use super::super::reach::Line;
use super::super::repeat::{choice, OUTSIDE};
use super::super::rules::{Cell, Point, Rules, Step};
use super::node::{
    Frame, Mark, Memory, CAPTURED, FELL, HERE_CAPTURED, HERE_EMPTY, HERE_ENEMY, HERE_HOLE, HOLDER,
    LEAPT, MUST_CAPTURE, NONE, NO_CAPTURE, PENDING_HOLE, PROMOTE_SHIFT,
};
use super::{add_reach, Goal, Search};

/// What following an edge needs of the node it leaves, and the edge.
#[derive(Clone, Copy)]
struct Crossing {
    kind: u16,
    call: u32,
    at: Point,
    path: u32,
    context: u32,
    mark: u32,
    edge: Edge,
    /// The edge's index in its automaton.
    index: u32,
}

/// What [`Search::filled`] found of a crooked repetition.
enum Filled {
    /// The node after it, on the goal.
    Reached(Frame),
    /// No path through it reaches the goal.
    Missed,
    /// The search takes its rounds.
    Searched,
}

impl Search {
    /// Takes `edge` (the automaton's edge `index`) from the node `top` if
    /// the board allows it (the budget's error if the search cannot grow).
    /// Always inlined: the search's loop calls it for every edge. What
    /// most searches never do (`x`, `"s"`, recorded repetitions) is out of
    /// line, which keeps the loop small.
    #[inline(always)]
    pub(super) fn follow(
        &mut self,
        rules: &Rules,
        board: &Board,
        top: usize,
        edge: Edge,
        index: u32,
        goal: Goal,
    ) -> Result<(), Refused> {
        let mut next = self.frames[top];
        // What the node on top was (`next` starts as a copy of it).
        let cross = Crossing {
            kind: next.kind,
            call: next.call,
            at: next.at,
            path: next.path,
            context: next.context,
            mark: next.mark,
            edge,
            index,
        };
        next.state = edge.to();
        // The holder of the repetition whose round `next` is in.
        if next.is(HOLDER) {
            next.entry = top as u32;
            next.next_edge &= !HOLDER;
        }
        let (mut crooked, mut reach) = self.place(rules, cross.kind, edge.to(), cross.call);
        let mut memory = next.memory;
        match edge {
            Edge::Leap { forward, right, .. } => {
                if memory.has(PENDING_HOLE) || memory.here() == HERE_ENEMY {
                    return Ok(());
                }
                let Some(landing) = rules.leap_from(cross.at, self.white, forward, right) else {
                    return Ok(());
                };
                if landing.distance(goal.to) > reach {
                    return Ok(());
                }
                let square = rules.square(landing);
                if self.record_reads {
                    memory::push(&mut self.reads, square)?;
                }
                let here = match board.get(square) {
                    Cell::Piece { white, .. } if white == self.white => return Ok(()),
                    // An enemy this path already took with `x` is gone.
                    Cell::Piece { .. } if self.taken_before(cross.path, square) => HERE_EMPTY,
                    Cell::Piece { .. } => HERE_ENEMY,
                    Cell::Empty => HERE_EMPTY,
                    Cell::Hole if goal.attack => return Ok(()),
                    Cell::Hole => {
                        memory = self.fall(&mut next, memory, crooked, square)?;
                        HERE_HOLE
                    }
                };
                memory = Memory(memory.with_here(here).0 | LEAPT);
                next.at = landing;
                next.path = self.steps.len() as u32;
                memory::push(&mut self.steps, (Step::land(square), cross.path))?;
            }
            Edge::Rank {
                low, high, negated, ..
            } => {
                let rank = rules.rank_of_row(cross.at.row, self.white);
                if (low <= rank && rank <= high) == negated {
                    return Ok(());
                }
            }
            Edge::MustCapture { .. } => memory = Memory(memory.0 | MUST_CAPTURE),
            Edge::NoCapture { .. } => memory = Memory(memory.0 | NO_CAPTURE),
            Edge::CaptureHere { .. } => match self.capture_here(rules, &cross, &mut next)? {
                Some(taken) => memory = taken,
                None => return Ok(()),
            },
            Edge::Promote { .. } => {
                if !goal.attack {
                    memory = Memory(
                        (memory.0 & ((1 << PROMOTE_SHIFT) - 1)) | (index + 1) << PROMOTE_SHIFT,
                    );
                    next.promote_kind = cross.kind;
                }
            }
            Edge::Exit { .. } | Edge::Stop { .. } => {
                // Out of the repetition: into the round around it, if any.
                next.entry = self
                    .frames
                    .get(next.entry as usize)
                    .map_or(NONE, |holder| holder.entry);
            }
            Edge::Pass { .. }
            | Edge::Enter { .. }
            | Edge::Loop { .. }
            | Edge::Begin { .. }
            | Edge::Again { .. } => {}
            Edge::Call { piece, to } => {
                (crooked, reach) =
                    self.call(rules, &cross, &mut next, piece, to, (crooked, reach))?;
            }
        }
        if !crooked {
            memory = Memory(memory.0 & !PENDING_HOLE);
        }
        if self.off_goal(&next, edge, goal, reach) {
            return Ok(());
        }
        next.memory = memory;
        if cross.context != OUTSIDE || matches!(edge, Edge::Begin { .. }) {
            self.record(&cross, &mut next)?;
        }
        if next.context == OUTSIDE {
            next.state = self.lines.skip(next.kind, next.state);
        }
        self.reach_node(rules, board, &cross, next, goal)
    }

    /// Where the node `next`, reached by `cross`, goes: on the stack (a
    /// holder when the edge enters a repetition), into its holder's queue
    /// when it starts a further round that waits for those with fewer, or,
    /// for a crooked repetition a fill stands for, the node after it.
    #[inline(always)]
    fn reach_node(
        &mut self,
        rules: &Rules,
        board: &Board,
        cross: &Crossing,
        mut next: Frame,
        goal: Goal,
    ) -> Result<(), Refused> {
        match cross.edge {
            Edge::Enter { to } => {
                if self.lines.fills(cross.kind, to) {
                    match self.filled(rules, board, next, *cross, to, goal)? {
                        Filled::Reached(node) => return self.push(node),
                        Filled::Missed => return Ok(()),
                        Filled::Searched => {}
                    }
                }
                next.next_edge |= HOLDER;
                self.push(next)
            }
            Edge::Loop { to } if !self.in_order(cross.kind, to, next.call) => self.push(next),
            Edge::Loop { .. } | Edge::Again { .. }
                if self.ordered && (next.entry as usize) < self.frames.len() =>
            {
                let holder = next.entry;
                self.defer(next, holder)
            }
            _ => self.push(next),
        }
    }

    /// A leap of `next`'s path onto the hole on `square`, its memory
    /// `memory` and in a crooked repetition if `crooked`: the memory after
    /// (the first hole is where the piece falls).
    #[inline(never)]
    fn fall(
        &mut self,
        next: &mut Frame,
        mut memory: Memory,
        crooked: bool,
        square: u32,
    ) -> Result<Memory, Refused> {
        if crooked {
            memory = Memory(memory.0 | PENDING_HOLE);
        }
        if !memory.has(FELL) {
            next.effects = self.add_effect(next.effects, square * 2 + 1)?;
            memory = Memory(memory.0 | FELL);
        }
        Ok(memory)
    }

    /// `x` on the square the node `cross` leaves stands on, into `next`:
    /// the memory after, or `None` if there is no enemy to take (one taken
    /// already stays taken).
    #[inline(never)]
    fn capture_here(
        &mut self,
        rules: &Rules,
        cross: &Crossing,
        next: &mut Frame,
    ) -> Result<Option<Memory>, Refused> {
        let memory = next.memory;
        match memory.here() {
            HERE_ENEMY => {
                // Part of the node's key even after a fall and in an
                // attack test, where it changes no stack: the squares
                // taken with `x` are gone for the rest of the path, so two
                // paths that took different ones go on differently.
                next.effects = self.add_effect(next.effects, rules.square(cross.at) * 2)?;
                // The last landing, now with its capture.
                let (step, before) = self.steps[cross.path as usize];
                next.path = self.steps.len() as u32;
                memory::push(&mut self.steps, (step.then_capture(), before))?;
                Ok(Some(Memory(memory.with_here(HERE_CAPTURED).0 | CAPTURED)))
            }
            HERE_CAPTURED => Ok(Some(memory)),
            _ => Ok(None),
        }
    }

    /// `"s"` (piece type `piece`, then state `to`) from the node `cross`
    /// leaves, whose next state has `place` (crooked, reach): `next` enters
    /// s's automaton; the place of its start.
    #[inline(never)]
    fn call(
        &mut self,
        rules: &Rules,
        cross: &Crossing,
        next: &mut Frame,
        piece: u16,
        to: u32,
        (crooked, reach): (bool, u32),
    ) -> Result<(bool, u32), Refused> {
        let call = self.open_call(cross.call, cross.kind, to, crooked, reach)?;
        next.kind = piece;
        next.state = 0;
        next.call = call;
        Ok(self.place(rules, piece, 0, call))
    }

    /// The repetition context of `next`, reached by `cross` from a node
    /// inside a recorded repetition or by [`Edge::Begin`], and the first
    /// round it is in. (Out of line: most searches record nothing.)
    #[inline(never)]
    fn record(&mut self, cross: &Crossing, next: &mut Frame) -> Result<(), Refused> {
        let made = choice(cross.kind, cross.index);
        let reps = &mut self.repetitions;
        next.context = match cross.edge {
            Edge::Begin { .. } => reps.begin(cross.context, made)?,
            Edge::Stop { .. } => reps.stop(cross.context, made)?,
            Edge::Again { .. } => reps.again(cross.context, made)?,
            _ => reps.after(cross.context, made)?,
        };
        // A detour is a return to a node of the same first round (its
        // recording forgotten, see `Repetitions::shape`): a first round
        // begun afresh is a new place, not a return to an earlier one (its
        // way is recorded anew and decides the rounds after it).
        let mark = self.marks[cross.mark as usize];
        let round = if !self.repetitions.recording(next.context) {
            0
        } else if self.repetitions.recording(cross.context) {
            mark.round
        } else {
            self.rounds += 1;
            self.rounds
        };
        if round != mark.round {
            self.set_mark(next, Mark { round, ..mark })?;
        }
        Ok(())
    }

    /// Whether no path from `next`, reached by `edge` and able to go
    /// `reach` king steps further, can end on the goal: too far, or off
    /// its rider's line.
    #[inline(always)]
    fn off_goal(&self, next: &Frame, edge: Edge, goal: Goal, reach: u32) -> bool {
        // A leap's landing was tested before its cell was read.
        let far = !matches!(edge, Edge::Leap { .. }) && next.at.distance(goal.to) > reach;
        far || reach == UNBOUNDED
            && self
                .lines
                .of(next.kind, next.state)
                .is_some_and(|line| self.off_line(line, next.call, next.at, goal.to))
    }

    /// Whether the round of a repetition that starts at state `start` of
    /// `kind` inside `call` waits for the paths with fewer rounds (moves),
    /// or is taken at once: attack tests, and repetitions whose paths need
    /// no order among themselves ([`Lines::unordered`]).
    ///
    /// [`Lines::unordered`]: super::super::reach::Lines::unordered
    #[inline]
    fn in_order(&self, kind: u16, start: u32, call: u32) -> bool {
        self.ordered
            && !(self.lines.unordered(kind, start) && self.calls[call as usize].reach_after == 0)
    }

    /// Whether a node on `line` inside `call` on `at` cannot lead to `to`.
    /// (Not inlined: only repetitions get here, and the search's loop
    /// stays small.)
    #[inline(never)]
    fn off_line(&self, line: Line, call: u32, at: Point, to: Point) -> bool {
        let beyond = add_reach(line.after(), self.calls[call as usize].reach_after);
        beyond != UNBOUNDED && !line.reaches(at, to, self.white, beyond)
    }

    /// A move's way through the crooked repetition that `enter` (reached
    /// from `frame`) enters at state `holder`, by a flood fill where it
    /// stands for the repetition's rounds ([`Lines::fill`]): the node after
    /// the repetition on the goal, as the search would have reached it.
    /// Outside recorded repetitions, when nothing follows an open `"s"`,
    /// and the path took no enemy with `x` (its square would be empty).
    /// (Not inlined: it would make the search's loop larger for every
    /// move.)
    #[inline(never)]
    fn filled(
        &mut self,
        rules: &Rules,
        board: &Board,
        mut enter: Frame,
        cross: Crossing,
        holder: u32,
        goal: Goal,
    ) -> Result<Filled, Refused> {
        let mut memory = enter.memory;
        let Some(fill) = self.lines.fill(cross.kind, holder) else {
            return Ok(Filled::Searched);
        };
        if !self.ordered
            || self.record_reads
            || enter.context != OUTSIDE
            || memory.has(CAPTURED)
            || self.calls[cross.call as usize].reach_after != 0
        {
            return Ok(Filled::Searched);
        }
        if memory.has(PENDING_HOLE) || memory.here() == HERE_ENEMY {
            // No leap goes on from here.
            return Ok(Filled::Missed);
        }
        let (start, square) = (rules.square(enter.at), rules.square(goal.to));
        let exit = fill.exit;
        if !board.crooked_reaches(fill.offsets(self.white), start, square, &mut self.flood)? {
            return Ok(Filled::Missed);
        }
        let here = match board.get(square) {
            Cell::Piece { white, .. } if white == self.white => return Ok(Filled::Missed),
            Cell::Piece { .. } => HERE_ENEMY,
            Cell::Empty => HERE_EMPTY,
            Cell::Hole => {
                if !memory.has(FELL) {
                    enter.effects = self.add_effect(enter.effects, square * 2 + 1)?;
                    memory = Memory(memory.0 | FELL);
                }
                HERE_HOLE
            }
        };
        enter.memory = Memory(memory.with_here(here).0 | LEAPT);
        enter.at = goal.to;
        enter.state = self.lines.skip(cross.kind, exit);
        // The landings before the last are empty squares: only the last
        // does anything.
        enter.path = self.steps.len() as u32;
        memory::push(&mut self.steps, (Step::land(square), cross.path))?;
        Ok(Filled::Reached(enter))
    }
}
