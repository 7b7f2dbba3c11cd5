// What a site the person allowed can and cannot do, end to end in one
// persistent browser profile: frames of other origins in its tab (unless the
// person shares the tab), another origin's frame inside it, forged
// postMessage traffic, oversize and flooding callers, "Allow once" ending
// with its tab, and "Always allow" surviving a browser restart. Sites are
// app.test, other.test and once.test, mapped to 127.0.0.1; the person's
// answers are clicks in the panel.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, refOf, webCall, extensionWithHostAccess, ROOT, EXTENSION_ID } from '../harness.mjs';
import { serve } from '../server.mjs';
import { openPanel, openSites, letConnect } from '../consent.mjs';
import { CLIENT_DIST } from '../../scripts/client.mjs';

let b;
let server;
let ext;
let profile;
const ARGS = ['--host-resolver-rules=MAP *.test 127.0.0.1'];

before(async () => {
  ext = await extensionWithHostAccess(['http://*.test/*']);
  profile = await mkdtemp(join(tmpdir(), 'axsnap-profile-'));
  server = await serve({ '/client/': CLIENT_DIST, '/': join(ROOT, 'tests/fixtures') });
  b = await launch({ extensionDir: ext.dir, profile, args: ARGS });
});

after(async () => {
  await b?.close();
  await server?.close();
  await ext?.remove();
  await rm(profile, { recursive: true, force: true });
});

const at = (host, path) => `http://${host}:${server.port}${path}`;
const via = (frame, msg, ms) => frame.evaluate(([m, t]) => window.viaBridge(m, t), [msg, ms]);
const access = (origin) => b.panel.evaluate(async (o) => (await import('/extension/worker/grants.js')).readGrant(o), origin);

/** A bridge request, asked again while the bridge is still being injected (right after the person's click). */
async function viaSoon(frame, msg) {
  let answer;
  for (let i = 0; i < 20 && (!answer || answer.timeout); i++) answer = await via(frame, msg, 1000);
  return answer;
}

/** A page on `host` whose site the person lets connect from its tab with `answer`. */
async function allowedPage(host, answer, path = '/site.html') {
  const page = await b.ctx.newPage();
  await page.goto(at(host, path));
  const panel = await openPanel(b, await b.tabId(page));
  await letConnect(panel, new URL(page.url()).origin, answer);
  await panel.close();
  const snap = await viaSoon(page, { cmd: 'snapshot' });
  assert.equal(snap.ok, true, JSON.stringify(snap));
  return page;
}

test('frames of other origins in an allowed page: out of reach until the person shares the tab; the frame cannot use the page\'s grant', async () => {
  // other.test is allowed once, in a tab of its own: its bridge is registered for the session, in every frame of other.test.
  const otherTab = await allowedPage('other.test', 'Allow once');
  const frameUrl = at('other.test', '/site.html?label=Frame button');
  const page = await allowedPage('app.test', 'Always allow', `/site.html?frame=${encodeURIComponent(frameUrl)}`);
  const origin = new URL(page.url()).origin;
  const tabId = await b.tabId(page);
  const frame = page.frames().find((f) => f.url().startsWith(at('other.test', '/')));
  await frame.waitForFunction(() => document.getElementById('press').textContent === 'Frame button');

  const own = await via(page, { cmd: 'snapshot', options: { full: true } });
  assert.match(own.text, /button A\d+ "Press me"/);
  assert.ok(!own.text.includes('Frame button'), `another origin's frame is not app.test's:\n${own.text}`);
  const panelView = await b.call({ cmd: 'snapshot', tabId, options: { full: true } });
  const refs = [];
  for (let i = 0; i < 30; i++) {
    const r = await via(page, { cmd: 'resolve', ref: `A${i}` });
    if (r.ok) refs.push(r);
  }
  assert.ok(refs.length > 0 && refs.every((r) => r.name !== 'Frame button'), JSON.stringify(refs));
  assert.ok(panelView.text.includes('Frame button'), 'the frame is there');

  // The frame's own bridge speaks for other.test, which is allowed only in its own tab: not here, whatever the page holds.
  const framed = await viaSoon(frame, { cmd: 'snapshot' });
  assert.equal(framed.error?.code, 'consent_required', JSON.stringify(framed));
  assert.equal((await via(frame, { cmd: 'act', ref: refOf(own.text, 'Press me'), action: 'click' })).error.code, 'consent_required');
  assert.equal(await page.textContent('#press'), 'Press me');

  // The person shares the page's own tab with app.test: now it sees and acts in the whole tab.
  const panel = await openPanel(b, tabId);
  await openSites(panel);
  await panel.getByRole('button', { name: `Share Site with ${origin}` }).click();
  await panel.getByRole('button', { name: `Stop sharing “Site” with ${origin}` }).waitFor();
  const whole = await via(page, { cmd: 'snapshot', options: { full: true } });
  assert.match(whole.text, /button A\d+ "Frame button"/, whole.text);
  const inFrame = refOf(whole.text, 'Frame button');
  assert.equal((await via(page, { cmd: 'act', ref: inFrame, action: 'click' })).ok, true);
  assert.equal(await frame.textContent('#press'), 'Pressed');
  await frame.evaluate(() => { document.getElementById('press').textContent = 'Frame button'; });

  // Stop sharing: the frame's refs are out of reach again, and nothing is clicked.
  await panel.getByRole('button', { name: `Stop sharing “Site” with ${origin}` }).click();
  await panel.getByRole('button', { name: `Share Site with ${origin}` }).waitFor();
  assert.equal((await via(page, { cmd: 'act', ref: inFrame, action: 'click' })).error.code, 'forbidden');
  assert.equal((await via(page, { cmd: 'resolve', ref: inFrame })).error.code, 'forbidden');
  assert.equal(await frame.textContent('#press'), 'Frame button');
  for (const p of [panel, page, otherTab]) await p.close();
});

test('forged postMessage traffic: other frames, window.open\'ed pages and made-up fields are never believed', async () => {
  const frameUrl = at('other.test', '/site.html?label=Frame button');
  const page = await b.ctx.newPage();
  await page.goto(at('app.test', `/site.html?frame=${encodeURIComponent(frameUrl)}`));
  const tabId = await b.tabId(page);
  const frame = page.frames().find((f) => f.url().startsWith(at('other.test', '/')));
  // The client in the page (app.test is always allowed since the test above).
  const connected = await page.evaluate(async () => {
    const { connect } = await import('/client/index.js');
    window.ax = await connect();
    window.seen = [];
    window.ax.on((e) => window.seen.push(e));
    return { via: window.ax.via, access: window.ax.access };
  });
  assert.deepEqual(connected, { via: 'bridge', access: 'always' });

  // The other.test frame posts into the page: a request, a made-up answer and a made-up revoke.
  await frame.evaluate(() => {
    parent.postMessage({ axsnap: 'request', msg: { cmd: 'act', ref: 'A0', action: 'click', id: 'forged-frame' } }, '*');
    parent.postMessage({ axsnap: 'event', event: { ok: false, event: 'closed', error: { code: 'revoked', message: 'forged' } } }, '*');
    parent.postMessage({ axsnap: 'answer', answer: { ok: true, id: 'forged-answer', text: 'forged' } }, '*');
  });
  const snap = await page.evaluate(() => window.ax.snapshot());
  assert.match(snap.text, /^page "Site"/, 'the real answer');
  assert.equal(snap.tabId, tabId);

  // A page it opened (same site, its own tab) posts to its opener, and asks for the opener's tab itself.
  const popupPromise = b.ctx.waitForEvent('page');
  await page.evaluate((url) => { window.popup = window.open(url); }, at('app.test', '/site.html?label=Popup'));
  const popup = await popupPromise;
  await popup.waitForLoadState();
  await popup.evaluate(() => opener.postMessage({ axsnap: 'request', msg: { cmd: 'snapshot', id: 'forged-popup' } }, '*'));
  const reach = await viaSoon(popup, { cmd: 'snapshot', tabId });
  assert.equal(reach.error?.code, 'forbidden', `a tab it opened is its own, the opener's is not: ${JSON.stringify(reach)}`);

  // Made-up sender fields: in the request (refused) and around it in the envelope (ignored: the tab is Chrome's word).
  const fake = await via(page, { cmd: 'snapshot', origin: 'http://other.test', sender: { tab: { id: 1 }, frameId: 0 } });
  assert.equal(fake.error.code, 'bad_request');
  const enveloped = await page.evaluate((other) => new Promise((resolve) => {
    addEventListener('message', (e) => { if (e.data?.answer?.id === 'envelope') resolve(e.data.answer); });
    postMessage({ axsnap: 'request', origin: 'http://other.test', sender: { tab: { id: other } }, tabId: other, msg: { cmd: 'tabs', id: 'envelope' } }, location.origin);
  }), await b.tabId(popup));
  assert.deepEqual(enveloped.tabs.map((t) => t.tabId), [tabId]);
  // Straight to the extension, from a localhost page allowed for its own tab: the same.
  const local = await b.ctx.newPage();
  await local.goto(server.url('/site.html'));
  await b.allowSite(new URL(local.url()).origin);
  assert.equal((await webCall(local, { cmd: 'snapshot', tabId, origin: 'http://app.test' })).error.code, 'bad_request');
  assert.equal((await webCall(local, { cmd: 'snapshot', tabId })).error.code, 'forbidden');

  await page.waitForTimeout(500);
  const heard = await page.evaluate(() => ({
    answers: window.answers.filter((a) => String(a?.id).startsWith('forged')), events: window.seen,
  }));
  assert.deepEqual(heard, { answers: [], events: [] }, 'nothing another window posted was relayed or believed');
  assert.equal(await page.textContent('#press'), 'Press me');
  assert.equal(await frame.textContent('#press'), 'Frame button');
  for (const p of [local, popup, page]) await p.close();
});

test('a sandboxed frame of an allowed site has an opaque origin: refused with a typed answer, never asked about', async () => {
  const page = await b.ctx.newPage();
  await page.goto(at('app.test', '/site.html'));
  // The same URL as the allowed page, sandboxed: scripts run, the origin is opaque.
  await page.evaluate((src) => new Promise((resolve) => {
    const f = document.createElement('iframe');
    f.setAttribute('sandbox', 'allow-scripts');
    Object.assign(f, { src, title: 'Sandboxed', onload: resolve });
    document.body.append(f);
  }), at('app.test', '/site.html?label=Sandboxed'));
  const frame = page.frames().find((f) => f.url().includes('label=Sandboxed'));
  assert.equal(await frame.evaluate(() => self.origin), 'null');
  const ask = (msg) => frame.evaluate((m) => new Promise((resolve) => {
    addEventListener('message', (e) => { if (e.source === window && e.data?.axsnap === 'answer' && e.data.answer?.id === m.id) resolve(e.data.answer); });
    // An opaque origin cannot be a postMessage target: '*' to its own window.
    const send = () => postMessage({ axsnap: 'request', msg: m }, '*');
    send();
    const again = setInterval(send, 500); // the bridge may still be starting
    setTimeout(() => { clearInterval(again); resolve({ timeout: true }); }, 8000);
  }), msg);
  const snap = await ask({ cmd: 'snapshot', id: 'sandboxed' });
  assert.equal(snap.error?.code, 'forbidden', JSON.stringify(snap));
  assert.match(snap.error.message, /sandboxed frame/);
  assert.equal((await ask({ cmd: 'ping', id: 'sandboxed-ping' })).ok, true, 'open commands answer');
  assert.equal((await access('null'))?.access ?? 'none', 'none', 'no grant or prompt for an opaque origin');
  // The page itself keeps its access.
  assert.equal((await viaSoon(page, { cmd: 'snapshot' })).ok, true);
  await page.close();
});

test('oversize and flooding callers get their typed errors; other sites keep working, and so does the flooder a second later', async () => {
  const page = await b.ctx.newPage();
  await page.goto(at('app.test', '/site.html'));
  const local = await b.ctx.newPage();
  await local.goto(server.url('/demo.html'));
  await b.allowSite(new URL(local.url()).origin);
  assert.equal((await viaSoon(page, { cmd: 'ping' })).ok, true);

  // Oversize, over the bridge and over a localhost page's port: too_large, with the id, and the port stays open.
  const big = await via(page, { cmd: 'snapshot', options: { root: 'x'.repeat(1_100_000) } }, 5000);
  assert.equal(big.error.code, 'too_large');
  const overPort = await local.evaluate((id) => new Promise((resolve) => {
    const port = chrome.runtime.connect(id);
    const answers = [];
    port.onMessage.addListener((m) => { answers.push(m); if (answers.length === 2) resolve(answers); });
    port.postMessage({ cmd: 'resolve', ref: 'A1', id: 'big', pad: 'y'.repeat(1_100_000) });
    port.postMessage({ cmd: 'ping', id: 'after' });
  }), EXTENSION_ID);
  assert.deepEqual(overPort.map((a) => [a.id, a.ok ? 'ok' : a.error.code]).sort(), [['after', 'ok'], ['big', 'too_large']]);

  // A flood of snapshots from app.test: it is told to slow down, every request is answered, and another site's
  // snapshot meanwhile comes back promptly.
  const flood = page.evaluate(() => Promise.all(Array.from({ length: 300 }, () => window.viaBridge({ cmd: 'snapshot' }, 60000))));
  await page.waitForTimeout(200);
  const started = Date.now();
  const other = await webCall(local, { cmd: 'snapshot' });
  const otherMs = Date.now() - started;
  assert.equal(other.ok, true, JSON.stringify(other));
  const codes = (await flood).map((a) => (a.ok ? 'ok' : a.error ? a.error.code : 'timeout'));
  const count = (c) => codes.filter((x) => x === c).length;
  console.log(`flood of 300 snapshots: ${count('ok')} answered, ${count('rate_limited')} rate_limited; another site's snapshot meanwhile took ${otherMs} ms`);
  assert.ok(count('rate_limited') > 0, codes.join(','));
  assert.equal(count('timeout'), 0, 'every request is answered');
  assert.deepEqual(new Set(codes), new Set(['ok', 'rate_limited']));
  assert.ok(otherMs < 3000, `another site waited ${otherMs} ms behind the flood`);
  await page.waitForTimeout(1100);
  assert.equal((await via(page, { cmd: 'snapshot' })).ok, true, 'the flooder works again once it slows down');
  for (const p of [local, page]) await p.close();
});

test('Allow once ends when its tab closes, in every tab of the site', async () => {
  const first = await allowedPage('once.test', 'Allow once');
  const origin = new URL(first.url()).origin;
  const second = await b.ctx.newPage();
  await second.goto(at('once.test', '/site.html?second'));
  // The bridge is there while "Allow once" lasts, but the grant is the first tab's.
  assert.equal((await viaSoon(second, { cmd: 'snapshot' })).error.code, 'consent_required');
  assert.equal((await via(first, { cmd: 'snapshot' })).ok, true);
  await first.close();
  for (let i = 0; i < 20 && (await access(origin)).access !== 'none'; i++) await second.waitForTimeout(100);
  assert.equal((await access(origin)).access, 'none');
  // Ended: the bridge goes too (its registration, and the port of the page still open), so the page hears nothing.
  await second.waitForTimeout(300);
  assert.deepEqual(await via(second, { cmd: 'snapshot' }, 1500), { timeout: true });
  await second.close();
});

test('Always allow survives a browser restart (the same profile); Allow once does not', async () => {
  // app.test: always (the first test); other.test: once, in a tab closed since.
  await b.close();
  b = await launch({ extensionDir: ext.dir, profile, args: ARGS });
  const page = await b.ctx.newPage();
  await page.goto(at('app.test', '/site.html'));
  const snap = await viaSoon(page, { cmd: 'snapshot' });
  assert.equal(snap.ok, true, `no prompt after the restart: ${JSON.stringify(snap)}`);
  assert.match(snap.text, /button A\d+ "Press me"/);
  const hello = await via(page, { cmd: 'hello' });
  assert.equal(hello.access, 'always');
  assert.deepEqual(hello.tabs, [await b.tabId(page)]);

  const other = await b.ctx.newPage();
  await other.goto(at('other.test', '/site.html'));
  const refused = await via(other, { cmd: 'snapshot' }, 1500);
  assert.ok(refused.timeout || refused.error.code === 'consent_required', JSON.stringify(refused));
  assert.equal((await access(new URL(other.url()).origin)).access, 'none');
  for (const p of [other, page]) await p.close();
});
