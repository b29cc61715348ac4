//! [`SlotMap`]: a map from slot to value, kept dense, for the per-slot records of a node (its
//! votes, what it knows chosen, its durable votes).
//!
//! A leader gives out slots one after another, so what a node holds about slots is nearly
//! contiguous: a few holes, never a sparse scatter. A slot-indexed deque finds, inserts and
//! drops a slot in constant time, where an ordered tree searches and allocates for each one;
//! this is the store raft-rs keeps its log in (one vector of entries from a first index). It
//! iterates in slot order, as the ordered map it replaces did, so walks stay deterministic.

use crate::log::Slot;
use std::collections::VecDeque;
use std::fmt;
use std::ops::{Bound, Index, RangeBounds};

/// A map from [`Slot`] to `V`, iterated in slot order, stored as one deque indexed from its
/// lowest slot. Memory grows with the span from the lowest to the highest slot held.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SlotMap<V> {
    /// The slot of `places[0]`.
    ///
    /// Invariant: `Slot(0)` when the map is empty, so equal maps are equal field by field.
    first: Slot,
    /// `places[i]` holds slot `first + i`, with its slot so iteration can lend it.
    ///
    /// Invariant: empty, or its first and last places hold a value.
    places: VecDeque<Option<(Slot, V)>>,
    /// Invariant: the number of places that hold a value.
    len: usize,
}

impl<V> Default for SlotMap<V> {
    fn default() -> SlotMap<V> {
        SlotMap::new()
    }
}

impl<V> SlotMap<V> {
    /// An empty map.
    pub const fn new() -> SlotMap<V> {
        SlotMap {
            first: Slot(0),
            places: VecDeque::new(),
            len: 0,
        }
    }

    /// How many slots hold a value.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no slot holds a value.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The place of `slot` in `places`, if it is within them.
    fn place(&self, slot: Slot) -> Option<usize> {
        let offset = usize::try_from(slot.0.checked_sub(self.first.0)?).ok()?;
        (offset < self.places.len()).then_some(offset)
    }

    /// The value in `slot`.
    pub fn get(&self, slot: &Slot) -> Option<&V> {
        #[cfg(test)]
        meter::step(1);
        let place = self.place(*slot)?;
        self.places[place].as_ref().map(|(_, value)| value)
    }

    /// The value in `slot`, to change in place.
    pub fn get_mut(&mut self, slot: &Slot) -> Option<&mut V> {
        #[cfg(test)]
        meter::step(1);
        let place = self.place(*slot)?;
        self.places[place].as_mut().map(|(_, value)| value)
    }

    /// Whether `slot` holds a value.
    pub fn contains_key(&self, slot: &Slot) -> bool {
        self.get(slot).is_some()
    }

    /// Puts `value` in `slot`; returns the value it replaced.
    ///
    /// # Panics
    /// If the map would span more slots than memory can index.
    pub fn insert(&mut self, slot: Slot, value: V) -> Option<V> {
        #[cfg(test)]
        meter::step(1);
        if self.places.is_empty() {
            self.first = slot;
        } else if slot < self.first {
            let gap = usize::try_from(self.first.0 - slot.0).expect("a map spans few slots");
            #[cfg(test)]
            meter::step(gap as u64);
            self.places.reserve(gap);
            for _ in 0..gap {
                self.places.push_front(None);
            }
            self.first = slot;
        }
        let offset = usize::try_from(slot.0 - self.first.0).expect("a map spans few slots");
        if offset >= self.places.len() {
            #[cfg(test)]
            meter::step((offset - self.places.len()) as u64);
            self.places.resize_with(offset + 1, || None);
        }
        let replaced = self.places[offset].replace((slot, value));
        if replaced.is_none() {
            self.len += 1;
        }
        replaced.map(|(_, value)| value)
    }

    /// Takes the value out of `slot`.
    pub fn remove(&mut self, slot: &Slot) -> Option<V> {
        #[cfg(test)]
        meter::step(1);
        let place = self.place(*slot)?;
        let (_, value) = self.places[place].take()?;
        self.len -= 1;
        self.trim_ends();
        Some(value)
    }

    /// Drops the empty places at both ends, restoring the invariants.
    fn trim_ends(&mut self) {
        while self.places.back().is_some_and(Option::is_none) {
            self.places.pop_back();
        }
        while self.places.front().is_some_and(Option::is_none) {
            self.places.pop_front();
            self.first = self.first.next();
        }
        if self.places.is_empty() {
            self.first = Slot(0);
        }
    }

    /// Every slot and its value, in slot order.
    pub fn iter(&self) -> Iter<'_, V> {
        Iter {
            places: self.places.range(..),
        }
    }

    /// The slots that hold a value, in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Slot> + Clone {
        self.iter().map(|(slot, _)| slot)
    }

    /// The values, in slot order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + Clone {
        self.iter().map(|(_, value)| value)
    }

    /// The slots in `range` and their values, in slot order.
    pub fn range(&self, range: impl RangeBounds<Slot>) -> Iter<'_, V> {
        let start = match range.start_bound() {
            Bound::Included(slot) => self.offset_at_or_after(slot.0),
            Bound::Excluded(slot) => self.offset_at_or_after(slot.0.saturating_add(1)),
            Bound::Unbounded => 0,
        };
        let end = match range.end_bound() {
            Bound::Included(slot) => self.offset_at_or_after(slot.0.saturating_add(1)),
            Bound::Excluded(slot) => self.offset_at_or_after(slot.0),
            Bound::Unbounded => self.places.len(),
        };
        Iter {
            places: self.places.range(start..end.max(start)),
        }
    }

    /// The first place at or after slot number `slot`, clamped to `places`.
    fn offset_at_or_after(&self, slot: u64) -> usize {
        let offset = slot.saturating_sub(self.first.0);
        usize::try_from(offset).map_or(self.places.len(), |offset| offset.min(self.places.len()))
    }

    /// Splits the map at `slot`: returns every slot from `slot` on, and keeps the ones below.
    pub fn split_off(&mut self, slot: &Slot) -> SlotMap<V> {
        let at = self.offset_at_or_after(slot.0);
        let mut above = SlotMap {
            first: Slot(self.first.0 + at as u64),
            places: self.places.split_off(at),
            len: 0,
        };
        above.len = above.places.iter().flatten().count();
        self.len -= above.len;
        above.trim_ends();
        self.trim_ends();
        above
    }

    /// Keeps only the slots for which `keep` holds.
    pub fn retain(&mut self, mut keep: impl FnMut(&Slot, &mut V) -> bool) {
        for place in &mut self.places {
            if let Some((slot, value)) = place
                && !keep(slot, value)
            {
                *place = None;
                self.len -= 1;
            }
        }
        self.trim_ends();
    }
}

/// The slots and values of a [`SlotMap`], in slot order.
pub struct Iter<'a, V> {
    places: std::collections::vec_deque::Iter<'a, Option<(Slot, V)>>,
}

impl<V> Clone for Iter<'_, V> {
    fn clone(&self) -> Self {
        Iter {
            places: self.places.clone(),
        }
    }
}

impl<'a, V> Iterator for Iter<'a, V> {
    type Item = (&'a Slot, &'a V);

    fn next(&mut self) -> Option<Self::Item> {
        self.places
            .by_ref()
            .find_map(|place| place.as_ref().map(|(slot, value)| (slot, value)))
    }
}

impl<V> DoubleEndedIterator for Iter<'_, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.places
            .by_ref()
            .rev()
            .find_map(|place| place.as_ref().map(|(slot, value)| (slot, value)))
    }
}

impl<'a, V> IntoIterator for &'a SlotMap<V> {
    type Item = (&'a Slot, &'a V);
    type IntoIter = Iter<'a, V>;

    fn into_iter(self) -> Iter<'a, V> {
        self.iter()
    }
}

impl<V> FromIterator<(Slot, V)> for SlotMap<V> {
    fn from_iter<I: IntoIterator<Item = (Slot, V)>>(items: I) -> SlotMap<V> {
        let mut map = SlotMap::new();
        for (slot, value) in items {
            map.insert(slot, value);
        }
        map
    }
}

impl<V> Index<&Slot> for SlotMap<V> {
    type Output = V;

    /// # Panics
    /// If `slot` holds no value, as a map's index does.
    fn index(&self, slot: &Slot) -> &V {
        self.get(slot).expect("no value in this slot")
    }
}

impl<V: fmt::Debug> fmt::Debug for SlotMap<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Test builds only: the work meter. Each lookup, insertion and removal in a [`SlotMap`] is a
/// step, and so is each place an insertion adds, so a loop over slot numbers that touches a map
/// is counted as it runs, and a limit turns a loop that would not end, or a map that would span
/// more memory than there is, into a panic that names its input.
#[cfg(test)]
pub(crate) mod meter {
    use std::cell::Cell;

    thread_local! {
        static STEPS: Cell<u64> = const { Cell::new(0) };
        static LIMIT: Cell<u64> = const { Cell::new(u64::MAX) };
    }

    /// Counts `count` steps; panics past the limit.
    pub(crate) fn step(count: u64) {
        let steps = STEPS.get().saturating_add(count);
        STEPS.set(steps);
        let limit = LIMIT.get();
        assert!(
            steps <= limit,
            "work meter: more than {limit} steps for one input"
        );
    }

    /// Puts the limit back when `metered` ends, by return or by panic.
    struct Unlimit;

    impl Drop for Unlimit {
        fn drop(&mut self) {
            LIMIT.set(u64::MAX);
        }
    }

    /// Stops counting until the guard it returns is dropped: for the debug builds' invariant
    /// checks, which are not an input's work.
    pub(crate) fn unmetered() -> Unmetered {
        let paused = Unmetered {
            steps: STEPS.get(),
            limit: LIMIT.get(),
        };
        LIMIT.set(u64::MAX);
        paused
    }

    /// Puts the count and the limit back to where they stood when [`unmetered`] was called.
    pub(crate) struct Unmetered {
        steps: u64,
        limit: u64,
    }

    impl Drop for Unmetered {
        fn drop(&mut self) {
            STEPS.set(self.steps);
            LIMIT.set(self.limit);
        }
    }

    /// Runs `work` with the meter at zero and at most `limit` steps; returns its result and the
    /// steps it took.
    pub(crate) fn metered<T>(limit: u64, work: impl FnOnce() -> T) -> (T, u64) {
        STEPS.set(0);
        LIMIT.set(limit);
        let _unlimit = Unlimit;
        let result = work();
        (result, STEPS.get())
    }
}
