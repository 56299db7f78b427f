//! Polynomials in a loop's pass number, for the closed forms of Chess Code
//! loops whose values are polynomials of it (induction variables: a
//! counter, the sum of a counter, the sum of that sum, …).
//!
//! A polynomial is kept in Newton form, `p(i) = Σ c_k · C(i, k)`, whose
//! coefficients are the forward differences of `p` at 0: the values
//! `p(0..=d)` of a polynomial of degree at most `d` give them exactly, in
//! integers, with no division. Arithmetic is checked `i128`; a value that
//! does not fit is `None`, which callers treat as "out of range" (for the
//! pass numbers where a loop's values still fit in `i64`, every term fits
//! easily).

/// The highest degree a closed form may have (the compiler proves a bound
/// and uses closed forms only up to this one).
pub const MAX_DEGREE: usize = 8;

/// How many Newton coefficients an owned [`Poly`] holds: enough for the
/// running sum of a polynomial of degree `MAX_DEGREE`.
const CAPACITY: usize = MAX_DEGREE + 2;

/// Turns `p(0), …, p(k - 1)` into the Newton coefficients of the
/// polynomial of degree below `k` through them, in place: after round
/// `r`, `values[j]` for `j ≥ r` is the `r`-th forward difference at
/// `j - r`. Differences of `i64` values up to order `MAX_DEGREE + 1` fit
/// in `i128`.
pub fn fit_in_place(values: &mut [i128]) {
    for round in 1..values.len() {
        for j in (round..values.len()).rev() {
            values[j] -= values[j - 1];
        }
    }
}

/// A polynomial in Newton form, `p(i) = Σ c_k · C(i, k)`, borrowed from
/// wherever its coefficients are kept (a loop's fits keep them side by
/// side in one table): `c_0 … c_d` with `c_d ≠ 0` unless `d = 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Newton<'a> {
    coefficients: &'a [i128],
}

/// The coefficients of the zero polynomial.
static ZERO: [i128; 1] = [0];

impl<'a> Newton<'a> {
    /// The polynomial with these coefficients (trailing zeros allowed).
    pub fn new(coefficients: &'a [i128]) -> Newton<'a> {
        let coefficients = match coefficients.iter().rposition(|&c| c != 0) {
            Some(degree) => &coefficients[..=degree],
            None => &ZERO,
        };
        Newton { coefficients }
    }

    /// The degree (0 for constants, including 0).
    pub fn degree(self) -> usize {
        self.coefficients.len() - 1
    }

    /// Whether this is the zero polynomial.
    #[cfg(test)]
    pub fn is_zero(self) -> bool {
        self.coefficients == ZERO
    }

    /// `p(i)`, or `None` if a term does not fit in `i128`.
    pub fn at(self, i: u64) -> Option<i128> {
        let i = i128::from(i);
        let c = self.coefficients;
        match *c {
            [c0] => return Some(c0),
            [c0, c1] => return c1.checked_mul(i)?.checked_add(c0),
            // C(i, 2) = i(i - 1)/2, an exact halving of a number ≥ 0.
            [c0, c1, c2] => {
                let pairs = i.checked_mul(i - 1)? >> 1;
                return c2
                    .checked_mul(pairs)?
                    .checked_add(c1.checked_mul(i)?)?
                    .checked_add(c0);
            }
            _ => {}
        }
        let mut sum = c[0];
        let mut binomial: i128 = 1; // C(i, k)
        for (k, &coefficient) in c.iter().enumerate().skip(1) {
            let k_ = k as i128;
            if i < k_ {
                break;
            }
            // C(i, k) = C(i, k - 1) · (i - k + 1) / k, exactly.
            binomial = binomial.checked_mul(i - k_ + 1)? / k_;
            sum = sum.checked_add(coefficient.checked_mul(binomial)?)?;
        }
        Some(sum)
    }

    /// `p(i)` as an `i64`, if it fits.
    pub fn at_i64(self, i: u64) -> Option<i64> {
        self.at(i).and_then(to_i64)
    }

    /// The forward difference `p(i + 1) - p(i)`.
    pub fn difference(self) -> Poly {
        let mut coefficients = [0; CAPACITY];
        let higher = &self.coefficients[1..];
        coefficients[..higher.len()].copy_from_slice(higher);
        Poly { coefficients }
    }

    /// The running sum `S(n) = p(0) + … + p(n - 1)` (`S(0) = 0`); `None`
    /// past degree `CAPACITY - 1`.
    #[cfg(test)]
    pub fn prefix_sum(self) -> Option<Poly> {
        let mut coefficients = [0; CAPACITY];
        coefficients
            .get_mut(1..=self.coefficients.len())?
            .copy_from_slice(self.coefficients);
        Some(Poly { coefficients })
    }

    /// The lowest and highest of `p(0), …, p(n - 1)` (`n ≥ 1`), or `None`
    /// if some value does not fit in `i128`.
    pub fn extremes(self, n: u64) -> Option<(i128, i128)> {
        let (first, last) = (self.at(0)?, self.at(n - 1)?);
        let (mut low, mut high) = (first.min(last), first.max(last));
        if let [_, c1, c2] = *self.coefficients {
            // The difference c1 + c2·i: monotone if it keeps its sign on
            // 0..n - 1 (the common case), else one turn.
            let last_difference = c2
                .checked_mul(i128::from(n.saturating_sub(2)))?
                .checked_add(c1)?;
            if (c1 >= 0) == (last_difference >= 0) || c1 == 0 || last_difference == 0 {
                return Some((low, high));
            }
        }
        if self.degree() >= 2 {
            for turn in self.turns(n)? {
                let value = self.at(turn)?;
                low = low.min(value);
                high = high.max(value);
            }
        }
        Some((low, high))
    }

    /// The first `i < n` with `p(i) = 0`, if any (`Err` if a value on the
    /// way does not fit in `i128`).
    pub fn first_zero(self, n: u64) -> Result<Option<u64>, Overflow> {
        if n == 0 {
            return Ok(None);
        }
        match *self.coefficients {
            [c0] => return Ok((c0 == 0).then_some(0)),
            // c0 + c1·i = 0 at i = -c0 / c1 if that divides evenly (in 64
            // bits, much faster to divide; larger ones take the general way).
            [c0, c1] => {
                if let (Some(c0), Some(c1)) = (to_i64(c0), to_i64(c1)) {
                    let zero = (c0.checked_rem(c1) == Some(0))
                        .then(|| c0.checked_div(c1)?.checked_neg())
                        .flatten()
                        .filter(|&i| i >= 0 && (i as u64) < n);
                    return Ok(zero.map(|i| i as u64));
                }
            }
            _ => {}
        }
        let mut start = 0;
        let mut ends = self.turns(n).ok_or(Overflow)?;
        ends.push(n - 1);
        // Between turns p is monotone: a zero is where its sign changes.
        for end in ends {
            let (a, b) = (
                self.at(start).ok_or(Overflow)?,
                self.at(end).ok_or(Overflow)?,
            );
            if a == 0 {
                return Ok(Some(start));
            }
            if (a < 0) != (b < 0) || b == 0 {
                // The first index in (start, end] whose sign differs from p(start).
                let high = self.first_sign_change(start, end, a < 0).ok_or(Overflow)?;
                if self.at(high).ok_or(Overflow)? == 0 {
                    return Ok(Some(high));
                }
            }
            start = end;
        }
        Ok(None)
    }

    /// The first `i < n` with `p(i) ≠ 0`, if any: among the first
    /// `degree + 1` values, since a polynomial that is 0 at all of them is
    /// 0 everywhere.
    pub fn first_nonzero(self, n: u64) -> Result<Option<u64>, Overflow> {
        for i in 0..n.min(self.degree() as u64 + 1) {
            if self.at(i).ok_or(Overflow)? != 0 {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// Points in `(0, n - 1)` that split `0..n` into stretches where `p`
    /// is monotone: where the difference `p(i + 1) - p(i)` changes sign.
    fn turns(self, n: u64) -> Option<Vec<u64>> {
        let mut turns = Vec::new();
        if self.degree() <= 1 || n <= 2 {
            return Some(turns);
        }
        // The difference has its own monotone stretches over 0..n - 1; in
        // each it changes sign at most once.
        let difference = self.difference();
        let difference = difference.view();
        let mut start = 0;
        let mut ends = difference.turns(n - 1)?;
        ends.push(n - 2);
        for end in ends {
            let (a, b) = (difference.at(start)?, difference.at(end)?);
            if (a < 0 && b > 0) || (a > 0 && b < 0) {
                turns.push(difference.first_sign_change(start, end, a < 0)?);
            }
            start = end;
        }
        Some(turns)
    }

    /// On a stretch `start..=end` where `p` is monotone, `p(start)` has
    /// one strict sign and `p(end)` does not: the first index whose value
    /// is not below 0 (`rising`) or not above 0. Constant time for a
    /// straight line, a binary search otherwise.
    fn first_sign_change(self, start: u64, end: u64, rising: bool) -> Option<u64> {
        if let [c0, c1] = *self.coefficients {
            // p(i) = c0 + c1·i: the first i with c0 + c1·i ≥ 0 (rising, c1 > 0)
            // or ≤ 0 (falling, c1 < 0), i.e. i ≥ -c0 / c1 rounded up.
            let (numerator, denominator) = if rising { (-c0, c1) } else { (c0, -c1) };
            let first = numerator.div_euclid(denominator)
                + i128::from(numerator.rem_euclid(denominator) != 0);
            return to_u64(first.clamp(i128::from(start), i128::from(end)));
        }
        let (mut low, mut high) = (start, end);
        while high - low > 1 {
            let middle = low + (high - low) / 2;
            let value = self.at(middle)?;
            if (rising && value < 0) || (!rising && value > 0) {
                low = middle;
            } else {
                high = middle;
            }
        }
        Some(high)
    }
}

/// A polynomial in Newton form that owns its coefficients (degree at most
/// `MAX_DEGREE + 1`); [`Newton`] is its borrowed form, with the queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Poly {
    coefficients: [i128; CAPACITY],
}

impl Poly {
    /// The polynomial of degree below `samples.len()` through
    /// `(0, samples[0]), (1, samples[1]), …` (at most `MAX_DEGREE + 2`
    /// samples are used).
    #[cfg(test)]
    pub fn fit(samples: impl IntoIterator<Item = i64>) -> Poly {
        let mut coefficients = [0i128; CAPACITY];
        let mut count = 0;
        for (slot, sample) in coefficients.iter_mut().zip(samples) {
            *slot = i128::from(sample);
            count += 1;
        }
        fit_in_place(&mut coefficients[..count]);
        Poly { coefficients }
    }

    /// Its borrowed form, with the queries.
    pub fn view(&self) -> Newton<'_> {
        Newton::new(&self.coefficients)
    }
}

/// `value` as an `i64`, if it fits (`TryFrom` is not in the prelude of
/// the 2015 edition, which `--standalone` output is built with).
pub fn to_i64(value: i128) -> Option<i64> {
    (i128::from(i64::MIN)..=i128::from(i64::MAX))
        .contains(&value)
        .then_some(value as i64)
}

/// `value` as a `u64`, if it fits.
pub fn to_u64(value: i128) -> Option<u64> {
    (0..=i128::from(u64::MAX))
        .contains(&value)
        .then_some(value as u64)
}

/// A value on the way did not fit in `i128`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow;

#[cfg(test)]
mod tests {
    use super::*;

    /// Evaluates a closure over 0..n and compares.
    fn brute(f: impl Fn(i128) -> i128, n: u64) -> Vec<i128> {
        (0..n).map(|i| f(i as i128)).collect()
    }

    fn fit_of(f: impl Fn(i128) -> i128, degree: usize) -> Poly {
        Poly::fit((0..=degree as i128).map(|i| f(i) as i64))
    }

    #[test]
    fn fits_evaluate_sums_and_differences() {
        let cube = |i: i128| 3 * i * i * i - 7 * i * i + 2 * i - 40;
        let p = fit_of(cube, 3);
        assert_eq!(p.view().degree(), 3);
        for i in 0..200u64 {
            assert_eq!(p.view().at(i), Some(cube(i as i128)));
            assert_eq!(
                p.view().difference().view().at(i),
                Some(cube(i as i128 + 1) - cube(i as i128))
            );
        }
        let sum = p.view().prefix_sum().unwrap();
        let mut running = 0;
        for i in 0..50u64 {
            assert_eq!(sum.view().at(i), Some(running));
            running += cube(i as i128);
        }
        // Larger degree than needed: the extra coefficients are 0.
        assert_eq!(fit_of(cube, 6), p);
        assert_eq!(Poly::fit([5, 5, 5]).view().degree(), 0);
        assert!(Poly::fit([0, 0]).view().is_zero());
    }

    #[test]
    fn huge_arguments_overflow_instead_of_wrapping() {
        let p = Poly::fit([0, 1, 8, 27]); // i³
        assert_eq!(p.view().at(1 << 20), Some(1 << 60));
        assert_eq!(p.view().at(u64::MAX), None);
    }

    #[test]
    fn extremes_find_interior_turns() {
        // (i - 10)² - 5 and a cubic with two turns.
        let square = |i: i128| (i - 10) * (i - 10) - 5;
        let p = fit_of(square, 2);
        assert_eq!(p.view().extremes(30), Some((-5, 356)));
        assert_eq!(p.view().extremes(5), Some((31, 95)));
        let cubic = |i: i128| (i - 5) * (i - 20) * (i - 40);
        let q = fit_of(cubic, 3);
        for n in 1..60 {
            let values = brute(cubic, n);
            let expected = (*values.iter().min().unwrap(), *values.iter().max().unwrap());
            assert_eq!(q.view().extremes(n), Some(expected), "n = {n}");
        }
    }

    #[test]
    fn zeros_and_nonzeros() {
        let cubic = |i: i128| (i - 5) * (i - 20) * (i - 40);
        let q = fit_of(cubic, 3);
        assert_eq!(q.view().first_zero(100), Ok(Some(5)));
        assert_eq!(q.view().first_zero(5), Ok(None));
        let shifted = |i: i128| cubic(i) + 1; // no integer zero
        assert_eq!(fit_of(shifted, 3).view().first_zero(100), Ok(None));
        let late = |i: i128| i * i - 1_000_000;
        assert_eq!(
            fit_of(late, 2).view().first_zero(u64::MAX / 4),
            Ok(Some(1000))
        );
        let down = |i: i128| 1_000_000 - 3 * i;
        assert_eq!(fit_of(down, 1).view().first_zero(1 << 40), Ok(None));
        assert_eq!(fit_of(down, 1).view().first_zero(400_000), Ok(None));
        let exact = |i: i128| 999_999 - 3 * i;
        assert_eq!(
            fit_of(exact, 1).view().first_zero(1 << 40),
            Ok(Some(333_333))
        );
        assert_eq!(Poly::fit([0, 0, 0]).view().first_nonzero(10), Ok(None));
        assert_eq!(Poly::fit([0, 0, 2]).view().first_nonzero(10), Ok(Some(2)));
        assert_eq!(Poly::fit([0, 0, 2]).view().first_nonzero(2), Ok(None));
    }

    #[test]
    fn brute_force_agrees_on_small_polynomials() {
        // Every cubic with small coefficients, against direct evaluation.
        for a in -2..=2i128 {
            for b in -3..=3i128 {
                for c in -4..=4i128 {
                    let f = |i: i128| a * i * i * i - 9 * b * i * i + 5 * c * i - 30;
                    let p = fit_of(f, 3);
                    for n in [1u64, 2, 3, 7, 25] {
                        let values = brute(f, n);
                        let expected =
                            (*values.iter().min().unwrap(), *values.iter().max().unwrap());
                        assert_eq!(p.view().extremes(n), Some(expected));
                        let zero = values.iter().position(|&v| v == 0).map(|z| z as u64);
                        assert_eq!(p.view().first_zero(n), Ok(zero), "{a} {b} {c} {n}");
                    }
                }
            }
        }
    }
}
