// Entry point of paros play in the browser. It reads the level catalog, `levels.json`, beside
// this file (never relative to the page, so chapters in any folder can load it), then:
// - mounts a level inline in every `<div class="paros-level" data-level="ID">` of the page;
// - on the play page (`<main id="paros-play">`), shows the level map, or the level named by the
//   address's hash (`play/#act1/choose-a-value`), and follows hash changes.
// - steps through a simulator counterexample in every
//   `<div class="paros-replay" data-scenario="NAME" data-module="MODULE" data-actions="[JSON]">`
//   the book writes beside a report (replay.js).
// Each level names the wasm module that plays it (`pkg/<module>/`, one per kind of world); a
// module is loaded the first time one of its levels mounts, and only then.

import { LevelWidget, actName, automationLabel, isUndoKey } from './level.js';
import { ReplayWidget } from './replay.js';
import { escape, inline } from './text.js';
import * as progress from './progress.js';

const ACT_TITLES = {
  1: 'One value',
  2: 'The replicated log',
  3: 'Reads and truncation',
  4: 'Beyond Multi-Paxos',
};

/** Reads the level catalog the book wrote beside this file. */
async function loadCatalog() {
  const response = await fetch(new URL('./levels.json', import.meta.url).href);
  if (!response.ok) throw new Error(`levels.json: ${response.status} ${response.statusText}`);
  return response.json();
}

/** Loads and starts one wasm module; the one place that knows where the packages live. */
async function loadEngine(module) {
  const engine = await import(new URL(`./pkg/${module}/paros_play.js`, import.meta.url).href);
  await engine.default();
  return engine;
}

/** Everything a page needs to know about the levels, and the modules loaded so far. */
class Book {
  constructor(catalog, playPage) {
    this.playPage = playPage;
    this.levels = catalog.levels;
    this.automations = catalog.automations || [];
    this.engines = new Map();
  }

  /** The started module that plays `level` (anything with a `module`), loaded once per page. */
  engine(level) {
    if (!this.engines.has(level.module)) this.engines.set(level.module, loadEngine(level.module));
    return this.engines.get(level.module);
  }

  level(id) {
    return this.levels.find((level) => level.id === id);
  }

  /** A link that opens a level: a hash on the play page, the play page's address elsewhere. */
  playLink(id) {
    return this.playPage ? `#${id}` : new URL(`./#${id}`, import.meta.url).href;
  }

  automationLabel(name) {
    return this.automations.find((item) => item.name === name)?.label || automationLabel(name);
  }

  /** The title of the level that unlocks an automation toggle, if any. */
  taughtBy(name) {
    const teacher = this.automations.find((item) => item.name === name)?.taught_by;
    return teacher ? this.level(teacher)?.title || teacher : '';
  }

  /** Mounts a level into `root`; a module that cannot load and engine errors (an unknown id)
   *  are shown in its place. */
  async mount(root, id) {
    const level = this.level(id);
    if (!level) {
      root.innerHTML = `<p class="pp-error">There is no level named “${escape(id)}”.</p>`;
      return null;
    }
    const index = this.levels.indexOf(level);
    let engine;
    try {
      engine = await this.engine(level);
    } catch (error) {
      root.innerHTML = `<p class="pp-error">The game could not load: ${escape(error?.message || error)}</p>`;
      return null;
    }
    // The mount alone, once the module is loaded.
    const started = performance.now();
    try {
      const widget = new LevelWidget(root, engine, level, {
        next: this.levels[index + 1] || null,
        playLink: (target) => this.playLink(target),
        automationLabel: (name) => this.automationLabel(name),
        taughtBy: (name) => this.taughtBy(name),
      });
      performance.measure(`paros-mount ${id}`, { start: started, end: performance.now() });
      return widget;
    } catch (error) {
      root.innerHTML = `<p class="pp-error">This level could not start: ${escape(error?.message || error)}</p>`;
      return null;
    }
  }
}

/** Mounts the counterexample replay the book wrote into `root`; what fails is said in its place. */
async function mountReplay(root, book) {
  const { scenario, module } = root.dataset;
  try {
    const actions = JSON.parse(root.dataset.actions || '[]');
    const engine = await book.engine({ module });
    return new ReplayWidget(root, engine, scenario, actions);
  } catch (error) {
    root.innerHTML = `<p class="pp-error">This replay could not start: ${escape(error?.message || error)}</p>`;
    return null;
  }
}

/** The level map: acts, levels, what each teaches and unlocks, which are passed. */
function renderMap(root, book) {
  const passed = book.levels.filter((level) => progress.isPassed(level.id)).length;
  const acts = [...new Set(book.levels.map((level) => level.act))];
  const sections = acts.map((act) => {
    const levels = book.levels.filter((level) => level.act === act);
    const items = levels.map((level) => {
      const done = progress.isPassed(level.id);
      const unlocks = level.unlocks ? `<span class="pp-map-unlocks">Unlocks: ${escape(book.automationLabel(level.unlocks))}</span>` : '';
      return `<li class="pp-map-level${done ? ' pp-map-passed' : ''}" data-level="${escape(level.id)}">
        <a href="#${escape(level.id)}">${done ? '<span class="pp-map-mark" aria-hidden="true">✓</span>' : ''}${escape(level.title)}</a>${done ? '<span class="pp-map-status">passed</span>' : ''}
        <span class="pp-map-teaches">${inline(level.teaches || '')}</span>
        <span class="pp-map-hand"><strong>By hand:</strong> ${inline(level.by_hand || '')}</span>${unlocks}${level.chapter ? `<span class="pp-map-hand">Field guide: ${escape(level.chapter)}</span>` : ''}
      </li>`;
    });
    const title = ACT_TITLES[Number(act)] ? ` — ${ACT_TITLES[Number(act)]}` : '';
    return `<section class="pp-map-act"><h2>${escape(actName(act))}${title}</h2><ol>${items.join('')}</ol></section>`;
  });
  root.innerHTML = `<div class="pp-map">
    <p class="pp-map-summary">${passed} of ${book.levels.length} levels passed.
      <button type="button" class="pp-reset">Reset progress</button></p>
    ${sections.join('')}
  </div>`;
}

/** A two-step reset button: the first press asks, the second clears. */
function onResetClick(event) {
  const button = event.target.closest('.pp-reset');
  if (!button) return false;
  if (button.dataset.armed) {
    progress.reset();
  } else {
    button.dataset.armed = 'yes';
    button.textContent = 'Really forget every passed level? Press again';
  }
  return true;
}

/** The play page: `#<level-id>` opens a level, anything else the map, which replaces the
 *  server-rendered one. */
function startPlayPage(page, book) {
  const root = document.createElement('div');
  root.className = 'pp-play';
  const served = page.querySelector('.level-map');
  if (served) served.replaceWith(root);
  else page.append(root);
  const pageTitle = document.title;
  let widget = null;
  // Counts routes, so a level whose module arrives after the reader has moved on is dropped.
  let routes = 0;
  const route = async () => {
    // `#<level-id>`, or `#<level-id>?moves=<position>` for a shared position.
    const [path, query = ''] = location.hash.replace(/^#/, '').split('?');
    const id = decodeLink(path);
    const moves = /(?:^|&)moves=([^&]*)/.exec(query)?.[1];
    const current = ++routes;
    widget = null;
    if (id && book.level(id)) {
      page.dataset.view = 'level';
      root.innerHTML = `<nav class="pp-nav"><a href="#">← All levels</a></nav><div class="pp-level-host"></div>`;
      document.title = `${book.level(id).title} · ${pageTitle}`;
      window.scrollTo(0, 0);
      const mounted = await book.mount(root.querySelector('.pp-level-host'), id);
      if (current !== routes) return;
      widget = mounted;
      if (moves) widget?.openLink(moves);
      return;
    }
    page.dataset.view = 'map';
    renderMap(root, book);
    if (id) {
      root.insertAdjacentHTML('afterbegin', `<p class="pp-error">There is no level named “${escape(id)}”; here is the map.</p>`);
    }
    document.title = pageTitle;
  };
  window.addEventListener('hashchange', route);
  window.addEventListener('paros-progress', () => {
    if (page.dataset.view === 'map') renderMap(root, book);
  });
  root.addEventListener('click', onResetClick);
  // Undo from anywhere on the play page, unless focus is inside a level (it handles its own keys).
  document.addEventListener('keydown', (event) => {
    if (widget && !widget.root.contains(event.target) && isUndoKey(event)) {
      event.preventDefault();
      widget.undo();
    }
  });
  return route();
}

/** A link's level id as written, or as it is when a `%`-escape in it is malformed (then no level
 *  has that name, and the map says so). */
function decodeLink(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

async function main() {
  const embeds = [...document.querySelectorAll('.paros-level[data-level]')];
  const replays = [...document.querySelectorAll('.paros-replay[data-scenario][data-module]')];
  const playRoot = document.getElementById('paros-play');
  if (!embeds.length && !replays.length && !playRoot) return;
  let book;
  try {
    book = new Book(await loadCatalog(), Boolean(playRoot));
  } catch (error) {
    const note = `<p class="pp-error">The game could not load: ${escape(error?.message || error)}</p>`;
    for (const embed of [...embeds, ...replays]) embed.innerHTML = note;
    playRoot?.insertAdjacentHTML('afterbegin', note);
    return;
  }
  const mounting = embeds.map((embed) => {
    const host = document.createElement('div');
    embed.replaceChildren(host);
    return book.mount(host, embed.dataset.level);
  });
  mounting.push(...replays.map((root) => mountReplay(root, book)));
  if (playRoot) mounting.push(startPlayPage(playRoot, book));
  await Promise.all(mounting);
  document.documentElement.dataset.parosPlay = 'ready';
}

main();
