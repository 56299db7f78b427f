//! Macro steps for Turing machines (the "macro machines" of Busy Beaver
//! simulators): the tape is cut into blocks of [`BLOCK`] cells, and a
//! *macro step* runs the machine inside one block — from the cell where
//! the head is until it leaves the block, halts, or enters the input or
//! output state. What a macro step does depends only on the block's
//! cells, the state and the head's cell in the block, so it is computed
//! once (single steps over a small rule table) and remembered: a machine
//! that comes back to the same block contents in the same state — a
//! counter's low bits, a bounce between markers — then runs whole blocks'
//! worth of steps per lookup, faster than any code that makes every step.
//!
//! Generated code calls [`run`] before its own code: it tries macro steps
//! on a copy of the tape and drops them if they do not pay (many steps
//! each, few computed); else it runs them while they pay and the step
//! limit allows the next one whole, then hands the machine back exactly as
//! single steps would have left it; the generated code runs the rest (the
//! input and output states, the last steps before the limit, a halt).

use std::cell::Cell;

use super::hash::FastMap;
use super::limits::StepCounter;
use super::memory;
use super::tm::{rule_for, Rule, Tape, INPUT, OUTPUT};

/// Cells in a block.
pub const BLOCK: usize = 16;
/// Symbols a machine may use for macro steps (a cell of a block takes 4
/// bits; symbol 0 is code 0, so a block of blanks is 0).
pub const CODES: usize = 16;
/// Steps one macro step computes at most; one that runs longer stops there
/// (and the next starts where it stopped), so a machine looping inside a
/// block is never stuck in a computation the step limit cannot stop.
const MAX_STEPS: u64 = 1 << 16;
/// Macro steps remembered at most.
const MAX_REMEMBERED: usize = 1 << 18;
/// Macro steps between two looks at whether they pay (and after the
/// first few, a look after every one that had to be computed).
const REVIEW_EVERY: u64 = 256;
/// Macro steps before the first look.
const FIRST_REVIEW: u64 = 16;
/// Steps a macro step must make on average to pay (a lookup costs about
/// as much as this many compiled steps).
const PAYING_STEPS: u64 = 64;
/// The trial: macro steps are first made on a copy of the tape until this
/// many were made or [`TRIAL_STEPS`] steps taken; if they do not pay by
/// then, the copy is dropped and generated code runs the machine from
/// where it was, as if no macro step had been tried.
const TRIAL_MACRO_STEPS: u64 = 64;
/// See [`TRIAL_MACRO_STEPS`]: enough for a block's worth of a counter to
/// come round twice.
const TRIAL_STEPS: u64 = 1 << 19;

/// One rule over codes.
#[derive(Clone, Copy, Debug)]
struct Action {
    /// The next state's index.
    next: u32,
    /// The code written.
    write: u8,
    /// Move left (else right).
    left: bool,
    /// Whether the next state is the input or output state.
    special: bool,
    /// The rule's line and column.
    site: (u32, u32),
}

/// Steps [`short_run`] looks ahead: a machine that halts or reaches the
/// input or output state within them is not worth setting macro steps up
/// for.
const SHORT_RUN: usize = 32;

/// Runs up to [`SHORT_RUN`] single steps on a copy of the cells around
/// the head (rules looked up in `rules`, sorted by state and symbol). If
/// the machine halts or enters the input or output state within them,
/// makes them on `tape` (and `state`, `entered_by`, `steps`) and returns
/// `true`; else changes nothing. The caller has checked that the step
/// limit allows them.
fn short_run(
    rules: &[Rule],
    tape: &mut Tape,
    state: &mut i64,
    entered_by: &Cell<(u32, u32)>,
    steps: &mut StepCounter,
) -> bool {
    let (cells, head) = tape.parts();
    let low = head.saturating_sub(SHORT_RUN);
    let mut window = [0i64; 2 * SHORT_RUN + 1];
    let known = cells.len().min(head + SHORT_RUN + 1) - low;
    window[..known].copy_from_slice(&cells[low..low + known]);
    let (mut at, mut current, mut made, mut reached) = (head - low, *state, 0, 0);
    let mut site = None;
    while let Some(rule) = rule_for(rules, current, window[at]) {
        if made == SHORT_RUN {
            return false;
        }
        made += 1;
        window[at] = rule.write;
        current = rule.next;
        if rule.left {
            at = at.saturating_sub(usize::from(low + at > 0));
        } else {
            at += 1;
            reached = reached.max(at);
        }
        if current == INPUT || current == OUTPUT {
            site = Some((rule.line, rule.column));
            break;
        }
    }
    // It stops within the look-ahead: make those steps for real (moving
    // right past the last cell grows the tape with blanks).
    let end = (low + reached + 1).max(cells.len());
    if memory::reserve(cells, end - cells.len()).is_err() {
        // Past the memory limit: the single steps say where.
        return false;
    }
    cells.resize(end, 0);
    // The cells copied, and those the head reached past the tape's end.
    let written = known.max(reached + 1);
    cells[low..low + written].copy_from_slice(&window[..written]);
    tape.set_head(low + at);
    *state = current;
    if let Some(site) = site {
        entered_by.set(site);
    }
    steps.spend_down_to(steps.available() - made as u64);
    true
}

/// Room for one more block of `blocks` and, in `cells`, for all of them
/// as cells (they go back there), charged to the run's memory budget:
/// false if the budget refuses.
fn room_for_a_block(blocks: &mut Vec<u64>, cells: &mut Vec<i64>) -> bool {
    let wanted = (blocks.len() + 1) * BLOCK;
    memory::reserve(blocks, 1).is_ok()
        && memory::reserve(cells, wanted.saturating_sub(cells.len())).is_ok()
}

/// The codes of a block's cells, first cell first.
fn codes(content: u64) -> [u8; BLOCK] {
    let mut cells = [0u8; BLOCK];
    for (index, cell) in cells.iter_mut().enumerate() {
        *cell = ((content >> (4 * index)) & 0xf) as u8;
    }
    cells
}

/// Where the head is after a macro step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Exit {
    /// On the last cell of the block to the left.
    Left,
    /// On the first cell of the block to the right.
    Right,
    /// Still in the block, on this cell.
    Inside(u8),
}

/// What a macro step did.
#[derive(Clone, Copy, Debug)]
struct Outcome {
    /// The block's cells after it.
    content: u64,
    /// The state's index after it.
    state: u32,
    /// Where the head went.
    exit: Exit,
    /// Its steps.
    steps: u64,
    /// Whether it ended in the input or output state (entered by the rule
    /// at `site`), or found no rule: either way generated code goes on.
    stops: bool,
    /// The line and column of the rule that entered the input or output
    /// state, if it did.
    site: (u32, u32),
}

/// A machine's rules over codes.
struct Machine {
    /// Code → symbol.
    symbols: Vec<i64>,
    /// State index → state.
    states: Vec<i64>,
    /// `state index * CODES + code` → the rule, if any.
    table: Vec<Option<Action>>,
}

impl Machine {
    /// The machine of `rules` over the symbols they read and write, 0 and
    /// those on `cells`; `None` if there are more than [`CODES`].
    fn new(rules: &[Rule], cells: &[i64]) -> Option<Machine> {
        let mut symbols = vec![0];
        let mut states = Vec::new();
        for rule in rules {
            for symbol in [rule.read, rule.write] {
                if !symbols.contains(&symbol) {
                    symbols.push(symbol);
                }
            }
            for state in [rule.state, rule.next] {
                if !states.contains(&state) {
                    states.push(state);
                }
            }
        }
        for &cell in cells {
            if !symbols.contains(&cell) {
                if symbols.len() == CODES {
                    return None;
                }
                symbols.push(cell);
            }
        }
        if symbols.len() > CODES || states.len() > u32::MAX as usize / CODES {
            return None;
        }
        let mut table = vec![None; states.len() * CODES];
        let index = |list: &[i64], value: i64| list.iter().position(|&v| v == value);
        for rule in rules {
            let (state, read) = (index(&states, rule.state)?, index(&symbols, rule.read)?);
            let action = Action {
                next: index(&states, rule.next)? as u32,
                write: index(&symbols, rule.write)? as u8,
                left: rule.left,
                special: rule.next == INPUT || rule.next == OUTPUT,
                site: (rule.line, rule.column),
            };
            table[state * CODES + read] = Some(action);
        }
        Some(Machine {
            symbols,
            states,
            table,
        })
    }

    /// A symbol's code, if it has one.
    fn code(&self, symbol: i64) -> Option<u64> {
        self.symbols
            .iter()
            .position(|&s| s == symbol)
            .map(|code| code as u64)
    }

    /// Runs the machine inside a block holding `content`, in state
    /// `state`, from cell `at`; `first` if it is the tape's first block
    /// (a move left from its first cell stays there).
    fn macro_step(&self, content: u64, state: u32, at: usize, first: bool) -> Outcome {
        let mut cells = codes(content);
        let (mut state, mut at, mut steps) = (state, at, 0u64);
        let encode = |cells: &[u8; BLOCK]| {
            cells
                .iter()
                .enumerate()
                .fold(0u64, |content, (index, &code)| {
                    content | u64::from(code) << (4 * index)
                })
        };
        loop {
            let rule = self.table[state as usize * CODES + usize::from(cells[at])];
            let Some(action) = rule.filter(|_| steps < MAX_STEPS) else {
                // No rule (a halt, or the step limit stops it in generated
                // code), or as many steps as one macro step makes.
                return Outcome {
                    content: encode(&cells),
                    state,
                    exit: Exit::Inside(at as u8),
                    steps,
                    stops: rule.is_none(),
                    site: (0, 0),
                };
            };
            steps += 1;
            cells[at] = action.write;
            state = action.next;
            let exit = if action.left {
                match at {
                    0 if first => Exit::Inside(0),
                    0 => Exit::Left,
                    _ => Exit::Inside(at as u8 - 1),
                }
            } else if at == BLOCK - 1 {
                Exit::Right
            } else {
                Exit::Inside(at as u8 + 1)
            };
            match exit {
                Exit::Inside(next) if !action.special => at = usize::from(next),
                _ => {
                    return Outcome {
                        content: encode(&cells),
                        state,
                        exit,
                        steps,
                        stops: action.special,
                        site: action.site,
                    }
                }
            }
        }
    }
}

/// Runs the machine on `tape` from `state` in macro steps while they pay
/// and the steps `steps` still allows cover them; leaves the tape, the
/// head, the state, the steps taken and `entered_by` (the rule that
/// entered the input or output state) as single steps would have.
///
/// Generated code enters its own code only at some states, `roots`
/// (sorted): macro steps that stop paying end only in one of them (or
/// never). Returns `true` if the step limit falls within the next macro
/// step: the caller then runs the last steps one at a time
/// ([`finish`](super::tm::finish)), so the limit stops the right one.
/// Does nothing for a machine with more than [`CODES`] symbols, or in a
/// state without rules.
#[cold]
#[inline(never)]
pub fn run(
    rules: &[Rule],
    roots: &[i64],
    tape: &mut Tape,
    state: &mut i64,
    entered_by: &Cell<(u32, u32)>,
    steps: &mut StepCounter,
) -> bool {
    if steps.available() <= SHORT_RUN as u64 {
        // The limit is this close: single steps.
        return true;
    }
    if short_run(rules, tape, state, entered_by, steps) {
        return false;
    }
    let Some(machine) = Machine::new(rules, tape.cells()) else {
        return false;
    };
    let Some(mut current) = machine.states.iter().position(|&s| s == *state) else {
        return false;
    };
    let (cells, head) = tape.parts();
    let Some(mut blocks) = pack(&machine, cells) else {
        return false;
    };
    let (mut block, mut at) = (head / BLOCK, head % BLOCK);
    let mut remembered: FastMap<(u64, u64), Outcome> = FastMap::default();
    let mut fuel = steps.available();
    let (mut made, mut taken, mut computed) = (0u64, 0u64, 0u64);
    let mut paying = true;
    let mut limited = false;
    let mut trial = true;
    loop {
        let key = (
            blocks[block],
            (current as u64) << 5 | (at as u64) << 1 | u64::from(block == 0),
        );
        let mut review = made >= FIRST_REVIEW && made % REVIEW_EVERY == 0;
        let outcome = match remembered.get(&key) {
            Some(&outcome) => outcome,
            None => {
                let outcome = machine.macro_step(key.0, current as u32, at, block == 0);
                computed += outcome.steps;
                review |= made >= FIRST_REVIEW;
                if remembered.len() < MAX_REMEMBERED {
                    remembered.insert(key, outcome);
                }
                outcome
            }
        };
        if outcome.steps == 0 {
            // A halt where the head is: nothing more to do here.
            if made == 0 {
                return false;
            }
            break;
        }
        if outcome.steps > fuel {
            limited = true;
            break;
        }
        if outcome.exit == Exit::Right
            && block + 1 == blocks.len()
            && !room_for_a_block(&mut blocks, cells)
        {
            // Past the memory limit: the caller's single steps grow the
            // tape and say at which rule it could not.
            break;
        }
        fuel -= outcome.steps;
        blocks[block] = outcome.content;
        current = outcome.state as usize;
        (block, at) = moved(outcome.exit, block, &mut blocks);
        if outcome.stops {
            if outcome.site != (0, 0) {
                entered_by.set(outcome.site);
            }
            break;
        }
        made += 1;
        taken += outcome.steps;
        // Worth going on: many steps a macro step, most of them remembered.
        let pays = || taken >= made * PAYING_STEPS && computed * 2 <= taken;
        if trial {
            if made < TRIAL_MACRO_STEPS && taken < TRIAL_STEPS {
                continue;
            }
            if !pays() {
                // Nothing was written back yet: the tape, the state and
                // the steps are as they were.
                return false;
            }
            trial = false;
        }
        if review {
            paying = pays();
        }
        if !paying && roots.binary_search(&machine.states[current]).is_ok() {
            break;
        }
    }
    unpack(&machine, &blocks, cells);
    tape.set_head(block * BLOCK + at);
    *state = machine.states[current];
    steps.spend_down_to(fuel);
    limited
}

/// The tape's cells as blocks of [`BLOCK`] codes, room reserved on the
/// tape for a whole last block; `None` past the memory limit.
fn pack(machine: &Machine, cells: &mut Vec<i64>) -> Option<Vec<u64>> {
    let mut blocks = Vec::with_capacity(cells.len() / BLOCK + 1);
    memory::reserve(cells, (cells.len() / BLOCK + 1) * BLOCK - cells.len()).ok()?;
    for chunk in cells.chunks(BLOCK) {
        let mut content = 0u64;
        for (index, &cell) in chunk.iter().enumerate() {
            // Every symbol on the tape has a code (`Machine::new`).
            content |= machine.code(cell).unwrap_or(0) << (4 * index);
        }
        blocks.push(content);
    }
    Some(blocks)
}

/// Where the head is (block and cell) after a macro step in `block` that
/// ended by `exit`; a block of blanks is added past the last one when the
/// head enters it.
#[inline]
fn moved(exit: Exit, block: usize, blocks: &mut Vec<u64>) -> (usize, usize) {
    match exit {
        Exit::Left => (block - 1, BLOCK - 1),
        Exit::Right => {
            if block + 1 == blocks.len() {
                blocks.push(0);
            }
            (block + 1, 0)
        }
        Exit::Inside(cell) => (block, usize::from(cell)),
    }
}

/// Writes `blocks` back to the tape's cells (blanks past the old end read
/// as the blanks the tape would have grown).
fn unpack(machine: &Machine, blocks: &[u64], cells: &mut Vec<i64>) {
    cells.clear();
    for &content in blocks {
        for code in codes(content).iter() {
            cells.push(
                machine
                    .symbols
                    .get(usize::from(*code))
                    .copied()
                    .unwrap_or(0),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::io::Io;
    use super::super::limits::Options;
    use super::super::tm::{finish, Control};
    use super::*;

    /// Runs `rules` on `initial` with a step limit, with macro steps first
    /// (`blocks`) or single steps only: the output, the error, the steps,
    /// the tape's cells (without blanks at its end) and the head.
    fn outcome(
        rules: &[Rule],
        initial: &[i64],
        limit: Option<u64>,
        blocks: bool,
    ) -> (String, Option<String>, u64, Vec<i64>, usize) {
        let mut steps = StepCounter::new(&Options {
            max_steps: limit,
            max_memory: None,
        });
        let mut tape = Tape::new(initial);
        let mut state = 0;
        let entered_by = Cell::new((0, 0));
        if blocks {
            run(rules, &[0], &mut tape, &mut state, &entered_by, &mut steps);
        }
        let mut output = Vec::new();
        let mut io = Io::new(&b""[..], &mut output);
        let control = Control {
            state,
            entered_by: entered_by.get(),
        };
        let result = finish(rules, &mut tape, control, &mut io, &mut steps);
        drop(io);
        let mut cells = tape.cells().to_vec();
        while cells.len() > tape.head() + 1 && cells.last() == Some(&0) {
            cells.pop();
        }
        (
            String::from_utf8_lossy(&output).into_owned(),
            result.err().map(|e| format!("{e:?}")),
            steps.executed(),
            cells,
            tape.head(),
        )
    }

    fn rule(state: i64, read: i64, next: i64, write: i64, left: bool) -> Rule {
        Rule::new(
            state,
            read,
            (next, write, left),
            ((10 * state + read) as u32, 0),
        )
    }

    /// The binary counter of the benchmarks, `bits` wide.
    fn counter(bits: usize) -> (Vec<Rule>, Vec<i64>) {
        let mut rules = vec![
            rule(0, 5, 3, 5, false),
            rule(3, 0, 4, 1, true),
            rule(3, 1, 3, 0, false),
            rule(4, 0, 4, 0, true),
            rule(4, 1, 4, 1, true),
            rule(4, 5, 3, 5, false),
        ];
        rules.sort_by_key(|r| (r.state, r.read));
        let mut tape = vec![5];
        tape.extend(vec![0; bits]);
        tape.push(6);
        (rules, tape)
    }

    #[test]
    fn a_counter_runs_in_macro_steps_to_the_same_end() {
        let (rules, tape) = counter(12);
        let single = outcome(&rules, &tape, None, false);
        assert_eq!(single.2, 4 * (1 << 12) - 12 - 3);
        assert_eq!(outcome(&rules, &tape, None, true), single);
        // Every step limit near the end, and some in the middle.
        for limit in (single.2 - 40..=single.2 + 1).chain([1, 17, 1000, 9999]) {
            assert_eq!(
                outcome(&rules, &tape, Some(limit), true),
                outcome(&rules, &tape, Some(limit), false),
                "limit {limit}"
            );
        }
    }

    /// A small random machine: 2–4 states, symbols 0–2, some rules
    /// entering the output state; initial tapes of a few cells.
    fn random_machine(seed: u64) -> (Vec<Rule>, Vec<i64>) {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let states = 2 + next(3) as i64;
        let mut rules = Vec::new();
        for s in [0].into_iter().chain(3..2 + states) {
            for read in 0..3 {
                if next(8) == 0 {
                    continue;
                }
                let to = match next(12) {
                    0 => OUTPUT,
                    1 => 0,
                    k => 3 + (k as i64 % (states - 1)),
                };
                rules.push(rule(s, read, to, next(3) as i64, next(2) == 0));
            }
        }
        rules.sort_by_key(|r| (r.state, r.read));
        let tape = (0..next(40)).map(|_| next(3) as i64).collect();
        (rules, tape)
    }

    #[test]
    fn random_machines_end_as_with_single_steps() {
        for seed in 0..300 {
            let (rules, tape) = random_machine(seed);
            for limit in [Some(1), Some(50), Some(777), Some(20_000), None] {
                let limit = limit.or(Some(200_000));
                assert_eq!(
                    outcome(&rules, &tape, limit, true),
                    outcome(&rules, &tape, limit, false),
                    "seed {seed}, limit {limit:?}, rules {rules:?}"
                );
            }
        }
    }

    #[test]
    fn macro_steps_that_do_not_pay_are_dropped() {
        // A bounce between markers 40 cells apart: every macro step
        // crosses a block, 16 steps a lookup.
        let rules = vec![
            rule(0, 0, 0, 0, false),
            rule(0, 1, 0, 1, false),
            rule(0, 2, 3, 2, true),
            rule(3, 0, 3, 0, true),
            rule(3, 1, 0, 1, false),
        ];
        let mut initial = vec![1];
        initial.extend([0; 40]);
        initial.push(2);
        let mut tape = Tape::new(&initial);
        let (mut state, entered_by) = (0, Cell::new((0, 0)));
        let mut steps = StepCounter::new(&Options::with_max_steps(100_000));
        assert!(!run(
            &rules,
            &[0],
            &mut tape,
            &mut state,
            &entered_by,
            &mut steps
        ));
        assert_eq!((steps.executed(), state, tape.head()), (0, 0, 0));
        assert_eq!(tape.cells(), &initial[..]);
        assert_eq!(
            outcome(&rules, &initial, Some(100_000), true),
            outcome(&rules, &initial, Some(100_000), false)
        );
    }

    #[test]
    fn machines_with_many_symbols_are_left_to_single_steps() {
        let rules: Vec<Rule> = (0..20).map(|read| rule(0, read, 0, read, false)).collect();
        let mut tape = Tape::new(&[3]);
        let mut state = 0;
        let mut steps = StepCounter::new(&Options::default());
        run(
            &rules,
            &[0],
            &mut tape,
            &mut state,
            &Cell::new((0, 0)),
            &mut steps,
        );
        assert_eq!((steps.executed(), tape.cells()), (0, &[3][..]));
    }
}
