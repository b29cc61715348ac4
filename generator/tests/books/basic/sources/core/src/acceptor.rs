//! The fixture's acceptor: the source the book's code embeds read.

/// The promise rule: promise only a ballot above every ballot promised.
pub fn promise_rule(promised: Option<u64>, ballot: u64) -> bool {
    // Read from the fixture's source file.
    promised.is_none_or(|promised| ballot > promised)
}

impl Acceptor {
    /// Answers a Prepare by the promise rule.
    pub fn on_prepare(&mut self, ballot: u64) -> bool {
        promise_rule(self.promised, ballot)
    }
}
