// Browser tests of Act IV's Matchmaker Paxos level `act4/matchmaking`, played to its goal by
// clicking: L3 is started with its control, registers round 3.L3 with M3 and M1, reads its
// history back (a wrong answer refused on the way with the world untouched), then closes Phase
// 1 over both configurations of it, and x is chosen again at 3.L3. The stage draws the
// matchmaker plane apart from the acceptors, each configuration as a group with its removed
// member marked, and the page is audited by axe-core while a question is open.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, stage, fingerprint, goal, moves, audit, grave, passedCleanly } from './harness.js';
import { deliver, control, answer } from './log-play.js';

const site = useSite();
const ID = 'act4/matchmaking';

const question = (page) => page.locator('.pp-question').textContent();
const matchmaker = (page, name) => page.locator(`.pp-stage .pp-matchmaker[data-node="${name}"]`);
const leader = (page, name) => page.locator(`.pp-stage .pp-mm-leader[data-node="${name}"]`);

test('matchmaking is played to its goal by clicking, and a quorum of one configuration is refused', async () => {
  const { page, context, errors } = await site.open(site.level(ID));
  assert.equal(await page.locator('.pp-title').textContent(), 'Matchmaking');
  assert.match(await page.locator('.pp-kicker').textContent(), /Act IV/);
  assert.equal(await goal(page), 'open');

  // The matchmaker plane stands above the leaders, the leaders above the acceptors.
  assert.equal(await page.locator('.pp-stage .pp-matchmaker').count(), 3);
  assert.equal(await page.locator('.pp-stage .pp-plane').count(), 1);
  const m1 = await matchmaker(page, 'M1').locator('rect').boundingBox();
  const l3 = await leader(page, 'L3').locator('rect').boundingBox();
  const a1 = await page.locator('.pp-stage .pp-node[data-node="A1"] > rect').boundingBox();
  assert.ok(m1.y + m1.height < l3.y && l3.y + l3.height < a1.y, 'matchmakers, leaders, acceptors, top to bottom');
  assert.match(await matchmaker(page, 'M1').textContent(), /1\.L1 → C1.*2\.L2 → C2/);
  assert.doesNotMatch(await matchmaker(page, 'M3').textContent(), /2\.L2/);
  // C1 is drawn as a group of A1, A2, A3, and A1, which C2 leaves out, is marked removed.
  const c1 = page.locator('.pp-stage .pp-config[data-config="C1"]');
  assert.equal(await c1.locator('.pp-config-member').count(), 3);
  assert.match(await c1.locator('.pp-removed').textContent(), /A1/);
  assert.match(await c1.locator('title').textContent(), /removed: A1/);

  // Register 3.L3 with M3 and M1, and read the history back.
  await control(page, 'Start L3');
  assert.match(await leader(page, 'L3').textContent(), /matching/);
  await deliver(page, 'L3', 'M3', 'MatchA');
  await deliver(page, 'L3', 'M1', 'MatchA');
  await deliver(page, 'M3', 'L3', 'MatchB');
  await deliver(page, 'M1', 'L3', 'MatchB');
  assert.match(await question(page), /L3 has replies from two matchmakers\. What is its history H\?/);
  assert.match(await leader(page, 'L3').textContent(), /answer first/);
  const axeOpen = grave(await audit(page));
  assert.deepEqual(axeOpen, [], JSON.stringify(axeOpen, null, 2));
  const stageBefore = await stage(page);
  const printBefore = await fingerprint(page);
  const movesBefore = await moves(page);
  await answer(page, 'one-reply', 'wrong');
  assert.match(await page.locator('.pp-outcome-wrong').textContent(), /history_from_replies takes the union/);
  assert.equal(await fingerprint(page), printBefore, 'a wrong answer leaves the world as it was');
  assert.equal(await stage(page), stageBefore, 'and the stage');
  assert.equal(await moves(page), movesBefore, 'a wrong answer is not a move');
  await answer(page, 'history', 'right');

  // Promises from A3 and A4: a Phase-1 quorum of C2, not of C1.
  await deliver(page, 'L3', 'A3', 'Prepare');
  await deliver(page, 'L3', 'A4', 'Prepare');
  await deliver(page, 'A3', 'L3', 'Promise');
  await deliver(page, 'A4', 'L3', 'Promise');
  assert.match(await question(page), /L3 holds promises from \{A3, A4\}\. Is Phase 1 of 3\.L3 complete\?/);
  await answer(page, 'complete', 'wrong');
  assert.match(await page.locator('.pp-outcome-wrong').textContent(), /x is chosen at 1\.L1 by \{A1, A2\}/);
  await answer(page, 'not-yet', 'right');

  // A1's promise completes Phase 1, and reports x.
  await deliver(page, 'L3', 'A1', 'Prepare');
  await deliver(page, 'A1', 'L3', 'Promise(3.L3, accepted (1.L1, x))');
  await answer(page, 'complete', 'right');
  assert.match(await leader(page, 'L3').textContent(), /proposes x/);
  await deliver(page, 'L3', 'A2', 'Accept(3.L3, x)');
  await deliver(page, 'L3', 'A3', 'Accept(3.L3, x)');
  await deliver(page, 'A2', 'L3', 'Accepted');
  await deliver(page, 'A3', 'L3', 'Accepted');
  assert.match(await page.locator('.pp-world-box').textContent(), /L3 leader: 3\.L3 in C2 · chosen/);
  await passedCleanly(page, context, errors);
});
