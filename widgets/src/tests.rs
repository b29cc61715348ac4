//! Unit tests of the engine's pieces; the levels are played end to end in `tests/levels.rs`.

use crate::automation::Automation;
use crate::levels;
use crate::levels::act1::the_duel::{ballot_dead, livelock};
use crate::script::{ScriptStep, parse};
use paros_core::{Acceptor, Ballot, Flexible, NodeId, NodeSet, Proposer, Value};
use paros_sim::single_decree::{DecreeAction, DecreeWorld, DecreeWorldConfig};
use paros_sim::{Budget, Fault, MessageId};

fn duel() -> DecreeWorld {
    DecreeWorld::new(DecreeWorldConfig::act1(&["x", "y"])).expect("a world")
}

#[test]
fn script_steps_parse_by_route_by_id_and_by_name() {
    let world = duel();
    assert_eq!(
        parse(&world, "deliver P2->A1 Prepare"),
        Ok(ScriptStep::World(DecreeAction::Deliver(MessageId(4))))
    );
    assert_eq!(
        parse(&world, "drop P1->A3 Prepare(1.P1)"),
        Ok(ScriptStep::World(DecreeAction::Drop(MessageId(3))))
    );
    assert_eq!(
        parse(&world, "deliver m2"),
        Ok(ScriptStep::World(DecreeAction::Deliver(MessageId(2))))
    );
    let p2 = DecreeWorldConfig::act1(&["x", "y"]).proposer_id(1);
    assert_eq!(
        parse(&world, "retry P2"),
        Ok(ScriptStep::World(DecreeAction::Retry(p2)))
    );
    assert_eq!(
        parse(&world, " answer 2.P1 "),
        Ok(ScriptStep::Answer("2.P1".into()))
    );
    assert_eq!(parse(&world, "undo"), Ok(ScriptStep::Undo));
    assert_eq!(parse(&world, "next-stage"), Ok(ScriptStep::NextStage));
    assert!(
        parse(&world, "deliver P1->A1 Accept").is_err(),
        "no Accept is in flight"
    );
    assert!(parse(&world, "deliver P1->A1 Prepare(2.P1)").is_err());
    assert!(parse(&world, "teleport P1").is_err());
}

#[test]
fn automation_names_round_trip_and_name_the_level_that_teaches_them() {
    for toggle in Automation::ALL {
        assert_eq!(Automation::from_name(toggle.name()), Some(toggle));
        let unlocks = levels::find(toggle.taught_by())
            .map(|level| level.unlocks)
            .or_else(|| levels::find_act2(toggle.taught_by()).map(|level| level.unlocks));
        assert_eq!(unlocks, Some(Some(toggle)), "{toggle}");
    }
    assert_eq!(Automation::from_name("warp-drive"), None);
}

#[test]
fn a_ballot_dies_when_a_majority_promised_above_it() {
    let mut world = duel();
    for text in ["deliver P2->A1 Prepare", "deliver P2->A2 Prepare"] {
        let Ok(ScriptStep::World(action)) = parse(&world, text) else {
            panic!("{text}");
        };
        assert!(
            !ballot_dead(world.acceptors(), &world.proposers()[0]),
            "one promise above is not enough"
        );
        world.apply(&action).unwrap();
    }
    assert!(ballot_dead(world.acceptors(), &world.proposers()[0]));
    assert!(!ballot_dead(world.acceptors(), &world.proposers()[1]));
    assert!(
        livelock(&world).is_some(),
        "pre-empted, and no retry is left"
    );

    let mut config = DecreeWorldConfig::act1(&["x", "y"]);
    config.budget = Budget::NONE.with(Fault::Retry, 1);
    let mut with_retries = DecreeWorld::new(config).unwrap();
    for text in ["deliver P2->A1 Prepare", "deliver P2->A2 Prepare"] {
        let Ok(ScriptStep::World(action)) = parse(&with_retries, text) else {
            panic!("{text}");
        };
        with_retries.apply(&action).unwrap();
    }
    assert_eq!(livelock(&with_retries), None, "P1 may still retry");
}

#[test]
fn every_level_mounts_with_a_valid_world_and_prelude() {
    for level in levels::ACT1 {
        for stage in level.stages {
            let config = (stage.world.config)();
            assert!(DecreeWorld::new(config.clone()).is_ok(), "{}", level.id);
            assert_eq!(
                config.budget.left(Fault::Amnesia),
                0,
                "no negative control in a level"
            );
        }
        let game = crate::game::Game::new(level, &[]).expect("mounts");
        assert_eq!(
            game.world().budget_left().left(Fault::Drop),
            0,
            "{}: preludes spend exactly the drops they are given",
            level.id
        );
    }
}

#[test]
fn a_restart_after_n2s_own_vote_is_chosen_says_so_and_keeps_it_unmarked() {
    // Proves the record question of `act2/what-survives-a-crash` when N2's Accept reached N3
    // before the crash: a=1 is chosen by {N2, N3} though N2 never learned it. In play the
    // goal fails at that delivery, so the question is asked here on the world itself.
    use crate::levels::act2::what_survives_a_crash::{LEVEL, record_question};
    use paros_sim::replicated_log::LogWorld;
    let stage = &LEVEL.stages[0];
    let mut world = LogWorld::new((stage.world.config)()).expect("a world");
    let steps = ["deliver N2->N3 Accept", "crash N2", "restart N2"];
    for text in stage.world.prelude.iter().chain(&steps) {
        let action = world.parse_action(text).expect(text);
        world.apply(&action).expect(text);
    }
    let prompt = record_question(&world).expect("the record question");
    assert_eq!(prompt.record.as_deref(), Some("chosen-unlearned"));
    assert!(
        prompt.facts.contains(
            &"the cluster has chosen a=1 (C1#1) in slot 1 (by {N2, N3} at 1.N2)".to_string()
        ),
        "{:?}",
        prompt.facts
    );
    let right = prompt.choices.iter().find(|choice| choice.right).unwrap();
    assert_eq!(
        right.label,
        "promise 1.N2; slot 1: a=1 (C1#1) at 1.N2; chosen through 0"
    );
    assert!(
        !right.explanation.contains("nothing is"),
        "{}",
        right.explanation
    );
    assert!(
        right
            .explanation
            .contains("That vote is chosen: a=1 (C1#1) (by {N2, N3} at 1.N2)"),
        "{}",
        right.explanation
    );
    let marked = prompt
        .choices
        .iter()
        .find(|choice| choice.key == "marked-chosen")
        .unwrap();
    assert!(!marked.right);
    assert_eq!(
        marked.label,
        "promise 1.N2; slot 1: a=1 (C1#1) at 1.N2; chosen through 1"
    );
    assert!(
        marked
            .explanation
            .contains("N2 never learned so before it crashed"),
        "{}",
        marked.explanation
    );
}

/// A log world of `nodes` nodes with `programs`, after `steps`, played as the game plays them.
fn log_world_after(
    nodes: u8,
    programs: &[&[(&str, &str)]],
    steps: &[&str],
) -> paros_sim::replicated_log::LogWorld {
    use crate::board::Board;
    let mut config = crate::levels::act2::cluster(programs, Budget::NONE);
    config.node_count = nodes;
    let mut world = paros_sim::replicated_log::LogWorld::new(config).expect("a world");
    for text in steps {
        let action = world.parse_move(text).expect(text);
        world.play(&action).expect(text);
    }
    world
}

#[test]
fn serve_or_wait_names_the_read_a_reply_completes_when_a_node_holds_two() {
    // C1's read (0.1) and then C2's (0.2) wait at N3. N1's reply to read 0.2 completes a
    // Phase-1 quorum for it alone: the prompt asks about C2's read, which N3 serves.
    use crate::board::{Board, ByHand};
    let reads: &[&[(&str, &str)]] = &[&[("x", "")], &[("x", "")]];
    let mut world = log_world_after(
        3,
        reads,
        &[
            "request C1 N3",
            "deliver C1->N3 Read",
            "request C2 N3",
            "deliver C2->N3 Read",
            "deliver N3->N1 ReadIndex(read 0.2",
        ],
    );
    let n3 = world.servers()[2].host.node().expect("N3 is up");
    assert_eq!(n3.pending_reads().len(), 2, "two reads wait at N3");
    let reply = world
        .parse_move("deliver N1->N3 ReadIndexReply(read 0.2")
        .unwrap();
    let prompt = world.prompt(&reply, &ByHand::default()).expect("a prompt");
    assert!(
        prompt
            .question
            .starts_with("N3 holds C2's read of x (read 0.2)."),
        "{}",
        prompt.question
    );
    assert_eq!(prompt.right_key(), "serve");

    // Read 0.1 still waits; a reply to it asks about it, not about the read just served.
    for text in [
        "deliver N1->N3 ReadIndexReply(read 0.2",
        "deliver N3->N2 ReadIndex(read 0.1",
    ] {
        let action = world.parse_move(text).unwrap();
        world.play(&action).unwrap();
    }
    let reply = world
        .parse_move("deliver N2->N3 ReadIndexReply(read 0.1")
        .unwrap();
    let prompt = world.prompt(&reply, &ByHand::default()).expect("a prompt");
    assert!(
        prompt
            .question
            .starts_with("N3 holds C1's read of x (read 0.1)."),
        "{}",
        prompt.question
    );
    assert_eq!(prompt.right_key(), "serve");
}

#[test]
fn a_wrong_choice_that_reads_or_answers_as_a_right_one_is_dropped() {
    use crate::prompt::{Choice, drop_doubles};
    let choice = |key: &str, label: &str, right: bool| Choice {
        key: key.into(),
        label: label.into(),
        right,
        explanation: String::new(),
    };
    let mut choices = vec![
        choice("record", "chosen through 1", true),
        choice("stale-chosen", "chosen through 1", false),
        choice("record", "another label", false),
        choice("unmarked", "chosen through 0", false),
    ];
    drop_doubles(&mut choices);
    let keys: Vec<&str> = choices.iter().map(|choice| choice.key.as_str()).collect();
    assert_eq!(keys, ["record", "unmarked"]);
}

#[test]
fn a_ballot_dies_by_its_proposers_quorum_system_not_by_a_count() {
    // Four acceptors; any 3 elect, any 2 choose. P5 leads 1.P5 with promises from A1..A3, then
    // A3 and A4 promise 1.P6. A1 and A2 may still vote for 1.P5, and two voters are a Phase-2
    // quorum here: 1.P5 lives, though a count of "a majority promised above" would call it dead.
    let id = |n: u8| NodeId::new(n).unwrap();
    let acceptors: NodeSet = (1..=4).map(id).collect();
    let quorums = Flexible::new(acceptors, 3, 2).unwrap();
    let mut state: Vec<Acceptor> = acceptors.iter().map(Acceptor::new).collect();
    let mut p5 = Proposer::new(id(5), quorums, Value::new("x"));
    let b5 = Ballot::new(1, id(5));
    let b6 = Ballot::new(1, id(6));
    p5.start();
    for acceptor in &mut state[..3] {
        acceptor.on_prepare(id(5), b5);
        p5.on_promise(acceptor.id(), b5, None).unwrap();
    }
    for acceptor in &mut state[2..] {
        acceptor.on_prepare(id(6), b6);
    }
    assert_eq!(p5.phase(), paros_core::Phase::Accepting);
    assert!(
        !ballot_dead(&state, &p5),
        "{{A1, A2}} may still choose at 1.P5"
    );
    // The same ballot still preparing is dead: only A1 and A2 may promise it, and electing
    // takes three.
    let mut preparing = Proposer::new(id(5), quorums, Value::new("x"));
    preparing.start();
    assert_eq!(preparing.ballot(), Some(b5));
    assert!(ballot_dead(&state, &preparing));
}

#[test]
fn is_x_chosen_counts_with_the_quorum_system_on_four_acceptors() {
    // choose-a-value's world with a fourth acceptor: two votes of four are not a majority, and
    // the question says so with the quorum system's own numbers.
    use crate::board::Board;
    use crate::levels::act1::choose_a_value::LEVEL;
    use crate::state::Change;
    let mut config = (LEVEL.stages[0].world.config)();
    config.acceptor_count = 4;
    let mut world = DecreeWorld::new(config).expect("a world");
    for text in [
        "deliver P1->A1 Prepare",
        "deliver P1->A2 Prepare",
        "deliver P1->A4 Prepare",
        "deliver A1->P1 Promise",
        "deliver A2->P1 Promise",
        "deliver A4->P1 Promise",
        "deliver P1->A1 Accept",
    ] {
        let Ok(ScriptStep::World(action)) = parse(&world, text) else {
            panic!("{text}");
        };
        world.apply(&action).expect(text);
    }
    let Ok(ScriptStep::World(action)) = parse(&world, "deliver P1->A2 Accept") else {
        panic!("an Accept to A2");
    };
    let before = world.summary();
    let step = world.apply(&action).unwrap();
    let change = Change {
        before: &before,
        world: &world,
        action: &action,
        step: &step,
    };
    let prompt = LEVEL.rules.question(&change).expect("the question");
    assert_eq!(prompt.right_key(), "no");
    assert!(
        prompt
            .facts
            .contains(&"a majority of 4 acceptors is 3".to_string()),
        "{:?}",
        prompt.facts
    );
    let no = prompt.choice("no").unwrap();
    assert!(
        no.explanation
            .contains("{A1, A2} has voted for 1.P1, and 2 of 4 is not a majority"),
        "{}",
        no.explanation
    );
    assert!(no.explanation.contains("Until 3 acceptors vote"));
}

#[test]
fn serve_or_wait_counts_a_phase_1_quorum_with_the_nodes_quorum_system_on_five_nodes() {
    // Five nodes: N3 and N1 have answered N3's read, two of five, not yet a Phase-1 quorum.
    use crate::board::{Board, ByHand};
    let world = log_world_after(
        5,
        &[&[("x", "")]],
        &[
            "request C1 N3",
            "deliver C1->N3 Read",
            "deliver N3->N1 ReadIndex",
        ],
    );
    let reply = world.parse_move("deliver N1->N3 ReadIndexReply").unwrap();
    let prompt = world.prompt(&reply, &ByHand::default()).expect("a prompt");
    assert_eq!(prompt.right_key(), "wait");
    assert!(
        prompt
            .facts
            .contains(&"a majority of 5 nodes is 3".to_string()),
        "{:?}",
        prompt.facts
    );
    let wait = prompt.choice("wait").unwrap();
    assert!(
        wait.explanation.contains("only {N1, N3} answered so far"),
        "{}",
        wait.explanation
    );
}

#[test]
fn every_action_reads_back_as_it_is_written() {
    // ActionJson is written by serde's tagged form and read field by field (`input::action`):
    // both must agree on every kind.
    use crate::scene::ActionJson;
    let node = || "N1".to_string();
    for action in [
        ActionJson::Deliver { message: 3 },
        ActionJson::Drop { message: 4 },
        ActionJson::Duplicate { message: 5 },
        ActionJson::Start { node: node() },
        ActionJson::Retry { node: node() },
        ActionJson::NextStage,
        ActionJson::Tick { node: node() },
        ActionJson::Crash { node: node() },
        ActionJson::TornCrash { node: node() },
        ActionJson::Restart { node: node() },
        ActionJson::Wipe { node: node() },
        ActionJson::Corrupt {
            node: node(),
            record: "vote 1".into(),
        },
        ActionJson::Persist { node: node() },
        ActionJson::Send { node: node() },
        ActionJson::Partition { node: node() },
        ActionJson::Heal,
        ActionJson::Trim { node: node() },
        ActionJson::Request {
            client: "C1".into(),
            node: node(),
        },
        ActionJson::Beat { node: node() },
        ActionJson::HandOff {
            node: node(),
            to: "N2".into(),
        },
        ActionJson::Collect { node: node() },
        ActionJson::Retire { node: node() },
        ActionJson::Replace { node: node() },
    ] {
        let json = serde_json::to_string(&action).unwrap();
        let read = crate::input::action(&json).unwrap();
        assert_eq!(read, action, "{json}");
    }
}
