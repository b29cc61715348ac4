// Browser test of what a pointer resting on the page does: nothing on the page may move what the
// pointer is over. For every level's first stage, at a phone's width and a desktop's, the pointer
// rests on the lower edge of each message row in turn (where a focus line that grew by a line
// would push the row out from under it); the row must stay where it was, frame after frame. A
// planted failure (a focus line that grows while a row is hovered) proves the check can fail.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useSite, siteDir } from './harness.js';
import { control, deliver } from './log-play.js';

const site = useSite();

const WIDTHS = [390, 1300];

/** The bug as it was: the focus line above the list grows while a row is hovered (there, by a
 *  line of text that wrapped), so the list moves down under the pointer. */
const GROWING_FOCUS_LINE = `
  .pp-main:has(.pp-wire-list li.pp-lit) .pp-focus-line { margin-bottom: 20px !important; }`;

async function levelIds() {
  const catalog = JSON.parse(await readFile(join(siteDir(), 'play/levels.json'), 'utf8'));
  return catalog.levels.map((level) => level.id);
}

/** Waits `count` animation frames. */
const frames = (page, count) => page.evaluate((left) => new Promise((done) => {
  const next = () => (--left > 0 ? requestAnimationFrame(next) : done());
  requestAnimationFrame(next);
}), count);

/** Every message row that moved while the pointer rested on its lower edge, as `row: dy`. */
async function rowsThatMove(page) {
  const rows = page.locator('.pp-wire-list li[data-msg]');
  const moved = [];
  for (let index = 0; index < await rows.count(); index += 1) {
    const row = rows.nth(index);
    // A list that jitters under the pointer left there never settles enough to scroll to.
    const settled = await row.scrollIntoViewIfNeeded({ timeout: 5000 }).then(() => true, () => false);
    if (!settled) {
      moved.push(`${await row.textContent()}: never still`);
      continue;
    }
    await page.mouse.move(1, 1);
    await frames(page, 2);
    const before = await row.boundingBox();
    await page.mouse.move(before.x + before.width / 2, before.y + before.height - 2);
    for (let frame = 0; frame < 4; frame += 1) {
      await frames(page, 1);
      const now = await row.boundingBox();
      if (Math.abs(now.y - before.y) > 0.5) {
        moved.push(`${await row.textContent()}: ${(now.y - before.y).toFixed(1)} px`);
        break;
      }
    }
  }
  return moved;
}

test('resting the pointer on a message row never moves the list, in any level at any width', async () => {
  const moved = [];
  let rows = 0;
  for (const id of await levelIds()) {
    for (const width of WIDTHS) {
      const { page, context, errors } = await site.open(site.level(id), { viewport: { width, height: 900 } });
      rows += await page.locator('.pp-wire-list li[data-msg]').count();
      for (const row of await rowsThatMove(page)) moved.push(`${id} at ${width} px: ${row}`);
      assert.deepEqual(errors, [], id);
      await context.close();
    }
  }
  assert.ok(rows >= 20, `only ${rows} message rows on the first stages`);
  assert.deepEqual(moved, [], 'a hovered row moved');
});

test('the hover check finds the list that moves under a focus line that grows (planted)', async () => {
  const { page, context } = await site.open(site.level('act4/proxy-leaders'), { viewport: { width: 390, height: 900 } });
  await page.addStyleTag({ content: GROWING_FOCUS_LINE });
  await control(page, 'Request: C1 N1');
  await deliver(page, 'C1', 'N1', 'Write');
  assert.ok((await rowsThatMove(page)).length > 0, 'the planted growing focus line moved no row');
  await context.close();
});
