//! What a Matchmaker Paxos world is made of ([`MatchmakerWorldConfig`]): its acceptors, the
//! leaders with the round and configuration each plans, whether leaders collect garbage,
//! whether a reconfigurer replaces the matchmakers, the faults allowed and the negative control.
//!
//! Node ids are fixed by role, so a node's name follows from its id alone: matchmakers M1..M6
//! are nodes 1..=6 (M1..M3 the first generation, M4..M6 the next), acceptors A1..A9 are nodes
//! 11..=19, leaders L1..L9 nodes 21..=29, and the reconfigurer R1 is node 31.

use crate::faults::{Budget, Fault, NegativeControl, Refused};
use paros_core::matchmaker::Configuration;
use paros_core::{Ballot, NodeId, NodeSet, Quorums, Value};

/// How many matchmakers a generation has: `2f+1` with `f = 1`.
pub const GENERATION_SIZE: u8 = 3;
const FIRST_ACCEPTOR: u8 = 11;
const FIRST_LEADER: u8 = 21;
const RECONFIGURER: u8 = 31;
/// At most this many acceptors, and this many leaders (the last kept for the fair schedule).
const MAX_PER_ROLE: u8 = 9;

/// One leader of the world and the round it plans: reconfiguring is planning a higher round in
/// another configuration.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct LeaderPlan {
    /// Its round number; its ballot is `round.L<k>`.
    pub round: u32,
    /// The acceptors of its configuration, by number (1 is A1), with majority quorums.
    pub acceptors: Vec<u8>,
    /// The value it wants chosen.
    pub value: Value,
}

/// What a Matchmaker Paxos world is made of. Constant for the life of a world, but for the
/// leader the fair schedule adds once faults stop.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct MatchmakerWorldConfig {
    /// How many acceptors: A1..An. One beyond the first configuration is the spare.
    pub acceptor_count: u8,
    /// The leaders L1..Lk, each with its round, configuration and value.
    pub leaders: Vec<LeaderPlan>,
    /// Whether a leader whose value is chosen in its round may collect the configurations below
    /// it (M4) and retire the acceptors it removed (M5).
    pub garbage_collection: bool,
    /// Whether the reconfigurer R1 may replace the matchmakers M1..M3 by the next generation
    /// (M6).
    pub replacement: bool,
    /// How many matchmakers of M1..M3 the next generation keeps: 0 replaces them by M4..M6, 1
    /// by M3..M5, 2 by M2..M4. paros-core's reconfigurer is asked for that set as it is.
    pub kept_matchmakers: u8,
    /// Whether, once the successors are published, R1 may replace them again, back by M1..M3:
    /// a second reconfiguration to a generation the first one stopped.
    pub back_to_first_generation: bool,
    /// The faults allowed: drops, duplicates and crashes (of matchmakers and leaders).
    pub budget: Budget,
    /// The rule the world's roles break, if it is a negative control.
    pub negative_control: Option<NegativeControl>,
}

/// Which role a node plays in a Matchmaker Paxos world.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MmRole {
    /// Matchmaker `index` (0-based), named M1..M6; M4..M6 are the next generation.
    Matchmaker(usize),
    /// Acceptor `index` (0-based), named A1, A2, ...
    Acceptor(usize),
    /// Leader `index` (0-based), named L1, L2, ...
    Leader(usize),
    /// The reconfigurer R1, which replaces the matchmakers.
    Reconfigurer,
}

impl MmRole {
    /// The role a node id stands for, whether or not the world has that node.
    pub fn of(node: NodeId) -> Option<MmRole> {
        let id = node.get();
        let index = |first: u8| usize::from(id - first);
        match id {
            1..=6 => Some(MmRole::Matchmaker(index(1))),
            11..=19 => Some(MmRole::Acceptor(index(FIRST_ACCEPTOR))),
            21..=29 => Some(MmRole::Leader(index(FIRST_LEADER))),
            RECONFIGURER => Some(MmRole::Reconfigurer),
            _ => None,
        }
    }

    /// The node's name: `M2`, `A4`, `L1`, `R1`.
    pub fn name(node: NodeId) -> String {
        match MmRole::of(node) {
            Some(MmRole::Matchmaker(index)) => format!("M{}", index + 1),
            Some(MmRole::Acceptor(index)) => format!("A{}", index + 1),
            Some(MmRole::Leader(index)) => format!("L{}", index + 1),
            Some(MmRole::Reconfigurer) => "R1".to_owned(),
            None => node.to_string(),
        }
    }
}

/// The id of the node with this role letter and 1-based number (`M`, `A`, `L` or `R`).
pub(super) fn node_by_name(name: &str) -> Option<NodeId> {
    let (letter, number) = name.split_at_checked(1)?;
    let number: u8 = number
        .parse()
        .ok()
        .filter(|n| (1..=MAX_PER_ROLE).contains(n))?;
    let id = match letter {
        "M" if number <= 2 * GENERATION_SIZE => number,
        "A" => FIRST_ACCEPTOR + number - 1,
        "L" => FIRST_LEADER + number - 1,
        "R" if number == 1 => RECONFIGURER,
        _ => return None,
    };
    NodeId::new(id)
}

fn id(number: u8) -> NodeId {
    NodeId::new(number).expect("node ids of the world are below 64")
}

impl MatchmakerWorldConfig {
    /// The id of the last leader, L9: a world plans at most L1..L8, and the fair schedule
    /// adds one more once faults stop.
    pub const LAST_LEADER: u8 = FIRST_LEADER + MAX_PER_ROLE - 1;

    /// The honest world of the issue: A1..A4, L1 runs round 1 in {A1, A2, A3} wanting x, L2
    /// runs round 2 in {A2, A3, A4} wanting y (A1 is removed, A4 the spare), leaders collect
    /// garbage, no replacement and no faults.
    pub fn two_configurations() -> MatchmakerWorldConfig {
        MatchmakerWorldConfig {
            acceptor_count: 4,
            leaders: vec![
                LeaderPlan {
                    round: 1,
                    acceptors: vec![1, 2, 3],
                    value: Value::new("x"),
                },
                LeaderPlan {
                    round: 2,
                    acceptors: vec![2, 3, 4],
                    value: Value::new("y"),
                },
            ],
            garbage_collection: true,
            replacement: false,
            kept_matchmakers: 0,
            back_to_first_generation: false,
            budget: Budget::NONE,
            negative_control: None,
        }
    }

    /// The id of matchmaker `index` (0-based): M1 is node 1.
    pub fn matchmaker_id(index: usize) -> NodeId {
        id(index as u8 + 1)
    }

    /// The id of acceptor `number` (1-based): A1 is node 11.
    pub fn acceptor_id(number: u8) -> NodeId {
        id(FIRST_ACCEPTOR + number - 1)
    }

    /// The id of leader `index` (0-based): L1 is node 21.
    pub fn leader_id(index: usize) -> NodeId {
        id(FIRST_LEADER + index as u8)
    }

    /// The id of the reconfigurer R1.
    pub fn reconfigurer_id() -> NodeId {
        id(RECONFIGURER)
    }

    /// The first generation of matchmakers, M1..M3.
    pub fn first_generation() -> NodeSet {
        (0..usize::from(GENERATION_SIZE))
            .map(Self::matchmaker_id)
            .collect()
    }

    /// The next generation, M4..M6, which the reconfigurer bootstraps.
    pub fn next_generation() -> NodeSet {
        (usize::from(GENERATION_SIZE)..usize::from(2 * GENERATION_SIZE))
            .map(Self::matchmaker_id)
            .collect()
    }

    /// The set the reconfigurer replaces M1..M3 by: M4..M6, or fewer new ones and the last
    /// [`kept_matchmakers`](Self::kept_matchmakers) of M1..M3.
    pub fn successors(&self) -> NodeSet {
        let first = usize::from(GENERATION_SIZE - self.kept_matchmakers);
        (first..first + usize::from(GENERATION_SIZE))
            .map(Self::matchmaker_id)
            .collect()
    }

    /// Every matchmaker of the world: M1..M3, and the successors with a replacement.
    pub fn matchmakers(&self) -> NodeSet {
        let first = Self::first_generation();
        if self.replacement {
            first.union(self.successors())
        } else {
            first
        }
    }

    /// Every acceptor of the world.
    pub fn acceptors(&self) -> NodeSet {
        (1..=self.acceptor_count).map(Self::acceptor_id).collect()
    }

    /// Leader `index`'s ballot: its round, owned by it.
    pub fn round_of(&self, index: usize) -> Ballot {
        Ballot::new(self.leaders[index].round, Self::leader_id(index))
    }

    /// Leader `index`'s configuration: majorities of its acceptors.
    pub fn configuration_of(&self, index: usize) -> Configuration {
        let acceptors = self.leaders[index]
            .acceptors
            .iter()
            .map(|number| Self::acceptor_id(*number))
            .collect();
        Configuration::new(Quorums::majority(acceptors).expect("validated: not empty"))
    }

    /// The configuration a round runs in, if a leader of the world plans it.
    pub fn configuration_of_round(&self, round: Ballot) -> Option<Configuration> {
        (0..self.leaders.len())
            .find(|index| self.round_of(*index) == round)
            .map(|index| self.configuration_of(index))
    }

    pub(super) fn validate(&self) -> Result<(), Refused> {
        if !(1..=MAX_PER_ROLE).contains(&self.acceptor_count)
            || !(1..usize::from(MAX_PER_ROLE)).contains(&self.leaders.len())
        {
            return Err(Refused::BadConfig(
                "between 1 and 9 acceptors and between 1 and 8 leaders (the ninth is the fair schedule's)",
            ));
        }
        if self.kept_matchmakers >= GENERATION_SIZE {
            return Err(Refused::BadConfig(
                "the next generation keeps at most 2 of the first generation's matchmakers",
            ));
        }
        if self.back_to_first_generation && !(self.replacement && self.kept_matchmakers == 0) {
            return Err(Refused::BadConfig(
                "going back to the first generation needs a replacement by M4..M6 first",
            ));
        }
        if self.leaders.iter().any(|plan| plan.round == 0) {
            return Err(Refused::BadConfig("rounds are numbered from 1"));
        }
        let acceptors_known = self.leaders.iter().all(|plan| {
            !plan.acceptors.is_empty()
                && (plan.acceptors.iter()).all(|n| (1..=self.acceptor_count).contains(n))
        });
        if !acceptors_known {
            return Err(Refused::BadConfig(
                "every leader's configuration names at least one of the world's acceptors",
            ));
        }
        let controls = [
            NegativeControl::NoLowerRoundCheck,
            NegativeControl::Phase1LatestOnly,
            NegativeControl::GcAfterPhase1,
            NegativeControl::NoStop,
            NegativeControl::StoppedCollects,
            NegativeControl::BootstrapBelowWatermark,
            NegativeControl::BootstrapKeepsItsWatermark,
        ];
        if let Some(control) = self.negative_control
            && !controls.contains(&control)
        {
            return Err(Refused::BadConfig(
                "a matchmaker world's controls are no-lower-round-check, phase1-latest-only, gc-after-phase1, no-stop, stopped-collects, bootstrap-below-watermark and bootstrap-keeps-its-watermark",
            ));
        }
        let allowed = [Fault::Drop, Fault::Duplicate, Fault::Crash];
        if Fault::ALL
            .into_iter()
            .any(|fault| !allowed.contains(&fault) && self.budget.allows(fault))
        {
            return Err(Refused::BadConfig(
                "a matchmaker world's faults are drops, duplicates and crashes",
            ));
        }
        Ok(())
    }
}
