// Clicks land where the ref says on a page taller than 100 screens: the
// first, middle and last rows, one after another (small and large scrolls),
// inside a scrolled container, in a same-site and a cross-site iframe that
// are themselves far down, and at page zooms other than 100%. A row an ad
// covers is refused, far down the page too, and the ad is not clicked.
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { withExtension, refOf } from '../harness.mjs';

const ctx = withExtension();
let b, page, tabId, text;

/** The long page, opened and read once for the whole file (after the browser is up). */
let opening;
const ready = () => (opening ??= (async () => {
  b = ctx.b;
  page = await b.ctx.newPage();
  await page.goto(ctx.server.url('/long.html'), { waitUntil: 'load' });
  tabId = await b.tabId(page);
  // Zoom this tab only (Chrome zooms per site by default).
  await b.panel.evaluate((t) => chrome.tabs.setZoomSettings(t, { scope: 'per-tab' }), tabId);
  const res = await b.call({ cmd: 'snapshot', tabId, options: { full: true } });
  assert.equal(res.ok, true, JSON.stringify(res.error));
  text = res.text;
})());
beforeEach(() => ready());

const frameOf = (needle) => page.frames().find((f) => f.url().includes(needle));

/** Clicks each name's ref and checks that exactly that element saw the click, in `frame`. */
async function clicks(names, frame = page.mainFrame()) {
  for (const name of names) {
    await frame.evaluate(() => { window['clicked'] = []; });
    // Links print as [name], buttons as "name".
    const needle = name.startsWith('Item') ? `"${name}"` : `[${name}]`;
    const res = await b.call({ cmd: 'act', tabId, ref: refOf(text, needle), action: 'click' });
    assert.equal(res.ok, true, `${name}: ${JSON.stringify(res.error)}`);
    assert.deepEqual(await frame.evaluate(() => window['clicked']), [name], name);
  }
}

const rows = ['Row 0', 'Row 1', 'Row 20', 'Row 750', 'Row 751', 'Row 745', 'Row 1499', 'Row 1498', 'Row 0'];

test('the page is taller than 100 screens', async () => {
  const [height, screen] = await page.evaluate(() => [document.documentElement.scrollHeight, innerHeight]);
  assert.ok(height > 100 * screen, `${height} px high, ${screen} px screen`);
});

test('first, middle and last rows, one after another', async () => {
  await clicks(rows);
});

test('after scrolling a little, a row in view (the hit test must add the scroll offset)', async () => {
  await clicks(['Row 0']);
  for (const dy of [90, 200]) {
    const res = await b.call({ cmd: 'act', tabId, action: 'scroll', value: dy });
    assert.equal(res.ok, true, JSON.stringify(res));
    await page.waitForFunction((y) => scrollY >= y, dy);
    await clicks(['Row 8']);
  }
});

test('a row covered by an ad is refused far down the page, and the ad is not clicked', async () => {
  await page.evaluate(() => { window['clicked'] = []; });
  const res = await b.call({ cmd: 'act', tabId, ref: refOf(text, '[Row 1300]'), action: 'click' });
  assert.equal(res.ok, false, 'the click must be refused');
  assert.equal(res.error.code, 'obscured', JSON.stringify(res.error));
  assert.deepEqual(await page.evaluate(() => window['clicked']), []);
  await clicks(['Row 1301', 'Row 1299']);
});

test('items of a scrolled container', async () => {
  await clicks(['Item 0', 'Item 500', 'Item 999', 'Item 1']);
});

test('rows of a same-site and a cross-site iframe far down the page', async () => {
  await clicks(['Inner 0', 'Inner 500', 'Inner 999', 'Inner 3'], frameOf('label=Inner'));
  await clicks(['Cross 0', 'Cross 500', 'Cross 999', 'Cross 3'], frameOf('label=Cross'));
});

for (const zoom of [1.5, 0.5]) {
  test(`at ${zoom * 100}% page zoom`, async () => {
    await b.panel.evaluate(([t, z]) => chrome.tabs.setZoom(t, z), [tabId, zoom]);
    try {
      await page.waitForFunction((z) => Math.abs(devicePixelRatio - z) < 0.01, zoom);
      await clicks(rows);
      await clicks(['Item 0', 'Item 999']);
      await clicks(['Inner 999', 'Inner 0'], frameOf('label=Inner'));
      await clicks(['Cross 999', 'Cross 0'], frameOf('label=Cross'));
      const covered = await b.call({ cmd: 'act', tabId, ref: refOf(text, '[Row 1300]'), action: 'click' });
      assert.equal(covered.error?.code, 'obscured', JSON.stringify(covered));
    } finally {
      await b.panel.evaluate((t) => chrome.tabs.setZoom(t, 1), tabId);
    }
  });
}
