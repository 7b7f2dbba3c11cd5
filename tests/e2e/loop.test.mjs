// The agent loop in real Chromium with the real extension: `act` with
// `snapshot` waits until the page settles (a request it started, a
// navigation, a quiet DOM; bounded) and answers with what changed;
// `wait_for` waits, bounded, for what settling cannot see.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withExtension, refOf } from '../harness.mjs';

const ctx = withExtension();

async function open(path) {
  const page = await ctx.b.ctx.newPage();
  await page.goto(ctx.server.url(path), { waitUntil: 'load' });
  return { page, tabId: await ctx.b.tabId(page) };
}

async function snap(tabId, options = { full: true }) {
  const res = await ctx.b.call({ cmd: 'snapshot', tabId, options });
  assert.equal(res.ok, true, JSON.stringify(res.error));
  return res;
}

const act = (tabId, ref, action, extra = {}) => ctx.b.call({ cmd: 'act', tabId, ref, action, ...extra });
const waitFor = (tabId, want) => ctx.b.call({ cmd: 'wait_for', tabId, ...want });

test('act with snapshot: waits for the request a click started, then answers with what changed', async () => {
  const { page, tabId } = await open('/loop.html');
  const { text } = await snap(tabId);
  const res = await act(tabId, refOf(text, 'button "Save"'), 'click', { snapshot: { diff: true, full: true } });
  assert.equal(res.ok, true, JSON.stringify(res));
  assert.equal(res.settled.quiet, true);
  assert.ok(res.settled.ms >= 400, `waited for the 400 ms request (${res.settled.ms} ms)`);
  assert.equal(res.diff.full, false, JSON.stringify(res.diff));
  // A line of words is matched by its words: new words are a line removed and one added.
  assert.match(res.text, /^\+1 -1 ~1 in main\n/);
  assert.match(res.text, /^- {2}Not saved\n\+ {2}Saved$/m);
  assert.ok(!res.text.includes('Remove Apple'), 'unchanged lines stay out');

  const removed = await act(tabId, refOf(text, 'button "Remove Bread"'), 'click', { snapshot: { diff: true, full: true } });
  assert.equal(removed.diff.full, false);
  // The item's line takes its button along.
  assert.match(removed.text, /^- {2}- Bread \(with 1 line below\)$/m);
  assert.ok(removed.settled.ms < 3000, `a click with no request settles well before the deadline (${removed.settled.ms} ms)`);
  await page.close();
});

test('act with snapshot across a navigation: the new page in full, saying so', async () => {
  const { page, tabId } = await open('/loop.html');
  const { text } = await snap(tabId);
  const res = await act(tabId, refOf(text, '[Next page]'), 'click', { snapshot: { diff: true } });
  assert.equal(res.ok, true, JSON.stringify(res));
  assert.equal(res.settled.navigated, true);
  assert.equal(res.diff.full, true);
  assert.equal(res.diff.reason, 'the tab shows a new document');
  assert.match(res.text, /^page "Loop, page 2" /);
  assert.match(res.text, /Arrived\./);
  await page.close();
});

test('act with snapshot on a page that never stops changing: bounded, and says so', async () => {
  const { page, tabId } = await open('/loop.html');
  await page.bringToFront(); // a background tab runs its timers once a second
  const { text } = await snap(tabId);
  const t0 = Date.now();
  const res = await act(tabId, refOf(text, 'button "Start the clock"'), 'click', { snapshot: { diff: true, full: true } });
  assert.equal(res.ok, true, JSON.stringify(res));
  assert.equal(res.settled.quiet, false);
  assert.ok(Date.now() - t0 < 12000, `answered after ${Date.now() - t0} ms`);
  assert.equal(res.diff.full, false, JSON.stringify(res.diff));
  assert.match(res.text, /^\+1 -1 ~1 /);
  await page.close();
});

test('act without snapshot answers at once, as before; a bad snapshot option is refused before acting', async () => {
  const { page, tabId } = await open('/loop.html');
  const { text } = await snap(tabId);
  const res = await act(tabId, refOf(text, 'button "Save"'), 'click');
  assert.deepEqual(Object.keys(res).sort(), ['action', 'ok', 'ref']);
  const bad = await act(tabId, refOf(text, 'button "Remove Apple"'), 'click', { snapshot: { dif: true } });
  assert.equal(bad.error.code, 'bad_options');
  assert.equal(await page.locator('li', { hasText: 'Apple' }).count(), 1, 'nothing was done');
  await page.close();
});

test('wait_for: text that comes later, text that goes, an element that goes, a URL; bounded with timeout', async () => {
  const { page, tabId } = await open('/loop.html');
  const { text } = await snap(tabId);
  await act(tabId, refOf(text, 'button "Later"'), 'click');
  const later = await waitFor(tabId, { text: 'Arrived late', timeout: 5000 });
  assert.equal(later.ok, true, JSON.stringify(later));
  assert.ok(later.waitedMs > 500, `${later.waitedMs} ms`);
  assert.equal((await waitFor(tabId, { textGone: 'Not saved' })).ok, true);

  const offer = refOf(text, "[Today's offer]");
  await act(tabId, refOf(text, 'button "Hide the offer"'), 'click');
  const gone = await waitFor(tabId, { refGone: offer, timeout: 5000 });
  assert.equal(gone.ok, true, JSON.stringify(gone));
  assert.ok(gone.waitedMs > 300, `${gone.waitedMs} ms`);

  const t0 = Date.now();
  const never = await waitFor(tabId, { text: 'never on this page', timeout: 600 });
  assert.equal(never.error.code, 'timeout');
  assert.match(never.error.message, /after 0\.6 s the text "never on this page" has not appeared/);
  assert.ok(Date.now() - t0 < 3000);
  assert.equal((await waitFor(tabId, {})).error.code, 'bad_request');
  assert.equal((await waitFor(tabId, { refGone: 'A9999' })).error.code, 'unknown_ref');

  await act(tabId, refOf(text, '[Next page]'), 'click');
  const moved = await waitFor(tabId, { url: 'loop2.html', timeout: 5000 });
  assert.equal(moved.ok, true, JSON.stringify(moved));
  assert.equal((await waitFor(tabId, { refGone: refOf(text, 'button "Save"') })).ok, true, 'a ref of the old page is gone');
  await page.close();
});

test('wait_for reads the page without moving the caller\'s refs or the snapshot its next diff compares with', async () => {
  const { page, tabId } = await open('/loop.html');
  const { text } = await snap(tabId);
  assert.equal((await waitFor(tabId, { text: 'Groceries' })).ok, true);
  const again = await snap(tabId, { diff: true, full: true });
  assert.equal(again.text, 'no change since the previous snapshot\n');
  const res = await act(tabId, refOf(text, 'button "Remove Cheese"'), 'click', { snapshot: { diff: true, full: true } });
  assert.equal(res.ok, true, 'the refs of the caller\'s snapshot still act');
  await page.close();
});
