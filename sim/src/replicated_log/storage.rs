//! Storage faults and what they are judged by: a record corrupted on a crashed node's disk
//! (C1, found at its restart), a disk wiped (the wiped node, refused at boot), and the
//! no-none-where-voted checker (C2), which holds every Promise a node sends against the slots it
//! durably voted in.
//!
//! Protocol-aware recovery: Alagappan et al., "Protocol-Aware Recovery for Consensus-Based
//! Storage", FAST 2018; the wiped node: Paxos Made Live, section 5.1.

use super::action::DiskRecord;
use super::knowledge::Effect;
use super::{LogAction, LogWorld};
use crate::check::Property;
use crate::faults::{Fault, NegativeControl, Refused};
use paros_core::NodeId;
use paros_core::log::{
    ColocatedNode, DurableRecord, LogEnvelope, LogMessage, Provisioning, RecordLabel, Slot, Write,
    encode, read_frame,
};
use std::sync::Arc;

/// The byte a record-level corruption flips: in the payload, past the frame's label (17 bytes)
/// and its payload header (length, the length's checksum and the payload's: 20 bytes), so the
/// label still says which record the frame held.
const CORRUPTED_BYTE: usize = 17 + 20 + 1;

/// The records of `disk` a corruption would change: the latest frame of each promise and vote
/// label, by index, when that frame still reads.
pub(super) fn corruptible(disk: &[Vec<u8>]) -> Vec<(DiskRecord, usize)> {
    // A list, not a map: a disk holds a handful of records, and the game's module would carry
    // another B-tree's code for this one key type.
    let mut latest: Vec<(DiskRecord, Option<usize>)> = Vec::new();
    for (index, frame) in disk.iter().enumerate() {
        let (label, readable) = match read_frame(frame) {
            Ok(write) => (Some(RecordLabel::of(&write)), true),
            Err(paros_core::log::FrameRead::Corrupt { label, .. }) => (label, false),
            Err(paros_core::log::FrameRead::Torn(_)) => (None, false),
        };
        let record = match label {
            Some(RecordLabel::Promise) => DiskRecord::Promise,
            Some(RecordLabel::Vote(slot)) => DiskRecord::Vote(slot),
            Some(RecordLabel::Other(_)) | None => continue,
        };
        let frame = readable.then_some(index);
        match latest.iter_mut().find(|(known, _)| *known == record) {
            Some(entry) => entry.1 = frame,
            None => latest.push((record, frame)),
        }
    }
    latest
        .into_iter()
        .filter_map(|(record, index)| Some((record, index?)))
        .collect()
}

/// Every single-bit flip of every frame of a crashed node's disk.
fn enabled_bit_flips(node: NodeId, disk: &[Vec<u8>], actions: &mut Vec<LogAction>) {
    for (frame, bytes) in disk.iter().enumerate() {
        let (Ok(frame), Ok(bits)) = (u16::try_from(frame), u16::try_from(bytes.len() * 8)) else {
            continue;
        };
        actions.extend((0..bits).map(|bit| LogAction::FlipBit { node, frame, bit }));
    }
}

impl LogWorld {
    /// The storage faults enabled at a crashed server: a corruption of each record it would
    /// change, and a wipe of a disk that holds anything.
    pub(super) fn enabled_storage_faults(&self, index: usize, actions: &mut Vec<LogAction>) {
        let server = &self.servers[index];
        let node = self.config.node_id(index);
        if self.budget_left.allows(Fault::CorruptRecord) {
            if self.config.bit_level_storage {
                enabled_bit_flips(node, &server.disk, actions);
            } else {
                for (record, _) in corruptible(&server.disk) {
                    actions.push(LogAction::CorruptRecord { node, record });
                }
            }
        }
        if self.budget_left.allows(Fault::WipeDisk) && !server.disk.is_empty() {
            actions.push(LogAction::WipeDisk(node));
        }
    }

    /// The torn writes enabled at a node persisting `writes`: its last frame cut half way, or,
    /// with bit-level storage faults, at every byte short of its end.
    pub(super) fn enabled_torn_writes(
        &self,
        node: NodeId,
        writes: &[Write],
        actions: &mut Vec<LogAction>,
    ) {
        if !self.config.bit_level_storage {
            actions.push(LogAction::TornCrash(node));
            return;
        }
        let Some(last) = writes.last() else {
            return;
        };
        let length = u16::try_from(encode(last).len()).unwrap_or(u16::MAX);
        actions.extend((0..length).map(|kept| LogAction::TornCrashAt { node, kept }));
    }

    /// Whether a crashed server may restart: the library boots it, or the blank-restart
    /// control ignores its refusal.
    pub(super) fn may_restart(&self, index: usize) -> bool {
        !self.servers[index].boot_refused
            || self.config.negative_control == Some(NegativeControl::BlankRestart)
    }

    /// Damages `record` on a crashed node's disk: its latest frame fails its checksum.
    pub(super) fn corrupt_record(
        &mut self,
        node: NodeId,
        record: DiskRecord,
    ) -> Result<(), Refused> {
        let index = self.down_server(node)?;
        let (_, frame) = corruptible(&self.servers[index].disk)
            .into_iter()
            .find(|(corruptible, _)| *corruptible == record)
            .ok_or(Refused::NoSuchRecord(node))?;
        self.budget_left.spend(Fault::CorruptRecord)?;
        let server = Arc::make_mut(&mut self.servers[index]);
        server.disk[frame][CORRUPTED_BYTE] ^= 0x40;
        self.disk_changed(index);
        Ok(())
    }

    /// Flips one bit of one frame on a crashed node's disk, wherever it lies: length, label,
    /// checksum or payload.
    pub(super) fn flip_bit(
        &mut self,
        node: NodeId,
        frame: usize,
        bit: usize,
    ) -> Result<(), Refused> {
        let index = self.down_server(node)?;
        (self.servers[index].disk.get(frame))
            .filter(|bytes| bit / 8 < bytes.len())
            .ok_or(Refused::NoSuchRecord(node))?;
        self.budget_left.spend(Fault::CorruptRecord)?;
        let server = Arc::make_mut(&mut self.servers[index]);
        server.disk[frame][bit / 8] ^= 1 << (bit % 8);
        self.disk_changed(index);
        Ok(())
    }

    /// Erases a crashed node's disk. What it durably voted is gone with it: the
    /// no-none-where-voted checker judges what storage reports of what it holds, and a wiped
    /// node is kept from answering at all by the boot refusal.
    pub(super) fn wipe_disk(&mut self, node: NodeId) -> Result<(), Refused> {
        let index = self.down_server(node)?;
        if self.servers[index].disk.is_empty() {
            return Err(Refused::NoSuchRecord(node));
        }
        self.budget_left.spend(Fault::WipeDisk)?;
        let server = Arc::make_mut(&mut self.servers[index]);
        server.disk.clear();
        server.voted_slots.clear();
        server.last_frame_cut = false;
        self.disk_changed(index);
        Ok(())
    }

    /// A crashed node's disk changed under it: what a restart would read, and whether the
    /// library would boot it at all (its own [`ColocatedNode::boot`], on the disk as it is).
    fn disk_changed(&mut self, index: usize) {
        let node = self.config.node_id(index);
        let config = self.config.core_config();
        let server = Arc::make_mut(&mut self.servers[index]);
        server.record = DurableRecord::recover(&server.disk)
            .map(|(record, _)| record)
            .unwrap_or_default();
        server.boot_refused =
            ColocatedNode::boot(node, config, Provisioning::Provisioned, &server.disk).is_err();
    }

    fn down_server(&self, node: NodeId) -> Result<usize, Refused> {
        let index = self.server_index(node)?;
        if self.servers[index].host.is_up() {
            return Err(Refused::NodeUp(node));
        }
        Ok(index)
    }

    /// The slots a node durably voted in, kept as its writes reach its disk: a vote's frame
    /// adds its slot, a truncation drops the slots it compacts.
    pub(super) fn record_durable_votes(&mut self, index: usize, writes: &[Write]) {
        if !writes
            .iter()
            .any(|write| matches!(write, Write::Accept(..) | Write::Truncate(_)))
        {
            return;
        }
        let voted = &mut Arc::make_mut(&mut self.servers[index]).voted_slots;
        for write in writes {
            match write {
                Write::Accept(slot, _) => {
                    voted.insert(*slot);
                }
                Write::Truncate(through) => voted.retain(|slot| slot > through),
                _ => {}
            }
        }
    }

    /// C2's checker: each Promise leaving a node answers every slot it durably voted in, from
    /// the Prepare's first slot on and above its floor, with a vote or "unknown", never with
    /// "no vote".
    pub(super) fn check_promises(&mut self, index: usize, messages: &[LogEnvelope]) {
        let voted = &self.servers[index].voted_slots;
        if voted.is_empty() {
            return;
        }
        let name = self.name(self.config.node_id(index));
        for envelope in messages {
            let LogMessage::Promise {
                ballot,
                from_slot,
                floor,
                votes,
                unknown,
            } = &envelope.message
            else {
                continue;
            };
            let answered = |slot: &Slot| {
                votes.iter().any(|(voted, _)| voted == slot) || unknown.contains(slot)
            };
            let first = (*from_slot).max(floor.next());
            for slot in voted.range(first..).filter(|slot| !answered(slot)) {
                let detail = format!(
                    "{name} promised {}.{} reporting no vote in slot {slot}, where it durably voted",
                    ballot.round,
                    self.name(ballot.node)
                );
                self.effects
                    .push(Effect::Violation(Property::NoNoneWhereVoted, detail));
            }
        }
    }
}
