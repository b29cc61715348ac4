//! The renamings of an Act I world's acceptors, the symmetries the explorer merges states by
//! (`symmetry.rs` says which renamings a world declares and why), and the orbit of a state's
//! image fingerprints.

use super::config::DecreeWorldConfig;
use crate::faults::NegativeControl;
use crate::fingerprint::spread;
use paros_core::{NodeId, NodeSet};

/// The most renamings a world declares: every order of five acceptors.
pub(super) const MAX_RENAMINGS: usize = 120;

/// How many acceptors, from A1, a renaming may move.
const RENAMED_ACCEPTORS: usize = 5;

/// A renaming of acceptors; proposers keep their names.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Renaming {
    /// Each node's new name, by its number (place 0 is unused).
    to: [NodeId; NodeId::MAX as usize + 1],
}

impl Renaming {
    /// The new name of `node`.
    #[inline]
    pub fn node(&self, node: NodeId) -> NodeId {
        self.to[usize::from(node.get())]
    }

    /// `set` with every node renamed.
    pub fn set(&self, set: NodeSet) -> NodeSet {
        set.iter().map(|node| self.node(node)).collect()
    }

    /// Where acceptor `index` (0-based) goes.
    #[inline]
    pub(super) fn acceptor_index(&self, index: usize) -> usize {
        usize::from(self.to[index + 1].get()) - 1
    }

    /// Whether this renaming leaves every node its name.
    pub fn is_identity(&self) -> bool {
        (1..self.to.len()).all(|number| usize::from(self.to[number].get()) == number)
    }
}

/// The renamings of the acceptors of `config` that leave its configuration as it is (see the
/// module docs), the identity first.
pub(super) fn renamings(config: &DecreeWorldConfig) -> Vec<Renaming> {
    let learn_early = config.negative_control == Some(NegativeControl::LearnEarly);
    let movable = (0..usize::from(config.acceptor_count).min(RENAMED_ACCEPTORS))
        .filter(|&index| !(learn_early && index == 0));
    let (silent, heard): (Vec<usize>, Vec<usize>) =
        movable.partition(|&index| config.silent.contains(config.acceptor_id(index)));
    let identity: Vec<usize> = (0..usize::from(config.acceptor_count)).collect();
    let mut orders = vec![identity];
    for class in [heard, silent] {
        orders = (orders.iter())
            .flat_map(|order| {
                permutations(&class).into_iter().map(|arranged| {
                    let mut order = order.clone();
                    for (&from, to) in class.iter().zip(arranged) {
                        order[from] = to;
                    }
                    order
                })
            })
            .collect();
    }
    orders
        .into_iter()
        .map(|order| renaming(config, &order))
        .collect()
}

/// Every order of `items`, the given one first.
fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.is_empty() {
        return vec![Vec::new()];
    }
    (0..items.len())
        .flat_map(|at| {
            let mut rest = items.to_vec();
            let first = rest.remove(at);
            permutations(&rest).into_iter().map(move |mut tail| {
                tail.insert(0, first);
                tail
            })
        })
        .collect()
}

/// The renaming that sends acceptor `index` to acceptor `order[index]`.
fn renaming(config: &DecreeWorldConfig, order: &[usize]) -> Renaming {
    let unused = config.acceptor_id(0);
    let mut to = [unused; NodeId::MAX as usize + 1];
    for (number, name) in to.iter_mut().enumerate().skip(1) {
        *name = NodeId::new(number as u8).expect("at most 63 nodes");
    }
    for (index, &image) in order.iter().enumerate() {
        to[index + 1] = config.acceptor_id(image);
    }
    Renaming { to }
}

/// The orbit fingerprint of a state with these image fingerprints: the least, spread over the
/// whole range ([`spread`]) since a least of several hashes lies low.
pub(super) fn orbit(images: &[u64]) -> u64 {
    spread(images.iter().copied().min().expect("the identity at least"))
}
