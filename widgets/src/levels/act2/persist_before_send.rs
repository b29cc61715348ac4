//! `act2/persist-before-send`: N2's `Ready` holds its vote for slot 1 (a write) and its
//! Accepted (a message). The player orders the two steps, then crashes N2 at each seam: before
//! the write is durable, between the write and the send, and after the send.
//!
//! The world is stepwise, so `persist` and `send` are moves of their own. The order question
//! is judged by the world, which holds N2's `Ready` itself until `persist`: only persisting its
//! writes yields the proof of exactly that batch, which alone releases its messages, so the
//! world offers `send` only after `persist`. After each crash of
//! N2 at a seam, the level asks whether N2's disk still holds its vote, read off the disk.

use super::{CRASH_AND_RESTART, pin};
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::prompt::{Choice, Prompt};
use crate::replicated_log::stage::{durable_record, write_name};
use crate::replicated_log::{LogMove, ballot_name};
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use paros_core::log::{LogMessage, Slot};
use paros_sim::NegativeControl;
use paros_sim::check::Property;
use paros_sim::level_worlds;
use paros_sim::replicated_log::{LogAction, LogWorld};

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act2/persist-before-send",
    act: 2,
    title: "Persist before send",
    briefing: native_text(include_str!("persist_before_send.md")),
    by_hand: "Order a `Ready` batch's writes and messages, then crash at each seam",
    teaches: "A Promise or Accepted sent before its write is durable can un-make a decision",
    goal: "x=1 is chosen and C1 hears so, after N2 crashed at each of the three seams of its Ready",
    chapter: CRASH_AND_RESTART,
    scenario: "act2-persist-before-send",
    symbols: native_only(&["LogMessage::Accepted", "Ready", "Ready::into_messages"]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Question("order"),
            text: "A message is a promise to the rest of the cluster about what the sender will remember. \
         Ask what N2 remembers after a crash: only what reached its disk.",
        },
        Hint {
            about: HintFor::Question("crash"),
            text: "A restart reads the disk and nothing else. Ask which part of the Ready had finished when N2 \
         crashed: a write the node never persisted is not there to read.",
        },
        Hint {
            about: HintFor::Question("crash"),
            text: "Crash N2 three times: while its vote is only in memory, after `persist` but before \
         `send`, and after `send`. A restart's first Ready writes N2's new incarnation: persist and \
         send it, and N1's next tick sends the Accept again.",
        },
    ],
    pins: &[
        pin(Automation::ApplyWalk, true),
        pin(Automation::Heartbeats, false),
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "A vote in a Ready",
        note: "N1 leads at 1.N1 and has sent Accept(slot 1, x=1) to N2 and N3. Every Ready is \
               yours to persist and send.",
        world: &level_worlds::PERSIST_BEFORE_SEND,
    }],
    solution: native_only(&[
        // Seam 1: crash before the write is durable.
        "deliver N1->N2 Accept",
        "answer persist",
        "crash N2",
        "answer no",
        "restart N2",
        "persist N2",
        "send N2",
        "tick N1",
        "send N1",
        // Seam 2: crash between the write and the send.
        "deliver N1->N2 Accept",
        "answer persist",
        "persist N2",
        "crash N2",
        "answer yes",
        "restart N2",
        "persist N2",
        "send N2",
        "tick N1",
        "send N1",
        // Seam 3: crash after the send.
        "deliver N1->N2 Accept",
        "answer persist",
        "persist N2",
        "send N2",
        "crash N2",
        "answer yes",
        "deliver N2->N1 Accepted",
        "persist N1",
        "send N1",
        "deliver N1->C1 Reply",
        "restart N2",
        "persist N2",
        "send N2",
    ]),
    solution_unlocked: &[Automation::AcceptorReplies, Automation::P2c],
    rules: &PersistBeforeSend,
};

/// N2, the node whose Ready the level is about.
const N2: usize = 1;

/// The three seams, as the level records them.
const SEAMS: [(&str, &str); 3] = [
    ("before-persist", "Crash N2 before its vote is durable"),
    ("before-send", "Crash N2 after persist, before send"),
    ("after-send", "Crash N2 after its Accepted left"),
];

struct PersistBeforeSend;

impl Rules<LogWorld> for PersistBeforeSend {
    fn goal(&self, run: &Run<LogWorld>, memory: &Memory) -> Goal {
        let world = run.world();
        let written = c1_heard_back(world);
        let seams = SEAMS.iter().all(|(key, _)| memory.records.contains(*key));
        if written && seams && world.servers()[N2].host.is_up() {
            Goal::Reached
        } else {
            Goal::Open
        }
    }

    fn question(&self, change: &Change<'_, LogWorld>) -> Option<Prompt> {
        match change.action {
            LogMove::World(LogAction::Crash(node)) if usize::from(node.get()) == N2 + 1 => {
                crash_question(change)
            }
            // A delivery that leaves N2 holding a fresh Ready: which step first?
            LogMove::World(LogAction::Deliver(_)) if change.before.held[N2].is_none() => {
                order_question(change.world)
            }
            _ => None,
        }
    }

    fn checklist(&self, run: &Run<LogWorld>, memory: &Memory) -> Vec<ChecklistItem> {
        let mut items: Vec<ChecklistItem> = SEAMS
            .iter()
            .map(|(key, label)| ChecklistItem::recorded(label, memory, key))
            .collect();
        items.push(ChecklistItem {
            label: "C1 hears that x=1 is written".into(),
            done: c1_heard_back(run.world()),
        });
        items
    }
}

/// Whether C1's write of x=1 has returned (C2's y=2 may be in the history too).
fn c1_heard_back(world: &LogWorld) -> bool {
    let c1 = world.config().client_id(0);
    world
        .history()
        .iter()
        .any(|call| call.client == c1 && call.ret.is_some())
}

/// After a delivery leaves N2 holding a Ready whose messages carry a vote or a promise: which
/// step comes first?
fn order_question(world: &LogWorld) -> Option<Prompt> {
    let held = world.servers()[N2].held.as_ref()?;
    if held.persisted() || held.writes().is_empty() {
        return None;
    }
    let message = held.messages().iter().find(|envelope| {
        matches!(
            envelope.message,
            LogMessage::Accepted { .. } | LogMessage::Promise { .. }
        )
    })?;
    let n2 = world.config().node_id(N2);
    // The world (the core's Ready) decides: which step is offered first?
    let persist_first = world.enabled().contains(&LogAction::Persist(n2))
        && !world.enabled().contains(&LogAction::Send(n2));
    let writes: Vec<String> = held
        .writes()
        .iter()
        .map(|write| write_name(world, write))
        .collect();
    let sent = world.message_name(&message.message);
    let to = world.name(message.to);
    let written = writes.join(", ");
    let send_first = match &message.message {
        LogMessage::Accepted { ballot, slot } => {
            let ballot = ballot_name(world, *ballot);
            let mut pair = paros_core::NodeSet::EMPTY;
            pair.insert(message.to);
            pair.insert(message.from);
            let pair: Vec<String> = pair.iter().map(|node| world.name(node)).collect();
            let pair = format!("{{{}}}", pair.join(", "));
            match send_first_played_on(world) {
                Some(violation) => format!(
                    "Say N2 sends {sent} to {to} first. Played on in a copy of this world that \
                     allows it (the simulator's send-before-persist control): N2 sends, then \
                     crashes before {written} reaches its disk; {to} counts the Accepted, so \
                     {pair} is a Phase-2 quorum at {ballot} and slot {slot} is chosen; N2 \
                     restarts with no trace of its vote for slot {slot}; N3 stands for election, \
                     its Phase 1 over {{N2, N3}} hears no vote for slot {slot}, and it gives slot \
                     {slot} to C2's command. The agreement checker reports: {violation}. Slot \
                     {slot} decided twice: a decision un-made."
                ),
                None => format!(
                    "Say N2 sends {sent} to {to} first. {to} counts it: with {to}'s own vote, \
                     {pair} is a Phase-2 quorum at {ballot}, so slot {slot} is chosen. If N2 \
                     crashes before {written} reaches its disk, it may restart with no trace of \
                     its vote for slot {slot} (here only an earlier persist would save it, and N2 \
                     cannot count on one). A new leader's Phase 1 over N2 and N3 would hear no \
                     vote for slot {slot} and give it to another command: slot {slot} decided \
                     twice, a decision un-made."
                ),
            }
        }
        LogMessage::Promise { ballot, .. } => {
            let ballot = ballot_name(world, *ballot);
            format!(
                "Say N2 sends {sent} to {to} first. {to} counts it toward its Phase-1 quorum at \
                 {ballot}, trusting that N2 will refuse every lower ballot from now on. If N2 \
                 crashes before {written} reaches its disk, it restarts with its older promise and \
                 may vote for a lower ballot's Accept, a vote {to}'s Phase 1 never heard of: a \
                 value can then be chosen at that lower ballot beside the one {to} proposes at \
                 {ballot}, two decisions for one slot."
            )
        }
        _ => return None,
    };
    let ballot = match &message.message {
        LogMessage::Accepted { ballot, .. } | LogMessage::Promise { ballot, .. } => {
            ballot_name(world, *ballot)
        }
        _ => return None,
    };
    let persist = format!(
        "Persist first: the core's Ready releases {sent} only with a Persisted, which proves \
         exactly {written} durable and which only persisting those writes makes \
         ([`Ready::into_messages`] checks it). Whatever N2 tells {to} at {ballot}, it will still know \
         after any crash."
    );
    Some(Prompt::question(
        "order",
        format!(
            "N2's Ready holds the write {} and the message {sent}. Which goes first?",
            writes.join(", ")
        ),
        vec![
            format!("writes: {}", writes.join(", ")),
            format!("messages: {sent} to {to}"),
            "a crash loses everything not yet on disk".to_string(),
        ],
        vec![
            Choice {
                key: "persist".into(),
                label: "Persist the write, then send".into(),
                right: persist_first,
                explanation: persist.clone(),
            },
            Choice {
                key: "send".into(),
                label: "Send the message, then persist".into(),
                right: !persist_first,
                explanation: send_first,
            },
        ],
    ))
}

/// After N2 crashes at a seam of a Ready that carried its vote: is the vote on its disk?
fn crash_question(change: &Change<'_, LogWorld>) -> Option<Prompt> {
    let world = change.world;
    let (record, _) = durable_record(&world.servers()[N2]);
    let vote = record.accepts.get(&Slot(1));
    let seam = match change.before.held[N2] {
        Some((false, _)) => "before-persist",
        Some((true, false)) => "before-send",
        None if vote.is_some() => "after-send",
        _ => return None,
    };
    let on_disk = vote.is_some();
    let leader_ballot = world.servers()[0]
        .host
        .node()
        .and_then(|leader| leader.ballot())
        .map_or_else(String::new, |ballot| {
            format!(" at {}", ballot_name(world, ballot))
        });
    let vote_text = vote.map_or_else(String::new, |vote| {
        format!(
            "{} at {}",
            world.entry_name(&vote.entry),
            ballot_name(world, vote.ballot)
        )
    });
    let what = match seam {
        "before-persist" => "before its write was durable",
        "before-send" => "after persisting, before sending",
        _ => "after its Accepted left",
    };
    let (yes, no) = if on_disk {
        (
            format!(
                "Yes: the vote ({vote_text}) was written before the crash, so it survives it. \
                 Whoever counted N2's Accepted can keep counting it: N2 will report this vote to \
                 any Phase 1 after it restarts."
            ),
            format!(
                "The vote ({vote_text}) reached the disk before the crash; only volatile state \
                 is lost. That is the point of persisting first: every vote anyone heard about \
                 is one N2 still holds."
            ),
        )
    } else {
        (
            format!(
                "The write was still in N2's Ready when it crashed: it never reached the disk, so \
                 N2 restarts with no vote for slot 1{leader_ballot}. No harm done: its Accepted \
                 never left either, so nobody counted a vote that is now gone, and N1's next beat \
                 sends the Accept again."
            ),
            format!(
                "No: the vote for slot 1{leader_ballot} was still in N2's Ready, not on disk. \
                 Nothing was lost that anyone relied on, because its Accepted had not left: N1 \
                 will send the Accept again."
            ),
        )
    };
    let mut prompt = Prompt::question(
        "crash",
        format!("N2 crashed {what}. Does its disk hold its vote for slot 1?"),
        vec![format!(
            "N2 has written to its disk {} times since it began, each write checked when \
                 it restarts",
            world.servers()[N2].disk.len()
        )],
        vec![
            Choice {
                key: "yes".into(),
                label: "Yes".into(),
                right: on_disk,
                explanation: yes,
            },
            Choice {
                key: "no".into(),
                label: "No".into(),
                right: !on_disk,
                explanation: no,
            },
        ],
    );
    prompt.record = Some(seam.to_string());
    Some(prompt)
}

/// Plays "send first" on, in a copy of the world that allows it, up to the violation the
/// World's checkers find: N2 sends and crashes, N1 learns slot 1 chosen, N2 restarts without
/// its vote, N3 leads over {N2, N3} and gets C2's command chosen in slot 1. `None` when the
/// schedule does not apply (a spent budget, an earlier durable vote) or finds nothing.
fn send_first_played_on(world: &LogWorld) -> Option<String> {
    let mut demo = world
        .with_negative_control(NegativeControl::SendBeforePersist)
        .ok()?;
    let (n1, n2, n3) = (
        world.config().node_id(0),
        world.config().node_id(1),
        world.config().node_id(2),
    );
    let c2 = world.config().client_id(1);
    demo.apply(&LogAction::Send(n2)).ok()?;
    demo.apply(&LogAction::Crash(n2)).ok()?;
    step(&mut demo, "deliver N2->N1 Accepted")?;
    finish(&mut demo, n1)?;
    demo.apply(&LogAction::Restart(n2)).ok()?;
    finish(&mut demo, n2)?;
    for _ in 0..world.config().election_timeout_ticks {
        if demo.servers()[2].held.is_some() {
            break;
        }
        demo.apply(&LogAction::Tick(n3)).ok()?;
    }
    finish(&mut demo, n3)?;
    for (text, node) in [
        ("deliver N3->N2 Prepare", n2),
        ("deliver N2->N3 Promise", n3),
    ] {
        step(&mut demo, text)?;
        finish(&mut demo, node)?;
    }
    demo.apply(&LogAction::Request {
        client: c2,
        node: n3,
    })
    .ok()?;
    for (text, node) in [
        ("deliver C2->N3 Write", n3),
        ("deliver N3->N2 Accept", n2),
        ("deliver N2->N3 Accepted", n3),
    ] {
        step(&mut demo, text)?;
        finish(&mut demo, node)?;
    }
    demo.violations()
        .iter()
        .find(|violation| violation.property == Property::Agreement)
        .map(|violation| violation.detail.clone())
}

/// Applies one script step to a demonstration world.
fn step(world: &mut LogWorld, text: &str) -> Option<()> {
    let action = world.parse_action(text).ok()?;
    world.apply(&action).ok()
}

/// Persists and sends whatever `node` holds, until it holds nothing (a few rounds at most).
fn finish(world: &mut LogWorld, node: paros_core::NodeId) -> Option<()> {
    let index = usize::from(node.get()) - 1;
    for _ in 0..8 {
        let Some(held) = world.servers()[index].held.clone() else {
            return Some(());
        };
        let action = if held.persisted() {
            LogAction::Send(node)
        } else {
            LogAction::Persist(node)
        };
        world.apply(&action).ok()?;
    }
    None
}
