//! The memory budget of a run: what a program grows as it runs (a Turing
//! machine's tape, InfChessPro's pieces, Finvara's stacks) is charged
//! against a limit ([`Options::max_memory`]), and grows with fallible
//! allocation, so that a program that grows without end stops with a
//! runtime error at the line that grew it (its output so far written)
//! instead of being aborted by the allocator or eating the machine's
//! memory.
//!
//! The budget belongs to the thread running the program: `run_program`
//! opens a [`Scope`] for each run, and the growth functions here charge
//! the current one. Memory is charged when a collection's capacity grows
//! (by the bytes added), not when it is used, so the charge is what the
//! program holds at its largest; what a collection gives back is not
//! credited.
//!
//! [`Options::max_memory`]: super::limits::Options::max_memory

use std::cell::Cell;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};
use std::mem;

use super::error::ErrorKind;

/// The memory a run may grow when its options set no limit: 2 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 2 << 30;

/// How much a thread's current run has grown, and its limit.
#[derive(Clone, Copy, Debug)]
struct Budget {
    used: u64,
    limit: u64,
}

thread_local! {
    /// The current run's budget (no limit outside a run).
    static BUDGET: Cell<Budget> = const { Cell::new(Budget { used: 0, limit: u64::MAX }) };
}

/// A run's budget on this thread: growth is charged against `limit` until
/// the scope ends, then the budget around it (if any) is back.
#[derive(Debug)]
pub struct Scope {
    outer: Budget,
}

impl Scope {
    /// Starts charging growth against `limit` bytes.
    pub fn enter(limit: u64) -> Scope {
        let outer = BUDGET.with(|budget| budget.replace(Budget { used: 0, limit }));
        Scope { outer }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        let outer = self.outer;
        BUDGET.with(|budget| budget.set(outer));
    }
}

/// Charges `bytes` to the current run: the memory limit's error if the
/// run would hold more than its limit.
pub fn charge(bytes: u64) -> Result<(), ErrorKind> {
    BUDGET.with(|cell| {
        let mut budget = cell.get();
        match budget.used.checked_add(bytes) {
            Some(used) if used <= budget.limit => {
                budget.used = used;
                cell.set(budget);
                Ok(())
            }
            _ => Err(ErrorKind::MemoryLimit {
                limit: budget.limit,
            }),
        }
    })
}

/// Room in `vec` for `additional` more elements, charged to the current
/// run when its capacity grows (it doubles, as `Vec` does).
#[inline(always)]
pub fn reserve<T>(vec: &mut Vec<T>, additional: usize) -> Result<(), ErrorKind> {
    if vec.capacity() - vec.len() >= additional {
        return Ok(());
    }
    grow(vec, additional)
}

/// [`reserve`] when the capacity must grow.
#[cold]
#[inline(never)]
fn grow<T>(vec: &mut Vec<T>, additional: usize) -> Result<(), ErrorKind> {
    let needed = vec
        .len()
        .checked_add(additional)
        .ok_or(ErrorKind::OutOfMemory)?;
    let capacity = needed.max(vec.capacity().saturating_mul(2)).max(4);
    let bytes = (capacity - vec.capacity()) as u64 * mem::size_of::<T>() as u64;
    charge(bytes)?;
    vec.try_reserve_exact(capacity - vec.len())
        .map_err(|_| ErrorKind::OutOfMemory)
}

/// Pushes `value` on `vec`, growing it with [`reserve`].
#[inline(always)]
pub fn push<T>(vec: &mut Vec<T>, value: T) -> Result<(), ErrorKind> {
    reserve(vec, 1)?;
    vec.push(value);
    Ok(())
}

/// Room in `map` for `additional` more entries, charged to the current
/// run when its capacity grows (at least doubling; an estimate: each slot
/// holds a key, a value and a control byte).
#[inline]
pub fn reserve_entries<K: Eq + Hash, V, S: BuildHasher>(
    map: &mut HashMap<K, V, S>,
    additional: usize,
) -> Result<(), ErrorKind> {
    if map.capacity() - map.len() >= additional {
        return Ok(());
    }
    grow_map(map, additional)
}

/// [`reserve_entries`] when the capacity must grow.
#[cold]
#[inline(never)]
fn grow_map<K: Eq + Hash, V, S: BuildHasher>(
    map: &mut HashMap<K, V, S>,
    additional: usize,
) -> Result<(), ErrorKind> {
    let needed = map
        .len()
        .checked_add(additional)
        .ok_or(ErrorKind::OutOfMemory)?;
    let capacity = needed.max(map.capacity().saturating_mul(2)).max(4);
    let slot = (mem::size_of::<(K, V)>() + 1) as u64;
    // A table keeps an eighth of its slots free: it holds 8/7 of its
    // capacity.
    charge((capacity - map.capacity()) as u64 * slot * 8 / 7)?;
    map.try_reserve(capacity - map.len())
        .map_err(|_| ErrorKind::OutOfMemory)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_past_the_limit_is_refused_and_the_scope_ends_it() {
        let _scope = Scope::enter(1_000);
        let mut cells: Vec<i64> = Vec::new();
        let mut refused = None;
        for i in 0..1_000 {
            if let Err(kind) = push(&mut cells, i) {
                refused = Some((i, kind));
                break;
            }
        }
        // Capacities 4, 8, 16, 32, 64 take 512 bytes; 128 would take 1,024.
        let (at, kind) = refused.expect("the limit refuses growth");
        assert_eq!(at, 64);
        assert!(matches!(kind, ErrorKind::MemoryLimit { limit: 1_000 }));
        {
            let _inner = Scope::enter(u64::MAX);
            assert!(
                push(&mut cells, 0).is_ok(),
                "an inner run has its own budget"
            );
        }
        assert!(charge(1_000).is_err(), "the outer budget is back");
    }

    #[test]
    fn outside_a_run_nothing_is_limited() {
        assert!(charge(u64::MAX / 2).is_ok());
        let mut map: HashMap<u32, u32> = HashMap::new();
        for i in 0..100 {
            reserve_entries(&mut map, 1).unwrap();
            let capacity = map.capacity();
            map.insert(i, i);
            assert_eq!(map.capacity(), capacity, "reserved room is used");
        }
    }

    #[test]
    fn maps_are_charged_as_they_grow() {
        let _scope = Scope::enter(10_000);
        let mut map: HashMap<u64, u64> = HashMap::new();
        let mut stored = 0u64;
        while reserve_entries(&mut map, 1).is_ok() {
            map.insert(stored, stored);
            stored += 1;
            assert!(stored < 10_000, "the limit stops the map");
        }
        assert!(stored >= 100, "{stored} entries");
    }
}
