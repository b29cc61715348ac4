//! The P2c prompt: a Promise completes a proposer's Phase-1 quorum, and the player picks the
//! value of its Accept.

use crate::prompt::sort_short;
use crate::prompt::{Choice, Prompt, PromptKind};
use crate::words::{quorums, set_name, vote_name};
use paros_core::{NodeId, NodeSet, Phase, Vote, is_chosen};
use paros_sim::MessageId;
use paros_sim::single_decree::{DecreeAction, DecreeWorld};

/// The P2c prompt: the delivery completes the proposer's Phase-1 quorum.
pub(super) fn choose_value(world: &DecreeWorld, id: MessageId, index: usize) -> Option<Prompt> {
    let action = DecreeAction::Deliver(id);
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
        topic: "",
    })
}

/// The values a proposer could put in its Accept: its own, each reported one, and each other
/// proposer's, each once, with a label saying where it comes from.
fn value_candidates(
    world: &DecreeWorld,
    own: &str,
    reports: &[(NodeId, Option<Vote>)],
) -> Vec<(String, String)> {
    let mut candidates: Vec<(String, String)> = vec![(own.to_string(), format!("{own} (its own)"))];
    let mut votes: Vec<&Vote> = reports
        .iter()
        .filter_map(|(_, vote)| vote.as_ref())
        .collect();
    sort_short(&mut votes, |vote| std::cmp::Reverse(vote.ballot));
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
    world: &'a DecreeWorld,
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
        let quorums = quorums(world);
        let at = world.ballot_name(vote.ballot);
        let value = &vote.value;
        if is_chosen(&quorums, reporters) {
            return format!(
                "{value} is chosen at {at}: {} all report voting for it.",
                set_name(world, reporters)
            );
        }
        let mut choosers = reporters;
        let mut outsiders = NodeSet::EMPTY;
        for acceptor in acceptors.iter().filter(|node| !self.quorum.contains(*node)) {
            if is_chosen(&quorums, choosers) {
                break;
            }
            choosers.insert(acceptor);
            outsiders.insert(acceptor);
        }
        if is_chosen(&quorums, choosers) {
            let outside_verb = if outsiders.len() == 1 { "is" } else { "are" };
            format!(
                "You cannot rule out that {value} was chosen at {at} by {}: {} {outside_verb} \
                 outside your quorum {}, and no Promise told you how {} voted. The stage shows \
                 every node; the proposer you answer for knows only what its Promises report.",
                set_name(world, choosers),
                set_name_bare(world, outsiders),
                set_name(world, self.quorum),
                set_name_bare(world, outsiders)
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
fn set_name_bare(world: &DecreeWorld, set: NodeSet) -> String {
    if set.len() == 1 {
        set.iter().map(|node| world.name(node)).collect()
    } else {
        set_name(world, set)
    }
}
