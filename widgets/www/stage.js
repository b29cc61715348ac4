// The stage: an SVG picture of the world, derived from the view and nothing else. It draws the
// same markup for the same view, animates nothing, and keeps no state of its own, so an undo
// that restores the view restores the picture exactly.
//
// Proposers stand in the top row and acceptors in the bottom row; a wire joins every proposer
// to every acceptor. A message in flight is a dot on its wire, near the node that sent it.

import { escape } from './text.js';

const WIDTH = 360;
const NODE_WIDTH = 110;
const PROPOSER_HEIGHT = 76;
const ACCEPTOR_HEIGHT = 58;
const SLOT_WIDTH = 64;
const SLOT_HEIGHT = 20;
const SLOT_STEP = 24;
const TOP = 10;
const GAP = 128;
const DOT_RADIUS = 10;

/** The glyph in a message's dot, by kind. The legend under the stage explains them. */
export const GLYPHS = {
  prepare: ['1a', 'Prepare'],
  promise: ['1b', 'Promise'],
  accept: ['2a', 'Accept'],
  accepted: ['2b', 'Accepted'],
  nack: ['N', 'Nack'],
};

function columns(count) {
  const step = WIDTH / count;
  return Array.from({ length: count }, (_, index) => step * (index + 0.5));
}

/** Positions every node: proposers on top, acceptors (and anything else) below. */
function layout(nodes) {
  const proposers = nodes.filter((node) => node.role === 'proposer');
  const others = nodes.filter((node) => node.role !== 'proposer');
  const places = new Map();
  columns(proposers.length).forEach((x, index) => {
    places.set(proposers[index].name, { x, y: TOP, height: PROPOSER_HEIGHT, row: 0, index });
  });
  const bottom = TOP + PROPOSER_HEIGHT + GAP;
  columns(others.length).forEach((x, index) => {
    places.set(others[index].name, { x, y: bottom, height: ACCEPTOR_HEIGHT, row: 1, index });
  });
  const slots = Math.max(0, ...others.map((node) => node.slots.length));
  const logHeight = slots ? 6 + SLOT_STEP * slots : 0;
  return { places, height: bottom + ACCEPTOR_HEIGHT + logHeight + 8, proposers, others };
}

/** Where a wire leaves a node: spread along its facing edge, one anchor per peer. */
function anchor(place, peerIndex, peerCount) {
  const spread = Math.min(NODE_WIDTH - 24, 26 * (peerCount - 1));
  const offset = peerCount > 1 ? (peerIndex / (peerCount - 1) - 0.5) * spread : 0;
  const y = place.row === 0 ? place.y + place.height : place.y;
  return { x: place.x + offset, y };
}

function wireEnds(places, a, b, counts) {
  const from = places.get(a);
  const to = places.get(b);
  const top = from.row === 0 ? from : to;
  const bottom = from.row === 0 ? to : from;
  const topEnd = anchor(top, bottom.index, counts[1]);
  const bottomEnd = anchor(bottom, top.index, counts[0]);
  return from.row === 0 ? [topEnd, bottomEnd] : [bottomEnd, topEnd];
}

function round(number) {
  return Math.round(number * 10) / 10;
}

function line(x1, y1, x2, y2, cls) {
  return `<line class="${cls}" x1="${round(x1)}" y1="${round(y1)}" x2="${round(x2)}" y2="${round(y2)}"/>`;
}

function text(x, y, content, cls, anchorAt = 'middle') {
  return `<text class="${cls}" x="${round(x)}" y="${round(y)}" text-anchor="${anchorAt}">${escape(content)}</text>`;
}

const isCut = (silent, a, b) => silent.has(a) || silent.has(b);

function drawWires(view, geometry, silent) {
  const counts = [geometry.proposers.length, geometry.others.length];
  const parts = [];
  for (const top of geometry.proposers) {
    for (const bottom of geometry.others) {
      const [start, end] = wireEnds(geometry.places, top.name, bottom.name, counts);
      const cls = isCut(silent, top.name, bottom.name) ? 'pp-wire pp-cut' : 'pp-wire';
      parts.push(line(start.x, start.y, end.x, end.y, cls));
    }
  }
  return parts.join('');
}

const SLOT_STATES = ['chosen', 'hole', 'undecided', 'empty'];

function slotBox(slot, x, y) {
  const state = SLOT_STATES.includes(slot.state) ? slot.state : 'empty';
  const value = slot.value == null || slot.value === '' ? '' : String(slot.value);
  const short = value.length > 6 ? `${value.slice(0, 5)}…` : value;
  const label = state === 'hole' ? 'hole' : short ? `${short}${slot.ballot ? ` ${slot.ballot}` : ''}` : 'no vote';
  return (
    `<g class="pp-slot pp-slot-${state}"><title>${escape(slotTitle(state, slot))}</title>` +
    text(x - SLOT_WIDTH / 2 - 4, y + 14, String(slot.slot ?? 1), 'pp-slot-number', 'end') +
    `<rect x="${round(x - SLOT_WIDTH / 2)}" y="${round(y)}" width="${SLOT_WIDTH}" height="${SLOT_HEIGHT}" rx="3"/>` +
    text(x, y + 14, label, 'pp-slot-value') +
    '</g>'
  );
}

function slotTitle(state, slot) {
  const where = `slot ${slot.slot ?? 1}`;
  const vote = slot.value == null ? '' : ` ${slot.value}${slot.ballot ? ` at ${slot.ballot}` : ''}`;
  if (state === 'chosen') return `${where}: chosen${vote}`;
  if (state === 'hole') return `${where}: a hole`;
  if (state === 'undecided') return `${where}: undecided, voted${vote}`;
  return `${where}: no vote`;
}

/** A node's log as a column of slot boxes under it, slot number on the left (Act I: one). */
function slotColumn(node, place) {
  const top = place.y + place.height + 6;
  return node.slots.map((slot, index) => slotBox(slot, place.x, top + SLOT_STEP * index)).join('');
}

const record = (vote) => (vote ? `${vote.ballot} ${vote.value}` : '');
const names = (list) => list.map((item) => item.from || item).join(' ');

function nodeLines(node) {
  if (node.role === 'proposer') {
    const phase = `${node.phase || 'idle'}${node.ballot ? ` ${node.ballot}` : ''}`;
    let heard = '';
    if (node.phase === 'preparing') heard = `promises: ${names(node.promises || []) || 'none'}`;
    if (node.phase === 'accepting') heard = `votes: ${names(node.accepted_by || []) || 'none'}`;
    let value = `wants ${node.value ?? '?'}`;
    if (node.proposal != null) value = `proposes ${node.proposal}`;
    if (node.learned != null) value = `learned ${node.learned}`;
    return [phase, heard, value];
  }
  return [`promised ${node.promised || '—'}`, node.accepted ? `voted ${record(node.accepted)}` : 'no vote'];
}

function drawNode(node, place, asking) {
  const left = place.x - NODE_WIDTH / 2;
  const classes = ['pp-node', `pp-${node.role}`];
  if (node.silent) classes.push('pp-silent');
  if (node.by_hand) classes.push('pp-by-hand');
  if (asking) classes.push('pp-asking');
  const parts = [
    `<g class="${classes.join(' ')}" data-node="${escape(node.name)}">`,
    `<rect x="${round(left)}" y="${place.y}" width="${NODE_WIDTH}" height="${place.height}" rx="8"/>`,
    text(left + 8, place.y + 17, node.name, 'pp-node-name', 'start'),
    text(left + 8 + 8 * node.name.length + 6, place.y + 17, node.silent ? 'silent' : node.role, 'pp-node-role', 'start'),
  ];
  nodeLines(node)
    .filter(Boolean)
    .forEach((content, index) => {
      parts.push(text(left + 8, place.y + 36 + 15 * index, content, 'pp-node-line', 'start'));
    });
  parts.push('</g>');
  if (node.role !== 'proposer') parts.push(slotColumn(node, place));
  return parts.join('');
}

/** Places every message on its wire, spread from the sender's end toward the receiver's. */
function placeMessages(view, geometry) {
  const counts = [geometry.proposers.length, geometry.others.length];
  const byWire = new Map();
  for (const message of view.messages) {
    if (!geometry.places.has(message.from) || !geometry.places.has(message.to)) continue;
    const key = `${message.from}>${message.to}`;
    if (!byWire.has(key)) byWire.set(key, []);
    byWire.get(key).push(message);
  }
  const placed = [];
  for (const messages of byWire.values()) {
    const { from, to } = messages[0];
    const [start, end] = wireEnds(geometry.places, from, to, counts);
    const step = Math.min(0.16, 0.5 / Math.max(1, messages.length - 1));
    messages.forEach((message, index) => {
      const along = 0.2 + step * index;
      placed.push({
        message,
        x: start.x + (end.x - start.x) * along,
        y: start.y + (end.y - start.y) * along,
      });
    });
  }
  return placed.sort((a, b) => a.message.id - b.message.id);
}

/** A message's name as players read it: `m3 P1→A2 Prepare(1.P1)`. */
export function describeMessage(message) {
  return `m${message.id} ${message.from}→${message.to} ${message.text}`;
}

function drawMessage({ message, x, y }, held) {
  const playable = message.actions.length > 0;
  const kind = GLYPHS[message.kind] ? message.kind : 'other';
  let classes = `pp-dot pp-kind-${kind}${playable ? '' : ' pp-dot-stuck'}`;
  if (message.cut) classes += ' pp-dot-cut';
  if (message.id === held) classes += ' pp-dot-held';
  const why = message.cut ? ' (cut wire: it cannot be delivered)' : '';
  const label = `${describeMessage(message)}${why}`;
  const focus = playable
    ? ` tabindex="0" role="button" aria-label="${escape(label)}, press Enter to deliver"`
    : ` aria-label="${escape(label)}"`;
  return (
    `<g class="${classes}" data-msg="${message.id}"${focus}>` +
    `<title>${escape(label)}</title>` +
    `<circle cx="${round(x)}" cy="${round(y)}" r="${DOT_RADIUS}"/>` +
    text(x, y + 3.5, GLYPHS[message.kind]?.[0] || '•', 'pp-dot-glyph') +
    '</g>'
  );
}

/** The stage's SVG markup for a view. */
export function renderStage(view) {
  const geometry = layout(view.nodes);
  const silent = new Set(view.nodes.filter((node) => node.silent).map((node) => node.name));
  const asking = view.prompt ? view.prompt.node : null;
  const held = view.prompt ? view.prompt.message : null;
  const chosen = view.chosen
    ? `chosen: ${view.chosen.value} at ${view.chosen.ballot} by ${(view.chosen.by || []).join(', ')}`
    : 'nothing chosen yet';
  const height = geometry.height + 20;
  return [
    `<svg class="pp-stage" viewBox="0 0 ${WIDTH} ${height}" role="group" aria-label="The world: ${escape(chosen)}">`,
    drawWires(view, geometry, silent),
    ...view.nodes.map((node) => drawNode(node, geometry.places.get(node.name), node.name === asking)),
    ...placeMessages(view, geometry).map((placed) => drawMessage(placed, held)),
    text(WIDTH / 2, height - 8, chosen, view.chosen ? 'pp-chosen pp-chosen-yes' : 'pp-chosen'),
    '</svg>',
  ].join('');
}
