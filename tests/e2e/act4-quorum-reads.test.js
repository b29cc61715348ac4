// Browser tests of Act IV's `act4/quorum-reads`: the level played to its goal by clicking and
// ticking check boxes by keyboard (N4's reach set picked as a row without the leader, a read
// its log does not cover held until the leader's heartbeat teaches it slot 1, a second read
// served as soon as its row answers), a column refused as a reach set and serving too early
// refused, each with the world untouched, and the page audited by axe-core.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, stage, fingerprint, goal, moves, audit, grave, passedCleanly } from './harness.js';
import { deliver, control, answer } from './log-play.js';

const site = useSite();
const ID = 'act4/quorum-reads';

const question = (page) => page.locator('.pp-question').textContent();

/** Ticks exactly the check boxes of `names` by keyboard (Tab to each box, Space to tick), then
 *  answers with the submit button, pressed by Enter, and waits for the verdict. */
async function pickByKeyboard(page, names, verdict) {
  const boxes = page.locator('.pp-pick input[type="checkbox"]');
  await boxes.first().focus();
  for (let at = 0; at < await boxes.count(); at += 1) {
    const box = boxes.nth(at);
    assert.equal(await box.evaluate((element) => element === document.activeElement), true, `box ${at} has focus`);
    const wanted = names.includes(await box.getAttribute('value'));
    if (wanted !== await box.isChecked()) await page.keyboard.press('Space');
    assert.equal(await box.isChecked(), wanted);
    await page.keyboard.press('Tab');
  }
  assert.equal(await page.locator('.pp-pick-submit').evaluate((element) => element === document.activeElement), true, 'the button is next');
  await page.keyboard.press('Enter');
  await page.locator(`.pp-outcome-${verdict}`).waitFor();
}

/** Fails unless a wrong answer left the world, the stage and the move count as they were. */
async function assertUntouched(page, before) {
  assert.equal(await fingerprint(page), before.print, 'a wrong answer leaves the world as it was');
  assert.equal(await stage(page), before.stage, 'and the stage');
  assert.equal(await moves(page), before.moves, 'a wrong answer is not a move');
}

const snapshot = async (page) => ({ print: await fingerprint(page), stage: await stage(page), moves: await moves(page) });

test('quorum reads are played to their goal by clicking and ticking, wrong answers refused', async () => {
  const { page, context, errors } = await site.open(site.level(ID));
  assert.equal(await page.locator('.pp-title').textContent(), 'Quorum reads');
  assert.match(await page.locator('.pp-kicker').textContent(), /Act IV/);
  assert.equal(await goal(page), 'open');

  // C2's first read reaches N4: it waits, then the reach set is asked with one box per node.
  await control(page, 'Request: C2 N4');
  await deliver(page, 'C2', 'N4', 'Read');
  await answer(page, 'wait', 'right');
  assert.match(await question(page), /Whose answers will N4's read wait for, with no leader asked\?/);
  const labels = await page.locator('.pp-pick label').allTextContents();
  assert.deepEqual(labels.map((label) => label.trim()), ['N1', 'N2', 'N3', 'N4']);
  const axeOpen = grave(await audit(page));
  assert.deepEqual(axeOpen, [], JSON.stringify(axeOpen, null, 2));

  // A column is refused in the core's words; the world does not move.
  let before = await snapshot(page);
  await pickByKeyboard(page, ['N1', 'N3'], 'wrong');
  assert.match(await page.locator('.pp-outcome-wrong').textContent(), /\{N1, N3\} holds no full row of the rows \{N1, N2\} and \{N3, N4\}/);
  await assertUntouched(page, before);
  await pickByKeyboard(page, ['N3', 'N4'], 'right');
  assert.match(await page.locator('.pp-outcome-right').textContent(), /\{N3, N4\} holds a full row/);

  // N3 answers: the row reports slot 1, N4 has applied nothing. Serving now is refused.
  await deliver(page, 'N4', 'N3', 'ReadIndex');
  await deliver(page, 'N3', 'N4', 'ReadIndexReply');
  assert.match(await question(page), /N4 holds C2's read of x .* Serve x = nothing now, or wait\?/);
  before = await snapshot(page);
  await answer(page, 'serve', 'wrong');
  assert.match(await page.locator('.pp-outcome-wrong').textContent(), /N4 has applied only through slot 0/);
  await assertUntouched(page, before);
  await answer(page, 'wait', 'right');

  // The leader's heartbeat teaches N4 slot 1: now it serves x = 1.
  await control(page, 'Tick N1');
  await deliver(page, 'N1', 'N4', 'Heartbeat');
  assert.match(await question(page), /Serve x = 1 now, or wait\?/);
  await answer(page, 'serve', 'right');
  await deliver(page, 'N4', 'C2', 'Reply');

  // The second read is covered: served as soon as N3 answers.
  await control(page, 'Request: C2 N4');
  await deliver(page, 'C2', 'N4', 'Read');
  await answer(page, 'wait', 'right');
  await pickByKeyboard(page, ['N3', 'N4'], 'right');
  await deliver(page, 'N4', 'N3', 'ReadIndex');
  await deliver(page, 'N3', 'N4', 'ReadIndexReply');
  await answer(page, 'serve', 'right');
  await deliver(page, 'N4', 'C2', 'Reply');
  await passedCleanly(page, context, errors);
});
