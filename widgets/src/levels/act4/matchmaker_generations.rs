//! `act4/matchmaker-generations`: x is chosen at 1.L1, recorded by M1..M3; the reconfigurer
//! R1 replaces them by M4..M6: it stops the old set, reconstructs its state from `f+1` stop
//! reports, bootstraps every new matchmaker with it, decides the successor set by
//! single-decree Paxos over the old set, and publishes it. Then L2 matches with the new set.
//!
//! Two level questions, each judged on the real reconfigurer after the step: what it bootstraps
//! the new set with (the state it reconstructed with paros-core's `reconstruct`; wrong: an
//! empty start), and who decides the successor set (the set its Successor Prepares just went to,
//! the old generation; wrong: the new set, or nobody).

use super::MATCHMAKER_PAXOS;
use super::matchmaking::{choice, history_text};
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::matchmaker::{name, round_name, set_name};
use crate::prompt::Prompt;
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use paros_core::matchmaker::{GenerationStage, History, MmMessage, Reconfigurer, reconstruct};
use paros_core::{Message, NodeSet};
use paros_sim::level_worlds;
use paros_sim::matchmaker::{MatchmakerWorld, MatchmakerWorldConfig, MmAction};

/// The level.
pub static LEVEL: Level<MatchmakerWorld> = Level {
    id: "act4/matchmaker-generations",
    act: 4,
    title: "Matchmaker generations",
    briefing: native_text(include_str!("matchmaker_generations.md")),
    by_hand: "Replace the matchmaker set: stop, reconstruct, bootstrap, decide, publish",
    teaches: "Replacing the matchmakers is itself a decision, made once whoever proposes it",
    goal: "The bootstrap and the decision judged, M4..M6 published, and L2's history read \
           from them still holding C1",
    chapter: MATCHMAKER_PAXOS,
    scenario: "act4-matchmaker-replacement",
    symbols: native_only(&["matchmaker::reconstruct"]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Question("bootstrap"),
            text: "New matchmakers that start empty would tell the next leader that no round ever ran, \
         and it would skip every configuration where a value may be chosen.",
        },
        Hint {
            about: HintFor::Question("successors"),
            text: "The new set cannot elect itself: a second reconfigurer could bootstrap a different \
         new set. The set both share is the old one, so the old matchmakers are the acceptors \
         of the decision.",
        },
    ],
    pins: &[],
    retry_by_hand: false,
    stages: &[Stage {
        title: "A new generation",
        note: "x is chosen at 1.L1 in C1 = {A1, A2, A3}; M1..M3 store round 1. R1 replaces \
               them by M4..M6; L2 runs 2.L2 in {A2, A3, A4}.",
        world: &level_worlds::MATCHMAKER_GENERATIONS,
    }],
    solution: native_only(&[
        "replace R1",
        "deliver R1->M1 Stop",
        "deliver R1->M2 Stop",
        "deliver M1->R1 StopB",
        "deliver M2->R1 StopB",
        "answer reconstructed",
        "deliver R1->M4 Bootstrap",
        "deliver R1->M5 Bootstrap",
        "deliver R1->M6 Bootstrap",
        "deliver M4->R1 BootstrapB",
        "deliver M5->R1 BootstrapB",
        "deliver M6->R1 BootstrapB",
        "answer old",
        "deliver R1->M1 SuccessorPrepare",
        "deliver R1->M2 SuccessorPrepare",
        "deliver M1->R1 SuccessorPromise",
        "deliver M2->R1 SuccessorPromise",
        "deliver R1->M1 SuccessorAccept",
        "deliver R1->M2 SuccessorAccept",
        "deliver M1->R1 SuccessorAccepted",
        "deliver M2->R1 SuccessorAccepted",
        "start L2",
        "deliver L2->M4 MatchA",
        "deliver L2->M5 MatchA",
        "deliver M4->L2 MatchB",
        "deliver M5->L2 MatchB",
    ]),
    solution_unlocked: &[],
    rules: &MatchmakerGenerations,
};

/// What a right answer records when the bootstrap is judged.
const BOOTSTRAP_JUDGED: &str = "bootstrap with the reconstructed state";
/// What a right answer records when the decision is judged.
const DECISION_JUDGED: &str = "the old set decides the successor";

struct MatchmakerGenerations;

impl Rules<MatchmakerWorld> for MatchmakerGenerations {
    fn goal(&self, run: &Run<MatchmakerWorld>, memory: &Memory) -> Goal {
        Goal::when_all_done(&self.checklist(run, memory))
    }

    fn checklist(&self, run: &Run<MatchmakerWorld>, memory: &Memory) -> Vec<ChecklistItem> {
        let recorded = |label: &str, record: &str| ChecklistItem::recorded(label, memory, record);
        let world = run.world();
        let next = MatchmakerWorldConfig::next_generation();
        let published = world.reconfigurer().and_then(Reconfigurer::published);
        vec![
            recorded("The new set's bootstrap judged", BOOTSTRAP_JUDGED),
            recorded("The decision of the successor set judged", DECISION_JUDGED),
            ChecklistItem {
                label: format!("{} published", set_name(next)),
                done: published == Some(next),
            },
            ChecklistItem {
                label: "L2 matched with the new set, its history holding C1".into(),
                done: new_leader_reads_the_old_rounds(world, next),
            },
        ]
    }

    /// After the step that reconstructs the old set's state: what does the reconfigurer
    /// bootstrap the new set with? After the step that starts the decision: who decides?
    fn question(&self, change: &Change<'_, MatchmakerWorld>) -> Option<Prompt> {
        let MmAction::Deliver(_) = change.action else {
            return None;
        };
        let world = change.world;
        let reconfigurer = world.reconfigurer()?;
        match reconfigurer.stage() {
            GenerationStage::Bootstrapping if just_sent(change, is_bootstrap) => {
                Some(bootstrap_question(world, reconfigurer))
            }
            GenerationStage::Deciding if just_sent(change, is_successor_prepare) => {
                Some(decision_question(world, reconfigurer, change))
            }
            _ => None,
        }
    }
}

fn is_bootstrap(message: &MmMessage) -> bool {
    matches!(message, MmMessage::Bootstrap { .. })
}

fn is_successor_prepare(message: &MmMessage) -> bool {
    matches!(message, MmMessage::Successor(Message::Prepare { .. }))
}

/// Whether the step put a message `wanted` picks in flight.
fn just_sent(change: &Change<'_, MatchmakerWorld>, wanted: fn(&MmMessage) -> bool) -> bool {
    (change.world.in_flight().iter())
        .filter(|message| message.id >= change.before.next_message)
        .any(|message| wanted(&message.envelope.message))
}

/// Whether a leader matched with `next` holds a history with every round below its own that
/// the first generation stores.
fn new_leader_reads_the_old_rounds(world: &MatchmakerWorld, next: NodeSet) -> bool {
    let old_rounds: Vec<_> = (world.matchmakers().iter())
        .filter(|matchmaker| MatchmakerWorldConfig::first_generation().contains(matchmaker.id()))
        .flat_map(|matchmaker| matchmaker.configurations().keys().copied())
        .collect();
    (world.leaders().iter().enumerate()).any(|(index, leader)| {
        world.matched_with(index) == next
            && !leader.history().is_empty()
            && (old_rounds.iter())
                .filter(|round| **round < leader.round())
                .all(|round| leader.history().contains_key(round))
    })
}

/// Q1: the reconfigurer has `f+1` stop reports and bootstraps the new set. With what? Right:
/// the state it reconstructed (paros-core's `reconstruct`); wrong: an empty start.
fn bootstrap_question(world: &MatchmakerWorld, reconfigurer: &Reconfigurer) -> Prompt {
    let who = name(reconfigurer.id());
    let next = MatchmakerWorldConfig::next_generation();
    let (history, watermark) = reconfigurer.reconstructed().cloned().unwrap_or_default();
    let watermark_text = watermark.map_or_else(|| "none".into(), round_name);
    let state = format!(
        "{}, watermark {watermark_text}",
        history_text(world, &history)
    );
    let empty = reconstruct(std::iter::empty::<(&History, _)>());
    let rule = format!(
        "matchmaker::reconstruct over the f+1 stop reports gives {state}: the union of what they store at or \
         above the highest watermark among them."
    );
    let first_round = history
        .keys()
        .next()
        .map_or_else(String::new, |round| round_name(*round));
    let mut prompt = Prompt::question(
        "bootstrap",
        format!(
            "{who} has f+1 stop reports. What does it bootstrap {} with?",
            set_name(next)
        ),
        vec![format!("stopped: {}", stopped(world))],
        vec![
            choice(
                "reconstructed",
                format!("{state}: the old set's reconstructed state"),
                true,
                format!(
                    "Right: {rule} Once f+1 old matchmakers are stopped no round can register \
                     with f+1 of them any more, so these reports hold every round that did."
                ),
            ),
            choice(
                "empty",
                format!(
                    "{}: the new set starts afresh",
                    history_text(world, &empty.0)
                ),
                history == empty.0,
                format!(
                    "{rule} Started empty, the new set would tell the next leader that no round \
                     ran below its own: it would skip the configuration of {first_round}, where \
                     a value may be chosen, and could choose a second one."
                ),
            ),
        ],
    );
    prompt.node = Some(who);
    prompt.record = Some(BOOTSTRAP_JUDGED.into());
    prompt
}

/// The matchmakers that are stopped, by name.
fn stopped(world: &MatchmakerWorld) -> String {
    let set: NodeSet = (world.matchmakers().iter())
        .filter(|matchmaker| matchmaker.stopped())
        .map(|matchmaker| matchmaker.id())
        .collect();
    set_name(set)
}

/// Q2: every new matchmaker is bootstrapped and the reconfigurer starts the decision. Who are
/// its acceptors? Right: the set its Successor Prepares just went to.
fn decision_question(
    world: &MatchmakerWorld,
    reconfigurer: &Reconfigurer,
    change: &Change<'_, MatchmakerWorld>,
) -> Prompt {
    let who = name(reconfigurer.id());
    let prepares: Vec<_> = (world.in_flight().iter())
        .filter(|message| message.id >= change.before.next_message)
        .filter(|message| is_successor_prepare(&message.envelope.message))
        .collect();
    let asked: NodeSet = prepares.iter().map(|message| message.envelope.to).collect();
    let ballot = (prepares.first())
        .map(|message| match &message.envelope.message {
            MmMessage::Successor(prepare) => round_name(prepare.ballot()),
            _ => String::new(),
        })
        .unwrap_or_default();
    let (old, next) = (
        MatchmakerWorldConfig::first_generation(),
        MatchmakerWorldConfig::next_generation(),
    );
    let rule = format!(
        "{who}'s single-decree proposer sent its Prepare at {ballot} to {}: the old \
         generation are the acceptors of the decision, and the value is the new set.",
        set_name(asked)
    );
    let mut prompt = Prompt::question(
        "successors",
        format!(
            "Every one of {} holds the old state. Who decides that they are the successors?",
            set_name(next)
        ),
        vec![format!(
            "{who} wants {} to follow {}",
            set_name(next),
            set_name(old)
        )],
        vec![
            choice(
                "old",
                format!("{}, by single-decree Paxos: the old set", set_name(old)),
                asked == old,
                format!(
                    "Right: {rule} Two reconfigurers with different new sets share only the old \
                     set, so a decision there publishes one successor, whoever proposes."
                ),
            ),
            choice(
                "new",
                format!(
                    "{}, by single-decree Paxos: the set that now holds the state",
                    set_name(next)
                ),
                asked == next,
                format!(
                    "{rule} A second reconfigurer could bootstrap a different new set and have it \
                     elect itself: two successor sets, and leaders matching with each."
                ),
            ),
            choice(
                "nobody",
                format!("Nobody: {who} publishes {} at once", set_name(next)),
                asked.is_empty(),
                format!(
                    "{rule} Published without a decision, two reconfigurers would each publish \
                     their own set."
                ),
            ),
        ],
    );
    prompt.node = Some(who);
    prompt.record = Some(DECISION_JUDGED.into());
    prompt
}
