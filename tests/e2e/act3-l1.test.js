// Browser tests of Act III's truncation: `act3/the-stranded-node` played to its goal by clicking
// (N3 is cut off while N1 and N2 compact, then jumps to N1's trim point), with a wrong answer
// to the jump prompt on the way, and the stage's floors, trimmed slots, trim point on disk,
// trim-point dot and both clients checked as the player sees them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, stage, fingerprint, goal, moves } from './harness.js';
import { wireRow, deliver, control, slotTitles } from './log-play.js';

const site = useSite();

test('the stranded node is played to its goal by clicking, and the sender\'s ballot is refused with the control', async () => {
  const { page, context, errors } = await site.open(site.level('act3/the-stranded-node'));
  assert.equal(await page.locator('.pp-title').textContent(), 'The stranded node');
  assert.match(await page.locator('.pp-kicker').textContent(), /Act III/);
  assert.equal(await goal(page), 'open');
  // Both clients are drawn, each with its row in the world box.
  assert.equal(await page.locator('.pp-stage .pp-client').count(), 2, 'C1 and C2 are on the stage');
  const clients = await page.locator('.pp-world-box li').allTextContents();
  assert.ok(clients.some((row) => /^C1 client: done · write x=1 ✓/.test(row)), clients.join(' | '));
  assert.ok(clients.some((row) => /^C2 client: next write y=1/.test(row)), clients.join(' | '));

  // N3 is cut off; N1 and N2 choose C2's write, then a trim through slot 2.
  await control(page, 'Cut N3 off');
  await control(page, 'Request: C2 N1');
  await deliver(page, 'C2', 'N1', 'Write');
  await deliver(page, 'N1', 'N2', 'Accept(1.N1, slot 2,');
  await deliver(page, 'N2', 'N1', 'Accepted');
  await deliver(page, 'N1', 'C2', 'Reply');
  await control(page, 'Trim: ask N1');
  await deliver(page, 'N1', 'N2', 'Accept(1.N1, slot 3, trim through 2');
  await deliver(page, 'N2', 'N1', 'Accepted');

  // N1 compacted: slots 1 and 2 are drawn trimmed, slot 3 holds the trim, the disk holds the
  // trim point with the store and both clients' sessions.
  const n1 = await slotTitles(page, 'N1');
  assert.equal(n1.length, 3, `N1's log: ${n1.join(' | ')}`);
  assert.match(n1[0], /^slot 1: trimmed/);
  assert.match(n1[1], /^slot 2: trimmed/);
  assert.match(n1[2], /^slot 3: chosen trim through 2 at 1\.N1/);
  assert.match(await page.locator('.pp-stage').textContent(), /applied to 3 · floor 2/);
  assert.match(await page.locator('.pp-world-box').textContent(),
    /N1 leader: .*floor 2: slots 1 to 2 trimmed.*trim point through slot 2: store x=1, y=1; sessions C1#1, C2#1/);

  // Healed, N1 beats: N3's ack shows it below N1's floor, and N1 answers with its trim point.
  await control(page, 'Heal the partition');
  await control(page, 'Beat N1');
  await wireRow(page, 'N1', 'N3', 'TrimPoint(');
  assert.equal(await page.locator('.pp-stage .pp-dot.pp-kind-trim-point').count(), 1, 'the trim point is on the wire');
  assert.ok((await page.locator('.pp-legend').textContent()).includes('Trim point'), 'the legend names it');

  // Before it lands, N2 stands and wins N3's promise.
  await control(page, 'Tick N2');
  await control(page, 'Tick N2');
  await deliver(page, 'N2', 'N3', 'Prepare');

  // The trim point lands: what is N3's promise after the jump?
  await deliver(page, 'N1', 'N3', 'TrimPoint(');
  assert.match(await page.locator('.pp-question').textContent(), /N1's trim point through slot 2, sent at 1\.N1, reaches N3.*What is its promise afterwards\?/);
  const stageBefore = await stage(page);
  const printBefore = await fingerprint(page);
  const movesBefore = await moves(page);

  // The sender's ballot is the jump-moves-promise control: refused, explained, nothing moves.
  await page.locator('.pp-choice[data-key="1.N1"]').click();
  const wrong = page.locator('.pp-outcome-wrong');
  await wrong.waitFor();
  assert.match(await wrong.textContent(), /jump-moves-promise control, the checker reports: N3 installed a trim point through slot 2 and its promise moved from 2\.N2 to 1\.N1/);
  assert.equal(await fingerprint(page), printBefore, 'a wrong answer leaves the world as it was');
  assert.equal(await stage(page), stageBefore, 'and the stage');
  assert.equal(await moves(page), movesBefore, 'a wrong answer is not a move');
  assert.equal(await page.locator('.pp-hints li').count(), 1, 'a mistake earns the first hint');

  await page.locator('.pp-choice[data-key="2.N2"]').click();
  await page.locator('.pp-outcome-right').waitFor();
  assert.match(await page.locator('.pp-outcome-right').textContent(), /install_trim_point moves N3's floor/);
  assert.equal(await goal(page), 'reached');
  assert.match(await page.locator('.pp-passed').textContent(), /Level passed/);
  const n3 = await slotTitles(page, 'N3');
  assert.ok(n3.slice(0, 2).every((title) => /: trimmed/.test(title)), `N3 jumped past slots 1 and 2: ${n3.join(' | ')}`);
  assert.match(await page.locator('.pp-world-box').textContent(), /N3 follower: .*floor 2: slots 1 to 2 trimmed/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('truncate by consensus: each node\'s floor moves when its own walk applies the trim', async () => {
  const { page, context, errors } = await site.open(site.level('act3/truncate-by-consensus'));
  assert.equal(await page.locator('.pp-title').textContent(), 'Truncate by consensus');
  const answer = async (key, pattern) => {
    await page.locator(`.pp-choice[data-key="${key}"]`).click();
    await page.locator('.pp-outcome-right').waitFor();
    if (pattern) assert.match(await page.locator('.pp-outcome-right').textContent(), pattern);
  };
  const question = () => page.locator('.pp-question').textContent();

  await control(page, 'Trim: ask N1');
  await deliver(page, 'N1', 'N2', 'Accept(1.N1, slot 3, trim through 2');
  await deliver(page, 'N2', 'N1', 'Accepted');
  assert.match(await question(), /N1 has applied through slot 2 and the decided trim through slot 2 sits in slot 3/);
  await answer('2', /floor_after_applying/);
  await deliver(page, 'N1', 'N3', 'Accept(1.N1, slot 3,');
  await answer('1');
  await control(page, 'Tick N1');
  await deliver(page, 'N1', 'N2', 'Heartbeat(1.N1, commit 3');
  await answer('2');

  // N3 learns the trim is decided, but it never learned slot 2: its floor cannot move yet.
  await deliver(page, 'N1', 'N3', 'Heartbeat(1.N1, commit 3');
  assert.match(await question(), /N3 has applied through slot 1 and the decided trim through slot 2 sits in slot 3/);
  const printBefore = await fingerprint(page);
  await page.locator('.pp-choice[data-key="2"]').click();
  await page.locator('.pp-outcome-wrong').waitFor();
  assert.match(await page.locator('.pp-outcome-wrong').textContent(), /N3 will have applied only through slot 1/);
  assert.equal(await fingerprint(page), printBefore, 'a wrong answer leaves the world as it was');
  await answer('0', /N3's walk stops at slot 1/);

  await deliver(page, 'N1', 'N3', 'Accept(1.N1, slot 2,');
  await control(page, 'Tick N1');
  await deliver(page, 'N1', 'N3', 'Heartbeat(1.N1, commit 3');
  await answer('2');
  assert.equal(await goal(page), 'reached');
  for (const node of ['N1', 'N2', 'N3']) {
    const titles = await slotTitles(page, node);
    assert.ok(titles.slice(0, 2).every((title) => /: trimmed/.test(title)), `${node}: ${titles.join(' | ')}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
