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
    let mut search = Search::new(operations, memo_bytes_max);
    loop {
        if search.returned_left == 0 {
            return SearchOutcome::Linearizable(search.order());
        }
        if search.frames.len() == search.stack.len() {
            search.open_frame();
        }
        match search.next_candidate() {
            Some(call) => {
                if let Err(reason) = search.take(call) {
                    return SearchOutcome::TooLarge(reason);
                }
            }
            None => {
                search.close_frame();
                if !search.undo() {
                    return SearchOutcome::NotLinearizable(search.deepest());
                }
            }
        }
    }
}

/// The search's state: the event list with the operations taken out that have taken effect,
/// in the order they did, and the register's value after them.
struct Search<'a> {
    operations: &'a [KeyOperation],
    events: EventList,
    linearized: BitSet,
    memo: Memo,
    stack: Vec<Taken>,
    /// For each configuration on the path (one more than `stack` once opened), the moves to
    /// try from it, stored back to back in `candidates`.
    frames: Vec<Frame>,
    candidates: Vec<usize>,
    deepest: DeepestTracker,
    state: u32,
    /// The register's value as the memo records it: values no read returned are all one, since
    /// what the rest of the search can do depends on the value only through which reads match.
    memo_state: Vec<u32>,
    /// Once every returned operation has taken effect, the pending writes left over never did.
    returned_left: usize,
}

/// The memo's stand-in for every value that no read returned.
const UNREAD: u32 = u32::MAX;

/// One operation taken into the order.
struct Taken {
    /// Its call node.
    call: usize,
    /// The register's value before it.
    state_before: u32,
}

/// The moves to try from one configuration: `candidates[start..]` up to the next frame's start,
/// the next one at `cursor`.
struct Frame {
    start: usize,
    cursor: usize,
}

impl<'a> Search<'a> {
    fn new(operations: &'a [KeyOperation], memo_bytes_max: usize) -> Self {
        Search {
            operations,
            events: EventList::new(operations),
            linearized: BitSet::new(operations.len()),
            memo: Memo::new(memo_bytes_max),
            stack: Vec::new(),
            frames: Vec::new(),
            candidates: Vec::new(),
            deepest: DeepestTracker::default(),
            state: 0,
            memo_state: memo_states(operations),
            returned_left: operations.iter().filter(|o| o.ret.is_some()).count(),
        }
    }

    /// A read that may take effect now and returns the register's current value.
    ///
    /// Taking it now is never worse than any alternative: in a legal continuation that places
    /// it later, moving it to the front keeps it legal (it reads the value held now, and reads
    /// change nothing) and true to real time (nothing left must precede it, or its call would
    /// not come before the first remaining return). So the search takes it without branching.
    fn matching_read(&self) -> Option<usize> {
        let mut node = self.events.first();
        while let Event::Call(operation) = self.events.event(node) {
            if self.operations[operation].action == Action::Read(self.state) {
                return Some(node);
            }
            node = self.events.next(node);
        }
        None
    }

    /// Takes the operation called at `call` next, if the register allows it and the
    /// configuration it leads to is new. `Ok(false)` if not.
    fn take(&mut self, call: usize) -> Result<bool, String> {
        let operation = self.events.operation(call);
        let Some(after) = self.operations[operation].action.apply(self.state) else {
            return Ok(false);
        };
        self.linearized.insert(operation);
        if !self
            .memo
            .insert(&self.linearized, self.memo_state[after as usize])?
        {
            self.linearized.remove(operation);
            return Ok(false);
        }
        self.stack.push(Taken {
            call,
            state_before: self.state,
        });
        self.state = after;
        self.returned_left -= usize::from(self.operations[operation].ret.is_some());
        self.events.lift(call);
        self.deepest.pushed(&self.stack);
        Ok(true)
    }

    /// Lists the moves to try from the configuration just reached.
    ///
    /// If a read of the current value may go next, it is the only move: taking it is never
    /// worse than any other (see `matching_read`). Otherwise only writes can go next (no read
    /// matches), and they are tried most urgent first, in the spirit of Lowe's just-in-time
    /// linearization: look at the remaining operation that returned first; if it is a write, try
    /// it first; if it is a read, first try the writes of the value it returned. The rest follow
    /// in call order. The order changes only how fast a legal order is found, never whether.
    fn open_frame(&mut self) {
        let start = self.candidates.len();
        self.frames.push(Frame {
            start,
            cursor: start,
        });
        if let Some(read) = self.matching_read() {
            self.candidates.push(read);
            return;
        }
        let urgent = self.first_returning();
        let first_pick = |operation: usize, action: Action| match self.operations[urgent].action {
            Action::Write(_) => operation == urgent,
            Action::Read(value) => action == Action::Write(value),
        };
        for picking_first in [true, false] {
            let mut node = self.events.first();
            while let Event::Call(operation) = self.events.event(node) {
                let action = self.operations[operation].action;
                let is_write = matches!(action, Action::Write(_));
                if is_write && first_pick(operation, action) == picking_first {
                    self.candidates.push(node);
                }
                node = self.events.next(node);
            }
        }
    }

    /// The remaining operation whose return comes first.
    fn first_returning(&self) -> usize {
        let mut node = self.events.first();
        while let Event::Call(_) = self.events.event(node) {
            node = self.events.next(node);
        }
        match self.events.event(node) {
            Event::Return(operation) => operation,
            _ => unreachable!("a returned operation is left, so its last event is a return"),
        }
    }

    /// The next move to try from the current configuration, if any is left.
    fn next_candidate(&mut self) -> Option<usize> {
        let end = self.candidates.len();
        let frame = self.frames.last_mut().expect("a frame is open");
        (frame.cursor < end).then(|| {
            frame.cursor += 1;
            self.candidates[frame.cursor - 1]
        })
    }

    /// Forgets the moves of the current configuration: all were tried.
    fn close_frame(&mut self) {
        let frame = self.frames.pop().expect("a frame is open");
        self.candidates.truncate(frame.start);
    }

    /// Undoes the last move; `false` if there was none.
    fn undo(&mut self) -> bool {
        let Some(taken) = self.stack.pop() else {
            return false;
        };
        self.deepest.popped(self.stack.len());
        let operation = self.events.operation(taken.call);
        self.linearized.remove(operation);
        self.returned_left += usize::from(self.operations[operation].ret.is_some());
        self.state = taken.state_before;
        self.events.unlift(taken.call);
        true
    }

    fn order(&self) -> Vec<usize> {
        let calls = self.stack.iter().map(|taken| taken.call);
        calls.map(|call| self.events.operation(call)).collect()
    }

    fn deepest(&self) -> Deepest {
        self.deepest.finish(self.operations, &self.events)
    }
}

/// For each value number, the state the memo records: itself if some read returned it (or it
/// is 0, never written), else [`UNREAD`].
fn memo_states(operations: &[KeyOperation]) -> Vec<u32> {
    let value_of = |operation: &KeyOperation| match operation.action {
        Action::Write(value) | Action::Read(value) => value,
    };
    let value_count = operations
        .iter()
        .map(value_of)
        .max()
        .map_or(1, |max| max as usize + 1);
    let mut states = vec![UNREAD; value_count];
    states[0] = 0;
    for operation in operations {
        if let Action::Read(value) = operation.action {
            states[value as usize] = value;
        }
    }
    states
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
            _ => unreachable!("node {call} is a call"),
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
///
/// Operations are numbered in call order, so the set is mostly a run of leading members (the
/// *floor*) and a few more just above it. The memo stores only the floor and the words from the
/// floor's word to the last nonzero word, which identify the set because every bit below the
/// floor is set.
struct BitSet {
    words: Vec<u64>,
    hash: u64,
    size: usize,
    /// Invariant: members `0..floor` are all in the set and `floor` is not.
    floor: usize,
    /// Invariant: every word from `words_bound` on is zero.
    words_bound: usize,
}

impl BitSet {
    fn new(size: usize) -> Self {
        BitSet {
            words: vec![0; size.div_ceil(64)],
            hash: 0,
            size,
            floor: 0,
            words_bound: 0,
        }
    }

    fn contains(&self, member: usize) -> bool {
        self.words[member / 64] & (1 << (member % 64)) != 0
    }

    fn insert(&mut self, member: usize) {
        debug_assert!(!self.contains(member));
        self.words[member / 64] |= 1 << (member % 64);
        self.hash ^= mix(member as u64);
        self.words_bound = self.words_bound.max(member / 64 + 1);
        if member == self.floor {
            self.raise_floor();
        }
    }

    fn remove(&mut self, member: usize) {
        debug_assert!(self.contains(member));
        self.words[member / 64] &= !(1 << (member % 64));
        self.hash ^= mix(member as u64);
        self.floor = self.floor.min(member);
    }

    /// Moves the floor up past the members above it, a word at a time where it can.
    fn raise_floor(&mut self) {
        while self.floor < self.size {
            let word = self.words[self.floor / 64] >> (self.floor % 64);
            let ones = word.trailing_ones() as usize;
            self.floor += ones;
            if ones == 0 || !self.floor.is_multiple_of(64) {
                break;
            }
        }
        self.floor = self.floor.min(self.size);
    }

    /// The words that, with the floor, identify the set.
    fn tail(&self) -> &[u64] {
        let start = (self.floor / 64).min(self.words_bound);
        let mut end = self.words_bound;
        while end > start && self.words[end - 1] == 0 {
            end -= 1;
        }
        &self.words[start..end]
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
/// Each entry is a set's floor and tail (see [`BitSet`]) and a state; the tails live back to
/// back in one vector. The map from a configuration's hash to its latest entry chains entries
/// with equal hashes, so a lookup never allocates and equal hashes are always told apart by
/// comparing the sets. The map is only asked "seen before?", so its order never shows.
struct Memo {
    tails: Vec<u64>,
    entries: Vec<MemoEntry>,
    latest_by_hash: HashMap<u64, usize, BuildHasherDefault<PassThrough>>,
    bytes_max: usize,
}

struct MemoEntry {
    floor: usize,
    tail_start: usize,
    tail_len: usize,
    state: u32,
    /// The previous entry with the same hash, or `NO_ENTRY`.
    previous: usize,
}

const NO_ENTRY: usize = usize::MAX;

/// An estimate of what an entry costs beyond its tail: the entry and its slot in the map.
const ENTRY_BYTES: usize = std::mem::size_of::<MemoEntry>() + 24;

impl Memo {
    fn new(bytes_max: usize) -> Self {
        Memo {
            tails: Vec::new(),
            entries: Vec::new(),
            latest_by_hash: HashMap::default(),
            bytes_max,
        }
    }

    fn bytes(&self) -> usize {
        self.tails.len() * 8 + self.entries.len() * ENTRY_BYTES
    }

    /// Records a configuration; `Ok(false)` if it was there already.
    fn insert(&mut self, set: &BitSet, state: u32) -> Result<bool, String> {
        let hash = set.hash ^ mix(u64::from(state) ^ 0x5157_A7E0_0000_0000);
        let tail = set.tail();
        let latest = self.latest_by_hash.get(&hash).copied().unwrap_or(NO_ENTRY);
        let mut index = latest;
        while index != NO_ENTRY {
            let entry = &self.entries[index];
            let stored = &self.tails[entry.tail_start..entry.tail_start + entry.tail_len];
            if entry.state == state && entry.floor == set.floor && stored == tail {
                return Ok(false);
            }
            index = entry.previous;
        }
        if self.bytes() + tail.len() * 8 + ENTRY_BYTES > self.bytes_max {
            return Err(format!(
                "the memo of explored configurations reached {} entries in about {} bytes, \
                 the limit being {} bytes",
                self.entries.len(),
                self.bytes(),
                self.bytes_max
            ));
        }
        self.entries.push(MemoEntry {
            floor: set.floor,
            tail_start: self.tails.len(),
            tail_len: tail.len(),
            state,
            previous: latest,
        });
        self.tails.extend_from_slice(tail);
        self.latest_by_hash.insert(hash, self.entries.len() - 1);
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
    fn pushed(&mut self, stack: &[Taken]) {
        if stack.len() > self.calls.len() {
            self.calls.truncate(self.low_water);
            self.calls
                .extend(stack[self.low_water..].iter().map(|taken| taken.call));
            self.low_water = stack.len();
        }
    }

    fn popped(&mut self, depth: usize) {
        self.low_water = self.low_water.min(depth);
    }

    fn finish(&self, operations: &[KeyOperation], events: &EventList) -> Deepest {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_is_stored_the_same_way_whatever_the_order_it_was_built_in() {
        // The memo compares floor and tail, so equal sets must give equal floor and tail.
        let members = [0, 1, 2, 3, 64, 65, 130];
        let mut forward = BitSet::new(200);
        members.iter().for_each(|&member| forward.insert(member));
        let mut backward = BitSet::new(200);
        members
            .iter()
            .rev()
            .for_each(|&member| backward.insert(member));
        let mut detour = BitSet::new(200);
        [130, 5, 0, 1, 2, 3, 4, 64, 65]
            .iter()
            .for_each(|&member| detour.insert(member));
        [5, 4].iter().for_each(|&member| detour.remove(member));
        for set in [&backward, &detour] {
            assert_eq!(
                (set.floor, set.tail(), set.hash),
                (4, forward.tail(), forward.hash)
            );
        }
        assert_eq!(forward.tail(), &[0xF, 0b11, 0b100]);
    }

    #[test]
    fn the_floor_climbs_whole_words_and_stops_at_the_size() {
        let mut set = BitSet::new(130);
        (1..130).for_each(|member| set.insert(member));
        assert_eq!(set.floor, 0);
        set.insert(0);
        // The tail starts at the floor's word, which holds members 128 and 129.
        assert_eq!((set.floor, set.tail()), (130, &[0b11][..]));
        set.remove(64);
        assert_eq!(set.floor, 64);
        assert_eq!(set.tail(), &[!1, 0b11]);
    }

    #[test]
    fn the_memo_tells_apart_states_and_sets_and_knows_repeats() {
        let mut memo = Memo::new(1 << 20);
        let mut set = BitSet::new(10);
        set.insert(3);
        assert_eq!(memo.insert(&set, 1), Ok(true));
        assert_eq!(memo.insert(&set, 2), Ok(true));
        assert_eq!(memo.insert(&set, 1), Ok(false));
        set.insert(0);
        assert_eq!(memo.insert(&set, 1), Ok(true));
        set.remove(0);
        assert_eq!(memo.insert(&set, 2), Ok(false));
    }
}
