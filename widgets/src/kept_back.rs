//! The answer is never on screen before its question: the one rule every view obeys.
//!
//! A level question is asked after a world step, and what that step did is often its answer
//! (the Promise a node sent, the history a leader read, what a restart left on a disk). So while
//! a level question is open, the view keeps back everything the step changed: each node, proxy,
//! matchmaker and leader it changed is shown by name only (`kept_back.names`), the
//! messages it sent and those from a kept-back sender (what a node sent tells what it holds)
//! are left off the wire (`kept_back.messages` counts them), and the chosen
//! line and the grid's slot in play stay as they were before it. The
//! page draws a kept-back item as "answer first". A held role prompt needs no rule: the world
//! has not stepped yet.

use crate::board::{Board, ByHand};
#[cfg(feature = "matchmaker")]
use crate::scene::MatchmakingView;
use crate::scene::{ChosenView, ClusterView, MessageView, NodeView};
use serde::Serialize;

/// Whether two parts of the view differ, as the page would draw them: compared by their JSON,
/// whose code the module links anyway, rather than by a derived `PartialEq` per view type.
fn differs<T: Serialize>(now: &T, before: &T) -> bool {
    serde_json::to_string(now).ok() != serde_json::to_string(before).ok()
}

/// What the view keeps back while a level question is open.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize)]
pub struct KeptBackView {
    /// The nodes, proxies, matchmakers and leaders the step changed, and the node the question
    /// is about: drawn by name only.
    pub names: Vec<String>,
    /// How many messages the step sent or a kept-back sender has on the wire: not listed until
    /// the answer.
    pub messages: usize,
    /// Whether what is chosen changed: the chosen line shows what was chosen before the step.
    pub chosen: bool,
}

/// What the stage shows of the world, before the rule is applied.
pub(crate) struct Shown {
    pub nodes: Vec<NodeView>,
    pub messages: Vec<MessageView>,
    pub chosen: Option<ChosenView>,
    pub cluster: Option<ClusterView>,
    #[cfg(feature = "matchmaker")]
    pub matchmaking: Option<MatchmakingView>,
}

impl KeptBackView {
    fn has(&self, name: &str) -> bool {
        self.names.iter().any(|kept| kept == name)
    }

    fn keep(&mut self, name: &str) {
        if !self.has(name) {
            self.names.push(name.to_string());
        }
    }
}

/// Keeps back from `shown` what the step from `before` changed, and the node `asked` about.
pub(crate) fn keep_back<B: Board>(
    before: &B,
    by_hand: &ByHand,
    asked: Option<&str>,
    shown: &mut Shown,
) -> KeptBackView {
    let mut kept = KeptBackView::default();
    if let Some(asked) = asked {
        kept.keep(asked);
    }
    let nodes_before = before.nodes(by_hand);
    for node in &mut shown.nodes {
        let old = nodes_before.iter().find(|old| old.name == node.name);
        if old.is_none_or(|old| differs(node, old)) || kept.has(&node.name) {
            kept.keep(&node.name);
            *node = NodeView {
                name: node.name.clone(),
                role: old.map_or(node.role, |old| old.role),
                silent: node.silent,
                by_hand: node.by_hand,
                ..NodeView::default()
            };
        }
    }
    let chosen_before = before.chosen();
    if differs(&shown.chosen, &chosen_before) {
        kept.chosen = true;
        shown.chosen = chosen_before;
    }
    if let (Some(cluster), Some(old)) = (&mut shown.cluster, before.cluster()) {
        keep_back_cluster(cluster, old, &mut kept);
    }
    #[cfg(feature = "matchmaker")]
    if let (Some(matchmaking), Some(old)) = (&mut shown.matchmaking, before.matchmaking()) {
        keep_back_matchmaking(matchmaking, old, &mut kept);
    }
    let messages_before: Vec<u32> = before.messages(&[]).iter().map(|m| m.id).collect();
    let listed = shown.messages.len();
    shown.messages.retain(|message| {
        messages_before.contains(&message.id) && !kept.names.contains(&message.from)
    });
    kept.messages = listed - shown.messages.len();
    kept
}

/// The replicated log's share: the chosen log, the grid's slot in play and the proxies, each
/// as it was before the step where the step changed it. The clients and their timeline stay:
/// a client learns only by a reply, a message, and what it has learned is what a question
/// about a history states as its premise (`C2's read of x returned 1`).
fn keep_back_cluster(cluster: &mut ClusterView, old: ClusterView, kept: &mut KeptBackView) {
    if differs(&cluster.decided, &old.decided) {
        kept.chosen = true;
        cluster.decided = old.decided;
    }
    cluster.grid = old.grid;
    for proxy in &mut cluster.proxies {
        let old = old.proxies.iter().find(|old| old.name == proxy.name);
        if old.is_none_or(|old| differs(proxy, old)) || kept.has(&proxy.name) {
            kept.keep(&proxy.name);
            proxy.counting.clear();
        }
    }
}

/// Matchmaker Paxos's share: each matchmaker and leader the step changed by name only, and the
/// configurations as they were before it.
#[cfg(feature = "matchmaker")]
fn keep_back_matchmaking(
    view: &mut MatchmakingView,
    old: MatchmakingView,
    kept: &mut KeptBackView,
) {
    for matchmaker in &mut view.matchmakers {
        if old.matchmakers.iter().all(|old| differs(matchmaker, old)) || kept.has(&matchmaker.name)
        {
            kept.keep(&matchmaker.name);
            matchmaker.stored.clear();
            matchmaker.watermark = None;
        }
    }
    for leader in &mut view.leaders {
        if old.leaders.iter().all(|old| differs(leader, old)) || kept.has(&leader.name) {
            kept.keep(&leader.name);
            leader.history.clear();
            leader.promised_by.clear();
            leader.accepted_by.clear();
            leader.proposal = None;
            leader.gc_proof = None;
            leader.stage = "";
        }
    }
    view.configurations = old.configurations;
}
