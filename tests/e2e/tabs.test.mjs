// Tabs, navigation and the states a tab can get stuck in, end to end:
// tabs list/open/switch/close, navigate and back with bounded waits, pages no
// extension may read, a debugger the person detached, and storage that is full.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withExtension, refOf, until } from '../harness.mjs';
import { COMMANDS } from '../../protocol/protocol.js';

const suite = withExtension();

const ok = (res) => {
  assert.equal(res.ok, true, JSON.stringify(res.error));
  return res;
};

test('every command of the protocol has a handler', async () => {
  const sample = { tabId: 999999, ref: 'A0', url: 'http://127.0.0.1:1/', action: 'click', watch: 'w0', files: [] };
  for (const [cmd, def] of Object.entries(COMMANDS)) {
    const msg = { cmd };
    if (cmd !== 'tabs') for (const k of Object.keys(def.fields)) if (k in sample) msg[k] = sample[k];
    const res = await suite.b.call(msg);
    if (cmd === 'watch' || cmd === 'unwatch') {
      // Subscriptions live on a long-lived port (tests/e2e/client.test.mjs): a single message is told so.
      assert.equal(res.error?.code, 'bad_request', JSON.stringify(res));
      assert.match(res.error.message, /port/);
      continue;
    }
    assert.ok(res.ok || !['unknown_command', 'internal', 'bad_request'].includes(res.error.code), `${JSON.stringify(msg)}: ${JSON.stringify(res)}`);
  }
});

test('tabs: open waits for the load, list, switch, navigate, back, close', async () => {
  const opened = ok(await suite.b.call({ cmd: 'tabs', action: 'open', url: suite.server.url('/demo.html') }));
  assert.equal(opened.loaded, true);
  assert.equal(opened.title, 'axsnap demo: a small shop');
  assert.equal(opened.url, suite.server.url('/demo.html'));
  const { tabId } = opened;
  const listed = ok(await suite.b.call({ cmd: 'tabs' })).tabs;
  assert.deepEqual(listed.find((t) => t.tabId === tabId), { tabId, windowId: opened.windowId, title: opened.title, url: opened.url, active: true });
  assert.ok(listed.length >= 2, 'the harness page is a tab too');

  const snap = ok(await suite.b.call({ cmd: 'snapshot', tabId }));
  const nav = ok(await suite.b.call({ cmd: 'navigate', tabId, url: suite.server.url('/cards.html') }));
  assert.deepEqual([nav.loaded, nav.url, nav.tabId], [true, suite.server.url('/cards.html'), tabId]);
  const old = await suite.b.call({ cmd: 'act', tabId, ref: refOf(snap.text, 'Sign in"'), action: 'click' });
  assert.equal(old.error.code, 'stale_ref', 'refs of the page navigated away from are stale');
  const back = ok(await suite.b.call({ cmd: 'back', tabId }));
  assert.deepEqual([back.loaded, back.url], [true, suite.server.url('/demo.html')]);
  assert.match(ok(await suite.b.call({ cmd: 'snapshot', tabId })).text, /^page "axsnap demo/);
  // Back within one document (a single-page app's history) answers at once.
  const page = suite.b.ctx.pages().find((p) => p.url() === suite.server.url('/demo.html'));
  await page.evaluate(() => history.pushState({}, '', '/demo.html?view=2'));
  const started = Date.now();
  const sameDoc = ok(await suite.b.call({ cmd: 'back', tabId }));
  assert.deepEqual([sameDoc.loaded, sameDoc.url], [true, suite.server.url('/demo.html')]);
  assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms`);

  const other = ok(await suite.b.call({ cmd: 'tabs', action: 'open', url: suite.server.url('/frame.html'), active: false }));
  assert.equal(other.active, false);
  const switched = ok(await suite.b.call({ cmd: 'tabs', action: 'switch', tabId: other.tabId }));
  assert.equal(switched.active, true);
  const active = ok(await suite.b.call({ cmd: 'snapshot' }));
  assert.equal(active.tabId, other.tabId, 'a request without tabId is about the active tab');

  assert.deepEqual(await suite.b.call({ cmd: 'tabs', action: 'close', tabId: other.tabId, id: 3 }), { ok: true, id: 3, tabId: other.tabId });
  assert.ok(!ok(await suite.b.call({ cmd: 'tabs' })).tabs.some((t) => t.tabId === other.tabId));
  assert.equal((await suite.b.call({ cmd: 'tabs', action: 'close', tabId: other.tabId })).error.code, 'no_tab');
  assert.equal((await suite.b.call({ cmd: 'tabs', action: 'switch', tabId: other.tabId })).error.code, 'no_tab');
  await suite.b.call({ cmd: 'tabs', action: 'close', tabId });
});

test('a closed tab: its record (the open dialog with it) goes at once, and a request for it answers no_tab without trying to attach', async () => {
  const page = await suite.b.ctx.newPage();
  page.on('dialog', () => {}); // a listener stops Playwright from dismissing dialogs itself
  await page.goto(suite.server.url('/dialogs.html'), { waitUntil: 'load' });
  const tabId = await suite.b.tabId(page);
  const text = ok(await suite.b.call({ cmd: 'snapshot', tabId })).text;
  ok(await suite.b.call({ cmd: 'act', tabId, ref: refOf(text, 'Warn me"'), action: 'click' }));
  const stored = await until('the dialog saved', async () => {
    const all = await suite.b.panel.evaluate(() => chrome.storage.session.get(null));
    return all[`tab:${tabId}`]?.dialog && all;
  });
  assert.equal(stored[`tab:${tabId}`].dialog.message, 'Careful!', 'the open dialog is kept in the tab\'s record');
  assert.deepEqual(Object.keys(stored).filter((k) => k.startsWith('dialog:')), [], 'and nowhere else');
  await suite.b.panel.evaluate((t) => chrome.tabs.remove(t), tabId);
  await until('the record gone', async () => !(`tab:${tabId}` in await suite.b.panel.evaluate(() => chrome.storage.session.get(null))));
  for (const msg of [{ cmd: 'snapshot', tabId }, { cmd: 'act', tabId, ref: 'A1', action: 'click' }, { cmd: 'wait_for', tabId, text: 'x' }]) {
    const started = Date.now();
    const res = await suite.b.call(msg);
    assert.deepEqual([res.error?.code, res.error?.message], ['no_tab', `tab ${tabId} was closed`], msg.cmd);
    assert.ok(Date.now() - started < 1000, `${msg.cmd} took ${Date.now() - started} ms`);
  }
});

test('navigation: bounded waits, first pages without history, URLs that may not be opened', async () => {
  const fresh = ok(await suite.b.call({ cmd: 'tabs', action: 'open', url: suite.server.url('/demo.html') }));
  const noHistory = await suite.b.call({ cmd: 'back', tabId: fresh.tabId });
  assert.equal(noHistory.error.code, 'no_history', JSON.stringify(noHistory));
  for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'chrome://settings', 'data:text/html,hi']) {
    assert.equal((await suite.b.call({ cmd: 'navigate', tabId: fresh.tabId, url })).error.code, 'forbidden', url);
    assert.equal((await suite.b.call({ cmd: 'tabs', action: 'open', url })).error.code, 'forbidden', url);
  }
  assert.equal((await suite.b.call({ cmd: 'navigate', tabId: fresh.tabId, url: 'not a url' })).error.code, 'bad_request');
  // A link's URL as a snapshot prints it is read against the tab's page.
  const relative = ok(await suite.b.call({ cmd: 'navigate', tabId: fresh.tabId, url: '/demo.html?from=path' }));
  assert.equal(relative.url, suite.server.url('/demo.html?from=path'));
  assert.equal(ok(await suite.b.call({ cmd: 'navigate', tabId: fresh.tabId, url: '?from=query' })).url, suite.server.url('/demo.html?from=query'));
  // Nothing listens there: Chrome shows its error page while the tab says `complete`.
  const refused = await suite.b.call({ cmd: 'navigate', tabId: fresh.tabId, url: 'http://127.0.0.1:9/' });
  assert.equal(refused.error?.code, 'load_failed', JSON.stringify(refused));
  assert.match(refused.error.message, /could not load http:\/\/127\.0\.0\.1:9\//);
  const opened = await suite.b.call({ cmd: 'tabs', action: 'open', url: 'http://127.0.0.1:9/missing', active: false });
  assert.equal(opened.error?.code, 'load_failed', JSON.stringify(opened));
  assert.ok(Number.isInteger(opened.error.tabId), 'the error names the tab it opened');
  ok(await suite.b.call({ cmd: 'tabs', action: 'close', tabId: opened.error.tabId }));
  // A page that never finishes loading: the answer comes at the timeout, saying so.
  const started = Date.now();
  const slow = ok(await suite.b.call({ cmd: 'navigate', tabId: fresh.tabId, url: suite.server.url('/slow?ms=5000'), timeout: 700 }));
  assert.equal(slow.loaded, false);
  assert.ok(Date.now() - started < 3000, `answered after ${Date.now() - started} ms`);
  // A tab closed while it loads answers at once, with no_tab.
  const closing = suite.b.call({ cmd: 'navigate', tabId: fresh.tabId, url: suite.server.url('/slow?ms=8000'), timeout: 20000 });
  await new Promise((r) => setTimeout(r, 300));
  const closedAt = Date.now();
  await suite.b.panel.evaluate((t) => chrome.tabs.remove(t), fresh.tabId);
  assert.equal((await closing).error?.code, 'no_tab');
  assert.ok(Date.now() - closedAt < 3000, `answered ${Date.now() - closedAt} ms after the close`);
});

test('pages no extension may read are restricted_page, decided before attaching', async () => {
  const page = await suite.b.ctx.newPage();
  await page.goto(suite.server.url('/demo.html'));
  const tabId = await suite.b.tabId(page);
  for (const url of [`view-source:${suite.server.url('/demo.html')}`, 'chrome://version/']) {
    await suite.b.panel.evaluate(([t, u]) => chrome.tabs.update(t, { url: u }), [tabId, url]);
    await page.waitForTimeout(300);
    for (const msg of [{ cmd: 'snapshot', tabId }, { cmd: 'act', tabId, ref: 'A0', action: 'click' }]) {
      const res = await suite.b.call(msg);
      assert.equal(res.error?.code, 'restricted_page', `${url}: ${JSON.stringify(res)}`);
    }
  }
  // From a restricted page an agent can still go somewhere readable.
  ok(await suite.b.call({ cmd: 'navigate', tabId, url: suite.server.url('/demo.html') }));
  assert.match(ok(await suite.b.call({ cmd: 'snapshot', tabId })).text, /^page "axsnap demo/);
  await page.close();
});

test('after the debugger is detached behind the worker\'s back, the next request without tabId attaches again', async () => {
  const page = await suite.b.ctx.newPage();
  await page.goto(suite.server.url('/form.html'), { waitUntil: 'load' });
  const tabId = await suite.b.tabId(page);
  await suite.b.panel.evaluate((t) => chrome.tabs.update(t, { active: true }), tabId);
  const first = ok(await suite.b.call({ cmd: 'snapshot' }));
  assert.equal(first.tabId, tabId);
  // Our own detach fires no onDetach: the worker still believes it is attached.
  await suite.b.panel.evaluate((t) => chrome.debugger.detach({ tabId: t }), tabId);
  const answers = [];
  for (let i = 0; i < 3; i++) answers.push(await suite.b.call({ cmd: 'snapshot' }));
  assert.ok(answers.slice(0, 1).every((r) => r.ok || r.error.code === 'detached'), JSON.stringify(answers[0]));
  assert.equal(answers[1].ok, true, `still stuck: ${JSON.stringify(answers[1].error)}`);
  assert.equal(answers[2].ok, true);
  assert.equal(refOf(answers[2].text, 'Pay now'), refOf(first.text, 'Pay now'), 'same document, same refs');
  await page.close();
});

test('storage that is full costs only that tab its saved refs, with storage_full after a restart', async () => {
  const [p1, p2] = [await suite.b.ctx.newPage(), await suite.b.ctx.newPage()];
  await p1.goto(suite.server.url('/demo.html'));
  await p2.goto(suite.server.url('/form.html'));
  const [t1, t2] = [await suite.b.tabId(p1), await suite.b.tabId(p2)];
  const s1 = ok(await suite.b.call({ cmd: 'snapshot', tabId: t1 }));
  // Fill chrome.storage.session (shared by the whole extension) to the brim.
  await suite.b.panel.evaluate(async () => {
    const quota = chrome.storage.session.QUOTA_BYTES;
    const used = await chrome.storage.session.getBytesInUse(null);
    await chrome.storage.session.set({ filler: 'x'.repeat(quota - used - 300) });
  });
  const s2 = ok(await suite.b.call({ cmd: 'snapshot', tabId: t2, options: { full: true } }));
  const pay = refOf(s2.text, 'Pay now');
  ok(await suite.b.call({ cmd: 'resolve', tabId: t2, ref: pay })); // in memory, refs work
  const cdp = await suite.b.ctx.newCDPSession(suite.b.panel);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await new Promise((r) => setTimeout(r, 300));
  const lost = await suite.b.call({ cmd: 'act', tabId: t2, ref: pay, action: 'click' });
  assert.equal(lost.error?.code, 'storage_full', JSON.stringify(lost));
  assert.match(lost.error.message, /take a new snapshot/);
  ok(await suite.b.call({ cmd: 'resolve', tabId: t1, ref: refOf(s1.text, 'Sign in"') })); // the other tab kept its refs
  await suite.b.panel.evaluate(() => chrome.storage.session.remove('filler'));
  const again = ok(await suite.b.call({ cmd: 'snapshot', tabId: t2, options: { full: true } }));
  ok(await suite.b.call({ cmd: 'act', tabId: t2, ref: refOf(again.text, 'Count clicks'), action: 'click' }));
  await Promise.all([p1.close(), p2.close()]);
});
