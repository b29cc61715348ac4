//! The reach-set prompt: which nodes' answers a phase waits for. The player ticks one box per
//! node; every set of the candidates is a choice, judged by a closure the level builds over
//! paros-core's quorum system, so the set the player ticks is answered with the core's reason.

use crate::prompt::{Choice, Prompt, PromptKind};
use crate::words::log_set_name as set_name;
use paros_core::{NodeId, NodeSet};
use paros_sim::replicated_log::LogWorld;

/// The key of the empty set, the answer with no box ticked.
pub const NOBODY: &str = "none";

/// What a judge says of one set: whether it is right, and why.
pub struct Verdict {
    /// Whether the set is a right answer.
    pub right: bool,
    /// For a right set, the rule it follows; for a wrong one, what it misses.
    pub explanation: String,
}

/// A reach-set question about `candidates`: one choice per subset (the empty one included),
/// keyed by its members' names joined with `+` (`N3+N4`, see [`set_key`]) and labelled with
/// the set, each judged by `judge`. A level sets the prompt's `record` if it keeps one.
pub fn pick_nodes(
    world: &LogWorld,
    question: String,
    facts: Vec<String>,
    candidates: NodeSet,
    judge: impl Fn(NodeSet) -> Verdict,
) -> Prompt {
    let members: Vec<NodeId> = candidates.iter().collect();
    let choices = (0u32..1 << members.len())
        .map(|mask| {
            let set: NodeSet = (members.iter().enumerate())
                .filter(|(bit, _)| mask & (1 << bit) != 0)
                .map(|(_, node)| *node)
                .collect();
            let Verdict { right, explanation } = judge(set);
            Choice {
                key: set_key(world, set),
                label: set_name(world, set),
                right,
                explanation,
            }
        })
        .collect();
    Prompt {
        kind: PromptKind::ReachSet,
        node: None,
        message: None,
        question,
        facts,
        choices,
        record: None,
        topic: "",
    }
}

/// A set's key in a reach-set prompt: `N3+N4`, or [`NOBODY`].
pub fn set_key(world: &LogWorld, set: NodeSet) -> String {
    if set.is_empty() {
        return NOBODY.into();
    }
    let names: Vec<String> = set.iter().map(|node| world.name(node)).collect();
    names.join("+")
}
