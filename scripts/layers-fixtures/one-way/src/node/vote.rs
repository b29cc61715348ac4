use super::Node;
use super::state::Vote;

pub fn rule() -> bool {
    true
}

impl Node {
    pub fn vote(&mut self) -> Vote {
        self.votes.clear();
        Vote
    }
}
