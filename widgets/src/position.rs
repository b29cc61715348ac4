//! A game position as text: one token per move of the log, short enough to share in a link
//! (`play/#act2/the-permanent-gap?moves=tick+N1,deliver+m1,...`), played back through the same
//! checks as live play.
//!
//! A token is the move in the script language ([`Game::play`](crate::Game::play)), in the
//! fewest words that still name it (`deliver m5`, `tick N1`, `request C1 N2`), `answer KEY` or
//! `next-stage`. A move that opened a prompt ends with the prompt's kind (`deliver m5
//! !apply-walk`): a position replays the same prompts whatever toggles its reader has on, and
//! a move that opened no prompt must open none when played back, so a link can neither skip a
//! question nor slip a wrong answer in.

use crate::board::{Board, ByHand};
use crate::prompt::PromptKind;
use crate::script::{self, ScriptStep};
use crate::state::Move;

/// The word that marks a move held by a prompt, before the prompt's kind.
const HELD: char = '!';

/// One move of a position, read against the world it is played in.
pub(crate) enum Token<M> {
    /// A world move, and the kind of prompt it opened, if it opened one.
    Move(M, Option<PromptKind>),
    /// `answer KEY`.
    Answer(String),
    /// `next-stage`.
    NextStage,
}

/// Why a position does not play back: which move, and what refused it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PositionError {
    /// The refused move's place in the position, from 1.
    pub number: usize,
    /// The refused token, as given.
    pub token: String,
    /// Why it was refused.
    pub reason: String,
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "move {} ({}) was refused: {}",
            self.number, self.token, self.reason
        )
    }
}

/// The parts played by hand when a move is played back: just what its prompt needs, or none.
pub(crate) fn by_hand_for(held: Option<PromptKind>) -> ByHand {
    held.map_or_else(ByHand::default, ByHand::only)
}

/// The token of `entry`, played in `world` (the world before it).
pub(crate) fn token<B: Board>(world: &B, entry: &Move<B::Move>) -> String {
    match entry {
        Move::Act(action) => shortest(world, action),
        Move::Hold(action, kind) => format!("{} {HELD}{}", shortest(world, action), kind.name()),
        Move::Answer(key) => format!("answer {key}"),
        Move::NextStage => "next-stage".into(),
    }
}

/// The fewest leading words of the move's full description that still parse back to it.
fn shortest<B: Board>(world: &B, action: &B::Move) -> String {
    let full = world.describe_move(action);
    let words: Vec<&str> = full.split_whitespace().collect();
    (1..words.len())
        .map(|count| words[..count].join(" "))
        .find(|short| world.parse_move(short).as_ref() == Ok(action))
        .unwrap_or(full)
}

/// Reads one token against `world`: the script language's move, answer or `next-stage`
/// ([`script::parse`]), a move perhaps marked with the prompt it opened.
pub(crate) fn parse<B: Board>(world: &B, text: &str) -> Result<Token<B::Move>, String> {
    let (step, held) = match text.trim().rsplit_once(' ') {
        Some((step, last)) if last.starts_with(HELD) => {
            let name = &last[HELD.len_utf8()..];
            let kind = PromptKind::from_name(name)
                .ok_or_else(|| format!("no kind of prompt is named {name:?}"))?;
            (step, Some(kind))
        }
        _ => (text, None),
    };
    match (script::parse(world, step)?, held) {
        (ScriptStep::World(action), held) => Ok(Token::Move(action, held)),
        (ScriptStep::Answer(key), None) => Ok(Token::Answer(key)),
        (ScriptStep::NextStage, None) => Ok(Token::NextStage),
        _ => Err(format!("{text:?} is not a move of a position")),
    }
}
