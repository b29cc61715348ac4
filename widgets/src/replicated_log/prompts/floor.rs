//! The floor prompt: with the apply walk played by hand, a node learns slots while a decided
//! trim sits above what it has applied. Where is its floor once the delivery is taken?
//!
//! The right answer is the node's floor on the clone that took the step, which paros-core's
//! `floor_after_applying` moved (or did not); each wrong answer is a slot number read from the
//! same node: the trim's own slot, the slot it trims through, what the node has applied, or
//! the floor it had.

use super::shared::node;
use crate::prompt::sort_short;
use crate::prompt::{Choice, Prompt, PromptKind, drop_doubles};
use crate::replicated_log::LogMove;
use paros_core::log::{ColocatedNode, Entry, Slot};
use paros_sim::replicated_log::{LogAction, LogWorld};

/// The decided trim a node has not yet applied: the highest, as (its slot, through).
fn unapplied_trim(applied: Slot, now: &ColocatedNode) -> Option<(Slot, Slot)> {
    now.chosen()
        .range(applied.next()..)
        .filter_map(|(slot, vote)| match vote.entry {
            Entry::Trim(through) => Some((*slot, through)),
            _ => None,
        })
        .next_back()
}

/// What the facts and the explanations read from the node, before and after the step.
struct FloorStep {
    name: String,
    /// The trim's slot, and the slot it trims through.
    slot: Slot,
    through: Slot,
    applied_before: Slot,
    applied_after: Slot,
    floor_before: Slot,
    floor_after: Slot,
    gap: Option<Slot>,
}

/// The floor prompt, for the first node that learns slots in this move while a decided trim
/// sits above what it had applied.
pub(super) fn floor_after(world: &LogWorld, after: &LogWorld, action: &LogMove) -> Option<Prompt> {
    let step = (0..world.servers().len()).find_map(|index| {
        let before = node(world, index)?;
        let now = node(after, index)?;
        // Applying a trim drops the entries below it, so what was learned shows in the chosen
        // index as well as in new chosen slots.
        let learned = now.chosen_index() > before.chosen_index()
            || now
                .chosen()
                .keys()
                .any(|slot| !before.chosen().contains_key(slot));
        let (slot, through) = unapplied_trim(before.applied_index(), now)?;
        learned.then(|| FloorStep {
            name: world.name(now.id()),
            slot,
            through,
            applied_before: before.applied_index(),
            applied_after: now.applied_index(),
            floor_before: before.floor(),
            floor_after: now.floor(),
            gap: now.chosen_gap(),
        })
    })?;
    let name = &step.name;
    let candidates = [
        step.floor_after,
        step.floor_before,
        step.through,
        step.slot,
        step.applied_before,
        step.applied_after,
    ];
    let mut floors: Vec<Slot> = Vec::new();
    for floor in candidates {
        if !floors.contains(&floor) {
            floors.push(floor);
        }
    }
    sort_short(&mut floors, |floor| *floor);
    let mut choices: Vec<Choice> = Vec::new();
    for floor in floors {
        let right = floor == step.floor_after;
        choices.push(Choice {
            key: floor.to_string(),
            label: floor_label(floor),
            right,
            explanation: if right {
                right_floor(&step)
            } else {
                wrong_floor(&step, floor)
            },
        });
    }
    drop_doubles(&mut choices);
    let mut facts = vec![
        format!("{name} has applied through slot {}", step.applied_before),
        format!(
            "the trim through slot {} is decided in slot {}",
            step.through, step.slot
        ),
        format!("{name}'s floor is {}", floor_words(step.floor_before)),
    ];
    if let Some(gap) = step.gap.filter(|gap| *gap < step.slot) {
        facts.push(format!("slot {gap} is not known chosen at {name}"));
    }
    Some(Prompt {
        kind: PromptKind::Floor,
        node: Some(name.clone()),
        message: match action {
            LogMove::World(LogAction::Deliver(id)) => Some(id.0),
            _ => None,
        },
        question: format!(
            "{name} has applied through slot {} and the decided trim through slot {} sits in \
             slot {}. What is {name}'s floor once this delivery is taken?",
            step.applied_before, step.through, step.slot
        ),
        facts,
        choices,
        record: None,
        topic: "",
    })
}

fn floor_label(floor: Slot) -> String {
    if floor == Slot(0) {
        "0: nothing trimmed".to_string()
    } else {
        format!("Slot {floor}")
    }
}

/// The floor as a sentence reads it: `0, nothing trimmed` or `2`.
fn floor_words(floor: Slot) -> String {
    if floor == Slot(0) {
        "0, nothing trimmed".to_string()
    } else {
        floor.to_string()
    }
}

fn right_floor(step: &FloorStep) -> String {
    let FloorStep {
        name,
        slot,
        through,
        applied_after,
        floor_after,
        ..
    } = step;
    if floor_after >= through {
        format!(
            "floor_after_applying: {name}'s walk now runs through slot {applied_after}, so it \
             applies slot {slot} and with it the trim through slot {through}. Its floor moves to \
             {through}: slots 1 to {through} are compacted into its trim point (the store and the \
             session table as of slot {through}), and slot {slot} keeps its entry."
        )
    } else {
        format!(
            "{name}'s walk stops at slot {applied_after}: slot {} is not known chosen here, and \
             the walk applies in slot order. The trim in slot {slot} is decided but not applied \
             by {name}, and a floor moves only when the node's own walk applies the trim \
             (floor_after_applying). So {name}'s floor stays {}, whatever the other nodes' floors \
             are.",
            applied_after.next(),
            floor_words(*floor_after)
        )
    }
}

fn wrong_floor(step: &FloorStep, floor: Slot) -> String {
    let FloorStep {
        name,
        slot,
        through,
        applied_after,
        floor_after,
        ..
    } = step;
    if floor > *applied_after {
        return format!(
            "{name} will have applied only through slot {applied_after}. A floor at {floor} would \
             drop entries {name} has not applied, and its trim point could not be made from them: \
             the floor never passes what the node has applied."
        );
    }
    if floor == *slot {
        return format!(
            "Slot {slot} holds the decision, not the compacted state: the trim compacts through \
             slot {through}, and slot {slot} keeps its entry. The floor moves to what the trim \
             names, never to the slot it sits in."
        );
    }
    if floor_after < through {
        return format!(
            "The trim in slot {slot} is decided, but {name}'s walk has not reached it: it stops \
             at slot {applied_after}. A node that compacted on hearing of the decision would move \
             its floor on its own schedule, not at the point in the log where the decision sits; \
             the floor moves only when the walk applies the trim (floor_after_applying)."
        );
    }
    format!(
        "{name}'s walk applies slot {slot}, the trim through slot {through}, so its floor moves \
         to {through}, not to {floor}. The floor is what the decided trim names: one decision, \
         one floor on every node that applies it."
    )
}
