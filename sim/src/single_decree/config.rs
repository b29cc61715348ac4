//! What an Act I world is made of ([`DecreeWorldConfig`]): its acceptors, its proposers and
//! their values, the silent acceptors, the faults it allows and its negative control.

use crate::faults::{Budget, Fault, NegativeControl, Refused};
use paros_core::{NodeId, NodeSet, Value};

/// One proposer of the world.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ProposerConfig {
    /// The value it wants chosen.
    pub value: Value,
    /// Whether it has sent its Prepares when the world begins.
    pub started: bool,
}

/// What an Act I world is made of. Constant for the life of a world.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct DecreeWorldConfig {
    /// How many acceptors: A1..An, with node ids 1..=n.
    pub acceptor_count: u8,
    /// The proposers: P1..Pm, with node ids n+1..=n+m, so P2's ballots rank above P1's in the
    /// same round.
    pub proposers: Vec<ProposerConfig>,
    /// Acceptors whose wire is cut: messages to and from them stay in flight forever.
    pub silent: NodeSet,
    /// The faults allowed: drops, duplicates, amnesia, and retries per proposer (a retry
    /// raises its ballot; without a bound a duel's ballots grow forever).
    pub budget: Budget,
    /// The fault outside the model this world may use, if it is a negative control.
    pub negative_control: Option<NegativeControl>,
}

impl DecreeWorldConfig {
    /// Three acceptors and one proposer per value, all started, with no faults allowed.
    pub fn act1(values: &[&str]) -> DecreeWorldConfig {
        DecreeWorldConfig {
            acceptor_count: 3,
            proposers: values
                .iter()
                .map(|value| ProposerConfig {
                    value: Value::new(value),
                    started: true,
                })
                .collect(),
            silent: NodeSet::EMPTY,
            budget: Budget::NONE,
            negative_control: None,
        }
    }

    /// The node id of acceptor `index` (0-based).
    pub fn acceptor_id(&self, index: usize) -> NodeId {
        node_id(index + 1)
    }

    /// The node id of proposer `index` (0-based).
    pub fn proposer_id(&self, index: usize) -> NodeId {
        node_id(usize::from(self.acceptor_count) + index + 1)
    }

    /// All acceptors.
    pub fn acceptors(&self) -> NodeSet {
        (0..usize::from(self.acceptor_count))
            .map(|index| self.acceptor_id(index))
            .collect()
    }

    pub(super) fn validate(&self) -> Result<(), Refused> {
        let node_count = usize::from(self.acceptor_count) + self.proposers.len();
        if self.acceptor_count == 0 || node_count > usize::from(NodeId::MAX) {
            return Err(Refused::BadConfig(
                "between 1 and 63 nodes, at least one acceptor",
            ));
        }
        let act1_controls = [
            NegativeControl::Amnesia,
            NegativeControl::RogueValue,
            NegativeControl::LearnEarly,
        ];
        if let Some(control) = self.negative_control
            && !act1_controls.contains(&control)
        {
            return Err(Refused::BadConfig(
                "Act I's negative controls are amnesia, a rogue value and learning early",
            ));
        }
        if self.negative_control == Some(NegativeControl::RogueValue)
            && self
                .proposers
                .iter()
                .any(|proposer| proposer.value == rogue_value())
        {
            return Err(Refused::BadConfig("the rogue value is nobody's own value"));
        }
        if self.budget.allows(Fault::Amnesia)
            && self.negative_control != Some(NegativeControl::Amnesia)
        {
            return Err(Refused::BadConfig(
                "amnesia exists only in the amnesia negative control",
            ));
        }
        let act2_only = [
            Fault::Crash,
            Fault::TornWrite,
            Fault::Partition,
            Fault::Tick,
            Fault::ClientResend,
        ];
        if act2_only.into_iter().any(|fault| self.budget.allows(fault)) {
            return Err(Refused::BadConfig(
                "an Act I world has no clocks, crashes, partitions or clients",
            ));
        }
        Ok(())
    }
}

/// The value the rogue-value negative control proposes: never a proposer's own.
pub fn rogue_value() -> Value {
    Value::new("rogue")
}

fn node_id(number: usize) -> NodeId {
    u8::try_from(number)
        .ok()
        .and_then(NodeId::new)
        .expect("validated node count")
}

/// Which role a node plays in an Act I world.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Role {
    /// Acceptor `index` (0-based), named A1, A2, ...
    Acceptor(usize),
    /// Proposer `index` (0-based), named P1, P2, ...
    Proposer(usize),
}
