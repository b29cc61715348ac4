//! Conformance tests for single-decree Paxos; each cites the rule it checks.
