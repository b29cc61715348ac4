//! The jump prompt: a trim point reaches a node that has applied less than it holds, and the
//! node jumps to it. What is its promise afterwards?
//!
//! The right answer is the node's promise on the clone that took the step
//! (`ColocatedNode::install_trim_point` never lowers it); the wrong one is the ballot the trim
//! point came with, and it is told what the jump-moves-promise control does with it, played on a
//! copy of this very world.

use super::shared::{index_of, node};
use crate::prompt::{Choice, Prompt, PromptKind, drop_doubles};
use crate::replicated_log::ballot_name;
use paros_core::Ballot;
use paros_core::log::LogMessage;
use paros_sim::NegativeControl;
use paros_sim::replicated_log::{LogAction, LogWorld};

fn promise_name(world: &LogWorld, promise: Option<Ballot>) -> String {
    promise.map_or_else(|| "none".to_string(), |ballot| ballot_name(world, ballot))
}

/// The jump prompt, for a delivered trim point that the receiver installs.
pub(super) fn jump_promise(world: &LogWorld, after: &LogWorld, message: u32) -> Option<Prompt> {
    let in_flight = world.in_flight().iter().find(|m| m.id.0 == message)?;
    let envelope = &in_flight.envelope;
    let LogMessage::TrimPoint { ballot, point } = &envelope.message else {
        return None;
    };
    let index = index_of(envelope.to);
    let before = node(world, index)?;
    let now = node(after, index)?;
    if now.floor() <= before.floor() {
        return None;
    }
    let name = world.name(envelope.to);
    let from = world.name(envelope.from);
    let came_with = ballot_name(world, *ballot);
    let kept = promise_name(world, now.promised());
    let through = point.through;
    let right = Choice {
        key: kept.clone(),
        label: format!("Promised {kept}"),
        right: true,
        explanation: format!(
            "install_trim_point moves {name}'s floor and applied index to slot {through} and \
             never lowers its promise: {kept}. It raises it only to the ballot the trim point \
             came with, when that is higher. {name}'s promise is its own word, and the leader it \
             was given to counted it."
        ),
    };
    let wrong = Choice {
        key: came_with.clone(),
        label: format!("Promised {came_with}, the ballot the trim point came with"),
        right: false,
        explanation: if now.promised() > Some(*ballot) {
            let holder = now
                .promised()
                .map_or_else(String::new, |ballot| world.name(ballot.node));
            moved_promise(world, message, &name, &from, &came_with, &kept, &holder)
        } else {
            format!(
                "A trim point is decided state, not a Prepare: {name} follows {came_with} as a \
                 heartbeat's ballot, and install_trim_point leaves its promise at {kept}, at or \
                 above the ballot the trim point came with."
            )
        },
    };
    let mut choices = vec![right, wrong];
    drop_doubles(&mut choices);
    if choices.len() < 2 {
        return None;
    }
    Some(Prompt {
        kind: PromptKind::JumpPromise,
        node: Some(name.clone()),
        message: Some(message),
        question: format!(
            "{from}'s trim point through slot {through}, sent at {came_with}, reaches {name}, \
             which has applied through slot {}. {name} jumps. What is its promise afterwards?",
            before.applied_index()
        ),
        facts: vec![
            format!(
                "{name} has promised {}",
                promise_name(world, before.promised())
            ),
            format!(
                "{name} has applied through slot {}; its floor is {}",
                before.applied_index(),
                before.floor()
            ),
            format!("{from}'s floor is {through}; the trim point came with {came_with}"),
        ],
        choices,
        record: None,
        topic: "",
    })
}

/// The wrong answer's explanation: the same delivery played on a copy of the world with the
/// jump-moves-promise control, and what the World's checker says of it.
fn moved_promise(
    world: &LogWorld,
    message: u32,
    name: &str,
    from: &str,
    came_with: &str,
    kept: &str,
    holder: &str,
) -> String {
    let found = world
        .with_negative_control(NegativeControl::JumpMovesPromise)
        .ok()
        .and_then(|mut demo| {
            demo.apply(&LogAction::Deliver(paros_sim::MessageId(message)))
                .ok()?;
            let detail = demo.violations().first()?.detail.clone();
            Some(format!(
                " Played on a copy of this world with the simulator's jump-moves-promise \
                 control, the checker reports: {detail}."
            ))
        })
        .unwrap_or_default();
    format!(
        "{name} promised {kept}, and that Promise counts toward {holder}'s Phase-1 quorum: \
         {holder} proposes above the floor trusting that {name} votes for no ballot below \
         {kept}. Taking {from}'s {came_with} as its promise would lower it, and {name} would then \
         vote for a stale Accept at {came_with}: two Phase-2 quorums in one slot, two values \
         chosen.{found} The explorer finds that schedule in act3-jump-moves-promise-control."
    )
}
