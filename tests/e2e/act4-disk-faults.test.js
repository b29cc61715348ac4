// Browser tests of Act IV's disk-fault levels. `act4/faulty-records`: played to its goal by
// clicking (N2 crashed, its vote in slot 1 corrupted with the "Corrupt" control, N2 restarted,
// each Promise to N3 put in its case, x=1 kept and x=2 chosen), the corrupt-as-none answer
// refused with the world untouched, the unknown vote marked on N2 in words, and the page
// audited by axe-core while a question is open. `act4/the-wiped-node`: played to its goal by
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
const FAULTY_RECORDS = 'act4/faulty-records';

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
  assert.match(await worldBox(page), /N2 crashed: shown once you answer/);
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

test('faulty records is played to its goal by clicking, and a corrupt vote is never "no vote"', async () => {
  const { page, context, errors } = await site.open(site.level(FAULTY_RECORDS));
  assert.equal(await page.locator('.pp-title').textContent(), 'Faulty records');
  assert.match(await page.locator('.pp-kicker').textContent(), /Act IV/);
  assert.equal(await goal(page), 'open');

  // N2 crashes; its vote in slot 1 is damaged by the control; the stage says so in words.
  await control(page, 'Crash N2');
  assert.ok((await controls(page)).includes("Corrupt N2's promise"), 'each record has its control');
  await control(page, "Corrupt N2's vote in slot 1");
  assert.match(await page.locator('.pp-stage [data-node="N2"]').textContent(), /down: vote unknown: slot 1/);
  await control(page, 'Restart N2');
  assert.match(await page.locator('.pp-stage [data-node="N2"]').textContent(), /vote unknown: slot 1/);
  assert.match(await worldBox(page), /vote unknown in slot 1: its record of that vote fails its checksum/);

  // N3 stands; N2's Promise is on its way: the question is open, and audited.
  await control(page, 'Tick N3');
  await deliver(page, 'N3', 'N2', 'Prepare');
  assert.match(await question(page), /N2's Promise at .* is on its way to N3\. What does it answer for slot 1/);
  const axeOpen = grave(await audit(page));
  assert.deepEqual(axeOpen, [], JSON.stringify(axeOpen, null, 2));

  // Corrupt-as-none is refused and changes nothing.
  const stageBefore = await stage(page);
  const printBefore = await fingerprint(page);
  const movesBefore = await moves(page);
  await answer(page, 'none', 'wrong');
  assert.match(await page.locator('.pp-outcome-wrong').textContent(), /corrupt-as-none/);
  assert.equal(await fingerprint(page), printBefore, 'a wrong answer leaves the world as it was');
  assert.equal(await stage(page), stageBefore, 'and the stage');
  assert.equal(await moves(page), movesBefore, 'a wrong answer is not a move');
  await answer(page, 'unknown', 'right');
  assert.match(await page.locator('.pp-outcome-right').textContent(), /phase1_complete does not hold/);

  // N2's Promise lands and N3 waits; N1's vote completes the count; x=1 stays, x=2 follows.
  await deliver(page, 'N2', 'N3', 'Promise');
  await deliver(page, 'N3', 'N1', 'Prepare');
  await answer(page, 'voted', 'right');
  await deliver(page, 'N1', 'N3', 'Promise');
  await deliver(page, 'N3', 'N2', 'Accept');
  await deliver(page, 'N2', 'N3', 'Accepted');
  await control(page, 'Request: C1 N3');
  await deliver(page, 'C1', 'N3', 'Write');
  await deliver(page, 'N3', 'N2', 'Accept');
  await deliver(page, 'N2', 'N3', 'Accepted');
  await passedCleanly(page, context, errors);
});
