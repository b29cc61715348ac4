// Browser test of `act3/chosen-is-not-applied`: played to its goal by clicking dots, controls
// and prompt choices, with one wrong answer on the way that is told the real slots and leaves
// the world as it was. Messages are found by their route and text in the wire list, the way a
// player reads them.

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

test('chosen is not applied is played to its goal by clicking: the retry is proposed again and its repeat skipped', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto(level('act3/chosen-is-not-applied'));
  await ready(page);
  assert.equal(await page.locator('.pp-title').textContent(), 'Chosen is not applied');
  assert.equal(await goal(page), 'open');

  await control(page, 'Request: C2 N1');
  await deliver(page, 'C2', 'N1', 'Write');
  assert.match(await page.locator('.pp-question').textContent(), /C2 sends y=b \(C2#1\) again, to N1\. What does N1 do\?/);
  assert.match(await page.locator('.pp-facts').textContent(), /N1 has applied through slot 0, behind the hole at slot 1/);

  // Answering at once is wrong: the world does not move, and the real slots are named.
  const before = await fingerprint(page);
  await answer(page, 'answer', 'wrong');
  const told = await page.locator('.pp-outcome-wrong').textContent();
  assert.match(told, /slot 2 is chosen but not applied, behind the hole at slot 1/);
  assert.match(told, /So N1 proposes it in slot 3\./);
  assert.equal(await fingerprint(page), before, 'a wrong answer never enters the world');

  await answer(page, 'propose', 'right');
  await deliver(page, 'N1', 'N2', 'Accept(1.N1, slot 3,');
  await deliver(page, 'N2', 'N1', 'Accepted(1.N1, slot 1)');
  await deliver(page, 'N2', 'N1', 'Accepted(1.N1, slot 3)');
  assert.match(await page.locator('.pp-question').textContent(), /N1 applies slot 3, y=b \(C2#1\) again\. What happens\?/);
  await answer(page, 'skipped', 'right');
  await deliver(page, 'N1', 'C2', 'Reply');

  assert.equal(await goal(page), 'reached');
  assert.match(await page.locator('.pp-passed').textContent(), /Level passed/);
  assert.equal(await page.locator('.pp-checklist li:not(.pp-done)').count(), 0, 'every checklist item is done');
  assert.deepEqual(errors, []);
});
