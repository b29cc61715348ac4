//! A counterexample replayed step by step on the stage the levels use.
//!
//! A report's counterexample is a list of actions as the world describes them, from the fresh
//! world: the scenario's prelude comes first, then the walk the explorer or the simulator took.
//! [`Replay`] builds the scenario's world as its configuration makes it (step 0, before the
//! prelude) and applies the actions one at a time through [`Model::apply`], the same call the
//! explorer made. Going back replays from step 0, so every step is exact. Each step's
//! [`ReplayView`] draws the world with the boards' own stage code, names the action that led
//! there and the one that comes next (with the message it moves), and carries what the world's
//! checkers say about the state: at a counterexample's last step, the violation the report
//! printed.
//!
//! Every action must parse against the world before it, apply, and read back exactly as
//! printed; otherwise [`Replay::new`] refuses with a [`ReplayError`] naming the scenario and the
//! step. The book's build replays every counterexample it shows this way.

use crate::board::{Board, ByHand};
#[cfg(feature = "matchmaker")]
use crate::scene::MatchmakingView;
use crate::scene::{ChosenView, ClusterView, MessageView, NodeView};
#[cfg(feature = "matchmaker")]
use paros_sim::matchmaker::MatchmakerWorld;
use paros_sim::model::Model;
use paros_sim::network::MessageAction;
#[cfg(feature = "log")]
use paros_sim::replicated_log::LogWorld;
use paros_sim::scenarios::{self, Scenario, Setup};
#[cfg(feature = "one-value")]
use paros_sim::single_decree::DecreeWorld;
use serde::Serialize;
use std::fmt;

/// Why a counterexample does not replay.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ReplayError {
    /// No scenario a replay can show has this name: none has it, or it is a log scenario
    /// without a counterexample (not a negative control).
    UnknownScenario(String),
    /// The scenario's world is left out of this build (its cargo feature is off).
    OtherModule {
        /// The scenario.
        scenario: String,
        /// The module that replays it.
        module: &'static str,
    },
    /// The scenario's configuration builds no world.
    Start {
        /// The scenario.
        scenario: String,
        /// Why, in the world's words.
        why: String,
    },
    /// An action does not parse, is refused, or reads back otherwise than printed.
    Step {
        /// The scenario.
        scenario: String,
        /// The step, from 1.
        step: usize,
        /// The action as given.
        action: String,
        /// Why, in the world's words.
        why: String,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::UnknownScenario(name) => {
                write!(
                    f,
                    "no scenario with a counterexample to replay is named `{name}`"
                )
            }
            ReplayError::OtherModule { scenario, module } => write!(
                f,
                "scenario `{scenario}` plays in the `{module}` module, which this build leaves out"
            ),
            ReplayError::Start { scenario, why } => {
                write!(f, "scenario `{scenario}` builds no world: {why}")
            }
            ReplayError::Step {
                scenario,
                step,
                action,
                why,
            } => write!(
                f,
                "the counterexample of scenario `{scenario}` no longer replays: step {step} \
                 (`{action}`): {why}"
            ),
        }
    }
}

impl std::error::Error for ReplayError {}

/// The stage of one step: the parts of a level's view the stage draws, from the same board code.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct ReplayStage {
    /// The nodes, as a level draws them (nothing played by hand).
    pub nodes: Vec<NodeView>,
    /// The messages in flight, with no actions offered: a replay is watched, not played.
    pub messages: Vec<MessageView>,
    /// The chosen value (Act I).
    pub chosen: Option<ChosenView>,
    /// The chosen log, clients, budgets and partitions (the log world).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<ClusterView>,
    /// The matchmakers, configurations and leaders (the matchmaker world, in a build with it).
    #[cfg(feature = "matchmaker")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matchmaking: Option<MatchmakingView>,
}

/// One step of a replay, as the browser draws it. The JSON shape is in `widgets/API.md`.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct ReplayView {
    /// The scenario.
    pub scenario: String,
    /// The wasm module that replays it.
    pub module: &'static str,
    /// The step shown: 0 is the world as built, `k` the world after the first `k` actions.
    pub step: usize,
    /// How many actions the counterexample has.
    pub steps: usize,
    /// How many of the first actions are the scenario's prelude.
    pub prelude: usize,
    /// The action that led to this step, as the world describes it; `None` at step 0.
    pub action: Option<String>,
    /// The action that comes next; `None` at the last step.
    pub next: Option<String>,
    /// The message the next action delivers, drops or duplicates, if it moves one.
    pub message: Option<u32>,
    /// The world.
    pub stage: ReplayStage,
    /// What the world's checkers report about this state, `property: detail` each; at a
    /// counterexample's last step, the violation it was found for.
    pub violations: Vec<String>,
}

impl ReplayView {
    /// The view as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self)
            .unwrap_or_else(|error| panic!("a replay view always serializes: {error}"))
    }
}

/// A counterexample replayed on one kind of world.
#[derive(Clone, Debug)]
struct Walk<B: Board> {
    /// The world as its configuration builds it: step 0.
    start: B,
    /// The actions, parsed, each against the world before it.
    actions: Vec<B::Action>,
    /// The actions as the world describes them.
    texts: Vec<String>,
    /// The world after the first `step` actions.
    world: B,
    /// The step shown.
    step: usize,
}

impl<B: Board> Walk<B>
where
    B::Action: MessageAction,
{
    /// Replays every action once from `start`, so a walk that exists replays to its end.
    fn new(scenario: &str, start: B, texts: &[String]) -> Result<Walk<B>, ReplayError> {
        let mut world = start.clone();
        let mut actions = Vec::with_capacity(texts.len());
        for (index, text) in texts.iter().enumerate() {
            let fail = |why: String| ReplayError::Step {
                scenario: scenario.to_owned(),
                step: index + 1,
                action: text.clone(),
                why,
            };
            let action = world.parse_action(text).map_err(fail)?;
            let described = world.describe(&action);
            if described != *text {
                return Err(fail(format!("the world describes it as `{described}`")));
            }
            Model::apply(&mut world, &action).map_err(|refused| fail(refused.to_string()))?;
            actions.push(action);
        }
        Ok(Walk {
            world: start.clone(),
            start,
            actions,
            texts: texts.to_vec(),
            step: 0,
        })
    }

    /// Shows step `step` (at most the last): the world rebuilt from step 0.
    fn go_to(&mut self, step: usize) {
        let step = step.min(self.actions.len());
        if step < self.step {
            self.world = self.start.clone();
            self.step = 0;
        }
        for action in &self.actions[self.step..step] {
            if let Err(refused) = Model::apply(&mut self.world, action) {
                panic!("every action replayed when built: {refused}");
            }
        }
        self.step = step;
    }

    fn view(&self, scenario: &str, prelude: usize) -> ReplayView {
        let world = &self.world;
        let next = self.actions.get(self.step);
        ReplayView {
            scenario: scenario.to_owned(),
            module: B::MODULE,
            step: self.step,
            steps: self.actions.len(),
            prelude,
            action: self
                .step
                .checked_sub(1)
                .map(|last| self.texts[last].clone()),
            next: next.map(|_| self.texts[self.step].clone()),
            message: next.and_then(MessageAction::message).map(|(_, id)| id.0),
            stage: ReplayStage {
                nodes: world.nodes(&ByHand::default()),
                messages: world.messages(&[]),
                chosen: world.chosen(),
                cluster: world.cluster(),
                #[cfg(feature = "matchmaker")]
                matchmaking: world.matchmaking(),
            },
            violations: (world.violations().iter())
                .map(ToString::to_string)
                .collect(),
        }
    }
}

/// The walk on whichever world the scenario runs on.
#[derive(Clone, Debug)]
enum Walking {
    #[cfg(feature = "one-value")]
    SingleDecree(Walk<DecreeWorld>),
    #[cfg(feature = "log")]
    ReplicatedLog(Walk<LogWorld>),
    /// Boxed: its world holds more than the others.
    #[cfg(feature = "matchmaker")]
    Matchmaker(Box<Walk<MatchmakerWorld>>),
}

/// Calls `$body` with `$walk` bound to the walk inside, whichever world it runs on.
macro_rules! with_walk {
    ($walking:expr, $walk:ident => $body:expr) => {
        match $walking {
            #[cfg(feature = "one-value")]
            Walking::SingleDecree($walk) => $body,
            #[cfg(feature = "log")]
            Walking::ReplicatedLog($walk) => $body,
            #[cfg(feature = "matchmaker")]
            Walking::Matchmaker($walk) => $body,
        }
    };
}

/// A scenario's counterexample, replayed by the real world one action at a time.
///
/// ```
/// use paros_play::Replay;
///
/// let actions = ["deliver m1 P1->A1 Prepare(1.P1)".to_string()];
/// let mut replay = Replay::new("act1-amnesia-control", &actions).unwrap();
/// replay.forward();
/// assert_eq!(replay.view().action.as_deref(), Some("deliver m1 P1->A1 Prepare(1.P1)"));
/// ```
#[derive(Clone, Debug)]
pub struct Replay {
    scenario: String,
    prelude: usize,
    walking: Walking,
}

impl Replay {
    /// Replays `actions` (as a report prints them, prelude included) on the world of
    /// `scenario`, once through to check them, and shows step 0.
    pub fn new(scenario: &str, actions: &[String]) -> Result<Replay, ReplayError> {
        let found = own_scenarios()
            .into_iter()
            .find(|found| found.name == scenario)
            .ok_or_else(|| not_here(scenario, BUILT))?;
        let start_failed = |why: String| ReplayError::Start {
            scenario: scenario.to_owned(),
            why,
        };
        let prelude = found.prelude().len();
        let walking = match found.setup {
            #[cfg(feature = "one-value")]
            Setup::Act1 { config, .. } => Walking::SingleDecree(Walk::new(
                scenario,
                DecreeWorld::new(config).map_err(|refused| start_failed(refused.to_string()))?,
                actions,
            )?),
            #[cfg(feature = "log")]
            Setup::Log { config, .. } => Walking::ReplicatedLog(Walk::new(
                scenario,
                LogWorld::new(config).map_err(|refused| start_failed(refused.to_string()))?,
                actions,
            )?),
            #[cfg(feature = "matchmaker")]
            Setup::Matchmaker { config, .. } => Walking::Matchmaker(Box::new(Walk::new(
                scenario,
                MatchmakerWorld::new(config)
                    .map_err(|refused| start_failed(refused.to_string()))?,
                actions,
            )?)),
            #[allow(unreachable_patterns)]
            other => {
                return Err(ReplayError::OtherModule {
                    scenario: scenario.to_owned(),
                    module: module_of(&other),
                });
            }
        };
        Ok(Replay {
            scenario: scenario.to_owned(),
            prelude,
            walking,
        })
    }

    /// The step shown: 0 before the first action.
    pub fn step(&self) -> usize {
        with_walk!(&self.walking, walk => walk.step)
    }

    /// How many actions the counterexample has: the last step's number.
    pub fn steps(&self) -> usize {
        with_walk!(&self.walking, walk => walk.actions.len())
    }

    /// Shows `step`, or the last step if it is past the end, rebuilt from step 0 when going back.
    pub fn go_to(&mut self, step: usize) {
        with_walk!(&mut self.walking, walk => walk.go_to(step));
    }

    /// One action forward; at the last step, nothing changes.
    pub fn forward(&mut self) {
        self.go_to(self.step() + 1);
    }

    /// One action back, replayed from step 0; at step 0, nothing changes.
    pub fn back(&mut self) {
        self.go_to(self.step().saturating_sub(1));
    }

    /// The step shown, drawn.
    pub fn view(&self) -> ReplayView {
        with_walk!(&self.walking, walk => walk.view(&self.scenario, self.prelude))
    }

    /// The fingerprint of the world shown, as the explorer computes it.
    pub fn fingerprint(&self) -> u64 {
        with_walk!(&self.walking, walk => walk.world.fingerprint())
    }
}

/// The scenarios of the worlds this build plays that a replay can show. A module links only
/// its own world's scenario builders: the log module has no use for Act I's, nor the one-value
/// module for the log's; and of the log's, only the negative controls, the scenarios whose
/// reports carry a counterexample ([`scenarios::log_controls`]).
fn own_scenarios() -> Vec<Scenario> {
    let mut own = Vec::new();
    #[cfg(feature = "one-value")]
    own.extend(scenarios::act1_scenarios());
    #[cfg(feature = "log")]
    own.extend(scenarios::log_controls());
    #[cfg(feature = "matchmaker")]
    own.extend(scenarios::matchmaker_scenarios());
    own
}

/// The modules this build is: one per world feature turned on.
const BUILT: &[&str] = &[
    #[cfg(feature = "one-value")]
    "one-value",
    #[cfg(feature = "log")]
    "log",
    #[cfg(feature = "matchmaker")]
    "matchmaker",
];

/// Why no scenario of a build of the modules `built` is called `name`: it belongs to a world
/// that build leaves out (told from its name, as Act I's start with `act1-`), or no scenario
/// has that name.
fn not_here(name: &str, built: &[&str]) -> ReplayError {
    let module = module_named(name);
    if built.contains(&module) {
        ReplayError::UnknownScenario(name.to_owned())
    } else {
        ReplayError::OtherModule {
            scenario: name.to_owned(),
            module,
        }
    }
}

/// The module that replays the scenario called `name`, told from the name alone: Act I's
/// scenarios are named `act1-...`, and every other act's play on the replicated log.
fn module_named(name: &str) -> &'static str {
    if name.starts_with("act1-") {
        "one-value"
    } else if name.starts_with("act4-matchmaker") {
        "matchmaker"
    } else {
        "log"
    }
}

/// The module that replays a scenario of this setup: its board's [`Board::MODULE`].
pub fn module_of(setup: &Setup) -> &'static str {
    match setup {
        Setup::Act1 { .. } => "one-value",
        Setup::Log { .. } => "log",
        Setup::Matchmaker { .. } => "matchmaker",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use paros_sim::report::Verdict;

    /// The counterexample paros-sim reports for a scenario, run as the book runs it.
    fn counterexample(scenario: &str) -> (Vec<String>, Vec<String>) {
        let report = paros_sim::book::report_for(scenario).expect("the scenario runs");
        assert_eq!(report.verdict, Verdict::Violation, "{scenario}");
        (report.counterexample, report.violations)
    }

    #[test]
    fn forward_to_the_end_shows_the_violation_the_report_printed() {
        let (actions, violations) = counterexample("act1-amnesia-control");
        let mut replay = Replay::new("act1-amnesia-control", &actions).unwrap();
        assert_eq!(replay.view().violations, Vec::<String>::new());
        for step in 1..=actions.len() {
            replay.forward();
            let view = replay.view();
            assert_eq!(view.step, step);
            assert_eq!(view.action.as_ref(), Some(&actions[step - 1]));
            if step < actions.len() {
                assert!(view.violations.is_empty(), "step {step}: {view:?}");
            }
        }
        let last = replay.view();
        assert_eq!(last.violations, violations);
        assert_eq!(last.next, None);
        replay.forward();
        assert_eq!(
            replay.step(),
            actions.len(),
            "forward stops at the last step"
        );
    }

    #[test]
    fn back_to_step_0_equals_a_fresh_start() {
        let (actions, _) = counterexample("act1-amnesia-control");
        let fresh = Replay::new("act1-amnesia-control", &actions).unwrap();
        let mut replay = fresh.clone();
        replay.go_to(actions.len());
        let at_the_end = replay.fingerprint();
        assert_ne!(at_the_end, fresh.fingerprint());
        replay.back();
        let mut again = fresh.clone();
        again.go_to(actions.len() - 1);
        assert_eq!(
            replay.view(),
            again.view(),
            "one step back is a replay from the start"
        );
        while replay.step() > 0 {
            replay.back();
        }
        assert_eq!(replay.view(), fresh.view());
        assert_eq!(replay.fingerprint(), fresh.fingerprint());
        replay.back();
        assert_eq!(replay.step(), 0, "back stops at step 0");
    }

    #[test]
    fn the_next_action_names_its_message() {
        let (actions, _) = counterexample("act1-amnesia-control");
        let replay = Replay::new("act1-amnesia-control", &actions).unwrap();
        let view = replay.view();
        assert_eq!(view.next.as_deref(), Some(actions[0].as_str()));
        assert_eq!(view.message, Some(1), "{}", actions[0]);
        assert_eq!(view.prelude, 7, "the prelude gets x chosen, then starts P2");
        assert!(view.stage.messages.iter().any(|message| message.id == 1));
        assert!(
            view.stage
                .messages
                .iter()
                .all(|message| message.actions.is_empty())
        );
    }

    #[test]
    fn a_tampered_action_is_refused_with_its_step() {
        let (mut actions, _) = counterexample("act1-amnesia-control");
        actions[2] = "deliver m99 A1->P1 Promise(1.P1)".into();
        let error = Replay::new("act1-amnesia-control", &actions).unwrap_err();
        let ReplayError::Step { scenario, step, .. } = &error else {
            panic!("{error:?}");
        };
        assert_eq!((scenario.as_str(), *step), ("act1-amnesia-control", 3));
        assert!(error.to_string().contains("step 3"), "{error}");
    }

    #[test]
    fn an_action_that_reads_back_otherwise_is_refused() {
        let (mut actions, _) = counterexample("act1-amnesia-control");
        // By id, the network accepts a route that is not the message's; the replay does not.
        actions[0] = "deliver m1".into();
        let error = Replay::new("act1-amnesia-control", &actions).unwrap_err();
        assert!(
            matches!(&error, ReplayError::Step { step: 1, why, .. } if why.contains("describes it as")),
            "{error:?}"
        );
    }

    #[test]
    fn an_unknown_scenario_is_named() {
        let error = Replay::new("no-such-scenario", &[]).unwrap_err();
        assert_eq!(
            error,
            ReplayError::UnknownScenario("no-such-scenario".into())
        );
    }

    #[cfg(feature = "log")]
    #[test]
    fn a_log_scenario_without_a_counterexample_is_not_replayed() {
        // The log module links only the negative controls: a scenario that passes has nothing
        // to replay.
        let error = Replay::new("act4-faulty-records", &[]).unwrap_err();
        assert_eq!(
            error,
            ReplayError::UnknownScenario("act4-faulty-records".into())
        );
        assert!(Replay::new("act4-corrupt-as-none-control", &[]).is_ok());
    }

    #[test]
    fn a_scenario_name_tells_its_module() {
        // A build with one world says which module replays another world's scenario from its
        // name alone: the name must agree with the setup for every scenario.
        for scenario in scenarios::all() {
            assert_eq!(
                module_named(scenario.name),
                module_of(&scenario.setup),
                "{}",
                scenario.name
            );
        }
        assert_eq!(
            not_here("act1-amnesia-control", &["log"]),
            ReplayError::OtherModule {
                scenario: "act1-amnesia-control".into(),
                module: "one-value"
            }
        );
        assert_eq!(
            not_here("act2-forget-ballot-control", &["one-value"]),
            ReplayError::OtherModule {
                scenario: "act2-forget-ballot-control".into(),
                module: "log"
            }
        );
        assert_eq!(
            not_here("act2-no-such", &["one-value", "log"]),
            ReplayError::UnknownScenario("act2-no-such".into())
        );
        // A build with every world replays every scenario a report can carry a counterexample
        // for: all of them but the log's that are not negative controls, and the controls no
        // page replays.
        let own: Vec<&str> = own_scenarios().iter().map(|own| own.name).collect();
        let replayable: Vec<&str> = (scenarios::all().iter())
            .filter(|any| module_of(&any.setup) != "log" || any.negative_control().is_some())
            .filter(|any| !scenarios::NOT_REPLAYED.contains(&any.name))
            .map(|any| any.name)
            .collect();
        assert_eq!(own, replayable);
    }

    #[test]
    fn a_matchmaker_counterexample_replays_to_its_violation_on_the_matchmaker_stage() {
        let (actions, violations) = counterexample("act4-matchmaker-phase1-latest-only-control");
        let mut replay =
            Replay::new("act4-matchmaker-phase1-latest-only-control", &actions).unwrap();
        assert_eq!(replay.view().module, "matchmaker");
        assert!(replay.view().stage.matchmaking.is_some());
        replay.go_to(usize::MAX);
        assert_eq!(replay.step(), actions.len());
        assert_eq!(replay.view().violations, violations);
    }

    #[test]
    fn a_log_world_counterexample_replays_to_its_violation() {
        let (actions, violations) = counterexample("act2-forget-ballot-control");
        let mut replay = Replay::new("act2-forget-ballot-control", &actions).unwrap();
        assert_eq!(replay.view().module, "log");
        replay.go_to(usize::MAX);
        assert_eq!(replay.step(), actions.len());
        assert_eq!(replay.view().violations, violations);
    }
}
