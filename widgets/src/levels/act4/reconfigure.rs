//! `act4/reconfigure`: x is chosen at 1.L1 in C1 = {A1, A2, A3}; the player runs L2, round
//! 2.L2 in C2 = {A2, A3, A4}, which moves the system onto the spare A4 and leaves A1 out. A
//! reconfiguration is nothing but that round change.
//!
//! Two level questions, each judged on the real leader after the step: whether the Promise of
//! an acceptor outside the leader's configuration counted toward its Phase 1 (it did when the
//! leader's `promised_by` holds it: the acceptor is in a configuration of its history, and
//! `phase1_complete` judges Phase 1 over every one of them), and whether the Accepted of an
//! acceptor that never promised the round counted toward its Phase 2 (it did when
//! `accepted_by` holds it: Phase 2 runs in the leader's own configuration, judged by its
//! Phase-2 quorums).

use super::MATCHMAKER_PAXOS;
use super::matchmaking::{choice, history_text};
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::matchmaker::stage::config_name;
use crate::matchmaker::{name, round_name, set_name};
use crate::prompt::Prompt;
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use paros_core::matchmaker::{Leader, MmMessage, phase1_complete};
use paros_core::{Message, NodeId, NodeSet, QuorumSystem};
use paros_sim::level_worlds;
use paros_sim::matchmaker::{MatchmakerWorld, MmAction};

/// The level.
pub static LEVEL: Level<MatchmakerWorld> = Level {
    id: "act4/reconfigure",
    act: 4,
    title: "Reconfigure",
    briefing: native_text(include_str!("reconfigure.md")),
    by_hand: "Grow the acceptor set onto a spare and get a command chosen under it",
    teaches: "A reconfiguration is a round change: which acceptors each phase of the new round \
              must hear",
    goal: "A removed acceptor's Promise and the spare's Accepted judged, and a value chosen at \
           2.L2 in C2",
    chapter: MATCHMAKER_PAXOS,
    scenario: "act4-matchmaker",
    symbols: native_only(&["matchmaker::phase1_complete"]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Question("removed-promise"),
            text: "A removed acceptor is out of the new configuration, not out of the history: until the \
         configurations it belongs to are collected, a value chosen there may rest on its vote, \
         and Phase 1 must hear it.",
        },
        Hint {
            about: HintFor::Question("spare-vote"),
            text: "Phase 2 runs in the round's own configuration. An acceptor votes for any ballot at or \
         above its promise, and a spare promised nothing.",
        },
    ],
    pins: &[],
    retry_by_hand: false,
    stages: &[Stage {
        title: "Onto the spare",
        note: "x is chosen at 1.L1 in C1 = {A1, A2, A3}. L2 runs 2.L2 in C2 = {A2, A3, A4}: \
               A4 is the spare, A1 is left out.",
        world: &level_worlds::RECONFIGURE,
    }],
    solution: native_only(&[
        "start L2",
        "deliver L2->M1 MatchA",
        "deliver L2->M2 MatchA",
        "deliver M1->L2 MatchB",
        "deliver M2->L2 MatchB",
        "deliver L2->A1 Prepare",
        "deliver L2->A3 Prepare",
        "deliver A1->L2 Promise",
        "answer counts",
        "deliver A3->L2 Promise",
        "deliver L2->A4 Accept",
        "deliver L2->A3 Accept",
        "deliver A4->L2 Accepted",
        "answer counts",
        "deliver A3->L2 Accepted",
    ]),
    solution_unlocked: &[],
    rules: &Reconfigure,
};

/// What a right answer records when a removed acceptor's Promise is judged.
const REMOVED_PROMISE: &str = "a removed acceptor's promise counted";
/// What a right answer records when the spare's Accepted is judged.
const SPARE_VOTE: &str = "the spare's vote counted";

/// Leader L2, the one the player runs.
const PLAYED_LEADER: usize = 1;

struct Reconfigure;

impl Rules<MatchmakerWorld> for Reconfigure {
    fn goal(&self, run: &Run<MatchmakerWorld>, memory: &Memory) -> Goal {
        Goal::when_all_done(&self.checklist(run, memory))
    }

    fn checklist(&self, run: &Run<MatchmakerWorld>, memory: &Memory) -> Vec<ChecklistItem> {
        let recorded = |label: &str, record: &str| ChecklistItem::recorded(label, memory, record);
        let world = run.world();
        let round = world.leaders()[PLAYED_LEADER].round();
        vec![
            recorded(
                "The Promise of an acceptor that the new configuration leaves out, judged",
                REMOVED_PROMISE,
            ),
            recorded(
                "The Accepted of an acceptor that never promised the round, judged",
                SPARE_VOTE,
            ),
            ChecklistItem {
                label: format!(
                    "A value chosen at {} in its own configuration",
                    round_name(round)
                ),
                done: world.chosen_in_round(round),
            },
        ]
    }

    /// After a Promise from an acceptor outside the leader's configuration, or an Accepted
    /// from one that never promised its round: did it count?
    fn question(&self, change: &Change<'_, MatchmakerWorld>) -> Option<Prompt> {
        let MmAction::Deliver(id) = change.action else {
            return None;
        };
        let before = change.before;
        let delivered = &before
            .in_flight
            .iter()
            .find(|sent| sent.id == *id)?
            .envelope;
        let world = change.world;
        let (index, leader) =
            (world.leaders().iter().enumerate()).find(|(_, leader)| leader.id() == delivered.to)?;
        let promised_before = *before.promised_by.get(index)?;
        match &delivered.message {
            MmMessage::Paxos(Message::Promise { .. })
                if !leader.config().acceptors().contains(delivered.from) =>
            {
                Some(removed_promise_question(world, leader, delivered.from))
            }
            MmMessage::Paxos(Message::Accepted { .. })
                if !promised_before.contains(delivered.from) =>
            {
                Some(spare_vote_question(world, leader, delivered.from))
            }
            _ => None,
        }
    }
}

/// Q1: a Promise from an acceptor outside the leader's configuration reached it. Does it count
/// toward Phase 1? Right: whatever the real leader did (`promised_by` holds it or not); why:
/// the configurations of its history that the acceptor is in, and `phase1_complete` now.
fn removed_promise_question(world: &MatchmakerWorld, leader: &Leader, from: NodeId) -> Prompt {
    let (who, sender) = (name(leader.id()), name(from));
    let counted = leader.promised_by().contains(from);
    let history = leader.history();
    let holding: Vec<String> = (history.values())
        .filter(|config| config.acceptors().contains(from))
        .map(|config| {
            format!(
                "{} {}",
                config_name(world, config),
                set_name(config.acceptors())
            )
        })
        .collect();
    let own = format!(
        "{} {}",
        config_name(world, leader.config()),
        set_name(leader.config().acceptors())
    );
    let complete = phase1_complete(history, leader.promised_by());
    let rule = format!(
        "{sender} is not in {own}, {who}'s configuration, but it is in {} of {who}'s history \
         ({}): Phase 1 runs in every configuration of the history, and phase1_complete over \
         {} is now {complete}.",
        holding.join(" and "),
        history_text(world, history),
        set_name(leader.promised_by())
    );
    let mut prompt = Prompt::question(
        "removed-promise",
        format!(
            "{sender}'s Promise for {} reached {who}. {sender} is not in {own}. Does it count \
             toward Phase 1?",
            round_name(leader.round())
        ),
        vec![
            format!("{who}'s history: {}", history_text(world, history)),
            format!("{who} runs {} in {own}", round_name(leader.round())),
        ],
        vec![
            choice(
                "counts",
                format!("Yes: {sender} is in a configuration of the history"),
                counted,
                format!(
                    "Right: {rule} A value may have been chosen there with {sender}'s vote, \
                     and its Promise is how {who} hears of it."
                ),
            ),
            choice(
                "ignored",
                format!("No: {sender} was removed, so its answer is ignored"),
                !counted,
                format!(
                    "{rule} Removed is not retired: until the configurations {sender} is in are \
                     collected, a value chosen in them may rest on its vote, and ignoring it \
                     could lose that value."
                ),
            ),
        ],
    );
    prompt.node = Some(who);
    if counted {
        prompt.record = Some(REMOVED_PROMISE.into());
    }
    prompt
}

/// Q2: an Accepted from an acceptor that never promised the round reached the leader. Does it
/// count toward Phase 2? Right: whatever the real leader did (`accepted_by` holds it or not);
/// why: Phase 2 runs in the leader's own configuration, judged by its Phase-2 quorums.
fn spare_vote_question(world: &MatchmakerWorld, leader: &Leader, from: NodeId) -> Prompt {
    let (who, sender) = (name(leader.id()), name(from));
    let counted = leader.accepted_by().contains(from);
    let config = leader.config();
    let own = format!(
        "{} {}",
        config_name(world, config),
        set_name(config.acceptors())
    );
    let voters: NodeSet = leader.accepted_by();
    let rule = format!(
        "Phase 2 of {} runs in {own}, and {sender} is in it; the vote rule takes any ballot at \
         or above the acceptor's promise, and {sender} had promised nothing higher. Votes so \
         far: {}, a Phase-2 quorum of {own}: {}.",
        round_name(leader.round()),
        set_name(voters),
        config.quorums().is_phase2_quorum(voters)
    );
    let mut prompt = Prompt::question(
        "spare-vote",
        format!(
            "{sender}'s Accepted for {} reached {who}. {sender} never promised {}. Does its vote \
             count?",
            round_name(leader.round()),
            round_name(leader.round())
        ),
        vec![
            format!("{who} runs {} in {own}", round_name(leader.round())),
            format!("promised: {}", set_name(leader.promised_by())),
        ],
        vec![
            choice(
                "counts",
                format!("Yes: {sender} is in {who}'s configuration"),
                counted,
                format!("Right: {rule}"),
            ),
            choice(
                "ignored",
                format!(
                    "No: only acceptors that promised {} may vote in it",
                    round_name(leader.round())
                ),
                !counted,
                format!(
                    "{rule} A promise is what an acceptor gives Phase 1; it is not a ticket to \
                     Phase 2. A spare that joins a new configuration never took part in the old \
                     rounds, and need not."
                ),
            ),
        ],
    );
    prompt.node = Some(who);
    if counted {
        prompt.record = Some(SPARE_VOTE.into());
    }
    prompt
}
