// The client package (packages/client) and the example dashboard built on it
// (examples/dashboard), in real Chromium with the real extension: the
// dashboard on app.test reaches axsnap through the bridge the person enables
// in the panel; on 127.0.0.1 the client goes through externally_connectable.
// The person's answers are clicks on the panel's buttons.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, refOf, extensionWithHostAccess, ROOT } from '../harness.mjs';
import { serve } from '../server.mjs';
import { openPanel, answerPrompt, openSites, letConnect } from '../consent.mjs';
import { serveDashboard } from '../../examples/dashboard/serve.mjs';
import { CLIENT_DIST } from '../../scripts/client.mjs';

let b;
let fixtures;
let dashboard;
let ext;

before(async () => {
  ext = await extensionWithHostAccess(['http://*.test/*']);
  // The fixtures, and the client's build for pages that import it themselves.
  fixtures = await serve({ '/client/': CLIENT_DIST, '/': join(ROOT, 'tests/fixtures') });
  dashboard = await serveDashboard();
  b = await launch({ extensionDir: ext.dir, args: ['--host-resolver-rules=MAP *.test 127.0.0.1'] });
});

after(async () => {
  await b?.close();
  await fixtures?.close();
  await dashboard?.close();
  await ext?.remove();
});

test('the dashboard on app.test: waits for the person, lists the tabs it may reach, shows a live snapshot with its tokens, runs an action', async () => {
  const target = await b.ctx.newPage();
  await target.goto(`http://other.test:${fixtures.port}/site.html`);
  const targetId = await b.tabId(target);
  const app = await b.ctx.newPage();
  await app.goto(`http://app.test:${dashboard.port}/`);
  const origin = new URL(app.url()).origin;
  const appId = await b.tabId(app);
  // No bridge before the person lets the site connect: the client says so, with the protocol's code.
  await app.getByRole('status').filter({ hasText: 'consent_required' }).waitFor();

  const panel = await openPanel(b, appId);
  await letConnect(panel, origin, 'Always allow');
  await app.getByText('Connected over the axsnap bridge: always allowed.').waitFor({ timeout: 10000 });
  const tabs = app.getByRole('list').getByRole('button');
  await tabs.first().waitFor();
  assert.equal(await tabs.count(), 1, 'only its own tab before the person shares one');
  assert.match(await tabs.first().textContent(), new RegExp(`axsnap dashboard \\(tab ${appId}\\)`));

  // The person shares the other tab with the dashboard from the panel, working in that tab.
  const inTarget = await openPanel(b, targetId);
  await openSites(inTarget);
  await inTarget.getByRole('button', { name: `Share Site with ${origin}` }).click();
  const targetButton = app.getByRole('button', { name: `Site (tab ${targetId})` });
  await targetButton.waitFor({ timeout: 5000 });
  await targetButton.click();
  const view = app.getByLabel('Snapshot text');
  await app.waitForFunction(() => /button A\d+ "Press me"/.test(document.getElementById('view').textContent));
  assert.match(await app.textContent('#view-info'), new RegExp(`^Tab ${targetId}: \\d+ tokens, \\d+ refs`));
  const text = await view.textContent();
  assert.match(text, /^page "Site" http:\/\/other\.test:\d+\/site\.html/);

  // One action, by ref: the other tab's button is pressed, and the live view follows.
  await app.getByLabel('Ref').fill(refOf(text, 'Press me'));
  await app.getByLabel('Action').selectOption('click');
  await app.getByRole('button', { name: 'Run' }).click();
  await app.getByText(/^Done: click A\d+$/).waitFor();
  assert.equal(await target.textContent('#press'), 'Pressed');
  await app.waitForFunction(() => /button A\d+ "Pressed"/.test(document.getElementById('view').textContent), null, { timeout: 5000 });
  // A failure shows its code.
  await app.getByLabel('Ref').fill('A999');
  await app.getByRole('button', { name: 'Run' }).click();
  await app.getByText(/^Failed: unknown_ref: /).waitFor();

  // Revoke: the port's closed event reaches the page.
  await openSites(panel);
  await panel.getByRole('button', { name: `Revoke ${origin}` }).click();
  await app.getByText('axsnap closed this site\'s connection: revoked').waitFor({ timeout: 15000 });
  for (const p of [inTarget, panel, app, target]) await p.close();
});

test('the client on 127.0.0.1 (externally_connectable): typed errors with the protocol\'s code, ids, timeouts, pass-through, events', async () => {
  const page = await b.ctx.newPage();
  await page.goto(fixtures.url('/demo.html'));
  const origin = new URL(page.url()).origin;
  const tabId = await b.tabId(page);
  const first = await page.evaluate(async () => {
    const { connect, AxsnapError } = await import('/client/index.js');
    window.ax = await connect();
    window.AxsnapError = AxsnapError;
    window.seen = [];
    window.ax.on((e) => window.seen.push(e));
    const refused = await window.ax.request({ cmd: 'snapshot' }).catch((e) => e);
    return { via: window.ax.via, access: window.ax.access, protocol: window.ax.info.protocol,
      error: { isAxsnapError: refused instanceof AxsnapError, code: refused.code, answer: refused.answer } };
  });
  assert.equal(first.via, 'external');
  assert.equal(first.access, 'none');
  assert.equal(first.protocol, 1);
  assert.deepEqual(first.error, { isAxsnapError: true, code: 'consent_required',
    answer: { ok: false, error: { code: 'consent_required', message: first.error.answer.error.message } } });

  const panel = await openPanel(b, tabId);
  await answerPrompt(panel, origin, 'Allow once');
  const allowed = await page.evaluate(async () => {
    const info = await window.ax.untilAllowed({ timeout: 5000 });
    const snap = await window.ax.request({ cmd: 'snapshot', id: 'mine' });
    const plain = await window.ax.snapshot({ mode: 'interactive' });
    const codes = {};
    for (const [name, req, opts] of [
      ['unknown', { cmd: 'no_such_command' }], ['forbidden', { cmd: 'navigate', url: 'https://example.com/' }],
      ['badRef', { cmd: 'resolve', ref: 'nope' }], ['timeout', { cmd: 'snapshot' }, { timeout: 1 }],
    ]) codes[name] = await window.ax.request(req, opts).then(() => 'ok', (e) => e.code);
    const aborted = new AbortController();
    const pending = window.ax.request({ cmd: 'snapshot' }, { signal: aborted.signal }).then(() => 'ok', (e) => String(e));
    aborted.abort('stop');
    return { access: info.access, tabs: info.tabs, id: snap.id, keys: Object.keys(snap).sort(), plainId: 'id' in plain,
      interactive: plain.text, codes, aborted: await pending };
  });
  assert.equal(allowed.access, 'once');
  assert.deepEqual(allowed.tabs, [tabId]);
  assert.equal(allowed.id, 'mine', 'a caller\'s own id comes back');
  assert.deepEqual(allowed.keys, ['id', 'ok', 'page', 'refs', 'stats', 'tabId', 'text'], 'the answer is the protocol\'s, nothing added');
  assert.equal(allowed.plainId, false, 'no id when the caller gave none');
  assert.match(allowed.interactive, /^page /);
  assert.deepEqual(allowed.codes, { unknown: 'unknown_command', forbidden: 'forbidden', badRef: 'bad_ref', timeout: 'timeout' });
  assert.equal(allowed.aborted, 'stop');

  // The person revokes: the port's event, then every request is refused with the code.
  await openSites(panel);
  await panel.getByRole('button', { name: `Revoke ${origin}` }).click();
  await page.waitForFunction(() => window.seen.some((e) => e.event === 'closed'), null, { timeout: 5000 });
  const after = await page.evaluate(async () => ({
    events: window.seen.map((e) => `${e.event}${e.error ? `:${e.error.code}` : ''}`),
    code: await window.ax.snapshot().then(() => 'ok', (e) => e.code),
  }));
  assert.equal(after.events[0], 'closed:revoked');
  assert.equal(after.code, 'revoked');
  await panel.close();
  await page.close();
});

test('Deny while the client\'s port is open: the closed event with denied, every request refused, the next connect() too', async () => {
  const page = await b.ctx.newPage();
  await page.goto(fixtures.url('/demo.html', 'localhost'));
  const origin = new URL(page.url()).origin;
  await page.evaluate(async () => {
    const { connect } = await import('/client/index.js');
    window.ax = await connect();
    window.seen = [];
    window.ax.on((e) => window.seen.push(e));
    window.waiting = window.ax.untilAllowed({ timeout: 20000 }).then(() => 'allowed', (e) => e.code);
  });
  const panel = await openPanel(b, await b.tabId(page));
  await answerPrompt(panel, origin, 'Deny');
  const after = await page.evaluate(async () => {
    const { connect } = await import('/client/index.js');
    const waited = await window.waiting;
    for (let i = 0; i < 50 && !window.seen.length; i++) await new Promise((r) => setTimeout(r, 100));
    const again = await connect();
    return {
      waited, events: window.seen.map((e) => `${e.event}:${e.error?.code}`),
      codes: await Promise.all([window.ax.snapshot(), again.request({ cmd: 'tabs' })].map((p) => p.then(() => 'ok', (e) => e.code))),
      access: again.access,
    };
  });
  assert.equal(after.waited, 'denied', 'untilAllowed rejects with the answer');
  assert.equal(after.events[0], 'closed:denied');
  assert.deepEqual(after.codes, ['denied', 'denied']);
  assert.equal(after.access, 'denied');
  await panel.close();
  await page.close();
});

test('watch: changes pushed over the port at a bounded rate, unwatch, at most 4 per port; ends when its tab closes or the site is revoked', async () => {
  const page = await b.ctx.newPage();
  await page.goto(fixtures.url('/site.html', 'localhost'));
  const origin = new URL(page.url()).origin;
  const other = await b.ctx.newPage();
  await other.goto(fixtures.url('/demo.html'));
  const otherId = await b.tabId(other);
  await b.allowSite(origin);
  // The person shares the other tab with the site, from the panel in that tab.
  const panel = await openPanel(b, otherId);
  await openSites(panel);
  await panel.getByRole('button', { name: new RegExp(`^Share .* with ${origin.replace(/[.]/g, '\\.')}$`) }).click();

  const started = await page.evaluate(async () => {
    const { connect } = await import('/client/index.js');
    window.ax = await connect();
    window.changes = [];
    window.sub = await window.ax.watch({ interval: 250 }, (e) => window.changes.push(e));
    const once = await chrome.runtime.sendMessage('igfmikjflpmjjplejblhobglmclempkh', { cmd: 'watch' });
    return { first: window.sub.first, once: once.error.code, commands: window.ax.info.commands };
  });
  assert.match(started.first.watch, /^w\d+$/);
  assert.match(started.first.text, /button A\d+ "Press me"/);
  assert.equal(started.once, 'bad_request', 'a single message cannot carry events');
  assert.ok(started.commands.includes('watch'));

  // The page changes fast for two seconds: a change comes, at most one per interval.
  await page.evaluate(() => {
    let n = 0;
    window.ticker = setInterval(() => { document.getElementById('press').textContent = `Tick ${++n}`; }, 20);
  });
  await page.waitForTimeout(2000);
  await page.evaluate(() => clearInterval(window.ticker));
  const changes = await page.evaluate(() => window.changes);
  assert.ok(changes.length >= 2 && changes.length <= 9, `${changes.length} changes in 2 s at 250 ms`);
  for (const c of changes) {
    assert.equal(c.event, 'change');
    assert.equal(c.watch, started.first.watch);
    assert.match(c.text, /Tick \d+/);
  }
  // Nothing changes, nothing is pushed; after unwatch, changes are not pushed either.
  await page.waitForTimeout(600);
  const quiet = await page.evaluate(() => window.changes.length);
  await page.waitForTimeout(700);
  assert.equal(await page.evaluate(() => window.changes.length), quiet, 'no event without a change');
  await page.evaluate(() => window.sub.stop());
  await page.evaluate(() => { document.getElementById('press').textContent = 'After unwatch'; });
  await page.waitForTimeout(700);
  assert.equal(await page.evaluate(() => window.changes.length), quiet, 'no event after unwatch');

  // At most 4 per port; a shared tab closing ends its subscription.
  const limits = await page.evaluate(async (tabId) => {
    window.ended = [];
    const subs = [];
    for (let i = 0; i < 4; i++) subs.push(await window.ax.watch({ tabId, interval: 250 }, (e) => { if (e.event === 'ended') window.ended.push(e.error.code); }));
    const fifth = await window.ax.watch({ tabId }).then(() => 'ok', (e) => e.code);
    await subs[3].stop();
    return fifth;
  }, otherId);
  assert.equal(limits, 'rate_limited');
  await other.close();
  await page.waitForFunction(() => window.ended.length === 3, null, { timeout: 5000 });
  assert.deepEqual(await page.evaluate(() => window.ended), ['no_tab', 'no_tab', 'no_tab']);

  // Revoke: the port closes, and with it every subscription.
  await page.evaluate(async () => {
    window.revokedSub = [];
    await window.ax.watch({ interval: 250 }, (e) => window.revokedSub.push(e));
    window.ax.on((e) => { if (e.event === 'closed') window.closedBy = e.error.code; });
  });
  await panel.getByRole('button', { name: `Revoke ${origin}` }).click();
  await page.waitForFunction(() => window.closedBy === 'revoked', null, { timeout: 5000 });
  await page.evaluate(() => { document.getElementById('press').textContent = 'After revoke'; });
  await page.waitForTimeout(800);
  assert.deepEqual(await page.evaluate(() => window.revokedSub.map((e) => e.event)), [], 'nothing pushed after the revoke');
  await panel.close();
  await page.close();
});
