// Browser tests of the field guide's first chapters: each opens without a script error, shows
// its figures, mounts every level it embeds and ends with its "Proven, not asserted" reports; an
// inline level is played to its goal; a symbol link reaches the API page of the item it names,
// a level link opens that level on the play page, How to play's map lists the game's own
// levels, a code embed shows the real source, search shows where its words occur and finds
// levels, and every page has its icon.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { useSite, openPage, ready } from './harness.js';

const site = useSite();

/** Each chapter, with the levels it embeds and how many reports its last section shows. */
const CHAPTERS = [
  { page: 'how-to-play.html', title: 'How to play', levels: [], reports: 1 },
  {
    page: 'choosing-one-value.html',
    title: 'How Paxos chooses one value',
    levels: ['act1/choose-a-value', 'act1/be-the-acceptor', 'act1/the-duel'],
    reports: 4,
  },
  {
    page: 'one-value-is-safe.html',
    title: 'Why one value is safe',
    levels: ['act1/adopt-the-value', 'act1/quorum-intersection', 'act1/recovery-is-not-catch-up'],
    reports: 4,
  },
];

for (const chapter of CHAPTERS) {
  test(`${chapter.title}: figures load, levels mount, the reports close the chapter`, async () => {
    const { page, context, errors } = await openPage(site.browser);
    await page.goto(`${site.url}/${chapter.page}`);
    if (chapter.levels.length) await ready(page);
    assert.equal((await page.locator('main h1, article h1, h1').first().textContent()).trim(), chapter.title);

    const figures = page.locator('img[src^="figures/"]');
    assert.ok((await figures.count()) >= 1, 'at least one figure');
    for (const figure of await figures.all()) {
      const width = await figure.evaluate((img) => img.complete && img.naturalWidth);
      assert.ok(width > 0, `${await figure.getAttribute('src')} loads`);
      assert.ok((await figure.getAttribute('alt')).length > 20, 'the figure is described in words');
    }

    for (const id of chapter.levels) {
      const embed = page.locator(`.paros-level[data-level="${id}"]`);
      assert.equal(await embed.count(), 1, `${id} is embedded once`);
      assert.equal(await embed.locator('.pp-stage').count(), 1, `${id} mounted its stage`);
    }

    // "Proven, not asserted" is the last section, and it holds the reports.
    const headings = await page.locator('h2').allTextContents();
    assert.equal(headings.at(-1).trim(), 'Proven, not asserted');
    const reports = page.locator('#proven-not-asserted ~ .proven');
    assert.equal(await reports.count(), chapter.reports);
    for (const report of await reports.all()) {
      assert.match(await report.locator('.proven-verdict').textContent(), /^\s*(PASS|INCOMPLETE|VIOLATION)/);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a level embedded in a chapter is played to its goal where it stands', async () => {
  const { page, context, errors } = await openPage(site.browser);
  await page.goto(`${site.url}/choosing-one-value.html`);
  await ready(page);
  const embed = page.locator('.paros-level[data-level="act1/choose-a-value"]');
  const goal = () => embed.locator('.pp-level').first().getAttribute('data-goal');
  assert.equal(await goal(), 'open');
  // Deliver the oldest deliverable message; answer "is x chosen yet?" by counting the votes as
  // a reader must while the question keeps back what the step changed: the votes on screen
  // before the step, and the one the delivered Accept made.
  const shownVotes = () => embed.locator('.pp-stage .pp-slot-undecided, .pp-stage .pp-slot-chosen').count();
  let votes = 0;
  for (let step = 0; step < 40 && (await goal()) !== 'reached'; step += 1) {
    if (await embed.locator('.pp-choice').count()) {
      await embed.locator(`.pp-choice[data-key="${votes >= 2 ? 'yes' : 'no'}"]`).click();
    } else {
      const dot = embed.locator('.pp-dot[tabindex]').first();
      const accept = /\bpp-kind-accept\b/.test(await dot.getAttribute('class'));
      votes = (await shownVotes()) + (accept ? 1 : 0);
      await dot.click();
    }
  }
  assert.equal(await goal(), 'reached');
  assert.match(await embed.locator('.pp-stage .pp-chosen').textContent(), /chosen: x/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a symbol link leads to the API page of the item it names', async () => {
  const { page, context, errors } = await openPage(site.browser);
  await page.goto(`${site.url}/choosing-one-value.html`);
  const link = page.locator('a', { hasText: 'The promise rule' }).first();
  assert.equal(await link.getAttribute('href'), 'api/paros_core/fn.promise_rule.html');
  await Promise.all([page.waitForURL(/api\/paros_core\/fn\.promise_rule\.html$/), link.click()]);
  assert.match(await page.locator('h1').first().textContent(), /promise_rule/);
  assert.match(await page.textContent('body'), /greater/);
  await context.close();
  assert.deepEqual(errors.filter((error) => !/api\//.test(error)), []);
});

test('a level link in How to play opens that level on the play page', async () => {
  const { page, context, errors } = await openPage(site.browser);
  await page.goto(`${site.url}/how-to-play.html`);
  const link = page.locator('a[href="play/#act1/the-duel"]');
  assert.equal(await link.count(), 1);
  await link.click();
  await page.waitForURL(/play\/#act1\/the-duel$/);
  await ready(page);
  assert.equal(await page.locator('.pp-title').textContent(), 'The duel');
  assert.deepEqual(errors, []);
  await context.close();
});

test("How to play's map lists the game's own levels and counts them by act", async () => {
  const { page, context, errors } = await openPage(site.browser);
  const catalog = await (await fetch(`${site.url}/play/levels.json`)).json();
  await page.goto(`${site.url}/how-to-play.html`);
  const ids = await page.locator('.level-map-playable tbody tr td:first-child a').allTextContents();
  assert.deepEqual(ids, catalog.levels.map((level) => level.id), 'one row per level of the game, in its order');
  const hrefs = await page.locator('.level-map-playable tbody tr td:first-child a')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
  assert.deepEqual(hrefs, catalog.levels.map((level) => `play/#${level.id}`));
  const acts = await page.locator('.level-map-acts tbody tr').evaluateAll((rows) =>
    rows.map((row) => [...row.cells].map((cell) => cell.textContent)));
  const numerals = ['I', 'II', 'III', 'IV', 'V', 'VI'];
  for (const [numeral, , , counted] of acts) {
    const act = numerals.indexOf(numeral) + 1;
    const playable = catalog.levels.filter((level) => level.act === act).length;
    assert.match(counted, new RegExp(`^${playable} of \\d+$`), `act ${numeral}: ${counted}`);
  }
  const acted = acts.map(([numeral]) => numerals.indexOf(numeral) + 1);
  assert.ok(catalog.levels.every((level) => acted.includes(level.act)), 'every act of the game has a row');
  const duel = page.locator('.level-map-playable tr', { has: page.locator('a[href="play/#act1/the-duel"]') });
  assert.equal(await duel.locator('td:last-child a').getAttribute('href'), 'choosing-one-value.html');
  const playableTitles = catalog.levels.map((level) => level.title);
  for (const item of await page.locator('.level-map-designed li').allTextContents()) {
    const titles = item.replace(/^Act [IVXL]+: /, '').split(', ');
    assert.ok(titles.every((title) => !playableTitles.includes(title)), `${item} lists no playable level`);
  }
  assert.equal(await page.locator('.level-map-designed a').count(), 0, 'a level not in the game has no link');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a code embed shows the lines of the real source and links the API page', async () => {
  const { page, context, errors } = await openPage(site.browser);
  await page.goto(`${site.url}/choosing-one-value.html`);
  const embed = page.locator('figure.code-embed[data-item="promise_rule"]');
  assert.equal(await embed.count(), 1);
  // The item's lines as they stand in paros-core today, from `pub fn` to its closing brace.
  const source = await readFile(new URL('../../core/src/acceptor.rs', import.meta.url), 'utf8');
  const lines = source.split('\n');
  const first = lines.findIndex((line) => line.startsWith('pub fn promise_rule('));
  const last = lines.findIndex((line, at) => at > first && line === '}');
  assert.ok(first >= 0 && last > first, 'promise_rule is in core/src/acceptor.rs');
  assert.equal((await embed.locator('pre code').textContent()).trimEnd(), lines.slice(first, last + 1).join('\n'));
  assert.ok(await embed.locator('pre code span[class^="hl-"]').count() > 3, 'highlighted like other Rust blocks');
  assert.equal(await embed.locator('figcaption .code-where').textContent(),
    `core/src/acceptor.rs, lines ${first + 1}–${last + 1}`);
  const link = embed.locator('figcaption a');
  assert.equal(await link.getAttribute('href'), 'api/paros_core/fn.promise_rule.html');
  assert.deepEqual(errors, []);
  await context.close();
});

test('search shows each result with its sentence, the words marked, and finds levels', async () => {
  const { page, context, errors } = await openPage(site.browser);
  await page.goto(`${site.url}/choosing-one-value.html`);
  await page.keyboard.press('/');
  const input = page.locator('#search-input');
  await input.fill('vote rule');
  const results = page.locator('#search-results li a');
  await results.first().waitFor();
  const teaser = results.first().locator('.teaser');
  const marked = (await teaser.locator('mark').allTextContents()).map((word) => word.toLowerCase());
  assert.ok(marked.some((word) => word.startsWith('vote')) && marked.some((word) => word.startsWith('rule')),
    `both words marked in: ${await teaser.textContent()}`);
  assert.match(await teaser.textContent(), /vote rule/i, 'the teaser is the sentence where the words occur');

  await input.fill('duel');
  const level = page.locator('#search-results a[href$="play/#act1/the-duel"]');
  assert.equal(await level.count(), 1, 'the level is a result');
  assert.match(await level.textContent(), /The duel/);
  await Promise.all([page.waitForURL(/play\/#act1\/the-duel$/), level.click()]);
  await ready(page);
  assert.equal(await page.locator('.pp-title').textContent(), 'The duel');
  assert.deepEqual(errors, []);
  await context.close();
});

test('every page names its icon, and the icon is served', async () => {
  const { page, context } = await openPage(site.browser);
  for (const path of ['index.html', 'choosing-one-value.html', 'play/']) {
    const response = await page.goto(`${site.url}/${path}`);
    assert.equal(response.status(), 200);
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    const icon = await page.request.get(new URL(href, page.url()).href);
    assert.equal(icon.status(), 200, `${path}: ${href}`);
    assert.match(await icon.text(), /^<svg/);
  }
  await context.close();
});
