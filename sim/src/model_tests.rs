//! The [`Model`] contract, checked the same way over every world: along random walks, each
//! successor's fingerprint worked out without building it equals the fingerprint of the
//! successor built, of the world stepped in place, and of the world hashed from scratch; every
//! action reads back from its description; and replaying the walk, from actions or from their
//! words, rebuilds the same fingerprint.

use crate::faults::{Budget, Fault, NegativeControl};
use crate::matchmaker::{MatchmakerWorld, MatchmakerWorldConfig};
use crate::model::Model;
use crate::replicated_log::{ClientOp, LogWorld, LogWorldConfig};
use crate::single_decree::{DecreeWorld, DecreeWorldConfig};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Walks `choices` through the world `config` builds, checking the contract at every step and
/// `safe` worlds for violations; `from_scratch` is the world's fingerprint from every part.
fn walk_keeps_the_contract<M>(
    config: M::Config,
    choices: &[u16],
    safe: bool,
    from_scratch: fn(&M) -> u64,
) -> Result<(), TestCaseError>
where
    M: Model,
    M::Config: Clone,
    M::Action: PartialEq,
{
    let mut world = M::build(config.clone()).unwrap();
    let (mut log, mut words) = (Vec::new(), Vec::new());
    for choice in choices {
        let enabled = world.enabled();
        for action in &enabled {
            step_is_exact(&world, action, from_scratch)?;
        }
        let Some(action) = enabled.get(usize::from(*choice) % enabled.len().max(1)) else {
            break;
        };
        words.push(world.describe(action));
        world.apply(action).unwrap();
        log.push(action.clone());
        if safe {
            prop_assert!(world.violations().is_empty(), "{:?}", world.violations());
        }
    }
    let replayed = M::replay(config.clone(), &log).unwrap();
    prop_assert_eq!(replayed.fingerprint(), world.fingerprint());
    let mut reread = M::build(config).unwrap();
    for text in &words {
        let action = reread.parse_action(text).unwrap();
        reread.apply(&action).unwrap();
    }
    prop_assert_eq!(reread.fingerprint(), world.fingerprint());
    Ok(())
}

/// One action from `world`: the successor's fingerprint, however worked out, is one number,
/// and the action reads back from its description.
fn step_is_exact<M>(
    world: &M,
    action: &M::Action,
    from_scratch: fn(&M) -> u64,
) -> Result<(), TestCaseError>
where
    M: Model,
    M::Action: PartialEq,
{
    let mut applied = world.clone();
    applied.apply(action).unwrap();
    let built = world.successor(action).unwrap();
    prop_assert_eq!(applied.fingerprint(), from_scratch(&applied));
    prop_assert_eq!(built.fingerprint(), from_scratch(&applied));
    prop_assert_eq!(
        world.successor_fingerprint(action).ok(),
        Some(built.fingerprint())
    );
    let described = world.describe(action);
    prop_assert!(
        world.parse_action(&described).as_ref() == Ok(action),
        "{described}"
    );
    Ok(())
}

/// The duel of Act I with every fault it has: drops, duplicates, retries, and (as the amnesia
/// control) amnesia.
fn decree_config(control: bool) -> DecreeWorldConfig {
    let mut config = DecreeWorldConfig::act1(&["x", "y"]);
    config.budget = Budget::NONE
        .with(Fault::Drop, 1)
        .with(Fault::Duplicate, 1)
        .with(Fault::Retry, 2);
    if control {
        config.budget = config.budget.with(Fault::Amnesia, 1);
        config.negative_control = Some(NegativeControl::Amnesia);
    }
    config
}

/// A stepwise log world with two clients, where every kind of fault is enabled somewhere.
fn log_config() -> LogWorldConfig {
    let mut config = LogWorldConfig::three_nodes(vec![
        ClientOp::write("x", "1"),
        ClientOp::read("x"),
        ClientOp::write("x", "2"),
    ]);
    config.clients.push(vec![ClientOp::write("y", "2")]);
    config.stepwise_ready = true;
    config.election_timeout_ticks = 1;
    config.budget = Budget::NONE
        .with(Fault::Drop, 1)
        .with(Fault::Duplicate, 1)
        .with(Fault::Crash, 2)
        .with(Fault::TornWrite, 1)
        .with(Fault::Partition, 1)
        .with(Fault::Tick, 6)
        .with(Fault::ClientResend, 1)
        .with(Fault::CorruptRecord, 1)
        .with(Fault::WipeDisk, 1);
    config
}

/// Three configurations, garbage collection, a replacement of the matchmakers, and every
/// fault the matchmaker world has; with `control`, matchmakers that go on matching once
/// stopped.
fn matchmaker_config(control: bool) -> MatchmakerWorldConfig {
    let mut config = MatchmakerWorldConfig::two_configurations();
    config.leaders.push(crate::matchmaker::LeaderPlan {
        round: 3,
        acceptors: vec![1, 3, 4],
        value: paros_core::Value::new("z"),
    });
    config.replacement = true;
    config.budget = Budget::NONE
        .with(Fault::Drop, 1)
        .with(Fault::Duplicate, 1)
        .with(Fault::Crash, 2);
    if control {
        config.negative_control = Some(NegativeControl::NoStop);
    }
    config
}

proptest! {
    // Each case steps every enabled action at every step of its walk: a few dozen cases cover
    // every kind of action many times over.
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn act1_walks_keep_the_model_contract(choices in prop::collection::vec(any::<u16>(), 0..60)) {
        walk_keeps_the_contract(decree_config(false), &choices, true, DecreeWorld::fingerprint_from_scratch)?;
    }

    #[test]
    fn act1_control_walks_keep_the_model_contract(choices in prop::collection::vec(any::<u16>(), 0..40)) {
        walk_keeps_the_contract(decree_config(true), &choices, false, DecreeWorld::fingerprint_from_scratch)?;
    }

    #[test]
    fn log_walks_keep_the_model_contract(choices in prop::collection::vec(any::<u16>(), 0..80)) {
        walk_keeps_the_contract(log_config(), &choices, true, LogWorld::fingerprint_from_scratch)?;
    }

    #[test]
    fn matchmaker_walks_keep_the_model_contract(choices in prop::collection::vec(any::<u16>(), 0..80)) {
        walk_keeps_the_contract(matchmaker_config(false), &choices, true, MatchmakerWorld::fingerprint_from_scratch)?;
    }

    #[test]
    fn matchmaker_control_walks_keep_the_model_contract(choices in prop::collection::vec(any::<u16>(), 0..60)) {
        walk_keeps_the_contract(matchmaker_config(true), &choices, false, MatchmakerWorld::fingerprint_from_scratch)?;
    }
}
