//! The exhaustive explorer: every enabled action from every reachable state, deduplicated by
//! fingerprint, breadth-first or depth-first ([`Order`]).
//!
//! The seen set holds fingerprints only ([`SeenSet`]). Each transition is first hashed without
//! building its state ([`Model::successor_fingerprint`]); a state not seen before is marked
//! seen at once, and built, checked and expanded when its turn comes. Both orders share that
//! visit (check, count, claim the unseen successors); they differ only in where the states
//! found wait:
//!
//! - **Breadth-first** (the default) keeps them in a queue, each as its parent and the action
//!   from it. Every state of depth d is checked before any state of depth d + 1, so the first
//!   violation found is a shortest one. Paths are a linked list shared by siblings, so the
//!   memory of a finished level is freed; but the queue holds a whole level's parents.
//! - **Depth-first** keeps a stack of the states on the current path, each with the actions
//!   to its found successors not yet tried. Its memory beyond the seen set is one world (and
//!   its untried actions) per level of the path, so it finishes spaces whose widest level would not fit in memory. A
//!   violation's path is the stack's actions: a real path that replays, not necessarily the
//!   shortest. It refuses a depth bound, which a seen set would make unsound in this order.
//!
//! With [`Limits::symmetry`], the seen set holds each state's orbit fingerprint
//! ([`Model::orbit_fingerprint`]) instead, so a state is skipped when a declared symmetry maps
//! it onto one already seen. Real states are still built, each from its real parent by a real
//! action, so a counterexample is a path of the world itself and replays as printed.
//!
//! The outcome says exactly how the search ended ([`Ending`]): it visited the whole space, a
//! depth or state bound stopped it, or it found a violation. A refused enabled action, a table
//! or frontier that cannot grow, or a checker that gives up is an [`Error`], never a silent
//! drop and never a verdict. A complete search counts the same states, transitions, decided
//! and terminal states in either order.

use crate::Error;
use crate::check::Violation;
use crate::faults::Refused;
use crate::model::Model;
use crate::seen::SeenSet;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

/// Bounds on a search, whether it merges symmetric states, and its order. A search stopped by a bound is
/// incomplete, never a pass.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Limits {
    /// Do not apply actions to states at this depth (actions from the start).
    pub max_depth: Option<u32>,
    /// Do not visit more than this many distinct states.
    pub max_states: Option<u64>,
    /// Stop with [`Error::MemoryLimit`] once the process holds more than this many bytes of
    /// memory (resident set, read from Linux's `/proc/self/statm` every 65,536 new states; not
    /// checked where that file does not exist). A guard against the out-of-memory killer,
    /// which would end the run with no verdict and no message.
    pub max_memory_bytes: Option<u64>,
    /// Merge the states a symmetry the world declares maps onto each other
    /// ([`Model::symmetries`]): the search then counts orbits, one per set of states that are
    /// renamings of each other, and its verdict is the same. No effect on a world that declares
    /// none.
    pub symmetry: bool,
    /// The order states are visited in.
    pub order: Order,
}

/// The order a search visits states in. Either visits every reachable state once; they differ
/// in memory and in which counterexample they find.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// Level by level (`"breadth-first"`): the first violation found is a shortest one; the
    /// queue holds a whole level's worth of states.
    #[default]
    BreadthFirst,
    /// Along one path at a time (`"depth-first"`): memory beyond the seen set is one world per
    /// level of the current path; a violation's path is real but not necessarily the shortest.
    /// Takes no depth bound.
    DepthFirst,
}

impl Order {
    /// `"breadth-first"` or `"depth-first"`, as in a report's JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Order::BreadthFirst => "breadth-first",
            Order::DepthFirst => "depth-first",
        }
    }
}

/// How often, in new states, the explorer reads its memory use and reports its progress.
const MEMORY_CHECK_STATES: usize = 1 << 16;

/// How far a search has got, reported every 65,536 new states
/// ([`explore_reporting`]): a long search that a bound or a timeout ends can still say how far
/// it went.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Progress {
    /// States (orbits, with symmetry) found so far.
    pub states: u64,
    /// Transitions taken so far.
    pub transitions: u64,
    /// The deepest state visited so far.
    pub depth: u32,
    /// The process's resident memory, where Linux says ([`resident_bytes`]).
    pub resident_bytes: Option<u64>,
}

/// The bytes this process holds in memory, where Linux says (`/proc/self/statm`'s resident
/// pages, taken as 4 KiB each).
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// How a search ended.
#[derive(Clone, Debug)]
pub enum Ending<A> {
    /// Every reachable state was visited and none broke a property.
    Complete,
    /// A depth bound stopped the search: states at that depth had unvisited successors.
    DepthBound(u32),
    /// The state bound stopped the search.
    StateBound(u64),
    /// A reachable state breaks a property.
    Violation {
        /// A path to it from the search's first state: a shortest one in breadth-first order;
        /// in depth-first order the path the search was on, which may be longer.
        path: Vec<A>,
        /// What it breaks.
        violations: Vec<Violation>,
    },
}

/// What a search did.
#[derive(Clone, Debug)]
pub struct Exploration<A> {
    /// How it ended.
    pub ending: Ending<A>,
    /// Distinct states visited, the first included.
    pub states: u64,
    /// Actions applied: one per enabled action of every expanded state.
    pub transitions: u64,
    /// The deepest level reached (actions from the first state): in breadth-first order the
    /// length of the longest shortest path; in depth-first order the longest path the search
    /// took, which may be deeper.
    pub depth: u32,
    /// Visited states in which a decision had been reached.
    pub decided_states: u64,
    /// Expanded states with no enabled action: where a schedule ends. Counted in full only
    /// when the search is complete.
    pub terminal_states: u64,
    /// Terminal states with no decision: schedules that ended without deciding (for example a
    /// duel whose retries ran out). A liveness fact, not a safety failure.
    pub terminal_undecided: u64,
    /// Fault transitions applied, by kind.
    pub faults: BTreeMap<String, u64>,
    /// Bytes held by the seen set at the end.
    pub seen_bytes: u64,
    /// The symmetries states were merged by: 1 when each state counted is one state, else the
    /// world's [`Model::symmetries`], and each state counted stands for its orbit.
    pub symmetries: usize,
}

/// A path as a linked list from the newest action back to the first, shared by siblings.
struct PathNode<A> {
    action: A,
    parent: Option<Rc<PathNode<A>>>,
}

fn path_to_vec<A: Clone>(mut node: Option<&Rc<PathNode<A>>>) -> Vec<A> {
    let mut path = Vec::new();
    while let Some(current) = node {
        path.push(current.action.clone());
        node = current.parent.as_ref();
    }
    path.reverse();
    path
}

/// Explores every state reachable from `start`, in `limits.order`, within `limits`.
///
/// A depth bound with depth-first order is refused ([`Error::BadParameters`]): a state first
/// reached deep, and cut off there, would be marked seen and so never reached again by a
/// shorter path within the bound, and the search could pass without having looked at it.
pub fn explore<M: Model>(start: M, limits: Limits) -> Result<Exploration<M::Action>, Error> {
    explore_reporting(start, limits, &mut |_| {})
}

/// [`explore`], telling `progress` how far it has got every 65,536 new states.
pub fn explore_reporting<M: Model>(
    start: M,
    limits: Limits,
    progress: &mut dyn FnMut(Progress),
) -> Result<Exploration<M::Action>, Error> {
    if limits.order == Order::DepthFirst && limits.max_depth.is_some() {
        return Err(Error::BadParameters(
            "a depth bound cannot be combined with depth-first order: a state first reached \
             deep would be cut off there and never reached by a shorter path; bound the search \
             with a state bound, or search breadth-first"
                .into(),
        ));
    }
    let mut start = start.for_exploration();
    let by_orbit = limits.symmetry && start.symmetries() > 1;
    if by_orbit {
        start = start.for_symmetric_exploration();
    }
    let mut search = Search::new(limits, by_orbit.then(|| start.symmetries()), progress);
    let first = search.key(&start);
    search.seen.insert(first).map_err(table_full)?;
    let ending = match limits.order {
        Order::BreadthFirst => breadth_first(start, &mut search)?,
        Order::DepthFirst => depth_first(start, &mut search)?,
    };
    Ok(search.finish(ending))
}

/// The breadth-first search from `start`, already in the seen set.
fn breadth_first<M: Model>(start: M, search: &mut Search<'_>) -> Result<Ending<M::Action>, Error> {
    let mut queue = Queue::new();
    let mut next = Some(Visit {
        world: start,
        path: None,
        depth: 0,
    });
    while let Some(visit) = next {
        match search.visit(&visit.world, visit.depth)? {
            Checked::Broken(violations) => {
                let path = path_to_vec(visit.path.as_ref());
                return Ok(Ending::Violation { path, violations });
            }
            Checked::Safe { unseen } => queue.push(visit, unseen, search.seen.len())?,
        }
        next = queue.pop()?;
    }
    Ok(search.bound_ending())
}

/// A state on the path of a depth-first search, with the successors it still has to visit.
struct Frame<M: Model> {
    world: M,
    /// The action that led here from the frame below; `None` for the first state.
    action: Option<M::Action>,
    /// Actions to states found from here and not yet visited, in enabled order.
    untried: std::vec::IntoIter<M::Action>,
    depth: u32,
}

/// The depth-first search from `start`, already in the seen set. Its memory is the seen set
/// and one [`Frame`] per state on the current path.
fn depth_first<M: Model>(start: M, search: &mut Search<'_>) -> Result<Ending<M::Action>, Error> {
    let mut stack: Vec<Frame<M>> = Vec::new();
    let mut next = Some((start, None, 0));
    loop {
        if let Some((world, action, depth)) = next.take() {
            match search.visit(&world, depth)? {
                Checked::Broken(violations) => {
                    let path = (stack.iter().filter_map(|frame| frame.action.clone()))
                        .chain(action)
                        .collect();
                    return Ok(Ending::Violation { path, violations });
                }
                Checked::Safe { unseen } if !unseen.is_empty() => stack.push(Frame {
                    world,
                    action,
                    untried: unseen.into_iter(),
                    depth,
                }),
                Checked::Safe { .. } => {}
            }
        }
        let Some(top) = stack.last_mut() else {
            return Ok(search.bound_ending());
        };
        match top.untried.next() {
            Some(action) => {
                let world = (top.world)
                    .successor(&action)
                    .map_err(|refused| model_error(&top.world, &action, refused))?;
                next = Some((world, Some(action), top.depth + 1));
            }
            None => drop(stack.pop()),
        }
    }
}

/// What visiting a state found.
enum Checked<A> {
    /// The state breaks these properties.
    Broken(Vec<Violation>),
    /// The state is safe; these actions from it lead to states not seen before, now marked
    /// seen (none at a bound).
    Safe {
        /// The actions, in enabled order.
        unseen: Vec<A>,
    },
}

/// A state being visited: built, with its path and depth.
struct Visit<M: Model> {
    world: M,
    path: Option<Rc<PathNode<M::Action>>>,
    depth: u32,
}

/// A state found but not yet built: its parent's place among the parents kept, and the
/// action from there.
struct Found<A> {
    parent: u64,
    action: A,
}

/// The queue of a breadth-first search, holding each state found as its parent and the action
/// from it rather than as a world. A state is built when it is taken from the queue, and a
/// visited state is kept, as a parent, only while states found from it still wait. The
/// queue's memory is thus one small entry per waiting state plus the worlds of one level's
/// parents, where a queue of worlds would hold every world of the next level.
struct Queue<M: Model> {
    /// Found states, in the order found: those of the current depth, then the next.
    found: VecDeque<Found<M::Action>>,
    /// The visited states that states in `found` were found from, oldest first.
    parents: VecDeque<Visit<M>>,
    /// The place of `parents[0]` among every parent ever kept.
    first_parent: u64,
    /// How many states at the front of `found` are at the current depth.
    left_at_depth: usize,
    /// The depth of the states taken from the front of `found`.
    depth: u32,
}

impl<M: Model> Queue<M> {
    fn new() -> Queue<M> {
        Queue {
            found: VecDeque::new(),
            parents: VecDeque::new(),
            first_parent: 0,
            left_at_depth: 0,
            depth: 0,
        }
    }

    /// Queues the states found from a visited state by the `unseen` actions, and keeps the
    /// visited state as their parent while they wait.
    fn push(
        &mut self,
        parent: Visit<M>,
        unseen: Vec<M::Action>,
        states: usize,
    ) -> Result<(), Error> {
        if unseen.is_empty() {
            return Ok(());
        }
        let full = |_| Error::FrontierFull { states };
        let place = self.first_parent + self.parents.len() as u64;
        self.found.try_reserve(unseen.len()).map_err(full)?;
        (self.found).extend(unseen.into_iter().map(|action| Found {
            parent: place,
            action,
        }));
        self.parents.try_reserve(1).map_err(full)?;
        self.parents.push_back(parent);
        Ok(())
    }

    /// Takes the next state found and builds it from its parent; `None` when none is left.
    fn pop(&mut self) -> Result<Option<Visit<M>>, Error> {
        if self.left_at_depth == 0 {
            self.left_at_depth = self.found.len();
            self.depth += 1;
        }
        let Some(Found { parent, action }) = self.found.pop_front() else {
            return Ok(None);
        };
        self.left_at_depth -= 1;
        while self.first_parent < parent {
            self.parents.pop_front();
            self.first_parent += 1;
        }
        let from = &self.parents[0];
        let world = (from.world)
            .successor(&action)
            .map_err(|refused| model_error(&from.world, &action, refused))?;
        let path = Some(Rc::new(PathNode {
            action,
            parent: from.path.clone(),
        }));
        Ok(Some(Visit {
            world,
            path,
            depth: self.depth,
        }))
    }
}

/// The counters and seen set of one search.
struct Search<'p> {
    /// Fingerprints, or orbit fingerprints when `symmetries` is set.
    seen: SeenSet,
    /// The world's symmetries, when the search merges states by orbit.
    symmetries: Option<usize>,
    limits: Limits,
    transitions: u64,
    depth: u32,
    decided_states: u64,
    terminal_states: u64,
    terminal_undecided: u64,
    faults: BTreeMap<&'static str, u64>,
    /// Set when the state bound stopped the search from finding more states: the states
    /// already found are still visited, then the search ends.
    state_bound_hit: Option<u64>,
    /// Set when a state at the depth bound had a successor not yet visited.
    depth_bound_hit: Option<u32>,
    /// Hears how far the search has got ([`Progress`]).
    progress: &'p mut dyn FnMut(Progress),
}

impl<'p> Search<'p> {
    fn new(
        limits: Limits,
        symmetries: Option<usize>,
        progress: &'p mut dyn FnMut(Progress),
    ) -> Search<'p> {
        Search {
            seen: SeenSet::new(),
            symmetries,
            limits,
            transitions: 0,
            depth: 0,
            decided_states: 0,
            terminal_states: 0,
            terminal_undecided: 0,
            faults: BTreeMap::new(),
            state_bound_hit: None,
            depth_bound_hit: None,
            progress,
        }
    }

    /// What the seen set holds for `world`: its fingerprint, or its orbit's.
    fn key<M: Model>(&self, world: &M) -> u64 {
        match self.symmetries {
            Some(_) => world.orbit_fingerprint(),
            None => world.fingerprint(),
        }
    }

    /// Visits a built state at `depth`: checks it, counts it and, unless a bound stops the
    /// search, claims its successors not seen before. What breadth-first and depth-first order
    /// share; they differ only in where they keep the claimed successors.
    fn visit<M: Model>(&mut self, world: &M, depth: u32) -> Result<Checked<M::Action>, Error> {
        self.depth = self.depth.max(depth);
        debug_assert!(
            self.seen.contains(self.key(world)),
            "a state was hashed apart from the state it builds"
        );
        let violations = world.violations();
        if !violations.is_empty() {
            return Ok(Checked::Broken(violations));
        }
        if let Some(gave_up) = world.gave_up() {
            return Err(Error::CheckGaveUp(gave_up));
        }
        self.decided_states += u64::from(world.is_decided());
        let unseen = match self.state_bound_hit {
            None => self.expand(world, depth)?,
            Some(_) => Vec::new(),
        };
        Ok(Checked::Safe { unseen })
    }

    /// Hashes every successor of a visited state and marks those not seen before as seen,
    /// returning the actions that lead to them; at the depth bound, only notes whether any
    /// would be cut off.
    fn expand<M: Model>(&mut self, world: &M, depth: u32) -> Result<Vec<M::Action>, Error> {
        let mut enabled = world.enabled();
        if enabled.is_empty() {
            self.terminal_states += 1;
            self.terminal_undecided += u64::from(!world.is_decided());
        }
        if self.limits.max_depth == Some(depth) {
            if self.depth_bound_hit.is_none() && self.any_new_successor(world, enabled)? {
                self.depth_bound_hit = Some(depth);
            }
            return Ok(Vec::new());
        }
        // The unseen actions are moved to the front, in their order, and the rest cut off.
        let mut unseen = 0;
        for at in 0..enabled.len() {
            let fingerprint = self.transition(world, &enabled[at])?;
            if self.seen.contains(fingerprint) {
                continue;
            }
            if (self.limits.max_states).is_some_and(|max| self.seen.len() as u64 >= max) {
                self.state_bound_hit = Some(self.seen.len() as u64);
                break;
            }
            self.seen.insert(fingerprint).map_err(table_full)?;
            if self.seen.len().is_multiple_of(MEMORY_CHECK_STATES) {
                self.check_memory()?;
            }
            enabled.swap(unseen, at);
            unseen += 1;
        }
        enabled.truncate(unseen);
        Ok(enabled)
    }

    /// How a search that found no violation ended: stopped by a bound, or complete.
    fn bound_ending<A>(&self) -> Ending<A> {
        match (self.state_bound_hit, self.depth_bound_hit) {
            (Some(states), _) => Ending::StateBound(states),
            (None, Some(depth)) => Ending::DepthBound(depth),
            (None, None) => Ending::Complete,
        }
    }

    /// Reports the search's progress, and stops it if it holds more memory than its limit.
    fn check_memory(&mut self) -> Result<(), Error> {
        let resident = resident_bytes();
        (self.progress)(Progress {
            states: self.seen.len() as u64,
            transitions: self.transitions,
            depth: self.depth,
            resident_bytes: resident,
        });
        let (Some(limit), Some(used)) = (self.limits.max_memory_bytes, resident) else {
            return Ok(());
        };
        if used > limit {
            return Err(Error::MemoryLimit {
                limit_bytes: limit,
                states: self.seen.len(),
            });
        }
        Ok(())
    }

    /// What the seen set would hold for the state `action` leads to from `world` ([`Search::key`]),
    /// counted as a transition. The state itself is built only if it is new.
    fn transition<M: Model>(&mut self, world: &M, action: &M::Action) -> Result<u64, Error> {
        let fingerprint = match self.symmetries {
            Some(_) => world.successor_orbit_fingerprint(action),
            None => world.successor_fingerprint(action),
        }
        .map_err(|refused| model_error(world, action, refused))?;
        self.transitions += 1;
        if let Some(kind) = world.fault_kind(action) {
            *self.faults.entry(kind.name()).or_default() += 1;
        }
        Ok(fingerprint)
    }

    /// Whether any of the `enabled` actions of `world` leads to a state not yet visited (the
    /// world sits at the depth bound, so such a state would be cut off).
    fn any_new_successor<M: Model>(
        &mut self,
        world: &M,
        enabled: Vec<M::Action>,
    ) -> Result<bool, Error> {
        for action in enabled {
            let fingerprint = self.transition(world, &action)?;
            if !self.seen.contains(fingerprint) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn finish<A>(self, ending: Ending<A>) -> Exploration<A> {
        let depth = match &ending {
            Ending::Violation { path, .. } => self.depth.max(path.len() as u32),
            _ => self.depth,
        };
        Exploration {
            ending,
            states: self.seen.len() as u64,
            transitions: self.transitions,
            depth,
            decided_states: self.decided_states,
            terminal_states: self.terminal_states,
            terminal_undecided: self.terminal_undecided,
            faults: self
                .faults
                .into_iter()
                .map(|(kind, count)| (kind.to_owned(), count))
                .collect(),
            seen_bytes: self.seen.bytes() as u64,
            symmetries: self.symmetries.unwrap_or(1),
        }
    }
}

/// An enabled action the world refused: a hole in the model.
fn model_error<M: Model>(world: &M, action: &M::Action, refused: Refused) -> Error {
    Error::Model {
        action: world.describe(action),
        why: refused.to_string(),
    }
}

fn table_full(full: crate::seen::TableFull) -> Error {
    Error::SeenSetFull { states: full.0 }
}
