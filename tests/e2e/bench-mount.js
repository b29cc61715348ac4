// Measures how long a level takes to mount once the wasm package has loaded: mount.js records a
// `paros-mount <id>` performance measure around each mount. Not a test: it prints figures.
//
//   PAROS_E2E_SITE=DIR node tests/e2e/bench-mount.js [rounds]

import { startServer, launchBrowser, openPage, ready } from './harness.js';

const rounds = Number(process.argv[2] || 20);
const server = await startServer();
const browser = await launchBrowser();
const { page } = await openPage(browser);
await page.goto(`${server.url}/play/`);
await ready(page);
const ids = await page.locator('.pp-map-level').evaluateAll((items) => items.map((item) => item.dataset.level));
for (const id of ids) {
  const times = [];
  for (let round = 0; round < rounds; round += 1) {
    await page.evaluate((target) => {
      performance.clearMeasures();
      location.hash = target;
    }, id);
    await page.locator('.pp-level .pp-stage').waitFor();
    times.push(await page.evaluate((target) => performance.getEntriesByName(`paros-mount ${target}`)[0]?.duration, id));
    await page.evaluate(() => {
      location.hash = '';
    });
    await page.locator('.pp-map').waitFor();
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`${id}: mount median ${median.toFixed(2)} ms, max ${times.at(-1).toFixed(2)} ms over ${rounds} mounts`);
}
await browser.close();
await server.close();
