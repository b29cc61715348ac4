//! `paros-sim list`: every scenario, one a line: name, modes, claim.

use paros_sim::scenarios;

/// Prints the scenarios.
pub fn run() -> anyhow::Result<u8> {
    let scenarios = scenarios::all();
    let width = scenarios.iter().map(|s| s.name.len()).max().unwrap_or(0);
    for scenario in scenarios {
        let modes: Vec<&str> = scenario.modes.iter().map(|mode| mode.as_str()).collect();
        println!(
            "{:<width$}  {:<22}  {}",
            scenario.name,
            modes.join(","),
            scenario.claim
        );
    }
    Ok(0)
}
