// Who may reach what, end to end: web pages calling the extension through
// externally_connectable (chrome.runtime.sendMessage from the page itself)
// see and act only on frames of their own origin in their own tab, and a page
// embedded in another site's page gets nothing of that page. 127.0.0.1 and
// localhost are different sites to Chrome, so each fixture mixes the two.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withExtension, refOf, webCall } from '../harness.mjs';

const suite = withExtension({ allow: ['127.0.0.1', 'localhost'] });

const frame = (page, host) => page.frames().find((f) => f.url().includes(host));

/** Every ref A0…A{n} the caller can resolve, with the frame each lies in. */
async function resolvable(caller, n = 80) {
  const found = [];
  for (let i = 0; i <= n; i++) {
    const r = await webCall(caller, { cmd: 'resolve', ref: `A${i}` });
    if (r.ok) found.push(r);
    else assert.match(r.error.code, /unknown_ref|stale_ref|forbidden/, JSON.stringify(r));
  }
  return found;
}

test('a 127.0.0.1 page sees and acts in its own frames, never in a cross-origin iframe', async () => {
  const page = await suite.b.ctx.newPage();
  await page.goto(suite.server.url('/form.html'), { waitUntil: 'load' });
  const tabId = await suite.b.tabId(page);
  // The panel sees everything, and holds refs into the cross-origin frame.
  const all = await suite.b.call({ cmd: 'snapshot', tabId, options: { full: true } });
  assert.match(all.text, /button A\d+ "Cross button"/);

  const own = await webCall(page, { cmd: 'snapshot', options: { full: true } });
  assert.equal(own.ok, true, JSON.stringify(own.error));
  assert.equal(own.tabId, tabId);
  assert.match(own.text, /^page "Checkout"/);
  assert.match(own.text, /iframe "Same site"\n  button A\d+ "Inner button"/, 'a same-origin iframe is the page\'s own');
  for (const word of ['Cross button', 'Partner payment', 'Partner password', 'Partner card']) {
    assert.ok(!own.text.includes(word), `${word} belongs to another origin:\n${own.text}`);
  }
  assert.equal(own.stats.frames, 2);

  // No ref the page can name reaches the other origin's frame, whatever number it tries.
  const frames = new Set((await resolvable(page)).map((r) => r.frame));
  const panelCross = await suite.b.call({ cmd: 'resolve', tabId, ref: refOf(all.text, 'Cross button') });
  assert.ok(!frames.has(panelCross.frame), 'no page ref resolves into the cross-origin frame');
  assert.equal(frames.size, 2);

  // Its own elements it acts on, in the top frame and in the same-origin iframe.
  assert.equal((await webCall(page, { cmd: 'act', ref: refOf(own.text, 'Count clicks'), action: 'click' })).ok, true);
  assert.equal(await page.textContent('#counter'), 'Clicked 1');
  const inner = refOf(own.text, 'Inner button');
  assert.equal((await webCall(page, { cmd: 'act', ref: inner, action: 'click' })).ok, true);
  assert.equal(await frame(page, '/frame.html').textContent('#inner'), 'Inner clicked');
  assert.equal(await frame(page, 'localhost').textContent('#cross'), 'Cross button', 'the cross-origin frame was never touched');

  // Keys and wheel events without a ref could land in the other origin's frame.
  assert.equal((await webCall(page, { cmd: 'act', action: 'press', value: 'a' })).error.code, 'forbidden');
  assert.equal((await webCall(page, { cmd: 'act', action: 'scroll', value: 'down' })).error.code, 'forbidden');

  // The same-origin iframe moves to another origin: its old refs are now forbidden.
  await page.evaluate((url) => { document.querySelector('iframe[title="Same site"]').src = url; }, suite.server.url('/frame.html', 'localhost'));
  await page.waitForFunction(() => [...document.querySelectorAll('iframe')].every((f) => f.src.includes('localhost')));
  await new Promise((r) => setTimeout(r, 500));
  for (const cmd of [{ cmd: 'act', ref: inner, action: 'click' }, { cmd: 'resolve', ref: inner }]) {
    const res = await webCall(page, cmd);
    assert.equal(res.ok, false, JSON.stringify(res));
    assert.equal(res.error.code, 'forbidden', JSON.stringify(res));
  }
  const after = await webCall(page, { cmd: 'snapshot', options: { full: true } });
  assert.ok(!after.text.includes('Inner button'), after.text);
  // And once the frame is gone altogether, its refs are stale.
  await page.evaluate(() => document.querySelector('iframe[title="Same site"]').remove());
  assert.equal((await webCall(page, { cmd: 'resolve', ref: inner })).error.code, 'stale_ref');
  // The panel's refs were not disturbed by the page's partial snapshots.
  assert.equal((await suite.b.call({ cmd: 'resolve', tabId, ref: refOf(all.text, 'Cross button') })).ok, true);
  await page.close();
});

test('a 127.0.0.1 iframe inside another site\'s page gets nothing of that page', async () => {
  const page = await suite.b.ctx.newPage();
  await page.goto(suite.server.url('/embed.html', 'localhost'), { waitUntil: 'load' });
  const tabId = await suite.b.tabId(page);
  const widget = frame(page, '127.0.0.1');
  assert.ok(widget, 'the widget frame loaded');

  const snap = await webCall(widget, { cmd: 'snapshot', options: { full: true } });
  assert.equal(snap.ok, true, JSON.stringify(snap.error));
  assert.equal(snap.tabId, tabId);
  assert.match(snap.text, /^page "Inner" http:\/\/127\.0\.0\.1:\d+\/frame\.html\n/, `rooted at its own frame:\n${snap.text}`);
  assert.match(snap.text, /button A\d+ "Inner button"/);
  for (const word of ['Host account', '4,242', 'Host button', 'Widget']) assert.ok(!snap.text.includes(word), `${word} is the host page's:\n${snap.text}`);

  const refs = await resolvable(widget, 40);
  assert.ok(refs.length >= 2, JSON.stringify(refs));
  assert.equal(new Set(refs.map((r) => r.frame)).size, 1, 'every ref the widget can use is in its own frame');
  assert.ok(refs.every((r) => !/Host/.test(r.name)));

  assert.equal((await webCall(widget, { cmd: 'act', ref: refOf(snap.text, 'Inner button'), action: 'click' })).ok, true);
  assert.equal(await widget.textContent('#inner'), 'Inner clicked');
  assert.equal(await page.textContent('#host'), 'Host button');

  assert.equal((await webCall(widget, { cmd: 'act', action: 'press', value: 'Enter' })).error.code, 'forbidden');
  assert.equal((await webCall(widget, { cmd: 'navigate', url: 'https://example.com/' })).error.code, 'forbidden');
  assert.equal((await webCall(widget, { cmd: 'tabs', action: 'open', url: 'https://example.com/' })).error.code, 'forbidden');
  const tabs = await webCall(widget, { cmd: 'tabs' });
  assert.deepEqual(tabs.tabs.map((t) => t.tabId), [tabId], 'a page lists only its own tab');

  // Nothing of the top page in any answer to the widget: not its URL, not its title, not in facts or errors.
  const leaks = (answer) => ['embed.html', 'Host page', 'Host account'].filter((w) => JSON.stringify(answer).includes(w));
  assert.deepEqual(tabs.tabs, [{ tabId, windowId: tabs.tabs[0].windowId, title: '', url: widget.url(), active: true }], 'its own frame\'s URL, no title');
  assert.deepEqual(snap.page, { title: 'Inner', url: widget.url(), site: '127.0.0.1' }, 'the page fact is its own frame\'s');
  const waitUrl = await webCall(widget, { cmd: 'wait_for', url: 'embed', timeout: 300 });
  assert.equal(waitUrl.error?.code, 'forbidden', JSON.stringify(waitUrl));
  for (const msg of [{ cmd: 'hello' }, { cmd: 'wait_for', text: 'Host', timeout: 300 }, { cmd: 'wait_for', text: 'Inner button', timeout: 300 },
    { cmd: 'act', ref: refOf(snap.text, 'Inner button'), action: 'click', snapshot: {} }, { cmd: 'navigate', url: 'embed.html' }, { cmd: 'back' }]) {
    const answer = await webCall(widget, msg);
    assert.deepEqual(leaks(answer), [], `${JSON.stringify(msg)}: ${JSON.stringify(answer).slice(0, 400)}`);
  }
  assert.deepEqual(leaks(snap), []);
  // The top page itself is told its tab as it is.
  const own = await webCall(page, { cmd: 'tabs' });
  assert.equal(own.tabs[0].url, page.url());
  assert.equal(own.tabs[0].title, 'Host page');
  assert.equal((await webCall(page, { cmd: 'wait_for', url: 'embed', timeout: 300 })).ok, true);

  // The host page (localhost is allowed too) does not see the 127.0.0.1 widget either.
  const host = await webCall(page, { cmd: 'snapshot', options: { full: true } });
  assert.match(host.text, /^page "Host page"/);
  assert.match(host.text, /Host button/);
  assert.ok(!host.text.includes('Inner button'), host.text);
  await page.close();
});
