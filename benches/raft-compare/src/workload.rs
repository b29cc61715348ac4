//! The workload both loops run: the same commands, byte for byte, and the same window.
//!
//! Inputs are deterministic: command `i` writes key `key-<i mod 1024>` with a value made of
//! `i`'s digits, so every run proposes exactly the same bytes.

use std::time::Duration;

/// Bytes of every command's key.
pub const KEY_BYTES: usize = 16;

/// The number of distinct keys the commands cycle through.
const DISTINCT_KEYS: u64 = 1024;

/// The smallest payload: a key plus room for any `u64` in decimal.
pub const MIN_PAYLOAD_BYTES: usize = KEY_BYTES + 20;

/// What one run proposes and how.
#[derive(Clone, Copy, Debug)]
pub struct Workload {
    /// Commands proposed; the run ends when the leader has applied all of them.
    pub commands: u64,
    /// Commands proposed and not yet applied on the leader, at most.
    pub window: u64,
    /// Bytes of each command: key plus value.
    pub payload_bytes: usize,
    /// The most consecutive slots one paros-core Accept carries
    /// (`LogConfig::with_accept_batch`); 1 sends one Accept per slot.
    pub accept_batch: usize,
}

impl Workload {
    /// The key of command `index` (0-based): exactly [`KEY_BYTES`] ASCII bytes.
    pub fn key(&self, index: u64) -> String {
        format!("key-{:012}", index % DISTINCT_KEYS)
    }

    /// The value of command `index`: `payload_bytes - KEY_BYTES` ASCII digits.
    pub fn value(&self, index: u64) -> String {
        format!("{index:0width$}", width = self.payload_bytes - KEY_BYTES)
    }

    /// The key and value of command `index` as one byte string: what raft-rs replicates.
    pub fn payload(&self, index: u64) -> Vec<u8> {
        let mut bytes = self.key(index).into_bytes();
        bytes.extend(self.value(index).into_bytes());
        bytes
    }
}

/// What one timed run measured, from the first proposal to the last command applied on the
/// leader. Setup and the election are not timed.
#[derive(Clone, Copy, Debug)]
pub struct Measurement {
    /// Wall-clock time of the run.
    pub elapsed: Duration,
    /// CPU time of the run, where the platform reports it.
    pub cpu: Option<Duration>,
    /// Heap allocations during the run.
    pub allocations: u64,
    /// Messages delivered between nodes during the run.
    pub messages: u64,
    /// Commands applied on the leader.
    pub commands: u64,
}

impl Measurement {
    /// Commands chosen and applied on the leader per second.
    pub fn commands_per_second(&self) -> f64 {
        self.commands as f64 / self.elapsed.as_secs_f64()
    }

    /// Commands per second of CPU time, where the platform reports it.
    pub fn commands_per_cpu_second(&self) -> Option<f64> {
        Some(self.commands as f64 / self.cpu?.as_secs_f64())
    }

    /// Heap allocations per command.
    pub fn allocations_per_command(&self) -> f64 {
        self.allocations as f64 / self.commands as f64
    }

    /// Messages delivered per command.
    pub fn messages_per_command(&self) -> f64 {
        self.messages as f64 / self.commands as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_payload_has_the_requested_size_and_the_key_first() {
        let workload = Workload {
            commands: 10,
            window: 4,
            payload_bytes: 64,
            accept_batch: 1,
        };
        for index in [0, 1, 1023, 1024, u64::MAX] {
            assert_eq!(workload.key(index).len(), KEY_BYTES);
            assert_eq!(workload.payload(index).len(), 64);
            assert!(
                workload
                    .payload(index)
                    .starts_with(workload.key(index).as_bytes())
            );
        }
        assert_eq!(workload.key(5), workload.key(5 + 1024));
        assert_ne!(workload.value(5), workload.value(5 + 1024));
    }
}
