//! The [`Model`] trait: what the explorer, the simulator and the game need from a world.
//!
//! Both drivers are written once, against this trait, so every world type (Act I's
//! [`DecreeWorld`](crate::single_decree::DecreeWorld), the replicated log's
//! [`LogWorld`](crate::replicated_log::LogWorld), ...) gets exhaustive exploration, seeded
//! simulation, honest verdicts and JSON reports by implementing it; the game plays the same
//! worlds through it. The shape follows stateright's model: the
//! actions enabled in a state, and the state an action leads to.
//!
//! # Contract
//!
//! An implementation must be a deterministic value:
//!
//! - [`Model::enabled`] lists, in a stable order, every action [`Model::apply`] accepts now, and
//!   nothing else. The explorer treats a refused enabled action as an error (a hole in the model),
//!   never as a dead end. The one exception is an action only a world's fair schedule takes (the
//!   log world's `stop-faults`, which unbounds its clocks, and the matchmaker world's, which
//!   adds the leader that must finish): it is never enabled, since no search
//!   could finish past it, but applies so that a liveness run replays.
//! - [`Model::apply`] depends only on the state and the action: no clock, no randomness, no
//!   hash-order iteration. A refused action leaves the state unchanged.
//! - [`Model::fingerprint`] covers everything the future depends on (node states, messages in
//!   flight, budgets left, histories the checkers read). Two states with the same fingerprint
//!   are treated as the same state: leaving something out merges states that differ and can
//!   hide a violation (honest-verdicts: the idle-timeout false pass).
//! - Every run is finite: fault and retry budgets bound the walk, so an exhaustive search can
//!   finish and a random walk ends on its own.
//! - A checker past its limits says so through [`Model::gave_up`], never as a violation: the
//!   run ends with an error, not a verdict.
//! - [`Model::successor`] and [`Model::successor_fingerprint`] are optional shortcuts: their
//!   defaults clone and apply. An override must give exactly what the defaults would; the
//!   explorer checks the fingerprint of every state it builds against the one it queued it
//!   under, in debug builds.
//! - Symmetries are optional ([`Model::symmetries`]). A world that declares them must make
//!   [`Model::orbit_fingerprint`] exact (equal exactly for states one symmetry maps onto the
//!   other), and every checker, [`Model::is_decided`] and the enabled actions must be the same
//!   on a state and on each of its images. A search that merges by orbit still keeps and builds
//!   real states, so its counterexamples replay as printed.
//!
//! # Implementing it for a new world
//!
//! Implement the trait, add a [`Setup`](crate::scenarios::Setup) variant that builds the world
//! from a scenario's parameters (with its arms in `Scenario::budgets` and `Scenario::prelude`,
//! and the two dispatch arms in [`runner`](crate::runner)), and list the scenarios in
//! [`all`](crate::scenarios::all). The explorer, simulator, reports, `paros-sim` and the book
//! need nothing else.

use crate::check::{GaveUp, Violation};
use crate::faults::{Budget, Fault, Refused};
use std::fmt;

/// How a fair, fault-free schedule ended ([`Model::settle`]).
#[derive(Clone, Debug)]
pub struct Settled<A> {
    /// The actions it took, in order; applied after the walk they replay like any other.
    pub actions: Vec<A>,
    /// Whether it reached a decision.
    pub decided: bool,
    /// The properties it broke, if any: a safety violation like any other.
    pub violations: Vec<Violation>,
    /// A checker that gave up on the way, if one did: an error, as in [`Model::gave_up`].
    pub gave_up: Option<GaveUp>,
    /// When it did not reach a decision: the state it was stuck in, in words.
    pub stuck: Option<String>,
}

/// A world the explorer, the simulator and the game can drive. See the module docs for the
/// contract.
pub trait Model: Clone + Send + Sync {
    /// What a world is built from; constant for its life.
    type Config;

    /// One thing that can happen. `Display` prints it short (`deliver m3`); [`Model::describe`]
    /// prints it in full against the state it applies to.
    type Action: Clone + fmt::Debug + fmt::Display + Send + Sync;

    /// What an applied action did, for those who watch a world step by step (the game).
    type Step;

    /// The faults this kind of world has, in the order its reports list their budgets.
    const FAULTS: &'static [Fault];

    /// The world at its beginning.
    fn build(config: Self::Config) -> Result<Self, Refused>;

    /// Builds a world and applies `actions` in order; the error gives the index of the first
    /// refused action and why.
    fn replay(config: Self::Config, actions: &[Self::Action]) -> Result<Self, (usize, Refused)> {
        let mut world = Self::build(config).map_err(|refused| (0, refused))?;
        for (index, action) in actions.iter().enumerate() {
            world.apply(action).map_err(|refused| (index, refused))?;
        }
        Ok(world)
    }

    /// Every action [`Model::apply`] would accept now, in a stable order. Empty when the world
    /// has nothing left to do (a terminal state).
    fn enabled(&self) -> Vec<Self::Action>;

    /// Applies one action; a refused action leaves the world unchanged.
    fn apply(&mut self, action: &Self::Action) -> Result<Self::Step, Refused>;

    /// The state `action` leads to, leaving this one as it is: what cloning and applying give.
    /// A world that can build a successor more cheaply than a clone followed by a step
    /// overrides this.
    fn successor(&self, action: &Self::Action) -> Result<Self, Refused> {
        let mut successor = self.clone();
        successor.apply(action)?;
        Ok(successor)
    }

    /// This world, ready to start an exploration: a world that keeps caches for the length of
    /// one search (the log world's memo of server steps) gives the copy fresh ones, shared by
    /// every state built from it. The default changes nothing. Never changes the state.
    fn for_exploration(self) -> Self {
        self
    }

    /// A 64-bit digest of everything the future of this world depends on. Equal fingerprints
    /// mean the same state to the explorer.
    fn fingerprint(&self) -> u64;

    /// How many symmetries this world declares, the identity included: renamings of its nodes
    /// that map every state onto one that behaves alike (its actions renamed lead to the
    /// successors renamed) and that every checker judges alike. 1, the default, declares none.
    fn symmetries(&self) -> usize {
        1
    }

    /// This world, ready for a search that merges the states a symmetry maps onto each other: a
    /// world that keeps what [`Model::orbit_fingerprint`] needs starts keeping it here, and the
    /// successors it builds keep it too. The default changes nothing. Never changes the state.
    fn for_symmetric_exploration(self) -> Self {
        self
    }

    /// A 64-bit digest of this state's orbit: every state a declared symmetry maps it onto
    /// gets the same one, and two states get the same one only if a declared symmetry maps one
    /// onto the other (up to a collision of 64-bit hashes, as for [`Model::fingerprint`]). The
    /// default, for a world that declares no symmetry, is its fingerprint.
    fn orbit_fingerprint(&self) -> u64 {
        self.fingerprint()
    }

    /// The orbit fingerprint of the state `action` leads to: what [`Model::successor`] and
    /// [`Model::orbit_fingerprint`] give, and it must always equal that. A world that declares
    /// symmetries overrides it where it can hash a successor's images without building it.
    fn successor_orbit_fingerprint(&self, action: &Self::Action) -> Result<u64, Refused> {
        Ok(self.successor(action)?.orbit_fingerprint())
    }

    /// The fingerprint of the state `action` leads to: what cloning, applying and
    /// [`Model::fingerprint`] give, and it must always equal that. The explorer asks it for every
    /// transition and builds only the successors it has not seen, so a world that can hash a
    /// successor without building it (as Act I's does) overrides this to save that work.
    fn successor_fingerprint(&self, action: &Self::Action) -> Result<u64, Refused> {
        let mut successor = self.clone();
        successor.apply(action)?;
        Ok(successor.fingerprint())
    }

    /// The faults (and bounded steps) this world may still use.
    fn budget_left(&self) -> Budget;

    /// The safety properties broken in this state; empty when it is safe so far.
    fn violations(&self) -> Vec<Violation>;

    /// A checker that could not decide, in this state or on the way to it: kept apart from
    /// [`Model::violations`], since a checker past its limits has found nothing. The drivers
    /// end the run with [`Error::CheckGaveUp`](crate::Error::CheckGaveUp), unless a property
    /// is broken in the same state.
    fn gave_up(&self) -> Option<GaveUp> {
        None
    }

    /// Reads an action back from the words [`Model::describe`] (or the action's `Display`)
    /// prints, against this state. An action on a message may name it by route instead of id
    /// ([`Network::parse`](crate::network::Network::parse)).
    fn parse_action(&self, text: &str) -> Result<Self::Action, String>;

    /// The action in full, read against this state (the state before it is applied):
    /// `deliver m3 P1->A2 Prepare(1.P1)`.
    fn describe(&self, action: &Self::Action) -> String;

    /// Whether this world has reached a decision: the liveness question, reported apart from
    /// safety. In Act I, a value is chosen.
    fn is_decided(&self) -> bool;

    /// Liveness once faults stop: the fair, fault-free schedule from this state, and how it
    /// ended. `None` for a world with no such schedule (Act I's budgets already end every
    /// walk); `Err` when the world refused an action of its own fair schedule (a hole in the
    /// model, never "did not settle").
    fn settle(&self) -> Option<Result<Settled<Self::Action>, String>> {
        None
    }

    /// The fault this action injects, or `None` for an ordinary step. Reports count faults by
    /// [`Fault::name`].
    fn fault_kind(&self, action: &Self::Action) -> Option<Fault>;

    /// The message this action delivers, by its id in send order, or `None` when it delivers
    /// none. The simulator uses it to hold some messages back and release them late.
    fn message_of(&self, action: &Self::Action) -> Option<u64> {
        let _ = action;
        None
    }
}
