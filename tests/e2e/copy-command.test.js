// "Copy as command": a position leaves the browser as the paros-sim command that replays its
// stage natively. Plays a few moves of a log level and of an Act I level, copies the command,
// checks that it names the stage's world and the moves, and runs it with paros-sim through a
// real POSIX shell: every step must replay, with no violation (exit 0). The native test
// `widgets/tests/copy_command.rs` compares fingerprints with the game's for every stage.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useSite, moves } from './harness.js';
import { control, deliver, answer } from './log-play.js';

const site = useSite();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The paros-sim binary: `PAROS_SIM_BIN`, or the release build, brought up to date here (the
 *  site's build has already compiled the library in release, so this at most links it). */
let built = '';
function parosSim() {
  if (process.env.PAROS_SIM_BIN) return process.env.PAROS_SIM_BIN;
  if (!built) {
    execFileSync('cargo', ['build', '--release', '-q', '-p', 'paros-sim'], { cwd: root, stdio: 'inherit' });
    built = path.join(process.env.CARGO_TARGET_DIR || path.join(root, 'target'), 'release', 'paros-sim');
    assert.ok(existsSync(built), `cargo built no ${built}`);
  }
  return built;
}

/** Runs the copied command in `sh`, with `paros-sim` on the PATH. */
function runInShell(command) {
  const bin = path.dirname(parosSim());
  return spawnSync('sh', ['-c', command], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
}

/** Clicks "Copy as command" and reads the command from its field. */
async function copyCommand(page) {
  const button = page.getByRole('button', { name: 'Copy as command' });
  await button.focus();
  await page.keyboard.press('Enter');
  await page.locator('.pp-command-note').filter({ hasText: /Copied\.|Select it and copy it\./ }).waitFor();
  return page.locator('.pp-command').inputValue();
}

test('a log level: the command names the stage\'s world and its world moves, and replays in a shell', async () => {
  const { page, errors } = await site.open(site.level('act3/the-fresh-leader-trap'));
  await control(page, 'Request: C1 N2');
  await deliver(page, 'C1', 'N2', 'Read');
  await answer(page, 'wait', 'right');
  await deliver(page, 'N2', 'N3', 'ReadIndex');
  assert.equal(await moves(page), 4, 'three world moves and one answer');

  const command = await copyCommand(page);
  const label = await page.getByLabel('Command that replays this stage').inputValue();
  assert.equal(label, command, 'the command is shown in a labelled field, selectable without the clipboard');
  assert.match(command, /^paros-sim replay act3\/the-fresh-leader-trap 'request C1 N2 read x' 'deliver m\d+ C1->N2 Read\([^']*\)' 'deliver m\d+ N2->N3 ReadIndex\([^']*\)'$/);
  assert.doesNotMatch(command, /answer|wait/, 'answers never enter the world');

  const run = runInShell(command);
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /^act3\/the-fresh-leader-trap: 3 actions\n/);
  assert.match(run.stdout, /checkers: no violation\n/);
  assert.match(run.stdout, /fingerprint: [0-9a-f]{16}\n$/);
  assert.deepEqual(errors, []);
});

test('an Act I level: a held move enters the command once answered, and the command replays', async () => {
  const { page, errors } = await site.open(site.level('act1/be-the-acceptor'));
  const prepare = page.locator('.pp-wire-list li[data-msg]').filter({ hasText: 'P1→A1 Prepare' }).first();
  const id = await prepare.getAttribute('data-msg');
  await page.locator(`.pp-stage .pp-dot[data-msg="${id}"]`).click();
  assert.match(await copyCommand(page), /^paros-sim replay act1\/be-the-acceptor$/, 'the held delivery is not in the world yet');
  await answer(page, 'promise', 'right');

  const command = await copyCommand(page);
  assert.equal(command, `paros-sim replay act1/be-the-acceptor 'deliver m${id} P1->A1 Prepare(1.P1)'`);
  const run = runInShell(command);
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /^act1\/be-the-acceptor: 1 actions\n {4}1\. deliver m\d+ P1->A1 Prepare\(1\.P1\)\n/);
  assert.deepEqual(errors, []);
});

test('a word with a quote is quoted for a POSIX shell and reads back whole', async () => {
  const { page, errors } = await site.open(site.level('act1/choose-a-value'));
  const words = ["x='it's'", 'plain/word-1', 'two words', "'", ''];
  const quoted = await page.evaluate(async (list) => {
    const { shellQuote } = await import('/play/level.js');
    return list.map(shellQuote);
  }, words);
  assert.equal(quoted[1], 'plain/word-1', 'a plain word is left as it is');
  const run = spawnSync('sh', ['-c', `for word in ${quoted.join(' ')}; do printf '[%s]' "$word"; done`], { encoding: 'utf8' });
  assert.equal(run.stdout, words.map((word) => `[${word}]`).join(''));
  assert.deepEqual(errors, []);
});

test('a refused action in a command is named by its step', async () => {
  const run = runInShell("paros-sim replay act1/choose-a-value 'deliver P1->A1 Prepare' 'deliver A3->P1 Promise'");
  assert.equal(run.status, 1);
  assert.match(run.stderr, /^error: step 2 \(`deliver A3->P1 Promise`\) does not replay on `act1\/choose-a-value`: /);
});
