//! Tests of proxy leaders in the log world: a command chosen through a proxy, a proxy crashed
//! mid-slot and passed by, a proxy that never touches a disk, its names, the two safety
//! controls' worlds passing without their fault, and progress with its control.

use super::test_worlds::{after, config_of};
use super::*;
use crate::check::Property;
use crate::explore::{self, Limits};
use paros_core::log::{Command, LogMessage, ProxyLeader, Slot};
use paros_core::{NodeId, Value};

/// The honest world of act4-proxy-leaders: N1-N3, P1 and P2, C1 writing x=1 at N1.
fn world_after(actions: &[&str]) -> LogWorld {
    let (config, _) = config_of("act4-proxy-leaders");
    let world = after(config, actions);
    assert!(world.violations().is_empty(), "{:?}", world.violations());
    assert_eq!(world.fingerprint(), world.fingerprint_from_scratch());
    world
}

/// N1 elected, and C1's x=1 sent to P2 (slot 1's proxy).
const X1_AT_P2: &[&str] = &[
    "tick N1",
    "tick N1",
    "deliver N1->N2 Prepare",
    "deliver N2->N1 Promise",
    "request C1 N1",
    "deliver C1->N1 Write",
];

fn x1() -> Entry {
    Entry::from(Command {
        client: NodeId::new(4).unwrap(),
        seq: 1,
        key: Value::new("x"),
        value: Value::new("1"),
    })
}

#[test]
fn proxies_are_named_after_the_clients_and_take_no_node_or_client_id() {
    let world = world_after(&[]);
    let names: Vec<String> = (1..=6)
        .map(|number| world.name(NodeId::new(number).unwrap()))
        .collect();
    assert_eq!(names, ["N1", "N2", "N3", "C1", "P1", "P2"]);
    assert_eq!(
        world.parse_action("crash P2"),
        Ok(LogAction::Crash(NodeId::new(6).unwrap()))
    );
    assert!(
        world
            .enabled()
            .contains(&LogAction::Crash(NodeId::new(5).unwrap()))
    );
}

#[test]
fn a_command_is_chosen_through_a_proxy() {
    let mut steps = X1_AT_P2.to_vec();
    steps.extend([
        "deliver N1->P2 Accept",
        "deliver P2->N1 Accept",
        "deliver P2->N2 Accept",
        "deliver N1->P2 Accepted",
        "deliver N2->P2 Accepted",
        "deliver P2->N1 SlotChosen",
        "deliver N1->C1 Reply",
    ]);
    let world = world_after(&steps);
    let chosen = world.chosen_entry(Slot(1)).expect("chosen by the votes");
    assert_eq!(chosen.entry, x1());
    let n1 = world.servers()[0].host.node().unwrap();
    assert_eq!(n1.chosen()[&Slot(1)].entry, x1());
    assert!(world.all_clients_done());
    // The leader's Accepts went to a proxy, never to the acceptors themselves.
    let (config, _) = config_of("act4-proxy-leaders");
    let leader_accepts = after(config, X1_AT_P2);
    let sent: Vec<String> = (leader_accepts.in_flight().iter())
        .filter(|message| message.envelope.message.kind() == "Accept")
        .map(|message| leader_accepts.name(message.envelope.to))
        .collect();
    assert_eq!(sent, ["P2"]);
}

#[test]
fn a_proxy_crashed_mid_slot_is_passed_by_and_the_same_value_is_chosen() {
    let mut steps = X1_AT_P2.to_vec();
    steps.extend([
        "deliver N1->P2 Accept",
        "deliver P2->N2 Accept",
        "deliver N2->P2 Accepted",
        "crash P2",
        "tick N1",
    ]);
    let mut world = world_after(&steps);
    assert!(!world.proxies()[1].is_up());
    let resent: Vec<(String, LogMessage)> = (world.in_flight().iter())
        .filter(|message| message.envelope.message.kind() == "Accept")
        .map(|message| {
            (
                world.name(message.envelope.to),
                message.envelope.message.clone(),
            )
        })
        .collect();
    let accept = |to: &str| {
        (
            to.to_string(),
            LogMessage::Accept {
                ballot: paros_core::Ballot::new(1, NodeId::new(1).unwrap()),
                slot: Slot(1),
                entry: x1(),
                commit: Slot(0),
            },
        )
    };
    // P2's forwards left before it crashed; the leader's resend goes through P1 with the
    // identical entry (P4).
    assert!(resent.contains(&accept("P1")), "{resent:?}");
    for step in [
        "deliver N1->P1 Accept",
        "deliver P1->N1 Accept",
        "deliver P1->N3 Accept",
        "deliver N1->P1 Accepted",
        "deliver N3->P1 Accepted",
        "deliver P1->N1 SlotChosen",
    ] {
        let action = world.parse_action(step).unwrap();
        world.apply(&action).unwrap();
    }
    assert!(world.violations().is_empty(), "{:?}", world.violations());
    let n1 = world.servers()[0].host.node().unwrap();
    assert_eq!(n1.chosen()[&Slot(1)].entry, x1());
    assert_eq!(world.chosen_entry(Slot(1)).unwrap().entry, x1());
    // P5: P2 restarts blank, as a new proxy.
    world
        .apply(&LogAction::Restart(NodeId::new(6).unwrap()))
        .unwrap();
    let restarted = world.proxies()[1].proxy().expect("up again");
    let fresh = ProxyLeader::new(NodeId::new(6).unwrap(), world.config().core_config());
    assert_eq!(*restarted, fresh);
    assert_eq!(world.fingerprint(), world.fingerprint_from_scratch());
}

#[test]
fn a_proxy_never_writes_to_a_disk() {
    // A proxy has no disk; every step it takes leaves every server's disk as it was.
    let mut world = world_after(X1_AT_P2);
    for step in [
        "deliver N1->P2 Accept",
        "deliver P2->N2 Accept",
        "deliver N2->P2 Accepted",
        "deliver P2->N1 Accept",
        "deliver N1->P2 Accepted",
        "crash P2",
        "restart P2",
    ] {
        let action = world.parse_action(step).unwrap();
        let disks = |world: &LogWorld| -> Vec<Vec<Vec<u8>>> {
            world
                .servers()
                .iter()
                .map(|server| server.disk.clone())
                .collect()
        };
        let before = disks(&world);
        let to_a_proxy =
            world.describe(&action).contains("->P2 ") || world.describe(&action).ends_with("P2");
        world.apply(&action).unwrap();
        if to_a_proxy {
            assert_eq!(disks(&world), before, "{step} wrote to a disk");
        }
    }
    assert!(world.violations().is_empty(), "{:?}", world.violations());
}

#[test]
fn a_search_through_the_memo_visits_what_one_without_it_does_with_proxies() {
    // Proxy steps skip the memo; server steps through it must still match, state for state
    // (debug builds check each successor against `apply`'s as well).
    let (mut config, prelude) = config_of("act4-proxy-leaders");
    config.budget = Budget::NONE
        .with(Fault::Tick, 2)
        .with(Fault::Crash, 1)
        .with(Fault::Drop, 1);
    memo_search_matches_plain(after(config, &prelude));
}

/// Searches `world` through the server-step memo and through `apply` alone, and asserts they
/// visit the same states and transitions, over more than a thousand states.
pub(super) fn memo_search_matches_plain(world: LogWorld) {
    let remembered = explore::explore(world.clone(), Limits::default()).unwrap();
    let plain = explore::explore(PlainProxies(world), Limits::default()).unwrap();
    assert_eq!(
        (remembered.states, remembered.transitions),
        (plain.states, plain.transitions)
    );
    assert!(remembered.states > 1_000, "{}", remembered.states);
}

/// The world with every successor built by `apply`, never through the memo.
#[derive(Clone)]
pub(super) struct PlainProxies(pub(super) LogWorld);

impl crate::model::Model for PlainProxies {
    type Config = LogWorldConfig;
    type Action = LogAction;
    type Step = ();
    const FAULTS: &'static [Fault] = LogWorld::FAULTS;

    fn build(config: LogWorldConfig) -> Result<PlainProxies, Refused> {
        LogWorld::new(config).map(PlainProxies)
    }
    fn budget_left(&self) -> Budget {
        self.0.budget_left()
    }
    fn enabled(&self) -> Vec<LogAction> {
        self.0.enabled()
    }
    fn apply(&mut self, action: &LogAction) -> Result<(), Refused> {
        self.0.apply(action)
    }
    fn fingerprint(&self) -> u64 {
        self.0.fingerprint()
    }
    fn violations(&self) -> Vec<Violation> {
        self.0.violations().to_vec()
    }
    fn parse_action(&self, text: &str) -> Result<LogAction, String> {
        self.0.parse_action(text)
    }
    fn describe(&self, action: &LogAction) -> String {
        self.0.describe(action)
    }
    fn is_decided(&self) -> bool {
        self.0.all_clients_done()
    }
    fn fault_kind(&self, action: &LogAction) -> Option<Fault> {
        crate::model::Model::fault_kind(&self.0, action)
    }
}

/// Each control trips its own property, and its world without the fault does not: the
/// control's counterexample replays on the honest world with no violation, and no schedule of
/// the honest world as long as it breaks anything.
#[test]
fn each_control_trips_its_own_property_and_its_honest_world_does_not() {
    for (name, property) in [
        (
            "act4-proxy-keyed-by-slot-control",
            Property::AnnouncedWasChosen,
        ),
        (
            "act4-new-value-same-ballot-control",
            Property::OneValuePerBallot,
        ),
    ] {
        let report = crate::book::report_for(name).unwrap();
        assert_eq!(report.verdict, crate::report::Verdict::Violation, "{name}");
        let (config, prelude) = config_of(name);
        let broken = after(config.clone(), &[]);
        let mut broken = broken;
        for text in &report.counterexample {
            let action = broken.parse_action(text).unwrap();
            broken.apply(&action).unwrap();
        }
        assert!(!broken.violations().is_empty(), "{name}");
        assert!(
            broken
                .violations()
                .iter()
                .all(|found| found.property == property),
            "{name}: {:?}",
            broken.violations()
        );

        let mut honest_config = config;
        honest_config.negative_control = None;
        let mut honest = after(honest_config.clone(), &[]);
        for text in &report.counterexample {
            let action = honest.parse_action(text).unwrap();
            honest.apply(&action).unwrap();
        }
        assert!(
            honest.violations().is_empty(),
            "{name}: {:?}",
            honest.violations()
        );
        let depth = (report.counterexample.len() - prelude.len()) as u32;
        let limits = Limits {
            max_depth: Some(depth),
            ..Limits::default()
        };
        let searched = explore::explore(after(honest_config, &prelude), limits).unwrap();
        assert!(
            !matches!(searched.ending, explore::Ending::Violation { .. }),
            "{name}: {:?}",
            searched.ending
        );
    }
}

/// Progress's checker and its control: in the control's world (one proxy that ignores repeats,
/// its forwards to N2 and N3 lost), the fair schedule ends in a violation of progress and of
/// nothing else, exactly when the bound runs out, and the counterexample replays to it; the same
/// world with an honest proxy answers C1 well within the bound.
#[test]
fn progress_breaks_exactly_when_the_bound_runs_out_and_only_with_the_control() {
    let (config, prelude) = config_of("act4-proxy-ignores-repeats-control");
    let broken = after(config.clone(), &prelude);
    let bound = broken.fair_steps_bound();
    let settled = broken.settle(bound + 1).unwrap();
    let properties: Vec<Property> = (settled.violations.iter())
        .map(|violation| violation.property)
        .collect();
    assert_eq!(properties, [Property::Progress]);
    assert_eq!(
        settled.actions.len() as u32,
        1 + bound + 1,
        "stop-faults, then the bound"
    );
    let mut replayed = broken.clone();
    for action in &settled.actions[..settled.actions.len() - 1] {
        replayed.apply(action).unwrap();
    }
    assert!(replayed.violations().is_empty(), "not one step early");
    replayed.apply(settled.actions.last().unwrap()).unwrap();
    assert_eq!(replayed.violations(), settled.violations);

    let mut honest_config = config;
    honest_config.negative_control = None;
    let honest = after(honest_config, &prelude);
    let settled = honest.settle(bound + 1).unwrap();
    assert!(settled.decided, "stuck: {:?}", settled.stuck);
    assert!(settled.violations.is_empty(), "{:?}", settled.violations);
    assert!(settled.actions.len() < 100, "{}", settled.actions.len());
}

#[test]
fn a_proxy_control_needs_proxies() {
    let mut config = LogWorldConfig::three_nodes(Vec::new());
    config.negative_control = Some(NegativeControl::ProxyKeyedBySlot);
    assert!(matches!(LogWorld::new(config), Err(Refused::BadConfig(_))));
}

/// Four nodes in a grid of two rows ({N1, N2} and {N3, N4}: slot 1 is decided by the column
/// {N1, N3}), two proxies, stepwise `Ready`, and four clients with a write each; one drop.
fn hole_behind_a_proxy() -> LogWorldConfig {
    let mut config = LogWorldConfig::three_nodes(Vec::new());
    config.node_count = 4;
    let rows: Vec<Vec<NodeId>> = [[1, 2], [3, 4]]
        .iter()
        .map(|row| row.iter().map(|n| NodeId::new(*n).unwrap()).collect())
        .collect();
    config.quorums = Some(paros_core::Quorums::grid(&rows).unwrap());
    config.proxies = 2;
    config.stepwise_ready = true;
    config.clients = (1..=4)
        .map(|client| vec![ClientOp::write("x", &client.to_string())])
        .collect();
    config.budget = Budget::NONE.with(Fault::Tick, 2).with(Fault::Drop, 1);
    config
}

/// Persists, sends and delivers until nothing is due, losing the messages `lost` names.
fn run_quiet(world: &mut LogWorld, lost: impl Fn(&str) -> bool) {
    loop {
        let enabled = world.enabled();
        let step = (enabled.iter())
            .find(|action| matches!(action, LogAction::Persist(_) | LogAction::Send(_)))
            .or_else(|| (enabled.iter()).find(|action| matches!(action, LogAction::Deliver(_))));
        let Some(action) = step.cloned() else {
            return;
        };
        let action = match action {
            LogAction::Deliver(id) if lost(&world.describe(&action)) => LogAction::Drop(id),
            action => action,
        };
        world.apply(&action).unwrap();
    }
}

/// The log swarm's seed 2843, small: once faults stop, the fair schedule must let the leader's
/// clock tick before a client's retry ([`LogWorld::clock_before_retry`]), or retries crowd the
/// clock out and a hole no beat sends again stays open for ever.
///
/// N1 leads; C1's write in slot 1 goes through P2, whose forward to N3 is lost, so slot 1 (the
/// column {N1, N3}) is a hole. C2-C4's writes are chosen in slots 2-4 above it and none is
/// applied. Once faults stop, every client sends again: C1's request is still proposed, but
/// each of the others, chosen and so no longer proposed, is proposed again in a new slot
/// (chosen is not applied), 21 fair steps each, 63 for the three, more than a client waits
/// before it sends again. Only N1's beat sends slot 1 again (through P1, to every acceptor).
/// Without a tick before each retry, the clock never got its turn and progress broke when
/// the bound ran out; with it, slot 1 is chosen at the first retry and every client answered.
#[test]
fn a_hole_behind_a_proxy_is_filled_by_the_beat_the_fair_schedule_owes_the_clock() {
    let mut world = LogWorld::new(hole_behind_a_proxy()).unwrap();
    for text in ["tick N1", "tick N1"] {
        world.apply(&world.parse_action(text).unwrap()).unwrap();
    }
    run_quiet(&mut world, |_| false);
    let n1 = |world: &LogWorld| world.servers()[0].host.node().unwrap().clone();
    assert_eq!(n1(&world).role(), paros_core::log::LogRole::Leader);
    for client in ["C1", "C2", "C3", "C4"] {
        let request = world.parse_action(&format!("request {client} N1")).unwrap();
        world.apply(&request).unwrap();
        run_quiet(&mut world, |text| {
            text.contains("P2->N3 Accept(") && text.contains(", slot 1,")
        });
    }
    assert!(world.violations().is_empty(), "{:?}", world.violations());
    let leader = n1(&world);
    assert_eq!(leader.chosen_index(), Slot(0));
    let chosen: Vec<Slot> = leader.chosen().keys().copied().collect();
    assert_eq!(chosen, [Slot(2), Slot(3), Slot(4)]);
    assert!(
        world
            .clients
            .iter()
            .all(|client| client.outstanding.is_some())
    );

    let bound = world.fair_steps_bound();
    let settled = world.settle(bound + 1).unwrap();
    assert!(settled.violations.is_empty(), "{:?}", settled.violations);
    assert!(settled.decided, "stuck: {:?}", settled.stuck);
    let first_tick =
        (settled.actions.iter()).position(|action| matches!(action, LogAction::Tick(_)));
    let first_retry =
        (settled.actions.iter()).position(|action| matches!(action, LogAction::Request { .. }));
    assert!(
        first_tick.is_some_and(|tick| first_retry.is_none_or(|retry| tick < retry)),
        "the clock ticks before any retry: {first_tick:?}, {first_retry:?}"
    );
    assert!(settled.actions.len() < 200, "{}", settled.actions.len());
}
