//! The CPU time this thread has used, from Linux's `/proc/thread-self/schedstat`.
//!
//! On a shared machine wall-clock time counts the time other processes held the CPU, so the
//! bench also reports commands per CPU-second, which is steadier there. Elsewhere (no such
//! file) only wall-clock figures are reported.

use std::time::Duration;

/// Time this thread has spent on a CPU, if the platform tells.
pub fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanoseconds: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanoseconds))
}
