// Sites asking for axsnap, end to end: the person answers in the panel (its
// buttons clicked as a person would), sites on 127.0.0.1 and localhost call
// through externally_connectable, other sites (app.test, other.test, mapped
// to 127.0.0.1) through the bridge content script the panel gives them.
//
// The extension is loaded from a copy whose manifest grants host access to
// *.test up front (harness.mjs, extensionWithHostAccess).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, webCall, refOf, extensionWithHostAccess, until, ROOT, EXTENSION_ID } from '../harness.mjs';
import { serve } from '../server.mjs';
import { openPanel as panelIn, answerPrompt, openSites, letConnect } from '../consent.mjs';

let b;
let server;
let server2; // the same pages on another port: other origins on the same hosts
let ext;

before(async () => {
  ext = await extensionWithHostAccess(['http://*.test/*']);
  server = await serve({ '/': join(ROOT, 'tests/fixtures') });
  server2 = await serve({ '/': join(ROOT, 'tests/fixtures') });
  b = await launch({ extensionDir: ext.dir, args: ['--host-resolver-rules=MAP *.test 127.0.0.1'] });
});

after(async () => {
  await b?.close();
  await server?.close();
  await server2?.close();
  await ext?.remove();
});

const originOf = (page) => new URL(page.url()).origin;
const openPanel = (tabId) => panelIn(b, tabId);

async function siteAccess(origin) {
  return b.panel.evaluate(async (o) => (await import('/extension/worker/grants.js')).readGrant(o), origin);
}

test('a localhost site: consent_required until the person answers; Deny, Forget, Allow once, Revoke (its open port too)', async () => {
  const page = await b.ctx.newPage();
  await page.goto(server.url('/site.html'));
  const origin = originOf(page);
  const tabId = await b.tabId(page);

  const first = await webCall(page, { cmd: 'snapshot' });
  assert.equal(first.ok, false);
  assert.equal(first.error.code, 'consent_required', JSON.stringify(first));
  assert.ok(!('text' in first));
  const hello = await webCall(page, { cmd: 'hello' });
  assert.equal(hello.ok, true, JSON.stringify(hello));
  assert.equal(hello.access, 'none');
  assert.deepEqual(hello.commands, ['hello', 'ping']);
  assert.deepEqual(hello.tabs, []);

  const panel = await openPanel(tabId);
  const group = panel.getByRole('group', { name: `${origin} asks for access` });
  await group.waitFor();
  assert.match(await group.textContent(), /asks to use axsnap: to read the page in its tab/);
  await answerPrompt(panel, origin, 'Deny');
  assert.equal((await webCall(page, { cmd: 'snapshot' })).error.code, 'denied');
  assert.equal((await webCall(page, { cmd: 'tabs' })).error.code, 'denied');

  await openSites(panel);
  await panel.getByRole('button', { name: `Forget ${origin}: it may ask again` }).click();
  await panel.getByRole('button', { name: `Forget ${origin}: it may ask again` }).waitFor({ state: 'detached' });
  assert.equal((await webCall(page, { cmd: 'snapshot' })).error.code, 'consent_required');
  await answerPrompt(panel, origin, 'Allow once');

  const snap = await webCall(page, { cmd: 'snapshot' });
  assert.equal(snap.ok, true, JSON.stringify(snap));
  assert.match(snap.text, /button A\d+ "Press me"/);
  const again = await webCall(page, { cmd: 'hello' });
  assert.equal(again.access, 'once');
  assert.deepEqual(again.tabs, [tabId]);
  assert.ok(again.commands.includes('snapshot') && !again.commands.includes('navigate'));

  // A long-lived port: requests with ids, then the person revokes.
  await page.evaluate((id) => {
    window.port = chrome.runtime.connect(id);
    window.portMessages = [];
    window.portClosed = false;
    window.port.onMessage.addListener((m) => window.portMessages.push(m));
    window.port.onDisconnect.addListener(() => { window.portClosed = true; });
    window.port.postMessage({ cmd: 'snapshot', id: 'p1' });
  }, EXTENSION_ID);
  await page.waitForFunction(() => window.portMessages.some((m) => m.id === 'p1'));
  const viaPort = await page.evaluate(() => window.portMessages.find((m) => m.id === 'p1'));
  assert.equal(viaPort.ok, true, JSON.stringify(viaPort));
  const ref = refOf(viaPort.text, 'Press me');

  await panel.getByRole('button', { name: `Revoke ${origin}` }).click();
  await page.waitForFunction(() => window.portClosed, null, { timeout: 5000 });
  const closing = await page.evaluate(() => window.portMessages.at(-1));
  assert.equal(closing.event, 'closed');
  assert.equal(closing.error.code, 'revoked');
  for (const msg of [{ cmd: 'snapshot' }, { cmd: 'act', ref, action: 'click' }, { cmd: 'resolve', ref }]) {
    assert.equal((await webCall(page, msg)).error.code, 'revoked', JSON.stringify(msg));
  }
  assert.equal(await page.textContent('#press'), 'Press me', 'nothing was clicked');
  assert.equal((await siteAccess(origin)).access, 'revoked');
  await panel.close();
  await page.close();
});

test('Allow once lasts until its tab closes; Always allow reaches every tab of the site; other tabs only when shared', async () => {
  const page = await b.ctx.newPage();
  await page.goto(server.url('/site.html', 'localhost'));
  const origin = originOf(page);
  const tabId = await b.tabId(page);
  assert.equal((await webCall(page, { cmd: 'snapshot' })).error.code, 'consent_required');
  const panel = await openPanel(tabId);
  await answerPrompt(panel, origin, 'Allow once');
  assert.equal((await webCall(page, { cmd: 'snapshot' })).ok, true);

  const second = await b.ctx.newPage();
  await second.goto(server.url('/demo.html', 'localhost'));
  assert.equal((await webCall(second, { cmd: 'snapshot' })).error.code, 'consent_required', 'the same site in another tab asks again');
  await page.close();
  await second.waitForTimeout(300);
  assert.equal((await siteAccess(origin)).access, 'none', 'closing the tab ended "Allow once"');

  await answerPrompt(panel, origin, 'Always allow');
  const own = await webCall(second, { cmd: 'snapshot' });
  assert.equal(own.ok, true, JSON.stringify(own));
  assert.equal((await b.panel.evaluate((o) => chrome.storage.local.get('grants'), origin)).grants[origin].access, 'always');

  // Another tab: forbidden, until the person shares it from the panel (working in that tab).
  const other = await b.ctx.newPage();
  await other.goto(server.url('/form.html'));
  const otherId = await b.tabId(other);
  assert.equal((await webCall(second, { cmd: 'snapshot', tabId: otherId })).error.code, 'forbidden');
  const list = await webCall(second, { cmd: 'tabs' });
  assert.deepEqual(list.tabs.map((t) => t.tabId), [await b.tabId(second)]);
  const inOther = await openPanel(otherId);
  await openSites(inOther);
  await inOther.getByRole('button', { name: `Share Checkout with ${origin}` }).click();
  await inOther.getByRole('button', { name: `Stop sharing “Checkout” with ${origin}` }).waitFor();
  const shared = await webCall(second, { cmd: 'snapshot', tabId: otherId, options: { full: true } });
  assert.equal(shared.ok, true, JSON.stringify(shared));
  assert.match(shared.text, /Cross button/, 'a shared tab is seen whole');
  await inOther.getByRole('button', { name: `Stop sharing “Checkout” with ${origin}` }).click();
  await inOther.getByRole('button', { name: `Share Checkout with ${origin}` }).waitFor();
  assert.equal((await webCall(second, { cmd: 'snapshot', tabId: otherId })).error.code, 'forbidden');
  for (const p of [panel, inOther, other, second]) await p.close();
});

test('the bridge: app.test allowed from the panel talks over postMessage; other sites, frames and windows get nothing', async () => {
  const other = await b.ctx.newPage();
  await other.goto(`http://other.test:${server.port}/site.html`);
  const page = await b.ctx.newPage();
  await page.goto(`http://app.test:${server.port}/site.html?frame=${encodeURIComponent(`http://other.test:${server.port}/site.html`)}`);
  const origin = originOf(page);
  const tabId = await b.tabId(page);
  // Never allowed: no bridge, so no answer at all (the client says consent_required after its probe).
  assert.deepEqual(await page.evaluate(() => window.viaBridge({ cmd: 'snapshot' }, 800)), { timeout: true });

  const panel = await openPanel(tabId);
  await openSites(panel);
  await panel.getByRole('button', { name: 'Let this tab\'s site connect' }).click();
  await answerPrompt(panel, origin, 'Allow once');
  let snap;
  for (let i = 0; i < 20 && !(snap && snap.ok); i++) snap = await page.evaluate(() => window.viaBridge({ cmd: 'snapshot', options: { full: true } }, 1000));
  assert.equal(snap.ok, true, JSON.stringify(snap));
  assert.equal(snap.tabId, tabId);
  assert.match(snap.text, /button A\d+ "Press me"/);
  assert.ok(!/iframe "Embedded"\n +(#|button)/.test(snap.text), `the other.test frame is not app.test's:\n${snap.text}`);
  const act = await page.evaluate((ref) => window.viaBridge({ cmd: 'act', ref, action: 'click' }), refOf(snap.text, 'Press me'));
  assert.equal(act.ok, true, JSON.stringify(act));
  assert.equal(await page.textContent('#press'), 'Pressed');

  // The other.test frame inside the allowed page has its own origin: its own bridge (host access covers *.test here) gets consent_required.
  const frame = page.frames().find((f) => f !== page.mainFrame());
  const framed = await frame.evaluate(() => window.viaBridge({ cmd: 'snapshot' }, 1500));
  assert.ok(framed.timeout || framed.error.code === 'consent_required', JSON.stringify(framed));
  // Forged traffic: the frame posting to its parent, a window.open'ed page posting to its opener, fake origin fields.
  await frame.evaluate(() => parent.postMessage({ axsnap: 'request', msg: { cmd: 'snapshot', id: 'forged-frame' } }, '*'));
  const popupPromise = b.ctx.waitForEvent('page');
  await page.evaluate((url) => { window.popup = window.open(url); }, `http://other.test:${server.port}/site.html`);
  const popup = await popupPromise;
  await popup.waitForLoadState();
  await popup.evaluate(() => opener.postMessage({ axsnap: 'request', msg: { cmd: 'snapshot', id: 'forged-popup' } }, '*'));
  const fake = await page.evaluate(() => window.viaBridge({ cmd: 'snapshot', origin: 'http://app.test', sender: { tab: { id: 1 } } }));
  assert.equal(fake.error.code, 'bad_request', 'fields a page adds are refused, never believed');
  await page.waitForTimeout(800);
  const forged = await page.evaluate(() => window.answers.filter((a) => a && String(a.id).startsWith('forged')));
  assert.deepEqual(forged, [], 'nothing posted by another window is relayed');
  assert.equal((await popup.evaluate(() => window.viaBridge({ cmd: 'snapshot' }, 1500))).timeout || false, true, 'other.test was never allowed: no answer');

  // Oversize and flooding: typed errors, and other callers keep working.
  const big = await page.evaluate(() => window.viaBridge({ cmd: 'snapshot', options: { root: 'x'.repeat(1_100_000) } }, 5000));
  assert.equal(big.error.code, 'too_large', JSON.stringify(big).slice(0, 200));
  const flood = await page.evaluate(() => Promise.all(Array.from({ length: 400 }, () => window.viaBridge({ cmd: 'ping' }, 8000))));
  const codes = flood.map((a) => (a.ok ? 'ok' : a.error ? a.error.code : 'timeout'));
  assert.ok(codes.includes('rate_limited'), codes.join(','));
  assert.ok(!codes.includes('timeout'), 'every request is answered');
  const local = await b.ctx.newPage();
  await local.goto(server.url('/demo.html'));
  assert.equal((await webCall(local, { cmd: 'ping' })).ok, true, 'another site is not slowed by the flood');

  // Revoke closes the bridge's port and cuts the site off.
  await openSites(panel);
  await panel.getByRole('button', { name: `Revoke ${origin}` }).click();
  await page.waitForFunction(() => window.events.some((e) => e.event === 'closed'), null, { timeout: 5000 });
  assert.equal((await page.evaluate(() => window.events.find((e) => e.event === 'closed'))).error.code, 'revoked');
  await page.waitForTimeout(1100); // the flood's budget refills
  assert.equal((await page.evaluate(() => window.viaBridge({ cmd: 'snapshot' }))).error.code, 'revoked');
  for (const p of [panel, popup, page, other, local]) await p.close();
});

/** A bridge request, again while the bridge may still be starting; `{timeout: true}` when none ever answers. */
async function viaSoon(page, msg, tries = 15) {
  let a;
  for (let i = 0; i < tries && !(a && !a.timeout); i++) a = await page.evaluate((m) => window.viaBridge(m, 800), msg);
  return a;
}

const bridgeIds = async () => (await b.panel.evaluate(() => chrome.scripting.getRegisteredContentScripts())).map((s) => s.id);
const promptOrigins = () => b.panel.evaluate(async () => (await import('/extension/worker/grants.js')).readPrompts().then((ps) => ps.map((p) => p.origin)));

test('Deny through the bridge: the site hears denied (not consent_required), until the person forgets it; then nothing', async () => {
  const page = await b.ctx.newPage();
  await page.goto(`http://deny.test:${server.port}/site.html`);
  const origin = originOf(page);
  const panel = await openPanel(await b.tabId(page));
  // Chrome's own prompt for host access cannot be clicked from here: the extension is given access up front,
  // and the panel's ask for it is recorded on its way through.
  await panel.evaluate(() => {
    const asked = [];
    const request = chrome.permissions.request.bind(chrome.permissions);
    /** @type {any} */ (window).askedAccess = asked;
    chrome.permissions.request = (p) => { asked.push(...(p.origins || [])); return request(p); };
  });
  await letConnect(panel, origin, 'Deny');
  assert.deepEqual(await panel.evaluate(() => /** @type {any} */ (window).askedAccess), ['http://deny.test/*'], 'Deny asks for the host access the bridge needs to say denied');
  const snap = await viaSoon(page, { cmd: 'snapshot' });
  assert.equal(snap.error?.code, 'denied', JSON.stringify(snap));
  const hello = await viaSoon(page, { cmd: 'hello' });
  assert.equal(hello.access, 'denied', JSON.stringify(hello));
  assert.deepEqual(hello.commands, ['hello', 'ping']);
  assert.ok((await bridgeIds()).includes('bridge http://deny.test/*'));
  assert.deepEqual((await promptOrigins()).filter((o) => o === origin), [], 'a denied site does not ask again');

  await openSites(panel);
  await panel.getByRole('button', { name: `Forget ${origin}: it may ask again` }).click();
  await until('the bridge unregistered', async () => !(await bridgeIds()).includes('bridge http://deny.test/*'));
  await page.waitForTimeout(300);
  assert.deepEqual(await page.evaluate(() => window.viaBridge({ cmd: 'hello' }, 1000)), { timeout: true }, 'forgotten: the bridge in the open page is silent');
  assert.deepEqual(await promptOrigins().then((o) => o.filter((x) => x === origin)), [], 'and cannot ask');
  await panel.close();
  await page.close();
});

test('the bridge is the origin\'s, not the host\'s: another port of the host gets a silent bridge; "Allow once" ending takes it away', async () => {
  const page = await b.ctx.newPage();
  await page.goto(`http://once.test:${server.port}/site.html`);
  const origin = originOf(page);
  const tabId = await b.tabId(page);
  const panel = await openPanel(tabId);
  await letConnect(panel, origin, 'Allow once');
  assert.equal((await viaSoon(page, { cmd: 'snapshot' })).ok, true);
  assert.ok((await bridgeIds()).includes('bridge http://once.test/*'));

  const silent = async (p) => {
    assert.deepEqual(await p.evaluate(() => window.viaBridge({ cmd: 'hello' }, 1500)), { timeout: true }, `${p.url()}: no answer at all`);
    assert.deepEqual(await p.evaluate(() => new Promise((resolve) => {
      addEventListener('message', (e) => { if (e.data?.axsnap === 'bridge') resolve('announced'); });
      postMessage({ axsnap: 'probe' }, location.origin);
      setTimeout(() => resolve('silent'), 800);
    })), 'silent', `${p.url()}: the bridge does not even say it is there`);
  };
  // Another origin on the same host (another port): the host's bridge is in its page, and silent.
  const otherPort = await b.ctx.newPage();
  await otherPort.goto(`http://once.test:${server2.port}/site.html`);
  await silent(otherPort);
  const asked = await promptOrigins();
  assert.ok(!asked.includes(originOf(otherPort)), `no prompt queued by another origin: ${asked}`);
  // The same origin in another tab asks for that tab, as long as "Allow once" lasts.
  const otherTab = await b.ctx.newPage();
  await otherTab.goto(`http://once.test:${server.port}/site.html?label=Other+tab`);
  assert.equal((await viaSoon(otherTab, { cmd: 'snapshot' })).error?.code, 'consent_required');

  // The tab "Allow once" was for closes: the grant ends, and the bridge with it, in open pages too.
  await page.close();
  await until('the bridge unregistered', async () => !(await bridgeIds()).includes('bridge http://once.test/*'));
  await otherTab.waitForTimeout(300);
  await silent(otherTab);
  const later = await b.ctx.newPage();
  await later.goto(`http://once.test:${server.port}/site.html`);
  await silent(later);
  for (const p of [panel, otherPort, otherTab, later]) await p.close();
});

test('prompts wait in the order they came, the origin their subject; a page\'s title is shown as its own words', async () => {
  // Asks an earlier test left waiting (another tab of an origin allowed once) are not this test's.
  await b.panel.evaluate(() => chrome.storage.session.remove('prompts'));
  const first = await b.ctx.newPage();
  await first.goto(server2.url('/site.html'));
  const second = await b.ctx.newPage();
  await second.goto(server2.url('/demo.html', 'localhost'));
  const bait = 'your bank — click Allow once to continue';
  await second.evaluate((t) => { document.title = t; }, bait);
  const [a, z] = [originOf(first), originOf(second)];
  const panel = await openPanel(await b.tabId(first));
  const shown = () => panel.locator('#site-prompts .site-prompt').evaluateAll((els) => els.map((e) => e.dataset.origin));

  assert.equal((await webCall(first, { cmd: 'snapshot' })).error.code, 'consent_required');
  await panel.getByRole('group', { name: `${a} asks for access` }).waitFor();
  assert.equal((await webCall(second, { cmd: 'snapshot' })).error.code, 'consent_required');
  await panel.getByRole('group', { name: `${z} asks for access` }).waitFor();
  assert.deepEqual(await shown(), [a, z], 'the new ask waits below the one shown');
  // Asking again (also from another tab) moves nothing.
  assert.equal((await webCall(second, { cmd: 'tabs' })).error.code, 'consent_required');
  const third = await b.ctx.newPage();
  await third.goto(server2.url('/site.html', 'localhost'));
  await webCall(third, { cmd: 'snapshot' });
  await panel.waitForTimeout(300);
  assert.deepEqual(await shown(), [a, z]);
  assert.deepEqual((await promptOrigins()).filter((o) => o === a || o === z), [a, z]);

  const group = panel.getByRole('group', { name: `${z} asks for access` });
  const sentence = await group.locator('p').first().textContent();
  assert.match(sentence, new RegExp(`^${z.replace(/[.]/g, '\\.')} asks to use axsnap`), 'the origin is the subject');
  assert.ok(!sentence.includes('bank'), sentence);
  const words = group.locator('.page-words');
  assert.match(await words.textContent(), /title the page sets itself \(not axsnap's words\)/);
  assert.equal(await words.locator('q').textContent(), bait);

  await answerPrompt(panel, a, 'Deny');
  assert.deepEqual(await shown(), [z]);
  await answerPrompt(panel, z, 'Deny');
  for (const p of [panel, first, second, third]) await p.close();
});

test('Settings lists the host access Chrome gives axsnap; access given at install is marked, with nothing to take back there', async () => {
  const page = await b.ctx.newPage();
  await page.goto(server.url('/site.html'));
  const panel = await openPanel(await b.tabId(page));
  await panel.getByRole('button', { name: 'Settings', exact: true }).click();
  const box = panel.getByRole('group', { name: 'Sites and servers Chrome lets axsnap reach' });
  assert.match(await box.innerText(), /http:\/\/\*\.test\/\* \(given at install\)/);
  assert.equal(await box.getByRole('button').count(), 0);
  for (const p of [panel, page]) await p.close();
});
