//! `act4/faulty-records`: x=1 is chosen in slot 1 by N1 and N2; the player crashes N2, damages
//! its record of that vote, restarts it, lets N3 stand, and puts each Promise that reaches N3
//! into its case before N3 keeps x=1 in slot 1 and C1's x=2 is chosen after it.
//!
//! One level question, asked while a Promise to a standing candidate is on the wire: what it
//! answers for the slot in question, one of the three answers of C2 (a vote, a definite "no
//! vote", "unknown"), read from the real Promise, and what the candidate's count makes of it,
//! judged by paros-core's `log::phase1_complete` (C3) on the candidate's real election with the
//! Promise counted. Each wrong choice is another answer, its outcome judged the same way; the
//! key one takes a corrupt vote for "no vote" (the corrupt-as-none control).

use super::DISKS_THAT_LIE;
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::levels::act2::{pin, running};
use crate::prompt::{Choice, Prompt};
use crate::replicated_log::{LogMove, ballot_name};
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use crate::words::log_set_name as set_name;
use paros_core::log::{ColocatedNode, Election, Entry, LogMessage, LogRole, Slot, phase1_complete};
use paros_core::{Ballot, NodeId, NodeSet};
use paros_sim::level_worlds;
use paros_sim::replicated_log::{LogAction, LogWorld, SlotVotes};

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act4/faulty-records",
    act: 4,
    title: "Faulty records",
    briefing: native_text(include_str!("faulty_records.md")),
    by_hand: "Damage one accepted record, then put each Promise that arrives into its CTRL case",
    teaches: "\"I no longer know\" is a third answer, and it must not become \"I did not vote\"",
    goal: "N2's vote in slot 1 damaged, each Promise to the new candidate put in its case, and \
           C1's x=2 chosen after x=1",
    chapter: DISKS_THAT_LIE,
    scenario: "act4-faulty-records",
    symbols: native_only(&["log::phase1_complete", "DurableRecord::recover"]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Question("unknown-answer"),
            text: "N2 knows it voted in slot 1 and no longer knows for what. \"I don't know\" is not \"I \
         didn't\": count only the nodes that answered slot 1 for certain.",
        },
        Hint {
            about: HintFor::Question("unknown-answer"),
            text: "A record can be damaged only on a disk at rest: crash N2 first, then restart it. Let N3 \
         stand, and deliver its Prepare to N2 before N1's.",
        },
    ],
    pins: &[
        pin(Automation::P2c, true),
        pin(Automation::ApplyWalk, true),
        pin(Automation::Heartbeats, false),
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "A record that lies",
        note: super::X1_CHOSEN_BY_N1_AND_N2,
        world: &level_worlds::FAULTY_RECORDS,
    }],
    solution: native_only(&[
        "crash N2",
        "corrupt N2 vote 1",
        "restart N2",
        "tick N3",
        "deliver N3->N2 Prepare",
        "answer unknown",
        "deliver N2->N3 Promise",
        "deliver N3->N1 Prepare",
        "answer voted",
        "deliver N1->N3 Promise",
        "deliver N3->N2 Accept",
        "deliver N2->N3 Accepted",
        "request C1 N3",
        "deliver C1->N3 Write",
        "deliver N3->N2 Accept",
        "deliver N2->N3 Accepted",
    ]),
    solution_unlocked: &[Automation::P2c, Automation::ApplyWalk],
    rules: &FaultyRecords,
};

/// What a right answer records for each answer a Promise gives.
const SORTED_UNKNOWN: &str = "an unknown answer put in its case";
const SORTED_VOTE: &str = "a vote put in its case";
const SORTED_NO_VOTE: &str = "a definite no vote put in its case";

struct FaultyRecords;

impl Rules<LogWorld> for FaultyRecords {
    fn goal(&self, run: &Run<LogWorld>, memory: &Memory) -> Goal {
        Goal::when_all_done(&self.checklist(run, memory))
    }

    fn checklist(&self, run: &Run<LogWorld>, memory: &Memory) -> Vec<ChecklistItem> {
        let item = |label: &str, record: &str| ChecklistItem::recorded(label, memory, record);
        vec![
            item(
                "The Promise of the node whose record is corrupt put in its case",
                SORTED_UNKNOWN,
            ),
            item("A Promise that reports a vote put in its case", SORTED_VOTE),
            ChecklistItem {
                label: "Every write of C1 chosen, x=1 kept in its slot".into(),
                done: every_write_chosen_once(run.world()),
            },
        ]
    }

    /// After a delivery that sent a Promise to a standing candidate: what it answers for the
    /// slot in question, and what the candidate's count makes of it.
    fn question(&self, change: &Change<'_, LogWorld>) -> Option<Prompt> {
        let LogMove::World(LogAction::Deliver(_)) = change.action else {
            return None;
        };
        let world = change.world;
        (world.in_flight().iter())
            .filter(|message| message.id >= change.before.next_message)
            .find_map(|message| {
                let envelope = &message.envelope;
                let promise = PromiseOnWire::of(&envelope.message)?;
                answer_question(world, envelope.from, envelope.to, &promise)
            })
    }
}

/// Whether every client write is chosen, each in one slot only, and no checker objects.
fn every_write_chosen_once(world: &LogWorld) -> bool {
    let writes: usize = world.config().clients.iter().map(Vec::len).sum();
    let mut chosen: Vec<(Slot, Entry)> = (world.chosen_by_votes().into_iter())
        .filter(|votes| matches!(votes.entry, Entry::Command(_)))
        .map(|votes| (votes.slot, votes.entry))
        .collect();
    chosen.dedup();
    chosen.len() == writes && world.violations().is_empty()
}

/// A Promise on the wire, by its fields.
struct PromiseOnWire<'a> {
    ballot: Ballot,
    from_slot: Slot,
    floor: Slot,
    votes: &'a [(Slot, paros_core::log::SlotVote)],
    unknown: &'a [Slot],
}

impl<'a> PromiseOnWire<'a> {
    fn of(message: &'a LogMessage) -> Option<PromiseOnWire<'a>> {
        match message {
            LogMessage::Promise {
                ballot,
                from_slot,
                floor,
                votes,
                unknown,
            } => Some(PromiseOnWire {
                ballot: *ballot,
                from_slot: *from_slot,
                floor: *floor,
                votes,
                unknown,
            }),
            _ => None,
        }
    }

    /// What it answers for `slot`, one of the three answers of C2.
    fn answer(&self, slot: Slot) -> Answer {
        if self.unknown.contains(&slot) {
            Answer::Unknown
        } else if self.votes.iter().any(|(voted, _)| *voted == slot) {
            Answer::Vote
        } else {
            Answer::NoVote
        }
    }
}

/// A Promise's answer for one slot (C2): a vote, a definite "no vote", or "unknown".
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Answer {
    Vote,
    NoVote,
    Unknown,
}

impl Answer {
    const ALL: [Answer; 3] = [Answer::Vote, Answer::NoVote, Answer::Unknown];

    fn key(self) -> &'static str {
        match self {
            Answer::Vote => "voted",
            Answer::NoVote => "none",
            Answer::Unknown => "unknown",
        }
    }

    fn record(self) -> &'static str {
        match self {
            Answer::Vote => SORTED_VOTE,
            Answer::NoVote => SORTED_NO_VOTE,
            Answer::Unknown => SORTED_UNKNOWN,
        }
    }
}

/// The candidate `to`, if it stands at `ballot` and has not yet counted `promiser`.
fn candidate_at(
    world: &LogWorld,
    to: NodeId,
    ballot: Ballot,
    promiser: NodeId,
) -> Option<&ColocatedNode> {
    let candidate = running(world, usize::from(to.get()))?;
    let standing = candidate.role() == LogRole::Candidate && candidate.ballot() == Some(ballot);
    let new = !candidate.election()?.promised_by.contains(promiser);
    (standing && new).then_some(candidate)
}

/// The slot the question is about: the first one the Promise answers, from the Prepare's first
/// slot and above its floor, in which some node of the cluster voted.
fn slot_in_question(world: &LogWorld, promise: &PromiseOnWire<'_>) -> Option<Slot> {
    let first = promise.from_slot.max(promise.floor.next());
    let reported =
        (promise.votes.iter().map(|(slot, _)| *slot)).chain(promise.unknown.iter().copied());
    let voted = (world.chosen_by_votes().into_iter()).map(|votes| votes.slot);
    reported.chain(voted).filter(|slot| *slot >= first).min()
}

/// `election` with `promiser`'s Promise counted as the core's `on_promise` counts one: its
/// sender among the promised, and among the nodes that answered "unknown" for each slot in
/// `unknown`. The votes it reports change no count, so they are left out.
fn counted(election: &Election, promiser: NodeId, unknown: &[Slot]) -> Election {
    let mut counted = election.clone();
    counted.promised_by.insert(promiser);
    for slot in unknown {
        match (counted.unknown_by.iter_mut()).find(|(known, _)| known == slot) {
            Some((_, nodes)) => {
                nodes.insert(promiser);
            }
            None => counted
                .unknown_by
                .push((*slot, [promiser].into_iter().collect())),
        }
    }
    counted
}

/// The Promise's unknown slots, with `slot`'s answer taken as `answer`.
fn unknown_if(promise: &PromiseOnWire<'_>, slot: Slot, answer: Answer) -> Vec<Slot> {
    let mut unknown: Vec<Slot> = (promise.unknown.iter().copied())
        .filter(|unknown| *unknown != slot)
        .collect();
    if answer == Answer::Unknown {
        unknown.push(slot);
    }
    unknown
}

/// The nodes of `election` that answered `slot` for certain: the promised, but for those that
/// answered it "unknown". For the explanation's words; the verdict is `phase1_complete`'s.
fn definite_in(election: &Election, slot: Slot) -> NodeSet {
    let unknown = (election.unknown_by.iter())
        .find(|(known, _)| *known == slot)
        .map_or(NodeSet::EMPTY, |(_, nodes)| *nodes);
    (election.promised_by.iter())
        .filter(|node| !unknown.contains(*node))
        .collect()
}

/// The vote `node` cast in `slot` at the highest ballot, as the world saw it cast, whatever its
/// disk says of it now.
fn cast_vote(world: &LogWorld, node: NodeId, slot: Slot) -> Option<SlotVotes> {
    (world.votes_in(slot).into_iter())
        .filter(|votes| votes.voters.contains(node))
        .max_by_key(|votes| votes.ballot)
}

/// A vote as the prompt names it: `x=1 (C1#1) at 1.N1`.
fn vote_words(world: &LogWorld, votes: &SlotVotes) -> String {
    format!(
        "{} at {}",
        world.entry_name(&votes.entry),
        ballot_name(world, votes.ballot)
    )
}

/// The level question for `promiser`'s Promise to `to`, if `to` stands at its ballot.
fn answer_question(
    world: &LogWorld,
    promiser: NodeId,
    to: NodeId,
    promise: &PromiseOnWire<'_>,
) -> Option<Prompt> {
    let candidate = candidate_at(world, to, promise.ballot, promiser)?;
    let election = candidate.election()?;
    let slot = slot_in_question(world, promise)?;
    let real = promise.answer(slot);
    let asked = Asked {
        world,
        promiser,
        candidate: to,
        slot,
        cast: cast_vote(world, promiser, slot),
    };
    let quorums = world.config().quorum_system();
    let choices = Answer::ALL
        .into_iter()
        .map(|answer| {
            let as_counted = counted(election, promiser, &unknown_if(promise, slot, answer));
            let complete = phase1_complete(&quorums, &as_counted);
            Choice {
                key: answer.key().into(),
                label: asked.label(answer, complete),
                right: answer == real,
                explanation: format!(
                    "{} {}",
                    asked.why(answer, real, complete),
                    asked.count_words(&as_counted, complete)
                ),
            }
        })
        .collect();
    let (name, candidate_name) = (world.name(promiser), world.name(to));
    let at = ballot_name(world, promise.ballot);
    let mut facts = vec![format!(
        "{candidate_name} stands at {at}; promises so far: {}",
        set_name(world, election.promised_by)
    )];
    if let Some(chosen) = (world.chosen_by_votes().into_iter()).find(|votes| votes.slot == slot) {
        facts.push(format!(
            "slot {slot}: {} chosen by {}",
            vote_words(world, &chosen),
            set_name(world, chosen.voters)
        ));
    }
    let mut prompt = Prompt::question(
        "unknown-answer",
        format!(
            "{name}'s Promise at {at} is on its way to {candidate_name}. What does it answer for \
             slot {slot}, and what does {candidate_name}'s count make of it?"
        ),
        facts,
        choices,
    );
    prompt.node = Some(name);
    prompt.record = Some(real.record().into());
    Some(prompt)
}

/// What one question is about: who promises to whom, the slot, and the vote the promiser cast
/// there, if it cast one.
struct Asked<'a> {
    world: &'a LogWorld,
    promiser: NodeId,
    candidate: NodeId,
    slot: Slot,
    cast: Option<SlotVotes>,
}

impl Asked<'_> {
    /// A choice's label: the answer, then what the count makes of it.
    fn label(&self, answer: Answer, complete: bool) -> String {
        let slot = self.slot;
        let said = match (answer, &self.cast) {
            (Answer::Vote, Some(cast)) => format!("A vote: {}", vote_words(self.world, cast)),
            (Answer::Vote, None) => format!("A vote in slot {slot}"),
            (Answer::NoVote, _) => format!("\"No vote\" in slot {slot}"),
            (Answer::Unknown, _) => format!("\"Unknown\" in slot {slot}"),
        };
        let candidate = self.world.name(self.candidate);
        if complete {
            format!("{said}; {candidate} leads")
        } else {
            format!("{said}; {candidate} waits for another Promise")
        }
    }

    /// Why the Promise gives `answer`, or why it does not: `real` is what it gives.
    fn why(&self, answer: Answer, real: Answer, complete: bool) -> String {
        let (name, slot) = (self.world.name(self.promiser), self.slot);
        let cast = (self.cast.as_ref()).map_or_else(String::new, |cast| {
            format!(" ({})", vote_words(self.world, cast))
        });
        match (answer, real) {
            (Answer::Unknown, Answer::Unknown) => format!(
                "Right: {name} voted in slot {slot}{cast}, and its record of that vote fails its \
                 checksum: DurableRecord::recover marked the slot unknown at its restart, and its \
                 Promise answers \"unknown\" there, never \"no vote\" (C2)."
            ),
            (Answer::Vote, Answer::Vote) => format!(
                "Right: {name}'s record of slot {slot} reads, and its Promise reports the \
                 vote{cast}."
            ),
            (Answer::NoVote, Answer::NoVote) => format!(
                "Right: {name} never voted in slot {slot}, and its disk says so for certain: a \
                 definite \"no vote\", which counts."
            ),
            (Answer::NoVote, Answer::Unknown) => self.corrupt_as_none(complete),
            (Answer::Vote, Answer::Unknown) => format!(
                "{name} cannot report that vote: its record of slot {slot} fails its checksum, \
                 and a Promise reports only what the disk still says. Its Promise answers \
                 \"unknown\"."
            ),
            (Answer::Unknown, _) => format!(
                "Nothing in {name}'s record of slot {slot} is damaged: it knows what it did \
                 there, and says so. \"Unknown\" is only for a vote whose record fails its \
                 checksum."
            ),
            (Answer::NoVote, _) => format!(
                "{name} voted in slot {slot}{cast}, and its record reads: \"no vote\" would hide \
                 a vote its disk still holds."
            ),
            (Answer::Vote, _) => {
                format!("{name} holds no vote in slot {slot}, and its Promise reports none.")
            }
        }
    }

    /// The key wrong answer: a corrupt vote taken for "no vote".
    fn corrupt_as_none(&self, complete: bool) -> String {
        let (name, slot) = (self.world.name(self.promiser), self.slot);
        let candidate = self.world.name(self.candidate);
        let cast = (self.cast.as_ref()).map_or_else(
            || format!("{name} voted in slot {slot}"),
            |cast| {
                format!(
                    "{} voted for {} in slot {slot}, {name} among them",
                    set_name(self.world, cast.voters),
                    vote_words(self.world, cast)
                )
            },
        );
        let danger = if complete {
            format!(
                " Taken for \"no vote\", it would complete {candidate}'s Phase 1 without that \
                 vote, and {candidate} could put another value in slot {slot}: two values \
                 chosen in one slot."
            )
        } else {
            String::new()
        };
        format!(
            "That is corrupt-as-none. {cast}; its record of it is damaged, not absent, so it \
             cannot say it did not vote.{danger}"
        )
    }

    /// What `phase1_complete` says of the election with the Promise counted this way.
    fn count_words(&self, counted: &Election, complete: bool) -> String {
        let world = self.world;
        let (slot, candidate) = (self.slot, world.name(self.candidate));
        let promised = set_name(world, counted.promised_by);
        let definite = set_name(world, definite_in(counted, slot));
        if complete {
            format!(
                "Counted so, log::phase1_complete holds: {promised} promised, and {definite} answered \
                 slot {slot} for certain, a Phase-1 quorum. {candidate} leads."
            )
        } else {
            format!(
                "Counted so, log::phase1_complete does not hold: {promised} promised, and only \
                 {definite} answered slot {slot} for certain, no Phase-1 quorum (C3). \
                 {candidate} waits."
            )
        }
    }
}
