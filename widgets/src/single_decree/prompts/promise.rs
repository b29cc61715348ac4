//! The Promise-or-Nack prompt: an acceptor played by hand receives a Prepare (the promise
//! rule).

use super::shared::{acceptor_facts, promised_of, sent_by, two_quorums_through, value_of};
use crate::prompt::{Choice, Prompt, PromptKind};
use crate::words::vote_name;
use paros_core::{Ballot, Message, NodeId};
use paros_sim::MessageId;
use paros_sim::single_decree::{DecreeAction, DecreeWorld};

pub(super) fn promise_or_nack(
    world: &DecreeWorld,
    id: MessageId,
    acceptor: NodeId,
    proposer: NodeId,
    ballot: Ballot,
) -> Prompt {
    let name = world.name(acceptor);
    let asked = world.ballot_name(ballot);
    let promised = promised_of(world, acceptor);
    let replies = sent_by(world, &DecreeAction::Deliver(id)).unwrap_or_default();
    let promises = matches!(replies.first(), Some(Message::Promise { .. }));
    let (promise_text, nack_text) = if promises {
        (
            promise_is_right(world, &name, &asked, promised),
            refusing_a_promise_is_wrong(world, &name, &asked, proposer, promised),
        )
    } else {
        let promised = promised.expect("a Nack implies a promise");
        (
            promising_is_wrong(world, acceptor, ballot, proposer, promised),
            nack_is_right(world, &name, ballot, promised),
        )
    };
    let report = world
        .acceptors()
        .iter()
        .find(|candidate| candidate.id() == acceptor)
        .and_then(|state| state.accepted())
        .map_or_else(
            || ", reporting no vote".to_string(),
            |vote| format!(", reporting {}", vote_name(world, vote)),
        );
    let nack_label = match promised {
        Some(held) => format!("Nack: promised {}", world.ballot_name(held)),
        None => "Nack".to_string(),
    };
    Prompt {
        kind: PromptKind::PromiseOrNack,
        node: Some(world.name(acceptor)),
        message: Some(id.0),
        question: format!(
            "{name} receives Prepare({asked}) from {}. Promise or Nack?",
            world.name(proposer)
        ),
        facts: acceptor_facts(world, acceptor),
        choices: vec![
            Choice {
                key: "promise".into(),
                label: format!("Promise({asked}){report}"),
                right: promises,
                explanation: promise_text,
            },
            Choice {
                key: "nack".into(),
                label: nack_label,
                right: !promises,
                explanation: nack_text,
            },
        ],
        record: None,
        topic: "",
    }
}

fn promise_is_right(
    world: &DecreeWorld,
    name: &str,
    asked: &str,
    promised: Option<Ballot>,
) -> String {
    match promised {
        None => format!(
            "{name} has promised nothing yet, so it promises {asked}: the promise rule admits any \
             ballot above every promise held."
        ),
        Some(held) => format!(
            "{asked} is above {name}'s promise {}, so {name} promises it: the promise rule (`>`) \
             admits a ballot greater than every promise held.",
            world.ballot_name(held)
        ),
    }
}

fn refusing_a_promise_is_wrong(
    world: &DecreeWorld,
    name: &str,
    asked: &str,
    proposer: NodeId,
    promised: Option<Ballot>,
) -> String {
    let held = match promised {
        None => format!("{name} has promised nothing"),
        Some(held) => format!(
            "{name}'s promise is {}, below {asked}",
            world.ballot_name(held)
        ),
    };
    format!(
        "{held}, so the promise rule (`>`) says Promise. A Nack here keeps no promise \
         {name} ever made; it only stalls {}'s Phase 1 at {asked}. An acceptor refuses a \
         ballot only when it is not above the promise it holds.",
        world.name(proposer)
    )
}

fn nack_is_right(world: &DecreeWorld, name: &str, ballot: Ballot, promised: Ballot) -> String {
    if ballot == promised {
        format!(
            "{name} already promised {}: this Prepare is a copy of one it answered. The promise \
             rule admits only a ballot strictly greater than the promise held (`>`), so the copy \
             gets a Nack, and its proposer ignores a Nack that names no higher ballot.",
            world.ballot_name(ballot)
        )
    } else {
        format!(
            "{name} has promised {}, which is above {}: the promise rule (`>`) refuses it, and \
             the Nack tells the proposer which ballot to climb over.",
            world.ballot_name(promised),
            world.ballot_name(ballot)
        )
    }
}

fn promising_is_wrong(
    world: &DecreeWorld,
    acceptor: NodeId,
    ballot: Ballot,
    proposer: NodeId,
    promised: Ballot,
) -> String {
    let name = world.name(acceptor);
    let asked = world.ballot_name(ballot);
    let held = world.ballot_name(promised);
    if ballot == promised {
        return format!(
            "{name} already promised {asked}: this Prepare is a copy of one it answered, and the \
             promise rule admits only a ballot strictly greater than the promise held (`>`). \
             Promising {asked} twice would let {} count {name} twice toward one quorum.",
            world.name(proposer)
        );
    }
    let owner = promised.node;
    let (mine, theirs) = (value_of(world, proposer), value_of(world, owner));
    let values = if mine == theirs {
        format!(
            "{} happens to carry {mine} as well, but {name} cannot know that: the rule looks at \
             ballots, never at values",
            world.name(owner)
        )
    } else {
        let (first, second) = two_quorums_through(world, acceptor);
        format!(
            "{first} could choose {mine} at {asked} while {second} choose {theirs} at {held}: \
             two values chosen, and agreement broken"
        )
    };
    format!(
        "{name} has promised {held}, above {asked}. Promising {asked} now breaks the promise that \
         lets {} trust its Phase 1: both proposers could count {name} toward a quorum. {values}.",
        world.name(owner)
    )
}
