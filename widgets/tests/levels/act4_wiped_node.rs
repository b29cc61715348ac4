//! Act IV's `act4/the-wiped-node`: N2's disk is wiped after it helped choose x=1; the question's
//! right answer is paros-core's own `ColocatedNode::boot` on that disk, each wrong one is
//! refused without touching the world, the stage marks the wiped disk, no restart is offered,
//! and N1 and N3 choose x=2 without N2.

use paros_core::log::{BootRefused, ColocatedNode, Provisioning};
use paros_play::{Game, Goal, PromptKind, View, levels};
use paros_sim::replicated_log::LogWorld;

use super::{mount_log, node, play, play_to_answer, refused};

const ID: &str = "act4/the-wiped-node";

fn mount() -> Game<LogWorld> {
    mount_log(ID)
}

fn view_json(game: &Game<LogWorld>) -> serde_json::Value {
    serde_json::from_str(&View::of(game).to_json()).unwrap()
}

#[test]
fn the_level_is_listed_after_the_matchmaker_levels_with_x1_chosen_by_n1_and_n2() {
    // The level map: the Matchmaker Paxos levels, then faulty records, then the wiped node.
    let ids: Vec<&str> = paros_play::catalog().iter().map(|level| level.id).collect();
    let generations = ids
        .iter()
        .position(|id| *id == "act4/matchmaker-generations");
    assert_eq!(
        ids.iter().position(|id| *id == ID),
        generations.map(|at| at + 2)
    );
    assert_eq!(
        ids.iter().position(|id| *id == "act4/faulty-records"),
        generations.map(|at| at + 1)
    );
    assert!(levels::ACT4_DISK_FAULTS.iter().any(|level| level.id == ID));
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
fn the_boot_question_is_judged_by_the_cores_boot_on_the_wiped_disk() {
    let mut game = mount();
    play_to_answer(&mut game, 0);
    let prompt = game.prompt().expect("the boot question").clone();
    assert_eq!(prompt.kind, PromptKind::Question);
    assert_eq!(prompt.node.as_deref(), Some("N2"));
    assert_eq!(prompt.right_key(), "refused");
    let n2 = &game.world().servers()[1];
    assert!(n2.disk.is_empty(), "the wipe erased N2's disk");
    let config = game.world().config().core_config();
    let answer = ColocatedNode::boot(node(2), config, Provisioning::Provisioned, &n2.disk);
    assert_eq!(answer.err(), Some(BootRefused::Missing), "the core refuses");
    let right = prompt.choice("refused").expect("the refusal");
    assert!(right.label.contains(&BootRefused::Missing.to_string()));
    let text = refused(&mut game, "fresh");
    assert!(
        text.contains("x=1 (C1#1) in slot 1, chosen by {N1, N2}")
            && text.contains("{N2, N3} are a Phase-1 quorum"),
        "{text}"
    );
    let text = refused(&mut game, "fresh-not-empty");
    assert!(text.contains("provisioned"), "{text}");
    play(&mut game, &["answer refused"]);
    assert!(
        game.memory()
            .records
            .contains("the wiped node's boot refused")
    );
}

#[test]
fn the_stage_marks_the_wiped_disk_and_offers_no_restart() {
    let mut game = mount();
    play_to_answer(&mut game, 0);
    play(&mut game, &["answer refused"]);
    let json = view_json(&game);
    let n2 = &json["nodes"][1];
    assert_eq!(n2["role"], "crashed");
    assert_eq!(n2["disk"]["fault"]["mark"], "disk wiped");
    let words = n2["disk"]["fault"]["words"].as_str().unwrap();
    assert!(words.contains(&BootRefused::Missing.to_string()), "{words}");
    assert_eq!(
        json["nodes"][0]["disk"].get("fault"),
        None,
        "N1's disk reads"
    );
    let controls = json["controls"].as_array().unwrap();
    assert!(
        !controls
            .iter()
            .any(|control| control["action"]["kind"] == "restart"),
        "the library refuses N2, so no restart is offered: {controls:?}"
    );
}

#[test]
fn a_crashed_disk_can_be_wiped_by_a_button() {
    let mut game = mount();
    play(&mut game, &["crash N3"]);
    let json = view_json(&game);
    let wipe = serde_json::json!({"kind": "wipe", "node": "N3"});
    assert!((json["controls"].as_array().unwrap().iter()).any(|control| control["action"] == wipe));
    assert_eq!(json["nodes"][2]["disk"].get("fault"), None, "not yet wiped");
}

#[test]
fn the_reference_solution_chooses_x2_without_n2() {
    let mut game = mount();
    let solution = game.level().solution;
    play(&mut game, solution);
    assert_eq!(game.goal(), Goal::Reached);
    let chosen = game.world().chosen_by_votes();
    let last = chosen.last().expect("x=2 chosen");
    assert_eq!(last.slot.0, 2);
    assert!(!last.voters.contains(node(2)));
    assert!(game.world().servers()[1].boot_refused);
    assert!(game.world().violations().is_empty());
}

#[test]
fn x2_chosen_with_n2s_vote_before_the_wipe_fails_the_goal() {
    let mut game = mount();
    play(
        &mut game,
        &[
            "request C1 N1",
            "deliver C1->N1 Write",
            "deliver N1->N2 Accept(1.N1, slot 2",
            "deliver N2->N1 Accepted(1.N1, slot 2",
            "crash N2",
            "wipe N2",
            "answer refused",
        ],
    );
    match game.goal() {
        Goal::Failed(reason) => assert!(
            reason.contains("x=2 (C1#2) was chosen in slot 2 by {N1, N2}, with N2's vote"),
            "{reason}"
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn every_wrong_choice_is_refused_and_names_the_library() {
    let mut game = mount();
    super::refuse_every_wrong_choice(&mut game, "boot", |text| {
        text.contains("ColocatedNode::boot")
    });
}

#[test]
fn undo_takes_the_wipe_back_and_n2_restarts_from_its_record() {
    let mut game = mount();
    play(&mut game, &["crash N2"]);
    let crashed = game.fingerprint();
    play(&mut game, &["wipe N2"]);
    game.undo().expect("undo");
    assert_eq!(game.fingerprint(), crashed);
    assert!(!game.world().servers()[1].disk.is_empty());
    play(&mut game, &["restart N2"]);
    let n2 = game.world().servers()[1].host.node().expect("N2 is up");
    assert!(
        n2.promised().is_some(),
        "its promise came back from its disk"
    );
}
