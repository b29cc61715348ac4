//! Act I's role prompts: Promise or Nack, Accepted or Nack, the value of an Accept (P2c), and
//! the ballot of a retry.
//!
//! The right answer always comes from paros-core, run on a clone of the world: the clone takes
//! the real step and the prompt reads off what the node did. The explanations are written from
//! the node's own state (its promise, its accepted record, the Promises it holds), so every
//! wrong answer is told what it would break with this prompt's own ballots, values and quorums.

use crate::board::ByHand;
use crate::level::Automation;
use crate::prompt::{Choice, Prompt, PromptKind};
use crate::words::{set_name, vote_name};
use paros_core::{Ballot, Message, NodeId, NodeSet, Phase, Vote};
use paros_sim::{Action, MessageId, Role, World};

/// The prompt this action opens, or `None` when the world simply takes it.
pub fn for_action(world: &World, action: &Action, by_hand: &ByHand) -> Option<Prompt> {
    match *action {
        Action::Deliver(id) => {
            let message = world.message(id)?;
            let envelope = &message.envelope;
            match (world.role(envelope.to)?, &envelope.message) {
                (Role::Acceptor(_), Message::Prepare { ballot })
                    if by_hand.has(Automation::AcceptorReplies) =>
                {
                    Some(promise_or_nack(
                        world,
                        id,
                        envelope.to,
                        envelope.from,
                        *ballot,
                    ))
                }
                (Role::Acceptor(_), Message::Accept { ballot, .. })
                    if by_hand.has(Automation::AcceptorReplies) =>
                {
                    Some(accepted_or_nack(world, id, envelope.to, *ballot))
                }
                (Role::Proposer(index), Message::Promise { .. })
                    if by_hand.has(Automation::P2c) =>
                {
                    choose_value(world, id, index)
                }
                _ => None,
            }
        }
        Action::Retry(node) if by_hand.retry => retry_ballot(world, node),
        _ => None,
    }
}

/// What the real world does with `action`: the messages it sends, read off a clone.
fn sent_by(world: &World, action: &Action) -> Option<Vec<Message>> {
    let mut clone = world.clone();
    let step = clone.apply(action).ok()?;
    Some(
        step.sent
            .iter()
            .filter_map(|id| clone.message(*id))
            .map(|message| message.envelope.message.clone())
            .collect(),
    )
}

fn acceptor_facts(world: &World, acceptor: NodeId) -> Vec<String> {
    let name = world.name(acceptor);
    let state = world
        .acceptors()
        .iter()
        .find(|candidate| candidate.id() == acceptor);
    let promised = state.and_then(|state| state.promised());
    let accepted = state.and_then(|state| state.accepted());
    vec![
        match promised {
            Some(ballot) => format!("{name} has promised {}", world.ballot_name(ballot)),
            None => format!("{name} has promised nothing"),
        },
        match accepted {
            Some(vote) => format!("{name} has accepted {}", vote_name(world, vote)),
            None => format!("{name} has accepted nothing"),
        },
    ]
}

fn promised_of(world: &World, acceptor: NodeId) -> Option<Ballot> {
    world
        .acceptors()
        .iter()
        .find(|candidate| candidate.id() == acceptor)
        .and_then(|state| state.promised())
}

/// The value a proposer is carrying: the one it sent, else its own.
fn value_of(world: &World, proposer: NodeId) -> String {
    world
        .proposers()
        .iter()
        .find(|candidate| candidate.id() == proposer)
        .map(|state| {
            state
                .proposal()
                .unwrap_or_else(|| state.own_value())
                .to_string()
        })
        .unwrap_or_default()
}

fn promise_or_nack(
    world: &World,
    id: MessageId,
    acceptor: NodeId,
    proposer: NodeId,
    ballot: Ballot,
) -> Prompt {
    let name = world.name(acceptor);
    let asked = world.ballot_name(ballot);
    let promised = promised_of(world, acceptor);
    let replies = sent_by(world, &Action::Deliver(id)).unwrap_or_default();
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
    }
}

fn promise_is_right(world: &World, name: &str, asked: &str, promised: Option<Ballot>) -> String {
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
    world: &World,
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

fn nack_is_right(world: &World, name: &str, ballot: Ballot, promised: Ballot) -> String {
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
    world: &World,
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

fn accepted_or_nack(world: &World, id: MessageId, acceptor: NodeId, ballot: Ballot) -> Prompt {
    let name = world.name(acceptor);
    let asked = world.ballot_name(ballot);
    let promised = promised_of(world, acceptor);
    let value = match world.message(id).map(|message| message.envelope.message) {
        Some(Message::Accept { value, .. }) => value.to_string(),
        _ => String::new(),
    };
    let replies = sent_by(world, &Action::Deliver(id)).unwrap_or_default();
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
    }
}

fn voting_is_wrong(
    world: &World,
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

/// Two quorums that share only `acceptor` (as far as the acceptors allow): the pair an acceptor
/// that breaks its promise lets choose two values. Printed as `{A1, A2}` and `{A1, A3}`.
fn two_quorums_through(world: &World, acceptor: NodeId) -> (String, String) {
    let others: Vec<NodeId> = world
        .config()
        .acceptors()
        .iter()
        .filter(|node| *node != acceptor)
        .collect();
    let quorum_size = usize::from(world.config().acceptor_count) / 2 + 1;
    let with = |picked: &mut dyn Iterator<Item = &NodeId>| {
        let mut set: NodeSet = picked.take(quorum_size - 1).copied().collect();
        set.insert(acceptor);
        set_name(world, set)
    };
    (with(&mut others.iter()), with(&mut others.iter().rev()))
}

fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// The P2c prompt: the delivery completes the proposer's Phase-1 quorum.
fn choose_value(world: &World, id: MessageId, index: usize) -> Option<Prompt> {
    let action = Action::Deliver(id);
    let mut clone = world.clone();
    let step = clone.apply(&action).ok()?;
    let proposer = &clone.proposers()[index];
    if proposer.phase() != Phase::Accepting || step.sent.is_empty() {
        return None;
    }
    let right = proposer.proposal()?.to_string();
    let ballot = proposer.ballot()?;
    let reports: Vec<(NodeId, Option<Vote>)> = proposer.promises().to_vec();
    let quorum: NodeSet = reports.iter().map(|(node, _)| *node).collect();
    let own = proposer.own_value().to_string();
    let name = world.name(proposer.id());
    let asked = world.ballot_name(ballot);

    let mut facts: Vec<String> = reports
        .iter()
        .map(|(node, vote)| match vote {
            Some(vote) => format!("{} reports {}", world.name(*node), vote_name(world, vote)),
            None => format!("{} reports no vote", world.name(*node)),
        })
        .collect();
    facts.push(format!("{name}'s own value is {own}"));

    let highest = reports
        .iter()
        .filter_map(|(_, vote)| vote.as_ref())
        .max_by_key(|vote| vote.ballot)
        .cloned();
    let context = ValueContext {
        world,
        name: &name,
        asked: &asked,
        quorum,
        reports: &reports,
        highest: highest.as_ref(),
        own: &own,
    };
    let choices = value_candidates(world, &own, &reports)
        .into_iter()
        .map(|(value, label)| Choice {
            right: value == right,
            explanation: if value == right {
                context.right_text(&value)
            } else {
                context.wrong_text(&value)
            },
            key: value,
            label,
        })
        .collect();
    Some(Prompt {
        kind: PromptKind::ChooseValue,
        node: Some(name.clone()),
        message: Some(id.0),
        question: format!(
            "{name} now holds Promises for {asked} from {}. Which value goes in Accept({asked})?",
            set_name(world, quorum)
        ),
        facts,
        choices,
        record: None,
    })
}

/// The values a proposer could put in its Accept: its own, each reported one, and each other
/// proposer's, each once, with a label saying where it comes from.
fn value_candidates(
    world: &World,
    own: &str,
    reports: &[(NodeId, Option<Vote>)],
) -> Vec<(String, String)> {
    let mut candidates: Vec<(String, String)> = vec![(own.to_string(), format!("{own} (its own)"))];
    let mut votes: Vec<&Vote> = reports
        .iter()
        .filter_map(|(_, vote)| vote.as_ref())
        .collect();
    votes.sort_by_key(|vote| std::cmp::Reverse(vote.ballot));
    for vote in votes {
        let value = vote.value.to_string();
        if candidates.iter().all(|(known, _)| *known != value) {
            let reporters: NodeSet = reports
                .iter()
                .filter(|(_, report)| report.as_ref() == Some(vote))
                .map(|(node, _)| *node)
                .collect();
            let label = format!(
                "{value} (reported by {} at {})",
                set_name(world, reporters),
                world.ballot_name(vote.ballot)
            );
            candidates.push((value, label));
        }
    }
    for proposer in world.proposers() {
        let value = proposer.own_value().to_string();
        if candidates.iter().all(|(known, _)| *known != value) {
            let label = format!(
                "{value} ({}'s value, reported by nobody)",
                world.name(proposer.id())
            );
            candidates.push((value, label));
        }
    }
    candidates
}

/// The facts a P2c explanation is written from.
struct ValueContext<'a> {
    world: &'a World,
    name: &'a str,
    asked: &'a str,
    quorum: NodeSet,
    reports: &'a [(NodeId, Option<Vote>)],
    highest: Option<&'a Vote>,
    own: &'a str,
}

impl ValueContext<'_> {
    fn right_text(&self, value: &str) -> String {
        match self.highest {
            None => format!(
                "No Promise from {} reports a vote, so no value can have been chosen below {}: \
                 every quorum that could have chosen one shares an acceptor with {}. {} is free \
                 and proposes its own {value}.",
                set_name(self.world, self.quorum),
                self.asked,
                set_name(self.world, self.quorum),
                self.name
            ),
            Some(vote) => format!(
                "P2c: the highest-ballot vote reported, {}, decides, and {} carries {value} \
                 instead of its own {}. {}",
                vote_name(self.world, vote),
                self.name,
                self.own,
                self.may_be_chosen(vote),
            ),
        }
    }

    fn wrong_text(&self, value: &str) -> String {
        let Some(vote) = self.highest else {
            return format!(
                "No Promise from {} reports a vote, so nothing can have been chosen below {} and \
                 {} is free: it proposes its own {}. {value} is another proposer's value; \
                 nothing in {}'s Promises asks {} to carry it.",
                set_name(self.world, self.quorum),
                self.asked,
                self.name,
                self.own,
                set_name(self.world, self.quorum),
                self.name
            );
        };
        let world = self.world;
        let mut text = self.may_be_chosen(vote);
        let older = self
            .reports
            .iter()
            .filter_map(|(_, report)| report.as_ref())
            .filter(|report| report.value.as_str() == value && report.ballot < vote.ballot)
            .max_by_key(|report| report.ballot);
        if let Some(older) = older {
            text.push_str(&format!(
                " {} is older than {}: had {value} been chosen at {}, {} would have had to \
                 propose {value} at {} too. The highest-ballot vote is the one that counts.",
                vote_name(world, older),
                vote_name(world, vote),
                world.ballot_name(older.ballot),
                world.name(vote.ballot.node),
                world.ballot_name(vote.ballot)
            ));
        }
        text.push_str(&format!(
            " Sending Accept({}, {value}) could let {} choose {value} at {} while {} may already \
             be chosen at {}: two values chosen, and agreement broken.",
            self.asked,
            set_name(world, self.quorum),
            self.asked,
            vote.value,
            world.ballot_name(vote.ballot)
        ));
        text
    }

    /// Why the reported value cannot be ruled out: the quorum that may have chosen it.
    fn may_be_chosen(&self, vote: &Vote) -> String {
        let world = self.world;
        let reporters: NodeSet = self
            .reports
            .iter()
            .filter(|(_, report)| report.as_ref() == Some(vote))
            .map(|(node, _)| *node)
            .collect();
        let acceptors = world.config().acceptors();
        let quorum_size = usize::from(world.config().acceptor_count) / 2 + 1;
        let at = world.ballot_name(vote.ballot);
        let value = &vote.value;
        if reporters.len() >= quorum_size {
            return format!(
                "{value} is chosen at {at}: {} all report voting for it.",
                set_name(world, reporters)
            );
        }
        let mut choosers = reporters;
        let mut outsiders = NodeSet::EMPTY;
        for acceptor in acceptors.iter().filter(|node| !self.quorum.contains(*node)) {
            if choosers.len() >= quorum_size {
                break;
            }
            choosers.insert(acceptor);
            outsiders.insert(acceptor);
        }
        if choosers.len() >= quorum_size {
            let outside_verb = if outsiders.len() == 1 { "is" } else { "are" };
            format!(
                "{value} may be chosen at {at} by {}; {} {outside_verb} outside your quorum {}, \
                 so you cannot rule it out.",
                set_name(world, choosers),
                set_name_bare(world, outsiders),
                set_name(world, self.quorum)
            )
        } else {
            format!(
                "{} is the highest-ballot vote your quorum {} reports: a value chosen at any \
                 lower ballot would have to be {value} as well, so {value} is the only value that \
                 may already be chosen.",
                vote_name(world, vote),
                set_name(world, self.quorum)
            )
        }
    }
}

/// Names without braces when there is one (`A3`), with braces otherwise.
fn set_name_bare(world: &World, set: NodeSet) -> String {
    if set.len() == 1 {
        set.iter().map(|node| world.name(node)).collect()
    } else {
        set_name(world, set)
    }
}

/// The retry prompt: which ballot the proposer's new Prepare carries.
fn retry_ballot(world: &World, node: NodeId) -> Option<Prompt> {
    let Some(Role::Proposer(index)) = world.role(node) else {
        return None;
    };
    let before = &world.proposers()[index];
    let current = before.ballot()?;
    let refusal = before.highest_refusal();
    let mut clone = world.clone();
    clone.apply(&Action::Retry(node)).ok()?;
    let right = clone.proposers()[index].ballot()?;
    let name = world.name(node);
    let other = world
        .proposers()
        .iter()
        .map(|proposer| proposer.id())
        .find(|id| *id != node);
    let mut ballots = vec![current, right];
    if let Some(other) = other {
        ballots.push(match refusal {
            Some(refused) if refused.node != node => refused,
            _ => Ballot::new(right.round, other),
        });
    }
    ballots.sort();
    ballots.dedup();
    let floor = refusal.map_or(current, |refused| refused.max(current));
    let mut facts = vec![format!("{name} last ran {}", world.ballot_name(current))];
    facts.push(match refusal {
        Some(refused) => format!(
            "the highest ballot a Nack named is {}",
            world.ballot_name(refused)
        ),
        None => "no Nack has named a higher ballot".to_string(),
    });
    let choices = ballots
        .into_iter()
        .map(|ballot| {
            let key = world.ballot_name(ballot);
            let explanation = if ballot == right {
                format!(
                    "{key}: one round above {}, the highest ballot {name} has run or been refused \
                     by, and owned by {name}. Any lower ballot would be refused by the promise \
                     rule; a higher one only feeds the duel.",
                    world.ballot_name(floor)
                )
            } else if ballot.node != node {
                format!(
                    "{key} belongs to {}. Each ballot has one owner so that it names one value: if \
                     {name} sent Accept({key}, {}) while {} sent Accept({key}, {}), acceptors \
                     would vote for two values under one ballot, and Phase 1's promises would \
                     protect neither.",
                    world.name(ballot.node),
                    value_of(world, node),
                    world.name(ballot.node),
                    value_of(world, ballot.node)
                )
            } else {
                format!(
                    "{key} is not above {}: every acceptor that promised {} or more refuses it by \
                     the promise rule (`>`), and those that promised {key} refuse a second \
                     Prepare at it. A retry must climb over every ballot {name} has seen.",
                    world.ballot_name(floor),
                    world.ballot_name(floor),
                )
            };
            Choice {
                label: format!("Prepare({key})"),
                right: ballot == right,
                explanation,
                key,
            }
        })
        .collect();
    Some(Prompt {
        kind: PromptKind::RetryBallot,
        node: Some(name.clone()),
        message: None,
        question: format!("{name} retries. Which ballot does its new Prepare carry?"),
        facts,
        choices,
        record: None,
    })
}
