//! The model's path search: every path of a notation on the board, in the specification's order.

use super::*;

impl<'m, 'a> Search<'m, 'a> {
    pub(super) fn new(
        model: &'m Model<'a>,
        board: &'m [MCell],
        steps: &'m mut usize,
        limit: usize,
        (white, kind, from): (bool, usize, usize),
        goal: Goal,
    ) -> Self {
        Search {
            model,
            board,
            white,
            kind,
            from,
            goal,
            on_path: HashSet::new(),
            recordings: 0,
            reached: Vec::new(),
            steps,
            limit,
            record: None,
            found: None,
            ends: None,
            geometric: None,
        }
    }

    /// Runs the search; Ok(true) when it stopped at a path.
    pub(super) fn run(&mut self) -> Result<bool, Budget> {
        let mut stack = Stack {
            frames: Vec::new(),
            seqs: Vec::new(),
            items: Vec::new(),
        };
        stack.push_items(self.model.notations[self.kind], 0);
        let walk = Walk {
            square: self.from,
            lands: Vec::new(),
            here: Here::Start,
            open: false,
            must_capture: false,
            no_capture: false,
            captured: false,
            fell: false,
            promote: None,
            promote_at: None,
            effects: Vec::new(),
            recording: None,
            log: Vec::new(),
            cursor: None,
        };
        self.step(stack, walk)
    }

    pub(super) fn attack(&self) -> bool {
        matches!(self.goal, Goal::Attack { .. })
    }

    /// The keys of the walk's state at this point of the notation (module
    /// doc, "never revisits"): inside a recording round 1 two — the same
    /// round 1 whatever it recorded, and any round 1 that recorded the same.
    pub(super) fn keys(stack: &Stack<'a>, walk: &Walk<'a>) -> Vec<Key> {
        let key = Key {
            frames: stack.frames.iter().map(Frame::point).collect(),
            cursor: walk.cursor.clone(),
            scope: Scope::Free,
            square: walk.square,
            here: walk.here,
            pending_hole: walk.open && walk.here == Here::Hole,
            must_capture: walk.must_capture,
            no_capture: walk.no_capture,
            captured: walk.captured,
            leapt: !walk.lands.is_empty(),
            promote: walk.promote_at,
            effects: walk.effects.clone(),
        };
        match walk.recording {
            None => vec![key],
            Some(serial) => vec![
                Key {
                    scope: Scope::Recording(serial),
                    ..key.clone()
                },
                Key {
                    scope: Scope::Recorded(walk.log.clone()),
                    ..key
                },
            ],
        }
    }

    /// Continues the path: `stack` is what is left to do.
    pub(super) fn step(&mut self, mut stack: Stack<'a>, walk: Walk<'a>) -> Result<bool, Budget> {
        *self.steps += 1;
        if *self.steps > self.limit {
            return Err(Budget);
        }
        let keys = Self::keys(&stack, &walk);
        if keys.iter().any(|k| self.on_path.contains(k)) {
            // The same point of the notation again with nothing new: a
            // detour (see the module doc).
            return Ok(false);
        }
        self.on_path.extend(keys.iter().cloned());
        let result = self.step_inner(&mut stack, walk);
        for key in &keys {
            self.on_path.remove(key);
        }
        result
    }

    pub(super) fn step_inner(
        &mut self,
        stack: &mut Stack<'a>,
        walk: Walk<'a>,
    ) -> Result<bool, Budget> {
        let Some((frame, seq, item)) = stack.pop() else {
            return self.complete(walk);
        };
        match frame {
            Frame::Items { next, len, .. } => {
                if next == len {
                    return self.step(stack.clone(), walk);
                }
                let mut rest = stack.clone();
                rest.push_items(seq, next + 1);
                self.item(rest, walk, &seq[next], seq[next].repeats.len())
            }
            Frame::AnyLoop {
                depth,
                left,
                attempt,
                ..
            } => {
                let item = item.unwrap();
                if left == 0 {
                    // The last round: stop.
                    self.reached[attempt] = true;
                    let mut stopped = walk;
                    if stack.crooked_depth() == 0 {
                        stopped.open = false;
                    }
                    return self.step(stack.clone(), stopped);
                }
                // One more round.
                let mut again = stack.clone();
                again.push_other(
                    Frame::AnyLoop {
                        item: addr(item),
                        depth,
                        left: left - 1,
                        attempt,
                    },
                    Some(item),
                );
                again.push_other(
                    Frame::Round {
                        item: addr(item),
                        depth,
                    },
                    Some(item),
                );
                self.step(again, walk)
            }
            Frame::Round { depth, .. } => self.item(stack.clone(), walk, item.unwrap(), depth),
            Frame::Record {
                depth,
                start,
                outermost,
                left,
                attempt,
                ..
            } => {
                // Round 1 is over: its choices are the way.
                debug_assert!(walk.cursor.is_none());
                let way: Way = walk.log[start..].into();
                let mut walk = walk;
                if outermost {
                    walk.recording = None;
                    walk.log.clear();
                }
                self.same_loop(
                    stack,
                    walk,
                    item.unwrap(),
                    depth,
                    Some(way),
                    (left, attempt),
                )
            }
            Frame::SameLoop {
                depth,
                way,
                left,
                attempt,
                ..
            } => {
                let mut walk = walk;
                if let Some(way) = &way {
                    // This `*`'s own replay of round 1 is done.
                    debug_assert_eq!(walk.cursor, Some((way.clone(), way.len())));
                    walk.cursor = None;
                }
                self.same_loop(stack, walk, item.unwrap(), depth, way, (left, attempt))
            }
        }
    }

    /// After a round of `*`: stop after the last round, else once more the
    /// same way (`way`: the recorded round 1 this `*` replays itself;
    /// `None`: an enclosing replay dictates). `left`: rounds still to make.
    pub(super) fn same_loop(
        &mut self,
        stack: &Stack<'a>,
        walk: Walk<'a>,
        item: &'a Item,
        depth: usize,
        way: Option<Way>,
        (left, attempt): (usize, usize),
    ) -> Result<bool, Budget> {
        if left == 0 {
            self.reached[attempt] = true;
            return self.step(stack.clone(), walk);
        }
        let mut again = stack.clone();
        again.push_other(
            Frame::SameLoop {
                item: addr(item),
                depth,
                way: way.clone(),
                left: left - 1,
                attempt,
            },
            Some(item),
        );
        again.push_other(
            Frame::Round {
                item: addr(item),
                depth,
            },
            Some(item),
        );
        let mut walk = walk;
        if let Some(way) = &way {
            walk.cursor = Some((way.clone(), 0));
        }
        self.step(again, walk)
    }

    /// A new try of a repetition with some number of rounds.
    pub(super) fn attempt(&mut self) -> usize {
        self.reached.push(false);
        self.reached.len() - 1
    }

    /// Runs `item` with its first `depth` repetitions, then `stack`.
    /// A repetition is tried with 1 round, then 2, 3, … (spec "Legal
    /// paths": fewer repetitions before more, across its alternatives):
    /// every path of one round count comes before any of the next. The
    /// count is a choice of the round it stands in (a `*` around it
    /// repeats it).
    pub(super) fn item(
        &mut self,
        stack: Stack<'a>,
        walk: Walk<'a>,
        item: &'a Item,
        depth: usize,
    ) -> Result<bool, Budget> {
        if depth == 0 {
            return self.atom(stack, walk, &item.atom);
        }
        if item.repeats[depth - 1] == Repeat::Same && walk.cursor.is_none() && depth == 1 {
            if let Some(ways) = self.model.expanded_ways(&item.atom) {
                return self.one_rider_per_way(stack, walk, item, ways);
            }
        }
        let fixed = walk.rounds();
        let mut rounds = fixed.unwrap_or(1);
        loop {
            let attempt = self.attempt();
            if self.rounds(
                stack.clone(),
                walk.chose(rounds),
                item,
                depth,
                (rounds, attempt),
            )? {
                return Ok(true);
            }
            if fixed.is_some() || !self.reached[attempt] {
                return Ok(false);
            }
            rounds += 1;
        }
    }

    /// `item` with its first `depth` repetitions, the last making exactly
    /// `rounds` rounds, then `stack`.
    pub(super) fn rounds(
        &mut self,
        stack: Stack<'a>,
        walk: Walk<'a>,
        item: &'a Item,
        depth: usize,
        (rounds, attempt): (usize, usize),
    ) -> Result<bool, Budget> {
        let mut s = stack;
        let mut walk = walk;
        let left = rounds - 1;
        match item.repeats[depth - 1] {
            Repeat::Any => {
                // One round, then the loop decides.
                s.push_other(
                    Frame::AnyLoop {
                        item: addr(item),
                        depth: depth - 1,
                        left,
                        attempt,
                    },
                    Some(item),
                );
            }
            Repeat::Same => {
                // Round 1 any way, recorded — unless a replay dictates it.
                let after = if walk.cursor.is_some() {
                    Frame::SameLoop {
                        item: addr(item),
                        depth: depth - 1,
                        way: None,
                        left,
                        attempt,
                    }
                } else {
                    let outermost = walk.recording.is_none();
                    if outermost {
                        self.recordings += 1;
                        walk.recording = Some(self.recordings);
                        walk.log.clear();
                    }
                    Frame::Record {
                        item: addr(item),
                        depth: depth - 1,
                        start: walk.log.len(),
                        outermost,
                        left,
                        attempt,
                    }
                };
                s.push_other(after, Some(item));
            }
        }
        s.push_other(
            Frame::Round {
                item: addr(item),
                depth: depth - 1,
            },
            Some(item),
        );
        self.step(s, walk)
    }

    /// `item`'s `*` (its only repetition) over the finitely many `ways` of
    /// its atom ([`Model::expanded_ways`]), read as one rider per way: for
    /// 1, 2, 3, … rounds, each way in notation order, where every round
    /// (the first too) makes that way's choices, and the way is part of
    /// each point of the notation in it (a [`Frame::SameLoop`] and the
    /// cursor), however many rounds were made. The paths and their order
    /// are those of recording round 1; only what counts as "the same point
    /// again" differs: two landings of one path inside or after such a `*`
    /// are the same point only if they ride the same way — as the project
    /// compiles such a `*` (docs/architecture.md, "one loop per *way* of
    /// A").
    pub(super) fn one_rider_per_way(
        &mut self,
        stack: Stack<'a>,
        walk: Walk<'a>,
        item: &'a Item,
        ways: Vec<Way>,
    ) -> Result<bool, Budget> {
        let mut rounds = 1;
        loop {
            let attempt = self.attempt();
            for way in &ways {
                let mut round = stack.clone();
                round.push_other(
                    Frame::SameLoop {
                        item: addr(item),
                        depth: 0,
                        way: Some(way.clone()),
                        left: rounds - 1,
                        attempt,
                    },
                    Some(item),
                );
                round.push_other(
                    Frame::Round {
                        item: addr(item),
                        depth: 0,
                    },
                    Some(item),
                );
                let mut walk = walk.chose(rounds);
                walk.cursor = Some((way.clone(), 0));
                if self.step(round, walk)? {
                    return Ok(true);
                }
            }
            if !self.reached[attempt] {
                return Ok(false);
            }
            rounds += 1;
        }
    }

    pub(super) fn atom(
        &mut self,
        stack: Stack<'a>,
        walk: Walk<'a>,
        atom: &'a Atom,
    ) -> Result<bool, Budget> {
        match atom {
            Atom::Leap { a, b, dirs } => {
                let vectors = vectors(*a, *b, *dirs);
                for choice in walk.options(vectors.len()) {
                    let (f, r) = vectors[choice];
                    if let Some(next) = self.land(&stack, &walk.chose(choice), f, r) {
                        if self.step(stack.clone(), next)? {
                            return Ok(true);
                        }
                    }
                }
                Ok(false)
            }
            Atom::Any(alts) => {
                for choice in walk.options(alts.len()) {
                    let mut s = stack.clone();
                    s.push_items(&alts[choice], 0);
                    if self.step(s, walk.chose(choice))? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Atom::Group(seq) => {
                let mut s = stack;
                s.push_items(seq, 0);
                self.step(s, walk)
            }
            Atom::Like(symbol) => {
                let notation = self.model.notations[self.model.kinds[&symbol.value]];
                if notation.is_empty() {
                    // Spec: the piece cannot move, so "s" has no path.
                    return Ok(false);
                }
                let mut s = stack;
                s.push_items(notation, 0);
                self.step(s, walk)
            }
            Atom::Capture(seq) | Atom::NoCapture(seq) | Atom::Rank { seq, .. } => {
                let cond = match atom {
                    Atom::Capture(_) => Cond::C,
                    Atom::NoCapture(_) => Cond::M,
                    Atom::Rank { ranks, negated, .. } => Cond::Rank(*ranks, *negated),
                    _ => unreachable!(),
                };
                let Some(walk) = self.condition(walk, cond) else {
                    return Ok(false);
                };
                let mut s = stack;
                s.push_items(seq, 0);
                self.step(s, walk)
            }
            Atom::CaptureHere => match self.condition(walk, Cond::X) {
                Some(w) => self.step(stack, w),
                None => Ok(false),
            },
            Atom::Promote(t) => match self.condition(walk, Cond::P(t, addr(atom))) {
                Some(w) => self.step(stack, w),
                None => Ok(false),
            },
        }
    }

    /// `x`, `p`, `c(`, `m(`, `r(`: the walk after it, or None.
    pub(super) fn condition(&self, mut walk: Walk<'a>, cond: Cond<'a>) -> Option<Walk<'a>> {
        match cond {
            Cond::C => walk.must_capture = true,
            Cond::M => walk.no_capture = true,
            Cond::Rank(ranks, negated) => {
                let rank = self.model.rank(walk.square, self.white);
                if self.model.rank_matches(rank, ranks) == negated {
                    return None;
                }
            }
            // Spec: `x` captures the enemy piece where the move stands; a
            // second `x` on the same landing does nothing more; `x` before
            // any leap (on FROM) or on an empty square or hole is impossible.
            Cond::X => match walk.here {
                Here::Enemy => {
                    walk.here = Here::Captured;
                    walk.captured = true;
                    // Even after a fall: the square is gone for the rest of
                    // the path (see [`GONE_AFTER_X`]), so it tells walks apart.
                    walk.effects.push((walk.square, false));
                    walk.lands.last_mut().unwrap().x = true;
                }
                Here::Captured => {}
                Here::Any => walk.lands.last_mut().unwrap().x = true,
                _ => return None,
            },
            Cond::P(targets, at) => {
                if !self.attack() {
                    walk.promote = Some(targets);
                    walk.promote_at = Some(at);
                }
            }
        }
        Some(walk)
    }
    /// One leap from the walk's square. Prunes prefixes that no board
    /// check below could accept (the full check is [`path_allowed`]).
    pub(super) fn land(
        &self,
        stack: &Stack<'a>,
        walk: &Walk<'a>,
        f: i64,
        r: i64,
    ) -> Option<Walk<'a>> {
        // A landing holding an enemy must be followed by `x` before the path
        // goes on.
        if walk.here == Here::Enemy {
            return None;
        }
        // Crooked: a hole must be the last landing of its repetitions.
        if walk.open && walk.here == Here::Hole {
            return None;
        }
        let square = self.model.leap(walk.square, self.white, f, r)?;
        if self.geometric.is_some() {
            if square == self.from {
                return None;
            }
            let mut next = walk.clone();
            if walk.open {
                next.lands.last_mut().unwrap().no_hole = true;
            }
            next.lands.push(Land {
                square,
                x: false,
                no_hole: false,
            });
            next.square = square;
            next.here = Here::Any;
            next.open = stack.crooked_depth() > 0;
            return Some(next);
        }
        let here = match self.board[square] {
            MCell::Piece { white, .. } if white == self.white => return None,
            // See [`GONE_AFTER_X`].
            MCell::Piece { .. }
                if GONE_AFTER_X && walk.lands.iter().any(|l| l.x && l.square == square) =>
            {
                Here::Empty
            }
            MCell::Piece { .. } => Here::Enemy,
            MCell::Empty => Here::Empty,
            MCell::Hole if self.attack() => return None,
            MCell::Hole => Here::Hole,
        };
        // The mover's own square holds the mover (caught above).
        debug_assert_ne!(square, self.from);
        let mut next = walk.clone();
        if walk.open {
            if let Some(last) = next.lands.last_mut() {
                last.no_hole = true;
            }
        }
        next.lands.push(Land {
            square,
            x: false,
            no_hole: false,
        });
        next.square = square;
        next.here = here;
        next.open = stack.crooked_depth() > 0;
        if here == Here::Hole && !next.fell {
            next.fell = true;
            next.effects.push((square, true));
        }
        Some(next)
    }

    /// A complete path: validate it in full and decide.
    pub(super) fn complete(&mut self, walk: Walk<'a>) -> Result<bool, Budget> {
        let path = MPath {
            lands: walk.lands,
            must_capture: walk.must_capture,
            no_capture: walk.no_capture,
            promote: walk.promote,
        };
        let end = path.lands.last().map_or(self.from, |l| l.square);
        if let Some(list) = &mut self.geometric {
            if let Goal::Move { to, promote } = self.goal {
                if end == to
                    && (!path.lands.is_empty() || path.promote.is_some())
                    && promotion_matches(self.model, self.kind, &path, promote)
                    && !list.contains(&path)
                {
                    list.push(path);
                }
            }
            return Ok(false);
        }
        if let Some(ends) = &mut self.ends {
            if path_allowed(self.board, self.white, self.from, &path, false) {
                ends.push(end);
            }
            return Ok(false);
        }
        if let Some(record) = &mut self.record {
            record.push(path);
            return Ok(false);
        }
        match self.goal {
            Goal::Attack { to } => {
                Ok(end == to && path_allowed(self.board, self.white, self.from, &path, true))
            }
            Goal::Move { to, promote } => {
                if end != to
                    || !path_allowed(self.board, self.white, self.from, &path, false)
                    || !promotion_matches(self.model, self.kind, &path, promote)
                {
                    return Ok(false);
                }
                // The check rule: make the move, then no royal piece of the
                // mover may be attacked; else try the next path.
                let (cells, effects) =
                    make_move(self.board, self.white, self.kind, self.from, &path, promote);
                if royals_safe(self.model, &cells, self.white, self.steps, self.limit)? {
                    self.found = Some((path, cells, effects));
                    return Ok(true);
                }
                Ok(false)
            }
        }
    }
}
