use crate::{Node, Vote};

pub fn run(node: &mut Node) -> Vote {
    node.vote()
}
