//! The exhaustive explorer: breadth-first over every enabled action, deduplicated by fingerprint.
//!
//! Breadth-first order makes the first violation found a shortest one: every state of depth d
//! is checked before any state of depth d + 1. The seen set holds fingerprints only
//! ([`SeenSet`]); worlds live only in the frontier, with their path as a shared linked list, so
//! the memory of a finished level is freed. Each transition is first hashed without building
//! its state ([`Model::successor_fingerprint`]), and only a state not seen before is built.
//!
//! The outcome says exactly how the search ended ([`Ending`]): it visited the whole space, a
//! depth or state bound stopped it, or it found a violation. A refused enabled action or a table
//! or frontier that cannot grow is an [`Error`], never a silent drop.

use crate::Error;
use crate::check::Violation;
use crate::model::Model;
use crate::seen::SeenSet;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Bounds on a search. A search stopped by one is incomplete, never a pass.
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
}

/// How often, in new states, the explorer reads its memory use.
const MEMORY_CHECK_STATES: usize = 1 << 16;

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
        /// The shortest path to it, from the search's first state.
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
    /// The deepest level reached (actions from the first state).
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

/// Explores every state reachable from `start`, breadth-first, within `limits`.
pub fn explore<M: Model>(start: M, limits: Limits) -> Result<Exploration<M::Action>, Error> {
    let mut search = Search::new(limits);
    let violations = start.violations();
    search.decided_states += u64::from(start.is_decided());
    search
        .seen
        .insert(start.fingerprint())
        .map_err(table_full)?;
    if !violations.is_empty() {
        return Ok(search.finish(Ending::Violation {
            path: Vec::new(),
            violations,
        }));
    }
    let mut frontier = vec![(start, None)];
    let mut depth = 0;
    while !frontier.is_empty() {
        if limits.max_depth == Some(depth) {
            let ending = match search.any_new_successor(&frontier)? {
                true => Ending::DepthBound(depth),
                false => Ending::Complete,
            };
            return Ok(search.finish(ending));
        }
        let mut next = Vec::new();
        for (world, path) in frontier {
            if let Some(ending) = search.expand(&world, path, &mut next)? {
                return Ok(search.finish(ending));
            }
        }
        if !next.is_empty() {
            depth += 1;
            search.depth = depth;
        }
        frontier = next;
    }
    Ok(search.finish(Ending::Complete))
}

type Frontier<M> = Vec<(M, Option<Rc<PathNode<<M as Model>::Action>>>)>;

/// The counters and seen set of one search.
struct Search {
    seen: SeenSet,
    limits: Limits,
    transitions: u64,
    depth: u32,
    decided_states: u64,
    terminal_states: u64,
    terminal_undecided: u64,
    faults: BTreeMap<&'static str, u64>,
}

impl Search {
    fn new(limits: Limits) -> Search {
        Search {
            seen: SeenSet::new(),
            limits,
            transitions: 0,
            depth: 0,
            decided_states: 0,
            terminal_states: 0,
            terminal_undecided: 0,
            faults: BTreeMap::new(),
        }
    }

    /// Applies every enabled action of `world`; new states go to `next`. Returns an ending if
    /// the search must stop here.
    fn expand<M: Model>(
        &mut self,
        world: &M,
        path: Option<Rc<PathNode<M::Action>>>,
        next: &mut Frontier<M>,
    ) -> Result<Option<Ending<M::Action>>, Error> {
        let enabled = world.enabled();
        if enabled.is_empty() {
            self.terminal_states += 1;
            self.terminal_undecided += u64::from(!world.is_decided());
        }
        for action in enabled {
            let fingerprint = self.transition(world, &action)?;
            if self.seen.contains(fingerprint) {
                continue;
            }
            if (self.limits.max_states).is_some_and(|max| self.seen.len() as u64 >= max) {
                return Ok(Some(Ending::StateBound(self.seen.len() as u64)));
            }
            self.seen.insert(fingerprint).map_err(table_full)?;
            if self.seen.len().is_multiple_of(MEMORY_CHECK_STATES) {
                self.check_memory()?;
            }
            let successor = build(world, &action, fingerprint)?;
            let node = Rc::new(PathNode {
                action,
                parent: path.clone(),
            });
            let violations = successor.violations();
            if !violations.is_empty() {
                return Ok(Some(Ending::Violation {
                    path: path_to_vec(Some(&node)),
                    violations,
                }));
            }
            self.decided_states += u64::from(successor.is_decided());
            next.try_reserve(1).map_err(|_| Error::FrontierFull {
                states: self.seen.len(),
            })?;
            next.push((successor, Some(node)));
        }
        Ok(None)
    }

    fn check_memory(&self) -> Result<(), Error> {
        let (Some(limit), Some(used)) = (self.limits.max_memory_bytes, resident_bytes()) else {
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

    /// The fingerprint of the state `action` leads to from `world`, counted as a transition.
    /// The state itself is built only if it is new ([`build`]).
    fn transition<M: Model>(&mut self, world: &M, action: &M::Action) -> Result<u64, Error> {
        let fingerprint = world
            .successor_fingerprint(action)
            .map_err(|refused| model_error(world, action, refused))?;
        self.transitions += 1;
        if let Some(kind) = world.fault_kind(action) {
            *self.faults.entry(kind).or_default() += 1;
        }
        Ok(fingerprint)
    }

    /// Whether any state of the frontier has a successor not yet visited (the frontier sits at
    /// the depth bound, so such a successor would be cut off).
    fn any_new_successor<M: Model>(&mut self, frontier: &Frontier<M>) -> Result<bool, Error> {
        for (world, _) in frontier {
            for action in world.enabled() {
                let fingerprint = self.transition(world, &action)?;
                if !self.seen.contains(fingerprint) {
                    return Ok(true);
                }
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
        }
    }
}

/// The state `action` leads to from `world`, whose fingerprint the search already has.
fn build<M: Model>(world: &M, action: &M::Action, fingerprint: u64) -> Result<M, Error> {
    let mut successor = world.clone();
    successor
        .apply(action)
        .map_err(|refused| model_error(world, action, refused))?;
    debug_assert_eq!(
        successor.fingerprint(),
        fingerprint,
        "{} hashed apart from the state it builds",
        world.describe(action)
    );
    Ok(successor)
}

/// An enabled action the world refused: a hole in the model.
fn model_error<M: Model>(world: &M, action: &M::Action, refused: M::Refused) -> Error {
    Error::Model {
        action: world.describe(action),
        why: refused.to_string(),
    }
}

fn table_full(full: crate::seen::TableFull) -> Error {
    Error::SeenSetFull { states: full.0 }
}
