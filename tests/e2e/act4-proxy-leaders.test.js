// Browser tests of Act IV's `act4/proxy-leaders`: the level played to its goal by clicking (slot
// 1 goes through P2, P2 crashes with the "Crash P2" control mid-slot, N1's tick sends the slot
// again through P1, C1 is answered, then N3 stands and P1 holds Accepteds of two ballots for
// slot 2), a wrong answer refused on the way with the world untouched, the proxies drawn in a
// row of their own, and the page audited by axe-core.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, stage, fingerprint, goal, moves, audit, grave, passedCleanly } from './harness.js';
import { deliver, control, answer } from './log-play.js';

const site = useSite();
const ID = 'act4/proxy-leaders';

const question = (page) => page.locator('.pp-question').textContent();
const worldBox = (page) => page.locator('.pp-world-box').textContent();
const proxyBox = (page, name) => page.locator(`.pp-stage .pp-proxy[data-node="${name}"]`);

test('proxy leaders are played to their goal by clicking, and counting two ballots together is refused', async () => {
  const { page, context, errors } = await site.open(site.level(ID));
  assert.equal(await page.locator('.pp-title').textContent(), 'Proxy leaders');
  assert.match(await page.locator('.pp-kicker').textContent(), /Act IV/);
  assert.equal(await goal(page), 'open');
  // The proxies stand in their own row, between the client and the nodes.
  assert.equal(await page.locator('.pp-stage .pp-proxy').count(), 2);
  const p1 = await proxyBox(page, 'P1').locator('rect').boundingBox();
  const c1 = await page.locator('.pp-stage .pp-client[data-node="C1"] rect').boundingBox();
  const n1 = await page.locator('.pp-stage .pp-node[data-node="N1"] > rect').boundingBox();
  assert.ok(c1.y + c1.height < p1.y && p1.y + p1.height < n1.y, 'client, proxies, nodes, top to bottom');
  assert.match(await proxyBox(page, 'P1').textContent(), /P1\s*proxy/);

  // Slot 1 goes through P2, which forwards it; N2 votes, and P2 crashes before it counts.
  await control(page, 'Request: C1 N1');
  await deliver(page, 'C1', 'N1', 'Write');
  await deliver(page, 'N1', 'P2', 'Accept(1.N1, slot 1,');
  assert.match(await proxyBox(page, 'P2').textContent(), /slot 1 at 1\.N1: none yet/);
  await deliver(page, 'P2', 'N2', 'Accept(1.N1, slot 1,');
  await control(page, 'Crash P2');
  assert.match(await proxyBox(page, 'P2').textContent(), /proxy, down.*kept nothing/);
  assert.match(await worldBox(page), /P2 proxy: down, keeping nothing/);

  // N1's tick sends slot 1 again, through P1: what does it carry? A wrong no-op changes nothing.
  await control(page, 'Tick N1');
  assert.match(await question(page), /N1 sends slot 1 again at 1\.N1, through P1 this time/);
  const stageBefore = await stage(page);
  const printBefore = await fingerprint(page);
  const movesBefore = await moves(page);
  await answer(page, 'no-op', 'wrong');
  assert.match(await page.locator('.pp-outcome-wrong').textContent(), /resend_is_identical\(x=1 \(C1#1\), x=1 \(C1#1\)\) is true/);
  assert.equal(await fingerprint(page), printBefore, 'a wrong answer leaves the world as it was');
  assert.equal(await stage(page), stageBefore, 'and the stage');
  assert.equal(await moves(page), movesBefore, 'a wrong answer is not a move');
  await answer(page, 'identical', 'right');

  // P1 gathers N2's and N3's votes and tells N1; N1 answers C1.
  await deliver(page, 'N1', 'P1', 'Accept(1.N1, slot 1,');
  await deliver(page, 'P1', 'N2', 'Accept(1.N1, slot 1,');
  await deliver(page, 'P1', 'N3', 'Accept(1.N1, slot 1,');
  await deliver(page, 'N2', 'P1', 'Accepted(1.N1, slot 1)');
  await deliver(page, 'N3', 'P1', 'Accepted(1.N1, slot 1)');
  assert.equal(await page.locator('.pp-stage .pp-dot.pp-kind-slot-chosen').count(), 1, 'P1 announces slot 1');
  assert.match(await page.locator('.pp-legend').textContent(), /Slot chosen/);
  await deliver(page, 'P1', 'N1', 'SlotChosen(1.N1, slot 1,');
  await deliver(page, 'N1', 'C1', 'Reply');
  assert.equal(await goal(page), 'open');

  // x=2 in slot 2 through P1 at 1.N1, then N3 stands and sends it at 2.N3 through P1 too.
  await control(page, 'Request: C1 N1');
  await deliver(page, 'C1', 'N1', 'Write');
  await deliver(page, 'N1', 'P1', 'Accept(1.N1, slot 2,');
  await deliver(page, 'P1', 'N2', 'Accept(1.N1, slot 2,');
  await deliver(page, 'N2', 'P1', 'Accepted(1.N1, slot 2)');
  await control(page, 'Tick N3');
  await deliver(page, 'N3', 'N2', 'Prepare');
  await deliver(page, 'N2', 'N3', 'Promise');
  await deliver(page, 'N3', 'P1', 'Accept(2.N3, slot 2,');
  await deliver(page, 'P1', 'N3', 'Accept(2.N3, slot 2,');
  await deliver(page, 'N3', 'P1', 'Accepted(2.N3, slot 2)');
  assert.match(await question(page), /P1 holds Accepteds for slot 2 at two ballots: \{N2\} at 1\.N1 and \{N3\} at 2\.N3/);
  assert.match(await proxyBox(page, 'P1').textContent(), /answer first/);
  const axeOpen = grave(await audit(page));
  assert.deepEqual(axeOpen, [], JSON.stringify(axeOpen, null, 2));
  await answer(page, 'together', 'wrong');
  assert.match(await page.locator('.pp-outcome-wrong').textContent(), /act4-proxy-keyed-by-slot-control/);
  await answer(page, 'no', 'right');
  assert.match(await page.locator('.pp-outcome-right').textContent(), /proxy_may_announce\(slot 2, \{N2\}\) at 1\.N1 is false/);
  assert.match(await proxyBox(page, 'P1').textContent(), /slot 2 at 1\.N1: N2.*slot 2 at 2\.N3: N3/);
  await passedCleanly(page, context, errors);
});
