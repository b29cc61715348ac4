// Browser test of the game's modules: one wasm module per kind of world, each loaded only when a
// level of its world mounts. The level map draws from `play/levels.json` with no module loaded;
// an Act I level loads the single-decree module alone, an Act II level then loads the
// replicated log's, once, and a Matchmaker Paxos level the matchmaker module.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, stage } from './harness.js';

const site = useSite();

/** The wasm modules the page has fetched so far, by their folder under play/pkg/. */
function watchModules(page) {
  const fetched = [];
  page.on('request', (request) => {
    const match = /\/play\/pkg\/([^/]+)\/paros_play_bg\.wasm$/.exec(request.url());
    if (match) fetched.push(match[1]);
  });
  return fetched;
}

test('the level map loads no module, and each level loads only the module of its world', async () => {
  const { page, errors } = await site.open(`${site.url}/play/`);
  const fetched = watchModules(page);
  assert.ok((await page.locator('.pp-map-level').count()) >= 18, 'the map lists every level');
  assert.deepEqual(fetched, [], 'the map draws from levels.json alone');

  await page.evaluate(() => {
    location.hash = 'act1/choose-a-value';
  });
  await page.locator('.pp-level .pp-stage').waitFor();
  assert.match(await stage(page), /P1/);
  assert.deepEqual(fetched, ['one-value']);

  await page.evaluate(() => {
    location.hash = 'act2/persist-before-send';
  });
  await page.locator('.pp-level .pp-stage').waitFor();
  assert.equal(await page.locator('.pp-title').textContent(), 'Persist before send');
  assert.match(await stage(page), /N1/);
  assert.deepEqual(fetched, ['one-value', 'log']);

  // Back to Act I: its module is already loaded.
  await page.evaluate(() => {
    location.hash = 'act1/be-the-acceptor';
  });
  await page.locator('.pp-title', { hasText: 'Be the acceptor' }).waitFor();
  assert.deepEqual(fetched, ['one-value', 'log']);

  // Matchmaker Paxos plays in a module of its own.
  await page.evaluate(() => {
    location.hash = 'act4/matchmaking';
  });
  await page.locator('.pp-title', { hasText: 'Matchmaking' }).waitFor();
  assert.match(await stage(page), /M1/);
  assert.deepEqual(fetched, ['one-value', 'log', 'matchmaker']);
  assert.deepEqual(errors, []);
});
