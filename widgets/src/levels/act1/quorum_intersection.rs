//! `act1/quorum-intersection`: the player picks which acceptors x's Accepts reach and which
//! acceptors P2's Phase 1 reaches, and tries every Phase-1 quorum in turn.
//!
//! Each time P2's Prepares reach a Phase-1 quorum after x is chosen, the level asks which of
//! P2's promisers will carry x's vote, while their Promises are still on the wire. A right answer records that Phase-1 quorum as tried; the tries live in the
//! game's memory, so the player undoes between them. The goal is reached when every Phase-1
//! quorum has been tried: none of them dodges the pivot acceptor.

use super::WHY_ONE_VALUE_IS_SAFE;
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Pin, Rules, Stage, native_only, native_text};
use crate::prompt::sort_short;
use crate::prompt::{Choice, Prompt};
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use crate::words::{set_name, vote_name};
use paros_core::{Ballot, Message, NodeId, NodeSet, QuorumSystem, Vote};
use paros_sim::level_worlds;
use paros_sim::single_decree::{DecreeStep, DecreeWorld};

/// The level.
pub static LEVEL: Level<DecreeWorld> = Level {
    id: "act1/quorum-intersection",
    act: 1,
    title: "Quorum intersection",
    briefing: native_text(include_str!("quorum_intersection.md")),
    by_hand: "Deliver two of three Accepts and two of three Prepares, choosing which, and try to dodge the overlap",
    teaches: "Every Phase-1 quorum meets every Phase-2 quorum; the pivot acceptor is unavoidable",
    goal: "After x is chosen, deliver P2's Prepare to each pair of acceptors in turn (undo between tries), and each time name the promiser that carries x",
    chapter: WHY_ONE_VALUE_IS_SAFE,
    scenario: "act1-quorum-intersection",
    symbols: native_only(&[]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Question("overlap"),
            text: "A Phase-1 quorum is any two of the three acceptors, and so is a Phase-2 quorum. Two \
         pairs drawn from three acceptors always share one.",
        },
        Hint {
            about: HintFor::Question("overlap"),
            text: "The acceptor in both quorums voted for x, and its Promise to P2 reports that vote. Look \
         at what each Promise P2 holds reports.",
        },
    ],
    pins: &[
        Pin {
            automation: Automation::AcceptorReplies,
            on: true,
        },
        Pin {
            automation: Automation::P2c,
            on: true,
        },
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "x's quorum, then P2's",
        note: "P1 holds a Phase-1 quorum and has sent Accept(1.P1, x) to all three acceptors. \
               Deliver two of them, then start P2.",
        world: &level_worlds::QUORUM_INTERSECTION,
    }],
    solution: native_only(&[
        "deliver P1->A1 Accept",
        "deliver P1->A2 Accept",
        "start P2",
        "deliver P2->A1 Prepare",
        "deliver P2->A2 Prepare",
        "answer both",
        "undo",
        "undo",
        "deliver P2->A3 Prepare",
        "answer A1",
        "undo",
        "undo",
        "undo",
        "deliver P2->A2 Prepare",
        "deliver P2->A3 Prepare",
        "answer A2",
    ]),
    solution_unlocked: &[],
    rules: &QuorumIntersection,
};

/// The Phase-1 quorums to try: every minimal Phase-1 quorum of the proposers' quorum system
/// (no acceptor of it can be left out).
fn minimal_quorums(world: &DecreeWorld) -> Vec<NodeSet> {
    let acceptors: Vec<NodeId> = world.config().acceptors().iter().collect();
    let quorums = world.proposers()[0].quorums();
    let minimal = |set: &NodeSet| {
        set.iter().all(|left_out| {
            let mut smaller = *set;
            smaller.remove(left_out);
            !quorums.is_phase1_quorum(smaller)
        })
    };
    (0u32..1 << acceptors.len())
        .map(|mask| {
            acceptors
                .iter()
                .enumerate()
                .filter(|(index, _)| mask & (1 << index) != 0)
                .map(|(_, node)| *node)
                .collect::<NodeSet>()
        })
        .filter(|set| quorums.is_phase1_quorum(*set) && minimal(set))
        .collect()
}

/// Names joined with "and", without braces: `A1`, `A1 and A2`.
fn names_bare(world: &DecreeWorld, set: NodeSet) -> String {
    let names: Vec<String> = set.iter().map(|node| world.name(node)).collect();
    names.join(" and ")
}

/// How a tried quorum is recorded in the game's memory: `A1+A2`.
fn record_key(world: &DecreeWorld, quorum: NodeSet) -> String {
    let names: Vec<String> = quorum.iter().map(|node| world.name(node)).collect();
    names.join("+")
}

struct QuorumIntersection;

/// The Promise a step sent, if it sent one: its sender, its receiver and its ballot.
fn promise_sent(world: &DecreeWorld, step: &DecreeStep) -> Option<(NodeId, NodeId, Ballot)> {
    step.sent
        .iter()
        .filter_map(|id| world.message(*id))
        .find_map(|message| match message.envelope.message {
            Message::Promise { ballot, .. } => {
                Some((message.envelope.from, message.envelope.to, ballot))
            }
            _ => None,
        })
}

/// Every Promise at `ballot` the proposer `asker` holds or has on its way, with the vote each
/// reports: what its Phase 1 will hear.
fn promises_for(world: &DecreeWorld, asker: NodeId, ballot: Ballot) -> Vec<(NodeId, Option<Vote>)> {
    let held = world
        .proposers()
        .iter()
        .find(|proposer| proposer.id() == asker)
        .map(|proposer| proposer.promises().to_vec())
        .unwrap_or_default();
    let on_the_wire =
        world
            .in_flight()
            .into_iter()
            .filter_map(|message| match &message.envelope.message {
                Message::Promise {
                    ballot: at,
                    accepted,
                } if message.envelope.to == asker && *at == ballot => {
                    Some((message.envelope.from, accepted.clone()))
                }
                _ => None,
            });
    let mut reports = held;
    for (node, vote) in on_the_wire {
        if reports.iter().all(|(held, _)| *held != node) {
            reports.push((node, vote));
        }
    }
    sort_short(&mut reports, |(node, _)| *node);
    reports
}

impl Rules<DecreeWorld> for QuorumIntersection {
    fn goal(&self, run: &Run<DecreeWorld>, memory: &Memory) -> Goal {
        Goal::when_all_done(&self.checklist(run, memory))
    }

    fn checklist(&self, run: &Run<DecreeWorld>, memory: &Memory) -> Vec<ChecklistItem> {
        let world = run.world();
        minimal_quorums(world)
            .into_iter()
            .map(|quorum| ChecklistItem {
                label: format!("P2's Phase-1 quorum {}", set_name(world, quorum)),
                done: memory.records.contains(&record_key(world, quorum)),
            })
            .collect()
    }

    /// When a proposer's Prepare has just reached a Phase-1 quorum above a chosen ballot: which
    /// promiser will carry x? Asked while the Promises are still on their way, so the proposer
    /// has not yet picked its value; the reports are the real Promises on the wire.
    fn question(&self, change: &Change<'_, DecreeWorld>) -> Option<Prompt> {
        let world = change.world;
        let (promiser, asker, ballot) = promise_sent(world, change.step)?;
        let proposer = world.proposers().iter().find(|p| p.id() == asker)?;
        if proposer.ballot() != Some(ballot) {
            return None;
        }
        let chosen = world
            .chosen()
            .into_iter()
            .find(|votes| votes.ballot < ballot)?;
        let reports = promises_for(world, asker, ballot);
        let quorum: NodeSet = reports.iter().map(|(node, _)| *node).collect();
        let mut before = quorum;
        before.remove(promiser);
        let quorums = proposer.quorums();
        if !quorums.is_phase1_quorum(quorum) || quorums.is_phase1_quorum(before) {
            return None;
        }
        let carriers: NodeSet = reports
            .iter()
            .filter(|(_, vote)| vote.as_ref().is_some_and(|vote| vote.value == chosen.value))
            .map(|(node, _)| *node)
            .collect();
        let (name, at, value) = (
            world.name(asker),
            world.ballot_name(chosen.ballot),
            chosen.value.to_string(),
        );
        let (p1, p2) = (set_name(world, quorum), set_name(world, chosen.voters));
        let report_of = |node: NodeId| {
            reports
                .iter()
                .find(|(reporter, _)| *reporter == node)
                .and_then(|(_, vote)| vote.as_ref())
                .map_or_else(|| "no vote".to_string(), |vote| vote_name(world, vote))
        };
        let right_key = match carriers.len() {
            0 => "neither".to_string(),
            1 => carriers.iter().map(|node| world.name(node)).collect(),
            _ => "both".to_string(),
        };
        let pivot = names_bare(world, carriers);
        let every_promiser_voted = carriers == quorum;
        let report_verb = if carriers.len() == 1 {
            "its Promise reports"
        } else {
            "their Promises report"
        };
        let explain_right = if every_promiser_voted {
            format!(
                "Both: every acceptor of {p1} voted for {value} at {at}, so every Promise on its \
                 way to {name} reports ({at}, {value})."
            )
        } else {
            format!(
                "{pivot}: it is in both {p2}, which voted for {value} at {at}, and {p1}, which \
                 promised {name}, and its Promise reports ({at}, {value}). Two majorities of \
                 three acceptors always share one, so {name} could not have missed it, and P2c \
                 makes it carry {value}."
            )
        };
        let mut choices: Vec<Choice> = quorum
            .iter()
            .map(|node| {
                let key = world.name(node);
                let explanation = if right_key == key {
                    explain_right.clone()
                } else if carriers.contains(node) {
                    format!(
                        "{key} does report ({at}, {value}), but not alone: every acceptor of {p1} \
                         voted for {value}, so every Promise on its way to {name} reports it."
                    )
                } else {
                    format!(
                        "{key} never voted for {at}: its Promise reports {}. The acceptor in both \
                         {p1} and {p2} is {pivot}.",
                        report_of(node)
                    )
                };
                Choice {
                    label: format!("Only {key}"),
                    right: right_key == key,
                    explanation,
                    key,
                }
            })
            .collect();
        choices.push(Choice {
            key: "both".into(),
            label: format!("Both of {p1}"),
            right: right_key == "both",
            explanation: if right_key == "both" {
                explain_right.clone()
            } else {
                format!(
                    "Only {pivot} is in both {p1} and {p2}; the other Promise reports no vote \
                     for {at}."
                )
            },
        });
        choices.push(Choice {
            key: "neither".into(),
            label: format!("Neither: {name} may propose its own value"),
            right: right_key == "neither",
            explanation: format!(
                "{p1} and {p2} share {pivot}: two majorities of three acceptors always meet. \
                 {pivot} voted for {value} at {at} and {report_verb} it, so {name} must carry \
                 {value}. Had no Promise reported it, {name} would propose its own value \
                 and a second value could be chosen; quorum intersection is what rules that out."
            ),
        });
        let mut prompt = Prompt::question(
            "overlap",
            format!(
                "{name}'s Prepare at {} has reached {p1}, a Phase-1 quorum, and their Promises \
                 are on their way to {name}. {value} was chosen at {at} by {p2}. Which of \
                 {name}'s promisers will carry {value}'s vote?",
                world.ballot_name(ballot)
            ),
            vec![
                format!("{name}'s Phase-1 quorum: {p1}"),
                format!("{value} was chosen at {at} by {p2}"),
            ],
            choices,
        );
        prompt.record = Some(record_key(world, quorum));
        Some(prompt)
    }
}
