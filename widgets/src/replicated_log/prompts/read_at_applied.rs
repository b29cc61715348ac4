//! What a leader that serves a read from what it has applied breaks: the simulator's
//! read-at-applied control, played on a copy of the world, and the linearizability checker's
//! verdict on the answer it gives.

use crate::replicated_log::history;
use paros_core::NodeId;
use paros_core::log::LogMessage;
use paros_sim::check::Property;
use paros_sim::replicated_log::{LogAction, LogWorld};
use paros_sim::{MessageId, NegativeControl};

/// The checker's finding, had the leader answered `client`'s read with `value` now. Delivering
/// the client's own Read is played on in a copy of the world under the read-at-applied control
/// (the leader answers at once, and the client hears it); a read already held is checked with
/// the answer added to the history. The finding says which: played on, or checked.
/// `None` when the answer would be linearizable.
pub(super) fn stale_read_finding(
    world: &LogWorld,
    message: u32,
    client: NodeId,
    value: Option<&str>,
) -> Option<String> {
    let delivers_the_read = world.in_flight().iter().any(|in_flight| {
        in_flight.id.0 == message && matches!(in_flight.envelope.message, LogMessage::Read { .. })
    });
    let finding = if delivers_the_read {
        let finding = played_on(world, message, client)?;
        format!(
            " Played on in a copy of this world under the simulator's read-at-applied control, \
             a leader that answers from what it has applied: the linearizability checker \
             reports that {finding}."
        )
    } else {
        let paros_sim::linearizability::Verdict::NotLinearizable { reason, .. } =
            history::verdict_if_read_returns(world, client, value)?
        else {
            return None;
        };
        format!(
            " That is the answer of the simulator's read-at-applied control, a leader that \
             answers from what it has applied; with it in the history, the linearizability \
             checker reports that {reason}."
        )
    };
    Some(history::client_names(world, &finding))
}

/// The read delivered under the control, and its answer delivered to the client: the
/// linearizability violation the World's checker reports, if any.
fn played_on(world: &LogWorld, message: u32, client: NodeId) -> Option<String> {
    let mut demo = world
        .with_negative_control(NegativeControl::ReadAtApplied)
        .ok()?;
    demo.apply(&LogAction::Deliver(MessageId(message))).ok()?;
    let reply = demo.in_flight().iter().find(|in_flight| {
        in_flight.envelope.to == client
            && matches!(in_flight.envelope.message, LogMessage::Reply { .. })
    })?;
    let reply = reply.id;
    demo.apply(&LogAction::Deliver(reply)).ok()?;
    demo.violations()
        .iter()
        .find(|violation| violation.property == Property::Linearizability)
        .map(|violation| violation.detail.clone())
}
