//! The search for one key: Wing & Gong's backtracking over the event list, with Lowe's memo
//! of configurations already explored. See the module essay in `mod.rs`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// One operation on the key, with its value numbered (0 = never written).
#[derive(Clone, Copy, Debug)]
pub(crate) struct KeyOperation {
    /// The operation's index in the whole history.
    pub(crate) global: usize,
    /// The step of its call.
    pub(crate) call: u64,
    /// The step of its return; `None` only for a pending write.
    pub(crate) ret: Option<u64>,
    /// What it does to, or expects of, the register.
    pub(crate) action: Action,
}

/// An operation as the register sees it, values as numbers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Action {
    /// Sets the register to this value.
    Write(u32),
    /// Expects the register to hold this value (0: never written).
    Read(u32),
}

impl Action {
    /// The register's state after this action from `state`, or `None` if it cannot happen there.
    fn apply(self, state: u32) -> Option<u32> {
        match self {
            Action::Write(value) => Some(value),
            Action::Read(value) => (value == state).then_some(state),
        }
    }
}

/// How one key's search ended.
pub(crate) enum SearchOutcome {
    /// A legal order, as indices into the key's operations.
    Linearizable(Vec<usize>),
    /// No legal order; the deepest configuration reached, to explain why.
    NotLinearizable(Deepest),
    /// The memo outgrew its budget; why, with the figures.
    TooLarge(String),
}

/// The longest run of operations the search managed to order before it got stuck.
pub(crate) struct Deepest {
    /// The operations ordered, as indices into the key's operations.
    pub(crate) order: Vec<usize>,
    /// The register's value after them.
    pub(crate) state: u32,
    /// The operation that could not be ordered next: the returned operation not in `order`
    /// with the earliest return.
    pub(crate) blocked: usize,
}

/// Searches for a legal order of one key's operations.
pub(crate) fn search(operations: &[KeyOperation], memo_bytes_max: usize) -> SearchOutcome {
    let mut events = EventList::new(operations);
    let mut linearized = BitSet::new(operations.len());
    let mut memo = Memo::new(linearized.words.len(), memo_bytes_max);
    // Each entry: the call event lifted, and the register's state before it took effect.
    let mut stack: Vec<(usize, u32)> = Vec::new();
    let mut deepest = DeepestTracker::default();
    let mut state = 0;
    // Once every returned operation has taken effect, the pending writes left over never did.
    let mut returned_left = operations
        .iter()
        .filter(|operation| operation.ret.is_some())
        .count();
    let mut node = events.first();
    loop {
        if returned_left == 0 {
            let order = stack
                .iter()
                .map(|&(call, _)| events.operation(call))
                .collect();
            return SearchOutcome::Linearizable(order);
        }
        match events.event(node) {
            Event::End | Event::PendingReturn => {
                unreachable!("a returned operation is left, so a real return comes first")
            }
            Event::Call(operation) => {
                if let Some(after) = operations[operation].action.apply(state) {
                    linearized.insert(operation);
                    match memo.insert(&linearized, after) {
                        Err(reason) => return SearchOutcome::TooLarge(reason),
                        Ok(true) => {
                            stack.push((node, state));
                            state = after;
                            returned_left -= usize::from(operations[operation].ret.is_some());
                            events.lift(node);
                            deepest.pushed(&stack);
                            node = events.first();
                            continue;
                        }
                        Ok(false) => linearized.remove(operation),
                    }
                }
                node = events.next(node);
            }
            Event::Return(_) => {
                let Some((call, before)) = stack.pop() else {
                    return SearchOutcome::NotLinearizable(deepest.finish(operations, &events));
                };
                deepest.popped(stack.len());
                let operation = events.operation(call);
                linearized.remove(operation);
                returned_left += usize::from(operations[operation].ret.is_some());
                state = before;
                events.unlift(call);
                node = events.next(call);
            }
        }
    }
}

/// What sits at a node of the event list.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Event {
    /// The call of this operation.
    Call(usize),
    /// The return of this operation.
    Return(usize),
    /// The stand-in return of a pending write, after every real return: a pending write may
    /// take effect any time after its call.
    PendingReturn,
    /// The head and tail sentinels.
    End,
}

/// The calls and returns in step order, as a doubly linked list over indices so that an
/// operation can be lifted out and put back (in reverse order) in constant time.
///
/// Node 0 is the head sentinel and the last node the tail sentinel.
struct EventList {
    events: Vec<Event>,
    /// For each call node, its operation's return node.
    partner: Vec<usize>,
    next: Vec<usize>,
    previous: Vec<usize>,
}

impl EventList {
    fn new(operations: &[KeyOperation]) -> Self {
        // Calls sort before returns at the same step: operations whose steps touch overlap.
        // Pending returns come after everything, ties broken by operation index.
        let mut sorted: Vec<(u64, u8, usize)> = Vec::with_capacity(2 * operations.len());
        for (index, operation) in operations.iter().enumerate() {
            sorted.push((operation.call, 0, index));
            match operation.ret {
                Some(ret) => sorted.push((ret, 1, index)),
                None => sorted.push((u64::MAX, 2, index)),
            }
        }
        sorted.sort_unstable();
        let node_count = sorted.len() + 2;
        let mut events = Vec::with_capacity(node_count);
        let mut partner = vec![0; node_count];
        let mut call_node = vec![0; operations.len()];
        events.push(Event::End);
        for (position, &(_, rank, index)) in sorted.iter().enumerate() {
            let node = position + 1;
            events.push(match rank {
                0 => Event::Call(index),
                1 => Event::Return(index),
                _ => Event::PendingReturn,
            });
            if rank == 0 {
                call_node[index] = node;
            } else {
                partner[call_node[index]] = node;
            }
        }
        events.push(Event::End);
        EventList {
            events,
            partner,
            next: (1..=node_count).collect(),
            previous: (0..node_count).map(|node| node.saturating_sub(1)).collect(),
        }
    }

    fn first(&self) -> usize {
        self.next[0]
    }

    fn next(&self, node: usize) -> usize {
        self.next[node]
    }

    fn event(&self, node: usize) -> Event {
        self.events[node]
    }

    /// The operation of a call node.
    fn operation(&self, call: usize) -> usize {
        match self.events[call] {
            Event::Call(operation) => operation,
            other => unreachable!("node {call} is {other:?}, not a call"),
        }
    }

    /// Takes an operation's call and return out of the list.
    fn lift(&mut self, call: usize) {
        self.unlink(call);
        self.unlink(self.partner[call]);
    }

    /// Puts back the operation lifted last.
    fn unlift(&mut self, call: usize) {
        self.relink(self.partner[call]);
        self.relink(call);
    }

    fn unlink(&mut self, node: usize) {
        let (previous, next) = (self.previous[node], self.next[node]);
        self.next[previous] = next;
        self.previous[next] = previous;
    }

    /// Undoes `unlink(node)`; valid only in the reverse order of the unlinks.
    fn relink(&mut self, node: usize) {
        let (previous, next) = (self.previous[node], self.next[node]);
        self.next[previous] = node;
        self.previous[next] = node;
    }
}

/// The set of operations that have taken effect, with a hash kept up to date as members come
/// and go (Zobrist hashing: the XOR of one fixed random word per member).
struct BitSet {
    words: Vec<u64>,
    hash: u64,
}

impl BitSet {
    fn new(size: usize) -> Self {
        BitSet {
            words: vec![0; size.div_ceil(64)],
            hash: 0,
        }
    }

    fn insert(&mut self, member: usize) {
        debug_assert_eq!(self.words[member / 64] & (1 << (member % 64)), 0);
        self.words[member / 64] |= 1 << (member % 64);
        self.hash ^= mix(member as u64);
    }

    fn remove(&mut self, member: usize) {
        debug_assert_ne!(self.words[member / 64] & (1 << (member % 64)), 0);
        self.words[member / 64] &= !(1 << (member % 64));
        self.hash ^= mix(member as u64);
    }
}

/// splitmix64's finalizer: a fixed, well-spread word per input.
fn mix(input: u64) -> u64 {
    let mut z = input.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Lowe's cache: every configuration (set taken effect, register state) explored so far.
///
/// The sets live back to back in one vector, and the map from a configuration's hash to its
/// first entry chains entries with equal hashes, so a lookup never allocates and equal hashes
/// are always told apart by comparing the sets. The map is only asked "seen before?", so its
/// order never shows.
struct Memo {
    words_per_entry: usize,
    sets: Vec<u64>,
    states: Vec<u32>,
    /// The next entry with the same hash, or `NO_ENTRY`.
    chain: Vec<usize>,
    first_by_hash: HashMap<u64, usize, BuildHasherDefault<PassThrough>>,
    bytes_max: usize,
}

const NO_ENTRY: usize = usize::MAX;

impl Memo {
    fn new(words_per_entry: usize, bytes_max: usize) -> Self {
        Memo {
            words_per_entry,
            sets: Vec::new(),
            states: Vec::new(),
            chain: Vec::new(),
            first_by_hash: HashMap::default(),
            bytes_max,
        }
    }

    /// An estimate of the memory one entry takes: its set, state, chain link and map slot.
    fn entry_bytes(&self) -> usize {
        self.words_per_entry * 8 + 4 + 8 + 24
    }

    /// Records a configuration; `Ok(false)` if it was there already.
    fn insert(&mut self, set: &BitSet, state: u32) -> Result<bool, String> {
        let hash = set.hash ^ mix(u64::from(state) ^ 0x5157_A7E0_0000_0000);
        let first = self.first_by_hash.get(&hash).copied().unwrap_or(NO_ENTRY);
        let mut entry = first;
        while entry != NO_ENTRY {
            let start = entry * self.words_per_entry;
            let stored = &self.sets[start..start + self.words_per_entry];
            if self.states[entry] == state && stored == set.words.as_slice() {
                return Ok(false);
            }
            entry = self.chain[entry];
        }
        let entries = self.states.len();
        if (entries + 1) * self.entry_bytes() > self.bytes_max {
            return Err(format!(
                "the memo of explored configurations reached {entries} entries of {} bytes, \
                 the limit of {} bytes",
                self.entry_bytes(),
                self.bytes_max
            ));
        }
        self.sets.extend_from_slice(&set.words);
        self.states.push(state);
        self.chain.push(first);
        self.first_by_hash.insert(hash, entries);
        Ok(true)
    }
}

/// A hasher for keys that are hashes already.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = word;
    }
}

/// Keeps a copy of the deepest stack seen, in amortized constant time per push: the part of the
/// stack below its lowest point since the last copy is unchanged and is not copied again.
#[derive(Default)]
struct DeepestTracker {
    /// Call nodes of the deepest stack.
    calls: Vec<usize>,
    /// `calls[..low_water]` equals the live stack's bottom.
    low_water: usize,
}

impl DeepestTracker {
    fn pushed(&mut self, stack: &[(usize, u32)]) {
        if stack.len() > self.calls.len() {
            self.calls.truncate(self.low_water);
            self.calls
                .extend(stack[self.low_water..].iter().map(|&(call, _)| call));
            self.low_water = stack.len();
        }
    }

    fn popped(&mut self, depth: usize) {
        self.low_water = self.low_water.min(depth);
    }

    fn finish(self, operations: &[KeyOperation], events: &EventList) -> Deepest {
        let order: Vec<usize> = self
            .calls
            .iter()
            .map(|&call| events.operation(call))
            .collect();
        let mut state = 0;
        let mut taken = vec![false; operations.len()];
        for &operation in &order {
            state = operations[operation]
                .action
                .apply(state)
                .expect("the deepest order was legal when the search built it");
            taken[operation] = true;
        }
        let blocked = (0..operations.len())
            .filter(|&operation| !taken[operation])
            .filter_map(|operation| operations[operation].ret.map(|ret| (ret, operation)))
            .min()
            .map(|(_, operation)| operation)
            .expect("a failed search leaves a returned operation out");
        Deepest {
            order,
            state,
            blocked,
        }
    }
}
