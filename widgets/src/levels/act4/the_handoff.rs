//! `act4/the-handoff`: N1 leads at 1.N1 with x=2 in flight and a hole at N2; the player hands
//! the ballot to N2, which finishes x=2 and chooses C2's y=1 at the same ballot with no Phase 1,
//! then tries to hand the ballot on again.
//!
//! Three level questions, each asked before the stage shows the answer and each judged by
//! paros-core on the real state: what N1 wrote before its Handoff left (N1's durable record),
//! whether N2 may fill the hole below the handed-off next slot (`successor_may_propose`), and
//! what N2 answers when asked to hand the ballot on (`ColocatedNode::hand_off` on a copy of N2).

use super::THE_HANDOFF;
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::levels::act2::{pin, running};
use crate::prompt::{Choice, Prompt};
use crate::replicated_log::stage::{durable_record, write_name};
use crate::replicated_log::{HandoffOnWire, LogMove, ballot_name};
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use crate::words::log_set_name as set_name;
use paros_core::log::{
    ColocatedNode, Entry, HandoffRefused, LogMessage, LogRole, Slot, Write,
    chosen_by_a_recording_quorum, successor_may_propose,
};
use paros_core::{Ballot, NodeId};
use paros_sim::level_worlds;
use paros_sim::replicated_log::{LogAction, LogWorld};

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act4/the-handoff",
    act: 4,
    title: "The handoff",
    briefing: native_text(include_str!("the_handoff.md")),
    by_hand: "Hand the leadership on under the same ballot, then try to hand it on again",
    teaches: "Same ballot, no Phase 1, gap filling off, and one hop only",
    goal: "x=2, in flight at the handoff, and C2's y=1 chosen at 1.N1 with no Phase 1, and a \
           second handoff of 1.N1 tried and judged",
    chapter: THE_HANDOFF,
    scenario: "act4-handoff",
    symbols: native_only(&["successor_may_propose", "ColocatedNode::hand_off"]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Question("resend"),
            text: "A ballot carries one value per slot, whoever sends it. Ask of every Accept: could \
         another value already sit in this slot at this very ballot?",
        },
        Hint {
            about: HintFor::Question("hole"),
            text: "The Handoff draws a line at its next slot. Below it, only the values in flight, sent \
         again unchanged; at and above it, new commands. A hole below it is left to a higher \
         ballot's Phase 1.",
        },
        Hint {
            about: HintFor::Question("second-handoff"),
            text: "A handoff moves a ballot once, from the node that ran its Phase 1 to a successor, and the \
         giver's disk records it. Ask what a second hop would need every earlier holder to \
         know.",
        },
    ],
    pins: &[
        pin(Automation::P2c, true),
        pin(Automation::ApplyWalk, true),
        pin(Automation::Heartbeats, false),
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "One ballot, two holders",
        note: "N1 leads at 1.N1. x=1 is chosen in slot 1 by N1 and N3, x=2 is in flight in \
               slot 2, and N2 has heard of neither. C2 sends y=1 to N2 only.",
        world: &level_worlds::THE_HANDOFF,
    }],
    solution: native_only(&[
        "hand off N1->N2",
        "answer handed-off",
        "deliver N1->N2 Handoff",
        "answer no",
        "deliver N2->N3 Accept",
        "request C2 N2",
        "deliver C2->N2 Write",
        "deliver N2->N3 Accept",
        "answer refused",
    ]),
    solution_unlocked: &[Automation::P2c, Automation::ApplyWalk],
    rules: &TheHandoff,
};

/// What a right answer records when N1 hands its ballot off with a command in flight.
const HANDED_OFF_IN_FLIGHT: &str = "handed off with a command in flight";
/// What a right answer records when the successor leaves a hole below the next slot alone.
const HOLE_LEFT: &str = "the hole below the next slot left alone";
/// What a right answer records when the second handoff is refused.
const SECOND_HANDOFF_REFUSED: &str = "the second handoff refused";

/// N1's ballot, the one handed off.
const HANDED: Ballot = Ballot::new(1, node(1));

const fn node(number: u8) -> NodeId {
    match NodeId::new(number) {
        Some(node) => node,
        None => panic!("node ids start at 1"),
    }
}

struct TheHandoff;

impl Rules<LogWorld> for TheHandoff {
    fn goal(&self, run: &Run<LogWorld>, memory: &Memory) -> Goal {
        if let Some((name, ballot)) = phase_one(run.world()) {
            return Goal::Failed(format!(
                "{name} stood for election at {ballot}: a Phase 1 ran, which the handoff exists \
                 to skip. Undo it."
            ));
        }
        Goal::when_all_done(&self.checklist(run, memory))
    }

    fn checklist(&self, run: &Run<LogWorld>, memory: &Memory) -> Vec<ChecklistItem> {
        let recorded = |label: &str, record: &str| ChecklistItem::recorded(label, memory, record);
        vec![
            recorded(
                "N1 hands 1.N1 to N2 with x=2 still in flight",
                HANDED_OFF_IN_FLIGHT,
            ),
            recorded("What N2 may do with the hole at slot 1, judged", HOLE_LEFT),
            ChecklistItem {
                label: "x=2 and y=1 chosen at 1.N1, with no Phase 1".into(),
                done: every_write_chosen_at(run.world(), HANDED)
                    && took_by_handoff(run.world(), HANDED).is_some()
                    && phase_one(run.world()).is_none(),
            },
            recorded(
                "A second handoff of 1.N1, N2 → N3, tried and judged",
                SECOND_HANDOFF_REFUSED,
            ),
        ]
    }

    /// After the hand-off move: what N1 wrote before its Handoff left. After the Handoff lands:
    /// may the successor fill the hole below the next slot? After the vote that chooses the
    /// last client write at the handed ballot: what the successor says to a second handoff.
    fn question(&self, change: &Change<'_, LogWorld>) -> Option<Prompt> {
        let world = change.world;
        match change.action {
            LogMove::World(LogAction::HandOff { from, .. }) => {
                let sent = (world.in_flight().iter())
                    .find(|message| message.id >= change.before.next_message)?;
                let LogMessage::Handoff {
                    ballot, in_flight, ..
                } = &sent.envelope.message
                else {
                    return None;
                };
                let message = world.message_name(&sent.envelope.message);
                Some(written_before_question(
                    world,
                    *from,
                    *ballot,
                    &message,
                    !in_flight.is_empty(),
                ))
            }
            LogMove::World(LogAction::Deliver(id)) => {
                let handoff = change.before.handoffs.iter().find(|h| h.id == *id);
                match handoff {
                    Some(handoff) => hole_question(world, handoff),
                    None => second_handoff_question(change),
                }
            }
            _ => None,
        }
    }
}

/// A node that ran a Phase 1 above the handed ballot, and the ballot it promised itself.
fn phase_one(world: &LogWorld) -> Option<(String, String)> {
    (world.servers().iter().enumerate()).find_map(|(index, server)| {
        let promised = match server.host.node() {
            Some(node) => node.promised().max(node.ballot()),
            None => durable_record(server).0.promised,
        }?;
        (promised > HANDED).then(|| {
            let name = world.name(world.config().node_id(index));
            (name, ballot_name(world, promised))
        })
    })
}

/// The node that leads at `ballot`, taken by a handoff.
fn took_by_handoff(world: &LogWorld, ballot: Ballot) -> Option<&ColocatedNode> {
    (1..=world.servers().len())
        .filter_map(|number| running(world, number))
        .find(|node| {
            node.took_handoff() == Some(ballot)
                && node.role() == LogRole::Leader
                && node.ballot() == Some(ballot)
        })
}

/// Whether every client's every write is chosen, by votes, at `ballot`.
fn every_write_chosen_at(world: &LogWorld, ballot: Ballot) -> bool {
    let writes: usize = world.config().clients.iter().map(Vec::len).sum();
    let chosen = (world.chosen_by_votes().into_iter())
        .filter(|votes| votes.ballot == ballot && matches!(votes.entry, Entry::Command(_)))
        .count();
    chosen >= writes
}

fn choice(key: &str, label: String, right: bool, explanation: String) -> Choice {
    Choice {
        key: key.into(),
        label,
        right,
        explanation,
    }
}

/// H2: what `from` wrote before its Handoff of `ballot` (`message`) left, judged by its disk.
fn written_before_question(
    world: &LogWorld,
    from: NodeId,
    ballot: Ballot,
    message: &str,
    with_in_flight: bool,
) -> Prompt {
    let server = &world.servers()[usize::from(from.get()) - 1];
    let (record, _) = durable_record(server);
    let (name, at) = (world.name(from), ballot_name(world, ballot));
    let handed_off = write_name(world, &Write::HandedOff(ballot));
    let took = write_name(world, &Write::TookHandoff(ballot));
    let marked = record.handed_off == Some(ballot);
    let stop = format!(
        "{name} wrote {handed_off} and stepped down before the Handoff was queued, so the \
         message left only once the mark was durable (ColocatedNode::hand_off). From then on \
         {name} proposes nothing at {at}, in this life or after a restart: across both holders \
         each (slot, {at}) carries one value."
    );
    let mut prompt = Prompt::question(
        "resend",
        format!(
            "{name}'s {message} is on its way. What did {name} write to its disk before it left?"
        ),
        vec![
            format!("{name} led at {at}"),
            format!("{name}'s disk is hidden until you answer"),
        ],
        vec![
            choice(
                "handed-off",
                format!("{handed_off}, and it stopped proposing"),
                marked,
                format!("Right: {stop}"),
            ),
            choice(
                "nothing",
                "Nothing: the Handoff carries all the successor needs".into(),
                !marked && record.took_handoff != Some(ballot),
                format!(
                    "The Handoff tells the successor where to start; it does not stop the \
                     sender. {stop} Had it sent first, a command arriving meanwhile could go \
                     out from both holders in one slot at {at}."
                ),
            ),
            choice(
                "took",
                took.clone(),
                record.took_handoff == Some(ballot),
                format!(
                    "{took} is the successor's write, made when it takes {at}. {name} gives \
                     the ballot away: {stop}"
                ),
            ),
        ],
    );
    prompt.node = Some(name);
    if marked && with_in_flight {
        prompt.record = Some(HANDED_OFF_IN_FLIGHT.into());
    }
    prompt
}

/// The lowest slot below the Handoff's next slot that `successor` neither knows chosen, nor
/// voted in, nor was handed in flight.
fn hole_below(successor: &ColocatedNode, handoff: &HandoffOnWire) -> Option<Slot> {
    (1..handoff.next_slot.0).map(Slot).find(|slot| {
        !successor.chosen().contains_key(slot)
            && !successor.accepts().contains_key(slot)
            && !handoff.in_flight.contains(slot)
    })
}

/// H3: may the successor that just took `handoff`'s ballot fill a hole below its next slot?
fn hole_question(world: &LogWorld, handoff: &HandoffOnWire) -> Option<Prompt> {
    let successor = took_by_handoff(world, handoff.ballot)?;
    let hole = hole_below(successor, handoff)?;
    let (name, at, next) = (
        world.name(successor.id()),
        ballot_name(world, handoff.ballot),
        handoff.next_slot,
    );
    let may = successor_may_propose(next, hole);
    let in_flight: Vec<String> = (handoff.in_flight.iter())
        .map(|slot| format!("slot {slot}"))
        .collect();
    let resent = if in_flight.is_empty() {
        "nothing".to_string()
    } else {
        in_flight.join(", ")
    };
    let chosen_there = (world.chosen_by_votes().into_iter())
        .find(|votes| votes.slot == hole && votes.ballot == handoff.ballot);
    let danger = match chosen_there {
        Some(votes) => format!(
            "{} is already chosen in slot {hole} at {at}, by {}. A no-op at {at} would be a \
             second value at (slot {hole}, {at}); an acceptor takes any Accept at a ballot it \
             promised, so those votes could be overwritten and a no-op chosen at the same \
             ballot: two values chosen in one slot.",
            world.entry_name(&votes.entry),
            set_name(world, votes.voters)
        ),
        None => format!(
            "The old leader may have proposed in slot {hole} at {at}, and a value there may be \
             chosen at this very ballot; a no-op would be a second value at (slot {hole}, {at})."
        ),
    };
    let rule = format!(
        "successor_may_propose({next}, {hole}) is {may}: below the next slot {name} only sends \
         the values in flight again, identical ({resent})."
    );
    let mut prompt = Prompt::question(
        "hole",
        format!(
            "{name} took {at} with next slot {next}. Slot {hole} is a hole at {name}: no vote, \
             nothing known chosen. May {name} fill it with a no-op at {at}?"
        ),
        vec![
            format!("{name} leads at {at}, taken by a handoff"),
            format!("handed in flight: {resent}"),
        ],
        vec![
            choice(
                "yes",
                format!("Yes: a no-op at {at} in slot {hole}"),
                may,
                format!("{danger} {rule}"),
            ),
            choice(
                "no",
                format!("No: {name} leaves slot {hole} alone"),
                !may,
                format!(
                    "Right: {rule} {danger} Only a higher ballot, after a Phase 1 that hears \
                     every vote, may fill slot {hole}; {name} learns it from a node that knows \
                     it chosen."
                ),
            ),
        ],
    );
    prompt.node = Some(name);
    if !may {
        prompt.record = Some(HOLE_LEFT.into());
    }
    Some(prompt)
}

/// H4: once a vote delivered in `change` completes the last client write at a ballot taken by
/// a handoff, what the successor answers when asked to hand that ballot on.
fn second_handoff_question(change: &Change<'_, LogWorld>) -> Option<Prompt> {
    let world = change.world;
    let vote = (world.in_flight().iter())
        .filter(|message| message.id >= change.before.next_message)
        .find_map(|message| match message.envelope.message {
            LogMessage::Accepted { ballot, slot } => Some((message.envelope.from, ballot, slot)),
            _ => None,
        });
    let (voter, ballot, slot) = vote?;
    let successor = took_by_handoff(world, ballot)?;
    let votes = (world.votes_in(slot).into_iter())
        .find(|votes| votes.ballot == ballot && votes.voters.contains(voter))?;
    let mut before = votes.voters;
    before.remove(voter);
    let quorums = world.config().quorum_system();
    let just_chosen = !chosen_by_a_recording_quorum(&quorums, slot, before)
        && chosen_by_a_recording_quorum(&quorums, slot, votes.voters);
    if !just_chosen || !every_write_chosen_at(world, ballot) {
        return None;
    }
    let third = (1..=world.servers().len())
        .map(|index| world.config().node_id(index - 1))
        .find(|node| *node != successor.id() && *node != ballot.node)?;
    Some(refusal_prompt(world, successor, ballot, third))
}

/// What `successor` answers when asked to hand `ballot` on to `to`: `hand_off` run on a copy.
fn refusal_prompt(
    world: &LogWorld,
    successor: &ColocatedNode,
    ballot: Ballot,
    to: NodeId,
) -> Prompt {
    let outcome = successor.clone().hand_off(to);
    let (name, target, at) = (
        world.name(successor.id()),
        world.name(to),
        ballot_name(world, ballot),
    );
    let owner = world.name(ballot.node);
    let owner_server = &world.servers()[usize::from(ballot.node.get()) - 1];
    let owner_mark = (durable_record(owner_server).0.handed_off)
        .map_or("none".to_string(), |mark| ballot_name(world, mark));
    let words = match outcome {
        Ok(()) => "it hands the ballot on".to_string(),
        Err(refusal) => refusal.to_string(),
    };
    let said = format!("paros-core's ColocatedNode::hand_off on {name} answers: \"{words}\".");
    let refusal_choice = |key: &str, refusal: HandoffRefused, why: String| {
        let right = outcome == Err(refusal);
        let explanation = if right {
            format!(
                "Right: {said} One hop only: {at} has two holders at most, {owner} and {name}, \
                 and {owner}'s durable mark orders them. To move the leadership again, a node \
                 runs Phase 1 at a higher ballot, which hears every vote."
            )
        } else {
            format!("{why} {said}")
        };
        choice(
            key,
            format!("It refuses: \"{refusal}\""),
            right,
            explanation,
        )
    };
    let mut prompt = Prompt::question(
        "second-handoff",
        format!(
            "Every client write is chosen at {at}. An operator now asks {name} to hand {at} on \
             to {target}. What does {name} answer?"
        ),
        vec![
            format!("{name} leads at {at}, taken from {owner} by a handoff"),
            format!("{owner}'s disk: handed off {owner_mark}"),
        ],
        vec![
            refusal_choice(
                "refused",
                HandoffRefused::HandedOnBallot(ballot),
                format!("{name} took {at} by a handoff, and that is not what it is refused for."),
            ),
            choice(
                "hands-on",
                format!("{target} takes {at} and leads at it, with no Phase 1"),
                outcome.is_ok(),
                format!(
                    "{said} A chain of holders would each have to know that every earlier one \
                     stopped, and where; a Handoff lost, repeated or sent twice would let two \
                     holders propose different values in one slot at {at}. One hop keeps it to \
                     {owner} and {name}."
                ),
            ),
            refusal_choice(
                "already",
                HandoffRefused::AlreadyHandedOff(ballot),
                format!(
                    "{name} never handed {at} off: {owner} did, and {owner}'s disk says so. The \
                     reason is another."
                ),
            ),
            refusal_choice(
                "not-leading",
                HandoffRefused::NotLeading,
                format!("{name} does lead, at {at}. The reason is another."),
            ),
        ],
    );
    prompt.node = Some(name);
    if outcome == Err(HandoffRefused::HandedOnBallot(ballot)) {
        prompt.record = Some(SECOND_HANDOFF_REFUSED.into());
    }
    prompt
}
