//! `act4/proxy-leaders`: N1 leads at 1.N1 and sends each Accept through one of two proxy
//! leaders, P1 and P2. The player crashes the proxy that carries slot 1 mid-slot, lets N1 send
//! the slot again through the other, gets C1 its answer, then lets a follower stand so that one
//! proxy holds Accepteds of two ballots for one slot.
//!
//! Two level questions, each judged by paros-core on the real state: what N1's resend through
//! the other proxy carries (`resend_is_identical` against the entry N1 proposed), and whether a
//! proxy holding Accepteds of two ballots for one slot may announce it chosen
//! (`proxy_may_announce` on the acceptors it counted at each exact (slot, ballot)).

use super::PROXY_LEADERS_CHAPTER;
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::levels::act2::{pin, running};
use crate::prompt::{Choice, Prompt};
use crate::replicated_log::{LogMove, ProxyCount, ballot_name, proxy_counts};
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use crate::words::{log_set_name as set_name, phase2_quorum_size};
use paros_core::log::{Entry, LogMessage, Slot, proxy_may_announce, resend_is_identical};
use paros_core::{Ballot, NodeId, NodeSet};
use paros_sim::level_worlds;
use paros_sim::replicated_log::{LogAction, LogWorld};

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act4/proxy-leaders",
    act: 4,
    title: "Proxy leaders",
    briefing: native_text(include_str!("proxy_leaders.md")),
    by_hand: "Route the leader's Accepts through proxies, crash one mid-slot, and count for a \
              proxy that hears two ballots",
    teaches: "A proxy forwards, counts per (slot, ballot) and keeps nothing worth saving",
    goal: "C1's x=1 chosen and answered though the proxy carrying it crashed mid-slot, what \
           N1 resends through the other proxy judged, and a proxy's Accepteds of two ballots \
           for one slot judged",
    chapter: PROXY_LEADERS_CHAPTER,
    scenario: "act4-proxy-leaders",
    symbols: native_only(&["proxy_may_announce", "resend_is_identical"]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Question("resend"),
            text: "A proxy keeps no promise and no vote. If it crashes, what it held was only messages \
         in flight: the leader sends the slot again, through the other proxy, and the entry \
         must be the very one it sent before.",
        },
        Hint {
            about: HintFor::Question("two-ballots"),
            text: "A proxy counts Accepteds for one exact (slot, ballot). Votes at two ballots are votes \
         for two proposals, even when they name the same value; no quorum at either ballot \
         means nothing is chosen yet.",
        },
    ],
    pins: &[
        pin(Automation::P2c, true),
        pin(Automation::ApplyWalk, true),
        pin(Automation::Heartbeats, false),
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "Two proxies, one leader",
        note: "N1 leads at 1.N1 and sends each Accept to one proxy leader: slot 1 to P2, slot 2 \
               to P1. A proxy sends it on to N1, N2 and N3, counts their Accepteds and tells N1 \
               when the slot is chosen. C1 writes x=1, then x=2, at N1.",
        world: &level_worlds::PROXY_LEADERS,
    }],
    solution: native_only(&[
        "request C1 N1",
        "deliver C1->N1 Write",
        "deliver N1->P2 Accept",
        "deliver P2->N2 Accept",
        "crash P2",
        "tick N1",
        "answer identical",
        "deliver N1->P1 Accept",
        "deliver P1->N2 Accept",
        "deliver P1->N3 Accept",
        "deliver N2->P1 Accepted",
        "deliver N3->P1 Accepted",
        "deliver P1->N1 SlotChosen",
        "deliver N1->C1 Reply",
        "request C1 N1",
        "deliver C1->N1 Write",
        "deliver N1->P1 Accept",
        "deliver P1->N2 Accept(1.N1, slot 2",
        "deliver N2->P1 Accepted(1.N1, slot 2",
        "tick N3",
        "deliver N3->N2 Prepare",
        "deliver N2->N3 Promise",
        "deliver N3->P1 Accept",
        "deliver P1->N3 Accept(2.N3",
        "deliver N3->P1 Accepted(2.N3",
        "answer no",
    ]),
    solution_unlocked: &[Automation::P2c, Automation::ApplyWalk],
    rules: &ProxyLeaders,
};

/// What a right answer records when the leader resends around a crashed proxy, identical.
const RESENT_AROUND_A_CRASH: &str = "resent identical around a crashed proxy";
/// What a right answer records when a proxy's two ballots in one slot announce nothing.
const TWO_BALLOTS_NOT_COUNTED_TOGETHER: &str = "two ballots' Accepteds not counted together";

struct ProxyLeaders;

impl Rules<LogWorld> for ProxyLeaders {
    fn goal(&self, run: &Run<LogWorld>, memory: &Memory) -> Goal {
        Goal::when_all_done(&self.checklist(run, memory))
    }

    fn checklist(&self, run: &Run<LogWorld>, memory: &Memory) -> Vec<ChecklistItem> {
        let recorded = |label: &str, record: &str| ChecklistItem::recorded(label, memory, record);
        vec![
            recorded(
                "A proxy crashes mid-slot, and what N1 sends again through the other, judged",
                RESENT_AROUND_A_CRASH,
            ),
            ChecklistItem {
                label: "C1's x=1 chosen and answered".into(),
                done: first_write_answered(run.world()),
            },
            recorded(
                "A proxy holding Accepteds of two ballots for one slot, judged",
                TWO_BALLOTS_NOT_COUNTED_TOGETHER,
            ),
        ]
    }

    /// After a tick of a leader that sends a slot again through a proxy: what the resend
    /// carries. After a delivery that leaves a proxy counting two ballots in one slot: may it
    /// announce that slot?
    fn question(&self, change: &Change<'_, LogWorld>) -> Option<Prompt> {
        let world = change.world;
        match change.action {
            LogMove::World(LogAction::Tick(leader)) | LogMove::Beat(leader) => {
                resend_question(world, *leader, change)
            }
            LogMove::World(LogAction::Deliver(_)) => {
                two_ballots_question(world, &change.before.proxy_counts)
            }
            _ => None,
        }
    }
}

/// Whether the first client's first write was answered.
fn first_write_answered(world: &LogWorld) -> bool {
    let client = world.config().client_id(0);
    (world.history().iter())
        .any(|call| call.client == client && call.program_index == 0 && call.ret.is_some())
}

fn choice(key: &str, label: String, right: bool, explanation: String) -> Choice {
    Choice {
        key: key.into(),
        label,
        right,
        explanation,
    }
}

/// An Accept that `leader` sent to a proxy in this step: the proxy, the slot, the ballot and
/// the entry.
fn accept_to_a_proxy(
    world: &LogWorld,
    leader: NodeId,
    change: &Change<'_, LogWorld>,
) -> Option<(NodeId, Slot, Ballot, Entry)> {
    let proxies = world.config().proxy_ids();
    (world.in_flight().iter())
        .filter(|message| message.id >= change.before.next_message)
        .filter(|message| message.envelope.from == leader && proxies.contains(message.envelope.to))
        .find_map(|message| match &message.envelope.message {
            LogMessage::Accept {
                ballot,
                slot,
                entry,
                ..
            } => Some((message.envelope.to, *slot, *ballot, entry.clone())),
            _ => None,
        })
}

/// Q1: a leader's tick sent a slot it had already proposed again, through a proxy. What does
/// it carry? Judged by `resend_is_identical` against the entry the leader proposed there.
fn resend_question(
    world: &LogWorld,
    leader: NodeId,
    change: &Change<'_, LogWorld>,
) -> Option<Prompt> {
    let (proxy, slot, ballot, resent) = accept_to_a_proxy(world, leader, change)?;
    let node = running(world, usize::from(leader.get()))?;
    let proposed = node.proposals().get(&slot)?.entry.clone();
    let (name, via, at) = (
        world.name(leader),
        world.name(proxy),
        ballot_name(world, ballot),
    );
    let down: Vec<String> = (proxy_counts(world).iter().enumerate())
        .filter(|(_, counted)| counted.is_none())
        .map(|(index, _)| world.name(world.config().proxy_id(index)))
        .collect();
    let proposed_name = world.entry_name(&proposed);
    let rule = format!(
        "resend_is_identical({proposed_name}, {}) is {}: at (slot {slot}, {at}) {name} sends \
         one entry, whichever proxy carries it.",
        world.entry_name(&resent),
        resend_is_identical(&proposed, &resent)
    );
    let candidate = |key: &str, label: String, entry: &Entry, why: &str| {
        let right = resend_is_identical(&proposed, entry);
        let explanation = match right {
            true => format!(
                "Right: {rule} The first proxy may have forwarded the Accept to some \
                 acceptors before it went quiet, and their votes still count toward \
                 {proposed_name} at {at}."
            ),
            false => format!(
                "{why} {rule} Had {name} sent {} at {at}, each proxy could gather a quorum \
                 for a different value at the same ballot: two values chosen in slot {slot}.",
                world.entry_name(entry)
            ),
        };
        choice(key, label, right, explanation)
    };
    let mut prompt = Prompt::question(
        "resend",
        format!(
            "{name} sends slot {slot} again at {at}, through {via} this time. What does the \
             Accept carry?"
        ),
        vec![
            format!("{name} proposed {proposed_name} in slot {slot} at {at}"),
            match down.is_empty() {
                true => "every proxy is up".to_string(),
                false => format!("down: {}", down.join(", ")),
            },
        ],
        vec![
            candidate(
                "identical",
                format!("{proposed_name}, as before"),
                &proposed,
                "",
            ),
            candidate(
                "no-op",
                "A no-op: what the crashed proxy carried is lost, so the slot starts afresh".into(),
                &Entry::Noop,
                "A proxy's crash loses messages, not the slot: acceptors may already have \
                 voted for the first Accept it forwarded.",
            ),
        ],
    );
    prompt.node = Some(world.name(leader));
    let crashed_mid_slot = !down.is_empty() && !down.contains(&world.name(proxy));
    if crashed_mid_slot && resend_is_identical(&proposed, &resent) {
        prompt.record = Some(RESENT_AROUND_A_CRASH.into());
    }
    Some(prompt)
}

/// A proxy counting Accepteds of two ballots or more for one slot.
struct TwoBallots {
    /// The proxy's place, P1 first.
    proxy: usize,
    /// The slot.
    slot: Slot,
    /// What it counts there, lowest ballot first.
    counted: Vec<(Ballot, NodeSet)>,
}

/// The proxy whose counts changed in this step and now hold Accepteds of two ballots or more
/// for one slot.
fn two_ballots_in_one_slot(
    world: &LogWorld,
    before: &[Option<Vec<ProxyCount>>],
) -> Option<TwoBallots> {
    let after = proxy_counts(world);
    (after.into_iter().enumerate()).find_map(|(index, counted)| {
        let counted = counted?;
        let earlier = before.get(index).cloned().flatten().unwrap_or_default();
        let slots: Vec<Slot> = counted.iter().map(|(slot, ..)| *slot).collect();
        slots.into_iter().find_map(|slot| {
            let at_slot = |counts: &[ProxyCount]| -> Vec<(Ballot, NodeSet)> {
                (counts.iter())
                    .filter(|(held, _, voters)| *held == slot && !voters.is_empty())
                    .map(|(_, ballot, voters)| (*ballot, *voters))
                    .collect()
            };
            let now = at_slot(&counted);
            (now.len() >= 2 && now != at_slot(&earlier)).then_some(TwoBallots {
                proxy: index,
                slot,
                counted: now,
            })
        })
    })
}

/// Q2: a proxy holds Accepteds of two ballots for one slot. May it announce the slot chosen?
/// Judged by `proxy_may_announce` on the acceptors counted at each exact (slot, ballot).
fn two_ballots_question(world: &LogWorld, before: &[Option<Vec<ProxyCount>>]) -> Option<Prompt> {
    let TwoBallots {
        proxy: index,
        slot,
        counted,
    } = two_ballots_in_one_slot(world, before)?;
    let quorums = world.config().quorum_system();
    let proxy = world.name(world.config().proxy_id(index));
    let judged = |voters: NodeSet| proxy_may_announce(&quorums, slot, voters);
    let may = counted.iter().any(|(_, voters)| judged(*voters));
    let together = counted
        .iter()
        .fold(NodeSet::EMPTY, |all, (_, voters)| all.union(*voters));
    let each: Vec<String> = (counted.iter())
        .map(|(ballot, voters)| {
            format!(
                "proxy_may_announce(slot {slot}, {}) at {} is {}",
                set_name(world, *voters),
                ballot_name(world, *ballot),
                judged(*voters)
            )
        })
        .collect();
    let rule = format!(
        "{}. A vote at one ballot is for that ballot's proposal; {} together would be enough \
         ({}; proxy_may_announce is {} on them), but split between ballots they are no quorum \
         at any.",
        each.join("; "),
        set_name(world, together),
        phase2_quorum_size(&quorums, "nodes"),
        judged(together)
    );
    let facts = (counted.iter())
        .map(|(ballot, voters)| {
            format!(
                "{proxy} counts slot {slot} at {}: {}",
                ballot_name(world, *ballot),
                set_name(world, *voters)
            )
        })
        .collect();
    let (highest, highest_voters) = *counted.last()?;
    let mut prompt = Prompt::question(
        "two-ballots",
        format!(
            "{proxy} holds Accepteds for slot {slot} at two ballots: {}. May it announce slot \
             {slot} chosen?",
            (counted.iter())
                .map(|(ballot, voters)| format!(
                    "{} at {}",
                    set_name(world, *voters),
                    ballot_name(world, *ballot)
                ))
                .collect::<Vec<_>>()
                .join(" and ")
        ),
        facts,
        vec![
            choice(
                "no",
                format!("No: no single ballot has a quorum in slot {slot}"),
                !may,
                format!(
                    "Right: {rule} {proxy} waits; the newer leader's Accept reaches the other \
                     acceptors, or a later ballot does. Counted together, a proxy could \
                     announce a value that a quorum never accepted at any one ballot, and a \
                     higher ballot could still choose another."
                ),
            ),
            choice(
                "together",
                format!(
                    "Yes: {} is a quorum, whatever the ballots",
                    set_name(world, together)
                ),
                may,
                format!(
                    "{rule} This is the rule a proxy keyed by slot alone breaks: the \
                     simulator's control act4-proxy-keyed-by-slot-control finds it announcing \
                     a value chosen at a ballot where no quorum voted for it."
                ),
            ),
            choice(
                "highest",
                format!(
                    "Yes, at {}: the higher ballot's votes stand for the lower's",
                    ballot_name(world, highest)
                ),
                judged(highest_voters),
                format!(
                    "{rule} A higher ballot takes no votes from a lower one: its leader learns \
                     them in Phase 1 and proposes again, and each acceptor votes again."
                ),
            ),
        ],
    );
    prompt.node = Some(proxy);
    if !may {
        prompt.record = Some(TWO_BALLOTS_NOT_COUNTED_TOGETHER.into());
    }
    Some(prompt)
}
