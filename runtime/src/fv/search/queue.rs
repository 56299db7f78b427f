//! The nodes a search keeps: admitting a node (the visited set, and no
//! return to a node of its path inside a first round being recorded),
//! putting it on the stack, queueing one that starts a further round on
//! its holder until every path with fewer rounds is tried, taking it from
//! there, and popping.

use super::super::super::memory::{self, Refused};
use super::super::repeat::OUTSIDE;
use super::node::{Frame, Mark, HOLDER, ON_PATH};
use super::{NodeKey, Search};

impl Search {
    /// `frame` with the mark `mark` (a new entry of `marks` unless it is
    /// the one `frame` has, or none).
    pub(super) fn set_mark(&mut self, frame: &mut Frame, mark: Mark) -> Result<(), Refused> {
        if mark == self.marks[frame.mark as usize] {
            return Ok(());
        }
        if mark == Mark::default() {
            frame.mark = 0;
            return Ok(());
        }
        frame.mark = self.marks.len() as u32;
        memory::push(&mut self.marks, mark)
    }

    /// `frame` as a node not taken from a queue: no restored keys.
    #[inline(always)]
    pub(super) fn unrestored(&mut self, frame: &mut Frame) -> Result<(), Refused> {
        if frame.mark != 0 {
            let mark = self.marks[frame.mark as usize];
            if mark.restored != 0 {
                return self.set_mark(
                    frame,
                    Mark {
                        restored: 0,
                        ..mark
                    },
                );
            }
        }
        Ok(())
    }

    /// The key of `frame`'s node, with repetition context `context` (and
    /// the first round `frame` is in).
    pub(super) fn key(&self, frame: &Frame, context: u32) -> NodeKey {
        let square = frame.at.row * self.cols + frame.at.col;
        (
            u64::from(frame.state) | u64::from(square) << 32,
            u64::from(frame.memory.0) | u64::from(frame.effects) << 32,
            u64::from(frame.kind)
                | u64::from(frame.promote_kind) << 16
                | u64::from(frame.call) << 32,
            u64::from(context) | u64::from(self.marks[frame.mark as usize].round) << 32,
        )
    }

    /// Whether the node `frame` is new: not visited, and no return to a
    /// node of its path inside a first round being recorded (`on_path`
    /// holds those of its path). Marks it visited.
    #[inline(always)]
    pub(super) fn admits(&mut self, frame: &Frame) -> Result<bool, Refused> {
        if self.memo {
            let square = frame.at.row * self.cols + frame.at.col;
            let rest = (
                u64::from(frame.memory.0) | u64::from(frame.effects) << 32,
                u64::from(frame.promote_kind) | u64::from(frame.call) << 16,
                frame.context,
            );
            if !self.visited.insert(frame.kind, frame.state, square, rest)? {
                return Ok(false);
            }
        }
        if frame.context != OUTSIDE && self.repetitions.recording(frame.context) {
            let key = self.key(frame, self.repetitions.shape(frame.context));
            if self.on_path.contains(&key) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Puts the admitted node `frame` on the stack (and, inside a first
    /// round being recorded, its key in `on_path`).
    #[inline(always)]
    pub(super) fn enter(&mut self, mut frame: Frame) -> Result<(), Refused> {
        frame.next_edge &= HOLDER;
        if frame.context != OUTSIDE && self.repetitions.recording(frame.context) {
            let key = self.key(&frame, self.repetitions.shape(frame.context));
            memory::reserve_entries(&mut self.on_path, 1)?;
            let mark = self.marks[frame.mark as usize];
            memory::push(&mut self.chains, (key, mark.chain))?;
            self.on_path.insert(key);
            let chain = (self.chains.len() - 1) as u32;
            self.set_mark(&mut frame, Mark { chain, ..mark })?;
            frame.next_edge |= ON_PATH;
        }
        memory::push(&mut self.frames, frame)
    }

    /// Pushes the node `frame` (reached from the node on top) unless it
    /// was visited, or it returns to a node of its path inside a first
    /// round being recorded.
    #[inline(always)]
    pub(super) fn push(&mut self, mut frame: Frame) -> Result<(), Refused> {
        if !self.admits(&frame)? {
            return Ok(());
        }
        self.unrestored(&mut frame)?;
        self.enter(frame)
    }

    /// Queues the node `frame`, which starts a further round, on the
    /// holder `holder` (unless it was visited or is a detour), to be
    /// searched once every path with fewer rounds is.
    pub(super) fn defer(&mut self, mut frame: Frame, holder: u32) -> Result<(), Refused> {
        if !self.admits(&frame)? {
            return Ok(());
        }
        frame.next_edge &= !HOLDER;
        self.unrestored(&mut frame)?;
        let index = self.deferred.len() as u32;
        memory::push(&mut self.deferred, (frame, 0))?;
        let holder = holder as usize;
        let mut queue = self.holder_queues.get(holder).copied().unwrap_or(0);
        if queue == 0 {
            queue = self.queues.len() as u32;
            memory::push(&mut self.queues, (0, 0))?;
            let have = self.holder_queues.len();
            if have <= holder {
                memory::reserve(&mut self.holder_queues, holder + 1 - have)?;
                self.holder_queues.resize(holder + 1, 0);
            }
            self.holder_queues[holder] = queue;
        }
        let (head, tail) = &mut self.queues[queue as usize];
        if *tail == 0 {
            *head = index;
        } else {
            self.deferred[*tail as usize].1 = index;
        }
        *tail = index;
        Ok(())
    }

    /// Whether the node `top` of the stack is a holder with nodes in its
    /// queue.
    pub(super) fn has_queued(&self, top: usize) -> bool {
        self.frames[top].is(HOLDER)
            && self
                .holder_queues
                .get(top)
                .is_some_and(|&queue| queue != 0 && self.queues[queue as usize].0 != 0)
    }

    /// Takes the next node queued on the holder on top of the stack and
    /// pushes it. The nodes of its path between the holder and it are not
    /// on the stack: their keys go back into `on_path` while it is.
    pub(super) fn resume(&mut self, top: usize) -> Result<(), Refused> {
        let queue = self.holder_queues[top];
        let (head, tail) = &mut self.queues[queue as usize];
        let (mut frame, next) = self.deferred[*head as usize];
        *head = next;
        if next == 0 {
            *tail = 0;
        }
        let stop = self.marks[self.frames[top].mark as usize].chain;
        let mark = self.marks[frame.mark as usize];
        let mut chain = mark.chain;
        if chain != stop {
            self.set_mark(
                &mut frame,
                Mark {
                    restored: chain,
                    ..mark
                },
            )?;
            while chain != stop && chain != 0 {
                let (key, before) = self.chains[chain as usize];
                memory::reserve_entries(&mut self.on_path, 1)?;
                self.on_path.insert(key);
                chain = before;
            }
        }
        self.enter(frame)
    }

    /// Pops the top node (its edges are all tried).
    pub(super) fn pop(&mut self) {
        if let Some(frame) = self.frames.pop() {
            if frame.is(ON_PATH) {
                let key = self.key(&frame, self.repetitions.shape(frame.context));
                self.on_path.remove(&key);
            }
            if frame.mark != 0 {
                let restored = self.marks[frame.mark as usize].restored;
                if restored != 0 {
                    let stop = self
                        .frames
                        .get(frame.entry as usize)
                        .map_or(0, |holder| self.marks[holder.mark as usize].chain);
                    let mut chain = restored;
                    while chain != stop && chain != 0 {
                        let (key, before) = self.chains[chain as usize];
                        self.on_path.remove(&key);
                        chain = before;
                    }
                }
            }
        }
    }
}
