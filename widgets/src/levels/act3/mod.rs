//! Act III: truncation and reads across leader changes, on Act II's replicated-log world with
//! a second client. Each level is a file here with its briefing in a markdown file beside it;
//! the cluster helpers are Act II's.

pub mod the_fresh_leader_trap;
