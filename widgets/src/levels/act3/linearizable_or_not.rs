//! `act3/linearizable-or-not`: two clients, one key, and a leader change. C1 wrote x=1
//! through N1; the player moves the leadership, has C2 read across the change, and tries to
//! make a read lie: a stale read at the old leader, a read at a node that missed a write.
//!
//! Every read that returns asks which other answer the history would have allowed. The right
//! answers are the linearizability checker's verdicts on the history with that answer put in
//! (`history::verdict_if_read_had`); a wrong one is told the condition it breaks and why.
//! Serving each read is the real node's business: the serve-or-wait prompt asks it on a clone.

use super::super::act2::{READS_ARE_NOT_FREE, pin, running};
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::prompt::PromptKind;
use crate::prompt::{Choice, Prompt, drop_doubles};
use crate::replicated_log::{LogMove, history};
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use paros_core::NodeId;
use paros_sim::level_worlds;
use paros_sim::linearizability::Verdict;
use paros_sim::replicated_log::{ClientOp, LogAction, LogWorld};

/// What a right answer records once a read returns after the leadership moved off N1.
const ACROSS: &str = "a read returned after the leadership moved";

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act3/linearizable-or-not",
    act: 3,
    title: "Linearizable or not",
    briefing: native_text(include_str!("linearizable_or_not.md")),
    by_hand: "Move the leadership, read across the change, and try to make a read return a stale value",
    teaches: "Linearizability as conditions on the clients' history: real-time order, program order, read-your-writes, a legal register",
    goal: "Every operation of C1 and C2 returns, a read crosses a leader change, and the checker finds the history linearizable",
    chapter: READS_ARE_NOT_FREE,
    scenario: "act3-linearizable-or-not",
    symbols: native_only(&["read_may_be_served"]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Question("other-answer"),
            text: "An answer breaks linearizability when no single order of the operations fits both the \
         clock and the register: look at which operations had returned before the read began.",
        },
        Hint {
            about: HintFor::Prompt(PromptKind::ServeOrWait),
            text: "To move the leadership, cut N1 off and tick N2 to its timeout. A read at N1 afterwards \
         is not stale: N1 must hear from a quorum after the read arrived, and the quorum reports \
         how far the log goes.",
        },
    ],
    pins: &[
        pin(Automation::ApplyWalk, true),
        pin(Automation::P2c, true),
        pin(Automation::Heartbeats, false),
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "Two clients, one key",
        note: "N1 leads at 1.N1 and answered C1 \"written\" for x=1, chosen by N1 and N2. C1 \
               will write x=2 and read x; C2 will read x twice.",
        world: &level_worlds::LINEARIZABLE_OR_NOT,
    }],
    solution: native_only(&[
        "partition N1",
        "tick N2",
        "tick N2",
        "deliver N2->N3 Prepare",
        "deliver N3->N2 Promise",
        "request C2 N2",
        "deliver C2->N2 Read",
        "answer wait",
        "deliver N2->N3 Accept",
        "deliver N3->N2 Accepted",
        "answer wait",
        "deliver N2->N3 ReadIndex",
        "deliver N3->N2 ReadIndexReply",
        "answer serve",
        "deliver N2->C2 Reply",
        "answer none",
        "request C1 N2",
        "deliver C1->N2 Write",
        "deliver N2->N3 Accept",
        "deliver N3->N2 Accepted",
        "deliver N2->C1 Reply",
        "heal",
        "request C2 N1",
        "deliver C2->N1 Read",
        "answer wait",
        "deliver N1->N2 ReadIndex",
        "deliver N2->N1 ReadIndexReply",
        "answer wait",
        "deliver N2->N1 Accept(2.N2, slot 2",
        "answer wait",
        "tick N2",
        "deliver N2->N1 Heartbeat",
        "answer serve",
        "deliver N1->C2 Reply",
        "answer none",
        "request C1 N2",
        "deliver C1->N2 Read",
        "answer wait",
        "deliver N2->N3 ReadIndex",
        "deliver N3->N2 ReadIndexReply",
        "answer serve",
        "deliver N2->C1 Reply",
        "answer none",
    ]),
    solution_unlocked: &[
        Automation::AcceptorReplies,
        Automation::P2c,
        Automation::ApplyWalk,
    ],
    rules: &LinearizableOrNot,
};

struct LinearizableOrNot;

/// Whether some node has promised a ballot of a node other than N1: the leadership moved.
fn leadership_moved(world: &LogWorld) -> bool {
    let first = world.config().node_id(0);
    (1..=world.servers().len()).any(|number| {
        running(world, number)
            .and_then(|node| node.promised())
            .is_some_and(|ballot| ballot.node != first)
    })
}

/// The history's call for the read that returned in this step, if one did.
fn read_returned_now(change: &Change<'_, LogWorld>) -> Option<usize> {
    let world = change.world;
    let now = history::now(world);
    if now <= change.before.events {
        return None;
    }
    world
        .history()
        .iter()
        .position(|call| matches!(call.op, ClientOp::Read { .. }) && call.ret == Some(now - 1))
}

/// Every value some client's program writes to `key`, once each, in program order.
fn values_written(world: &LogWorld, key: &str) -> Vec<String> {
    let mut values: Vec<String> = Vec::new();
    for op in world.config().clients.iter().flatten() {
        if let ClientOp::Write {
            key: written,
            value,
        } = op
            && written.as_str() == key
            && !values.iter().any(|seen| seen == value.as_str())
        {
            values.push(value.to_string());
        }
    }
    values
}

/// What the checker says of one other answer: `Ok` with its witness order when the history
/// would still be linearizable, `Err` with the condition it breaks and why.
fn judge(world: &LogWorld, index: usize, value: Option<&str>) -> Result<(), String> {
    match history::verdict_if_read_had(world, index, value) {
        Some(Verdict::Linearizable { .. }) => Ok(()),
        Some(Verdict::NotLinearizable {
            reason, condition, ..
        }) => Err(format!(
            "The checker finds no order that fits: this answer breaks {condition}, since {}.",
            history::client_names(world, &reason)
        )),
        Some(Verdict::TooLarge { reason, .. }) => Err(format!("The checker gave up: {reason}.")),
        None => Err("The history would not be well formed.".into()),
    }
}

fn shown(value: Option<&str>) -> String {
    value.unwrap_or("nothing").to_string()
}

impl Rules<LogWorld> for LinearizableOrNot {
    fn goal(&self, run: &Run<LogWorld>, memory: &Memory) -> Goal {
        let world = run.world();
        if let Some(verdict) = history::verdict(world)
            && !verdict.is_linearizable()
        {
            return Goal::Failed(history::client_names(world, &verdict.to_string()));
        }
        let across = memory.records.contains(ACROSS);
        match (world.all_clients_done(), across) {
            (true, true) => Goal::Reached,
            (true, false) => Goal::Failed(
                "every operation returned, but none after the leadership moved off N1: no read \
                 crossed a leader change"
                    .into(),
            ),
            _ => Goal::Open,
        }
    }

    /// A read returned: which other answer would the history have allowed?
    fn question(&self, change: &Change<'_, LogWorld>) -> Option<Prompt> {
        let LogMove::World(LogAction::Deliver(_)) = change.action else {
            return None;
        };
        let world = change.world;
        let index = read_returned_now(change)?;
        let call = &world.history()[index];
        let ClientOp::Read { key } = &call.op else {
            return None;
        };
        let client = world.name(call.client);
        let returned = call.read.as_ref().map(|value| value.as_str());
        let alternatives: Vec<Option<String>> = std::iter::once(None)
            .chain(values_written(world, key.as_str()).into_iter().map(Some))
            .filter(|value| value.as_deref() != returned)
            .collect();
        let judged: Vec<(Option<String>, Result<(), String>)> = alternatives
            .into_iter()
            .map(|value| {
                let verdict = judge(world, index, value.as_deref());
                (value, verdict)
            })
            .collect();
        let mut choices: Vec<Choice> = judged
            .iter()
            .map(|(value, verdict)| other_answer(&client, value.as_deref(), verdict))
            .collect();
        choices.push(only_this(&client, returned, &judged));
        drop_doubles(&mut choices); // a program could write a value named "none" or "nothing"
        let ret = call.ret.unwrap_or_default();
        let mut prompt = Prompt::question(
            "other-answer",
            format!(
                "{client}'s read of {key} returned {}. Which other answer would this history \
                 have allowed?",
                shown(returned)
            ),
            vec![
                format!("the read was called at {} and returned at {ret}", call.call),
                "the timeline shows every operation's interval".into(),
            ],
            choices,
        );
        prompt.record = leadership_moved(world).then(|| ACROSS.to_string());
        Some(prompt)
    }

    fn checklist(&self, run: &Run<LogWorld>, memory: &Memory) -> Vec<ChecklistItem> {
        let world = run.world();
        let reads_by = |client: NodeId| {
            world
                .history()
                .iter()
                .filter(|call| {
                    call.client == client
                        && call.ret.is_some()
                        && matches!(call.op, ClientOp::Read { .. })
                })
                .count()
        };
        let (c1, c2) = (world.config().client_id(0), world.config().client_id(1));
        vec![
            ChecklistItem {
                label: "The leadership moves off N1".into(),
                done: leadership_moved(world),
            },
            ChecklistItem::recorded("A read returns after the leadership moved", memory, ACROSS),
            ChecklistItem {
                label: "C2 reads x twice, C1 writes x=2 and reads x".into(),
                done: reads_by(c2) == 2 && reads_by(c1) == 1,
            },
            ChecklistItem {
                label: "The checker finds the history linearizable".into(),
                done: history::verdict(world).is_some_and(|verdict| verdict.is_linearizable()),
            },
        ]
    }
}

/// The choice "`value`": right when the checker still finds an order with it.
fn other_answer(client: &str, value: Option<&str>, verdict: &Result<(), String>) -> Choice {
    let label = shown(value);
    Choice {
        key: label.clone(),
        label: label.clone(),
        right: verdict.is_ok(),
        explanation: match verdict {
            Ok(()) => format!(
                "Right: with {client}'s read returning {label}, the checker still finds an order \
                 that fits the clock and the register. The read overlapped a write, so it may \
                 take effect on either side of it."
            ),
            Err(why) => why.clone(),
        },
    }
}

/// The choice "none other": right when every other answer breaks a condition.
fn only_this(
    client: &str,
    returned: Option<&str>,
    judged: &[(Option<String>, Result<(), String>)],
) -> Choice {
    let allowed: Vec<String> = judged
        .iter()
        .filter(|(_, verdict)| verdict.is_ok())
        .map(|(value, _)| shown(value.as_deref()))
        .collect();
    Choice {
        key: "none".into(),
        label: format!("None: only {}", shown(returned)),
        right: allowed.is_empty(),
        explanation: if allowed.is_empty() {
            format!(
                "Right: every other answer leaves no order of the operations that fits both the \
                 clock and the register. {client}'s read could return {} and nothing else.",
                shown(returned)
            )
        } else {
            format!(
                "The checker still finds an order with {client}'s read returning {}: the read \
                 overlapped a write, so it may take effect on either side of it.",
                allowed.join(" or ")
            )
        },
    }
}
