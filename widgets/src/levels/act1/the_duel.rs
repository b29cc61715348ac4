//! `act1/the-duel`: two proposers pre-empt each other until the retry budget runs out, unless
//! the player schedules one of them through.
//!
//! The goal fails on a livelock: nothing is chosen, every proposer has spent its retries, and a
//! proposer's last ballot is dead (too many acceptors have promised above it for the rest to
//! make a quorum, so it can never gather one again). Safety holds all along; the failure is one of liveness.

use super::HOW_PAXOS_CHOOSES;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::prompt::{Choice, Prompt, PromptKind};
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use crate::words::{set_name, vote_name};
use paros_core::{Acceptor, Ballot, NodeId, NodeSet, Phase, Proposer, QuorumSystem, vote_rule};
use paros_sim::level_worlds;
use paros_sim::single_decree::DecreeWorld;

/// The level.
pub static LEVEL: Level<DecreeWorld> = Level {
    id: "act1/the-duel",
    act: 1,
    title: "The duel",
    briefing: native_text(include_str!("the_duel.md")),
    by_hand: "Run two proposers against each other and still get a value chosen",
    teaches: "Livelock is a liveness failure and never a safety one",
    goal: "Let each proposer pre-empt the other at least once (or the duel wear both out), get \
           a value chosen before the retries run out, and say whether two values were chosen",
    chapter: HOW_PAXOS_CHOOSES,
    scenario: "act1-duel",
    symbols: native_only(&[]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Failure,
            text: "A ballot dies when the acceptors that have not promised a higher one are too few to \
         make a quorum, and each retry kills the other proposer's ballot the moment its \
         Prepares land. Hold one proposer's messages on the wire and let the other finish both \
         phases first: that is all a stable leader does.",
        },
        Hint {
            about: HintFor::Prompt(PromptKind::RetryBallot),
            text: "A ballot is a round and an owner, and a proposer only runs ballots that name it: P1's \
         end in .P1. A retry climbs one round above the highest ballot the proposer has run or \
         been refused by, and keeps its own name.",
        },
        Hint {
            about: HintFor::Question("two-values"),
            text: "Chosen means a majority voted for one ballot. List the ballots that gathered a majority, and \
         what each carried: a later ballot's proposer proposes what its Promises reported.",
        },
    ],
    pins: &[],
    retry_by_hand: true,
    stages: &[Stage {
        title: "Two proposers, two retries each",
        note: "P1 (x) and P2 (y) have both sent their Prepares. Each may retry twice.",
        world: &level_worlds::THE_DUEL,
    }],
    solution: native_only(&[
        "deliver P2->A1 Prepare",
        "deliver P2->A2 Prepare",
        "deliver P1->A1 Prepare",
        "deliver A1->P1 Nack",
        "retry P1",
        "answer 2.P1",
        "deliver P1->A1 Prepare(2.P1)",
        "deliver P1->A3 Prepare(2.P1)",
        "deliver A1->P1 Promise(2.P1)",
        "deliver A3->P1 Promise(2.P1)",
        "deliver A1->P2 Promise",
        "deliver A2->P2 Promise",
        "deliver P2->A1 Accept",
        "deliver A1->P2 Nack",
        "retry P2",
        "answer 3.P2",
        "deliver P1->A1 Accept",
        "deliver P1->A3 Accept",
        "answer no",
    ]),
    solution_unlocked: &[
        crate::automation::Automation::AcceptorReplies,
        crate::automation::Automation::P2c,
    ],
    rules: &TheDuel,
};

/// Whether `proposer`'s ballot can never get a value chosen: the acceptors that may still
/// answer it (whose promise is not above it, the vote rule) hold no Phase-2 quorum, or, while
/// it prepares, no Phase-1 quorum, by the proposer's own quorum system. Promises never
/// decrease, so a dead ballot stays dead.
pub fn ballot_dead<Q: QuorumSystem>(acceptors: &[Acceptor], proposer: &Proposer<Q>) -> bool {
    let Some(ballot) = proposer.ballot() else {
        return false;
    };
    let open: NodeSet = acceptors
        .iter()
        .filter(|acceptor| vote_rule(acceptor.promised(), ballot))
        .map(Acceptor::id)
        .collect();
    let quorums = proposer.quorums();
    let preparing = proposer.phase() == Phase::Preparing;
    !quorums.is_phase2_quorum(open) || (preparing && !quorums.is_phase1_quorum(open))
}

/// A livelock, as far as a finite budget can show one: nothing is chosen, every proposer has
/// spent its retries, and some proposer's last ballot was pre-empted. A real proposer would time
/// out and retry again, and the duel could go on forever. Returns the pre-empted proposer and
/// its ballot.
pub fn livelock(world: &DecreeWorld) -> Option<(NodeId, Ballot)> {
    if !world.chosen().is_empty() || world.retries_left().iter().any(|left| *left > 0) {
        return None;
    }
    world.proposers().iter().find_map(|proposer| {
        let ballot = proposer.ballot()?;
        (proposer.phase() != Phase::Idle && ballot_dead(world.acceptors(), proposer))
            .then_some((proposer.id(), ballot))
    })
}

struct TheDuel;

/// Whether the player has seen the duel go round: in this run every proposer was pre-empted and
/// retried, or the goal once failed on a livelock (undo keeps that, so the player may undo out
/// of it and play on).
fn livelock_seen(run: &Run<DecreeWorld>, memory: &Memory) -> bool {
    let world = run.world();
    let spent_by_all = world.retries_left().iter().all(|left| *left < RETRIES);
    spent_by_all || memory.failures > 0
}

/// Retries each proposer may make.
const RETRIES: u32 = 2;

/// Whether the player has said, in this run, whether two values were chosen.
fn safety_answered(run: &Run<DecreeWorld>) -> bool {
    run.answers()
        .iter()
        .any(|(kind, _)| *kind == PromptKind::Question)
}

impl Rules<DecreeWorld> for TheDuel {
    fn goal(&self, run: &Run<DecreeWorld>, memory: &Memory) -> Goal {
        let world = run.world();
        if !world.chosen().is_empty() {
            if livelock_seen(run, memory) && safety_answered(run) {
                Goal::Reached
            } else {
                Goal::Open
            }
        } else if let Some((proposer, ballot)) = livelock(world) {
            let highest = world
                .acceptors()
                .iter()
                .filter_map(|acceptor| acceptor.promised())
                .max()
                .unwrap_or(ballot);
            Goal::Failed(format!(
                "livelock: every retry is spent and nothing is chosen. {}'s ballot {} was \
                 pre-empted by {}, and a real {} would time out and retry, pre-empting in turn. \
                 No value was chosen, and none was chosen wrongly: liveness failed, safety held.",
                world.name(proposer),
                world.ballot_name(ballot),
                world.ballot_name(highest),
                world.name(proposer)
            ))
        } else {
            Goal::Open
        }
    }

    fn checklist(&self, run: &Run<DecreeWorld>, memory: &Memory) -> Vec<ChecklistItem> {
        vec![
            ChecklistItem {
                label: "Let each proposer pre-empt the other once, or the duel wear both out"
                    .into(),
                done: livelock_seen(run, memory),
            },
            ChecklistItem {
                label: "Get a value chosen before the retries run out".into(),
                done: !run.world().chosen().is_empty(),
            },
            ChecklistItem {
                label: "Say whether two values were chosen".into(),
                done: safety_answered(run),
            },
        ]
    }

    /// The moment a value is chosen: were two values chosen? Judged from the votes by the
    /// world's own chosen check.
    fn question(&self, change: &Change<'_, DecreeWorld>) -> Option<Prompt> {
        let world = change.world;
        let chosen = world.chosen();
        if change.before.chosen_count > 0 || chosen.is_empty() {
            return None;
        }
        let first = chosen.first()?;
        let two = chosen.iter().any(|votes| votes.value != first.value);
        let (value, at) = (first.value.to_string(), world.ballot_name(first.ballot));
        let by = set_name(world, first.voters);
        let votes: Vec<String> = world
            .acceptors()
            .iter()
            .map(|acceptor| match acceptor.accepted() {
                Some(vote) => format!(
                    "{} holds {}",
                    world.name(acceptor.id()),
                    vote_name(world, vote)
                ),
                None => format!("{} holds no vote", world.name(acceptor.id())),
            })
            .collect();
        let others: Vec<String> = world
            .acceptors()
            .iter()
            .filter_map(|acceptor| acceptor.accepted().map(|vote| (acceptor.id(), vote)))
            .filter(|(_, vote)| vote.value != first.value)
            .map(|(node, vote)| {
                format!("{}'s vote for {}", world.name(node), vote_name(world, vote))
            })
            .collect();
        let stray = if others.is_empty() {
            "No acceptor holds a vote for another value.".to_string()
        } else {
            format!(
                "{} is one vote, not a quorum, and no later ballot can gather one for it: P2c \
                 makes every higher ballot carry {value}.",
                others.join(" and ")
            )
        };
        Some(Prompt::question(
            "two-values",
            format!("{value} is chosen at {at} by {by}. Were two values chosen in this duel?"),
            votes,
            vec![
                Choice {
                    key: "no".into(),
                    label: format!("No: only {value}"),
                    right: !two,
                    explanation: format!(
                        "Only {value}: {by} voted for {at}, a majority. {stray} However long the \
                         duel ran, each ballot's Phase 1 heard of every vote a majority might \
                         have cast: the duel cost time, never agreement."
                    ),
                },
                Choice {
                    key: "yes".into(),
                    label: "Yes: each proposer got its value chosen".into(),
                    right: two,
                    explanation: format!(
                        "A value is chosen only when a majority votes for it at one ballot. Only \
                         {by} did, for {value} at {at}. {stray}"
                    ),
                },
            ],
        ))
    }
}
