//! Act IV's `act4/faulty-records`: N2's vote in slot 1 is corrupted after it helped choose x=1;
//! each Promise to the new candidate N3 is put in its case, read from the real Promise, and
//! what N3's count makes of it is paros-core's `log::phase1_complete`; each wrong choice is
//! refused without touching the world, the key one (corrupt-as-none) names the quorum that
//! would lead without the vote, the stage marks the unknown vote, and x=1 stays in slot 1.

use paros_core::log::{LogMessage, LogRole, Slot, phase1_complete};
use paros_play::{Board, Game, Goal, Mounted, PromptKind, View, levels};
use paros_sim::replicated_log::LogWorld;

use super::{mount_log, node, play, play_to_answer, refused};

const ID: &str = "act4/faulty-records";

fn mount() -> Game<LogWorld> {
    mount_log(ID)
}

fn view_json(game: &Game<LogWorld>) -> serde_json::Value {
    serde_json::from_str(&View::of(game).to_json()).unwrap()
}

/// The Promise on the wire from `from` to `to`: its unknown slots and the slots it reports a
/// vote in.
fn promise_on_wire(game: &Game<LogWorld>, from: u8, to: u8) -> (Vec<Slot>, Vec<Slot>) {
    let world = game.world();
    let message = (world.in_flight().iter())
        .find(|message| {
            message.envelope.from == node(from)
                && message.envelope.to == node(to)
                && matches!(message.envelope.message, LogMessage::Promise { .. })
        })
        .expect("the Promise is on the wire");
    let LogMessage::Promise { votes, unknown, .. } = &message.envelope.message else {
        unreachable!("matched as a Promise");
    };
    (
        unknown.clone(),
        votes.iter().map(|(slot, _)| *slot).collect(),
    )
}

#[test]
fn the_level_comes_before_the_wiped_node_with_x1_chosen_by_n1_and_n2() {
    let ids: Vec<&str> = paros_play::catalog().iter().map(|level| level.id).collect();
    let wiped = ids.iter().position(|id| *id == "act4/the-wiped-node");
    assert_eq!(ids.iter().position(|id| *id == ID).map(|at| at + 1), wiped);
    assert_eq!(levels::ACT4_DISK_FAULTS[0].id, ID);
    let game = mount();
    let chosen = game.world().chosen_by_votes();
    assert_eq!(chosen.len(), 1);
    assert_eq!(
        chosen[0].voters.iter().collect::<Vec<_>>(),
        [node(1), node(2)]
    );
    assert_eq!(game.goal(), Goal::Open);
}

#[test]
fn a_crashed_node_offers_a_control_for_each_record_it_can_corrupt() {
    let mut mounted = Mounted::new(ID, &[]).unwrap();
    mounted.act_json(r#"{"kind":"crash","node":"N2"}"#).unwrap();
    let json: serde_json::Value = serde_json::from_str(&mounted.view_json()).unwrap();
    let controls = json["controls"].as_array().unwrap();
    let corrupt =
        |record: &str| serde_json::json!({"kind": "corrupt", "node": "N2", "record": record});
    let labelled = |record: &str, label: &str| {
        controls
            .iter()
            .any(|control| control["action"] == corrupt(record) && control["label"] == label)
    };
    assert!(
        labelled("vote 1", "Corrupt N2's vote in slot 1"),
        "{controls:?}"
    );
    assert!(labelled("promise", "Corrupt N2's promise"), "{controls:?}");
    assert_eq!(
        json["nodes"][1]["disk"].get("fault"),
        None,
        "not yet corrupted"
    );
    // A record that is not on the disk is refused, one that names no record is bad input, and
    // neither changes anything.
    let error = mounted
        .act_json(&corrupt("vote 9").to_string())
        .expect_err("no such record");
    assert!(error.to_string().contains("no such record"), "{error}");
    let error = mounted
        .act_json(&corrupt("the ledger").to_string())
        .expect_err("not a record");
    assert!(error.to_string().contains("\"the ledger\""), "{error}");
    assert_eq!(mounted.position(), "crash N2");
    // The control goes through the simulator's real CorruptRecord fault.
    mounted.act_json(&corrupt("vote 1").to_string()).unwrap();
    let json: serde_json::Value = serde_json::from_str(&mounted.view_json()).unwrap();
    assert_eq!(
        json["nodes"][1]["disk"]["fault"]["mark"],
        "vote unknown: slot 1"
    );
    assert_eq!(
        mounted.position(),
        "crash N2\ncorrupt N2 vote 1",
        "the move reads as the world's own action"
    );
}

#[test]
fn the_unknown_answer_is_read_from_the_real_promise_and_n3_waits_by_phase1_complete() {
    let mut game = mount();
    play_to_answer(&mut game, 0);
    let prompt = game
        .prompt()
        .expect("the question about N2's Promise")
        .clone();
    assert_eq!(prompt.kind, PromptKind::Question);
    assert_eq!(prompt.node.as_deref(), Some("N2"));
    let (unknown, voted) = promise_on_wire(&game, 2, 3);
    assert_eq!(
        unknown,
        [Slot(1)],
        "N2's Promise answers \"unknown\" for slot 1"
    );
    assert!(voted.is_empty());
    assert_eq!(prompt.right_key(), "unknown");
    // N2 is kept back while the question is open; the world marks the unknown vote on N2,
    // which is up again, and the stage shows it once answered.
    assert!(view_json(&game)["nodes"][1].get("disk").is_none());
    let json = serde_json::to_value(game.world().nodes(&game.by_hand())).unwrap();
    assert_eq!(json[1]["disk"]["fault"]["mark"], "vote unknown: slot 1");
    assert_eq!(json[1]["up"], true);
    let right = prompt.choice("unknown").unwrap();
    assert!(
        right.label.ends_with("N3 waits for another Promise"),
        "{}",
        right.label
    );
    // The key wrong answer: corrupt-as-none, which would let {N2, N3} elect N3.
    let text = refused(&mut game, "none");
    assert!(
        text.contains("corrupt-as-none")
            && text.contains("{N1, N2} voted for x=1 (C1#1) at 1.N1 in slot 1, N2 among them")
            && text.contains("phase1_complete holds: {N2, N3} promised"),
        "{text}"
    );
    let text = refused(&mut game, "voted");
    assert!(text.contains("fails its checksum"), "{text}");
    play(&mut game, &["answer unknown", "deliver N2->N3 Promise"]);
    // The core agrees: N3 counted N2's Promise and still stands, its count incomplete.
    let n3 = game.world().servers()[2].host.node().unwrap();
    assert_eq!(n3.role(), LogRole::Candidate);
    let election = n3.election().unwrap();
    assert!(election.promised_by.contains(node(2)));
    assert!(!phase1_complete(
        &game.world().config().quorum_system(),
        election
    ));
}

#[test]
fn n1s_vote_completes_the_count_and_x1_stays_in_slot_1() {
    let mut game = mount();
    play_to_answer(&mut game, 1);
    let prompt = game
        .prompt()
        .expect("the question about N1's Promise")
        .clone();
    assert_eq!(prompt.node.as_deref(), Some("N1"));
    let (unknown, voted) = promise_on_wire(&game, 1, 3);
    assert!(unknown.is_empty());
    assert_eq!(voted, [Slot(1)]);
    assert_eq!(prompt.right_key(), "voted");
    let right = prompt.choice("voted").unwrap();
    assert_eq!(right.label, "A vote: x=1 (C1#1) at 1.N1; N3 leads");
    let text = refused(&mut game, "unknown");
    assert!(text.contains("\"Unknown\" is only for a vote"), "{text}");
    play(&mut game, &["answer voted", "deliver N1->N3 Promise"]);
    let n3 = game.world().servers()[2].host.node().unwrap();
    assert_eq!(
        n3.role(),
        LogRole::Leader,
        "the core led, as the answer said"
    );
}

#[test]
fn the_reference_solution_keeps_x1_in_slot_1_and_chooses_x2() {
    let mut game = mount();
    let solution = game.level().solution;
    play(&mut game, solution);
    assert_eq!(game.goal(), Goal::Reached);
    let world = game.world();
    let names: Vec<(u64, String)> = (world.chosen_by_votes().into_iter())
        .map(|votes| (votes.slot.0, world.entry_name(&votes.entry)))
        .collect();
    assert!(names.contains(&(1, "x=1 (C1#1)".to_string())), "{names:?}");
    assert!(names.contains(&(2, "x=2 (C1#2)".to_string())), "{names:?}");
    assert!(names.iter().all(|(slot, _)| *slot <= 2), "{names:?}");
    assert!(world.violations().is_empty());
}

#[test]
fn n1s_promise_first_elects_n3_and_leaves_the_unknown_answer_undone() {
    let mut game = mount();
    play(
        &mut game,
        &[
            "crash N2",
            "corrupt N2 vote 1",
            "restart N2",
            "tick N3",
            "deliver N3->N1 Prepare",
            "answer voted",
            "deliver N1->N3 Promise",
            "deliver N3->N2 Prepare",
        ],
    );
    assert!(
        game.prompt().is_none(),
        "N3 leads already: nothing to count"
    );
    let json = view_json(&game);
    assert_eq!(json["checklist"][0]["done"], false, "{}", json["checklist"]);
}

#[test]
fn every_wrong_choice_is_refused_and_names_phase1_complete() {
    let mut game = mount();
    super::refuse_every_wrong_choice(&mut game, "count", |text| text.contains("phase1_complete"));
}

#[test]
fn undo_takes_the_corruption_back_and_n2_reads_its_vote_again() {
    let mut game = mount();
    play(&mut game, &["crash N2"]);
    let crashed = game.fingerprint();
    play(&mut game, &["corrupt N2 vote 1"]);
    game.undo().expect("undo");
    assert_eq!(game.fingerprint(), crashed);
    play(&mut game, &["restart N2"]);
    let n2 = game.world().servers()[1].host.node().expect("N2 is up");
    assert!(n2.unknown_votes().is_empty());
    assert!(
        n2.accepts().contains_key(&Slot(1)),
        "its vote came back from its disk"
    );
}
