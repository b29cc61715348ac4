//! The parts of the stage a board draws: its nodes, its messages in flight, its buttons, the
//! chosen value and, in Act II, the cluster. Each [`Board`](crate::board::Board) fills these in;
//! [`View`](crate::view::View) puts them on the stage with what the game adds (the level, the
//! prompt, the goal).
//!
//! They are part of the JSON contract documented in `widgets/API.md`: the field names here are
//! that contract.

use serde::Serialize;

/// A vote, as the stage prints it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct VoteView {
    /// The ballot, `round.owner`.
    pub ballot: String,
    /// The value.
    pub value: String,
}

/// One box of a node's log column.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct SlotView {
    /// The slot number, from 1.
    pub slot: u32,
    /// `empty`, `undecided` or `chosen`; Act II adds `hole` (not known chosen, below a slot
    /// that is); Act III adds `trimmed` (at or below the node's floor: decided and compacted
    /// into its trim point, no entry kept).
    pub state: &'static str,
    /// The ballot of the vote in the box, if any.
    pub ballot: Option<String>,
    /// The value of the vote in the box, if any (Act II: the entry, `x=1 (C1#1)` or `no-op`).
    pub value: Option<String>,
    /// Act II: whether the node has applied this slot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied: Option<bool>,
}

/// A Promise a proposer holds.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct PromiseView {
    /// The acceptor that promised.
    pub from: String,
    /// The vote it reported.
    pub accepted: Option<VoteView>,
}

/// A node. Role-specific fields are absent for the other role.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize)]
pub struct NodeView {
    /// A1.., P1..
    pub name: String,
    /// `acceptor` or `proposer`.
    pub role: &'static str,
    /// Whether its wire is cut.
    pub silent: bool,
    /// Whether the player answers for it on the next move.
    pub by_hand: bool,
    /// Acceptor: its promise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promised: Option<Option<String>>,
    /// Acceptor: its accepted record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accepted: Option<Option<VoteView>>,
    /// Proposer: its own value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Proposer: `idle`, `preparing`, `accepting`, `learned`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase: Option<&'static str>,
    /// Proposer: the ballot it runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ballot: Option<Option<String>>,
    /// Proposer: the Promises held for that ballot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promises: Option<Vec<PromiseView>>,
    /// Proposer: the value sent in its Accepts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proposal: Option<Option<String>>,
    /// Proposer: the acceptors that voted for its ballot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accepted_by: Option<Vec<String>>,
    /// Proposer: the value it learned is chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub learned: Option<Option<String>>,
    /// Proposer: retries left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retries_left: Option<u32>,
    /// The node's log as boxes (one for an Act I acceptor, none for a proposer).
    pub slots: Vec<SlotView>,
    /// Act II: whether the node is running (false while crashed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub up: Option<bool>,
    /// Act II: the leader this node last heard from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leader: Option<Option<String>>,
    /// Act II: ticks since the node last heard a leader (the election arc).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ticks: Option<u32>,
    /// Act II: the ticks at which a follower stands for election.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_ticks: Option<u32>,
    /// Act II: every slot up to here is known chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chosen_index: Option<u64>,
    /// Act II: every slot up to here is applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied_index: Option<u64>,
    /// Act III: the floor: every slot up to here is compacted into the trim point.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub floor: Option<u64>,
    /// Act II: the first hole below a known-chosen slot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chosen_gap: Option<Option<u64>>,
    /// Act II: a candidate's promisers so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promised_by: Option<Vec<String>>,
    /// Act II: the key-value store as applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub store: Option<Vec<KeyValueView>>,
    /// Act II: reads waiting for their watermark.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reads: Option<Vec<ReadView>>,
    /// Act II: the disk: the durable record, and the held `Ready` of a stepwise world.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disk: Option<DiskView>,
}

/// Act II: one key of a node's store.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct KeyValueView {
    /// The key.
    pub key: String,
    /// Its value.
    pub value: String,
}

/// Act II: a read waiting at a node for its watermark.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ReadView {
    /// The client that asked.
    pub client: String,
    /// The key.
    pub key: String,
    /// The nodes that reported their highest accepted slot.
    pub answered_by: Vec<String>,
    /// The highest slot reported so far.
    pub watermark: u64,
}

/// Act II: one slot of a durable record.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct RecordSlotView {
    /// The slot.
    pub slot: u64,
    /// The ballot of the accepted record.
    pub ballot: String,
    /// The entry.
    pub entry: String,
}

/// Act II: a node's disk.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct DiskView {
    /// The promise on disk.
    pub promised: Option<String>,
    /// The accepted records on disk, by slot.
    pub accepts: Vec<RecordSlotView>,
    /// Every slot up to here is recorded as chosen.
    pub chosen_through: u64,
    /// How many framed writes the disk holds.
    pub frames: usize,
    /// Whether the last frame is torn (a crash in the middle of a write).
    pub torn: bool,
    /// A stepwise node's `Ready` not yet finished.
    pub held: Option<HeldView>,
    /// Act III: the trim point on disk, if one was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trim_point: Option<TrimPointView>,
    /// Act IV: the highest ballot this node handed off, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handed_off: Option<String>,
    /// Act IV: the highest ballot this node took by a handoff, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub took_handoff: Option<String>,
    /// Act IV: what a storage fault did to this disk, in words: wiped or unreadable (the
    /// library refuses the boot), or the slots whose vote frame is corrupt (unknown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fault: Option<DiskFaultView>,
}

/// Act IV: a storage fault on a disk, as the library judges it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct DiskFaultView {
    /// A few words for the node's box: `disk wiped`, `record unreadable`, `vote unknown: slot 1`.
    pub mark: String,
    /// The whole sentence: the library's refusal, or which votes it no longer knows.
    pub words: String,
}

/// Act III: a trim point: the state after every slot through `through`, sessions included.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct TrimPointView {
    /// Every slot up to here is compacted into it.
    pub through: u64,
    /// The key-value store at `through`.
    pub store: Vec<KeyValueView>,
    /// The client session table at `through`: each client's last applied request.
    pub sessions: Vec<SessionView>,
}

/// Act III: one row of a session table.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct SessionView {
    /// The client.
    pub client: String,
    /// The number of its last applied request.
    pub seq: u64,
}

/// Act II: a `Ready` being persisted and sent, step by step.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct HeldView {
    /// The writes, as they read (`Accept(slot 1, x=1 (C1#1) at 1.N1)`).
    pub writes: Vec<String>,
    /// The messages waiting for `send`.
    pub messages: Vec<String>,
    /// Whether the writes are durable.
    pub persisted: bool,
    /// Whether the messages have left.
    pub sent: bool,
}

/// Act II: what the whole cluster shows beside its nodes.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ClusterView {
    /// Every slot chosen so far, judged from the votes (a Phase-2 quorum voted for one entry at
    /// one ballot), not from what nodes have learned: decisions are forever.
    /// Invariant: one item per slot, in slot order.
    pub decided: Vec<DecidedView>,
    /// The clients.
    pub clients: Vec<ClientView>,
    /// The nodes cut off by a partition.
    pub partitioned: Vec<String>,
    /// The faults and retries still allowed.
    pub budget: BudgetView,
    /// Whether `persist` and `send` are separate moves.
    pub stepwise: bool,
    /// The safety properties broken so far (always empty in a level: the world never takes a
    /// wrong answer).
    pub violations: Vec<String>,
    /// With two clients or more: their history as the linearizability checker judges it.
    pub timeline: Option<TimelineView>,
    /// Over a grid quorum system: its rows and columns, and the column each slot decides in.
    pub grid: Option<GridView>,
    /// The proxy leaders, P1 first (none in a world without them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub proxies: Vec<ProxyView>,
}

/// Act IV: a proxy leader, which forwards a leader's Accepts and counts the Accepteds.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ProxyView {
    /// Its name: `P1`.
    pub name: String,
    /// Whether it runs; a crashed proxy keeps nothing.
    pub up: bool,
    /// What it counts, one line per (slot, ballot): `slot 1 at 1.N1: N2, N3`.
    pub counting: Vec<String>,
}

/// Act IV: a grid quorum system as the stage lays it out, from paros-core's `Grid`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct GridView {
    /// The rows, first to last, each its node names column by column (`[["N1", "N2"], ...]`):
    /// a full row is a Phase-1 quorum.
    pub rows: Vec<Vec<String>>,
    /// The columns, first to last, each its node names row by row: a full column decides the
    /// slots it is given.
    pub columns: Vec<Vec<String>>,
    /// The deciding column of every slot from 1 to the highest in play or voted in.
    pub slots: Vec<GridSlotView>,
    /// The slot the stage marks (that of the newest Accept or Accepted on the wire, else the
    /// highest slot voted in, else 1) and its deciding column.
    pub in_play: GridSlotView,
}

/// A slot and the column that decides it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub struct GridSlotView {
    /// The slot.
    pub slot: u64,
    /// The index, from 0, of the column that decides it (`Grid::deciding_column`).
    pub column: usize,
}

/// Act III: the clients' history on one clock, with the checker's verdict. Each client's
/// calls, with their intervals, are its [`ClientView::history`].
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct TimelineView {
    /// The clients' clock now: every call and every answer is one tick of it, from 0.
    pub now: u64,
    /// The verdict in words.
    pub verdict: String,
    /// A linearizable history's witness: its operations in one order the checker found
    /// (`C1 write x=1`), each taking effect between its call and its answer.
    pub order: Vec<String>,
    /// Each condition of linearizability and what the checker says of it.
    pub conditions: Vec<ConditionView>,
}

/// One condition of linearizability, judged on the history.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ConditionView {
    /// `real-time order`.
    pub name: &'static str,
    /// `kept`, `broken`, or `unjudged` (the checker stopped at another key or gave up).
    pub state: &'static str,
}

/// Act II: one chosen slot.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct DecidedView {
    /// The slot.
    pub slot: u64,
    /// The entry chosen.
    pub entry: String,
    /// The first ballot at which a quorum voted for it (`1.N2`).
    pub ballot: String,
    /// The nodes that voted for it at that ballot, in id order (`["N2", "N3"]`).
    pub by: Vec<String>,
}

/// Act II: a client and its calls.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ClientView {
    /// C1..
    pub name: String,
    /// Its whole program, in order (`write x=1`, `read x`).
    pub program: Vec<String>,
    /// The next operation it will send, or resend, if any.
    pub next: Option<String>,
    /// The call awaiting its answer, if any.
    pub outstanding: Option<CallView>,
    /// Every call it made, in order.
    pub history: Vec<CallView>,
}

/// Act II: one client call.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct CallView {
    /// The operation, `write x=1` or `read x`.
    pub op: String,
    /// When it was called, in client events.
    pub call: u64,
    /// When it returned, if it has.
    pub ret: Option<u64>,
    /// A read's answer, once returned (`null` for a key never written).
    pub read: Option<String>,
}

/// Act II: the budgets left.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct BudgetView {
    /// Messages that may still be lost.
    pub drops: u32,
    /// Messages that may still be duplicated.
    pub duplicates: u32,
    /// Crashes left.
    pub crashes: u32,
    /// Torn writes left.
    pub torn_writes: u32,
    /// Partitions left.
    pub partitions: u32,
    /// Ticks left, across all nodes.
    pub ticks: u32,
    /// Client resends left.
    pub client_resends: u32,
}

/// A message in flight.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct MessageView {
    /// The number of its id (`m7` is 7).
    pub id: u32,
    /// Sender.
    pub from: String,
    /// Receiver.
    pub to: String,
    /// `prepare`, `promise`, `accept`, `accepted`, `nack`.
    pub kind: &'static str,
    /// How it reads: `Prepare(1.P1)`.
    pub text: String,
    /// The ballot it is about; empty for Act II's client and read messages, which carry none.
    pub ballot: String,
    /// Act II: the slot it is about, for Accept and Accepted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slot: Option<u64>,
    /// Whether its wire is cut.
    pub cut: bool,
    /// Why delivering it now would change nothing but a refusal, as the receiver's real step
    /// on a copy says (Act I and the log): an old-ballot message left on the wire is harmless.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub harmless: Option<String>,
    /// What the player may do with it now.
    pub actions: Vec<&'static str>,
}

/// An action as JSON, both ways: `{"kind": "deliver", "message": 3}`.
///
/// Written by serde's internally tagged form; read field by field from a `serde_json::Value`
/// (the crate's `input` module), never through `Deserialize`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ActionJson {
    /// Deliver a message.
    Deliver {
        /// Its id's number.
        message: u32,
    },
    /// Drop a message.
    Drop {
        /// Its id's number.
        message: u32,
    },
    /// Duplicate a message.
    Duplicate {
        /// Its id's number.
        message: u32,
    },
    /// Start a proposer.
    Start {
        /// Its name.
        node: String,
    },
    /// Retry a proposer.
    Retry {
        /// Its name.
        node: String,
    },
    /// Go to the next stage.
    NextStage,
    /// Act II: one tick of a node's clock.
    Tick {
        /// Its name.
        node: String,
    },
    /// Act II: a node crashes.
    Crash {
        /// Its name.
        node: String,
    },
    /// Act II: a node crashes in the middle of persisting.
    TornCrash {
        /// Its name.
        node: String,
    },
    /// Act IV: a crashed node's disk is erased.
    Wipe {
        /// Its name.
        node: String,
    },
    /// Act IV: one record on a crashed node's disk is damaged: its latest frame fails its
    /// checksum.
    Corrupt {
        /// Its name.
        node: String,
        /// The record, as the world names it: `promise`, or `vote 1`.
        record: String,
    },
    /// Act II: a crashed node restarts from its disk.
    Restart {
        /// Its name.
        node: String,
    },
    /// Act II, stepwise: a node's held writes become durable.
    Persist {
        /// Its name.
        node: String,
    },
    /// Act II, stepwise: a node's held messages leave.
    Send {
        /// Its name.
        node: String,
    },
    /// Act II: a node is cut off from every other.
    Partition {
        /// Its name.
        node: String,
    },
    /// Act II: every cut link is restored.
    Heal,
    /// Act III: an operator asks a leader to compact its log through what it has applied.
    Trim {
        /// The leader's name.
        node: String,
    },
    /// Act IV: a leader hands its ballot to another node, which leads at it with no Phase 1.
    HandOff {
        /// The leader's name.
        node: String,
        /// The successor's name.
        to: String,
    },
    /// Act II: a client sends its next operation (or its outstanding one again) to a node.
    Request {
        /// The client's name.
        client: String,
        /// The node's name.
        node: String,
    },
    /// Act II, with heartbeat delivery on: a leader ticks and its heartbeats, the acks and the
    /// catch-up they cause are delivered.
    Beat {
        /// The leader's name.
        node: String,
    },
    /// Act IV, Matchmaker Paxos: a leader whose value is chosen in its round asks the
    /// matchmakers to collect the configurations below it (M4).
    Collect {
        /// The leader's name.
        node: String,
    },
    /// Act IV, Matchmaker Paxos: a leader holding its garbage-collection proof retires the
    /// acceptors it removed (M5).
    Retire {
        /// The leader's name.
        node: String,
    },
    /// Act IV, Matchmaker Paxos: the reconfigurer starts replacing the matchmakers (M6).
    Replace {
        /// The reconfigurer's name.
        node: String,
    },
}

/// A button.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ControlView {
    /// What to send to `act`.
    pub action: ActionJson,
    /// What the button says.
    pub label: String,
    /// What pressing it does, in a sentence, where the label alone does not say (Act I's Start
    /// and Retry).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

/// The chosen value.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ChosenView {
    /// The value.
    pub value: String,
    /// The lowest ballot at which it was chosen.
    pub ballot: String,
    /// Who voted for that ballot.
    pub by: Vec<String>,
}

/// Act IV, Matchmaker Paxos: the matchmaker plane, apart from the acceptors, and the
/// configurations the rounds run in.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct MatchmakingView {
    /// The matchmakers, the first generation first, then any successors.
    pub matchmakers: Vec<MatchmakerView>,
    /// Every configuration a leader runs or a matchmaker stores, lowest round first.
    pub configurations: Vec<ConfigurationView>,
    /// The leaders, one round each, in id order.
    pub leaders: Vec<MmLeaderView>,
}

/// A matchmaker: what it stores, its garbage-collection watermark, and whether it is stopped.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct MatchmakerView {
    /// `M1`.
    pub name: String,
    /// Whether it runs (false while crashed; its disk keeps what it stores).
    pub up: bool,
    /// Whether it is stopped: its generation is being replaced, so it records no more rounds.
    pub stopped: bool,
    /// Its garbage-collection watermark, `2.L2`: every configuration below it is forgotten.
    pub watermark: Option<String>,
    /// What it stores, lowest round first: `1.L1 → C1`.
    pub stored: Vec<StoredView>,
}

/// One round a matchmaker stores, and the configuration that round runs in.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct StoredView {
    /// The round, `1.L1`.
    pub round: String,
    /// The configuration's name, as [`ConfigurationView::name`] gives it.
    pub config: String,
}

/// A configuration: the acceptors a round runs in, drawn as a group.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ConfigurationView {
    /// `C1`, `C2`...: numbered by the lowest round that runs in it.
    pub name: String,
    /// The rounds that run in it, `1.L1`.
    pub rounds: Vec<String>,
    /// Its acceptors, in id order.
    pub members: Vec<String>,
    /// Its members that the newest configuration leaves out: removed, though they still answer
    /// Phase 1 until they retire.
    pub removed: Vec<String>,
    /// Its removed members that have retired (M5).
    pub retired: Vec<String>,
    /// Whether every matchmaker that runs has collected it (its rounds are below the
    /// watermark).
    pub collected: bool,
}

/// A leader of one round of Matchmaker Paxos.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct MmLeaderView {
    /// `L1`.
    pub name: String,
    /// Whether it runs.
    pub up: bool,
    /// Its round, `2.L2`.
    pub round: String,
    /// The name of its configuration, `C2`.
    pub config: String,
    /// `idle`, `matching`, `phase1`, `phase2`, `chosen`.
    pub stage: &'static str,
    /// Its history `H_i`, once `f+1` matchmakers replied: `1.L1 → C1`.
    pub history: Vec<StoredView>,
    /// The acceptors that promised its round.
    pub promised_by: Vec<String>,
    /// The acceptors of its configuration that voted for its round.
    pub accepted_by: Vec<String>,
    /// The value sent in Phase 2.
    pub proposal: Option<String>,
    /// Its own value.
    pub value: String,
    /// The watermark `f+1` matchmakers acknowledged, once it holds the proof (M5).
    pub gc_proof: Option<String>,
}
