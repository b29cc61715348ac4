//! The simulator's own reading of a quorum system: chosen judged from the votes by the
//! definitions, not by paros-core's count.
//!
//! The checkers once judged chosen with paros-core's own [`Quorums::is_phase2_quorum_at`], the
//! test the nodes count with; a fault in that count then moved the nodes and the judge alike,
//! and no checker could see it. Here each system is read from what defines it: a majority of
//! the acceptors, `q2` of them for flexible quorums, and for a grid the whole column
//! `(slot - 1) mod columns` of the slot (F1 and the grid invariant, ARCHITECTURE.md). A node
//! that learns a slot chosen by any other count then breaks learned-is-chosen.

use paros_core::log::Slot;
use paros_core::{NodeSet, QuorumSystem, Quorums};

/// Whether `voters`, at one ballot, choose in `slot` under `quorums`. `rows_decide` is the
/// grid-decides-in-row control's broken rule, under which a full row decides too
/// ([`a_row_decides`]).
pub fn chosen_in_slot(quorums: &Quorums, rows_decide: bool, slot: Slot, voters: NodeSet) -> bool {
    let counted = |acceptors: NodeSet| voters.intersection(acceptors).len();
    match quorums {
        Quorums::Majority(majority) => {
            2 * counted(majority.acceptors()) > majority.acceptors().len()
        }
        Quorums::Flexible(flexible) => counted(flexible.acceptors()) >= flexible.phase2_size(),
        Quorums::Grid(grid) => {
            let columns = grid.columns();
            let deciding = slot.0.saturating_sub(1).checked_rem(columns.len() as u64);
            let by_column = (deciding.and_then(|index| columns.get(index as usize)))
                .is_some_and(|column| column.is_subset(voters));
            let by_row = rows_decide && grid.rows().iter().any(|row| row.is_subset(voters));
            by_column || by_row
        }
    }
}

/// Whether `quorums` is a grid whose own Phase-2 test lets a full row decide, though the row
/// holds no whole column: only the grid-decides-in-row control's
/// (`Grid::deciding_in_rows_unchecked`). The judge counts such rows only where the core's grid
/// does, so the control shows the core's broken rule, not the judge's.
pub fn a_row_decides(quorums: &Quorums) -> bool {
    let Quorums::Grid(grid) = quorums else {
        return false;
    };
    let holds_a_column = |row: NodeSet| grid.columns().iter().any(|column| column.is_subset(row));
    (grid.rows().iter()).any(|row| grid.is_phase2_quorum(*row) && !holds_a_column(*row))
}

#[cfg(test)]
mod tests {
    use super::{a_row_decides, chosen_in_slot};
    use paros_core::log::Slot;
    use paros_core::{NodeId, NodeSet, Quorums, is_chosen_in_slot};

    fn nodes(ids: &[u8]) -> Vec<NodeId> {
        ids.iter().map(|id| NodeId::new(*id).unwrap()).collect()
    }

    fn set(ids: &[u8]) -> NodeSet {
        nodes(ids).into_iter().collect()
    }

    /// Every set of voters drawn from N1..N9, as bits.
    fn every_voter_set() -> impl Iterator<Item = NodeSet> {
        (0u32..1 << 9).map(|bits| {
            let ids: Vec<u8> = (1..=9).filter(|id| bits & (1 << (id - 1)) != 0).collect();
            set(&ids)
        })
    }

    #[test]
    fn the_simulators_reading_agrees_with_the_honest_core_on_every_voter_set() {
        let systems = [
            Quorums::majority(set(&[1, 2, 3])).unwrap(),
            Quorums::majority(set(&[1, 2, 3, 4])).unwrap(),
            Quorums::flexible(set(&[1, 2, 3, 4]), 3, 2).unwrap(),
            Quorums::grid(&[nodes(&[1, 2]), nodes(&[3, 4])]).unwrap(),
            Quorums::grid(&[nodes(&[1, 2, 3]), nodes(&[4, 5, 6]), nodes(&[7, 8, 9])]).unwrap(),
        ];
        for quorums in &systems {
            for slot in (1..=10).map(Slot) {
                for voters in every_voter_set() {
                    assert_eq!(
                        chosen_in_slot(quorums, false, slot, voters),
                        is_chosen_in_slot(quorums, slot, voters),
                        "{quorums:?} slot {slot} voters {voters:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_grid_slot_is_decided_by_its_own_column_only() {
        // Rows {N1, N2}, {N3, N4}: slot 1 is column {N1, N3}'s, slot 2 column {N2, N4}'s, and
        // slot 5 column {N1, N3}'s again. A core that gave slot 2 to the first column would learn
        // it chosen by {N1, N3}, which this reading does not count.
        let grid = Quorums::grid(&[nodes(&[1, 2]), nodes(&[3, 4])]).unwrap();
        assert!(chosen_in_slot(&grid, false, Slot(1), set(&[1, 3])));
        assert!(!chosen_in_slot(&grid, false, Slot(2), set(&[1, 3])));
        assert!(chosen_in_slot(&grid, false, Slot(2), set(&[2, 4])));
        assert!(chosen_in_slot(&grid, false, Slot(5), set(&[1, 3])));
        assert!(!chosen_in_slot(&grid, false, Slot(5), set(&[1, 2])));
        assert!(
            chosen_in_slot(&grid, true, Slot(5), set(&[1, 2])),
            "the control's row"
        );
    }

    #[test]
    fn only_the_controls_grid_lets_a_row_decide() {
        let rows = [nodes(&[1, 2]), nodes(&[3, 4])];
        assert!(!a_row_decides(&Quorums::grid(&rows).unwrap()));
        assert!(!a_row_decides(&Quorums::majority(set(&[1, 2, 3])).unwrap()));
        let control = paros_core::Grid::deciding_in_rows_unchecked(&rows).unwrap();
        assert!(a_row_decides(&Quorums::Grid(control)));
    }
}
