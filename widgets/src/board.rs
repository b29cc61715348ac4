//! The [`Board`] trait: what the game needs from a world to play a level on it.
//!
//! The game (move log, replay, prompts held and answered, goal, memory) is written once against
//! this trait. Act I plays on paros-sim's single-decree [`World`](paros_sim::World) (see
//! `single_decree`); Act II plays on its replicated-log `LogWorld` (see `replicated_log`), with
//! its own actions (ticks, crashes, client requests), its own role prompts and its own stage
//! drawing, and the same [`View`](crate::View) shape.

use crate::automation::Automation;
use crate::error::PlayError;
use crate::prompt::{Prompt, PromptKind};
use crate::scene::{ActionJson, ChosenView, ClusterView, ControlView, MessageView, NodeView};
use std::collections::BTreeSet;
use std::fmt;
use std::hash::Hash;

/// Which parts of the roles the player answers for on the next move.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct ByHand {
    /// The automation toggles that are off.
    pub off: BTreeSet<Automation>,
    /// Whether a retry asks for its ballot.
    pub retry: bool,
}

impl ByHand {
    /// Whether the part `automation` automates is played by hand.
    pub fn has(&self, automation: Automation) -> bool {
        self.off.contains(&automation)
    }

    /// Everything by hand.
    pub fn all() -> ByHand {
        ByHand {
            off: Automation::ALL.into_iter().collect(),
            retry: true,
        }
    }

    /// Just the part a prompt of `kind` plays by hand: what a held action's prompt is rebuilt
    /// with during replay, so it opens the same kind of prompt it opened when played.
    pub fn only(kind: PromptKind) -> ByHand {
        ByHand {
            off: kind.automation().into_iter().collect(),
            retry: kind == PromptKind::RetryBallot,
        }
    }
}

/// A world a level is played on. Implementations must be deterministic values: the same
/// actions from the same configuration always give the same world (undo relies on it).
pub trait Board: Clone + fmt::Debug + Sized + 'static {
    /// What a stage's world is built from.
    type Config;
    /// One thing the player can make happen.
    type Action: Clone + PartialEq + Eq + Hash + fmt::Debug;
    /// What an applied action did, for level questions and the outcome line.
    type Step;
    /// The few facts level questions compare across a step.
    type Summary;

    /// The automation toggles that matter on this kind of world, in the order listed.
    const AUTOMATION: &'static [Automation];

    /// Builds a world at its beginning.
    fn build(config: Self::Config) -> Result<Self, PlayError>;

    /// Applies one action. A refused action leaves the world unchanged.
    fn apply(&mut self, action: &Self::Action) -> Result<Self::Step, PlayError>;

    /// Every action the player may take now, in a stable order.
    fn moves(&self) -> Vec<Self::Action>;

    /// Why `action` cannot be taken now, in the world's words.
    fn refusal(&self, action: &Self::Action) -> PlayError;

    /// The action in full, read against this world: `deliver m3 P1->A2 Prepare(1.P1)`.
    fn describe(&self, action: &Self::Action) -> String;

    /// A digest of everything the future of this world depends on.
    fn fingerprint(&self) -> u64;

    /// The summary level questions compare across a step.
    fn summary(&self) -> Self::Summary;

    /// Parses one world action of the script language (see [`Game::play`](crate::Game::play)).
    fn parse_step(&self, text: &str) -> Result<Self::Action, String>;

    /// Parses an action as the browser sends it.
    fn parse_json(&self, action: ActionJson) -> Result<Self::Action, PlayError>;

    /// The prompt `action` opens when the parts in `by_hand` are played by hand, or `None`
    /// when the world simply takes it. The right answer must come from the real nodes.
    fn prompt(&self, action: &Self::Action, by_hand: &ByHand) -> Option<Prompt>;

    /// The node an action hands something to, for the outcome line (`A2 ignored it: ...`).
    fn receiver(&self, action: &Self::Action) -> Option<String>;

    /// Why the receiver took no step, if it did not.
    fn ignored(step: &Self::Step) -> Option<String>;

    /// The nodes as the stage draws them.
    fn nodes(&self, by_hand: &ByHand) -> Vec<NodeView>;

    /// The messages in flight, with the actions `moves` allows on each.
    fn messages(&self, moves: &[Self::Action]) -> Vec<MessageView>;

    /// The buttons for the moves that are not about a message (start, retry, tick, ...).
    fn controls(&self, moves: &[Self::Action]) -> Vec<ControlView>;

    /// The decision, if one is made.
    fn chosen(&self) -> Option<ChosenView>;

    /// The automation an action needs switched on to be offered at all (a shortcut such as
    /// Act II's `beat`), if any.
    fn requires(&self, _action: &Self::Action) -> Option<Automation> {
        None
    }

    /// What a world of many slots adds to the stage (Act II): the chosen log, the clients,
    /// budgets and partitions. `None` for a single-decree world.
    fn cluster(&self) -> Option<ClusterView> {
        None
    }
}
