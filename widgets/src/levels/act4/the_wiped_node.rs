//! `act4/the-wiped-node`: x=1 is chosen in slot 1 by N1 and N2; the player crashes N2, erases
//! its disk, takes the library's refusal to boot it, and gets C1's x=2 chosen by N1 and N3.
//!
//! One level question, asked when a disk is wiped and judged by paros-core on the real disk:
//! what `ColocatedNode::boot` answers for the node, provisioned, from that disk. Its wrong
//! choices are the core's other answers, each right only if the core gave it.

use super::DISKS_THAT_LIE;
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::levels::act2::pin;
use crate::prompt::{Choice, Prompt};
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use crate::words::log_set_name as set_name;
use paros_core::NodeId;
use paros_core::log::{
    BootRefused, ColocatedNode, Entry, Provisioning, heard_from_a_discovery_quorum,
};
use paros_sim::level_worlds;
use paros_sim::replicated_log::{LogAction, LogWorld};

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act4/the-wiped-node",
    act: 4,
    title: "The wiped node",
    briefing: native_text(include_str!("the_wiped_node.md")),
    by_hand: "Erase a disk, say what the library does when it restarts, and keep the survivors \
              deciding",
    teaches: "A lost promise cannot be restored: what a node may do once its disk is gone",
    goal: "N2's disk wiped, what the library does at its boot judged, and C1's x=2 chosen by \
           N1 and N3 without it",
    chapter: DISKS_THAT_LIE,
    scenario: "act4-the-wiped-node",
    symbols: native_only(&[
        "ColocatedNode::boot",
        "BootRefused::Missing",
        "BootRefused::Unreadable",
        "BootRefused::FreshDiskNotEmpty",
        "Provisioning::Provisioned",
    ]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Question("boot"),
            text: "An empty disk says nothing about what the node promised or voted. Ask: if it answered \
         as new, which quorum could it join that never heard of x=1?",
        },
        Hint {
            about: HintFor::Question("boot"),
            text: "The disk cannot tell fresh from wiped; the configuration can. A provisioned node with \
         no record is refused, and the other two are still a quorum.",
        },
    ],
    pins: &[
        pin(Automation::P2c, true),
        pin(Automation::ApplyWalk, true),
        pin(Automation::Heartbeats, false),
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "A disk lost",
        note: super::X1_CHOSEN_BY_N1_AND_N2,
        world: &level_worlds::THE_WIPED_NODE,
    }],
    solution: native_only(&[
        "crash N2",
        "wipe N2",
        "answer refused",
        "deliver N1->N3 Accept",
        "deliver N3->N1 Accepted",
        "request C1 N1",
        "deliver C1->N1 Write",
        "deliver N1->N3 Accept",
        "deliver N3->N1 Accepted",
    ]),
    solution_unlocked: &[Automation::P2c, Automation::ApplyWalk],
    rules: &TheWipedNode,
};

/// What a right answer records when the library's refusal is taken.
const REFUSAL_TAKEN: &str = "the wiped node's boot refused";

struct TheWipedNode;

impl Rules<LogWorld> for TheWipedNode {
    fn goal(&self, run: &Run<LogWorld>, memory: &Memory) -> Goal {
        if let Some(failed) = last_write_chosen_by_the_wiped(run.world()) {
            return Goal::Failed(failed);
        }
        Goal::when_all_done(&self.checklist(run, memory))
    }

    fn checklist(&self, run: &Run<LogWorld>, memory: &Memory) -> Vec<ChecklistItem> {
        let world = run.world();
        vec![
            ChecklistItem::recorded(
                "A disk wiped, and what the library does with it answered",
                memory,
                REFUSAL_TAKEN,
            ),
            ChecklistItem {
                label: "Every write of C1 chosen, the last without the wiped node".into(),
                done: refused_nodes(world).next().is_some() && last_write_chosen_without(world),
            },
        ]
    }

    /// After a disk is wiped: what the library answers when that node boots from it.
    fn question(&self, change: &Change<'_, LogWorld>) -> Option<Prompt> {
        match change.action {
            crate::replicated_log::LogMove::World(LogAction::WipeDisk(node)) => {
                Some(boot_question(change.world, *node))
            }
            _ => None,
        }
    }
}

/// The nodes whose boot the library refuses, by index.
fn refused_nodes(world: &LogWorld) -> impl Iterator<Item = usize> + '_ {
    (world.servers().iter().enumerate())
        .filter(|(_, server)| server.boot_refused)
        .map(|(index, _)| index)
}

/// The chosen command in the highest slot, once every client write is chosen.
fn last_write_chosen(world: &LogWorld) -> Option<paros_sim::replicated_log::SlotVotes> {
    let writes: usize = world.config().clients.iter().map(Vec::len).sum();
    let chosen: Vec<_> = (world.chosen_by_votes().into_iter())
        .filter(|votes| matches!(votes.entry, Entry::Command(_)))
        .collect();
    (chosen.len() >= writes).then(|| chosen.into_iter().last())?
}

/// Whether every client write is chosen, the last with no refused node among its voters.
fn last_write_chosen_without(world: &LogWorld) -> bool {
    last_write_chosen(world).is_some_and(|last| {
        refused_nodes(world).all(|index| !last.voters.contains(world.config().node_id(index)))
    })
}

/// The last write chosen with the vote of a node whose disk was then wiped: not the survivors
/// deciding without it.
fn last_write_chosen_by_the_wiped(world: &LogWorld) -> Option<String> {
    let last = last_write_chosen(world)?;
    let wiped = refused_nodes(world)
        .map(|index| world.config().node_id(index))
        .find(|node| last.voters.contains(*node))?;
    let name = world.name(wiped);
    Some(format!(
        "{} was chosen in slot {} by {}, with {name}'s vote, before {name}'s disk was wiped: the \
         survivors were to choose it without {name}. Undo to before it was chosen.",
        world.entry_name(&last.entry),
        last.slot,
        set_name(world, last.voters)
    ))
}

fn choice(key: &str, label: String, right: bool, explanation: String) -> Choice {
    Choice {
        key: key.into(),
        label,
        right,
        explanation,
    }
}

/// What `ColocatedNode::boot` answers for `node`, provisioned, from its disk as it is now.
fn boot_question(world: &LogWorld, node: NodeId) -> Prompt {
    let index = usize::from(node.get()) - 1;
    let disk = &world.servers()[index].disk;
    let config = world.config().core_config();
    let answer = ColocatedNode::boot(node, config, Provisioning::Provisioned, disk).map(|_| ());
    let name = world.name(node);
    let words = match &answer {
        Ok(()) => "Ok: it boots".to_string(),
        Err(refused) => format!("{}: \"{refused}\"", refusal_name(refused)),
    };
    let said = format!(
        "paros-core's ColocatedNode::boot for {name}, Provisioning::Provisioned, on its disk of \
         {} frames, answers {words}.",
        disk.len()
    );
    let danger = blank_danger(world, node);
    let refusal = |key: &str, refused: BootRefused, why: String| {
        let right = answer.as_ref().err() == Some(&refused);
        let explanation = if right {
            format!(
                "Right: {said} {danger} {name} may come back only as a new acceptor, through \
                 reconfiguration, or as a learner."
            )
        } else {
            format!("{why} {said}")
        };
        choice(
            key,
            format!("It refuses: \"{refused}\""),
            right,
            explanation,
        )
    };
    let mut prompt = Prompt::question(
        "boot",
        format!(
            "{name}'s disk is now empty. An operator restarts {name}, which the configuration \
             names as an acceptor. What does the library answer?"
        ),
        vec![
            format!("{name} is down, its disk erased"),
            format!("{name} was provisioned: it has promised and voted"),
        ],
        vec![
            refusal(
                "refused",
                BootRefused::Missing,
                format!("{name}'s disk is empty, and that is not what this refusal says."),
            ),
            choice(
                "fresh",
                format!("{name} boots and answers as an acceptor, with no promise and no votes"),
                answer.is_ok(),
                format!("{danger} {said}"),
            ),
            refusal(
                "fresh-not-empty",
                BootRefused::FreshDiskNotEmpty,
                format!(
                    "That refusal is for a node the configuration names for the first time \
                     whose disk holds writes. {name} is provisioned, and its disk is empty."
                ),
            ),
        ],
    );
    prompt.node = Some(name);
    if answer == Err(BootRefused::Missing) {
        prompt.record = Some(REFUSAL_TAKEN.into());
    }
    prompt
}

/// The name of a refusal in paros-core, as the explanations quote it.
fn refusal_name(refused: &BootRefused) -> &'static str {
    match refused {
        BootRefused::Missing => "BootRefused::Missing",
        BootRefused::Unreadable(_) => "BootRefused::Unreadable",
        BootRefused::FreshDiskNotEmpty => "BootRefused::FreshDiskNotEmpty",
    }
}

/// What a blank `node` could break: the first value chosen with its vote, and the Phase-1
/// quorum that, with it answering "no vote", never hears of that value.
fn blank_danger(world: &LogWorld, node: NodeId) -> String {
    let name = world.name(node);
    let Some(votes) =
        (world.chosen_by_votes().into_iter()).find(|votes| votes.voters.contains(node))
    else {
        return format!("{name} answering as new would promise and vote as if it never had.");
    };
    let quorums = world.config().quorum_system();
    let mut unaware = paros_core::NodeSet::EMPTY;
    unaware.insert(node);
    for index in 0..world.servers().len() {
        let other = world.config().node_id(index);
        if !votes.voters.contains(other) {
            unaware.insert(other);
        }
    }
    let entry = world.entry_name(&votes.entry);
    let slot = votes.slot;
    if heard_from_a_discovery_quorum(&quorums, unaware) {
        format!(
            "{name} voted for {entry} in slot {slot}, chosen by {}. Blank, it would answer a \
             Prepare with \"no vote\" there, and {} are a Phase-1 quorum that never heard of \
             {entry}: a leader over them could choose another value in slot {slot}.",
            set_name(world, votes.voters),
            set_name(world, unaware)
        )
    } else {
        format!(
            "{name} voted for {entry} in slot {slot}, chosen by {}. Blank, it would answer a \
             Prepare with \"no vote\" there, a promise and a vote it gave forgotten.",
            set_name(world, votes.voters)
        )
    }
}
