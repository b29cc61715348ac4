// Browser tests of Act IV's `act4/the-grid`: four nodes drawn as a 2x2 grid (rows and columns
// labelled, the deciding column of the slot in play marked), on a desktop and on a phone, and
// the level played to its goal by clicking (N1 elected by a row, slot 1 decided by column 1,
// slot 2 by column 2, a stray vote outside slot 2's column judged), a wrong answer refused on
// the way, and the page audited by axe-core.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { useSite, stage, fingerprint, goal, moves, audit, grave, passedCleanly } from './harness.js';
import { deliver, control, answer } from './log-play.js';

const site = useSite();
const ID = 'act4/the-grid';
const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

/** The four log nodes' boxes on the stage, in screen pixels, by name. */
function nodeBoxes(page) {
  return page.locator('.pp-stage g.pp-node:not(.pp-client)').evaluateAll((groups) =>
    Object.fromEntries(groups.map((group) => {
      const box = group.querySelector('rect').getBoundingClientRect();
      const role = group.querySelector('.pp-node-role').textContent;
      return [group.dataset.node, { role, left: box.left, right: box.right, top: box.top, bottom: box.bottom }];
    })));
}

/** The grid's bands: each row's and column's label and box, and which column is marked. */
function gridBands(page) {
  return page.locator('.pp-stage .pp-grid').evaluate((grid) => {
    const band = (group) => {
      const box = group.querySelector('rect').getBoundingClientRect();
      return {
        label: [...group.querySelectorAll('.pp-grid-label')].map((label) => label.textContent).join(' '),
        title: group.querySelector('title').textContent,
        left: box.left, right: box.right, top: box.top, bottom: box.bottom,
      };
    };
    return {
      rows: [...grid.querySelectorAll('.pp-grid-row')].map(band),
      columns: [...grid.querySelectorAll('.pp-grid-column')].map(band),
      marked: [...grid.querySelectorAll('.pp-grid-deciding')].map((group) => ({
        column: group.dataset.column, slot: group.dataset.slot,
      })),
    };
  });
}

const inside = (inner, outer) =>
  inner.left >= outer.left && inner.right <= outer.right && inner.top >= outer.top && inner.bottom <= outer.bottom;

/** Fails unless N1 N2 / N3 N4 stand in two rows and two columns, each node inside its row's
 *  and its column's band, all inside the viewport, and the marked column is `column`. */
async function assertGrid(page, width, column, slot) {
  const boxes = await nodeBoxes(page);
  const { rows, columns, marked } = await gridBands(page);
  assert.deepEqual(rows.map((row) => row.label), ['row 1', 'row 2']);
  assert.match(rows[0].title, /row 1: N1, N2; a full row elects/);
  assert.equal(columns.length, 2);
  assert.match(columns[0].title, /column 1: N1, N3/);
  assert.match(columns[1].title, /column 2: N2, N4/);
  assert.deepEqual(marked, [{ column: String(column), slot: String(slot) }]);
  assert.equal(columns[column - 1].label, `column ${column} · slot ${slot}`);
  const grid = [['N1', 'N2'], ['N3', 'N4']];
  grid.forEach((names, row) => names.forEach((name, col) => {
    assert.ok(inside(boxes[name], rows[row]), `${name} stands in row ${row + 1}`);
    assert.ok(inside(boxes[name], columns[col]), `${name} stands in column ${col + 1}`);
  }));
  assert.equal(boxes.N1.top, boxes.N2.top, 'a row is level');
  assert.ok(boxes.N1.right <= boxes.N2.left, 'N1 and N2 do not touch');
  assert.ok(boxes.N1.bottom < boxes.N3.top, 'row 2 stands below row 1');
  assert.ok(Math.abs(boxes.N1.left - boxes.N3.left) < 1, 'a column is upright');
  assert.ok(Object.values(boxes).every((box) => box.left >= 0 && box.right <= width), 'every node is inside the viewport');
}

const question = (page) => page.locator('.pp-question').textContent();

test('the grid is played to its goal by clicking, a column of promises is refused as a row, and the stray vote counts for nothing', async () => {
  const { page, context, errors } = await site.open(site.level(ID));
  assert.equal(await page.locator('.pp-title').textContent(), 'The grid');
  assert.match(await page.locator('.pp-kicker').textContent(), /Act IV/);
  assert.equal(await goal(page), 'open');
  await assertGrid(page, 1200, 1, 1);

  // N3 promises: {N1, N3} is a column, not a row.
  await deliver(page, 'N1', 'N3', 'Prepare');
  assert.match(await question(page), /N3's Promise at 1\.N1 is on its way to N1\. When it lands, does N1 hold a full row\?/);
  const axeOpen = grave(await audit(page));
  assert.deepEqual(axeOpen, [], JSON.stringify(axeOpen, null, 2));
  const stageBefore = await stage(page);
  const printBefore = await fingerprint(page);
  const movesBefore = await moves(page);
  await answer(page, 'yes', 'wrong');
  assert.match(await page.locator('.pp-outcome-wrong').textContent(), /\{N1, N3\} holds no full row.*is a whole column/);
  assert.equal(await fingerprint(page), printBefore, 'a wrong answer leaves the world as it was');
  assert.equal(await stage(page), stageBefore, 'and the stage');
  assert.equal(await moves(page), movesBefore, 'a wrong answer is not a move');
  await answer(page, 'no', 'right');
  await deliver(page, 'N3', 'N1', 'Promise');
  await deliver(page, 'N1', 'N2', 'Prepare');
  await answer(page, 'yes', 'right');
  await deliver(page, 'N2', 'N1', 'Promise');
  assert.equal((await nodeBoxes(page)).N1.role, 'leader');

  // Slot 1 on column 1.
  await control(page, 'Request: C1 N1');
  await deliver(page, 'C1', 'N1', 'Write');
  await deliver(page, 'N1', 'N3', 'Accept(1.N1, slot 1,');
  assert.match(await page.locator('.pp-prompt').textContent(), /slot 1 is decided by column 1, \{N1, N3\}/);
  await answer(page, 'yes', 'right');
  await deliver(page, 'N3', 'N1', 'Accepted');
  await deliver(page, 'N1', 'C1', 'Reply');

  // Slot 2 on column 2: the marked column moves with the slot in play.
  await control(page, 'Request: C1 N1');
  await deliver(page, 'C1', 'N1', 'Write');
  await assertGrid(page, 1200, 2, 2);
  await deliver(page, 'N1', 'N2', 'Accept(1.N1, slot 2,');
  await answer(page, 'no', 'right');
  await deliver(page, 'N1', 'N4', 'Accept(1.N1, slot 2,');
  await answer(page, 'yes', 'right');
  assert.equal(await goal(page), 'open', 'the stray vote is still to come');

  // The stray Accept: N3 is outside slot 2's column.
  await deliver(page, 'N1', 'N3', 'Accept(1.N1, slot 2,');
  assert.match(await question(page), /N3 voted for x=2 .*in slot 2, which is decided already\. Does this vote count towards slot 2\?/);
  await answer(page, 'no', 'right');
  assert.match(await page.locator('.pp-outcome-right').textContent(), /outside column 2, \{N2, N4\}.*Quorums::is_phase2_quorum_at/);
  await passedCleanly(page, context, errors);
});

test('the grid fits on a phone and a desktop, in light and dark (screenshots in tests/e2e/screenshots)', async () => {
  await mkdir(SHOTS, { recursive: true });
  for (const [name, width, colorScheme] of [['phone', 360, 'light'], ['phone-dark', 360, 'dark'], ['desktop', 1280, 'light']]) {
    const { page, context, errors } = await site.open(site.level(ID), { viewport: { width, height: 900 }, colorScheme });
    await deliver(page, 'N1', 'N2', 'Prepare');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${name}: no sideways scrolling (${overflow}px too wide)`);
    await assertGrid(page, width, 1, 1);
    const labelSize = await page.locator('.pp-grid-label').first().evaluate((label) => label.getBoundingClientRect().height);
    assert.ok(labelSize >= 7, `${name}: the grid's labels stay legible (${labelSize}px)`);
    await page.locator('.pp-stage').screenshot({ path: `${SHOTS}the-grid-${name}.png` });
    assert.deepEqual(errors, []);
    await context.close();
  }
});
