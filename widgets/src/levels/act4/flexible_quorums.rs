//! `act4/flexible-quorums`: four nodes where any three elect and any two choose. The player
//! picks each phase's reach by choosing which Prepares and Accepts to deliver: N1 is elected,
//! C1's write is chosen with two nodes down, then N2 is elected with one node still down.
//!
//! Two level questions, each asked while the message that settles it is still on the wire and
//! each judged by paros-core's quorum system on the real state: will this Promise complete the
//! candidate's Phase-1 quorum (`heard_from_a_discovery_quorum`)? Does this vote complete a
//! Phase-2 quorum (`chosen_by_a_recording_quorum`)?

use super::{BEYOND_MULTI_PAXOS, down};
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::levels::act2::{pin, running};
use crate::prompt::{Choice, Prompt};
use crate::replicated_log::{LogMove, ballot_name};
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use crate::words::{log_set_name as set_name, phase1_quorum_size, phase2_quorum_size};
use paros_core::log::{ColocatedNode, LogMessage, LogRole, chosen_by_a_recording_quorum};
use paros_core::log::{Slot, heard_from_a_discovery_quorum};
use paros_core::{Ballot, NodeId, NodeSet, QuorumSystem, Quorums};
use paros_sim::level_worlds;
use paros_sim::replicated_log::{LogAction, LogWorld};

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act4/flexible-quorums",
    act: 4,
    title: "Flexible quorums",
    briefing: native_text(include_str!("flexible_quorums.md")),
    by_hand: "Pick each phase's reach over four acceptors, with q1 = 3 and q2 = 2",
    teaches: "q1 + q2 > n: the intersection that matters is between the phases, not inside one",
    goal: "A write chosen by two nodes while two are down, then a leader elected by three while \
           one is down",
    chapter: BEYOND_MULTI_PAXOS,
    scenario: "act4-flexible-quorums",
    symbols: native_only(&[
        "heard_from_a_discovery_quorum",
        "chosen_by_a_recording_quorum",
    ]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Question("phase1-quorum"),
            text: "Count everyone who has answered, the candidate's own promise and the leader's own vote \
         included: any three of the four nodes elect, any two choose.",
        },
        Hint {
            about: HintFor::Question("phase2-quorum"),
            text: "A vote counts toward a slot at one ballot. Count the nodes that voted for this slot at this \
         ballot, the leader's own vote included, and compare with the Phase-2 quorum size.",
        },
        Hint {
            about: HintFor::Question("phase1-quorum"),
            text: "Two pairs can miss each other, {N1, N2} and {N3, N4}; three nodes and two cannot. \
         Whichever three a new leader hears from, one of them is in every pair that may have \
         chosen.",
        },
    ],
    pins: &[
        pin(Automation::P2c, true),
        pin(Automation::ApplyWalk, true),
        pin(Automation::Heartbeats, false),
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "Four nodes, two quorum sizes",
        note: "Any three of N1-N4 elect a leader, any two choose a value. N1 has timed out and \
               sent Prepare(1.N1) to the other three; C1 wants to write x=1.",
        world: &level_worlds::FLEXIBLE_QUORUMS,
    }],
    solution: native_only(&[
        "deliver N1->N2 Prepare",
        "answer no",
        "deliver N2->N1 Promise",
        "deliver N1->N3 Prepare",
        "answer yes",
        "deliver N3->N1 Promise",
        "crash N3",
        "crash N4",
        "request C1 N1",
        "deliver C1->N1 Write",
        "deliver N1->N2 Accept",
        "answer yes",
        "deliver N2->N1 Accepted",
        "restart N3",
        "tick N2",
        "deliver N2->N3 Prepare",
        "answer no",
        "deliver N3->N2 Promise",
        "deliver N2->N1 Prepare",
        "answer yes",
    ]),
    solution_unlocked: &[Automation::P2c, Automation::ApplyWalk],
    rules: &FlexibleQuorums,
};

/// What a right answer records when a write is chosen with two nodes down.
const CHOSEN_WITH_TWO_DOWN: &str = "chosen by two with two down";
/// What a right answer records when a leader is elected with a node down.
const ELECTED_WITH_ONE_DOWN: &str = "elected by three with one down";

struct FlexibleQuorums;

impl Rules<LogWorld> for FlexibleQuorums {
    fn goal(&self, run: &Run<LogWorld>, memory: &Memory) -> Goal {
        Goal::when_all_done(&self.checklist(run, memory))
    }

    fn checklist(&self, _run: &Run<LogWorld>, memory: &Memory) -> Vec<ChecklistItem> {
        let item = |label: &str, record: &str| ChecklistItem::recorded(label, memory, record);
        vec![
            item(
                "A write chosen by two nodes while two are down",
                CHOSEN_WITH_TWO_DOWN,
            ),
            item(
                "A leader elected by three nodes while one is down",
                ELECTED_WITH_ONE_DOWN,
            ),
        ]
    }

    /// After a delivery that sent a Promise to a candidate or an Accepted from a voter: will
    /// the Promise complete a Phase-1 quorum, is the vote's slot now chosen? Asked while the
    /// message is on the wire; judged by the world's quorum system on the real state.
    fn question(&self, change: &Change<'_, LogWorld>) -> Option<Prompt> {
        let LogMove::World(LogAction::Deliver(_)) = change.action else {
            return None;
        };
        let world = change.world;
        let sent = world
            .in_flight()
            .iter()
            .filter(|message| message.id >= change.before.next_message);
        for message in sent {
            let (from, to) = (message.envelope.from, message.envelope.to);
            let prompt = match message.envelope.message {
                LogMessage::Promise { ballot, .. } => phase1_question(world, from, to, ballot),
                LogMessage::Accepted { ballot, slot } => phase2_question(world, from, ballot, slot),
                _ => None,
            };
            if prompt.is_some() {
                return prompt;
            }
        }
        None
    }
}

/// The nodes of `world`'s quorum system outside `set`.
fn outside(quorums: &Quorums, set: NodeSet) -> NodeSet {
    quorums
        .acceptors()
        .iter()
        .filter(|node| !set.contains(*node))
        .collect()
}

/// The words every question of this level shows: both quorum sizes, and who is down.
fn quorum_facts(world: &LogWorld, quorums: &Quorums) -> Vec<String> {
    let mut facts = vec![
        phase1_quorum_size(quorums, "nodes"),
        phase2_quorum_size(quorums, "nodes"),
    ];
    let down = down(world);
    if down != NodeSet::default() {
        facts.push(format!("down: {}", set_name(world, down)));
    }
    facts
}

/// A yes-or-no question whose right answer is `yes_is_right`.
fn yes_or_no(
    topic: &'static str,
    question: String,
    facts: Vec<String>,
    (yes_label, yes_text): (String, String),
    (no_label, no_text): (String, String),
    yes_is_right: bool,
) -> Prompt {
    let choice = |key: &str, label, right, explanation| Choice {
        key: key.into(),
        label,
        right,
        explanation,
    };
    Prompt::question(
        topic,
        question,
        facts,
        vec![
            choice("yes", yes_label, yes_is_right, yes_text),
            choice("no", no_label, !yes_is_right, no_text),
        ],
    )
}

/// The candidate `to`, if it stands at `ballot` and has not yet heard from `promiser`.
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

/// Will `promiser`'s Promise at `ballot` complete `to`'s Phase-1 quorum?
fn phase1_question(
    world: &LogWorld,
    promiser: NodeId,
    to: NodeId,
    ballot: Ballot,
) -> Option<Prompt> {
    let candidate = candidate_at(world, to, ballot, promiser)?;
    let quorums = world.config().quorum_system();
    let held = candidate.election()?.promised_by;
    let mut promised = held;
    promised.insert(promiser);
    let complete = heard_from_a_discovery_quorum(&quorums, promised);
    let (name, at) = (world.name(to), ballot_name(world, ballot));
    let (set, left_out) = (
        set_name(world, promised),
        set_name(world, outside(&quorums, promised)),
    );
    let (q1, q2) = (
        phase1_quorum_size(&quorums, "nodes"),
        phase2_quorum_size(&quorums, "nodes"),
    );
    let left_out_may_choose = quorums.is_phase2_quorum(outside(&quorums, promised));
    let (yes_text, no_text) = if complete {
        (
            format!(
                "Right: {set} is a Phase-1 quorum ({q1}), so heard_from_a_discovery_quorum \
                 holds once the Promise lands and {name} leads at {at}. The nodes it never heard \
                 from, {left_out}, are no Phase-2 quorum ({q2}): nothing was chosen without a \
                 vote from one of {set}, whose Promise reports it."
            ),
            format!(
                "{set} is already a Phase-1 quorum ({q1}). Waiting for {left_out} buys nothing: \
                 they are no Phase-2 quorum ({q2}), so they cannot have chosen anything alone, \
                 and while one of them is down {name} would wait for ever."
            ),
        )
    } else {
        let danger = if left_out_may_choose {
            format!(
                " The nodes left out, {left_out}, are a Phase-2 quorum ({q2}): they may have \
                 chosen a value {name} would never hear of, and {name} would put another in \
                 its slot: two values chosen in one slot."
            )
        } else {
            String::new()
        };
        (
            format!("{set} is not a Phase-1 quorum ({q1}).{danger}"),
            format!(
                "Right: {set} is not a Phase-1 quorum ({q1}), so {name} keeps waiting for \
                 another Promise at {at}.{danger}"
            ),
        )
    };
    let mut facts = vec![format!(
        "{name} stands at {at}; promises so far: {}",
        set_name(world, held)
    )];
    facts.extend(quorum_facts(world, &quorums));
    let mut prompt = yes_or_no(
        "phase1-quorum",
        format!(
            "{}'s Promise at {at} is on its way to {name}. When it lands, does {name} hold a \
             Phase-1 quorum?",
            world.name(promiser)
        ),
        facts,
        (format!("Yes: {set} elects {name}"), yes_text),
        (format!("No: {set} is too few"), no_text),
        complete,
    );
    prompt.node = Some(name);
    if complete && down(world) != NodeSet::default() {
        prompt.record = Some(ELECTED_WITH_ONE_DOWN.into());
    }
    Some(prompt)
}

/// Does `voter`'s vote at `ballot` in `slot`, just cast, complete a Phase-2 quorum?
fn phase2_question(world: &LogWorld, voter: NodeId, ballot: Ballot, slot: Slot) -> Option<Prompt> {
    let quorums = world.config().quorum_system();
    let votes = world
        .votes_in(slot)
        .into_iter()
        .find(|votes| votes.ballot == ballot && votes.voters.contains(voter))?;
    let mut before = votes.voters;
    before.remove(voter);
    if chosen_by_a_recording_quorum(&quorums, slot, before) {
        return None; // chosen already: this vote settles nothing
    }
    let chosen = chosen_by_a_recording_quorum(&quorums, slot, votes.voters);
    let (entry, at) = (world.entry_name(&votes.entry), ballot_name(world, ballot));
    let voters = set_name(world, votes.voters);
    let (q1, q2) = (
        phase1_quorum_size(&quorums, "nodes"),
        phase2_quorum_size(&quorums, "nodes"),
    );
    let rest = outside(&quorums, votes.voters);
    let (yes_text, no_text) = if chosen {
        (
            format!(
                "Right: {voters} is a Phase-2 quorum ({q2}), so chosen_by_a_recording_quorum \
                 holds: {entry} is chosen in slot {slot} at {at}, before anyone learns it. The \
                 others, {}, are no Phase-1 quorum ({q1}): every later leader hears from one of \
                 {voters}, whose Promise reports the vote.",
                set_name(world, rest)
            ),
            format!(
                "{voters} is already a Phase-2 quorum ({q2}): {entry} is chosen in slot {slot}. \
                 Every Phase-1 quorum ({q1}) holds one of {voters}, so no later leader can miss \
                 it. A third vote is what a majority of four would cost."
            ),
        )
    } else {
        let missed = if quorums.is_phase1_quorum(rest) {
            format!(
                " A leader elected by {} would never hear of the vote and could put another \
                 value in slot {slot}.",
                set_name(world, rest)
            )
        } else {
            String::new()
        };
        (
            format!("{voters} is not a Phase-2 quorum ({q2}).{missed}"),
            format!(
                "Right: {voters} is not a Phase-2 quorum ({q2}); slot {slot} is not chosen \
                 yet.{missed}"
            ),
        )
    };
    let mut facts = vec![format!(
        "votes for {entry} in slot {slot} at {at}: {voters}"
    )];
    facts.extend(quorum_facts(world, &quorums));
    let mut prompt = yes_or_no(
        "phase2-quorum",
        format!(
            "{} voted for {entry} in slot {slot} at {at}. Is {entry} chosen now?",
            world.name(voter)
        ),
        facts,
        (format!("Yes: {voters} chose it"), yes_text),
        (format!("No: {voters} is too few"), no_text),
        chosen,
    );
    if chosen && down(world).iter().count() >= 2 {
        prompt.record = Some(CHOSEN_WITH_TWO_DOWN.into());
    }
    Some(prompt)
}
