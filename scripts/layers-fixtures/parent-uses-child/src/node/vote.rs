use super::Node;

pub struct Vote;

impl Node {
    pub fn vote(&mut self) -> Vote {
        Vote
    }
}
