//! The checkers of a Matchmaker Paxos world, judged after every step. Each is a named
//! [`Property`] that protects one rule, and each has a negative control that trips it first
//! (see the scenarios): agreement across configurations; `history-complete` (M1, M2);
//! `proposal-keeps-chosen` (M3); `gc-keeps-what-phase1-needs` and `nothing-below-watermark`
//! (M4); `reconstruction-complete` (M6); and, once faults stop, `later-leader-completes`
//! (liveness). "Chosen in round `i`" is judged by the votes of the whole run: the voters in `i`
//! form a Phase-2 quorum of `i`'s own configuration, by paros-core's quorum system.

use super::names::{round_name, set_name};
use super::world::MatchmakerWorld;
use crate::check::{Property, Violation};
use paros_core::matchmaker::{GenerationStage, Leader, Stage};
use paros_core::{Ballot, NodeSet, Value};

/// Every property broken in `world`; empty when it is safe so far (and, once faults stop,
/// live).
pub fn safety(world: &MatchmakerWorld) -> Vec<Violation> {
    let mut found = Vec::new();
    let chosen = world.chosen();
    agreement(world, &chosen, &mut found);
    history_complete(world, &mut found);
    proposal_keeps_chosen(world, &chosen, &mut found);
    gc_keeps_what_phase1_needs(world, &mut found);
    nothing_below_watermark(world, &mut found);
    reconstruction_complete(world, &mut found);
    later_leader_completes(world, &mut found);
    found
}

/// Agreement across configurations: every round in which a value is chosen chose the same one.
/// `chosen` is what [`MatchmakerWorld::chosen`] says.
fn agreement(world: &MatchmakerWorld, chosen: &[(Ballot, &Value)], found: &mut Vec<Violation>) {
    let Some((first_round, first)) = chosen.first() else {
        return;
    };
    if let Some((round, other)) = chosen.iter().find(|(_, value)| value != first) {
        found.push(Violation {
            property: Property::Agreement,
            detail: format!(
                "{first} chosen in round {} by {}; {other} chosen in round {} by {}",
                round_name(*first_round),
                set_name(world.votes()[first_round].voters),
                round_name(*round),
                set_name(world.votes()[round].voters),
            ),
        });
    }
}

/// Whether a leader has finished matchmaking: its history `H_i` is built.
fn matched(leader: &Leader) -> bool {
    leader.stage() >= Stage::Phase1
}

/// M1 and M2: for every two leaders that finished matchmaking, rounds `j < i`, `H_i` holds
/// round `j` unless some matchmaker's watermark is above `j` (then it is collected, and no
/// Phase 1 needs it). Whichever finished first: a lower round recorded after a higher one was
/// answered (M1 dropped) is missing from the higher round's history.
fn history_complete(world: &MatchmakerWorld, found: &mut Vec<Violation>) {
    let watermark = world.highest_watermark();
    let matched = || (world.leaders().iter()).filter(|leader| matched(leader));
    for higher in matched() {
        for lower in matched() {
            let j = lower.round();
            if j < higher.round() && Some(j) >= watermark && !higher.history().contains_key(&j) {
                found.push(Violation {
                    property: Property::HistoryComplete,
                    detail: format!(
                        "{}'s history for round {} misses round {}, which {} matched",
                        super::names::node_name(higher.id()),
                        round_name(higher.round()),
                        round_name(j),
                        super::names::node_name(lower.id()),
                    ),
                });
            }
        }
    }
}

/// M3: a leader of round `i` that proposes proposes the value chosen in any round below `i`.
/// `chosen` is what [`MatchmakerWorld::chosen`] says.
fn proposal_keeps_chosen(
    world: &MatchmakerWorld,
    chosen: &[(Ballot, &Value)],
    found: &mut Vec<Violation>,
) {
    for leader in world.leaders() {
        let Some(proposal) = leader.proposal() else {
            continue;
        };
        let below =
            (chosen.iter()).find(|(round, value)| *round < leader.round() && *value != proposal);
        if let Some((round, value)) = below {
            found.push(Violation {
                property: Property::ProposalKeepsChosen,
                detail: format!(
                    "{} proposes {proposal} in round {}, but {value} is chosen in round {} by {}",
                    super::names::node_name(leader.id()),
                    round_name(leader.round()),
                    round_name(*round),
                    set_name(world.votes()[round].voters),
                ),
            });
        }
    }
}

/// M4: a matchmaker's watermark `w` collects the configurations below it. If a round below `w`
/// holds a vote, a future Phase 1 needs its configuration, unless a value is already chosen in
/// round `w` on a Phase-2 quorum of `w`'s configuration (which, by M3, is the value any lower
/// round could have chosen).
fn gc_keeps_what_phase1_needs(world: &MatchmakerWorld, found: &mut Vec<Violation>) {
    let watermarks: std::collections::BTreeSet<Ballot> = world
        .matchmakers()
        .iter()
        .filter_map(|m| m.watermark())
        .collect();
    for watermark in watermarks {
        if world.chosen_in_round(watermark) {
            continue;
        }
        let needed = world.votes().range(..watermark).next();
        if let Some((round, votes)) = needed {
            let holders: NodeSet = (world.matchmakers().iter())
                .filter(|m| m.watermark() == Some(watermark))
                .map(|m| m.id())
                .collect();
            found.push(Violation {
                property: Property::GcKeepsWhatPhase1Needs,
                detail: format!(
                    "{} collected below round {} before a value was chosen in it, while round {} holds votes from {}",
                    set_name(holders),
                    round_name(watermark),
                    round_name(*round),
                    set_name(votes.voters),
                ),
            });
        }
    }
}

/// M4: no matchmaker stores a round below its own watermark, whatever reached it late (a
/// Bootstrap, a MatchA, a restart's replay).
fn nothing_below_watermark(world: &MatchmakerWorld, found: &mut Vec<Violation>) {
    for matchmaker in world.matchmakers() {
        let Some(watermark) = matchmaker.watermark() else {
            continue;
        };
        if let Some((round, _)) = matchmaker.configurations().range(..watermark).next() {
            found.push(Violation {
                property: Property::NothingBelowWatermark,
                detail: format!(
                    "{} stores round {} below its watermark {}",
                    super::names::node_name(matchmaker.id()),
                    round_name(*round),
                    round_name(watermark),
                ),
            });
        }
    }
}

/// The watermark half of M6: every matchmaker of `new`, all bootstrapped, holds at least the
/// old generation's `watermark`, so what the old generation collected stays collected.
fn bootstrapped_keep_the_watermark(
    world: &MatchmakerWorld,
    new: NodeSet,
    watermark: Option<Ballot>,
    found: &mut Vec<Violation>,
) {
    let behind =
        (world.matchmakers().iter()).find(|m| new.contains(m.id()) && m.watermark() < watermark);
    if let (Some(matchmaker), Some(watermark)) = (behind, watermark) {
        found.push(Violation {
            property: Property::ReconstructionComplete,
            detail: format!(
                "{} was bootstrapped with the watermark {} but holds {}",
                super::names::node_name(matchmaker.id()),
                round_name(watermark),
                matchmaker.watermark().map_or("none".to_owned(), round_name),
            ),
        });
    }
}

/// Liveness once faults stop: when the fair schedule has nothing left to do, its leader
/// reports a value chosen in its round (`Leader::chosen`, what a caller of paros-core reads).
fn later_leader_completes(world: &MatchmakerWorld, found: &mut Vec<Violation>) {
    let Some(leader) = world.fair_leader() else {
        return;
    };
    if leader.chosen().is_some() || world.fair_action().is_some() {
        return;
    }
    found.push(Violation {
        property: Property::LaterLeaderCompletes,
        detail: format!(
            "faults stopped and nothing is left to do, but {} reports no value chosen, in {:?} of round {} in {}, with history {}, promised by {}, matching with {}",
            super::names::node_name(leader.id()),
            leader.stage(),
            round_name(leader.round()),
            super::names::configuration_name(leader.config()),
            super::names::history_name(leader.history()),
            set_name(leader.promised_by()),
            set_name(world.matched_with(world.leaders().len() - 1)),
        ),
    });
}

/// M6: once the reconfigurer has reconstructed the old generation's state (the state it
/// bootstraps the next generation with), every round that finished matchmaking with the old
/// generation is in it, unless it is below the reconstructed watermark; and once every new
/// matchmaker acknowledged its Bootstrap, each holds that watermark or a higher one.
fn reconstruction_complete(world: &MatchmakerWorld, found: &mut Vec<Violation>) {
    let Some(reconfigurer) = world.reconfigurer() else {
        return;
    };
    let Some((history, watermark)) = reconfigurer.reconstructed() else {
        return;
    };
    if reconfigurer.stage() >= GenerationStage::Deciding {
        bootstrapped_keep_the_watermark(world, reconfigurer.new_generation(), *watermark, found);
    }
    let old = super::config::MatchmakerWorldConfig::first_generation();
    for (index, leader) in world.leaders().iter().enumerate() {
        let round = leader.round();
        let with_old = world.matched_with(index) == old;
        if with_old && matched(leader) && Some(round) >= *watermark && !history.contains_key(&round)
        {
            found.push(Violation {
                property: Property::ReconstructionComplete,
                detail: format!(
                    "round {} matched with {} but is missing from the state the next generation is bootstrapped with",
                    round_name(round),
                    set_name(old),
                ),
            });
        }
    }
}
