//! `act4/matchmaking`: Matchmaker Paxos over three matchmakers and four acceptors. x is chosen
//! at 1.L1 in C1 = {A1, A2, A3}; L2 registered round 2.L2 in C2 = {A2, A3, A4} with M1 and M2
//! only, and stalled. The player runs L3 (round 3.L3 in C2, wanting z): registers it with the
//! matchmakers, reads its history back from two replies, and closes Phase 1 over both
//! configurations of that history.
//!
//! Two level questions, each judged by paros-core on the real state: what L3's history is once
//! two matchmakers replied (the real leader's `H`, which `history_from_replies` built; wrong
//! choices are one matchmaker's reply alone, run through `history_from_replies` too, and the
//! newest configuration alone), and, each time a promise gives one more configuration of the
//! history its Phase-1 quorum, whether Phase 1 is complete (`phase1_complete` over the whole
//! history, and over each configuration alone to say why).

use super::MATCHMAKER_PAXOS;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::matchmaker::stage::config_name;
use crate::matchmaker::{names, round_name, set_name};
use crate::prompt::{Choice, Prompt};
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use paros_core::matchmaker::{
    History, Leader, Stage as LeaderStage, history_from_replies, phase1_complete,
};
use paros_core::{NodeSet, QuorumSystem, Quorums};
use paros_sim::level_worlds;
use paros_sim::matchmaker::{MatchmakerWorld, MmAction};

/// The level.
pub static LEVEL: Level<MatchmakerWorld> = Level {
    id: "act4/matchmaking",
    act: 4,
    title: "Matchmaking",
    briefing: native_text(include_str!("matchmaking.md")),
    by_hand: "Register a campaign, read the histories back, and close Phase 1 over each \
              configuration",
    teaches: "Phase 1 needs a quorum of every configuration in the leader's history, not a \
              quorum of the union",
    goal: "L3's history read back, its Phase 1 judged while one configuration of it has a \
           quorum and again when both have, and a value chosen at 3.L3",
    chapter: MATCHMAKER_PAXOS,
    scenario: "act4-matchmaker",
    symbols: native_only(&["matchmaker::phase1_complete", "history_from_replies"]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Question("history"),
            text: "A leader's history is the union of what f+1 matchmakers report below its round. One \
         reply alone can miss a round: M3 never saw 2.L2. Any two matchmakers include one that \
         L2 registered with.",
        },
        Hint {
            about: HintFor::Question("phase1"),
            text: "A Phase-1 quorum of C2 says nothing about votes in C1: x may be chosen there by \
         acceptors that never promised. Deliver the Prepares to A3 and A4 first, then judge.",
        },
    ],
    pins: &[],
    retry_by_hand: false,
    stages: &[Stage {
        title: "Three rounds, two configurations",
        note: "x is chosen at 1.L1 in C1 = {A1, A2, A3}. L2 registered 2.L2 in C2 = {A2, A3, \
               A4} with M1 and M2, then stalled. L3 runs 3.L3 in C2 and wants z.",
        world: &level_worlds::MATCHMAKING,
    }],
    solution: native_only(&[
        "start L3",
        "deliver L3->M3 MatchA",
        "deliver L3->M1 MatchA",
        "deliver M3->L3 MatchB",
        "deliver M1->L3 MatchB",
        "answer history",
        "deliver L3->A3 Prepare",
        "deliver L3->A4 Prepare",
        "deliver A3->L3 Promise",
        "deliver A4->L3 Promise",
        "answer not-yet",
        "deliver L3->A1 Prepare",
        "deliver A1->L3 Promise",
        "answer complete",
        "deliver L3->A2 Accept",
        "deliver L3->A3 Accept",
        "deliver A2->L3 Accepted",
        "deliver A3->L3 Accepted",
    ]),
    solution_unlocked: &[],
    rules: &Matchmaking,
};

/// What a right answer records when the history is read back.
const HISTORY_READ: &str = "history read back";
/// What a right answer records when Phase 1 is judged not done with one configuration's quorum.
const ONE_CONFIGURATION_NOT_ENOUGH: &str = "one configuration's quorum judged not enough";
/// What a right answer records when Phase 1 is judged done over every configuration.
const EVERY_CONFIGURATION: &str = "phase 1 judged complete over every configuration";

/// Leader L3, the one the player runs.
const PLAYED_LEADER: usize = 2;

struct Matchmaking;

impl Rules<MatchmakerWorld> for Matchmaking {
    fn goal(&self, run: &Run<MatchmakerWorld>, memory: &Memory) -> Goal {
        Goal::when_all_done(&self.checklist(run, memory))
    }

    fn checklist(&self, run: &Run<MatchmakerWorld>, memory: &Memory) -> Vec<ChecklistItem> {
        let recorded = |label: &str, record: &str| ChecklistItem::recorded(label, memory, record);
        let world = run.world();
        let round = world.leaders()[PLAYED_LEADER].round();
        vec![
            recorded("L3's history read back from two matchmakers", HISTORY_READ),
            recorded(
                "Phase 1 judged while one configuration of the history has a Phase-1 quorum \
                 and the other has not",
                ONE_CONFIGURATION_NOT_ENOUGH,
            ),
            recorded(
                "Phase 1 judged once every configuration has its quorum",
                EVERY_CONFIGURATION,
            ),
            ChecklistItem {
                label: format!("A value chosen at {}", round_name(round)),
                done: world.chosen_in_round(round),
            },
        ]
    }

    /// After a MatchB that completes a leader's matching: what is its history? After a
    /// Promise that gives one more configuration of a leader's history its Phase-1 quorum: is
    /// Phase 1 complete?
    fn question(&self, change: &Change<'_, MatchmakerWorld>) -> Option<Prompt> {
        let MmAction::Deliver(_) = change.action else {
            return None;
        };
        let world = change.world;
        (world.leaders().iter().enumerate()).find_map(|(index, leader)| {
            let stage_before = *change.before.stages.get(index)?;
            if stage_before == LeaderStage::Matching && leader.stage() > LeaderStage::Matching {
                return history_question(world, leader);
            }
            let promised_before = *change.before.promised_by.get(index)?;
            (promised_before != leader.promised_by())
                .then(|| phase1_question(world, leader, promised_before))
                .flatten()
        })
    }
}

pub(super) fn choice(key: &str, label: String, right: bool, explanation: String) -> Choice {
    Choice {
        key: key.into(),
        label,
        right,
        explanation,
    }
}

/// A history as the stage names it: `1.L1 → C1 {A1, A2, A3}, 2.L2 → C2 {A2, A3, A4}`.
pub(super) fn history_text(world: &MatchmakerWorld, history: &History) -> String {
    if history.is_empty() {
        return "nothing: no lower round".into();
    }
    (history.iter())
        .map(|(round, config)| {
            format!(
                "{} → {} {}",
                round_name(*round),
                config_name(world, config),
                set_name(config.acceptors())
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Q1: a leader has `f+1` MatchB replies. What is its history? Right: the real leader's, which
/// `history_from_replies` built. Wrong: what one matchmaker it matched with stores below its
/// round, read as a history of one reply by `history_from_replies`, where that differs; and the
/// newest configuration alone.
fn history_question(world: &MatchmakerWorld, leader: &Leader) -> Option<Prompt> {
    let history = leader.history();
    let (name, round) = (crate::matchmaker::name(leader.id()), leader.round());
    let matched = world.matched_with(leader_index(world, leader)?);
    let reports: Vec<(String, History)> = (world.matchmakers().iter())
        .filter(|matchmaker| matched.contains(matchmaker.id()))
        .map(|matchmaker| {
            let below: History = (matchmaker.configurations().range(..round))
                .map(|(round, config)| (*round, *config))
                .collect();
            let alone = history_from_replies([(&below, matchmaker.watermark())]);
            (crate::matchmaker::name(matchmaker.id()), alone)
        })
        .collect();
    let rule = format!(
        "history_from_replies takes the union of what f+1 matchmakers report below {}: {}.",
        round_name(round),
        history_text(world, history)
    );
    let mut choices = vec![choice(
        "history",
        history_text(world, history),
        true,
        format!(
            "Right: {rule} Any two of the three matchmakers include one that recorded each \
             earlier round registered with two of them, so no such round is missed."
        ),
    )];
    if let Some((short, alone)) = reports.iter().find(|(_, alone)| alone != history) {
        choices.push(choice(
            "one-reply",
            format!("{}: what {short} reports", history_text(world, alone)),
            false,
            format!(
                "{rule} {short} alone reports {}: it never recorded the rounds it leaves out. \
                 A Phase 1 that skipped their configurations could miss a value chosen in \
                 one of them.",
                history_text(world, alone)
            ),
        ));
    }
    if let Some((newest, config)) = history.iter().next_back()
        && history.len() > 1
    {
        let only: History = [(*newest, *config)].into_iter().collect();
        choices.push(choice(
            "newest",
            format!(
                "{}: the newest configuration is enough",
                history_text(world, &only)
            ),
            false,
            format!(
                "{rule} Every configuration of the history stays in it until it is collected: \
                 a value may have been chosen in any of them, by a Phase-2 quorum of that \
                 configuration alone."
            ),
        ));
    }
    let facts = (reports.iter())
        .map(|(short, alone)| {
            format!(
                "{short} stores below {}: {}",
                round_name(round),
                history_text(world, alone)
            )
        })
        .collect();
    let mut prompt = Prompt::question(
        "history",
        format!("{name} has replies from two matchmakers. What is its history H?"),
        facts,
        choices,
    );
    prompt.node = Some(name);
    prompt.record = Some(HISTORY_READ.into());
    Some(prompt)
}

fn leader_index(world: &MatchmakerWorld, leader: &Leader) -> Option<usize> {
    (world.leaders().iter()).position(|known| known.id() == leader.id())
}

/// How many configurations of `history` have a Phase-1 quorum among `promised`, each judged by
/// `phase1_complete` over that configuration alone.
fn quorate(history: &History, promised: NodeSet) -> usize {
    (history.iter())
        .filter(|(round, config)| {
            let alone: History = [(**round, **config)].into_iter().collect();
            phase1_complete(&alone, promised)
        })
        .count()
}

/// Q2: a Promise gave one more configuration of a leader's history its Phase-1 quorum. Is
/// Phase 1 complete? Judged by `phase1_complete` over the whole history.
fn phase1_question(
    world: &MatchmakerWorld,
    leader: &Leader,
    promised_before: NodeSet,
) -> Option<Prompt> {
    let history = leader.history();
    let promised = leader.promised_by();
    if history.is_empty() || quorate(history, promised) <= quorate(history, promised_before) {
        return None;
    }
    let name = crate::matchmaker::name(leader.id());
    let complete = phase1_complete(history, promised);
    let verdicts: Vec<String> = (history.iter())
        .map(|(round, config)| {
            let alone: History = [(*round, *config)].into_iter().collect();
            format!(
                "{} ({}) = {}: {} promised, phase1_complete over it is {}",
                config_name(world, config),
                round_name(*round),
                set_name(config.acceptors()),
                set_name(promised.intersection(config.acceptors())),
                phase1_complete(&alone, promised)
            )
        })
        .collect();
    let rule = format!("phase1_complete is {complete}: {}.", verdicts.join("; "));
    let union =
        (history.values()).fold(NodeSet::EMPTY, |all, config| all.union(config.acceptors()));
    let union_majority = Quorums::majority(union)
        .map(|quorums| quorums.is_phase1_quorum(promised))
        .unwrap_or(false);
    let union_words = format!(
        "{} of the {} acceptors of the history ({}) promised, {} majority of them",
        promised.len(),
        union.len(),
        set_name(union),
        if union_majority { "a" } else { "not a" }
    );
    let missed = missed_value(world, promised);
    let (complete_why, wait_why) = if complete {
        (
            format!(
                "Right: {rule} Each configuration in which a value may have been chosen has a \
                 Phase-1 quorum among the promises, so {name} sees any such vote. That \
                 {union_words} does not matter."
            ),
            format!(
                "{rule} Waiting is safe but needless: {union_words}, and a majority of their \
                 union is not what protects a value; a Phase-1 quorum of each configuration \
                 is, and {name} has one."
            ),
        )
    } else {
        (
            format!(
                "{rule} A configuration with no Phase-1 quorum among the promises may hold a \
                 value chosen by acceptors that did not promise. {missed}"
            ),
            format!(
                "Right: {rule} {name} waits for a Phase-1 quorum of every configuration of \
                 its history, not of the newest alone and not a majority of their union. \
                 {missed}"
            ),
        )
    };
    let mut prompt = Prompt::question(
        "phase1",
        format!(
            "{name} holds promises from {}. Is Phase 1 of {} complete?",
            set_name(promised),
            round_name(leader.round())
        ),
        vec![
            format!("{name}'s history: {}", history_text(world, history)),
            format!("promised: {}", names(promised).join(", ")),
        ],
        vec![
            choice(
                "complete",
                format!("Complete: {name} may send its Accepts"),
                complete,
                complete_why,
            ),
            choice(
                "not-yet",
                format!("Not yet: {name} waits for more promises"),
                !complete,
                wait_why,
            ),
        ],
    );
    prompt.node = Some(name);
    prompt.record = Some(
        if complete {
            EVERY_CONFIGURATION
        } else {
            ONE_CONFIGURATION_NOT_ENOUGH
        }
        .into(),
    );
    Some(prompt)
}

/// What a leader would miss with only `promised`: a value chosen in some round whose voters
/// include none of them, in words; empty if there is none.
fn missed_value(world: &MatchmakerWorld, promised: NodeSet) -> String {
    let missed = (world.chosen().into_iter()).find_map(|(round, value)| {
        let voters = world.votes().get(&round)?.voters;
        voters
            .intersection(promised)
            .is_empty()
            .then(|| (round, value.to_string(), voters))
    });
    match missed {
        Some((round, value, voters)) => format!(
            "Here {value} is chosen at {} by {}, and none of them promised: a leader that went \
             on would find no vote, propose its own value and get it chosen too: the break \
             the simulator's control act4-matchmaker-phase1-latest-only-control finds.",
            round_name(round),
            set_name(voters)
        ),
        None => String::new(),
    }
}
