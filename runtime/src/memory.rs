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
//! program holds at its largest. Collections keep their capacity; buffers
//! that are dropped to be grown again later give their memory back
//! ([`free`], [`free_table`]). A hash table is held in [`Charged`], which
//! remembers what it was charged: a table's reported capacity shrinks when
//! removals leave tombstones, so it cannot say what it holds.
//!
//! [`Options::max_memory`]: super::limits::Options::max_memory

use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hash};
use std::mem;
use std::ops::{Deref, DerefMut};

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

/// Why growth was refused. One byte, so that hot code returning
/// `Result<_, Refused>` stays in registers; it becomes the run's error
/// with [`From`] (on the thread of the run, which knows the limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The run would hold more than its limit.
    OverLimit,
    /// The system gave no more memory.
    System,
}

impl From<Refused> for ErrorKind {
    fn from(refused: Refused) -> ErrorKind {
        match refused {
            Refused::OverLimit => ErrorKind::MemoryLimit {
                limit: BUDGET.with(|cell| cell.get().limit),
            },
            Refused::System => ErrorKind::OutOfMemory,
        }
    }
}

/// Charges `bytes` to the current run: refused if the run would hold more
/// than its limit.
pub fn charge(bytes: u64) -> Result<(), Refused> {
    BUDGET.with(|cell| {
        let mut budget = cell.get();
        match budget.used.checked_add(bytes) {
            Some(used) if used <= budget.limit => {
                budget.used = used;
                cell.set(budget);
                Ok(())
            }
            _ => Err(Refused::OverLimit),
        }
    })
}

/// Room in `vec` for `additional` more elements, charged to the current
/// run when its capacity grows (it doubles, as `Vec` does).
#[inline(always)]
pub fn reserve<T>(vec: &mut Vec<T>, additional: usize) -> Result<(), Refused> {
    if vec.capacity() - vec.len() >= additional {
        return Ok(());
    }
    grow(vec, additional)
}

/// The bytes a vector of `capacity` elements of `T` holds.
fn vec_bytes<T>(capacity: usize) -> u64 {
    capacity as u64 * mem::size_of::<T>() as u64
}

/// [`reserve`] when the capacity must grow.
#[cold]
#[inline(never)]
fn grow<T>(vec: &mut Vec<T>, additional: usize) -> Result<(), Refused> {
    let needed = vec.len().checked_add(additional).ok_or(Refused::System)?;
    let old = vec.capacity();
    let capacity = needed.max(old.saturating_mul(2)).max(4);
    charge(vec_bytes::<T>(capacity) - vec_bytes::<T>(old))?;
    if vec.try_reserve_exact(capacity - vec.len()).is_err() {
        release(vec_bytes::<T>(capacity) - vec_bytes::<T>(old));
        return Err(Refused::System);
    }
    // The allocator may give more than asked: the charge is what it gave.
    settle(vec_bytes::<T>(capacity), vec_bytes::<T>(vec.capacity()));
    Ok(())
}

/// Pushes `value` on `vec`, growing it with [`reserve`].
#[inline(always)]
pub fn push<T>(vec: &mut Vec<T>, value: T) -> Result<(), Refused> {
    reserve(vec, 1)?;
    vec.push(value);
    Ok(())
}

/// Gives `vec`'s memory back to the current run's budget and empties it
/// (for buffers dropped instead of cleared, which grow again later).
pub fn free<T>(vec: &mut Vec<T>) {
    release(vec_bytes::<T>(vec.capacity()));
    *vec = Vec::new();
}

/// A hash table whose growth is charged: [`HashMap`] and [`HashSet`].
pub trait Table {
    /// The bytes one slot holds: an entry and a control byte.
    const SLOT: u64;
    /// Entries stored.
    fn stored(&self) -> usize;
    /// Entries the table holds without growing.
    fn capacity(&self) -> usize;
    /// Grows the table for `additional` more entries, if the system gives
    /// the memory.
    fn try_grow(&mut self, additional: usize) -> bool;
    /// An empty table, its memory given back to the system.
    fn dropped(&mut self);
}

impl<K: Eq + Hash, V, S: BuildHasher + Default> Table for HashMap<K, V, S> {
    const SLOT: u64 = mem::size_of::<(K, V)>() as u64 + 1;
    fn stored(&self) -> usize {
        HashMap::len(self)
    }
    fn capacity(&self) -> usize {
        HashMap::capacity(self)
    }
    fn try_grow(&mut self, additional: usize) -> bool {
        self.try_reserve(additional).is_ok()
    }
    fn dropped(&mut self) {
        *self = HashMap::default();
    }
}

impl<K: Eq + Hash, S: BuildHasher + Default> Table for HashSet<K, S> {
    const SLOT: u64 = mem::size_of::<K>() as u64 + 1;
    fn stored(&self) -> usize {
        HashSet::len(self)
    }
    fn capacity(&self) -> usize {
        HashSet::capacity(self)
    }
    fn try_grow(&mut self, additional: usize) -> bool {
        self.try_reserve(additional).is_ok()
    }
    fn dropped(&mut self) {
        *self = HashSet::default();
    }
}

/// The bytes a table of `T` holding `capacity` entries takes (an
/// estimate: a table keeps an eighth of its slots free, so it holds 8/7 of
/// its capacity).
fn table_bytes<T: Table>(capacity: usize) -> u64 {
    capacity as u64 * T::SLOT * 8 / 7
}

/// A hash table whose growth is charged to the run ([`reserve_entries`]),
/// with what it was charged; it derefs to the table.
#[derive(Clone, Debug, Default)]
pub struct Charged<T> {
    table: T,
    charged: u64,
}

impl<T> Deref for Charged<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.table
    }
}

impl<T> DerefMut for Charged<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.table
    }
}

/// Room in `table` for `additional` more entries, charged to the current
/// run when the table grows.
#[inline]
pub fn reserve_entries<T: Table>(table: &mut Charged<T>, additional: usize) -> Result<(), Refused> {
    if table.table.capacity() - table.table.stored() >= additional {
        return Ok(());
    }
    grow_table(table, additional)
}

/// [`reserve_entries`] when the table is full: the limit is tested with
/// the table doubled, then the charge becomes what the table holds (a
/// table full of tombstones is rehashed in place and costs nothing more).
#[cold]
#[inline(never)]
fn grow_table<T: Table>(table: &mut Charged<T>, additional: usize) -> Result<(), Refused> {
    let needed = table
        .table
        .stored()
        .checked_add(additional)
        .ok_or(Refused::System)?;
    let doubled = needed.max(table.table.capacity().saturating_mul(2)).max(4);
    let extra = table_bytes::<T>(doubled).saturating_sub(table.charged);
    charge(extra)?;
    if !table.table.try_grow(additional) {
        release(extra);
        return Err(Refused::System);
    }
    let holds = table_bytes::<T>(table.table.capacity()).max(table.charged);
    settle(table.charged + extra, holds);
    table.charged = holds;
    Ok(())
}

/// Gives `table`'s memory back to the current run's budget and empties it
/// (for tables dropped instead of cleared, which grow again later).
pub fn free_table<T: Table>(table: &mut Charged<T>) {
    release(table.charged);
    table.charged = 0;
    table.table.dropped();
}

/// Gives `bytes` back to the current run's budget.
fn release(bytes: u64) {
    BUDGET.with(|cell| {
        let mut budget = cell.get();
        budget.used = budget.used.saturating_sub(bytes);
        cell.set(budget);
    });
}

/// Corrects a charge of `estimated` bytes to the `actual` bytes allocated
/// (the limit was tested with the estimate; what the allocator rounds up
/// beyond it is let through).
fn settle(estimated: u64, actual: u64) {
    if actual > estimated {
        BUDGET.with(|cell| {
            let mut budget = cell.get();
            budget.used = budget.used.saturating_add(actual - estimated);
            cell.set(budget);
        });
    } else {
        release(estimated - actual);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;
    use std::hash::BuildHasherDefault;

    /// What the current run holds.
    fn used() -> u64 {
        BUDGET.with(|cell| cell.get().used)
    }

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
        assert_eq!(kind, Refused::OverLimit);
        assert!(matches!(
            ErrorKind::from(kind),
            ErrorKind::MemoryLimit { limit: 1_000 }
        ));
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
        let mut map: Charged<HashMap<u32, u32>> = Charged::default();
        for i in 0..100 {
            reserve_entries(&mut map, 1).unwrap();
            let capacity = map.capacity();
            map.insert(i, i);
            assert_eq!(map.capacity(), capacity, "reserved room is used");
        }
    }

    #[test]
    fn freed_buffers_give_their_memory_back() {
        let _scope = Scope::enter(100_000);
        // Grown and freed a thousand times, a 48-KB buffer stays within a
        // 100-KB budget: only what is held counts.
        for _ in 0..1_000 {
            let mut cells: Vec<u64> = Vec::new();
            reserve(&mut cells, 6_000).expect("held memory fits");
            let mut seen: Charged<HashSet<u64, BuildHasherDefault<DefaultHasher>>> =
                Charged::default();
            for i in 0..1_000 {
                reserve_entries(&mut seen, 1).expect("held memory fits");
                seen.insert(i);
            }
            free(&mut cells);
            free_table(&mut seen);
            assert_eq!(seen.capacity(), 0);
        }
        assert!(used() < 100, "{} bytes still charged", used());
    }

    #[test]
    fn removals_do_not_add_to_a_tables_charge() {
        let _scope = Scope::enter(1 << 20);
        let mut live: Charged<HashSet<u64, BuildHasherDefault<DefaultHasher>>> = Charged::default();
        // A million insertions and removals, never more than 100 entries
        // held: tombstones lower the reported capacity, which must not be
        // charged again.
        for i in 0..1_000_000u64 {
            reserve_entries(&mut live, 1).expect("100 entries fit in 1 MiB");
            live.insert(i);
            if i >= 100 {
                live.remove(&(i - 100));
            }
        }
        assert!(used() < 10_000, "{} bytes charged", used());
    }

    #[test]
    fn maps_are_charged_as_they_grow() {
        let _scope = Scope::enter(10_000);
        let mut map: Charged<HashMap<u64, u64>> = Charged::default();
        let mut stored = 0u64;
        while reserve_entries(&mut map, 1).is_ok() {
            map.insert(stored, stored);
            stored += 1;
            assert!(stored < 10_000, "the limit stops the map");
        }
        assert!(stored >= 100, "{stored} entries");
    }
}
