// Browser test of Act III's reads: `act3/the-fresh-leader-trap` played to its goal by clicking
// dots, controls and prompt choices, with one wrong answer on the way that is told the
// read-at-applied control's counterexample and leaves the world as it was. Messages are found
// by their route and text in the wire list, the way a player reads them.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPage, ready } from './harness.js';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const level = (id) => `${server.url}/play/#${id}`;
const fingerprint = (page) => page.locator('.pp-level').getAttribute('data-fingerprint');
const goal = (page) => page.locator('.pp-level').getAttribute('data-goal');

/** The wire-list row of the first message in flight from `from` to `to` whose text starts
 *  with `text`, as the list prints it: `m5 N1→N2 Accept(...)`. */
async function wireRow(page, from, to, text) {
  const wanted = `${from}→${to} ${text}`;
  for (const row of await page.locator('.pp-wire-list li[data-msg]').all()) {
    const line = (await row.locator('.pp-msg-text').textContent()).replace(/^m\d+ /, '');
    if (line.startsWith(wanted)) return row;
  }
  throw new Error(`no message "${wanted}…" in flight: ${await page.locator('.pp-wire-list').textContent()}`);
}

/** Delivers a message by clicking its dot on the stage. */
async function deliver(page, from, to, text) {
  const id = await (await wireRow(page, from, to, text)).getAttribute('data-msg');
  await page.locator(`.pp-stage .pp-dot[data-msg="${id}"]`).click();
}

/** Clicks the control whose label starts with `label`. */
async function control(page, label) {
  for (const button of await page.locator('.pp-controls button').all()) {
    if ((await button.textContent()).startsWith(label)) return button.click();
  }
  throw new Error(`no control "${label}"`);
}

/** Answers the open prompt with the choice `key`, and waits for the verdict. */
async function answer(page, key, verdict) {
  await page.locator(`.pp-choice[data-key="${key}"]`).click();
  await page.locator(`.pp-outcome-${verdict}`).waitFor();
}

test('the fresh-leader trap is played to its goal by clicking: the read waits for slot 1 to be decided again', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(level('act3/the-fresh-leader-trap'));
  await ready(page);
  assert.equal(await page.locator('.pp-title').textContent(), 'The fresh-leader trap');
  assert.equal(await goal(page), 'open');

  await control(page, 'Request: C1 N2');
  await deliver(page, 'C1', 'N2', 'Read');
  assert.match(await page.locator('.pp-question').textContent(), /N2 holds C1's read of x .* Serve x = nothing now, or wait\?/);

  // Serving now is wrong: the world does not move, and the control's counterexample is told.
  const before = await fingerprint(page);
  await answer(page, 'serve', 'wrong');
  const told = await page.locator('.pp-outcome-wrong').textContent();
  assert.match(told, /read-at-applied control/);
  assert.match(told, /the write of x = 1 by C1 at steps 0 to 1 completed before the read began/);
  assert.equal(await fingerprint(page), before, 'a wrong answer never enters the world');

  await answer(page, 'wait', 'right');
  await deliver(page, 'N2', 'N3', 'ReadIndex');
  await deliver(page, 'N3', 'N2', 'ReadIndexReply');
  assert.match(await page.locator('.pp-facts').textContent(), /\{N2, N3\} reported their highest accepted slots; the highest is 1/);
  await answer(page, 'wait', 'right');
  await deliver(page, 'N2', 'N3', 'Accept(2.N2, slot 1,');
  await deliver(page, 'N3', 'N2', 'Accepted');
  assert.match(await page.locator('.pp-question').textContent(), /Serve x = 1 now, or wait\?/);
  await answer(page, 'serve', 'right');
  await deliver(page, 'N2', 'C1', 'Reply');

  assert.equal(await goal(page), 'reached');
  assert.match(await page.locator('.pp-passed').textContent(), /Level passed/);
  assert.equal(await page.locator('.pp-checklist li:not(.pp-done)').count(), 0, 'every checklist item is done');
  assert.deepEqual(errors, []);
});
