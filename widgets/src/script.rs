//! The script language of level preludes and reference solutions: one step a line, as a player
//! would say it.
//!
//! - a world action, by message id (`deliver m3`) or by route (`deliver P1->A2 Prepare`,
//!   `drop A1->P1 Accepted`, `deliver A2->P1 Promise(1.P1)`): the first message in send order
//!   on that route whose kind, or whole text when it has parentheses, matches;
//! - `start P2`, `retry P1`;
//! - `answer KEY`, where KEY is a choice's key (`promise`, `nack`, `x`, `2.P1`, `yes`);
//! - `next-stage`, `undo`.
//!
//! Routes keep solutions readable and independent of message numbering.

use crate::board::Board;
use paros_sim::{Action, World};

/// One parsed step.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ScriptStep<A = Action> {
    /// A world action.
    World(A),
    /// An answer, by choice key.
    Answer(String),
    /// Go on to the next stage.
    NextStage,
    /// Take the last move back.
    Undo,
}

/// Parses one step against the world it will be played in.
pub fn parse<B: Board>(board: &B, text: &str) -> Result<ScriptStep<B::Action>, String> {
    let trimmed = text.trim();
    match trimmed {
        "next-stage" => return Ok(ScriptStep::NextStage),
        "undo" => return Ok(ScriptStep::Undo),
        _ => {}
    }
    if let Some(key) = trimmed.strip_prefix("answer ") {
        return Ok(ScriptStep::Answer(key.trim().to_string()));
    }
    board.parse_step(trimmed).map(ScriptStep::World)
}

/// Parses an Act I world action, by message id, by route or by node name.
pub fn world_action(world: &World, text: &str) -> Result<Action, String> {
    let mut words = text.trim().splitn(3, ' ');
    let verb = words.next().unwrap_or_default();
    let target = words.next().unwrap_or_default();
    let Some((from, to)) = target.split_once("->") else {
        return world.parse_action(text);
    };
    let pattern = words.next().unwrap_or_default().trim();
    let message = world
        .in_flight()
        .into_iter()
        .find(|message| {
            let envelope = &message.envelope;
            let matches_pattern = if pattern.is_empty() {
                true
            } else if pattern.contains('(') {
                world.message_name(&envelope.message) == pattern
            } else {
                envelope.message.kind() == pattern
            };
            world.name(envelope.from) == from && world.name(envelope.to) == to && matches_pattern
        })
        .ok_or_else(|| format!("no message {from}->{to} {pattern} is in flight"))?;
    world.parse_action(&format!("{verb} {}", message.id))
}
