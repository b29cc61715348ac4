//! `act2/elect-a-leader`: N1 crashed while leading, with slot 1's votes on N2 and slot 2's on
//! N3. The player ticks N2 to its election timeout, delivers its one Prepare over the whole log
//! suffix, answers for its recovery (P2c per slot, pinned off), then gets a new command chosen.
//!
//! When a client's command is on its way to N2, leading, the level asks whether N2 will run
//! Phase 1 again for the slot it gives it; the real step, taken on a clone (an Accept, no
//! Prepare), is the answer.

use super::{STABLE_LEADER, pin, running};
use crate::automation::Automation;
use crate::board::Board;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::prompt::{Choice, Prompt, PromptKind};
use crate::replicated_log::{LogMove, ballot_name};
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use paros_core::NodeId;
use paros_core::log::{Entry, LogMessage, LogRole, Slot};
use paros_sim::MessageId;
use paros_sim::level_worlds;
use paros_sim::replicated_log::{LogAction, LogWorld};

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act2/elect-a-leader",
    act: 2,
    title: "Elect a leader",
    briefing: native_text(include_str!("elect_a_leader.md")),
    by_hand: "Tick a follower to its timeout and drive one Prepare over the whole log suffix",
    teaches: "Phase 1 once per leadership, and the recovery duty before any new work",
    goal: "N2 leads, slots 1 and 2 are recovered and chosen, and C3's z=3 is chosen after them",
    chapter: STABLE_LEADER,
    scenario: "act2-elect-a-leader",
    symbols: native_only(&["recover_slot"]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Prompt(PromptKind::RecoverSlots),
            text: "A new leader does not know what its predecessor got chosen. For each slot, the \
         highest-ballot vote its Promises report may be chosen, so that is what it proposes.",
        },
        Hint {
            about: HintFor::Question("promises-held"),
            text: "Phase 1 covers every slot from the first one not known chosen, for as long as the \
         leadership lasts: a leader that already holds its promises only runs Phase 2.",
        },
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
        world: &level_worlds::ELECT_A_LEADER,
    }],
    solution: native_only(&[
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
        "answer no",
        "deliver C3->N2 Write",
        "deliver N2->N3 Accept(2.N2, slot 3",
        "deliver N3->N2 Accepted",
    ]),
    solution_unlocked: &[
        Automation::AcceptorReplies,
        Automation::P2c,
        Automation::ApplyWalk,
    ],
    rules: &ElectALeader,
};

struct ElectALeader;

/// What the leader `node` does when the client message `request` lands, worked out on a clone
/// of the world: the slot it gives the command, the command's name, and whether it sends a
/// Prepare rather than that slot's Accept.
fn landing(world: &LogWorld, node: NodeId, request: MessageId) -> Option<(Slot, String, bool)> {
    let mut after = world.clone();
    after
        .play(&LogMove::World(LogAction::Deliver(request)))
        .ok()?;
    let leader = after
        .servers()
        .get(usize::from(node.get()) - 1)?
        .host
        .node()?;
    let (slot, proposal) = leader.proposals().iter().next_back()?;
    let Entry::Command(_) = &proposal.entry else {
        return None;
    };
    let accept_sent = after.in_flight().iter().any(|message| {
        message.envelope.from == node
            && matches!(&message.envelope.message, LogMessage::Accept { ballot, slot: at, .. } if Some(*ballot) == leader.ballot() && at == slot)
    });
    Some((*slot, after.entry_name(&proposal.entry), !accept_sent))
}

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

    /// When a client's command is on its way to a leader: will the leader run Phase 1 for the
    /// slot it gives it? Asked before the command lands, so neither the slot nor its Accepts
    /// are on the stage yet; the answer is the real leader's step, taken on a clone.
    fn question(&self, change: &Change<'_, LogWorld>) -> Option<Prompt> {
        let LogMove::World(LogAction::Request { client, node }) = *change.action else {
            return None;
        };
        let world = change.world;
        let leader = world
            .servers()
            .get(usize::from(node.get()) - 1)?
            .host
            .node()?;
        if leader.role() != LogRole::Leader {
            return None;
        }
        let ballot = leader.ballot()?;
        let request = world
            .in_flight()
            .iter()
            .filter(|message| message.envelope.from == client && message.envelope.to == node)
            .max_by_key(|message| message.id)?;
        let (slot, entry, prepares) = landing(world, node, request.id)?;
        let (name, at) = (world.name(node), ballot_name(world, ballot));
        let yes = format!(
            "{name} already holds promises at {at} from a Phase-1 quorum, and its Prepare \
             covered every slot from the first it did not know chosen, slot {slot} included: \
             the Promises reported every vote in slot {slot} (none), and promised to refuse any \
             lower ballot there. A second Phase 1 would learn nothing new. So {name} sends \
             Accept({at}, slot {slot}, {entry}) at once: one round trip per command. Deliver \
             the command and watch."
        );
        let no = format!(
            "{name} runs Phase 1 once per leadership, over the whole log suffix: the promises \
             at {at} already cover slot {slot}. Accept({at}, slot {slot}, {entry}) goes out \
             as soon as the command lands."
        );
        let mut prompt = Prompt::question(
            "promises-held",
            format!(
                "{}'s {entry} is on its way to {name}, which leads at {at} and will give it slot \
                 {slot}. Must {name} run Phase 1 for slot {slot} first?",
                world.name(client)
            ),
            vec![
                format!("{name} leads at {at}"),
                format!(
                    "{name}'s one Prepare at {at} covered every slot from its first unknown one"
                ),
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
        );
        prompt.node = Some(name);
        Some(prompt)
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
