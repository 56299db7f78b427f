//! What a game writes: the machine's values as bits, and the progress
//! through them that the search tracks.

use cozy_chess::Color;

use super::super::ir::Machine;
use super::super::syntax::Annotation;

/// Bits in a few integers: the low `len` bits of `value`, most
/// significant first. Boards have at most 32 pieces, values at most 63
/// significant bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Bits {
    pub(super) len: u32,
    pub(super) value: u64,
}

impl Bits {
    /// `text`'s bits (`'0'`/`'1'`, at most 64 of them).
    #[cfg(test)]
    pub(super) fn parse(text: &str) -> Option<Bits> {
        let len = u32::try_from(text.len()).ok().filter(|&l| l <= 64)?;
        let value = if len == 0 {
            0
        } else {
            u64::from_str_radix(text, 2).ok()?
        };
        Some(Bits { len, value })
    }

    /// The bits without their leading zeros.
    pub(super) fn significant(self) -> Bits {
        Bits {
            len: 64 - self.value.leading_zeros(),
            value: self.value,
        }
    }

    /// The `len` bits starting `from` bits after the first.
    pub(super) fn slice(self, from: u32, len: u32) -> u64 {
        let shifted = self.value >> (self.len - from - len);
        if len == 64 {
            shifted
        } else {
            shifted & ((1u64 << len) - 1)
        }
    }
}

impl std::fmt::Display for Bits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.len {
            0 => Ok(()),
            len => write!(f, "{:0width$b}", self.value, width = len as usize),
        }
    }
}

/// The bits an annotation on `board` writes, if it writes any: the
/// colours of the occupied squares read a1…h8 (white = 1), without the
/// leading 1s, the 0s after them and the marker (`lower::decode`, which
/// a unit test compares this with, on bit strings instead of bits).
pub(super) fn reading(board: &cozy_chess::Board) -> Option<Bits> {
    let white = board.colors(Color::White).0;
    // Bit i of `string`: the colour of the i-th occupied square.
    let (mut string, mut count) = (0u64, 0u32);
    let mut occupied = board.occupied().0;
    while occupied != 0 {
        let square = occupied.trailing_zeros();
        string |= ((white >> square) & 1) << count;
        count += 1;
        occupied &= occupied - 1;
    }
    let ones = (!string).trailing_zeros().min(count);
    let after_ones = string >> ones;
    if after_ones == 0 {
        return None;
    }
    let marker = ones + after_ones.trailing_zeros();
    let len = count - marker - 1;
    if len == 0 {
        return None;
    }
    // At most 32 pieces: the shifts stay below 64.
    let after = string >> (marker + 1);
    Some(Bits {
        len,
        value: after.reverse_bits() >> (64 - len),
    })
}

/// One value to write: a rule part or a tape symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Target {
    /// A rule part (`!`/`!!`) rather than a tape symbol (`?`/`??`).
    pub(super) part: bool,
    /// Its binary digits without leading zeros (none for 0).
    pub(super) digits: Bits,
    /// What it is, for comments: `rule 2, next state = 5`.
    pub(super) what: String,
}

impl Target {
    fn annotation(&self, starts: bool) -> Annotation {
        match (self.part, starts) {
            (true, true) => Annotation::StartPart,
            (true, false) => Annotation::ContinuePart,
            (false, true) => Annotation::StartSymbol,
            (false, false) => Annotation::ContinueSymbol,
        }
    }
}

/// The values that build `machine`: each rule's five parts (direction 0
/// for right, 1 for left), then the tape symbols.
pub(super) fn targets(machine: &Machine) -> Vec<Target> {
    // Machine values come from bit strings: never negative.
    let digits = |value: i64| {
        Bits {
            len: 64,
            value: value.unsigned_abs(),
        }
        .significant()
    };
    let mut targets = Vec::new();
    for (number, rule) in machine.rules.iter().enumerate() {
        let parts = [
            ("state", rule.rule.state),
            ("read", rule.rule.read),
            ("next state", rule.rule.next),
            ("write", rule.rule.write),
            ("direction", i64::from(rule.rule.left)),
        ];
        for (name, value) in parts {
            targets.push(Target {
                part: true,
                digits: digits(value),
                what: format!("rule {}, {name} = {value}", number + 1),
            });
        }
    }
    for (cell, &value) in machine.tape.iter().enumerate() {
        targets.push(Target {
            part: false,
            digits: digits(value),
            what: format!("tape cell {cell} = {value}"),
        });
    }
    targets
}

/// Progress through some targets, as small numbers ("slots"): for each
/// target, "not started" and then "started, its first k digits written"
/// for each k short of all of them; the slot after the last target's is
/// the end.
pub(super) struct Progress<'a> {
    targets: &'a [Target],
    /// The slot of each target's "not started".
    pub(super) first_slot: Vec<u32>,
    /// The target of each slot.
    pub(super) target_of: Vec<u32>,
    /// The end slot.
    pub(super) end: u32,
}

impl<'a> Progress<'a> {
    pub(super) fn new(targets: &'a [Target]) -> Progress<'a> {
        let mut first_slot = Vec::with_capacity(targets.len());
        let mut target_of = Vec::new();
        for (index, target) in targets.iter().enumerate() {
            first_slot.push(target_of.len() as u32);
            let slots = target.digits.len as usize + 1;
            target_of.extend(std::iter::repeat_n(index as u32, slots));
        }
        let end = target_of.len() as u32;
        Progress {
            targets,
            first_slot,
            target_of,
            end,
        }
    }

    /// The fewest plies that can finish the targets from `slot`, if no
    /// ply writes more than `most_bits` digits: each target left needs an
    /// annotated ply of its own, and each digit left a share of one.
    pub(super) fn lower_bound(&self, slot: u32, most_bits: u32) -> u32 {
        let Some(&index) = self.target_of.get(slot as usize) else {
            return 0;
        };
        let index = index as usize;
        let written = (slot - self.first_slot[index]).saturating_sub(1);
        let digits: u32 = self.targets[index..].iter().map(|t| t.digits.len).sum();
        let targets = (self.targets.len() - index) as u32;
        targets.max((digits - written).div_ceil(most_bits.max(1)))
    }

    /// The slot after writing `bits` at `slot`, and the annotation that
    /// writes them; `None` if they are not what comes next.
    pub(super) fn advance(&self, slot: u32, bits: Bits) -> Option<(u32, Annotation)> {
        let index = *self.target_of.get(slot as usize)? as usize;
        let target = &self.targets[index];
        let first = self.first_slot[index];
        // Slot `first` is "not started"; `first + 1 + k` is "k written".
        let (starts, written) = match slot - first {
            0 => (true, 0),
            started => (false, started - 1),
        };
        // Zeros before a value's first 1 change nothing.
        let bits = if written == 0 {
            bits.significant()
        } else {
            bits
        };
        if written + bits.len > target.digits.len
            || target.digits.slice(written, bits.len) != bits.value
        {
            return None;
        }
        let written = written + bits.len;
        let next = if written == target.digits.len {
            self.first_slot.get(index + 1).copied().unwrap_or(self.end)
        } else {
            first + 1 + written
        };
        Some((next, target.annotation(starts)))
    }
}

/// What an annotated ply writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Written {
    /// Its annotation.
    pub(super) annotation: Annotation,
    /// The target it writes (an index into the progress's targets).
    pub(super) target: usize,
    /// Whether it writes the target's last digits.
    pub(super) completes: bool,
    /// The bits it reads.
    pub(super) bits: Bits,
    /// The slot after it.
    pub(super) next_slot: u32,
}

impl Written {
    /// What reading `bits` at `slot` writes; `None` if they are not what
    /// comes next.
    pub(super) fn at(progress: &Progress, slot: u32, bits: Bits) -> Option<Written> {
        let (next_slot, annotation) = progress.advance(slot, bits)?;
        let target = *progress.target_of.get(slot as usize)?;
        Some(Written {
            annotation,
            target: target as usize,
            completes: progress.target_of.get(next_slot as usize) != Some(&target),
            bits,
            next_slot,
        })
    }
}
