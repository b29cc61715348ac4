// Progress in localStorage, one JSON record: passed levels, unlocked automation, toggles the
// player switched off. Without storage (private mode) it lasts for the page; nothing throws.

const KEY = 'paros-play.progress.v1';
let memory = null;

function empty() {
  return { passed: [], unlocked: [], off: [] };
}

/** The saved progress, or an empty one. */
export function load() {
  if (memory) return memory;
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || 'null');
  } catch {
    saved = null;
  }
  const progress = empty();
  if (saved && typeof saved === 'object') {
    for (const field of Object.keys(progress)) {
      if (Array.isArray(saved[field])) {
        progress[field] = saved[field].filter((item) => typeof item === 'string');
      }
    }
  }
  memory = progress;
  return progress;
}

function save(progress) {
  memory = progress;
  try {
    localStorage.setItem(KEY, JSON.stringify(progress));
  } catch {
    // Storage is full or blocked: keep the page's copy.
  }
  window.dispatchEvent(new CustomEvent('paros-progress'));
}

function add(list, item) {
  return list.includes(item) ? list : [...list, item];
}

/** Records a passed level and the automation it unlocks; returns what was newly unlocked. */
export function pass(levelId, unlocks) {
  const progress = load();
  const fresh = unlocks.filter((name) => !progress.unlocked.includes(name));
  if (!fresh.length && progress.passed.includes(levelId)) return fresh;
  save({
    ...progress,
    passed: add(progress.passed, levelId),
    unlocked: fresh.reduce(add, progress.unlocked),
  });
  return fresh;
}

/** Whether a level has been passed. */
export function isPassed(levelId) {
  return load().passed.includes(levelId);
}

/** Remembers whether the player wants an unlocked automation on. */
export function setToggle(name, on) {
  const progress = load();
  const off = progress.off.filter((item) => item !== name);
  save({ ...progress, off: on ? off : [...off, name] });
}

/** Forgets every passed level, unlocked automation and toggle. */
export function reset() {
  memory = empty();
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing stored to remove.
  }
  window.dispatchEvent(new CustomEvent('paros-progress'));
}
