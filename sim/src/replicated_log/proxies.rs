//! Proxy leaders (Compartmentalized Paxos, P1–P5): each hosted like a server but with no disk
//! and no clock, so its actions are a delivery to it, a crash and a restart (as a new, blank
//! proxy: P5); and the checker of what a proxy announces (P2), judged by the acceptors' votes.

use super::knowledge::Effect;
use super::{LogWorld, Part, ProxyHost, part};
use crate::check::Property;
use crate::faults::{Fault, NegativeControl, Refused};
use paros_core::log::{BrokenRule, Entry, LogEnvelope, LogMessage, Persisted, ProxyLeader, Slot};
use paros_core::{Ballot, NodeId};
use std::sync::Arc;

impl LogWorld {
    /// A new proxy leader for place `index`, breaking the rule of the world's negative control
    /// if that is a proxy's rule.
    pub(super) fn new_proxy(&self, index: usize) -> ProxyHost {
        let id = self.config.proxy_id(index);
        let mut proxy = ProxyLeader::restart(id, self.config.core_config());
        if let Some(rule) = self.broken_proxy_rule() {
            proxy.break_rule(rule);
        }
        ProxyHost::Up(proxy)
    }

    /// The proxy's rule the world's negative control breaks, if it is one.
    fn broken_proxy_rule(&self) -> Option<BrokenRule> {
        match self.config.negative_control? {
            NegativeControl::ProxyKeyedBySlot => Some(BrokenRule::ProxyKeyedBySlot),
            NegativeControl::ProxyIgnoresRepeats => Some(BrokenRule::ProxyIgnoresRepeats),
            _ => None,
        }
    }

    /// Makes the proxy at `index`, if up, break the rule of the world's negative control, if
    /// that is a proxy's rule.
    pub(super) fn break_proxy_rule(&mut self, index: usize) {
        if let Some(rule) = self.broken_proxy_rule()
            && let ProxyHost::Up(proxy) = self.proxy_mut(index)
        {
            proxy.break_rule(rule);
        }
        self.proxy_parts_changed(index);
    }

    /// The proxy leaders, P1 first.
    pub fn proxies(&self) -> &[ProxyHost] {
        &self.proxies.hosts
    }

    /// The proxy at `index`, to change; its part of the fingerprint must be refreshed after
    /// ([`LogWorld::proxy_parts_changed`]).
    fn proxy_mut(&mut self, index: usize) -> &mut ProxyHost {
        &mut Arc::make_mut(&mut self.proxies).hosts[index]
    }

    /// The place of the proxy leader `node`, if it is one.
    pub(super) fn proxy_index(&self, node: NodeId) -> Option<usize> {
        (0..self.proxies().len()).find(|index| self.config.proxy_id(*index) == node)
    }

    /// Whether `action` is taken by a proxy leader: a delivery to one, or its crash or
    /// restart. The memo of server steps never sees these.
    pub(super) fn is_proxy_action(&self, action: &super::LogAction) -> bool {
        use super::LogAction;
        let node = match *action {
            LogAction::Deliver(message) => match self.network.get(message) {
                Some(in_flight) => in_flight.envelope.to,
                None => return false,
            },
            LogAction::Crash(node) | LogAction::Restart(node) => node,
            _ => return false,
        };
        self.proxy_index(node).is_some()
    }

    /// A proxy's own actions enabled now: its crash while up and the budget allows, its
    /// restart while down.
    pub(super) fn enabled_at_proxy(&self, index: usize, actions: &mut Vec<super::LogAction>) {
        let node = self.config.proxy_id(index);
        if !self.proxies()[index].is_up() {
            actions.push(super::LogAction::Restart(node));
        } else if self.budget_left.allows(Fault::Crash) {
            actions.push(super::LogAction::Crash(node));
        }
    }

    /// Hands `envelope` to the proxy at `index`; a message to a proxy that is down is lost.
    pub(super) fn deliver_to_proxy(&mut self, index: usize, envelope: &LogEnvelope) {
        let ProxyHost::Up(proxy) = self.proxy_mut(index) else {
            return;
        };
        let _ignored = proxy.handle(envelope);
        // P5: a proxy's `Ready` has no write, so the proof of nothing releases its messages.
        let messages = proxy.take_ready().into_messages(Persisted::nothing());
        self.record_announcements(envelope.to, &messages);
        self.record_proxy_accepts(envelope.to, &messages);
        for message in messages {
            self.put_in_flight(message);
        }
        self.proxy_parts_changed(index);
    }

    /// A live proxy crashes, if the budget allows: its counts are gone.
    pub(super) fn crash_proxy(&mut self, index: usize) -> Result<(), Refused> {
        let node = self.config.proxy_id(index);
        if !self.proxies()[index].is_up() {
            return Err(Refused::NodeDown(node));
        }
        self.budget_left.spend(Fault::Crash)?;
        *self.proxy_mut(index) = ProxyHost::Down;
        self.proxy_parts_changed(index);
        Ok(())
    }

    /// A crashed proxy comes back as a new one (P5: there is nothing to read back).
    pub(super) fn restart_proxy(&mut self, index: usize) -> Result<(), Refused> {
        if self.proxies()[index].is_up() {
            return Err(Refused::NodeUp(self.config.proxy_id(index)));
        }
        *self.proxy_mut(index) = self.new_proxy(index);
        self.proxy_parts_changed(index);
        Ok(())
    }

    /// Keeps the proxy's part of the fingerprint.
    fn proxy_parts_changed(&mut self, index: usize) {
        let refreshed = part(Part::Proxy(index), &self.proxies()[index]);
        Arc::make_mut(&mut self.proxies).parts[index] = refreshed;
    }

    /// The announcements among a proxy's messages, for [`LogWorld::check_announcement`].
    fn record_announcements(&mut self, proxy: NodeId, messages: &[LogEnvelope]) {
        for envelope in messages {
            if let LogMessage::SlotChosen {
                ballot,
                slot,
                entry,
            } = &envelope.message
            {
                self.effects.push(Effect::Announced {
                    proxy,
                    slot: *slot,
                    ballot: *ballot,
                    entry: entry.clone(),
                });
            }
        }
    }

    /// The Accepts a proxy forwards, for the one-value-per-ballot checker: unchanged (P1), so
    /// they agree with what their leader sent, unless a rule is broken.
    fn record_proxy_accepts(&mut self, proxy: NodeId, messages: &[LogEnvelope]) {
        self.push_accepts_sent(proxy, messages);
    }

    /// P2's checker: a proxy's announcement that `entry` is chosen in `slot` at `ballot` must
    /// name what a Phase-2 quorum of acceptors voted for at exactly that (slot, ballot), by
    /// the votes as they left the acceptors.
    pub(super) fn check_announcement(
        &mut self,
        proxy: NodeId,
        slot: Slot,
        ballot: Ballot,
        entry: &Entry,
    ) {
        let key = (slot, ballot, entry.clone());
        let voters = self.knowledge.votes.get(&key).copied().unwrap_or_default();
        if self.chosen_in_slot(&self.config.quorum_system(), slot, voters) {
            return;
        }
        let names: Vec<String> = voters.iter().map(|voter| self.name(voter)).collect();
        let voted = match names.is_empty() {
            true => "no acceptor voted for it there".to_string(),
            false => format!("only {{{}}} voted for it there", names.join(", ")),
        };
        let detail = format!(
            "{} announced {} chosen in slot {slot} at {}.{}, but {voted}",
            self.name(proxy),
            self.entry_name(entry),
            ballot.round,
            self.name(ballot.node),
        );
        self.violate(Property::AnnouncedWasChosen, detail);
    }
}
