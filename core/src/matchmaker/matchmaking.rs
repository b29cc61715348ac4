//! The matchmaker role: per round, the configuration that round runs in (M1), the
//! garbage-collection watermark below which it forgets them (M4), and its part in its own
//! replacement (M6): it stops, it is bootstrapped, and it is an acceptor of the single decree
//! that names its successors.

#[cfg(feature = "negative-controls")]
use super::BrokenRule;
use super::record::MatchmakerWrite;
use super::{Configuration, History, MmEnvelope, MmMessage};
use crate::log::RecordError;
use crate::{Acceptor, Ballot, Envelope, Ignored, Message, NodeId};
use std::fmt;

/// M1, the match rule: a matchmaker records `round` only if it is above every round it stores
/// (`highest`) and at or above its garbage-collection watermark; otherwise it refuses.
///
/// Matchmaker Paxos (Whittaker et al., JSys 2021), section 3: a matchmaker that recorded round
/// `j` has told leader `j` every configuration below `j`; recording a lower round `i` afterwards
/// would give leader `i` a history without `C_j`, and leader `i` could choose a value in `C_i`
/// without ever meeting the one chosen in `C_j`. Below the watermark the configurations that
/// round would need to read are already collected.
pub fn match_rule(
    highest: Option<Ballot>,
    watermark: Option<Ballot>,
    round: Ballot,
) -> Result<(), MatchRefused> {
    if let Some(highest) = highest.filter(|highest| round <= *highest) {
        return Err(MatchRefused::RoundNotAbove { round, highest });
    }
    if let Some(watermark) = watermark.filter(|watermark| round < *watermark) {
        return Err(MatchRefused::BelowWatermark { round, watermark });
    }
    Ok(())
}

/// M4, the matchmaker's half: the watermark after a request for `asked` is the higher of the
/// two, so a late or duplicate request never brings back what was collected.
pub fn effective_watermark(old: Option<Ballot>, asked: Ballot) -> Ballot {
    old.map_or(asked, |old| old.max(asked))
}

/// M4, what a matchmaker may store: a round at or above its garbage-collection watermark, and
/// nothing below it, whatever brings the configuration: a MatchA (which [`match_rule`] refuses
/// below it), a Bootstrap that arrives after the matchmaker collected, or a restart replaying
/// its disk.
///
/// Matchmaker Paxos (Whittaker et al., JSys 2021), section 5: a watermark `w` means round `w`
/// finished with every configuration below it. Storing one again would hand it to later
/// leaders as a configuration to run Phase 1 in, whose acceptors may have retired (M5).
pub fn may_store(watermark: Option<Ballot>, round: Ballot) -> bool {
    Some(round) >= watermark
}

/// M4 and M6, a stopped matchmaker collects nothing: it refuses every GarbageA, as it refuses
/// every MatchA, and so acknowledges no watermark.
///
/// Matchmaker Paxos (Whittaker et al., JSys 2021), sections 5 and 6: the next generation starts
/// from what `f+1` matchmakers reported when they stopped. A watermark acknowledged after that
/// would count towards a [`GcProof`](super::GcProof), the removed acceptors would retire, and
/// the next generation, which never heard of the watermark, would still hand their
/// configurations to every later leader, who would wait in Phase 1 for ever. Refused, a proof
/// needs `f+1` acknowledgements from matchmakers that were not yet stopped, and any `f+1` stop
/// reports include one of them, taken after its acknowledgement: the watermark reaches the next
/// generation.
pub fn garbage_rule(stopped: bool) -> Result<(), MatchRefused> {
    if stopped {
        return Err(MatchRefused::Stopped);
    }
    Ok(())
}

/// M6, a stopped matchmaker is stopped for ever: it acknowledges no Bootstrap, so no set
/// holding it is ever published.
///
/// Matchmaker Paxos (Whittaker et al., JSys 2021), section 6: a stopped matchmaker refuses
/// every MatchA. Its acknowledgement is what lets a reconfigurer publish its set; given, the
/// set would be published and then refuse every round of the new generation. Refused, such a
/// reconfiguration stays bootstrapping, which is why [`successors_are_new`](super::successors_are_new)
/// refuses it before it stops anything.
pub fn bootstrap_rule(stopped: bool) -> Result<(), MatchRefused> {
    if stopped {
        return Err(MatchRefused::Stopped);
    }
    Ok(())
}

/// Why a matchmaker took no step on a message.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MatchRefused {
    /// Not a message for this matchmaker: misaddressed, or for another role.
    Ignored(Ignored),
    /// M1: the matchmaker stores `highest`, and `round` is not above it.
    RoundNotAbove {
        /// The round asked for.
        round: Ballot,
        /// The highest round stored.
        highest: Ballot,
    },
    /// M1: `round` is below the garbage-collection watermark.
    BelowWatermark {
        /// The round asked for.
        round: Ballot,
        /// The matchmaker's watermark.
        watermark: Ballot,
    },
    /// M6: the matchmaker is stopped: its generation is being replaced, so it matches no more
    /// rounds.
    Stopped,
}

impl From<Ignored> for MatchRefused {
    fn from(ignored: Ignored) -> MatchRefused {
        MatchRefused::Ignored(ignored)
    }
}

impl fmt::Display for MatchRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchRefused::Ignored(ignored) => ignored.fmt(f),
            MatchRefused::RoundNotAbove { round, highest } => write!(
                f,
                "round {round} is not above round {highest}, which this matchmaker stores (M1)"
            ),
            MatchRefused::BelowWatermark { round, watermark } => write!(
                f,
                "round {round} is below the garbage-collection watermark {watermark} (M1)"
            ),
            MatchRefused::Stopped => {
                f.write_str("this matchmaker is stopped: its successors are being chosen (M6)")
            }
        }
    }
}

impl std::error::Error for MatchRefused {}

/// A matchmaker.
///
/// Durable: each step's [`MatchmakerWrite`]s come out of [`Matchmaker::take_ready`] with the
/// messages that wait for them; the caller makes the writes durable (framed by
/// [`encode`](super::encode)) before it sends the messages, and [`Matchmaker::restart`]
/// rebuilds the matchmaker from those frames.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Matchmaker {
    id: NodeId,
    /// Invariant: every round stored is at or above `watermark` ([`may_store`]).
    configurations: History,
    /// Invariant: never decreases.
    watermark: Option<Ballot>,
    /// Once set, never cleared: no MatchA is recorded any more (M6).
    stopped: bool,
    /// Its vote in the single decree that names the next generation of matchmakers (M6).
    successor: Acceptor,
    writes: Vec<MatchmakerWrite>,
    messages: Vec<MmEnvelope>,
    #[cfg(feature = "negative-controls")]
    broken: Option<BrokenRule>,
}

impl Matchmaker {
    /// A new matchmaker, storing nothing. Its first ready writes its identity.
    pub fn new(id: NodeId) -> Matchmaker {
        let mut matchmaker = Matchmaker::blank(id);
        matchmaker.writes.push(MatchmakerWrite::Identity(id));
        matchmaker
    }

    fn blank(id: NodeId) -> Matchmaker {
        Matchmaker {
            id,
            configurations: History::new(),
            watermark: None,
            stopped: false,
            successor: Acceptor::new(id),
            writes: Vec::new(),
            messages: Vec::new(),
            #[cfg(feature = "negative-controls")]
            broken: None,
        }
    }

    /// The matchmaker `id` rebuilt from its disk's frames, oldest first, and how many torn
    /// frames were dropped (0 or 1). The caller drops a torn frame from its disk before it
    /// writes again: left there, it would sit before the next frame, where a frame cut short is
    /// corruption, and the next restart would be refused. A corrupt frame (a damaged length
    /// included, [`check_header`](crate::log::check_header)), a blank disk or another node's disk
    /// is an error: a matchmaker that forgot a round it answered could break M1.
    pub fn restart(id: NodeId, frames: &[Vec<u8>]) -> Result<(Matchmaker, usize), RecordError> {
        let (writes, torn) = super::record::decode_disk(frames)?;
        let mut matchmaker = Matchmaker::blank(id);
        let mut identity = None;
        for write in writes {
            match write {
                MatchmakerWrite::Identity(node) => identity = Some(node),
                other => matchmaker.apply(&other),
            }
        }
        match identity {
            None => Err(RecordError::Blank),
            Some(found) if found != id => Err(RecordError::WrongIdentity {
                expected: id,
                found,
            }),
            Some(_) => Ok((matchmaker, torn)),
        }
    }

    /// This matchmaker's id.
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The configurations stored, by round.
    pub fn configurations(&self) -> &History {
        &self.configurations
    }

    /// The garbage-collection watermark: every configuration below it is forgotten.
    pub fn watermark(&self) -> Option<Ballot> {
        self.watermark
    }

    /// Whether this matchmaker is stopped (M6).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Its acceptor in the decree that names the next generation of matchmakers (M6).
    pub fn successor_acceptor(&self) -> &Acceptor {
        &self.successor
    }

    /// Makes this matchmaker break `rule` from now on: a negative control.
    #[cfg(feature = "negative-controls")]
    pub fn break_rule(&mut self, rule: BrokenRule) {
        self.broken = Some(rule);
    }

    /// Whether this matchmaker breaks `rule`.
    #[cfg(feature = "negative-controls")]
    fn breaks(&self, rule: BrokenRule) -> bool {
        self.broken == Some(rule)
    }

    /// Handles a message addressed to this matchmaker. Its writes and replies wait in
    /// [`Matchmaker::take_ready`].
    pub fn handle(&mut self, envelope: &MmEnvelope) -> Result<(), MatchRefused> {
        if envelope.to != self.id {
            return Err(Ignored::NotAddressedToMe.into());
        }
        match &envelope.message {
            MmMessage::MatchA { round, config } => self.on_match_a(envelope.from, *round, config),
            MmMessage::GarbageA { watermark } => self.on_garbage_a(envelope.from, *watermark),
            MmMessage::Stop => {
                self.on_stop(envelope.from);
                Ok(())
            }
            MmMessage::Bootstrap { history, watermark } => {
                self.on_bootstrap(envelope.from, history, *watermark)
            }
            MmMessage::Successor(message) => self.on_successor(envelope.from, message),
            _ => Err(Ignored::NotForThisRole.into()),
        }
    }

    /// The writes to make durable, then the messages that may leave once they are.
    pub fn take_ready(&mut self) -> (Vec<MatchmakerWrite>, Vec<MmEnvelope>) {
        (
            std::mem::take(&mut self.writes),
            std::mem::take(&mut self.messages),
        )
    }

    /// M1: records `config` for `round` if the match rule allows, and answers with the lower
    /// rounds' configurations. The same request again (a duplicate) is answered again.
    fn on_match_a(
        &mut self,
        leader: NodeId,
        round: Ballot,
        config: &Configuration,
    ) -> Result<(), MatchRefused> {
        if self.configurations.get(&round) != Some(config) {
            self.check_match_rule(round)?;
            self.write(MatchmakerWrite::Configuration(round, *config));
        }
        let history = self
            .configurations
            .range(..round)
            .map(|(round, config)| (*round, *config))
            .collect();
        self.send(
            leader,
            MmMessage::MatchB {
                round,
                history,
                watermark: self.watermark,
            },
        );
        Ok(())
    }

    fn check_match_rule(&self, round: Ballot) -> Result<(), MatchRefused> {
        if self.stopped {
            return Err(MatchRefused::Stopped);
        }
        let highest = self.configurations.keys().next_back().copied();
        #[cfg(feature = "negative-controls")]
        if self.breaks(BrokenRule::NoLowerRoundCheck) {
            return match_rule(None, self.watermark, round);
        }
        match_rule(highest, self.watermark, round)
    }

    /// M4: keeps the higher watermark, forgets the configurations below it, and acknowledges
    /// the effective watermark; stopped, refuses ([`garbage_rule`]).
    fn on_garbage_a(&mut self, leader: NodeId, asked: Ballot) -> Result<(), MatchRefused> {
        #[cfg(feature = "negative-controls")]
        let stopped = self.stopped && !self.breaks(BrokenRule::StoppedCollects);
        #[cfg(not(feature = "negative-controls"))]
        let stopped = self.stopped;
        garbage_rule(stopped)?;
        let watermark = effective_watermark(self.watermark, asked);
        if Some(watermark) != self.watermark {
            self.write(MatchmakerWrite::Watermark(watermark));
        }
        self.send(leader, MmMessage::GarbageB { watermark });
        Ok(())
    }

    /// M6: stops matching for good (unless breaking [`BrokenRule::NoStop`]), then reports
    /// everything it stores, for the next generation to be built from.
    fn on_stop(&mut self, reconfigurer: NodeId) {
        #[cfg(feature = "negative-controls")]
        let stops = !self.breaks(BrokenRule::NoStop);
        #[cfg(not(feature = "negative-controls"))]
        let stops = true;
        if stops && !self.stopped {
            self.write(MatchmakerWrite::Stopped);
        }
        let message = MmMessage::StopB {
            history: self.configurations.clone(),
            watermark: self.watermark,
        };
        self.send(reconfigurer, message);
    }

    /// M6: a matchmaker of the next generation takes the old generation's watermark and
    /// configurations as its own, adding to what it holds, and acknowledges. The higher
    /// watermark comes first, and only the configurations at or above it are stored
    /// ([`may_store`]): a Bootstrap that arrives after this matchmaker collected brings nothing
    /// back. A stopped matchmaker refuses it ([`bootstrap_rule`]).
    fn on_bootstrap(
        &mut self,
        reconfigurer: NodeId,
        history: &History,
        watermark: Option<Ballot>,
    ) -> Result<(), MatchRefused> {
        bootstrap_rule(self.stopped)?;
        if let Some(watermark) = watermark.filter(|w| self.takes_on_bootstrap(*w)) {
            self.write(MatchmakerWrite::Watermark(watermark));
        }
        for (round, config) in history {
            if self.stores_on_bootstrap(*round) && !self.configurations.contains_key(round) {
                self.write(MatchmakerWrite::Configuration(*round, *config));
            }
        }
        self.send(reconfigurer, MmMessage::BootstrapB);
        Ok(())
    }

    /// Whether a Bootstrap's `watermark` is taken: when it is above the one this matchmaker
    /// holds (M6), unless breaking [`BrokenRule::BootstrapKeepsItsWatermark`].
    fn takes_on_bootstrap(&self, watermark: Ballot) -> bool {
        #[cfg(feature = "negative-controls")]
        if self.breaks(BrokenRule::BootstrapKeepsItsWatermark) {
            return false;
        }
        Some(watermark) > self.watermark
    }

    /// Whether a Bootstrap's `round` is stored: [`may_store`], unless breaking
    /// [`BrokenRule::BootstrapBelowWatermark`].
    fn stores_on_bootstrap(&self, round: Ballot) -> bool {
        #[cfg(feature = "negative-controls")]
        if self.breaks(BrokenRule::BootstrapBelowWatermark) {
            return true;
        }
        may_store(self.watermark, round)
    }

    /// M6: a Prepare or Accept of the decree that names the next generation, answered by this
    /// matchmaker's single-decree [`Acceptor`]; a Promise or a vote is written before it leaves.
    fn on_successor(&mut self, from: NodeId, message: &Message) -> Result<(), MatchRefused> {
        let asked = Envelope {
            from,
            to: self.id,
            message: message.clone(),
        };
        let reply = self.successor.handle(&asked)?;
        match &reply.message {
            Message::Promise { ballot, .. } => {
                self.writes.push(MatchmakerWrite::SuccessorPromise(*ballot));
            }
            Message::Accepted { ballot, value } => {
                let vote = MatchmakerWrite::SuccessorVote(*ballot, value.clone());
                self.writes.push(vote);
            }
            _ => {}
        }
        self.send(from, MmMessage::Successor(reply.message));
        Ok(())
    }

    /// Applies a write to the state and queues it for the disk.
    fn write(&mut self, write: MatchmakerWrite) {
        self.apply(&write);
        self.writes.push(write);
    }

    /// Applies a write to the state, as a step does and as a restart replays it.
    fn apply(&mut self, write: &MatchmakerWrite) {
        match write {
            MatchmakerWrite::Identity(_) => {}
            MatchmakerWrite::Configuration(round, config) => {
                #[cfg(feature = "negative-controls")]
                let stores = self.breaks(BrokenRule::BootstrapBelowWatermark)
                    || may_store(self.watermark, *round);
                #[cfg(not(feature = "negative-controls"))]
                let stores = may_store(self.watermark, *round);
                if stores {
                    self.configurations.insert(*round, *config);
                }
            }
            MatchmakerWrite::Watermark(asked) => {
                let watermark = effective_watermark(self.watermark, *asked);
                self.watermark = Some(watermark);
                self.configurations.retain(|round, _| *round >= watermark);
            }
            MatchmakerWrite::Stopped => self.stopped = true,
            MatchmakerWrite::SuccessorPromise(ballot) => {
                let _ = self.successor.on_prepare(self.id, *ballot);
            }
            MatchmakerWrite::SuccessorVote(ballot, value) => {
                let _ = self.successor.on_accept(self.id, *ballot, value.clone());
            }
        }
    }

    fn send(&mut self, to: NodeId, message: MmMessage) {
        self.messages.push(MmEnvelope {
            from: self.id,
            to,
            message,
        });
    }
}
