//! A matchmaker's disk as the world keeps it: the writes that reached it, oldest first, framed
//! ([`encode`]) only when a restart reads them back. The writes of each step are one link of a
//! list shared between a world and its copies, so a step appends without copying the disk.

use paros_core::matchmaker::{MatchmakerWrite, encode};
use std::sync::Arc;

/// Every write that reached one matchmaker's disk.
#[derive(Clone, Debug, Default)]
pub(super) struct Disk(Option<Arc<Written>>);

/// The writes of one step, after those of the steps before.
#[derive(Debug)]
struct Written {
    writes: Arc<[MatchmakerWrite]>,
    earlier: Disk,
}

impl Disk {
    /// The disk with `writes` appended, in order; the same disk when there are none.
    pub(super) fn with(&self, writes: Arc<[MatchmakerWrite]>) -> Disk {
        if writes.is_empty() {
            return self.clone();
        }
        Disk(Some(Arc::new(Written {
            writes,
            earlier: self.clone(),
        })))
    }

    /// The disk's frames, oldest first, as the matchmaker wrote them.
    pub(super) fn frames(&self) -> Vec<Vec<u8>> {
        let mut links = Vec::new();
        let mut at = self.0.as_deref();
        while let Some(written) = at {
            links.push(&written.writes);
            at = written.earlier.0.as_deref();
        }
        (links.into_iter().rev())
            .flat_map(|writes| writes.iter().map(encode))
            .collect()
    }

    /// The disk without its last write (a torn frame, never acknowledged).
    pub(super) fn without_last(&self) -> Disk {
        let Some(written) = self.0.as_deref() else {
            return Disk::default();
        };
        let kept = &written.writes[..written.writes.len() - 1];
        written.earlier.with(kept.into())
    }
}

impl Drop for Written {
    /// Unlinks the earlier writes one link at a time, so a long disk is not dropped by
    /// recursion.
    fn drop(&mut self) {
        let mut earlier = self.earlier.0.take();
        while let Some(link) = earlier {
            earlier = match Arc::try_unwrap(link) {
                Ok(mut written) => written.earlier.0.take(),
                Err(_) => None,
            };
        }
    }
}
