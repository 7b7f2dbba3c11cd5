// @axsnap/cdp (packages/cdp): the extension's pipeline over a Playwright
// or Puppeteer CDPSession. The same page gives the same text from the extension (over
// chrome.debugger) and from the package, in every mode; a Chromium in
// another process is driven over connectOverCDP; several browsers at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { launch, refOf, spawnChromium, ROOT } from '../harness.mjs';
import { serve } from '../server.mjs';
import { corpusDir } from '../../scripts/fidelity.mjs';
import { FLOWS, replayFlow } from '../flows.mjs';
import { attach } from '../../packages/cdp/src/index.js';

/**
 * Corpus pages of five kinds (a form, an issue, a table, a forum, a shop: `npm run bench -- --node` reads the
 * large ones), and a fixture with secrets, same-site and cross-site frames.
 */
const PAGES = ['form-github-login', 'github-issue-56', 'table-steel-datasheet', 'forum-reddit-thread', 'shop-songkick-tickets'];
const MODES = {
  full: { full: true },
  interactive: { mode: 'interactive', full: true },
  capped: { maxChars: 3000 },
  json: { format: 'json', full: true },
};

const corpus = corpusDir();
let b, server;

before(async () => {
  server = await serve({ '/': join(ROOT, 'tests/fixtures'), ...(corpus ? { '/corpus/': join(corpus, 'pages') } : {}) });
  // Corpus pages name hosts that never answer here (images, scripts): failed at once, their load event
  // comes when the page's own files are in, not after the network gives up (seconds on a page).
  b = await launch({ args: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost'] });
});

after(async () => {
  await b?.close();
  await server?.close();
});

/** The snapshot as both sides print it: text, and what the page is. */
const said = (s) => ({ text: s.text, page: s.page, refs: s.refs });

test('the package prints what the extension prints, on corpus pages and a page with frames, in every mode', async () => {
  const urls = [server.url('/form.html'), ...(corpus ? PAGES.map((p) => server.url(`/corpus/${p}.html`)) : [])];
  for (const url of urls) {
    const page = await b.ctx.newPage();
    await page.goto(url, { waitUntil: 'load' });
    const tabId = await b.tabId(page);
    const ax = await attach(page);
    for (const [mode, options] of Object.entries(MODES)) {
      const ext = await b.call({ cmd: 'snapshot', tabId, options });
      assert.equal(ext.ok, true, JSON.stringify(ext.error));
      const pkg = await ax.snapshot(options);
      assert.deepEqual(said(pkg), said(ext), `${url} (${mode}): the package and the extension differ`);
    }
    await ax.detach();
    await page.close();
  }
});

test('actions through the package: the same checks and error codes, secrets never printed, refs into a cross-site frame', async () => {
  const page = await b.ctx.newPage();
  await page.goto(server.url('/form.html'), { waitUntil: 'load' });
  const ax = await attach(page);
  const first = await ax.snapshot();
  await ax.act(refOf(first.text, 'Password'), 'fill', 'hunter2-secret');
  const cross = await ax.act(refOf(first.text, 'Cross button'), 'click', undefined, { snapshot: {} });
  assert.match(cross.text, /button A\d+ "Cross clicked"/, 'the click reached the cross-site frame and the page settled');
  assert.match(cross.text, /textbox A\d+ "Password" secret=current-password filled/);
  assert.ok(!JSON.stringify(cross).includes('hunter2'), 'the typed secret is never in an answer');
  const resolved = await ax.resolve(refOf(first.text, 'Full name'));
  assert.equal(resolved.role, 'textbox');
  await assert.rejects(ax.act('A999', 'click'), { code: 'unknown_ref' });
  await assert.rejects(ax.request({ cmd: 'navigate', url: server.url('/demo.html') }), { code: 'bad_request' }, 'tabs and navigation are the program\'s own');
  await assert.rejects(ax.act(refOf(first.text, 'Full name'), 'check'), (e) => typeof e.code === 'string' && e.code !== 'internal');
  await page.goto(server.url('/demo.html'), { waitUntil: 'load' });
  await assert.rejects(ax.act(refOf(first.text, 'Full name'), 'click'), { code: 'stale_ref' });
  const waited = await ax.waitFor({ text: 'Coffee grinders', timeout: 5000 });
  assert.ok(waited.waitedMs >= 0);
  const shop = refOf((await ax.snapshot()).text, 'Shop');
  await ax.reset();
  await assert.rejects(ax.resolve(shop), (e) => e.code !== 'internal', 'after reset the refs held are gone');
  await ax.detach();
  await assert.rejects(ax.snapshot(), { code: 'detached' });
  await page.close();
});

test('Chromiums in other processes, over Playwright\'s connectOverCDP and Puppeteer\'s connect, pages of both at once', async () => {
  const remotes = await Promise.all([spawnChromium(), spawnChromium()]);
  let pw, pp;
  try {
    const expected = await (async () => {
      const page = await b.ctx.newPage();
      await page.goto(server.url('/form.html'), { waitUntil: 'load' });
      const ax = await attach(page);
      const s = await ax.snapshot({ full: true });
      await ax.detach();
      await page.close();
      return s.text;
    })();
    pw = await chromium.connectOverCDP(remotes[0].endpoint);
    pp = await puppeteer.connect({ browserURL: remotes[1].endpoint });
    const ctx = pw.contexts()[0] ?? await pw.newContext();
    // Three pages, in two browsers, snapshotted and acted on at once. Puppeteer's gets one: it leaves a page
    // opened behind another hidden, and Chromium delivers no mouse event to a hidden page (README: Fleets).
    const pages = await Promise.all([ctx.newPage(), ctx.newPage(), pp.newPage()]);
    await Promise.all(pages.map((page) => page.goto(server.url('/form.html'), { waitUntil: 'load' })));
    const results = await Promise.all(pages.map(async (page) => {
      const ax = await attach(page);
      const s = await ax.snapshot({ full: true });
      const after = await ax.act(refOf(s.text, 'Count clicks'), 'click', undefined, { snapshot: { full: true } });
      const cross = await ax.act(refOf(s.text, 'Cross button'), 'click', undefined, { snapshot: { full: true } });
      await ax.detach();
      return { s, after, cross };
    }));
    for (const { s, after, cross } of results) {
      assert.equal(s.text, expected, 'every browser\'s page reads as the local one');
      assert.match(after.text, /button A\d+ "Clicked 1"/, 'each page was clicked once');
      assert.match(cross.text, /button A\d+ "Cross clicked"/, 'and its cross-site frame too');
    }
  } finally {
    await pw?.close().catch(() => {});
    await pp?.disconnect().catch(() => {});
    await Promise.all(remotes.map((r) => r.close()));
  }
});

test('flows through the package: each act settles and answers a diff that hides no change', async () => {
  for (const flow of FLOWS.filter((f) => f.name === 'modal-menu')) {
    const page = await b.ctx.newPage();
    await page.goto(server.url(flow.page), { waitUntil: 'load' });
    await page.bringToFront();
    const ax = await attach(page);
    const { diffs, closings } = await replayFlow(flow.steps, {
      snapshot: (options) => ax.snapshot(options),
      act: ({ action, ref, value, ...more }) => ax.act(ref, action, value, more),
    }, refOf);
    assert.ok(diffs >= 1, `${flow.name}: some steps answer with a diff`);
    if (flow.name === 'modal-menu') assert.ok(closings >= 1, 'the step that closes the dialog answers with a diff');
    await ax.detach();
    await page.close();
  }
});
