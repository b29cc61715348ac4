//! Every single-bit flip and every torn cut of small durable records, judged by C1–C5
//! (Alagappan et al., "Protocol-Aware Recovery for Consensus-Based Storage", FAST 2018).
//!
//! The worlds damage a disk one fault at a time, where a schedule reaches it; this sweep damages
//! a record in every way a single fault can: each bit of each frame flipped (length, label,
//! checksum or payload alike), and the last frame cut at each byte. A damaged record must be
//! refused, or read with the damaged vote unknown: never read as "no vote", "no promise" or
//! "no round", and a whole frame is never a torn tail.

use paros_core::log::{
    ColocatedNode, Command, DurableRecord, Entry, LogConfig, Provisioning, RecordError, Slot,
    SlotVote, Write, encode,
};
use paros_core::matchmaker::{Configuration, Matchmaker, MatchmakerWrite};
use paros_core::{Ballot, NodeId, NodeSet, Quorums, Value};

/// The bytes that open every log frame: its label and the label's own checksum. A vote frame
/// damaged past them still says which slot it held, so C2 makes only that slot unknown.
pub const LOG_LABEL_BYTES: usize = 17;

/// How a log disk is read back: [`DurableRecord::recover`], or a broken reader for a control.
pub type LogReader = fn(&[Vec<u8>]) -> Result<(DurableRecord, usize), RecordError>;

/// One damage a record did not survive: where, and which rule it broke.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Finding {
    /// The damage: `frame 2 bit 5 flipped`, `frame 3 cut at byte 7`.
    pub damage: String,
    /// What was read wrong.
    pub broken: String,
}

/// A disk of frames, with one bit flipped.
fn flipped(frames: &[Vec<u8>], frame: usize, bit: usize) -> Vec<Vec<u8>> {
    let mut damaged = frames.to_vec();
    damaged[frame][bit / 8] ^= 1 << (bit % 8);
    damaged
}

/// What a log record read after damage breaks, judged against the record the disk held whole.
fn judge_log(truth: &DurableRecord, read: &DurableRecord, torn: usize) -> Option<String> {
    if read.promised < truth.promised {
        return Some(format!(
            "C5: read a promise of {:?}, below the {:?} it made",
            read.promised, truth.promised
        ));
    }
    for (slot, vote) in truth.accepts.iter() {
        if read.accepts.get(slot) != Some(vote) && !read.unknown_votes.contains(slot) {
            return Some(format!("C2: no vote read in slot {slot}, where it voted"));
        }
    }
    if let Some((slot, _)) =
        (read.accepts.iter()).find(|(slot, vote)| truth.accepts.get(slot) != Some(*vote))
    {
        return Some(format!("C1: a vote in slot {slot} it never cast"));
    }
    if torn != 0 {
        return Some("a whole frame read as a torn tail and dropped".into());
    }
    let mut repaired = read.clone();
    repaired.accepts = truth.accepts.clone();
    repaired.unknown_votes = truth.unknown_votes.clone();
    (repaired != *truth).then(|| format!("a write silently lost: read {read:?}"))
}

/// Every single-bit flip of every frame of `writes`' disk, read by `reader`: each must be
/// refused or read by C1–C5, and a vote frame damaged past its label must make only that slot
/// unknown (C2), not refuse the record.
pub fn flip_every_bit_of_log(writes: &[Write], reader: LogReader) -> Vec<Finding> {
    let frames: Vec<Vec<u8>> = writes.iter().map(encode).collect();
    let (truth, _) = reader(&frames).expect("the whole disk reads");
    let mut findings = Vec::new();
    for (index, frame) in frames.iter().enumerate() {
        for bit in 0..frame.len() * 8 {
            let damage = format!("frame {index} ({:?}) bit {bit} flipped", writes[index]);
            let broken = match reader(&flipped(&frames, index, bit)) {
                Ok((read, torn)) => judge_log(&truth, &read, torn),
                Err(_) if is_vote(&writes[index]) && bit >= LOG_LABEL_BYTES * 8 => {
                    Some("C2: a vote frame whose label reads refused the whole record".into())
                }
                Err(_) => None,
            };
            findings.extend(broken.map(|broken| Finding { damage, broken }));
        }
    }
    findings
}

fn is_vote(write: &Write) -> bool {
    matches!(write, Write::Accept(..))
}

/// Every cut of the last frame of `writes`' disk, at each byte short of its end: a torn write,
/// dropped, and the record read as the writes before it.
pub fn cut_the_last_log_frame(writes: &[Write], reader: LogReader) -> Vec<Finding> {
    let mut frames: Vec<Vec<u8>> = writes.iter().map(encode).collect();
    let (truth, _) = reader(&frames[..frames.len() - 1]).expect("the whole disk reads");
    let last = frames.pop().expect("a write");
    let mut findings = Vec::new();
    for kept in 0..last.len() {
        let mut torn_disk = frames.clone();
        torn_disk.push(last[..kept].to_vec());
        let broken = match reader(&torn_disk) {
            Ok((read, 1)) if read == truth => None,
            Ok((read, torn)) => Some(format!("read {read:?} with {torn} torn frames")),
            Err(error) => Some(format!("a torn tail refused: {error}")),
        };
        let damage = format!("last frame cut at byte {kept}");
        findings.extend(broken.map(|broken| Finding { damage, broken }));
    }
    findings
}

/// A node whose first write, its identity, was cut at each byte: the disk holds no write, so
/// the node boots as new.
pub fn cut_the_first_write(id: NodeId, config: LogConfig) -> Vec<Finding> {
    let identity = encode(&Write::Identity(id));
    let mut findings = Vec::new();
    for kept in 0..identity.len() {
        let disk = vec![identity[..kept].to_vec()];
        for provisioning in [Provisioning::Fresh, Provisioning::Provisioned] {
            if let Err(refused) = ColocatedNode::boot(id, config, provisioning, &disk) {
                findings.push(Finding {
                    damage: format!("identity cut at byte {kept}, booted {provisioning:?}"),
                    broken: format!("a torn first write refused: {refused}"),
                });
            }
        }
    }
    findings
}

/// Every single-bit flip of every frame of a matchmaker's disk, and every cut of its last
/// frame: a flipped disk is refused or read exactly as written (a matchmaker that forgot a
/// round could break M1), and a cut drops only the torn frame.
pub fn damage_every_matchmaker_frame(id: NodeId, writes: &[MatchmakerWrite]) -> Vec<Finding> {
    use paros_core::matchmaker::encode;
    let frames: Vec<Vec<u8>> = writes.iter().map(encode).collect();
    let (truth, _) = Matchmaker::restart(id, &frames).expect("the whole disk reads");
    let mut findings = Vec::new();
    for (index, frame) in frames.iter().enumerate() {
        for bit in 0..frame.len() * 8 {
            let broken = match Matchmaker::restart(id, &flipped(&frames, index, bit)) {
                Ok((read, torn)) if read == truth && torn == 0 => None,
                Ok((read, torn)) => Some(format!(
                    "M1, M4: a round or watermark lost: read {} rounds of {}, {torn} torn frames",
                    read.configurations().len(),
                    truth.configurations().len()
                )),
                Err(_) => None,
            };
            let damage = format!("frame {index} ({:?}) bit {bit} flipped", writes[index]);
            findings.extend(broken.map(|broken| Finding { damage, broken }));
        }
    }
    let (before, _) = Matchmaker::restart(id, &frames[..frames.len() - 1]).expect("reads");
    let last = frames.last().expect("a write");
    for kept in 0..last.len() {
        let mut torn_disk = frames[..frames.len() - 1].to_vec();
        torn_disk.push(last[..kept].to_vec());
        let broken = match Matchmaker::restart(id, &torn_disk) {
            Ok((read, 1)) if read == before => None,
            Ok((_, torn)) => Some(format!("a torn tail read wrong ({torn} torn frames)")),
            Err(error) => Some(format!("a torn tail refused: {error}")),
        };
        let damage = format!("last frame cut at byte {kept}");
        findings.extend(broken.map(|broken| Finding { damage, broken }));
    }
    findings
}

/// The reader of the corrupt-as-torn control: every frame that does not read ends the record
/// there, as a torn tail, so a damaged vote reads as "no vote".
pub fn corrupt_as_torn(frames: &[Vec<u8>]) -> Result<(DurableRecord, usize), RecordError> {
    let mut record = DurableRecord::default();
    for (index, frame) in frames.iter().enumerate() {
        match paros_core::log::decode(frame) {
            Ok(write) => record.apply(&write),
            Err(_) => return Ok((record, frames.len() - index)),
        }
    }
    Ok((record, 0))
}

fn node(id: u8) -> NodeId {
    NodeId::new(id).expect("a node id")
}

fn ballot(round: u32, owner: u8) -> Ballot {
    Ballot::new(round, node(owner))
}

fn vote(slot: u64, round: u32, value: &str) -> Write {
    let entry = Entry::from(Command {
        client: node(4),
        seq: slot,
        key: Value::new("x"),
        value: Value::new(value),
    });
    Write::Accept(
        Slot(slot),
        SlotVote {
            ballot: ballot(round, 1),
            entry,
        },
    )
}

/// Small records of N2, each ending in a different write: its vote (C2), its promise (C5), a
/// second vote behind a first (a middle vote frame), its chosen mark.
pub fn small_log_records() -> Vec<Vec<Write>> {
    let start = vec![Write::Identity(node(2)), Write::Promise(ballot(1, 1))];
    let with = |more: &[Write]| [start.as_slice(), more].concat();
    vec![
        with(&[vote(1, 1, "1")]),
        with(&[vote(1, 1, "1"), Write::Promise(ballot(2, 3))]),
        with(&[
            vote(1, 1, "1"),
            vote(2, 1, "2"),
            Write::ChosenThrough(Slot(1)),
        ]),
        with(&[
            Write::Stood(ballot(2, 2)),
            Write::Incarnation(1),
            vote(1, 1, "1"),
        ]),
    ]
}

/// Small records of matchmaker 11, ending in its first round, a second round, a watermark.
pub fn small_matchmaker_records() -> Vec<Vec<MatchmakerWrite>> {
    let acceptors = |ids: &[u8]| {
        let set: NodeSet = ids.iter().map(|id| node(*id)).collect();
        Configuration::new(Quorums::majority(set).expect("acceptors"))
    };
    let start = vec![
        MatchmakerWrite::Identity(node(11)),
        MatchmakerWrite::Configuration(ballot(1, 1), acceptors(&[1, 2, 3])),
    ];
    let second = MatchmakerWrite::Configuration(ballot(2, 2), acceptors(&[4, 5, 6]));
    let watermark = MatchmakerWrite::Watermark(ballot(1, 1));
    vec![
        start.clone(),
        [start.clone(), vec![second]].concat(),
        [start, vec![watermark]].concat(),
    ]
}

/// Every sweep of this module over the small records, read by the honest readers: each bit of
/// each log record flipped and its last frame cut at each byte, a first write cut at each byte,
/// each matchmaker record flipped and cut. Empty while C1–C5 hold.
pub fn sweep_small_records() -> Vec<Finding> {
    let logs = small_log_records();
    let cluster: NodeSet = (1..=3).map(node).collect();
    let flips = logs
        .iter()
        .flat_map(|writes| flip_every_bit_of_log(writes, DurableRecord::recover));
    let cuts = logs
        .iter()
        .flat_map(|writes| cut_the_last_log_frame(writes, DurableRecord::recover));
    let first = cut_the_first_write(node(2), LogConfig::new(cluster));
    let matchmakers = (small_matchmaker_records().iter())
        .flat_map(|writes| damage_every_matchmaker_frame(node(11), writes))
        .collect::<Vec<_>>();
    flips.chain(cuts).chain(first).chain(matchmakers).collect()
}
