//! `act2/elect-a-leader`: N1 crashed while leading, with slot 1's votes on N2 and slot 2's on
//! N3. The player ticks N2 to its election timeout, delivers its one Prepare over the whole log
//! suffix, answers for its recovery (P2c per slot, pinned off), then gets a new command chosen.
//!
//! When N2, leading, gives the new command a slot, the level asks whether it runs Phase 1
//! again; the world's own step (an Accept, no Prepare) is the answer.

use super::{STABLE_LEADER, cluster, pin, running};
use crate::automation::Automation;
use crate::level::{Level, Rules, Stage};
use crate::prompt::{Choice, Prompt, PromptKind};
use crate::replicated_log::{LogMove, ballot_name};
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use paros_core::log::{Entry, LogMessage, LogRole, Slot};
use paros_sim::replicated_log::{LogAction, LogWorld, LogWorldConfig};
use paros_sim::{Budget, Fault};

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act2/elect-a-leader",
    act: 2,
    title: "Elect a leader",
    briefing: include_str!("elect_a_leader.md"),
    by_hand: "Tick a follower to its timeout and drive one Prepare over the whole log suffix",
    teaches: "Phase 1 once per leadership, and the recovery duty before any new work",
    goal: "N2 leads, slots 1 and 2 are recovered and chosen, and C3's z=3 is chosen after them",
    chapter: STABLE_LEADER,
    scenario: "act2-elect-a-leader",
    symbols: &["recover_slot"],
    unlocks: None,
    hints: [
        "A new leader does not know what its predecessor got chosen. For each slot, the \
         highest-ballot vote its Promises report may be chosen, so that is what it proposes.",
        "Phase 1 covers every slot from the first one not known chosen, for as long as the \
         leadership lasts: a leader that already holds its promises only runs Phase 2.",
    ],
    pins: &[
        pin(Automation::P2c, false),
        pin(Automation::Heartbeats, false),
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "A leader down, its votes scattered",
        note: "N1 led at 1.N1. N2 voted for slot 1, N3 for slot 2; then N1 crashed. Nobody \
               knows what was chosen.",
        world,
        prelude: &[
            "tick N1",
            "tick N1",
            "deliver N1->N2 Prepare",
            "deliver N2->N1 Promise",
            "request C1 N1",
            "deliver C1->N1 Write",
            "deliver N1->N2 Accept",
            "request C2 N1",
            "deliver C2->N1 Write",
            "deliver N1->N3 Accept(1.N1, slot 2",
            "crash N1",
        ],
    }],
    solution: &[
        "tick N2",
        "tick N2",
        "deliver N2->N3 Prepare",
        "deliver N3->N2 Promise",
        "answer recover",
        "deliver N2->N3 Accept(2.N2, slot 1",
        "deliver N3->N2 Accepted",
        "deliver N2->N3 Accept(2.N2, slot 2",
        "deliver N3->N2 Accepted",
        "request C3 N2",
        "deliver C3->N2 Write",
        "answer no",
        "deliver N2->N3 Accept(2.N2, slot 3",
        "deliver N3->N2 Accepted",
    ],
    solution_unlocked: &[
        Automation::AcceptorReplies,
        Automation::P2c,
        Automation::ApplyWalk,
    ],
    rules: &ElectALeader,
};

fn world() -> LogWorldConfig {
    let budget = Budget::NONE.with(Fault::Crash, 1).with(Fault::Tick, 10);
    cluster(&[&[("x", "1")], &[("y", "2")], &[("z", "3")]], budget)
}

struct ElectALeader;

/// Whether N2 leads and knows slots 1 to `slot` chosen.
fn n2_leads_through(world: &LogWorld, slot: u64) -> bool {
    running(world, 2)
        .is_some_and(|node| node.role() == LogRole::Leader && node.chosen_index() >= Slot(slot))
}

/// Whether slot 3 holds C3's command at N2.
fn new_command_chosen(world: &LogWorld) -> bool {
    running(world, 2).is_some_and(|node| {
        node.chosen().get(&Slot(3)).is_some_and(|vote| {
            matches!(&vote.entry, Entry::Command(command) if world.name(command.client) == "C3")
        })
    })
}

impl Rules<LogWorld> for ElectALeader {
    fn goal(&self, run: &Run<LogWorld>, _memory: &Memory) -> Goal {
        let world = run.world();
        let asked = run
            .answers()
            .iter()
            .any(|(kind, _)| *kind == PromptKind::Question);
        if n2_leads_through(world, 3) && new_command_chosen(world) && asked {
            Goal::Reached
        } else {
            Goal::Open
        }
    }

    /// When a leader gives a client's command a slot: does it run Phase 1 first?
    fn question(&self, change: &Change<'_, LogWorld>) -> Option<Prompt> {
        let LogMove::World(LogAction::Deliver(_)) = change.action else {
            return None;
        };
        let world = change.world;
        let index = (0..world.servers().len()).find(|index| {
            change.before.role[*index] == Some(LogRole::Leader)
                && running(world, index + 1).is_some_and(|node| {
                    node.role() == LogRole::Leader
                        && node.proposals().len() > change.before.proposals[*index]
                })
        })?;
        let leader = running(world, index + 1)?;
        let (slot, proposal) = leader.proposals().iter().next_back()?;
        let Entry::Command(_) = &proposal.entry else {
            return None;
        };
        let name = world.name(leader.id());
        let ballot = ballot_name(world, leader.ballot()?);
        // The world's own step is the answer: did the Accept for this slot go out at once?
        let accept_sent = world.in_flight().iter().any(|message| {
            message.envelope.from == leader.id()
                && matches!(&message.envelope.message, LogMessage::Accept { ballot: sent, slot: at, .. } if Some(*sent) == leader.ballot() && at == slot)
        });
        let prepares = !accept_sent;
        let entry = world.entry_name(&proposal.entry);
        let yes = format!(
            "{name} already holds promises at {ballot} from a Phase-1 quorum, and its Prepare \
             covered every slot from the first it did not know chosen, slot {slot} included: \
             the Promises reported every vote in slot {slot} (none), and promised to refuse any \
             lower ballot there. A second Phase 1 would learn nothing new. So {name} sends \
             Accept({ballot}, slot {slot}, {entry}) at once: one round trip per command."
        );
        let no = format!(
            "{name} runs Phase 1 once per leadership, over the whole log suffix: the promises \
             at {ballot} already cover slot {slot}. Accept({ballot}, slot {slot}, {entry}) goes \
             out at once."
        );
        Some(Prompt::question(
            format!(
                "{name} leads at {ballot} and gives {entry} slot {slot}. Must it run Phase 1 for \
                 slot {slot} first?"
            ),
            vec![
                format!("{name} leads at {ballot}"),
                format!("its Prepare at {ballot} covered every slot from its first unknown one"),
            ],
            vec![
                Choice {
                    key: "yes".into(),
                    label: format!("Yes: a Prepare for slot {slot}, then the Accept"),
                    right: prepares,
                    explanation: yes,
                },
                Choice {
                    key: "no".into(),
                    label: "No: straight to the Accept".into(),
                    right: !prepares,
                    explanation: no,
                },
            ],
        ))
    }

    fn checklist(&self, run: &Run<LogWorld>, _memory: &Memory) -> Vec<ChecklistItem> {
        let world = run.world();
        vec![
            ChecklistItem {
                label: "N2 leads".into(),
                done: running(world, 2).is_some_and(|node| node.role() == LogRole::Leader),
            },
            ChecklistItem {
                label: "Slots 1 and 2 recovered and chosen".into(),
                done: n2_leads_through(world, 2),
            },
            ChecklistItem {
                label: "C3's z=3 chosen in slot 3".into(),
                done: new_command_chosen(world),
            },
        ]
    }
}
