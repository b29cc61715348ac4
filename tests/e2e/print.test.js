// The print page: the whole book on one page for printing or saving as PDF. Every chapter of
// SUMMARY.md is there, read with scripts off, its levels drawn as stills of their first stage;
// Chromium prints it to a PDF of a page or more per chapter; and every page links to it
// (a11y.test.js audits it with axe-core). The check of the chapters is shown to fail on a page that lacks
// one.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { useSite, openPage } from './harness.js';
import { summaryChapters, missingChapters } from './print-check.js';

const site = useSite();
const SUMMARY = fileURLToPath(new URL('../../chapters/SUMMARY.md', import.meta.url));

/** Each printed chapter's page and text. */
const printedSections = (page) =>
  page.$$eval('section.print-chapter', (sections) =>
    sections.map((section) => ({ page: section.dataset.page, text: section.innerText })),
  );

test('print.html holds every chapter of SUMMARY.md and its levels as stills, with scripts off', async (t) => {
  const chapters = summaryChapters(await readFile(SUMMARY, 'utf8'));
  assert.ok(chapters.length >= 10, `SUMMARY.md lists ${chapters.length} chapters`);
  const { page, context } = await openPage(site.browser, { javaScriptEnabled: false });
  await page.goto(`${site.url}/print.html`);
  assert.deepEqual(missingChapters(chapters, await printedSections(page)), []);
  // A level is a still of its stage, readable without the game's script, beside its link.
  const stills = await page.locator('.level-embed .level-still').count();
  const embeds = await page.locator('.level-embed').count();
  assert.ok(embeds >= 5 && stills === embeds, `${stills} stills for ${embeds} level embeds`);
  t.diagnostic(`${chapters.length} chapters, ${stills} level stills for ${embeds} level embeds`);
  assert.equal(await page.locator('.paros-level').count(), 0, 'no mount point waits for a script');
  assert.ok((await page.locator('.level-embed a.level-link[href^="play/#"]').count()) === embeds);
  assert.match(await page.locator('.level-still').first().innerText(), /Stage 1 of \d+/);
  // Links between chapters stay on the page.
  const outward = await page.$$eval('section.print-chapter a[href$=".html"]', (links) =>
    links.map((link) => link.getAttribute('href')).filter((href) => !/^(api|play)\//.test(href) && !href.includes('://')),
  );
  assert.deepEqual(outward, [], 'a link to another chapter goes to its section here');
  await context.close();
});

test('print.html prints to a PDF with a page or more per chapter', async (t) => {
  const chapters = summaryChapters(await readFile(SUMMARY, 'utf8'));
  const { page, context, errors } = await openPage(site.browser);
  await page.goto(`${site.url}/print.html`);
  await page.emulateMedia({ media: 'print' });
  assert.equal(await page.locator('header.bar').isVisible(), false, 'the top bar is not printed');
  assert.equal(await page.locator('#sidebar').isVisible(), false, 'the sidebar is not printed');
  const pdf = await page.pdf({ format: 'A4', printBackground: false });
  assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
  const pages = pdf.toString('latin1').match(/\/Type\s*\/Page\b(?!s)/g) ?? [];
  assert.ok(pages.length >= chapters.length, `${pages.length} PDF pages for ${chapters.length} chapters`);
  assert.ok(pdf.length > 100_000, `the PDF has ${pdf.length} bytes`);
  t.diagnostic(`the PDF: ${pages.length} pages, ${pdf.length} bytes`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the chapter check fails on a printed page that lacks a chapter', async () => {
  const chapters = summaryChapters(await readFile(SUMMARY, 'utf8'));
  const { page, context } = await openPage(site.browser, { javaScriptEnabled: false });
  await page.goto(`${site.url}/print.html`);
  const printed = await printedSections(page);
  const [dropped, ...kept] = printed;
  assert.deepEqual(missingChapters(chapters, kept), [`${chapters[0].title} (${dropped.page})`]);
  // A section of the right page that lost its title is missing too.
  const retitled = printed.map((section, index) => (index === 1 ? { ...section, text: '' } : section));
  assert.deepEqual(missingChapters(chapters, retitled), [`${chapters[1].title} (${chapters[1].page})`]);
  await context.close();
});

test('every kind of page links to print.html in its top bar', async () => {
  const { page, context } = await openPage(site.browser, { javaScriptEnabled: false });
  for (const path of ['index.html', 'choosing-one-value.html', 'play/index.html', 'protocol-names.html']) {
    await page.goto(`${site.url}/${path}`);
    const link = page.locator('header.bar a[href$="print.html"]');
    assert.equal(await link.count(), 1, path);
    await link.click();
    assert.ok(page.url().endsWith('/print.html'), `${path} -> ${page.url()}`);
  }
  await context.close();
});
