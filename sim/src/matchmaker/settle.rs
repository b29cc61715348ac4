//! Liveness once faults stop ([`MatchmakerWorld::settle`]): faults stop, a leader of a round
//! above every planned one joins the world, and a fair schedule restarts what is down,
//! delivers what is in flight, has a stalled reconfigurer send again and starts that leader.
//! The leader must complete Phase 1 and get a value chosen in its round; a schedule that has
//! nothing left to do before then breaks `later-leader-completes` (see `checks`).

use super::config::{LeaderPlan, MatchmakerWorldConfig};
use super::world::{LeaderFlags, MatchmakerWorld, MmAction, leader};
use crate::faults::{Budget, Refused};
use crate::model::Settled;
use paros_core::matchmaker::{Leader, MmMessage, Stage};
use paros_core::{NodeSet, Value};
use std::sync::Arc;

/// The most steps the fair schedule takes: far more than any world here needs once its
/// messages are delivered, since only a stalled reconfigurer sends anything again.
const FAIR_STEPS_MAX: u32 = 5_000;

/// The value the fair schedule's leader wants chosen, if no other is.
const FAIR_VALUE: &str = "v";

impl MatchmakerWorld {
    /// Faults stop: every budget is spent, and the fair schedule's leader joins the world,
    /// idle, planning the round above every planned one in majorities of the acceptors that
    /// have not retired and have no Retire on its way to them (the fair schedule delivers it,
    /// so they will have). Again is a no-op.
    pub(super) fn stop_faults(&mut self) -> Result<(), Refused> {
        if self.faults_stopped {
            return Ok(());
        }
        let index = self.config.leaders.len();
        if MatchmakerWorldConfig::leader_id(index).get() > MatchmakerWorldConfig::LAST_LEADER {
            return Err(Refused::BadConfig(
                "no leader is left for the fair schedule: plan at most 8",
            ));
        }
        let round = (self.config.leaders.iter().map(|plan| plan.round).max()).unwrap_or(0) + 1;
        let retiring: NodeSet = (self.network.in_flight().iter())
            .filter(|message| matches!(message.envelope.message, MmMessage::Retire { .. }))
            .map(|message| message.envelope.to)
            .collect();
        let retired = self.retired().union(retiring);
        let mut acceptors: Vec<u8> = (1..=self.config.acceptor_count)
            .filter(|number| !retired.contains(MatchmakerWorldConfig::acceptor_id(*number)))
            .collect();
        if acceptors.is_empty() {
            // Every acceptor retired: the leader cannot finish, and the checker says so.
            acceptors = (1..=self.config.acceptor_count).collect();
        }
        Arc::make_mut(&mut self.config).leaders.push(LeaderPlan {
            round,
            acceptors,
            value: Value::new(FAIR_VALUE),
        });
        let first = MatchmakerWorldConfig::first_generation();
        Arc::make_mut(&mut self.leaders).push(Arc::new(leader(&self.config, index, first)));
        Arc::make_mut(&mut self.leader_flags).push(LeaderFlags::default());
        self.nodes_sum = self.nodes_sum_from_scratch();
        self.budget_left = Budget::NONE;
        self.faults_stopped = true;
        Ok(())
    }

    /// The fair schedule's leader, once faults have stopped.
    pub fn fair_leader(&self) -> Option<&Leader> {
        self.faults_stopped
            .then(|| self.leaders.last().map(|leader| &**leader))
            .flatten()
    }

    /// The next step of the fair schedule, once faults have stopped: restart a matchmaker
    /// that is down; else deliver the oldest message to a node that is up (a crashed leader
    /// stays down); else have a stalled reconfigurer send again; else start the fair
    /// schedule's leader. `None` when none is left.
    pub fn fair_action(&self) -> Option<MmAction> {
        if !self.faults_stopped {
            return None;
        }
        let down = self.down();
        if let Some(matchmaker) = (self.matchmakers().iter()).find(|m| down.contains(m.id())) {
            return Some(MmAction::Restart(matchmaker.id()));
        }
        let deliverable = (self.in_flight().iter()).find(|m| !down.contains(m.envelope.to));
        if let Some(message) = deliverable {
            return Some(MmAction::Deliver(message.id));
        }
        if let Some(reconfigurer) = self.reconfigurer_to_retry() {
            return Some(MmAction::Retry(reconfigurer));
        }
        let leader = self.fair_leader()?;
        (leader.stage() == Stage::Idle).then(|| MmAction::Start(leader.id()))
    }

    /// Whether the fair schedule's leader got a value chosen in its round.
    pub fn fair_leader_chose(&self) -> bool {
        self.fair_leader()
            .is_some_and(|leader| leader.stage() == Stage::Chosen)
    }

    /// Liveness once faults stop: from this state, stop faults ([`MmAction::StopFaults`]) and
    /// follow the fair schedule ([`MatchmakerWorld::fair_action`]) until its leader's value is
    /// chosen, a property breaks, or nothing is left to do. `Err` when the world refuses one
    /// of its own fair steps: a hole in the model.
    pub fn settle(&self) -> Result<Settled<MmAction>, String> {
        let mut world = self.clone();
        let mut actions = vec![MmAction::StopFaults];
        world
            .apply(&MmAction::StopFaults)
            .map_err(|refused| refused.to_string())?;
        let mut steps = 0;
        while steps < FAIR_STEPS_MAX
            && !world.fair_leader_chose()
            && super::checks::safety(&world).is_empty()
        {
            let Some(action) = world.fair_action() else {
                break;
            };
            world
                .apply(&action)
                .map_err(|refused| format!("`{}`: {refused}", world.describe(&action)))?;
            actions.push(action);
            steps += 1;
        }
        let violations = super::checks::safety(&world);
        let decided = world.fair_leader_chose();
        let stuck = (!decided && violations.is_empty()).then(|| world.summary().join("; "));
        Ok(Settled {
            actions,
            decided,
            violations,
            gave_up: None,
            stuck,
        })
    }
}
