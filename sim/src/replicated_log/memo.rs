//! The memo of server steps: an exploration delivers the same message to the same server in
//! many states that differ only elsewhere; the memo steps it once.
//!
//! A delivery to a server reads only that server, the message and the configuration, and
//! changes only that server and the messages in flight (the one delivered leaves, the ones sent
//! join, in order); what the step asks of the world's [`Knowledge`] it leaves as a list of
//! [`Effect`]s, which depend on nothing else either. So the memo keeps two tables:
//!
//! - a step: the server and the message it received, to the server after, the messages sent
//!   and the effects;
//! - a learning: a step's effects and the knowledge they were learned against, to the
//!   knowledge after.
//!
//! Each is worked out once by the world's own code and replayed after. Both record what they
//! added to the fingerprint, a sum of parts, so the fingerprint of a remembered successor is
//! its parent's plus the two, with nothing built.
//!
//! Servers, messages, effects and knowledge are keyed by address. Each entry holds the `Arc`s
//! it was keyed under, so an address cannot be reused for other contents while the entry
//! lives, and a hit is checked against the entry's inputs in full (the same addresses). The
//! servers, messages and knowledge the memo meets are interned by contents (checked equal, not
//! only hashed equal), so equal contents reached along different paths share one address, and
//! so one entry; a message that escaped interning is only a miss, never a wrong hit.
//!
//! A proxy leader's steps (a delivery to it, its crash and restart) are never remembered: the
//! tables key on servers, and a proxy is not one. They are taken afresh by the world's code.
//!
//! Invariant: a memo serves the worlds of one exploration, which share one configuration.

use super::knowledge::{Effect, Part};
use super::memo_tables::{At, Input, KEYS, Learning, Memo, Reception, Step, Tables, address};
use super::{LogAction, LogWorld};
use crate::faults::{Fault, Refused};
use crate::fingerprint::part;
use crate::network::MessageId;
use paros_core::log::LogEnvelope;
use std::hash::BuildHasher;
use std::sync::Arc;

impl Tables {
    /// The reception remembered for exactly the delivery `at` names in `world`, if any.
    fn reception(&self, world: &LogWorld, at: &At) -> Option<&Reception> {
        self.receptions.get(&at.key).filter(|reception| {
            reception.index == at.index
                && reception.client_before == world.clients[at.index]
                && Arc::ptr_eq(&reception.knowledge_before, &world.knowledge)
                && (at.message).is_some_and(|message| {
                    Arc::ptr_eq(&reception.envelope, world.envelope(message))
                })
        })
    }

    /// The step remembered for exactly the server step `at` names in `world`, if any.
    fn step(&self, world: &LogWorld, at: &At) -> Option<&Arc<Step>> {
        self.steps.get(&at.key).filter(|step| {
            Arc::ptr_eq(&step.server_before, &world.servers[at.index])
                && match (&step.input, at.message) {
                    (Input::Message(envelope), Some(message)) => {
                        Arc::ptr_eq(envelope, world.envelope(message))
                    }
                    (Input::Own(action), None) => *action == at.action,
                    _ => false,
                }
        })
    }
}

impl LogWorld {
    /// The state `action` leads to, built through the memo when this world has one and the
    /// action is a delivery to a server or client, or a server's tick, crash or restart; built
    /// by [`LogWorld::apply`] otherwise (a proxy leader's steps among them).
    pub(super) fn remembered_successor(&self, action: &LogAction) -> Result<LogWorld, Refused> {
        let remembered = self.memo.as_deref().zip(self.remembered_at(action)?);
        if let Some((memo, at)) = &remembered
            && let Some(next) = self.replayed_successor(memo, at)
        {
            #[cfg(debug_assertions)]
            self.check_remembered(action, &next);
            return Ok(next);
        }
        let mut next = self.clone();
        next.known_fingerprint = None;
        match remembered {
            Some((memo, at)) => next.deliver_remembered(memo, &at)?,
            None => {
                let first_sent = next.network.next_id();
                next.apply(action)?;
                if let Some(memo) = self.memo.as_deref() {
                    let mut tables = memo.0.lock().expect("no step panics");
                    next.share_sent(&mut tables, first_sent);
                }
            }
        }
        next.known_fingerprint = Some(next.fingerprint());
        #[cfg(debug_assertions)]
        self.check_remembered(action, &next);
        Ok(next)
    }

    /// The fingerprint of the state `action` leads to: worked out from this one's without
    /// building it when the memo remembers the step and its learning.
    pub(super) fn remembered_fingerprint(&self, action: &LogAction) -> Result<u64, Refused> {
        if let Some((memo, at)) = self.memo.as_deref().zip(self.remembered_at(action)?) {
            let tables = memo.0.lock().expect("no step panics");
            if let Some(delta) = self.remembered_delta(&tables, &at) {
                let fingerprint = self.fingerprint().wrapping_add(delta);
                #[cfg(debug_assertions)]
                assert_eq!(Ok(fingerprint), self.plain_fingerprint(action));
                return Ok(fingerprint);
            }
        }
        self.remembered_successor(action)
            .map(|successor| successor.fingerprint())
    }

    /// The state the delivery `at` leads to, if the memo remembers all it does: built by
    /// replaying the step and its learning on a copy of this world, its fingerprint this
    /// one's plus what they add.
    fn replayed_successor(&self, memo: &Memo, at: &At) -> Option<LogWorld> {
        let tables = memo.0.lock().expect("no step panics");
        if at.to_client {
            return None;
        }
        let step = tables.step(self, at)?;
        let learning = match step.effects.is_empty() {
            true => None,
            false => Some(tables.learning(&step.effects, &self.knowledge)?),
        };
        let mut next = self.copy_with_room(step.sent.len());
        next.replay_step(step, at);
        let mut delta = (step.fingerprint_delta).wrapping_add(self.budget_delta(at));
        if let Some(learning) = learning {
            next.kept_sum = next.kept_sum.wrapping_add(learning.kept_delta);
            next.knowledge = Arc::clone(&learning.knowledge);
            delta = delta.wrapping_add(learning.fingerprint_delta);
        }
        next.known_fingerprint = Some(self.fingerprint().wrapping_add(delta));
        Some(next)
    }

    /// What the delivery `at` adds to the fingerprint, if the memo remembers all it does.
    fn remembered_delta(&self, tables: &Tables, at: &At) -> Option<u64> {
        if at.to_client {
            return (tables.reception(self, at)).map(|reception| reception.fingerprint_delta);
        }
        let step = tables.step(self, at)?;
        let delta = (step.fingerprint_delta).wrapping_add(self.budget_delta(at));
        if step.effects.is_empty() {
            return Some(delta);
        }
        let learning = tables.learning(&step.effects, &self.knowledge)?;
        Some(delta.wrapping_add(learning.fingerprint_delta))
    }

    /// What spending `at`'s fault adds to the fingerprint.
    fn budget_delta(&self, at: &At) -> u64 {
        if at.budget_after == self.budget_left {
            return 0;
        }
        part(Part::Budget, &at.budget_after).wrapping_sub(part(Part::Budget, &self.budget_left))
    }

    /// Where the memo would look up `action`: a delivery, or a tick, crash or restart, allowed
    /// now. `None` for any other action, or one whose fault the budget no longer allows
    /// (`apply` then refuses it).
    fn remembered_at(&self, action: &LogAction) -> Result<Option<At>, Refused> {
        if self.is_proxy_action(action) {
            return Ok(None); // a proxy's step is taken afresh: the memo keys on servers
        }
        if self.fair_steps_left.is_some() {
            return Ok(None); // the progress clock runs: every step is taken afresh
        }
        let (index, spends) = match *action {
            LogAction::Deliver(message) => return self.remembered_delivery(message).map(Some),
            LogAction::Tick(node) => (self.idle_server(node)?, Some(Fault::Tick)),
            LogAction::Crash(node) => (self.up_server(node)?, Some(Fault::Crash)),
            LogAction::Restart(node)
                if !self.servers[self.server_index(node)?].host.is_up()
                    && self.may_restart(self.server_index(node)?) =>
            {
                (self.server_index(node)?, None)
            }
            _ => return Ok(None),
        };
        let mut budget_after = self.budget_left;
        if let Some(fault) = spends
            && budget_after.spend(fault).is_err()
        {
            return Ok(None);
        }
        Ok(Some(At {
            action: *action,
            message: None,
            to_client: false,
            index,
            budget_after,
            key: (address(&self.servers[index]), KEYS.hash_one(action)),
        }))
    }

    /// Where the memo would look up the delivery of `message`, allowed now.
    fn remembered_delivery(&self, message: MessageId) -> Result<At, Refused> {
        let envelope = &self.deliverable(message)?.envelope;
        let action = LogAction::Deliver(message);
        let budget_after = self.budget_left;
        if let Ok(index) = self.client_index(envelope.to) {
            let reception = (index, &self.clients[index], address(envelope));
            let key = (address(&self.knowledge), KEYS.hash_one(reception));
            return Ok(At {
                action,
                message: Some(message),
                to_client: true,
                index,
                budget_after,
                key,
            });
        }
        let index = self.server_index(envelope.to)?;
        let key = (address(&self.servers[index]), address(envelope) as u64);
        Ok(At {
            action,
            message: Some(message),
            to_client: false,
            index,
            budget_after,
            key,
        })
    }

    /// The envelope of a message in flight.
    fn envelope(&self, message: MessageId) -> &Arc<LogEnvelope> {
        &self.network.get(message).expect("in flight").envelope
    }

    /// Delivers through the memo: the step, then the learning of its effects, each replayed
    /// if remembered and taken and remembered if not.
    fn deliver_remembered(&mut self, memo: &Memo, at: &At) -> Result<(), Refused> {
        let mut tables = memo.0.lock().expect("no step panics");
        if at.to_client {
            return self.receive_remembered(&mut tables, at);
        }
        let step = match tables.step(self, at) {
            Some(step) => {
                let step = Arc::clone(step);
                self.replay_step(&step, at);
                step
            }
            None => self.step_and_remember(&mut tables, at)?,
        };
        if step.effects.is_empty() {
            return Ok(());
        }
        match tables.learning(&step.effects, &self.knowledge) {
            Some(learning) => {
                self.kept_sum = self.kept_sum.wrapping_add(learning.kept_delta);
                self.knowledge = Arc::clone(&learning.knowledge);
            }
            None => self.learn_and_remember(&mut tables, &step.effects),
        }
        Ok(())
    }

    /// Delivers to a client through the memo: replays the reception if remembered, and
    /// takes and remembers it if not.
    fn receive_remembered(&mut self, tables: &mut Tables, at: &At) -> Result<(), Refused> {
        let before = self.kept_sum;
        let message = at
            .message
            .ok_or(Refused::NoSuchNode(self.config.client_id(at.index)))?;
        if let Some(reception) = tables.reception(self, at) {
            self.network.take(message);
            self.kept_sum = before.wrapping_add(reception.kept_delta);
            self.clients[at.index] = reception.client.clone();
            self.knowledge = Arc::clone(&reception.knowledge);
            return Ok(());
        }
        let client_before = self.clients[at.index].clone();
        let knowledge_before = Arc::clone(&self.knowledge);
        let envelope = self.envelope(message).clone();
        let fingerprint_before = self.fingerprint();
        let first_sent = self.network.next_id();
        self.apply(&at.action)?;
        self.share_sent(tables, first_sent);
        if !Arc::ptr_eq(&self.knowledge, &knowledge_before) {
            self.knowledge = tables.intern_knowledge(&self.knowledge);
        }
        let reception = Reception {
            index: at.index,
            client_before,
            knowledge_before,
            envelope,
            client: self.clients[at.index].clone(),
            knowledge: Arc::clone(&self.knowledge),
            kept_delta: self.kept_sum.wrapping_sub(before),
            fingerprint_delta: self.fingerprint().wrapping_sub(fingerprint_before),
        };
        tables.receptions.insert(at.key, reception);
        Ok(())
    }

    fn replay_step(&mut self, step: &Step, at: &At) {
        (self.network).replay(at.message, &step.sent, step.message_sum_delta);
        self.budget_left = at.budget_after;
        self.kept_sum = self.kept_sum.wrapping_add(step.kept_delta);
        self.servers[at.index] = Arc::clone(&step.server);
        self.server_parts[at.index] = step.server_part;
    }

    /// Takes a server step by the world's own code, its effects left unlearned, and
    /// remembers it.
    fn step_and_remember(&mut self, tables: &mut Tables, at: &At) -> Result<Arc<Step>, Refused> {
        let index = at.index;
        let server_before = Arc::clone(&self.servers[index]);
        let input = match at.message {
            Some(message) => Input::Message(Arc::clone(self.envelope(message))),
            None => Input::Own(at.action),
        };
        let (kept_before, fingerprint_before) = (self.kept_sum, self.fingerprint());
        let budget_delta = self.budget_delta(at);
        let message_sum_before = self.network.message_sum();
        let first_sent = self.network.next_id();
        self.step_servers(&at.action)?;
        debug_assert_eq!(self.budget_left, at.budget_after);
        self.servers[index] = tables.intern_server(self.server_parts[index], &self.servers[index]);
        self.share_sent(tables, first_sent);
        let sent = (self.network.in_flight().iter())
            .filter(|in_flight| in_flight.id >= first_sent)
            .map(|in_flight| Arc::clone(&in_flight.envelope))
            .collect();
        let fingerprint_delta = (self.fingerprint())
            .wrapping_sub(fingerprint_before)
            .wrapping_sub(budget_delta);
        let step = Arc::new(Step {
            server_before,
            input,
            server: Arc::clone(&self.servers[index]),
            server_part: self.server_parts[index],
            sent,
            message_sum_delta: self.network.message_sum().wrapping_sub(message_sum_before),
            kept_delta: self.kept_sum.wrapping_sub(kept_before),
            fingerprint_delta,
            effects: Arc::new(std::mem::take(&mut self.effects)),
        });
        tables.steps.insert(at.key, Arc::clone(&step));
        Ok(step)
    }

    /// Replaces the messages sent since `first` by the memo's copies of them, so that the
    /// steps that receive them are found by address.
    fn share_sent(&mut self, tables: &mut Tables, first: MessageId) {
        (self.network).share_since(first, |envelope| tables.intern_envelope(envelope));
    }

    /// This world's messages in flight replaced by the memo's copies (see
    /// [`LogWorld::share_sent`]): for the first world of an exploration.
    pub(super) fn share_in_flight(&mut self) {
        if let Some(memo) = self.memo.as_deref() {
            let mut tables = memo.0.lock().expect("no step panics");
            (self.network).share_since(MessageId(0), |envelope| tables.intern_envelope(envelope));
        }
    }

    /// Learns `effects` by the world's own code and remembers what they did to the knowledge.
    fn learn_and_remember(&mut self, tables: &mut Tables, effects: &Arc<Vec<Effect>>) {
        let knowledge_before = Arc::clone(&self.knowledge);
        let (kept_before, fingerprint_before) = (self.kept_sum, self.fingerprint());
        for effect in effects.iter() {
            self.learn(effect.clone());
        }
        if !Arc::ptr_eq(&self.knowledge, &knowledge_before) {
            self.knowledge = tables.intern_knowledge(&self.knowledge);
        }
        let key = (address(effects), address(&knowledge_before));
        let learning = Learning {
            effects: Arc::clone(effects),
            knowledge_before,
            knowledge: Arc::clone(&self.knowledge),
            kept_delta: self.kept_sum.wrapping_sub(kept_before),
            fingerprint_delta: self.fingerprint().wrapping_sub(fingerprint_before),
        };
        tables.learnings.insert(key, learning);
    }

    /// Debug builds: the fingerprint of the successor `apply` builds (the kept one: the
    /// proptest checks it against the one from scratch).
    #[cfg(debug_assertions)]
    fn plain_fingerprint(&self, action: &LogAction) -> Result<u64, Refused> {
        let mut plain = self.clone();
        plain.apply(action)?;
        Ok(plain.fingerprint())
    }

    /// Debug builds: a successor built through the memo is the one `apply` builds.
    #[cfg(debug_assertions)]
    fn check_remembered(&self, action: &LogAction, built: &LogWorld) {
        let mut plain = self.clone();
        plain.apply(action).expect("applied through the memo");
        let same = plain.fingerprint() == built.fingerprint()
            && plain.network.fingerprint() == built.network.fingerprint()
            && plain.kept_sum == built.kept_sum
            && plain.network.in_flight() == built.network.in_flight()
            && built.effects.is_empty()
            && plain.network.next_id() == built.network.next_id()
            && plain.knowledge == built.knowledge
            && plain.clients == built.clients
            && plain.budget_left == built.budget_left
            && plain.network.isolated() == built.network.isolated()
            && plain.servers == built.servers
            && plain.server_parts == built.server_parts
            && plain.proxies == built.proxies;
        assert!(same, "the memo built another successor for {action}");
    }
}

#[cfg(test)]
mod tests {
    use super::super::LogWorldConfig;
    use crate::explore::{self, Limits};
    use crate::faults::{Budget, Fault, Refused};
    use crate::model::Model;
    use crate::replicated_log::ClientOp;

    /// A search through the memo visits exactly what one without it does (and, in debug
    /// builds, every successor the memo builds is checked against `apply`'s).
    #[test]
    fn a_search_through_the_memo_visits_what_one_without_it_does() {
        let mut config = LogWorldConfig::three_nodes(vec![ClientOp::write("x", "1")]);
        config.election_timeout_ticks = 1;
        config.budget = Budget::NONE
            .with(Fault::Tick, 1)
            .with(Fault::Crash, 1)
            .with(Fault::Duplicate, 1);
        let world = super::LogWorld::new(config).unwrap();
        let remembered = explore::explore(world.clone(), Limits::default()).unwrap();
        let plain = explore::explore(Plain(world), Limits::default()).unwrap();
        assert_eq!(
            (remembered.states, remembered.transitions, remembered.depth),
            (plain.states, plain.transitions, plain.depth)
        );
        assert!(remembered.states > 1000, "{} states", remembered.states);
    }

    /// The world without the memo: the trait's defaults clone and apply.
    #[derive(Clone)]
    struct Plain(super::LogWorld);

    impl Model for Plain {
        type Config = LogWorldConfig;
        type Action = super::LogAction;
        type Step = ();

        const FAULTS: &'static [Fault] = super::LogWorld::FAULTS;

        fn build(config: LogWorldConfig) -> Result<Plain, Refused> {
            super::LogWorld::new(config).map(Plain)
        }

        fn budget_left(&self) -> Budget {
            Model::budget_left(&self.0)
        }

        fn enabled(&self) -> Vec<Self::Action> {
            self.0.enabled()
        }

        fn apply(&mut self, action: &Self::Action) -> Result<(), Refused> {
            self.0.apply(action)
        }

        fn fingerprint(&self) -> u64 {
            self.0.fingerprint()
        }

        fn violations(&self) -> Vec<crate::check::Violation> {
            Model::violations(&self.0)
        }

        fn parse_action(&self, text: &str) -> Result<Self::Action, String> {
            self.0.parse_action(text)
        }

        fn describe(&self, action: &Self::Action) -> String {
            self.0.describe(action)
        }

        fn is_decided(&self) -> bool {
            Model::is_decided(&self.0)
        }

        fn fault_kind(&self, action: &Self::Action) -> Option<Fault> {
            Model::fault_kind(&self.0, action)
        }
    }
}
