mod state;
mod vote;

pub use state::Vote;
pub use vote::rule;

pub struct Node {
    votes: Vec<state::Vote>,
}

// A comment naming vote::rule is no edge; nor is "vote::rule" in a string.
const NOTE: &str = "crate::top::run and vote::rule";

#[cfg(test)]
mod tests {
    use super::vote::rule;
    use crate::top::run;
}
