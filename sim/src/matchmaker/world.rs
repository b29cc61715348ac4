//! [`MatchmakerWorld`]: paros-core's matchmakers, acceptors, leaders and reconfigurer, the
//! [`Network`] between them, the faults allowed, and the votes the checkers judge.
//!
//! Crashes: a matchmaker is durable. Each step's writes reach its disk (framed by
//! [`encode`](paros_core::matchmaker::encode)) before its replies leave, and a restart rebuilds
//! it from that disk with [`Matchmaker::restart`]. A leader has no disk in paros-core: a crashed
//! leader stays down, and a later round is another leader. Acceptors do not crash: paros-core's
//! single-decree acceptor has no disk, so a crash that kept nothing would be amnesia (outside the
//! model) and one that kept everything is a pause, which messages left in flight already are.
//! Messages to a node that is down wait in flight until it is up again.

use super::config::{MatchmakerWorldConfig, MmRole};
use crate::faults::{Budget, Fault, NegativeControl, Refused};
use crate::fingerprint::part;
use crate::network::{InFlight, MessageAction, MessageId, Network, Verb};
use paros_core::matchmaker::{
    BrokenRule, Configuration, GenerationStage, Leader, Matchmaker, MmEnvelope, MmMessage,
    ReconfigureRefused, Reconfigurer, RetiringAcceptor, Stage, encode,
};
use paros_core::{Ballot, Message, NodeId, NodeSet, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Everything that can happen to a Matchmaker Paxos world. `Display` prints it short
/// (`deliver m3`, `start L2`); [`MatchmakerWorld::describe`] adds the message it touches.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum MmAction {
    /// Hand a message to its receiver, which steps.
    Deliver(MessageId),
    /// Lose a message (a fault; spends a drop).
    Drop(MessageId),
    /// Put a second copy of a message in flight (a fault; spends a duplicate).
    Duplicate(MessageId),
    /// An idle leader starts its round: MatchA to the matchmakers of the current generation.
    Start(NodeId),
    /// A leader whose value is chosen in its round asks the matchmakers to collect the
    /// configurations below it (M4).
    Collect(NodeId),
    /// A leader holding its garbage-collection proof retires the acceptors it removed (M5).
    Retire(NodeId),
    /// A matchmaker or a leader crashes (spends a crash).
    Crash(NodeId),
    /// A crashed matchmaker comes back from its disk.
    Restart(NodeId),
    /// The reconfigurer starts replacing M1..M3 by the next generation (M6).
    Replace(NodeId),
    /// The reconfigurer sends again what its stage waits for. Only once faults stop: the fair
    /// schedule's way past a lost message.
    Retry(NodeId),
    /// Faults stop, and the fair schedule's leader joins the world, idle (see
    /// [`MatchmakerWorld::settle`]). Never enabled: only the fair schedule takes it.
    StopFaults,
}

impl MessageAction for MmAction {
    fn on_message(verb: Verb, id: MessageId) -> MmAction {
        match verb {
            Verb::Deliver => MmAction::Deliver(id),
            Verb::Drop => MmAction::Drop(id),
            Verb::Duplicate => MmAction::Duplicate(id),
        }
    }

    fn message(&self) -> Option<(Verb, MessageId)> {
        match *self {
            MmAction::Deliver(id) => Some((Verb::Deliver, id)),
            MmAction::Drop(id) => Some((Verb::Drop, id)),
            MmAction::Duplicate(id) => Some((Verb::Duplicate, id)),
            _ => None,
        }
    }
}

/// What one applied action did.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct MmStep {
    /// The messages the action put in flight, in send order.
    pub sent: Vec<MessageId>,
    /// Why the receiver of a delivered message took no step, if it did not, in words.
    pub refused: Option<String>,
}

/// The votes cast at one round over the whole run: an acceptor's record keeps only its latest
/// vote, and the checkers need them all.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct RoundVotes {
    /// The value voted for (one per round: its leader sends one).
    pub value: Value,
    /// Every acceptor that ever voted for it in this round.
    pub voters: NodeSet,
}

/// A world of Matchmaker Paxos for a single decree. Each role's nodes, and the votes, are
/// shared with the worlds this one was cloned from until a step changes them: the explorer
/// builds a world per state it visits, and a step changes one or two parts.
#[derive(Clone, Debug)]
pub struct MatchmakerWorld {
    pub(super) config: Arc<MatchmakerWorldConfig>,
    /// M1..M3, then M4..M6 with a replacement. A crashed one keeps its last state here.
    pub(super) matchmakers: Arc<Vec<Matchmaker>>,
    /// Each matchmaker's disk: its frames, oldest first. Left out of the fingerprint: a restart
    /// rebuilds exactly the state it wrote, which the fingerprint holds. Shared with the worlds
    /// this one was cloned from until a write changes it.
    pub(super) disks: Vec<Arc<Vec<Vec<u8>>>>,
    pub(super) acceptors: Arc<Vec<RetiringAcceptor>>,
    /// Each leader; an idle one is rebuilt at its start with the generation then current.
    pub(super) leaders: Arc<Vec<Leader>>,
    /// The matchmakers each leader matches with: set when it starts.
    pub(super) matched_with: Vec<NodeSet>,
    /// Whether each leader has asked for garbage collection, and sent its Retires.
    pub(super) collect_asked: Vec<bool>,
    pub(super) retire_sent: Vec<bool>,
    pub(super) reconfigurer: Option<Arc<Reconfigurer>>,
    /// The nodes that are down.
    pub(super) down: NodeSet,
    pub(super) network: Network<MmEnvelope>,
    pub(super) budget_left: Budget,
    /// Every vote ever cast, by round.
    pub(super) votes: Arc<BTreeMap<Ballot, RoundVotes>>,
    /// Whether faults have stopped: the fair schedule runs, and its leader is the last one.
    pub(super) faults_stopped: bool,
    /// Why paros-core refused the replacement the world asked for, if it did: then there is
    /// no reconfigurer, and M1..M3 serve for good. Constant, so left out of the fingerprint.
    pub(super) replacement_refused: Option<ReconfigureRefused>,
    /// With [`back_to_first_generation`](MatchmakerWorldConfig::back_to_first_generation), the
    /// generation R1 published first, once R1 has started replacing it in turn.
    pub(super) first_published: Option<NodeSet>,
    /// Why paros-core refused the second replacement, back to M1..M3, if it did.
    pub(super) second_replacement_refused: Option<ReconfigureRefused>,
}

/// The parts of a world the fingerprint hashes one by one.
#[derive(Clone, Copy, Hash)]
enum Part {
    Matchmaker(usize),
    Acceptor(usize),
    Leader(usize),
    Reconfigurer,
    SecondReplacement,
    Down,
    Budget,
    Votes,
}

impl MatchmakerWorld {
    /// The world at its beginning: every matchmaker has written its identity, nobody started.
    pub fn new(config: MatchmakerWorldConfig) -> Result<MatchmakerWorld, Refused> {
        config.validate()?;
        let matchmaker_ids = config.matchmakers();
        let mut matchmakers: Vec<Matchmaker> = matchmaker_ids.iter().map(Matchmaker::new).collect();
        let mut disks = Vec::with_capacity(matchmakers.len());
        for matchmaker in &mut matchmakers {
            let (writes, _) = matchmaker.take_ready();
            disks.push(Arc::new(writes.iter().map(encode).collect()));
        }
        let acceptors: Vec<RetiringAcceptor> = config
            .acceptors()
            .iter()
            .map(RetiringAcceptor::new)
            .collect();
        let leaders: Vec<Leader> = (0..config.leaders.len())
            .map(|index| leader(&config, index, MatchmakerWorldConfig::first_generation()))
            .collect();
        let asked = config.replacement.then(|| {
            Reconfigurer::new(
                MatchmakerWorldConfig::reconfigurer_id(),
                MatchmakerWorldConfig::first_generation(),
                config.successors(),
            )
        });
        let replacement_refused = asked.as_ref().and_then(|asked| asked.clone().err());
        let reconfigurer = asked.and_then(Result::ok);
        let count = config.leaders.len();
        let mut world = MatchmakerWorld {
            network: Network::new(matchmaker_ids, NodeSet::EMPTY),
            budget_left: config.budget,
            matchmakers: Arc::new(matchmakers),
            disks,
            acceptors: Arc::new(acceptors),
            leaders: Arc::new(leaders),
            matched_with: vec![NodeSet::EMPTY; count],
            collect_asked: vec![false; count],
            retire_sent: vec![false; count],
            reconfigurer: reconfigurer.map(Arc::new),
            down: NodeSet::EMPTY,
            votes: Arc::new(BTreeMap::new()),
            config: Arc::new(config),
            faults_stopped: false,
            replacement_refused,
            first_published: None,
            second_replacement_refused: None,
        };
        for index in 0..world.matchmakers.len() {
            world.break_matchmaker(index);
        }
        Ok(world)
    }

    /// The configuration this world was built from; once faults stop, with the fair
    /// schedule's leader added.
    pub fn config(&self) -> &MatchmakerWorldConfig {
        &self.config
    }

    /// The matchmakers, M1 first (M4..M6 only with a replacement). A crashed one shows the
    /// state it had, which is what its disk holds.
    pub fn matchmakers(&self) -> &[Matchmaker] {
        &self.matchmakers
    }

    /// The acceptors, A1 first: each one's promise and vote
    /// ([`RetiringAcceptor::acceptor`]) and whether it is retired.
    pub fn acceptors(&self) -> &[RetiringAcceptor] {
        &self.acceptors
    }

    /// The leaders, L1 first: round, configuration, history `H_i`, stage, proposal, chosen.
    pub fn leaders(&self) -> &[Leader] {
        &self.leaders
    }

    /// The matchmakers leader `index` matches with; empty until it starts.
    pub fn matched_with(&self, index: usize) -> NodeSet {
        self.matched_with[index]
    }

    /// Whether leader `index` has asked for garbage collection (M4).
    pub fn collect_asked(&self, index: usize) -> bool {
        self.collect_asked[index]
    }

    /// The reconfigurer, with a replacement paros-core accepted.
    pub fn reconfigurer(&self) -> Option<&Reconfigurer> {
        self.reconfigurer.as_deref()
    }

    /// Why paros-core refused the replacement the world asked for, if it did.
    pub fn replacement_refused(&self) -> Option<ReconfigureRefused> {
        self.replacement_refused
    }

    /// The matchmakers a leader starting now matches with: M4..M6 once the reconfigurer has
    /// published them, M1..M3 until then.
    pub fn current_generation(&self) -> NodeSet {
        (self.reconfigurer.as_deref())
            .and_then(Reconfigurer::published)
            .or(self.first_published)
            .unwrap_or_else(MatchmakerWorldConfig::first_generation)
    }

    /// Every round a leader of the world plans, with its configuration, lowest first.
    pub fn configurations(&self) -> Vec<(Ballot, Configuration)> {
        let mut all: Vec<_> = (0..self.leaders.len())
            .map(|index| {
                (
                    self.config.round_of(index),
                    self.config.configuration_of(index),
                )
            })
            .collect();
        all.sort_by_key(|(round, _)| *round);
        all
    }

    /// The acceptors that retired (M5).
    pub fn retired(&self) -> NodeSet {
        (self.acceptors.iter())
            .filter(|acceptor| acceptor.retired().is_some())
            .map(RetiringAcceptor::id)
            .collect()
    }

    /// The acceptors in no configuration of a round at or above the highest watermark any
    /// matchmaker holds: removed by reconfiguration, whether or not retired yet. Empty before
    /// any garbage is collected.
    pub fn removed(&self) -> NodeSet {
        let Some(watermark) = self.highest_watermark() else {
            return NodeSet::EMPTY;
        };
        let kept = (self.configurations().into_iter())
            .filter(|(round, _)| *round >= watermark)
            .fold(NodeSet::EMPTY, |kept, (_, config)| {
                kept.union(config.acceptors())
            });
        (self.config.acceptors().iter())
            .filter(|acceptor| !kept.contains(*acceptor))
            .collect()
    }

    /// The highest garbage-collection watermark any matchmaker holds.
    pub fn highest_watermark(&self) -> Option<Ballot> {
        self.matchmakers
            .iter()
            .filter_map(Matchmaker::watermark)
            .max()
    }

    /// The nodes that are down.
    pub fn down(&self) -> NodeSet {
        self.down
    }

    /// The messages in flight, in send order.
    pub fn in_flight(&self) -> &[InFlight<MmEnvelope>] {
        self.network.in_flight()
    }

    /// The network: what is in flight.
    pub fn network(&self) -> &Network<MmEnvelope> {
        &self.network
    }

    /// The faults still allowed.
    pub fn budget_left(&self) -> Budget {
        self.budget_left
    }

    /// Every vote ever cast, by round.
    pub fn votes(&self) -> &BTreeMap<Ballot, RoundVotes> {
        &self.votes
    }

    /// The values chosen so far, by round: a round whose voters ever formed a Phase-2 quorum of
    /// that round's own configuration, judged by its quorum system. Lowest round first.
    pub fn chosen(&self) -> Vec<(Ballot, &Value)> {
        (self.votes.iter())
            .filter(|(round, _)| self.chosen_in_round(**round))
            .map(|(round, votes)| (*round, &votes.value))
            .collect()
    }

    /// Whether the votes cast in `round` form a Phase-2 quorum of its configuration.
    pub fn chosen_in_round(&self, round: Ballot) -> bool {
        let (Some(votes), Some(config)) = (
            self.votes.get(&round),
            self.config.configuration_of_round(round),
        ) else {
            return false;
        };
        paros_core::is_chosen(config.quorums(), votes.voters)
    }

    fn leader_index(&self, node: NodeId) -> Result<usize, Refused> {
        match MmRole::of(node) {
            Some(MmRole::Leader(index)) if index < self.leaders.len() => Ok(index),
            _ => Err(Refused::NoSuchNode(node)),
        }
    }

    fn matchmaker_index(&self, node: NodeId) -> Option<usize> {
        self.matchmakers.iter().position(|m| m.id() == node)
    }

    /// Breaks the rule the negative control names on matchmaker `index`, if it is one of its.
    fn break_matchmaker(&mut self, index: usize) {
        let rule = match self.config.negative_control {
            Some(NegativeControl::NoLowerRoundCheck) => BrokenRule::NoLowerRoundCheck,
            Some(NegativeControl::NoStop) => BrokenRule::NoStop,
            Some(NegativeControl::StoppedCollects) => BrokenRule::StoppedCollects,
            Some(NegativeControl::BootstrapBelowWatermark) => BrokenRule::BootstrapBelowWatermark,
            _ => return,
        };
        Arc::make_mut(&mut self.matchmakers)[index].break_rule(rule);
    }

    /// A 64-bit fingerprint of everything the future of this world depends on: each node's
    /// state (with whom each leader matches, and whether it has asked for garbage collection
    /// and sent its Retires), which nodes are down, the messages in flight, the budgets and the
    /// votes. The disks are left out: a restart rebuilds exactly the matchmaker state hashed.
    pub fn fingerprint(&self) -> u64 {
        let matchmakers = (self.matchmakers.iter().enumerate())
            .map(|(index, matchmaker)| part(Part::Matchmaker(index), matchmaker));
        let acceptors = (self.acceptors.iter().enumerate())
            .map(|(index, acceptor)| part(Part::Acceptor(index), acceptor));
        let leaders = (self.leaders.iter().enumerate()).map(|(index, leader)| {
            let flags = (
                self.matched_with[index],
                self.collect_asked[index],
                self.retire_sent[index],
            );
            part(Part::Leader(index), &(leader, flags))
        });
        let second = (self.first_published, self.second_replacement_refused);
        let second_replacement =
            (second != (None, None)).then(|| part(Part::SecondReplacement, &second));
        let others = [
            part(Part::Reconfigurer, &self.reconfigurer),
            part(Part::Down, &self.down),
            part(Part::Budget, &self.budget_left),
            part(Part::Votes, &self.votes),
            self.network.fingerprint(),
        ];
        (matchmakers.chain(acceptors).chain(leaders).chain(others))
            .chain(second_replacement)
            .fold(0, u64::wrapping_add)
    }

    /// Every action [`MatchmakerWorld::apply`] would accept now, in a stable order: the
    /// network's actions on each message not addressed to a node that is down, then each
    /// leader's start, garbage collection and retirement, the reconfigurer's start, crashes,
    /// and restarts.
    pub fn enabled(&self) -> Vec<MmAction> {
        let mut actions = Vec::new();
        let down = self.down;
        self.network.enabled(
            &self.budget_left,
            |envelope| down.contains(envelope.to),
            &mut actions,
        );
        for (index, leader) in self.leaders.iter().enumerate() {
            let id = leader.id();
            if down.contains(id) {
                continue;
            }
            if leader.stage() == Stage::Idle {
                actions.push(MmAction::Start(id));
            }
            if self.may_collect(index) {
                actions.push(MmAction::Collect(id));
            }
            if self.may_retire(index) {
                actions.push(MmAction::Retire(id));
            }
        }
        if let Some(reconfigurer) = &self.reconfigurer
            && (reconfigurer.stage() == GenerationStage::Idle || self.may_go_back())
        {
            actions.push(MmAction::Replace(reconfigurer.id()));
        }
        if let Some(reconfigurer) = self.reconfigurer_to_retry() {
            actions.push(MmAction::Retry(reconfigurer));
        }
        if self.budget_left.allows(Fault::Crash) {
            let crashable = (self.matchmakers.iter().map(Matchmaker::id))
                .chain(self.leaders.iter().map(Leader::id))
                .filter(|node| !down.contains(*node));
            actions.extend(crashable.map(MmAction::Crash));
        }
        let restartable =
            (self.matchmakers.iter().map(Matchmaker::id)).filter(|node| down.contains(*node));
        actions.extend(restartable.map(MmAction::Restart));
        actions
    }

    /// Whether leader `index` may ask for garbage collection now: the world collects garbage,
    /// it has not asked yet, its history holds a configuration below its round (else there is
    /// nothing to collect), and paros-core's leader agrees (M4).
    fn may_collect(&self, index: usize) -> bool {
        let leader = &self.leaders[index];
        self.config.garbage_collection
            && !self.collect_asked[index]
            && !leader.history().is_empty()
            && leader.clone().collect_garbage().is_ok()
    }

    /// Whether leader `index` may send its Retires now: it has not yet, and holds its proof
    /// (M5).
    fn may_retire(&self, index: usize) -> bool {
        !self.retire_sent[index] && self.leaders[index].gc_proof().is_some()
    }

    /// Applies one action. A refused action leaves the world unchanged.
    pub fn apply(&mut self, action: &MmAction) -> Result<MmStep, Refused> {
        let first = self.network.next_id();
        let refused = match *action {
            MmAction::Deliver(id) => {
                let envelope = self.network.deliverable(id)?.envelope.clone();
                if self.down.contains(envelope.to) {
                    return Err(Refused::NodeDown(envelope.to));
                }
                self.network.take(id);
                self.deliver(&envelope)
            }
            MmAction::Drop(id) => {
                self.network.drop_message(id, &mut self.budget_left)?;
                None
            }
            MmAction::Duplicate(id) => {
                self.network.duplicate(id, &mut self.budget_left)?;
                None
            }
            MmAction::Start(node) => {
                self.start(node)?;
                None
            }
            MmAction::Collect(node) => {
                self.collect(node)?;
                None
            }
            MmAction::Retire(node) => {
                self.retire(node)?;
                None
            }
            MmAction::Crash(node) => {
                self.crash(node)?;
                None
            }
            MmAction::Restart(node) => {
                self.restart(node)?;
                None
            }
            MmAction::Replace(node) => {
                self.replace(node)?;
                None
            }
            MmAction::Retry(node) => {
                self.retry(node)?;
                None
            }
            MmAction::StopFaults => {
                self.stop_faults()?;
                None
            }
        };
        let sent = (self.network.in_flight().iter())
            .map(|message| message.id)
            .filter(|id| *id >= first)
            .collect();
        Ok(MmStep { sent, refused })
    }

    /// Hands a message to its receiver; returns why it took no step, if it did not.
    fn deliver(&mut self, envelope: &MmEnvelope) -> Option<String> {
        let receiver = envelope.to;
        let refused = match MmRole::of(receiver) {
            Some(MmRole::Matchmaker(_)) => self.deliver_to_matchmaker(envelope),
            Some(MmRole::Acceptor(index)) if index < self.acceptors.len() => {
                match Arc::make_mut(&mut self.acceptors)[index].handle(envelope) {
                    Ok(reply) => {
                        if let Some(reply) = reply {
                            self.record_vote(&reply);
                            self.network.send(reply);
                        }
                        Ok(())
                    }
                    Err(why) => Err(why.to_string()),
                }
            }
            Some(MmRole::Leader(index)) if index < self.leaders.len() => {
                let leader = &mut Arc::make_mut(&mut self.leaders)[index];
                let handled = leader.handle(envelope).map_err(|why| why.to_string());
                for message in leader.take_messages() {
                    self.network.send(message);
                }
                handled
            }
            Some(MmRole::Reconfigurer) if self.reconfigurer.is_some() => {
                let reconfigurer = Arc::make_mut(self.reconfigurer.as_mut().expect("checked"));
                let handled = reconfigurer.handle(envelope).map_err(|why| why.to_string());
                for message in reconfigurer.take_messages() {
                    self.network.send(message);
                }
                handled
            }
            _ => Err(format!(
                "{} is not a node of this world",
                MmRole::name(receiver)
            )),
        };
        refused.err()
    }

    /// A matchmaker steps on a message; its writes reach its disk before its replies leave.
    fn deliver_to_matchmaker(&mut self, envelope: &MmEnvelope) -> Result<(), String> {
        let Some(index) = self.matchmaker_index(envelope.to) else {
            return Err(format!(
                "{} is not a node of this world",
                MmRole::name(envelope.to)
            ));
        };
        let handled = Arc::make_mut(&mut self.matchmakers)[index].handle(envelope);
        self.flush_matchmaker(index);
        handled.map_err(|why| why.to_string())
    }

    /// A vote leaving an acceptor joins the history the checkers judge.
    fn record_vote(&mut self, reply: &MmEnvelope) {
        if let MmMessage::Paxos(Message::Accepted { ballot, value }) = &reply.message {
            let votes = Arc::make_mut(&mut self.votes)
                .entry(*ballot)
                .or_insert_with(|| RoundVotes {
                    value: value.clone(),
                    voters: NodeSet::EMPTY,
                });
            votes.voters.insert(reply.from);
        }
    }

    /// The matchmaker's writes go to its disk, then its replies leave.
    fn flush_matchmaker(&mut self, index: usize) {
        let (writes, messages) = Arc::make_mut(&mut self.matchmakers)[index].take_ready();
        if !writes.is_empty() {
            Arc::make_mut(&mut self.disks[index]).extend(writes.iter().map(encode));
        }
        for message in messages {
            self.network.send(message);
        }
    }

    fn start(&mut self, node: NodeId) -> Result<(), Refused> {
        let index = self.leader_index(node)?;
        if self.down.contains(node) {
            return Err(Refused::NodeDown(node));
        }
        if self.leaders[index].stage() != Stage::Idle {
            return Err(Refused::AlreadyStarted(node));
        }
        let generation = self.current_generation();
        let mut started = leader(&self.config, index, generation);
        started.start();
        for message in started.take_messages() {
            self.network.send(message);
        }
        Arc::make_mut(&mut self.leaders)[index] = started;
        self.matched_with[index] = generation;
        Ok(())
    }

    fn collect(&mut self, node: NodeId) -> Result<(), Refused> {
        let index = self.leader_index(node)?;
        if !self.may_collect(index) || self.down.contains(node) {
            return Err(Refused::NothingPending(node));
        }
        let leader = &mut Arc::make_mut(&mut self.leaders)[index];
        leader.collect_garbage().expect("checked by may_collect");
        for message in leader.take_messages() {
            self.network.send(message);
        }
        self.collect_asked[index] = true;
        Ok(())
    }

    fn retire(&mut self, node: NodeId) -> Result<(), Refused> {
        let index = self.leader_index(node)?;
        if !self.may_retire(index) || self.down.contains(node) {
            return Err(Refused::NothingPending(node));
        }
        let leader = &mut Arc::make_mut(&mut self.leaders)[index];
        leader.retire_removed().expect("checked by may_retire");
        for message in leader.take_messages() {
            self.network.send(message);
        }
        self.retire_sent[index] = true;
        Ok(())
    }

    fn crash(&mut self, node: NodeId) -> Result<(), Refused> {
        let crashable = self.matchmaker_index(node).is_some() || self.leader_index(node).is_ok();
        if !crashable {
            return Err(Refused::NoSuchNode(node));
        }
        if self.down.contains(node) {
            return Err(Refused::NodeDown(node));
        }
        self.budget_left.spend(Fault::Crash)?;
        self.down.insert(node);
        Ok(())
    }

    fn restart(&mut self, node: NodeId) -> Result<(), Refused> {
        let index = self
            .matchmaker_index(node)
            .ok_or(Refused::NoSuchNode(node))?;
        if !self.down.contains(node) {
            return Err(Refused::NodeUp(node));
        }
        let (restarted, torn) =
            Matchmaker::restart(node, &self.disks[index]).map_err(Refused::Disk)?;
        if torn > 0 {
            Arc::make_mut(&mut self.disks[index]).pop(); // never acknowledged: gone
        }
        Arc::make_mut(&mut self.matchmakers)[index] = restarted;
        self.break_matchmaker(index);
        self.down.remove(node);
        Ok(())
    }

    /// The reconfigurer, if faults have stopped and it is replacing the matchmakers: the fair
    /// schedule may have it send again.
    pub(super) fn reconfigurer_to_retry(&self) -> Option<NodeId> {
        let reconfigurer = self.reconfigurer.as_deref()?;
        let replacing = !matches!(
            reconfigurer.stage(),
            GenerationStage::Idle | GenerationStage::Published
        );
        (self.faults_stopped && replacing).then(|| reconfigurer.id())
    }

    fn retry(&mut self, node: NodeId) -> Result<(), Refused> {
        if self.reconfigurer_to_retry() != Some(node) {
            return Err(Refused::NothingToRetry(node));
        }
        let reconfigurer = Arc::make_mut(self.reconfigurer.as_mut().expect("checked"));
        reconfigurer.retry();
        for message in reconfigurer.take_messages() {
            self.network.send(message);
        }
        Ok(())
    }

    /// Whether R1 may start the second replacement, back to M1..M3: the world asks for it, R1
    /// has published the successors, and it has not been asked yet.
    fn may_go_back(&self) -> bool {
        let published = (self.reconfigurer.as_deref()).and_then(Reconfigurer::published);
        self.config.back_to_first_generation
            && published.is_some()
            && self.first_published.is_none()
            && self.second_replacement_refused.is_none()
    }

    /// The second replacement: R1 asks paros-core for the reconfigurer that replaces the
    /// generation it published by M1..M3 ([`Reconfigurer::next`]). A refusal is kept, and the
    /// published generation serves for good.
    fn go_back(&mut self) {
        let first = self
            .reconfigurer
            .as_deref()
            .expect("checked by may_go_back");
        let published = first.published().expect("checked by may_go_back");
        let asked = first.next(
            MatchmakerWorldConfig::reconfigurer_id(),
            MatchmakerWorldConfig::first_generation(),
        );
        match asked {
            Ok(mut reconfigurer) => {
                self.first_published = Some(published);
                reconfigurer.start();
                for message in reconfigurer.take_messages() {
                    self.network.send(message);
                }
                self.reconfigurer = Some(Arc::new(reconfigurer));
            }
            Err(refused) => self.second_replacement_refused = Some(refused),
        }
    }

    fn replace(&mut self, node: NodeId) -> Result<(), Refused> {
        if node == MatchmakerWorldConfig::reconfigurer_id() && self.may_go_back() {
            self.go_back();
            return Ok(());
        }
        let shared = (self.reconfigurer.as_mut())
            .filter(|r| r.id() == node)
            .ok_or(Refused::NoSuchNode(node))?;
        if shared.stage() != GenerationStage::Idle {
            return Err(Refused::AlreadyStarted(node));
        }
        let reconfigurer = Arc::make_mut(shared);
        reconfigurer.start();
        for message in reconfigurer.take_messages() {
            self.network.send(message);
        }
        Ok(())
    }
}

/// Leader `index` as it starts: its planned round, configuration and value, matching with
/// `matchmakers`; with a leader's negative control, breaking its rule.
pub(super) fn leader(config: &MatchmakerWorldConfig, index: usize, matchmakers: NodeSet) -> Leader {
    let plan = &config.leaders[index];
    let mut leader = Leader::new(
        MatchmakerWorldConfig::leader_id(index),
        plan.round,
        config.configuration_of(index),
        matchmakers,
        plan.value.clone(),
    );
    match config.negative_control {
        Some(NegativeControl::Phase1LatestOnly) => leader.break_rule(BrokenRule::Phase1LatestOnly),
        Some(NegativeControl::GcAfterPhase1) => leader.break_rule(BrokenRule::GcAfterPhase1),
        _ => {}
    }
    leader
}
