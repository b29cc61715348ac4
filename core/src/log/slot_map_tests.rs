//! [`SlotMap`] against the ordered map it stands in for: the same answers to every question a
//! node asks of its per-slot records, and equality by content alone.

use crate::log::{Slot, SlotMap};
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};

/// One change to a map, as a node makes them.
#[derive(Clone, Debug)]
enum Change {
    Insert(u64, u32),
    Remove(u64),
    SplitOff(u64),
    RetainAbove(u64),
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        4 => (0u64..40, any::<u32>()).prop_map(|(slot, value)| Change::Insert(slot, value)),
        2 => (0u64..40).prop_map(Change::Remove),
        1 => (0u64..40).prop_map(Change::SplitOff),
        1 => (0u64..40).prop_map(Change::RetainAbove),
    ]
}

/// Applies `change` to both maps; `SplitOff` keeps the part from the slot on, as a truncation
/// does.
fn apply(change: &Change, dense: &mut SlotMap<u32>, model: &mut BTreeMap<Slot, u32>) {
    match *change {
        Change::Insert(slot, value) => {
            assert_eq!(
                dense.insert(Slot(slot), value),
                model.insert(Slot(slot), value)
            );
        }
        Change::Remove(slot) => assert_eq!(dense.remove(&Slot(slot)), model.remove(&Slot(slot))),
        Change::SplitOff(slot) => {
            let kept = dense.split_off(&Slot(slot));
            let below = std::mem::replace(dense, kept);
            let kept_model = model.split_off(&Slot(slot));
            let below_model = std::mem::replace(model, kept_model);
            assert!(below.iter().eq(below_model.iter()));
        }
        Change::RetainAbove(slot) => {
            dense.retain(|kept, _| kept.0 > slot);
            model.retain(|kept, _| kept.0 > slot);
        }
    }
}

fn hash_of(map: &SlotMap<u32>) -> u64 {
    let mut hasher = DefaultHasher::new();
    map.hash(&mut hasher);
    hasher.finish()
}

/// Slots far apart cost memory, not correctness: a map spanning a gap still answers right.
#[test]
fn a_map_with_holes_answers_in_slot_order() {
    let mut map = SlotMap::new();
    map.insert(Slot(5), "e");
    map.insert(Slot(2), "b");
    map.insert(Slot(9), "i");
    assert_eq!(map.len(), 3);
    assert_eq!(
        map.keys().copied().collect::<Vec<_>>(),
        [Slot(2), Slot(5), Slot(9)]
    );
    assert_eq!(map.keys().next_back(), Some(&Slot(9)));
    assert_eq!(map.get(&Slot(3)), None);
    assert_eq!(map[&Slot(5)], "e");
    assert_eq!(map.range(Slot(3)..=Slot(9)).count(), 2);
    assert_eq!(map.range(Slot(10)..).count(), 0);
    assert_eq!(
        format!("{map:?}"),
        r#"{Slot(2): "b", Slot(5): "e", Slot(9): "i"}"#
    );
}

proptest! {
    /// After any sequence of changes the dense map holds what an ordered map holds: the same
    /// length, lookups, slot-ordered iteration from either end, and ranges.
    #[test]
    fn a_slot_map_answers_as_an_ordered_map(
        changes in proptest::collection::vec(change(), 0..60),
        from in 0u64..45,
        through in 0u64..45,
    ) {
        let (mut dense, mut model) = (SlotMap::new(), BTreeMap::new());
        for change in &changes {
            apply(change, &mut dense, &mut model);
        }
        prop_assert_eq!(dense.len(), model.len());
        prop_assert_eq!(dense.is_empty(), model.is_empty());
        prop_assert!(dense.iter().eq(model.iter()));
        prop_assert!(dense.iter().rev().eq(model.iter().rev()));
        for slot in 0..45 {
            prop_assert_eq!(dense.get(&Slot(slot)), model.get(&Slot(slot)));
        }
        let (from, through) = (Slot(from), Slot(through.max(from)));
        prop_assert!(dense.range(from..=through).eq(model.range(from..=through)));
        prop_assert!(dense.range(from..through).eq(model.range(from..through)));
        prop_assert!(dense.range(..through).eq(model.range(..through)));
        prop_assert!(dense.range(from..).eq(model.range(from..)));
    }

    /// Two maps that hold the same slots are equal and hash alike, however each was built: a
    /// node's fingerprint depends on what it holds, not on the order it learned it.
    #[test]
    fn maps_with_the_same_slots_are_equal_and_hash_alike(
        changes in proptest::collection::vec(change(), 0..60),
    ) {
        let (mut dense, mut model) = (SlotMap::new(), BTreeMap::new());
        for change in &changes {
            apply(change, &mut dense, &mut model);
        }
        let rebuilt: SlotMap<u32> = model.into_iter().collect();
        prop_assert_eq!(&dense, &rebuilt);
        prop_assert_eq!(hash_of(&dense), hash_of(&rebuilt));
    }
}
