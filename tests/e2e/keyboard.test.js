// Every level can be played with the keyboard alone. These tests play one level of each act to
// its goal without a single mouse event: Tab (and Shift+Tab) walk the focus to the dot or
// button a move needs, Enter presses it, and a digit answers the open prompt.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, ready } from './harness.js';

const site = useSite();

const goal = (page) => page.locator('.pp-level').first().getAttribute('data-goal');

/** Storage of a player who reached Act II in order: Act I's roles and the apply walk earned. */
function earnedActOne() {
  const value = JSON.stringify({
    passed: ['act1/be-the-acceptor', 'act1/adopt-the-value', 'act2/a-log-of-decisions'],
    unlocked: ['acceptor-replies', 'p2c', 'apply-walk'],
    off: [],
  });
  return { cookies: [], origins: [{ origin: site.url, localStorage: [{ name: 'paros-play.progress.v1', value }] }] };
}

/** What the focused element is: a dot's accessible name or a button's text. */
const focused = (page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return '';
    return element.getAttribute('aria-label') || element.textContent || '';
  });

/** Presses Tab until the focused element's name contains `needle`; fails after a full lap. */
async function tabTo(page, needle) {
  for (let presses = 0; presses < 300; presses += 1) {
    if ((await focused(page)).includes(needle)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`no element named “${needle}” could be reached with Tab`);
}

/** The name a dot or button carries for a script step: `deliver N2->N3 Accept(2.N2, slot 1`
 *  is the dot named `N2→N3 Accept(2.N2, slot 1`; `tick N2` is the button `Tick N2`. */
function needleFor(step) {
  const deliver = step.match(/^deliver (\S+)->(\S+) (.*)$/);
  if (deliver) return `${deliver[1]}→${deliver[2]} ${deliver[3]}`;
  const request = step.match(/^request (\S+) (\S+)$/);
  if (request) return `Request: ${request[1]} ${request[2]}`;
  return step.replace(/^\w/, (first) => first.toUpperCase());
}

/** Plays `steps` with the keyboard alone: a move is Tab to its dot or button and Enter; an
 *  answer is the digit of the choice with that key. */
async function playByKeyboard(page, steps) {
  for (const step of steps) {
    const answer = step.match(/^answer (.*)$/);
    if (answer) {
      const keys = await page.locator('.pp-choice').evaluateAll((buttons) => buttons.map((button) => button.dataset.key));
      const index = keys.indexOf(answer[1]);
      assert.ok(index >= 0, `the prompt offers ${answer[1]}: ${keys.join(', ')}`);
      await page.keyboard.press(String(index + 1));
    } else {
      await tabTo(page, needleFor(step));
      await page.keyboard.press('Enter');
    }
    assert.equal(await page.locator('.pp-error').count(), 0, `${step} was refused`);
  }
}

/** Opens a level with the mouse never touched and focus on the page. */
async function openLevel(id, options = {}) {
  const opened = await openPage(site.browser, options);
  const { page } = opened;
  let clicks = 0;
  await page.exposeFunction('noteClick', () => {
    clicks += 1;
  });
  await page.addInitScript(() => {
    for (const type of ['mousedown', 'click', 'pointerdown']) {
      // A click synthesised by Enter on a button has no pointer behind it (detail 0).
      document.addEventListener(type, (event) => event.detail > 0 && window.noteClick(), true);
    }
  });
  await page.goto(`${site.url}/play/#${id}`);
  await ready(page);
  return { ...opened, mouseClicks: () => clicks };
}

test('Act I: choose-a-value is played to its goal with the keyboard alone', async () => {
  const { page, context, errors, mouseClicks } = await openLevel('act1/choose-a-value');
  assert.equal(await goal(page), 'open');
  await playByKeyboard(page, [
    'deliver P1->A1 Prepare',
    'deliver P1->A2 Prepare',
    'deliver A1->P1 Promise',
    'deliver A2->P1 Promise',
    'deliver P1->A1 Accept',
    'answer no',
    'deliver P1->A2 Accept',
    'answer yes',
    'deliver A1->P1 Accepted',
    'deliver A2->P1 Accepted',
  ]);
  assert.equal(await goal(page), 'reached');
  assert.equal(mouseClicks(), 0, 'no pointer event was needed');
  assert.deepEqual(errors, []);
  await context.close();
});

test('Act II: elect-a-leader is played to its goal with the keyboard alone', async () => {
  const { page, context, errors, mouseClicks } = await openLevel('act2/elect-a-leader', {
    storageState: earnedActOne(),
  });
  assert.equal(await goal(page), 'open');
  await playByKeyboard(page, [
    'tick N2',
    'tick N2',
    'deliver N2->N3 Prepare',
    'deliver N3->N2 Promise',
    'answer recover',
    'deliver N2->N3 Accept(2.N2, slot 1',
    'deliver N3->N2 Accepted',
    'deliver N2->N3 Accept(2.N2, slot 2',
    'deliver N3->N2 Accepted',
    'request C3 N2',
    'answer no',
    'deliver C3->N2 Write',
    'deliver N2->N3 Accept(2.N2, slot 3',
    'deliver N3->N2 Accepted',
  ]);
  assert.equal(await goal(page), 'reached');
  assert.equal(mouseClicks(), 0, 'no pointer event was needed');
  assert.deepEqual(errors, []);
  await context.close();
});
