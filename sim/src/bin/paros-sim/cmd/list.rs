//! `paros-sim list`: every scenario, one a line: name, modes, claim; then the swarms.

use paros_sim::report::Mode;
use paros_sim::scenarios;
use paros_sim::swarm::Swarm;

/// Prints the scenarios.
pub fn run() -> anyhow::Result<u8> {
    let scenarios = scenarios::all();
    let width = (scenarios.iter().map(|s| s.name.len()))
        .chain(Swarm::ALL.map(|swarm| swarm.name().len()))
        .max()
        .unwrap_or(0);
    for scenario in scenarios {
        let modes: Vec<&str> = scenario.modes.iter().map(|mode| mode.as_str()).collect();
        println!(
            "{:<width$}  {:<22}  {}",
            scenario.name,
            modes.join(","),
            scenario.claim
        );
    }
    for swarm in Swarm::ALL {
        println!(
            "{:<width$}  {:<22}  {}",
            swarm.name(),
            Mode::Simulation.as_str(),
            swarm.claim()
        );
    }
    Ok(0)
}
