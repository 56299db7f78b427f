//! A table's loop forms as words: each closed form (counting or
//! polynomial, with its pure operations and inner loops) flattened to
//! `u32`s by the code generator ([`Form::encode`]) and read back when the
//! program starts ([`parse_forms`], [`Form::decode_all`]).

use super::super::passes::{Exit, Role};
use super::{Addend, Counting, Form, Gap, Place, Polynomial, PureOp, Test};

/// The forms of the words [`Form::encode`] wrote, in decimal.
pub fn parse_forms(text: &str) -> Result<Vec<Form>, String> {
    let words: Result<Vec<u32>, _> = text.split_ascii_whitespace().map(str::parse).collect();
    words
        .map(|words| Form::decode_all(&words))
        .map_err(|_| "the table of loop forms is malformed".to_string())
}

/// The word for "none" (an absent second cell) and for [`Addend::One`].
const NONE: u32 = u32::MAX;

/// The first word of each kind of form and of pure operation.
const COUNTING: u32 = 0;
const POLYNOMIAL: u32 = 1;
const ADD: u32 = 0;
const ASSIGN: u32 = 1;
const WATCH: u32 = 2;
const WATCH_GAP: u32 = 3;
const INNER_COUNTING: u32 = 4;
const INNER_POLYNOMIAL: u32 = 5;

/// Reads words, 0 past their end (the words are generated code's; a
/// malformed list makes wrong forms, never a panic here).
struct Words<'a> {
    words: &'a [u32],
    at: usize,
}

impl Words<'_> {
    fn next(&mut self) -> u32 {
        let word = self.words.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        word
    }

    fn place(&mut self) -> Place {
        self.next() as Place
    }

    /// `count` items read by `item`.
    fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> T) -> Vec<T> {
        let count = self.next() as usize;
        let mut items = Vec::with_capacity(count.min(self.words.len()));
        for _ in 0..count {
            items.push(item(self));
        }
        items
    }

    fn addend(&mut self) -> Addend {
        match self.next() {
            NONE => Addend::One,
            place => Addend::Place(place as Place),
        }
    }

    fn test(&mut self) -> Test {
        let (cell, var) = (self.place(), self.place());
        let also = match self.next() {
            NONE => None,
            also => Some(also as Place),
        };
        let negated = self.next() != 0;
        Test {
            cell,
            var,
            also,
            negated,
        }
    }

    fn counting(&mut self) -> Counting {
        let steps_per_pass = self.wide();
        let test = self.test();
        let changed = self.list(|words| {
            let place = words.place();
            (place, words.list(Words::addend))
        });
        Counting {
            steps_per_pass,
            changed,
            test,
        }
    }

    /// A `u64` in two words, low first.
    fn wide(&mut self) -> u64 {
        let low = u64::from(self.next());
        low | u64::from(self.next()) << 32
    }

    fn polynomial(&mut self) -> Polynomial {
        let degree = self.next() as usize;
        let warmup = self.next() != 0;
        let fixed_steps = self.wide();
        let roles = self.list(|words| {
            let word = words.next();
            let group = (word >> 8) as u16;
            match word & 0xFF {
                0 => Role::Value,
                1 => Role::Inside,
                2 => Role::Positive,
                3 => Role::Sign(group),
                _ => Role::Apart(group),
            }
        });
        let (cell, var) = (self.next() as usize, self.next() as usize);
        let also = match self.next() {
            NONE => None,
            also => Some(also as usize),
        };
        let negated = self.next() != 0;
        let state = self.list(Words::place);
        let ops = self.list(Words::pure_op);
        Polynomial {
            degree,
            warmup,
            roles,
            exit: Exit {
                cell,
                var,
                also,
                negated,
            },
            state,
            ops,
            fixed_steps,
        }
    }

    fn pure_op(&mut self) -> PureOp {
        match self.next() {
            ADD => PureOp::Add(self.place(), self.addend()),
            ASSIGN => PureOp::Assign(self.place(), self.place()),
            WATCH => PureOp::Watch(self.next(), self.addend()),
            WATCH_GAP => PureOp::WatchGap(Gap {
                slot: self.next(),
                from: self.place(),
                to: self.place(),
                plus: self.list(Words::addend),
                minus: self.list(Words::addend),
            }),
            INNER_COUNTING => PureOp::InnerCounting(self.next(), self.counting()),
            _ => {
                let slot = self.next();
                let test = self.test();
                PureOp::InnerPolynomial(slot, test, Box::new(self.polynomial()))
            }
        }
    }
}

/// Writes words (see [`Form::encode`]).
struct Writer<'a>(&'a mut Vec<u32>);

impl Writer<'_> {
    fn word(&mut self, word: u32) {
        self.0.push(word);
    }

    fn wide(&mut self, value: u64) {
        self.word(value as u32);
        self.word((value >> 32) as u32);
    }

    fn count(&mut self, count: usize) {
        self.word(count as u32);
    }

    fn addend(&mut self, addend: Addend) {
        self.word(match addend {
            Addend::One => NONE,
            Addend::Place(place) => u32::from(place),
        });
    }

    fn addends(&mut self, addends: &[Addend]) {
        self.count(addends.len());
        for &addend in addends {
            self.addend(addend);
        }
    }

    fn test(&mut self, test: Test) {
        self.word(u32::from(test.cell));
        self.word(u32::from(test.var));
        self.word(test.also.map_or(NONE, u32::from));
        self.word(u32::from(test.negated));
    }

    fn counting(&mut self, form: &Counting) {
        self.wide(form.steps_per_pass);
        self.test(form.test);
        self.count(form.changed.len());
        for (place, adds) in &form.changed {
            self.word(u32::from(*place));
            self.addends(adds);
        }
    }

    fn polynomial(&mut self, form: &Polynomial) {
        self.word(form.degree as u32);
        self.word(u32::from(form.warmup));
        self.wide(form.fixed_steps);
        self.count(form.roles.len());
        for role in &form.roles {
            self.word(match *role {
                Role::Value => 0,
                Role::Inside => 1,
                Role::Positive => 2,
                Role::Sign(group) => 3 | u32::from(group) << 8,
                Role::Apart(group) => 4 | u32::from(group) << 8,
            });
        }
        let exit = form.exit;
        self.word(exit.cell as u32);
        self.word(exit.var as u32);
        self.word(exit.also.map_or(NONE, |also| also as u32));
        self.word(u32::from(exit.negated));
        self.count(form.state.len());
        for &place in &form.state {
            self.word(u32::from(place));
        }
        self.count(form.ops.len());
        for op in &form.ops {
            self.pure_op(op);
        }
    }

    fn pure_op(&mut self, op: &PureOp) {
        match op {
            PureOp::Add(to, addend) => {
                self.word(ADD);
                self.word(u32::from(*to));
                self.addend(*addend);
            }
            PureOp::Assign(to, from) => {
                self.word(ASSIGN);
                self.word(u32::from(*to));
                self.word(u32::from(*from));
            }
            PureOp::Watch(slot, value) => {
                self.word(WATCH);
                self.word(*slot);
                self.addend(*value);
            }
            PureOp::WatchGap(gap) => {
                self.word(WATCH_GAP);
                self.word(gap.slot);
                self.word(u32::from(gap.from));
                self.word(u32::from(gap.to));
                self.addends(&gap.plus);
                self.addends(&gap.minus);
            }
            PureOp::InnerCounting(slot, form) => {
                self.word(INNER_COUNTING);
                self.word(*slot);
                self.counting(form);
            }
            PureOp::InnerPolynomial(slot, test, form) => {
                self.word(INNER_POLYNOMIAL);
                self.word(*slot);
                self.test(*test);
                self.polynomial(form);
            }
        }
    }
}

impl Form {
    /// Appends the form as words to `words`: its kind (0 counting, 1
    /// polynomial), then its fields in order — a place as its number, an
    /// absent one (and [`Addend::One`]) as `u32::MAX`, a flag as 0 or 1, a
    /// `u64` as two words (low first), a list as its length and its items,
    /// a role as its kind (value, inside, positive, sign, apart: 0-4) plus
    /// 256 times its group, a pure operation as its kind (add, assign,
    /// watch, gap, inner counting, inner polynomial: 0-5) and its fields.
    pub fn encode(&self, words: &mut Vec<u32>) {
        let mut writer = Writer(words);
        match self {
            Form::Counting(form) => {
                writer.word(COUNTING);
                writer.counting(form);
            }
            Form::Polynomial(form) => {
                writer.word(POLYNOMIAL);
                writer.polynomial(form);
            }
        }
    }

    /// The forms [`Form::encode`] wrote one after another into `words`.
    pub fn decode_all(words: &[u32]) -> Vec<Form> {
        let mut reader = Words { words, at: 0 };
        let mut forms = Vec::new();
        while reader.at < words.len() {
            forms.push(match reader.next() {
                COUNTING => Form::Counting(reader.counting()),
                _ => Form::Polynomial(reader.polynomial()),
            });
        }
        forms
    }
}
