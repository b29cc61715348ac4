//! Benchmarks of the game engine: how long undo takes as the move log grows (it replays the
//! log, so it should grow linearly), how long a level takes to mount, and how long a view
//! takes to build and serialize.
//!
//! Run with `cargo bench -p paros-play`. Figures go to stdout; nothing is asserted here.

use paros_play::{Automation, Game, Goal, Level, Memory, Pin, Rules, Run, Stage, View, levels};
use paros_sim::level_worlds::LevelWorld;
use paros_sim::single_decree::{DecreeWorld, DecreeWorldConfig, ProposerConfig};
use paros_sim::{Budget, Fault};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// A duel with a large retry budget, acceptors played by hand: long logs of real moves.
struct Endless;

impl Rules<DecreeWorld> for Endless {
    fn goal(&self, _run: &Run<DecreeWorld>, _memory: &Memory) -> Goal {
        Goal::Open
    }
}

/// The bench's own world, which no level plays.
static ENDLESS_WORLD: LevelWorld<DecreeWorldConfig> = LevelWorld {
    name: "bench/endless",
    config: endless_world,
    prelude: &[],
};

fn endless_world() -> DecreeWorldConfig {
    DecreeWorldConfig {
        acceptor_count: 3,
        proposers: ["x", "y"]
            .into_iter()
            .map(|value| ProposerConfig {
                value: paros_core::Value::new(value),
                started: true,
            })
            .collect(),
        silent: paros_core::NodeSet::EMPTY,
        budget: Budget::NONE.with(Fault::Retry, 10_000),
        negative_control: None,
    }
}

static ENDLESS: Level<DecreeWorld> = Level {
    id: "bench/endless-duel",
    act: 1,
    title: "Endless duel",
    briefing: "",
    by_hand: "",
    teaches: "",
    goal: "",
    chapter: "",
    scenario: "",
    symbols: &[],
    unlocks: None,
    hints: &[],
    pins: &[
        Pin {
            automation: Automation::AcceptorReplies,
            on: false,
        },
        Pin {
            automation: Automation::P2c,
            on: true,
        },
    ],
    retry_by_hand: false,
    stages: &[Stage {
        title: "",
        note: "",
        world: &ENDLESS_WORLD,
    }],
    solution: &[],
    solution_unlocked: &[],
    rules: &Endless,
};

/// Plays until the log holds at least `moves` moves: each proposer in turn retries and its
/// Prepares are delivered and answered by hand, then the replies are delivered.
fn long_game(moves: usize) -> Game<DecreeWorld> {
    let mut game = Game::new(&ENDLESS, &[]).expect("mounts");
    let mut turn = 0;
    while game.log().len() < moves {
        let proposer = if turn % 2 == 0 { "P1" } else { "P2" };
        turn += 1;
        if turn > 2 {
            game.play(&format!("retry {proposer}")).expect("retry");
        }
        for acceptor in ["A1", "A2", "A3"] {
            game.play(&format!("deliver {proposer}->{acceptor} Prepare"))
                .expect("deliver");
            let key = game.prompt().expect("by hand").right_key().to_string();
            game.play(&format!("answer {key}")).expect("answer");
        }
        for acceptor in ["A1", "A2", "A3"] {
            // The reply may be a Promise or a Nack; deliver whichever came back.
            let _ = game.play(&format!("deliver {acceptor}->{proposer}"));
        }
    }
    game
}

fn time<T>(iterations: u32, mut work: impl FnMut() -> T) -> Duration {
    let start = Instant::now();
    for _ in 0..iterations {
        black_box(work());
    }
    start.elapsed() / iterations
}

fn main() {
    println!("undo (replays the whole log), native, release:");
    for moves in [250, 500, 1000, 2000, 4000] {
        let game = long_game(moves);
        let log_len = game.log().len();
        let rounds: u32 = 50;
        let mut copies: Vec<Game<DecreeWorld>> = (0..rounds).map(|_| game.clone()).collect();
        let start = Instant::now();
        for copy in &mut copies {
            copy.undo().expect("undo");
        }
        let undo = start.elapsed() / rounds;
        black_box(&copies);
        println!(
            "  {log_len:>5} moves: {:>8.3} ms per undo, {:>6.0} ns per replayed move",
            undo.as_secs_f64() * 1e3,
            undo.as_secs_f64() * 1e9 / log_len as f64
        );
    }

    println!("mount (Game::new: stage worlds and preludes) and first view:");
    for level in levels::ACT1 {
        let mount = time(2000, || {
            Game::new(level, level.solution_unlocked).expect("mounts")
        });
        let game = Game::new(level, level.solution_unlocked).expect("mounts");
        let view = time(2000, || View::of(&game).to_json());
        println!(
            "  {:<32} mount {:>7.1} us, view+json {:>7.1} us",
            level.id,
            mount.as_secs_f64() * 1e6,
            view.as_secs_f64() * 1e6
        );
    }

    println!("Act II: mount, view+json, and undo at the end of the reference solution:");
    for level in levels::ACT2 {
        let mount = time(200, || {
            Game::new(level, level.solution_unlocked).expect("mounts")
        });
        let mut game = Game::new(level, level.solution_unlocked).expect("mounts");
        let view = time(200, || View::of(&game).to_json());
        for step in level.solution {
            game.play(step).expect("the solution plays");
        }
        let rounds: u32 = 50;
        let mut copies: Vec<_> = (0..rounds).map(|_| game.clone()).collect();
        let start = Instant::now();
        for copy in &mut copies {
            copy.undo().expect("undo");
        }
        let undo = start.elapsed() / rounds;
        black_box(&copies);
        println!(
            "  {:<32} mount {:>7.1} us, view+json {:>7.1} us, undo after {:>2} moves {:>7.1} us",
            level.id,
            mount.as_secs_f64() * 1e6,
            view.as_secs_f64() * 1e6,
            game.log().len(),
            undo.as_secs_f64() * 1e6
        );
    }
}
