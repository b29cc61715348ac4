//! The settings every node of a cluster shares: [`LogConfig`], with its quorum system, its proxy
//! leaders, its accept batch and its slot window.
//!
//! Invariants: the quorum system is over exactly the cluster's nodes, and F1 holds already (a
//! [`Quorums`] cannot be built without it); no proxy is a node of the cluster; the accept batch
//! is at least 1, and 1 whenever there are proxies; the slot window is at least the accept
//! batch. A configuration that breaks one is refused with a typed error ([`QuorumError`],
//! [`ProxiesRefused`], [`SlotWindowRefused`], and with `accept-batch` `AcceptBatchRefused`).

use super::window::DEFAULT_SLOT_WINDOW;
use crate::{Majority, NodeId, NodeSet, QuorumError, QuorumSystem, Quorums};
use std::fmt;
use std::num::NonZeroU64;

/// The settings every node of a cluster shares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct LogConfig {
    /// The nodes of the cluster; each is an acceptor, and any may lead.
    pub nodes: NodeSet,
    /// Ticks without hearing a leader before a follower stands for election.
    pub election_timeout_ticks: u32,
    /// Ticks between a leader's heartbeats.
    pub heartbeat_interval_ticks: u32,
    /// The most chosen entries one catch-up message carries.
    pub catch_up_batch: usize,
    /// The quorum system the nodes count with; over `nodes` ([`LogConfig::with_quorums`]).
    pub(super) quorums: Quorums,
    /// The proxy leaders a leader sends its Accepts through; none by default
    /// ([`LogConfig::with_proxies`]).
    pub(super) proxies: NodeSet,
    /// The most consecutive slots one Accept carries; 1 by default
    /// ([`LogConfig::with_accept_batch`]).
    ///
    /// Invariant: at least 1, and 1 whenever `proxies` is not empty.
    pub(super) accept_batch: usize,
    /// How far above its chosen index a message may name a slot ([`window_end`]);
    /// [`DEFAULT_SLOT_WINDOW`] unless set ([`LogConfig::with_slot_window`]).
    ///
    /// Invariant: at least `accept_batch` ([`window_holds_a_run`]).
    ///
    /// [`window_end`]: crate::log::window_end
    pub(super) slot_window: u64,
}

impl LogConfig {
    /// A cluster of `nodes` with majority quorums, an election timeout of 3 ticks and a
    /// heartbeat every tick. An empty cluster has no quorum, so it never elects.
    pub fn new(nodes: NodeSet) -> LogConfig {
        LogConfig {
            nodes,
            election_timeout_ticks: 3,
            heartbeat_interval_ticks: 1,
            catch_up_batch: 8,
            quorums: Quorums::Majority(Majority::over(nodes)),
            proxies: NodeSet::EMPTY,
            accept_batch: 1,
            slot_window: DEFAULT_SLOT_WINDOW,
        }
    }

    /// This configuration with `quorums` in place of its quorum system; refused unless they are
    /// over exactly the cluster's nodes. F1 holds already: a [`Quorums`] cannot be built
    /// without it.
    pub fn with_quorums(self, quorums: Quorums) -> Result<LogConfig, QuorumError> {
        let over = quorums.acceptors();
        if over != self.nodes {
            return Err(QuorumError::OtherAcceptors {
                cluster: self.nodes,
                quorums: over,
            });
        }
        Ok(LogConfig { quorums, ..self })
    }

    /// The quorum system the nodes count with: Phase-1 quorums for every discovery step,
    /// Phase-2 quorums for every recording step ([`heard_from_a_discovery_quorum`],
    /// [`chosen_by_a_recording_quorum`]).
    ///
    /// [`heard_from_a_discovery_quorum`]: crate::log::heard_from_a_discovery_quorum
    /// [`chosen_by_a_recording_quorum`]: crate::log::chosen_by_a_recording_quorum
    pub fn quorums(&self) -> &Quorums {
        &self.quorums
    }

    /// This configuration with its leaders sending each Accept through one of `proxies`
    /// ([`ProxyLeader`](crate::log::ProxyLeader), P1–P5) instead of to every node; refused if a
    /// proxy is a node of the cluster, or when the configuration batches its Accepts
    /// ([`LogConfig::with_accept_batch`]): a proxy forwards and counts one slot at a time.
    pub fn with_proxies(self, proxies: NodeSet) -> Result<LogConfig, ProxiesRefused> {
        if let Some(node) = proxies.intersection(self.nodes).iter().next() {
            return Err(ProxiesRefused::ProxyIsANode(node));
        }
        #[cfg(feature = "accept-batch")]
        if self.batches_accepts() && !proxies.is_empty() {
            return Err(ProxiesRefused::AcceptsBatched);
        }
        Ok(LogConfig { proxies, ..self })
    }

    /// The proxy leaders Accepts go through; empty when leaders send them to every node.
    pub fn proxies(&self) -> NodeSet {
        self.proxies
    }

    /// The most consecutive slots one Accept carries; 1 unless batched.
    pub fn accept_batch(&self) -> usize {
        self.accept_batch
    }

    /// Whether leaders send runs of slots (`LogConfig::with_accept_batch`, with the
    /// `accept-batch` feature).
    pub(crate) fn batches_accepts(&self) -> bool {
        self.accept_batch > 1
    }

    /// This configuration with a slot window of `window`: a message naming a slot more than
    /// `window` above a node's chosen index is ignored ([`window_end`]). Catch-up works with any
    /// window ([`catch_up_end`]). Refused below the accept batch ([`window_holds_a_run`]).
    ///
    /// [`window_end`]: crate::log::window_end
    /// [`catch_up_end`]: crate::log::catch_up_end
    pub fn with_slot_window(self, window: NonZeroU64) -> Result<LogConfig, SlotWindowRefused> {
        let window = window.get();
        if !window_holds_a_run(window, self.accept_batch) {
            return Err(SlotWindowRefused::BelowAcceptBatch {
                window,
                accept_batch: self.accept_batch,
            });
        }
        Ok(LogConfig {
            slot_window: window,
            ..self
        })
    }

    /// How far above its chosen index a message may name a slot to a node
    /// ([`DEFAULT_SLOT_WINDOW`] unless set).
    pub fn slot_window(&self) -> u64 {
        self.slot_window
    }
}

/// The run-in-window rule: a slot window of `window` slots admits an accept batch of `batch`
/// only if `batch <= window`.
///
/// A follower takes a run whole or not at all, and ignores one whose last slot lies beyond its
/// window ([`window_end`](crate::log::window_end)). A leader in step with its followers opens a
/// run just above their chosen index and fills it up to the batch, so with a window below the
/// batch every full run would be ignored by every follower, each time it is sent: the leader
/// would choose nothing once its pipeline filled a run. Both ways of building such a
/// configuration are refused ([`LogConfig::with_slot_window`] and, with `accept-batch`,
/// `LogConfig::with_accept_batch`).
pub fn window_holds_a_run(window: u64, batch: usize) -> bool {
    u64::try_from(batch).is_ok_and(|batch| batch <= window)
}

/// Why [`LogConfig::with_slot_window`] refused a slot window.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum SlotWindowRefused {
    /// The window is smaller than the accept batch ([`window_holds_a_run`]).
    BelowAcceptBatch {
        /// The window asked for.
        window: u64,
        /// The configuration's accept batch.
        accept_batch: usize,
    },
}

impl fmt::Display for SlotWindowRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SlotWindowRefused::BelowAcceptBatch {
                window,
                accept_batch,
            } => write!(
                f,
                "a slot window of {window} is smaller than the accept batch of {accept_batch}: \
                 every full run would lie beyond a follower's window"
            ),
        }
    }
}

impl std::error::Error for SlotWindowRefused {}

/// Why [`LogConfig::with_proxies`] refused a cluster's proxy leaders.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ProxiesRefused {
    /// This proxy is a node of the cluster: a proxy is a role of its own, with no vote.
    ProxyIsANode(NodeId),
    /// The configuration batches its Accepts ([`LogConfig::with_accept_batch`]), and a proxy
    /// forwards and counts one slot's Accept at a time.
    #[cfg(feature = "accept-batch")]
    AcceptsBatched,
}

impl fmt::Display for ProxiesRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProxiesRefused::ProxyIsANode(node) => {
                write!(f, "proxy {node} is a node of the cluster")
            }
            #[cfg(feature = "accept-batch")]
            ProxiesRefused::AcceptsBatched => {
                f.write_str("a cluster that batches its accepts takes no proxy leaders")
            }
        }
    }
}

impl std::error::Error for ProxiesRefused {}
