mod vote;

pub use vote::Vote;

pub struct Node {
    last: Option<Vote>,
}
