// One playable level: the stage, the wire list, the prompt panel, goal, hints, undo and the
// automation toggles, all re-derived from the engine's view after every move. The engine owns
// every rule; this file only shows the view and turns clicks and keys into actions.

import { renderStage, describeMessage, GLYPHS, SINGLE_DECREE_KINDS } from './stage.js';
import { escape, inline, markdown } from './text.js';
import * as progress from './progress.js';

const ACTION_LABELS = { deliver: 'Deliver', drop: 'Drop', duplicate: 'Duplicate' };
const KEY_ACTIONS = { Enter: 'deliver', ' ': 'deliver', x: 'drop', Delete: 'drop', d: 'duplicate' };

const LISTS = ['nodes', 'messages', 'controls', 'checklist', 'hints', 'mistakes', 'automation', 'log'];

/** The engine's view (widgets/API.md) with every list present, so renderers need no guards. */
function adaptView(raw) {
  const view = { ...raw };
  for (const field of LISTS) {
    if (!Array.isArray(view[field])) view[field] = [];
  }
  view.level ||= {};
  view.goal ||= { status: 'open', text: '' };
  if (view.prompt) view.prompt = { facts: [], choices: [], ...view.prompt };
  view.stage ||= { index: 0, count: 1 };
  view.moves ??= view.log.length;
  for (const message of view.messages) {
    if (!Array.isArray(message.actions)) message.actions = [];
  }
  for (const node of view.nodes) {
    if (!Array.isArray(node.slots)) node.slots = [];
  }
  return view;
}

/** A level mounted into `root`. */
export class LevelWidget {
  /**
   * @param {HTMLElement} root where to draw
   * @param {object} engine the wasm module: `Game` and friends
   * @param {object} level the level's catalog entry
   * @param {object} options `{ next, playLink(id), automationLabel(name), taughtBy(name) }`
   */
  constructor(root, engine, level, options) {
    this.root = root;
    this.level = level;
    this.options = options;
    const unlocked = progress.load().unlocked;
    this.game = new engine.Game(level.id, JSON.stringify(unlocked));
    this.view = adaptView(JSON.parse(this.game.view()));
    this.applySavedToggles();
    this.build();
    this.render();
  }

  /** Turns off the unlocked automation the player switched off in an earlier level. */
  applySavedToggles() {
    const off = progress.load().off;
    for (const toggle of this.view.automation) {
      if (toggle.unlocked && !toggle.pinned && toggle.on && off.includes(toggle.name)) {
        this.view = adaptView(JSON.parse(this.game.set_automation(toggle.name, false)));
      }
    }
  }

  build() {
    const level = this.level;
    this.root.classList.add('pp-level');
    this.root.innerHTML = `
      <header class="pp-head">
        <p class="pp-kicker">${escape(actName(level.act))}${level.chapter ? ` · ${escape(level.chapter)}` : ''}</p>
        <h2 class="pp-title">${escape(level.title)}</h2>
      </header>
      <details class="pp-briefing"${progress.isPassed(level.id) ? '' : ' open'}><summary>Briefing</summary>
        <div class="pp-briefing-text">${markdown(this.view.level.briefing || level.briefing || '')}</div>
        ${level.by_hand ? `<p class="pp-by-hand"><strong>By hand:</strong> ${inline(level.by_hand)}</p>` : ''}
      </details>
      <p class="pp-goal" aria-live="polite"></p>
      <div class="pp-steps"></div>
      <div class="pp-main">
        <div class="pp-stage-column">
          <div class="pp-stage-box"></div>
          <p class="pp-focus-line" aria-live="polite"></p>
          <p class="pp-legend"></p>
          <div class="pp-controls"></div>
          <ol class="pp-wire-list" aria-label="Messages in flight"></ol>
        </div>
        <div class="pp-panel">
          <div class="pp-prompt"></div>
          <div class="pp-explanation" aria-live="polite"></div>
          <div class="pp-hints"></div>
          <div class="pp-world"></div>
          <div class="pp-tools">
            <button type="button" class="pp-undo" title="Undo (u or Ctrl+Z)">Undo</button>
            <button type="button" class="pp-restart">Restart</button>
            <button type="button" class="pp-copy-link" title="A link that opens this position">Copy link</button>
            <button type="button" class="pp-copy-command" title="The paros-sim command that replays this stage natively">Copy as command</button>
            <span class="pp-counts"></span>
          </div>
          <p class="pp-link-box" hidden><label>Link to this position <input class="pp-link" type="text" readonly></label> <span class="pp-link-note" aria-live="polite"></span></p>
          <p class="pp-command-box" hidden><label>Command that replays this stage <textarea class="pp-command" rows="3" readonly spellcheck="false"></textarea></label> <span class="pp-command-note" aria-live="polite"></span></p>
          <fieldset class="pp-automation"><legend>Automation</legend><div class="pp-toggles"></div></fieldset>
          <details class="pp-moves"><summary>Moves</summary><div class="pp-log"></div></details>
        </div>
      </div>`;
    this.parts = {};
    for (const name of ['stage-box', 'focus-line', 'controls', 'wire-list', 'goal', 'prompt', 'explanation', 'hints', 'counts', 'toggles', 'undo', 'restart', 'steps', 'log', 'legend', 'world', 'link-box', 'link', 'link-note', 'command-box', 'command', 'command-note']) {
      this.parts[name] = this.root.querySelector(`.pp-${name}`);
    }
    this.root.addEventListener('click', (event) => this.onClick(event));
    this.root.addEventListener('keydown', (event) => this.onKey(event));
    this.root.addEventListener('change', (event) => this.onChange(event));
    this.root.addEventListener('focusin', (event) => this.showFocus(event.target));
    this.root.addEventListener('mouseover', (event) => this.showFocus(event.target));
  }

  /** Redraws everything from the current view. */
  render() {
    const view = this.view;
    this.parts['stage-box'].innerHTML = renderStage(view);
    this.parts.legend.innerHTML = legend(view);
    this.parts.goal.innerHTML = goalLine(view.goal);
    this.parts.goal.dataset.status = view.goal.status;
    this.parts.controls.innerHTML = controlButtons(view.controls);
    this.parts['wire-list'].innerHTML = view.messages.map(wireRow).join('') || '<li class="pp-empty">No message is in flight.</li>';
    this.parts.prompt.innerHTML = promptPanel(view.prompt);
    // A prompt outcome only repeats the question the prompt panel already asks.
    const repeats = view.prompt && view.outcome?.kind === 'prompt';
    this.parts.explanation.innerHTML = repeats ? '' : outcomeText(view.outcome);
    this.parts.steps.innerHTML = stageLine(view.stage) + checklist(view.checklist);
    this.parts.hints.innerHTML = view.hints.length
      ? `<h3>Hints</h3><ul>${view.hints.map((hint) => `<li>${inline(hint)}</li>`).join('')}</ul>`
      : '';
    // Undo takes a move out of this line of play, so the count says so; mistakes stay.
    this.parts.counts.textContent = `moves in this line ${view.moves} · mistakes ${view.mistakes.length}`;
    this.parts.log.innerHTML = moveLog(view);
    this.parts.world.innerHTML = timeline(view) + worldDetails(view);
    this.parts.undo.disabled = !view.can_undo;
    this.parts.toggles.innerHTML = view.automation.map((toggle) => toggleRow(toggle, this.options.taughtBy)).join('') || '<p class="pp-empty">None in this level.</p>';
    this.root.dataset.goal = view.goal.status;
    this.root.dataset.fingerprint = view.fingerprint || '';
    this.showFocus(null);
    this.notePassed();
  }

  /** Records the level as passed the first time its goal is reached. */
  notePassed() {
    if (!this.view.passed) return;
    const fresh = progress.pass(this.level.id, this.level.unlocks ? [this.level.unlocks] : []);
    if (fresh.length) this.freshUnlocks = fresh;
    if (this.view.goal.status !== 'reached') return;
    const next = this.options.next;
    const earned = this.freshUnlocks || [];
    const unlockedText = earned.length ? ` You unlocked automation: ${earned.map((name) => this.options.automationLabel(name)).join(', ')}.` : '';
    const nextLink = next ? ` <a class="pp-next" href="${escape(this.options.playLink(next.id))}">Next: ${escape(next.title)}</a>` : '';
    this.parts.goal.insertAdjacentHTML('beforeend', `<span class="pp-passed">Level passed.${escape(unlockedText)}${nextLink}</span>`);
  }

  /** Runs one engine call and redraws. An error changes nothing in the game: the last view is
   *  redrawn (undoing a checkbox's own flip) with the error beside it. True on success. */
  step(call, focusAfter) {
    let failure = null;
    try {
      this.view = adaptView(JSON.parse(call()));
    } catch (error) {
      failure = errorText(error);
    }
    this.render();
    if (failure) this.parts.explanation.innerHTML = `<p class="pp-error">${escape(failure)}</p>`;
    this.refocus(focusAfter);
    return !failure;
  }

  /** Keeps keyboard play flowing: an open prompt holds focus; otherwise the nearest dot does. */
  refocus(focusAfter) {
    // Only when the focused element was redrawn away; a button that survived keeps focus.
    if (document.activeElement && document.activeElement !== document.body) return;
    if (this.view.prompt) {
      this.root.querySelector('.pp-choice, .pp-pick input')?.focus();
      return;
    }
    if (focusAfter == null) return;
    const dots = [...this.root.querySelectorAll('.pp-dot[tabindex]')];
    const same = dots.find((dot) => Number(dot.dataset.msg) === focusAfter);
    const later = dots.find((dot) => Number(dot.dataset.msg) > focusAfter);
    (same || later || dots[0])?.focus();
  }

  act(kind, message) {
    this.step(() => this.game.act(JSON.stringify({ kind, message })), message);
  }

  /** Answers the open prompt; focus returns to the wire where the held message was. */
  answer(index) {
    const held = this.view.prompt?.message;
    this.step(() => this.game.answer(index), held ?? undefined);
  }

  undo() {
    if (this.view.can_undo) this.step(() => this.game.undo());
  }

  onClick(event) {
    const target = event.target;
    const dot = target.closest('.pp-dot[tabindex]');
    if (dot) return this.act('deliver', Number(dot.dataset.msg));
    const button = target.closest('button');
    if (!button || button.disabled) return;
    if (button.dataset.action) return this.act(button.dataset.action, Number(button.dataset.msg));
    if (button.dataset.choice) return this.answer(Number(button.dataset.choice));
    if (button.classList.contains('pp-pick-submit')) {
      const choice = tickedChoice(this.root, this.view.prompt);
      if (choice != null) this.answer(choice);
      return;
    }
    if (button.dataset.control) {
      const control = this.view.controls[Number(button.dataset.control)];
      return this.step(() => this.game.act(JSON.stringify(control.action)));
    }
    if (button.classList.contains('pp-undo')) return this.undo();
    if (button.classList.contains('pp-restart')) return this.step(() => this.game.restart());
    if (button.classList.contains('pp-copy-link')) return this.copyLink();
    if (button.classList.contains('pp-copy-command')) return this.copyCommand();
  }

  /** The address that opens this position: the level's play link with its moves. */
  positionLink() {
    const tokens = this.game.position().split('\n').filter(Boolean);
    const base = new URL(this.options.playLink(this.level.id), location.href).href;
    return tokens.length ? `${base}?moves=${encodePosition(tokens)}` : base;
  }

  /** Shows the position's link, selected, and copies it where the browser allows. */
  async copyLink() {
    await this.offer('link', this.positionLink());
  }

  /** The `paros-sim replay` command of this stage: its world's name (from the catalog) and the
   *  world actions played on it so far (from the engine), each quoted for a POSIX shell. */
  positionCommand() {
    const world = (this.level.worlds || [])[this.view.stage.index] || this.level.id;
    const actions = this.game.stage_actions().split('\n').filter(Boolean);
    return ['paros-sim', 'replay', world, ...actions].map(shellQuote).join(' ');
  }

  /** Shows the stage's command, selected, and copies it where the browser allows. */
  async copyCommand() {
    await this.offer('command', this.positionCommand());
  }

  /** Shows `text` in the `name` field, selected, copies it where the browser allows, and says
   *  which happened. */
  async offer(name, text) {
    this.parts[`${name}-box`].hidden = false;
    this.parts[name].value = text;
    this.parts[name].select();
    let copied = false;
    try {
      await navigator.clipboard.writeText(text);
      copied = true;
    } catch {
      // No clipboard here (an insecure page, a refused permission): the field holds the text.
    }
    this.parts[`${name}-note`].textContent = copied ? 'Copied.' : 'Select it and copy it.';
  }

  /** Plays back a position from a link. A refused move leaves the level at its start, and one
   *  line says which move and why. */
  openPosition(tokens) {
    if (!tokens.length) return;
    if (!this.step(() => this.game.play_position(tokens.join('\n')))) {
      this.refusePosition(this.parts.explanation.textContent);
    }
  }

  /** Opens a link's `moves` text: a malformed `%`-escape gets the same line as a move refused. */
  openLink(moves) {
    let tokens;
    try {
      tokens = decodePosition(moves);
    } catch {
      this.refusePosition('its moves hold a malformed %-escape');
      return;
    }
    this.openPosition(tokens);
  }

  /** Says why a link's position could not be played back; the level stays at its start. */
  refusePosition(why) {
    this.parts.explanation.innerHTML = `<p class="pp-error pp-position-error">This link's position could not be played back, so the level opens at its start: ${escape(why)}.</p>`;
  }

  onKey(event) {
    const dot = event.target.closest?.('.pp-dot[tabindex]');
    if (dot && !event.ctrlKey && !event.metaKey && !event.altKey) {
      const kind = KEY_ACTIONS[event.key];
      const message = this.view.messages.find((item) => item.id === Number(dot.dataset.msg));
      if (kind && message?.actions.includes(kind)) {
        event.preventDefault();
        this.act(kind, message.id);
        return;
      }
    }
    const numbered = this.view.prompt && this.view.prompt.kind !== 'reach-set';
    const choice = numbered && /^[1-9]$/.test(event.key) && !event.target.closest?.('input')
      ? this.view.prompt.choices[Number(event.key) - 1]
      : null;
    if (choice && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      this.answer(choice.index ?? Number(event.key) - 1);
      return;
    }
    if (isUndoKey(event)) {
      event.preventDefault();
      this.undo();
    }
  }

  onChange(event) {
    const box = event.target.closest('input[data-automation]');
    if (!box) return;
    const name = box.dataset.automation;
    const on = box.checked;
    if (this.step(() => this.game.set_automation(name, on))) progress.setToggle(name, on);
  }

  /** Names the message under the pointer or focus, in words, below the stage. */
  showFocus(target) {
    const holder = target?.closest?.('[data-msg]');
    const line = this.parts['focus-line'];
    for (const item of this.root.querySelectorAll('.pp-lit')) item.classList.remove('pp-lit');
    const message = holder && this.view.messages.find((item) => item.id === Number(holder.dataset.msg));
    if (!message) {
      const actions = new Set(this.view.messages.flatMap((item) => item.actions));
      const faults = ['drop', 'duplicate'].filter((kind) => actions.has(kind)).join(' or ');
      line.textContent = actions.has('deliver')
        ? `Click a dot to deliver its message${faults ? `; the list below can also ${faults} it` : ''}.`
        : '';
      return;
    }
    const keys = message.actions.map((kind) => `${{ deliver: 'Enter', drop: 'x', duplicate: 'd' }[kind]} ${kind}`);
    const note = message.harmless ? ` (${message.harmless})` : '';
    line.textContent = `${describeMessage(message)}${note}${keys.length ? ` — ${keys.join(', ')}` : message.cut ? ' — cut wire' : ''}`;
    this.root.querySelector(`li[data-msg="${message.id}"]`)?.classList.add('pp-lit');
  }
}

/** A position's tokens as they travel in a link: words joined by `+`, tokens by `,`, and
 *  anything else a link cannot hold escaped. */
export function encodePosition(tokens) {
  return tokens.map((token) => encodeURIComponent(token).replace(/%20/g, '+')).join(',');
}

/** The tokens of a link's `moves` (see `encodePosition`). */
export function decodePosition(text) {
  return text.split(',').filter(Boolean).map((token) => decodeURIComponent(token.replace(/\+/g, ' ')));
}

/** One word for a POSIX shell: as it is when it holds nothing the shell reads specially, else
 *  in single quotes, each `'` written as `'\\''`. */
export function shellQuote(word) {
  const text = String(word);
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(text)) return text;
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/** Whether a key press asks for undo: `u` outside text fields, or Ctrl/Cmd+Z. */
export function isUndoKey(event) {
  if (event.target.closest?.('input:not([type=checkbox]), textarea, select, [contenteditable]')) return false;
  const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
  return (plain && event.key === 'u') || ((event.ctrlKey || event.metaKey) && !event.shiftKey && event.key === 'z');
}

/** "Act I" from the catalog's act number. */
export function actName(act) {
  return `Act ${['0', 'I', 'II', 'III', 'IV', 'V'][act] ?? act}`;
}

/** A readable name for an automation toggle's id (`acceptor_replies` → `acceptor replies`). */
export function automationLabel(name) {
  return String(name).replace(/[_-]+/g, ' ');
}

function errorText(error) {
  if (typeof error === 'string') return error;
  return error?.message || String(error);
}

/** What the dots and boxes mean: every message kind, the slot colours, and who you answer for. */
function legend(view) {
  const item = (svg, name) => `<span class="pp-legend-item"><svg viewBox="0 0 20 20" aria-hidden="true">${svg}</svg>${name}</span>`;
  const seen = new Set(view.messages.map((message) => message.kind));
  const singleDecree = view.nodes.every((node) => node.role === 'proposer' || node.role === 'acceptor');
  const kinds = Object.keys(GLYPHS).filter((kind) => seen.has(kind) || (singleDecree && SINGLE_DECREE_KINDS.includes(kind)));
  const dots = kinds.map((kind) => [kind, GLYPHS[kind]]).map(([kind, [glyph, name]]) =>
    item(`<g class="pp-dot pp-kind-${kind}"><circle cx="10" cy="10" r="9"/><text x="10" y="13.5" text-anchor="middle" class="pp-dot-glyph">${glyph}</text></g>`, name));
  const box = (state, name) => item(`<g class="pp-slot pp-slot-${state}"><rect x="2" y="4" width="16" height="12" rx="2"/></g>`, name);
  const slots = [box('chosen', 'chosen'), box('undecided', 'undecided')];
  if (view.nodes.some((node) => node.slots.some((slot) => slot.state === 'hole'))) slots.push(box('hole', 'hole'));
  if (view.nodes.some((node) => node.slots.some((slot) => slot.state === 'trimmed'))) slots.push(box('trimmed', 'trimmed (below the floor)'));
  const hand = view.nodes.some((node) => node.by_hand)
    ? [item('<g class="pp-node pp-by-hand"><rect x="2" y="3" width="16" height="14" rx="3"/></g>', 'you answer for it')]
    : [];
  return [...dots, ...slots, ...hand].join('');
}

function goalLine(goal) {
  const status = { open: 'Open', reached: 'Reached', failed: 'Failed' }[goal.status] || goal.status;
  const reason = goal.reason ? ` <span class="pp-goal-reason">${inline(goal.reason)}</span>` : '';
  return `<strong>Goal</strong> <span class="pp-badge pp-badge-${escape(goal.status)}">${escape(status)}</span> ${inline(goal.text)}${reason}`;
}

/** The board's buttons, and under them what each does where its label alone does not say. */
function controlButtons(controls) {
  const buttons = controls
    .map((control, index) => `<button type="button" data-control="${index}"${control.action?.kind === 'next-stage' ? ' class="pp-primary"' : ''}>${escape(control.label)}</button>`)
    .join('');
  const helps = controls.filter((control) => control.help).map((control) => `<li>${inline(control.help)}</li>`).join('');
  return buttons + (helps ? `<ul class="pp-control-help">${helps}</ul>` : '');
}

function wireRow(message) {
  const buttons = message.actions
    .map((kind) => `<button type="button" data-action="${kind}" data-msg="${message.id}">${ACTION_LABELS[kind] || escape(kind)}</button>`)
    .join('');
  const stuck = message.cut ? '<span class="pp-note">cut wire</span>' : message.harmless ? `<span class="pp-note">${escape(message.harmless)}</span>` : '';
  return `<li data-msg="${message.id}" class="pp-kind-${escape(message.kind)}"><span class="pp-msg-text">${escape(describeMessage(message))}</span> ${buttons}${stuck}</li>`;
}

function promptPanel(prompt) {
  if (!prompt) return '';
  const facts = prompt.facts.length ? `<ul class="pp-facts">${prompt.facts.map((fact) => `<li>${inline(fact)}</li>`).join('')}</ul>` : '';
  const choices = prompt.kind === 'reach-set' ? reachSetBoxes(prompt) : prompt.choices
    .map((choice, index) => `<button type="button" class="pp-choice" data-choice="${choice.index ?? index}" data-key="${escape(choice.key ?? '')}">${inline(choice.label)}</button>`)
    .join('');
  const who = prompt.node ? `<p class="pp-prompt-node">You answer for ${escape(prompt.node)}</p>` : '';
  return `<section class="pp-prompt-box" aria-label="Question">${who}<p class="pp-question">${inline(prompt.question)}</p>${facts}<div class="pp-choices">${choices}</div></section>`;
}

/** A reach-set prompt's nodes: the members of its one-node choices (keys `N3`), in order. */
function reachSetNodes(prompt) {
  return prompt.choices.map((choice) => choice.key).filter((key) => key !== 'none' && !key.includes('+'));
}

/** A reach-set prompt as one check box per node and a button that answers with the ticked set. */
function reachSetBoxes(prompt) {
  const boxes = reachSetNodes(prompt)
    .map((name) => `<label class="pp-pick-node"><input type="checkbox" name="pp-pick" value="${escape(name)}"> ${escape(name)}</label>`)
    .join('');
  return `<fieldset class="pp-pick"><legend>Nodes</legend>${boxes}</fieldset><button type="button" class="pp-pick-submit">Answer with the ticked nodes</button>`;
}

/** The choice a reach-set prompt's ticked boxes name, keyed as the game keys sets (`N3+N4`). */
function tickedChoice(root, prompt) {
  const ticked = [...root.querySelectorAll('.pp-pick input:checked')].map((box) => box.value);
  const key = ticked.length ? ticked.join('+') : 'none';
  const index = prompt.choices.findIndex((choice) => choice.key === key);
  return index < 0 ? null : prompt.choices[index].index ?? index;
}

const OUTCOME_HEADS = { right: 'Right.', wrong: 'Not what the real node does.' };

function outcomeText(outcome) {
  if (!outcome || !outcome.text) return '';
  const head = OUTCOME_HEADS[outcome.kind] ? `<strong>${OUTCOME_HEADS[outcome.kind]}</strong> ` : '';
  return `<div class="pp-outcome pp-outcome-${escape(outcome.kind)}">${head}${inline(withoutHead(outcome))}</div>`;
}

/** An explanation that opens with its own "Right:" loses it: the head already says so. What
 *  follows begins a sentence, so a word (not a name from the code, `successor_may_propose`)
 *  gets its capital. */
function withoutHead(outcome) {
  if (outcome.kind !== 'right' || !/^Right[.:]\s/.test(outcome.text)) return outcome.text;
  const rest = outcome.text.replace(/^Right[.:]\s*/, '');
  return /^[a-z]+\b(?![_(])/.test(rest) ? rest.charAt(0).toUpperCase() + rest.slice(1) : rest;
}

function stageLine(stage) {
  if (!stage || stage.count <= 1) return '';
  const note = stage.note ? ` ${inline(stage.note)}` : '';
  return `<p class="pp-stage-line"><strong>Stage ${stage.index + 1} of ${stage.count}${stage.title ? `: ${escape(stage.title)}` : ''}.</strong>${note}</p>`;
}

function checklist(items) {
  if (!items.length) return '';
  const rows = items.map((item) => `<li class="${item.done ? 'pp-done' : ''}"><span aria-hidden="true">${item.done ? '✓' : '○'}</span> ${inline(item.label)}${item.done ? '<span class="pp-sr"> (done)</span>' : ''}</li>`);
  return `<ul class="pp-checklist" aria-label="Checklist">${rows.join('')}</ul>`;
}

/** A trim point on disk: the slot it compacts through, its store and its session table. */
function trimPointText(point) {
  const store = point.store.map((item) => `${item.key}=${item.value}`).join(', ') || 'empty';
  const sessions = point.sessions.map((row) => `${row.client}#${row.seq}`).join(', ') || 'none';
  return `trim point through slot ${point.through}: store ${store}; sessions ${sessions}`;
}

/** One client call on the timeline: a bar from its call to its answer, or to now if open. */
function timelineCall(call, now) {
  const end = call.ret == null ? now : call.ret + 1;
  const left = (100 * call.call) / now;
  const width = Math.max((100 * (end - call.call)) / now, 4);
  const answer = call.op.startsWith('read') && call.ret != null ? ` → ${call.read ?? 'nothing'}` : '';
  const when = call.ret == null ? `from ${call.call}, not yet answered` : `${call.call} to ${call.ret}`;
  const text = `${call.op}${answer}`;
  return `<li class="pp-call${call.ret == null ? ' pp-call-open' : ''}" style="left:${left}%;width:${width}%" title="${escape(`${text}, ${when}`)}">${escape(text)} <span class="pp-visually-hidden">(${escape(when)})</span></li>`;
}

/** Two clients or more: their calls on one clock, with the linearizability checker's verdict. */
function timeline(view) {
  const line = view.cluster?.timeline;
  if (!line) return '';
  const now = Math.max(line.now, 1);
  const lanes = view.cluster.clients
    .map((client) => `<li class="pp-lane"><span class="pp-lane-name">${escape(client.name)}</span><ol class="pp-calls">${client.history.map((call) => timelineCall(call, now)).join('')}</ol></li>`)
    .join('');
  const conditions = line.conditions.map((condition) => `<li data-state="${escape(condition.state)}">${escape(condition.name)}: ${escape(condition.state)}</li>`).join('');
  const order = line.order.length ? `<p class="pp-order">One order that fits: ${escape(line.order.join(' · '))}</p>` : '';
  return `<figure class="pp-timeline"><figcaption>The clients' history, on their clock (0 to ${line.now}): ${escape(line.verdict)}</figcaption><ol class="pp-lanes">${lanes}</ol>${order}<ul class="pp-conditions" aria-label="Conditions of linearizability">${conditions}</ul></figure>`;
}

/** Act II beyond the picture: each node's disk, store and reads; each client's history. */
function worldDetails(view) {
  const rows = [];
  // While a level question is open, the view keeps back what its step changed: by name only.
  const kept = new Set(view.kept_back?.names || []);
  for (const node of view.nodes) {
    if (kept.has(node.name)) {
      rows.push(`<li><strong>${escape(node.name)}</strong> ${escape(node.role)}: shown once you answer</li>`);
      continue;
    }
    const facts = [];
    if (node.leader !== undefined && node.role !== 'leader') {
      // What the node last heard, not what it is: a candidate may still remember the old leader.
      facts.push(node.leader == null ? 'has heard from no leader' : `last heard from leader ${node.leader}`);
    }
    if (node.ticks != null && node.timeout_ticks) facts.push(`${node.ticks}/${node.timeout_ticks} ticks`);
    if (node.chosen_gap != null) facts.push(`hole at slot ${node.chosen_gap}`);
    if (node.floor) facts.push(`floor ${node.floor}: slots 1 to ${node.floor} trimmed`);
    if (node.store?.length) facts.push(`store ${node.store.map((item) => `${item.key}=${item.value}`).join(', ')}`);
    for (const read of node.reads || []) facts.push(`read ${read.key} for ${read.client} waits for slot ${read.watermark} (${read.answered_by.join(', ') || 'no answers'})`);
    const disk = node.disk;
    if (disk) {
      const accepts = disk.accepts.map((item) => `${item.slot}: ${item.entry} at ${item.ballot}`).join('; ') || 'none';
      facts.push(`disk: promised ${disk.promised || '—'}, accepts ${accepts}, chosen through ${disk.chosen_through}${disk.torn ? ', last write torn' : ''}`);
      if (disk.trim_point) facts.push(`disk: ${trimPointText(disk.trim_point)}`);
      if (disk.handed_off) facts.push(`disk: handed off ${disk.handed_off}`);
      if (disk.took_handoff) facts.push(`disk: took ${disk.took_handoff} by a handoff`);
      if (disk.fault) facts.push(`disk: ${disk.fault.words}`);
      if (disk.held) {
        const held = disk.held;
        facts.push(`held: writes ${held.writes.join('; ') || 'none'} (${held.persisted ? 'durable' : 'not durable'}); messages ${held.messages.join('; ') || 'none'} (${held.sent ? 'sent' : 'not sent'})`);
      }
    }
    if (facts.length) rows.push(`<li><strong>${escape(node.name)}</strong> ${escape(node.role)}: ${facts.map(escape).join(' · ')}</li>`);
  }
  for (const proxy of view.cluster?.proxies || []) {
    const counts = kept.has(proxy.name) ? 'counts shown once you answer' : proxy.counting.join('; ') || 'counting nothing';
    rows.push(`<li><strong>${escape(proxy.name)}</strong> proxy: ${escape(proxy.up ? counts : 'down, keeping nothing')}</li>`);
  }
  const matchmaking = view.matchmaking;
  for (const matchmaker of matchmaking?.matchmakers || []) {
    const stored = matchmaker.stored.map((item) => `${item.round} → ${item.config}`).join(', ') || 'nothing';
    const state = [matchmaker.up ? '' : 'down', matchmaker.stopped ? 'stopped' : ''].filter(Boolean).join(', ');
    const facts = kept.has(matchmaker.name) ? 'shown once you answer' : `stores ${stored} · watermark ${matchmaker.watermark || 'none'}${state ? ` · ${state}` : ''}`;
    rows.push(`<li><strong>${escape(matchmaker.name)}</strong> matchmaker: ${escape(facts)}</li>`);
  }
  for (const config of matchmaking?.configurations || []) {
    const removed = config.removed.length ? ` · removed: ${config.removed.join(', ')}` : '';
    rows.push(`<li><strong>${escape(config.name)}</strong> configuration of round ${escape(config.rounds.join(', '))}: ${escape(config.members.join(', '))}${escape(removed)}${config.collected ? ' · collected' : ''}</li>`);
  }
  for (const leader of matchmaking?.leaders || []) {
    const history = leader.history.map((item) => `${item.round} → ${item.config}`).join(', ') || 'empty';
    const facts = kept.has(leader.name)
      ? 'shown once you answer'
      : `${leader.round} in ${leader.config} · ${leader.stage} · H ${history} · promised ${leader.promised_by.join(', ') || 'none'} · votes ${leader.accepted_by.join(', ') || 'none'}${leader.gc_proof ? ` · GC proof ${leader.gc_proof}` : ''}`;
    rows.push(`<li><strong>${escape(leader.name)}</strong> leader: ${escape(facts)}</li>`);
  }
  for (const client of view.cluster?.clients || []) {
    const replying = view.messages.some((message) => message.to === client.name && message.kind === 'reply');
    const waiting = replying ? ' (its reply is on the wire: deliver it)' : ' (waiting for a reply)';
    const history = client.history.map((call) => `${call.op}${call.ret == null ? waiting : call.read !== undefined && call.op.startsWith('read') ? ` → ${call.read ?? 'nothing'}` : ' ✓'}`);
    const next = client.next ? `next ${client.next}` : 'done';
    rows.push(`<li><strong>${escape(client.name)}</strong> client: ${escape(next)}${history.length ? ` · ${escape(history.join(', '))}` : ''}</li>`);
  }
  if (view.cluster?.violations?.length) {
    rows.push(...view.cluster.violations.map((violation) => `<li class="pp-error">${escape(violation)}</li>`));
  }
  return rows.length ? `<details class="pp-world-box" open><summary>${view.matchmaking ? 'Matchmakers, configurations and nodes' : 'Nodes and clients'}</summary><ul>${rows.join('')}</ul></details>` : '';
}

function moveLog(view) {
  const moves = view.log.length ? `<ol>${view.log.map((move) => `<li><code>${escape(move)}</code></li>`).join('')}</ol>` : '<p class="pp-empty">No moves yet.</p>';
  const mistakes = view.mistakes.length
    ? `<h4>Mistakes</h4><ol>${view.mistakes.map((mistake) => `<li>${inline(mistake.prompt)} — you said ${escape(mistake.answer)}. ${inline(mistake.explanation)}</li>`).join('')}</ol>`
    : '';
  return moves + mistakes;
}

function toggleRow(toggle, taughtBy) {
  let why = '';
  if (toggle.pinned) why = `pinned ${toggle.pinned} in this level`;
  else if (!toggle.unlocked) why = `locked${taughtBy(toggle.name) ? `: pass ${taughtBy(toggle.name)}` : ''}`;
  const disabled = toggle.pinned || !toggle.unlocked ? ' disabled' : '';
  return `<label class="pp-toggle"><input type="checkbox" data-automation="${escape(toggle.name)}"${toggle.on ? ' checked' : ''}${disabled}> ${escape(toggle.label)}${why ? ` <span class="pp-note">(${escape(why)})</span>` : ''}</label>`;
}
