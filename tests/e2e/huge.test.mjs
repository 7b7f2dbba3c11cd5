// A page of 100,000 links (200,000 elements; 600,000 accessibility nodes):
// read whole it took Chrome minutes and froze the page. The snapshot reads
// a window of it in bounded time, holds a bounded number of nodes in the
// worker, which answers other requests meanwhile, and says what it left
// out; its refs act on the right links, also after the window moved, and
// another tab's snapshot still works. AXSNAP_HUGE_LINKS=300000 runs it on a
// larger page (README: Limits).
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { withExtension, refOf } from '../harness.mjs';

const LINKS = Number(process.env.AXSNAP_HUGE_LINKS || 100000);
/** Generous for a busy machine: read whole, the page took minutes. */
const BOUND_MS = 60000;
const ctx = withExtension();
let b, page, tabId;

/** The page, opened once for the whole file (after the browser is up). */
let opening;
beforeEach(() => (opening ??= (async () => {
  b = ctx.b;
  page = await b.ctx.newPage();
  await page.goto(ctx.server.url(`/huge.html?n=${LINKS}`), { waitUntil: 'load', timeout: 120000 });
  // The first layout of the page is the page's own work, not the snapshot's.
  await page.evaluate(() => document.body.getBoundingClientRect().height);
  tabId = await b.tabId(page);
})()));

/** A snapshot, timed, with the worker's answers to pings meanwhile (and `alongside`, if given). */
async function timedSnapshot(t, options, alongside = async () => {}) {
  let done = false;
  const pings = (async () => {
    const worst = [];
    while (!done) {
      const t = Date.now();
      const res = await b.call({ cmd: 'ping' });
      assert.equal(res.ok, true);
      worst.push(Date.now() - t);
      await new Promise((r) => setTimeout(r, 200));
    }
    return Math.max(...worst);
  })();
  const started = Date.now();
  const [res] = await Promise.all([b.call({ cmd: 'snapshot', tabId, options }), alongside()]);
  const ms = Date.now() - started;
  done = true;
  assert.equal(res.ok, true, JSON.stringify(res.error));
  const slowestPing = await pings;
  assert.ok(ms < BOUND_MS, `the snapshot took ${ms} ms`);
  assert.ok(slowestPing < 3000, `a ping waited ${slowestPing} ms while the snapshot ran`);
  t.diagnostic(`${ms} ms (${JSON.stringify(res.stats.timings)}), ${res.stats.nodesIn} nodes, slowest ping ${slowestPing} ms`);
  return res;
}

/**
 * A request besides the snapshots under test. On a busy machine a quick
 * question to this page can pass its 5 s deadline (a typed `timeout`): the
 * next try must then succeed.
 */
async function call(msg) {
  const res = await b.call(msg);
  if (res.ok || !['timeout', 'page_busy'].includes(res.error.code)) return res;
  return b.call(msg);
}

const clicked = () => page.evaluate(() => window['clicked'].splice(0));
const linkNumbers = (text) => [...text.matchAll(/\[Link (\d+)\]/g)].map((m) => Number(m[1]));

/** The links on screen, by name. */
const linksInView = () => page.evaluate(() => [...document.querySelectorAll('#links a')]
  .filter((a) => { const r = a.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; })
  .map((a) => a.textContent));

/** Those of `names` the text gives no ref (`A7 [Link 7]` in interactive mode, `A7 [Link 7](/item/7)` in full). */
const withoutRef = (text, names) => names.filter((n) => !new RegExp(`A\\d+ \\[${n}\\]`).test(text));

let first;

test('a window of the page, in bounded time and memory, saying what it left out', async (t) => {
  const res = await timedSnapshot(t);
  first = res.text;
  const { stats } = res;
  assert.ok(stats.nodesIn < 20000, `${stats.nodesIn} nodes in the worker`);
  assert.equal(stats.framesPartial.length, 1, JSON.stringify(stats));
  const w = stats.framesPartial[0];
  assert.ok(w.elements > 2 * LINKS, JSON.stringify(w));
  assert.ok(w.read > 500 && w.read <= 4000, JSON.stringify(w));
  assert.equal(w.above, 0, 'the page is at its top: nothing above the window');
  assert.ok(w.below > 2 * LINKS - 4000, JSON.stringify(w));
  assert.ok(first.length <= 12000, `${first.length} chars`);
  const head = first.split('\n').find((l) => l.includes('a very large frame')) ?? first.slice(0, 300);
  assert.match(head.trim(), new RegExp(`^… a very large frame \\(${w.elements.toLocaleString('en-US')} elements\\): this snapshot read ${w.read.toLocaleString('en-US')} of them, from the first in view; 0 above and ${w.below.toLocaleString('en-US')} below were not read`));
  assert.match(first, /^# Every link$/m);
  assert.ok(first.includes('[Link 0](/item/0)'), first.slice(0, 400));
  // Every link on screen has a ref, though the list is shortened.
  assert.deepEqual(withoutRef(first, await linksInView()), [], first.slice(0, 1500));
  // Nothing from below the window is printed out of place: not the frame far below, not the last button.
  assert.ok(!first.includes('Far below') && !first.includes('Inner button') && !first.includes('"Last"'), first.slice(-600));
});

test('interactive mode: the window read as one paragraph of links is broken, so the cap keeps every link in view', async (t) => {
  const res = await timedSnapshot(t, { mode: 'interactive' });
  const inView = await linksInView();
  assert.ok(inView.length > 20, `${inView}`);
  assert.deepEqual(withoutRef(res.text, inView), [], res.text.slice(0, 600));
  assert.ok(res.text.length <= 12000, `${res.text.length} chars`);
});

test('refs of the window act on their own links', async () => {
  for (const n of [0, 7, 20]) {
    const res = await call({ cmd: 'act', tabId, ref: refOf(first, `[Link ${n}]`), action: 'click' });
    assert.equal(res.ok, true, JSON.stringify(res.error));
    assert.deepEqual(await clicked(), [`Link ${n}`]);
  }
});

test('scrolled far down, the next snapshot reads from there while another tab snapshots as usual; earlier refs still act on their links', async (t) => {
  const res = await call({ cmd: 'act', tabId, action: 'scroll', value: 100000 });
  assert.equal(res.ok, true, `scroll: ${JSON.stringify(res.error)}`);
  const other = await b.ctx.newPage();
  await other.goto(ctx.server.url('/demo.html'), { waitUntil: 'load' });
  const otherTab = await b.tabId(other);
  const small = [];
  const { text, stats } = await timedSnapshot(t, undefined, async () => {
    small.push(await b.call({ cmd: 'snapshot', tabId: otherTab }));
  });
  small.push(await b.call({ cmd: 'snapshot', tabId: otherTab }));
  await other.close();
  for (const s of small) {
    assert.equal(s.ok, true, `the other tab: ${JSON.stringify(s.error)}`);
    assert.match(s.text, /button A\d+ "Sign in"/);
    assert.deepEqual(s.stats.framesPartial, []);
  }
  const w = stats.framesPartial[0];
  const shown = linkNumbers(text);
  assert.deepEqual(withoutRef(text, await linksInView()), [], text.slice(0, 1500));
  // 100,000 px at 20 px a line: about link 5,000.
  assert.ok(shown[0] > 4000 && shown[0] < 6000, `the window starts at link ${shown[0]}`);
  assert.ok(w.above > 8000, JSON.stringify(w));
  assert.match(text, /from the first in view; [\d,]+ above and [\d,]+ below were not read/);
  const old = await call({ cmd: 'act', tabId, ref: refOf(first, '[Link 7]'), action: 'click' });
  assert.equal(old.ok, true, JSON.stringify(old.error));
  assert.deepEqual(await clicked(), ['Link 7']);
  const fresh = await call({ cmd: 'act', tabId, ref: refOf(text, `[Link ${shown[3]}]`), action: 'click' });
  assert.equal(fresh.ok, true, JSON.stringify(fresh.error));
  assert.deepEqual(await clicked(), [`Link ${shown[3]}`]);
});

test('a subtree by ref is read from that element', async (t) => {
  const res = await timedSnapshot(t, { root: refOf(first, '[Link 20]') });
  assert.match(res.text, /from the element asked for; [\d,]+ above and [\d,]+ below were not read/, res.text.slice(0, 600));
  assert.match(res.text, /elements below were not read: scroll down/);
  assert.ok(res.stats.framesPartial[0].above > 0, JSON.stringify(res.stats.framesPartial));
  const shown = linkNumbers(res.text);
  assert.ok(shown.includes(20) && shown[0] <= 20, `${shown.slice(0, 5)}`);
});
