//! M5's proof token: the garbage-collection watermark `f+1` matchmakers acknowledged. Its
//! fields are private to this file and its one constructor counts the acknowledgements, so a
//! [`GcProof`] exists only where the fact it proves has become true.

use crate::{Ballot, NodeId, NodeSet};
use std::collections::BTreeMap;

/// How many matchmakers make a quorum: `f+1` of `2f+1`, that is a majority of them.
///
/// Any two sets of `f+1` matchmakers share one, so a leader's `f+1` replies include a
/// matchmaker that recorded every earlier round that got `f+1` replies of its own.
pub fn quorum_of_matchmakers(matchmakers: NodeSet) -> usize {
    matchmakers.len() / 2 + 1
}

/// M5's proof: the garbage-collection watermark that `f+1` matchmakers acknowledged, with the
/// acceptors that remain (those of the configuration of the collecting leader's round). A
/// removed acceptor retires only on a request that carries one.
///
/// Minted only by its constructor in this file, `from_acknowledgements`, which counts them itself;
/// nothing else, in this crate or outside it, can build one:
///
/// ```compile_fail,E0451
/// use paros_core::matchmaker::GcProof;
/// use paros_core::{Ballot, NodeId, NodeSet};
/// let node = NodeId::new(1).unwrap();
/// let forged = GcProof { watermark: Ballot::new(9, node), remaining: NodeSet::EMPTY };
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct GcProof {
    watermark: Ballot,
    remaining: NodeSet,
}

impl GcProof {
    /// M4 and M5: mints the proof once `f+1` of `matchmakers` acknowledged a watermark, at the
    /// lowest watermark among them (every one of them collected at least that much); `None`
    /// while fewer did. Acknowledgements from outside `matchmakers` do not count.
    pub(super) fn from_acknowledgements(
        acknowledged: &BTreeMap<NodeId, Ballot>,
        matchmakers: NodeSet,
        remaining: NodeSet,
    ) -> Option<GcProof> {
        let counted = || {
            acknowledged
                .iter()
                .filter(|(matchmaker, _)| matchmakers.contains(**matchmaker))
        };
        if counted().count() < quorum_of_matchmakers(matchmakers) {
            return None;
        }
        let watermark = counted().map(|(_, watermark)| *watermark).min()?;
        Some(GcProof {
            watermark,
            remaining,
        })
    }

    /// The watermark every one of `f+1` matchmakers acknowledged: configurations below it are
    /// collected and no future history holds them.
    pub fn watermark(&self) -> Ballot {
        self.watermark
    }

    /// The acceptors of the collecting leader's configuration: they stay.
    pub fn remaining(&self) -> NodeSet {
        self.remaining
    }
}
