// How a player plays a replicated-log level in the browser, shared by the Act II and Act III
// tests: find a message by its route and text in the wire list, deliver it by clicking its dot,
// drop it with its button, click a control, answer a prompt. Each checks what the page shows
// happened, so a test reads as the moves a player makes.

import assert from 'node:assert/strict';
import { moves } from './harness.js';

/** The wire-list row of the first message in flight from `from` to `to` whose text starts
 *  with `text` (`Accept(1.N1, slot 1,`), as the list prints it: `m5 N1→N2 Accept(...)`. */
export async function wireRow(page, from, to, text) {
  const wanted = `${from}→${to} ${text}`;
  for (const row of await page.locator('.pp-wire-list li[data-msg]').all()) {
    const line = (await row.locator('.pp-msg-text').textContent()).replace(/^m\d+ /, '');
    if (line.startsWith(wanted)) return row;
  }
  const wire = await page.locator('.pp-wire-list').textContent();
  throw new Error(`no message "${wanted}…" is in flight; the wire holds: ${wire}`);
}

/** Delivers a message by clicking its dot on the stage: one move, after which the message has
 *  left the wire unless the prompt it raised holds it there. Returns its number. */
export async function deliver(page, from, to, text) {
  const id = await (await wireRow(page, from, to, text)).getAttribute('data-msg');
  const before = await moves(page);
  await page.locator(`.pp-stage .pp-dot[data-msg="${id}"]`).click();
  assert.equal(await moves(page), before + 1, `delivering ${from}→${to} ${text} is one move`);
  const held = await page.locator(`.pp-stage .pp-dot-held[data-msg="${id}"]`).count();
  assert.equal(await page.locator(`.pp-wire-list li[data-msg="${id}"]`).count(), held, `m${id} left the wire`);
  return id;
}

/** Drops a message with its Drop button in the wire list. */
export async function drop(page, from, to, text) {
  const row = await wireRow(page, from, to, text);
  const id = await row.getAttribute('data-msg');
  await row.locator('button[data-action="drop"]').click();
  assert.equal(await page.locator(`.pp-wire-list li[data-msg="${id}"]`).count(), 0, `m${id} is gone`);
}

/** Clicks the control whose label starts with `label` (`Crash N1`, `Request: C1 N2`): one move. */
export async function control(page, label) {
  const buttons = page.locator('.pp-controls button');
  for (const button of await buttons.all()) {
    if ((await button.textContent()).startsWith(label)) {
      const before = await moves(page);
      await button.click();
      assert.equal(await moves(page), before + 1, `${label} is one move`);
      return;
    }
  }
  throw new Error(`no control "${label}"; offered: ${(await buttons.allTextContents()).join(' | ')}`);
}

/** Answers the open prompt with the choice `key`, and waits for the verdict, `right` or
 *  `wrong`. The pointer leaves the stage first: a dot left under it names its message in the
 *  focus line, and a name that wraps moves the choices while the click waits for them to
 *  hold still. */
export async function answer(page, key, verdict) {
  await page.mouse.move(0, 0);
  await page.locator(`.pp-choice[data-key="${key}"]`).click();
  await page.locator(`.pp-outcome-${verdict}`).waitFor();
}

/** The slot boxes under one node, as their titles read (`slot 2: chosen b=2 (C2#1) at 1.N1`). */
export function slotTitles(page, node) {
  return page.locator('.pp-stage').evaluate((svg, name) => {
    // Each node's slot boxes follow its own group in the markup, up to the next node's group.
    const titles = [];
    let current = null;
    for (const child of svg.children) {
      if (child.matches('g.pp-node:not(.pp-client)')) current = child.dataset.node;
      else if (child.matches('g.pp-dot')) current = null;
      else if (child.matches('g.pp-slot') && current === name) titles.push(child.querySelector('title').textContent);
    }
    return titles;
  }, node);
}
