// Counterexamples replayed on the stage: a chapter's negative control, stepped forward to the
// checker's words and back to the world as built, by the buttons and by the arrow keys; the log
// module's replay of a log world; and the page with its replay open passes the axe-core audit,
// in light and dark, at a phone's width too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { useSite } from './harness.js';

const AXE_SOURCE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const site = useSite();

const CHAPTER = 'one-value-is-safe.html';
const CONTROL = 'act1-amnesia-control';

/** The replay mounted beside a scenario's report. */
const replayOf = (page, scenario) => page.locator(`.paros-replay[data-scenario="${scenario}"]`);

/** What the replay shows: its step count, the action lines, the checker's words and the stage. */
async function shown(replay) {
  return {
    count: await replay.locator('.pp-replay-count').textContent(),
    action: await replay.locator('.pp-replay-action').textContent(),
    next: await replay.locator('.pp-replay-next').textContent(),
    verdict: (await replay.locator('.pp-replay-verdict').textContent()).trim(),
    ringed: await replay.locator('.pp-stage').evaluate((svg) => svg.querySelector('.pp-dot-next')?.dataset.msg ?? null),
    stage: await replay.locator('.pp-stage').evaluate((svg) => svg.outerHTML),
  };
}

/** Opens the chapter and returns its control's replay, with the report's actions. */
async function openControl(options = {}) {
  const opened = await site.open(`${site.url}/${CHAPTER}`, options);
  const replay = replayOf(opened.page, CONTROL);
  await replay.locator('.pp-stage').waitFor();
  const actions = JSON.parse(await replay.getAttribute('data-actions'));
  return { ...opened, replay, actions };
}

/** Runs axe-core on the page as it stands; the serious and critical violations. */
async function graveViolations(page) {
  await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    const results = await window.axe.run(document, { resultTypes: ['violations'] });
    return results.violations
      .filter((violation) => ['serious', 'critical'].includes(violation.impact))
      .map((violation) => ({ id: violation.id, help: violation.help, nodes: violation.nodes.map((node) => node.target.join(' ')) }));
  });
}

test('a negative control steps forward to the checker’s words and back to its start, by the buttons', async () => {
  const { page, context, errors, replay, actions } = await openControl();
  const steps = actions.length;
  assert.ok(steps > 1, `a counterexample of ${steps} actions`);
  const listed = await page.locator(`section[data-scenario="${CONTROL}"] ol.counterexample li`).allTextContents();
  assert.deepEqual(listed, actions, 'the text list of actions stays beside the replay');

  const start = await shown(replay);
  assert.equal(start.count, `step 0 of ${steps}`);
  assert.match(start.action, /before any action/);
  assert.ok(start.next.includes(actions[0]), start.next);
  assert.equal(start.ringed, actions[0].match(/^deliver m(\d+)/)[1], 'the next action’s message is ringed');
  assert.equal(start.verdict, '');
  assert.equal(await replay.locator('.pp-replay-back').getAttribute('aria-disabled'), 'true');

  for (let step = 1; step <= steps; step += 1) {
    await replay.getByRole('button', { name: /Forward/ }).click();
    const now = await shown(replay);
    assert.equal(now.count, `step ${step} of ${steps}`);
    assert.ok(now.action.includes(actions[step - 1]), `step ${step}: ${now.action}`);
    if (step < steps) assert.equal(now.verdict, '', `step ${step} breaks nothing yet`);
  }
  const end = await shown(replay);
  assert.match(end.verdict, /^The checker:\s*agreement: x chosen at 1\.P1 by \{A1, A2\}; y chosen at 1\.P2 by \{A1, A2\}$/);
  assert.equal(end.next, '');
  assert.equal(await replay.locator('.pp-replay-forward').getAttribute('aria-disabled'), 'true');
  // Playwright will not click a button marked disabled; a reader still can.
  await replay.getByRole('button', { name: /Forward/ }).dispatchEvent('click');
  assert.equal((await shown(replay)).count, `step ${steps} of ${steps}`, 'forward stops at the last step');

  for (let step = steps - 1; step >= 0; step -= 1) {
    await replay.getByRole('button', { name: /Back/ }).click();
    assert.equal((await shown(replay)).count, `step ${step} of ${steps}`);
  }
  assert.deepEqual(await shown(replay), start, 'back at step 0, the stage is the one it began with');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the arrow keys step through the replay while it has focus', async () => {
  const { page, context, errors, replay, actions } = await openControl();
  const steps = actions.length;
  const start = await shown(replay);
  await replay.locator('.pp-replay-forward').focus();
  for (let step = 1; step <= steps; step += 1) await page.keyboard.press('ArrowRight');
  const end = await shown(replay);
  assert.equal(end.count, `step ${steps} of ${steps}`);
  assert.match(end.verdict, /agreement: /);
  assert.ok(await replay.locator('.pp-replay-forward').evaluate((button) => button === document.activeElement), 'focus stays on Forward');
  for (let step = 1; step <= steps; step += 1) await page.keyboard.press('ArrowLeft');
  assert.deepEqual(await shown(replay), start);
  assert.ok(page.url().endsWith(`/${CHAPTER}`), `the book did not turn the page: ${page.url()}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the log module replays a log world’s counterexample to its checker’s words', async () => {
  const { page, context, errors } = await site.open(`${site.url}/stable-leader.html`);
  const replay = replayOf(page, 'act2-forget-ballot-control');
  await replay.locator('.pp-stage').waitFor();
  assert.equal(await replay.getAttribute('data-module'), 'log');
  const steps = JSON.parse(await replay.getAttribute('data-actions')).length;
  await replay.locator('.pp-replay-forward').focus();
  for (let step = 1; step <= steps; step += 1) await page.keyboard.press('ArrowRight');
  const end = await shown(replay);
  assert.equal(end.count, `step ${steps} of ${steps}`);
  assert.match(end.verdict, /^The checker:/);
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [name, options] of [
  ['light', {}],
  ['dark, at a phone’s width', { colorScheme: 'dark', viewport: { width: 375, height: 800 } }],
]) {
  test(`a chapter with a replay at its last step passes the axe-core audit (${name})`, async () => {
    const { page, context, errors, replay, actions } = await openControl(options);
    await replay.locator('.pp-replay-forward').focus();
    for (let step = 1; step <= actions.length; step += 1) await page.keyboard.press('ArrowRight');
    assert.match(await replay.locator('.pp-replay-verdict').textContent(), /agreement/);
    const grave = await graveViolations(page);
    assert.deepEqual(grave, [], JSON.stringify(grave, null, 2));
    const overflow = await replay.evaluate((root) => root.scrollWidth - root.clientWidth);
    assert.ok(overflow <= 0, `the replay fits its column (${overflow}px too wide)`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
