// Browser tests of Act IV's disk-fault level `act4/the-wiped-node`: played to its goal by
// clicking (N2 crashed, its disk wiped with the "Wipe" control, the library's refusal taken,
// and x=2 chosen by N1 and N3), a wrong answer refused on the way with the world untouched, the
// wiped disk marked on the stage in words, no restart offered for it, and the page audited by
// axe-core while the question is open.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, stage, fingerprint, goal, moves, audit, grave, passedCleanly } from './harness.js';
import { deliver, control, answer } from './log-play.js';

const site = useSite();
const ID = 'act4/the-wiped-node';

const question = (page) => page.locator('.pp-question').textContent();
const worldBox = (page) => page.locator('.pp-world-box').textContent();
const controls = (page) => page.locator('.pp-controls button').allTextContents();

test('the wiped node is played to its goal by clicking, and booting it blank is refused', async () => {
  const { page, context, errors } = await site.open(site.level(ID));
  assert.equal(await page.locator('.pp-title').textContent(), 'The wiped node');
  assert.match(await page.locator('.pp-kicker').textContent(), /Act IV/);
  assert.equal(await goal(page), 'open');

  // N2 crashes, then its disk is erased: the question about its boot is open, its disk hidden.
  await control(page, 'Crash N2');
  assert.ok((await controls(page)).some((label) => label.startsWith('Restart N2')), 'N2 may restart from its record');
  await control(page, "Wipe N2's disk");
  assert.match(await question(page), /N2's disk is now empty\. An operator restarts N2/);
  assert.match(await worldBox(page), /N2 crashed:.*disk: shown once you answer/);
  const axeOpen = grave(await audit(page));
  assert.deepEqual(axeOpen, [], JSON.stringify(axeOpen, null, 2));

  // A wrong "it boots as new" changes nothing, and names what a blank N2 would break.
  const stageBefore = await stage(page);
  const printBefore = await fingerprint(page);
  const movesBefore = await moves(page);
  await answer(page, 'fresh', 'wrong');
  assert.match(await page.locator('.pp-outcome-wrong').textContent(), /\{N2, N3\} are a Phase-1 quorum that never heard of x=1/);
  assert.equal(await fingerprint(page), printBefore, 'a wrong answer leaves the world as it was');
  assert.equal(await stage(page), stageBefore, 'and the stage');
  assert.equal(await moves(page), movesBefore, 'a wrong answer is not a move');
  await answer(page, 'refused', 'right');
  assert.match(await page.locator('.pp-outcome-right').textContent(), /BootRefused::Missing/);

  // The stage says the disk is wiped, in words, and offers no restart for N2.
  assert.match(await worldBox(page), /disk: wiped, and the library refuses its boot: "refusing to boot a wiped node/);
  assert.match(await page.locator('.pp-stage [data-node="N2"]').textContent(), /down: disk wiped/);
  assert.ok(!(await controls(page)).some((label) => label.startsWith('Restart N2')), 'no restart for a refused node');

  // N1 and N3 carry on: slot 1 reaches N3, then C1's x=2 is chosen in slot 2 without N2.
  await deliver(page, 'N1', 'N3', 'Accept(1.N1, slot 1,');
  await deliver(page, 'N3', 'N1', 'Accepted(1.N1, slot 1');
  await control(page, 'Request: C1 N1');
  await deliver(page, 'C1', 'N1', 'Write');
  await deliver(page, 'N1', 'N3', 'Accept(1.N1, slot 2,');
  await deliver(page, 'N3', 'N1', 'Accepted(1.N1, slot 2');
  await passedCleanly(page, context, errors);
});
