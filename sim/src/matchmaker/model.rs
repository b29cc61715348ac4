//! The matchmaker world as a [`Model`]: what the explorer, the simulator and the game drive, on
//! top of the world, its checks and its names.

use super::config::MatchmakerWorldConfig;
use super::world::{MatchmakerWorld, MmAction, MmStep};
use crate::faults::{Budget, Fault, Refused};
use crate::model::Model;

impl Model for MatchmakerWorld {
    type Config = MatchmakerWorldConfig;
    type Action = MmAction;
    type Step = MmStep;

    const FAULTS: &'static [Fault] = &[Fault::Drop, Fault::Duplicate, Fault::Crash];

    fn build(config: MatchmakerWorldConfig) -> Result<MatchmakerWorld, Refused> {
        MatchmakerWorld::new(config)
    }

    fn enabled(&self) -> Vec<MmAction> {
        MatchmakerWorld::enabled(self)
    }

    fn apply(&mut self, action: &MmAction) -> Result<MmStep, Refused> {
        MatchmakerWorld::apply(self, action)
    }

    /// A copy with a fresh memo of deliveries, shared by every world built from it.
    fn for_exploration(self) -> MatchmakerWorld {
        MatchmakerWorld::with_memo(self)
    }

    fn fingerprint(&self) -> u64 {
        MatchmakerWorld::fingerprint(self)
    }

    /// A delivery's successor is hashed from the change its memo entry recorded, with nothing
    /// built; any other action's successor is built and hashed.
    fn successor_fingerprint(&self, action: &MmAction) -> Result<u64, Refused> {
        MatchmakerWorld::successor_fingerprint(self, action)
    }

    /// Built as [`MatchmakerWorld::apply`] builds it, on a copy; in debug builds its fingerprint, kept
    /// as a sum changed step by step, is checked against one worked out from every part.
    fn successor(&self, action: &MmAction) -> Result<MatchmakerWorld, Refused> {
        let mut next = self.clone();
        next.step(action)?;
        next.debug_check_fingerprint();
        Ok(next)
    }

    fn budget_left(&self) -> Budget {
        MatchmakerWorld::budget_left(self)
    }

    fn violations(&self) -> Vec<crate::check::Violation> {
        super::checks::safety(self)
    }

    fn parse_action(&self, text: &str) -> Result<MmAction, String> {
        MatchmakerWorld::parse_action(self, text)
    }

    fn describe(&self, action: &MmAction) -> String {
        MatchmakerWorld::describe(self, action)
    }

    fn is_decided(&self) -> bool {
        !self.chosen().is_empty()
    }

    /// The fair schedule of [`MatchmakerWorld::settle`].
    fn settle(&self) -> Option<Result<crate::model::Settled<MmAction>, String>> {
        Some(MatchmakerWorld::settle(self))
    }

    fn fault_kind(&self, action: &MmAction) -> Option<Fault> {
        match action {
            MmAction::Drop(_) => Some(Fault::Drop),
            MmAction::Duplicate(_) => Some(Fault::Duplicate),
            MmAction::Crash(_) => Some(Fault::Crash),
            _ => None,
        }
    }

    fn message_of(&self, action: &MmAction) -> Option<u64> {
        match action {
            MmAction::Deliver(message) => Some(u64::from(message.0)),
            _ => None,
        }
    }
}
