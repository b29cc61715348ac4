//! A matchmaker's durable writes, framed on disk exactly as the log's are (length, checksum,
//! payload: [`log::encode`](crate::log::encode)), so a torn tail and a corrupt frame are told
//! apart the same way.

use super::Configuration;
use crate::log::FrameError;
use crate::log::durable::{Reader, decode_frames, frame, put_ballot, put_text, unframe};
use crate::{Flexible, Grid, Majority, NodeId, NodeSet, QuorumSystem, Quorums};

/// One durable write of a matchmaker.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum MatchmakerWrite {
    /// Who this disk belongs to. The first write of every disk.
    Identity(NodeId),
    /// The matchmaker recorded this configuration for this round (M1).
    Configuration(crate::Ballot, Configuration),
    /// The matchmaker's garbage-collection watermark rose to this round (M4).
    Watermark(crate::Ballot),
    /// The matchmaker stopped: it records no more rounds (M6).
    Stopped,
    /// The matchmaker promised this ballot in the decree that names its successors (M6).
    SuccessorPromise(crate::Ballot),
    /// The matchmaker voted for this value at this ballot in that decree (M6).
    SuccessorVote(crate::Ballot, crate::Value),
}

/// Frames a matchmaker write for the disk.
pub fn encode(write: &MatchmakerWrite) -> Vec<u8> {
    let mut payload = Vec::new();
    match write {
        MatchmakerWrite::Identity(node) => {
            payload.push(1);
            payload.push(node.get());
        }
        MatchmakerWrite::Configuration(round, config) => {
            payload.push(2);
            put_ballot(&mut payload, *round);
            put_configuration(&mut payload, config);
        }
        MatchmakerWrite::Watermark(round) => {
            payload.push(3);
            put_ballot(&mut payload, *round);
        }
        MatchmakerWrite::Stopped => payload.push(4),
        MatchmakerWrite::SuccessorPromise(ballot) => {
            payload.push(5);
            put_ballot(&mut payload, *ballot);
        }
        MatchmakerWrite::SuccessorVote(ballot, value) => {
            payload.push(6);
            put_ballot(&mut payload, *ballot);
            put_text(&mut payload, value.as_str());
        }
    }
    frame(&payload)
}

/// Decodes one frame made by [`encode`]; a short frame is torn, any other bad frame corrupt.
pub fn decode(frame: &[u8]) -> Result<MatchmakerWrite, FrameError> {
    decode_payload(unframe(frame)?).map_err(FrameError::Corrupt)
}

/// Decodes every frame of a disk, oldest first, dropping a torn last frame (counted).
pub(super) fn decode_disk(
    frames: &[Vec<u8>],
) -> Result<(Vec<MatchmakerWrite>, usize), crate::log::RecordError> {
    decode_frames(frames, decode_payload)
}

/// Decodes a payload whose checksum matched.
fn decode_payload(payload: &[u8]) -> Result<MatchmakerWrite, &'static str> {
    let mut reader = Reader(payload);
    let write = match reader.byte()? {
        1 => MatchmakerWrite::Identity(NodeId::new(reader.byte()?).ok_or("bad node id")?),
        2 => {
            let round = reader.ballot()?;
            MatchmakerWrite::Configuration(round, read_configuration(&mut reader)?)
        }
        3 => MatchmakerWrite::Watermark(reader.ballot()?),
        4 => MatchmakerWrite::Stopped,
        5 => MatchmakerWrite::SuccessorPromise(reader.ballot()?),
        6 => MatchmakerWrite::SuccessorVote(reader.ballot()?, reader.text()?),
        _ => return Err("unknown matchmaker write kind"),
    };
    if !reader.0.is_empty() {
        return Err("trailing bytes");
    }
    Ok(write)
}

/// A configuration: its quorum system's kind, then what that kind needs.
fn put_configuration(out: &mut Vec<u8>, config: &Configuration) {
    match config.quorums() {
        Quorums::Majority(majority) => {
            out.push(1);
            put_set(out, majority.acceptors());
        }
        Quorums::Flexible(flexible) => {
            out.push(2);
            put_set(out, flexible.acceptors());
            out.push(flexible.phase1_size() as u8);
            out.push(flexible.phase2_size() as u8);
        }
        Quorums::Grid(grid) => {
            out.push(3);
            out.push(grid.rows().len() as u8);
            out.push(grid.columns().len() as u8);
            for row in grid.rows() {
                for column in grid.columns() {
                    let cell = row.intersection(*column).iter().next();
                    out.push(cell.map_or(0, NodeId::get));
                }
            }
        }
    }
}

fn read_configuration(reader: &mut Reader<'_>) -> Result<Configuration, &'static str> {
    let quorums = match reader.byte()? {
        1 => Majority::new(read_set(reader)?)
            .map(Quorums::Majority)
            .ok_or("a majority over no acceptors")?,
        2 => {
            let acceptors = read_set(reader)?;
            let phase1 = usize::from(reader.byte()?);
            let phase2 = usize::from(reader.byte()?);
            Flexible::new(acceptors, phase1, phase2)
                .map(Quorums::Flexible)
                .map_err(|_| "flexible quorums that do not build")?
        }
        3 => {
            let (rows, columns) = (reader.byte()?, reader.byte()?);
            let mut grid = Vec::new();
            for _ in 0..rows {
                let row = (0..columns)
                    .map(|_| NodeId::new(reader.byte()?).ok_or("bad node id in a grid"))
                    .collect::<Result<Vec<_>, _>>()?;
                grid.push(row);
            }
            Grid::new(&grid)
                .map(Quorums::Grid)
                .map_err(|_| "a grid that does not build")?
        }
        _ => return Err("unknown quorum system kind"),
    };
    Ok(Configuration::new(quorums))
}

fn put_set(out: &mut Vec<u8>, set: NodeSet) {
    let bits = set.iter().fold(0u64, |bits, node| bits | 1 << node.get());
    out.extend(bits.to_le_bytes());
}

fn read_set(reader: &mut Reader<'_>) -> Result<NodeSet, &'static str> {
    let bits = u64::from_le_bytes(reader.array()?);
    (0..64u8)
        .filter(|id| bits & (1 << id) != 0)
        .map(|id| NodeId::new(id).ok_or("bad node id in a set"))
        .collect()
}
