//! The explorer's seen set: the fingerprints of every state visited, and nothing else.
//!
//! An open-addressing table of `u64` with linear probing. It holds fingerprints only, never
//! worlds, so a visited state costs 8 bytes divided by the table's load: between 8 and 15 bytes,
//! since the table grows by half when it is 80% full. A general hash set would add a control
//! byte per slot and double its size on growth (up to 20 bytes per state).
//!
//! Fingerprints are already well-mixed 64-bit hashes, so the slot is taken straight from their
//! high bits (a multiply-shift over any table size) and no second hash is computed.
//!
//! Invariant: slot value 0 means empty. A state whose fingerprint is 0 is stored as 1; the two
//! are then one state, a collision no likelier than any other pair of 64-bit fingerprints.

/// A set of 64-bit fingerprints. Growing is fallible: a table that cannot grow is an error the
/// explorer reports, never a silent drop.
#[derive(Debug)]
pub struct SeenSet {
    slots: Vec<u64>,
    len: usize,
}

/// The seen set could not grow: memory ran out. Carries the number of states it held.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TableFull(pub usize);

impl SeenSet {
    /// The smallest table; it grows as needed.
    const INITIAL_SLOTS: usize = 1 << 10;

    /// An empty set.
    pub fn new() -> SeenSet {
        SeenSet {
            slots: vec![0; Self::INITIAL_SLOTS],
            len: 0,
        }
    }

    /// How many fingerprints the set holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes the table occupies.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<u64>()
    }

    /// Whether `fingerprint` is in the set.
    pub fn contains(&self, fingerprint: u64) -> bool {
        let key = stored(fingerprint);
        let mut at = self.home(key);
        loop {
            match self.slots[at] {
                0 => return false,
                slot if slot == key => return true,
                _ => at = self.next(at),
            }
        }
    }

    /// Adds `fingerprint`; returns whether it was new.
    pub fn insert(&mut self, fingerprint: u64) -> Result<bool, TableFull> {
        // Grow at 80% load: linear probing slows sharply above it.
        if (self.len + 1) * 5 > self.slots.len() * 4 {
            self.grow()?;
        }
        let key = stored(fingerprint);
        let new = place(&mut self.slots, key);
        self.len += usize::from(new);
        Ok(new)
    }

    fn grow(&mut self) -> Result<(), TableFull> {
        let size = self.slots.len() + self.slots.len() / 2;
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(size)
            .map_err(|_| TableFull(self.len))?;
        slots.resize(size, 0);
        for &key in self.slots.iter().filter(|&&key| key != 0) {
            place(&mut slots, key);
        }
        self.slots = slots;
        Ok(())
    }

    fn home(&self, key: u64) -> usize {
        home(key, self.slots.len())
    }

    fn next(&self, at: usize) -> usize {
        if at + 1 == self.slots.len() {
            0
        } else {
            at + 1
        }
    }
}

impl Default for SeenSet {
    fn default() -> SeenSet {
        SeenSet::new()
    }
}

fn stored(fingerprint: u64) -> u64 {
    fingerprint.max(1)
}

/// The home slot of `key` in a table of `size` slots: the high bits of `key * size`.
fn home(key: u64, size: usize) -> usize {
    ((u128::from(key) * size as u128) >> 64) as usize
}

/// Puts `key` in the first free slot from its home; returns false if it was already there.
fn place(slots: &mut [u64], key: u64) -> bool {
    let mut at = home(key, slots.len());
    loop {
        match slots[at] {
            0 => {
                slots[at] = key;
                return true;
            }
            slot if slot == key => return false,
            _ => at = if at + 1 == slots.len() { 0 } else { at + 1 },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SeenSet;

    #[test]
    fn holds_each_fingerprint_once_across_growth() {
        // Proves inserts report novelty exactly, through several growths, including key 0.
        let mut seen = SeenSet::new();
        let keys: Vec<u64> = (0..20_000u64)
            .map(|n| n.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for &key in &keys {
            assert_eq!(seen.insert(key), Ok(true));
        }
        for &key in &keys {
            assert_eq!(seen.insert(key), Ok(false));
            assert!(seen.contains(key));
        }
        assert_eq!(seen.len(), keys.len());
        assert!(!seen.contains(12345));
        assert!(seen.bytes() <= keys.len() * 16, "{} bytes", seen.bytes());
    }
}
