// The stage: an SVG picture of the world, derived from the view and nothing else. It draws the
// same markup for the same view, animates nothing, and keeps no state of its own, so an undo
// that restores the view restores the picture exactly.
//
// Over a grid quorum system (`view.cluster.grid`) the log's nodes stand in the grid's rows and
// columns, each row and column drawn as a labelled band, and the column that decides the slot
// in play is marked.
//
// Act I: proposers stand in the top row and acceptors in the bottom row, with a wire from every
// proposer to every acceptor. The replicated log: clients on top, the nodes in a row joined by
// arcs, each node's log below it; proxy leaders (Act IV), if any, in a row of their own between
// the clients and the nodes, each wired to every node. Matchmaker Paxos (`view.matchmaking`):
// the matchmaker plane on top, the leaders under it, the acceptors at the bottom with each
// configuration drawn as a group of its members, the removed ones marked. A message in flight is a dot on its wire, near its sender;
// where wires meet or cross, a dot steps aside rather than hide another.

import { escape } from './text.js';

const WIDTH = 360;
const NODE_WIDTH = 110;
/** The least room a log node gets across the stage: past three nodes the stage widens, and
 *  each node narrows to this less a gap, so four fit side by side without touching. */
const LOG_NODE_STEP = 110;
const NODE_GAP = 10;
const PROPOSER_HEIGHT = 76;
const ACCEPTOR_HEIGHT = 58;
const SLOT_WIDTH = 64;
const SLOT_HEIGHT = 20;
const SLOT_STEP = 24;
const TOP = 10;
const GAP = 128;
const DOT_RADIUS = 10;
/** A dot that names its slot is a little larger, to hold the slot tag under the glyph. */
const SLOT_DOT_RADIUS = 12;
const CLIENT_HEIGHT = 30;
/** A proxy leader's box: its name line, then one line per (slot, ballot) it counts. */
const PROXY_WIDTH = 124;
const PROXY_LINE = 14;
/** The room between the proxies' row and the nodes' arcs, for dots on the wires. */
const PROXY_GAP = 70;
const LOG_NODE_HEIGHT = 76;
/** How high the arc between two neighbouring nodes rises above their row, and how much higher
 *  each node between them lifts it. High enough that a few dots fit along each direction. */
const ARC_BASE = 50;
const ARC_RISE = 25;
/** How far from a node's centre its arc to the next node leaves; each farther peer, as far again. */
const ARC_FOOT = 16;

/** The glyph in a message's dot, by kind. The legend under the stage explains them. */
export const GLYPHS = {
  prepare: ['1a', 'Prepare'],
  promise: ['1b', 'Promise'],
  accept: ['2a', 'Accept'],
  accepted: ['2b', 'Accepted'],
  nack: ['N', 'Nack'],
  heartbeat: ['hb', 'Heartbeat'],
  'heartbeat-ack': ['ha', 'Heartbeat ack'],
  chosen: ['ch', 'Chosen'],
  'slot-chosen': ['sc', 'Slot chosen (from a proxy)'],
  'trim-point': ['tp', 'Trim point'],
  handoff: ['ho', 'Handoff'],
  'read-index': ['ri', 'Read index'],
  'read-index-reply': ['rr', 'Read index reply'],
  write: ['W', 'Write'],
  read: ['R', 'Read'],
  reply: ['re', 'Reply'],
  'match-a': ['mA', 'MatchA (record my round)'],
  'match-b': ['mB', 'MatchB (the lower rounds)'],
  'garbage-a': ['gA', 'GarbageA (collect below)'],
  'garbage-b': ['gB', 'GarbageB (watermark)'],
  retire: ['rt', 'Retire (with the proof)'],
  stop: ['st', 'Stop'],
  'stop-b': ['sB', 'Stopped (its state)'],
  bootstrap: ['bs', 'Bootstrap'],
  'bootstrap-b': ['bB', 'Bootstrapped'],
};

/** The message kinds of Act I, always in its legend. */
export const SINGLE_DECREE_KINDS = ['prepare', 'promise', 'accept', 'accepted', 'nack'];

function columns(count, width = WIDTH, total = WIDTH) {
  const step = width / count;
  const margin = (total - width) / 2;
  return Array.from({ length: count }, (_, index) => margin + step * (index + 0.5));
}

const SINGLE_DECREE_ROLES = new Set(['proposer', 'acceptor']);

/** Where a wire meets a node: spread along its facing edge, one anchor per peer. */
function anchor(place, peerIndex, peerCount, edge) {
  const spread = Math.min(NODE_WIDTH - 24, 26 * (peerCount - 1));
  const offset = peerCount > 1 ? (peerIndex / (peerCount - 1) - 0.5) * spread : 0;
  return { x: place.x + offset, y: edge === 'top' ? place.y : place.y + place.height };
}

const wireKey = (a, b) => (a < b ? `${a}|${b}` : `${b}|${a}`);

function addWire(wires, a, b, start, end, control = null) {
  wires.set(wireKey(a, b), { a, b, start, end, control });
}

/** Act I: proposers in the top row, acceptors in the bottom row, a wire for every pair. */
function singleDecreeLayout(nodes) {
  const proposers = nodes.filter((node) => node.role === 'proposer');
  const acceptors = nodes.filter((node) => node.role !== 'proposer');
  const places = new Map();
  columns(proposers.length).forEach((x, index) => {
    places.set(proposers[index].name, { x, y: TOP, height: PROPOSER_HEIGHT, width: NODE_WIDTH, index });
  });
  const bottom = TOP + PROPOSER_HEIGHT + GAP;
  columns(acceptors.length).forEach((x, index) => {
    places.set(acceptors[index].name, { x, y: bottom, height: ACCEPTOR_HEIGHT, width: NODE_WIDTH, index });
  });
  const wires = new Map();
  for (const proposer of proposers) {
    for (const acceptor of acceptors) {
      const top = places.get(proposer.name);
      const low = places.get(acceptor.name);
      const start = anchor(top, low.index, acceptors.length, 'bottom');
      addWire(wires, proposer.name, acceptor.name, start, anchor(low, top.index, proposers.length, 'top'));
    }
  }
  return { places, wires, slotsTop: bottom + ACCEPTOR_HEIGHT + 6, slotNodes: acceptors, width: WIDTH };
}

/** The replicated log: clients on top, the nodes in a row with arcs between every two of them,
 *  and each node's log below it, slot by slot, so the same slot lines up across nodes. */
function logLayout(view) {
  const nodes = view.nodes;
  const proxies = view.cluster?.proxies || [];
  const known = new Set([...nodes, ...proxies].map((node) => node.name));
  const clientNames = new Set((view.cluster?.clients || []).map((client) => client.name));
  for (const message of view.messages) {
    for (const end of [message.from, message.to]) if (!known.has(end)) clientNames.add(end);
  }
  const clients = [...clientNames];
  const places = new Map();
  const width = Math.max(WIDTH, LOG_NODE_STEP * nodes.length);
  const nodeWidth = Math.min(NODE_WIDTH, width / nodes.length - NODE_GAP);
  const clientRow = clients.length ? CLIENT_HEIGHT + 96 : 0;
  columns(clients.length, Math.min(width, 90 * clients.length), width).forEach((x, index) => {
    places.set(clients[index], { x, y: TOP, height: CLIENT_HEIGHT, width: 64, index, client: true });
  });
  const proxyHeight = proxyBoxHeight(proxies);
  const proxyRow = proxies.length ? proxyHeight + PROXY_GAP : 0;
  columns(proxies.length, Math.min(width, (PROXY_WIDTH + 30) * proxies.length), width).forEach((x, index) => {
    const y = TOP + clientRow;
    places.set(proxies[index].name, { x, y, height: proxyHeight, width: PROXY_WIDTH, index, proxy: true });
  });
  // The arcs between nodes rise above the row, the farther apart the two nodes the higher.
  const nodesTop = TOP + clientRow + proxyRow + ARC_RISE * Math.max(0, nodes.length - 1);
  columns(nodes.length, width, width).forEach((x, index) => {
    places.set(nodes[index].name, { x, y: nodesTop, height: LOG_NODE_HEIGHT, width: nodeWidth, index });
  });
  const wires = new Map();
  nodes.forEach((first, i) => {
    nodes.slice(i + 1).forEach((second, offset) => {
      const [left, right] = [places.get(first.name), places.get(second.name)];
      // Each arc leaves a node at its own point: the farther the peer, the farther from centre.
      const out = ARC_FOOT * (offset + 1);
      const start = { x: left.x + out, y: left.y };
      const end = { x: right.x - out, y: right.y };
      const control = { x: (start.x + end.x) / 2, y: nodesTop - 2 * (ARC_BASE + ARC_RISE * offset) };
      addWire(wires, first.name, second.name, start, end, control);
    });
  });
  for (const client of clients) {
    const from = places.get(client);
    for (const node of nodes) {
      const to = places.get(node.name);
      // A client is half a node wide, so its wires leave at half a node's spread.
      const spread = anchor(from, to.index, nodes.length, 'bottom');
      const start = { x: from.x + (spread.x - from.x) / 2, y: spread.y };
      addWire(wires, client, node.name, start, { x: to.x, y: to.y });
    }
  }
  // Each proxy is wired to every node: straight down, a little to either side of the centre.
  for (const proxy of proxies) {
    const from = places.get(proxy.name);
    for (const node of nodes) {
      const to = places.get(node.name);
      const start = anchor(from, to.index, nodes.length, 'bottom');
      const end = anchor(to, from.index, proxies.length, 'top');
      addWire(wires, proxy.name, node.name, start, { x: end.x + (to.x - end.x) / 2, y: end.y });
    }
  }
  return { places, wires, slotsTop: nodesTop + LOG_NODE_HEIGHT + 6, slotNodes: nodes, clients, proxies, width };
}

/** Matchmaker Paxos: a matchmaker's or a leader's box is its name line and one line a fact. */
const MM_WIDTH = 112;
const MM_LINE = 13;
/** How many matchmakers a generation has, and so a row of the plane. */
const MM_GENERATION = 3;
/** The room between the rows of the matchmaker world, for dots on the wires. */
const MM_GAP = 84;
/** One configuration's row of the groups drawn under the acceptors. */
const GROUP_STEP = 22;
/** The roles an acceptor of the matchmaker world shows: in service, or retired (M5). */
const MM_ACCEPTOR_ROLES = new Set(['acceptor', 'retired']);

/** A matchmaker's lines: its watermark, then each round it stores and that round's configuration. */
function matchmakerLines(matchmaker) {
  if (!matchmaker.up) return ['down: its disk keeps', ...matchmaker.stored.map((item) => `${item.round} → ${item.config}`)];
  const stored = matchmaker.stored.map((item) => `${item.round} → ${item.config}`);
  return [`watermark ${matchmaker.watermark || '—'}`, ...(stored.length ? stored : ['stores nothing'])];
}

/** A leader's lines: its round and configuration, its stage, its history, what it heard. */
function leaderLines(leader) {
  const history = leader.history.map((item) => item.config).join(', ');
  const lines = [`${leader.round} in ${leader.config}`, leader.stage];
  if (leader.stage !== 'idle' && leader.stage !== 'matching') lines.push(`H: ${history || 'empty'}`);
  if (leader.stage === 'phase1') lines.push(`promised: ${leader.promised_by.join(' ') || 'none'}`);
  if (leader.stage === 'phase2' || leader.stage === 'chosen') lines.push(`votes: ${leader.accepted_by.join(' ') || 'none'}`);
  lines.push(leader.proposal == null ? `wants ${leader.value}` : `proposes ${leader.proposal}`);
  if (leader.gc_proof) lines.push(`GC proof ${leader.gc_proof}`);
  return lines;
}

/** Matchmaker Paxos: the matchmakers in a row on top, the leaders (and any other sender) under
 *  them, the acceptors at the bottom; every leader wired to every matchmaker and every acceptor,
 *  and the configurations drawn under the acceptors as groups, one row each. */
function matchmakerLayout(view) {
  const { matchmakers, leaders, configurations } = view.matchmaking;
  const acceptors = view.nodes.filter((node) => MM_ACCEPTOR_ROLES.has(node.role));
  const known = new Set([...matchmakers, ...leaders, ...acceptors].map((node) => node.name));
  const others = [];
  for (const message of view.messages) {
    for (const end of [message.from, message.to]) if (!known.has(end) && !others.includes(end)) others.push(end);
  }
  const middle = [...leaders.map((leader) => leader.name), ...others];
  // A generation of matchmakers is a row of its own, so the stage stays narrow on a phone.
  const perRow = Math.min(MM_GENERATION, matchmakers.length);
  const mmRows = Math.ceil(matchmakers.length / Math.max(1, perRow));
  const most = Math.max(perRow, middle.length, acceptors.length);
  const width = Math.max(WIDTH, (MM_WIDTH + 10) * most);
  const places = new Map();
  const mmHeight = 24 + MM_LINE * Math.max(2, ...matchmakers.map((matchmaker) => matchmakerLines(matchmaker).length));
  const mmStep = mmHeight + 12;
  const rowXs = columns(perRow, Math.min(width, (MM_WIDTH + 16) * perRow), width);
  matchmakers.forEach((matchmaker, index) => {
    const y = TOP + 14 + mmStep * Math.floor(index / perRow);
    places.set(matchmaker.name, { x: rowXs[index % perRow], y, height: mmHeight, width: MM_WIDTH, index });
  });
  const leadersTop = TOP + 14 + mmStep * mmRows - 12 + MM_GAP;
  const leaderHeight = 24 + MM_LINE * Math.max(2, ...leaders.map((leader) => leaderLines(leader).length));
  columns(middle.length, Math.min(width, (MM_WIDTH + 16) * middle.length), width).forEach((x, index) => {
    places.set(middle[index], { x, y: leadersTop, height: leaderHeight, width: MM_WIDTH, index });
  });
  const acceptorsTop = leadersTop + leaderHeight + MM_GAP;
  columns(acceptors.length, width, width).forEach((x, index) => {
    places.set(acceptors[index].name, { x, y: acceptorsTop, height: ACCEPTOR_HEIGHT, width: Math.min(NODE_WIDTH, width / acceptors.length - NODE_GAP), index });
  });
  const wires = new Map();
  middle.forEach((name) => {
    const from = places.get(name);
    for (const matchmaker of matchmakers) {
      const to = places.get(matchmaker.name);
      addWire(wires, name, matchmaker.name, anchor(from, to.index, matchmakers.length, 'top'), anchor(to, from.index, middle.length, 'bottom'));
    }
    for (const acceptor of acceptors) {
      const to = places.get(acceptor.name);
      addWire(wires, name, acceptor.name, anchor(from, to.index, acceptors.length, 'bottom'), anchor(to, from.index, middle.length, 'top'));
    }
  });
  const groupsTop = acceptorsTop + ACCEPTOR_HEIGHT + 10;
  const matchmaking = { acceptors, configurations, groupsTop, middle, others, planeTop: TOP };
  return { places, wires, slotsTop: groupsTop + GROUP_STEP * configurations.length + 4, slotNodes: [], width, matchmaking };
}

/** A matchmaker: its watermark and what it stores, round by round; marked when stopped or down. */
function drawMatchmaker(matchmaker, place, asking, keptBack) {
  const left = place.x - place.width / 2;
  const classes = ['pp-node', 'pp-matchmaker'];
  if (!matchmaker.up) classes.push('pp-down');
  if (matchmaker.stopped) classes.push('pp-stopped');
  if (asking) classes.push('pp-asking');
  const role = matchmaker.stopped ? 'stopped' : matchmaker.up ? 'matchmaker' : 'down';
  const lines = keptBack ? ['answer first'] : matchmakerLines(matchmaker);
  const title = keptBack ? `${matchmaker.name}: answer first` : `${matchmaker.name} ${role}: ${lines.join('; ')}`;
  return [
    `<g class="${classes.join(' ')}" data-node="${escape(matchmaker.name)}"><title>${escape(title)}</title>`,
    `<rect x="${round(left)}" y="${place.y}" width="${place.width}" height="${place.height}" rx="10"/>`,
    text(left + 8, place.y + 16, matchmaker.name, 'pp-node-name', 'start'),
    text(left + 16 + 11 * matchmaker.name.length, place.y + 16, role, 'pp-node-role', 'start'),
    ...lines.map((line, index) => text(left + 8, place.y + 31 + MM_LINE * index, line, 'pp-node-line', 'start')),
    '</g>',
  ].join('');
}

/** A leader of Matchmaker Paxos: its round and configuration, stage, history and what it heard. */
function drawMmLeader(leader, place, asking, keptBack) {
  const left = place.x - place.width / 2;
  const classes = ['pp-node', 'pp-mm-leader'];
  if (!leader.up) classes.push('pp-down');
  if (leader.stage === 'chosen') classes.push('pp-leader');
  if (asking) classes.push('pp-asking');
  const lines = keptBack ? ['answer first'] : leaderLines(leader);
  return [
    `<g class="${classes.join(' ')}" data-node="${escape(leader.name)}"><title>${escape(`${leader.name} leader: ${lines.join('; ')}`)}</title>`,
    `<rect x="${round(left)}" y="${place.y}" width="${place.width}" height="${place.height}" rx="8"/>`,
    text(left + 8, place.y + 16, leader.name, 'pp-node-name', 'start'),
    text(left + 16 + 11 * leader.name.length, place.y + 16, leader.up ? 'leader' : 'leader, down', 'pp-node-role', 'start'),
    ...lines.map((line, index) => text(left + 8, place.y + 31 + MM_LINE * index, line, 'pp-node-line', 'start')),
    '</g>',
  ].join('');
}

/** The matchmaker plane's band, and each configuration as a group under the acceptors: a chip
 *  under each member joined by a bar, a removed member's chip crossed out. */
function drawMatchmaking(view, geometry) {
  const { acceptors, configurations, groupsTop } = geometry.matchmaking;
  const mms = view.matchmaking.matchmakers;
  const parts = [];
  if (mms.length) {
    const placed = mms.map((matchmaker) => geometry.places.get(matchmaker.name));
    const first = placed[0];
    const left = Math.min(...placed.map((place) => place.x - place.width / 2)) - 8;
    const right = Math.max(...placed.map((place) => place.x + place.width / 2)) + 8;
    const bottom = Math.max(...placed.map((place) => place.y + place.height)) + 8;
    parts.push(
      `<g class="pp-plane"><rect x="${round(left)}" y="${TOP}" width="${round(right - left)}" height="${round(bottom - TOP)}" rx="12"/>` +
        text(left + 8, TOP + 11, 'matchmaker plane', 'pp-grid-label', 'start') + '</g>',
    );
  }
  configurations.forEach((config, row) => {
    const y = groupsTop + GROUP_STEP * row;
    const xs = acceptors.map((node) => geometry.places.get(node.name).x);
    const memberXs = acceptors.map((node, index) => (config.members.includes(node.name) ? xs[index] : null)).filter((x) => x != null);
    const classes = ['pp-config'];
    if (config.collected) classes.push('pp-collected');
    const what = `${config.name}: ${config.members.join(', ')}, round ${config.rounds.join(', ')}` +
      `${config.removed.length ? `; removed: ${config.removed.join(', ')}` : ''}${config.collected ? '; collected' : ''}`;
    const bar = memberXs.length > 1
      ? `<path class="pp-config-bar" d="M${round(Math.min(...memberXs))} ${round(y + 8)} L${round(Math.max(...memberXs))} ${round(y + 8)}"/>`
      : '';
    const chips = acceptors
      .filter((node) => config.members.includes(node.name))
      .map((node) => {
        const x = geometry.places.get(node.name).x;
        const removed = config.removed.includes(node.name);
        return `<g class="pp-config-member${removed ? ' pp-removed' : ''}"><rect x="${round(x - 17)}" y="${round(y)}" width="34" height="16" rx="8"/>` +
          text(x, y + 12, removed ? `${node.name} ✕` : node.name, 'pp-config-name') + '</g>';
      })
      .join('');
    parts.push(
      `<g class="${classes.join(' ')}" data-config="${escape(config.name)}"><title>${escape(what)}</title>${bar}${chips}` +
        text(4, y + 12, config.name, 'pp-config-label', 'start') + '</g>',
    );
  });
  return parts.join('');
}

/** A proxy box's height: room for its name and the most lines any proxy counts (at least one). */
function proxyBoxHeight(proxies) {
  const lines = Math.max(1, ...proxies.map((proxy) => proxy.counting.length));
  return 26 + PROXY_LINE * lines;
}

/** A grid's side margins, where the row labels stand. */
const GRID_SIDE = 46;
/** The room each grid column takes across the stage. */
const GRID_COLUMN_STEP = 170;
/** The room between one grid row's log and the next row's nodes, for dots on the wires. */
const GRID_ROW_GAP = 44;
/** Where a grid node's wires leave it, from its centre: down its column, and across. */
const GRID_DOWN_FOOT = 46;
const GRID_CROSS_FOOT = 36;

/** The replicated log over a grid: clients on top, then the nodes in the grid's rows and
 *  columns, each with its log below it, and a wire between every two nodes that keeps clear of
 *  the logs: across a row between the boxes, down a column beside the slots, diagonally
 *  between the columns. */
function gridLayout(view, slotRows) {
  const grid = view.cluster.grid;
  const nodes = view.nodes;
  const known = new Set(nodes.map((node) => node.name));
  const clientNames = new Set((view.cluster?.clients || []).map((client) => client.name));
  for (const message of view.messages) {
    for (const end of [message.from, message.to]) if (!known.has(end)) clientNames.add(end);
  }
  const clients = [...clientNames];
  const columnCount = grid.columns.length;
  const width = Math.max(WIDTH, 2 * GRID_SIDE + GRID_COLUMN_STEP * columnCount);
  const nodeWidth = NODE_WIDTH;
  const places = new Map();
  const clientRow = clients.length ? CLIENT_HEIGHT + 60 : 0;
  columns(clients.length, Math.min(width, 90 * clients.length), width).forEach((x, index) => {
    places.set(clients[index], { x, y: TOP, height: CLIENT_HEIGHT, width: 64, index, client: true });
  });
  const labelsTop = TOP + clientRow;
  const firstRowTop = labelsTop + 26;
  const rowStep = LOG_NODE_HEIGHT + 6 + SLOT_STEP * slotRows + GRID_ROW_GAP;
  const columnX = (column) => GRID_SIDE + GRID_COLUMN_STEP * (column + 0.5);
  grid.rows.forEach((row, rowIndex) => {
    row.forEach((name, column) => {
      const y = firstRowTop + rowStep * rowIndex;
      places.set(name, {
        x: columnX(column), y, height: LOG_NODE_HEIGHT, width: nodeWidth,
        index: nodes.findIndex((node) => node.name === name),
        row: rowIndex, column, slotsTop: y + LOG_NODE_HEIGHT + 6,
      });
    });
  });
  const wires = new Map();
  const gridNames = grid.rows.flat();
  gridNames.forEach((first, i) => {
    for (const second of gridNames.slice(i + 1)) {
      const [a, b] = [places.get(first), places.get(second)];
      const [start, end, control] = gridWire(a, b);
      addWire(wires, first, second, start, end, control);
    }
  });
  for (const client of clients) {
    const from = places.get(client);
    for (const name of gridNames) {
      const to = places.get(name);
      const start = { x: from.x, y: from.y + from.height };
      if (to.row === 0) {
        addWire(wires, client, name, start, { x: to.x, y: to.y });
      } else {
        // A lower row is reached round the outside of the grid, clear of the rows above.
        const left = to.column < columnCount / 2;
        const end = { x: left ? to.x - to.width / 2 : to.x + to.width / 2, y: to.y + 20 };
        addWire(wires, client, name, start, end, { x: left ? 2 : width - 2, y: end.y - rowStep / 2 });
      }
    }
  }
  const lastRowTop = firstRowTop + rowStep * (grid.rows.length - 1);
  return {
    places, wires, slotsTop: lastRowTop + LOG_NODE_HEIGHT + 6, slotNodes: nodes, clients, width,
    grid: { labelsTop, firstRowTop, rowStep, columnX, lastRowTop },
  };
}

/** The wire between two grid nodes, `a` in an earlier row (or the same row, to the left). */
function gridWire(a, b) {
  if (a.row === b.row) {
    const [left, right] = a.x < b.x ? [a, b] : [b, a];
    const y = a.y + 26;
    const start = { x: left.x + left.width / 2, y };
    const end = { x: right.x - right.width / 2, y };
    const apart = Math.abs(a.column - b.column);
    const control = apart > 1 ? { x: (start.x + end.x) / 2, y: y - 30 * apart } : null;
    return a.x < b.x ? [start, end, control] : [end, start, control];
  }
  if (a.column === b.column) {
    const x = a.x + GRID_DOWN_FOOT;
    const start = { x, y: a.y + a.height };
    const end = { x, y: b.y };
    const apart = Math.abs(a.row - b.row);
    const control = apart > 1 ? { x: x + 20, y: (start.y + end.y) / 2 } : null;
    return [start, end, control];
  }
  const towards = b.x > a.x ? 1 : -1;
  return [{ x: a.x + towards * GRID_CROSS_FOOT, y: a.y + a.height }, { x: b.x - towards * GRID_CROSS_FOOT, y: b.y }, null];
}

/** The grid's bands and labels, drawn under the nodes: a band for each row (a full row
 *  elects) and each column (a full column decides its slots), the deciding column of the slot
 *  in play marked. */
function drawGrid(view, geometry) {
  const grid = view.cluster.grid;
  const { labelsTop, firstRowTop, rowStep, columnX, lastRowTop } = geometry.grid;
  const inPlay = grid.in_play;
  const bandWidth = NODE_WIDTH + 14;
  const columnBottom = lastRowTop + LOG_NODE_HEIGHT + 6;
  const parts = ['<g class="pp-grid">'];
  grid.rows.forEach((row, index) => {
    const top = firstRowTop + rowStep * index - 5;
    parts.push(
      `<g class="pp-grid-row" data-row="${index + 1}"><title>${escape(`row ${index + 1}: ${row.join(', ')}; a full row elects`)}</title>` +
        `<rect x="${GRID_SIDE - 6}" y="${round(top)}" width="${round(geometry.width - 2 * GRID_SIDE + 12)}" height="${LOG_NODE_HEIGHT + 10}" rx="10"/>` +
        text(GRID_SIDE / 2 - 2, top + (LOG_NODE_HEIGHT + 10) / 2 - 2, 'row', 'pp-grid-label') +
        text(GRID_SIDE / 2 - 2, top + (LOG_NODE_HEIGHT + 10) / 2 + 12, String(index + 1), 'pp-grid-label') +
        '</g>',
    );
  });
  grid.columns.forEach((column, index) => {
    const deciding = index === inPlay.column;
    const slots = grid.slots.filter((slot) => slot.column === index).map((slot) => slot.slot);
    const decides = slots.length ? `decides slot${slots.length > 1 ? 's' : ''} ${slots.join(', ')}` : 'decides no slot yet';
    const label = deciding ? `column ${index + 1} · slot ${inPlay.slot}` : `column ${index + 1}`;
    const x = columnX(index);
    parts.push(
      `<g class="pp-grid-column${deciding ? ' pp-grid-deciding' : ''}" data-column="${index + 1}"${deciding ? ` data-slot="${inPlay.slot}"` : ''}>` +
        `<title>${escape(`column ${index + 1}: ${column.join(', ')}; ${decides}${deciding ? `; decides slot ${inPlay.slot}, the slot in play` : ''}`)}</title>` +
        `<rect x="${round(x - bandWidth / 2)}" y="${round(labelsTop)}" width="${bandWidth}" height="${round(columnBottom - labelsTop)}" rx="10"/>` +
        text(x, labelsTop + 15, label, 'pp-grid-label') +
        '</g>',
    );
  });
  parts.push('</g>');
  return parts.join('');
}

/** Positions every node and wire, and the height the slot columns need below. */
function layout(view) {
  const singleDecree = view.nodes.every((node) => SINGLE_DECREE_ROLES.has(node.role));
  const slotNodes = singleDecree ? view.nodes.filter((node) => node.role !== 'proposer') : view.nodes;
  const numbers = slotNodes.flatMap((node) => node.slots.map((slot) => slot.slot ?? 1));
  const firstSlot = numbers.length ? Math.min(...numbers) : 1;
  const rows = numbers.length ? Math.max(...numbers) - firstSlot + 1 : 0;
  let geometry;
  if (view.matchmaking) geometry = matchmakerLayout(view);
  else if (singleDecree) geometry = singleDecreeLayout(view.nodes);
  else if (view.cluster?.grid) geometry = gridLayout(view, rows);
  else geometry = logLayout(view);
  geometry.firstSlot = firstSlot;
  geometry.height = geometry.slotsTop + SLOT_STEP * rows + 8;
  return geometry;
}

/** The point a fraction `along` of the way from `from`'s end of a wire. */
function pointOn(wire, from, along) {
  const t = wire.a === from ? along : 1 - along;
  const { start, end, control } = wire;
  if (!control) return { x: start.x + (end.x - start.x) * t, y: start.y + (end.y - start.y) * t };
  const u = 1 - t;
  return {
    x: u * u * start.x + 2 * u * t * control.x + t * t * end.x,
    y: u * u * start.y + 2 * u * t * control.y + t * t * end.y,
  };
}

function round(number) {
  return Math.round(number * 10) / 10;
}

function text(x, y, content, cls, anchorAt = 'middle') {
  return `<text class="${cls}" x="${round(x)}" y="${round(y)}" text-anchor="${anchorAt}">${escape(content)}</text>`;
}

function drawWires(geometry, silent) {
  return [...geometry.wires.values()]
    .map((wire) => {
      const cls = silent.has(wire.a) || silent.has(wire.b) ? 'pp-wire pp-cut' : 'pp-wire';
      const { start, end, control } = wire;
      const path = control
        ? `M${round(start.x)} ${round(start.y)} Q${round(control.x)} ${round(control.y)} ${round(end.x)} ${round(end.y)}`
        : `M${round(start.x)} ${round(start.y)} L${round(end.x)} ${round(end.y)}`;
      return `<path class="${cls}" d="${path}"/>`;
    })
    .join('');
}

const SLOT_STATES = ['chosen', 'hole', 'undecided', 'empty', 'trimmed'];

function slotBox(slot, x, y) {
  const state = SLOT_STATES.includes(slot.state) ? slot.state : 'empty';
  // A hole the node holds a vote in shows the vote: the hole is that nobody knows it chosen.
  const voted = slot.value != null && slot.value !== '';
  const label = state === 'trimmed' ? 'trimmed' : state === 'hole' && !voted ? 'hole' : slotLabel(slot);
  return (
    `<g class="pp-slot pp-slot-${state}"><title>${escape(slotTitle(state, slot))}</title>` +
    text(x - SLOT_WIDTH / 2 - 4, y + 14, String(slot.slot ?? 1), 'pp-slot-number', 'end') +
    `<rect x="${round(x - SLOT_WIDTH / 2)}" y="${round(y)}" width="${SLOT_WIDTH}" height="${SLOT_HEIGHT}" rx="3"/>` +
    text(x, y + 14, label, 'pp-slot-value') +
    '</g>'
  );
}

/** What fits in a box: `x 1.P1` in Act I; a log entry's command alone (`a=1`), cut to fit; a
 *  trim as `trim ≤K` (its full words, `trim through K`, are in the box's title). */
function slotLabel(slot) {
  if (slot.value == null || slot.value === '') return 'no vote';
  const trim = /^trim through (\d+)$/.exec(String(slot.value));
  if (trim) return `trim ≤${trim[1]}`;
  const value = String(slot.value).split(' (')[0];
  const withBallot = slot.ballot ? `${value} ${slot.ballot}` : value;
  if (withBallot.length <= 9) return withBallot;
  return value.length <= 9 ? value : `${value.slice(0, 8)}…`;
}

function slotTitle(state, slot) {
  const where = `slot ${slot.slot ?? 1}`;
  const vote = slot.value == null ? '' : ` ${slot.value}${slot.ballot ? ` at ${slot.ballot}` : ''}`;
  if (state === 'chosen') return `${where}: chosen${vote}`;
  if (state === 'hole') return `${where}: a hole${vote ? `, voted${vote} but not known chosen` : ''}`;
  if (state === 'trimmed') return `${where}: trimmed, at or below the floor: decided, applied and kept only in the trim point`;
  if (state === 'undecided') return `${where}: undecided, voted${vote}`;
  return `${where}: no vote`;
}

/** A node's log as a column of slot boxes under it, slot number on the left; a slot sits at
 *  the same height under every node (Act I: one box). */
function slotColumn(node, place, geometry) {
  return node.slots
    .map((slot) => slotBox(slot, place.x, (place.slotsTop ?? geometry.slotsTop) + SLOT_STEP * ((slot.slot ?? 1) - geometry.firstSlot)))
    .join('');
}

const record = (vote) => (vote ? `${vote.ballot} ${vote.value}` : '');
const names = (list) => list.map((item) => item.from || item).join(' ');

function nodeLines(node) {
  if (node.role === 'proposer') {
    const phase = `${node.phase === 'learned' ? 'ballot' : node.phase || 'idle'}${node.ballot ? ` ${node.ballot}` : ''}`;
    let heard = '';
    if (node.phase === 'preparing') heard = `promises: ${names(node.promises || []) || 'none'}`;
    if (node.phase === 'accepting') heard = `votes: ${names(node.accepted_by || []) || 'none'}`;
    let value = `wants ${node.value ?? '?'}`;
    if (node.proposal != null) value = `proposes ${node.proposal}`;
    if (node.learned != null) value = `learned ${node.learned}`;
    return [phase, heard, value];
  }
  if (node.role === 'acceptor' || node.role === 'retired') {
    return [`promised ${node.promised || '—'}`, node.accepted ? `voted ${record(node.accepted)}` : 'no vote'];
  }
  // A disk a storage fault reached says so in words (`disk wiped`), not by its outline alone.
  const disk = node.disk?.fault ? node.disk.fault.mark : 'disk only';
  if (node.up === false) return [`promised ${node.promised || '—'}`, `down: ${disk}${node.floor ? ` · floor ${node.floor}` : ''}`];
  // Up with a record it cannot read (a vote unknown), the mark takes the chosen index's line:
  // the slot column still shows what is chosen.
  let second = node.chosen_index == null ? '' : `chosen to ${node.chosen_index}`;
  if (node.disk?.fault) second = node.disk.fault.mark;
  return [
    `promised ${node.promised || '—'}`,
    second,
    node.applied_index == null ? '' : `applied to ${node.applied_index}${node.floor ? ` · floor ${node.floor}` : ''}`,
  ];
}

/** A node card's line of 11 px text, cut with `…` to the card's inner `width` when it would run
 *  past it (at most 0.62 em a character); the whole line is its title, and the world panel
 *  beside the stage says it in full. */
function fittedLine(x, y, content, width) {
  const fits = Math.floor(width / (11 * 0.62));
  if (content.length <= fits) return text(x, y, content, 'pp-node-line', 'start');
  return `<text class="pp-node-line" x="${round(x)}" y="${round(y)}" text-anchor="start"><title>${escape(content)}</title>${escape(`${content.slice(0, fits - 1).trimEnd()}…`)}</text>`;
}

/** The election arc: a ring that fills as a node's ticks approach its election timeout. */
function electionArc(node, right, top) {
  if (node.ticks == null || !node.timeout_ticks || node.up === false) return '';
  const filled = Math.min(100, Math.round((100 * node.ticks) / node.timeout_ticks));
  const [x, y] = [round(right - 14), round(top + 14)];
  return (
    `<g class="pp-arc"><title>${escape(`${node.ticks} of ${node.timeout_ticks} ticks toward an election`)}</title>` +
    `<circle class="pp-arc-track" cx="${x}" cy="${y}" r="8"/>` +
    `<circle class="pp-arc-fill" cx="${x}" cy="${y}" r="8" pathLength="100" stroke-dasharray="${filled} 100" transform="rotate(-90 ${x} ${y})"/>` +
    '</g>'
  );
}

function drawClient(name, place) {
  const left = place.x - place.width / 2;
  return (
    `<g class="pp-node pp-client" data-node="${escape(name)}">` +
    `<rect x="${round(left)}" y="${place.y}" width="${place.width}" height="${place.height}" rx="15"/>` +
    text(place.x, place.y + 19, name, 'pp-node-name') +
    '</g>'
  );
}

/** A proxy leader: its name, up or down, and what it counts; kept back while a question is
 *  about it, since its counts may be the answer. */
function drawProxy(proxy, place, asking, keptBack) {
  const left = place.x - place.width / 2;
  const classes = ['pp-node', 'pp-proxy'];
  if (!proxy.up) classes.push('pp-down');
  if (asking) classes.push('pp-asking');
  const lines = keptBack ? ['answer first'] : proxy.up ? proxy.counting : ['crashed: it kept nothing'];
  return [
    `<g class="${classes.join(' ')}" data-node="${escape(proxy.name)}">`,
    `<rect x="${round(left)}" y="${place.y}" width="${place.width}" height="${place.height}" rx="14"/>`,
    text(left + 8, place.y + 17, proxy.name, 'pp-node-name', 'start'),
    text(left + 8 + 8 * proxy.name.length + 6, place.y + 17, proxy.up ? 'proxy' : 'proxy, down', 'pp-node-role', 'start'),
    ...(lines.length ? lines : ['counting nothing']).map((line, index) =>
      text(left + 8, place.y + 32 + PROXY_LINE * index, line, 'pp-node-line', 'start')),
    '</g>',
  ].join('');
}

function drawNode(node, place, asking, geometry, keptBack) {
  const left = place.x - place.width / 2;
  const classes = ['pp-node', `pp-${node.role}`];
  if (node.silent) classes.push('pp-silent');
  if (node.up === false) classes.push('pp-down');
  if (node.disk?.fault) classes.push('pp-disk-fault');
  if (node.by_hand) classes.push('pp-by-hand');
  if (asking) classes.push('pp-asking');
  const parts = [
    `<g class="${classes.join(' ')}" data-node="${escape(node.name)}">`,
    `<rect x="${round(left)}" y="${place.y}" width="${round(place.width)}" height="${place.height}" rx="8"/>`,
    text(left + 8, place.y + 17, node.name, 'pp-node-name', 'start'),
    text(left + 8 + 8 * node.name.length + 6, place.y + 17, node.silent ? 'silent' : node.role, 'pp-node-role', 'start'),
  ];
  // Kept back by the view while a question is open: its state may be the answer.
  (keptBack ? ['answer first'] : nodeLines(node))
    .filter(Boolean)
    .forEach((content, index) => {
      parts.push(fittedLine(left + 8, place.y + 36 + 15 * index, content, place.width - 12));
    });
  parts.push(electionArc(node, left + place.width, place.y), '</g>');
  if (!keptBack) parts.push(slotColumn(node, place, geometry));
  return parts.join('');
}

/** Places every message on its wire, spread from the sender's end toward the receiver's. */
function placeMessages(view, geometry) {
  const byWire = new Map();
  for (const message of view.messages) {
    const key = `${message.from}>${message.to}`;
    if (!geometry.wires.has(wireKey(message.from, message.to))) continue;
    if (!byWire.has(key)) byWire.set(key, []);
    byWire.get(key).push(message);
  }
  // Each direction keeps to the part of the wire nearest its sender, one dot-width apart; the
  // dots that do not fit there stack beside the wire, so none hides another on a short wire.
  // Beside an arc they stack on its outer side, away from the nodes it joins.
  const [first, last] = [0.1, 0.42];
  const wanted = [];
  for (const messages of byWire.values()) {
    const spacing = Math.max(...messages.map(dotRadius)) * 2.3;
    const { from, to } = messages[0];
    const wire = geometry.wires.get(wireKey(from, to));
    const chord = Math.max(1, Math.hypot(wire.end.x - wire.start.x, wire.end.y - wire.start.y));
    let normal = { x: -(wire.end.y - wire.start.y) / chord, y: (wire.end.x - wire.start.x) / chord };
    if (wire.control && normal.y > 0) normal = { x: -normal.x, y: -normal.y };
    const fit = Math.max(1, Math.floor(((last - first) * wireLength(wire)) / spacing) + 1);
    messages.forEach((message, index) => {
      const along = first + (index % fit) * (fit > 1 ? (last - first) / (fit - 1) : 0);
      const row = Math.floor(index / fit);
      const side = wire.control ? row : Math.ceil(row / 2) * (row % 2 === 0 ? 1 : -1);
      const point = pointOn(wire, from, along);
      wanted.push({ message, normal, x: point.x + normal.x * side * spacing, y: point.y + normal.y * side * spacing });
    });
  }
  return separate(wanted.sort((a, b) => a.message.id - b.message.id));
}

/** Where wires cross or meet, dots of different wires can land on one another: in id order,
 *  each dot that would cover one already placed steps away beside its wire until it is clear
 *  (for a dozen steps at most), so every dot can be seen and clicked. */
function separate(wanted) {
  const placed = [];
  for (const { message, normal, x, y } of wanted) {
    const radius = dotRadius(message);
    const clear = (atX, atY) =>
      placed.every((other) => Math.hypot(other.x - atX, other.y - atY) >= radius + dotRadius(other.message) + 1);
    let [dx, dy] = [0, 0];
    for (let step = 1; step <= 12 && !clear(x + dx, y + dy); step += 1) {
      const reach = Math.ceil(step / 2) * DOT_RADIUS * (step % 2 === 1 ? 1 : -1);
      [dx, dy] = [normal.x * reach, normal.y * reach];
    }
    placed.push({ message, x: x + dx, y: y + dy });
  }
  return placed;
}

/** A wire's length: along its curve, for an arc. */
function wireLength(wire) {
  const steps = wire.control ? 16 : 1;
  let length = 0;
  let previous = wire.start;
  for (let step = 1; step <= steps; step += 1) {
    const point = pointOn(wire, wire.a, step / steps);
    length += Math.hypot(point.x - previous.x, point.y - previous.y);
    previous = point;
  }
  return length;
}

/** A message's name as players read it: `m3 P1→A2 Prepare(1.P1)`. */
export function describeMessage(message) {
  return `m${message.id} ${message.from}→${message.to} ${message.text}`;
}

/** A dot's radius: larger when it names a slot. */
function dotRadius(message) {
  return message.slot == null ? DOT_RADIUS : SLOT_DOT_RADIUS;
}

/** The slot a message is about, as its dot shows it (`s2`), or '' for one about no slot. */
function slotTag(message) {
  return message.slot == null ? '' : `s${message.slot}`;
}

/** What a dot shows, glyph and slot tag, as its accessible name begins: `2a s2`. */
export function dotText(message) {
  const glyph = GLYPHS[message.kind]?.[0] || '•';
  return [glyph, slotTag(message)].filter(Boolean).join(' ');
}

/** The glyph and, under it, the slot tag, as one text whose words are apart (`2a s1`), so the
 *  dot's visible text is where its accessible name begins. */
function dotLabel(x, y, glyphY, glyph, tag) {
  if (!tag) return text(x, glyphY, glyph, 'pp-dot-glyph');
  const line = (dy, content, cls) => `<tspan class="${cls}" x="${round(x)}" y="${round(y + dy)}">${escape(content)}</tspan>`;
  return `<text class="pp-dot-glyph" text-anchor="middle">${line(glyphY - y, glyph, 'pp-dot-glyph')} ${line(8, tag, 'pp-dot-slot')}</text>`;
}

function drawMessage({ message, x, y }, held) {
  const playable = message.actions.length > 0;
  const kind = GLYPHS[message.kind] ? message.kind : 'other';
  let classes = `pp-dot pp-kind-${kind}${playable ? '' : ' pp-dot-stuck'}`;
  if (message.cut) classes += ' pp-dot-cut';
  if (message.id === held) classes += ' pp-dot-held';
  const why = message.cut ? ' (cut wire: it cannot be delivered)' : '';
  // The accessible name begins with what the dot shows, so a voice command naming it works.
  const label = `${dotText(message)}: ${describeMessage(message)}${why}`;
  const focus = playable
    ? ` tabindex="0" role="button" aria-label="${escape(label)}, press Enter to deliver"`
    : ` role="img" aria-label="${escape(label)}"`;
  const tag = slotTag(message);
  // The slot tag sits inside the dot's lower half, under the glyph, so it moves with the dot
  // and never lands on a neighbour.
  const glyphY = tag ? y - 1 : y + 3.5;
  return (
    `<g class="${classes}" data-msg="${message.id}"${tag ? ` data-slot="${message.slot}"` : ''}${focus}>` +
    `<title>${escape(label)}</title>` +
    `<circle cx="${round(x)}" cy="${round(y)}" r="${dotRadius(message)}"/>` +
    dotLabel(x, y, glyphY, GLYPHS[message.kind]?.[0] || '•', tag) +
    '</g>'
  );
}

/**
 * The stage's summary: the chosen value (Act I) or the chosen log (Act II), both judged from the
 * votes, with who voted: `chosen: 1 a=1 (C1#1) by N2, N3`. While the view keeps back what a
 * question's step changed (`kept_back`), the line says so, and how many messages it holds back.
 */
function summary(view, width) {
  if (view.kept_back) {
    const held = view.kept_back.messages;
    const wire = held ? [`${held} message${held === 1 ? '' : 's'} held back: answer first`] : [];
    return ['what is chosen shows once you answer', ...wire];
  }
  if (view.chosen) {
    return [`chosen: ${view.chosen.value} at ${view.chosen.ballot} by ${(view.chosen.by || []).join(', ')}`];
  }
  const decided = view.cluster?.decided;
  if (decided?.length) {
    return wrap(['chosen:', ...decided.map((slot) => `${slot.slot} ${slot.entry} by ${(slot.by || []).join(', ')}`)], width);
  }
  return ['nothing chosen yet'];
}

/** About as many characters as one line of the summary holds across a stage of `WIDTH`. */
const SUMMARY_LINE = 54;

/** Parts joined with ` · ` into lines that fit a stage `width` wide; a part is never cut. */
function wrap([head, ...parts], width) {
  const most = Math.floor((SUMMARY_LINE * width) / WIDTH);
  const lines = [];
  let line = head;
  for (const part of parts) {
    const joined = line === head ? `${line} ${part}` : `${line} · ${part}`;
    if (joined.length <= most || line === head) {
      line = joined;
    } else {
      lines.push(`${line} ·`);
      line = part;
    }
  }
  lines.push(line);
  return lines;
}

/** The summary under the stage, one `tspan` a line, as one text element. */
function summaryText(lines, top, done, width) {
  const spans = lines
    .map((line, index) => `<tspan x="${width / 2}" dy="${index ? 15 : 0}">${escape(index ? ` ${line}` : line)}</tspan>`)
    .join('');
  return `<text class="${done ? 'pp-chosen pp-chosen-yes' : 'pp-chosen'}" x="${width / 2}" y="${round(top)}" text-anchor="middle">${spans}</text>`;
}

/** The stage's SVG markup for a view. */
export function renderStage(view) {
  const geometry = layout(view);
  const silent = new Set(view.nodes.filter((node) => node.silent).map((node) => node.name));
  const asking = view.prompt ? view.prompt.node : null;
  const held = view.prompt ? view.prompt.message : null;
  // The view keeps back, by name, whatever the step behind an open question changed.
  const kept = new Set(view.kept_back?.names || []);
  const lines = summary(view, geometry.width);
  const done = Boolean(view.chosen || view.cluster?.decided?.length) && !view.kept_back;
  const height = geometry.height + 20 + 15 * (lines.length - 1);
  return [
    `<svg class="pp-stage" viewBox="0 0 ${geometry.width} ${height}" role="group" aria-label="The world: ${escape(lines.join(' '))}">`,
    geometry.grid ? drawGrid(view, geometry) : '',
    geometry.matchmaking ? drawMatchmaking(view, geometry) : '',
    drawWires(geometry, silent),
    ...(geometry.matchmaking ? view.matchmaking.matchmakers : []).map((matchmaker) =>
      drawMatchmaker(matchmaker, geometry.places.get(matchmaker.name), matchmaker.name === asking, kept.has(matchmaker.name))),
    ...(geometry.matchmaking ? view.matchmaking.leaders : []).map((leader) =>
      drawMmLeader(leader, geometry.places.get(leader.name), leader.name === asking, kept.has(leader.name))),
    ...(geometry.matchmaking?.others || []).map((name) => drawClient(name, geometry.places.get(name))),
    ...(geometry.clients || []).map((name) => drawClient(name, geometry.places.get(name))),
    ...(geometry.proxies || []).map((proxy) =>
      drawProxy(proxy, geometry.places.get(proxy.name), proxy.name === asking, kept.has(proxy.name))),
    ...view.nodes.filter((node) => geometry.places.has(node.name) && !(geometry.matchmaking && !MM_ACCEPTOR_ROLES.has(node.role)))
      .map((node) => drawNode(node, geometry.places.get(node.name), node.name === asking, geometry, kept.has(node.name))),
    ...placeMessages(view, geometry).map((placed) => drawMessage(placed, held)),
    summaryText(lines, geometry.height + 12, done, geometry.width),
    '</svg>',
  ].join('');
}
