//! The leader of one round: matchmaking (M2), Phase 1 in every configuration of its history
//! and Phase 2 in its own (M3), then garbage collection (M4) and the proof that retires removed
//! acceptors (M5).

#[cfg(feature = "negative-controls")]
use super::BrokenRule;
use super::gc_proof::{GcProof, quorum_of_matchmakers};
use super::{Configuration, History, MmEnvelope, MmMessage};
use crate::{Ballot, Ignored, Message, NodeId, NodeSet, QuorumSystem, Value, Vote, select_value};
use std::collections::BTreeMap;
use std::fmt;

/// M2: the history `H_i` from `f+1` matchmakers' replies: the union of the configurations they
/// report, keeping only rounds at or above the highest garbage-collection watermark among them.
///
/// Matchmaker Paxos (Whittaker et al., JSys 2021), section 5: a watermark `w` acknowledged by
/// one matchmaker means a leader of round `w` finished with every round below it, so those
/// configurations are not needed, even where another matchmaker still reports them.
pub fn history_from_replies<'a>(
    replies: impl IntoIterator<Item = (&'a History, Option<Ballot>)> + Clone,
) -> History {
    let watermark = replies.clone().into_iter().filter_map(|(_, w)| w).max();
    replies
        .into_iter()
        .flat_map(|(history, _)| history.iter())
        .filter(|(round, _)| Some(**round) >= watermark)
        .map(|(round, config)| (*round, *config))
        .collect()
}

/// M3: Phase 1 of a round is complete once `promised_by` holds a Phase-1 quorum of **every**
/// configuration in the history, each judged by its own quorum system.
///
/// Matchmaker Paxos (Whittaker et al., JSys 2021), section 3: a value may have been chosen in
/// any configuration of `H_i`, by a Phase-2 quorum of that configuration alone; only a Phase-1
/// quorum of that same configuration is sure to meet it. A quorum of the union of the
/// configurations is not enough: it may hold most of one configuration and too little of
/// another. An empty history (the first round) needs no Phase 1.
pub fn phase1_complete(history: &History, promised_by: NodeSet) -> bool {
    history
        .values()
        .all(|config| config.quorums().is_phase1_quorum(promised_by))
}

/// M4, "installed is not collected": configurations below round `i` may be collected only once
/// Phase 1 of `i` is done and its value is chosen in round `i`, that is voted for, and so
/// persisted, by a Phase-2 quorum of `C_i` (`voters_in_round`).
///
/// Matchmaker Paxos (Whittaker et al., JSys 2021), section 5: until then the value may live only
/// in the old configurations, and a later leader whose history no longer holds them would never
/// meet it. Phase 1 alone is not enough: the leader that did it may crash before Phase 2.
pub fn installed_is_collectable(
    phase1_done: bool,
    config: &Configuration,
    voters_in_round: NodeSet,
) -> bool {
    phase1_done && config.quorums().is_phase2_quorum(voters_in_round)
}

/// Why a leader does not collect garbage or retire acceptors yet.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GcRefused {
    /// M4: Phase 1 of the round is not done.
    Phase1NotDone,
    /// M4: the value is not yet chosen in the round's own configuration.
    NotChosenInRound,
    /// M5: `f+1` matchmakers have not acknowledged the watermark.
    NotAcknowledged,
}

impl fmt::Display for GcRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GcRefused::Phase1NotDone => "Phase 1 of this round is not done (M4)",
            GcRefused::NotChosenInRound => {
                "the value is not chosen on a Phase-2 quorum of this round's configuration (M4)"
            }
            GcRefused::NotAcknowledged => {
                "f+1 matchmakers have not acknowledged the garbage-collection watermark (M5)"
            }
        })
    }
}

impl std::error::Error for GcRefused {}

/// Where a leader is in its round.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Stage {
    /// Not started.
    Idle,
    /// MatchA sent; collecting MatchB replies.
    Matching,
    /// Prepare sent to every acceptor of `H_i`; collecting Promises.
    Phase1,
    /// Accept sent to the acceptors of `C_i`; collecting Accepteds.
    Phase2,
    /// A Phase-2 quorum of `C_i` voted: the value is chosen in this round.
    Chosen,
}

/// The leader of one round of Matchmaker Paxos for a single decree.
///
/// A leader runs one round and never retries: there is no clock in paros-core. When its round
/// stalls (matchmakers refused it, or an acceptor named a higher ballot,
/// [`Leader::highest_refusal`]), the caller starts a leader of a higher round, in the same
/// configuration or a new one: that is all a reconfiguration is.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Leader {
    id: NodeId,
    /// Invariant: owned by `id`.
    round: Ballot,
    config: Configuration,
    matchmakers: NodeSet,
    own_value: Value,
    stage: Stage,
    /// Each matchmaker's reply: the lower rounds' configurations and its watermark.
    match_replies: BTreeMap<NodeId, (History, Option<Ballot>)>,
    /// `H_i`, once `f+1` matchmakers replied (M2).
    history: History,
    promises: BTreeMap<NodeId, Option<Vote>>,
    /// The value sent in Phase 2. Invariant: set from Phase 2 on.
    proposal: Option<Value>,
    accepted_by: NodeSet,
    highest_refusal: Option<Ballot>,
    /// Whether GarbageA went out; then each matchmaker's acknowledged watermark.
    gc_asked: bool,
    gc_acks: BTreeMap<NodeId, Ballot>,
    gc_proof: Option<GcProof>,
    outbox: Vec<MmEnvelope>,
    #[cfg(feature = "negative-controls")]
    broken: Option<BrokenRule>,
}

impl Leader {
    /// An idle leader `id` of round `round` (its ballot is `round.id`), to run in `config`, with
    /// these matchmakers, wanting `own_value` chosen.
    pub fn new(
        id: NodeId,
        round: u32,
        config: Configuration,
        matchmakers: NodeSet,
        own_value: Value,
    ) -> Leader {
        Leader {
            id,
            round: Ballot::new(round, id),
            config,
            matchmakers,
            own_value,
            stage: Stage::Idle,
            match_replies: BTreeMap::new(),
            history: History::new(),
            promises: BTreeMap::new(),
            proposal: None,
            accepted_by: NodeSet::EMPTY,
            highest_refusal: None,
            gc_asked: false,
            gc_acks: BTreeMap::new(),
            gc_proof: None,
            outbox: Vec::new(),
            #[cfg(feature = "negative-controls")]
            broken: None,
        }
    }

    /// This leader's id.
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The round this leader runs: its ballot.
    pub fn round(&self) -> Ballot {
        self.round
    }

    /// The configuration of this round, `C_i`.
    pub fn config(&self) -> &Configuration {
        &self.config
    }

    /// Where this leader is.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The history `H_i`, once `f+1` matchmakers replied.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The acceptors that promised this round.
    pub fn promised_by(&self) -> NodeSet {
        self.promises.keys().copied().collect()
    }

    /// The acceptors of `C_i` that voted for this round.
    pub fn accepted_by(&self) -> NodeSet {
        self.accepted_by
    }

    /// The value sent in Phase 2, once Phase 1 is done.
    pub fn proposal(&self) -> Option<&Value> {
        self.proposal.as_ref()
    }

    /// The value chosen in this round, once a Phase-2 quorum of `C_i` voted for it.
    pub fn chosen(&self) -> Option<&Value> {
        (self.stage == Stage::Chosen)
            .then_some(self.proposal.as_ref())
            .flatten()
    }

    /// The highest ballot an acceptor refused this round for: a new leader must go above it.
    pub fn highest_refusal(&self) -> Option<Ballot> {
        self.highest_refusal
    }

    /// The garbage-collection watermark each matchmaker has acknowledged to this leader: what
    /// it holds, whatever a matchmaker keeps and has not yet told it (M4).
    pub fn gc_acknowledgements(&self) -> &BTreeMap<NodeId, Ballot> {
        &self.gc_acks
    }

    /// The proof that `f+1` matchmakers acknowledged this round's garbage collection (M5).
    pub fn gc_proof(&self) -> Option<&GcProof> {
        self.gc_proof.as_ref()
    }

    /// Makes this leader break `rule` from now on: a negative control.
    #[cfg(feature = "negative-controls")]
    pub fn break_rule(&mut self, rule: BrokenRule) {
        self.broken = Some(rule);
    }

    #[cfg(feature = "negative-controls")]
    fn breaks(&self, rule: BrokenRule) -> bool {
        self.broken == Some(rule)
    }

    /// The messages to send.
    pub fn take_messages(&mut self) -> Vec<MmEnvelope> {
        std::mem::take(&mut self.outbox)
    }

    /// Starts matchmaking: MatchA to every matchmaker. Only from idle; again is a no-op.
    pub fn start(&mut self) {
        if self.stage != Stage::Idle {
            return;
        }
        self.stage = Stage::Matching;
        let message = MmMessage::MatchA {
            round: self.round,
            config: self.config,
        };
        self.broadcast(self.matchmakers, message);
    }

    /// Handles a message addressed to this leader; its replies wait in
    /// [`Leader::take_messages`].
    pub fn handle(&mut self, envelope: &MmEnvelope) -> Result<(), Ignored> {
        if envelope.to != self.id {
            return Err(Ignored::NotAddressedToMe);
        }
        let from = envelope.from;
        match &envelope.message {
            MmMessage::MatchB {
                round,
                history,
                watermark,
            } => self.on_match_b(from, *round, history, *watermark),
            MmMessage::GarbageB { watermark } => self.on_garbage_b(from, *watermark),
            MmMessage::Paxos(Message::Promise { ballot, accepted }) => {
                self.on_promise(from, *ballot, accepted.clone())
            }
            MmMessage::Paxos(Message::Accepted { ballot, .. }) => self.on_accepted(from, *ballot),
            MmMessage::Paxos(Message::Nack { ballot, promised }) => {
                self.on_nack(from, *ballot, *promised)
            }
            _ => Err(Ignored::NotForThisRole),
        }
    }

    /// M2: collects MatchB replies; at `f+1`, builds `H_i` and starts Phase 1.
    fn on_match_b(
        &mut self,
        from: NodeId,
        round: Ballot,
        history: &History,
        watermark: Option<Ballot>,
    ) -> Result<(), Ignored> {
        self.check_round(self.matchmakers, from, round, Stage::Matching)?;
        if self.match_replies.contains_key(&from) {
            return Err(Ignored::Duplicate);
        }
        self.match_replies
            .insert(from, (history.clone(), watermark));
        if self.match_replies.len() < quorum_of_matchmakers(self.matchmakers) {
            return Ok(());
        }
        self.history = history_from_replies(self.match_replies.values().map(|(h, w)| (h, *w)));
        self.stage = Stage::Phase1;
        let prepare = Message::Prepare { ballot: self.round };
        self.broadcast(self.history_acceptors(), MmMessage::Paxos(prepare));
        self.try_finish_phase1();
        Ok(())
    }

    /// Phase 1b: records the Promise; once Phase 1 is complete (M3), starts Phase 2.
    fn on_promise(
        &mut self,
        from: NodeId,
        ballot: Ballot,
        accepted: Option<Vote>,
    ) -> Result<(), Ignored> {
        self.check_round(self.history_acceptors(), from, ballot, Stage::Phase1)?;
        if self.promises.contains_key(&from) {
            return Err(Ignored::Duplicate);
        }
        self.promises.insert(from, accepted);
        self.try_finish_phase1();
        Ok(())
    }

    /// M3: once every configuration of `H_i` has a Phase-1 quorum of promises, selects the value
    /// by P2c over all of them and sends Accept to `C_i` only.
    fn try_finish_phase1(&mut self) {
        if !self.phase1_is_complete() {
            return;
        }
        let value = select_value(self.promises.values().map(Option::as_ref), &self.own_value);
        self.stage = Stage::Phase2;
        self.proposal = Some(value.clone());
        let accept = Message::Accept {
            ballot: self.round,
            value,
        };
        self.broadcast(self.config.acceptors(), MmMessage::Paxos(accept));
    }

    fn phase1_is_complete(&self) -> bool {
        #[cfg(feature = "negative-controls")]
        if self.breaks(BrokenRule::Phase1LatestOnly) {
            let newest = self.history.iter().next_back();
            let latest: History = newest.map(|(r, c)| (*r, *c)).into_iter().collect();
            return phase1_complete(&latest, self.promised_by());
        }
        phase1_complete(&self.history, self.promised_by())
    }

    /// Phase 2b: counts a vote from `C_i`; a Phase-2 quorum of it chooses the value.
    fn on_accepted(&mut self, from: NodeId, ballot: Ballot) -> Result<(), Ignored> {
        self.check_round(self.config.acceptors(), from, ballot, Stage::Phase2)?;
        if !self.accepted_by.insert(from) {
            return Err(Ignored::Duplicate);
        }
        if self.config.quorums().is_phase2_quorum(self.accepted_by) {
            self.stage = Stage::Chosen;
        }
        Ok(())
    }

    /// A refusal: remembers the higher ballot, so the next leader goes above it.
    fn on_nack(&mut self, from: NodeId, ballot: Ballot, promised: Ballot) -> Result<(), Ignored> {
        let acceptors = self.history_acceptors().union(self.config.acceptors());
        if !acceptors.contains(from) {
            return Err(Ignored::UnknownSender);
        }
        if ballot != self.round {
            return Err(Ignored::StaleBallot);
        }
        if promised <= ballot {
            return Err(Ignored::NackNotHigher);
        }
        self.highest_refusal = self.highest_refusal.max(Some(promised));
        Ok(())
    }

    /// M4: asks every matchmaker to collect the configurations below this round, once the
    /// value is chosen in it ([`installed_is_collectable`]).
    pub fn collect_garbage(&mut self) -> Result<(), GcRefused> {
        let phase1_done = self.stage >= Stage::Phase2;
        let allowed = installed_is_collectable(phase1_done, &self.config, self.accepted_by);
        #[cfg(feature = "negative-controls")]
        let allowed = allowed || (phase1_done && self.breaks(BrokenRule::GcAfterPhase1));
        if !allowed {
            return Err(if phase1_done {
                GcRefused::NotChosenInRound
            } else {
                GcRefused::Phase1NotDone
            });
        }
        self.gc_asked = true;
        let garbage = MmMessage::GarbageA {
            watermark: self.round,
        };
        self.broadcast(self.matchmakers, garbage);
        Ok(())
    }

    /// M4 and M5: counts the acknowledged watermarks; at `f+1`, mints the [`GcProof`].
    fn on_garbage_b(&mut self, from: NodeId, watermark: Ballot) -> Result<(), Ignored> {
        if !self.matchmakers.contains(from) {
            return Err(Ignored::UnknownSender);
        }
        if !self.gc_asked {
            return Err(Ignored::WrongPhase);
        }
        if watermark < self.round {
            return Err(Ignored::StaleBallot);
        }
        if self.gc_acks.insert(from, watermark).is_some() {
            return Err(Ignored::Duplicate);
        }
        if self.gc_proof.is_none() {
            self.gc_proof = GcProof::from_acknowledgements(
                &self.gc_acks,
                self.matchmakers,
                self.config.acceptors(),
            );
        }
        Ok(())
    }

    /// M5: a Retire, carrying the proof, to every acceptor of `H_i` that is not in `C_i`.
    pub fn retire_removed(&mut self) -> Result<(), GcRefused> {
        let proof = self.gc_proof.ok_or(GcRefused::NotAcknowledged)?;
        let removed: NodeSet = self
            .history_acceptors()
            .iter()
            .filter(|node| !self.config.acceptors().contains(*node))
            .collect();
        self.broadcast(removed, MmMessage::Retire { proof });
        Ok(())
    }

    /// Every acceptor of every configuration in `H_i`.
    fn history_acceptors(&self) -> NodeSet {
        self.history
            .values()
            .fold(NodeSet::EMPTY, |all, config| all.union(config.acceptors()))
    }

    /// Checks a reply's sender, round and this leader's stage.
    fn check_round(
        &self,
        senders: NodeSet,
        from: NodeId,
        round: Ballot,
        stage: Stage,
    ) -> Result<(), Ignored> {
        if !senders.contains(from) {
            return Err(Ignored::UnknownSender);
        }
        if round != self.round {
            return Err(Ignored::StaleBallot);
        }
        match self.stage {
            Stage::Idle => Err(Ignored::NotStarted),
            current if current != stage => Err(Ignored::WrongPhase),
            _ => Ok(()),
        }
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
