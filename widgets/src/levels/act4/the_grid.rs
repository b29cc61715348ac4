//! `act4/the-grid`: four nodes in a 2x2 grid, where a full row elects and slot `s` is decided
//! only by its own column. The player elects N1 by a row, decides slot 1 on column 1 and slot 2
//! on column 2, then delivers a stray Accept to a node outside slot 2's column.
//!
//! Three level questions, each asked while the message that settles it is on the wire and each
//! judged by paros-core's grid on the real state: will this Promise complete a row
//! (`heard_from_a_discovery_quorum`)? Does this vote decide its slot
//! (`chosen_by_a_recording_quorum`)? Once the slot is decided, does a late vote count towards it
//! at all (`Quorums::is_phase2_quorum_at`)?

use super::BEYOND_MULTI_PAXOS;
use crate::automation::Automation;
use crate::level::{Hint, HintFor, Level, Rules, Stage, native_only, native_text};
use crate::levels::act2::{pin, running};
use crate::prompt::{Choice, Prompt};
use crate::replicated_log::{LogMove, ballot_name};
use crate::state::{Change, ChecklistItem, Goal, Memory, Run};
use crate::words::{deciding_column, grid_rows, log_set_name as set_name};
use paros_core::log::{LogMessage, LogRole, Slot};
use paros_core::log::{chosen_by_a_recording_quorum, heard_from_a_discovery_quorum};
use paros_core::{Ballot, Grid, NodeId, NodeSet, QuorumSystem, Quorums};
use paros_sim::level_worlds;
use paros_sim::replicated_log::{LogAction, LogWorld};

/// The level.
pub static LEVEL: Level<LogWorld> = Level {
    id: "act4/the-grid",
    act: 4,
    title: "The grid",
    briefing: native_text(include_str!("the_grid.md")),
    by_hand: "Decide two slots on two columns, then send a stray Accept outside a slot's column",
    teaches: "A row elects and a column decides, and every row meets every column",
    goal: "Slot 1 decided by column 1, slot 2 by column 2, and a vote outside its slot's \
           column judged",
    chapter: BEYOND_MULTI_PAXOS,
    scenario: "act4-grid",
    symbols: native_only(&[
        "heard_from_a_discovery_quorum",
        "chosen_by_a_recording_quorum",
        "Quorums::is_phase2_quorum_at",
        "Grid::deciding_column",
    ]),
    unlocks: None,
    hints: &[
        Hint {
            about: HintFor::Question("row"),
            text: "A row is {N1, N2} or {N3, N4}; a column is {N1, N3} or {N2, N4}. Promises count when \
         they fill a row; votes count when they fill the slot's own column.",
        },
        Hint {
            about: HintFor::Question("column"),
            text: "`Grid::deciding_column` gives slot 1 to column 1, {N1, N3}, and slot 2 to column 2, \
         {N2, N4}. A vote from \
         the other column adds nothing to a slot, however many rows it touches.",
        },
        Hint {
            about: HintFor::Question("stray"),
            text: "Votes for a slot count only in that slot's own column. Ask which column the voter stands \
         in, and which column `Grid::deciding_column` gives the slot.",
        },
    ],
    pins: &[
        pin(Automation::P2c, true),
        pin(Automation::ApplyWalk, true),
        pin(Automation::Heartbeats, false),
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "Rows elect, columns decide",
        note: "N1-N4 stand in a 2x2 grid: rows {N1, N2} and {N3, N4}, columns {N1, N3} and \
               {N2, N4}. N1 has timed out and sent Prepare(1.N1) to the other three; C1 wants \
               to write x=1, then x=2.",
        world: &level_worlds::THE_GRID,
    }],
    solution: native_only(&[
        "deliver N1->N3 Prepare",
        "answer no",
        "deliver N3->N1 Promise",
        "deliver N1->N2 Prepare",
        "answer yes",
        "deliver N2->N1 Promise",
        "request C1 N1",
        "deliver C1->N1 Write",
        "deliver N1->N3 Accept(1.N1, slot 1",
        "answer yes",
        "deliver N3->N1 Accepted",
        "deliver N1->C1 Reply",
        "request C1 N1",
        "deliver C1->N1 Write",
        "deliver N1->N2 Accept(1.N1, slot 2",
        "answer no",
        "deliver N1->N4 Accept(1.N1, slot 2",
        "answer yes",
        "deliver N1->N3 Accept(1.N1, slot 2",
        "answer no",
    ]),
    solution_unlocked: &[Automation::P2c, Automation::ApplyWalk],
    rules: &TheGrid,
};

/// What a right answer records when slot 1 is decided by its column.
const SLOT_1_DECIDED: &str = "slot 1 decided by its column";
/// What a right answer records when slot 2 is decided by its column.
const SLOT_2_DECIDED: &str = "slot 2 decided by its column";
/// What a right answer records when a vote outside its slot's column is judged.
const STRAY_JUDGED: &str = "a vote outside its column judged";

struct TheGrid;

impl Rules<LogWorld> for TheGrid {
    fn goal(&self, run: &Run<LogWorld>, memory: &Memory) -> Goal {
        Goal::when_all_done(&self.checklist(run, memory))
    }

    fn checklist(&self, _run: &Run<LogWorld>, memory: &Memory) -> Vec<ChecklistItem> {
        let item = |label: &str, record: &str| ChecklistItem::recorded(label, memory, record);
        vec![
            item("Slot 1 decided by column 1, {N1, N3}", SLOT_1_DECIDED),
            item("Slot 2 decided by column 2, {N2, N4}", SLOT_2_DECIDED),
            item(
                "A vote outside its slot's column, and what it is worth",
                STRAY_JUDGED,
            ),
        ]
    }

    /// After a delivery that sent a Promise to a candidate or an Accepted from a voter: will
    /// the Promise fill a row, does the vote decide its slot, does a late vote count at all?
    fn question(&self, change: &Change<'_, LogWorld>) -> Option<Prompt> {
        let LogMove::World(LogAction::Deliver(_)) = change.action else {
            return None;
        };
        let world = change.world;
        let Quorums::Grid(grid) = world.config().quorum_system() else {
            return None;
        };
        world
            .in_flight()
            .iter()
            .filter(|message| message.id >= change.before.next_message)
            .find_map(|message| {
                let (from, to) = (message.envelope.from, message.envelope.to);
                match message.envelope.message {
                    LogMessage::Promise { ballot, .. } => {
                        row_question(world, &grid, from, to, ballot)
                    }
                    LogMessage::Accepted { ballot, slot } => {
                        vote_question(world, &grid, from, ballot, slot)
                    }
                    _ => None,
                }
            })
    }
}

/// A yes-or-no question; `right` is the key of the right choice.
fn yes_or_no(
    topic: &'static str,
    question: String,
    facts: Vec<String>,
    yes: Choice,
    no: Choice,
) -> Prompt {
    Prompt::question(topic, question, facts, vec![yes, no])
}

fn choice(key: &str, label: String, right: bool, explanation: String) -> Choice {
    Choice {
        key: key.into(),
        label,
        right,
        explanation,
    }
}

/// Will `promiser`'s Promise at `ballot` give the candidate `to` a full row?
fn row_question(
    world: &LogWorld,
    grid: &Grid,
    promiser: NodeId,
    to: NodeId,
    ballot: Ballot,
) -> Option<Prompt> {
    let candidate = running(world, usize::from(to.get()))?;
    let election = candidate.election()?;
    let standing = candidate.role() == LogRole::Candidate && candidate.ballot() == Some(ballot);
    if !standing || election.promised_by.contains(promiser) {
        return None;
    }
    let quorums = Quorums::Grid(*grid);
    let held = election.promised_by;
    let mut promised = held;
    promised.insert(promiser);
    let elects = heard_from_a_discovery_quorum(&quorums, promised);
    let (name, at, set) = (
        world.name(to),
        ballot_name(world, ballot),
        set_name(world, promised),
    );
    let rows = grid_rows(world, grid);
    let a_column = grid.is_phase2_quorum(promised) && !elects;
    let (yes_text, no_text) = if elects {
        (
            format!(
                "Right: {set} holds a full row of {rows}, so heard_from_a_discovery_quorum \
                 holds and {name} leads at {at}. Every column shares a node with that row, so \
                 any slot a column decided is reported in one of these Promises."
            ),
            format!(
                "{set} already holds a full row of {rows}. A row meets every column, the only \
                 sets that decide, so {name} has heard of every decided slot."
            ),
        )
    } else {
        let column = if a_column {
            format!(
                " {set} is a whole column: a column decides slots, but it does not elect. Some \
                 row's other node never answered, and a column without it could have decided \
                 a slot these Promises do not report."
            )
        } else {
            String::new()
        };
        (
            format!("{set} holds no full row of {rows}.{column}"),
            format!(
                "Right: {set} holds no full row of {rows}, so {name} keeps waiting at \
                 {at}.{column}"
            ),
        )
    };
    let facts = vec![
        format!(
            "{name} stands at {at}; promises so far: {}",
            set_name(world, held)
        ),
        format!("a Phase-1 quorum is a full row: {rows}"),
    ];
    let mut prompt = yes_or_no(
        "row",
        format!(
            "{}'s Promise at {at} is on its way to {name}. When it lands, does {name} hold a \
             full row?",
            world.name(promiser)
        ),
        facts,
        choice("yes", format!("Yes: {set} elects {name}"), elects, yes_text),
        choice("no", format!("No: {set} is no row"), !elects, no_text),
    );
    prompt.node = Some(name);
    Some(prompt)
}

/// `voter`'s vote at `ballot` in `slot`, just cast: before the slot is decided, does it decide
/// it? After, does it count towards it at all?
fn vote_question(
    world: &LogWorld,
    grid: &Grid,
    voter: NodeId,
    ballot: Ballot,
    slot: Slot,
) -> Option<Prompt> {
    let quorums = Quorums::Grid(*grid);
    let votes = world
        .votes_in(slot)
        .into_iter()
        .find(|votes| votes.ballot == ballot && votes.voters.contains(voter))?;
    let mut before = votes.voters;
    before.remove(voter);
    let entry = world.entry_name(&votes.entry);
    let facts = vec![
        format!(
            "votes for {entry} in slot {slot} at {}: {}",
            ballot_name(world, ballot),
            set_name(world, votes.voters)
        ),
        format!(
            "slot {slot} is decided by {}",
            deciding_column(world, grid, slot)
        ),
    ];
    if chosen_by_a_recording_quorum(&quorums, slot, before) {
        return Some(late_vote_question(world, grid, voter, slot, &entry, facts));
    }
    Some(decides_question(
        world,
        grid,
        voter,
        votes.voters,
        slot,
        &entry,
        facts,
    ))
}

/// Whether a vote from `voter` can ever count towards `slot`: some set of acceptors is no
/// Phase-2 quorum at `slot` without it and is one with it (`Quorums::is_phase2_quorum_at`).
fn counts_towards(quorums: &Quorums, slot: Slot, voter: NodeId) -> bool {
    let others: Vec<NodeId> = quorums
        .acceptors()
        .iter()
        .filter(|node| *node != voter)
        .collect();
    (0u32..1 << others.len()).any(|mask| {
        let without: NodeSet = others
            .iter()
            .enumerate()
            .filter(|(bit, _)| mask & (1 << bit) != 0)
            .map(|(_, node)| *node)
            .collect();
        let mut with = without;
        with.insert(voter);
        !quorums.is_phase2_quorum_at(slot, without) && quorums.is_phase2_quorum_at(slot, with)
    })
}

/// Does the vote that completed `voters` decide `slot`?
fn decides_question(
    world: &LogWorld,
    grid: &Grid,
    voter: NodeId,
    voters: NodeSet,
    slot: Slot,
    entry: &str,
    facts: Vec<String>,
) -> Prompt {
    let quorums = Quorums::Grid(*grid);
    let decided = chosen_by_a_recording_quorum(&quorums, slot, voters);
    let (set, column) = (set_name(world, voters), deciding_column(world, grid, slot));
    let missing = set_name(
        world,
        grid.deciding_column(slot)
            .iter()
            .filter(|node| !voters.contains(*node))
            .collect(),
    );
    let row_note = if grid.is_phase1_quorum(voters) {
        format!(" {set} is a full row: a row elects, but it decides nothing.")
    } else {
        String::new()
    };
    let row_note = row_note + &strays_note(world, grid, voters, slot);
    let (yes_text, no_text) = if decided {
        (
            format!(
                "Right: {set} holds {column}, so chosen_by_a_recording_quorum holds: {entry} \
                 is decided in slot {slot}, before any node learns it. Every row holds a node \
                 of that column, so any later leader hears of the vote."
            ),
            format!(
                "{set} already holds {column}, the one that decides slot {slot}: {entry} is \
                 chosen. Waiting for more voters buys nothing."
            ),
        )
    } else {
        (
            format!(
                "Slot {slot} is decided only by {column}, and {missing} has not voted.{row_note}"
            ),
            format!(
                "Right: slot {slot} waits for {column}; {missing} has not voted yet.{row_note}"
            ),
        )
    };
    let mut prompt = yes_or_no(
        "column",
        format!(
            "{} voted for {entry} in slot {slot}. Is slot {slot} decided now?",
            world.name(voter)
        ),
        facts,
        choice(
            "yes",
            format!("Yes: {column} is complete"),
            decided,
            yes_text,
        ),
        choice(
            "no",
            format!("No: {column} is not complete"),
            !decided,
            no_text,
        ),
    );
    if decided {
        prompt.record = match slot {
            Slot(1) => Some(SLOT_1_DECIDED.into()),
            Slot(2) => Some(SLOT_2_DECIDED.into()),
            _ => None,
        };
    }
    prompt
}

/// Who among `voters` stands outside `slot`'s deciding column, and why that vote adds
/// nothing to the slot (`Quorums::is_phase2_quorum_at` with and without it), in words; empty
/// when every voter is in the column.
fn strays_note(world: &LogWorld, grid: &Grid, voters: NodeSet, slot: Slot) -> String {
    let quorums = Quorums::Grid(*grid);
    let column = grid.deciding_column(slot);
    let strays: NodeSet = voters
        .iter()
        .filter(|node| !column.contains(*node))
        .collect();
    if strays.is_empty() {
        return String::new();
    }
    let within: NodeSet = voters
        .iter()
        .filter(|node| column.contains(*node))
        .collect();
    let verb = if strays.len() == 1 { "stands" } else { "stand" };
    format!(
        " {} {verb} outside {}: Quorums::is_phase2_quorum_at in slot {slot} is {} over {} and \
         {} over {} alone. A vote outside the slot's column adds nothing to it, however many \
         rows it fills.",
        set_name(world, strays),
        deciding_column(world, grid, slot),
        quorums.is_phase2_quorum_at(slot, voters),
        set_name(world, voters),
        quorums.is_phase2_quorum_at(slot, within),
        set_name(world, within),
    )
}

/// `voter` voted in `slot`, already decided: does its vote count towards the slot at all?
fn late_vote_question(
    world: &LogWorld,
    grid: &Grid,
    voter: NodeId,
    slot: Slot,
    entry: &str,
    facts: Vec<String>,
) -> Prompt {
    let quorums = Quorums::Grid(*grid);
    let counts = counts_towards(&quorums, slot, voter);
    let (name, column) = (world.name(voter), deciding_column(world, grid, slot));
    let own_row = grid
        .rows()
        .iter()
        .find(|row| row.contains(voter))
        .map_or_else(String::new, |row| set_name(world, *row));
    let (yes_text, no_text) = if counts {
        (
            format!(
                "Right: {name} is in {column}, so its vote is one slot {slot}'s quorum is \
                 made of; {entry} was decided already, and this vote is part of that column."
            ),
            format!(
                "{name} is in {column}, the column that decides slot {slot}: its vote is one \
                 of those Quorums::is_phase2_quorum_at counts there."
            ),
        )
    } else {
        (
            format!(
                "{name} is outside {column}, the only column that decides slot {slot}: \
                 Quorums::is_phase2_quorum_at never needs its vote there. It does meet the row \
                 {own_row}, which is all bare safety asks of a voter, but paros counts a slot's \
                 votes only in its own column."
            ),
            format!(
                "Right: {name} is outside {column}, so Quorums::is_phase2_quorum_at never \
                 needs its vote in slot {slot}: it counts for nothing there. {entry} is still \
                 decided, by the column."
            ),
        )
    };
    let mut prompt = yes_or_no(
        "stray",
        format!(
            "{name} voted for {entry} in slot {slot}, which is decided already. Does this vote \
             count towards slot {slot}?"
        ),
        facts,
        choice(
            "yes",
            format!("Yes: {name}'s vote counts in slot {slot}"),
            counts,
            yes_text,
        ),
        choice(
            "no",
            format!("No: it counts for nothing in slot {slot}"),
            !counts,
            no_text,
        ),
    );
    if !counts {
        prompt.record = Some(STRAY_JUDGED.into());
    }
    prompt
}
