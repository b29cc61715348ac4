// Browser tests of paros play: real levels, played by clicking and typing in Debian's Chromium,
// against the site that `paros-book build` produced. Each test gets a fresh browser context, so
// localStorage starts empty unless the test itself reloads the page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { useSite, ready, stage, fingerprint, goal, moves } from './harness.js';

const site = useSite();

/** Plays choose-a-value to its goal: deliver the oldest deliverable message, and answer "is x
 *  chosen yet?" truly: chosen is a fact about the votes, so yes once two of three acceptors
 *  hold a vote. While the question is open, what the step changed is kept back (the voter, and
 *  every box the step turned chosen), so the player counts as a reader would: the votes on
 *  screen before the step, and the one the Accept just delivered made. */
async function playChooseAValue(page) {
  const shownVotes = () => page.locator('.pp-stage .pp-slot-undecided, .pp-stage .pp-slot-chosen').count();
  let votes = 0;
  for (let step = 0; step < 40; step += 1) {
    if ((await goal(page)) === 'reached') return step;
    if (await page.locator('.pp-choice').count()) {
      await page.locator(`.pp-choice[data-key="${votes >= 2 ? 'yes' : 'no'}"]`).click();
      continue;
    }
    const dot = page.locator('.pp-dot[tabindex]').first();
    assert.ok(await dot.count(), 'a deliverable message is on the wire while the goal is open');
    const accept = /\bpp-kind-accept\b/.test(await dot.getAttribute('class'));
    votes = (await shownVotes()) + (accept ? 1 : 0);
    await dot.click();
  }
  throw new Error('choose-a-value was not reached in 40 moves');
}

test('a level opens directly from play/#<id> and its goal is reached by clicking dots', async () => {
  const { page, context, errors } = await site.open(site.level('act1/choose-a-value'));
  assert.equal(await page.locator('.pp-title').textContent(), 'Choose a value');
  assert.equal(await goal(page), 'open');
  assert.ok((await page.locator('.pp-dot[tabindex]').count()) >= 2, 'Prepares are on the wire');
  // The silent acceptor's messages sit on a cut wire and cannot be clicked.
  assert.ok((await page.locator('.pp-dot.pp-dot-cut:not([tabindex])').count()) >= 1);
  const steps = await playChooseAValue(page);
  assert.ok(steps >= 8, `two Prepares, two Promises, two Accepts, two Accepteds: ${steps} steps`);
  assert.equal(await goal(page), 'reached');
  assert.match(await page.locator('.pp-badge').textContent(), /Reached/);
  assert.match(await page.locator('.pp-passed').textContent(), /Level passed/);
  assert.match(await page.locator('.pp-stage .pp-chosen').textContent(), /chosen: x/);
  assert.ok((await page.locator('.pp-slot-chosen').count()) >= 2, 'two green slot boxes');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a wrong answer shows the explanation and leaves the stage exactly as it was', async () => {
  const { page, context, errors } = await site.open(site.level('act1/be-the-acceptor'));
  await page.locator('.pp-dot[tabindex]').first().click();
  const question = page.locator('.pp-question');
  assert.match(await question.textContent(), /Promise or Nack/);
  assert.equal(await page.locator('.pp-dot[tabindex]').count(), 0, 'no dot is playable while a prompt is open');
  const stageBefore = await stage(page);
  const printBefore = await fingerprint(page);
  // A fresh acceptor promises the first Prepare it sees: Nack is wrong.
  await page.locator('.pp-choice[data-key="nack"]').click();
  const outcome = page.locator('.pp-outcome-wrong');
  await outcome.waitFor();
  assert.match(await outcome.textContent(), /Not what the real node does/);
  assert.ok((await outcome.textContent()).length > 40, 'the explanation says why');
  assert.equal(await stage(page), stageBefore, 'the stage is unchanged');
  assert.equal(await fingerprint(page), printBefore, 'the world is unchanged');
  assert.match(await page.locator('.pp-counts').textContent(), /mistakes 1/);
  assert.match(await question.textContent(), /Promise or Nack/, 'the same prompt stays open');
  // The right answer steps the real acceptor.
  await page.locator('.pp-choice[data-key="promise"]').click();
  await page.locator('.pp-outcome-right').waitFor();
  assert.notEqual(await stage(page), stageBefore);
  assert.deepEqual(errors, []);
  await context.close();
});

test('undo restores the exact previous stage, by button, by u and by Ctrl+Z', async () => {
  const { page, context, errors } = await site.open(site.level('act1/choose-a-value'));
  assert.ok(await page.locator('.pp-undo').isDisabled(), 'nothing to undo at the start');
  const snapshots = [[await stage(page), await fingerprint(page)]];
  for (let move = 0; move < 3; move += 1) {
    await page.locator('.pp-dot[tabindex]').first().click();
    snapshots.push([await stage(page), await fingerprint(page)]);
    assert.notEqual(snapshots.at(-1)[0], snapshots.at(-2)[0], 'a delivery changes the stage');
  }
  assert.equal(await moves(page), 3);
  await page.locator('.pp-undo').click();
  assert.deepEqual([await stage(page), await fingerprint(page)], snapshots[2]);
  await page.locator('.pp-stage').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('u');
  assert.deepEqual([await stage(page), await fingerprint(page)], snapshots[1]);
  await page.keyboard.press('Control+z');
  assert.deepEqual([await stage(page), await fingerprint(page)], snapshots[0]);
  assert.equal(await moves(page), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('dots are played from the keyboard: Tab to a dot, Enter delivers, focus stays on the wire', async () => {
  const { page, context, errors } = await site.open(site.level('act1/choose-a-value'));
  await page.locator('.pp-dot[tabindex]').first().focus();
  const focused = await page.evaluate(() => document.activeElement.dataset.msg);
  assert.ok(focused, 'a dot takes focus');
  await page.keyboard.press('Enter');
  assert.equal(await moves(page), 1);
  assert.ok(await page.evaluate(() => document.activeElement.classList.contains('pp-dot')), 'focus moves to the next dot');
  await page.keyboard.press(' ');
  assert.equal(await moves(page), 2);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a prompt is answered from the keyboard: focus goes to the choices, then back to the wire', async () => {
  const { page, context, errors } = await site.open(site.level('act1/be-the-acceptor'));
  await page.locator('.pp-dot[data-msg="1"]').focus();
  await page.keyboard.press('Enter');
  const active = () => page.evaluate(() => document.activeElement.className.baseVal ?? document.activeElement.className);
  assert.equal(await active(), 'pp-choice', 'the first choice takes focus');
  await page.keyboard.press('2');
  assert.match(await page.locator('.pp-outcome-wrong').textContent(), /Not what the real node does/);
  assert.equal(await active(), 'pp-choice', 'a wrong answer keeps the question in focus');
  await page.keyboard.press('Enter');
  await page.locator('.pp-outcome-right').waitFor();
  assert.match(await active(), /pp-dot/, 'focus is back on the wire');
  assert.equal(await moves(page), 2, 'the delivery and the answer');
  assert.deepEqual(errors, []);
  await context.close();
});

test('faults are played from the wire list and the keyboard: duplicate a Prepare twice', async () => {
  const { page, context, errors } = await site.open(site.level('act1/be-the-acceptor'));
  const dots = page.locator('.pp-stage .pp-dot');
  const before = await dots.count();
  await page.locator('.pp-wire-list li[data-msg="1"] button[data-action="duplicate"]').click();
  assert.equal(await dots.count(), before + 1, 'a second copy is on the wire');
  assert.match(await page.locator('.pp-wire-list').textContent(), new RegExp(`m${before + 1} P1→A1 Prepare\\(1\\.P1\\)`));
  await page.locator('.pp-dot[data-msg="2"]').focus();
  await page.keyboard.press('d');
  assert.equal(await dots.count(), before + 2, 'd duplicates the focused message');
  assert.equal(await page.locator('button[data-action="duplicate"]').count(), 0, 'the duplicate budget is spent');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the level map shows a passed level after a reload, and reset forgets it', async () => {
  const { page, context, errors } = await site.open(`${site.url}/play/`);
  const entry = page.locator('.pp-map-level[data-level="act1/choose-a-value"]');
  assert.equal(await entry.count(), 1);
  assert.equal(await entry.getAttribute('class'), 'pp-map-level', 'not passed on a fresh browser');
  assert.ok((await page.locator('.pp-map-level').count()) >= 6, 'all of Act I is on the map');
  await entry.locator('a').click();
  await page.locator('.pp-level').waitFor();
  assert.equal(new URL(page.url()).hash, '#act1/choose-a-value');
  await playChooseAValue(page);
  await page.goto(`${site.url}/play/`);
  await page.reload();
  await ready(page);
  assert.match(await entry.getAttribute('class'), /pp-map-passed/);
  assert.match(await entry.textContent(), /passed/);
  assert.match(await page.locator('.pp-map-summary').textContent(), /^\s*1 of \d+ levels passed/);
  await page.locator('.pp-reset').click();
  assert.equal(await entry.getAttribute('class'), 'pp-map-level pp-map-passed', 'one press only asks');
  await page.locator('.pp-reset').click();
  await page.reload();
  await ready(page);
  assert.equal(await entry.getAttribute('class'), 'pp-map-level');
  assert.deepEqual(errors, []);
  await context.close();
});

test('unlocked automation is offered in later levels, and switching it off is remembered', async () => {
  const { page, context, errors } = await site.open(site.level('act1/the-duel'));
  const replies = page.locator('input[data-automation="acceptor-replies"]');
  assert.ok(await replies.isDisabled(), 'locked before be-the-acceptor is passed');
  assert.match(await page.locator('.pp-automation').textContent(), /locked: pass Be the acceptor/);
  // As if be-the-acceptor had been passed in an earlier visit.
  await page.evaluate(() => {
    const progress = { passed: ['act1/be-the-acceptor'], unlocked: ['acceptor-replies'], off: [] };
    localStorage.setItem('paros-play.progress.v1', JSON.stringify(progress));
  });
  await page.reload();
  await ready(page);
  assert.ok(await replies.isEnabled(), 'unlocked');
  assert.ok(await replies.isChecked(), 'an unlocked toggle starts on');
  assert.equal(await page.locator('.pp-stage .pp-acceptor.pp-by-hand').count(), 0, 'the acceptors answer by themselves');
  await replies.uncheck();
  assert.equal(await page.locator('.pp-stage .pp-acceptor.pp-by-hand').count(), 3, 'now you answer for the acceptors');
  await page.reload();
  await ready(page);
  assert.ok(!(await replies.isChecked()), 'the choice survives a reload');
  assert.equal(await page.locator('.pp-stage .pp-acceptor.pp-by-hand').count(), 3);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the replicated log draws nodes, clients and their logs; a request puts a Write on the wire', async (t) => {
  const { page, context, errors } = await site.open(site.level('act2/steady-state'));
  if (!(await page.locator('.pp-level').count())) {
    t.skip('this build has no act2/steady-state');
    await context.close();
    return;
  }
  assert.equal(await page.locator('.pp-stage .pp-client').count(), 2, 'C1 and C2');
  assert.equal(await page.locator('.pp-stage .pp-leader').count(), 1, 'N1 leads');
  assert.equal(await page.locator('.pp-stage .pp-arc').count(), 3, 'an election arc per node');
  const request = page.locator('.pp-controls button', { hasText: /^Request: C1 N1/ });
  await request.click();
  assert.match(await page.locator('.pp-wire-list').textContent(), /C1→N1 Write/);
  await page.locator('.pp-wire-list li', { hasText: 'C1→N1 Write' }).locator('button[data-action="deliver"]').click();
  assert.ok((await page.locator('.pp-stage .pp-slot-undecided').count()) >= 1, 'the leader voted for slot 1');
  assert.match(await page.locator('.pp-world-box').textContent(), /C1 client/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a level mounts inline in a page with a .paros-level div', async () => {
  const { page, context, errors } = await site.open(`${site.url}/e2e/chapter.html`);
  const embed = page.locator('.paros-level[data-level="act1/choose-a-value"]');
  assert.equal(await embed.locator('.pp-title').textContent(), 'Choose a value');
  assert.equal(await embed.locator('.pp-stage').count(), 1);
  assert.equal(await embed.locator(':scope > div > .pp-head').count(), 1, 'the level replaced the placeholder');
  await playChooseAValue(embed);
  // Passing a level inline offers the next one on the play page.
  const next = await embed.locator('.pp-next').getAttribute('href');
  assert.equal(next, `${site.url}/play/#act1/be-the-acceptor`);
  const missing = page.locator('.paros-level[data-level="act9/no-such-level"]');
  assert.match(await missing.textContent(), /no level named “act9\/no-such-level”/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the stage follows the theme: prefers-color-scheme and data-theme', async () => {
  const { page, context } = await site.open(site.level('act1/choose-a-value'), { colorScheme: 'dark' });
  const ink = () => page.locator('.pp-node-name').first().evaluate((node) => getComputedStyle(node).fill);
  const dark = await ink();
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
  const light = await ink();
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'navy'));
  assert.notEqual(dark, light, 'node names change colour with the theme');
  assert.equal(await ink(), dark, 'any theme but light is dark');
  await context.close();
});

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

test('the stage fits a phone and a desktop, light and dark (screenshots in tests/e2e/screenshots)', async () => {
  await mkdir(SHOTS, { recursive: true });
  for (const [name, width] of [['phone', 360], ['desktop', 1280]]) {
    for (const scheme of ['light', 'dark']) {
      const { page, context, errors } = await site.open(site.level('act1/be-the-acceptor'), { viewport: { width, height: 800 }, colorScheme: scheme });
      await page.locator('.pp-dot[tabindex]').nth(1).click();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${name} ${scheme}: no sideways scrolling (${overflow}px too wide)`);
      await page.screenshot({ path: `${SHOTS}be-the-acceptor-${name}-${scheme}.png`, fullPage: true });
      await page.goto(site.level('act1/choose-a-value'));
      await playChooseAValue(page);
      await page.locator('.pp-level').screenshot({ path: `${SHOTS}choose-a-value-reached-${name}-${scheme}.png` });
      await page.goto(`${site.url}/play/`);
      await ready(page);
      await page.screenshot({ path: `${SHOTS}map-${name}-${scheme}.png`, fullPage: true });
      assert.deepEqual(errors, []);
      await context.close();
    }
  }
});

/** Delivers the message whose dot's name holds `needle` (`P1→A2 Accept`) by clicking it. */
async function deliverDot(page, needle) {
  const dot = page.locator(`.pp-stage .pp-dot[tabindex][aria-label*="${needle}"]`).first();
  assert.equal(await dot.count(), 1, `a dot ${needle} is on the wire`);
  await dot.click();
}

test('choose-a-value asks "is x chosen yet?" before the stage says what is chosen', async () => {
  const { page, context, errors } = await site.open(site.level('act1/choose-a-value'));
  for (const needle of ['P1→A1 Prepare', 'P1→A2 Prepare', 'A1→P1 Promise', 'A2→P1 Promise', 'P1→A1 Accept']) {
    await deliverDot(page, needle);
  }
  const chosenLine = () => page.locator('.pp-stage .pp-chosen').textContent();
  assert.match(await page.locator('.pp-question').textContent(), /Is x chosen yet\?/);
  assert.doesNotMatch(await chosenLine(), /chosen: x|nothing chosen/, 'the first vote: the stage does not answer');
  await page.locator('.pp-choice[data-key="no"]').click();
  await deliverDot(page, 'P1→A2 Accept');
  assert.match(await page.locator('.pp-question').textContent(), /Is x chosen yet\?/);
  assert.doesNotMatch(await chosenLine(), /chosen: x/, 'the second vote chose x, and the stage keeps it back');
  assert.doesNotMatch(await page.locator('.pp-stage').getAttribute('aria-label'), /chosen: x/);
  await page.locator('.pp-choice[data-key="yes"]').click();
  assert.match(await chosenLine(), /chosen: x at 1\.P1 by A1, A2/, 'answered: now the stage says it');
  assert.deepEqual(errors, []);
  await context.close();
});

test('quorum-intersection asks which promiser carries x before P2 hears a Promise or proposes', async () => {
  const { page, context, errors } = await site.open(site.level('act1/quorum-intersection'));
  await deliverDot(page, 'P1→A1 Accept');
  await deliverDot(page, 'P1→A2 Accept');
  const start = page.locator('.pp-controls button', { hasText: 'Start P2' });
  assert.match(await page.locator('.pp-control-help').textContent(), /Start P2: P2 begins Phase 1/);
  await start.click();
  await deliverDot(page, 'P2→A1 Prepare');
  await deliverDot(page, 'P2→A3 Prepare');
  assert.match(await page.locator('.pp-question').textContent(), /Which of P2's promisers will carry x's vote\?/);
  const p2 = await page.locator('.pp-stage g.pp-node[data-node="P2"]').textContent();
  assert.doesNotMatch(p2, /proposes/, `P2 has not picked a value: ${p2}`);
  const wire = await page.locator('.pp-wire-list').textContent();
  assert.doesNotMatch(wire, /P2→A\d Accept/, 'no Accept of P2 is on the wire');
  const facts = await page.locator('.pp-facts').textContent();
  assert.doesNotMatch(facts, /reports/, `the facts name no Promise's report: ${facts}`);
  await page.locator('.pp-choice[data-key="A1"]').click();
  assert.match(await page.locator('.pp-outcome').textContent(), /^Right\./);
  assert.deepEqual(errors, []);
  await context.close();
});
