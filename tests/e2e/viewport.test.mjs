// What is on screen: a capped snapshot of a long page scrolled to its middle
// keeps the rows in and near the viewport and says what lies above and below
// it; the viewport option marks where a full snapshot leaves and enters the
// view; a page at its top keeps its first lines, as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withExtension, refOf } from '../harness.mjs';

const ctx = withExtension();

async function open() {
  const page = await ctx.b.ctx.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${ctx.server.url('/long.html')}?t=${Date.now()}`, { waitUntil: 'load' });
  return { page, tabId: await ctx.b.tabId(page) };
}
const rowsInView = (page) => page.evaluate(() => [...document.querySelectorAll('#rows a')]
  .filter((a) => { const r = a.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; }).map((a) => a.textContent));
const snap = async (tabId, options) => {
  const res = await ctx.b.call({ cmd: 'snapshot', tabId, options });
  assert.equal(res.ok, true, JSON.stringify(res.error));
  return res.text;
};

test('a capped snapshot keeps what is in view and says what lies above and below it', async () => {
  const { page, tabId } = await open();
  await page.evaluate(() => [...document.querySelectorAll('a')].find((a) => a.textContent === 'Row 750').scrollIntoView({ block: 'start' }));
  const inView = await rowsInView(page);
  const text = await snap(tabId, { maxChars: 4000 });
  assert.ok(text.length <= 4000);
  for (const row of inView) assert.ok(text.includes(`[${row}]`), `${row} is in view:\n${text}`);
  assert.match(text, /… \d+ more like these above the view \(\d+ refs\) not shown/);
  assert.match(text, /… cut at 4000 chars: \d+ more lines with \d+ refs below the fold, \d+ of them links\./);
  assert.ok(!text.includes('[Row 0]'), 'the first rows are far above the view');
  await page.close();
});

test('the viewport option marks where a full snapshot leaves and enters the view', async () => {
  const { page, tabId } = await open();
  const top = await snap(tabId, { full: true, viewport: true });
  assert.doesNotMatch(top.split('(below the fold)')[0], /above the view/);
  const firstBelow = top.split('\n').findIndex((l) => l.trim() === '(below the fold)');
  const last = (await rowsInView(page)).at(-1);
  assert.ok(top.split('\n')[firstBelow - 1].includes(`[${last}]`), `the fold comes after ${last}:\n${top.slice(0, 2000)}`);
  await page.evaluate(() => window.scrollTo(0, 30000));
  const mid = await snap(tabId, { full: true, viewport: true });
  const marks = mid.match(/^ *\((above the view|in view|below the fold)\)$/gm).map((m) => m.trim());
  assert.deepEqual(marks.slice(0, 3), ['(above the view)', '(in view)', '(below the fold)']);
  const lines = mid.split('\n').map((l) => l.trim());
  const shown = lines.slice(lines.indexOf('(in view)'), lines.indexOf('(below the fold)')).join('\n');
  for (const row of await rowsInView(page)) assert.ok(shown.includes(`[${row}]`), `${row} is in view:\n${shown}`);
  assert.doesNotMatch(shown, /\[Row (0|1499)\]/);
  await page.close();
});

test('a page at its top keeps its first lines under the cap', async () => {
  const { page, tabId } = await open();
  const text = await snap(tabId, { maxChars: 2000 });
  assert.match(text, /# Orders/);
  assert.match(text, /\[Row 0\]/);
  assert.doesNotMatch(text, /above the view/);
  await page.close();
});

test('hidden but present UI: what a sighted user cannot see or reach is not offered', async () => {
  const page = await ctx.b.ctx.newPage();
  await page.goto(`${ctx.server.url('/hidden.html')}?t=${Date.now()}`, { waitUntil: 'load' });
  const tabId = await ctx.b.tabId(page);
  let text = await snap(tabId, { full: true });
  assert.match(text, /button A\d+ "Actions" collapsed/, 'the closed menu is said by its button');
  assert.doesNotMatch(text, /Delete everything/, 'a hidden menu is not shown');
  assert.match(text, /summary A\d+ "Advanced" collapsed/);
  assert.doesNotMatch(text, /Proxy/, 'a closed panel\'s content is not shown');
  assert.doesNotMatch(text, /Change plan|Decor|Ghost/, 'inert, aria-hidden and invisible parts are not offered');
  assert.match(text, /button A\d+ "Behind"/);
  await page.evaluate(() => document.getElementById('dlg').showModal());
  text = await snap(tabId, { full: true });
  assert.match(text, /dialog A\d+[^\n]*modal|dialog[^\n]*\n *## Confirm/);
  assert.match(text, /button A\d+ "OK"/);
  assert.doesNotMatch(text, /Behind|# Settings/, 'the page behind an open modal is out of reach');
  await page.close();
});

test('a virtual list without counts says so by its scroll height; scrolling by ref brings the next items, seen ones keep their refs', async () => {
  const page = await ctx.b.ctx.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${ctx.server.url('/virtual_plain.html')}?t=${Date.now()}`, { waitUntil: 'load' });
  const tabId = await ctx.b.tabId(page);
  let text = await snap(tabId, { full: true });
  assert.match(text, /\n *items 1–\d+ of about 10,000; scroll for more\n/, text);
  const tenth = refOf(text, '"Open message 10"');
  const act = async (ref, action, value) => {
    const res = await ctx.b.call({ cmd: 'act', tabId, ref, action, value });
    assert.equal(res.ok, true, `${action} ${ref}: ${JSON.stringify(res.error)}`);
  };
  await act(tenth, 'scroll', 150);
  await page.waitForTimeout(100);
  text = await snap(tabId, { full: true });
  assert.equal(refOf(text, '"Open message 10"'), tenth, 'a message still in the DOM keeps its ref');
  // Down to message 200, a screen at a time, and open it.
  for (let i = 0; i < 30 && !text.includes('"Open message 200"'); i++) {
    const refs = [...text.matchAll(/button (A\d+) "Open message \d+"/g)];
    await act(refs.at(-1)[1], 'scroll', 390);
    await page.waitForTimeout(50);
    text = await snap(tabId, { full: true });
  }
  const far = text.match(/items ([\d,]+)–([\d,]+) of about 10,000; scroll up or down for more/);
  assert.ok(far, `far down, there is more above and below:\n${text}`);
  const [from, to] = far.slice(1).map((n) => Number(n.replace(',', '')));
  assert.ok(from <= 200 && 200 <= to, `the items said to be shown hold message 200: ${far[0]}`);
  await act(refOf(text, '"Open message 200"'), 'click');
  assert.equal(await page.textContent('#status'), 'Opened message 200');
  await page.close();
});
