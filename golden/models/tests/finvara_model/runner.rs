//! Running a whole case in the model: move lines, their effects, stack actions.

use super::*;

/// The model's whole case runner.
pub(super) struct Runner<'m, 'a> {
    model: &'m Model<'a>,
    pub(super) steps: usize,
    limit: usize,
}

impl<'m, 'a> Runner<'m, 'a> {
    pub(super) fn new(model: &'m Model<'a>, limit: usize) -> Self {
        Runner {
            model,
            steps: 0,
            limit,
        }
    }

    /// A search of `mover`'s paths toward `goal` on `board`, counting its
    /// steps in this runner's.
    fn search<'s>(
        &'s mut self,
        board: &'s [MCell],
        mover: (bool, usize, usize),
        goal: Goal,
    ) -> Search<'s, 'a> {
        Search::new(self.model, board, &mut self.steps, self.limit, mover, goal)
    }

    /// Every complete path of the mover in order (no board validation
    /// beyond pruning), for the unit tests.
    pub(super) fn paths(
        &mut self,
        board: &[MCell],
        mover: (bool, usize, usize),
        to: usize,
    ) -> Result<Vec<MPath<'a>>, Budget> {
        let goal = Goal::Move { to, promote: None };
        self.collect(board, mover, goal, |search| &mut search.record)
    }

    /// The geometric paths from FROM to `to` in order (see
    /// [`Search::geometric`]).
    pub(super) fn listing(
        &mut self,
        board: &[MCell],
        mover: (bool, usize, usize),
        to: usize,
        promote: Option<usize>,
    ) -> Result<Vec<MPath<'a>>, Budget> {
        let goal = Goal::Move { to, promote };
        self.collect(board, mover, goal, |search| &mut search.geometric)
    }

    /// The paths a search toward `goal` lists in the list `list` picks.
    fn collect(
        &mut self,
        board: &[MCell],
        mover: (bool, usize, usize),
        goal: Goal,
        list: impl for<'s> Fn(&'s mut Search<'_, 'a>) -> &'s mut Option<Vec<MPath<'a>>>,
    ) -> Result<Vec<MPath<'a>>, Budget> {
        let mut search = self.search(board, mover, goal);
        *list(&mut search) = Some(Vec::new());
        search.run()?;
        Ok(list(&mut search).take().unwrap_or_default())
    }

    /// End squares of the legal paths (before the check rule) met within
    /// `limit` steps: good targets for random moves.
    pub(super) fn ends(
        &mut self,
        board: &[MCell],
        mover: (bool, usize, usize),
        limit: usize,
    ) -> Vec<usize> {
        let mut steps = 0;
        let mut search = Search::new(
            self.model,
            board,
            &mut steps,
            limit,
            mover,
            Goal::Move {
                to: usize::MAX,
                promote: None,
            },
        );
        search.ends = Some(Vec::new());
        let _ = search.run();
        search.ends.take().unwrap()
    }

    /// The move: the first path in order that is legal and passes the check
    /// rule, then its effects.
    pub(super) fn play_move(
        &mut self,
        board: &[MCell],
        (white, kind, from): (bool, usize, usize),
        to: usize,
        promote: Option<usize>,
        input: &mut std::vec::IntoIter<i64>,
    ) -> Result<Outcome, Budget> {
        let mut stacks = [Vec::new(), Vec::new()];
        let unchanged = |stacks: [Vec<i64>; 2]| Outcome {
            valid: false,
            cells: board.to_vec(),
            stacks,
            output: String::new(),
            error: None,
            lost: false,
        };
        if board[from] != (MCell::Piece { kind, white }) {
            return Ok(unchanged(stacks));
        }
        let mut search = self.search(board, (white, kind, from), Goal::Move { to, promote });
        search.run()?;
        let chosen = search
            .found
            .take()
            .map(|(_, cells, effects)| (cells, effects));
        let Some((cells, effects)) = chosen else {
            return Ok(unchanged(stacks));
        };
        let mut output = String::new();
        let mut error = None;
        for effect in effects {
            match effect {
                Effect::Captured {
                    kind: victim,
                    white: w,
                    square,
                } => {
                    if let Some(v) = self.model.value_at(victim, square) {
                        stacks[usize::from(!w)].push(v);
                    }
                }
                Effect::Fell { square } => {
                    if let Some(v) = self.model.value_at(kind, square) {
                        if let Err(e) = stack_action(
                            &mut stacks[usize::from(!white)],
                            white,
                            v,
                            input,
                            &mut output,
                        ) {
                            error = Some(e);
                            break;
                        }
                    }
                }
            }
        }
        Ok(Outcome {
            valid: true,
            cells,
            stacks,
            output,
            error,
            lost: false,
        })
    }

    /// The move, then the losing test on the board it leaves.
    pub(super) fn play(
        &mut self,
        board: &[MCell],
        mover: (bool, usize, usize),
        to: usize,
        promote: Option<usize>,
        input: &mut std::vec::IntoIter<i64>,
    ) -> Result<Outcome, Budget> {
        let mut outcome = self.play_move(board, mover, to, promote, input)?;
        outcome.lost = false;
        for white in [true, false] {
            let mut all_attacked = true;
            for (square, cell) in outcome.cells.iter().enumerate() {
                if let MCell::Piece { kind, white: w } = *cell {
                    if w == white
                        && self.model.royal(kind)
                        && !attacked(
                            self.model,
                            &outcome.cells,
                            square,
                            !white,
                            &mut self.steps,
                            self.limit,
                        )?
                    {
                        all_attacked = false;
                    }
                }
            }
            // No royal piece at all counts as "all attacked".
            outcome.lost |= all_attacked;
        }
        Ok(outcome)
    }
}

/// Spec's stack-action table, chosen by value mod 6 (always 0..5).
pub(super) fn stack_action(
    stack: &mut Vec<i64>,
    white: bool,
    value: i64,
    input: &mut std::vec::IntoIter<i64>,
    output: &mut String,
) -> Result<(), String> {
    let action = value.rem_euclid(6);
    let need = match action {
        0..=2 => 2,
        4 | 5 => 1,
        _ => 0,
    };
    if stack.len() < need {
        return Err(format!(
            "stack action {action} needs {need} value{} on the {} stack, which has {}",
            if need == 1 { "" } else { "s" },
            if white { "white" } else { "black" },
            stack.len()
        ));
    }
    match action {
        0..=2 => {
            let a = stack.pop().unwrap();
            let b = stack.pop().unwrap();
            stack.push(match action {
                0 => a + b,
                1 => a - b,
                _ => i64::from(a == b),
            });
        }
        3 => stack.push(input.next().ok_or("input ended")?),
        4 => writeln!(output, "{}", stack.last().unwrap()).unwrap(),
        _ => {
            stack.pop();
        }
    }
    Ok(())
}
