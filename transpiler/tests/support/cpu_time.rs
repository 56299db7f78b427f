//! The CPU time the calling thread has used, for tests that guard against
//! pathological slowness: unlike wall-clock time it does not grow when other
//! processes keep the machine's cores busy.

use std::time::{Duration, Instant};

/// Measures the CPU time of the current thread from now on.
pub struct CpuTimer {
    start: Option<Duration>,
    wall: Instant,
}

impl CpuTimer {
    /// Starts measuring.
    pub fn start() -> CpuTimer {
        CpuTimer {
            start: thread_cpu_time(),
            wall: Instant::now(),
        }
    }

    /// The CPU time this thread used since [`CpuTimer::start`]; where the
    /// system does not say (not Linux), the wall-clock time instead.
    pub fn elapsed(&self) -> Duration {
        match (self.start, thread_cpu_time()) {
            (Some(start), Some(now)) => now.saturating_sub(start),
            _ => self.wall.elapsed(),
        }
    }
}

/// User plus system time of the calling thread: from
/// `/proc/thread-self/schedstat` (its first field, in nanoseconds), else
/// `/proc/thread-self/stat` (fields 14 and 15, in clock ticks of 1/100 s).
fn thread_cpu_time() -> Option<Duration> {
    let nanoseconds = std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|stat| stat.split_whitespace().next()?.parse::<u64>().ok());
    if let Some(nanoseconds) = nanoseconds {
        return Some(Duration::from_nanos(nanoseconds));
    }
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces.
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // after_name starts at field 3, so field n is fields[n - 3].
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_work_takes_cpu_time_and_sleep_does_not() {
        let timer = CpuTimer::start();
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            timer.elapsed() < Duration::from_millis(200),
            "{:?}",
            timer.elapsed()
        );
        let timer = CpuTimer::start();
        let mut x = 0u64;
        while timer.elapsed() < Duration::from_millis(50) {
            x = std::hint::black_box(x.wrapping_add(1));
        }
        assert!(x > 0);
    }
}
