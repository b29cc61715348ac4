//! Values: what Paxos chooses.

use std::fmt;
use std::sync::Arc;

/// A value a proposer wants chosen. Paxos never looks inside it.
///
/// Cloning is cheap (a shared string), because worlds holding values are cloned often.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Value(Arc<str>);

impl Value {
    /// A value with the given text.
    pub fn new(text: &str) -> Value {
        Value(Arc::from(text))
    }

    /// The text of the value.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Value {
        Value::new(text)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", &*self.0)
    }
}
