// Shared set-up of the browser tests: a static server for the built site on a free loopback
// port, and Debian's Chromium driven by playwright-core (no browser is ever downloaded).
//
// The site comes from PAROS_E2E_SITE (run.sh builds it with `paros-book build`). Pages under
// /e2e/ come from fixtures/ instead, so a test can load a page the book does not have (a level
// embedded in a page of its own) without touching the built site.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The built site's folder, checked once. */
export function siteDir() {
  const dir = process.env.PAROS_E2E_SITE;
  if (!dir) throw new Error('PAROS_E2E_SITE is not set: run the tests with tests/e2e/run.sh');
  return resolve(dir);
}

async function fileFor(root, urlPath) {
  const path = normalize(join(root, decodeURIComponent(urlPath)));
  if (!path.startsWith(root)) return null;
  const info = await stat(path).catch(() => null);
  if (!info) return null;
  return info.isDirectory() ? fileFor(root, join(urlPath, 'index.html')) : path;
}

/** Serves the site (and /e2e/ fixtures) on 127.0.0.1 at a free port. */
export async function startServer() {
  const site = siteDir();
  const server = createServer(async (request, response) => {
    const urlPath = new URL(request.url, 'http://localhost').pathname;
    const fixture = urlPath.startsWith('/e2e/');
    const path = await fileFor(fixture ? FIXTURES : site, fixture ? urlPath.slice(5) : urlPath);
    if (!path) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const type = TYPES[extname(path)] || 'application/octet-stream';
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    response.end(await readFile(path));
  });
  await new Promise((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(done)) };
}

/** Starts Debian's Chromium headless. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.PAROS_E2E_CHROMIUM || '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}

/** A fresh page (own storage) that records script errors; `errors` must stay empty. */
export async function openPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/favicon/.test(message.location().url)) {
      errors.push(message.text());
    }
  });
  return { page, context, errors };
}

/** Waits until mount.js has loaded the engine and mounted everything. */
export async function ready(page) {
  await page.waitForSelector('html[data-paros-play="ready"]', { timeout: 15000 });
}

/** Serves the site and starts the browser before a test file's tests, and stops both after
 *  them. Call it at the top of the file; `url` and `browser` are set once its tests begin. */
export function useSite() {
  let server;
  const site = {
    url: '',
    browser: null,
    /** The play page's address of level `id`. */
    level: (id) => `${site.url}/play/#${id}`,
    /** A fresh page (see `openPage`, which takes the same options) at `address`, once the game
     *  has mounted there. */
    async open(address, options = {}) {
      const opened = await openPage(site.browser, options);
      await opened.page.goto(address);
      await ready(opened.page);
      return opened;
    },
  };
  before(async () => {
    server = await startServer();
    site.url = server.url;
    site.browser = await launchBrowser();
  });
  after(async () => {
    await site.browser?.close();
    await server?.close();
  });
  return site;
}

/** The stage's markup: the same string, the same stage. */
export const stage = (page) => page.locator('.pp-stage').evaluate((svg) => svg.outerHTML);

/** The fingerprint of the level's world. */
export const fingerprint = (page) => page.locator('.pp-level').getAttribute('data-fingerprint');

/** The level's goal: `open` or `reached`. */
export const goal = (page) => page.locator('.pp-level').getAttribute('data-goal');

/** The moves in this line, as the counts under the stage show them. */
export async function moves(page) {
  return Number((await page.locator('.pp-counts').textContent()).match(/moves in this line (\d+)/)[1]);
}

const AXE_SOURCE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core (the engine of Lighthouse's accessibility audit) on the page as it stands;
 *  returns its violations, each with its elements. */
export async function audit(page) {
  await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    const results = await window.axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
  });
}

/** The violations that fail a test: those of impact serious or critical. */
export const grave = (violations) => violations.filter((violation) => ['serious', 'critical'].includes(violation.impact));

/** Ends a test that plays a level to its goal: the goal is reached and the level says it is
 *  passed, axe-core finds nothing serious on the page, and the page raised no error. */
export async function passedCleanly(page, context, errors) {
  assert.equal(await goal(page), 'reached');
  assert.match(await page.locator('.pp-passed').textContent(), /Level passed/);
  const violations = grave(await audit(page));
  assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  assert.deepEqual(errors, []);
  await context.close();
}
