//! The leader's messages per command, with proxy leaders and without: counted on the real
//! world, never worked out. On a fresh world of the stage's configuration N1 is elected, then
//! the first client writes once at N1 and every message is delivered, oldest first, until
//! none is left; every message N1 sent or was sent counts once, one to itself included. The
//! same run on a copy of the configuration with no proxies gives the other count.

use paros_sim::model::Model;
use paros_sim::replicated_log::{LogAction, LogInFlight, LogWorld, LogWorldConfig};

/// The most steps a run may take: a run that needs more counts nothing.
const MOST_STEPS: usize = 200;

/// What the leader handles for one command, as counted.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LeaderLoad {
    /// With the configuration's proxies.
    pub with_proxies: usize,
    /// With none.
    pub without_proxies: usize,
}

/// The leader's messages per command over `config` as it is and with no proxies; `None` for a
/// configuration with no proxies, no client, or a run that does not settle.
pub fn leader_load(config: &LogWorldConfig) -> Option<LeaderLoad> {
    if config.proxies == 0 || config.clients.is_empty() {
        return None;
    }
    // The leader's messages to itself travel the network in these copies, so that each is
    // seen, and counted, as the message it is.
    let mut with = config.clone();
    with.self_messages_in_flight = true;
    let mut without = with.clone();
    without.proxies = 0;
    Some(LeaderLoad {
        with_proxies: one_command(with)?,
        without_proxies: one_command(without)?,
    })
}

/// How many messages N1 sends or is sent while the first client's first write runs, on a
/// fresh world of `config` where N1 was elected first.
fn one_command(config: LogWorldConfig) -> Option<usize> {
    let (leader, client) = (config.node_id(0), config.client_id(0));
    let mut world = LogWorld::build(config).ok()?;
    world.apply(&LogAction::Tick(leader)).ok()?;
    drain(&mut world, |_| {})?;
    let mut counted = Vec::new();
    world
        .apply(&LogAction::Request {
            client,
            node: leader,
        })
        .ok()?;
    drain(&mut world, |message| {
        let (from, to) = (message.envelope.from, message.envelope.to);
        if (from == leader || to == leader) && !counted.contains(&message.id) {
            counted.push(message.id);
        }
    })?;
    let answered = (world.history().iter()).any(|call| call.client == client && call.ret.is_some());
    answered.then_some(counted.len())
}

/// Delivers the oldest message until none is left, showing `seen` each one in flight before
/// it is delivered. `None` if that takes more than [`MOST_STEPS`] or a delivery is refused.
fn drain(world: &mut LogWorld, mut seen: impl FnMut(&LogInFlight)) -> Option<()> {
    for _ in 0..MOST_STEPS {
        let Some(oldest) = world.in_flight().first() else {
            return Some(());
        };
        let id = oldest.id;
        world.in_flight().iter().for_each(&mut seen);
        world.apply(&LogAction::Deliver(id)).ok()?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use paros_sim::level_worlds;

    fn proxy_leaders_with(nodes: u8) -> LogWorldConfig {
        let mut config = (level_worlds::PROXY_LEADERS.config)();
        config.node_count = nodes;
        config
    }

    /// Through proxies the leader handles six messages a command whatever the cluster's size;
    /// without them, two for each node and two more: eight at three nodes, twelve at five.
    #[test]
    fn the_leader_handles_six_messages_through_proxies_and_more_without_as_the_cluster_grows() {
        let at = |nodes| leader_load(&proxy_leaders_with(nodes));
        let three = LeaderLoad {
            with_proxies: 6,
            without_proxies: 8,
        };
        let five = LeaderLoad {
            with_proxies: 6,
            without_proxies: 12,
        };
        assert_eq!((at(3), at(5)), (Some(three), Some(five)));
    }

    /// A world without proxies has nothing to compare, and says so.
    #[test]
    fn a_world_without_proxies_counts_nothing() {
        let mut config = proxy_leaders_with(3);
        config.proxies = 0;
        assert_eq!(leader_load(&config), None);
    }
}
