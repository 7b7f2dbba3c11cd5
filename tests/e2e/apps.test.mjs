// Real web apps, end to end: fixture apps built from component libraries
// (tests/apps, bundled by esbuild at test time) and a hand-written "div
// soup", with JavaScript on. Every element an app's author marks
// interactive must be reachable by ref, with few refs beyond them, and
// each app's task is done through the extension alone: refs found by name
// in the snapshot text, actions by ref.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, refOf } from '../harness.mjs';
import { serveApps, appNames } from '../apps/build.mjs';
import { coverage } from '../apps/coverage.mjs';

let b, server, page, tabId;

before(async () => {
  server = await serveApps();
  b = await launch();
  page = await b.ctx.newPage();
});

after(async () => {
  await b?.close();
  await server?.close();
});

async function open(app) {
  await page.goto(server.app(app), { waitUntil: 'load' });
  await page.waitForFunction(() => document.body.innerText.trim().length > 0);
  tabId = await b.tabId(page);
}

const snap = async (options = { full: true }) => {
  const res = await b.call({ cmd: 'snapshot', tabId, options });
  assert.equal(res.ok, true, JSON.stringify(res.error));
  return res;
};
const act = async (ref, action, value) => {
  const res = await b.call({ cmd: 'act', tabId, ref, action, value });
  assert.equal(res.ok, true, `${action} ${ref}: ${JSON.stringify(res.error)}`);
  return res;
};
/** The first ref at or after the line holding `needle` (a field printed below its label). */
function refFrom(text, needle) {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.includes(needle));
  assert.ok(at >= 0, `no line with ${needle} in:\n${text}`);
  for (const l of lines.slice(at)) {
    const m = l.match(/ (A\d+)\b/);
    if (m) return m[1];
  }
  throw new Error(`no ref after ${needle}`);
}
const refsIn = (text) => [...new Set(text.match(/\bA\d+\b/g) || [])];

/** Refs of the snapshot against the marked elements now shown. */
async function check(app) {
  const { text, stats } = await snap();
  const nodes = [];
  for (const ref of refsIn(text)) {
    const r = await b.call({ cmd: 'resolve', tabId, ref });
    assert.equal(r.ok, true, JSON.stringify(r));
    nodes.push(r.backendNodeId);
  }
  const c = await coverage(page, nodes);
  assert.deepEqual(c.missing, [], `${app}: marked elements without a ref\n${text}`);
  assert.ok(c.marked.length > 0, `${app}: nothing marked shown`);
  assert.ok(c.extra <= Math.floor(c.refs * 0.05), `${app}: ${c.extra} of ${c.refs} refs are outside every marked element\n${text}`);
  return { text, stats, c };
}

for (const app of appNames()) {
  test(`${app}: every marked interactive element has a ref, at most 5% extra`, async () => {
    await open(app);
    await check(app);
  });
}

test('divsoup: move a card, sort by a menu of divs, type a title and save it', async () => {
  await open('divsoup');
  let { text } = await snap();
  assert.match(text, /clickable A\d+ \+ ?New card/);
  await act(refOf(text, '→ Doing'), 'click');
  assert.equal(await page.textContent('#status'), 'Moved Write report to Doing');
  ({ text } = await snap());
  await act(refOf(text, 'Sort'), 'click');
  ({ text } = await check('divsoup'));
  await act(refOf(text, 'By name'), 'click');
  assert.equal(await page.textContent('#status'), 'Sorted by name');
  ({ text } = await snap());
  await act(refOf(text, 'New card'), 'click');
  await act(refFrom(text, 'New card title:'), 'type', 'Plan trip');
  ({ text } = await snap());
  await act(refOf(text, 'Save card'), 'click');
  assert.equal(await page.textContent('#status'), 'Saved Plan trip');
});
