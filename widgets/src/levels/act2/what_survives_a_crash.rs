//! `act2/what-survives-a-crash`: N2 votes for a=1 in slot 1 as a leader whose Accepts never
//! land; N3 then gets b=2 chosen in slot 1 without it; N2 learns b. The player crashes and
//! restarts N2 at each step, and after each restart says what N2's durable record holds.
//!
//! The right answer is read off N2's disk (`DurableRecord::recover`); what the cluster has
//! chosen is judged from the votes (`LogWorld::chosen_entry`), never from what some node has
//! learned. The lesson is the chosen overwrite rule (`ColocatedNode::learn_chosen`): once N2
//! learns b, b replaces the stale vote for a in the record, or a restart would bring a back as
//! if it were chosen.
//!
//! The plan needs b chosen in slot 1. A move that gets a chosen there instead (N2's Accept
//! landing first) makes it impossible: the goal fails and says so, and undo takes it back.

use super::{CRASH_AND_RESTART, pin};
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::prompt::{Choice, Prompt, drop_doubles};
use crate::replicated_log::stage::durable_record;
use crate::replicated_log::{LogMove, ballot_name};
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use paros_core::log::{DurableRecord, Entry, Slot, SlotVote};
use paros_core::{Ballot, NodeSet};
use paros_sim::level_worlds;
use paros_sim::replicated_log::{LogAction, LogWorld, SlotVotes};

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act2/what-survives-a-crash",
    act: 2,
    title: "What survives a crash",
    briefing: native_text(include_str!("what_survives_a_crash.md")),
    by_hand: "Crash and restart at each step of a decision, and say what the durable record keeps",
    teaches: "What a node's durable record must keep, before and after it learns a decision",
    goal: "Say what N2's disk holds after a restart with its own vote, with a stale vote, and after learning the decision",
    chapter: CRASH_AND_RESTART,
    scenario: "act2-what-survives-a-crash",
    symbols: native_only(&["ColocatedNode::learn_chosen"]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Question("record"),
            text: "A disk holds only what its own node wrote. N2 writes a vote when it votes, and writes \
         again only when it learns something is chosen.",
        },
        Hint {
            about: HintFor::Question("record"),
            text: "When N2 learns b is chosen in slot 1, where does b go? If the record kept a and only \
         marked slot 1 chosen, what would N2 believe after its next restart?",
        },
    ],
    pins: &[pin(Automation::ApplyWalk, true)],
    retry_by_hand: false,
    stages: &[Stage {
        title: "A vote that will go stale",
        note: "N2 leads at 1.N2 and has voted for C1's a=1 in slot 1; its Accepts to N1 and N3 \
               are on the wire. You may crash N2 three times.",
        world: &level_worlds::WHAT_SURVIVES_A_CRASH,
    }],
    solution: native_only(&[
        "crash N2",
        "restart N2",
        "answer record",
        "tick N3",
        "tick N3",
        "deliver N3->N1 Prepare",
        "deliver N1->N3 Promise",
        "request C2 N3",
        "deliver C2->N3 Write",
        "deliver N3->N1 Accept",
        "deliver N1->N3 Accepted",
        "crash N2",
        "restart N2",
        "answer record",
        "tick N3",
        "deliver N3->N2 Heartbeat",
        "deliver N2->N3 HeartbeatAck",
        "deliver N3->N2 Chosen",
        "crash N2",
        "restart N2",
        "answer record",
    ]),
    solution_unlocked: &[
        Automation::AcceptorReplies,
        Automation::P2c,
        Automation::ApplyWalk,
    ],
    rules: &WhatSurvives,
};

/// N2, the node whose disk the level is about.
const N2: usize = 1;

/// The three steps the level records, with their checklist labels.
const STEPS: [(&str, &str); 3] = [
    (
        "own-vote",
        "Restart N2 holding its own vote, nothing chosen",
    ),
    (
        "stale-vote",
        "Restart N2 after another value was chosen without it",
    ),
    ("overwritten", "Restart N2 after it learned the decision"),
];

struct WhatSurvives;

impl Rules<LogWorld> for WhatSurvives {
    fn goal(&self, run: &Run<LogWorld>, memory: &Memory) -> Goal {
        if STEPS.iter().all(|(key, _)| memory.records.contains(*key)) {
            return Goal::Reached;
        }
        plan_broken(run.world()).map_or(Goal::Open, Goal::Failed)
    }

    fn question(&self, change: &Change<'_, LogWorld>) -> Option<Prompt> {
        match change.action {
            LogMove::World(LogAction::Restart(node)) if usize::from(node.get()) == N2 + 1 => {
                record_question(change.world)
            }
            _ => None,
        }
    }

    fn checklist(&self, _run: &Run<LogWorld>, memory: &Memory) -> Vec<ChecklistItem> {
        STEPS
            .iter()
            .map(|(key, label)| ChecklistItem::recorded(label, memory, key))
            .collect()
    }
}

/// Why the briefing's plan can no longer be played, if it cannot: steps 2 and 3 need C2's
/// command chosen in slot 1, and a slot once chosen holds its entry forever.
fn plan_broken(world: &LogWorld) -> Option<String> {
    let chosen = world.chosen_entry(Slot(1))?;
    let c2 = world.config().client_id(1);
    if matches!(&chosen.entry, Entry::Command(command) if command.client == c2) {
        return None;
    }
    let c2_command = world.config().clients[1]
        .first()
        .map_or_else(|| "command".to_string(), ToString::to_string);
    Some(format!(
        "{} is chosen in slot 1 ({}): a slot once chosen holds its entry forever, so C2's \
         {c2_command} can never be chosen there, N2's vote can never go stale, and steps 2 and 3 \
         cannot happen. Undo until slot 1 is no longer chosen, and crash N2 while its Accepts \
         are still on the wire.",
        world.entry_name(&chosen.entry),
        by_whom(world, chosen)
    ))
}

/// A set of nodes as the prompts read it: `{N2, N3}`.
fn node_set(world: &LogWorld, nodes: NodeSet) -> String {
    let names: Vec<String> = nodes.iter().map(|node| world.name(node)).collect();
    format!("{{{}}}", names.join(", "))
}

/// Who chose an entry, and when: `by {N2, N3} at 1.N2`.
fn by_whom(world: &LogWorld, votes: &SlotVotes) -> String {
    format!(
        "by {} at {}",
        node_set(world, votes.voters),
        ballot_name(world, votes.ballot)
    )
}

/// The last vote N2 cast in slot 1 for an entry other than `chosen`: the vote that went stale.
fn stale_vote(world: &LogWorld, chosen: &SlotVotes) -> Option<SlotVote> {
    let n2 = world.config().node_id(N2);
    world
        .votes_in(Slot(1))
        .into_iter()
        .rfind(|votes| votes.voters.contains(n2) && votes.entry != chosen.entry)
        .map(|votes| SlotVote {
            ballot: votes.ballot,
            entry: votes.entry,
        })
}

/// What a choice says N2's durable record holds: its promise, its vote in slot 1 and how far it
/// is marked chosen. The right choice is the real record; each wrong one is the real record with
/// one field set to a value it does not hold.
#[derive(Clone)]
struct Said {
    promised: Option<Ballot>,
    vote: SlotVote,
    chosen_through: Slot,
}

impl Said {
    /// What the real record holds, if it holds a vote in slot 1.
    fn of(record: &DurableRecord) -> Option<Said> {
        Some(Said {
            promised: record.promised,
            vote: record.accepts.get(&Slot(1))?.clone(),
            chosen_through: record.chosen_through,
        })
    }

    /// As a choice reads: `promise 1.N2; slot 1: a=1 (C1#1) at 1.N2; chosen through 0`.
    fn text(&self, world: &LogWorld) -> String {
        let promise = self.promised.map_or_else(
            || "no promise".to_string(),
            |ballot| format!("promise {}", ballot_name(world, ballot)),
        );
        format!(
            "{promise}; slot 1: {}; chosen through {}",
            vote_text(world, &self.vote),
            self.chosen_through
        )
    }
}

/// A vote as the prompts read it: `a=1 (C1#1) at 1.N2`.
fn vote_text(world: &LogWorld, vote: &SlotVote) -> String {
    format!(
        "{} at {}",
        world.entry_name(&vote.entry),
        ballot_name(world, vote.ballot)
    )
}

/// Which step of the level a restart with `vote` in slot 1 shows.
fn step_of(world: &LogWorld, vote: &SlotVote, learned: bool) -> &'static str {
    match world.chosen_entry(Slot(1)) {
        None => "own-vote",
        Some(chosen) if chosen.entry != vote.entry => "stale-vote",
        Some(_) if !learned => "chosen-unlearned",
        // The checklist's last step is the overwrite of a stale vote: without one, N2 only
        // learned its own vote chosen.
        Some(chosen) if stale_vote(world, chosen).is_some() => "overwritten",
        Some(_) => "learned",
    }
}

/// After N2 restarts: what does its durable record hold? What is chosen is judged from the
/// votes, so the prompt's facts, its right answer and its wrong ones all say what is true.
pub(crate) fn record_question(world: &LogWorld) -> Option<Prompt> {
    let (record, _) = durable_record(&world.servers()[N2]);
    let actual = Said::of(&record)?;
    let chosen = world.chosen_entry(Slot(1));
    let step = step_of(world, &actual.vote, actual.chosen_through >= Slot(1));
    let mut choices = vec![
        Choice {
            key: "record".into(),
            label: actual.text(world),
            right: true,
            explanation: right_text(world, step, &record, chosen),
        },
        Choice {
            key: "blank".into(),
            label: "Nothing but its identity: a crash wipes the rest".into(),
            right: false,
            explanation: format!(
                "A crash loses volatile state, never the disk: N2 wrote {} and synced it before \
                 any message that depended on it left. Had the promise and the vote gone, N2 \
                 could promise a lower ballot than {} or forget a vote a quorum counted.",
                actual.text(world),
                actual
                    .promised
                    .map(|ballot| ballot_name(world, ballot))
                    .unwrap_or_default()
            ),
        },
    ];
    choices.extend(wrong_record(world, step, &actual, chosen));
    drop_doubles(&mut choices);
    let mut prompt = Prompt::question(
        "record",
        "N2 has restarted from its disk. What does its durable record hold?".to_string(),
        vec![
            format!(
                "N2 has written to its disk {} times since it began, each write checked when \
                 it restarts",
                world.servers()[N2].disk.len()
            ),
            match chosen {
                Some(chosen) => format!(
                    "the cluster has chosen {} in slot 1 ({})",
                    world.entry_name(&chosen.entry),
                    by_whom(world, chosen)
                ),
                None => "nothing is chosen in slot 1".to_string(),
            },
        ],
        choices,
    );
    prompt.record = Some(step.to_string());
    // The stage keeps N2's own state back while this is open: it would print the answer.
    prompt.node = Some(world.name(world.config().node_id(N2)));
    Some(prompt)
}

/// The wrong record this step tempts the player with: the real record with one field changed.
fn wrong_record(
    world: &LogWorld,
    step: &str,
    actual: &Said,
    chosen: Option<&SlotVotes>,
) -> Option<Choice> {
    let vote = vote_text(world, &actual.vote);
    let marked = Said {
        chosen_through: Slot(1),
        ..actual.clone()
    };
    let choice = |key: &str, said: Said, explanation: String| Choice {
        key: key.into(),
        label: said.text(world),
        right: false,
        explanation,
    };
    Some(match (step, chosen) {
        ("own-vote", _) => {
            let voters = world
                .votes_in(Slot(1))
                .into_iter()
                .find(|votes| {
                    votes.ballot == actual.vote.ballot && votes.entry == actual.vote.entry
                })
                .map_or(NodeSet::EMPTY, |votes| votes.voters);
            choice(
                "marked-chosen",
                marked,
                format!(
                    "N2 voted for {vote}, but nothing is chosen in slot 1: {}, no Phase-2 quorum. \
                     A node writes that a slot is chosen only when it learns so; there is \
                     nothing to learn.",
                    if voters.is_empty() {
                        "no vote for it has left its voter yet".to_string()
                    } else {
                        format!("only {} voted for it", node_set(world, voters))
                    }
                ),
            )
        }
        ("stale-vote", Some(chosen)) => {
            let n2 = world.config().node_id(N2);
            let part = if chosen.voters.contains(n2) {
                ""
            } else {
                "N2 took no part and "
            };
            let decided = Said {
                vote: SlotVote {
                    ballot: chosen.ballot,
                    entry: chosen.entry.clone(),
                },
                ..actual.clone()
            };
            choice(
                "decided",
                decided,
                format!(
                    "{} is chosen in slot 1 ({}), but {part}N2 has heard nothing of it: a disk \
                     holds only what its node wrote. N2's record still says {vote}, a stale \
                     vote, until N2 learns the decision.",
                    world.entry_name(&chosen.entry),
                    by_whom(world, chosen)
                ),
            )
        }
        ("chosen-unlearned", Some(chosen)) => choice(
            "marked-chosen",
            marked,
            format!(
                "{} is chosen in slot 1 ({}), but N2 never learned so before it crashed. Chosen is \
                 a fact about the votes, true the moment a quorum has voted, whether or not \
                 anyone has heard; a node writes that a slot is chosen only when it learns \
                 so. N2's record holds its vote ({vote}), not marked chosen.",
                world.entry_name(&chosen.entry),
                by_whom(world, chosen)
            ),
        ),
        ("overwritten", Some(chosen)) => {
            let stale = stale_vote(world, chosen)?;
            let stale_entry = world.entry_name(&stale.entry);
            let explanation = format!(
                "That record is the bug the chosen overwrite rule prevents. It says slot 1 is \
                 chosen and holds {stale_entry} at {}: on restart N2 rebuilds its chosen prefix \
                 from it and applies {stale_entry}, while the cluster chose {} {}. Agreement \
                 broken by a restart. So learning ([`ColocatedNode::learn_chosen`]) writes the chosen entry over the \
                 stale vote before it writes how far the log is chosen.",
                ballot_name(world, stale.ballot),
                world.entry_name(&chosen.entry),
                by_whom(world, chosen),
            );
            let unwritten = Said {
                vote: stale,
                ..actual.clone()
            };
            choice("stale-chosen", unwritten, explanation)
        }
        _ => {
            let unmarked = Said {
                chosen_through: Slot(0),
                ..actual.clone()
            };
            choice(
                "unmarked",
                unmarked,
                format!(
                    "N2 learned that slot 1 is chosen before it crashed, and learning is a write: \
                     \"chosen through slot {}\" is on its disk beside its vote ({vote}), so the \
                     record says slot 1 is chosen.",
                    actual.chosen_through
                ),
            )
        }
    })
}

fn right_text(
    world: &LogWorld,
    step: &str,
    record: &DurableRecord,
    chosen: Option<&SlotVotes>,
) -> String {
    let vote = record
        .accepts
        .get(&Slot(1))
        .map_or_else(String::new, |vote| vote_text(world, vote));
    let chosen_text = chosen.map_or_else(String::new, |chosen| {
        format!(
            "{} ({})",
            world.entry_name(&chosen.entry),
            by_whom(world, chosen)
        )
    });
    match step {
        "own-vote" => format!(
            "The promise and the vote ({vote}) were durable before N2 sent anything that \
             depended on them, so both survive. Nothing marks slot 1 chosen: nothing is, since \
             no Phase-2 quorum has voted."
        ),
        "stale-vote" => format!(
            "N2's record still holds {vote}: N2 heard nothing of the decision, and a disk \
             changes only when its node writes. The vote is stale, and harmless while slot 1 is \
             not marked chosen: a leader's Phase 1 that hears it sees a lower ballot than the \
             chosen {chosen_text}."
        ),
        "chosen-unlearned" => format!(
            "The promise and the vote ({vote}) were durable before N2 sent anything that \
             depended on them, so both survive. That vote is chosen: {chosen_text}, a Phase-2 \
             quorum. Yet nothing on N2's disk marks slot 1 chosen, and nothing should: chosen is \
             a fact about the votes, true the moment a quorum has voted, and a node writes \
             that a slot is chosen only when it learns so. N2 crashed before it learned, so the record holds \
             the vote, not marked chosen."
        ),
        "overwritten" => format!(
            "When N2 learned the decision, it wrote the chosen entry over the stale vote, and \
             only then that the log is chosen through slot 1: the record holds {vote}, chosen through {}. On restart, \
             N2 rebuilds its chosen prefix from exactly that.",
            record.chosen_through
        ),
        _ => format!(
            "N2 learned that its vote was chosen ({chosen_text}) and wrote that the log is \
             chosen through slot 1 before it crashed: the record holds {vote}, chosen through {}. On restart, N2 \
             rebuilds its chosen prefix from exactly that.",
            record.chosen_through
        ),
    }
}
