//! The automation toggles: the parts of a role the player plays by hand until a level's pass
//! earns them. Everything above names them: prompts say which toggle they stand for, boards
//! list the ones that matter on their world, levels pin them, the view lists them.

use std::fmt;

/// A part of a role that the player plays by hand until they earn its automation.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Automation {
    /// Acceptors answer Prepare and Accept by themselves (the promise and vote rules).
    AcceptorReplies,
    /// A proposer fills its Accept by P2c value selection by itself; in the replicated log, a
    /// new leader recovers each slot by itself (P2c per slot).
    P2c,
    /// A node applies its chosen prefix by itself (the apply walk).
    ApplyWalk,
    /// One `beat` control ticks a leader and delivers its heartbeats, the acks and the
    /// catch-up they cause.
    Heartbeats,
}

impl Automation {
    /// Every toggle, in the order the stage lists them.
    pub const ALL: [Automation; 4] = [
        Automation::AcceptorReplies,
        Automation::P2c,
        Automation::ApplyWalk,
        Automation::Heartbeats,
    ];

    /// The stable name used in JSON and localStorage: `acceptor-replies`, `p2c`, `apply-walk`,
    /// `heartbeats`.
    pub fn name(self) -> &'static str {
        match self {
            Automation::AcceptorReplies => "acceptor-replies",
            Automation::P2c => "p2c",
            Automation::ApplyWalk => "apply-walk",
            Automation::Heartbeats => "heartbeats",
        }
    }

    /// The label beside the toggle.
    pub fn label(self) -> &'static str {
        match self {
            Automation::AcceptorReplies => "Acceptor replies",
            Automation::P2c => "P2c value selection",
            Automation::ApplyWalk => "The apply walk",
            Automation::Heartbeats => "Heartbeat delivery",
        }
    }

    /// The id of the level whose pass earns this toggle.
    pub fn taught_by(self) -> &'static str {
        match self {
            Automation::AcceptorReplies => "act1/be-the-acceptor",
            Automation::P2c => "act1/adopt-the-value",
            Automation::ApplyWalk => "act2/a-log-of-decisions",
            Automation::Heartbeats => "act2/steady-state",
        }
    }

    /// The toggle with this name, if any.
    pub fn from_name(name: &str) -> Option<Automation> {
        Automation::ALL
            .into_iter()
            .find(|toggle| toggle.name() == name)
    }
}

/// A set of toggles, one bit each: what the game keeps of the earned and switched-off toggles.
/// A bit set rather than a `BTreeSet`, whose code (and the sort `collect` runs first) the
/// browser would otherwise load for one four-item enum.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Automations(u8);

impl Automations {
    /// No toggle.
    pub const NONE: Automations = Automations(0);

    fn bit(automation: Automation) -> u8 {
        1 << automation as u8
    }

    /// Whether `automation` is in the set.
    pub fn contains(self, automation: Automation) -> bool {
        self.0 & Automations::bit(automation) != 0
    }

    /// Adds `automation`.
    pub fn insert(&mut self, automation: Automation) {
        self.0 |= Automations::bit(automation);
    }

    /// Removes `automation`.
    pub fn remove(&mut self, automation: Automation) {
        self.0 &= !Automations::bit(automation);
    }

    /// The toggles in the set, in [`Automation::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Automation> {
        Automation::ALL
            .into_iter()
            .filter(move |automation| self.contains(*automation))
    }
}

impl FromIterator<Automation> for Automations {
    fn from_iter<I: IntoIterator<Item = Automation>>(toggles: I) -> Automations {
        let mut set = Automations::NONE;
        for automation in toggles {
            set.insert(automation);
        }
        set
    }
}

impl fmt::Display for Automation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
