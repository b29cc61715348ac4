// Accessibility of the book's pages: axe-core (the engine of Lighthouse's accessibility audit),
// injected into Chromium, audits a chapter, the level map, one level of each act and the whole
// book on one page (print.html, which loads no game). A
// violation of impact serious or critical fails the test, listed with the elements it names.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage, ready, audit, grave } from './harness.js';

const site = useSite();

const PAGES = [
  { name: 'a chapter with levels and code', path: 'choosing-one-value.html', waitFor: '.paros-level .pp-level' },
  { name: 'the level map', path: 'play/', waitFor: '.pp-map' },
  { name: 'an Act I level', path: 'play/#act1/the-duel', waitFor: '.pp-level' },
  { name: 'an Act II level', path: 'play/#act2/steady-state', waitFor: '.pp-level' },
  { name: 'an Act III level with two clients on a timeline', path: 'play/#act3/linearizable-or-not', waitFor: '.pp-timeline' },
  { name: 'the whole book on one page', path: 'print.html', waitFor: '.print-chapter .level-still', game: false },
];

for (const { name, path, waitFor, game = true } of PAGES) {
  test(`${name} (${path}) has no serious or critical axe-core violation`, async () => {
    const { page, context, errors } = await openPage(site.browser);
    await page.goto(`${site.url}/${path}`);
    if (game) await ready(page);
    await page.waitForSelector(waitFor);
    const violations = await audit(page);
    assert.deepEqual(grave(violations), [], JSON.stringify(grave(violations), null, 2));
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the audit can fail: a page with a nameless button and grey-on-grey text is caught', async () => {
  const { page, context } = await openPage(site.browser);
  await page.goto(`${site.url}/choosing-one-value.html`);
  await page.evaluate(() => {
    const main = document.querySelector('main');
    main.insertAdjacentHTML('beforeend', '<button class="planted"></button><p style="color:#bbb;background:#ccc">planted</p>');
  });
  const ids = grave(await audit(page)).map((violation) => violation.id);
  assert.ok(ids.includes('button-name'), ids.join(', '));
  assert.ok(ids.includes('color-contrast'), ids.join(', '));
  await context.close();
});

test('the skip link leads to the main text on every kind of page', async () => {
  const { page, context } = await openPage(site.browser);
  for (const path of ['choosing-one-value.html', 'play/', 'play/#act1/the-duel', 'index.html']) {
    await page.goto(`${site.url}/${path}`);
    const target = await page.locator('a.skip').getAttribute('href');
    assert.equal(await page.locator(target).count(), 1, `${path}: ${target} exists`);
    assert.equal(await page.locator('h1').count(), 1, `${path}: one first-level heading`);
  }
  await context.close();
});
