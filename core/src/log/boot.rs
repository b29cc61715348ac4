//! The wiped node: booting a node from its disk, and refusing a provisioned acceptor whose
//! durable state is missing or unreadable (Chandra, Griesemer and Redstone, "Paxos Made Live",
//! PODC 2007, section 5.1; C5 of protocol-aware recovery, Alagappan et al., FAST 2018).
//!
//! An acceptor that lost its promises and votes and answers as if new can break agreement: it
//! promises a lower ballot than it did, or reports "no vote" where it voted. The disk alone
//! cannot tell a fresh node from a wiped one (both are empty), so the caller says which, from
//! the configuration that names the node ([`Provisioning`]).

use crate::NodeId;
use crate::log::{ColocatedNode, DurableRecord, LogConfig, RecordError, Write, encode};
use std::fmt;

/// What the cluster's configuration says of a node, outside its disk: whether it has ever been
/// provisioned as an acceptor.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Provisioning {
    /// The configuration names the node for the first time: it has never promised or voted,
    /// so an empty disk is what it should have. The first boot of a cluster is fresh.
    Fresh,
    /// The node has served as an acceptor: its disk must hold its durable record.
    Provisioned,
}

/// Why a node was not booted. The node must not answer as an acceptor; it may come back only
/// as a new acceptor through reconfiguration, or as a learner.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BootRefused {
    /// A provisioned node's disk holds no record of it: wiped, or replaced by a blank one.
    Missing,
    /// A provisioned node's record cannot be trusted: a corrupt promise (C5), a corrupt write
    /// that is not a vote, a broken invariant, another node's disk.
    Unreadable(RecordError),
    /// The configuration says the node is fresh, yet its disk holds writes: whose they are
    /// and what they promised is unknown, so they are neither trusted nor overwritten.
    FreshDiskNotEmpty,
}

impl fmt::Display for BootRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BootRefused::Missing => f.write_str(
                "refusing to boot a wiped node: it was provisioned, and its disk holds no record",
            ),
            BootRefused::Unreadable(why) => {
                write!(
                    f,
                    "refusing to boot a node whose record is unreadable: {why}"
                )
            }
            BootRefused::FreshDiskNotEmpty => {
                f.write_str("refusing to boot a fresh node whose disk already holds writes")
            }
        }
    }
}

impl std::error::Error for BootRefused {}

/// A node booted from its disk, and how many torn tail frames its record dropped (0 or 1).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Booted {
    /// The node, ready to run.
    pub node: ColocatedNode,
    /// Torn tail frames the record dropped: writes never acknowledged.
    pub torn: usize,
}

impl ColocatedNode {
    /// Boots a node from its disk's frames, refusing a wiped one.
    ///
    /// A [`Provisioning::Fresh`] node must have an empty disk, and starts new
    /// ([`ColocatedNode::new`]). A disk whose first write tore holds no write
    /// ([`first_write_torn`]): the node starts new whatever the configuration says, and its
    /// torn frame is counted for the caller to drop. A [`Provisioning::Provisioned`] node restarts from its record
    /// ([`ColocatedNode::restart`]) if the record reads: a corrupt vote only makes that slot
    /// unknown (C2), but an empty disk, a disk with no identity, a corrupt promise or any other
    /// unreadable record is refused with the reason.
    pub fn boot(
        id: NodeId,
        config: LogConfig,
        provisioning: Provisioning,
        frames: &[Vec<u8>],
    ) -> Result<Booted, BootRefused> {
        if frames.is_empty() && provisioning == Provisioning::Fresh || first_write_torn(id, frames)
        {
            return Ok(Booted {
                node: ColocatedNode::new(id, config),
                torn: frames.len(),
            });
        }
        match provisioning {
            Provisioning::Fresh => Err(BootRefused::FreshDiskNotEmpty),
            Provisioning::Provisioned => {
                let (record, torn) = DurableRecord::recover(frames).map_err(unreadable)?;
                if record.identity.is_none() {
                    return Err(BootRefused::Missing);
                }
                let node = ColocatedNode::restart(id, config, &record).map_err(unreadable)?;
                Ok(Booted { node, torn })
            }
        }
    }
}

/// A torn first write is an empty disk: the disk's only frame is a cut-short prefix of this
/// node's own identity frame, the first write [`ColocatedNode::new`] makes.
///
/// Every other write comes after the identity and the node's messages leave only once their
/// writes are durable, so a node whose first write tore has never promised, voted or stood: it
/// never served as an acceptor, whatever the configuration says of it, and it starts new. An
/// empty disk is not such proof (a wiped disk is empty too), and neither is any other byte
/// string: only the start of this node's own identity frame is.
pub fn first_write_torn(id: NodeId, frames: &[Vec<u8>]) -> bool {
    let [only] = frames else {
        return false;
    };
    let identity = encode(&Write::Identity(id));
    only.len() < identity.len() && identity.starts_with(only)
}

/// A record that does not read: missing if it is blank, unreadable otherwise.
fn unreadable(error: RecordError) -> BootRefused {
    match error {
        RecordError::Blank => BootRefused::Missing,
        other => BootRefused::Unreadable(other),
    }
}
