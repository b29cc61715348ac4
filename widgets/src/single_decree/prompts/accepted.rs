//! The Accepted-or-Nack prompt: an acceptor played by hand receives an Accept (the vote
//! rule).

use super::shared::{acceptor_facts, promised_of, sent_by, two_quorums_through, value_of};
use crate::prompt::{Choice, Prompt, PromptKind};
use paros_core::{Ballot, Message, NodeId};
use paros_sim::MessageId;
use paros_sim::single_decree::{DecreeAction, DecreeWorld};

pub(super) fn accepted_or_nack(
    world: &DecreeWorld,
    id: MessageId,
    acceptor: NodeId,
    ballot: Ballot,
) -> Prompt {
    let name = world.name(acceptor);
    let asked = world.ballot_name(ballot);
    let promised = promised_of(world, acceptor);
    let value = match world.message(id).map(|message| message.envelope.message) {
        Some(Message::Accept { value, .. }) => value.to_string(),
        _ => String::new(),
    };
    let replies = sent_by(world, &DecreeAction::Deliver(id)).unwrap_or_default();
    let votes = matches!(replies.first(), Some(Message::Accepted { .. }));
    let (accepted_text, nack_text) = if votes {
        let rule = match promised {
            Some(held) if held == ballot => format!(
                "{name} promised exactly {asked}, and the vote rule is `>=`: an acceptor votes for \
                 the very ballot it promised"
            ),
            Some(held) => format!(
                "{asked} is above {name}'s promise {}, and the vote rule (`>=`) admits it",
                world.ballot_name(held)
            ),
            None => format!("{name} has promised nothing, so nothing forbids the vote"),
        };
        let stall = match promised {
            Some(held) if held == ballot => format!(
                " Refusing would stall the very proposer {name} promised: if acceptors refused \
                 the ballots they promised, no ballot could ever be chosen."
            ),
            _ => format!(" A Nack here keeps no promise; it only stalls {asked}."),
        };
        (format!("{rule}."), format!("{rule}.{stall}"))
    } else {
        let held = promised.expect("a Nack implies a promise");
        (
            voting_is_wrong(world, acceptor, ballot, &value, held),
            format!(
                "{name} has promised {}, above {asked}: the vote rule (`>=`) refuses the Accept, \
                 keeping the promise that {} relies on.",
                world.ballot_name(held),
                world.name(held.node)
            ),
        )
    };
    let nack_label = match promised {
        Some(held) => format!("Nack: promised {}", world.ballot_name(held)),
        None => "Nack".to_string(),
    };
    Prompt {
        kind: PromptKind::AcceptedOrNack,
        node: Some(world.name(acceptor)),
        message: Some(id.0),
        question: format!("{name} receives Accept({asked}, {value}). Vote (Accepted) or Nack?"),
        facts: acceptor_facts(world, acceptor),
        choices: vec![
            Choice {
                key: "accepted".into(),
                label: format!("Accepted({asked}, {value})"),
                right: votes,
                explanation: accepted_text,
            },
            Choice {
                key: "nack".into(),
                label: nack_label,
                right: !votes,
                explanation: nack_text,
            },
        ],
        record: None,
        topic: "",
    }
}

fn voting_is_wrong(
    world: &DecreeWorld,
    acceptor: NodeId,
    ballot: Ballot,
    value: &str,
    held: Ballot,
) -> String {
    let name = world.name(acceptor);
    let asked = world.ballot_name(ballot);
    let promised = world.ballot_name(held);
    let owner = world.name(held.node);
    let theirs = value_of(world, held.node);
    let danger = if theirs == value {
        format!(
            "{owner} happens to carry {value} too, but {name} cannot know that: the vote rule \
             looks at ballots, never at values"
        )
    } else {
        let (first, second) = two_quorums_through(world, acceptor);
        format!(
            "if {name}'s Promise reported no vote, {owner} may propose {theirs} at {promised}; \
             this vote could help {first} choose {value} at {asked} while {second} choose \
             {theirs} at {promised}: two values chosen, and agreement broken"
        )
    };
    format!(
        "{name} has promised {promised}, above {asked}. Voting for ({asked}, {value}) breaks that \
         promise: {owner} ran Phase 1 on {name}'s word that it accepts nothing below {promised}. \
         {}.",
        capitalize(&danger)
    )
}

/// The text with its first letter capitalised. The game's words are ASCII: an ASCII-only
/// capital keeps the Unicode case tables out of the wasm module.
fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        std::iter::once(first.to_ascii_uppercase())
            .chain(chars)
            .collect()
    })
}
