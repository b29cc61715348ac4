// Browser test of Act III's reads: `act3/the-fresh-leader-trap` played to its goal by clicking
// dots, controls and prompt choices, with one wrong answer on the way that is told the
// read-at-applied control's counterexample and leaves the world as it was; and
// `act3/linearizable-or-not` played across a leader change, its timeline and the condition a
// wrong answer breaks checked on the page; and `act3/chosen-is-not-applied` played to its goal,
// with a wrong "answer now" told the real slots. Messages are found
// by their route and text in the wire list, the way a player reads them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, fingerprint, goal, moves, stage } from './harness.js';
import { deliver, control, answer } from './log-play.js';

const site = useSite();

test('the fresh-leader trap is played to its goal by clicking: the read waits for slot 1 to be decided again', async () => {
  const { page, errors } = await site.open(site.level('act3/the-fresh-leader-trap'));
  assert.equal(await page.locator('.pp-title').textContent(), 'The fresh-leader trap');
  assert.equal(await goal(page), 'open');

  await control(page, 'Request: C1 N2');
  await deliver(page, 'C1', 'N2', 'Read');
  assert.match(await page.locator('.pp-question').textContent(), /N2 holds C1's read of x .* Serve x = nothing now, or wait\?/);

  // Serving now is wrong: the world does not move, and the control's counterexample is told.
  const before = await fingerprint(page);
  await answer(page, 'serve', 'wrong');
  const told = await page.locator('.pp-outcome-wrong').textContent();
  assert.match(told, /read-at-applied control/);
  assert.match(told, /the write of x = 1 by C1 at steps 0 to 1 completed before the read began/);
  assert.equal(await fingerprint(page), before, 'a wrong answer never enters the world');

  await answer(page, 'wait', 'right');
  await deliver(page, 'N2', 'N3', 'ReadIndex');
  await deliver(page, 'N3', 'N2', 'ReadIndexReply');
  assert.match(await page.locator('.pp-facts').textContent(), /\{N2, N3\} reported their highest accepted slots; the highest is 1/);
  await answer(page, 'wait', 'right');
  await deliver(page, 'N2', 'N3', 'Accept(2.N2, slot 1,');
  await deliver(page, 'N3', 'N2', 'Accepted');
  assert.match(await page.locator('.pp-question').textContent(), /Serve x = 1 now, or wait\?/);
  await answer(page, 'serve', 'right');
  await deliver(page, 'N2', 'C1', 'Reply');

  assert.equal(await goal(page), 'reached');
  assert.match(await page.locator('.pp-passed').textContent(), /Level passed/);
  assert.equal(await page.locator('.pp-checklist li:not(.pp-done)').count(), 0, 'every checklist item is done');
  assert.deepEqual(errors, []);
});

test('linearizable or not: a read across a leader change is drawn on the timeline, and a stale answer is told the condition it breaks', async () => {
  const { page, errors } = await site.open(site.level('act3/linearizable-or-not'));
  assert.equal(await page.locator('.pp-title').textContent(), 'Linearizable or not');
  const timeline = page.locator('.pp-timeline');
  assert.match(await timeline.locator('figcaption').textContent(), /linearizable \(1 operations ordered\)/);
  assert.equal(await timeline.locator('.pp-lane').count(), 2, 'one lane per client');

  await control(page, 'Cut N1 off');
  await control(page, 'Tick N2');
  await control(page, 'Tick N2');
  await deliver(page, 'N2', 'N3', 'Prepare');
  await deliver(page, 'N3', 'N2', 'Promise');
  await control(page, 'Request: C2 N2');
  await deliver(page, 'C2', 'N2', 'Read');
  await answer(page, 'wait', 'right');
  await deliver(page, 'N2', 'N3', 'Accept');
  await deliver(page, 'N3', 'N2', 'Accepted');
  await answer(page, 'wait', 'right');
  await deliver(page, 'N2', 'N3', 'ReadIndex');
  await deliver(page, 'N3', 'N2', 'ReadIndexReply');
  await answer(page, 'serve', 'right');
  await deliver(page, 'N2', 'C2', 'Reply');

  // The read is on the timeline, after C1's write, and the checker keeps every condition.
  const c2 = timeline.locator('.pp-lane').nth(1);
  assert.match(await c2.textContent(), /C2\s*read x → 1/);
  assert.equal(await timeline.locator('.pp-conditions li[data-state="kept"]').count(), 4);
  assert.match(await page.locator('.pp-question').textContent(), /C2's read of x returned 1\. Which other answer would this history have allowed\?/);

  // "nothing" breaks real-time order: C1's write had completed before the read began.
  const before = await fingerprint(page);
  await answer(page, 'nothing', 'wrong');
  assert.match(await page.locator('.pp-outcome-wrong').textContent(), /breaks real-time order, since the read of x by C2 at steps 2 to 3 returned nothing, but the write of x = 1 by C1 at steps 0 to 1 completed before the read began/);
  assert.equal(await fingerprint(page), before, 'a wrong answer never enters the world');
  await answer(page, 'none', 'right');
  assert.equal(await page.locator('.pp-checklist li.pp-done').count(), 3, 'the leadership moved, a read crossed it, the history is linearizable');
  assert.deepEqual(errors, []);
});

test('chosen is not applied is played to its goal by clicking: the retry is proposed again and its repeat skipped', async () => {
  const { page, errors } = await site.open(site.level('act3/chosen-is-not-applied'));
  assert.equal(await page.locator('.pp-title').textContent(), 'Chosen is not applied');
  assert.equal(await goal(page), 'open');

  await control(page, 'Request: C2 N1');
  await deliver(page, 'C2', 'N1', 'Write');
  assert.match(await page.locator('.pp-question').textContent(), /C2 sends y=b \(C2#1\) again, to N1\. What does N1 do\?/);
  assert.match(await page.locator('.pp-facts').textContent(), /N1 has applied through slot 0, behind the hole at slot 1/);

  // Answering at once is wrong: the world does not move, and the real slots are named.
  const before = await fingerprint(page);
  await answer(page, 'answer', 'wrong');
  const told = await page.locator('.pp-outcome-wrong').textContent();
  assert.match(told, /slot 2 is chosen but not applied, behind the hole at slot 1/);
  assert.match(told, /So N1 proposes it in slot 3\./);
  assert.equal(await fingerprint(page), before, 'a wrong answer never enters the world');

  await answer(page, 'propose', 'right');
  await deliver(page, 'N1', 'N2', 'Accept(1.N1, slot 3,');
  await deliver(page, 'N2', 'N1', 'Accepted(1.N1, slot 1)');
  await deliver(page, 'N2', 'N1', 'Accepted(1.N1, slot 3)');
  assert.match(await page.locator('.pp-question').textContent(), /N1 applies slot 3, y=b \(C2#1\) again\. What happens\?/);
  await answer(page, 'skipped', 'right');
  await deliver(page, 'N1', 'C2', 'Reply');

  assert.equal(await goal(page), 'reached');
  assert.match(await page.locator('.pp-passed').textContent(), /Level passed/);
  assert.equal(await page.locator('.pp-checklist li:not(.pp-done)').count(), 0, 'every checklist item is done');
  assert.deepEqual(errors, []);
});

test('a position is a link: opening it replays the moves to the same stage, and a tampered one opens at the start with one line', async () => {
  const { page, errors } = await site.open(site.level('act3/the-fresh-leader-trap'));
  await control(page, 'Request: C1 N2');
  await deliver(page, 'C1', 'N2', 'Read');
  await answer(page, 'wait', 'right');
  await deliver(page, 'N2', 'N3', 'ReadIndex');
  await page.locator('.pp-copy-link').click();
  const link = await page.locator('.pp-link').inputValue();
  assert.match(link, /\/play\/#act3\/the-fresh-leader-trap\?moves=request\+C1\+N2,deliver\+m\d+\+!serve-or-wait,answer\+wait,deliver\+m\d+$/);
  const position = { fingerprint: await fingerprint(page), moves: await moves(page), stage: await stage(page), question: await page.locator('.pp-question').count() };

  const { page: reader, errors: readerErrors } = await site.open(link);
  assert.deepEqual(
    { fingerprint: await fingerprint(reader), moves: await moves(reader), stage: await stage(reader), question: await reader.locator('.pp-question').count() },
    position,
    'the link opens the same position',
  );
  await reader.locator('.pp-undo').click();
  assert.equal(await moves(reader), position.moves - 1, 'undo takes back the last move of the link');

  const tampered = link.replace(/deliver\+m\d+$/, 'deliver+m999');
  const { page: refused, errors: refusedErrors } = await site.open(tampered);
  assert.match(await refused.locator('.pp-position-error').textContent(), /move 4 \(deliver m999\) was refused/);
  assert.equal(await moves(refused), 0, 'the level opens at its start');
  assert.equal(await goal(refused), 'open');

  // A malformed %-escape gets the same line, not an uncaught URIError.
  const malformed = link.replace(/deliver\+m\d+$/, 'deliver+m%E0%A4%A');
  const { page: unread, errors: unreadErrors } = await site.open(malformed);
  assert.match(await unread.locator('.pp-position-error').textContent(), /could not be played back.*malformed %-escape/);
  assert.equal(await moves(unread), 0, 'the level opens at its start');
  const badId = link.replace('#act3/', '#act3%E0%A4%A/');
  const { page: noLevel, errors: noLevelErrors } = await site.open(badId);
  assert.match(await noLevel.locator('.pp-error').textContent(), /There is no level named/);
  assert.deepEqual([...errors, ...readerErrors, ...refusedErrors, ...unreadErrors, ...noLevelErrors], []);
});
