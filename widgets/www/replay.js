// A counterexample from a simulator report, stepped through on the stage the levels use. The
// real world replays it in the engine (`Replay`, widgets/API.md); this file only draws the
// engine's view of the step shown and turns Back / Forward and the arrow keys into steps.

import { renderStage } from './stage.js';
import { escape } from './text.js';

/** The replay view's stage as `renderStage` reads a level's view, with every list present. */
function stageView(view) {
  const stage = view.stage || {};
  const nodes = (stage.nodes || []).map((node) => ({ ...node, slots: node.slots || [] }));
  const messages = (stage.messages || []).map((message) => ({ ...message, actions: message.actions || [] }));
  return { nodes, messages, chosen: stage.chosen || null, cluster: stage.cluster, prompt: null };
}

/** What led to the step shown, in words. */
function actionLine(view) {
  if (!view.action) return 'The world as the scenario builds it, before any action.';
  const setUp = view.step <= view.prelude ? ' <span class="pp-replay-setup">(the scenario’s set-up)</span>' : '';
  return `Step ${view.step}: <code>${escape(view.action)}</code>${setUp}`;
}

/** The action that comes next, whose message is marked on the stage. */
function nextLine(view) {
  if (!view.next) return '';
  const marked = view.message != null ? ' (its message is ringed on the stage)' : '';
  return `Next: <code>${escape(view.next)}</code>${marked}`;
}

/** What the world's checkers say about the step shown; at the last step, what broke. */
function verdictLine(view) {
  if (!view.violations.length) return '';
  const items = view.violations.map((words) => `<li>${escape(words)}</li>`).join('');
  return `<p><strong>The checker:</strong></p><ul>${items}</ul>`;
}

/** A counterexample mounted into `root`. */
export class ReplayWidget {
  /**
   * @param {HTMLElement} root where to draw
   * @param {object} engine the wasm module that replays this scenario's world: `Replay`
   * @param {string} scenario the scenario's name
   * @param {string[]} actions the report's counterexample, prelude included
   */
  constructor(root, engine, scenario, actions) {
    this.root = root;
    this.replay = new engine.Replay(scenario, JSON.stringify(actions));
    this.build(scenario);
    this.show(this.replay.view());
  }

  build(scenario) {
    this.root.classList.add('pp-replay');
    this.root.setAttribute('role', 'group');
    this.root.setAttribute('aria-label', `Replay of the counterexample of ${scenario}`);
    this.root.innerHTML = `
      <p class="pp-replay-head">Step through it on the stage <span class="pp-replay-keys">(Back and Forward, or the Left and Right arrow keys)</span></p>
      <div class="pp-replay-stage"></div>
      <div class="pp-replay-tools">
        <button type="button" class="pp-replay-back">← Back</button>
        <span class="pp-replay-count" aria-live="polite"></span>
        <button type="button" class="pp-replay-forward">Forward →</button>
      </div>
      <p class="pp-replay-action"></p>
      <p class="pp-replay-next"></p>
      <div class="pp-replay-verdict" aria-live="polite"></div>`;
    this.parts = {};
    for (const name of ['stage', 'back', 'count', 'forward', 'action', 'next', 'verdict']) {
      this.parts[name] = this.root.querySelector(`.pp-replay-${name}`);
    }
    this.parts.back.addEventListener('click', () => this.back());
    this.parts.forward.addEventListener('click', () => this.forward());
    this.root.addEventListener('keydown', (event) => this.onKey(event));
  }

  back() {
    this.show(this.replay.back());
  }

  forward() {
    this.show(this.replay.forward());
  }

  /** Left and Right step while focus is anywhere inside the replay; the book's own use of
   *  them (the previous and next chapter) does not see these. */
  onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key === 'ArrowLeft') this.back();
    else if (event.key === 'ArrowRight') this.forward();
    else return;
    event.preventDefault();
    event.stopPropagation();
  }

  /** Draws one step from the engine's view (JSON). */
  show(json) {
    const view = JSON.parse(json);
    view.violations ||= [];
    this.parts.stage.innerHTML = renderStage(stageView(view));
    if (view.message != null) {
      this.parts.stage.querySelector(`[data-msg="${Number(view.message)}"]`)?.classList.add('pp-dot-next');
    }
    this.parts.count.textContent = `step ${view.step} of ${view.steps}`;
    this.parts.action.innerHTML = actionLine(view);
    this.parts.next.innerHTML = nextLine(view);
    this.parts.verdict.innerHTML = verdictLine(view);
    // Kept focusable at either end, so a keyboard reader's focus never drops to the page.
    this.parts.back.setAttribute('aria-disabled', String(view.step === 0));
    this.parts.forward.setAttribute('aria-disabled', String(view.step === view.steps));
    this.root.dataset.step = String(view.step);
    this.root.dataset.steps = String(view.steps);
  }
}
