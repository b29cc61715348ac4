// Browser test of the node cards: no card's text runs past its box. Every level's first stage is
// drawn at a phone's width and a desktop's, and each text of each node card (its name, role and
// lines) must lie inside the card's rectangle as Chromium lays it out. A planted failure (a
// line far longer than any card) proves the check can fail.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useSite, siteDir } from './harness.js';

const site = useSite();

const WIDTHS = [390, 1300];

async function levelIds() {
  const catalog = JSON.parse(await readFile(join(siteDir(), 'play/levels.json'), 'utf8'));
  return catalog.levels.map((level) => level.id);
}

/** Every text of a node card that runs past the card's rectangle, as `node: text`. */
function overflowing(page) {
  return page.locator('.pp-stage').evaluate((svg) => {
    const found = [];
    for (const card of svg.querySelectorAll('g.pp-node')) {
      const box = card.querySelector(':scope > rect').getBBox();
      for (const line of card.querySelectorAll(':scope > text')) {
        const inked = line.getBBox();
        const inside = inked.x >= box.x - 0.5 && inked.x + inked.width <= box.x + box.width + 0.5;
        if (!inside) found.push(`${card.dataset.node}: ${line.textContent}`);
      }
    }
    return found;
  });
}

test('no node card text overflows its box, in any level at any width', async () => {
  const found = [];
  let cards = 0;
  for (const id of await levelIds()) {
    for (const width of WIDTHS) {
      const { page, context, errors } = await site.open(site.level(id), { viewport: { width, height: 900 } });
      cards += await page.locator('.pp-stage g.pp-node').count();
      for (const line of await overflowing(page)) found.push(`${id} at ${width} px: ${line}`);
      assert.deepEqual(errors, [], id);
      await context.close();
    }
  }
  assert.ok(cards >= 100, `only ${cards} node cards drawn`);
  assert.deepEqual(found, [], 'a card text overflows its box');
});

test('the overflow check finds a line longer than its card (planted)', async () => {
  const { page, context } = await site.open(site.level('act2/steady-state'), { viewport: { width: 390, height: 900 } });
  await page.locator('.pp-stage g.pp-node text.pp-node-line').first()
    .evaluate((line) => { line.textContent = 'applied to 3 · floor 2 · and a good deal more besides'; });
  assert.ok((await overflowing(page)).length > 0, 'the planted long line was not found');
  await context.close();
});
