//! What the book generator calls: a scenario's report, run in the scenario's book mode.
//!
//! Every Act I scenario is small enough to explore exhaustively in its book mode, so its report
//! says PASS (or VIOLATION, for the negative control) rather than "no violation found". The
//! generator caches each report under `target/book-reports/<name>-<input_hash>.json`, keyed by
//! [`input_hash`](crate::scenarios::input_hash).

use crate::Error;
use crate::explore::Limits;
use crate::report::Report;
use crate::runner;
use crate::scenarios::{self, BookMode};
use crate::simulate::Sweep;

/// Runs scenario `name` in its book mode and returns the report: an unbounded exhaustive search,
/// or a fixed seeded sweep (seeds from 0) for worlds too large to finish.
pub fn report_for(name: &str) -> Result<Report, Error> {
    let scenario = scenarios::find(name)?;
    match scenario.book_mode {
        BookMode::Exhaustive => runner::explore(&scenario, Limits::default()),
        BookMode::Simulation { seeds, max_steps } => {
            let sweep = Sweep {
                seeds: 0..seeds,
                max_steps,
            };
            runner::simulate(&scenario, &sweep, &|_| {})
        }
    }
}
