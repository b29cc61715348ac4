//! The durable record: what a node keeps on disk, and the format it is kept in.
//!
//! A node's disk is an append-only sequence of [`Write`]s. Each is framed with its length, the
//! length's own checksum and the payload's checksum, so a write torn by a crash is detected on
//! restart and discarded: a last frame cut short was never acknowledged, because messages that
//! depend on a write leave only after it is durable ([`Ready`](crate::log::Ready)). A frame is
//! judged cut short only by a length whose checksum holds ([`check_header`], the torn-write
//! rule): a whole frame that fails a checksum, its length's included, even the last, was written
//! in full and may have been acknowledged: that is corruption, never trusted and never silently
//! dropped (Alagappan et al., "Protocol-Aware Recovery for Consensus-Based Storage", FAST 2018).
//!
//! C1, three answers: each frame begins with a [`RecordLabel`] (what the write is, and its
//! slot), checksummed apart from the payload, so a corrupt vote is known to be *that slot's*
//! vote. Recovery keeps what is readable and marks the slot unknown
//! ([`DurableRecord::unknown_votes`], C2); a corrupt promise, or any other corrupt write, makes
//! the whole record unreadable (C5: the node is a wiped node).

use crate::log::{Command, Entry, KvStore, Slot, SlotMap, SlotVote, TrimPoint};
use crate::{Ballot, NodeId, NodeSet, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::hash::{Hash, Hasher};

/// One durable write.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Write {
    /// Who this disk belongs to. The first write of every disk.
    Identity(NodeId),
    /// The acceptor promised this ballot.
    Promise(Ballot),
    /// The acceptor's accepted record for a slot (a vote, or a chosen entry overwriting a stale
    /// vote: see [`learn_chosen`](crate::log::ColocatedNode::learn_chosen)).
    Accept(Slot, SlotVote),
    /// Every slot up to this one is chosen, and its accepted record holds the chosen entry.
    ChosenThrough(Slot),
    /// The proposer stood for election at this ballot. Written in the same `Ready` as its
    /// Prepare, so the Prepare leaves only once it is durable, and a restarted node stands above
    /// it: "a proposer must remember in stable storage the highest-numbered proposal it has
    /// tried to issue" (Paxos Made Simple, section 2.5). Not a promise: the node still promises
    /// its own ballot when its own Prepare arrives.
    Stood(Ballot),
    /// The node began this life (0 when new, one more at each restart). Written in the first
    /// `Ready` after a restart, so no message of the new life leaves before it is durable and
    /// read ids ([`ReadId`](crate::log::ReadId)) are never reused across lives. A new node
    /// writes none: its incarnation is 0.
    Incarnation(u64),
    /// The node's trim point moved here: written when its apply walk applies a decided trim, or
    /// when it installs a peer's trim point. Entries at or below it are dropped only after it is
    /// durable ([`Write::Truncate`]), so a crash between the two leaves both, never neither.
    TrimPoint(TrimPoint),
    /// Every accepted record at or below this slot is dropped: they are compacted into the
    /// trim point, which was written first.
    Truncate(Slot),
    /// The leader handed this ballot off and stopped proposing at it (H2,
    /// [`ColocatedNode::hand_off`](crate::log::ColocatedNode::hand_off)). Written in the same
    /// `Ready` as the Handoff, so the Handoff leaves only once it is durable, and a restart
    /// never takes the ballot back.
    HandedOff(Ballot),
    /// The node took this ballot from its owner by a handoff and leads at it. Written before
    /// its first Accept at the ballot, so a duplicate Handoff after a restart is refused
    /// instead of starting the ballot's slots over with other entries (H1, H4).
    TookHandoff(Ballot),
}

/// The durable record of one node, rebuilt from its writes.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct DurableRecord {
    /// The node this record belongs to; `None` on a blank disk.
    pub identity: Option<NodeId>,
    /// The highest ballot promised.
    pub promised: Option<Ballot>,
    /// Each slot's accepted record.
    pub accepts: SlotMap<SlotVote>,
    /// Invariant: every slot up to here is chosen and `accepts` holds its chosen entry.
    pub chosen_through: Slot,
    /// The highest ballot this node stood for election at; its next election goes above it.
    pub stood: Option<Ballot>,
    /// The node's current life: 0 until its first restart.
    pub incarnation: u64,
    /// The latest trim point written; `None` until the first.
    pub trim_point: Option<TrimPoint>,
    /// Every accepted record at or below this slot was dropped.
    pub truncated_through: Slot,
    /// The highest ballot this node handed off ([`Write::HandedOff`]).
    pub handed_off: Option<Ballot>,
    /// The highest ballot this node took by a handoff ([`Write::TookHandoff`]).
    pub took_handoff: Option<Ballot>,
    /// The slots whose latest vote frame is corrupt (C1, C2): the node voted there, and no
    /// longer knows what. A later readable vote for the slot supersedes the corrupt one, as it
    /// would have replaced it; a truncation through the slot drops it.
    pub unknown_votes: BTreeSet<Slot>,
}

/// Proof that a batch of writes is durable: the only way to release a
/// [`Ready`](crate::log::Ready)'s messages.
///
/// Only [`DurableRecord::persist`] makes one, as it applies the writes, and the proof carries a
/// digest of exactly those writes: [`Ready::into_messages`](crate::log::Ready::into_messages)
/// refuses a proof of any other batch. Nothing else can build one, so a message leaves only
/// after its writes reached a record:
///
/// ```compile_fail
/// use paros_core::log::Persisted;
/// let forged = Persisted { digest: 0 }; // the field is private: a proof cannot be made by hand
/// ```
#[derive(Debug)]
#[must_use]
pub struct Persisted {
    digest: u64,
}

impl Persisted {
    /// The proof for a batch with no writes: there is nothing to make durable. For a role that
    /// keeps no durable state, such as a proxy leader (P5,
    /// [`ProxyLeader`](crate::log::ProxyLeader)).
    pub fn nothing() -> Persisted {
        Persisted {
            digest: digest(&[]),
        }
    }

    /// Whether this is the proof of exactly `writes`.
    pub(crate) fn proves(&self, writes: &[Write]) -> bool {
        self.digest == digest(writes)
    }
}

/// A digest of a batch of writes, in order: the same batch gives the same digest on every run.
fn digest(writes: &[Write]) -> u64 {
    let mut hasher = WordDigest::new();
    writes.hash(&mut hasher);
    hasher.finish()
}

/// The proof's digest: a multiply-rotate hash taken a word (8 bytes) at a time, so a batch of
/// votes is digested at a fraction of FNV's byte-at-a-time cost. It tells one batch from
/// another, as a proof needs; the disk's checksums stay FNV ([`checksum`]), so the format on
/// disk does not depend on it.
struct WordDigest(u64);

impl WordDigest {
    fn new() -> WordDigest {
        WordDigest(0x243f_6a88_85a3_08d3)
    }

    fn mix(&mut self, word: u64) {
        self.0 = (self.0 ^ word)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
}

impl Hasher for WordDigest {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.mix(u64::from_le_bytes(word.try_into().expect("8 bytes")));
        }
        let rest = words.remainder();
        let mut last = [0; 8];
        last[..rest.len()].copy_from_slice(rest);
        self.mix(u64::from_le_bytes(last) ^ (rest.len() as u64) << 59);
    }

    fn write_u8(&mut self, value: u8) {
        self.mix(u64::from(value));
    }

    fn write_u32(&mut self, value: u32) {
        self.mix(u64::from(value));
    }

    fn write_u64(&mut self, value: u64) {
        self.mix(value);
    }

    fn write_usize(&mut self, value: usize) {
        self.mix(value as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl DurableRecord {
    /// Applies writes to the record, as a disk does once they are synced, and returns the proof
    /// that releases the messages waiting for exactly these writes.
    ///
    /// A caller with a disk of its own frames the writes ([`encode`]), syncs them, and then
    /// persists them to the record it would restart from.
    pub fn persist(&mut self, writes: &[Write]) -> Persisted {
        self.apply_all(writes);
        Persisted {
            digest: digest(writes),
        }
    }

    /// Applies writes in order: what both ways of persisting do before any message is released.
    pub(super) fn apply_all(&mut self, writes: &[Write]) {
        for write in writes {
            self.apply(write);
        }
    }

    /// Applies one write.
    pub fn apply(&mut self, write: &Write) {
        match write {
            Write::Identity(node) => self.identity = Some(*node),
            Write::Promise(ballot) => self.promised = self.promised.max(Some(*ballot)),
            Write::Accept(slot, vote) => {
                self.accepts.insert(*slot, vote.clone());
                self.unknown_votes.remove(slot);
            }
            Write::ChosenThrough(slot) => self.chosen_through = self.chosen_through.max(*slot),
            Write::Stood(ballot) => self.stood = self.stood.max(Some(*ballot)),
            Write::Incarnation(life) => self.incarnation = self.incarnation.max(*life),
            Write::TrimPoint(point) => {
                if point.through > self.floor() {
                    self.trim_point = Some(point.clone());
                }
            }
            Write::Truncate(through) => {
                self.accepts.retain(|slot, _| slot > through);
                self.unknown_votes.retain(|slot| slot > through);
                self.truncated_through = self.truncated_through.max(*through);
            }
            Write::HandedOff(ballot) => self.handed_off = self.handed_off.max(Some(*ballot)),
            Write::TookHandoff(ballot) => {
                self.took_handoff = self.took_handoff.max(Some(*ballot));
            }
        }
    }

    /// The floor: every slot up to here is compacted into the trim point.
    pub fn floor(&self) -> Slot {
        self.trim_point
            .as_ref()
            .map_or(Slot(0), |point| point.through)
    }

    /// Checks the invariants a record written by a node keeps, before a restart trusts it:
    /// every slot above the floor and up to the chosen mark holds an entry, no vote is above the
    /// promise, and nothing was truncated above the trim point. A disk that breaks one is
    /// corrupt, however well its frames decode.
    pub fn check(&self) -> Result<(), RecordError> {
        if self.truncated_through > self.floor() {
            return Err(RecordError::TruncatedPastTrimPoint {
                truncated: self.truncated_through,
                floor: self.floor(),
            });
        }
        if let Some(slot) = self.first_chosen_without_entry() {
            return Err(RecordError::ChosenWithoutEntry { slot });
        }
        let above = |(_, vote): &(&Slot, &SlotVote)| Some(vote.ballot) > self.promised;
        if let Some((slot, _)) = self.accepts.iter().find(above) {
            return Err(RecordError::VoteAbovePromise { slot: *slot });
        }
        Ok(())
    }

    /// The first slot above the floor and up to the chosen mark with no entry, if any. A slot
    /// whose vote is unknown (its frame corrupt) holds an entry, unreadable: not a broken
    /// invariant, a repair to make (C4).
    fn first_chosen_without_entry(&self) -> Option<Slot> {
        let first = self.floor().next();
        if self.chosen_through < first {
            return None;
        }
        (first.0..=self.chosen_through.0)
            .map(Slot)
            .find(|slot| !self.accepts.contains_key(slot) && !self.unknown_votes.contains(slot))
    }

    /// Rebuilds a record from a disk's framed writes, oldest first.
    ///
    /// A last frame that is cut short ([`check_header`]) is a torn write: discarded, and counted
    /// in the result. A torn frame before the last is corruption. A whole frame that fails a
    /// checksum (its length's, or its payload's) or does not decode, the last one included, was written in full and its write may have been
    /// acknowledged (Alagappan et al., "Protocol-Aware Recovery for Consensus-Based Storage",
    /// FAST 2018: treating such a frame as torn silently drops a vote or a promise that others
    /// counted). What happens then depends on its label ([`read_frame`]):
    ///
    /// - a corrupt vote (C2): the slot's vote becomes unknown ([`DurableRecord::unknown_votes`]),
    ///   and recovery goes on;
    /// - a corrupt promise (C5): [`RecordError::CorruptPromise`], the node is a wiped node;
    /// - any other corrupt write, or a label that fails its own checksum:
    ///   [`RecordError::Corrupt`].
    pub fn recover(frames: &[Vec<u8>]) -> Result<(DurableRecord, usize), RecordError> {
        let mut record = DurableRecord::default();
        for (index, frame) in frames.iter().enumerate() {
            match read_frame(frame) {
                Ok(write) => record.apply(&write),
                Err(FrameRead::Torn(_)) if index + 1 == frames.len() => return Ok((record, 1)),
                Err(FrameRead::Corrupt {
                    label: Some(RecordLabel::Vote(slot)),
                    ..
                }) => record.forget_vote(slot),
                Err(FrameRead::Corrupt {
                    label: Some(RecordLabel::Promise),
                    ..
                }) => return Err(RecordError::CorruptPromise { index }),
                Err(FrameRead::Torn(reason) | FrameRead::Corrupt { reason, .. }) => {
                    return Err(RecordError::Corrupt { index, reason });
                }
            }
        }
        Ok((record, 0))
    }

    /// C2: the vote in `slot` was written but cannot be read: it is unknown, never "no vote".
    fn forget_vote(&mut self, slot: Slot) {
        self.accepts.remove(&slot);
        self.unknown_votes.insert(slot);
    }
}

/// What a frame's label says it holds, readable even when its payload is not (C1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RecordLabel {
    /// A vote ([`Write::Accept`]) in this slot.
    Vote(Slot),
    /// A promise ([`Write::Promise`]).
    Promise,
    /// Any other write, by its kind byte.
    Other(u8),
}

impl RecordLabel {
    /// The label of `write`.
    pub fn of(write: &Write) -> RecordLabel {
        match write {
            Write::Accept(slot, _) => RecordLabel::Vote(*slot),
            Write::Promise(_) => RecordLabel::Promise,
            other => RecordLabel::Other(write_kind(other)),
        }
    }

    /// The label's bytes: the kind, then the slot (0 but for a vote).
    fn bytes(self) -> [u8; 9] {
        let (kind, slot) = match self {
            RecordLabel::Vote(slot) => (3, slot.0),
            RecordLabel::Promise => (2, 0),
            RecordLabel::Other(kind) => (kind, 0),
        };
        let mut bytes = [0; 9];
        bytes[0] = kind;
        bytes[1..].copy_from_slice(&slot.to_le_bytes());
        bytes
    }

    /// Reads a label's bytes back.
    fn from_bytes(bytes: &[u8; 9]) -> RecordLabel {
        let slot = Slot(u64::from_le_bytes(bytes[1..].try_into().expect("8 bytes")));
        match bytes[0] {
            3 => RecordLabel::Vote(slot),
            2 => RecordLabel::Promise,
            kind => RecordLabel::Other(kind),
        }
    }
}

/// Why a log frame does not read, as [`read_frame`] tells it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FrameRead {
    /// The frame is cut short: a write a crash tore.
    Torn(&'static str),
    /// The frame is whole but damaged; `label` says which record it was, when the label itself
    /// is intact.
    Corrupt {
        /// The record the frame held, if its label reads.
        label: Option<RecordLabel>,
        /// What was wrong with it.
        reason: &'static str,
    },
}

/// The bytes of a frame's label: kind (1), slot (8), the label's own checksum (8).
const LABEL_BYTES: usize = 17;

/// Reads one frame made by [`encode`]: its label, then its framed payload. A frame shorter
/// than its label, or torn as [`check_header`] rules, is torn; a label that fails its checksum
/// is corrupt with no label; a length or payload that fails its checksum, a payload that does
/// not decode or disagrees with its label is corrupt with the label, so a damaged length makes
/// only its vote unknown (C2).
pub fn read_frame(frame: &[u8]) -> Result<Write, FrameRead> {
    let Some((label, framed)) = frame.split_at_checked(LABEL_BYTES) else {
        return Err(FrameRead::Torn("label cut short"));
    };
    let bytes: [u8; 9] = label[..9].try_into().expect("9 bytes");
    let expected = u64::from_le_bytes(label[9..].try_into().expect("8 bytes"));
    if checksum(&bytes) != expected {
        return Err(FrameRead::Corrupt {
            label: None,
            reason: "label checksum does not match",
        });
    }
    let label = RecordLabel::from_bytes(&bytes);
    let corrupt = |reason| FrameRead::Corrupt {
        label: Some(label),
        reason,
    };
    let write = match unframe(framed) {
        Ok(payload) => decode_payload(payload).map_err(corrupt)?,
        Err(FrameError::Torn(reason)) => return Err(FrameRead::Torn(reason)),
        Err(FrameError::Corrupt(reason)) => return Err(corrupt(reason)),
    };
    if RecordLabel::of(&write) != label {
        return Err(corrupt("payload disagrees with its label"));
    }
    Ok(write)
}

/// Decodes a disk's frames, oldest first, each payload by `decode_payload`: a last frame cut
/// short is a torn write, dropped and counted (0 or 1); any other bad frame is
/// [`RecordError::Corrupt`]. For the durable roles whose frames carry no label (the
/// matchmakers'), so a corrupt frame of theirs is never told apart by record.
pub(crate) fn decode_frames<W>(
    frames: &[Vec<u8>],
    decode_payload: impl Fn(&[u8]) -> Result<W, &'static str>,
) -> Result<(Vec<W>, usize), RecordError> {
    let mut writes = Vec::with_capacity(frames.len());
    for (index, frame) in frames.iter().enumerate() {
        match unframe(frame)
            .and_then(|payload| decode_payload(payload).map_err(FrameError::Corrupt))
        {
            Ok(write) => writes.push(write),
            Err(FrameError::Torn(_)) if index + 1 == frames.len() => return Ok((writes, 1)),
            Err(FrameError::Torn(reason) | FrameError::Corrupt(reason)) => {
                return Err(RecordError::Corrupt { index, reason });
            }
        }
    }
    Ok((writes, 0))
}

/// Why one frame does not decode.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FrameError {
    /// The frame is shorter than its header, or its payload is shorter than the length the
    /// header declares, that length's checksum holding: a write a crash cut short
    /// ([`check_header`]).
    Torn(&'static str),
    /// The frame fails a checksum (its length's or its payload's), its payload is longer than
    /// declared, or it does not decode: it was written in full and then damaged.
    Corrupt(&'static str),
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameError::Torn(reason) => write!(f, "torn write: {reason}"),
            FrameError::Corrupt(reason) => write!(f, "corrupt frame: {reason}"),
        }
    }
}

impl std::error::Error for FrameError {}

/// Why a durable record cannot be trusted.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RecordError {
    /// Frame `index` is corrupt: a whole frame that fails its checksum or does not decode, or
    /// a frame cut short before the last.
    Corrupt {
        /// Which frame, from 0.
        index: usize,
        /// What was wrong with it.
        reason: &'static str,
    },
    /// The promise's frame `index` is corrupt (C5): the node no longer knows what it promised,
    /// so it must not answer as an acceptor at all. A wiped node.
    CorruptPromise {
        /// Which frame, from 0.
        index: usize,
    },
    /// The disk holds no identity: it is blank or wiped. A node that lost its promises cannot
    /// safely rejoin as if new.
    Blank,
    /// The record marks `slot` chosen but holds no entry for it: the disk broke the record's
    /// invariant (every slot up to the chosen mark holds its chosen entry), so it cannot be
    /// trusted.
    ChosenWithoutEntry {
        /// The first slot up to the chosen mark with no entry.
        slot: Slot,
    },
    /// The record holds a vote in `slot` at a ballot above its promise: an acceptor votes only
    /// at a ballot it has promised, so the disk broke that invariant.
    VoteAbovePromise {
        /// The slot of the vote.
        slot: Slot,
    },
    /// The disk dropped entries above its trim point: they are in neither.
    TruncatedPastTrimPoint {
        /// The highest slot truncated.
        truncated: Slot,
        /// The trim point's slot.
        floor: Slot,
    },
    /// The disk's trim point belongs to another cluster.
    TrimPointOfAnotherCluster,
    /// The disk belongs to another node.
    WrongIdentity {
        /// The node restarting.
        expected: NodeId,
        /// The node the disk names.
        found: NodeId,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Corrupt { index, reason } => {
                write!(f, "durable record frame {index} is corrupt: {reason}")
            }
            RecordError::CorruptPromise { index } => write!(
                f,
                "the promise in durable record frame {index} is corrupt: the node no longer knows what it promised"
            ),
            RecordError::Blank => f.write_str("the disk is blank: refusing to boot a wiped node"),
            RecordError::ChosenWithoutEntry { slot } => {
                write!(
                    f,
                    "the disk marks slot {slot} chosen but holds no entry for it"
                )
            }
            RecordError::VoteAbovePromise { slot } => {
                write!(f, "the disk holds a vote in slot {slot} above its promise")
            }
            RecordError::TruncatedPastTrimPoint { truncated, floor } => write!(
                f,
                "the disk dropped entries through slot {truncated}, past its trim point at {floor}"
            ),
            RecordError::TrimPointOfAnotherCluster => {
                f.write_str("the disk's trim point belongs to another cluster")
            }
            RecordError::WrongIdentity { expected, found } => {
                write!(f, "the disk belongs to {found}, not {expected}")
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// FNV-1a, 64 bits: enough to tell a torn or flipped frame from a whole one.
fn checksum(bytes: &[u8]) -> u64 {
    let mut hasher = Fnv::new();
    hasher.write(bytes);
    hasher.finish()
}

/// FNV-1a, 64 bits, as a [`Hasher`]: deterministic, with no keys drawn at random.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = (self.0 ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Frames a write for the disk: its label ([`RecordLabel`], 9 bytes, and their checksum, 8
/// bytes), then the framed payload (`frame`: its length, the length's checksum, the payload's
/// checksum and the payload).
pub fn encode(write: &Write) -> Vec<u8> {
    let label = RecordLabel::of(write).bytes();
    let mut frame = Vec::with_capacity(LABEL_BYTES + FRAME_HEADER_BYTES + 32);
    frame.extend(label);
    frame.extend(checksum(&label).to_le_bytes());
    frame.extend(self::frame(&payload_of(write)));
    frame
}

/// The kind byte a write's payload and label begin with, as [`payload_of`] writes it.
fn write_kind(write: &Write) -> u8 {
    match write {
        Write::Identity(_) => 1,
        Write::Promise(_) => 2,
        Write::Accept(..) => 3,
        Write::ChosenThrough(_) => 4,
        Write::Stood(_) => 5,
        Write::Incarnation(_) => 6,
        Write::TrimPoint(_) => 7,
        Write::Truncate(_) => 8,
        Write::HandedOff(_) => 9,
        Write::TookHandoff(_) => 10,
    }
}

/// A write's payload: its kind byte, then its fields.
fn payload_of(write: &Write) -> Vec<u8> {
    let mut payload = vec![write_kind(write)];
    match write {
        Write::Identity(node) => {
            payload.push(node.get());
        }
        Write::Promise(ballot) => {
            put_ballot(&mut payload, *ballot);
        }
        Write::Accept(slot, vote) => {
            payload.extend(slot.0.to_le_bytes());
            put_ballot(&mut payload, vote.ballot);
            put_entry(&mut payload, &vote.entry);
        }
        Write::ChosenThrough(slot) => {
            payload.extend(slot.0.to_le_bytes());
        }
        Write::Stood(ballot) => {
            put_ballot(&mut payload, *ballot);
        }
        Write::Incarnation(life) => {
            payload.extend(life.to_le_bytes());
        }
        Write::TrimPoint(point) => {
            put_trim_point(&mut payload, point);
        }
        Write::Truncate(through) => {
            payload.extend(through.0.to_le_bytes());
        }
        Write::HandedOff(ballot) => {
            put_ballot(&mut payload, *ballot);
        }
        Write::TookHandoff(ballot) => {
            put_ballot(&mut payload, *ballot);
        }
    }
    payload
}

/// Frames a payload for the disk: its header (the payload's length, 4 bytes, and the length's
/// own checksum, 8 bytes), the payload's checksum (8 bytes), then the payload. Shared by every
/// durable role, so all disks tell torn writes from corruption alike ([`check_header`]).
pub(crate) fn frame(payload: &[u8]) -> Vec<u8> {
    let length = u32::try_from(payload.len())
        .expect("a write is small")
        .to_le_bytes();
    let mut frame = Vec::with_capacity(FRAME_HEADER_BYTES + payload.len());
    frame.extend(length);
    frame.extend(checksum(&length).to_le_bytes());
    frame.extend(checksum(payload).to_le_bytes());
    frame.extend(payload);
    frame
}

/// The bytes before a framed payload: its length (4), the length's checksum (8) and the
/// payload's checksum (8).
const FRAME_HEADER_BYTES: usize = 20;

/// A framed payload's header, once the length's own checksum holds ([`check_header`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CheckedHeader<'a> {
    /// The payload's length as written.
    pub length: usize,
    /// The payload's checksum as written.
    pub payload_checksum: u64,
    /// The bytes after the header: the payload, whole or cut short.
    pub payload: &'a [u8],
}

/// The torn-write rule: how a frame cut short by a crash is told from a damaged one. Takes a
/// framed payload ([`encode`]'s, past its label; a matchmaker's whole frame) and returns its
/// header once the length's checksum holds; a torn or damaged header otherwise.
///
/// A crash cuts a write short: the bytes it leaves are the ones written, in order, and the rest
/// are missing. It never changes a byte. So a frame is torn only when it is shorter than its
/// header, or when its header is whole, the length's checksum holds, and the payload is shorter
/// than that length (`unframe`). A length whose checksum fails was damaged after it was
/// written, whatever it says: the frame is corrupt, never a torn tail, so a bit flip that raises
/// a whole frame's length is never dropped as a write that was never acknowledged.
pub fn check_header(frame: &[u8]) -> Result<CheckedHeader<'_>, FrameError> {
    let Some((header, payload)) = frame.split_at_checked(FRAME_HEADER_BYTES) else {
        return Err(FrameError::Torn("header cut short"));
    };
    let length: [u8; 4] = header[..4].try_into().expect("4 bytes");
    let length_checksum = u64::from_le_bytes(header[4..12].try_into().expect("8 bytes"));
    if checksum(&length) != length_checksum {
        return Err(FrameError::Corrupt("length checksum does not match"));
    }
    Ok(CheckedHeader {
        length: u32::from_le_bytes(length) as usize,
        payload_checksum: u64::from_le_bytes(header[12..].try_into().expect("8 bytes")),
        payload,
    })
}

/// The payload of a frame made by [`frame`], once its length and checksums hold; the
/// [`FrameError`] otherwise: torn only as [`check_header`] rules, corrupt in every other case.
pub(crate) fn unframe(frame: &[u8]) -> Result<&[u8], FrameError> {
    let CheckedHeader {
        length,
        payload_checksum,
        payload,
    } = check_header(frame)?;
    if payload.len() < length {
        return Err(FrameError::Torn("payload shorter than its length"));
    }
    if payload.len() > length {
        return Err(FrameError::Corrupt("payload longer than its length"));
    }
    if checksum(payload) != payload_checksum {
        return Err(FrameError::Corrupt("checksum does not match"));
    }
    Ok(payload)
}

/// Decodes one frame made by [`encode`], without telling which record a corrupt one held
/// ([`read_frame`] does).
///
/// Only a short frame is [`FrameError::Torn`] ([`check_header`]): a label or header cut short,
/// or a payload shorter than a length whose checksum holds. A length that fails its checksum, a
/// payload longer than declared, a payload checksum that does not match or a payload that does
/// not decode is [`FrameError::Corrupt`].
pub fn decode(frame: &[u8]) -> Result<Write, FrameError> {
    read_frame(frame).map_err(|error| match error {
        FrameRead::Torn(reason) => FrameError::Torn(reason),
        FrameRead::Corrupt { reason, .. } => FrameError::Corrupt(reason),
    })
}

/// Decodes a payload whose checksum matched.
fn decode_payload(payload: &[u8]) -> Result<Write, &'static str> {
    let mut reader = Reader(payload);
    let write = match reader.byte()? {
        1 => Write::Identity(NodeId::new(reader.byte()?).ok_or("bad node id")?),
        2 => Write::Promise(reader.ballot()?),
        3 => {
            let slot = Slot(u64::from_le_bytes(reader.array()?));
            let ballot = reader.ballot()?;
            let entry = reader.entry()?;
            Write::Accept(slot, SlotVote { ballot, entry })
        }
        4 => Write::ChosenThrough(Slot(u64::from_le_bytes(reader.array()?))),
        5 => Write::Stood(reader.ballot()?),
        6 => Write::Incarnation(u64::from_le_bytes(reader.array()?)),
        7 => Write::TrimPoint(reader.trim_point()?),
        8 => Write::Truncate(Slot(u64::from_le_bytes(reader.array()?))),
        9 => Write::HandedOff(reader.ballot()?),
        10 => Write::TookHandoff(reader.ballot()?),
        _ => return Err("unknown write kind"),
    };
    if !reader.0.is_empty() {
        return Err("trailing bytes");
    }
    Ok(write)
}

pub(crate) fn put_ballot(out: &mut Vec<u8>, ballot: Ballot) {
    out.extend(ballot.round.to_le_bytes());
    out.push(ballot.node.get());
}

pub(crate) fn put_text(out: &mut Vec<u8>, text: &str) {
    let length = u32::try_from(text.len()).expect("a key or value is small");
    out.extend(length.to_le_bytes());
    out.extend(text.as_bytes());
}

fn put_entry(out: &mut Vec<u8>, entry: &Entry) {
    match entry {
        Entry::Noop => out.push(0),
        Entry::Command(command) => {
            out.push(1);
            out.push(command.client.get());
            out.extend(command.seq.to_le_bytes());
            put_text(out, command.key.as_str());
            put_text(out, command.value.as_str());
        }
        Entry::Trim(through) => {
            out.push(2);
            out.extend(through.0.to_le_bytes());
        }
    }
}

fn put_count(out: &mut Vec<u8>, count: usize) {
    let count = u32::try_from(count).expect("a store is small");
    out.extend(count.to_le_bytes());
}

/// A trim point: the cluster, the slot, then the store's values and its session table.
fn put_trim_point(out: &mut Vec<u8>, point: &TrimPoint) {
    out.extend(
        point
            .cluster
            .iter()
            .fold(0u64, |bits, node| bits | 1 << node.get())
            .to_le_bytes(),
    );
    out.extend(point.through.0.to_le_bytes());
    put_count(out, point.store.iter().count());
    for (key, value) in point.store.iter() {
        put_text(out, key.as_str());
        put_text(out, value.as_str());
    }
    put_count(out, point.store.sessions().count());
    for (client, seq) in point.store.sessions() {
        out.push(client.get());
        out.extend(seq.to_le_bytes());
    }
}

/// Reads a payload field by field; each read fails with a reason when the payload ends early.
pub(crate) struct Reader<'a>(pub(crate) &'a [u8]);

impl Reader<'_> {
    fn take(&mut self, count: usize) -> Result<&[u8], &'static str> {
        if self.0.len() < count {
            return Err("payload ends inside a field");
        }
        let (head, tail) = self.0.split_at(count);
        self.0 = tail;
        Ok(head)
    }

    pub(crate) fn array<const N: usize>(&mut self) -> Result<[u8; N], &'static str> {
        Ok(self.take(N)?.try_into().expect("took N bytes"))
    }

    pub(crate) fn byte(&mut self) -> Result<u8, &'static str> {
        Ok(self.array::<1>()?[0])
    }

    pub(crate) fn ballot(&mut self) -> Result<Ballot, &'static str> {
        let round = u32::from_le_bytes(self.array()?);
        let node = NodeId::new(self.byte()?).ok_or("bad node id")?;
        Ok(Ballot::new(round, node))
    }

    pub(crate) fn text(&mut self) -> Result<Value, &'static str> {
        let length = u32::from_le_bytes(self.array()?) as usize;
        let bytes = self.take(length)?;
        std::str::from_utf8(bytes)
            .map(Value::new)
            .map_err(|_| "text is not UTF-8")
    }

    fn entry(&mut self) -> Result<Entry, &'static str> {
        match self.byte()? {
            0 => Ok(Entry::Noop),
            1 => {
                let client = NodeId::new(self.byte()?).ok_or("bad client id")?;
                let seq = u64::from_le_bytes(self.array()?);
                let key = self.text()?;
                let value = self.text()?;
                Ok(Entry::from(Command {
                    client,
                    seq,
                    key,
                    value,
                }))
            }
            2 => Ok(Entry::Trim(Slot(u64::from_le_bytes(self.array()?)))),
            _ => Err("unknown entry kind"),
        }
    }

    fn count(&mut self) -> Result<usize, &'static str> {
        Ok(u32::from_le_bytes(self.array()?) as usize)
    }

    fn trim_point(&mut self) -> Result<TrimPoint, &'static str> {
        let bits = u64::from_le_bytes(self.array()?);
        let mut cluster = NodeSet::EMPTY;
        for id in 0..64u8 {
            if bits & (1 << id) != 0 {
                cluster.insert(NodeId::new(id).ok_or("bad node id in a cluster")?);
            }
        }
        let through = Slot(u64::from_le_bytes(self.array()?));
        let mut values = BTreeMap::new();
        for _ in 0..self.count()? {
            let key = self.text()?;
            values.insert(key, self.text()?);
        }
        let mut sessions = BTreeMap::new();
        for _ in 0..self.count()? {
            let client = NodeId::new(self.byte()?).ok_or("bad client id")?;
            sessions.insert(client, u64::from_le_bytes(self.array()?));
        }
        let store = KvStore::from_parts(values, sessions);
        Ok(TrimPoint {
            cluster,
            through,
            store,
        })
    }
}
