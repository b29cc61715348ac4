// Browser tests of Act IV's `act4/flexible-quorums`: four nodes on the stage, side by side on a
// desktop and on a phone, the level played to its goal by clicking (N1 elected by three, C1's
// write chosen by two with N3 and N4 down, N2 elected by three with N4 still down), a wrong
// answer refused on the way, and the page audited by axe-core.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { useSite, stage, fingerprint, goal, moves, audit, grave, passedCleanly } from './harness.js';
import { deliver, control, answer } from './log-play.js';

const site = useSite();
const ID = 'act4/flexible-quorums';
const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

/** The four log nodes' boxes on the stage, in screen pixels, with the role each shows. */
function nodeBoxes(page) {
  return page.locator('.pp-stage g.pp-node:not(.pp-client)').evaluateAll((groups) =>
    groups.map((group) => {
      const box = group.querySelector('rect').getBoundingClientRect();
      return {
        name: group.dataset.node,
        role: group.querySelector('.pp-node-role').textContent,
        left: box.left,
        right: box.right,
        top: box.top,
      };
    }));
}

/** Fails if two boxes overlap across the stage, or any leaves the viewport. */
async function assertSideBySide(page, width) {
  const boxes = await nodeBoxes(page);
  assert.deepEqual(boxes.map((box) => box.name), ['N1', 'N2', 'N3', 'N4']);
  boxes.slice(1).forEach((box, index) => {
    assert.ok(box.left >= boxes[index].right, `${boxes[index].name} and ${box.name} do not touch`);
    assert.equal(box.top, boxes[0].top, 'the four nodes stand in one row');
  });
  assert.ok(boxes[0].left >= 0 && boxes[3].right <= width, 'every node is inside the viewport');
}

const question = (page) => page.locator('.pp-question').textContent();

test('flexible quorums is played to its goal by clicking, and a pair of promises is refused as a Phase-1 quorum', async () => {
  const { page, context, errors } = await site.open(site.level(ID));
  assert.equal(await page.locator('.pp-title').textContent(), 'Flexible quorums');
  assert.match(await page.locator('.pp-kicker').textContent(), /Act IV/);
  assert.equal(await goal(page), 'open');
  await assertSideBySide(page, 1200);
  const roles = (await nodeBoxes(page)).map((box) => box.role);
  assert.deepEqual(roles, ['candidate', 'follower', 'follower', 'follower']);

  // N2 promises: with N1's own, two promises, and the question is open with the Promise held.
  await deliver(page, 'N1', 'N2', 'Prepare');
  assert.match(await question(page), /N2's Promise at 1\.N1 is on its way to N1\. When it lands, does N1 hold a Phase-1 quorum\?/);
  assert.match(await page.locator('.pp-prompt').textContent(), /a Phase-1 quorum of 4 nodes is 3/);
  const axeOpen = grave(await audit(page));
  assert.deepEqual(axeOpen, [], JSON.stringify(axeOpen, null, 2));
  const stageBefore = await stage(page);
  const printBefore = await fingerprint(page);
  const movesBefore = await moves(page);
  await answer(page, 'yes', 'wrong');
  assert.match(await page.locator('.pp-outcome-wrong').textContent(), /\{N1, N2\} is not a Phase-1 quorum.*\{N3, N4\}, are a Phase-2 quorum/);
  assert.equal(await fingerprint(page), printBefore, 'a wrong answer leaves the world as it was');
  assert.equal(await stage(page), stageBefore, 'and the stage');
  assert.equal(await moves(page), movesBefore, 'a wrong answer is not a move');
  assert.equal(await page.locator('.pp-hints li').count(), 1, 'a mistake earns the first hint');
  await answer(page, 'no', 'right');
  await deliver(page, 'N2', 'N1', 'Promise');

  // N3's Promise completes {N1, N2, N3}.
  await deliver(page, 'N1', 'N3', 'Prepare');
  await answer(page, 'yes', 'right');
  assert.match(await page.locator('.pp-outcome-right').textContent(), /heard_from_a_discovery_quorum/);
  await deliver(page, 'N3', 'N1', 'Promise');
  assert.equal((await nodeBoxes(page))[0].role, 'leader');

  // Two nodes down; N2's vote with N1's own still chooses x=1.
  await control(page, 'Crash N3');
  await control(page, 'Crash N4');
  await control(page, 'Request: C1 N1');
  await deliver(page, 'C1', 'N1', 'Write');
  await deliver(page, 'N1', 'N2', 'Accept(1.N1, slot 1,');
  assert.match(await question(page), /N2 voted for x=1 .* in slot 1 at 1\.N1\. Is x=1 .*chosen now\?/);
  assert.match(await page.locator('.pp-prompt').textContent(), /down: \{N3, N4\}/);
  await answer(page, 'yes', 'right');
  assert.match(await page.locator('.pp-outcome-right').textContent(), /chosen_by_a_recording_quorum/);
  assert.match(await page.locator('.pp-stage .pp-chosen').textContent(), /chosen: 1 x=1 .* by N1, N2/);
  await deliver(page, 'N2', 'N1', 'Accepted');
  assert.equal(await goal(page), 'open', 'the leader change is still to come');

  // N3 is back, N4 still down: N2 stands, and {N2, N3} is not enough; N1's promise is.
  await control(page, 'Restart N3');
  await control(page, 'Tick N2');
  assert.equal((await nodeBoxes(page))[1].role, 'candidate');
  await deliver(page, 'N2', 'N3', 'Prepare');
  await answer(page, 'no', 'right');
  await deliver(page, 'N3', 'N2', 'Promise');
  assert.equal((await nodeBoxes(page))[1].role, 'candidate', '{N2, N3} does not elect');
  await deliver(page, 'N2', 'N1', 'Prepare');
  assert.match(await question(page), /N1's Promise at 2\.N2 is on its way to N2/);
  await answer(page, 'yes', 'right');
  await passedCleanly(page, context, errors);
});

test('four nodes fit side by side on a phone and a desktop (screenshots in tests/e2e/screenshots)', async () => {
  await mkdir(SHOTS, { recursive: true });
  for (const [name, width] of [['phone', 360], ['desktop', 1280]]) {
    const { page, context, errors } = await site.open(site.level(ID), { viewport: { width, height: 800 } });
    await deliver(page, 'N1', 'N2', 'Prepare');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${name}: no sideways scrolling (${overflow}px too wide)`);
    await assertSideBySide(page, width);
    await page.locator('.pp-stage').screenshot({ path: `${SHOTS}flexible-quorums-${name}.png` });
    assert.deepEqual(errors, []);
    await context.close();
  }
});
