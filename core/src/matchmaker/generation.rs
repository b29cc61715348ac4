//! Matchmaker generations (M6): replacing the matchmakers themselves. Stop the old set,
//! reconstruct its state, bootstrap the new set with it, decide the successor set by
//! single-decree Paxos over the old set, and publish it.

use super::{History, MmEnvelope, MmMessage, history_from_replies, quorum_of_matchmakers};
use crate::{Ballot, Envelope, Ignored, Majority, NodeId, NodeSet, Proposer, Value};
use std::collections::BTreeMap;
use std::fmt;

/// M6, reconstruction: the state of a stopped generation from `f+1` stop reports: the highest
/// garbage-collection watermark among them, and the union of the configurations at or above it
/// ([`history_from_replies`], the same rule as a leader's M2).
///
/// Matchmaker Paxos (Whittaker et al., JSys 2021), section 6: a round whose leader heard from
/// `f+1` matchmakers is stored by at least one of any `f+1`, and once they are stopped no round
/// can get `f+1` replies any more, so the reconstruction misses no round that ran.
pub fn reconstruct<'a>(
    reports: impl IntoIterator<Item = (&'a History, Option<Ballot>)> + Clone,
) -> (History, Option<Ballot>) {
    let watermark = reports.clone().into_iter().filter_map(|(_, w)| w).max();
    (history_from_replies(reports), watermark)
}

/// M6: the successor set as the [`Value`] the old set decides on: its node numbers, in
/// ascending order, separated by commas.
pub fn successor_value(matchmakers: NodeSet) -> Value {
    let ids: Vec<String> = matchmakers.iter().map(|id| id.get().to_string()).collect();
    Value::new(&ids.join(","))
}

/// The successor set a decided [`Value`] names; `None` when it names none.
pub fn successor_from_value(value: &Value) -> Option<NodeSet> {
    let ids = value
        .as_str()
        .split(',')
        .map(|id| id.parse().ok().and_then(NodeId::new));
    let set: Option<NodeSet> = ids.collect();
    set.filter(|set| !set.is_empty())
}

/// Why a reconfiguration of the matchmakers is refused before it starts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ReconfigureRefused {
    /// The old set is empty: there is nothing to stop and nobody to decide.
    NoOldMatchmakers,
    /// The new set is empty.
    NoNewMatchmakers,
    /// M6: these matchmakers of the new set served in the current or an earlier generation
    /// ([`successors_are_new`]).
    SharedMatchmakers(NodeSet),
    /// [`Reconfigurer::next`]: the generation to replace is not published yet.
    NotPublished,
}

impl fmt::Display for ReconfigureRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReconfigureRefused::NoOldMatchmakers => f.write_str("the old matchmaker set is empty"),
            ReconfigureRefused::NoNewMatchmakers => f.write_str("the new matchmaker set is empty"),
            ReconfigureRefused::SharedMatchmakers(shared) => {
                let ids: Vec<String> = shared.iter().map(|id| id.to_string()).collect();
                write!(
                    f,
                    "{} already served in a generation: stopped for ever when it was replaced, they would refuse every round of the new one (M6)",
                    ids.join(", ")
                )
            }
            ReconfigureRefused::NotPublished => {
                f.write_str("the generation to replace is not published yet")
            }
        }
    }
}

impl std::error::Error for ReconfigureRefused {}

/// M6, the successors are new: the next generation shares no matchmaker with the current one
/// nor with any earlier one; `earlier` is every matchmaker that served so far.
///
/// Matchmaker Paxos (Whittaker et al., JSys 2021), section 6: every replaced matchmaker is
/// stopped for good, and a stopped matchmaker refuses every MatchA and every Bootstrap
/// ([`bootstrap_rule`](super::bootstrap_rule)). A set holding one could never be bootstrapped,
/// so a reconfiguration towards it would stop the current generation and publish nothing:
/// refusing it before anything is stopped keeps the current generation serving. Holding the
/// current generation alone is not enough: 11–13 → 14–16 → 11–13 shares nothing with 14–16.
/// A matchmaker carries no generation number here, so an id serves in one generation only;
/// [`Reconfigurer::next`] carries the matchmakers retired so far from one replacement to the
/// next.
pub fn successors_are_new(earlier: NodeSet, new: NodeSet) -> Result<(), ReconfigureRefused> {
    let shared = earlier.intersection(new);
    if !shared.is_empty() {
        return Err(ReconfigureRefused::SharedMatchmakers(shared));
    }
    Ok(())
}

/// Where a reconfigurer is in replacing a generation.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum GenerationStage {
    /// Not started.
    Idle,
    /// Stop sent to the old set; waiting for `f+1` reports.
    Stopping,
    /// Bootstrap sent to the new set; waiting for every one of them.
    Bootstrapping,
    /// Deciding the successor set by single-decree Paxos over the old set.
    Deciding,
    /// The successor set is decided: [`Reconfigurer::published`].
    Published,
}

/// Replaces one generation of matchmakers with the next (M6).
///
/// The decision reuses paros-core's own single-decree [`Proposer`], with the old matchmakers'
/// [`Acceptor`](crate::Acceptor)s as its acceptors: two reconfigurers racing with different
/// new sets publish the same one. Every value proposed names a set already bootstrapped, since
/// a reconfigurer proposes only after bootstrapping its own.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Reconfigurer {
    id: NodeId,
    /// The matchmakers of every generation before `old`, all stopped for ever.
    retired: NodeSet,
    old: NodeSet,
    new: NodeSet,
    stage: GenerationStage,
    stop_reports: BTreeMap<NodeId, (History, Option<Ballot>)>,
    /// The reconstructed state, once `f+1` old matchmakers stopped.
    reconstructed: Option<(History, Option<Ballot>)>,
    bootstrapped: NodeSet,
    proposer: Proposer<Majority>,
    published: Option<NodeSet>,
    outbox: Vec<MmEnvelope>,
}

impl Reconfigurer {
    /// A reconfigurer `id` that wants `new` to follow `old`, the first generation; refused
    /// when either is empty or they share a matchmaker ([`successors_are_new`]). A later
    /// generation is replaced through [`Reconfigurer::next`], which knows the earlier ones.
    pub fn new(id: NodeId, old: NodeSet, new: NodeSet) -> Result<Reconfigurer, ReconfigureRefused> {
        Reconfigurer::after(id, NodeSet::EMPTY, old, new)
    }

    /// A reconfigurer `id` that wants `new` to follow the generation this one published;
    /// refused before it is published, or when `new` holds a matchmaker of that generation or
    /// of any earlier one ([`successors_are_new`]): stopped for ever, it could not be
    /// bootstrapped, and the published generation would be stopped for nothing.
    pub fn next(&self, id: NodeId, new: NodeSet) -> Result<Reconfigurer, ReconfigureRefused> {
        let published = self.published.ok_or(ReconfigureRefused::NotPublished)?;
        Reconfigurer::after(id, self.retired.union(self.old), published, new)
    }

    fn after(
        id: NodeId,
        retired: NodeSet,
        old: NodeSet,
        new: NodeSet,
    ) -> Result<Reconfigurer, ReconfigureRefused> {
        let quorums = Majority::new(old).ok_or(ReconfigureRefused::NoOldMatchmakers)?;
        if new.is_empty() {
            return Err(ReconfigureRefused::NoNewMatchmakers);
        }
        successors_are_new(retired.union(old), new)?;
        Ok(Reconfigurer {
            id,
            retired,
            old,
            new,
            stage: GenerationStage::Idle,
            stop_reports: BTreeMap::new(),
            reconstructed: None,
            bootstrapped: NodeSet::EMPTY,
            proposer: Proposer::new(id, quorums, successor_value(new)),
            published: None,
            outbox: Vec::new(),
        })
    }

    /// This reconfigurer's id.
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The matchmakers of every generation before the one it replaces: stopped for ever.
    pub fn retired(&self) -> NodeSet {
        self.retired
    }

    /// The generation it bootstraps, and proposes as the successor.
    pub fn new_generation(&self) -> NodeSet {
        self.new
    }

    /// Where it is.
    pub fn stage(&self) -> GenerationStage {
        self.stage
    }

    /// The old generation's state, reconstructed from `f+1` stop reports.
    pub fn reconstructed(&self) -> Option<&(History, Option<Ballot>)> {
        self.reconstructed.as_ref()
    }

    /// The single-decree proposer deciding the successor set.
    pub fn proposer(&self) -> &Proposer<Majority> {
        &self.proposer
    }

    /// The successor set, once decided: leaders match with it from now on.
    pub fn published(&self) -> Option<NodeSet> {
        self.published
    }

    /// The messages to send.
    pub fn take_messages(&mut self) -> Vec<MmEnvelope> {
        std::mem::take(&mut self.outbox)
    }

    /// Stops the old set: Stop to each of its matchmakers. Only from idle.
    pub fn start(&mut self) {
        if self.stage != GenerationStage::Idle {
            return;
        }
        self.stage = GenerationStage::Stopping;
        self.broadcast(self.old, MmMessage::Stop);
    }

    /// Sends again what the current stage waits for, when the caller judges it stalled (a
    /// message may be lost): Stop to each old matchmaker that has not reported, Bootstrap to
    /// each new one that has not acknowledged, or the decision again at a higher ballot. Idle
    /// and published reconfigurers send nothing.
    pub fn retry(&mut self) {
        match self.stage {
            GenerationStage::Stopping => {
                let reported = &self.stop_reports;
                let silent = (self.old.iter()).filter(|old| !reported.contains_key(old));
                self.broadcast(silent.collect(), MmMessage::Stop);
            }
            GenerationStage::Bootstrapping => {
                let (history, watermark) = self.reconstructed.clone().expect("set to bootstrap");
                let acknowledged = self.bootstrapped;
                let silent = (self.new.iter()).filter(|new| !acknowledged.contains(*new));
                self.broadcast(
                    silent.collect(),
                    MmMessage::Bootstrap { history, watermark },
                );
            }
            GenerationStage::Deciding => {
                let prepares = self.proposer.retry();
                self.forward(prepares);
            }
            GenerationStage::Idle | GenerationStage::Published => {}
        }
    }

    /// Handles a message addressed to this reconfigurer.
    pub fn handle(&mut self, envelope: &MmEnvelope) -> Result<(), Ignored> {
        if envelope.to != self.id {
            return Err(Ignored::NotAddressedToMe);
        }
        match &envelope.message {
            MmMessage::StopB { history, watermark } => {
                self.on_stop_b(envelope.from, history, *watermark)
            }
            MmMessage::BootstrapB => self.on_bootstrap_b(envelope.from),
            MmMessage::Successor(message) => self.on_successor(envelope.from, message),
            _ => Err(Ignored::NotForThisRole),
        }
    }

    /// Stop reports: at `f+1`, reconstructs and bootstraps the new set.
    fn on_stop_b(
        &mut self,
        from: NodeId,
        history: &History,
        watermark: Option<Ballot>,
    ) -> Result<(), Ignored> {
        self.check(self.old, from, GenerationStage::Stopping)?;
        if self.stop_reports.contains_key(&from) {
            return Err(Ignored::Duplicate);
        }
        self.stop_reports.insert(from, (history.clone(), watermark));
        if self.stop_reports.len() < quorum_of_matchmakers(self.old) {
            return Ok(());
        }
        let (history, watermark) = reconstruct(self.stop_reports.values().map(|(h, w)| (h, *w)));
        self.reconstructed = Some((history.clone(), watermark));
        self.stage = GenerationStage::Bootstrapping;
        self.broadcast(self.new, MmMessage::Bootstrap { history, watermark });
        Ok(())
    }

    /// Bootstrap acknowledgements: once every new matchmaker holds the state, decides.
    fn on_bootstrap_b(&mut self, from: NodeId) -> Result<(), Ignored> {
        self.check(self.new, from, GenerationStage::Bootstrapping)?;
        if !self.bootstrapped.insert(from) {
            return Err(Ignored::Duplicate);
        }
        if self.bootstrapped == self.new {
            self.stage = GenerationStage::Deciding;
            let prepares = self.proposer.start();
            self.forward(prepares);
        }
        Ok(())
    }

    /// The decision's replies, handed to the single-decree proposer; publishes what it learns.
    fn on_successor(&mut self, from: NodeId, message: &crate::Message) -> Result<(), Ignored> {
        self.check(self.old, from, GenerationStage::Deciding)?;
        let reply = Envelope {
            from,
            to: self.id,
            message: message.clone(),
        };
        let next = self.proposer.handle(&reply)?;
        self.forward(next);
        if let Some(value) = self.proposer.learned() {
            self.published = successor_from_value(value);
            self.stage = GenerationStage::Published;
        }
        Ok(())
    }

    fn check(&self, senders: NodeSet, from: NodeId, stage: GenerationStage) -> Result<(), Ignored> {
        if !senders.contains(from) {
            return Err(Ignored::UnknownSender);
        }
        match self.stage {
            GenerationStage::Idle => Err(Ignored::NotStarted),
            current if current != stage => Err(Ignored::WrongPhase),
            _ => Ok(()),
        }
    }

    /// The proposer's messages, as the decision's.
    fn forward(&mut self, envelopes: Vec<Envelope>) {
        self.outbox
            .extend(envelopes.into_iter().map(|e| MmEnvelope {
                from: e.from,
                to: e.to,
                message: MmMessage::Successor(e.message),
            }));
    }

    fn broadcast(&mut self, to: NodeSet, message: MmMessage) {
        for node in to.iter() {
            self.outbox.push(MmEnvelope {
                from: self.id,
                to: node,
                message: message.clone(),
            });
        }
    }
}
