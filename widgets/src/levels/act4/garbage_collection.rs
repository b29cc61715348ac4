//! `act4/garbage-collection`: x is chosen at 1.L1 in C1 = {A1, A2, A3}; L2 runs 2.L2 in C2 =
//! {A2, A3, A4} and holds A1's Promise. The player completes its Phase 1, gets x chosen again
//! in C2, collects the configurations below 2.L2 at the matchmakers and retires A1, which C2
//! removed.
//!
//! Two level questions, each judged by paros-core on the real leader after the step: when its
//! Phase 1 completes (C2 installed) and when its value is chosen in C2, may it collect? (paros-core's
//! `installed_is_collectable` on the leader's stage, configuration and voters); and when a
//! matchmaker's acknowledgement reaches it, may it retire the removed acceptor yet? (whether
//! the leader holds its proof, which it mints once `quorum_of_matchmakers` acknowledged).

use super::MATCHMAKER_PAXOS;
use super::matchmaking::choice;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::matchmaker::stage::config_name;
use crate::matchmaker::{name, round_name, set_name};
use crate::prompt::Prompt;
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use paros_core::NodeSet;
use paros_core::matchmaker::{
    Leader, MmMessage, Stage as LeaderStage, installed_is_collectable, quorum_of_matchmakers,
};
use paros_sim::level_worlds;
use paros_sim::matchmaker::{MatchmakerWorld, MmAction};

/// The level.
pub static LEVEL: Level<MatchmakerWorld> = Level {
    id: "act4/garbage-collection",
    act: 4,
    title: "Garbage collection",
    briefing: native_text(include_str!("garbage_collection.md")),
    by_hand: "Raise the watermark, then retire a removed acceptor with the evidence in hand",
    teaches: "Installed is not collected, and a retire request must carry the effective \
              watermark",
    goal: "Collection judged when C2 is installed and when x is chosen in it, retirement \
           judged before and after the proof, and A1 retired",
    chapter: MATCHMAKER_PAXOS,
    scenario: "act4-matchmaker",
    symbols: native_only(&["installed_is_collectable", "quorum_of_matchmakers"]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Question("collect"),
            text: "Installed is not collected: until the value is chosen in the new configuration, on a \
         Phase-2 quorum of it, the value may live only in the old one, and a leader that \
         crashes now leaves nothing else behind.",
        },
        Hint {
            about: HintFor::Question("retire"),
            text: "A removed acceptor retires on evidence: the watermark that f+1 matchmakers \
         acknowledged. Any later history reads f+1 matchmakers, and one of them keeps it.",
        },
    ],
    pins: &[],
    retry_by_hand: false,
    stages: &[Stage {
        title: "Collect, then retire",
        note: "x is chosen at 1.L1 in C1 = {A1, A2, A3}. L2 runs 2.L2 in C2 = {A2, A3, A4}, \
               its history holds C1, and A1 has promised; A2's Promise is on its way.",
        world: &level_worlds::GARBAGE_COLLECTION,
    }],
    solution: native_only(&[
        "deliver A2->L2 Promise",
        "answer not-yet",
        "deliver L2->A2 Accept",
        "deliver L2->A3 Accept",
        "deliver A2->L2 Accepted",
        "deliver A3->L2 Accepted",
        "answer collect",
        "collect L2",
        "deliver L2->M1 GarbageA",
        "deliver L2->M2 GarbageA",
        "deliver M1->L2 GarbageB",
        "answer not-yet",
        "deliver M2->L2 GarbageB",
        "answer retire",
        "retire L2",
        "deliver L2->A1 Retire",
    ]),
    solution_unlocked: &[],
    rules: &GarbageCollection,
};

/// What a right answer records when collection is judged at install time.
const INSTALLED_NOT_COLLECTED: &str = "installed is not collected";
/// What a right answer records when collection is judged once the value is chosen.
const COLLECT_ONCE_CHOSEN: &str = "collect once chosen in the round";
/// What a right answer records when retirement waits for the proof.
const RETIRE_WAITS: &str = "retirement waits for f+1 acknowledgements";
/// What a right answer records when retirement goes ahead with the proof.
const RETIRE_WITH_PROOF: &str = "retirement with the proof";

/// Leader L2, the one the player runs.
const PLAYED_LEADER: usize = 1;

struct GarbageCollection;

impl Rules<MatchmakerWorld> for GarbageCollection {
    fn goal(&self, run: &Run<MatchmakerWorld>, memory: &Memory) -> Goal {
        Goal::when_all_done(&self.checklist(run, memory))
    }

    fn checklist(&self, run: &Run<MatchmakerWorld>, memory: &Memory) -> Vec<ChecklistItem> {
        let recorded = |label: &str, record: &str| ChecklistItem::recorded(label, memory, record);
        let world = run.world();
        let removed = removed_by(world.leaders().get(PLAYED_LEADER).map(|leader| &**leader));
        vec![
            recorded(
                "Collection judged when C2 is installed, before x is chosen in it",
                INSTALLED_NOT_COLLECTED,
            ),
            recorded(
                "Collection judged once x is chosen at 2.L2",
                COLLECT_ONCE_CHOSEN,
            ),
            recorded("Retirement judged with one acknowledgement", RETIRE_WAITS),
            recorded("Retirement judged with the proof", RETIRE_WITH_PROOF),
            ChecklistItem {
                label: format!("{} retired", set_name(removed)),
                done: !removed.is_empty() && world.retired().intersection(removed) == removed,
            },
        ]
    }

    /// After a step that completes a leader's Phase 1 or chooses its value in its round: may it
    /// collect? After a matchmaker's acknowledgement reaches a leader: may it retire?
    fn question(&self, change: &Change<'_, MatchmakerWorld>) -> Option<Prompt> {
        let MmAction::Deliver(id) = change.action else {
            return None;
        };
        let before = change.before;
        let world = change.world;
        let delivered = &before
            .in_flight
            .iter()
            .find(|sent| sent.id == *id)?
            .envelope;
        let (index, leader) =
            (world.leaders().iter().enumerate()).find(|(_, leader)| leader.id() == delivered.to)?;
        if let MmMessage::GarbageB { watermark } = delivered.message {
            return Some(retire_question(world, leader, delivered.from, watermark));
        }
        let stage_before = *before.stages.get(index)?;
        let turned = [LeaderStage::Phase2, LeaderStage::Chosen].contains(&leader.stage())
            && stage_before != leader.stage();
        (turned && !leader.history().is_empty()).then(|| collect_question(world, leader))
    }
}

/// The acceptors of a leader's history that its own configuration leaves out.
fn removed_by(leader: Option<&Leader>) -> NodeSet {
    let Some(leader) = leader else {
        return NodeSet::EMPTY;
    };
    let own = leader.config().acceptors();
    (leader.history().values())
        .flat_map(|config| config.acceptors().iter())
        .filter(|node| !own.contains(*node))
        .collect()
}

/// Q1: a leader's Phase 1 completed, or its value was chosen in its round. May it collect the
/// configurations below its round? Judged by `installed_is_collectable`.
fn collect_question(world: &MatchmakerWorld, leader: &Leader) -> Prompt {
    let who = name(leader.id());
    let round = round_name(leader.round());
    let config = leader.config();
    let own = format!(
        "{} {}",
        config_name(world, config),
        set_name(config.acceptors())
    );
    let phase1_done = leader.stage() >= LeaderStage::Phase2;
    let voters = leader.accepted_by();
    let collectable = installed_is_collectable(phase1_done, config, voters);
    let below: Vec<String> = (leader.history().iter())
        .map(|(round, config)| format!("{} ({})", config_name(world, config), round_name(*round)))
        .collect();
    let rule = format!(
        "For {round}, installed_is_collectable(Phase 1 done: {phase1_done}, {own}, votes {}) \
         is {collectable}.",
        set_name(voters)
    );
    let danger = (world.chosen().into_iter())
        .filter(|(chosen_round, _)| *chosen_round < leader.round())
        .map(|(chosen_round, value)| {
            format!(
                "{value} is chosen at {} in {}",
                round_name(chosen_round),
                below.join(", ")
            )
        })
        .next()
        .unwrap_or_else(|| "a value may be chosen below".into());
    let why_collectable = format!(
        "{rule} The value is on a Phase-2 quorum of {own}, so every later Phase 1, which reads \
         {own} or a newer configuration, finds it there: the older ones hold nothing it needs."
    );
    let why_not = format!(
        "{rule} Until a Phase-2 quorum of {own} votes at {round}, {danger}, and perhaps nowhere \
         else: collected now, a leader whose history starts at {round} would skip it, and if \
         {who} crashed before Phase 2 ended a second value could be chosen. The simulator's \
         act4-matchmaker-gc-after-phase1-control finds that run."
    );
    let (collect_why, wait_why) = if collectable {
        (
            format!("Right: {why_collectable}"),
            format!("{why_collectable} Waiting longer keeps the old configurations for nothing."),
        )
    } else {
        (why_not.clone(), format!("Right: {why_not}"))
    };
    let mut prompt = Prompt::question(
        "collect",
        format!(
            "{who}'s {} at {round}. May {who} collect {} now?",
            if leader.stage() == LeaderStage::Chosen {
                "value is chosen"
            } else {
                "Phase 1 is done and its Accepts are out"
            },
            below.join(", ")
        ),
        vec![
            format!("{who} runs {round} in {own}"),
            format!("votes at {round}: {}", set_name(voters)),
        ],
        vec![
            choice(
                "collect",
                format!("Yes: {who} may ask the matchmakers to collect below {round}"),
                collectable,
                collect_why,
            ),
            choice(
                "not-yet",
                format!("Not yet: {own} is installed, but the value is not chosen in it"),
                !collectable,
                wait_why,
            ),
        ],
    );
    prompt.node = Some(who);
    prompt.record = Some(
        if collectable {
            COLLECT_ONCE_CHOSEN
        } else {
            INSTALLED_NOT_COLLECTED
        }
        .into(),
    );
    prompt
}

/// Q2: a matchmaker's acknowledgement reached a leader. May it retire the acceptors its
/// configuration removed? Right: whatever the real leader holds (its proof, minted once
/// `quorum_of_matchmakers` acknowledged).
fn retire_question(
    world: &MatchmakerWorld,
    leader: &Leader,
    from: paros_core::NodeId,
    watermark: paros_core::Ballot,
) -> Prompt {
    let who = name(leader.id());
    let removed = removed_by(Some(leader));
    let matchmakers = world.current_generation();
    let quorum = quorum_of_matchmakers(matchmakers);
    let proof = leader.gc_proof();
    let acknowledged: NodeSet = leader.gc_acknowledgements().keys().copied().collect();
    let mut held = vec![format!(
        "{who} holds acknowledgements from {}: {} of the {quorum} it needs",
        set_name(acknowledged),
        acknowledged.len()
    )];
    held.extend(
        (world.matchmakers().iter())
            .filter(|matchmaker| matchmakers.contains(matchmaker.id()))
            .map(|matchmaker| {
                format!(
                    "{} keeps watermark {}",
                    name(matchmaker.id()),
                    matchmaker
                        .watermark()
                        .map_or_else(|| "none".into(), round_name)
                )
            }),
    );
    let rule = format!(
        "quorum_of_matchmakers({}) is {quorum}; {who} {}.",
        set_name(matchmakers),
        match proof {
            Some(proof) => format!(
                "holds its proof: watermark {}, remaining {}",
                round_name(proof.watermark()),
                set_name(proof.remaining())
            ),
            None => format!(
                "holds no proof of watermark {} yet: fewer acknowledgements than that",
                round_name(watermark)
            ),
        }
    );
    let why_proof = format!(
        "{rule} Any later leader reads f+1 matchmakers, and one of them keeps this watermark, \
         so no history from now on holds a configuration below it: {} is needed nowhere, and \
         the Retire carries the proof.",
        set_name(removed)
    );
    let why_no_proof = format!(
        "{rule} A leader retires only on the acknowledgements it holds: {who} holds them from \
         {}, and a matchmaker that keeps the watermark but whose acknowledgement has not \
         reached {who} counts for nothing in its hands. Until f+1 acknowledgements arrive, \
         nothing {who} holds shows that a later leader's read meets a matchmaker that keeps \
         the watermark, and such a leader might still find a configuration with {} in it and \
         need its answer.",
        set_name(acknowledged),
        set_name(removed)
    );
    let (retire_why, wait_why) = match proof {
        Some(_) => (
            format!("Right: {why_proof}"),
            format!("{why_proof} Waiting for every matchmaker is not needed."),
        ),
        None => (why_no_proof.clone(), format!("Right: {why_no_proof}")),
    };
    let mut prompt = Prompt::question(
        "retire",
        format!(
            "{} acknowledged watermark {} to {who}. May {who} retire {} now?",
            name(from),
            round_name(watermark),
            set_name(removed)
        ),
        held,
        vec![
            choice(
                "retire",
                "Yes: the Retire carries the watermark f+1 matchmakers acknowledged".into(),
                proof.is_some(),
                retire_why,
            ),
            choice(
                "not-yet",
                format!("Not yet: {who} waits for more acknowledgements"),
                proof.is_none(),
                wait_why,
            ),
        ],
    );
    prompt.node = Some(who);
    prompt.record = Some(
        if proof.is_some() {
            RETIRE_WITH_PROOF
        } else {
            RETIRE_WAITS
        }
        .into(),
    );
    prompt
}
