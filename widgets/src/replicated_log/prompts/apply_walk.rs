//! The apply-walk prompt: a node whose known-chosen slots grow picks what it may apply, in
//! order, up to the first gap.

use super::shared::node;
use crate::prompt::{Choice, Prompt, PromptKind};
use crate::replicated_log::{LogMove, ballot_name};
use paros_core::log::Slot;
use paros_sim::replicated_log::{LogAction, LogWorld};

fn slots_text(slots: &[Slot]) -> String {
    let words: Vec<String> = slots.iter().map(ToString::to_string).collect();
    match words.len() {
        0 => "none".to_string(),
        1 => format!("slot {}", words[0]),
        _ => format!("slots {}", words.join(", ")),
    }
}

fn range_key(first: Slot, last: Slot) -> String {
    if first == last {
        first.to_string()
    } else {
        format!("{first}-{last}")
    }
}

fn range_label(first: Slot, last: Slot) -> String {
    if first == last {
        format!("Slot {first}")
    } else {
        format!("Slots {first} to {last}, in order")
    }
}

/// The apply-walk prompt: the first node whose known-chosen slots grow in this move.
pub(super) fn apply_walk(world: &LogWorld, after: &LogWorld, action: &LogMove) -> Option<Prompt> {
    let (index, learned) = (0..world.servers().len()).find_map(|index| {
        let before = node(world, index)?;
        let now = node(after, index)?;
        let learned: Vec<Slot> = now
            .chosen()
            .keys()
            .filter(|slot| !before.chosen().contains_key(slot))
            .copied()
            .collect();
        (!learned.is_empty()).then_some((index, learned))
    })?;
    let before = node(world, index)?;
    let now = node(after, index)?;
    let name = world.name(now.id());
    let applied = before.applied_index();
    let chosen_index = now.chosen_index();
    let highest = *now.chosen().keys().next_back()?;
    let right_key = if now.applied_index() > applied {
        range_key(applied.next(), now.applied_index())
    } else {
        "nothing".to_string()
    };
    let chosen_slots: Vec<Slot> = now
        .chosen()
        .keys()
        .filter(|slot| **slot > applied)
        .copied()
        .collect();
    let entry_at = |slot: Slot| {
        now.chosen().get(&slot).map_or_else(String::new, |vote| {
            format!(
                "{} (chosen at {})",
                world.entry_name(&vote.entry),
                ballot_name(world, vote.ballot)
            )
        })
    };
    let mut candidates: Vec<(String, String)> = vec![("nothing".into(), "Nothing yet".into())];
    for slot in &learned {
        candidates.push((slot.to_string(), format!("Slot {slot} only")));
    }
    candidates.push((
        range_key(applied.next(), highest),
        range_label(applied.next(), highest),
    ));
    if chosen_index > applied {
        candidates.push((
            range_key(applied.next(), chosen_index),
            range_label(applied.next(), chosen_index),
        ));
    }
    let mut seen = Vec::new();
    candidates.retain(|(key, _)| {
        let fresh = !seen.contains(key);
        seen.push(key.clone());
        fresh
    });
    let gap = now.chosen_gap();
    let choices = candidates
        .into_iter()
        .map(|(key, label)| {
            let right = key == right_key;
            let explanation = if right {
                if key == "nothing" {
                    format!(
                        "{name} knows {} chosen, but slot {} is not known chosen: its chosen prefix, the unbroken run \
                         of slots it knows chosen from slot 1, ends at {chosen_index}, and {name} \
                         has applied through it. The apply walk never runs past the chosen prefix, \
                         so {name} waits for slot {} to be decided.",
                        slots_text(&chosen_slots),
                        chosen_index.next(),
                        chosen_index.next()
                    )
                } else {
                    let entries: Vec<String> = (applied.0 + 1..=chosen_index.0)
                        .map(|slot| format!("slot {slot}: {}", entry_at(Slot(slot))))
                        .collect();
                    format!(
                        "Every slot through {chosen_index} is chosen, so the chosen prefix ends at \
                         {chosen_index} and the apply walk applies in slot order: {}.",
                        entries.join("; ")
                    )
                }
            } else {
                wrong_apply(&name, &key, applied, chosen_index, gap, &entry_at)
            };
            Choice {
                key,
                label,
                right,
                explanation,
            }
        })
        .collect();
    let mut facts = vec![
        format!(
            "{name} knows chosen: {}",
            slots_text(&now.chosen().keys().copied().collect::<Vec<_>>())
        ),
        format!("{name}'s chosen_index: {chosen_index}"),
        format!("{name} has applied through slot {applied}"),
    ];
    if let Some(gap) = gap {
        facts.push(format!("slot {gap} is not known chosen at {name}"));
    }
    Some(Prompt {
        kind: PromptKind::ApplyWalk,
        node: Some(name.clone()),
        message: match action {
            LogMove::World(LogAction::Deliver(id)) => Some(id.0),
            _ => None,
        },
        question: format!(
            "{name} now knows {} chosen. What may {name} apply?",
            slots_text(&learned)
        ),
        facts,
        choices,
        record: None,
        topic: "",
    })
}

fn wrong_apply(
    name: &str,
    key: &str,
    applied: Slot,
    chosen_index: Slot,
    gap: Option<Slot>,
    entry_at: &dyn Fn(Slot) -> String,
) -> String {
    if key == "nothing" {
        return format!(
            "Every slot through {chosen_index} is chosen and every slot through {applied} is \
             applied: holding slot {} back keeps its client waiting for nothing. The apply walk \
             runs to chosen_index ({chosen_index}), no further and no shorter: slot {} holds {}.",
            applied.next(),
            applied.next(),
            entry_at(applied.next())
        );
    }
    let last: u64 = key
        .rsplit('-')
        .next()
        .and_then(|word| word.parse().ok())
        .unwrap_or_default();
    let first: u64 = key
        .split('-')
        .next()
        .and_then(|word| word.parse().ok())
        .unwrap_or_default();
    match gap {
        Some(gap) if Slot(last) > gap || Slot(first) > applied.next() => format!(
            "Slot {gap} is not known chosen at {name}. Applying slot {last} ({}) now would run it \
             before whatever slot {gap} decides, while every other node runs slot {gap} first: \
             the replicas' states would differ. Chosen slots apply in slot order, never past \
             chosen_index ({chosen_index}).",
            entry_at(Slot(last))
        ),
        _ => format!(
            "Slots {} to {chosen_index} are all chosen: stopping at slot {last} leaves {} chosen \
             and unapplied. The apply walk runs to chosen_index ({chosen_index}).",
            applied.next(),
            entry_at(chosen_index)
        ),
    }
}
