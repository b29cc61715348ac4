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
use super::disk::Disk;
use super::memo::{Delivered, Memo};
use super::node::{Node, Part, Place, reconfigurer_part};
use crate::faults::{Budget, Fault, NegativeControl, Refused};
use crate::fingerprint::{part, swap};
use crate::network::{InFlight, MessageAction, MessageId, Network, Verb};
use paros_core::matchmaker::{
    BrokenRule, Configuration, GenerationStage, Leader, Matchmaker, MmEnvelope, MmMessage,
    ReconfigureRefused, Reconfigurer, RetiringAcceptor, Stage,
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

/// What the world keeps of each leader beside its state: with whom it matches (set when it
/// starts), and whether it has asked for garbage collection and sent its Retires.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(super) struct LeaderFlags {
    pub(super) matched_with: NodeSet,
    pub(super) collect_asked: bool,
    pub(super) retire_sent: bool,
}

/// A world of Matchmaker Paxos for a single decree. Each node, each matchmaker's disk, the
/// messages in flight and the votes are shared with the worlds this one was copied from until
/// a step changes them: the explorer builds a world per state it visits, and a step changes
/// one node and a few messages. The fingerprint is kept as a sum of parts, changed by what a
/// step changed; in an exploration, the memo (`memo.rs`) works out each delivery to a node
/// once and replays it after.
#[derive(Clone, Debug)]
pub struct MatchmakerWorld {
    pub(super) config: Arc<MatchmakerWorldConfig>,
    /// M1..M3, then M4..M6 with a replacement. A crashed one keeps its last state here.
    pub(super) matchmakers: Arc<Vec<Arc<Matchmaker>>>,
    /// Each matchmaker's disk. Left out of the fingerprint: a restart rebuilds exactly the
    /// state it wrote, which the fingerprint holds.
    pub(super) disks: Arc<Vec<Disk>>,
    pub(super) acceptors: Arc<Vec<Arc<RetiringAcceptor>>>,
    /// Each leader; an idle one is rebuilt at its start with the generation then current.
    pub(super) leaders: Arc<Vec<Arc<Leader>>>,
    pub(super) leader_flags: Arc<Vec<LeaderFlags>>,
    pub(super) reconfigurer: Option<Arc<Reconfigurer>>,
    /// The nodes that are down.
    pub(super) down: NodeSet,
    pub(super) network: Network<Arc<MmEnvelope>>,
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
    /// Invariant: the sum of the parts of every node, every leader's flags and every round's
    /// votes ([`MatchmakerWorld::nodes_sum_from_scratch`]).
    pub(super) nodes_sum: u64,
    /// The memo of deliveries, in an exploration ([`Model::for_exploration`]); not part of the
    /// state.
    ///
    /// [`Model::for_exploration`]: crate::model::Model::for_exploration
    pub(super) memo: Option<Arc<Memo>>,
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
            disks.push(Disk::default().with(writes.into()));
        }
        let acceptors: Vec<Arc<RetiringAcceptor>> = (config.acceptors().iter())
            .map(|id| Arc::new(RetiringAcceptor::new(id)))
            .collect();
        let leaders: Vec<Arc<Leader>> = (0..config.leaders.len())
            .map(|index| leader(&config, index, MatchmakerWorldConfig::first_generation()))
            .map(Arc::new)
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
            matchmakers: Arc::new(matchmakers.into_iter().map(Arc::new).collect()),
            disks: Arc::new(disks),
            acceptors: Arc::new(acceptors),
            leaders: Arc::new(leaders),
            leader_flags: Arc::new(vec![LeaderFlags::default(); count]),
            reconfigurer: reconfigurer.map(Arc::new),
            down: NodeSet::EMPTY,
            votes: Arc::new(BTreeMap::new()),
            config: Arc::new(config),
            faults_stopped: false,
            replacement_refused,
            first_published: None,
            second_replacement_refused: None,
            nodes_sum: 0,
            memo: None,
        };
        world.nodes_sum = world.nodes_sum_from_scratch();
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
    pub fn matchmakers(&self) -> &[Arc<Matchmaker>] {
        &self.matchmakers
    }

    /// The acceptors, A1 first: each one's promise and vote
    /// ([`RetiringAcceptor::acceptor`]) and whether it is retired.
    pub fn acceptors(&self) -> &[Arc<RetiringAcceptor>] {
        &self.acceptors
    }

    /// The leaders, L1 first: round, configuration, history `H_i`, stage, proposal, chosen.
    pub fn leaders(&self) -> &[Arc<Leader>] {
        &self.leaders
    }

    /// The matchmakers leader `index` matches with; empty until it starts.
    pub fn matched_with(&self, index: usize) -> NodeSet {
        self.leader_flags[index].matched_with
    }

    /// Whether leader `index` has asked for garbage collection (M4).
    pub fn collect_asked(&self, index: usize) -> bool {
        self.leader_flags[index].collect_asked
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
            .map(|acceptor| acceptor.id())
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
            .filter_map(|matchmaker| matchmaker.watermark())
            .max()
    }

    /// The nodes that are down.
    pub fn down(&self) -> NodeSet {
        self.down
    }

    /// The messages in flight, in send order.
    pub fn in_flight(&self) -> &[InFlight<Arc<MmEnvelope>>] {
        self.network.in_flight()
    }

    /// The network: what is in flight.
    pub fn network(&self) -> &Network<Arc<MmEnvelope>> {
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
            Some(NegativeControl::BootstrapKeepsItsWatermark) => {
                BrokenRule::BootstrapKeepsItsWatermark
            }
            _ => return,
        };
        let mut broken = Matchmaker::clone(&self.matchmakers[index]);
        broken.break_rule(rule);
        self.set_node(Node::Matchmaker(index, Arc::new(broken)));
    }

    /// A 64-bit fingerprint of everything the future of this world depends on: each node's
    /// state, each leader's flags (with whom it matches, and whether it has asked for garbage
    /// collection and sent its Retires), which nodes are down, the messages in flight, the
    /// budgets and the votes of each round. The disks are left out: a restart rebuilds exactly
    /// the matchmaker state hashed. The nodes' parts are kept summed as steps change them.
    pub fn fingerprint(&self) -> u64 {
        let second = (self.first_published, self.second_replacement_refused);
        let second_replacement = if second == (None, None) {
            0
        } else {
            part(Part::SecondReplacement, &second)
        };
        (self.nodes_sum)
            .wrapping_add(part(Part::Down, &self.down))
            .wrapping_add(part(Part::Budget, &self.budget_left))
            .wrapping_add(second_replacement)
            .wrapping_add(self.network.fingerprint())
    }

    /// The fingerprint of the state `action` leads to: a delivery's from the change it makes
    /// (`MatchmakerWorld::delivery`, remembered in an exploration), with nothing built; any
    /// other action's by building the successor.
    pub fn successor_fingerprint(&self, action: &MmAction) -> Result<u64, Refused> {
        match *action {
            MmAction::Deliver(id) => self.delivery_fingerprint(id),
            _ => {
                let mut next = self.clone();
                next.step(action)?;
                Ok(next.fingerprint())
            }
        }
    }

    /// This world with a fresh memo of deliveries, which every world copied from it shares.
    pub(super) fn with_memo(mut self) -> MatchmakerWorld {
        self.memo = Some(Arc::new(Memo::default()));
        self
    }

    /// In debug builds, checks the fingerprint kept step by step against one worked out from
    /// every part.
    pub(super) fn debug_check_fingerprint(&self) {
        debug_assert_eq!(
            self.nodes_sum,
            self.nodes_sum_from_scratch(),
            "the nodes' sum drifted from their parts"
        );
        debug_assert_eq!(
            self.network.fingerprint(),
            self.network.fingerprint_from_scratch(),
            "the network's sum drifted from its messages"
        );
    }

    /// [`MatchmakerWorld::fingerprint`] worked out from every part, as it must equal.
    pub fn fingerprint_from_scratch(&self) -> u64 {
        let kept = self.nodes_sum.wrapping_add(self.network.fingerprint());
        (self.fingerprint().wrapping_sub(kept))
            .wrapping_add(self.nodes_sum_from_scratch())
            .wrapping_add(self.network.fingerprint_from_scratch())
    }

    /// The sum of the parts of every node, every leader's flags and every round's votes,
    /// worked out from each: what [`MatchmakerWorld::nodes_sum`] must equal.
    pub(super) fn nodes_sum_from_scratch(&self) -> u64 {
        let matchmakers = (self.matchmakers.iter().enumerate())
            .map(|(index, m)| Node::Matchmaker(index, Arc::clone(m)).part());
        let acceptors = (self.acceptors.iter().enumerate())
            .map(|(index, a)| Node::Acceptor(index, Arc::clone(a)).part());
        let leaders = (self.leaders.iter().enumerate())
            .map(|(index, l)| Node::Leader(index, Arc::clone(l)).part());
        let flags = (self.leader_flags.iter().enumerate())
            .map(|(index, flags)| part(Part::LeaderFlags(index), flags));
        let rounds = (self.votes.iter()).map(|(round, votes)| part(Part::Round(*round), votes));
        let reconfigurer = reconfigurer_part(self.reconfigurer.as_deref());
        (matchmakers
            .chain(acceptors)
            .chain(leaders)
            .chain(flags)
            .chain(rounds))
        .fold(reconfigurer, u64::wrapping_add)
    }

    /// Puts `node` in its place, its part of the fingerprint in place of the old one's. In an
    /// exploration, the memo's copy of it.
    fn set_node(&mut self, node: Node) {
        let node = match &self.memo {
            Some(memo) => memo.node(node),
            None => node,
        };
        let old = self.node_at(node.place()).part();
        let change = swap(0, old, node.part());
        self.put_node(node, change);
    }

    /// Puts `node` in its place, where `change` is what that adds to the nodes' sum.
    fn put_node(&mut self, node: Node, change: u64) {
        match node {
            Node::Matchmaker(index, m) => Arc::make_mut(&mut self.matchmakers)[index] = m,
            Node::Acceptor(index, a) => Arc::make_mut(&mut self.acceptors)[index] = a,
            Node::Leader(index, l) => Arc::make_mut(&mut self.leaders)[index] = l,
            Node::Reconfigurer(r) => self.reconfigurer = Some(r),
            Node::Missing(_) => {}
        }
        self.nodes_sum = self.nodes_sum.wrapping_add(change);
    }

    /// The node now at `place`.
    fn node_at(&self, place: Place) -> Node {
        match place {
            Place::Matchmaker(index) => {
                Node::Matchmaker(index, Arc::clone(&self.matchmakers[index]))
            }
            Place::Acceptor(index) => Node::Acceptor(index, Arc::clone(&self.acceptors[index])),
            Place::Leader(index) => Node::Leader(index, Arc::clone(&self.leaders[index])),
            Place::Reconfigurer => match &self.reconfigurer {
                Some(r) => Node::Reconfigurer(Arc::clone(r)),
                None => Node::Missing(MatchmakerWorldConfig::reconfigurer_id()),
            },
            Place::Missing(id) => Node::Missing(id),
        }
    }

    /// Where the state of the node at `place` lives: what the memo keys it by. A missing
    /// node, which has no state, is keyed by its id, which no address can equal.
    fn address_at(&self, place: Place) -> usize {
        match place {
            Place::Matchmaker(index) => Arc::as_ptr(&self.matchmakers[index]) as usize,
            Place::Acceptor(index) => Arc::as_ptr(&self.acceptors[index]) as usize,
            Place::Leader(index) => Arc::as_ptr(&self.leaders[index]) as usize,
            Place::Reconfigurer => self
                .reconfigurer
                .as_ref()
                .map_or(0, |r| Arc::as_ptr(r) as usize),
            Place::Missing(id) => usize::from(id.get()),
        }
    }

    /// Leader `index`'s flags changed by `change`, its part of the fingerprint with them.
    fn set_flags(&mut self, index: usize, change: impl FnOnce(&mut LeaderFlags)) {
        let mut flags = self.leader_flags[index];
        change(&mut flags);
        let old = part(Part::LeaderFlags(index), &self.leader_flags[index]);
        let new = part(Part::LeaderFlags(index), &flags);
        Arc::make_mut(&mut self.leader_flags)[index] = flags;
        self.nodes_sum = swap(self.nodes_sum, old, new);
    }

    /// Where the node a message to `to` is delivered to sits.
    fn receiver(&self, to: NodeId) -> Place {
        match MmRole::of(to) {
            Some(MmRole::Matchmaker(_)) => match self.matchmaker_index(to) {
                Some(index) => Place::Matchmaker(index),
                None => Place::Missing(to),
            },
            Some(MmRole::Acceptor(index)) if index < self.acceptors.len() => Place::Acceptor(index),
            Some(MmRole::Leader(index)) if index < self.leaders.len() => Place::Leader(index),
            Some(MmRole::Reconfigurer) if self.reconfigurer.is_some() => Place::Reconfigurer,
            _ => Place::Missing(to),
        }
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
            let crashable = (self.matchmakers.iter().map(|m| m.id()))
                .chain(self.leaders.iter().map(|l| l.id()))
                .filter(|node| !down.contains(*node));
            actions.extend(crashable.map(MmAction::Crash));
        }
        let restartable =
            (self.matchmakers.iter().map(|m| m.id())).filter(|node| down.contains(*node));
        actions.extend(restartable.map(MmAction::Restart));
        actions
    }

    /// Whether leader `index` may ask for garbage collection now: the world collects garbage,
    /// it has not asked yet, its history holds a configuration below its round (else there is
    /// nothing to collect), and paros-core's leader agrees (M4).
    fn may_collect(&self, index: usize) -> bool {
        let leader = &self.leaders[index];
        self.config.garbage_collection
            && !self.leader_flags[index].collect_asked
            && !leader.history().is_empty()
            && Leader::clone(leader).collect_garbage().is_ok()
    }

    /// Whether leader `index` may send its Retires now: it has not yet, and holds its proof
    /// (M5).
    fn may_retire(&self, index: usize) -> bool {
        !self.leader_flags[index].retire_sent && self.leaders[index].gc_proof().is_some()
    }

    /// Applies one action. A refused action leaves the world unchanged.
    pub fn apply(&mut self, action: &MmAction) -> Result<MmStep, Refused> {
        let first = self.network.next_id();
        let refused = self.step(action)?;
        let sent = (self.network.in_flight().iter())
            .map(|message| message.id)
            .filter(|id| *id >= first)
            .collect();
        Ok(MmStep { sent, refused })
    }

    /// [`MatchmakerWorld::apply`], saying only why a delivered message's receiver took no
    /// step, if it did not.
    pub(super) fn step(&mut self, action: &MmAction) -> Result<Option<String>, Refused> {
        if let MmAction::Deliver(id) = *action {
            let delivered = self.delivery(id)?;
            self.replay_delivery(id, &delivered);
            return Ok(delivered.refused.clone());
        }
        let first = self.network.next_id();
        match *action {
            MmAction::Deliver(_) => unreachable!("delivered above"),
            MmAction::Drop(id) => self.network.drop_message(id, &mut self.budget_left)?,
            MmAction::Duplicate(id) => {
                self.network.duplicate(id, &mut self.budget_left)?;
            }
            MmAction::Start(node) => self.start(node)?,
            MmAction::Collect(node) => self.collect(node)?,
            MmAction::Retire(node) => self.retire(node)?,
            MmAction::Crash(node) => self.crash(node)?,
            MmAction::Restart(node) => self.restart(node)?,
            MmAction::Replace(node) => self.replace(node)?,
            MmAction::Retry(node) => self.retry(node)?,
            MmAction::StopFaults => self.stop_faults()?,
        }
        if let Some(memo) = &self.memo {
            self.network
                .share_since(first, |envelope| memo.envelope(envelope));
        }
        Ok(None)
    }

    /// What delivering message `id` does, from the memo when this world has one; refused
    /// when the message is not deliverable or its receiver is down.
    fn delivery(&self, id: MessageId) -> Result<Arc<Delivered>, Refused> {
        let envelope = &self.network.deliverable(id)?.envelope;
        if self.down.contains(envelope.to) {
            return Err(Refused::NodeDown(envelope.to));
        }
        let receiver = self.receiver(envelope.to);
        Ok(match &self.memo {
            Some(memo) => memo.delivered(self.address_at(receiver), envelope, || {
                self.node_at(receiver)
            }),
            None => Arc::new(Delivered::work_out(&self.node_at(receiver), envelope, None)),
        })
    }

    /// Replays a delivery of message `id`: the receiver steps, a matchmaker's writes reach its
    /// disk before its replies leave, and an acceptor's vote joins the votes of its round.
    fn replay_delivery(&mut self, id: MessageId, delivered: &Delivered) {
        if let Node::Matchmaker(index, _) = &delivered.after
            && !delivered.writes.is_empty()
        {
            let disk = &mut Arc::make_mut(&mut self.disks)[*index];
            *disk = disk.with(Arc::clone(&delivered.writes));
        }
        if let Node::Acceptor(..) = &delivered.after {
            for reply in &delivered.sent {
                self.record_vote(reply);
            }
        }
        self.put_node(delivered.after.clone(), delivered.node_change);
        (self.network).replay(Some(id), &delivered.sent, delivered.network_change);
    }

    /// The fingerprint of the state delivering message `id` leads to, without building it.
    fn delivery_fingerprint(&self, id: MessageId) -> Result<u64, Refused> {
        let delivered = self.delivery(id)?;
        let votes_change = match &delivered.after {
            Node::Acceptor(..) => (delivered.sent.iter())
                .filter_map(|reply| self.votes_change(reply))
                .fold(0u64, |sum, (_, change)| sum.wrapping_add(change)),
            _ => 0,
        };
        Ok(self
            .fingerprint()
            .wrapping_add(delivered.node_change)
            .wrapping_add(delivered.network_change)
            .wrapping_add(votes_change))
    }

    /// The votes of a round after `reply`, if it is a vote, and what that adds to the nodes'
    /// sum.
    fn votes_change(&self, reply: &MmEnvelope) -> Option<(RoundVotes, u64)> {
        let MmMessage::Paxos(Message::Accepted { ballot, value }) = &reply.message else {
            return None;
        };
        let before = self.votes.get(ballot);
        let mut after = before.cloned().unwrap_or_else(|| RoundVotes {
            value: value.clone(),
            voters: NodeSet::EMPTY,
        });
        after.voters.insert(reply.from);
        let old = before.map_or(0, |votes| part(Part::Round(*ballot), votes));
        let new = part(Part::Round(*ballot), &after);
        Some((after, swap(0, old, new)))
    }

    /// A vote leaving an acceptor joins the history the checkers judge.
    fn record_vote(&mut self, reply: &MmEnvelope) {
        if let Some((after, change)) = self.votes_change(reply)
            && let MmMessage::Paxos(Message::Accepted { ballot, .. }) = &reply.message
        {
            Arc::make_mut(&mut self.votes).insert(*ballot, after);
            self.nodes_sum = self.nodes_sum.wrapping_add(change);
        }
    }

    /// Sends what a node's step produced, each message in order.
    fn send_all(&mut self, messages: Vec<MmEnvelope>) {
        for message in messages {
            self.network.send(Arc::new(message));
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
        self.send_all(started.take_messages());
        self.set_node(Node::Leader(index, Arc::new(started)));
        self.set_flags(index, |flags| flags.matched_with = generation);
        Ok(())
    }

    fn collect(&mut self, node: NodeId) -> Result<(), Refused> {
        let index = self.leader_index(node)?;
        if !self.may_collect(index) || self.down.contains(node) {
            return Err(Refused::NothingPending(node));
        }
        let mut leader = Leader::clone(&self.leaders[index]);
        leader.collect_garbage().expect("checked by may_collect");
        self.send_all(leader.take_messages());
        self.set_node(Node::Leader(index, Arc::new(leader)));
        self.set_flags(index, |flags| flags.collect_asked = true);
        Ok(())
    }

    fn retire(&mut self, node: NodeId) -> Result<(), Refused> {
        let index = self.leader_index(node)?;
        if !self.may_retire(index) || self.down.contains(node) {
            return Err(Refused::NothingPending(node));
        }
        let mut leader = Leader::clone(&self.leaders[index]);
        leader.retire_removed().expect("checked by may_retire");
        self.send_all(leader.take_messages());
        self.set_node(Node::Leader(index, Arc::new(leader)));
        self.set_flags(index, |flags| flags.retire_sent = true);
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
            Matchmaker::restart(node, &self.disks[index].frames()).map_err(Refused::Disk)?;
        if torn > 0 {
            let disk = &mut Arc::make_mut(&mut self.disks)[index];
            *disk = disk.without_last(); // never acknowledged: gone
        }
        self.set_node(Node::Matchmaker(index, Arc::new(restarted)));
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
        let mut reconfigurer = Reconfigurer::clone(self.reconfigurer.as_ref().expect("checked"));
        reconfigurer.retry();
        self.send_all(reconfigurer.take_messages());
        self.set_node(Node::Reconfigurer(Arc::new(reconfigurer)));
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
                self.send_all(reconfigurer.take_messages());
                self.set_node(Node::Reconfigurer(Arc::new(reconfigurer)));
            }
            Err(refused) => self.second_replacement_refused = Some(refused),
        }
    }

    fn replace(&mut self, node: NodeId) -> Result<(), Refused> {
        if node == MatchmakerWorldConfig::reconfigurer_id() && self.may_go_back() {
            self.go_back();
            return Ok(());
        }
        let shared = (self.reconfigurer.as_ref())
            .filter(|r| r.id() == node)
            .ok_or(Refused::NoSuchNode(node))?;
        if shared.stage() != GenerationStage::Idle {
            return Err(Refused::AlreadyStarted(node));
        }
        let mut reconfigurer = Reconfigurer::clone(shared);
        reconfigurer.start();
        self.send_all(reconfigurer.take_messages());
        self.set_node(Node::Reconfigurer(Arc::new(reconfigurer)));
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
