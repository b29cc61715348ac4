//! The [`Board`] trait: what the game needs from a world to play a level on it.
//!
//! The game (move log, replay, prompts held and answered, goal, memory) is written once against
//! this trait, which extends paros-sim's [`Model`]: the game steps the same world the explorer
//! and the simulator do. Act I plays on the single-decree `DecreeWorld` (see `single_decree`);
//! Act II plays on the replicated-log `LogWorld` (see `replicated_log`), with its own actions
//! (ticks, crashes, client requests), its own role prompts and its own stage drawing, and the
//! same [`View`](crate::View) shape.

use crate::automation::{Automation, Automations};
use crate::error::PlayError;
use crate::prompt::{Prompt, PromptKind};
use crate::scene::{
    ActionJson, ChosenView, ClusterView, ControlView, MatchmakingView, MessageView, NodeView,
};
use paros_sim::MessageId;
use paros_sim::model::Model;
use paros_sim::network::{MessageAction, Verb};
use std::fmt;
use std::hash::Hash;

/// Which parts of the roles the player answers for on the next move.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct ByHand {
    /// The automation toggles that are off.
    pub off: Automations,
    /// Whether a retry asks for its ballot.
    pub retry: bool,
}

impl ByHand {
    /// Whether the part `automation` automates is played by hand.
    pub fn has(&self, automation: Automation) -> bool {
        self.off.contains(automation)
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

/// The verbs `moves` allow on message `id`, in [`Verb::ALL`] order: what the stage offers on it.
pub fn message_verbs<B: Board>(moves: &[B::Move], id: MessageId) -> Vec<&'static str>
where
    B::Action: MessageAction,
{
    let allowed = |verb: &Verb| moves.contains(&B::Move::from(B::Action::on_message(*verb, id)));
    Verb::ALL
        .into_iter()
        .filter(allowed)
        .map(Verb::word)
        .collect()
}

/// A world a level is played on: a paros-sim [`Model`] (built, stepped, described, parsed and
/// fingerprinted as the explorer and the simulator drive it) and what only the game needs on
/// top: shortcut moves, prompts and the stage. Implementations must be deterministic values:
/// the same moves from the same configuration always give the same world (undo relies on it).
pub trait Board: Model + fmt::Debug + 'static {
    /// One thing the player can make happen: a world action, or a shortcut only the game
    /// offers (Act II's `beat`).
    type Move: Clone + PartialEq + Eq + Hash + fmt::Debug + From<Self::Action>;
    /// The few facts level questions compare across a step.
    type Summary;

    /// The automation toggles that matter on this kind of world, in the order listed.
    const AUTOMATION: &'static [Automation];

    /// The wasm module that plays levels on this kind of world: the name of the cargo feature
    /// that mounts them, and of the module's folder under `play/pkg/` in the built book.
    const MODULE: &'static str;

    /// Makes a move: a world action applies as [`Model::apply`] applies it. A refused move
    /// leaves the world unchanged.
    fn play(&mut self, action: &Self::Move) -> Result<Self::Step, PlayError>;

    /// Makes a move as [`Board::play`] does, and returns the world actions it applied, in
    /// order: the move itself, or what a shortcut (Act II's `beat`) expands into. Replaying
    /// them with [`Model::apply`] reaches the same world.
    fn world_actions(&mut self, action: &Self::Move) -> Result<Vec<Self::Action>, PlayError>;

    /// Every move the player may take now, in a stable order.
    fn moves(&self) -> Vec<Self::Move>;

    /// Why `action` cannot be taken now, in the world's words.
    fn refusal(&self, action: &Self::Move) -> PlayError;

    /// The move in full, read against this world: `deliver m3 P1->A2 Prepare(1.P1)`.
    fn describe_move(&self, action: &Self::Move) -> String;

    /// The summary level questions compare across a step.
    fn summary(&self) -> Self::Summary;

    /// Parses one move of the script language (see [`Game::play`](crate::Game::play)): a world
    /// action as [`Model::parse_action`] reads it (by message id or by route), or a shortcut.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;

    /// Parses a move as the browser sends it.
    fn parse_json(&self, action: ActionJson) -> Result<Self::Move, PlayError>;

    /// The prompt `action` opens when the parts in `by_hand` are played by hand, or `None`
    /// when the world simply takes it. The right answer must come from the real nodes.
    fn prompt(&self, action: &Self::Move, by_hand: &ByHand) -> Option<Prompt>;

    /// The node an action hands something to, for the outcome line (`A2 ignored it: ...`).
    fn receiver(&self, action: &Self::Move) -> Option<String>;

    /// Why the receiver took no step, if it did not.
    fn ignored(step: &Self::Step) -> Option<String>;

    /// The nodes as the stage draws them.
    fn nodes(&self, by_hand: &ByHand) -> Vec<NodeView>;

    /// The messages in flight, with the actions `moves` allows on each.
    fn messages(&self, moves: &[Self::Move]) -> Vec<MessageView>;

    /// The buttons for the moves that are not about a message (start, retry, tick, ...).
    fn controls(&self, moves: &[Self::Move]) -> Vec<ControlView>;

    /// The decision, if one is made.
    fn chosen(&self) -> Option<ChosenView>;

    /// The automation an action needs switched on to be offered at all (a shortcut such as
    /// Act II's `beat`), if any.
    fn requires(&self, _action: &Self::Move) -> Option<Automation> {
        None
    }

    /// What a world of many slots adds to the stage (Act II): the chosen log, the clients,
    /// budgets and partitions. `None` for a single-decree world.
    fn cluster(&self) -> Option<ClusterView> {
        None
    }

    /// What Matchmaker Paxos adds to the stage (Act IV): the matchmaker plane, the
    /// configurations and the leaders. `None` in every other world.
    fn matchmaking(&self) -> Option<MatchmakingView> {
        None
    }
}
