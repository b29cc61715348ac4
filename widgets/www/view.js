// Fills in the fields of an engine view (widgets/API.md) that a given level may leave out, so
// the renderers can read every field without guarding. It adds nothing the engine did not say.

const LISTS = ['nodes', 'messages', 'controls', 'checklist', 'hints', 'mistakes', 'automation', 'log'];

/** The view with every list present and the optional objects null rather than missing. */
export function adaptView(raw) {
  const view = { ...raw };
  for (const field of LISTS) {
    if (!Array.isArray(view[field])) view[field] = [];
  }
  view.level = view.level || {};
  view.goal = view.goal || { status: 'open', text: '', reason: null };
  view.prompt = view.prompt || null;
  if (view.prompt) {
    view.prompt = { facts: [], choices: [], ...view.prompt };
  }
  view.outcome = view.outcome || null;
  view.chosen = view.chosen || null;
  view.stage = view.stage || { index: 0, count: 1 };
  view.moves = view.moves ?? view.log.length;
  for (const message of view.messages) {
    if (!Array.isArray(message.actions)) message.actions = [];
  }
  for (const node of view.nodes) {
    if (!Array.isArray(node.slots)) node.slots = [];
  }
  return view;
}
