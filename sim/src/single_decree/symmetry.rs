//! The symmetries of an Act I world, acceptors it cannot tell apart, and the orbit fingerprint
//! the explorer merges states by.
//!
//! Renaming acceptors maps the states of a world onto states of the same world: every acceptor
//! follows the same rules, every proposer broadcasts to all of them and counts majorities of
//! all of them, and a ballot belongs to a proposer, so no renaming of acceptors touches one. A
//! renaming must leave the configuration as it is: silent acceptors are renamed only among
//! themselves, and in the learn-early control, whose P1 counts A1 alone as a quorum, A1 keeps
//! its name. Acceptors past A5 always keep theirs: 120 renamings is as many as it pays to hash.
//!
//! Proposers are never swapped, not even together with their values: the owner of a ballot
//! breaks the tie between ballots of one round (`1.P1 < 1.P2`), and a swap reverses that order.
//! An acceptor that has promised `1.P2` refuses `1.P1`; its image, having promised `1.P1`,
//! would promise `1.P2`.
//!
//! A state's image fingerprint under a renaming is the sum of one hash per part of the renamed
//! state; its orbit fingerprint is the least of its image fingerprints (mixed once more, one to
//! one, so that it spreads over the seen set). A state and any of its
//! images have the same image fingerprints, so the same least one; two states with the same
//! least one share an image, so a renaming maps one onto the other. The image fingerprint
//! hashes parts of its own (a proposer's renamed promises can be hashed, though only paros-core
//! could build them), so even for the identity it is not [`DecreeWorld::fingerprint`].

use super::renaming::{Renaming, orbit};
use super::wire::PackedEnvelope;
use super::world::{DecreeWorld, Part};
use crate::fingerprint::part;
use paros_core::{Acceptor, Ballot, Majority, NodeId, Proposer, Value};

/// The parts an image fingerprint hashes that a renaming moves or rewrites. The budgets and
/// retries left, which no renaming touches, are hashed as [`DecreeWorld::fingerprint`] hashes
/// them.
#[derive(Clone, Copy, Hash)]
enum ImagePart {
    Acceptor(usize),
    Proposer(usize),
    Promise,
    Vote,
    Message,
}

/// The hash of acceptor `index` in the image: its promise and vote, where the renaming puts
/// it. (Its id is its place.)
#[inline]
pub(super) fn acceptor_image(renaming: &Renaming, index: usize, acceptor: &Acceptor) -> u64 {
    let at = ImagePart::Acceptor(renaming.acceptor_index(index));
    part(at, &(acceptor.promised(), acceptor.accepted()))
}

/// The hash of proposer `index` in the image: everything that changes in a proposer, with the
/// acceptors it heard from renamed. Its id, own value and quorum system never change in a
/// world, so they are left out; its promises, one per acceptor, hash as a set.
pub(super) fn proposer_image(
    renaming: &Renaming,
    index: usize,
    proposer: &Proposer<Majority>,
) -> u64 {
    let promises = (proposer.promises().iter()).fold(0u64, |sum, (node, vote)| {
        sum.wrapping_add(part(ImagePart::Promise, &(renaming.node(*node), vote)))
    });
    let state = (
        proposer.phase(),
        proposer.ballot(),
        proposer.highest_refusal(),
        proposer.proposal(),
        renaming.set(proposer.accepted_by()),
        promises,
    );
    part(ImagePart::Proposer(index), &state)
}

/// The hash of one vote of the history in the image.
#[inline]
pub(super) fn vote_image(renaming: &Renaming, voter: NodeId, ballot: Ballot, value: &Value) -> u64 {
    part(ImagePart::Vote, &(renaming.node(voter), ballot, value))
}

/// The hash of one message in flight in the image.
#[inline]
pub(super) fn message_image(renaming: &Renaming, envelope: &PackedEnvelope) -> u64 {
    part(ImagePart::Message, &envelope.renamed(renaming))
}

impl DecreeWorld {
    /// The renamings this world declares as its symmetries, the identity first.
    pub fn renamings(&self) -> &[Renaming] {
        &self.renamings
    }

    /// The fingerprint of this state's orbit: the least of its image fingerprints (see the
    /// module docs). Free to read in a world that keeps its image fingerprints.
    pub fn orbit_fingerprint(&self) -> u64 {
        match &self.kept_images {
            Some(images) => orbit(images),
            None => orbit(&self.images_from_scratch()),
        }
    }

    /// The image fingerprint under each renaming, in the order of [`DecreeWorld::renamings`].
    pub(super) fn images_from_scratch(&self) -> Box<[u64]> {
        (self.renamings.iter())
            .map(|renaming| self.image_from_scratch(renaming))
            .collect()
    }

    /// The fingerprint of this state renamed, from every part.
    pub(super) fn image_from_scratch(&self, renaming: &Renaming) -> u64 {
        let acceptors = (self.acceptors.iter().enumerate())
            .map(|(index, acceptor)| acceptor_image(renaming, index, acceptor));
        let proposers = (self.proposers.iter().enumerate())
            .map(|(index, proposer)| proposer_image(renaming, index, proposer));
        let votes = self.votes.iter().flat_map(|votes| {
            (votes.voters.iter())
                .map(|voter| vote_image(renaming, voter, votes.ballot, &votes.value))
        });
        let messages = (self.network.in_flight().iter())
            .map(|message| message_image(renaming, &message.envelope));
        acceptors
            .chain(proposers)
            .chain(votes)
            .chain(messages)
            .fold(self.unrenamed_parts(), u64::wrapping_add)
    }

    /// The sum of the parts no renaming touches: the budgets and each proposer's retries left.
    fn unrenamed_parts(&self) -> u64 {
        (self.retries_left.iter().enumerate())
            .map(|(index, left)| part(Part::Retries(index), left))
            .fold(part(Part::Budget, &self.budget_left), u64::wrapping_add)
    }

    /// This world, keeping its image fingerprints from now on (and so every successor it
    /// builds): what a search that merges states by orbit needs.
    pub fn keeping_images(mut self) -> DecreeWorld {
        self.kept_images = Some(self.images_from_scratch());
        self
    }
}

#[cfg(test)]
mod tests {
    use super::Renaming;
    use crate::check::Property;
    use crate::explore::{self, Ending, Limits};
    use crate::model::Model;
    use crate::network::MessageId;
    use crate::scenarios::{self, Setup};
    use crate::single_decree::{DecreeAction, DecreeWorld, DecreeWorldConfig, check};
    use paros_core::Envelope;
    use proptest::prelude::*;
    use std::collections::{BTreeMap, BTreeSet, VecDeque};

    /// Every Act I scenario's configuration and its prelude.
    fn act1_scenarios() -> Vec<(&'static str, DecreeWorldConfig, Vec<&'static str>)> {
        (scenarios::all().into_iter())
            .filter_map(|scenario| match scenario.setup {
                Setup::Act1 { config, prelude } => Some((scenario.name, config, prelude)),
                Setup::Log { .. } | Setup::Matchmaker { .. } => None,
            })
            .collect()
    }

    /// The actions of `prelude`, read against a fresh world of `config`.
    fn prelude_actions(config: &DecreeWorldConfig, prelude: &[&str]) -> Vec<DecreeAction> {
        let mut world = DecreeWorld::new(config.clone()).unwrap();
        let mut actions = Vec::new();
        for text in prelude {
            let action = world.parse_action(text).unwrap();
            world.apply(&action).unwrap();
            actions.push(action);
        }
        actions
    }

    fn renamed_envelope(envelope: &Envelope, renaming: &Renaming) -> Envelope {
        Envelope {
            from: renaming.node(envelope.from),
            to: renaming.node(envelope.to),
            message: envelope.message.clone(),
        }
    }

    /// Pairs each message of `sent` (in `real`) with a message of `image_sent` (in `image`)
    /// that is its renamed copy, and records the pairs in `ids`. Equal messages are
    /// interchangeable, so any such pairing will do.
    fn pair_messages(
        (real, sent): (&DecreeWorld, &[MessageId]),
        (image, image_sent): (&DecreeWorld, &[MessageId]),
        renaming: &Renaming,
        ids: &mut BTreeMap<MessageId, MessageId>,
    ) {
        let mut unpaired = image_sent.to_vec();
        for id in sent {
            let wanted = renamed_envelope(&real.message(*id).unwrap().envelope, renaming);
            let at = (unpaired.iter())
                .position(|other| image.message(*other).unwrap().envelope == wanted)
                .unwrap_or_else(|| panic!("the image sends no {wanted:?}"));
            ids.insert(*id, unpaired.remove(at));
        }
        assert!(unpaired.is_empty(), "the image sends more: {unpaired:?}");
    }

    /// The image under `renaming` of the state `actions` lead to from a fresh world of
    /// `config`, built by replaying the actions renamed: a renamed action the world refuses,
    /// or a step whose messages are not the renamed messages, fails the test, since then the
    /// renaming is no symmetry.
    fn image_by_replay(
        config: &DecreeWorldConfig,
        actions: &[DecreeAction],
        renaming: &Renaming,
    ) -> DecreeWorld {
        let mut real = DecreeWorld::new(config.clone()).unwrap();
        let mut image = DecreeWorld::new(config.clone()).unwrap();
        let in_flight = |world: &DecreeWorld| -> Vec<MessageId> {
            world.in_flight().iter().map(|message| message.id).collect()
        };
        let mut ids = BTreeMap::new();
        let (sent, image_sent) = (in_flight(&real), in_flight(&image));
        pair_messages((&real, &sent), (&image, &image_sent), renaming, &mut ids);
        for action in actions {
            let renamed = match *action {
                DecreeAction::Deliver(id) => DecreeAction::Deliver(ids[&id]),
                DecreeAction::Drop(id) => DecreeAction::Drop(ids[&id]),
                DecreeAction::Duplicate(id) => DecreeAction::Duplicate(ids[&id]),
                DecreeAction::Amnesia(node) => DecreeAction::Amnesia(renaming.node(node)),
                DecreeAction::Start(_) | DecreeAction::Retry(_) => *action,
            };
            let sent = real.apply(action).unwrap().sent;
            let image_sent = (image.apply(&renamed))
                .unwrap_or_else(|refused| panic!("{renamed} refused: {refused}"))
                .sent;
            pair_messages((&real, &sent), (&image, &image_sent), renaming, &mut ids);
        }
        image
    }

    /// What every checker says of `world`: each property it breaks, and whether it decided.
    fn judgement(world: &DecreeWorld) -> (Vec<Property>, [bool; 3], bool) {
        let properties = (world.violations().iter())
            .map(|violation| violation.property)
            .collect();
        let each = [
            check::agreement(world).is_some(),
            check::validity(world).is_some(),
            check::learned_is_chosen(world).is_some(),
        ];
        (properties, each, world.is_decided())
    }

    /// The actions a walk takes from a fresh world of `config`: its prelude, then at each step
    /// the enabled action `choices` picks, until the choices or the enabled actions run out.
    fn walk(config: &DecreeWorldConfig, prelude: &[&str], choices: &[usize]) -> Vec<DecreeAction> {
        let mut actions = prelude_actions(config, prelude);
        let mut world = DecreeWorld::replay(config.clone(), &actions).unwrap();
        for choice in choices {
            let enabled = world.enabled();
            if enabled.is_empty() {
                break;
            }
            let action = enabled[choice % enabled.len()];
            world.apply(&action).unwrap();
            actions.push(action);
        }
        actions
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn every_image_of_a_reachable_state_is_judged_and_merged_alike(
            scenario in 0..10usize,
            choices in proptest::collection::vec(0..64usize, 0..40),
        ) {
            // Proves, on random reachable states of every Act I world: each declared
            // renaming maps the state's whole history onto a history the world takes (so the
            // image is reachable and behaves alike), every checker gives the same answer on
            // the image, the image has as many enabled actions, the image fingerprint hashed
            // from the state is that of the image itself, and both share one orbit
            // fingerprint; and the kept images give every successor's orbit fingerprint as
            // building it would.
            let worlds = act1_scenarios();
            let (name, config, prelude) = &worlds[scenario % worlds.len()];
            let actions = walk(config, prelude, &choices);
            let world = DecreeWorld::replay(config.clone(), &actions).unwrap();
            let identity = &world.renamings()[0];
            prop_assert!(identity.is_identity());
            for renaming in world.renamings() {
                let image = image_by_replay(config, &actions, renaming);
                prop_assert_eq!(judgement(&image), judgement(&world), "{} {:?}", name, renaming);
                prop_assert_eq!(image.enabled().len(), world.enabled().len());
                prop_assert_eq!(
                    image.image_from_scratch(identity),
                    world.image_from_scratch(renaming)
                );
                prop_assert_eq!(image.orbit_fingerprint(), world.orbit_fingerprint());
            }
            let keeping = world.clone().keeping_images();
            for action in world.enabled() {
                let built = world.successor(&action).unwrap();
                prop_assert_eq!(
                    keeping.successor_orbit_fingerprint(&action).unwrap(),
                    built.orbit_fingerprint()
                );
            }
        }
    }

    /// The reachable states of a world, each with the actions that reach it, from its first
    /// fingerprint, breadth-first.
    fn every_state(config: &DecreeWorldConfig, prelude: &[&str]) -> Vec<Vec<DecreeAction>> {
        let first = prelude_actions(config, prelude);
        let start = DecreeWorld::replay(config.clone(), &first).unwrap();
        let mut seen = BTreeSet::from([start.fingerprint()]);
        let mut queue = VecDeque::from([(start, first)]);
        let mut states = Vec::new();
        while let Some((world, path)) = queue.pop_front() {
            for action in world.enabled() {
                let next = world.successor(&action).unwrap();
                if seen.insert(next.fingerprint()) {
                    let mut longer = path.clone();
                    longer.push(action);
                    queue.push_back((next, longer));
                }
            }
            states.push(path);
        }
        states
    }

    #[test]
    fn the_orbit_fingerprint_merges_exactly_the_states_a_renaming_maps_onto_each_other() {
        // Proves the canonical form exact on whole state spaces: the orbits are worked out
        // apart from it (a state's orbit is named by the least plain fingerprint of its
        // images, each built by replaying its history renamed), and the orbit fingerprint
        // tells two states apart exactly when their orbits differ. The search that merges
        // by orbit visits one state per orbit, however many of the state's images it met.
        // Whether some states merge: in the learn-early control, P1 asks only A1, so A2 and A3
        // (the two it may swap) never change and every state is its own image; recovery's
        // prelude leaves the three acceptors each in a state of its own, and no schedule
        // from there reaches a renaming of a state it reaches.
        for (name, merges) in [
            ("act1-choose-a-value", true),
            ("act1-one-proposer", true),
            ("act1-learn-early-control", false),
            ("act1-rogue-value-control", true),
            ("act1-recovery", false),
        ] {
            let (_, config, prelude) = (act1_scenarios().into_iter())
                .find(|(scenario, ..)| *scenario == name)
                .unwrap();
            let mut orbit_of = BTreeMap::new();
            let mut named_by = BTreeMap::new();
            let states = every_state(&config, &prelude);
            for path in &states {
                let world = DecreeWorld::replay(config.clone(), path).unwrap();
                let orbit = (world.renamings().iter())
                    .map(|renaming| image_by_replay(&config, path, renaming).fingerprint())
                    .min()
                    .unwrap();
                let fingerprint = world.orbit_fingerprint();
                assert_eq!(*orbit_of.entry(orbit).or_insert(fingerprint), fingerprint);
                assert_eq!(
                    *named_by.entry(fingerprint).or_insert(orbit),
                    orbit,
                    "{name}"
                );
            }
            let start = DecreeWorld::replay(config.clone(), &prelude_actions(&config, &prelude));
            let limits = Limits {
                symmetry: true,
                ..Limits::default()
            };
            let explored = explore::explore(start.unwrap(), limits).unwrap();
            if matches!(explored.ending, Ending::Complete) {
                assert_eq!(explored.states as usize, orbit_of.len(), "{name}");
            }
            assert_eq!(orbit_of.len() < states.len(), merges, "{name}");
        }
    }

    #[test]
    fn renamings_keep_the_configuration_and_never_move_a_proposer() {
        // Proves each world declares the renamings its configuration allows, and no more:
        // every order of three acceptors; with A3 silent, A1 and A2 swapped; with P1 counting
        // A1 alone as a quorum, A2 and A3 swapped.
        for (name, config, _) in act1_scenarios() {
            let world = DecreeWorld::new(config.clone()).unwrap();
            let expected = match name {
                "act1-choose-a-value" | "act1-duel-silent-acceptor" => 2,
                "act1-learn-early-control" => 2,
                _ => 6,
            };
            assert_eq!(world.symmetries(), expected, "{name}");
            let distinct: BTreeSet<_> = (world.renamings().iter())
                .map(|renaming| format!("{renaming:?}"))
                .collect();
            assert_eq!(distinct.len(), expected, "{name}");
            for renaming in world.renamings() {
                for index in 0..config.proposers.len() {
                    let proposer = config.proposer_id(index);
                    assert_eq!(renaming.node(proposer), proposer, "{name}");
                }
                assert_eq!(renaming.set(config.silent), config.silent, "{name}");
                assert_eq!(renaming.set(config.acceptors()), config.acceptors());
                if name == "act1-learn-early-control" {
                    let a1 = config.acceptor_id(0);
                    assert_eq!(renaming.node(a1), a1);
                }
            }
        }
    }

    #[test]
    fn swapping_the_proposers_is_no_symmetry() {
        // Proves why proposers are never renamed: the schedule "P2's Prepare, then P1's, reach
        // A1" gets A1 to refuse 1.P1, but its image with the proposers swapped ("P1's Prepare,
        // then P2's") gets A1 to promise both, since 1.P2 ranks above 1.P1 either way.
        let config = DecreeWorldConfig::act1(&["x", "y"]);
        let nacks_after = |first: &str, second: &str| {
            let mut world = DecreeWorld::new(config.clone()).unwrap();
            for text in [first, second] {
                let action = world.parse_action(text).unwrap();
                world.apply(&action).unwrap();
            }
            (world.in_flight().iter())
                .filter(|message| message.envelope.message.kind() == "Nack")
                .count()
        };
        assert_eq!(nacks_after("deliver P2->A1", "deliver P1->A1"), 1);
        assert_eq!(nacks_after("deliver P1->A1", "deliver P2->A1"), 0);
    }
}
