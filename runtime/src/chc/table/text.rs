//! A table's lines as text: one line of the program a line of text,
//! its operation and places by name, written by the code generator
//! ([`write_line`]) and read when the program starts ([`parse_lines`]).

use super::{Op, Place, Test};

/// Appends line `at` doing `op` to `out`, as [`parse_lines`] reads it:
/// the source line, then the operation with places by name (`a1` … `h8`,
/// `R N B Q K`): `nop`, `copy TO FROM`, `add TO FROM`, `inc TO`, `out
/// CELL`, `in CELL`, `in VAR CELL`, `ascii`, `raw`, `poly FORM` (a
/// polynomial loop's label), and a loop's condition `back LABEL TEST`,
/// with ` count FORM` or ` poly FORM` if it has a closed form: LABEL is
/// the index of its label among the lines, TEST as in Chess Code
/// (`b1=R+`, `c1xd1=K`).
pub fn write_line(out: &mut String, at: u32, op: Op, label: u32) {
    let name = place_name;
    let text = match op {
        Op::Nop => "nop".to_string(),
        Op::Copy(to, from) => format!("copy {} {}", name(to), name(from)),
        Op::Add(to, from) => format!("add {} {}", name(to), name(from)),
        Op::Increment(to) => format!("inc {}", name(to)),
        Op::Output(cell) => format!("out {}", name(cell)),
        Op::Input(cell) => format!("in {}", name(cell)),
        Op::InputBoth(var, cell) => format!("in {} {}", name(var), name(cell)),
        Op::Mode(true) => "ascii".to_string(),
        Op::Mode(false) => "raw".to_string(),
        Op::Polynomial(form) => format!("poly {form}"),
        Op::Back(test) => format!("back {label} {}", test_text(test)),
        Op::BackCounting(test, form) => format!("back {label} {} count {form}", test_text(test)),
        Op::BackPolynomial(test, form) => format!("back {label} {} poly {form}", test_text(test)),
    };
    out.push_str(&at.to_string());
    out.push(' ');
    out.push_str(&text);
    out.push('\n');
}

/// A place's name: `a1` … `h8`, `R N B Q K`.
fn place_name(place: Place) -> String {
    match place {
        0..=63 => {
            let file = char::from(b'a' + place % 8);
            let rank = char::from(b'1' + place / 8);
            format!("{file}{rank}")
        }
        _ => ["R", "N", "B", "Q", "K"]
            .get(usize::from(place) - 64)
            .unwrap_or(&"?")
            .to_string(),
    }
}

/// A place by its name (see [`place_name`]).
fn place_of(name: &str) -> Option<Place> {
    match name.as_bytes() {
        [file @ b'a'..=b'h', rank @ b'1'..=b'8'] => Some((rank - b'1') * 8 + (file - b'a')),
        [var] => b"RNBQK"
            .iter()
            .position(|v| v == var)
            .map(|index| 64 + index as Place),
        _ => None,
    }
}

/// A test as Chess Code writes it: `b1=R`, `b1xc1=R+`.
fn test_text(test: Test) -> String {
    let also = test.also.map(|also| format!("x{}", place_name(also)));
    format!(
        "{}{}={}{}",
        place_name(test.cell),
        also.unwrap_or_default(),
        place_name(test.var),
        if test.negated { "+" } else { "" }
    )
}

/// A test from [`test_text`]'s form.
fn test_of(text: &str) -> Option<Test> {
    let (places, negated) = match text.strip_suffix('+') {
        Some(places) => (places, true),
        None => (text, false),
    };
    let (cells, var) = places.split_once('=')?;
    let (cell, also) = match cells.split_once('x') {
        Some((cell, also)) => (cell, Some(place_of(also)?)),
        None => (cells, None),
    };
    Some(Test {
        cell: place_of(cell)?,
        var: place_of(var)?,
        also,
        negated,
    })
}

/// The lines [`write_line`] wrote: (source line, operation, label) each.
pub fn parse_lines(text: &str) -> Result<Vec<(u32, Op, u32)>, String> {
    let mut lines = Vec::new();
    for (index, line) in text.lines().enumerate() {
        match parse_line(line) {
            Some(parsed) => lines.push(parsed),
            None => return Err(format!("table line {}: `{line}` is malformed", index + 1)),
        }
    }
    Ok(lines)
}

/// One line of [`parse_lines`].
fn parse_line(line: &str) -> Option<(u32, Op, u32)> {
    let mut words = line.split(' ');
    let at = words.next()?.parse().ok()?;
    let mut label = 0;
    let op = match words.next()? {
        "nop" => Op::Nop,
        "ascii" => Op::Mode(true),
        "raw" => Op::Mode(false),
        "copy" => Op::Copy(next_place(&mut words)?, next_place(&mut words)?),
        "add" => Op::Add(next_place(&mut words)?, next_place(&mut words)?),
        "inc" => Op::Increment(next_place(&mut words)?),
        "out" => Op::Output(next_place(&mut words)?),
        "in" => {
            let first = next_place(&mut words)?;
            match words.next() {
                Some(cell) => Op::InputBoth(first, place_of(cell)?),
                None => Op::Input(first),
            }
        }
        "poly" => Op::Polynomial(words.next()?.parse().ok()?),
        "back" => {
            label = words.next()?.parse().ok()?;
            let test = test_of(words.next()?)?;
            match (words.next(), words.next()) {
                (None, _) => Op::Back(test),
                (Some("count"), Some(form)) => Op::BackCounting(test, form.parse().ok()?),
                (Some("poly"), Some(form)) => Op::BackPolynomial(test, form.parse().ok()?),
                _ => return None,
            }
        }
        _ => return None,
    };
    if words.next().is_some() {
        return None;
    }
    Some((at, op, label))
}

/// The next word as a place.
fn next_place<'a>(words: &mut impl Iterator<Item = &'a str>) -> Option<Place> {
    words.next().and_then(place_of)
}
