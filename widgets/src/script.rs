//! The script language of level preludes and reference solutions: one step a line, as a player
//! would say it.
//!
//! - a world action, by message id (`deliver m3`) or by route (`deliver P1->A2 Prepare`,
//!   `drop A1->P1 Accepted`, `deliver A2->P1 Promise(1.P1)`): the first message in send order
//!   on that route whose kind is the word given, or whose text begins with it when it has a
//!   parenthesis (paros-sim's `Network::parse` reads them, for every world alike);
//! - `start P2`, `retry P1`;
//! - `answer KEY`, where KEY is a choice's key (`promise`, `nack`, `x`, `2.P1`, `yes`);
//! - `next-stage`, `undo`.
//!
//! Routes keep solutions readable and independent of message numbering.

use crate::board::Board;

/// One parsed step.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ScriptStep<A> {
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
pub fn parse<B: Board>(board: &B, text: &str) -> Result<ScriptStep<B::Move>, String> {
    let trimmed = text.trim();
    match trimmed {
        "next-stage" => return Ok(ScriptStep::NextStage),
        "undo" => return Ok(ScriptStep::Undo),
        _ => {}
    }
    if let Some(key) = trimmed.strip_prefix("answer ") {
        return Ok(ScriptStep::Answer(key.trim().to_string()));
    }
    board.parse_move(trimmed).map(ScriptStep::World)
}
