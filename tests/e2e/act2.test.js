// Browser tests of Act II, the replicated log: `act2/the-permanent-gap` played to its goal by
// clicking dots, wire-list buttons, controls and prompt choices (ending with seven messages in
// flight, none of whose dots may hide another), and a wrong answer in
// `act2/persist-before-send`. Messages are found by their route and text in the wire list,
// the way a player reads them; nothing here calls the engine directly.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { useSite, stage, fingerprint, goal, moves } from './harness.js';
import { deliver, drop, control, slotTitles } from './log-play.js';

const site = useSite();

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const PROGRESS_KEY = 'paros-play.progress.v1';

/** Storage of a browser that reached Act II's leader levels in order: it has earned acceptor
 *  replies and P2c in Act I and the apply walk in a-log-of-decisions, and earned toggles start
 *  on. */
function storageOfAPlayerInOrder() {
  const passed = ['act1/be-the-acceptor', 'act1/adopt-the-value', 'act2/a-log-of-decisions'];
  const unlocked = ['acceptor-replies', 'p2c', 'apply-walk'];
  const value = JSON.stringify({ passed, unlocked, off: [] });
  return { cookies: [], origins: [{ origin: site.url, localStorage: [{ name: PROGRESS_KEY, value }] }] };
}

/** The pairs of message dots on the stage that overlap, as `m3/m7`: a dot must never hide
 *  another, or the player cannot click it. */
function overlappingDots(page) {
  return page.locator('.pp-stage').evaluate((svg) => {
    const dots = [...svg.querySelectorAll('g.pp-dot circle')].map((circle) => ({
      id: circle.parentElement.dataset.msg,
      x: Number(circle.getAttribute('cx')),
      y: Number(circle.getAttribute('cy')),
      r: Number(circle.getAttribute('r')),
    }));
    const pairs = [];
    dots.forEach((a, index) => {
      for (const b of dots.slice(index + 1)) {
        if (Math.hypot(a.x - b.x, a.y - b.y) < a.r + b.r - 1) pairs.push(`m${a.id}/m${b.id}`);
      }
    });
    return pairs;
  });
}

test('the permanent gap is played to its goal by clicking: a hole at slot 1 is filled by the new leader', async () => {
  // A player reaching this level in order has earned acceptor replies and P2c in Act I and the
  // apply walk in a-log-of-decisions; the level pins P2c off for the recovery it teaches.
  const storageState = storageOfAPlayerInOrder();
  const { page, context, errors } = await site.open(site.level('act2/the-permanent-gap'), { storageState });
  assert.equal(await page.locator('.pp-title').textContent(), 'The permanent gap');
  assert.equal(await goal(page), 'open');
  assert.ok(await page.locator('input[data-automation="apply-walk"]').isChecked(), 'the earned apply walk is on');
  assert.ok(!(await page.locator('input[data-automation="p2c"]').isChecked()), 'P2c is pinned off here');

  // Slot 1's Accepts are lost; slot 2's reach N2, whose vote makes slot 2 chosen above a hole.
  await drop(page, 'N1', 'N2', 'Accept(1.N1, slot 1,');
  await drop(page, 'N1', 'N3', 'Accept(1.N1, slot 1,');
  await deliver(page, 'N1', 'N2', 'Accept(1.N1, slot 2,');
  await deliver(page, 'N2', 'N1', 'Accepted');
  assert.equal(await page.locator('.pp-stage .pp-slot-hole').count(), 1, 'N1 shows slot 1 as a red hole');
  assert.match(await page.locator('.pp-stage .pp-slot-hole .pp-slot-value').textContent(), /^a=1/, 'with its vote in it');
  const n1 = await slotTitles(page, 'N1');
  assert.equal(n1.length, 2, `N1's log: ${n1.join(' | ')}`);
  // N1 holds its own vote there: the hole shows it, and that nobody knows it chosen.
  assert.equal(n1[0], 'slot 1: a hole, voted a=1 (C1#1) at 1.N1 but not known chosen');
  assert.match(n1[1], /^slot 2: chosen b=2/);

  // The leader crashes with slot 1 unfilled; N2 ticks to its timeout and wins over {N2, N3}.
  await control(page, 'Crash N1');
  assert.equal(await page.locator('.pp-stage .pp-node.pp-down[data-node="N1"]').count(), 1, 'N1 is drawn down');
  await control(page, 'Tick N2');
  await control(page, 'Tick N2');
  await deliver(page, 'N2', 'N3', 'Prepare');
  await deliver(page, 'N3', 'N2', 'Promise');

  // P2c is off: the player plans N2's recovery. No Promise reported slot 1.
  const question = page.locator('.pp-question');
  assert.match(await question.textContent(), /N2 now holds a Phase-1 quorum/);
  const labels = await page.locator('.pp-choice').allTextContents();
  assert.ok(labels.length >= 2, `a choice of plans: ${labels.join(' | ')}`);
  assert.match(await page.locator('.pp-facts').textContent(), /slot 1: no Promise reports a vote/);
  const plan = page.locator('.pp-choice[data-key="recover"]');
  assert.match(await plan.textContent(), /^slot 1: fill with a no-op; slot 2: propose b=2/);
  await plan.click();
  await page.locator('.pp-outcome-right').waitFor();
  assert.match(await page.locator('.pp-outcome-right').textContent(), /slot 1 gets a no-op/);
  assert.equal(await page.locator('.pp-question').count(), 0, 'the prompt is answered');

  // N2's recovery Accepts for slots 1 and 2 are voted by N3 and both slots are chosen.
  await deliver(page, 'N2', 'N3', 'Accept(2.N2, slot 1,');
  await deliver(page, 'N3', 'N2', 'Accepted');
  await deliver(page, 'N2', 'N3', 'Accept(2.N2, slot 2,');
  await deliver(page, 'N3', 'N2', 'Accepted');
  assert.equal(await goal(page), 'open', 'a=1 was lost with slot 1: C1 must retry');

  // C1 never heard back, so it sends a=1 again, to the new leader, which gives it slot 3.
  await control(page, 'Request: C1 N2');
  await deliver(page, 'C1', 'N2', 'Write');
  await deliver(page, 'N2', 'N3', 'Accept(2.N2, slot 3,');
  await deliver(page, 'N3', 'N2', 'Accepted');

  assert.equal(await goal(page), 'reached');
  assert.match(await page.locator('.pp-badge').textContent(), /Reached/);
  assert.match(await page.locator('.pp-passed').textContent(), /Level passed/);
  assert.equal(await page.locator('.pp-checklist li:not(.pp-done)').count(), 0, 'every checklist item is done');
  const n2 = await slotTitles(page, 'N2');
  assert.equal(n2.length, 3, `N2's log has three slots: ${n2.join(' | ')}`);
  assert.ok(n2.every((title) => /: chosen /.test(title)), `every slot at N2 is chosen: ${n2.join(' | ')}`);
  assert.match(n2[0], /^slot 1: chosen no-op at 2\.N2/);
  assert.match(n2[1], /b=2/);
  assert.match(n2[2], /a=1/);
  assert.equal(await page.locator('.pp-stage .pp-slot-hole').count(), 0, 'no hole left anywhere');
  assert.ok((await page.locator('.pp-stage .pp-dot').count()) >= 6, 'several messages are still in flight');
  assert.deepEqual(await overlappingDots(page), [], 'no dot hides another');
  assert.match(await page.locator('.pp-world-box').textContent(), /N2 leader: .*store a=1, b=2/);
  assert.deepEqual(errors, []);
  await mkdir(SHOTS, { recursive: true });
  // A window as tall as the page, so the site's fixed header and sidebar frame it as a reader sees them.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 1200, height });
  await page.screenshot({ path: `${SHOTS}the-permanent-gap-reached.png` });
  await context.close();
});

test('a wrong order in persist-before-send shows the decision it would un-make and leaves the stage as it was', async () => {
  const { page, context, errors } = await site.open(site.level('act2/persist-before-send'));
  assert.equal(await page.locator('.pp-title').textContent(), 'Persist before send');
  await deliver(page, 'N1', 'N2', 'Accept(');
  const question = page.locator('.pp-question');
  assert.match(await question.textContent(), /N2's Ready holds the write .* and the message Accepted.*Which goes first\?/);
  assert.equal(await page.locator('.pp-dot[tabindex]').count(), 0, 'no dot is playable while a prompt is open');
  const stageBefore = await stage(page);
  const printBefore = await fingerprint(page);
  const movesBefore = await moves(page);

  // Sending N2's Accepted before its vote is on disk is what the real node never does.
  await page.locator('.pp-choice[data-key="send"]').click();
  const outcome = page.locator('.pp-outcome-wrong');
  await outcome.waitFor();
  assert.ok(await outcome.isVisible(), 'the explanation is shown');
  const explanation = await outcome.textContent();
  assert.match(explanation, /Not what the real node does/);
  assert.match(explanation, /slot 1 is chosen/, 'it names the decision: slot 1');
  assert.match(explanation, /x=1 \(C1#1\)/, 'it names the value that decision holds');
  assert.match(explanation, /agreement checker reports: slot 1: x=1 \(C1#1\) chosen at 1\.N1 by \{N1, N2\}; y=2 \(C2#1\) chosen at 1\.N3 by \{N2, N3\}/,
    'the simulator played the wrong order on in a copy and caught the un-made decision');
  assert.match(explanation, /decision un-made/);
  assert.equal(await stage(page), stageBefore, 'the stage is unchanged');
  assert.equal(await fingerprint(page), printBefore, 'the world is unchanged');
  assert.equal(await moves(page), movesBefore, 'a wrong answer is not a move');
  assert.match(await page.locator('.pp-counts').textContent(), /mistakes 1/);
  assert.match(await question.textContent(), /Which goes first\?/, 'the same prompt stays open');
  assert.equal(await page.locator('.pp-hints li').count(), 1, 'one mistake earns the first hint');

  // The right order: the question closes, and N2's write is offered before its send.
  await page.locator('.pp-choice[data-key="persist"]').click();
  await page.locator('.pp-outcome-right').waitFor();
  const offered = await page.locator('.pp-controls button').allTextContents();
  assert.ok(offered.some((label) => label.startsWith("Persist N2's writes")), `persist is offered: ${offered.join(' | ')}`);
  assert.ok(!offered.some((label) => label.startsWith("Send N2's messages")), 'send waits for the write');
  assert.deepEqual(errors, []);
  await context.close();
});

test('Accept dots name their slot, none hides another, and the decided log wraps inside the stage', async () => {
  const storageState = storageOfAPlayerInOrder();
  const { page, context, errors } = await site.open(site.level('act2/steady-state'), { storageState });
  await control(page, 'Request: C1 N1');
  await deliver(page, 'C1', 'N1', 'Write');
  await control(page, 'Request: C2 N1');
  await deliver(page, 'C2', 'N1', 'Write');
  await page.locator('.pp-choice[data-key="no"]').click();
  // Two slots in flight to each follower: every Accept dot shows its slot, and says it first.
  const accepts = await page.locator('.pp-stage .pp-dot.pp-kind-accept').evaluateAll((dots) =>
    dots.map((dot) => ({
      slot: dot.dataset.slot,
      shown: [...dot.querySelectorAll('text')].map((text) => text.textContent).join(' '),
      name: dot.getAttribute('aria-label'),
    })),
  );
  assert.equal(accepts.length, 4, 'slots 1 and 2 go to N2 and N3');
  assert.deepEqual(accepts.map((dot) => dot.slot).sort(), ['1', '1', '2', '2']);
  for (const dot of accepts) {
    assert.equal(dot.shown, `2a s${dot.slot}`, 'the dot shows its slot');
    assert.ok(dot.name.startsWith(dot.shown), `its name begins with what it shows: ${dot.name}`);
    assert.match(dot.name, new RegExp(`slot ${dot.slot},`));
  }
  assert.deepEqual(await overlappingDots(page), []);
  // Slot 1's Accept to N2 is picked on the stage itself, by the tag its dot shows.
  const slotOne = page.locator('.pp-stage .pp-dot.pp-kind-accept[data-slot="1"][aria-label*="N1→N2"]');
  const name = await slotOne.getAttribute('aria-label');
  await slotOne.click();
  assert.equal(await page.locator(`.pp-stage .pp-dot[aria-label="${name}"]`).count(), 0, 'slot 1 delivered');

  const rest = [
    ['N1', 'N2', 'Accept(1.N1, slot 2'], ['N2', 'N1', 'Accepted'], ['N2', 'N1', 'Accepted'],
    ['N1', 'C1', 'Reply'], ['N1', 'C2', 'Reply'],
  ];
  for (const [from, to, text] of rest) await deliver(page, from, to, text);
  for (const [client, slot] of [['C1', 3], ['C2', 4], ['C1', 5]]) {
    await control(page, `Request: ${client} N1`);
    await deliver(page, client, 'N1', 'Write');
    await deliver(page, 'N1', 'N2', `Accept(1.N1, slot ${slot}`);
    await deliver(page, 'N2', 'N1', 'Accepted');
    await deliver(page, 'N1', client, 'Reply');
  }
  // Five slots decided: the line under the stage takes several lines, each inside the stage.
  const summary = await page.locator('.pp-stage').evaluate((svg) => {
    const text = svg.querySelector('text.pp-chosen');
    const box = text.getBBox();
    return { lines: text.querySelectorAll('tspan').length, left: box.x, right: box.x + box.width, width: svg.viewBox.baseVal.width, content: text.textContent };
  });
  assert.match(summary.content, /chosen: 1 .* 5 /);
  assert.ok(summary.lines >= 2, `the decided log wraps: ${summary.content}`);
  assert.ok(summary.left >= 0 && summary.right <= summary.width, `nothing is cut: ${JSON.stringify(summary)}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('elect-a-leader asks about Phase 1 before the command lands: no slot-3 Accept, N2 kept back', async () => {
  const storageState = storageOfAPlayerInOrder();
  const { page, context, errors } = await site.open(site.level('act2/elect-a-leader'), { storageState });
  await control(page, 'Tick N2');
  await control(page, 'Tick N2');
  await deliver(page, 'N2', 'N3', 'Prepare');
  await deliver(page, 'N3', 'N2', 'Promise');
  await page.locator('.pp-choice[data-key="recover"]').click();
  await deliver(page, 'N2', 'N3', 'Accept(2.N2, slot 1');
  await deliver(page, 'N3', 'N2', 'Accepted');
  await deliver(page, 'N2', 'N3', 'Accept(2.N2, slot 2');
  await deliver(page, 'N3', 'N2', 'Accepted');
  await control(page, 'Request: C3 N2');
  assert.match(await page.locator('.pp-question').textContent(), /Must N2 run Phase 1 for slot 3 first\?/);
  assert.equal(await page.locator('.pp-prompt-node').textContent(), 'You answer for N2');
  const wire = await page.locator('.pp-wire-list').textContent();
  assert.doesNotMatch(wire, /slot 3/, 'no Accept for slot 3 is on the wire yet');
  assert.doesNotMatch(wire, /C3→N2 Write/, 'what the request sent is held back while asked');
  assert.match(await page.locator('.pp-stage .pp-chosen').textContent(), /messages? held back: answer first/);
  const n2 = await page.locator('.pp-stage g.pp-node[data-node="N2"]').textContent();
  assert.match(n2, /answer first/, 'N2 keeps its log back while asked');
  assert.deepEqual(await slotTitles(page, 'N2'), [], 'no slot of N2 is drawn while asked');
  await page.locator('.pp-choice[data-key="no"]').click();
  await deliver(page, 'C3', 'N2', 'Write');
  assert.match(await page.locator('.pp-wire-list').textContent(), /N2→N3 Accept\(2\.N2, slot 3/);
  assert.deepEqual(errors, []);
  await context.close();
});
