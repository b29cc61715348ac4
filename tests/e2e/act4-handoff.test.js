// Browser tests of Act IV's `act4/the-handoff`: the level played to its goal by clicking (N1
// hands 1.N1 to N2 with the "Hand off" control, N2 finishes x=2 and chooses y=1 at the same
// ballot, and the second handoff is refused in paros-core's words), a wrong answer refused on
// the way with the world untouched, the disk's handoff marks shown, and the page audited by
// axe-core.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, stage, fingerprint, goal, moves, audit, grave, passedCleanly } from './harness.js';
import { deliver, control, answer } from './log-play.js';

const site = useSite();
const ID = 'act4/the-handoff';

const question = (page) => page.locator('.pp-question').textContent();
const worldBox = (page) => page.locator('.pp-world-box').textContent();

test('the handoff is played to its goal by clicking, and filling the hole is refused', async () => {
  const { page, context, errors } = await site.open(site.level(ID));
  assert.equal(await page.locator('.pp-title').textContent(), 'The handoff');
  assert.match(await page.locator('.pp-kicker').textContent(), /Act IV/);
  assert.equal(await goal(page), 'open');

  // N1 hands its ballot off: the question about its disk is open, the disk hidden.
  await control(page, 'Hand off: N1 → N2');
  assert.match(await question(page), /N1's Handoff\(1\.N1, next slot 3, in flight \[2: x=2 \(C1#2\)\], chosen 1\) is on its way/);
  assert.match(await worldBox(page), /N1 \w+: shown once you answer/);
  assert.equal(await page.locator('.pp-stage .pp-dot.pp-kind-handoff').count(), 0, 'what the step sent is held back');
  assert.match(await page.locator('.pp-stage .pp-chosen').textContent(), /held back: answer first/);
  await answer(page, 'handed-off', 'right');
  assert.equal(await page.locator('.pp-stage .pp-dot.pp-kind-handoff').count(), 1, 'the Handoff is on the wire');
  assert.match(await page.locator('.pp-legend').textContent(), /Handoff/);
  assert.match(await worldBox(page), /disk: handed off 1\.N1/);

  // N2 takes the ballot: may it fill slot 1? A wrong yes changes nothing.
  await deliver(page, 'N1', 'N2', 'Handoff');
  assert.match(await question(page), /N2 took 1\.N1 with next slot 3\. Slot 1 is a hole at N2/);
  const axeOpen = grave(await audit(page));
  assert.deepEqual(axeOpen, [], JSON.stringify(axeOpen, null, 2));
  const stageBefore = await stage(page);
  const printBefore = await fingerprint(page);
  const movesBefore = await moves(page);
  await answer(page, 'yes', 'wrong');
  assert.match(await page.locator('.pp-outcome-wrong').textContent(), /x=1 \(C1#1\) is already chosen in slot 1 at 1\.N1, by \{N1, N3\}/);
  assert.equal(await fingerprint(page), printBefore, 'a wrong answer leaves the world as it was');
  assert.equal(await stage(page), stageBefore, 'and the stage');
  assert.equal(await moves(page), movesBefore, 'a wrong answer is not a move');
  await answer(page, 'no', 'right');
  assert.match(await page.locator('.pp-outcome-right').textContent(), /successor_may_propose\(3, 1\) is false/);
  assert.match(await worldBox(page), /disk: took 1\.N1 by a handoff/);

  // x=2 again, identical, then C2's y=1 in slot 3, both at 1.N1.
  await deliver(page, 'N2', 'N3', 'Accept(1.N1, slot 2,');
  await control(page, 'Request: C2 N2');
  await deliver(page, 'C2', 'N2', 'Write');
  await deliver(page, 'N2', 'N3', 'Accept(1.N1, slot 3,');
  assert.match(await question(page), /An operator now asks N2 to hand 1\.N1 on to N3/);
  await answer(page, 'refused', 'right');
  assert.match(await page.locator('.pp-outcome-right').textContent(), /ballot 1\.N1 was handed to this node: it is never handed on/);
  await passedCleanly(page, context, errors);
});
