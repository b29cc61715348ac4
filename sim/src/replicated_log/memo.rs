//! The memo of server steps: an exploration delivers the same message to the same server, under
//! the same knowledge, in many states that differ only elsewhere; the memo steps it once.
//!
//! A delivery to a server reads only that server, the message, the world's [`Knowledge`] (its
//! checkers read the history, decisions, votes and violations) and the configuration. It changes
//! only that server, the knowledge, the messages in flight (the one delivered leaves, the ones
//! sent join, in order) and the kept sum. So its effect, worked out once by the ordinary
//! [`LogWorld::apply`], is replayed for every later delivery with the same inputs.
//!
//! Servers and knowledge are keyed by address. Each entry holds the `Arc`s it was keyed under,
//! so an address cannot be reused for other contents while the entry lives. Servers and
//! knowledge a step makes are interned by contents (checked equal, not only hashed equal), so
//! equal contents reached along different paths share one address, and so one entry.
//!
//! Invariant: a memo serves the worlds of one exploration, which share one configuration.

use super::{FINGERPRINT, Knowledge, LogAction, LogRefused, LogWorld, Server};
use crate::MessageId;
use paros_core::log::LogEnvelope;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex};

/// The memo of one exploration's server steps (see the module docs).
#[derive(Default)]
pub(super) struct Memo(Mutex<Steps>);

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memo")
    }
}

/// A step's inputs: the server's and the knowledge's addresses and the message's hash.
type Key = (usize, usize, u64);

#[derive(Default)]
struct Steps {
    steps: HashMap<Key, Step, foldhash::fast::FixedState>,
    /// Servers by their fingerprint part.
    servers: HashMap<u64, Arc<Server>, foldhash::fast::FixedState>,
    /// Knowledge by its hash.
    knowledge: HashMap<u64, Arc<Knowledge>, foldhash::fast::FixedState>,
}

/// One delivery to a server: its inputs in full, and what it did.
struct Step {
    server_before: Arc<Server>,
    knowledge_before: Arc<Knowledge>,
    envelope: LogEnvelope,
    server: Arc<Server>,
    server_part: u64,
    knowledge: Arc<Knowledge>,
    /// The messages it put in flight, in order.
    sent: Vec<LogEnvelope>,
    /// What it added to the kept sum, the delivered message's part taken away included.
    kept_delta: u64,
    /// What it added to the fingerprint: the same wherever the step is taken, since the
    /// fingerprint is a sum of parts and the step changes the same parts the same way.
    fingerprint_delta: u64,
}

impl Steps {
    /// The step remembered for exactly the delivery `at` names in `world`, if any.
    fn find(&self, world: &LogWorld, at: &At) -> Option<&Step> {
        self.steps.get(&at.key).filter(|step| {
            Arc::ptr_eq(&step.server_before, &world.servers[at.index])
                && Arc::ptr_eq(&step.knowledge_before, &world.knowledge)
                && step.envelope == *world.envelope(at.message)
        })
    }

    /// The one server with these contents the memo knows, this one if it knows none.
    fn intern_server(&mut self, part: u64, server: &Arc<Server>) -> Arc<Server> {
        let known = self
            .servers
            .entry(part)
            .or_insert_with(|| Arc::clone(server));
        if **known == **server {
            Arc::clone(known)
        } else {
            Arc::clone(server)
        }
    }

    /// The one knowledge with these contents the memo knows, this one if it knows none.
    fn intern_knowledge(&mut self, knowledge: &Arc<Knowledge>) -> Arc<Knowledge> {
        let hash = FINGERPRINT.hash_one(&**knowledge);
        let known = (self.knowledge.entry(hash)).or_insert_with(|| Arc::clone(knowledge));
        if **known == **knowledge {
            Arc::clone(known)
        } else {
            Arc::clone(knowledge)
        }
    }
}

/// A delivery to a server, as the memo looks it up.
struct At {
    message: MessageId,
    index: usize,
    key: Key,
}

impl LogWorld {
    /// The state `action` leads to, built through the memo when this world has one and the
    /// action delivers a message to a server; built by [`LogWorld::apply`] otherwise.
    pub(super) fn remembered_successor(&self, action: &LogAction) -> Result<LogWorld, LogRefused> {
        let mut next = self.clone();
        match self.memo.as_deref().zip(self.server_delivery(action)?) {
            Some((memo, at)) => next.deliver_remembered(memo, &at)?,
            None => next.apply(action)?,
        }
        #[cfg(debug_assertions)]
        self.check_remembered(action, &next);
        Ok(next)
    }

    /// The fingerprint of the state `action` leads to: worked out from this one's without
    /// building it when the memo remembers the step, since a step adds the same to the sum of
    /// parts wherever it is taken.
    pub(super) fn remembered_fingerprint(&self, action: &LogAction) -> Result<u64, LogRefused> {
        if let Some((memo, at)) = self.memo.as_deref().zip(self.server_delivery(action)?) {
            let steps = memo.0.lock().expect("no step panics");
            if let Some(step) = steps.find(self, &at) {
                let fingerprint = self.fingerprint().wrapping_add(step.fingerprint_delta);
                #[cfg(debug_assertions)]
                assert_eq!(Ok(fingerprint), self.plain_fingerprint(action));
                return Ok(fingerprint);
            }
        }
        self.remembered_successor(action)
            .map(|successor| successor.fingerprint())
    }

    /// Where the memo would look up `action`: a delivery, allowed now, of a message to a
    /// server. `None` for any other action.
    fn server_delivery(&self, action: &LogAction) -> Result<Option<At>, LogRefused> {
        let LogAction::Deliver(message) = *action else {
            return Ok(None);
        };
        let envelope = &self.deliverable(message)?.envelope;
        let Ok(index) = self.server_index(envelope.to) else {
            return Ok(None); // to a client
        };
        let key = (
            Arc::as_ptr(&self.servers[index]) as usize,
            Arc::as_ptr(&self.knowledge) as usize,
            FINGERPRINT.hash_one(envelope),
        );
        Ok(Some(At {
            message,
            index,
            key,
        }))
    }

    /// The envelope of a message in flight. Message ids ascend, so the search is binary.
    fn envelope(&self, message: MessageId) -> &LogEnvelope {
        let at = (self.in_flight)
            .binary_search_by_key(&message, |in_flight| in_flight.id)
            .expect("in flight");
        &self.in_flight[at].envelope
    }

    /// Delivers through the memo: replays the step it remembers, or takes and remembers it.
    fn deliver_remembered(&mut self, memo: &Memo, at: &At) -> Result<(), LogRefused> {
        let mut steps = memo.0.lock().expect("no step panics");
        let Some(step) = steps.find(self, at) else {
            return self.deliver_and_remember(&mut steps, at);
        };
        let before = self.kept_sum;
        self.take(at.message);
        for envelope in &step.sent {
            self.put_in_flight(envelope.clone());
        }
        self.kept_sum = before.wrapping_add(step.kept_delta);
        self.servers[at.index] = Arc::clone(&step.server);
        self.server_parts[at.index] = step.server_part;
        self.knowledge = Arc::clone(&step.knowledge);
        Ok(())
    }

    /// Delivers by [`LogWorld::apply`] and remembers what the delivery did.
    fn deliver_and_remember(&mut self, steps: &mut Steps, at: &At) -> Result<(), LogRefused> {
        let index = at.index;
        let server_before = Arc::clone(&self.servers[index]);
        let knowledge_before = Arc::clone(&self.knowledge);
        let envelope = self.envelope(at.message).clone();
        let (kept_before, fingerprint_before) = (self.kept_sum, self.fingerprint());
        let first_sent = self.next_message;
        self.apply(&LogAction::Deliver(at.message))?;
        self.servers[index] = steps.intern_server(self.server_parts[index], &self.servers[index]);
        if !Arc::ptr_eq(&self.knowledge, &knowledge_before) {
            self.knowledge = steps.intern_knowledge(&self.knowledge);
        }
        let sent = (self.in_flight.iter())
            .filter(|in_flight| in_flight.id.0 >= first_sent)
            .map(|in_flight| in_flight.envelope.clone())
            .collect();
        let step = Step {
            server_before,
            knowledge_before,
            envelope,
            server: Arc::clone(&self.servers[index]),
            server_part: self.server_parts[index],
            knowledge: Arc::clone(&self.knowledge),
            sent,
            kept_delta: self.kept_sum.wrapping_sub(kept_before),
            fingerprint_delta: self.fingerprint().wrapping_sub(fingerprint_before),
        };
        steps.steps.insert(at.key, step);
        Ok(())
    }

    /// Debug builds: the fingerprint of the successor `apply` builds.
    #[cfg(debug_assertions)]
    fn plain_fingerprint(&self, action: &LogAction) -> Result<u64, LogRefused> {
        let mut plain = self.clone();
        plain.apply(action)?;
        Ok(plain.fingerprint_from_scratch())
    }

    /// Debug builds: a successor built through the memo is the one `apply` builds.
    #[cfg(debug_assertions)]
    fn check_remembered(&self, action: &LogAction, built: &LogWorld) {
        let mut plain = self.clone();
        plain.apply(action).expect("applied through the memo");
        let same = plain.fingerprint_from_scratch() == built.fingerprint_from_scratch()
            && plain.fingerprint() == built.fingerprint()
            && plain.in_flight == built.in_flight
            && plain.next_message == built.next_message
            && plain.knowledge == built.knowledge
            && plain.servers == built.servers
            && plain.server_parts == built.server_parts;
        assert!(same, "the memo built another successor for {action}");
    }
}

#[cfg(test)]
mod tests {
    use super::super::{LogBudget, LogWorldConfig};
    use crate::explore::{self, Limits};
    use crate::model::Model;
    use crate::replicated_log::ClientOp;

    /// A search through the memo visits exactly what one without it does (and, in debug
    /// builds, every successor the memo builds is checked against `apply`'s).
    #[test]
    fn a_search_through_the_memo_visits_what_one_without_it_does() {
        let mut config = LogWorldConfig::three_nodes(vec![ClientOp::write("x", "1")]);
        config.election_timeout_ticks = 1;
        config.budget = LogBudget {
            ticks: 1,
            crashes: 1,
            duplicates: 1,
            ..LogBudget::default()
        };
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
        type Action = super::LogAction;
        type Refused = super::LogRefused;

        fn enabled(&self) -> Vec<Self::Action> {
            self.0.enabled()
        }

        fn apply(&mut self, action: &Self::Action) -> Result<(), Self::Refused> {
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

        fn fault_kind(&self, action: &Self::Action) -> Option<&'static str> {
            Model::fault_kind(&self.0, action)
        }
    }
}
