//! The Act I world as a [`Model`]: what the explorer, the simulator and the game drive, on top
//! of the world, its symmetries, its checks and its names.

use super::config::DecreeWorldConfig;
use super::world::{DecreeAction, DecreeStep, DecreeWorld};
use crate::faults::{Budget, Fault, Refused};
use crate::model::Model;

impl Model for DecreeWorld {
    type Config = DecreeWorldConfig;
    type Action = DecreeAction;
    type Step = DecreeStep;

    const FAULTS: &'static [Fault] = &[Fault::Drop, Fault::Duplicate, Fault::Retry, Fault::Amnesia];

    fn build(config: DecreeWorldConfig) -> Result<DecreeWorld, Refused> {
        DecreeWorld::new(config)
    }

    fn enabled(&self) -> Vec<DecreeAction> {
        DecreeWorld::enabled(self)
    }

    fn apply(&mut self, action: &DecreeAction) -> Result<DecreeStep, Refused> {
        DecreeWorld::apply(self, action)
    }

    fn fingerprint(&self) -> u64 {
        DecreeWorld::fingerprint(self)
    }

    fn successor(&self, action: &DecreeAction) -> Result<DecreeWorld, Refused> {
        DecreeWorld::successor(self, action)
    }

    fn successor_fingerprint(&self, action: &DecreeAction) -> Result<u64, Refused> {
        DecreeWorld::successor_fingerprint(self, action)
    }

    fn symmetries(&self) -> usize {
        self.renamings.len()
    }

    fn for_symmetric_exploration(self) -> DecreeWorld {
        self.keeping_images()
    }

    fn orbit_fingerprint(&self) -> u64 {
        DecreeWorld::orbit_fingerprint(self)
    }

    fn successor_orbit_fingerprint(&self, action: &DecreeAction) -> Result<u64, Refused> {
        DecreeWorld::successor_orbit_fingerprint(self, action)
    }

    fn budget_left(&self) -> Budget {
        DecreeWorld::budget_left(self)
    }

    fn violations(&self) -> Vec<crate::check::Violation> {
        super::check::safety(self)
    }

    fn parse_action(&self, text: &str) -> Result<DecreeAction, String> {
        DecreeWorld::parse_action(self, text)
    }

    fn describe(&self, action: &DecreeAction) -> String {
        DecreeWorld::describe(self, action)
    }

    fn is_decided(&self) -> bool {
        !self.chosen().is_empty()
    }

    fn fault_kind(&self, action: &DecreeAction) -> Option<Fault> {
        match action {
            DecreeAction::Drop(_) => Some(Fault::Drop),
            DecreeAction::Duplicate(_) => Some(Fault::Duplicate),
            DecreeAction::Amnesia(_) => Some(Fault::Amnesia),
            DecreeAction::Deliver(_) | DecreeAction::Start(_) | DecreeAction::Retry(_) => None,
        }
    }

    fn message_of(&self, action: &DecreeAction) -> Option<u64> {
        match action {
            DecreeAction::Deliver(message) => Some(u64::from(message.0)),
            _ => None,
        }
    }
}
