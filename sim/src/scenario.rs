//! A scenario: a named world, the claim it checks, how the book runs it, and how its world is
//! built (its setup, replayed through its prelude). The scenarios themselves, by act, are in
//! `scenarios.rs` and the files it includes; they stand on this one.

use crate::Error;
use crate::faults::{Fault, NegativeControl};
use crate::matchmaker::{MatchmakerWorld, MatchmakerWorldConfig};
use crate::model::Model;
use crate::replicated_log::{LogWorld, LogWorldConfig};
use crate::report::Mode;
use crate::single_decree::{DecreeWorld, DecreeWorldConfig};
use std::collections::BTreeMap;

/// How the book runs a scenario.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BookMode {
    /// Exhaustive exploration with no bound: the world is small enough to finish.
    Exhaustive,
    /// A fixed seeded sweep: seeds `0..seeds`, each walk at most `max_steps` actions.
    Simulation {
        /// How many seeds, from 0.
        seeds: u64,
        /// The step bound of each walk.
        max_steps: u32,
    },
}

/// How to build a scenario's world. One variant per world type; each implements
/// [`Model`].
// A setup is built once per scenario run and never stored in bulk: the log variant's size
// costs nothing, and boxing it would only add a step to every constructor and match.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Setup {
    /// An Act I world of single-decree Paxos.
    Act1 {
        /// The world's configuration; its budgets include what the prelude spends.
        config: DecreeWorldConfig,
        /// Actions applied to the fresh world, as [`DecreeWorld::describe`] prints them.
        prelude: Vec<&'static str>,
    },
    /// An Act II world of the replicated log.
    Log {
        /// The world's configuration; its budgets include what the prelude spends.
        config: LogWorldConfig,
        /// Actions applied to the fresh world, as [`LogWorld::describe`] prints them.
        prelude: Vec<&'static str>,
    },
    /// An Act IV world of Matchmaker Paxos.
    Matchmaker {
        /// The world's configuration; its budgets include what the prelude spends.
        config: MatchmakerWorldConfig,
        /// Actions applied to the fresh world, as [`MatchmakerWorld::describe`] prints them.
        prelude: Vec<&'static str>,
    },
}

/// A named world and the claim it checks.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Scenario {
    /// The name, e.g. `act1-duel`. Act I scenarios start with `act1`; a negative control's
    /// name says which fault it injects.
    pub name: &'static str,
    /// The claim checked, in one sentence.
    pub claim: &'static str,
    /// The world, in a sentence.
    pub world: &'static str,
    /// The modes it runs in.
    pub modes: &'static [Mode],
    /// How the book runs it.
    pub book_mode: BookMode,
    /// The game levels that cite it, e.g. `act1/the-duel`.
    pub levels: &'static [&'static str],
    /// The book chapter that cites it, if any.
    pub chapter: Option<&'static str>,
    /// How to build its world.
    pub setup: Setup,
}

/// A scenario's sentence, its claim or its world, kept only where it is read: in the book and on
/// the command line (cargo feature `scenario-text`, on by default). The game replays a scenario
/// by its name and configuration alone, so its modules leave every sentence out.
pub const fn text(sentence: &'static str) -> &'static str {
    if cfg!(feature = "scenario-text") {
        sentence
    } else {
        ""
    }
}

/// Runs `$body` with `$world` bound to the scenario's world after its prelude, whatever the
/// world's type: the one place that lists every kind of world (each arm's body is generic
/// over [`Model`]). Evaluates to the body's value; a prelude that does not replay returns its
/// [`Error`] from the enclosing function.
macro_rules! with_start {
    ($scenario:expr, |$world:ident| $body:expr) => {
        match &$scenario.setup {
            $crate::scenarios::Setup::Act1 { .. } => {
                let $world = $scenario.act1_start()?;
                $body
            }
            $crate::scenarios::Setup::Log { .. } => {
                let $world = $scenario.log_start()?;
                $body
            }
            $crate::scenarios::Setup::Matchmaker { .. } => {
                let $world = $scenario.matchmaker_start()?;
                $body
            }
        }
    };
}
pub(crate) use with_start;

impl Scenario {
    /// The fault and retry budgets left after the prelude, by kind: the faults the world's
    /// kind has ([`Model::FAULTS`]), under their report keys (`drops`, `torn_writes`, ...).
    pub fn budgets(&self) -> Result<BTreeMap<String, u64>, Error> {
        Ok(with_start!(self, |world| budgets_left(&world)))
    }

    /// The fault outside the model its world may use, if it is a negative control: then
    /// VIOLATION of [`NegativeControl::property`] is the expected verdict.
    pub fn negative_control(&self) -> Option<NegativeControl> {
        match &self.setup {
            Setup::Act1 { config, .. } => config.negative_control,
            Setup::Log { config, .. } => config.negative_control,
            Setup::Matchmaker { config, .. } => config.negative_control,
        }
    }

    /// Whether the scenario runs in `mode`.
    pub fn supports(&self, mode: Mode) -> bool {
        self.modes.contains(&mode)
    }

    /// The Act I world after the prelude. Each prelude action is parsed, checked against its
    /// description, and applied; any mismatch is a [`Error::Replay`].
    pub fn act1_start(&self) -> Result<DecreeWorld, Error> {
        let Setup::Act1 { config, prelude } = &self.setup else {
            return Err(Error::BadParameters(format!(
                "{} is not an Act I world",
                self.name
            )));
        };
        replay_prelude(DecreeWorld::new(config.clone()), prelude)
    }

    /// The Act II world after the prelude, checked as [`Scenario::act1_start`] checks Act I's.
    pub fn log_start(&self) -> Result<LogWorld, Error> {
        let Setup::Log { config, prelude } = &self.setup else {
            return Err(Error::BadParameters(format!(
                "{} is not an Act II world",
                self.name
            )));
        };
        replay_prelude(LogWorld::new(config.clone()), prelude)
    }

    /// The Matchmaker Paxos world after the prelude, checked as [`Scenario::act1_start`]
    /// checks Act I's.
    pub fn matchmaker_start(&self) -> Result<MatchmakerWorld, Error> {
        let Setup::Matchmaker { config, prelude } = &self.setup else {
            return Err(Error::BadParameters(format!(
                "{} is not a Matchmaker Paxos world",
                self.name
            )));
        };
        replay_prelude(MatchmakerWorld::new(config.clone()), prelude)
    }

    /// The prelude, as described actions.
    pub fn prelude(&self) -> Vec<String> {
        let (Setup::Act1 { prelude, .. }
        | Setup::Log { prelude, .. }
        | Setup::Matchmaker { prelude, .. }) = &self.setup;
        prelude.iter().map(|text| (*text).to_owned()).collect()
    }
}

/// Builds a world and applies its prelude: each action is parsed, checked against the world's
/// own description of it, and applied.
fn replay_prelude<M: Model>(
    world: Result<M, impl std::fmt::Display>,
    prelude: &[&'static str],
) -> Result<M, Error> {
    let mut world = world.map_err(|refused| Error::Replay {
        index: 0,
        action: "(the world's configuration)".into(),
        why: refused.to_string(),
    })?;
    for (index, text) in prelude.iter().enumerate() {
        let fail = |why: String| Error::Replay {
            index,
            action: (*text).to_owned(),
            why,
        };
        let action = world.parse_action(text).map_err(fail)?;
        let described = world.describe(&action);
        if described != *text {
            return Err(fail(format!("the world describes it as `{described}`")));
        }
        world
            .apply(&action)
            .map_err(|refused| fail(refused.to_string()))?;
    }
    Ok(world)
}

/// The budgets `world` has left, under their report keys.
fn budgets_left<M: Model>(world: &M) -> BTreeMap<String, u64> {
    let left = world.budget_left();
    let budget = |fault: &Fault| (fault.budget_key().to_owned(), u64::from(left.left(*fault)));
    M::FAULTS.iter().map(budget).collect()
}
